/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-runner.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-lab.h"
#include "dmk-pool.h"
#include "dmk-size.h"
#include "dmk-surface.h"
#include "dmk-verify.h"
#include "dmk-version.h"
#include "dmk-worker.h"

/* The fill writes the whole test file once, in large sequential blocks. */
#define FILL_BLOCK (1u << 20)
#define FILL_DEPTH 8
/* How often the caller hears of progress and the runner looks at the stop flag. */
#define POLL_NS 100000000ULL
/* After a stop (or a worker's failure, or a stall) the workers get at
 * least this long to return; one that has not come back from a call for
 * this long by then is stuck in the kernel (a frozen file system blocks
 * io_submit uninterruptibly) and is left behind, so that a stop never
 * waits for the drive. One that keeps coming back (draining) is waited
 * for: its own drain ends DMK_DRAIN_STOP_NS after the stop, and
 * DMK_STOP_LIMIT_NS bounds it here in any case. */
#define STOP_GRACE_NS 3000000000ULL
_Static_assert(DMK_STOP_LIMIT_NS >= STOP_GRACE_NS &&
                   DMK_STOP_LIMIT_NS >= DMK_DRAIN_STOP_NS + 1000000000ULL,
               "a stop's limit leaves the workers their own drain bound and a second");

typedef struct DmkCrew DmkCrew;

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
    /* Workers left stuck in the kernel (crew_abandon): their crews, and
     * everything they use (target, pool, this struct with its stop flag),
     * stay allocated for as long as the process lives, reachable from
     * abandoned_runners, since those threads may yet come back. */
    DmkCrew *abandoned;
    bool stall_told;  /* cb->stalled was called */
    bool verify_left; /* the verify option's read was left in flight */
    /* What the run works on, for messages: "the test file in DIR", or
     * "the device DEV" (a device has no test file). */
    char what[sizeof((DmkRunSpec *)0)->dir + 32];
    void *sync_left; /* a flush left behind the same way (guarded_sync) */
    DmkRunner *next_abandoned;
    bool fd_closed; /* the spec's device_fd was closed (it is the run's) */
};

/* Whether a thread of this runner's was left stuck in the kernel. */
static bool left_behind(const DmkRunner *r)
{
    return r->abandoned || r->sync_left || (r->verify_left && r->be->close_waits);
}

/* Runners whose workers were left behind; never freed (see above). */
static _Atomic(DmkRunner *) abandoned_runners;

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

/* The device descriptor a front end handed over belongs to the run: the
 * target works on its own duplicate, so the original goes when the run
 * ends (or with a runner that never ran), once, whatever happened. */
static void close_device_fd(DmkRunner *r)
{
    if (r->spec->has_device_fd && !r->fd_closed)
        dmk_os_device_fd_close(r->spec->device_fd);
    r->fd_closed = true;
}

void dmk_runner_stop(DmkRunner *r)
{
    atomic_store(&r->stop, 1);
}

void dmk_runner_free(DmkRunner *r)
{
    if (r)
        close_device_fd(r);
    if (r && left_behind(r)) {
        /* A stuck worker still points into r: keep it, reachable. */
        DmkRunner *head = atomic_load(&abandoned_runners);
        do
            r->next_abandoned = head;
        while (!atomic_compare_exchange_weak(&abandoned_runners, &head, r));
        return;
    }
    if (r)
        free(r->temps);
    free(r);
}

bool dmk_runner_abandoned(const DmkRunner *r)
{
    return left_behind(r);
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

/* The workers of one test, on the heap with their own copy of the test
 * and the directory's name, so that a crew left behind (crew_abandon)
 * needs nothing of its caller's. */
struct DmkCrew {
    DmkWorker *w;
    uint32_t n;
    DmkTest test;
    char dir[sizeof((DmkRunSpec *)0)->dir];
    char what[sizeof((DmkRunner *)0)->what];
    DmkCrew *next_abandoned;
};

static void crew_destroy(DmkCrew *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->n; i++)
        dmk_worker_destroy(&c->w[i]);
    free(c->w);
    free(c);
}

/* One worker per thread of each job; each gets its own slice of the file,
 * aligned so every offset stays aligned for direct I/O. */
static int crew_init(DmkRunner *r, DmkCrew **out, const DmkTest *test, const DmkSchedule *sched,
                     uint64_t seed, DmkError *err)
{
    uint32_t total = dmk_test_threads(test);
    DmkCrew *c = *out = calloc(1, sizeof *c);
    if (c)
        c->w = calloc(total, sizeof *c->w);
    if (!c || !c->w) {
        free(c);
        *out = NULL;
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for %u workers", total);
    }
    c->test = *test;
    snprintf(c->dir, sizeof c->dir, "%s", r->spec->dir);
    snprintf(c->what, sizeof c->what, "%s", r->what);
    const DmkTest *t = &c->test;
    uint64_t align = r->info.offset_align ? r->info.offset_align : 512;
    /* A surface sample's region is its place (place_sample); any other
     * test's, the whole test area. */
    uint64_t base = t->spread_count ? t->region_offset : 0;
    uint64_t area = t->spread_count ? t->limit_bytes : r->size;
    uint64_t slice = area / total / align * align;
    for (int j = 0; j < t->n_jobs; j++) {
        for (uint32_t k = 0; k < t->jobs[j].threads; k++) {
            uint64_t wseed = seed + 0x9e3779b97f4a7c15ULL * (c->n + 1);
            int rc =
                dmk_worker_init(&c->w[c->n], r->be, r->target, &t->jobs[j], &r->pool,
                                base + slice * c->n, slice, wseed, sched, &r->stop, c->what, err);
            c->n++;
            if (rc != DMK_OK) {
                crew_destroy(c);
                *out = NULL;
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

/* ---- the supervisor ------------------------------------------------------ */

/* What a stuck worker was doing, for the messages below: "writing 1048576
 * bytes at offset 8388608 of the test file in DIR: the call to submit it
 * has not returned for 4.2 s". */
static void describe_call(const DmkCrew *c, const DmkWorker *w, uint64_t now, char *buf, size_t len)
{
    int kind = atomic_load_explicit(&w->call_kind, memory_order_acquire);
    uint64_t since = atomic_load_explicit(&w->call_since_ns, memory_order_relaxed);
    double for_s = now > since ? secs(now - since) : 0.0;
    if (kind == DMK_CALL_SUBMIT)
        snprintf(buf, len,
                 "%s %u bytes at offset %llu of %s: the call that submits it "
                 "has not returned for %.1f s",
                 atomic_load(&w->call_op) == DMK_OP_READ ? "reading" : "writing",
                 (unsigned)atomic_load(&w->call_len),
                 (unsigned long long)atomic_load(&w->call_offset), c->what, for_s);
    else if (kind == DMK_CALL_REAP)
        snprintf(buf, len, "the wait for completions on %s has not returned for %.1f s", c->what,
                 for_s);
    else
        snprintf(buf, len, "the worker on %s has not come back for %.1f s", c->what, for_s);
}

/* The first worker still running, or NULL. */
static const DmkWorker *crew_stuck(const DmkCrew *c)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (!atomic_load(&c->w[i].finished))
            return &c->w[i];
    return NULL;
}

/* The worker that has not come back from the backend for longer than the
 * watchdog time (counted from `resumed` at the earliest, the last time
 * the runner itself was seen to have been paused), or NULL. Its own
 * watchdog cannot fire: it is blocked in a call. */
static const DmkWorker *crew_stalled(const DmkCrew *c, uint64_t now, uint64_t resumed,
                                     uint64_t watchdog_ns, uint64_t *for_ns)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const DmkWorker *w = &c->w[i];
        uint64_t beat = atomic_load_explicit(&w->beat_ns, memory_order_relaxed);
        uint64_t from = beat > resumed ? beat : resumed;
        if (!atomic_load(&w->finished) && now > from && now - from > watchdog_ns) {
            *for_ns = now - beat;
            return w;
        }
    }
    return NULL;
}

/* "SEQ1M Q8T1 write", or "preparing the test file" for the fill. */
static void crew_title(const DmkCrew *c, char *buf, size_t len)
{
    if (c->test.mode == DMK_MODE_WRITE && strcmp(c->test.name, "fill") == 0)
        snprintf(buf, len, "the fill");
    else
        snprintf(buf, len, "%s %s%s%s", c->test.name, dmk_mode_name(c->test.mode),
                 c->test.label[0] ? " " : "", c->test.label);
}

static int stall_error(const DmkCrew *c, const DmkWorker *w, uint64_t now, uint64_t for_ns,
                       DmkError *err)
{
    char what[1400], title[96];
    describe_call(c, w, now, what, sizeof what);
    crew_title(c, title, sizeof title);
    return dmk_error_set(err, DMK_E_TIMEOUT, 0,
                         "the drive did not complete any request for %.0f s (%s: %s); the file "
                         "system may be frozen or the drive hung. The run is not complete",
                         secs(for_ns), title, what);
}

/* What is left when the program ends with a thread or requests left
 * behind: a folder target's test file (O_TMPFILE, or a name already
 * unlinked) goes then, even while a call is stuck in the kernel; a device
 * has no test file. */
static const char *left_note(const DmkRunner *r)
{
    return r->spec->device ? "the device has no test file: nothing is left on it"
                           : "the test file is freed when the program ends";
}

const char *dmk_runner_stuck_note(bool device)
{
    return device ? "The device has no test file: nothing is left on it."
                  : "Its test file has no name and is freed when that call returns.";
}

/* Tells the front end at once that the run stalled, before anything that
 * may block in the kernel (the guard's parent bounds the rest). */
static void tell_stall(DmkRunner *r, const DmkError *err)
{
    if (r->stall_told || !r->cb || !r->cb->stalled)
        return;
    r->stall_told = true;
    r->cb->stalled(err->msg, r->cb->user_data);
}

/* Leaves the crew's stuck threads behind: nothing they use is freed (the
 * crew, the target, the pool, the runner: see DmkRunner.abandoned). */
static void crew_abandon(DmkRunner *r, DmkCrew *c, uint64_t now, bool described, DmkError *err)
{
    char what[1400] = "";
    const DmkWorker *w = crew_stuck(c);
    uint64_t beat = w ? atomic_load_explicit(&w->beat_ns, memory_order_relaxed) : 0;
    if (!described && w && (now <= beat || now - beat <= STOP_GRACE_NS)) /* DMK_STOP_LIMIT_NS */
        snprintf(what, sizeof what, "the worker on %s was still draining its requests in flight",
                 c->what);
    else if (!described)
        describe_call(c, w, now, what, sizeof what);
    c->next_abandoned = r->abandoned;
    r->abandoned = c;
    dmk_error_append(err, " (%.1000s%sits thread was left behind; %s)", what,
                     described ? "" : ", so ", left_note(r));
}

/* Workers that returned with requests still in flight (a stall, or a stop
 * on a hung drive): destroying their queues (io_destroy) or closing the
 * target would wait for the drive, and the kernel may still complete
 * into their buffers, so the crew is kept as a stuck one is, and the
 * message says so. */
static void crew_leave_inflight(DmkRunner *r, DmkCrew *c, DmkError *err)
{
    long left = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        left += c->w[i].inflight_left;
        if (!r->be->close_waits)
            c->w[i].inflight_left = 0; /* its queue_close does not wait: closed as usual */
    }
    if (!left || !r->be->close_waits)
        return;
    c->next_abandoned = r->abandoned;
    r->abandoned = c;
    dmk_error_append(
        err,
        " (%ld request%s still in flight on %s %s left to the OS, which ends %s when the "
        "drive answers; %s)",
        left, left == 1 ? "" : "s", c->what, left == 1 ? "was" : "were", left == 1 ? "it" : "them",
        left_note(r));
}

/* Whether a running worker has not come back from a call for the grace
 * time: stuck in the kernel. One that keeps coming back (draining what
 * is in flight, which it ends itself DMK_DRAIN_STOP_NS after the stop) is
 * waited for, but never past DMK_STOP_LIMIT_NS after `since`. */
static bool crew_has_stuck(const DmkCrew *c, uint64_t now, uint64_t since)
{
    if (now - since > DMK_STOP_LIMIT_NS && crew_stuck(c))
        return true; /* beating, but past every bound a stop gives: the drain did not end */
    for (uint32_t i = 0; i < c->n; i++) {
        const DmkWorker *w = &c->w[i];
        uint64_t beat = atomic_load_explicit(&w->beat_ns, memory_order_relaxed);
        if (!atomic_load(&w->finished) && now > beat && now - beat > STOP_GRACE_NS)
            return true;
    }
    return false;
}

/* Waits for the crew to return after a stop, at least STOP_GRACE_NS
 * after `since`; false when a worker is stuck in a call by then. */
static bool crew_wait_grace(const DmkCrew *c, uint64_t since)
{
    while (crew_stuck(c)) {
        uint64_t now = dmk_clock_ns();
        if (now - since > STOP_GRACE_NS && crew_has_stuck(c, now, since))
            return false;
        dmk_sleep_ns(POLL_NS / 5);
    }
    return true;
}

/* The first worker error, or a stop. */
static int crew_result(const DmkRunner *r, const DmkCrew *c, DmkError *err)
{
    for (uint32_t i = 0; i < c->n; i++) {
        if (atomic_load(&c->w[i].finished) && c->w[i].rc != DMK_OK && c->w[i].rc != DMK_E_STOPPED) {
            *err = c->w[i].err;
            return c->w[i].rc;
        }
    }
    if (atomic_load(&r->stop))
        return dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
    return DMK_OK;
}

/* Starts the crew's threads, reports progress until all finish, joins
 * them and returns the first worker error. The runner's thread is the
 * supervisor: a worker that does not come back from the backend for the
 * watchdog time fails the test (its own watchdog is blocked with it), and
 * after a stop, a failure or a stall, workers that do not return within
 * STOP_GRACE_NS are left behind (crew_abandon) rather than joined. */
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
    uint64_t last_t = dmk_clock_ns(), last_b = 0, resumed = last_t, stop_seen = 0, stall_ns = 0;
    uint64_t watchdog_ns = c->n ? c->w[0].sched.watchdog_ns : 0;
    const DmkWorker *stalled = NULL;
    while (rc == DMK_OK && crew_running(c)) {
        dmk_sleep_ns(POLL_NS);
        uint64_t now = dmk_clock_ns(), b = crew_live_bytes(c);
        /* A poll far later than asked: this process did not run (SIGSTOP,
         * Ctrl+Z); that time is nobody's stall. */
        if (now - last_t > POLL_NS + DMK_PAUSE_MIN_NS)
            resumed = now;
        if (!stop_seen && atomic_load(&r->stop))
            stop_seen = now;
        if (!stop_seen && watchdog_ns &&
            (stalled = crew_stalled(c, now, resumed, watchdog_ns, &stall_ns)) != NULL) {
            rc = stall_error(c, stalled, now, stall_ns, err);
            atomic_store(&r->stop, 1);
            break;
        }
        if (stop_seen && now - stop_seen > STOP_GRACE_NS && crew_has_stuck(c, now, stop_seen))
            break;
        DmkProgress p = {0};
        p.mb_s = now > last_t ? (double)(b - last_b) / secs(now - last_t) / 1e6 : 0.0;
        p.test_bytes = b;
        last_t = now;
        last_b = b;
        stage(r, c, now, &p, ctx);
        emit(r, &p);
    }
    if (started < c->n) {
        /* A thread failed to start: those that did see the stop. */
        for (uint32_t i = started; i < c->n; i++)
            atomic_store(&c->w[i].finished, 1);
    }
    if (rc == DMK_E_TIMEOUT)
        tell_stall(r, err);
    bool back = crew_wait_grace(c, stop_seen ? stop_seen : dmk_clock_ns());
    if (rc == DMK_OK)
        rc = crew_result(r, c, err);
    if (rc == DMK_E_TIMEOUT)
        tell_stall(r, err); /* a worker's own watchdog */
    if (!back) {
        crew_abandon(r, c, dmk_clock_ns(), stalled != NULL, err);
        return rc;
    }
    /* A worker that left requests in flight on a backend whose queue_close
     * waits is not joined: its thread may not end before the drive
     * answers (io_uring: a thread's exit waits for the kernel's workers
     * it handed requests to, which a frozen file system holds). Its crew
     * is kept as a stuck one (crew_leave_inflight). */
    for (uint32_t i = 0; i < started; i++)
        if (!(r->be->close_waits && c->w[i].inflight_left))
            dmk_thread_join(c->w[i].thread);
    crew_leave_inflight(r, c, err);
    return rc;
}

/* ---- preparing the test file ------------------------------------------- */

/* A flush on a thread of its own, supervised as the workers are: fdatasync
 * on a frozen file system never returns either. */
typedef struct {
    DmkRunner *r;
    DmkThread *thread;
    atomic_int done;
    int rc;
    DmkError err;
} DmkGuardedSync;

static void sync_entry(void *arg)
{
    DmkGuardedSync *g = arg;
    g->rc = g->r->be->target_sync(g->r->target, &g->err);
    atomic_store(&g->done, 1);
}

/* Whether the flush has been given long enough: the watchdog time (from
 * the runner's own last pause on), or the grace after a stop. */
static bool sync_overdue(uint64_t now, uint64_t from, uint64_t stop_seen, uint64_t watchdog_ns)
{
    return stop_seen ? now - stop_seen > STOP_GRACE_NS : now - from > watchdog_ns;
}

/* The flush after the fill: a flush that does not return fails the run
 * after the watchdog time, and a stop waits for it only the grace; then
 * its thread is left behind like a stuck worker's. */
static int guarded_sync(DmkRunner *r, DmkError *err)
{
    DmkGuardedSync *g = calloc(1, sizeof *g);
    if (!g)
        return r->be->target_sync(r->target, err);
    g->r = r;
    atomic_init(&g->done, 0);
    if (dmk_thread_start(&g->thread, sync_entry, g, err) != DMK_OK) {
        free(g);
        return r->be->target_sync(r->target, err);
    }
    uint64_t t0 = dmk_clock_ns(), last = t0, from = t0, stop_seen = 0, emitted = t0;
    uint64_t watchdog_ns = to_ns(r->spec->watchdog_s);
    while (!atomic_load(&g->done)) {
        dmk_sleep_ns(POLL_NS / 5);
        uint64_t now = dmk_clock_ns();
        if (now - emitted >= POLL_NS) { /* still preparing: the fill is written */
            DmkProgress p = {.stage = DMK_STAGE_PREPARE, .fraction = 1.0};
            emit(r, &p);
            emitted = now;
        }
        if (now - last > POLL_NS + DMK_PAUSE_MIN_NS)
            from = now; /* this process did not run: nobody's stall */
        last = now;
        if (!stop_seen && atomic_load(&r->stop))
            stop_seen = now;
        if (!sync_overdue(now, from, stop_seen, watchdog_ns))
            continue;
        r->sync_left = g; /* kept: the thread still uses it and the target */
        if (stop_seen)
            return dmk_error_set(err, DMK_E_STOPPED, 0,
                                 "stopped by the user (flushing %s to the drive has not returned "
                                 "for %.1f s, so its thread was left behind; %s)",
                                 r->what, secs(now - t0), left_note(r));
        dmk_error_set(err, DMK_E_TIMEOUT, 0,
                      "flushing %s to the drive did not return for %.0f s; the file system may "
                      "be frozen or the drive hung. The run is not complete (its thread was left "
                      "behind; %s)",
                      r->what, secs(now - t0), left_note(r));
        tell_stall(r, err);
        return DMK_E_TIMEOUT;
    }
    dmk_thread_join(g->thread);
    int rc = g->rc;
    if (rc != DMK_OK)
        *err = g->err;
    free(g);
    return rc;
}

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
    DmkCrew *c = NULL;
    int rc = crew_init(r, &c, &t, &s, r->seed, err);
    if (rc == DMK_OK)
        rc = crew_run(r, c, fill_stage, NULL, err);
    if (rc == DMK_OK)
        rc = guarded_sync(r, err);
    if (rc != DMK_OK && rc != DMK_E_STOPPED && c && c->n) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        dmk_error_set(err, err->code, err->os_error, "preparing the test file failed: %.700s", msg);
    }
    if (!r->abandoned || r->abandoned != c)
        crew_destroy(c);
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

/* The pause that falsifies pass p (of len_ns measured), 0 for none: the
 * longest any worker saw (they all see a SIGSTOP), or, where short pauses
 * add up to more than DMK_PAUSE_SHARE_PCT of the pass, their sum (the
 * largest of the workers' sums, as each sees the same stops). */
static uint64_t crew_pause_ns(const DmkCrew *c, uint32_t p, uint64_t len_ns)
{
    uint64_t worst = 0, sum = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->w[i].pause_ns && c->w[i].pause_ns[p] > worst)
            worst = c->w[i].pause_ns[p];
        if (c->w[i].pause_sum_ns && c->w[i].pause_sum_ns[p] > sum)
            sum = c->w[i].pause_sum_ns[p];
    }
    if (sum * 100 > len_ns * DMK_PAUSE_SHARE_PCT && sum > worst)
        return sum;
    return worst;
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

/* A test that keeps its I/Os: every worker's, in one array (a surface
 * scan's accesses have one worker; more are simply appended). */
static int keep_samples(const DmkCrew *c, DmkTestResult *out)
{
    size_t n = 0;
    for (uint32_t i = 0; i < c->n; i++)
        n += c->w[i].kept_len;
    out->samples = n ? calloc(n, sizeof *out->samples) : NULL;
    if (n && !out->samples)
        return DMK_E_NOMEM;
    for (uint32_t i = 0; i < c->n; i++) {
        memcpy(out->samples + out->n_samples, c->w[i].kept,
               c->w[i].kept_len * sizeof *out->samples);
        out->n_samples += c->w[i].kept_len;
    }
    return DMK_OK;
}

static int finish_test(DmkRunner *r, const DmkCrew *c, DmkTestResult *out);

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
        out->passes[p].paused_s = secs(crew_pause_ns(c, p, to_ns(len)));
    }
    dmk_test_result_summarize(out);
    if (test->keep_ios)
        return keep_samples(c, out) == DMK_OK ? finish_test(r, c, out) : DMK_E_NOMEM;
    if (sched->timeline_ns)
        merge_timeline(r, c, secs(sched->timeline_ns), seconds, out);
    return finish_test(r, c, out);
}

static int finish_test(DmkRunner *r, const DmkCrew *c, DmkTestResult *out)
{
    out->achieved_qd = round(crew_qd(c) * pow(10, DMK_QD_DECIMALS)) / pow(10, DMK_QD_DECIMALS);
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
    sched.keep_ios = (t->keep_ios + threads - 1) / threads;
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
        r->be,    r->target,       &r->vpool, r->what,        to_ns(r->spec->watchdog_s),
        &r->stop, verify_progress, &vc,       &r->verify_left};
    r->verify_emit_ns = 0;
    verify_progress(0.0, &vc);
    int rc = dmk_verify_readback(&rd, maps, c->n, &out->verify, err);
    free(maps);
    if (rc == DMK_E_TIMEOUT)
        tell_stall(r, err);
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

/* A surface sample's place on the target, known only now that it is
 * open (its size and alignment): region_offset, and a sample larger
 * than the target cut to it. */
static void place_sample(const DmkRunner *r, DmkTest *t)
{
    if (!t->spread_count)
        return;
    uint64_t align = r->info.offset_align ? r->info.offset_align : 512;
    uint64_t len = dmk_surface_sample_len(r->size, t->limit_bytes, align);
    t->region_offset =
        dmk_surface_offset(r->size, t->limit_bytes, align, t->spread_index, t->spread_count);
    if (len < t->limit_bytes) {
        t->limit_bytes = len;
        t->jobs[0].block_size = (uint32_t)len;
    }
}

static int run_test(DmkRunner *r, size_t index, DmkTestResult *out, DmkError *err)
{
    const DmkRunSpec *s = r->spec;
    DmkTest test = s->tests[index];
    place_sample(r, &test);
    int rc = resolve_rate(r, &test, err);
    if (rc != DMK_OK)
        return rc;
    DmkSchedule sched = test_schedule(s, &test, r->size);
    DmkCrew *c = NULL;
    /* Workers are created (queues, buffers) before the clock starts. */
    rc = crew_init(r, &c, &test, &sched, r->seed ^ (uint64_t)(index + 1) << 32, err);
    if (rc == DMK_OK)
        rc = crew_verify_init(r, c, &test, index, err);
    if (rc != DMK_OK) {
        crew_destroy(c);
        return rc;
    }
    r->temps_len = 0;
    uint64_t t0 = dmk_clock_ns();
    for (uint32_t i = 0; i < c->n; i++) {
        c->w[i].sched.t_measure = t0 + to_ns(s->warmup_s);
        c->w[i].sched.t_end = sched.limit_ios && test.measure_s <= 0
                                  ? UINT64_MAX
                                  : c->w[i].sched.t_measure + sched.pass_ns * sched.n_passes;
    }
    sched = c->w[0].sched;
    DmkTestCtx ctx = {index, &test, &sched, t0, sched.limit_ios ? test.limit_bytes : 0};
    rc = crew_run(r, c, test_stage, &ctx, err);
    /* A crew left behind is still running: nothing of it is read. */
    bool left = r->abandoned == c;
    if (!left && (rc == DMK_OK || (rc == DMK_E_STOPPED && s->keep_partial))) {
        double secs_measured = measured_s(c, &sched, rc != DMK_OK);
        int crc = collect_test(r, c, &test, &sched, secs_measured, out);
        out->partial = rc != DMK_OK;
        if (crc != DMK_OK)
            rc =
                dmk_error_set(err, crc, 0, "out of memory collecting the results of %s", test.name);
    }
    if (rc == DMK_OK)
        rc = verify_test(r, c, index, out, err);
    if (!left)
        crew_destroy(c);
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
    snprintf(res->comment, sizeof res->comment, "%s", s->comment);
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
    DmkTargetParams params = {.dir = s->dir,
                              .size = s->size,
                              .stop = &r->stop,
                              .free_margin = s->free_margin,
                              .opts = &s->backend_opts};
    params.device = s->device;
    params.device_write = s->device && dmk_run_spec_writes(s);
    params.device_confirm = s->device_confirm;
    params.has_device_fd = s->has_device_fd;
    params.device_fd = s->device_fd;
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

/* A test that measured but then failed (its verify read-back stalled, say)
 * is not part of the result, which frees only its first n_tests. */
static void drop_test(DmkTestResult *t)
{
    free(t->passes);
    free(t->samples);
    memset(t, 0, sizeof *t);
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
        } else {
            drop_test(&res->tests[i]);
        }
        r->finished_s += planned;
        r->cur_planned_s = r->cur_left_s = 0;
    }
    res->complete = rc == DMK_OK;
    return rc;
}

const DmkBackend *dmk_runner_backend(const DmkRunner *r)
{
    return r->be;
}

const _Atomic int *dmk_runner_stop_flag(const DmkRunner *r)
{
    return &r->stop;
}

uint64_t dmk_runner_seed(const DmkRunner *r)
{
    return r->seed;
}

bool dmk_runner_stopping(const DmkRunner *r)
{
    return atomic_load(&((DmkRunner *)r)->stop) != 0;
}

void dmk_runner_lab_progress(DmkRunner *r, DmkStage stage, size_t test, double fraction,
                             uint64_t bytes, double mb_s, double left_s)
{
    const DmkRunSpec *s = r->spec;
    DmkProgress p = {.stage = stage,
                     .test_index = test,
                     .test = test < s->n_tests ? &s->tests[test] : NULL,
                     .pass = 1,
                     .fraction = fraction,
                     .mb_s = mb_s,
                     .test_bytes = bytes};
    /* The steps end by bytes: the run estimates what is left from them. */
    r->planned_s = left_s > 0 ? left_s : 0;
    r->finished_s = r->cur_planned_s = r->cur_left_s = 0;
    emit(r, &p);
}

/* A run's end for its caller: the descriptor it was given closed, the
 * result handed out (or freed when nobody asked for it). */
static void hand_over(DmkRunner *r, DmkRunResult *res, DmkRunResult **out)
{
    close_device_fd(r);
    r->res = NULL;
    if (out)
        *out = res;
    else
        dmk_run_result_free(res);
}

/* A lab test with its own run (the file sets): it fills res, and the
 * front end hears of the result as of any run. */
static int run_lab_own(DmkRunner *r, const DmkLabTest *lab, DmkRunResult *res, DmkError *err)
{
    if (r->be->in_memory && !lab->any_backend)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s works on real files in %s: the %s backend, which keeps nothing, "
                             "does not apply",
                             DMK_(lab->title), r->spec->dir, r->be->name);
    /* What the target is, and whether it is one to measure (RAM-backed
     * storage refused, FUSE noted), from a small test file of the
     * native backend's, removed again before the run. */
    DmkTargetParams params = {.dir = r->spec->dir,
                              .size = DMK_SIZE_MIN,
                              .stop = &r->stop,
                              .opts = &r->spec->backend_opts};
    DmkTarget *target = NULL;
    int rc = r->be->target_open(&params, &target, &r->info, err);
    if (rc != DMK_OK)
        return rc;
    r->be->target_close(target);
    res->target = r->info;
    res->size = r->spec->size;
    rc = lab->run(r, r->spec, res, err);
    res->complete = rc == DMK_OK && res->n_tests == r->spec->n_tests;
    if (r->cb && r->cb->measured)
        r->cb->measured(res, rc, r->cb->user_data);
    return rc;
}

double dmk_run_spec_planned_s(const DmkRunSpec *s)
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
    r->planned_s = dmk_run_spec_planned_s(s);
    r->finished_s = 0;
    snprintf(r->what, sizeof r->what, "%s %s", s->device ? "the device" : "the test file in",
             s->dir);
    if (out)
        *out = NULL;
    int rc = dmk_run_spec_validate(s, dmk_os_max_inflight(), err);
    DmkRunResult *res = rc == DMK_OK ? result_new(r) : NULL;
    if (rc == DMK_OK && !res)
        rc = dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the results");
    if (rc != DMK_OK) {
        close_device_fd(r);
        return rc;
    }
    r->res = res;
    const DmkLabTest *lab = dmk_lab_test(dmk_lab_from_name(s->lab));
    if (lab && lab->run) {
        rc = run_lab_own(r, lab, res, err);
        hand_over(r, res, out);
        return rc;
    }
    rc = prepare(r, res, err);
    if (rc == DMK_OK)
        rc = run_tests(r, res, err);
    /* Workers left behind still use the pools and the target: kept. */
    if (!left_behind(r)) {
        dmk_verify_pool_free(&r->vpool);
        dmk_pool_free(&r->pool);
    }
    if (r->cb && r->cb->measured)
        r->cb->measured(res, rc, r->cb->user_data);
    if (r->target && !left_behind(r)) {
        DmkProgress p = {.stage = DMK_STAGE_CLEANUP, .fraction = 1.0};
        emit(r, &p);
        r->be->target_close(r->target);
    }
    if (!left_behind(r))
        r->target = NULL;
    hand_over(r, res, out);
    return rc;
}
