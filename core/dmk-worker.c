/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-worker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long one reap waits before looking at the stop flag and the clock. */
#define REAP_TIMEOUT_NS 50000000ULL

int dmk_worker_init(DmkWorker *w, const DmkBackend *be, DmkTarget *target, const DmkJob *job,
                    const DmkPool *pool, uint64_t base, uint64_t span, uint64_t seed,
                    const DmkSchedule *sched, atomic_int *stop, const char *path, DmkError *err)
{
    memset(w, 0, sizeof *w);
    w->be = be;
    w->job = job;
    w->pool = pool;
    w->path = path;
    w->stop = stop;
    w->sched = *sched;
    w->depth = job->queue_depth;
    atomic_init(&w->finished, 0);
    atomic_init(&w->live_bytes, 0);
    atomic_init(&w->beat_ns, dmk_clock_ns());
    atomic_init(&w->call_kind, DMK_CALL_NONE);
    atomic_init(&w->call_op, DMK_OP_READ);
    atomic_init(&w->call_offset, 0);
    atomic_init(&w->call_len, 0);
    atomic_init(&w->call_since_ns, 0);
    dmk_offsets_init(&w->offs, job->pattern, base, span, job->block_size, seed);
    dmk_rng_seed(&w->rng, seed ^ 0x5a5a5a5a5a5a5a5aULL);
    dmk_mix_init(&w->mix, job->read_share);
    int rc = be->queue_open(target, w->depth, &w->q, err);
    if (rc != DMK_OK)
        return rc;
    size_t slots = (size_t)sched->n_passes * 2;
    w->ios = calloc(w->depth, sizeof *w->ios);
    w->pending = calloc(w->depth, sizeof *w->pending);
    w->done = calloc(w->depth, sizeof *w->done);
    w->idle = calloc(w->depth, sizeof *w->idle);
    w->period_ns = sched->rate_iops > 0 ? 1e9 / sched->rate_iops : 0.0;
    w->hist = slots ? malloc(slots * sizeof *w->hist) : NULL;
    w->bytes = slots ? calloc(slots, sizeof *w->bytes) : NULL;
    w->pause_ns = sched->n_passes ? calloc(sched->n_passes, sizeof *w->pause_ns) : NULL;
    w->pause_sum_ns = sched->n_passes ? calloc(sched->n_passes, sizeof *w->pause_sum_ns) : NULL;
    w->kept = sched->keep_ios ? calloc(sched->keep_ios, sizeof *w->kept) : NULL;
    /* A buffer per request where the job reads or writes keyed data;
     * writes of zeros point into the pool. */
    w->data_key = dmk_pool_key(seed ^ 0x3c6ef372fe94f82bULL);
    bool bufs = job->read_share || pool->keyed;
    size_t buf_bytes = bufs ? (size_t)w->depth * job->block_size : 0;
    w->bufs =
        buf_bytes ? dmk_aligned_alloc(pool->align < 4096 ? 4096 : pool->align, buf_bytes) : NULL;
    if (!w->ios || !w->pending || !w->done || !w->idle ||
        (slots && (!w->hist || !w->bytes || !w->pause_ns || !w->pause_sum_ns)) ||
        (buf_bytes && !w->bufs) || (sched->keep_ios && !w->kept))
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for a worker's I/O buffers");
    for (size_t i = 0; i < slots; i++)
        dmk_hist_reset(&w->hist[i]);
    for (uint32_t i = 0; i < w->depth; i++)
        w->ios[i].user = w->bufs ? w->bufs + (size_t)i * job->block_size : NULL;
    if (be->queue_memory) {
        be->queue_memory(w->q, w->bufs, buf_bytes);
        be->queue_memory(w->q, pool->data, pool->size);
    }
    return DMK_OK;
}

int dmk_worker_verify_init(DmkWorker *w, const DmkVerifyPool *vp, uint32_t test, uint32_t index,
                           DmkError *err)
{
    uint32_t bs = w->job->block_size;
    w->vmap = malloc(sizeof *w->vmap);
    if (!w->vmap)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the verify option's maps");
    int rc =
        dmk_verify_map_init(w->vmap, w->offs.base, w->offs.n_blocks * bs, bs, test, index, err);
    if (rc != DMK_OK) {
        free(w->vmap);
        w->vmap = NULL;
        return rc;
    }
    w->vpool = vp;
    if (!w->bufs) {
        uint32_t align = w->pool->align < 4096 ? 4096 : w->pool->align;
        w->bufs = dmk_aligned_alloc(align, (size_t)w->depth * bs);
        if (!w->bufs)
            return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for a worker's I/O buffers");
        for (uint32_t i = 0; i < w->depth; i++)
            w->ios[i].user = w->bufs + (size_t)i * bs;
        if (w->be->queue_memory)
            w->be->queue_memory(w->q, w->bufs, (size_t)w->depth * bs);
    }
    return DMK_OK;
}

void dmk_worker_destroy(DmkWorker *w)
{
    /* The kernel may still complete into its buffers, and destroying its
     * queue would wait for the drive: never freed (the runner keeps it). */
    if (w->inflight_left)
        return;
    if (w->vmap)
        dmk_verify_map_free(w->vmap);
    free(w->vmap);
    if (w->q)
        w->be->queue_close(w->q);
    free(w->ios);
    free(w->pending);
    free(w->done);
    free(w->idle);
    free(w->hist);
    free(w->bytes);
    free(w->pause_ns);
    free(w->pause_sum_ns);
    free(w->timeline);
    free(w->kept);
    dmk_aligned_free(w->bufs);
    memset(w, 0, sizeof *w);
}

/* A write's data: zeros straight from the pool; random data filled per
 * I/O into the request's own buffer, the pool XOR the next keys, so that
 * no two blocks of the run are alike (dmk-pool.h); with the verify
 * option, stamped with the block header and recorded in the map. */
static void write_data(DmkWorker *w, DmkIo *io)
{
    size_t off = dmk_pool_pick(w->pool, io->len, &w->rng);
    uint64_t key = w->data_key;
    w->data_key += dmk_pool_units(io->len) * DMK_POOL_KEY_STEP;
    if (w->vmap) {
        dmk_verify_stamp(w->vpool, w->vmap, io->user, io->offset, off, key);
        dmk_verify_issued(w->vmap, io->offset);
        io->buf = io->user;
    } else if (w->pool->keyed) {
        dmk_pool_fill(w->pool, io->user, off, io->len, key);
        io->buf = io->user;
    } else {
        io->buf = w->pool->data + off;
    }
}

static inline void prep_io(DmkWorker *w, DmkIo *io)
{
    bool read = dmk_mix_next(&w->mix, &w->rng);
    io->offset = dmk_offsets_next(&w->offs);
    io->len = w->job->block_size;
    io->op = read ? DMK_OP_READ : DMK_OP_WRITE;
    if (read)
        io->buf = io->user;
    else
        write_data(w, io);
    w->issued++;
}

static const char *op_name(const DmkIo *io)
{
    return io->op == DMK_OP_READ ? "reading" : "writing";
}

static int fail_io(DmkWorker *w, const DmkIo *io)
{
    const char *op = op_name(io);
    if (io->res >= 0)
        return dmk_error_set(&w->err, DMK_E_SHORT, 0,
                             "%s %u bytes at offset %llu of %s moved only %lld "
                             "bytes (short transfer)",
                             op, io->len, (unsigned long long)io->offset, w->path,
                             (long long)io->res);
    if (io->os_error)
        return dmk_error_os(&w->err, (int)io->res, io->os_error,
                            "%s %u bytes at offset %llu of %s failed", op, io->len,
                            (unsigned long long)io->offset, w->path);
    return dmk_error_set(&w->err, (int)io->res, 0,
                         "%s %u bytes at offset %llu of %s failed (error %lld)", op, io->len,
                         (unsigned long long)io->offset, w->path, (long long)io->res);
}

/* Grows the timeline to hold interval `idx`; off the hot path except once
 * per interval. Returns false when memory runs out (the timeline stops). */
static bool timeline_reserve(DmkWorker *w, size_t idx)
{
    if (idx < w->timeline_len)
        return true;
    if (idx >= w->timeline_cap) {
        size_t cap = w->timeline_cap ? w->timeline_cap * 2 : 256;
        while (cap <= idx)
            cap *= 2;
        DmkSlot *n = realloc(w->timeline, cap * sizeof *n);
        if (!n)
            return false;
        w->timeline = n;
        w->timeline_cap = cap;
    }
    memset(w->timeline + w->timeline_len, 0, (idx + 1 - w->timeline_len) * sizeof *w->timeline);
    w->timeline_len = idx + 1;
    return true;
}

/* One measured I/O as a sample of its own: when it completed, where it
 * went and how long it took (the surface scan's access times). */
static void keep_io(DmkWorker *w, const DmkIo *io, uint64_t now, uint64_t since)
{
    double lat_ns = (double)(now - io->submit_ns);
    if (lat_ns < 1)
        lat_ns = 1;
    w->kept[w->kept_len++] = (DmkSample){.t_s = (double)since / 1e9,
                                         .mb_s = io->len / (lat_ns / 1e3),
                                         .iops = 1e9 / lat_ns,
                                         .lat_mean_us = lat_ns / 1e3,
                                         .temp_c = NAN,
                                         .offset = (double)io->offset};
}

static void mark_written(DmkWorker *w, DmkIo **done, int n)
{
    for (int i = 0; i < n; i++)
        if (done[i]->op == DMK_OP_WRITE)
            dmk_verify_completed(w->vmap, done[i]->offset);
}

/* Counts a batch of completions reaped at `now` into the pass they
 * completed in; warm-up and overrun completions are checked, not counted. */
static int account_batch(DmkWorker *w, DmkIo **done, int n, uint64_t now)
{
    const DmkSchedule *s = &w->sched;
    uint64_t batch_bytes = 0;
    for (int i = 0; i < n; i++) {
        if (done[i]->res != (int64_t)done[i]->len)
            return fail_io(w, done[i]);
        batch_bytes += done[i]->len;
    }
    if (w->vmap)
        mark_written(w, done, n);
    w->completed += (uint64_t)n;
    /* Only this thread writes it: a relaxed load and store, no locked add. */
    uint64_t live = atomic_load_explicit(&w->live_bytes, memory_order_relaxed);
    atomic_store_explicit(&w->live_bytes, live + batch_bytes, memory_order_relaxed);
    if (s->uncounted || now < s->t_measure || now >= s->t_end)
        return DMK_OK;
    uint64_t since = now - s->t_measure;
    w->last_counted_ns = now;
    size_t pass = (size_t)(since / s->pass_ns);
    DmkHist *h = &w->hist[pass * 2];
    uint64_t *b = &w->bytes[pass * 2];
    for (int i = 0; i < n; i++) {
        dmk_hist_add(&h[done[i]->op], now - done[i]->submit_ns);
        b[done[i]->op] += done[i]->len;
    }
    for (int i = 0; i < n && w->kept_len < s->keep_ios; i++)
        keep_io(w, done[i], now, since);
    if (s->timeline_ns && timeline_reserve(w, (size_t)(since / s->timeline_ns))) {
        DmkSlot *slot = &w->timeline[since / s->timeline_ns];
        slot->ios += (uint64_t)n;
        slot->bytes += batch_bytes;
        for (int i = 0; i < n; i++)
            slot->lat_sum_ns += now - done[i]->submit_ns;
    }
    return DMK_OK;
}

/* Adds `inflight` requests x the time since the last stamp, clipped to
 * the measured part, to the achieved queue depth; called before each
 * change of inflight with the clock reading the loop takes anyway. */
static inline void qd_track(DmkWorker *w, uint64_t now, int inflight)
{
    const DmkSchedule *s = &w->sched;
    uint64_t from = w->qd_last_ns > s->t_measure ? w->qd_last_ns : s->t_measure;
    uint64_t to = now < s->t_end ? now : s->t_end;
    w->qd_last_ns = now;
    if (s->uncounted || to <= from)
        return;
    w->qd_area += (uint64_t)inflight * (to - from);
    w->qd_span_ns += to - from;
}

double dmk_worker_qd(const DmkWorker *w)
{
    return w->qd_span_ns ? (double)w->qd_area / (double)w->qd_span_ns : 0.0;
}

/* Tells the supervisor which call the loop is in and since when; relaxed
 * stores, a few per round trip, off any lock. */
static void publish_call(DmkWorker *w, DmkWorkerCall kind, const DmkIo *io, uint64_t now)
{
    if (io) {
        atomic_store_explicit(&w->call_op, io->op, memory_order_relaxed);
        atomic_store_explicit(&w->call_offset, io->offset, memory_order_relaxed);
        atomic_store_explicit(&w->call_len, io->len, memory_order_relaxed);
    }
    atomic_store_explicit(&w->call_since_ns, now, memory_order_relaxed);
    atomic_store_explicit(&w->call_kind, kind, memory_order_release);
}

/* The p99 latency measured so far (all passes, both directions): what
 * "far longer than the latency seen" is measured against. Only called
 * for a gap already over DMK_PAUSE_MIN_NS, so its cost does not matter. */
static uint64_t p99_so_far(const DmkWorker *w)
{
    uint64_t worst = 0;
    for (size_t i = 0; i < (size_t)w->sched.n_passes * 2; i++) {
        uint64_t v = w->hist[i].count ? dmk_hist_percentile(&w->hist[i], 99.0) : 0;
        worst = v > worst ? v : worst;
    }
    return worst;
}

/* The loop came back at `now` from a round that began at `prev` and was
 * allowed to wait `asked_ns`. A round far longer than both the wait and
 * the latency seen means that nothing was submitted or completed while
 * the process did not run (SIGSTOP, Ctrl+Z) or a call
 * blocked (a frozen file system): the passes it overlaps are marked, as
 * their numbers count that time. A long one (DMK_PAUSE_MIN_NS) marks them
 * by itself; shorter ones (DMK_PAUSE_SHORT_NS) are summed per pass, for
 * the runner to judge their share. Returns whether it was a long one. */
static bool note_gap(DmkWorker *w, uint64_t prev, uint64_t now, uint64_t asked_ns)
{
    atomic_store_explicit(&w->beat_ns, now, memory_order_relaxed);
    const DmkSchedule *s = &w->sched;
    uint64_t gap = now > prev ? now - prev : 0;
    if (gap <= asked_ns + DMK_PAUSE_SHORT_NS || s->uncounted || !w->pause_ns)
        return false;
    if (gap <= asked_ns + DMK_PAUSE_P99_FACTOR * p99_so_far(w))
        return false;
    bool long_one = gap > asked_ns + DMK_PAUSE_MIN_NS;
    uint64_t from = prev > s->t_measure ? prev : s->t_measure;
    uint64_t to = now < s->t_end ? now : s->t_end;
    if (to <= from)
        return long_one; /* in the warm-up or after the end: nothing measured */
    uint64_t first = (from - s->t_measure) / s->pass_ns,
             last = (to - 1 - s->t_measure) / s->pass_ns;
    for (uint64_t p = first; p <= last && p < s->n_passes; p++) {
        /* the part of the gap inside pass p */
        uint64_t p0 = s->t_measure + p * s->pass_ns, p1 = p0 + s->pass_ns;
        uint64_t in = (to < p1 ? to : p1) - (from > p0 ? from : p0);
        w->pause_sum_ns[p] += in;
        if (long_one && gap > w->pause_ns[p])
            w->pause_ns[p] = gap;
    }
    return long_one;
}

/* A failed submit, named as a failed I/O is: the backend's message says
 * what the OS said (io_submit's errno), not which file or request. */
static int submit_error(DmkWorker *w, int code)
{
    const DmkIo *io = w->pending[0];
    char why[sizeof w->err.msg];
    snprintf(why, sizeof why, "%s", w->err.msg);
    return dmk_error_set(&w->err, code, w->err.os_error,
                         "%s %u bytes at offset %llu of %s could not be "
                         "submitted: %.500s",
                         op_name(io), io->len, (unsigned long long)io->offset, w->path, why);
}

/* Hands the pending requests to the OS, stamping each with its submit
 * time; what the OS does not accept stays pending for the next round. */
static int submit_pending(DmkWorker *w, int *n_pending, int *inflight)
{
    if (*n_pending == 0)
        return DMK_OK;
    uint64_t now = dmk_clock_ns();
    for (int i = 0; i < *n_pending; i++)
        w->pending[i]->submit_ns = now;
    publish_call(w, DMK_CALL_SUBMIT, w->pending[0], now);
    int k = w->be->submit(w->q, w->pending, *n_pending, &w->err);
    /* DMK_E_AGAIN means "try again later" (dmk-error.h): the push-back
     * that a return of 0 also means, not a failure. */
    if (k == DMK_E_AGAIN)
        k = 0;
    if (k < 0)
        return submit_error(w, k);
    if (k > 0)
        qd_track(w, now, *inflight);
    if (k > 0 && k < *n_pending)
        memmove(w->pending, w->pending + k, (size_t)(*n_pending - k) * sizeof *w->pending);
    *n_pending -= k;
    *inflight += k;
    return DMK_OK;
}

static bool should_issue(const DmkWorker *w, uint64_t now)
{
    if (atomic_load_explicit(w->stop, memory_order_relaxed))
        return false;
    if (w->sched.limit_ios && w->issued >= w->sched.limit_ios)
        return false;
    return w->sched.limit_ios || now < w->sched.t_end;
}

/* How many of the n_idle free requests may go out now. Unlimited: all.
 * Rate-limited: those whose evenly spaced due times have come. A worker
 * that fell behind (the drive is slower than the rate) catches up by at
 * most 4 ms worth, so it never fires a burst that the rate
 * would not have. */
static int issue_count(DmkWorker *w, uint64_t now, int n_idle)
{
    int n = n_idle;
    if (w->sched.limit_ios && (uint64_t)n > w->sched.limit_ios - w->issued)
        n = (int)(w->sched.limit_ios - w->issued);
    if (w->period_ns <= 0.0 || n == 0)
        return n;
    double t = (double)now, cap = w->period_ns * 4 > 4e6 ? w->period_ns * 4 : 4e6;
    if (w->next_due < t - cap)
        w->next_due = t - cap;
    if (w->next_due > t)
        return 0;
    double due = floor((t - w->next_due) / w->period_ns) + 1.0;
    if (due < (double)n)
        n = (int)due;
    w->next_due += w->period_ns * n;
    return n;
}

/* How long to wait for completions before looking again: until the next
 * rate-limited I/O is due when a request is free for it. */
static uint64_t wait_ns(const DmkWorker *w, uint64_t now, int n_idle)
{
    if (w->period_ns <= 0.0 || n_idle == 0 || !should_issue(w, now))
        return REAP_TIMEOUT_NS;
    double left = w->next_due - (double)now;
    if (left <= 0)
        return 0;
    /* Rounded up: a wait that ended a fraction of a nanosecond before the
     * due time would find nothing due and wait 0 ns again, for ever on a
     * clock that moves only while everyone waits (dmk_clock_simulate). */
    return left < (double)REAP_TIMEOUT_NS ? (uint64_t)ceil(left) : REAP_TIMEOUT_NS;
}

static bool listed(DmkIo *const *list, int n, const DmkIo *io)
{
    for (int i = 0; i < n; i++)
        if (list[i] == io)
            return true;
    return false;
}

/* The request in flight the longest: neither free nor waiting to go out.
 * Only the watchdog's message needs it, so a plain scan, off the hot path. */
static const DmkIo *oldest_inflight(const DmkWorker *w, int n_idle, int n_pending)
{
    const DmkIo *old = NULL;
    for (uint32_t i = 0; i < w->depth; i++) {
        const DmkIo *io = &w->ios[i];
        if (listed(w->idle, n_idle, io) || listed(w->pending, n_pending, io))
            continue;
        if (!old || io->submit_ns < old->submit_ns)
            old = io;
    }
    return old;
}

/* The watchdog's error names the request the drive has held the longest
 * or, holding none, the one it keeps refusing: which operation and
 * offset hung is what a user (or a bug report) needs. */
static int watchdog_error(DmkWorker *w, int inflight, int n_idle, int n_pending)
{
    const DmkIo *io = inflight ? oldest_inflight(w, n_idle, n_pending) : NULL;
    double wd_s = (double)w->sched.watchdog_ns / 1e9;
    if (io)
        return dmk_error_set(&w->err, DMK_E_TIMEOUT, 0,
                             "no I/O completed for %.0f s on %s: %s %u bytes at "
                             "offset %llu was submitted %.1f s ago and has not completed (%d "
                             "request%s in flight); the drive stopped responding",
                             wd_s, w->path, op_name(io), io->len, (unsigned long long)io->offset,
                             (double)(dmk_clock_ns() - io->submit_ns) / 1e9, inflight,
                             inflight == 1 ? "" : "s");
    if (n_pending)
        return dmk_error_set(&w->err, DMK_E_TIMEOUT, 0,
                             "no I/O completed for %.0f s on %s: the drive kept "
                             "refusing %d requests, the first %s %u bytes at offset %llu; the "
                             "drive stopped responding",
                             wd_s, w->path, n_pending, op_name(w->pending[0]), w->pending[0]->len,
                             (unsigned long long)w->pending[0]->offset);
    return dmk_error_set(&w->err, DMK_E_TIMEOUT, 0,
                         "no I/O completed for %.0f s on %s (%d requests in "
                         "flight); the drive stopped responding",
                         wd_s, w->path, inflight);
}

/* How long after its last completion a stopped worker still waits for
 * what it has in flight: a few seconds, or 50 times the p99 latency of a
 * slow drive, but never the whole watchdog (a stop must not wait for a
 * hung drive; the requests are then left to the OS, inflight_left). */
static uint64_t stop_wait_ns(const DmkWorker *w)
{
    uint64_t ns = DMK_PAUSE_P99_FACTOR * p99_so_far(w);
    ns = ns > DMK_DRAIN_STOP_NS ? ns : DMK_DRAIN_STOP_NS;
    return ns < w->sched.watchdog_ns ? ns : w->sched.watchdog_ns;
}

/* Whether a stopped worker has waited long enough for what it has in
 * flight: no completion for stop_wait_ns, or DMK_DRAIN_STOP_NS since it
 * saw the stop at all. The second bounds the whole drain: a slow drive
 * that keeps answering (a USB stick at 20 random-write IOPS with 512
 * requests in flight needs 25 s) must not hold the stop past the
 * runner's grace and the CLI's guard, which would lose the finished
 * tests' results. What is still in flight is left to the OS. */
static bool stop_waited(const DmkWorker *w, uint64_t *stop_ns, uint64_t now, uint64_t last)
{
    if (!atomic_load_explicit(w->stop, memory_order_relaxed))
        return false;
    if (!*stop_ns)
        *stop_ns = now;
    return now - *stop_ns > DMK_DRAIN_STOP_NS || now - last > stop_wait_ns(w);
}

/* Waits for what is still in flight so its buffers can be freed; bounded
 * by the watchdog counted from the last completion, so that a run the
 * watchdog ended does not wait a second watchdog time, and after a stop
 * by stop_waited. What is still in flight then is left to the OS
 * (inflight_left). Errors here are ignored: the run is over. */
static void drain(DmkWorker *w, int inflight, uint64_t last, uint64_t stop_ns)
{
    while (inflight > 0) {
        DmkError ignored;
        int n = w->be->reap(w->q, 1, inflight, REAP_TIMEOUT_NS, w->done, &ignored);
        uint64_t now = dmk_clock_ns();
        if (n < 0)
            break;
        if (n > 0)
            last = now;
        inflight -= n;
        if (stop_waited(w, &stop_ns, now, last) || (n == 0 && now - last > w->sched.watchdog_ns))
            break;
        atomic_store_explicit(&w->beat_ns, now, memory_order_relaxed);
    }
    w->inflight_left = inflight;
}

/* Prepares what may go out now from the free requests and submits it. */
static int issue(DmkWorker *w, uint64_t now, int *n_idle, int *n_pending, int *inflight)
{
    int k = issue_count(w, now, *n_idle);
    for (int i = 0; i < k; i++) {
        DmkIo *io = w->idle[--*n_idle];
        prep_io(w, io);
        w->pending[(*n_pending)++] = io;
    }
    return submit_pending(w, n_pending, inflight);
}

/* Nothing in flight: wait for the next due time, or for the OS to take
 * requests again after pushing back. Idling for a rate is no sign of a
 * stuck drive, but refusing every request for the watchdog time is. */
static int pause_idle(DmkWorker *w, uint64_t *now, uint64_t *last_done, int n_idle, int n_pending)
{
    uint64_t ns = n_pending ? 100000 : wait_ns(w, *now, n_idle), prev = *now;
    if (ns)
        dmk_sleep_ns(ns);
    *now = dmk_clock_ns();
    if (note_gap(w, prev, *now, ns))
        *last_done = *now; /* the pause is not the drive's: the watchdog starts again */
    if (n_pending == 0)
        *last_done = *now;
    else if (*now - *last_done > w->sched.watchdog_ns)
        return watchdog_error(w, 0, n_idle, n_pending);
    return DMK_OK;
}

/* Whether requests prepared but pushed back still go out once no new ones
 * may: yes in a test that ends by count (the fill, the full-span write),
 * which counted them as issued and must do every one; no at the end of a
 * timed test or after a stop. */
static bool flush_pending(const DmkWorker *w, int n_pending)
{
    return n_pending && w->sched.limit_ios && !atomic_load_explicit(w->stop, memory_order_relaxed);
}

/* Nothing more goes out: the pending requests are free again. */
static void drop_pending(DmkWorker *w, int *n_idle, int *n_pending)
{
    while (*n_pending)
        w->idle[(*n_idle)++] = w->pending[--*n_pending];
}

static int io_loop(DmkWorker *w)
{
    int inflight = 0, n_pending = 0, n_idle = 0, rc = DMK_OK;
    for (uint32_t i = 0; i < w->depth; i++)
        w->idle[n_idle++] = &w->ios[i];
    uint64_t now = dmk_clock_ns(), last_done = now, stop_ns = 0;
    w->next_due = (double)now;
    for (;;) {
        if (should_issue(w, now))
            rc = issue(w, now, &n_idle, &n_pending, &inflight);
        else if (flush_pending(w, n_pending))
            rc = submit_pending(w, &n_pending, &inflight);
        else
            drop_pending(w, &n_idle, &n_pending);
        if (rc != DMK_OK)
            break;
        if (inflight == 0) {
            if (n_pending == 0 && !should_issue(w, now))
                break;
            rc = pause_idle(w, &now, &last_done, n_idle, n_pending);
            if (rc != DMK_OK)
                break;
            continue;
        }
        uint64_t asked = wait_ns(w, now, n_idle), prev = now;
        publish_call(w, DMK_CALL_REAP, NULL, now);
        int n = w->be->reap(w->q, 1, inflight, asked, w->done, &w->err);
        if (n < 0) {
            rc = n;
            break;
        }
        now = dmk_clock_ns();
        atomic_store_explicit(&w->call_kind, DMK_CALL_NONE, memory_order_relaxed);
        if (note_gap(w, prev, now, asked))
            last_done = now; /* the pause is not the drive's: the watchdog starts again */
        if (n > 0)
            qd_track(w, now, inflight);
        inflight -= n;
        if (n > 0) {
            last_done = now;
            rc = account_batch(w, w->done, n, now);
            for (int i = 0; i < n; i++)
                w->idle[n_idle++] = w->done[i];
        } else if (now - last_done > w->sched.watchdog_ns) {
            rc = watchdog_error(w, inflight, n_idle, n_pending);
        }
        if (rc != DMK_OK)
            break;
        if (inflight && stop_waited(w, &stop_ns, now, last_done))
            break; /* stopped, and the drive holds the rest: left to the OS */
    }
    drain(w, inflight, last_done, stop_ns);
    return rc;
}

void dmk_worker_run(DmkWorker *w)
{
    atomic_store(&w->beat_ns, dmk_clock_ns());
    w->rc = io_loop(w);
    if (w->rc != DMK_OK)
        atomic_store(w->stop, 1); /* one failure ends the whole test */
    atomic_store(&w->finished, 1);
}
