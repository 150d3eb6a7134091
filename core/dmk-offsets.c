/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-offsets.h"

#include "dmk-rng.h"

void dmk_offsets_init(DmkOffsets *o, DmkPattern pattern, uint64_t base, uint64_t span,
                      uint32_t block, uint64_t seed)
{
    o->pattern = pattern;
    o->base = base;
    o->block = block;
    o->n_blocks = span / block;
    if (o->n_blocks == 0)
        o->n_blocks = 1;
    o->bits = 1;
    while (o->bits < 64 && (1ULL << o->bits) < o->n_blocks)
        o->bits++;
    o->mask = o->bits == 64 ? ~0ULL : (1ULL << o->bits) - 1;
    o->shift = (o->bits + 1) / 2;
    uint64_t s = seed;
    o->k0 = dmk_splitmix64(&s) & o->mask;
    o->k1 = dmk_splitmix64(&s) & o->mask;
    o->m1 = dmk_splitmix64(&s) | 1; /* odd multipliers are invertible mod 2^bits */
    o->m2 = dmk_splitmix64(&s) | 1;
    o->counter = pattern == DMK_PATTERN_RND ? (dmk_splitmix64(&s) & o->mask) : 0;
}
