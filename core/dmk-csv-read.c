/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reader of the CSV result file. libcsv's strict parser splits the
 * bytes into cells; everything else is checked row by row, against the
 * column table the writer uses (dmk-csv-private.h): the header, the
 * schema, each cell's kind and range, and the order of the records (a
 * test's row, then its passes, its timeline samples and its findings), in the files
 * dmk-csv-read-private.h lists. Here: libcsv's callbacks, which hand each
 * complete row on, and the loading of a file or of memory. */
#include "dmk-csv-read.h"

#include <csv.h>
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dmk-csv-read-private.h"
#include "dmk-platform.h"

#define CHUNK_BYTES    (64 * 1024)
#define CELL_MAX_BYTES (1024 * 1024) /* a cell past this ends the load (loader_feed) */

/* ---- libcsv's callbacks -------------------------------------------------- */

/* Line breaks inside a quoted cell: LF, CRLF or a lone CR each count one. */
static unsigned long count_breaks(const char *s, size_t len)
{
    unsigned long n = 0;
    for (const char *p = s, *end = s + len; p < end; p++)
        if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n')))
            n++;
    return n;
}

static void on_field(void *s, size_t len, void *data)
{
    DmkCsvReader *rd = data;
    rd->after_cr = false;
    if (rd->rc != DMK_OK)
        return;
    const char *text = s ? s : "";
    if (len && (memchr(text, '\n', len) || memchr(text, '\r', len)))
        rd->pending += count_breaks(text, len);
    /* Past the most any header has a cell is only counted: the message
     * gives the row's real count, on the line the row starts, once the
     * row is complete (on_row). Up to that all are kept: a row may be
     * the header of the next file joined with cat, of another schema. */
    if (rd->cells.n >= DMK_CSV_MAX_COLUMNS) {
        rd->cells.over++;
        return;
    }
    if (dmk_csv_cells_add(&rd->cells, text, len) != DMK_OK)
        dmk_csv_fail_at(rd, 0, -1, "out of memory");
}

/* A header line after rows: its schema cell is the column's name, where
 * a data row has a number. */
static bool is_header_again(const DmkCsvReader *rd, const DmkCsvCells *c)
{
    size_t len;
    int f = rd->file_col[DMK_COL_SCHEMA];
    if (f < 0 || (size_t)f >= c->n)
        return false;
    const char *s = dmk_csv_cell(rd, c, DMK_COL_SCHEMA, &len);
    return len == 6 && memcmp(s, "schema", 6) == 0;
}

/* What is checked once a run's rows are all read: it has some, its last
 * test is whole, its findings are those its lab test finds. */
static int check_run_end(DmkCsvReader *rd)
{
    int rc = DMK_OK;
    if (rd->rows == 0) {
        /* Say what is wrong with the header first, if anything. */
        rc = dmk_csv_check_header(rd, dmk_csv_header_schema(rd));
        if (rc == DMK_OK)
            rc = rd->n_runs
                     ? dmk_csv_fail_at(rd, rd->header_line, -1, "no results after this header line")
                     : dmk_csv_fail_at(rd, 0, -1, "no results: the file has only a header");
    }
    if (rc == DMK_OK)
        rc = dmk_csv_finish_test(rd);
    if (rc == DMK_OK)
        rc = dmk_csv_check_findings(rd);
    return rc;
}

/* The run read so far joins the list; the reader starts on the next,
 * whose header is c (files joined with cat: docs/results.md). */
static int next_run(DmkCsvReader *rd, const DmkCsvCells *c)
{
    int rc = check_run_end(rd);
    if (rc == DMK_OK &&
        dmk_csv_grow((void **)&rd->runs, &rd->cap_runs, rd->n_runs + 1, sizeof *rd->runs) != DMK_OK)
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    DmkRunResult *next = rc == DMK_OK ? calloc(1, sizeof *next) : NULL;
    if (rc == DMK_OK && !next)
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    if (rc != DMK_OK)
        return rc;
    rd->runs[rd->n_runs++] = rd->res;
    rd->res = next;
    rd->rows = 0;
    rd->schema = 0;
    rd->in_samples = rd->in_findings = false;
    rd->cap_tests = rd->cap_passes = rd->cap_samples = rd->cap_findings = 0;
    rd->n_finding_lines = 0;
    return dmk_csv_read_header(rd, c);
}

/* With CSV_REPALL_NL libcsv reports every CR and LF: an empty row is a
 * blank line, or the LF of a CRLF. Counting them gives the line numbers. */
static void on_row(int c, void *data)
{
    DmkCsvReader *rd = data;
    bool crlf_tail = c == '\n' && rd->after_cr && rd->cells.n == 0;
    rd->after_cr = c == '\r';
    if (crlf_tail) {
        rd->after_cr = false;
        return;
    }
    if (rd->rc == DMK_OK && rd->cells.n > 0) {
        if (!rd->have_header && rd->cells.over)
            dmk_csv_fail_at(
                rd, rd->line, -1,
                "%zu columns in the header, more than any Drivemark result has (at most %d)",
                rd->cells.n + rd->cells.over, DMK_CSV_MAX_COLUMNS);
        else if (!rd->have_header)
            dmk_csv_read_header(rd, &rd->cells);
        else if (is_header_again(rd, &rd->cells))
            next_run(rd, &rd->cells);
        else
            dmk_csv_read_row(rd, &rd->cells);
    }
    rd->line += rd->pending + (c == '\r' || c == '\n');
    rd->pending = 0;
    dmk_csv_cells_clear(&rd->cells);
}

/* ---- loading ------------------------------------------------------------- */

/* libcsv trims spaces around unquoted cells unless told none are spaces:
 * " 12" is not a number the writer wrote. */
static int is_space_none(unsigned char c)
{
    (void)c;
    return 0;
}

typedef struct {
    DmkCsvReader rd;
    struct csv_parser p;
    uint64_t bytes;
} Loader;

static int loader_begin(Loader *l, const char *name, DmkError *err)
{
    memset(l, 0, sizeof *l);
    l->rd.name = name;
    l->rd.err = err;
    l->rd.line = 1;
    l->rd.decimal_point = localeconv()->decimal_point;
    l->rd.res = calloc(1, sizeof *l->rd.res);
    if (!l->rd.res || csv_init(&l->p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL) != 0) {
        free(l->rd.res);
        l->rd.res = NULL;
        return dmk_error_set(err, DMK_E_NOMEM, 0, "%s: out of memory", name);
    }
    csv_set_space_func(&l->p, is_space_none);
    /* libcsv grows a cell's buffer by this much at a time (128 bytes by
     * default: a 1 MiB cell took 8,192 reallocs, each a copy under ASan). */
    csv_set_blk_size(&l->p, CHUNK_BYTES);
    return DMK_OK;
}

/* The first bytes: a UTF-8 BOM (as spreadsheets write) is skipped. */
static int skip_bom(Loader *l, const char **buf, size_t *len)
{
    const unsigned char *b = (const unsigned char *)*buf;
    if (*len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
        *buf += 3;
        *len -= 3;
    } else if (*len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff))) {
        return dmk_csv_fail_at(&l->rd, 0, -1, "the file is UTF-16; Drivemark reads UTF-8 CSV");
    }
    return DMK_OK;
}

static int loader_feed(Loader *l, const char *buf, size_t len)
{
    DmkCsvReader *rd = &l->rd;
    if (l->bytes == 0 && skip_bom(l, &buf, &len) != DMK_OK)
        return rd->rc;
    l->bytes += len;
    if (l->bytes > DMK_CSV_READ_MAX_BYTES)
        return dmk_csv_fail_at(rd, 0, -1, "the file is larger than %llu MiB, more than any result",
                               DMK_CSV_READ_MAX_BYTES >> 20);
    size_t done = csv_parse(&l->p, buf, len, on_field, on_row, rd);
    /* No cell of a result comes near this (paths and notes are at most a
     * few KiB); stopping here bounds the time and memory a malformed file
     * costs, as libcsv keeps the whole cell until it ends. */
    if (rd->rc == DMK_OK && l->p.entry_pos > CELL_MAX_BYTES)
        return dmk_csv_fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                               "a cell longer than %d KiB: not a Drivemark result file",
                               CELL_MAX_BYTES >> 10);
    if (rd->rc == DMK_OK && done != len) {
        if (csv_error(&l->p) == CSV_EPARSE)
            return dmk_csv_fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                                   "a quote inside an unquoted cell, or text after a closing quote "
                                   "(cells with quotes must be quoted whole, quotes doubled)");
        return dmk_csv_fail_at(rd, 0, -1, "%s", csv_strerror(csv_error(&l->p)));
    }
    return rd->rc;
}

static void free_runs(DmkCsvReader *rd)
{
    for (size_t i = 0; i < rd->n_runs; i++)
        dmk_run_result_free(rd->runs[i]);
    free(rd->runs);
    rd->runs = NULL;
    rd->n_runs = 0;
}

/* Ends the parse; on success hands the runs over (*n of them, in file
 * order: more than one where files were joined with cat). */
static int loader_end(Loader *l, int rc, DmkRunResult ***out, size_t *n)
{
    DmkCsvReader *rd = &l->rd;
    if (rc == DMK_OK && csv_fini(&l->p, on_field, on_row, rd) != 0 && rd->rc == DMK_OK)
        rc = dmk_csv_fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                             "a quoted cell is not closed before the end of the file");
    rc = rc != DMK_OK ? rc : rd->rc;
    if (rc == DMK_OK && !rd->have_header)
        rc = dmk_csv_fail_at(rd, 0, -1, "the file is empty");
    if (rc == DMK_OK)
        rc = check_run_end(rd);
    if (rc == DMK_OK &&
        dmk_csv_grow((void **)&rd->runs, &rd->cap_runs, rd->n_runs + 1, sizeof *rd->runs) != DMK_OK)
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    if (rc == DMK_OK) {
        rd->runs[rd->n_runs++] = rd->res;
        rd->res = NULL;
    }
    csv_free(&l->p);
    free(rd->finding_lines);
    free(rd->cells.buf);
    free(rd->header.buf);
    free(rd->first.buf);
    free(rd->test.buf);
    if (rc != DMK_OK) {
        dmk_run_result_free(rd->res);
        free_runs(rd);
        return rc;
    }
    *out = rd->runs;
    *n = rd->n_runs;
    return DMK_OK;
}

/* One run only: a file of several (joined with cat) is refused here, for
 * the callers that show one result (the window reads each run). */
static int one_run(const char *name, int rc, DmkRunResult **runs, size_t n, DmkRunResult **out,
                   DmkError *err)
{
    if (rc != DMK_OK)
        return rc;
    if (n == 1) {
        *out = runs[0];
        free(runs);
        return DMK_OK;
    }
    for (size_t i = 0; i < n; i++)
        dmk_run_result_free(runs[i]);
    free(runs);
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "%s holds %zu runs (result files joined with cat): open them one by one, "
                         "or with drivemark-cli show or chart, which read each",
                         name, n);
}

int dmk_csv_load_runs_mem(const char *name, const void *data, size_t len, DmkRunResult ***out,
                          size_t *n, DmkError *err)
{
    Loader l;
    *out = NULL;
    *n = 0;
    int rc = loader_begin(&l, name, err);
    if (rc != DMK_OK)
        return rc;
    /* In chunks, so a bad line early ends the work early. */
    const char *p = data;
    for (size_t off = 0; rc == DMK_OK && off < len; off += CHUNK_BYTES)
        rc = loader_feed(&l, p + off, len - off < CHUNK_BYTES ? len - off : CHUNK_BYTES);
    return loader_end(&l, rc, out, n);
}

int dmk_csv_load_mem(const char *name, const void *data, size_t len, DmkRunResult **out,
                     DmkError *err)
{
    DmkRunResult **runs = NULL;
    size_t n = 0;
    *out = NULL;
    int rc = dmk_csv_load_runs_mem(name, data, len, &runs, &n, err);
    return one_run(name, rc, runs, n, out, err);
}

static int load_stream(Loader *l, FILE *f, const char *path)
{
    char *buf = malloc(CHUNK_BYTES);
    if (!buf)
        return dmk_csv_fail_at(&l->rd, 0, -1, "out of memory");
    int rc = DMK_OK;
    size_t n;
    while (rc == DMK_OK && (n = fread(buf, 1, CHUNK_BYTES, f)) > 0)
        rc = loader_feed(l, buf, n);
    if (rc == DMK_OK && ferror(f))
        rc = dmk_error_errno(l->rd.err, errno, "reading %s failed", path);
    free(buf);
    return rc;
}

int dmk_csv_load_runs(const char *path, DmkRunResult ***out, size_t *n, DmkError *err)
{
    *out = NULL;
    *n = 0;
    FILE *f = NULL;
    /* A FIFO with no writer would block the open or the read forever; a
     * device is no result: only a regular file is read. */
    int orc = dmk_os_open_input(path, &f, err);
    if (orc != DMK_OK)
        return orc;
    struct stat st;
    /* Refuse a huge file before reading any of it. */
    if (fstat(fileno(f), &st) == 0 && (uint64_t)st.st_size > DMK_CSV_READ_MAX_BYTES) {
        fclose(f);
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: the file is larger than %llu MiB, more than any result", path,
                             DMK_CSV_READ_MAX_BYTES >> 20);
    }
    Loader l;
    int rc = loader_begin(&l, path, err);
    if (rc != DMK_OK) {
        fclose(f);
        return rc;
    }
    errno = 0;
    rc = load_stream(&l, f, path);
    fclose(f);
    return loader_end(&l, rc, out, n);
}

int dmk_csv_load(const char *path, DmkRunResult **out, DmkError *err)
{
    DmkRunResult **runs = NULL;
    size_t n = 0;
    *out = NULL;
    int rc = dmk_csv_load_runs(path, &runs, &n, err);
    return one_run(path, rc, runs, n, out, err);
}
