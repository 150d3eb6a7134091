/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stop while a slow drive drains a deep queue: the fault backend's
 * serve_ns makes every queue's drive answer one request at a time, here
 * one a second, so RND4K Q32T16 (512 requests in flight, 32 a queue)
 * would need 32 s to drain, far over
 * every bound a stop gives. The drive keeps answering, so nothing looks
 * stuck: the workers must end the drain themselves, DMK_DRAIN_STOP_NS
 * after the stop, leave the rest to the OS, and the finished test must
 * reach the results (cb->measured and the returned result).
 *
 * On the simulated clock (dmk_clock_simulate): the times checked are the
 * engine's own, exact whatever the machine's load; the stop comes from
 * the progress callback once the first test has finished, a state. */
#include "dmk-test-spec.h"
#include "dmk-test.h"

#include <stdbool.h>

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "dmk-worker.h"
#include "fault/dmk-fault.h"

#define MIB       (1ULL << 20)
#define FAULT_DIR "/fault/drain-dir"

static DmkRunSpec *new_spec(void)
{
    DmkRunSpec *s = dmk_test_spec_new(FAULT_DIR, 64 * MIB, 5.0);
    s->watchdog_s = 60.0; /* far over the drain: no stall here */
    dmk_null_opts(&s->backend_opts)->latency_ns = 1000000;
    dmk_test_spec_add(s, "SEQ1M Q8T1", DMK_MODE_READ, 0);
    dmk_test_spec_add(s, "RND4K Q32T16", DMK_MODE_WRITE, 0);
    return s;
}

typedef struct {
    DmkRunner *runner;
    size_t done;         /* tests finished */
    uint64_t stopped_ns; /* when the progress callback stopped the run */
    bool measured;       /* cb->measured was called */
    size_t measured_n;   /* with this many tests */
    int measured_rc;
    uint64_t measured_ns; /* and when */
} Drain;

static void on_test_done(const DmkTestResult *t, size_t index, void *user_data)
{
    (void)t;
    Drain *d = user_data;
    d->done = index + 1;
}

/* Stops once the second test measures with its queues full. */
static void on_progress(const DmkProgress *p, void *user_data)
{
    Drain *d = user_data;
    if (!d->stopped_ns && d->done == 1 && p->stage == DMK_STAGE_MEASURE && p->test_index == 1 &&
        p->test_bytes > 0) {
        d->stopped_ns = dmk_clock_ns();
        dmk_runner_stop(d->runner);
    }
}

static void on_measured(const DmkRunResult *res, int rc, void *user_data)
{
    Drain *d = user_data;
    d->measured = true;
    d->measured_n = res->n_tests;
    d->measured_rc = rc;
    d->measured_ns = dmk_clock_ns();
}

static void run_slow_drain(bool close_waits)
{
    DmkRunSpec *spec = new_spec();
    /* 1 s a request: a queue of 32 needs 32 s to drain. */
    DmkFaultScript s = {.serve_ns = 1000000000ULL, .close_waits = close_waits};
    Drain d = {0};
    DmkRunCallbacks cb = {on_progress, on_test_done, &d, on_measured, NULL, NULL};
    d.runner = dmk_runner_new(spec, dmk_backend_fault(&s));
    DMK_CHECK(d.runner != NULL);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    int rc = dmk_runner_run(d.runner, &cb, &res, &err);
    uint64_t end = dmk_clock_ns();
    DmkFaultStats st;
    dmk_fault_stats(&st);
    printf("# close_waits %d: rc %d, stop to measured %.3f s, to end %.3f s, queues open %d: "
           "%s\n",
           close_waits, rc, (double)(d.measured_ns - d.stopped_ns) / 1e9,
           (double)(end - d.stopped_ns) / 1e9, st.queues_open, err.msg);
    DMK_CHECK(d.stopped_ns != 0);
    DMK_CHECK_INT(rc, DMK_E_STOPPED);
    /* The finished test reaches the results, and in time: the drain ends
     * DMK_DRAIN_STOP_NS after the stop (plus a reap's wait and the
     * runner's poll), well before DMK_STOP_LIMIT_NS and the CLI's guard. */
    DMK_CHECK(d.measured);
    DMK_CHECK_INT((int)d.measured_n, 1);
    DMK_CHECK_INT(d.measured_rc, DMK_E_STOPPED);
    DMK_CHECK(d.measured_ns - d.stopped_ns > DMK_DRAIN_STOP_NS);
    DMK_CHECK(d.measured_ns - d.stopped_ns < DMK_DRAIN_STOP_NS + 1000000000ULL);
    DMK_CHECK(res != NULL && res->n_tests == 1 && !res->complete);
    if (res && res->n_tests == 1)
        DMK_CHECK(res->tests[0].passes != NULL);
    DMK_CHECK(strstr(err.msg, "stopped by the user") == err.msg);
    DMK_CHECK(!strstr(err.msg, "stuck"));
    if (close_waits) {
        /* The queues keep their requests: never destroyed (io_destroy
         * would wait for the drive), and the message says how many. */
        DMK_CHECK(dmk_runner_abandoned(d.runner));
        DMK_CHECK(st.queues_open == 16);
        DMK_CHECK(strstr(err.msg, " requests still in flight on the test file in " FAULT_DIR
                                  " were left to the OS, which ends them when the drive "
                                  "answers") != NULL);
    } else {
        /* Queues that close without waiting are closed as usual. */
        DMK_CHECK(!dmk_runner_abandoned(d.runner));
        DMK_CHECK_INT(st.queues_open, 0);
        DMK_CHECK_INT(st.targets_open, 0);
    }
    dmk_runner_free(d.runner); /* kept alive inside when abandoned */
    dmk_run_result_free(res);
    free(spec);
}

static void test_slow_drain_left_to_the_os(void)
{
    run_slow_drain(true);
}

static void test_slow_drain_closes(void)
{
    run_slow_drain(false);
}

int main(void)
{
    dmk_clock_simulate();
    DMK_TEST(test_slow_drain_closes);
    DMK_TEST(test_slow_drain_left_to_the_os);
    return dmk_test_done();
}
