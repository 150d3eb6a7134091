/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A Lab tab run's progress line and its live chart: speed over data
 * written (or time) from the progress reports, an approximation until the
 * exact charts of the samples replace it (dmk-lab-page-private.h lists the
 * tab's parts). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "dmk-lab-page-private.h"
#include "dmk-size.h"
#include "dmk-text.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
/* The live chart keeps at most this many points: pairs are merged beyond,
 * so a 12 hour run draws as fast as a minute's. */
#define LIVE_POINTS_MAX 4000
#define LIVE_REDRAW_US  250000

/* ---- the progress line ------------------------------------------------------- */

/* 1234567.8 -> "1,234,568", 9.996 -> "10.0": the report's figures. */
static char *thousands(double v)
{
    if (!isfinite(v))
        return g_strdup("\u2013");
    char buf[400];
    return g_strdup(dmk_format_figure(v, buf, sizeof buf));
}

/* Stage and step for the progress line: "Latency under load, RND4K
 * Q128T1 read 40 % (step 5 of 48)". */
static char *progress_head(DmkLabPage *self, const DmkProgress *p)
{
    const char *title = _(dmk_lab_title(self->live_kind));
    if (p->n_tests <= 1 || !p->test)
        return g_strdup(title);
    const DmkTest *t = p->test;
    gboolean mixed = t->mode == DMK_MODE_MIX;
    char *what = g_strdup_printf("%s%s%s %s", t->name, mixed ? "" : " ",
                                 mixed ? "" : dmk_mode_name(t->mode), t->label);
    /* TRANSLATORS: a Lab run's progress: the test's title, the step
     * ("RND4K Q128T1 read 40 %"), its number and how many there are. */
    char *line = g_strdup_printf(_("%1$s, %2$s (step %3$zu of %4$zu)"), title, what,
                                 p->test_index + 1, p->n_tests);
    g_free(what);
    return line;
}

/* ", 1,234 MB/s (301,000 IOPS), 45 °C" while measuring. */
static void append_speed(GString *s, const DmkProgress *p)
{
    if (p->stage != DMK_STAGE_MEASURE && p->stage != DMK_STAGE_WARMUP)
        return;
    char *mb = thousands(p->mb_s);
    g_string_append_printf(s, ", %s MB/s", mb);
    g_free(mb);
    const DmkJob *j = p->test && p->test->n_jobs == 1 ? &p->test->jobs[0] : NULL;
    if (j && j->pattern == DMK_PATTERN_RND && j->block_size) {
        char *iops = thousands(p->mb_s * 1e6 / j->block_size);
        g_string_append_printf(s, " (%s IOPS)", iops);
        g_free(iops);
    }
}

/* "Sustained write: 12:34 elapsed, about 1:47:26 left, 1,234 MB/s, 45 °C". */
static char *progress_line(DmkLabPage *self, const DmkProgress *p)
{
    if (p->stage == DMK_STAGE_CLEANUP)
        return g_strdup(_("Removing the test file\u2026"));
    if (p->stage == DMK_STAGE_PREPARE || !p->test)
        /* TRANSLATORS: %d is a percentage. */
        return g_strdup_printf(self->device ? _("Preparing the region: %d %%")
                                            : _("Preparing the test file: %d %%"),
                               (int)(p->fraction * 100 + 0.5));
    char *head = progress_head(self, p);
    char *elapsed = dmk_text_clock(p->elapsed_s), *left = dmk_text_clock(p->remaining_s);
    GString *s = g_string_new(head);
    /* Idle before the first step is the settle time after the fill. */
    /* TRANSLATORS: the end of a Lab run's progress line; %s is a clock
     * time (12:34). */
    g_string_append_printf(s,
                           p->stage != DMK_STAGE_INTERVAL ? _(": %s elapsed")
                           : p->test_index == 0           ? _(": settling, %s elapsed")
                                                          : _(": idle, %s elapsed"),
                           elapsed);
    if (isfinite(p->remaining_s) && p->remaining_s >= 0)
        g_string_append_printf(s, _(", about %s left"), left);
    append_speed(s, p);
    if (isfinite(p->temp_c))
        g_string_append_printf(s, ", %.0f \u00b0C", p->temp_c);
    g_free(head);
    g_free(elapsed);
    g_free(left);
    return g_string_free(s, FALSE);
}

/* ---- the live chart ------------------------------------------------------------ */

/* Halves the points, each pair merged into its mean. */
static void thin_live(GArray *a)
{
    guint n = a->len / 2;
    for (guint i = 0; i < n; i++) {
        DmkChartPoint *p = &g_array_index(a, DmkChartPoint, 2 * i);
        DmkChartPoint q = {(p[0].x + p[1].x) / 2, (p[0].y + p[1].y) / 2};
        g_array_index(a, DmkChartPoint, i) = q;
    }
    if (a->len % 2)
        g_array_index(a, DmkChartPoint, n++) = g_array_index(a, DmkChartPoint, a->len - 1);
    g_array_set_size(a, n);
}

/* Redraws at most 4 times a second: the run shares the CPU with us. */
void _dmk_lab_page_refresh_live(DmkLabPage *self, gboolean now)
{
    self->live_series.points = (const DmkChartPoint *)(void *)self->live->data;
    self->live_series.n = self->live->len;
    gint64 t = g_get_monotonic_time();
    if (!now && t - self->live_drawn_us < LIVE_REDRAW_US)
        return;
    self->live_drawn_us = t;
    gtk_widget_queue_draw(self->live_area);
}

/* Speed against data written (sustained, full span, recovery) or against
 * time (mixed, latency), from the progress reports: an approximation
 * until the exact charts from the samples replace it. */
static void add_live_point(DmkLabPage *self, const DmkProgress *p)
{
    if ((p->stage != DMK_STAGE_MEASURE && p->stage != DMK_STAGE_WARMUP) || !p->test ||
        !isfinite(p->mb_s) || p->mb_s < 0 || self->live_kind == DMK_LAB_SURFACE)
        return;
    if (p->test_index != self->live_test) {
        self->live_base += self->live_last;
        self->live_last = 0;
        self->live_test = p->test_index;
    }
    self->live_last = (double)p->test_bytes;
    DmkChartPoint pt;
    pt.x = self->live_by_bytes ? (self->live_base + self->live_last) / GIB : p->elapsed_s;
    pt.y = self->live_iops && self->live_bs ? p->mb_s * 1e6 / self->live_bs : p->mb_s;
    g_array_append_val(self->live, pt);
    if (self->live->len > LIVE_POINTS_MAX)
        thin_live(self->live);
    if (self->live->len == 1)
        gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "live");
    _dmk_lab_page_refresh_live(self, self->live->len == 1);
}

/* The surface scan: each sample, as it ends, at its middle's place. */
void dmk_lab_page_test_done(DmkLabPage *self, const DmkTest *test, const DmkPassResult *score)
{
    if (self->live_kind != DMK_LAB_SURFACE || strcmp(test->label, "sample") != 0 || !test->n_jobs)
        return;
    DmkChartPoint pt = {((double)test->region_offset + test->jobs[0].block_size / 2.0) / 1e9,
                        score->total.mb_s};
    g_array_append_val(self->live, pt);
    if (self->live->len == 1)
        gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "live");
    _dmk_lab_page_refresh_live(self, self->live->len == 1);
}

void dmk_lab_page_progress(DmkLabPage *self, const DmkProgress *p)
{
    char *text = progress_line(self, p);
    double total = p->elapsed_s + p->remaining_s;
    /* Steps that end by bytes have no time left to tell (the surface
     * scan's reads): the share of steps done, then. */
    double steps = p->n_tests > 1 ? ((double)p->test_index + p->fraction) / (double)p->n_tests : 0;
    double fraction = p->stage == DMK_STAGE_PREPARE  ? p->fraction
                      : total > 0 && isfinite(total) ? p->elapsed_s / total
                                                     : steps;
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), CLAMP(fraction, 0, 1));
    gtk_label_set_text(GTK_LABEL(self->progress_label), text);
    g_free(text);
    add_live_point(self, p);
}

/* The surface scan's live chart: each sample's read rate at its place,
 * the x axis the whole device once the run knows its size. */
static void surface_titles(DmkLabPage *self, const DmkRunSpec *spec)
{
    DmkChartModel *m = &self->live_model;
    /* TRANSLATORS: %s is the Lab test's title. */
    g_snprintf(m->title, sizeof m->title, _("%s: read rate across the device (live)"),
               _(dmk_lab_title(self->live_kind)));
    g_snprintf(m->subtitle, sizeof m->subtitle,
               /* TRANSLATORS: %s is the device scanned. */
               _("%s: each sample as it is read; the access times follow"), spec->dir);
    g_strlcpy(m->x_title, _("Position on the device (GB)"), sizeof m->x_title);
    g_strlcpy(m->y_title, _("Read rate (MB/s)"), sizeof m->y_title);
    g_strlcpy(self->live_series.name, _("Read rate"), sizeof self->live_series.name);
    m->x_min = 0;
    m->x_max = 0; /* fits the samples so far: the device's size comes with the result */
    m->n_series = 1;
    m->series = &self->live_series;
}

/* The live chart's titles, from what the spec runs. */
static void live_titles(DmkLabPage *self, const DmkRunSpec *spec)
{
    DmkChartModel *m = &self->live_model;
    dmk_chart_model_init(m);
    const DmkTest *t = spec->n_tests ? &spec->tests[0] : NULL;
    self->live_bs = t && t->n_jobs ? t->jobs[0].block_size : 0;
    self->live_iops =
        self->live_by_bytes && t && t->n_jobs && t->jobs[0].pattern == DMK_PATTERN_RND;
    const char *metric = self->live_iops ? "iops" : "mb_s";
    if (self->live_kind == DMK_LAB_SURFACE) {
        surface_titles(self, spec);
        return;
    }
    if (self->live_by_bytes)
        /* TRANSLATORS: a live chart's title: the Lab test's title, a test's
         * name ("RND4K Q32T1"), a unit (IOPS or MB/s). */
        g_snprintf(m->title, sizeof m->title, _("%1$s: %2$s %3$s vs data written (live)"),
                   _(dmk_lab_title(self->live_kind)), t ? t->name : "",
                   self->live_iops ? "IOPS" : "MB/s");
    else
        /* TRANSLATORS: %s is the Lab test's title. */
        g_snprintf(m->title, sizeof m->title, _("%s: throughput over time (live)"),
                   _(dmk_lab_title(self->live_kind)));
    g_strlcpy(m->subtitle,
              _("Approximate, from the progress reports; the exact charts follow at the end"),
              sizeof m->subtitle);
    g_strlcpy(m->x_title, self->live_by_bytes ? _("Data written (GiB)") : _("Time (s)"),
              sizeof m->x_title);
    g_strlcpy(m->y_title, dmk_chart_metric_title(metric), sizeof m->y_title);
    g_snprintf(self->live_series.name, sizeof self->live_series.name, "%s",
               self->live_by_bytes && t ? t->name : _("All steps"));
    m->n_series = 1;
    m->series = &self->live_series;
}

void _dmk_lab_page_live_begin(DmkLabPage *self, const DmkRunSpec *spec)
{
    self->live_kind = dmk_lab_from_name(spec->lab);
    const DmkLabTest *t = dmk_lab_test(self->live_kind);
    self->live_by_bytes = t && t->by_bytes;
    self->live_test = 0;
    self->live_base = self->live_last = 0;
    g_array_set_size(self->live, 0);
    live_titles(self, spec);
    _dmk_lab_page_refresh_live(self, TRUE);
}

GtkWidget *_dmk_lab_page_build_live(DmkLabPage *self)
{
    self->live_area = dmk_lab_chart_area_new(&self->live_model);
    GtkWidget *frame = gtk_frame_new(NULL);
    gtk_frame_set_child(GTK_FRAME(frame), self->live_area);
    gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN);
    gtk_widget_add_css_class(frame, "chart");
    return frame;
}
