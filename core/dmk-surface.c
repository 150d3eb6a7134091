/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-surface.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-error.h"

uint64_t dmk_surface_sample_len(uint64_t size, uint64_t sample, uint64_t align)
{
    if (!align)
        align = 512;
    uint64_t whole = size / align * align;
    return sample < whole ? sample : whole;
}

uint64_t dmk_surface_offset(uint64_t size, uint64_t sample, uint64_t align, uint32_t i, uint32_t n)
{
    if (!align)
        align = 512;
    uint64_t len = dmk_surface_sample_len(size, sample, align);
    uint64_t whole = size / align * align;
    /* The last place a whole sample starts, aligned down so it still
     * fits: the samples run from the first byte to (almost) the last. */
    uint64_t last = (whole - len) / align * align;
    if (n < 2 || i == 0)
        return 0;
    if (i >= n - 1)
        return last;
    /* i * last / (n - 1) without overflowing: last < 2^50, n <= 2^16 is
     * safe as one product, but split anyway for any size. */
    uint64_t d = n - 1;
    uint64_t at = last / d * i + last % d * i / d;
    return at / align * align;
}

static int by_offset(const void *a, const void *b)
{
    const DmkSurfacePoint *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Mean, least and most of the points' values; NaN for none. */
static void stats(const DmkSurfacePoint *p, size_t n, double *avg, double *lo, double *hi)
{
    double sum = 0;
    *lo = *hi = *avg = NAN;
    for (size_t i = 0; i < n; i++) {
        sum += p[i].value;
        if (i == 0 || p[i].value < *lo)
            *lo = p[i].value;
        if (i == 0 || p[i].value > *hi)
            *hi = p[i].value;
    }
    if (n)
        *avg = sum / (double)n;
}

static bool is(const DmkTestResult *t, const char *label)
{
    return strcmp(t->test.label, label) == 0;
}

int dmk_surface_of(const DmkRunResult *r, DmkSurface *out)
{
    memset(out, 0, sizeof *out);
    size_t ns = 0, na = 0;
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        if (is(t, "sample") && t->n_passes)
            ns++;
        else if (is(t, "access"))
            na += t->n_samples;
    }
    out->samples = ns ? calloc(ns, sizeof *out->samples) : NULL;
    out->accesses = na ? calloc(na, sizeof *out->accesses) : NULL;
    if ((ns && !out->samples) || (na && !out->accesses)) {
        dmk_surface_free(out);
        return DMK_E_NOMEM;
    }
    double far = 0;
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        if (is(t, "sample") && t->n_passes) {
            double at = (double)t->test.region_offset, len = (double)t->test.jobs[0].block_size;
            out->samples[out->n_samples++] = (DmkSurfacePoint){at, t->score.total.mb_s};
            out->sample_bytes = len > out->sample_bytes ? len : out->sample_bytes;
            far = fmax(far, at + len);
        } else if (is(t, "access")) {
            for (size_t k = 0; k < t->n_samples; k++) {
                const DmkSample *s = &t->samples[k];
                out->accesses[out->n_accesses++] =
                    (DmkSurfacePoint){s->offset, s->lat_mean_us / 1e3};
                far = fmax(far, s->offset + (double)t->test.jobs[0].block_size);
            }
        }
    }
    if (out->n_samples)
        qsort(out->samples, out->n_samples, sizeof *out->samples, by_offset);
    stats(out->samples, out->n_samples, &out->rate_avg, &out->rate_min, &out->rate_max);
    stats(out->accesses, out->n_accesses, &out->access_avg_ms, &out->access_min_ms,
          &out->access_max_ms);
    /* A device's size as its target says, else (a null run) what was read. */
    uint64_t cap = r->target.test_size ? r->target.test_size : r->target.capacity_bytes;
    out->capacity = cap && (double)cap >= far ? (double)cap : far;
    return DMK_OK;
}

void dmk_surface_free(DmkSurface *s)
{
    free(s->samples);
    free(s->accesses);
    s->samples = s->accesses = NULL;
    s->n_samples = s->n_accesses = 0;
}
