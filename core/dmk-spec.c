/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-spec.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dmk-size.h"

void dmk_run_spec_init(DmkRunSpec *spec)
{
    memset(spec, 0, sizeof *spec);
    snprintf(spec->dir, sizeof spec->dir, ".");
    spec->size = 1ULL << 30;
    spec->passes = 5;
    spec->measure_s = 5.0;
    spec->warmup_s = 5.0;
    spec->interval_s = 5.0;
    spec->timeline_s = 0.0;
    spec->watchdog_s = 60.0;
    spec->data = DMK_DATA_RANDOM;
    snprintf(spec->profile, sizeof spec->profile, "default");
}

const char *dmk_mode_name(DmkMode m)
{
    switch (m) {
    case DMK_MODE_READ:
        return "read";
    case DMK_MODE_WRITE:
        return "write";
    default:
        return "mix";
    }
}

const char *dmk_pattern_name(DmkPattern p)
{
    return p == DMK_PATTERN_SEQ ? "seq" : "rnd";
}

/* Parses "<digits><K|M|empty>" of a block size in a test name. */
static int parse_name_block(const char **p, uint64_t *bs)
{
    uint64_t v = 0;
    int n = 0;
    while (isdigit((unsigned char)**p) && n < 12) {
        v = v * 10 + (uint64_t)(**p - '0');
        (*p)++;
        n++;
    }
    if (n == 0 || n == 12)
        return -1;
    char u = (char)toupper((unsigned char)**p);
    if (u == 'K' || u == 'M') {
        v <<= (u == 'K' ? 10 : 20);
        (*p)++;
        if (toupper((unsigned char)**p) == 'I' && toupper((unsigned char)(*p)[1]) == 'B')
            *p += 2;
    }
    *bs = v;
    return 0;
}

static int parse_name_uint(const char **p, char letter, uint64_t *out)
{
    if (toupper((unsigned char)**p) != letter)
        return -1;
    (*p)++;
    uint64_t v = 0;
    int n = 0;
    while (isdigit((unsigned char)**p) && n < 9) {
        v = v * 10 + (uint64_t)(**p - '0');
        (*p)++;
        n++;
    }
    if (n == 0 || n == 9)
        return -1;
    *out = v;
    return 0;
}

static int name_error(DmkError *err, const char *name, const char *why)
{
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "test '%s' is invalid: %s (expected e.g. \"SEQ1M Q8T1\" or "
                         "\"RND4K Q32T1\": SEQ or RND, a block size of 512 to 64M, Q1 to Q%d, "
                         "T1 to T%d)",
                         name, why, DMK_QD_MAX, DMK_THREADS_MAX);
}

static bool has_prefix_nocase(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (toupper((unsigned char)*s) != *prefix)
            return false;
    return true;
}

int dmk_job_parse_name(const char *name, DmkJob *job, DmkError *err)
{
    const char *p = name;
    DmkJob j = {0};
    if (has_prefix_nocase(p, "SEQ"))
        j.pattern = DMK_PATTERN_SEQ;
    else if (has_prefix_nocase(p, "RND"))
        j.pattern = DMK_PATTERN_RND;
    else
        return name_error(err, name, "it must start with SEQ or RND");
    p += 3;
    uint64_t bs, qd, th;
    if (parse_name_block(&p, &bs) != 0)
        return name_error(err, name, "no block size");
    while (*p == ' ')
        p++;
    if (parse_name_uint(&p, 'Q', &qd) != 0 || parse_name_uint(&p, 'T', &th) != 0 || *p)
        return name_error(err, name, "no Q<depth>T<threads>");
    if (bs < DMK_BS_MIN || bs > DMK_BS_MAX || (bs & (bs - 1)) != 0)
        return name_error(err, name, "block size out of range or not a power of two");
    if (qd < 1 || qd > DMK_QD_MAX)
        return name_error(err, name, "queue depth out of range");
    if (th < 1 || th > DMK_THREADS_MAX)
        return name_error(err, name, "thread count out of range");
    j.block_size = (uint32_t)bs;
    j.queue_depth = (uint32_t)qd;
    j.threads = (uint32_t)th;
    j.read_share = 100;
    *job = j;
    return DMK_OK;
}

char *dmk_job_format_name(const DmkJob *job, char *buf, size_t len)
{
    char b[16];
    snprintf(buf, len, "%s%s Q%uT%u", job->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND",
             dmk_format_block(job->block_size, b, sizeof b), job->queue_depth, job->threads);
    return buf;
}

int dmk_run_spec_add(DmkRunSpec *spec, const DmkJob *job, DmkMode mode, uint32_t read_share,
                     DmkError *err)
{
    if (spec->n_tests >= DMK_MAX_TESTS)
        return dmk_error_set(err, DMK_E_INVAL, 0, "too many tests (at most %d)", DMK_MAX_TESTS);
    DmkTest *t = &spec->tests[spec->n_tests++];
    memset(t, 0, sizeof *t);
    dmk_job_format_name(job, t->name, sizeof t->name);
    t->mode = mode;
    t->n_jobs = 1;
    t->jobs[0] = *job;
    t->jobs[0].read_share = mode == DMK_MODE_READ ? 100 : mode == DMK_MODE_WRITE ? 0 : read_share;
    return DMK_OK;
}

int dmk_run_spec_add_all(DmkRunSpec *spec, const DmkJob *jobs, size_t n, DmkRunMode run_mode,
                         uint32_t read_share, DmkError *err)
{
    for (size_t i = 0; i < n; i++) {
        int rc = DMK_OK;
        if (run_mode == DMK_RUN_READ_WRITE || run_mode == DMK_RUN_READ)
            rc = dmk_run_spec_add(spec, &jobs[i], DMK_MODE_READ, 100, err);
        if (rc == DMK_OK && (run_mode == DMK_RUN_READ_WRITE || run_mode == DMK_RUN_WRITE))
            rc = dmk_run_spec_add(spec, &jobs[i], DMK_MODE_WRITE, 0, err);
        if (rc == DMK_OK && run_mode == DMK_RUN_MIX)
            rc = dmk_run_spec_add(spec, &jobs[i], DMK_MODE_MIX, read_share, err);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

uint32_t dmk_test_threads(const DmkTest *t)
{
    uint32_t n = 0;
    for (int i = 0; i < t->n_jobs; i++)
        n += t->jobs[i].threads;
    return n;
}

uint64_t dmk_test_inflight(const DmkTest *t)
{
    uint64_t n = 0;
    for (int i = 0; i < t->n_jobs; i++)
        n += (uint64_t)t->jobs[i].threads * t->jobs[i].queue_depth;
    return n;
}

static int validate_job(const DmkRunSpec *spec, const DmkTest *t, const DmkJob *j,
                        uint32_t total_threads, DmkError *err)
{
    char sz[32];
    if (j->block_size < DMK_BS_MIN || j->block_size > DMK_BS_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: block size %u is out of range (512 B to 64 MiB)", t->name,
                             j->block_size);
    if (j->queue_depth < 1 || j->queue_depth > DMK_QD_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: queue depth %u is out of range (1 to %d)",
                             t->name, j->queue_depth, DMK_QD_MAX);
    if (j->threads < 1 || j->threads > DMK_THREADS_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: thread count %u is out of range (1 to %d)",
                             t->name, j->threads, DMK_THREADS_MAX);
    if (j->read_share > 100)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: read share %u %% is out of range (0 to 100)",
                             t->name, j->read_share);
    /* Each thread works on its own slice, which must hold at least one
     * block (a file sized to the free space is checked once opened). */
    uint64_t slice = spec->size / total_threads;
    if (spec->size && j->block_size > slice)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: the block size %u is larger than each thread's share of the "
                             "test file (%s / %u threads); use a larger --size",
                             t->name, j->block_size, dmk_format_size(spec->size, sz, sizeof sz),
                             total_threads);
    return DMK_OK;
}

static int validate_seconds(const char *what, double v, double min, DmkError *err);

/* What a review-lab step adds to a test (dmk-lab.h). */
static int validate_lab_step(const DmkTest *t, size_t index, DmkError *err)
{
    int rc =
        t->measure_s != 0.0 ? validate_seconds("measure time", t->measure_s, 0.1, err) : DMK_OK;
    if (rc == DMK_OK)
        rc = validate_seconds("idle time", t->idle_before_s, 0.0, err);
    if (rc != DMK_OK)
        return rc;
    if (t->rate_iops > DMK_RATE_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: rate %llu IOPS is out of range (1 to %u)",
                             t->name, (unsigned long long)t->rate_iops, DMK_RATE_MAX);
    if (t->rate_ref && (t->rate_ref > index || t->rate_pct < 1 || t->rate_pct > 1000))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: a rate of 1 to 1000 %% of an earlier test's IOPS (test %u of "
                             "%zu before it, %u %%)",
                             t->name, t->rate_ref, index, t->rate_pct);
    if (t->limit_bytes && t->n_jobs != 1)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: a test that ends by bytes has one job",
                             t->name);
    return DMK_OK;
}

static int validate_test(const DmkRunSpec *spec, const DmkTest *t, uint64_t max_inflight,
                         DmkError *err)
{
    if (t->n_jobs < 1 || t->n_jobs > DMK_MAX_JOBS)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: a test has 1 to %d jobs", t->name,
                             DMK_MAX_JOBS);
    uint32_t threads = dmk_test_threads(t);
    if (threads > DMK_THREADS_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s: %u threads in all; at most %d", t->name,
                             threads, DMK_THREADS_MAX);
    uint64_t buffers = 0;
    for (int i = 0; i < t->n_jobs; i++) {
        int rc = validate_job(spec, t, &t->jobs[i], threads, err);
        if (rc != DMK_OK)
            return rc;
        buffers += (uint64_t)t->jobs[i].threads * t->jobs[i].queue_depth * t->jobs[i].block_size;
    }
    uint64_t inflight = dmk_test_inflight(t);
    if (max_inflight && inflight > max_inflight)
        return dmk_error_set(err, DMK_E_LIMIT, 0,
                             "%s: queue depth x threads = %llu exceeds the system's limit of %llu "
                             "in-flight I/Os (/proc/sys/fs/aio-max-nr); lower Q or T, or raise "
                             "the limit with: sysctl fs.aio-max-nr=%llu",
                             t->name, (unsigned long long)inflight,
                             (unsigned long long)max_inflight, (unsigned long long)inflight * 2);
    if (buffers > DMK_BUFFER_BYTES_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: queue depth x threads x block size needs %llu MiB of I/O "
                             "buffers; at most %llu MiB",
                             t->name, (unsigned long long)(buffers >> 20),
                             (unsigned long long)(DMK_BUFFER_BYTES_MAX >> 20));
    return DMK_OK;
}

static int validate_seconds(const char *what, double v, double min, DmkError *err)
{
    if (!(v >= min && v <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s %g s is out of range (%g to %g s)", what, v,
                             min, DMK_SECONDS_MAX);
    return DMK_OK;
}

/* The verify option checks what tests write: a run that writes nothing
 * would verify nothing and say so only by omission. */
static int validate_verify(const DmkRunSpec *spec, DmkError *err)
{
    if (!spec->verify)
        return DMK_OK;
    for (size_t i = 0; i < spec->n_tests; i++)
        for (int j = 0; j < spec->tests[i].n_jobs; j++)
            if (spec->tests[i].jobs[j].read_share < 100)
                return DMK_OK;
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "the verify option checks written data, but no test writes "
                         "(expected a write, rw or mix mode)");
}

int dmk_run_spec_validate(const DmkRunSpec *spec, uint64_t max_inflight, DmkError *err)
{
    char a[32], b[32];
    uint64_t max = spec->lab[0] ? DMK_LAB_SIZE_MAX : DMK_SIZE_MAX;
    /* 0: the free space but a margin, or a whole device (the surface scan). */
    bool free_space = spec->size == 0 && (spec->free_margin > 0 || spec->device);
    if (!free_space && (spec->size < DMK_SIZE_MIN || spec->size > max))
        return dmk_error_set(err, DMK_E_INVAL, 0, "test size %llu is out of range (%s to %s)",
                             (unsigned long long)spec->size, dmk_format_size(DMK_SIZE_MIN, a, 32),
                             dmk_format_size(max, b, 32));
    if (spec->size % (1ULL << 20))
        return dmk_error_set(err, DMK_E_INVAL, 0, "test size %llu is not a whole number of MiB",
                             (unsigned long long)spec->size);
    if (spec->passes < 1 || spec->passes > DMK_PASSES_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "passes %u is out of range (1 to %d)",
                             spec->passes, DMK_PASSES_MAX);
    int rc = validate_seconds("measure time", spec->measure_s, 0.1, err);
    if (rc == DMK_OK)
        rc = validate_seconds("warm-up time", spec->warmup_s, 0.0, err);
    if (rc == DMK_OK)
        rc = validate_seconds("interval", spec->interval_s, 0.0, err);
    if (rc == DMK_OK && spec->timeline_s != 0.0)
        rc = validate_seconds("timeline interval", spec->timeline_s, 0.01, err);
    if (rc == DMK_OK)
        rc = validate_seconds("watchdog time", spec->watchdog_s, 1.0, err);
    if (rc != DMK_OK)
        return rc;
    if (spec->n_tests == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0, "no test to run");
    for (size_t i = 0; i < spec->n_tests; i++) {
        rc = validate_test(spec, &spec->tests[i], max_inflight, err);
        if (rc == DMK_OK)
            rc = validate_lab_step(&spec->tests[i], i, err);
        if (rc != DMK_OK)
            return rc;
    }
    return validate_verify(spec, err);
}

bool dmk_run_spec_writes(const DmkRunSpec *spec)
{
    for (size_t i = 0; i < spec->n_tests; i++) {
        const DmkTest *t = &spec->tests[i];
        if (t->trim_before || t->mode == DMK_MODE_WRITE)
            return true;
        for (int j = 0; t->mode == DMK_MODE_MIX && j < t->n_jobs; j++)
            if (t->jobs[j].read_share < 100)
                return true;
    }
    /* A directory's test file is filled before it is read. */
    return !spec->device && !spec->no_fill && spec->n_tests > 0;
}
