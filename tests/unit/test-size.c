/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-size: parsing sizes, counts and durations; formatting sizes and numbers. */
#include "dmk-test.h"

#include <stdint.h>

#include "dmk-size.h"

static void check_size_ok(const char *s, uint64_t expected)
{
    uint64_t v = 12345;
    DmkError err = {0};
    int rc = dmk_parse_size(s, &v, &err);
    if (rc != DMK_OK)
        printf("# dmk_parse_size(\"%s\") failed: %s\n", s, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(v == expected);
}

static void check_size_bad(const char *s)
{
    uint64_t v = 12345;
    DmkError err = {0};
    int rc = dmk_parse_size(s, &v, &err);
    if (rc == DMK_OK)
        printf("# dmk_parse_size(\"%s\") accepted it as %llu\n", s, (unsigned long long)v);
    DMK_CHECK_INT(rc, DMK_E_INVAL);
    DMK_CHECK_INT(err.code, DMK_E_INVAL);
    DMK_CHECK(err.msg[0] != '\0');
    DMK_CHECK(v == 12345); /* untouched on error */
}

static void test_parse_size_valid(void)
{
    check_size_ok("4096", 4096);
    check_size_ok("4K", 4096);
    check_size_ok("4KiB", 4096);
    check_size_ok("512B", 512);
    check_size_ok("1", 1);
    check_size_ok("1M", 1048576);
    check_size_ok("1MiB", 1048576);
    check_size_ok("1G", 1073741824ULL);
    check_size_ok("1GiB", 1073741824ULL);
    check_size_ok("64GiB", 68719476736ULL);
    check_size_ok("1T", 1099511627776ULL);
    check_size_ok("2TiB", 2199023255552ULL);
    check_size_ok("1P", 1ULL << 50); /* what dmk_format_size prints parses back */
    check_size_ok("1PiB", 1ULL << 50);
    check_size_ok("15E", 15ULL << 60);
    check_size_ok("1EiB", 1ULL << 60);
    /* the largest values that fit */
    check_size_ok("18446744073709551615", UINT64_MAX);
    check_size_ok("17179869183G", 17179869183ULL << 30);
}

static void test_parse_size_invalid(void)
{
    check_size_bad("");
    check_size_bad("0");
    check_size_bad("0K");
    check_size_bad("-1");
    check_size_bad("4KB");
    check_size_bad("1MB");
    check_size_bad("1GB");
    check_size_bad("12x");
    check_size_bad("4K ");
    check_size_bad(" 4K");
    check_size_bad("4 K");
    check_size_bad("K");
    check_size_bad("1.5G");
    check_size_bad("+4K");
    check_size_bad("18446744073709551616");
    check_size_bad("99999999999999999999999");
    check_size_bad("16E"); /* 2^64 */
    check_size_bad("16384P");
    check_size_bad("17179869184G"); /* 2^34 << 30 overflows */
    check_size_bad("16777216T");    /* 2^24 << 40 overflows */

    uint64_t v = 7;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_parse_size(NULL, &v, &err), DMK_E_INVAL);
    DMK_CHECK(v == 7);
    /* a NULL error pointer is allowed */
    DMK_CHECK_INT(dmk_parse_size("4KB", &v, NULL), DMK_E_INVAL);
}

static void test_parse_size_range(void)
{
    uint64_t v = 0;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_parse_size_range("--size", "1G", 16ULL << 20, 64ULL << 30, &v, &err), DMK_OK);
    DMK_CHECK(v == 1ULL << 30);
    /* both bounds are inclusive */
    DMK_CHECK_INT(dmk_parse_size_range("--size", "16M", 16ULL << 20, 64ULL << 30, &v, &err),
                  DMK_OK);
    DMK_CHECK(v == 16ULL << 20);
    DMK_CHECK_INT(dmk_parse_size_range("--size", "64G", 16ULL << 20, 64ULL << 30, &v, &err),
                  DMK_OK);
    DMK_CHECK(v == 64ULL << 30);

    v = 99;
    memset(&err, 0, sizeof err);
    DMK_CHECK_INT(dmk_parse_size_range("--size", "8M", 16ULL << 20, 64ULL << 30, &v, &err),
                  DMK_E_INVAL);
    DMK_CHECK(v == 99);
    DMK_CHECK(strstr(err.msg, "--size") != NULL);
    DMK_CHECK(strstr(err.msg, "'8M'") != NULL);
    DMK_CHECK(strstr(err.msg, "16 MiB") != NULL);
    DMK_CHECK(strstr(err.msg, "64 GiB") != NULL);

    memset(&err, 0, sizeof err);
    DMK_CHECK_INT(dmk_parse_size_range("--size", "65G", 16ULL << 20, 64ULL << 30, &v, &err),
                  DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "--size") != NULL);
    DMK_CHECK(strstr(err.msg, "64 GiB") != NULL);

    /* a malformed size also names the option and the range */
    memset(&err, 0, sizeof err);
    DMK_CHECK_INT(dmk_parse_size_range("--block", "4KB", 512, 64ULL << 20, &v, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "--block") != NULL);
    DMK_CHECK(strstr(err.msg, "512 B") != NULL);
    DMK_CHECK(strstr(err.msg, "64 MiB") != NULL);
    DMK_CHECK(v == 99);
}

static void test_parse_uint_range(void)
{
    uint64_t v = 0;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_parse_uint_range("--passes", "5", 1, 100, &v, &err), DMK_OK);
    DMK_CHECK_INT(v, 5);
    DMK_CHECK_INT(dmk_parse_uint_range("--passes", "1", 1, 100, &v, &err), DMK_OK);
    DMK_CHECK_INT(v, 1);
    DMK_CHECK_INT(dmk_parse_uint_range("--passes", "100", 1, 100, &v, &err), DMK_OK);
    DMK_CHECK_INT(v, 100);
    DMK_CHECK_INT(dmk_parse_uint_range("--n", "0", 0, 3, &v, &err), DMK_OK);
    DMK_CHECK_INT(v, 0);

    static const char *bad[] = {
        "0", "101", "", "-1", "5x", "5 ", " 5", "1.5", "5K", "+5", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 77;
        memset(&err, 0, sizeof err);
        int rc = dmk_parse_uint_range("--passes", bad[i], 1, 100, &v, &err);
        if (rc == DMK_OK)
            printf("# dmk_parse_uint_range accepted \"%s\"\n", bad[i]);
        DMK_CHECK_INT(rc, DMK_E_INVAL);
        DMK_CHECK(v == 77);
        DMK_CHECK(strstr(err.msg, "--passes") != NULL);
        DMK_CHECK(strstr(err.msg, "from 1 to 100") != NULL);
    }
    DMK_CHECK_INT(dmk_parse_uint_range("--passes", NULL, 1, 100, &v, &err), DMK_E_INVAL);
}

static void check_seconds_ok(const char *s, double expected)
{
    double v = -1.0;
    DmkError err = {0};
    int rc = dmk_parse_seconds_range("--time", s, 0.1, 86400.0, &v, &err);
    if (rc != DMK_OK)
        printf("# dmk_parse_seconds_range(\"%s\") failed: %s\n", s, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_NEAR(v, expected, 1e-9);
}

static void check_seconds_bad(const char *s)
{
    double v = -1.0;
    DmkError err = {0};
    int rc = dmk_parse_seconds_range("--time", s, 0.1, 86400.0, &v, &err);
    if (rc == DMK_OK)
        printf("# dmk_parse_seconds_range accepted \"%s\" as %g\n", s, v);
    DMK_CHECK_INT(rc, DMK_E_INVAL);
    DMK_CHECK(v == -1.0);
    DMK_CHECK(strstr(err.msg, "--time") != NULL);
}

static void test_parse_seconds(void)
{
    check_seconds_ok("5", 5.0);
    check_seconds_ok("0.5", 0.5);
    check_seconds_ok("0.25s", 0.25);
    check_seconds_ok("90s", 90.0);
    check_seconds_ok("15m", 900.0);
    check_seconds_ok("1.5m", 90.0);
    check_seconds_ok("2h", 7200.0);
    check_seconds_ok("24h", 86400.0); /* upper bound inclusive */
    check_seconds_ok("0.1", 0.1);     /* lower bound inclusive */

    check_seconds_bad("");
    check_seconds_bad("abc");
    check_seconds_bad("1.");
    check_seconds_bad(".5");
    check_seconds_bad("-1");
    check_seconds_bad("5x");
    check_seconds_bad("5 s");
    check_seconds_bad("5ms");
    check_seconds_bad("0");     /* below 0.1 */
    check_seconds_bad("0.05");  /* below 0.1 */
    check_seconds_bad("86401"); /* above a day */
    check_seconds_bad("25h");   /* above a day */
    check_seconds_bad("1441m"); /* above a day */
    check_seconds_bad("1e3");
    check_seconds_bad("5,5");

    double v = -1.0;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_parse_seconds_range("--interval", "-1", 0.0, 60.0, &v, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "--interval") != NULL);
    DMK_CHECK(strstr(err.msg, "from 0 to 60") != NULL);
    DMK_CHECK_INT(dmk_parse_seconds_range("--interval", "0", 0.0, 60.0, &v, &err), DMK_OK);
    DMK_CHECK(v == 0.0);
    DMK_CHECK_INT(dmk_parse_seconds_range("--interval", NULL, 0.0, 60.0, &v, &err), DMK_E_INVAL);
}

static void test_format_size(void)
{
    char b[32];
    DMK_CHECK_STR(dmk_format_size(0, b, sizeof b), "0 B");
    DMK_CHECK_STR(dmk_format_size(512, b, sizeof b), "512 B");
    DMK_CHECK_STR(dmk_format_size(1023, b, sizeof b), "1023 B");
    DMK_CHECK_STR(dmk_format_size(1024, b, sizeof b), "1 KiB");
    DMK_CHECK_STR(dmk_format_size(4096, b, sizeof b), "4 KiB");
    DMK_CHECK_STR(dmk_format_size(1536, b, sizeof b), "1.50 KiB");
    DMK_CHECK_STR(dmk_format_size(16ULL << 20, b, sizeof b), "16 MiB");
    DMK_CHECK_STR(dmk_format_size(1ULL << 30, b, sizeof b), "1 GiB");
    DMK_CHECK_STR(dmk_format_size(3ULL << 29, b, sizeof b), "1.50 GiB");
    DMK_CHECK_STR(dmk_format_size(64ULL << 30, b, sizeof b), "64 GiB");
    DMK_CHECK_STR(dmk_format_size(1ULL << 40, b, sizeof b), "1 TiB");
    DMK_CHECK_STR(dmk_format_size(1ULL << 60, b, sizeof b), "1 EiB");
    DMK_CHECK_STR(dmk_format_size(UINT64_MAX, b, sizeof b), "16.00 EiB");
    /* the return value is the buffer */
    DMK_CHECK(dmk_format_size(4096, b, sizeof b) == b);
}

static void test_format_block(void)
{
    char b[32];
    DMK_CHECK_STR(dmk_format_block(512, b, sizeof b), "512");
    DMK_CHECK_STR(dmk_format_block(1024, b, sizeof b), "1K");
    DMK_CHECK_STR(dmk_format_block(4096, b, sizeof b), "4K");
    DMK_CHECK_STR(dmk_format_block(131072, b, sizeof b), "128K");
    DMK_CHECK_STR(dmk_format_block(1u << 20, b, sizeof b), "1M");
    DMK_CHECK_STR(dmk_format_block(64u << 20, b, sizeof b), "64M");
    DMK_CHECK_STR(dmk_format_block(1536, b, sizeof b), "1536"); /* 1.5 KiB: not a whole KiB */
    DMK_CHECK_STR(dmk_format_block(3u << 19, b, sizeof b), "1536K");
}

static void test_format_double(void)
{
    char b[64];
    DMK_CHECK_STR(dmk_format_double(1234.5678, 3, b, sizeof b), "1234.568");
    DMK_CHECK_STR(dmk_format_double(0.0005, 3, b, sizeof b), "0.001");
    DMK_CHECK_STR(dmk_format_double(-0.0001, 3, b, sizeof b), "0.000");
    DMK_CHECK_STR(dmk_format_double(2, 0, b, sizeof b), "2");
    DMK_CHECK_STR(dmk_format_double(2.5, 0, b, sizeof b), "3");
    DMK_CHECK_STR(dmk_format_double(0, 3, b, sizeof b), "0.000");
    DMK_CHECK_STR(dmk_format_double(1.0, 2, b, sizeof b), "1.00");
    DMK_CHECK_STR(dmk_format_double(0.05, 2, b, sizeof b), "0.05");
    DMK_CHECK_STR(dmk_format_double(-12.375, 2, b, sizeof b), "-12.38");
    DMK_CHECK_STR(dmk_format_double(-1.5, 1, b, sizeof b), "-1.5");
    DMK_CHECK_STR(dmk_format_double(9.9996, 3, b, sizeof b), "10.000");
    DMK_CHECK_STR(dmk_format_double(123456789.125, 2, b, sizeof b), "123456789.13");
    DMK_CHECK_STR(dmk_format_double(1e15, 3, b, sizeof b), "1000000000000000.000");
    DMK_CHECK_STR(dmk_format_double(0.1, 9, b, sizeof b), "0.100000000");
    /* not finite: a number a parser accepts, never "nan" or "inf" */
    DMK_CHECK_STR(dmk_format_double(NAN, 3, b, sizeof b), "0");
    DMK_CHECK_STR(dmk_format_double(INFINITY, 3, b, sizeof b), "0");
}

/* The charts' numbers: dmk_format_double's digits, a ',' between thousands. */
static void test_format_thousands(void)
{
    static const struct {
        double v;
        int decimals;
        const char *want;
    } cases[] = {
        {600000, 0, "600,000"},
        {1234567.891, 2, "1,234,567.89"},
        {-1000, 0, "-1,000"},
        {999, 0, "999"},
        {-999999.5, 0, "-1,000,000"},
        {0.25, 2, "0.25"},
        {1e15, 0, "1,000,000,000,000,000"},
    };
    char b[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        DMK_CHECK_STR(dmk_format_thousands(cases[i].v, cases[i].decimals, b, sizeof b),
                      cases[i].want);
    /* cut to the buffer, never past it */
    char small[6];
    DMK_CHECK_STR(dmk_format_thousands(1234567, 0, small, sizeof small), "1,234");
}

/* The report's and the Lab tab's figures: decimals by the value as printed. */
static void test_format_figure(void)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        {123456.7, "123,457"}, {-1234567, "-1,234,567"},
        {100, "100"},          {99.96, "100"},
        {65.31, "65.3"},       {9.996, "10.0"},
        {9.5, "9.50"},         {-4.25, "-4.25"},
        {0, "0.00"},           {NAN, "-"},
        {-INFINITY, "-"},
    };
    char b[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        DMK_CHECK_STR(dmk_format_figure(cases[i].v, b, sizeof b), cases[i].want);
}

int main(void)
{
    DMK_TEST(test_parse_size_valid);
    DMK_TEST(test_parse_size_invalid);
    DMK_TEST(test_parse_size_range);
    DMK_TEST(test_parse_uint_range);
    DMK_TEST(test_parse_seconds);
    DMK_TEST(test_format_size);
    DMK_TEST(test_format_block);
    DMK_TEST(test_format_double);
    DMK_TEST(test_format_thousands);
    DMK_TEST(test_format_figure);
    return dmk_test_done();
}
