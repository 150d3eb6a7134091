/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Errors cross layers as a negative code plus the raw OS code (as libuv
 * does) and a message that already names the operation, the path and the
 * OS's own text, so every front end can show it as it is. */
#ifndef DMK_ERROR_H
#define DMK_ERROR_H

#include <stdarg.h>

typedef enum {
    DMK_OK = 0,
    DMK_E_INVAL = -1,    /* bad argument or spec */
    DMK_E_IO = -2,       /* an I/O failed */
    DMK_E_NOSPC = -3,    /* no space left */
    DMK_E_PERM = -4,     /* permission denied / read-only */
    DMK_E_NOTSUP = -5,   /* the target cannot do what is needed (O_DIRECT, tmpfs) */
    DMK_E_NOMEM = -6,    /* out of memory */
    DMK_E_NOENT = -7,    /* no such file or directory */
    DMK_E_LIMIT = -8,    /* a system limit (aio-max-nr, open files) */
    DMK_E_STOPPED = -9,  /* the user stopped the run */
    DMK_E_SHORT = -10,   /* a transfer moved fewer bytes than asked */
    DMK_E_AGAIN = -11,   /* try again later (submit pushed back) */
    DMK_E_TIMEOUT = -12, /* nothing completed within the watchdog time */
} DmkErrCode;

/* With mingw-w64 "printf" names the Windows CRT's format rules; the
 * Windows build uses mingw's C99 printf (__USE_MINGW_ANSI_STDIO): gnu_printf. */
#ifdef __MINGW32__
#define DMK_PRINTF_FORMAT gnu_printf
#else
#define DMK_PRINTF_FORMAT printf
#endif

typedef struct DmkError {
    int code;      /* DmkErrCode */
    int os_error;  /* errno or Win32 error, 0 if none */
    char msg[768]; /* complete sentence for the user */
} DmkError;

/* Fills err (if not NULL) and returns code, so callers can write
 * `return dmk_error_set(err, DMK_E_IO, errno, "...")`. The format is the
 * msgid of the message's translation (DMK_, dmk-i18n.h): a literal, a
 * whole sentence; these four functions are xgettext keywords (po/). */
int dmk_error_set(DmkError *err, int code, int os_error, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 5)));

/* Like dmk_error_set, appending ": <OS text>" for os_error. */
int dmk_error_os(DmkError *err, int code, int os_error, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 5)));

/* For failures of the C library (fopen, fwrite, fclose): errno is the C
 * runtime's, not the OS's (on Windows they differ), so its text comes from
 * strerror. Sets code from errno and appends ": <text>". */
int dmk_error_errno(DmkError *err, int e, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 3, 4)));

/* Appends to err's message (if err is not NULL), escaped as dmk_error_set
 * escapes: the only way text joins a message after it is set, so a path
 * added later (the old file kept, a thread left behind) cannot carry a
 * control or bidi character to a terminal or a label. Returns err->code. */
int dmk_error_append(DmkError *err, const char *fmt, ...)
    __attribute__((format(DMK_PRINTF_FORMAT, 2, 3)));

/* Maps an errno value to the nearest DmkErrCode. */
int dmk_error_from_errno(int e);

/* The OS's text for os_error (strerror_r / FormatMessageW), in buf. */
const char *dmk_error_os_text(int os_error, char *buf, unsigned len);

void dmk_error_clear(DmkError *err);

#endif
