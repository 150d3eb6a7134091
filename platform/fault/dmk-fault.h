/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fault backend: the null backend's in-memory requests, but following
 * a script of faults (a failed or short completion, a full drive, a
 * request that never completes, a submit that pushes back or fails, a
 * drive that vanishes, a test file that cannot be created or flushed), so
 * tests can show what the engine does when a drive misbehaves without
 * needing one that does. It touches no disk and calls nothing beyond
 * dmk-platform.h, so it builds and behaves the same on every OS.
 *
 * One script at a time: dmk_backend_fault() installs it for the whole
 * process and zeroes the counts, so a test sets it, runs, then reads
 * dmk_fault_stats(). Every count runs over all queues of all targets
 * opened since, as a real drive sees one stream of requests. */
#ifndef DMK_FAULT_H
#define DMK_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "dmk-platform.h"
#include "null/dmk-null.h"

/* The raw OS codes a real backend would report for these faults
 * (os_error is errno on Linux, a Win32 error on Windows), so that tests
 * check the same os_error and OS text on both. */
#ifdef _WIN32
#define DMK_FAULT_OS_EIO    23  /* ERROR_CRC: the drive could not read the data */
#define DMK_FAULT_OS_ENOSPC 112 /* ERROR_DISK_FULL */
#define DMK_FAULT_OS_ENODEV 55  /* ERROR_DEV_NOT_EXIST: the drive was removed */
#define DMK_FAULT_OS_EINTR  995 /* ERROR_OPERATION_ABORTED */
#else
#include <errno.h>
#define DMK_FAULT_OS_EIO    EIO
#define DMK_FAULT_OS_ENOSPC ENOSPC
#define DMK_FAULT_OS_ENODEV ENODEV
#define DMK_FAULT_OS_EINTR  EINTR
#endif

/* A DmkFaultAt.times that never ends. */
#define DMK_FAULT_FOREVER UINT32_MAX

/* Which requests a fault counts. Zero is "all", so that a zeroed
 * DmkFaultAt with only nth set counts everything. */
typedef enum {
    DMK_FAULT_ANY = 0,
    DMK_FAULT_READS = 1,
    DMK_FAULT_WRITES = 2,
} DmkFaultOps;

/* When one fault strikes and what it reports. Events are numbered from 1
 * in the order the backend sees them: completions, accepted requests or
 * calls, whichever the fault is about. */
typedef struct {
    uint64_t nth;    /* the first event it strikes; 0: never */
    uint32_t times;  /* events in a row it strikes: 0 or 1 once, DMK_FAULT_FOREVER all */
    DmkFaultOps ops; /* completions and requests: which ones are counted */
    int code;        /* the negative DmkErrCode reported; 0: DMK_E_IO */
    int os_error;    /* the raw OS code with it (DMK_FAULT_OS_*); 0: none */
} DmkFaultAt;

typedef struct {
    /* Completions, numbered as reap hands them back. */
    DmkFaultAt fail;     /* res = code, os_error: EIO, ENOSPC on a write... */
    DmkFaultAt short_io; /* res = len / 2: a short transfer */
    /* Requests, numbered as submit accepts them. */
    DmkFaultAt lose; /* accepted, then never completes (a swallowed request) */
    /* Submit calls, numbered over all queues; `ops` is not used. */
    uint32_t submit_max;     /* > 0: one call accepts at most this many requests */
    DmkFaultAt push_back;    /* the call accepts nothing and returns 0 (EAGAIN in libaio) */
    DmkFaultAt submit_error; /* the call returns code with err set (EINTR-like, DMK_E_AGAIN) */
    /* From this call on the drive is gone: every submit fails with code,
     * the requests in flight complete with it, and every target_sync
     * fails with it. `times` is not used: a drive does not come back. */
    DmkFaultAt vanish;
    /* target_open and target_sync calls, numbered from 1. */
    DmkFaultAt open; /* creating the test file fails: ENOSPC, EACCES... */
    DmkFaultAt sync; /* flushing the test file fails: EIO after the fill */
    /* Submit calls again (`ops`, `code` not used). A frozen file system:
     * the call does not return until dmk_fault_release() (io_submit
     * blocked in the kernel, where no signal reaches it). */
    DmkFaultAt hang;
    /* A pause the test controls: the call returns only after gap_ns,
     * then goes ahead (a short freeze, or the process stopped). */
    DmkFaultAt gap;
    uint64_t gap_ns;
    /* target_sync calls: fdatasync on a frozen file system, blocked until
     * dmk_fault_release(). */
    DmkFaultAt hang_sync;
    /* The backend says close_waits (as libaio's io_destroy does): the
     * runner must then leave queues with requests in flight unclosed. */
    bool close_waits;
    /* The target keeps what is written (in memory, its whole size) and
     * reads give it back, so the verify option runs (keeps_data) and its
     * read-back meets the script's faults (`lose` with DMK_FAULT_READS
     * after a write-only run: a read-back read that never completes). */
    bool keep_data;
    /* > 0: each queue's drive answers one request at a time, every one
     * this long after the one before (a USB stick at 20 random-write IOPS
     * is 50 ms), so a deep queue drains slowly after a stop. Counts with
     * the null options' latency_ns, as a floor; 0: their serve_ns. */
    uint64_t serve_ns;
} DmkFaultScript;

/* The fault backend's options: the null backend's (it wraps the null
 * backend's queue: latency, serve), then its own ("hang"), for front
 * ends that choose it by name with no script (the window's --fault-hang). */
typedef struct {
    DmkNullOpts null;
    /* > 0: submit call number `hang` blocks until dmk_fault_release(), as
     * DmkFaultScript.hang.nth; the counts start again at the open. */
    uint64_t hang;
    /* > 1: the hang strikes only from the process's hang_run-th target
     * open on (a later run of a window's: the first ones complete). */
    uint64_t hang_run;
} DmkFaultOpts;

/* opts as the fault backend's, to be set (the null options it held are
 * kept); dmk_fault_opts_get: a copy of them, all zero but the null
 * options when opts holds only those, all zero when neither. */
DmkFaultOpts *dmk_fault_opts(DmkBackendOpts *opts);
DmkFaultOpts dmk_fault_opts_get(const DmkBackendOpts *opts);

/* What the backend saw since the script was installed: the tests' exact
 * I/O counts, and whether everything opened was closed again. */
typedef struct {
    uint64_t submit_calls;
    uint64_t accepted;     /* requests accepted by submit */
    uint64_t completed[2]; /* handed back by reap, [DmkOp], failed ones too */
    uint64_t bytes[2];     /* moved by completed requests, [DmkOp] */
    uint64_t faults;       /* faults that struck: failed, short, lost requests, failed calls */
    uint64_t pushed_back;  /* submit calls that accepted nothing */
    uint64_t lost;         /* requests swallowed */
    uint64_t sync_calls;
    int targets_open; /* open now; 0 once the runner freed everything */
    int queues_open;
    int hung;      /* calls blocked by `hang` or `hang_sync` right now */
    uint64_t gaps; /* submit calls that `gap` delayed */
} DmkFaultStats;

/* Installs a copy of *script (NULL: no faults, a plain null backend),
 * zeroes the counts and returns the backend, named "fault". Requests
 * complete at once or after the null options' latency_ns, in the null
 * backend's queue. Targets take the script as it is when they open. */
const DmkBackend *dmk_backend_fault(const DmkFaultScript *script);

/* The counts since the last dmk_backend_fault(); safe while a run goes on. */
void dmk_fault_stats(DmkFaultStats *out);

/* Lets every submit call that `hang` blocks return (now and later, until
 * the next dmk_backend_fault()). */
void dmk_fault_release(void);

#endif
