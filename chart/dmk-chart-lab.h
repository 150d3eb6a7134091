/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Charts of review-lab results (core/dmk-lab.h), built into the same
 * renderer model as the other charts (dmk-chart-build.h), so the window
 * and `drivemark-cli chart` draw and export the same pictures. The
 * numbers come from the lab's analysis (dmk_lab_cliff, dmk_lab_latency
 * ...); this file only lays them out. Plain C, no GLib. */
#ifndef DMK_CHART_LAB_H
#define DMK_CHART_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include "dmk-chart-build.h"
#include "dmk-chart.h"
#include "dmk-error.h"
#include "dmk-lab.h"
#include "dmk-result.h"

typedef enum {
    /* sustained, full span, recovery's degradation: each sample's speed
     * (IOPS for random, MB/s for sequential) as a dot vs GiB written, and
     * a 30-sample moving average line */
    DMK_LAB_CHART_SPEED,
    /* the same, the start only: up to twice the cache found, else the
     * first tenth of the run */
    DMK_LAB_CHART_ZOOM,
    /* speed and temperature (C, right axis) vs time; with no sensor the
     * chart says so instead of drawing an empty line */
    DMK_LAB_CHART_TEMPERATURE,
    /* mixed: MB/s vs read share, a line per pattern */
    DMK_LAB_CHART_MIXED,
    /* mixed: a bar per pattern, the mean over the read shares */
    DMK_LAB_CHART_MIXED_AVERAGE,
    /* latency: mean and p99 latency (ms) vs achieved IOPS of one profile */
    DMK_LAB_CHART_LATENCY,
    /* recovery: bars fresh, degraded, after idle, after TRIM */
    DMK_LAB_CHART_RECOVERY,
    /* surface: each sample's read rate (MB/s) vs its place on the device
     * (GB), a line, and their average */
    DMK_LAB_CHART_SURFACE_RATE,
    /* surface: each random read's access time (ms) vs its place, dots,
     * and their average */
    DMK_LAB_CHART_SURFACE_ACCESS,
    /* files: a bar per step (the copies, archive, extract), MB/s */
    DMK_LAB_CHART_FILES,
    /* trace: a bar per direction (reads, writes, all), MB/s over the busy time */
    DMK_LAB_CHART_TRACE,
} DmkLabChartKind;

/* Samples in the speed charts' moving average (the reviews' 30 s at one
 * sample a second). */
#define DMK_LAB_CHART_AVERAGE 30

/* A chart being built (dmk-chart-lab-private.h: the builders' files share it). */
typedef struct DmkLabChartJob DmkLabChartJob;

/* One kind of lab chart. Everything that differs between the kinds is
 * here; drivemark-cli's --kind, the window's chart picker and the lab
 * tests' chart lists (DmkLabTest.charts, by name) read it. */
typedef struct {
    DmkLabChartKind kind;
    const char *name;  /* drivemark-cli chart's --kind word: "speed" */
    const char *title; /* the window's picker label: "Speed", "Cache zoom" */
    /* How many charts of the kind r has (latency: one per profile; a
     * timeline's: none when no test sampled one). */
    size_t (*count)(const DmkRunResult *r);
    int (*build)(DmkLabChartJob *job);
    bool compares;     /* several results can share one (dmk_lab_chart_compares) */
    bool speed_metric; /* shows iops or mb_s, as the options ask */
    bool side_by_side; /* reads best beside its siblings: the view shows them all at first */
} DmkLabChart;

/* The kinds: the count from the table, each found by kind or name. */
size_t dmk_lab_chart_count(void);
const DmkLabChart *dmk_lab_chart(DmkLabChartKind kind);  /* NULL when out of range */
const DmkLabChart *dmk_lab_chart_find(const char *name); /* NULL when unknown */
/* "speed, zoom, ... or recovery" (sep ", ", last " or "). */
const char *dmk_lab_chart_names_text(const char *sep, const char *last, char *buf, size_t len);

/* "speed", "zoom", "temperature", "mixed", "mixed-average", "latency",
 * "recovery": drivemark-cli chart's --kind words. "" when out of range. */
const char *dmk_lab_chart_name(DmkLabChartKind kind);
/* "Speed", "Cache zoom", "Temperature", "By read share", "Average",
 * "Latency", "Recovery": the window's picker labels. "" when out of range. */
const char *dmk_lab_chart_title(DmkLabChartKind kind);
/* The picker's label of one chart of r: the title, or for a latency
 * profile its pattern, block and direction ("RND4K read"). */
void dmk_lab_chart_label(DmkLabChartKind kind, const DmkRunResult *r, size_t profile, char *buf,
                         size_t len);

/* The charts a lab result has, in display order (sustained, full span:
 * speed, zoom, temperature; recovery: recovery, then those three of its
 * degradation; mixed: mixed, mixed average; latency: one per profile):
 * kinds[i] with profiles[i] (the latency profile index, else 0). Returns
 * how many (<= max); 0 for a result that is not a lab's. */
size_t dmk_lab_charts(const DmkRunResult *r, DmkLabChartKind *kinds, size_t *profiles, size_t max);

/* Is `kind` one of r's charts (dmk_lab_charts)? */
bool dmk_lab_chart_fits(const DmkRunResult *r, DmkLabChartKind kind);

/* Builds one chart of r; profile selects the latency profile (0-based,
 * dmk_lab_latency's order). On failure b holds an empty model ("No data")
 * and err says why. Free b with dmk_chart_build_free. */
int dmk_chart_build_lab(DmkChartBuild *b, DmkLabChartKind kind, const DmkRunResult *r,
                        size_t profile, DmkError *err);

/* NULL or all zero: each result's drive and date, the reviews' units. */
typedef struct {
    /* The legend name of each result; NULL: its drive (or path) and date,
     * numbered when an earlier result has the same ones. */
    const char *const *names;
    /* Speed, zoom and temperature: "iops" or "mb_s"; NULL: the reviews'
     * unit for the test (dmk_lab_metric: IOPS for random, MB/s for
     * sequential). Other charts have one unit and refuse another. */
    const char *metric;
} DmkLabChartOptions;

/* Can several results share a chart of `kind`? All but temperature can:
 * speed and zoom overlay each result's dots and average, latency a mean
 * latency line per result, mixed a line per result and pattern, mixed
 * average and recovery a bar per result. */
bool dmk_lab_chart_compares(DmkLabChartKind kind);

/* The chart of `kind` over n results (n == 1: dmk_chart_build_lab's
 * chart). Each result must have the chart; latency compares the profile
 * of res[0] numbered `profile` with the same profile of the others. On
 * failure b holds an empty model and err says why, naming the result by
 * its position when one does not fit. */
int dmk_chart_build_lab_compare(DmkChartBuild *b, DmkLabChartKind kind,
                                const DmkRunResult *const *res, size_t n, size_t profile,
                                const DmkLabChartOptions *opt, DmkError *err);

/* out[i]: the mean of the finite values of v in a window of `window`
 * samples centred on i (window / 2 before it, the rest after it, cut
 * short at the ends), NaN where it holds none. Centred rather than
 * trailing, so the average drops where the speed dropped, not a window
 * later. out may not alias v. */
void dmk_lab_moving_average(const double *v, size_t n, size_t window, double *out);

/* dmk_chart_export_grid (dmk-chart.h) puts the latency profiles in one file. */

#endif
