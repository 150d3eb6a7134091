/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where each I/O of one worker goes. Every worker owns a slice of the test
 * file, so threads never share offsets. Sequential walks the slice and
 * wraps; random visits every block-aligned offset of the slice exactly
 * once per cycle, in an order that a per-run seed scrambles (a keyed
 * permutation with cycle walking, which covers like a maximal LFSR but
 * needs no table of taps and works for any block count). */
#ifndef DMK_OFFSETS_H
#define DMK_OFFSETS_H

#include <stdint.h>

#include "dmk-spec.h"

typedef struct {
    DmkPattern pattern;
    uint64_t base;     /* first byte of the slice */
    uint64_t n_blocks; /* whole blocks in the slice */
    uint32_t block;
    uint64_t counter; /* seq: next block; rnd: permutation input */
    /* permutation of [0, 2^bits) */
    unsigned bits, shift;
    uint64_t mask, k0, k1, m1, m2;
} DmkOffsets;

/* A worker's slice [base, base + span) cut into `block`-sized blocks. */
void dmk_offsets_init(DmkOffsets *o, DmkPattern pattern, uint64_t base, uint64_t span,
                      uint32_t block, uint64_t seed);

/* The next offset in bytes. */
static inline uint64_t dmk_offsets_next(DmkOffsets *o);

/* The bijection of [0, 2^bits) behind random order; exposed for tests. */
static inline uint64_t dmk_offsets_permute(const DmkOffsets *o, uint64_t x)
{
    x = (x + o->k0) & o->mask;
    x ^= x >> o->shift;
    x = (x * o->m1) & o->mask;
    x ^= x >> o->shift;
    x = (x * o->m2) & o->mask;
    x ^= x >> o->shift;
    return x ^ o->k1;
}

static inline uint64_t dmk_offsets_next(DmkOffsets *o)
{
    uint64_t block;
    if (o->pattern == DMK_PATTERN_SEQ) {
        block = o->counter;
        o->counter = o->counter + 1 == o->n_blocks ? 0 : o->counter + 1;
    } else {
        /* Cycle walking: skip permuted values past the slice; fewer than
         * two steps on average since 2^bits < 2 * n_blocks. */
        do {
            block = dmk_offsets_permute(o, o->counter);
            o->counter = (o->counter + 1) & o->mask;
        } while (block >= o->n_blocks);
    }
    return o->base + block * o->block;
}

#endif
