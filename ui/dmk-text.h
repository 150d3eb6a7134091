/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* A planned length in words: "45 s", "5 min 30 s", "40 min", "2 h 5 min"
 * (the Lab tab's and the big-write question's). */
char *dmk_text_length(double seconds);

/* "1:05", "1:02:03". */
char *dmk_text_clock(double seconds);

/* ---- a saved result's context (g_free() each) ---- */

/* A tab's title for a result not saved yet: "Run 14:05", "QD sweep
 * 14:05", "Block-size sweep 14:05" (local time of the run's start). */
char *dmk_text_result_title(const DmkRunResult *r);

/* A legend's name, the same as drivemark-cli chart's: the drive's model
 * (or the target when unknown) and when the run started, in UTC:
 * "Samsung SSD 970 EVO Plus 1TB, 2026-11-30 06:45". */
char *dmk_text_result_label(const DmkRunResult *r);

/* Decimal, as drives are sold: "1000.2 GB", "2.00 TB", "67 MB". */
char *dmk_text_capacity(uint64_t bytes);

/* The context lines of a result tab: the drive ("Samsung SSD 970 EVO Plus
 * 1TB"), where it ran ("1000.2 GB drive /dev/nvme0n1p2 · /data (ext4),
 * 512.0 GB free · Linux 6.1.0 x86_64") and how ("Default profile · 1 GiB
 * test file · best of 5 × 5 s · random data · 2026-11-30 07:45 ·
 * Drivemark 0.1.0, libaio"). */
char *dmk_text_context_drive(const DmkRunResult *r);
char *dmk_text_context_where(const DmkRunResult *r);
char *dmk_text_context_how(const DmkRunResult *r);

#endif
