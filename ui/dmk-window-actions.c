/* The window's actions (win.*): what the menu, the accelerators and the
 * buttons trigger, plus the dialogs they open. */
#include "dmk-window-private.h"

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
        dmk_window_start_run(self, row);
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
    const DmkRunResult *r = dmk_window_get_result(self);
    if (forward_copy(self) || !r)
        return;
    char *text = dmk_text_report(r);
    gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(self)), text);
    g_free(text);
    dmk_window_set_status(self, "Results copied to the clipboard");
}

/* ---- save ------------------------------------------------------------------ */

static void on_save_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    GFile *file = response == GTK_RESPONSE_ACCEPT
                      ? gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog))
                      : NULL;
    char *path = file ? g_file_get_path(file) : NULL;
    GError *error = NULL;
    if (path && !dmk_window_save_result(self, path, &error)) {
        dmk_window_show_error(self, DMK_E_IO, error->message);
        g_error_free(error);
    } else if (path) {
        char *status = g_strdup_printf("Results saved to %s", path);
        dmk_window_set_status(self, status);
        g_free(status);
    }
    g_free(path);
    g_clear_object(&file);
    g_object_unref(dialog);
    g_object_unref(self);
}

static void add_filter(GtkFileChooser *chooser, const char *name, const char *pattern)
{
    GtkFileFilter *f = gtk_file_filter_new();
    gtk_file_filter_set_name(f, name);
    gtk_file_filter_add_pattern(f, pattern);
    gtk_file_chooser_add_filter(chooser, f);
    g_object_unref(f);
}

static void act_save(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    GtkFileChooserNative *d = gtk_file_chooser_native_new(
        "Save Results", GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");
    GDateTime *now = g_date_time_new_now_local();
    char *name = g_date_time_format(now, "drivemark-%Y%m%d-%H%M%S.json");
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), name);
    add_filter(GTK_FILE_CHOOSER(d), "JSON results (*.json)", "*.json");
#ifdef DMK_HAVE_CSV
    add_filter(GTK_FILE_CHOOSER(d), "CSV results (*.csv)", "*.csv");
#endif
    g_free(name);
    g_date_time_unref(now);
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(d), TRUE);
    g_signal_connect(d, "response", G_CALLBACK(on_save_response), g_object_ref(self));
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
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

void dmk_window_choose_target(DmkWindow *self)
{
    GtkFileChooserNative *d =
        gtk_file_chooser_native_new("Choose a Folder to Benchmark", GTK_WINDOW(self),
                                    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Select", "_Cancel");
    const char *current = dmk_window_target_path(self);
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
    dmk_window_choose_target(self);
}

/* ---- setup ---------------------------------------------------------------- */

/* Settings without a widget of their own live in the Settings menu. */
static void add_settings_actions(DmkWindow *self)
{
    static const char *const keys[] = {"data", "measure-time", "interval-time"};
    for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
        GAction *a = g_settings_create_action(self->settings, keys[i]);
        g_action_map_add_action(G_ACTION_MAP(self), a);
        g_object_unref(a);
    }
}

void dmk_window_add_actions(DmkWindow *self)
{
    static const GActionEntry entries[] = {
        {"run-all", act_run_all, NULL, NULL, NULL, {0}},
        {"run-test", act_run_test, "i", NULL, NULL, {0}},
        {"stop", act_stop, NULL, NULL, NULL, {0}},
        {"copy", act_copy, NULL, NULL, NULL, {0}},
        {"save", act_save, NULL, NULL, NULL, {0}},
        {"choose-target", act_choose_target, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    add_settings_actions(self);
    dmk_window_update_actions(self);
}
