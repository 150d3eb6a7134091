/* What drivemark-cli prints: a CrystalDiskMark-style text table of a run
 * and a one-line progress display for terminals. */
#ifndef DMK_CLI_REPORT_H
#define DMK_CLI_REPORT_H

#include <stdio.h>

#include "dmk-result.h"
#include "dmk-runner.h"

void dmk_report_table(FILE *f, const DmkRunResult *r);

/* One test's line: "  SEQ    1MiB (Q=  8, T= 1):   512.345 MB/s [  488.6 IOPS] < 16366.45 us>" */
void dmk_report_test_line(FILE *f, const DmkTestResult *t);

/* Redraws the progress line on stderr ("\r" + erase). */
void dmk_report_progress(const DmkProgress *p);
void dmk_report_progress_end(void);

#endif
