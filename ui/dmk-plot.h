/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's charts: kept results turned into the model the Cairo
 * renderer (dmk-chart.h) draws, and the GtkDrawingArea that shows one.
 * Every result a sweep of one kind: a line per direction and result vs
 * queue depth or block size. Otherwise grouped bars: one result's tests
 * with a bar per direction, or several results' tests with a bar per
 * result. Built by dmk-chart-build.c, as `drivemark-cli chart` is, so the
 * window exports what the CLI draws. */
#ifndef DMK_PLOT_H
#define DMK_PLOT_H

#include <gtk/gtk.h>

#include "dmk-chart.h"
#include "dmk-result.h"

/* The export size in logical pixels (points in SVG and PDF): the
 * renderer's design size, as drivemark-cli chart's default. */
#define DMK_PLOT_EXPORT_WIDTH  800
#define DMK_PLOT_EXPORT_HEIGHT 500

typedef struct DmkPlot DmkPlot;

/* metric: a DmkStats field ("mb_s", "iops", "lat_mean_us", "lat_p99_us").
 * names: the legend's name of each result, or NULL for the CLI's (drive
 * and date). The results are only read during the call; n may be 0 ("No
 * data"). */
DmkPlot *dmk_plot_new(const DmkRunResult *const *res, const char *const *names, size_t n,
                      const char *metric);
const DmkChartModel *dmk_plot_get_model(const DmkPlot *p);
void dmk_plot_free(DmkPlot *p);

/* PNG (scale 1 or 2), SVG or PDF by path's extension. */
gboolean dmk_plot_export(const DmkPlot *p, const char *path, double scale, GError **error);

/* A drawing area showing a plot (none: "No data"); it takes the plot. */
GtkWidget *dmk_plot_area_new(void);
void dmk_plot_area_set_plot(GtkWidget *area, DmkPlot *plot);
const DmkPlot *dmk_plot_area_get_plot(GtkWidget *area);

/* The area's value axis from now on, for this plot and the next ones set
 * (a built chart's own is DMK_VALUE_AUTO); the export follows it. */
void dmk_plot_area_set_scale(GtkWidget *area, DmkValueScale scale);
/* A drop-down of chart/'s value scales (Auto, Linear, Log scale) that sets the
 * area's. */
GtkWidget *dmk_plot_scale_control_new(GtkWidget *area);

/* Is widget's theme dark (its text light)? The charts' palette then. */
gboolean dmk_plot_widget_is_dark(GtkWidget *widget);
DmkChartStyle dmk_plot_widget_style(GtkWidget *widget);
/* The style for a frame of widget on screen: its theme and its scale
 * factor (the renderer then paints dense dots and lines for the
 * screen's pixels; exports use dmk_plot_widget_style or none). */
DmkChartStyle dmk_plot_screen_style(GtkWidget *widget);

/* A chart area's first draw in a frame: TRUE when it may draw the chart
 * now. Otherwise it paints only the chart's paper (the area keeps its
 * size) and its chart follows in a frame of its own, one area a frame:
 * the frame that first shows a new tab then lays out and paints its
 * widgets without every chart's draw on top. Both draw functions of
 * the window's charts (dmk-plot.c, dmk-lab-view.c) ask it. */
gboolean dmk_plot_first_draw(GtkWidget *area, cairo_t *cr, const DmkChartStyle *style);
/* Around a snapshot taken outside a frame (a screenshot, Save Image):
 * charts put off are drawn in it, and no first draw is put off. */
void dmk_plot_offscreen_begin(void);
void dmk_plot_offscreen_end(void);

/* The window's zoom, 1 (100 %) to 3 (300 %): every chart area on screen
 * draws its text and lines that much bigger, as far as its size allows;
 * exports are not zoomed. Set by View > Zoom (dmk-window-settings.c). */
void dmk_plot_set_zoom(double zoom);

/* For the scripted dump: "WHAT-chart<TAB>width<TAB>height<TAB>light|dark
 * <TAB>linear|log<TAB>background rrggbb<TAB>x<TAB>y<TAB>title height", as
 * drawn now (x, y: its place in the window; the title's text box height
 * in window pixels, zoom included; 0.0 without a title). */
void dmk_plot_area_dump(GtkWidget *area, const char *what, GString *out);

#endif
