/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the lab tests' table (dmk-lab.c) points at in the lab's other
 * files: each test's sentence (dmk-lab-describe.c) and report section
 * (dmk-lab-report.c). Core only. */
#ifndef DMK_LAB_PRIVATE_H
#define DMK_LAB_PRIVATE_H

#include <stddef.h>

#include "dmk-lab.h"

void dmk_lab_describe_sustained(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_describe_fullspan(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_describe_mixed(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_describe_latency(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_describe_recovery(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_describe_surface(const DmkLabParams *p, char *buf, size_t len);
/* The file-set test (dmk-lab-files.c): its steps, sentence, run, findings
 * and report section (the table is dmk-lab-report.c's). */
void dmk_lab_describe_files(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_build_files(const DmkLabParams *p, DmkRunSpec *spec);
int dmk_lab_files_run(DmkRunner *r, const DmkRunSpec *spec, DmkRunResult *res, DmkError *err);
void dmk_lab_findings_files(const DmkRunResult *r, DmkLabFindings *out);
void dmk_lab_report_files(DmkLabOut *o, const DmkRunResult *r);
void dmk_lab_report_files_table(DmkLabOut *o, const DmkRunResult *r);
/* The trace test (dmk-lab-trace.c): its step, sentence, run, findings
 * and report section (dmk-lab-report.c's). */
void dmk_lab_describe_trace(const DmkLabParams *p, char *buf, size_t len);
void dmk_lab_build_trace(const DmkLabParams *p, DmkRunSpec *spec);
int dmk_lab_trace_run(DmkRunner *r, const DmkRunSpec *spec, DmkRunResult *res, DmkError *err);
void dmk_lab_findings_trace(const DmkRunResult *r, DmkLabFindings *out);
void dmk_lab_report_trace(DmkLabOut *o, const DmkRunResult *r);
/* " The test file is written in full first, then the drive rests 5 min
 * to empty its cache." */
void dmk_lab_describe_fill(const DmkLabParams *p, char *buf, size_t len);

/* The first test's timeline (sustained, full span). */
void dmk_lab_report_first_timeline(DmkLabOut *o, const DmkRunResult *r);
void dmk_lab_report_mixed(DmkLabOut *o, const DmkRunResult *r);
void dmk_lab_report_latency(DmkLabOut *o, const DmkRunResult *r);
void dmk_lab_report_recovery(DmkLabOut *o, const DmkRunResult *r);
void dmk_lab_report_surface(DmkLabOut *o, const DmkRunResult *r);

#endif
