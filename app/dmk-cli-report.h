/* What drivemark-cli prints: a CrystalDiskMark-style text table of a run
 * and a one-line progress display for terminals. */
#ifndef DMK_CLI_REPORT_H
#define DMK_CLI_REPORT_H

#include <stdio.h>

#include "dmk-result.h"
#include "dmk-runner.h"

/* The CrystalDiskMark-style table (core/dmk-report.h) on f. */
void dmk_report_table(FILE *f, const DmkRunResult *r);

/* Redraws the progress line on stderr ("\r" + erase). */
void dmk_report_progress(const DmkProgress *p);
void dmk_report_progress_end(void);

/* A review-lab result's findings (dmk_lab_report). */
void dmk_report_lab(FILE *f, const DmkRunResult *r);

/* The same, of r as its CSV keeps it (written and read back in memory),
 * so that `show` of the saved file prints the same figures; r itself
 * where the build has no CSV reader or the round trip fails. */
void dmk_report_lab_as_saved(FILE *f, const DmkRunResult *r);

#endif
