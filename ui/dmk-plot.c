/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-plot.h"

#include <string.h>

#include "dmk-chart-build.h"

/* The shared builder's chart (dmk-chart-build.h); this file adds only
 * what the window decides: which kind of chart, and GLib/GTK plumbing. */
struct DmkPlot {
    DmkChartBuild build; /* its model: "No data" when nothing was built */
};

/* Lines when every result is a sweep of one kind. */
static gboolean all_sweeps(const DmkRunResult *const *res, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!res[i]->sweep[0] || strcmp(res[i]->sweep, res[0]->sweep) != 0)
            return FALSE;
    return n > 0;
}

DmkPlot *dmk_plot_new(const DmkRunResult *const *res, const char *const *names, size_t n,
                      const char *metric)
{
    DmkPlot *p = g_new0(DmkPlot, 1);
    dmk_chart_model_init(&p->build.model);
    /* Results without tests (a run stopped at once) are left out. */
    size_t used = 0;
    const DmkRunResult **with_tests = g_new0(const DmkRunResult *, n + 1);
    const char **used_names = g_new0(const char *, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (res[i] && res[i]->n_tests > 0) {
            used_names[used] = names ? names[i] : NULL;
            with_tests[used++] = res[i];
        }
    }
    if (used > 0) {
        DmkChartBuildKind kind = !all_sweeps(with_tests, used)             ? DMK_CHART_BUILD_TILES
                                 : strcmp(with_tests[0]->sweep, "qd") == 0 ? DMK_CHART_BUILD_QD
                                                                           : DMK_CHART_BUILD_BS;
        DmkChartBuildOptions opt = {
            .names = names ? used_names : NULL,
            .one_by_direction = true,
            .note_differences = true,
        };
        DmkError err = {0};
        /* Only out of memory can fail here; the builder leaves "No data". */
        if (dmk_chart_build(&p->build, kind, metric, with_tests, used, &opt, &err) != DMK_OK)
            g_warning("chart: %s", err.msg);
    }
    g_free(with_tests);
    g_free(used_names);
    return p;
}

const DmkChartModel *dmk_plot_get_model(const DmkPlot *p)
{
    return &p->build.model;
}

void dmk_plot_free(DmkPlot *p)
{
    if (!p)
        return;
    dmk_chart_build_free(&p->build);
    g_free(p);
}

gboolean dmk_plot_export(const DmkPlot *p, const char *path, double scale, GError **error)
{
    DmkError err = {0};
    if (dmk_chart_export(&p->build.model, path, DMK_PLOT_EXPORT_WIDTH, DMK_PLOT_EXPORT_HEIGHT,
                         scale, &err) == DMK_OK)
        return TRUE;
    g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, err.msg);
    return FALSE;
}

/* ---- the drawing area --------------------------------------------------- */

#define PLOT_KEY "dmk-plot"

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    (void)data;
    const DmkPlot *p = g_object_get_data(G_OBJECT(area), PLOT_KEY);
    DmkChartModel empty;
    dmk_chart_model_init(&empty);
    dmk_chart_render(cr, width, height, p ? &p->build.model : &empty);
}

GtkWidget *dmk_plot_area_new(void)
{
    GtkWidget *area = gtk_drawing_area_new();
    /* The least that stays legible; the window grows when a chart is
     * first shown (dmk-window-tabs.c), and the Benchmark tab alone keeps
     * CrystalDiskMark's size. */
    gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(area), 320);
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(area), 180);
    gtk_widget_set_hexpand(area, TRUE);
    gtk_widget_set_vexpand(area, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw, NULL, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, "Chart",
                                   -1);
    return area;
}

static void update_accessible(GtkWidget *area, const DmkPlot *p)
{
    const char *title = p && p->build.model.title[0] ? p->build.model.title : "Chart: no data";
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

void dmk_plot_area_set_plot(GtkWidget *area, DmkPlot *plot)
{
    g_object_set_data_full(G_OBJECT(area), PLOT_KEY, plot, (GDestroyNotify)dmk_plot_free);
    update_accessible(area, plot);
    gtk_widget_queue_draw(area);
}

const DmkPlot *dmk_plot_area_get_plot(GtkWidget *area)
{
    return g_object_get_data(G_OBJECT(area), PLOT_KEY);
}
