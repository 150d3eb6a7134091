/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Latency histogram with log-linear buckets (the layout fio and
 * HdrHistogram use): values below 128 ns are exact, above that each power
 * of two is split into 128 equal buckets, so a bucket's midpoint is within
 * 0.4 % of any value in it. On the I/O path integers but for one double
 * multiply-add (the sum of squares, for the standard deviation), mergeable
 * by adding counts, bounded in size (about 31 KiB). Values in nanoseconds. */
#ifndef DMK_HIST_H
#define DMK_HIST_H

#include <stddef.h>
#include <stdint.h>

#define DMK_HIST_SUB_BITS 7
#define DMK_HIST_SUB      (1u << DMK_HIST_SUB_BITS)
/* Largest bucketed value 2^36 ns (68.7 s); larger ones count in the last
 * bucket, and max still records them exactly. */
#define DMK_HIST_MAX_BITS 36
#define DMK_HIST_BUCKETS  ((DMK_HIST_MAX_BITS - DMK_HIST_SUB_BITS + 1) * DMK_HIST_SUB)

typedef struct {
    uint64_t count;
    uint64_t sum;  /* ns */
    double sum_sq; /* ns^2, for the standard deviation */
    uint64_t min, max;
    uint64_t buckets[DMK_HIST_BUCKETS];
} DmkHist;

void dmk_hist_reset(DmkHist *h);

static inline unsigned dmk_hist_index(uint64_t v)
{
    if (v < DMK_HIST_SUB)
        return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    if (msb >= DMK_HIST_MAX_BITS)
        return DMK_HIST_BUCKETS - 1;
    unsigned group = msb - DMK_HIST_SUB_BITS + 1;
    unsigned sub = (unsigned)(v >> (msb - DMK_HIST_SUB_BITS)) & (DMK_HIST_SUB - 1);
    return group * DMK_HIST_SUB + sub;
}

static inline void dmk_hist_add(DmkHist *h, uint64_t v)
{
    h->buckets[dmk_hist_index(v)]++;
    h->count++;
    h->sum += v;
    h->sum_sq += (double)v * (double)v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

/* The value a bucket reports: its midpoint. */
uint64_t dmk_hist_bucket_value(unsigned index);

void dmk_hist_merge(DmkHist *into, const DmkHist *from);

/* Percentile p in [0, 100]: the smallest bucket value at or above which
 * fewer than (100 - p) % of samples lie, clamped to [min, max]. 0 when
 * empty. */
uint64_t dmk_hist_percentile(const DmkHist *h, double p);

double dmk_hist_mean(const DmkHist *h);
double dmk_hist_stddev(const DmkHist *h);

#endif
