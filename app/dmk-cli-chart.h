/* `drivemark-cli chart`: saved results as a review's chart (PNG, SVG,
 * PDF), drawn by the same Cairo renderer as the window (ui/dmk-chart.h).
 * Built only where libcsv and Cairo are. */
#ifndef DMK_CLI_CHART_H
#define DMK_CLI_CHART_H

#include "dmk-chart.h"
#include "dmk-cli.h"
#include "dmk-result.h"

/* The chart of `kind` (never DMK_CLI_CHART_FROM_FILE) over n results:
 * QD or block-size lines (a line per file and direction), or tiles
 * (grouped bars, a bar per file). The model and its arrays live in b
 * until dmk_chart_build_free. */
typedef struct {
    DmkChartModel model;
    size_t n_series;
    DmkChartSeries *series;
    DmkChartPoint **points; /* one array per series */
    size_t n_categories;
    char **categories;
} DmkChartBuild;

int dmk_chart_build(DmkChartBuild *b, DmkChartChoice kind, const char *metric,
                    DmkRunResult *const *res, size_t n, DmkError *err);
void dmk_chart_build_free(DmkChartBuild *b);

/* Loads a->files, builds the chart and exports it to --out; returns the
 * exit status. */
int dmk_cli_chart(const DmkCliArgs *a);

#endif
