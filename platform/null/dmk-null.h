/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The null backend: requests complete in memory, at once or after a set
 * latency, and no byte reaches a disk. Its options (DmkNullOpts, in a
 * DmkBackendOpts block) are what front ends set through
 * dmk_backend_set_option ("latency", "serve", "cache", "thermal",
 * "slow") and what tests set directly through dmk_null_opts. */
#ifndef DMK_NULL_H
#define DMK_NULL_H

#include <stdint.h>

#include "dmk-platform.h"

/* The simulated drive, so that cache and throttling detection are
 * tested on known answers. All zero: a plain null backend. */
typedef struct {
    uint64_t cache_bytes; /* > 0: writes past this many bytes (since TRIM) slow down */
    uint32_t slow_factor; /* latency multiplier past the cache (and while throttled) */
    double drain_s;       /* idle time that empties a full cache (0: never) */
    uint64_t bytes_per_c; /* > 0: a sensor; the drive warms 1 C per this many bytes written */
    /* > 0: the drive writes this many bytes a second, one write after
     * another over all queues, while reads take only latency_ns: a mixed
     * test's throughput then has a known answer (tests only, no option). */
    uint64_t write_bytes_s;
} DmkNullSim;

typedef struct {
    uint64_t latency_ns; /* each I/O's simulated latency */
    /* > 0: each queue's simulated drive answers one request at a time,
     * every one this long after the one before (a slow USB stick at 20
     * random-write IOPS is 50 ms), with latency_ns as the floor, so a
     * deep queue drains slowly after a stop. */
    uint64_t serve_ns;
    DmkNullSim sim;
} DmkNullOpts;

/* The null backend ("null"). */
const DmkBackend *dmk_backend_null(void);

/* opts as the null backend's, to be set: kept when it already holds the
 * null (or the fault backend's, which begin with them) options, else
 * cleared and claimed for "null". */
DmkNullOpts *dmk_null_opts(DmkBackendOpts *opts);

/* The null options in opts, or all zero (the defaults) when opts is NULL
 * or holds another backend's. */
const DmkNullOpts *dmk_null_opts_get(const DmkBackendOpts *opts);

#endif
