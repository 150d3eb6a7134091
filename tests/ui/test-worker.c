/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DmkRunWorker, the thread bridge, on the null backend (no disk, no
 * display): every callback arrives on the main thread, progress at most
 * about ten times a second, each test once, then the end; a stop ends the
 * run within a second; a cancel joins the thread and delivers nothing more;
 * a held run waits in the stage asked for until it is stopped. The stops
 * and the cancel come once the run reported the measurement (not after a
 * guessed delay), and fail only past STOP_S: a working stop takes a tenth
 * of a second when the machine is quiet, one that is not seen the rest of
 * a 60 s pass. */
#include "dmk-test.h"

#include "dmk-presets.h"
#include "dmk-run-worker.h"
#include "fault/dmk-fault.h"

typedef struct {
    GThread *main_thread;
    int progress, tests, finished, off_thread;
    int rc;
    size_t n_results;
    gint64 started_us, ended_us;
    GMainLoop *loop;
    int measuring; /* progress reports of the measurement seen */
    int held;      /* the held callback's calls */
    DmkStage held_stage;
    uint64_t held_bytes;
    DmkRunWorker *w; /* for the held callback's stop */
} Seen;

#define STOP_S 5.0

static void on_progress(const DmkProgress *p, gpointer data)
{
    Seen *s = data;
    s->progress++;
    s->measuring += p->stage == DMK_STAGE_MEASURE;
    s->off_thread += g_thread_self() != s->main_thread;
    /* Preparing the file and removing it (cleanup) belong to no test. */
    DMK_CHECK(p->stage == DMK_STAGE_PREPARE || p->stage == DMK_STAGE_CLEANUP || p->test != NULL);
}

static void on_test_done(const DmkTest *t, const DmkPassResult *score, size_t index, gpointer data)
{
    Seen *s = data;
    s->tests++;
    s->off_thread += g_thread_self() != s->main_thread;
    DMK_CHECK(t->name[0] != '\0');
    DMK_CHECK(score->total.ios > 0);
    DMK_CHECK(index < 2);
}

static void on_finished(int rc, DmkRunResult *res, const DmkError *err, gpointer data)
{
    Seen *s = data;
    (void)err;
    s->finished++;
    s->off_thread += g_thread_self() != s->main_thread;
    s->rc = rc;
    s->n_results = res ? res->n_tests : 0;
    s->ended_us = g_get_monotonic_time();
    dmk_run_result_free(res);
    if (s->loop)
        g_main_loop_quit(s->loop);
}

static DmkRunSpec *demo_spec(double measure_s)
{
    DmkRunSpec *spec = g_new(DmkRunSpec, 1);
    dmk_run_spec_init(spec);
    spec->size = 16ULL << 20;
    spec->passes = 2;
    spec->measure_s = measure_s;
    spec->warmup_s = 0;
    spec->interval_s = 0;
    dmk_profile_add(spec, dmk_profile_find("demo"), DMK_RUN_READ_WRITE, 100, NULL);
    return spec;
}

static DmkRunWorker *start(Seen *s, double measure_s)
{
    DmkRunSpec *spec = demo_spec(measure_s);
    DmkRunWorkerCallbacks cb = {on_progress, on_test_done, on_finished, s};
    s->main_thread = g_thread_self();
    s->started_us = g_get_monotonic_time();
    DmkRunWorker *w = dmk_run_worker_start(spec, dmk_backend_null(), &cb);
    g_free(spec); /* the worker keeps its own copy */
    return w;
}

static gboolean give_up(gpointer data)
{
    g_main_loop_quit(data);
    return G_SOURCE_REMOVE;
}

static void run_loop(Seen *s, guint timeout_ms)
{
    s->loop = g_main_loop_new(NULL, FALSE);
    guint id = g_timeout_add(timeout_ms, give_up, s->loop);
    g_main_loop_run(s->loop);
    if (s->finished)
        g_source_remove(id);
    g_main_loop_unref(s->loop);
    s->loop = NULL;
}

static void test_full_run(void)
{
    Seen s = {0};
    DmkRunWorker *w = start(&s, 0.5);
    run_loop(&s, 20000);
    DMK_CHECK_INT(s.finished, 1);
    DMK_CHECK_INT(s.rc, DMK_OK);
    DMK_CHECK_INT(s.tests, 2);
    DMK_CHECK_INT(s.n_results, 2);
    DMK_CHECK_INT(s.off_thread, 0);
    double secs = (double)(s.ended_us - s.started_us) / 1e6;
    printf("# %d progress reports in %.2f s\n", s.progress, secs);
    DMK_CHECK(s.progress >= 1);
    DMK_CHECK(s.progress <= (int)(secs * 10.0) + 6); /* ~10 a second, plus stage changes */
    dmk_run_worker_unref(w);
}

/* The owner does not iterate its context for a while (as a test does
 * between start and its loop, or an app past its loop's end): the run's
 * messages wait for it instead of running on the run's own thread. */
static void test_callbacks_wait_for_the_owner(void)
{
    Seen s = {0};
    DmkRunWorker *w = start(&s, 0.2);
    g_usleep(G_USEC_PER_SEC / 2); /* the run prepares and measures meanwhile */
    DMK_CHECK_INT(s.progress, 0);
    DMK_CHECK_INT(s.tests, 0);
    run_loop(&s, 20000);
    DMK_CHECK_INT(s.finished, 1);
    DMK_CHECK_INT(s.tests, 2);
    DMK_CHECK_INT(s.off_thread, 0);
    dmk_run_worker_unref(w);
}

/* Runs the main loop until the measurement was reported (at most 20 s). */
static void wait_measuring(Seen *s)
{
    gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
    while (!s->measuring && g_get_monotonic_time() < end)
        g_main_context_iteration(NULL, TRUE);
    DMK_CHECK(s->measuring > 0);
}

static void test_stop(void)
{
    Seen s = {0};
    DmkRunWorker *w = start(&s, 60);
    wait_measuring(&s);
    gint64 asked = g_get_monotonic_time();
    dmk_run_worker_stop(w);
    run_loop(&s, 5000);
    DMK_CHECK_INT(s.finished, 1);
    DMK_CHECK_INT(s.rc, DMK_E_STOPPED);
    double took = (double)(s.ended_us - asked) / 1e6;
    printf("# stopped in %.3f s\n", took);
    DMK_CHECK(took < STOP_S);
    dmk_run_worker_unref(w);
}

static void on_held(const DmkProgress *p, gpointer data)
{
    Seen *s = data;
    s->held++;
    s->held_stage = p->stage;
    s->held_bytes = p->test_bytes;
    s->off_thread += g_thread_self() != s->main_thread;
    dmk_run_worker_stop(s->w);
}

/* Held at its 3rd report of the measurement: the stop comes there. */
static void test_held_stop(void)
{
    Seen s = {0};
    DmkRunSpec *spec = demo_spec(60);
    DmkRunWorkerCallbacks cb = {on_progress, on_test_done, on_finished, &s, on_held};
    DmkRunHold hold = {DMK_STAGE_MEASURE, 3};
    s.main_thread = g_thread_self();
    s.w = dmk_run_worker_start_held(spec, dmk_backend_null(), &cb, &hold);
    g_free(spec);
    run_loop(&s, 30000);
    DMK_CHECK_INT(s.finished, 1);
    DMK_CHECK_INT(s.rc, DMK_E_STOPPED);
    DMK_CHECK_INT(s.held, 1);
    DMK_CHECK_INT(s.held_stage, DMK_STAGE_MEASURE);
    DMK_CHECK(s.held_bytes > 0);
    DMK_CHECK(s.measuring >= 1);
    DMK_CHECK_INT(s.off_thread, 0);
    printf("# held at the measurement's 3rd report (%llu bytes), stopped\n",
           (unsigned long long)s.held_bytes);
    dmk_run_worker_unref(s.w);
}

static void test_cancel_delivers_nothing(void)
{
    Seen s = {0};
    DmkRunWorker *w = start(&s, 60);
    wait_measuring(&s);
    gint64 t0 = g_get_monotonic_time();
    dmk_run_worker_cancel(w); /* joins the thread */
    DMK_CHECK(g_get_monotonic_time() - t0 < (gint64)(STOP_S * G_USEC_PER_SEC));
    int before = s.progress + s.tests;
    /* Whatever was queued is dropped, not delivered to a gone owner. */
    while (g_main_context_iteration(NULL, FALSE))
        ;
    DMK_CHECK_INT(s.progress + s.tests, before);
    DMK_CHECK_INT(s.finished, 0);
}

/* A worker blocked in the kernel (the fault backend's hang: io_submit on
 * a frozen file system): the window still hears the end, as a stall with
 * the watchdog (1 s here) and told that a thread was left behind, and a
 * stop while it hangs ends the run within the engine's grace. */
static void hung_run(gboolean stop)
{
    Seen s = {0};
    /* Owned here while the test polls, as a running window's main loop
     * owns it: the callbacks are queued to this thread, never run on the
     * worker's (g_main_context_invoke runs them in place on an unowned
     * context). */
    g_main_context_acquire(NULL);
    DmkRunSpec *spec = demo_spec(60);
    spec->watchdog_s = stop ? 60.0 : 1.0;
    DmkFaultScript script = {.hang = {.nth = 100}};
    DmkRunWorkerCallbacks cb = {on_progress, on_test_done, on_finished, &s};
    s.main_thread = g_thread_self();
    DmkRunWorker *w = dmk_run_worker_start(spec, dmk_backend_fault(&script), &cb);
    g_free(spec);
    DmkFaultStats st = {0};
    for (int i = 0; i < 30000 && st.hung == 0; i++) {
        g_usleep(1000);
        dmk_fault_stats(&st);
    }
    DMK_CHECK_INT(st.hung, 1);
    if (stop)
        dmk_run_worker_stop(w);
    run_loop(&s, 30000);
    DMK_CHECK_INT(s.finished, 1);
    DMK_CHECK_INT(s.rc, stop ? DMK_E_STOPPED : DMK_E_TIMEOUT);
    DMK_CHECK(dmk_run_worker_left_behind(w));
    DMK_CHECK_INT(s.off_thread, 0);
    dmk_run_worker_unref(w);
    dmk_fault_release(); /* the thread left behind runs on into kept memory */
    for (int i = 0; i < 30000 && st.hung; i++) {
        g_usleep(1000);
        dmk_fault_stats(&st);
    }
    g_main_context_release(NULL);
}

static void test_hung_call_is_a_stall(void)
{
    hung_run(FALSE);
}

static void test_stop_with_hung_call(void)
{
    hung_run(TRUE);
}

int main(void)
{
    DMK_TEST(test_full_run);
    DMK_TEST(test_callbacks_wait_for_the_owner);
    DMK_TEST(test_stop);
    DMK_TEST(test_held_stop);
    DMK_TEST(test_cancel_delivers_nothing);
    DMK_TEST(test_hung_call_is_a_stall);
    DMK_TEST(test_stop_with_hung_call);
    return dmk_test_done();
}
