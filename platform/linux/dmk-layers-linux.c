/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where a file's data really is. The same file can be seen through
 * layers that give it another device number: an overlay shows its upper
 * or lower layer's file, a passthrough FUSE mount (bindfs) shows its
 * source directory's file, each under its own anonymous device. Two loop
 * devices over the two views share one file's blocks, so the write guard
 * compares files by the identity at the bottom of the layers. */
#define _GNU_SOURCE
#include "dmk-i18n.h"
#include "dmk-layers-linux.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "dmk-mountinfo.h"

/* How deep layers may stack before the walk stops (an overlay over a
 * bindfs over an overlay ...). */
#define MAX_LAYERS 16

#define OVERLAYFS_MAGIC_ 0x794c7630
#define FUSE_MAGIC_      0x65735546

typedef struct {
    char mnt[PATH_MAX];
    char root[PATH_MAX]; /* the mount's root within its file system (bind mounts) */
    DmkMountLine m;
} Mount;

/* The mount that holds path (its device is the file's), longest mount
 * point first, as the kernel resolves it. */
static bool mount_of(const char *root, const char *path, dev_t dev, Mount *out)
{
    char mi[PATH_MAX], *line = NULL;
    size_t cap = 0, best = 0;
    bool found = false;
    snprintf(mi, sizeof mi, "%s/proc/self/mountinfo", root);
    FILE *f = fopen(mi, "re");
    while (f && getline(&line, &cap, f) > 0) {
        DmkMountLine m;
        /* A line with a cut field is left out: the file's mount is then
         * not found, and the statfs below refuses an overlay or FUSE. */
        if (!dmk_mountinfo_parse(line, &m) || m.fields_cut || makedev(m.major, m.minor) != dev)
            continue;
        size_t n = strlen(m.mnt);
        bool under = strcmp(m.mnt, "/") == 0 ||
                     (strncmp(path, m.mnt, n) == 0 && (path[n] == '/' || path[n] == '\0'));
        if (!under || (found && n < best))
            continue;
        snprintf(out->mnt, sizeof out->mnt, "%s", m.mnt);
        snprintf(out->root, sizeof out->root, "%s", m.root);
        out->m = m;
        best = n;
        found = true;
    }
    free(line);
    if (f)
        fclose(f);
    return found;
}

/* path's place within its file system: the bind root, then what follows
 * the mount point ("/" + "sub/img"). */
static void rel_path(const Mount *mt, const char *path, char *out, size_t len)
{
    const char *rest = strcmp(mt->mnt, "/") == 0 ? path : path + strlen(mt->mnt);
    snprintf(out, len, "%s%s%s", strcmp(mt->root, "/") == 0 ? "" : mt->root,
             rest[0] == '/' ? "" : "/", rest);
}

/* Why a layer could not be followed down: the file may then be any file
 * of the layers below, so its identity is unknown (the guard refuses). */
static bool cannot_follow(DmkFileIdentity *id, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool cannot_follow(DmkFileIdentity *id, const char *fmt, ...)
{
    va_list ap;
    id->unknown = true;
    va_start(ap, fmt);
    /* Translated here: why reaches only the guard's refusal, never a file. */
    vsnprintf(id->why, sizeof id->why, DMK_(fmt), ap);
    va_end(ap);
    return false;
}

/* A layer path as the walk can use it: absolute (the kernel prints
 * layer paths as they were given, and a relative one was resolved
 * against the mounting process's directory, which the kernel does not
 * keep), unescaped. */
static bool usable_layer(const Mount *mt, char *layer, DmkFileIdentity *id)
{
    dmk_mountinfo_unescape(layer);
    if (layer[0] != '/')
        return cannot_follow(
            id,
            DMK_N_("it is seen through the overlay at %.600s, whose layer path \"%.600s\" "
                   "is relative (resolved from a directory the kernel does not record)"),
            mt->mnt, layer);
    return true;
}

/* The file at rel in one layer list "a:b" ("a::b": b data-only), top
 * first: 1 found (its path in out), 0 not in these layers, -1 unknown. */
static int in_list(const Mount *mt, char *list, const char *rel, char *out, size_t len,
                   DmkFileIdentity *id)
{
    struct stat st;
    char *save = NULL;
    for (char *l = strtok_r(list, ":", &save); l; l = strtok_r(NULL, ":", &save)) {
        char cand[PATH_MAX * 3];
        if (!usable_layer(mt, l, id))
            return -1;
        int n = snprintf(cand, sizeof cand, "%s%s", l, rel);
        if (n < 0 || (size_t)n >= sizeof cand) {
            cannot_follow(id,
                          DMK_N_("it is seen through the overlay at %.600s, whose layer path is "
                                 "too long to follow"),
                          mt->mnt);
            return -1;
        }
        if (lstat(cand, &st) != 0)
            continue;
        if (realpath(cand, out) && strlen(out) < len)
            return 1; /* the top layer that has it holds its data */
        cannot_follow(id,
                      DMK_N_("it is seen through the overlay at %.600s, and its layer file %.600s "
                             "cannot be resolved"),
                      mt->mnt, cand);
        return -1;
    }
    return 0;
}

/* The top layer of the overlay that has rel: its path in out. Layers top
 * first: upperdir, then each lowerdir (the old "lowerdir=a:b" form and
 * the repeated "lowerdir+=" form), as many as there are. opts is a
 * writable copy of all the options (cut into pieces here). */
static bool in_layers(const Mount *mt, char *opts, const char *rel, char *out, size_t len,
                      DmkFileIdentity *id)
{
    size_t n = 1;
    for (const char *c = opts; *c; c++)
        n += *c == ',';
    char **opt = calloc(n, sizeof *opt), *save = NULL, *upper = NULL;
    if (!opt)
        return cannot_follow(id,
                             DMK_N_("it is seen through the overlay at %.600s, and there was no "
                                    "memory to read its layers"),
                             mt->mnt);
    size_t k = 0;
    bool meta = false;
    for (char *o = strtok_r(opts, ",", &save); o && k < n; o = strtok_r(NULL, ",", &save)) {
        opt[k++] = o;
        if (strncmp(o, "upperdir=", 9) == 0)
            upper = o + 9;
        /* Metadata-only copy-up leaves the data in a lower (or data-only)
         * layer under an upper file that has none: the top layer that has
         * the path would be the wrong file. */
        meta = meta || strcmp(o, "metacopy=on") == 0 || strncmp(o, "datadir+=", 9) == 0;
    }
    int found = meta ? -1 : 0;
    if (meta)
        cannot_follow(id,
                      DMK_N_("it is seen through the overlay at %.600s, whose files may keep their "
                             "data in another layer (metacopy)"),
                      mt->mnt);
    if (found == 0 && upper)
        found = in_list(mt, upper, rel, out, len, id);
    for (size_t i = 0; found == 0 && i < k; i++) {
        if (strncmp(opt[i], "lowerdir=", 9) == 0)
            found = in_list(mt, opt[i] + 9, rel, out, len, id);
        else if (strncmp(opt[i], "lowerdir+=", 10) == 0)
            found = in_list(mt, opt[i] + 10, rel, out, len, id);
    }
    free(opt);
    if (found == 0)
        cannot_follow(
            id,
            DMK_N_("it is seen through the overlay at %.600s, and no layer it names has the file"),
            mt->mnt);
    return found == 1;
}

/* One step down: the path of the same file one layer below. False at
 * the bottom (a plain file system, or a FUSE mount that keeps its
 * storage to itself), and false with id->unknown where a layer is there
 * but cannot be followed. */
static bool step_down(const char *root, const Mount *mt, const char *rel, char *out, size_t len,
                      DmkFileIdentity *id)
{
    struct stat st;
    if (strcmp(mt->m.fstype, "overlay") == 0) {
        /* All the options, however long: a cut one would lose layers. */
        char *opts = dmk_mountinfo_super_opts(root, &mt->m);
        if (!opts)
            return cannot_follow(id,
                                 DMK_N_("it is seen through the overlay at %.600s, whose layer "
                                        "options cannot be read whole"),
                                 mt->mnt);
        bool ok = in_layers(mt, opts, rel, out, len, id);
        free(opts);
        return ok;
    }
    /* A FUSE mount whose source is a directory passes it through (bindfs
     * names its source so); others keep their storage to themselves. */
    if (strncmp(mt->m.fstype, "fuse", 4) == 0 && mt->m.source[0] == '/' &&
        stat(mt->m.source, &st) == 0 && S_ISDIR(st.st_mode)) {
        char cand[PATH_MAX * 3];
        int n = snprintf(cand, sizeof cand, "%s%s", mt->m.source, rel);
        if (n > 0 && (size_t)n < sizeof cand && stat(cand, &st) == 0 && realpath(cand, out) &&
            strlen(out) < len)
            return true;
        return cannot_follow(
            id,
            DMK_N_("it is seen through the FUSE mount at %.600s, whose source %.600s "
                   "does not show the file at the same place"),
            mt->mnt, mt->m.source);
    }
    return false;
}

bool dmk_linux_file_identity(const char *root, const char *path, DmkFileIdentity *id)
{
    char cur[PATH_MAX], next[PATH_MAX];
    struct stat st;
    memset(id, 0, sizeof *id);
    if (!root)
        root = "";
    if (!realpath(path, cur) || stat(cur, &st) != 0)
        return false;
    for (int depth = 0;; depth++) {
        Mount mt;
        char rel[PATH_MAX * 2];
        if (!mount_of(root, cur, st.st_dev, &mt)) {
            /* No line for it (one too long to parse, a btrfs subvolume's
             * own device): a layer that mountinfo does not describe
             * cannot be followed. */
            struct statfs fs;
            if (statfs(cur, &fs) == 0 &&
                (fs.f_type == OVERLAYFS_MAGIC_ || fs.f_type == FUSE_MAGIC_))
                cannot_follow(id,
                              fs.f_type == FUSE_MAGIC_
                                  ? DMK_N_("it is on a FUSE file system whose mount is not listed "
                                           "readably in mountinfo")
                                  : DMK_N_("it is on an overlay whose mount is not listed readably "
                                           "in mountinfo"));
            break;
        }
        if (depth == MAX_LAYERS) {
            /* Still a layer to go: a cycle, or deeper than any real stack. */
            if (strcmp(mt.m.fstype, "overlay") == 0 || strncmp(mt.m.fstype, "fuse", 4) == 0)
                cannot_follow(id,
                              DMK_N_("it is seen through more than %d layers, the last at %.600s"),
                              MAX_LAYERS, mt.mnt);
            break;
        }
        rel_path(&mt, cur, rel, sizeof rel);
        if (!step_down(root, &mt, rel, next, sizeof next, id))
            break;
        if (stat(next, &st) != 0) {
            cannot_follow(id, DMK_N_("its layer file %.600s cannot be read"), next);
            break;
        }
        if (strncmp(mt.m.fstype, "fuse", 4) == 0 && !id->via_fuse)
            snprintf(id->fuse_mnt, sizeof id->fuse_mnt, "%s", mt.mnt);
        id->via_fuse = id->via_fuse || strncmp(mt.m.fstype, "fuse", 4) == 0;
        snprintf(cur, sizeof cur, "%s", next);
        id->layered = true;
    }
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    snprintf(id->path, sizeof id->path, "%s", cur);
    return true;
}
