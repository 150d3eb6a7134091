/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-sweep: the reviews' queue-depth and block-size sweeps become specs
 * of the expected points, in the expected order, and run on the null
 * backend into a result that says which sweep it was. */
#include "dmk-test-spec.h"
#include "dmk-test.h"

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "dmk-sweep.h"
#include "null/dmk-null.h"

#define KIB 1024u
#define MIB (1024u * 1024u)

static void check_points(const DmkSweep *s, const uint32_t *expected, size_t n)
{
    DMK_CHECK_INT(s->n_points, n);
    for (size_t i = 0; i < n && i < s->n_points; i++)
        DMK_CHECK_INT(s->points[i], expected[i]);
}

static void test_defaults(void)
{
    DmkSweep s;
    dmk_sweep_init(&s, DMK_SWEEP_QD, DMK_PATTERN_RND);
    static const uint32_t qd_rnd[] = {1, 2, 4, 8, 16, 32};
    check_points(&s, qd_rnd, 6);
    DMK_CHECK_INT(s.block_size, 4 * KIB);
    DMK_CHECK_INT(s.threads, 1);
    DMK_CHECK_INT(s.mode, DMK_RUN_READ_WRITE);

    dmk_sweep_init(&s, DMK_SWEEP_QD, DMK_PATTERN_SEQ);
    static const uint32_t qd_seq[] = {1, 2, 4, 8, 16};
    check_points(&s, qd_seq, 5);
    DMK_CHECK_INT(s.block_size, 128 * KIB);

    dmk_sweep_init(&s, DMK_SWEEP_BS, DMK_PATTERN_RND);
    DMK_CHECK_INT(s.queue_depth, 4);
    DMK_CHECK_INT(s.n_points, 10); /* 512 B .. 256 KiB */
    DMK_CHECK_INT(s.points[0], 512);
    DMK_CHECK_INT(s.points[s.n_points - 1], 256 * KIB);

    dmk_sweep_init(&s, DMK_SWEEP_BS, DMK_PATTERN_SEQ);
    DMK_CHECK_INT(s.queue_depth, 4);
    DMK_CHECK_INT(s.n_points, 18); /* ATTO: 512 B .. 64 MiB */
    DMK_CHECK_INT(s.points[0], 512);
    DMK_CHECK_INT(s.points[s.n_points - 1], 64 * MIB);
    for (size_t i = 1; i < s.n_points; i++)
        DMK_CHECK_INT(s.points[i], 2 * s.points[i - 1]);
    DMK_CHECK_STR(dmk_sweep_name(DMK_SWEEP_QD), "qd");
    DMK_CHECK_STR(dmk_sweep_name(DMK_SWEEP_BS), "bs");
}

/* Reads first (every point), then writes: one test per point and direction. */
static void test_qd_spec(void)
{
    DmkRunSpec *spec = malloc(sizeof *spec);
    dmk_run_spec_init(spec);
    DmkSweep s;
    DmkError err = {0};
    dmk_sweep_init(&s, DMK_SWEEP_QD, DMK_PATTERN_RND);
    DMK_CHECK_INT(dmk_sweep_add(spec, &s, &err), DMK_OK);
    DMK_CHECK_STR(spec->sweep, "qd");
    DMK_CHECK_STR(spec->profile, "custom");
    DMK_CHECK_INT(spec->n_tests, 12);
    static const char *names[] = {"RND4K Q1T1", "RND4K Q2T1",  "RND4K Q4T1",
                                  "RND4K Q8T1", "RND4K Q16T1", "RND4K Q32T1"};
    for (size_t i = 0; i < 12 && i < spec->n_tests; i++) {
        const DmkTest *t = &spec->tests[i];
        DMK_CHECK_STR(t->name, names[i % 6]);
        DMK_CHECK_INT(t->mode, i < 6 ? DMK_MODE_READ : DMK_MODE_WRITE);
        DMK_CHECK_INT(t->n_jobs, 1);
        DMK_CHECK_INT(t->jobs[0].queue_depth, 1u << (i % 6));
        DMK_CHECK_INT(t->jobs[0].block_size, 4096);
        DMK_CHECK_INT(t->jobs[0].pattern, DMK_PATTERN_RND);
        DMK_CHECK_INT(t->jobs[0].read_share, i < 6 ? 100 : 0);
    }
    DMK_CHECK_INT(dmk_run_spec_validate(spec, 0, &err), DMK_OK);
    free(spec);
}

static void test_bs_spec(void)
{
    DmkRunSpec *spec = malloc(sizeof *spec);
    dmk_run_spec_init(spec);
    DmkSweep s;
    DmkError err = {0};
    dmk_sweep_init(&s, DMK_SWEEP_BS, DMK_PATTERN_SEQ);
    s.mode = DMK_RUN_WRITE;
    s.threads = 2;
    DMK_CHECK_INT(dmk_sweep_add(spec, &s, &err), DMK_OK);
    DMK_CHECK_STR(spec->sweep, "bs");
    DMK_CHECK_INT(spec->n_tests, 18);
    DMK_CHECK_STR(spec->tests[0].name, "SEQ512 Q4T2");
    DMK_CHECK_STR(spec->tests[3].name, "SEQ4K Q4T2");
    DMK_CHECK_STR(spec->tests[11].name, "SEQ1M Q4T2");
    DMK_CHECK_STR(spec->tests[17].name, "SEQ64M Q4T2");
    for (size_t i = 0; i < spec->n_tests; i++) {
        DMK_CHECK_INT(spec->tests[i].mode, DMK_MODE_WRITE);
        DMK_CHECK_INT(spec->tests[i].jobs[0].block_size, 512u << i);
        DMK_CHECK_INT(spec->tests[i].jobs[0].queue_depth, 4);
        DMK_CHECK_INT(spec->tests[i].jobs[0].threads, 2);
    }
    /* 64 MiB x QD4 x 2 threads of buffers: within the 1 GiB the engine allows */
    DMK_CHECK_INT(dmk_run_spec_validate(spec, 0, &err), DMK_OK);

    /* the user's points, in the user's order, reads only */
    dmk_run_spec_init(spec);
    dmk_sweep_init(&s, DMK_SWEEP_BS, DMK_PATTERN_RND);
    s.mode = DMK_RUN_READ;
    s.queue_depth = 32;
    s.n_points = 3;
    s.points[0] = 64 * KIB;
    s.points[1] = 512;
    s.points[2] = 1 * MIB;
    DMK_CHECK_INT(dmk_sweep_add(spec, &s, &err), DMK_OK);
    DMK_CHECK_INT(spec->n_tests, 3);
    DMK_CHECK_STR(spec->tests[0].name, "RND64K Q32T1");
    DMK_CHECK_STR(spec->tests[1].name, "RND512 Q32T1");
    DMK_CHECK_STR(spec->tests[2].name, "RND1M Q32T1");
    DMK_CHECK_INT(spec->tests[2].mode, DMK_MODE_READ);
    free(spec);
}

static void expect_invalid(const DmkSweep *s, const char *needle)
{
    DmkRunSpec *spec = malloc(sizeof *spec);
    dmk_run_spec_init(spec);
    DmkError err = {0};
    DMK_CHECK_INT(dmk_sweep_add(spec, s, &err), DMK_E_INVAL);
    DMK_CHECK_INT(spec->n_tests, 0);
    DMK_CHECK_STR(spec->sweep, "");
    if (!strstr(err.msg, needle))
        printf("# \"%s\" lacks \"%s\"\n", err.msg, needle);
    DMK_CHECK(strstr(err.msg, needle) != NULL);
    free(spec);
}

static void test_invalid(void)
{
    DmkSweep s;
    dmk_sweep_init(&s, DMK_SWEEP_QD, DMK_PATTERN_RND);
    s.points[2] = 0;
    expect_invalid(&s, "queue depth 0 is out of range for a sweep (1 to 256)");
    s.points[2] = 512;
    expect_invalid(&s, "queue depth 512 is out of range");
    s.points[2] = 2;
    expect_invalid(&s, "lists 2 twice");
    dmk_sweep_init(&s, DMK_SWEEP_QD, DMK_PATTERN_RND);
    s.block_size = 3 * KIB;
    expect_invalid(&s, "block size 3072 is out of range (a power of two, 512 B to 64 MiB)");
    dmk_sweep_init(&s, DMK_SWEEP_BS, DMK_PATTERN_RND);
    s.points[0] = 256;
    expect_invalid(&s, "block size 256");
    dmk_sweep_init(&s, DMK_SWEEP_BS, DMK_PATTERN_RND);
    s.queue_depth = 257;
    expect_invalid(&s, "queue depth 257");
    s.queue_depth = 4;
    s.mode = DMK_RUN_MIX;
    expect_invalid(&s, "not mixed");
    s.mode = DMK_RUN_READ;
    s.threads = 0;
    expect_invalid(&s, "thread count 0");
    s.threads = 1;
    s.n_points = 0;
    expect_invalid(&s, "1 to 32 points");
}

/* A sweep is an ordinary run: the null backend measures each point. On
 * the simulated clock (main) with a request latency, so each point's
 * 0.1 s holds the same I/Os however busy the machine is: on the wall clock
 * a worker not scheduled for the whole 0.1 s measured nothing. */
static void test_run(void)
{
    DmkRunSpec *spec = dmk_test_spec_new(".", 64ULL << 20, 0.1);
    dmk_null_opts(&spec->backend_opts)->latency_ns = 100000;
    DmkSweep s;
    DmkError err = {0};
    dmk_sweep_init(&s, DMK_SWEEP_QD, DMK_PATTERN_SEQ);
    s.n_points = 3; /* 1, 2, 4 */
    DMK_CHECK_INT(dmk_sweep_add(spec, &s, &err), DMK_OK);
    DmkRunner *runner = dmk_runner_new(spec, dmk_backend_null());
    DmkRunResult *res = NULL;
    DMK_CHECK_INT(dmk_runner_run(runner, NULL, &res, &err), DMK_OK);
    dmk_runner_free(runner);
    free(spec);
    DMK_CHECK(res != NULL);
    if (!res)
        return;
    DMK_CHECK_STR(res->sweep, "qd");
    DMK_CHECK(res->complete);
    DMK_CHECK_INT(res->n_tests, 6);
    for (size_t i = 0; i < res->n_tests; i++) {
        const DmkTestResult *t = &res->tests[i];
        DMK_CHECK_INT(t->test.jobs[0].queue_depth, 1u << (i % 3));
        DMK_CHECK_INT(t->test.jobs[0].block_size, 128 * KIB);
        DMK_CHECK_INT(t->test.mode, i < 3 ? DMK_MODE_READ : DMK_MODE_WRITE);
        DMK_CHECK(t->score.total.mb_s > 0);
    }
    dmk_run_result_free(res);
}

int main(void)
{
    dmk_clock_simulate();
    DMK_TEST(test_defaults);
    DMK_TEST(test_qd_spec);
    DMK_TEST(test_bs_spec);
    DMK_TEST(test_invalid);
    DMK_TEST(test_run);
    return dmk_test_done();
}
