/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The null backend's queue, shared with the fault backend that wraps it:
 * a FIFO of in-flight requests, each due a fixed latency after its
 * submit (and, with serve_ns, one at a time), completed in submit order.
 * Inline, so the null backend's submit and reap compile to the loops they
 * always were: they are the engine's overhead measurement. */
#ifndef DMK_NULL_QUEUE_H
#define DMK_NULL_QUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "dmk-platform.h"

typedef struct {
    uint64_t last_due; /* completions stay in submit order */
    uint64_t latency_ns;
    uint64_t serve_ns;
    unsigned depth;
    unsigned head, count; /* FIFO of in-flight requests, in submit order */
    DmkIo **fifo;
} DmkNullFifo;

static inline int dmk_null_fifo_init(DmkNullFifo *f, unsigned depth, uint64_t latency_ns,
                                     uint64_t serve_ns, DmkError *err)
{
    *f = (DmkNullFifo){.latency_ns = latency_ns, .serve_ns = serve_ns, .depth = depth};
    f->fifo = calloc(depth, sizeof *f->fifo);
    if (!f->fifo)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    return DMK_OK;
}

static inline void dmk_null_fifo_free(DmkNullFifo *f)
{
    free(f->fifo);
}

/* Each request's due time, kept in its private area. */
static inline uint64_t *dmk_null_due_of(DmkIo *io)
{
    return (uint64_t *)(void *)io->priv;
}

/* Takes io in, due `lat` after its submit (or later, served in turn). */
static inline void dmk_null_fifo_push(DmkNullFifo *f, DmkIo *io, uint64_t lat)
{
    unsigned tail = (f->head + f->count) % f->depth;
    uint64_t due = io->submit_ns + lat;
    if (f->serve_ns && f->last_due + f->serve_ns > due)
        due = f->last_due + f->serve_ns; /* served one at a time */
    f->last_due = due > f->last_due ? due : f->last_due;
    *dmk_null_due_of(io) = f->last_due;
    f->fifo[tail] = io;
    f->count++;
}

/* With a fixed latency, submit order is completion order: the head of the
 * FIFO is always the next one due. */
static inline bool dmk_null_fifo_head_due(const DmkNullFifo *f, uint64_t now)
{
    return f->count && *dmk_null_due_of(f->fifo[f->head]) <= now;
}

static inline void dmk_null_fifo_wait_head(const DmkNullFifo *f, uint64_t deadline)
{
    uint64_t due = *dmk_null_due_of(f->fifo[f->head]);
    dmk_wait_until_ns(due < deadline ? due : deadline);
}

/* Called on each request as it is taken off, before the next wait: the
 * fault backend's script judges a completion when it happens, so one
 * taken before a drive vanished stays a success. */
typedef void (*DmkNullTakeFn)(void *ctx, DmkIo *io);

/* Hands back up to max requests into done[], waiting up to timeout_ns for
 * at least min; each moved in full (res = len), then given to take (NULL:
 * none; the null backend's constant NULL costs nothing, as this is
 * inline). all_due: everything in the FIFO counts as due now (no latency,
 * or a drive that failed). */
static inline int dmk_null_fifo_reap(DmkNullFifo *f, int min, int max, uint64_t timeout_ns,
                                     bool all_due, DmkIo **done, DmkNullTakeFn take, void *ctx)
{
    int n = 0;
    uint64_t now = all_due ? 0 : dmk_clock_ns();
    uint64_t deadline = now + timeout_ns;
    while (n < max && f->count) {
        if (!all_due && !dmk_null_fifo_head_due(f, now)) {
            if (n >= min || now >= deadline)
                break;
            dmk_null_fifo_wait_head(f, deadline);
            now = dmk_clock_ns();
            continue;
        }
        DmkIo *io = f->fifo[f->head];
        f->head = (f->head + 1) % f->depth;
        f->count--;
        io->res = io->len;
        io->os_error = 0;
        done[n++] = io;
        if (take)
            take(ctx, io);
    }
    return n;
}

/* The null and fault targets' size: p->size, or the free space (but
 * p->free_margin) of a simulated 64 GiB drive, by the rule the real
 * targets follow (dmk-target-rules.h). */
int dmk_null_target_size(const DmkTargetParams *p, uint64_t *size, DmkError *err);

#endif
