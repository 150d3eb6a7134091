/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Small fast PRNG for the I/O path: xoshiro256** seeded by splitmix64
 * (algorithms by Blackman and Vigna, public domain; written from their
 * description). Not for anything secret; it picks offsets and data. */
#ifndef DMK_RNG_H
#define DMK_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} DmkRng;

static inline uint64_t dmk_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void dmk_rng_seed(DmkRng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = dmk_splitmix64(&seed);
}

static inline uint64_t dmk_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t dmk_rng_next(DmkRng *r)
{
    uint64_t *s = r->s;
    uint64_t result = dmk_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = dmk_rotl64(s[3], 45);
    return result;
}

/* Uniform in [0, n) without modulo bias worth caring about for n < 2^32:
 * the high 32 bits times n (Lemire's multiply-shift). */
static inline uint32_t dmk_rng_below(DmkRng *r, uint32_t n)
{
    return (uint32_t)(((dmk_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#endif
