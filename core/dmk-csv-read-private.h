/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the CSV reader's files share (dmk-csv-read.h is the reader's
 * interface; this is not for callers). The reader is split along its
 * seams:
 *   dmk-csv-cells.c     a row's cells: kept, found by column, read as a
 *                       number, word, text or temperature, or refused
 *                       with the message naming the line and column;
 *   dmk-csv-header.c    the header row and the schema it must match;
 *   dmk-csv-context.c   the run's context (the first row, repeated on
 *                       every row);
 *   dmk-csv-test-row.c  what a test row holds (identity, statistics,
 *                       flags, verify), and the statistics a pass shares;
 *   dmk-csv-records.c   which record may come where (a test's row, its
 *                       passes, its samples, its findings), building the
 *                       result;
 *   dmk-csv-finding-row.c  a lab file's finding rows (schema 6): the
 *                       figure, checked against the findings' tables;
 *   dmk-csv-read.c      libcsv's callbacks and loading a file or memory.
 * Every check returns DMK_OK or the first error, which stays in the
 * reader (rd->rc): everything after it is ignored. */
#ifndef DMK_CSV_READ_PRIVATE_H
#define DMK_CSV_READ_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-csv-private.h"
#include "dmk-csv-read.h"
#include "dmk-error.h"
#include "dmk-result.h"

/* Statistics beyond this are no measurement (10^15 MB/s), and would not
 * fit the writer's fixed-decimal cells. */
#define DMK_CSV_STAT_MAX 1e15

/* A row's cells, copied: libcsv reuses its buffer for the next cell. */
typedef struct {
    char *buf; /* each cell NUL-terminated */
    size_t used, cap;
    size_t n;
    size_t over; /* cells past the most a row may have: counted, not kept */
    size_t off[DMK_CSV_MAX_COLUMNS];
    size_t len[DMK_CSV_MAX_COLUMNS];
} DmkCsvCells;

typedef struct {
    const char *name; /* the file, for messages */
    DmkError *err;
    int rc;                /* the first error; everything after it is ignored */
    unsigned long line;    /* where the current row starts, 1-based */
    unsigned long pending; /* line breaks inside the current row's cells */
    bool after_cr;         /* the last row ended in CR: an LF next is its CRLF */
    DmkCsvCells cells;     /* the current row */
    DmkCsvCells header;
    bool have_header;
    unsigned long header_line;
    size_t n_cols;
    int schema;                         /* the first row's, once read (dmk_csv_read_schema) */
    int file_col[DMK_CSV_MAX_COLUMNS];  /* table column -> file column, -1 if absent */
    int table_col[DMK_CSV_MAX_COLUMNS]; /* file column -> table column, -1 if unknown */
    size_t rows;                        /* data rows */
    DmkCsvCells first;                  /* the first data row: the run's context */
    unsigned long first_line;
    DmkCsvCells test; /* the row of the test whose passes and samples follow */
    unsigned long test_line;
    bool in_samples;
    bool in_findings; /* the test's finding rows have begun */
    size_t cap_tests, cap_passes, cap_samples, cap_findings;
    /* The line of every finding row, in file order (the tests' findings
     * in order): the check after the last row names the line. */
    unsigned long *finding_lines;
    size_t n_finding_lines, cap_finding_lines;
    DmkRunResult *res; /* the run being read */
    /* Files joined with cat: each header line after the first ends a run
     * (kept here, in file order) and starts the next. */
    DmkRunResult **runs;
    size_t n_runs, cap_runs;
    const char *decimal_point; /* the C locale's, for strtod */
} DmkCsvReader;

/* ---- dmk-csv-cells.c: messages ---- */

/* "name: line L, column C (col): what" (line 0: none; fcol < 0: none). */
int dmk_csv_fail_at(DmkCsvReader *rd, unsigned long line, int fcol, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 5)));
/* The same for a cell of the current row, by table column. */
int dmk_csv_fail_cell(DmkCsvReader *rd, size_t col, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 3, 4)));
/* A cell as a message shows it: 'text', at most ~40 bytes, with control
 * and bidi characters and bytes of invalid UTF-8 as '?' (dmk-escape.h). */
const char *dmk_csv_shown(const char *s, size_t len, char *buf, size_t cap);

/* ---- dmk-csv-cells.c: a row's cells ---- */

int dmk_csv_cells_add(DmkCsvCells *c, const char *s, size_t len);
int dmk_csv_cells_copy(DmkCsvCells *dst, const DmkCsvCells *src);
void dmk_csv_cells_clear(DmkCsvCells *c);
/* Cell of table column col in c; NULL when the file lacks the column. */
const char *dmk_csv_cell(const DmkCsvReader *rd, const DmkCsvCells *c, size_t col, size_t *len);
bool dmk_csv_same_cell(const DmkCsvReader *rd, const DmkCsvCells *a, const DmkCsvCells *b,
                       size_t col);

/* ---- dmk-csv-cells.c: typed cells, each refused with its message ---- */

/* A non-negative decimal up to max. */
int dmk_csv_get_real(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, double max, double *out);
/* A whole number in min..max. */
int dmk_csv_get_uint(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, uint64_t min, uint64_t max,
                     uint64_t *out);
int dmk_csv_get_u32(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, uint64_t min, uint64_t max,
                    uint32_t *out);
/* A sample's temperature: NaN when empty, else a plausible reading. */
int dmk_csv_get_temp(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, double *out);
/* Text of at most cap - 1 bytes of valid UTF-8, the writer's apostrophe
 * (dmk_csv_neutralise) taken off again. */
int dmk_csv_get_text(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, char *dst, size_t cap);
/* The index of the cell's text in names (NULL-terminated). */
int dmk_csv_get_choice(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, const char *const *names,
                       int *out);
/* Whether the cell of col is empty (or the file lacks the column). */
bool dmk_csv_cell_empty(const DmkCsvReader *rd, const DmkCsvCells *c, size_t col);
/* A whole number as dmk_csv_get_uint, or (schema 7, a cell that may not
 * apply) empty: *out 0. */
int dmk_csv_get_uint_or_empty(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, uint64_t min,
                              uint64_t max, uint64_t *out);
/* Cells a kind of record leaves empty must be: anything there is not ours. */
int dmk_csv_need_empty(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, const char *record);

/* ---- dmk-csv-header.c ---- */

/* Maps the header's names to the column table. */
int dmk_csv_read_header(DmkCsvReader *rd, const DmkCsvCells *c);
/* The header against schema's columns: none unknown, none missing. */
int dmk_csv_check_header(DmkCsvReader *rd, int schema);
/* The schema a header without rows seems to be: the newest of its columns. */
int dmk_csv_header_schema(const DmkCsvReader *rd);
/* The first row's schema cell, and the header checked against it. */
int dmk_csv_read_schema(DmkCsvReader *rd, const DmkCsvCells *c);

/* ---- dmk-csv-context.c ---- */

/* The run's context from the first row, into rd->res. */
int dmk_csv_read_context(DmkCsvReader *rd, const DmkCsvCells *c);
/* Every later row repeats the first row's context: a file holds one run. */
int dmk_csv_check_context(DmkCsvReader *rd, const DmkCsvCells *c);

/* ---- dmk-csv-test-row.c ---- */

/* A test row's cells into t (the result's last test); *best is the best
 * pass's number (1-based) as the row says it. */
int dmk_csv_read_test_cells(DmkCsvReader *rd, const DmkCsvCells *c, DmkTestResult *t,
                            uint32_t *best);
/* The statistics columns, as a test and a pass row have them. */
int dmk_csv_read_stats(DmkCsvReader *rd, const DmkCsvCells *c, DmkStats *s);
/* The four per-direction columns of read and of write (from schema 7,
 * those of the directions test t does; the others empty). */
int dmk_csv_read_directions(DmkCsvReader *rd, const DmkCsvCells *c, const DmkTest *t,
                            DmkPassResult *p);
/* The achieved read share (schema 6) of a row of test t, into p. */
int dmk_csv_read_share_achieved(DmkCsvReader *rd, const DmkCsvCells *c, const DmkTest *t,
                                DmkPassResult *p);

/* ---- dmk-csv-records.c ---- */

/* One data row: its column count, the context, its record in its place. */
int dmk_csv_read_row(DmkCsvReader *rd, const DmkCsvCells *c);
/* The last test has all its passes and its best pass is one of them. */
int dmk_csv_finish_test(DmkCsvReader *rd);
/* *arr with room for need items of size bytes (*cap of them now). */
int dmk_csv_grow(void **arr, size_t *cap, size_t need, size_t size);

/* ---- dmk-csv-finding-row.c ---- */

/* A finding row (its identity checked: it is the last test's). */
int dmk_csv_read_finding_row(DmkCsvReader *rd, const DmkCsvCells *c);
/* Rows of other records leave the finding columns empty. */
int dmk_csv_need_no_finding(DmkCsvReader *rd, const DmkCsvCells *c, const char *record);
/* After the last row: every finding row is kept with a test the lab's
 * findings anchor a set of that kind at (dmk-lab-findings.h). */
int dmk_csv_check_findings(DmkCsvReader *rd);

#endif
