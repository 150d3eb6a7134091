/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-shortcuts.h"

#include <glib/gi18n.h>

static const DmkShortcut shortcuts[] = {
    /* TRANSLATORS: the groups name the window's parts: the Benchmark tab, the Results, the
     * Window. */
    {"win.run-all", "<Control>r", N_("Benchmark"), N_("Run all tests")},
    {"win.run-test(0)", "<Control>1", N_("Benchmark"), N_("Run the first row's test")},
    {"win.run-test(1)", "<Control>2", N_("Benchmark"), N_("Run the second row's test")},
    {"win.run-test(2)", "<Control>3", N_("Benchmark"), N_("Run the third row's test")},
    {"win.run-test(3)", "<Control>4", N_("Benchmark"), N_("Run the fourth row's test")},
    {"win.stop", "Escape", N_("Benchmark"), N_("Stop the run")},
    {"win.choose-target", "<Control><Shift>o", N_("Benchmark"), N_("Choose the folder to test")},
    {"win.settings", "<Control>comma", N_("Benchmark"), N_("Settings: the tiles' tests and times")},
    {"win.copy", "<Control>c", N_("Results"), N_("Copy the results as text")},
    {"win.save", "<Control>s", N_("Results"), N_("Save the results (CSV, JSON)")},
    {"win.save-text", "<Control><Shift>s", N_("Results"), N_("Save the results as text")},
    {"win.save-image", "<Control>p", N_("Results"), N_("Save the tiles as an image (PNG)")},
    {"win.open", "<Control>o", N_("Results"), N_("Open saved results")},
    {"win.export-chart", "<Control>e", N_("Results"), N_("Export the chart")},
    {"win.close-tab", "<Control>w", N_("Window"), N_("Close the result tab")},
    {"win.zoom-in", "<Control>plus", N_("Window"), N_("Zoom in")},
    {"win.zoom-out", "<Control>minus", N_("Window"), N_("Zoom out")},
    {"win.zoom-reset", "<Control>0", N_("Window"), N_("Zoom to 100 %")},
    {"win.shortcuts", "<Control>question", N_("Window"), N_("Keyboard shortcuts")},
    {"app.help", "F1", N_("Window"), N_("Documentation")},
    {"app.quit", "<Control>q", N_("Window"), N_("Quit")},
};

size_t dmk_shortcut_count(void)
{
    return G_N_ELEMENTS(shortcuts);
}

const DmkShortcut *dmk_shortcut_at(size_t i)
{
    return i < G_N_ELEMENTS(shortcuts) ? &shortcuts[i] : NULL;
}

void dmk_shortcuts_set_accels(GtkApplication *app)
{
    for (size_t i = 0; i < G_N_ELEMENTS(shortcuts); i++) {
        const char *list[] = {shortcuts[i].accel, NULL};
        gtk_application_set_accels_for_action(app, shortcuts[i].action, list);
    }
}

/* GTK 4.8 builds a shortcuts window's sections and groups only from
 * GtkBuilder (gtk_shortcuts_group_add_shortcut is 4.14): the table
 * written as its XML. One page for all rows: where a section splits into
 * pages, 4.8's page switcher warns of a label's negative width. */
static char *shortcuts_ui(void)
{
    GString *s = g_string_new("<interface><object class=\"GtkShortcutsWindow\" id=\"window\">"
                              "<property name=\"modal\">1</property><child>"
                              "<object class=\"GtkShortcutsSection\">"
                              "<property name=\"section-name\">shortcuts</property>"
                              "<property name=\"max-height\">30</property>");
    const char *group = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(shortcuts); i++) {
        const DmkShortcut *k = &shortcuts[i];
        if (!group || g_strcmp0(group, k->group) != 0) {
            if (group)
                g_string_append(s, "</object></child>");
            char *g = g_markup_printf_escaped("<child><object class=\"GtkShortcutsGroup\">"
                                              "<property name=\"title\">%s</property>",
                                              _(k->group));
            g_string_append(s, g);
            g_free(g);
            group = k->group;
        }
        char *row = g_markup_printf_escaped(
            "<child><object class=\"GtkShortcutsShortcut\"><property "
            "name=\"accelerator\">%s</property><property name=\"title\">%s</property>"
            "</object></child>",
            k->accel, _(k->title));
        g_string_append(s, row);
        g_free(row);
    }
    if (group)
        g_string_append(s, "</object></child>");
    g_string_append(s, "</object></child></object></interface>");
    return g_string_free(s, FALSE);
}

GtkWidget *dmk_shortcuts_window_new(GtkWindow *parent)
{
    char *ui = shortcuts_ui();
    GtkBuilder *b = gtk_builder_new_from_string(ui, -1);
    g_free(ui);
    /* GTK's list of toplevels keeps the window once the builder is gone. */
    GtkWidget *w = GTK_WIDGET(gtk_builder_get_object(b, "window"));
    g_object_unref(b);
    gtk_window_set_transient_for(GTK_WINDOW(w), parent);
    return w;
}
