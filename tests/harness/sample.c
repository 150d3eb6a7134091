/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A sample program for tests/dmk-test.h's own test (test_harness.py):
 * four cases, each saying on a TAP comment line that it ran, so the test
 * sees which ones a run by name (DMK_TEST_ONLY) ran. One fails on
 * purpose and one skips; this is no test of the suite itself. */
#include "dmk-test.h"

static void test_first(void)
{
    printf("# ran first\n");
    DMK_CHECK_INT(1 + 1, 2);
}

static void test_second(void)
{
    printf("# ran second\n");
    DMK_CHECK_STR("two", "two");
}

static void test_fails(void)
{
    printf("# ran fails\n");
    DMK_CHECK_INT(1 + 1, 3);
}

static void test_skipped(void)
{
    printf("# ran skipped\n");
    DMK_SKIP("on purpose");
}

int main(void)
{
    DMK_TEST(test_first);
    DMK_TEST(test_second);
    DMK_TEST(test_fails);
    DMK_TEST(test_skipped);
    return dmk_test_done();
}
