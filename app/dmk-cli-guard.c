/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifdef __linux__
#define _GNU_SOURCE /* pipe2 */
#endif
#include "dmk-cli-guard.h"
#include "dmk-cli-report.h"
#include "dmk-escape.h"
#include "dmk-i18n.h"
#include "dmk-request.h"
#include "dmk-runner.h"

/* After a signal the child's engine returns within DMK_STOP_LIMIT_NS
 * (a slow drain is cut short, the rest left to the OS), then writes the
 * finished tests' results: the parent's deadline must leave it that and
 * seconds more to write them, or a slow drive loses them to SIGKILL. */
_Static_assert(DMK_GUARD_EXIT_S * 1000000000ULL >= DMK_STOP_LIMIT_NS + 4000000000ULL,
               "the guard's deadline after a signal leaves the child time to write its results");

#ifdef __linux__

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dmk-platform.h"

/* After the child's report, how long the parent waits to reap it: one
 * that does not go is stuck in the kernel and is left to the OS. */
#define REAP_WAIT_MS 2000
#define TICK_MS      100
/* The report pipe carries records of a type byte, a value byte and a
 * 2-byte length of the text after them, each written in one call of at
 * most PIPE_BUF bytes (atomic): 'E' (the end, value: the exit status),
 * 'L' (the same, with a thread left behind), 'S' (the run stalled, the
 * text: its message). */
#define REC_HEAD 4
#define REC_TEXT 1024

static volatile pid_t guard_child;
static atomic_int guard_signal, guard_signals;
static int guard_fd = -1; /* the child's end of the report pipe */
static bool guard_left_behind;
static bool guard_device; /* the run is on a raw device: there is no test file */

/* What the parent reads from the pipe. */
typedef struct {
    unsigned char buf[REC_HEAD + REC_TEXT + 1];
    size_t len;
    bool eof;
    bool left;     /* the report said 'L' */
    bool stalled;  /* an 'S' came */
    long stall_ms; /* when */
    char stall_msg[REC_TEXT + 1];
} DmkGuardPipe;

static void on_guard_signal(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&guard_signal, &none, sig);
    atomic_fetch_add(&guard_signals, 1);
    if (guard_child > 0)
        kill(guard_child, sig); /* async-signal-safe */
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The status a reaped child's wait status stands for, as a shell sees it. */
static int wait_status(int ws)
{
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    if (WIFSIGNALED(ws))
        return DMK_EXIT_SIGNAL + WTERMSIG(ws);
    return DMK_EXIT_FAILED;
}

/* Takes the first whole record out of the buffer: the exit status of an
 * end record, -2 for a stall record (noted in *gp), -1 for none yet. */
static int take_record(DmkGuardPipe *gp)
{
    if (gp->len < REC_HEAD)
        return -1;
    size_t text = (size_t)gp->buf[2] | (size_t)gp->buf[3] << 8;
    if (text > REC_TEXT)
        text = REC_TEXT; /* never written so: the writer caps it */
    if (gp->len < REC_HEAD + text)
        return -1;
    int type = gp->buf[0], value = gp->buf[1], r = -1;
    if (type == 'S' && !gp->stalled) {
        memcpy(gp->stall_msg, gp->buf + REC_HEAD, text);
        gp->stall_msg[text] = '\0';
        /* Escaped by the child; its cap may cut a character in two. */
        dmk_escape_inplace(gp->stall_msg, "\n");
        gp->stalled = true;
        gp->stall_ms = now_ms();
        r = -2;
    } else if (type == 'E' || type == 'L') {
        gp->left = type == 'L';
        r = value;
    }
    memmove(gp->buf, gp->buf + REC_HEAD + text, gp->len - REC_HEAD - text);
    gp->len -= REC_HEAD + text;
    return r;
}

/* Reads what the child wrote when it is there: the exit status of its
 * report, or -1 while none came. Sets gp->eof once the pipe is closed. */
static int read_report(int fd, DmkGuardPipe *gp)
{
    int r = take_record(gp);
    while (r == -2)
        r = take_record(gp);
    if (r >= 0)
        return r;
    struct pollfd p = {fd, POLLIN, 0};
    if (gp->eof || poll(&p, 1, TICK_MS) <= 0)
        return -1;
    ssize_t n = read(fd, gp->buf + gp->len, sizeof gp->buf - 1 - gp->len);
    if (n > 0) {
        gp->len += (size_t)n;
        do
            r = take_record(gp);
        while (r == -2);
        return r;
    }
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
        gp->eof = true;
    return -1;
}

/* The child's progress line on a terminal may be half drawn: the
 * parent's own message starts on a clean line. */
static void end_progress_line(void)
{
    /* Plain lines (TERM=dumb) always end: nothing to clear. */
    if (dmk_report_progress_style() == DMK_PROGRESS_REDRAW)
        fputs("\r\033[K", stderr);
}

/* The child said that the run stalled and has not reported since, within
 * DMK_GUARD_STALL_S: what it was doing after that (closing the device,
 * destroying a queue) is stuck in the kernel. The parent says the stall
 * itself and ends with the failure. */
static int stall_unreported(pid_t child, const DmkGuardPipe *gp)
{
    kill(child, SIGKILL);
    end_progress_line();
    fprintf(stderr, "drivemark-cli: %s\n", gp->stall_msg);
    /* TRANSLATORS: %d is a number of seconds ("s" is the unit); the last %s is a note on the
     * test file or device, a sentence of its own. */
    fprintf(stderr,
            DMK_("drivemark-cli: the run stalled and did not end within %d s of it: a call to the "
                 "OS is stuck (a frozen file system or a hung drive); exiting without it (a "
                 "result file it had not finished keeps its old content). %s\n"),
            DMK_GUARD_STALL_S, dmk_runner_stuck_note(guard_device));
    return DMK_EXIT_FAILED;
}

/* The parent's whole life: waits for the child's end, its report, or the
 * deadline after a signal. */
static int supervise(pid_t child, int fd)
{
    int reported = -1, ws = 0;
    DmkGuardPipe gp = {0};
    long report_ms = 0, signal_ms = 0;
    int first_signals = 0;
    for (;;) {
        int r = read_report(fd, &gp);
        bool eof = gp.eof, left = gp.left;
        if (r >= 0 && reported < 0) {
            reported = r;
            report_ms = now_ms();
        }
        pid_t w = waitpid(child, &ws, WNOHANG);
        if (w == child)
            return wait_status(ws); /* its own status, a sanitizer's exit code included */
        if (w < 0 && errno == ECHILD)
            return reported >= 0 ? reported : 1;
        long now = now_ms();
        if (reported >= 0 && left)
            return reported; /* it cannot end before its stuck call returns */
        if (reported >= 0 && now - report_ms > REAP_WAIT_MS)
            return reported; /* stuck in the kernel: the OS ends it when the call returns */
        if (reported < 0 && gp.stalled && now - gp.stall_ms > DMK_GUARD_STALL_S * 1000)
            return stall_unreported(child, &gp);
        int sigs = atomic_load(&guard_signals);
        if (sigs && !signal_ms) {
            signal_ms = now;
            first_signals = sigs;
        }
        bool again = signal_ms && sigs > first_signals; /* a second signal: at once */
        if (reported < 0 && signal_ms && (again || now - signal_ms > DMK_GUARD_EXIT_S * 1000)) {
            kill(child, SIGKILL);
            end_progress_line();
            /* TRANSLATORS: %d is a number of seconds ("s" is the unit); %s is one of the two
             * sentences that follow this message, on the device or the test file. */
            fprintf(stderr,
                    DMK_("drivemark-cli: the run did not end within %d s of the signal: a call to "
                         "the OS is stuck (a frozen file system or a hung drive); exiting without "
                         "it. %s\n"),
                    again ? 0 : DMK_GUARD_EXIT_S,
                    guard_device ? DMK_("The device has no test file: nothing is left on it; what "
                                        "it was asked to write before the stop may or may not be "
                                        "there.")
                                 : DMK_("Its test file has no name and is freed when that call "
                                        "returns."));
            return DMK_EXIT_SIGNAL + atomic_load(&guard_signal);
        }
        if (eof)
            poll(NULL, 0, TICK_MS); /* the pipe no longer paces the loop */
    }
}

bool dmk_cli_guard_start(int *status)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false; /* no guard: the command runs here */
    fflush(NULL);
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (child == 0) {
        close(fds[0]);
        guard_fd = fds[1];
        /* The parent killed (SIGKILL, which it cannot forward): the run
         * ends with it rather than going on unseen. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        return false;
    }
    close(fds[1]);
    guard_child = child;
    /* The parent only forwards: the same SIGINT/SIGTERM/SIGHUP handling as
     * the run's own (dmk_os_on_interrupt), with the guard's handler. */
    dmk_os_on_interrupt(on_guard_signal);
    *status = supervise(child, fds[0]);
    close(fds[0]);
    return true;
}

void dmk_cli_guard_finish(int status)
{
    if (guard_fd < 0)
        return;
    fflush(stdout);
    fflush(stderr);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
    unsigned char b[REC_HEAD] = {guard_left_behind ? 'L' : 'E', (unsigned char)status, 0, 0};
    ssize_t n;
    do
        n = write(guard_fd, b, sizeof b);
    while (n < 0 && errno == EINTR);
    close(guard_fd);
    guard_fd = -1;
}

void dmk_cli_guard_left_behind(void)
{
    guard_left_behind = true;
}

void dmk_cli_guard_device(bool device)
{
    guard_device = device;
}

void dmk_cli_guard_stalled(const char *msg)
{
    if (guard_fd < 0)
        return;
    unsigned char b[REC_HEAD + REC_TEXT];
    size_t len = strlen(msg);
    if (len > REC_TEXT)
        len = REC_TEXT;
    b[0] = 'S';
    b[1] = 0;
    b[2] = (unsigned char)(len & 0xff);
    b[3] = (unsigned char)(len >> 8);
    memcpy(b + REC_HEAD, msg, len);
    ssize_t n;
    do
        n = write(guard_fd, b, REC_HEAD + len); /* under PIPE_BUF: atomic */
    while (n < 0 && errno == EINTR);
}

#else

void dmk_cli_guard_left_behind(void) {}

void dmk_cli_guard_device(bool device)
{
    (void)device;
}

void dmk_cli_guard_stalled(const char *msg)
{
    (void)msg;
}

bool dmk_cli_guard_start(int *status)
{
    (void)status;
    return false;
}

void dmk_cli_guard_finish(int status)
{
    (void)status;
}

#endif
