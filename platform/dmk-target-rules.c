/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The target rules every OS and backend shares (dmk-target-rules.h). */
#include "dmk-target-rules.h"

#include <string.h>

/* Room for the file's metadata: extents, journal, a little slack. */
static uint64_t space_needed(uint64_t size)
{
    return size + size / 64 + (4ULL << 20);
}

uint64_t dmk_target_free_size(uint64_t free_bytes, uint64_t margin)
{
    if (free_bytes <= margin + (4ULL << 20))
        return 0;
    uint64_t size = (free_bytes - margin - (4ULL << 20)) / 65 * 64;
    size &= ~((1ULL << 20) - 1);
    while (size && space_needed(size) > free_bytes - margin)
        size -= 1ULL << 20;
    return size;
}

int dmk_target_size(const DmkTargetParams *p, uint64_t free_bytes, int os_error, uint64_t *size,
                    DmkError *err)
{
    *size = p->size ? p->size : dmk_target_free_size(free_bytes, p->free_margin);
    if (*size == 0)
        return dmk_error_set(err, DMK_E_NOSPC, os_error,
                             "%s has %llu MiB free, no more than the %llu MiB safety margin",
                             p->dir, (unsigned long long)(free_bytes >> 20),
                             (unsigned long long)(p->free_margin >> 20));
    return dmk_target_check_space(p->dir, *size, free_bytes, os_error, err);
}

int dmk_target_check_space(const char *dir, uint64_t size, uint64_t free_bytes, int os_error,
                           DmkError *err)
{
    uint64_t need = space_needed(size);
    if (free_bytes >= need)
        return DMK_OK;
    return dmk_error_set(err, DMK_E_NOSPC, os_error,
                         "not enough free space in %s for the %llu MiB test file: %llu MiB "
                         "available, %llu MiB needed",
                         dir, (unsigned long long)(size >> 20),
                         (unsigned long long)(free_bytes >> 20), (unsigned long long)(need >> 20));
}

/* Windows device names ignore case ("\\\\.\\physicaldrive1"); Linux paths do not. */
static bool same_name(const char *a, const char *b)
{
#ifdef _WIN32
    return _stricmp(a, b) == 0;
#else
    return strcmp(a, b) == 0;
#endif
}

bool dmk_device_confirmed(const char *path, const char *typed)
{
    if (!path || !typed || !*typed)
        return false;
    if (same_name(path, typed))
        return true;
    /* A link and what it points at name the same disk. A name that does
     * not resolve stays as typed, so it matches only itself. */
    char a[1024], b[1024];
    dmk_os_resolve_device(path, a, sizeof a);
    dmk_os_resolve_device(typed, b, sizeof b);
    return same_name(a, b);
}

int dmk_device_region(const char *path, uint64_t want, uint64_t bytes, uint32_t sector,
                      uint64_t *size, DmkError *err)
{
    /* An unattached loop device (or an empty card reader) has no storage
     * at all: no test size would fit, so none is suggested. */
    if (bytes == 0)
        return dmk_error_set(err, DMK_E_NOSPC, 0,
                             "the device %s has no storage (0 bytes): an unattached loop device or "
                             "an empty drive (a card reader without a card)?",
                             path);
    if (want > bytes)
        return dmk_error_set(err, DMK_E_NOSPC, 0,
                             "the device %s holds %llu MiB, less than the %llu MiB test region "
                             "(choose a smaller test size, --size)",
                             path, (unsigned long long)(bytes >> 20),
                             (unsigned long long)(want >> 20));
    *size = (want ? want : bytes) / sector * sector;
    if (*size == 0)
        return dmk_error_set(err, DMK_E_NOSPC, 0,
                             "the device %s holds less than one %u-byte sector", path, sector);
    return DMK_OK;
}
