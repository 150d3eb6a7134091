/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One line of /proc/self/mountinfo, for the test file's description and
 * the drive list alike. */
#ifndef DMK_MOUNTINFO_H
#define DMK_MOUNTINFO_H

#include <stdbool.h>

typedef struct {
    unsigned id, parent;   /* this mount's id and the id of the mount it sits on */
    unsigned major, minor; /* the file system's device number */
    char root[512];        /* the directory of the file system mounted here ("/", or a
                            * bind mount's subdirectory), unescaped */
    char mnt[512];         /* mount point, unescaped */
    char opts[256];        /* per-mount options: "rw,noatime" */
    char fstype[32];
    char source[256];      /* "/dev/nvme0n1p2", unescaped */
    char super_opts[8192]; /* the file system's options: "rw,discard,errors=remount-ro"; overlay's
                            * lowerdir=,upperdir=,workdir= paths make them long */
    bool super_opts_cut;   /* they did not fit: super_opts holds the options that did
                            * (cut at a comma); dmk_mountinfo_super_opts has them all */
    bool fields_cut;       /* root, mnt, opts, fstype or source filled its buffer and may
                            * be cut: their paths are not to be followed */
} DmkMountLine;

/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue" */
bool dmk_mountinfo_parse(const char *line, DmkMountLine *m);

/* mountinfo writes a space as \040 (and so on, in octal): undone in place. */
void dmk_mountinfo_unescape(char *s);

/* All of m's file system options, however long (an overlay of many
 * layers passes any fixed size): a copy of m->super_opts, or, when they
 * were cut, read again from root's /proc/self/mountinfo by m's mount id.
 * NULL when cut and that line is gone or unreadable (the caller must
 * then treat the options as unknown), or out of memory. free() it. */
char *dmk_mountinfo_super_opts(const char *root, const DmkMountLine *m);

#endif
