/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Strings, paths and error codes on Win32. */
#include "dmk-win32.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "dmk-i18n.h"

#ifndef ERROR_DISK_QUOTA_EXCEEDED
#define ERROR_DISK_QUOTA_EXCEEDED 1295L /* missing from older mingw-w64 headers */
#endif

int dmk_win_error_code(DWORD e)
{
    switch (e) {
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
    case ERROR_DISK_QUOTA_EXCEEDED:
    case ERROR_FILE_TOO_LARGE:
        return DMK_E_NOSPC;
    case ERROR_ACCESS_DENIED:
    case ERROR_WRITE_PROTECT:
    case ERROR_NETWORK_ACCESS_DENIED:
    case ERROR_PRIVILEGE_NOT_HELD:
        return DMK_E_PERM;
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
    case ERROR_DIRECTORY:
        return DMK_E_NOENT;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return DMK_E_NOMEM;
    case ERROR_INVALID_PARAMETER:
    case ERROR_INVALID_NAME:
    case ERROR_BAD_PATHNAME:
    case ERROR_FILENAME_EXCED_RANGE:
    case ERROR_NO_UNICODE_TRANSLATION:
        return DMK_E_INVAL;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION:
    case ERROR_CALL_NOT_IMPLEMENTED:
        return DMK_E_NOTSUP;
    case ERROR_TOO_MANY_OPEN_FILES:
    case ERROR_NO_SYSTEM_RESOURCES:
    case ERROR_NONPAGED_SYSTEM_RESOURCES:
    case ERROR_PAGED_SYSTEM_RESOURCES:
    case ERROR_WORKING_SET_QUOTA:
    case ERROR_NOT_ENOUGH_QUOTA:
        return DMK_E_LIMIT;
    case ERROR_OPERATION_ABORTED:
        return DMK_E_STOPPED;
    case ERROR_HANDLE_EOF:
        return DMK_E_SHORT;
    case ERROR_SEM_TIMEOUT:
    case WAIT_TIMEOUT:
        return DMK_E_TIMEOUT;
    default:
        return DMK_E_IO;
    }
}

int dmk_win_error(DmkError *err, DWORD e, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    /* A keyword as dmk_error_os is (po/): its format is the msgid. */
    vsnprintf(what, sizeof what, DMK_(fmt), ap);
    va_end(ap);
    return dmk_error_os(err, dmk_win_error_code(e), (int)e, "%s", what);
}

/* The system's text for a Win32 code, and the code itself, as Linux's
 * messages carry strerror's text. */
const char *dmk_error_os_text(int os_error, char *buf, unsigned len)
{
    wchar_t wide[512];
    DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             (DWORD)os_error, 0, wide, sizeof wide / sizeof *wide, NULL);
    /* FormatMessage ends its text with ".\r\n"; the messages go on after it. */
    while (n && (wide[n - 1] == L'\r' || wide[n - 1] == L'\n' || wide[n - 1] == L' ' ||
                 wide[n - 1] == L'.'))
        n--;
    wide[n] = L'\0';
    char text[400];
    dmk_win_utf8(wide, text, sizeof text);
    if (text[0])
        snprintf(buf, len, "%s (Win32 error %d)", text, os_error);
    else
        snprintf(buf, len, "Win32 error %d", os_error);
    return buf;
}

wchar_t *dmk_win_wide(const char *utf8)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, NULL, 0);
    if (n <= 0)
        return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, w, n) != n) {
        free(w);
        w = NULL;
    }
    return w;
}

void dmk_win_utf8(const wchar_t *w, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)len, NULL, NULL);
    if (n > 0)
        return;
    /* Too long: convert into a big buffer, then cut at a character start. */
    char *all = NULL;
    n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n > 0 && (all = malloc((size_t)n)) &&
        WideCharToMultiByte(CP_UTF8, 0, w, -1, all, n, NULL, NULL) == n) {
        size_t cut = len - 1;
        while (cut && ((unsigned char)all[cut] & 0xc0) == 0x80)
            cut--;
        memcpy(buf, all, cut);
        buf[cut] = '\0';
    }
    free(all);
}

/* a + b + c, newly allocated. */
static wchar_t *concat(const wchar_t *a, const wchar_t *b, const wchar_t *c)
{
    size_t na = wcslen(a), nb = wcslen(b), nc = wcslen(c);
    wchar_t *out = malloc((na + nb + nc + 1) * sizeof *out);
    if (!out)
        return NULL;
    memcpy(out, a, na * sizeof *out);
    memcpy(out + na, b, nb * sizeof *out);
    memcpy(out + na + nb, c, (nc + 1) * sizeof *out);
    return out;
}

static bool has_prefix(const wchar_t *s, const wchar_t *prefix)
{
    return wcsncmp(s, prefix, wcslen(prefix)) == 0;
}

/* \\?\ turns off the Win32 path rewriting (and the MAX_PATH limit), so it
 * may only go in front of a full path with backslashes and no . or .. */
static wchar_t *add_prefix(const wchar_t *full)
{
    const wchar_t *prefix = L"", *rest = full;
    if (has_prefix(full, L"\\\\?\\") || has_prefix(full, L"\\\\.\\"))
        prefix = L"";
    else if (has_prefix(full, L"\\\\"))
        prefix = L"\\\\?\\UNC\\", rest = full + 2;
    else if (full[0] && full[1] == L':')
        prefix = L"\\\\?\\";
    return concat(prefix, L"", rest);
}

wchar_t *dmk_win_long_path(const char *utf8)
{
    wchar_t *w = dmk_win_wide(utf8), *full = NULL, *out = NULL;
    if (!w)
        return NULL;
    /* GetFullPathNameW makes it absolute, turns / into \ and folds . and
     * .. away, all of which \\?\ would otherwise take literally. */
    DWORD n = GetFullPathNameW(w, 0, NULL, NULL);
    if (n && (full = malloc((size_t)n * sizeof *full)) != NULL &&
        GetFullPathNameW(w, n, full, NULL) < n)
        out = add_prefix(full);
    else if (n == 0)
        out = add_prefix(w); /* let the open report what is wrong with it */
    free(full);
    free(w);
    return out;
}

wchar_t *dmk_win_join(const wchar_t *path, const wchar_t *leaf)
{
    size_t n = wcslen(path);
    return concat(path, n && path[n - 1] == L'\\' ? L"" : L"\\", leaf);
}
