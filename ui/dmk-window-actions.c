/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's actions (win.*): what the menu, the accelerators and the
 * buttons trigger, plus the dialogs they open (GtkFileChooserNative:
 * GTK 4.8 has no GtkFileDialog). */
#include "dmk-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dmk-compare-view.h"
#include "dmk-lab-view.h"
#include "dmk-plot.h"
#include "dmk-size.h"
#include "dmk-target-list.h"
#include "dmk-text.h"

static void act_run_all(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    dmk_window_run_all(self, FALSE);
}

static void act_run_test(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    int row = g_variant_get_int32(p);
    (void)a;
    if (row >= 0 && row < DMK_ROWS_MAX && self->row_names[row][0])
        _dmk_window_start_run(self, row, FALSE);
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
    _dmk_window_set_status(self, _("Results copied to the clipboard"));
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
        gtk_file_chooser_native_new(title, GTK_WINDOW(self), action, accept, _("_Cancel"));
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

/* "Results saved to NAME": saved true, else "Chart exported to NAME". */
static void set_status_path(DmkWindow *self, gboolean saved, const char *path)
{
    char *name = g_filename_display_name(path);
    /* TRANSLATORS: the status line; %s is a file's name. */
    char *status = saved ? g_strdup_printf(_("Results saved to %s"), name)
                         /* TRANSLATORS: the status line; %s is a file's name. */
                         : g_strdup_printf(_("Chart exported to %s"), name);
    _dmk_window_set_status(self, status);
    g_free(status);
    g_free(name);
}

/* The paragraph a question ends with when the backend writes nothing. */
static char *pretend_text(const char *backend)
{
    /* TRANSLATORS: %s is a backend's name (null); it is not translated. */
    return g_strdup_printf(_("\n\nThe %s backend is chosen: it only pretends, and writes nothing."),
                           backend);
}

/* ---- save / export CSV ------------------------------------------------------- */

static void on_save_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    char *path = response_path(dialog, response);
    GError *error = NULL;
    if (path && !dmk_window_save_result(self, path, &error)) {
        _dmk_window_show_problem(self, _("The results could not be saved"), error->message);
        g_error_free(error);
    } else if (path) {
        set_status_path(self, TRUE, path);
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

static void ask_ticked_folder(DmkWindow *self); /* the Compare tab's Save */

static void act_save(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    if (!_dmk_window_current_saved(self) && _dmk_window_compare_shown(self)) {
        ask_ticked_folder(self);
        return;
    }
    if (!_dmk_window_current_saved(self))
        return;
    GtkFileChooser *d = file_dialog(self, _("Save Results"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                    _("_Save"), G_CALLBACK(on_save_response));
    add_filter(d, _("CSV results (*.csv)"), "*.csv");
    add_filter(d, _("JSON results (*.json)"), "*.json");
#ifdef DMK_HAVE_XLSX
    /* An export for spreadsheets: numbers typed, so any locale reads them. */
    add_filter(d, _("Spreadsheet (*.xlsx)"), "*.xlsx");
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
    GtkFileChooser *d = file_dialog(self, _("Open Results"), GTK_FILE_CHOOSER_ACTION_OPEN,
                                    _("_Open"), G_CALLBACK(on_open_response));
    gtk_file_chooser_set_select_multiple(d, TRUE);
    add_filter(d, _("Drivemark results (*.csv)"), "*.csv");
    add_filter(d, _("All files"), "*");
    show_dialog(d);
}

int dmk_window_open_files(DmkWindow *self, GFile *const *files, size_t n)
{
    return n > 0 ? _dmk_window_open_files(self, files, n) : 0;
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
                    _("there is no chart to export on this tab: open or compare results first"));
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
        _dmk_window_show_problem(self, _("The chart could not be exported"), error->message);
        g_error_free(error);
    } else if (path) {
        set_status_path(self, FALSE, path);
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
    /* TRANSLATORS: a choice of the Export Chart dialog: the picture's width and height. */
    char *one = g_strdup_printf(_("1\u00d7 (%d \u00d7 %d px)"), w, h);
    /* TRANSLATORS: a choice of the Export Chart dialog: the picture's width and height. */
    char *two = g_strdup_printf(_("2\u00d7 (%d \u00d7 %d px, for HiDPI and print)"), 2 * w, 2 * h);
    const char *labels[] = {one, two, NULL};
    gtk_file_chooser_add_choice(d, "scale", _("PNG size"), (const char **)ids, labels);
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
    GtkFileChooser *d = file_dialog(self, _("Export Chart"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                    _("_Export"), G_CALLBACK(on_export_chart_response));
    /* The chart of the tab the user was on, even if a sweep ends meanwhile. */
    g_object_set_data_full(G_OBJECT(d), "dmk-chart", g_object_ref(chart), g_object_unref);
    add_filter(d, _("PNG image (*.png)"), "*.png");
    add_filter(d, _("SVG drawing (*.svg)"), "*.svg");
    add_filter(d, _("PDF document (*.pdf)"), "*.pdf");
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

void dmk_window_run_sweep(DmkWindow *self, gboolean confirmed)
{
    int n = gtk_notebook_page_num(self->notebook, GTK_WIDGET(self->sweep_page));
    gtk_notebook_set_current_page(self->notebook, n);
    _dmk_window_start_sweep(self, confirmed);
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
    dmk_window_run_sweep(self, FALSE);
}

/* Ctrl+W closes a result tab, as in a browser (asking first when its
 * result was never saved). The fixed tabs have no close button, so it
 * closes nothing there: a window that quits on a key meant for a tab
 * loses the settings and tiles without a word; Ctrl+Q quits. */
static void act_close_tab(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    GtkWidget *page = _dmk_window_current_result_page(self);
    if (page)
        _dmk_window_close_tab_asking(self, page);
    else if (!dmk_window_is_running(self)) /* the status line is the run's meanwhile */
        _dmk_window_set_status(self, _("Ctrl+W closes a result tab; Ctrl+Q quits"));
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
    GtkFileChooserNative *d = gtk_file_chooser_native_new(
        _("Choose a Folder to Benchmark"), GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
        _("_Select"), _("_Cancel"));
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

/* win.target('PATH'): the folder as if chosen or typed in the chooser
 * (scripts and tests); checked as any target is. */
/* Opens the target list, as a click on it does (tests and screenshots of
 * what the list says). GTK 4.8 has no call for it: the drop-down's own
 * popover is popped up. */
static void act_show_targets(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    DmkWindow *self = data;
    for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(self->target_dd)); c;
         c = gtk_widget_get_next_sibling(c))
        if (GTK_IS_POPOVER(c))
            gtk_popover_popup(GTK_POPOVER(c));
}

GtkWidget *dmk_window_get_open_list(DmkWindow *self)
{
    for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(self->target_dd)); c;
         c = gtk_widget_get_next_sibling(c))
        if (GTK_IS_POPOVER(c) && gtk_widget_get_mapped(c))
            return c;
    return NULL;
}

static void act_target(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    dmk_window_set_target(self, g_variant_get_string(p, NULL));
}

/* win.lab-field(('NAME', 'TEXT')): TEXT typed into the Lab form's field
 * NAME, for scripts that check what the form does with what a user types. */
static void act_lab_field(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    const char *name, *text;
    (void)a;
    g_variant_get(p, "(&s&s)", &name, &text);
    if (!dmk_lab_page_type_field(self->lab_page, name, text))
        /* Scripts' diagnostic (win.lab-field is for tests): English. */
        g_printerr("drivemark: the Lab test chosen has no field '%s'\n", name);
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
    char *fs = known ? g_strdup_printf(
                           /* TRANSLATORS: after a folder in the full-span write's question:
                            * its file system, its device and its free space. */
                           _(" (%s on %s, %s free)"), vol.fs_type, vol.device,
                           dmk_format_size(vol.free_bytes >> 20 << 20, free_text, sizeof free_text))
                     : g_strdup("");
    char margin[32];
    dmk_format_size(spec->free_margin, margin, sizeof margin);
    char *pretend = be && be->in_memory ? pretend_text(be->name) : g_strdup("");
    char *fills =
        spec->size
            /* TRANSLATORS: %1$s is a folder, %2$s its file system (" (ext4 on
             * /dev/sda1, 80 GiB free)") or nothing, %3$s a size (78 GiB). */
            ? g_strdup_printf(_("The full-span write fills %1$s%2$s with %3$s; the file is removed "
                                "afterwards. Writing a whole drive takes a while, and it counts "
                                "against the drive's rated endurance."),
                              where, fs, amount)
            : bytes
                  /* TRANSLATORS: %1$s is a folder, %2$s its file system (" (ext4 on
                   * /dev/sda1, 80 GiB free)") or nothing, %3$s a size (78 GiB), %4$s
                   * the free space left (2 GiB). */
                  ? g_strdup_printf(
                        _("The full-span write fills %1$s%2$s with %3$s, all its free space "
                          "but %4$s; the file is removed afterwards. Writing a whole drive "
                          "takes a while, and it counts against the drive's rated "
                          "endurance."),
                        where, fs, amount, margin)
                  /* TRANSLATORS: %1$s is a folder, %2$s its file system (" (ext4 on
                   * /dev/sda1, 80 GiB free)") or nothing, %3$s the free space left (2 GiB). */
                  : g_strdup_printf(
                        _("The full-span write fills %1$s%2$s with all its free space but "
                          "%3$s; the file is removed afterwards. Writing a whole drive takes "
                          "a while, and it counts against the drive's rated endurance."),
                        where, fs, margin);
    *detail = g_strconcat(fills, pretend, NULL);
    g_free(fills);
    g_free(pretend);
    g_free(fs);
    /* TRANSLATORS: the full-span write's question: a folder, a size (78 GiB). */
    return bytes ? g_strdup_printf(_("Fill %s with %s?"), where, amount)
                 /* TRANSLATORS: the full-span write's question; %s is a folder. */
                 : g_strdup_printf(_("Fill %s with all its free space?"), where);
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
    gtk_dialog_add_buttons(GTK_DIALOG(d), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Fill the Drive"),
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

/* ---- questions the tests answer (--answer) ---------------------------------- */

/* The questions' own responses beside GTK_RESPONSE_CANCEL. */
enum { DMK_RESPONSE_GO = 1, DMK_RESPONSE_DISCARD, DMK_RESPONSE_SAVE };

static const struct {
    const char *name;
    int response;
} answer_names[] = {
    {"cancel", GTK_RESPONSE_CANCEL}, {"discard", DMK_RESPONSE_DISCARD}, {"save", DMK_RESPONSE_SAVE},
    {"stop", DMK_RESPONSE_GO},       {"start", DMK_RESPONSE_GO},
};

/* The response an answer gives, 0 for none; save:DIR names its folder. */
static int answer_response(const char *answer, const char **dir)
{
    *dir = NULL;
    if (g_str_has_prefix(answer, "save:") && answer[5]) {
        *dir = answer + 5;
        return DMK_RESPONSE_SAVE;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(answer_names); i++)
        if (strcmp(answer, answer_names[i].name) == 0)
            return answer_names[i].response;
    return 0;
}

gboolean dmk_window_answer_valid(const char *answer)
{
    const char *dir;
    return answer_response(answer, &dir) != 0;
}

void dmk_window_set_answers(DmkWindow *self, const char *const *answers)
{
    self->answers = answers;
    self->n_answered = 0;
}

static gboolean is_asked(DmkWindow *self, GtkWidget *d)
{
    return d == self->quit_question || d == self->lab_confirm;
}

/* The question to answer; the window is held, not the dialog (a dialog
 * outliving its window would unhook from a window that is gone). */
typedef struct {
    DmkWindow *self;
    GtkWidget *d; /* looked at only while it is still the question asked */
} DmkAnswer;

static gboolean answer_now(gpointer data)
{
    DmkAnswer *a = data;
    GtkWidget *d = a->d;
    if (is_asked(a->self, d)) {
        const char *answer = g_object_get_data(G_OBJECT(d), "dmk-answer");
        const char *dir;
        int response = answer_response(answer, &dir);
        char *text = NULL, *more = NULL;
        g_object_get(d, "text", &text, "secondary-text", &more, NULL);
        g_print("asked\t%s\t%s\t%s\n", text, more ? g_strdelimit(more, "\n", ' ') : "", answer);
        g_free(text);
        g_free(more);
        if (dir)
            g_object_set_data_full(G_OBJECT(d), "dmk-save-dir", g_strdup(dir), g_free);
        gtk_dialog_response(GTK_DIALOG(d), response);
    }
    g_object_unref(a->self);
    g_free(a);
    return G_SOURCE_REMOVE;
}

/* Shows question d, or answers it with the tests' next answer: on the
 * main loop's next turn, before anything else (a close request is still
 * being handled now, and a run's reports or a frame must not come first). */
static void ask(DmkWindow *self, GtkWidget *d)
{
    const char *answer = self->answers ? self->answers[self->n_answered] : NULL;
    if (!answer) {
        gtk_window_present(GTK_WINDOW(d));
        return;
    }
    self->n_answered++;
    g_object_set_data(G_OBJECT(d), "dmk-answer", (gpointer)answer);
    DmkAnswer *a = g_new(DmkAnswer, 1);
    *a = (DmkAnswer){g_object_ref(self), d};
    g_idle_add_full(G_PRIORITY_HIGH, answer_now, a, NULL);
}

static GtkWidget *question_new(DmkWindow *self, GtkMessageType type, const char *text,
                               const char *detail)
{
    GtkWidget *d =
        gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                               type, GTK_BUTTONS_NONE, "%s", text);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", detail);
    return d;
}

static void add_button(GtkWidget *d, const char *label, int response, const char *css)
{
    GtkWidget *b = gtk_dialog_add_button(GTK_DIALOG(d), label, response);
    if (css)
        gtk_widget_add_css_class(b, css);
}

/* ---- saving what was never saved ----------------------------------------- */

/* "drivemark-20261130-074512.csv" by when it ran (a lab test's or a
 * sweep's kind in it), "-2" and on where one is there already: a save
 * of many never replaces a file. */
static char *free_name(const char *dir, DmkSaved *saved)
{
    const DmkRunResult *r = dmk_saved_get_result(saved);
    GDateTime *t = g_date_time_new_from_iso8601(r->date, NULL);
    GDateTime *local = t ? g_date_time_to_local(t) : g_date_time_new_now_local();
    char *stamp = g_date_time_format(local, "%Y%m%d-%H%M%S");
    const char *kind = r->lab[0] ? r->lab : r->sweep;
    char *base = g_strdup_printf("drivemark-%s%s%s", kind, kind[0] ? "-" : "", stamp);
    char *path = NULL;
    for (int n = 1; !path || g_file_test(path, G_FILE_TEST_EXISTS); n++) {
        g_free(path);
        char *name =
            n == 1 ? g_strdup_printf("%s.csv", base) : g_strdup_printf("%s-%d.csv", base, n);
        path = g_build_filename(dir, name, NULL);
        g_free(name);
    }
    g_free(base);
    g_free(stamp);
    g_date_time_unref(local);
    g_clear_pointer(&t, g_date_time_unref);
    return path;
}

/* Each result (DmkSaved) as CSV in dir; FALSE at the first that fails
 * (the info bar says why). */
static gboolean save_results(DmkWindow *self, GPtrArray *results, const char *dir)
{
    for (guint i = 0; i < results->len; i++) {
        DmkSaved *saved = g_ptr_array_index(results, i);
        char *path = free_name(dir, saved);
        GError *error = NULL;
        gboolean ok = dmk_saved_write(saved, path, &error);
        if (ok) {
            _dmk_window_saved_renamed(self, saved);
            _dmk_window_add_recent(self, path);
        } else {
            _dmk_window_show_problem(self, _("The results could not be saved"), error->message);
            g_error_free(error);
        }
        g_free(path);
        if (!ok)
            return FALSE;
    }
    char *where = g_filename_display_name(dir);
    char *status = g_strdup_printf(
        /* TRANSLATORS: the status line; %2$s is a folder. */
        ngettext("Saved %1$u result to %2$s", "Saved %1$u results to %2$s", results->len),
        results->len, where);
    _dmk_window_set_status(self, status);
    g_free(status);
    g_free(where);
    return TRUE;
}

/* Each page's result as CSV in dir, as save_results. */
static gboolean save_pages(DmkWindow *self, GPtrArray *pages, const char *dir)
{
    GPtrArray *results = g_ptr_array_new();
    for (guint i = 0; i < pages->len; i++)
        g_ptr_array_add(results, _dmk_window_page_saved(g_ptr_array_index(pages, i)));
    gboolean ok = save_results(self, results, dir);
    g_ptr_array_unref(results);
    return ok;
}

/* ---- Save Results on the Compare tab ------------------------------------------ */

/* A comparison is its results: saved together in one folder, each as its
 * own CSV (named by when it ran), they open as the same comparison again;
 * the table itself is Save Text's. */
static void save_ticked(DmkWindow *self, const char *dir)
{
    GPtrArray *ticked = dmk_compare_view_picked(self->compare_view);
    if (ticked->len == 0)
        _dmk_window_set_status(self, _("No result is ticked: tick the results to save"));
    else
        save_results(self, ticked, dir);
    g_ptr_array_unref(ticked);
}

static void on_ticked_folder_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    char *dir = response_path(dialog, response);
    if (dir)
        save_ticked(self, dir);
    g_free(dir);
    g_object_unref(dialog);
    g_object_unref(self);
}

static void ask_ticked_folder(DmkWindow *self)
{
    GPtrArray *ticked = dmk_compare_view_picked(self->compare_view);
    guint n = ticked->len;
    g_ptr_array_unref(ticked);
    if (n == 0) {
        _dmk_window_set_status(self, _("No result is ticked: tick the results to save"));
        return;
    }
    char *title = g_strdup_printf(ngettext("Choose a Folder for the %u Ticked Result",
                                           "Choose a Folder for the %u Ticked Results", n),
                                  n);
    GtkFileChooser *d = file_dialog(self, title, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Save"),
                                    G_CALLBACK(on_ticked_folder_response));
    g_free(title);
    show_dialog(d);
}

/* win.save-ticked('DIR'): the folder dialog's answer, for scripts and tests. */
static void act_save_ticked(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    save_ticked(self, g_variant_get_string(p, NULL));
}

/* Saves what is unsaved now into dir and quits when all went well. */
static void save_all_and_quit(DmkWindow *self, const char *dir)
{
    GPtrArray *pages = _dmk_window_unsaved_pages(self);
    gboolean ok = save_pages(self, pages, dir);
    g_ptr_array_unref(pages);
    if (ok)
        dmk_window_close_answered(self);
}

static void on_save_folder_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    char *dir = response_path(dialog, response);
    if (dir)
        save_all_and_quit(self, dir);
    g_free(dir);
    g_object_unref(dialog);
    g_object_unref(self);
}

/* One folder for all of them, each named by when it ran: a file dialog
 * for each of many would be a chore at the moment of quitting. */
static void choose_save_folder(DmkWindow *self)
{
    GtkFileChooser *d = file_dialog(self, _("Choose a Folder for the Results"),
                                    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Save"),
                                    G_CALLBACK(on_save_folder_response));
    show_dialog(d);
}

/* ---- the quit question ----------------------------------------------------- */

/* "Run 14:05", "Run 14:05 and QD sweep 14:10", "A, B, C, D and 3 more":
 * each step a whole phrase of the language's own. */
static char *titles_text(DmkWindow *self, GPtrArray *pages)
{
    const guint most = 4;
    guint shown = pages->len > most + 1 ? most : pages->len;
    char *s = g_strdup(_dmk_window_page_title(self, g_ptr_array_index(pages, 0)));
    for (guint i = 1; i < shown; i++) {
        const char *next = _dmk_window_page_title(self, g_ptr_array_index(pages, i));
        gboolean last = i + 1 == shown && shown == pages->len;
        /* TRANSLATORS: joins the last two names of a list (of result tabs). */
        char *longer = last ? g_strdup_printf(_("%1$s and %2$s"), s, next)
                            /* TRANSLATORS: joins a name to a list (of result tabs). */
                            : g_strdup_printf(_("%1$s, %2$s"), s, next);
        g_free(s);
        s = longer;
    }
    if (shown < pages->len) {
        guint more = pages->len - shown;
        char *longer = g_strdup_printf(
            /* TRANSLATORS: the end of a list of result tabs: the names, then how many more. */
            ngettext("%1$s and %2$u more", "%1$s and %2$u more", more), s, more);
        g_free(s);
        s = longer;
    }
    return s;
}

/* "A sweep is running on DIR.", by the page that started the run. */
static char *running_text(DmkWindow *self, const char *where)
{
    if (self->run.owner == &_dmk_window_sweep_owner)
        /* TRANSLATORS: the quit question; %s is a folder or a device. */
        return g_strdup_printf(_("A sweep is running on %s."), where);
    if (self->run.owner == &_dmk_window_lab_owner)
        /* TRANSLATORS: the quit question; %s is a folder or a device. */
        return g_strdup_printf(_("A lab test is running on %s."), where);
    if (self->run.owner)
        /* TRANSLATORS: the quit question; %s is a folder or a device. */
        return g_strdup_printf(_("A benchmark is running on %s."), where);
    /* TRANSLATORS: the quit question; %s is a folder or a device. */
    return g_strdup_printf(_("A test is running on %s."), where);
}

static GtkWidget *run_question(DmkWindow *self, GPtrArray *pages)
{
    const char *dir = _dmk_window_target_path(self);
    char *where = g_filename_display_name(dir ? dir : "?");
    char *names = pages->len ? titles_text(self, pages) : NULL;
    char *also =
        names ? g_strdup_printf(
                    /* TRANSLATORS: the quit question's last paragraph; %s lists result tabs. */
                    _("\n\nNot saved either, and lost too: %s."), names)
              : g_strdup("");
    char *running = running_text(self, where);
    /* A device has no test file: nothing is left on it either way. */
    const char *stops =
        _dmk_window_target_is_device(self)
            ? _("Quitting stops it first and leaves nothing on the device; what it measured so "
                "far is not kept.")
            : _("Quitting stops it first and removes its test file; what it measured so far is "
                "not kept.");
    char *detail = g_strdup_printf("%s %s%s", running, stops, also);
    GtkWidget *d = question_new(self, GTK_MESSAGE_WARNING, _("Stop the test and quit?"), detail);
    add_button(d, _("_Cancel"), GTK_RESPONSE_CANCEL, NULL);
    add_button(d, _("_Stop and Quit"), DMK_RESPONSE_GO, "destructive-action");
    gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_CANCEL);
    g_object_set_data(G_OBJECT(d), "dmk-run", GINT_TO_POINTER(1));
    g_free(detail);
    g_free(running);
    g_free(also);
    g_free(names);
    g_free(where);
    return d;
}

/* As GNOME's editors ask: Save is the default, Discard the destructive one. */
static GtkWidget *unsaved_question(DmkWindow *self, GPtrArray *pages)
{
    guint n = pages->len;
    char *names = titles_text(self, pages);
    char *text = g_strdup_printf(
        ngettext("Quit without saving %u result?", "Quit without saving %u results?", n), n);
    /* TRANSLATORS: %s is a list of result tabs ("Run 14:05 and QD sweep 14:10"). */
    char *detail = g_strdup_printf(ngettext("%s was never saved: it is lost if you quit now. Save "
                                            "writes it as CSV to a folder you choose, then quits.",
                                            "%s were never saved: they are lost if you quit now. "
                                            "Save writes each as CSV to a folder you choose, then "
                                            "quits.",
                                            n),
                                   names);
    GtkWidget *d = question_new(self, GTK_MESSAGE_QUESTION, text, detail);
    add_button(d, _("_Cancel"), GTK_RESPONSE_CANCEL, NULL);
    add_button(d, _("_Discard"), DMK_RESPONSE_DISCARD, "destructive-action");
    add_button(d, _("_Save\u2026"), DMK_RESPONSE_SAVE, "suggested-action");
    gtk_dialog_set_default_response(GTK_DIALOG(d), DMK_RESPONSE_SAVE);
    g_free(detail);
    g_free(text);
    g_free(names);
    return d;
}

void dmk_window_close_answered(DmkWindow *self)
{
    self->quit_answered = TRUE;
    gtk_window_close(GTK_WINDOW(self));
}

static void on_quit_response(GtkDialog *d, int response, gpointer data)
{
    DmkWindow *self = data;
    char *dir = g_strdup(g_object_get_data(G_OBJECT(d), "dmk-save-dir"));
    self->quit_question = NULL;
    gtk_window_destroy(GTK_WINDOW(d));
    if (response == DMK_RESPONSE_GO || response == DMK_RESPONSE_DISCARD)
        dmk_window_close_answered(self); /* a run stops, then the window goes */
    else if (response == DMK_RESPONSE_SAVE && dir)
        save_all_and_quit(self, dir);
    else if (response == DMK_RESPONSE_SAVE)
        choose_save_folder(self);
    g_free(dir);
}

gboolean _dmk_window_close_asks(DmkWindow *self)
{
    if (self->quit_answered)
        return FALSE;
    if (self->quit_question) {
        gtk_window_present(GTK_WINDOW(self->quit_question));
        return TRUE;
    }
    GPtrArray *pages = _dmk_window_unsaved_pages(self);
    gboolean running = dmk_window_is_running(self);
    GtkWidget *d = running      ? run_question(self, pages)
                   : pages->len ? unsaved_question(self, pages)
                                : NULL;
    g_ptr_array_unref(pages);
    if (!d)
        return FALSE;
    g_signal_connect(d, "response", G_CALLBACK(on_quit_response), self);
    self->quit_question = d;
    ask(self, d);
    return TRUE;
}

static gboolean ask_again(gpointer data)
{
    gtk_window_close(GTK_WINDOW(data)); /* asks what is true now, or closes */
    g_object_unref(data);
    return G_SOURCE_REMOVE;
}

void _dmk_window_run_ended_while_asked(DmkWindow *self)
{
    GtkWidget *d = self->quit_question;
    /* A run begun since (at the end of the last one) keeps its question. */
    if (!d || !g_object_get_data(G_OBJECT(d), "dmk-run") || dmk_window_is_running(self))
        return;
    self->quit_question = NULL;
    gtk_window_destroy(GTK_WINDOW(d));
    g_idle_add_full(G_PRIORITY_HIGH, ask_again, g_object_ref(self), NULL); /* before a frame */
}

/* ---- closing a result tab ---------------------------------------------------- */

static void close_if_there(DmkWindow *self, GtkWidget *page)
{
    if (gtk_notebook_page_num(self->notebook, page) >= 0)
        _dmk_window_close_tab(self, page);
}

static void on_tab_save_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    GtkWidget *page = g_object_get_data(G_OBJECT(dialog), "dmk-page");
    char *path = response_path(dialog, response);
    GError *error = NULL;
    DmkSaved *saved = _dmk_window_page_saved(page);
    if (path && saved && !dmk_saved_write(saved, path, &error)) {
        _dmk_window_show_problem(self, _("The results could not be saved"), error->message);
        g_error_free(error);
    } else if (path && saved) {
        _dmk_window_add_recent(self, path);
        set_status_path(self, TRUE, path);
        close_if_there(self, page);
    }
    g_free(path);
    g_object_unref(dialog);
    g_object_unref(self);
}

/* One result: a Save dialog with its name suggested, as Ctrl+S has. */
static void save_tab_then_close(DmkWindow *self, GtkWidget *page, const char *dir)
{
    if (dir) {
        GPtrArray *one = g_ptr_array_new();
        g_ptr_array_add(one, page);
        if (save_pages(self, one, dir))
            close_if_there(self, page);
        g_ptr_array_unref(one);
        return;
    }
    GtkFileChooser *d = file_dialog(self, _("Save Results"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                    _("_Save"), G_CALLBACK(on_tab_save_response));
    g_object_set_data_full(G_OBJECT(d), "dmk-page", g_object_ref(page), g_object_unref);
    add_filter(d, _("CSV results (*.csv)"), "*.csv");
    suggest_name(d, _dmk_window_page_saved(page));
    show_dialog(d);
}

static void on_tab_response(GtkDialog *d, int response, gpointer data)
{
    DmkWindow *self = data;
    GtkWidget *page = g_object_ref(g_object_get_data(G_OBJECT(d), "dmk-page"));
    char *dir = g_strdup(g_object_get_data(G_OBJECT(d), "dmk-save-dir"));
    self->quit_question = NULL;
    gtk_window_destroy(GTK_WINDOW(d));
    if (response == DMK_RESPONSE_DISCARD)
        close_if_there(self, page);
    else if (response == DMK_RESPONSE_SAVE && gtk_notebook_page_num(self->notebook, page) >= 0)
        save_tab_then_close(self, page, dir);
    g_free(dir);
    g_object_unref(page);
}

void _dmk_window_close_tab_asking(DmkWindow *self, GtkWidget *page)
{
    DmkSaved *saved = _dmk_window_page_saved(page);
    if (!saved)
        return;
    if (!dmk_saved_is_unsaved(saved)) {
        _dmk_window_close_tab(self, page);
        return;
    }
    if (self->quit_question) {
        gtk_window_present(GTK_WINDOW(self->quit_question));
        return;
    }
    /* TRANSLATORS: %s is a result tab's title ("Run 14:05"). */
    char *text = g_strdup_printf(_("Close %s without saving?"), _dmk_window_page_title(self, page));
    GtkWidget *d = question_new(
        self, GTK_MESSAGE_QUESTION, text,
        _("This result was never saved: closing its tab loses it. Save writes it as CSV first."));
    add_button(d, _("_Cancel"), GTK_RESPONSE_CANCEL, NULL);
    add_button(d, _("_Discard"), DMK_RESPONSE_DISCARD, "destructive-action");
    add_button(d, _("_Save\u2026"), DMK_RESPONSE_SAVE, "suggested-action");
    gtk_dialog_set_default_response(GTK_DIALOG(d), DMK_RESPONSE_SAVE);
    g_object_set_data_full(G_OBJECT(d), "dmk-page", g_object_ref(page), g_object_unref);
    g_signal_connect(d, "response", G_CALLBACK(on_tab_response), self);
    self->quit_question = d;
    ask(self, d);
    g_free(text);
}

/* ---- the comment ------------------------------------------------------------- */

/* The comment describes the run whose tiles are shown, as in
 * CrystalDiskMark: typed after it, it is that run's, in its tab and in
 * whatever is saved of it (and makes it unsaved again). During a run it
 * waits for the run's end, which takes it (dmk-window-run.c). */
void _dmk_window_comment_changed(DmkWindow *self)
{
    if (!self->last_run || dmk_window_is_running(self))
        return;
    dmk_saved_set_comment(self->last_run, gtk_editable_get_text(GTK_EDITABLE(self->comment_entry)));
    _dmk_window_saved_renamed(self, self->last_run);
}

static void on_comment_changed(GtkEditable *e, DmkWindow *self)
{
    (void)e;
    _dmk_window_comment_changed(self);
}

/* ---- a big write's question ---------------------------------------------------- */

/* The thresholds, here only: a test that writes more than
 * DMK_ASK_WRITE_BYTES for certain (its test file's fill, and the tests that
 * end by bytes) or whose plan (the runner's own, dmk_run_spec_planned_s,
 * which the Lab tab shows too) lasts more than DMK_ASK_SECONDS asks before
 * it starts. CrystalDiskMark's default run (1 GiB, 5 x 5 s: under 5 min,
 * 7 with the Mix column) does not; Lab > Sustained write (32 GiB, 2 h) does. */
#define DMK_ASK_WRITE_BYTES (4ULL << 30)
#define DMK_ASK_SECONDS     (10.0 * 60.0)

/* What spec writes for certain, by the runner's rule for the fill. */
static guint64 certain_bytes(const DmkRunSpec *spec)
{
    gboolean fill = !spec->no_fill && (!spec->device || dmk_run_spec_writes(spec));
    guint64 bytes = fill ? spec->size : 0;
    for (size_t i = 0; i < spec->n_tests; i++)
        if (spec->tests[i].mode != DMK_MODE_READ)
            bytes += spec->tests[i].limit_bytes;
    return bytes;
}

/* "The benchmark", "The QD sweep", "The sustained write": the subject of
 * big_detail's sentences, a whole phrase. */
static char *spec_kind(const DmkRunSpec *spec)
{
    if (spec->sweep[0])
        return g_strdup(strcmp(spec->sweep, "qd") == 0 ? _("The QD sweep")
                                                       : _("The block-size sweep"));
    if (!spec->lab[0])
        return g_strdup(_("The benchmark"));
    /* The title as the Lab tab shows it, quoted: no case change, which
     * only English could take. */
    /* TRANSLATORS: a big run's question: %s is a Lab test's title
     * ("Sustained write"); the subject of a sentence. */
    return g_strdup_printf(_("The test \u201c%s\u201d"),
                           _(dmk_lab_title(dmk_lab_from_name(spec->lab))));
}

/* The plan leaves the fill out: its time is the drive's. */
static char *big_detail(const DmkRunSpec *spec, guint64 bytes, const char *length,
                        const DmkBackend *be)
{
    char amount[32];
    char *kind = spec_kind(spec);
    char *where = g_filename_display_name(spec->dir);
    dmk_format_size(bytes, amount, sizeof amount);
    char *writes =
        bytes == 0
            /* TRANSLATORS: %1$s is what runs ("The benchmark"), %2$s a folder or
             * a device, %3$s a length (2 h 5 min). */
            ? g_strdup_printf(_("%1$s runs on %2$s for about %3$s."), kind, where, length)
            : spec->device
                  /* TRANSLATORS: %1$s is what runs ("The benchmark"), %2$s a size (32 GiB),
                   * %3$s a device, %4$s a length (2 h 5 min). */
                  ? g_strdup_printf(
                        _("%1$s first writes %2$s to the device %3$s, then runs for about "
                          "%4$s (its plan; the first write takes as long as the drive "
                          "needs on top). Long writes count against the drive's rated "
                          "endurance."),
                        kind, amount, where, length)
                  /* TRANSLATORS: %1$s is what runs ("The benchmark"), %2$s a size (32 GiB),
                   * %3$s a folder, %4$s a length (2 h 5 min). */
                  : g_strdup_printf(
                        _("%1$s first fills its %2$s test file in %3$s, then runs for about "
                          "%4$s (its plan; the first write takes as long as the drive "
                          "needs on top). The file is removed afterwards. Long writes "
                          "count against the drive's rated endurance."),
                        kind, amount, where, length);
    char *pretend = be && be->in_memory ? pretend_text(be->name) : g_strdup("");
    char *detail = g_strconcat(writes, pretend, NULL);
    g_free(pretend);
    g_free(writes);
    g_free(where);
    g_free(kind);
    return detail;
}

static void on_big_response(GtkDialog *d, int response, gpointer data)
{
    DmkWindow *self = data;
    const DmkRunSpec *spec = g_object_get_data(G_OBJECT(d), "dmk-spec");
    const DmkRunStart *start = g_object_get_data(G_OBJECT(d), "dmk-start");
    self->lab_confirm = NULL;
    if (response == DMK_RESPONSE_GO && !self->worker)
        _dmk_window_launch(self, spec, start);
    gtk_window_destroy(GTK_WINDOW(d));
}

void _dmk_window_launch_asking(DmkWindow *self, const DmkRunSpec *spec, const DmkRunStart *start,
                               gboolean confirmed)
{
    const DmkBackend *be = dmk_backend_by_name(self->backend);
    /* A backend that writes nothing writes no GiB; its time is real. */
    guint64 bytes = certain_bytes(spec);
    gboolean many = !(be && be->in_memory) && bytes > DMK_ASK_WRITE_BYTES;
    double planned = dmk_run_spec_planned_s(spec);
    gboolean long_run = planned > DMK_ASK_SECONDS;
    if (confirmed || self->lab_confirm || (!many && !long_run)) {
        if (!self->lab_confirm)
            _dmk_window_launch(self, spec, start);
        return;
    }
    char amount[32];
    char *length = dmk_text_length(planned);
    dmk_format_size(bytes, amount, sizeof amount);
    char *text = many && long_run
                     /* TRANSLATORS: a big run's question: a size (32 GiB), a length (2 h 5 min). */
                     ? g_strdup_printf(_("Write %s and run for about %s?"), amount, length)
                     : many ? g_strdup_printf(_("Write %s?"), amount)
                            : g_strdup_printf(_("Run for about %s?"), length);
    char *detail = big_detail(spec, bytes, length, be);
    GtkWidget *d = question_new(self, GTK_MESSAGE_WARNING, text, detail);
    add_button(d, _("_Cancel"), GTK_RESPONSE_CANCEL, NULL);
    add_button(d, _("_Start"), DMK_RESPONSE_GO, "suggested-action");
    gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_CANCEL);
    g_object_set_data_full(G_OBJECT(d), "dmk-spec", g_memdup2(spec, sizeof *spec), g_free);
    g_object_set_data_full(G_OBJECT(d), "dmk-start", g_memdup2(start, sizeof *start), g_free);
    g_signal_connect(d, "response", G_CALLBACK(on_big_response), self);
    self->lab_confirm = d;
    ask(self, d);
    g_free(detail);
    g_free(text);
    g_free(length);
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
        {"save-ticked", act_save_ticked, "s", NULL, NULL, {0}},
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
        {"target", act_target, "s", NULL, NULL, {0}},
        {"lab-field", act_lab_field, "(ss)", NULL, NULL, {0}},
        {"show-targets", act_show_targets, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    add_settings_actions(self);
    g_signal_connect(self->comment_entry, "changed", G_CALLBACK(on_comment_changed), self);
    _dmk_window_update_actions(self);
}
