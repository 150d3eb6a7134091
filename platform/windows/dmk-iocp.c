/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Windows backend: overlapped, unbuffered ReadFile/WriteFile on the
 * test file, one I/O completion port per queue (each queue is used by one
 * worker thread). Requests that complete at once skip the port
 * (FILE_SKIP_COMPLETION_PORT_ON_SUCCESS) and wait in a small ready list;
 * the rest are reaped in batches with GetQueuedCompletionStatusEx. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <winternl.h>

#include "dmk-drive-windows.h"
#include "dmk-iocp-private.h"
#include "dmk-i18n.h"
#include "dmk-platform.h"
#include "dmk-target-windows.h"
#include "dmk-win32.h"

_Static_assert(sizeof(OVERLAPPED) <= DMK_IO_PRIV_SIZE, "an OVERLAPPED must fit in DmkIo.priv");
_Static_assert(_Alignof(OVERLAPPED) <= 16, "DmkIo.priv is 16-byte aligned");

/* How long closing a queue waits for cancelled requests to come back. */
#define CLOSE_WAIT_NS 10000000000ULL

OVERLAPPED *dmk_iocp_overlapped(DmkIo *io)
{
    return (OVERLAPPED *)(void *)io->priv;
}

DmkIo *dmk_iocp_io(OVERLAPPED *ov)
{
    return (DmkIo *)(void *)((unsigned char *)ov - offsetof(DmkIo, priv));
}

void dmk_iocp_complete(DmkIo *io)
{
    const OVERLAPPED *ov = dmk_iocp_overlapped(io);
    NTSTATUS st = (NTSTATUS)ov->Internal;
    if (st >= 0) { /* NT_SUCCESS */
        io->res = (int64_t)ov->InternalHigh;
        io->os_error = 0;
        return;
    }
    DWORD e = RtlNtStatusToDosError(st);
    io->res = dmk_win_error_code(e);
    io->os_error = (int)e;
}

bool dmk_iocp_ready_push(DmkQueue *q, DmkIo *io)
{
    if (q->ready_count >= q->depth)
        return false;
    q->ready[(q->ready_head + q->ready_count) % q->depth] = io;
    q->ready_count++;
    return true;
}

/* Windows fails misaligned unbuffered I/O with ERROR_INVALID_PARAMETER;
 * Wine does not, so the backend checks itself and says which rule broke. */
int dmk_iocp_check_aligned(const DmkQueue *q, const DmkIo *io, DmkError *err)
{
    /* A whole sentence for a read and one for a write: the verb is no
     * word glued into a translated message. */
    bool rd = io->op == DMK_OP_READ;
    uint64_t off_mask = q->offset_align - 1, mem_mask = q->mem_align - 1;
    unsigned long long off = (unsigned long long)io->offset;
    if (io->offset & off_mask)
        return dmk_error_set(err, DMK_E_INVAL, ERROR_INVALID_PARAMETER,
                             rd ? DMK_N_("refusing to read %u bytes at offset %llu of the test "
                                         "file in %s: the offset is not a multiple of the "
                                         "%u-byte sector that unbuffered I/O requires")
                                : DMK_N_("refusing to write %u bytes at offset %llu of the test "
                                         "file in %s: the offset is not a multiple of the "
                                         "%u-byte sector that unbuffered I/O requires"),
                             io->len, off, q->dir, q->offset_align);
    if (io->len == 0 || (io->len & off_mask))
        return dmk_error_set(err, DMK_E_INVAL, ERROR_INVALID_PARAMETER,
                             rd ? DMK_N_("refusing to read %u bytes at offset %llu of the test "
                                         "file in %s: the length is not a multiple of the "
                                         "%u-byte sector that unbuffered I/O requires")
                                : DMK_N_("refusing to write %u bytes at offset %llu of the test "
                                         "file in %s: the length is not a multiple of the "
                                         "%u-byte sector that unbuffered I/O requires"),
                             io->len, off, q->dir, q->offset_align);
    if ((uintptr_t)io->buf & mem_mask)
        return dmk_error_set(err, DMK_E_INVAL, ERROR_INVALID_PARAMETER,
                             rd ? DMK_N_("refusing to read %u bytes at offset %llu of the test "
                                         "file in %s: the buffer address 0x%llx is not aligned "
                                         "to the %u bytes that unbuffered I/O requires")
                                : DMK_N_("refusing to write %u bytes at offset %llu of the test "
                                         "file in %s: the buffer address 0x%llx is not aligned "
                                         "to the %u bytes that unbuffered I/O requires"),
                             io->len, off, q->dir, (unsigned long long)(uintptr_t)io->buf,
                             q->mem_align);
    return DMK_OK;
}

/* ---- targets and queues ------------------------------------------------- */

static int iocp_target_open(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                            DmkError *err)
{
    return dmk_win_target_open(p, (DmkWinTarget **)out, info, err);
}

static int iocp_target_sync(DmkTarget *t, DmkError *err)
{
    DmkWinTarget *wt = (DmkWinTarget *)t;
    if (!FlushFileBuffers(wt->file))
        return dmk_win_error(err, GetLastError(),
                             "flushing the test file in %s to the drive failed", wt->dir);
    return DMK_OK;
}

static void iocp_target_close(DmkTarget *t)
{
    dmk_win_target_close((DmkWinTarget *)t);
}

static int iocp_target_temperature(DmkTarget *t, double *celsius)
{
    return dmk_win_read_temp(((DmkWinTarget *)t)->sensor, celsius);
}

static int iocp_target_trim(DmkTarget *t, DmkTrimReport *rep, DmkError *err)
{
    DmkWinTarget *wt = (DmkWinTarget *)t;
    if (wt->device)
        return dmk_win_device_trim(wt, rep, err);
    return dmk_win_trim(wt->file, wt->size, wt->dir, rep, err);
}

static void queue_free(DmkQueue *q)
{
    if (q->file != INVALID_HANDLE_VALUE)
        CloseHandle(q->file);
    if (q->port)
        CloseHandle(q->port);
    free(q->ready);
    free(q->entries);
    free(q);
}

static int bind_port(DmkQueue *q, DmkError *err)
{
    /* One thread waits on the port: a concurrency of 1. */
    q->port = CreateIoCompletionPort(q->file, NULL, 0, 1);
    if (!q->port)
        return dmk_win_error(err, GetLastError(),
                             "creating an I/O completion port for the test file in %s failed",
                             q->dir);
    /* A request that completes at once is then finished at submit, with no
     * trip through the port; and nobody waits on the handle's own event. */
    q->skip_on_success = SetFileCompletionNotificationModes(
        q->file, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE);
    return DMK_OK;
}

static int iocp_queue_open(DmkTarget *target, unsigned depth, DmkQueue **out, DmkError *err)
{
    DmkWinTarget *t = (DmkWinTarget *)target;
    DmkQueue *q = calloc(1, sizeof *q);
    if (!q)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    q->file = INVALID_HANDLE_VALUE;
    q->depth = depth ? depth : 1;
    q->offset_align = t->offset_align;
    q->mem_align = t->mem_align;
    q->dir = t->dir;
    q->ready = calloc(q->depth, sizeof *q->ready);
    q->entries = calloc(q->depth, sizeof *q->entries);
    int rc = q->ready && q->entries
                 ? DMK_OK
                 : dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    /* Each queue has its own handle: a handle binds to one port only. */
    if (rc == DMK_OK)
        rc = dmk_win_target_reopen(t, &q->file, err);
    if (rc == DMK_OK)
        rc = bind_port(q, err);
    if (rc != DMK_OK) {
        queue_free(q);
        return rc;
    }
    *out = q;
    return DMK_OK;
}

/* ---- completions --------------------------------------------------------- */

static int take_ready(DmkQueue *q, int max, DmkIo **done)
{
    int n = 0;
    while (n < max && q->ready_count) {
        done[n++] = q->ready[q->ready_head];
        q->ready_head = (q->ready_head + 1) % q->depth;
        q->ready_count--;
    }
    return n;
}

/* Up to max completions from the port, waiting up to wait_ms for the first. */
static int take_port(DmkQueue *q, int max, DWORD wait_ms, DmkIo **done, DmkError *err)
{
    ULONG got = 0;
    if (max > (int)q->depth)
        max = (int)q->depth;
    if (!GetQueuedCompletionStatusEx(q->port, q->entries, (ULONG)max, &got, wait_ms, FALSE)) {
        DWORD e = GetLastError();
        if (e == WAIT_TIMEOUT)
            return 0;
        return dmk_win_error(err, e, "waiting for I/O completions on the test file in %s failed",
                             q->dir);
    }
    int n = 0;
    for (ULONG i = 0; i < got; i++) {
        if (!q->entries[i].lpOverlapped)
            continue; /* not a request of ours */
        DmkIo *io = dmk_iocp_io(q->entries[i].lpOverlapped);
        /* The status and count of this request, in its own OVERLAPPED:
         * GetLastError would describe whatever failed last on the thread. */
        dmk_iocp_complete(io);
        done[n++] = io;
        q->on_port--;
    }
    q->n_port += (uint64_t)n;
    return n;
}

static DWORD wait_ms(uint64_t deadline)
{
    uint64_t now = dmk_clock_ns();
    if (now >= deadline)
        return 0;
    uint64_t ms = (deadline - now + 999999) / 1000000;
    return ms < INFINITE ? (DWORD)ms : INFINITE - 1;
}

static int iocp_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done,
                     DmkError *err)
{
    int n = take_ready(q, max, done);
    if (n == max || (n >= min && n > 0) || q->on_port == 0)
        return n;
    uint64_t deadline = dmk_clock_ns() + timeout_ns;
    while (n < max) {
        /* Wait only for what min still asks; beyond it, take what is there. */
        int got = take_port(q, max - n, n >= min ? 0 : wait_ms(deadline), done + n, err);
        if (got < 0)
            return n ? n : got; /* the error comes back on the next call */
        n += got;
        if (got == 0 || n >= min || q->on_port == 0)
            break;
    }
    return n;
}

/* Cancels what is still in flight (the core drains before closing, so
 * only an abandoned run has any) and waits, bounded, for it to come back:
 * the kernel writes into the requests' OVERLAPPEDs until then. */
static void iocp_queue_close(DmkQueue *q)
{
    if (!q)
        return;
    if (q->on_port)
        CancelIoEx(q->file, NULL);
    uint64_t end = dmk_clock_ns() + CLOSE_WAIT_NS;
    while (q->on_port && dmk_clock_ns() < end) {
        ULONG got = 0;
        if (GetQueuedCompletionStatusEx(q->port, q->entries, q->depth, &got, 100, FALSE))
            for (ULONG i = 0; i < got; i++)
                q->on_port -= q->entries[i].lpOverlapped != NULL;
    }
    queue_free(q);
}

/* ---- submission ---------------------------------------------------------- */

/* Errors that mean "too many requests outstanding right now". */
static bool pushed_back(DWORD e)
{
    return e == ERROR_INVALID_USER_BUFFER || e == ERROR_NOT_ENOUGH_MEMORY ||
           e == ERROR_NOT_ENOUGH_QUOTA || e == ERROR_NO_SYSTEM_RESOURCES ||
           e == ERROR_NONPAGED_SYSTEM_RESOURCES || e == ERROR_WORKING_SET_QUOTA;
}

/* Starts one request; false when the system pushed back (not started). */
static bool start_io(DmkQueue *q, DmkIo *io)
{
    if (q->on_port + q->ready_count >= q->depth)
        return false; /* more than depth: the caller must reap first */
    OVERLAPPED *ov = dmk_iocp_overlapped(io);
    memset(ov, 0, sizeof *ov);
    ov->Offset = (DWORD)io->offset;
    ov->OffsetHigh = (DWORD)(io->offset >> 32);
    BOOL ok = io->op == DMK_OP_READ ? ReadFile(q->file, io->buf, io->len, NULL, ov)
                                    : WriteFile(q->file, io->buf, io->len, NULL, ov);
    DWORD e = ok ? 0 : GetLastError();
    if (ok && q->skip_on_success) {
        dmk_iocp_complete(io); /* the system filled the OVERLAPPED already */
        q->n_inline++;
        return dmk_iocp_ready_push(q, io);
    }
    if (ok || e == ERROR_IO_PENDING) {
        q->on_port++;
        return true;
    }
    if (pushed_back(e))
        return false;
    /* Failed at once: no completion is queued, so it completes here with
     * its own error, reported by the core with its offset. */
    io->res = dmk_win_error_code(e);
    io->os_error = (int)e;
    return dmk_iocp_ready_push(q, io);
}

static int iocp_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    /* All checked before any starts: a bad batch does no I/O at all. */
    for (int i = 0; i < n; i++) {
        int rc = dmk_iocp_check_aligned(q, ios[i], err);
        if (rc != DMK_OK)
            return rc;
    }
    int started = 0;
    while (started < n && start_io(q, ios[started]))
        started++;
    return started; /* fewer than n: the caller reaps, then retries the rest */
}

const DmkBackend dmk_backend_iocp_desc = {
    .name = "iocp",
    .description = DMK_N_("Windows' overlapped I/O on a completion port"),
    .native = true,
    .target_open = iocp_target_open,
    .target_close = iocp_target_close,
    .target_sync = iocp_target_sync,
    .target_temperature = iocp_target_temperature,
    .target_trim = iocp_target_trim,
    .queue_open = iocp_queue_open,
    .queue_close = iocp_queue_close,
    .submit = iocp_submit,
    .reap = iocp_reap,
    .keeps_data = true,
};
