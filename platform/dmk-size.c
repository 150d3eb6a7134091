/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-size.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *suffix;
    unsigned shift;
} DmkUnit;

/* Binary units only; "KB" and friends are deliberately absent. */
static const DmkUnit units[] = {
    {"", 0},     {"B", 0},  {"K", 10},   {"KiB", 10}, {"M", 20},   {"MiB", 20}, {"G", 30},
    {"GiB", 30}, {"T", 40}, {"TiB", 40}, {"P", 50},   {"PiB", 50}, {"E", 60},   {"EiB", 60},
};

static int parse_digits(const char *s, uint64_t *value, const char **end)
{
    uint64_t v = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1; /* overflow */
        v = v * 10 + d;
        p++;
    }
    if (p == s)
        return -2; /* no digits */
    *value = v;
    *end = p;
    return 0;
}

static const DmkUnit *find_unit(const char *suffix)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].suffix, suffix) == 0)
            return &units[i];
    return NULL;
}

int dmk_parse_size(const char *s, uint64_t *out, DmkError *err)
{
    uint64_t v;
    const char *end;
    if (!s || !*s)
        return dmk_error_set(err, DMK_E_INVAL, 0, "empty size");
    int rc = parse_digits(s, &v, &end);
    if (rc == -1)
        return dmk_error_set(err, DMK_E_INVAL, 0, "size '%s' is too large", s);
    if (rc == -2)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "size '%s' is not a positive integer with an optional unit "
                             "(K, M, G, T, P, E or KiB, MiB, GiB, TiB, PiB, EiB)",
                             s);
    const DmkUnit *u = find_unit(end);
    if (!u)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "size '%s' has an unknown unit '%s' (use K, M, G, T, P, E or "
                             "KiB, MiB, GiB, TiB, PiB, EiB; sizes are binary)",
                             s, end);
    if (v == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0, "size '%s' is zero", s);
    if (u->shift && v > (UINT64_MAX >> u->shift))
        return dmk_error_set(err, DMK_E_INVAL, 0, "size '%s' is too large", s);
    *out = v << u->shift;
    return DMK_OK;
}

int dmk_parse_size_range(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                         DmkError *err)
{
    uint64_t v;
    char a[32], b[32];
    DmkError inner;
    int rc = dmk_parse_size(s, &v, &inner);
    if (rc == DMK_OK && v >= min && v <= max) {
        *out = v;
        return DMK_OK;
    }
    /* Say why (a unit, an overflow) as well as what is accepted. */
    dmk_format_size(min, a, sizeof a);
    dmk_format_size(max, b, sizeof b);
    if (rc == DMK_OK)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' is invalid; expected %s to %s", what,
                             s ? s : "", a, b);
    /* TRANSLATORS: the third %s says why (a unit, an overflow); the last two are the range. */
    return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' is invalid: %s; expected %s to %s", what,
                         s ? s : "", inner.msg, a, b);
}

int dmk_parse_uint_range(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                         DmkError *err)
{
    uint64_t v;
    const char *end;
    if (!s || parse_digits(s, &v, &end) != 0 || *end || v < min || v > max)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s '%s' is invalid: expected an integer from %llu to %llu", what,
                             s ? s : "", (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return DMK_OK;
}

/* Integer part and up to 9 decimals by hand, so the C locale's decimal
 * separator never matters. */
static int parse_decimal(const char *s, double *out, const char **end)
{
    uint64_t whole, frac = 0;
    const char *p;
    if (parse_digits(s, &whole, &p) != 0 || whole > 1000000000ULL)
        return -1;
    double scale = 1.0;
    if (*p == '.') {
        p++;
        int n = 0;
        while (*p >= '0' && *p <= '9' && n < 9) {
            frac = frac * 10 + (uint64_t)(*p - '0');
            scale *= 10.0;
            p++;
            n++;
        }
        if (n == 0)
            return -1;
    }
    *out = (double)whole + (double)frac / scale;
    *end = p;
    return 0;
}

int dmk_parse_seconds_range(const char *what, const char *s, double min, double max, double *out,
                            DmkError *err)
{
    double v;
    const char *end;
    int ok = s && parse_decimal(s, &v, &end) == 0;
    if (ok) {
        if (strcmp(end, "h") == 0)
            v *= 3600.0;
        else if (strcmp(end, "m") == 0)
            v *= 60.0;
        else if (strcmp(end, "s") != 0 && *end)
            ok = 0;
    }
    if (!ok || v < min || v > max)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s '%s' is invalid: expected seconds from %g to %g "
                             "(suffix s, m or h allowed)",
                             what, s ? s : "", min, max);
    *out = v;
    return DMK_OK;
}

char *dmk_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned i = 0;
    while (i < 6 && bytes >= (1ULL << (10 * (i + 1))))
        i++;
    uint64_t unit = 1ULL << (10 * i);
    if (bytes % unit == 0) {
        snprintf(buf, len, "%llu %s", (unsigned long long)(bytes / unit), names[i]);
    } else {
        char num[32];
        dmk_format_double((double)bytes / (double)unit, 2, num, sizeof num);
        snprintf(buf, len, "%s %s", num, names[i]);
    }
    return buf;
}

char *dmk_format_block(uint64_t bytes, char *buf, size_t len)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)bytes);
    return buf;
}

char *dmk_format_double(double v, int decimals, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "0");
        return buf;
    }
    static const double pow10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    double a = fabs(v);
    double scaled = floor(a * pow10[decimals] + 0.5);
    int neg = v < 0 && scaled > 0;
    double whole = floor(scaled / pow10[decimals]);
    unsigned long long frac = (unsigned long long)(scaled - whole * pow10[decimals]);
    if (decimals == 0)
        snprintf(buf, len, "%s%.0f", neg ? "-" : "", whole);
    else
        snprintf(buf, len, "%s%.0f.%0*llu", neg ? "-" : "", whole, decimals, frac);
    return buf;
}

/* raw ("-1234567.89") into buf with a ',' between thousands of its whole part. */
static char *group_thousands(const char *raw, char *buf, size_t len)
{
    char out[448]; /* the longest %.0f of a double (309 digits), its commas and decimals */
    const char *digits = raw[0] == '-' ? raw + 1 : raw;
    size_t int_len = strcspn(digits, "."), o = 0;
    if (digits != raw)
        out[o++] = '-';
    for (size_t i = 0; i < int_len && o + 2 < sizeof out; i++) {
        if (i > 0 && (int_len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    snprintf(out + o, sizeof out - o, "%s", digits + int_len);
    snprintf(buf, len, "%s", out);
    return buf;
}

char *dmk_format_thousands(double v, int decimals, char *buf, size_t len)
{
    char raw[336];
    return group_thousands(dmk_format_double(v, decimals, raw, sizeof raw), buf, len);
}

char *dmk_format_figure(double v, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    double a = fabs(v);
    if (a < 9.995)
        return dmk_format_double(v, 2, buf, len);
    if (a < 99.95)
        return dmk_format_double(v, 1, buf, len);
    /* printf's rounding of the whole number, as the report always had */
    char raw[336];
    snprintf(raw, sizeof raw, "%.0f", v);
    return group_thousands(raw, buf, len);
}
