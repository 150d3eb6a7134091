/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-drive-windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <winioctl.h>

#include "dmk-win32.h"

/* Not in every mingw-w64 header: the documented layouts (winioctl.h of the
 * Windows 10 SDK). */
typedef struct {
    WORD Index;
    SHORT Temperature; /* degrees Celsius */
    SHORT OverThreshold;
    SHORT UnderThreshold;
    BOOLEAN OverThresholdChangable;
    BOOLEAN UnderThresholdChangable;
    BOOLEAN EventGenerated;
    BYTE Reserved0;
    DWORD Reserved1;
} DmkTempInfo;

typedef struct {
    DWORD Version;
    DWORD Size;
    SHORT CriticalTemperature;
    SHORT WarningTemperature;
    WORD InfoCount;
    BYTE Reserved0[2];
    DWORD Reserved1[2];
    DmkTempInfo TemperatureInfo[1];
} DmkTempDescriptor;

typedef struct {
    DWORDLONG Offset;
    DWORDLONG Length;
} DmkTrimRange;

typedef struct {
    DWORD Key;
    DWORD NumRanges;
    DmkTrimRange Ranges[1];
} DmkFileLevelTrim;

#ifndef FSCTL_FILE_LEVEL_TRIM
#define FSCTL_FILE_LEVEL_TRIM \
    CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 130, METHOD_BUFFERED, FILE_WRITE_DATA)
#endif

int dmk_win_read_temp(HANDLE disk, double *celsius)
{
    STORAGE_PROPERTY_QUERY q = {0};
    q.PropertyId = StorageDeviceTemperatureProperty;
    q.QueryType = PropertyStandardQuery;
    _Alignas(8) char buf[512] = {0};
    DWORD got = 0;
    if (disk == INVALID_HANDLE_VALUE ||
        !DeviceIoControl(disk, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, buf, sizeof buf, &got,
                         NULL) ||
        got < sizeof(DmkTempDescriptor))
        return DMK_E_NOTSUP;
    const DmkTempDescriptor *d = (const DmkTempDescriptor *)buf;
    /* Entry 0 is the drive's composite temperature; a value at or below
     * absolute zero's neighbourhood means "not reported". */
    if (d->InfoCount < 1 || d->TemperatureInfo[0].Temperature <= -40)
        return DMK_E_NOTSUP;
    *celsius = d->TemperatureInfo[0].Temperature;
    return DMK_OK;
}

HANDLE dmk_win_open_sensor(DmkTargetInfo *info)
{
    if (!info->device[0])
        return INVALID_HANDLE_VALUE;
    wchar_t *name = dmk_win_wide(info->device);
    HANDLE disk = name ? CreateFileW(name, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                                     OPEN_EXISTING, 0, NULL)
                       : INVALID_HANDLE_VALUE;
    free(name);
    double c;
    if (disk != INVALID_HANDLE_VALUE && dmk_win_read_temp(disk, &c) != DMK_OK) {
        CloseHandle(disk);
        disk = INVALID_HANDLE_VALUE;
    }
    if (disk != INVALID_HANDLE_VALUE)
        snprintf(info->temp_sensor, sizeof info->temp_sensor, "storage temperature property of %s",
                 info->device);
    return disk;
}

int dmk_win_trim(HANDLE file, uint64_t size, const char *dir, DmkTrimReport *rep, DmkError *err)
{
    memset(rep, 0, sizeof *rep);
    DmkFileLevelTrim in = {0, 1, {{0, size}}};
    DWORD out = 0, got = 0;
    OVERLAPPED ov = {0};
    ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL); /* the handle is overlapped */
    BOOL ok = ov.hEvent && DeviceIoControl(file, FSCTL_FILE_LEVEL_TRIM, &in, sizeof in, &out,
                                           sizeof out, &got, &ov);
    DWORD e = ok ? 0 : GetLastError();
    if (!ok && e == ERROR_IO_PENDING) {
        ok = GetOverlappedResult(file, &ov, &got, TRUE);
        e = ok ? 0 : GetLastError();
    }
    if (ov.hEvent)
        CloseHandle(ov.hEvent);
    if (!ok && e != ERROR_INVALID_FUNCTION && e != ERROR_NOT_SUPPORTED)
        return dmk_win_error(err, e, "trimming the test file in %s failed", dir);
    rep->punched_bytes = ok ? size : 0;
    if (ok)
        snprintf(rep->note, sizeof rep->note,
                 "TRIM: the test file's %llu MiB were trimmed (FSCTL_FILE_LEVEL_TRIM). The "
                 "volume's other free space was not: Windows retrims it on its own schedule "
                 "(Optimize Drives).",
                 (unsigned long long)(size >> 20));
    else
        snprintf(rep->note, sizeof rep->note,
                 "TRIM: the file system of %s cannot trim a file (FSCTL_FILE_LEVEL_TRIM is not "
                 "supported there), so nothing was trimmed.",
                 dir);
    return DMK_OK;
}
