/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lab's timeline charts: each sample's speed as a dot against GiB
 * written with its moving average (speed), the same over the start of the
 * run (cache zoom), and speed with the drive's temperature against time
 * (temperature); the cliff and throttling the analysis found, in words. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-lab-findings.h"
#include "dmk-chart-private.h" /* dmk_chart_format_value: numbers as the charts write them */
#include "dmk-size.h"

#define GIB ((double)(1ULL << 30))
/* Beyond this a timeline's x axis counts minutes: 7,200 s says less than 120 min. */
#define MINUTES_FROM_S 1200.0
/* Series looks (dmk-chart.h: position + 1): samples blue, their average
 * orange over them, temperature red. */
#define LOOK_SAMPLES     3
#define LOOK_AVERAGE     2
#define LOOK_TEMPERATURE 4
/* The degree sign (U+00B0) in the titles is in DejaVu Sans, Segoe UI and every desktop font. */

void dmk_lab_moving_average(const double *v, size_t n, size_t window, double *out)
{
    size_t before = window / 2, after = window > 0 ? window - 1 - before : 0;
    /* A running sum over the window as it slides: O(n) for 43,200 samples. */
    double sum = 0;
    size_t count = 0, lo = 0, hi = 0; /* the window is v[lo, hi) */
    for (size_t i = 0; i < n; i++) {
        size_t want_hi = i + after + 1 < n ? i + after + 1 : n;
        size_t want_lo = i > before ? i - before : 0;
        for (; hi < want_hi; hi++)
            if (isfinite(v[hi]))
                sum += v[hi], count++;
        for (; lo < want_lo; lo++)
            if (isfinite(v[lo]))
                sum -= v[lo], count--;
        out[i] = count ? sum / (double)count : NAN;
    }
}

static double sample_speed(const DmkSample *s, const char *metric)
{
    return strcmp(metric, "iops") == 0 ? s->iops : s->mb_s;
}

/* "180,000 then 45,000 IOPS": a drop, as short as a subtitle needs it. */
static void drop_text(double before, double after, const char *metric, char *buf, size_t len)
{
    char b[32], a[32];
    dmk_chart_format_value(before, b, sizeof b);
    dmk_chart_format_value(after, a, sizeof a);
    /* TRANSLATORS: a speed's drop in a chart's subtitle ("180,000 then
     * 45,000 IOPS"); %3$s is the unit, IOPS or MB/s. */
    snprintf(buf, len, DMK_("%s then %s %s"), b, a, dmk_lab_chart_unit(metric));
}

static const char *gib_text(double bytes, char *buf, size_t len)
{
    return dmk_format_double(bytes / GIB, bytes / GIB < 10 ? 2 : 1, buf, len);
}

/* The cache found, in GiB with the digits its resolution supports (two
 * below 10 GiB at most): a digit finer than the +- would say more than
 * was measured (the report gives the +-). */
static const char *cache_gib_text(const DmkLabCliff *c, char *buf, size_t len)
{
    double gib = c->cache_bytes / GIB, err = c->cache_bytes_err / GIB;
    int decimals = gib < 10 ? 2 : 1;
    if (err > 0.05)
        decimals = 0;
    else if (err > 0.005 && decimals > 1)
        decimals = 1;
    return dmk_format_double(gib, decimals, buf, len);
}

typedef struct {
    const DmkTestResult *t;
    const char *metric;
    DmkLabCliff cliff;
    DmkLabThermal thermal;
} Timeline;

/* The cache and temperature as found (a saved file's own figures: the
 * subtitle tells what the report and the window's list tell). */
static void timeline_of(const DmkRunResult *r, const char *metric, Timeline *tl)
{
    tl->t = dmk_lab_timeline_test(r);
    tl->metric = metric;
    dmk_lab_timeline_found(r, tl->t, metric, &tl->cliff, &tl->thermal);
}

/* GiB written by the end of each sample, counted as dmk_lab_cliff counts
 * its total: each sample's MB/s over its length. */
static void written_gib(const DmkSample *s, size_t n, double *out)
{
    double bytes = 0;
    for (size_t i = 0; i < n; i++) {
        double dt = s[i].t_s - (i ? s[i - 1].t_s : 0.0);
        bytes += dt > 0 && s[i].mb_s > 0 ? s[i].mb_s * 1e6 * dt : 0.0;
        out[i] = bytes / GIB;
    }
}

static bool in_minutes(const DmkTestResult *t)
{
    return t->n_samples && t->samples[t->n_samples - 1].t_s > MINUTES_FROM_S;
}

/* The x of each sample: GiB written, or the time (s or min). */
static void timeline_x(const DmkTestResult *t, bool by_time, double *x)
{
    if (!by_time) {
        written_gib(t->samples, t->n_samples, x);
        return;
    }
    double div = in_minutes(t) ? 60.0 : 1.0;
    for (size_t i = 0; i < t->n_samples; i++)
        x[i] = t->samples[i].t_s / div;
}

/* The first sample of the after side of the drop dmk_lab_cliff found:
 * the one the drop came in (its cliff_t_s lies within it; at its end,
 * the next), or 0 when there is none. */
static size_t cliff_index(const Timeline *tl)
{
    if (!tl->cliff.cliff)
        return 0;
    size_t k = 0;
    while (k < tl->t->n_samples && tl->t->samples[k].t_s <= tl->cliff.cliff_t_s)
        k++;
    return k;
}

/* The moving average of each side of the drop on its own: averaged
 * across it, a 30-sample window would smear a cache that lasts 17 s into
 * a slope over many GiB, and the line would show neither level. */
static void split_average(const Timeline *tl, const double *speed, double *ma)
{
    size_t n = tl->t->n_samples, k = cliff_index(tl);
    dmk_lab_moving_average(speed, k, DMK_LAB_CHART_AVERAGE, ma);
    dmk_lab_moving_average(speed + k, n - k, DMK_LAB_CHART_AVERAGE, ma + k);
}

/* How one result's samples and average are drawn and named. */
typedef struct {
    char dots[160], avg[160];
    int look_dots, look_avg;
    bool one_entry; /* the average shares the dots' legend entry */
} SpeedLook;

static void speed_look(const DmkLabChartJob *l, size_t f, const Timeline *tl, SpeedLook *sl)
{
    const DmkTestResult *t = tl->t;
    if (l->n > 1) {
        /* a colour per result; the legend names the result once */
        dmk_lab_chart_result_name(l, f, sl->dots, sizeof sl->dots);
        snprintf(sl->avg, sizeof sl->avg, "%s", sl->dots);
        sl->look_dots = sl->look_avg = (int)f + 1;
        sl->one_entry = true;
        return;
    }
    char period[32];
    double p = t->n_samples ? t->samples[0].t_s : 0;
    /* TRANSLATORS: a legend's entry; %1$s is a unit (IOPS or MB/s), %2$s a
     * number of seconds. */
    snprintf(sl->dots, sizeof sl->dots, DMK_("%s of each %s s sample"),
             dmk_lab_chart_unit(tl->metric),
             dmk_format_double(p, p < 1 ? 1 : 0, period, sizeof period));
    snprintf(sl->avg, sizeof sl->avg,
             dmk_ngettext("Moving average over %d sample", "Moving average over %d samples",
                          DMK_LAB_CHART_AVERAGE),
             DMK_LAB_CHART_AVERAGE);
    sl->look_dots = LOOK_SAMPLES;
    sl->look_avg = LOOK_AVERAGE;
    sl->one_entry = false;
}

/* Adds y at x as dots, then their moving average as a line. */
static int add_dots_and_average(DmkLabChartJob *l, const Timeline *tl, const double *x,
                                const double *y, const SpeedLook *sl)
{
    size_t n = tl->t->n_samples;
    DmkChartSeries *dots = dmk_lab_chart_series(l->b, n, sl->dots);
    DmkChartSeries *avg = dots ? dmk_lab_chart_series(l->b, n, sl->avg) : NULL;
    double *ma = malloc((n ? n : 1) * sizeof *ma);
    if (!avg || !ma) {
        free(ma);
        return DMK_E_NOMEM;
    }
    split_average(tl, y, ma);
    for (size_t i = 0; i < n; i++) {
        dmk_lab_chart_points(dots)[i] = (DmkChartPoint){x[i], y[i]};
        dmk_lab_chart_points(avg)[i] = (DmkChartPoint){x[i], ma[i]};
    }
    free(ma);
    dots->style = DMK_SERIES_DOTS;
    dots->look = sl->look_dots;
    avg->look = sl->look_avg;
    avg->solid = true;
    avg->legend_with_previous = sl->one_entry;
    return DMK_OK;
}

/* Result f's samples and their average vs GiB written (or time). */
static int add_speed(DmkLabChartJob *l, size_t f, const Timeline *tl, bool by_time)
{
    const DmkTestResult *t = tl->t;
    size_t n = t->n_samples;
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    int rc = x && y ? DMK_OK : DMK_E_NOMEM;
    if (rc == DMK_OK) {
        timeline_x(t, by_time, x);
        for (size_t i = 0; i < n; i++)
            y[i] = sample_speed(&t->samples[i], tl->metric);
        SpeedLook sl;
        speed_look(l, f, tl, &sl);
        rc = add_dots_and_average(l, tl, x, y, &sl);
    }
    free(x);
    free(y);
    return rc;
}

/* The x axis from 0 to just past the last sample of any result, so the
 * plot ends where the data does (a step-rounded axis could leave a fifth
 * of it empty). */
static void fit_x(DmkLabChartJob *l)
{
    double end = 0;
    for (size_t s = 0; s < l->b->n_series; s++)
        for (size_t i = 0; i < l->b->series[s].n; i++)
            end = fmax(end, l->b->series[s].points[i].x);
    if (end > 0) {
        l->b->model.x_min = 0;
        l->b->model.x_max = end * 1.01;
    }
}

/* What the cliff analysis found, as the report says it (a drop that came
 * with the drive's maximum temperature is throttling, not a cache). */
static void cache_finding(const Timeline *tl, bool brief, char *buf, size_t len)
{
    const DmkLabCliff *c = &tl->cliff;
    char gib[32], drop[96];
    bool thermal =
        tl->thermal.throttled && c->cliff && fabs(tl->thermal.throttle_t_s - c->cliff_t_s) < 1e-6;
    if (c->n < 10 && brief)
        snprintf(buf, len, "%s", DMK_("too few samples"));
    else if (c->n < 10)
        snprintf(buf, len,
                 dmk_ngettext("too few samples (%zu) to look for a cache",
                              "too few samples (%zu) to look for a cache", c->n),
                 c->n);
    else if (thermal)
        /* TRANSLATORS: the write cache found: none, the drop is thermal. */
        snprintf(buf, len, "%s",
                 brief ? DMK_("none (throttled)")
                       : DMK_("no cache detected: the drop is throttling"));
    else if (c->cliff && brief)
        snprintf(buf, len, "%s GiB", cache_gib_text(c, gib, sizeof gib));
    else if (c->cliff)
        /* TRANSLATORS: a chart's subtitle; %1$s is the cache's size, %2$s the
         * drop after it ("180,000 then 45,000 IOPS"). */
        snprintf(buf, len, DMK_("cache %s GiB, %s"), cache_gib_text(c, gib, sizeof gib),
                 (drop_text(c->before, c->after, tl->metric, drop, sizeof drop), drop));
    else if (brief)
        /* TRANSLATORS: the write cache found: no cache. */
        snprintf(buf, len, "%s", DMK_("none"));
    else
        snprintf(buf, len, DMK_("no cache detected in %s GiB written"),
                 gib_text(c->total_bytes, gib, sizeof gib));
}

/* Several results: how to read them, and each one's cache in legend order. */
static void compare_findings(const DmkLabChartJob *l, const Timeline *tl)
{
    DmkChartModel *m = &l->b->model;
    size_t used = (size_t)snprintf(m->subtitle, sizeof m->subtitle,
                                   /* TRANSLATORS: a chart's subtitle, then each drive's cache
                                    * ("4.2 GiB; none"). */
                                   DMK_("Dots: each sample; lines: %d-sample average. Cache: "),
                                   DMK_LAB_CHART_AVERAGE);
    for (size_t f = 0; f < l->n && used < sizeof m->subtitle; f++) {
        char one[64];
        cache_finding(&tl[f], true, one, sizeof one);
        used += (size_t)snprintf(m->subtitle + used, sizeof m->subtitle - used, "%s%s",
                                 f ? "; " : "", one);
    }
}

/* "Sustained write RND4K Q32T1", "Recovery, degradation RND4K Q32T1";
 * less where the results differ. */
static void timeline_head(const DmkLabChartJob *l, const Timeline *tl, char *buf, size_t len)
{
    DmkLabKind lab = dmk_lab_from_name(l->res[0]->lab);
    bool same_lab = true, same_test = true;
    for (size_t f = 1; f < l->n; f++) {
        same_lab = same_lab && strcmp(l->res[f]->lab, l->res[0]->lab) == 0;
        same_test = same_test && strcmp(tl[f].t->test.name, tl[0].t->test.name) == 0;
    }
    if (!same_lab) {
        if (same_test)
            /* TRANSLATORS: a chart's title's start; %s is a test's name. */
            snprintf(buf, len, DMK_("Lab writes %s"), tl->t->test.name);
        else
            snprintf(buf, len, "%s", DMK_("Lab writes"));
        return;
    }
    const char *name = same_test ? tl->t->test.name : "";
    if (lab == DMK_LAB_RECOVERY)
        /* TRANSLATORS: a chart's title's start: the lab test's title
         * ("Recovery"), then a test's name ("RND4K Q32T1") or nothing. */
        snprintf(buf, len, DMK_("%s, degradation %s"), dmk_lab_title(lab), name);
    else
        snprintf(buf, len, "%s %s", dmk_lab_title(lab), name);
    size_t n = strlen(buf);
    if (n && buf[n - 1] == ' ')
        buf[n - 1] = '\0'; /* no test's name */
}

/* Up to twice the cache found, else the first tenth of the run. */
static double zoom_end(const Timeline *tl)
{
    double total = tl->cliff.total_bytes / GIB;
    double end = tl->cliff.cliff ? 2 * tl->cliff.cache_bytes / GIB : total / 10;
    return fmin(end, total);
}

static void set_zoom(const DmkLabChartJob *l, const Timeline *tl, char *title_tail, size_t len)
{
    double end = 0;
    for (size_t f = 0; f < l->n; f++)
        end = fmax(end, zoom_end(&tl[f]));
    char a[32];
    /* TRANSLATORS: the end of a zoomed chart's title. */
    snprintf(title_tail, len, DMK_(", the first %s GiB"),
             dmk_format_double(end, end < 10 ? 2 : 1, a, sizeof a));
    if (end > 0) {
        l->b->model.x_min = 0;
        l->b->model.x_max = end;
    }
}

static int build_speed(DmkLabChartJob *l, Timeline *tl)
{
    int rc = dmk_lab_chart_alloc(l->b, 2 * l->n, 0);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        rc = add_speed(l, f, &tl[f], false);
    if (rc != DMK_OK)
        return rc;
    DmkChartModel *m = &l->b->model;
    char head[128], tail[64] = "", finding[160];
    timeline_head(l, tl, head, sizeof head);
    if (l->kind == DMK_LAB_CHART_ZOOM)
        set_zoom(l, tl, tail, sizeof tail);
    else
        fit_x(l);
    /* TRANSLATORS: a chart's title: its start ("Sustained write RND4K Q32T1"),
     * a unit (IOPS or MB/s), and for the zoom ", the first 8 GiB". */
    snprintf(m->title, sizeof m->title, DMK_("%s: %s vs GiB written%s"), head,
             dmk_lab_chart_unit(tl->metric), tail);
    snprintf(m->x_title, sizeof m->x_title, "%s", DMK_("GiB written"));
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title(tl->metric));
    if (l->n == 1) {
        cache_finding(tl, false, finding, sizeof finding);
        dmk_lab_chart_subtitle(l, finding);
    } else {
        compare_findings(l, tl);
    }
    return DMK_OK;
}

/* The temperature line, on the right axis. */
static int add_temperature(DmkLabChartJob *l, const Timeline *tl)
{
    const DmkTestResult *t = tl->t;
    DmkChartSeries *s =
        dmk_lab_chart_series(l->b, t->n_samples, DMK_("Drive temperature (right axis)"));
    if (!s)
        return DMK_E_NOMEM;
    double div = in_minutes(t) ? 60.0 : 1.0;
    for (size_t i = 0; i < t->n_samples; i++)
        dmk_lab_chart_points(s)[i] = (DmkChartPoint){t->samples[i].t_s / div, t->samples[i].temp_c};
    s->axis = DMK_Y_RIGHT;
    s->look = LOOK_TEMPERATURE;
    s->solid = true;
    return DMK_OK;
}

/* "41 to 80 C, throttled after 95 s at 80 C, 29,600 then 7,680 IOPS",
 * with degree signs. */
static void thermal_finding(const Timeline *tl, char *buf, size_t len)
{
    const DmkLabThermal *th = &tl->thermal;
    char lo[16], hi[16], at[32], c[16], drop[96];
    dmk_format_double(th->min_c, 0, lo, sizeof lo);
    dmk_format_double(th->max_c, 0, hi, sizeof hi);
    if (!th->throttled) {
        snprintf(buf, len, DMK_("%s to %s \u00b0C, no thermal throttling detected"), lo, hi);
        return;
    }
    dmk_chart_format_value(th->throttle_t_s, at, sizeof at);
    dmk_format_double(th->throttle_c, 0, c, sizeof c);
    drop_text(th->before, th->after, tl->metric, drop, sizeof drop);
    /* TRANSLATORS: a chart's subtitle: the lowest and highest temperature,
     * when and at which the drive throttled, the speed's drop ("29,600 then
     * 7,680 IOPS"). */
    snprintf(buf, len, DMK_("%s to %s \u00b0C, throttled after %s s at %s \u00b0C, %s"), lo, hi, at,
             c, drop);
}

static void no_sensor(DmkLabChartJob *l)
{
    DmkChartModel *m = &l->b->model;
    const char *dev = l->res[0]->target.device;
    char finding[160];
    snprintf(m->no_data, sizeof m->no_data, "%s", DMK_("No temperature sensor"));
    if (dev[0])
        /* TRANSLATORS: %1$s is a device ("/dev/nvme0n1"), %2$s a chart's
         * name ("Speed"). */
        snprintf(finding, sizeof finding,
                 DMK_("no temperature readable for %.64s; the speed is on the %s chart"), dev,
                 dmk_lab_chart_title(DMK_LAB_CHART_SPEED));
    else
        /* TRANSLATORS: %s is a chart's name ("Speed"). */
        snprintf(finding, sizeof finding,
                 DMK_("no temperature readable; the speed is on the %s chart"),
                 dmk_lab_chart_title(DMK_LAB_CHART_SPEED));
    dmk_lab_chart_subtitle(l, finding);
}

static int build_temperature(DmkLabChartJob *l, Timeline *tl)
{
    DmkChartModel *m = &l->b->model;
    char head[128], finding[256];
    timeline_head(l, tl, head, sizeof head);
    /* TRANSLATORS: a chart's title: its start ("Sustained write RND4K Q32T1"),
     * a unit (IOPS or MB/s). */
    snprintf(m->title, sizeof m->title, DMK_("%s: %s and temperature vs time"), head,
             dmk_lab_chart_unit(tl->metric));
    snprintf(m->x_title, sizeof m->x_title, "%s",
             in_minutes(tl->t) ? DMK_("Time (min)") : DMK_("Time (s)"));
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title(tl->metric));
    snprintf(m->y2_title, sizeof m->y2_title, "%s", DMK_("Temperature (\u00b0C)"));
    int rc = dmk_lab_chart_alloc(l->b, 3, 0);
    if (rc != DMK_OK)
        return rc;
    if (!tl->thermal.sensor) {
        no_sensor(l);
        return DMK_OK;
    }
    rc = add_speed(l, 0, tl, true);
    if (rc == DMK_OK)
        rc = add_temperature(l, tl);
    fit_x(l);
    thermal_finding(tl, finding, sizeof finding);
    dmk_lab_chart_subtitle(l, finding);
    return rc;
}

int dmk_lab_chart_build_timeline(DmkLabChartJob *l)
{
    Timeline *tl = calloc(l->n, sizeof *tl);
    if (!tl)
        return DMK_E_NOMEM;
    /* One unit for all: the first result's, unless asked for another. */
    const char *metric =
        l->opt.metric ? l->opt.metric : dmk_lab_metric(&dmk_lab_timeline_test(l->res[0])->test);
    for (size_t f = 0; f < l->n; f++)
        timeline_of(l->res[f], metric, &tl[f]);
    int rc = l->kind == DMK_LAB_CHART_TEMPERATURE ? build_temperature(l, tl) : build_speed(l, tl);
    free(tl);
    return rc;
}
