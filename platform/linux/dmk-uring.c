/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The io_uring backend: the same O_DIRECT test file as the libaio one
 * (dmk-target-linux.c), one ring per queue. The test file is a
 * registered file and the worker's buffers and the data pool registered
 * buffers (READ_FIXED/WRITE_FIXED), so the kernel neither looks the file
 * up nor pins pages per request; a batch is one io_uring_enter, and a
 * reap takes every completion the ring holds, entering the kernel only
 * when it must wait. Options: a submission-polling kernel thread
 * (SQPOLL) and polled completions (IOPOLL, "hipri") where the device
 * has poll queues. */
#define _GNU_SOURCE
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmk-platform.h"
#include "dmk-size.h"
#include "dmk-target-linux.h"

/* Memory regions a queue's requests point into (a worker's buffers, the
 * data pool, a verify reader's buffer): each a registered buffer. */
#define URING_MAX_MEM 4

/* The backend's options, tagged "io_uring" in a DmkBackendOpts block. */
typedef struct {
    uint32_t sqpoll_ms; /* > 0: SQPOLL, its thread sleeping after this idle time */
    bool hipri;         /* IORING_SETUP_IOPOLL */
} DmkUringOpts;

struct DmkTarget {
    DmkLinuxTarget *lt; /* first: the target functions are libaio's */
    DmkUringOpts opts;
};

struct DmkQueue {
    struct io_uring ring;
    int fd;          /* what an SQE names: 0 with a registered file, else the descriptor */
    bool fixed_file; /* IOSQE_FIXED_FILE */
    unsigned depth;
    unsigned inflight; /* submitted and not reaped: queue_close waits for them */
    struct iovec mem[URING_MAX_MEM];
    int n_mem;
    bool mem_done; /* registration tried (registered, or refused: plain READ/WRITE) */
    bool mem_fixed;
    struct io_uring_cqe **cqes;
};

static const DmkUringOpts *uring_opts_get(const DmkBackendOpts *o)
{
    static const DmkUringOpts defaults;
    _Static_assert(sizeof(DmkUringOpts) <= DMK_BACKEND_OPTS_SIZE, "DmkBackendOpts is too small");
    return o && strcmp(o->backend, "io_uring") == 0 ? (const DmkUringOpts *)(const void *)o->data
                                                    : &defaults;
}

static int uring_target_open(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                             DmkError *err)
{
    DmkTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    t->opts = *uring_opts_get(p->opts);
    int rc = dmk_linux_target_open(p, &t->lt, info, err);
    if (rc != DMK_OK) {
        free(t);
        return rc;
    }
    *out = t;
    return DMK_OK;
}

static void uring_target_close(DmkTarget *t)
{
    if (!t)
        return;
    dmk_linux_target_close(t->lt);
    free(t);
}

static int uring_target_sync(DmkTarget *t, DmkError *err)
{
    if (fdatasync(t->lt->fd) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "flushing the test file in %s to the drive (fdatasync) failed",
                            t->lt->dir);
    return DMK_OK;
}

static int uring_target_temperature(DmkTarget *t, double *celsius)
{
    return dmk_linux_target_temperature(t->lt, celsius);
}

static int uring_target_trim(DmkTarget *t, DmkTrimReport *rep, DmkError *err)
{
    return dmk_linux_target_trim(t->lt, rep, err);
}

/* ---- queues ------------------------------------------------------------- */

/* Tests: DMK_TEST_URING_FAIL=ENOSYS or EPERM makes every ring's setup
 * fail as a kernel without io_uring, or one where it is disabled
 * (kernel.io_uring_disabled, seccomp), would: the messages and the
 * fallback are tested on a kernel that has it. */
static int test_failure(void)
{
    const char *f = getenv("DMK_TEST_URING_FAIL");
    if (!f)
        return 0;
    return strcmp(f, "EPERM") == 0 ? EPERM : ENOSYS;
}

/* "io_uring_queue_init for a queue of 8 requests failed: Operation not
 * permitted: io_uring is disabled here (...)": the OS's words before the
 * reason and the way out. */
static int init_error(unsigned depth, int e, DmkError *err)
{
    char os[128];
    dmk_error_os_text(e, os, sizeof os);
    if (e == ENOSYS)
        return dmk_error_set(err, DMK_E_NOTSUP, e,
                             "io_uring_queue_init for a queue of %u requests failed: %s: this "
                             "kernel has no io_uring; --backend libaio works without it",
                             depth, os);
    if (e == EPERM || e == EACCES)
        return dmk_error_set(err, DMK_E_PERM, e,
                             "io_uring_queue_init for a queue of %u requests failed: %s: io_uring "
                             "is disabled here (sysctl kernel.io_uring_disabled, or a seccomp "
                             "filter of a container); --backend libaio works without it",
                             depth, os);
    return dmk_error_os(err, dmk_error_from_errno(e), e,
                        "io_uring_queue_init for a queue of %u requests failed", depth);
}

/* The ring, with the newer kernels' cheaper completion handling where the
 * kernel knows the flags (COOP_TASKRUN: no interrupt of the worker per
 * completion; SUBMIT_ALL: a bad request does not stop a batch), plain
 * otherwise. Returns 0 or an errno. */
static int ring_init(DmkQueue *q, const DmkUringOpts *o)
{
    int e = test_failure();
    if (e)
        return e;
    unsigned base = (o->hipri ? IORING_SETUP_IOPOLL : 0) | (o->sqpoll_ms ? IORING_SETUP_SQPOLL : 0);
    unsigned extra[] = {
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL, 0};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        struct io_uring_params p;
        memset(&p, 0, sizeof p);
        p.flags = base | (o->sqpoll_ms ? 0 : extra[i]);
        p.sq_thread_idle = o->sqpoll_ms;
        int rc = io_uring_queue_init_params(q->depth, &q->ring, &p);
        if (rc == 0)
            return 0;
        e = -rc;
        if (e != EINVAL)
            break;
    }
    return e;
}

static int uring_queue_open(DmkTarget *t, unsigned depth, DmkQueue **out, DmkError *err)
{
    DmkQueue *q = calloc(1, sizeof *q);
    if (!q)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    q->depth = depth;
    q->cqes = calloc(depth, sizeof *q->cqes);
    int e = q->cqes ? ring_init(q, &t->opts) : ENOMEM;
    if (e != 0) {
        free(q->cqes);
        free(q);
        return init_error(depth, e, err);
    }
    /* The registered file saves a look-up per request, so a kernel that
     * refuses it only costs that. The ring's own descriptor is not
     * registered (io_uring_register_ring_fd): that registration is the
     * calling thread's, and a queue is opened by the runner's thread and
     * used by its worker's, whose enters would then fail with EINVAL. */
    q->fd = t->lt->fd;
    if (io_uring_register_files(&q->ring, &q->fd, 1) == 0) {
        q->fixed_file = true;
        q->fd = 0;
    }
    *out = q;
    return DMK_OK;
}

static void uring_queue_memory(DmkQueue *q, void *base, size_t len)
{
    if (base && len && q->n_mem < URING_MAX_MEM && !q->mem_done)
        q->mem[q->n_mem++] = (struct iovec){base, len};
}

/* Registers the memory regions once, before the first request: pinned
 * memory a user's RLIMIT_MEMLOCK may not allow, in which case requests
 * go as plain READ/WRITE, which pin per request as libaio does. */
static void register_memory(DmkQueue *q)
{
    q->mem_done = true;
    q->mem_fixed = q->n_mem && io_uring_register_buffers(&q->ring, q->mem, (unsigned)q->n_mem) == 0;
}

/* The registered buffer holding [buf, buf + len), or -1. */
static int buffer_index(const DmkQueue *q, const void *buf, uint32_t len)
{
    const char *b = buf;
    for (int i = 0; q->mem_fixed && i < q->n_mem; i++) {
        const char *base = q->mem[i].iov_base;
        if (b >= base && b + len <= base + q->mem[i].iov_len)
            return i;
    }
    return -1;
}

static void prep(DmkQueue *q, struct io_uring_sqe *sqe, DmkIo *io)
{
    int idx = buffer_index(q, io->buf, io->len);
    bool rd = io->op == DMK_OP_READ;
    if (idx >= 0 && rd)
        io_uring_prep_read_fixed(sqe, q->fd, io->buf, io->len, io->offset, idx);
    else if (idx >= 0)
        io_uring_prep_write_fixed(sqe, q->fd, io->buf, io->len, io->offset, idx);
    else if (rd)
        io_uring_prep_read(sqe, q->fd, io->buf, io->len, io->offset);
    else
        io_uring_prep_write(sqe, q->fd, io->buf, io->len, io->offset);
    if (q->fixed_file)
        sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, io);
}

/* Every request of the batch goes into the submission ring, then one
 * io_uring_enter hands them all to the kernel. A request in the ring is
 * accepted: one the kernel did not take yet (it pushed back, EAGAIN or
 * EBUSY) goes with the next enter, the reap's. */
static int uring_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    if (!q->mem_done)
        register_memory(q);
    int queued = 0;
    for (; queued < n; queued++) {
        struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
        if (!sqe)
            break; /* full (SQPOLL's thread behind): the rest after a reap */
        prep(q, sqe, ios[queued]);
    }
    if (queued == 0)
        return 0;
    int rc;
    while ((rc = io_uring_submit(&q->ring)) == -EINTR)
        ;
    if (rc < 0 && rc != -EAGAIN && rc != -EBUSY)
        return dmk_error_os(err, dmk_error_from_errno(-rc), -rc,
                            "io_uring_submit of %d requests at offset %llu failed", queued,
                            (unsigned long long)ios[0]->offset);
    q->inflight += (unsigned)queued;
    return queued;
}

static void complete(struct io_uring_cqe *cqe, DmkIo **done)
{
    DmkIo *io = io_uring_cqe_get_data(cqe);
    if (cqe->res < 0) {
        io->res = dmk_error_from_errno(-cqe->res);
        io->os_error = -cqe->res;
    } else {
        io->res = cqe->res;
        io->os_error = 0;
    }
    *done = io;
}

/* The completions the ring holds, up to max, into done[]; the ring's
 * entries are given back in one step. liburing's internal timeout
 * entries (kernels without IORING_FEAT_EXT_ARG) are skipped. */
static int take(DmkQueue *q, int max, DmkIo **done)
{
    unsigned got = io_uring_peek_batch_cqe(&q->ring, q->cqes, (unsigned)max);
    int n = 0;
    for (unsigned i = 0; i < got; i++)
        if (q->cqes[i]->user_data != LIBURING_UDATA_TIMEOUT && q->cqes[i]->user_data)
            complete(q->cqes[i], &done[n++]);
    io_uring_cq_advance(&q->ring, got);
    q->inflight -= (unsigned)n;
    return n;
}

static int uring_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done,
                      DmkError *err)
{
    int n = take(q, max, done);
    if (n >= min || n == max)
        return n;
    struct __kernel_timespec ts = {(long long)(timeout_ns / 1000000000ULL),
                                   (long long)(timeout_ns % 1000000000ULL)};
    struct io_uring_cqe *cqe;
    /* Submits what the kernel pushed back, too, in the same enter. */
    int rc = io_uring_submit_and_wait_timeout(&q->ring, &cqe, (unsigned)(min - n), &ts, NULL);
    if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
        return dmk_error_os(err, dmk_error_from_errno(-rc), -rc,
                            "waiting for io_uring completions failed");
    return n + take(q, max - n, done + n);
}

/* Waits for every request still in flight: their buffers are freed after
 * this, and the ring's own teardown would not wait for the drive. */
static void uring_queue_close(DmkQueue *q)
{
    if (!q)
        return;
    while (q->inflight) {
        struct io_uring_cqe *cqe;
        int rc = io_uring_submit_and_wait(&q->ring, 1);
        if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
            break;
        while (q->inflight && io_uring_peek_cqe(&q->ring, &cqe) == 0) {
            if (cqe->user_data != LIBURING_UDATA_TIMEOUT && cqe->user_data)
                q->inflight--;
            io_uring_cqe_seen(&q->ring, cqe);
        }
    }
    /* The ring's teardown is the kernel's deferred work: until it runs,
     * a registered file keeps the target open (a device's exclusive claim,
     * a mount busy), and the next open of it fails with EBUSY. Taking the
     * registrations back waits for them, so the file goes with our close. */
    if (q->fixed_file)
        io_uring_unregister_files(&q->ring);
    if (q->mem_fixed)
        io_uring_unregister_buffers(&q->ring);
    io_uring_queue_exit(&q->ring);
    free(q->cqes);
    free(q);
}

/* ---- options ------------------------------------------------------------ */

static const DmkBackendOption uring_options[] = {
    {"sqpoll", "MS",
     "a kernel thread takes the requests (IORING_SETUP_SQPOLL), sleeping after MS "
     "milliseconds without any (0: off, the default; it takes a CPU while busy)"},
    {"hipri", "on|off",
     "polled completions (IORING_SETUP_IOPOLL): only devices with poll queues (NVMe with "
     "nvme.poll_queues); elsewhere every I/O fails"},
    {NULL, NULL, NULL},
};

static DmkUringOpts *uring_opts(DmkBackendOpts *opts)
{
    if (strcmp(opts->backend, "io_uring") != 0) {
        memset(opts, 0, sizeof *opts);
        snprintf(opts->backend, sizeof opts->backend, "io_uring");
    }
    return (DmkUringOpts *)(void *)opts->data;
}

static int uring_parse_option(DmkBackendOpts *opts, const char *key, const char *value,
                              const char *what, DmkError *err)
{
    DmkUringOpts *o = uring_opts(opts);
    if (strcmp(key, "sqpoll") == 0) {
        uint64_t ms;
        int rc = dmk_parse_uint_range(what, value, 0, 60000, &ms, err);
        if (rc == DMK_OK)
            o->sqpoll_ms = (uint32_t)ms;
        return rc;
    }
    if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0) {
        o->hipri = strcmp(value, "on") == 0;
        return DMK_OK;
    }
    return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s': expected on or off", what, value);
}

const DmkBackend dmk_backend_io_uring_desc = {
    .name = "io_uring",
    .description = "Linux's io_uring, O_DIRECT, registered buffers and file",
    .options = uring_options,
    .parse_option = uring_parse_option,
    .target_open = uring_target_open,
    .target_close = uring_target_close,
    .target_sync = uring_target_sync,
    .target_temperature = uring_target_temperature,
    .target_trim = uring_target_trim,
    .queue_open = uring_queue_open,
    .queue_close = uring_queue_close,
    .queue_memory = uring_queue_memory,
    .submit = uring_submit,
    .reap = uring_reap,
    .keeps_data = true,
    .close_waits = true, /* queue_close waits for what is in flight */
};
