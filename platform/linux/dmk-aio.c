/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The libaio backend: io_submit / io_getevents on an O_DIRECT file, one
 * AIO context per queue. Completions are first taken straight from the
 * context's ring in user space (as fio's userspace_reap does), so a busy
 * queue reaps without a system call; io_getevents only when it must wait. */
#define _GNU_SOURCE
#include <errno.h>
#include <libaio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmk-i18n.h"
#include "dmk-platform.h"
#include "dmk-target-linux.h"

_Static_assert(sizeof(struct iocb) <= DMK_IO_PRIV_SIZE, "an iocb must fit in DmkIo.priv");

/* The kernel's completion ring, mapped at the context's address. */
struct dmk_aio_ring {
    unsigned id, nr, head, tail;
    unsigned magic, compat_features, incompat_features, header_length;
    struct io_event events[];
};
#define DMK_AIO_RING_MAGIC 0xa10a10a1u

struct DmkQueue {
    io_context_t ctx;
    int fd;
    unsigned depth;
    struct dmk_aio_ring *ring; /* NULL when the layout is not the expected one */
    struct iocb **iocbs;
    struct io_event *events;
};

static int aio_target_open(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                           DmkError *err)
{
    return dmk_linux_target_open(p, (DmkLinuxTarget **)out, info, err);
}

static void aio_target_close(DmkTarget *t)
{
    dmk_linux_target_close((DmkLinuxTarget *)t);
}

static int aio_target_sync(DmkTarget *t, DmkError *err)
{
    const DmkLinuxTarget *lt = (const DmkLinuxTarget *)t;
    if (fdatasync(lt->fd) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "flushing the test file in %s to the drive (fdatasync) failed",
                            lt->dir);
    return DMK_OK;
}

static int aio_target_temperature(DmkTarget *t, double *celsius)
{
    return dmk_linux_target_temperature((DmkLinuxTarget *)t, celsius);
}

static int aio_target_trim(DmkTarget *t, DmkTrimReport *rep, DmkError *err)
{
    return dmk_linux_target_trim((DmkLinuxTarget *)t, rep, err);
}

static int setup_error(unsigned depth, int e, DmkError *err)
{
    if (e == EAGAIN)
        return dmk_error_set(err, DMK_E_LIMIT, e,
                             "io_setup for a queue of %u requests failed: the system-wide limit "
                             "of in-flight asynchronous I/O (/proc/sys/fs/aio-max-nr, %llu) is "
                             "used up by this and other programs; lower the queue depth or "
                             "threads, or raise it with: sysctl fs.aio-max-nr=1048576",
                             depth, (unsigned long long)dmk_os_max_inflight());
    return dmk_error_os(err, dmk_error_from_errno(e), e,
                        "io_setup for a queue of %u requests failed", depth);
}

static int aio_queue_open(DmkTarget *target, unsigned depth, DmkQueue **out, DmkError *err)
{
    DmkQueue *q = calloc(1, sizeof *q);
    if (!q)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    q->fd = ((DmkLinuxTarget *)target)->fd;
    q->depth = depth;
    q->iocbs = calloc(depth, sizeof *q->iocbs);
    q->events = calloc(depth, sizeof *q->events);
    int e = q->iocbs && q->events ? -io_setup((int)depth, &q->ctx) : ENOMEM;
    if (e != 0) {
        free(q->iocbs);
        free(q->events);
        free(q);
        return setup_error(depth, e, err);
    }
    struct dmk_aio_ring *ring = (struct dmk_aio_ring *)q->ctx;
    if (ring->magic == DMK_AIO_RING_MAGIC && ring->incompat_features == 0)
        q->ring = ring;
    *out = q;
    return DMK_OK;
}

static void aio_queue_close(DmkQueue *q)
{
    if (!q)
        return;
    io_destroy(q->ctx); /* waits for what is still in flight */
    free(q->iocbs);
    free(q->events);
    free(q);
}

static int aio_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    for (int i = 0; i < n; i++) {
        DmkIo *io = ios[i];
        struct iocb *cb = (struct iocb *)io->priv;
        if (io->op == DMK_OP_READ)
            io_prep_pread(cb, q->fd, io->buf, io->len, (long long)io->offset);
        else
            io_prep_pwrite(cb, q->fd, io->buf, io->len, (long long)io->offset);
        cb->data = io;
        q->iocbs[i] = cb;
    }
    for (;;) {
        int rc = io_submit(q->ctx, n, q->iocbs);
        if (rc >= 0)
            return rc; /* possibly fewer than n: the caller keeps the rest */
        if (rc == -EINTR)
            continue;
        if (rc == -EAGAIN)
            return 0; /* resources short: reap, then try again */
        return dmk_error_os(err, dmk_error_from_errno(-rc), -rc,
                            "io_submit of %d requests at offset %llu failed", n,
                            (unsigned long long)ios[0]->offset);
    }
}

static void complete(const struct io_event *ev, DmkIo **done)
{
    DmkIo *io = ev->data;
    long res = (long)ev->res;
    if (res < 0) {
        io->res = dmk_error_from_errno((int)-res);
        io->os_error = (int)-res;
    } else {
        io->res = res;
        io->os_error = 0;
    }
    *done = io;
}

/* Takes up to max completions from the shared ring without a syscall. */
static int reap_ring(DmkQueue *q, int max, DmkIo **done)
{
    struct dmk_aio_ring *ring = q->ring;
    unsigned head = ring->head;
    unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
    int n = 0;
    while (head != tail && n < max) {
        complete(&ring->events[head], &done[n++]);
        head = head + 1 == ring->nr ? 0 : head + 1;
    }
    if (n)
        __atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
    return n;
}

static int aio_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done, DmkError *err)
{
    int n = q->ring ? reap_ring(q, max, done) : 0;
    if (n >= min || n == max)
        return n;
    struct timespec ts = {(time_t)(timeout_ns / 1000000000ULL), (long)(timeout_ns % 1000000000ULL)};
    int rc = io_getevents(q->ctx, min - n, max - n, q->events, &ts);
    if (rc == -EINTR)
        return n;
    if (rc < 0)
        return dmk_error_os(err, dmk_error_from_errno(-rc), -rc, "io_getevents failed");
    for (int i = 0; i < rc; i++)
        complete(&q->events[i], &done[n + i]);
    return n + rc;
}

const DmkBackend dmk_backend_libaio_desc = {
    .name = "libaio",
    .description = DMK_N_("Linux's asynchronous I/O, O_DIRECT"),
    .native = true,
    .target_open = aio_target_open,
    .target_close = aio_target_close,
    .target_sync = aio_target_sync,
    .target_temperature = aio_target_temperature,
    .target_trim = aio_target_trim,
    .queue_open = aio_queue_open,
    .queue_close = aio_queue_close,
    .submit = aio_submit,
    .reap = aio_reap,
    .keeps_data = true,
    .close_waits = true, /* io_destroy waits for what is in flight */
};
