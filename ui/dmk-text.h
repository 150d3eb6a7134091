/* Text the window hands out: the results as CrystalDiskMark lays them out
 * (the same table drivemark-cli prints, built in a GString so it works on
 * every OS without a FILE*), and the words for tests, tooltips and status. */
#ifndef DMK_TEXT_H
#define DMK_TEXT_H

#include <glib.h>

#include "dmk-result.h"
#include "dmk-runner.h"

/* The whole report, drive model, date, settings, version and comment
 * included; free with g_free(). */
char *dmk_text_report(const DmkRunResult *r);

/* "Read", "Write", "Mix". */
const char *dmk_text_mode_title(DmkMode m);

/* "Sequential Read 1MiB Q8T1", "Random Mix 4KiB Q32T16". */
char *dmk_text_test_title(const DmkTest *t);

/* A tile's tooltip: MB/s, IOPS, mean and p99 latency; g_free(). */
char *dmk_text_tooltip(const DmkTest *t, const DmkStats *s);

/* The status line for a progress report: "Preparing test file 41 %",
 * "Random Read 4KiB Q32T1 - pass 3/5"; g_free(). */
char *dmk_text_progress(const DmkProgress *p);

/* "1:05", "1:02:03". */
char *dmk_text_clock(double seconds);

#endif
