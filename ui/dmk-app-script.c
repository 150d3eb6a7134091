/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scripted runs, for tests, screenshots and reviews' automation: the
 * autorun, stop and close at a given moment, the outputs written when the
 * run ends (screenshot, JSON, chart, tiles, clipboard) and the exit status.
 * Nothing here is marked for translation: the messages of the outputs a
 * user may ask for (--screenshot, --json, --export-chart, --save-text,
 * --save-image) come translated from where they are made, and the rest
 * (--activate, --set-test, --dump-clipboard, the dumps) are the tests'
 * and scripts' diagnostics, in English as the tests read them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-app-private.h"
#include "dmk-screenshot.h"
#include "dmk-settings-dialog.h"
#include "dmk-stall-probe.h"

static gboolean scripted(const DmkAppOptions *o)
{
    return o->screenshot || o->json || o->dump_tiles || o->dump_clipboard || o->quit_when_done ||
           o->export_chart || o->save_text || o->save_image;
}

static void fail_with(DmkApp *self, GError **error)
{
    g_printerr("drivemark: %s\n", (*error)->message);
    g_clear_error(error);
    self->exit_status = self->exit_status ? self->exit_status : DMK_EXIT_FAILED;
}

/* "chart@2x.png" is a 2x image, as the web and macOS name them. */
static void export_chart(DmkApp *self, const char *path)
{
    GError *error = NULL;
    double scale = g_str_has_suffix(path, "@2x.png") || g_str_has_suffix(path, "@2x.PNG") ? 2 : 1;
    if (!dmk_window_export_chart(self->window, path, scale, &error))
        fail_with(self, &error);
}

/* A question still open is what the user looks at, or else the Settings
 * dialog or the shortcuts window: it is the picture. */
static GtkWidget *shown_widget(DmkApp *self)
{
    GtkWidget *question = dmk_window_get_question(self->window);
    GtkWidget *dialog = dmk_window_get_dialog(self->window);
    GtkWidget *list = dmk_window_get_open_list(self->window);
    return question ? question : dialog ? dialog : list ? list : GTK_WIDGET(self->window);
}

static void write_outputs(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    GError *error = NULL;
    if (o->export_chart)
        export_chart(self, o->export_chart);
    GtkWidget *shown = shown_widget(self);
    if (o->screenshot && !dmk_screenshot_save(shown, o->screenshot, &error)) {
        g_printerr("drivemark: %s\n", error->message);
        g_clear_error(&error);
        self->exit_status = self->exit_status ? self->exit_status : DMK_EXIT_FAILED;
    }
    if (o->save_text && !dmk_window_save_text(self->window, o->save_text, &error))
        fail_with(self, &error);
    if (o->save_image && !dmk_window_save_image(self->window, o->save_image, &error))
        fail_with(self, &error);
    if (o->json && dmk_window_get_result(self->window) &&
        !dmk_window_save_result(self->window, o->json, &error)) {
        g_printerr("drivemark: %s\n", error->message);
        g_clear_error(&error);
        self->exit_status = self->exit_status ? self->exit_status : DMK_EXIT_FAILED;
    }
    if (o->dump_tiles) {
        char *dump = dmk_window_dump(self->window);
        fputs(dump, stdout);
        fflush(stdout);
        g_free(dump);
    }
}

static void quit_if_asked(DmkApp *self)
{
    if (!self->opt.quit_when_done || !self->window)
        return;
    /* An open list (win.show-targets) is closed first: destroyed with its
     * window while popped up, the popover asks a gone surface for the
     * pointer (a critical). */
    GtkWidget *list = dmk_window_get_open_list(self->window);
    if (list)
        gtk_popover_popdown(GTK_POPOVER(list));
    gtk_window_destroy(GTK_WINDOW(self->window));
}

/* The text the clipboard holds, from its content provider: the window's
 * own (Ctrl+C set it), read at once. GDK's asynchronous read of a local
 * clipboard leaves its GTask behind (LeakSanitizer, GTK 4.8), and the
 * provider is what any reader of this program's clipboard is given. */
static char *clipboard_text(GdkClipboard *cb, GError **error)
{
    GdkContentProvider *p = gdk_clipboard_get_content(cb);
    if (!p) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                            "the clipboard holds nothing this program put there");
        return NULL;
    }
    GValue v = G_VALUE_INIT;
    g_value_init(&v, G_TYPE_STRING);
    char *text = gdk_content_provider_get_value(p, &v, error) ? g_value_dup_string(&v) : NULL;
    g_value_unset(&v);
    return text;
}

/* What Ctrl+C puts on the clipboard, printed a line each. */
static void dump_clipboard(DmkApp *self)
{
    GtkWidget *w = GTK_WIDGET(self->window);
    GError *error = NULL;
    gtk_root_set_focus(GTK_ROOT(w), NULL); /* no text field may take the copy */
    gtk_widget_activate_action(w, "win.copy", NULL);
    char *text = clipboard_text(gtk_widget_get_clipboard(w), &error);
    char **lines = g_strsplit(text ? text : "", "\n", -1);
    for (char **l = lines; *l; l++)
        printf("clipboard\t%s\n", *l);
    fflush(stdout);
    if (error)
        g_printerr("drivemark: reading the clipboard back failed: %s\n", error->message);
    g_clear_error(&error);
    g_strfreev(lines);
    g_free(text);
}

static void finish_after_frame(DmkApp *self);

/* Up to this many frames, when the window queued another redraw after the
 * one waited for (a slow machine): the screenshot needs a drawn one. */
#define SCREENSHOT_FRAMES_MAX 20

static gboolean finish_script(gpointer data)
{
    DmkApp *self = data;
    if (!self->window)
        return G_SOURCE_REMOVE;
    if (self->opt.screenshot && self->frames_waited < SCREENSHOT_FRAMES_MAX &&
        !dmk_screenshot_ready(shown_widget(self))) {
        self->frames_waited++;
        finish_after_frame(self);
        return G_SOURCE_REMOVE;
    }
    dmk_stall_probe_stop(); /* what follows is the script's, not the window's */
    write_outputs(self);
    if (self->opt.dump_clipboard)
        dump_clipboard(self);
    quit_if_asked(self);
    return G_SOURCE_REMOVE;
}

static void on_after_paint(GdkFrameClock *clock, gpointer data)
{
    g_signal_handlers_disconnect_by_func(clock, on_after_paint, data);
    /* A little later still, so the frame is on screen, not just drawn. */
    g_timeout_add(50, finish_script, data);
}

/* The screenshot must show the final tiles: wait for the next frame. */
static void finish_after_frame(DmkApp *self)
{
    /* The window's frame: a question or dialog (what the screenshot shows)
     * may go before it draws, and finish_script waits for it to be drawn. */
    GtkWidget *w = GTK_WIDGET(self->window);
    GdkFrameClock *clock = gtk_widget_get_frame_clock(w);
    if (!clock) {
        g_timeout_add(250, finish_script, self);
        return;
    }
    g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), self);
    gtk_widget_queue_draw(w);
}

/* drivemark-cli's statuses (DmkExitStatus): Stop is its SIGINT, and a
 * run whose verify found a bad block is done but lost data. The run's own
 * result: the tab shown may be an opened file's, with a verdict of its own. */
static int exit_status_of(DmkApp *self, int rc)
{
    DmkVerifyResult sum = {0};
    const DmkRunResult *res = dmk_window_get_run_result(self->window);
    if (rc == DMK_E_STOPPED)
        return DMK_EXIT_INTERRUPTED;
    if (rc != DMK_OK)
        return DMK_EXIT_FAILED;
    if (res)
        dmk_run_result_verify(res, &sum);
    return sum.bad ? DMK_EXIT_BAD_DATA : DMK_EXIT_OK;
}

static gboolean autorun(gpointer data);

/* As the menu or a key would: win.NAME, or app.NAME as it is; a detailed
 * name ("zoom(200)") gives the action its target. */
static void trigger_actions(DmkApp *self, char **names)
{
    for (char **a = names; self->window && a && *a; a++) {
        char *name = NULL;
        GVariant *target = NULL;
        GError *error = NULL;
        char *full = g_str_has_prefix(*a, "app.") ? g_strdup(*a) : g_strconcat("win.", *a, NULL);
        gboolean ok = g_action_parse_detailed_name(full, &name, &target, &error) &&
                      gtk_widget_activate_action_variant(GTK_WIDGET(self->window), name, target);
        if (!ok)
            g_printerr("drivemark: --activate %s: %s\n", *a,
                       error ? error->message : "no such action, or it is disabled");
        g_clear_error(&error);
        if (target)
            g_variant_unref(target);
        g_free(name);
        g_free(full);
    }
}

/* Tests: what a user does once the run has ended (a comment typed, a
 * key pressed), before the outputs. */
static void after_run(DmkApp *self)
{
    if (self->opt.type_comment)
        dmk_window_set_comment(self->window, self->opt.type_comment);
    trigger_actions(self, self->opt.when_done);
}

static void on_run_finished(DmkWindow *win, int rc, gpointer data)
{
    DmkApp *self = data;
    (void)win;
    if (!self->opt.autorun)
        return;
    if (self->opt.runs > 1) {
        self->opt.runs--; /* --runs: the next one */
        g_idle_add(autorun, self);
        return;
    }
    if (!scripted(&self->opt)) {
        self->opt.autorun = FALSE;
        after_run(self);
        return;
    }
    self->opt.autorun = FALSE; /* later runs are the user's */
    self->exit_status = exit_status_of(self, rc);
    after_run(self);
    if (self->window)
        finish_after_frame(self);
}

static gboolean press_stop(gpointer data)
{
    DmkApp *self = data;
    if (self->window)
        dmk_window_stop(self->window);
    return G_SOURCE_REMOVE;
}

/* As if the user closed the window and answered its question with Quit:
 * the run stops, then the window goes. */
static gboolean press_close(gpointer data)
{
    DmkApp *self = data;
    if (self->window)
        dmk_window_close_answered(self->window);
    return G_SOURCE_REMOVE;
}

static gboolean autorun(gpointer data)
{
    DmkApp *self = data;
    if (!self->window)
        return G_SOURCE_REMOVE;
    gboolean last = self->opt.runs <= 1; /* --runs: the stops are the last run's */
    if (last && self->opt.stop_at_count)
        dmk_window_set_stop_at(self->window, self->opt.stop_stage, self->opt.stop_at_count,
                               self->opt.close_at);
    if (last && self->opt.stop_at_stall)
        dmk_window_set_stop_at_stall(self->window, self->opt.close_at);
    if (self->opt.lab)
        dmk_window_run_lab(self->window, TRUE); /* the command line asked: no question */
    else if (self->opt.sweep)
        dmk_window_run_sweep(self->window, TRUE);
    else
        dmk_window_run_all(self->window, TRUE);
    if (!dmk_window_is_running(self->window)) {
        /* Refused before it began (the info bar says why). */
        self->opt.autorun = FALSE;
        self->exit_status = DMK_EXIT_FAILED;
        if (scripted(&self->opt))
            finish_after_frame(self);
        return G_SOURCE_REMOVE;
    }
    if (last && self->opt.stop_after_s > 0)
        g_timeout_add((guint)(self->opt.stop_after_s * 1000.0), press_stop, self);
    if (last && self->opt.close_after_s > 0)
        g_timeout_add((guint)(self->opt.close_after_s * 1000.0), press_close, self);
    trigger_actions(self, self->opt.when_started);
    return G_SOURCE_REMOVE;
}

/* As a file manager's drop would: a GdkFileList through the drop handler. */
static void drop_files(DmkApp *self, char **paths)
{
    GSList *files = NULL;
    for (char **p = paths; *p; p++)
        files = g_slist_append(files, g_file_new_for_path(*p));
    GdkFileList *list = gdk_file_list_new_from_list(files);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed(&value, list);
    if (!dmk_window_drop(self->window, &value))
        self->exit_status = DMK_EXIT_FAILED;
    g_value_unset(&value);
    g_slist_free_full(files, g_object_unref);
}

/* Results from the command line, before the window is shown, so it opens
 * at the size the charts want. A file that fails makes a scripted run
 * fail (the info bar says why). */
static void open_results(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    if (o->open && dmk_window_open_paths(self->window, (const char *const *)o->open) > 0)
        self->exit_status = DMK_EXIT_FAILED;
    if (o->n_files && dmk_window_open_files(self->window, o->files, o->n_files) > 0)
        self->exit_status = DMK_EXIT_FAILED;
    if (o->drop)
        drop_files(self, o->drop);
    if (o->compare)
        dmk_window_show_compare(self->window);
    if (o->sweep)
        dmk_window_show_sweep(self->window,
                              strcmp(o->sweep, "bs") == 0 ? DMK_SWEEP_BS : DMK_SWEEP_QD);
    if (o->lab)
        dmk_window_show_lab(self->window, o->lab_o.kind);
}

/* As the menu would: opens the dialogs, for a smoke test of them; a
 * detailed name ("zoom(200)") gives the action its target. The outputs
 * wait for the frame after them. */
static gboolean activate_actions(gpointer data)
{
    DmkApp *self = data;
    trigger_actions(self, self->opt.activate);
    if (self->window && !self->opt.autorun && scripted(&self->opt))
        finish_after_frame(self);
    return G_SOURCE_REMOVE;
}

/* --set-test and --settings-reset: the Settings dialog, driven as a user
 * would, before any run. */
static void drive_settings(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    if (!o->set_test && !o->settings_reset)
        return;
    DmkSettingsDialog *d = DMK_SETTINGS_DIALOG(dmk_window_open_settings(self->window));
    if (o->settings_reset)
        dmk_settings_dialog_reset(d);
    for (char **t = o->set_test; t && *t; t++) {
        char *eq = strchr(*t, '=');
        int row = eq && g_ascii_isdigit(**t) ? atoi(*t) - 1 : -1;
        char *field = eq ? g_strndup(*t, (gsize)(eq - *t)) : NULL;
        gboolean ok = eq && (row >= 0 ? dmk_settings_dialog_set_test(d, row, eq + 1)
                                      : dmk_settings_dialog_set_value(d, field, atoi(eq + 1)));
        g_free(field);
        if (!ok) {
            g_printerr("drivemark: --set-test %s: expected ROW=NAME (ROW 1-4), mix=N, "
                       "measure=N or interval=N\n",
                       *t);
            self->exit_status = DMK_EXIT_USAGE;
        }
    }
    if (!dmk_settings_dialog_apply(d)) {
        g_printerr("drivemark: the Settings dialog refused the tests\n");
        self->exit_status = DMK_EXIT_FAILED;
    }
}

void _dmk_app_script_before_show(DmkApp *self)
{
    g_signal_connect(self->window, "run-finished", G_CALLBACK(on_run_finished), self);
    if (self->opt.answers)
        dmk_window_set_answers(self->window, (const char *const *)self->opt.answers);
    open_results(self);
}

void _dmk_app_script_after_show(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    drive_settings(self);
    if (o->activate)
        g_idle_add(activate_actions, self);
    if (o->autorun)
        g_idle_add(autorun, self);
    else if (scripted(o) && !o->activate)
        finish_after_frame(self);
}
