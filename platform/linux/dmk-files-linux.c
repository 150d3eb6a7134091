/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Result files on Linux (POSIX calls only): what an output path is, the
 * temporary file beside it, and the rename that replaces the old file
 * only once the new one is complete and on disk. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/fs.h> /* FS_IOC_GETFLAGS, FS_APPEND_FL */
#endif

#include "dmk-platform.h"

#define LINK_HOPS 40 /* the kernel's own limit (ELOOP) */

static DmkFileKind kind_of(mode_t m)
{
    static const struct {
        mode_t type;
        DmkFileKind kind;
    } kinds[] = {
        {S_IFREG, DMK_FILE_REGULAR}, {S_IFDIR, DMK_FILE_DIR},   {S_IFIFO, DMK_FILE_FIFO},
        {S_IFCHR, DMK_FILE_CHAR},    {S_IFBLK, DMK_FILE_BLOCK}, {S_IFSOCK, DMK_FILE_SOCKET},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if ((m & S_IFMT) == kinds[i].type)
            return kinds[i].kind;
    return DMK_FILE_OTHER;
}

/* What stat tells of an existing file. */
static void set_from_stat(DmkFileInfo *info, const struct stat *st)
{
    info->exists = true;
    info->kind = kind_of(st->st_mode);
    info->dev = (uint64_t)st->st_dev;
    info->ino = (uint64_t)st->st_ino;
    info->nlink = (uint32_t)st->st_nlink;
    info->mode = (uint32_t)(st->st_mode & 07777);
}

/* The directory part of path ("." for a bare name) and the name. */
static void split(const char *path, char *dir, size_t dlen, const char **name)
{
    const char *slash = strrchr(path, '/');
    *name = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, dlen, ".");
    else if (slash == path)
        snprintf(dir, dlen, "/");
    else
        snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
}

/* Follows symbolic links by hand, so that a dangling one still names the
 * file a write would create: what path finally names, in out. */
static int follow_links(const char *path, char *out, size_t len)
{
    char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0;; hop++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        if (hop == LINK_HOPS)
            return ELOOP;
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return errno;
        link[n] = '\0';
        const char *name;
        split(cur, dir, sizeof dir, &name);
        if (link[0] == '/')
            snprintf(cur, sizeof cur, "%s", link);
        else if ((size_t)snprintf(cur, sizeof cur, "%s/%s", dir, link) >= sizeof cur)
            return ENAMETOOLONG;
    }
    if ((size_t)snprintf(out, len, "%s", cur) >= len)
        return ENAMETOOLONG;
    return 0;
}

/* info->real: the directory's real path and the name, so that "F",
 * "./F" and "d/../F" compare equal before the file exists. */
static int canonical(const char *final, DmkFileInfo *info)
{
    char dir[PATH_MAX], rdir[PATH_MAX];
    const char *name;
    split(final, dir, sizeof dir, &name);
    if (!realpath(dir, rdir))
        return errno;
    struct stat st;
    if (stat(rdir, &st) != 0)
        return errno;
    if (!S_ISDIR(st.st_mode))
        return ENOTDIR;
    if (name[0] == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return EISDIR;
    int n = snprintf(info->real, sizeof info->real, "%s%s%s", rdir,
                     strcmp(rdir, "/") == 0 ? "" : "/", name);
    if (n < 0 || (size_t)n >= sizeof info->real)
        return ENAMETOOLONG;
    /* The new file is made in that directory and renamed there, also
     * over an old one: it must take one. */
    if (access(rdir, W_OK) != 0)
        return errno;
    return 0;
}

/* chattr +a or +i on path (a directory or the old file): a name in it
 * can then never be renamed over or removed, so the result's rename
 * would fail after the whole run. false where the flags are unknown. */
static bool fixed_entries(const char *path, bool *immutable)
{
#ifdef FS_IOC_GETFLAGS
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    int fl = 0;
    bool got = fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0;
    if (fd >= 0)
        close(fd);
    *immutable = fl & FS_IMMUTABLE_FL;
    return got && (fl & (FS_IMMUTABLE_FL | FS_APPEND_FL));
#else
    (void)path;
    (void)immutable;
    return false;
#endif
}

/* Whether the old file can be replaced by a rename in its directory:
 * not in an append-only or immutable directory, not itself append-only
 * or immutable, and not another user's file in a sticky directory (/tmp)
 * where only its owner, the directory's or root may rename over it. Such
 * a file could often still be rewritten in place, but that would cut the
 * old result on a failure: it is refused up front instead, saying why. */
static int check_replaceable(const char *path, const DmkFileInfo *info, DmkError *err)
{
    char dir[PATH_MAX];
    const char *name;
    bool immutable = false;
    split(info->real, dir, sizeof dir, &name);
    /* A whole sentence for each attribute, none glued in. */
    if (fixed_entries(dir, &immutable) && immutable)
        return dmk_error_errno(err, EPERM,
                               "writing %s is not possible: its directory %s is immutable "
                               "(chattr +i), so no file in it can be replaced",
                               path, dir);
    if (fixed_entries(dir, &immutable))
        return dmk_error_errno(err, EPERM,
                               "writing %s is not possible: its directory %s is append-only "
                               "(chattr +a), so no file in it can be replaced",
                               path, dir);
    if (info->exists && fixed_entries(info->real, &immutable) && immutable)
        return dmk_error_errno(err, EPERM,
                               "replacing %s is not possible: it is immutable (chattr +i)", path);
    if (info->exists && fixed_entries(info->real, &immutable))
        return dmk_error_errno(err, EPERM,
                               "replacing %s is not possible: it is append-only (chattr +a)", path);
    struct stat d, f;
    uid_t me = geteuid();
    if (info->exists && me != 0 && stat(dir, &d) == 0 && (d.st_mode & S_ISVTX) &&
        stat(info->real, &f) == 0 && f.st_uid != me && d.st_uid != me)
        return dmk_error_errno(err, EPERM,
                               "replacing %s is not possible: it belongs to another user (uid "
                               "%lu) in the sticky directory %s, where only its owner may replace "
                               "it; give a new file name",
                               path, (unsigned long)f.st_uid, dir);
    return DMK_OK;
}

int dmk_os_output_info(const char *path, DmkFileInfo *info, DmkError *err)
{
    memset(info, 0, sizeof *info);
    struct stat st, out;
    int e = 0;
    if (stat(path, &st) == 0) {
        set_from_stat(info, &st);
        info->is_stdout = fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st.st_dev &&
                          out.st_ino == st.st_ino && out.st_rdev == st.st_rdev;
    } else if (errno != ENOENT) {
        e = errno;
    }
    if (info->kind == DMK_FILE_DIR)
        e = EISDIR;
    char final[PATH_MAX];
    if (e == 0 && info->kind != DMK_FILE_REGULAR && info->exists) {
        /* A device or FIFO is written as it is: no directory needed. */
        if (!realpath(path, info->real))
            snprintf(info->real, sizeof info->real, "%s", path);
        return DMK_OK;
    }
    if (e == 0)
        e = follow_links(path, final, sizeof final);
    if (e == 0)
        e = canonical(final, info);
    /* The user's own protection of the old file is kept: a file the user
     * may not write is not replaced either (root may, as with open). */
    if (e == 0 && info->exists && access(info->real, W_OK) != 0)
        e = errno;
    /* A refusal by chattr +a/+i said as that, not as a bare EPERM. */
    int rc = (e == 0 || e == EPERM || e == EACCES) && info->real[0]
                 ? check_replaceable(path, info, err)
                 : DMK_OK;
    if (rc != DMK_OK)
        return rc;
    if (e != 0)
        return dmk_error_errno(err, e, "opening %s for writing failed", path);
    return DMK_OK;
}

bool dmk_os_input_info(const char *path, DmkFileInfo *info)
{
    memset(info, 0, sizeof *info);
    struct stat st;
    if (stat(path, &st) != 0 || !realpath(path, info->real))
        return false;
    set_from_stat(info, &st);
    return true;
}

bool dmk_os_same_path(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static int refuse_kind(DmkError *err, const char *path, DmkFileKind kind, bool no_reader)
{
    if (no_reader)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "opening %s for writing failed: it is a FIFO with no reader, not a "
                             "regular file",
                             path);
    /* TRANSLATORS: the second %s is a whole sentence on what the path is: "it is a FIFO, not a
     * regular file". */
    return dmk_error_set(err, DMK_E_INVAL, 0, "opening %s for writing failed: %s", path,
                         dmk_file_kind_clause(kind));
}

/* Character devices a result may be written to: the memory devices
 * (/dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom) and
 * terminals (/dev/tty*, /dev/console, /dev/ptmx, /dev/pts/N). Any other
 * (a tape, a flash chip's mtd, a SCSI generic device, /dev/mem) is
 * written to only by its own tools. */
static bool harmless_char(dev_t rdev)
{
    unsigned ma = major(rdev), mi = minor(rdev);
    return (ma == 1 && (mi == 3 || mi == 5 || mi == 7 || mi == 8 || mi == 9)) || ma == 4 ||
           ma == 5 || (ma >= 136 && ma <= 143);
}

static bool never_written(const struct stat *st)
{
    return S_ISBLK(st->st_mode) || S_ISDIR(st->st_mode) || S_ISSOCK(st->st_mode) ||
           (S_ISCHR(st->st_mode) && !harmless_char(st->st_rdev));
}

int dmk_os_open_special(const char *path, FILE **out, DmkError *err)
{
    *out = NULL;
    struct stat st;
    /* Judged before any write-open: closing a disk opened for writing
     * makes udev rescan it (partitions dropped and re-read), refused or
     * not. */
    if (stat(path, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) && never_written(&st))
        return refuse_kind(err, path, kind_of(st.st_mode), false);
    /* O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of
     * waiting for one forever. O_NOCTTY: a terminal stays not ours. */
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
            return refuse_kind(err, path, DMK_FILE_FIFO, true);
        if (e == ENXIO && stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
            return refuse_kind(err, path, DMK_FILE_SOCKET, false);
        return dmk_error_errno(err, e, "opening %s for writing failed", path);
    }
    if (fstat(fd, &st) != 0 || never_written(&st)) {
        /* A result written over a disk would destroy what is on it (and
         * the path may have changed since the stat above). */
        DmkFileKind k = kind_of(st.st_mode);
        close(fd);
        return refuse_kind(err, path, k, false);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK); /* a reader that is slow is waited for */
    *out = fdopen(fd, "wb");
    if (!*out) {
        int e = errno;
        close(fd);
        return dmk_error_errno(err, e, "opening %s for writing failed", path);
    }
    return DMK_OK;
}

int dmk_os_open_input(const char *path, FILE **out, DmkError *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return dmk_error_errno(err, errno, "opening %s failed", path);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return dmk_error_errno(err, e, "opening %s failed", path);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return dmk_error_errno(err, EISDIR, "opening %s failed", path);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        /* TRANSLATORS: the second %s is a whole sentence on what the path is: "it is a FIFO,
         * not a regular file". */
        return dmk_error_set(err, DMK_E_INVAL, 0, "opening %s failed: %s", path,
                             dmk_file_kind_clause(kind_of(st.st_mode)));
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *out = fdopen(fd, "rb");
    if (!*out) {
        int e = errno;
        close(fd);
        return dmk_error_errno(err, e, "opening %s failed", path);
    }
    return DMK_OK;
}

/* The new file looks like the old: its owner (where allowed, i.e. as
 * root) and its permission bits. */
static void like_old(int fd, const char *real, const DmkFileInfo *like)
{
    struct stat st;
    if (!like || !like->exists)
        return;
    if (stat(real, &st) == 0 && fchown(fd, st.st_uid, st.st_gid) != 0) {
        /* not root: the file is ours, as a new file would be */
    }
    fchmod(fd, (mode_t)like->mode);
}

static int temp_name(const char *dir, char *out, size_t len);

/* Where the kernel links each open file: /proc/self/fd, or the directory
 * DMK_TEST_PROC_FD names, so a test can take /proc away. */
static void proc_fd_path(int fd, char *buf, size_t len)
{
    const char *dir = getenv("DMK_TEST_PROC_FD");
    snprintf(buf, len, "%s/%d", dir ? dir : "/proc/self/fd", fd);
}

/* linkat(AT_EMPTY_PATH): before Linux 6.10 only with CAP_DAC_READ_SEARCH
 * (ENOENT otherwise), as DMK_TEST_NO_FLINK makes it for the tests. */
static int link_fd(int fd, const char *to)
{
    if (getenv("DMK_TEST_NO_FLINK")) {
        errno = ENOENT;
        return -1;
    }
    return linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH);
}

/* Whether dmk_os_temp_name will be able to name the nameless file fd in
 * dir: through /proc (any user), or without /proc through AT_EMPTY_PATH,
 * which needs CAP_DAC_READ_SEARCH (on older kernels) and is tried here on
 * a second nameless file, linked and removed at once: a file once linked
 * and unlinked can never be linked again, so not on fd itself. Asked
 * before the run, so a chroot without /proc writes to a named temporary
 * file instead of losing the result after the run. */
static bool tmpfile_nameable(int fd, const char *dir)
{
    char proc[PATH_MAX], probe[PATH_MAX];
    struct stat a, b;
    proc_fd_path(fd, proc, sizeof proc);
    if (fstat(fd, &a) == 0 && stat(proc, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        return true;
    int p = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    bool ok = p >= 0 && temp_name(dir, probe, sizeof probe) == 0 && link_fd(p, probe) == 0;
    if (ok)
        unlink(probe);
    if (p >= 0)
        close(p);
    return ok;
}

int dmk_os_temp_beside(const char *real, const DmkFileInfo *like, char *tmp, size_t len, FILE **out,
                       DmkError *err)
{
    char dir[PATH_MAX];
    const char *name;
    *out = NULL;
    split(real, dir, sizeof dir, &name);
    int fd = -1, e = EEXIST;
#ifdef O_TMPFILE
    /* A file with no name until the result is complete: a process killed
     * meanwhile (SIGKILL, a frozen file system it was stuck on) leaves
     * nothing behind. File systems without it (vfat, FUSE), and a process
     * that could not name it at the end, get a name now. */
    fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd >= 0 && !tmpfile_nameable(fd, dir)) {
        close(fd);
        fd = -1;
    }
    if (fd >= 0 && len > 0)
        tmp[0] = '\0';
#endif
    for (int attempt = 0; fd < 0 && e == EEXIST && attempt < 100; attempt++) {
        /* Short, whatever the name's length: 255-byte names stay legal. */
        if ((size_t)snprintf(tmp, len, "%s/.drivemark-result-%ld-%08x.tmp", dir, (long)getpid(),
                             (unsigned)dmk_entropy64()) >= len)
            return dmk_error_errno(err, ENAMETOOLONG, "creating a temporary file beside %s failed",
                                   real);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        e = fd < 0 ? errno : 0;
    }
    if (fd < 0)
        return dmk_error_errno(err, e, "creating a temporary file in %s failed", dir);
    like_old(fd, real, like);
    *out = fdopen(fd, "wb");
    if (!*out) {
        e = errno;
        close(fd);
        if (tmp[0])
            unlink(tmp);
        return dmk_error_errno(err, e, "creating a temporary file in %s failed", dir);
    }
    return DMK_OK;
}

int dmk_os_temp_name(FILE *f, const char *real, char *tmp, size_t len, DmkError *err)
{
    char dir[PATH_MAX], proc[PATH_MAX];
    const char *name;
    split(real, dir, sizeof dir, &name);
    proc_fd_path(fileno(f), proc, sizeof proc);
    int e = EEXIST;
    for (int attempt = 0; e == EEXIST && attempt < 100; attempt++) {
        if ((size_t)snprintf(tmp, len, "%s/.drivemark-result-%ld-%08x.tmp", dir, (long)getpid(),
                             (unsigned)dmk_entropy64()) >= len)
            return dmk_error_errno(err, ENAMETOOLONG, "naming a temporary file in %s failed", dir);
        /* /proc's link for any user; without /proc AT_EMPTY_PATH (root, or
         * since Linux 6.10 the opener; tmpfile_nameable asked up front). */
        e = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
        if (e == ENOENT)
            e = link_fd(fileno(f), tmp) == 0 ? 0 : errno;
    }
    if (e != 0) {
        tmp[0] = '\0';
        return dmk_error_errno(err, e, "naming a temporary file in %s failed", dir);
    }
    return DMK_OK;
}

int dmk_os_file_sync(FILE *f, const char *path, DmkError *err)
{
    errno = 0;
    if (fflush(f) != 0)
        return dmk_error_errno(err, errno ? errno : EIO, "writing %s failed", path);
    /* EINVAL: a file that cannot be synced (a pipe, /dev/null) */
    if (fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS)
        return dmk_error_errno(err, errno, "writing %s failed", path);
    return DMK_OK;
}

int dmk_os_replace_file(const char *tmp, const char *dst, DmkError *err)
{
    if (rename(tmp, dst) != 0)
        return dmk_error_errno(err, errno, "renaming %s to %s failed", tmp, dst);
    /* The rename itself durable too: sync the directory (best effort). */
    char dir[PATH_MAX];
    const char *name;
    split(dst, dir, sizeof dir, &name);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    return DMK_OK;
}

bool dmk_os_remove_file(const char *path)
{
    return unlink(path) == 0 || errno == ENOENT;
}

/* A fresh unique name for a temporary file in dir. */
static int temp_name(const char *dir, char *out, size_t len)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        struct stat st;
        if ((size_t)snprintf(out, len, "%s/.drivemark-result-%ld-%08x.tmp", dir, (long)getpid(),
                             (unsigned)dmk_entropy64()) >= len)
            return ENAMETOOLONG;
        if (lstat(out, &st) != 0)
            return errno == ENOENT ? 0 : errno;
    }
    return EEXIST;
}

int dmk_os_rename_probe(const char *real, DmkError *err)
{
    char dir[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
    const char *name;
    split(real, dir, sizeof dir, &name);
    int e = temp_name(dir, a, sizeof a);
    int fd = e ? -1 : open(a, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return dmk_error_errno(err, e ? e : errno, "creating a temporary file in %s failed", dir);
    close(fd);
    const char *left = a;
    e = temp_name(dir, b, sizeof b);
    if (e == 0)
        e = rename(a, b) == 0 ? 0 : errno;
    if (e == 0)
        left = b;
    bool gone = unlink(left) == 0;
    if (e == 0 && !gone)
        e = errno;
    if (e == 0)
        return DMK_OK;
    /* Whole sentences for each operation and each outcome. */
    if (left == a)
        dmk_error_errno(err, e, "renaming a test file in %s failed", dir);
    else
        dmk_error_errno(err, e, "removing a test file in %s failed", dir);
    if (gone)
        dmk_error_append(err, ", so a result there could not replace %s safely", real);
    else
        dmk_error_append(err,
                         ", so a result there could not replace %s safely (the empty file %s is "
                         "left: remove it by hand)",
                         real, left);
    return dmk_error_from_errno(e);
}
