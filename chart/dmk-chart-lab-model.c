/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pieces of a lab chart's model that every builder uses: its arrays,
 * series and categories (owned by the build until dmk_chart_build_free),
 * the results' legend names, the subtitle, the unit in a title. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-chart-lab-private.h"

int dmk_lab_chart_alloc(DmkChartBuild *b, size_t n_series, size_t n_categories)
{
    b->series = calloc(n_series ? n_series : 1, sizeof *b->series);
    b->points = calloc(n_series ? n_series : 1, sizeof *b->points);
    b->categories = calloc(n_categories ? n_categories : 1, sizeof *b->categories);
    return b->series && b->points && b->categories ? DMK_OK : DMK_E_NOMEM;
}

/* A new series of n points (uninitialised, owned by b), or NULL. */
DmkChartSeries *dmk_lab_chart_series(DmkChartBuild *b, size_t n, const char *name)
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

int dmk_lab_chart_category(DmkChartBuild *b, const char *label)
{
    size_t len = strlen(label) + 1;
    char *c = malloc(len);
    if (!c)
        return DMK_E_NOMEM;
    memcpy(c, label, len);
    b->categories[b->n_categories++] = c;
    return DMK_OK;
}

void dmk_lab_chart_result_name(const DmkLabChartJob *l, size_t f, char *buf, size_t len)
{
    dmk_chart_result_name(l->res, f, l->opt.names, buf, len);
}

/* "<drive, date> - <what was found>" for a chart of one result; of
 * several, the legend names them and the finding stands alone. */
void dmk_lab_chart_subtitle(const DmkLabChartJob *l, const char *finding)
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

/* "IOPS" or "MB/s": the unit in a title, where the axis spells it out. */
const char *dmk_lab_chart_unit(const char *metric)
{
    return strcmp(metric, "iops") == 0 ? "IOPS" : "MB/s";
}

/* How long a step ran: its own measure time, or, for a result loaded from
 * CSV (which does not keep it), where its timeline ends. */
double dmk_lab_chart_step_seconds(const DmkTestResult *t)
{
    if (t->test.measure_s > 0)
        return t->test.measure_s;
    if (t->n_samples)
        return t->samples[t->n_samples - 1].t_s;
    return t->score.total.seconds;
}
