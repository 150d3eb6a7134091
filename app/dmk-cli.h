/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli's grammar: one table of options for every subcommand, one
 * parser, and the help text generated from the table. Plain C, no GLib,
 * so it cross-builds for Windows. */
#ifndef DMK_CLI_H
#define DMK_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "dmk-lab.h"
#include "dmk-request.h"
#include "dmk-result.h"
#include "dmk-spec.h"
#include "dmk-sweep.h"

typedef enum {
    DMK_CMD_NONE = 0,
    DMK_CMD_RUN = 1 << 0,
    DMK_CMD_HELP = 1 << 1,
    DMK_CMD_VERSION = 1 << 2,
    DMK_CMD_SWEEP = 1 << 3,
    DMK_CMD_SHOW = 1 << 4,
    DMK_CMD_CHART = 1 << 5,
    DMK_CMD_LAB = 1 << 6, /* sustained, fullspan, mixed, latency, recovery, surface */
} DmkCommand;

/* Result files that show and chart compare at once. */
#define DMK_CLI_MAX_FILES 16

/* What a chart shows (--kind); DMK_CLI_CHART_FROM_FILE follows the first file's sweep. */
typedef enum {
    DMK_CLI_CHART_FROM_FILE = 0,
    DMK_CLI_CHART_QD,
    DMK_CLI_CHART_BS,
    DMK_CLI_CHART_TILES,
    /* a review-lab chart, lab_chart names it (chart/dmk-chart-lab.h's
     * kinds); FROM_FILE picks the lab's first chart */
    DMK_CLI_CHART_LAB,
} DmkChartChoice;

typedef struct {
    DmkCommand cmd;
    DmkRunSpec
        *spec; /* built from req for a measuring command; owned, freed by dmk_cli_args_free */
    /* What to run, as the window fills it too (core/dmk-request.h): the
     * options of its table, the backend's, the lab test's settings. */
    DmkRunRequest req;
    const char *json_path;
    const char *csv_path;
    const char *xlsx_path;
    bool quiet;
    bool remove_leftover; /* files: remove what a killed run left first */
    /* sweep: the kind, then what the options change of its defaults */
    bool sweep_kind_set, pattern_set, bs_set, threads_set;
    DmkSweepKind sweep_kind;
    DmkPattern pattern;
    uint32_t bs, threads;
    size_t n_qd, n_bs;
    uint32_t qd_list[DMK_SWEEP_MAX_POINTS];
    uint32_t bs_list[DMK_SWEEP_MAX_POINTS];
    /* show and chart */
    const char *files[DMK_CLI_MAX_FILES];
    size_t n_files;
    /* once loaded (dmk_cli_load_all): each result's number in its file,
     * 1, 2, ... for result files joined with cat, 0 for a file of one */
    unsigned file_run[DMK_CLI_MAX_FILES];
    const char *metric; /* a DmkStats field: mb_s, iops, lat_mean_us, lat_p99_us */
    bool metric_set;
    const char *chart_out;
    DmkChartChoice chart_kind;
    const char *lab_chart; /* DMK_CLI_CHART_LAB: the --kind word, a DmkLabChart's name */
    int width, height, scale;
    int y_scale; /* --y-scale: a DmkValueScale (chart/dmk-chart.h) when y_scale_set */
    bool y_scale_set;
    /* the review-lab commands: which of their own settings were given */
    unsigned lab_given; /* DMK_LAB_P() of the lab's own settings given (--duration ...) */
} DmkCliArgs;

/* Parses argv (argv[0] is the program). DMK_OK, or DMK_E_INVAL with a
 * message naming the bad argument and what it accepts. */
int dmk_cli_parse(int argc, char **argv, DmkCliArgs *a, DmkError *err);
/* The statistics field --metric names (one of the four it accepts). */
const DmkStatField *dmk_cli_metric_field(const char *metric);
void dmk_cli_args_free(DmkCliArgs *a);

void dmk_cli_usage(FILE *f);

#endif
