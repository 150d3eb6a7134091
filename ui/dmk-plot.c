/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-plot.h"

#include <glib/gi18n.h>
#include <math.h>
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

static void on_theme_notify(GObject *settings, GParamSpec *pspec, gpointer area)
{
    (void)settings;
    (void)pspec;
    gtk_widget_queue_draw(area);
}

/* The window's zoom (View > Zoom): the CSS that scales the window's text
 * is the display's, so this is the process's, as is the list of areas it
 * redraws when it changes. Main thread only, as every widget. */
static double plot_zoom = 1.0;
static GSList *plot_areas;

void dmk_plot_set_zoom(double zoom)
{
    plot_zoom = zoom >= 1 && zoom <= 4 ? zoom : 1.0;
    for (GSList *l = plot_areas; l; l = l->next)
        gtk_widget_queue_draw(l->data);
}

/* The zoom an area of width x height draws at: the window's, but never
 * so much that the chart's own layout gets less than the area's least
 * size (dmk_plot_area_new) at the renderer's least text scale (0.75,
 * chart/dmk-chart.c): below that its plot would no longer fit. */
#define PLOT_MIN_W 320
#define PLOT_MIN_H 180
static double area_zoom(int width, int height)
{
    double z = fmin(plot_zoom, fmin(width / (0.75 * PLOT_MIN_W), height / (0.75 * PLOT_MIN_H)));
    return fmax(1.0, z);
}

static void on_area_destroy(GtkWidget *area, gpointer data)
{
    (void)data;
    g_signal_handlers_disconnect_by_func(gtk_widget_get_settings(area), on_theme_notify, area);
    plot_areas = g_slist_remove(plot_areas, area);
}

#define PLOT_KEY  "dmk-plot"
#define SCALE_KEY "dmk-plot-scale" /* the area's value axis: DmkValueScale + 1, 0 unset */

gboolean dmk_plot_widget_is_dark(GtkWidget *widget)
{
    /* The theme's text colour says it: light text is a dark theme, whether
     * GTK_THEME, the prefer-dark setting or the desktop's colour scheme
     * chose it (GTK 4.8 has no one call for "is the theme dark"). */
    GdkRGBA fg;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gtk_style_context_get_color(gtk_widget_get_style_context(widget), &fg);
    G_GNUC_END_IGNORE_DEPRECATIONS
    return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

DmkChartStyle dmk_plot_widget_style(GtkWidget *widget)
{
    return (DmkChartStyle){.theme =
                               dmk_plot_widget_is_dark(widget) ? DMK_CHART_DARK : DMK_CHART_LIGHT};
}

DmkChartStyle dmk_plot_screen_style(GtkWidget *widget)
{
    DmkChartStyle style = dmk_plot_widget_style(widget);
    style.screen_scale = gtk_widget_get_scale_factor(widget);
    return style;
}

/* ---- a chart's first draw, a frame later ----------------------------------- */

/* The frame that first showed a sweep's tab or a finished lab result laid
 * out and painted all its new widgets and drew its charts too (3-10 ms of
 * CPU each here): 20-30 ms in one frame. A new area's first draw now
 * paints the paper and asks for the chart in the next frame, one area
 * per frame, oldest first. FIRST_KEY on an area: FIRST_PENDING while it
 * waits, FIRST_DONE once it may draw. */
#define FIRST_KEY     "dmk-plot-first"
#define FIRST_PENDING 1
#define FIRST_DONE    2

static GQueue first_pending = G_QUEUE_INIT; /* areas waiting, referenced */
static guint first_idle;
static int offscreen_depth;

static int first_state(GtkWidget *area)
{
    return GPOINTER_TO_INT(g_object_get_data(G_OBJECT(area), FIRST_KEY));
}

static void set_first_state(GtkWidget *area, int state)
{
    g_object_set_data(G_OBJECT(area), FIRST_KEY, GINT_TO_POINTER(state));
}

/* After the frame that painted the paper (an idle runs after the frame
 * clock's paint): the oldest area still shown draws its chart in the
 * next frame. One hidden meanwhile waits for its next first draw. */
static gboolean draw_next_first(gpointer data)
{
    (void)data;
    first_idle = 0;
    GtkWidget *area;
    while ((area = g_queue_pop_head(&first_pending))) {
        gboolean shown = gtk_widget_get_mapped(area);
        set_first_state(area, shown ? FIRST_DONE : 0);
        if (shown)
            gtk_widget_queue_draw(area);
        g_object_unref(area);
        if (shown)
            break;
    }
    return G_SOURCE_REMOVE;
}

static void schedule_next_first(void)
{
    if (!first_idle && !g_queue_is_empty(&first_pending))
        first_idle = g_idle_add(draw_next_first, NULL);
}

gboolean dmk_plot_first_draw(GtkWidget *area, cairo_t *cr, const DmkChartStyle *style)
{
    int state = first_state(area);
    if (state == FIRST_DONE || offscreen_depth > 0) {
        set_first_state(area, FIRST_DONE);
        /* The chart just drawn had its frame: the next one waiting gets
         * the frame after. */
        schedule_next_first();
        return TRUE;
    }
    double rgb[3];
    dmk_chart_paper_rgb(style, rgb);
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_paint(cr);
    if (state != FIRST_PENDING) {
        set_first_state(area, FIRST_PENDING);
        g_queue_push_tail(&first_pending, g_object_ref(area));
    }
    schedule_next_first();
    return FALSE;
}

void dmk_plot_offscreen_begin(void)
{
    if (offscreen_depth++ > 0)
        return;
    /* Their paper is in the widgets' kept render nodes: drawn anew. */
    GtkWidget *area;
    while ((area = g_queue_pop_head(&first_pending))) {
        set_first_state(area, FIRST_DONE);
        gtk_widget_queue_draw(area);
        g_object_unref(area);
    }
}

void dmk_plot_offscreen_end(void)
{
    if (offscreen_depth > 0)
        offscreen_depth--;
}

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    (void)data;
    const DmkPlot *p = g_object_get_data(G_OBJECT(area), PLOT_KEY);
    DmkChartModel empty;
    dmk_chart_model_init(&empty);
    /* On screen in the window's theme; exports stay white (dmk_plot_export). */
    DmkChartStyle style = dmk_plot_screen_style(GTK_WIDGET(area));
    if (!dmk_plot_first_draw(GTK_WIDGET(area), cr, &style))
        return;
    /* Zoomed: the chart laid out for a smaller area and drawn magnified,
     * so text, lines, markers and margins all grow as the window's text
     * does; exports (dmk_plot_export) keep the design size. */
    double z = area_zoom(width, height);
    cairo_save(cr);
    cairo_scale(cr, z, z);
    dmk_chart_render_styled(cr, width / z, height / z, p ? &p->build.model : &empty, &style);
    cairo_restore(cr);
}

GtkWidget *dmk_plot_area_new(void)
{
    GtkWidget *area = gtk_drawing_area_new();
    /* The least that stays legible; the window grows when a chart is
     * first shown (dmk-window-tabs.c), and the Benchmark tab alone keeps
     * CrystalDiskMark's size. */
    gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(area), PLOT_MIN_W);
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(area), PLOT_MIN_H);
    gtk_widget_set_hexpand(area, TRUE);
    gtk_widget_set_vexpand(area, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw, NULL, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Chart"),
                                   -1);
    /* The theme changed (light to dark, or back): the palette too. */
    GtkSettings *settings = gtk_widget_get_settings(area);
    g_signal_connect(settings, "notify::gtk-application-prefer-dark-theme",
                     G_CALLBACK(on_theme_notify), area);
    g_signal_connect(settings, "notify::gtk-theme-name", G_CALLBACK(on_theme_notify), area);
    g_signal_connect(area, "destroy", G_CALLBACK(on_area_destroy), NULL);
    plot_areas = g_slist_prepend(plot_areas, area);
    return area;
}

static void update_accessible(GtkWidget *area, const DmkPlot *p)
{
    const char *title = p && p->build.model.title[0] ? p->build.model.title : _("Chart: no data");
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

/* The area's own choice of value axis, where one was made, for each plot
 * it is given: the export then matches the screen. */
static void apply_scale(GtkWidget *area, DmkPlot *plot)
{
    int set = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(area), SCALE_KEY));
    if (plot && set > 0)
        plot->build.model.y_scale = (DmkValueScale)(set - 1);
}

void dmk_plot_area_set_plot(GtkWidget *area, DmkPlot *plot)
{
    apply_scale(area, plot);
    g_object_set_data_full(G_OBJECT(area), PLOT_KEY, plot, (GDestroyNotify)dmk_plot_free);
    update_accessible(area, plot);
    gtk_widget_queue_draw(area);
}

const DmkPlot *dmk_plot_area_get_plot(GtkWidget *area)
{
    return g_object_get_data(G_OBJECT(area), PLOT_KEY);
}

void dmk_plot_area_set_scale(GtkWidget *area, DmkValueScale scale)
{
    g_object_set_data(G_OBJECT(area), SCALE_KEY, GINT_TO_POINTER((int)scale + 1));
    apply_scale(area, g_object_get_data(G_OBJECT(area), PLOT_KEY));
    gtk_widget_queue_draw(area);
}

static void on_scale_selected(GtkDropDown *dd, GParamSpec *pspec, GtkWidget *area)
{
    (void)pspec;
    guint i = gtk_drop_down_get_selected(dd);
    if (i < dmk_value_scale_count)
        dmk_plot_area_set_scale(area, dmk_value_scales[i].scale);
}

GtkWidget *dmk_plot_scale_control_new(GtkWidget *area)
{
    const char *labels[8] = {NULL};
    for (size_t i = 0; i < dmk_value_scale_count && i + 1 < G_N_ELEMENTS(labels); i++)
        labels[i] = _(dmk_value_scales[i].label); /* chart/'s table marks them */
    GtkWidget *dd = gtk_drop_down_new_from_strings(labels);
    /* The table's first entry, Auto, is what a built chart starts with. */
    gtk_widget_set_tooltip_text(dd, _("The chart's value axis: Auto is logarithmic where the "
                                      "largest value is over 50 times the smallest"));
    gtk_accessible_update_property(GTK_ACCESSIBLE(dd), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Value axis"), -1);
    gtk_widget_set_valign(dd, GTK_ALIGN_START);
    g_signal_connect_object(dd, "notify::selected", G_CALLBACK(on_scale_selected), area, 0);
    return dd;
}

void dmk_plot_area_dump(GtkWidget *area, const char *what, GString *out)
{
    const DmkPlot *p = dmk_plot_area_get_plot(area);
    int w = gtk_widget_get_width(area), h = gtk_widget_get_height(area);
    DmkChartStyle style = dmk_plot_widget_style(area);
    DmkChartProbe probe = {0};
    DmkChartModel empty;
    dmk_chart_model_init(&empty);
    w = w > 0 ? w : DMK_PLOT_EXPORT_WIDTH;
    h = h > 0 ? h : DMK_PLOT_EXPORT_HEIGHT;
    double z = area_zoom(w, h);
    dmk_chart_probe(w / z, h / z, p ? &p->build.model : &empty, &style, &probe);
    graphene_rect_t b = GRAPHENE_RECT_INIT(0, 0, 0, 0);
    GtkWidget *root = GTK_WIDGET(gtk_widget_get_root(area));
    if (root && !gtk_widget_compute_bounds(area, root, &b))
        b = GRAPHENE_RECT_INIT(0, 0, 0, 0);
    g_string_append_printf(
        out, "%s-chart\t%d\t%d\t%s\t%s\t%02x%02x%02x\t%d\t%d\t%.1f\n", what, w, h,
        style.theme == DMK_CHART_DARK ? "dark" : "light", probe.y_log ? "log" : "linear",
        (unsigned)(probe.background[0] * 255), (unsigned)(probe.background[1] * 255),
        (unsigned)(probe.background[2] * 255), (int)b.origin.x, (int)b.origin.y, probe.title.h * z);
}
