/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-stall-probe.h"

#include <stdio.h>
#include <time.h>
#ifdef G_OS_WIN32
#include <windows.h>
#endif

/* The few longest gaps, with when they began: where to look first. */
#define PROBE_TOP 5

typedef struct {
    char *path;
    gint64 start, last_wake, last_frame, stop_time;
    gint64 last_cpu;              /* the main thread's CPU time at the last wake-up */
    gint64 max_busy, max_busy_at; /* the most CPU time one gap held */
    guint64 wakeups, frames;
    gint64 max_frame;
    gint64 gap[PROBE_TOP], gap_at[PROBE_TOP], gap_cpu[PROBE_TOP]; /* longest first, us */
    /* A frame's phases (dmk_stall_probe_start): the main thread's CPU
     * time in the frame clock's update (tick callbacks, CSS animations),
     * layout (style and size) and paint (snapshot and render), the most
     * any one frame took, us: where a stall inside a frame goes. */
    gint64 phase_cpu, max_phase[3];
    guint timeout;
    gboolean armed;   /* the window's first frame is painted: gaps count from now */
    gboolean stopped; /* dmk_stall_probe_stop: the figures are final */
} Probe;

/* The one probe there is (one window), for dmk_stall_probe_stop. */
static Probe *the_probe;

/* The main thread's CPU time, us: a long gap in which it used little was
 * time it waited (for a core, on a busy machine, or for a lock), not work
 * of its own. POSIX's clock, Windows' GetThreadTimes (mingw's
 * clock_gettime is winpthreads', which the build does not link); where a
 * system has neither, 0 (no split). */
static gint64 thread_cpu_us(void)
{
#ifdef G_OS_WIN32
    FILETIME created, ended, kernel, user;
    if (GetThreadTimes(GetCurrentThread(), &created, &ended, &kernel, &user)) {
        ULARGE_INTEGER k = {.LowPart = kernel.dwLowDateTime, .HighPart = kernel.dwHighDateTime};
        ULARGE_INTEGER u = {.LowPart = user.dwLowDateTime, .HighPart = user.dwHighDateTime};
        return (gint64)((k.QuadPart + u.QuadPart) / 10); /* 100 ns units */
    }
#elif defined CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (gint64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#endif
    return 0;
}

static void note_gap(Probe *p, gint64 gap, gint64 at, gint64 cpu)
{
    if (cpu > p->max_busy) {
        p->max_busy = cpu;
        p->max_busy_at = at;
    }
    for (int i = 0; i < PROBE_TOP; i++) {
        if (gap <= p->gap[i])
            continue;
        for (int j = PROBE_TOP - 1; j > i; j--) {
            p->gap[j] = p->gap[j - 1];
            p->gap_at[j] = p->gap_at[j - 1];
            p->gap_cpu[j] = p->gap_cpu[j - 1];
        }
        p->gap[i] = gap;
        p->gap_at[i] = at;
        p->gap_cpu[i] = cpu;
        return;
    }
}

/* Every 1 ms at high priority: a late wake-up is time the loop spent in
 * something else (a handler, a layout, a draw) it could not leave. */
static gboolean on_wake(gpointer data)
{
    Probe *p = data;
    gint64 now = g_get_monotonic_time(), cpu = thread_cpu_us();
    if (p->stopped)
        return G_SOURCE_CONTINUE;
    if (p->armed && p->last_wake)
        note_gap(p, now - p->last_wake, p->last_wake - p->start, cpu - p->last_cpu);
    p->last_wake = now;
    p->last_cpu = cpu;
    p->wakeups++;
    return G_SOURCE_CONTINUE;
}

/* Before its first frame the window is not on screen: building it and
 * its first layout are start-up time, not a stall anyone sees. */
static void on_first_paint(GdkFrameClock *clock, gpointer data)
{
    Probe *p = data;
    g_signal_handlers_disconnect_by_func(clock, on_first_paint, data);
    p->armed = TRUE;
    p->last_wake = 0;
    p->last_frame = 0;
}

enum { PHASE_UPDATE, PHASE_LAYOUT, PHASE_PAINT };
static const char *const phase_names[] = {"update", "layout", "paint"};

/* Each phase's handlers run from the mark before it to the mark after:
 * connected after GTK's own, the marks close the phase it ran. */
static void phase_start(GdkFrameClock *clock, gpointer data)
{
    (void)clock;
    ((Probe *)data)->phase_cpu = thread_cpu_us();
}

static void phase_end(Probe *p, int phase)
{
    gint64 now = thread_cpu_us();
    if (p->armed && !p->stopped && now - p->phase_cpu > p->max_phase[phase])
        p->max_phase[phase] = now - p->phase_cpu;
    p->phase_cpu = now;
}

static void on_update_done(GdkFrameClock *clock, gpointer data)
{
    (void)clock;
    phase_end(data, PHASE_UPDATE);
}

static void on_layout_done(GdkFrameClock *clock, gpointer data)
{
    (void)clock;
    phase_end(data, PHASE_LAYOUT);
}

static void on_paint_done(GdkFrameClock *clock, gpointer data)
{
    (void)clock;
    phase_end(data, PHASE_PAINT);
}

static void watch_phases(GdkFrameClock *clock, Probe *p)
{
    g_signal_connect(clock, "before-paint", G_CALLBACK(phase_start), p);
    g_signal_connect_after(clock, "update", G_CALLBACK(on_update_done), p);
    g_signal_connect_after(clock, "layout", G_CALLBACK(on_layout_done), p);
    g_signal_connect_after(clock, "paint", G_CALLBACK(on_paint_done), p);
}

/* The tick keeps the frame clock running, a frame each refresh; a long
 * interval is a frame the window could not paint in time. */
static gboolean on_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    Probe *p = data;
    gint64 t = gdk_frame_clock_get_frame_time(clock);
    if (!p->armed && p->frames == 0) {
        g_signal_connect(clock, "after-paint", G_CALLBACK(on_first_paint), p);
        watch_phases(clock, p);
    }
    if (p->stopped)
        return G_SOURCE_CONTINUE;
    if (p->armed && p->last_frame && t - p->last_frame > p->max_frame)
        p->max_frame = t - p->last_frame;
    p->last_frame = t;
    p->frames++;
    return G_SOURCE_CONTINUE;
}

static void write_figures(const Probe *p, FILE *f)
{
    fprintf(f,
            "stall-probe\twakeups\t%" G_GUINT64_FORMAT "\tmax_gap_ms\t%.2f\tmax_busy_ms\t%.2f"
            "\tmax_busy_at_s\t%.3f\tframes\t%" G_GUINT64_FORMAT "\tmax_frame_ms\t%.2f"
            "\tseconds\t%.1f\n",
            p->wakeups, p->gap[0] / 1000.0, p->max_busy / 1000.0, p->max_busy_at / 1e6, p->frames,
            p->max_frame / 1000.0, (p->stop_time - p->start) / 1e6);
    /* The most CPU time one frame spent in each phase. */
    fprintf(f, "stall-phases");
    for (int i = 0; i < 3; i++)
        fprintf(f, "\tmax_%s_cpu_ms\t%.2f", phase_names[i], p->max_phase[i] / 1000.0);
    fprintf(f, "\n");
    /* Each of the longest gaps: its length, when it began, the CPU time the
     * main thread used in it. */
    for (int i = 0; i < PROBE_TOP && p->gap[i]; i++)
        fprintf(f, "stall-gap\t%.2f\tat_s\t%.3f\tcpu_ms\t%.2f\n", p->gap[i] / 1000.0,
                p->gap_at[i] / 1e6, p->gap_cpu[i] / 1000.0);
}

static void on_window_destroy(GtkWidget *window, gpointer data)
{
    (void)window;
    Probe *p = data;
    g_source_remove(p->timeout);
    if (!p->stopped)
        p->stop_time = g_get_monotonic_time();
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
    the_probe = NULL;
}

void dmk_stall_probe_stop(void)
{
    if (the_probe)
        the_probe->stopped = TRUE, the_probe->stop_time = g_get_monotonic_time();
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
    the_probe = p;
}
