/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The drive list on Windows: every drive letter, with its file system,
 * label, size and free space. Drives that cannot be targets (RAM disks,
 * empty card readers, read-only media, full drives) stay in the list,
 * marked, so the GUI can say why they cannot be chosen. */
#include <windows.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "dmk-platform.h"
#include "dmk-win32.h"

/* What the engine needs at the least: the smallest test file plus slack. */
#define MIN_FREE_BYTES ((16ULL << 20) + (8ULL << 20))

typedef struct {
    UINT type;      /* GetDriveTypeW */
    bool has_info;  /* GetVolumeInformationW answered (false: no medium) */
    DWORD flags;    /* FILE_READ_ONLY_VOLUME and such */
    bool has_space; /* GetDiskFreeSpaceExW answered */
} DmkDriveFacts;

/* The first reason (most fundamental first) the drive cannot be a target. */
static void judge(const DmkDriveFacts *f, DmkVolume *v)
{
    const char *why = NULL;
    if (f->type == DRIVE_RAMDISK)
        why = "RAM disk: would measure memory, not a drive";
    else if (!f->has_info || !f->has_space)
        why = "no medium, or not readable";
    else if (f->flags & FILE_READ_ONLY_VOLUME)
        why = "read-only";
    else if (v->free_bytes < MIN_FREE_BYTES)
        why = "not enough free space";
    v->usable = why == NULL;
    snprintf(v->reason, sizeof v->reason, "%s", why ? why : "");
}

/* Fills v from one drive root ("C:\"); false when not worth listing. */
static bool describe(const wchar_t *root, DmkVolume *v)
{
    DmkDriveFacts f = {.type = GetDriveTypeW(root)};
    if (f.type == DRIVE_UNKNOWN || f.type == DRIVE_NO_ROOT_DIR)
        return false;
    memset(v, 0, sizeof *v);
    dmk_win_utf8(root, v->path, sizeof v->path);
    snprintf(v->device, sizeof v->device, "\\\\.\\%c:", (char)root[0]);
    wchar_t label[MAX_PATH + 1] = L"", fs[MAX_PATH + 1] = L"";
    f.has_info =
        GetVolumeInformationW(root, label, MAX_PATH + 1, NULL, NULL, &f.flags, fs, MAX_PATH + 1);
    dmk_win_utf8(label, v->label, sizeof v->label);
    dmk_win_utf8(fs, v->fs_type, sizeof v->fs_type);
    ULARGE_INTEGER avail, total, total_free;
    f.has_space = GetDiskFreeSpaceExW(root, &avail, &total, &total_free);
    if (f.has_space) {
        v->size_bytes = total.QuadPart;
        v->free_bytes = avail.QuadPart; /* the caller's share: quotas count */
    }
    judge(&f, v);
    return true;
}

int dmk_os_list_volumes(DmkVolume *out, size_t max)
{
    wchar_t roots[27 * 4 + 1]; /* "A:\" NUL for every letter, and a final NUL */
    DWORD len = GetLogicalDriveStringsW(sizeof roots / sizeof *roots, roots);
    if (len == 0 || len >= sizeof roots / sizeof *roots)
        return DMK_E_IO;
    /* An empty card reader or optical drive must not pop up "There is no
     * disk in the drive" dialogs: fail the call quietly instead. */
    DWORD old_mode = 0;
    SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
    size_t n = 0;
    for (const wchar_t *r = roots; *r && n < max; r += wcslen(r) + 1)
        if (describe(r, &out[n]))
            n++;
    SetThreadErrorMode(old_mode, NULL);
    return (int)n;
}
