/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run result as JSON (schema in docs/results.md). Written by hand:
 * no JSON library exists for the mingw build. Numbers never depend on the
 * C locale. */
#ifndef DMK_JSON_H
#define DMK_JSON_H

#include <stdio.h>

#include "dmk-result.h"

/* Returns DMK_OK or an error naming path (used only for the message). */
int dmk_json_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err);

/* Writes s as a JSON string literal; invalid UTF-8 becomes U+FFFD. */
void dmk_json_string(FILE *f, const char *s);

#endif
