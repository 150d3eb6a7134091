/* The Windows test file, shared by the completion-port backend. */
#ifndef DMK_TARGET_WINDOWS_H
#define DMK_TARGET_WINDOWS_H

#include <stdint.h>
#include <windows.h>

#include "dmk-platform.h"

typedef struct {
    HANDLE file; /* opened with FILE_FLAG_DELETE_ON_CLOSE: closing it deletes the file */
    uint64_t size;
    uint32_t offset_align; /* every offset and length a multiple of this */
    uint32_t mem_align;    /* every buffer address a multiple of this */
    char dir[1024];        /* the directory as the user named it, for messages */
    HANDLE sensor;         /* the physical drive, kept open for its temperature, or INVALID */
} DmkWinTarget;

int dmk_win_target_open(const DmkTargetParams *p, DmkWinTarget **out, DmkTargetInfo *info,
                        DmkError *err);
void dmk_win_target_close(DmkWinTarget *t);

/* Another overlapped, unbuffered handle on the test file for one queue:
 * a handle can be bound to only one completion port. */
int dmk_win_target_reopen(DmkWinTarget *t, HANDLE *out, DmkError *err);

#endif
