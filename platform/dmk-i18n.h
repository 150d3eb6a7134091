/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Translation for the layers without GLib (platform/, core/, drivemark-cli;
 * here, in the lowest layer, so that every layer above can include it):
 * DMK_() marks and translates a message, DMK_N_() only marks one (a static
 * table's entry, translated where it is shown), dmk_ngettext() picks the
 * plural form. All look in the domain DMK_GETTEXT_PACKAGE ('drivemark',
 * po/), whatever the program's default domain is. Where the build has no
 * libintl (DMK_ENABLE_NLS unset: the mingw engine and CLI) they return the
 * English msgid. The window's ui/ uses GLib's _() and N_() instead, in the
 * same domain. What must stay English (test names, units, file keys and
 * values, option names) is never passed here: docs/design.md,
 * "Translation". */
#ifndef DMK_I18N_H
#define DMK_I18N_H

#ifndef DMK_GETTEXT_PACKAGE
#define DMK_GETTEXT_PACKAGE "drivemark"
#endif

#ifdef DMK_ENABLE_NLS
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#define dmk_gettext(s)        dgettext(DMK_GETTEXT_PACKAGE, s)
#define dmk_ngettext(s, p, n) dngettext(DMK_GETTEXT_PACKAGE, s, p, n)
#else
#define dmk_gettext(s)        ((const char *)(s))
#define dmk_ngettext(s, p, n) ((n) == 1 ? (const char *)(s) : (const char *)(p))
#endif

#define DMK_(s)   dmk_gettext(s)
#define DMK_N_(s) (s)

/* drivemark-cli's start: messages in the user's language, and only those
 * (LC_MESSAGES): LC_NUMERIC and the rest stay "C", so a number printed or
 * written to a file keeps its '.' whatever the locale. The catalogs are
 * UTF-8 as the CLI's own output is (µs), whatever LC_CTYPE says. */
static inline void dmk_i18n_init_messages(void)
{
#ifdef DMK_ENABLE_NLS
    setlocale(LC_MESSAGES, "");
    /* DMK_TEST_LOCALEDIR: the tests' own catalogs (tests/i18n). */
    const char *dir = getenv("DMK_TEST_LOCALEDIR");
    bindtextdomain(DMK_GETTEXT_PACKAGE, dir && *dir ? dir : DMK_LOCALEDIR);
    bind_textdomain_codeset(DMK_GETTEXT_PACKAGE, "UTF-8");
    textdomain(DMK_GETTEXT_PACKAGE);
#endif
}

#endif
