/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "dmk-cow-linux.h"

#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/xattr.h>

bool dmk_linux_opts_compress(const char *opts)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", opts ? opts : "");
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        /* btrfs's words; f2fs's compress_algorithm= and the like only
         * apply to files flagged for it */
        if (strcmp(tok, "compress") != 0 && strncmp(tok, "compress=", 9) != 0 &&
            strncmp(tok, "compress-force", 14) != 0)
            continue;
        const char *v = strchr(tok, '=');
        /* "compress=no" (and an empty algorithm) turn it off */
        if (!v || (strcmp(v + 1, "no") != 0 && v[1] != '\0'))
            return true;
    }
    return false;
}

/* The file's own compression: the inode flag (chattr +c, inherited from
 * the directory) or btrfs's compression property. */
static bool inode_compressed(int fd, int flags)
{
    char algo[32];
    if (flags & FS_COMPR_FL)
        return true;
    ssize_t n = fgetxattr(fd, "btrfs.compression", algo, sizeof algo);
    return n > 0;
}

/* btrfs only honours NOCOW on an empty file, and refuses it together
 * with the compression flag, so that one goes first. */
static bool set_nocow(int fd, int *flags)
{
    int want = (*flags & ~FS_COMPR_FL) | FS_NOCOW_FL;
    if (ioctl(fd, FS_IOC_SETFLAGS, &want) != 0)
        return false;
    int now = 0;
    if (ioctl(fd, FS_IOC_GETFLAGS, &now) != 0 || !(now & FS_NOCOW_FL))
        return false;
    *flags = now;
    return true;
}

void dmk_linux_cow_off(int fd, DmkTargetInfo *info)
{
    const char *fs = info->fs_type;
    if (strcmp(fs, "zfs") == 0) {
        /* Every zfs write is copy-on-write; no per-file switch. Its
         * compression is a dataset property mountinfo does not show. */
        info->cow = DMK_FS_FEATURE_ACTIVE;
        return;
    }
    if (strcmp(fs, "btrfs") != 0 && strcmp(fs, "bcachefs") != 0)
        return; /* ext4, xfs (a new file shares no extents): writes go in place */
    int flags = 0;
    bool known = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    bool compressed =
        info->compression != DMK_FS_FEATURE_NONE || (known && inode_compressed(fd, flags));
    if (known && ((flags & FS_NOCOW_FL) || set_nocow(fd, &flags))) {
        /* NOCOW data is never compressed (it has no checksums either). */
        info->cow = DMK_FS_FEATURE_OFF;
        info->compression = compressed ? DMK_FS_FEATURE_OFF : DMK_FS_FEATURE_NONE;
        return;
    }
    info->cow = DMK_FS_FEATURE_ACTIVE;
    info->compression = compressed ? DMK_FS_FEATURE_ACTIVE : DMK_FS_FEATURE_NONE;
}
