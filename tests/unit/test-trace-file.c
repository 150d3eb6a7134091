/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-trace's replay through the native backend (libaio, or overlapped
 * I/O on Windows) on a real test file under $DMK_TEST_TMPDIR, on the real
 * clock (test-trace has the exact answers on the simulated one): a trace
 * of reads and writes of mixed sizes at odd offsets, mapped into a small
 * file and aligned to its sector, completes every request without error;
 * the busy time lies within the wall time, the bursts keep more than one
 * request in flight (at most the replay's 32), the trace's 3 s of gaps are cut, and the test file
 * is gone afterwards. */
#include "dmk-test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-trace.h"

#define MIB (1024ULL * 1024ULL)

static size_t entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void test_native_replay(void)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/trace-file", dmk_test_tmpdir());
    dmk_test_mkdir(dir);
    const DmkBackend *be = dmk_backend_native();
    DmkTargetParams tp = {.dir = dir, .size = 8 * MIB};
    DmkTarget *target = NULL;
    DmkTargetInfo info;
    DmkError err = {0};
    int rc = be->target_open(&tp, &target, &info, &err);
    if (rc != DMK_OK) {
        printf("# skip: %s cannot hold a direct-I/O test file: %s\n", dir, err.msg);
        return;
    }
    DmkQueue *q = NULL;
    DMK_CHECK_INT(be->queue_open(target, DMK_TRACE_QD_MAX, &q, &err), DMK_OK);
    DmkPool pool;
    DMK_CHECK_INT(dmk_pool_init(&pool, DMK_DATA_RANDOM, info.test_size, 256 * 1024,
                                info.mem_align > 4096 ? info.mem_align : 4096, 9, &err),
                  DMK_OK);
    /* 40 bursts of 8 (reads and writes, 512 B to 256 KiB, offsets far
     * past the file and off the sector), bursts 2 ms apart, and 3 gaps
     * of 1 s; then the same as a v2 trace with a wait. */
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "fio version 3 iolog\n0 /dev/x add\n");
    unsigned long long t = 10;
    for (unsigned i = 0; i < 320; i++) {
        if (i % 8 == 0)
            t += i % 80 == 0 && i ? 1000000 : 2000;
        static const unsigned sizes[] = {512, 4096, 65536, 262144, 1536};
        n += (size_t)snprintf(text + n, cap - n, "%llu /dev/x %s %llu %u\n", t,
                              i % 3 ? "read" : "write", (unsigned long long)i * 7777777ULL + 3,
                              sizes[i % 5]);
    }
    DmkTrace tr;
    DMK_CHECK_INT(dmk_trace_parse(text, n, "native.iolog", &tr, &err), DMK_OK);
    DmkReplayParams p = {.be = be,
                         .q = q,
                         .region_size = info.test_size,
                         .align = info.offset_align,
                         .mem_align = info.mem_align,
                         .qd = DMK_TRACE_QD_MAX,
                         .idle_max_ns = 25000000,
                         .pool = &pool,
                         .seed = 5};
    DmkReplayStats st;
    rc = dmk_trace_replay(&tr, &p, &st, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(st.ios, 320);
    DMK_CHECK_INT(st.writes, 107);
    DMK_CHECK_INT(st.gaps_cut, 3);
    DMK_CHECK(st.busy_ns > 0 && st.busy_ns <= st.wall_ns);
    /* the three 1 s gaps cut to 25 ms each, and no idle beyond them */
    DMK_CHECK_INT(st.trace_ns - st.cut_ns, 3 * 975000000ULL);
    DMK_CHECK(st.wall_ns - st.busy_ns < 1000000000ULL);
    /* More than one in flight; at most the cap: a drive slower than the
     * bursts' 2 ms spacing has the next burst issued on time over the
     * last one's requests (v3 is replayed on its own clock). */
    DMK_CHECK(st.qd > 1.0 && st.qd <= DMK_TRACE_QD_MAX + 1e-9);
    DMK_CHECK(st.mb_s > 0 && st.lat_p50_us > 0 && st.lat_p99_us >= st.lat_p50_us);
    printf("# native (%s, sector %u): %.1f MB/s over %.2f ms busy of %.2f ms, QD %.2f, mean %.1f "
           "us, p99 %.1f us\n",
           be->name, info.offset_align, st.mb_s, (double)st.busy_ns / 1e6, (double)st.wall_ns / 1e6,
           st.qd, st.lat_mean_us, st.lat_p99_us);
    dmk_trace_free(&tr);
    /* v2: QD 1, a wait 5 s after the start cut to 25 ms */
    static const char v2[] = "fio version 2 iolog\nf read 4097 4096\nf wait 5000 0\n"
                             "f write 99999999 8192\nf read 0 131072\n";
    DMK_CHECK_INT(dmk_trace_parse(v2, sizeof v2 - 1, "v2.iolog", &tr, &err), DMK_OK);
    DMK_CHECK_INT(dmk_trace_replay(&tr, &p, &st, &err), DMK_OK);
    DMK_CHECK_INT(st.ios, 3);
    DMK_CHECK_NEAR(st.qd, 1.0, 1e-9);
    DMK_CHECK(st.wall_ns >= 25000000 && st.wall_ns - st.busy_ns < 1000000000ULL);
    dmk_trace_free(&tr);
    free(text);
    dmk_pool_free(&pool);
    be->queue_close(q);
    be->target_close(target);
    DMK_CHECK_INT(entries(dir), 0); /* the test file went with the target */
}

int main(void)
{
    DMK_TEST(test_native_replay);
    return dmk_test_done();
}
