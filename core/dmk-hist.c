/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-hist.h"

#include <math.h>
#include <string.h>

void dmk_hist_reset(DmkHist *h)
{
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

uint64_t dmk_hist_bucket_value(unsigned index)
{
    if (index < DMK_HIST_SUB)
        return index;
    unsigned group = index / DMK_HIST_SUB;
    unsigned sub = index % DMK_HIST_SUB;
    unsigned shift = group - 1;
    uint64_t lo = (uint64_t)(DMK_HIST_SUB + sub) << shift;
    uint64_t width = 1ULL << shift;
    return lo + (width - 1) / 2;
}

void dmk_hist_merge(DmkHist *into, const DmkHist *from)
{
    if (from->count == 0)
        return;
    into->count += from->count;
    into->sum += from->sum;
    into->sum_sq += from->sum_sq;
    if (from->min < into->min)
        into->min = from->min;
    if (from->max > into->max)
        into->max = from->max;
    for (unsigned i = 0; i < DMK_HIST_BUCKETS; i++)
        into->buckets[i] += from->buckets[i];
}

uint64_t dmk_hist_percentile(const DmkHist *h, double p)
{
    if (h->count == 0)
        return 0;
    /* rank of the sample at percentile p, 1-based (nearest-rank method) */
    double r = ceil(p / 100.0 * (double)h->count);
    uint64_t rank = r < 1.0 ? 1 : (uint64_t)r;
    if (rank > h->count)
        rank = h->count;
    uint64_t seen = 0;
    for (unsigned i = 0; i < DMK_HIST_BUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank) {
            uint64_t v = dmk_hist_bucket_value(i);
            if (v < h->min)
                v = h->min;
            if (v > h->max)
                v = h->max;
            return v;
        }
    }
    return h->max;
}

double dmk_hist_mean(const DmkHist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double dmk_hist_stddev(const DmkHist *h)
{
    if (h->count < 2)
        return 0.0;
    double n = (double)h->count;
    double mean = (double)h->sum / n;
    double var = (h->sum_sq - n * mean * mean) / (n - 1.0);
    return var > 0.0 ? sqrt(var) : 0.0;
}
