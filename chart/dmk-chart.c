/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The chart renderer's entry point: lays the chart out (titles, legend,
 * axes, plot) from the size it is given, so one model looks the same on
 * screen, in a 1x or 2x PNG, in SVG and in PDF. */
#include "dmk-chart-private.h"
#include "dmk-i18n.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void dmk_chart_model_init(DmkChartModel *m)
{
    memset(m, 0, sizeof *m);
    m->kind = DMK_CHART_LINES;
    m->x_scale = DMK_AXIS_LINEAR;
    m->x_ticks = DMK_TICKS_NUMBER;
}

bool dmk_chart_value_ok(double v)
{
    return isfinite(v) && v >= 0;
}

bool dmk_chart_y_ok(const DmkChartCtx *c, double v)
{
    return dmk_chart_value_ok(v) && (c->y.scale != DMK_AXIS_LOG10 || v > 0);
}

const DmkValueScaleInfo dmk_value_scales[] = {
    /* Marked only: the window shows the labels translated; the CLI's help
     * and the man pages keep the English. */
    {DMK_VALUE_AUTO, "auto", DMK_N_("Auto scale"),
     "log where the largest value is over 50 times the smallest, else linear"},
    {DMK_VALUE_LINEAR, "linear", DMK_N_("Linear scale"), "linear from zero"},
    {DMK_VALUE_LOG, "log", DMK_N_("Log scale"), "logarithmic, ticks at 1, 2 and 5 of each decade"},
};
const size_t dmk_value_scale_count = sizeof dmk_value_scales / sizeof dmk_value_scales[0];

bool dmk_value_scale_from_name(const char *name, DmkValueScale *out)
{
    for (size_t i = 0; name && i < dmk_value_scale_count; i++)
        if (strcmp(name, dmk_value_scales[i].name) == 0) {
            *out = dmk_value_scales[i].scale;
            return true;
        }
    return false;
}

bool dmk_chart_x_ok(const DmkChartModel *m, double x)
{
    if (!isfinite(x))
        return false;
    return m->x_scale != DMK_AXIS_LOG2 || x > 0;
}

bool dmk_chart_x_fixed(const DmkChartModel *m)
{
    return m->kind == DMK_CHART_LINES && m->x_scale == DMK_AXIS_LINEAR && isfinite(m->x_min) &&
           isfinite(m->x_max) && m->x_min < m->x_max;
}

size_t dmk_chart_look(const DmkChartModel *m, size_t s)
{
    int k = m->series[s].look;
    return k > 0 ? (size_t)(k - 1) : s;
}

const char *dmk_chart_metric_title(const char *metric)
{
    static const struct {
        const char *name, *title;
    } titles[] = {
        /* The units themselves stay as they are: only the words are the
         * translator's. */
        {"mb_s", "MB/s (10^6 B/s)"},
        {"mib_s", "MiB/s (2^20 B/s)"},
        {"iops", "IOPS"},
        {"lat_mean_us", DMK_N_("Mean latency (us)")},
        {"lat_min_us", DMK_N_("Minimum latency (us)")},
        {"lat_max_us", DMK_N_("Maximum latency (us)")},
        {"lat_stddev_us", DMK_N_("Latency standard deviation (us)")},
        {"lat_p50_us", DMK_N_("Median latency (us)")},
        {"lat_p90_us", DMK_N_("90th percentile latency (us)")},
        {"lat_p99_us", DMK_N_("99th percentile latency (us)")},
        {"lat_p999_us", DMK_N_("99.9th percentile latency (us)")},
        {"lat_p9999_us", DMK_N_("99.99th percentile latency (us)")},
    };
    if (!metric)
        return "";
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (strcmp(metric, titles[i].name) == 0)
            return DMK_(titles[i].title);
    return metric;
}

/* Text and margins grow with the chart, within limits: 800x500 is the
 * design size; a small widget stays legible and a wall-sized one does
 * not shout. */
static void set_scale(DmkChartCtx *c)
{
    double u = fmin(c->width / 800, c->height / 500);
    u = fmax(0.75, fmin(1.6, u));
    c->font = 13 * u;
    c->tick_font = 11.5 * u;
    c->pad = 14 * u;
}

/* A header line's font: its size, or smaller down to `least` so that
 * the whole text fits a small chart (the Lab tab's "All" grid) before
 * anything is cut. */
static void fit_font(cairo_t *cr, const char *text, double size, double least, double max_w,
                     DmkTextWeight weight)
{
    dmk_chart_font(cr, size, weight);
    double w = dmk_chart_text_width(cr, text);
    if (w > max_w && w > 0)
        dmk_chart_font(cr, fmax(least, size * max_w / w * 0.98), weight);
}

/* Where a title too long for one line breaks: the last space whose
 * head fits max_w; 0 when it fits whole or has no such space. */
static size_t title_break(cairo_t *cr, const char *title, double max_w)
{
    if (dmk_chart_text_width(cr, title) <= max_w)
        return 0;
    char head[512];
    size_t best = 0;
    for (size_t i = 0; title[i] && i < sizeof head; i++) {
        if (title[i] != ' ')
            continue;
        snprintf(head, sizeof head, "%.*s", (int)i, title);
        if (dmk_chart_text_width(cr, head) > max_w)
            break;
        best = i;
    }
    return best;
}

/* A header line centred at y, broken in two at a word when too long for
 * max_w, cut only after that; returns the y below it. Its last line's box
 * goes to *box when given (the probe's title). */
static double draw_header_text(DmkChartCtx *c, const char *text, double y, double max_w,
                               DmkChartBox *box)
{
    cairo_t *cr = c->cr;
    char buf[512];
    size_t cut = title_break(cr, text, max_w);
    if (cut > 0) {
        snprintf(buf, sizeof buf, "%.*s", (int)cut, text);
        dmk_chart_text(cr, c->width / 2, y, 0.5, 0, buf);
        y += dmk_chart_line_height(cr);
    }
    dmk_chart_ellipsize(cr, text + cut + (cut > 0), max_w, buf, sizeof buf);
    dmk_chart_text(cr, c->width / 2, y, 0.5, 0, buf);
    if (box) {
        double w = dmk_chart_text_width(cr, buf);
        *box = (DmkChartBox){(c->width - w) / 2, y, w, dmk_chart_line_height(cr)};
    }
    return y + dmk_chart_line_height(cr);
}

/* Title and subtitle (the context line: drive, date, comment), each
 * shrunk, then broken in two, before any cut; returns the y below them. */
static double draw_header(DmkChartCtx *c)
{
    cairo_t *cr = c->cr;
    double y = c->pad * 0.9, max_w = c->width - 2 * c->pad;
    if (c->m && c->m->title[0]) {
        fit_font(cr, c->m->title, c->font * 1.4, c->font * 0.95, max_w, DMK_TEXT_BOLD);
        dmk_chart_set_grey(cr, 0.1);
        y = draw_header_text(c, c->m->title, y, max_w, c->probe ? &c->probe->title : NULL);
        y += c->font * 0.15;
    }
    if (c->m && c->m->subtitle[0]) {
        fit_font(cr, c->m->subtitle, c->font * 0.95, c->font * 0.75, max_w, DMK_TEXT_REGULAR);
        dmk_chart_set_grey(cr, 0.4);
        y = draw_header_text(c, c->m->subtitle, y, max_w, NULL);
    }
    return y;
}

static void draw_no_data(DmkChartCtx *c, double top)
{
    dmk_chart_font(c->cr, c->font * 1.3, DMK_TEXT_REGULAR);
    dmk_chart_set_grey(c->cr, 0.5);
    const char *text = c->m && c->m->no_data[0] ? c->m->no_data : DMK_("No data");
    char buf[256];
    dmk_chart_ellipsize(c->cr, text, c->width - 2 * c->pad, buf, sizeof buf);
    dmk_chart_text(c->cr, c->width / 2, (top + c->height) / 2, 0.5, 0.5, buf);
}

/* The data's extent; false when nothing is drawable. */
static bool data_range(DmkChartCtx *c, DmkLinesRange *r)
{
    const DmkChartModel *m = c->m;
    if (!m || !m->series || m->n_series == 0)
        return false;
    if (m->kind == DMK_CHART_BARS)
        return m->n_categories > 0 && dmk_chart_bars_range(m, &r->ymax);
    return dmk_chart_lines_range(m, r);
}

static double x_band_height(DmkChartCtx *c, double plot_w)
{
    if (c->m->kind == DMK_CHART_BARS)
        return dmk_chart_bars_labels_height(c, plot_w);
    dmk_chart_font(c->cr, c->tick_font, DMK_TEXT_REGULAR);
    return dmk_chart_line_height(c->cr) + c->tick_font * 1.1;
}

/* Room beside the plot for an axis's labels and its title. */
static double axis_margin(DmkChartCtx *c, const DmkAxis *a, const char *title)
{
    double w = c->pad + dmk_chart_y_labels_width(c, a) + c->tick_font * 0.6;
    if (title[0]) {
        dmk_chart_font(c->cr, c->font, DMK_TEXT_BOLD);
        w += dmk_chart_line_height(c->cr) + c->font * 0.5;
    }
    return w;
}

/* Room right of the plot for half of the last x label, and for the
 * right axis where there is one. */
static double right_margin(DmkChartCtx *c)
{
    double w = c->has_y2 ? axis_margin(c, &c->y2, c->m->y2_title) : c->pad;
    if (c->m->kind == DMK_CHART_BARS || c->x.n_ticks == 0)
        return w;
    char buf[64];
    dmk_chart_font(c->cr, c->tick_font, DMK_TEXT_REGULAR);
    dmk_chart_format_tick(&c->x, c->x.ticks[c->x.n_ticks - 1], buf, sizeof buf);
    return fmax(w, c->pad + dmk_chart_text_width(c->cr, buf) / 2);
}

static double left_margin(DmkChartCtx *c)
{
    return axis_margin(c, &c->y, c->m->y_title);
}

/* Places legend and plot below `top`. False when the chart is too small
 * to hold a plot. */
static bool layout(DmkChartCtx *c, double top)
{
    c->legend_y = top + c->font * 0.5;
    c->legend_h = dmk_chart_legend_measure(c, c->width - 2 * c->pad);
    c->plot.y = c->legend_y + c->legend_h + c->font * 0.9;
    c->plot.x = left_margin(c);
    c->plot.w = c->width - c->plot.x - right_margin(c);
    c->x_band = x_band_height(c, c->plot.w);
    double bottom = c->pad + c->x_band;
    if (c->m->x_title[0]) {
        dmk_chart_font(c->cr, c->font, DMK_TEXT_BOLD);
        bottom += dmk_chart_line_height(c->cr);
    }
    c->plot.h = c->height - bottom - c->plot.y;
    return c->plot.w >= c->font * 3 && c->plot.h >= c->font * 3;
}

/* The axes of a line chart: x fixed or fitting the data, the right axis
 * in step with the left one. */
static void lines_axes(DmkChartCtx *c, const DmkLinesRange *r)
{
    const DmkChartModel *m = c->m;
    c->x_fixed = dmk_chart_x_fixed(m);
    if (c->x_fixed)
        dmk_chart_axis_x_fixed(&c->x, m->x_ticks, m->x_min, m->x_max);
    else
        dmk_chart_axis_x(&c->x, m->x_scale, m->x_ticks, r->xmin, r->xmax);
    c->has_y2 = r->right;
    /* In step with the left axis's gridlines; a log one's are uneven, so
     * the right axis takes five even steps of its own. */
    size_t intervals = c->y.scale == DMK_AXIS_LOG10 ? 5 : c->y.n_ticks - 1;
    if (c->has_y2)
        dmk_chart_axis_y2(&c->y2, r->y2min, r->y2max, intervals);
}

static void probe_axes(DmkChartCtx *c)
{
    DmkChartProbe *p = c->probe;
    if (!p)
        return;
    p->y_log = c->y.scale == DMK_AXIS_LOG10;
    p->n_y_ticks = 0;
    for (size_t i = 0; i < c->y.n_ticks && i < sizeof p->y_ticks / sizeof p->y_ticks[0]; i++)
        p->y_ticks[p->n_y_ticks++] = dmk_chart_tick_value(&c->y, c->y.ticks[i]);
    p->plot = (DmkChartBox){c->plot.x, c->plot.y, c->plot.w, c->plot.h};
}

static void draw_chart(DmkChartCtx *c, double top)
{
    const DmkChartModel *m = c->m;
    DmkLinesRange r = {0};
    if (!data_range(c, &r)) {
        draw_no_data(c, top);
        return;
    }
    bool lines = m->kind == DMK_CHART_LINES;
    double ymin = lines ? dmk_chart_lines_min(m) : dmk_chart_bars_min(m);
    if (dmk_chart_wants_log(m, ymin, r.ymax))
        dmk_chart_axis_y_log(&c->y, ymin, r.ymax);
    else /* headroom above the highest value: bars carry a label there */
        dmk_chart_axis_y(&c->y, r.ymax * (lines ? 1.04 : 1.1));
    if (lines)
        lines_axes(c, &r);
    if (!layout(c, top))
        return;
    dmk_chart_axis_fit_y(c, &c->y, c->plot.h);
    probe_axes(c);
    if (lines) {
        dmk_chart_axis_fit_labels(c, &c->x, c->plot.w);
        dmk_chart_lines_density(c);
    }
    dmk_chart_draw_grid(c, lines);
    if (lines)
        dmk_chart_lines_draw(c);
    else
        dmk_chart_bars_draw(c);
    dmk_chart_draw_axes(c, lines);
    dmk_chart_legend_draw(c);
}

static void render(cairo_t *cr, double width, double height, const DmkChartModel *m,
                   const DmkChartStyle *style, DmkChartProbe *probe)
{
    if (!cr || cairo_status(cr) != CAIRO_STATUS_SUCCESS || !(width > 0) || !(height > 0))
        return;
    cairo_save(cr);
    dmk_chart_style_begin(cr, style);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_clip(cr);
    dmk_chart_set_paper(cr, 1);
    cairo_paint(cr);
    /* Unhinted metrics: text measures the same on every surface, so the
     * layout of an export matches the screen. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
    DmkChartCtx c = {.cr = cr,
                     .m = m,
                     .width = width,
                     .height = height,
                     .probe = probe,
                     .screen_scale = style && style->screen_scale > 0 ? style->screen_scale : 0};
    set_scale(&c);
    double top = draw_header(&c);
    draw_chart(&c, top);
    dmk_chart_style_end(cr);
    cairo_restore(cr);
}

void dmk_chart_render(cairo_t *cr, double width, double height, const DmkChartModel *m)
{
    render(cr, width, height, m, NULL, NULL);
}

void dmk_chart_render_styled(cairo_t *cr, double width, double height, const DmkChartModel *m,
                             const DmkChartStyle *style)
{
    render(cr, width, height, m, style, NULL);
}

void dmk_chart_probe(double width, double height, const DmkChartModel *m,
                     const DmkChartStyle *style, DmkChartProbe *probe)
{
    probe->n_labels = probe->n_bars = probe->n_y_ticks = 0;
    probe->y_log = false;
    probe->y_title[0] = '\0';
    probe->title = (DmkChartBox){0, 0, 0, 0};
    dmk_chart_paper_rgb(style, probe->background);
    cairo_rectangle_t extents = {0, 0, width, height};
    cairo_surface_t *s = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents);
    cairo_t *cr = cairo_create(s);
    render(cr, width, height, m, style, probe);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}
