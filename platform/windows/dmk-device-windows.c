/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A raw device as the target on Windows (opt-in, --device): a physical
 * drive ("\\.\PhysicalDrive1") or a volume ("\\.\E:"), opened unbuffered
 * and overlapped; nothing is created or deleted. Before any write every
 * volume on the disk is locked and dismounted (a volume in use cannot be
 * locked, which is the refusal, naming the volume); the locks are held
 * until the target closes, so nothing mounts it meanwhile. */
#include "dmk-target-windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <winioctl.h>
/* virtdisk.h needs the VIRTUAL_STORAGE_TYPE GUIDs' types from these. */
#include <initguid.h>
#include <virtdisk.h>

#include "dmk-target-rules.h"
#include "dmk-win32.h"

#define DEVICE_FLAGS (FILE_FLAG_OVERLAPPED | FILE_FLAG_NO_BUFFERING)

/* ---- the device -------------------------------------------------------------- */

/* Only "\\.\..." names a device; anything else (a file, a directory) is
 * refused, so no target can become a newly created file. */
static bool is_device_path(const char *p)
{
    return strncmp(p, "\\\\.\\", 4) == 0 && p[4];
}

static bool ioctl_out(HANDLE h, DWORD code, void *out, DWORD len)
{
    DWORD got = 0;
    return DeviceIoControl(h, code, NULL, 0, out, len, &got, NULL) != 0;
}

/* The logical sector: the storage stack's answer, else the geometry's. */
static uint32_t sector_size(HANDLE h)
{
    STORAGE_PROPERTY_QUERY q = {.PropertyId = StorageAccessAlignmentProperty,
                                .QueryType = PropertyStandardQuery};
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR d = {0};
    DWORD got = 0;
    if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &d, sizeof d, &got, NULL) &&
        got >= sizeof d && d.BytesPerLogicalSector >= 512)
        return d.BytesPerLogicalSector;
    DISK_GEOMETRY_EX geo;
    if (ioctl_out(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, &geo, sizeof geo) &&
        geo.Geometry.BytesPerSector >= 512)
        return geo.Geometry.BytesPerSector;
    return 4096;
}

/* The disk number behind a drive or volume handle; -1 when unknown. */
static long disk_number(HANDLE h)
{
    STORAGE_DEVICE_NUMBER num;
    return ioctl_out(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, &num, sizeof num) ? (long)num.DeviceNumber
                                                                           : -1;
}

/* ---- locking the volumes --------------------------------------------------- */

/* The volume's extents, on as many disks as it spans (a spanned, striped
 * or mirrored dynamic volume): grown until the list fits, since a list
 * cut short would leave a volume on this disk unlocked. NULL when the
 * volume has no disk extents (an optical or network volume). */
static VOLUME_DISK_EXTENTS *volume_extents(HANDLE vol)
{
    DWORD size = sizeof(VOLUME_DISK_EXTENTS) + 31 * sizeof(DISK_EXTENT);
    for (int tries = 0; tries < 8; tries++, size *= 4) {
        VOLUME_DISK_EXTENTS *ext = malloc(size);
        DWORD got = 0;
        if (!ext)
            return NULL;
        if (DeviceIoControl(vol, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0, ext, size, &got,
                            NULL))
            return ext;
        free(ext);
        if (GetLastError() != ERROR_MORE_DATA && GetLastError() != ERROR_INSUFFICIENT_BUFFER)
            return NULL;
    }
    return NULL;
}

/* Whether the volume (a "\\?\Volume{...}" name without the trailing
 * backslash) has any extent on disk number `disk`. */
static bool volume_on_disk(HANDLE vol, long disk)
{
    VOLUME_DISK_EXTENTS *ext = volume_extents(vol);
    bool on = false;
    for (DWORD i = 0; ext && i < ext->NumberOfDiskExtents; i++)
        on = on || (long)ext->Extents[i].DiskNumber == disk;
    free(ext);
    return on;
}

/* A virtual disk (VHD, VHDX) attached from a file on this volume: the
 * Windows analogue of a loop device over a file of the disk. Writing the
 * disk would destroy the file under the attached disk's volumes, so it is
 * refused with the attached disk and its file named (locking would fail
 * too, but saying only "in use"). */
static int check_hosted(const DmkWinTarget *t, HANDLE vol, const wchar_t *name, DmkError *err)
{
    ULONG size = 4096, used = 0;
    STORAGE_DEPENDENCY_INFO *info = calloc(1, size);
    if (!info)
        return DMK_OK;
    info->Version = STORAGE_DEPENDENCY_INFO_VERSION_2;
    DWORD rc =
        GetStorageDependencyInformation(vol, GET_STORAGE_DEPENDENCY_FLAG_NONE, size, info, &used);
    if (rc == ERROR_INSUFFICIENT_BUFFER && used > size) {
        free(info);
        size = used;
        info = calloc(1, size);
        if (!info)
            return DMK_OK;
        info->Version = STORAGE_DEPENDENCY_INFO_VERSION_2;
        rc = GetStorageDependencyInformation(vol, GET_STORAGE_DEPENDENCY_FLAG_NONE, size, info,
                                             &used);
    }
    int out = DMK_OK;
    if (rc == ERROR_SUCCESS && info->NumberEntries > 0) {
        const STORAGE_DEPENDENCY_INFO_TYPE_2 *d = &info->Version2Entries[0];
        char uname[300], disk[300], file[600];
        dmk_win_utf8(name, uname, sizeof uname);
        dmk_win_utf8(d->DependencyDeviceName ? d->DependencyDeviceName : L"?", disk, sizeof disk);
        dmk_win_utf8(d->DependentVolumeRelativePath ? d->DependentVolumeRelativePath : L"?", file,
                     sizeof file);
        out = dmk_error_set(err, DMK_E_PERM, ERROR_BUSY,
                            "refusing to write to %s: its volume %s holds the virtual disk file "
                            "%s, attached as %s (detach it first)",
                            t->dir, uname, file, disk);
    }
    free(info);
    return out;
}

/* Locks and dismounts one volume; the handle then belongs to t. */
static int lock_volume(DmkWinTarget *t, HANDLE vol, const wchar_t *name, DmkError *err)
{
    char uname[300];
    dmk_win_utf8(name, uname, sizeof uname);
    if (t->n_locks >= (int)(sizeof t->locks / sizeof t->locks[0])) {
        CloseHandle(vol);
        return dmk_error_set(err, DMK_E_LIMIT, 0,
                             "refusing to write to %s: it carries more volumes than can be locked",
                             t->dir);
    }
    if (!ioctl_out(vol, FSCTL_LOCK_VOLUME, NULL, 0)) {
        DWORD e = GetLastError();
        CloseHandle(vol);
        return dmk_win_error(err, e,
                             "refusing to write to %s: its volume %s is in use and cannot be "
                             "locked (close what uses it, or take it offline)",
                             t->dir, uname);
    }
    t->locks[t->n_locks++] = vol;
    if (!ioctl_out(vol, FSCTL_DISMOUNT_VOLUME, NULL, 0))
        return dmk_win_error(err, GetLastError(),
                             "refusing to write to %s: dismounting its volume %s failed", t->dir,
                             uname);
    return DMK_OK;
}

static HANDLE open_volume_name(wchar_t *name)
{
    size_t n = wcslen(name);
    if (n && name[n - 1] == L'\\')
        name[n - 1] = L'\0'; /* with the backslash it would open the root folder */
    return CreateFileW(name, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                       OPEN_EXISTING, 0, NULL);
}

/* Every volume of the disk, found by its extents. */
static int lock_disk_volumes(DmkWinTarget *t, long disk, DmkError *err)
{
    wchar_t name[MAX_PATH + 1];
    HANDLE find = FindFirstVolumeW(name, MAX_PATH + 1);
    if (find == INVALID_HANDLE_VALUE)
        return dmk_win_error(err, GetLastError(),
                             "refusing to write to %s: listing the volumes to lock failed", t->dir);
    int rc = DMK_OK;
    do {
        HANDLE vol = open_volume_name(name);
        if (vol == INVALID_HANDLE_VALUE)
            continue; /* a volume this user cannot open cannot be on a disk it may write */
        if (!volume_on_disk(vol, disk)) {
            CloseHandle(vol);
            continue;
        }
        rc = check_hosted(t, vol, name, err);
        if (rc == DMK_OK)
            rc = lock_volume(t, vol, name, err);
        else
            CloseHandle(vol);
    } while (rc == DMK_OK && FindNextVolumeW(find, name, MAX_PATH + 1));
    FindVolumeClose(find);
    return rc;
}

static void unlock_all(DmkWinTarget *t)
{
    for (int i = 0; i < t->n_locks; i++) {
        ioctl_out(t->locks[i], FSCTL_UNLOCK_VOLUME, NULL, 0);
        CloseHandle(t->locks[i]);
    }
    t->n_locks = 0;
}

/* Writes go to a whole disk only: a volume's own handle cannot be
 * locked and still opened again for each queue, while a disk's handles
 * are apart from the volumes it carries (which are locked). */
static int lock_for_write(DmkWinTarget *t, DmkError *err)
{
    if (_wcsnicmp(t->device_path, L"\\\\.\\PhysicalDrive", 17) != 0)
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing to write to %s: write tests take a whole disk "
                             "(\\\\.\\PhysicalDriveN); a volume (\\\\.\\X:) may only be read",
                             t->dir);
    HANDLE h = CreateFileW(t->device_path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_EXISTING, 0, NULL);
    long disk = h == INVALID_HANDLE_VALUE ? -1 : disk_number(h);
    if (h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
    if (disk < 0)
        return dmk_error_set(err, DMK_E_IO, 0,
                             "refusing to write to %s: its disk number is unknown, so its volumes "
                             "cannot be locked",
                             t->dir);
    return lock_disk_volumes(t, disk, err);
}

/* ---- the target ---------------------------------------------------------------- */

static HANDLE open_handle(const DmkWinTarget *t)
{
    DWORD access = GENERIC_READ | (t->writable ? GENERIC_WRITE : 0);
    return CreateFileW(t->device_path, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                       OPEN_EXISTING, DEVICE_FLAGS, NULL);
}

static int learn_geometry(DmkWinTarget *t, const DmkTargetParams *p, DmkTargetInfo *info,
                          DmkError *err)
{
    GET_LENGTH_INFORMATION len;
    if (!ioctl_out(t->file, IOCTL_DISK_GET_LENGTH_INFO, &len, sizeof len))
        return dmk_win_error(err, GetLastError(), "reading the size of the device %s failed",
                             p->dir);
    uint64_t bytes = (uint64_t)len.Length.QuadPart;
    uint32_t align = sector_size(t->file);
    info->offset_align = info->mem_align = t->offset_align = t->mem_align = align;
    info->fs_size_bytes = info->capacity_bytes = bytes;
    int rc = dmk_device_region(p->dir, p->size, bytes, align, &t->size, err);
    info->test_size = t->size;
    return rc;
}

static int open_target(DmkWinTarget *t, const DmkTargetParams *p, DmkTargetInfo *info,
                       DmkError *err)
{
    if (p->has_device_fd) /* only the Linux window obtains one (UDisks2) */
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "%s: an already-open device descriptor is not supported on Windows",
                             p->dir);
    if (p->device_write && !dmk_device_confirmed(p->dir, p->device_confirm))
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to write to %s: writing destroys its data, and the "
                             "device's name was not confirmed",
                             p->dir);
    int rc = p->device_write ? lock_for_write(t, err) : DMK_OK;
    if (rc != DMK_OK)
        return rc;
    t->file = open_handle(t);
    if (t->file == INVALID_HANDLE_VALUE)
        return t->writable ? dmk_win_error(err, GetLastError(),
                                           "opening the device %s for writing failed", p->dir)
                           : dmk_win_error(err, GetLastError(),
                                           "opening the device %s for reading failed", p->dir);
    return learn_geometry(t, p, info, err);
}

int dmk_win_device_open(const DmkTargetParams *p, DmkWinTarget **out, DmkTargetInfo *info,
                        DmkError *err)
{
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    if (!is_device_path(p->dir))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s is not a device: a device target is \\\\.\\PhysicalDriveN or "
                             "\\\\.\\X: (a directory takes a test file with --target)",
                             p->dir);
    DmkWinTarget *t = calloc(1, sizeof *t);
    wchar_t *path = dmk_win_wide(p->dir);
    if (!t || !path) {
        free(t);
        free(path);
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    }
    t->device = true;
    t->writable = p->device_write;
    t->device_path = path;
    t->file = INVALID_HANDLE_VALUE;
    t->sensor = INVALID_HANDLE_VALUE;
    snprintf(t->dir, sizeof t->dir, "%s", p->dir);
    int rc = open_target(t, p, info, err);
    if (rc != DMK_OK) {
        dmk_win_device_close(t);
        return rc;
    }
    info->is_device = true;
    info->discard = -1;
    snprintf(info->device, sizeof info->device, "%s", p->dir);
    snprintf(info->fs_type, sizeof info->fs_type, "%s", DMK_FS_TYPE_DEVICE);
    *out = t;
    return DMK_OK;
}

void dmk_win_device_close(DmkWinTarget *t)
{
    if (!t)
        return;
    if (t->file != INVALID_HANDLE_VALUE)
        CloseHandle(t->file);
    unlock_all(t);
    free(t->device_path);
    free(t);
}

int dmk_win_device_reopen(DmkWinTarget *t, HANDLE *out, DmkError *err)
{
    *out = open_handle(t);
    if (*out == INVALID_HANDLE_VALUE)
        return dmk_win_error(err, GetLastError(), "opening the device %s for a queue failed",
                             t->dir);
    return DMK_OK;
}

int dmk_win_device_trim(DmkWinTarget *t, DmkTrimReport *rep, DmkError *err)
{
    (void)err;
    memset(rep, 0, sizeof *rep);
    snprintf(rep->note, sizeof rep->note,
             "TRIM: not done, trimming a raw device is not supported on Windows (%.400s).", t->dir);
    return DMK_OK;
}

/* ---- listing ------------------------------------------------------------------- */

bool dmk_os_device_empty(const char *path)
{
    (void)path; /* the open itself reports an empty drive (ERROR_NOT_READY) */
    return false;
}

void dmk_os_resolve_device(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path ? path : ""); /* Windows device names have no links */
}

void dmk_os_device_fd_close(int fd)
{
    (void)fd; /* no descriptor is handed over here: open_target refuses one */
}

static void device_model(HANDLE h, char *out, size_t len)
{
    STORAGE_PROPERTY_QUERY q = {.PropertyId = StorageDeviceProperty,
                                .QueryType = PropertyStandardQuery};
    _Alignas(8) char buf[1024] = {0};
    DWORD got = 0;
    out[0] = '\0';
    if (!DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, buf, sizeof buf, &got,
                         NULL))
        return;
    const STORAGE_DEVICE_DESCRIPTOR *d = (const STORAGE_DEVICE_DESCRIPTOR *)buf;
    if (d->ProductIdOffset && d->ProductIdOffset < sizeof buf)
        snprintf(out, len, "%.*s",
                 (int)strnlen(buf + d->ProductIdOffset, sizeof buf - d->ProductIdOffset),
                 buf + d->ProductIdOffset);
}

/* Physical drives are numbered from 0; a gap can follow a removed disk,
 * so a fixed range is probed rather than stopping at the first miss. */
/* Not looked at ahead: the write's open locks and dismounts each volume
 * on the disk, and a volume in use cannot be locked, which is the
 * refusal (naming the volume). So every disk is offered as free. */
int dmk_os_device_usage(const char *path, char *buf, size_t len)
{
    (void)path;
    if (len)
        buf[0] = '\0';
    return 0;
}

int dmk_os_list_devices(DmkDevice *out, size_t max)
{
    size_t n = 0;
    for (int i = 0; i < 64 && n < max; i++) {
        wchar_t name[40];
        swprintf(name, 40, L"\\\\.\\PhysicalDrive%d", i);
        HANDLE h =
            CreateFileW(name, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
        if (h == INVALID_HANDLE_VALUE)
            continue;
        DmkDevice *d = &out[n++];
        memset(d, 0, sizeof *d);
        snprintf(d->path, sizeof d->path, "\\\\.\\PhysicalDrive%d", i);
        DISK_GEOMETRY_EX geo; /* answers a handle without access rights, unlike GET_LENGTH_INFO */
        if (ioctl_out(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, &geo, sizeof geo))
            d->size_bytes = (uint64_t)geo.DiskSize.QuadPart;
        device_model(h, d->model, sizeof d->model);
        CloseHandle(h);
    }
    return (int)n;
}
