/* The reader of the CSV result file. libcsv's strict parser splits the
 * bytes into cells; everything else is checked here, row by row, against
 * the column table the writer uses (dmk-csv-private.h): the header, the
 * schema, each cell's kind and range, and the order of the records (a
 * test's row, then its passes, then its timeline samples). */
#include "dmk-csv-read.h"

#include <csv.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dmk-csv-private.h"
#include "dmk-csv.h"
#include "dmk-escape.h"
#include "dmk-lab.h"
#include "dmk-platform.h"
#include "dmk-sweep.h"

#define CHUNK_BYTES    (64 * 1024)
#define CELL_MAX_BYTES (1024 * 1024) /* a cell past this ends the load (loader_feed) */
/* Statistics beyond this are no measurement (10^15 MB/s), and would not
 * fit the writer's fixed-decimal cells. */
#define STAT_MAX 1e15
/* A link's limit in MB/s: kept in bytes/s as a uint64_t, so at most
 * 1e12 MB/s (1e18 bytes/s, under 2^64; the fastest links carry ~1e5). */
#define IFACE_MB_S_MAX 1e12

/* A row's cells, copied: libcsv reuses its buffer for the next cell. */
typedef struct {
    char *buf; /* each cell NUL-terminated */
    size_t used, cap;
    size_t n;
    size_t over; /* cells past the most a row may have: counted, not kept */
    size_t off[DMK_CSV_MAX_COLUMNS];
    size_t len[DMK_CSV_MAX_COLUMNS];
} Cells;

typedef struct {
    const char *name; /* the file, for messages */
    DmkError *err;
    int rc;                /* the first error; everything after it is ignored */
    unsigned long line;    /* where the current row starts, 1-based */
    unsigned long pending; /* line breaks inside the current row's cells */
    bool after_cr;         /* the last row ended in CR: an LF next is its CRLF */
    Cells cells;           /* the current row */
    Cells header;
    bool have_header;
    unsigned long header_line;
    size_t n_cols;
    int file_col[DMK_CSV_MAX_COLUMNS];  /* table column -> file column, -1 if absent */
    int table_col[DMK_CSV_MAX_COLUMNS]; /* file column -> table column, -1 if unknown */
    size_t rows;                        /* data rows */
    Cells first;                        /* the first data row: the run's context */
    unsigned long first_line;
    Cells test; /* the row of the test whose passes and samples follow */
    unsigned long test_line;
    bool in_samples;
    size_t cap_tests, cap_passes, cap_samples;
    DmkRunResult *res;
    const char *decimal_point; /* the C locale's, for strtod */
} Reader;

/* ---- messages ------------------------------------------------------------ */

static int vfail(Reader *rd, unsigned long line, int fcol, const char *fmt, va_list ap)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 0)));

/* "name: line L, column C (col): what" (line 0: none; fcol < 0: none). */
static int vfail(Reader *rd, unsigned long line, int fcol, const char *fmt, va_list ap)
{
    char what[600], where[160] = "";
    if (rd->rc != DMK_OK)
        return rd->rc;
    vsnprintf(what, sizeof what, fmt, ap);
    int tcol = fcol >= 0 && (size_t)fcol < rd->n_cols ? rd->table_col[fcol] : -1;
    if (line && fcol >= 0 && tcol >= 0)
        snprintf(where, sizeof where, ": line %lu, column %d (%s)", line, fcol + 1,
                 dmk_csv_column((size_t)tcol).name);
    else if (line && fcol >= 0)
        snprintf(where, sizeof where, ": line %lu, column %d", line, fcol + 1);
    else if (line)
        snprintf(where, sizeof where, ": line %lu", line);
    rd->rc = dmk_error_set(rd->err, DMK_E_INVAL, 0, "%s%s: %s", rd->name, where, what);
    return rd->rc;
}

static int fail_at(Reader *rd, unsigned long line, int fcol, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 5)));
static int fail_at(Reader *rd, unsigned long line, int fcol, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(rd, line, fcol, fmt, ap);
    va_end(ap);
    return rc;
}

/* A cell of the current row, by table column. */
static int fail_cell(Reader *rd, size_t col, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 3, 4)));
static int fail_cell(Reader *rd, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(rd, rd->line, rd->file_col[col], fmt, ap);
    va_end(ap);
    return rc;
}

static bool utf8_valid(const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t k = dmk_utf8_len((const unsigned char *)s + i, len - i);
        if (k == 0)
            return false;
        i += k;
    }
    return true;
}

/* A cell as a message shows it: 'text', at most ~40 bytes, with control
 * and bidi characters and bytes of invalid UTF-8 as '?' (dmk-escape.h). */
static const char *shown(const char *s, size_t len, char *buf, size_t cap)
{
    size_t o = 0;
    buf[o++] = '\'';
    for (size_t i = 0; i < len && o + 8 < cap;) {
        size_t k = dmk_utf8_len((const unsigned char *)s + i, len - i);
        if (o > 40) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (dmk_escape_unsafe((const unsigned char *)s + i, k)) {
            buf[o++] = '?';
            i += k ? k : 1;
        } else {
            memcpy(buf + o, s + i, k);
            o += k;
            i += k;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

/* ---- cells --------------------------------------------------------------- */

static int cells_add(Cells *c, const char *s, size_t len)
{
    if (c->used + len + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 1024;
        while (cap < c->used + len + 1)
            cap *= 2;
        char *b = realloc(c->buf, cap);
        if (!b)
            return DMK_E_NOMEM;
        c->buf = b;
        c->cap = cap;
    }
    if (len)
        memcpy(c->buf + c->used, s, len);
    c->buf[c->used + len] = '\0';
    c->off[c->n] = c->used;
    c->len[c->n] = len;
    c->used += len + 1;
    c->n++;
    return DMK_OK;
}

static int cells_copy(Cells *dst, const Cells *src)
{
    if (dst->cap < src->used) {
        char *b = realloc(dst->buf, src->used);
        if (!b)
            return DMK_E_NOMEM;
        dst->buf = b;
        dst->cap = src->used;
    }
    memcpy(dst->buf, src->buf, src->used);
    dst->used = src->used;
    dst->n = src->n;
    memcpy(dst->off, src->off, sizeof dst->off);
    memcpy(dst->len, src->len, sizeof dst->len);
    return DMK_OK;
}

static void cells_clear(Cells *c)
{
    c->used = 0;
    c->n = 0;
    c->over = 0;
}

/* Cell of table column col in c; NULL when the file lacks the column. */
static const char *cell(const Reader *rd, const Cells *c, size_t col, size_t *len)
{
    int f = rd->file_col[col];
    if (f < 0) {
        *len = 0;
        return NULL;
    }
    *len = c->len[f];
    return c->buf + c->off[f];
}

static bool same_cell(const Reader *rd, const Cells *a, const Cells *b, size_t col)
{
    size_t la, lb;
    const char *sa = cell(rd, a, col, &la), *sb = cell(rd, b, col, &lb);
    return la == lb && (la == 0 || memcmp(sa, sb, la) == 0);
}

/* ---- numbers ------------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* digits [. digits] or . digits, then an optional exponent: all of s. */
static bool scan_decimal(const char *s)
{
    size_t i = 0, digits = 0;
    while (is_digit(s[i]))
        i++, digits++;
    if (s[i] == '.')
        for (i++; is_digit(s[i]); i++)
            digits++;
    if (digits == 0)
        return false;
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (!is_digit(s[i]))
            return false;
        while (is_digit(s[i]))
            i++;
    }
    return s[i] == '\0';
}

static bool is_nonfinite(const char *s)
{
    static const char *const words[] = {"nan", "inf", "infinity"};
    if (*s == '+' || *s == '-')
        s++;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t i = 0;
        while (words[w][i] && (s[i] | 0x20) == words[w][i])
            i++;
        if (!words[w][i] && !s[i])
            return true;
    }
    return false;
}

/* Why s is no non-negative number, or NULL when it is one. */
static const char *number_problem(const char *s, size_t len)
{
    if (len == 0)
        return "is empty (a number is expected)";
    if (memchr(s, '\0', len))
        return "contains a NUL byte";
    if (is_nonfinite(s))
        return "is not a finite number";
    if (s[0] == '-' && scan_decimal(s + 1))
        return "is negative";
    if (!scan_decimal(s))
        return "is not a number";
    return NULL;
}

/* strtod in the "C" locale's way: '.' is swapped for the current
 * locale's decimal point (a GUI runs in the user's locale). */
static double to_double(const Reader *rd, const char *s, bool *ok)
{
    char b[80];
    size_t o = 0, dl = strlen(rd->decimal_point);
    for (size_t i = 0; s[i]; i++) {
        if (o + dl + 1 >= sizeof b) {
            *ok = false;
            return 0;
        }
        if (s[i] == '.') {
            memcpy(b + o, rd->decimal_point, dl);
            o += dl;
        } else {
            b[o++] = s[i];
        }
    }
    b[o] = '\0';
    errno = 0;
    char *end;
    double v = strtod(b, &end);
    *ok = *end == '\0' && errno != ERANGE && isfinite(v);
    return v;
}

static int get_real(Reader *rd, const Cells *c, size_t col, double max, double *out)
{
    size_t len;
    char q[80];
    const char *s = cell(rd, c, col, &len);
    const char *why = number_problem(s, len);
    if (why)
        return fail_cell(rd, col, "%s %s", shown(s, len, q, sizeof q), why);
    bool ok;
    *out = to_double(rd, s, &ok);
    if (!ok || *out > max)
        return fail_cell(rd, col, "%s is out of range (0 to %g)", shown(s, len, q, sizeof q), max);
    return DMK_OK;
}

static int get_uint(Reader *rd, const Cells *c, size_t col, uint64_t min, uint64_t max,
                    uint64_t *out)
{
    size_t len;
    char q[80];
    const char *s = cell(rd, c, col, &len);
    const char *why = number_problem(s, len);
    if (why)
        return fail_cell(rd, col, "%s %s", shown(s, len, q, sizeof q), why);
    uint64_t v = 0;
    size_t i = 0;
    for (; is_digit(s[i]); i++) {
        if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
            return fail_cell(rd, col, "%s is out of range (%llu to %llu)",
                             shown(s, len, q, sizeof q), (unsigned long long)min,
                             (unsigned long long)max);
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (s[i])
        return fail_cell(rd, col, "%s is not a whole number", shown(s, len, q, sizeof q));
    if (v < min || v > max)
        return fail_cell(rd, col, "%s is out of range (%llu to %llu)", shown(s, len, q, sizeof q),
                         (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return DMK_OK;
}

static int get_u32(Reader *rd, const Cells *c, size_t col, uint64_t min, uint64_t max,
                   uint32_t *out)
{
    uint64_t v = 0;
    int rc = get_uint(rd, c, col, min, max, &v);
    *out = (uint32_t)v;
    return rc;
}

/* A sample's temperature: empty when the drive had no sensor (NaN), else
 * a plausible reading, the one signed number of a file. */
static int get_temp(Reader *rd, const Cells *c, size_t col, double *out)
{
    size_t len;
    char q[80];
    const char *s = cell(rd, c, col, &len);
    *out = NAN;
    if (!s || len == 0)
        return DMK_OK; /* no column (schema 1, 2) or no reading */
    if (memchr(s, '\0', len))
        return fail_cell(rd, col, "%s contains a NUL byte", shown(s, len, q, sizeof q));
    if (is_nonfinite(s))
        return fail_cell(rd, col, "%s is not a finite number", shown(s, len, q, sizeof q));
    if (!scan_decimal(s[0] == '-' ? s + 1 : s))
        return fail_cell(rd, col, "%s is not a number", shown(s, len, q, sizeof q));
    bool ok;
    double v = to_double(rd, s, &ok);
    if (!ok || v < DMK_CSV_TEMP_MIN || v > DMK_CSV_TEMP_MAX)
        return fail_cell(rd, col, "%s is out of range (%g to %g)", shown(s, len, q, sizeof q),
                         DMK_CSV_TEMP_MIN, DMK_CSV_TEMP_MAX);
    *out = v;
    return DMK_OK;
}

/* Cells a kind of record leaves empty must be: anything there is not ours. */
static int need_empty(Reader *rd, const Cells *c, size_t col, const char *record)
{
    size_t len;
    char q[80];
    const char *s = cell(rd, c, col, &len);
    if (len)
        return fail_cell(rd, col, "%s should be empty in a %s row", shown(s, len, q, sizeof q),
                         record);
    return DMK_OK;
}

/* ---- text ---------------------------------------------------------------- */

/* The writer's apostrophe before = + - @ tab CR, taken off again. */
static const char *unneutralise(const char *s, size_t *len)
{
    if (*len >= 2 && s[0] == '\'' && strchr("=+-@\t\r", s[1]) && s[1] != '\0') {
        (*len)--;
        return s + 1;
    }
    return s;
}

static int get_text(Reader *rd, const Cells *c, size_t col, char *dst, size_t cap)
{
    size_t len;
    char q[80];
    const char *s = cell(rd, c, col, &len);
    if (memchr(s, '\0', len))
        return fail_cell(rd, col, "%s contains a NUL byte", shown(s, len, q, sizeof q));
    if (!utf8_valid(s, len))
        return fail_cell(rd, col, "%s is not valid UTF-8", shown(s, len, q, sizeof q));
    s = unneutralise(s, &len);
    if (len >= cap)
        return fail_cell(rd, col, "%s is too long (at most %zu bytes)", shown(s, len, q, sizeof q),
                         cap - 1);
    memcpy(dst, s, len);
    dst[len] = '\0';
    return DMK_OK;
}

/* The index of the cell's text in names (NULL-terminated). */
static int get_choice(Reader *rd, const Cells *c, size_t col, const char *const *names, int *out)
{
    size_t len;
    char q[80], list[128] = "";
    const char *s = cell(rd, c, col, &len);
    for (int i = 0; names[i]; i++) {
        if (strlen(names[i]) == len && memcmp(s, names[i], len) == 0) {
            *out = i;
            return DMK_OK;
        }
        size_t u = strlen(list);
        snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", names[i][0] ? names[i] : "\"\"");
    }
    return fail_cell(rd, col, "%s is not one of: %s", shown(s, len, q, sizeof q), list);
}

/* ---- the header ---------------------------------------------------------- */

static int find_column(const char *name, size_t len)
{
    size_t n = dmk_csv_column_count();
    for (size_t i = 0; i < n; i++) {
        const char *cn = dmk_csv_column(i).name;
        if (strlen(cn) == len && memcmp(cn, name, len) == 0)
            return (int)i;
    }
    return -1;
}

/* Maps the header's names to the table; which schema the columns must
 * match is known only from the first row (a newer schema's header may
 * differ, and its number is the better message). */
static int read_header(Reader *rd, const Cells *c)
{
    char q[80];
    for (size_t i = 0; i < DMK_CSV_MAX_COLUMNS; i++)
        rd->file_col[i] = rd->table_col[i] = -1;
    rd->n_cols = c->n;
    rd->header_line = rd->line;
    rd->have_header = true;
    if (cells_copy(&rd->header, c) != DMK_OK)
        return fail_at(rd, 0, -1, "out of memory");
    for (size_t f = 0; f < c->n; f++) {
        int t = find_column(c->buf + c->off[f], c->len[f]);
        rd->table_col[f] = t;
        if (t >= 0 && rd->file_col[t] >= 0)
            return fail_at(rd, rd->line, (int)f, "column %s appears twice (also column %d)",
                           shown(c->buf + c->off[f], c->len[f], q, sizeof q), rd->file_col[t] + 1);
        if (t >= 0)
            rd->file_col[t] = (int)f;
    }
    if (rd->file_col[DMK_COL_SCHEMA] < 0)
        return fail_at(rd, rd->line, -1,
                       "no 'schema' column in the header: not a Drivemark result file");
    return DMK_OK;
}

/* The header against schema's columns: none unknown, none missing. */
static int check_header(Reader *rd, int schema)
{
    char q[80], missing[400] = "";
    const Cells *h = &rd->header;
    for (size_t f = 0; f < rd->n_cols; f++) {
        int t = rd->table_col[f];
        if (t < 0 || dmk_csv_column((size_t)t).since > schema)
            return fail_at(rd, rd->header_line, (int)f, "unknown column %s in a schema %d file",
                           shown(h->buf + h->off[f], h->len[f], q, sizeof q), schema);
    }
    size_t n = dmk_csv_column_count(), n_missing = 0;
    for (size_t i = 0; i < n; i++) {
        DmkCsvColumn col = dmk_csv_column(i);
        if (col.since > schema || rd->file_col[i] >= 0)
            continue;
        size_t u = strlen(missing);
        if (n_missing++ < 8)
            snprintf(missing + u, sizeof missing - u, "%s%s", u ? ", " : "", col.name);
    }
    if (n_missing > 8) {
        size_t u = strlen(missing);
        snprintf(missing + u, sizeof missing - u, " ... (%zu in all)", n_missing);
    }
    if (missing[0])
        return fail_at(rd, rd->header_line, -1, "the header lacks the column(s) %s", missing);
    return DMK_OK;
}

/* The schema a header without rows seems to be: the newest of its columns. */
static int header_schema(const Reader *rd)
{
    int schema = 1;
    for (size_t f = 0; f < rd->n_cols; f++) {
        int t = rd->table_col[f];
        if (t >= 0 && dmk_csv_column((size_t)t).since > schema)
            schema = dmk_csv_column((size_t)t).since;
    }
    return schema;
}

/* ---- the run's context (the first row) ------------------------------------ */

static int read_schema(Reader *rd, const Cells *c)
{
    uint64_t v;
    int rc = get_uint(rd, c, DMK_COL_SCHEMA, 0, UINT64_MAX, &v);
    if (rc != DMK_OK)
        return rc;
    if (v < 1 || v > DMK_CSV_SCHEMA)
        return fail_cell(rd, DMK_COL_SCHEMA,
                         "schema %llu is not supported: this Drivemark reads schemas 1 to %d "
                         "(a newer Drivemark wrote the file?)",
                         (unsigned long long)v, DMK_CSV_SCHEMA);
    return check_header(rd, (int)v);
}

/* The lab test's name is one dmk-lab.h knows, or "" for an ordinary run. */
static int read_lab(Reader *rd, const Cells *c)
{
    /* "" and every test's name, the count from the tests' table. */
    const char *labs[DMK_LAB_MAX_TESTS + 2] = {""};
    size_t n = dmk_lab_test_count();
    for (size_t i = 0; i < n && i < DMK_LAB_MAX_TESTS; i++)
        labs[i + 1] = dmk_lab_test_at(i)->name;
    int k;
    return get_choice(rd, c, DMK_COL_LAB, labs, &k);
}

static int read_context_text(Reader *rd, const Cells *c)
{
    DmkRunResult *r = rd->res;
    DmkTargetInfo *ti = &r->target;
    const struct {
        size_t col;
        char *dst;
        size_t cap;
    } texts[] = {
        {DMK_COL_VERSION, r->version, sizeof r->version},
        {DMK_COL_DATE, r->date, sizeof r->date},
        {DMK_COL_TARGET, ti->path, sizeof ti->path},
        {DMK_COL_FILE_SYSTEM, ti->fs_type, sizeof ti->fs_type},
        {DMK_COL_DEVICE, ti->device, sizeof ti->device},
        {DMK_COL_DEVICE_MODEL, ti->model, sizeof ti->model},
        {DMK_COL_TEMP_SENSOR, ti->temp_sensor, sizeof ti->temp_sensor},
        {DMK_COL_OS, r->os, sizeof r->os},
        {DMK_COL_BACKEND, r->backend, sizeof r->backend},
        {DMK_COL_PROFILE, r->profile, sizeof r->profile},
        {DMK_COL_SWEEP, r->sweep, sizeof r->sweep},
        {DMK_COL_LAB, r->lab, sizeof r->lab},
        {DMK_COL_COMMENT, r->comment, sizeof r->comment},
        {DMK_COL_LAB_NOTE, r->lab_note, sizeof r->lab_note},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (rd->file_col[texts[i].col] < 0)
            continue; /* a column of a later schema: "sweep" of a schema 1 file */
        int rc = get_text(rd, c, texts[i].col, texts[i].dst, texts[i].cap);
        if (rc != DMK_OK)
            return rc;
    }
    /* The file keeps no target kind of its own: a device's file system
     * column says so (JSON has "target_kind"). */
    ti->is_device = strcmp(ti->fs_type, DMK_FS_TYPE_DEVICE) == 0;
    const char *const sweeps[] = {"", dmk_sweep_name(DMK_SWEEP_QD), dmk_sweep_name(DMK_SWEEP_BS),
                                  NULL};
    int k;
    int rc =
        rd->file_col[DMK_COL_SWEEP] < 0 ? DMK_OK : get_choice(rd, c, DMK_COL_SWEEP, sweeps, &k);
    return rc != DMK_OK || rd->file_col[DMK_COL_LAB] < 0 ? rc : read_lab(rd, c);
}

/* Schema 4: copy-on-write, compression and the link; older files say
 * nothing of them (none, unknown link). */
static int read_honest_context(Reader *rd, const Cells *c)
{
    const char *const states[] = {dmk_fs_feature_name(DMK_FS_FEATURE_NONE),
                                  dmk_fs_feature_name(DMK_FS_FEATURE_OFF),
                                  dmk_fs_feature_name(DMK_FS_FEATURE_ACTIVE), NULL};
    DmkTargetInfo *ti = &rd->res->target;
    int cow = 0, z = 0;
    double mb = 0;
    if (rd->file_col[DMK_COL_COW] < 0)
        return DMK_OK;
    int rc = get_choice(rd, c, DMK_COL_COW, states, &cow);
    if (rc == DMK_OK)
        rc = get_choice(rd, c, DMK_COL_COMPRESSION, states, &z);
    if (rc == DMK_OK)
        rc = get_text(rd, c, DMK_COL_INTERFACE, ti->iface, sizeof ti->iface);
    if (rc == DMK_OK)
        rc = get_real(rd, c, DMK_COL_INTERFACE_MB_S, IFACE_MB_S_MAX, &mb);
    ti->cow = (DmkFsFeature)cow;
    ti->compression = (DmkFsFeature)z;
    /* Only a value that passed its range check becomes bytes/s: a
     * refused one may be far past what a uint64_t holds. */
    ti->iface_bytes_s = rc == DMK_OK ? (uint64_t)(mb * 1e6 + 0.5) : 0;
    return rc;
}

static int read_context(Reader *rd, const Cells *c)
{
    const char *const datas[] = {dmk_data_name(DMK_DATA_RANDOM), dmk_data_name(DMK_DATA_ZERO),
                                 NULL};
    DmkRunResult *r = rd->res;
    uint64_t complete = 0;
    int data = 0;
    int rc = read_schema(rd, c);
    if (rc == DMK_OK)
        rc = read_context_text(rd, c);
    if (rc == DMK_OK)
        rc = get_uint(rd, c, DMK_COL_CAPACITY, 0, UINT64_MAX, &r->target.capacity_bytes);
    /* Schema 5; an older file does not know the size (0: not shown). */
    if (rc == DMK_OK && rd->file_col[DMK_COL_FS_SIZE] >= 0)
        rc = get_uint(rd, c, DMK_COL_FS_SIZE, 0, UINT64_MAX, &r->target.fs_size_bytes);
    if (rc == DMK_OK)
        rc = get_uint(rd, c, DMK_COL_FS_FREE, 0, UINT64_MAX, &r->target.fs_free_bytes);
    /* A lab run may span a whole drive; read_context_text read `lab`. */
    if (rc == DMK_OK)
        rc = get_uint(rd, c, DMK_COL_TEST_SIZE, 1, r->lab[0] ? DMK_LAB_SIZE_MAX : DMK_SIZE_MAX,
                      &r->size);
    if (rc == DMK_OK)
        rc = get_u32(rd, c, DMK_COL_PASSES, 1, DMK_PASSES_MAX, &r->passes);
    if (rc == DMK_OK)
        rc = get_real(rd, c, DMK_COL_MEASURE, DMK_SECONDS_MAX, &r->measure_s);
    if (rc == DMK_OK)
        rc = get_real(rd, c, DMK_COL_WARMUP, DMK_SECONDS_MAX, &r->warmup_s);
    if (rc == DMK_OK)
        rc = get_real(rd, c, DMK_COL_INTERVAL, DMK_SECONDS_MAX, &r->interval_s);
    if (rc == DMK_OK)
        rc = get_choice(rd, c, DMK_COL_DATA, datas, &data);
    if (rc == DMK_OK)
        rc = get_uint(rd, c, DMK_COL_COMPLETE, 0, 1, &complete);
    r->data = (DmkDataKind)data; /* datas[] is in DmkDataKind's order */
    r->complete = complete == 1;
    r->target.discard = -1; /* the file does not say */
    if (rc == DMK_OK)
        rc = read_honest_context(rd, c);
    return rc;
}

/* Every row repeats the first row's context: a file holds one run. */
static int check_context(Reader *rd, const Cells *c)
{
    char q[80], q2[80];
    size_t len, len2;
    for (size_t col = 0; col <= DMK_COL_LAST_CONTEXT; col++) {
        if (col == DMK_COL_RECORD || rd->file_col[col] < 0 || same_cell(rd, c, &rd->first, col))
            continue;
        const char *s = cell(rd, c, col, &len), *s2 = cell(rd, &rd->first, col, &len2);
        return fail_cell(rd, col, "%s differs from %s on line %lu: a file holds one run",
                         shown(s, len, q, sizeof q), shown(s2, len2, q2, sizeof q2),
                         rd->first_line);
    }
    return DMK_OK;
}

/* ---- records ------------------------------------------------------------- */

static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return DMK_OK;
    size_t n = *cap ? *cap * 2 : 8;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, n * size);
    if (!p)
        return DMK_E_NOMEM;
    *arr = p;
    *cap = n;
    return DMK_OK;
}

static int read_identity(Reader *rd, const Cells *c, DmkTest *t)
{
    const char *const modes[] = {dmk_mode_name(DMK_MODE_READ), dmk_mode_name(DMK_MODE_WRITE),
                                 dmk_mode_name(DMK_MODE_MIX), NULL};
    const char *const patterns[] = {dmk_pattern_name(DMK_PATTERN_SEQ),
                                    dmk_pattern_name(DMK_PATTERN_RND), NULL};
    DmkJob *j = &t->jobs[0];
    int mode = 0, pattern = 0;
    t->n_jobs = 1;
    int rc = get_text(rd, c, DMK_COL_TEST, t->name, sizeof t->name);
    if (rc == DMK_OK && !t->name[0])
        rc = fail_cell(rd, DMK_COL_TEST, "the test has no name");
    if (rc == DMK_OK)
        rc = get_choice(rd, c, DMK_COL_MODE, modes, &mode);
    if (rc == DMK_OK)
        rc = get_choice(rd, c, DMK_COL_PATTERN, patterns, &pattern);
    if (rc == DMK_OK)
        rc = get_u32(rd, c, DMK_COL_BLOCK_SIZE, DMK_BS_MIN, DMK_BS_MAX, &j->block_size);
    if (rc == DMK_OK && (j->block_size & (j->block_size - 1)) != 0)
        rc = fail_cell(rd, DMK_COL_BLOCK_SIZE, "%u is not a power of two", j->block_size);
    if (rc == DMK_OK)
        rc = get_u32(rd, c, DMK_COL_QUEUE_DEPTH, 1, DMK_QD_MAX, &j->queue_depth);
    if (rc == DMK_OK)
        rc = get_u32(rd, c, DMK_COL_THREADS, 1, DMK_THREADS_MAX, &j->threads);
    if (rc == DMK_OK)
        rc = get_u32(rd, c, DMK_COL_READ_SHARE, 0, 100, &j->read_share);
    if (rc == DMK_OK && rd->file_col[DMK_COL_LABEL] >= 0)
        rc = get_text(rd, c, DMK_COL_LABEL, t->label, sizeof t->label);
    if (rc == DMK_OK && rd->file_col[DMK_COL_RATE_IOPS] >= 0)
        rc = get_uint(rd, c, DMK_COL_RATE_IOPS, 0, DMK_RATE_MAX, &t->rate_iops);
    t->mode = (DmkMode)mode;
    j->pattern = (DmkPattern)pattern; /* patterns[] is in DmkPattern's order */
    return rc;
}

static int read_stats(Reader *rd, const Cells *c, DmkStats *s)
{
    for (size_t k = 0; k < dmk_stat_field_count; k++) {
        double v;
        int rc = get_real(rd, c, dmk_csv_col_stat(k), STAT_MAX, &v);
        if (rc != DMK_OK)
            return rc;
        *(double *)((char *)s + dmk_stat_fields[k].offset) = v;
    }
    return DMK_OK;
}

/* The four per-direction columns of read and of write. */
static int read_directions(Reader *rd, const Cells *c, DmkPassResult *p)
{
    DmkStats *d[2] = {&p->read, &p->write};
    for (int i = 0; i < 2; i++) {
        size_t col = dmk_csv_col_direction(i);
        int rc = get_real(rd, c, col, STAT_MAX, &d[i]->mb_s);
        if (rc == DMK_OK)
            rc = get_real(rd, c, col + 1, STAT_MAX, &d[i]->iops);
        if (rc == DMK_OK)
            rc = get_real(rd, c, col + 2, STAT_MAX, &d[i]->lat_mean_us);
        if (rc == DMK_OK)
            rc = get_real(rd, c, col + 3, STAT_MAX, &d[i]->lat_p99_us);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

/* Whether the run was stopped during the test (schema 3). */
static int read_partial(Reader *rd, const Cells *c, DmkTestResult *t)
{
    size_t col = dmk_csv_col_tail(DMK_COL_PARTIAL);
    uint64_t v = 0;
    int rc = rd->file_col[col] < 0 ? DMK_OK : get_uint(rd, c, col, 0, 1, &v);
    t->partial = v == 1;
    return rc;
}

/* Schema 4: the achieved queue depth and the flags as written; an older
 * file's flags follow from what it holds (its size: peak). */
static int read_honest_test(Reader *rd, const Cells *c, DmkTestResult *t)
{
    size_t qd_col = dmk_csv_col_tail(DMK_COL_ACHIEVED_QD), fl_col = dmk_csv_col_tail(DMK_COL_FLAGS);
    char text[160], q[80];
    if (rd->file_col[qd_col] < 0) {
        t->flags = dmk_test_flags(rd->res, t);
        return DMK_OK;
    }
    int rc = get_real(rd, c, qd_col, (double)DMK_QD_MAX * DMK_THREADS_MAX * DMK_MAX_JOBS,
                      &t->achieved_qd);
    if (rc == DMK_OK)
        rc = get_text(rd, c, fl_col, text, sizeof text);
    if (rc == DMK_OK && !dmk_flags_parse(text, &t->flags))
        rc = fail_cell(rd, fl_col,
                       "%s is not a list of flags (peak, over_interface, low_qd, ram_backed, "
                       "storage_unknown, paused, cached)",
                       shown(text, strlen(text), q, sizeof q));
    return rc;
}

static int read_spread(Reader *rd, const Cells *c, DmkTestResult *t)
{
    int rc = get_real(rd, c, dmk_csv_col_tail(DMK_COL_MB_S_MEDIAN), STAT_MAX, &t->mb_s_median);
    if (rc == DMK_OK)
        rc = get_real(rd, c, dmk_csv_col_tail(DMK_COL_MB_S_MIN), STAT_MAX, &t->mb_s_min);
    if (rc == DMK_OK)
        rc = get_real(rd, c, dmk_csv_col_tail(DMK_COL_MB_S_MAX), STAT_MAX, &t->mb_s_max);
    return rc;
}

/* What the verify option found (schema 4): all cells empty when the test
 * was not verified; the first bad block's cells filled exactly when a
 * block was bad. */
static int read_verify(Reader *rd, const Cells *c, DmkVerifyResult *v)
{
    size_t col = dmk_csv_col_tail(DMK_COL_VERIFY_BLOCKS), len;
    cell(rd, c, col, &len);
    memset(v, 0, sizeof *v);
    if (len == 0) {
        int rc = DMK_OK;
        for (int k = DMK_COL_VERIFY_BAD; rc == DMK_OK && k <= DMK_COL_VERIFY_S; k++)
            rc = need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k), "test without verify_blocks");
        return rc;
    }
    v->checked = true;
    int rc = get_uint(rd, c, col, 0, UINT64_MAX, &v->blocks);
    if (rc == DMK_OK)
        rc = get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_BAD), 0, v->blocks, &v->bad);
    if (rc == DMK_OK)
        rc = get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_SKIPPED), 0, UINT64_MAX, &v->skipped);
    if (rc == DMK_OK)
        rc = get_real(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_S), DMK_SECONDS_MAX, &v->seconds);
    if (rc != DMK_OK || v->bad == 0) {
        for (int k = DMK_COL_VERIFY_FIRST_BAD_BLOCK; rc == DMK_OK && k <= DMK_COL_VERIFY_WHY; k++)
            rc = need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k), "test with no bad block");
        v->bytes =
            v->blocks * (uint64_t)rd->res->tests[rd->res->n_tests - 1].test.jobs[0].block_size;
        return rc;
    }
    const char *const whys[] = {
        dmk_verify_bad_key(DMK_VERIFY_OK),           dmk_verify_bad_key(DMK_VERIFY_NO_HEADER),
        dmk_verify_bad_key(DMK_VERIFY_WRONG_OFFSET), dmk_verify_bad_key(DMK_VERIFY_STALE),
        dmk_verify_bad_key(DMK_VERIFY_CORRUPT),      NULL};
    int why = 0;
    rc = get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_FIRST_BAD_BLOCK), 0, UINT64_MAX,
                  &v->first_bad_block);
    if (rc == DMK_OK)
        rc = get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_FIRST_BAD_BYTE), v->first_bad_block,
                      UINT64_MAX, &v->first_bad_byte);
    if (rc == DMK_OK)
        rc = get_choice(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_WHY), whys, &why);
    if (rc == DMK_OK && why == 0)
        rc = fail_cell(rd, dmk_csv_col_tail(DMK_COL_VERIFY_WHY),
                       "a bad block needs its reason (no_header, wrong_offset, stale, corrupt)");
    v->first_bad_why = (DmkVerifyBad)why;
    v->bytes = v->blocks * (uint64_t)rd->res->tests[rd->res->n_tests - 1].test.jobs[0].block_size;
    return rc;
}

/* The test before the current row has all its passes (a finished test
 * has at least one) and its best pass is one of them. */
static int finish_test(Reader *rd)
{
    if (rd->res->n_tests == 0)
        return DMK_OK;
    const DmkTestResult *t = &rd->res->tests[rd->res->n_tests - 1];
    if (t->best_pass >= t->n_passes)
        return fail_at(rd, rd->test_line, rd->file_col[DMK_COL_PASS],
                       "the best pass is %u, but the test has %u pass rows", t->best_pass + 1,
                       t->n_passes);
    return DMK_OK;
}

static int read_test_row(Reader *rd, const Cells *c)
{
    DmkRunResult *r = rd->res;
    int rc = finish_test(rd);
    if (rc != DMK_OK)
        return rc;
    if (r->n_tests >= DMK_MAX_TESTS)
        return fail_at(rd, rd->line, -1, "more than %d tests", DMK_MAX_TESTS);
    if (grow((void **)&r->tests, &rd->cap_tests, r->n_tests + 1, sizeof *r->tests) != DMK_OK)
        return fail_at(rd, 0, -1, "out of memory");
    DmkTestResult *t = &r->tests[r->n_tests++];
    memset(t, 0, sizeof *t);
    rd->cap_passes = rd->cap_samples = 0;
    rd->in_samples = false;
    rd->test_line = rd->line;
    uint32_t best = 0;
    rc = read_identity(rd, c, &t->test);
    if (rc == DMK_OK)
        rc = get_u32(rd, c, DMK_COL_PASS, 1, DMK_PASSES_MAX, &best);
    if (rc == DMK_OK)
        rc = need_empty(rd, c, DMK_COL_T_S, "test");
    if (rc == DMK_OK)
        rc = need_empty(rd, c, DMK_COL_TEMP_C, "test");
    if (rc == DMK_OK)
        rc = read_stats(rd, c, &t->score.total);
    if (rc == DMK_OK)
        rc = read_spread(rd, c, t);
    if (rc == DMK_OK)
        rc = read_partial(rd, c, t);
    if (rc == DMK_OK)
        rc = read_directions(rd, c, &t->score);
    if (rc == DMK_OK)
        rc = read_honest_test(rd, c, t);
    if (rc == DMK_OK)
        rc = read_verify(rd, c, &t->verify);
    t->best_pass = best ? best - 1 : 0;
    if (rc == DMK_OK && cells_copy(&rd->test, c) != DMK_OK)
        rc = fail_at(rd, 0, -1, "out of memory");
    return rc;
}

/* A pass or sample row belongs to the test row above it. */
static int check_identity(Reader *rd, const Cells *c, const char *record)
{
    char q[80], q2[80];
    size_t len, len2;
    if (rd->res->n_tests == 0)
        return fail_at(rd, rd->line, -1, "a %s row before any test row", record);
    for (size_t col = DMK_COL_FIRST_IDENTITY; col <= DMK_COL_LAST_IDENTITY; col++) {
        if (same_cell(rd, c, &rd->test, col))
            continue;
        const char *s = cell(rd, c, col, &len), *s2 = cell(rd, &rd->test, col, &len2);
        return fail_cell(rd, col,
                         "%s differs from %s of the test row on line %lu: a %s row must "
                         "follow the row of its test",
                         shown(s, len, q, sizeof q), shown(s2, len2, q2, sizeof q2), rd->test_line,
                         record);
    }
    return DMK_OK;
}

static int read_pass_row(Reader *rd, const Cells *c)
{
    DmkTestResult *t = &rd->res->tests[rd->res->n_tests - 1];
    uint32_t pass = 0;
    if (rd->in_samples)
        return fail_at(rd, rd->line, -1, "a pass row after the test's timeline samples");
    int rc = get_u32(rd, c, DMK_COL_PASS, 1, DMK_PASSES_MAX, &pass);
    if (rc == DMK_OK && pass != t->n_passes + 1)
        rc = fail_cell(rd, DMK_COL_PASS, "pass %u where pass %u was due", pass, t->n_passes + 1);
    /* mb_s_median .. flags: what only a test row has */
    for (DmkCsvTail k = DMK_COL_MB_S_MEDIAN; rc == DMK_OK && k <= DMK_COL_FLAGS; k++)
        rc = need_empty(rd, c, dmk_csv_col_tail(k), "pass");
    for (DmkCsvTail k = DMK_COL_VERIFY_BLOCKS; rc == DMK_OK && k <= DMK_COL_VERIFY_S; k++)
        rc = need_empty(rd, c, dmk_csv_col_tail(k), "pass");
    if (rc == DMK_OK)
        rc = need_empty(rd, c, DMK_COL_T_S, "pass");
    if (rc == DMK_OK)
        rc = need_empty(rd, c, DMK_COL_TEMP_C, "pass");
    if (rc == DMK_OK &&
        grow((void **)&t->passes, &rd->cap_passes, t->n_passes + 1, sizeof *t->passes) != DMK_OK)
        rc = fail_at(rd, 0, -1, "out of memory");
    if (rc != DMK_OK)
        return rc;
    DmkPassResult *p = &t->passes[t->n_passes];
    memset(p, 0, sizeof *p);
    rc = read_stats(rd, c, &p->total);
    if (rc == DMK_OK)
        rc = read_directions(rd, c, p);
    if (rc == DMK_OK)
        t->n_passes++;
    return rc;
}

static int read_sample_row(Reader *rd, const Cells *c)
{
    DmkTestResult *t = &rd->res->tests[rd->res->n_tests - 1];
    DmkStats st = {0};
    DmkSample s = {0};
    int rc = need_empty(rd, c, DMK_COL_PASS, "sample");
    if (rc == DMK_OK)
        rc = get_real(rd, c, DMK_COL_T_S, DMK_SECONDS_MAX, &s.t_s);
    if (rc == DMK_OK)
        rc = get_temp(rd, c, DMK_COL_TEMP_C, &s.temp_c);
    for (size_t k = 0; rc == DMK_OK && k < dmk_stat_field_count; k++) {
        const DmkStatField *f = &dmk_stat_fields[k];
        if (dmk_csv_sample_field(f))
            rc =
                get_real(rd, c, dmk_csv_col_stat(k), STAT_MAX, (double *)((char *)&st + f->offset));
        else
            rc = need_empty(rd, c, dmk_csv_col_stat(k), "sample");
    }
    for (int k = 0; rc == DMK_OK && k < DMK_COL_N_TAIL; k++)
        rc = need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k), "sample");
    if (rc == DMK_OK && grow((void **)&t->samples, &rd->cap_samples, t->n_samples + 1,
                             sizeof *t->samples) != DMK_OK)
        rc = fail_at(rd, 0, -1, "out of memory");
    if (rc != DMK_OK)
        return rc;
    s.mb_s = st.mb_s;
    s.iops = st.iops;
    s.lat_mean_us = st.lat_mean_us;
    t->samples[t->n_samples++] = s;
    rd->in_samples = true;
    return DMK_OK;
}

static int read_row(Reader *rd, const Cells *c)
{
    const char *const *records = dmk_csv_records;
    int rc;
    if (++rd->rows > DMK_CSV_READ_MAX_ROWS)
        return fail_at(rd, rd->line, -1, "more than %d rows", DMK_CSV_READ_MAX_ROWS);
    /* The first row names the schema: a header with a column too many
     * (or too few) is the header's fault, said before any row's count. */
    int schema_col = rd->file_col[DMK_COL_SCHEMA];
    if (rd->rows == 1 && (size_t)schema_col < c->n && (rc = read_schema(rd, c)) != DMK_OK)
        return rc;
    size_t n = c->n + c->over;
    if (n != rd->n_cols)
        return fail_at(rd, rd->line, -1, "%zu columns, but the header (line %lu) has %zu", n,
                       rd->header_line, rd->n_cols);
    if (rd->rows == 1) {
        rd->first_line = rd->line;
        rc = read_context(rd, c);
        if (rc == DMK_OK && cells_copy(&rd->first, c) != DMK_OK)
            rc = fail_at(rd, 0, -1, "out of memory");
    } else {
        rc = check_context(rd, c);
    }
    int record = 0;
    if (rc == DMK_OK)
        rc = get_choice(rd, c, DMK_COL_RECORD, records, &record);
    if (rc == DMK_OK && record != DMK_CSV_RECORD_TEST)
        rc = check_identity(rd, c, records[record]);
    if (rc != DMK_OK)
        return rc;
    return record == DMK_CSV_RECORD_TEST   ? read_test_row(rd, c)
           : record == DMK_CSV_RECORD_PASS ? read_pass_row(rd, c)
                                           : read_sample_row(rd, c);
}

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
    Reader *rd = data;
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
    if (cells_add(&rd->cells, text, len) != DMK_OK)
        fail_at(rd, 0, -1, "out of memory");
}

/* With CSV_REPALL_NL libcsv reports every CR and LF: an empty row is a
 * blank line, or the LF of a CRLF. Counting them gives the line numbers. */
static void on_row(int c, void *data)
{
    Reader *rd = data;
    bool crlf_tail = c == '\n' && rd->after_cr && rd->cells.n == 0;
    rd->after_cr = c == '\r';
    if (crlf_tail) {
        rd->after_cr = false;
        return;
    }
    if (rd->rc == DMK_OK && rd->cells.n > 0) {
        if (!rd->have_header && rd->cells.over)
            fail_at(rd, rd->line, -1,
                    "%zu columns in the header, more than any Drivemark result has (at most %d)",
                    rd->cells.n + rd->cells.over, DMK_CSV_MAX_COLUMNS);
        else if (!rd->have_header)
            read_header(rd, &rd->cells);
        else
            read_row(rd, &rd->cells);
    }
    rd->line += rd->pending + (c == '\r' || c == '\n');
    rd->pending = 0;
    cells_clear(&rd->cells);
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
    Reader rd;
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
        return fail_at(&l->rd, 0, -1, "the file is UTF-16; Drivemark reads UTF-8 CSV");
    }
    return DMK_OK;
}

static int loader_feed(Loader *l, const char *buf, size_t len)
{
    Reader *rd = &l->rd;
    if (l->bytes == 0 && skip_bom(l, &buf, &len) != DMK_OK)
        return rd->rc;
    l->bytes += len;
    if (l->bytes > DMK_CSV_READ_MAX_BYTES)
        return fail_at(rd, 0, -1, "the file is larger than %llu MiB, more than any result",
                       DMK_CSV_READ_MAX_BYTES >> 20);
    size_t done = csv_parse(&l->p, buf, len, on_field, on_row, rd);
    /* No cell of a result comes near this (paths and notes are at most a
     * few KiB); stopping here bounds the time and memory a malformed file
     * costs, as libcsv keeps the whole cell until it ends. */
    if (rd->rc == DMK_OK && l->p.entry_pos > CELL_MAX_BYTES)
        return fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                       "a cell longer than %d KiB: not a Drivemark result file",
                       CELL_MAX_BYTES >> 10);
    if (rd->rc == DMK_OK && done != len) {
        if (csv_error(&l->p) == CSV_EPARSE)
            return fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                           "a quote inside an unquoted cell, or text after a closing quote "
                           "(cells with quotes must be quoted whole, quotes doubled)");
        return fail_at(rd, 0, -1, "%s", csv_strerror(csv_error(&l->p)));
    }
    return rd->rc;
}

/* Ends the parse; on success hands the result over. */
static int loader_end(Loader *l, int rc, DmkRunResult **out)
{
    Reader *rd = &l->rd;
    if (rc == DMK_OK && csv_fini(&l->p, on_field, on_row, rd) != 0 && rd->rc == DMK_OK)
        rc = fail_at(rd, rd->line + rd->pending, (int)rd->cells.n,
                     "a quoted cell is not closed before the end of the file");
    rc = rc != DMK_OK ? rc : rd->rc;
    if (rc == DMK_OK && !rd->have_header)
        rc = fail_at(rd, 0, -1, "the file is empty");
    if (rc == DMK_OK && rd->rows == 0) {
        /* Say what is wrong with the header first, if anything. */
        rc = check_header(rd, header_schema(rd));
        if (rc == DMK_OK)
            rc = fail_at(rd, 0, -1, "no results: the file has only a header");
    }
    if (rc == DMK_OK)
        rc = finish_test(rd);
    csv_free(&l->p);
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
        return fail_at(&l->rd, 0, -1, "out of memory");
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
