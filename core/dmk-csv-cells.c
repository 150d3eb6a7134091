/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CSV reader's typed cells: a row's cells as libcsv gave them, a cell
 * found by its table column, and each read as the kind the column table
 * (dmk-csv-private.h) gives it: a number in its range, a temperature, a
 * text, one of a list of words, or nothing. A bad cell is refused with a
 * message naming the file, the line and the column ("r.csv: line 3,
 * column 31 (mb_s): 'abc' is not a number"). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-csv-read-private.h"
#include "dmk-csv.h"
#include "dmk-escape.h"
#include "dmk-i18n.h"

/* ---- messages ------------------------------------------------------------ */

static int vfail(DmkCsvReader *rd, unsigned long line, int fcol, const char *fmt, va_list ap)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 0)));

/* "name: line L, column C (col): what" (line 0: none; fcol < 0: none);
 * what's format is translated here, as dmk_error_set does (the callers'
 * formats are msgids: po/meson.build's keywords). */
static int vfail(DmkCsvReader *rd, unsigned long line, int fcol, const char *fmt, va_list ap)
{
    char what[600];
    if (rd->rc != DMK_OK)
        return rd->rc;
    vsnprintf(what, sizeof what, DMK_(fmt), ap);
    int tcol = fcol >= 0 && (size_t)fcol < rd->n_cols ? rd->table_col[fcol] : -1;
    if (line && fcol >= 0 && tcol >= 0)
        /* TRANSLATORS: a result file's problem: the file, the line and column, the
           column's name, what is wrong. */
        rd->rc = dmk_error_set(rd->err, DMK_E_INVAL, 0, "%s: line %lu, column %d (%s): %s",
                               rd->name, line, fcol + 1, dmk_csv_column((size_t)tcol).name, what);
    else if (line && fcol >= 0)
        rd->rc = dmk_error_set(rd->err, DMK_E_INVAL, 0, "%s: line %lu, column %d: %s", rd->name,
                               line, fcol + 1, what);
    else if (line)
        rd->rc = dmk_error_set(rd->err, DMK_E_INVAL, 0, "%s: line %lu: %s", rd->name, line, what);
    else
        rd->rc = dmk_error_set(rd->err, DMK_E_INVAL, 0, "%s: %s", rd->name, what);
    return rd->rc;
}

int dmk_csv_fail_at(DmkCsvReader *rd, unsigned long line, int fcol, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(rd, line, fcol, fmt, ap);
    va_end(ap);
    return rc;
}

/* A cell of the current row, by table column. */
int dmk_csv_fail_cell(DmkCsvReader *rd, size_t col, const char *fmt, ...)
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
const char *dmk_csv_shown(const char *s, size_t len, char *buf, size_t cap)
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

/* A refused cell's text as a message shows it (dmk_csv_shown), in a
 * buffer that lives to the end of the caller's block. */
#define SHOWN(s, len) dmk_csv_shown(s, len, (char[80]){0}, 80)

/* ---- cells --------------------------------------------------------------- */

int dmk_csv_cells_add(DmkCsvCells *c, const char *s, size_t len)
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

int dmk_csv_cells_copy(DmkCsvCells *dst, const DmkCsvCells *src)
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

void dmk_csv_cells_clear(DmkCsvCells *c)
{
    c->used = 0;
    c->n = 0;
    c->over = 0;
}

/* Cell of table column col in c; NULL when the file lacks the column. */
const char *dmk_csv_cell(const DmkCsvReader *rd, const DmkCsvCells *c, size_t col, size_t *len)
{
    int f = rd->file_col[col];
    if (f < 0) {
        *len = 0;
        return NULL;
    }
    *len = c->len[f];
    return c->buf + c->off[f];
}

bool dmk_csv_same_cell(const DmkCsvReader *rd, const DmkCsvCells *a, const DmkCsvCells *b,
                       size_t col)
{
    size_t la, lb;
    const char *sa = dmk_csv_cell(rd, a, col, &la), *sb = dmk_csv_cell(rd, b, col, &lb);
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

/* Why s is no non-negative number: a message format with the cell as its
 * %s, or NULL when it is one. */
__attribute__((format_arg(3))) static const char *number_problem(const char *s, size_t len,
                                                                 const char *fmt)
{
    (void)fmt; /* its argument checks say every format below takes one %s */
    if (len == 0)
        return DMK_N_("%s is empty (a number is expected)");
    if (memchr(s, '\0', len))
        return DMK_N_("%s contains a NUL byte");
    if (is_nonfinite(s))
        return DMK_N_("%s is not a finite number");
    if (s[0] == '-' && scan_decimal(s + 1))
        return DMK_N_("%s is negative");
    if (!scan_decimal(s))
        return DMK_N_("%s is not a number");
    return NULL;
}

/* strtod in the "C" locale's way: '.' is swapped for the current
 * locale's decimal point (a GUI runs in the user's locale). */
static double to_double(const DmkCsvReader *rd, const char *s, bool *ok)
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

/* The cell of col, refused unless its text is a non-negative number's. */
static int number_cell(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, const char **s,
                       size_t *len)
{
    *s = dmk_csv_cell(rd, c, col, len);
    if (number_problem(*s, *len, "%s"))
        return dmk_csv_fail_cell(rd, col, number_problem(*s, *len, "%s"), SHOWN(*s, *len));
    return DMK_OK;
}

int dmk_csv_get_real(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, double max, double *out)
{
    size_t len;
    const char *s;
    int rc = number_cell(rd, c, col, &s, &len);
    if (rc != DMK_OK)
        return rc;
    bool ok;
    *out = to_double(rd, s, &ok);
    if (!ok || *out > max)
        return dmk_csv_fail_cell(rd, col, "%s is out of range (0 to %g)", SHOWN(s, len), max);
    return DMK_OK;
}

static int uint_out_of_range(DmkCsvReader *rd, size_t col, const char *s, size_t len, uint64_t min,
                             uint64_t max)
{
    return dmk_csv_fail_cell(rd, col, "%s is out of range (%llu to %llu)", SHOWN(s, len),
                             (unsigned long long)min, (unsigned long long)max);
}

int dmk_csv_get_uint(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, uint64_t min, uint64_t max,
                     uint64_t *out)
{
    size_t len;
    const char *s;
    int rc = number_cell(rd, c, col, &s, &len);
    if (rc != DMK_OK)
        return rc;
    uint64_t v = 0;
    size_t i = 0;
    for (; is_digit(s[i]); i++) {
        if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
            return uint_out_of_range(rd, col, s, len, min, max);
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (s[i])
        return dmk_csv_fail_cell(rd, col, "%s is not a whole number", SHOWN(s, len));
    if (v < min || v > max)
        return uint_out_of_range(rd, col, s, len, min, max);
    *out = v;
    return DMK_OK;
}

int dmk_csv_get_u32(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, uint64_t min, uint64_t max,
                    uint32_t *out)
{
    uint64_t v = 0;
    int rc = dmk_csv_get_uint(rd, c, col, min, max, &v);
    *out = (uint32_t)v;
    return rc;
}

/* A sample's temperature: empty when the drive had no sensor (NaN), else
 * a plausible reading, the one signed number of a file. */
int dmk_csv_get_temp(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, double *out)
{
    size_t len;
    const char *s = dmk_csv_cell(rd, c, col, &len);
    *out = NAN;
    if (!s || len == 0)
        return DMK_OK; /* no column (schema 1, 2) or no reading */
    if (memchr(s, '\0', len))
        return dmk_csv_fail_cell(rd, col, "%s contains a NUL byte", SHOWN(s, len));
    if (is_nonfinite(s))
        return dmk_csv_fail_cell(rd, col, "%s is not a finite number", SHOWN(s, len));
    if (!scan_decimal(s[0] == '-' ? s + 1 : s))
        return dmk_csv_fail_cell(rd, col, "%s is not a number", SHOWN(s, len));
    bool ok;
    double v = to_double(rd, s, &ok);
    if (!ok || v < DMK_CSV_TEMP_MIN || v > DMK_CSV_TEMP_MAX)
        return dmk_csv_fail_cell(rd, col, "%s is out of range (%g to %g)", SHOWN(s, len),
                                 DMK_CSV_TEMP_MIN, DMK_CSV_TEMP_MAX);
    *out = v;
    return DMK_OK;
}

bool dmk_csv_cell_empty(const DmkCsvReader *rd, const DmkCsvCells *c, size_t col)
{
    size_t len;
    dmk_csv_cell(rd, c, col, &len);
    return len == 0;
}

int dmk_csv_get_uint_or_empty(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, uint64_t min,
                              uint64_t max, uint64_t *out)
{
    *out = 0;
    if (rd->schema >= DMK_CSV_SCHEMA_EMPTY_NA && dmk_csv_cell_empty(rd, c, col))
        return DMK_OK;
    return dmk_csv_get_uint(rd, c, col, min, max, out);
}

/* Cells a kind of record leaves empty must be: anything there is not ours. */
int dmk_csv_need_empty(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, const char *record)
{
    size_t len;
    const char *s = dmk_csv_cell(rd, c, col, &len);
    if (len)
        return dmk_csv_fail_cell(rd, col, "%s should be empty in a %s row", SHOWN(s, len), record);
    return DMK_OK;
}

/* ---- text ---------------------------------------------------------------- */

/* The writer's apostrophe (dmk_csv_neutralise) taken off again: before
 * = + - @ tab CR, and from schema 7 before an apostrophe and before a
 * word pandas reads as missing ("'null"). */
static const char *unneutralise(const DmkCsvReader *rd, const char *s, size_t *len)
{
    bool marked = *len >= 2 && s[0] == '\'';
    if (marked && rd->schema >= DMK_CSV_SCHEMA_EMPTY_NA)
        marked = dmk_csv_risky_text(s + 1, *len - 1);
    else if (marked)
        marked = strchr("=+-@\t\r", s[1]) && s[1] != '\0';
    if (marked) {
        (*len)--;
        return s + 1;
    }
    return s;
}

int dmk_csv_get_text(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, char *dst, size_t cap)
{
    size_t len;
    const char *s = dmk_csv_cell(rd, c, col, &len);
    if (memchr(s, '\0', len))
        return dmk_csv_fail_cell(rd, col, "%s contains a NUL byte", SHOWN(s, len));
    if (!utf8_valid(s, len))
        return dmk_csv_fail_cell(rd, col, "%s is not valid UTF-8", SHOWN(s, len));
    s = unneutralise(rd, s, &len);
    if (len >= cap)
        return dmk_csv_fail_cell(rd, col, "%s is too long (at most %zu bytes)", SHOWN(s, len),
                                 cap - 1);
    memcpy(dst, s, len);
    dst[len] = '\0';
    return DMK_OK;
}

/* The index of the cell's text in names (NULL-terminated). */
int dmk_csv_get_choice(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, const char *const *names,
                       int *out)
{
    size_t len;
    char list[128] = "";
    const char *s = dmk_csv_cell(rd, c, col, &len);
    for (int i = 0; names[i]; i++) {
        if (strlen(names[i]) == len && memcmp(s, names[i], len) == 0) {
            *out = i;
            return DMK_OK;
        }
        size_t u = strlen(list);
        snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", names[i][0] ? names[i] : "\"\"");
    }
    return dmk_csv_fail_cell(rd, col, "%s is not one of: %s", SHOWN(s, len), list);
}
