/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rules every target follows, whatever the OS or backend: how big a
 * test file may be for the free space, how a raw device's test region is
 * cut, and what consent to write to a device is. Policy, not OS service:
 * dmk-platform.h is the interface the OS files and backends implement,
 * this is what they (and the front ends that ask first) all apply. */
#ifndef DMK_TARGET_RULES_H
#define DMK_TARGET_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "dmk-platform.h"

/* The space rule every target follows: the test file plus room for its
 * metadata must fit in what this user may use (free_bytes); otherwise
 * DMK_E_NOSPC with a message naming dir and both sizes, carrying os_error
 * (ENOSPC, ERROR_DISK_FULL). */
int dmk_target_check_space(const char *dir, uint64_t size, uint64_t free_bytes, int os_error,
                           DmkError *err);

/* The largest test file (whole MiB) that leaves `margin` bytes of
 * free_bytes free under the rule above: the full-span write's size. */
uint64_t dmk_target_free_size(uint64_t free_bytes, uint64_t margin);

/* The test file's size for p: p->size, or the free space but
 * p->free_margin (full span); then the space rule above. */
int dmk_target_size(const DmkTargetParams *p, uint64_t free_bytes, int os_error, uint64_t *size,
                    DmkError *err);

/* Whether `typed`, the name a user typed to allow writing, names the
 * device `path`: the same string, or the same resolved path (a link and
 * its target confirm each other). An empty `typed` never matches. */
bool dmk_device_confirmed(const char *path, const char *typed);

/* The test region on a device of `bytes` bytes with `sector`-byte
 * sectors: `want` bytes (0: the whole device), in whole sectors; or
 * DMK_E_NOSPC naming the device when it holds less (or nothing). */
int dmk_device_region(const char *path, uint64_t want, uint64_t bytes, uint32_t sector,
                      uint64_t *size, DmkError *err);

#endif
