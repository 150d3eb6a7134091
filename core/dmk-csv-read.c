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
    /* Past the header's count (or the most any header has) a cell is
     * only counted: the message gives the row's real count, on the line
     * the row starts, once the row is complete (on_row). */
    size_t limit = rd->have_header ? rd->n_cols : DMK_CSV_MAX_COLUMNS;
    if (rd->cells.n >= limit) {
        rd->cells.over++;
        return;
    }
    if (dmk_csv_cells_add(&rd->cells, text, len) != DMK_OK)
        dmk_csv_fail_at(rd, 0, -1, "out of memory");
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

/* Ends the parse; on success hands the result over. */
static int loader_end(Loader *l, int rc, DmkRunResult **out)
{
    DmkCsvReader *rd = &l->rd;
    if (rc == DMK_OK && csv_fini(&l->p, on_field, on_row, rd) != 0 && rd->rc == DMK_OK)
        rc = dmk_csv_fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                             "a quoted cell is not closed before the end of the file");
    rc = rc != DMK_OK ? rc : rd->rc;
    if (rc == DMK_OK && !rd->have_header)
        rc = dmk_csv_fail_at(rd, 0, -1, "the file is empty");
    if (rc == DMK_OK && rd->rows == 0) {
        /* Say what is wrong with the header first, if anything. */
        rc = dmk_csv_check_header(rd, dmk_csv_header_schema(rd));
        if (rc == DMK_OK)
            rc = dmk_csv_fail_at(rd, 0, -1, "no results: the file has only a header");
    }
    if (rc == DMK_OK)
        rc = dmk_csv_finish_test(rd);
    if (rc == DMK_OK)
        rc = dmk_csv_check_findings(rd);
    csv_free(&l->p);
    free(rd->finding_lines);
    free(rd->cells.buf);
    free(rd->header.buf);
    free(rd->first.buf);
    free(rd->test.buf);
    if (rc != DMK_OK) {
        dmk_run_result_free(rd->res);
        return rc;
    }
    *out = rd->res;
    return DMK_OK;
}

int dmk_csv_load_mem(const char *name, const void *data, size_t len, DmkRunResult **out,
                     DmkError *err)
{
    Loader l;
    *out = NULL;
    int rc = loader_begin(&l, name, err);
    if (rc != DMK_OK)
        return rc;
    /* In chunks, so a bad line early ends the work early. */
    const char *p = data;
    for (size_t off = 0; rc == DMK_OK && off < len; off += CHUNK_BYTES)
        rc = loader_feed(&l, p + off, len - off < CHUNK_BYTES ? len - off : CHUNK_BYTES);
    return loader_end(&l, rc, out);
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

int dmk_csv_load(const char *path, DmkRunResult **out, DmkError *err)
{
    *out = NULL;
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
    return loader_end(&l, rc, out);
}
