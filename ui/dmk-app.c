/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GtkApplication: one window, the settings, app.quit and app.about,
 * accelerators and the style sheet. Its command line is dmk-app-options.c,
 * its scripted runs dmk-app-script.c. */
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "dmk-app-private.h"
#include "dmk-resources.h"
#include "dmk-shortcuts.h"
#include "dmk-stall-probe.h"
#include "dmk-version.h"

G_DEFINE_FINAL_TYPE(DmkApp, dmk_app, GTK_TYPE_APPLICATION)

/* ---- settings --------------------------------------------------------- */

/* The installed schema, or one in GSETTINGS_SCHEMA_DIR: the tests, `meson
 * devenv` and ./setup.sh run point it at the build dir's compiled schema.
 * The program carries no build path of its own, so that an installed binary
 * is the same wherever it was built (reproducible builds). */
/* Where the settings are kept: GSettings' default (dconf on Linux, the
 * registry under HKCU\Software\GSettings on Windows), except for the
 * portable copy of the Windows zip, which keeps them in drivemark.ini
 * beside drivemark.exe (the zip ships it empty): a USB stick carries its
 * settings and leaves none behind. GSETTINGS_BACKEND (the tests' memory
 * backend) wins over both. NULL: the default. */
static GSettingsBackend *open_store(void)
{
#ifdef G_OS_WIN32
    if (g_getenv("GSETTINGS_BACKEND"))
        return NULL;
    char *dir = g_win32_get_package_installation_directory_of_module(NULL);
    char *ini = dir ? g_build_filename(dir, DMK_PORTABLE_SETTINGS, NULL) : NULL;
    GSettingsBackend *backend =
        ini && g_file_test(ini, G_FILE_TEST_IS_REGULAR)
            ? g_keyfile_settings_backend_new(ini, "/io/github/drivemark/drivemark/", "drivemark")
            : NULL;
    g_free(ini);
    g_free(dir);
    return backend;
#else
    return NULL;
#endif
}

/* One store for the whole process: two keyfile backends on one file would
 * each write back their own copy of it, and the last one would win. Main
 * thread only. */
GSettingsBackend *dmk_app_settings_store(void)
{
    static GSettingsBackend *store;
    static gboolean opened;
    if (!opened) {
        store = open_store();
        opened = TRUE;
    }
    return store ? g_object_ref(store) : NULL;
}

static GSettings *settings_new(void)
{
    GSettingsSchemaSource *src = g_settings_schema_source_get_default();
    GSettingsSchema *schema = src ? g_settings_schema_source_lookup(src, DMK_APP_ID, TRUE) : NULL;
    if (!schema)
        return NULL;
    GSettingsBackend *backend = dmk_app_settings_store();
    GSettings *settings = g_settings_new_full(schema, backend, NULL);
    g_clear_object(&backend);
    g_settings_schema_unref(schema);
    return settings;
}

/* Settings from the command line are shown and used, never saved: the
 * settings object stays in delay-apply mode for the whole session. */
static void apply_to_settings(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    const DmkRunRequest *r = &o->req;
    GSettings *s = self->settings;
    /* The options the window shows (a target picked is remembered too);
     * the times are overrides, not settings (dmk_window_set_overrides). */
    const unsigned shown = DMK_REQ_BIT(DMK_REQ_SIZE) | DMK_REQ_BIT(DMK_REQ_PASSES) |
                           DMK_REQ_BIT(DMK_REQ_PROFILE) | DMK_REQ_BIT(DMK_REQ_MODE) |
                           DMK_REQ_BIT(DMK_REQ_MIX) | DMK_REQ_BIT(DMK_REQ_VERIFY) |
                           DMK_REQ_BIT(DMK_REQ_TARGET);
    if (!((r->given & shown) || o->unit || o->lab))
        return;
    g_settings_delay(s);
    if (r->given & DMK_REQ_BIT(DMK_REQ_SIZE))
        g_settings_set_uint64(s, "test-size", r->size);
    if (r->given & DMK_REQ_BIT(DMK_REQ_PASSES))
        g_settings_set_int(s, "passes", (int)r->passes);
    if (r->given & DMK_REQ_BIT(DMK_REQ_PROFILE)) {
        g_settings_set_string(s, "profile", r->profile);
        g_settings_set_boolean(s, "mix", r->mix);
    } else if (r->mix) {
        g_settings_set_boolean(s, "mix", TRUE);
    }
    if (r->given & DMK_REQ_BIT(DMK_REQ_MODE))
        g_settings_set_string(s, "mode", dmk_run_mode_name(r->mode));
    if (o->unit)
        g_settings_set_string(s, "unit", o->unit);
    if (o->lab)
        g_settings_set_string(s, "lab-test", o->lab);
    if (r->verify)
        g_settings_set_boolean(s, "verify", TRUE);
}

static int dmk_app_handle_local_options(GApplication *app, GVariantDict *d)
{
    DmkApp *self = DMK_APP(app);
    DmkError err = {0};
    if (g_variant_dict_contains(d, "version")) {
        printf("drivemark %s\n", DMK_VERSION);
        return 0;
    }
    if (_dmk_app_options_parse(&self->opt, d, &err) != DMK_OK) {
        g_printerr("drivemark: %s\nTry 'drivemark --help'.\n", err.msg);
        return DMK_EXIT_USAGE;
    }
    if (_dmk_app_options_probe(&self->opt, &err) != DMK_OK) {
        g_printerr("drivemark: %s\n", err.msg);
        return DMK_EXIT_FAILED;
    }
    self->settings = settings_new();
    if (!self->settings) {
        g_printerr("drivemark: the settings schema %s is not installed (run 'meson install', or "
                   "point GSETTINGS_SCHEMA_DIR at a folder where it is compiled, as "
                   "'meson devenv -C build drivemark' does for a build dir)\n",
                   DMK_APP_ID);
        return DMK_EXIT_FAILED;
    }
    apply_to_settings(self);
    if (self->opt.null_clock_simulated) {
        dmk_clock_simulate();   /* before any run thread */
        dmk_clock_thread_end(); /* the main loop takes no part: each run's thread does */
    }
    /* With options, this process does the work itself instead of passing
     * an activation on to a running instance, which would drop them. */
    if (_dmk_app_options_any(d))
        g_application_set_flags(app, g_application_get_flags(app) | G_APPLICATION_NON_UNIQUE);
    return -1;
}

/* ---- application ---------------------------------------------------------- */

static double given_or(const DmkRunRequest *r, DmkRequestOptionId id, double v, double none)
{
    return (r->given & DMK_REQ_BIT(id)) ? v : none;
}

static void dmk_app_activate(GApplication *app)
{
    DmkApp *self = DMK_APP(app);
    const DmkAppOptions *o = &self->opt;
    if (self->window) {
        gtk_window_present(GTK_WINDOW(self->window));
        return;
    }
    self->window = dmk_window_new(GTK_APPLICATION(app), self->settings);
    g_object_add_weak_pointer(G_OBJECT(self->window), (gpointer *)&self->window);
    if (o->window_w > 0)
        gtk_window_set_default_size(GTK_WINDOW(self->window), o->window_w, o->window_h);
    dmk_stall_probe_start(GTK_WIDGET(self->window)); /* with $DMK_STALL_PROBE only */
    /* The times given override the settings' (-1, 0: not given); with
     * --fault-hang the run is the fault backend's, the hang its option. */
    const DmkRunRequest *r = &o->req;
    DmkRunOverrides ov = {o->fault_hang                             ? "fault"
                          : r->given & DMK_REQ_BIT(DMK_REQ_BACKEND) ? r->backend
                                                                    : NULL,
                          given_or(r, DMK_REQ_MEASURE, r->measure_s, -1),
                          given_or(r, DMK_REQ_WARMUP, r->warmup_s, -1),
                          given_or(r, DMK_REQ_INTERVAL, r->interval_s, -1),
                          given_or(r, DMK_REQ_WATCHDOG, r->watchdog_s, 0),
                          r->backend_opts};
    dmk_window_set_overrides(self->window, &ov);
    if (r->given & DMK_REQ_BIT(DMK_REQ_TARGET))
        dmk_window_set_target(self->window, r->target);
    if (o->confirm_device)
        dmk_window_set_device_answer(self->window, o->confirm_device);
    dmk_window_set_udisks_always(self->window, o->udisks_always);
    if (o->comment)
        dmk_window_set_comment(self->window, o->comment);
    if (o->lab_set)
        dmk_window_set_lab_overrides(self->window, &o->lab_o);
    _dmk_app_script_before_show(self);
    gtk_window_present(GTK_WINDOW(self->window));
    dmk_window_focus_run_button(self->window);
    _dmk_app_script_after_show(self);
}

/* Files given as arguments or by a file manager (`drivemark a.csv`, the
 * desktop file's %F): a tab each, in the window there is. A second
 * `drivemark b.csv` hands them to the running instance, which opens them
 * here; with options, this process opens them itself (NON_UNIQUE). */
static void dmk_app_open(GApplication *app, GFile **files, int n, const char *hint)
{
    DmkApp *self = DMK_APP(app);
    (void)hint;
    if (self->window) {
        dmk_window_open_files(self->window, files, (size_t)n);
        gtk_window_present(GTK_WINDOW(self->window));
        return;
    }
    /* The window opens them before it is shown, as --open's, so that a
     * scripted run knows of a bad one (its exit status). */
    self->opt.files = g_new0(GFile *, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        self->opt.files[i] = g_object_ref(files[i]);
    self->opt.n_files = (size_t)n;
    dmk_app_activate(app);
}

/* Tests: what the window shows as Quit begins, to a file, for a window
 * the test cannot read otherwise (the running instance that a second
 * `drivemark FILE` handed its file to). */
static void dump_for_test(DmkApp *self)
{
    const char *path = g_getenv("DMK_TEST_DUMP_AT_QUIT");
    if (!path || !self->window)
        return;
    char *dump = dmk_window_dump(self->window);
    GError *error = NULL;
    if (!g_file_set_contents(path, dump, -1, &error)) {
        g_printerr("drivemark: %s\n", error->message);
        g_error_free(error);
    }
    g_free(dump);
}

/* Closing the windows, not quitting the main loop: a window with a run
 * asks, stops it and waits for the worker before it goes; one with
 * results never saved asks (dmk-window-actions.c). */
static void act_quit(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a;
    (void)p;
    dump_for_test(DMK_APP(app));
    GList *windows = g_list_copy(gtk_application_get_windows(GTK_APPLICATION(app)));
    for (GList *l = windows; l; l = l->next)
        gtk_window_close(GTK_WINDOW(l->data));
    g_list_free(windows);
}

/* The installed README (meson's docdir): Help > Documentation. */
char *dmk_app_docs_uri(void)
{
    char *path = g_build_filename(DMK_DOCDIR, "README.md", NULL);
    char *uri = g_filename_to_uri(path, NULL, NULL);
    g_free(path);
    return uri;
}

/* gtk_show_uri: GtkFileLauncher is 4.10. */
static void act_help(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a;
    (void)p;
    char *uri = dmk_app_docs_uri();
    gtk_show_uri(gtk_application_get_active_window(GTK_APPLICATION(app)), uri, GDK_CURRENT_TIME);
    g_free(uri);
}

static void act_about(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a;
    (void)p;
    const char *const authors[] = {_("The Drivemark developers"), NULL};
    gtk_show_about_dialog(gtk_application_get_active_window(GTK_APPLICATION(app)), "program-name",
                          "Drivemark", "version", DMK_VERSION, "logo-icon-name", DMK_APP_ID,
                          "comments",
                          /* TRANSLATORS: the About dialog; MB/s stays as it is. */
                          _("Measures the read and write speed of drives the way CrystalDiskMark "
                            "does.\nMB/s = 1,000,000 bytes per second."),
                          "license-type", GTK_LICENSE_GPL_3_0, "authors", authors, "website",
                          "https://github.com/drivemark/drivemark", NULL);
}

/* A broken rule would silently fall back to the theme: say so, loudly
 * enough that the UI tests (G_DEBUG=fatal-warnings) notice. */
static void on_css_error(GtkCssProvider *css, GtkCssSection *section, GError *error, gpointer data)
{
    (void)css;
    (void)data;
    char *where = gtk_css_section_to_string(section);
    g_warning("style.css: %s: %s", where, error->message);
    g_free(where);
}

static void load_css(void)
{
    GtkCssProvider *css = gtk_css_provider_new();
    g_signal_connect(css, "parsing-error", G_CALLBACK(on_css_error), NULL);
    gtk_css_provider_load_from_resource(css, "/io/github/drivemark/drivemark/style.css");
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);
}

static void dmk_app_startup(GApplication *app)
{
    static const GActionEntry entries[] = {
        {"quit", act_quit, NULL, NULL, NULL, {0}},
        {"about", act_about, NULL, NULL, NULL, {0}},
        {"help", act_help, NULL, NULL, NULL, {0}},
    };
    G_APPLICATION_CLASS(dmk_app_parent_class)->startup(app);
    g_action_map_add_action_entries(G_ACTION_MAP(app), entries, G_N_ELEMENTS(entries), app);
    dmk_shortcuts_set_accels(GTK_APPLICATION(app));
    gtk_window_set_default_icon_name(DMK_APP_ID);
    load_css();
}

static void dmk_app_finalize(GObject *object)
{
    DmkApp *self = DMK_APP(object);
    g_clear_object(&self->settings);
    for (size_t i = 0; i < self->opt.n_files; i++)
        g_object_unref(self->opt.files[i]);
    g_free(self->opt.files);
    _dmk_app_options_clear(&self->opt);
    G_OBJECT_CLASS(dmk_app_parent_class)->finalize(object);
}

static void dmk_app_class_init(DmkAppClass *klass)
{
    GApplicationClass *ac = G_APPLICATION_CLASS(klass);
    /* Before any window class is made: the template lives there. */
    dmk_register_resource();
    G_OBJECT_CLASS(klass)->finalize = dmk_app_finalize;
    ac->handle_local_options = dmk_app_handle_local_options;
    ac->startup = dmk_app_startup;
    ac->activate = dmk_app_activate;
    ac->open = dmk_app_open;
}

static void dmk_app_init(DmkApp *self)
{
    /* The exit statuses are drivemark-cli's (core/dmk-request.h). */
    static char description[1024];
    char exits[512];
    g_snprintf(description, sizeof description,
               /* TRANSLATORS: drivemark --help; the options and units stay as they are. */
               _("Settings given here apply to this session only; what is chosen in the window is "
                 "remembered. --open, --compare and --export-chart make a chart from saved results "
                 "without a click.\nSizes are binary (64MiB, 1GiB); seconds may end in s, m or "
                 "h.\nExit status with --quit-when-done: %s"),
               dmk_exit_status_text(exits, sizeof exits));
    _dmk_app_options_init(&self->opt);
    _dmk_app_options_add(G_APPLICATION(self));
    g_application_set_option_context_summary(
        G_APPLICATION(self),
        _("Benchmarks the drive under a folder the way CrystalDiskMark does."));
    g_application_set_option_context_description(G_APPLICATION(self), description);
}

DmkApp *dmk_app_new(void)
{
    return g_object_new(DMK_TYPE_APP, "application-id", DMK_APP_ID, "flags",
                        G_APPLICATION_HANDLES_OPEN, NULL);
}

int dmk_app_get_exit_status(DmkApp *self)
{
    return self->exit_status;
}
