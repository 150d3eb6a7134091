/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Honest numbers: the flags' rules (peak, over the interface, a queue
 * that fell short), their words, the achieved queue depth the engine
 * measures on the fault backend with a capped submit, and the flags
 * through JSON, the text report and (where libcsv is) a CSV round trip. */
#include "dmk-test.h"
#include "dmk-test-result.h"
#include "dmk-test-scratch.h"
#include "dmk-test-spec.h"

#include "dmk-json.h"
#include "dmk-report.h"
#include "dmk-runner.h"
#include "fault/dmk-fault.h"
#ifdef DMK_TEST_CSV
#include "dmk-csv-read.h"
#include "dmk-csv.h"
#endif

#define GIB (1ULL << 30)

/* The fixture's RND4K Q32T1 (mix, 114.7 MB/s read, 49.2 MB/s write). */
typedef struct {
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
} Fixture;

static void fixture(Fixture *f)
{
    dmk_test_build_result(&f->r, &f->t, f->passes, f->samples, "");
    f->r.tests = &f->t;
}

static void test_peak_rule(void)
{
    Fixture f;
    fixture(&f);
    f.r.size = 1 * GIB; /* CrystalDiskMark's default */
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_PEAK);
    f.r.size = 16 * GIB - 1;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_PEAK);
    f.r.size = 16 * GIB; /* the reviews' smallest span past the cache */
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    f.r.size = 32 * GIB;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
}

static void test_over_interface(void)
{
    Fixture f;
    fixture(&f);
    f.r.size = 32 * GIB;
    /* unknown link: no check */
    f.t.score.read.mb_s = 5000;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    snprintf(f.r.target.iface, sizeof f.r.target.iface, "SATA 6.0 Gbps");
    f.r.target.iface_bytes_s = 600000000;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_OVER_INTERFACE);
    f.t.score.read.mb_s = 560; /* a real SATA drive */
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    /* per direction: 400 + 400 over a 600 MB/s link is not flagged */
    f.t.score.read.mb_s = 400;
    f.t.score.write.mb_s = 400;
    f.t.score.total.mb_s = 800;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    f.t.score.write.mb_s = 600.5;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_OVER_INTERFACE);
    char m[64], tip[512];
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_OVER_INTERFACE, m, sizeof m, tip, sizeof tip);
    DMK_CHECK_STR(m, "over SATA limit");
    DMK_CHECK(strstr(tip, "600.5 MB/s") && strstr(tip, "SATA 6.0 Gbps") && strstr(tip, "600 MB/s"));
}

static void test_low_qd_rule(void)
{
    Fixture f;
    fixture(&f);
    f.r.size = 32 * GIB;
    DMK_CHECK_INT(dmk_test_asked_qd(&f.t.test), 32);
    f.t.achieved_qd = 0; /* not measured (an older file) */
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    f.t.achieved_qd = 31.2;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    f.t.achieved_qd = 28.7;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_LOW_QD);
    char m[64];
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_LOW_QD, m, sizeof m, NULL, 0);
    DMK_CHECK_STR(m, "QD 28.7 of 32");
    /* a rate-limited test keeps fewer in flight on purpose */
    f.t.test.rate_iops = 1000;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    f.t.test.rate_iops = 0;
    /* QD1: the engine's own turnaround is no short queue */
    f.t.test.jobs[0].queue_depth = 1;
    f.t.achieved_qd = 0.6;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    /* threads count: Q8T4 asks 32 */
    f.t.test.jobs[0].queue_depth = 8;
    f.t.test.jobs[0].threads = 4;
    f.t.achieved_qd = 8.0;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_LOW_QD);
}

static void test_names(void)
{
    char b[128];
    uint32_t v = 99;
    DMK_CHECK_STR(dmk_flags_format(0, b, sizeof b), "");
    DMK_CHECK_STR(dmk_flags_format(DMK_FLAG_ALL, b, sizeof b),
                  "peak over_interface low_qd ram_backed storage_unknown paused cached");
    DMK_CHECK(dmk_flags_parse("", &v) && v == 0);
    DMK_CHECK(dmk_flags_parse("low_qd peak", &v) && v == (DMK_FLAG_LOW_QD | DMK_FLAG_PEAK));
    static const char *bad[] = {"peak peak", "fast", "peak ", " peak", "peak  low_qd", "PEAK"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        DMK_CHECK(!dmk_flags_parse(bad[i], &v));
    DMK_CHECK_STR(dmk_fs_feature_name(DMK_FS_FEATURE_OFF), "off");
    DMK_CHECK_INT(dmk_fs_feature_parse("active"), DMK_FS_FEATURE_ACTIVE);
    DMK_CHECK_INT(dmk_fs_feature_parse("on"), -1);
}

static void test_fs_notes(void)
{
    Fixture f;
    fixture(&f);
    char notes[1024];
    dmk_run_fs_notes(&f.r, notes, sizeof notes);
    DMK_CHECK_STR(notes, "");
    snprintf(f.r.target.fs_type, sizeof f.r.target.fs_type, "btrfs");
    f.r.target.cow = DMK_FS_FEATURE_OFF;
    f.r.target.compression = DMK_FS_FEATURE_OFF;
    dmk_run_fs_notes(&f.r, notes, sizeof notes);
    DMK_CHECK_STR(notes, "btrfs copy-on-write: turned off for the test file (NOCOW)\n"
                         "btrfs compression: turned off for the test file\n");
    f.r.target.cow = DMK_FS_FEATURE_ACTIVE;
    f.r.target.compression = DMK_FS_FEATURE_NONE;
    dmk_run_fs_notes(&f.r, notes, sizeof notes);
    DMK_CHECK(strncmp(notes, "btrfs copy-on-write: active, the numbers include it", 51) == 0);
}

/* The report and JSON carry the flags, the link and the notes. */
static void test_writers(void)
{
    Fixture f;
    fixture(&f);
    snprintf(f.r.target.fs_type, sizeof f.r.target.fs_type, "btrfs");
    f.r.target.cow = DMK_FS_FEATURE_OFF;
    snprintf(f.r.target.iface, sizeof f.r.target.iface, "PCIe 8.0 GT/s x4");
    f.r.target.iface_bytes_s = 3938461538ULL;
    f.t.achieved_qd = 8.04;
    f.t.flags = DMK_FLAG_PEAK | DMK_FLAG_LOW_QD;
    char *text = dmk_report_text(&f.r);
    DMK_CHECK(text && strstr(text, "[peak, QD 8.0 of 32]\n"));
    DMK_CHECK(text && strstr(text, "   Link: PCIe 8.0 GT/s x4 (3938 MB/s per direction)\n"));
    DMK_CHECK(text &&
              strstr(text, "   Note: btrfs copy-on-write: turned off for the test file (NOCOW)\n"));
    DMK_CHECK(text && strstr(text, "   Flag: [peak] Peak: the 1 GiB test file fits"));
    DMK_CHECK(text && strstr(text, "   Flag: [low_qd] Queue depth: on average 8.0 requests"));
    free(text);
    /* a raw device has no test file: the region of it that fits */
    char tip[1024], marker[64];
    f.r.target.is_device = true;
    snprintf(f.r.target.path, sizeof f.r.target.path, "/dev/sdz");
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_PEAK, marker, sizeof marker, tip, sizeof tip);
    DMK_CHECK_HAS(tip, "Peak: the 1 GiB region of /dev/sdz fits in a drive's cache");
    f.r.target.is_device = false;
    char *json = dmk_scratch_write("test-flags.json", dmk_json_write, &f.r, NULL);
    DMK_CHECK(json != NULL);
    DMK_CHECK(json && strstr(json, "\"cow\":\"off\",\"compression\":\"none\","
                                   "\"interface\":\"PCIe 8.0 GT/s x4\",\"interface_mb_s\":3938.5"));
    DMK_CHECK(json && strstr(json, "\"achieved_qd\":8.04,\"flags\":[\"peak\",\"low_qd\"]"));
    free(json);
}

#ifdef DMK_TEST_CSV
static void test_csv_round_trip(void)
{
    Fixture f;
    fixture(&f);
    f.r.target.cow = DMK_FS_FEATURE_ACTIVE;
    f.r.target.compression = DMK_FS_FEATURE_OFF;
    snprintf(f.r.target.iface, sizeof f.r.target.iface, "SATA 6.0 Gbps");
    f.r.target.iface_bytes_s = 600000000;
    f.t.achieved_qd = 12.25;
    f.t.flags = DMK_FLAG_PEAK | DMK_FLAG_OVER_INTERFACE | DMK_FLAG_LOW_QD;
    char *csv = dmk_scratch_write("test-flags.csv", dmk_csv_write, &f.r, NULL);
    DmkError err = {0};
    DmkRunResult *back = NULL;
    int rc = csv ? dmk_csv_load_mem("test-flags.csv", csv, strlen(csv), &back, &err) : -1;
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    if (back) {
        DMK_CHECK_INT(back->target.cow, DMK_FS_FEATURE_ACTIVE);
        DMK_CHECK_INT(back->target.compression, DMK_FS_FEATURE_OFF);
        DMK_CHECK_STR(back->target.iface, "SATA 6.0 Gbps");
        DMK_CHECK(back->target.iface_bytes_s == 600000000ULL);
        DMK_CHECK_INT(back->n_tests, 1);
        if (back->n_tests == 1) {
            DMK_CHECK_NEAR(back->tests[0].achieved_qd, 12.25, 1e-9);
            DMK_CHECK_INT(back->tests[0].flags,
                          DMK_FLAG_PEAK | DMK_FLAG_OVER_INTERFACE | DMK_FLAG_LOW_QD);
        }
    }
    dmk_run_result_free(back);
    /* a flag this version does not know is refused with its cell */
    char *bad = csv ? strstr(csv, "\"peak over_interface low_qd\"") : NULL;
    DMK_CHECK(bad != NULL);
    if (bad) {
        memcpy(bad, "\"peak over_interface zzzzzz\"", 28);
        back = NULL;
        rc = dmk_csv_load_mem("bad.csv", csv, strlen(csv), &back, &err);
        DMK_CHECK_INT(rc, DMK_E_INVAL);
        printf("# %s\n", err.msg);
        DMK_CHECK(strstr(err.msg, "bad.csv: line 2, column ") &&
                  strstr(err.msg, "(flags): 'peak over_interface zzzzzz' is not a list of flags"));
        dmk_run_result_free(back);
    }
    free(csv);
}
#endif

/* The engine measures what the drive accepted: asked QD32, a submit that
 * takes at most 8 at a time keeps ~8 in flight, and the test says so. */
static DmkRunResult *run_capped(uint32_t submit_max)
{
    DmkRunSpec *s = dmk_test_spec_new("/fault/flags", 16ULL << 20, 0.3);
    s->warmup_s = 0.05;
    s->no_fill = true;
    dmk_null_opts(&s->backend_opts)->latency_ns =
        200000; /* 200 us: the requests' time in flight dominates */
    dmk_test_spec_add(s, "RND4K Q32T1", DMK_MODE_READ, 0);
    DmkError err = {0};
    DmkFaultScript script = {.submit_max = submit_max};
    DmkRunner *r = dmk_runner_new(s, dmk_backend_fault(&script));
    DmkRunResult *res = NULL;
    int rc = dmk_runner_run(r, NULL, &res, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    dmk_runner_free(r);
    free(s);
    return res;
}

static void test_achieved_qd(void)
{
    DmkRunResult *res = run_capped(8);
    if (res && res->n_tests == 1) {
        const DmkTestResult *t = &res->tests[0];
        printf("# submit capped at 8: achieved QD %.2f, flags 0x%x\n", t->achieved_qd, t->flags);
        DMK_CHECK(t->achieved_qd > 5.0 && t->achieved_qd <= 8.01);
        DMK_CHECK(t->flags & DMK_FLAG_LOW_QD);
        DMK_CHECK(t->flags & DMK_FLAG_PEAK); /* 16 MiB */
    }
    dmk_run_result_free(res);
    res = run_capped(0);
    if (res && res->n_tests == 1) {
        const DmkTestResult *t = &res->tests[0];
        printf("# not capped: achieved QD %.2f, flags 0x%x\n", t->achieved_qd, t->flags);
        DMK_CHECK(t->achieved_qd > 28.8 && t->achieved_qd <= 32.01);
        DMK_CHECK(!(t->flags & DMK_FLAG_LOW_QD));
    }
    dmk_run_result_free(res);
}

/* Storage (issue 13): a RAM-backed device given on purpose and storage
 * that could not be followed flag every test, say the chain in the
 * report's notes and tip, and reach JSON and (with libcsv) the CSV. */
static void test_storage_flags(void)
{
    Fixture f;
    fixture(&f);
    f.r.size = 32 * GIB;
    f.t.achieved_qd = 0;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), 0);
    f.r.target.storage = DMK_STORAGE_RAM;
    snprintf(f.r.target.storage_note, sizeof f.r.target.storage_note,
             "/dev/loop9, whose backing file /dev/shm/x.img is on tmpfs");
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_RAM_BACKED);
    f.t.flags = DMK_FLAG_RAM_BACKED;
    char m[64], tip[1024], notes[2048];
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_RAM_BACKED, m, sizeof m, tip, sizeof tip);
    DMK_CHECK_STR(m, "RAM-backed");
    DMK_CHECK(strstr(tip, "/dev/shm/x.img is on tmpfs") != NULL);
    dmk_run_fs_notes(&f.r, notes, sizeof notes);
    DMK_CHECK(strstr(notes, "storage: /dev/loop9, whose backing file /dev/shm/x.img "
                            "is on tmpfs: RAM-backed, the numbers measure memory\n") != NULL);
    char *text = dmk_report_text(&f.r);
    DMK_CHECK(text && strstr(text, "[RAM-backed]"));
    DMK_CHECK(text && strstr(text, "   Flag: [ram_backed] RAM-backed: the target's storage is"));
    free(text);
    char *json = dmk_scratch_write("test-flags-storage.json", dmk_json_write, &f.r, NULL);
    DMK_CHECK(json && strstr(json, "\"storage\":\"ram\",\"storage_note\":\"/dev/loop9, whose"));
    DMK_CHECK(json && strstr(json, "\"flags\":[\"ram_backed\"]"));
    free(json);
    f.r.target.storage = DMK_STORAGE_UNKNOWN;
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_STORAGE_UNKNOWN);
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_STORAGE_UNKNOWN, m, sizeof m, NULL, 0);
    DMK_CHECK_STR(m, "may be RAM");
#ifdef DMK_TEST_CSV
    f.t.flags = DMK_FLAG_RAM_BACKED | DMK_FLAG_STORAGE_UNKNOWN | DMK_FLAG_PEAK;
    char *csv = dmk_scratch_write("test-flags-storage.csv", dmk_csv_write, &f.r, NULL);
    DmkError err = {0};
    DmkRunResult *back = NULL;
    int rc = csv ? dmk_csv_load_mem("s.csv", csv, strlen(csv), &back, &err) : -1;
    DMK_CHECK_INT(rc, DMK_OK);
    if (back && back->n_tests == 1)
        DMK_CHECK_INT(back->tests[0].flags, f.t.flags);
    dmk_run_result_free(back);
    free(csv);
#endif
}

/* A buffered loop device under the target (review finding 11b): every
 * test is flagged cached, the note names the loop device in the notes,
 * the tip, JSON, and the flag survives the CSV with all flags set (the
 * longest flags cell). */
static void test_cached_flag(void)
{
    Fixture f;
    fixture(&f);
    f.r.size = 32 * GIB;
    f.t.achieved_qd = 0;
    snprintf(f.r.target.cache_note, sizeof f.r.target.cache_note,
             "the loop device /dev/loop4 reads and writes its backing file through the page "
             "cache (loop/dio 0)");
    DMK_CHECK_INT(dmk_test_flags(&f.r, &f.t), DMK_FLAG_CACHED);
    f.t.flags = DMK_FLAG_CACHED;
    char m[64], tip[1024], notes[2048];
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_CACHED, m, sizeof m, tip, sizeof tip);
    DMK_CHECK_STR(m, "cached");
    DMK_CHECK(strstr(tip, "Cached: the loop device /dev/loop4 reads and writes its backing file "
                          "through the page cache (loop/dio 0), so the numbers measure memory as "
                          "much as the drive.") != NULL);
    dmk_run_fs_notes(&f.r, notes, sizeof notes);
    DMK_CHECK(strstr(notes, "cache: the loop device /dev/loop4 reads and writes its backing file "
                            "through the page cache (loop/dio 0): the numbers measure memory as "
                            "much as the drive\n") != NULL);
    char *text = dmk_report_text(&f.r);
    DMK_CHECK(text && strstr(text, "[cached]"));
    free(text);
    char *json = dmk_scratch_write("test-flags-cached.json", dmk_json_write, &f.r, NULL);
    DMK_CHECK(json && strstr(json, "\"cache_note\":\"the loop device /dev/loop4 reads"));
    DMK_CHECK(json && strstr(json, "\"flags\":[\"cached\"]"));
    free(json);
    /* Read back from a file, the tip has no note and says it in general. */
    f.r.target.cache_note[0] = '\0';
    dmk_flag_describe(&f.r, &f.t, DMK_FLAG_CACHED, m, sizeof m, tip, sizeof tip);
    DMK_CHECK(strstr(tip, "Cached: a loop device under the target reads and writes") != NULL);
#ifdef DMK_TEST_CSV
    f.t.flags = DMK_FLAG_ALL;
    char *csv = dmk_scratch_write("test-flags-cached.csv", dmk_csv_write, &f.r, NULL);
    DmkError err = {0};
    DmkRunResult *back = NULL;
    int rc = csv ? dmk_csv_load_mem("c.csv", csv, strlen(csv), &back, &err) : -1;
    DMK_CHECK_INT(rc, DMK_OK);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    if (back && back->n_tests == 1)
        DMK_CHECK_INT(back->tests[0].flags, DMK_FLAG_ALL);
    dmk_run_result_free(back);
    free(csv);
#endif
}

int main(void)
{
    dmk_clock_simulate(); /* the fault backend's runs: exact, CPU time only */
    DMK_TEST(test_peak_rule);
    DMK_TEST(test_over_interface);
    DMK_TEST(test_low_qd_rule);
    DMK_TEST(test_names);
    DMK_TEST(test_fs_notes);
    DMK_TEST(test_writers);
#ifdef DMK_TEST_CSV
    DMK_TEST(test_csv_round_trip);
#endif
    DMK_TEST(test_achieved_qd);
    DMK_TEST(test_storage_flags);
    DMK_TEST(test_cached_flag);
    return dmk_test_done();
}
