/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-trace: fio iolog v2 and v3 parsed strictly (each malformed line
 * refused with its line number), and replayed on the null backend on the
 * simulated clock (dmk_clock_simulate), where the answers are exact: at a
 * service time of L per request, N requests of B bytes at QD 1 keep the
 * drive busy N x L and score N x B / (N x L); gaps above idle-max are
 * cut to it; a QD-1 trace keeps 1.00 request in flight, a burst of 8 keeps
 * 8. */
#include "dmk-test.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-trace.h"
#include "null/dmk-null.h"

#define KIB 1024ULL
#define MIB (1024ULL * 1024ULL)

static int parse(const char *text, DmkTrace *t, DmkError *err)
{
    return dmk_trace_parse(text, strlen(text), "t.iolog", t, err);
}

/* ---- the parser --------------------------------------------------------------------- */

static void test_v2(void)
{
    DmkTrace t;
    DmkError err = {0};
    const char *text = "fio version 2 iolog\n"
                       "/dev/sdb add\n"
                       "/dev/sdb open\n"
                       "/dev/sdb read 0 4096\n"
                       "/dev/sdb write 1048576 65536\n"
                       "/dev/sdb sync 0 0\n"
                       "/dev/sdb wait 100 0\n"
                       "\n"
                       "/dev/sdb trim 8192 4096\r\n"
                       "/dev/sdb\tread  8192   512\n"
                       "/dev/sdb close\n";
    DMK_CHECK_INT(parse(text, &t, &err), DMK_OK);
    DMK_CHECK_INT(t.version, 2);
    DMK_CHECK_INT(t.n, 4);
    DMK_CHECK_INT(t.reads, 2);
    DMK_CHECK_INT(t.writes, 1);
    DMK_CHECK_INT(t.waits, 1);
    DMK_CHECK_INT(t.skipped, 5);
    DMK_CHECK_INT(t.read_bytes, 4096 + 512);
    DMK_CHECK_INT(t.write_bytes, 65536);
    DMK_CHECK_INT(t.max_len, 65536);
    DMK_CHECK_INT(t.ios[1].offset, 1048576);
    DMK_CHECK_INT(t.ios[1].op, DMK_TRACE_WRITE);
    DMK_CHECK_INT(t.ios[2].op, DMK_TRACE_WAIT);
    DMK_CHECK_INT(t.ios[2].t_us, 100000);
    dmk_trace_free(&t);
}

/* What fio's write_iolog writes (log_io_u, log_file: "%llu %s %s %llu %llu"). */
static void test_v3(void)
{
    DmkTrace t;
    DmkError err = {0};
    const char *text = "fio version 3 iolog\n"
                       "0 /tmp/f add\n"
                       "3 /tmp/f open\n"
                       "57 /tmp/f read 0 4096\n"
                       "130 /tmp/f write 4096 4096\n"
                       "1130 /tmp/f read 8192 131072\n"
                       "1200 /tmp/f close";
    DMK_CHECK_INT(parse(text, &t, &err), DMK_OK);
    DMK_CHECK_INT(t.version, 3);
    DMK_CHECK_INT(t.n, 3);
    DMK_CHECK_INT(t.skipped, 3);
    DMK_CHECK_INT(t.ios[0].t_us, 57);
    DMK_CHECK_INT(t.ios[2].t_us, 1130);
    DMK_CHECK_INT(t.ios[2].len, 131072);
    DMK_CHECK_INT(t.span_us, 1073); /* first to last request */
    dmk_trace_free(&t);
}

typedef struct {
    const char *text;
    const char *says; /* in the message, after "t.iolog line N: " */
} Bad;

static void test_malformed(void)
{
    static const Bad cases[] = {
        {"", "t.iolog line 1: the file is empty"},
        {"fio version 1 iolog\n", "t.iolog line 1: not a fio iolog"},
        {"hello\nf read 0 1\n", "t.iolog line 1: not a fio iolog"},
        {"fio version 2 iolog\nf read 0 512\nf fly 0 512\n", "t.iolog line 3: unknown action"},
        {"fio version 2 iolog\nf\n", "t.iolog line 2: too few fields"},
        {"fio version 2 iolog\nf read 0\n", "t.iolog line 2: missing the offset and length"},
        {"fio version 2 iolog\nf read 0 512 9\n", "t.iolog line 2: too many fields"},
        {"fio version 2 iolog\nf open 0\n", "t.iolog line 2: a file action takes no offset"},
        {"fio version 2 iolog\nf read x 512\n", "t.iolog line 2: the offset is not a number"},
        {"fio version 2 iolog\nf read -1 512\n", "t.iolog line 2: the offset is not a number"},
        {"fio version 2 iolog\nf read 18446744073709551616 512\n",
         "t.iolog line 2: the offset is not a number"},
        {"fio version 2 iolog\nf read 1152921504606846977 512\n",
         "t.iolog line 2: the offset is not a number"},
        {"fio version 2 iolog\nf read 1152921504606846975 512\n",
         "t.iolog line 2: the request ends past 2^60"},
        {"fio version 2 iolog\nf read 0 67108865\n", "t.iolog line 2: the length is not"},
        {"fio version 2 iolog\nf read 0 0x10\n", "t.iolog line 2: the length is not"},
        {"fio version 2 iolog\nf write 0 0\n", "t.iolog line 2: a read or write of 0 bytes"},
        {"fio version 2 iolog\nf wait z 0\n", "t.iolog line 2: the wait's time"},
        {"fio version 2 iolog\nf add\n", "t.iolog: the trace has no read or write"},
        {"fio version 3 iolog\nf read 0 512\n", "t.iolog line 2: the time"},
        {"fio version 3 iolog\n5 f read 0 512\n4 f read 0 512\n",
         "t.iolog line 3: the time goes back"},
        {"fio version 3 iolog\n5 f wait 10 0\n", "t.iolog line 2: a version 3 iolog has no wait"},
        {"fio version 3 iolog\n1125899906842625 f read 0 512\n", "t.iolog line 2: the time"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DmkTrace t;
        DmkError err = {0};
        DMK_CHECK_INT(parse(cases[i].text, &t, &err), DMK_E_INVAL);
        DMK_CHECK_HAS(err.msg, cases[i].says);
        DMK_CHECK(t.ios == NULL && t.n == 0);
    }
    /* A line longer than fio's 4096-byte buffer, on line 3. */
    size_t n = 5000;
    char *text = malloc(n + 64);
    int h = snprintf(text, 64, "fio version 2 iolog\nf read 0 512\n");
    memset(text + h, 'a', n);
    text[h + n] = '\0';
    DmkTrace t;
    DmkError err = {0};
    DMK_CHECK_INT(parse(text, &t, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "t.iolog line 3: the line is longer than 4096 bytes");
    free(text);
    /* A NUL in a line (bytes, not a C string). */
    static const char nul[] = "fio version 2 iolog\nf read 0\0 512\n";
    DMK_CHECK_INT(dmk_trace_parse(nul, sizeof nul - 1, "t.iolog", &t, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "t.iolog line 2: a NUL byte");
    /* A missing file names its path. */
    DMK_CHECK_INT(dmk_trace_load("/nonexistent/x.iolog", &t, &err) < 0, 1);
    DMK_CHECK_HAS(err.msg, "/nonexistent/x.iolog");
    /* A folder is no trace; nor is a FIFO, which would block a plain
     * open forever: both are refused at once, saying what they are. */
    DMK_CHECK_INT(dmk_trace_load(dmk_test_tmpdir(), &t, &err) < 0, 1);
    DMK_CHECK_HAS(err.msg, dmk_test_tmpdir());
#ifndef _WIN32
    char fifo[1100];
    snprintf(fifo, sizeof fifo, "%s/trace-fifo-%d", dmk_test_tmpdir(), (int)getpid());
    remove(fifo);
    DMK_CHECK_INT(mkfifo(fifo, 0600), 0);
    DMK_CHECK_INT(dmk_trace_load(fifo, &t, &err) < 0, 1);
    printf("# %s\n", err.msg);
    DMK_CHECK_HAS(err.msg, fifo);
    remove(fifo);
#endif
}

static void test_map(void)
{
    /* modulo the region, aligned down to its sector, kept inside */
    DMK_CHECK_INT(dmk_trace_map(0, 4096, MIB, 512), 0);
    DMK_CHECK_INT(dmk_trace_map(MIB + 1000, 4096, MIB, 512), 512);
    DMK_CHECK_INT(dmk_trace_map(MIB - 512, 4096, MIB, 512), MIB - 4096);
    DMK_CHECK_INT(dmk_trace_map(5 * MIB + 4097, 512, MIB, 4096), 4096);
    DMK_CHECK_INT(dmk_trace_map(UINT64_MAX, 512, 3 * MIB, 512) % 512, 0);
}

/* ---- the replay on the null backend ------------------------------------------------ */

typedef struct {
    DmkTarget *target;
    DmkQueue *q;
    DmkTargetInfo info;
    DmkPool pool;
    DmkBackendOpts opts;
} Bench;

static void bench_open(Bench *b, uint64_t latency_ns)
{
    memset(b, 0, sizeof *b);
    const DmkBackend *be = dmk_backend_null();
    dmk_null_opts(&b->opts)->latency_ns = latency_ns;
    DmkTargetParams tp = {.dir = "null", .size = 64 * MIB, .opts = &b->opts};
    DmkError err = {0};
    DMK_CHECK_INT(be->target_open(&tp, &b->target, &b->info, &err), DMK_OK);
    DMK_CHECK_INT(be->queue_open(b->target, DMK_TRACE_QD_MAX, &b->q, &err), DMK_OK);
    DMK_CHECK_INT(dmk_pool_init(&b->pool, DMK_DATA_RANDOM, 64 * MIB, 4 * MIB, 4096, 7, &err),
                  DMK_OK);
}

static void bench_close(Bench *b)
{
    const DmkBackend *be = dmk_backend_null();
    be->queue_close(b->q);
    be->target_close(b->target);
    dmk_pool_free(&b->pool);
}

static int replay(Bench *b, const char *text, uint64_t idle_max_ns, DmkReplayStats *st)
{
    DmkTrace t;
    DmkError err = {0};
    int rc = parse(text, &t, &err);
    DMK_CHECK_INT(rc, DMK_OK);
    if (rc != DMK_OK)
        return rc;
    DmkReplayParams p = {.be = dmk_backend_null(),
                         .q = b->q,
                         .region_size = b->info.test_size,
                         .align = b->info.offset_align,
                         .mem_align = b->info.mem_align,
                         .qd = DMK_TRACE_QD_MAX,
                         .idle_max_ns = idle_max_ns,
                         .pool = &b->pool,
                         .seed = 42};
    rc = dmk_trace_replay(&t, &p, st, &err);
    if (rc != DMK_OK)
        fprintf(stderr, "# replay: %s\n", err.msg);
    dmk_trace_free(&t);
    return rc;
}

/* Appends printf-style to a growing buffer. */
typedef struct {
    char *s;
    size_t n, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buf *b, const char *fmt, ...)
{
    if (b->cap - b->n < 256) {
        b->cap = b->cap ? b->cap * 2 : 4096;
        b->s = realloc(b->s, b->cap);
    }
    va_list ap;
    va_start(ap, fmt);
    b->n += (size_t)vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
}

/* 200 reads of 64 KiB at QD 1 (v2: each when the one before completed),
 * 100 us each: busy 20 ms, 13,107,200 bytes, 655.36 MB/s exactly. */
static void test_known_rate(void)
{
    Bench b;
    bench_open(&b, 100000);
    Buf text = {0};
    put(&text, "fio version 2 iolog\n");
    for (unsigned long long i = 0; i < 200; i++)
        put(&text, "f %s %llu %llu\n", i % 4 == 3 ? "write" : "read", i * 65536 * 7, 65536ULL);
    DmkReplayStats st;
    DMK_CHECK_INT(replay(&b, text.s, 25000000, &st), DMK_OK);
    DMK_CHECK_INT(st.ios, 200);
    DMK_CHECK_INT(st.writes, 50);
    DMK_CHECK_INT(st.read_bytes + st.write_bytes, 200 * 65536);
    DMK_CHECK_INT(st.busy_ns, 200 * 100000);
    DMK_CHECK_NEAR(st.mb_s, 655.36, 1e-9);
    DMK_CHECK_NEAR(st.qd, 1.0, 1e-12);
    DMK_CHECK_NEAR(st.lat_mean_us, 100.0, 1e-9);
    DMK_CHECK_NEAR(st.lat_p50_us, 100.0, 0.4);
    DMK_CHECK_NEAR(st.lat_p99_us, 100.0, 0.4);
    /* the same apart: 150 reads and 50 writes, each 100 us */
    DMK_CHECK_NEAR(st.lat_read.mean_us, 100.0, 1e-9);
    DMK_CHECK_NEAR(st.lat_write.mean_us, 100.0, 1e-9);
    DMK_CHECK_NEAR(st.lat_write.p999_us, 100.0, 0.4);
    DMK_CHECK_NEAR(st.lat_all.p999_us, 100.0, 0.4);
    DMK_CHECK_NEAR(st.lat_all.mean_us, st.lat_mean_us, 1e-9);
    printf("# known rate: %.2f MB/s over %.3f ms busy, QD %.2f, mean %.1f us\n", st.mb_s,
           (double)st.busy_ns / 1e6, st.qd, st.lat_mean_us);
    free(text.s);
    bench_close(&b);
}

/* v3: 10 reads 1 s apart, idle-max 25 ms: the replay takes 9 x 25 ms plus
 * the last one's 100 us, not the trace's 9 s; the busy time is only the
 * requests' own. */
static void test_idle_cut(void)
{
    Bench b;
    bench_open(&b, 100000);
    Buf text = {0};
    put(&text, "fio version 3 iolog\n");
    for (unsigned long long i = 0; i < 10; i++)
        put(&text, "%llu f read %llu %llu\n", 5 + i * 1000000, i * 4096, 4096ULL);
    DmkReplayStats st;
    DMK_CHECK_INT(replay(&b, text.s, 25000000, &st), DMK_OK);
    DMK_CHECK_INT(st.trace_ns, 9000000000ULL);
    DMK_CHECK_INT(st.cut_ns, 9 * 25000000ULL);
    DMK_CHECK_INT(st.gaps_cut, 9);
    DMK_CHECK_INT(st.wall_ns, 9 * 25000000ULL + 100000);
    DMK_CHECK_INT(st.busy_ns, 10 * 100000);
    DMK_CHECK_NEAR(st.mb_s, 40960.0 / 1e6 / 1e-3, 1e-9);
    printf("# idle cut: trace 9.000 s, replay %.4f s, busy %.3f ms\n", (double)st.wall_ns / 1e9,
           (double)st.busy_ns / 1e6);
    /* Gaps under idle-max are kept as they are: 1 ms apart, 10 ms cut. */
    free(text.s);
    text = (Buf){0};
    put(&text, "fio version 3 iolog\n");
    for (unsigned long long i = 0; i < 10; i++)
        put(&text, "%llu f read %llu %llu\n", i * 1000, i * 4096, 4096ULL);
    DMK_CHECK_INT(replay(&b, text.s, 10000000, &st), DMK_OK);
    DMK_CHECK_INT(st.gaps_cut, 0);
    DMK_CHECK_INT(st.wall_ns, 9 * 1000000ULL + 100000);
    /* v2: a wait 2 s after the start, cut to 25 ms. */
    free(text.s);
    DMK_CHECK_INT(replay(&b, "fio version 2 iolog\nf read 0 4096\nf wait 2000 0\nf read 0 4096\n",
                         25000000, &st),
                  DMK_OK);
    DMK_CHECK_INT(st.trace_ns, 2000000000ULL);
    DMK_CHECK_INT(st.gaps_cut, 1);
    DMK_CHECK_INT(st.wall_ns, 2 * 100000 + 25000000ULL);
    DMK_CHECK_INT(st.busy_ns, 2 * 100000);
    bench_close(&b);
}

/* The trace's concurrency: requests 1 ms apart at a 100 us service time
 * never overlap (QD 1.00); bursts of 8 at one time stamp keep 8 in flight. */
static void test_concurrency(void)
{
    Bench b;
    bench_open(&b, 100000);
    Buf text = {0};
    put(&text, "fio version 3 iolog\n");
    for (unsigned long long i = 0; i < 100; i++)
        put(&text, "%llu f read %llu %llu\n", i * 1000, i * 4096, 4096ULL);
    DmkReplayStats st;
    DMK_CHECK_INT(replay(&b, text.s, 25000000, &st), DMK_OK);
    DMK_CHECK_NEAR(st.qd, 1.0, 1e-9);
    printf("# QD-1 trace: achieved QD %.2f\n", st.qd);
    free(text.s);
    text = (Buf){0};
    put(&text, "fio version 3 iolog\n");
    for (unsigned long long i = 0; i < 100; i++)
        put(&text, "%llu f write %llu %llu\n", (i / 8) * 2000, i * 4096, 4096ULL);
    DMK_CHECK_INT(replay(&b, text.s, 25000000, &st), DMK_OK);
    DMK_CHECK_INT(st.writes, 100);
    /* 12 bursts of 8 and one of 4, each 100 us busy */
    DMK_CHECK_INT(st.busy_ns, 13 * 100000);
    DMK_CHECK_NEAR(st.qd, 100.0 / 13.0, 1e-9);
    DMK_CHECK_NEAR(st.mb_s, 100.0 * 4096 / 1e6 / 1.3e-3, 1e-6);
    printf("# bursts of 8: achieved QD %.2f (12 of 8 and one of 4: 100/13 = 7.69)\n", st.qd);
    free(text.s);
    bench_close(&b);
}

/* A stop ends the replay with DMK_E_STOPPED and what was done. */
static void test_stop(void)
{
    Bench b;
    bench_open(&b, 100000);
    DmkTrace t;
    DmkError err = {0};
    DMK_CHECK_INT(parse("fio version 2 iolog\nf read 0 4096\nf read 0 4096\n", &t, &err), DMK_OK);
    _Atomic int stop = 1;
    DmkReplayParams p = {.be = dmk_backend_null(),
                         .q = b.q,
                         .region_size = b.info.test_size,
                         .align = 512,
                         .mem_align = 512,
                         .qd = 4,
                         .idle_max_ns = 1000000,
                         .stop = &stop};
    DmkReplayStats st;
    DMK_CHECK_INT(dmk_trace_replay(&t, &p, &st, &err), DMK_E_STOPPED);
    DMK_CHECK_INT(st.ios, 0);
    /* A request larger than the region is refused before anything runs. */
    p.stop = NULL;
    p.region_size = 2048;
    DMK_CHECK_INT(dmk_trace_replay(&t, &p, &st, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "does not fit the test region");
    dmk_trace_free(&t);
    bench_close(&b);
}

int main(void)
{
    dmk_clock_simulate();
    DMK_TEST(test_v2);
    DMK_TEST(test_v3);
    DMK_TEST(test_malformed);
    DMK_TEST(test_map);
    DMK_TEST(test_known_rate);
    DMK_TEST(test_idle_cut);
    DMK_TEST(test_concurrency);
    DMK_TEST(test_stop);
    return dmk_test_done();
}
