/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The columns of the CSV result file, shared by the writer (dmk-csv.c)
 * and the reader (dmk-csv-read.c and its parts, dmk-csv-read-private.h)
 * so the two can never disagree: both address a cell by its index here,
 * and the file's order is this order.
 * Indices: the context and identity columns (DmkCsvHead), then one
 * column per dmk_stat_fields entry, then DmkCsvTail. */
#ifndef DMK_CSV_PRIVATE_H
#define DMK_CSV_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "dmk-result.h"

typedef enum {
    DMK_CSV_TEXT, /* quoted, neutralised (dmk_csv_neutralise) */
    DMK_CSV_UINT, /* bare decimal integer */
    DMK_CSV_REAL, /* bare decimal with a fixed number of decimals */
} DmkCsvKind;

typedef struct {
    const char *name;
    DmkCsvKind kind;
    int decimals;      /* DMK_CSV_REAL only */
    int since;         /* the first schema version that has the column */
    const char *title; /* a spreadsheet's heading, with the unit (dmk-xlsx.c) */
} DmkCsvColumn;

/* The record column's words: a test's row, a pass's, a sample's, and
 * (schema 6) a figure of what the lab analysis found (dmk-lab-findings.h). */
typedef enum {
    DMK_CSV_RECORD_TEST,
    DMK_CSV_RECORD_PASS,
    DMK_CSV_RECORD_SAMPLE,
    DMK_CSV_RECORD_FINDING,
} DmkCsvRecord;
extern const char *const dmk_csv_records[]; /* by DmkCsvRecord, NULL-terminated */

/* The schema the writer writes and the newest the reader takes: at
 * least the highest `since` in the table (test-csv-read checks). */
#define DMK_CSV_SCHEMA 8
/* Schema 7 added no column: cells that do not apply to a row (a write
 * test's read columns, an unknown capacity or link, a raw device's file
 * system, no rate) are empty instead of 0, and text cells that pandas
 * reads as missing ("null", "NA") or that begin with an apostrophe get
 * the leading apostrophe too (dmk_csv_neutralise). */
#define DMK_CSV_SCHEMA_EMPTY_NA 7

/* A temperature cell holds a plausible reading or nothing (dmk-result.h). */
#define DMK_CSV_TEMP_MIN DMK_TEMP_MIN_C
#define DMK_CSV_TEMP_MAX DMK_TEMP_MAX_C

/* The run's context (the same on every row), then the test's identity,
 * then the pass number and the sample's time and temperature. Columns a
 * later schema added sit where they belong, not at the end: readers find
 * columns by name. */
typedef enum {
    DMK_COL_SCHEMA,
    DMK_COL_VERSION,
    DMK_COL_RECORD,
    DMK_COL_DATE,
    DMK_COL_TARGET,
    DMK_COL_FILE_SYSTEM,
    DMK_COL_DEVICE,
    DMK_COL_DEVICE_MODEL,
    DMK_COL_TEMP_SENSOR,
    DMK_COL_CAPACITY,
    DMK_COL_FS_SIZE, /* schema 5: "free of" needs the file system's size */
    DMK_COL_FS_FREE,
    DMK_COL_OS,
    DMK_COL_BACKEND,
    DMK_COL_PROFILE,
    DMK_COL_SWEEP,
    DMK_COL_LAB,
    DMK_COL_TEST_SIZE,
    DMK_COL_PASSES,
    DMK_COL_MEASURE,
    DMK_COL_WARMUP,
    DMK_COL_INTERVAL,
    DMK_COL_DATA,
    DMK_COL_COMMENT,
    DMK_COL_LAB_NOTE,
    /* schema 4, honest numbers: what the file system did to the test
     * file and the drive's link (results.md, "Flags") */
    DMK_COL_COW,
    DMK_COL_COMPRESSION,
    DMK_COL_INTERFACE,
    DMK_COL_INTERFACE_MB_S,
    DMK_COL_COMPLETE,
    DMK_COL_TEST,
    DMK_COL_LABEL,
    DMK_COL_MODE,
    DMK_COL_PATTERN,
    DMK_COL_BLOCK_SIZE,
    DMK_COL_QUEUE_DEPTH,
    DMK_COL_THREADS,
    DMK_COL_READ_SHARE,
    DMK_COL_RATE_IOPS,
    DMK_COL_PASS,
    DMK_COL_T_S,
    DMK_COL_TEMP_C,
    DMK_COL_OFFSET, /* schema 8: a surface sample's place, a kept I/O's (dmk-surface.h) */
    /* schema 6, finding rows only: "cliff.cache", its value, its unit */
    DMK_COL_FINDING,
    DMK_COL_FINDING_VALUE,
    DMK_COL_FINDING_UNIT,
    DMK_COL_N_HEAD
} DmkCsvHead;

/* After the statistics: what only a test row has (the score's spread,
 * whether the test was cut short), then per direction. */
typedef enum {
    DMK_COL_MB_S_MEDIAN,
    DMK_COL_MB_S_MIN,
    DMK_COL_MB_S_MAX,
    DMK_COL_PARTIAL,
    DMK_COL_ACHIEVED_QD, /* schema 4, test rows only */
    DMK_COL_FLAGS,       /* schema 4, test rows only: "peak over_interface low_qd" */
    DMK_COL_READ_MB_S,
    DMK_COL_READ_IOPS,
    DMK_COL_READ_LAT_MEAN,
    DMK_COL_READ_LAT_P99,
    DMK_COL_WRITE_MB_S,
    DMK_COL_WRITE_IOPS,
    DMK_COL_WRITE_LAT_MEAN,
    DMK_COL_WRITE_LAT_P99,
    /* schema 6, test and pass rows of a mixed test: the percentage of the
     * completed I/Os that read (dmk_pass_read_pct); empty elsewhere */
    DMK_COL_READ_SHARE_ACHIEVED,
    /* schema 4, test rows of a run with the verify option (docs/verify.md);
     * empty when the test was not verified, the first_bad ones when none was bad */
    DMK_COL_VERIFY_BLOCKS,
    DMK_COL_VERIFY_BAD,
    DMK_COL_VERIFY_SKIPPED,
    DMK_COL_VERIFY_FIRST_BAD_BLOCK,
    DMK_COL_VERIFY_FIRST_BAD_BYTE,
    DMK_COL_VERIFY_WHY,
    DMK_COL_VERIFY_S,
    DMK_COL_N_TAIL
} DmkCsvTail;

/* Room for every column of every schema (78 in schema 6), with a margin. */
#define DMK_CSV_MAX_COLUMNS 96

/* Context columns are DMK_COL_SCHEMA .. DMK_COL_COMPLETE; identity
 * columns DMK_COL_TEST .. DMK_COL_RATE_IOPS: a pass or sample row
 * repeats its test row's. */
#define DMK_COL_LAST_CONTEXT   DMK_COL_COMPLETE
#define DMK_COL_FIRST_IDENTITY DMK_COL_TEST
#define DMK_COL_LAST_IDENTITY  DMK_COL_RATE_IOPS

/* All columns, in file order. */
size_t dmk_csv_column_count(void);
/* Column i (< dmk_csv_column_count()). */
DmkCsvColumn dmk_csv_column(size_t i);

/* Index of the statistics column of dmk_stat_fields[k], of a tail column. */
static inline size_t dmk_csv_col_stat(size_t k)
{
    return DMK_COL_N_HEAD + k;
}

static inline size_t dmk_csv_col_tail(DmkCsvTail t)
{
    return DMK_COL_N_HEAD + dmk_stat_field_count + (size_t)t;
}

/* The tail columns of one direction (read or write) start here. */
static inline size_t dmk_csv_col_direction(int write)
{
    return dmk_csv_col_tail(write ? DMK_COL_WRITE_MB_S : DMK_COL_READ_MB_S);
}

/* Whether a test of mode has the per-direction columns of read (write
 * 0) or of write (1) filled: a mixed test both. */
bool dmk_csv_direction_applies(DmkMode mode, int write);

/* A cell of a row as the writers fill it: empty (!set), a text (also a
 * number already formatted by its row's rule: a finding's `value`), a
 * whole number (DMK_CSV_UINT) or a decimal (DMK_CSV_REAL). */
typedef struct {
    bool set;
    const char *text;
    unsigned long long u;
    double d;
} DmkCsvCell;

/* A row of kind rec: cells by column index (dmk_csv_column_count()),
 * valid during the call only. */
typedef void (*DmkCsvRowFn)(DmkCsvRecord rec, const DmkCsvCell *cells, void *ctx);

/* Every row of r, in the file's order, to emit: the CSV writer's and the
 * .xlsx writer's one source (dmk-xlsx.c), so the two hold the same cells. */
int dmk_csv_each_row(const DmkRunResult *r, DmkCsvRowFn emit, void *ctx, const char *path,
                     DmkError *err);

/* True for the DmkStats fields a timeline sample has. */
bool dmk_csv_sample_field(const DmkStatField *f);

#endif
