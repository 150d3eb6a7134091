/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The exit guard of drivemark-cli (Linux): the command runs in a child
 * process, and the process the shell waits for is a small parent that
 * does no I/O. A thread blocked in the kernel (io_submit on a frozen file
 * system sleeps uninterruptibly) keeps its whole process from being
 * reaped, even after SIGKILL, until the call returns; so only a process
 * without such a thread can promise to exit. The parent forwards SIGINT,
 * SIGTERM and SIGHUP to the child and returns the child's exit status,
 * as soon as the child reports it (its engine left stuck threads behind,
 * dmk_runner_abandoned) or, after a signal, within DMK_GUARD_EXIT_S
 * seconds at the latest. Elsewhere (Windows) nothing forks and the
 * command runs in this process. */
#ifndef DMK_CLI_GUARD_H
#define DMK_CLI_GUARD_H

#include <stdbool.h>

/* After SIGINT, SIGTERM or SIGHUP, the parent exits within this time
 * (with 128 + the signal) even if the child has not reported. */
#define DMK_GUARD_EXIT_S 10

/* Once the child said that the run stalled (dmk_cli_guard_stalled), the
 * parent exits within this time (with 1 and the stall's message) even if
 * the child has not reported: its teardown may be stuck in the kernel. */
#define DMK_GUARD_STALL_S 10

/* Forks. Returns true in the parent once the child is done, with the exit
 * status to return in *status; false in the child, or where there is no
 * guard (the caller runs the command itself, then calls
 * dmk_cli_guard_finish). */
bool dmk_cli_guard_start(int *status);

/* Says that this run left a thread stuck in the kernel behind
 * (dmk_runner_abandoned): the parent then returns at once after the
 * report instead of waiting to reap a process that cannot end yet. */
void dmk_cli_guard_left_behind(void);

/* Says that the run is on a raw device, for the parent's messages: a
 * device has no test file. Called before dmk_cli_guard_start. */
void dmk_cli_guard_device(bool device);

/* The child: the run stalled (msg, the watchdog's message), said before
 * anything that may block in the kernel; the parent then waits at most
 * DMK_GUARD_STALL_S for the report (see there). */
void dmk_cli_guard_stalled(const char *msg);

/* The child's last act before returning `status` from main: flushes and
 * lets go of stdout and stderr (a stuck thread must not hold a pipe the
 * caller reads to its end), then tells the parent the status. */
void dmk_cli_guard_finish(int status);

#endif
