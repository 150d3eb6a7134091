/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The trace test's chart: a bar per direction (reads, writes, all), the
 * MB/s over the busy time, a bar per result in each, so drives compare
 * as the reviews' trace charts show them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-lab-findings.h"

static const char *const dirs[DMK_LAB_TRACE_DIRS] = {"All", "Reads", "Writes"};

/* Each direction's MB/s (the file's figures win), NaN where none. */
static void speeds(const DmkRunResult *r, double *v)
{
    for (size_t k = 0; k < DMK_LAB_TRACE_DIRS; k++)
        v[k] = NAN;
    DmkLabFindings *all = malloc(sizeof *all);
    if (!all)
        return;
    dmk_lab_findings(r, all);
    const DmkLabFinding *f = dmk_lab_findings_at(all, DMK_LAB_SET_TRACE, 0);
    for (size_t k = 0; f && k < DMK_LAB_TRACE_DIRS; k++)
        v[k] = f->u.trace.ios[k] ? f->u.trace.mb_s[k] : NAN;
    free(all);
}

int dmk_lab_chart_build_trace(DmkLabChartJob *l)
{
    double(*v)[DMK_LAB_TRACE_DIRS] = calloc(l->n, sizeof *v);
    int rc = v ? dmk_lab_chart_alloc(l->b, l->n, DMK_LAB_TRACE_DIRS) : DMK_E_NOMEM;
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        speeds(l->res[f], v[f]);
    for (size_t k = 0; k < DMK_LAB_TRACE_DIRS && rc == DMK_OK; k++)
        rc = dmk_lab_chart_category(l->b, dirs[k]);
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++) {
        char name[128];
        if (l->n > 1)
            dmk_lab_chart_result_name(l, f, name, sizeof name);
        else
            snprintf(name, sizeof name, "MB/s over the busy time");
        DmkChartSeries *s = dmk_lab_chart_series(l->b, DMK_LAB_TRACE_DIRS, name);
        if (!s) {
            rc = DMK_E_NOMEM;
            break;
        }
        for (size_t k = 0; k < DMK_LAB_TRACE_DIRS; k++)
            dmk_lab_chart_points(s)[k] = (DmkChartPoint){(double)k, v[f][k]};
    }
    if (rc == DMK_OK) {
        DmkChartModel *m = &l->b->model;
        m->kind = DMK_CHART_BARS;
        snprintf(m->title, sizeof m->title, "Trace replay: bandwidth over the busy time");
        snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title("mb_s"));
        dmk_lab_chart_subtitle(l, "idle gaps cut, scored while a request is in flight");
    }
    free(v);
    return rc;
}
