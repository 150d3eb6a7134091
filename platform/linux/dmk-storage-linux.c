/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Following a file system or block device down to its storage; see
 * dmk-storage-linux.h. Everything here only reads (sysfs, mountinfo,
 * stat, LOOP_GET_STATUS64 on a read-only descriptor): nothing is opened
 * for writing or exclusively. */
#define _GNU_SOURCE
#include "dmk-storage-linux.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-drive-linux.h"

#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6
/* Deep enough for any real stack (loop over a file on loop-mounted ext4
 * over a partition...), short enough that a cycle (bindfs mounted over
 * its own source) ends as "unknown". */
#define MAX_DEPTH 12

typedef struct {
    const char *root;
    int depth;
    char *buf;
    size_t len;
    char *cached; /* the first buffered loop device met ("loop3"), "" for none */
    size_t cached_len;
    bool *cached_device; /* that loop device's backing is a block device */
} Walk;

static DmkStorage walk_path(Walk *w, const char *path);
static DmkStorage walk_mount(Walk *w, const DmkMountLine *m, const char *real);
static bool is_fuse(const char *fstype);
static DmkStorage walk_dev(Walk *w, dev_t dev);

static void say(Walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Walk *w, const char *fmt, ...)
{
    size_t used = strlen(w->buf);
    if (used + 1 >= w->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->buf + used, w->len - used, fmt, ap);
    va_end(ap);
}

/* RAM outweighs unknown, unknown outweighs a drive: one RAM-backed leg
 * of a stack is enough to measure memory. */
static DmkStorage worse(DmkStorage a, DmkStorage b)
{
    if (a == DMK_STORAGE_RAM || b == DMK_STORAGE_RAM)
        return DMK_STORAGE_RAM;
    return a == DMK_STORAGE_UNKNOWN || b == DMK_STORAGE_UNKNOWN ? DMK_STORAGE_UNKNOWN
                                                                : DMK_STORAGE_DISK;
}

/* ---- mountinfo ------------------------------------------------------------ */

static bool mount_holds(const char *mnt, const char *path)
{
    size_t n = strlen(mnt);
    return strcmp(mnt, "/") == 0 ||
           (strncmp(mnt, path, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

/* The mount whose device number is dev or, when none is (btrfs gives
 * subvolumes anonymous devices), the deepest mount point holding real
 * (a resolved path, or NULL). Among mounts of dev, the deepest one that
 * holds real wins: the same FUSE file system mounted twice must map
 * real from the mount it is under. */
static bool find_mount(const char *root, dev_t dev, const char *real, DmkMountLine *out)
{
    char path[PATH_MAX], *line = NULL;
    size_t cap = 0;
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    bool by_dev = false;
    size_t best = 0, dev_best = 0;
    DmkMountLine m;
    while (getline(&line, &cap, f) > 0) { /* whole lines, however long */
        if (!dmk_mountinfo_parse(line, &m))
            continue;
        size_t holds = real && mount_holds(m.mnt, real) ? strlen(m.mnt) + 1 : 0;
        if (makedev(m.major, m.minor) == dev) {
            if (!by_dev || holds > dev_best) {
                *out = m;
                dev_best = holds;
            }
            by_dev = true;
        } else if (!by_dev && holds >= best && holds) {
            best = holds;
            *out = m;
        }
    }
    free(line);
    fclose(f);
    return by_dev || best > 0;
}

/* What a FUSE mount over its own source hides at real: the deepest
 * mount holding real that was there before it (mountinfo lists mounts
 * in the order they were made; the ones after it that hold real are on
 * top of it, and stat sees them). The mount it sits on, or a file
 * system mounted inside its source (D/sub) before it. */
static bool find_hidden_mount(const char *root, const DmkMountLine *fuse, const char *real,
                              DmkMountLine *out)
{
    char path[PATH_MAX], *line = NULL;
    size_t cap = 0;
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t best = 0;
    DmkMountLine m;
    while (getline(&line, &cap, f) > 0) { /* whole lines, however long */
        if (!dmk_mountinfo_parse(line, &m))
            continue;
        if (m.id == fuse->id)
            break;
        if (mount_holds(m.mnt, real) && strlen(m.mnt) + 1 > best) {
            best = strlen(m.mnt) + 1;
            *out = m;
        }
    }
    free(line);
    fclose(f);
    return best > 0;
}

/* Where path (resolved; NULL: the mount point itself) is in the
 * directory a passthrough file system's mount names as its source
 * (bindfs SRC MNT: MNT/a/b is SRC/a/b), through the mount's own root (a
 * bind mount of MNT/a is SRC/a). False when the source is no directory. */
static bool source_path_of(const DmkMountLine *m, const char *real, char *buf, size_t len)
{
    struct stat st;
    if (m->source[0] != '/' || stat(m->source, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    const char *rel = "";
    if (real && mount_holds(m->mnt, real))
        rel = strcmp(m->mnt, "/") == 0 ? real : real + strlen(m->mnt);
    const char *mroot = strcmp(m->root, "/") == 0 ? "" : m->root;
    int n = snprintf(buf, len, "%s%s%s", m->source, mroot, rel);
    return n > 0 && (size_t)n < len;
}

/* The value of name= in comma-separated mount options, its octal
 * escapes undone ("upperdir=/x\054y" is "/x,y"). */
static bool mount_option(const char *opts, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        if (strncmp(p, name, n) != 0 || p[n] != '=')
            continue;
        const char *v = p + n + 1;
        size_t vl = strcspn(v, ",");
        snprintf(buf, len, "%.*s", (int)vl, v);
        dmk_mountinfo_unescape(buf);
        return true;
    }
    return false;
}

static bool is_network_fs(const char *fs)
{
    static const char *const net[] = {"nfs",      "nfs4", "cifs",      "smb3", "9p",
                                      "virtiofs", "ceph", "glusterfs", "afs",  "lustre"};
    for (size_t i = 0; i < sizeof net / sizeof net[0]; i++)
        if (strcmp(fs, net[i]) == 0)
            return true;
    return false;
}

/* ---- a file system -------------------------------------------------------- */

/* overlay: new files (the test file) go to the upper layer. */
static DmkStorage walk_overlay(Walk *w, const DmkMountLine *m)
{
    char upper[PATH_MAX];
    /* All the options, however long: a cut one could lose upperdir. */
    char *opts = dmk_mountinfo_super_opts(w->root, m);
    if (!opts) {
        say(w, "overlay at %s whose options cannot be read whole: where writes go is unknown",
            m->mnt);
        return DMK_STORAGE_UNKNOWN;
    }
    bool has_upper = mount_option(opts, "upperdir", upper, sizeof upper);
    free(opts);
    if (!has_upper) {
        say(w, "overlay with no upper layer (read-only): where writes would go is unknown");
        return DMK_STORAGE_UNKNOWN;
    }
    if (upper[0] != '/') {
        /* The kernel prints the path as given; the directory it was
         * relative to is not recorded, and ours is not it. */
        say(w,
            "overlay whose upper layer \"%s\" is a relative path: where writes go is unknown "
            "(it may be RAM)",
            upper);
        return DMK_STORAGE_UNKNOWN;
    }
    say(w, "overlay, whose upper layer %s is on ", upper);
    return walk_path(w, upper);
}

/* FUSE: the server keeps its data where it likes. Some name it in the
 * mount's source: bindfs a directory, ntfs-3g (fuseblk) a device. A
 * directory source is followed at the target's own place in it, so a
 * tmpfs mounted inside the source (SRC/sub) is seen under MNT/sub. */
static DmkStorage walk_fuse(Walk *w, const DmkMountLine *m, const char *real)
{
    struct stat st;
    /* bindfs mounts as plain "fuse": "FUSE over /src", not "fuse (FUSE)". */
    char kind[64], src[PATH_MAX];
    if (strcmp(m->fstype, "fuse") == 0)
        snprintf(kind, sizeof kind, "FUSE");
    else
        snprintf(kind, sizeof kind, "%s (FUSE)", m->fstype);
    if (m->source[0] == '/' && stat(m->source, &st) == 0 && S_ISBLK(st.st_mode)) {
        say(w, "%s on ", m->fstype);
        return walk_dev(w, st.st_rdev);
    }
    if (source_path_of(m, real, src, sizeof src)) {
        /* Mounted over its own source (bindfs D D): the source seen from
         * here is the mount again; its data is in the directory under
         * the mount, on the mount it sits on. */
        DmkMountLine under;
        if (mount_holds(m->mnt, src) && stat(src, &st) == 0 &&
            st.st_dev == makedev(m->major, m->minor)) {
            say(w, "%s over %s, under its own mount point, which is on ", kind, src);
            if (find_hidden_mount(w->root, m, src, &under))
                return walk_mount(w, &under, src);
            say(w, "a mount that cannot be found");
            return DMK_STORAGE_UNKNOWN;
        }
        say(w, "%s over %s, which is on ", kind, src);
        return walk_path(w, src);
    }
    say(w, "%s (source %s), whose storage only its server knows", kind, m->source);
    return DMK_STORAGE_UNKNOWN;
}

static DmkStorage walk_mount(Walk *w, const DmkMountLine *m, const char *real)
{
    struct stat st;
    if (strcmp(m->fstype, "tmpfs") == 0 || strcmp(m->fstype, "ramfs") == 0 ||
        strcmp(m->fstype, "devtmpfs") == 0 || strcmp(m->fstype, "hugetlbfs") == 0) {
        say(w, "%s", m->fstype);
        return DMK_STORAGE_RAM;
    }
    if (strcmp(m->fstype, "overlay") == 0)
        return walk_overlay(w, m);
    if (is_fuse(m->fstype) || strcmp(m->fstype, "fuseblk") == 0)
        return walk_fuse(w, m, real);
    if (is_network_fs(m->fstype)) {
        say(w, "%s from %s, a server's storage", m->fstype, m->source);
        return DMK_STORAGE_UNKNOWN;
    }
    if (m->major != 0) {
        say(w, "%s on ", m->fstype);
        return walk_dev(w, makedev(m->major, m->minor));
    }
    /* btrfs lists an anonymous device; its source names the real one.
     * A stacking file system (ecryptfs) names the directory it is over. */
    if (m->source[0] == '/' && stat(m->source, &st) == 0) {
        if (S_ISBLK(st.st_mode)) {
            say(w, "%s on ", m->fstype);
            return walk_dev(w, st.st_rdev);
        }
        if (S_ISDIR(st.st_mode)) {
            say(w, "%s over %s, which is on ", m->fstype, m->source);
            return walk_path(w, m->source);
        }
    }
    /* A zfs dataset's pool is on disks Drivemark does not follow; calling
     * every zfs result "may be RAM" would be a false alarm. */
    if (strcmp(m->fstype, "zfs") == 0) {
        say(w, "zfs (%s)", m->source);
        return DMK_STORAGE_DISK;
    }
    say(w, "%s (source %s), whose storage is unknown", m->fstype, m->source);
    return DMK_STORAGE_UNKNOWN;
}

/* The file system holding the file or directory path. */
static DmkStorage walk_fs_of(Walk *w, dev_t dev, const char *path)
{
    if (++w->depth > MAX_DEPTH) {
        say(w, "... (too deep to follow)");
        return DMK_STORAGE_UNKNOWN;
    }
    char real[PATH_MAX];
    bool have_real = path && realpath(path, real) != NULL;
    DmkMountLine m;
    if (find_mount(w->root, dev, have_real ? real : NULL, &m))
        return walk_mount(w, &m, have_real ? real : NULL);
    struct statfs sf;
    if (path && statfs(path, &sf) == 0 &&
        ((unsigned long)sf.f_type == TMPFS_MAGIC_ || (unsigned long)sf.f_type == RAMFS_MAGIC_)) {
        say(w, "%s", (unsigned long)sf.f_type == TMPFS_MAGIC_ ? "tmpfs" : "ramfs");
        return DMK_STORAGE_RAM;
    }
    say(w, "a file system that is not in this process's mount table");
    return DMK_STORAGE_UNKNOWN;
}

static DmkStorage walk_path(Walk *w, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        char why[128];
        say(w, "something unknown (%s: %s)", path, dmk_linux_errno_text_c(errno, why, sizeof why));
        return DMK_STORAGE_UNKNOWN;
    }
    return walk_fs_of(w, st.st_dev, path);
}

/* ---- a block device ------------------------------------------------------- */

/* dev's directory under /sys (resolved) and its kernel name ("loop3"). */
static bool sysfs_of(const Walk *w, dev_t dev, char *dir, size_t len, const char **name)
{
    char link[PATH_MAX];
    snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", w->root, major(dev), minor(dev));
    if (!realpath(link, dir) || strlen(dir) >= len)
        return false;
    const char *slash = strrchr(dir, '/');
    *name = slash ? slash + 1 : dir;
    return true;
}

static bool read_dev_file(const char *dir, dev_t *dev)
{
    char path[PATH_MAX + 8], line[32];
    unsigned ma, mi;
    snprintf(path, sizeof path, "%s/dev", dir);
    if (!dmk_linux_read_line(path, line, sizeof line) || sscanf(line, "%u:%u", &ma, &mi) != 2)
        return false;
    *dev = makedev(ma, mi);
    return true;
}

bool dmk_linux_loop_backing(const char *root, const char *name, DmkLinuxLoopBacking *b)
{
    char path[PATH_MAX + 64];
    memset(b, 0, sizeof *b);
    root = root ? root : "";
    snprintf(path, sizeof path, "%s/sys/block/%s/loop/backing_file", root, name);
    if (!dmk_linux_read_line(path, b->path, sizeof b->path)) {
        /* sysfs fails the read (ENAMETOOLONG) for a path longer than a
         * page, yet the device is attached: its loop/ directory exists
         * exactly while it is. Then the loop driver's record is all. */
        b->path_errno = errno ? errno : EIO;
        b->path[0] = '\0';
        snprintf(path, sizeof path, "%s/sys/block/%s/loop", root, name);
        struct stat ls;
        if (stat(path, &ls) != 0 || !S_ISDIR(ls.st_mode))
            return false;
    }
    struct loop_info64 li;
    snprintf(path, sizeof path, "/dev/%s", name);
    /* A fake tree (tests) has no devices of its own to ask. */
    int fd = root[0] ? -1 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    bool have_li = fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &li) == 0;
    if (fd >= 0)
        close(fd);
    struct stat st;
    b->path_ok =
        b->path[0] && stat(b->path, &st) == 0 &&
        (!have_li || ((dev_t)li.lo_device == st.st_dev && (ino_t)li.lo_inode == st.st_ino));
    if (b->path_ok) {
        b->known = true;
        b->is_device = S_ISBLK(st.st_mode);
        b->rdev = b->is_device ? st.st_rdev : 0;
        b->fs_dev = st.st_dev;
        b->ino = st.st_ino;
    } else if (have_li) {
        b->known = true;
        b->is_device = li.lo_rdevice != 0;
        b->rdev = (dev_t)li.lo_rdevice;
        b->fs_dev = (dev_t)li.lo_device;
        b->ino = (ino_t)li.lo_inode;
    }
    return true;
}

/* A loop device without direct I/O (loop/dio 0, losetup's default)
 * reads and writes its backing file through the page cache: reads of
 * recently written data come from memory, whatever the drive. */
static void note_buffered_loop(Walk *w, const char *name, bool over_device)
{
    char path[PATH_MAX + 64], line[16];
    snprintf(path, sizeof path, "%s/sys/block/%s/loop/dio", w->root, name);
    if (w->cached[0] || !dmk_linux_read_line(path, line, sizeof line) || strcmp(line, "0") != 0)
        return;
    snprintf(w->cached, w->cached_len, "%s", name);
    *w->cached_device = over_device;
}

/* A loop device: its backing file's (or device's) storage. */
static DmkStorage walk_loop(Walk *w, const char *name)
{
    DmkLinuxLoopBacking b;
    if (!dmk_linux_loop_backing(w->root, name, &b)) {
        say(w, "/dev/%s, which has no backing file (not attached)", name);
        return DMK_STORAGE_UNKNOWN;
    }
    note_buffered_loop(w, name, b.known && b.is_device);
    if (b.known && b.is_device) {
        say(w, "/dev/%s, whose backing device is ", name);
        return walk_dev(w, b.rdev);
    }
    say(w, "/dev/%s, whose backing file %s is on ", name,
        b.path[0] ? b.path : "(its name cannot be read)");
    if (b.known)
        return walk_fs_of(w, b.fs_dev, b.path_ok ? b.path : NULL);
    say(w, "a file system that cannot be found");
    return DMK_STORAGE_UNKNOWN;
}

/* device-mapper, md: every device under it (sysfs slaves/). */
static DmkStorage walk_slaves(Walk *w, const char *dir, const char *name, bool *any)
{
    char path[PATH_MAX + 16], sub[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/slaves", dir);
    DIR *d = opendir(path);
    *any = false;
    if (!d)
        return DMK_STORAGE_DISK;
    DmkStorage kind = DMK_STORAGE_DISK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        dev_t sdev;
        char real[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || !realpath(sub, real) || !read_dev_file(real, &sdev))
            continue;
        say(w, *any ? "; and " : "/dev/%s over ", name);
        *any = true;
        kind = worse(kind, walk_dev(w, sdev));
    }
    closedir(d);
    return kind;
}

static DmkStorage walk_dev(Walk *w, dev_t dev)
{
    char dir[PATH_MAX], probe[PATH_MAX + 16];
    const char *name;
    if (++w->depth > MAX_DEPTH) {
        say(w, "... (too deep to follow)");
        return DMK_STORAGE_UNKNOWN;
    }
    if (!sysfs_of(w, dev, dir, sizeof dir, &name)) {
        say(w, "device %u:%u, which sysfs does not know", major(dev), minor(dev));
        return DMK_STORAGE_UNKNOWN;
    }
    snprintf(probe, sizeof probe, "%s/partition", dir);
    if (access(probe, F_OK) == 0) {
        /* A partition's storage is its disk's. */
        dev_t disk;
        char *slash = strrchr(dir, '/');
        say(w, "/dev/%s, a partition of ", name);
        if (slash)
            *slash = '\0';
        if (slash && read_dev_file(dir, &disk))
            return walk_dev(w, disk);
        say(w, "a disk sysfs does not show");
        return DMK_STORAGE_UNKNOWN;
    }
    if (strncmp(name, "zram", 4) == 0) {
        say(w, "/dev/%s (zram: compressed RAM)", name);
        return DMK_STORAGE_RAM;
    }
    if (major(dev) == 1 || strncmp(name, "ram", 3) == 0) {
        say(w, "/dev/%s (a RAM disk)", name);
        return DMK_STORAGE_RAM;
    }
    if (strncmp(name, "loop", 4) == 0)
        return walk_loop(w, name);
    bool any;
    DmkStorage kind = walk_slaves(w, dir, name, &any);
    if (any)
        return kind;
    if (strncmp(name, "nbd", 3) == 0 || strncmp(name, "rbd", 3) == 0 ||
        strncmp(name, "ublkb", 5) == 0) {
        say(w, "/dev/%s, a network or user-space device whose storage is unknown", name);
        return DMK_STORAGE_UNKNOWN;
    }
    say(w, "/dev/%s", name);
    return DMK_STORAGE_DISK;
}

/* ---- the entry points ----------------------------------------------------- */

static void start(Walk *w, const char *root, DmkLinuxStorage *out)
{
    w->root = root ? root : "";
    w->depth = 0;
    w->buf = out->chain;
    w->len = sizeof out->chain;
    out->chain[0] = '\0';
    w->cached = out->cached_loop;
    w->cached_len = sizeof out->cached_loop;
    w->cached_device = &out->cached_over_device;
    out->cached_loop[0] = '\0';
    out->cached_over_device = false;
}

void dmk_linux_storage_of_dev(const char *root, dev_t dev, DmkLinuxStorage *out)
{
    Walk w;
    start(&w, root, out);
    out->kind = walk_dev(&w, dev);
}

void dmk_linux_storage_of_path(const char *root, const char *path, DmkLinuxStorage *out)
{
    Walk w;
    start(&w, root, out);
    out->kind = walk_path(&w, path);
}

void dmk_linux_storage_of_mount(const char *root, const DmkMountLine *m, DmkLinuxStorage *out)
{
    Walk w;
    start(&w, root, out);
    w.depth = 1;
    out->kind = walk_mount(&w, m, m->mnt);
}

static bool is_fuse(const char *fstype)
{
    return strcmp(fstype, "fuse") == 0 || strncmp(fstype, "fuse.", 5) == 0;
}

bool dmk_linux_fuse_source_of(const char *path, char *buf, size_t len)
{
    char real[PATH_MAX];
    struct stat st;
    DmkMountLine m;
    if (!realpath(path, real) || stat(real, &st) != 0 || !find_mount("", st.st_dev, real, &m))
        return false;
    return is_fuse(m.fstype) && source_path_of(&m, real, buf, len);
}
