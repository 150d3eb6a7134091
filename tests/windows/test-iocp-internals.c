/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What Wine cannot show through real I/O, through the backend's internals:
 * Wine queues every overlapped request to the port (so the inline path of
 * FILE_SKIP_COMPLETION_PORT_ON_SUCCESS never runs) and ignores the
 * FILE_FLAG_NO_BUFFERING alignment rules (so only the backend's own check
 * refuses misaligned requests). Also the Win32 error mapping and the OS
 * services. */
#include <windows.h>
#include <stdint.h>

#include "dmk-iocp-private.h"
#include "dmk-platform.h"
#include "dmk-test.h"
#include "dmk-win32.h"

#define MIB (1ULL << 20)

/* NTSTATUS values as a completion carries them. */
#define ST_SUCCESS       0x00000000L
#define ST_END_OF_FILE   0xC0000011L
#define ST_ACCESS_DENIED 0xC0000022L
#define ST_DISK_FULL     0xC000007FL

static char tmpdir[900];
static unsigned char *buf; /* 64 KiB, 4096-aligned */

static void make_tmpdir(void)
{
    const char *base = getenv("DMK_TEST_TMPDIR");
    if (!base)
        base = ".";
    CreateDirectoryA(base, NULL);
    snprintf(tmpdir, sizeof tmpdir, "%s/iocp-internals-%lu", base, GetCurrentProcessId());
    if (!CreateDirectoryA(tmpdir, NULL)) {
        printf("Bail out! creating %s: Win32 error %lu\n", tmpdir, GetLastError());
        exit(1);
    }
}

static DmkIo make_io(uint64_t offset, uint32_t len, void *b, DmkOp op)
{
    DmkIo io;
    memset(&io, 0, sizeof io);
    io.offset = offset;
    io.len = len;
    io.buf = b;
    io.op = (uint8_t)op;
    io.res = 12345; /* anything a completion must overwrite */
    return io;
}

/* As the system leaves an OVERLAPPED when a request completes. */
static void fake_status(DmkIo *io, LONG status, ULONG_PTR bytes)
{
    OVERLAPPED *ov = dmk_iocp_overlapped(io);
    ov->Internal = (ULONG_PTR)(ULONG)status;
    ov->InternalHigh = bytes;
}

/* ---- alignment ----------------------------------------------------------- */

static void alignment_rules(void)
{
    DmkQueue q;
    memset(&q, 0, sizeof q);
    q.offset_align = 4096;
    q.mem_align = 4096;
    q.dir = "X:\\bench";
    DmkError err = {0};
    DmkIo ok = make_io(8192, 4096, buf, DMK_OP_READ);
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &ok, &err), DMK_OK);

    DmkIo off = make_io(8192 + 512, 4096, buf, DMK_OP_READ);
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &off, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "offset is not a multiple of the 4096-byte sector") != NULL);
    DMK_CHECK(strstr(err.msg, "X:\\bench") != NULL && strstr(err.msg, "read 4096") != NULL);
    DMK_CHECK_INT(err.os_error, ERROR_INVALID_PARAMETER);

    DmkIo len = make_io(8192, 1000, buf, DMK_OP_WRITE);
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &len, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "length is not a multiple") != NULL);
    DMK_CHECK(strstr(err.msg, "write 1000") != NULL);

    DmkIo zero = make_io(8192, 0, buf, DMK_OP_WRITE);
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &zero, &err), DMK_E_INVAL);

    DmkIo mem = make_io(8192, 4096, buf + 512, DMK_OP_READ);
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &mem, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "buffer address") != NULL);
    printf("# %s\n", err.msg);

    /* 512-byte sectors allow what 4096 refuses. */
    q.offset_align = q.mem_align = 512;
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &off, &err), DMK_OK);
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &mem, &err), DMK_OK);
    DmkIo high = make_io((5ULL << 32) + 4096, 4096, buf, DMK_OP_READ); /* above 4 GiB */
    DMK_CHECK_INT(dmk_iocp_check_aligned(&q, &high, &err), DMK_OK);
}

/* ---- a real queue on a real file ----------------------------------------- */

typedef struct {
    const DmkBackend *be;
    DmkTarget *target;
    DmkTargetInfo info;
    DmkQueue *q;
} Fixture;

static bool fixture_open(Fixture *f, unsigned depth)
{
    DmkError err = {0};
    DmkTargetParams p = {tmpdir, 16 * MIB, 0};
    f->be = dmk_backend_native();
    f->target = NULL;
    f->q = NULL;
    int rc = f->be->target_open(&p, &f->target, &f->info, &err);
    if (rc == DMK_OK)
        rc = f->be->queue_open(f->target, depth, &f->q, &err);
    if (rc != DMK_OK)
        printf("# opening a queue in %s: %s\n", tmpdir, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    return rc == DMK_OK;
}

static void fixture_close(Fixture *f)
{
    if (f->q)
        f->be->queue_close(f->q);
    if (f->target)
        f->be->target_close(f->target);
}

/* A misaligned request anywhere in a batch: refused, and nothing started. */
static void submit_refuses_misaligned(void)
{
    Fixture f;
    if (!fixture_open(&f, 4))
        return;
    uint32_t a = f.info.offset_align;
    DmkIo ios[3] = {make_io(0, a, buf, DMK_OP_WRITE), make_io(a, a, buf, DMK_OP_WRITE),
                    make_io(a + 1, a, buf, DMK_OP_WRITE)};
    DmkIo *batch[3] = {&ios[0], &ios[1], &ios[2]};
    DmkError err = {0};
    DMK_CHECK_INT(f.be->submit(f.q, batch, 3, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "offset is not a multiple") != NULL);
    DMK_CHECK_INT(f.q->on_port, 0);
    DMK_CHECK_INT(f.q->ready_count, 0);
    DmkIo *done[4];
    DMK_CHECK_INT(f.be->reap(f.q, 0, 4, 0, done, &err), 0);
    fixture_close(&f);
}

/* Fake inline completions come back from reap, first and in order, each
 * with the status and count its own OVERLAPPED holds. */
static void inline_completions(void)
{
    Fixture f;
    if (!fixture_open(&f, 4))
        return;
    DmkIo ok = make_io(0, 4096, buf, DMK_OP_WRITE);
    DmkIo full = make_io(4096, 4096, buf, DMK_OP_WRITE);
    DmkIo eof = make_io(8192, 4096, buf, DMK_OP_READ);
    fake_status(&ok, ST_SUCCESS, 4096);
    fake_status(&full, ST_DISK_FULL, 0);
    fake_status(&eof, ST_END_OF_FILE, 0);
    DmkIo *fakes[3] = {&ok, &full, &eof};
    for (int i = 0; i < 3; i++) {
        dmk_iocp_complete(fakes[i]); /* what start_io does for an inline completion */
        DMK_CHECK(dmk_iocp_ready_push(f.q, fakes[i]));
    }
    DmkIo *done[4] = {0};
    DmkError err = {0};
    uint64_t t0 = dmk_clock_ns();
    /* a 10 s timeout that a wait on the port would sit out: well under it,
     * however long a loaded machine (or Wine) holds the thread up */
    DMK_CHECK_INT(f.be->reap(f.q, 1, 4, 10000000000ULL, done, &err), 3);
    DMK_CHECK(dmk_clock_ns() - t0 < 5000000000ULL); /* no wait on the port */
    DMK_CHECK(done[0] == &ok && done[1] == &full && done[2] == &eof);
    DMK_CHECK_INT(ok.res, 4096);
    DMK_CHECK_INT(ok.os_error, 0);
    DMK_CHECK_INT(full.res, DMK_E_NOSPC);
    DMK_CHECK_INT(full.os_error, ERROR_DISK_FULL);
    DMK_CHECK_INT(eof.res, DMK_E_SHORT);
    DMK_CHECK_INT(eof.os_error, ERROR_HANDLE_EOF);
    DMK_CHECK_INT(f.q->ready_count, 0);
    fixture_close(&f);
}

/* The ready list is a ring of depth slots: it wraps, keeps order, and
 * says when it is full. */
static void ready_ring(void)
{
    Fixture f;
    if (!fixture_open(&f, 4))
        return;
    DmkIo ios[6];
    for (int i = 0; i < 6; i++) {
        ios[i] = make_io((uint64_t)i * 4096, 4096, buf, DMK_OP_READ);
        fake_status(&ios[i], ST_SUCCESS, 4096);
        dmk_iocp_complete(&ios[i]);
    }
    for (int i = 0; i < 4; i++)
        DMK_CHECK(dmk_iocp_ready_push(f.q, &ios[i]));
    DMK_CHECK(!dmk_iocp_ready_push(f.q, &ios[4]));
    DmkIo *done[4] = {0};
    DmkError err = {0};
    DMK_CHECK_INT(f.be->reap(f.q, 1, 2, 0, done, &err), 2);
    DMK_CHECK(done[0] == &ios[0] && done[1] == &ios[1]);
    DMK_CHECK(dmk_iocp_ready_push(f.q, &ios[4]) && dmk_iocp_ready_push(f.q, &ios[5]));
    DMK_CHECK_INT(f.be->reap(f.q, 1, 4, 0, done, &err), 4);
    DMK_CHECK(done[0] == &ios[2] && done[1] == &ios[3] && done[2] == &ios[4] && done[3] == &ios[5]);
    fixture_close(&f);
}

/* A fake inline completion and a real one through the port, in one reap:
 * the inline one first, then the port's, each with its own result; the
 * data really reached the file. */
static void inline_then_port(void)
{
    Fixture f;
    if (!fixture_open(&f, 4))
        return;
    DmkIo real = make_io(0, 4096, buf, DMK_OP_WRITE);
    DmkIo *batch[1] = {&real};
    DmkError err = {0};
    memset(buf, 0x5a, 4096);
    int rc = f.be->submit(f.q, batch, 1, &err);
    DMK_CHECK_INT(rc, 1);
    DmkIo fake = make_io(8192, 4096, buf + 4096, DMK_OP_READ);
    fake_status(&fake, ST_ACCESS_DENIED, 0);
    dmk_iocp_complete(&fake);
    DMK_CHECK(dmk_iocp_ready_push(f.q, &fake));
    DmkIo *done[4] = {0};
    int n = 0;
    for (int tries = 0; rc == 1 && n < 2 && tries < 40; tries++)
        n += f.be->reap(f.q, 2 - n, 4 - n, 50000000ULL, done + n, &err);
    DMK_CHECK_INT(n, 2);
    DMK_CHECK(done[0] == &fake && done[1] == &real);
    DMK_CHECK_INT(fake.res, DMK_E_PERM);
    DMK_CHECK_INT(fake.os_error, ERROR_ACCESS_DENIED);
    DMK_CHECK_INT(real.res, 4096);
    DMK_CHECK_INT(f.q->on_port, 0);
    printf("# real requests completed inline: %llu, through the port: %llu%s\n",
           (unsigned long long)f.q->n_inline, (unsigned long long)f.q->n_port,
           f.q->n_inline ? "" : " (Wine queues every request to the port)");
    /* Read it back through the queue: the write reached the file. */
    DmkIo back = make_io(0, 4096, buf + 8192, DMK_OP_READ);
    batch[0] = &back;
    memset(buf + 8192, 0, 4096);
    DMK_CHECK_INT(f.be->submit(f.q, batch, 1, &err), 1);
    n = 0;
    for (int tries = 0; n < 1 && tries < 40; tries++)
        n += f.be->reap(f.q, 1, 4, 50000000ULL, done, &err);
    DMK_CHECK(n == 1 && back.res == 4096 && buf[8192] == 0x5a && buf[8192 + 4095] == 0x5a);
    fixture_close(&f);
}

/* Nothing in flight: reap returns at once instead of sitting out its
 * timeout on an empty port. */
static void empty_reap_returns(void)
{
    Fixture f;
    if (!fixture_open(&f, 4))
        return;
    DmkIo *done[4];
    DmkError err = {0};
    uint64_t t0 = dmk_clock_ns();
    DMK_CHECK_INT(f.be->reap(f.q, 1, 4, 10000000000ULL, done, &err), 0);
    DMK_CHECK(dmk_clock_ns() - t0 < 5000000000ULL); /* not the 10 s timeout */
    fixture_close(&f);
}

/* ---- errors and OS services ---------------------------------------------- */

static void error_mapping(void)
{
    DMK_CHECK_INT(dmk_win_error_code(ERROR_DISK_FULL), DMK_E_NOSPC);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_HANDLE_DISK_FULL), DMK_E_NOSPC);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_ACCESS_DENIED), DMK_E_PERM);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_WRITE_PROTECT), DMK_E_PERM);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_PATH_NOT_FOUND), DMK_E_NOENT);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_FILE_NOT_FOUND), DMK_E_NOENT);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_NOT_ENOUGH_MEMORY), DMK_E_NOMEM);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_INVALID_PARAMETER), DMK_E_INVAL);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_NOT_SUPPORTED), DMK_E_NOTSUP);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_TOO_MANY_OPEN_FILES), DMK_E_LIMIT);
    DMK_CHECK_INT(dmk_win_error_code(ERROR_CRC), DMK_E_IO);
    DmkError err = {0};
    DMK_CHECK_INT(dmk_win_error(&err, ERROR_PATH_NOT_FOUND, "opening %s failed", "C:\\x"),
                  DMK_E_NOENT);
    DMK_CHECK_INT(err.os_error, ERROR_PATH_NOT_FOUND);
    DMK_CHECK(strncmp(err.msg, "opening C:\\x failed: ", 21) == 0);
    DMK_CHECK(strstr(err.msg, "(Win32 error 3)") != NULL);
    DMK_CHECK(strstr(err.msg, "\r") == NULL && strstr(err.msg, "\n") == NULL);
    printf("# %s\n", err.msg);
    char text[64];
    DMK_CHECK(strstr(dmk_error_os_text(0x7fffffff, text, sizeof text), "2147483647") != NULL);
}

static void thread_body(void *arg)
{
    *(int *)arg = 42;
}

static void os_services(void)
{
    char s[128];
    dmk_os_describe(s, sizeof s);
    DMK_CHECK(strncmp(s, "Windows ", 8) == 0);
    printf("# %s\n", s);
    dmk_os_utc_now(s, sizeof s);
    DMK_CHECK(strlen(s) == 20 && s[4] == '-' && s[10] == 'T' && s[19] == 'Z');
    DMK_CHECK_INT(dmk_os_max_inflight(), 0);
    DMK_CHECK(dmk_entropy64() != dmk_entropy64());
    uint64_t t0 = dmk_clock_ns();
    dmk_sleep_ns(3000000);
    uint64_t slept = dmk_clock_ns() - t0;
    DMK_CHECK(slept >= 3000000 && slept < 2000000000); /* at least 3 ms; late on a busy machine */
    printf("# dmk_sleep_ns(3 ms) took %.2f ms\n", (double)slept / 1e6);
    int v = 0;
    DmkThread *t = NULL;
    DMK_CHECK_INT(dmk_thread_start(&t, thread_body, &v, NULL), DMK_OK);
    dmk_thread_join(t);
    DMK_CHECK_INT(v, 42);
    void *p = dmk_aligned_alloc(4096, 10000);
    DMK_CHECK(p && ((uintptr_t)p & 4095) == 0);
    dmk_aligned_free(p);
}

/* UTF-8 in, UTF-16 out, and back; bad UTF-8 is refused, not mangled. */
static void strings_and_paths(void)
{
    wchar_t *w = dmk_win_wide("caf\xc3\xa9");
    DMK_CHECK(w && wcscmp(w, L"caf\x00e9") == 0);
    char back[8];
    dmk_win_utf8(w, back, sizeof back);
    DMK_CHECK_STR(back, "caf\xc3\xa9");
    dmk_win_utf8(w, back, 5); /* cut inside the two-byte character */
    DMK_CHECK_STR(back, "caf");
    free(w);
    DMK_CHECK(dmk_win_wide("bad \xff") == NULL);
    wchar_t *p = dmk_win_long_path("C:/a/./b/../c");
    DMK_CHECK(p && wcscmp(p, L"\\\\?\\C:\\a\\c") == 0);
    free(p);
    p = dmk_win_long_path("\\\\server\\share\\dir");
    DMK_CHECK(p && wcscmp(p, L"\\\\?\\UNC\\server\\share\\dir") == 0);
    free(p);
}

static volatile LONG caught_sig;

static void on_interrupt(int sig)
{
    InterlockedExchange(&caught_sig, sig);
}

/* Ctrl+C and Ctrl+Break reach the handler as SIGINT (2) and SIGTERM (15),
 * on a thread Windows starts, and do not end the process. */
static void console_interrupts(void)
{
    dmk_os_on_interrupt(on_interrupt);
    DWORD events[2] = {CTRL_C_EVENT, CTRL_BREAK_EVENT};
    LONG want[2] = {2, 15};
    for (int i = 0; i < 2; i++) {
        InterlockedExchange(&caught_sig, 0);
        if (!GenerateConsoleCtrlEvent(events[i], 0))
            DMK_SKIP("no console to send Ctrl+C to (Wine under meson has none)");
        for (int tries = 0; tries < 200 && !caught_sig; tries++)
            Sleep(10);
        DMK_CHECK_INT(caught_sig, want[i]);
    }
}

/* Under Wine: C: (the prefix's drive_c) and Z: (the Linux root). */
static void volume_list(void)
{
    static DmkVolume vols[32];
    int n = dmk_os_list_volumes(vols, 32);
    DMK_CHECK(n >= 1);
    int usable = 0;
    for (int i = 0; i < n; i++) {
        printf("# %s  fs %s  device %s  label \"%s\"  %llu MiB free  %s%s\n", vols[i].path,
               vols[i].fs_type, vols[i].device, vols[i].label,
               (unsigned long long)(vols[i].free_bytes >> 20),
               vols[i].usable ? "usable" : "not usable: ", vols[i].reason);
        DMK_CHECK(vols[i].path[1] == ':' && vols[i].path[2] == '\\');
        DMK_CHECK(vols[i].usable == (vols[i].reason[0] == '\0'));
        usable += vols[i].usable;
    }
    DMK_CHECK(usable >= 1);
    DMK_CHECK_INT(dmk_os_list_volumes(vols, 1), 1);
}

int main(void)
{
    make_tmpdir();
    buf = dmk_aligned_alloc(4096, 64 * 1024);
    DMK_TEST(alignment_rules);
    DMK_TEST(submit_refuses_misaligned);
    DMK_TEST(inline_completions);
    DMK_TEST(ready_ring);
    DMK_TEST(inline_then_port);
    DMK_TEST(empty_reap_returns);
    DMK_TEST(error_mapping);
    DMK_TEST(os_services);
    DMK_TEST(strings_and_paths);
    DMK_TEST(volume_list);
    DMK_TEST(console_interrupts);
    dmk_aligned_free(buf);
    RemoveDirectoryA(tmpdir);
    return dmk_test_done();
}
