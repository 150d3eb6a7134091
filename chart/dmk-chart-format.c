/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Numbers on charts: '.' as the decimal point whatever the C locale (a
 * chart pasted into an article must not change with the reviewer's
 * settings), "," between thousands, and an M suffix only where the
 * digits would crowd the axis. */
#include "dmk-chart-private.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmk-size.h"

/* Enough decimals to show three significant digits, never more than 3. */
static int value_decimals(double v)
{
    double a = fabs(v);
    if (a >= 100 || a == 0)
        return 0;
    if (a >= 10)
        return 1;
    if (a >= 1)
        return 2;
    return 3;
}

void dmk_chart_format_value(double v, char *buf, size_t len)
{
    if (fabs(v) >= 1e7) {
        char num[64];
        dmk_format_thousands(v / 1e6, 2, num, sizeof num);
        snprintf(buf, len, "%sM", num);
        return;
    }
    dmk_format_thousands(v, value_decimals(v), buf, len);
    /* "90", not "90.0": a zero says nothing, and a column of labels with
     * and without them looks uneven. */
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (n > 0 && buf[n - 1] == '0')
            buf[--n] = '\0';
        if (n > 0 && buf[n - 1] == '.')
            buf[--n] = '\0';
    }
}

/* Decimals that show a 1-2-5 step exactly: 0.5 -> 1, 0.02 -> 2. */
static int step_decimals(double step)
{
    int d = 0;
    while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6 * step * pow(10, d))
        d++;
    return d;
}

/* Smallest number of decimals that write v exactly (up to 6). */
static int exact_decimals(double v)
{
    return step_decimals(fabs(v) > 0 ? fabs(v) : 1);
}

static double round_125(double v)
{
    double mag = pow(10, floor(log10(v) + 1e-9));
    return round(v / mag) * mag;
}

static void format_bytes(double v, char *buf, size_t len)
{
    if (v < 1 || v > 9e18) {
        dmk_format_thousands(v, exact_decimals(v), buf, len);
        return;
    }
    dmk_format_size((uint64_t)llround(v), buf, len);
}

void dmk_chart_format_tick(const DmkAxis *a, double t, char *buf, size_t len)
{
    double v = dmk_chart_tick_value(a, t);
    if (a->format == DMK_TICKS_BYTES) {
        format_bytes(v, buf, len);
        return;
    }
    if (a->scale == DMK_AXIS_LOG10 && v >= 1e7) {
        /* 10M, 20M: the decades' zeros would widen the margin */
        char num[64];
        dmk_format_thousands(v / 1e6, exact_decimals(v / 1e6), num, sizeof num);
        snprintf(buf, len, "%sM", num);
        return;
    }
    if (a->scale == DMK_AXIS_LOG2 || a->scale == DMK_AXIS_LOG10) {
        /* pow(10, log10(0.2)) is 0.2000...01: round to the 1-2-5 value */
        if (a->scale == DMK_AXIS_LOG10)
            v = round_125(v);
        dmk_format_thousands(v, exact_decimals(v), buf, len);
        return;
    }
    double top = fmax(fabs(a->lo), fabs(a->hi));
    if (top >= 1e7) {
        char num[64];
        dmk_format_thousands(v / 1e6, step_decimals(a->step / 1e6), num, sizeof num);
        if (v == 0)
            snprintf(buf, len, "0");
        else
            snprintf(buf, len, "%sM", num);
        return;
    }
    dmk_format_thousands(v, step_decimals(a->step), buf, len);
}
