/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One worker: a thread with its own queue, buffers, offsets and counters.
 * Private to the core; the runner drives it. */
#ifndef DMK_WORKER_H
#define DMK_WORKER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dmk-hist.h"
#include "dmk-mix.h"
#include "dmk-offsets.h"
#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-result.h"
#include "dmk-rng.h"
#include "dmk-spec.h"
#include "dmk-verify.h"

/* What a worker is doing in the backend, for the supervisor's message. */
typedef enum {
    DMK_CALL_NONE = 0,
    DMK_CALL_SUBMIT = 1,
    DMK_CALL_REAP = 2,
} DmkWorkerCall;

/* A gap shorter than this is never a pause: a loaded machine deschedules
 * a thread for tens of milliseconds, which does not falsify a pass. */
#define DMK_PAUSE_MIN_NS 500000000ULL
/* ... nor one shorter than this many times the p99 latency seen so far:
 * a drive that takes seconds per request is slow, not paused. */
#define DMK_PAUSE_P99_FACTOR 50
/* Short pauses, each under DMK_PAUSE_MIN_NS, that add up (a process
 * stopped again and again): a gap longer than this and than
 * DMK_PAUSE_P99_FACTOR x the p99 latency counts towards the pass's sum,
 * and a sum over DMK_PAUSE_SHARE_PCT percent of the pass flags it
 * (docs/results.md, "paused", says why no normal scheduling reaches it). */
#define DMK_PAUSE_SHORT_NS  50000000ULL
#define DMK_PAUSE_SHARE_PCT 5
/* After a stop, how long the worker waits for what it has in flight
 * before leaving it to the OS (a hung drive, a device over a frozen
 * file system): its queue is then never destroyed (io_destroy would
 * wait for the drive), see DmkWorker.inflight_left. It bounds the whole
 * drain, counted from when the worker saw the stop, so a slow drive that
 * keeps answering does not hold the stop either (DMK_STOP_LIMIT_NS). */
#define DMK_DRAIN_STOP_NS 3000000000ULL

/* One timeline interval of one worker. */
typedef struct {
    uint64_t ios, bytes, lat_sum_ns;
} DmkSlot;

/* When a worker measures what. Times are dmk_clock_ns() values. */
typedef struct {
    uint64_t t_measure; /* end of warm-up, start of pass 1 */
    uint64_t pass_ns;
    uint32_t n_passes;
    uint64_t t_end;       /* t_measure + n_passes * pass_ns */
    uint64_t limit_ios;   /* > 0: issue at most this many I/Os */
    bool uncounted;       /* the fill: completions are checked, not measured */
    uint64_t timeline_ns; /* 0: no timeline */
    uint64_t watchdog_ns;
    double rate_iops; /* > 0: this worker's I/Os are issued evenly at this rate */
    uint32_t
        keep_ios; /* > 0: the first this many measured I/Os are kept, each (DmkTest.keep_ios) */
} DmkSchedule;

typedef struct DmkWorker {
    const DmkBackend *be;
    DmkQueue *q;
    const DmkJob *job;
    const DmkPool *pool;
    const char *path; /* for messages: "the test file in DIR", "the device DEV" */
    atomic_int *stop; /* shared: nonzero ends every worker */
    DmkSchedule sched;
    DmkOffsets offs;
    DmkRng rng;
    DmkMix mix; /* read or write, I/O by I/O (dmk-mix.h) */
    uint32_t depth;
    DmkIo *ios;
    DmkIo **pending; /* prepared, not yet accepted by the OS */
    DmkIo **done;
    DmkIo **idle;        /* free requests, a stack */
    double period_ns;    /* 1e9 / rate_iops, 0 when unlimited */
    double next_due;     /* dmk_clock_ns() time the next rate-limited I/O is due */
    unsigned char *bufs; /* depth x block_size: reads, and writes of keyed data */
    uint64_t data_key;   /* the counter of the next write's first key (dmk_pool_fill) */
    /* results, [pass * 2 + op] */
    DmkHist *hist;
    uint64_t *bytes;
    DmkSlot *timeline;
    size_t timeline_len, timeline_cap;
    /* sched.keep_ios > 0: the measured I/Os, one sample each with its
     * offset, in completion order (allocated for all of them up front). */
    DmkSample *kept;
    size_t kept_len;
    uint64_t issued, completed;
    uint64_t last_counted_ns;    /* when the last measured I/O completed */
    _Atomic uint64_t live_bytes; /* read by the runner for progress */
    /* Achieved queue depth: requests in flight x ns, over qd_span_ns of
     * the measured part, stamped at each submit and reap (dmk_worker_qd). */
    uint64_t qd_area, qd_span_ns, qd_last_ns;
    DmkThread *thread;
    atomic_int finished; /* set when dmk_worker_run returns */
    /* For the runner's supervisor, which must not depend on this thread
     * coming back from the kernel (a frozen file system blocks io_submit):
     * when the loop last came back from the backend, and the request of
     * the call under way, so a call that never returns can be named. */
    _Atomic uint64_t beat_ns;
    atomic_int call_kind; /* DmkWorkerCall */
    atomic_int call_op;   /* DmkOp */
    _Atomic uint64_t call_offset;
    _Atomic uint32_t call_len;
    _Atomic uint64_t call_since_ns;
    /* Pauses (results.md, "paused"): per pass, the longest time in which
     * the loop neither submitted nor reaped anything for far longer than
     * the latency seen and the wait it asked for (the process stopped, the
     * file system froze briefly); 0 for none. */
    uint64_t *pause_ns;
    /* Per pass, the sum of the gaps over DMK_PAUSE_SHORT_NS (and the
     * latency rule): short pauses that add up. */
    uint64_t *pause_sum_ns;
    /* Requests still in flight when the loop gave up waiting for them (a
     * stall, or a stop on a hung drive): the kernel may still write into
     * their buffers, and destroying the queue would wait for the drive,
     * so such a worker is never destroyed (the runner leaves its crew
     * behind, as a stuck one's). */
    int inflight_left;
    int rc;
    DmkError err;
    /* The verify option: each write's buffer is stamped with its block
     * header and the write is recorded in the map. NULL: no verify. */
    const DmkVerifyPool *vpool;
    DmkVerifyMap *vmap;
} DmkWorker;

/* Allocates the worker's queue and memory; slice is [base, base + span). */
int dmk_worker_init(DmkWorker *w, const DmkBackend *be, DmkTarget *target, const DmkJob *job,
                    const DmkPool *pool, uint64_t base, uint64_t span, uint64_t seed,
                    const DmkSchedule *sched, atomic_int *stop, const char *path, DmkError *err);

/* Turns the verify option on for a worker made by dmk_worker_init: a
 * buffer per request and a map of the worker's slice for test number
 * `test` (1-based); `index` numbers the worker within its test. */
int dmk_worker_verify_init(DmkWorker *w, const DmkVerifyPool *vp, uint32_t test, uint32_t index,
                           DmkError *err);

/* The I/O loop: runs until the schedule ends, a stop, or an error (w->rc). */
void dmk_worker_run(DmkWorker *w);

void dmk_worker_destroy(DmkWorker *w);

/* The time-averaged number of requests in flight during the measured
 * part; 0 when nothing was measured. */
double dmk_worker_qd(const DmkWorker *w);

#endif
