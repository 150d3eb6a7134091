/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bridge between the engine, which blocks in dmk_runner_run(), and
 * the GTK main loop, which must never block and is the only thread that
 * may touch widgets. The run happens on a GThread; what it reports comes
 * back to the main context as small copied structs: progress coalesced to
 * the latest one and at most ~10 a second, each finished test, and the
 * end of the run. All functions here are for the main thread. */
#ifndef DMK_RUN_WORKER_H
#define DMK_RUN_WORKER_H

#include <glib.h>

#include "dmk-result.h"
#include "dmk-runner.h"

typedef struct DmkRunWorker DmkRunWorker;

typedef struct {
    /* p->test points into a copy that lives until the callback returns. */
    void (*progress)(const DmkProgress *p, gpointer user_data);
    /* A test finished: its score, and its index in the spec. */
    void (*test_done)(const DmkTest *test, const DmkPassResult *score, size_t index,
                      gpointer user_data);
    /* The run ended (rc as dmk_runner_run returns it) and the thread is
     * joined; res (may be NULL) now belongs to the callee. */
    void (*finished)(int rc, DmkRunResult *res, const DmkError *err, gpointer user_data);
    gpointer user_data;
    /* Tests: the run is held at the report asked for (DmkRunHold), which
     * `progress` has shown; the run goes on after dmk_run_worker_stop. */
    void (*held)(const DmkProgress *p, gpointer user_data);
    /* The run stalled (msg: the watchdog's message, with how long nothing
     * moved), delivered before `finished` and as soon as the engine finds
     * it: what the run's thread does next (its teardown) may block in the
     * kernel, so `finished` may be late or never come. */
    void (*stalled)(const char *msg, gpointer user_data);
} DmkRunWorkerCallbacks;

/* Tests: where a run waits for a stop. The run's thread stops at its
 * `count`th progress report of `stage` with bytes moved (test_bytes > 0:
 * the file's fill under way, the measurement running) and waits there for
 * dmk_run_worker_stop, so a scripted Stop lands in that stage by
 * construction, however fast or slow the machine is. Only the reporting
 * thread waits: the I/O threads go on until they see the stop. */
typedef struct {
    DmkStage stage;
    unsigned count; /* 0: never hold */
} DmkRunHold;

/* Copies spec and starts the run on a new thread. */
DmkRunWorker *dmk_run_worker_start(const DmkRunSpec *spec, const DmkBackend *backend,
                                   const DmkRunWorkerCallbacks *cb);

/* The same, holding the run as *hold says (NULL: never). */
DmkRunWorker *dmk_run_worker_start_held(const DmkRunSpec *spec, const DmkBackend *backend,
                                        const DmkRunWorkerCallbacks *cb, const DmkRunHold *hold);

/* Asks the run to stop; `finished` follows within about a second. */
void dmk_run_worker_stop(DmkRunWorker *w);

/* For teardown: stops the run, waits for the thread and drops every
 * callback not yet delivered (the owner is going away), then releases the
 * owner's reference. */
void dmk_run_worker_cancel(DmkRunWorker *w);

/* After `finished`: whether the run left a worker thread stuck in the
 * kernel behind (dmk_runner_abandoned): the window must say so. */
gboolean dmk_run_worker_left_behind(DmkRunWorker *w);

/* For a run whose own thread is stuck (in a call to the OS that does not
 * return, e.g. on a frozen file system): stops it, drops every callback
 * not yet delivered and releases the owner's reference without waiting
 * for the thread, which ends by itself when the call returns. */
void dmk_run_worker_abandon(DmkRunWorker *w);

/* Releases the owner's reference after `finished` was delivered. */
void dmk_run_worker_unref(DmkRunWorker *w);

#endif
