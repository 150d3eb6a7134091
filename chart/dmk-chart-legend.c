/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The legend: one entry per series, flowing left to right in rows between
 * the titles and the plot, where it can never hide a data point. Each
 * entry shows the series as drawn (dash and marker, or hatched swatch). */
#include "dmk-chart-private.h"

#include <math.h>

typedef struct {
    double sample_w, gap, spacing, row_h, max_text_w;
} LegendMetrics;

static LegendMetrics legend_metrics(const DmkChartCtx *c, double max_w)
{
    LegendMetrics lm;
    lm.sample_w = c->m->kind == DMK_CHART_LINES ? c->font * 2.8 : c->font * 1.1;
    lm.gap = c->font * 0.45;
    lm.spacing = c->font * 1.6;
    lm.row_h = c->font * 1.6;
    /* A name is cut only when it alone is wider than a row: in a narrow
     * chart (the Lab tab's "All" cells) the entries take a row each
     * rather than losing their words. */
    lm.max_text_w = fmax(c->font * 4, max_w - lm.sample_w - lm.gap);
    return lm;
}

/* A scatter's sample: three dots in a row, legible whatever size the
 * plot's dots had to shrink to. */
static void legend_dots(DmkChartCtx *c, size_t look, double x, double y_mid,
                        const LegendMetrics *lm)
{
    double r = c->font * 0.21;
    for (int k = 0; k < 3; k++)
        dmk_chart_draw_dot(c->cr, look, x + lm->sample_w * (0.18 + 0.32 * k), y_mid, r, 0.9);
}

static void legend_one_sample(DmkChartCtx *c, size_t i, double x, double y_mid,
                              const LegendMetrics *lm);

/* Series i's sample, with those of the series merged into its entry. */
static void legend_sample(DmkChartCtx *c, size_t i, double x, double y_mid, const LegendMetrics *lm)
{
    legend_one_sample(c, i, x, y_mid, lm);
    for (size_t k = i + 1; k < c->m->n_series && c->m->series[k].legend_with_previous; k++)
        legend_one_sample(c, k, x, y_mid, lm);
}

/* Does series i have a legend entry? Bars always do. */
static bool has_entry(const DmkChartCtx *c, size_t i)
{
    return i == 0 || c->m->kind == DMK_CHART_BARS || !c->m->series[i].legend_with_previous;
}

static void legend_one_sample(DmkChartCtx *c, size_t i, double x, double y_mid,
                              const LegendMetrics *lm)
{
    cairo_t *cr = c->cr;
    size_t look = dmk_chart_look(c->m, i);
    if (c->m->kind == DMK_CHART_BARS) {
        double s = lm->sample_w;
        DmkRect r = {x, y_mid - s / 2, s, s};
        dmk_chart_draw_bar(cr, look, r, c->font);
        return;
    }
    if (c->m->series[i].style == DMK_SERIES_DOTS) {
        legend_dots(c, look, x, y_mid, lm);
        return;
    }
    double lw = c->font * 0.18;
    cairo_save(cr);
    dmk_chart_set_series_colour(cr, look, 1);
    cairo_set_line_width(cr, lw);
    if (!c->m->series[i].solid)
        dmk_chart_set_series_dash(cr, look, lw);
    cairo_move_to(cr, x, y_mid);
    cairo_line_to(cr, x + lm->sample_w, y_mid);
    cairo_stroke(cr);
    cairo_restore(cr);
    if (dmk_chart_series_marked(c, i))
        dmk_chart_draw_marker(cr, look, x + lm->sample_w / 2, y_mid, c->font * 0.36);
}

/* Entry i's text, cut to fit. */
static double entry_text(DmkChartCtx *c, size_t i, const LegendMetrics *lm, char *buf, size_t len)
{
    dmk_chart_ellipsize(c->cr, c->m->series[i].name, lm->max_text_w, buf, len);
    return dmk_chart_text_width(c->cr, buf);
}

/* Entries that fit on the row starting at `first`, and the row's width. */
static size_t row_span(DmkChartCtx *c, size_t first, double max_w, const LegendMetrics *lm,
                       double *row_w)
{
    char buf[256];
    size_t i = first;
    double w = 0;
    for (; i < c->m->n_series; i++) {
        if (!has_entry(c, i))
            continue;
        double ew = lm->sample_w + lm->gap + entry_text(c, i, lm, buf, sizeof buf);
        double add = (i > first ? lm->spacing : 0) + ew;
        if (i > first && w + add > max_w)
            break;
        w += add;
    }
    *row_w = w;
    return i;
}

static double legend_flow(DmkChartCtx *c, double max_w, bool draw)
{
    LegendMetrics lm = legend_metrics(c, max_w);
    dmk_chart_font(c->cr, c->font * 0.95, DMK_TEXT_REGULAR);
    double y = c->legend_y;
    char buf[256];
    for (size_t first = 0; first < c->m->n_series;) {
        double row_w;
        size_t end = row_span(c, first, max_w, &lm, &row_w);
        /* Centred over the plot where the row fits there. */
        double cx = row_w <= c->plot.w ? c->plot.x + c->plot.w / 2 : c->width / 2;
        double x = cx - row_w / 2;
        for (size_t i = first; draw && i < end; i++) {
            if (!has_entry(c, i))
                continue;
            double tw = entry_text(c, i, &lm, buf, sizeof buf);
            legend_sample(c, i, x, y + lm.row_h / 2, &lm);
            dmk_chart_font(c->cr, c->font * 0.95, DMK_TEXT_REGULAR);
            dmk_chart_set_grey(c->cr, 0.15);
            dmk_chart_text(c->cr, x + lm.sample_w + lm.gap, y + lm.row_h / 2, 0, 0.5, buf);
            x += lm.sample_w + lm.gap + tw + lm.spacing;
        }
        y += lm.row_h;
        first = end;
    }
    return y - c->legend_y;
}

double dmk_chart_legend_measure(DmkChartCtx *c, double max_w)
{
    return legend_flow(c, max_w, false);
}

void dmk_chart_legend_draw(DmkChartCtx *c)
{
    legend_flow(c, c->width - 2 * c->pad, true);
}
