#include "dmk-runner.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-pool.h"
#include "dmk-size.h"
#include "dmk-version.h"
#include "dmk-worker.h"

/* The fill writes the whole test file once, in large sequential blocks. */
#define FILL_BLOCK (1u << 20)
#define FILL_DEPTH 8
/* How often the caller hears of progress and the runner looks at the stop flag. */
#define POLL_NS 100000000ULL

struct DmkRunner {
    const DmkRunSpec *spec;
    const DmkBackend *be;
    atomic_int stop;
    uint64_t seed;
    DmkTarget *target;
    DmkTargetInfo info;
    DmkPool pool;
    const DmkRunCallbacks *cb;
    uint64_t t_start;
    double planned_s;  /* warm-up, passes and intervals of all tests */
    double finished_s; /* of planned_s, the part behind us */
    double current_s;  /* of planned_s, the part of the test or interval under way */
};

DmkRunner *dmk_runner_new(const DmkRunSpec *spec, const DmkBackend *backend)
{
    DmkRunner *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->spec = spec;
    r->be = backend;
    atomic_init(&r->stop, 0);
    return r;
}

void dmk_runner_stop(DmkRunner *r)
{
    atomic_store(&r->stop, 1);
}

void dmk_runner_free(DmkRunner *r)
{
    free(r);
}

static double secs(uint64_t ns)
{
    return (double)ns / 1e9;
}

static uint64_t to_ns(double s)
{
    return (uint64_t)(s * 1e9 + 0.5);
}

static double test_planned_s(const DmkRunSpec *s)
{
    return s->warmup_s + s->measure_s * s->passes;
}

static void emit(DmkRunner *r, DmkProgress *p)
{
    if (!r->cb || !r->cb->progress)
        return;
    p->n_tests = r->spec->n_tests;
    p->passes = r->spec->passes;
    p->elapsed_s = secs(dmk_clock_ns() - r->t_start);
    p->remaining_s = r->planned_s - r->finished_s - r->current_s;
    if (p->remaining_s < 0)
        p->remaining_s = 0;
    r->cb->progress(p, r->cb->user_data);
}

/* ---- workers ----------------------------------------------------------- */

typedef struct {
    DmkWorker *w;
    uint32_t n;
} DmkCrew;

static void crew_destroy(DmkCrew *c)
{
    for (uint32_t i = 0; i < c->n; i++)
        dmk_worker_destroy(&c->w[i]);
    free(c->w);
    c->w = NULL;
    c->n = 0;
}

/* One worker per thread of each job; each gets its own slice of the file,
 * aligned so every offset stays aligned for direct I/O. */
static int crew_init(DmkRunner *r, DmkCrew *c, const DmkTest *t, const DmkSchedule *sched,
                     uint64_t seed, DmkError *err)
{
    uint32_t total = dmk_test_threads(t);
    c->w = calloc(total, sizeof *c->w);
    c->n = 0;
    if (!c->w)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for %u workers", total);
    uint64_t align = r->info.offset_align ? r->info.offset_align : 512;
    uint64_t slice = r->spec->size / total / align * align;
    for (int j = 0; j < t->n_jobs; j++) {
        for (uint32_t k = 0; k < t->jobs[j].threads; k++) {
            uint64_t wseed = seed + 0x9e3779b97f4a7c15ULL * (c->n + 1);
            int rc =
                dmk_worker_init(&c->w[c->n], r->be, r->target, &t->jobs[j], &r->pool, slice * c->n,
                                slice, wseed, sched, &r->stop, r->spec->dir, err);
            c->n++;
            if (rc != DMK_OK) {
                crew_destroy(c);
                return rc;
            }
        }
    }
    return DMK_OK;
}

static void worker_entry(void *arg)
{
    dmk_worker_run(arg);
}

static uint64_t crew_live_bytes(const DmkCrew *c)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < c->n; i++)
        sum += atomic_load_explicit(&c->w[i].live_bytes, memory_order_relaxed);
    return sum;
}

static bool crew_running(const DmkCrew *c)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (!atomic_load(&c->w[i].finished))
            return true;
    return false;
}

/* What the poll loop reports while a crew runs. */
typedef void (*DmkStageFn)(DmkRunner *r, const DmkCrew *c, uint64_t now, DmkProgress *p, void *ctx);

/* Starts the crew's threads, reports progress until all finish, joins
 * them and returns the first worker error. */
static int crew_run(DmkRunner *r, DmkCrew *c, DmkStageFn stage, void *ctx, DmkError *err)
{
    uint32_t started = 0;
    int rc = DMK_OK;
    for (; started < c->n; started++) {
        rc = dmk_thread_start(&c->w[started].thread, worker_entry, &c->w[started], err);
        if (rc != DMK_OK) {
            atomic_store(&r->stop, 1);
            break;
        }
    }
    uint64_t last_t = dmk_clock_ns(), last_b = 0;
    while (rc == DMK_OK && crew_running(c)) {
        dmk_sleep_ns(POLL_NS);
        uint64_t now = dmk_clock_ns(), b = crew_live_bytes(c);
        DmkProgress p = {0};
        p.mb_s = now > last_t ? (double)(b - last_b) / secs(now - last_t) / 1e6 : 0.0;
        last_t = now;
        last_b = b;
        stage(r, c, now, &p, ctx);
        emit(r, &p);
    }
    for (uint32_t i = 0; i < started; i++)
        dmk_thread_join(c->w[i].thread);
    for (uint32_t i = 0; rc == DMK_OK && i < c->n; i++) {
        if (c->w[i].rc != DMK_OK && c->w[i].rc != DMK_E_STOPPED) {
            *err = c->w[i].err;
            rc = c->w[i].rc;
        }
    }
    if (rc == DMK_OK && atomic_load(&r->stop))
        rc = dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
    return rc;
}

/* ---- preparing the test file ------------------------------------------- */

static void fill_stage(DmkRunner *r, const DmkCrew *c, uint64_t now, DmkProgress *p, void *ctx)
{
    (void)now;
    (void)ctx;
    p->stage = DMK_STAGE_PREPARE;
    p->fraction = (double)crew_live_bytes(c) / (double)r->spec->size;
}

/* Writes every block of the file once with the run's data: a sparse or
 * preallocated file would read back zeros at memory speed. */
static int fill_target(DmkRunner *r, DmkError *err)
{
    DmkTest t = {.name = "fill", .mode = DMK_MODE_WRITE, .n_jobs = 1};
    t.jobs[0] = (DmkJob){DMK_PATTERN_SEQ, FILL_BLOCK, FILL_DEPTH, 1, 0};
    DmkSchedule s = {.limit_ios = r->spec->size / FILL_BLOCK,
                     .watchdog_ns = to_ns(r->spec->watchdog_s)};
    DmkCrew c;
    int rc = crew_init(r, &c, &t, &s, r->seed, err);
    if (rc == DMK_OK)
        rc = crew_run(r, &c, fill_stage, NULL, err);
    if (rc == DMK_OK)
        rc = r->be->target_sync(r->target, err);
    if (rc != DMK_OK && rc != DMK_E_STOPPED && c.n) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        snprintf(err->msg, sizeof err->msg, "preparing the test file failed: %.700s", msg);
    }
    crew_destroy(&c);
    return rc;
}

/* ---- one test ----------------------------------------------------------- */

typedef struct {
    size_t index;
    const DmkTest *test;
    const DmkSchedule *sched;
    uint64_t t0;
} DmkTestCtx;

static void test_stage(DmkRunner *r, const DmkCrew *c, uint64_t now, DmkProgress *p, void *ctx)
{
    (void)c;
    const DmkTestCtx *tc = ctx;
    const DmkSchedule *s = tc->sched;
    p->test_index = tc->index;
    p->test = tc->test;
    if (now < s->t_measure) {
        p->stage = DMK_STAGE_WARMUP;
        p->fraction = secs(now - tc->t0) / secs(s->t_measure - tc->t0);
    } else {
        uint64_t since = now - s->t_measure;
        uint32_t pass = (uint32_t)(since / s->pass_ns);
        p->stage = DMK_STAGE_MEASURE;
        p->pass = (pass < s->n_passes ? pass : s->n_passes - 1) + 1;
        p->fraction = (double)(since % s->pass_ns) / (double)s->pass_ns;
        if (pass >= s->n_passes)
            p->fraction = 1.0;
    }
    r->current_s = secs((now > tc->t0 ? now : tc->t0) - tc->t0);
}

static void merge_pass(const DmkCrew *c, uint32_t pass, double seconds, DmkPassResult *out)
{
    DmkHist *h = malloc(3 * sizeof *h);
    if (!h) {
        memset(out, 0, sizeof *out);
        return;
    }
    uint64_t bytes[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++)
        dmk_hist_reset(&h[d]);
    for (uint32_t i = 0; i < c->n; i++) {
        for (int op = 0; op < 2; op++) {
            dmk_hist_merge(&h[op], &c->w[i].hist[pass * 2 + op]);
            dmk_hist_merge(&h[2], &c->w[i].hist[pass * 2 + op]);
            bytes[op] += c->w[i].bytes[pass * 2 + op];
        }
    }
    bytes[2] = bytes[0] + bytes[1];
    dmk_stats_from_hist(&out->read, &h[0], bytes[0], seconds);
    dmk_stats_from_hist(&out->write, &h[1], bytes[1], seconds);
    dmk_stats_from_hist(&out->total, &h[2], bytes[2], seconds);
    free(h);
}

/* Sums the workers' timelines. Completions after the measured part are
 * never counted, so when the period does not divide it the last sample is
 * a shorter one: it ends with the measurement and its rates use its real
 * length. */
static void merge_timeline(const DmkCrew *c, double period_s, double measured_s, DmkTestResult *t)
{
    size_t len = 0, max_len = (size_t)ceil(measured_s / period_s - 1e-9);
    for (uint32_t i = 0; i < c->n; i++)
        if (c->w[i].timeline_len > len)
            len = c->w[i].timeline_len;
    if (len > max_len)
        len = max_len;
    t->samples = len ? calloc(len, sizeof *t->samples) : NULL;
    t->n_samples = t->samples ? len : 0;
    for (size_t k = 0; k < t->n_samples; k++) {
        uint64_t ios = 0, bytes = 0, lat = 0;
        for (uint32_t i = 0; i < c->n; i++) {
            if (k < c->w[i].timeline_len) {
                ios += c->w[i].timeline[k].ios;
                bytes += c->w[i].timeline[k].bytes;
                lat += c->w[i].timeline[k].lat_sum_ns;
            }
        }
        double start = period_s * (double)k;
        double end = fmin(period_s * (double)(k + 1), measured_s);
        DmkSample *s = &t->samples[k];
        s->t_s = end;
        s->mb_s = (double)bytes / (end - start) / 1e6;
        s->iops = (double)ios / (end - start);
        s->lat_mean_us = ios ? (double)lat / (double)ios / 1e3 : 0.0;
    }
}

static int collect_test(DmkRunner *r, const DmkCrew *c, const DmkTest *test, DmkTestResult *out)
{
    const DmkRunSpec *s = r->spec;
    memset(out, 0, sizeof *out);
    out->test = *test;
    out->passes = calloc(s->passes, sizeof *out->passes);
    if (!out->passes)
        return DMK_E_NOMEM;
    out->n_passes = s->passes;
    for (uint32_t p = 0; p < s->passes; p++)
        merge_pass(c, p, s->measure_s, &out->passes[p]);
    dmk_test_result_summarize(out);
    if (s->timeline_s > 0) {
        merge_timeline(c, s->timeline_s, s->measure_s * s->passes, out);
    }
    return DMK_OK;
}

static int run_test(DmkRunner *r, size_t index, DmkTestResult *out, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    const DmkTest *test = &s->tests[index];
    DmkSchedule sched = {.pass_ns = to_ns(s->measure_s),
                         .n_passes = s->passes,
                         .timeline_ns = to_ns(s->timeline_s),
                         .watchdog_ns = to_ns(s->watchdog_s)};
    DmkCrew c;
    /* Workers are created (queues, buffers) before the clock starts. */
    int rc = crew_init(r, &c, test, &sched, r->seed ^ (uint64_t)(index + 1) << 32, err);
    if (rc != DMK_OK)
        return rc;
    uint64_t t0 = dmk_clock_ns();
    for (uint32_t i = 0; i < c.n; i++) {
        c.w[i].sched.t_measure = t0 + to_ns(s->warmup_s);
        c.w[i].sched.t_end = c.w[i].sched.t_measure + sched.pass_ns * sched.n_passes;
    }
    sched = c.w[0].sched;
    DmkTestCtx ctx = {index, test, &sched, t0};
    rc = crew_run(r, &c, test_stage, &ctx, err);
    if (rc == DMK_OK)
        rc = collect_test(r, &c, test, out);
    if (rc == DMK_E_NOMEM)
        dmk_error_set(err, rc, 0, "out of memory collecting the results of %s", test->name);
    crew_destroy(&c);
    return rc;
}

/* Idles between tests, as CrystalDiskMark does, staying stoppable. */
static int idle_interval(DmkRunner *r, size_t next, DmkError *err)
{
    uint64_t t0 = dmk_clock_ns(), len = to_ns(r->spec->interval_s);
    while (!atomic_load(&r->stop)) {
        uint64_t now = dmk_clock_ns();
        if (now - t0 >= len)
            return DMK_OK;
        uint64_t left = len - (now - t0);
        dmk_sleep_ns(left < POLL_NS ? left : POLL_NS);
        DmkProgress p = {.stage = DMK_STAGE_INTERVAL, .test_index = next};
        p.test = &r->spec->tests[next];
        r->current_s = secs(dmk_clock_ns() - t0);
        p.fraction = r->current_s / secs(len);
        emit(r, &p);
    }
    return dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
}

/* ---- the run ------------------------------------------------------------ */

static DmkRunResult *result_new(const DmkRunner *r)
{
    const DmkRunSpec *s = r->spec;
    DmkRunResult *res = calloc(1, sizeof *res);
    if (!res)
        return NULL;
    res->tests = calloc(s->n_tests, sizeof *res->tests);
    if (!res->tests) {
        free(res);
        return NULL;
    }
    snprintf(res->version, sizeof res->version, "%s", DMK_VERSION);
    dmk_os_utc_now(res->date, sizeof res->date);
    dmk_os_describe(res->os, sizeof res->os);
    snprintf(res->backend, sizeof res->backend, "%s", r->be->name);
    snprintf(res->profile, sizeof res->profile, "%s", s->profile);
    snprintf(res->sweep, sizeof res->sweep, "%s", s->sweep);
    snprintf(res->target.path, sizeof res->target.path, "%s", s->dir);
    res->size = s->size;
    res->passes = s->passes;
    res->measure_s = s->measure_s;
    res->warmup_s = s->warmup_s;
    res->interval_s = s->interval_s;
    res->data = s->data;
    return res;
}

/* Direct I/O needs every block to be a multiple of the device's sector. */
static int check_alignment(const DmkRunner *r, DmkError *err)
{
    uint32_t align = r->info.offset_align;
    for (size_t i = 0; i < r->spec->n_tests; i++) {
        const DmkTest *t = &r->spec->tests[i];
        for (int j = 0; j < t->n_jobs; j++)
            if (align && t->jobs[j].block_size % align)
                return dmk_error_set(err, DMK_E_INVAL, 0,
                                     "%s: the block size %u B is not a multiple of the %u-byte "
                                     "sector that direct I/O on %s requires",
                                     t->name, t->jobs[j].block_size, align, r->spec->dir);
    }
    return DMK_OK;
}

static uint32_t max_block(const DmkRunSpec *s)
{
    uint32_t m = FILL_BLOCK;
    for (size_t i = 0; i < s->n_tests; i++)
        for (int j = 0; j < s->tests[i].n_jobs; j++)
            if (s->tests[i].jobs[j].block_size > m)
                m = s->tests[i].jobs[j].block_size;
    return m;
}

/* Writes point into the pool at multiples of this: at least a page, so a
 * 4 KiB write pins one page and makes one segment, not two, even where
 * direct I/O would accept 512-byte alignment. */
static uint32_t pool_align(const DmkTargetInfo *info)
{
    return info->mem_align > 4096 ? info->mem_align : 4096;
}

static int prepare(DmkRunner *r, DmkRunResult *res, DmkError *err)
{
    DmkTargetParams params = {r->spec->dir, r->spec->size, r->spec->null_latency_ns, &r->stop};
    int rc = r->be->target_open(&params, &r->target, &r->info, err);
    if (rc != DMK_OK)
        return rc;
    res->target = r->info;
    rc = check_alignment(r, err);
    if (rc == DMK_OK)
        rc = dmk_pool_init(&r->pool, r->spec->data, r->spec->size, max_block(r->spec),
                           pool_align(&r->info), r->seed, err);
    if (rc == DMK_OK) {
        DmkProgress p = {.stage = DMK_STAGE_PREPARE};
        emit(r, &p);
        rc = fill_target(r, err);
    }
    return rc;
}

static int run_tests(DmkRunner *r, DmkRunResult *res, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    int rc = DMK_OK;
    for (size_t i = 0; i < s->n_tests && rc == DMK_OK; i++) {
        if (i > 0 && s->interval_s > 0) {
            rc = idle_interval(r, i, err);
            r->finished_s += s->interval_s;
            r->current_s = 0;
        }
        if (rc == DMK_OK)
            rc = run_test(r, i, &res->tests[i], err);
        if (rc == DMK_OK) {
            res->n_tests = i + 1;
            r->finished_s += test_planned_s(s);
            r->current_s = 0;
            if (r->cb && r->cb->test_done)
                r->cb->test_done(&res->tests[i], i, r->cb->user_data);
        }
    }
    res->complete = rc == DMK_OK;
    return rc;
}

int dmk_runner_run(DmkRunner *r, const DmkRunCallbacks *cb, DmkRunResult **out, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    r->cb = cb;
    r->t_start = dmk_clock_ns();
    r->seed = dmk_entropy64();
    r->planned_s =
        test_planned_s(s) * (double)s->n_tests + s->interval_s * (double)(s->n_tests - 1);
    r->finished_s = 0;
    if (out)
        *out = NULL;
    int rc = dmk_run_spec_validate(s, dmk_os_max_inflight(), err);
    if (rc != DMK_OK)
        return rc;
    DmkRunResult *res = result_new(r);
    if (!res)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the results");
    rc = prepare(r, res, err);
    if (rc == DMK_OK)
        rc = run_tests(r, res, err);
    dmk_pool_free(&r->pool);
    if (r->target)
        r->be->target_close(r->target);
    r->target = NULL;
    if (out)
        *out = res;
    else
        dmk_run_result_free(res);
    return rc;
}
