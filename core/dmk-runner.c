#include "dmk-runner.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-pool.h"
#include "dmk-size.h"
#include "dmk-verify.h"
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
    uint64_t size;        /* the test file's size as opened */
    double planned_s;     /* warm-up, passes and intervals of all tests */
    double finished_s;    /* of planned_s, the part behind us */
    double cur_planned_s; /* of planned_s, the test or interval under way */
    double cur_left_s;    /* its estimated rest */
    bool has_sensor;
    /* the temperature in each timeline period of the test under way */
    double *temps;
    size_t temps_len, temps_cap;
    uint64_t temp_read_ns; /* when the sensor was last read */
    double temp_last;
    DmkRunResult *res;
    DmkVerifyPool vpool; /* the verify option: pool.prefix != NULL when on */
    uint64_t verify_emit_ns;
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
    if (r)
        free(r->temps);
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

/* The measured part of a test: its own single pass, or the run's passes. */
static uint32_t test_passes(const DmkRunSpec *s, const DmkTest *t)
{
    return t->measure_s > 0 || t->limit_bytes ? 1 : s->passes;
}

static double test_pass_s(const DmkRunSpec *s, const DmkTest *t)
{
    return t->measure_s > 0 ? t->measure_s : s->measure_s;
}

/* Planned seconds of test i and the pause before it; a test that ends by
 * bytes rather than time counts only its warm-up (its rest is estimated
 * as it goes). */
static double test_planned_s(const DmkRunSpec *s, size_t i)
{
    const DmkTest *t = &s->tests[i];
    double idle = t->idle_before_s + (i > 0 ? s->interval_s : 0.0);
    if (t->limit_bytes && t->measure_s <= 0)
        return idle + s->warmup_s;
    return idle + s->warmup_s + test_pass_s(s, t) * test_passes(s, t);
}

static void emit(DmkRunner *r, DmkProgress *p)
{
    if (!r->cb || !r->cb->progress)
        return;
    p->n_tests = r->spec->n_tests;
    p->passes = r->spec->passes;
    p->elapsed_s = secs(dmk_clock_ns() - r->t_start);
    p->temp_c = r->has_sensor ? r->temp_last : NAN;
    p->remaining_s = r->planned_s - r->finished_s - r->cur_planned_s + r->cur_left_s;
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
    uint64_t slice = r->size / total / align * align;
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
        p.test_bytes = b;
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
    p->fraction = (double)crew_live_bytes(c) / (double)r->size;
}

/* Writes every block of the file once with the run's data: a sparse or
 * preallocated file would read back zeros at memory speed. */
static int fill_target(DmkRunner *r, DmkError *err)
{
    DmkTest t = {.name = "fill", .mode = DMK_MODE_WRITE, .n_jobs = 1};
    t.jobs[0] = (DmkJob){DMK_PATTERN_SEQ, FILL_BLOCK, FILL_DEPTH, 1, 0};
    DmkSchedule s = {.limit_ios = r->size / FILL_BLOCK,
                     .uncounted = true,
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

/* ---- temperature ---------------------------------------------------------- */

/* Some sensors cost a device command to read (NVMe): not more often than
 * the timeline asks, and never more than ~10 times a second. */
#define TEMP_MIN_READ_NS 90000000ULL

static double read_temp(DmkRunner *r, uint64_t now, uint64_t period_ns)
{
    uint64_t min_ns = period_ns > TEMP_MIN_READ_NS ? period_ns * 9 / 10 : TEMP_MIN_READ_NS;
    if (r->temp_read_ns && now - r->temp_read_ns < min_ns)
        return r->temp_last;
    double c;
    if (r->be->target_temperature && r->be->target_temperature(r->target, &c) == DMK_OK)
        r->temp_last = c;
    r->temp_read_ns = now;
    return r->temp_last;
}

/* Records the temperature of every timeline period up to the one under
 * way; called from the poll loop, so at ~10 Hz. */
static void sample_temp(DmkRunner *r, const DmkSchedule *s, uint64_t now)
{
    if (!r->has_sensor || !s->timeline_ns || now < s->t_measure)
        return;
    size_t slot = (size_t)((now - s->t_measure) / s->timeline_ns);
    if (slot < r->temps_len)
        return;
    if (slot >= r->temps_cap) {
        size_t cap = r->temps_cap ? r->temps_cap * 2 : 256;
        while (cap <= slot)
            cap *= 2;
        double *n = realloc(r->temps, cap * sizeof *n);
        if (!n)
            return; /* the rest of the samples go without */
        r->temps = n;
        r->temps_cap = cap;
    }
    double c = read_temp(r, now, s->timeline_ns);
    while (r->temps_len <= slot)
        r->temps[r->temps_len++] = c;
}

static double temp_of_slot(const DmkRunner *r, size_t k)
{
    if (!r->has_sensor || r->temps_len == 0)
        return NAN;
    return k < r->temps_len ? r->temps[k] : r->temps[r->temps_len - 1];
}

/* ---- one test ----------------------------------------------------------- */

typedef struct {
    size_t index;
    const DmkTest *test;
    const DmkSchedule *sched;
    uint64_t t0;
    uint64_t limit_bytes; /* > 0: the test ends by bytes */
} DmkTestCtx;

static void test_stage(DmkRunner *r, const DmkCrew *c, uint64_t now, DmkProgress *p, void *ctx)
{
    const DmkTestCtx *tc = ctx;
    const DmkSchedule *s = tc->sched;
    p->test_index = tc->index;
    p->test = tc->test;
    sample_temp(r, s, now);
    double in_test = secs((now > tc->t0 ? now : tc->t0) - tc->t0);
    if (now < s->t_measure) {
        p->stage = DMK_STAGE_WARMUP;
        p->fraction = secs(now - tc->t0) / secs(s->t_measure - tc->t0);
    } else if (tc->limit_bytes) {
        p->stage = DMK_STAGE_MEASURE;
        p->pass = 1;
        p->fraction = fmin(1.0, (double)crew_live_bytes(c) / (double)tc->limit_bytes);
    } else {
        uint64_t since = now - s->t_measure;
        uint32_t pass = (uint32_t)(since / s->pass_ns);
        p->stage = DMK_STAGE_MEASURE;
        p->pass = (pass < s->n_passes ? pass : s->n_passes - 1) + 1;
        p->fraction = (double)(since % s->pass_ns) / (double)s->pass_ns;
        if (pass >= s->n_passes)
            p->fraction = 1.0;
    }
    if (tc->limit_bytes && p->stage == DMK_STAGE_MEASURE && p->fraction > 0.001)
        r->cur_left_s = secs(now - s->t_measure) * (1.0 - p->fraction) / p->fraction;
    else
        r->cur_left_s = fmax(0.0, r->cur_planned_s - in_test);
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

/* The workers' counts of timeline period k. */
static DmkSlot sum_slot(const DmkCrew *c, size_t k)
{
    DmkSlot sum = {0, 0, 0};
    for (uint32_t i = 0; i < c->n; i++) {
        if (k < c->w[i].timeline_len) {
            sum.ios += c->w[i].timeline[k].ios;
            sum.bytes += c->w[i].timeline[k].bytes;
            sum.lat_sum_ns += c->w[i].timeline[k].lat_sum_ns;
        }
    }
    return sum;
}

static void set_sample(DmkSample *s, const DmkSlot *sum, double start, double end, double temp)
{
    s->t_s = end;
    s->mb_s = (double)sum->bytes / (end - start) / 1e6;
    s->iops = (double)sum->ios / (end - start);
    s->lat_mean_us = sum->ios ? (double)sum->lat_sum_ns / (double)sum->ios / 1e3 : 0.0;
    s->temp_c = temp;
}

/* Sums the workers' timelines. Completions after the measured part are
 * never counted, so when the period does not divide it the last sample is
 * a shorter one: it ends with the measurement and its rates use its real
 * length. A last piece under a tenth of a period joins the sample before
 * it instead: its rate would rest on a few I/Os in a sliver of time, and
 * its end would not survive the files' millisecond resolution. */
static void merge_timeline(const DmkRunner *r, const DmkCrew *c, double period_s, double measured_s,
                           DmkTestResult *t)
{
    size_t len = 0, max_len = (size_t)ceil(measured_s / period_s - 1e-9);
    for (uint32_t i = 0; i < c->n; i++)
        if (c->w[i].timeline_len > len)
            len = c->w[i].timeline_len;
    /* A stopped test's measurement ends at its last counted completion;
     * one that came exactly on a period's edge opens a period of its own
     * that the measurement does not reach: it joins the last sample, so
     * the samples still add up to the pass. */
    size_t all = len;
    if (len > max_len)
        len = max_len;
    bool fold = len >= 2 && measured_s - period_s * (double)(len - 1) < period_s / 10;
    size_t n = fold ? len - 1 : len;
    t->samples = n ? calloc(n, sizeof *t->samples) : NULL;
    t->n_samples = t->samples ? n : 0;
    for (size_t k = 0; k < t->n_samples; k++) {
        DmkSlot sum = sum_slot(c, k);
        bool last = k + 1 == t->n_samples;
        for (size_t j = k + 1; last && j < all; j++) {
            DmkSlot tail = sum_slot(c, j); /* the folded piece, an edge's period */
            sum.ios += tail.ios;
            sum.bytes += tail.bytes;
            sum.lat_sum_ns += tail.lat_sum_ns;
        }
        double end = last ? measured_s : fmin(period_s * (double)(k + 1), measured_s);
        set_sample(&t->samples[k], &sum, period_s * (double)k, end, temp_of_slot(r, k));
    }
}

/* How much of the schedule was measured: all of it, or up to the last
 * completion of a test that ends by bytes or was stopped. A stop is seen
 * up to a poll period late; the last measured completion is when the
 * counted I/O really ended. */
static double measured_s(const DmkCrew *c, const DmkSchedule *s, bool stopped)
{
    uint64_t end = s->t_end;
    if (s->limit_ios || stopped) {
        uint64_t last = s->t_measure;
        for (uint32_t i = 0; i < c->n; i++)
            if (c->w[i].last_counted_ns > last)
                last = c->w[i].last_counted_ns;
        end = last < end ? last : end;
    }
    return end > s->t_measure ? secs(end - s->t_measure) : 0.0;
}

/* The achieved queue depth of the whole test: each worker's average
 * requests in flight, summed, as the asked depth is queue depth x threads. */
static double crew_qd(const DmkCrew *c)
{
    double sum = 0;
    for (uint32_t i = 0; i < c->n; i++)
        sum += dmk_worker_qd(&c->w[i]);
    return sum;
}

/* The passes measured in `seconds` of the schedule, the last possibly cut short. */
static int collect_test(DmkRunner *r, const DmkCrew *c, const DmkTest *test,
                        const DmkSchedule *sched, double seconds, DmkTestResult *out)
{
    double pass_s = secs(sched->pass_ns);
    uint32_t n = sched->limit_ios ? 1 : (uint32_t)ceil(seconds / pass_s - 1e-9);
    if (n > sched->n_passes)
        n = sched->n_passes;
    memset(out, 0, sizeof *out);
    out->test = *test;
    if (n == 0 || seconds <= 0)
        return DMK_OK;
    out->passes = calloc(n, sizeof *out->passes);
    if (!out->passes)
        return DMK_E_NOMEM;
    out->n_passes = n;
    for (uint32_t p = 0; p < n; p++) {
        double len = sched->limit_ios ? seconds : fmin(pass_s, seconds - pass_s * p);
        merge_pass(c, p, len, &out->passes[p]);
    }
    dmk_test_result_summarize(out);
    if (sched->timeline_ns)
        merge_timeline(r, c, secs(sched->timeline_ns), seconds, out);
    out->achieved_qd = crew_qd(c);
    out->flags = dmk_test_flags(r->res, out);
    return DMK_OK;
}

/* The latency ramp: a rate in percent of what an earlier test achieved. */
static int resolve_rate(const DmkRunner *r, DmkTest *t, DmkError *err)
{
    if (!t->rate_ref)
        return DMK_OK;
    const DmkTestResult *ref = &r->res->tests[t->rate_ref - 1];
    double iops = ref->score.total.iops * t->rate_pct / 100.0;
    if (t->rate_ref > r->res->n_tests || !(iops >= 1.0))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s %s: the test it takes its rate from (number %u) measured no I/O",
                             t->name, t->label, t->rate_ref);
    t->rate_iops = (uint64_t)(iops + 0.5);
    return DMK_OK;
}

/* The schedule of a test; the clock-dependent times are set at its start. */
static DmkSchedule test_schedule(const DmkRunSpec *s, const DmkTest *t, uint64_t size)
{
    DmkSchedule sched = {.pass_ns = to_ns(test_pass_s(s, t)),
                         .n_passes = test_passes(s, t),
                         .timeline_ns = to_ns(s->timeline_s),
                         .watchdog_ns = to_ns(s->watchdog_s)};
    uint32_t threads = dmk_test_threads(t);
    if (t->rate_iops)
        sched.rate_iops = (double)t->rate_iops / threads;
    if (t->limit_bytes) {
        /* Each thread writes its share once; only one job (full span). */
        uint64_t bytes = t->limit_bytes < size ? t->limit_bytes : size;
        sched.limit_ios = bytes / threads / t->jobs[0].block_size;
        if (sched.limit_ios == 0)
            sched.limit_ios = 1;
        if (t->measure_s <= 0)
            sched.pass_ns = UINT64_MAX / 4;
    }
    return sched;
}

/* ---- the verify option ------------------------------------------------ */

static bool test_writes(const DmkTest *t)
{
    for (int j = 0; j < t->n_jobs; j++)
        if (t->jobs[j].read_share < 100)
            return true;
    return false;
}

/* Workers of a test that writes stamp and record their writes. */
static int crew_verify_init(DmkRunner *r, DmkCrew *c, const DmkTest *t, size_t index, DmkError *err)
{
    if (!r->vpool.prefix || !test_writes(t))
        return DMK_OK;
    for (uint32_t i = 0; i < c->n; i++) {
        int rc = dmk_worker_verify_init(&c->w[i], &r->vpool, (uint32_t)index + 1, i, err);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

typedef struct {
    DmkRunner *r;
    size_t index;
} DmkVerifyCtx;

static void verify_progress(double fraction, void *ctx)
{
    DmkVerifyCtx *vc = ctx;
    DmkRunner *r = vc->r;
    uint64_t now = dmk_clock_ns();
    if (now - r->verify_emit_ns < POLL_NS && fraction < 1.0)
        return;
    r->verify_emit_ns = now;
    DmkProgress p = {.stage = DMK_STAGE_VERIFY, .test_index = vc->index, .fraction = fraction};
    p.test = &r->spec->tests[vc->index];
    emit(r, &p);
}

/* Reads back and checks what the test wrote, after its timed part, so the
 * time it takes is never in the test's numbers (out->verify.seconds). */
static int verify_test(DmkRunner *r, DmkCrew *c, size_t index, DmkTestResult *out, DmkError *err)
{
    if (!c->n || !c->w[0].vmap)
        return DMK_OK;
    if (r->cb && r->cb->before_verify)
        r->cb->before_verify(out, index, r->cb->user_data);
    DmkVerifyMap **maps = malloc(c->n * sizeof *maps);
    if (!maps)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the verify option");
    for (uint32_t i = 0; i < c->n; i++)
        maps[i] = c->w[i].vmap;
    DmkVerifyCtx vc = {r, index};
    DmkVerifyReader rd = {
        r->be,    r->target,       &r->vpool, r->spec->dir, to_ns(r->spec->watchdog_s),
        &r->stop, verify_progress, &vc};
    r->verify_emit_ns = 0;
    verify_progress(0.0, &vc);
    int rc = dmk_verify_readback(&rd, maps, c->n, &out->verify, err);
    free(maps);
    return rc;
}

/* The verify option needs a backend that keeps what it writes. */
static int verify_prepare(DmkRunner *r, DmkError *err)
{
    if (!r->spec->verify)
        return DMK_OK;
    if (!r->be->keeps_data)
        return dmk_error_set(err, DMK_E_NOTSUP, 0,
                             "the verify option needs a real target: the %s backend keeps no "
                             "data to read back",
                             r->be->name);
    uint64_t run_id = r->seed ^ 0x6a09e667f3bcc909ULL;
    return dmk_verify_pool_init(&r->vpool, &r->pool, run_id ? run_id : 1, err);
}

static int run_test(DmkRunner *r, size_t index, DmkTestResult *out, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    DmkTest test = s->tests[index];
    int rc = resolve_rate(r, &test, err);
    if (rc != DMK_OK)
        return rc;
    DmkSchedule sched = test_schedule(s, &test, r->size);
    DmkCrew c;
    /* Workers are created (queues, buffers) before the clock starts. */
    rc = crew_init(r, &c, &test, &sched, r->seed ^ (uint64_t)(index + 1) << 32, err);
    if (rc == DMK_OK)
        rc = crew_verify_init(r, &c, &test, index, err);
    if (rc != DMK_OK) {
        crew_destroy(&c);
        return rc;
    }
    r->temps_len = 0;
    uint64_t t0 = dmk_clock_ns();
    for (uint32_t i = 0; i < c.n; i++) {
        c.w[i].sched.t_measure = t0 + to_ns(s->warmup_s);
        c.w[i].sched.t_end = sched.limit_ios && test.measure_s <= 0
                                 ? UINT64_MAX
                                 : c.w[i].sched.t_measure + sched.pass_ns * sched.n_passes;
    }
    sched = c.w[0].sched;
    DmkTestCtx ctx = {index, &test, &sched, t0, sched.limit_ios ? test.limit_bytes : 0};
    rc = crew_run(r, &c, test_stage, &ctx, err);
    if (rc == DMK_OK || (rc == DMK_E_STOPPED && s->keep_partial)) {
        double secs_measured = measured_s(&c, &sched, rc != DMK_OK);
        int crc = collect_test(r, &c, &test, &sched, secs_measured, out);
        out->partial = rc != DMK_OK;
        if (crc != DMK_OK)
            rc =
                dmk_error_set(err, crc, 0, "out of memory collecting the results of %s", test.name);
    }
    if (rc == DMK_OK)
        rc = verify_test(r, &c, index, out, err);
    crew_destroy(&c);
    return rc;
}

/* Idles `len_s` (CrystalDiskMark's interval, or a recovery test's idle
 * time), staying stoppable. */
static int idle_for(DmkRunner *r, size_t next, double len_s, DmkError *err)
{
    uint64_t t0 = dmk_clock_ns(), len = to_ns(len_s);
    while (!atomic_load(&r->stop)) {
        uint64_t now = dmk_clock_ns();
        if (now - t0 >= len)
            return DMK_OK;
        uint64_t left = len - (now - t0);
        dmk_sleep_ns(left < POLL_NS ? left : POLL_NS);
        DmkProgress p = {.stage = DMK_STAGE_INTERVAL, .test_index = next};
        p.test = &r->spec->tests[next];
        double in = secs(dmk_clock_ns() - t0);
        r->cur_left_s = fmax(0.0, r->cur_planned_s - in);
        p.fraction = in / len_s;
        emit(r, &p);
    }
    return dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
}

/* What the recovery test does before its last measurement. */
static int trim_target(DmkRunner *r, DmkRunResult *res, DmkError *err)
{
    DmkTrimReport rep = {0};
    if (!r->be->target_trim)
        return dmk_error_set(err, DMK_E_NOTSUP, 0, "the %s backend cannot TRIM the test file",
                             r->be->name);
    int rc = r->be->target_trim(r->target, &rep, err);
    if (rc == DMK_OK) {
        size_t used = strlen(res->lab_note);
        snprintf(res->lab_note + used, sizeof res->lab_note - used, "%s%s", used ? " " : "",
                 rep.note);
    }
    return rc;
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
    snprintf(res->lab, sizeof res->lab, "%s", s->lab);
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

/* A file sized to the free space must still hold each thread's blocks. */
static int check_free_size(const DmkRunner *r, DmkError *err)
{
    char a[32], b[32], c[32];
    if (r->size >= DMK_SIZE_MIN)
        return DMK_OK;
    return dmk_error_set(err, DMK_E_NOSPC, 0,
                         "%s has %s free beyond the %s safety margin; the test needs at least %s",
                         r->spec->dir, dmk_format_size(r->size, a, sizeof a),
                         dmk_format_size(r->spec->free_margin, b, sizeof b),
                         dmk_format_size(DMK_SIZE_MIN, c, sizeof c));
}

static int prepare(DmkRunner *r, DmkRunResult *res, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    DmkTargetParams params = {s->dir,   s->size,        s->null_latency_ns,
                              &r->stop, s->free_margin, &s->null_sim};
    params.device = s->device;
    params.device_write = s->device && dmk_run_spec_writes(s);
    params.device_confirm = s->device_confirm;
    int rc = r->be->target_open(&params, &r->target, &r->info, err);
    if (rc != DMK_OK)
        return rc;
    r->size = r->info.test_size ? r->info.test_size : s->size;
    res->target = r->info;
    res->size = r->size;
    double c;
    r->has_sensor = r->be->target_temperature && r->be->target_temperature(r->target, &c) == DMK_OK;
    r->temp_last = r->has_sensor ? c : NAN;
    rc = s->size ? DMK_OK : check_free_size(r, err);
    if (rc == DMK_OK)
        rc = check_alignment(r, err);
    if (rc == DMK_OK)
        rc = dmk_pool_init(&r->pool, s->data, r->size, max_block(s), pool_align(&r->info), r->seed,
                           err);
    if (rc == DMK_OK)
        rc = verify_prepare(r, err);
    /* A device that only reads is read as it is: nothing is written. */
    bool fill = !s->no_fill && (!s->device || params.device_write);
    if (rc == DMK_OK && fill) {
        DmkProgress p = {.stage = DMK_STAGE_PREPARE};
        emit(r, &p);
        rc = fill_target(r, err);
    }
    return rc;
}

/* The pauses before test i: the run's interval, a lab step's idle time,
 * and TRIM. */
static int before_test(DmkRunner *r, size_t i, DmkRunResult *res, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    const DmkTest *t = &s->tests[i];
    double idle = (i > 0 ? s->interval_s : 0.0) + t->idle_before_s;
    r->cur_planned_s = idle;
    r->cur_left_s = idle;
    int rc = idle > 0 ? idle_for(r, i, idle, err) : DMK_OK;
    r->finished_s += idle;
    r->cur_planned_s = r->cur_left_s = 0;
    if (rc == DMK_OK && t->trim_before)
        rc = trim_target(r, res, err);
    return rc;
}

static int run_tests(DmkRunner *r, DmkRunResult *res, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    int rc = DMK_OK;
    for (size_t i = 0; i < s->n_tests && rc == DMK_OK; i++) {
        rc = before_test(r, i, res, err);
        if (rc != DMK_OK)
            break;
        double idle = s->tests[i].idle_before_s + (i > 0 ? s->interval_s : 0.0);
        double planned = test_planned_s(s, i) - idle;
        r->cur_planned_s = r->cur_left_s = planned;
        rc = run_test(r, i, &res->tests[i], err);
        if (rc == DMK_OK || (rc == DMK_E_STOPPED && res->tests[i].n_passes)) {
            res->n_tests = i + 1;
            if (r->cb && r->cb->test_done)
                r->cb->test_done(&res->tests[i], i, r->cb->user_data);
        }
        r->finished_s += planned;
        r->cur_planned_s = r->cur_left_s = 0;
    }
    res->complete = rc == DMK_OK;
    return rc;
}

static double run_planned_s(const DmkRunSpec *s)
{
    double sum = 0;
    for (size_t i = 0; i < s->n_tests; i++)
        sum += test_planned_s(s, i);
    return sum;
}

int dmk_runner_run(DmkRunner *r, const DmkRunCallbacks *cb, DmkRunResult **out, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    r->cb = cb;
    r->t_start = dmk_clock_ns();
    r->seed = dmk_entropy64();
    r->planned_s = run_planned_s(s);
    r->finished_s = 0;
    if (out)
        *out = NULL;
    int rc = dmk_run_spec_validate(s, dmk_os_max_inflight(), err);
    if (rc != DMK_OK)
        return rc;
    DmkRunResult *res = result_new(r);
    if (!res)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the results");
    r->res = res;
    rc = prepare(r, res, err);
    if (rc == DMK_OK)
        rc = run_tests(r, res, err);
    dmk_verify_pool_free(&r->vpool);
    dmk_pool_free(&r->pool);
    if (r->cb && r->cb->measured)
        r->cb->measured(res, rc, r->cb->user_data);
    if (r->target) {
        DmkProgress p = {.stage = DMK_STAGE_CLEANUP, .fraction = 1.0};
        emit(r, &p);
        r->be->target_close(r->target);
    }
    r->target = NULL;
    r->res = NULL;
    if (out)
        *out = res;
    else
        dmk_run_result_free(res);
    return rc;
}
