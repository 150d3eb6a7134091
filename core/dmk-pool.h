/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data that writes carry. Random data: one buffer of random bytes
 * made once per run is the source, and each write's own buffer is filled
 * per I/O with a random aligned slice of it XORed with a 64-bit key per
 * 4 KiB of the block (per block when smaller), the keys a splitmix64 mix
 * of a per-worker counter that never repeats. So no two written 4 KiB
 * blocks are alike, and blocks cut from the same pool bytes differ in at
 * least one byte of every 8 (their keys differ), so no byte run repeats
 * an earlier one beyond what chance gives in random bytes: a
 * deduplicating or compressing drive finds nothing to shortcut at any
 * test size or length. The keys, not the pool's size, make the data
 * unique, so the pool is small: the slices a write starts at fit in a
 * core's L2 cache, and filling a 4 KiB write costs ~0.1 us, not the
 * ~0.3-0.9 us of slices missing the cache in a 64 MiB pool.
 * Zeros (DMK_DATA_ZERO) are written straight from the pool, as they are. */
#ifndef DMK_POOL_H
#define DMK_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-platform.h"
#include "dmk-rng.h"

/* Writes start at a random aligned offset in the pool's first this many
 * bytes (or the test size, when smaller). */
#define DMK_POOL_MAX (256ULL << 10)
/* Each this many bytes of a write get their own key. */
#define DMK_POOL_KEY_UNIT 4096u
/* The keys' counter steps by this (splitmix64's odd gamma): the counter
 * visits every 64-bit value once, and the mix is a bijection, so one
 * worker's keys repeat only after 2^64 units. */
#define DMK_POOL_KEY_STEP 0x9e3779b97f4a7c15ULL

typedef struct {
    unsigned char *data;
    size_t size;
    uint32_t align;
    bool keyed; /* random data: writes are the pool XOR their keys (dmk_pool_fill) */
    bool avx2;  /* dmk_pool_fill may use 32-byte vectors */
} DmkPool;

/* A pool big enough for blocks up to max_block: min(DMK_POOL_MAX, test
 * size) plus one block, aligned to `align`. */
int dmk_pool_init(DmkPool *p, DmkDataKind kind, uint64_t test_size, uint32_t max_block,
                  uint32_t align, uint64_t seed, DmkError *err);
void dmk_pool_free(DmkPool *p);

/* The offset of len bytes of the pool at a random `align`-aligned place
 * in its first DMK_POOL_MAX bytes (where small writes stay in the cache
 * even when the pool holds a large block too). */
static inline size_t dmk_pool_pick(const DmkPool *p, uint32_t len, DmkRng *rng)
{
    size_t span = p->size - len < DMK_POOL_MAX ? p->size - len : DMK_POOL_MAX;
    size_t slots = span / p->align + 1;
    size_t slot = slots > UINT32_MAX ? (size_t)(dmk_rng_next(rng) % slots)
                                     : dmk_rng_below(rng, (uint32_t)slots);
    return slot * p->align;
}

/* The key of the unit at counter value x: splitmix64's output mix. */
static inline uint64_t dmk_pool_key(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* How many keys a write of len bytes uses: the counter advances by this
 * times DMK_POOL_KEY_STEP. */
static inline uint32_t dmk_pool_units(uint32_t len)
{
    return len > DMK_POOL_KEY_UNIT ? len / DMK_POOL_KEY_UNIT : 1;
}

/* Fills dst (len bytes, 16-byte aligned, len a multiple of 512) with
 * pool[off, off + len) XOR the keys from counter value x on: unit u's
 * 8-byte words XORed with dmk_pool_key(x + u * DMK_POOL_KEY_STEP). A
 * pool of zeros is copied as it is. */
void dmk_pool_fill(const DmkPool *p, void *dst, size_t off, uint32_t len, uint64_t x);

#endif
