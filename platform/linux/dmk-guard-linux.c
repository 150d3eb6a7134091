/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The raw-device write guard: before a write, find everything that shares
 * storage with the device and refuse when any of it is in use.
 *
 * Names alone are not enough. Loop devices register no holder and take
 * no exclusive claim on what they sit on, so a second loop device on the
 * image of a mounted one, a loop device over a mounted partition, or a
 * partition under a mounted loop device all look unused by name and by
 * O_EXCL. So the guard builds the device's storage graph:
 *
 *   down: what the device's data really lives on. A partition lies on
 *         its disk, a loop device on its backing file or device, a dm or
 *         md device on its slaves, a zram device on its writeback device,
 *         an nbd device on what its local server has open; followed
 *         recursively.
 *   up:   everything stacked on any of that: partitions, holders (dm,
 *         md), loop devices over the same device or the same file (by
 *         device and inode, not path), zram writeback users; recursively.
 *
 * A write is refused when any node is mounted (by device number, source
 * node or, for files, the same inode), used as swap, held, used by
 * another loop device, a file open in some process, or a block device
 * that the kernel reports claimed (an O_EXCL probe catches users in other
 * mount namespaces). The sibling partitions of a partition's own disk are
 * not followed unless their sectors overlap it: the kernel adds a table's
 * partitions without checking overlap (an isohybrid image's EFI partition
 * lies inside the partition that covers the whole image), so an
 * overlapping sibling is a node like any other. The message names the
 * user and the chain that links it to the target. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-i18n.h"
#include "dmk-drive-linux.h"
#include "dmk-layers-linux.h"
#include "dmk-mountinfo.h"
#include "dmk-storage-linux.h"
#include "dmk-target-linux.h"

/* Room for a disk's partitions and what is stacked on and under it; a
 * graph larger than this is refused rather than half checked. */
#define MAX_NODES   512
#define MAX_STACKED 1024

typedef enum { NODE_BLK, NODE_FILE } NodeKind;

/* How a node was reached from its parent (parent -> node). */
typedef enum {
    REL_TARGET,    /* the device being written */
    REL_PARTITION, /* node is a partition of parent */
    REL_WHOLE,     /* parent is a partition of node (a disk) */
    REL_BACKING,   /* parent (loop, zram) stores its data in node */
    REL_SLAVE,     /* parent (dm, md) is built on node */
    REL_STACKED,   /* node (another loop or zram) stores its data in parent */
    REL_HOLDER,    /* node (dm, md) holds parent */
    REL_OVERLAP,   /* node is a sibling partition whose sectors overlap parent's */
} Rel;

typedef struct {
    NodeKind kind;
    dev_t dev;            /* block: its device number; file: st_dev of the file */
    ino_t ino;            /* file only */
    char name[1024];      /* block: "loop3p1" (/dev/<name>); file: its path */
    char sysfs[PATH_MAX]; /* block: its directory in sysfs (realpath's size) */
    int parent;
    Rel rel;
    bool down;    /* part of the storage the write reaches */
    bool partial; /* a disk reached from one of its partitions: siblings skipped */
    bool opaque;  /* a holder known only by name: refused, not followed */
} Node;

/* A loop or zram device and where it stores its data. */
typedef struct {
    dev_t dev;
    char name[64];
    bool known;   /* false: what it sits on could not be learnt */
    bool on_file; /* backing is a file (bdev, bino) rather than a device (bdev) */
    dev_t bdev;
    ino_t bino;
    char path[1024];         /* the backing path as the kernel names it */
    bool via_fuse;           /* the file is seen through a passthrough FUSE mount */
    char fuse_mnt[PATH_MAX]; /* that mount's mount point: its server may hold the file */
} Stacked;

typedef struct {
    const char *root;   /* "" for the system; a fake tree in unit tests */
    const char *target; /* the device as the user named it */
    Node nodes[MAX_NODES];
    int n;
    Stacked stacked[MAX_STACKED];
    int nstacked;
    bool too_many_stacked; /* more loop/zram devices than the table holds */
    /* The target's own backing file is seen through a passthrough FUSE
     * mount (bindfs) at fuse_mnt, whose server holds the file open by
     * design; fuse_mnt is "" when there is none, or several. */
    bool via_fuse;
    char fuse_mnt[PATH_MAX];
    bool held; /* this process holds the target open with O_EXCL */
    /* Listing (dmk_linux_device_usage): the target itself is probed for
     * a claim too (a run's own O_EXCL open does that otherwise), and the
     * per-process scan of open files, whose cost grows with processes
     * times devices and which can wait on a dead network mount, is left
     * to the write guard at Run. */
    bool listing;
    /* Where a refusal also puts its short form for a device list, "mounted
     * at / (vda1)"; NULL when no one asks. Pointed to: the checks see the
     * graph const. */
    char *use;
    size_t use_len;
} Graph;

static bool read_devnum(const char *path, dev_t *out)
{
    char line[32];
    unsigned ma, mi;
    if (!dmk_linux_read_line(path, line, sizeof line) || sscanf(line, "%u:%u", &ma, &mi) != 2)
        return false;
    *out = makedev(ma, mi);
    return true;
}

/* ---- what loop and zram devices sit on ------------------------------------ */

/* A zram device's writeback device, by the path sysfs names. */
static bool backing_by_path(Stacked *st)
{
    struct stat bs;
    if (st->path[0] != '/' || stat(st->path, &bs) != 0 || !S_ISBLK(bs.st_mode))
        return false;
    st->bdev = bs.st_rdev;
    return true;
}

/* A loop device's backing, as the loop driver records it
 * (dmk_linux_loop_backing: the file's device and inode, or the device).
 * Not attached: false with *attached false. */
static bool loop_backing(const Graph *g, const char *name, Stacked *st, bool *attached)
{
    DmkLinuxLoopBacking b;
    DmkFileIdentity id;
    *attached = dmk_linux_loop_backing(g->root, name, &b);
    if (!*attached)
        return false;
    if (!b.path_errno)
        snprintf(st->path, sizeof st->path, "%.1023s", b.path);
    else if (!b.known)
        snprintf(st->path, sizeof st->path,
                 DMK_("unknown: its loop/backing_file in sysfs cannot be read (%s), and the "
                      "loop driver did not say"),
                 strerror(b.path_errno));
    else /* the loop driver's record: a name for the chain */
        snprintf(st->path, sizeof st->path,
                 DMK_("inode %llu on device %u:%u (its name is unreadable)"),
                 (unsigned long long)b.ino, major(b.fs_dev), minor(b.fs_dev));
    if (!b.known)
        return false;
    st->on_file = !b.is_device;
    st->bdev = b.is_device ? b.rdev : b.fs_dev;
    st->bino = b.ino;
    /* The same file seen through an overlay or bindfs has another device
     * number: compare files by what lies under the layers. */
    if (st->on_file && b.path_ok && dmk_linux_file_identity(g->root, b.path, &id)) {
        if (id.unknown) {
            /* Seen through a layer that cannot be followed: the view's
             * identity is not the file's, and any file below may be it. */
            snprintf(st->path, sizeof st->path, "%.300s; %.700s", b.path, id.why);
            return false;
        }
        snprintf(st->fuse_mnt, sizeof st->fuse_mnt, "%s", id.fuse_mnt);
        st->bdev = id.dev;
        st->bino = id.ino;
        st->via_fuse = id.via_fuse;
    }
    return true;
}

static Stacked *new_stacked(Graph *g, const char *name)
{
    if (g->nstacked >= MAX_STACKED) {
        g->too_many_stacked = true; /* refused: never half checked */
        return NULL;
    }
    Stacked *st = &g->stacked[g->nstacked];
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%.63s", name);
    return st;
}

/* An attached device whose device number cannot be read matches no node:
 * it stays unknown, and the write is refused rather than it dropped. */
static void stacked_devnum(const Graph *g, Stacked *st)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/sys/block/%s/dev", g->root, st->name);
    if (!read_devnum(path, &st->dev)) {
        st->known = false;
        snprintf(st->path, sizeof st->path, DMK_("its device number (%.900s) cannot be read"),
                 path);
    }
}

/* A loop device is attached while sysfs has its loop/ directory, whatever
 * loop/backing_file says (its read fails for a path over a page). */
static void add_loop(Graph *g, const char *name)
{
    Stacked st;
    bool attached;
    memset(&st, 0, sizeof st);
    snprintf(st.name, sizeof st.name, "%.63s", name);
    st.known = loop_backing(g, name, &st, &attached);
    if (!attached)
        return; /* nothing attached */
    Stacked *slot = new_stacked(g, name);
    if (!slot)
        return;
    *slot = st;
    stacked_devnum(g, slot);
    g->nstacked++;
}

static void add_zram(Graph *g, const char *name)
{
    char path[PATH_MAX], line[1024];
    snprintf(path, sizeof path, "%s/sys/block/%s/backing_dev", g->root, name);
    if (!dmk_linux_read_line(path, line, sizeof line) || strcmp(line, "none") == 0 || !line[0])
        return; /* no writeback device (or no writeback in this kernel) */
    Stacked *st = new_stacked(g, name);
    if (!st)
        return;
    snprintf(st->path, sizeof st->path, "%s", line);
    st->known = backing_by_path(st);
    stacked_devnum(g, st);
    g->nstacked++;
}

static void list_stacked(Graph *g)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/sys/block", g->root);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "loop", 4) == 0)
            add_loop(g, e->d_name);
        else if (strncmp(e->d_name, "zram", 4) == 0)
            add_zram(g, e->d_name);
    }
    closedir(d);
}

static const Stacked *stacked_of(const Graph *g, dev_t dev)
{
    for (int i = 0; i < g->nstacked; i++)
        if (g->stacked[i].dev == dev)
            return &g->stacked[i];
    return NULL;
}

/* ---- the graph ------------------------------------------------------------- */

static int find_node(const Graph *g, NodeKind kind, dev_t dev, ino_t ino)
{
    for (int i = 0; i < g->n; i++)
        if (!g->nodes[i].opaque && g->nodes[i].kind == kind && g->nodes[i].dev == dev &&
            (kind == NODE_BLK || g->nodes[i].ino == ino))
            return i;
    return -1;
}

static int too_big(const Graph *g, DmkError *err)
{
    return dmk_error_set(err, DMK_E_LIMIT, 0,
                         "refusing to write to %s: more than %d devices and files share its "
                         "storage, too many to check",
                         g->target, MAX_NODES);
}

/* Adds the block device dev (once), reached from parent by rel; its
 * sysfs directory is dir where the caller found it, else looked up. */
static int add_blk_at(Graph *g, dev_t dev, const char *dir, int parent, Rel rel, bool down,
                      DmkError *err)
{
    if (find_node(g, NODE_BLK, dev, 0) >= 0)
        return DMK_OK;
    if (g->n >= MAX_NODES)
        return too_big(g, err);
    char link[PATH_MAX];
    Node *nd = &g->nodes[g->n];
    snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", g->root, major(dev), minor(dev));
    if (!realpath(dir ? dir : link, nd->sysfs))
        return dmk_error_os(err, DMK_E_IO, errno,
                            "refusing to write to %s: the entry in sysfs of a device that shares "
                            "its storage (%s) cannot be read, so its users cannot be checked",
                            g->target, link);
    const char *slash = strrchr(nd->sysfs, '/');
    /* A kernel name is short (DISK_NAME_LEN); the bound keeps -O0's
     * -Wformat-truncation quiet, which cannot know it. */
    snprintf(nd->name, sizeof nd->name, "%.*s", (int)sizeof nd->name - 1,
             slash ? slash + 1 : nd->sysfs);
    nd->kind = NODE_BLK;
    nd->dev = dev;
    nd->parent = parent;
    nd->rel = rel;
    nd->down = down;
    nd->partial = false;
    g->n++;
    return DMK_OK;
}

static int add_blk(Graph *g, dev_t dev, int parent, Rel rel, bool down, DmkError *err)
{
    return add_blk_at(g, dev, NULL, parent, rel, down, err);
}

static int add_file(Graph *g, dev_t dev, ino_t ino, const char *path, int parent, Rel rel,
                    bool down, DmkError *err)
{
    if (find_node(g, NODE_FILE, dev, ino) >= 0)
        return DMK_OK;
    if (g->n >= MAX_NODES)
        return too_big(g, err);
    Node *nd = &g->nodes[g->n++];
    memset(nd, 0, sizeof *nd);
    nd->kind = NODE_FILE;
    nd->dev = dev;
    nd->ino = ino;
    snprintf(nd->name, sizeof nd->name, "%s", path);
    nd->parent = parent;
    nd->rel = rel;
    nd->down = down;
    return DMK_OK;
}

/* A holder whose device number cannot be read still holds: it is
 * refused by name (sysfs listed it), and nothing under it is followed. */
static int add_opaque(Graph *g, const char *name, int parent, DmkError *err)
{
    if (g->n >= MAX_NODES)
        return too_big(g, err);
    Node *nd = &g->nodes[g->n++];
    memset(nd, 0, sizeof *nd);
    snprintf(nd->name, sizeof nd->name, "%s", name);
    nd->parent = parent;
    nd->rel = REL_HOLDER;
    nd->opaque = true;
    return DMK_OK;
}

static bool has_file(const char *dir, const char *name)
{
    char path[PATH_MAX * 4];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* Each entry of a sysfs directory of device names (holders/, slaves/)
 * becomes a node. */
static int add_listed(Graph *g, int i, const char *sub, Rel rel, bool down, DmkError *err)
{
    char dir[PATH_MAX * 2];
    snprintf(dir, sizeof dir, "%s/%s", g->nodes[i].sysfs, sub);
    DIR *d = opendir(dir);
    if (!d)
        return DMK_OK; /* no such directory: nothing listed */
    struct dirent *e;
    int rc = DMK_OK;
    while (rc == DMK_OK && (e = readdir(d)) != NULL) {
        char path[PATH_MAX * 2];
        dev_t dev;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/sys/class/block/%s/dev", g->root, e->d_name);
        if (!read_devnum(path, &dev) && rel == REL_HOLDER) {
            rc = add_opaque(g, e->d_name, i, err);
            continue;
        }
        if (!read_devnum(path, &dev)) {
            rc = dmk_error_set(err, DMK_E_IO, 0,
                               "refusing to write to %s: /dev/%s, which shares its storage, "
                               "cannot be identified (%s unreadable)",
                               g->target, e->d_name, path);
            break;
        }
        rc = add_blk(g, dev, i, rel, down, err);
    }
    closedir(d);
    return rc;
}

/* An nbd device's data lives wherever its server keeps it; a local
 * server (qemu-nbd, nbdkit) has it open: each regular file and block
 * device among the server's descriptors is taken as the nbd device's
 * storage (a log file among them only makes the guard stricter). sysfs's
 * pid is the process that connected the device, though: nbd-client, whose
 * descriptors are sockets, in front of an nbd-server or qemu-nbd that
 * may have a mounted image open. Without a file or device there, what
 * the export is cannot be known, and the write is refused. */
static int add_nbd_backing(Graph *g, int i, DmkError *err)
{
    char path[PATH_MAX * 2], pid[32];
    snprintf(path, sizeof path, "%s/pid", g->nodes[i].sysfs);
    if (strncmp(g->nodes[i].name, "nbd", 3) != 0 || !dmk_linux_read_line(path, pid, sizeof pid))
        return DMK_OK; /* not nbd, or no local server (a remote export) */
    snprintf(path, sizeof path, "%s/proc/%.20s/fd", g->root, pid);
    DIR *d = opendir(path);
    if (!d)
        return dmk_error_os(err, DMK_E_IO, errno,
                            "refusing to write to %s: the files of /dev/%s's server (process "
                            "%s) cannot be listed, so what it stores its data in is unknown",
                            g->target, g->nodes[i].name, pid);
    struct dirent *e;
    int rc = DMK_OK, held = 0;
    while (rc == DMK_OK && (e = readdir(d)) != NULL) {
        char fd[PATH_MAX * 3], real[1024];
        struct stat st;
        snprintf(fd, sizeof fd, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || stat(fd, &st) != 0)
            continue;
        ssize_t n = readlink(fd, real, sizeof real - 1);
        real[n > 0 ? n : 0] = '\0';
        if (S_ISREG(st.st_mode))
            rc = add_file(g, st.st_dev, st.st_ino, real, i, REL_BACKING, true, err);
        else if (S_ISBLK(st.st_mode))
            rc = add_blk(g, st.st_rdev, i, REL_BACKING, true, err);
        held += S_ISREG(st.st_mode) || S_ISBLK(st.st_mode);
    }
    closedir(d);
    if (rc == DMK_OK && held == 0) {
        char comm[64] = "?";
        snprintf(path, sizeof path, "%s/proc/%.20s/comm", g->root, pid);
        dmk_linux_read_line(path, comm, sizeof comm);
        rc = dmk_error_set(err, DMK_E_PERM, 0,
                           "refusing to write to %s: /dev/%s's storage cannot be known: its "
                           "server is another process (process %s (%s), which connected it, "
                           "has no file or device open that could be the export)",
                           g->target, g->nodes[i].name, pid, comm[0] ? comm : "?");
    }
    return rc;
}

/* A partition's first sector and length (sysfs: 512-byte sectors). */
static bool read_extent(const char *dir, unsigned long long *start, unsigned long long *size)
{
    char path[PATH_MAX * 3], line[32], *end;
    snprintf(path, sizeof path, "%s/start", dir);
    if (!dmk_linux_read_line(path, line, sizeof line))
        return false;
    errno = 0;
    *start = strtoull(line, &end, 10);
    if (errno || end == line || *end)
        return false;
    snprintf(path, sizeof path, "%s/size", dir);
    if (!dmk_linux_read_line(path, line, sizeof line))
        return false;
    *size = strtoull(line, &end, 10);
    return !errno && end != line && !*end;
}

static int extent_unknown(const Graph *g, const char *dir, DmkError *err)
{
    const char *name = strrchr(dir, '/');
    return dmk_error_set(err, DMK_E_IO, 0,
                         "refusing to write to %s: where the partition /dev/%s lies on its disk "
                         "cannot be read (%s/start, size), so whether it overlaps the other "
                         "partitions is unknown",
                         g->target, name ? name + 1 : dir, dir);
}

/* The sibling partitions (under disk) whose sectors overlap partition
 * node i: writing i writes into them. They are up nodes: their users
 * refuse the write, but their own siblings are not followed from them. */
static int add_overlapping(Graph *g, int i, const char *disk, DmkError *err)
{
    unsigned long long start, size;
    if (!read_extent(g->nodes[i].sysfs, &start, &size))
        return extent_unknown(g, g->nodes[i].sysfs, err);
    DIR *d = opendir(disk);
    if (!d)
        return dmk_error_os(err, DMK_E_IO, errno,
                            "refusing to write to %s: listing the partitions of /dev/%s's disk "
                            "(%s) failed",
                            g->target, g->nodes[i].name, disk);
    struct dirent *e;
    int rc = DMK_OK;
    while (rc == DMK_OK && (e = readdir(d)) != NULL) {
        char sub[PATH_MAX * 3], path[PATH_MAX * 4];
        unsigned long long s2, n2;
        dev_t dev;
        snprintf(sub, sizeof sub, "%s/%s", disk, e->d_name);
        if (e->d_name[0] == '.' || strcmp(e->d_name, g->nodes[i].name) == 0 ||
            !has_file(sub, "partition"))
            continue;
        if (!read_extent(sub, &s2, &n2)) {
            rc = extent_unknown(g, sub, err);
            break;
        }
        if (size == 0 || n2 == 0 || s2 >= start + size || start >= s2 + n2)
            continue; /* apart: what is on it is not written */
        snprintf(path, sizeof path, "%s/dev", sub);
        if (!read_devnum(path, &dev))
            rc = dmk_error_set(err, DMK_E_IO, 0,
                               "refusing to write to %s: /dev/%s overlaps /dev/%s and cannot be "
                               "identified (%s unreadable)",
                               g->target, e->d_name, g->nodes[i].name, path);
        else
            rc = add_blk_at(g, dev, sub, i, REL_OVERLAP, false, err);
    }
    closedir(d);
    return rc;
}

/* Where node i's data lives: its disk, backing, slaves. */
static int expand_down(Graph *g, int i, DmkError *err)
{
    int rc = DMK_OK;
    if (g->nodes[i].kind == NODE_FILE)
        return DMK_OK; /* a file's own file system is not written through it */
    if (has_file(g->nodes[i].sysfs, "partition")) {
        char disk[PATH_MAX * 2], path[PATH_MAX * 3];
        dev_t dev;
        snprintf(disk, sizeof disk, "%s", g->nodes[i].sysfs);
        *strrchr(disk, '/') = '\0';
        snprintf(path, sizeof path, "%s/dev", disk);
        if (!read_devnum(path, &dev))
            return dmk_error_set(err, DMK_E_IO, 0,
                                 "refusing to write to %s: the disk of /dev/%s cannot be "
                                 "identified (%s unreadable)",
                                 g->target, g->nodes[i].name, path);
        int before = g->n;
        rc = add_blk(g, dev, i, REL_WHOLE, true, err);
        if (rc == DMK_OK && g->n > before)
            g->nodes[before].partial = true;
        if (rc == DMK_OK)
            rc = add_overlapping(g, i, disk, err);
    }
    const Stacked *st = stacked_of(g, g->nodes[i].dev);
    if (st && st->via_fuse) {
        /* Two FUSE mounts on the way: exempt neither server. */
        bool first = !g->via_fuse;
        if (first || strcmp(g->fuse_mnt, st->fuse_mnt) != 0)
            snprintf(g->fuse_mnt, sizeof g->fuse_mnt, "%s", first ? st->fuse_mnt : "");
        g->via_fuse = true;
    }
    if (rc == DMK_OK && st)
        rc = st->on_file ? add_file(g, st->bdev, st->bino, st->path, i, REL_BACKING, true, err)
                         : add_blk(g, st->bdev, i, REL_BACKING, true, err);
    if (rc == DMK_OK)
        rc = add_listed(g, i, "slaves", REL_SLAVE, true, err);
    if (rc == DMK_OK)
        rc = add_nbd_backing(g, i, err);
    return rc;
}

static int add_partitions(Graph *g, int i, DmkError *err)
{
    DIR *d = opendir(g->nodes[i].sysfs);
    if (!d)
        return dmk_error_os(err, DMK_E_IO, errno, "refusing to write to %s: listing %s failed",
                            g->target, g->nodes[i].sysfs);
    struct dirent *e;
    int rc = DMK_OK;
    while (rc == DMK_OK && (e = readdir(d)) != NULL) {
        char sub[PATH_MAX * 2], path[PATH_MAX * 3];
        dev_t dev;
        snprintf(sub, sizeof sub, "%s/%s", g->nodes[i].sysfs, e->d_name);
        if (e->d_name[0] == '.' || !has_file(sub, "partition"))
            continue;
        snprintf(path, sizeof path, "%s/dev", sub);
        if (!read_devnum(path, &dev))
            rc = dmk_error_set(err, DMK_E_LIMIT, 0,
                               "refusing to write to %s: the partition %s cannot be checked",
                               g->target, e->d_name);
        else
            rc = add_blk_at(g, dev, sub, i, REL_PARTITION, false, err);
    }
    closedir(d);
    return rc;
}

/* What is stacked on node i: partitions, holders, loop and zram users. */
static int expand_up(Graph *g, int i, DmkError *err)
{
    int rc = DMK_OK;
    if (g->nodes[i].kind == NODE_BLK && !g->nodes[i].partial)
        rc = add_partitions(g, i, err);
    if (rc == DMK_OK && g->nodes[i].kind == NODE_BLK)
        rc = add_listed(g, i, "holders", REL_HOLDER, false, err);
    for (int k = 0; rc == DMK_OK && k < g->nstacked; k++) {
        const Stacked *st = &g->stacked[k];
        bool on_it = st->known && st->bdev == g->nodes[i].dev &&
                     (g->nodes[i].kind == NODE_FILE ? st->on_file && st->bino == g->nodes[i].ino
                                                    : !st->on_file);
        if (on_it)
            rc = add_blk(g, st->dev, i, REL_STACKED, false, err);
    }
    return rc;
}

/* A loop device whose backing cannot be learnt might sit on anything,
 * this device included: refuse rather than guess. */
static int check_stacked_known(const Graph *g, DmkError *err)
{
    if (g->too_many_stacked)
        return dmk_error_set(err, DMK_E_LIMIT, 0,
                             "refusing to write to %s: there are more than %d loop and zram "
                             "devices, too many to check what they share with it",
                             g->target, MAX_STACKED);
    for (int k = 0; k < g->nstacked; k++)
        if (!g->stacked[k].known)
            return dmk_error_set(err, DMK_E_IO, 0,
                                 "refusing to write to %s: what /dev/%s stores its data in (%s) "
                                 "cannot be identified, so it may share storage with %s",
                                 g->target, g->stacked[k].name, g->stacked[k].path, g->target);
    return DMK_OK;
}

static int build(Graph *g, dev_t dev, DmkError *err)
{
    list_stacked(g);
    if (check_stacked_known(g, err) != DMK_OK)
        return err->code;
    int rc = add_blk(g, dev, -1, REL_TARGET, true, err);
    if (rc != DMK_OK)
        return dmk_error_os(err, DMK_E_IO, err->os_error,
                            "refusing to write to %s: its entry in sysfs cannot be read, so its "
                            "partitions and holders cannot be checked",
                            g->target);
    for (int i = 0; rc == DMK_OK && i < g->n; i++) {
        if (g->nodes[i].opaque)
            continue;
        if (g->nodes[i].down)
            rc = expand_down(g, i, err);
        if (rc == DMK_OK)
            rc = expand_up(g, i, err);
    }
    return rc;
}

/* ---- telling the user --------------------------------------------------- */

/* One step of the chain, "/dev/loop5 stores its data in the file ...":
 * each a whole sentence (the subjects are always devices; what a device
 * stores its data in may be a file). */
static void step_text(const Graph *g, int i, char *buf, size_t len)
{
    const Node *nd = &g->nodes[i], *up = &g->nodes[nd->parent];
    const char *a = up->name, *b = nd->name;
    switch (nd->rel) {
    case REL_PARTITION:
        snprintf(buf, len, DMK_("/dev/%s is a partition of /dev/%s"), b, a);
        break;
    case REL_WHOLE:
        snprintf(buf, len, DMK_("/dev/%s is a partition of /dev/%s"), a, b);
        break;
    case REL_BACKING:
        if (nd->kind == NODE_FILE)
            snprintf(buf, len, DMK_("/dev/%s stores its data in the file %s"), a, b);
        else
            snprintf(buf, len, DMK_("/dev/%s stores its data in /dev/%s"), a, b);
        break;
    case REL_SLAVE:
        snprintf(buf, len, DMK_("/dev/%s is built on /dev/%s"), a, b);
        break;
    case REL_STACKED:
        if (up->kind == NODE_FILE)
            snprintf(buf, len, DMK_("/dev/%s stores its data in the file %s"), b, a);
        else
            snprintf(buf, len, DMK_("/dev/%s stores its data in /dev/%s"), b, a);
        break;
    case REL_OVERLAP:
        snprintf(buf, len, DMK_("/dev/%s overlaps /dev/%s, a partition of the same disk"), a, b);
        break;
    case REL_HOLDER:
    case REL_TARGET:
        buf[0] = '\0';
        break;
    }
}

/* The steps from the target to node i, oldest first, "; "-joined. */
static void chain_text(const Graph *g, int i, char *buf, size_t len)
{
    int path[MAX_NODES], n = 0;
    for (int k = i; k > 0 && n < MAX_NODES; k = g->nodes[k].parent)
        if (g->nodes[k].rel != REL_HOLDER)
            path[n++] = k;
    buf[0] = '\0';
    for (int s = n - 1; s >= 0; s--) {
        char step[1100];
        size_t used = strlen(buf);
        step_text(g, path[s], step, sizeof step);
        snprintf(buf + used, len - used, "%s%s", used ? "; " : "", step);
    }
}

/* What uses the storage, in a whole sentence for each subject a refusal
 * can have: the target itself ("it"), its partition (as the guards
 * always said), another device or a file (which the chain then links to
 * the target); and the short form for a device list. */
typedef enum { SUBJ_IT, SUBJ_PARTITION, SUBJ_DEVICE, SUBJ_FILE, SUBJ_BRIEF, N_SUBJ } Subject;

typedef enum {
    USE_MOUNTED,
    USE_LOG_DEVICE,
    USE_RT_DEVICE,
    USE_JOURNAL_DEVICE,
    USE_BTRFS,
    USE_SWAP,
    USE_HELD,
    USE_LOOP,
    USE_ZRAM,
    USE_KERNEL,
    USE_OPEN,
} Use;

/* Each row's arguments are strings: the use's own, in the order its
 * sentences say, then the subject's name (/dev/<it>, the file's path),
 * which the forms without one leave unread (excess arguments are
 * ignored). */
static const char *const use_sentences[][N_SUBJ] = {
    [USE_MOUNTED] = {DMK_N_("it is mounted at %s"),
                     DMK_N_("its partition /dev/%2$s is mounted at %1$s"),
                     DMK_N_("/dev/%2$s is mounted at %1$s"),
                     DMK_N_("the file %2$s is mounted at %1$s"), DMK_N_("mounted at %s")},
    [USE_LOG_DEVICE] =
        {DMK_N_("it is the external log device of the %s file system mounted at %s"),
         DMK_N_("its partition /dev/%3$s is the external log device of the %1$s file system "
                "mounted at %2$s"),
         DMK_N_("/dev/%3$s is the external log device of the %1$s file system mounted at %2$s"),
         DMK_N_("the file %3$s is the external log device of the %1$s file system mounted at "
                "%2$s"),
         DMK_N_("the external log device of the %s file system mounted at %s")},
    [USE_RT_DEVICE] =
        {DMK_N_("it is the realtime device of the %s file system mounted at %s"),
         DMK_N_("its partition /dev/%3$s is the realtime device of the %1$s file system "
                "mounted at %2$s"),
         DMK_N_("/dev/%3$s is the realtime device of the %1$s file system mounted at %2$s"),
         DMK_N_("the file %3$s is the realtime device of the %1$s file system mounted at %2$s"),
         DMK_N_("the realtime device of the %s file system mounted at %s")},
    [USE_JOURNAL_DEVICE] =
        {DMK_N_("it is the external journal device of the %s file system mounted at %s"),
         DMK_N_("its partition /dev/%3$s is the external journal device of the %1$s file "
                "system mounted at %2$s"),
         DMK_N_("/dev/%3$s is the external journal device of the %1$s file system mounted at "
                "%2$s"),
         DMK_N_("the file %3$s is the external journal device of the %1$s file system mounted "
                "at %2$s"),
         DMK_N_("the external journal device of the %s file system mounted at %s")},
    [USE_BTRFS] =
        {DMK_N_("it is a device of the btrfs file system mounted at %s (from %s)"),
         DMK_N_("its partition /dev/%3$s is a device of the btrfs file system mounted at %1$s "
                "(from %2$s)"),
         DMK_N_("/dev/%3$s is a device of the btrfs file system mounted at %1$s (from %2$s)"),
         DMK_N_("the file %3$s is a device of the btrfs file system mounted at %1$s (from "
                "%2$s)"),
         DMK_N_("a device of the btrfs file system mounted at %s (from %s)")},
    [USE_SWAP] = {DMK_N_("it is in use as swap"), DMK_N_("its partition /dev/%s is in use as swap"),
                  DMK_N_("/dev/%s is in use as swap"), DMK_N_("the file %s is in use as swap"),
                  /* TRANSLATORS: a device list's short form of "in use as swap". */
                  DMK_N_("swap")},
    /* TRANSLATORS: what holds it: a device's name, maybe with its kind, "dm-3
     * (device-mapper "vg-home")" or "md127 (md RAID)". */
    [USE_HELD] = {DMK_N_("it is held by %s"), DMK_N_("its partition /dev/%2$s is held by %1$s"),
                  DMK_N_("/dev/%2$s is held by %1$s"), DMK_N_("the file %2$s is held by %1$s"),
                  DMK_N_("held by %s")},
    [USE_LOOP] = {DMK_N_("it is also used by /dev/%s, a loop device"),
                  DMK_N_("its partition /dev/%2$s is also used by /dev/%1$s, a loop device"),
                  DMK_N_("/dev/%2$s is also used by /dev/%1$s, a loop device"),
                  DMK_N_("the file %2$s is also used by /dev/%1$s, a loop device"),
                  DMK_N_("also used by /dev/%s, a loop device")},
    [USE_ZRAM] = {DMK_N_("it is also used by /dev/%s, a zram device"),
                  DMK_N_("its partition /dev/%2$s is also used by /dev/%1$s, a zram device"),
                  DMK_N_("/dev/%2$s is also used by /dev/%1$s, a zram device"),
                  DMK_N_("the file %2$s is also used by /dev/%1$s, a zram device"),
                  DMK_N_("also used by /dev/%s, a zram device")},
    [USE_KERNEL] = {DMK_N_("it is reported in use by the kernel (an exclusive open failed: "
                           "mounted, held or opened by another program)"),
                    DMK_N_("its partition /dev/%s is reported in use by the kernel (an exclusive "
                           "open failed: mounted, held or opened by another program)"),
                    DMK_N_("/dev/%s is reported in use by the kernel (an exclusive open failed: "
                           "mounted, held or opened by another program)"),
                    DMK_N_("the file %s is reported in use by the kernel (an exclusive open "
                           "failed: mounted, held or opened by another program)"),
                    DMK_N_("in use by the kernel")},
    /* TRANSLATORS: a process's id, then its command's name. */
    [USE_OPEN] = {DMK_N_("it is open in process %s (%s)"),
                  DMK_N_("its partition /dev/%3$s is open in process %1$s (%2$s)"),
                  DMK_N_("/dev/%3$s is open in process %1$s (%2$s)"),
                  DMK_N_("the file %3$s is open in process %1$s (%2$s)"),
                  DMK_N_("open in process %s (%s)")},
};

static Subject subject_of(const Graph *g, int i)
{
    const Node *nd = &g->nodes[i];
    if (i == 0)
        return SUBJ_IT;
    if (nd->parent == 0 && nd->rel == REL_PARTITION)
        return SUBJ_PARTITION;
    return nd->kind == NODE_FILE ? SUBJ_FILE : SUBJ_DEVICE;
}

/* A device list's short form of a use, then which device or file has it. */
static const char *const brief_node[2][2] = {
    /* TRANSLATORS: a device list's short form of a use, then which device or file has it:
     * "mounted at / (vda1)", "swap (file disk.img)". */
    {DMK_N_("%s (%s)"), DMK_N_("%s (file %s)")},
    /* TRANSLATORS: a device list's short form of a use that ends in parentheses, then which
     * device or file has it: "held by dm-3 (device-mapper "x") on loop7p1". */
    {DMK_N_("%s on %s"), DMK_N_("%s on file %s")},
};

/* The table's sentences are not literals the compiler could check:
 * their arguments are strings, which these pass as the rows say. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void use_text(Use u, Subject s, const char *const args[3], char *buf, size_t len)
{
    snprintf(buf, len, DMK_(use_sentences[u][s]), args[0], args[1], args[2]);
}

/* The short form of a refusal, for a device list: what uses the
 * storage and, when it is not the target itself, which node it is. */
static void note_use(const Graph *g, int i, const char *text)
{
    const Node *nd = &g->nodes[i];
    const char *slash = nd->kind == NODE_FILE ? strrchr(nd->name, '/') : NULL;
    size_t n = strlen(text);
    /* "held by dm-3 (device-mapper ...)" has its parentheses already. */
    bool closed = n && text[n - 1] == ')';
    if (i == 0)
        snprintf(g->use, g->use_len, "%s", text);
    else
        snprintf(g->use, g->use_len, DMK_(brief_node[closed][nd->kind == NODE_FILE]), text,
                 slash ? slash + 1 : nd->name);
}
#pragma GCC diagnostic pop

/* How many strings of its own use u's sentences take (a, b). */
static int use_args(Use u)
{
    switch (u) {
    case USE_SWAP:
    case USE_KERNEL:
        return 0;
    case USE_MOUNTED:
    case USE_HELD:
    case USE_LOOP:
    case USE_ZRAM:
        return 1;
    default:
        return 2;
    }
}

/* Refuses the write because node i has use u, whose own strings are a
 * and b (as many as the use takes; NULL for the rest). */
static int refuse(const Graph *g, int i, int os_error, Use u, const char *a, const char *b,
                  DmkError *err)
{
    char what[1500], chain[2048];
    Subject s = subject_of(g, i);
    /* The use's own strings, then the subject's name. */
    const char *args[3] = {"", "", ""}, *own[2] = {a, b};
    int na = use_args(u);
    for (int k = 0; k < na; k++)
        args[k] = own[k] ? own[k] : "";
    args[na] = g->nodes[i].name;
    if (g->use) {
        use_text(u, SUBJ_BRIEF, args, what, sizeof what);
        note_use(g, i, what);
    }
    use_text(u, s, args, what, sizeof what);
    chain[0] = '\0';
    if (s == SUBJ_DEVICE || s == SUBJ_FILE)
        chain_text(g, i, chain, sizeof chain);
    if (chain[0])
        /* TRANSLATORS: %2$s is a whole sentence on what uses the storage, %3$s the steps that
         * link it to the device (%1$s), "; "-joined. */
        return dmk_error_set(err, DMK_E_PERM, os_error,
                             "refusing to write to %1$s: %2$s, and it shares storage with %1$s "
                             "(%3$s)",
                             g->target, what, chain);
    /* TRANSLATORS: %2$s is a whole sentence on what uses the device (%1$s). */
    return dmk_error_set(err, DMK_E_PERM, os_error, "refusing to write to %1$s: %2$s", g->target,
                         what);
}

/* ---- the checks ------------------------------------------------------------ */

/* The file node that path (with its stat st) is, directly or through
 * overlay and bindfs layers. */
static int file_node(const Graph *g, const char *path, const struct stat *st)
{
    int i = find_node(g, NODE_FILE, st->st_dev, st->st_ino);
    DmkFileIdentity id;
    if (i < 0 && dmk_linux_file_identity(g->root, path, &id) && id.layered)
        i = find_node(g, NODE_FILE, id.dev, id.ino);
    return i;
}

/* The node that a path (a mount's source, a swap entry) stands for. */
static int node_of_path(const Graph *g, const char *path)
{
    struct stat st;
    if (path[0] != '/' || stat(path, &st) != 0)
        return -1;
    if (S_ISBLK(st.st_mode))
        return find_node(g, NODE_BLK, st.st_rdev, 0);
    if (S_ISREG(st.st_mode))
        return file_node(g, path, &st);
    return -1;
}

/* Devices a mount uses besides its source, named in its options: xfs's
 * external log and realtime devices, ext4's journal_path. */
static int check_extra_devices(const Graph *g, const DmkMountLine *m, DmkError *err)
{
    static const char *const keys[] = {"logdev=", "rtdev=", "journal_path="};
    static const Use uses[] = {USE_LOG_DEVICE, USE_RT_DEVICE, USE_JOURNAL_DEVICE};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *at = strstr(m->super_opts, keys[k]);
        char dev[256];
        if (!at || (at != m->super_opts && at[-1] != ','))
            continue;
        snprintf(dev, sizeof dev, "%s", at + strlen(keys[k]));
        dev[strcspn(dev, ",")] = '\0';
        dmk_mountinfo_unescape(dev);
        int i = node_of_path(g, dev);
        if (i < 0)
            continue;
        return refuse(g, i, EBUSY, uses[k], m->fstype, m->mnt, err);
    }
    return DMK_OK;
}

static int check_mounts(const Graph *g, DmkError *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", g->root);
    FILE *f = fopen(path, "re");
    if (!f)
        return dmk_error_os(err, DMK_E_IO, errno,
                            "refusing to write to %s: %s cannot be read, so its mounts cannot be "
                            "checked",
                            g->target, path);
    char *line = NULL;
    size_t cap = 0;
    DmkMountLine m;
    int rc = DMK_OK;
    /* getline: an overlay's options can make a line longer than any
     * fixed buffer, and a line cut short would be a mount not checked. */
    while (rc == DMK_OK && getline(&line, &cap, f) > 0) {
        if (!dmk_mountinfo_parse(line, &m))
            continue;
        int i = find_node(g, NODE_BLK, makedev(m.major, m.minor), 0);
        if (i < 0)
            i = node_of_path(g, m.source);
        rc = i >= 0 ? refuse(g, i, EBUSY, USE_MOUNTED, m.mnt, NULL, err)
                    : check_extra_devices(g, &m, err);
    }
    free(line);
    fclose(f);
    return rc;
}

/* A btrfs file system spans devices, but mountinfo names one of them
 * (and an anonymous device number): /sys/fs/btrfs/<fsid>/devices lists
 * them all. A node among them whose file system is mounted is in use. */
static bool btrfs_mount_of(const Graph *g, const dev_t *devs, int n, char *mnt, size_t len,
                           char *source, size_t slen)
{
    char path[PATH_MAX], *line = NULL;
    size_t cap = 0;
    DmkMountLine m;
    bool found = false;
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", g->root);
    FILE *f = fopen(path, "re");
    while (f && !found && getline(&line, &cap, f) > 0) {
        struct stat st;
        if (!dmk_mountinfo_parse(line, &m) || strcmp(m.fstype, "btrfs") != 0 ||
            stat(m.source, &st) != 0 || !S_ISBLK(st.st_mode))
            continue;
        for (int k = 0; k < n && !found; k++)
            found = devs[k] == st.st_rdev;
        if (found) {
            snprintf(mnt, len, "%s", m.mnt);
            snprintf(source, slen, "%s", m.source);
        }
    }
    free(line);
    if (f)
        fclose(f);
    return found;
}

static int check_btrfs_fs(const Graph *g, const char *fsdir, DmkError *err)
{
    char path[PATH_MAX * 3];
    dev_t devs[256];
    int n = 0, hit = -1;
    snprintf(path, sizeof path, "%s/devices", fsdir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && n < 256 && (e = readdir(d)) != NULL) {
        char dev[PATH_MAX * 4];
        snprintf(dev, sizeof dev, "%s/%s/dev", path, e->d_name);
        if (e->d_name[0] != '.' && read_devnum(dev, &devs[n])) {
            int i = find_node(g, NODE_BLK, devs[n], 0);
            hit = hit < 0 ? i : hit;
            n++;
        }
    }
    if (d)
        closedir(d);
    char mnt[600], source[300];
    if (hit < 0 || !btrfs_mount_of(g, devs, n, mnt, sizeof mnt, source, sizeof source))
        return DMK_OK;
    return refuse(g, hit, EBUSY, USE_BTRFS, mnt, source, err);
}

static int check_btrfs(const Graph *g, DmkError *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/sys/fs/btrfs", g->root);
    DIR *d = opendir(path);
    if (!d)
        return DMK_OK; /* no btrfs in this kernel, or none registered */
    struct dirent *e;
    int rc = DMK_OK;
    while (rc == DMK_OK && (e = readdir(d)) != NULL) {
        char fsdir[PATH_MAX * 2];
        if (e->d_name[0] == '.' || strcmp(e->d_name, "features") == 0)
            continue;
        snprintf(fsdir, sizeof fsdir, "%s/%s", path, e->d_name);
        rc = check_btrfs_fs(g, fsdir, err);
    }
    closedir(d);
    return rc;
}

static int check_swaps(const Graph *g, DmkError *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proc/swaps", g->root);
    FILE *f = fopen(path, "re");
    if (!f)
        return DMK_OK; /* a kernel without swap support has none in use */
    char line[4096], name[4096];
    int rc = DMK_OK;
    while (rc == DMK_OK && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
            continue; /* the header line */
        dmk_mountinfo_unescape(name);
        int i = node_of_path(g, name);
        if (i >= 0)
            rc = refuse(g, i, EBUSY, USE_SWAP, NULL, NULL, err);
    }
    fclose(f);
    return rc;
}

/* What a holder is, for people: device-mapper names its devices. */
static void describe_holder(const char *root, const char *holder, char *buf, size_t len)
{
    char path[PATH_MAX], name[128];
    snprintf(path, sizeof path, "%s/sys/class/block/%s/dm/name", root, holder);
    if (dmk_linux_read_line(path, name, sizeof name))
        snprintf(buf, len, "%.60s (device-mapper \"%.120s\")", holder, name);
    else if (strncmp(holder, "md", 2) == 0)
        snprintf(buf, len, "%s (md RAID)", holder);
    else
        snprintf(buf, len, "%s", holder);
}

/* Holders and other loop devices: a user whatever it does right now. */
static int check_stacked_users(const Graph *g, DmkError *err)
{
    for (int i = 1; i < g->n; i++) {
        const Node *nd = &g->nodes[i];
        char h[300];
        if (nd->rel == REL_HOLDER) {
            describe_holder(g->root, nd->name, h, sizeof h);
            return refuse(g, nd->parent, EBUSY, USE_HELD, h, NULL, err);
        }
        if (nd->rel == REL_STACKED) {
            const Stacked *st = stacked_of(g, nd->dev);
            bool zram = st && strncmp(st->name, "zram", 4) == 0;
            return refuse(g, nd->parent, EBUSY, zram ? USE_ZRAM : USE_LOOP, nd->name, NULL, err);
        }
    }
    return DMK_OK;
}

/* The real probe: an O_EXCL open of /dev/<name>, when that node is dev. */
static int probe_claim(const char *name, dev_t dev)
{
    char node[300];
    struct stat st;
    snprintf(node, sizeof node, "/dev/%.200s", name);
    if (stat(node, &st) != 0 || !S_ISBLK(st.st_mode) || st.st_rdev != dev)
        return ENOENT; /* no node of that name here: the lists above are all we have */
    int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

static DmkLinuxClaimProbe claim_probe; /* a test's; NULL: probe_claim */

void dmk_linux_guard_set_claim_probe(DmkLinuxClaimProbe probe)
{
    claim_probe = probe;
}

/* Whether down node i is claimed by the target's own path and nothing
 * else: a dm or md target claims its slaves (and lists itself in their
 * holders/), a zram device claims its writeback device (listing nothing),
 * so their O_EXCL probe fails because of the very device being written.
 * The claim is exclusive: while they hold it, no mount or other claimer
 * can; other holders (listed) were refused already, and plain opens are
 * found in /proc. */
static bool claimed_by_own_chain(const Graph *g, int i)
{
    const Node *nd = &g->nodes[i];
    if (!nd->down || i == 0)
        return false;
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/holders", nd->sysfs);
    DIR *d = opendir(path);
    int listed = 0;
    bool own = true;
    struct dirent *e;
    while (d && own && (e = readdir(d)) != NULL) {
        dev_t dev;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/sys/class/block/%s/dev", g->root, e->d_name);
        int h = read_devnum(path, &dev) ? find_node(g, NODE_BLK, dev, 0) : -1;
        own = h >= 0 && g->nodes[h].down;
        listed++;
    }
    if (d)
        closedir(d);
    if (!own)
        return false;
    if (listed)
        return true;
    const Node *up = &g->nodes[nd->parent];
    return nd->rel == REL_BACKING && up->down && strncmp(up->name, "zram", 4) == 0;
}

/* The kernel's exclusive claim, device by device: what another mount
 * namespace, a dm table or a program holds shows up as EBUSY. The target
 * itself is opened with O_EXCL for the run; a disk reached from one of
 * its partitions is skipped, since a mounted sibling partition claims it
 * too (an overlapping sibling is a node of its own, probed); so is a
 * device that only the target's own chain claims. */
static int check_claims(const Graph *g, DmkError *err)
{
    DmkLinuxClaimProbe probe = claim_probe ? claim_probe : probe_claim;
    if (g->root[0] && !claim_probe)
        return DMK_OK; /* a fake tree has no device nodes */
    for (int i = g->listing ? 0 : 1; i < g->n; i++) {
        const Node *nd = &g->nodes[i];
        if (nd->kind != NODE_BLK || nd->partial || nd->opaque)
            continue;
        /* Held: the kernel refuses to claim a partition of a disk that
         * this process has claimed, and one claimed before would have
         * made that open fail. */
        if (g->held && nd->rel == REL_PARTITION && nd->parent == 0)
            continue;
        if (probe(nd->name, nd->dev) == EBUSY && !claimed_by_own_chain(g, i))
            return refuse(g, i, EBUSY, USE_KERNEL, NULL, NULL, err);
    }
    return DMK_OK;
}

/* Whether the process holds /dev/fuse (serves some FUSE file system). */
static bool holds_dev_fuse(const char *fddir)
{
    DIR *d = opendir(fddir);
    struct dirent *e;
    bool server = false;
    while (d && !server && (e = readdir(d)) != NULL) {
        char path[600];
        struct stat st;
        snprintf(path, sizeof path, "%s/%.200s", fddir, e->d_name);
        server = e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
                 major(st.st_rdev) == 10 && minor(st.st_rdev) == 229;
    }
    if (d)
        closedir(d);
    return server;
}

/* Whether the process is the server of the passthrough FUSE mount at
 * mnt that the target's backing file is seen through: it holds
 * /dev/fuse and its command line names mnt as a whole argument (bindfs
 * SRC MNT, as every libfuse server is started). The kernel links no
 * /dev/fuse descriptor to its mount (fdinfo says nothing of it, and
 * /sys/fs/fuse/connections names mounts, not processes), so the command
 * line is the one link left; a server started with a relative or
 * non-canonical mount point, or one whose command line does not name it,
 * is not matched,
 * and is then refused like any other holder (fail closed). */
static bool is_fuse_server_of(const char *pid, const char *fddir, const char *mnt)
{
    if (!mnt[0] || !holds_dev_fuse(fddir))
        return false;
    char path[300], arg[PATH_MAX];
    snprintf(path, sizeof path, "/proc/%.200s/cmdline", pid);
    FILE *f = fopen(path, "re");
    bool named = false;
    int c = 0;
    size_t n = 0;
    while (f && !named && c != EOF) {
        c = fgetc(f);
        if (c != '\0' && c != EOF) {
            if (n + 1 < sizeof arg)
                arg[n++] = (char)c;
            continue;
        }
        /* Compared as text (a trailing "/" aside): resolving every
         * argument of every process could block on a dead mount. */
        while (n > 1 && arg[n - 1] == '/')
            n--;
        arg[n] = '\0';
        named = strcmp(arg, mnt) == 0;
        n = 0;
    }
    if (f)
        fclose(f);
    return named;
}

/* What one open descriptor of a process is in the graph: a backing file
 * (directly or through layers), or a device (not a disk reached from one
 * of its partitions, which a sibling's user may hold). */
static int node_of_fd(const Graph *g, const char *fdp)
{
    struct stat st;
    if (stat(fdp, &st) != 0)
        return -1;
    if (S_ISREG(st.st_mode))
        return file_node(g, fdp, &st);
    if (!S_ISBLK(st.st_mode))
        return -1;
    int i = find_node(g, NODE_BLK, st.st_rdev, 0);
    return i >= 0 && !g->nodes[i].partial ? i : -1;
}

static int check_process(const Graph *g, const char *pid, DmkError *err)
{
    char dir[300], path[600], comm[64] = "";
    snprintf(dir, sizeof dir, "/proc/%.200s/fd", pid);
    DIR *fds = opendir(dir);
    if (!fds)
        return DMK_OK; /* gone, or not ours to read */
    snprintf(path, sizeof path, "/proc/%.200s/comm", pid);
    dmk_linux_read_line(path, comm, sizeof comm);
    struct dirent *e;
    int rc = DMK_OK;
    while (rc == DMK_OK && (e = readdir(fds)) != NULL) {
        snprintf(path, sizeof path, "%s/%.200s", dir, e->d_name);
        int i = e->d_name[0] == '.' ? -1 : node_of_fd(g, path);
        if (i < 0 || (g->nodes[i].kind == NODE_FILE && g->via_fuse &&
                      is_fuse_server_of(pid, dir, g->fuse_mnt)))
            continue;
        rc = refuse(g, i, EBUSY, USE_OPEN, pid, comm[0] ? comm : "?", err);
    }
    closedir(fds);
    return rc;
}

/* A backing file or device that a program has open (a virtual machine's
 * disk, a qemu-nbd export, a dd without O_EXCL) is in use too:
 * /proc/<pid>/fd, where readable. */
static int check_open_files(const Graph *g, DmkError *err)
{
    DIR *proc = g->root[0] ? NULL : opendir("/proc");
    if (!proc)
        return DMK_OK;
    char self[32];
    snprintf(self, sizeof self, "%d", (int)getpid());
    struct dirent *p;
    int rc = DMK_OK;
    while (rc == DMK_OK && (p = readdir(proc)) != NULL)
        if (p->d_name[0] >= '1' && p->d_name[0] <= '9' && strcmp(p->d_name, self) != 0)
            rc = check_process(g, p->d_name, err);
    closedir(proc);
    return rc;
}

/* Every guard that can name what uses the device's storage; O_EXCL at
 * open time then catches what they cannot see. */
static int walk(Graph *g, dev_t dev, DmkError *err)
{
    int rc = build(g, dev, err);
    if (rc == DMK_OK)
        rc = check_mounts(g, err);
    if (rc == DMK_OK)
        rc = check_btrfs(g, err);
    if (rc == DMK_OK)
        rc = check_swaps(g, err);
    if (rc == DMK_OK)
        rc = check_stacked_users(g, err);
    if (rc == DMK_OK)
        rc = check_claims(g, err);
    if (rc == DMK_OK && !g->listing)
        rc = check_open_files(g, err);
    return rc;
}

static int check_unused(const char *root, const char *target, dev_t dev, bool held, DmkError *err)
{
    Graph *g = calloc(1, sizeof *g);
    if (!g)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    g->root = root;
    g->target = target;
    g->held = held;
    int rc = walk(g, dev, err);
    free(g);
    return rc;
}

bool dmk_linux_device_usage(const char *root, const char *target, dev_t dev, char *buf, size_t len)
{
    Graph *g = calloc(1, sizeof *g);
    DmkError err;
    dmk_error_clear(&err);
    buf[0] = '\0';
    if (!g) {
        snprintf(buf, len, "%s", DMK_("its users cannot be checked (out of memory)"));
        return true;
    }
    g->root = root;
    g->target = target;
    g->listing = true;
    g->use = buf;
    g->use_len = len;
    int rc = walk(g, dev, &err);
    free(g);
    /* A walk that could not finish is no proof of a free device: it is
     * shown as in use, saying why, and offered for reading only. */
    if (rc != DMK_OK && !buf[0]) {
        /* The guard's words, less its "refusing to write to X: ". */
        const char *why = strstr(err.msg, ": ");
        snprintf(buf, len, DMK_("its users cannot be checked: %s"), why ? why + 2 : err.msg);
    }
    return rc != DMK_OK;
}

int dmk_linux_device_check_unused(const char *root, const char *target, dev_t dev, DmkError *err)
{
    return check_unused(root, target, dev, false, err);
}

int dmk_linux_device_check_unused_held(const char *target, dev_t dev, DmkError *err)
{
    return check_unused("", target, dev, true, err);
}
