/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The verify option: CRC32C against published values, the block header's
 * stamp and check (every kind of damage found at its exact byte), the
 * refusal on backends that keep no data, and whole runs on the native
 * backend with a real file in a temp dir under the build dir, corrupted
 * behind the engine's back between the write and the read-back. */
#define _GNU_SOURCE /* realpath */
#include "dmk-test.h"

#include <stdint.h>
#include <string.h>

#ifdef _WIN32
#include <direct.h>
#else
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "dmk-crc32c.h"
#include "dmk-json.h"
#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-report.h"
#include "dmk-runner.h"
#include "dmk-test-result.h"
#include "dmk-test-scratch.h"
#include "dmk-test-spec.h"
#include "dmk-verify.h"
#include "null/dmk-null.h"

#define MIB (1ULL << 20)

/* ---- CRC32C ---------------------------------------------------------------- */

static uint32_t both(const void *buf, size_t len)
{
    uint32_t a = dmk_crc32c(0, buf, len), b = dmk_crc32c_sw(0, buf, len);
    DMK_CHECK_INT(a, b);
    return a;
}

static void test_crc_check_value(void)
{
    DMK_CHECK_INT(both("123456789", 9), 0xE3069283u);
    DMK_CHECK_INT(both("", 0), 0);
    printf("# crc32c instruction: %s\n", dmk_crc32c_hw() ? "yes" : "no (tables)");
}

/* RFC 3720 (iSCSI), appendix B.4. */
static void test_crc_rfc3720(void)
{
    unsigned char b[48];
    memset(b, 0, 32);
    DMK_CHECK_INT(both(b, 32), 0x8A9136AAu);
    memset(b, 0xff, 32);
    DMK_CHECK_INT(both(b, 32), 0x62A8AB43u);
    for (int i = 0; i < 32; i++)
        b[i] = (unsigned char)i;
    DMK_CHECK_INT(both(b, 32), 0x46DD794Eu);
    for (int i = 0; i < 32; i++)
        b[i] = (unsigned char)(31 - i);
    DMK_CHECK_INT(both(b, 32), 0x113FDB5Cu);
    static const unsigned char pdu[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    DMK_CHECK_INT(both(pdu, 48), 0xD9963A56u);
}

/* Continuation, odd lengths and alignments, and combining agree with one pass. */
static void test_crc_combine(void)
{
    static unsigned char b[10000];
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < sizeof b; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (unsigned char)x;
    }
    size_t cuts[] = {0, 1, 7, 64, 513, 4096, 9999, 10000};
    uint32_t whole = both(b, sizeof b);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        size_t a = cuts[k], rest = sizeof b - a;
        uint32_t ca = dmk_crc32c(0, b, a), cb = dmk_crc32c(0, b + a, rest);
        DMK_CHECK_INT(dmk_crc32c(ca, b + a, rest), whole);
        DMK_CHECK_INT(dmk_crc32c_sw(ca, b + a, rest), whole);
        uint32_t shift = dmk_crc32c_shift(rest);
        DMK_CHECK_INT(dmk_crc32c_combine(ca, cb, shift), whole);
        DMK_CHECK_INT(dmk_crc32c_combine(ca, whole, shift), cb);
    }
    for (size_t off = 1; off < 9; off++) /* unaligned starts */
        DMK_CHECK_INT(dmk_crc32c(0, b + off, 1000), dmk_crc32c_sw(0, b + off, 1000));
}

/* ---- stamp and check ------------------------------------------------------- */

typedef struct {
    DmkPool pool;
    DmkVerifyPool vp;
    DmkVerifyMap map;
    unsigned char *blk;
} Bench;

#define BS    8192u
#define TEST  3u
#define BLOCK (5ULL * BS) /* the block's offset in the file */

static bool bench_init_kind(Bench *b, DmkDataKind kind)
{
    DmkError err = {0};
    memset(b, 0, sizeof *b);
    int rc = dmk_pool_init(&b->pool, kind, 2 * MIB, 64 * 1024, 4096, 42, &err);
    if (rc == DMK_OK)
        rc = dmk_verify_pool_init(&b->vp, &b->pool, 0x1234, &err);
    if (rc == DMK_OK)
        rc = dmk_verify_map_init(&b->map, 0, MIB, BS, TEST, 0, &err);
    b->blk = dmk_aligned_alloc(4096, BS);
    if (rc != DMK_OK || !b->blk)
        printf("# bench: %s\n", err.msg);
    return rc == DMK_OK && b->blk;
}

static bool bench_init(Bench *b)
{
    return bench_init_kind(b, DMK_DATA_RANDOM);
}

static void bench_free(Bench *b)
{
    dmk_verify_map_free(&b->map);
    dmk_verify_pool_free(&b->vp);
    dmk_pool_free(&b->pool);
    dmk_aligned_free(b->blk);
}

#define KEY 0x0123456789abcdefULL /* the write's first key counter */

/* A fresh stamped block from pool offset 3 pages in. */
static void stamp(Bench *b)
{
    dmk_verify_stamp(&b->vp, &b->map, b->blk, BLOCK, 3 * 4096, KEY);
}

static void expect_bad(Bench *b, uint64_t offset, uint32_t test, uint32_t at, DmkVerifyBad why)
{
    uint32_t got_at = 99999;
    DmkVerifyBad got_why = DMK_VERIFY_OK;
    DMK_CHECK(!dmk_verify_block(&b->vp, b->blk, offset, BS, test, &got_at, &got_why));
    DMK_CHECK_INT(got_at, at);
    DMK_CHECK_INT(got_why, why);
}

static void test_stamp_is_whole_block_crc(void)
{
    Bench b;
    if (!bench_init(&b)) {
        DMK_CHECK(false);
        return;
    }
    stamp(&b);
    DmkBlockHeader h;
    memcpy(&h, b.blk, sizeof h);
    DMK_CHECK(h.magic == DMK_VERIFY_MAGIC && h.run_id == 0x1234 && h.offset == BLOCK);
    DMK_CHECK_INT(h.len, BS);
    DMK_CHECK_INT(h.test, TEST);
    /* The O(1) CRC is the CRC of the block with its CRC field zero. */
    uint32_t crc = h.crc;
    memset(b.blk + offsetof(DmkBlockHeader, crc), 0, 4);
    DMK_CHECK_INT(dmk_crc32c(0, b.blk, BS), crc);
    memcpy(b.blk + offsetof(DmkBlockHeader, crc), &crc, 4);
    /* The payload is the write's data: the pool XOR the keys. */
    unsigned char *want = dmk_aligned_alloc(4096, BS);
    DMK_CHECK(want != NULL);
    if (want) {
        dmk_pool_fill(&b.pool, want, 3 * 4096, BS, KEY);
        DMK_CHECK(memcmp(b.blk + 64, want + 64, BS - 64) == 0);
        DMK_CHECK(memcmp(b.blk + 64, b.pool.data + 3 * 4096 + 64, 8) != 0);
        dmk_aligned_free(want);
    }
    DMK_CHECK(h.key == KEY);
    uint32_t at;
    DmkVerifyBad why;
    DMK_CHECK(dmk_verify_block(&b.vp, b.blk, BLOCK, BS, TEST, &at, &why));
    /* Each write gets the next sequence number. */
    stamp(&b);
    DmkBlockHeader h2;
    memcpy(&h2, b.blk, sizeof h2);
    DMK_CHECK_INT(h2.seq, h.seq + 1);
    bench_free(&b);
}

/* One flipped byte anywhere is reported at that byte, with random data
 * and with zeros (where any pool offset holds the same payload). */
static void test_every_byte_exact(void)
{
    uint32_t places[] = {0,  9,  16, 23, 24, 31, 32, 33, 36, 39,   40,   44,   48,
                         51, 55, 56, 59, 60, 63, 64, 67, 71, 1000, 4096, 4100, BS - 1};
    for (int kind = DMK_DATA_RANDOM; kind <= DMK_DATA_ZERO; kind++) {
        Bench b;
        if (!bench_init_kind(&b, (DmkDataKind)kind)) {
            DMK_CHECK(false);
            return;
        }
        for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
            stamp(&b);
            b.blk[places[k]] ^= 0x10;
            uint32_t at = 0;
            DmkVerifyBad why;
            DMK_CHECK(!dmk_verify_block(&b.vp, b.blk, BLOCK, BS, TEST, &at, &why));
            if (at != places[k])
                printf("# %s data: flipped byte %u, reported %u (%s)\n", dmk_data_name(kind),
                       places[k], at, dmk_verify_bad_name(why));
            DMK_CHECK_INT(at, places[k]);
            DMK_CHECK_INT(why, DMK_VERIFY_CORRUPT);
        }
        bench_free(&b);
    }
}

/* The CRC that the stamp derives from the pool's prefix CRCs and the
 * keys is the CRC of the block as written, for blocks of one key (512
 * bytes), one unit and many units, at pool offsets across the pool. */
static void test_stamp_crc_every_size(void)
{
    uint32_t sizes[] = {512, 2048, 4096, 65536, 1024 * 1024};
    DmkPool pool;
    DmkVerifyPool vp;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_pool_init(&pool, DMK_DATA_RANDOM, 4 * MIB, MIB, 4096, 7, &err), DMK_OK);
    DMK_CHECK_INT(dmk_verify_pool_init(&vp, &pool, 0x77, &err), DMK_OK);
    unsigned char *blk = dmk_aligned_alloc(4096, MIB);
    for (size_t k = 0; blk && k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t bs = sizes[k];
        DmkVerifyMap map;
        DMK_CHECK_INT(dmk_verify_map_init(&map, 0, 16 * MIB, bs, 1, 0, &err), DMK_OK);
        for (uint64_t off = 0; off + bs <= pool.size; off += 61 * 4096ULL) {
            uint64_t key = off * 31 + bs;
            dmk_verify_stamp(&vp, &map, blk, 5ULL * bs, off, key);
            DmkBlockHeader h;
            memcpy(&h, blk, sizeof h);
            uint32_t crc = h.crc;
            memset(blk + offsetof(DmkBlockHeader, crc), 0, 4);
            DMK_CHECK_INT(dmk_crc32c(0, blk, bs), crc);
            memcpy(blk + offsetof(DmkBlockHeader, crc), &crc, 4);
            uint32_t at;
            DmkVerifyBad why;
            DMK_CHECK(dmk_verify_block(&vp, blk, 5ULL * bs, bs, 1, &at, &why));
            /* A flip in the last byte is found there. */
            blk[bs - 1] ^= 0x40;
            DMK_CHECK(!dmk_verify_block(&vp, blk, 5ULL * bs, bs, 1, &at, &why));
            DMK_CHECK_INT(at, bs - 1);
        }
        dmk_verify_map_free(&map);
    }
    dmk_aligned_free(blk);
    dmk_verify_pool_free(&vp);
    dmk_pool_free(&pool);
}

/* Blocks that are whole but not the ones expected. */
static void test_lost_and_misdirected(void)
{
    Bench b;
    if (!bench_init(&b)) {
        DMK_CHECK(false);
        return;
    }
    stamp(&b);
    /* read at another offset: this block went to the wrong place */
    expect_bad(&b, BLOCK + BS, TEST, offsetof(DmkBlockHeader, offset) + 1, DMK_VERIFY_WRONG_OFFSET);
    /* a later test expected it: the later write was lost */
    expect_bad(&b, BLOCK, TEST + 1, offsetof(DmkBlockHeader, test), DMK_VERIFY_STALE);
    /* another run's block, or no header at all */
    b.vp.run_id = 0x9999;
    expect_bad(&b, BLOCK, TEST, 8, DMK_VERIFY_NO_HEADER);
    memset(b.blk, 0xab, BS);
    expect_bad(&b, BLOCK, TEST, 0, DMK_VERIFY_NO_HEADER);
    bench_free(&b);
}

/* ---- what the user reads ---------------------------------------------------- */

static char *json_of(const DmkRunResult *r)
{
    return dmk_scratch_write("test-verify.json", dmk_json_write, r, NULL);
}

/* The verdict in the text report and the JSON: absent without verify,
 * the counts when clean, the first bad block and byte when not. */
static void test_report_and_json(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    dmk_test_build_result(&r, &t, passes, samples, "plain");
    char *json = json_of(&r), *text = dmk_report_text(&r);
    DMK_CHECK(json && !strstr(json, "\"verify\""));
    DMK_CHECK(text && !strstr(text, "Verif"));
    free(json);
    free(text);
    t.verify = (DmkVerifyResult){.checked = true, .blocks = 256, .bytes = 16 * MIB, .seconds = 0.5};
    json = json_of(&r);
    text = dmk_report_text(&r);
    DMK_CHECK(json && strstr(json, ",\"verify\":{\"blocks\":256,\"bytes\":16777216,\"bad\":0,"
                                   "\"skipped\":0,\"seconds\":0.500}"));
    DMK_CHECK(text && strstr(text, "      Verified 256 blocks (16 MiB), 0 bad (read back in 0.5 s, "
                                   "not timed)\n"));
    DMK_CHECK(text && strstr(text, " Verify: Verified 256 blocks (16 MiB), 0 bad"));
    free(json);
    free(text);
    t.verify.bad = 3;
    t.verify.first_bad_block = 65536;
    t.verify.first_bad_byte = 65536 + 4000;
    t.verify.first_bad_why = DMK_VERIFY_STALE;
    json = json_of(&r);
    text = dmk_report_text(&r);
    DMK_CHECK(json && strstr(json, "\"bad\":3,\"skipped\":0,\"first_bad_block\":65536,"
                                   "\"first_bad_byte\":69536,\"first_bad_why\":\"stale\""));
    DMK_CHECK(text && strstr(text, "VERIFY FAILED: 3 bad of 256 blocks; first bad byte at offset "
                                   "69536 (block at 65536): an earlier test's block (a lost "
                                   "write)"));
    free(json);
    free(text);
}

/* ---- runs ------------------------------------------------------------------ */

static DmkRunSpec *verify_spec(const char *dir, const char *test)
{
    DmkRunSpec *s = dmk_test_spec_new(dir, 16 * MIB, 5);
    s->verify = true;
    dmk_test_spec_add(s, test, DMK_MODE_WRITE, 0);
    /* Ends by bytes: every block of the file is written exactly once. */
    s->tests[0].limit_bytes = s->size;
    return s;
}

static void test_null_backend_refused(void)
{
    DmkRunSpec *s = verify_spec(".", "SEQ1M Q1T1");
    DmkRunner *r = dmk_runner_new(s, dmk_backend_null());
    DmkRunResult *res = NULL;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_runner_run(r, NULL, &res, &err), DMK_E_NOTSUP);
    DMK_CHECK(strstr(err.msg, "the verify option needs a real target") != NULL);
    DMK_CHECK(strstr(err.msg, "null backend keeps no data") != NULL);
    DMK_CHECK(res && res->n_tests == 0 && !res->complete);
    dmk_run_result_free(res);
    dmk_runner_free(r);
    free(s);
}

typedef struct {
    char dir[1024];
    uint64_t flips[4];
    size_t n_flips;
    int called;
    bool ok;
} Corrupter;

#ifndef _WIN32
#define HAVE_CORRUPT 1
/* The runner's test file: an O_TMPFILE (or unlinked) file in dir, found
 * among this process's descriptors and opened anew, so the change goes
 * through a file description the engine knows nothing of. */
static int open_test_file(const char *dir)
{
    char real[PATH_MAX], link[PATH_MAX + 64], path[300];
    if (!realpath(dir, real))
        return -1;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int fd = -1;
    struct dirent *e;
    size_t n = strlen(real);
    while (fd < 0 && (e = readdir(d))) {
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, link, sizeof link - 1);
        if (len <= 0)
            continue;
        link[len] = '\0';
        if (strncmp(link, real, n) == 0 && link[n] == '/' && strstr(link, " (deleted)"))
            fd = open(path, O_RDWR);
    }
    closedir(d);
    return fd;
}

static void corrupt(const DmkTestResult *t, size_t index, void *user_data)
{
    (void)t;
    (void)index;
    Corrupter *c = user_data;
    c->called++;
    int fd = open_test_file(c->dir);
    c->ok = fd >= 0;
    for (size_t i = 0; c->ok && i < c->n_flips; i++) {
        unsigned char byte;
        c->ok = pread(fd, &byte, 1, (off_t)c->flips[i]) == 1;
        byte ^= 0x01;
        c->ok = c->ok && pwrite(fd, &byte, 1, (off_t)c->flips[i]) == 1;
    }
    c->ok = c->ok && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
}

static void make_dir(const char *path)
{
    mkdir(path, 0755);
}
#else
#define HAVE_CORRUPT 0
/* Windows: the test file is opened FILE_FLAG_DELETE_ON_CLOSE without
 * sharing; the hook only counts that it was called. */
static void corrupt(const DmkTestResult *t, size_t index, void *user_data)
{
    (void)t;
    (void)index;
    Corrupter *c = user_data;
    c->called++;
    c->ok = c->n_flips == 0;
}

static void make_dir(const char *path)
{
    _mkdir(path);
}
#endif

/* Runs `test` with verify on a 16 MiB file, flipping the given bytes
 * between the write and the read-back; the test's verify result. */
static DmkVerifyResult run_native(const char *test, const uint64_t *flips, size_t n, int *rc)
{
    Corrupter c = {.n_flips = n};
    DmkVerifyResult v = {0};
    snprintf(c.dir, sizeof c.dir, "%s/verify", dmk_test_tmpdir());
    make_dir(c.dir);
    if (n)
        memcpy(c.flips, flips, n * sizeof *flips);
    DmkRunSpec *s = verify_spec(c.dir, test);
    DmkRunner *r = dmk_runner_new(s, dmk_backend_native());
    DmkRunCallbacks cb = {.user_data = &c, .before_verify = corrupt};
    DmkRunResult *res = NULL;
    DmkError err = {0};
    *rc = dmk_runner_run(r, &cb, &res, &err);
    if (*rc != DMK_OK)
        printf("# %s: %s\n", test, err.msg);
    DMK_CHECK_INT(c.called, 1);
    DMK_CHECK(c.ok);
    if (res && res->n_tests == 1)
        v = res->tests[0].verify;
    dmk_run_result_free(res);
    dmk_runner_free(r);
    free(s);
    return v;
}

/* Every block written once (the test ends by bytes), read back whole. */
static void test_native_clean(void)
{
    int rc;
    DmkVerifyResult v = run_native("RND4K Q8T2", NULL, 0, &rc);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(v.checked);
    DMK_CHECK_INT(v.blocks, 16 * MIB / 4096);
    DMK_CHECK_INT(v.bytes, 16 * MIB);
    DMK_CHECK_INT(v.bad, 0);
    DMK_CHECK_INT(v.skipped, 0);
}

#define NEED_CORRUPT()                                                                        \
    do {                                                                                      \
        if (!HAVE_CORRUPT)                                                                    \
            DMK_SKIP("changing the test file behind the engine needs /proc/self/fd (Linux)"); \
    } while (0)

static void test_native_one_flip(void)
{
    NEED_CORRUPT();
    int rc;
    uint64_t at = 5 * MIB + 4096 * 7 + 1234; /* a payload byte */
    DmkVerifyResult v = run_native("SEQ64K Q4T1", &at, 1, &rc);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(v.blocks, 16 * MIB / 65536);
    DMK_CHECK_INT(v.bad, 1);
    DMK_CHECK_INT(v.first_bad_byte, at);
    DMK_CHECK_INT(v.first_bad_block, at / 65536 * 65536);
    DMK_CHECK_INT(v.first_bad_why, DMK_VERIFY_CORRUPT);
}

static void test_native_two_flips(void)
{
    NEED_CORRUPT();
    int rc;
    uint64_t at[2] = {12 * MIB + 100, 3 * MIB + 4096 + 17}; /* the second is first in the file */
    DmkVerifyResult v = run_native("RND4K Q32T2", at, 2, &rc);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(v.blocks, 16 * MIB / 4096);
    DMK_CHECK_INT(v.bad, 2);
    DMK_CHECK_INT(v.first_bad_byte, at[1]);
    DMK_CHECK_INT(v.first_bad_block, 3 * MIB + 4096);
}

static void test_native_header_offset(void)
{
    NEED_CORRUPT();
    int rc;
    uint64_t block = 9 * MIB, at = block + offsetof(DmkBlockHeader, offset) + 2;
    DmkVerifyResult v = run_native("SEQ1M Q2T1", &at, 1, &rc);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(v.blocks, 16);
    DMK_CHECK_INT(v.bad, 1);
    DMK_CHECK_INT(v.first_bad_byte, at);
    DMK_CHECK_INT(v.first_bad_block, block);
    DMK_CHECK_INT(v.first_bad_why, DMK_VERIFY_CORRUPT);
}

int main(void)
{
    DMK_TEST(test_crc_check_value);
    DMK_TEST(test_crc_rfc3720);
    DMK_TEST(test_crc_combine);
    DMK_TEST(test_stamp_is_whole_block_crc);
    DMK_TEST(test_every_byte_exact);
    DMK_TEST(test_stamp_crc_every_size);
    DMK_TEST(test_lost_and_misdirected);
    DMK_TEST(test_report_and_json);
    DMK_TEST(test_null_backend_refused);
    DMK_TEST(test_native_clean);
    DMK_TEST(test_native_one_flip);
    DMK_TEST(test_native_two_flips);
    DMK_TEST(test_native_header_offset);
    return dmk_test_done();
}
