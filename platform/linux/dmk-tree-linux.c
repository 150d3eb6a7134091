/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File trees for the real-world lab tests (dmk-platform.h): plain
 * buffered I/O, as applications copy, with fsync and fadvise. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "dmk-platform.h"

int dmk_tree_mkdir(const char *path, DmkError *err)
{
    if (mkdir(path, 0755) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "cannot create the directory %s", path);
    return DMK_OK;
}

int dmk_tree_open(const char *path, bool create, int *fd, DmkError *err)
{
    int flags = create ? O_WRONLY | O_CREAT | O_EXCL : O_RDONLY;
    *fd = open(path, flags | O_CLOEXEC, 0644);
    /* One whole sentence per operation, each translated as it is. */
    if (*fd < 0 && create)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno, "cannot create %s", path);
    if (*fd < 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno, "cannot open %s", path);
    return DMK_OK;
}

int64_t dmk_tree_read(int fd, void *buf, size_t len, const char *path, DmkError *err)
{
    for (;;) {
        ssize_t n = read(fd, buf, len);
        if (n >= 0)
            return n;
        if (errno != EINTR)
            return dmk_error_os(err, dmk_error_from_errno(errno), errno, "cannot read %s", path);
    }
}

int dmk_tree_write(int fd, const void *buf, size_t len, const char *path, DmkError *err)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : ENOSPC;
            return dmk_error_os(err, dmk_error_from_errno(e), e, "cannot write %s", path);
        }
        p += n;
        len -= (size_t)n;
    }
    return DMK_OK;
}

void dmk_tree_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

int dmk_tree_sync(int fd, const char *path, DmkError *err)
{
    if (fsync(fd) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno, "cannot flush %s to the drive",
                            path);
    return DMK_OK;
}

void dmk_tree_drop_cache(int fd, const char *path)
{
    (void)path;
    /* Clean pages only go: the caller synced the file first. */
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

int dmk_tree_sync_dir(const char *path, DmkError *err)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno, "cannot open the directory %s",
                            path);
    int rc = dmk_tree_sync(fd, path, err);
    close(fd);
    return rc;
}

int dmk_tree_free(const char *dir, uint64_t *free_bytes, DmkError *err)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "cannot read the free space of %s", dir);
    *free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
    return DMK_OK;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    int rc = flag == FTW_DP ? rmdir(path) : unlink(path);
    return rc != 0 && errno != ENOENT ? errno : 0;
}

int dmk_tree_remove(const char *path, DmkError *err)
{
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return DMK_OK;
    /* Depth first, never following links out of the tree. */
    int e = nftw(path, remove_one, 32, FTW_DEPTH | FTW_PHYS);
    if (e != 0) {
        e = e > 0 ? e : errno;
        return dmk_error_os(err, dmk_error_from_errno(e), e, "cannot remove %s", path);
    }
    return DMK_OK;
}

void dmk_tree_find(const char *dir, const char *prefix, char *name, size_t len)
{
    name[0] = '\0';
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            snprintf(name, len, "%s", e->d_name);
            break;
        }
    if (d)
        closedir(d);
}

double dmk_thread_cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return 0.0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
