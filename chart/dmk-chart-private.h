/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the chart renderer's files share: layout, axes, text and style
 * helpers. Not installed, not for callers: they use dmk-chart.h. */
#ifndef DMK_CHART_PRIVATE_H
#define DMK_CHART_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "dmk-chart.h"

#define DMK_CHART_MAX_TICKS 64
/* Value labels one chart writes at most: 12 results x 12 tests is 144. */
#define DMK_CHART_MAX_LABELS 512
/* M_PI is POSIX's XSI, not C11's. */
#define DMK_CHART_PI 3.14159265358979323846

typedef struct {
    double x, y, w, h;
} DmkRect;

/* One axis in "axis units": the value itself on a linear axis, log2 of it
 * on a log2 axis, so drawing code maps every axis the same way. */
typedef struct {
    DmkAxisScale scale;
    DmkTickFormat format;
    double lo, hi;
    double ticks[DMK_CHART_MAX_TICKS];
    size_t n_ticks;
    double step;     /* linear: tick spacing; used to pick decimals */
    int label_every; /* label every n-th tick when labels would collide */
} DmkAxis;

/* Everything one render call works with. Sizes are in the caller's user
 * units (logical pixels on screen and in PNGs, points in PDF and SVG). */
typedef struct {
    cairo_t *cr;
    const DmkChartModel *m;
    double width, height;
    double font; /* base text size, scaled with the chart's size */
    double pad;  /* outer margin */
    DmkRect plot;
    DmkAxis x, y;
    DmkAxis y2;       /* the right axis, when has_y2 */
    bool has_y2;      /* a series is on the right axis */
    bool x_fixed;     /* the model fixes x: clip the plot */
    double tick_font; /* tick, category and value labels */
    double x_band;    /* height of the labels under the plot */
    bool cat_rotated; /* bars: category labels slanted, not wrapped */
    bool no_markers;  /* lines: points too dense for markers */
    double dot_r;     /* dots: radius and opacity for the densest dotted series */
    double dot_alpha;
    double screen_scale; /* DmkChartStyle's: 0 but for a window's frame */
    double legend_y;     /* top of the legend block */
    double legend_h;
    DmkChartProbe *probe; /* NULL but for dmk_chart_probe */
    /* The value labels placed so far, so no label is drawn over another
     * (dmk-chart-bars.c); beyond the capacity labels are left out. */
    DmkRect placed[DMK_CHART_MAX_LABELS];
    size_t n_placed;
} DmkChartCtx;

/* dmk-chart.c */
bool dmk_chart_value_ok(double v);
/* A value the left axis can show: on a log axis a zero cannot. */
bool dmk_chart_y_ok(const DmkChartCtx *c, double v);
bool dmk_chart_x_ok(const DmkChartModel *m, double x);
bool dmk_chart_x_fixed(const DmkChartModel *m);
/* The look (colour, marker, dash) series s is drawn with: dmk-chart.h's look. */
size_t dmk_chart_look(const DmkChartModel *m, size_t s);

/* dmk-chart-text.c */
typedef enum { DMK_TEXT_REGULAR, DMK_TEXT_BOLD } DmkTextWeight;
void dmk_chart_font(cairo_t *cr, double size, DmkTextWeight weight);
double dmk_chart_text_width(cairo_t *cr, const char *s);
/* Draws s with its box anchored at (x, y): ha/va 0 = left/top, 0.5 =
 * centre, 1 = right/bottom. The box's height is the font's ascent plus
 * descent, so labels of one font line up whatever their letters. */
void dmk_chart_text(cairo_t *cr, double x, double y, double ha, double va, const char *s);
/* s, cut at a UTF-8 boundary and ended with an ellipsis to fit max_w. */
void dmk_chart_ellipsize(cairo_t *cr, const char *s, double max_w, char *out, size_t len);
double dmk_chart_line_height(cairo_t *cr);

/* dmk-chart-format.c: locale-independent numbers, "1,000" separators
 * (dmk_format_thousands, dmk-size.h) */
void dmk_chart_format_value(double v, char *buf, size_t len);
void dmk_chart_format_tick(const DmkAxis *a, double t, char *buf, size_t len);

/* dmk-chart-axes.c */
void dmk_chart_axis_y(DmkAxis *a, double max);
/* The log value axis over min..max (both > 0): whole decades, ticks at
 * 1, 2 and 5 of each, lo far enough under min that its bar shows. */
void dmk_chart_axis_y_log(DmkAxis *a, double min, double max);
/* Does the value axis of m, whose drawn values span min..max, go log? */
bool dmk_chart_wants_log(const DmkChartModel *m, double min, double max);
/* The right axis: `intervals` steps, so its ticks sit on the left axis's
 * gridlines, covering min..max (from zero where that costs no room). */
void dmk_chart_axis_y2(DmkAxis *a, double min, double max, size_t intervals);
void dmk_chart_axis_x(DmkAxis *a, DmkAxisScale scale, DmkTickFormat format, double min, double max);
/* Linear x over exactly lo..hi (a zoom), ticks at the 1-2-5 steps inside. */
void dmk_chart_axis_x_fixed(DmkAxis *a, DmkTickFormat format, double lo, double hi);
double dmk_chart_axis_map(const DmkAxis *a, double v); /* value -> 0..1 */
double dmk_chart_tick_value(const DmkAxis *a, double t);
bool dmk_chart_tick_labelled(const DmkAxis *a, size_t i);
void dmk_chart_axis_fit_labels(DmkChartCtx *c, DmkAxis *a, double length);
/* The value axis: on a log one, which ticks get labels for its length. */
void dmk_chart_axis_fit_y(DmkChartCtx *c, DmkAxis *a, double length);
double dmk_chart_y_labels_width(DmkChartCtx *c, const DmkAxis *a);
void dmk_chart_draw_grid(DmkChartCtx *c, bool vertical);
void dmk_chart_draw_axes(DmkChartCtx *c, bool x_labels);
double dmk_chart_snap(cairo_t *cr, double v, double line_w);

/* dmk-chart-style.c: colour, dash, marker and hatch per series, so series
 * stay apart on colour screens, for colour-blind readers and in grey. */
void dmk_chart_set_series_colour(cairo_t *cr, size_t i, double alpha);
void dmk_chart_set_series_dash(cairo_t *cr, size_t i, double line_w);
void dmk_chart_draw_marker(cairo_t *cr, size_t i, double x, double y, double r);
void dmk_chart_draw_dot(cairo_t *cr, size_t i, double x, double y, double r, double alpha);
void dmk_chart_draw_bar(cairo_t *cr, size_t i, DmkRect r, double unit);
/* level is the light theme's grey, 0 ink to 1 paper; on a dark chart the
 * same level is the same contrast against its dark paper. The palette is
 * the cairo_t's for the render (dmk_chart_style_begin), so helpers that
 * get only cr draw in the right theme. */
void dmk_chart_set_grey(cairo_t *cr, double level);
void dmk_chart_set_paper(cairo_t *cr, double alpha); /* the background colour */
void dmk_chart_style_begin(cairo_t *cr, const DmkChartStyle *style);
void dmk_chart_style_end(cairo_t *cr);

/* dmk-chart-legend.c */
double dmk_chart_legend_measure(DmkChartCtx *c, double max_w);
void dmk_chart_legend_draw(DmkChartCtx *c);

/* dmk-chart-lines.c / dmk-chart-bars.c */
typedef struct {
    double xmin, xmax; /* every drawable point */
    double ymax;       /* of the left axis's points */
    double y2min, y2max;
    bool any, right; /* something to draw; something on the right axis */
} DmkLinesRange;
bool dmk_chart_lines_range(const DmkChartModel *m, DmkLinesRange *r);
/* Sets no_markers and the dots' size for the plot's width. */
void dmk_chart_lines_density(DmkChartCtx *c);
/* Does series s draw markers (and so show one in the legend)? */
bool dmk_chart_series_marked(const DmkChartCtx *c, size_t s);
void dmk_chart_lines_draw(DmkChartCtx *c);

/* Where series s's point p goes in the plot, in user units. */
void dmk_chart_place(const DmkChartCtx *c, size_t s, const DmkChartPoint *p, double *x, double *y);

/* Dots are stroked (and painted, dmk-chart-dots.c) this many at a time:
 * the dots of a batch cover their union, the batches add up. */
#define DMK_CHART_DOT_BATCH 32

/* dmk-chart-dots.c: series s's n points as dots, painted as one image at
 * the screen's resolution (c->screen_scale > 0). false when that could
 * not be done (no memory, a resolution of nothing): the caller strokes
 * them. */
bool dmk_chart_dots_image(DmkChartCtx *c, size_t s, const DmkChartPoint *p, size_t n);
bool dmk_chart_bars_range(const DmkChartModel *m, double *ymax);
/* The smallest value above zero on the left axis; INFINITY for none. */
double dmk_chart_bars_min(const DmkChartModel *m);
double dmk_chart_lines_min(const DmkChartModel *m);
double dmk_chart_bars_labels_height(DmkChartCtx *c, double plot_w);
void dmk_chart_bars_draw(DmkChartCtx *c);

#endif
