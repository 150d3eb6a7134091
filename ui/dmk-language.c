/* SPDX-License-Identifier: GPL-3.0-or-later */
/* View > Language: the languages the window offers, in one table (their
 * catalogs are po/LINGUAS's; tests/i18n checks that every catalog has its
 * row here), and how the saved choice is put in force at start. */
#include "dmk-language.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "dmk-app.h"

typedef struct {
    const char *code; /* the setting's value, and gettext's language */
    const char *name; /* in its own language, as CrystalDiskMark lists them */
} DmkLanguage;

/* Sorted by code after System and English; a catalog that is not
 * installed is left out of the menu (dmk_language_has_catalog). */
static const DmkLanguage languages[] = {
    {"system", N_("System")}, /* the desktop's: LANGUAGE and LC_MESSAGES */
    {"en", "English"},        /* the msgids themselves */
    {"cs", "Čeština"},        /* po/cs.po */
    {"de", "Deutsch"},        /* po/de.po */
    {"ru", "Русский"},        /* po/ru.po */
};

static const DmkLanguage *find(const char *code)
{
    for (size_t i = 0; code && i < G_N_ELEMENTS(languages); i++)
        if (strcmp(languages[i].code, code) == 0)
            return &languages[i];
    return NULL;
}

const char *dmk_language_name(const char *code)
{
    const DmkLanguage *l = find(code);
    if (!l)
        return code ? code : "";
    return l == &languages[0] ? _(l->name) : l->name;
}

static const char *in_force = "system";

const char *dmk_language_in_force(void)
{
    return in_force;
}

/* The saved value, read before the application exists: the same store
 * the window's settings use (a portable copy's drivemark.ini). */
static char *saved_language(void)
{
    GSettingsSchemaSource *src = g_settings_schema_source_get_default();
    GSettingsSchema *schema = src ? g_settings_schema_source_lookup(src, DMK_APP_ID, TRUE) : NULL;
    if (!schema)
        return NULL;
    char *code = NULL;
    if (g_settings_schema_has_key(schema, "language")) {
        GSettingsBackend *backend = dmk_app_settings_store();
        GSettings *settings = g_settings_new_full(schema, backend, NULL);
        code = g_settings_get_string(settings, "language");
        g_object_unref(settings);
        g_clear_object(&backend);
    }
    g_settings_schema_unref(schema);
    return code;
}

void dmk_language_apply_saved(void)
{
    char *code = saved_language();
    const DmkLanguage *l = find(code);
    g_free(code);
    if (!l || l == &languages[0])
        return;
    in_force = l->code;
    /* Single-threaded still: no other thread reads the environment. */
    g_setenv("LANGUAGE", l->code, TRUE);
    const char *now = setlocale(LC_MESSAGES, NULL);
    if (now && (strcmp(now, "C") == 0 || strcmp(now, "POSIX") == 0))
        setlocale(LC_MESSAGES, "C.UTF-8");
}

gboolean dmk_language_has_catalog(const char *code)
{
    if (!find(code) || strcmp(code, "system") == 0 || strcmp(code, "en") == 0)
        return find(code) != NULL;
    const char *dir = bindtextdomain(DMK_GETTEXT_PACKAGE, NULL);
    if (!dir)
        return FALSE;
    char *mo = g_build_filename(dir, code, "LC_MESSAGES", DMK_GETTEXT_PACKAGE ".mo", NULL);
    gboolean found = g_file_test(mo, G_FILE_TEST_IS_REGULAR);
    g_free(mo);
    return found;
}

void dmk_language_fill_menu(GMenu *menu)
{
    if (!menu || g_menu_model_get_n_items(G_MENU_MODEL(menu)) > 0)
        return;
    for (size_t i = 0; i < G_N_ELEMENTS(languages); i++) {
        if (!dmk_language_has_catalog(languages[i].code))
            continue;
        GMenuItem *item = g_menu_item_new(dmk_language_name(languages[i].code), NULL);
        g_menu_item_set_action_and_target_value(item, "win.language",
                                                g_variant_new_string(languages[i].code));
        g_menu_append_item(menu, item);
        g_object_unref(item);
    }
}
