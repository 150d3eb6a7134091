/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Result files on Windows: what an output path is, the temporary file
 * beside it, and MoveFileExW, which replaces the old file in one step
 * once the new one is complete and flushed. Paths are UTF-8, as everywhere
 * in Drivemark, and reach Windows only through the wide (UTF-16) APIs:
 * the C runtime's narrow ones would read them in the ANSI code page, so a
 * Cyrillic folder would fail under a Russian one and turn to mojibake
 * under an English one. */
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

static void split(const char *path, char *dir, size_t dlen, const char **name)
{
    const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
    if (back && (!slash || back > slash))
        slash = back;
    *name = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, dlen, ".");
    else if (slash == path || (slash == path + 2 && path[1] == ':'))
        snprintf(dir, dlen, "%.*s", (int)(slash - path + 1), path);
    else
        snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
}

/* The calls below on a UTF-8 path: each converts it to UTF-16 and says
 * EINVAL (errno) for a path that is not valid UTF-8. */
static int u8_stat(const char *path, struct _stat64 *st)
{
    wchar_t *w = dmk_win_wide(path);
    int rc = w ? _wstat64(w, st) : (errno = EINVAL, -1);
    free(w);
    return rc;
}

static FILE *u8_fopen(const char *path, const wchar_t *mode)
{
    wchar_t *w = dmk_win_wide(path);
    FILE *f = w ? _wfopen(w, mode) : (errno = EINVAL, NULL);
    free(w);
    return f;
}

static int u8_open(const char *path, int flags, int pmode)
{
    wchar_t *w = dmk_win_wide(path);
    int fd = w ? _wopen(w, flags, pmode) : (errno = EINVAL, -1);
    free(w);
    return fd;
}

static int u8_access(const char *path, int mode)
{
    wchar_t *w = dmk_win_wide(path);
    int rc = w ? _waccess(w, mode) : (errno = EINVAL, -1);
    free(w);
    return rc;
}

static int u8_unlink(const char *path)
{
    wchar_t *w = dmk_win_wide(path);
    int rc = w ? _wunlink(w) : (errno = EINVAL, -1);
    free(w);
    return rc;
}

/* _fullpath in UTF-8 (NULL when it fails or does not fit). */
static char *u8_fullpath(char *out, const char *path, size_t len)
{
    wchar_t *w = dmk_win_wide(path), full[4096];
    bool ok = w && _wfullpath(full, w, sizeof full / sizeof full[0]);
    free(w);
    if (!ok)
        return NULL;
    dmk_win_utf8(full, out, len);
    return out[0] ? out : NULL;
}

/* The volume and file index of an open handle: a file's identity. */
static bool identity(HANDLE h, uint64_t *dev, uint64_t *ino)
{
    BY_HANDLE_FILE_INFORMATION bi;
    if (h == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(h, &bi))
        return false;
    *dev = bi.dwVolumeSerialNumber;
    *ino = ((uint64_t)bi.nFileIndexHigh << 32) | bi.nFileIndexLow;
    return true;
}

static void fill_existing(const char *path, DmkFileInfo *info)
{
    wchar_t *w = dmk_win_long_path(path);
    HANDLE h = w ? CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                               OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL)
                 : INVALID_HANDLE_VALUE;
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return;
    BY_HANDLE_FILE_INFORMATION bi;
    if (GetFileInformationByHandle(h, &bi))
        info->nlink = bi.nNumberOfLinks;
    identity(h, &info->dev, &info->ino);
    CloseHandle(h);
    uint64_t odev, oino;
    info->is_stdout = info->ino && identity(GetStdHandle(STD_OUTPUT_HANDLE), &odev, &oino) &&
                      odev == info->dev && oino == info->ino;
}

int dmk_os_output_info(const char *path, DmkFileInfo *info, DmkError *err)
{
    memset(info, 0, sizeof *info);
    struct _stat64 st;
    int e = 0;
    if (u8_stat(path, &st) == 0) {
        info->exists = true;
        info->mode = (uint32_t)(st.st_mode & 0777);
        info->kind = (st.st_mode & _S_IFMT) == _S_IFREG   ? DMK_FILE_REGULAR
                     : (st.st_mode & _S_IFMT) == _S_IFDIR ? DMK_FILE_DIR
                     : (st.st_mode & _S_IFMT) == _S_IFCHR ? DMK_FILE_CHAR
                                                          : DMK_FILE_OTHER;
        fill_existing(path, info);
    } else if (errno != ENOENT) {
        e = errno;
    }
    if (info->kind == DMK_FILE_DIR)
        e = EISDIR;
    if (e == 0 && info->exists && info->kind != DMK_FILE_REGULAR) {
        snprintf(info->real, sizeof info->real, "%s", path); /* NUL, CON: written as they are */
        return DMK_OK;
    }
    char dir[4096], full[4096];
    const char *name;
    split(path, dir, sizeof dir, &name);
    if (e == 0 && !u8_fullpath(full, dir, sizeof full))
        e = ENOENT;
    if (e == 0 && (u8_stat(full, &st) != 0 || (st.st_mode & _S_IFMT) != _S_IFDIR))
        e = errno == ENOENT ? ENOENT : ENOTDIR;
    if (e == 0 && name[0] == '\0')
        e = EISDIR;
    if (e == 0) {
        size_t n = strlen(full);
        bool sep = n && (full[n - 1] == '\\' || full[n - 1] == '/');
        snprintf(info->real, sizeof info->real, "%s%s%s", full, sep ? "" : "\\", name);
    }
    if (e == 0 && info->exists && u8_access(info->real, 2) != 0)
        e = errno;
    if (e != 0)
        return dmk_error_errno(err, e, "opening %s for writing failed", path);
    return DMK_OK;
}

bool dmk_os_input_info(const char *path, DmkFileInfo *info)
{
    memset(info, 0, sizeof *info);
    struct _stat64 st;
    if (u8_stat(path, &st) != 0 || !u8_fullpath(info->real, path, sizeof info->real))
        return false;
    info->exists = true;
    info->kind = (st.st_mode & _S_IFMT) == _S_IFREG ? DMK_FILE_REGULAR : DMK_FILE_OTHER;
    fill_existing(path, info); /* volume serial + file index */
    return true;
}

bool dmk_os_same_path(const char *a, const char *b)
{
    /* NTFS and FAT compare names without case (ASCII and beyond: the
     * wide, ordinal, case-blind comparison Windows itself uses). */
    wchar_t *wa = dmk_win_long_path(a), *wb = dmk_win_long_path(b);
    bool same =
        wa && wb ? CompareStringOrdinal(wa, -1, wb, -1, TRUE) == CSTR_EQUAL : _stricmp(a, b) == 0;
    free(wa);
    free(wb);
    return same;
}

int dmk_os_open_special(const char *path, FILE **out, DmkError *err)
{
    *out = u8_fopen(path, L"wb");
    if (!*out)
        return dmk_error_errno(err, errno, "opening %s for writing failed", path);
    return DMK_OK;
}

int dmk_os_open_input(const char *path, FILE **out, DmkError *err)
{
    struct _stat64 st;
    *out = NULL;
    if (u8_stat(path, &st) == 0 && (st.st_mode & _S_IFMT) != _S_IFREG)
        /* TRANSLATORS: the second %s is a whole sentence on what the path is: "it is a
         * directory, not a regular file". */
        return dmk_error_set(err, DMK_E_INVAL, 0, "opening %s failed: %s", path,
                             dmk_file_kind_clause((st.st_mode & _S_IFMT) == _S_IFDIR
                                                      ? DMK_FILE_DIR
                                                      : DMK_FILE_OTHER));
    *out = u8_fopen(path, L"rb");
    if (!*out)
        return dmk_error_errno(err, errno, "opening %s failed", path);
    return DMK_OK;
}

int dmk_os_temp_beside(const char *real, const DmkFileInfo *like, char *tmp, size_t len, FILE **out,
                       DmkError *err)
{
    char dir[4096];
    const char *name;
    *out = NULL;
    split(real, dir, sizeof dir, &name);
    int fd = -1, e = EEXIST;
    for (int attempt = 0; fd < 0 && e == EEXIST && attempt < 100; attempt++) {
        if ((size_t)snprintf(tmp, len, "%s\\.drivemark-result-%lu-%08x.tmp", dir,
                             (unsigned long)GetCurrentProcessId(),
                             (unsigned)dmk_entropy64()) >= len)
            return dmk_error_errno(err, ENAMETOOLONG, "creating a temporary file beside %s failed",
                                   real);
        int pmode =
            like && like->exists && !(like->mode & _S_IWRITE) ? _S_IREAD : _S_IREAD | _S_IWRITE;
        fd = u8_open(tmp, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT, pmode);
        e = fd < 0 ? errno : 0;
    }
    if (fd < 0)
        return dmk_error_errno(err, e, "creating a temporary file in %s failed", dir);
    *out = _fdopen(fd, "wb");
    if (!*out) {
        e = errno;
        _close(fd);
        u8_unlink(tmp);
        return dmk_error_errno(err, e, "creating a temporary file in %s failed", dir);
    }
    return DMK_OK;
}

int dmk_os_temp_name(FILE *f, const char *real, char *tmp, size_t len, DmkError *err)
{
    (void)f;
    (void)len;
    /* dmk_os_temp_beside always names its file here: never called. */
    tmp[0] = '\0';
    return dmk_error_set(err, DMK_E_INVAL, 0, "naming a temporary file beside %s failed", real);
}

int dmk_os_file_sync(FILE *f, const char *path, DmkError *err)
{
    errno = 0;
    if (fflush(f) != 0)
        return dmk_error_errno(err, errno ? errno : EIO, "writing %s failed", path);
    if (_commit(_fileno(f)) != 0 && errno != EBADF && errno != EINVAL)
        return dmk_error_errno(err, errno, "writing %s failed", path);
    return DMK_OK;
}

int dmk_os_replace_file(const char *tmp, const char *dst, DmkError *err)
{
    wchar_t *wt = dmk_win_long_path(tmp), *wd = dmk_win_long_path(dst);
    int rc = DMK_OK;
    if (!wt || !wd)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "renaming %s to %s failed: not valid UTF-8", tmp,
                           dst);
    else if (!MoveFileExW(wt, wd, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        rc = dmk_win_error(err, GetLastError(), "renaming %s to %s failed", tmp, dst);
    free(wt);
    free(wd);
    return rc;
}

bool dmk_os_remove_file(const char *path)
{
    return u8_unlink(path) == 0 || errno == ENOENT;
}

int dmk_os_rename_probe(const char *real, DmkError *err)
{
    char dir[4096], a[4096], b[4096];
    const char *name;
    split(real, dir, sizeof dir, &name);
    unsigned long pid = (unsigned long)GetCurrentProcessId();
    snprintf(a, sizeof a, "%s\\.drivemark-result-%lu-%08x.tmp", dir, pid,
             (unsigned)dmk_entropy64());
    snprintf(b, sizeof b, "%s\\.drivemark-result-%lu-%08x.tmp", dir, pid,
             (unsigned)dmk_entropy64());
    int fd =
        u8_open(a, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
    if (fd < 0)
        return dmk_error_errno(err, errno, "creating a temporary file in %s failed", dir);
    _close(fd);
    wchar_t *wa = dmk_win_long_path(a), *wb = dmk_win_long_path(b);
    int rc = DMK_OK;
    const char *left = a;
    if (!wa || !wb)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "renaming %s failed: not valid UTF-8", a);
    else if (!MoveFileExW(wa, wb, 0)) /* no REPLACE_EXISTING: never over another file */
        rc = dmk_win_error(err, GetLastError(), "renaming a test file in %s failed", dir);
    else
        left = b;
    free(wa);
    free(wb);
    if (u8_unlink(left) != 0 && rc == DMK_OK)
        rc = dmk_error_errno(err, errno, "removing the test file %s failed (remove it by hand)",
                             left);
    else if (rc != DMK_OK)
        u8_unlink(left);
    return rc;
}
