/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every platform's result-file functions share. */
#include "dmk-platform.h"

const char *dmk_file_kind_name(DmkFileKind kind)
{
    switch (kind) {
    case DMK_FILE_MISSING:
        return "missing";
    case DMK_FILE_REGULAR:
        return "a regular file";
    case DMK_FILE_DIR:
        return "a directory";
    case DMK_FILE_FIFO:
        return "a FIFO";
    case DMK_FILE_CHAR:
        return "a character device";
    case DMK_FILE_BLOCK:
        return "a block device";
    case DMK_FILE_SOCKET:
        return "a socket";
    default:
        return "not a regular file";
    }
}
