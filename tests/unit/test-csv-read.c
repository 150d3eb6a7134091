/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-csv-read: result files load back whole (save, open, save gives the
 * same bytes), fast, and bad files are refused with a message that names
 * the file, the line and the column. argv[1] is tests/data. */
#include "dmk-test.h"
#include "dmk-test-lab.h"
#include "dmk-test-result.h"
#include "dmk-test-scratch.h"
#include "dmk-test-spec.h"

#include <dirent.h>
#include <locale.h>
#include <sys/stat.h>
#include <time.h>

#include "dmk-csv-private.h"
#include "dmk-csv-read.h"
#include "dmk-csv.h"
#include "dmk-runner.h"
#include "null/dmk-null.h"

static const char *data_dir = "tests/data";

/* ---- helpers ------------------------------------------------------------- */

static char *write_csv(const DmkRunResult *r, size_t *len)
{
    return dmk_scratch_write("test-csv-read.csv", dmk_csv_write, r, len);
}

static DmkRunResult *load_text(const char *text, size_t len, DmkError *err)
{
    DmkRunResult *r = NULL;
    memset(err, 0, sizeof *err);
    int rc = dmk_csv_load_mem("r.csv", text, len, &r, err);
    if (rc != DMK_OK)
        printf("# load: %s\n", err->msg);
    DMK_CHECK((rc == DMK_OK) == (r != NULL));
    return r;
}

/* Writes r, loads it, writes that again: the same bytes; returns the
 * loaded result (NULL on failure). */
static DmkRunResult *round_trip(const DmkRunResult *r)
{
    size_t len = 0, len2 = 0;
    char *a = write_csv(r, &len);
    if (!a)
        return NULL;
    DmkError err;
    DmkRunResult *back = load_text(a, len, &err);
    char *b = back ? write_csv(back, &len2) : NULL;
    DMK_CHECK(b != NULL);
    if (b) {
        DMK_CHECK_INT(len2, len);
        DMK_CHECK(len == len2 && memcmp(a, b, len) == 0);
    }
    free(a);
    free(b);
    return back;
}

static char *path_in(const char *dir, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", dir, name);
    return buf;
}

static const char *tmp_dir(void)
{
    return dmk_test_tmpdir();
}

/* ---- a hand-built result ------------------------------------------------- */

static void set_stats(DmkStats *s, double mb_s, double scale)
{
    memset(s, 0, sizeof *s);
    s->mb_s = mb_s;
    s->iops = mb_s * 1e6 / 4096;
    s->lat_mean_us = 318.125 * scale;
    s->lat_min_us = 12.5;
    s->lat_max_us = 2345.678;
    s->lat_stddev_us = 45.25;
    s->lat_p50_us = 300;
    s->lat_p90_us = 400.5;
    s->lat_p99_us = 612.5 * scale;
    s->lat_p999_us = 900;
    s->lat_p9999_us = 1500.875;
}

static void add_test(DmkRunResult *r, const char *name, DmkMode mode, uint32_t share,
                     size_t n_samples)
{
    DmkTestResult *t = &r->tests[r->n_tests++];
    memset(t, 0, sizeof *t);
    dmk_job_parse_name(name, &t->test.jobs[0], NULL);
    snprintf(t->test.name, sizeof t->test.name, "%s", name);
    t->test.mode = mode;
    t->test.n_jobs = 1;
    t->test.jobs[0].read_share = share;
    t->n_passes = 3;
    t->passes = calloc(3, sizeof *t->passes);
    for (uint32_t p = 0; p < 3; p++) {
        set_stats(&t->passes[p].total, 400.125 + p * (p == 1 ? 10 : 1), 1.0 + p);
        if (mode != DMK_MODE_WRITE)
            set_stats(&t->passes[p].read, 280.5 + p, 1.0);
        if (mode != DMK_MODE_READ)
            set_stats(&t->passes[p].write, 120.25 + p, 2.0);
    }
    dmk_test_result_summarize(t);
    t->n_samples = n_samples;
    t->samples = calloc(n_samples ? n_samples : 1, sizeof *t->samples);
    for (size_t i = 0; i < n_samples; i++)
        t->samples[i] = (DmkSample){.t_s = (double)(i + 1) / 10.0,
                                    .mb_s = 400.0 + (double)(i % 97) / 8.0,
                                    .iops = 97656.25 + (double)(i % 13),
                                    .lat_mean_us = 327.5 + (double)(i % 7) / 4.0};
}

static DmkRunResult *build_result(const char *comment, size_t n_samples)
{
    DmkRunResult *r = calloc(1, sizeof *r);
    r->tests = calloc(4, sizeof *r->tests);
    snprintf(r->version, sizeof r->version, "0.1.0");
    snprintf(r->date, sizeof r->date, "2026-11-30T06:35:13Z");
    snprintf(r->os, sizeof r->os, "Linux 6.1.0 x86_64");
    snprintf(r->backend, sizeof r->backend, "libaio");
    snprintf(r->profile, sizeof r->profile, "custom");
    snprintf(r->sweep, sizeof r->sweep, "qd");
    snprintf(r->comment, sizeof r->comment, "%s", comment);
    snprintf(r->target.path, sizeof r->target.path, "/mnt/data, \"quoted\"");
    snprintf(r->target.fs_type, sizeof r->target.fs_type, "ext4");
    snprintf(r->target.device, sizeof r->target.device, "/dev/nvme0n1p2");
    snprintf(r->target.model, sizeof r->target.model, "-Samsung SSD 970 EVO Plus 1TB \xe2\x84\xa2");
    r->target.capacity_bytes = 1000204886016ULL;
    r->target.fs_free_bytes = 18446744073709551615ULL; /* the largest a cell holds */
    r->target.fs_size_bytes = 983351951360ULL;
    r->size = 1ULL << 30;
    r->passes = 3;
    r->measure_s = 5;
    r->warmup_s = 2.5;
    r->interval_s = 0;
    r->data = DMK_DATA_ZERO;
    r->complete = false;
    add_test(r, "RND4K Q32T1", DMK_MODE_MIX, 70, 3);
    add_test(r, "SEQ1M Q8T1", DMK_MODE_READ, 100, 0);
    add_test(r, "SEQ1M Q8T1", DMK_MODE_WRITE, 0, n_samples);
    return r;
}

/* A cell keeps 3 (or, for IOPS, 2) decimals: a value read back is within
 * half a unit of the last one, and a hair more, since 1.4545 may print as
 * 1.455 when its binary value lies a hair above it. */
#define HALF_MILLI 0.00051
#define HALF_CENTI 0.0051

static void check_same_stats(const DmkStats *a, const DmkStats *b)
{
    for (size_t k = 0; k < dmk_stat_field_count; k++)
        DMK_CHECK_NEAR(dmk_stat_get(a, &dmk_stat_fields[k]), dmk_stat_get(b, &dmk_stat_fields[k]),
                       0.0051);
}

/* The same temperature to the cell's one decimal, or both none (NaN). */
static void check_same_temp(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        if (isnan(a) != isnan(b))
            printf("# temperature %g, expected %g\n", b, a);
        DMK_CHECK(isnan(a) == isnan(b));
        return;
    }
    DMK_CHECK_NEAR(a, b, 0.051); /* one decimal, and a hair (see HALF_MILLI) */
}

static void check_same_test(const DmkTestResult *a, const DmkTestResult *b)
{
    DMK_CHECK_STR(a->test.name, b->test.name);
    DMK_CHECK_STR(a->test.label, b->test.label);
    DMK_CHECK(a->test.rate_iops == b->test.rate_iops);
    DMK_CHECK_INT(a->partial, b->partial);
    DMK_CHECK_INT(a->test.mode, b->test.mode);
    DMK_CHECK_INT(a->test.n_jobs, 1);
    DMK_CHECK(memcmp(&a->test.jobs[0], &b->test.jobs[0], sizeof(DmkJob)) == 0);
    DMK_CHECK_INT(a->n_passes, b->n_passes);
    DMK_CHECK_INT(a->best_pass, b->best_pass);
    DMK_CHECK_NEAR(a->mb_s_median, b->mb_s_median, HALF_MILLI);
    DMK_CHECK_NEAR(a->mb_s_min, b->mb_s_min, HALF_MILLI);
    DMK_CHECK_NEAR(a->mb_s_max, b->mb_s_max, HALF_MILLI);
    check_same_stats(&a->score.total, &b->score.total);
    DMK_CHECK_NEAR(a->score.write.lat_p99_us, b->score.write.lat_p99_us, HALF_MILLI);
    /* the achieved read share, to the digit the file keeps */
    DMK_CHECK(dmk_pass_read_pct(&a->score) == dmk_pass_read_pct(&b->score) ||
              a->test.mode != DMK_MODE_MIX);
    for (uint32_t p = 0; p < a->n_passes && p < b->n_passes; p++) {
        DMK_CHECK(dmk_pass_read_pct(&a->passes[p]) == dmk_pass_read_pct(&b->passes[p]) ||
                  a->test.mode != DMK_MODE_MIX);
        check_same_stats(&a->passes[p].total, &b->passes[p].total);
        DMK_CHECK_NEAR(a->passes[p].read.mb_s, b->passes[p].read.mb_s, HALF_MILLI);
        DMK_CHECK_NEAR(a->passes[p].write.iops, b->passes[p].write.iops, HALF_CENTI);
    }
    DMK_CHECK_INT(a->n_samples, b->n_samples);
    for (size_t i = 0; i < a->n_samples && i < b->n_samples; i++) {
        DMK_CHECK_NEAR(a->samples[i].t_s, b->samples[i].t_s, HALF_MILLI);
        DMK_CHECK_NEAR(a->samples[i].mb_s, b->samples[i].mb_s, HALF_MILLI);
        DMK_CHECK_NEAR(a->samples[i].iops, b->samples[i].iops, HALF_CENTI);
        DMK_CHECK_NEAR(a->samples[i].lat_mean_us, b->samples[i].lat_mean_us, HALF_MILLI);
        check_same_temp(a->samples[i].temp_c, b->samples[i].temp_c);
    }
}

static void check_same(const DmkRunResult *a, const DmkRunResult *b)
{
    DMK_CHECK_STR(a->version, b->version);
    DMK_CHECK_STR(a->date, b->date);
    DMK_CHECK_STR(a->os, b->os);
    DMK_CHECK_STR(a->backend, b->backend);
    DMK_CHECK_STR(a->profile, b->profile);
    DMK_CHECK_STR(a->sweep, b->sweep);
    DMK_CHECK_STR(a->lab, b->lab);
    DMK_CHECK_STR(a->comment, b->comment);
    DMK_CHECK_STR(a->lab_note, b->lab_note);
    DMK_CHECK_STR(a->target.temp_sensor, b->target.temp_sensor);
    DMK_CHECK_STR(a->target.path, b->target.path);
    DMK_CHECK_STR(a->target.fs_type, b->target.fs_type);
    DMK_CHECK_STR(a->target.device, b->target.device);
    DMK_CHECK_STR(a->target.model, b->target.model);
    DMK_CHECK(a->target.capacity_bytes == b->target.capacity_bytes);
    DMK_CHECK(a->target.fs_free_bytes == b->target.fs_free_bytes);
    DMK_CHECK(a->target.fs_size_bytes == b->target.fs_size_bytes);
    DMK_CHECK(a->size == b->size);
    DMK_CHECK_INT(a->passes, b->passes);
    DMK_CHECK(a->measure_s == b->measure_s && a->warmup_s == b->warmup_s);
    DMK_CHECK(a->interval_s == b->interval_s);
    DMK_CHECK_INT(a->data, b->data);
    DMK_CHECK_INT(a->complete, b->complete);
    DMK_CHECK_INT(a->n_tests, b->n_tests);
    for (size_t i = 0; i < a->n_tests && i < b->n_tests; i++)
        check_same_test(&a->tests[i], &b->tests[i]);
}

/* ---- tests --------------------------------------------------------------- */

/* The writer's header is the table the reader checks against. */
static void test_column_table(void)
{
    size_t n = dmk_csv_column_count();
    DMK_CHECK(n <= DMK_CSV_MAX_COLUMNS);
    DMK_CHECK_INT(n, DMK_COL_N_HEAD + dmk_stat_field_count + DMK_COL_N_TAIL);
    DMK_CHECK_STR(dmk_csv_column(DMK_COL_SWEEP).name, "sweep");
    DMK_CHECK_INT(dmk_csv_column(DMK_COL_SWEEP).since, 2);
    /* schema 3's columns, and the schema the writer writes is the newest */
    const struct {
        size_t col;
        const char *name;
    } added[] = {
        {DMK_COL_TEMP_SENSOR, "temp_sensor"},
        {DMK_COL_LAB, "lab"},
        {DMK_COL_LAB_NOTE, "lab_note"},
        {DMK_COL_LABEL, "label"},
        {DMK_COL_RATE_IOPS, "rate_iops"},
        {DMK_COL_TEMP_C, "temp_c"},
        {dmk_csv_col_tail(DMK_COL_PARTIAL), "partial"},
    };
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        DMK_CHECK_STR(dmk_csv_column(added[i].col).name, added[i].name);
        DMK_CHECK_INT(dmk_csv_column(added[i].col).since, 3);
    }
    int newest = 0, n3 = 0;
    for (size_t i = 0; i < n; i++) {
        newest = dmk_csv_column(i).since > newest ? dmk_csv_column(i).since : newest;
        n3 += dmk_csv_column(i).since == 3;
    }
    /* Schema 7 added no column, only rules for the cells (empty where a
     * column does not apply; pandas' missing-value words marked); schema
     * 8 the surface scan's offset. */
    DMK_CHECK_INT(newest, 8);
    DMK_CHECK_INT(DMK_CSV_SCHEMA, 8);
    DMK_CHECK_STR(dmk_csv_column(DMK_COL_OFFSET).name, "offset");
    DMK_CHECK_STR(dmk_csv_column(dmk_csv_col_tail(DMK_COL_VERIFY_BLOCKS)).name, "verify_blocks");
    DMK_CHECK_INT(dmk_csv_column(dmk_csv_col_tail(DMK_COL_VERIFY_BLOCKS)).since, 4);
    DMK_CHECK_STR(dmk_csv_column(dmk_csv_col_tail(DMK_COL_VERIFY_S)).name, "verify_s");
    DMK_CHECK_INT(n3, 7);
    DMK_CHECK_STR(dmk_csv_column(dmk_csv_col_stat(0)).name, "mb_s");
    DMK_CHECK_STR(dmk_csv_column(dmk_csv_col_tail(DMK_COL_WRITE_LAT_P99)).name, "write_lat_p99_us");
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < i; k++)
            DMK_CHECK(strcmp(dmk_csv_column(i).name, dmk_csv_column(k).name) != 0);
}

/* The verify option's cells (schema 4): a test with two bad blocks, a
 * clean one, and one not verified come back as they were. */
static void test_round_trip_verify(void)
{
    DmkRunResult *r = build_result("verify", 2);
    if (!r || r->n_tests < 2) {
        DMK_CHECK(false);
        dmk_run_result_free(r);
        return;
    }
    uint64_t bs = r->tests[0].test.jobs[0].block_size;
    r->tests[0].verify = (DmkVerifyResult){.checked = true,
                                           .blocks = 256,
                                           .bytes = 256 * bs,
                                           .bad = 2,
                                           .skipped = 3,
                                           .first_bad_block = 5 * bs,
                                           .first_bad_byte = 5 * bs + 77,
                                           .first_bad_why = DMK_VERIFY_CORRUPT,
                                           .seconds = 0.25};
    uint64_t bs1 = r->tests[1].test.jobs[0].block_size;
    r->tests[1].verify =
        (DmkVerifyResult){.checked = true, .blocks = 16, .bytes = 16 * bs1, .seconds = 1.5};
    DmkRunResult *back = round_trip(r);
    DMK_CHECK(back != NULL);
    for (size_t i = 0; back && i < r->n_tests; i++) {
        const DmkVerifyResult *a = &r->tests[i].verify, *b = &back->tests[i].verify;
        DMK_CHECK_INT(b->checked, a->checked);
        DMK_CHECK_INT(b->blocks, a->blocks);
        DMK_CHECK_INT(b->bytes, a->bytes);
        DMK_CHECK_INT(b->bad, a->bad);
        DMK_CHECK_INT(b->skipped, a->skipped);
        DMK_CHECK_INT(b->first_bad_block, a->first_bad_block);
        DMK_CHECK_INT(b->first_bad_byte, a->first_bad_byte);
        DMK_CHECK_INT(b->first_bad_why, a->first_bad_why);
        DMK_CHECK_NEAR(b->seconds, a->seconds, 1e-9);
    }
    DmkVerifyResult sum;
    if (back) {
        dmk_run_result_verify(back, &sum);
        DMK_CHECK_INT(sum.blocks, 272);
        DMK_CHECK_INT(sum.bad, 2);
        DMK_CHECK_INT(sum.first_bad_byte, 5 * bs + 77);
    }
    dmk_run_result_free(back);
    dmk_run_result_free(r);
}

/* A raw device's result opens again as a device's (its report says
 * "raw device of", not free space). */
static void test_round_trip_device(void)
{
    DmkRunResult *r = build_result("device", 1);
    if (!r) {
        DMK_CHECK(false);
        return;
    }
    snprintf(r->target.fs_type, sizeof r->target.fs_type, "%s", DMK_FS_TYPE_DEVICE);
    r->target.is_device = true;
    DmkRunResult *back = round_trip(r);
    DMK_CHECK(back && back->target.is_device);
    dmk_run_result_free(back);
    r->target.is_device = false;
    snprintf(r->target.fs_type, sizeof r->target.fs_type, "ext4");
    back = round_trip(r);
    DMK_CHECK(back && !back->target.is_device);
    dmk_run_result_free(back);
    dmk_run_result_free(r);
}

static void test_round_trip(void)
{
    /* Schema 7 marks a leading apostrophe too: "'=x" and "'null" come
     * back as they were, not as "=x" and "null". */
    static const char *comments[] = {"=1+2",  "say \"hi\", then\r\nleave; caf\xc3\xa9",
                                     "'=x",   "\tstarts with a tab",
                                     "",      "@home",
                                     "+1",    "-",
                                     "null",  "NA",
                                     "'null", "'",
                                     "''",    "n/a"};
    for (size_t i = 0; i < sizeof comments / sizeof comments[0]; i++) {
        DmkRunResult *r = build_result(comments[i], 5);
        DmkRunResult *back = round_trip(r);
        if (back)
            check_same(r, back);
        dmk_run_result_free(back);
        dmk_run_result_free(r);
    }
}

/* A review-lab result: two steps of one test told apart by their label,
 * the second stopped; its context, rates and temperatures (none: NaN)
 * come back the same, and saved again it is the same bytes. */
static void test_round_trip_lab(void)
{
    DmkRunResult r;
    DmkTestResult t[2];
    DmkPassResult passes[2];
    DmkSample samples[DMK_TEST_LAB_SAMPLES];
    dmk_test_build_lab_result(&r, &t[1], passes, samples);
    t[0] = t[1];
    snprintf(t[0].test.label, sizeof t[0].test.label, "fresh");
    t[0].test.rate_iops = 0;
    t[0].partial = false;
    t[0].n_samples = 0;
    r.tests = t;
    r.n_tests = 2;
    DmkRunResult *back = round_trip(&r);
    DMK_CHECK(back != NULL);
    if (!back)
        return;
    check_same(&r, back);
    /* the values themselves, not only that they agree */
    DMK_CHECK_STR(back->lab, "sustained");
    DMK_CHECK_STR(back->lab_note, "TRIM: 2.00 GiB punched, \"fstrim\" not permitted, as a user");
    DMK_CHECK_STR(back->target.temp_sensor, "nvme0 Composite (hwmon2)");
    DMK_CHECK_INT(back->target.discard, -1); /* the file does not say */
    DMK_CHECK(back->size == 2000398934016ULL);
    DMK_CHECK_INT(back->passes, 5);
    DMK_CHECK_INT(back->complete, 0);
    DMK_CHECK_INT(back->n_tests, 2);
    if (back->n_tests == 2) {
        const DmkTestResult *a = &back->tests[0], *b = &back->tests[1];
        DMK_CHECK_STR(a->test.label, "fresh");
        DMK_CHECK_STR(b->test.label, "after TRIM");
        DMK_CHECK_INT(a->partial, 0);
        DMK_CHECK_INT(b->partial, 1);
        DMK_CHECK(a->test.rate_iops == 0 && b->test.rate_iops == 12345);
        DMK_CHECK_INT(b->n_passes, 1);
        DMK_CHECK_INT(b->n_samples, DMK_TEST_LAB_SAMPLES);
        for (size_t i = 0; i < b->n_samples && i < DMK_TEST_LAB_SAMPLES; i++)
            check_same_temp(dmk_test_lab_temp(i), b->samples[i].temp_c);
        if (b->n_samples == DMK_TEST_LAB_SAMPLES) {
            DMK_CHECK(b->samples[0].temp_c == 41.0);
            DMK_CHECK(b->samples[49].temp_c == 79.5);
            DMK_CHECK(b->samples[9].temp_c == -12.5);
            DMK_CHECK(isnan(b->samples[2].temp_c) && isnan(b->samples[46].temp_c));
        }
    }
    dmk_run_result_free(back);
}

/* Only a lab run may be larger than DMK_SIZE_MAX: the same file without
 * its lab is refused. */
static void test_lab_size_limit(void)
{
    DmkTestLab lab;
    dmk_test_lab_init(&lab);
    lab.r.lab[0] = '\0';
    size_t len = 0;
    char *s = write_csv(&lab.r, &len);
    if (!s)
        return;
    DmkRunResult *back = NULL;
    DmkError err = {0};
    DMK_CHECK(dmk_csv_load_mem("r.csv", s, len, &back, &err) != DMK_OK);
    DMK_CHECK(back == NULL);
    DMK_CHECK(strstr(err.msg, "(test_size): '2000398934016' is out of range") != NULL);
    printf("# %s\n", err.msg);
    dmk_run_result_free(back);
    free(s);
}

/* A whole run on the null backend, timeline included. */
static void test_round_trip_of_a_run(void)
{
    DmkRunSpec *spec = dmk_test_spec_new(".", 64ULL << 20, 0.2);
    spec->passes = 2;
    spec->timeline_s = 0.05;
    DmkJob j[2];
    DmkError err = {0};
    dmk_job_parse_name("SEQ1M Q8T1", &j[0], NULL);
    dmk_job_parse_name("RND4K Q32T1", &j[1], NULL);
    DMK_CHECK_INT(dmk_run_spec_add_all(spec, j, 2, DMK_RUN_READ_WRITE, 0, &err), DMK_OK);
    dmk_run_spec_add(spec, &j[1], DMK_MODE_MIX, 70, &err);
    DmkRunner *runner = dmk_runner_new(spec, dmk_backend_null());
    DmkRunResult *res = NULL;
    DMK_CHECK_INT(dmk_runner_run(runner, NULL, &res, &err), DMK_OK);
    dmk_runner_free(runner);
    free(spec);
    if (!res)
        return;
    DMK_CHECK(res->tests[0].n_samples >= 4);
    DmkRunResult *back = round_trip(res);
    if (back)
        check_same(res, back);
    dmk_run_result_free(back);
    dmk_run_result_free(res);
}

/* A 2-hour run sampled every 100 ms: 72,000 rows load in well under a
 * second of CPU time (0.2 s; a loader quadratic in the rows would take
 * minutes). CPU time, not the clock: a loaded machine that shares its
 * cores out does not make the loader use more of it. */
static void test_long_timeline(void)
{
    char path[1100];
    path_in(tmp_dir(), "test-csv-read-72000.csv", path, sizeof path);
    DmkRunResult *r = build_result("long", 72000);
    FILE *f = fopen(path, "wb");
    DMK_CHECK(f != NULL);
    if (!f) {
        dmk_run_result_free(r);
        return;
    }
    DmkError err = {0};
    DMK_CHECK_INT(dmk_csv_write(f, r, path, &err), DMK_OK);
    long size = ftell(f);
    fclose(f);
    DmkRunResult *back = NULL;
    clock_t c0 = clock();
    int rc = dmk_csv_load(path, &back, &err);
    double took = (double)(clock() - c0) / CLOCKS_PER_SEC;
    printf("# %ld bytes, %zu samples loaded in %.3f s of CPU time\n", size,
           back ? back->tests[2].n_samples : 0, took);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(took < 3.0);
    if (back) {
        check_same(r, back);
        size_t len = 0;
        char *again = write_csv(back, &len);
        FILE *orig = fopen(path, "rb");
        char *text = orig ? malloc((size_t)size) : NULL;
        DMK_CHECK(text && fread(text, 1, (size_t)size, orig) == (size_t)size);
        DMK_CHECK(again && len == (size_t)size && memcmp(again, text, len) == 0);
        free(text);
        free(again);
        if (orig)
            fclose(orig);
    }
    remove(path);
    dmk_run_result_free(back);
    dmk_run_result_free(r);
}

/* Files of the first schema (no sweep column) still load. */
static void test_schema_1(void)
{
    char path[1100];
    DmkRunResult *r = NULL;
    DmkError err = {0};
    int rc = dmk_csv_load(path_in(data_dir, "schema1.csv", path, sizeof path), &r, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    if (!r)
        return;
    DMK_CHECK_STR(r->sweep, "");
    DMK_CHECK_STR(r->target.path, "/mnt/review-ssd");
    DMK_CHECK_STR(r->profile, "custom");
    DMK_CHECK_INT(r->passes, 2);
    DMK_CHECK_INT(r->n_tests, 4);
    static const char *names[] = {"SEQ1M Q8T1", "SEQ1M Q8T1", "RND4K Q1T1", "RND4K Q1T1"};
    for (size_t i = 0; i < 4 && i < r->n_tests; i++) {
        DMK_CHECK_STR(r->tests[i].test.name, names[i]);
        DMK_CHECK_INT(r->tests[i].test.mode, i % 2 ? DMK_MODE_WRITE : DMK_MODE_READ);
        DMK_CHECK_INT(r->tests[i].n_passes, 2);
        DMK_CHECK(r->tests[i].n_samples >= 2);
        DMK_CHECK(r->tests[i].score.total.mb_s > 0);
    }
    /* what schema 3 added: nothing, and no temperature rather than 0 C */
    DMK_CHECK_STR(r->lab, "");
    DMK_CHECK_STR(r->target.temp_sensor, "");
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        DMK_CHECK_STR(t->test.label, "");
        DMK_CHECK(t->test.rate_iops == 0 && !t->partial);
        for (size_t k = 0; k < t->n_samples; k++)
            DMK_CHECK(isnan(t->samples[k].temp_c));
    }
    DMK_CHECK_INT(r->tests[0].test.jobs[0].block_size, 1 << 20);
    DMK_CHECK_INT(r->tests[0].test.jobs[0].queue_depth, 8);
    DMK_CHECK_NEAR(r->tests[0].score.total.mb_s, 40149849.211, 0.0005);
    /* saved again it is a schema 3 file with the same content */
    DmkRunResult *again = round_trip(r);
    if (again)
        check_same(r, again);
    dmk_run_result_free(again);
    dmk_run_result_free(r);
}

/* A schema 2 file (the corpus's plain one) has no temperatures: NaN, not 0. */
static void test_schema_2(void)
{
    char path[1100];
    DmkRunResult *r = NULL;
    DmkError err = {0};
    int rc = dmk_csv_load(path_in(data_dir, "bad-csv/ok-lf-only.csv", path, sizeof path), &r, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    if (!r)
        return;
    DMK_CHECK_STR(r->lab, "");
    DMK_CHECK_STR(r->lab_note, "");
    DMK_CHECK_INT(r->n_tests, 1);
    if (r->n_tests == 1) {
        const DmkTestResult *t = &r->tests[0];
        DMK_CHECK_INT(t->n_samples, 2);
        for (size_t k = 0; k < t->n_samples; k++)
            DMK_CHECK(isnan(t->samples[k].temp_c));
        DMK_CHECK_NEAR(t->samples[0].mb_s, 410.2, 1e-9);
        DMK_CHECK_STR(t->test.label, "");
        DMK_CHECK(!t->partial && t->test.rate_iops == 0);
    }
    DmkRunResult *again = round_trip(r);
    if (again)
        check_same(r, again);
    dmk_run_result_free(again);
    dmk_run_result_free(r);
}

static bool load_bad(const char *name, const char *expected)
{
    char path[1100];
    DmkRunResult *r = NULL;
    DmkError err = {0};
    path_in(data_dir, "bad-csv", path, sizeof path);
    size_t used = strlen(path);
    snprintf(path + used, sizeof path - used, "/%s", name);
    int rc = dmk_csv_load(path, &r, &err);
    bool accepted = strcmp(expected, "(accepted)") == 0;
    bool ok = accepted ? rc == DMK_OK && r && r->n_tests == 1 && r->tests[0].n_passes == 2
                       : rc != DMK_OK && !r && strstr(err.msg, expected) &&
                             strncmp(err.msg, path, strlen(path)) == 0;
    if (!ok)
        printf("# %s: rc %d, message \"%s\", expected \"%s\"\n", name, rc, err.msg, expected);
    else if (!accepted)
        printf("# %s\n", err.msg);
    dmk_run_result_free(r);
    return ok;
}

/* tests/data/bad-csv: each file with the message it must give (EXPECTED). */
static void test_bad_files(void)
{
    char path[1100], line[600];
    path_in(data_dir, "bad-csv/EXPECTED", path, sizeof path);
    FILE *f = fopen(path, "r");
    DMK_CHECK(f != NULL);
    if (!f)
        return;
    int n = 0;
    char listed[8192] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab)
            continue;
        *tab = '\0';
        DMK_CHECK(load_bad(line, tab + 1));
        size_t u = strlen(listed);
        snprintf(listed + u, sizeof listed - u, "/%s/", line);
        n++;
    }
    fclose(f);
    DMK_CHECK(n >= 40);
    /* no file in the folder goes untested */
    DIR *d = opendir(path_in(data_dir, "bad-csv", path, sizeof path));
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char key[300];
        snprintf(key, sizeof key, "/%s/", e->d_name);
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0 && !strstr(listed, key)) {
            printf("# %s is not in EXPECTED\n", e->d_name);
            DMK_CHECK(0);
        }
    }
    if (d)
        closedir(d);
}

/* Over the 64 MiB cap: refused before anything is read (a sparse file). */
static void test_too_large(void)
{
    char path[1100];
    path_in(tmp_dir(), "test-csv-read-huge.csv", path, sizeof path);
    FILE *f = fopen(path, "wb");
    DMK_CHECK(f != NULL);
    if (!f)
        return;
    DMK_CHECK(fseek(f, (long)DMK_CSV_READ_MAX_BYTES, SEEK_SET) == 0);
    fputc('\n', f);
    fclose(f);
    DmkRunResult *r = NULL;
    DmkError err = {0};
    DMK_CHECK(dmk_csv_load(path, &r, &err) != DMK_OK);
    DMK_CHECK(r == NULL);
    DMK_CHECK(strstr(err.msg, "larger than 64 MiB") != NULL);
    DMK_CHECK(strncmp(err.msg, path, strlen(path)) == 0);
    printf("# %s\n", err.msg);
    remove(path);
}

static void test_missing_file(void)
{
    DmkRunResult *r = (DmkRunResult *)&r; /* must become NULL */
    DmkError err = {0};
    DMK_CHECK(dmk_csv_load("no-such-dir/r.csv", &r, &err) != DMK_OK);
    DMK_CHECK(r == NULL);
    DMK_CHECK(strstr(err.msg, "no-such-dir/r.csv") != NULL);
    DMK_CHECK(strstr(err.msg, "No such file") != NULL);
}

/* The GUI runs in the user's locale: "412.345" is still 412.345 there. */
static void test_locale(void)
{
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    if (!got)
        DMK_SKIP("no locale with a decimal comma is installed");
    DmkRunResult *r = build_result("locale", 2);
    DmkRunResult *back = round_trip(r);
    setlocale(LC_NUMERIC, "C");
    if (back) {
        check_same(r, back);
        DMK_CHECK_NEAR(back->tests[1].score.total.mb_s, 410.125, 1e-9);
        DMK_CHECK_NEAR(back->warmup_s, 2.5, 1e-12);
    }
    dmk_run_result_free(back);
    dmk_run_result_free(r);
}

/* ---- exact column counts, the file system's size (round two) -------------- */

/* text with ",x" added to the end of its line `line` (1-based), loaded: the
 * message, in msg. */
static void load_with_extra(const char *text, size_t len, unsigned line, const char *extra,
                            char *msg, size_t cap)
{
    char *out = malloc(len + 64);
    size_t o = 0, l = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\r' && l == line) {
            memcpy(out + o, extra, strlen(extra));
            o += strlen(extra);
        }
        out[o++] = text[i];
        if (text[i] == '\n')
            l++;
    }
    DmkError err = {0};
    DmkRunResult *r = NULL;
    DMK_CHECK(dmk_csv_load_mem("r.csv", out, o, &r, &err) != DMK_OK);
    snprintf(msg, cap, "%s", err.msg);
    printf("# %s\n", err.msg);
    dmk_run_result_free(r);
    free(out);
}

/* One column too many on the first row, a later row or the header: the
 * message names that line and the real count (it said "more than N" or
 * blamed the next line before). */
static void test_column_counts_exact(void)
{
    DmkRunResult *r = build_result("counts", 2);
    size_t len = 0;
    char *text = write_csv(r, &len);
    char want[160], msg[768];
    size_t n = dmk_csv_column_count();
    load_with_extra(text, len, 2, ",x", msg, sizeof msg);
    snprintf(want, sizeof want, "r.csv: line 2: %zu columns, but the header (line 1) has %zu",
             n + 1, n);
    DMK_CHECK_STR(msg, want);
    load_with_extra(text, len, 3, ",x,y,z", msg, sizeof msg);
    snprintf(want, sizeof want, "r.csv: line 3: %zu columns, but the header (line 1) has %zu",
             n + 3, n);
    DMK_CHECK_STR(msg, want);
    load_with_extra(text, len, 1, ",x", msg, sizeof msg);
    snprintf(want, sizeof want, "r.csv: line 1, column %zu: unknown column 'x' in a schema %d file",
             n + 1, DMK_CSV_SCHEMA);
    DMK_CHECK_STR(msg, want);
    free(text);
    dmk_run_result_free(r);
}

/* Schema 5 keeps the file system's size ("free of"); a schema 4 file
 * still loads, without it (0, which the report leaves out). */
static void test_fs_size_column(void)
{
    DMK_CHECK_STR(dmk_csv_column(DMK_COL_FS_SIZE).name, "fs_size_bytes");
    DMK_CHECK_INT(dmk_csv_column(DMK_COL_FS_SIZE).since, 5);
    DMK_CHECK(DMK_CSV_SCHEMA >= 5);
    DmkRunResult *r = build_result("fs size", 1);
    DmkRunResult *back = round_trip(r);
    DMK_CHECK(back && back->target.fs_size_bytes == 983351951360ULL);
    dmk_run_result_free(back);
    dmk_run_result_free(r);
    char path[1024];
    DmkError err = {0};
    DmkRunResult *old = NULL;
    int rc = dmk_csv_load(path_in(data_dir, "bad-csv/ok-schema4-verify.csv", path, sizeof path),
                          &old, &err);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(old && old->target.fs_size_bytes == 0 && old->target.fs_free_bytes > 0);
    dmk_run_result_free(old);
}

/* Cell `col` (0-based) of line `line` (1-based; 0: every line but the
 * header) of a CSV text replaced by `cell`, or removed with its comma
 * when `cell` is NULL; quoted cells (commas, "" inside) are skipped
 * whole. A new malloc'd text, its length in *len. */
static char *edit_cell(const char *text, size_t len, unsigned line, size_t col, const char *cell,
                       size_t *out_len)
{
    char *out = malloc(len + 64 * 1024);
    size_t o = 0, field = 0;
    unsigned l = 1;
    bool quoted = false;
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        bool target = field == col && (line ? l == line : l > 1);
        bool at_start = i == 0 || (!quoted && (text[i - 1] == ',' || text[i - 1] == '\n'));
        if (target && at_start && cell) {
            memcpy(out + o, cell, strlen(cell));
            o += strlen(cell);
        }
        if (ch == '"')
            quoted = !quoted;
        if (!quoted && ch == ',') {
            field++;
            if (target && !cell)
                continue; /* the removed cell's comma */
        } else if (!quoted && (ch == '\r' || ch == '\n')) {
            if (ch == '\n') {
                l++;
                field = 0;
            }
        } else if (target) {
            continue; /* the old cell's text */
        }
        out[o++] = ch;
    }
    *out_len = o;
    return out;
}

/* The text of the cell at line, col ("" past the end). */
static void get_cell(const char *text, size_t len, unsigned line, size_t col, char *dst, size_t cap)
{
    size_t field = 0, o = 0;
    unsigned l = 1;
    bool quoted = false;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        char ch = text[i];
        if (ch == '"')
            quoted = !quoted;
        if (!quoted && ch == ',')
            field++;
        else if (!quoted && ch == '\n')
            l++, field = 0;
        else if (l == line && field == col && ch != '"' && ch != '\r')
            dst[o++] = ch;
    }
    dst[o] = '\0';
}

/* A schema 7 file's empty cells as schema 6 and older wrote them: 0 for
 * a direction the test does not do (test and pass rows), no rate, an
 * unknown link. */
static char *with_old_zeros(const char *text, size_t len, size_t *out_len)
{
    char *cur = malloc(len);
    memcpy(cur, text, len);
    *out_len = len;
    unsigned lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    for (unsigned l = 2; l <= lines; l++) {
        char rec[16], v[32];
        get_cell(cur, *out_len, l, DMK_COL_RECORD, rec, sizeof rec);
        bool stats = strcmp(rec, "test") == 0 || strcmp(rec, "pass") == 0;
        const struct {
            size_t col;
            const char *zero;
            bool stats_only;
        } cells[] = {
            {DMK_COL_RATE_IOPS, "0", false},
            {DMK_COL_INTERFACE_MB_S, "0.0", false},
            {dmk_csv_col_direction(0), "0.000", true},
            {dmk_csv_col_direction(0) + 1, "0.00", true},
            {dmk_csv_col_direction(0) + 2, "0.000", true},
            {dmk_csv_col_direction(0) + 3, "0.000", true},
            {dmk_csv_col_direction(1), "0.000", true},
            {dmk_csv_col_direction(1) + 1, "0.00", true},
            {dmk_csv_col_direction(1) + 2, "0.000", true},
            {dmk_csv_col_direction(1) + 3, "0.000", true},
        };
        for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
            get_cell(cur, *out_len, l, cells[k].col, v, sizeof v);
            if (v[0] || (cells[k].stats_only && !stats))
                continue;
            char *next = edit_cell(cur, *out_len, l, cells[k].col, cells[k].zero, out_len);
            free(cur);
            cur = next;
        }
    }
    return cur;
}

static size_t share_col(void)
{
    return dmk_csv_col_tail(DMK_COL_READ_SHARE_ACHIEVED);
}

static char *load_error(const char *text, size_t len, char *msg, size_t cap)
{
    DmkError err = {0};
    DmkRunResult *r = NULL;
    DMK_CHECK(dmk_csv_load_mem("r.csv", text, len, &r, &err) != DMK_OK);
    printf("# %s\n", err.msg);
    snprintf(msg, cap, "%s", err.msg);
    dmk_run_result_free(r);
    return msg;
}

/* Schema 6 keeps a mixed test's achieved read share on its test and pass
 * rows (issue 18): it round-trips to the digit; a schema 5 file, without
 * the column, still loads and the share comes from the read and write
 * IOPS; a cell out of range, or one on a read or write test's row, is
 * refused. */
static void test_share_column(void)
{
    DMK_CHECK_STR(dmk_csv_column(share_col()).name, "read_share_achieved");
    DMK_CHECK_INT(dmk_csv_column(share_col()).since, 6);
    DMK_CHECK(DMK_CSV_SCHEMA >= 6);
    DmkRunResult *r = build_result("share", 0);
    DmkTestResult *mix = &r->tests[0];
    /* a run's passes count their I/Os: 1,114 reads of 1,590 is 70.063 % */
    for (uint32_t p = 0; p < mix->n_passes; p++) {
        mix->passes[p].read.ios = 1114 + p;
        mix->passes[p].write.ios = 476 - p;
    }
    mix->score = mix->passes[mix->best_pass];
    DMK_CHECK(dmk_pass_read_pct(&mix->passes[0]) == 70.063);
    DmkRunResult *back = round_trip(r);
    DMK_CHECK(back != NULL);
    if (back) {
        check_same(r, back);
        DMK_CHECK(dmk_pass_read_pct(&back->tests[0].passes[0]) == 70.063);
        DMK_CHECK(dmk_pass_read_pct(&back->tests[0].passes[2]) == 70.189);
        /* 0.1 point or more: 70.189 differs, 70.063 does not */
        DMK_CHECK(dmk_pass_share_differs(&back->tests[0].passes[2], 70));
        DMK_CHECK(!dmk_pass_share_differs(&back->tests[0].passes[0], 70));
    }
    dmk_run_result_free(back);

    size_t len = 0, len5 = 0, len_bad = 0;
    char *text = write_csv(r, &len);
    DMK_CHECK(text && strstr(text, ",read_share_achieved,") != NULL);
    DMK_CHECK(text && strstr(text, ",70.063,") != NULL);
    /* the same file as schema 5 wrote it: no share column, nor schema 6's
     * finding, value and unit before it, and "5" in the first */
    size_t len6 = 0;
    char *zeros = with_old_zeros(text, len, &len6);
    char *no_col = edit_cell(zeros, len6, 0, share_col(), NULL, &len5);
    free(zeros);
    char *header5 = edit_cell(no_col, len5, 1, share_col(), NULL, &len5);
    for (int k = 0; k < 3; k++) {
        char *rows = edit_cell(header5, len5, 0, DMK_COL_FINDING, NULL, &len5);
        free(header5);
        header5 = edit_cell(rows, len5, 1, DMK_COL_FINDING, NULL, &len5);
        free(rows);
    }
    /* nor schema 8's offset, before those */
    char *rows8 = edit_cell(header5, len5, 0, DMK_COL_OFFSET, NULL, &len5);
    free(header5);
    header5 = edit_cell(rows8, len5, 1, DMK_COL_OFFSET, NULL, &len5);
    free(rows8);
    char *old = edit_cell(header5, len5, 0, DMK_COL_SCHEMA, "5", &len5);
    DmkError err = {0};
    DmkRunResult *r5 = NULL;
    int rc = dmk_csv_load_mem("r.csv", old, len5, &r5, &err);
    if (rc != DMK_OK)
        printf("# schema 5: %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    if (r5) {
        /* from the IOPS: 280.5 and 120.25 MB/s of 4 KiB, 69.994 % */
        double pct = dmk_pass_read_pct(&r5->tests[0].passes[0]);
        printf("# schema 5: read %.3f %%\n", pct);
        DMK_CHECK_NEAR(pct, 100.0 * 280.5 / (280.5 + 120.25), 0.0006);
        DMK_CHECK(dmk_pass_read_pct(&r5->tests[1].passes[0]) == 100.0);
        DMK_CHECK(dmk_pass_read_pct(&r5->tests[2].passes[0]) == 0.0);
    }
    dmk_run_result_free(r5);

    char msg[sizeof err.msg];
    /* line 2 is the mixed test's row (3 passes, 3 samples), line 9 the read test's */
    char *bad = edit_cell(text, len, 2, share_col(), "100.5", &len_bad);
    DMK_CHECK_HAS(load_error(bad, len_bad, msg, sizeof msg), "out of range (0 to 100)");
    free(bad);
    bad = edit_cell(text, len, 9, share_col(), "100.000", &len_bad);
    DMK_CHECK_HAS(load_error(bad, len_bad, msg, sizeof msg),
                  "should be empty in a read or write test's row");
    free(bad);
    /* schema 7: the read test's write columns are empty; a 0 is refused
     * (an older file's 0.000 loads, above) */
    bad = edit_cell(text, len, 9, dmk_csv_col_direction(1), "0.000", &len_bad);
    DMK_CHECK_HAS(load_error(bad, len_bad, msg, sizeof msg),
                  "(write_mb_s): '0.000' should be empty in a read test's row");
    free(bad);
    free(no_col);
    free(header5);
    free(old);
    free(text);
    dmk_run_result_free(r);
}

/* Result files joined with cat: each header line starts a run, of any
 * schema; show and chart read each (dmk_csv_load_runs), a caller of one
 * result is told the file holds several; a header with no rows after it,
 * or rows of another run under one header, are refused. */
static void test_joined_files(void)
{
    DmkRunResult *a = build_result("first", 3), *b = build_result("second", 0);
    snprintf(b->date, sizeof b->date, "2026-12-01T10:00:00Z");
    size_t la = 0, lb = 0, l5 = 0;
    char *ta = write_csv(a, &la), *tb = write_csv(b, &lb);
    /* b as a schema 5 file: no schema 6 columns (nor its share cells) */
    size_t l6 = 0;
    char *zeros = with_old_zeros(tb, lb, &l6);
    char *t5 = edit_cell(zeros, l6, 0, share_col(), NULL, &l5);
    free(zeros);
    zeros = edit_cell(t5, l5, 1, share_col(), NULL, &l5);
    free(t5);
    t5 = zeros;
    for (int k = 0; k < 3; k++) {
        char *rows = edit_cell(t5, l5, 0, DMK_COL_FINDING, NULL, &l5);
        free(t5);
        t5 = edit_cell(rows, l5, 1, DMK_COL_FINDING, NULL, &l5);
        free(rows);
    }
    char *rows8 = edit_cell(t5, l5, 0, DMK_COL_OFFSET, NULL, &l5); /* schema 8's */
    free(t5);
    t5 = edit_cell(rows8, l5, 1, DMK_COL_OFFSET, NULL, &l5);
    free(rows8);
    zeros = edit_cell(t5, l5, 0, DMK_COL_SCHEMA, "5", &l5);
    free(t5);
    t5 = zeros;
    char *joined = malloc(la + l5 + la + 8);
    memcpy(joined, ta, la);
    memcpy(joined + la, t5, l5);
    memcpy(joined + la + l5, ta, la);
    DmkRunResult **runs = NULL;
    size_t n = 0;
    DmkError err = {0};
    int rc = dmk_csv_load_runs_mem("j.csv", joined, la + l5 + la, &runs, &n, &err);
    if (rc != DMK_OK)
        printf("# joined: %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK_INT(n, 3);
    if (rc == DMK_OK && n == 3) {
        check_same(a, runs[0]);
        DMK_CHECK_STR(runs[1]->comment, "second");
        DMK_CHECK_STR(runs[1]->date, "2026-12-01T10:00:00Z");
        DMK_CHECK_INT(runs[1]->n_tests, b->n_tests);
        check_same(a, runs[2]);
    }
    for (size_t i = 0; i < n; i++)
        dmk_run_result_free(runs[i]);
    free(runs);
    /* one result asked for: the file says it holds several */
    DmkRunResult *one = NULL;
    DMK_CHECK(dmk_csv_load_mem("j.csv", joined, la + l5, &one, &err) != DMK_OK && !one);
    DMK_CHECK_HAS(err.msg, "j.csv holds 2 runs (result files joined with cat)");
    /* a header and nothing after it, at the end */
    char hdr[8192];
    size_t lh = (size_t)(strchr(ta, '\n') - ta) + 1;
    memcpy(hdr, ta, lh < sizeof hdr ? lh : 0);
    memcpy(joined + la, hdr, lh);
    DMK_CHECK(dmk_csv_load_runs_mem("j.csv", joined, la + lh, &runs, &n, &err) != DMK_OK);
    DMK_CHECK_HAS(err.msg, "no results after this header line");
    /* b's rows under a's header, no header between: one file, two runs */
    memcpy(joined + la, tb + lh, lb - lh);
    DMK_CHECK(dmk_csv_load_runs_mem("j.csv", joined, la + lb - lh, &runs, &n, &err) != DMK_OK);
    DMK_CHECK_HAS(err.msg, "a file holds one run");
    free(joined);
    free(t5);
    free(ta);
    free(tb);
    dmk_run_result_free(a);
    dmk_run_result_free(b);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];
    DMK_TEST(test_column_table);
    DMK_TEST(test_round_trip);
    DMK_TEST(test_round_trip_verify);
    DMK_TEST(test_round_trip_device);
    DMK_TEST(test_round_trip_lab);
    DMK_TEST(test_lab_size_limit);
    DMK_TEST(test_round_trip_of_a_run);
    DMK_TEST(test_long_timeline);
    DMK_TEST(test_schema_1);
    DMK_TEST(test_schema_2);
    DMK_TEST(test_bad_files);
    DMK_TEST(test_too_large);
    DMK_TEST(test_missing_file);
    DMK_TEST(test_locale);
    DMK_TEST(test_column_counts_exact);
    DMK_TEST(test_fs_size_column);
    DMK_TEST(test_share_column);
    DMK_TEST(test_joined_files);
    return dmk_test_done();
}
