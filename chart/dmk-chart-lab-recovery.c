/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lab's recovery chart: a bar per probe (fresh, degraded, after idle,
 * after TRIM), a bar per result in each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-lab-findings.h"
#include "dmk-size.h"

/* "After 15 min idle", from the probe's own idle time. */
static void idle_label(const DmkRunResult *r, char *buf, size_t len)
{
    double idle = 0;
    for (size_t i = 0; i < r->n_tests; i++)
        if (strcmp(r->tests[i].test.label, "after idle") == 0)
            idle = r->tests[i].test.idle_before_s;
    char v[32];
    if (idle >= 120)
        snprintf(buf, len, DMK_("After %s min idle"), dmk_format_double(idle / 60, 0, v, sizeof v));
    else if (idle > 0)
        snprintf(buf, len, DMK_("After %s s idle"), dmk_format_double(idle, 0, v, sizeof v));
    else
        snprintf(buf, len, "%s", DMK_("After idle"));
}

/* The four probes; one no result reached says so under its empty place,
 * so the missing bar is not read as a zero. */
static int recovery_categories(DmkLabChartJob *l, const DmkLabRecovery *rec)
{
    char idle[64], label[96];
    idle_label(l->res[0], idle, sizeof idle);
    /* TRANSLATORS: a recovery chart's bars: the drive's state at each probe. */
    const char *labels[4] = {DMK_("Fresh"), DMK_("Degraded"), idle, DMK_("After TRIM")};
    for (int k = 0; k < 4; k++) {
        bool any = false;
        for (size_t f = 0; f < l->n; f++)
            any = any || !isnan(rec[f].value[k]);
        if (any)
            snprintf(label, sizeof label, "%s", labels[k]);
        else
            /* TRANSLATORS: a bar chart's category, a step no result reached. */
            snprintf(label, sizeof label, DMK_("%s (not measured)"), labels[k]);
        if (dmk_lab_chart_category(l->b, label) != DMK_OK)
            return DMK_E_NOMEM;
    }
    return DMK_OK;
}

static int add_recovery_bars(DmkLabChartJob *l, size_t f, const DmkLabRecovery *rec)
{
    char name[128];
    const DmkTestResult *deg = dmk_lab_timeline_test(l->res[f]);
    if (l->n > 1)
        dmk_lab_chart_result_name(l, f, name, sizeof name);
    else
        /* TRANSLATORS: a legend's entry; %s is a test's name ("RND4K Q32T1"). */
        snprintf(name, sizeof name, DMK_("%s write, each probe"), deg ? deg->test.name : "");
    DmkChartSeries *s = dmk_lab_chart_series(l->b, 4, name);
    if (!s)
        return DMK_E_NOMEM;
    /* A probe the run never reached is NaN: no bar, never a zero one. */
    for (int k = 0; k < 4; k++)
        dmk_lab_chart_points(s)[k] = (DmkChartPoint){k, rec->value[k]};
    return DMK_OK;
}

/* "degraded by 30 min of writes; each probe 60 s" */
static void recovery_finding(const DmkRunResult *r, char *buf, size_t len)
{
    const DmkTestResult *deg = dmk_lab_timeline_test(r);
    double secs = deg && deg->n_samples ? deg->samples[deg->n_samples - 1].t_s : 0;
    double probe = r->n_tests ? dmk_lab_chart_step_seconds(&r->tests[0]) : 0;
    char a[32], b[32];
    if (secs >= 120)
        snprintf(a, sizeof a, DMK_("%s min"), dmk_format_double(secs / 60, 0, b, sizeof b));
    else
        snprintf(a, sizeof a, DMK_("%s s"), dmk_format_double(secs, 0, b, sizeof b));
    /* TRANSLATORS: a chart's subtitle; %1$s is a length of time ("30 min"),
     * %2$s a number of seconds. */
    snprintf(buf, len, DMK_("degraded by %s of writes, each probe %s s"), a,
             dmk_format_double(probe, probe < 10 ? 1 : 0, b, sizeof b));
}

int dmk_lab_chart_build_recovery(DmkLabChartJob *l)
{
    DmkLabRecovery *rec = calloc(l->n, sizeof *rec);
    int rc = rec ? dmk_lab_chart_alloc(l->b, l->n, 4) : DMK_E_NOMEM;
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++) {
        dmk_lab_recovery_found(l->res[f], &rec[f]); /* the file's figures win */
        if (strcmp(rec[f].metric, rec[0].metric) != 0)
            rc = dmk_error_set(
                l->err, DMK_E_INVAL, 0, "result %zu probes in %s, the first in %s: no common unit",
                f + 1, dmk_lab_chart_unit(rec[f].metric), dmk_lab_chart_unit(rec[0].metric));
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
                 /* TRANSLATORS: a chart's title; %1$s is a test's name
                  * ("RND4K Q32T1"), %2$s a unit (IOPS or MB/s). */
                 DMK_("Recovery %s: %s fresh, degraded, after idle, after TRIM"),
                 deg ? deg->test.name : "", dmk_lab_chart_unit(rec[0].metric));
        snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title(rec[0].metric));
        recovery_finding(l->res[0], finding, sizeof finding);
        dmk_lab_chart_subtitle(l, finding);
    }
    free(rec);
    return rc;
}
