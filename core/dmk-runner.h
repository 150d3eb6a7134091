/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs a DmkRunSpec on a backend: creates and fills the test file, then
 * each test (warm-up, timed passes, interval), and returns a DmkRunResult.
 * dmk_runner_run() blocks; call it from a worker thread in a GUI. The
 * callbacks run on that same thread, at most ~10 times a second.
 * dmk_runner_stop() may be called from any thread or a signal handler. */
#ifndef DMK_RUNNER_H
#define DMK_RUNNER_H

#include "dmk-result.h"
#include "dmk-spec.h"

typedef enum {
    DMK_STAGE_PREPARE = 0, /* creating and filling the test file */
    DMK_STAGE_WARMUP = 1,
    DMK_STAGE_MEASURE = 2,
    DMK_STAGE_INTERVAL = 3,
    /* closing the test file: quick, except on a file system mounted with
     * discard, which trims every extent the tests split up first */
    DMK_STAGE_CLEANUP = 4,
    /* reading back what the test wrote (the verify option); not timed */
    DMK_STAGE_VERIFY = 5,
} DmkStage;

typedef struct {
    DmkStage stage;
    size_t test_index; /* 0-based, into spec->tests */
    size_t n_tests;
    const DmkTest *test; /* NULL while preparing */
    uint32_t pass;       /* 1-based while measuring */
    uint32_t passes;
    double fraction;     /* of the current stage, 0..1 */
    double elapsed_s;    /* since the run started */
    double remaining_s;  /* estimate for the whole run, file fill excluded */
    double mb_s;         /* live throughput over the last period */
    uint64_t test_bytes; /* moved so far by the test under way (warm-up included) */
    double temp_c;       /* the drive's latest temperature; NaN without a sensor */
} DmkProgress;

typedef struct {
    void (*progress)(const DmkProgress *p, void *user_data);
    /* A test finished; t stays valid until the run result is freed. */
    void (*test_done)(const DmkTestResult *t, size_t index, void *user_data);
    void *user_data;
    /* Everything is measured (res as dmk_runner_run will return it; rc its
     * status so far) and the test file is about to be removed, which can
     * take minutes on a file system mounted with discard: a front end may
     * show or save the results now. res stays the caller's to free later.
     * Last, so that {progress, test_done, user_data} initialisers keep working. */
    void (*measured)(const DmkRunResult *res, int rc, void *user_data);
    /* The verify option, for tests: test `index` (t, not yet verified)
     * has written and finished, and its blocks are about to be read back;
     * a test corrupts the file behind the engine's back here. */
    void (*before_verify)(const DmkTestResult *t, size_t index, void *user_data);
    /* The run stalled (msg: the watchdog's message so far), said at once,
     * before anything that may block in the kernel: the test file's or
     * device's teardown, the result files. The run still returns as
     * usual if it can; a front end may bound how long it waits for that. */
    void (*stalled)(const char *msg, void *user_data);
} DmkRunCallbacks;

typedef struct DmkRunner DmkRunner;

/* spec must outlive the runner. A spec's device descriptor
 * (has_device_fd) is the runner's: closed when dmk_runner_run returns,
 * or by dmk_runner_free when it never ran. */
DmkRunner *dmk_runner_new(const DmkRunSpec *spec, const DmkBackend *backend);

/* The seconds spec plans: every test's warm-up, passes and the pauses
 * before it (the interval, a lab step's idle and settle time), the fill
 * excluded; a test that ends by bytes counts only its warm-up. The
 * runner's progress counts down from it, and the Lab tab says it before
 * a run (dmk_lab_planned_s). */
double dmk_run_spec_planned_s(const DmkRunSpec *s);

/* Returns DMK_OK, DMK_E_STOPPED after a stop, or an error. In every case
 * *out (when not NULL) receives the tests that completed, with
 * complete == true only if all did; free it with dmk_run_result_free(). */
int dmk_runner_run(DmkRunner *r, const DmkRunCallbacks *cb, DmkRunResult **out, DmkError *err);

/* Asks the run to stop soon (within ~100 ms); async-signal-safe. A
 * worker stuck in the kernel (a frozen file system) is waited for at most
 * a few seconds (STOP_GRACE_NS in dmk-runner.c), then left behind:
 * dmk_runner_run returns without it, and dmk_runner_abandoned() says so. */
void dmk_runner_stop(DmkRunner *r);

/* For a lab test's own run (DmkLabTest.run): whether the run was asked
 * to stop, and its progress in step `test` (bytes done so far, the live
 * MB/s, the run's own estimate of the seconds left), told as the runner
 * tells its own. */
bool dmk_runner_stopping(const DmkRunner *r);
void dmk_runner_lab_progress(DmkRunner *r, DmkStage stage, size_t test, double fraction,
                             uint64_t bytes, double mb_s, double left_s);
/* What such a run drives the target with (trace): the runner's backend,
 * its stop flag (set by dmk_runner_stop) and the run's seed. */
const DmkBackend *dmk_runner_backend(const DmkRunner *r);
const _Atomic int *dmk_runner_stop_flag(const DmkRunner *r);
uint64_t dmk_runner_seed(const DmkRunner *r);

/* The most a stop waits for the run's workers, counted from when the
 * runner saw it: workers that keep draining (a slow drive answering) end
 * their own drain after DMK_DRAIN_STOP_NS, and any still running after
 * this are left behind even though they beat. A front end that bounds a
 * stop itself (the CLI's guard, DMK_GUARD_EXIT_S) must allow this plus
 * the time to write the results. */
#define DMK_STOP_LIMIT_NS 6000000000ULL

/* Whether the last run left a worker thread behind, stuck in a call to
 * the OS that did not return (after a stop, or when the supervisor found
 * no progress for the watchdog time: DMK_E_TIMEOUT). Its test file is
 * freed when the process ends; a front end should say so, and a command
 * line tool should exit (it must not wait for that thread). */
bool dmk_runner_abandoned(const DmkRunner *r);

/* What a run whose thread is stuck in a call to the OS leaves behind, as
 * a sentence for the user (the command line's and the window's stall
 * messages): a device has no test file; a folder's has no name (O_TMPFILE,
 * or unlinked at once) and is freed when that call returns. */
const char *dmk_runner_stuck_note(bool device);

/* Frees the runner; one whose workers were left behind is kept instead
 * (they still use it) for as long as the process lives. */
void dmk_runner_free(DmkRunner *r);

#endif
