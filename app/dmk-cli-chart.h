/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `drivemark-cli chart`: saved results as a review's chart (PNG, SVG,
 * PDF), drawn by the same Cairo renderer as the window (chart/dmk-chart.h).
 * Built only where libcsv and Cairo are. */
#ifndef DMK_CLI_CHART_H
#define DMK_CLI_CHART_H

#include "dmk-cli.h"

/* Loads a->files, builds the chart and exports it to --out; returns the
 * exit status. */
int dmk_cli_chart(const DmkCliArgs *a);

#endif
