/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's actions (win.*): what the menu, the accelerators and the
 * buttons trigger, plus the dialogs they open (GtkFileChooserNative:
 * GTK 4.8 has no GtkFileDialog). */
#include "dmk-window-private.h"

#include <string.h>

#include "dmk-lab-view.h"
#include "dmk-plot.h"
#include "dmk-size.h"
#include "dmk-target-list.h"
#include "dmk-text.h"

static void act_run_all(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    dmk_window_run_all(self);
}

static void act_run_test(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    int row = g_variant_get_int32(p);
    (void)a;
    if (row >= 0 && row < DMK_ROWS_MAX && self->row_names[row][0])
        _dmk_window_start_run(self, row);
}

static void act_stop(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    dmk_window_stop(self);
}

/* Ctrl+C belongs to a text field or a selectable label when one has the
 * focus: hand it on instead of copying the results. */
static gboolean forward_copy(DmkWindow *self)
{
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(self));
    int start, end;
    gboolean text = focus && GTK_IS_EDITABLE(focus);
    gboolean label = focus && GTK_IS_LABEL(focus) &&
                     gtk_label_get_selection_bounds(GTK_LABEL(focus), &start, &end);
    if (!text && !label)
        return FALSE;
    gtk_widget_activate_action(focus, "clipboard.copy", NULL);
    return TRUE;
}

static void act_copy(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    if (forward_copy(self))
        return;
    char *text = _dmk_window_shown_text(self); /* a result's, or the compare table */
    if (!text)
        return;
    gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(self)), text);
    g_free(text);
    _dmk_window_set_status(self, "Results copied to the clipboard");
}

/* ---- file dialogs ----------------------------------------------------------- */

static void add_filter(GtkFileChooser *chooser, const char *name, const char *pattern)
{
    GtkFileFilter *f = gtk_file_filter_new();
    gtk_file_filter_set_name(f, name);
    gtk_file_filter_add_pattern(f, pattern);
    gtk_file_chooser_add_filter(chooser, f);
    g_object_unref(f);
}

/* A modal native dialog whose response goes to `cb` with the window (a
 * reference is held until then). */
static GtkFileChooser *file_dialog(DmkWindow *self, const char *title, GtkFileChooserAction action,
                                   const char *accept, GCallback cb)
{
    GtkFileChooserNative *d =
        gtk_file_chooser_native_new(title, GTK_WINDOW(self), action, accept, "_Cancel");
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(d), TRUE);
    g_signal_connect(d, "response", cb, g_object_ref(self));
    return GTK_FILE_CHOOSER(d);
}

static void show_dialog(GtkFileChooser *d)
{
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

/* The chosen file's path, or NULL when cancelled (or not a local file). */
static char *response_path(GtkNativeDialog *dialog, int response)
{
    if (response != GTK_RESPONSE_ACCEPT)
        return NULL;
    GFile *file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
    char *path = file ? g_file_get_path(file) : NULL;
    g_clear_object(&file);
    return path;
}

static void set_status_path(DmkWindow *self, const char *what, const char *path)
{
    char *name = g_filename_display_name(path);
    char *status = g_strdup_printf("%s %s", what, name);
    _dmk_window_set_status(self, status);
    g_free(status);
    g_free(name);
}

/* ---- save / export CSV ------------------------------------------------------- */

static void on_save_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    char *path = response_path(dialog, response);
    GError *error = NULL;
    if (path && !dmk_window_save_result(self, path, &error)) {
        _dmk_window_show_problem(self, "The results could not be saved", error->message);
        g_error_free(error);
    } else if (path) {
        set_status_path(self, "Results saved to", path);
    }
    g_free(path);
    g_object_unref(dialog);
    g_object_unref(self);
}

/* "drivemark-20261130-0745.csv" for a run not saved yet; its own name
 * (in its folder) for one that was. */
static void suggest_name(GtkFileChooser *d, DmkSaved *saved)
{
    const char *path = saved ? dmk_saved_get_path(saved) : NULL;
    if (path && g_str_has_suffix(path, ".csv")) {
        GFile *file = g_file_new_for_path(path);
        gtk_file_chooser_set_file(d, file, NULL);
        g_object_unref(file);
        return;
    }
    GDateTime *now = g_date_time_new_now_local();
    char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
    const char *lab = saved ? dmk_saved_get_result(saved)->lab : "";
    char *name = g_strdup_printf("drivemark-%s%s%s.csv", lab, lab[0] ? "-" : "", stamp);
    gtk_file_chooser_set_current_name(d, name);
    g_free(name);
    g_free(stamp);
    g_date_time_unref(now);
}

static void act_save(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    if (!_dmk_window_current_saved(self))
        return;
    GtkFileChooser *d = file_dialog(self, "Save Results", GTK_FILE_CHOOSER_ACTION_SAVE, "_Save",
                                    G_CALLBACK(on_save_response));
    add_filter(d, "CSV results (*.csv)", "*.csv");
    add_filter(d, "JSON results (*.json)", "*.json");
#ifdef DMK_HAVE_XLSX
    /* An export for spreadsheets: numbers typed, so any locale reads them. */
    add_filter(d, "Spreadsheet (*.xlsx)", "*.xlsx");
#endif
    suggest_name(d, _dmk_window_current_saved(self));
    show_dialog(d);
}

/* ---- open ------------------------------------------------------------------- */

static void on_open_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    GListModel *list = response == GTK_RESPONSE_ACCEPT
                           ? gtk_file_chooser_get_files(GTK_FILE_CHOOSER(dialog))
                           : NULL;
    guint n = list ? g_list_model_get_n_items(list) : 0;
    GFile **files = g_new0(GFile *, n + 1);
    for (guint i = 0; i < n; i++)
        files[i] = g_list_model_get_item(list, i);
    if (n > 0)
        _dmk_window_open_files(self, files, n);
    for (guint i = 0; i < n; i++)
        g_object_unref(files[i]);
    g_free(files);
    g_clear_object(&list);
    g_object_unref(dialog);
    g_object_unref(self);
}

static void act_open(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    GtkFileChooser *d = file_dialog(self, "Open Results", GTK_FILE_CHOOSER_ACTION_OPEN, "_Open",
                                    G_CALLBACK(on_open_response));
    gtk_file_chooser_set_select_multiple(d, TRUE);
    add_filter(d, "Drivemark results (*.csv)", "*.csv");
    add_filter(d, "All files", "*");
    show_dialog(d);
}

int dmk_window_open_paths(DmkWindow *self, const char *const *paths)
{
    guint n = paths ? g_strv_length((char **)paths) : 0;
    GFile **files = g_new0(GFile *, n + 1);
    for (guint i = 0; i < n; i++)
        files[i] = g_file_new_for_path(paths[i]);
    int failed = n > 0 ? _dmk_window_open_files(self, files, n) : 0;
    for (guint i = 0; i < n; i++)
        g_object_unref(files[i]);
    g_free(files);
    return failed;
}

/* A file that is gone leaves the list; one that is bad stays (the info
 * bar says why, and it may be fixed). */
static void act_open_recent(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    const char *path = g_variant_get_string(p, NULL);
    const char *paths[] = {path, NULL};
    if (dmk_window_open_paths(self, paths) > 0 && !g_file_test(path, G_FILE_TEST_EXISTS))
        _dmk_window_forget_recent(self, path);
}

static void act_clear_recent(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    _dmk_window_forget_recent(self, NULL);
}

/* ---- export chart ------------------------------------------------------------- */

static gboolean known_chart_type(const char *path)
{
    static const char *const exts[] = {".png", ".svg", ".pdf"};
    char *lower = g_ascii_strdown(path, -1);
    gboolean known = FALSE;
    for (size_t i = 0; i < G_N_ELEMENTS(exts) && !known; i++)
        known = g_str_has_suffix(lower, exts[i]);
    g_free(lower);
    return known;
}

static gboolean export_plot(DmkWindow *self, GtkWidget *chart, const char *path, double scale,
                            GError **error)
{
    (void)self;
    if (chart && DMK_IS_LAB_VIEW(chart))
        return dmk_lab_view_export(DMK_LAB_VIEW(chart), path, scale, error);
    const DmkPlot *plot = chart ? dmk_plot_area_get_plot(chart) : NULL;
    if (!plot) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                    "there is no chart to export on this tab: open or compare results first");
        return FALSE;
    }
    return dmk_plot_export(plot, path, scale, error);
}

gboolean dmk_window_export_chart(DmkWindow *self, const char *path, double scale, GError **error)
{
    return export_plot(self, _dmk_window_current_chart(self), path, scale, error);
}

static void on_export_chart_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    GtkWidget *chart = g_object_get_data(G_OBJECT(dialog), "dmk-chart");
    char *path = response_path(dialog, response);
    if (path && !known_chart_type(path)) {
        char *png = g_strconcat(path, ".png", NULL); /* a name without a type: PNG */
        g_free(path);
        path = png;
    }
    const char *scale = gtk_file_chooser_get_choice(GTK_FILE_CHOOSER(dialog), "scale");
    GError *error = NULL;
    if (path && !export_plot(self, chart, path, scale && strcmp(scale, "2") == 0 ? 2 : 1, &error)) {
        _dmk_window_show_problem(self, "The chart could not be exported", error->message);
        g_error_free(error);
    } else if (path) {
        set_status_path(self, "Chart exported to", path);
    }
    g_free(path);
    g_object_unref(dialog);
    g_object_unref(self);
}

/* 1x and 2x of what will be exported: a lab result's grid is bigger. */
static void add_scale_choice(GtkFileChooser *d, GtkWidget *chart)
{
    static const char *const ids[] = {"1", "2", NULL};
    int w = DMK_PLOT_EXPORT_WIDTH, h = DMK_PLOT_EXPORT_HEIGHT;
    if (DMK_IS_LAB_VIEW(chart))
        dmk_lab_view_export_size(DMK_LAB_VIEW(chart), &w, &h);
    char *one = g_strdup_printf("1\u00d7 (%d \u00d7 %d px)", w, h);
    char *two = g_strdup_printf("2\u00d7 (%d \u00d7 %d px, for HiDPI and print)", 2 * w, 2 * h);
    const char *labels[] = {one, two, NULL};
    gtk_file_chooser_add_choice(d, "scale", "PNG size", (const char **)ids, labels);
    gtk_file_chooser_set_choice(d, "scale", "1");
    g_free(one);
    g_free(two);
}

static void act_export_chart(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    GtkWidget *chart = _dmk_window_current_chart(self);
    if (!chart)
        return;
    GtkFileChooser *d = file_dialog(self, "Export Chart", GTK_FILE_CHOOSER_ACTION_SAVE, "_Export",
                                    G_CALLBACK(on_export_chart_response));
    /* The chart of the tab the user was on, even if a sweep ends meanwhile. */
    g_object_set_data_full(G_OBJECT(d), "dmk-chart", g_object_ref(chart), g_object_unref);
    add_filter(d, "PNG image (*.png)", "*.png");
    add_filter(d, "SVG drawing (*.svg)", "*.svg");
    add_filter(d, "PDF document (*.pdf)", "*.pdf");
    add_scale_choice(d, chart);
    gtk_file_chooser_set_current_name(d, "drivemark-chart.png");
    show_dialog(d);
}

/* ---- tabs --------------------------------------------------------------------- */

void dmk_window_show_compare(DmkWindow *self)
{
    dmk_compare_view_pick_default(self->compare_view);
    if (!gtk_widget_get_visible(GTK_WIDGET(self->compare_view)))
        return;
    int n = gtk_notebook_page_num(self->notebook, GTK_WIDGET(self->compare_view));
    gtk_notebook_set_current_page(self->notebook, n);
}

void dmk_window_show_sweep(DmkWindow *self, DmkSweepKind kind)
{
    dmk_sweep_page_set_kind(self->sweep_page, kind);
    int n = gtk_notebook_page_num(self->notebook, GTK_WIDGET(self->sweep_page));
    gtk_notebook_set_current_page(self->notebook, n);
}

void dmk_window_run_sweep(DmkWindow *self)
{
    int n = gtk_notebook_page_num(self->notebook, GTK_WIDGET(self->sweep_page));
    gtk_notebook_set_current_page(self->notebook, n);
    _dmk_window_start_sweep(self);
}

static void act_show_compare(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    DmkWindow *w = self;
    int n = gtk_notebook_page_num(w->notebook, GTK_WIDGET(w->compare_view));
    if (gtk_widget_get_visible(GTK_WIDGET(w->compare_view)))
        gtk_notebook_set_current_page(w->notebook, n);
}

static void act_show_sweep(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    DmkWindow *w = self;
    gtk_notebook_set_current_page(w->notebook,
                                  gtk_notebook_page_num(w->notebook, GTK_WIDGET(w->sweep_page)));
}

static void act_show_lab(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    dmk_window_show_lab(self, DMK_LAB_NONE);
}

static void act_run_lab(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    dmk_window_run_lab(self, FALSE);
}

static void act_run_sweep(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    dmk_window_run_sweep(self);
}

/* Ctrl+W closes a result tab, as in a browser; elsewhere the window. */
static void act_close_tab(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    if (!_dmk_window_close_current_tab(self))
        gtk_window_close(GTK_WINDOW(self));
}

/* ---- choose a folder ---------------------------------------------------- */

static void on_folder_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
        char *path = file ? g_file_get_path(file) : NULL;
        if (path)
            dmk_window_set_target(self, path);
        g_free(path);
        g_clear_object(&file);
    }
    g_object_unref(dialog);
    g_object_unref(self);
}

void _dmk_window_choose_target(DmkWindow *self)
{
    GtkFileChooserNative *d =
        gtk_file_chooser_native_new("Choose a Folder to Benchmark", GTK_WINDOW(self),
                                    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Select", "_Cancel");
    const char *current = _dmk_window_target_path(self);
    if (current) {
        GFile *folder = g_file_new_for_path(current);
        gtk_file_chooser_set_current_folder(GTK_FILE_CHOOSER(d), folder, NULL);
        g_object_unref(folder);
    }
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(d), TRUE);
    g_signal_connect(d, "response", G_CALLBACK(on_folder_response), g_object_ref(self));
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static void act_choose_target(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    _dmk_window_choose_target(self);
}

/* ---- the full-span write's question ------------------------------------------ */

/* The mounted file system that holds dir: the longest mount point that
 * is dir or a folder above it. FALSE when the list cannot be read. */
static gboolean volume_of(const char *dir, DmkVolume *out)
{
    DmkVolume *v = g_new0(DmkVolume, 256);
    int n = dmk_os_list_volumes(v, 256);
    size_t best = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(v[i].path);
        gboolean above = strncmp(dir, v[i].path, len) == 0 &&
                         (dir[len] == '\0' || dir[len] == '/' || dir[len] == '\\' ||
                          (len > 0 && (v[i].path[len - 1] == '/' || v[i].path[len - 1] == '\\')));
        if (above && len >= best) {
            best = len;
            *out = v[i];
        }
    }
    g_free(v);
    return best > 0;
}

/* "fills /data (ext4 on /dev/sda1, 80.7 GiB free) with 78.7 GiB"; be:
 * the backend, which may write nothing at all (DmkBackend.in_memory). */
static char *fill_question(const DmkRunSpec *spec, const DmkBackend *be, char **detail)
{
    DmkVolume vol;
    char amount[32], free_text[32];
    gboolean known = volume_of(spec->dir, &vol);
    const char *where = known ? vol.path : spec->dir;
    guint64 bytes = spec->size;
    if (!bytes && known)
        bytes = vol.free_bytes > spec->free_margin ? vol.free_bytes - spec->free_margin : 0;
    /* Whole GiB (MiB below one), as the Lab tab's note says it. */
    if (bytes)
        dmk_format_size(bytes >= 1ULL << 30 ? bytes >> 30 << 30 : bytes >> 20 << 20, amount,
                        sizeof amount);
    else
        g_strlcpy(amount, "all its free space", sizeof amount);
    char *fs = known ? g_strdup_printf(
                           " (%s on %s, %s free)", vol.fs_type, vol.device,
                           dmk_format_size(vol.free_bytes >> 20 << 20, free_text, sizeof free_text))
                     : g_strdup("");
    char margin_text[32];
    char *margin =
        spec->size
            ? g_strdup("")
            : g_strdup_printf(", all its free space but %s",
                              dmk_format_size(spec->free_margin, margin_text, sizeof margin_text));
    char *pretend = be && be->in_memory
                        ? g_strdup_printf("\n\nThe %s backend is chosen: it only pretends, and "
                                          "writes nothing.",
                                          be->name)
                        : g_strdup("");
    *detail = g_strdup_printf(
        "The full-span write fills %s%s with %s%s; the file is removed afterwards. Writing a "
        "whole drive takes a while, and it counts against the drive's rated endurance.%s",
        where, fs, amount, margin, pretend);
    g_free(pretend);
    g_free(fs);
    g_free(margin);
    return g_strdup_printf("Fill %s with %s?", where, amount);
}

static void on_confirm_response(GtkDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    const DmkRunSpec *spec = g_object_get_data(G_OBJECT(dialog), "dmk-spec");
    DmkRunStart lab = {.owner = &_dmk_window_lab_owner};
    self->lab_confirm = NULL;
    if (response == GTK_RESPONSE_ACCEPT && !self->worker)
        _dmk_window_launch(self, spec, &lab);
    gtk_window_destroy(GTK_WINDOW(dialog));
    g_object_unref(self);
}

void _dmk_window_confirm_fullspan(DmkWindow *self, const DmkRunSpec *spec)
{
    char *detail = NULL;
    char *question = fill_question(spec, dmk_backend_by_name(self->backend), &detail);
    GtkWidget *d =
        gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                               GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE, "%s", question);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", detail);
    gtk_dialog_add_buttons(GTK_DIALOG(d), "_Cancel", GTK_RESPONSE_CANCEL, "_Fill the Drive",
                           GTK_RESPONSE_ACCEPT, NULL);
    gtk_widget_add_css_class(gtk_dialog_get_widget_for_response(GTK_DIALOG(d), GTK_RESPONSE_ACCEPT),
                             "destructive-action");
    gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_CANCEL);
    g_object_set_data_full(G_OBJECT(d), "dmk-spec", g_memdup2(spec, sizeof *spec), g_free);
    g_signal_connect(d, "response", G_CALLBACK(on_confirm_response), g_object_ref(self));
    self->lab_confirm = d;
    gtk_window_present(GTK_WINDOW(d));
    g_free(question);
    g_free(detail);
}

/* ---- setup ---------------------------------------------------------------- */

/* Settings without a widget of their own live in the Settings menu. */
static void add_settings_actions(DmkWindow *self)
{
    /* Measure Time and Interval Time are dmk-window-settings.c's: they
     * show a command-line override too. */
    static const char *const keys[] = {"data"};
    for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
        GAction *a = g_settings_create_action(self->settings, keys[i]);
        g_action_map_add_action(G_ACTION_MAP(self), a);
        g_object_unref(a);
    }
}

void _dmk_window_add_actions(DmkWindow *self)
{
    static const GActionEntry entries[] = {
        {"run-all", act_run_all, NULL, NULL, NULL, {0}},
        {"run-test", act_run_test, "i", NULL, NULL, {0}},
        {"stop", act_stop, NULL, NULL, NULL, {0}},
        {"copy", act_copy, NULL, NULL, NULL, {0}},
        {"save", act_save, NULL, NULL, NULL, {0}},
        {"export-csv", act_save, NULL, NULL, NULL, {0}},
        {"export-chart", act_export_chart, NULL, NULL, NULL, {0}},
        {"open", act_open, NULL, NULL, NULL, {0}},
        {"open-recent", act_open_recent, "s", NULL, NULL, {0}},
        {"clear-recent", act_clear_recent, NULL, NULL, NULL, {0}},
        {"show-compare", act_show_compare, NULL, NULL, NULL, {0}},
        {"show-sweep", act_show_sweep, NULL, NULL, NULL, {0}},
        {"run-sweep", act_run_sweep, NULL, NULL, NULL, {0}},
        {"show-lab", act_show_lab, NULL, NULL, NULL, {0}},
        {"run-lab", act_run_lab, NULL, NULL, NULL, {0}},
        {"close-tab", act_close_tab, NULL, NULL, NULL, {0}},
        {"choose-target", act_choose_target, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    add_settings_actions(self);
    _dmk_window_update_actions(self);
}
