/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the Windows platform files: UTF-8 <-> UTF-16, long
 * paths, and Win32 error codes as DmkErrCode. Not part of the interface. */
#ifndef DMK_WIN32_H
#define DMK_WIN32_H

#include <stddef.h>
#include <windows.h>

#include "dmk-platform.h"

/* Maps a Win32 error code to the nearest DmkErrCode. */
int dmk_win_error_code(DWORD e);

/* dmk_error_os with the code mapped: the message ends in the system's text
 * and the raw code. Returns the DmkErrCode. */
int dmk_win_error(DmkError *err, DWORD e, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 3, 4)));

/* A newly allocated UTF-16 copy of a UTF-8 string; NULL when it is not
 * valid UTF-8 or memory runs out. Free with free(). */
wchar_t *dmk_win_wide(const char *utf8);

/* UTF-16 to UTF-8 into buf, cut at a character boundary; "" on failure. */
void dmk_win_utf8(const wchar_t *w, char *buf, size_t len);

/* The absolute form of a UTF-8 path, with the \\?\ (or \\?\UNC\) prefix
 * that lifts the MAX_PATH limit; NULL on bad UTF-8 or no memory. */
wchar_t *dmk_win_long_path(const char *utf8);

/* path + L"\\" + leaf, newly allocated. */
wchar_t *dmk_win_join(const wchar_t *path, const wchar_t *leaf);

#endif
