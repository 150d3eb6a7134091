/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How series look. Each of the first eight differs in three ways at once:
 * colour (picked for colour-blind readers and spread in lightness, so
 * they still differ as greys), marker shape (filled and hollow in turn)
 * and dash pattern for lines, hatching for bars. A review printed in
 * black and white must still say which line is which drive. */
#include "dmk-chart-private.h"

#include <math.h>

static const double light_colours[DMK_CHART_DISTINCT_SERIES][3] = {
    {0x1e / 255.0, 0x7b / 255.0, 0x34 / 255.0}, /* green, the app's colour */
    {0xe0 / 255.0, 0x82 / 255.0, 0x14 / 255.0}, /* orange */
    {0x2c / 255.0, 0x5f / 255.0, 0xa8 / 255.0}, /* blue */
    {0xc0 / 255.0, 0x39 / 255.0, 0x2b / 255.0}, /* red */
    {0x7b / 255.0, 0x4f / 255.0, 0xa0 / 255.0}, /* purple */
    {0x17 / 255.0, 0xa2 / 255.0, 0xb8 / 255.0}, /* teal */
    {0x8c / 255.0, 0x6a / 255.0, 0x2f / 255.0}, /* brown */
    {0x33 / 255.0, 0x33 / 255.0, 0x33 / 255.0}, /* near black */
};

/* The same hues, lighter, so they stand out on dark paper as the light
 * ones do on white; the last is near white where the light one is near
 * black. Still spread in lightness, so they differ in grey too. */
static const double dark_colours[DMK_CHART_DISTINCT_SERIES][3] = {
    {0x4c / 255.0, 0xc0 / 255.0, 0x6a / 255.0}, /* green */
    {0xf5 / 255.0, 0xa6 / 255.0, 0x3c / 255.0}, /* orange */
    {0x6a / 255.0, 0x9e / 255.0, 0xf0 / 255.0}, /* blue */
    {0xf0 / 255.0, 0x6e / 255.0, 0x5e / 255.0}, /* red */
    {0xb8 / 255.0, 0x8c / 255.0, 0xe0 / 255.0}, /* purple */
    {0x3f / 255.0, 0xd0 / 255.0, 0xe0 / 255.0}, /* teal */
    {0xcf / 255.0, 0xa8 / 255.0, 0x6a / 255.0}, /* brown */
    {0xe6 / 255.0, 0xe6 / 255.0, 0xe6 / 255.0}, /* near white */
};

typedef struct {
    double paper; /* grey of the background */
    double ink;   /* grey of level 0 */
    const double (*colours)[3];
} Palette;

static const Palette light = {1.0, 0.0, light_colours};
/* Adwaita dark's view background is #1e1e1e; the chart sits a shade
 * lighter in its frame, as the light chart's white does on #fafafa. */
static const Palette dark = {0.14, 0.93, dark_colours};

static const cairo_user_data_key_t palette_key;

static const Palette *palette_of(cairo_t *cr)
{
    const Palette *p = cairo_get_user_data(cr, &palette_key);
    return p ? p : &light;
}

void dmk_chart_style_begin(cairo_t *cr, const DmkChartStyle *style)
{
    const Palette *p = style && style->theme == DMK_CHART_DARK ? &dark : &light;
    cairo_set_user_data(cr, &palette_key, (void *)p, NULL);
}

void dmk_chart_style_end(cairo_t *cr)
{
    cairo_set_user_data(cr, &palette_key, NULL, NULL);
}

void dmk_chart_paper_rgb(const DmkChartStyle *style, double rgb[3])
{
    const Palette *p = style && style->theme == DMK_CHART_DARK ? &dark : &light;
    rgb[0] = rgb[1] = rgb[2] = p->paper;
}

void dmk_chart_set_grey(cairo_t *cr, double level)
{
    const Palette *p = palette_of(cr);
    double g = p->ink + (p->paper - p->ink) * level;
    cairo_set_source_rgb(cr, g, g, g);
}

void dmk_chart_set_paper(cairo_t *cr, double alpha)
{
    double g = palette_of(cr)->paper;
    cairo_set_source_rgba(cr, g, g, g, alpha);
}

void dmk_chart_set_series_colour(cairo_t *cr, size_t i, double alpha)
{
    const double *c = palette_of(cr)->colours[i % DMK_CHART_DISTINCT_SERIES];
    cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
}

void dmk_chart_set_series_dash(cairo_t *cr, size_t i, double line_w)
{
    /* In line widths: solid, dash, dot, dash-dot, long dash,
     * dash-dot-dot, long-short, fine dash. */
    static const double dashes[DMK_CHART_DISTINCT_SERIES][6] = {
        {0},
        {4, 2},
        {1, 1.5},
        {5, 1.5, 1, 1.5},
        {8, 2.5},
        {5, 1.5, 1, 1.5, 1, 1.5},
        {8, 2, 2.5, 2},
        {2, 1.2},
    };
    static const int counts[DMK_CHART_DISTINCT_SERIES] = {0, 2, 2, 4, 2, 6, 4, 2};
    size_t k = i % DMK_CHART_DISTINCT_SERIES;
    double d[6];
    for (int j = 0; j < counts[k]; j++)
        d[j] = dashes[k][j] * line_w;
    cairo_set_dash(cr, d, counts[k], 0);
}

static void polygon(cairo_t *cr, double x, double y, double r, int n, double start)
{
    for (int k = 0; k < n; k++) {
        double a = start + 2 * DMK_CHART_PI * k / n;
        if (k == 0)
            cairo_move_to(cr, x + r * cos(a), y + r * sin(a));
        else
            cairo_line_to(cr, x + r * cos(a), y + r * sin(a));
    }
    cairo_close_path(cr);
}

static void star(cairo_t *cr, double x, double y, double r)
{
    for (int k = 0; k < 10; k++) {
        double a = -DMK_CHART_PI / 2 + DMK_CHART_PI * k / 5;
        double rr = (k % 2) ? r * 0.45 : r;
        if (k == 0)
            cairo_move_to(cr, x + rr * cos(a), y + rr * sin(a));
        else
            cairo_line_to(cr, x + rr * cos(a), y + rr * sin(a));
    }
    cairo_close_path(cr);
}

/* Crosses are strokes only: there is nothing to fill. */
static void cross(cairo_t *cr, size_t i, double x, double y, double r, bool diagonal)
{
    double d = diagonal ? r * 0.8 : r * 1.05;
    if (diagonal) {
        cairo_move_to(cr, x - d, y - d);
        cairo_line_to(cr, x + d, y + d);
        cairo_move_to(cr, x - d, y + d);
        cairo_line_to(cr, x + d, y - d);
    } else {
        cairo_move_to(cr, x - d, y);
        cairo_line_to(cr, x + d, y);
        cairo_move_to(cr, x, y - d);
        cairo_line_to(cr, x, y + d);
    }
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
    cairo_set_line_width(cr, r * 0.5);
    dmk_chart_set_series_colour(cr, i, 1);
    cairo_stroke(cr);
}

static void shape_path(cairo_t *cr, size_t k, double x, double y, double r)
{
    switch (k) {
    case 0:
        cairo_arc(cr, x, y, r, 0, 2 * DMK_CHART_PI);
        break;
    case 1:
        cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
        break;
    case 2:
        polygon(cr, x, y + r * 0.15, r * 1.2, 3, -DMK_CHART_PI / 2);
        break;
    case 3:
        polygon(cr, x, y, r * 1.2, 4, 0);
        break;
    case 4:
        polygon(cr, x, y - r * 0.15, r * 1.2, 3, DMK_CHART_PI / 2);
        break;
    default:
        star(cr, x, y, r * 1.35);
        break;
    }
}

void dmk_chart_draw_marker(cairo_t *cr, size_t i, double x, double y, double r)
{
    size_t k = i % DMK_CHART_DISTINCT_SERIES;
    cairo_save(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    if (k == 5 || k == 6) {
        cross(cr, i, x, y, r, k == 5);
        cairo_restore(cr);
        return;
    }
    shape_path(cr, k, x, y, r);
    bool hollow = k == 1 || k == 3;
    if (hollow) {
        dmk_chart_set_paper(cr, 1);
        cairo_fill_preserve(cr);
        dmk_chart_set_series_colour(cr, i, 1);
        cairo_set_line_width(cr, r * 0.45);
    } else {
        dmk_chart_set_series_colour(cr, i, 1);
        cairo_fill_preserve(cr);
        /* A rim of paper keeps overlapping markers apart. */
        dmk_chart_set_paper(cr, 1);
        cairo_set_line_width(cr, r * 0.25);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

void dmk_chart_draw_dot(cairo_t *cr, size_t i, double x, double y, double r, double alpha)
{
    cairo_new_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * DMK_CHART_PI);
    dmk_chart_set_series_colour(cr, i, alpha);
    cairo_fill(cr);
}

/* The part of the line p + t (dx, dy), t in [t0, t1], inside r
 * (Liang-Barsky); false when none is. */
static bool clip_line(DmkRect r, double px, double py, double dx, double dy, double *t0, double *t1)
{
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {px - r.x, r.x + r.w - px, py - r.y, r.y + r.h - py};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0)
            *t0 = fmax(*t0, t);
        else
            *t1 = fmin(*t1, t);
    }
    return *t0 < *t1;
}

/* Hatching lines across r at angle a (radians), spaced gap apart, each
 * cut to r here rather than by a clip: a clip to a rectangle that is not
 * on whole pixels costs Cairo a mask for every bar (96 on a 12-result
 * compare chart). */
static void hatch(cairo_t *cr, DmkRect r, double a, double gap)
{
    double cx = r.x + r.w / 2, cy = r.y + r.h / 2;
    double reach = hypot(r.w, r.h) / 2 + gap;
    double dx = cos(a), dy = sin(a);
    for (double o = -reach; o <= reach; o += gap) {
        double px = cx - dy * o, py = cy + dx * o, t0 = -reach, t1 = reach;
        if (!clip_line(r, px, py, dx, dy, &t0, &t1))
            continue;
        cairo_move_to(cr, px + dx * t0, py + dy * t0);
        cairo_line_to(cr, px + dx * t1, py + dy * t1);
    }
}

static void bar_pattern(cairo_t *cr, size_t k, DmkRect r, double unit)
{
    double gap = unit * 0.5;
    switch (k) {
    case 1:
        hatch(cr, r, -DMK_CHART_PI / 4, gap);
        break;
    case 2:
        hatch(cr, r, 0, gap * 0.8);
        break;
    case 3:
        hatch(cr, r, DMK_CHART_PI / 4, gap);
        break;
    case 4:
        hatch(cr, r, DMK_CHART_PI / 4, gap * 1.2);
        hatch(cr, r, -DMK_CHART_PI / 4, gap * 1.2);
        break;
    case 5:
        hatch(cr, r, DMK_CHART_PI / 2, gap * 0.8);
        break;
    case 6:
        hatch(cr, r, 0, gap);
        hatch(cr, r, DMK_CHART_PI / 2, gap);
        break;
    case 7:
        hatch(cr, r, -DMK_CHART_PI / 6, gap * 0.6);
        break;
    default:
        return;
    }
}

void dmk_chart_draw_bar(cairo_t *cr, size_t i, DmkRect r, double unit)
{
    size_t k = i % DMK_CHART_DISTINCT_SERIES;
    cairo_save(cr);
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    dmk_chart_set_series_colour(cr, i, 1);
    cairo_fill(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* Inset by half a hatch line: a line's corners stay inside the bar. */
    double lw = unit * 0.12;
    DmkRect in = {r.x + lw / 2, r.y + lw / 2, r.w - lw, r.h - lw};
    if (in.w > 0 && in.h > 0)
        bar_pattern(cr, k, in, unit);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
    cairo_set_line_width(cr, lw);
    cairo_stroke(cr);
    cairo_restore(cr);
}
