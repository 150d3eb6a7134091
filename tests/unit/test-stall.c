/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stalls and pauses, on the fault backend: a submit call that never
 * returns (io_submit on a frozen file system, where no signal reaches the
 * thread) and one that returns late by a set time (a short freeze, or the
 * process stopped). The runner's thread supervises: a worker that does
 * not come back for the watchdog time fails the run with a stall message,
 * a stop does not wait for it beyond a few seconds, and in both cases the
 * stuck thread is left behind (dmk_runner_abandoned) instead of joined.
 * A late call inside a measured pass marks the pass "paused"; one that a
 * slow drive's latency explains, or one in the warm-up, does not.
 *
 * Every case is exact by construction: the script decides which submit
 * call blocks or is late and for how long; the test waits for states (the
 * call is hung) rather than for times. The whole program runs on the
 * simulated clock (dmk_clock_simulate), which moves only while every
 * thread of a run waits: a late call is late by exactly its gap_ns, the
 * watchdog fires after exactly its time, and a loaded machine that holds
 * a thread up for a second makes the test slower, never a stall or a
 * pause it did not script, nor fewer requests before a scripted call.
 * The only clock bounds are upper ones far above what the engine needs. */
#include "dmk-test-spec.h"
#include "dmk-test.h"

#include <stdbool.h>

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "fault/dmk-fault.h"

#define MIB       (1ULL << 20)
#define FAULT_DIR "/fault/stall-dir"
/* No run here may take this long: a bound for a hang, not a timing check. */
#define NEVER_S 40.0
/* The drive's time per request, where a test does not ask for a slow one. */
#define LATENCY_NS 100000ULL

static DmkRunSpec *new_spec(const char *test, double measure_s, uint32_t passes)
{
    DmkRunSpec *s = dmk_test_spec_new(FAULT_DIR, 16 * MIB, measure_s);
    s->passes = passes;
    s->watchdog_s = 1.0;
    /* On the simulated clock a timed test needs I/O that takes time: at
     * 100 us a request, a pass holds 10,000 a second, exactly. */
    dmk_null_opts(&s->backend_opts)->latency_ns = LATENCY_NS;
    dmk_test_spec_add(s, test, DMK_MODE_READ, 0);
    return s;
}

typedef struct {
    DmkTestRun run;
    double stop_to_end_s;
    bool abandoned;
    DmkRunner *runner;
    bool stop_when_hung; /* the progress callback stops the run once a call hangs */
    uint64_t stopped_ns;
} Outcome;

static void on_progress(const DmkProgress *p, void *user_data)
{
    (void)p;
    Outcome *o = user_data;
    DmkFaultStats st;
    dmk_fault_stats(&st);
    if (o->stop_when_hung && !o->stopped_ns && st.hung > 0) {
        o->stopped_ns = dmk_clock_ns();
        dmk_runner_stop(o->runner);
    }
}

static void run_script(const DmkRunSpec *spec, const DmkFaultScript *script, Outcome *o)
{
    DmkRunCallbacks cb = {on_progress, NULL, o};
    o->runner = dmk_runner_new(spec, dmk_backend_fault(script));
    DMK_CHECK(o->runner != NULL);
    dmk_test_run_timed(o->runner, &cb, &o->run);
    o->stop_to_end_s = o->stopped_ns ? (double)(o->run.end_ns - o->stopped_ns) / 1e9 : 0;
    o->abandoned = dmk_runner_abandoned(o->runner);
    dmk_runner_free(o->runner); /* kept alive inside when abandoned */
    printf("# rc %d, %.2f s, abandoned %d: %s\n", o->run.rc, o->run.took_s, o->abandoned,
           o->run.err.msg);
}

/* Lets the hung call return and waits until it has: the thread left
 * behind then runs on into memory that must still be valid (ASan sees it
 * if not), and the next test starts with no call hung. */
static void release_hung(void)
{
    dmk_fault_release();
    DmkFaultStats st;
    for (int i = 0; i < 100000; i++) {
        dmk_fault_stats(&st);
        if (st.hung == 0)
            break;
        dmk_sleep_ns(1000000);
    }
    DMK_CHECK_INT(st.hung, 0);
}

/* Runs a script of late calls with a watchdog far above them (the late
 * call is no stall): the run succeeds. Returns how many calls were late. */
static uint64_t run_gaps(DmkRunSpec *spec, const DmkFaultScript *script, Outcome *o)
{
    spec->watchdog_s = 10.0;
    run_script(spec, script, o);
    DMK_CHECK_INT(o->run.rc, DMK_OK);
    DmkFaultStats st;
    dmk_fault_stats(&st);
    return st.gaps;
}

/* No late call counted: the test is not flagged and its pass not paused. */
static void check_not_paused(const Outcome *o)
{
    if (o->run.res && o->run.res->n_tests == 1) {
        DMK_CHECK(!(o->run.res->tests[0].flags & DMK_FLAG_PAUSED));
        DMK_CHECK(o->run.res->tests[0].passes[0].paused_s == 0.0);
    }
}

/* Runs a script whose call hangs: the run fails with want_rc, and the
 * stuck worker is left behind. */
static void run_hung(const DmkRunSpec *spec, const DmkFaultScript *script, Outcome *o, int want_rc)
{
    run_script(spec, script, o);
    DMK_CHECK_INT(o->run.rc, want_rc);
    DMK_CHECK(o->abandoned);
}

/* Frees a hung run's result and lets its call return, for what follows. */
static void end_hung(Outcome *o)
{
    dmk_run_result_free(o->run.res);
    release_hung();
}

/* A call hung in a timed test: the watchdog (1 s) fires from the runner's
 * thread, names the test, the request and how long, and the run is not
 * complete; the stuck worker is left behind. */
static void test_hang_in_test(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 30.0, 1);
    DmkFaultScript s = {.hang = {.nth = 100}};
    Outcome o = {0};
    run_hung(spec, &s, &o, DMK_E_TIMEOUT);
    DMK_CHECK(o.run.took_s >= 1.0 && o.run.took_s < NEVER_S);
    DMK_CHECK(strncmp(o.run.err.msg, "the drive did not complete any request for ", 43) == 0);
    DMK_CHECK_HAS(o.run.err.msg, "(RND4K Q1T1 read: reading 4096 bytes at offset ");
    DMK_CHECK_HAS(o.run.err.msg,
                  " of the test file in " FAULT_DIR ": the call that submits it has not "
                  "returned for ");
    DMK_CHECK_HAS(o.run.err.msg, "The run is not complete");
    DMK_CHECK_HAS(o.run.err.msg,
                  "its thread was left behind; the test file is freed when the program ends");
    DMK_CHECK(o.run.res != NULL && !o.run.res->complete);
    DMK_CHECK(o.run.res != NULL && o.run.res->n_tests == 0);
    end_hung(&o);
    free(spec);
}

/* The same in the fill: the message says it was the preparation. */
static void test_hang_in_fill(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 0.2, 1);
    DmkFaultScript s = {.hang = {.nth = 2}};
    Outcome o = {0};
    run_hung(spec, &s, &o, DMK_E_TIMEOUT);
    DMK_CHECK(strncmp(o.run.err.msg,
                      "preparing the test file failed: the drive did not complete any request "
                      "for ",
                      75) == 0);
    DMK_CHECK_HAS(o.run.err.msg,
                  "(the fill: writing 1048576 bytes at offset 8388608 of the test file in "
                  "" FAULT_DIR ": the call that submits it has not returned for ");
    DMK_CHECK(o.run.res != NULL && !o.run.res->complete);
    end_hung(&o);
    free(spec);
}

/* A stop while a call hangs, with the default 60 s watchdog: the run
 * returns after the grace of a few seconds, not the watchdog, with a stop
 * (not a stall) that says which call was left behind. */
static void test_stop_with_hung_call(void)
{
    DmkRunSpec *spec = new_spec("SEQ1M Q8T1", 30.0, 1);
    spec->watchdog_s = 60.0;
    DmkFaultScript s = {.hang = {.nth = 200}};
    Outcome o = {.stop_when_hung = true};
    run_hung(spec, &s, &o, DMK_E_STOPPED);
    DMK_CHECK(o.stopped_ns != 0);
    DMK_CHECK(o.stop_to_end_s < NEVER_S); /* well under the 60 s watchdog */
    DMK_CHECK(strncmp(o.run.err.msg, "stopped by the user (reading 1048576 bytes at offset ", 53) ==
              0);
    DMK_CHECK_HAS(o.run.err.msg, ": the call that submits it has not returned for ");
    DMK_CHECK_HAS(o.run.err.msg, ", so its thread was left behind");
    DMK_CHECK(o.run.res != NULL && !o.run.res->complete);
    end_hung(&o);
    free(spec);
}

/* A stop with nothing stuck still joins every worker: nothing is left. */
static void test_stop_without_hang(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q32T1", 30.0, 1);
    Outcome o = {0};
    DmkRunCallbacks cb = {NULL, NULL, NULL};
    DmkRunner *r = dmk_runner_new(spec, dmk_backend_fault(NULL));
    dmk_runner_stop(r); /* before it starts: stops at the first look */
    o.run.rc = dmk_runner_run(r, &cb, &o.run.res, &o.run.err);
    DMK_CHECK_INT(o.run.rc, DMK_E_STOPPED);
    DMK_CHECK(!dmk_runner_abandoned(r));
    dmk_runner_free(r);
    DmkFaultStats st;
    dmk_fault_stats(&st);
    DMK_CHECK_INT(st.queues_open, 0);
    DMK_CHECK_INT(st.targets_open, 0);
    dmk_run_result_free(o.run.res);
    free(spec);
}

/* A call 1.5 s late in pass 1 of 2 at 100 us a request: pass 1 is
 * paused, the test flagged, and the score comes from pass 2, which had
 * no pause (on the simulated clock nothing but the script makes one). */
static void test_gap_flags_the_pass(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 2.0, 2);
    DmkFaultScript s = {.gap = {.nth = 50}, .gap_ns = 1500000000ULL};
    Outcome o = {0};
    run_gaps(spec, &s, &o);
    DMK_CHECK(!o.abandoned);
    DMK_CHECK(o.run.res != NULL && o.run.res->n_tests == 1);
    if (o.run.res && o.run.res->n_tests == 1) {
        const DmkTestResult *t = &o.run.res->tests[0];
        DMK_CHECK_INT(t->n_passes, 2);
        DMK_CHECK(t->flags & DMK_FLAG_PAUSED);
        printf("# paused %.3f s, %.3f s; best pass %u\n", t->passes[0].paused_s,
               t->n_passes > 1 ? t->passes[1].paused_s : 0.0, t->best_pass + 1);
        DMK_CHECK(t->passes[0].paused_s >= 1.5);
        DMK_CHECK(t->n_passes > 1 && t->passes[1].paused_s == 0.0);
        DMK_CHECK_INT(t->best_pass, 1);
        char marker[64], tip[512];
        dmk_flag_describe(o.run.res, t, DMK_FLAG_PAUSED, marker, sizeof marker, tip, sizeof tip);
        printf("# %s: %s\n", marker, tip);
        DMK_CHECK_STR(marker, "paused");
        DMK_CHECK_HAS(tip, "In pass 1, for 1.");
        DMK_CHECK_HAS(tip, " s nothing was submitted or completed");
    }
    dmk_run_result_free(o.run.res);
    free(spec);
}

/* The same late call in the warm-up: nothing measured is touched. */
static void test_gap_in_warmup(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 0.5, 1);
    spec->warmup_s = 3.0;
    DmkFaultScript s = {.gap = {.nth = 50}, .gap_ns = 1500000000ULL};
    Outcome o = {0};
    DMK_CHECK(run_gaps(spec, &s, &o) == 1);
    check_not_paused(&o);
    dmk_run_result_free(o.run.res);
    free(spec);
}

/* A drive with 20 ms per request: a submit 0.7 s late is within 50 times
 * the p99 latency (>= 20 ms by construction), so it is the drive's time,
 * not a pause. */
static void test_slow_drive_is_not_paused(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 2.0, 1);
    dmk_null_opts(&spec->backend_opts)->latency_ns = 20000000;
    DmkFaultScript s = {.gap = {.nth = 40}, .gap_ns = 700000000ULL};
    Outcome o = {0};
    DMK_CHECK(run_gaps(spec, &s, &o) == 1);
    if (o.run.res && o.run.res->n_tests == 1)
        DMK_CHECK(!(o.run.res->tests[0].flags & DMK_FLAG_PAUSED));
    dmk_run_result_free(o.run.res);
    free(spec);
}

/* The flush after the fill never returns (fdatasync on a frozen file
 * system): the runner's thread is not stuck with it; the watchdog fails
 * the run, and a stop ends it after the grace. */
static void test_hang_in_sync(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 0.2, 1);
    DmkFaultScript s = {.hang_sync = {.nth = 1}};
    Outcome o = {0};
    run_hung(spec, &s, &o, DMK_E_TIMEOUT);
    static const char want[] =
        "preparing the test file failed: flushing the test file in " FAULT_DIR
        " to the drive did not return for 1 s; the file system may be "
        "frozen";
    DMK_CHECK(strncmp(o.run.err.msg, want, sizeof want - 1) == 0);
    DMK_CHECK(o.run.res != NULL && !o.run.res->complete);
    end_hung(&o);
    /* a stop while it hangs, with the default watchdog */
    spec->watchdog_s = 60.0;
    Outcome p = {.stop_when_hung = true};
    run_hung(spec, &s, &p, DMK_E_STOPPED);
    DMK_CHECK(p.stop_to_end_s < NEVER_S);
    DMK_CHECK(strncmp(p.run.err.msg, "stopped by the user (flushing the test file in ", 47) == 0);
    end_hung(&p);
    free(spec);
}

/* Eight submit calls 0.45 s late in a 4 s pass: each is under the 0.5 s
 * floor of a pause by itself, but together they are 3.6 s of the pass
 * (the process stopped again and again): the pass is flagged, its
 * paused_s their sum. */
static void test_short_gaps_add_up(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 4.0, 1);
    /* after thousands of requests (0.2 s of the pass, at 100 us each):
     * each late call's request counts its 0.45 s as latency, and eight of
     * a few dozen would be the p99; the eight then end at 3.8 s, inside
     * the pass */
    DmkFaultScript s = {.gap = {.nth = 2000, .times = 8}, .gap_ns = 450000000ULL};
    Outcome o = {0};
    DMK_CHECK(run_gaps(spec, &s, &o) == 8);
    DMK_CHECK(o.run.res != NULL && o.run.res->n_tests == 1);
    if (o.run.res && o.run.res->n_tests == 1) {
        const DmkTestResult *t = &o.run.res->tests[0];
        printf("# paused %.3f s of a %.1f s pass\n", t->passes[0].paused_s, spec->measure_s);
        DMK_CHECK(t->flags & DMK_FLAG_PAUSED);
        DMK_CHECK(t->passes[0].paused_s >= 8 * 0.45);
        DMK_CHECK(t->passes[0].paused_s <= spec->measure_s);
    }
    dmk_run_result_free(o.run.res);
    free(spec);
}

/* The same eight late calls on a drive with 20 ms per request: 50 times
 * its p99 latency (>= 1 s) explains each, so none counts and the pass is
 * not flagged: the rule follows the latency seen, exactly. */
static void test_short_gaps_of_a_slow_drive(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 4.0, 1);
    dmk_null_opts(&spec->backend_opts)->latency_ns = 20000000;
    /* after the fill and some 0.4 s of reads at 20 ms (enough for the
     * p99): the eight, back to back, then all start inside the pass, the
     * last at about 3.6 s of its 4 s */
    DmkFaultScript s = {.gap = {.nth = 20, .times = 8}, .gap_ns = 450000000ULL};
    Outcome o = {0};
    DMK_CHECK(run_gaps(spec, &s, &o) == 8);
    check_not_paused(&o);
    dmk_run_result_free(o.run.res);
    free(spec);
}

typedef struct {
    DmkRunner *runner;
    char stalled[1024];
    bool measured_before_stall; /* measured came first: wrong order */
    bool measured;
    bool stop_when_lost;
    uint64_t stopped_ns;
} InflightOutcome;

static void inflight_progress(const DmkProgress *p, void *user_data)
{
    (void)p;
    InflightOutcome *o = user_data;
    DmkFaultStats st;
    dmk_fault_stats(&st);
    if (o->stop_when_lost && !o->stopped_ns && st.lost > 0) {
        o->stopped_ns = dmk_clock_ns();
        dmk_runner_stop(o->runner);
    }
}

static void inflight_stalled(const char *msg, void *user_data)
{
    InflightOutcome *o = user_data;
    snprintf(o->stalled, sizeof o->stalled, "%s", msg);
    o->measured_before_stall = o->measured;
}

static void inflight_measured(const DmkRunResult *res, int rc, void *user_data)
{
    (void)res;
    (void)rc;
    ((InflightOutcome *)user_data)->measured = true;
}

/* A request the drive never completes, on a backend whose queue_close
 * waits for it (libaio's io_destroy): the watchdog's stall is told first
 * (cb->stalled, before the results), and neither the queue nor the target
 * is closed, which would wait for the drive; the message says that the
 * request was left to the OS. A stop does the same after a few seconds,
 * not the watchdog time. */
static void test_inflight_left_to_the_os(void)
{
    for (int stop = 0; stop < 2; stop++) {
        DmkRunSpec *spec = new_spec("RND4K Q1T1", 30.0, 1);
        spec->watchdog_s = stop ? 60.0 : 1.0;
        DmkFaultScript s = {.lose = {.nth = 300}, .close_waits = true};
        InflightOutcome o = {.stop_when_lost = stop};
        DmkRunCallbacks cb = {inflight_progress, NULL, &o,
                              inflight_measured, NULL, inflight_stalled};
        o.runner = dmk_runner_new(spec, dmk_backend_fault(&s));
        DmkRunResult *res = NULL;
        DmkError err = {0};
        int rc = dmk_runner_run(o.runner, &cb, &res, &err);
        uint64_t end = dmk_clock_ns();
        DmkFaultStats st;
        dmk_fault_stats(&st);
        printf("# rc %d, queues open %d, targets open %d: %s\n", rc, st.queues_open,
               st.targets_open, err.msg);
        DMK_CHECK(dmk_runner_abandoned(o.runner));
        DMK_CHECK(st.queues_open >= 1);
        DMK_CHECK(st.targets_open >= 1);
        DMK_CHECK(o.measured);
        DMK_CHECK_HAS(err.msg, "1 request still in flight on the test file in " FAULT_DIR
                               " was left to the OS, which ends it when the drive answers; the "
                               "test file is freed when the program ends)");
        if (stop) {
            DMK_CHECK_INT(rc, DMK_E_STOPPED);
            DMK_CHECK(o.stopped_ns != 0);
            DMK_CHECK((double)(end - o.stopped_ns) / 1e9 < NEVER_S); /* not the 60 s watchdog */
            DMK_CHECK(o.stalled[0] == '\0');
        } else {
            DMK_CHECK_INT(rc, DMK_E_TIMEOUT);
            DMK_CHECK(!o.measured_before_stall);
            DMK_CHECK(strncmp(o.stalled, "no I/O completed for 1 s on the test file in " FAULT_DIR,
                              45) == 0);
        }
        dmk_runner_free(o.runner); /* kept alive inside */
        dmk_run_result_free(res);
        free(spec);
    }
}

/* Round four: the call left behind names the target directory in text
 * appended to the stall's message (dmk_error_append): a directory whose
 * name holds ESC and U+202E (a vfat label under /media) shows them as
 * '?', in the message and in what the front end is told at once. */
static void test_hang_names_dir_escaped(void)
{
    DmkRunSpec *spec = new_spec("RND4K Q1T1", 30.0, 1);
    snprintf(spec->dir, sizeof spec->dir, "/fault/u\x1b]0;owned\x07\xe2\x80\xae");
    DmkFaultScript s = {.hang = {.nth = 100}};
    Outcome o = {0};
    run_hung(spec, &s, &o, DMK_E_TIMEOUT);
    DMK_CHECK_HAS(o.run.err.msg,
                  " of the test file in /fault/u?]0;owned??: the call that submits it has "
                  "not returned for ");
    DMK_CHECK_HAS(o.run.err.msg, "its thread was left behind");
    DMK_CHECK(strchr(o.run.err.msg, '\x1b') == NULL && strchr(o.run.err.msg, '\x07') == NULL);
    DMK_CHECK(strstr(o.run.err.msg, "\xe2\x80\xae") == NULL);
    end_hung(&o);
    free(spec);
}

int main(void)
{
    dmk_clock_simulate(); /* before any thread: every run here is on it */
    DMK_TEST(test_stop_without_hang);
    DMK_TEST(test_gap_flags_the_pass);
    DMK_TEST(test_gap_in_warmup);
    DMK_TEST(test_slow_drive_is_not_paused);
    DMK_TEST(test_hang_in_test);
    DMK_TEST(test_hang_in_fill);
    DMK_TEST(test_stop_with_hung_call);
    DMK_TEST(test_hang_in_sync);
    DMK_TEST(test_short_gaps_add_up);
    DMK_TEST(test_short_gaps_of_a_slow_drive);
    DMK_TEST(test_inflight_left_to_the_os);
    DMK_TEST(test_hang_names_dir_escaped);
    return dmk_test_done();
}
