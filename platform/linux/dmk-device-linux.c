/* A raw block device as the target (opt-in, --device): nothing is created
 * or deleted, links are resolved first, and before any write the device
 * must be in use by nothing: not mounted, not swap, no holder
 * (device-mapper, md), and not claimed by the kernel (O_EXCL). Each guard
 * names what it found, so a refusal says exactly why. */
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
#include "dmk-target-linux.h"

/* ---- the device and its partitions ---------------------------------------- */

/* Room for a disk's partitions; a GPT holds 128, few disks use more than a
 * handful, and a disk with more is refused rather than half checked. */
#define MAX_PARTS 256

typedef struct {
    dev_t dev;
    char name[64];   /* "loop3p1": /dev/<name> for messages */
    char sysfs[320]; /* "/sys/devices/virtual/block/loop3/loop3p1" */
} DmkBlk;

typedef struct {
    const char *root;   /* "" for the system; a fake tree's root in unit tests */
    const char *target; /* the device as the user named it */
    DmkBlk blk[MAX_PARTS + 1];
    size_t n; /* blk[0] is the device itself */
} DmkBlkSet;

static bool read_devnum(const char *path, dev_t *out)
{
    char line[32];
    unsigned ma, mi;
    if (!dmk_linux_read_line(path, line, sizeof line) || sscanf(line, "%u:%u", &ma, &mi) != 2)
        return false;
    *out = makedev(ma, mi);
    return true;
}

static bool add_blk(DmkBlkSet *s, dev_t dev, const char *sysfs)
{
    if (s->n >= sizeof s->blk / sizeof s->blk[0])
        return false;
    DmkBlk *b = &s->blk[s->n++];
    b->dev = dev;
    snprintf(b->sysfs, sizeof b->sysfs, "%s", sysfs);
    const char *slash = strrchr(sysfs, '/');
    snprintf(b->name, sizeof b->name, "%s", slash ? slash + 1 : sysfs);
    return true;
}

/* The device, then each partition: sysfs lists a disk's partitions as
 * subdirectories that carry a "partition" file. */
static int collect(DmkBlkSet *s, dev_t dev, DmkError *err)
{
    char link[PATH_MAX], dir[PATH_MAX];
    snprintf(link, sizeof link, "%s/sys/dev/block/%u:%u", s->root, major(dev), minor(dev));
    if (!realpath(link, dir))
        return dmk_error_os(err, DMK_E_IO, errno,
                            "refusing to write to %s: its entry in sysfs (%s) cannot be read, so "
                            "its partitions and holders cannot be checked",
                            s->target, link);
    add_blk(s, dev, dir);
    DIR *d = opendir(dir);
    if (!d)
        return dmk_error_os(err, DMK_E_IO, errno, "refusing to write to %s: listing %s failed",
                            s->target, dir);
    struct dirent *e;
    int rc = DMK_OK;
    while (rc == DMK_OK && (e = readdir(d)) != NULL) {
        char probe[PATH_MAX + 300], sub[PATH_MAX + 300];
        dev_t pdev;
        snprintf(probe, sizeof probe, "%s/%s/partition", dir, e->d_name);
        if (e->d_name[0] == '.' || access(probe, F_OK) != 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        snprintf(probe, sizeof probe, "%.4000s/dev", sub);
        if (!read_devnum(probe, &pdev) || !add_blk(s, pdev, sub))
            rc = dmk_error_set(err, DMK_E_LIMIT, 0,
                               "refusing to write to %s: its partition %s cannot be checked",
                               s->target, e->d_name);
    }
    closedir(d);
    return rc;
}

static const DmkBlk *find_dev(const DmkBlkSet *s, dev_t dev)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->blk[i].dev == dev)
            return &s->blk[i];
    return NULL;
}

/* "it" for the device itself, "its partition /dev/loop3p1" otherwise. */
static const char *who(const DmkBlkSet *s, const DmkBlk *b, char *buf, size_t len)
{
    if (b == &s->blk[0])
        snprintf(buf, len, "it");
    else
        snprintf(buf, len, "its partition /dev/%s", b->name);
    return buf;
}

/* ---- the guards --------------------------------------------------------------- */

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

static int check_holders(const DmkBlkSet *s, DmkError *err)
{
    for (size_t i = 0; i < s->n; i++) {
        char dir[PATH_MAX], w[128], h[300];
        snprintf(dir, sizeof dir, "%s/holders", s->blk[i].sysfs);
        DIR *d = opendir(dir);
        if (!d)
            continue; /* no holders directory: nothing can hold it */
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            describe_holder(s->root, e->d_name, h, sizeof h);
            closedir(d);
            return dmk_error_set(err, DMK_E_PERM, EBUSY,
                                 "refusing to write to %s: %s is held by %s", s->target,
                                 who(s, &s->blk[i], w, sizeof w), h);
        }
        closedir(d);
    }
    return DMK_OK;
}

/* The device node a mount or swap line names, when it is one of ours
 * (file systems such as btrfs report an anonymous device number). */
static const DmkBlk *node_in_set(const DmkBlkSet *s, const char *path)
{
    struct stat st;
    if (path[0] != '/' || stat(path, &st) != 0 || !S_ISBLK(st.st_mode))
        return NULL;
    return find_dev(s, st.st_rdev);
}

static int check_mounts(const DmkBlkSet *s, DmkError *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", s->root);
    FILE *f = fopen(path, "re");
    if (!f)
        return dmk_error_os(err, DMK_E_IO, errno,
                            "refusing to write to %s: %s cannot be read, so its mounts cannot be "
                            "checked",
                            s->target, path);
    char line[4096], w[128];
    DmkMountLine m;
    int rc = DMK_OK;
    while (rc == DMK_OK && fgets(line, sizeof line, f)) {
        if (!dmk_mountinfo_parse(line, &m))
            continue;
        const DmkBlk *b = find_dev(s, makedev(m.major, m.minor));
        if (!b)
            b = node_in_set(s, m.source);
        if (b)
            rc = dmk_error_set(err, DMK_E_PERM, EBUSY,
                               "refusing to write to %s: %s is mounted at %s", s->target,
                               who(s, b, w, sizeof w), m.mnt);
    }
    fclose(f);
    return rc;
}

static int check_swaps(const DmkBlkSet *s, DmkError *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proc/swaps", s->root);
    FILE *f = fopen(path, "re");
    if (!f)
        return DMK_OK; /* a kernel without swap support has none in use */
    char line[4096], name[4096], w[128];
    int rc = DMK_OK;
    while (rc == DMK_OK && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
            continue; /* the header line */
        dmk_mountinfo_unescape(name);
        const DmkBlk *b = node_in_set(s, name);
        if (b)
            rc = dmk_error_set(err, DMK_E_PERM, EBUSY,
                               "refusing to write to %s: %s is in use as swap", s->target,
                               who(s, b, w, sizeof w));
    }
    fclose(f);
    return rc;
}

/* Every guard that can name what uses the device; O_EXCL at open time
 * then catches what they cannot see (another mount namespace, another
 * program's exclusive open). */
int dmk_linux_device_check_unused(const char *root, const char *target, dev_t dev, DmkError *err)
{
    DmkBlkSet *s = calloc(1, sizeof *s);
    if (!s)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    s->root = root;
    s->target = target;
    int rc = collect(s, dev, err);
    if (rc == DMK_OK)
        rc = check_mounts(s, err);
    if (rc == DMK_OK)
        rc = check_swaps(s, err);
    if (rc == DMK_OK)
        rc = check_holders(s, err);
    free(s);
    return rc;
}

/* ---- opening ----------------------------------------------------------------- */

static const char *file_kind(mode_t m)
{
    return S_ISREG(m)    ? "a regular file"
           : S_ISDIR(m)  ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISFIFO(m) ? "a pipe"
           : S_ISSOCK(m) ? "a socket"
                         : "not a block device";
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
                             "%s is %s, not a block device: a device target is a disk such as "
                             "/dev/sdb (a directory takes a test file with --target)",
                             path, file_kind(st->st_mode));
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
    if (e == EACCES || e == EPERM)
        return dmk_error_os(err, DMK_E_PERM, e,
                            "opening the device %s for %s failed (raw devices need root or the "
                            "disk group)",
                            p->dir, p->device_write ? "writing" : "reading");
    return dmk_error_os(err, dmk_error_from_errno(e), e, "opening the device %s for %s failed",
                        p->dir, p->device_write ? "writing" : "reading");
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

/* Writing needs the user's confirmation and an unused device. */
static int check_write(const DmkTargetParams *p, const char *real, dev_t rdev, DmkError *err)
{
    if (!dmk_device_confirmed(p->dir, p->device_confirm))
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to write to %s: writing destroys its data, and the "
                             "device's name was not confirmed (%s given)",
                             p->dir,
                             p->device_confirm && *p->device_confirm ? p->device_confirm : "none");
    (void)real;
    return dmk_linux_device_check_unused("", p->dir, rdev, err);
}

int dmk_linux_device_open(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                          DmkError *err)
{
    char real[PATH_MAX];
    struct stat st;
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    int rc = resolve(p->dir, real, &st, err);
    if (rc == DMK_OK && p->device_write)
        rc = check_write(p, real, st.st_rdev, err);
    if (rc != DMK_OK)
        return rc;
    DmkLinuxTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    t->fd = open_device(p, real, err);
    if (t->fd < 0) {
        free(t);
        return err->code;
    }
    uint64_t size = 0;
    rc = learn_geometry(t->fd, p, &size, info, err);
    if (rc != DMK_OK) {
        close(t->fd);
        free(t);
        return rc;
    }
    describe(p, real, st.st_rdev, t, info);
    t->device = true;
    t->writable = p->device_write;
    t->size = size;
    t->discard = -1;
    info->test_size = size;
    snprintf(t->dir, sizeof t->dir, "%s", p->dir);
    *out = t;
    return DMK_OK;
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
        snprintf(rep->note, sizeof rep->note, "TRIM: %.400s does not support discard (%s).", t->dir,
                 strerror(e));
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
    }
    closedir(d);
    qsort(out, n, sizeof *out, cmp_device);
    return (int)n;
}
