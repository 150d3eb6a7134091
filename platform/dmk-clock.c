/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock the engine reads (dmk_clock_ns) and waits on (dmk_sleep_ns,
 * dmk_wait_until_ns): the OS's monotonic clock, or, once a test called
 * dmk_clock_simulate(), a simulated one.
 *
 * Simulated time stands still while any thread of the run has something
 * to do, and jumps to the earliest wake-up asked for once every one of
 * them waits (in dmk_sleep_ns, dmk_wait_until_ns, or dmk_thread_join for
 * another of them): a discrete-event simulation of the same code. The
 * engine's own cost then takes no time, and a loaded machine that holds
 * a thread up for milliseconds only makes the test take longer in real
 * time, never changes what it measures: the in-memory backends' latencies
 * and the runner's passes, samples, rates and idle times come out exact. */
#include "dmk-clock-private.h"
#include "dmk-platform.h"

#include <stdatomic.h>
#include <stddef.h>

#ifdef _WIN32
#include <windows.h>
typedef SRWLOCK DmkLock;
typedef CONDITION_VARIABLE DmkCond;
#define DMK_LOCK_INIT SRWLOCK_INIT
#define DMK_COND_INIT CONDITION_VARIABLE_INIT
static void lock(DmkLock *l)
{
    AcquireSRWLockExclusive(l);
}
static void unlock(DmkLock *l)
{
    ReleaseSRWLockExclusive(l);
}
static void cond_wait(DmkCond *c, DmkLock *l)
{
    SleepConditionVariableSRW(c, l, INFINITE, 0);
}
static void cond_wake_all(DmkCond *c)
{
    WakeAllConditionVariable(c);
}
#else
#include <pthread.h>
typedef pthread_mutex_t DmkLock;
typedef pthread_cond_t DmkCond;
#define DMK_LOCK_INIT PTHREAD_MUTEX_INITIALIZER
#define DMK_COND_INIT PTHREAD_COND_INITIALIZER
static void lock(DmkLock *l)
{
    pthread_mutex_lock(l);
}
static void unlock(DmkLock *l)
{
    pthread_mutex_unlock(l);
}
static void cond_wait(DmkCond *c, DmkLock *l)
{
    pthread_cond_wait(c, l);
}
static void cond_wake_all(DmkCond *c)
{
    pthread_cond_broadcast(c);
}
#endif

/* A thread waiting for simulated time `until`; on its own stack. */
typedef struct DmkWaiter {
    uint64_t until;
    bool released; /* time reached `until`: it counts as busy again */
    struct DmkWaiter *next;
} DmkWaiter;

static atomic_bool sim_on;
static _Atomic uint64_t sim_now;
/* Guarded by sim_lock: the run's threads (the one that began the
 * simulation and every thread started since), how many of them wait,
 * and the waits with a time. */
static DmkLock sim_lock = DMK_LOCK_INIT;
static DmkCond sim_cond = DMK_COND_INIT;
static unsigned sim_threads;
static unsigned sim_waiting;
static DmkWaiter *sim_waiters;

uint64_t dmk_clock_ns(void)
{
    if (atomic_load_explicit(&sim_on, memory_order_relaxed))
        return atomic_load_explicit(&sim_now, memory_order_acquire);
    return dmk_os_clock_ns();
}

void dmk_clock_simulate(void)
{
    lock(&sim_lock);
    if (!atomic_load(&sim_on)) {
        /* from where the real clock is, so times look like monotonic ones */
        atomic_store(&sim_now, dmk_os_clock_ns());
        sim_threads = 1;
        sim_waiting = 0;
        atomic_store(&sim_on, true);
    }
    unlock(&sim_lock);
}

bool dmk_clock_simulated(void)
{
    return atomic_load(&sim_on);
}

/* With every thread waiting, time moves to the earliest wake-up, and the
 * threads due then count as busy at once (before they run), so that no
 * other thread sees "all waiting" meanwhile and moves time on again. */
static void advance_if_all_wait(void)
{
    if (!sim_threads || sim_waiting < sim_threads)
        return;
    uint64_t next = UINT64_MAX;
    for (DmkWaiter *w = sim_waiters; w; w = w->next)
        if (!w->released && w->until < next)
            next = w->until;
    if (next == UINT64_MAX)
        return; /* all in joins: nothing any time could change */
    if (next > atomic_load(&sim_now))
        atomic_store_explicit(&sim_now, next, memory_order_release);
    for (DmkWaiter *w = sim_waiters; w; w = w->next) {
        if (!w->released && w->until <= next) {
            w->released = true;
            sim_waiting--;
        }
    }
    cond_wake_all(&sim_cond);
}

static void sim_wait_until(uint64_t until)
{
    lock(&sim_lock);
    if (atomic_load(&sim_now) >= until) {
        unlock(&sim_lock);
        return;
    }
    DmkWaiter me = {until, false, sim_waiters};
    sim_waiters = &me;
    sim_waiting++;
    advance_if_all_wait();
    while (!me.released)
        cond_wait(&sim_cond, &sim_lock);
    DmkWaiter **p = &sim_waiters;
    while (*p != &me)
        p = &(*p)->next;
    *p = me.next;
    unlock(&sim_lock);
}

void dmk_sleep_ns(uint64_t ns)
{
    if (atomic_load_explicit(&sim_on, memory_order_relaxed))
        sim_wait_until(dmk_clock_ns() + ns);
    else
        dmk_os_sleep_ns(ns);
}

void dmk_wait_until_ns(uint64_t until)
{
    if (atomic_load_explicit(&sim_on, memory_order_relaxed)) {
        sim_wait_until(until);
        return;
    }
    uint64_t now = dmk_os_clock_ns();
    /* Sleep when far, spin when near: a latency of a few microseconds is
     * shorter than the OS's sleep granularity. */
    if (until > now + 200000)
        dmk_os_sleep_ns(until - now - 100000);
    while (dmk_os_clock_ns() < until)
        ;
}

/* ---- which threads are the run's ------------------------------------------ */

void dmk_clock_thread_starting(DmkClockThread *ct)
{
    *ct = (DmkClockThread){0};
    if (!atomic_load(&sim_on))
        return;
    lock(&sim_lock);
    ct->counted = true;
    sim_threads++;
    unlock(&sim_lock);
}

void dmk_clock_thread_start_failed(DmkClockThread *ct)
{
    if (!ct->counted)
        return;
    lock(&sim_lock);
    ct->counted = false;
    sim_threads--;
    advance_if_all_wait();
    unlock(&sim_lock);
}

void dmk_clock_thread_exiting(DmkClockThread *ct)
{
    if (!ct->counted)
        return;
    lock(&sim_lock);
    ct->exited = true;
    sim_threads--;
    if (ct->joiner_waiting) {
        ct->joiner_waiting = false;
        sim_waiting--; /* its joiner has something to do again */
    }
    advance_if_all_wait();
    unlock(&sim_lock);
}

void dmk_clock_thread_joining(DmkClockThread *ct)
{
    if (!ct->counted)
        return;
    lock(&sim_lock);
    if (!ct->exited) {
        ct->joiner_waiting = true;
        sim_waiting++;
        advance_if_all_wait();
    }
    unlock(&sim_lock);
}

void dmk_clock_thread_begin(void)
{
    if (!atomic_load(&sim_on))
        return;
    lock(&sim_lock);
    sim_threads++;
    unlock(&sim_lock);
}

void dmk_clock_thread_end(void)
{
    if (!atomic_load(&sim_on))
        return;
    lock(&sim_lock);
    if (sim_threads)
        sim_threads--;
    advance_if_all_wait(); /* those left may all be waiting */
    unlock(&sim_lock);
}
