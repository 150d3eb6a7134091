/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Lab tab itself: its layout (the form down the left, the run's
 * progress and charts on the right), the test chooser, Start and Stop, a
 * run's beginning and end, and the result's view (dmk-lab-page-private.h
 * lists the tab's parts). */
#include <glib/gi18n.h>

#include "dmk-lab-page-private.h"
#include "dmk-text.h"
#include "dmk-widgets.h"

#define FORM_WIDTH 300 /* the Lab tab's form, in pixels */

enum { SIGNAL_RUN, SIGNAL_KIND_CHANGED, SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(DmkLabPage, dmk_lab_page, GTK_TYPE_BOX)

/* ---- running ------------------------------------------------------------------ */

void dmk_lab_page_set_running(DmkLabPage *self, gboolean running, gboolean mine)
{
    self->running = running && mine;
    dmk_start_button_set(self->button, running, mine,
                         _("Stop the test; what it measured is kept (Esc)"),
                         _("Run the test chosen above"));
    gtk_widget_set_sensitive(self->kind_dd, !running);
    gtk_widget_set_sensitive(self->form_stack, !running);
}

void dmk_lab_page_block_start(DmkLabPage *self, const char *why)
{
    if (!self->running)
        dmk_start_button_block(self->button, why, _("Run the test chosen above"));
}

void dmk_lab_page_set_note(DmkLabPage *self, const char *note)
{
    gtk_label_set_text(GTK_LABEL(self->note), note);
}

void dmk_lab_page_set_device(DmkLabPage *self, gboolean device)
{
    if (self->device == device)
        return;
    self->device = device;
    _dmk_lab_page_form_set_device(self);
    _dmk_lab_page_update_summary(self);
}

static void set_empty(DmkLabPage *self, const char *title, const char *text)
{
    gtk_label_set_text(GTK_LABEL(self->empty_title), title);
    gtk_label_set_text(GTK_LABEL(self->empty_text), text);
}

/* The last run's view goes: its result lives on in its own tab. */
static void drop_view(DmkLabPage *self)
{
    if (self->view)
        gtk_box_remove(GTK_BOX(self->result_box), GTK_WIDGET(self->view));
    self->view = NULL;
}

void dmk_lab_page_begin(DmkLabPage *self, const DmkRunSpec *spec)
{
    drop_view(self);
    _dmk_lab_page_live_begin(self, spec);
    /* Until the first measurement: the fill and settling have no chart. */
    set_empty(self, _("Getting ready\u2026"),
              spec->no_fill  ? _("The chart starts with the first measurement.")
              : spec->device ? _("The region is written in full first, and the drive may rest a "
                                 "while; the chart starts with the first measurement.")
                             : _("The test file is written in full first, and the drive may rest a "
                                 "while; the chart starts with the first measurement."));
    gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "empty");
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), 0);
    gtk_label_set_text(GTK_LABEL(self->progress_label), _("Starting\u2026"));
    gtk_widget_set_visible(self->progress_box, TRUE);
}

static void show_result(DmkLabPage *self, DmkSaved *saved)
{
    drop_view(self);
    self->view = DMK_LAB_VIEW(dmk_lab_view_new(saved, FALSE));
    gtk_box_append(GTK_BOX(self->result_box), GTK_WIDGET(self->view));
    gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "result");
}

void dmk_lab_page_end(DmkLabPage *self, DmkSaved *saved, gboolean done, const char *status)
{
    gtk_label_set_text(GTK_LABEL(self->progress_label), status);
    _dmk_lab_page_refresh_live(self, TRUE);
    if (done)
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), 1.0);
    if (saved) {
        show_result(self, saved);
    } else if (self->live->len == 0) {
        set_empty(self, _("Nothing was measured"), status);
        gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "empty");
    }
}

DmkLabView *dmk_lab_page_get_view(DmkLabPage *self)
{
    return self->view;
}

/* ---- for tests ---------------------------------------------------------------- */

void dmk_lab_page_dump(DmkLabPage *self, GString *out)
{
    _dmk_lab_page_dump_form(self, out);
    g_string_append_printf(out, "lab-state\t%s\n",
                           gtk_stack_get_visible_child_name(GTK_STACK(self->stack)));
    if (gtk_widget_get_visible(self->progress_box))
        g_string_append_printf(out, "lab-progress\t%s\n",
                               gtk_label_get_text(GTK_LABEL(self->progress_label)));
    g_string_append_printf(out, "lab-live-points\t%u\n", self->live->len);
    if (self->view)
        dmk_lab_view_dump(self->view, "lab", 0, out);
}

/* ---- building ------------------------------------------------------------------ */

static void on_kind(GtkDropDown *dd, GParamSpec *pspec, DmkLabPage *self)
{
    (void)pspec;
    const DmkLabTest *t = dmk_lab_test_at(gtk_drop_down_get_selected(dd));
    gtk_stack_set_visible_child_name(GTK_STACK(self->form_stack), t->name);
    if (!self->view && self->live->len == 0 && !self->running)
        set_empty(self, _(t->title), _(t->blurb));
    _dmk_lab_page_update_summary(self);
    g_signal_emit(self, signals[SIGNAL_KIND_CHANGED], 0);
}

static void on_button(GtkButton *b, DmkLabPage *self)
{
    (void)b;
    g_signal_emit(self, signals[SIGNAL_RUN], 0);
}

static GtkWidget *info_label(const char *css_class)
{
    GtkWidget *l = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
    /* Narrow natural width: the form's width decides where it wraps. */
    gtk_label_set_max_width_chars(GTK_LABEL(l), 10);
    gtk_widget_add_css_class(l, css_class);
    return l;
}

static GtkWidget *build_kind_chooser(DmkLabPage *self)
{
    const char *titles[DMK_LAB_MAX_TESTS + 1] = {NULL};
    for (size_t i = 0; i < dmk_lab_test_count(); i++)
        titles[i] = _(dmk_lab_test_at(i)->title);
    self->kind_dd = gtk_drop_down_new_from_strings(titles);
    gtk_widget_set_hexpand(self->kind_dd, TRUE);
    gtk_widget_set_tooltip_text(self->kind_dd, _("Which review-lab test to run"));
    GtkWidget *grid = _dmk_lab_page_form_grid();
    gtk_grid_attach(GTK_GRID(grid), _dmk_lab_page_form_label(self, _("_Test"), self->kind_dd), 0, 0,
                    1, 1);
    gtk_grid_attach(GTK_GRID(grid), self->kind_dd, 1, 0, 1, 1);
    return grid;
}

/* Start, which turns into Stop while the test runs (set_running). */
static GtkWidget *build_start(DmkLabPage *self)
{
    self->button = gtk_button_new_with_label(_("Start"));
    gtk_widget_add_css_class(self->button, "run-button");
    gtk_widget_set_margin_top(self->button, 4);
    g_signal_connect(self->button, "clicked", G_CALLBACK(on_button), self);
    return self->button;
}

/* A fixed width however long the words: the chart gets the rest; a
 * short window scrolls the form rather than cut it. Its natural height
 * is not passed up: the notebook asks every page for its natural size,
 * and a tall form made the Benchmark tab's window twice as high as its
 * tiles (the Lab tab makes the window roomy when it is opened). */
static GtkWidget *form_scroller(GtkWidget *form)
{
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), FALSE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), form);
    gtk_widget_set_hexpand(scroll, FALSE); /* the fields expand within it, not it */
    return scroll;
}

/* The test and its settings, what they mean and how long it takes, and
 * Start: a form down the left, as a lab tool's side panel. */
static GtkWidget *build_form(DmkLabPage *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10);
    gtk_widget_add_css_class(box, "lab-form");
    gtk_widget_set_size_request(box, FORM_WIDTH, -1);
    gtk_box_append(GTK_BOX(box), build_kind_chooser(self));
    gtk_box_append(GTK_BOX(box), _dmk_lab_page_build_fields(self));
    gtk_box_append(GTK_BOX(box), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL));
    self->summary = info_label("lab-summary");
    self->duration = info_label("lab-duration");
    self->note = info_label("result-context");
    gtk_box_append(GTK_BOX(box), self->summary);
    gtk_box_append(GTK_BOX(box), self->duration);
    gtk_box_append(GTK_BOX(box), self->note);
    gtk_box_append(GTK_BOX(box), build_start(self));
    return form_scroller(box);
}

static GtkWidget *build_empty(DmkLabPage *self)
{
    GtkWidget *box = dmk_empty_state_new(&self->empty_title, &self->empty_text);
    return box;
}

/* The progress line over its bar: a long line reads better left-aligned
 * in the body font than squeezed into the bar. */
static GtkWidget *build_progress(DmkLabPage *self)
{
    self->progress_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    self->progress_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(self->progress_label), 0);
    gtk_label_set_ellipsize(GTK_LABEL(self->progress_label), PANGO_ELLIPSIZE_END);
    gtk_label_set_selectable(GTK_LABEL(self->progress_label), TRUE);
    gtk_widget_set_can_focus(self->progress_label, FALSE);
    gtk_widget_add_css_class(self->progress_label, "lab-progress");
    self->progress = gtk_progress_bar_new();
    gtk_box_append(GTK_BOX(self->progress_box), self->progress_label);
    gtk_box_append(GTK_BOX(self->progress_box), self->progress);
    gtk_widget_set_visible(self->progress_box, FALSE); /* until a test starts */
    return self->progress_box;
}

static GtkWidget *build_results(DmkLabPage *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_set_hexpand(box, TRUE);
    gtk_box_append(GTK_BOX(box), build_progress(self));
    self->result_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    self->stack = gtk_stack_new();
    gtk_stack_add_named(GTK_STACK(self->stack), build_empty(self), "empty");
    gtk_stack_add_named(GTK_STACK(self->stack), _dmk_lab_page_build_live(self), "live");
    gtk_stack_add_named(GTK_STACK(self->stack), self->result_box, "result");
    gtk_widget_set_vexpand(self->stack, TRUE);
    gtk_box_append(GTK_BOX(box), self->stack);
    return box;
}

static void dmk_lab_page_dispose(GObject *object)
{
    DmkLabPage *self = DMK_LAB_PAGE(object);
    g_clear_object(&self->label_group);
    G_OBJECT_CLASS(dmk_lab_page_parent_class)->dispose(object);
}

static void dmk_lab_page_finalize(GObject *object)
{
    DmkLabPage *self = DMK_LAB_PAGE(object);
    g_array_unref(self->live);
    G_OBJECT_CLASS(dmk_lab_page_parent_class)->finalize(object);
}

static void dmk_lab_page_class_init(DmkLabPageClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = dmk_lab_page_dispose;
    G_OBJECT_CLASS(klass)->finalize = dmk_lab_page_finalize;
    signals[SIGNAL_RUN] = g_signal_new("run", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                       NULL, NULL, G_TYPE_NONE, 0);
    signals[SIGNAL_KIND_CHANGED] =
        g_signal_new("kind-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                     NULL, G_TYPE_NONE, 0);
    /* Any field of the form changed (the window clears its error then). */
    signals[SIGNAL_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void dmk_lab_page_init(DmkLabPage *self)
{
    self->live = g_array_new(FALSE, TRUE, sizeof(DmkChartPoint));
    self->label_group = gtk_size_group_new(GTK_SIZE_GROUP_HORIZONTAL);
    dmk_chart_model_init(&self->live_model);
    gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_HORIZONTAL);
    gtk_box_set_spacing(GTK_BOX(self), 14);
    gtk_widget_add_css_class(GTK_WIDGET(self), "lab-page");
    gtk_box_append(GTK_BOX(self), build_form(self));
    gtk_box_append(GTK_BOX(self), build_results(self));
    g_signal_connect(self->kind_dd, "notify::selected", G_CALLBACK(on_kind), self);
    on_kind(GTK_DROP_DOWN(self->kind_dd), NULL, self);
}

GtkWidget *dmk_lab_page_new(void)
{
    return g_object_new(DMK_TYPE_LAB_PAGE, NULL);
}
