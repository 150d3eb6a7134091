/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The completion-port backend on a real file system (under Wine: the
 * Linux file system behind drive Z:). Checks that runs at QD1 and QD32
 * measure something, that the test file is really written (random or zero
 * data as asked, every sampled block distinct), that unsuitable targets
 * are refused with the same codes as on Linux, and that no file is left
 * behind. Paths hold a non-ASCII character, and one is longer than
 * MAX_PATH, to exercise the UTF-8 -> UTF-16 and \\?\ handling. */
#include <windows.h>
#include <sddl.h>
#include <stdint.h>

#include "dmk-runner.h"
#include "dmk-test.h"

#define MIB (1ULL << 20)

static char tmpdir[900];

/* ---- small Win32 helpers for UTF-8 paths -------------------------------- */

static wchar_t *wide(const char *utf8)
{
    static wchar_t bufs[2][2048];
    static int next;
    wchar_t *w = bufs[next++ & 1];
    if (!MultiByteToWideChar(CP_UTF8, 0, utf8, -1, w, 2048))
        w[0] = L'\0';
    return w;
}

/* \\?\ + the full path: the only way to reach paths past MAX_PATH. */
static wchar_t *long_wide(const char *utf8)
{
    static wchar_t out[4096];
    wchar_t full[4000];
    DWORD n = GetFullPathNameW(wide(utf8), 4000, full, NULL);
    if (!n || n >= 4000)
        return wide(utf8);
    wcscpy(out, L"\\\\?\\");
    wcscat(out, full);
    return out;
}

static void make_tmpdir(void)
{
    const char *base = getenv("DMK_TEST_TMPDIR");
    if (!base)
        base = ".";
    CreateDirectoryW(wide(base), NULL);
    /* "ñ" (U+00F1), as UTF-8: the core hands the platform UTF-8 paths. */
    snprintf(tmpdir, sizeof tmpdir, "%s/iocp-\xc3\xb1-%lu", base, GetCurrentProcessId());
    if (!CreateDirectoryW(long_wide(tmpdir), NULL)) {
        printf("Bail out! creating %s: Win32 error %lu\n", tmpdir, GetLastError());
        exit(1);
    }
}

/* Names in dir matching pattern ("*" for all), without . and ..; the
 * first match's name into first when given. */
static int dir_entries_like(const char *dir, const char *pattern, wchar_t *first, size_t len)
{
    char glob[1100];
    snprintf(glob, sizeof glob, "%.1000s/%s", dir, pattern);
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(long_wide(glob), &fd);
    int n = 0;
    if (h == INVALID_HANDLE_VALUE)
        return 0;
    do {
        if (wcscmp(fd.cFileName, L".") && wcscmp(fd.cFileName, L"..")) {
            if (n == 0 && first)
                lstrcpynW(first, fd.cFileName, (int)len);
            n++;
        }
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    return n;
}

static int dir_entries(const char *dir)
{
    return dir_entries_like(dir, "*", NULL, 0);
}

static void spec_for(DmkRunSpec *s, const char *test, DmkMode mode, uint32_t share)
{
    DmkJob job;
    dmk_run_spec_init(s);
    snprintf(s->dir, sizeof s->dir, "%.999s", tmpdir);
    s->size = 64 * MIB;
    s->passes = 1;
    s->measure_s = 0.5;
    s->warmup_s = 0.2;
    s->interval_s = 0;
    if (dmk_job_parse_name(test, &job, NULL) == DMK_OK)
        dmk_run_spec_add(s, &job, mode, share, NULL);
}

/* ---- inspecting the live test file from the progress callback ----------- */

typedef struct {
    const char *dir;
    bool stop_at_measure; /* stop the run once it measures */
    DmkRunner *runner;
    bool inspected;
    bool found;
    uint64_t size, allocated;
    int zero_blocks, distinct_blocks; /* of 16 sampled 4 KiB blocks */
    int visible_entries;              /* names in the target dir during the run */
} Inspect;

/* A second handle on the test file. The benchmark's handles share read
 * and write; FILE_SHARE_DELETE is needed because they hold DELETE. */
static HANDLE open_test_file(const char *dir)
{
    wchar_t name[MAX_PATH];
    if (!dir_entries_like(dir, ".drivemark-*", name, MAX_PATH))
        return INVALID_HANDLE_VALUE;
    char uname[MAX_PATH * 3], path[1200];
    WideCharToMultiByte(CP_UTF8, 0, name, -1, uname, sizeof uname, NULL, NULL);
    snprintf(path, sizeof path, "%.900s/%.200s", dir, uname);
    return CreateFileW(long_wide(path), GENERIC_READ,
                       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                       FILE_ATTRIBUTE_NORMAL, NULL);
}

static bool read_at(HANDLE h, uint64_t off, void *buf, DWORD len)
{
    OVERLAPPED ov = {0}; /* a synchronous handle: only the offset is used */
    ov.Offset = (DWORD)off;
    ov.OffsetHigh = (DWORD)(off >> 32);
    DWORD got = 0;
    return ReadFile(h, buf, len, &got, &ov) && got == len;
}

static void sample_blocks(HANDLE h, uint64_t size, Inspect *in)
{
    static unsigned char blocks[16][4096];
    static const unsigned char zero[4096];
    for (int i = 0; i < 16; i++) {
        uint64_t off = ((size / 16) * (uint64_t)i + 8192 * (uint64_t)i) & ~4095ULL;
        if (!read_at(h, off, blocks[i], 4096))
            continue;
        in->zero_blocks += memcmp(blocks[i], zero, 4096) == 0;
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= memcmp(blocks[i], blocks[j], 4096) == 0;
        in->distinct_blocks += !dup;
    }
}

static void on_progress(const DmkProgress *p, void *ud)
{
    Inspect *in = ud;
    if (in->inspected || p->stage != DMK_STAGE_MEASURE)
        return;
    in->inspected = true;
    in->visible_entries = dir_entries(in->dir);
    HANDLE h = open_test_file(in->dir);
    if (h != INVALID_HANDLE_VALUE) {
        FILE_STANDARD_INFO si;
        in->found = true;
        if (GetFileInformationByHandleEx(h, FileStandardInfo, &si, sizeof si)) {
            in->size = (uint64_t)si.EndOfFile.QuadPart;
            in->allocated = (uint64_t)si.AllocationSize.QuadPart;
        }
        sample_blocks(h, in->size, in);
        CloseHandle(h); /* else the file would outlive the run */
    }
    if (in->stop_at_measure)
        dmk_runner_stop(in->runner);
}

static int run_inspected(DmkRunSpec *s, Inspect *in, DmkRunResult **res, DmkError *err)
{
    bool stop = in->stop_at_measure;
    memset(in, 0, sizeof *in);
    in->dir = s->dir;
    in->stop_at_measure = stop;
    in->runner = dmk_runner_new(s, dmk_backend_native());
    DmkRunCallbacks cb = {on_progress, NULL, in};
    int rc = dmk_runner_run(in->runner, &cb, res, err);
    dmk_runner_free(in->runner);
    return rc;
}

static int run_plain(DmkRunSpec *s, DmkError *err)
{
    DmkRunResult *res = NULL;
    DmkRunner *r = dmk_runner_new(s, dmk_backend_native());
    int rc = dmk_runner_run(r, NULL, &res, err);
    dmk_runner_free(r);
    dmk_run_result_free(res);
    return rc;
}

/* ---- runs ----------------------------------------------------------------- */

static void check_result(const DmkRunResult *res, DmkMode mode)
{
    const DmkTestResult *t = &res->tests[0];
    const DmkStats *st = &t->score.total;
    DMK_CHECK(st->ios > 0);
    DMK_CHECK_INT(st->bytes, st->ios * t->test.jobs[0].block_size);
    DMK_CHECK(st->mb_s > 0 && st->lat_mean_us > 0);
    DMK_CHECK(st->lat_min_us <= st->lat_p50_us && st->lat_p50_us <= st->lat_max_us);
    DMK_CHECK_STR(res->backend, "iocp");
    DMK_CHECK(res->target.offset_align >= 512 && res->target.fs_type[0]);
    DMK_CHECK(strncmp(res->os, "Windows", 7) == 0);
    if (mode == DMK_MODE_READ)
        DMK_CHECK(t->score.write.ios == 0 && t->score.read.ios == st->ios);
    if (mode == DMK_MODE_WRITE)
        DMK_CHECK(t->score.read.ios == 0 && t->score.write.ios == st->ios);
    if (mode == DMK_MODE_MIX)
        DMK_CHECK(t->score.read.ios > 0 && t->score.write.ios > 0);
}

static void check_run(const char *test, DmkMode mode, uint32_t share)
{
    static DmkRunSpec s;
    spec_for(&s, test, mode, share);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    Inspect in = {0};
    int rc = run_inspected(&s, &in, &res, &err);
    if (rc != DMK_OK)
        printf("# %s: %s\n", test, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(res && res->complete && res->n_tests == 1);
    if (res && res->n_tests == 1) {
        check_result(res, mode);
        printf("# %s: %.1f MB/s, %.0f IOPS, mean %.1f us; fs %s, sector %u, model \"%s\"\n", test,
               res->tests[0].score.total.mb_s, res->tests[0].score.total.iops,
               res->tests[0].score.total.lat_mean_us, res->target.fs_type, res->target.offset_align,
               res->target.model);
    }
    /* The file really is there and written while the test runs ... */
    DMK_CHECK(in.inspected && in.found);
    DMK_CHECK_INT(in.size, 64 * MIB);
    DMK_CHECK(in.allocated >= in.size);
    DMK_CHECK_INT(in.zero_blocks, 0);
    DMK_CHECK_INT(in.distinct_blocks, 16);
    DMK_CHECK_INT(in.visible_entries, 1); /* DELETE_ON_CLOSE files keep their name till closed */
    /* ... and gone afterwards. */
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
    dmk_run_result_free(res);
}

static void read_qd1(void)
{
    check_run("RND4K Q1T1", DMK_MODE_READ, 100);
}

static void read_qd32(void)
{
    check_run("RND4K Q32T1", DMK_MODE_READ, 100);
}

static void write_qd1(void)
{
    check_run("RND4K Q1T1", DMK_MODE_WRITE, 0);
}

static void write_qd32(void)
{
    check_run("RND4K Q32T1", DMK_MODE_WRITE, 0);
}

static void mix_qd1(void)
{
    check_run("RND4K Q1T1", DMK_MODE_MIX, 70);
}

static void mix_qd32(void)
{
    check_run("RND4K Q32T1", DMK_MODE_MIX, 70);
}

/* Four threads: four queues, each with its own handle and port. */
static void seq_threads(void)
{
    check_run("SEQ1M Q8T4", DMK_MODE_READ, 100);
}

static void zero_data(void)
{
    static DmkRunSpec s;
    spec_for(&s, "SEQ1M Q1T1", DMK_MODE_READ, 100);
    s.data = DMK_DATA_ZERO;
    DmkRunResult *res = NULL;
    DmkError err = {0};
    Inspect in = {0};
    DMK_CHECK_INT(run_inspected(&s, &in, &res, &err), DMK_OK);
    DMK_CHECK(in.found);
    DMK_CHECK_INT(in.zero_blocks, 16);
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
    dmk_run_result_free(res);
}

/* Stopped while requests are in flight: queues cancel and drain, and the
 * file still goes. */
static void stopped_run(void)
{
    static DmkRunSpec s;
    spec_for(&s, "RND4K Q32T1", DMK_MODE_WRITE, 0);
    s.measure_s = 60; /* a stop that was not seen runs a minute */
    DmkRunResult *res = NULL;
    DmkError err = {0};
    Inspect in = {.stop_at_measure = true};
    uint64_t t0 = dmk_clock_ns();
    DMK_CHECK_INT(run_inspected(&s, &in, &res, &err), DMK_E_STOPPED);
    DMK_CHECK(dmk_clock_ns() - t0 < 30000000000ULL);
    DMK_CHECK(in.found);
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
    dmk_run_result_free(res);
}

/* A directory path longer than MAX_PATH (260) works through \\?\. */
static void long_path(void)
{
    static DmkRunSpec s;
    char deep[900];
    int n = snprintf(deep, sizeof deep, "%s", tmpdir);
    for (int i = 0; i < 6 && n < 700; i++) {
        n += snprintf(deep + n, sizeof deep - (size_t)n,
                      "/level-%d-abcdefghijklmnopqrstuvwxyz-abcdefghijklmnopqrstuvwxyz", i);
        CreateDirectoryW(long_wide(deep), NULL);
    }
    DMK_CHECK(strlen(deep) > MAX_PATH);
    spec_for(&s, "RND4K Q32T1", DMK_MODE_MIX, 70);
    snprintf(s.dir, sizeof s.dir, "%s", deep);
    s.size = 16 * MIB;
    DmkError err = {0};
    int rc = run_plain(&s, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(dir_entries(deep), 0);
    while (strlen(deep) > strlen(tmpdir)) {
        RemoveDirectoryW(long_wide(deep));
        *strrchr(deep, '/') = '\0';
    }
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
}

/* ---- refusals: the same codes as on Linux ------------------------------- */

static void missing_dir(void)
{
    static DmkRunSpec s;
    spec_for(&s, "RND4K Q1T1", DMK_MODE_READ, 100);
    snprintf(s.dir, sizeof s.dir, "%.900s/does-not-exist", tmpdir);
    DmkError err = {0};
    DMK_CHECK_INT(run_plain(&s, &err), DMK_E_NOENT);
    DMK_CHECK(strstr(err.msg, "does-not-exist") != NULL);
    DMK_CHECK(err.os_error == ERROR_FILE_NOT_FOUND || err.os_error == ERROR_PATH_NOT_FOUND);
    DMK_CHECK(strstr(err.msg, "(Win32 error ") != NULL); /* the system's text and code */
    printf("# %s\n", err.msg);
    DMK_CHECK_INT(GetFileAttributesW(long_wide(s.dir)), INVALID_FILE_ATTRIBUTES);
}

static void not_a_dir(void)
{
    static DmkRunSpec s;
    char file[1000];
    snprintf(file, sizeof file, "%.900s/plain-file", tmpdir);
    HANDLE h = CreateFileW(long_wide(file), GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
    CloseHandle(h);
    spec_for(&s, "RND4K Q1T1", DMK_MODE_READ, 100);
    snprintf(s.dir, sizeof s.dir, "%.999s", file);
    DmkError err = {0};
    DMK_CHECK_INT(run_plain(&s, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "not a directory") != NULL);
    DeleteFileW(long_wide(file));
}

/* Windows ignores FILE_ATTRIBUTE_READONLY on directories; an ACE that
 * denies everyone FILE_ADD_FILE is what makes one read-only there. Wine
 * enforces neither ACLs nor, for root, the Unix mode it maps the attribute
 * to, so as root under Wine this is skipped. */
static bool deny_add_file(const wchar_t *dir)
{
    PSECURITY_DESCRIPTOR sd = NULL;
    /* Protected DACL: deny FILE_ADD_FILE (0x2) to Everyone, allow the rest. */
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:P(D;;0x2;;;WD)(A;OICI;FA;;;WD)",
                                                              SDDL_REVISION_1, &sd, NULL))
        return false;
    BOOL ok = SetFileSecurityW(dir, DACL_SECURITY_INFORMATION, sd);
    LocalFree(sd);
    return ok;
}

/* DMK_TEST_RO_DIR may name a directory on a read-only file system (under
 * Wine: a read-only mount, which gives ERROR_ACCESS_DENIED even to root). */
static void read_only_dir(void)
{
    static DmkRunSpec s;
    static char reason[200];
    const char *ro = getenv("DMK_TEST_RO_DIR");
    spec_for(&s, "RND4K Q1T1", DMK_MODE_WRITE, 0);
    if (ro) {
        snprintf(s.dir, sizeof s.dir, "%.999s", ro);
        s.size = DMK_SIZE_MIN; /* a small file system: space is checked first */
        DmkError err = {0};
        DMK_CHECK_INT(run_plain(&s, &err), DMK_E_PERM);
        DMK_CHECK(err.os_error == ERROR_ACCESS_DENIED || err.os_error == ERROR_WRITE_PROTECT);
        printf("# %s\n", err.msg);
        return;
    }
    snprintf(s.dir, sizeof s.dir, "%.900s/read-only", tmpdir);
    wchar_t *w = long_wide(s.dir);
    CreateDirectoryW(w, NULL);
    SetFileAttributesW(w, FILE_ATTRIBUTE_READONLY);
    bool acl = deny_add_file(w);
    DmkError err = {0};
    int rc = run_plain(&s, &err);
    SetFileAttributesW(long_wide(s.dir), FILE_ATTRIBUTE_NORMAL);
    RemoveDirectoryW(long_wide(s.dir));
    if (rc == DMK_OK) {
        snprintf(reason, sizeof reason,
                 "files could still be created in a read-only directory (deny ACE %s; root under "
                 "Wine bypasses the Unix mode and ACLs are not enforced); set DMK_TEST_RO_DIR to "
                 "a read-only file system",
                 acl ? "set" : "not set");
        DMK_SKIP(reason);
    }
    DMK_CHECK_INT(rc, DMK_E_PERM);
    DMK_CHECK(err.os_error == ERROR_ACCESS_DENIED || err.os_error == ERROR_WRITE_PROTECT);
    printf("# %s\n", err.msg);
}

/* More than the free space: refused before anything is written, with
 * Linux's message. DMK_TEST_SMALL_DIR may name a small file system. */
static void full_disk(void)
{
    static DmkRunSpec s;
    static char reason[200];
    const char *small = getenv("DMK_TEST_SMALL_DIR");
    spec_for(&s, "RND4K Q1T1", DMK_MODE_WRITE, 0);
    snprintf(s.dir, sizeof s.dir, "%.999s", small ? small : tmpdir);
    ULARGE_INTEGER avail, total, total_free;
    DMK_CHECK(GetDiskFreeSpaceExW(long_wide(s.dir), &avail, &total, &total_free));
    uint64_t size = (avail.QuadPart / MIB + 1) * MIB;
    if (size > DMK_SIZE_MAX) {
        snprintf(reason, sizeof reason,
                 "%llu GiB free in %s, more than the largest test file (64 GiB); set "
                 "DMK_TEST_SMALL_DIR to a small file system",
                 (unsigned long long)(avail.QuadPart >> 30), s.dir);
        DMK_SKIP(reason);
    }
    s.size = size < DMK_SIZE_MIN ? DMK_SIZE_MIN : size;
    int before = dir_entries(s.dir);
    DmkError err = {0};
    DMK_CHECK_INT(run_plain(&s, &err), DMK_E_NOSPC);
    DMK_CHECK(strstr(err.msg, "not enough free space in ") != NULL);
    DMK_CHECK_INT(dir_entries(s.dir), before);
    printf("# %s\n", err.msg);
}

/* 512-byte blocks run where the sector is 512 and are refused before any
 * I/O where it is larger, naming the sector. */
static void alignment_checked(void)
{
    static DmkRunSpec s;
    spec_for(&s, "RND512 Q1T1", DMK_MODE_READ, 100);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    DmkRunner *r = dmk_runner_new(&s, dmk_backend_native());
    int rc = dmk_runner_run(r, NULL, &res, &err);
    dmk_runner_free(r);
    if (rc == DMK_OK) {
        DMK_CHECK(res->target.offset_align <= 512);
        printf("# 512-byte unbuffered I/O is allowed here (sector %u)\n", res->target.offset_align);
    } else {
        DMK_CHECK_INT(rc, DMK_E_INVAL);
        DMK_CHECK(strstr(err.msg, "sector") != NULL);
    }
    dmk_run_result_free(res);
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
}

int main(void)
{
    make_tmpdir();
    DMK_TEST(read_qd1);
    DMK_TEST(read_qd32);
    DMK_TEST(write_qd1);
    DMK_TEST(write_qd32);
    DMK_TEST(mix_qd1);
    DMK_TEST(mix_qd32);
    DMK_TEST(seq_threads);
    DMK_TEST(zero_data);
    DMK_TEST(stopped_run);
    DMK_TEST(long_path);
    DMK_TEST(missing_dir);
    DMK_TEST(not_a_dir);
    DMK_TEST(read_only_dir);
    DMK_TEST(full_disk);
    DMK_TEST(alignment_checked);
    RemoveDirectoryW(long_wide(tmpdir));
    return dmk_test_done();
}
