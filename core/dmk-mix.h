/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A mixed job's read-or-write choice: each worker holds the asked read
 * share by construction, not by chance. Private to the core; the worker
 * calls dmk_mix_next once per I/O.
 *
 * Why not a draw per I/O (what this replaced): over a short pass of large
 * blocks the achieved share drifts (72.1 % reads for 70 % asked), and as
 * the runner keeps the best pass, the drift inflates the score of a drive
 * whose writes are slower than its reads (358.6 MB/s for a true 333.3).
 *
 * Why not a plain Bresenham sequence: it repeats a fixed pattern of a
 * few I/Os (R R W R R W R W R W for 70 %), the kind of regularity that a
 * drive's read-ahead or write coalescing may learn. Instead the choice is
 * a bounded random walk: an error accumulator e = 100 x reads - share x
 * I/Os, the choice forced where the other would take |e| to 100 or past
 * it, and otherwise drawn with the asked probability. Hence, after any
 * n I/Os of a worker, its read count is less than one I/O away from
 * n x share / 100 (its floor or its ceiling), while the order stays
 * irregular. The offsets are the job's own (dmk-offsets) whichever the
 * choice: random offsets stay random for both reads and writes.
 *
 * Cost per I/O: a pure read or write job's two compares, as before; a
 * mixed job's two more and an add, and the draw (as before) only while
 * both choices are open. */
#ifndef DMK_MIX_H
#define DMK_MIX_H

#include <stdbool.h>
#include <stdint.h>

#include "dmk-rng.h"

typedef struct {
    int32_t err;       /* 100 x reads - share x I/Os so far, always in (-100, 100) */
    int32_t up, down;  /* a read adds up (100 - share), a write takes down (share) */
    int32_t must_read; /* err <= this: a write would take err to -100 */
    uint32_t share;    /* percent of I/Os that read, 0..100 */
} DmkMix;

static inline void dmk_mix_init(DmkMix *m, uint32_t read_share)
{
    int32_t s = read_share > 100 ? 100 : (int32_t)read_share;
    *m = (DmkMix){0, 100 - s, s, s - 100, (uint32_t)s};
}

/* Whether the next I/O reads. A read is open while err < share (after it
 * err < 100), a write while err > share - 100 (after it err > -100); one
 * of them always is. Share 100 always reads and 0 always writes, with no
 * draw and err left at 0 (exact), in the two compares the choice always
 * took: a pure job's I/O costs what it did. */
static inline bool dmk_mix_next(DmkMix *m, DmkRng *rng)
{
    if (m->share >= 100)
        return true;
    if (m->share == 0)
        return false;
    bool read;
    if (m->err >= m->down)
        read = false;
    else if (m->err <= m->must_read)
        read = true;
    else
        read = dmk_rng_below(rng, 100) < m->share;
    m->err += read ? m->up : -m->down;
    return read;
}

#endif
