/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lab's mixed-load charts: MB/s against the read share, a line per
 * pattern (mixed), and a bar per pattern with its mean over the read
 * shares (mixed average). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-lab-findings.h"
#include "dmk-size.h"

/* "Sequential 128 KiB, 2 threads"; the queue depth where it is not 1. */
static void describe_job(const DmkTest *t, char *buf, size_t len)
{
    const DmkJob *j = &t->jobs[0];
    char bs[32], qd[32] = "", th[32] = "";
    if (j->queue_depth > 1)
        snprintf(qd, sizeof qd, ", QD%u", j->queue_depth);
    if (dmk_test_threads(t) > 1)
        snprintf(th, sizeof th, dmk_ngettext(", %u thread", ", %u threads", dmk_test_threads(t)),
                 dmk_test_threads(t));
    /* TRANSLATORS: a chart legend's entry: the access pattern and block
     * size ("Sequential 128 KiB"); ", QD4" and ", 2 threads" may follow. */
    snprintf(buf, len,
             j->pattern == DMK_PATTERN_SEQ ? DMK_("Sequential %s%s%s") : DMK_("Random %s%s%s"),
             dmk_format_size(j->block_size, bs, sizeof bs), qd, th);
}

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

static int add_mixed_lines(DmkLabChartJob *l, size_t f)
{
    const DmkRunResult *r = l->res[f];
    DmkLabMixed mx[2];
    size_t np = dmk_lab_mixed(r, mx, 2);
    for (size_t j = 0; j < np; j++) {
        /* One result: "Sequential 128 KiB, 2 threads"; several: the short
         * "SEQ128K Q1T2" first, where the legend's ellipsis cannot cut it. */
        char what[96], who[128], name[256];
        pattern_label(r, &mx[j], what, sizeof what);
        dmk_lab_chart_result_name(l, f, who, sizeof who);
        if (l->n == 1)
            snprintf(name, sizeof name, "%s", what);
        else
            snprintf(name, sizeof name, "%.47s - %.127s", mx[j].name, who);
        DmkChartSeries *s = dmk_lab_chart_series(l->b, mx[j].n, name);
        if (!s)
            return DMK_E_NOMEM;
        for (size_t k = 0; k < mx[j].n; k++)
            dmk_lab_chart_points(s)[k] = (DmkChartPoint){mx[j].share[k], mx[j].mb_s[k]};
    }
    return DMK_OK;
}

static void mixed_subtitle(DmkLabChartJob *l)
{
    char step[32], what[96];
    double s = dmk_lab_chart_step_seconds(&l->res[0]->tests[0]);
    if (l->kind == DMK_LAB_CHART_MIXED)
        snprintf(what, sizeof what, DMK_("each point %s s, reads and writes mixed per I/O"),
                 dmk_format_double(s, s < 10 ? 1 : 0, step, sizeof step));
    else
        snprintf(what, sizeof what, "%s",
                 DMK_("each bar the mean of 0, 20, 40, 60, 80 and 100 % read"));
    dmk_lab_chart_subtitle(l, what);
}

int dmk_lab_chart_build_mixed(DmkLabChartJob *l)
{
    int rc = dmk_lab_chart_alloc(l->b, 2 * l->n, 0);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        rc = add_mixed_lines(l, f);
    DmkChartModel *m = &l->b->model;
    snprintf(m->title, sizeof m->title, "%s", DMK_("Mixed load: MB/s vs read share"));
    snprintf(m->x_title, sizeof m->x_title, "%s", DMK_("Read share (% read)"));
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title("mb_s"));
    mixed_subtitle(l);
    return rc;
}

/* The categories: each pattern of the first result. */
static int mixed_categories(DmkLabChartJob *l, DmkLabMixed *mx, size_t np)
{
    for (size_t j = 0; j < np; j++) {
        char what[96];
        pattern_label(l->res[0], &mx[j], what, sizeof what);
        if (dmk_lab_chart_category(l->b, what) != DMK_OK)
            return DMK_E_NOMEM;
    }
    return DMK_OK;
}

/* Result f's mean per pattern of the first result (NaN where it lacks it). */
static int add_mixed_bars(DmkLabChartJob *l, size_t f, const DmkLabMixed *first, size_t np)
{
    DmkLabMixed mx[2];
    size_t n = dmk_lab_mixed_found(l->res[f], mx, 2); /* the file's means win */
    char who[128];
    dmk_lab_chart_result_name(l, f, who, sizeof who);
    DmkChartSeries *s =
        dmk_lab_chart_series(l->b, np, l->n == 1 ? DMK_("Mean over the six read shares") : who);
    if (!s)
        return DMK_E_NOMEM;
    for (size_t j = 0; j < np; j++) {
        dmk_lab_chart_points(s)[j] = (DmkChartPoint){(double)j, NAN};
        for (size_t k = 0; k < n; k++)
            if (strcmp(mx[k].name, first[j].name) == 0)
                dmk_lab_chart_points(s)[j].y = mx[k].mean_mb_s;
    }
    return DMK_OK;
}

int dmk_lab_chart_build_mixed_average(DmkLabChartJob *l)
{
    DmkLabMixed first[2];
    size_t np = dmk_lab_mixed(l->res[0], first, 2);
    int rc = dmk_lab_chart_alloc(l->b, l->n, np);
    if (rc == DMK_OK)
        rc = mixed_categories(l, first, np);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        rc = add_mixed_bars(l, f, first, np);
    DmkChartModel *m = &l->b->model;
    m->kind = DMK_CHART_BARS;
    snprintf(m->title, sizeof m->title, "%s",
             DMK_("Mixed load: average MB/s over 0 to 100 % read"));
    snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title("mb_s"));
    mixed_subtitle(l);
    return rc;
}
