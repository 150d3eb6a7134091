/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Charts for reviews: one Cairo renderer that knows nothing of GTK (nor
 * GLib, nor Pango), so the GUI's GtkDrawingArea and the headless
 * `drivemark-cli chart` draw the same pixels, and what a reviewer exports
 * is what they saw on screen.
 *
 * The model is plain C data that the caller owns; the renderer only reads
 * it during the call. Values that are NaN, infinite or negative are
 * skipped (a failed or missing measurement), never drawn as zero. */
#ifndef DMK_CHART_H
#define DMK_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include <cairo.h>

#include "dmk-error.h"

/* Series beyond this count still draw, but their colour, marker and dash
 * repeat, so they can no longer be told apart in grey-scale print. */
#define DMK_CHART_DISTINCT_SERIES 8

typedef enum {
    DMK_CHART_LINES, /* y vs x, a line per series (QD sweep, block-size sweep) */
    DMK_CHART_BARS,  /* grouped bars: a group per category, a bar per series */
} DmkChartKind;

typedef enum {
    DMK_AXIS_LINEAR,
    DMK_AXIS_LOG2,  /* ticks at the powers of two the data covers */
    DMK_AXIS_LOG10, /* the value axis on a log scale: ticks at 1, 2, 5 a decade */
} DmkAxisScale;

/* The value (left) axis. Linear is zero's value, so a model that says
 * nothing keeps the linear axis it always had. */
typedef enum {
    DMK_VALUE_LINEAR = 0,
    DMK_VALUE_LOG,  /* decades: a 4K Q1T1 bar stays visible beside SEQ1M Q8T1 */
    DMK_VALUE_AUTO, /* log where the values span decades (DMK_CHART_LOG_RATIO) */
} DmkValueScale;

/* Auto picks the log axis when the largest drawn value is more than this
 * many times the smallest: a linear axis then leaves the smallest bar a
 * couple of pixels high, too low to see or compare. */
#define DMK_CHART_LOG_RATIO 50.0

/* The names of the value scales, for options and menus: the one table. */
typedef struct {
    DmkValueScale scale;
    const char *name;  /* "auto", "linear", "log" */
    const char *label; /* "Auto scale", "Linear scale", "Log scale" */
    const char *help;
} DmkValueScaleInfo;
extern const DmkValueScaleInfo dmk_value_scales[];
extern const size_t dmk_value_scale_count;
/* The scale named name (case-sensitive); false when there is none. */
bool dmk_value_scale_from_name(const char *name, DmkValueScale *out);

typedef enum {
    DMK_TICKS_NUMBER, /* 1, 2, 4 ... 256; 1,000; 2.5 */
    DMK_TICKS_BYTES,  /* 512 B, 4 KiB, 1 MiB, 64 MiB (binary units) */
} DmkTickFormat;

typedef struct {
    double x, y;
} DmkChartPoint;

/* How a LINES series is drawn. */
typedef enum {
    DMK_SERIES_LINE = 0, /* points joined, with markers where they leave room */
    DMK_SERIES_DOTS,     /* a dot per point, no line: a timeline's samples as a scatter;
                          * many points get small translucent dots, so density shows */
} DmkSeriesStyle;

typedef enum {
    DMK_Y_LEFT = 0,
    DMK_Y_RIGHT, /* the model's second axis (y2_title): temperature beside speed */
} DmkYAxisSide;

/* A drive, or a saved result; or, in a review-lab chart, one quantity of
 * it (each sample's speed, their moving average, the temperature). All
 * fields after `points` zero: a line on the left axis, as before. */
typedef struct {
    char name[128];              /* legend text; ellipsized when too long */
    size_t n;                    /* LINES: number of points; BARS: should equal n_categories */
    const DmkChartPoint *points; /* LINES: (x, y); BARS: points[j].y is category j, x ignored */
    DmkSeriesStyle style;        /* LINES only */
    DmkYAxisSide axis;           /* LINES only */
    /* 0: colour, marker, dash (hatch) of its position in the model; k > 0:
     * those of position k - 1, so related series can share a colour. */
    int look;
    bool solid;    /* LINE: no dash, whatever the look (an average over its own dots) */
    bool in_order; /* LINE: joined in the given order, not sorted by x (a curve that
                    * turns back, as latency vs IOPS past saturation) */
    /* LINES: no legend entry of its own; drawn into the previous series'
     * entry, whose name covers both (a drive's dots and their average). */
    bool legend_with_previous;
} DmkChartSeries;

typedef struct {
    DmkChartKind kind;
    char title[256];       /* "Random 4 KiB read, IOPS vs queue depth" */
    char subtitle[256];    /* "" for none: date, profile, file size ... */
    char x_title[128];     /* "Queue depth (T1)", "Block size"; "" for none */
    char y_title[128];     /* with its unit: see dmk_chart_metric_title */
    char y2_title[128];    /* LINES: the right axis, drawn when a series uses it */
    DmkAxisScale x_scale;  /* LINES only */
    DmkTickFormat x_ticks; /* LINES only */
    /* LINES, linear x: x_min < x_max fixes the x axis to exactly that
     * range (a zoom on the start of a run): the y axes fit the points
     * inside it and what lies outside is clipped. Else x fits the data. */
    double x_min, x_max;
    /* What an empty chart says instead of "No data" ("No temperature
     * sensor"); "" for "No data". */
    char no_data[128];
    size_t n_categories; /* BARS: group labels, e.g. "SEQ1M Q8T1 Read" */
    const char *const *categories;
    size_t n_series;
    const DmkChartSeries *series;
    /* The left axis; the right one (y2) stays linear. On a log axis a zero
     * value has no place and is left out, as a missing one. */
    DmkValueScale y_scale;
} DmkChartModel;

/* Zeroes *m: LINES, linear x fitting the data, number ticks, no series. */
void dmk_chart_model_init(DmkChartModel *m);

/* Draws the whole chart (white background included) into the rectangle
 * (0, 0, width, height) of cr's user space; the caller picks the surface
 * and any device scale. Saves and restores cr's state. An empty model, or
 * one with no usable value, draws a centred "No data". */
void dmk_chart_render(cairo_t *cr, double width, double height, const DmkChartModel *m);

/* How the chart is painted: print-first light (white paper, dark ink),
 * or dark for a window in a dark theme. Exports are light unless asked. */
typedef enum {
    DMK_CHART_LIGHT = 0,
    DMK_CHART_DARK,
} DmkChartTheme;

typedef struct {
    DmkChartTheme theme;
    /* Device pixels per user unit of the frame a window's chart is drawn
     * for (GTK's scale factor), or 0 (exports, and any caller that does
     * not know): with it, a timeline's thousands of dots are painted as
     * one image at that resolution and a line through more points than
     * the plot has pixels is thinned to what the pixels show, which
     * costs a fraction of Cairo's stroking them one by one; without it,
     * every dot and point goes to the surface as a path, as an SVG or
     * PDF must keep them. */
    double screen_scale;
} DmkChartStyle;

/* dmk_chart_render with a style; NULL: light. */
void dmk_chart_render_styled(cairo_t *cr, double width, double height, const DmkChartModel *m,
                             const DmkChartStyle *style);
/* The colour a chart of style paints behind everything (its paper). */
void dmk_chart_paper_rgb(const DmkChartStyle *style, double rgb[3]);

/* For tests: what one render at width x height placed. Boxes are the
 * axis-aligned bounds of each drawn text (rotated ones included), in the
 * render's user units. The caller gives the arrays; counts stop at max. */
typedef struct {
    double x, y, w, h;
} DmkChartBox;

typedef struct {
    DmkChartBox *labels; /* the values written at bars */
    size_t max_labels, n_labels;
    DmkChartBox *bars; /* every bar drawn, in drawing order */
    size_t max_bars, n_bars;
    bool y_log;         /* the value axis was logarithmic */
    double y_ticks[64]; /* its tick values (not axis units) */
    size_t n_y_ticks;
    DmkChartBox plot;     /* the plot's rectangle */
    char y_title[256];    /* the value axis title as drawn */
    double background[3]; /* the colour painted behind everything */
    DmkChartBox title;    /* the title's text box; all zero when there is none */
} DmkChartProbe;

/* Lays the model out and draws it on a recording surface, filling probe. */
void dmk_chart_probe(double width, double height, const DmkChartModel *m,
                     const DmkChartStyle *style, DmkChartProbe *probe);

/* Renders to a file chosen by its extension, case-insensitive: ".png"
 * (width x height logical pixels times scale, e.g. 2 for a 2x image with
 * the 1x layout), ".svg" (width x height px) or ".pdf" (width x height
 * points); scale is ignored for SVG and PDF. Returns DMK_OK, or a negative
 * DmkErrCode with err's message naming the path and the reason (the C
 * library's for open and write failures, Cairo's status text otherwise);
 * a file that failed half-way is removed. */
int dmk_chart_export(const DmkChartModel *m, const char *path, int width, int height, double scale,
                     DmkError *err);

/* Several charts in one file, as dmk_chart_export: n models in rows of
 * `cols` cells of width x height each (the file is cols x rows cells);
 * a NULL model leaves its cell blank. */
int dmk_chart_export_grid(const DmkChartModel *const *models, size_t n, int cols, const char *path,
                          int width, int height, double scale, DmkError *err);

/* Axis title with its unit for a DmkStats field name: "mb_s" -> "MB/s
 * (10^6 B/s)", "iops" -> "IOPS", "lat_mean_us" -> "Mean latency (us)",
 * "lat_p99_us" -> "99th percentile latency (us)" ... Unknown names come
 * back as they are; NULL gives "". Never NULL. */
const char *dmk_chart_metric_title(const char *metric);

#endif
