/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-result-view.h"

#include <glib/gi18n.h>

#include <string.h>

#include "dmk-escape.h"
#include "dmk-plot.h"
#include "dmk-widgets.h"
#include "dmk-report.h"
#include "dmk-text.h"
#include "dmk-tile.h"

#define N_MODES 3 /* read, write, mix: indexed by DmkMode */

struct _DmkResultView {
    GtkBox parent_instance;
    DmkSaved *saved;
    GtkWidget *headers[N_MODES];
    GPtrArray *tiles; /* DmkTile, borrowed from the grid */
    GtkWidget *chart;
    GtkWidget *verify;  /* the verify option's verdict, NULL when the run had none */
    GtkWidget *info;    /* the header's lines */
    GtkWidget *comment; /* the comment's line, NULL while there is none */
    DmkUnit unit;
    guint build_id; /* the idle that builds the view, 0 once it is built */
    gboolean built;
};

G_DEFINE_FINAL_TYPE(DmkResultView, dmk_result_view, GTK_TYPE_BOX)

/* ---- context ------------------------------------------------------------- */

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
    /* A long path or comment wraps instead of asking the window for its
     * whole length: the window's natural width must fit a 1,024 px screen. */
    gtk_label_set_max_width_chars(GTK_LABEL(l), 72);
    gtk_label_set_selectable(GTK_LABEL(l), TRUE);
    gtk_widget_set_can_focus(l, FALSE); /* selectable, but not a tab stop */
    gtk_widget_add_css_class(l, css_class);
    return l;
}

/* What the file system did to the test file, when it did anything. */
static void append_flags_note(GtkWidget *info, const DmkRunResult *r)
{
    char notes[2048];
    dmk_run_fs_notes(r, notes, sizeof notes);
    g_strchomp(notes); /* one label: no line end after the last note */
    if (notes[0])
        gtk_box_append(GTK_BOX(info), context_label(notes, "flags-note"));
}

static GtkWidget *build_header(DmkResultView *self)
{
    const DmkRunResult *r = dmk_saved_get_result(self->saved);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    GtkWidget *info = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_widget_set_hexpand(info, TRUE);
    char *lines[] = {dmk_text_context_drive(r), dmk_text_context_where(r), dmk_text_context_how(r)};
    static const char *const classes[] = {"result-drive", "result-context", "result-context"};
    for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
        gtk_box_append(GTK_BOX(info), context_label(lines[i], classes[i]));
        g_free(lines[i]);
    }
    append_flags_note(info, r);
    DmkVerifyResult v;
    dmk_run_result_verify(r, &v);
    if (v.checked) {
        char line[512];
        dmk_verify_describe(&v, line, sizeof line);
        self->verify = context_label(line, v.bad ? "result-verify-bad" : "result-verify");
        gtk_box_append(GTK_BOX(info), self->verify);
    }
    self->info = info;
    dmk_result_view_update_comment(self);
    GtkWidget *buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_set_valign(buttons, GTK_ALIGN_START);
    gtk_box_append(GTK_BOX(buttons),
                   dmk_action_button_new(_("Export C_SV…"), "win.export-csv",
                                         _("Save this result as a CSV file (Ctrl+S)")));
    gtk_box_append(
        GTK_BOX(buttons),
        dmk_action_button_new(_("Export _Chart…"), "win.export-chart",
                              _("Save the chart as PNG, SVG or PDF (by the name's extension)")));
    /* Built after the chart (dmk_result_view_new): its value axis. */
    gtk_box_append(GTK_BOX(buttons), dmk_plot_scale_control_new(self->chart));
    gtk_box_append(GTK_BOX(box), info);
    gtk_box_append(GTK_BOX(box), buttons);
    return box;
}

/* ---- tiles ----------------------------------------------------------------- */

/* The test names in first-seen order; which directions occur. */
static GPtrArray *row_names(const DmkRunResult *r, gboolean used[N_MODES])
{
    GPtrArray *names = g_ptr_array_new();
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTest *t = &r->tests[i].test;
        used[t->mode] = TRUE;
        gboolean seen = FALSE;
        for (guint k = 0; k < names->len && !seen; k++)
            seen = strcmp(g_ptr_array_index(names, k), t->name) == 0;
        if (!seen)
            g_ptr_array_add(names, (gpointer)t->name);
    }
    return names;
}

/* "SEQ1M Q8T1" on two lines, as the run buttons of the Benchmark tab. */
static GtkWidget *row_head(const char *name)
{
    char *text = g_strdelimit(g_strdup(name), " ", '\n');
    GtkWidget *l = gtk_label_new(text);
    g_free(text);
    gtk_label_set_justify(GTK_LABEL(l), GTK_JUSTIFY_CENTER);
    gtk_widget_add_css_class(l, "row-head");
    return l;
}

static const DmkTestResult *find_test(const DmkRunResult *r, const char *name, DmkMode mode)
{
    for (size_t i = 0; i < r->n_tests; i++)
        if (r->tests[i].test.mode == mode && strcmp(r->tests[i].test.name, name) == 0)
            return &r->tests[i];
    return NULL;
}

static void add_tile(DmkResultView *self, GtkGrid *grid, const char *name, DmkMode mode, int col,
                     int row)
{
    const DmkTestResult *t = find_test(dmk_saved_get_result(self->saved), name, mode);
    if (!t)
        return; /* a test this run did not measure in this direction */
    GtkWidget *tile = dmk_tile_new();
    dmk_tile_set_test(DMK_TILE(tile), &t->test);
    dmk_tile_set_stats(DMK_TILE(tile), &t->score.total);
    dmk_tile_set_flags(DMK_TILE(tile), dmk_saved_get_result(self->saved), t);
    gtk_grid_attach(grid, tile, col, row, 1, 1);
    g_ptr_array_add(self->tiles, tile);
}

static void add_headers(DmkResultView *self, GtkGrid *grid, const gboolean used[N_MODES])
{
    for (int m = 0, col = 1; m < N_MODES; m++) {
        if (!used[m])
            continue;
        self->headers[m] = gtk_label_new("");
        gtk_widget_add_css_class(self->headers[m], "column-header");
        gtk_grid_attach(grid, self->headers[m], col++, 0, 1, 1);
    }
}

static GtkWidget *build_tiles(DmkResultView *self)
{
    const DmkRunResult *r = dmk_saved_get_result(self->saved);
    gboolean used[N_MODES] = {FALSE};
    GPtrArray *names = row_names(r, used);
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 4);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 4);
    add_headers(self, GTK_GRID(grid), used);
    for (guint i = 0; i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        gtk_grid_attach(GTK_GRID(grid), row_head(name), 0, (int)i + 1, 1, 1);
        for (int m = 0, col = 1; m < N_MODES; m++)
            if (used[m])
                add_tile(self, GTK_GRID(grid), name, (DmkMode)m, col++, (int)i + 1);
    }
    g_ptr_array_unref(names);
    /* A block-size sweep has 18 rows: they scroll, the chart stays. */
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), grid);
    gtk_widget_set_valign(grid, GTK_ALIGN_START);
    return scroll;
}

static GtkWidget *build_chart(DmkResultView *self)
{
    const DmkRunResult *r = dmk_saved_get_result(self->saved);
    self->chart = dmk_plot_area_new();
    dmk_plot_area_set_plot(self->chart, dmk_plot_new(&r, NULL, 1, "mb_s"));
    GtkWidget *frame = gtk_frame_new(NULL);
    gtk_frame_set_child(GTK_FRAME(frame), self->chart);
    gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN);
    gtk_widget_add_css_class(frame, "chart");
    return frame;
}

/* ---- public ---------------------------------------------------------------- */

static void apply_unit(DmkResultView *self)
{
    for (guint i = 0; i < self->tiles->len; i++)
        dmk_tile_set_unit(g_ptr_array_index(self->tiles, i), self->unit);
    for (int m = 0; m < N_MODES; m++) {
        if (!self->headers[m])
            continue;
        char *text =
            g_strdup_printf("%s [%s]", _(dmk_mode_title((DmkMode)m)), dmk_unit_label(self->unit));
        gtk_label_set_text(GTK_LABEL(self->headers[m]), text);
        g_free(text);
    }
}

static void ensure_built(DmkResultView *self)
{
    if (self->built)
        return;
    self->built = TRUE;
    if (self->build_id)
        g_source_remove(self->build_id);
    self->build_id = 0;
    GtkWidget *body = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10);
    gtk_widget_set_vexpand(body, TRUE);
    gtk_box_append(GTK_BOX(body), build_tiles(self));
    gtk_box_append(GTK_BOX(body), build_chart(self));
    /* The view fits the window as it is, scrolling when it is smaller
     * than the view's least: a result that opens must not resize the
     * window (it jumped from 754x420 to 1000x620). */
    GtkWidget *content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_box_append(GTK_BOX(content), build_header(self));
    gtk_box_append(GTK_BOX(content), body);
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), content);
    gtk_widget_set_vexpand(scroll, TRUE);
    gtk_widget_set_hexpand(scroll, TRUE);
    gtk_box_append(GTK_BOX(self), scroll);
    apply_unit(self);
}

static gboolean build_when_idle(gpointer data)
{
    DmkResultView *self = data;
    self->build_id = 0;
    ensure_built(self);
    return G_SOURCE_REMOVE;
}

GtkWidget *dmk_result_view_new(DmkSaved *saved, DmkUnit unit)
{
    DmkResultView *self = g_object_new(DMK_TYPE_RESULT_VIEW, "orientation",
                                       GTK_ORIENTATION_VERTICAL, "spacing", 8, NULL);
    self->saved = dmk_saved_ref(saved);
    self->unit = unit;
    /* The widgets are made in a main-loop turn of their own, ahead of the
     * next frame (GTK lays out and draws at a lower priority): a run's
     * end then does its own work in one turn and this in the next,
     * neither holding the loop for both. Whoever needs them sooner (the
     * dump, an export) has them built at once. */
    self->build_id = g_idle_add_full(G_PRIORITY_HIGH_IDLE, build_when_idle, self, NULL);
    return GTK_WIDGET(self);
}

DmkSaved *dmk_result_view_get_saved(DmkResultView *self)
{
    return self->saved;
}

GtkWidget *dmk_result_view_get_chart(DmkResultView *self)
{
    ensure_built(self);
    return self->chart;
}

void dmk_result_view_set_unit(DmkResultView *self, DmkUnit unit)
{
    self->unit = unit;
    if (self->built)
        apply_unit(self);
}

void dmk_result_view_update_comment(DmkResultView *self)
{
    if (!self->info)
        return; /* not built yet: the header will have it */
    const char *text = dmk_saved_get_result(self->saved)->comment;
    if (self->comment)
        gtk_box_remove(GTK_BOX(self->info), self->comment);
    self->comment = text[0] ? context_label(text, "result-comment") : NULL;
    if (self->comment)
        gtk_box_append(GTK_BOX(self->info), self->comment);
}

void dmk_result_view_dump(DmkResultView *self, int tab, GString *out)
{
    ensure_built(self);
    if (self->comment) {
        char *one = g_strdelimit(g_strdup(gtk_label_get_text(GTK_LABEL(self->comment))), "\n", ' ');
        g_string_append_printf(out, "tab-comment\t%d\t%s\n", tab, one);
        g_free(one);
    }
    char notes[2048];
    dmk_run_fs_notes(dmk_saved_get_result(self->saved), notes, sizeof notes);
    g_strchomp(notes);
    if (notes[0])
        g_string_append_printf(out, "tab-flags-note\t%d\t%s\n", tab,
                               g_strdelimit(notes, "\n", ';'));
    for (guint i = 0; i < self->tiles->len; i++) {
        DmkTile *t = g_ptr_array_index(self->tiles, i);
        const DmkTest *test = dmk_tile_get_test(t);
        g_string_append_printf(out, "tab-tile\t%d\t%s\t%s\t%s\n", tab, test->name,
                               dmk_mode_name(test->mode), dmk_tile_get_text(t));
        if (dmk_tile_get_flags_text(t)[0])
            g_string_append_printf(out, "tab-tile-flags\t%d\t%s\t%s\t%s\n", tab, test->name,
                                   dmk_mode_name(test->mode), dmk_tile_get_flags_text(t));
    }
    char *what = g_strdup_printf("tab-%d", tab);
    dmk_plot_area_dump(self->chart, what, out); /* "tab-N-chart ..." */
    g_free(what);
    if (self->verify)
        g_string_append_printf(out, "tab-verify\t%d\t%s\t%s\n", tab,
                               gtk_widget_has_css_class(self->verify, "result-verify-bad") ? "bad"
                                                                                           : "good",
                               gtk_label_get_text(GTK_LABEL(self->verify)));
}

/* ---- GObject ------------------------------------------------------------- */

static void dmk_result_view_dispose(GObject *object)
{
    DmkResultView *self = DMK_RESULT_VIEW(object);
    if (self->build_id)
        g_source_remove(self->build_id);
    self->build_id = 0;
    g_clear_pointer(&self->saved, dmk_saved_unref);
    G_OBJECT_CLASS(dmk_result_view_parent_class)->dispose(object);
}

static void dmk_result_view_finalize(GObject *object)
{
    DmkResultView *self = DMK_RESULT_VIEW(object);
    g_ptr_array_unref(self->tiles);
    G_OBJECT_CLASS(dmk_result_view_parent_class)->finalize(object);
}

static void dmk_result_view_class_init(DmkResultViewClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = dmk_result_view_dispose;
    G_OBJECT_CLASS(klass)->finalize = dmk_result_view_finalize;
}

static void dmk_result_view_init(DmkResultView *self)
{
    self->tiles = g_ptr_array_new();
    gtk_widget_add_css_class(GTK_WIDGET(self), "result-view");
}
