#include "dmk-cli-chart.h"

#include <stdio.h>
#include <string.h>

#include "dmk-chart-build.h"
#include "dmk-cli-show.h"

/* ---- the command --------------------------------------------------------- */

/* --kind, or what the first file was: a QD sweep, a block-size sweep, tiles. */
static DmkChartBuildKind chart_kind(const DmkCliArgs *a, const DmkRunResult *first)
{
    switch (a->chart_kind) {
    case DMK_CLI_CHART_QD:
        return DMK_CHART_BUILD_QD;
    case DMK_CLI_CHART_BS:
        return DMK_CHART_BUILD_BS;
    case DMK_CLI_CHART_TILES:
        return DMK_CHART_BUILD_TILES;
    case DMK_CLI_CHART_FROM_FILE:
        break;
    }
    if (strcmp(first->sweep, "qd") == 0)
        return DMK_CHART_BUILD_QD;
    if (strcmp(first->sweep, "bs") == 0)
        return DMK_CHART_BUILD_BS;
    return DMK_CHART_BUILD_TILES;
}

int dmk_cli_chart(const DmkCliArgs *a)
{
    DmkRunResult *res[DMK_CLI_MAX_FILES] = {0};
    if (dmk_cli_load_all(a, res) != DMK_OK)
        return 1;
    DmkChartBuild b;
    DmkError err = {0};
    /* NULL options: legends name each file's drive and date. */
    int rc = dmk_chart_build(&b, chart_kind(a, res[0]), a->metric, (const DmkRunResult *const *)res,
                             a->n_files, NULL, &err);
    if (rc == DMK_OK) {
        rc = dmk_chart_export(&b.model, a->chart_out, a->width, a->height, (double)a->scale, &err);
        dmk_chart_build_free(&b);
    }
    if (rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
    dmk_cli_free_all(res, a->n_files);
    return rc == DMK_OK ? 0 : 1;
}
