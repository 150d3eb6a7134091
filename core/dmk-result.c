/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-result.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-size.h"

#define FIELD(name, dec, title)                     \
    {                                               \
#name, offsetof(DmkStats, name), dec, title \
    }
const DmkStatField dmk_stat_fields[] = {
    FIELD(mb_s, 3, "Speed (MB/s)"),
    FIELD(iops, 2, "IOPS"),
    FIELD(lat_mean_us, 3, "Mean latency (µs)"),
    FIELD(lat_min_us, 3, "Min latency (µs)"),
    FIELD(lat_max_us, 3, "Max latency (µs)"),
    FIELD(lat_stddev_us, 3, "Latency std. dev. (µs)"),
    FIELD(lat_p50_us, 3, "p50 latency (µs)"),
    FIELD(lat_p90_us, 3, "p90 latency (µs)"),
    FIELD(lat_p99_us, 3, "p99 latency (µs)"),
    FIELD(lat_p999_us, 3, "p99.9 latency (µs)"),
    FIELD(lat_p9999_us, 3, "p99.99 latency (µs)"),
};
#undef FIELD
const size_t dmk_stat_field_count = sizeof dmk_stat_fields / sizeof dmk_stat_fields[0];

DmkStats dmk_stats_as_saved(const DmkStats *s)
{
    DmkStats out = *s;
    for (size_t i = 0; i < dmk_stat_field_count; i++) {
        const DmkStatField *f = &dmk_stat_fields[i];
        double scale = pow(10, f->decimals);
        *(double *)((char *)&out + f->offset) = round(dmk_stat_get(s, f) * scale) / scale;
    }
    return out;
}

const char *dmk_data_name(DmkDataKind d)
{
    return d == DMK_DATA_ZERO ? "zero" : "random";
}

void dmk_stats_from_hist(DmkStats *s, const DmkHist *h, uint64_t bytes, double seconds)
{
    memset(s, 0, sizeof *s);
    s->ios = h->count;
    s->bytes = bytes;
    s->seconds = seconds;
    if (seconds > 0) {
        s->mb_s = (double)bytes / seconds / 1e6;
        s->iops = (double)h->count / seconds;
    }
    if (h->count == 0)
        return;
    s->lat_mean_us = dmk_hist_mean(h) / 1e3;
    s->lat_min_us = (double)h->min / 1e3;
    s->lat_max_us = (double)h->max / 1e3;
    s->lat_stddev_us = dmk_hist_stddev(h) / 1e3;
    s->lat_p50_us = (double)dmk_hist_percentile(h, 50.0) / 1e3;
    s->lat_p90_us = (double)dmk_hist_percentile(h, 90.0) / 1e3;
    s->lat_p99_us = (double)dmk_hist_percentile(h, 99.0) / 1e3;
    s->lat_p999_us = (double)dmk_hist_percentile(h, 99.9) / 1e3;
    s->lat_p9999_us = (double)dmk_hist_percentile(h, 99.99) / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double dmk_pass_read_pct(const DmkPassResult *p)
{
    uint64_t ios = p->read.ios + p->write.ios;
    double iops = p->read.iops + p->write.iops, pct;
    if (ios)
        pct = 100.0 * (double)p->read.ios / (double)ios;
    else if (p->read_pct_saved > 0)
        return p->read_pct_saved; /* as saved: already rounded */
    else if (iops > 0)
        pct = 100.0 * p->read.iops / iops; /* 0 saved is 0 IOPS of reads */
    else
        return -1.0;
    double scale = pow(10.0, DMK_SHARE_DECIMALS);
    return nearbyint(pct * scale) / scale;
}

bool dmk_pass_share_differs(const DmkPassResult *p, uint32_t asked)
{
    double got = dmk_pass_read_pct(p);
    /* In thousandths, as the share is kept: 70.100 differs, 70.099 not. */
    long long d = llround(got * 1000.0) - (long long)asked * 1000;
    return got >= 0 && llabs(d) >= llround(DMK_SHARE_SHOW_PCT * 1000.0);
}

const char *dmk_share_note(const DmkPassResult *p, uint32_t asked, char *buf, size_t len)
{
    char pct[32];
    if (len)
        buf[0] = '\0';
    if (dmk_pass_share_differs(p, asked))
        /* TRANSLATORS: a mixed test's read share as measured, a percentage ("71.3"). */
        snprintf(buf, len, DMK_("read %s %% measured"),
                 dmk_format_double(dmk_pass_read_pct(p), 1, pct, sizeof pct));
    return buf;
}

/* Why the best pass is a fair score for a mixed test too (issue 18): the
 * pass's total MB/s is its read and write bytes over its seconds, and a
 * pass with more reads than asked is faster on a drive whose writes are
 * slower. When each I/O drew its direction, the passes' shares drifted
 * (72.1 % reads for 70 % asked in a pass of a few hundred 1 MiB I/Os) and
 * the best pass was the luckiest draw. Now each worker holds the share by
 * construction (dmk-mix.h): a pass is a contiguous run of each worker's
 * sequence, less than 2 I/Os per worker from the asked share, give or
 * take the queue depth at its edges where the drive completes out of
 * order, so the passes differ by what the drive did, as a read or a write
 * test's do, and the best of them is CrystalDiskMark's number as for any
 * tile. The achieved share is kept with every pass (dmk_pass_read_pct)
 * for a reader to check. */
void dmk_test_result_summarize(DmkTestResult *t)
{
    memset(&t->score, 0, sizeof t->score);
    t->best_pass = 0;
    t->mb_s_median = t->mb_s_min = t->mb_s_max = 0.0;
    if (t->n_passes == 0)
        return;
    double sorted[DMK_PASSES_MAX];
    uint32_t clean = 0; /* passes without a pause */
    for (uint32_t i = 0; i < t->n_passes; i++)
        clean += t->passes[i].paused_s <= 0;
    bool first = true;
    for (uint32_t i = 0; i < t->n_passes; i++) {
        sorted[i] = t->passes[i].total.mb_s;
        if (clean && t->passes[i].paused_s > 0)
            continue;
        if (first || sorted[i] > t->passes[t->best_pass].total.mb_s)
            t->best_pass = i;
        first = false;
    }
    qsort(sorted, t->n_passes, sizeof sorted[0], cmp_double);
    uint32_t n = t->n_passes;
    t->mb_s_min = sorted[0];
    t->mb_s_max = sorted[n - 1];
    t->mb_s_median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    t->score = t->passes[t->best_pass];
}

double dmk_test_paused_s(const DmkTestResult *t, uint32_t *pass)
{
    double worst = 0;
    for (uint32_t i = 0; i < t->n_passes; i++) {
        if (t->passes[i].paused_s > worst) {
            worst = t->passes[i].paused_s;
            if (pass)
                *pass = i;
        }
    }
    return worst;
}

void dmk_result_label(const DmkRunResult *r, bool without_path, char *buf, size_t len)
{
    const char *who = r->target.model[0] ? r->target.model : without_path ? "" : r->target.path;
    /* "2026-11-30T06:45:46Z" -> "2026-11-30 06:45": enough to tell runs apart */
    char when[32];
    snprintf(when, sizeof when, "%.16s", r->date);
    if (strlen(when) > 10 && when[10] == 'T')
        when[10] = ' ';
    snprintf(buf, len, "%s%s%s", who, who[0] && when[0] ? ", " : "", when);
}

void dmk_result_area(const DmkRunResult *r, char *buf, size_t len)
{
    char size[32];
    dmk_format_size(r->size, size, sizeof size);
    if (r->target.is_device)
        /* TRANSLATORS: what was tested: %1$s a size ("1 GiB"), %2$s a device ("/dev/sdb");
           it stands inside a sentence ("the 1 GiB region of /dev/sdb fits in ..."). */
        snprintf(buf, len, DMK_("%s region of %s"), size, r->target.path);
    else if (strcmp(r->lab, "files") == 0) /* dmk-lab.h: three sets, no test file */
        /* TRANSLATORS: what was tested, %s a size; it stands inside a sentence. */
        snprintf(buf, len, DMK_("file sets of %s each"), size);
    else
        /* TRANSLATORS: what was tested, %s a size ("1 GiB"); it stands inside a sentence. */
        snprintf(buf, len, DMK_("%s test file"), size);
}

void dmk_run_result_free(DmkRunResult *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_tests; i++) {
        free(r->tests[i].passes);
        free(r->tests[i].samples);
        free(r->tests[i].findings);
    }
    free(r->tests);
    free(r);
}

/* Shown only: the files keep dmk_verify_bad_key's word. */
const char *dmk_verify_bad_name(DmkVerifyBad why)
{
    switch (why) {
    case DMK_VERIFY_OK:
        return "";
    case DMK_VERIFY_NO_HEADER:
        return DMK_("no header of this run (a lost or misdirected write)");
    case DMK_VERIFY_WRONG_OFFSET:
        return DMK_("a block written for another offset (a misdirected write)");
    case DMK_VERIFY_STALE:
        return DMK_("an earlier test's block (a lost write)");
    case DMK_VERIFY_CORRUPT:
        return DMK_("CRC32C mismatch (corrupted data)");
    }
    /* TRANSLATORS: why a block failed the verify, when the reason is not known. */
    return DMK_("unknown");
}

void dmk_run_result_verify(const DmkRunResult *r, DmkVerifyResult *sum)
{
    memset(sum, 0, sizeof *sum);
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkVerifyResult *v = &r->tests[i].verify;
        if (!v->checked)
            continue;
        if (v->bad && !sum->bad) {
            sum->first_bad_block = v->first_bad_block;
            sum->first_bad_byte = v->first_bad_byte;
            sum->first_bad_why = v->first_bad_why;
        }
        sum->checked = true;
        sum->blocks += v->blocks;
        sum->bytes += v->bytes;
        sum->bad += v->bad;
        sum->skipped += v->skipped;
        sum->seconds += v->seconds;
    }
}

static const char *const bad_keys[] = {"", "no_header", "wrong_offset", "stale", "corrupt"};

const char *dmk_verify_bad_key(DmkVerifyBad why)
{
    return (unsigned)why < sizeof bad_keys / sizeof bad_keys[0] ? bad_keys[why] : "";
}

int dmk_verify_bad_from_key(const char *key)
{
    for (size_t i = 1; i < sizeof bad_keys / sizeof bad_keys[0]; i++)
        if (strcmp(key, bad_keys[i]) == 0)
            return (int)i;
    return -1;
}
