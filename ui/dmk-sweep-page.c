/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-sweep-page.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dmk-widgets.h"
#include "dmk-plot.h"
#include "dmk-size.h"
#include "dmk-text.h"
#include "dmk-version.h"

/* Marked only: dropdown() translates them. */
static const char *const kind_labels[] = {N_("Queue depth"), N_("Block size"), NULL};
/* TRANSLATORS: the access pattern: random or sequential offsets. */
static const char *const pattern_labels[] = {N_("Random"), N_("Sequential"), NULL};
static const DmkPattern patterns[] = {DMK_PATTERN_RND, DMK_PATTERN_SEQ};
/* TRANSLATORS: the sweep's directions: read and/or write (verbs). */
static const char *const mode_labels[] = {N_("Read & Write"), N_("Read"), N_("Write"), NULL};
static const DmkRunMode modes[] = {DMK_RUN_READ_WRITE, DMK_RUN_READ, DMK_RUN_WRITE};

enum { SIGNAL_RUN, SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

struct _DmkSweepPage {
    GtkBox parent_instance;
    GtkWidget *kind_dd, *pattern_dd, *mode_dd;
    gboolean read_only; /* the target takes no writes: the sweep reads */
    guint user_mode;    /* the Directions the user chose, back when writes are */
    GtkWidget *button;
    GtkWidget *points_label, *note_label;
    GtkWidget *progress;
    GtkWidget *stack; /* the chart, or what to expect while there is none */
    GtkWidget *empty_title, *empty_text;
    GtkWidget *chart;
    DmkRunResult live; /* the points so far; tests in live_tests */
    GArray *live_tests;
};

G_DEFINE_FINAL_TYPE(DmkSweepPage, dmk_sweep_page, GTK_TYPE_BOX)

/* ---- what the controls say ------------------------------------------------ */

void dmk_sweep_page_get_sweep(DmkSweepPage *self, DmkSweep *out)
{
    guint k = gtk_drop_down_get_selected(GTK_DROP_DOWN(self->kind_dd));
    guint p = gtk_drop_down_get_selected(GTK_DROP_DOWN(self->pattern_dd));
    guint m = gtk_drop_down_get_selected(GTK_DROP_DOWN(self->mode_dd));
    dmk_sweep_init(out, k == 1 ? DMK_SWEEP_BS : DMK_SWEEP_QD, patterns[p < 2 ? p : 0]);
    out->mode = self->read_only ? DMK_RUN_READ : modes[m < 3 ? m : 0];
}

static void append_point(GString *s, const DmkSweep *sw, size_t i)
{
    char buf[32];
    if (i > 0)
        /* TRANSLATORS: between the last two of a list of points ("1, 2 and 4"). */
        g_string_append(s, i + 1 == sw->n_points ? _(" and ") : ", ");
    if (sw->kind == DMK_SWEEP_QD)
        g_string_append_printf(s, "%u", sw->points[i]);
    else
        g_string_append(s, dmk_format_size(sw->points[i], buf, sizeof buf));
}

/* "Random 4 KiB at queue depths 1, 2, 4, 8, 16 and 32, one thread; reads,
 * then writes". */
static void update_points(DmkSweepPage *self)
{
    DmkSweep sw;
    char bs[32];
    dmk_sweep_page_get_sweep(self, &sw);
    GString *s = g_string_new("");
    for (size_t i = 0; i < sw.n_points; i++)
        append_point(s, &sw, i);
    const char *dirs = sw.mode == DMK_RUN_READ    ? _("reads")
                       : sw.mode == DMK_RUN_WRITE ? _("writes")
                                                  : _("all reads, then all writes");
    bool seq = sw.pattern == DMK_PATTERN_SEQ;
    char *text;
    /* TRANSLATORS: what a sweep measures: %1$s a block size ("4 KiB") or a
     * queue depth, %2$s the points ("1, 2, 4 and 8"), %3$s the directions
     * ("reads", "all reads, then all writes"). */
    if (sw.kind == DMK_SWEEP_QD)
        text = g_strdup_printf(seq ? _("Sequential %1$s at queue depths %2$s, one thread; %3$s")
                                   : _("Random %1$s at queue depths %2$s, one thread; %3$s"),
                               dmk_format_size(sw.block_size, bs, sizeof bs), s->str, dirs);
    else
        text = g_strdup_printf(seq ? _("Sequential at QD%1$u with blocks of %2$s, one thread; %3$s")
                                   : _("Random at QD%1$u with blocks of %2$s, one thread; %3$s"),
                               sw.queue_depth, s->str, dirs);
    gtk_label_set_text(GTK_LABEL(self->points_label), text);
    g_free(text);
    g_string_free(s, TRUE);
}

static void on_changed(GtkDropDown *dd, GParamSpec *pspec, DmkSweepPage *self)
{
    (void)dd;
    (void)pspec;
    update_points(self);
    g_signal_emit(self, signals[SIGNAL_CHANGED], 0);
}

void dmk_sweep_page_set_kind(DmkSweepPage *self, DmkSweepKind kind)
{
    gtk_drop_down_set_selected(GTK_DROP_DOWN(self->kind_dd), kind == DMK_SWEEP_BS ? 1 : 0);
}

void dmk_sweep_page_set_note(DmkSweepPage *self, const char *note)
{
    gtk_label_set_text(GTK_LABEL(self->note_label), note);
}

/* ---- running ---------------------------------------------------------------- */

void dmk_sweep_page_block_start(DmkSweepPage *self, const char *why)
{
    if (gtk_widget_get_sensitive(self->kind_dd)) /* not while a run is under way */
        dmk_start_button_block(self->button, why, _("Run the sweep"));
}

void dmk_sweep_page_set_read_only(DmkSweepPage *self, const char *why)
{
    GtkDropDown *dd = GTK_DROP_DOWN(self->mode_dd);
    if (why && !self->read_only)
        self->user_mode = gtk_drop_down_get_selected(dd);
    gboolean was = self->read_only;
    self->read_only = why != NULL;
    gtk_drop_down_set_selected(dd, why   ? 1
                                   : was ? self->user_mode
                                         : gtk_drop_down_get_selected(dd));
    gtk_widget_set_sensitive(self->mode_dd, !why && gtk_widget_get_sensitive(self->kind_dd));
    gtk_widget_set_tooltip_text(self->mode_dd,
                                why ? why : _("Directions: a read sweep, then a write sweep"));
}

void dmk_sweep_page_set_running(DmkSweepPage *self, gboolean running, gboolean mine)
{
    dmk_start_button_set(self->button, running, mine, _("Stop the sweep (Esc)"),
                         _("Run the sweep"));
    gtk_widget_set_sensitive(self->kind_dd, !running);
    gtk_widget_set_sensitive(self->pattern_dd, !running);
    gtk_widget_set_sensitive(self->mode_dd, !running && !self->read_only);
}

static void show_live(DmkSweepPage *self)
{
    const DmkRunResult *r = &self->live;
    self->live.tests = (DmkTestResult *)(void *)self->live_tests->data;
    self->live.n_tests = self->live_tests->len;
    dmk_plot_area_set_plot(self->chart, dmk_plot_new(&r, NULL, 1, "mb_s"));
    gtk_stack_set_visible_child_name(GTK_STACK(self->stack), r->n_tests ? "chart" : "empty");
}

static void set_empty(DmkSweepPage *self, const char *title, const char *text)
{
    gtk_label_set_text(GTK_LABEL(self->empty_title), title);
    gtk_label_set_text(GTK_LABEL(self->empty_text), text);
}

/* The chart's context comes from the spec, as the finished result's will. */
static void live_context(DmkRunResult *r, const DmkRunSpec *spec)
{
    memset(r, 0, sizeof *r);
    g_strlcpy(r->version, DMK_VERSION, sizeof r->version);
    g_strlcpy(r->sweep, spec->sweep, sizeof r->sweep);
    g_strlcpy(r->target.path, spec->dir, sizeof r->target.path);
    r->size = spec->size;
    r->passes = spec->passes;
    r->measure_s = spec->measure_s;
    r->data = spec->data;
}

void dmk_sweep_page_begin(DmkSweepPage *self, const DmkRunSpec *spec)
{
    live_context(&self->live, spec);
    g_array_set_size(self->live_tests, 0);
    set_empty(self, _("Measuring the first point\u2026"),
              _("The test file is written first; then each point adds to the chart."));
    show_live(self);
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), 0);
    gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress), _("Starting\u2026"));
    gtk_widget_set_visible(self->progress, TRUE);
}

/* Points done plus the share of the current one. */
static double overall(const DmkProgress *p)
{
    if (p->n_tests == 0 || p->stage == DMK_STAGE_PREPARE)
        return 0;
    double part = p->stage == DMK_STAGE_MEASURE && p->passes
                      ? ((double)p->pass - 1 + p->fraction) / (double)p->passes
                  : p->stage == DMK_STAGE_INTERVAL ? 1.0
                                                   : 0.0;
    return ((double)p->test_index + part) / (double)p->n_tests;
}

void dmk_sweep_page_progress(DmkSweepPage *self, const DmkProgress *p)
{
    char *text = dmk_text_progress(p);
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), overall(p));
    gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress), text);
    g_free(text);
}

void dmk_sweep_page_point(DmkSweepPage *self, const DmkTest *test, const DmkPassResult *score)
{
    DmkTestResult t;
    memset(&t, 0, sizeof t);
    t.test = *test;
    t.score = *score;
    g_array_append_val(self->live_tests, t);
    show_live(self);
}

void dmk_sweep_page_end(DmkSweepPage *self, gboolean done, const char *status)
{
    gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress), status);
    if (done)
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), 1.0);
}

GtkWidget *dmk_sweep_page_get_chart(DmkSweepPage *self)
{
    return self->chart;
}

/* ---- building ------------------------------------------------------------- */

static GtkWidget *labelled(const char *text, GtkWidget *widget)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    GtkWidget *l = gtk_label_new_with_mnemonic(text);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_mnemonic_widget(GTK_LABEL(l), widget);
    gtk_widget_add_css_class(l, "field-label");
    gtk_box_append(GTK_BOX(box), l);
    gtk_box_append(GTK_BOX(box), widget);
    return box;
}

static GtkWidget *dropdown(DmkSweepPage *self, const char *const *labels, const char *tip)
{
    const char *shown[4] = {NULL};
    for (size_t i = 0; labels[i] && i + 1 < G_N_ELEMENTS(shown); i++)
        shown[i] = _(labels[i]);
    GtkWidget *dd = gtk_drop_down_new_from_strings(shown);
    gtk_widget_set_tooltip_text(dd, tip);
    g_signal_connect(dd, "notify::selected", G_CALLBACK(on_changed), self);
    return dd;
}

static void on_button(GtkButton *b, DmkSweepPage *self)
{
    (void)b;
    g_signal_emit(self, signals[SIGNAL_RUN], 0);
}

/* The kind, pattern and directions with Start on one row, what they
 * mean below: narrow enough that the Benchmark tab keeps its size. */
static GtkWidget *build_controls(DmkSweepPage *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    self->kind_dd = dropdown(self, kind_labels, _("What varies from point to point"));
    self->pattern_dd = dropdown(self, pattern_labels, _("Where each I/O goes in the test file"));
    self->mode_dd = dropdown(self, mode_labels, _("Directions: a read sweep, then a write sweep"));
    gtk_box_append(GTK_BOX(row), labelled(_("_Sweep"), self->kind_dd));
    gtk_box_append(GTK_BOX(row), labelled(_("_Pattern"), self->pattern_dd));
    gtk_box_append(GTK_BOX(row), labelled(_("_Directions"), self->mode_dd));
    self->button = gtk_button_new_with_label(_("Start"));
    gtk_widget_add_css_class(self->button, "run-button");
    gtk_widget_set_valign(self->button, GTK_ALIGN_END);
    gtk_widget_set_halign(self->button, GTK_ALIGN_END);
    gtk_widget_set_hexpand(self->button, TRUE);
    g_signal_connect(self->button, "clicked", G_CALLBACK(on_button), self);
    gtk_box_append(GTK_BOX(row), self->button);
    gtk_box_append(GTK_BOX(box), row);
    self->points_label = gtk_label_new("");
    self->note_label = gtk_label_new("");
    GtkWidget *labels[] = {self->points_label, self->note_label};
    for (size_t i = 0; i < G_N_ELEMENTS(labels); i++) {
        gtk_label_set_xalign(GTK_LABEL(labels[i]), 0);
        gtk_label_set_wrap(GTK_LABEL(labels[i]), TRUE);
        gtk_label_set_max_width_chars(GTK_LABEL(labels[i]), 60);
        gtk_widget_add_css_class(labels[i], "result-context");
        gtk_box_append(GTK_BOX(box), labels[i]);
    }
    return box;
}

static GtkWidget *build_empty(DmkSweepPage *self)
{
    GtkWidget *box = dmk_empty_state_new(&self->empty_title, &self->empty_text);
    set_empty(self, _("No sweep measured yet"),
              _("Start measures each point in turn, and the line grows as they finish. The "
                "finished sweep opens as a tab of its own, to save, export or compare."));
    return box;
}

static GtkWidget *build_chart(DmkSweepPage *self)
{
    self->chart = dmk_plot_area_new();
    GtkWidget *frame = gtk_frame_new(NULL);
    gtk_frame_set_child(GTK_FRAME(frame), self->chart);
    gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN);
    gtk_widget_add_css_class(frame, "chart");
    self->stack = gtk_stack_new();
    gtk_stack_add_named(GTK_STACK(self->stack), build_empty(self), "empty");
    gtk_stack_add_named(GTK_STACK(self->stack), frame, "chart");
    gtk_widget_set_vexpand(self->stack, TRUE);
    return self->stack;
}

static void dmk_sweep_page_finalize(GObject *object)
{
    DmkSweepPage *self = DMK_SWEEP_PAGE(object);
    g_array_unref(self->live_tests);
    G_OBJECT_CLASS(dmk_sweep_page_parent_class)->finalize(object);
}

static void dmk_sweep_page_class_init(DmkSweepPageClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = dmk_sweep_page_finalize;
    signals[SIGNAL_RUN] = g_signal_new("run", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                       NULL, NULL, G_TYPE_NONE, 0);
    /* A field changed (the window clears its error then). */
    signals[SIGNAL_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void dmk_sweep_page_init(DmkSweepPage *self)
{
    self->live_tests = g_array_new(FALSE, TRUE, sizeof(DmkTestResult));
    gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_VERTICAL);
    gtk_box_set_spacing(GTK_BOX(self), 8);
    gtk_widget_add_css_class(GTK_WIDGET(self), "sweep-page");
    gtk_box_append(GTK_BOX(self), build_controls(self));
    self->progress = gtk_progress_bar_new();
    gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(self->progress), TRUE);
    gtk_widget_set_visible(self->progress, FALSE); /* until a sweep starts */
    gtk_progress_bar_set_ellipsize(GTK_PROGRESS_BAR(self->progress), PANGO_ELLIPSIZE_END);
    gtk_box_append(GTK_BOX(self), self->progress);
    gtk_box_append(GTK_BOX(self), build_chart(self));
    update_points(self);
    show_live(self);
}

GtkWidget *dmk_sweep_page_new(void)
{
    return g_object_new(DMK_TYPE_SWEEP_PAGE, NULL);
}
