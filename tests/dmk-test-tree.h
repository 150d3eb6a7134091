/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fake sysfs/procfs tree for the Linux storage tests (the write guard,
 * the storage walk): files and directories under a root directory. */
#ifndef DMK_TEST_TREE_H
#define DMK_TEST_TREE_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "dmk-test.h"

/* root/rel gets text (created or replaced). */
static inline void dmk_tree_put(const char *root, const char *rel, const char *text)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    DMK_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* root/rel as a directory (already there is fine). */
static inline void dmk_tree_dir(const char *root, const char *rel)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    DMK_CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
}

#endif
