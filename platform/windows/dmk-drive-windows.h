/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the review-lab tests ask of the drive under the test file on
 * Windows: its temperature (the storage temperature property, Windows 10
 * and later) and giving the file's clusters back (file-level TRIM). */
#ifndef DMK_DRIVE_WINDOWS_H
#define DMK_DRIVE_WINDOWS_H

#include <stdint.h>
#include <windows.h>

#include "dmk-platform.h"

/* Opens the physical drive (info->device, "\\.\PhysicalDrive0") for
 * queries and keeps it when it reports a temperature: INVALID_HANDLE_VALUE
 * otherwise. Names the sensor in info->temp_sensor. */
HANDLE dmk_win_open_sensor(DmkTargetInfo *info);

/* The drive's current temperature through the handle above. */
int dmk_win_read_temp(HANDLE disk, double *celsius);

/* FSCTL_FILE_LEVEL_TRIM over the whole file (an overlapped handle). */
int dmk_win_trim(HANDLE file, uint64_t size, const char *dir, DmkTrimReport *rep, DmkError *err);

#endif
