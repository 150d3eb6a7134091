/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-pool.h"

#include <errno.h>
#include <string.h>

#define UNIT_WORDS (DMK_POOL_KEY_UNIT / 8)

/* One whole unit: a fixed trip count over aligned, unaliased words, which
 * GCC and Clang turn into vector loads, XORs and stores at -O2, unrolled
 * 8 times so that the loop's own count and branch add little (AVX2: 2
 * instructions a 32-byte word and 3 a round, ~300 for 4 KiB). */
#define XOR_UNIT_BODY                    \
    d = __builtin_assume_aligned(d, 16); \
    s = __builtin_assume_aligned(s, 16); \
    _Pragma("GCC unroll 8") for (size_t i = 0; i < UNIT_WORDS; i++) d[i] = s[i] ^ key;

static void xor_unit(uint64_t *restrict d, const uint64_t *restrict s, uint64_t key)
{
    XOR_UNIT_BODY
}

#if defined(__GNUC__) && defined(__x86_64__)
/* The same with 32-byte vectors where the CPU has them (every x86-64 since
 * 2013): half the instructions of the SSE2 baseline. */
__attribute__((target("avx2"))) static void xor_unit_avx2(uint64_t *restrict d,
                                                          const uint64_t *restrict s, uint64_t key)
{
    XOR_UNIT_BODY
}

static bool have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#else
#define xor_unit_avx2 xor_unit
static bool have_avx2(void)
{
    return false;
}
#endif

/* A block smaller than a unit (512 B to 2 KiB): one key. */
static void xor_words(uint64_t *restrict d, const uint64_t *restrict s, size_t n, uint64_t key)
{
    for (size_t i = 0; i < n; i++)
        d[i] = s[i] ^ key;
}

int dmk_pool_init(DmkPool *p, DmkDataKind kind, uint64_t test_size, uint32_t max_block,
                  uint32_t align, uint64_t seed, DmkError *err)
{
    uint64_t base = test_size < DMK_POOL_MAX ? test_size : DMK_POOL_MAX;
    p->size = (size_t)(base + max_block);
    p->size = (p->size + align - 1) / align * align;
    p->align = align;
    p->keyed = kind != DMK_DATA_ZERO;
    p->avx2 = have_avx2();
    errno = 0;
    p->data = dmk_aligned_alloc(align < 4096 ? 4096 : align, p->size);
    if (!p->data) /* the OS's reason too (ENOMEM under ulimit -v) */
        return dmk_error_errno(err, errno ? errno : ENOMEM,
                               "allocating the %zu MiB data pool failed", p->size >> 20);
    if (kind == DMK_DATA_ZERO) {
        memset(p->data, 0, p->size);
        return DMK_OK;
    }
    DmkRng rng;
    dmk_rng_seed(&rng, seed);
    uint64_t *w = (uint64_t *)p->data;
    for (size_t i = 0; i < p->size / 8; i++)
        w[i] = dmk_rng_next(&rng);
    return DMK_OK;
}

void dmk_pool_free(DmkPool *p)
{
    dmk_aligned_free(p->data);
    p->data = NULL;
    p->size = 0;
}

void dmk_pool_fill(const DmkPool *p, void *dst, size_t off, uint32_t len, uint64_t x)
{
    const uint64_t *s = (const uint64_t *)(p->data + off);
    uint64_t *d = dst;
    if (!p->keyed) {
        memcpy(dst, s, len);
        return;
    }
    if (len < DMK_POOL_KEY_UNIT) {
        xor_words(d, s, len / 8, dmk_pool_key(x));
        return;
    }
    void (*unit)(uint64_t *restrict, const uint64_t *restrict, uint64_t) =
        p->avx2 ? xor_unit_avx2 : xor_unit;
    for (uint32_t u = 0; u < len / DMK_POOL_KEY_UNIT; u++, x += DMK_POOL_KEY_STEP)
        unit(d + (size_t)u * UNIT_WORDS, s + (size_t)u * UNIT_WORDS, dmk_pool_key(x));
}
