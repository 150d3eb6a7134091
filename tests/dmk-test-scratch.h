/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scratch files for tests of writers (JSON, CSV): tmpfile(), or where that
 * fails (Windows' C runtime makes it in the drive's root) a named file in
 * $DMK_TEST_TMPDIR or the current directory, removed on close. */
#ifndef DMK_TEST_SCRATCH_H
#define DMK_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

#include "dmk-error.h"
#include "dmk-result.h"
#include "dmk-test.h"

static char dmk_scratch_path[1100];

static inline FILE *dmk_scratch_open(const char *name)
{
    FILE *f = tmpfile();
    if (f) {
        dmk_scratch_path[0] = '\0';
        return f;
    }
    const char *dir = getenv("DMK_TEST_TMPDIR");
    snprintf(dmk_scratch_path, sizeof dmk_scratch_path, "%s%s%s", dir ? dir : "", dir ? "/" : "",
             name);
    f = fopen(dmk_scratch_path, "w+b");
    if (!f) {
        snprintf(dmk_scratch_path, sizeof dmk_scratch_path, "%s", name);
        f = fopen(dmk_scratch_path, "w+b");
    }
    if (!f)
        printf("# no scratch file: tmpfile() and fopen(\"%s\") failed\n", dmk_scratch_path);
    return f;
}

static inline void dmk_scratch_close(FILE *f)
{
    fclose(f);
    if (dmk_scratch_path[0])
        remove(dmk_scratch_path);
}

/* Everything written to f so far, as a NUL-terminated string; free() it. */
static inline char *dmk_scratch_slurp(FILE *f)
{
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    return s;
}

/* A result file writer: dmk_csv_write, dmk_json_write. */
typedef int (*DmkScratchWriter)(FILE *f, const DmkRunResult *r, const char *path, DmkError *err);

/* What write makes of r, as a NUL-terminated string (free() it), its
 * length in *len when len is not NULL; `name` is the scratch file's and
 * the one the writer is told. A writer's error is a failed check. */
static inline char *dmk_scratch_write(const char *name, DmkScratchWriter write,
                                      const DmkRunResult *r, size_t *len)
{
    FILE *f = dmk_scratch_open(name);
    if (!f)
        return NULL;
    DmkError err = {0};
    int rc = write(f, r, name, &err);
    if (rc != DMK_OK)
        printf("# writing %s: %s\n", name, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    if (len)
        *len = (size_t)ftell(f);
    char *s = dmk_scratch_slurp(f);
    dmk_scratch_close(f);
    return s;
}

/* dmk_scratch_write in a locale whose decimal point is a comma
 * (LC_NUMERIC; "C" again after), which the writers must not follow;
 * NULL, with *skip the reason, where no such locale is installed. */
static inline char *dmk_scratch_write_decimal_comma(const char *name, DmkScratchWriter write,
                                                    const DmkRunResult *r, const char **skip)
{
    if (!dmk_test_decimal_comma_locale()) {
        *skip = "no locale with a decimal comma is installed";
        return NULL;
    }
    char probe[32];
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    char *s = dmk_scratch_write(name, write, r, NULL);
    setlocale(LC_NUMERIC, "C");
    DMK_CHECK_STR(probe, "1,5"); /* the locale really has a decimal comma */
    return s;
}

#endif
