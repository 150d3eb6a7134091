/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The file-set test's chart: a bar per step (ISO copy .. Work extract),
 * the set's MB/s until durable, a bar per result in each, so drives
 * compare as the reviews' real-world charts show them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-lab-findings.h"
#include "dmk-size.h"

/* Each step's MB/s (the file's figures win), NaN where not measured. */
static void step_speeds(const DmkRunResult *r, double *v)
{
    for (size_t k = 0; k < DMK_LAB_FILE_STEPS; k++)
        v[k] = NAN;
    DmkLabFindings *all = malloc(sizeof *all);
    if (!all)
        return;
    dmk_lab_findings(r, all);
    for (size_t i = 0; i < all->n; i++) {
        const DmkLabFinding *f = &all->f[i];
        if (f->set != DMK_LAB_SET_FILES || f->test >= r->n_tests)
            continue;
        for (size_t k = 0; k < DMK_LAB_FILE_STEPS; k++)
            if (strcmp(r->tests[f->test].test.label, dmk_lab_files_step_label(k)) == 0)
                v[k] = f->u.files.mb_s;
    }
    free(all);
}

int dmk_lab_chart_build_files(DmkLabChartJob *l)
{
    double(*v)[DMK_LAB_FILE_STEPS] = calloc(l->n, sizeof *v);
    int rc = v ? dmk_lab_chart_alloc(l->b, l->n, DMK_LAB_FILE_STEPS) : DMK_E_NOMEM;
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++)
        step_speeds(l->res[f], v[f]);
    /* A step no result reached (a build without libarchive, a stop) says
     * so under its empty place: no bar is not a zero. */
    for (size_t k = 0; k < DMK_LAB_FILE_STEPS && rc == DMK_OK; k++) {
        bool any = false;
        for (size_t f = 0; f < l->n; f++)
            any = any || !isnan(v[f][k]);
        char label[64];
        if (any)
            snprintf(label, sizeof label, "%s", dmk_lab_files_step_label(k));
        else
            /* TRANSLATORS: a bar chart's category, a step no result reached. */
            snprintf(label, sizeof label, DMK_("%s (not measured)"), dmk_lab_files_step_label(k));
        rc = dmk_lab_chart_category(l->b, label);
    }
    for (size_t f = 0; f < l->n && rc == DMK_OK; f++) {
        char name[128];
        if (l->n > 1)
            dmk_lab_chart_result_name(l, f, name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", DMK_("MB/s until on the drive"));
        DmkChartSeries *s = dmk_lab_chart_series(l->b, DMK_LAB_FILE_STEPS, name);
        if (!s) {
            rc = DMK_E_NOMEM;
            break;
        }
        for (size_t k = 0; k < DMK_LAB_FILE_STEPS; k++)
            dmk_lab_chart_points(s)[k] = (DmkChartPoint){(double)k, v[f][k]};
    }
    if (rc == DMK_OK) {
        DmkChartModel *m = &l->b->model;
        char size[32], finding[96];
        m->kind = DMK_CHART_BARS;
        snprintf(m->title, sizeof m->title, "%s",
                 DMK_("File sets: copy within the drive, archive, extract"));
        snprintf(m->y_title, sizeof m->y_title, "%s", dmk_chart_metric_title("mb_s"));
        /* TRANSLATORS: a chart's subtitle; %s is a size ("1 GiB"). */
        snprintf(finding, sizeof finding, DMK_("sets of %s each, timed until on the drive"),
                 dmk_format_size(l->res[0]->size, size, sizeof size));
        dmk_lab_chart_subtitle(l, finding);
    }
    free(v);
    return rc;
}
