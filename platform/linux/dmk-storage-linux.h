/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What storage really holds a block device or a directory on Linux: a
 * drive, RAM, or something that cannot be known. A file system's speed
 * is its storage's: ext4 on a loop device over a file in /dev/shm, an
 * overlay whose upper layer is on tmpfs and bindfs over tmpfs all
 * measure memory, though none of them says "tmpfs" at the top. So the
 * storage is followed down: partitions to their disk, loop devices to
 * their backing file or device and that file's file system, device-mapper
 * and md to their slaves (sysfs slaves/), overlay to its upperdir, FUSE
 * to a source directory where the mount names one (bindfs), recursively,
 * until a drive, RAM (tmpfs, ramfs, zram, brd's /dev/ramN) or a dead end
 * is reached. Shared by the directory target's refusal, the drive list
 * and the raw-device target's result. */
#ifndef DMK_STORAGE_LINUX_H
#define DMK_STORAGE_LINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "dmk-mountinfo.h"
#include "dmk-platform.h"

/* The answer: what the storage is (DMK_STORAGE_DISK, _RAM or _UNKNOWN;
 * when several devices are under one, RAM wins over unknown over disk)
 * and the chain that led there, for people:
 * "ext4 on /dev/loop3, whose backing file /dev/shm/a.img is on tmpfs". */
typedef struct {
    DmkStorage kind;
    char chain[768];
    /* The first loop device on the way down that does buffered I/O on
     * its backing file (sysfs loop/dio 0, losetup's default): "loop3",
     * "" for none. Its numbers are the page cache's as much as the
     * drive's (results.md, flag "cached"). */
    char cached_loop[32];
    bool cached_over_device; /* its backing is a block device, not a file */
} DmkLinuxStorage;

/* The storage under the block device dev (a partition, loop, zram, dm,
 * md, a disk). root is "" for the system; a test may give a fake tree
 * with sys/ and proc/ under it. */
void dmk_linux_storage_of_dev(const char *root, dev_t dev, DmkLinuxStorage *out);

/* The storage under the file system that holds path (a directory or a
 * file). */
void dmk_linux_storage_of_path(const char *root, const char *path, DmkLinuxStorage *out);

/* Where path, on a passthrough FUSE file system whose mount names its
 * source directory (bindfs SRC MNT), really is: MNT/a/f is SRC/a/f.
 * False when path is on no such file system. For messages about files
 * the FUSE server may leave in SRC. */
bool dmk_linux_fuse_source_of(const char *path, char *buf, size_t len);

/* The storage under the file system of one mountinfo line (the drive
 * list has the line, not a path inside it). */
void dmk_linux_storage_of_mount(const char *root, const DmkMountLine *m, DmkLinuxStorage *out);

/* What a loop device (kernel name "loop3") sits on, for the walk above
 * and for the raw-device guard (which refuses a write when another user
 * shares the backing file). path is sysfs's loop/backing_file (it may
 * end in " (deleted)", or be another mount namespace's path); where
 * /dev/NAME answers LOOP_GET_STATUS64 the loop driver's own record of
 * the file's device and inode is the truth. False when not attached
 * (no loop/ directory in sysfs); true with path "" and path_errno set
 * when attached but the name cannot be read (ENAMETOOLONG). */
typedef struct {
    char path[4096];
    bool known;     /* the identity below is known */
    bool path_ok;   /* path names that very file here (stat agrees) */
    bool is_device; /* the backing is a block device, rdev */
    dev_t rdev;
    dev_t fs_dev; /* the backing file's (or device node's) file system and inode */
    ino_t ino;
    int path_errno; /* why loop/backing_file could not be read; 0 when it was */
} DmkLinuxLoopBacking;

bool dmk_linux_loop_backing(const char *root, const char *name, DmkLinuxLoopBacking *b);

#endif
