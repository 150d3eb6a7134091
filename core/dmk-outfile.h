/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A file the program writes for the user (a result, a chart, a
 * screenshot): never replaced in place. A regular file is written to a
 * temporary file in the same directory (nameless, O_TMPFILE, where the
 * file system can), flushed to disk and renamed over the old one only
 * when complete; on any failure the old file stays as it was and the
 * temporary one is removed. Before that, dmk_outfile_begin proves the
 * directory lets a result be renamed into place (docs/results.md). "-" and any path that is the
 * process's stdout (/dev/stdout, /dev/fd/1) write to stdout; a device or
 * a pipe with a reader (/dev/null, >(...)) is written as it is and never
 * removed; a FIFO with no reader, a block device or a socket is refused
 * at once. A symbolic link is followed: its final target is replaced, the
 * link kept. A file with other hard links gets a new inode under this
 * name: the other names keep the old content (docs/results.md). */
#ifndef DMK_OUTFILE_H
#define DMK_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "dmk-error.h"
#include "dmk-platform.h"

typedef enum {
    DMK_OUT_NONE = 0, /* no path given */
    DMK_OUT_STDOUT,   /* "-", or a path that is stdout */
    DMK_OUT_DIRECT,   /* a device or a pipe: written as it is */
    DMK_OUT_REPLACE,  /* a regular file, new or replaced by rename */
} DmkOutKind;

typedef struct {
    const char *path; /* as the user named it, for messages */
    DmkOutKind kind;
    DmkFileInfo info;
    FILE *f; /* while open */
    /* DMK_OUT_REPLACE: the temporary file's name; "" when none, or while
     * it has no name yet (O_TMPFILE: dmk_os_temp_beside) */
    char tmp[4096];
} DmkOutFile;

/* Checks path (NULL: none) and sets o up without creating, truncating or
 * replacing anything; a device or a pipe is opened now (so a FIFO with no
 * reader is refused in a second, not after a benchmark). */
int dmk_outfile_check(DmkOutFile *o, const char *path, DmkError *err);

/* Whether a and b name the same file under different spellings ("F" and
 * "./F", a link and its target, two hard links; stdout twice; on
 * Windows names that differ in case). Two new files whose names differ
 * only in ASCII case count as the same too: on a file system that
 * ignores case they would be. */
bool dmk_outfile_same(const DmkOutFile *a, const DmkOutFile *b);

/* Whether the output o (checked) would replace the existing file input
 * (a chart's CSV, a window's --open file): the same file by identity
 * (device and inode; on Windows volume serial and file index), or by
 * canonical path where identity is unknown. Identity cannot be known
 * across a passthrough FUSE mount (bindfs): docs/faults.md. */
bool dmk_outfile_is_input(const DmkOutFile *o, const char *input);

/* Opens o for writing: a test file made, renamed and removed in the
 * target's directory (so a directory where the result could not be
 * renamed into place fails now), then the temporary file of a regular
 * file, kept open. o->f. Called before a run by drivemark-cli. */
int dmk_outfile_begin(DmkOutFile *o, DmkError *err);

/* Makes what was written the file: flush, sync, rename over the old one.
 * On failure the old file is kept (the message says so) and the
 * temporary one is gone. Always leaves o closed. */
int dmk_outfile_commit(DmkOutFile *o, DmkError *err);

/* Gives up: closes o; a temporary file is removed, the old file kept. */
void dmk_outfile_abort(DmkOutFile *o);

/* Gives up after the write into o failed with err: dmk_outfile_abort,
 * and err says that the old file was kept (or that none was created). */
void dmk_outfile_fail(DmkOutFile *o, DmkError *err);

/* The whole cycle for one file: check, begin, write(f, ctx, err), commit
 * (or abort when write fails). */
int dmk_outfile_write(const char *path, int (*write)(FILE *f, void *ctx, DmkError *err), void *ctx,
                      DmkError *err);

#endif
