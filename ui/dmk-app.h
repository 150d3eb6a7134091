/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GtkApplication: one window, the settings, app.quit and app.about,
 * accelerators, the style sheet, and the command line for scripted use
 * (--autorun, --screenshot, --json, --dump-tiles, --quit-when-done). */
#ifndef DMK_APP_H
#define DMK_APP_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DMK_APP_ID "io.github.drivemark.drivemark"
/* The portable copy's settings file beside drivemark.exe (Windows). */
#define DMK_PORTABLE_SETTINGS "drivemark.ini"

#define DMK_TYPE_APP (dmk_app_get_type())
G_DECLARE_FINAL_TYPE(DmkApp, dmk_app, DMK, APP, GtkApplication)

DmkApp *dmk_app_new(void);
/* Where the settings are stored (a new reference; NULL: GSettings'
 * default), for every GSettings of the program that saves. */
GSettingsBackend *dmk_app_settings_store(void);

/* What main() returns after g_application_run(): a DmkExitStatus
 * (core/dmk-request.h), as drivemark-cli's: 0 done, 1 failed, 2 bad
 * option, 3 verify found bad data, 130 stopped (for --quit-when-done;
 * 0 in interactive use). */
int dmk_app_get_exit_status(DmkApp *self);

/* file:// of the installed README.md (share/doc/drivemark), which
 * Help > Documentation (app.help, F1) opens. */
char *dmk_app_docs_uri(void);

G_END_DECLS

#endif
