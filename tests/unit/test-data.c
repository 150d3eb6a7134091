/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data that writes carry (core/dmk-pool.h), with known answers: a
 * backend that is the null one but keeps what each write gives it, so a
 * whole run's writes (the fill and the test) can be checked. Random data:
 * every 4 KiB block ever written is distinct, in a region 100 times the
 * pool (with a 64 MiB pool and no keys, 44 % of them were), and zstd with
 * long-range matching cannot shrink the written region, though it halves
 * the same data stored twice. Zeros stay zeros. */
#include "dmk-test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-runner.h"
#include "dmk-test-spec.h"
#include "null/dmk-null.h"

#define MIB    (1ULL << 20)
#define REGION (128 * MIB)
#define BLK    4096u

/* What the capturing backend saw: the region as the writes left it, and
 * a hash of every 4 KiB block of every write, in submit order. */
static struct {
    unsigned char *disk;
    uint64_t *hashes;
    size_t n_hashes, cap;
    uint64_t writes, bytes;
} cap;

static DmkBackend capture;

/* 64 bits of the block: FNV-1a over its words, then splitmix64's mix.
 * Two distinct blocks share it with odds of about 2^-64 a pair, so a
 * count of distinct hashes can only undercount distinct blocks. */
static uint64_t block_hash(const unsigned char *p)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < BLK; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
    }
    return dmk_pool_key(h);
}

static int capture_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    int k = dmk_backend_null()->submit(q, ios, n, err);
    for (int i = 0; i < k; i++) {
        const DmkIo *io = ios[i];
        if (io->op != DMK_OP_WRITE)
            continue;
        cap.writes++;
        cap.bytes += io->len;
        if (io->offset + io->len <= REGION)
            memcpy(cap.disk + io->offset, io->buf, io->len);
        for (uint32_t b = 0; b + BLK <= io->len && cap.n_hashes < cap.cap; b += BLK)
            cap.hashes[cap.n_hashes++] = block_hash((const unsigned char *)io->buf + b);
    }
    return k;
}

static bool capture_init(void)
{
    capture = *dmk_backend_null();
    capture.submit = capture_submit;
    cap.cap = 4 * REGION / BLK;
    cap.disk = calloc(1, REGION);
    cap.hashes = malloc(cap.cap * sizeof *cap.hashes);
    cap.n_hashes = cap.writes = cap.bytes = 0;
    return cap.disk && cap.hashes;
}

static void capture_free(void)
{
    free(cap.disk);
    free(cap.hashes);
    memset(&cap, 0, sizeof cap);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t distinct(uint64_t *h, size_t n)
{
    qsort(h, n, sizeof *h, cmp_u64);
    size_t d = n ? 1 : 0;
    for (size_t i = 1; i < n; i++)
        d += h[i] != h[i - 1];
    return d;
}

/* The region's blocks as the run left them: how many distinct. */
static size_t distinct_on_disk(void)
{
    size_t n = REGION / BLK;
    uint64_t *h = malloc(n * sizeof *h);
    if (!h)
        return 0;
    for (size_t i = 0; i < n; i++)
        h[i] = block_hash(cap.disk + i * BLK);
    size_t d = distinct(h, n);
    free(h);
    return d;
}

/* One run of `test` (writes) on the capturing backend over the region:
 * the fill, then the test until it has written the region once more. */
static int run_writes(const char *test, DmkDataKind data)
{
    DmkRunSpec *s = dmk_test_spec_new(".", REGION, 30);
    s->data = data;
    dmk_test_spec_add(s, test, DMK_MODE_WRITE, 0);
    s->tests[0].limit_bytes = REGION;
    DmkRunner *r = dmk_runner_new(s, &capture);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    int rc = dmk_runner_run(r, NULL, &res, &err);
    if (rc != DMK_OK)
        printf("# %s: %s\n", test, err.msg);
    dmk_run_result_free(res);
    dmk_runner_free(r);
    free(s);
    return rc;
}

/* whole: the test's writes are 4 KiB or more, so each of their 4 KiB
 * blocks is hashed as it goes out, as the fill's are. */
static void check_unique(const char *test, bool whole)
{
    if (!capture_init()) {
        capture_free();
        DMK_CHECK(false);
        return;
    }
    DMK_CHECK_INT(run_writes(test, DMK_DATA_RANDOM), DMK_OK);
    /* the fill and the test: the region twice over (about, in small
     * blocks over two threads: each ends with its share of whole blocks) */
    DMK_CHECK(cap.bytes > REGION + REGION / 2 && cap.bytes <= 2 * REGION);
    if (whole)
        DMK_CHECK_INT(cap.n_hashes, 2 * REGION / BLK);
    size_t ever = distinct(cap.hashes, cap.n_hashes), now = distinct_on_disk();
    printf("# %s: %zu of %zu blocks written distinct; %zu of %llu in the region\n", test, ever,
           cap.n_hashes, now, (unsigned long long)(REGION / BLK));
    DMK_CHECK_INT(ever, cap.n_hashes);
    DMK_CHECK_INT(now, REGION / BLK);
    capture_free();
}

static void test_rnd4k_unique(void)
{
    check_unique("RND4K Q32T1", true);
}

static void test_seq1m_unique(void)
{
    check_unique("SEQ1M Q8T1", true);
}

/* Two threads, each with its own keys, and 512-byte writes (one key per
 * write, eight writes a 4 KiB block). */
static void test_threads_and_small_blocks_unique(void)
{
    check_unique("RND512 Q4T2", false);
}

/* Zeros are written as zeros, straight from the pool. */
static void test_zero_stays_zero(void)
{
    if (!capture_init()) {
        capture_free();
        DMK_CHECK(false);
        return;
    }
    memset(cap.disk, 0xa5, REGION);
    DMK_CHECK_INT(run_writes("SEQ1M Q8T1", DMK_DATA_ZERO), DMK_OK);
    DMK_CHECK_INT(cap.bytes, 2 * REGION);
    size_t nonzero = 0;
    for (size_t i = 0; i < REGION; i++)
        nonzero += cap.disk[i] != 0;
    DMK_CHECK_INT(nonzero, 0);
    capture_free();
}

/* ---- compressibility --------------------------------------------------------- */

#ifndef _WIN32
/* The size zstd with long-range matching (a window over the whole file)
 * makes of path; 0 when it failed. Level 3: its long mode finds repeats
 * anywhere in the window as -19 does, at a speed a unit test can wait for. */
static uint64_t zstd_size(const char *path)
{
    char cmd[2200], out[1100];
    snprintf(out, sizeof out, "%s.zst", path);
    snprintf(cmd, sizeof cmd, "zstd -q -f -3 --long=28 -T1 -o '%s' '%s'", out, path);
    struct stat st;
    int ok = system(cmd) == 0 && stat(out, &st) == 0;
    remove(out);
    return ok ? (uint64_t)st.st_size : 0;
}

static bool write_file(const char *path, const void *a, size_t na, const void *b, size_t nb)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(a, 1, na, f) == na && (!nb || fwrite(b, 1, nb, f) == nb);
    return f && fclose(f) == 0 && ok;
}

static void test_incompressible(void)
{
    if (system("zstd --version > /dev/null 2>&1") != 0)
        DMK_SKIP("zstd is not installed (setup.sh installs it)");
    if (!capture_init()) {
        capture_free();
        DMK_CHECK(false);
        return;
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/test-data.img", dmk_test_tmpdir());
    DMK_CHECK_INT(run_writes("RND4K Q32T1", DMK_DATA_RANDOM), DMK_OK);
    DMK_CHECK(write_file(path, cap.disk, REGION, NULL, 0));
    uint64_t z = zstd_size(path);
    printf("# the written 128 MiB: zstd --long makes %llu bytes (ratio %.4f)\n",
           (unsigned long long)z, z ? (double)REGION / (double)z : 0.0);
    DMK_CHECK(z > 0 && (double)REGION / (double)z <= 1.01);
    /* The control: the region's first 32 MiB stored twice, which zstd
     * must find (else the check above proves nothing). */
    DMK_CHECK(write_file(path, cap.disk, 32 * MIB, cap.disk, 32 * MIB));
    z = zstd_size(path);
    printf("# 32 MiB stored twice: %llu bytes (ratio %.3f)\n", (unsigned long long)z,
           z ? (double)(64 * MIB) / (double)z : 0.0);
    DMK_CHECK(z > 0 && (double)(64 * MIB) / (double)z >= 1.9);
    remove(path);
    capture_free();
}
#endif

int main(void)
{
    DMK_TEST(test_rnd4k_unique);
    DMK_TEST(test_seq1m_unique);
    DMK_TEST(test_threads_and_small_blocks_unique);
    DMK_TEST(test_zero_stays_zero);
#ifndef _WIN32
    DMK_TEST(test_incompressible);
#endif
    return dmk_test_done();
}
