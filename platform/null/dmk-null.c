/* The null backend: requests complete in memory, at once or after a fixed
 * latency, and no byte reaches a disk. It measures what the engine itself
 * costs per I/O and makes unit tests of the core deterministic. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-platform.h"

/* The simulated drive (DmkNullSim): a write cache that fills with every
 * byte written and drains while idle, and a temperature that rises with
 * bytes written, cools with time, and throttles at its maximum. */
#define SIM_AMBIENT_C    40.0
#define SIM_MAX_C        80.0
#define SIM_RELEASE_C    77.0 /* throttling ends below this */
#define SIM_COOL_C_PER_S 2.0

typedef struct {
    atomic_flag lock; /* queues of several threads share the drive */
    DmkNullSim cfg;
    uint64_t t_last; /* dmk_clock_ns() of the last update */
    double cache_used;
    double temp_c;
    bool throttled;
} DmkSimDrive;

struct DmkTarget {
    uint64_t latency_ns;
    uint64_t serve_ns; /* DmkTargetParams.null_serve_ns */
    uint64_t size;
    bool sim_on;
    DmkSimDrive sim;
};

struct DmkQueue {
    DmkTarget *target;
    uint64_t last_due; /* completions stay in submit order */
    uint64_t latency_ns;
    uint64_t serve_ns;
    unsigned depth;
    unsigned head, count; /* FIFO of in-flight requests, in submit order */
    DmkIo **fifo;
};

static int null_target_open(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                            DmkError *err)
{
    DmkTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    t->latency_ns = p->null_latency_ns;
    t->serve_ns = p->null_serve_ns;
    /* No disk, so any size fits; the full span takes the free space of a
     * simulated 64 GiB drive, by the rule the real targets follow. */
    t->size = p->size;
    int rc = p->size ? DMK_OK : dmk_target_size(p, 64ULL << 30, 0, &t->size, err);
    if (rc != DMK_OK) {
        free(t);
        return rc;
    }
    if (p->null_sim && (p->null_sim->cache_bytes || p->null_sim->bytes_per_c)) {
        t->sim_on = true;
        t->sim.cfg = *p->null_sim;
        if (t->sim.cfg.slow_factor < 1)
            t->sim.cfg.slow_factor = 1;
        t->sim.temp_c = SIM_AMBIENT_C;
        t->sim.t_last = dmk_clock_ns();
        atomic_flag_clear(&t->sim.lock);
    }
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    snprintf(info->fs_type, sizeof info->fs_type, "null");
    snprintf(info->model, sizeof info->model, "Null backend (no I/O)");
    info->test_size = t->size;
    info->capacity_bytes = t->size;
    info->fs_size_bytes = t->size;
    info->fs_free_bytes = t->size;
    info->discard = -1;
    if (t->sim_on && t->sim.cfg.bytes_per_c)
        snprintf(info->temp_sensor, sizeof info->temp_sensor, "simulated sensor (null backend)");
    info->mem_align = 512;
    info->offset_align = 512;
    *out = t;
    return DMK_OK;
}

static void null_target_close(DmkTarget *t)
{
    free(t);
}

static int null_target_sync(DmkTarget *t, DmkError *err)
{
    (void)t;
    (void)err;
    return DMK_OK;
}

static int null_queue_open(DmkTarget *t, unsigned depth, DmkQueue **out, DmkError *err)
{
    DmkQueue *q = calloc(1, sizeof *q);
    if (q)
        q->fifo = calloc(depth, sizeof *q->fifo);
    if (!q || !q->fifo) {
        free(q);
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    }
    q->latency_ns = t->latency_ns;
    q->serve_ns = t->serve_ns;
    q->target = t;
    q->depth = depth;
    *out = q;
    return DMK_OK;
}

static void null_queue_close(DmkQueue *q)
{
    if (q)
        free(q->fifo);
    free(q);
}

static void sim_lock(DmkSimDrive *d)
{
    while (atomic_flag_test_and_set_explicit(&d->lock, memory_order_acquire))
        ;
}

static void sim_unlock(DmkSimDrive *d)
{
    atomic_flag_clear_explicit(&d->lock, memory_order_release);
}

/* Advances the drive to `now` with `written` more bytes; returns the
 * latency factor for requests submitted now. Called with the lock held. */
static double sim_advance(DmkSimDrive *d, uint64_t now, uint64_t written)
{
    double dt = now > d->t_last ? (double)(now - d->t_last) / 1e9 : 0.0;
    d->t_last = now > d->t_last ? now : d->t_last;
    const DmkNullSim *c = &d->cfg;
    double factor = 1.0;
    if (c->cache_bytes) {
        double drain = c->drain_s > 0 ? (double)c->cache_bytes / c->drain_s * dt : 0.0;
        d->cache_used = d->cache_used - drain > 0 ? d->cache_used - drain : 0.0;
        /* A full cache passes writes straight to (slow) flash: it never
         * holds more than its size, so idle time frees room at once. */
        if (written && d->cache_used + (double)written > (double)c->cache_bytes)
            factor *= c->slow_factor;
        d->cache_used += (double)written;
        if (d->cache_used > (double)c->cache_bytes)
            d->cache_used = (double)c->cache_bytes;
    }
    if (c->bytes_per_c) {
        d->temp_c -= SIM_COOL_C_PER_S * dt;
        d->temp_c += (double)written / (double)c->bytes_per_c;
        d->temp_c = d->temp_c < SIM_AMBIENT_C ? SIM_AMBIENT_C : d->temp_c;
        d->temp_c = d->temp_c > SIM_MAX_C ? SIM_MAX_C : d->temp_c;
        if (d->temp_c >= SIM_MAX_C)
            d->throttled = true;
        else if (d->temp_c < SIM_RELEASE_C)
            d->throttled = false;
        if (d->throttled)
            factor *= c->slow_factor;
    }
    return factor;
}

/* Each request's due time, kept in its private area. */
static uint64_t *due_of(DmkIo *io)
{
    return (uint64_t *)(void *)io->priv;
}

static uint64_t batch_latency(DmkQueue *q, DmkIo **ios, int n)
{
    DmkTarget *t = q->target;
    if (!t->sim_on)
        return q->latency_ns;
    uint64_t written = 0;
    for (int i = 0; i < n; i++)
        written += ios[i]->op == DMK_OP_WRITE ? ios[i]->len : 0;
    sim_lock(&t->sim);
    double factor = sim_advance(&t->sim, dmk_clock_ns(), written);
    sim_unlock(&t->sim);
    return (uint64_t)((double)q->latency_ns * factor);
}

static int null_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    (void)err;
    int accepted = 0;
    int room = (int)(q->depth - q->count);
    uint64_t lat = batch_latency(q, ios, n < room ? n : room);
    while (accepted < n && q->count < q->depth) {
        unsigned tail = (q->head + q->count) % q->depth;
        DmkIo *io = ios[accepted++];
        uint64_t due = io->submit_ns + lat;
        if (q->serve_ns && q->last_due + q->serve_ns > due)
            due = q->last_due + q->serve_ns; /* served one at a time */
        q->last_due = due > q->last_due ? due : q->last_due;
        *due_of(io) = q->last_due;
        q->fifo[tail] = io;
        q->count++;
    }
    return accepted;
}

/* With a fixed latency, submit order is completion order: the head of the
 * FIFO is always the next one due. */
static bool head_due(const DmkQueue *q, uint64_t now)
{
    return q->count && *due_of(q->fifo[q->head]) <= now;
}

static void wait_for_head(const DmkQueue *q, uint64_t deadline)
{
    uint64_t due = *due_of(q->fifo[q->head]);
    dmk_wait_until_ns(due < deadline ? due : deadline);
}

static int null_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done,
                     DmkError *err)
{
    (void)err;
    int n = 0;
    bool timed = q->latency_ns || q->serve_ns;
    uint64_t now = timed ? dmk_clock_ns() : 0;
    uint64_t deadline = now + timeout_ns;
    while (n < max && q->count) {
        if (timed && !head_due(q, now)) {
            if (n >= min || now >= deadline)
                break;
            wait_for_head(q, deadline);
            now = dmk_clock_ns();
            continue;
        }
        DmkIo *io = q->fifo[q->head];
        q->head = (q->head + 1) % q->depth;
        q->count--;
        io->res = io->len;
        io->os_error = 0;
        done[n++] = io;
    }
    return n;
}

static int null_temperature(DmkTarget *t, double *celsius)
{
    if (!t->sim_on || !t->sim.cfg.bytes_per_c)
        return DMK_E_NOTSUP;
    sim_lock(&t->sim);
    sim_advance(&t->sim, dmk_clock_ns(), 0);
    double c = t->sim.temp_c;
    sim_unlock(&t->sim);
    *celsius = (double)(long)(c + 0.5); /* whole degrees, as drives report */
    return DMK_OK;
}

static int null_trim(DmkTarget *t, DmkTrimReport *rep, DmkError *err)
{
    (void)err;
    memset(rep, 0, sizeof *rep);
    rep->punched_bytes = t->size;
    if (t->sim_on) {
        sim_lock(&t->sim);
        t->sim.cache_used = 0;
        sim_unlock(&t->sim);
    }
    snprintf(rep->note, sizeof rep->note,
             "TRIM: the null backend's simulated drive forgot all %llu bytes of the test file "
             "(its write cache is empty again); no file system to trim.",
             (unsigned long long)t->size);
    return DMK_OK;
}

static const DmkBackend null_backend = {
    .name = "null",
    .target_open = null_target_open,
    .target_close = null_target_close,
    .target_sync = null_target_sync,
    .queue_open = null_queue_open,
    .queue_close = null_queue_close,
    .submit = null_submit,
    .reap = null_reap,
    .target_temperature = null_temperature,
    .target_trim = null_trim,
};

const DmkBackend *dmk_backend_null(void)
{
    return &null_backend;
}
