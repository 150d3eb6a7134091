/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-lab-view.h"

#include <glib/gi18n.h>

#include "dmk-chart-lab.h"
#include "dmk-escape.h"
#include "dmk-lab-findings.h"
#include "dmk-lab.h"
#include "dmk-plot.h"
#include "dmk-widgets.h"
#include "dmk-size.h"
#include "dmk-text.h"

/* Room for every chart of one result (recovery and latency have four):
 * the view keeps them in fixed arrays rather than allocate. */
#define MAX_CHARTS 8

struct _DmkLabView {
    GtkBox parent_instance;
    DmkSaved *saved;
    size_t n; /* charts */
    DmkLabChartKind kinds[MAX_CHARTS];
    size_t profiles[MAX_CHARTS];
    DmkChartBuild builds[MAX_CHARTS];
    GtkWidget *areas[MAX_CHARTS];
    GtkWidget *grid;     /* the areas shown */
    GtkWidget *picker;   /* a toggle per chart, and "All" */
    int shown;           /* the chart shown, or -1: all of them */
    GtkWidget *findings; /* the grid of what was found, beside the charts */
    GtkWidget *report;
};

G_DEFINE_FINAL_TYPE(DmkLabView, dmk_lab_view, GTK_TYPE_BOX)

/* ---- drawing areas ------------------------------------------------------------ */

static void draw_model(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    const DmkChartModel *m = data;
    DmkChartModel empty;
    dmk_chart_model_init(&empty);
    /* In the window's theme, as the other charts (dmk-plot.c). */
    DmkChartStyle style = dmk_plot_screen_style(GTK_WIDGET(area));
    if (dmk_plot_first_draw(GTK_WIDGET(area), cr, &style))
        dmk_chart_render_styled(cr, width, height, m ? m : &empty, &style);
}

/* A drawing area of the renderer's, as dmk-plot.c makes them. */
GtkWidget *dmk_lab_chart_area_new(const DmkChartModel *m)
{
    GtkWidget *area = gtk_drawing_area_new();
    /* Two rows of these and the report fit a 768 pixel high screen. */
    gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(area), 220);
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(area), 160);
    gtk_widget_set_hexpand(area, TRUE);
    gtk_widget_set_vexpand(area, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw_model, (gpointer)m, NULL);
    const char *title = m && m->title[0] ? m->title : _("Chart: no data");
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
    return area;
}

/* ---- the picker ----------------------------------------------------------------- */

/* The picker's word for chart i: "Speed", "RND4K read" (chart/'s table). */
static char *chart_label(DmkLabView *self, size_t i)
{
    char label[64];
    dmk_lab_chart_label(self->kinds[i], dmk_saved_get_result(self->saved), self->profiles[i], label,
                        sizeof label);
    return g_strdup(label);
}

/* The columns of "All": the view's grid and the export's alike. */
static int grid_cols(size_t n)
{
    return n >= 2 ? 2 : 1;
}

/* Shows chart `which` alone, or all of them in two columns, as the export
 * draws them; an odd last one spans both (the export leaves that cell
 * empty: its cells are all one size). */
static void layout_charts(DmkLabView *self, int which)
{
    self->shown = which;
    for (size_t i = 0; i < self->n; i++) {
        if (gtk_widget_get_parent(self->areas[i]))
            gtk_grid_remove(GTK_GRID(self->grid), self->areas[i]);
    }
    for (size_t i = 0, cell = 0; i < self->n; i++) {
        if (which >= 0 && (size_t)which != i)
            continue;
        int cols = which >= 0 ? 1 : grid_cols(self->n);
        int span = which < 0 && i + 1 == self->n && cell % 2 == 0 ? cols : 1;
        gtk_grid_attach(GTK_GRID(self->grid), self->areas[i], (int)(cell % (size_t)cols),
                        (int)(cell / (size_t)cols), span, 1);
        cell++;
    }
}

static void on_pick(GtkToggleButton *b, DmkLabView *self)
{
    /* The button let go fires too; only the one pressed lays out. */
    if (gtk_toggle_button_get_active(b))
        layout_charts(self, GPOINTER_TO_INT(g_object_get_data(G_OBJECT(b), "dmk-chart")));
}

/* A toggle of the picker's group for chart `which` (-1: all). */
static GtkWidget *pick_button(DmkLabView *self, const char *label, int which, GtkWidget *group)
{
    GtkWidget *b = gtk_toggle_button_new_with_label(label);
    g_object_set_data(G_OBJECT(b), "dmk-chart", GINT_TO_POINTER(which));
    if (group)
        gtk_toggle_button_set_group(GTK_TOGGLE_BUTTON(b), GTK_TOGGLE_BUTTON(group));
    g_signal_connect(b, "toggled", G_CALLBACK(on_pick), self);
    gtk_box_append(GTK_BOX(self->picker), b);
    return b;
}

/* Latency's four profiles and the mixed pair read best side by side;
 * sustained's speed chart (or recovery's bars) alone, the rest a click
 * away. */
static int default_chart(DmkLabView *self)
{
    gboolean side_by_side = self->n > 1;
    for (size_t i = 0; i < self->n; i++)
        side_by_side = side_by_side && dmk_lab_chart(self->kinds[i])->side_by_side;
    return side_by_side ? -1 : 0;
}

/* A toggle per chart and, with more than one, "All"; the default chart's
 * is pressed. A single chart needs no picker: it stays hidden. */
static void build_picker(DmkLabView *self)
{
    self->picker = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(self->picker, "linked");
    GtkWidget *first = NULL, *active = NULL;
    int def = default_chart(self);
    for (size_t i = 0; i < self->n; i++) {
        char *label = chart_label(self, i);
        GtkWidget *b = pick_button(self, label, (int)i, first);
        gtk_widget_set_tooltip_text(b, self->builds[i].model.title);
        first = first ? first : b;
        active = def == (int)i ? b : active;
        g_free(label);
    }
    if (self->n > 1) {
        /* TRANSLATORS: the chart picker's button that shows every chart. */
        GtkWidget *all = pick_button(self, _("All"), -1, first);
        gtk_widget_set_tooltip_text(all, _("Every chart at once, as Export Chart saves it then"));
        active = def < 0 ? all : active;
    }
    if (active)
        gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(active), TRUE);
    gtk_widget_set_visible(self->picker, self->n > 1);
}

/* ---- the charts ----------------------------------------------------------------- */

/* The result's charts, each built once and kept in an area of its own
 * (referenced: layout_charts takes them in and out of the grid). */
static void build_charts(DmkLabView *self)
{
    const DmkRunResult *r = dmk_saved_get_result(self->saved);
    self->n = dmk_lab_charts(r, self->kinds, self->profiles, MAX_CHARTS);
    for (size_t i = 0; i < self->n; i++) {
        DmkError err = {0};
        /* On failure the model says "No data"; the report says what was found. */
        if (dmk_chart_build_lab(&self->builds[i], self->kinds[i], r, self->profiles[i], &err) !=
            DMK_OK)
            g_debug("lab chart %zu: %s", i, err.msg);
        self->areas[i] = g_object_ref_sink(dmk_lab_chart_area_new(&self->builds[i].model));
    }
    if (self->n == 0) { /* stopped before a chart had data: "No data" */
        dmk_chart_model_init(&self->builds[0].model);
        self->areas[0] = g_object_ref_sink(dmk_lab_chart_area_new(NULL));
        self->n = 1;
        self->kinds[0] = DMK_LAB_CHART_SPEED;
    }
    self->grid = gtk_grid_new();
    gtk_grid_set_row_homogeneous(GTK_GRID(self->grid), TRUE);
    gtk_grid_set_column_homogeneous(GTK_GRID(self->grid), TRUE);
    layout_charts(self, default_chart(self));
}

/* ---- the report ----------------------------------------------------------------- */

char *dmk_lab_report_text(const DmkRunResult *r)
{
    size_t len = dmk_lab_report(r, NULL, 0) + 1;
    char *text = g_malloc(len);
    dmk_lab_report(r, text, len);
    /* Paths and drive names may hold any bytes; the clipboard and the
     * text view take UTF-8 only. */
    char *valid = g_utf8_make_valid(text, -1);
    g_free(text);
    return valid;
}

/* The report, read-only in a monospace text view (its columns line up),
 * scrolled in a frame. */
static GtkWidget *build_report(DmkLabView *self)
{
    char *valid = dmk_lab_report_text(dmk_saved_get_result(self->saved));
    self->report = gtk_text_view_new();
    GtkTextView *tv = GTK_TEXT_VIEW(self->report);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(tv), g_strchomp(valid), -1);
    gtk_text_view_set_editable(tv, FALSE);
    gtk_text_view_set_cursor_visible(tv, FALSE);
    gtk_text_view_set_monospace(tv, TRUE);
    gtk_text_view_set_wrap_mode(tv, GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_left_margin(tv, 8);
    gtk_text_view_set_top_margin(tv, 6);
    gtk_text_view_set_bottom_margin(tv, 6);
    gtk_widget_add_css_class(self->report, "lab-report");
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->report), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Report"), -1);
    g_free(valid);
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), self->report);
    gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroll), 120);
    gtk_scrolled_window_set_has_frame(GTK_SCROLLED_WINDOW(scroll), TRUE);
    return scroll;
}

/* ---- the findings ----------------------------------------------------------------- */

/* A cell of the findings' grid; the text is ours (the tables' words and
 * numbers) but for a heading, which names a test from the file: made
 * valid and escaped as the context lines are. */
static GtkWidget *finding_cell(const char *text, const char *css_class, gboolean selectable)
{
    char *valid = g_utf8_make_valid(text, -1);
    dmk_escape_inplace(valid, NULL);
    GtkWidget *l = gtk_label_new(valid);
    g_free(valid);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_selectable(GTK_LABEL(l), selectable);
    gtk_widget_set_can_focus(l, FALSE);
    gtk_widget_set_valign(l, GTK_ALIGN_START); /* a wrapped value's label on its first line */
    gtk_widget_add_css_class(l, css_class);
    return l;
}

/* One set's heading and its rows (those its table shows), from row on;
 * returns the next free row. Each value keeps what the dump reports. */
static int attach_set(GtkGrid *grid, int row, const DmkRunResult *r, const DmkLabFindings *all,
                      const DmkLabFinding *f)
{
    const DmkLabSetDesc *set = dmk_lab_set(f->set);
    char title[160], value[96], key[96];
    dmk_lab_finding_title(r, f, title, sizeof title);
    GtkWidget *head = finding_cell(title, "heading", FALSE);
    gtk_label_set_max_width_chars(GTK_LABEL(head), 34);
    if (row > 0)
        gtk_widget_set_margin_top(head, 10);
    gtk_grid_attach(grid, head, 0, row++, 2, 1);
    for (size_t i = 0; i < set->n_fields; i++) {
        if (!dmk_lab_finding_shown(all, f, i))
            continue;
        GtkWidget *label = finding_cell(_(set->fields[i].label), "finding-label", FALSE);
        GtkWidget *v = finding_cell(dmk_lab_finding_text(all, f, i, value, sizeof value),
                                    "finding-value", TRUE);
        /* Wrapped rather than widening the panel past the charts' room. */
        gtk_label_set_max_width_chars(GTK_LABEL(label), 24);
        gtk_label_set_max_width_chars(GTK_LABEL(v), 22);
        gtk_accessible_update_relation(GTK_ACCESSIBLE(v), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                       label, NULL, -1);
        snprintf(key, sizeof key, "%s.%s", set->name, set->fields[i].key);
        g_object_set_data_full(G_OBJECT(v), "dmk-finding", g_strdup(key), g_free);
        g_object_set_data_full(G_OBJECT(v), "dmk-finding-set", g_strdup(title), g_free);
        gtk_grid_attach(grid, label, 0, row, 1, 1);
        gtk_grid_attach(grid, v, 1, row++, 1, 1);
    }
    return row;
}

/* What the analysis found (as the file says, for a saved result): each
 * set a heading and its labelled values, scrolled beside the charts.
 * NULL when there is nothing (stopped before a test). */
static GtkWidget *build_findings(DmkLabView *self)
{
    const DmkRunResult *r = dmk_saved_get_result(self->saved);
    DmkLabFindings *found = g_new(DmkLabFindings, 1);
    dmk_lab_findings(r, found);
    self->findings = gtk_grid_new();
    GtkGrid *grid = GTK_GRID(self->findings);
    gtk_grid_set_column_spacing(grid, 12);
    gtk_grid_set_row_spacing(grid, 3);
    gtk_widget_set_margin_start(self->findings, 12);
    gtk_widget_set_margin_end(self->findings, 12);
    gtk_widget_set_margin_top(self->findings, 10);
    gtk_widget_set_margin_bottom(self->findings, 10);
    gtk_widget_add_css_class(self->findings, "lab-findings");
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->findings), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Findings"), -1);
    int row = 0;
    for (size_t k = 0; k < found->n; k++)
        row = attach_set(grid, row, r, found, &found->f[k]);
    g_free(found);
    if (row == 0) {
        /* Nothing to show (a surface scan, a run stopped before a test):
         * the grid was never parented, so it is ours to drop. */
        g_object_unref(g_object_ref_sink(self->findings));
        self->findings = NULL;
        return NULL;
    }
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), self->findings);
    gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_has_frame(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_widget_set_size_request(scroll, 220, -1);
    return scroll;
}

/* ---- the rows above the charts ------------------------------------------------ */

/* The picker on the left, Export Chart and Save Results on the right. */
static GtkWidget *build_toolbar(DmkLabView *self)
{
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    build_picker(self);
    gtk_widget_set_halign(self->picker, GTK_ALIGN_START);
    /* The picker scrolls sideways rather than widen the window: five
     * toggles and the two buttons beside the form and the findings are
     * wider than a 1,024 px screen. */
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_AUTOMATIC,
                                   GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), self->picker);
    gtk_widget_set_hexpand(scroll, TRUE);
    gtk_widget_set_visible(scroll, gtk_widget_get_visible(self->picker));
    gtk_box_append(GTK_BOX(row), scroll);
    /* Short words (the tooltips say more): with the form and the findings
     * beside them, the picker and both fit a 1,024 px window. */
    gtk_box_append(GTK_BOX(row), dmk_action_button_new(
                                     _("_Export…"), "win.export-chart",
                                     _("Export Chart: save the chart shown as PNG, SVG or PDF")));
    gtk_box_append(GTK_BOX(row),
                   dmk_action_button_new(_("_Save…"), "win.save",
                                         _("Save Results: every sample and step as CSV (or JSON), "
                                           "to open again")));
    return row;
}

/* Files may hold any bytes; a label takes only UTF-8, and a bidi
 * override from a received file must not reorder what it shows
 * (dmk-escape.h: the rule the CLI prints by). */
static GtkWidget *context_label(const char *text, const char *css_class)
{
    char *valid = g_utf8_make_valid(text, -1);
    dmk_escape_inplace(valid, "\n");
    GtkWidget *l = gtk_label_new(valid);
    g_free(valid);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_selectable(GTK_LABEL(l), TRUE);
    gtk_widget_set_can_focus(l, FALSE);
    gtk_widget_add_css_class(l, css_class);
    return l;
}

/* The drive, where and how it ran, and the comment: what a result tab
 * says on top, as a benchmark's result tab does (dmk-result-view.c). */
static GtkWidget *build_context(DmkLabView *self)
{
    const DmkRunResult *r = dmk_saved_get_result(self->saved);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    char *lines[] = {dmk_text_context_drive(r), dmk_text_context_where(r)};
    static const char *const classes[] = {"result-drive", "result-context"};
    for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
        gtk_box_append(GTK_BOX(box), context_label(lines[i], classes[i]));
        g_free(lines[i]);
    }
    if (r->comment[0])
        gtk_box_append(GTK_BOX(box), context_label(r->comment, "result-comment"));
    return box;
}

/* ---- the view ------------------------------------------------------------------- */

/* The charts over the report, split by a handle; the charts take what
 * the window gains, the report keeps its height. */
static GtkWidget *build_body(DmkLabView *self)
{
    GtkWidget *frame = gtk_frame_new(NULL);
    gtk_frame_set_child(GTK_FRAME(frame), self->grid);
    gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN);
    gtk_widget_add_css_class(frame, "chart");
    gtk_widget_set_hexpand(frame, TRUE);
    /* The findings beside the charts, as a review's summary box. */
    GtkWidget *top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_box_append(GTK_BOX(top), frame);
    GtkWidget *findings = build_findings(self);
    if (findings)
        gtk_box_append(GTK_BOX(top), findings);
    GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_VERTICAL);
    gtk_paned_set_start_child(GTK_PANED(paned), top);
    gtk_paned_set_end_child(GTK_PANED(paned), build_report(self));
    gtk_paned_set_resize_end_child(GTK_PANED(paned), FALSE);
    gtk_paned_set_shrink_end_child(GTK_PANED(paned), FALSE);
    gtk_paned_set_shrink_start_child(GTK_PANED(paned), FALSE);
    gtk_widget_set_vexpand(paned, TRUE);
    return paned;
}

GtkWidget *dmk_lab_view_new(DmkSaved *saved, gboolean with_context)
{
    DmkLabView *self = g_object_new(DMK_TYPE_LAB_VIEW, "orientation", GTK_ORIENTATION_VERTICAL,
                                    "spacing", 8, NULL);
    self->saved = dmk_saved_ref(saved);
    /* The charts first: the picker's labels and default come from them. */
    build_charts(self);
    if (with_context)
        gtk_box_append(GTK_BOX(self), build_context(self));
    gtk_box_append(GTK_BOX(self), build_toolbar(self));
    gtk_box_append(GTK_BOX(self), build_body(self));
    return GTK_WIDGET(self);
}

DmkSaved *dmk_lab_view_get_saved(DmkLabView *self)
{
    return self->saved;
}

/* ---- export ------------------------------------------------------------------- */

void dmk_lab_view_export_size(DmkLabView *self, int *width, int *height)
{
    int cols = self->shown < 0 ? grid_cols(self->n) : 1;
    int rows = self->shown < 0 ? (int)((self->n + (size_t)cols - 1) / (size_t)cols) : 1;
    *width = DMK_PLOT_EXPORT_WIDTH * cols;
    *height = DMK_PLOT_EXPORT_HEIGHT * rows;
}

/* "All" of one chart is that chart: it is exported alone, not as a grid. */
gboolean dmk_lab_view_export(DmkLabView *self, const char *path, double scale, GError **error)
{
    DmkError err = {0};
    int rc;
    if (self->shown >= 0 || self->n == 1) {
        size_t i = self->shown >= 0 ? (size_t)self->shown : 0;
        rc = dmk_chart_export(&self->builds[i].model, path, DMK_PLOT_EXPORT_WIDTH,
                              DMK_PLOT_EXPORT_HEIGHT, scale, &err);
    } else {
        const DmkChartModel *models[MAX_CHARTS];
        for (size_t i = 0; i < self->n; i++)
            models[i] = &self->builds[i].model;
        rc = dmk_chart_export_grid(models, self->n, grid_cols(self->n), path, DMK_PLOT_EXPORT_WIDTH,
                                   DMK_PLOT_EXPORT_HEIGHT, scale, &err);
    }
    if (rc == DMK_OK)
        return TRUE;
    g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, err.msg);
    return FALSE;
}

/* ---- for tests and titles ----------------------------------------------------- */

/* "<prefix>-report\t<lead><line>" per line of what the report shows,
 * read back from its buffer so the test sees the widget, not the text
 * it was given. */
static void dump_report(DmkLabView *self, const char *prefix, const char *lead, GString *out)
{
    GtkTextBuffer *buf = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self->report));
    GtkTextIter a, b;
    gtk_text_buffer_get_bounds(buf, &a, &b);
    char *text = gtk_text_buffer_get_text(buf, &a, &b, FALSE);
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        g_string_append_printf(out, "%s-report\t%s%s\n", prefix, lead, *l);
    g_strfreev(lines);
    g_free(text);
}

/* "<prefix>-finding\t<lead><heading>\t<key>\t<label>\t<value>" per value
 * the findings' grid shows, read back from its labels. */
static void dump_findings(DmkLabView *self, const char *prefix, const char *lead, GString *out)
{
    if (!self->findings)
        return;
    for (GtkWidget *c = gtk_widget_get_first_child(self->findings); c;
         c = gtk_widget_get_next_sibling(c)) {
        const char *key = g_object_get_data(G_OBJECT(c), "dmk-finding");
        if (!key)
            continue;
        int col, row, w, h;
        gtk_grid_query_child(GTK_GRID(self->findings), c, &col, &row, &w, &h);
        GtkWidget *label = gtk_grid_get_child_at(GTK_GRID(self->findings), 0, row);
        g_string_append_printf(out, "%s-finding\t%s%s\t%s\t%s\t%s\n", prefix, lead,
                               (const char *)g_object_get_data(G_OBJECT(c), "dmk-finding-set"), key,
                               gtk_label_get_text(GTK_LABEL(label)),
                               gtk_label_get_text(GTK_LABEL(c)));
    }
}

void dmk_lab_view_dump(DmkLabView *self, const char *prefix, int tab, GString *out)
{
    char *lead = tab > 0 ? g_strdup_printf("%d\t", tab) : g_strdup("");
    for (size_t i = 0; i < self->n; i++) {
        char *label = chart_label(self, i);
        gboolean shown = self->shown < 0 || (size_t)self->shown == i;
        g_string_append_printf(out, "%s-chart\t%s%s\t%s\t%s\n", prefix, lead, label,
                               shown ? "shown" : "hidden", self->builds[i].model.title);
        g_free(label);
    }
    dump_findings(self, prefix, lead, out);
    dump_report(self, prefix, lead, out);
    g_free(lead);
}

/* The time is local: the tab title is for the person at the window,
 * while the result keeps UTC. */
char *dmk_lab_result_title(const DmkRunResult *r)
{
    const char *what = _(dmk_lab_title(dmk_lab_from_name(r->lab)));
    GDateTime *utc = r->date[0] ? g_date_time_new_from_iso8601(r->date, NULL) : NULL;
    GDateTime *local = utc ? g_date_time_to_local(utc) : NULL;
    char *when = local ? g_date_time_format(local, "%H:%M") : NULL;
    /* TRANSLATORS: a Lab result's tab, when its test is unknown. */
    const char *head = what[0] ? what : _("Lab");
    /* TRANSLATORS: a Lab result's tab: the test's title, the local time (14:05). */
    char *title = when ? g_strdup_printf(_("%1$s %2$s"), head, when) : g_strdup(head);
    g_free(when);
    if (local)
        g_date_time_unref(local);
    if (utc)
        g_date_time_unref(utc);
    return title;
}

/* ---- the type ------------------------------------------------------------------- */

/* The areas are referenced while out of the grid; their models (the
 * builds) go only in finalize, after the areas that draw them. */
static void dmk_lab_view_dispose(GObject *object)
{
    DmkLabView *self = DMK_LAB_VIEW(object);
    for (size_t i = 0; i < self->n; i++)
        g_clear_object(&self->areas[i]);
    g_clear_pointer(&self->saved, dmk_saved_unref);
    G_OBJECT_CLASS(dmk_lab_view_parent_class)->dispose(object);
}

static void dmk_lab_view_finalize(GObject *object)
{
    DmkLabView *self = DMK_LAB_VIEW(object);
    for (size_t i = 0; i < self->n; i++)
        dmk_chart_build_free(&self->builds[i]);
    G_OBJECT_CLASS(dmk_lab_view_parent_class)->finalize(object);
}

static void dmk_lab_view_class_init(DmkLabViewClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = dmk_lab_view_dispose;
    G_OBJECT_CLASS(klass)->finalize = dmk_lab_view_finalize;
}

static void dmk_lab_view_init(DmkLabView *self)
{
    gtk_widget_add_css_class(GTK_WIDGET(self), "lab-view");
}
