/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-stall-probe.h"

#include <stdio.h>

/* The few longest gaps, with when they began: where to look first. */
#define PROBE_TOP 5

typedef struct {
    char *path;
    gint64 start, last_wake, last_frame;
    guint64 wakeups, frames;
    gint64 max_frame;
    gint64 gap[PROBE_TOP], gap_at[PROBE_TOP]; /* longest first, us */
    guint timeout;
} Probe;

static void note_gap(Probe *p, gint64 gap, gint64 at)
{
    for (int i = 0; i < PROBE_TOP; i++) {
        if (gap <= p->gap[i])
            continue;
        for (int j = PROBE_TOP - 1; j > i; j--) {
            p->gap[j] = p->gap[j - 1];
            p->gap_at[j] = p->gap_at[j - 1];
        }
        p->gap[i] = gap;
        p->gap_at[i] = at;
        return;
    }
}

/* Every 1 ms at high priority: a late wake-up is time the loop spent in
 * something else (a handler, a layout, a draw) it could not leave. */
static gboolean on_wake(gpointer data)
{
    Probe *p = data;
    gint64 now = g_get_monotonic_time();
    if (p->last_wake)
        note_gap(p, now - p->last_wake, p->last_wake - p->start);
    p->last_wake = now;
    p->wakeups++;
    return G_SOURCE_CONTINUE;
}

/* The tick keeps the frame clock running, a frame each refresh; a long
 * interval is a frame the window could not paint in time. */
static gboolean on_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    Probe *p = data;
    gint64 t = gdk_frame_clock_get_frame_time(clock);
    if (p->last_frame && t - p->last_frame > p->max_frame)
        p->max_frame = t - p->last_frame;
    p->last_frame = t;
    p->frames++;
    return G_SOURCE_CONTINUE;
}

static void write_figures(const Probe *p, FILE *f)
{
    fprintf(f,
            "stall-probe\twakeups\t%" G_GUINT64_FORMAT
            "\tmax_gap_ms\t%.2f\tframes\t%" G_GUINT64_FORMAT
            "\tmax_frame_ms\t%.2f\tseconds\t%.1f\n",
            p->wakeups, p->gap[0] / 1000.0, p->frames, p->max_frame / 1000.0,
            (g_get_monotonic_time() - p->start) / 1e6);
    for (int i = 0; i < PROBE_TOP && p->gap[i]; i++)
        fprintf(f, "stall-gap\t%.2f\tat_s\t%.3f\n", p->gap[i] / 1000.0, p->gap_at[i] / 1e6);
}

static void on_window_destroy(GtkWidget *window, gpointer data)
{
    (void)window;
    Probe *p = data;
    g_source_remove(p->timeout);
    FILE *f = g_strcmp0(p->path, "-") == 0 ? stderr : fopen(p->path, "w");
    if (f) {
        write_figures(p, f);
        if (f != stderr)
            fclose(f);
    } else {
        g_printerr("drivemark: stall probe: cannot write %s\n", p->path);
    }
    g_free(p->path);
    g_free(p);
}

void dmk_stall_probe_start(GtkWidget *window)
{
    const char *path = g_getenv("DMK_STALL_PROBE");
    if (!path || !path[0])
        return;
    Probe *p = g_new0(Probe, 1);
    p->path = g_strdup(path);
    p->start = g_get_monotonic_time();
    p->timeout = g_timeout_add_full(G_PRIORITY_HIGH, 1, on_wake, p, NULL);
    gtk_widget_add_tick_callback(window, on_tick, p, NULL);
    g_signal_connect(window, "destroy", G_CALLBACK(on_window_destroy), p);
}
