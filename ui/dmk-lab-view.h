/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One finished (or stopped) lab result, as the window shows it: a picker
 * of its charts (chart/dmk-chart-lab.h: speed, cache zoom, temperature,
 * mixed, latency or recovery), the chart or charts picked, and the
 * written report (dmk_lab_report). Its buttons trigger the window's
 * win.export-chart and win.save, which act on the tab shown.
 *
 * The Lab tab (dmk-lab-page.h) shows its latest run in one; a lab result
 * opened from a file gets a tab of its own with one (dmk-window-tabs.c). */
#ifndef DMK_LAB_VIEW_H
#define DMK_LAB_VIEW_H

#include <gtk/gtk.h>

#include "dmk-chart.h"
#include "dmk-result.h"
#include "dmk-saved.h"

G_BEGIN_DECLS

#define DMK_TYPE_LAB_VIEW (dmk_lab_view_get_type())
G_DECLARE_FINAL_TYPE(DmkLabView, dmk_lab_view, DMK, LAB_VIEW, GtkBox)

/* Keeps a reference to saved. with_context: the drive, place and settings
 * on top (a result tab); the Lab tab's own view leaves them to the report. */
GtkWidget *dmk_lab_view_new(DmkSaved *saved, gboolean with_context);
DmkSaved *dmk_lab_view_get_saved(DmkLabView *self);

/* Exports what is shown: one chart, or all of them as a grid, as PNG
 * (scale 1 or 2), SVG or PDF by path's extension. */
gboolean dmk_lab_view_export(DmkLabView *self, const char *path, double scale, GError **error);
/* The exported picture's size at scale 1, in pixels (points in SVG, PDF). */
void dmk_lab_view_export_size(DmkLabView *self, int *width, int *height);

/* For tests: "<prefix>-chart\t[<tab>\t]<picker label>\tshown|hidden\t<title>"
 * per chart, "<prefix>-report\t[<tab>\t]<line>" per line of the report;
 * tab 0: no tab number. */
void dmk_lab_view_dump(DmkLabView *self, const char *prefix, int tab, GString *out);

/* A drawing area that renders m (NULL: "No data") at the size of the
 * view's charts; the Lab tab's live chart is one too. m is not copied:
 * it must outlive the area, and a change shows at the next redraw. */
GtkWidget *dmk_lab_chart_area_new(const DmkChartModel *m);

/* dmk_lab_report's text, valid UTF-8: what the view shows and Ctrl+C
 * copies; g_free(). */
char *dmk_lab_report_text(const DmkRunResult *r);

/* "Sustained write 14:05": a lab result's tab title before it is saved. */
char *dmk_lab_result_title(const DmkRunResult *r);

G_END_DECLS

#endif
