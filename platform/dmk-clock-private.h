/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Between dmk-clock.c (the clock every caller reads, real or simulated)
 * and the per-OS files: the OS's own clock and sleep, and the hooks that
 * let the simulated clock know which threads of the run are busy. */
#ifndef DMK_CLOCK_PRIVATE_H
#define DMK_CLOCK_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

/* The OS's monotonic clock and sleep (CLOCK_MONOTONIC, QPC). */
uint64_t dmk_os_clock_ns(void);
void dmk_os_sleep_ns(uint64_t ns);

/* Each DmkThread carries one, for the simulated clock's count of the
 * threads that may still do something at the current simulated time. */
typedef struct {
    bool counted;        /* started while the clock was simulated: one of the run's */
    bool exited;         /* its function returned */
    bool joiner_waiting; /* a counted thread waits in dmk_thread_join for it */
} DmkClockThread;

/* Called by dmk_thread_start before the OS starts the thread (so that a
 * parent that waits at once cannot let time run past its new child). */
void dmk_clock_thread_starting(DmkClockThread *ct);
/* The OS could not start it after all. */
void dmk_clock_thread_start_failed(DmkClockThread *ct);
/* Called on the thread itself when its function has returned. */
void dmk_clock_thread_exiting(DmkClockThread *ct);
/* Called by dmk_thread_join before it waits for the OS's thread. */
void dmk_clock_thread_joining(DmkClockThread *ct);

#endif
