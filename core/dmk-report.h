/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CrystalDiskMark's text layout of a run: what drivemark-cli prints and
 * what the window copies to the clipboard, from one implementation. */
#ifndef DMK_REPORT_H
#define DMK_REPORT_H

#include <stddef.h>

#include "dmk-result.h"

/* The whole report (header, [Read], [Write], [Mix] sections, context,
 * comment); malloc'd, free() it; NULL when out of memory. */
char *dmk_report_text(const DmkRunResult *r);

/* A copy of r for printing: its text (target, model, comment, OS ...:
 * whatever a result file held) with control and bidi characters as '?'
 * (dmk-escape.h), so a line break or an escape sequence in a name cannot
 * fake or hide a line. Shares r's tests; free() it. NULL: no memory. */
DmkRunResult *dmk_report_printable(const DmkRunResult *r);

/* One line on what the verify option found: "Verified 1024 blocks (1 GiB),
 * 0 bad (read back in 0.9 s, not timed)" or "VERIFY FAILED: 2 bad of 1024
 * blocks; first bad byte at offset N (block at M): why". */
char *dmk_verify_describe(const DmkVerifyResult *v, char *buf, size_t len);

/* "Read", "Write", "Mix". */
const char *dmk_mode_title(DmkMode m);

/* A block size as CrystalDiskMark labels it: "1MiB", "4KiB", "512B". */
char *dmk_block_label(uint32_t bs, char *buf, size_t len);

#endif
