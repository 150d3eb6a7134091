/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's Settings and View menus: the Settings dialog and its
 * custom profile, Measure Time and Interval Time (showing the value in
 * force: a command-line override for this session, else the setting),
 * the theme (system, light, dark) and the zoom (100-300 %), the Keyboard
 * Shortcuts window (from dmk-shortcuts.c's table) and what the tests
 * read of them. */
#include "dmk-window-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "dmk-app.h"
#include "dmk-language.h"
#include "dmk-plot.h"
#include "dmk-settings-dialog.h"
#include "dmk-shortcuts.h"

/* ---- the custom profile ---------------------------------------------------- */

const DmkProfile *_dmk_window_custom_profile(DmkWindow *self)
{
    const DmkProfile *def = dmk_profile_find("default");
    char **names = g_settings_get_strv(self->settings, "custom-tests");
    guint n = g_strv_length(names);
    self->custom = (DmkProfile){"custom", "Custom", n ? MIN(n, DMK_ROWS_MAX) : def->n_tests, {0}};
    for (size_t i = 0; i < self->custom.n_tests; i++) {
        DmkJob job;
        const char *name = i < n ? names[i] : def->tests[i];
        if (dmk_job_parse_name(name, &job, NULL) != DMK_OK)
            dmk_job_parse_name(def->tests[i], &job, NULL);
        dmk_job_format_name(&job, self->custom_tests[i], sizeof self->custom_tests[i]);
        self->custom.tests[i] = self->custom_tests[i];
    }
    g_strfreev(names);
    return &self->custom;
}

/* ---- Measure Time and Interval Time ---------------------------------------- */

typedef struct {
    const char *key;     /* the setting, and the action's name */
    const char *menu_id; /* the section of menus.ui it fills */
    size_t (*choices)(const int **values);
    size_t override; /* offset of its DmkRunOverrides field */
} TimeMenu;

static const TimeMenu time_menus[] = {
    {"measure-time", "measure-menu", dmk_settings_measure_choices,
     G_STRUCT_OFFSET(DmkRunOverrides, measure_s)},
    {"interval-time", "interval-menu", dmk_settings_interval_choices,
     G_STRUCT_OFFSET(DmkRunOverrides, interval_s)},
};

static double *override_of(DmkWindow *self, const TimeMenu *m)
{
    return G_STRUCT_MEMBER_P(&self->overrides, m->override);
}

static double in_force(DmkWindow *self, const TimeMenu *m)
{
    double o = *override_of(self, m);
    return o >= 0 ? o : (double)g_settings_get_int(self->settings, m->key);
}

double _dmk_window_measure_s(DmkWindow *self)
{
    return in_force(self, &time_menus[0]);
}

double _dmk_window_interval_s(DmkWindow *self)
{
    return in_force(self, &time_menus[1]);
}

/* cli: the value given on the command line, not one of the menu's. */
static void append_time(GMenu *menu, const TimeMenu *m, double s, gboolean cli)
{
    /* TRANSLATORS: a Settings menu item: seconds given on the command line. */
    char *label = cli ? g_strdup_printf(_("%g s (command line)"), s) : g_strdup_printf("%g s", s);
    char *action = g_strconcat("win.", m->key, NULL);
    GMenuItem *item = g_menu_item_new(label, NULL);
    g_menu_item_set_action_and_target_value(item, action, g_variant_new_double(s));
    g_menu_append_item(menu, item);
    g_object_unref(item);
    g_free(action);
    g_free(label);
}

/* CrystalDiskMark's values, and the one in force when it is not one of
 * them (--measure 1): ticked, so the menu never shows another. */
static void refresh_time(DmkWindow *self, size_t i)
{
    const TimeMenu *m = &time_menus[i];
    double now = in_force(self, m);
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), m->key);
    if (a)
        g_simple_action_set_state(G_SIMPLE_ACTION(a), g_variant_new_double(now));
    GMenu *menu = self->time_menus[i];
    if (!menu)
        return;
    const int *values;
    size_t n = m->choices(&values);
    gboolean listed = FALSE;
    for (size_t j = 0; j < n; j++)
        listed = listed || values[j] == now;
    g_menu_remove_all(menu);
    if (!listed)
        append_time(menu, m, now, TRUE);
    for (size_t j = 0; j < n; j++)
        append_time(menu, m, values[j], FALSE);
}

static void refresh_times(DmkWindow *self)
{
    for (size_t i = 0; i < G_N_ELEMENTS(time_menus); i++)
        refresh_time(self, i);
}

/* A value picked in the menu is the setting from now on; picking the
 * command line's again keeps it. */
static void on_time_change(GSimpleAction *a, GVariant *value, gpointer data)
{
    DmkWindow *self = data;
    const TimeMenu *m = g_object_get_data(G_OBJECT(a), "dmk-time-menu");
    double s = g_variant_get_double(value);
    if (s != *override_of(self, m) && s == floor(s)) {
        *override_of(self, m) = -1;
        g_settings_set_int(self->settings, m->key, (int)s);
    }
    refresh_times(self);
}

static void on_time_setting(GSettings *settings, const char *key, DmkWindow *self)
{
    (void)settings;
    (void)key;
    refresh_times(self);
}

static void add_time_actions(DmkWindow *self, GtkApplication *app)
{
    for (size_t i = 0; i < G_N_ELEMENTS(time_menus); i++) {
        const TimeMenu *m = &time_menus[i];
        GSimpleAction *a = g_simple_action_new_stateful(m->key, G_VARIANT_TYPE_DOUBLE,
                                                        g_variant_new_double(in_force(self, m)));
        g_object_set_data(G_OBJECT(a), "dmk-time-menu", (gpointer)m);
        g_signal_connect(a, "change-state", G_CALLBACK(on_time_change), self);
        g_action_map_add_action(G_ACTION_MAP(self), G_ACTION(a));
        g_object_unref(a);
        char *signal = g_strconcat("changed::", m->key, NULL);
        g_signal_connect(self->settings, signal, G_CALLBACK(on_time_setting), self);
        g_free(signal);
        GMenu *menu = app ? gtk_application_get_menu_by_id(app, m->menu_id) : NULL;
        self->time_menus[i] = menu ? g_object_ref(menu) : NULL;
    }
    refresh_times(self);
}

/* dmk_window_set_overrides: the command line's times are in force. */
void _dmk_window_settings_overrides_changed(DmkWindow *self)
{
    if (self->settings)
        refresh_times(self);
}

/* ---- the Settings dialog ----------------------------------------------------- */

static void on_settings_applied(DmkSettingsDialog *d, DmkWindow *self)
{
    gboolean measure, interval;
    dmk_settings_dialog_times_changed(d, &measure, &interval);
    if (measure)
        self->overrides.measure_s = -1;
    if (interval)
        self->overrides.interval_s = -1;
    refresh_times(self);
    _dmk_window_resync(self); /* the tiles' tests, the profile shown, the Mix header */
    _dmk_window_set_status(self, _("Settings applied"));
}

static void on_settings_destroy(GtkWidget *w, DmkWindow *self)
{
    (void)w;
    self->settings_dialog = NULL;
}

GtkWidget *dmk_window_open_settings(DmkWindow *self)
{
    if (self->settings_dialog)
        return self->settings_dialog;
    DmkSettingsDialog *d =
        dmk_settings_dialog_new(GTK_WINDOW(self), self->settings, _dmk_window_profile(self),
                                _dmk_window_measure_s(self), _dmk_window_interval_s(self));
    self->settings_dialog = GTK_WIDGET(d);
    g_signal_connect(d, "applied", G_CALLBACK(on_settings_applied), self);
    g_signal_connect(d, "destroy", G_CALLBACK(on_settings_destroy), self);
    gtk_window_present(GTK_WINDOW(d));
    return self->settings_dialog;
}

static void act_settings(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    if (!dmk_window_is_running(self)) /* the settings describe the run under way */
        dmk_window_open_settings(self);
}

/* ---- theme --------------------------------------------------------------------- */

static gboolean wants_dark(DmkWindow *self)
{
    char *theme = g_settings_get_string(self->settings, "theme");
    gboolean dark = strcmp(theme, "dark") == 0    ? TRUE
                    : strcmp(theme, "light") == 0 ? FALSE
                    : self->portal_scheme == 1    ? TRUE  /* prefer dark */
                    : self->portal_scheme == 2    ? FALSE /* prefer light */
                                                  : self->system_dark;
    g_free(theme);
    return dark;
}

static void apply_theme(DmkWindow *self)
{
    g_object_set(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", wants_dark(self),
                 NULL);
}

static void on_theme_setting(GSettings *settings, const char *key, DmkWindow *self)
{
    (void)settings;
    (void)key;
    apply_theme(self);
}

/* org.freedesktop.appearance color-scheme: the desktop's choice, which
 * GTK 4.8 itself does not read (libadwaita does). Read's answer is a
 * variant in a variant (the older portals have no ReadOne). */
static int scheme_of(GVariant *v)
{
    while (v && g_variant_is_of_type(v, G_VARIANT_TYPE_VARIANT)) {
        GVariant *inner = g_variant_get_variant(v);
        g_variant_unref(v);
        v = inner;
    }
    int scheme =
        v && g_variant_is_of_type(v, G_VARIANT_TYPE_UINT32) ? (int)g_variant_get_uint32(v) : -1;
    if (v)
        g_variant_unref(v);
    return scheme;
}

static void on_portal_read(GObject *source, GAsyncResult *res, gpointer data)
{
    GVariant *ret = g_dbus_proxy_call_finish(G_DBUS_PROXY(source), res, NULL);
    if (!ret) /* no portal, or cancelled: the window is gone */
        return;
    DmkWindow *self = data;
    GVariant *v = NULL;
    g_variant_get(ret, "(v)", &v);
    g_variant_unref(ret);
    self->portal_scheme = scheme_of(v);
    apply_theme(self);
}

static void on_portal_signal(GDBusProxy *proxy, const char *sender, const char *signal,
                             GVariant *params, DmkWindow *self)
{
    (void)proxy;
    (void)sender;
    const char *ns = NULL, *key = NULL;
    GVariant *v = NULL;
    if (strcmp(signal, "SettingChanged") != 0 ||
        !g_variant_is_of_type(params, G_VARIANT_TYPE("(ssv)")))
        return;
    g_variant_get(params, "(&s&sv)", &ns, &key, &v);
    if (strcmp(ns, "org.freedesktop.appearance") == 0 && strcmp(key, "color-scheme") == 0) {
        self->portal_scheme = scheme_of(v);
        apply_theme(self);
    } else {
        g_variant_unref(v);
    }
}

static void watch_portal(DmkWindow *self)
{
    GError *error = NULL;
    /* Not started for us: a desktop that has a portal runs it already. */
    self->portal = g_dbus_proxy_new_for_bus_sync(
        G_BUS_TYPE_SESSION,
        G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START | G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES, NULL,
        "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
        "org.freedesktop.portal.Settings", NULL, &error);
    g_clear_error(&error);
    if (!self->portal || !g_dbus_proxy_get_name_owner(self->portal)) {
        g_clear_object(&self->portal);
        return;
    }
    g_signal_connect(self->portal, "g-signal", G_CALLBACK(on_portal_signal), self);
    self->portal_cancel = g_cancellable_new();
    g_dbus_proxy_call(self->portal, "Read",
                      g_variant_new("(ss)", "org.freedesktop.appearance", "color-scheme"),
                      G_DBUS_CALL_FLAGS_NONE, 2000, self->portal_cancel, on_portal_read, self);
}

/* ---- zoom ------------------------------------------------------------------------ */

static const int zoom_choices[] = {100, 125, 150, 200, 250, 300};

/* CrystalDiskMark's zoom: all of the window's text (tiles, buttons,
 * labels, the tabs) at that size; the style sheet's sizes are in em, so
 * they follow; the charts' drawing too (dmk_plot_set_zoom). Dialogs
 * keep theirs. */
static void apply_zoom(DmkWindow *self)
{
    GdkDisplay *display = gtk_widget_get_display(GTK_WIDGET(self));
    int zoom = g_settings_get_int(self->settings, "zoom");
    dmk_plot_set_zoom(zoom / 100.0); /* the charts' Cairo drawing, which CSS does not reach */
    if (self->zoom_css) {
        gtk_style_context_remove_provider_for_display(display, GTK_STYLE_PROVIDER(self->zoom_css));
        g_clear_object(&self->zoom_css);
    }
    if (zoom == 100)
        return;
    char *css = g_strdup_printf("window.dmk-main { font-size: %d%%; }", zoom);
    self->zoom_css = gtk_css_provider_new();
    gtk_css_provider_load_from_data(self->zoom_css, css, -1);
    gtk_style_context_add_provider_for_display(display, GTK_STYLE_PROVIDER(self->zoom_css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
    g_free(css);
}

static void on_zoom_setting(GSettings *settings, const char *key, DmkWindow *self)
{
    (void)settings;
    (void)key;
    apply_zoom(self);
}

/* The next choice up (step 1) or down (-1), 100 % for 0. */
static void zoom_step(DmkWindow *self, int step)
{
    int zoom = g_settings_get_int(self->settings, "zoom");
    int next = 100;
    size_t n = G_N_ELEMENTS(zoom_choices);
    if (step > 0) {
        next = zoom_choices[n - 1];
        for (size_t i = n; i-- > 0;)
            if (zoom_choices[i] > zoom)
                next = zoom_choices[i];
    } else if (step < 0) {
        next = zoom_choices[0];
        for (size_t i = 0; i < n; i++)
            if (zoom_choices[i] < zoom)
                next = zoom_choices[i];
    }
    g_settings_set_int(self->settings, "zoom", next);
}

static void act_zoom_in(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    zoom_step(self, 1);
}

static void act_zoom_out(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    zoom_step(self, -1);
}

static void act_zoom_reset(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    zoom_step(self, 0);
}

static void fill_zoom_menu(GtkApplication *app)
{
    GMenu *menu = app ? gtk_application_get_menu_by_id(app, "zoom-menu") : NULL;
    if (!menu || g_menu_model_get_n_items(G_MENU_MODEL(menu)) > 0)
        return;
    for (size_t i = 0; i < G_N_ELEMENTS(zoom_choices); i++) {
        /* TRANSLATORS: a zoom menu item: a percentage (150 %). */
        char *label = g_strdup_printf(_("%d %%"), zoom_choices[i]);
        GMenuItem *item = g_menu_item_new(label, NULL);
        g_menu_item_set_action_and_target_value(item, "win.zoom",
                                                g_variant_new_int32(zoom_choices[i]));
        g_menu_append_item(menu, item);
        g_object_unref(item);
        g_free(label);
    }
}

/* ---- Language ------------------------------------------------------------------------ */

/* The texts on screen were made in the language in force: a change says
 * when it applies, in the language the user reads now. */
static void on_language_setting(GSettings *settings, const char *key, DmkWindow *self)
{
    char *code = g_settings_get_string(settings, key);
    char *text = strcmp(code, dmk_language_in_force()) == 0
                     ? g_strdup_printf(_("Language: %s."), dmk_language_name(code))
                     /* TRANSLATORS: %s is a language's own name (Русский, Čeština). */
                     : g_strdup_printf(_("Language: %s. It applies when Drivemark starts again."),
                                       dmk_language_name(code));
    _dmk_window_set_status(self, text);
    g_free(text);
    g_free(code);
}

/* ---- Keyboard Shortcuts ------------------------------------------------------------- */

static void on_shortcuts_destroy(GtkWidget *w, DmkWindow *self)
{
    (void)w;
    self->shortcuts = NULL;
}

static void act_shortcuts(GSimpleAction *a, GVariant *p, gpointer data)
{
    DmkWindow *self = data;
    (void)a;
    (void)p;
    if (!self->shortcuts) {
        self->shortcuts = dmk_shortcuts_window_new(GTK_WINDOW(self));
        g_signal_connect(self->shortcuts, "destroy", G_CALLBACK(on_shortcuts_destroy), self);
    }
    gtk_window_present(GTK_WINDOW(self->shortcuts));
}

GtkWidget *dmk_window_get_dialog(DmkWindow *self)
{
    return self->settings_dialog ? self->settings_dialog : self->shortcuts;
}

/* ---- setup -------------------------------------------------------------------------- */

static void add_setting_action(DmkWindow *self, const char *key)
{
    GAction *a = g_settings_create_action(self->settings, key);
    g_action_map_add_action(G_ACTION_MAP(self), a);
    g_object_unref(a);
}

void _dmk_window_settings_init(DmkWindow *self)
{
    static const GActionEntry entries[] = {
        {"settings", act_settings, NULL, NULL, NULL, {0}},
        {"zoom-in", act_zoom_in, NULL, NULL, NULL, {0}},
        {"zoom-out", act_zoom_out, NULL, NULL, NULL, {0}},
        {"zoom-reset", act_zoom_reset, NULL, NULL, NULL, {0}},
        {"shortcuts", act_shortcuts, NULL, NULL, NULL, {0}},
    };
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    add_setting_action(self, "theme");
    add_setting_action(self, "zoom");
    add_setting_action(self, "language");
    add_time_actions(self, app);
    fill_zoom_menu(app);
    dmk_language_fill_menu(app ? gtk_application_get_menu_by_id(app, "language-menu") : NULL);
    gtk_widget_add_css_class(GTK_WIDGET(self), "dmk-main");
    /* What GTK chose before we touched it (settings.ini, XSettings). */
    g_object_get(gtk_settings_get_default(), "gtk-application-prefer-dark-theme",
                 &self->system_dark, NULL);
    self->portal_scheme = -1;
    g_signal_connect(self->settings, "changed::theme", G_CALLBACK(on_theme_setting), self);
    g_signal_connect(self->settings, "changed::zoom", G_CALLBACK(on_zoom_setting), self);
    g_signal_connect(self->settings, "changed::language", G_CALLBACK(on_language_setting), self);
    g_signal_connect_swapped(self->settings, "changed::mix-read-share",
                             G_CALLBACK(_dmk_window_resync), self);
    apply_theme(self);
    apply_zoom(self);
    watch_portal(self);
}

void _dmk_window_settings_dispose(DmkWindow *self)
{
    if (self->settings)
        g_signal_handlers_disconnect_by_data(self->settings, self);
    if (self->portal)
        g_signal_handlers_disconnect_by_data(self->portal, self);
    g_clear_object(&self->portal);
    if (self->portal_cancel)
        g_cancellable_cancel(self->portal_cancel);
    g_clear_object(&self->portal_cancel);
    if (self->zoom_css) {
        gtk_style_context_remove_provider_for_display(gtk_widget_get_display(GTK_WIDGET(self)),
                                                      GTK_STYLE_PROVIDER(self->zoom_css));
        g_clear_object(&self->zoom_css);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(self->time_menus); i++)
        g_clear_object(&self->time_menus[i]);
    if (self->settings_dialog)
        gtk_window_destroy(GTK_WINDOW(self->settings_dialog));
    if (self->shortcuts)
        gtk_window_destroy(GTK_WINDOW(self->shortcuts));
}

/* ---- what the tests read ------------------------------------------------------------- */

static void dump_menu(GString *s, const char *name, GMenuModel *menu, GVariant *state)
{
    for (int i = 0; menu && i < g_menu_model_get_n_items(menu); i++) {
        char *label = NULL;
        GVariant *target =
            g_menu_model_get_item_attribute_value(menu, i, G_MENU_ATTRIBUTE_TARGET, NULL);
        g_menu_model_get_item_attribute(menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
        gboolean ticked = target && state && g_variant_equal(target, state);
        g_string_append_printf(s, "menu\t%s\t%s\t%s\n", name, label ? label : "",
                               ticked ? "ticked" : "-");
        g_free(label);
        if (target)
            g_variant_unref(target);
    }
}

static void dump_shortcuts(DmkWindow *self, GString *s)
{
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    char **actions = app ? gtk_application_list_action_descriptions(app) : NULL;
    for (char **a = actions; a && *a; a++) {
        char **accels = gtk_application_get_accels_for_action(app, *a);
        for (char **k = accels; *k; k++)
            g_string_append_printf(s, "accel\t%s\t%s\n", *a, *k);
        g_strfreev(accels);
    }
    g_strfreev(actions);
    if (!self->shortcuts)
        return;
    /* What the shortcuts window shows: its GtkShortcutsShortcut rows. */
    GSList *todo = g_slist_prepend(NULL, self->shortcuts);
    while (todo) {
        GtkWidget *w = todo->data;
        todo = g_slist_delete_link(todo, todo);
        if (GTK_IS_SHORTCUTS_SHORTCUT(w)) {
            char *accel = NULL, *title = NULL;
            g_object_get(w, "accelerator", &accel, "title", &title, NULL);
            /* As GTK names it, so it compares with the "accel" lines. */
            guint key = 0;
            GdkModifierType mods = 0;
            gtk_accelerator_parse(accel ? accel : "", &key, &mods);
            char *name = gtk_accelerator_name(key, mods);
            g_string_append_printf(s, "shortcut\t%s\t%s\n", name, title ? title : "");
            g_free(name);
            g_free(accel);
            g_free(title);
        }
        for (GtkWidget *c = gtk_widget_get_last_child(w); c; c = gtk_widget_get_prev_sibling(c))
            todo = g_slist_prepend(todo, c);
    }
}

void _dmk_window_dump_settings(DmkWindow *self, GString *s)
{
    for (size_t i = 0; i < G_N_ELEMENTS(time_menus); i++) {
        GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), time_menus[i].key);
        GVariant *state = a ? g_action_get_state(a) : NULL;
        dump_menu(s, time_menus[i].key, G_MENU_MODEL(self->time_menus[i]), state);
        if (state)
            g_variant_unref(state);
    }
    GListModel *sizes = gtk_drop_down_get_model(self->size_dd);
    for (guint i = 0; sizes && i < g_list_model_get_n_items(sizes); i++)
        g_string_append_printf(s, "size-choice\t%s\n",
                               gtk_string_list_get_string(GTK_STRING_LIST(sizes), i));
    for (int c = 0; c < DMK_COLS; c++)
        if (gtk_widget_get_visible(GTK_WIDGET(self->headers[c])))
            g_string_append_printf(s, "column\t%s\n", gtk_label_get_text(self->headers[c]));
    char *theme = g_settings_get_string(self->settings, "theme");
    gboolean dark = FALSE;
    g_object_get(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", &dark, NULL);
    g_string_append_printf(s, "theme\t%s\t%s\n", theme, dark ? "dark" : "light");
    g_free(theme);
    /* The saved language, the one in force and the menu's choices. */
    char *language = g_settings_get_string(self->settings, "language");
    g_string_append_printf(s, "language\t%s\t%s\n", language, dmk_language_in_force());
    g_free(language);
    GMenuModel *languages = G_MENU_MODEL(gtk_application_get_menu_by_id(
        gtk_window_get_application(GTK_WINDOW(self)), "language-menu"));
    for (int i = 0; languages && i < g_menu_model_get_n_items(languages); i++) {
        char *label = NULL, *target = NULL;
        g_menu_model_get_item_attribute(languages, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
        g_menu_model_get_item_attribute(languages, i, G_MENU_ATTRIBUTE_TARGET, "s", &target);
        g_string_append_printf(s, "language-choice\t%s\t%s\n", target, label);
        g_free(label);
        g_free(target);
    }
    /* The zoom as the tests measure it: a column header's and the first
     * tile's allocated height, in logical pixels. */
    g_string_append_printf(s, "zoom\t%d\t%d\t%d\n", g_settings_get_int(self->settings, "zoom"),
                           gtk_widget_get_height(GTK_WIDGET(self->headers[0])),
                           gtk_widget_get_height(GTK_WIDGET(self->tiles[0][0])));
    /* The number's drawn font size, in pixels: the CSS size times the
     * tile's scale. */
    GtkWidget *value = gtk_widget_get_first_child(GTK_WIDGET(self->tiles[0][0]));
    value = value ? gtk_widget_get_next_sibling(value) : NULL; /* the meter, then the number */
    const PangoFontDescription *font =
        value ? pango_context_get_font_description(gtk_widget_get_pango_context(value)) : NULL;
    double px = font ? (double)pango_font_description_get_size(font) / PANGO_SCALE : 0;
    if (font && !pango_font_description_get_size_is_absolute(font))
        px = px * 96.0 / 72.0;
    g_string_append_printf(s, "tile-number\t%.2f\t%.1f\t%d\n",
                           dmk_tile_get_text_scale(self->tiles[0][0]),
                           px * dmk_tile_get_text_scale(self->tiles[0][0]),
                           gtk_widget_get_height(GTK_WIDGET(self->tiles[0][0])));
    g_string_append_printf(s, "benchmark-page\t%d\t%d\n",
                           gtk_widget_get_width(self->benchmark_page),
                           gtk_widget_get_height(self->benchmark_page));
    char *uri = dmk_app_docs_uri();
    g_string_append_printf(s, "help-uri\t%s\n", uri);
    g_free(uri);
    if (self->settings_dialog)
        g_string_append(s, "dialog-open\tsettings\n");
    dump_shortcuts(self, s);
}
