/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-mix: a mixed job's read-or-write choice holds the asked share by
 * construction (every prefix less than one I/O from exact, for every
 * share and every worker), without falling into a short fixed pattern,
 * and never draws for a pure read or write job. Pure computation: no
 * clock, no threads. */
#include "dmk-test.h"

#include <stdbool.h>
#include <stdint.h>

#include "dmk-mix.h"

#define N_IOS     5000
#define N_WORKERS 8

/* Every prefix of every worker's sequence, for shares 0..100: 100 x reads
 * - share x I/Os stays strictly between -100 and 100, so the read count
 * is the floor or the ceiling of n x share / 100. The workers together
 * (each with its own seed, as the runner seeds them) are then less than
 * one I/O per worker from exact. */
static void test_every_prefix(void)
{
    int bad = 0, bad_sum = 0;
    for (uint32_t share = 0; share <= 100; share++) {
        DmkMix mix[N_WORKERS];
        DmkRng rng[N_WORKERS];
        uint64_t reads[N_WORKERS] = {0};
        for (int w = 0; w < N_WORKERS; w++) {
            dmk_mix_init(&mix[w], share);
            dmk_rng_seed(&rng[w], 0x1234 + (uint64_t)w * 77 + share);
        }
        for (int64_t n = 1; n <= N_IOS; n++) {
            int64_t all = 0;
            for (int w = 0; w < N_WORKERS; w++) {
                reads[w] += dmk_mix_next(&mix[w], &rng[w]);
                int64_t e = 100 * (int64_t)reads[w] - (int64_t)share * n;
                bad += e <= -100 || e >= 100;
                bad += e != mix[w].err; /* the accumulator is the error */
                all += e;
            }
            bad_sum += all <= -100 * N_WORKERS || all >= 100 * N_WORKERS;
        }
    }
    DMK_CHECK_INT(bad, 0);
    DMK_CHECK_INT(bad_sum, 0);
}

/* Any window of m consecutive I/Os (a pass, which starts after a warm-up
 * and sees up to the queue depth in flight at each edge) holds within
 * 2 I/Os of m x share / 100: the difference of two prefixes. */
static void test_windows(void)
{
    static bool seq[N_IOS];
    static const uint32_t shares[] = {1, 10, 33, 50, 65, 70, 99};
    int bad = 0;
    for (size_t k = 0; k < sizeof shares / sizeof shares[0]; k++) {
        DmkMix m;
        DmkRng r;
        dmk_mix_init(&m, shares[k]);
        dmk_rng_seed(&r, 42 + k);
        for (int i = 0; i < N_IOS; i++)
            seq[i] = dmk_mix_next(&m, &r);
        for (int start = 0; start < N_IOS; start += 97) {
            int64_t reads = 0;
            for (int64_t len = 1; start + len <= N_IOS; len++) {
                reads += seq[start + len - 1];
                int64_t e = 100 * reads - (int64_t)shares[k] * len;
                bad += e <= -200 || e >= 200;
            }
        }
    }
    DMK_CHECK_INT(bad, 0);
}

/* Share 0 and 100 never draw (the job's generator, which also picks the
 * pool's slices, goes on as before) and never choose the other way. */
static void test_pure_jobs_do_not_draw(void)
{
    for (uint32_t share = 0; share <= 100; share += 100) {
        DmkMix m;
        DmkRng r, before;
        dmk_mix_init(&m, share);
        dmk_rng_seed(&r, 7);
        before = r;
        int wrong = 0;
        for (int i = 0; i < 1000; i++)
            wrong += dmk_mix_next(&m, &r) != (share == 100);
        DMK_CHECK_INT(wrong, 0);
        DMK_CHECK(memcmp(&r, &before, sizeof r) == 0);
        DMK_CHECK_INT(m.err, 0);
    }
    /* a share over 100 (never valid in a spec) reads, as before */
    DmkMix m;
    DmkRng r;
    dmk_mix_init(&m, 250);
    dmk_rng_seed(&r, 7);
    DMK_CHECK(dmk_mix_next(&m, &r));
}

/* Not a short fixed pattern: a Bresenham sequence at 70 % shows 10
 * distinct 16-I/O windows (its period's rotations), at 50 % two; this
 * one shows many, and two workers' sequences differ. */
static void test_irregular(void)
{
    static const uint32_t shares[] = {50, 70, 90};
    for (size_t k = 0; k < sizeof shares / sizeof shares[0]; k++) {
        DmkMix m, m2;
        DmkRng r, r2;
        dmk_mix_init(&m, shares[k]);
        dmk_mix_init(&m2, shares[k]);
        dmk_rng_seed(&r, 1);
        dmk_rng_seed(&r2, 2);
        static bool seen[1 << 16];
        memset(seen, 0, sizeof seen);
        uint32_t window = 0, distinct = 0, differ = 0;
        for (int i = 0; i < 20000; i++) {
            bool a = dmk_mix_next(&m, &r), b = dmk_mix_next(&m2, &r2);
            differ += a != b;
            window = ((window << 1) | a) & 0xffff;
            if (i >= 15 && !seen[window]) {
                seen[window] = true;
                distinct++;
            }
        }
        printf("# share %u: %u distinct 16-I/O windows, %u of 20000 choices differ between "
               "two workers\n",
               shares[k], distinct, differ);
        DMK_CHECK(distinct >= 50);
        DMK_CHECK(differ >= 1000);
    }
}

int main(void)
{
    DMK_TEST(test_every_prefix);
    DMK_TEST(test_windows);
    DMK_TEST(test_pure_jobs_do_not_draw);
    DMK_TEST(test_irregular);
    return dmk_test_done();
}
