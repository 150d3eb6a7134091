/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every platform's result-file functions share. */
#include "dmk-platform.h"

#include "dmk-i18n.h"

const char *dmk_file_kind_clause(DmkFileKind kind)
{
    /* Each a whole sentence, translated: the kind is no phrase glued in. */
    switch (kind) {
    case DMK_FILE_MISSING:
        return DMK_("it is missing, not a regular file");
    case DMK_FILE_REGULAR:
        return DMK_("it is a regular file");
    case DMK_FILE_DIR:
        return DMK_("it is a directory, not a regular file");
    case DMK_FILE_FIFO:
        return DMK_("it is a FIFO, not a regular file");
    case DMK_FILE_CHAR:
        return DMK_("it is a character device, not a regular file");
    case DMK_FILE_BLOCK:
        return DMK_("it is a block device, not a regular file");
    case DMK_FILE_SOCKET:
        return DMK_("it is a socket, not a regular file");
    default:
        return DMK_("it is not a regular file");
    }
}
