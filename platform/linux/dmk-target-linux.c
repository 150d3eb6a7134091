/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark's own test file on Linux: refuse unsuitable file systems,
 * create a file that nothing leaves behind, learn its direct-I/O
 * alignment, and describe the drive under it. */
#define _GNU_SOURCE
#include "dmk-target-linux.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-cow-linux.h"
#include "dmk-drive-linux.h"
#include "dmk-i18n.h"
#include "dmk-iface-linux.h"
#include "dmk-mountinfo.h"
#include "dmk-platform.h"
#include "dmk-storage-linux.h"
#include "dmk-target-rules.h"

#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6

/* ---- small sysfs / procfs readers -------------------------------------- */

static uint64_t read_u64(const char *path)
{
    char line[64];
    return dmk_linux_read_line(path, line, sizeof line) ? strtoull(line, NULL, 10) : 0;
}

static void fill_mount(const DmkMountLine *m, DmkTargetInfo *info)
{
    snprintf(info->mount_point, sizeof info->mount_point, "%s", m->mnt);
    snprintf(info->fs_type, sizeof info->fs_type, "%s", m->fstype);
    snprintf(info->device, sizeof info->device, "%s", m->source);
    info->discard = dmk_linux_opts_discard(m->super_opts) || dmk_linux_opts_discard(m->opts);
    bool z = dmk_linux_opts_compress(m->super_opts) || dmk_linux_opts_compress(m->opts);
    info->compression = z ? DMK_FS_FEATURE_ACTIVE : DMK_FS_FEATURE_NONE;
}

/* Whether mount point mnt holds path (a resolved path). */
static bool mount_holds(const char *mnt, const char *path)
{
    size_t n = strlen(mnt);
    return strcmp(mnt, "/") == 0 ||
           (strncmp(mnt, path, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

/* Fills fs_type, mount_point and device from the mountinfo line whose
 * device number is dev (the deepest mount wins for bind mounts) or, when
 * none is (btrfs gives each subvolume its own anonymous device in stat,
 * not the one mountinfo lists), from the deepest mount point holding dir.
 * Returns the block device under it, for its sysfs entry: dev itself, or
 * the mount's source device. */
static dev_t describe_mount(dev_t dev, const char *dir, DmkTargetInfo *info)
{
    char real[PATH_MAX], line[4096];
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return dev;
    bool have_path = realpath(dir, real) != NULL;
    size_t best = 0, best_path = 0;
    DmkMountLine m, by_path;
    while (fgets(line, sizeof line, f)) {
        if (!dmk_mountinfo_parse(line, &m))
            continue;
        if (makedev(m.major, m.minor) == dev && strlen(m.mnt) >= best) {
            best = strlen(m.mnt) + 1;
            fill_mount(&m, info);
        } else if (have_path && mount_holds(m.mnt, real) && strlen(m.mnt) + 1 >= best_path) {
            best_path = strlen(m.mnt) + 1;
            by_path = m;
        }
    }
    fclose(f);
    if (best || !best_path)
        return dev;
    fill_mount(&by_path, info);
    struct stat st;
    return stat(by_path.source, &st) == 0 && S_ISBLK(st.st_mode) ? st.st_rdev : dev;
}

/* The first entry of a sysfs directory (e.g. slaves/dm-0), into buf. */
static bool first_entry(const char *dir, char *buf, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    bool found = false;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(buf, len, "%s/%s", dir, e->d_name);
        found = true;
    }
    closedir(d);
    return found;
}

/* The sysfs directory of the whole disk behind dev: up from a partition,
 * down through device-mapper or md to their first underlying device. */
static bool disk_sysfs_dir(dev_t dev, char *buf, size_t len)
{
    char link[128], path[PATH_MAX], probe[PATH_MAX + 32], next[PATH_MAX + 300];
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(link, path))
        return false;
    for (int depth = 0; depth < 4; depth++) {
        snprintf(probe, sizeof probe, "%s/partition", path);
        if (access(probe, F_OK) == 0) {
            char *slash = strrchr(path, '/');
            if (slash)
                *slash = '\0';
            continue;
        }
        snprintf(probe, sizeof probe, "%s/slaves", path);
        if (first_entry(probe, next, sizeof next) && realpath(next, path))
            continue;
        break;
    }
    snprintf(buf, len, "%s", path);
    return true;
}

void dmk_linux_describe_disk(dev_t dev, DmkTargetInfo *info, char *sensor, size_t sensor_len)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (!disk_sysfs_dir(dev, dir, sizeof dir))
        return;
    dmk_linux_find_sensor(dir, sensor, sensor_len, info->temp_sensor, sizeof info->temp_sensor);
    snprintf(path, sizeof path, "%s/device/model", dir);
    if (!dmk_linux_read_line(path, info->model, sizeof info->model)) {
        /* MMC and SD cards name themselves in device/name. */
        snprintf(path, sizeof path, "%s/device/name", dir);
        dmk_linux_read_line(path, info->model, sizeof info->model);
    }
    snprintf(path, sizeof path, "%s/size", dir);
    info->capacity_bytes = read_u64(path) * 512ULL;
    info->iface_bytes_s = dmk_iface_of_disk("/sys", dir, info->iface, sizeof info->iface);
}

/* Logical block size of the device: what direct I/O must align to when
 * statx cannot say. */
static uint32_t sysfs_logical_block(dev_t dev)
{
    char path[160];
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/queue/logical_block_size", major(dev),
             minor(dev));
    uint64_t v = read_u64(path);
    if (!v) {
        snprintf(path, sizeof path, "/sys/dev/block/%u:%u/../queue/logical_block_size", major(dev),
                 minor(dev));
        v = read_u64(path);
    }
    return (uint32_t)v;
}

static bool is_zram(dev_t dev)
{
    char link[128], path[PATH_MAX];
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
    return realpath(link, path) && strstr(path, "/zram") != NULL;
}

/* ---- checks before anything is written --------------------------------- */

static int check_dir(const char *dir, struct stat *st, DmkError *err)
{
    if (stat(dir, st) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "opening the target directory %s failed", dir);
    if (!S_ISDIR(st->st_mode))
        return dmk_error_set(err, DMK_E_INVAL, ENOTDIR,
                             "the target %s is not a directory (give a directory; the "
                             "benchmark creates its own test file there)",
                             dir);
    return DMK_OK;
}

/* A buffered loop device on the way down (its reads come from the page
 * cache): not refused, since a loop-mounted image is a common and
 * legitimate target, but flagged "cached" (results.md). */
static void note_cache(const DmkLinuxStorage *s, DmkTargetInfo *info)
{
    if (s->cached_loop[0])
        snprintf(info->cache_note, sizeof info->cache_note,
                 "the loop device /dev/%s reads and writes its backing %s through the page "
                 "cache (loop/dio 0)",
                 s->cached_loop, s->cached_over_device ? "device" : "file");
}

/* The storage under the file system, followed down (ext4 on a loop
 * device over a file in /dev/shm, overlay with its upper layer on tmpfs,
 * bindfs over tmpfs): RAM is refused, naming the chain; storage that
 * cannot be followed (FUSE, network) is run and flagged. */
static int check_storage(const char *dir, DmkTargetInfo *info, DmkError *err)
{
    DmkLinuxStorage s;
    dmk_linux_storage_of_path("", dir, &s);
    if (s.kind == DMK_STORAGE_RAM)
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing %s: it is on %s, so the numbers would measure memory, not "
                             "a drive",
                             dir, s.chain);
    info->storage = s.kind;
    note_cache(&s, info);
    if (s.kind == DMK_STORAGE_UNKNOWN)
        snprintf(info->storage_note, sizeof info->storage_note, "%.256s is on %.767s", dir,
                 s.chain);
    return DMK_OK;
}

static int check_fs(const char *dir, const struct stat *st, DmkTargetInfo *info, DmkError *err)
{
    struct statfs sf;
    if (statfs(dir, &sf) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "reading the file system of %s failed", dir);
    /* DMK_TEST_ALLOW_RAM_FS lets the tests reach the direct-I/O check on
     * ramfs, the one file system at hand that refuses O_DIRECT. */
    bool ram = (unsigned long)sf.f_type == TMPFS_MAGIC_ || (unsigned long)sf.f_type == RAMFS_MAGIC_;
    if (ram && !getenv("DMK_TEST_ALLOW_RAM_FS"))
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing %s: it is on a RAM-backed file system (%s), so the "
                             "numbers would measure memory, not a drive",
                             dir, (unsigned long)sf.f_type == TMPFS_MAGIC_ ? "tmpfs" : "ramfs");
    if (is_zram(st->st_dev))
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing %s: it is on a zram device (compressed RAM), so the "
                             "numbers would measure memory, not a drive",
                             dir);
    return ram ? DMK_OK : check_storage(dir, info, err);
}

/* The file's size: as asked, or the free space but the margin (full
 * span), in which case *size is set here. */
static int check_space(const DmkTargetParams *p, uint64_t *size, DmkTargetInfo *info, DmkError *err)
{
    struct statvfs sv;
    if (statvfs(p->dir, &sv) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "reading the free space of %s failed", p->dir);
    info->fs_size_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
    /* f_bavail, not f_bfree: blocks reserved for root are not ours. */
    info->fs_free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
    if (sv.f_blocks == 0 && p->size) {
        /* A file system that reports no size at all (ramfs, some FUSE
         * ones) cannot be checked in advance: the allocation checks. */
        *size = p->size;
        return DMK_OK;
    }
    int rc = dmk_target_size(p, info->fs_free_bytes, ENOSPC, size, err);
    uint64_t reserved = (uint64_t)(sv.f_bfree - sv.f_bavail) * sv.f_frsize;
    if (rc == DMK_E_NOSPC && sv.f_bfree > sv.f_bavail) {
        /* Say why df's "free" is more than what the benchmark may use. */
        unsigned long long mib = reserved >> 20;
        dmk_error_append(err,
                         dmk_ngettext(" (another %llu MiB is reserved for root; the benchmark "
                                      "leaves it free)",
                                      " (another %llu MiB are reserved for root; the benchmark "
                                      "leaves them free)",
                                      mib),
                         mib);
    }
    return rc;
}

/* ---- the test file ------------------------------------------------------ */

#define FUSE_SUPER_MAGIC_ 0x65735546
#define NFS_SUPER_MAGIC_  0x6969

/* Creates a file under a name unique to this process (its pid, a random
 * part, O_EXCL) with the given suffix; *path gets the name. Returns a
 * descriptor or -errno. */
static int open_named(const char *dir, const char *suffix, int flags, char *path, size_t len)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        snprintf(path, len, "%s/.drivemark-%ld-%08llx.%s", dir, (long)getpid(),
                 (unsigned long long)(dmk_entropy64() & 0xffffffffULL), suffix);
        int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | flags, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd >= 0 ? fd : -errno;
    }
    return -EEXIST;
}

/* The hidden name a FUSE server (libfuse without hard_remove) or an NFS
 * client gave the removed but open file st: .fuse_hiddenXXXX or
 * .nfsXXXX in dir, found by its inode; "" when it cannot be found. */
static void find_hidden(const char *dir, const struct stat *st, char *buf, size_t len)
{
    buf[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    struct stat cand;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, ".fuse_hidden", 12) != 0 && strncmp(e->d_name, ".nfs", 4) != 0)
            continue;
        if (fstatat(dirfd(d), e->d_name, &cand, AT_SYMLINK_NOFOLLOW) == 0 &&
            cand.st_ino == st->st_ino && cand.st_dev == st->st_dev) {
            snprintf(buf, len, "%s/%s", dir, e->d_name);
            break;
        }
    }
    closedir(d);
}

/* Removes the name of the open file fd and checks that it is gone: the
 * unlink succeeded and the name no longer resolves. Where the file
 * still has a link (FUSE, NFS: the open file lives on under a hidden
 * name until the last close), *hidden is set and hidden_name gets that
 * name when it can be found. Returns 0 or an errno. */
static int remove_name(int fd, const char *dir, const char *path, bool *hidden, char *hidden_name,
                       size_t len)
{
    struct stat st;
    *hidden = false;
    hidden_name[0] = '\0';
    if (unlink(path) != 0)
        return errno;
    if (lstat(path, &st) == 0)
        return EEXIST; /* unlink said yes, but the name is still there */
    if (fstat(fd, &st) != 0)
        return 0;
    /* bindfs reports no link left on the open file though libfuse
     * renamed it: on FUSE and NFS the directory is looked at too. */
    struct statfs sf;
    bool keeps = statfs(dir, &sf) == 0 && ((unsigned long)sf.f_type == FUSE_SUPER_MAGIC_ ||
                                           (unsigned long)sf.f_type == NFS_SUPER_MAGIC_);
    if (keeps || st.st_nlink > 0)
        find_hidden(dir, &st, hidden_name, len);
    *hidden = hidden_name[0] != '\0' || st.st_nlink > 0;
    return 0;
}

/* Where a dead server leaves the hidden file: for a FUSE file system
 * whose mount names its source directory (bindfs), the file is there,
 * under the same name, and that is the path to remove once the FUSE
 * mount is gone (the one through the dead mount cannot be reached);
 * otherwise the name seen through the mount. */
static void leftover_place(const char *dir, const char *name, bool fuse, bool nfs, char *buf,
                           size_t len)
{
    char src[PATH_MAX];
    const char *base = name[0] && strrchr(name, '/') ? strrchr(name, '/') + 1 : ".fuse_hiddenXXXX";
    if (nfs)
        snprintf(buf, len, "there as %.400s", name[0] ? name : "DIR/.nfsXXXX");
    else if (fuse && dmk_linux_fuse_source_of(dir, src, sizeof src))
        snprintf(buf, len, "in the FUSE file system's source directory as %.400s/%.100s", src,
                 base);
    else
        snprintf(buf, len, "there as %.400s (and in the directory behind the mount)",
                 name[0] ? name : "DIR/.fuse_hiddenXXXX");
}

/* Where the OS keeps a removed open file under another name, and what
 * is left if the file system's server dies during the run. */
static void note_hidden(const char *dir, const char *name, DmkTargetInfo *info)
{
    struct statfs sf;
    bool fuse = statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == FUSE_SUPER_MAGIC_;
    bool nfs = statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == NFS_SUPER_MAGIC_;
    char left[PATH_MAX];
    leftover_place(dir, name, fuse, nfs, left, sizeof left);
    snprintf(info->leftover_note, sizeof info->leftover_note,
             "leftover: %s keeps the open test file under the hidden name %.300s until the run "
             "closes it; if the %s dies during the run, that file is left %.600s: remove it by "
             "hand",
             nfs    ? "NFS"
             : fuse ? "the FUSE file system"
                    : "the file system",
             name[0] ? name
             : nfs   ? "DIR/.nfsXXXX"
                     : "DIR/.fuse_hiddenXXXX",
             nfs    ? "NFS server or this client"
             : fuse ? "FUSE server"
                    : "file system's server",
             left);
}

/* Waits (up to 10 s: a FUSE server's release comes after close returns,
 * later on a busy machine) for a hidden name to go once its file is
 * closed; at once in the usual case. */
static bool hidden_gone(const char *name)
{
    struct stat st;
    for (int i = 0; i < 200; i++) {
        if (lstat(name, &st) != 0 && errno == ENOENT)
            return true;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return false;
}

/* Nothing can remove a name in an append-only or immutable directory
 * (chattr +a, +i): refused before anything is created there. */
static int check_dir_attrs(const char *dir, DmkError *err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int attrs = 0;
    bool got = fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &attrs) == 0;
    if (fd >= 0)
        close(fd);
    /* A whole sentence for each attribute, none glued in. */
    if (got && (attrs & FS_APPEND_FL))
        return dmk_error_set(err, DMK_E_PERM, EPERM,
                             "refusing %s: the directory is append-only (chattr +a), so the test "
                             "file's name could not be removed and the file would be left behind "
                             "(this file system has no O_TMPFILE, which needs no name); nothing "
                             "was created",
                             dir);
    if (got && (attrs & FS_IMMUTABLE_FL))
        return dmk_error_set(err, DMK_E_PERM, EPERM,
                             "refusing %s: the directory is immutable (chattr +i), so the test "
                             "file's name could not be removed and the file would be left behind "
                             "(this file system has no O_TMPFILE, which needs no name); nothing "
                             "was created",
                             dir);
    return DMK_OK;
}

/* Before the real file, a small probe: created, removed and checked
 * gone, so a directory where the name would stay refuses the run with
 * an empty file at worst, never a full-size one. */
static int probe_removal(const char *dir, DmkTargetInfo *info, DmkError *err)
{
    char path[PATH_MAX], hidden_name[PATH_MAX];
    bool hidden;
    int rc = check_dir_attrs(dir, err);
    if (rc != DMK_OK)
        return rc;
    int fd = open_named(dir, "probe", 0, path, sizeof path);
    if (fd < 0)
        return dmk_error_os(err, dmk_error_from_errno(-fd), -fd,
                            "creating the test file in %s failed", dir);
    int e = remove_name(fd, dir, path, &hidden, hidden_name, sizeof hidden_name);
    close(fd);
    if (e != 0)
        return dmk_error_set(err, dmk_error_from_errno(e), e,
                             "refusing %s: removing the probe file %s failed (%s), so the test "
                             "file would be left behind; the empty probe file is still there: "
                             "remove it by hand (it may need chattr -a or the file system "
                             "server's permission)",
                             dir, path, strerror(e));
    if (hidden && hidden_name[0] && !hidden_gone(hidden_name))
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing %s: its file system kept the removed probe file as %s "
                             "after it was closed, so the test file would be left behind at full "
                             "size; remove %s by hand",
                             dir, hidden_name, hidden_name);
    if (hidden)
        note_hidden(dir, hidden_name, info);
    return DMK_OK;
}

/* The named fallback's real file, its name removed at once: the open
 * descriptor keeps the data alive, and nothing remains after any exit,
 * even SIGKILL (FUSE and NFS aside: note_hidden). Returns a descriptor
 * or -errno with err filled. */
static int create_named(const char *dir, DmkLinuxTarget *t, DmkTargetInfo *info, DmkError *err)
{
    char path[PATH_MAX], hidden_name[PATH_MAX];
    int fd = open_named(dir, "tmp", O_DIRECT, path, sizeof path);
    /* O_CREAT may have made the name before O_DIRECT was refused (EINVAL
     * on ramfs): any error but EEXIST means the name did not exist
     * before, so it is this process's own, and removed. */
    if (fd < 0 && fd != -EEXIST && unlink(path) != 0 && errno != ENOENT)
        return dmk_error_os(err, dmk_error_from_errno(-fd), -fd,
                            "creating the test file in %s failed, and its empty name %s could "
                            "not be removed: remove it by hand",
                            dir, path);
    if (fd < 0) {
        if (fd == -EINVAL)
            return dmk_error_set(err, DMK_E_NOTSUP, EINVAL,
                                 "refusing %s: its file system does not support direct I/O "
                                 "(O_DIRECT), and cached I/O would measure memory",
                                 dir);
        return dmk_error_os(err, dmk_error_from_errno(-fd), -fd,
                            "creating the test file in %s failed", dir);
    }
    int e = remove_name(fd, dir, path, &t->hidden, hidden_name, sizeof hidden_name);
    if (e != 0) {
        close(fd); /* nothing was allocated yet: the file left is empty */
        return dmk_error_set(err, dmk_error_from_errno(e), e,
                             "removing the test file's name %s failed (%s); the empty file is "
                             "still there: remove it by hand",
                             path, strerror(e));
    }
    if (t->hidden)
        note_hidden(dir, hidden_name, info);
    return fd;
}

/* O_TMPFILE first (no name ever exists); where the file system lacks it
 * (DMK_TEST_NO_TMPFILE makes the tests take this way), a probe shows
 * that a name can be removed, then the named file. */
static int create_file(const char *dir, DmkLinuxTarget *t, DmkTargetInfo *info, DmkError *err)
{
    t->named = false;
    if (!getenv("DMK_TEST_NO_TMPFILE")) {
        int fd = open(dir, O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
        if (fd >= 0)
            return fd;
        if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT)
            return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                                "creating the test file in %s failed", dir);
    }
    t->named = true;
    int rc = probe_removal(dir, info, err);
    return rc != DMK_OK ? rc : create_named(dir, t, info, err);
}

static void learn_alignment(int fd, dev_t dev, DmkTargetInfo *info)
{
    uint32_t mem = 0, off = 0;
#ifdef STATX_DIOALIGN
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN)) {
        mem = sx.stx_dio_mem_align;
        off = sx.stx_dio_offset_align;
    }
#endif
    if (!off) {
        off = sysfs_logical_block(dev);
        mem = off;
    }
    info->offset_align = off ? off : 4096;
    info->mem_align = mem ? mem : info->offset_align;
}

/* Space is reserved in chunks so that a stop during a large allocation is
 * seen within a fraction of a second. */
#define ALLOC_CHUNK (256ULL << 20)

static bool stop_requested(const DmkTargetParams *p)
{
    return p->stop && atomic_load(p->stop);
}

/* Reserves the space now so a full disk fails here, not mid-test; the
 * fill then writes every block, so no unwritten extent remains. */
static int size_file(int fd, const DmkTargetParams *p, uint64_t size, DmkError *err)
{
    int e = 0;
    for (uint64_t off = 0; off < size && e == 0; off += ALLOC_CHUNK) {
        if (stop_requested(p))
            return dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
        uint64_t len = size - off < ALLOC_CHUNK ? size - off : ALLOC_CHUNK;
        e = posix_fallocate(fd, (off_t)off, (off_t)len);
    }
    if (e == EOPNOTSUPP || e == EINVAL)
        e = ftruncate(fd, (off_t)size) == 0 ? 0 : errno;
    if (e != 0)
        return dmk_error_os(err, dmk_error_from_errno(e), e,
                            "allocating %llu MiB for the test file in %s failed",
                            (unsigned long long)(size >> 20), p->dir);
    return DMK_OK;
}

/* A raw device is run even when RAM-backed (measuring the engine on a
 * loop device over /dev/shm is legitimate), but its result says so. */
static int open_device(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                       DmkError *err)
{
    int rc = dmk_linux_device_open(p, out, info, err);
    struct stat st;
    if (rc != DMK_OK || stat(p->dir, &st) != 0 || !S_ISBLK(st.st_mode))
        return rc;
    DmkLinuxStorage s;
    dmk_linux_storage_of_dev("", st.st_rdev, &s);
    info->storage = s.kind;
    note_cache(&s, info);
    if (s.kind != DMK_STORAGE_DISK)
        snprintf(info->storage_note, sizeof info->storage_note, "%s", s.chain);
    return rc;
}

int dmk_linux_target_open(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                          DmkError *err)
{
    if (p->device)
        return open_device(p, out, info, err);
    struct stat st;
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    int rc = check_dir(p->dir, &st, err);
    if (rc == DMK_OK)
        rc = check_fs(p->dir, &st, info, err);
    if (rc != DMK_OK)
        return rc;
    DmkLinuxTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    info->discard = -1; /* unknown until the mount is found */
    dev_t disk = describe_mount(st.st_dev, p->dir, info);
    dmk_linux_describe_disk(disk, info, t->sensor, sizeof t->sensor);
    uint64_t size = 0;
    rc = check_space(p, &size, info, err);
    if (rc != DMK_OK) {
        free(t);
        return rc;
    }
    t->fd = create_file(p->dir, t, info, err);
    if (t->fd < 0) {
        free(t);
        return err->code;
    }
    /* Before any byte is allocated: btrfs sets NOCOW on empty files only. */
    dmk_linux_cow_off(t->fd, info);
    learn_alignment(t->fd, st.st_dev, info);
    rc = size_file(t->fd, p, size, err);
    if (rc != DMK_OK) {
        if (info->leftover_note[0]) {
            /* The run ends here: the caller sees only this message. */
            dmk_error_append(err, "; %s", info->leftover_note);
        }
        dmk_linux_target_close(t);
        return rc;
    }
    t->size = size;
    info->test_size = size;
    t->discard = info->discard;
    snprintf(t->dir, sizeof t->dir, "%s", p->dir);
    snprintf(t->mount_point, sizeof t->mount_point, "%s", info->mount_point);
    *out = t;
    return DMK_OK;
}

void dmk_linux_target_close(DmkLinuxTarget *t)
{
    if (!t)
        return;
    /* A file FUSE or NFS keeps under a hidden name: emptied first, so if
     * its server fails to remove it, what is left is small. */
    if (t->hidden && ftruncate(t->fd, 0) != 0) {
        /* nothing more to do: the close below still releases it */
    }
    close(t->fd);
    free(t);
}

int dmk_linux_target_temperature(DmkLinuxTarget *t, double *celsius)
{
    return t->sensor[0] ? dmk_linux_read_temp(t->sensor, celsius) : DMK_E_NOTSUP;
}

int dmk_linux_target_trim(DmkLinuxTarget *t, DmkTrimReport *rep, DmkError *err)
{
    if (t->device)
        return dmk_linux_device_trim(t, rep, err);
    return dmk_linux_trim(t->fd, t->size, t->dir, t->mount_point, t->discard, rep, err);
}
