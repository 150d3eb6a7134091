/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's keyboard shortcuts, described once: the application sets
 * its accelerators from this table, and the Keyboard Shortcuts window
 * (GtkShortcutsWindow) is built from the same rows. */
#ifndef DMK_SHORTCUTS_H
#define DMK_SHORTCUTS_H

#include <gtk/gtk.h>

typedef struct {
    const char *action; /* "win.run-all", "win.run-test(0)" */
    const char *accel;  /* "<Control>r", as gtk_accelerator_parse reads it */
    const char *group;  /* the shortcuts window's group: "Benchmark" */
    const char *title;  /* what it does: "Run all tests" */
} DmkShortcut;

size_t dmk_shortcut_count(void);
const DmkShortcut *dmk_shortcut_at(size_t i);

/* Every row's accelerator on app (gtk_application_set_accels_for_action). */
void dmk_shortcuts_set_accels(GtkApplication *app);

/* A GtkShortcutsWindow listing the table's rows, by group. */
GtkWidget *dmk_shortcuts_window_new(GtkWindow *parent);

#endif
