/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-result: statistics from a histogram, and a test's score from its passes. */
#include "dmk-test.h"

#include "dmk-platform.h"
#include "dmk-result.h"

static void test_stats_from_hist(void)
{
    DmkHist *h = malloc(sizeof *h);
    dmk_hist_reset(h);
    /* 100 I/Os of 1..100 ns: values below 128 ns are counted exactly */
    for (int i = 0; i < 100; i++)
        dmk_hist_add(h, (uint64_t)(i + 1));
    DmkStats s;
    memset(&s, 0xff, sizeof s);
    dmk_stats_from_hist(&s, h, 10000000, 2.0);
    DMK_CHECK_INT(s.ios, 100);
    DMK_CHECK(s.bytes == 10000000);
    DMK_CHECK(s.seconds == 2.0);
    DMK_CHECK_NEAR(s.mb_s, 5.0, 1e-12);  /* decimal MB: 10^7 B / 2 s */
    DMK_CHECK_NEAR(s.iops, 50.0, 1e-12); /* 100 / 2 s */
    DMK_CHECK_NEAR(s.lat_mean_us, 0.0505, 1e-12);
    DMK_CHECK_NEAR(s.lat_min_us, 0.001, 1e-12);
    DMK_CHECK_NEAR(s.lat_max_us, 0.100, 1e-12);
    DMK_CHECK_NEAR(s.lat_p50_us, 0.050, 1e-12);
    DMK_CHECK_NEAR(s.lat_p90_us, 0.090, 1e-12);
    DMK_CHECK_NEAR(s.lat_p99_us, 0.099, 1e-12);
    DMK_CHECK_NEAR(s.lat_p999_us, 0.100, 1e-12);
    DMK_CHECK_NEAR(s.lat_p9999_us, 0.100, 1e-12);
    /* sample standard deviation of 1..100: sqrt(100 * 101 / 12) */
    DMK_CHECK_NEAR(s.lat_stddev_us, sqrt(100.0 * 101.0 / 12.0) / 1e3, 1e-9);

    /* microseconds from nanoseconds at realistic latencies */
    dmk_hist_reset(h);
    dmk_hist_add(h, 1000000); /* 1 ms */
    dmk_hist_add(h, 3000000); /* 3 ms */
    dmk_stats_from_hist(&s, h, 8192, 0.5);
    DMK_CHECK_INT(s.ios, 2);
    DMK_CHECK_NEAR(s.mb_s, 8192 / 0.5 / 1e6, 1e-12);
    DMK_CHECK_NEAR(s.iops, 4.0, 1e-12);
    DMK_CHECK_NEAR(s.lat_mean_us, 2000.0, 1e-9);
    DMK_CHECK_NEAR(s.lat_min_us, 1000.0, 1e-9);
    DMK_CHECK_NEAR(s.lat_max_us, 3000.0, 1e-9);
    DMK_CHECK_NEAR(s.lat_stddev_us, sqrt(2.0) * 1000.0, 1e-6);
    DMK_CHECK_NEAR(s.lat_p50_us, 1000.0, 1000.0 * 0.004);
    DMK_CHECK_NEAR(s.lat_p99_us, 3000.0, 3000.0 * 0.004);

    /* nothing completed */
    dmk_hist_reset(h);
    memset(&s, 0xff, sizeof s);
    dmk_stats_from_hist(&s, h, 0, 5.0);
    DMK_CHECK_INT(s.ios, 0);
    DMK_CHECK(s.mb_s == 0.0);
    DMK_CHECK(s.iops == 0.0);
    DMK_CHECK(s.lat_mean_us == 0.0);
    DMK_CHECK(s.lat_min_us == 0.0); /* not UINT64_MAX / 1000 */
    DMK_CHECK(s.lat_p99_us == 0.0);
    DMK_CHECK(s.seconds == 5.0);

    /* zero seconds: no division by zero */
    dmk_hist_add(h, 500);
    dmk_stats_from_hist(&s, h, 4096, 0.0);
    DMK_CHECK(s.mb_s == 0.0);
    DMK_CHECK(s.iops == 0.0);
    DMK_CHECK_NEAR(s.lat_mean_us, 0.5, 1e-12);
    free(h);
}

static void set_passes(DmkTestResult *t, DmkPassResult *passes, const double *mb_s, uint32_t n)
{
    memset(t, 0, sizeof *t);
    memset(passes, 0, n * sizeof *passes);
    for (uint32_t i = 0; i < n; i++) {
        passes[i].total.mb_s = mb_s[i];
        passes[i].total.ios = 1000 + i;
        passes[i].total.lat_p99_us = 10.0 * (i + 1);
        passes[i].read.mb_s = mb_s[i] * 0.7;
        passes[i].write.mb_s = mb_s[i] * 0.3;
    }
    t->passes = passes;
    t->n_passes = n;
}

static void test_summarize(void)
{
    DmkTestResult t;
    DmkPassResult passes[6];

    const double odd[] = {3, 9, 1, 7, 5};
    set_passes(&t, passes, odd, 5);
    dmk_test_result_summarize(&t);
    DMK_CHECK_INT(t.best_pass, 1);
    DMK_CHECK(memcmp(&t.score, &passes[1], sizeof t.score) == 0);
    DMK_CHECK(t.score.total.mb_s == 9.0);
    DMK_CHECK_INT(t.score.total.ios, 1001);
    DMK_CHECK(t.score.read.mb_s == 9.0 * 0.7);
    DMK_CHECK(t.mb_s_median == 5.0);
    DMK_CHECK(t.mb_s_min == 1.0);
    DMK_CHECK(t.mb_s_max == 9.0);
    /* the passes themselves are not reordered */
    DMK_CHECK(passes[0].total.mb_s == 3.0);
    DMK_CHECK(passes[4].total.mb_s == 5.0);

    const double even[] = {4, 10, 2, 8};
    set_passes(&t, passes, even, 4);
    dmk_test_result_summarize(&t);
    DMK_CHECK_INT(t.best_pass, 1);
    DMK_CHECK(t.mb_s_median == 6.0); /* (4 + 8) / 2 */
    DMK_CHECK(t.mb_s_min == 2.0);
    DMK_CHECK(t.mb_s_max == 10.0);

    /* the best is the last pass */
    const double last[] = {1, 2, 3, 4, 5, 6};
    set_passes(&t, passes, last, 6);
    dmk_test_result_summarize(&t);
    DMK_CHECK_INT(t.best_pass, 5);
    DMK_CHECK(t.score.total.mb_s == 6.0);
    DMK_CHECK(t.mb_s_median == 3.5);

    /* a tie keeps the first pass that reached the top */
    const double tie[] = {5, 8, 8, 1};
    set_passes(&t, passes, tie, 4);
    dmk_test_result_summarize(&t);
    DMK_CHECK_INT(t.best_pass, 1);
    DMK_CHECK_INT(t.score.total.ios, 1001);
    DMK_CHECK(t.mb_s_median == 6.5);

    /* one pass */
    const double one[] = {42.5};
    set_passes(&t, passes, one, 1);
    dmk_test_result_summarize(&t);
    DMK_CHECK_INT(t.best_pass, 0);
    DMK_CHECK(t.mb_s_median == 42.5);
    DMK_CHECK(t.mb_s_min == 42.5);
    DMK_CHECK(t.mb_s_max == 42.5);
    DMK_CHECK(t.score.total.mb_s == 42.5);

    /* no pass: all zero, and stale values are cleared */
    set_passes(&t, passes, odd, 5);
    dmk_test_result_summarize(&t);
    t.n_passes = 0;
    dmk_test_result_summarize(&t);
    DMK_CHECK_INT(t.best_pass, 0);
    DMK_CHECK(t.mb_s_median == 0.0);
    DMK_CHECK(t.mb_s_max == 0.0);
    DMK_CHECK(t.score.total.mb_s == 0.0);
}

static void test_stat_fields(void)
{
    static const char *names[] = {"mb_s",       "iops",          "lat_mean_us", "lat_min_us",
                                  "lat_max_us", "lat_stddev_us", "lat_p50_us",  "lat_p90_us",
                                  "lat_p99_us", "lat_p999_us",   "lat_p9999_us"};
    DMK_CHECK_INT(dmk_stat_field_count, sizeof names / sizeof names[0]);
    DmkStats s = {0};
    s.mb_s = 1;
    s.iops = 2;
    s.lat_mean_us = 3;
    s.lat_min_us = 4;
    s.lat_max_us = 5;
    s.lat_stddev_us = 6;
    s.lat_p50_us = 7;
    s.lat_p90_us = 8;
    s.lat_p99_us = 9;
    s.lat_p999_us = 10;
    s.lat_p9999_us = 11;
    for (size_t i = 0; i < dmk_stat_field_count && i < 11; i++) {
        DMK_CHECK_STR(dmk_stat_fields[i].name, names[i]);
        DMK_CHECK(dmk_stat_get(&s, &dmk_stat_fields[i]) == (double)(i + 1));
        DMK_CHECK_INT(dmk_stat_fields[i].decimals, i == 1 ? 2 : 3);
    }
    DMK_CHECK_STR(dmk_data_name(DMK_DATA_RANDOM), "random");
    DMK_CHECK_STR(dmk_data_name(DMK_DATA_ZERO), "zero");
}

static void test_format_now(void)
{
    char b[32];
    memset(b, 'x', sizeof b);
    dmk_os_utc_now(b, sizeof b);
    /* "2026-11-30T06:35:13Z" */
    DMK_CHECK_INT(strlen(b), 20);
    DMK_CHECK(b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' &&
              b[19] == 'Z');
    for (int i = 0; i < 19; i++)
        if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16)
            DMK_CHECK(b[i] >= '0' && b[i] <= '9');
}

static void test_free_null(void)
{
    dmk_run_result_free(NULL); /* allowed: must not crash */
}

int main(void)
{
    DMK_TEST(test_stats_from_hist);
    DMK_TEST(test_summarize);
    DMK_TEST(test_stat_fields);
    DMK_TEST(test_format_now);
    DMK_TEST(test_free_null);
    return dmk_test_done();
}
