/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's language: View > Language (System, English and each
 * catalog the program has), saved in the setting "language" and put in
 * force when the program starts, before GTK and the first translated
 * string: a running window keeps its texts, so a change says it applies
 * on the next start. */
#ifndef DMK_LANGUAGE_H
#define DMK_LANGUAGE_H

#include <gtk/gtk.h>

/* main(), before gtk_init and before any window: the saved language in
 * force for this process (LANGUAGE for gettext, and a C locale's
 * LC_MESSAGES made C.UTF-8, since gettext ignores LANGUAGE under "C").
 * "system" (or no setting) leaves the environment's choice alone. */
void dmk_language_apply_saved(void);

/* The language in force in this process, as the setting names it. */
const char *dmk_language_in_force(void);

/* View > Language's items in `menu` (once): System, English and the
 * languages whose catalog is installed, each in its own name. */
void dmk_language_fill_menu(GMenu *menu);

/* The native name of a setting's value ("Русский"); "System" translated. */
const char *dmk_language_name(const char *code);

/* Whether the catalog of `code` is installed where the domain is bound. */
gboolean dmk_language_has_catalog(const char *code);

#endif
