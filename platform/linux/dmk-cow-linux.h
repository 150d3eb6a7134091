/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copy-on-write and compression under the test file on Linux: btrfs
 * (and bcachefs) let a new, empty file be marked NOCOW (chattr +C),
 * which also turns compression off for it; zfs copies on write always. */
#ifndef DMK_COW_LINUX_H
#define DMK_COW_LINUX_H

#include <stdbool.h>

#include "dmk-platform.h"

/* True when comma-separated mount options compress data
 * ("compress", "compress=zstd:3", "compress-force=lzo"). */
bool dmk_linux_opts_compress(const char *opts);

/* Called on the new, still empty test file (fd) before it is sized:
 * tries to turn copy-on-write (and so compression) off for it where the
 * file system allows, and records in info->cow / info->compression what
 * is left. info->fs_type and info->compression (from the mount options)
 * are set before. Never fails: a file system that refuses keeps its
 * CoW, and the result says so. */
void dmk_linux_cow_off(int fd, DmkTargetInfo *info);

#endif
