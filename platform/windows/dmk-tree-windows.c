/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File trees for the real-world lab tests (dmk-platform.h) on Windows:
 * the C runtime's descriptors over long UTF-16 paths, buffered as
 * Explorer and Robocopy copy. */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

#include "dmk-platform.h"
#include "dmk-win32.h"

static int no_path(DmkError *err, const char *path)
{
    return dmk_error_set(err, DMK_E_NOMEM, 0, "cannot convert the path %s", path);
}

int dmk_tree_mkdir(const char *path, DmkError *err)
{
    wchar_t *w = dmk_win_long_path(path);
    if (!w)
        return no_path(err, path);
    BOOL ok = CreateDirectoryW(w, NULL);
    DWORD e = GetLastError();
    free(w);
    return ok ? DMK_OK : dmk_win_error(err, e, "cannot create the directory %s", path);
}

int dmk_tree_open(const char *path, bool create, int *fd, DmkError *err)
{
    wchar_t *w = dmk_win_long_path(path);
    if (!w)
        return no_path(err, path);
    int flags = create ? _O_WRONLY | _O_CREAT | _O_EXCL : _O_RDONLY;
    *fd = _wopen(w, flags | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
    int e = errno;
    free(w);
    /* One whole sentence per operation, each translated as it is. */
    if (*fd < 0 && create)
        return dmk_error_errno(err, e, "cannot create %s", path);
    if (*fd < 0)
        return dmk_error_errno(err, e, "cannot open %s", path);
    return DMK_OK;
}

int64_t dmk_tree_read(int fd, void *buf, size_t len, const char *path, DmkError *err)
{
    int n = _read(fd, buf, (unsigned)(len > (1u << 30) ? 1u << 30 : len));
    if (n < 0)
        return dmk_error_errno(err, errno, "cannot read %s", path);
    return n;
}

int dmk_tree_write(int fd, const void *buf, size_t len, const char *path, DmkError *err)
{
    const char *p = buf;
    while (len) {
        unsigned chunk = (unsigned)(len > (1u << 30) ? 1u << 30 : len);
        int n = _write(fd, p, chunk);
        if (n <= 0)
            return dmk_error_errno(err, n < 0 ? errno : ENOSPC, "cannot write %s", path);
        p += n;
        len -= (size_t)n;
    }
    return DMK_OK;
}

void dmk_tree_close(int fd)
{
    if (fd >= 0)
        _close(fd);
}

/* FlushFileBuffers through a handle of its own that may write: Windows
 * flushes only through one (a read-only handle gets access denied), where
 * POSIX fsync takes any descriptor. */
static int flush_by_path(const char *path, DmkError *err)
{
    wchar_t *w = dmk_win_long_path(path);
    if (!w)
        return no_path(err, path);
    HANDLE h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, 0, NULL);
    free(w);
    BOOL ok = h != INVALID_HANDLE_VALUE && FlushFileBuffers(h);
    DWORD e = ok ? 0 : GetLastError();
    if (h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
    return ok ? DMK_OK : dmk_win_error(err, e, "cannot flush %s to the drive", path);
}

int dmk_tree_sync(int fd, const char *path, DmkError *err)
{
    /* _commit is FlushFileBuffers on the descriptor's handle; a descriptor
     * opened for reading (the copy's source) cannot flush, a new handle can. */
    if (_commit(fd) == 0)
        return DMK_OK;
    if (errno == EBADF || errno == EACCES)
        return flush_by_path(path, err);
    return dmk_error_errno(err, errno, "cannot flush %s to the drive", path);
}

void dmk_tree_drop_cache(int fd, const char *path)
{
    (void)fd;
    /* Opening a file without buffering makes the cache manager flush and
     * purge its cached pages (the file was just flushed): the next
     * buffered read comes from the drive. */
    wchar_t *w = dmk_win_long_path(path);
    if (!w)
        return;
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
                           FILE_FLAG_NO_BUFFERING, NULL);
    free(w);
    if (h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
}

int dmk_tree_sync_dir(const char *path, DmkError *err)
{
    /* NTFS journals its directory entries: a flushed file's name is as
     * durable as its data once the journal is, which FlushFileBuffers on
     * the file already forced. */
    (void)path;
    (void)err;
    return DMK_OK;
}

int dmk_tree_free(const char *dir, uint64_t *free_bytes, DmkError *err)
{
    wchar_t *w = dmk_win_long_path(dir);
    if (!w)
        return no_path(err, dir);
    ULARGE_INTEGER avail;
    BOOL ok = GetDiskFreeSpaceExW(w, &avail, NULL, NULL);
    DWORD e = GetLastError();
    free(w);
    if (!ok)
        return dmk_win_error(err, e, "cannot read the free space of %s", dir);
    *free_bytes = avail.QuadPart;
    return DMK_OK;
}

/* Depth first; reparse points are removed, never followed. */
static DWORD remove_w(const wchar_t *w)
{
    DWORD attr = GetFileAttributesW(w);
    if (attr == INVALID_FILE_ATTRIBUTES) {
        DWORD e = GetLastError();
        return e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? 0 : e;
    }
    if (!(attr & FILE_ATTRIBUTE_DIRECTORY) || (attr & FILE_ATTRIBUTE_REPARSE_POINT))
        return (attr & FILE_ATTRIBUTE_DIRECTORY ? RemoveDirectoryW(w) : DeleteFileW(w))
                   ? 0
                   : GetLastError();
    wchar_t *pattern = dmk_win_join(w, L"*");
    if (!pattern)
        return ERROR_NOT_ENOUGH_MEMORY;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(pattern, &fd);
    free(pattern);
    DWORD e = 0;
    while (h != INVALID_HANDLE_VALUE && e == 0) {
        if (wcscmp(fd.cFileName, L".") != 0 && wcscmp(fd.cFileName, L"..") != 0) {
            wchar_t *child = dmk_win_join(w, fd.cFileName);
            e = child ? remove_w(child) : ERROR_NOT_ENOUGH_MEMORY;
            free(child);
        }
        if (!FindNextFileW(h, &fd))
            break;
    }
    if (h != INVALID_HANDLE_VALUE)
        FindClose(h);
    if (e == 0 && !RemoveDirectoryW(w))
        e = GetLastError();
    return e;
}

int dmk_tree_remove(const char *path, DmkError *err)
{
    wchar_t *w = dmk_win_long_path(path);
    if (!w)
        return no_path(err, path);
    DWORD e = remove_w(w);
    free(w);
    return e ? dmk_win_error(err, e, "cannot remove %s", path) : DMK_OK;
}

void dmk_tree_find(const char *dir, const char *prefix, char *name, size_t len)
{
    name[0] = '\0';
    wchar_t *w = dmk_win_long_path(dir);
    wchar_t *pattern = w ? dmk_win_join(w, L"*") : NULL;
    free(w);
    if (!pattern)
        return;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(pattern, &fd);
    free(pattern);
    while (h != INVALID_HANDLE_VALUE) {
        char u[MAX_PATH * 3];
        dmk_win_utf8(fd.cFileName, u, sizeof u);
        if (strncmp(u, prefix, strlen(prefix)) == 0) {
            snprintf(name, len, "%s", u);
            break;
        }
        if (!FindNextFileW(h, &fd))
            break;
    }
    if (h != INVALID_HANDLE_VALUE)
        FindClose(h);
}

double dmk_thread_cpu_s(void)
{
    FILETIME c, x, k, u;
    if (!GetThreadTimes(GetCurrentThread(), &c, &x, &k, &u))
        return 0.0;
    ULARGE_INTEGER kk = {.LowPart = k.dwLowDateTime, .HighPart = k.dwHighDateTime};
    ULARGE_INTEGER uu = {.LowPart = u.dwLowDateTime, .HighPart = u.dwHighDateTime};
    return (double)(kk.QuadPart + uu.QuadPart) / 1e7;
}
