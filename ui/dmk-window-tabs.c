/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's tabs: Benchmark (the template's board), Sweep, Lab,
 * Compare (while there are results) and a closable tab per kept result (a
 * lab result's shows its charts and report instead of tiles), and the
 * ways results get there: finished runs and sweeps, the Open dialog, the
 * command line, drag and drop, and the recent files. */
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <glib/gi18n.h>

#include "dmk-window-private.h"

#include "dmk-app.h"

#include <string.h>

#include "dmk-lab-view.h"
#include "dmk-result-view.h"
#include "dmk-size.h"
#include "dmk-text.h"

#define RECENT_KEY "recent-results"
#define RECENT_MAX 10
#define TITLE_KEY  "dmk-tab-title" /* a result tab's title label */

/* The Lab tab's form beside a chart and its report, and the Compare tab's
 * table beside its chart, want room: the first visit the user makes
 * makes the window at least this big. A result or sweep tab, which opens
 * by itself after a run or a file open, fits the window as it is (it
 * scrolls or shrinks its chart): a window that jumps when a run's tab
 * opens is not the user's. */
#define COMPARE_WIDTH  1000
#define COMPARE_HEIGHT 620
#define LAB_WIDTH      1100
#define LAB_HEIGHT     720

/* ---- the fixed tabs ---------------------------------------------------- */

static void set_page_margins(GtkWidget *page)
{
    gtk_widget_set_margin_start(page, 10);
    gtk_widget_set_margin_end(page, 10);
    gtk_widget_set_margin_top(page, 8);
    gtk_widget_set_margin_bottom(page, 6);
}

static GtkWidget *current_page(DmkWindow *self)
{
    int n = gtk_notebook_get_current_page(self->notebook);
    return n < 0 ? NULL : gtk_notebook_get_nth_page(self->notebook, n);
}

/* Once per size: a user who shrinks the window again keeps it so. */
static void make_roomy(DmkWindow *self, int width, int height)
{
    if (self->grown >= width)
        return;
    self->grown = width;
    int w = gtk_widget_get_width(GTK_WIDGET(self));
    int h = gtk_widget_get_height(GTK_WIDGET(self));
    gtk_window_set_default_size(GTK_WINDOW(self), MAX(w, width), MAX(h, height));
}

static double measure_seconds(DmkWindow *self)
{
    return self->overrides.measure_s >= 0 ? self->overrides.measure_s
                                          : g_settings_get_int(self->settings, "measure-time");
}

/* The sweep runs with the Benchmark tab's settings: say which. */
static void update_sweep_note(DmkWindow *self)
{
    char size[32], meas[32];
    const char *dir = _dmk_window_target_path(self);
    char *where = dir ? g_filename_display_name(dir) : g_strdup("?");
    int passes = g_settings_get_int(self->settings, "passes");
    dmk_format_size(g_settings_get_uint64(self->settings, "test-size"), size, sizeof size);
    dmk_format_double(measure_seconds(self), 1, meas, sizeof meas);
    /* A raw device has no test file: a region of it (dmk_result_area's words). */
    char *note =
        _dmk_window_target_is_device(self)
            ? g_strdup_printf(
                  /* TRANSLATORS: the Sweep tab's note: the size (1 GiB), the device, then each
                     point's passes and seconds a pass ("the best of 5 × 5 s"). */
                  ngettext("%1$s region of %2$s; each point the best of %3$d \u00d7 %4$s s "
                           "(Benchmark tab settings)",
                           "%1$s region of %2$s; each point the best of %3$d \u00d7 %4$s s "
                           "(Benchmark tab settings)",
                           (gulong)passes),
                  size, where, passes, meas)
            : g_strdup_printf(
                  /* TRANSLATORS: the Sweep tab's note: the test file's size (1 GiB), its folder,
                     then each point's passes and seconds a pass ("the best of 5 × 5 s"). */
                  ngettext("%1$s test file in %2$s; each point the best of %3$d \u00d7 %4$s s "
                           "(Benchmark tab settings)",
                           "%1$s test file in %2$s; each point the best of %3$d \u00d7 %4$s s "
                           "(Benchmark tab settings)",
                           (gulong)passes),
                  size, where, passes, meas);
    dmk_sweep_page_set_note(self->sweep_page, note);
    g_free(note);
    g_free(where);
}

/* The lab test runs on the Benchmark tab's target and data: say which,
 * with the free space, which a full-span write takes. */
/* The test chosen writes files of its own, not one test file (the lab
 * tests' table: a test with its own run, the file sets). */
static gboolean lab_has_own_files(DmkWindow *self)
{
    const DmkLabTest *t = dmk_lab_test(dmk_lab_page_get_kind(self->lab_page));
    return t && t->run;
}

/* The Lab's note on a raw device: its data is lost to a test that writes;
 * in use (usage), only a test that only reads may run on it. zero: the
 * test writes all-zero data, not random. */
static char *device_note(const char *where, const char *usage, gboolean writes, gboolean zero)
{
    if (usage && writes)
        return g_strdup_printf(
            /* TRANSLATORS: the Lab tab's note; the first %s is a device (/dev/sdb), the second what
               uses it (mounted on /home). */
            _("Raw device %s, the Benchmark tab's target, is in use (%s): this test writes, so it "
              "cannot run on it"),
            where, usage);
    if (usage)
        return g_strdup_printf(
            /* TRANSLATORS: the Lab tab's note; the first %s is a device (/dev/sdb), the second what
               uses it (mounted on /home). */
            _("Raw device %s, the Benchmark tab's target, in use (%s): this test only reads it"),
            where, usage);
    if (!writes)
        return g_strdup_printf(
            /* TRANSLATORS: the Lab tab's note; %s is a device (/dev/sdb). */
            _("Raw device %s, the Benchmark tab's target: this test only reads it"), where);
    if (zero)
        return g_strdup_printf(
            /* TRANSLATORS: the Lab tab's note; %s is a device (/dev/sdb). */
            _("Raw device %s, the Benchmark tab's target: the test writes over its data; all-zero "
              "data"),
            where);
    return g_strdup_printf(
        /* TRANSLATORS: the Lab tab's note; %s is a device (/dev/sdb). */
        _("Raw device %s, the Benchmark tab's target: the test writes over its data; random data"),
        where);
}

/* The Lab's note on a folder: where its test file or file sets go. */
static char *folder_note(const char *where, const char *free_text, gboolean own_files,
                         gboolean zero)
{
    if (own_files)
        return g_strdup_printf(
            /* TRANSLATORS: the Lab tab's note; %1$s is a folder, %2$s its free space (see " (%s
               free)") or nothing. */
            _("File sets in %1$s%2$s, the Benchmark tab's target; all removed at the end"), where,
            free_text);
    if (zero)
        return g_strdup_printf(
            /* TRANSLATORS: the Lab tab's note; %1$s is a folder, %2$s its free space (see " (%s
               free)") or nothing. */
            _("Test file in %1$s%2$s, the Benchmark tab's target; all-zero data"), where,
            free_text);
    return g_strdup_printf(
        /* TRANSLATORS: the Lab tab's note; %1$s is a folder, %2$s its free space (see " (%s free)")
           or nothing. */
        _("Test file in %1$s%2$s, the Benchmark tab's target; random data"), where, free_text);
}

void _dmk_window_update_lab_note(DmkWindow *self)
{
    const char *dir = _dmk_window_target_path(self);
    char *where = dir ? g_filename_display_name(dir) : g_strdup("?");
    GFile *file = dir ? g_file_new_for_path(dir) : NULL;
    GFileInfo *info =
        file ? g_file_query_filesystem_info(file, G_FILE_ATTRIBUTE_FILESYSTEM_FREE, NULL, NULL)
             : NULL;
    char free_text[128] = "";
    if (info && g_file_info_has_attribute(info, G_FILE_ATTRIBUTE_FILESYSTEM_FREE)) {
        char size[32];
        guint64 free = g_file_info_get_attribute_uint64(info, G_FILE_ATTRIBUTE_FILESYSTEM_FREE);
        /* Whole GiB (MiB below one): the last digits change all the time. */
        guint64 shown = free >= 1ULL << 30 ? free >> 30 << 30 : free >> 20 << 20;
        /* TRANSLATORS: after a folder in the Lab tab's note; %s is a size (12 GiB). */
        g_snprintf(free_text, sizeof free_text, _(" (%s free)"),
                   dmk_format_size(shown, size, sizeof size));
    }
    char *data = g_settings_get_string(self->settings, "data");
    gboolean zero = strcmp(data, "zero") == 0;
    /* A raw device has no free space and no test file: its data is lost. */
    char *note =
        _dmk_window_target_is_device(self)
            ? device_note(where, _dmk_window_target_usage(self), _dmk_window_lab_writes(self), zero)
            : folder_note(where, free_text, lab_has_own_files(self), zero);
    dmk_lab_page_set_note(self->lab_page, note);
    dmk_lab_page_set_device(self->lab_page, _dmk_window_target_is_device(self));
    g_free(note);
    g_free(data);
    g_clear_object(&info);
    g_clear_object(&file);
    g_free(where);
}

static void on_page(GtkNotebook *nb, GParamSpec *pspec, DmkWindow *self)
{
    (void)nb;
    (void)pspec;
    GtkWidget *page = current_page(self);
    if (page == GTK_WIDGET(self->lab_page))
        make_roomy(self, LAB_WIDTH, LAB_HEIGHT);
    else if (page == GTK_WIDGET(self->compare_view))
        make_roomy(self, COMPARE_WIDTH, COMPARE_HEIGHT);
    if (page == GTK_WIDGET(self->sweep_page))
        update_sweep_note(self);
    if (page == GTK_WIDGET(self->lab_page))
        _dmk_window_update_lab_note(self);
    _dmk_window_update_actions(self);
}

/* Start runs the page's own test; while one runs, its button is Stop. */
static void on_lab_run(DmkLabPage *page, DmkWindow *self)
{
    if (!self->worker)
        dmk_window_run_lab(self, FALSE);
    else if (_dmk_window_runs_on(self, GTK_WIDGET(page)))
        dmk_window_stop(self);
}

static void on_sweep_run(DmkSweepPage *page, DmkWindow *self)
{
    if (!self->worker)
        _dmk_window_start_sweep(self, FALSE);
    else if (_dmk_window_runs_on(self, GTK_WIDGET(page)))
        dmk_window_stop(self);
}

static void append_fixed(DmkWindow *self, GtkWidget *page, const char *title)
{
    set_page_margins(page);
    gtk_notebook_append_page(self->notebook, page, gtk_label_new(title));
    g_object_set_data_full(G_OBJECT(page), TITLE_KEY, g_strdup(title), g_free);
}

/* ---- result tabs ------------------------------------------------------------ */

/* The result a closable tab shows, NULL for the fixed tabs. */
static DmkSaved *page_saved(GtkWidget *page)
{
    if (page && DMK_IS_RESULT_VIEW(page))
        return dmk_result_view_get_saved(DMK_RESULT_VIEW(page));
    if (page && DMK_IS_LAB_VIEW(page))
        return dmk_lab_view_get_saved(DMK_LAB_VIEW(page));
    return NULL;
}

/* A tab's title: the file's name, else "Run 14:05" or, for a lab result,
 * "Sustained write 14:05" (kept on the page while it is shown). */
static const char *saved_title(GtkWidget *page, DmkSaved *saved)
{
    const DmkRunResult *r = dmk_saved_get_result(saved);
    if (dmk_saved_get_path(saved) || !r->lab[0])
        return dmk_saved_get_title(saved);
    char *title = dmk_lab_result_title(r);
    g_object_set_data_full(G_OBJECT(page), "dmk-lab-title", title, g_free);
    return title;
}

static void sync_compare(DmkWindow *self)
{
    gtk_widget_set_visible(GTK_WIDGET(self->compare_view),
                           dmk_compare_view_count(self->compare_view) > 0);
}

DmkSaved *_dmk_window_page_saved(GtkWidget *page)
{
    return page_saved(page);
}

void _dmk_window_close_tab(DmkWindow *self, GtkWidget *page)
{
    int n = gtk_notebook_page_num(self->notebook, page);
    if (n < 0 || !page_saved(page))
        return;
    dmk_compare_view_remove(self->compare_view, page_saved(page));
    gtk_notebook_remove_page(self->notebook, n);
    sync_compare(self);
    _dmk_window_update_actions(self);
}

GtkWidget *_dmk_window_current_result_page(DmkWindow *self)
{
    GtkWidget *page = current_page(self);
    return page_saved(page) ? page : NULL;
}

GPtrArray *_dmk_window_unsaved_pages(DmkWindow *self)
{
    GPtrArray *pages = g_ptr_array_new();
    for (int i = 0; i < gtk_notebook_get_n_pages(self->notebook); i++) {
        GtkWidget *page = gtk_notebook_get_nth_page(self->notebook, i);
        if (page_saved(page) && dmk_saved_is_unsaved(page_saved(page)))
            g_ptr_array_add(pages, page);
    }
    return pages;
}

static void on_close_clicked(GtkButton *b, DmkWindow *self)
{
    _dmk_window_close_tab_asking(self, g_object_get_data(G_OBJECT(b), "dmk-page"));
}

static void set_tab_title(GtkWidget *page, GtkWidget *label, DmkSaved *saved)
{
    const char *path = dmk_saved_get_path(saved);
    char *where = path ? g_filename_display_name(path) : g_strdup(_("Not saved yet"));
    char *who = dmk_text_result_label(dmk_saved_get_result(saved));
    char *tip = g_strdup_printf("%s\n%s", who, where);
    char *valid = g_utf8_make_valid(tip, -1);
    const char *title = saved_title(page, saved);
    gtk_label_set_text(GTK_LABEL(label), title);
    /* A scrolling tab bar gives tabs their least width: let that be the
     * whole title, up to 24 characters. */
    gtk_label_set_width_chars(GTK_LABEL(label), (int)MIN(g_utf8_strlen(title, -1), 24));
    gtk_widget_set_tooltip_text(label, valid);
    g_free(where);
    g_free(who);
    g_free(tip);
    g_free(valid);
}

static GtkWidget *tab_label(DmkWindow *self, GtkWidget *page, DmkSaved *saved)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2);
    GtkWidget *label = gtk_label_new("");
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_MIDDLE);
    gtk_label_set_max_width_chars(GTK_LABEL(label), 24);
    set_tab_title(page, label, saved);
    g_object_set_data(G_OBJECT(page), TITLE_KEY, label);
    GtkWidget *close = gtk_button_new_from_icon_name("window-close-symbolic");
    gtk_button_set_has_frame(GTK_BUTTON(close), FALSE);
    gtk_widget_add_css_class(close, "tab-close");
    gtk_widget_set_tooltip_text(close, _("Close this result"));
    gtk_accessible_update_property(GTK_ACCESSIBLE(close), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Close this result"), -1);
    g_object_set_data(G_OBJECT(close), "dmk-page", page);
    g_signal_connect(close, "clicked", G_CALLBACK(on_close_clicked), self);
    gtk_box_append(GTK_BOX(box), label);
    gtk_box_append(GTK_BOX(box), close);
    return box;
}

/* A window never sized by its user follows its natural size, which a
 * new tab's chart and table make bigger: it keeps the size it has. */
static void keep_size(DmkWindow *self)
{
    int dw = 0, dh = 0;
    gtk_window_get_default_size(GTK_WINDOW(self), &dw, &dh);
    int w = gtk_widget_get_width(GTK_WIDGET(self)), h = gtk_widget_get_height(GTK_WIDGET(self));
    if (gtk_widget_get_mapped(GTK_WIDGET(self)) && w > 0 && h > 0 && (dw <= 0 || dh <= 0))
        gtk_window_set_default_size(GTK_WINDOW(self), w, h);
}

/* Once the window has its first size, it is the window's (its default
 * size): a result tab's natural size no longer moves it. */
static gboolean pin_size(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
    (void)clock;
    (void)data;
    if (gtk_widget_get_width(widget) <= 0)
        return G_SOURCE_CONTINUE;
    keep_size(DMK_WINDOW(widget));
    return G_SOURCE_REMOVE;
}

void _dmk_window_keep_size(DmkWindow *self)
{
    gtk_widget_add_tick_callback(GTK_WIDGET(self), pin_size, NULL, NULL);
}

void _dmk_window_add_result(DmkWindow *self, DmkSaved *saved, gboolean show)
{
    keep_size(self);
    /* A lab result is samples and steps, not tiles: its charts and report,
     * and no place in the compare tab's bars. */
    gboolean lab = dmk_saved_get_result(saved)->lab[0] != '\0';
    GtkWidget *view =
        lab ? dmk_lab_view_new(saved, TRUE) : dmk_result_view_new(saved, _dmk_window_unit(self));
    set_page_margins(view);
    int n = gtk_notebook_append_page(self->notebook, view, tab_label(self, view, saved));
    gtk_notebook_set_tab_reorderable(self->notebook, view, TRUE);
    if (!lab)
        dmk_compare_view_add(self->compare_view, saved, TRUE);
    sync_compare(self);
    if (show)
        gtk_notebook_set_current_page(self->notebook, n);
    _dmk_window_update_actions(self);
}

static GtkWidget *find_tab(DmkWindow *self, DmkSaved *saved, const char *path)
{
    for (int i = 0; i < gtk_notebook_get_n_pages(self->notebook); i++) {
        GtkWidget *page = gtk_notebook_get_nth_page(self->notebook, i);
        DmkSaved *s = page_saved(page);
        if (!s)
            continue;
        const char *p = dmk_saved_get_path(s);
        if (s == saved || (path && p && strcmp(p, path) == 0))
            return page;
    }
    return NULL;
}

void _dmk_window_saved_renamed(DmkWindow *self, DmkSaved *saved)
{
    GtkWidget *page = find_tab(self, saved, NULL);
    if (page)
        set_tab_title(page, g_object_get_data(G_OBJECT(page), TITLE_KEY), saved);
    if (page && DMK_IS_RESULT_VIEW(page))
        dmk_result_view_update_comment(DMK_RESULT_VIEW(page));
    dmk_compare_view_refresh(self->compare_view);
}

DmkSaved *_dmk_window_current_saved(DmkWindow *self)
{
    GtkWidget *page = current_page(self);
    DmkLabView *lab = dmk_lab_page_get_view(self->lab_page);
    if (page_saved(page))
        return page_saved(page);
    if (page && page == GTK_WIDGET(self->lab_page))
        return lab ? dmk_lab_view_get_saved(lab) : NULL;
    return page == self->benchmark_page ? self->last_run : NULL;
}

gboolean _dmk_window_current_has_chart(DmkWindow *self)
{
    /* A result tab always has one, made in a turn of its own after the
     * tab is added (dmk_result_view_new): asking for it here would make
     * it at once, in the run's end, the longest turn the window has. */
    GtkWidget *page = current_page(self);
    return (page && DMK_IS_RESULT_VIEW(page)) || _dmk_window_current_chart(self) != NULL;
}

GtkWidget *_dmk_window_current_chart(DmkWindow *self)
{
    GtkWidget *page = current_page(self);
    if (page && DMK_IS_RESULT_VIEW(page))
        return dmk_result_view_get_chart(DMK_RESULT_VIEW(page));
    if (page && page == GTK_WIDGET(self->compare_view))
        return dmk_compare_view_get_chart(self->compare_view);
    if (page && page == GTK_WIDGET(self->sweep_page))
        return dmk_sweep_page_get_chart(self->sweep_page);
    if (page && DMK_IS_LAB_VIEW(page))
        return page;
    if (page && page == GTK_WIDGET(self->lab_page) && !_dmk_window_runs_on(self, page))
        return (GtkWidget *)dmk_lab_page_get_view(self->lab_page);
    return NULL;
}

void _dmk_window_set_units(DmkWindow *self, DmkUnit unit)
{
    for (int i = 0; self->notebook && i < gtk_notebook_get_n_pages(self->notebook); i++) {
        GtkWidget *page = gtk_notebook_get_nth_page(self->notebook, i);
        if (DMK_IS_RESULT_VIEW(page))
            dmk_result_view_set_unit(DMK_RESULT_VIEW(page), unit);
    }
}

/* ---- opening files ---------------------------------------------------------- */

/* One file: a tab (the one it already has, if open), or its error. */
static GtkWidget *open_one(DmkWindow *self, GFile *file, GString *errors)
{
    char *path = g_file_get_path(file);
    GError *error = NULL;
    GtkWidget *page = path ? find_tab(self, NULL, path) : NULL;
    GPtrArray *runs = page || !path ? NULL : dmk_saved_load(path, &error);
    if (!path) {
        char *uri = g_file_get_uri(file);
        if (errors->len)
            g_string_append_c(errors, '\n');
        /* TRANSLATORS: %s is the address (URI) of a file dropped or opened. */
        g_string_append_printf(errors, _("%s is not a local file"), uri);
        g_free(uri);
    } else if (!page && !runs) {
        g_string_append_printf(errors, "%s%s", errors->len ? "\n" : "", error->message);
        g_error_free(error);
    } else if (runs) {
        /* a tab per run: one, or each of result files joined with cat */
        for (guint i = 0; i < runs->len; i++) {
            _dmk_window_add_result(self, g_ptr_array_index(runs, i), FALSE);
            page = find_tab(self, g_ptr_array_index(runs, i), NULL);
        }
        g_ptr_array_unref(runs);
    }
    if (page)
        _dmk_window_add_recent(self, path);
    g_free(path);
    return page;
}

static void report_open(DmkWindow *self, size_t opened, int failed, const char *errors)
{
    if (failed > 0) {
        char *heading =
            failed == 1 ? g_strdup(_("The result file could not be opened"))
                        : g_strdup_printf(g_dngettext(NULL, "%d result file could not be opened",
                                                      "%d result files could not be opened",
                                                      (gulong)failed),
                                          failed);
        _dmk_window_show_problem_of(self, DMK_PROBLEM_FILE, heading, errors);
        g_free(heading);
    } else if (opened > 0) {
        _dmk_window_clear_problem(self, DMK_PROBLEM_FILE);
    }
    if (opened > 0) {
        char *status = g_strdup_printf(
            g_dngettext(NULL, "Opened %zu result file", "Opened %zu result files", (gulong)opened),
            opened);
        _dmk_window_set_status(self, status);
        g_free(status);
    }
}

int _dmk_window_open_files(DmkWindow *self, GFile *const *files, size_t n)
{
    GString *errors = g_string_new(NULL);
    GtkWidget *last = NULL;
    size_t opened = 0;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        GtkWidget *page = open_one(self, files[i], errors);
        failed += page == NULL;
        opened += page != NULL;
        last = page ? page : last;
    }
    if (last)
        gtk_notebook_set_current_page(self->notebook, gtk_notebook_page_num(self->notebook, last));
    report_open(self, opened, failed, errors->str);
    g_string_free(errors, TRUE);
    return failed;
}

/* A GdkFileList (a file manager's drag) or a single GFile. */
gboolean dmk_window_drop(DmkWindow *self, const GValue *value)
{
    GSList *list = NULL;
    if (G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST) && g_value_get_boxed(value))
        list = gdk_file_list_get_files(g_value_get_boxed(value)); /* ours to free */
    else if (G_VALUE_HOLDS(value, G_TYPE_FILE) && g_value_get_object(value))
        list = g_slist_prepend(NULL, g_value_get_object(value));
    guint n = g_slist_length(list);
    GFile **files = g_new0(GFile *, n + 1);
    guint i = 0;
    for (GSList *l = list; l; l = l->next)
        files[i++] = l->data;
    if (n > 0)
        _dmk_window_open_files(self, files, n);
    g_free(files);
    g_slist_free(list);
    return n > 0;
}

static gboolean on_drop(GtkDropTarget *target, const GValue *value, double x, double y,
                        gpointer self)
{
    (void)target;
    (void)x;
    (void)y;
    return dmk_window_drop(self, value);
}

static void add_drop_target(DmkWindow *self)
{
    GtkDropTarget *t = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
    GType types[] = {GDK_TYPE_FILE_LIST, G_TYPE_FILE};
    gtk_drop_target_set_gtypes(t, types, G_N_ELEMENTS(types));
    g_signal_connect(t, "drop", G_CALLBACK(on_drop), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(t));
}

void _dmk_window_build_tabs(DmkWindow *self)
{
    g_object_set_data_full(G_OBJECT(self->benchmark_page), TITLE_KEY, g_strdup(_("Benchmark")),
                           g_free);
    self->sweep_page = DMK_SWEEP_PAGE(dmk_sweep_page_new());
    /* TRANSLATORS: the title of a tab of the window. */
    append_fixed(self, GTK_WIDGET(self->sweep_page), C_("tab", "Sweep"));
    g_signal_connect(self->sweep_page, "run", G_CALLBACK(on_sweep_run), self);
    self->lab_page = DMK_LAB_PAGE(dmk_lab_page_new());
    /* TRANSLATORS: the title of a tab of the window (the laboratory). */
    append_fixed(self, GTK_WIDGET(self->lab_page), C_("tab", "Lab"));
    g_signal_connect(self->lab_page, "run", G_CALLBACK(on_lab_run), self);
    self->compare_view = DMK_COMPARE_VIEW(dmk_compare_view_new());
    /* TRANSLATORS: the title of a tab of the window: results side by side. */
    append_fixed(self, GTK_WIDGET(self->compare_view), C_("tab", "Compare"));
    gtk_widget_set_visible(GTK_WIDGET(self->compare_view), FALSE);
    g_signal_connect(self->notebook, "notify::page", G_CALLBACK(on_page), self);
    add_drop_target(self);
}

/* ---- recent files ------------------------------------------------------------ */

/* "A.csv — /data/results": the folder tells files of one name apart.
 * Underscores are not mnemonics here. */
static char *menu_label(const char *path)
{
    char *name = g_filename_display_basename(path);
    char *dir = g_path_get_dirname(path);
    char *dir_name = g_filename_display_name(dir);
    char *text = g_strdup_printf("%s \u2014 %s", name, dir_name);
    char **parts = g_strsplit(text, "_", -1);
    char *label = g_strjoinv("__", parts);
    g_strfreev(parts);
    g_free(text);
    g_free(dir_name);
    g_free(dir);
    g_free(name);
    return label;
}

static void rebuild_recent_menu(DmkWindow *self)
{
    if (!self->recent_menu)
        return;
    g_menu_remove_all(self->recent_menu);
    char **paths = g_settings_get_strv(self->recent, RECENT_KEY);
    for (int i = 0; paths[i] && i < RECENT_MAX; i++) {
        char *label = menu_label(paths[i]);
        GMenuItem *item = g_menu_item_new(label, NULL);
        g_menu_item_set_action_and_target_value(item, "win.open-recent",
                                                g_variant_new_string(paths[i]));
        g_menu_append_item(self->recent_menu, item);
        g_object_unref(item);
        g_free(label);
    }
    if (!paths[0])
        g_menu_append(self->recent_menu, _("No recent results"), "win.no-recent");
    g_strfreev(paths);
}

static void on_recent_changed(GSettings *s, const char *key, DmkWindow *self)
{
    (void)s;
    (void)key;
    rebuild_recent_menu(self);
}

void _dmk_window_load_recent(DmkWindow *self)
{
    GSettingsSchema *schema = NULL;
    /* The program's store itself: self->settings may be in delay-apply
     * mode (options from the command line are never saved), and its
     * backend then keeps every change in memory; the recent list is saved. */
    GSettingsBackend *backend = dmk_app_settings_store();
    g_object_get(self->settings, "settings-schema", &schema, NULL);
    self->recent = g_settings_new_full(schema, backend, NULL);
    g_settings_schema_unref(schema);
    g_clear_object(&backend);
    g_signal_connect(self->recent, "changed::" RECENT_KEY, G_CALLBACK(on_recent_changed), self);
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    GMenu *menu = app ? gtk_application_get_menu_by_id(app, "recent-menu") : NULL;
    self->recent_menu = menu ? g_object_ref(menu) : NULL;
    rebuild_recent_menu(self);
}

/* Newest first, each once; GSettings holds UTF-8 only, so a path that is
 * not stays out of the list. */
void _dmk_window_add_recent(DmkWindow *self, const char *path)
{
    GFile *file = g_file_new_for_path(path);
    char *abs = g_file_get_path(file);
    g_object_unref(file);
    if (!self->recent || !abs || !g_utf8_validate(abs, -1, NULL)) {
        g_free(abs);
        return;
    }
    char **old = g_settings_get_strv(self->recent, RECENT_KEY);
    GPtrArray *list = g_ptr_array_new();
    g_ptr_array_add(list, abs);
    for (int i = 0; old[i] && list->len < RECENT_MAX; i++)
        if (strcmp(old[i], abs) != 0)
            g_ptr_array_add(list, old[i]);
    g_ptr_array_add(list, NULL);
    g_settings_set_strv(self->recent, RECENT_KEY, (const char *const *)list->pdata);
    g_ptr_array_unref(list);
    g_strfreev(old);
    g_free(abs);
}

void _dmk_window_forget_recent(DmkWindow *self, const char *path)
{
    char **old = g_settings_get_strv(self->recent, RECENT_KEY);
    GPtrArray *list = g_ptr_array_new();
    for (int i = 0; old[i]; i++)
        if (!path || strcmp(old[i], path) != 0)
            g_ptr_array_add(list, old[i]);
    g_ptr_array_add(list, NULL);
    g_settings_set_strv(self->recent, RECENT_KEY, (const char *const *)list->pdata);
    g_ptr_array_unref(list);
    g_strfreev(old);
}

/* ---- for tests ------------------------------------------------------------------ */

static const char *page_title(DmkWindow *self, GtkWidget *page)
{
    (void)self;
    gpointer data = g_object_get_data(G_OBJECT(page), TITLE_KEY);
    if (page_saved(page))
        return saved_title(page, page_saved(page));
    return data ? data : "";
}

const char *_dmk_window_page_title(DmkWindow *self, GtkWidget *page)
{
    return page_title(self, page);
}

void _dmk_window_dump_tabs(DmkWindow *self, GString *s)
{
    GtkWidget *current = current_page(self);
    g_string_append_printf(s, "page\t%s\n", current ? page_title(self, current) : "");
    g_string_append_printf(
        s, "page-export-chart\t%s\n",
        g_action_group_get_action_enabled(G_ACTION_GROUP(self), "export-chart") ? "on" : "off");
    for (int i = 0, tab = 0; i < gtk_notebook_get_n_pages(self->notebook); i++) {
        GtkWidget *page = gtk_notebook_get_nth_page(self->notebook, i);
        if (!page_saved(page))
            continue;
        const DmkRunResult *r = dmk_saved_get_result(page_saved(page));
        g_string_append_printf(s, "tab\t%d\t%s\t%s\t%zu\t%s\n", ++tab, page_title(self, page),
                               r->sweep[0] ? r->sweep
                               : r->lab[0] ? r->lab
                                           : r->profile,
                               r->n_tests, r->complete ? "complete" : "incomplete");
        if (dmk_saved_is_unsaved(page_saved(page)))
            g_string_append_printf(s, "tab-unsaved\t%d\n", tab);
        if (DMK_IS_LAB_VIEW(page))
            dmk_lab_view_dump(DMK_LAB_VIEW(page), "tab-lab", tab, s);
        else
            dmk_result_view_dump(DMK_RESULT_VIEW(page), tab, s);
    }
    if (current == GTK_WIDGET(self->lab_page) ||
        _dmk_window_runs_on(self, GTK_WIDGET(self->lab_page)) ||
        dmk_lab_page_get_view(self->lab_page))
        dmk_lab_page_dump(self->lab_page, s);
    if (gtk_widget_get_visible(GTK_WIDGET(self->compare_view)))
        dmk_compare_view_dump(self->compare_view, s);
    char **paths = self->recent ? g_settings_get_strv(self->recent, RECENT_KEY) : NULL;
    for (int i = 0; paths && paths[i]; i++)
        g_string_append_printf(s, "recent\t%s\n", paths[i]);
    g_strfreev(paths);
}

/* ---- the Lab tab ------------------------------------------------------------ */

void dmk_window_show_lab(DmkWindow *self, DmkLabKind kind)
{
    if (kind != DMK_LAB_NONE && !self->worker)
        dmk_lab_page_set_kind(self->lab_page, kind);
    int n = gtk_notebook_page_num(self->notebook, GTK_WIDGET(self->lab_page));
    gtk_notebook_set_current_page(self->notebook, n);
}
