/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Saved results turned into the renderer's model (dmk-chart.h): the one
 * builder behind both `drivemark-cli chart` and the window's charts, so
 * what a reviewer exports from either is the same chart. Plain C like the
 * renderer (no GLib), since the headless CLI links it. */
#ifndef DMK_CHART_BUILD_H
#define DMK_CHART_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "dmk-chart.h"
#include "dmk-error.h"
#include "dmk-result.h"

typedef enum {
    DMK_CHART_BUILD_QD,    /* lines vs queue depth: a line per result and direction */
    DMK_CHART_BUILD_BS,    /* lines vs block size */
    DMK_CHART_BUILD_TILES, /* grouped bars: a group per test and direction */
} DmkChartBuildKind;

/* NULL or all zero: the CLI's chart. */
typedef struct {
    /* The legend name of each result; NULL: its drive (or path) and date,
     * numbered when an earlier result has the same ones. */
    const char *const *names;
    /* With one result the legend names directions ("Read", "Write") and a
     * bar per direction groups each test; the drive and date go in the
     * subtitle instead. The window's charts. */
    bool one_by_direction;
    /* Where the results' file size, passes or data differ, the subtitle
     * says so rather than claim the first one's for all. */
    bool note_differences;
} DmkChartBuildOptions;

/* The model and the arrays it points into, all owned here until
 * dmk_chart_build_free. */
typedef struct {
    DmkChartModel model;
    size_t n_series;
    DmkChartSeries *series;
    DmkChartPoint **points; /* one array per series */
    size_t n_categories;
    char **categories;
} DmkChartBuild;

/* The chart of `kind` over n results, the first with at least one test;
 * its value axis is DMK_VALUE_AUTO (log where values span decades).
 * metric: a DmkStats field ("mb_s", "iops", "lat_mean_us", "lat_p99_us";
 * NULL or unknown: "mb_s"). The results are only read during the call.
 * On failure b holds an empty model ("No data") and err says why. */
int dmk_chart_build(DmkChartBuild *b, DmkChartBuildKind kind, const char *metric,
                    const DmkRunResult *const *res, size_t n, const DmkChartBuildOptions *opt,
                    DmkError *err);
void dmk_chart_build_free(DmkChartBuild *b);

/* The legend name of res[i]: names[i] when names is not NULL, else its
 * drive and date, with " [i+1]" where an earlier result has the same. */
void dmk_chart_result_name(const DmkRunResult *const *res, size_t i, const char *const *names,
                           char *buf, size_t len);

#endif
