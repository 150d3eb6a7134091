/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark's own test file on Windows: a uniquely named file in the
 * target directory that the system deletes when its last handle closes,
 * even after a crash; its sector alignment; and the drive under it. */
#include "dmk-target-windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <mmsystem.h>
#include <winioctl.h>

#include "dmk-drive-windows.h"
#include "dmk-target-rules.h"
#include "dmk-win32.h"

/* ---- the volume and the drive under the directory ----------------------- */

/* "C:\" for a path on C:, the mount folder for a volume mounted in one. */
static bool volume_root(const wchar_t *path, wchar_t *root, DWORD n)
{
    if (!GetVolumePathNameW(path, root, n))
        return false;
    /* "\\?\C:\" -> "C:\": the volume functions expect a plain root. */
    if (wcsncmp(root, L"\\\\?\\", 4) == 0 && root[4] && root[5] == L':')
        memmove(root, root + 4, (wcslen(root + 4) + 1) * sizeof *root);
    return true;
}

/* The volume device, opened for queries only (no access rights, so no
 * administrator needed); INVALID_HANDLE_VALUE where it cannot be. */
static HANDLE open_volume(const wchar_t *root)
{
    wchar_t name[MAX_PATH];
    HANDLE h = INVALID_HANDLE_VALUE;
    if (GetVolumeNameForVolumeMountPointW(root, name, MAX_PATH)) {
        size_t n = wcslen(name);
        if (n && name[n - 1] == L'\\')
            name[n - 1] = L'\0'; /* with the backslash it would open the root folder */
        h = CreateFileW(name, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    }
    if (h == INVALID_HANDLE_VALUE && root[0] && root[1] == L':') {
        wchar_t dos[] = L"\\\\.\\X:";
        dos[4] = root[0];
        h = CreateFileW(dos, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    }
    return h;
}

static bool query_property(HANDLE h, STORAGE_PROPERTY_ID id, void *out, DWORD len)
{
    STORAGE_PROPERTY_QUERY q = {.PropertyId = id, .QueryType = PropertyStandardQuery};
    DWORD got = 0;
    return h != INVALID_HANDLE_VALUE &&
           DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, out, len, &got, NULL) &&
           got >= sizeof(STORAGE_DESCRIPTOR_HEADER);
}

static bool power_of_two(uint32_t v)
{
    return v && (v & (v - 1)) == 0;
}

/* Unbuffered I/O must be aligned to the logical sector: asked of the
 * storage stack, else of the file system, else a safe 4096. */
static uint32_t volume_alignment(HANDLE vol, const wchar_t *root)
{
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR d = {0};
    if (query_property(vol, StorageAccessAlignmentProperty, &d, sizeof d) &&
        power_of_two(d.BytesPerLogicalSector) && d.BytesPerLogicalSector >= 512)
        return d.BytesPerLogicalSector;
    DWORD spc, bps = 0, free_clusters, clusters;
    if (GetDiskFreeSpaceW(root, &spc, &bps, &free_clusters, &clusters) && power_of_two(bps) &&
        bps >= 512)
        return bps;
    return 4096;
}

/* An ASCII field of a STORAGE_DEVICE_DESCRIPTOR, without its padding. */
static void descriptor_field(const char *base, DWORD size, DWORD off, char *out, size_t len)
{
    out[0] = '\0';
    if (!off || off >= size)
        return;
    const char *s = base + off;
    size_t n = strnlen(s, size - off);
    while (n && *s == ' ')
        s++, n--;
    while (n && s[n - 1] == ' ')
        n--;
    snprintf(out, len, "%.*s", (int)n, s);
}

/* Model and size of the physical drive: best effort, "" and 0 where the
 * volume spans drives or the system does not say (Wine). */
/* The drive's bus, for the over-the-interface flag: SATA carries at most
 * 600 MB/s (6 Gbit/s, 8b/10b; the negotiated speed is not asked, so a
 * 3 Gbit/s link is checked against the larger bound). NVMe's PCIe link
 * needs SetupAPI's device properties, and USB's speed the USB stack's:
 * named, but left unchecked (0). */
static void describe_bus(HANDLE disk, DmkTargetInfo *info)
{
    _Alignas(8) char buf[256] = {0};
    if (!query_property(disk, StorageAdapterProperty, buf, sizeof buf))
        return;
    const STORAGE_ADAPTER_DESCRIPTOR *a = (const STORAGE_ADAPTER_DESCRIPTOR *)buf;
    if (a->BusType == BusTypeSata) {
        snprintf(info->iface, sizeof info->iface, "SATA");
        info->iface_bytes_s = 600000000ULL;
    } else if (a->BusType == BusTypeNvme) {
        snprintf(info->iface, sizeof info->iface, "NVMe");
    } else if (a->BusType == BusTypeUsb) {
        snprintf(info->iface, sizeof info->iface, "USB");
    }
}

static void describe_drive(HANDLE vol, DmkTargetInfo *info)
{
    STORAGE_DEVICE_NUMBER num;
    DWORD got;
    if (vol == INVALID_HANDLE_VALUE || !DeviceIoControl(vol, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL,
                                                        0, &num, sizeof num, &got, NULL))
        return;
    snprintf(info->device, sizeof info->device, "\\\\.\\PhysicalDrive%lu", num.DeviceNumber);
    wchar_t *name = dmk_win_wide(info->device);
    HANDLE disk = name ? CreateFileW(name, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                                     OPEN_EXISTING, 0, NULL)
                       : INVALID_HANDLE_VALUE;
    free(name);
    if (disk == INVALID_HANDLE_VALUE)
        return;
    _Alignas(8) char buf[1024] = {0};
    if (query_property(disk, StorageDeviceProperty, buf, sizeof buf)) {
        const STORAGE_DEVICE_DESCRIPTOR *d = (const STORAGE_DEVICE_DESCRIPTOR *)buf;
        char vendor[64], product[128];
        descriptor_field(buf, sizeof buf, d->VendorIdOffset, vendor, sizeof vendor);
        descriptor_field(buf, sizeof buf, d->ProductIdOffset, product, sizeof product);
        /* SATA drives report the vendor "ATA"; the product says it all. */
        bool plain = !vendor[0] || strcmp(vendor, "ATA") == 0;
        snprintf(info->model, sizeof info->model, "%s%s%s", plain ? "" : vendor, plain ? "" : " ",
                 product);
    }
    describe_bus(disk, info);
    DISK_GEOMETRY_EX geo;
    if (DeviceIoControl(disk, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &geo, sizeof geo, &got,
                        NULL))
        info->capacity_bytes = (uint64_t)geo.DiskSize.QuadPart;
    CloseHandle(disk);
}

static void describe_volume(const wchar_t *dir, DmkTargetInfo *info)
{
    wchar_t root[MAX_PATH + 8];
    if (!volume_root(dir, root, MAX_PATH + 8)) {
        info->offset_align = info->mem_align = 4096;
        return;
    }
    dmk_win_utf8(root, info->mount_point, sizeof info->mount_point);
    HANDLE vol = open_volume(root);
    info->offset_align = volume_alignment(vol, root);
    info->mem_align = info->offset_align;
    describe_drive(vol, info);
    if (vol != INVALID_HANDLE_VALUE)
        CloseHandle(vol);
}

/* Asked of the open test file, not of the volume root: this needs no
 * access to the volume device (GetVolumeInformationW does, under Wine). */
static void describe_fs(HANDLE file, DmkTargetInfo *info)
{
    wchar_t name[MAX_PATH + 1];
    if (GetVolumeInformationByHandleW(file, NULL, 0, NULL, NULL, NULL, name, MAX_PATH + 1))
        dmk_win_utf8(name, info->fs_type, sizeof info->fs_type);
}

/* ---- checks before anything is written --------------------------------- */

static int check_dir(const wchar_t *path, const char *dir, DmkError *err)
{
    DWORD attr = GetFileAttributesW(path);
    if (attr == INVALID_FILE_ATTRIBUTES)
        return dmk_win_error(err, GetLastError(), "opening the target directory %s failed", dir);
    if (!(attr & FILE_ATTRIBUTE_DIRECTORY))
        return dmk_error_set(err, DMK_E_INVAL, ERROR_DIRECTORY,
                             "the target %s is not a directory (give a directory; the "
                             "benchmark creates its own test file there)",
                             dir);
    return DMK_OK;
}

/* A RAM disk (ImDisk, the "RAM drive" tools) measures memory: refused,
 * as on Linux. A network share's storage is a server's: run, flagged
 * (storage unknown). */
static int check_drive_type(const wchar_t *path, const char *dir, DmkTargetInfo *info,
                            DmkError *err)
{
    wchar_t root[MAX_PATH + 1];
    if (!volume_root(path, root, MAX_PATH + 1))
        return DMK_OK;
    UINT type = GetDriveTypeW(root);
    char r[MAX_PATH * 3];
    dmk_win_utf8(root, r, sizeof r);
    if (type == DRIVE_RAMDISK)
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing %s: it is on a RAM disk (%.200s), so the numbers would "
                             "measure memory, not a drive",
                             dir, r);
    if (type == DRIVE_REMOTE) {
        info->storage = DMK_STORAGE_UNKNOWN;
        snprintf(info->storage_note, sizeof info->storage_note,
                 "%.256s is on a network share (%.200s), a server's storage", dir, r);
    }
    return DMK_OK;
}

/* The file's size: as asked, or the free space but the margin (full
 * span), in which case *size is set here. */
static int check_space(const wchar_t *path, const DmkTargetParams *p, uint64_t *size,
                       DmkTargetInfo *info, DmkError *err)
{
    ULARGE_INTEGER avail, total, total_free;
    if (!GetDiskFreeSpaceExW(path, &avail, &total, &total_free))
        return dmk_win_error(err, GetLastError(), "reading the free space of %s failed", p->dir);
    info->fs_size_bytes = total.QuadPart;
    /* The caller's bytes, not the volume's: disk quotas count. */
    info->fs_free_bytes = avail.QuadPart;
    return dmk_target_size(p, info->fs_free_bytes, ERROR_DISK_FULL, size, err);
}

/* ---- the test file ------------------------------------------------------ */

/* Other handles (a queue's, a test's reader) may read and write; nobody
 * else may delete or rename it while the benchmark runs. */
#define TEST_FILE_SHARE (FILE_SHARE_READ | FILE_SHARE_WRITE)
#define TEST_FILE_FLAGS (FILE_FLAG_OVERLAPPED | FILE_FLAG_NO_BUFFERING)

static HANDLE create_named(const wchar_t *dir, DWORD *error)
{
    char leaf[64];
    snprintf(leaf, sizeof leaf, ".drivemark-%lu-%08llx.tmp", GetCurrentProcessId(),
             (unsigned long long)(dmk_entropy64() & 0xffffffffULL));
    wchar_t *wleaf = dmk_win_wide(leaf), *path = wleaf ? dmk_win_join(dir, wleaf) : NULL;
    HANDLE h = INVALID_HANDLE_VALUE;
    *error = ERROR_NOT_ENOUGH_MEMORY;
    if (path) {
        /* DELETE_ON_CLOSE: the system removes the file when the last
         * handle closes, which a crash or TerminateProcess also does.
         * NOT_CONTENT_INDEXED keeps the search indexer from reading it. */
        h = CreateFileW(
            path, GENERIC_READ | GENERIC_WRITE | DELETE, TEST_FILE_SHARE, NULL, CREATE_NEW,
            FILE_ATTRIBUTE_NOT_CONTENT_INDEXED | FILE_FLAG_DELETE_ON_CLOSE | TEST_FILE_FLAGS, NULL);
        *error = h == INVALID_HANDLE_VALUE ? GetLastError() : 0;
    }
    free(path);
    free(wleaf);
    return h;
}

static int create_file(const wchar_t *dir, const char *udir, HANDLE *out, DmkError *err)
{
    DWORD e = 0;
    for (int attempt = 0; attempt < 16; attempt++) {
        *out = create_named(dir, &e);
        if (*out != INVALID_HANDLE_VALUE)
            return DMK_OK;
        if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS)
            break;
    }
    return dmk_win_error(err, e, "creating the test file in %s failed", udir);
}

/* NTFS compression (inherited from a compressed folder) would measure the
 * compressor. File systems without it ("not supported") are fine; a file
 * that stays compressed is refused. */
static int turn_off_compression(HANDLE h, const char *dir, DmkTargetInfo *info, DmkError *err)
{
    BY_HANDLE_FILE_INFORMATION fi;
    bool was =
        GetFileInformationByHandle(h, &fi) && (fi.dwFileAttributes & FILE_ATTRIBUTE_COMPRESSED);
    USHORT format = COMPRESSION_FORMAT_NONE;
    OVERLAPPED ov = {0};
    ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL); /* the handle is overlapped */
    DWORD got;
    if (ov.hEvent &&
        !DeviceIoControl(h, FSCTL_SET_COMPRESSION, &format, sizeof format, NULL, 0, &got, &ov) &&
        GetLastError() == ERROR_IO_PENDING)
        GetOverlappedResult(h, &ov, &got, TRUE);
    if (ov.hEvent)
        CloseHandle(ov.hEvent);
    /* Recorded for the result: the folder compresses, the file does not. */
    info->compression = was ? DMK_FS_FEATURE_OFF : DMK_FS_FEATURE_NONE;
    if (GetFileInformationByHandle(h, &fi) && (fi.dwFileAttributes & FILE_ATTRIBUTE_COMPRESSED))
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "refusing %s: the test file is NTFS-compressed there and compression "
                             "could not be turned off, so the numbers would measure the "
                             "compressor; use an uncompressed folder",
                             dir);
    return DMK_OK;
}

/* ReFS writes a file with integrity streams copy-on-write (checksummed
 * data goes to new clusters): turned off while the file is still empty,
 * and recorded either way. Other file systems do not answer. */
static void refs_integrity(HANDLE h, DmkTargetInfo *info)
{
#ifdef FSCTL_GET_INTEGRITY_INFORMATION
    FSCTL_GET_INTEGRITY_INFORMATION_BUFFER cur = {0};
    DWORD got;
    OVERLAPPED ov = {0};
    ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL); /* the handle is overlapped */
    if (!ov.hEvent)
        return;
    bool ok =
        DeviceIoControl(h, FSCTL_GET_INTEGRITY_INFORMATION, NULL, 0, &cur, sizeof cur, &got, &ov) ||
        (GetLastError() == ERROR_IO_PENDING && GetOverlappedResult(h, &ov, &got, TRUE));
    if (ok && cur.ChecksumAlgorithm != CHECKSUM_TYPE_NONE) {
        FSCTL_SET_INTEGRITY_INFORMATION_BUFFER off = {CHECKSUM_TYPE_NONE, 0, 0};
        ResetEvent(ov.hEvent);
        bool set = DeviceIoControl(h, FSCTL_SET_INTEGRITY_INFORMATION, &off, sizeof off, NULL, 0,
                                   &got, &ov) ||
                   (GetLastError() == ERROR_IO_PENDING && GetOverlappedResult(h, &ov, &got, TRUE));
        info->cow = set ? DMK_FS_FEATURE_OFF : DMK_FS_FEATURE_ACTIVE;
    }
    CloseHandle(ov.hEvent);
#else
    (void)h; /* this SDK lacks the integrity FSCTLs: nothing is recorded */
    (void)info;
#endif
}

/* SetEndOfFile reserves the clusters, so a full disk fails here, not
 * mid-test. Never SetFileValidData: the fill writes every block, and until
 * then unwritten ranges must read as zeros, not as old disk contents. */
static int size_file(HANDLE h, const char *dir, uint64_t size, DmkError *err)
{
    LARGE_INTEGER end;
    end.QuadPart = (LONGLONG)size;
    if (!SetFilePointerEx(h, end, NULL, FILE_BEGIN) || !SetEndOfFile(h))
        return dmk_win_error(err, GetLastError(),
                             "allocating %llu MiB for the test file in %s failed",
                             (unsigned long long)(size >> 20), dir);
    return DMK_OK;
}

static int make_file(const wchar_t *dir, const DmkTargetParams *p, uint64_t size, HANDLE *out,
                     DmkTargetInfo *info, DmkError *err)
{
    int rc = create_file(dir, p->dir, out, err);
    if (rc == DMK_OK)
        rc = turn_off_compression(*out, p->dir, info, err);
    if (rc == DMK_OK)
        refs_integrity(*out, info);
    if (rc == DMK_OK)
        rc = size_file(*out, p->dir, size, err);
    if (rc != DMK_OK && *out != INVALID_HANDLE_VALUE) {
        CloseHandle(*out);
        *out = INVALID_HANDLE_VALUE;
    }
    return rc;
}

int dmk_win_target_open(const DmkTargetParams *p, DmkWinTarget **out, DmkTargetInfo *info,
                        DmkError *err)
{
    if (p->device)
        return dmk_win_device_open(p, out, info, err);
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    wchar_t *dir = dmk_win_long_path(p->dir);
    if (!dir)
        return dmk_error_set(err, DMK_E_INVAL, ERROR_NO_UNICODE_TRANSLATION,
                             "the target path %s is not valid UTF-8", p->dir);
    HANDLE h = INVALID_HANDLE_VALUE;
    uint64_t size = 0;
    info->discard = -1; /* Windows sends TRIM on delete unless DisableDeleteNotify: unknown */
    int rc = check_dir(dir, p->dir, err);
    if (rc == DMK_OK)
        rc = check_drive_type(dir, p->dir, info, err);
    if (rc == DMK_OK) {
        describe_volume(dir, info);
        rc = check_space(dir, p, &size, info, err);
    }
    if (rc == DMK_OK)
        rc = make_file(dir, p, size, &h, info, err);
    free(dir);
    DmkWinTarget *t = rc == DMK_OK ? calloc(1, sizeof *t) : NULL;
    if (rc == DMK_OK && !t) {
        CloseHandle(h);
        rc = dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    }
    if (rc != DMK_OK)
        return rc;
    describe_fs(h, info);
    t->file = h;
    t->size = size;
    info->test_size = size;
    t->sensor = dmk_win_open_sensor(info);
    /* Waits (the rate limiter's, the reap timeout) are in milliseconds,
     * but the default timer ticks every 15.6 ms: ask for 1 ms while the
     * test file is open. */
    timeBeginPeriod(1);
    t->offset_align = info->offset_align;
    t->mem_align = info->mem_align;
    snprintf(t->dir, sizeof t->dir, "%s", p->dir);
    *out = t;
    return DMK_OK;
}

void dmk_win_target_close(DmkWinTarget *t)
{
    if (!t)
        return;
    if (t->device) {
        dmk_win_device_close(t);
        return;
    }
    CloseHandle(t->file); /* the last handle: the file is deleted */
    timeEndPeriod(1);
    if (t->sensor != INVALID_HANDLE_VALUE)
        CloseHandle(t->sensor);
    free(t);
}

int dmk_win_target_reopen(DmkWinTarget *t, HANDLE *out, DmkError *err)
{
    if (t->device)
        return dmk_win_device_reopen(t, out, err);
    /* FILE_SHARE_DELETE: the file is open with DELETE_ON_CLOSE. */
    *out = ReOpenFile(t->file, GENERIC_READ | GENERIC_WRITE,
                      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, TEST_FILE_FLAGS);
    if (*out == INVALID_HANDLE_VALUE)
        return dmk_win_error(err, GetLastError(), "opening the test file in %s for a queue failed",
                             t->dir);
    return DMK_OK;
}
