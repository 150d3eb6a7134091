/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GUI's words and numbers: tile formatting and meters (CrystalDiskMark's
 * rules), status lines, and the copied text, which must be drivemark-cli's
 * table to the byte. */
#include "dmk-test.h"

#include <stdlib.h>

#include "dmk-report.h"
#include "dmk-text.h"
#include "dmk-units.h"

static void check_format(DmkUnit u, double mb_s, double iops, double lat, const char *expected)
{
    DmkStats s = {.mb_s = mb_s, .iops = iops, .lat_mean_us = lat};
    char buf[48];
    DMK_CHECK_STR(dmk_unit_format(u, &s, buf, sizeof buf), expected);
}

static void test_unit_format(void)
{
    check_format(DMK_UNIT_MB_S, 5410.652, 0, 0, "5410.65");
    check_format(DMK_UNIT_MB_S, 68.544, 0, 0, "68.54");
    check_format(DMK_UNIT_MB_S, 0.0, 0, 0, "0.00");
    check_format(DMK_UNIT_MB_S, 123456.78, 0, 0, "123456.8");
    check_format(DMK_UNIT_MB_S, 1234567.4, 0, 0, "1234567");
    check_format(DMK_UNIT_GB_S, 5410.652, 0, 0, "5.411");
    check_format(DMK_UNIT_MIB_S, 1048.576, 0, 0, "1000.00");
    check_format(DMK_UNIT_IOPS, 0, 856.04, 0, "856.0");
    check_format(DMK_UNIT_IOPS, 0, 1234567.8, 0, "1234568");
    check_format(DMK_UNIT_US, 0, 0, 1551.468, "1551.47");
}

static void test_unit_ids(void)
{
    for (int i = 0; i < DMK_UNIT_COUNT; i++)
        DMK_CHECK_INT(dmk_unit_from_id(dmk_unit_id((DmkUnit)i)), i);
    DMK_CHECK_INT(dmk_unit_from_id("bogus"), DMK_UNIT_MB_S);
    DMK_CHECK_STR(dmk_unit_label(DMK_UNIT_IOPS), "IOPS");
}

static void test_meter(void)
{
    DmkStats s = {.mb_s = 1.0, .iops = 1e7, .lat_mean_us = 1e6};
    DMK_CHECK_NEAR(dmk_unit_meter(DMK_UNIT_MB_S, &s), 1.0 / 6.0, 1e-9);
    DMK_CHECK_NEAR(dmk_unit_meter(DMK_UNIT_IOPS, &s), 1.0, 1e-9);
    DMK_CHECK_NEAR(dmk_unit_meter(DMK_UNIT_US, &s), 0.0, 1e-9);
    s.mb_s = 1e6; /* beyond the scale: a full bar, not more */
    DMK_CHECK_NEAR(dmk_unit_meter(DMK_UNIT_MB_S, &s), 1.0, 1e-9);
    s.mb_s = 0;
    DMK_CHECK_NEAR(dmk_unit_meter(DMK_UNIT_MB_S, &s), 0.0, 1e-9);
    /* Log scale: 10x the speed is one sixth more bar. */
    s.mb_s = 100;
    double a = dmk_unit_meter(DMK_UNIT_MB_S, &s);
    s.mb_s = 1000;
    DMK_CHECK_NEAR(dmk_unit_meter(DMK_UNIT_MB_S, &s) - a, 1.0 / 6.0, 1e-9);
}

static DmkTest make_test(const char *name, DmkMode mode)
{
    DmkRunSpec *spec = calloc(1, sizeof *spec);
    DmkJob job;
    dmk_job_parse_name(name, &job, NULL);
    dmk_run_spec_add(spec, &job, mode, 70, NULL);
    DmkTest t = spec->tests[0];
    free(spec);
    return t;
}

static void test_progress_lines(void)
{
    DmkTest t = make_test("RND4K Q32T1", DMK_MODE_READ);
    DmkProgress p = {.stage = DMK_STAGE_PREPARE, .fraction = 0.414};
    char *s = dmk_text_progress(&p);
    DMK_CHECK_STR(s, "Preparing test file 41 %");
    g_free(s);
    p = (DmkProgress){
        .stage = DMK_STAGE_MEASURE, .test = &t, .pass = 3, .passes = 5, .remaining_s = 65};
    s = dmk_text_progress(&p);
    DMK_CHECK_STR(s, "Random Read 4KiB Q32T1 - pass 3/5 (1:05 left)");
    g_free(s);
    t = make_test("SEQ1M Q8T1", DMK_MODE_MIX);
    s = dmk_text_test_title(&t);
    DMK_CHECK_STR(s, "Sequential Mix 1MiB Q8T1");
    g_free(s);
}

static void fill_stats(DmkStats *s, double mb_s, uint32_t bs)
{
    s->mb_s = mb_s;
    s->iops = mb_s * 1e6 / bs;
    s->lat_mean_us = 1234.567;
    s->lat_p99_us = 2345.678;
}

/* A result with a read, a write and a mixed test, a comment, stopped early. */
static DmkRunResult *make_result(void)
{
    static const char *const names[] = {"SEQ1M Q8T1", "RND4K Q32T16", "RND4K Q1T1"};
    static const DmkMode modes[] = {DMK_MODE_READ, DMK_MODE_WRITE, DMK_MODE_MIX};
    DmkRunResult *r = calloc(1, sizeof *r);
    g_strlcpy(r->version, "0.1.0", sizeof r->version);
    g_strlcpy(r->date, "2026-11-30T06:45:46Z", sizeof r->date);
    g_strlcpy(r->os, "Linux 6.1.0 x86_64", sizeof r->os);
    g_strlcpy(r->backend, "libaio", sizeof r->backend);
    g_strlcpy(r->profile, "default", sizeof r->profile);
    g_strlcpy(r->comment, "Samsung SSD 970 EVO Plus", sizeof r->comment);
    g_strlcpy(r->target.path, "/data", sizeof r->target.path);
    g_strlcpy(r->target.fs_type, "ext4", sizeof r->target.fs_type);
    g_strlcpy(r->target.device, "/dev/nvme0n1p2", sizeof r->target.device);
    r->target.capacity_bytes = 1000204886016ULL;
    r->target.fs_size_bytes = 983351951360ULL;
    r->target.fs_free_bytes = 512000000000ULL;
    r->size = 1ULL << 30;
    r->passes = 5;
    r->measure_s = r->warmup_s = r->interval_s = 5;
    r->n_tests = 3;
    r->tests = calloc(3, sizeof *r->tests);
    for (size_t i = 0; i < 3; i++) {
        r->tests[i].test = make_test(names[i], modes[i]);
        fill_stats(&r->tests[i].score.total, 5410.652 / (double)(i + 1), 4096);
        fill_stats(&r->tests[i].score.read, 3000.5, 4096);
        fill_stats(&r->tests[i].score.write, 1286.25, 4096);
    }
    return r;
}

/* The window copies exactly what drivemark-cli prints (core/dmk-report.c,
 * whose lines tests/unit/test-report.c checks). */
static void test_report_is_the_cli_text(void)
{
    DmkRunResult *r = make_result();
    char *core = dmk_report_text(r);
    char *gui = dmk_text_report(r);
    DMK_CHECK(core != NULL);
    DMK_CHECK_STR(gui, core ? core : "");
    DMK_CHECK(strstr(gui, "Comment: Samsung SSD 970 EVO Plus\n") != NULL);
    DMK_CHECK(strstr(gui, "(incomplete") != NULL);
    g_free(gui);
    free(core);
    free(r->tests);
    free(r);
}

/* A drive model or path with a bidi override or an escape sequence from a
 * received file: the tab's tooltip, the legend and the drive line show
 * them as '?' (dmk-escape.h), the rest as it is. */
static void test_labels_escape_bidi(void)
{
    DmkRunResult *r = make_result();
    g_strlcpy(r->target.model,
              "Drive \xe2\x80\xae"
              "evil\x1b[2J \xc3\xa9",
              sizeof r->target.model);
    char *label = dmk_text_result_label(r);
    DMK_CHECK_STR(label, "Drive ?evil?[2J \xc3\xa9, 2026-11-30 06:45");
    char *drive = dmk_text_context_drive(r);
    DMK_CHECK_STR(drive, "Drive ?evil?[2J \xc3\xa9");
    g_free(label);
    g_free(drive);
    free(r->tests);
    free(r);
}

int main(void)
{
    DMK_TEST(test_unit_format);
    DMK_TEST(test_unit_ids);
    DMK_TEST(test_meter);
    DMK_TEST(test_progress_lines);
    DMK_TEST(test_report_is_the_cli_text);
    DMK_TEST(test_labels_escape_bidi);
    return dmk_test_done();
}
