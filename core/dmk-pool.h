/* The data that writes carry: one buffer of random bytes made once per run
 * (or zeros when asked). Writes point into it at random aligned offsets
 * instead of copying, so no two consecutive writes carry the same bytes
 * and a deduplicating or compressing drive cannot shortcut them. */
#ifndef DMK_POOL_H
#define DMK_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-platform.h"
#include "dmk-rng.h"

#define DMK_POOL_MAX (64ULL << 20)

typedef struct {
    unsigned char *data;
    size_t size;
    uint32_t align;
} DmkPool;

/* A pool big enough for blocks up to max_block: min(64 MiB, test size)
 * plus one block, aligned to `align`. */
int dmk_pool_init(DmkPool *p, DmkDataKind kind, uint64_t test_size, uint32_t max_block,
                  uint32_t align, uint64_t seed, DmkError *err);
void dmk_pool_free(DmkPool *p);

/* A pointer to len bytes of the pool at a random `align`-aligned offset. */
static inline void *dmk_pool_pick(const DmkPool *p, uint32_t len, DmkRng *rng)
{
    size_t slots = (p->size - len) / p->align + 1;
    size_t slot = slots > UINT32_MAX ? (size_t)(dmk_rng_next(rng) % slots)
                                     : dmk_rng_below(rng, (uint32_t)slots);
    return p->data + slot * p->align;
}

#endif
