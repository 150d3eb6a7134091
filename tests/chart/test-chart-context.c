/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An exported chart says what it shows: the drive's model, the test
 * file's size and, for one result, its comment, in the subtitle. */
#include "dmk-test.h"

#include <string.h>

#include "dmk-chart-build.h"
#include "dmk-test-result.h"

static int has(const char *s, const char *part)
{
    return strstr(s, part) != NULL;
}

static void test_one_result(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    dmk_test_build_result(&r, &t, passes, samples, "after the firmware update");
    const DmkRunResult *res[] = {&r};
    DmkChartBuildOptions opt = {.one_by_direction = true};
    DmkChartBuild b;
    DmkError err = {0};
    DMK_CHECK(dmk_chart_build(&b, DMK_CHART_BUILD_TILES, "mb_s", res, 1, &opt, &err) == DMK_OK);
    DMK_CHECK(has(b.model.subtitle, "Samsung SSD 970 EVO Plus 1TB"));
    DMK_CHECK(has(b.model.subtitle, "1 GiB test file"));
    DMK_CHECK(has(b.model.subtitle, " - after the firmware update"));
    dmk_chart_build_free(&b);
}

/* Two results: the legend names the drives; no one comment speaks for both. */
static void test_two_results(void)
{
    DmkRunResult r[2];
    DmkTestResult t[2];
    DmkPassResult passes[2][2];
    DmkSample samples[2][2];
    dmk_test_build_result(&r[0], &t[0], passes[0], samples[0], "first");
    dmk_test_build_result(&r[1], &t[1], passes[1], samples[1], "second");
    const DmkRunResult *res[] = {&r[0], &r[1]};
    DmkChartBuild b;
    DmkError err = {0};
    DMK_CHECK(dmk_chart_build(&b, DMK_CHART_BUILD_TILES, "mb_s", res, 2, NULL, &err) == DMK_OK);
    DMK_CHECK(has(b.model.subtitle, "1 GiB test file"));
    DMK_CHECK(!has(b.model.subtitle, "first") && !has(b.model.subtitle, "second"));
    dmk_chart_build_free(&b);
}

int main(void)
{
    DMK_TEST(test_one_result);
    DMK_TEST(test_two_results);
    return dmk_test_done();
}
