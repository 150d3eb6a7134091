/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The verify option's read-back on the fault backend that keeps its data
 * (DmkFaultScript.keep_data): a clean read-back checks every written
 * block and finds none bad; a read-back read that never completes (`lose`
 * of the first read, after a write-only test that reads nothing) is
 * caught by the watchdog, told through the stalled callback during the
 * verify stage, and fails the run, which is not complete.
 *
 * Exact by construction: the script picks the read that is lost, and the
 * program runs on the simulated clock (dmk_clock_simulate), which moves
 * only while every thread of the run waits, so the watchdog fires after
 * exactly its 1 s of the drive's silence however busy the machine (a
 * thread held up by the OS is no silence). The only clock bound is an
 * upper one (NEVER_S) far above the 1 s watchdog. */
#include "dmk-test-spec.h"
#include "dmk-test.h"

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "fault/dmk-fault.h"

#define MIB     (1ULL << 20)
#define NEVER_S 40.0

static DmkRunSpec *write_spec(void)
{
    DmkRunSpec *s = dmk_test_spec_new("/fault/verify-stall", 16 * MIB, 0.2);
    s->watchdog_s = 1.0;
    /* on the simulated clock a timed test needs I/O that takes time */
    dmk_null_opts(&s->backend_opts)->latency_ns = 100000;
    s->verify = true;
    dmk_test_spec_add(s, "SEQ1M Q1T1", DMK_MODE_WRITE, 0);
    return s;
}

typedef struct {
    int stalls;        /* stalled callbacks */
    DmkStage stage;    /* the last progress report's stage before the stall */
    DmkStage at_stall; /* ... as it was when the stall was told */
    char msg[768];     /* the stall's message */
} Seen;

static void on_progress(const DmkProgress *p, void *user_data)
{
    Seen *s = user_data;
    s->stage = p->stage;
}

static void on_stalled(const char *msg, void *user_data)
{
    Seen *s = user_data;
    s->stalls++;
    s->at_stall = s->stage;
    snprintf(s->msg, sizeof s->msg, "%s", msg);
}

typedef struct {
    DmkTestRun run;
    Seen seen;
} Outcome;

static void run_script(const DmkFaultScript *script, Outcome *o)
{
    DmkRunSpec *spec = write_spec();
    DmkRunCallbacks cb = {on_progress, NULL, &o->seen, NULL, NULL, on_stalled};
    DmkRunner *r = dmk_runner_new(spec, dmk_backend_fault(script));
    DMK_CHECK(r != NULL);
    dmk_test_run_timed(r, &cb, &o->run);
    bool abandoned = dmk_runner_abandoned(r);
    dmk_runner_free(r);
    if (!abandoned)
        free(spec); /* a runner kept for a thread left behind still reads it */
    printf("# rc %d, %.2f s, %d stalls: %s\n", o->run.rc, o->run.took_s, o->seen.stalls,
           o->run.err.msg);
}

/* The hook is faithful: what was written reads back as written. */
static void test_clean_readback(void)
{
    DmkFaultScript s = {.keep_data = true};
    Outcome o = {0};
    run_script(&s, &o);
    DMK_CHECK_INT(o.run.rc, DMK_OK);
    DMK_CHECK_INT(o.seen.stalls, 0);
    DMK_CHECK(o.run.res && o.run.res->complete && o.run.res->n_tests == 1);
    if (o.run.res && o.run.res->n_tests == 1) {
        const DmkVerifyResult *v = &o.run.res->tests[0].verify;
        DMK_CHECK(v->checked);
        DMK_CHECK(v->blocks > 0);
        DMK_CHECK_INT(v->bad, 0);
        printf("# %llu blocks read back, none bad\n", (unsigned long long)v->blocks);
    }
    dmk_run_result_free(o.run.res);
}

/* The first read of the read-back never completes: the watchdog (1 s)
 * fails the run during the verify stage, the stall is told at once, and
 * the run is not complete. */
static void test_readback_stall(void)
{
    DmkFaultScript s = {.keep_data = true, .lose = {.nth = 1, .ops = DMK_FAULT_READS}};
    Outcome o = {0};
    run_script(&s, &o);
    DmkFaultStats st;
    dmk_fault_stats(&st);
    DMK_CHECK_INT(o.run.rc, DMK_E_TIMEOUT);
    DMK_CHECK_INT((int)st.lost, 1);
    DMK_CHECK_INT(o.seen.stalls, 1);
    DMK_CHECK_INT((int)o.seen.at_stall, (int)DMK_STAGE_VERIFY);
    DMK_CHECK(strstr(o.seen.msg, "no answer for 1 s") != NULL);
    DMK_CHECK(strstr(o.run.err.msg, "no answer for 1 s") != NULL);
    DMK_CHECK(o.run.res != NULL && !o.run.res->complete);
    DMK_CHECK(o.run.took_s < NEVER_S);
    dmk_run_result_free(o.run.res);
}

int main(void)
{
    dmk_clock_simulate(); /* before any thread */
    DMK_TEST(test_clean_readback);
    DMK_TEST(test_readback_stall);
    return dmk_test_done();
}
