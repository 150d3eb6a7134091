/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The null backend (dmk-null.h): requests complete in memory, at once or
 * after a fixed latency, and no byte reaches a disk. It measures what the
 * engine itself costs per I/O and makes unit tests of the core
 * deterministic. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-null.h"
#include "dmk-i18n.h"
#include "dmk-null-queue.h"
#include "dmk-size.h"
#include "dmk-target-rules.h"

/* The simulated drive (DmkNullSim): a write cache that fills with every
 * byte written and drains while idle, a temperature that rises with
 * bytes written, cools with time, and throttles at its maximum, and a
 * write rate that serves writes one after another. */
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
    uint64_t write_done; /* write_bytes_s: when the last write accepted completes */
} DmkSimDrive;

struct DmkTarget {
    uint64_t latency_ns;
    uint64_t serve_ns; /* DmkNullOpts.serve_ns */
    uint64_t size;
    bool sim_on;
    DmkSimDrive sim;
};

struct DmkQueue {
    DmkTarget *target;
    DmkNullFifo q;
};

int dmk_null_target_size(const DmkTargetParams *p, uint64_t *size, DmkError *err)
{
    *size = p->size;
    return p->size ? DMK_OK : dmk_target_size(p, 64ULL << 30, 0, size, err);
}

static int null_target_open(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                            DmkError *err)
{
    DmkTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    const DmkNullOpts *o = dmk_null_opts_get(p->opts);
    t->latency_ns = o->latency_ns;
    t->serve_ns = o->serve_ns;
    /* No disk, so any size fits; the full span takes the free space of a
     * simulated 64 GiB drive, by the rule the real targets follow. */
    int rc = dmk_null_target_size(p, &t->size, err);
    if (rc != DMK_OK) {
        free(t);
        return rc;
    }
    if (o->sim.cache_bytes || o->sim.bytes_per_c || o->sim.write_bytes_s) {
        t->sim_on = true;
        t->sim.cfg = o->sim;
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
    if (!q)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    if (dmk_null_fifo_init(&q->q, depth, t->latency_ns, t->serve_ns, err) != DMK_OK) {
        free(q);
        return DMK_E_NOMEM;
    }
    q->target = t;
    *out = q;
    return DMK_OK;
}

static void null_queue_close(DmkQueue *q)
{
    if (q)
        dmk_null_fifo_free(&q->q);
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

/* The bytes a batch writes: what fills the cache and warms the drive. */
static uint64_t batch_written(DmkIo **ios, int n)
{
    uint64_t written = 0;
    for (int i = 0; i < n; i++)
        written += ios[i]->op == DMK_OP_WRITE ? ios[i]->len : 0;
    return written;
}

/* A write under the write rate (DmkNullSim.write_bytes_s) starts when the
 * drive finished the one before (or at its submit, when idle) and takes
 * len / rate, times the cache's or the heat's slow-down; a read takes the
 * latency. Called with the lock held. */
static uint64_t paced_latency(DmkQueue *q, const DmkIo *io, double factor)
{
    DmkSimDrive *d = &q->target->sim;
    if (io->op != DMK_OP_WRITE || !d->cfg.write_bytes_s)
        return (uint64_t)((double)q->q.latency_ns * factor);
    uint64_t start = d->write_done > io->submit_ns ? d->write_done : io->submit_ns;
    double ns = (double)io->len * 1e9 * factor / (double)d->cfg.write_bytes_s;
    d->write_done = start + (uint64_t)(ns + 0.5);
    return d->write_done - io->submit_ns;
}

/* The simulated drive's submit: its state advanced by the batch's bytes,
 * each request due when the drive would finish it. The queue still
 * completes in submit order, so a read behind a write waits for it. */
static int sim_submit(DmkQueue *q, DmkIo **ios, int n)
{
    DmkTarget *t = q->target;
    int room = (int)(q->q.depth - q->q.count), accepted = 0;
    sim_lock(&t->sim);
    double factor = sim_advance(&t->sim, dmk_clock_ns(), batch_written(ios, n < room ? n : room));
    while (accepted < n && q->q.count < q->q.depth) {
        DmkIo *io = ios[accepted++];
        dmk_null_fifo_push(&q->q, io, paced_latency(q, io, factor));
    }
    sim_unlock(&t->sim);
    return accepted;
}

static int null_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    (void)err;
    /* The plain null backend's loop is the engine's overhead measurement:
     * one test of sim_on, as before, then the pushes. */
    if (q->target->sim_on)
        return sim_submit(q, ios, n);
    int accepted = 0;
    while (accepted < n && q->q.count < q->q.depth)
        dmk_null_fifo_push(&q->q, ios[accepted++], q->q.latency_ns);
    return accepted;
}

static int null_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done,
                     DmkError *err)
{
    (void)err;
    bool timed = q->q.latency_ns || q->q.serve_ns;
    return dmk_null_fifo_reap(&q->q, min, max, timeout_ns, !timed, done, NULL, NULL);
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

/* ---- options ------------------------------------------------------------ */

/* The help lines are shown by drivemark-cli --help, translated there. */
static const DmkBackendOption null_options[] = {
    /* TRANSLATORS: US, SIZE and N (here and in the null backend's other options) are the
     * option's value as --help names it: keep them. */
    {"latency", "US", DMK_N_("each I/O completes after US microseconds")},
    {"serve", "US",
     DMK_N_("each queue answers one request at a time, US microseconds apart (a slow drive)")},
    {"cache", "SIZE",
     DMK_N_("simulate a write cache of SIZE that slows writes 4x once full and empties in 5 s of "
            "idle")},
    {"thermal", "SIZE",
     DMK_N_("simulate a sensor, 1 C warmer per SIZE written, throttling at 80 C")},
    {"slow", "N", DMK_N_("the slow-down past the cache and while throttled (default: 4)")},
    {NULL, NULL, NULL},
};

static bool holds_null_opts(const DmkBackendOpts *o)
{
    return o && (strcmp(o->backend, "null") == 0 || strcmp(o->backend, "fault") == 0);
}

DmkNullOpts *dmk_null_opts(DmkBackendOpts *opts)
{
    _Static_assert(sizeof(DmkNullOpts) <= DMK_BACKEND_OPTS_SIZE, "DmkBackendOpts is too small");
    if (!holds_null_opts(opts)) {
        memset(opts, 0, sizeof *opts);
        snprintf(opts->backend, sizeof opts->backend, "null");
    }
    return (DmkNullOpts *)(void *)opts->data;
}

const DmkNullOpts *dmk_null_opts_get(const DmkBackendOpts *opts)
{
    static const DmkNullOpts defaults;
    return holds_null_opts(opts) ? (const DmkNullOpts *)(const void *)opts->data : &defaults;
}

/* A latency in whole microseconds, up to 10 s, kept in ns. */
static int parse_us(const char *what, const char *v, uint64_t *ns, DmkError *err)
{
    uint64_t us;
    int rc = dmk_parse_uint_range(what, v, 0, 10000000, &us, err);
    if (rc == DMK_OK)
        *ns = us * 1000;
    return rc;
}

/* A simulated drive slows down 4-fold unless --null-slow says otherwise;
 * a cache empties in 5 s of idle. */
static int parse_sim(DmkNullSim *sim, const char *key, const char *v, const char *what,
                     DmkError *err)
{
    uint64_t n;
    int rc;
    if (strcmp(key, "slow") == 0) {
        rc = dmk_parse_uint_range(what, v, 1, 1000, &n, err);
        if (rc == DMK_OK)
            sim->slow_factor = (uint32_t)n;
        return rc;
    }
    if (strcmp(key, "cache") == 0) {
        rc = dmk_parse_size_range(what, v, 1ULL << 20, 1ULL << 50, &sim->cache_bytes, err);
        sim->drain_s = sim->drain_s == 0 ? 5 : sim->drain_s;
    } else {
        rc = dmk_parse_size_range(what, v, 4096, 1ULL << 40, &sim->bytes_per_c, err);
    }
    sim->slow_factor = sim->slow_factor ? sim->slow_factor : 4;
    return rc;
}

static int null_parse_option(DmkBackendOpts *opts, const char *key, const char *value,
                             const char *what, DmkError *err)
{
    DmkNullOpts *o = dmk_null_opts(opts);
    if (strcmp(key, "latency") == 0)
        return parse_us(what, value, &o->latency_ns, err);
    if (strcmp(key, "serve") == 0)
        return parse_us(what, value, &o->serve_ns, err);
    return parse_sim(&o->sim, key, value, what, err);
}

const DmkBackend dmk_backend_null_desc = {
    .name = "null",
    .description = DMK_N_("no disk I/O: measures the engine itself"),
    .in_memory = true,
    .options = null_options,
    .parse_option = null_parse_option,
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
    return &dmk_backend_null_desc;
}
