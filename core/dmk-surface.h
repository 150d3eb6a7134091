/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The surface scan, GNOME Disks' benchmark: the read rate across the
 * whole device and the access time at random places on it. A review-lab
 * test (dmk-lab.h's table, "surface") built on the ordinary runner:
 *  - `samples` tests, each one read of `sample_size` bytes (one I/O, QD 1,
 *    as GNOME Disks reads a sample), spread evenly from the device's first
 *    byte to its last (dmk_surface_offset places them once the runner
 *    knows the device's size), labelled "sample";
 *  - one test of `accesses` random 4 KiB reads at QD 1 over the whole
 *    device, labelled "access", that keeps each I/O (position, latency)
 *    as its samples (DmkTest.keep_ios).
 * It only reads: a device is opened read-only (no test writes, so the
 * runner never asks to write), and a folder is refused, since a test file
 * the scan would first have to write says nothing about the disk's
 * surface. */
#ifndef DMK_SURFACE_H
#define DMK_SURFACE_H

#include <stddef.h>
#include <stdint.h>

#include "dmk-result.h"

/* GNOME Disks' defaults and bounds. The samples are tests of one run,
 * so at most DMK_MAX_TESTS - 1 of them (GNOME Disks: 1000). */
#define DMK_SURFACE_SAMPLES         100
#define DMK_SURFACE_SAMPLES_MAX     200
#define DMK_SURFACE_SAMPLE_SIZE     (10ULL << 20)
#define DMK_SURFACE_SAMPLE_SIZE_MAX (64ULL << 20) /* DMK_BS_MAX: one I/O */
#define DMK_SURFACE_ACCESSES        1000
#define DMK_SURFACE_ACCESSES_MAX    100000
#define DMK_SURFACE_ACCESS_BS       4096u

/* Where sample i of n (0-based) of `sample` bytes begins on a target of
 * `size` bytes, every offset a multiple of `align` (direct I/O): evenly
 * spaced from 0 to the last aligned place where a whole sample still
 * fits, so the last one ends at or before the end. A sample larger than
 * the target is cut to it (dmk_surface_sample_len) and starts at 0. */
uint64_t dmk_surface_offset(uint64_t size, uint64_t sample, uint64_t align, uint32_t i, uint32_t n);
/* The bytes sample reads there: `sample`, or the target's aligned size
 * where that is smaller. */
uint64_t dmk_surface_sample_len(uint64_t size, uint64_t sample, uint64_t align);

/* A point of either chart: where (bytes into the device) and what (MB/s
 * for a sample, ms for an access). */
typedef struct {
    double offset;
    double value;
} DmkSurfacePoint;

/* What a surface result holds, from its tests (a fresh result or one
 * read back from a file alike). The arrays are the result's to free
 * with dmk_surface_free. */
typedef struct {
    size_t n_samples;
    DmkSurfacePoint *samples; /* in position order: MB/s (10^6 bytes/s) */
    double rate_avg, rate_min, rate_max;
    double sample_bytes; /* one sample's length */
    size_t n_accesses;
    DmkSurfacePoint *accesses; /* in run order: ms */
    double access_avg_ms, access_min_ms, access_max_ms;
    double capacity; /* bytes: the device's, else the furthest byte read */
} DmkSurface;

/* Fills *out from r (all zero and NaN averages when it holds nothing of
 * a scan); DMK_E_NOMEM when the arrays cannot be allocated. */
int dmk_surface_of(const DmkRunResult *r, DmkSurface *out);
void dmk_surface_free(DmkSurface *s);

#endif
