/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The .xlsx export: the rows the CSV writer makes (dmk_csv_each_row),
 * each cell typed as the column table says, into a workbook. Two passes
 * over the rows: the first finds which columns each kind of row fills
 * (a sheet leaves out the columns none of its rows has: a read test's
 * write columns, the verify columns of a run without --verify), the
 * second writes them. */
#include "dmk-xlsx.h"

#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include "dmk-csv-private.h"
#include "dmk-escape.h"
#include "dmk-size.h"

#define N_KINDS      4 /* DmkCsvRecord: test, pass, sample, finding */
#define MAX_DECIMALS 6

/* Sheet names, by DmkCsvRecord. */
static const char *const sheet_names[N_KINDS] = {"Tests", "Passes", "Samples", "Findings"};

typedef struct {
    bool used[DMK_CSV_MAX_COLUMNS]; /* a row of this kind has the column */
    lxw_col_t col_of[DMK_CSV_MAX_COLUMNS];
    size_t rows; /* data rows so far */
    lxw_worksheet *ws;
} Sheet;

typedef struct {
    lxw_workbook *wb;
    bool writing; /* the second pass */
    bool have_context;
    Sheet sheets[N_KINDS];
    lxw_worksheet *run;
    lxw_format *head, *number[MAX_DECIMALS + 1];
    lxw_error error; /* the first error of a write */
} Book;

static bool is_context(size_t col)
{
    return col <= DMK_COL_LAST_CONTEXT;
}

/* An empty text (no label, no flags) is no more than an empty cell. */
static bool has_value(size_t col, const DmkCsvCell *c)
{
    return c->set && !(dmk_csv_column(col).kind == DMK_CSV_TEXT && c->text[0] == '\0');
}

/* A heading: the table's title; on the tests' sheet the pass column is
 * the best pass's number. */
static const char *title(DmkCsvRecord kind, size_t col)
{
    if (kind == DMK_CSV_RECORD_TEST && col == DMK_COL_PASS)
        return "Best pass";
    return dmk_csv_column(col).title;
}

static void note(Book *b, lxw_error e)
{
    if (e != LXW_NO_ERROR && b->error == LXW_NO_ERROR)
        b->error = e;
}

/* "12.345" as written by the finding rows: its value and its decimals,
 * read in the "C" locale's way whatever the process's locale is. */
static double formatted_number(const char *s, int *decimals)
{
    char buf[96];
    const char *dp = localeconv()->decimal_point;
    const char *dot = strchr(s, '.');
    *decimals = dot ? (int)strlen(dot + 1) : 0;
    if (*decimals > MAX_DECIMALS)
        *decimals = MAX_DECIMALS;
    size_t head = dot ? (size_t)(dot - s) : 0, dl = strlen(dp), tail = dot ? strlen(dot + 1) : 0;
    if (dot && head + dl + tail < sizeof buf) {
        memcpy(buf, s, head);
        memcpy(buf + head, dp, dl);
        memcpy(buf + head + dl, dot + 1, tail + 1);
        s = buf;
    }
    return strtod(s, NULL);
}

/* One cell of column col, as its kind says: a number with the column's
 * decimals as its format, or text. */
static void write_cell(Book *b, lxw_worksheet *ws, lxw_row_t row, lxw_col_t xc, size_t col,
                       const DmkCsvCell *c)
{
    DmkCsvColumn k = dmk_csv_column(col);
    if (!has_value(col, c))
        return;
    if (k.kind == DMK_CSV_TEXT) {
        char u[3 * 4100];
        note(b,
             worksheet_write_string(ws, row, xc, dmk_utf8_valid_copy(c->text, u, sizeof u), NULL));
    } else if (k.decimals < 0) {
        int dec = 0;
        double v = formatted_number(c->text, &dec);
        note(b, worksheet_write_number(ws, row, xc, v, b->number[dec]));
    } else if (k.kind == DMK_CSV_UINT) {
        note(b, worksheet_write_number(ws, row, xc, (double)c->u, b->number[0]));
    } else {
        /* The CSV's and the JSON's number, to the same decimals: a sum
         * over the sheet is the sum over the CSV's column. */
        char text[80];
        int dec = 0;
        double v = formatted_number(dmk_format_double(c->d, k.decimals, text, sizeof text), &dec);
        note(b, worksheet_write_number(ws, row, xc, v, b->number[dec]));
    }
}

/* The run's context, once, from the first row: a heading and a value a
 * line. The schema and the record say nothing here. */
static void write_context(Book *b, const DmkCsvCell *cells)
{
    lxw_row_t row = 1;
    for (size_t col = 0; col <= DMK_COL_LAST_CONTEXT; col++) {
        if (col == DMK_COL_SCHEMA || col == DMK_COL_RECORD)
            continue;
        note(b, worksheet_write_string(b->run, row, 0, dmk_csv_column(col).title, b->head));
        write_cell(b, b->run, row, 1, col, &cells[col]);
        row++;
    }
    b->have_context = true;
}

static void on_row(DmkCsvRecord rec, const DmkCsvCell *cells, void *ctx)
{
    Book *b = ctx;
    Sheet *s = &b->sheets[rec];
    size_t n = dmk_csv_column_count();
    if (!b->writing) {
        for (size_t col = 0; col < n; col++)
            s->used[col] = s->used[col] || (!is_context(col) && has_value(col, &cells[col]));
        s->rows++;
        return;
    }
    if (!b->have_context)
        write_context(b, cells);
    lxw_row_t row = (lxw_row_t)++s->rows;
    for (size_t col = 0; col < n; col++)
        if (s->used[col])
            write_cell(b, s->ws, row, s->col_of[col], col, &cells[col]);
}

/* A sheet's headings, its top row kept in view and filterable. */
static void start_sheet(Book *b, DmkCsvRecord kind)
{
    Sheet *s = &b->sheets[kind];
    size_t n = dmk_csv_column_count();
    lxw_col_t xc = 0;
    s->ws = workbook_add_worksheet(b->wb, sheet_names[kind]);
    for (size_t col = 0; col < n; col++) {
        if (!s->used[col])
            continue;
        const char *t = title(kind, col);
        s->col_of[col] = xc;
        note(b, worksheet_write_string(s->ws, 0, xc, t, b->head));
        size_t w = strlen(t) + 2;
        note(b, worksheet_set_column(s->ws, xc, xc, (double)(w < 10 ? 10 : w), NULL));
        xc++;
    }
    worksheet_freeze_panes(s->ws, 1, 0);
    if (xc > 0)
        note(b, worksheet_autofilter(s->ws, 0, 0, (lxw_row_t)s->rows, (lxw_col_t)(xc - 1)));
    s->rows = 0;
}

static void add_formats(Book *b)
{
    static const char *const fmts[MAX_DECIMALS + 1] = {"0",      "0.0",     "0.00",    "0.000",
                                                       "0.0000", "0.00000", "0.000000"};
    b->head = workbook_add_format(b->wb);
    format_set_bold(b->head);
    for (int d = 0; d <= MAX_DECIMALS; d++) {
        b->number[d] = workbook_add_format(b->wb);
        format_set_num_format(b->number[d], fmts[d]);
    }
}

/* The workbook into the file tmp: the context sheet, then a sheet per
 * kind of row that the run has (the tests' always). */
static int build(const DmkRunResult *r, const char *tmp, const char *path, DmkError *err)
{
    Book *b = calloc(1, sizeof *b);
    if (!b)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "writing %s: out of memory", path);
    int rc = dmk_csv_each_row(r, on_row, b, path, err);
    b->wb = rc == DMK_OK ? workbook_new(tmp) : NULL;
    if (rc == DMK_OK && !b->wb)
        rc = dmk_error_set(err, DMK_E_NOMEM, 0, "writing %s: out of memory", path);
    if (rc != DMK_OK) {
        free(b);
        return rc;
    }
    add_formats(b);
    b->run = workbook_add_worksheet(b->wb, "Run");
    note(b, worksheet_write_string(b->run, 0, 0, "Field", b->head));
    note(b, worksheet_write_string(b->run, 0, 1, "Value", b->head));
    note(b, worksheet_set_column(b->run, 0, 0, 26, NULL));
    note(b, worksheet_set_column(b->run, 1, 1, 40, NULL));
    for (int k = 0; k < N_KINDS; k++)
        if (k == DMK_CSV_RECORD_TEST || b->sheets[k].rows)
            start_sheet(b, (DmkCsvRecord)k);
    b->writing = true;
    rc = dmk_csv_each_row(r, on_row, b, path, err);
    lxw_error close_err = workbook_close(b->wb); /* writes the file, frees the workbook */
    lxw_error e = b->error != LXW_NO_ERROR ? b->error : close_err;
    free(b);
    if (rc == DMK_OK && e != LXW_NO_ERROR)
        rc = dmk_error_set(err, DMK_E_IO, 0, "writing %s failed: %s (libxlsxwriter)", path,
                           lxw_strerror(e));
    return rc;
}

/* A new, empty file of our own in the temporary directory, by name. */
static int make_temp(char *tmp, size_t len, const char *path, DmkError *err)
{
#ifdef _WIN32
    char *name = _tempnam(NULL, "dmkx");
    if (!name)
        return dmk_error_errno(err, errno, "writing %s: no temporary file name", path);
    snprintf(tmp, len, "%s", name);
    free(name);
    return DMK_OK;
#else
    const char *dir = getenv("TMPDIR");
    snprintf(tmp, len, "%s/drivemark-xlsx-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0)
        return dmk_error_errno(err, errno, "writing %s: creating the temporary file %s failed",
                               path, tmp);
    close(fd);
    return DMK_OK;
#endif
}

/* The finished workbook's bytes into f. */
static int copy_into(FILE *f, const char *tmp, const char *path, DmkError *err)
{
    FILE *in = fopen(tmp, "rb");
    if (!in)
        return dmk_error_errno(err, errno, "writing %s: reading the temporary file %s failed", path,
                               tmp);
    char buf[64 * 1024];
    size_t n;
    int rc = DMK_OK;
    while (rc == DMK_OK && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, f) != n)
            rc = dmk_error_errno(err, errno, "writing %s failed", path);
    if (rc == DMK_OK && ferror(in))
        rc = dmk_error_errno(err, errno, "writing %s: reading the temporary file %s failed", path,
                             tmp);
    fclose(in);
    if (rc == DMK_OK && (fflush(f) != 0 || ferror(f)))
        rc = dmk_error_errno(err, errno, "writing %s failed", path);
    return rc;
}

int dmk_xlsx_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err)
{
    char tmp[4096];
    int rc = make_temp(tmp, sizeof tmp, path, err);
    if (rc != DMK_OK)
        return rc;
    rc = build(r, tmp, path, err);
    if (rc == DMK_OK)
        rc = copy_into(f, tmp, path, err);
    remove(tmp);
    return rc;
}
