/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the review-lab tests ask of the drive under the test file on
 * Linux: its temperature (hwmon: NVMe's own, or drivetemp for SATA) and
 * giving the file's blocks back (TRIM). */
#ifndef DMK_DRIVE_LINUX_H
#define DMK_DRIVE_LINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-platform.h"

/* The OS's text for errno e as the C locale has it, whatever the user's
 * LC_MESSAGES: for notes that go into result files, which stay the same
 * in every language (an error shown to the user takes strerror's). */
const char *dmk_linux_errno_text_c(int e, char *buf, size_t len);

/* Reads the first line of a small text file (sysfs, procfs), trimmed of
 * trailing blanks; false and "" when it cannot. */
bool dmk_linux_read_line(const char *path, char *buf, size_t len);

/* Finds a readable temperature input of the disk whose sysfs directory
 * is disk_dir ("/sys/devices/.../block/nvme0n1"): *input gets its path,
 * desc a name for people ("nvme Composite (hwmon2)"). */
bool dmk_linux_find_sensor(const char *disk_dir, char *input, size_t input_len, char *desc,
                           size_t desc_len);

/* Reads a hwmon temp*_input (millidegrees C). */
int dmk_linux_read_temp(const char *input, double *celsius);

/* True when the comma-separated mount options turn on online discard
 * ("discard", "discard=async"). */
bool dmk_linux_opts_discard(const char *opts);

/* Punches the file's blocks out and allocates them again (so the next
 * write test finds the file as before), then FITRIMs the file system at
 * mount_point where permitted; rep->note says what happened. */
int dmk_linux_trim(int fd, uint64_t size, const char *dir, const char *mount_point, int discard,
                   DmkTrimReport *rep, DmkError *err);

#endif
