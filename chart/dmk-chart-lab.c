/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Review-lab results as the reviews chart them (docs/methodology.md
 * sections 2-5): the kinds' table, which charts a result has, and the
 * entry points, which check what they are asked for and hand it to the
 * kind's builder (dmk-chart-lab-private.h says which file builds what). */
#include "dmk-chart-lab.h"

#include <stdio.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-size.h"
#include "dmk-text.h"

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
    /* TRANSLATORS: the lab charts' names, on their picker's buttons. */
    {DMK_LAB_CHART_SPEED, "speed", DMK_N_("Speed"), timeline_count, dmk_lab_chart_build_timeline,
     true, true, false},
    {DMK_LAB_CHART_ZOOM, "zoom", DMK_N_("Cache zoom"), timeline_count, dmk_lab_chart_build_timeline,
     true, true, false},
    {DMK_LAB_CHART_TEMPERATURE, "temperature", DMK_N_("Temperature"), timeline_count,
     dmk_lab_chart_build_timeline, false, true, false},
    {DMK_LAB_CHART_MIXED, "mixed", DMK_N_("By read share"), one, dmk_lab_chart_build_mixed, true,
     false, true},
    {DMK_LAB_CHART_MIXED_AVERAGE, "mixed-average", DMK_N_("Average"), one,
     dmk_lab_chart_build_mixed_average, true, false, true},
    {DMK_LAB_CHART_LATENCY, "latency", DMK_N_("Latency"), latency_count,
     dmk_lab_chart_build_latency, true, false, true},
    {DMK_LAB_CHART_RECOVERY, "recovery", DMK_N_("Recovery"), one, dmk_lab_chart_build_recovery,
     true, false, false},
    {DMK_LAB_CHART_SURFACE_RATE, "surface-rate", DMK_N_("Read rate"), one,
     dmk_lab_chart_build_surface, false, false, true},
    {DMK_LAB_CHART_SURFACE_ACCESS, "surface-access", DMK_N_("Access time"), one,
     dmk_lab_chart_build_surface, false, false, true},
    {DMK_LAB_CHART_FILES, "files", DMK_N_("File sets"), one, dmk_lab_chart_build_files, true, false,
     false},
    {DMK_LAB_CHART_TRACE, "trace", DMK_N_("Trace replay"), one, dmk_lab_chart_build_trace, true,
     false, false},
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
    return c ? DMK_(c->title) : "";
}

const char *dmk_lab_chart_names_text(const char *sep, const char *last, char *buf, size_t len)
{
    const char *names[N_CHARTS];
    for (size_t i = 0; i < N_CHARTS; i++)
        names[i] = charts[i].name;
    return dmk_join_names(names, N_CHARTS, sep, last, buf, len);
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
        snprintf(buf, len, DMK_("Profile %zu"), profile + 1);
        return;
    }
    const DmkTest *t = &r->tests[lat[profile].first].test;
    char bs[16];
    /* TRANSLATORS: a latency profile's button: %1$s and %2$s make a test's
     * short name ("RND4K"), kept as it is. */
    snprintf(buf, len, lat[profile].mode == DMK_MODE_READ ? DMK_("%s%s read") : DMK_("%s%s write"),
             t->jobs[0].pattern == DMK_PATTERN_RND ? "RND" : "SEQ",
             dmk_format_block(t->jobs[0].block_size, bs, sizeof bs));
}

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

/* ---- entry points --------------------------------------------------------------------- */

/* The options' metric where the chart can show it. */
static int check_metric(const DmkLabChartJob *l)
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

static int check_inputs(const DmkLabChartJob *l)
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

int dmk_chart_build_lab_compare(DmkChartBuild *b, DmkLabChartKind kind,
                                const DmkRunResult *const *res, size_t n, size_t profile,
                                const DmkLabChartOptions *opt, DmkError *err)
{
    memset(b, 0, sizeof *b);
    dmk_chart_model_init(&b->model);
    DmkLabChartJob l = {b, kind, res, n, profile, {0}, err};
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
