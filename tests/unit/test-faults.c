/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine against a misbehaving drive: whole runs on the fault backend
 * (platform/fault), one per fault, in the fill and in a measured test.
 * Each failed run must end with the fault's DmkErrCode and OS code, a
 * message that names the operation, the test file's directory and (for
 * I/O) the offset, a result marked incomplete that keeps only the tests
 * finished before the fault, every queue and target closed again, and
 * promptly: within the watchdog (1 s here) and a second. Runs that the
 * engine must survive (partial submits, push-back, DMK_E_AGAIN) must do
 * exactly the I/O they would have done without the fault.
 *
 * With no latency the fill is deterministic: 16 writes of 1 MiB at QD8,
 * two submit calls of 8, completions in order, so the 5th completion is
 * the write at offset 4 MiB and the 2nd call starts at offset 8 MiB. */
#include "dmk-test-spec.h"
#include "dmk-test.h"

#include <stdbool.h>

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "fault/dmk-fault.h"

#define MIB       (1ULL << 20)
#define FAULT_DIR "/fault/target-dir"
#define FILL_IOS  16 /* 16 MiB in 1 MiB blocks */

static DmkRunSpec *new_spec(void)
{
    DmkRunSpec *s = dmk_test_spec_new(FAULT_DIR, 16 * MIB, 0.2); /* never touched: no file */
    s->watchdog_s = 1.0;
    /* The program runs on the simulated clock, which moves only while
     * every thread waits: a timed test needs I/O that takes time. */
    dmk_null_opts(&s->backend_opts)->latency_ns = 100000;
    return s;
}

typedef struct {
    DmkTestRun run;
    int tests_done;
    DmkFaultStats stats;
} Outcome;

static void on_test_done(const DmkTestResult *t, size_t index, void *user_data)
{
    (void)t;
    (void)index;
    ((Outcome *)user_data)->tests_done++;
}

/* Runs spec on the fault backend following script; free with outcome_free(). */
static void run_script(const DmkRunSpec *spec, const DmkFaultScript *script, Outcome *o)
{
    memset(o, 0, sizeof *o);
    DmkRunCallbacks cb = {NULL, on_test_done, o};
    DmkRunner *r = dmk_runner_new(spec, dmk_backend_fault(script));
    DMK_CHECK(r != NULL);
    dmk_test_run_timed(r, &cb, &o->run);
    dmk_runner_free(r);
    dmk_fault_stats(&o->stats);
    printf("# rc %d, os_error %d, %.2f s: %s\n", o->run.rc, o->run.err.os_error, o->run.took_s,
           o->run.err.msg);
}

static void outcome_free(Outcome *o)
{
    dmk_run_result_free(o->run.res);
    o->run.res = NULL;
}

static void check_starts(const char *msg, const char *prefix)
{
    if (strncmp(msg, prefix, strlen(prefix)) != 0) {
        printf("# the message does not start with \"%s\"\n", prefix);
        dmk_test_failed_checks++;
    }
}

/* Nothing the run opened is left open. */
static void check_freed(const Outcome *o)
{
    DMK_CHECK_INT(o->stats.targets_open, 0);
    DMK_CHECK_INT(o->stats.queues_open, 0);
}

/* What every fault must leave behind: its codes, a message naming the
 * directory, an incomplete result with the n_tests finished before it
 * (whole, not partial), nothing open, and an end within max_s. */
static void check_failed(const Outcome *o, int code, int os_error, size_t n_tests, double max_s)
{
    DMK_CHECK_INT(o->run.rc, code);
    DMK_CHECK_INT(o->run.err.code, code);
    DMK_CHECK_INT(o->run.err.os_error, os_error);
    DMK_CHECK_HAS(o->run.err.msg, FAULT_DIR);
    DMK_CHECK(o->run.res != NULL);
    if (o->run.res) {
        DMK_CHECK(!o->run.res->complete);
        DMK_CHECK_INT(o->run.res->n_tests, n_tests);
        for (size_t i = 0; i < o->run.res->n_tests; i++)
            DMK_CHECK(o->run.res->tests[i].n_passes > 0 && !o->run.res->tests[i].partial);
        DMK_CHECK_STR(o->run.res->backend, "fault");
    }
    DMK_CHECK_INT(o->tests_done, n_tests);
    DMK_CHECK(o->run.took_s < max_s);
    check_freed(o);
}

static void check_complete(const Outcome *o, size_t n_tests)
{
    DMK_CHECK_INT(o->run.rc, DMK_OK);
    DMK_CHECK(o->run.res != NULL);
    if (o->run.res) {
        DMK_CHECK(o->run.res->complete);
        DMK_CHECK_INT(o->run.res->n_tests, n_tests);
    }
    check_freed(o);
}

/* ---- the baseline --------------------------------------------------------- */

/* No script: a null backend that counts, so the other tests' counts mean
 * something. */
static void test_no_faults(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    Outcome o;
    run_script(spec, NULL, &o);
    check_complete(&o, 1);
    DMK_CHECK_INT(o.stats.completed[DMK_OP_WRITE], FILL_IOS);
    DMK_CHECK(o.stats.bytes[DMK_OP_WRITE] == FILL_IOS * MIB);
    DMK_CHECK(o.stats.completed[DMK_OP_READ] > 0);
    DMK_CHECK_INT(o.stats.faults, 0);
    DMK_CHECK_INT(o.stats.sync_calls, 1);
    DMK_CHECK(o.run.took_s < 3.0);
    outcome_free(&o);
    free(spec);
}

/* ---- failed completions ------------------------------------------------- */

static void test_eio_in_fill(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.fail = {.nth = 5, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_EIO}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_EIO, 0, 2.0);
    check_starts(o.run.err.msg, "preparing the test file failed: writing 1048576 bytes at offset "
                                "4194304 of the test file in " FAULT_DIR " failed: ");
    DMK_CHECK_INT(o.stats.sync_calls, 0); /* a failed fill is not flushed as if written */
    DMK_CHECK_INT(o.stats.completed[DMK_OP_READ], 0);
    outcome_free(&o);
    free(spec);
}

/* The second test reads and fails: the first is kept, whole; the second
 * is not, even with keep_partial (which is for stops, not faults). */
static void test_eio_in_measured_test(void)
{
    DmkRunSpec *spec = new_spec();
    spec->keep_partial = true;
    dmk_test_spec_add(spec, "SEQ1M Q8T1", DMK_MODE_WRITE, 0);
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {
        .fail = {
            .nth = 300, .ops = DMK_FAULT_READS, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_EIO}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_EIO, 1, 3.0);
    check_starts(o.run.err.msg, "reading 4096 bytes at offset ");
    DMK_CHECK_HAS(o.run.err.msg, " of the test file in " FAULT_DIR " failed: ");
    if (o.run.res && o.run.res->n_tests == 1)
        DMK_CHECK_INT(o.run.res->tests[0].test.mode, DMK_MODE_WRITE);
    DMK_CHECK_INT(o.stats.faults, 1);
    outcome_free(&o);
    free(spec);
}

/* A short transfer, in a test of four threads: the other three end too. */
static void test_short_transfer(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "SEQ1M Q8T1", DMK_MODE_READ, 0);
    dmk_test_spec_add(spec, "RND4K Q8T4", DMK_MODE_READ, 0);
    /* with no latency the first test reads far more than 500 blocks in its 0.2 s */
    DmkFaultScript s = {.short_io = {.nth = 500, .ops = DMK_FAULT_READS}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_SHORT, 0, 0, 3.0);
    check_starts(o.run.err.msg, "reading 1048576 bytes at offset ");
    DMK_CHECK_HAS(o.run.err.msg,
                  " of the test file in " FAULT_DIR " moved only 524288 bytes (short "
                  "transfer)");
    outcome_free(&o);

    /* the same in the four-thread test: count from its own first read */
    spec->tests[0] = spec->tests[1];
    spec->n_tests = 1;
    s.short_io.nth = 300;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_SHORT, 0, 0, 3.0);
    check_starts(o.run.err.msg, "reading 4096 bytes at offset ");
    DMK_CHECK_HAS(o.run.err.msg, "moved only 2048 bytes (short transfer)");
    DMK_CHECK_INT(o.stats.faults, 1);
    outcome_free(&o);
    free(spec);
}

static void test_nospc_on_write(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_WRITE, 0);
    DmkFaultScript s = {.fail = {.nth = 3,
                                 .ops = DMK_FAULT_WRITES,
                                 .code = DMK_E_NOSPC,
                                 .os_error = DMK_FAULT_OS_ENOSPC}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_NOSPC, DMK_FAULT_OS_ENOSPC, 0, 2.0);
    check_starts(o.run.err.msg, "preparing the test file failed: writing 1048576 bytes at offset "
                                "2097152 of the test file in " FAULT_DIR " failed: ");
    outcome_free(&o);

    /* past the fill: the read test is kept, the write test fails */
    s.fail.nth = FILL_IOS + 300;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_NOSPC, DMK_FAULT_OS_ENOSPC, 1, 3.0);
    check_starts(o.run.err.msg, "writing 4096 bytes at offset ");
    DMK_CHECK_HAS(o.run.err.msg, " of the test file in " FAULT_DIR " failed: ");
    outcome_free(&o);
    free(spec);
}

/* A request that fails after the test's time is up, while the worker
 * waits for what is still in flight, fails the run too. At QD1 and 300 ms
 * a request, a 0.4 s test completes its 1st read at 0.3 s and its 2nd,
 * submitted then, at 0.6 s: after the end. */
static void test_eio_after_the_end(void)
{
    DmkRunSpec *spec = new_spec();
    spec->measure_s = 0.4;
    dmk_null_opts(&spec->backend_opts)->latency_ns = 300000000;
    dmk_test_spec_add(spec, "RND4K Q1T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {
        .fail = {.nth = 2, .ops = DMK_FAULT_READS, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_EIO}};
    Outcome o;
    run_script(spec, &s, &o);
    if (o.stats.completed[DMK_OP_READ] < 2) {
        outcome_free(&o);
        free(spec);
        DMK_SKIP("the machine was too slow to complete a read within the test");
    }
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_EIO, 0, 3.0);
    check_starts(o.run.err.msg, "reading 4096 bytes at offset ");
    outcome_free(&o);
    free(spec);
}

/* ---- submit -------------------------------------------------------------- */

/* The runs of the submit tests: a timed read test and a write test that
 * ends by bytes (as the full-span write does), so the count of writes is
 * exact: the fill's 16 MiB and the test's 8 MiB. */
static DmkRunSpec *exact_spec(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_null_opts(&spec->backend_opts)->latency_ns = 50000;
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    dmk_test_spec_add(spec, "SEQ128K Q8T1", DMK_MODE_WRITE, 0);
    spec->tests[1].limit_bytes = 8 * MIB;
    return spec;
}

static void check_exact(const Outcome *o)
{
    check_complete(o, 2);
    DMK_CHECK_INT(o->stats.completed[DMK_OP_WRITE], FILL_IOS + 8 * MIB / (128 << 10));
    DMK_CHECK(o->stats.bytes[DMK_OP_WRITE] == (FILL_IOS + 8) * MIB);
    DMK_CHECK_INT(o->stats.lost, 0);
    if (o->run.res && o->run.res->n_tests == 2) {
        DMK_CHECK(o->run.res->tests[0].score.read.ios > 0);
        DMK_CHECK(o->run.res->tests[1].score.write.bytes == 8 * MIB);
    }
    DMK_CHECK(o->run.took_s < 3.0);
}

/* Every submit call takes at most 3 requests: the engine keeps the rest
 * and submits them later, none lost and none twice. */
static void test_partial_submit(void)
{
    DmkRunSpec *spec = exact_spec();
    DmkFaultScript s = {.submit_max = 3};
    Outcome o;
    run_script(spec, &s, &o);
    check_exact(&o);
    DMK_CHECK(o.stats.accepted <= 3 * o.stats.submit_calls);
    outcome_free(&o);

    /* one at a time */
    s.submit_max = 1;
    run_script(spec, &s, &o);
    check_exact(&o);
    DMK_CHECK_INT(o.stats.accepted, o.stats.submit_calls);
    outcome_free(&o);
    free(spec);
}

/* Submit accepts nothing a few times (libaio's EAGAIN): the engine reaps
 * or waits, and tries again. First 5 calls in the fill; then 50 calls of
 * at most 2 requests, which reach past the fill's last block. */
static void test_push_back(void)
{
    DmkRunSpec *spec = exact_spec();
    DmkFaultScript s = {.push_back = {.nth = 2, .times = 5}};
    Outcome o;
    run_script(spec, &s, &o);
    check_exact(&o);
    DMK_CHECK_INT(o.stats.pushed_back, 5);
    outcome_free(&o);

    s.submit_max = 2; /* calls that take some, then calls that take none */
    s.push_back.times = 50;
    run_script(spec, &s, &o);
    check_exact(&o);
    DMK_CHECK_INT(o.stats.pushed_back, 50);
    outcome_free(&o);
    free(spec);
}

/* A drive that never takes a request again: nothing is in flight, so no
 * completion can be late, yet the watchdog must end the run. */
static void test_push_back_forever(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.push_back = {.nth = 2, .times = DMK_FAULT_FOREVER}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_TIMEOUT, 0, 0, 1.0 + 1.0);
    check_starts(o.run.err.msg, "preparing the test file failed: ");
    DMK_CHECK_HAS(o.run.err.msg, "writing 1048576 bytes at offset 8388608");
    outcome_free(&o);
    free(spec);
}

/* The same in a timed test: it would end by its clock, 5 s later, but
 * the watchdog ends it first. */
static void test_push_back_forever_in_test(void)
{
    DmkRunSpec *spec = new_spec();
    spec->measure_s = 5.0;
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.push_back = {.nth = 10, .times = DMK_FAULT_FOREVER}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_TIMEOUT, 0, 0, 1.0 + 1.0);
    check_starts(o.run.err.msg, "no I/O completed for 1 s on the test file in " FAULT_DIR
                                ": the drive kept refusing 32 requests, the first reading 4096 "
                                "bytes at offset ");
    outcome_free(&o);
    free(spec);
}

/* A negative DMK_E_AGAIN is the same push-back as 0 accepted ("try again
 * later", dmk-error.h): retried, not fatal. */
static void test_again_is_retried(void)
{
    DmkRunSpec *spec = exact_spec();
    DmkFaultScript s = {.submit_error = {.nth = 2, .times = 3, .code = DMK_E_AGAIN}};
    Outcome o;
    run_script(spec, &s, &o);
    check_exact(&o);
    DMK_CHECK_INT(o.stats.faults, 3);
    outcome_free(&o);
    free(spec);
}

/* Any other negative code is a failure, even an EINTR-like one: a backend
 * retries interrupted calls itself (dmk-aio.c loops on EINTR), so what
 * reaches the engine is an error. */
static void test_interrupted_submit_fails(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {
        .submit_error = {.nth = 2, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_EINTR}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_EINTR, 0, 2.0);
    check_starts(o.run.err.msg, "preparing the test file failed: writing 1048576 bytes at offset "
                                "8388608 of the test file in " FAULT_DIR
                                " could not be submitted: submitting 8 requests failed: ");
    outcome_free(&o);
    free(spec);
}

/* ---- lost completions --------------------------------------------------- */

/* The 4th write of the fill is swallowed: the other 15 complete, then
 * nothing; the watchdog ends the run a second later. */
static void test_lost_in_fill(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.lose = {.nth = 4}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_TIMEOUT, 0, 0, 1.0 + 1.0);
    DMK_CHECK(o.run.took_s >= 1.0);
    check_starts(o.run.err.msg, "preparing the test file failed: no I/O completed for 1 s on the "
                                "test file in " FAULT_DIR);
    DMK_CHECK_HAS(o.run.err.msg, "writing 1048576 bytes at offset 3145728");
    DMK_CHECK_INT(o.stats.lost, 1);
    DMK_CHECK_INT(o.stats.completed[DMK_OP_WRITE], FILL_IOS - 1);
    outcome_free(&o);
    free(spec);
}

/* At QD1 the lost read leaves nothing in flight: the watchdog fires. */
static void test_lost_at_qd1(void)
{
    DmkRunSpec *spec = new_spec();
    spec->measure_s = 5.0; /* the watchdog, not the clock, ends it */
    dmk_test_spec_add(spec, "RND4K Q1T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.lose = {.nth = 100, .ops = DMK_FAULT_READS}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_TIMEOUT, 0, 0, 1.0 + 1.0);
    check_starts(o.run.err.msg, "no I/O completed for 1 s on the test file in " FAULT_DIR);
    DMK_CHECK_HAS(o.run.err.msg, "reading 4096 bytes at offset ");
    outcome_free(&o);
    free(spec);
}

/* At QD32 the other 31 keep completing, so the run goes on to the end of
 * its time; then the lost one is still missing, and the run must not pass
 * for sound. It ends within the watchdog after the test's time. */
static void test_lost_at_qd32(void)
{
    DmkRunSpec *spec = new_spec();
    spec->measure_s = 0.3;
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.lose = {.nth = 100, .ops = DMK_FAULT_READS}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_TIMEOUT, 0, 0, 0.3 + 1.0 + 1.0);
    check_starts(o.run.err.msg, "no I/O completed for 1 s on the test file in " FAULT_DIR);
    DMK_CHECK_HAS(o.run.err.msg, "reading 4096 bytes at offset ");
    DMK_CHECK(o.stats.completed[DMK_OP_READ] > 100);
    outcome_free(&o);
    free(spec);
}

/* ---- the drive vanishes ------------------------------------------------- */

static void test_vanish(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.vanish = {.nth = 2, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_ENODEV}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_ENODEV, 0, 2.0);
    check_starts(o.run.err.msg, "preparing the test file failed: writing 1048576 bytes at offset "
                                "8388608 of the test file in " FAULT_DIR
                                " could not be submitted: submitting 8 requests failed: ");
    outcome_free(&o);

    /* in the measured test, with requests in flight that fail with it */
    dmk_null_opts(&spec->backend_opts)->latency_ns = 100000;
    s.vanish.nth = 50;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_ENODEV, 0, 2.0);
    check_starts(o.run.err.msg, "reading 4096 bytes at offset ");
    DMK_CHECK_HAS(o.run.err.msg, " could not be submitted: submitting ");
    outcome_free(&o);
    free(spec);
}

/* The backend itself: after the drive is gone, flushing fails too, and
 * what was in flight completes at once with the error. */
static void test_vanished_drive_fails_sync(void)
{
    DmkFaultScript s = {.vanish = {.nth = 2, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_ENODEV}};
    const DmkBackend *be = dmk_backend_fault(&s);
    DmkBackendOpts opts = {0};
    dmk_null_opts(&opts)->latency_ns = 10000000000ULL;
    DmkTargetParams p = {.dir = FAULT_DIR, .size = 16 * MIB, .opts = &opts};
    DmkTarget *t = NULL;
    DmkTargetInfo info;
    DmkQueue *q = NULL;
    DmkError err = {0};
    DMK_CHECK_INT(be->target_open(&p, &t, &info, &err), DMK_OK);
    DMK_CHECK_INT(be->queue_open(t, 4, &q, &err), DMK_OK);
    DMK_CHECK_INT(be->target_sync(t, &err), DMK_OK);
    DmkIo ios[2] = {{.offset = 0, .len = 4096}, {.offset = 4096, .len = 4096}};
    DmkIo *batch[2] = {&ios[0], &ios[1]}, *done[2];
    DMK_CHECK_INT(be->submit(q, batch, 2, &err), 2);
    DMK_CHECK_INT(be->submit(q, batch, 1, &err), DMK_E_IO);
    DMK_CHECK_INT(err.os_error, DMK_FAULT_OS_ENODEV);
    uint64_t t0 = dmk_clock_ns();
    DMK_CHECK_INT(be->reap(q, 2, 2, 1000000000, done, &err), 2);
    DMK_CHECK(dmk_clock_ns() - t0 < 500000000); /* not the 10 s latency */
    DMK_CHECK(ios[0].res == DMK_E_IO && ios[1].res == DMK_E_IO);
    DMK_CHECK_INT(ios[0].os_error, DMK_FAULT_OS_ENODEV);
    memset(&err, 0, sizeof err);
    DMK_CHECK_INT(be->target_sync(t, &err), DMK_E_IO);
    DMK_CHECK_INT(err.os_error, DMK_FAULT_OS_ENODEV);
    check_starts(err.msg, "flushing the test file in " FAULT_DIR " to the drive failed: ");
    be->queue_close(q);
    be->target_close(t);
    DmkFaultStats st;
    dmk_fault_stats(&st);
    DMK_CHECK_INT(st.targets_open, 0);
    DMK_CHECK_INT(st.queues_open, 0);
}

/* ---- the test file ------------------------------------------------------ */

static void test_open_fails(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.open = {.nth = 1, .code = DMK_E_NOSPC, .os_error = DMK_FAULT_OS_ENOSPC}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_NOSPC, DMK_FAULT_OS_ENOSPC, 0, 1.0);
    check_starts(o.run.err.msg, "creating the test file in " FAULT_DIR " failed: ");
    DMK_CHECK_INT(o.stats.submit_calls, 0);
    outcome_free(&o);
    free(spec);
}

static void test_sync_fails_after_fill(void)
{
    DmkRunSpec *spec = new_spec();
    dmk_test_spec_add(spec, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkFaultScript s = {.sync = {.nth = 1, .code = DMK_E_IO, .os_error = DMK_FAULT_OS_EIO}};
    Outcome o;
    run_script(spec, &s, &o);
    check_failed(&o, DMK_E_IO, DMK_FAULT_OS_EIO, 0, 2.0);
    check_starts(o.run.err.msg,
                 "preparing the test file failed: flushing the test file in " FAULT_DIR
                 " to the drive failed: ");
    DMK_CHECK_INT(o.stats.completed[DMK_OP_WRITE], FILL_IOS);
    DMK_CHECK_INT(o.stats.completed[DMK_OP_READ], 0); /* no test ran on an unflushed file */
    outcome_free(&o);
    free(spec);
}

int main(void)
{
    dmk_clock_simulate();
    uint64_t t0 = dmk_clock_ns();
    DMK_TEST(test_no_faults);
    DMK_TEST(test_eio_in_fill);
    DMK_TEST(test_eio_in_measured_test);
    DMK_TEST(test_short_transfer);
    DMK_TEST(test_nospc_on_write);
    DMK_TEST(test_eio_after_the_end);
    DMK_TEST(test_partial_submit);
    DMK_TEST(test_push_back);
    DMK_TEST(test_push_back_forever);
    DMK_TEST(test_push_back_forever_in_test);
    DMK_TEST(test_again_is_retried);
    DMK_TEST(test_interrupted_submit_fails);
    DMK_TEST(test_lost_in_fill);
    DMK_TEST(test_lost_at_qd1);
    DMK_TEST(test_lost_at_qd32);
    DMK_TEST(test_vanish);
    DMK_TEST(test_vanished_drive_fails_sync);
    DMK_TEST(test_open_fails);
    DMK_TEST(test_sync_fails_after_fill);
    printf("# all in %.1f s\n", (double)(dmk_clock_ns() - t0) / 1e9);
    return dmk_test_done();
}
