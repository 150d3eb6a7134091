/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads a result file (docs/results.md, CSV schema 1 to 7) back into a
 * DmkRunResult, for the CLI's show and chart commands and the GUI's
 * result tabs. Built only where libcsv exists: it uses libcsv's strict
 * parser. A file is taken whole or not at all: any error leaves *out
 * NULL and a message naming the file, the line and the column
 * ("r.csv: line 3, column 31 (mb_s): 'abc' is not a number").
 *
 * What a file does not hold stays zero: the ios, bytes and seconds of
 * each period, and the per-direction statistics other than MB/s, IOPS,
 * mean and p99 latency. Saving a loaded result writes the same bytes
 * (for a file of the current schema). A lab file's finding rows (schema
 * 6) load into the tests they are kept with (DmkTestResult.findings); an
 * older file has none, and its findings are computed from its samples. */
#ifndef DMK_CSV_READ_H
#define DMK_CSV_READ_H

#include <stddef.h>

#include "dmk-result.h"

/* A 2-hour timeline sampled every 100 ms is 72,000 rows of ~400 bytes;
 * these leave room for ten times that and refuse anything absurd. */
#define DMK_CSV_READ_MAX_BYTES (64ULL << 20)
#define DMK_CSV_READ_MAX_ROWS  1000000

/* Loads path; on success *out is the result (free it with
 * dmk_run_result_free), on error NULL with err filled. A file of several
 * runs (result files joined with cat) is refused, saying so. */
int dmk_csv_load(const char *path, DmkRunResult **out, DmkError *err);

/* Loads every run of path: one per header line, so that result files
 * joined with cat (a header each, of any schema 1 to 7) read as the runs
 * they hold, each checked as a file of its own. *out is a malloc'd array
 * of *n results (free each with dmk_run_result_free, then the array). */
int dmk_csv_load_runs(const char *path, DmkRunResult ***out, size_t *n, DmkError *err);
int dmk_csv_load_runs_mem(const char *name, const void *data, size_t len, DmkRunResult ***out,
                          size_t *n, DmkError *err);

/* The same from memory; name is what the messages call the file. */
int dmk_csv_load_mem(const char *name, const void *data, size_t len, DmkRunResult **out,
                     DmkError *err);

#endif
