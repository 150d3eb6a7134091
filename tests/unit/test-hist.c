/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-hist: log-linear latency histogram against exact statistics. */
#include "dmk-test.h"

#include <stdint.h>

#include "dmk-hist.h"
#include "dmk-rng.h"

#define N_VALUES 200000

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Log-uniform in [lo, hi] from a deterministic generator. */
static void fill_log_uniform(uint64_t *v, size_t n, double lo, double hi, uint64_t seed)
{
    DmkRng r;
    dmk_rng_seed(&r, seed);
    double llo = log(lo), lhi = log(hi);
    for (size_t i = 0; i < n; i++) {
        double u = (double)(dmk_rng_next(&r) >> 11) / 9007199254740992.0; /* [0, 1) */
        v[i] = (uint64_t)exp(llo + u * (lhi - llo));
    }
}

/* The nearest-rank percentile of sorted values: the ceil(p/100 * n)-th. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
    double r = ceil(p / 100.0 * (double)n);
    size_t rank = r < 1.0 ? 1 : (size_t)r;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

static DmkHist *hist_new(void)
{
    DmkHist *h = malloc(sizeof *h);
    dmk_hist_reset(h);
    return h;
}

static void test_percentiles(void)
{
    uint64_t *v = malloc(N_VALUES * sizeof *v);
    fill_log_uniform(v, N_VALUES, 100.0, 100e6, 1);
    DmkHist *h = hist_new();
    for (size_t i = 0; i < N_VALUES; i++)
        dmk_hist_add(h, v[i]);
    qsort(v, N_VALUES, sizeof *v, cmp_u64);

    static const double ps[] = {0, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        double exact = (double)exact_percentile(v, N_VALUES, ps[i]);
        double got = (double)dmk_hist_percentile(h, ps[i]);
        if (fabs(got - exact) > 0.01 * exact)
            printf("# p%g: %.0f, exact %.0f\n", ps[i], got, exact);
        DMK_CHECK_NEAR(got, exact, 0.01 * exact);
    }
    /* bucket values are clamped to the exact min and max */
    DMK_CHECK(dmk_hist_percentile(h, 100) <= v[N_VALUES - 1]);
    DMK_CHECK(dmk_hist_percentile(h, 0) >= v[0]);
    /* percentiles never decrease with p */
    uint64_t prev = 0;
    int monotonic = 1;
    for (double p = 0; p <= 100.0; p += 0.25) {
        uint64_t x = dmk_hist_percentile(h, p);
        if (x < prev)
            monotonic = 0;
        prev = x;
    }
    DMK_CHECK(monotonic);
    free(h);
    free(v);
}

static void test_exact_moments(void)
{
    uint64_t *v = malloc(N_VALUES * sizeof *v);
    fill_log_uniform(v, N_VALUES, 100.0, 100e6, 2);
    DmkHist *h = hist_new();
    uint64_t sum = 0, mn = UINT64_MAX, mx = 0;
    for (size_t i = 0; i < N_VALUES; i++) {
        dmk_hist_add(h, v[i]);
        sum += v[i];
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
    }
    double mean = (double)sum / N_VALUES;
    double ss = 0;
    for (size_t i = 0; i < N_VALUES; i++)
        ss += ((double)v[i] - mean) * ((double)v[i] - mean);
    double sd = sqrt(ss / (N_VALUES - 1));

    DMK_CHECK_INT(h->count, N_VALUES);
    DMK_CHECK(h->sum == sum);
    DMK_CHECK(h->min == mn);
    DMK_CHECK(h->max == mx);
    DMK_CHECK_NEAR(dmk_hist_mean(h), mean, 1e-9 * mean);
    DMK_CHECK_NEAR(dmk_hist_stddev(h), sd, 1e-6 * sd);
    uint64_t total = 0;
    for (unsigned i = 0; i < DMK_HIST_BUCKETS; i++)
        total += h->buckets[i];
    DMK_CHECK_INT(total, N_VALUES);
    free(h);
    free(v);
}

/* Latencies of 1 ms that differ by 1 us (mean / sd = 1000): the variance
 * must not drown in rounding. */
static void test_stddev_narrow(void)
{
    DmkHist *h = hist_new();
    /* 1 ms +- 1 us, alternating: population sd 1 us, sample sd a hair more */
    const int n = 2000000;
    for (int i = 0; i < n; i++)
        dmk_hist_add(h, i % 2 ? 1001000ULL : 999000ULL);
    double expected = 1000.0 * sqrt((double)n / (n - 1));
    DMK_CHECK_NEAR(dmk_hist_mean(h), 1e6, 1e-6);
    DMK_CHECK_NEAR(dmk_hist_stddev(h), expected, 0.01 * expected);
    /* all the same: exactly zero, never NaN from a negative variance */
    dmk_hist_reset(h);
    for (int i = 0; i < 1000; i++)
        dmk_hist_add(h, 123457);
    DMK_CHECK(dmk_hist_stddev(h) == 0.0);
    free(h);
}

static void test_small_values_exact(void)
{
    DmkHist *h = hist_new();
    /* 0..127 each (i + 1) times */
    for (uint64_t x = 0; x < 128; x++) {
        DMK_CHECK_INT(dmk_hist_index(x), x);
        DMK_CHECK_INT(dmk_hist_bucket_value((unsigned)x), x);
        for (uint64_t k = 0; k <= x; k++)
            dmk_hist_add(h, x);
    }
    /* 128..255 are still exact (one value per bucket) */
    for (uint64_t x = 128; x < 256; x++)
        DMK_CHECK_INT(dmk_hist_bucket_value(dmk_hist_index(x)), x);
    /* exact nearest-rank percentiles of that distribution */
    uint64_t count = 128 * 129 / 2;
    DMK_CHECK_INT(h->count, count);
    static const double ps[] = {0.01, 10, 50, 90, 99, 99.9, 100};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        uint64_t rank = (uint64_t)ceil(ps[i] / 100.0 * (double)count);
        uint64_t seen = 0, exact = 0;
        for (uint64_t x = 0; x < 128; x++) {
            seen += x + 1;
            if (seen >= rank) {
                exact = x;
                break;
            }
        }
        DMK_CHECK_INT(dmk_hist_percentile(h, ps[i]), exact);
    }
    DMK_CHECK_INT(h->min, 0);
    DMK_CHECK_INT(h->max, 127);

    /* nearest rank on 1..10, once each: the ceil(p / 10)-th value */
    DmkHist *ten = hist_new();
    for (uint64_t x = 1; x <= 10; x++)
        dmk_hist_add(ten, x);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 0), 1);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 10), 1);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 15), 2);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 50), 5);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 51), 6);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 99), 10);
    DMK_CHECK_INT(dmk_hist_percentile(ten, 100), 10);
    free(ten);

    /* a single value: every percentile is that value */
    DmkHist *one = hist_new();
    dmk_hist_add(one, 123456789);
    DMK_CHECK_INT(dmk_hist_percentile(one, 0), 123456789);
    DMK_CHECK_INT(dmk_hist_percentile(one, 50), 123456789);
    DMK_CHECK_INT(dmk_hist_percentile(one, 99.99), 123456789);
    DMK_CHECK_NEAR(dmk_hist_stddev(one), 0, 0);
    DMK_CHECK_NEAR(dmk_hist_mean(one), 123456789, 0);
    free(one);
    free(h);
}

static void test_merge(void)
{
    uint64_t *v = malloc(N_VALUES * sizeof *v);
    fill_log_uniform(v, N_VALUES, 1.0, 1e10, 3);
    DmkHist *a = hist_new(), *b = hist_new(), *all = hist_new(), *empty = hist_new();
    for (size_t i = 0; i < N_VALUES; i++) {
        dmk_hist_add(all, v[i]);
        dmk_hist_add(i % 3 ? a : b, v[i]);
    }
    dmk_hist_merge(a, b);
    DMK_CHECK_INT(a->count, all->count);
    DMK_CHECK(a->sum == all->sum);
    DMK_CHECK(a->min == all->min);
    DMK_CHECK(a->max == all->max);
    DMK_CHECK_NEAR(a->sum_sq, all->sum_sq, 1e-9 * all->sum_sq);
    long diff = 0;
    for (unsigned i = 0; i < DMK_HIST_BUCKETS; i++)
        if (a->buckets[i] != all->buckets[i])
            diff++;
    DMK_CHECK_INT(diff, 0);
    DMK_CHECK_INT(dmk_hist_percentile(a, 99), dmk_hist_percentile(all, 99));

    /* merging into an empty histogram copies, min included */
    dmk_hist_merge(empty, b);
    DMK_CHECK(empty->min == b->min);
    DMK_CHECK(empty->max == b->max);
    DMK_CHECK_INT(empty->count, b->count);
    /* merging an empty one changes nothing, min included */
    DmkHist *e2 = hist_new();
    uint64_t min_before = b->min;
    dmk_hist_merge(b, e2);
    DMK_CHECK(b->min == min_before);
    free(e2);
    free(a);
    free(b);
    free(all);
    free(empty);
    free(v);
}

static void test_empty(void)
{
    DmkHist *h = hist_new();
    DMK_CHECK_INT(h->count, 0);
    DMK_CHECK_INT(dmk_hist_percentile(h, 0), 0);
    DMK_CHECK_INT(dmk_hist_percentile(h, 50), 0);
    DMK_CHECK_INT(dmk_hist_percentile(h, 99.99), 0);
    DMK_CHECK_INT(dmk_hist_percentile(h, 100), 0);
    DMK_CHECK(dmk_hist_mean(h) == 0.0);
    DMK_CHECK(dmk_hist_stddev(h) == 0.0);
    free(h);
}

static void test_huge_values(void)
{
    DmkHist *h = hist_new();
    const uint64_t huge = (1ULL << 36) + 12345; /* past the last bucketed power */
    const uint64_t huger = 1ULL << 50;
    DMK_CHECK_INT(dmk_hist_index(huge), DMK_HIST_BUCKETS - 1);
    DMK_CHECK_INT(dmk_hist_index(huger), DMK_HIST_BUCKETS - 1);
    DMK_CHECK_INT(dmk_hist_index(UINT64_MAX), DMK_HIST_BUCKETS - 1);
    /* the largest value with its own bucket is just below 2^36 */
    DMK_CHECK_INT(dmk_hist_index((1ULL << 36) - 1), DMK_HIST_BUCKETS - 1);
    DMK_CHECK(dmk_hist_index((1ULL << 35)) < DMK_HIST_BUCKETS - 1);
    dmk_hist_add(h, 1000);
    dmk_hist_add(h, huge);
    dmk_hist_add(h, huger);
    DMK_CHECK_INT(h->buckets[DMK_HIST_BUCKETS - 1], 2);
    DMK_CHECK(h->max == huger);
    DMK_CHECK(h->min == 1000);
    DMK_CHECK(dmk_hist_percentile(h, 100) <= huger);
    DMK_CHECK(dmk_hist_percentile(h, 100) >= (1ULL << 35)); /* in the last bucket's range */
    DMK_CHECK_INT(dmk_hist_percentile(h, 10), dmk_hist_bucket_value(dmk_hist_index(1000)));
    free(h);
}

static void test_bucket_accuracy(void)
{
    DmkRng r;
    dmk_rng_seed(&r, 4);
    long bad = 0;
    double worst = 0;
    /* every value from 0 to 70000, then random ones up to 2^36 */
    for (uint64_t v = 0; v < 70000; v++) {
        double mid = (double)dmk_hist_bucket_value(dmk_hist_index(v));
        double rel = v ? fabs(mid - (double)v) / (double)v : mid;
        if (rel > worst)
            worst = rel;
        if (rel > 0.004)
            bad++;
    }
    for (int i = 0; i < 1000000; i++) {
        uint64_t v = dmk_rng_next(&r) >> (28 + dmk_rng_below(&r, 36));
        if (v == 0 || v >= (1ULL << 36))
            continue;
        double mid = (double)dmk_hist_bucket_value(dmk_hist_index(v));
        double rel = fabs(mid - (double)v) / (double)v;
        if (rel > worst)
            worst = rel;
        if (rel > 0.004)
            bad++;
    }
    if (bad)
        printf("# worst relative error %g\n", worst);
    DMK_CHECK_INT(bad, 0);
    /* indexes grow with values, and bucket values with indexes */
    long unordered = 0;
    for (unsigned i = 1; i < DMK_HIST_BUCKETS; i++)
        if (dmk_hist_bucket_value(i) <= dmk_hist_bucket_value(i - 1))
            unordered++;
    DMK_CHECK_INT(unordered, 0);
    /* each bucket's value lies in that bucket */
    long misplaced = 0;
    for (unsigned i = 0; i < DMK_HIST_BUCKETS; i++)
        if (dmk_hist_index(dmk_hist_bucket_value(i)) != i)
            misplaced++;
    DMK_CHECK_INT(misplaced, 0);
}

int main(void)
{
    DMK_TEST(test_percentiles);
    DMK_TEST(test_exact_moments);
    DMK_TEST(test_stddev_narrow);
    DMK_TEST(test_small_values_exact);
    DMK_TEST(test_merge);
    DMK_TEST(test_empty);
    DMK_TEST(test_huge_values);
    DMK_TEST(test_bucket_accuracy);
    return dmk_test_done();
}
