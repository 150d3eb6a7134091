/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The surface scan (dmk-surface.h): where its samples go, what it builds,
 * a run of it on the null backend and its result through a CSV file. */
#include "dmk-lab.h"
#include "null/dmk-null.h"
#include "dmk-request.h"
#include "dmk-surface.h"
#include "dmk-test-spec.h"
#include "dmk-test.h"
#ifdef DMK_TEST_CSV
#include "dmk-csv-read.h"
#include "dmk-csv.h"
#include "dmk-test-scratch.h"
#endif

#define MIB (1ULL << 20)

/* Every sample aligned, in order, evenly spaced (the gaps differ by at
 * most one alignment unit), the first at 0, the last ending at or before
 * the end and within one unit of it. */
static void check_spread(uint64_t size, uint64_t sample, uint64_t align, uint32_t n)
{
    uint64_t len = dmk_surface_sample_len(size, sample, align);
    uint64_t prev = 0, gap_lo = UINT64_MAX, gap_hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = dmk_surface_offset(size, sample, align, i, n);
        DMK_CHECK_INT(at % align, 0);
        DMK_CHECK(at + len <= size);
        if (i == 0)
            DMK_CHECK_INT(at, 0);
        if (i > 0) {
            DMK_CHECK(at >= prev);
            uint64_t gap = at - prev;
            gap_lo = gap < gap_lo ? gap : gap_lo;
            gap_hi = gap > gap_hi ? gap : gap_hi;
        }
        if (i + 1 == n && n > 1)
            DMK_CHECK(size - (at + len) < 2 * align);
        prev = at;
    }
    if (n > 2)
        DMK_CHECK(gap_hi - gap_lo <= align);
}

static void test_positions(void)
{
    check_spread(256 * MIB, 10 * MIB, 4096, 100); /* the defaults on a small disk */
    check_spread(256 * MIB, 10 * MIB, 512, 20);
    check_spread(1000000007ULL, 10 * MIB, 4096, 100); /* no multiple of sample or alignment */
    check_spread(3ULL << 40, 64 * MIB, 4096, 200);    /* a 3 TiB disk */
    check_spread(1ULL << 50, 10 * MIB, 4096, 200);    /* the largest a lab run takes */
    check_spread(20 * MIB, 10 * MIB, 4096, 100);      /* more samples than room: they overlap */
    /* Exactly: 0, 100, 200 MiB of a 210 MiB disk with 10 MiB samples. */
    DMK_CHECK_INT(dmk_surface_offset(210 * MIB, 10 * MIB, 4096, 1, 3), 100 * MIB);
    DMK_CHECK_INT(dmk_surface_offset(210 * MIB, 10 * MIB, 4096, 2, 3), 200 * MIB);
    /* A sample larger than the device is cut to it, at 0. */
    DMK_CHECK_INT(dmk_surface_sample_len(5 * MIB + 100, 10 * MIB, 4096), 5 * MIB);
    DMK_CHECK_INT(dmk_surface_offset(5 * MIB + 100, 10 * MIB, 4096, 7, 10), 0);
    check_spread(5 * MIB + 100, 10 * MIB, 4096, 10);
}

static void test_build(void)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_SURFACE);
    DMK_CHECK_INT(p.samples, 100);
    DMK_CHECK_INT(p.sample_size, 10 * MIB);
    DMK_CHECK_INT(p.accesses, 1000);
    DMK_CHECK_STR(dmk_lab_name(DMK_LAB_SURFACE), "surface");
    DmkRunSpec *spec = dmk_test_spec_new("/tmp", 0, 1);
    DmkError err = {0};
    /* A folder: refused, saying why and what to name instead. */
    DMK_CHECK_INT(dmk_lab_build(&p, spec, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "'/tmp' is a folder");
    DMK_CHECK_HAS(err.msg, "block device");
    spec->device = true;
    snprintf(spec->dir, sizeof spec->dir, "/dev/sdz");
    DMK_CHECK_INT(dmk_lab_build(&p, spec, &err), DMK_OK);
    DMK_CHECK_INT(spec->n_tests, 101);
    DMK_CHECK(!dmk_run_spec_writes(spec)); /* read-only by construction */
    for (size_t i = 0; i < 100; i++) {
        const DmkTest *t = &spec->tests[i];
        DMK_CHECK_STR(t->label, "sample");
        DMK_CHECK_INT(t->mode, DMK_MODE_READ);
        DMK_CHECK_INT(t->jobs[0].block_size, 10 * MIB);
        DMK_CHECK_INT(t->limit_bytes, 10 * MIB);
        DMK_CHECK_INT(t->spread_index, i);
        DMK_CHECK_INT(t->spread_count, 100);
    }
    DMK_CHECK_STR(spec->tests[100].label, "access");
    DMK_CHECK_STR(spec->tests[100].name, "RND4K Q1T1");
    DMK_CHECK_INT(spec->tests[100].keep_ios, 1000);
    /* Out of range: the table's bounds. */
    p.samples = DMK_SURFACE_SAMPLES_MAX + 1;
    DMK_CHECK_INT(dmk_lab_build(&p, spec, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "samples");
    p.samples = 10;
    p.sample_size = 3 * MIB + 512;
    DMK_CHECK_INT(dmk_lab_build(&p, spec, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "sample size");
    free(spec);
}

/* A run on the null backend's simulated 64 GiB device. */
static DmkRunResult *run_null(uint32_t samples, uint32_t accesses)
{
    DmkRunRequest req;
    dmk_run_request_init(&req, DMK_REQUEST_LAB, DMK_LAB_SURFACE);
    snprintf(req.target, sizeof req.target, "/dev/null-surface");
    req.device = true;
    req.lab.samples = samples;
    req.lab.accesses = accesses;
    DmkRunSpec *spec = malloc(sizeof *spec);
    DmkError err = {0};
    int rc = dmk_run_request_build(&req, spec, &err);
    if (rc != DMK_OK)
        printf("# building: %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    dmk_null_opts(&spec->backend_opts)->latency_ns = 100000;
    DmkRunResult *res = NULL;
    DmkRunner *runner = dmk_runner_new(spec, dmk_backend_null());
    rc = dmk_runner_run(runner, NULL, &res, &err);
    if (rc != DMK_OK)
        printf("# running: %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    dmk_runner_free(runner);
    free(spec);
    return res;
}

static void check_surface(const DmkSurface *s, uint32_t samples, uint32_t accesses)
{
    DMK_CHECK_INT(s->n_samples, samples);
    DMK_CHECK_INT(s->n_accesses, accesses);
    DMK_CHECK(s->capacity > (60ULL << 30) &&
              s->capacity <= (64ULL << 30)); /* null: 64 GiB, a margin */
    DMK_CHECK_INT((uint64_t)s->sample_bytes, 10 * MIB);
    DMK_CHECK(s->n_samples && s->samples[0].offset == 0);
    DMK_CHECK(s->n_samples && s->samples[s->n_samples - 1].offset + s->sample_bytes <= s->capacity);
    printf("# rate %g (%g to %g) MB/s, access %g ms\n", s->rate_avg, s->rate_min, s->rate_max,
           s->access_avg_ms);
    DMK_CHECK(s->rate_avg > 0);
    DMK_CHECK(s->rate_min <= s->rate_avg * (1 + 1e-9) && s->rate_avg <= s->rate_max * (1 + 1e-9));
    /* The null backend's 100 us per request, and nothing faster. */
    DMK_CHECK(s->access_min_ms >= 0.1 && s->access_avg_ms < 10);
    bool spread = false;
    for (size_t i = 0; i < s->n_accesses; i++) {
        DMK_CHECK((uint64_t)s->accesses[i].offset % 4096 == 0);
        DMK_CHECK(s->accesses[i].offset + 4096 <= s->capacity);
        spread |= s->accesses[i].offset > s->capacity / 2;
    }
    DMK_CHECK(spread); /* random places all over it, not its start */
}

static void test_run(void)
{
    DmkRunResult *res = run_null(12, 300);
    if (!res)
        return;
    DMK_CHECK_STR(res->lab, "surface");
    DMK_CHECK(res->complete);
    DmkSurface s;
    DMK_CHECK_INT(dmk_surface_of(res, &s), DMK_OK);
    check_surface(&s, 12, 300);
    char report[2048];
    dmk_lab_report(res, report, sizeof report);
    DMK_CHECK_HAS(report, "MB/s on average");
    DMK_CHECK_HAS(report, "over 12 samples of 10 MiB");
    DMK_CHECK_HAS(report, "over 300 random reads");
#ifdef DMK_TEST_CSV
    /* Saved and read back, the scan is the same: places, rates, times. */
    size_t len = 0;
    char *csv = dmk_scratch_write("surface.csv", dmk_csv_write, res, &len);
    DmkRunResult *back = NULL;
    DmkError err = {0};
    int rc = csv ? dmk_csv_load_mem("surface.csv", csv, len, &back, &err) : DMK_E_IO;
    if (rc != DMK_OK)
        printf("# reading back: %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DmkSurface b;
    if (back && dmk_surface_of(back, &b) == DMK_OK) {
        check_surface(&b, 12, 300);
        for (size_t i = 0; i < b.n_samples && i < s.n_samples; i++) {
            DMK_CHECK(b.samples[i].offset == s.samples[i].offset);
            DMK_CHECK_NEAR(b.samples[i].value, s.samples[i].value, 0.001);
        }
        for (size_t i = 0; i < b.n_accesses && i < s.n_accesses; i++) {
            DMK_CHECK(b.accesses[i].offset == s.accesses[i].offset);
            DMK_CHECK_NEAR(b.accesses[i].value, s.accesses[i].value, 0.001);
        }
        /* And saved again, the same bytes. */
        size_t len2 = 0;
        char *again = dmk_scratch_write("surface2.csv", dmk_csv_write, back, &len2);
        DMK_CHECK(again && len2 == len && memcmp(again, csv, len) == 0);
        free(again);
        dmk_surface_free(&b);
    }
    dmk_run_result_free(back);
    free(csv);
#endif
    dmk_surface_free(&s);
    dmk_run_result_free(res);
}

int main(void)
{
    dmk_clock_simulate();
    DMK_TEST(test_positions);
    DMK_TEST(test_build);
    DMK_TEST(test_run);
    return dmk_test_done();
}
