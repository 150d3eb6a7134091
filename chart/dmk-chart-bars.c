/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Grouped bars: a group per category (a test and direction, such as
 * "SEQ1M Q8T1 Read"), a bar per series (a drive), the value written above
 * each bar where it fits, so an article can quote the chart directly. */
#include "dmk-chart-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_LABEL_LINES 3
#define SLANT           (DMK_CHART_PI / 4)

static size_t bar_count(const DmkChartModel *m, const DmkChartSeries *s)
{
    if (!s->points)
        return 0;
    return s->n < m->n_categories ? s->n : m->n_categories;
}

bool dmk_chart_bars_range(const DmkChartModel *m, double *ymax)
{
    bool any = false;
    *ymax = 0;
    for (size_t s = 0; s < m->n_series; s++) {
        const DmkChartSeries *ser = &m->series[s];
        for (size_t j = 0; j < bar_count(m, ser); j++) {
            if (!dmk_chart_value_ok(ser->points[j].y))
                continue;
            any = true;
            *ymax = fmax(*ymax, ser->points[j].y);
        }
    }
    return any;
}

static const char *category(const DmkChartModel *m, size_t j)
{
    if (!m->categories || !m->categories[j])
        return "";
    return m->categories[j];
}

/* Greedy word wrap of s into lines no wider than max_w. Returns the
 * number of lines, or 0 when a word alone is too wide or more than
 * MAX_LABEL_LINES lines would be needed. */
static int wrap_label(cairo_t *cr, const char *s, double max_w, char lines[][128])
{
    int n = 0;
    char word[128];
    lines[0][0] = '\0';
    while (*s) {
        size_t len = strcspn(s, " ");
        snprintf(word, sizeof word, "%.*s", (int)len, s);
        s += len;
        s += strspn(s, " ");
        if (dmk_chart_text_width(cr, word) > max_w)
            return 0;
        char joined[128];
        int jl = snprintf(joined, sizeof joined, "%s%s%s", lines[n], lines[n][0] ? " " : "", word);
        if (jl < (int)sizeof joined && dmk_chart_text_width(cr, joined) <= max_w) {
            memcpy(lines[n], joined, (size_t)jl + 1);
            continue;
        }
        if (++n >= MAX_LABEL_LINES)
            return 0;
        snprintf(lines[n], 128, "%s", word);
    }
    return n + 1;
}

/* A slanted label may take up to 40 % of the height, and must not run
 * off the left edge of the chart. */
static double slanted_max_w(const DmkChartCtx *c, double cx)
{
    return fmax(c->font * 3, fmin(c->height * 0.4, (cx - c->pad) / cos(SLANT)));
}

double dmk_chart_bars_labels_height(DmkChartCtx *c, double plot_w)
{
    const DmkChartModel *m = c->m;
    cairo_t *cr = c->cr;
    double gw = plot_w / (double)(m->n_categories ? m->n_categories : 1);
    dmk_chart_font(cr, c->tick_font, DMK_TEXT_REGULAR);
    double lh = dmk_chart_line_height(cr);
    char lines[MAX_LABEL_LINES][128];
    int most = 1;
    double widest = 0;
    c->cat_rotated = false;
    for (size_t j = 0; j < m->n_categories; j++) {
        int n = wrap_label(cr, category(m, j), gw * 0.97, lines);
        if (n == 0)
            c->cat_rotated = true;
        most = n > most ? n : most;
        widest = fmax(widest, dmk_chart_text_width(cr, category(m, j)));
    }
    if (!c->cat_rotated)
        return most * lh + c->tick_font * 0.6;
    widest = fmin(widest, slanted_max_w(c, c->width));
    return widest * sin(SLANT) + lh * cos(SLANT) + c->tick_font * 0.8;
}

static void draw_category(DmkChartCtx *c, size_t j, double cx, double gw)
{
    cairo_t *cr = c->cr;
    double top = c->plot.y + c->plot.h + c->tick_font * 0.5;
    dmk_chart_font(cr, c->tick_font, DMK_TEXT_REGULAR);
    dmk_chart_set_grey(cr, 0.2);
    if (c->cat_rotated) {
        char buf[256];
        dmk_chart_ellipsize(cr, category(c->m, j), slanted_max_w(c, cx), buf, sizeof buf);
        cairo_save(cr);
        cairo_translate(cr, cx, top);
        cairo_rotate(cr, -SLANT);
        dmk_chart_text(cr, 0, 0, 1, 0.3, buf);
        cairo_restore(cr);
        return;
    }
    char lines[MAX_LABEL_LINES][128];
    int n = wrap_label(cr, category(c->m, j), gw * 0.97, lines);
    double lh = dmk_chart_line_height(cr);
    for (int k = 0; k < n; k++)
        dmk_chart_text(cr, cx, top + k * lh, 0.5, 0, lines[k]);
}

/* The value over its bar: level if it fits, upright if the bar is wide
 * enough for a line of text, else left out rather than overlapping. */
static void draw_value(DmkChartCtx *c, DmkRect bar, double v)
{
    cairo_t *cr = c->cr;
    char buf[64];
    dmk_chart_format_value(v, buf, sizeof buf);
    dmk_chart_font(cr, c->tick_font * 0.9, DMK_TEXT_REGULAR);
    double tw = dmk_chart_text_width(cr, buf), lh = dmk_chart_line_height(cr);
    double gap = c->tick_font * 0.25;
    dmk_chart_set_grey(cr, 0.2);
    if (tw <= bar.w + c->tick_font * 0.3) {
        dmk_chart_text(cr, bar.x + bar.w / 2, bar.y - gap, 0.5, 1, buf);
        return;
    }
    if (bar.w < lh * 0.85)
        return;
    bool inside = bar.y - gap - tw < c->plot.y - c->tick_font * 0.5;
    if (inside && bar.h < tw + 2 * gap)
        return;
    cairo_save(cr);
    cairo_translate(cr, bar.x + bar.w / 2, inside ? bar.y + gap : bar.y - gap);
    cairo_rotate(cr, -DMK_CHART_PI / 2);
    if (inside)
        cairo_set_source_rgb(cr, 1, 1, 1);
    dmk_chart_text(cr, 0, 0, inside ? 1 : 0, 0.5, buf);
    cairo_restore(cr);
}

static void draw_group(DmkChartCtx *c, size_t j, double gx, double gw)
{
    const DmkChartModel *m = c->m;
    size_t ns = m->n_series;
    /* Bars wider than a few letters only look heavy. */
    double bw = fmin(gw * 0.82 / (double)ns, c->font * 5);
    double x0 = gx + (gw - bw * (double)ns) / 2;
    double inset = fmin(bw * 0.06, 1.5);
    double base = c->plot.y + c->plot.h;
    for (size_t s = 0; s < ns; s++) {
        const DmkChartSeries *ser = &m->series[s];
        if (j >= bar_count(m, ser) || !dmk_chart_value_ok(ser->points[j].y))
            continue;
        double v = ser->points[j].y;
        double top = c->plot.y + c->plot.h * (1 - dmk_chart_axis_map(&c->y, v));
        DmkRect bar = {x0 + bw * (double)s + inset, top, bw - 2 * inset, base - top};
        dmk_chart_draw_bar(c->cr, dmk_chart_look(m, s), bar, c->font);
        draw_value(c, bar, v);
    }
    draw_category(c, j, gx + gw / 2, gw);
}

void dmk_chart_bars_draw(DmkChartCtx *c)
{
    size_t nc = c->m->n_categories;
    double gw = c->plot.w / (double)nc;
    for (size_t j = 0; j < nc; j++)
        draw_group(c, j, c->plot.x + gw * (double)j, gw);
}
