/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-json: string escaping and the result document. */
#include "dmk-test.h"
#include "dmk-test-lab.h"
#include "dmk-test-result.h"
#include "dmk-test-scratch.h"

#include <locale.h>

#include "dmk-json.h"

static char *json_string(const char *in)
{
    FILE *f = dmk_scratch_open("test-json.scratch");
    if (!f)
        return NULL;
    dmk_json_string(f, in);
    char *s = dmk_scratch_slurp(f);
    dmk_scratch_close(f);
    return s;
}

/* s for a TAP comment: bytes outside printable ASCII as \xNN. */
static const char *printable(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < len; p++) {
        if (*p >= 0x20 && *p < 0x7f)
            buf[n++] = (char)*p;
        else
            n += (size_t)snprintf(buf + n, len - n, "\\x%02x", *p);
    }
    buf[n] = '\0';
    return buf;
}

static void check_escape(const char *in, const char *expected)
{
    char *out = json_string(in);
    DMK_CHECK(out != NULL);
    if (out && strcmp(out, expected) != 0) {
        char a[256], b[256], c[256];
        printf("# dmk_json_string(\"%s\") wrote %s, expected %s\n", printable(in, a, sizeof a),
               printable(out, b, sizeof b), printable(expected, c, sizeof c));
        dmk_test_failed_checks++;
    }
    free(out);
}

static void test_string_escaping(void)
{
    check_escape("", "\"\"");
    check_escape("plain text", "\"plain text\"");
    check_escape("say \"hi\"", "\"say \\\"hi\\\"\"");
    check_escape("C:\\dir\\file", "\"C:\\\\dir\\\\file\"");
    check_escape("a\x01z", "\"a\\u0001z\"");
    check_escape("\n\r\t\b\f", "\"\\u000a\\u000d\\u0009\\u0008\\u000c\"");
    check_escape("\x1f", "\"\\u001f\"");
    check_escape(" ~\x7f", "\" ~\x7f\""); /* DEL needs no escape */
    check_escape("/", "\"/\"");
}

static void test_string_utf8(void)
{
    /* valid UTF-8 passes unchanged */
    check_escape("caf\xc3\xa9", "\"caf\xc3\xa9\"");           /* é */
    check_escape("\xe2\x82\xac", "\"\xe2\x82\xac\"");         /* € */
    check_escape("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""); /* 😀 U+1F600 */
    check_escape("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""); /* U+10FFFF, the last */
    check_escape("\xef\xbf\xbf", "\"\xef\xbf\xbf\"");         /* U+FFFF */
    check_escape("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");         /* U+D7FF, below surrogates */
    check_escape("\xee\x80\x80", "\"\xee\x80\x80\"");         /* U+E000, above them */
    check_escape("\xc2\x80", "\"\xc2\x80\"");                 /* U+0080, the first 2-byte */
    check_escape("\xe0\xa0\x80", "\"\xe0\xa0\x80\"");         /* U+0800, the first 3-byte */
    check_escape("\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\""); /* U+10000, the first 4-byte */

    /* invalid bytes become U+FFFD, one per byte that cannot start or continue a character */
    check_escape("\xff", "\"\\ufffd\"");
    check_escape("a\xfe"
                 "b",
                 "\"a\\ufffdb\"");
    check_escape("\x80", "\"\\ufffd\"");                                  /* lone continuation */
    check_escape("\xc0\x80", "\"\\ufffd\\ufffd\"");                       /* overlong NUL */
    check_escape("\xc1\xbf", "\"\\ufffd\\ufffd\"");                       /* overlong */
    check_escape("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");            /* overlong 3-byte */
    check_escape("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");            /* surrogate U+D800 */
    check_escape("\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"");            /* surrogate U+DFFF */
    check_escape("\xf0\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* overlong 4-byte */
    check_escape("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
    check_escape("\xc3", "\"\\ufffd\"");                                  /* truncated at the end */
    check_escape("\xe2\x82", "\"\\ufffd\\ufffd\"");
    check_escape("\xe2\x82x", "\"\\ufffd\\ufffdx\"");
    check_escape("\xc3\xa9\xff\xc3\xa9", "\"\xc3\xa9\\ufffd\xc3\xa9\"");
}

/* Lead bytes F5..FF never start a character in UTF-8 (RFC 3629): F5..F7
 * would start code points above U+10FFFF. */
static void test_string_utf8_high_leads(void)
{
    check_escape("\xf8\x88\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
    check_escape("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    check_escape("\xf6\x80\x80", "\"\\ufffd\\ufffd\\ufffd\"");
    check_escape("\xf7\xbf\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

/* Whether the document's braces and brackets balance outside strings,
 * with no raw control characters inside strings. */
static int balanced(const char *s)
{
    int depth = 0;
    char stack[64];
    int in_str = 0;
    for (; *s; s++) {
        if (in_str) {
            if (*s == '\\') {
                if (!s[1])
                    return 0;
                s++;
            } else if (*s == '"') {
                in_str = 0;
            } else if ((unsigned char)*s < 0x20) {
                return 0;
            }
            continue;
        }
        if (*s == '"') {
            in_str = 1;
        } else if (*s == '{' || *s == '[') {
            if (depth == 64)
                return 0;
            stack[depth++] = *s;
        } else if (*s == '}' || *s == ']') {
            if (depth == 0 || stack[depth - 1] != (*s == '}' ? '{' : '['))
                return 0;
            depth--;
        }
    }
    return depth == 0 && !in_str;
}

/* Count of `needle` in `s`. */
static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The shared fixture, with the context this file's expectations name. */
static void build_result(DmkRunResult *r, DmkTestResult *t, DmkPassResult *passes,
                         DmkSample *samples)
{
    dmk_test_build_result(r, t, passes, samples, "my \"fast\" disk\n\\o/");
    snprintf(r->target.path, sizeof r->target.path, "/mnt/data");
    r->target.fs_free_bytes = 0;
    r->warmup_s = 5;
    r->interval_s = 5;
    r->data = DMK_DATA_RANDOM;
}

static char *write_json(const DmkRunResult *r)
{
    return dmk_scratch_write("test-json.json", dmk_json_write, r, NULL);
}

static void test_document(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    build_result(&r, &t, passes, samples);
    char *s = write_json(&r);
    DMK_CHECK(s != NULL);
    if (!s)
        return;
    DMK_CHECK(balanced(s));
    DMK_CHECK(s[0] == '{');
    DMK_CHECK(strlen(s) > 2 && strcmp(s + strlen(s) - 2, "}\n") == 0);
    DMK_CHECK(strstr(s, "\"schema\":\"drivemark-result\"") != NULL);
    DMK_CHECK(strstr(s, "\"schema_version\":2") != NULL);
    DMK_CHECK(strstr(s, "\"version\":\"0.1.0\"") != NULL);
    DMK_CHECK(strstr(s, "\"complete\":true") != NULL);
    DMK_CHECK(strstr(s, "\"date\":\"2026-11-30T06:35:13Z\"") != NULL);
    DMK_CHECK(strstr(s, "\"backend\":\"null\"") != NULL);
    DMK_CHECK(strstr(s, "\"profile\":\"default\"") != NULL);
    DMK_CHECK(strstr(s, "\"comment\":\"my \\\"fast\\\" disk\\u000a\\\\o/\"") != NULL);
    DMK_CHECK(strstr(s, "\"target\":\"/mnt/data\"") != NULL);
    DMK_CHECK(strstr(s, "\"file_system\":\"ext4\"") != NULL);
    DMK_CHECK(strstr(s, "\"device_model\":\"Samsung SSD 970 EVO Plus 1TB\"") != NULL);
    DMK_CHECK(strstr(s, "\"capacity_bytes\":1000204886016") != NULL);
    DMK_CHECK(strstr(s, "\"test_size\":1073741824") != NULL);
    DMK_CHECK(strstr(s, "\"passes\":2,") != NULL);
    DMK_CHECK(strstr(s, "\"measure_s\":5.000") != NULL);
    DMK_CHECK(strstr(s, "\"data\":\"random\"") != NULL);
    DMK_CHECK(strstr(s, "\"results\":[{") != NULL);

    DMK_CHECK(strstr(s, "\"test\":\"RND4K Q32T1\"") != NULL);
    DMK_CHECK(strstr(s, "\"mode\":\"mix\"") != NULL);
    DMK_CHECK(strstr(s, "\"pattern\":\"rnd\"") != NULL);
    DMK_CHECK(strstr(s, "\"block_size\":4096") != NULL);
    DMK_CHECK(strstr(s, "\"queue_depth\":32") != NULL);
    DMK_CHECK(strstr(s, "\"threads\":1") != NULL);
    DMK_CHECK(strstr(s, "\"read_share\":70") != NULL);
    /* the score is pass 2, the faster */
    DMK_CHECK(strstr(s, "\"best_pass\":2") != NULL);
    DMK_CHECK(strstr(s, "\"rate_iops\":0,\"mb_s\":163.840,\"iops\":40000.00,") != NULL);
    DMK_CHECK(strstr(s, "\"lat_p99_us\":1234.568") != NULL);
    DMK_CHECK(strstr(s, "\"mb_s_median\":122.880") != NULL);
    DMK_CHECK(strstr(s, "\"mb_s_min\":81.920") != NULL);
    DMK_CHECK(strstr(s, "\"mb_s_max\":163.840") != NULL);
    DMK_CHECK(strstr(s, "\"ios\":200000,\"bytes\":819200000") != NULL);
    /* a mixed test reports each direction */
    DMK_CHECK(strstr(s, "\"read\":{\"direction\":\"read\",\"mb_s\":114.688,\"iops\":28000.00") !=
              NULL);
    DMK_CHECK(strstr(s, "\"write\":{\"direction\":\"write\",\"mb_s\":49.152,\"iops\":12000.00") !=
              NULL);
    DMK_CHECK(strstr(s, "\"passes\":[{\"pass\":1,\"mb_s\":81.920,") != NULL);
    DMK_CHECK(strstr(s, "{\"pass\":2,\"mb_s\":163.840,") != NULL);
    DMK_CHECK_INT(count(s, "{\"pass\":"), 2);
    DMK_CHECK(strstr(s, "\"timeline\":[{\"t_s\":0.500,\"mb_s\":100.000,\"iops\":24414.06,"
                        "\"lat_mean_us\":5.500,\"temp_c\":null},{\"t_s\":1.000,"
                        "\"mb_s\":200.000,\"iops\":48828.13,\"lat_mean_us\":2.250,"
                        "\"temp_c\":null}]") != NULL);
    /* an ordinary run: the lab's keys are there, empty */
    DMK_CHECK(strstr(s, "\"sweep\":\"\",\"lab\":\"\",") != NULL);
    DMK_CHECK(strstr(s, "\"lab_note\":\"\",") != NULL);
    DMK_CHECK(strstr(s, "\"temp_sensor\":\"\",\"discard\":0,") != NULL);
    DMK_CHECK(strstr(s, "\"test\":\"RND4K Q32T1\",\"label\":\"\",") != NULL);
    DMK_CHECK(strstr(s, "\"read_share\":70,\"rate_iops\":0,") != NULL);
    DMK_CHECK(strstr(s, "\"best_pass\":2,\"partial\":false") != NULL);
    /* a mixed test's achieved read share, after its flags, on the score
     * and each pass (issue 18) */
    DMK_CHECK(strstr(s, "\"flags\":[],\"read_share_achieved\":70.000,\"read\":{") != NULL);
    DMK_CHECK_INT(count(s, "\"read_share_achieved\":70.000"), 3);
    /* every statistic once per score, direction and pass: 1 + 2 + 2 */
    DMK_CHECK_INT(count(s, "\"lat_p9999_us\":"), 5);
    DMK_CHECK_INT(count(s, "\"lat_stddev_us\":"), 5);
    /* numbers never use a comma, never nan or inf */
    DMK_CHECK(strstr(s, "nan") == NULL && strstr(s, "inf") == NULL);
    free(s);

    /* a read test has no per-direction blocks, and no timeline when empty */
    t.test.mode = DMK_MODE_READ;
    t.n_samples = 0;
    r.complete = false;
    s = write_json(&r);
    if (s) {
        DMK_CHECK(balanced(s));
        DMK_CHECK(strstr(s, "\"mode\":\"read\"") != NULL);
        DMK_CHECK(strstr(s, "\"read\":{") == NULL);
        DMK_CHECK(strstr(s, "\"write\":{") == NULL);
        DMK_CHECK(strstr(s, "\"timeline\"") == NULL);
        DMK_CHECK(strstr(s, "\"complete\":false") != NULL);
    }
    free(s);

    /* no test at all: an empty results array */
    r.n_tests = 0;
    s = write_json(&r);
    if (s) {
        DMK_CHECK(balanced(s));
        DMK_CHECK(strstr(s, "\"results\":[]}") != NULL);
    }
    free(s);
}

/* A review-lab result: the lab's context, the step's label and rate, a
 * stopped test, and each sample's temperature, null without a reading. */
static void test_document_lab(void)
{
    DmkTestLab lab;
    dmk_test_lab_init(&lab);
    lab.samples[1].temp_c = 250.0; /* a misread: no drive is that hot */
    char *s = write_json(&lab.r);
    DMK_CHECK(s != NULL);
    if (!s)
        return;
    DMK_CHECK(balanced(s));
    DMK_CHECK(strstr(s, "\"schema_version\":2,") != NULL);
    DMK_CHECK(strstr(s, "\"lab\":\"sustained\",") != NULL);
    DMK_CHECK(strstr(s, "\"lab_note\":\"TRIM: 2.00 GiB punched, \\\"fstrim\\\" not permitted, as "
                        "a user\",") != NULL);
    DMK_CHECK(strstr(s, "\"temp_sensor\":\"nvme0 Composite (hwmon2)\",\"discard\":1,") != NULL);
    DMK_CHECK(strstr(s, "\"test_size\":2000398934016,") != NULL);
    DMK_CHECK(strstr(s, "\"complete\":false") != NULL);
    DMK_CHECK(strstr(s, "\"test\":\"RND4K Q32T1\",\"label\":\"after TRIM\",\"mode\":\"write\"") !=
              NULL);
    DMK_CHECK(strstr(s, "\"read_share\":0,\"rate_iops\":12345,") != NULL);
    DMK_CHECK(strstr(s, "\"best_pass\":1,\"partial\":true,") != NULL);
    DMK_CHECK_INT(count(s, "{\"pass\":"), 1);
    /* every sample has the key: a number with one decimal, or null */
    DMK_CHECK_INT(count(s, "\"temp_c\":"), DMK_TEST_LAB_SAMPLES);
    int none = 1; /* the misread */
    for (size_t i = 0; i < DMK_TEST_LAB_SAMPLES; i++)
        none += isnan(dmk_test_lab_temp(i)) ? 1 : 0; /* mingw's isnan is not 0/1 */
    DMK_CHECK_INT(count(s, "\"temp_c\":null}"), none);
    DMK_CHECK(strstr(s, "{\"t_s\":0.500,\"mb_s\":80.000,\"iops\":19531.25,\"lat_mean_us\":1600.500,"
                        "\"temp_c\":41.0}") != NULL);
    DMK_CHECK(strstr(s, "\"t_s\":1.000,\"mb_s\":81.125,\"iops\":19532.25,\"lat_mean_us\":1601.500,"
                        "\"temp_c\":null}") != NULL);
    DMK_CHECK(strstr(s, "\"temp_c\":-12.5}") != NULL);
    DMK_CHECK(strstr(s, "\"temp_c\":43.8}") != NULL);
    DMK_CHECK(strstr(s, "\"t_s\":25.000,") != NULL);
    DMK_CHECK(strstr(s, "\"temp_c\":79.5}]") != NULL); /* the last sample */
    DMK_CHECK(strstr(s, "nan") == NULL && strstr(s, "inf") == NULL);
    free(s);

    /* a platform that cannot tell whether discard is on: null */
    lab.r.target.discard = -1;
    s = write_json(&lab.r);
    if (s)
        DMK_CHECK(strstr(s, "\"discard\":null,") != NULL);
    free(s);
}

/* Numbers with a huge or non-finite value still make valid JSON. */
static void test_document_odd_numbers(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    build_result(&r, &t, passes, samples);
    passes[0].total.lat_max_us = NAN;
    passes[0].total.lat_stddev_us = INFINITY;
    passes[0].total.iops = -0.001;
    char *s = write_json(&r);
    if (s) {
        DMK_CHECK(balanced(s));
        DMK_CHECK(strstr(s, "nan") == NULL && strstr(s, "inf") == NULL);
        DMK_CHECK(strstr(s, "\"iops\":0.00,") != NULL);
        DMK_CHECK(strstr(s, "-0.00") == NULL);
    }
    free(s);
}

/* Numbers keep '.' whatever LC_NUMERIC says. */
static void test_locale(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    build_result(&r, &t, passes, samples);
    const char *skip = NULL;
    char *s = dmk_scratch_write_decimal_comma("test-json.json", dmk_json_write, &r, &skip);
    if (skip)
        DMK_SKIP(skip);
    if (!s)
        return;
    DMK_CHECK(balanced(s));
    DMK_CHECK(strstr(s, "\"mb_s\":163.840,") != NULL);
    DMK_CHECK(strstr(s, "\"measure_s\":5.000,") != NULL);
    DMK_CHECK(strstr(s, "\"t_s\":0.500,") != NULL);
    DMK_CHECK(strstr(s, "163,840") == NULL);
    free(s);
}

int main(void)
{
    DMK_TEST(test_string_escaping);
    DMK_TEST(test_string_utf8);
    DMK_TEST(test_string_utf8_high_leads);
    DMK_TEST(test_document);
    DMK_TEST(test_document_lab);
    DMK_TEST(test_document_odd_numbers);
    DMK_TEST(test_locale);
    return dmk_test_done();
}
