/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweeps: one workload measured at a series of queue depths or block
 * sizes, the line charts of the reviews (docs/methodology.md, section 2).
 * A sweep is nothing but a DmkRunSpec whose tests are its points (one
 * test per point and direction, named the CrystalDiskMark way, "RND4K
 * Q8T1"), so the ordinary runner measures it and the result records which
 * sweep it was (DmkRunResult.sweep). */
#ifndef DMK_SWEEP_H
#define DMK_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "dmk-spec.h"

/* Queue depths a sweep accepts: beyond 256 no drive gains anything. */
#define DMK_SWEEP_QD_MAX 256
/* Points of one sweep: 512 B .. 64 MiB is 18 block sizes. */
#define DMK_SWEEP_MAX_POINTS 32

typedef enum {
    DMK_SWEEP_QD = 0, /* queue depth varies; pattern, block size, threads fixed */
    DMK_SWEEP_BS = 1, /* block size varies; pattern, queue depth, threads fixed */
} DmkSweepKind;

typedef struct {
    DmkSweepKind kind;
    DmkPattern pattern;
    DmkRunMode mode;      /* read, write, or both (read sweep, then write sweep) */
    uint32_t block_size;  /* of a QD sweep */
    uint32_t queue_depth; /* of a block-size sweep */
    uint32_t threads;
    size_t n_points;
    uint32_t points[DMK_SWEEP_MAX_POINTS]; /* queue depths or block sizes, in run order */
} DmkSweep;

/* The reviews' sweep of that kind and pattern: random 4 KiB at QD 1..32,
 * sequential 128 KiB at QD 1..16, random 512 B..256 KiB at QD4, or
 * ATTO's sequential 512 B..64 MiB at QD4; read and write, one thread. */
void dmk_sweep_init(DmkSweep *s, DmkSweepKind kind, DmkPattern pattern);

/* Checks the sweep's bounds; the message names the bad value and range. */
int dmk_sweep_validate(const DmkSweep *s, DmkError *err);

/* Adds the points to spec as tests (all reads, then all writes, so the
 * write sweep never disturbs the read sweep) and marks spec as a sweep
 * ("qd" or "bs"). */
int dmk_sweep_add(DmkRunSpec *spec, const DmkSweep *s, DmkError *err);

const char *dmk_sweep_name(DmkSweepKind k); /* "qd", "bs" */

#endif
