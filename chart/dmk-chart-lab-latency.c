/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lab's latency-under-load chart: mean and 99th percentile latency
 * against achieved IOPS, one chart per profile of the ramp. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-chart-private.h" /* dmk_chart_format_value: numbers as the charts write them */
#include "dmk-size.h"

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
static bool find_profile(const DmkLabChartJob *l, size_t f, DmkLabLatency *out)
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
static int add_latency_line(DmkLabChartJob *l, size_t f, const DmkLabLatency *p, bool p99,
                            const char *name, int look)
{
    const DmkRunResult *r = l->res[f];
    size_t *idx = malloc((p->count ? p->count : 1) * sizeof *idx);
    if (!idx)
        return DMK_E_NOMEM;
    size_t n = steps_by_load(r, p, idx);
    DmkChartSeries *s = dmk_lab_chart_series(l->b, n, name);
    for (size_t k = 0; s && k < n; k++) {
        const DmkStats *st = &r->tests[idx[k]].score.total;
        dmk_lab_chart_points(s)[k] =
            (DmkChartPoint){st->iops, (p99 ? st->lat_p99_us : st->lat_mean_us) / 1e3};
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
    bool seq = t->jobs[0].pattern == DMK_PATTERN_SEQ, rd = t->mode == DMK_MODE_READ;
    unsigned long long n = (unsigned long long)dmk_test_inflight(t);
    /* TRANSLATORS: a latency chart's title; %1$s is a block size ("4K"),
     * %2$llu the I/Os kept outstanding. */
    snprintf(buf, len,
             seq && rd ? dmk_ngettext("%s sequential read, %llu outstanding I/O",
                                      "%s sequential read, %llu outstanding I/Os", n)
             : seq     ? dmk_ngettext("%s sequential write, %llu outstanding I/O",
                                      "%s sequential write, %llu outstanding I/Os", n)
             : rd      ? dmk_ngettext("%s random read, %llu outstanding I/O",
                                      "%s random read, %llu outstanding I/Os", n)
                       : dmk_ngettext("%s random write, %llu outstanding I/O",
                                      "%s random write, %llu outstanding I/Os", n),
             dmk_format_block(t->jobs[0].block_size, bs, sizeof bs), n);
}

/* "under 1 ms up to 120,000 IOPS, peak 180,000 IOPS at 0.71 ms, 128 of
 * 128 outstanding" (means; the peak as dmk_lab_latency defines it, with
 * what that step had queued on average against what the profile keeps) */
static void latency_finding(const DmkLabLatency *p, char *buf, size_t len)
{
    char sub[64], peak[32], ms[32], q[32], set[32];
    snprintf(sub, sizeof sub, "%s", DMK_("never under 1 ms"));
    if (p->sub_ms) {
        char v[32];
        dmk_chart_format_value(p->sub_ms_iops, v, sizeof v);
        snprintf(sub, sizeof sub, DMK_("under 1 ms up to %s IOPS"), v);
    }
    dmk_chart_format_value(p->peak_iops, peak, sizeof peak);
    dmk_chart_format_value(p->peak_lat_ms, ms, sizeof ms);
    dmk_chart_format_value(p->peak_outstanding, q, sizeof q);
    dmk_chart_format_value(p->outstanding_set, set, sizeof set);
    /* TRANSLATORS: a latency chart's subtitle: %1$s "under 1 ms up to 120,000
     * IOPS" (or "never under 1 ms"), the peak IOPS, its latency in ms, the
     * I/Os outstanding then, of those the profile keeps. */
    snprintf(buf, len, DMK_("%s, peak %s IOPS at %s ms, %s of %s outstanding"), sub, peak, ms, q,
             set);
}

/* One result: its mean and p99 lines; several: each one's mean line, of
 * the profile matching the first result's. */
static int add_latency_lines(DmkLabChartJob *l, const DmkLabLatency *p0)
{
    if (l->n == 1) {
        int rc = add_latency_line(l, 0, p0, false, DMK_("Mean latency"), 1);
        return rc == DMK_OK ? add_latency_line(l, 0, p0, true, DMK_("99th percentile latency"), 2)
                            : rc;
    }
    for (size_t f = 0; f < l->n; f++) {
        DmkLabLatency p;
        char who[128];
        if (!find_profile(l, f, &p))
            return dmk_error_set(l->err, DMK_E_INVAL, 0, "result %zu has no %s %s profile", f + 1,
                                 p0->name, dmk_mode_name(p0->mode));
        dmk_lab_chart_result_name(l, f, who, sizeof who);
        int rc = add_latency_line(l, f, &p, false, who, (int)f + 1);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

int dmk_lab_chart_build_latency(DmkLabChartJob *l)
{
    DmkLabLatency p0;
    if (!find_profile(l, 0, &p0))
        return dmk_error_set(l->err, DMK_E_INVAL, 0, "the result has no latency profile %zu",
                             l->profile + 1);
    int rc = dmk_lab_chart_alloc(l->b, l->n == 1 ? 2 : l->n, 0);
    if (rc == DMK_OK)
        rc = add_latency_lines(l, &p0);
    DmkChartModel *m = &l->b->model;
    char what[96], finding[256];
    profile_title(&l->res[0]->tests[p0.first].test, what, sizeof what);
    /* TRANSLATORS: a chart's title; %s says the load ("4K random read, 128
     * outstanding I/Os"). */
    snprintf(m->title, sizeof m->title,
             l->n > 1 ? DMK_("%s: mean latency vs IOPS") : DMK_("%s: latency vs IOPS"), what);
    snprintf(m->x_title, sizeof m->x_title, "%s", DMK_("IOPS (achieved)"));
    snprintf(m->y_title, sizeof m->y_title, "%s",
             l->n > 1 ? DMK_("Mean latency (ms)") : DMK_("Latency (ms)"));
    latency_finding(&p0, finding, sizeof finding);
    /* "10 % to" is no format: the subtitle is passed as a string.
     * xgettext:no-c-format */
    const char *loads = DMK_("load from 10 % to 120 % of each drive's maximum IOPS");
    dmk_lab_chart_subtitle(l, l->n == 1 ? finding : loads);
    return rc;
}
