/* Where a file's data really is. The same file can be seen through
 * layers that give it another device number: an overlay shows its upper
 * or lower layer's file, a passthrough FUSE mount (bindfs) shows its
 * source directory's file, each under its own anonymous device. Two loop
 * devices over the two views share one file's blocks, so the write guard
 * compares files by the identity at the bottom of the layers. */
#define _GNU_SOURCE
#include "dmk-layers-linux.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "dmk-mountinfo.h"

/* How deep layers may stack before the walk stops (an overlay over a
 * bindfs over an overlay ...). */
#define MAX_LAYERS 16

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
        if (!dmk_mountinfo_parse(line, &m) || makedev(m.major, m.minor) != dev)
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

/* An overlay's layers, top first: upperdir, then each lowerdir (the old
 * "lowerdir=a:b" form and the new repeated "lowerdir+=" form). */
static int overlay_layers(const char *opts, char layers[][PATH_MAX], int max)
{
    char copy[sizeof((DmkMountLine *)0)->super_opts], *save = NULL, upper[PATH_MAX] = "";
    int n = 0;
    snprintf(copy, sizeof copy, "%s", opts);
    for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        if (strncmp(o, "upperdir=", 9) == 0)
            snprintf(upper, sizeof upper, "%s", o + 9);
    }
    if (upper[0] && n < max)
        snprintf(layers[n++], PATH_MAX, "%s", upper);
    snprintf(copy, sizeof copy, "%s", opts);
    for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
        const char *v = strncmp(o, "lowerdir=", 9) == 0     ? o + 9
                        : strncmp(o, "lowerdir+=", 10) == 0 ? o + 10
                                                            : NULL;
        char *s2 = NULL, list[PATH_MAX];
        snprintf(list, sizeof list, "%s", v ? v : "");
        for (char *l = v ? strtok_r(list, ":", &s2) : NULL; l && n < max;
             l = strtok_r(NULL, ":", &s2))
            snprintf(layers[n++], PATH_MAX, "%s", l);
    }
    for (int i = 0; i < n; i++)
        dmk_mountinfo_unescape(layers[i]);
    return n;
}

/* One step down: the path of the same file one layer below, or false. */
static bool step_down(const Mount *mt, const char *rel, char *out, size_t len)
{
    struct stat st;
    if (strcmp(mt->m.fstype, "overlay") == 0) {
        char layers[8][PATH_MAX];
        int n = overlay_layers(mt->m.super_opts, layers, 8);
        for (int i = 0; i < n; i++) {
            char cand[PATH_MAX * 3];
            snprintf(cand, sizeof cand, "%.4095s%.8191s", layers[i], rel);
            if (lstat(cand, &st) == 0 && realpath(cand, out))
                return true; /* the top layer that has it holds its data */
        }
        return false;
    }
    /* A FUSE mount whose source is a directory passes it through (bindfs
     * names its source so); others keep their storage to themselves. */
    if (strncmp(mt->m.fstype, "fuse", 4) == 0 && mt->m.source[0] == '/' &&
        stat(mt->m.source, &st) == 0 && S_ISDIR(st.st_mode)) {
        char cand[PATH_MAX * 3];
        snprintf(cand, sizeof cand, "%.1023s%.8191s", mt->m.source, rel);
        return stat(cand, &st) == 0 && realpath(cand, out) && strlen(out) < len;
    }
    return false;
}

bool dmk_linux_file_identity(const char *root, const char *path, DmkFileIdentity *id)
{
    char cur[PATH_MAX], next[PATH_MAX];
    struct stat st;
    memset(id, 0, sizeof *id);
    if (!realpath(path, cur) || stat(cur, &st) != 0)
        return false;
    for (int depth = 0; depth < MAX_LAYERS; depth++) {
        Mount mt;
        char rel[PATH_MAX * 2];
        if (!mount_of(root ? root : "", cur, st.st_dev, &mt))
            break;
        rel_path(&mt, cur, rel, sizeof rel);
        if (!step_down(&mt, rel, next, sizeof next) || stat(next, &st) != 0)
            break;
        id->via_fuse = id->via_fuse || strncmp(mt.m.fstype, "fuse", 4) == 0;
        snprintf(cur, sizeof cur, "%s", next);
        id->layered = true;
    }
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    snprintf(id->path, sizeof id->path, "%s", cur);
    return true;
}
