/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Windows test file, shared by the completion-port backend. */
#ifndef DMK_TARGET_WINDOWS_H
#define DMK_TARGET_WINDOWS_H

#include <stdbool.h>
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
    /* A raw device target (dmk-device-windows.c): nothing to delete; the
     * volumes on it stay locked and dismounted while it is open for writing. */
    bool device;
    bool writable;
    wchar_t *device_path; /* "\\.\PhysicalDrive1", for each queue's own handle */
    HANDLE locks[64];     /* locked volumes of the disk, unlocked on close */
    int n_locks;
} DmkWinTarget;

int dmk_win_target_open(const DmkTargetParams *p, DmkWinTarget **out, DmkTargetInfo *info,
                        DmkError *err);
void dmk_win_target_close(DmkWinTarget *t);

/* Another overlapped, unbuffered handle on the test file for one queue:
 * a handle can be bound to only one completion port. */
int dmk_win_target_reopen(DmkWinTarget *t, HANDLE *out, DmkError *err);

/* The raw device side (p->device): open with the write guards, close
 * (unlocking the volumes), a queue's own handle, and TRIM (not done). */
int dmk_win_device_open(const DmkTargetParams *p, DmkWinTarget **out, DmkTargetInfo *info,
                        DmkError *err);
void dmk_win_device_close(DmkWinTarget *t);
int dmk_win_device_reopen(DmkWinTarget *t, HANDLE *out, DmkError *err);
int dmk_win_device_trim(DmkWinTarget *t, DmkTrimReport *rep, DmkError *err);

#endif
