/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-spec: test names, run specs and their validation. */
#include "dmk-test.h"

#include "dmk-spec.h"
#include "null/dmk-null.h"

static void check_name(const char *name, DmkPattern pattern, uint32_t bs, uint32_t qd,
                       uint32_t threads)
{
    DmkJob j;
    memset(&j, 0xab, sizeof j);
    DmkError err = {0};
    int rc = dmk_job_parse_name(name, &j, &err);
    if (rc != DMK_OK)
        printf("# dmk_job_parse_name(\"%s\") failed: %s\n", name, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(j.pattern, pattern);
    DMK_CHECK_INT(j.block_size, bs);
    DMK_CHECK_INT(j.queue_depth, qd);
    DMK_CHECK_INT(j.threads, threads);
    DMK_CHECK_INT(j.read_share, 100);
}

static void check_name_bad(const char *name)
{
    DmkJob j;
    memset(&j, 0xab, sizeof j);
    DmkError err = {0};
    int rc = dmk_job_parse_name(name, &j, &err);
    if (rc == DMK_OK)
        printf("# dmk_job_parse_name accepted \"%s\"\n", name);
    DMK_CHECK_INT(rc, DMK_E_INVAL);
    DMK_CHECK_INT(err.code, DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, name) != NULL); /* the message quotes the name */
    DMK_CHECK_INT(j.block_size, 0xabababab);  /* untouched */
}

static void test_parse_name(void)
{
    check_name("SEQ1M Q8T1", DMK_PATTERN_SEQ, 1u << 20, 8, 1);
    check_name("SEQ1M Q1T1", DMK_PATTERN_SEQ, 1u << 20, 1, 1);
    check_name("RND4K Q32T1", DMK_PATTERN_RND, 4096, 32, 1);
    check_name("SEQ128K Q32T1", DMK_PATTERN_SEQ, 131072, 32, 1);
    check_name("RND4K Q32T16", DMK_PATTERN_RND, 4096, 32, 16);
    check_name("rnd4k q1t1", DMK_PATTERN_RND, 4096, 1, 1);
    check_name("SEQ1MiB Q8T1", DMK_PATTERN_SEQ, 1u << 20, 8, 1);
    check_name("RND4KiB Q1T1", DMK_PATTERN_RND, 4096, 1, 1);
    check_name("SEQ512 Q1T1", DMK_PATTERN_SEQ, 512, 1, 1);
    check_name("SEQ64M Q1T1", DMK_PATTERN_SEQ, 64u << 20, 1, 1);
    check_name("RND4K Q1024T64", DMK_PATTERN_RND, 4096, 1024, 64);
}

static void test_parse_name_invalid(void)
{
    check_name_bad("XYZ1M Q1T1");
    check_name_bad("SEQ3K Q1T1");   /* not a power of two */
    check_name_bad("SEQ256 Q1T1");  /* below 512 */
    check_name_bad("SEQ128M Q1T1"); /* above 64M */
    check_name_bad("SEQ1G Q1T1");
    check_name_bad("RND4K Q0T1");
    check_name_bad("RND4K Q1025T1");
    check_name_bad("RND4K Q1T0");
    check_name_bad("RND4K Q1T65");
    check_name_bad("RND4K Q1");
    check_name_bad("RND4K Q1T1x");
    check_name_bad("RND4K Q1T1 ");
    check_name_bad("RNDK Q1T1");
    check_name_bad("RND4K T1Q1");
    check_name_bad("RND4KB Q1T1");
    check_name_bad("RND");
    check_name_bad("");
}

static void test_format_name(void)
{
    static const char *names[] = {"SEQ1M Q8T1",  "SEQ1M Q1T1",    "RND4K Q32T1",
                                  "RND4K Q1T1",  "SEQ128K Q32T1", "RND4K Q32T16",
                                  "SEQ512 Q1T1", "SEQ64M Q1T1",   "RND8K Q1024T64"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        DmkJob j;
        char buf[48];
        DMK_CHECK_INT(dmk_job_parse_name(names[i], &j, NULL), DMK_OK);
        DMK_CHECK_STR(dmk_job_format_name(&j, buf, sizeof buf), names[i]);
    }
    /* non-canonical spellings come back canonical */
    DmkJob j;
    char buf[48];
    DMK_CHECK_INT(dmk_job_parse_name("rnd4k q1t1", &j, NULL), DMK_OK);
    DMK_CHECK_STR(dmk_job_format_name(&j, buf, sizeof buf), "RND4K Q1T1");
    DMK_CHECK_INT(dmk_job_parse_name("SEQ1MiB Q8T1", &j, NULL), DMK_OK);
    DMK_CHECK_STR(dmk_job_format_name(&j, buf, sizeof buf), "SEQ1M Q8T1");
    DMK_CHECK_INT(dmk_job_parse_name("SEQ1024K Q8T1", &j, NULL), DMK_OK);
    DMK_CHECK_STR(dmk_job_format_name(&j, buf, sizeof buf), "SEQ1M Q8T1");
}

static void test_spec_init(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    memset(s, 0x5a, sizeof *s);
    dmk_run_spec_init(s);
    DMK_CHECK(s->size == 1ULL << 30);
    DMK_CHECK_INT(s->passes, 5);
    DMK_CHECK(s->measure_s == 5.0);
    DMK_CHECK(s->warmup_s == 5.0);
    DMK_CHECK(s->interval_s == 5.0);
    DMK_CHECK(s->timeline_s == 0.0);
    DMK_CHECK(s->watchdog_s > 0.0);
    DMK_CHECK_INT(s->data, DMK_DATA_RANDOM);
    DMK_CHECK_INT(s->n_tests, 0);
    DMK_CHECK(dmk_null_opts_get(&s->backend_opts)->latency_ns == 0);
    DMK_CHECK_STR(s->profile, "default");
    DMK_CHECK_STR(s->dir, ".");
    free(s);
}

static void test_names(void)
{
    DMK_CHECK_STR(dmk_mode_name(DMK_MODE_READ), "read");
    DMK_CHECK_STR(dmk_mode_name(DMK_MODE_WRITE), "write");
    DMK_CHECK_STR(dmk_mode_name(DMK_MODE_MIX), "mix");
    DMK_CHECK_STR(dmk_pattern_name(DMK_PATTERN_SEQ), "seq");
    DMK_CHECK_STR(dmk_pattern_name(DMK_PATTERN_RND), "rnd");
}

static DmkJob job(const char *name)
{
    DmkJob j = {0};
    DmkError err = {0};
    if (dmk_job_parse_name(name, &j, &err) != DMK_OK)
        printf("# %s\n", err.msg);
    return j;
}

static void test_add_all(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    DmkJob jobs[3] = {job("SEQ1M Q8T1"), job("RND4K Q32T16"), job("SEQ128K Q32T1")};
    DmkError err = {0};

    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_run_spec_add_all(s, jobs, 3, DMK_RUN_READ_WRITE, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 6);
    static const char *rw_names[] = {"SEQ1M Q8T1",   "SEQ1M Q8T1",    "RND4K Q32T16",
                                     "RND4K Q32T16", "SEQ128K Q32T1", "SEQ128K Q32T1"};
    for (size_t i = 0; i < 6 && i < s->n_tests; i++) {
        const DmkTest *t = &s->tests[i];
        DMK_CHECK_STR(t->name, rw_names[i]);
        DMK_CHECK_INT(t->mode, i % 2 ? DMK_MODE_WRITE : DMK_MODE_READ);
        DMK_CHECK_INT(t->n_jobs, 1);
        DMK_CHECK_INT(t->jobs[0].read_share, i % 2 ? 0 : 100);
        DMK_CHECK_INT(t->jobs[0].block_size, jobs[i / 2].block_size);
        DMK_CHECK_INT(t->jobs[0].queue_depth, jobs[i / 2].queue_depth);
        DMK_CHECK_INT(t->jobs[0].threads, jobs[i / 2].threads);
        DMK_CHECK_INT(t->jobs[0].pattern, jobs[i / 2].pattern);
    }
    DMK_CHECK_INT(dmk_test_threads(&s->tests[2]), 16);
    DMK_CHECK_INT(dmk_test_inflight(&s->tests[2]), 512);

    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_run_spec_add_all(s, jobs, 3, DMK_RUN_READ, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 3);
    for (size_t i = 0; i < s->n_tests; i++) {
        DMK_CHECK_INT(s->tests[i].mode, DMK_MODE_READ);
        DMK_CHECK_INT(s->tests[i].jobs[0].read_share, 100);
    }
    DMK_CHECK_STR(s->tests[1].name, "RND4K Q32T16");

    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_run_spec_add_all(s, jobs, 3, DMK_RUN_WRITE, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 3);
    for (size_t i = 0; i < s->n_tests; i++) {
        DMK_CHECK_INT(s->tests[i].mode, DMK_MODE_WRITE);
        DMK_CHECK_INT(s->tests[i].jobs[0].read_share, 0);
    }

    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_run_spec_add_all(s, jobs, 3, DMK_RUN_MIX, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 3);
    for (size_t i = 0; i < s->n_tests; i++) {
        DMK_CHECK_INT(s->tests[i].mode, DMK_MODE_MIX);
        DMK_CHECK_INT(s->tests[i].jobs[0].read_share, 70);
    }
    DMK_CHECK_STR(s->tests[0].name, "SEQ1M Q8T1");
    DMK_CHECK_STR(s->tests[2].name, "SEQ128K Q32T1");

    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_run_spec_add_all(s, jobs, 1, DMK_RUN_MIX, 25, &err), DMK_OK);
    DMK_CHECK_INT(s->tests[0].jobs[0].read_share, 25);
    free(s);
}

static void test_add_limit(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    dmk_run_spec_init(s);
    DmkJob j = job("RND4K Q1T1");
    DmkError err = {0};
    for (int i = 0; i < DMK_MAX_TESTS; i++)
        DMK_CHECK_INT(dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, DMK_MAX_TESTS);
    DMK_CHECK_INT(dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err), DMK_E_INVAL);
    DMK_CHECK_INT(s->n_tests, DMK_MAX_TESTS);
    /* read-write needs room for both */
    dmk_run_spec_init(s);
    for (int i = 0; i < DMK_MAX_TESTS - 1; i++)
        dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    DMK_CHECK_INT(dmk_run_spec_add_all(s, &j, 1, DMK_RUN_READ_WRITE, 70, &err), DMK_E_INVAL);
    free(s);
}

static DmkRunSpec *default_spec(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    dmk_run_spec_init(s);
    DmkJob jobs[4] = {job("SEQ1M Q8T1"), job("SEQ1M Q1T1"), job("RND4K Q32T1"), job("RND4K Q1T1")};
    dmk_run_spec_add_all(s, jobs, 4, DMK_RUN_READ_WRITE, 70, NULL);
    return s;
}

static void check_invalid(const DmkRunSpec *s, uint64_t max_inflight, int code, const char *needle)
{
    DmkError err = {0};
    int rc = dmk_run_spec_validate(s, max_inflight, &err);
    DMK_CHECK_INT(rc, code);
    DMK_CHECK_INT(err.code, code);
    if (needle && !strstr(err.msg, needle)) {
        printf("# message \"%s\" lacks \"%s\"\n", err.msg, needle);
        DMK_CHECK(0);
    }
}

static void test_validate(void)
{
    DmkRunSpec *s = default_spec();
    DmkError err = {0};
    DMK_CHECK_INT(s->n_tests, 8);
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_spec_validate(s, 65536, &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_spec_validate(s, 32, &err), DMK_OK); /* Q32T1 fits exactly */

    s->size = 16ULL << 20; /* the smallest allowed */
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);
    s->size = 64ULL << 30; /* the largest allowed */
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);

    s->size = (16ULL << 20) - (1ULL << 20);
    check_invalid(s, 0, DMK_E_INVAL, "test size");
    s->size = (64ULL << 30) + (1ULL << 20);
    check_invalid(s, 0, DMK_E_INVAL, "test size");
    s->size = (32ULL << 20) + 4096;
    check_invalid(s, 0, DMK_E_INVAL, "MiB");
    s->size = 1ULL << 30;

    s->passes = 0;
    check_invalid(s, 0, DMK_E_INVAL, "passes");
    s->passes = 101;
    check_invalid(s, 0, DMK_E_INVAL, "passes");
    s->passes = 100;
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);
    s->passes = 5;

    s->measure_s = 0;
    check_invalid(s, 0, DMK_E_INVAL, "measure");
    s->measure_s = 0.05;
    check_invalid(s, 0, DMK_E_INVAL, "measure");
    s->measure_s = NAN;
    check_invalid(s, 0, DMK_E_INVAL, "measure");
    s->measure_s = 5;
    s->warmup_s = -1;
    check_invalid(s, 0, DMK_E_INVAL, "warm-up");
    s->warmup_s = 0; /* no warm-up is fine */
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);
    s->interval_s = -0.5;
    check_invalid(s, 0, DMK_E_INVAL, "interval");
    s->interval_s = 0;
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);
    s->timeline_s = 0.001;
    check_invalid(s, 0, DMK_E_INVAL, "timeline");
    s->timeline_s = 0.05;
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);

    s->n_tests = 0;
    check_invalid(s, 0, DMK_E_INVAL, "no test");
    free(s);
}

static void test_validate_tests(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    DmkError err = {0};
    DmkJob j;

    /* 64 MiB blocks on 4 threads need 4 x 64 MiB: 128 MiB is too small */
    dmk_run_spec_init(s);
    s->size = 128ULL << 20;
    j = job("SEQ64M Q1T4");
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    check_invalid(s, 0, DMK_E_INVAL, "SEQ64M Q1T4");
    check_invalid(s, 0, DMK_E_INVAL, "--size");
    s->size = 256ULL << 20; /* exactly one block per thread */
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);

    /* in-flight I/Os over the system's limit */
    dmk_run_spec_init(s);
    j = job("RND4K Q32T16");
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    check_invalid(s, 100, DMK_E_LIMIT, "aio-max-nr");
    check_invalid(s, 100, DMK_E_LIMIT, "512");
    check_invalid(s, 511, DMK_E_LIMIT, "RND4K Q32T16");
    DMK_CHECK_INT(dmk_run_spec_validate(s, 512, &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK); /* 0 = no limit */

    /* 32 x 64 MiB of buffers is over 1 GiB */
    dmk_run_spec_init(s);
    j = job("SEQ64M Q32T1");
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    check_invalid(s, 0, DMK_E_INVAL, "SEQ64M Q32T1");
    check_invalid(s, 0, DMK_E_INVAL, "2048 MiB");
    /* 16 x 64 MiB is exactly 1 GiB: allowed */
    dmk_run_spec_init(s);
    j = job("SEQ64M Q16T1");
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);

    /* a later invalid test fails the whole spec */
    dmk_run_spec_init(s);
    j = job("SEQ1M Q8T1");
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    j.queue_depth = 0;
    dmk_run_spec_add(s, &j, DMK_MODE_WRITE, 0, &err);
    check_invalid(s, 0, DMK_E_INVAL, "queue depth");

    /* hand-made jobs out of the parser's bounds */
    dmk_run_spec_init(s);
    j = job("SEQ1M Q8T1");
    j.block_size = 256;
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    check_invalid(s, 0, DMK_E_INVAL, "block size");
    dmk_run_spec_init(s);
    j = job("SEQ1M Q8T1");
    j.threads = 65;
    dmk_run_spec_add(s, &j, DMK_MODE_READ, 100, &err);
    check_invalid(s, 0, DMK_E_INVAL, NULL);
    dmk_run_spec_init(s);
    j = job("SEQ1M Q8T1");
    dmk_run_spec_add(s, &j, DMK_MODE_MIX, 101, &err);
    check_invalid(s, 0, DMK_E_INVAL, "read share");
    free(s);
}

int main(void)
{
    DMK_TEST(test_parse_name);
    DMK_TEST(test_parse_name_invalid);
    DMK_TEST(test_format_name);
    DMK_TEST(test_spec_init);
    DMK_TEST(test_names);
    DMK_TEST(test_add_all);
    DMK_TEST(test_add_limit);
    DMK_TEST(test_validate);
    DMK_TEST(test_validate_tests);
    return dmk_test_done();
}
