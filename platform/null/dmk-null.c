/* The null backend: requests complete in memory, at once or after a fixed
 * latency, and no byte reaches a disk. It measures what the engine itself
 * costs per I/O and makes unit tests of the core deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-platform.h"

struct DmkTarget {
    uint64_t latency_ns;
};

struct DmkQueue {
    uint64_t latency_ns;
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
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    snprintf(info->fs_type, sizeof info->fs_type, "null");
    snprintf(info->model, sizeof info->model, "Null backend (no I/O)");
    info->capacity_bytes = p->size;
    info->fs_size_bytes = p->size;
    info->fs_free_bytes = p->size;
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

static int null_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    (void)err;
    int accepted = 0;
    while (accepted < n && q->count < q->depth) {
        unsigned tail = (q->head + q->count) % q->depth;
        q->fifo[tail] = ios[accepted++];
        q->count++;
    }
    return accepted;
}

/* With a fixed latency, submit order is completion order: the head of the
 * FIFO is always the next one due. */
static bool head_due(const DmkQueue *q, uint64_t now)
{
    return q->count && q->fifo[q->head]->submit_ns + q->latency_ns <= now;
}

static void wait_for_head(const DmkQueue *q, uint64_t deadline)
{
    uint64_t due = q->fifo[q->head]->submit_ns + q->latency_ns;
    uint64_t until = due < deadline ? due : deadline;
    uint64_t now = dmk_clock_ns();
    /* Sleep when far, spin when near: a latency of a few microseconds is
     * shorter than the OS's sleep granularity. */
    if (until > now + 200000)
        dmk_sleep_ns(until - now - 100000);
    while (dmk_clock_ns() < until)
        ;
}

static int null_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done,
                     DmkError *err)
{
    (void)err;
    int n = 0;
    uint64_t now = q->latency_ns ? dmk_clock_ns() : 0;
    uint64_t deadline = now + timeout_ns;
    while (n < max && q->count) {
        if (q->latency_ns && !head_due(q, now)) {
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

static const DmkBackend null_backend = {
    .name = "null",
    .target_open = null_target_open,
    .target_close = null_target_close,
    .target_sync = null_target_sync,
    .queue_open = null_queue_open,
    .queue_close = null_queue_close,
    .submit = null_submit,
    .reap = null_reap,
};

const DmkBackend *dmk_backend_null(void)
{
    return &null_backend;
}
