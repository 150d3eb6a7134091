/* SPDX-License-Identifier: GPL-3.0-or-later */
/* OS services on Linux (and other POSIX systems with pthreads). */
#define _GNU_SOURCE
#include "dmk-platform.h"

#include "dmk-clock-private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

uint64_t dmk_os_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void dmk_os_sleep_ns(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

struct DmkThread {
    pthread_t id;
    DmkThreadFn fn;
    void *arg;
    DmkClockThread clock;
};

static void *thread_main(void *p)
{
    DmkThread *t = p;
    t->fn(t->arg);
    dmk_clock_thread_exiting(&t->clock);
    return NULL;
}

int dmk_thread_start(DmkThread **out, DmkThreadFn fn, void *arg, DmkError *err)
{
    DmkThread *t = malloc(sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory starting a thread");
    t->fn = fn;
    t->arg = arg;
    dmk_clock_thread_starting(&t->clock);
    int e = pthread_create(&t->id, NULL, thread_main, t);
    if (e != 0) {
        dmk_clock_thread_start_failed(&t->clock);
        free(t);
        return dmk_error_os(err, DMK_E_LIMIT, e, "starting a worker thread failed");
    }
    *out = t;
    return DMK_OK;
}

void dmk_thread_join(DmkThread *t)
{
    if (!t)
        return;
    dmk_clock_thread_joining(&t->clock);
    pthread_join(t->id, NULL);
    free(t);
}

void *dmk_aligned_alloc(size_t align, size_t size)
{
    void *p = NULL;
    if (size == 0)
        size = align;
    int e = posix_memalign(&p, align, size);
    if (e != 0)
        errno = e; /* posix_memalign returns its reason: callers read errno */
    return e == 0 ? p : NULL;
}

void dmk_aligned_free(void *p)
{
    free(p);
}

uint64_t dmk_entropy64(void)
{
    uint64_t v;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v)
        return v;
    return dmk_clock_ns() * 0x9e3779b97f4a7c15ULL;
}

void dmk_os_describe(char *buf, size_t len)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, len, "%s %s %s", u.sysname, u.release, u.machine);
    else
        snprintf(buf, len, "Linux");
}

void dmk_os_utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

uint64_t dmk_os_max_inflight(void)
{
    FILE *f = fopen("/proc/sys/fs/aio-max-nr", "r");
    unsigned long long v = 0;
    if (f) {
        if (fscanf(f, "%llu", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

const char *dmk_error_os_text(int os_error, char *buf, unsigned len)
{
    /* GNU strerror_r may return a static string instead of filling buf. */
    const char *s = strerror_r(os_error, buf, len);
    if (s != buf)
        snprintf(buf, len, "%s", s);
    return buf;
}

static void (*interrupt_fn)(int sig);

static void on_signal(int sig)
{
    if (interrupt_fn)
        interrupt_fn(sig);
}

void dmk_os_on_interrupt(void (*fn)(int sig))
{
    interrupt_fn = fn;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART needed: the engine's waits all time out on their own. */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

bool dmk_os_stderr_is_tty(void)
{
    return isatty(STDERR_FILENO) == 1;
}

char **dmk_os_utf8_argv(int argc, char **argv)
{
    (void)argc;
    return argv; /* already the bytes of the names, UTF-8 in a UTF-8 locale */
}
