/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What drivemark-cli prints: a CrystalDiskMark-style text table of a run
 * and a one-line progress display for terminals. */
#ifndef DMK_CLI_REPORT_H
#define DMK_CLI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "dmk-result.h"
#include "dmk-runner.h"

/* The CrystalDiskMark-style table (core/dmk-report.h) on f. */
void dmk_report_table(FILE *f, const DmkRunResult *r);

/* How progress reaches stderr: not at all where it is no terminal, as a
 * line redrawn in place ("\r" + erase) on a terminal, and as plain lines,
 * one per step, without an escape sequence, where TERM is unset, empty
 * or "dumb". */
typedef enum {
    DMK_PROGRESS_NONE,
    DMK_PROGRESS_LINES,
    DMK_PROGRESS_REDRAW,
} DmkProgressStyle;

DmkProgressStyle dmk_report_progress_style(void);
/* Before the first report; the style dmk_report_progress draws in. */
void dmk_report_progress_start(DmkProgressStyle style);
void dmk_report_progress(const DmkProgress *p);
/* Ends the display: the redrawn line erased, or the last step's line. */
void dmk_report_progress_end(void);

/* A review-lab result's findings (dmk_lab_report). */
void dmk_report_lab(FILE *f, const DmkRunResult *r);

/* The same, of r as its CSV keeps it (written and read back in memory),
 * so that `show` of the saved file prints the same figures; r itself
 * where the build has no CSV reader or the round trip fails. */
void dmk_report_lab_as_saved(FILE *f, const DmkRunResult *r);

#endif
