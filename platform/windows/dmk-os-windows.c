/* SPDX-License-Identifier: GPL-3.0-or-later */
/* OS services on Windows (Win32 API, mingw-w64 or MSVC-compatible CRT). */
#include <windows.h>
#include <bcrypt.h>
#include <shellapi.h>
#include <io.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-clock-private.h"
#include "dmk-platform.h"
#include "dmk-win32.h"

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

uint64_t dmk_os_clock_ns(void)
{
    static LARGE_INTEGER freq; /* constant after boot; a race writes the same value */
    LARGE_INTEGER c;
    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&c);
    uint64_t f = (uint64_t)freq.QuadPart, v = (uint64_t)c.QuadPart;
    /* Split so the multiplication cannot overflow after months of uptime. */
    return v / f * 1000000000ULL + v % f * 1000000000ULL / f;
}

/* Windows timers fire late: by up to 0.5 ms with a high-resolution
 * waitable timer (Windows 10 1803+), a 15.6 ms tick without one, ~1 ms
 * with spikes under Wine. So the last SPIN_NS of a sleep are spun, with
 * yields, which keeps short sleeps (the null backend's simulated latency)
 * accurate at the cost of a little CPU. */
#define SPIN_NS 2000000ULL

static void timer_sleep(uint64_t ns)
{
    HANDLE t =
        CreateWaitableTimerExW(NULL, NULL, CREATE_WAITABLE_TIMER_HIGH_RESOLUTION, TIMER_ALL_ACCESS);
    if (!t)
        t = CreateWaitableTimerExW(NULL, NULL, 0, TIMER_ALL_ACCESS);
    LARGE_INTEGER due;
    due.QuadPart = -(LONGLONG)(ns / 100); /* relative, in 100 ns units */
    if (t && SetWaitableTimer(t, &due, 0, NULL, NULL, FALSE))
        WaitForSingleObject(t, INFINITE);
    else
        Sleep((DWORD)(ns / 1000000));
    if (t)
        CloseHandle(t);
}

void dmk_os_sleep_ns(uint64_t ns)
{
    uint64_t end = dmk_os_clock_ns() + ns;
    if (ns > SPIN_NS)
        timer_sleep(ns - SPIN_NS);
    while (dmk_os_clock_ns() < end)
        SwitchToThread(); /* lets other threads on this core run meanwhile */
}

struct DmkThread {
    HANDLE h;
    DmkThreadFn fn;
    void *arg;
    DmkClockThread clock;
};

static unsigned __stdcall thread_main(void *p)
{
    DmkThread *t = p;
    t->fn(t->arg);
    dmk_clock_thread_exiting(&t->clock);
    return 0;
}

int dmk_thread_start(DmkThread **out, DmkThreadFn fn, void *arg, DmkError *err)
{
    DmkThread *t = malloc(sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory starting a thread");
    t->fn = fn;
    t->arg = arg;
    dmk_clock_thread_starting(&t->clock);
    /* _beginthreadex, not CreateThread: the CRT sets up its per-thread state. */
    t->h = (HANDLE)_beginthreadex(NULL, 0, thread_main, t, 0, NULL);
    if (!t->h) {
        DWORD e = GetLastError();
        dmk_clock_thread_start_failed(&t->clock);
        free(t);
        return dmk_error_os(err, DMK_E_LIMIT, (int)e, "starting a worker thread failed");
    }
    *out = t;
    return DMK_OK;
}

void dmk_thread_join(DmkThread *t)
{
    if (!t)
        return;
    dmk_clock_thread_joining(&t->clock);
    WaitForSingleObject(t->h, INFINITE);
    CloseHandle(t->h);
    free(t);
}

void *dmk_aligned_alloc(size_t align, size_t size)
{
    return _aligned_malloc(size ? size : align, align);
}

void dmk_aligned_free(void *p)
{
    _aligned_free(p);
}

uint64_t dmk_entropy64(void)
{
    uint64_t v;
    if (BCRYPT_SUCCESS(
            BCryptGenRandom(NULL, (PUCHAR)&v, sizeof v, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
        return v;
    return dmk_clock_ns() * 0x9e3779b97f4a7c15ULL;
}

NTSYSAPI NTSTATUS NTAPI RtlGetVersion(PRTL_OSVERSIONINFOW info);

/* RtlGetVersion, not GetVersionEx: the latter reports 6.2 to programs
 * without a compatibility manifest. Under Wine, says so. */
void dmk_os_describe(char *buf, size_t len)
{
    RTL_OSVERSIONINFOW v = {.dwOSVersionInfoSize = sizeof v};
    if (RtlGetVersion(&v) != 0)
        v.dwMajorVersion = 0;
    int n = v.dwMajorVersion ? snprintf(buf, len, "Windows %lu.%lu.%lu x86_64", v.dwMajorVersion,
                                        v.dwMinorVersion, v.dwBuildNumber)
                             : snprintf(buf, len, "Windows");
    typedef const char *(__cdecl * WineVersionFn)(void);
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC p = ntdll ? GetProcAddress(ntdll, "wine_get_version") : NULL;
    if (p && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " (Wine %s)", ((WineVersionFn)(void (*)(void))p)());
}

void dmk_os_utc_now(char *buf, size_t len)
{
    SYSTEMTIME t;
    GetSystemTime(&t);
    snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02uZ", t.wYear, t.wMonth, t.wDay, t.wHour,
             t.wMinute, t.wSecond);
}

/* Windows has no system-wide cap on in-flight overlapped I/O like
 * Linux's aio-max-nr; the limit is memory, which ReadFile reports. */
uint64_t dmk_os_max_inflight(void)
{
    return 0;
}

static void (*interrupt_fn)(int sig);

/* Runs on a thread of its own that Windows starts, not in a signal
 * context. After CTRL_CLOSE the process ends when this returns (or 5 s
 * later); the test file goes with it through FILE_FLAG_DELETE_ON_CLOSE. */
static BOOL WINAPI on_console_event(DWORD type)
{
    int sig;
    switch (type) {
    case CTRL_C_EVENT:
        sig = 2; /* SIGINT */
        break;
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
        sig = 15; /* SIGTERM */
        break;
    default:
        return FALSE;
    }
    if (interrupt_fn)
        interrupt_fn(sig);
    return TRUE;
}

void dmk_os_on_interrupt(void (*fn)(int sig))
{
    interrupt_fn = fn;
    SetConsoleCtrlHandler(on_console_event, TRUE);
}

/* _isatty alone is also true for NUL (a character device); a console
 * is what can draw the progress line. */
bool dmk_os_stderr_is_tty(void)
{
    DWORD mode;
    return _isatty(_fileno(stderr)) && GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode);
}

char **dmk_os_utf8_argv(int argc, char **argv)
{
    int n = 0;
    wchar_t **wide = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!wide || n != argc) {
        LocalFree(wide);
        return argv;
    }
    char **out = calloc((size_t)n + 1, sizeof *out);
    for (int i = 0; out && i < n; i++) {
        int len = WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, NULL, 0, NULL, NULL);
        out[i] = len > 0 ? malloc((size_t)len) : NULL;
        if (!out[i] ||
            WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, out[i], len, NULL, NULL) != len) {
            for (int j = 0; j <= i; j++)
                free(out[j]);
            free(out);
            out = NULL;
        }
    }
    LocalFree(wide);
    return out ? out : argv;
}
