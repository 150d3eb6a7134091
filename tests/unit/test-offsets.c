/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-offsets: random order visits every block once per cycle; sequential
 * walks and wraps; the permutation is a bijection. */
#include "dmk-test.h"

#include <stdint.h>

#include "dmk-offsets.h"

static const uint64_t block_counts[] = {1, 2, 3, 7, 64, 1000, 4097, 262144};
#define N_COUNTS (sizeof block_counts / sizeof block_counts[0])

/* Takes n offsets and checks that they hit each of the n blocks once.
 * Returns the number of problems found (0 = a perfect cycle). */
static long one_cycle(DmkOffsets *o, uint64_t base, uint32_t block, uint64_t n, unsigned char *seen)
{
    long bad = 0;
    memset(seen, 0, (size_t)n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = dmk_offsets_next(o);
        if (off < base || off >= base + n * block || (off - base) % block) {
            bad++;
            continue;
        }
        uint64_t k = (off - base) / block;
        if (seen[k])
            bad++; /* twice */
        seen[k] = 1;
    }
    for (uint64_t k = 0; k < n; k++)
        if (!seen[k])
            bad++; /* never */
    return bad;
}

static void test_random_covers(void)
{
    unsigned char *seen = malloc(262144);
    for (size_t c = 0; c < N_COUNTS; c++) {
        uint64_t n = block_counts[c];
        for (uint64_t seed = 1; seed <= 3; seed++) {
            const uint32_t bs = 4096;
            const uint64_t base = 7 * 1048576ULL;
            DmkOffsets o;
            dmk_offsets_init(&o, DMK_PATTERN_RND, base, n * bs, bs, seed * 0x1234567ULL);
            DMK_CHECK_INT(o.n_blocks, n);
            /* 2^bits is the smallest power of two >= n (at least 2) */
            DMK_CHECK((1ULL << o.bits) >= n);
            DMK_CHECK(o.bits == 1 || (1ULL << (o.bits - 1)) < n);
            for (int cycle = 0; cycle < 3; cycle++) {
                long bad = one_cycle(&o, base, bs, n, seen);
                if (bad)
                    printf("# n_blocks %llu seed %llu cycle %d: %ld misses\n",
                           (unsigned long long)n, (unsigned long long)seed, cycle, bad);
                DMK_CHECK_INT(bad, 0);
            }
        }
    }
    free(seen);
}

/* A span that is not a whole number of blocks: the tail is never used. */
static void test_random_partial_block(void)
{
    unsigned char seen[10];
    DmkOffsets o;
    dmk_offsets_init(&o, DMK_PATTERN_RND, 4096, 10 * 512 + 100, 512, 99);
    DMK_CHECK_INT(o.n_blocks, 10);
    DMK_CHECK_INT(one_cycle(&o, 4096, 512, 10, seen), 0);
    DMK_CHECK_INT(one_cycle(&o, 4096, 512, 10, seen), 0);
}

static void test_random_seeds_differ(void)
{
    const uint64_t n = 1000;
    uint64_t a[1000], b[1000];
    DmkOffsets o1, o2, o3;
    dmk_offsets_init(&o1, DMK_PATTERN_RND, 0, n * 4096, 4096, 1);
    dmk_offsets_init(&o2, DMK_PATTERN_RND, 0, n * 4096, 4096, 2);
    dmk_offsets_init(&o3, DMK_PATTERN_RND, 0, n * 4096, 4096, 1);
    size_t same = 0, same_seed_equal = 1;
    for (uint64_t i = 0; i < n; i++) {
        a[i] = dmk_offsets_next(&o1);
        b[i] = dmk_offsets_next(&o2);
        if (a[i] == b[i])
            same++;
        if (dmk_offsets_next(&o3) != a[i])
            same_seed_equal = 0;
    }
    /* different seeds: different orders (two random permutations of 1000
     * agree at about one position) */
    DMK_CHECK(same < 20);
    /* the same seed: the same order */
    DMK_CHECK(same_seed_equal);
    /* and random is not sequential: few steps go to the next block */
    size_t ascending = 0;
    for (uint64_t i = 1; i < n; i++)
        if (a[i] == a[i - 1] + 4096)
            ascending++;
    DMK_CHECK(ascending < 50);
}

static void test_sequential(void)
{
    for (size_t c = 0; c < N_COUNTS; c++) {
        uint64_t n = block_counts[c];
        const uint64_t base = 1ULL << 30;
        const uint32_t bs = 1u << 20;
        DmkOffsets o;
        dmk_offsets_init(&o, DMK_PATTERN_SEQ, base, n * bs, bs, 42);
        DMK_CHECK_INT(o.n_blocks, n);
        long bad = 0;
        for (int cycle = 0; cycle < 2; cycle++)
            for (uint64_t k = 0; k < n; k++)
                if (dmk_offsets_next(&o) != base + k * bs)
                    bad++;
        DMK_CHECK_INT(bad, 0);
        DMK_CHECK(dmk_offsets_next(&o) == base); /* wraps again */
    }
    /* the seed does not change sequential order */
    DmkOffsets o;
    dmk_offsets_init(&o, DMK_PATTERN_SEQ, 512, 3 * 512, 512, 0xdeadbeef);
    DMK_CHECK_INT(dmk_offsets_next(&o), 512);
    DMK_CHECK_INT(dmk_offsets_next(&o), 1024);
    DMK_CHECK_INT(dmk_offsets_next(&o), 1536);
    DMK_CHECK_INT(dmk_offsets_next(&o), 512);
}

/* A slice smaller than a block still has one block. */
static void test_tiny_span(void)
{
    DmkOffsets o;
    dmk_offsets_init(&o, DMK_PATTERN_SEQ, 8192, 100, 4096, 1);
    DMK_CHECK_INT(o.n_blocks, 1);
    DMK_CHECK_INT(dmk_offsets_next(&o), 8192);
    DMK_CHECK_INT(dmk_offsets_next(&o), 8192);
    dmk_offsets_init(&o, DMK_PATTERN_RND, 8192, 100, 4096, 1);
    DMK_CHECK_INT(o.n_blocks, 1);
    for (int i = 0; i < 5; i++)
        DMK_CHECK_INT(dmk_offsets_next(&o), 8192);
}

static void check_bijection(uint64_t n_blocks, unsigned expected_bits, uint64_t seed)
{
    DmkOffsets o;
    dmk_offsets_init(&o, DMK_PATTERN_RND, 0, n_blocks * 512, 512, seed);
    DMK_CHECK_INT(o.bits, expected_bits);
    uint64_t size = 1ULL << o.bits;
    DMK_CHECK(o.mask == size - 1);
    unsigned char *hit = calloc((size_t)size, 1);
    long out_of_range = 0, dup = 0;
    for (uint64_t x = 0; x < size; x++) {
        uint64_t y = dmk_offsets_permute(&o, x);
        if (y >= size) {
            out_of_range++;
            continue;
        }
        if (hit[y])
            dup++;
        hit[y] = 1;
    }
    size_t distinct = 0;
    for (uint64_t y = 0; y < size; y++)
        distinct += hit[y];
    DMK_CHECK_INT(out_of_range, 0);
    DMK_CHECK_INT(dup, 0);
    DMK_CHECK_INT(distinct, size);
    free(hit);
}

static void test_permute_bijection(void)
{
    check_bijection(1000, 10, 1);
    check_bijection(1000, 10, 0xfeedfacecafebeefULL);
    check_bijection(1024, 10, 5);
    check_bijection(1025, 11, 5);
    check_bijection(1, 1, 3);
    check_bijection(2, 1, 3);
    check_bijection(3, 2, 3);
    check_bijection(7, 3, 3);
    check_bijection(65536, 16, 77);
    check_bijection(1u << 20, 20, 123);
}

int main(void)
{
    DMK_TEST(test_random_covers);
    DMK_TEST(test_random_partial_block);
    DMK_TEST(test_random_seeds_differ);
    DMK_TEST(test_sequential);
    DMK_TEST(test_tiny_span);
    DMK_TEST(test_permute_bijection);
    return dmk_test_done();
}
