/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark: the GTK window over the same engine as drivemark-cli. */
#include <locale.h>

#include <glib/gi18n.h>

#include "dmk-app.h"
#include "dmk-language.h"

/* The window in the user's language: the catalogs of the domain
 * 'drivemark' (po/), which GtkBuilder's templates and menus use too, as
 * the default domain. setlocale(LC_ALL, "") is what gtk_init does anyway:
 * the core writes numbers with '.' whatever LC_NUMERIC says
 * (dmk_format_double and its readers). On Windows the catalogs lie
 * beside the program, in share/locale of its folder. */
static void init_i18n(void)
{
    setlocale(LC_ALL, "");
    /* View > Language's choice; gtk_init must not set the locale again
     * (it would undo a C locale's LC_MESSAGES made C.UTF-8). */
    dmk_language_apply_saved();
    gtk_disable_setlocale();
#ifdef G_OS_WIN32
    char *dir = g_win32_get_package_installation_directory_of_module(NULL);
    char *localedir = g_build_filename(dir ? dir : ".", "share", "locale", NULL);
    bindtextdomain(DMK_GETTEXT_PACKAGE, localedir);
    g_free(localedir);
    g_free(dir);
#else
    /* DMK_TEST_LOCALEDIR: the tests' own catalogs (tests/i18n). */
    const char *dir = g_getenv("DMK_TEST_LOCALEDIR");
    bindtextdomain(DMK_GETTEXT_PACKAGE, dir && *dir ? dir : DMK_LOCALEDIR);
#endif
    bind_textdomain_codeset(DMK_GETTEXT_PACKAGE, "UTF-8");
    textdomain(DMK_GETTEXT_PACKAGE);
}

int main(int argc, char **argv)
{
    init_i18n();
    DmkApp *app = dmk_app_new();
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    if (status == 0)
        status = dmk_app_get_exit_status(app);
    g_object_unref(app);
    return status;
}
