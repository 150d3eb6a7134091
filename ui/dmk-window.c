/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-window-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "dmk-widgets.h"
#include "dmk-target-list.h"
#include "dmk-text.h"

static const char *const mode_ids[] = {"rw", "read", "write"};
/* TRANSLATORS: the test modes: which directions run (Read the noun, as
 * in the columns). */
static const char *const mode_labels[] = {N_("Read & Write"), N_("Read"), N_("Write")};

enum { SIGNAL_RUN_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(DmkWindow, dmk_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- reading the settings ------------------------------------------------ */

const DmkProfile *_dmk_window_profile(DmkWindow *self)
{
    char *id = g_settings_get_string(self->settings, "profile");
    const DmkProfile *p =
        strcmp(id, "custom") == 0 ? _dmk_window_custom_profile(self) : dmk_profile_find(id);
    g_free(id);
    return p ? p : dmk_profile_at(0);
}

gboolean _dmk_window_mix(DmkWindow *self)
{
    return g_settings_get_boolean(self->settings, "mix");
}

static guint mode_index(DmkWindow *self)
{
    char *id = g_settings_get_string(self->settings, "mode");
    guint i = 0;
    while (i < G_N_ELEMENTS(mode_ids) && strcmp(id, mode_ids[i]) != 0)
        i++;
    g_free(id);
    return i < G_N_ELEMENTS(mode_ids) ? i : 0;
}

DmkRunMode _dmk_window_run_mode(DmkWindow *self)
{
    static const DmkRunMode modes[] = {DMK_RUN_READ_WRITE, DMK_RUN_READ, DMK_RUN_WRITE};
    return modes[mode_index(self)];
}

DmkUnit _dmk_window_unit(DmkWindow *self)
{
    char *id = g_settings_get_string(self->settings, "unit");
    DmkUnit u = dmk_unit_from_id(id);
    g_free(id);
    return u;
}

const char *_dmk_window_target_usage(DmkWindow *self)
{
    DmkTargetItem *item = gtk_drop_down_get_selected_item(self->target_dd);
    return item ? dmk_target_item_get_usage(item) : NULL;
}

const char *_dmk_window_target_path(DmkWindow *self)
{
    DmkTargetItem *item = gtk_drop_down_get_selected_item(self->target_dd);
    return item ? dmk_target_item_get_path(item) : NULL;
}

/* ---- rows and tiles -------------------------------------------------- */

/* A device in use runs its read tests whatever the mode: their column
 * shows; the others say why they do not run (mark_read_only). */
static gboolean column_shown(DmkWindow *self, DmkMode mode)
{
    DmkRunMode rm = _dmk_window_run_mode(self);
    if (mode == DMK_MODE_MIX)
        return _dmk_window_mix(self);
    if (mode == DMK_MODE_READ)
        return rm != DMK_RUN_WRITE || _dmk_window_target_usage(self);
    return rm != DMK_RUN_READ;
}

/* The write and mixed tiles of a device in use: no number, "read only:
 * mounted at /" on them; lifted once the target is free (or no device). */
static void mark_read_only(DmkWindow *self)
{
    const char *usage = _dmk_window_target_usage(self);
    char *why = usage ? g_strdup_printf(_("read only: %s"), usage) : NULL;
    for (int r = 0; r < DMK_ROWS_MAX; r++) {
        dmk_tile_set_blocked(self->tiles[r][DMK_MODE_WRITE], why);
        dmk_tile_set_blocked(self->tiles[r][DMK_MODE_MIX], why);
    }
    g_free(why);
}

/* A tile's test, as the engine will name and run it. */
static void tile_test(DmkWindow *self, const DmkJob *job, DmkMode mode, DmkTest *t)
{
    DmkRunSpec *spec = g_new(DmkRunSpec, 1);
    dmk_run_spec_init(spec);
    dmk_run_spec_add(spec, job, mode,
                     (uint32_t)g_settings_get_int(self->settings, "mix-read-share"), NULL);
    *t = spec->tests[0];
    g_free(spec);
}

static void layout_row(DmkWindow *self, int row, const char *name)
{
    DmkJob job;
    gboolean used = name && dmk_job_parse_name(name, &job, NULL) == DMK_OK;
    gtk_widget_set_visible(self->row_buttons[row], used);
    self->row_names[row][0] = '\0';
    for (int c = 0; c < DMK_COLS; c++)
        gtk_widget_set_visible(GTK_WIDGET(self->tiles[row][c]),
                               used && column_shown(self, (DmkMode)c));
    if (!used)
        return;
    dmk_job_format_name(&job, self->row_names[row], sizeof self->row_names[row]);
    /* "SEQ1M Q8T1" on two lines, as CrystalDiskMark's buttons. */
    char *label = g_strdelimit(g_strdup(self->row_names[row]), " ", '\n');
    gtk_button_set_label(GTK_BUTTON(self->row_buttons[row]), label);
    g_free(label);
    /* TRANSLATORS: the verb; %s is a test's name (SEQ1M Q8T1), which stays as it is. */
    char *a11y = g_strdup_printf(_("Run %s"), self->row_names[row]);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->row_buttons[row]),
                                   GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
    g_free(a11y);
    for (int c = 0; c < DMK_COLS; c++) {
        DmkTest t;
        tile_test(self, &job, (DmkMode)c, &t);
        dmk_tile_set_test(self->tiles[row][c], &t);
    }
}

static void update_headers(DmkWindow *self)
{
    /* The Mix column says its ratio, as CrystalDiskMark's "R70%/W30%". */
    int share = g_settings_get_int(self->settings, "mix-read-share");
    const char *unit = dmk_unit_label(_dmk_window_unit(self));
    for (int c = 0; c < DMK_COLS; c++) {
        char *text =
            /* TRANSLATORS: the read results' column; %s is the unit (MB/s, IOPS), kept as it is. */
            c == 0 ? g_strdup_printf(_("Read [%s]"), unit)
            /* TRANSLATORS: the write results' column (not the verb); %s is the unit. */
            : c == 1 ? g_strdup_printf(_("Write [%s]"), unit)
                     /* TRANSLATORS: the mixed column: its read and write shares in
                      * percent, then the unit: "Mix R70%/W30% [MB/s]". */
                     : g_strdup_printf(_("Mix R%d%%/W%d%% [%s]"), share, 100 - share, unit);
        gtk_label_set_text(self->headers[c], text);
        gtk_widget_set_visible(GTK_WIDGET(self->headers[c]), column_shown(self, (DmkMode)c));
        g_free(text);
    }
}

/* Shows the profile's rows and the columns the mode asks for. A new
 * profile keeps no tiles: its tests are others. */
static void apply_layout(DmkWindow *self, gboolean clear)
{
    const DmkProfile *p = _dmk_window_profile(self);
    for (int r = 0; r < DMK_ROWS_MAX; r++) {
        layout_row(self, r, (size_t)r < p->n_tests ? p->tests[r] : NULL);
        for (int c = 0; c < DMK_COLS && clear; c++)
            dmk_tile_set_stats(self->tiles[r][c], NULL);
    }
    mark_read_only(self);
    update_headers(self);
    _dmk_window_update_actions(self);
}

static void apply_unit(DmkWindow *self)
{
    DmkUnit u = _dmk_window_unit(self);
    for (int r = 0; r < DMK_ROWS_MAX; r++)
        for (int c = 0; c < DMK_COLS; c++)
            dmk_tile_set_unit(self->tiles[r][c], u);
    update_headers(self);
    _dmk_window_set_units(self, u);
}

static void on_run_button_clicked(GtkButton *button, DmkWindow *self)
{
    if (self->worker) {
        dmk_window_stop(self);
        return;
    }
    _dmk_window_start_run(self, GPOINTER_TO_INT(g_object_get_data(G_OBJECT(button), "dmk-row")),
                          FALSE);
}

static void build_rows(DmkWindow *self)
{
    g_object_set_data(G_OBJECT(self->all_button), "dmk-row", GINT_TO_POINTER(-1));
    for (int r = 0; r < DMK_ROWS_MAX; r++) {
        GtkWidget *b = gtk_button_new_with_label("");
        gtk_widget_add_css_class(b, "run-button");
        gtk_label_set_justify(GTK_LABEL(gtk_button_get_child(GTK_BUTTON(b))), GTK_JUSTIFY_CENTER);
        g_object_set_data(G_OBJECT(b), "dmk-row", GINT_TO_POINTER(r));
        g_signal_connect(b, "clicked", G_CALLBACK(on_run_button_clicked), self);
        char *tip = g_strdup_printf(_("Run this test (Ctrl+%d)"), r + 1);
        gtk_widget_set_tooltip_text(b, tip);
        g_free(tip);
        gtk_grid_attach(self->grid, b, 0, r + 2, 1, 1);
        self->row_buttons[r] = b;
        for (int c = 0; c < DMK_COLS; c++) {
            self->tiles[r][c] = DMK_TILE(dmk_tile_new());
            gtk_widget_set_hexpand(GTK_WIDGET(self->tiles[r][c]), TRUE);
            /* Taller in a large window, as CrystalDiskMark's: the board
             * fills the tab, not 30 % of it. */
            gtk_widget_set_vexpand(GTK_WIDGET(self->tiles[r][c]), TRUE);
            gtk_grid_attach(self->grid, GTK_WIDGET(self->tiles[r][c]), c + 1, r + 2, 1, 1);
        }
    }
}

/* ---- running state ------------------------------------------------------ */

static void reset_button(DmkWindow *self, int row)
{
    GtkWidget *b = row < 0 ? GTK_WIDGET(self->all_button) : self->row_buttons[row];
    char *tip = row < 0 ? g_strdup(_("Run every test of the profile (Ctrl+R)"))
                        : g_strdup_printf(_("Run this test (Ctrl+%d)"), row + 1);
    gtk_widget_remove_css_class(b, "stop");
    /* A target that cannot work turns Run off, the tooltip saying why. */
    gtk_widget_set_sensitive(b, self->target_problem == NULL);
    if (self->target_problem) {
        g_free(tip);
        /* TRANSLATORS: the Run buttons are off; %s says why. */
        tip = g_strdup_printf(_("Run is off: %s"), self->target_problem);
    }
    gtk_widget_set_tooltip_text(b, tip);
    g_free(tip);
}

gboolean _dmk_window_lab_writes(DmkWindow *self)
{
    const DmkLabTest *t =
        self->lab_page ? dmk_lab_test(dmk_lab_page_get_kind(self->lab_page)) : NULL;
    return !t || !t->device_only;
}

/* The Sweep and Lab tabs' Start buttons follow the target too. */
static void block_pages(DmkWindow *self)
{
    const char *usage = _dmk_window_target_usage(self);
    char *why =
        self->target_problem ? g_strdup_printf(_("Start is off: %s"), self->target_problem) : NULL;
    /* A lab test that writes is off; a sweep reads only, and says so. */
    char *lab = why || !usage || !_dmk_window_lab_writes(self)
                    ? g_strdup(why)
                    : g_strdup_printf(_("Start is off: this lab test writes, and %s is "
                                        "in use (%s); only read tests run on it"),
                                      _dmk_window_target_path(self), usage);
    char *sweep = usage ? g_strdup_printf(_("read only: %s"), usage) : NULL;
    if (self->sweep_page) {
        dmk_sweep_page_set_read_only(self->sweep_page, sweep);
        dmk_sweep_page_block_start(self->sweep_page, why);
    }
    if (self->lab_page)
        dmk_lab_page_block_start(self->lab_page, lab);
    g_free(why);
    g_free(lab);
    g_free(sweep);
}

static void make_stop_button(GtkWidget *b)
{
    gtk_button_set_label(GTK_BUTTON(b), _("Stop"));
    gtk_widget_add_css_class(b, "stop");
    gtk_widget_set_tooltip_text(b, _("Stop the run (Esc)"));
    gtk_accessible_update_property(GTK_ACCESSIBLE(b), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Stop the run"), -1);
}

static void restore_buttons(DmkWindow *self)
{
    for (int r = -1; r < DMK_ROWS_MAX; r++)
        reset_button(self, r);
    /* TRANSLATORS: the button that runs every test of the profile. */
    gtk_button_set_label(self->all_button, _("_All"));
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->all_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Run all tests"), -1);
    apply_layout(self, FALSE); /* the test buttons' labels */
}

void _dmk_window_set_running_ui(DmkWindow *self, gboolean running, GtkWidget *stop_button)
{
    self->stop_button = stop_button;
    if (!running) {
        restore_buttons(self);
    } else {
        gtk_widget_set_sensitive(GTK_WIDGET(self->all_button), FALSE);
        for (int r = 0; r < DMK_ROWS_MAX; r++)
            gtk_widget_set_sensitive(self->row_buttons[r], FALSE);
    }
    if (running && stop_button) {
        gtk_widget_set_sensitive(stop_button, TRUE);
        make_stop_button(stop_button);
    }
    _dmk_window_owners_set_running(self, running);
    if (!running)
        block_pages(self);
    /* The settings describe the run under way: they wait for its end. */
    gtk_widget_set_sensitive(self->settings_box, !running);
    gtk_widget_set_sensitive(GTK_WIDGET(self->profile_dd), !running);
    gtk_widget_set_sensitive(GTK_WIDGET(self->mode_dd), !running);
    gtk_widget_set_sensitive(GTK_WIDGET(self->verify_check), !running);
    _dmk_window_update_actions(self);
}

static void enable_action(DmkWindow *self, const char *name, gboolean enabled)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), name);
    if (G_IS_SIMPLE_ACTION(a))
        g_simple_action_set_enabled(G_SIMPLE_ACTION(a), enabled);
}

void _dmk_window_update_actions(DmkWindow *self)
{
    gboolean running = self->worker != NULL;
    gboolean result = _dmk_window_current_saved(self) != NULL;
    gboolean can_run = !running && self->target_problem == NULL;
    enable_action(self, "run-all", can_run);
    enable_action(self, "run-test", can_run);
    enable_action(self, "run-sweep", can_run);
    enable_action(self, "run-lab", can_run);
    enable_action(self, "stop", running);
    /* The compare tab copies and saves its table as text, and saves its
     * ticked results into a folder. */
    gboolean table = _dmk_window_compare_shown(self) && dmk_compare_view_count(self->compare_view);
    enable_action(self, "copy", result || table);
    enable_action(self, "save", result || table);
    enable_action(self, "export-csv", result);
    enable_action(self, "save-text", result || table);
    enable_action(self, "settings", !running);
    enable_action(self, "export-chart", _dmk_window_current_has_chart(self));
    enable_action(self, "choose-target", !running);
}

/* ---- settings <-> drop-downs ------------------------------------------ */

static void set_strings(GtkDropDown *dd, const char *const *strings)
{
    GtkStringList *list = gtk_string_list_new(strings);
    /* The expression first: it gives the drop-down its default factory. */
    dmk_drop_down_show_strings(dd);
    gtk_drop_down_set_model(dd, G_LIST_MODEL(list));
    g_object_unref(list);
}

static void fill_static_lists(DmkWindow *self)
{
    static const char *const passes[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", NULL};
    const char *units[DMK_UNIT_COUNT + 1] = {NULL};
    const char *modes[] = {_(mode_labels[0]), _(mode_labels[1]), _(mode_labels[2]), NULL};
    for (int i = 0; i < DMK_UNIT_COUNT; i++)
        units[i] = dmk_unit_label((DmkUnit)i);
    set_strings(self->passes_dd, passes);
    set_strings(self->unit_dd, units);
    set_strings(self->mode_dd, modes);
    /* The table's profiles, then the custom one (Settings > Tests). */
    GtkStringList *profiles = gtk_string_list_new(NULL);
    for (int mix = 0; mix < 2; mix++) {
        for (size_t i = 0; i <= dmk_profile_count(); i++) {
            /* TRANSLATORS: the profile of the tests Settings > Tests sets. */
            const char *name = i < dmk_profile_count() ? _(dmk_profile_at(i)->label) : _("Custom");
            /* TRANSLATORS: a profile with its mixed read and write test; %s is its name. */
            char *label = mix ? g_strdup_printf(_("%s + Mix"), name) : g_strdup(name);
            gtk_string_list_append(profiles, label);
            g_free(label);
        }
    }
    dmk_drop_down_show_strings(self->profile_dd);
    gtk_drop_down_set_model(self->profile_dd, G_LIST_MODEL(profiles));
    g_object_unref(profiles);
}

/* "1GiB", "64MiB" as CrystalDiskMark writes sizes. */
static void add_size(DmkWindow *self, GtkStringList *labels, guint64 v)
{
    char label[48];
    if (v % (1ULL << 30) == 0)
        g_snprintf(label, sizeof label, "%" G_GUINT64_FORMAT "GiB", v >> 30);
    else if (v % (1ULL << 20) == 0)
        g_snprintf(label, sizeof label, "%" G_GUINT64_FORMAT "MiB", v >> 20);
    else
        g_snprintf(label, sizeof label, "%" G_GUINT64_FORMAT " B", v);
    gtk_string_list_append(labels, label);
    self->sizes[self->n_sizes++] = v;
}

/* The size list is CrystalDiskMark's, plus the current size when the
 * command line asked for one that is not in it. */
static void sync_sizes(DmkWindow *self)
{
    guint64 current = g_settings_get_uint64(self->settings, "test-size");
    GtkStringList *labels = gtk_string_list_new(NULL);
    g_free(self->sizes);
    self->sizes = g_new(guint64, dmk_size_preset_count() + 1);
    self->n_sizes = 0;
    gboolean listed = FALSE;
    /* CrystalDiskMark's sizes, 16 MiB to 64 GiB (core/dmk-presets.h). */
    for (size_t i = 0; i < dmk_size_preset_count(); i++) {
        guint64 v = dmk_size_preset_at(i);
        if (!listed && current < v)
            add_size(self, labels, current);
        listed = listed || current <= v;
        add_size(self, labels, v);
    }
    if (!listed)
        add_size(self, labels, current);
    dmk_drop_down_show_strings(self->size_dd);
    gtk_drop_down_set_model(self->size_dd, G_LIST_MODEL(labels));
    g_object_unref(labels);
    for (guint i = 0; i < self->n_sizes; i++)
        if (self->sizes[i] == current)
            gtk_drop_down_set_selected(self->size_dd, i);
}

/* The button shows a short name; the tooltip says where exactly. */
static void update_target_tooltip(DmkWindow *self)
{
    const char *path = _dmk_window_target_path(self);
    const char *usage = _dmk_window_target_usage(self);
    char *tip = usage ? g_strdup_printf(_("Raw device %s, in use (%s): only read tests run on it\n"
                                          "(Ctrl+Shift+O chooses a folder instead)"),
                                        path, usage)
                : _dmk_window_target_is_device(self)
                    ? g_strdup_printf(_("Raw device %s: write tests destroy the data on it\n"
                                        "(Ctrl+Shift+O chooses a folder instead)"),
                                      path)
                    : g_strdup_printf(_("The test file goes into %s\n(Ctrl+Shift+O chooses "
                                        "another folder)"),
                                      path ? path : "?");
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->target_dd), tip);
    g_free(tip);
}

/* The item's rows show what its check found now (a device mounted or
 * gone since the listing): the list and the button redraw it, the
 * selection staying where it is. */
static void redraw_item(DmkWindow *self, DmkTargetItem *item)
{
    guint pos;
    if (!g_list_store_find(self->targets, item, &pos))
        return;
    gboolean was = self->syncing;
    self->syncing = TRUE;
    g_list_model_items_changed(G_LIST_MODEL(self->targets), pos, 1, 1);
    gtk_drop_down_set_selected(self->target_dd, pos);
    self->syncing = was;
}

static void check_target(DmkWindow *self, DmkTargetItem *item)
{
    char *before = dmk_target_item_describe(item, TRUE);
    if (!dmk_target_item_check(item))
        self->target_problem =
            /* TRANSLATORS: %1$s is a target's path, %2$s why it cannot be used. */
            g_strdup_printf(_("%1$s cannot be used: %2$s"), dmk_target_item_get_path(item),
                            dmk_target_item_get_reason(item));
    char *after = dmk_target_item_describe(item, TRUE);
    if (strcmp(before, after) != 0)
        redraw_item(self, item);
    g_free(before);
    g_free(after);
}

/* Checks the chosen target again (a folder may have gone since it was
 * listed, a device been mounted); Run and Start follow: off, saying why,
 * while it cannot work, and only the read tests on a device in use. */
static void update_target_state(DmkWindow *self)
{
    DmkTargetItem *item = gtk_drop_down_get_selected_item(self->target_dd);
    g_clear_pointer(&self->target_problem, g_free);
    if (!item)
        self->target_problem = g_strdup(_("no target is chosen"));
    else
        check_target(self, item);
    if (dmk_window_is_running(self))
        return; /* the run's end puts the buttons back, with this */
    const char *usage = item ? dmk_target_item_get_usage(item) : NULL;
    char *status = self->target_problem ? g_strdup_printf(_("Run is off: %s"), self->target_problem)
                   : usage ? g_strdup_printf(_("%s is in use (%s): only read tests run on it"),
                                             dmk_target_item_get_path(item), usage)
                           : NULL;
    if (status)
        _dmk_window_set_status(self, status);
    g_free(status);
    for (int r = -1; r < DMK_ROWS_MAX; r++)
        reset_button(self, r);
    block_pages(self);
    apply_layout(self, FALSE); /* the read column, the tiles that do not run */
}

gboolean _dmk_window_recheck_target(DmkWindow *self)
{
    update_target_tooltip(self);
    update_target_state(self);
    return self->target_problem == NULL;
}

static void sync_target(DmkWindow *self)
{
    char *path = g_settings_get_string(self->settings, "target");
    guint pos = path[0] ? dmk_target_list_find_or_add(self->targets, path)
                        : dmk_target_list_default(self->targets);
    gtk_drop_down_set_selected(self->target_dd, pos);
    self->target_selected = pos;
    update_target_tooltip(self);
    update_target_state(self);
    g_free(path);
}

static guint profile_index(DmkWindow *self)
{
    /* Past the table's profiles: the custom one. */
    const DmkProfile *p = _dmk_window_profile(self);
    guint i = 0;
    while (i < dmk_profile_count() && dmk_profile_at(i) != p)
        i++;
    return i + (_dmk_window_mix(self) ? (guint)dmk_profile_count() + 1 : 0);
}

/* Copies the settings into the widgets; the drop-downs' handlers do not
 * write back meanwhile. */
static void sync_widgets(DmkWindow *self)
{
    self->syncing = TRUE;
    gtk_drop_down_set_selected(self->passes_dd,
                               (guint)g_settings_get_int(self->settings, "passes") - 1);
    sync_sizes(self);
    sync_target(self);
    gtk_drop_down_set_selected(self->unit_dd, (guint)_dmk_window_unit(self));
    gtk_drop_down_set_selected(self->profile_dd, profile_index(self));
    gtk_drop_down_set_selected(self->mode_dd, mode_index(self));
    self->syncing = FALSE;
    apply_layout(self, TRUE);
    apply_unit(self);
}

void _dmk_window_resync(DmkWindow *self)
{
    sync_widgets(self);
}

static void on_passes(GtkDropDown *dd, GParamSpec *pspec, DmkWindow *self)
{
    (void)pspec;
    if (!self->syncing)
        g_settings_set_int(self->settings, "passes", (int)gtk_drop_down_get_selected(dd) + 1);
}

static void on_size(GtkDropDown *dd, GParamSpec *pspec, DmkWindow *self)
{
    (void)pspec;
    guint i = gtk_drop_down_get_selected(dd);
    if (!self->syncing && i < self->n_sizes)
        g_settings_set_uint64(self->settings, "test-size", self->sizes[i]);
}

static void explain_unusable(DmkWindow *self, DmkTargetItem *item)
{
    /* TRANSLATORS: %1$s is a target's path, %2$s why it cannot be used. */
    char *text = g_strdup_printf(_("%1$s cannot be used: %2$s"), dmk_target_item_get_path(item),
                                 dmk_target_item_get_reason(item));
    _dmk_window_set_status(self, text);
    g_free(text);
}

static void target_chosen(DmkWindow *self, DmkTargetItem *item);

static void on_target(GtkDropDown *dd, GParamSpec *pspec, DmkWindow *self)
{
    (void)pspec;
    DmkTargetItem *item = gtk_drop_down_get_selected_item(dd);
    if (self->syncing || !item)
        return;
    gboolean choose = dmk_target_item_get_kind(item) == DMK_TARGET_CHOOSE;
    if (choose || !dmk_target_item_is_selectable(item)) {
        /* The list keeps showing the previous target. */
        self->syncing = TRUE;
        gtk_drop_down_set_selected(dd, self->target_selected);
        self->syncing = FALSE;
        if (choose)
            _dmk_window_choose_target(self);
        else
            explain_unusable(self, item);
        return;
    }
    target_chosen(self, item);
}

/* A target was chosen (picked in the list, or a folder chosen or given). */
static void target_chosen(DmkWindow *self, DmkTargetItem *item)
{
    self->target_selected = gtk_drop_down_get_selected(self->target_dd);
    update_target_tooltip(self);
    update_target_state(self);
    if (!self->target_problem)
        _dmk_window_clear_problem(self, DMK_PROBLEM_TARGET);
    _dmk_window_update_lab_note(self);
    /* GSettings strings are UTF-8; a path that is not stays for this
     * session. A device is never remembered: the next start must not
     * open on a disk whose data a run destroys. */
    if (dmk_target_item_get_kind(item) != DMK_TARGET_DEVICE &&
        g_utf8_validate(dmk_target_item_get_path(item), -1, NULL))
        g_settings_set_string(self->settings, "target", dmk_target_item_get_path(item));
}

static void on_unit(GtkDropDown *dd, GParamSpec *pspec, DmkWindow *self)
{
    (void)pspec;
    if (self->syncing)
        return;
    g_settings_set_string(self->settings, "unit",
                          dmk_unit_id((DmkUnit)gtk_drop_down_get_selected(dd)));
    apply_unit(self);
}

static void on_profile(GtkDropDown *dd, GParamSpec *pspec, DmkWindow *self)
{
    (void)pspec;
    guint i = gtk_drop_down_get_selected(dd);
    guint n = (guint)dmk_profile_count() + 1; /* the custom one last */
    if (self->syncing || i >= 2 * n)
        return;
    g_settings_set_string(self->settings, "profile",
                          i % n < n - 1 ? dmk_profile_at(i % n)->id : "custom");
    g_settings_set_boolean(self->settings, "mix", i >= n);
    apply_layout(self, TRUE);
}

static void on_mode(GtkDropDown *dd, GParamSpec *pspec, DmkWindow *self)
{
    (void)pspec;
    guint i = gtk_drop_down_get_selected(dd);
    if (self->syncing || i >= G_N_ELEMENTS(mode_ids))
        return;
    g_settings_set_string(self->settings, "mode", mode_ids[i]);
    apply_layout(self, FALSE);
}

static void connect_dropdowns(DmkWindow *self)
{
    g_signal_connect(self->passes_dd, "notify::selected", G_CALLBACK(on_passes), self);
    g_signal_connect(self->size_dd, "notify::selected", G_CALLBACK(on_size), self);
    g_signal_connect(self->target_dd, "notify::selected", G_CALLBACK(on_target), self);
    g_signal_connect(self->unit_dd, "notify::selected", G_CALLBACK(on_unit), self);
    g_signal_connect(self->profile_dd, "notify::selected", G_CALLBACK(on_profile), self);
    g_signal_connect(self->mode_dd, "notify::selected", G_CALLBACK(on_mode), self);
}

/* ---- public ------------------------------------------------------------ */

void _dmk_window_set_status(DmkWindow *self, const char *text)
{
    gtk_label_set_text(self->status_label, text);
}

void dmk_window_set_target(DmkWindow *self, const char *path)
{
    guint pos = dmk_target_list_find_or_add(self->targets, path);
    gboolean same = pos == gtk_drop_down_get_selected(self->target_dd);
    gtk_drop_down_set_selected(self->target_dd, pos);
    DmkTargetItem *item = gtk_drop_down_get_selected_item(self->target_dd);
    if (same && item && !self->syncing)
        target_chosen(self, item); /* no notify::selected: checked again all the same */
}

void dmk_window_focus_run_button(DmkWindow *self)
{
    /* Not on another tab: the focus would go to the first widget that
     * takes it there, a selectable label, and select all its text. */
    if (gtk_notebook_get_current_page(self->notebook) == 0)
        gtk_widget_grab_focus(GTK_WIDGET(self->all_button));
    else
        gtk_widget_grab_focus(GTK_WIDGET(self->notebook));
}

void dmk_window_set_comment(DmkWindow *self, const char *comment)
{
    gtk_editable_set_text(GTK_EDITABLE(self->comment_entry), comment ? comment : "");
}

void dmk_window_set_overrides(DmkWindow *self, const DmkRunOverrides *o)
{
    self->overrides = *o;
    g_free(self->backend);
    self->backend = g_strdup(o->backend ? o->backend : "native");
    self->overrides.backend = self->backend;
    _dmk_window_settings_overrides_changed(self);
}

void dmk_window_set_lab_overrides(DmkWindow *self, const DmkLabOverrides *o)
{
    self->lab_overrides = *o;
    dmk_lab_page_apply_overrides(self->lab_page, o);
}

gboolean dmk_window_is_running(DmkWindow *self)
{
    return self->worker != NULL || self->udisks_wait != NULL;
}

/* The Lab form's or the sweep's fields changed: their error goes once
 * they make a test that can run. */
static void on_lab_form(DmkLabPage *page, DmkWindow *self)
{
    DmkLabParams p;
    DmkError err = {0};
    if (dmk_lab_page_get_params(page, &p, &err) == DMK_OK)
        _dmk_window_clear_problem(self, DMK_PROBLEM_LAB);
}

static void on_sweep_fields(DmkSweepPage *page, DmkWindow *self)
{
    (void)page;
    if (_dmk_window_sweep_valid(self))
        _dmk_window_clear_problem(self, DMK_PROBLEM_SWEEP);
}

static void on_lab_kind(DmkLabPage *page, DmkWindow *self)
{
    g_settings_set_string(self->settings, "lab-test", dmk_lab_name(dmk_lab_page_get_kind(page)));
    block_pages(self); /* a test that only reads may run where the others may not */
    _dmk_window_update_lab_note(self);
}

/* The Lab tab offers the test chosen last time. */
static void sync_lab(DmkWindow *self)
{
    char *lab = g_settings_get_string(self->settings, "lab-test");
    dmk_lab_page_set_kind(self->lab_page, dmk_lab_from_name(lab));
    g_free(lab);
    g_signal_connect(self->lab_page, "kind-changed", G_CALLBACK(on_lab_kind), self);
    g_signal_connect(self->lab_page, "changed", G_CALLBACK(on_lab_form), self);
    g_signal_connect(self->sweep_page, "changed", G_CALLBACK(on_sweep_fields), self);
}

DmkWindow *dmk_window_new(GtkApplication *app, GSettings *settings)
{
    /* show-menubar is a construct property: a template cannot set it. */
    DmkWindow *self = g_object_new(DMK_TYPE_WINDOW, "application", app, "show-menubar", TRUE, NULL);
    self->settings = g_object_ref(settings);
    sync_widgets(self);
    sync_lab(self);
    connect_dropdowns(self);
    g_settings_bind(settings, "verify", self->verify_check, "active", G_SETTINGS_BIND_DEFAULT);
    _dmk_window_add_export_actions(self);
    _dmk_window_add_actions(self);
    _dmk_window_settings_init(self);
    _dmk_window_load_recent(self);
    return self;
}

/* ---- GObject ------------------------------------------------------------ */

static void dmk_window_dispose(GObject *object)
{
    DmkWindow *self = DMK_WINDOW(object);
    /* Tearing the tabs down switches pages: nothing here may react. */
    if (self->notebook)
        g_signal_handlers_disconnect_by_data(self->notebook, self);
    _dmk_window_run_dispose(self);
    _dmk_window_settings_dispose(self);
    g_clear_object(&self->targets);
    g_clear_object(&self->settings);
    g_clear_object(&self->recent);
    g_clear_object(&self->recent_menu);
    g_clear_pointer(&self->last_run, dmk_saved_unref);
    g_clear_pointer(&self->finished_run, dmk_saved_unref);
    G_OBJECT_CLASS(dmk_window_parent_class)->dispose(object);
}

static void dmk_window_finalize(GObject *object)
{
    DmkWindow *self = DMK_WINDOW(object);
    g_free(self->sizes);
    g_free(self->backend);
    g_free(self->device_answer);
    g_free(self->status_at_stop);
    g_free(self->stall_msg);
    g_free(self->target_problem);
    G_OBJECT_CLASS(dmk_window_parent_class)->finalize(object);
}

static void on_info_bar_response(GtkInfoBar *bar, int response, DmkWindow *self)
{
    (void)bar;
    if (response == GTK_RESPONSE_CLOSE)
        _dmk_window_hide_error(self);
}

static void bind_children(GtkWidgetClass *wc)
{
    gtk_widget_class_bind_template_child(wc, DmkWindow, info_bar);
    gtk_widget_class_bind_template_child(wc, DmkWindow, info_label);
    gtk_widget_class_bind_template_child(wc, DmkWindow, notebook);
    gtk_widget_class_bind_template_child(wc, DmkWindow, benchmark_page);
    gtk_widget_class_bind_template_child(wc, DmkWindow, grid);
    gtk_widget_class_bind_template_child(wc, DmkWindow, all_button);
    gtk_widget_class_bind_template_child(wc, DmkWindow, settings_box);
    gtk_widget_class_bind_template_child(wc, DmkWindow, passes_dd);
    gtk_widget_class_bind_template_child(wc, DmkWindow, size_dd);
    gtk_widget_class_bind_template_child(wc, DmkWindow, target_dd);
    gtk_widget_class_bind_template_child(wc, DmkWindow, unit_dd);
    gtk_widget_class_bind_template_child(wc, DmkWindow, profile_dd);
    gtk_widget_class_bind_template_child(wc, DmkWindow, mode_dd);
    gtk_widget_class_bind_template_child(wc, DmkWindow, verify_check);
    gtk_widget_class_bind_template_child_full(wc, "read_header", FALSE,
                                              G_STRUCT_OFFSET(DmkWindow, headers[0]));
    gtk_widget_class_bind_template_child_full(wc, "write_header", FALSE,
                                              G_STRUCT_OFFSET(DmkWindow, headers[1]));
    gtk_widget_class_bind_template_child_full(wc, "mix_header", FALSE,
                                              G_STRUCT_OFFSET(DmkWindow, headers[2]));
    gtk_widget_class_bind_template_child(wc, DmkWindow, bottom_box);
    gtk_widget_class_bind_template_child(wc, DmkWindow, comment_entry);
    gtk_widget_class_bind_template_child(wc, DmkWindow, status_label);
}

static void dmk_window_class_init(DmkWindowClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = dmk_window_dispose;
    oc->finalize = dmk_window_finalize;
    GTK_WINDOW_CLASS(klass)->close_request = _dmk_window_on_close_request;
    gtk_widget_class_set_template_from_resource(wc,
                                                "/io/github/drivemark/drivemark/ui/dmk-window.ui");
    bind_children(wc);
    gtk_widget_class_bind_template_callback(wc, on_run_button_clicked);
    gtk_widget_class_bind_template_callback(wc, on_info_bar_response);
    signals[SIGNAL_RUN_FINISHED] =
        g_signal_new("run-finished", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                     NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void dmk_window_init(DmkWindow *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->overrides = (DmkRunOverrides){"native", -1, -1, -1, 0, {{0}}};
    self->backend = g_strdup("native");
    self->overrides.backend = self->backend;
    dmk_lab_overrides_init(&self->lab_overrides);
    build_rows(self);
    _dmk_window_build_tabs(self);
    _dmk_window_keep_size(self);
    fill_static_lists(self);
    self->targets = dmk_target_list_new();
    dmk_target_list_attach(self->target_dd, self->targets);
}

void _dmk_window_emit_run_finished(DmkWindow *self, int rc)
{
    g_signal_emit(self, signals[SIGNAL_RUN_FINISHED], 0, rc);
}
