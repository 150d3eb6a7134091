/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-error.h"

#include "dmk-escape.h"
#include "dmk-i18n.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The format attributes let the compiler check the callers' formats and
 * know fmt is one (clang's -Wformat-nonliteral otherwise flags the
 * vsnprintf calls). */
static void set_fields(DmkError *err, int code, int os_error, const char *fmt, va_list ap)
    __attribute__((format(DMK_PRINTF_FORMAT, 4, 0)));
static void append_v(DmkError *err, const char *fmt, va_list ap)
    __attribute__((format(DMK_PRINTF_FORMAT, 2, 0)));

/* A format's translation; "" stays "" (its msgid is the catalog's header). */
static const char *dmk_translated(const char *fmt) __attribute__((format_arg(1)));
static const char *dmk_translated(const char *fmt)
{
    return *fmt ? DMK_(fmt) : fmt;
}

static void set_fields(DmkError *err, int code, int os_error, const char *fmt, va_list ap)
{
    err->code = code;
    err->os_error = os_error;
    /* Every message is a whole sentence with its placeholders, translated
     * here (xgettext knows dmk_error_set and its kin as keywords, po/). */
    vsnprintf(err->msg, sizeof err->msg, dmk_translated(fmt), ap);
    /* Paths and cells in a message are the user's or a file's: no control
     * or bidi character of theirs reaches a terminal or a label. */
    dmk_escape_inplace(err->msg, "\n");
}

static void append_v(DmkError *err, const char *fmt, va_list ap)
{
    size_t used = strlen(err->msg);
    if (used + 1 >= sizeof err->msg)
        return;
    vsnprintf(err->msg + used, sizeof err->msg - used, dmk_translated(fmt), ap);
    /* Only the new text: what was there is escaped already. */
    dmk_escape_inplace(err->msg + used, "\n");
}

int dmk_error_append(DmkError *err, const char *fmt, ...)
{
    if (!err)
        return DMK_OK;
    va_list ap;
    va_start(ap, fmt);
    append_v(err, fmt, ap);
    va_end(ap);
    return err->code;
}

int dmk_error_set(DmkError *err, int code, int os_error, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set_fields(err, code, os_error, fmt, ap);
        va_end(ap);
    }
    return code;
}

int dmk_error_os(DmkError *err, int code, int os_error, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set_fields(err, code, os_error, fmt, ap);
        va_end(ap);
        char text[256];
        dmk_error_append(err, ": %s", dmk_error_os_text(os_error, text, sizeof text));
    }
    return code;
}

int dmk_error_errno(DmkError *err, int e, const char *fmt, ...)
{
    int code = dmk_error_from_errno(e);
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set_fields(err, code, e, fmt, ap);
        va_end(ap);
        /* EPIPE alone ("Broken pipe") does not say whose fault it was. */
        if (e == EPIPE)
            dmk_error_append(err, ": %s (the program reading it went away)", strerror(e));
        else
            dmk_error_append(err, ": %s", strerror(e));
    }
    return code;
}

int dmk_error_from_errno(int e)
{
    switch (e) {
    case ENOSPC:
#ifdef EDQUOT
    case EDQUOT:
#endif
    case EFBIG:
        return DMK_E_NOSPC;
    case EACCES:
    case EPERM:
    case EROFS:
        return DMK_E_PERM;
    case ENOENT:
    case ENOTDIR:
        return DMK_E_NOENT;
    case ENOMEM:
        return DMK_E_NOMEM;
    case EINVAL:
        return DMK_E_INVAL;
#ifdef EOPNOTSUPP
    case EOPNOTSUPP:
        return DMK_E_NOTSUP;
#endif
    case EAGAIN:
        return DMK_E_AGAIN;
    case EMFILE:
    case ENFILE:
        return DMK_E_LIMIT;
    default:
        return DMK_E_IO;
    }
}

void dmk_error_clear(DmkError *err)
{
    if (err) {
        err->code = DMK_OK;
        err->os_error = 0;
        err->msg[0] = '\0';
    }
}
