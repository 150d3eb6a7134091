#ifdef __linux__
#define _GNU_SOURCE /* pipe2 */
#endif
#include "dmk-cli-guard.h"

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

/* After the child's report, how long the parent waits to reap it: one
 * that does not go is stuck in the kernel and is left to the OS. */
#define REAP_WAIT_MS 2000
#define TICK_MS      100

static volatile pid_t guard_child;
static atomic_int guard_signal, guard_signals;
static int guard_fd = -1; /* the child's end of the report pipe */
static bool guard_left_behind;

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

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_guard_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* The status a reaped child's wait status stands for, as a shell sees it. */
static int wait_status(int ws)
{
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    if (WIFSIGNALED(ws))
        return 128 + WTERMSIG(ws);
    return 1;
}

/* Reads the child's report when it is there: its exit status, then 'L'
 * when it left a stuck thread behind (*left), or 'E' for a plain end;
 * -1 while none came. Sets *eof once the pipe is closed. */
static int read_report(int fd, bool *eof, bool *left)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (*eof || poll(&p, 1, TICK_MS) <= 0)
        return -1;
    unsigned char b[2];
    ssize_t n = read(fd, b, 2); /* written in one call of 2 bytes: atomic */
    if (n == 2) {
        *left = b[1] == 'L';
        return b[0];
    }
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
        *eof = true;
    return -1;
}

/* The parent's whole life: waits for the child's end, its report, or the
 * deadline after a signal. */
static int supervise(pid_t child, int fd)
{
    int reported = -1, ws = 0;
    bool eof = false, left = false;
    long report_ms = 0, signal_ms = 0;
    int first_signals = 0;
    for (;;) {
        int r = read_report(fd, &eof, &left);
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
        int sigs = atomic_load(&guard_signals);
        if (sigs && !signal_ms) {
            signal_ms = now;
            first_signals = sigs;
        }
        bool again = signal_ms && sigs > first_signals; /* a second signal: at once */
        if (reported < 0 && signal_ms && (again || now - signal_ms > DMK_GUARD_EXIT_S * 1000)) {
            kill(child, SIGKILL);
            fprintf(stderr,
                    "drivemark-cli: the run did not end within %d s of the signal: a call to "
                    "the OS is stuck (a frozen file system or a hung drive); exiting without "
                    "it. Its test file has no name and is freed when that call returns.\n",
                    again ? 0 : DMK_GUARD_EXIT_S);
            return 128 + atomic_load(&guard_signal);
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
    install_handlers();
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
    unsigned char b[2] = {(unsigned char)status, guard_left_behind ? 'L' : 'E'};
    ssize_t n;
    do
        n = write(guard_fd, b, 2);
    while (n < 0 && errno == EINTR);
    close(guard_fd);
    guard_fd = -1;
}

void dmk_cli_guard_left_behind(void)
{
    guard_left_behind = true;
}

#else

void dmk_cli_guard_left_behind(void) {}

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
