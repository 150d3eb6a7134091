/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A raw block device as the target (opt-in, --device): nothing is created
 * or deleted, links are resolved first, and before any write nothing may
 * use the device's storage by any path (dmk-guard-linux.c: mounts, swap,
 * holders, loop devices over the same storage, the kernel's claims), and
 * the device itself is opened with O_EXCL. Each guard names what it
 * found, so a refusal says exactly why. A descriptor a front end
 * obtained elsewhere (the window, through UDisks2) is checked to be that
 * device, opened as this file would open it, and guarded the same way;
 * the path is then never opened. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-drive-linux.h"
#include "dmk-mountinfo.h"
#include "dmk-target-rules.h"
#include "dmk-i18n.h"
#include "dmk-target-linux.h"

/* ---- opening ----------------------------------------------------------------- */

/* What a path that is no block device is, each kind a whole sentence of
 * its own (the kind is no phrase glued into a translated message): for
 * resolve's error, for a listed device that changed, and for a handed
 * over descriptor. The sentences of one use share their placeholders. */
typedef enum { KIND_TARGET, KIND_NOW, KIND_FD } KindUse;

static const char *const kind_sentences[][3] = {
    {DMK_N_("%s is a regular file, not a block device: a device target is a disk such as "
            "/dev/sdb (a directory takes a test file with --target)"),
     DMK_N_("it is a regular file now, not a block device"),
     DMK_N_("refusing to use %s: the descriptor handed over for it is a regular file, not the "
            "device %s (%u:%u)")},
    {DMK_N_("%s is a directory, not a block device: a device target is a disk such as /dev/sdb "
            "(a directory takes a test file with --target)"),
     DMK_N_("it is a directory now, not a block device"),
     DMK_N_("refusing to use %s: the descriptor handed over for it is a directory, not the "
            "device %s (%u:%u)")},
    {DMK_N_("%s is a character device, not a block device: a device target is a disk such as "
            "/dev/sdb (a directory takes a test file with --target)"),
     DMK_N_("it is a character device now, not a block device"),
     DMK_N_("refusing to use %s: the descriptor handed over for it is a character device, not "
            "the device %s (%u:%u)")},
    {DMK_N_("%s is a pipe, not a block device: a device target is a disk such as /dev/sdb (a "
            "directory takes a test file with --target)"),
     DMK_N_("it is a pipe now, not a block device"),
     DMK_N_("refusing to use %s: the descriptor handed over for it is a pipe, not the device "
            "%s (%u:%u)")},
    {DMK_N_("%s is a socket, not a block device: a device target is a disk such as /dev/sdb (a "
            "directory takes a test file with --target)"),
     DMK_N_("it is a socket now, not a block device"),
     DMK_N_("refusing to use %s: the descriptor handed over for it is a socket, not the device "
            "%s (%u:%u)")},
    {DMK_N_("%s is not a block device: a device target is a disk such as /dev/sdb (a directory "
            "takes a test file with --target)"),
     DMK_N_("it is not a block device now"),
     DMK_N_("refusing to use %s: the descriptor handed over for it is not a block device, not "
            "the device %s (%u:%u)")},
    {NULL, NULL,
     DMK_N_("refusing to use %s: the descriptor handed over for it is another block device, not "
            "the device %s (%u:%u)")},
};

/* The English sentence (the msgid) for mode m; fmt is the one for a
 * regular file, which the compiler checks the arguments against (every
 * sentence of a use has the same placeholders). */
static const char *kind_sentence(mode_t m, KindUse use, const char *fmt)
    __attribute__((format_arg(3)));
static const char *kind_sentence(mode_t m, KindUse use, const char *fmt)
{
    size_t k = S_ISREG(m)    ? 0
               : S_ISDIR(m)  ? 1
               : S_ISCHR(m)  ? 2
               : S_ISFIFO(m) ? 3
               : S_ISSOCK(m) ? 4
               : S_ISBLK(m)  ? 6
                             : 5;
    const char *s = kind_sentences[k][use];
    return s ? s : fmt;
}

/* The path with links resolved, checked to be an existing block device.
 * realpath creates nothing; a missing path is an error, never a new file. */
static int resolve(const char *path, char *real, struct stat *st, DmkError *err)
{
    if (!realpath(path, real)) {
        if (errno == ENOENT || errno == ENOTDIR)
            return dmk_error_os(err, DMK_E_NOENT, errno,
                                "the device %s does not exist (a device target is never created)",
                                path);
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "resolving the device path %s failed", path);
    }
    if (stat(real, st) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno, "reading the device %s failed",
                            real);
    if (!S_ISBLK(st->st_mode))
        return dmk_error_set(err, DMK_E_INVAL, ENOTBLK,
                             kind_sentence(st->st_mode, KIND_TARGET,
                                           "%s is a regular file, not a block device: a device "
                                           "target is a disk such as /dev/sdb (a directory takes "
                                           "a test file with --target)"),
                             path);
    return DMK_OK;
}

static int open_device(const DmkTargetParams *p, const char *real, DmkError *err)
{
    int flags = (p->device_write ? O_RDWR | O_EXCL : O_RDONLY) | O_DIRECT | O_CLOEXEC;
    int fd = open(real, flags);
    if (fd >= 0)
        return fd;
    int e = errno;
    if (e == EBUSY)
        return dmk_error_os(err, DMK_E_PERM, e,
                            "refusing to write to %s: the kernel reports it in use (an exclusive "
                            "open failed: mounted, held or opened by another program)",
                            p->dir);
    /* A whole sentence for writing and one for reading. */
    bool perm = e == EACCES || e == EPERM;
    if (perm && p->device_write)
        return dmk_error_os(err, DMK_E_PERM, e,
                            "opening the device %s for writing failed (raw devices need root or "
                            "the disk group)",
                            p->dir);
    if (perm)
        return dmk_error_os(err, DMK_E_PERM, e,
                            "opening the device %s for reading failed (raw devices need root or "
                            "the disk group)",
                            p->dir);
    if (p->device_write)
        return dmk_error_os(err, dmk_error_from_errno(e), e,
                            "opening the device %s for writing failed", p->dir);
    return dmk_error_os(err, dmk_error_from_errno(e), e, "opening the device %s for reading failed",
                        p->dir);
}

/* The region's size: p->size, or the whole device; the size and the
 * sector come from the device itself, not sysfs, so a link or partition
 * reports its own. */
static int learn_geometry(int fd, const DmkTargetParams *p, uint64_t *size, DmkTargetInfo *info,
                          DmkError *err)
{
    uint64_t bytes = 0;
    int logical = 0;
    if (ioctl(fd, BLKGETSIZE64, &bytes) != 0 || ioctl(fd, BLKSSZGET, &logical) != 0)
        return dmk_error_os(err, DMK_E_IO, errno, "reading the size of the device %s failed",
                            p->dir);
    uint32_t align = logical >= 512 ? (uint32_t)logical : 512;
    info->offset_align = align;
    info->mem_align = align;
    info->fs_size_bytes = bytes;
    return dmk_device_region(p->dir, p->size, bytes, align, size, err);
}

static void describe(const DmkTargetParams *p, const char *real, dev_t rdev, DmkLinuxTarget *t,
                     DmkTargetInfo *info)
{
    info->is_device = true;
    info->discard = -1;
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    snprintf(info->device, sizeof info->device, "%.255s", real);
    snprintf(info->fs_type, sizeof info->fs_type, "%s", DMK_FS_TYPE_DEVICE);
    dmk_linux_describe_disk(rdev, info, t->sensor, sizeof t->sensor);
}

/* Writing needs the user's confirmation... */
static int check_consent(const DmkTargetParams *p, DmkError *err)
{
    if (dmk_device_confirmed(p->dir, p->device_confirm))
        return DMK_OK;
    return dmk_error_set(err, DMK_E_PERM, 0,
                         "refusing to write to %s: writing destroys its data, and the "
                         "device's name was not confirmed (%s given)",
                         p->dir,
                         p->device_confirm && *p->device_confirm ? p->device_confirm : "none");
}

/* ... and an unused device. */
static int check_write(const DmkTargetParams *p, dev_t rdev, DmkError *err)
{
    int rc = check_consent(p, err);
    return rc == DMK_OK ? dmk_linux_device_check_unused("", p->dir, rdev, err) : rc;
}

/* The root (or disk group) way: the guards, then an O_EXCL open of the
 * resolved path, then the guards once more on what is now held. */
static int open_by_path(const DmkTargetParams *p, const char *real, const struct stat *st,
                        DmkError *err)
{
    int rc = p->device_write ? check_write(p, st->st_rdev, err) : DMK_OK;
    if (rc != DMK_OK)
        return -1;
    int fd = open_device(p, real, err);
    if (fd < 0)
        return -1;
    /* The node must still be the device the guards checked (a path
     * replaced in between would send the writes elsewhere). */
    struct stat now;
    if (fstat(fd, &now) != 0 || !S_ISBLK(now.st_mode) || now.st_rdev != st->st_rdev) {
        close(fd);
        dmk_error_set(err, DMK_E_PERM, 0,
                      "refusing to use %s: the device changed between the checks and the "
                      "open (%s is now another device)",
                      p->dir, real);
        return -1;
    }
    /* Between the guards and the open a loop device can be detached and
     * attached to another file under the same device number, which the
     * fstat above cannot tell. While this descriptor is open the kernel
     * defers a detach (LOOP_CLR_FD only sets autoclear) and refuses a new
     * attach (EBUSY), so what is checked now stays true for the run. */
    if (p->device_write && dmk_linux_device_check_unused_held(p->dir, st->st_rdev, err) != DMK_OK) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A descriptor handed over must be the device the user named, opened
 * the way open_device opens it: direct I/O (a cached one would measure
 * memory), read-write for a run that writes, and without O_SYNC/O_DSYNC
 * for one that writes (each write would then carry FUA, a write-through
 * to the medium that the path's open does not ask for, so the numbers
 * would not compare). O_EXCL cannot be read back (the kernel keeps no
 * creation flag in F_GETFL): the guards below look for users instead. */
static int check_given_fd(const DmkTargetParams *p, const char *real, const struct stat *st,
                          DmkError *err)
{
    struct stat got;
    int fl = fcntl(p->device_fd, F_GETFL);
    if (fl < 0 || fstat(p->device_fd, &got) != 0)
        return dmk_error_os(err, DMK_E_INVAL, errno,
                            "the descriptor handed over for the device %s cannot be used", p->dir);
    if (!(fl & O_DIRECT))
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing to use %s: the descriptor handed over for it was not opened "
                             "for direct I/O (O_DIRECT), and cached I/O would measure memory",
                             p->dir);
    if ((fl & O_ACCMODE) == O_WRONLY)
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to use %s: the descriptor handed over for it was opened for "
                             "writing only, and every run reads",
                             p->dir);
    if (p->device_write && (fl & O_ACCMODE) != O_RDWR)
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to write to %s: the descriptor handed over for it was "
                             "opened for reading only",
                             p->dir);
    if (p->device_write && (fl & O_DSYNC))
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing to write to %s: the descriptor handed over for it was "
                             "opened with O_SYNC, which makes every write a write-through (FUA), "
                             "so the write numbers would not compare with a plain direct open",
                             p->dir);
    if (!S_ISBLK(got.st_mode) || got.st_rdev != st->st_rdev)
        return dmk_error_set(err, DMK_E_PERM, 0,
                             kind_sentence(got.st_mode, KIND_FD,
                                           "refusing to use %s: the descriptor handed over for it "
                                           "is a regular file, not the device %s (%u:%u)"),
                             p->dir, real, major(st->st_rdev), minor(st->st_rdev));
    return DMK_OK;
}

/* The way for a user who may not open the node (the window, through
 * UDisks2): the same consent and guards on the device the descriptor
 * is, checked as held (the descriptor is open already), and a duplicate
 * of it for the target; the path is never opened. */
static int adopt_fd(const DmkTargetParams *p, const char *real, const struct stat *st,
                    DmkError *err)
{
    int rc = p->device_write ? check_consent(p, err) : DMK_OK;
    if (rc == DMK_OK)
        rc = check_given_fd(p, real, st, err);
    if (rc == DMK_OK && p->device_write)
        rc = dmk_linux_device_check_unused_held(p->dir, st->st_rdev, err);
    if (rc != DMK_OK)
        return -1;
    int fd = fcntl(p->device_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        dmk_error_os(err, dmk_error_from_errno(errno), errno,
                     "duplicating the descriptor of the device %s failed", p->dir);
    return fd;
}

static int finish_open(const DmkTargetParams *p, const char *real, dev_t rdev, DmkLinuxTarget *t,
                       DmkTargetInfo *info, DmkError *err)
{
    uint64_t size = 0;
    int rc = learn_geometry(t->fd, p, &size, info, err);
    if (rc != DMK_OK)
        return rc;
    describe(p, real, rdev, t, info);
    t->device = true;
    t->writable = p->device_write;
    t->size = size;
    t->discard = -1;
    info->test_size = size;
    snprintf(t->dir, sizeof t->dir, "%s", p->dir);
    return DMK_OK;
}

int dmk_linux_device_open(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                          DmkError *err)
{
    char real[PATH_MAX];
    struct stat st;
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    int rc = resolve(p->dir, real, &st, err);
    if (rc != DMK_OK)
        return rc;
    DmkLinuxTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    t->fd = p->has_device_fd ? adopt_fd(p, real, &st, err) : open_by_path(p, real, &st, err);
    if (t->fd < 0) {
        free(t);
        return err->code;
    }
    rc = finish_open(p, real, st.st_rdev, t, info, err);
    if (rc != DMK_OK) {
        close(t->fd);
        free(t);
        return rc;
    }
    *out = t;
    return DMK_OK;
}

void dmk_os_device_fd_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

int dmk_linux_device_trim(DmkLinuxTarget *t, DmkTrimReport *rep, DmkError *err)
{
    memset(rep, 0, sizeof *rep);
    if (!t->writable) {
        snprintf(rep->note, sizeof rep->note, "TRIM: not done, %.400s is open for reading only.",
                 t->dir);
        return DMK_OK;
    }
    uint64_t range[2] = {0, t->size};
    if (ioctl(t->fd, BLKDISCARD, range) == 0) {
        rep->punched_bytes = t->size;
        snprintf(rep->note, sizeof rep->note,
                 "TRIM: discarded the first %llu MiB of %.400s (BLKDISCARD).",
                 (unsigned long long)(t->size >> 20), t->dir);
        return DMK_OK;
    }
    int e = errno;
    if (e == EOPNOTSUPP || e == ENOTTY || e == EINVAL) {
        char why[128];
        snprintf(rep->note, sizeof rep->note, "TRIM: %.400s does not support discard (%s).", t->dir,
                 dmk_linux_errno_text_c(e, why, sizeof why));
        return DMK_OK;
    }
    return dmk_error_os(err, dmk_error_from_errno(e), e,
                        "discarding the test region of %s (BLKDISCARD) failed", t->dir);
}

/* ---- listing and names ----------------------------------------------------- */

void dmk_os_resolve_device(const char *path, char *buf, size_t len)
{
    char real[PATH_MAX];
    snprintf(buf, len, "%s", path && realpath(path, real) ? real : path ? path : "");
}

bool dmk_os_device_empty(const char *path)
{
    /* O_NONBLOCK: a removable drive's open does not wait for a medium. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOMEDIUM;
    struct stat st;
    uint64_t bytes = 1;
    bool empty = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
                 ioctl(fd, BLKGETSIZE64, &bytes) == 0 && bytes == 0;
    close(fd);
    return empty;
}

int dmk_os_device_usage(const char *path, char *buf, size_t len)
{
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(path, real) || stat(real, &st) != 0) {
        int e = errno;
        snprintf(buf, len, "%s", strerror(e));
        return dmk_error_from_errno(e);
    }
    if (!S_ISBLK(st.st_mode)) {
        snprintf(buf, len, "%s",
                 DMK_(kind_sentence(st.st_mode, KIND_NOW,
                                    "it is a regular file now, not a block device")));
        return DMK_E_INVAL;
    }
    return dmk_linux_device_usage("", path, st.st_rdev, buf, len) ? 1 : 0;
}

/* RAM disks measure memory; an unattached loop device has no size. */
static bool listable(const char *name, uint64_t size)
{
    return size > 0 && strncmp(name, "ram", 3) != 0 && strncmp(name, "zram", 4) != 0 &&
           name[0] != '.';
}

static int cmp_device(const void *a, const void *b)
{
    return strcmp(((const DmkDevice *)a)->path, ((const DmkDevice *)b)->path);
}

int dmk_os_list_devices(DmkDevice *out, size_t max)
{
    DIR *d = opendir("/sys/block");
    if (!d)
        return DMK_E_NOENT;
    struct dirent *e;
    size_t n = 0;
    while (n < max && (e = readdir(d)) != NULL) {
        char path[PATH_MAX], line[64];
        snprintf(path, sizeof path, "/sys/block/%s/size", e->d_name);
        uint64_t size =
            dmk_linux_read_line(path, line, sizeof line) ? strtoull(line, NULL, 10) * 512ULL : 0;
        if (!listable(e->d_name, size))
            continue;
        DmkDevice *dv = &out[n++];
        snprintf(dv->path, sizeof dv->path, "/dev/%.240s", e->d_name);
        dv->size_bytes = size;
        snprintf(path, sizeof path, "/sys/block/%s/device/model", e->d_name);
        if (!dmk_linux_read_line(path, dv->model, sizeof dv->model)) {
            snprintf(path, sizeof path, "/sys/block/%s/device/name", e->d_name);
            dmk_linux_read_line(path, dv->model, sizeof dv->model);
        }
        dv->in_use = dmk_os_device_usage(dv->path, dv->usage, sizeof dv->usage) != 0;
    }
    closedir(d);
    qsort(out, n, sizeof *out, cmp_device);
    return (int)n;
}
