/* Review-lab results as the reviews chart them (docs/methodology.md
 * sections 2-5). Every number comes from core/dmk-lab.h's analysis; this
 * file chooses series, axes, titles and words. */
#include "dmk-chart-lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define DEGREE           "\xC2\xB0" /* U+00B0, in DejaVu Sans and every desktop font */

/* ---- which charts a result has -------------------------------------------- */

typedef struct {
    DmkLabChartKind *kinds;
    size_t *profiles;
    size_t n, max;
} ChartList;

static void list_add(ChartList *l, DmkLabChartKind kind, size_t profile)
{
    if (l->n >= l->max)
        return;
    if (l->kinds)
        l->kinds[l->n] = kind;
    if (l->profiles)
        l->profiles[l->n] = profile;
    l->n++;
}

/* The charts of one kind that r has, each with its profile index. */
static void list_kind(ChartList *l, const DmkLabChart *c, const DmkRunResult *r)
{
    for (size_t i = 0, n = c ? c->count(r) : 0; i < n; i++)
        list_add(l, c->kind, i);
}

/* The lab test's charts, by the names its descriptor lists (dmk-lab.h). */
size_t dmk_lab_charts(const DmkRunResult *r, DmkLabChartKind *kinds, size_t *profiles, size_t max)
{
    ChartList l = {kinds, profiles, 0, max};
    const DmkLabTest *t = r ? dmk_lab_test(dmk_lab_from_name(r->lab)) : NULL;
    if (!t || r->n_tests == 0)
        return 0;
    for (const char *w = t->charts; *w;) {
        char name[32];
        size_t n = strcspn(w, " ");
        snprintf(name, sizeof name, "%.*s", (int)n, w);
        list_kind(&l, dmk_lab_chart_find(name), r);
        w += n;
        w += strspn(w, " ");
    }
    return l.n;
}

bool dmk_lab_chart_fits(const DmkRunResult *r, DmkLabChartKind kind)
{
    DmkLabChartKind kinds[DMK_LAB_LAT_PROFILES * 4 + 8];
    size_t n = dmk_lab_charts(r, kinds, NULL, sizeof kinds / sizeof *kinds);
    for (size_t i = 0; i < n; i++)
        if (kinds[i] == kind)
            return true;
    return false;
}

bool dmk_lab_chart_compares(DmkLabChartKind kind)
{
    const DmkLabChart *c = dmk_lab_chart(kind);
    return c && c->compares;
}

/* ---- small pieces ---------------------------------------------------------- */

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

/* "IOPS" or "MB/s": the unit in a title, where the axis spells it out. */
static const char *unit_short(const char *metric)
{
    return strcmp(metric, "iops") == 0 ? "IOPS" : "MB/s";
}

/* "180,000 then 45,000 IOPS": a drop, as short as a subtitle needs it. */
static void drop_text(double before, double after, const char *metric, char *buf, size_t len)
{
    char b[32], a[32];
    dmk_chart_format_value(before, b, sizeof b);
    dmk_chart_format_value(after, a, sizeof a);
    snprintf(buf, len, "%s then %s %s", b, a, unit_short(metric));
}

static const char *gib_text(double bytes, char *buf, size_t len)
{
    return dmk_format_double(bytes / GIB, bytes / GIB < 10 ? 2 : 1, buf, len);
}

/* "Sequential 128 KiB, 2 threads"; the queue depth where it is not 1. */
static void describe_job(const DmkTest *t, char *buf, size_t len)
{
    const DmkJob *j = &t->jobs[0];
    char bs[32], qd[32] = "", th[32] = "";
    if (j->queue_depth > 1)
        snprintf(qd, sizeof qd, ", QD%u", j->queue_depth);
    if (dmk_test_threads(t) > 1)
        snprintf(th, sizeof th, ", %u threads", dmk_test_threads(t));
    snprintf(buf, len, "%s %s%s%s", j->pattern == DMK_PATTERN_SEQ ? "Sequential" : "Random",
             dmk_format_size(j->block_size, bs, sizeof bs), qd, th);
}

/* ---- the build --------------------------------------------------------------- */

struct DmkLabChartJob {
    DmkChartBuild *b;
    DmkLabChartKind kind;
    const DmkRunResult *const *res;
    size_t n;
    size_t profile;
    DmkLabChartOptions opt;
    DmkError *err;
};
typedef struct DmkLabChartJob Lab;

static int lab_alloc(DmkChartBuild *b, size_t n_series, size_t n_categories)
{
    b->series = calloc(n_series ? n_series : 1, sizeof *b->series);
    b->points = calloc(n_series ? n_series : 1, sizeof *b->points);
    b->categories = calloc(n_categories ? n_categories : 1, sizeof *b->categories);
    return b->series && b->points && b->categories ? DMK_OK : DMK_E_NOMEM;
}

/* A new series of n points (uninitialised, owned by b), or NULL. */
static DmkChartSeries *lab_series(DmkChartBuild *b, size_t n, const char *name)
{
    DmkChartPoint *pts = malloc((n ? n : 1) * sizeof *pts);
    if (!pts)
        return NULL;
    DmkChartSeries *s = &b->series[b->n_series];
    memset(s, 0, sizeof *s);
    s->n = n;
    s->points = pts;
    b->points[b->n_series++] = pts;
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

static DmkChartPoint *points_of(DmkChartSeries *s)
{
    return (DmkChartPoint *)s->points;
}

static int lab_category(DmkChartBuild *b, const char *label)
{
    size_t len = strlen(label) + 1;
    char *c = malloc(len);
    if (!c)
        return DMK_E_NOMEM;
    memcpy(c, label, len);
    b->categories[b->n_categories++] = c;
    return DMK_OK;
}

static void result_name(const Lab *l, size_t f, char *buf, size_t len)
{
    dmk_chart_result_name(l->res, f, l->opt.names, buf, len);
}

/* "<drive, date> - <what was found>" for a chart of one result; of
 * several, the legend names them and the finding stands alone. */
static void set_subtitle(const Lab *l, const char *finding)
{
    if (l->n > 1) {
        char *sub = l->b->model.subtitle;
        snprintf(sub, sizeof l->b->model.subtitle, "%s", finding);
        if (sub[0] >= 'a' && sub[0] <= 'z')
            sub[0] = (char)(sub[0] - 'a' + 'A');
        return;
    }
    char who[sizeof l->b->model.subtitle];
    dmk_result_label(l->res[0], false, who, sizeof who);
    /* The drive keeps at most half: the finding is the news. */
    int keep = (int)(sizeof l->b->model.subtitle / 2);
    snprintf(l->b->model.subtitle, sizeof l->b->model.subtitle, "%.*s%s%s", keep, who,
             who[0] && finding[0] ? " - " : "", finding);
}

/* ---- timelines: speed, zoom, temperature ------------------------------------ */

typedef struct {
    const DmkTestResult *t;
    const char *metric;
    DmkLabCliff cliff;
    DmkLabThermal thermal;
} Timeline;

static void timeline_of(const DmkRunResult *r, const char *metric, Timeline *tl)
{
    tl->t = dmk_lab_timeline_test(r);
    tl->metric = metric;
    dmk_lab_cliff(tl->t->samples, tl->t->n_samples, tl->metric, &tl->cliff);
    dmk_lab_thermal(tl->t->samples, tl->t->n_samples, tl->metric, &tl->thermal);
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

/* The first sample after the drop dmk_lab_cliff found (it reports the
 * time of the last one before), or 0 when there is none. */
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

static void speed_look(const Lab *l, size_t f, const Timeline *tl, SpeedLook *sl)
{
    const DmkTestResult *t = tl->t;
    if (l->n > 1) {
        /* a colour per result; the legend names the result once */
        result_name(l, f, sl->dots, sizeof sl->dots);
        snprintf(sl->avg, sizeof sl->avg, "%s", sl->dots);
        sl->look_dots = sl->look_avg = (int)f + 1;
        sl->one_entry = true;
        return;
    }
    char period[32];
    double p = t->n_samples ? t->samples[0].t_s : 0;
    snprintf(sl->dots, sizeof sl->dots, "%s of each %s s sample", unit_short(tl->metric),
             dmk_format_double(p, p < 1 ? 1 : 0, period, sizeof period));
    snprintf(sl->avg, sizeof sl->avg, "Moving average over %d samples", DMK_LAB_CHART_AVERAGE);
    sl->look_dots = LOOK_SAMPLES;
    sl->look_avg = LOOK_AVERAGE;
    sl->one_entry = false;
}

/* Adds y at x as dots, then their moving average as a line. */
static int add_dots_and_average(Lab *l, const Timeline *tl, const double *x, const double *y,
                                const SpeedLook *sl)
{
    size_t n = tl->t->n_samples;
    DmkChartSeries *dots = lab_series(l->b, n, sl->dots);
    DmkChartSeries *avg = dots ? lab_series(l->b, n, sl->avg) : NULL;
    double *ma = malloc((n ? n : 1) * sizeof *ma);
    if (!avg || !ma) {
        free(ma);
        return DMK_E_NOMEM;
    }
    split_average(tl, y, ma);
    for (size_t i = 0; i < n; i++) {
        points_of(dots)[i] = (DmkChartPoint){x[i], y[i]};
        points_of(avg)[i] = (DmkChartPoint){x[i], ma[i]};
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
static int add_speed(Lab *l, size_t f, const Timeline *tl, bool by_time)
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
static void fit_x(Lab *l)
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
        snprintf(buf, len, "too few samples");
    else if (c->n < 10)
        snprintf(buf, len, "too few samples (%zu) to look for a cache", c->n);
    else if (thermal)
        snprintf(buf, len, "%s",
                 brief ? "none (throttled)" : "no cache detected: the drop is throttling");
    else if (c->cliff && brief)
        snprintf(buf, len, "%s GiB", gib_text(c->cache_bytes, gib, sizeof gib));
    else if (c->cliff)
        snprintf(buf, len, "cache %s GiB, %s", gib_text(c->cache_bytes, gib, sizeof gib),
                 (drop_text(c->before, c->after, tl->metric, drop, sizeof drop), drop));
    else if (brief)
        snprintf(buf, len, "none");
    else
        snprintf(buf, len, "no cache detected in %s GiB written",
                 gib_text(c->total_bytes, gib, sizeof gib));
}

/* Several results: how to read them, and each one's cache in legend order. */
static void compare_findings(const Lab *l, const Timeline *tl)
{
    DmkChartModel *m = &l->b->model;
    size_t used = (size_t)snprintf(
        m->subtitle, sizeof m->subtitle,
        "Dots: each sample; lines: %d-sample average. Cache: ", DMK_LAB_CHART_AVERAGE);
    for (size_t f = 0; f < l->n && used < sizeof m->subtitle; f++) {
        char one[64];
        cache_finding(&tl[f], true, one, sizeof one);
        used += (size_t)snprintf(m->subtitle + used, sizeof m->subtitle - used, "%s%s",
                                 f ? "; " : "", one);
    }
}

/* "Sustained write RND4K Q32T1", "Recovery, degradation RND4K Q32T1";
 * less where the results differ. */
static void timeline_head(const Lab *l, const Timeline *tl, char *buf, size_t len)
{
    DmkLabKind lab = dmk_lab_from_name(l->res[0]->lab);
    bool same_lab = true, same_test = true;
    for (size_t f = 1; f < l->n; f++) {
        same_lab = same_lab && strcmp(l->res[f]->lab, l->res[0]->lab) == 0;
        same_test = same_test && strcmp(tl[f].t->test.name, tl[0].t->test.name) == 0;
    }
    if (!same_lab) {
        snprintf(buf, len, "Lab writes%s%s", same_test ? " " : "",
                 same_test ? tl->t->test.name : "");
        return;
    }
    snprintf(buf, len, "%s%s%s%s", dmk_lab_title(lab),
             lab == DMK_LAB_RECOVERY ? ", degradation" : "", same_test ? " " : "",
             same_test ? tl->t->test.name : "");
}

/* Up to twice the cache found, else the first tenth of the run. */
static double zoom_end(const Timeline *tl)
{
    double total = tl->cliff.total_bytes / GIB;
    double end = tl->cliff.cliff ? 2 * tl->cliff.cache_bytes / GIB : total / 10;
    return fmin(end, total);
}

static void set_zoom(const Lab *l, const Timeline *tl, char *title_tail, size_t len)
{
    double end = 0;
    for (size_t f = 0; f < l->n; f++)
        end = fmax(end, zoom_end(&tl[f]));
    char a[32];
    snprintf(title_tail, len, ", the first %s GiB",
             dmk_format_double(end, end < 10 ? 2 : 1, a, sizeof a));
    if (end > 0) {
        l->b->model.x_min = 0;
        l->b->model.x_max = end;
    }
}

static int build_speed(Lab *l, Timeline *tl)
{
    int rc = lab_alloc(l->b, 2 * l->n, 0);
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
    snprintf(m->title, sizeof m->title, "%s: %s vs GiB written%s", head, unit_short(tl->metric),
             tail);
    snprintf(m->x_title, sizeof m->x_title, "GiB written");
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title(tl->metric));
    if (l->n == 1) {
        cache_finding(tl, false, finding, sizeof finding);
        set_subtitle(l, finding);
    } else {
        compare_findings(l, tl);
    }
    return DMK_OK;
}

/* The temperature line, on the right axis. */
static int add_temperature(Lab *l, const Timeline *tl)
{
    const DmkTestResult *t = tl->t;
    DmkChartSeries *s = lab_series(l->b, t->n_samples, "Drive temperature (right axis)");
    if (!s)
        return DMK_E_NOMEM;
    double div = in_minutes(t) ? 60.0 : 1.0;
    for (size_t i = 0; i < t->n_samples; i++)
        points_of(s)[i] = (DmkChartPoint){t->samples[i].t_s / div, t->samples[i].temp_c};
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
        snprintf(buf, len, "%s to %s " DEGREE "C, no thermal throttling detected", lo, hi);
        return;
    }
    dmk_chart_format_value(th->throttle_t_s, at, sizeof at);
    dmk_format_double(th->throttle_c, 0, c, sizeof c);
    drop_text(th->before, th->after, tl->metric, drop, sizeof drop);
    snprintf(buf, len, "%s to %s " DEGREE "C, throttled after %s s at %s " DEGREE "C, %s", lo, hi,
             at, c, drop);
}

static void no_sensor(Lab *l)
{
    DmkChartModel *m = &l->b->model;
    const char *dev = l->res[0]->target.device;
    char finding[160];
    snprintf(m->no_data, sizeof m->no_data, "No temperature sensor");
    snprintf(finding, sizeof finding,
             "no temperature readable%s%.64s; the speed is on the %s chart", dev[0] ? " for " : "",
             dev, dmk_lab_chart_title(DMK_LAB_CHART_SPEED));
    set_subtitle(l, finding);
}

static int build_temperature(Lab *l, Timeline *tl)
{
    DmkChartModel *m = &l->b->model;
    char head[128], finding[256];
    timeline_head(l, tl, head, sizeof head);
    snprintf(m->title, sizeof m->title, "%s: %s and temperature vs time", head,
             unit_short(tl->metric));
    snprintf(m->x_title, sizeof m->x_title, "Time (%s)", in_minutes(tl->t) ? "min" : "s");
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title(tl->metric));
    snprintf(m->y2_title, sizeof m->y2_title, "Temperature (" DEGREE "C)");
    int rc = lab_alloc(l->b, 3, 0);
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
    set_subtitle(l, finding);
    return rc;
}

static int build_timeline(Lab *l)
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

/* ---- mixed load ---------------------------------------------------------------- */

/* The first test of r named `name`, for its job. */
static const DmkTest *test_named(const DmkRunResult *r, const char *name)
{
    for (size_t i = 0; i < r->n_tests; i++)
        if (strcmp(r->tests[i].test.name, name) == 0)
            return &r->tests[i].test;
    return NULL;
}

static void pattern_label(const DmkRunResult *r, const DmkLabMixed *mx, char *buf, size_t len)
{
    const DmkTest *t = test_named(r, mx->name);
    if (t)
        describe_job(t, buf, len);
    else
        snprintf(buf, len, "%s", mx->name);
}

static int add_mixed_lines(Lab *l, size_t f)
{
    const DmkRunResult *r = l->res[f];
    DmkLabMixed mx[2];
    size_t np = dmk_lab_mixed(r, mx, 2);
    for (size_t j = 0; j < np; j++) {
        /* One result: "Sequential 128 KiB, 2 threads"; several: the short
         * "SEQ128K Q1T2" first, where the legend's ellipsis cannot cut it. */
        char what[96], who[128], name[256];
        pattern_label(r, &mx[j], what, sizeof what);
        result_name(l, f, who, sizeof who);
        if (l->n == 1)
            snprintf(name, sizeof name, "%s", what);
        else
            snprintf(name, sizeof name, "%.47s - %.127s", mx[j].name, who);
        DmkChartSeries *s = lab_series(l->b, mx[j].n, name);
        if (!s)
            return DMK_E_NOMEM;
        for (size_t k = 0; k < mx[j].n; k++)
            points_of(s)[k] = (DmkChartPoint){mx[j].share[k], mx[j].mb_s[k]};
    }
    return DMK_OK;
}

/* How long a step ran: its own measure time, or, for a result loaded from
 * CSV (which does not keep it), where its timeline ends. */
static double step_seconds(const DmkTestResult *t)
{
    if (t->test.measure_s > 0)
        return t->test.measure_s;
    if (t->n_samples)
        return t->samples[t->n_samples - 1].t_s;
    return t->score.total.seconds;
}

static void mixed_subtitle(Lab *l)
{
    char step[32], what[96];
    double s = step_seconds(&l->res[0]->tests[0]);
    if (l->kind == DMK_LAB_CHART_MIXED)
        snprintf(what, sizeof what, "each point %s s, reads and writes mixed per I/O",
                 dmk_format_double(s, s < 10 ? 1 : 0, step, sizeof step));
    else
        snprintf(what, sizeof what, "each bar the mean of 0, 20, 40, 60, 80 and 100 %% read");
    set_subtitle(l, what);
}

static int build_mixed(Lab *l)
{
    int rc = lab_alloc(l->b, 2 * l->n, 0);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        rc = add_mixed_lines(l, f);
    DmkChartModel *m = &l->b->model;
    snprintf(m->title, sizeof m->title, "Mixed load: MB/s vs read share");
    snprintf(m->x_title, sizeof m->x_title, "Read share (%% read)");
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title("mb_s"));
    mixed_subtitle(l);
    return rc;
}

/* The categories: each pattern of the first result. */
static int mixed_categories(Lab *l, DmkLabMixed *mx, size_t np)
{
    for (size_t j = 0; j < np; j++) {
        char what[96];
        pattern_label(l->res[0], &mx[j], what, sizeof what);
        if (lab_category(l->b, what) != DMK_OK)
            return DMK_E_NOMEM;
    }
    return DMK_OK;
}

/* Result f's mean per pattern of the first result (NaN where it lacks it). */
static int add_mixed_bars(Lab *l, size_t f, const DmkLabMixed *first, size_t np)
{
    DmkLabMixed mx[2];
    size_t n = dmk_lab_mixed(l->res[f], mx, 2);
    char who[128];
    result_name(l, f, who, sizeof who);
    DmkChartSeries *s = lab_series(l->b, np, l->n == 1 ? "Mean over the six read shares" : who);
    if (!s)
        return DMK_E_NOMEM;
    for (size_t j = 0; j < np; j++) {
        points_of(s)[j] = (DmkChartPoint){(double)j, NAN};
        for (size_t k = 0; k < n; k++)
            if (strcmp(mx[k].name, first[j].name) == 0)
                points_of(s)[j].y = mx[k].mean_mb_s;
    }
    return DMK_OK;
}

static int build_mixed_average(Lab *l)
{
    DmkLabMixed first[2];
    size_t np = dmk_lab_mixed(l->res[0], first, 2);
    int rc = lab_alloc(l->b, l->n, np);
    if (rc == DMK_OK)
        rc = mixed_categories(l, first, np);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        rc = add_mixed_bars(l, f, first, np);
    DmkChartModel *m = &l->b->model;
    m->kind = DMK_CHART_BARS;
    snprintf(m->title, sizeof m->title, "Mixed load: average MB/s over 0 to 100 %% read");
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title("mb_s"));
    mixed_subtitle(l);
    return rc;
}

/* ---- latency under load ----------------------------------------------------- */

/* A ramp step's load: the rate it was held to (rate_iops, which saved
 * results keep; a fresh one may carry only its percentage of the
 * full-speed step), the unthrottled "max" step the most. */
static double load_of(const DmkTest *t, const DmkLabLatency *p)
{
    if (t->rate_iops)
        return (double)t->rate_iops;
    return t->rate_pct ? p->max_iops * t->rate_pct / 100.0 : INFINITY;
}

/* The profile's measured steps in order of load, so the line runs from
 * light load to overload and may turn back. Returns how many. */
static size_t steps_by_load(const DmkRunResult *r, const DmkLabLatency *p, size_t *idx)
{
    size_t n = 0;
    for (size_t i = p->first; i < p->first + p->count; i++) {
        if (r->tests[i].n_passes == 0)
            continue;
        double load = load_of(&r->tests[i].test, p);
        size_t k = n++;
        for (; k > 0 && load_of(&r->tests[idx[k - 1]].test, p) > load; k--)
            idx[k] = idx[k - 1];
        idx[k] = i;
    }
    return n;
}

/* Profile `p` of result f, matched to the first result's by name and
 * direction; false when f has no such profile. */
static bool find_profile(const Lab *l, size_t f, DmkLabLatency *out)
{
    DmkLabLatency all[DMK_LAB_LAT_PROFILES * 4], want;
    size_t n0 = dmk_lab_latency(l->res[0], all, sizeof all / sizeof *all);
    if (l->profile >= n0)
        return false;
    want = all[l->profile];
    size_t n = dmk_lab_latency(l->res[f], all, sizeof all / sizeof *all);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i].name, want.name) == 0 && all[i].mode == want.mode) {
            *out = all[i];
            return true;
        }
    }
    return false;
}

/* One latency line of result f: mean or p99 (ms) vs achieved IOPS. */
static int add_latency_line(Lab *l, size_t f, const DmkLabLatency *p, bool p99, const char *name,
                            int look)
{
    const DmkRunResult *r = l->res[f];
    size_t *idx = malloc((p->count ? p->count : 1) * sizeof *idx);
    if (!idx)
        return DMK_E_NOMEM;
    size_t n = steps_by_load(r, p, idx);
    DmkChartSeries *s = lab_series(l->b, n, name);
    for (size_t k = 0; s && k < n; k++) {
        const DmkStats *st = &r->tests[idx[k]].score.total;
        points_of(s)[k] = (DmkChartPoint){st->iops, (p99 ? st->lat_p99_us : st->lat_mean_us) / 1e3};
    }
    free(idx);
    if (!s)
        return DMK_E_NOMEM;
    s->in_order = true;
    s->look = look;
    return DMK_OK;
}

/* "4K random read, 128 outstanding I/Os" */
static void profile_title(const DmkTest *t, char *buf, size_t len)
{
    char bs[16];
    snprintf(buf, len, "%s %s %s, %llu outstanding I/Os",
             dmk_format_block(t->jobs[0].block_size, bs, sizeof bs),
             t->jobs[0].pattern == DMK_PATTERN_SEQ ? "sequential" : "random",
             t->mode == DMK_MODE_READ ? "read" : "write", (unsigned long long)dmk_test_inflight(t));
}

/* "under 1 ms up to 120,000 IOPS, peak 180,000 IOPS at 0.71 ms" (means) */
static void latency_finding(const DmkLabLatency *p, char *buf, size_t len)
{
    char sub[64] = "never under 1 ms", peak[32], ms[32];
    if (p->sub_ms) {
        char v[32];
        dmk_chart_format_value(p->sub_ms_iops, v, sizeof v);
        snprintf(sub, sizeof sub, "under 1 ms up to %s IOPS", v);
    }
    dmk_chart_format_value(p->peak_iops, peak, sizeof peak);
    dmk_chart_format_value(p->peak_lat_ms, ms, sizeof ms);
    snprintf(buf, len, "%s, peak %s IOPS at %s ms", sub, peak, ms);
}

/* One result: its mean and p99 lines; several: each one's mean line, of
 * the profile matching the first result's. */
static int add_latency_lines(Lab *l, const DmkLabLatency *p0)
{
    if (l->n == 1) {
        int rc = add_latency_line(l, 0, p0, false, "Mean latency", 1);
        return rc == DMK_OK ? add_latency_line(l, 0, p0, true, "99th percentile latency", 2) : rc;
    }
    for (size_t f = 0; f < l->n; f++) {
        DmkLabLatency p;
        char who[128];
        if (!find_profile(l, f, &p))
            return dmk_error_set(l->err, DMK_E_INVAL, 0, "result %zu has no %s %s profile", f + 1,
                                 p0->name, dmk_mode_name(p0->mode));
        result_name(l, f, who, sizeof who);
        int rc = add_latency_line(l, f, &p, false, who, (int)f + 1);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

static int build_latency(Lab *l)
{
    DmkLabLatency p0;
    if (!find_profile(l, 0, &p0))
        return dmk_error_set(l->err, DMK_E_INVAL, 0, "the result has no latency profile %zu",
                             l->profile + 1);
    int rc = lab_alloc(l->b, l->n == 1 ? 2 : l->n, 0);
    if (rc == DMK_OK)
        rc = add_latency_lines(l, &p0);
    DmkChartModel *m = &l->b->model;
    char what[96], finding[160];
    profile_title(&l->res[0]->tests[p0.first].test, what, sizeof what);
    snprintf(m->title, sizeof m->title, "%s: %slatency vs IOPS", what, l->n > 1 ? "mean " : "");
    snprintf(m->x_title, sizeof m->x_title, "IOPS (achieved)");
    snprintf(m->y_title, sizeof m->y_title, "%s (ms)", l->n > 1 ? "Mean latency" : "Latency");
    latency_finding(&p0, finding, sizeof finding);
    set_subtitle(l, l->n == 1 ? finding : "load from 10 % to 120 % of each drive's maximum IOPS");
    return rc;
}

/* ---- recovery --------------------------------------------------------------------- */

/* "After 15 min idle", from the probe's own idle time. */
static void idle_label(const DmkRunResult *r, char *buf, size_t len)
{
    double idle = 0;
    for (size_t i = 0; i < r->n_tests; i++)
        if (strcmp(r->tests[i].test.label, "after idle") == 0)
            idle = r->tests[i].test.idle_before_s;
    char v[32];
    if (idle >= 120)
        snprintf(buf, len, "After %s min idle", dmk_format_double(idle / 60, 0, v, sizeof v));
    else if (idle > 0)
        snprintf(buf, len, "After %s s idle", dmk_format_double(idle, 0, v, sizeof v));
    else
        snprintf(buf, len, "After idle");
}

/* The four probes; one no result reached says so under its empty place,
 * so the missing bar is not read as a zero. */
static int recovery_categories(Lab *l, const DmkLabRecovery *rec)
{
    char idle[64], label[96];
    idle_label(l->res[0], idle, sizeof idle);
    const char *labels[4] = {"Fresh", "Degraded", idle, "After TRIM"};
    for (int k = 0; k < 4; k++) {
        bool any = false;
        for (size_t f = 0; f < l->n; f++)
            any = any || !isnan(rec[f].value[k]);
        snprintf(label, sizeof label, "%s%s", labels[k], any ? "" : " (not measured)");
        if (lab_category(l->b, label) != DMK_OK)
            return DMK_E_NOMEM;
    }
    return DMK_OK;
}

static int add_recovery_bars(Lab *l, size_t f, const DmkLabRecovery *rec)
{
    char name[128];
    const DmkTestResult *deg = dmk_lab_timeline_test(l->res[f]);
    if (l->n > 1)
        result_name(l, f, name, sizeof name);
    else
        snprintf(name, sizeof name, "%s write, each probe", deg ? deg->test.name : "");
    DmkChartSeries *s = lab_series(l->b, 4, name);
    if (!s)
        return DMK_E_NOMEM;
    /* A probe the run never reached is NaN: no bar, never a zero one. */
    for (int k = 0; k < 4; k++)
        points_of(s)[k] = (DmkChartPoint){k, rec->value[k]};
    return DMK_OK;
}

/* "degraded by 30 min of writes; each probe 60 s" */
static void recovery_finding(const DmkRunResult *r, char *buf, size_t len)
{
    const DmkTestResult *deg = dmk_lab_timeline_test(r);
    double secs = deg && deg->n_samples ? deg->samples[deg->n_samples - 1].t_s : 0;
    double probe = r->n_tests ? step_seconds(&r->tests[0]) : 0;
    char a[32], b[32];
    if (secs >= 120)
        snprintf(a, sizeof a, "%s min", dmk_format_double(secs / 60, 0, b, sizeof b));
    else
        snprintf(a, sizeof a, "%s s", dmk_format_double(secs, 0, b, sizeof b));
    snprintf(buf, len, "degraded by %s of writes, each probe %s s", a,
             dmk_format_double(probe, probe < 10 ? 1 : 0, b, sizeof b));
}

static int build_recovery(Lab *l)
{
    DmkLabRecovery *rec = calloc(l->n, sizeof *rec);
    int rc = rec ? lab_alloc(l->b, l->n, 4) : DMK_E_NOMEM;
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++) {
        dmk_lab_recovery(l->res[f], &rec[f]);
        if (strcmp(rec[f].metric, rec[0].metric) != 0)
            rc = dmk_error_set(l->err, DMK_E_INVAL, 0,
                               "result %zu probes in %s, the first in %s: no common unit", f + 1,
                               unit_short(rec[f].metric), unit_short(rec[0].metric));
    }
    if (rc == DMK_OK)
        rc = recovery_categories(l, rec);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        rc = add_recovery_bars(l, f, &rec[f]);
    if (rc == DMK_OK) {
        DmkChartModel *m = &l->b->model;
        const DmkTestResult *deg = dmk_lab_timeline_test(l->res[0]);
        char finding[128];
        m->kind = DMK_CHART_BARS;
        snprintf(m->title, sizeof m->title,
                 "Recovery %s: %s fresh, degraded, after idle, after TRIM",
                 deg ? deg->test.name : "", unit_short(rec[0].metric));
        snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title(rec[0].metric));
        recovery_finding(l->res[0], finding, sizeof finding);
        set_subtitle(l, finding);
    }
    free(rec);
    return rc;
}

/* ---- entry points --------------------------------------------------------------------- */

/* The options' metric where the chart can show it. */
static int check_metric(const Lab *l)
{
    const char *m = l->opt.metric;
    if (!m)
        return DMK_OK;
    bool timeline = dmk_lab_chart(l->kind)->speed_metric;
    if (timeline && (strcmp(m, "iops") == 0 || strcmp(m, "mb_s") == 0))
        return DMK_OK;
    if (timeline)
        return dmk_error_set(l->err, DMK_E_INVAL, 0, "the %s chart shows iops or mb_s, not %s",
                             dmk_lab_chart_name(l->kind), m);
    return dmk_error_set(l->err, DMK_E_INVAL, 0,
                         "the %s chart has its own unit; a metric applies to the speed, zoom and "
                         "temperature charts",
                         dmk_lab_chart_name(l->kind));
}

static int check_inputs(const Lab *l)
{
    if (l->n == 0 || !l->res || !l->res[0])
        return dmk_error_set(l->err, DMK_E_INVAL, 0, "nothing to chart: no results");
    if (!dmk_lab_chart(l->kind))
        return dmk_error_set(l->err, DMK_E_INVAL, 0, "unknown lab chart %d", (int)l->kind);
    if (l->n > 1 && !dmk_lab_chart_compares(l->kind))
        return dmk_error_set(l->err, DMK_E_INVAL, 0, "the %s chart shows one result, not %zu",
                             dmk_lab_chart_name(l->kind), l->n);
    for (size_t f = 0; f < l->n; f++) {
        if (!l->res[f] || !dmk_lab_chart_fits(l->res[f], l->kind))
            return dmk_error_set(
                l->err, DMK_E_INVAL, 0, "result %zu%s%s%s has no %s chart", f + 1,
                l->res[f] && l->res[f]->lab[0] ? " (" : "", l->res[f] ? l->res[f]->lab : "",
                l->res[f] && l->res[f]->lab[0] ? ")" : "", dmk_lab_chart_name(l->kind));
    }
    return check_metric(l);
}

/* ---- the kinds ------------------------------------------------------------------ */

static size_t one(const DmkRunResult *r)
{
    (void)r;
    return 1;
}

/* Speed, zoom and temperature tell the timeline test's samples. */
static size_t timeline_count(const DmkRunResult *r)
{
    return dmk_lab_timeline_test(r) ? 1 : 0;
}

static size_t latency_count(const DmkRunResult *r)
{
    DmkLabLatency lat[DMK_LAB_LAT_PROFILES * 4];
    return dmk_lab_latency(r, lat, sizeof lat / sizeof *lat);
}

static const DmkLabChart charts[] = {
    {DMK_LAB_CHART_SPEED, "speed", "Speed", timeline_count, build_timeline, true, true, false},
    {DMK_LAB_CHART_ZOOM, "zoom", "Cache zoom", timeline_count, build_timeline, true, true, false},
    {DMK_LAB_CHART_TEMPERATURE, "temperature", "Temperature", timeline_count, build_timeline, false,
     true, false},
    {DMK_LAB_CHART_MIXED, "mixed", "By read share", one, build_mixed, true, false, true},
    {DMK_LAB_CHART_MIXED_AVERAGE, "mixed-average", "Average", one, build_mixed_average, true, false,
     true},
    {DMK_LAB_CHART_LATENCY, "latency", "Latency", latency_count, build_latency, true, false, true},
    {DMK_LAB_CHART_RECOVERY, "recovery", "Recovery", one, build_recovery, true, false, false},
};

#define N_CHARTS (sizeof charts / sizeof charts[0])

size_t dmk_lab_chart_count(void)
{
    return N_CHARTS;
}

const DmkLabChart *dmk_lab_chart(DmkLabChartKind kind)
{
    for (size_t i = 0; i < N_CHARTS; i++)
        if (charts[i].kind == kind)
            return &charts[i];
    return NULL;
}

const DmkLabChart *dmk_lab_chart_find(const char *name)
{
    for (size_t i = 0; name && i < N_CHARTS; i++)
        if (strcmp(name, charts[i].name) == 0)
            return &charts[i];
    return NULL;
}

const char *dmk_lab_chart_name(DmkLabChartKind kind)
{
    const DmkLabChart *c = dmk_lab_chart(kind);
    return c ? c->name : "";
}

const char *dmk_lab_chart_title(DmkLabChartKind kind)
{
    const DmkLabChart *c = dmk_lab_chart(kind);
    return c ? c->title : "";
}

const char *dmk_lab_chart_names_text(const char *sep, const char *last, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < N_CHARTS && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s",
                         i == 0              ? ""
                         : i + 1 == N_CHARTS ? last
                                             : sep,
                         charts[i].name);
        used += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

void dmk_lab_chart_label(DmkLabChartKind kind, const DmkRunResult *r, size_t profile, char *buf,
                         size_t len)
{
    DmkLabLatency lat[DMK_LAB_LAT_PROFILES * 4];
    size_t n =
        kind == DMK_LAB_CHART_LATENCY && r ? dmk_lab_latency(r, lat, sizeof lat / sizeof *lat) : 0;
    if (kind != DMK_LAB_CHART_LATENCY) {
        snprintf(buf, len, "%s", dmk_lab_chart_title(kind));
        return;
    }
    if (profile >= n) {
        snprintf(buf, len, "Profile %zu", profile + 1);
        return;
    }
    const DmkTest *t = &r->tests[lat[profile].first].test;
    char bs[16];
    snprintf(buf, len, "%s%s %s", t->jobs[0].pattern == DMK_PATTERN_RND ? "RND" : "SEQ",
             dmk_format_block(t->jobs[0].block_size, bs, sizeof bs),
             lat[profile].mode == DMK_MODE_READ ? "read" : "write");
}

/* ---- entry points, continued ------------------------------------------------------ */

int dmk_chart_build_lab_compare(DmkChartBuild *b, DmkLabChartKind kind,
                                const DmkRunResult *const *res, size_t n, size_t profile,
                                const DmkLabChartOptions *opt, DmkError *err)
{
    memset(b, 0, sizeof *b);
    dmk_chart_model_init(&b->model);
    Lab l = {b, kind, res, n, profile, {0}, err};
    if (opt)
        l.opt = *opt;
    int rc = check_inputs(&l);
    if (rc != DMK_OK)
        return rc;
    rc = dmk_lab_chart(kind)->build(&l);
    if (rc == DMK_E_NOMEM)
        dmk_error_set(err, rc, 0, "out of memory building the chart");
    if (rc != DMK_OK) {
        dmk_chart_build_free(b);
        return rc;
    }
    b->model.n_series = b->n_series;
    b->model.series = b->series;
    b->model.n_categories = b->n_categories;
    b->model.categories = (const char *const *)b->categories;
    return DMK_OK;
}

int dmk_chart_build_lab(DmkChartBuild *b, DmkLabChartKind kind, const DmkRunResult *r,
                        size_t profile, DmkError *err)
{
    const DmkRunResult *one[1] = {r};
    return dmk_chart_build_lab_compare(b, kind, one, 1, profile, NULL, err);
}
