/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-run-worker.h"

#include <string.h>

/* Progress reaches the window at most this often. */
#define PROGRESS_PERIOD_US (G_USEC_PER_SEC / 10)

/* References: the owner's, the thread's and one per message in flight, so
 * a message delivered after the owner let go still finds valid memory. */
struct DmkRunWorker {
    DmkRunSpec spec;
    DmkRunner *runner;
    GThread *thread;
    DmkRunWorkerCallbacks cb;
    GMainContext *context; /* the owner's: where every callback runs */
    gint detached;         /* atomic: the owner is gone, deliver nothing */
    gint left_behind;      /* atomic: the runner abandoned a stuck worker thread */
    GMutex lock;           /* guards the progress slot below */
    gboolean progress_pending;
    gint64 progress_posted_us;
    DmkProgress progress;
    DmkTest progress_test;
    DmkRunHold hold;  /* tests: where the run waits for a stop */
    unsigned seen;    /* reports of hold.stage with bytes moved so far */
    gboolean stopped; /* guarded by lock: a stop (or cancel) came */
    GCond stop_cond;
};

typedef struct {
    DmkRunWorker *w;
    DmkProgress p;
    DmkTest test;
} DmkHeldMsg;

typedef struct {
    DmkRunWorker *w;
    DmkTest test;
    DmkPassResult score;
    size_t index;
} DmkTestMsg;

typedef struct {
    DmkRunWorker *w;
    char msg[sizeof(((DmkError *)0)->msg)];
} DmkStallMsg;

typedef struct {
    DmkRunWorker *w;
    int rc;
    DmkRunResult *res;
    DmkError err;
} DmkEndMsg;

static void worker_clear(gpointer data)
{
    DmkRunWorker *w = data;
    dmk_runner_free(w->runner);
    g_main_context_unref(w->context);
    g_cond_clear(&w->stop_cond);
    g_mutex_clear(&w->lock);
}

static DmkRunWorker *worker_ref(DmkRunWorker *w)
{
    return g_atomic_rc_box_acquire(w);
}

void dmk_run_worker_unref(DmkRunWorker *w)
{
    if (w)
        g_atomic_rc_box_release_full(w, worker_clear);
}

static gboolean is_detached(DmkRunWorker *w)
{
    return g_atomic_int_get(&w->detached) != 0;
}

/* ---- main thread: delivery --------------------------------------------- */

static gboolean deliver_progress(gpointer data)
{
    DmkRunWorker *w = data;
    DmkProgress p;
    DmkTest test;
    g_mutex_lock(&w->lock);
    p = w->progress;
    test = w->progress_test;
    w->progress_pending = FALSE;
    g_cond_broadcast(&w->stop_cond); /* a lockstep run goes on (tests) */
    g_mutex_unlock(&w->lock);
    p.test = p.test ? &test : NULL;
    if (!is_detached(w) && w->cb.progress)
        w->cb.progress(&p, w->cb.user_data);
    return G_SOURCE_REMOVE;
}

static gboolean deliver_test(gpointer data)
{
    DmkTestMsg *m = data;
    if (!is_detached(m->w) && m->w->cb.test_done)
        m->w->cb.test_done(&m->test, &m->score, m->index, m->w->cb.user_data);
    return G_SOURCE_REMOVE;
}

static void free_test_msg(gpointer data)
{
    DmkTestMsg *m = data;
    dmk_run_worker_unref(m->w);
    g_free(m);
}

static gboolean deliver_end(gpointer data)
{
    DmkEndMsg *m = data;
    if (is_detached(m->w))
        return G_SOURCE_REMOVE;
    /* The thread posted this as its last act: joining is immediate. */
    g_thread_join(m->w->thread);
    m->w->thread = NULL;
    DmkRunResult *res = m->res;
    m->res = NULL;
    if (m->w->cb.finished)
        m->w->cb.finished(m->rc, res, &m->err, m->w->cb.user_data);
    else
        dmk_run_result_free(res);
    return G_SOURCE_REMOVE;
}

static void free_end_msg(gpointer data)
{
    DmkEndMsg *m = data;
    dmk_run_result_free(m->res);
    dmk_run_worker_unref(m->w);
    g_free(m);
}

static gboolean deliver_held(gpointer data)
{
    DmkHeldMsg *m = data;
    m->p.test = m->p.test ? &m->test : NULL;
    if (!is_detached(m->w) && m->w->cb.held)
        m->w->cb.held(&m->p, m->w->cb.user_data);
    return G_SOURCE_REMOVE;
}

static void free_held_msg(gpointer data)
{
    DmkHeldMsg *m = data;
    dmk_run_worker_unref(m->w);
    g_free(m);
}

static gboolean deliver_stall(gpointer data)
{
    DmkStallMsg *m = data;
    if (!is_detached(m->w) && m->w->cb.stalled)
        m->w->cb.stalled(m->msg, m->w->cb.user_data);
    return G_SOURCE_REMOVE;
}

static void free_stall_msg(gpointer data)
{
    DmkStallMsg *m = data;
    dmk_run_worker_unref(m->w);
    g_free(m);
}

/* ---- worker thread: posting -------------------------------------------- */

/* Always queued on the owner's context, never called here: a context
 * that nobody iterates at this moment (the owner between two loop runs)
 * can be acquired by this thread, and g_main_context_invoke would then
 * run the callback on the run's thread, which must never touch a widget
 * and cannot join itself (deliver_end). Sources of one priority are
 * dispatched in the order they were attached, so the messages keep theirs. */
static void post(DmkRunWorker *w, GSourceFunc fn, gpointer data, GDestroyNotify free_fn)
{
    GSource *src = g_idle_source_new();
    g_source_set_priority(src, G_PRIORITY_DEFAULT);
    g_source_set_callback(src, fn, data, free_fn);
    g_source_set_name(src, "dmk-run-worker");
    g_source_attach(src, w->context);
    g_source_unref(src);
}

/* Whether report p is the one the run is to be held at (tests). */
static gboolean is_hold_point(DmkRunWorker *w, const DmkProgress *p)
{
    if (!w->hold.count || p->stage != w->hold.stage || p->test_bytes == 0)
        return FALSE;
    return ++w->seen == w->hold.count;
}

/* Tests: at the hold point, the window hears of it (after this report's
 * progress) and this thread waits, inside the stage, for the stop. */
static void hold_if_asked(DmkRunWorker *w, const DmkProgress *p)
{
    if (!is_hold_point(w, p))
        return;
    DmkHeldMsg *m = g_new0(DmkHeldMsg, 1);
    m->w = worker_ref(w);
    m->p = *p;
    if (p->test)
        m->test = *p->test;
    post(w, deliver_held, m, free_held_msg);
    g_mutex_lock(&w->lock);
    while (!w->stopped)
        g_cond_wait(&w->stop_cond, &w->lock);
    g_mutex_unlock(&w->lock);
}

/* A hook for the UI tests: once a stop was asked, the run's thread
 * sticks for good (DMK_TEST_STUCK_AFTER_STOP=1: at once; =cleanup: once
 * the test file's removal has begun and been shown), as a call on a
 * frozen file system does, so only the window's own bounds end the run.
 * The thread is let go by then and never ends. */
static void stick_if_asked(DmkRunWorker *w, const DmkProgress *p)
{
    const char *when = g_getenv("DMK_TEST_STUCK_AFTER_STOP");
    if (!when || (g_strcmp0(when, "cleanup") == 0 && p->stage != DMK_STAGE_CLEANUP))
        return;
    g_mutex_lock(&w->lock);
    gboolean stopped = w->stopped;
    g_mutex_unlock(&w->lock);
    if (stopped)
        for (;;)
            g_usleep(G_USEC_PER_SEC);
}

/* A hook for the UI tests (DMK_TEST_PROGRESS_LOCKSTEP): every report
 * reaches the window, the run's thread waiting until it was shown (or a
 * stop came), so on the simulated clock, which stands still meanwhile,
 * the window sees each of the engine's reports however busy the machine. */
static gboolean lockstep(void)
{
    static gint on = -1;
    if (g_atomic_int_get(&on) < 0)
        g_atomic_int_set(&on, g_getenv("DMK_TEST_PROGRESS_LOCKSTEP") != NULL);
    return g_atomic_int_get(&on) > 0;
}

static void wait_shown_if_lockstep(DmkRunWorker *w)
{
    if (!lockstep())
        return;
    g_mutex_lock(&w->lock);
    while (w->progress_pending && !w->stopped && !is_detached(w))
        g_cond_wait(&w->stop_cond, &w->lock);
    g_mutex_unlock(&w->lock);
}

static void on_progress(const DmkProgress *p, void *user_data)
{
    DmkRunWorker *w = user_data;
    gint64 now = g_get_monotonic_time();
    g_mutex_lock(&w->lock);
    /* A new stage always goes through, so "Preparing" gives way at once. */
    gboolean due = p->stage != w->progress.stage ||
                   now - w->progress_posted_us >= PROGRESS_PERIOD_US || lockstep();
    due = due || (w->hold.count && p->stage == w->hold.stage); /* the held one is shown */
    w->progress = *p;
    if (p->test)
        w->progress_test = *p->test;
    gboolean schedule = due && !w->progress_pending;
    if (schedule) {
        w->progress_pending = TRUE;
        w->progress_posted_us = now;
    }
    g_mutex_unlock(&w->lock);
    if (schedule)
        post(w, deliver_progress, worker_ref(w), (GDestroyNotify)dmk_run_worker_unref);
    wait_shown_if_lockstep(w);
    hold_if_asked(w, p);
    stick_if_asked(w, p);
}

static void on_test_done(const DmkTestResult *t, size_t index, void *user_data)
{
    DmkRunWorker *w = user_data;
    DmkTestMsg *m = g_new0(DmkTestMsg, 1);
    m->w = worker_ref(w);
    m->test = t->test;
    m->score = t->score;
    m->index = index;
    post(w, deliver_test, m, free_test_msg);
}

/* Said at once: the window must not wait for the run's thread, whose
 * teardown after a stall may be stuck in the kernel. */
static void on_stalled(const char *msg, void *user_data)
{
    DmkRunWorker *w = user_data;
    DmkStallMsg *m = g_new0(DmkStallMsg, 1);
    m->w = worker_ref(w);
    g_strlcpy(m->msg, msg, sizeof m->msg);
    post(w, deliver_stall, m, free_stall_msg);
    /* A hook for the UI tests: the teardown after the stall is stuck for
     * good (a frozen file system), so only the window's own bound ends
     * the run. The thread is detached by then and never ends. */
    if (g_getenv("DMK_TEST_STUCK_AFTER_STALL"))
        for (;;)
            g_usleep(G_USEC_PER_SEC);
}

static gpointer worker_main(gpointer data)
{
    DmkRunWorker *w = data;
    DmkRunCallbacks cb = {on_progress, on_test_done, w, NULL, NULL, on_stalled};
    DmkEndMsg *m = g_new0(DmkEndMsg, 1);
    dmk_clock_thread_begin(); /* a simulated clock (tests) waits for this thread too */
    m->rc = dmk_runner_run(w->runner, &cb, &m->res, &m->err);
    g_atomic_int_set(&w->left_behind, dmk_runner_abandoned(w->runner));
    dmk_clock_thread_end();
    m->w = w; /* the thread's reference passes to the message */
    post(w, deliver_end, m, free_end_msg);
    return NULL;
}

/* ---- owner API ---------------------------------------------------------- */

DmkRunWorker *dmk_run_worker_start(const DmkRunSpec *spec, const DmkBackend *backend,
                                   const DmkRunWorkerCallbacks *cb)
{
    return dmk_run_worker_start_held(spec, backend, cb, NULL);
}

DmkRunWorker *dmk_run_worker_start_held(const DmkRunSpec *spec, const DmkBackend *backend,
                                        const DmkRunWorkerCallbacks *cb, const DmkRunHold *hold)
{
    DmkRunWorker *w = g_atomic_rc_box_new0(DmkRunWorker);
    w->spec = *spec;
    w->cb = *cb;
    w->context = g_main_context_ref_thread_default();
    if (hold)
        w->hold = *hold;
    g_mutex_init(&w->lock);
    g_cond_init(&w->stop_cond);
    w->progress.stage = DMK_STAGE_PREPARE;
    /* The runner keeps a pointer to the spec: ours lives as long as it. */
    w->runner = dmk_runner_new(&w->spec, backend);
    w->thread = g_thread_new("dmk-run", worker_main, worker_ref(w));
    return w;
}

/* The runner's flag first, so a run let go from its hold sees it. */
static void stop_and_release(DmkRunWorker *w)
{
    dmk_runner_stop(w->runner);
    g_mutex_lock(&w->lock);
    w->stopped = TRUE;
    g_cond_broadcast(&w->stop_cond);
    g_mutex_unlock(&w->lock);
}

void dmk_run_worker_stop(DmkRunWorker *w)
{
    if (w && w->runner)
        stop_and_release(w);
}

gboolean dmk_run_worker_left_behind(DmkRunWorker *w)
{
    return w && g_atomic_int_get(&w->left_behind);
}

void dmk_run_worker_abandon(DmkRunWorker *w)
{
    if (!w)
        return;
    g_atomic_int_set(&w->detached, 1);
    dmk_runner_stop(w->runner);
    if (w->thread)
        g_thread_unref(w->thread); /* detached: it frees itself when it ends */
    w->thread = NULL;
    dmk_run_worker_unref(w);
}

void dmk_run_worker_cancel(DmkRunWorker *w)
{
    if (!w)
        return;
    g_atomic_int_set(&w->detached, 1);
    stop_and_release(w);
    if (w->thread)
        g_thread_join(w->thread);
    w->thread = NULL;
    dmk_run_worker_unref(w);
}
