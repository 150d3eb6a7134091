/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the lab charts' files share (dmk-chart-lab.h is the interface;
 * this is not for callers):
 *   dmk-chart-lab.c           the kinds' table and lookups, which charts a
 *                             result has, and the entry points, which
 *                             check their inputs and call a kind's builder;
 *   dmk-chart-lab-model.c     the pieces of a model every builder uses
 *                             (series, categories, subtitle, names);
 *   dmk-chart-lab-timeline.c  speed, cache zoom and temperature;
 *   dmk-chart-lab-mixed.c     mixed load: by read share, and the average;
 *   dmk-chart-lab-latency.c   latency under load, a chart per profile;
 *   dmk-chart-lab-recovery.c  the recovery probes' bars;
 *   dmk-chart-lab-surface.c   the surface scan's read rate and access time;
 *   dmk-chart-lab-files.c     the file-set test's bars, a step each.
 * Every number comes from core/dmk-lab.h's analysis; the builders choose
 * series, axes, titles and words. */
#ifndef DMK_CHART_LAB_PRIVATE_H
#define DMK_CHART_LAB_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "dmk-chart-lab.h"

/* A chart being built: what dmk_chart_build_lab_compare was asked for,
 * and the build it fills. */
struct DmkLabChartJob {
    DmkChartBuild *b;
    DmkLabChartKind kind;
    const DmkRunResult *const *res;
    size_t n;
    size_t profile;
    DmkLabChartOptions opt;
    DmkError *err;
};

/* ---- dmk-chart-lab-model.c ---- */

/* Room for n_series series and n_categories categories (at least one of
 * each, so an empty chart still has arrays). */
int dmk_lab_chart_alloc(DmkChartBuild *b, size_t n_series, size_t n_categories);
/* A new series of n points (uninitialised, owned by b), or NULL. */
DmkChartSeries *dmk_lab_chart_series(DmkChartBuild *b, size_t n, const char *name);
/* A series' points, to fill: the model reads them as const, b owns them. */
static inline DmkChartPoint *dmk_lab_chart_points(DmkChartSeries *s)
{
    return (DmkChartPoint *)s->points;
}
int dmk_lab_chart_category(DmkChartBuild *b, const char *label);
/* Result f's legend name (the options' names, else its drive and date). */
void dmk_lab_chart_result_name(const DmkLabChartJob *l, size_t f, char *buf, size_t len);
/* "<drive, date> - <what was found>" for a chart of one result; of
 * several, the legend names them and the finding stands alone. */
void dmk_lab_chart_subtitle(const DmkLabChartJob *l, const char *finding);
/* "IOPS" or "MB/s": the unit in a title, where the axis spells it out. */
const char *dmk_lab_chart_unit(const char *metric);
/* How long a step ran: its own measure time, or, for a result loaded from
 * CSV (which does not keep it), where its timeline ends. */
double dmk_lab_chart_step_seconds(const DmkTestResult *t);

/* ---- the builders, one per family of kinds (DmkLabChart.build) ---- */

/* dmk-chart-lab-timeline.c: speed, zoom and temperature, as l->kind says */
int dmk_lab_chart_build_timeline(DmkLabChartJob *l);
/* dmk-chart-lab-mixed.c */
int dmk_lab_chart_build_mixed(DmkLabChartJob *l);
int dmk_lab_chart_build_mixed_average(DmkLabChartJob *l);
/* dmk-chart-lab-latency.c */
int dmk_lab_chart_build_latency(DmkLabChartJob *l);
/* dmk-chart-lab-recovery.c */
int dmk_lab_chart_build_recovery(DmkLabChartJob *l);
/* dmk-chart-lab-surface.c: read rate or access time, as l->kind says */
int dmk_lab_chart_build_surface(DmkLabChartJob *l);
/* dmk-chart-lab-files.c */
int dmk_lab_chart_build_files(DmkLabChartJob *l);
/* trace: a bar per direction (dmk-chart-lab-trace.c). */
int dmk_lab_chart_build_trace(DmkLabChartJob *l);

#endif
