/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's settings schema as the unit tests read it: one key's text,
 * so a test can check the choices or range the schema offers against the
 * table that describes them (the lab tests', the run request's). The path
 * comes from meson; a cross build passes none and the test skips. */
#ifndef DMK_TEST_GSCHEMA_H
#define DMK_TEST_GSCHEMA_H

#include <stdio.h>
#include <string.h>

#include "dmk-test.h"

static const char *dmk_gschema_path;

/* The text of <key name="name" ...> up to its </key> (cut there), or NULL
 * (a failed check) where the schema or the key is missing. The text lives
 * in a static buffer until the next call. */
static inline char *dmk_gschema_key(const char *name)
{
    static char xml[1 << 16];
    FILE *f = fopen(dmk_gschema_path, "rb");
    DMK_CHECK(f != NULL);
    if (!f)
        return NULL;
    size_t len = fread(xml, 1, sizeof xml - 1, f);
    fclose(f);
    xml[len] = '\0';
    char open[96];
    snprintf(open, sizeof open, "<key name=\"%s\"", name);
    char *key = strstr(xml, open);
    char *end = key ? strstr(key, "</key>") : NULL;
    DMK_CHECK(key && end);
    if (!key || !end)
        return NULL;
    *end = '\0';
    return key;
}

#endif
