/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A minimal TAP test harness: plain C, no GLib, so the same tests build
 * natively and with mingw-w64 and run under Wine. Each test function
 * checks with DMK_CHECK*; main() lists them with DMK_TEST.
 *
 * DMK_TEST_ONLY=name runs that one case (its name as TAP prints it, the
 * "test_" optional), the plan counting it alone; a name that no case has
 * fails the program (a "Bail out!"), so a typo never passes as "0 tests"
 * (tests/dmktest.py reads the same variable). */
#ifndef DMK_TEST_H
#define DMK_TEST_H

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <direct.h>
#else
#include <sys/stat.h>
#endif

static int dmk_test_failed_checks;
static int dmk_test_number;
static int dmk_test_any_failed;
static const char *dmk_test_skip_reason;

#define DMK_CHECK(cond)                                                       \
    do {                                                                      \
        if (!(cond)) {                                                        \
            printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            dmk_test_failed_checks++;                                         \
        }                                                                     \
    } while (0)

#define DMK_CHECK_INT(a, b)                                                                       \
    do {                                                                                          \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                     \
        if (va_ != vb_) {                                                                         \
            printf("# %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, va_, #b, \
                   vb_);                                                                          \
            dmk_test_failed_checks++;                                                             \
        }                                                                                         \
    } while (0)

#define DMK_CHECK_STR(a, b)                                                                       \
    do {                                                                                          \
        const char *sa_ = (a), *sb_ = (b);                                                        \
        if (strcmp(sa_, sb_) != 0) {                                                              \
            printf("# %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, sa_, sb_); \
            dmk_test_failed_checks++;                                                             \
        }                                                                                         \
    } while (0)

/* The string s holds part. */
#define DMK_CHECK_HAS(s, part)                                                              \
    do {                                                                                    \
        const char *sh_ = (s), *ph_ = (part);                                               \
        if (!strstr(sh_, ph_)) {                                                            \
            printf("# %s:%d: %s lacks \"%s\": \"%s\"\n", __FILE__, __LINE__, #s, ph_, sh_); \
            dmk_test_failed_checks++;                                                       \
        }                                                                                   \
    } while (0)

/* |a - b| <= tol */
#define DMK_CHECK_NEAR(a, b, tol)                                                              \
    do {                                                                                       \
        double da_ = (double)(a), db_ = (double)(b);                                           \
        if (!(fabs(da_ - db_) <= (tol))) {                                                     \
            printf("# %s:%d: %s == %g, expected %g +- %g\n", __FILE__, __LINE__, #a, da_, db_, \
                   (double)(tol));                                                             \
            dmk_test_failed_checks++;                                                          \
        }                                                                                      \
    } while (0)

/* Ends the current test as skipped, with the reason in the TAP output. */
#define DMK_SKIP(reason)                 \
    do {                                 \
        dmk_test_skip_reason = (reason); \
        return;                          \
    } while (0)

/* name without a leading "test_" */
static inline const char *dmk_test_bare_name(const char *name)
{
    return strncmp(name, "test_", 5) == 0 ? name + 5 : name;
}

/* $DMK_TEST_ONLY, or NULL when every case runs. */
static inline const char *dmk_test_only(void)
{
    const char *only = getenv("DMK_TEST_ONLY");
    return only && *only ? only : NULL;
}

static inline void dmk_test_run(const char *name, void (*fn)(void))
{
    const char *only = dmk_test_only();
    if (only && strcmp(dmk_test_bare_name(only), dmk_test_bare_name(name)) != 0)
        return;
    dmk_test_failed_checks = 0;
    dmk_test_skip_reason = NULL;
    fn();
    dmk_test_number++;
    if (dmk_test_skip_reason) {
        printf("ok %d - %s # SKIP %s\n", dmk_test_number, name, dmk_test_skip_reason);
    } else if (dmk_test_failed_checks) {
        printf("not ok %d - %s\n", dmk_test_number, name);
        dmk_test_any_failed = 1;
    } else {
        printf("ok %d - %s\n", dmk_test_number, name);
    }
    fflush(stdout);
}

#define DMK_TEST(fn) dmk_test_run(#fn, fn)

/* Sets LC_NUMERIC to a locale whose decimal point is a comma; the name
 * set, or NULL when none is installed (the caller skips). */
static inline const char *dmk_test_decimal_comma_locale(void)
{
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "de_DE",
                                  "fr_FR.UTF-8", "fr_FR.utf8", "German_Germany.1252"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    return got;
}

/* mkdir(path, 0755), which Windows spells _mkdir(path); an existing
 * folder is no error for the tests' scratch folders. */
static inline int dmk_test_mkdir(const char *path)
{
#ifdef _WIN32
    return _mkdir(path);
#else
    return mkdir(path, 0755);
#endif
}

/* The suite's scratch folder, $DMK_TEST_TMPDIR (or "."), made if need be:
 * in a fresh build dir nothing has made it yet when the first test runs. */
static inline const char *dmk_test_tmpdir(void)
{
    const char *d = getenv("DMK_TEST_TMPDIR");
    if (!d || !*d)
        return ".";
    dmk_test_mkdir(d);
    return d;
}

static inline int dmk_test_done(void)
{
    const char *only = dmk_test_only();
    if (only && dmk_test_number == 0) {
        printf("Bail out! no test case named \"%s\" (DMK_TEST_ONLY)\n", only);
        return 1;
    }
    printf("1..%d\n", dmk_test_number);
    return dmk_test_any_failed;
}

#endif
