/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Grouped bars: a group per category (a test and direction, such as
 * "SEQ1M Q8T1 Read"), a bar per series (a drive), the value written above
 * each bar where it fits, so an article can quote the chart directly. */
#include "dmk-chart-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

double dmk_chart_bars_min(const DmkChartModel *m)
{
    double min = INFINITY;
    for (size_t s = 0; s < m->n_series; s++) {
        const DmkChartSeries *ser = &m->series[s];
        for (size_t j = 0; j < bar_count(m, ser); j++)
            if (dmk_chart_value_ok(ser->points[j].y) && ser->points[j].y > 0)
                min = fmin(min, ser->points[j].y);
    }
    return min;
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

/* ---- value labels ---------------------------------------------------------
 * Written at their bars, never over one another: all level above their
 * bars when every one fits so; else all upright (read upwards), above
 * the bar or inside its top, in a smaller size where the bars are narrow;
 * a label that still has no free place is left out (the window's table
 * and the CSV have every number), never drawn over a neighbour's. */

typedef struct {
    DmkRect bar;
    double v;
} BarValue;

static bool boxes_meet(DmkRect a, DmkRect b, double margin)
{
    return a.x < b.x + b.w + margin && b.x < a.x + a.w + margin && a.y < b.y + b.h + margin &&
           b.y < a.y + a.h + margin;
}

static bool box_free(const DmkChartCtx *c, DmkRect box)
{
    for (size_t i = 0; i < c->n_placed; i++)
        if (boxes_meet(box, c->placed[i], c->tick_font * 0.15))
            return false;
    /* Not into the legend or the title above the plot. */
    return box.y >= c->plot.y - c->tick_font * 0.6 && c->n_placed < DMK_CHART_MAX_LABELS;
}

static void place(DmkChartCtx *c, DmkRect box)
{
    c->placed[c->n_placed++] = box;
    DmkChartProbe *p = c->probe;
    if (p && p->labels && p->n_labels < p->max_labels)
        p->labels[p->n_labels++] = (DmkChartBox){box.x, box.y, box.w, box.h};
}

static double label_font(const DmkChartCtx *c)
{
    return c->tick_font * 0.9;
}

/* Level above the bar in size fs; false (nothing drawn) when any does
 * not fit. */
static bool level_boxes(DmkChartCtx *c, const BarValue *bv, size_t n, double fs, DmkRect *boxes)
{
    cairo_t *cr = c->cr;
    char buf[64];
    dmk_chart_font(cr, fs, DMK_TEXT_REGULAR);
    double lh = dmk_chart_line_height(cr), gap = c->tick_font * 0.25;
    c->n_placed = 0;
    for (size_t i = 0; i < n; i++) {
        dmk_chart_format_value(bv[i].v, buf, sizeof buf);
        double tw = dmk_chart_text_width(cr, buf);
        DmkRect b = bv[i].bar;
        boxes[i] = (DmkRect){b.x + b.w / 2 - tw / 2, b.y - gap - lh, tw, lh};
        if (!box_free(c, boxes[i]))
            return false;
        c->placed[c->n_placed++] = boxes[i];
    }
    return true;
}

static void draw_level(DmkChartCtx *c, const BarValue *bv, size_t n, double fs,
                       const DmkRect *boxes)
{
    char buf[64];
    c->n_placed = 0;
    dmk_chart_font(c->cr, fs, DMK_TEXT_REGULAR);
    dmk_chart_set_grey(c->cr, 0.2);
    for (size_t i = 0; i < n; i++) {
        dmk_chart_format_value(bv[i].v, buf, sizeof buf);
        dmk_chart_text(c->cr, boxes[i].x, boxes[i].y, 0, 0, buf);
        place(c, boxes[i]);
    }
}

/* Upright labels' size: a line of text as wide as the narrowest bar's
 * slot, down to a size still legible; below that some are left out. */
static double upright_font(DmkChartCtx *c, const BarValue *bv, size_t n)
{
    double slot = INFINITY;
    for (size_t i = 0; i < n; i++)
        slot = fmin(slot, bv[i].bar.w);
    dmk_chart_font(c->cr, label_font(c), DMK_TEXT_REGULAR);
    double per_unit = dmk_chart_line_height(c->cr) / label_font(c);
    return fmax(c->tick_font * 0.7, fmin(label_font(c), slot * 1.05 / per_unit));
}

static void draw_upright(DmkChartCtx *c, const BarValue *bv, double fs)
{
    cairo_t *cr = c->cr;
    char buf[64];
    dmk_chart_format_value(bv->v, buf, sizeof buf);
    dmk_chart_font(cr, fs, DMK_TEXT_REGULAR);
    double tw = dmk_chart_text_width(cr, buf), lh = dmk_chart_line_height(cr);
    double gap = c->tick_font * 0.25;
    DmkRect b = bv->bar;
    double cx = b.x + b.w / 2;
    DmkRect above = {cx - lh / 2, b.y - gap - tw, lh, tw};
    DmkRect inside = {cx - lh / 2, b.y + gap, lh, tw};
    bool up = box_free(c, above);
    /* Inside only where the text fits the bar. */
    if (!up && !(b.h >= tw + 2 * gap && b.w >= lh * 0.9 && box_free(c, inside)))
        return;
    place(c, up ? above : inside);
    if (!up) {
        /* Hatching would cross the text: a band of translucent ink under
         * it, which tints the bar (its length still shows) and carries
         * text in the paper's colour. */
        dmk_chart_set_grey(cr, 0);
        cairo_save(cr);
        cairo_rectangle(cr, b.x, inside.y - gap * 0.5, b.w, inside.h + gap);
        cairo_clip(cr);
        cairo_paint_with_alpha(cr, 0.5);
        cairo_restore(cr);
    }
    cairo_save(cr);
    cairo_translate(cr, cx, up ? b.y - gap : b.y + gap);
    cairo_rotate(cr, -DMK_CHART_PI / 2);
    if (up)
        dmk_chart_set_grey(cr, 0.2);
    else
        dmk_chart_set_paper(cr, 1);
    dmk_chart_text(cr, 0, 0, up ? 0 : 1, 0.5, buf);
    cairo_restore(cr);
}

static void draw_values(DmkChartCtx *c, const BarValue *bv, size_t n)
{
    DmkRect *boxes = malloc((n ? n : 1) * sizeof *boxes);
    if (!boxes)
        return;
    /* Level reads best: a size or two smaller before turning upright. */
    double fs = label_font(c);
    bool level = false;
    for (int k = 0; k < 3 && !level && n <= DMK_CHART_MAX_LABELS; k++)
        level = level_boxes(c, bv, n, fs = label_font(c) * (1 - 0.1 * k), boxes);
    if (level) {
        draw_level(c, bv, n, fs, boxes);
    } else {
        c->n_placed = 0;
        fs = upright_font(c, bv, n);
        for (size_t i = 0; i < n; i++)
            draw_upright(c, &bv[i], fs);
    }
    free(boxes);
}

/* Draws group j's bars, adding each to bv (n of them so far). */
static void draw_group(DmkChartCtx *c, size_t j, double gx, double gw, BarValue *bv, size_t *n)
{
    const DmkChartModel *m = c->m;
    size_t ns = m->n_series;
    /* Bars wider than a few letters only look heavy. */
    double bw = fmin(gw * 0.82 / (double)ns, c->font * 5);
    double x0 = gx + (gw - bw * (double)ns) / 2;
    double inset = fmin(bw * 0.06, 1.5);
    double base = c->plot.y + c->plot.h;
    DmkChartProbe *p = c->probe;
    for (size_t s = 0; s < ns; s++) {
        const DmkChartSeries *ser = &m->series[s];
        if (j >= bar_count(m, ser) || !dmk_chart_y_ok(c, ser->points[j].y))
            continue;
        double v = ser->points[j].y;
        double top = c->plot.y + c->plot.h * (1 - dmk_chart_axis_map(&c->y, v));
        DmkRect bar = {x0 + bw * (double)s + inset, top, bw - 2 * inset, base - top};
        dmk_chart_draw_bar(c->cr, dmk_chart_look(m, s), bar, c->font);
        if (bv)
            bv[(*n)++] = (BarValue){bar, v};
        if (p && p->bars && p->n_bars < p->max_bars)
            p->bars[p->n_bars++] = (DmkChartBox){bar.x, bar.y, bar.w, bar.h};
    }
    draw_category(c, j, gx + gw / 2, gw);
}

void dmk_chart_bars_draw(DmkChartCtx *c)
{
    size_t nc = c->m->n_categories;
    double gw = c->plot.w / (double)nc;
    /* Labels after all bars, so each sees every neighbour's place. */
    BarValue *bv = malloc((nc * c->m->n_series + 1) * sizeof *bv);
    size_t n = 0;
    for (size_t j = 0; j < nc; j++)
        draw_group(c, j, c->plot.x + gw * (double)j, gw, bv, &n);
    if (bv)
        draw_values(c, bv, n);
    free(bv);
}
