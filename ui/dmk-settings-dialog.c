/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-settings-dialog.h"

#include <glib/gi18n.h>

#include "dmk-size.h"
#include "dmk-spec.h"
#include "dmk-widgets.h"

/* CrystalDiskMark's menus. */
static const int measure_choices[] = {5, 10, 20, 30, 60};
static const int interval_choices[] = {0, 1, 3, 5, 10, 30, 60};

size_t dmk_settings_measure_choices(const int **values)
{
    *values = measure_choices;
    return G_N_ELEMENTS(measure_choices);
}

size_t dmk_settings_interval_choices(const int **values)
{
    *values = interval_choices;
    return G_N_ELEMENTS(interval_choices);
}

/* Block sizes: every power of two the engine takes (dmk-spec.h's limits). */
#define N_BLOCKS 18

typedef struct {
    GtkDropDown *type, *block;
    GtkSpinButton *queues, *threads;
    GtkLabel *name;
} Row;

struct _DmkSettingsDialog {
    GtkWindow parent_instance;
    GSettings *settings;
    Row rows[DMK_SETTINGS_ROWS];
    size_t n_rows;
    guint32 blocks[N_BLOCKS];
    guint n_blocks;
    GtkSpinButton *share, *measure, *interval;
    double measure_shown, interval_shown;
    gboolean measure_changed, interval_changed;
    GtkLabel *problem;
};

enum { SIGNAL_APPLIED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(DmkSettingsDialog, dmk_settings_dialog, GTK_TYPE_WINDOW)

/* ---- a row's test ---------------------------------------------------------- */

static void row_job(DmkSettingsDialog *self, const Row *r, DmkJob *job)
{
    guint b = gtk_drop_down_get_selected(r->block);
    *job = (DmkJob){
        .pattern = gtk_drop_down_get_selected(r->type) == 1 ? DMK_PATTERN_RND : DMK_PATTERN_SEQ,
        .block_size = self->blocks[b < self->n_blocks ? b : 0],
        .queue_depth = (uint32_t)gtk_spin_button_get_value_as_int(r->queues),
        .threads = (uint32_t)gtk_spin_button_get_value_as_int(r->threads),
        .read_share = 100,
    };
}

/* What the tile's label will say: "RND4K Q32T16". */
static void update_name(DmkSettingsDialog *self, Row *r)
{
    DmkJob job;
    char name[48];
    row_job(self, r, &job);
    gtk_label_set_text(r->name, dmk_job_format_name(&job, name, sizeof name));
    gtk_widget_set_visible(GTK_WIDGET(self->problem), FALSE);
}

static void on_row_changed(GObject *w, GParamSpec *pspec, DmkSettingsDialog *self)
{
    (void)pspec;
    for (size_t i = 0; i < self->n_rows; i++)
        if (w == G_OBJECT(self->rows[i].type) || w == G_OBJECT(self->rows[i].block) ||
            w == G_OBJECT(self->rows[i].queues) || w == G_OBJECT(self->rows[i].threads))
            update_name(self, &self->rows[i]);
}

static void set_row_job(DmkSettingsDialog *self, Row *r, const DmkJob *job)
{
    guint b = 0;
    while (b < self->n_blocks && self->blocks[b] != job->block_size)
        b++;
    gtk_drop_down_set_selected(r->type, job->pattern == DMK_PATTERN_RND ? 1 : 0);
    gtk_drop_down_set_selected(r->block, b < self->n_blocks ? b : 0);
    gtk_spin_button_set_value(r->queues, job->queue_depth);
    gtk_spin_button_set_value(r->threads, job->threads);
    update_name(self, r);
}

gboolean dmk_settings_dialog_set_test(DmkSettingsDialog *self, int row, const char *name)
{
    DmkJob job;
    g_return_val_if_fail(DMK_IS_SETTINGS_DIALOG(self), FALSE);
    if (row < 0 || (size_t)row >= self->n_rows || dmk_job_parse_name(name, &job, NULL) != DMK_OK)
        return FALSE;
    set_row_job(self, &self->rows[row], &job);
    return TRUE;
}

gboolean dmk_settings_dialog_set_value(DmkSettingsDialog *self, const char *field, int value)
{
    GtkSpinButton *spin = g_strcmp0(field, "mix") == 0        ? self->share
                          : g_strcmp0(field, "measure") == 0  ? self->measure
                          : g_strcmp0(field, "interval") == 0 ? self->interval
                                                              : NULL;
    if (spin)
        gtk_spin_button_set_value(spin, value);
    return spin != NULL;
}

/* ---- building ------------------------------------------------------------ */

static GtkSpinButton *spin_new(double min, double max)
{
    GtkWidget *s = gtk_spin_button_new_with_range(min, max, 1);
    gtk_spin_button_set_numeric(GTK_SPIN_BUTTON(s), TRUE);
    return GTK_SPIN_BUTTON(s);
}

/* The schema's range of an integer key, so the dialog offers what the
 * settings take and nothing else. */
static GtkSpinButton *key_spin_new(GSettings *settings, const char *key)
{
    GSettingsSchema *schema = NULL;
    g_object_get(settings, "settings-schema", &schema, NULL);
    GSettingsSchemaKey *k = g_settings_schema_get_key(schema, key);
    GVariant *range = g_settings_schema_key_get_range(k);
    GVariant *bounds = NULL;
    const char *type = NULL;
    g_variant_get(range, "(&sv)", &type, &bounds);
    int min = 0, max = 0;
    if (g_strcmp0(type, "range") == 0)
        g_variant_get(bounds, "(ii)", &min, &max);
    g_variant_unref(bounds);
    g_variant_unref(range);
    g_settings_schema_key_unref(k);
    g_settings_schema_unref(schema);
    return spin_new(min, max);
}

static int key_default_int(GSettings *settings, const char *key)
{
    GVariant *v = g_settings_get_default_value(settings, key);
    int n = v ? g_variant_get_int32(v) : 0;
    if (v)
        g_variant_unref(v);
    return n;
}

static GtkWidget *heading(const char *text)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_widget_add_css_class(l, "heading");
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    return l;
}

static GtkDropDown *block_drop_down(DmkSettingsDialog *self)
{
    GtkStringList *list = gtk_string_list_new(NULL);
    for (guint i = 0; i < self->n_blocks; i++) {
        char b[16];
        gtk_string_list_append(list, dmk_format_block(self->blocks[i], b, sizeof b));
    }
    GtkDropDown *dd = GTK_DROP_DOWN(gtk_drop_down_new(NULL, NULL));
    dmk_drop_down_show_strings(dd);
    gtk_drop_down_set_model(dd, G_LIST_MODEL(list));
    g_object_unref(list);
    return dd;
}

static void build_row(DmkSettingsDialog *self, GtkGrid *grid, size_t i)
{
    static const char *const types[] = {"SEQ", "RND", NULL};
    Row *r = &self->rows[i];
    r->type = GTK_DROP_DOWN(gtk_drop_down_new_from_strings(types));
    r->block = block_drop_down(self);
    r->queues = spin_new(1, DMK_QD_MAX);
    r->threads = spin_new(1, DMK_THREADS_MAX);
    r->name = GTK_LABEL(gtk_label_new(""));
    gtk_widget_add_css_class(GTK_WIDGET(r->name), "test-name");
    gtk_label_set_xalign(r->name, 0);
    gtk_label_set_width_chars(r->name, 14);
    /* TRANSLATORS: a row of the tiles' grid, by number. */
    char *title = g_strdup_printf(_("Row %zu"), i + 1);
    gtk_grid_attach(grid, gtk_label_new(title), 0, (int)i + 1, 1, 1);
    g_free(title);
    GtkWidget *cells[] = {GTK_WIDGET(r->type), GTK_WIDGET(r->block), GTK_WIDGET(r->queues),
                          GTK_WIDGET(r->threads), GTK_WIDGET(r->name)};
    for (int c = 0; c < (int)G_N_ELEMENTS(cells); c++)
        gtk_grid_attach(grid, cells[c], c + 1, (int)i + 1, 1, 1);
    g_signal_connect(r->type, "notify::selected", G_CALLBACK(on_row_changed), self);
    g_signal_connect(r->block, "notify::selected", G_CALLBACK(on_row_changed), self);
    g_signal_connect(r->queues, "notify::value", G_CALLBACK(on_row_changed), self);
    g_signal_connect(r->threads, "notify::value", G_CALLBACK(on_row_changed), self);
}

static GtkWidget *tests_grid(DmkSettingsDialog *self)
{
    /* TRANSLATORS: the columns of a test's settings; Queues is the queue depth. */
    static const char *const heads[] = {"",           N_("Test"),    N_("Block size"),
                                        N_("Queues"), N_("Threads"), N_("Tile")};
    GtkGrid *grid = GTK_GRID(gtk_grid_new());
    gtk_grid_set_column_spacing(grid, 8);
    gtk_grid_set_row_spacing(grid, 6);
    for (int c = 0; c < (int)G_N_ELEMENTS(heads); c++)
        gtk_grid_attach(grid, heading(heads[c][0] ? _(heads[c]) : ""), c, 0, 1, 1);
    for (size_t i = 0; i < self->n_rows; i++)
        build_row(self, grid, i);
    return GTK_WIDGET(grid);
}

static void attach_field(GtkGrid *grid, int row, const char *label, GtkSpinButton *spin,
                         const char *unit)
{
    GtkWidget *l = gtk_label_new_with_mnemonic(label);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_mnemonic_widget(GTK_LABEL(l), GTK_WIDGET(spin));
    gtk_grid_attach(grid, l, 0, row, 1, 1);
    gtk_grid_attach(grid, GTK_WIDGET(spin), 1, row, 1, 1);
    GtkWidget *u = gtk_label_new(unit);
    gtk_label_set_xalign(GTK_LABEL(u), 0);
    gtk_grid_attach(grid, u, 2, row, 1, 1);
}

static GtkWidget *times_grid(DmkSettingsDialog *self)
{
    GtkGrid *grid = GTK_GRID(gtk_grid_new());
    gtk_grid_set_column_spacing(grid, 8);
    gtk_grid_set_row_spacing(grid, 6);
    self->share = key_spin_new(self->settings, "mix-read-share");
    self->measure = key_spin_new(self->settings, "measure-time");
    self->interval = key_spin_new(self->settings, "interval-time");
    /* TRANSLATORS: a label, its number field, then the unit after the number
     * (% and s stay as they are). */
    attach_field(grid, 0, _("_Mix: reads"), self->share, _("% (the rest writes)"));
    attach_field(grid, 1, _("M_easure time"), self->measure, _("s per pass"));
    attach_field(grid, 2, _("_Interval"), self->interval, _("s between tests"));
    return GTK_WIDGET(grid);
}

static void on_reset(GtkButton *b, DmkSettingsDialog *self)
{
    (void)b;
    dmk_settings_dialog_reset(self);
}

static void on_cancel(GtkButton *b, DmkSettingsDialog *self)
{
    (void)b;
    gtk_window_destroy(GTK_WINDOW(self));
}

static void on_ok(GtkButton *b, DmkSettingsDialog *self)
{
    (void)b;
    dmk_settings_dialog_apply(self);
}

static GtkWidget *buttons(DmkSettingsDialog *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *reset = gtk_button_new_with_mnemonic(_("_Reset to Default"));
    GtkWidget *space = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    GtkWidget *cancel = gtk_button_new_with_mnemonic(_("_Cancel"));
    GtkWidget *ok = gtk_button_new_with_mnemonic(_("_OK"));
    gtk_widget_set_hexpand(space, TRUE);
    gtk_widget_add_css_class(ok, "suggested-action");
    g_signal_connect(reset, "clicked", G_CALLBACK(on_reset), self);
    g_signal_connect(cancel, "clicked", G_CALLBACK(on_cancel), self);
    g_signal_connect(ok, "clicked", G_CALLBACK(on_ok), self);
    gtk_box_append(GTK_BOX(box), reset);
    gtk_box_append(GTK_BOX(box), space);
    gtk_box_append(GTK_BOX(box), cancel);
    gtk_box_append(GTK_BOX(box), ok);
    gtk_window_set_default_widget(GTK_WINDOW(self), ok);
    return box;
}

static void build(DmkSettingsDialog *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_margin_top(box, 12);
    gtk_widget_set_margin_bottom(box, 12);
    gtk_widget_set_margin_start(box, 12);
    gtk_widget_set_margin_end(box, 12);
    gtk_box_append(GTK_BOX(box), heading(_("Tests of the tiles (the custom profile)")));
    gtk_box_append(GTK_BOX(box), tests_grid(self));
    gtk_box_append(GTK_BOX(box), heading(_("Mix and times")));
    gtk_box_append(GTK_BOX(box), times_grid(self));
    self->problem = GTK_LABEL(gtk_label_new(""));
    gtk_label_set_wrap(self->problem, TRUE);
    gtk_label_set_xalign(self->problem, 0);
    gtk_widget_add_css_class(GTK_WIDGET(self->problem), "error");
    gtk_widget_set_visible(GTK_WIDGET(self->problem), FALSE);
    gtk_box_append(GTK_BOX(box), GTK_WIDGET(self->problem));
    gtk_box_append(GTK_BOX(box), buttons(self));
    gtk_window_set_child(GTK_WINDOW(self), box);
}

/* ---- public ------------------------------------------------------------- */

DmkSettingsDialog *dmk_settings_dialog_new(GtkWindow *parent, GSettings *settings,
                                           const DmkProfile *shown, double measure_s,
                                           double interval_s)
{
    DmkSettingsDialog *self =
        g_object_new(DMK_TYPE_SETTINGS_DIALOG, "title", _("Settings"), "transient-for", parent,
                     "modal", TRUE, "destroy-with-parent", TRUE, "resizable", FALSE, NULL);
    self->settings = g_object_ref(settings);
    self->n_rows = DMK_SETTINGS_ROWS;
    for (uint64_t bs = DMK_BS_MIN; bs <= DMK_BS_MAX && self->n_blocks < N_BLOCKS; bs <<= 1)
        self->blocks[self->n_blocks++] = (guint32)bs;
    build(self);
    /* The tiles' tests; rows the profile leaves empty start as the
     * default profile's. */
    const DmkProfile *def = dmk_profile_find("default");
    for (size_t i = 0; i < self->n_rows; i++) {
        const char *name = shown && i < shown->n_tests ? shown->tests[i] : def->tests[i];
        if (!dmk_settings_dialog_set_test(self, (int)i, name))
            dmk_settings_dialog_set_test(self, (int)i, def->tests[i]);
    }
    gtk_spin_button_set_value(self->share, g_settings_get_int(settings, "mix-read-share"));
    self->measure_shown = measure_s;
    self->interval_shown = interval_s;
    gtk_spin_button_set_value(self->measure, measure_s);
    gtk_spin_button_set_value(self->interval, interval_s);
    /* The spin buttons round: compare with what they show, not the value. */
    self->measure_shown = gtk_spin_button_get_value(self->measure);
    self->interval_shown = gtk_spin_button_get_value(self->interval);
    return self;
}

void dmk_settings_dialog_reset(DmkSettingsDialog *self)
{
    const DmkProfile *def = dmk_profile_find("default");
    for (size_t i = 0; i < self->n_rows && i < def->n_tests; i++)
        dmk_settings_dialog_set_test(self, (int)i, def->tests[i]);
    gtk_spin_button_set_value(self->share, key_default_int(self->settings, "mix-read-share"));
    gtk_spin_button_set_value(self->measure, key_default_int(self->settings, "measure-time"));
    gtk_spin_button_set_value(self->interval, key_default_int(self->settings, "interval-time"));
}

/* The engine's own check of a test's buffers, said in the dialog. */
static gboolean rows_runnable(DmkSettingsDialog *self)
{
    for (size_t i = 0; i < self->n_rows; i++) {
        DmkJob job;
        row_job(self, &self->rows[i], &job);
        guint64 bytes = (guint64)job.block_size * job.queue_depth * job.threads;
        if (bytes <= DMK_BUFFER_BYTES_MAX)
            continue;
        char name[48], limit[32];
        char *text = g_strdup_printf(
            /* TRANSLATORS: %s after the row is the test's name (RND4K Q32T1), kept as it is. */
            _("Row %zu, %s, needs more buffers than a test may have (block size \u00d7 queues "
              "\u00d7 threads up to %s): lower one of them."),
            i + 1, dmk_job_format_name(&job, name, sizeof name),
            dmk_format_size(DMK_BUFFER_BYTES_MAX, limit, sizeof limit));
        gtk_label_set_text(self->problem, text);
        gtk_widget_set_visible(GTK_WIDGET(self->problem), TRUE);
        g_free(text);
        return FALSE;
    }
    return TRUE;
}

/* The default profile's tests again are the default profile, not a copy
 * of it under another name. */
static gboolean is_default(const char *const *names, size_t n)
{
    const DmkProfile *def = dmk_profile_find("default");
    if (n != def->n_tests)
        return FALSE;
    for (size_t i = 0; i < n; i++)
        if (g_strcmp0(names[i], def->tests[i]) != 0)
            return FALSE;
    return TRUE;
}

gboolean dmk_settings_dialog_apply(DmkSettingsDialog *self)
{
    if (!rows_runnable(self))
        return FALSE;
    char names[DMK_SETTINGS_ROWS][48];
    const char *strv[DMK_SETTINGS_ROWS + 1] = {NULL};
    for (size_t i = 0; i < self->n_rows; i++) {
        DmkJob job;
        row_job(self, &self->rows[i], &job);
        strv[i] = dmk_job_format_name(&job, names[i], sizeof names[i]);
    }
    if (is_default(strv, self->n_rows)) {
        g_settings_reset(self->settings, "custom-tests");
        g_settings_set_string(self->settings, "profile", "default");
    } else {
        g_settings_set_strv(self->settings, "custom-tests", strv);
        g_settings_set_string(self->settings, "profile", "custom");
    }
    g_settings_set_int(self->settings, "mix-read-share",
                       gtk_spin_button_get_value_as_int(self->share));
    self->measure_changed = gtk_spin_button_get_value(self->measure) != self->measure_shown;
    self->interval_changed = gtk_spin_button_get_value(self->interval) != self->interval_shown;
    if (self->measure_changed)
        g_settings_set_int(self->settings, "measure-time",
                           gtk_spin_button_get_value_as_int(self->measure));
    if (self->interval_changed)
        g_settings_set_int(self->settings, "interval-time",
                           gtk_spin_button_get_value_as_int(self->interval));
    g_signal_emit(self, signals[SIGNAL_APPLIED], 0);
    gtk_window_destroy(GTK_WINDOW(self));
    return TRUE;
}

void dmk_settings_dialog_times_changed(DmkSettingsDialog *self, gboolean *measure,
                                       gboolean *interval)
{
    *measure = self->measure_changed;
    *interval = self->interval_changed;
}

/* ---- GObject ------------------------------------------------------------ */

static void dmk_settings_dialog_dispose(GObject *object)
{
    DmkSettingsDialog *self = DMK_SETTINGS_DIALOG(object);
    g_clear_object(&self->settings);
    G_OBJECT_CLASS(dmk_settings_dialog_parent_class)->dispose(object);
}

static void dmk_settings_dialog_class_init(DmkSettingsDialogClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = dmk_settings_dialog_dispose;
    signals[SIGNAL_APPLIED] = g_signal_new("applied", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void dmk_settings_dialog_init(DmkSettingsDialog *self)
{
    (void)self;
}
