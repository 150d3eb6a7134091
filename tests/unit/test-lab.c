/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The review-lab tests (dmk-lab.h) on the null backend, no disk: how each
 * kind is built, the analysis on hand-made samples with known answers, and
 * whole runs through the runner against the null backend's simulated
 * drive (DmkNullSim), whose answers are computable. At a latency of L us
 * a queue of Q requests completes Q/L I/Os per microsecond: QD32 4 KiB at
 * 1000 us is 32,000 IOPS (131 MB/s), and 1/slow_factor of that past the
 * cache or while throttled. The whole program runs on the simulated clock
 * (dmk_clock_simulate): time moves only when every thread of a run waits,
 * so the engine's own cost takes no time and a loaded machine (or Wine)
 * cannot hold a thread up in the middle of a measurement. The numbers are
 * then what the simulated drive says, to a few I/Os at the edges of a pass,
 * and every run takes only the CPU time it needs (the whole program well
 * under a minute of real time, though it simulates minutes of runs). */
#include "dmk-test-gschema.h"
#include "dmk-test-spec.h"
#include "dmk-test.h"

#include <stdatomic.h>
#include <stdbool.h>

#include "dmk-lab.h"
#include "dmk-platform.h"
#include "dmk-runner.h"
#include "null/dmk-null.h"

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

static bool contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

static bool near_rel(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b);
}

/* The report of r, as the CLI prints it; free() it. */
static char *report_of(const DmkRunResult *r)
{
    size_t need = dmk_lab_report(r, NULL, 0) + 1;
    char *text = malloc(need);
    size_t again = dmk_lab_report(r, text, need);
    DMK_CHECK_INT(again + 1, need);
    DMK_CHECK_INT(strlen(text), need - 1);
    return text;
}

static void print_report(const char *text)
{
    printf("# the report:\n");
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        printf("#   %.*s\n", len, p);
        p += len + (nl ? 1 : 0);
    }
}

/* Frees a report, printing it first when a check of the test failed. */
static void report_done(char *text)
{
    if (dmk_test_failed_checks)
        print_report(text);
    free(text);
}

/* A NULL-ended list of strings, for check_report. */
#define PARTS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The report of r holds each of `has` and none of `lacks` (PARTS lists;
 * NULL: none). */
static void check_report(const DmkRunResult *r, const char *const *has, const char *const *lacks)
{
    char *text = report_of(r);
    for (size_t i = 0; has && has[i]; i++) {
        if (!contains(text, has[i]))
            printf("# the report lacks \"%s\"\n", has[i]);
        DMK_CHECK(contains(text, has[i]));
    }
    for (size_t i = 0; lacks && lacks[i]; i++) {
        if (contains(text, lacks[i]))
            printf("# the report has \"%s\"\n", lacks[i]);
        DMK_CHECK(!contains(text, lacks[i]));
    }
    report_done(text);
}

/* test_NAME: NAME_once, the body shared with tests that take an argument. */
#define ONCE_TEST(name)           \
    static void test_##name(void) \
    {                             \
        name##_once(NULL);        \
    }

/* ---- names and defaults ------------------------------------------------------ */

static void test_names(void)
{
    static const char *names[] = {"sustained", "fullspan", "mixed", "latency", "recovery"};
    static const char *titles[] = {"Sustained write", "Full-span write", "Mixed load",
                                   "Latency under load", "Recovery"};
    for (int k = DMK_LAB_SUSTAINED; k <= DMK_LAB_RECOVERY; k++) {
        DMK_CHECK_STR(dmk_lab_name((DmkLabKind)k), names[k - 1]);
        DMK_CHECK_STR(dmk_lab_title((DmkLabKind)k), titles[k - 1]);
        DMK_CHECK_INT(dmk_lab_from_name(names[k - 1]), k);
    }
    DMK_CHECK_STR(dmk_lab_name(DMK_LAB_NONE), "");
    DMK_CHECK_STR(dmk_lab_title(DMK_LAB_NONE), "");
    DMK_CHECK_STR(dmk_lab_name((DmkLabKind)42), "");
    DMK_CHECK_INT(dmk_lab_from_name("Sustained"), DMK_LAB_NONE);
    DMK_CHECK_INT(dmk_lab_from_name(""), DMK_LAB_NONE);
    DMK_CHECK_INT(dmk_lab_from_name(NULL), DMK_LAB_NONE);
    DMK_CHECK_INT(dmk_lab_from_name("run"), DMK_LAB_NONE);
}

/* The tests' table: one row per kind, found by kind and name, each
 * form row one of the settings that apply, and the count from the table. */
static void test_table(void)
{
    size_t n = dmk_lab_test_count();
    DMK_CHECK(n >= 5); /* the five of methodology.md; a new one adds to them */
    DMK_CHECK(n <= DMK_LAB_MAX_TESTS);
    DMK_CHECK(dmk_lab_test_at(n) == NULL);
    DMK_CHECK(dmk_lab_test(DMK_LAB_NONE) == NULL);
    for (size_t i = 0; i < n; i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        DMK_CHECK(t->kind != DMK_LAB_NONE);
        DMK_CHECK(dmk_lab_test(t->kind) == t);
        DMK_CHECK_INT(dmk_lab_from_name(t->name), t->kind);
        DMK_CHECK(t->title[0] && t->blurb[0] && t->charts[0]);
        DMK_CHECK(t->defaults && t->build && t->describe && t->report);
        DMK_CHECK(t->params < DMK_LAB_P(DMK_LAB_N_PARAMS));
        /* Settling follows the fill: a test that does not fill has none. */
        DMK_CHECK(((t->params & DMK_LAB_P(DMK_LAB_P_SETTLE)) != 0) == t->fills);
        for (size_t f = 0; f < t->n_fields; f++) {
            const DmkLabField *fd = &t->fields[f];
            DMK_CHECK(t->params & DMK_LAB_P(fd->id));
            DMK_CHECK(fd->label[0] && fd->tip[0]);
            DMK_CHECK((fd->jobs != NULL) == (fd->id == DMK_LAB_P_JOB));
        }
    }
    char buf[256], last[64];
    dmk_lab_names_text(", ", " or ", buf, sizeof buf);
    snprintf(last, sizeof last, " or %s", dmk_lab_test_at(n - 1)->name);
    DMK_CHECK(strncmp(buf, "sustained, fullspan, mixed, latency", 35) == 0);
    size_t bl = strlen(buf), ll = strlen(last);
    DMK_CHECK(bl >= ll && strcmp(buf + bl - ll, last) == 0);
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        DMK_CHECK_INT(lp->id, id);
        DMK_CHECK(dmk_lab_param_find(lp->name) == lp);
        DmkLabParams p;
        bool number = dmk_lab_seconds_of(&p, lp->id) || dmk_lab_size_of(&p, lp->id);
        DMK_CHECK(number == (lp->kind == DMK_LAB_VALUE_SECONDS || lp->kind == DMK_LAB_VALUE_SIZE));
        DMK_CHECK(!number || lp->min <= lp->max);
    }
    DMK_CHECK(dmk_lab_param_find("span") == NULL); /* the CLI's --size */
}

/* The planned length the runner counts down from and the Lab tab shows:
 * the fill excluded, none for a write that ends by bytes. */
static void test_planned(void)
{
    static const struct {
        DmkLabKind kind;
        double s;
    } cases[] = {
        {DMK_LAB_SUSTAINED, 300 + 7200},
        {DMK_LAB_FULLSPAN, -1},
        {DMK_LAB_MIXED, 2 * DMK_LAB_MIX_STEPS * (20 + 2)},
        {DMK_LAB_LATENCY, DMK_LAB_LAT_PROFILES * (DMK_LAB_RAMP_STEPS + 1) * (20 + 2)},
        {DMK_LAB_RECOVERY, 300 + 4 * 60 + 1800 + 900},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DmkLabParams p;
        dmk_lab_params_init(&p, cases[i].kind);
        DMK_CHECK(dmk_lab_planned_s(&p) == cases[i].s);
    }
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_MIXED);
    p.settle_s = 10;
    p.step_s = 5;
    p.warmup_s = 0;
    DMK_CHECK(dmk_lab_planned_s(&p) == 10 + 12 * 5);
    p.kind = DMK_LAB_NONE;
    DMK_CHECK(dmk_lab_planned_s(&p) == -1);
}

/* The Lab tab's summary, in the words it had before the table: each
 * test's defaults, but for a sample interval or duration (0: the default). */
static void test_describe(void)
{
    static const struct {
        DmkLabKind kind;
        double sample_s, duration_s;
        const char *want;
    } cases[] = {
        {DMK_LAB_SUSTAINED, 0, 0,
         "Random 4 KiB writes at queue depth 32 for 2 h over a 32 GiB test file, sampled every "
         "1 s. The test file is written in full first, then the drive rests 5 min to empty its "
         "cache."},
        {DMK_LAB_FULLSPAN, 0.5, 0,
         "Sequential 1 MiB writes at queue depth 8 once over the free space but 2 GiB, sampled "
         "every 0.5 s. It fills the drive; the file is removed afterwards."},
        {DMK_LAB_MIXED, 0, 0,
         "Sequential 128 KiB (2 threads), then random 4 KiB (4 threads), QD1 per thread, at 0 to "
         "100 % reads: 12 steps of 20 s, each after a 2 s warm-up, on a 32 GiB test file. The "
         "test file is written in full first."},
        {DMK_LAB_RECOVERY, 0, 5400,
         "Random 4 KiB writes at queue depth 32, measured for 1 min each: fresh, degraded after "
         "90 min of them, after 15 min idle and after TRIM, on a 32 GiB test file. The test file "
         "is written in full first, then the drive rests 5 min to empty its cache."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DmkLabParams p;
        char buf[512];
        dmk_lab_params_init(&p, cases[i].kind);
        p.sample_s = cases[i].sample_s ? cases[i].sample_s : p.sample_s;
        p.duration_s = cases[i].duration_s ? cases[i].duration_s : p.duration_s;
        dmk_lab_describe(&p, buf, sizeof buf);
        DMK_CHECK_STR(buf, cases[i].want);
    }
}

/* A full-span write of no size names the margin it leaves, not the
 * default's 2 GiB (the CLI's --margin). */
static void test_describe_margin(void)
{
    DmkLabParams p;
    char buf[512];
    dmk_lab_params_init(&p, DMK_LAB_FULLSPAN);
    p.margin = 8ULL << 30;
    dmk_lab_describe(&p, buf, sizeof buf);
    DMK_CHECK_HAS(buf, "once over the free space but 8 GiB, sampled");
}

/* On a raw device, which has no test file, the summary says what of the
 * device the test writes over (issue 18). */
static void test_describe_device(void)
{
    static const struct {
        DmkLabKind kind;
        uint64_t span;
        const char *want;
    } cases[] = {
        {DMK_LAB_SUSTAINED, 0,
         "Random 4 KiB writes at queue depth 32 for 2 h over the first 32 GiB of the device, "
         "sampled every 1 s. The region is written in full first, then the drive rests 5 min to "
         "empty its cache."},
        {DMK_LAB_FULLSPAN, 0,
         "Sequential 1 MiB writes at queue depth 8 once over the whole device, sampled every 1 s. "
         "It writes over the device's data."},
        {DMK_LAB_FULLSPAN, 8 * GIB,
         "Sequential 1 MiB writes at queue depth 8 once over the first 8 GiB of the device, "
         "sampled every 1 s. It writes over the device's data."},
        {DMK_LAB_LATENCY, 0,
         "4 KiB random read (QD128) and write (QD64), 64 KiB sequential read (QD16) and write "
         "(QD8), each at full speed and held to 10 to 120 % of it: 48 steps of 20 s, each after a "
         "2 s warm-up, on the first 32 GiB of the device. The region is written in full first."},
        {DMK_LAB_RECOVERY, 0, "after TRIM, on the first 32 GiB of the device. The region is "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DmkLabParams p;
        char buf[512];
        dmk_lab_params_init(&p, cases[i].kind);
        p.device = true;
        p.span = cases[i].span ? cases[i].span : p.span;
        dmk_lab_describe(&p, buf, sizeof buf);
        if (cases[i].kind == DMK_LAB_RECOVERY)
            DMK_CHECK_HAS(buf, cases[i].want);
        else
            DMK_CHECK_STR(buf, cases[i].want);
        DMK_CHECK(!contains(buf, "test file") && !contains(buf, "free space"));
    }
}

/* The form's rows that speak of the test file have a device's words too,
 * which do not (the Lab tab on a raw device, issue 18). */
static void test_fields_device_words(void)
{
    size_t worded = 0;
    for (size_t i = 0; i < dmk_lab_test_count(); i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        for (size_t k = 0; k < t->n_fields; k++) {
            const DmkLabField *f = &t->fields[k];
            const char *label = f->device_label ? f->device_label : f->label;
            const char *tip = f->device_tip ? f->device_tip : f->tip;
            if (contains(label, "fi_le") || contains(tip, "test file"))
                printf("# %s: \"%s\" (%s) says test file on a device\n", t->name, label, tip);
            DMK_CHECK(!contains(label, "fi_le") && !contains(tip, "test file"));
            DMK_CHECK(!contains(tip, "free space"));
            worded += f->device_label || f->device_tip;
        }
    }
    DMK_CHECK(worded >= 6);
}

/* The window's settings schema offers the lab-test key's choices the
 * table has, in its order, and defaults to its first. */
static void test_gschema_choices(void)
{
    if (!dmk_gschema_path)
        DMK_SKIP("no schema path given (a cross build)");
    char *key = dmk_gschema_key("lab-test");
    if (!key)
        return;
    size_t i = 0;
    for (char *c = strstr(key, "<choice value=\""); c; c = strstr(c, "<choice value=\"")) {
        c += strlen("<choice value=\"");
        size_t n = strcspn(c, "\"");
        const DmkLabTest *t = dmk_lab_test_at(i++);
        DMK_CHECK(t && strlen(t->name) == n && strncmp(c, t->name, n) == 0);
        if (!t)
            printf("# the schema's choice %.*s is no lab test\n", (int)n, c);
        else if (strlen(t->name) != n || strncmp(c, t->name, n) != 0)
            printf("# the schema's choice %zu is %.*s, the table's %s\n", i, (int)n, c, t->name);
    }
    DMK_CHECK_INT(i, dmk_lab_test_count());
    char def[64];
    snprintf(def, sizeof def, "<default>'%s'</default>", dmk_lab_test_at(0)->name);
    DMK_CHECK(strstr(key, def) != NULL);
}

static void check_job(const DmkJob *j, DmkPattern pattern, uint32_t bs, uint32_t qd,
                      uint32_t threads)
{
    DMK_CHECK_INT(j->pattern, pattern);
    DMK_CHECK_INT(j->block_size, bs);
    DMK_CHECK_INT(j->queue_depth, qd);
    DMK_CHECK_INT(j->threads, threads);
}

static void test_params_defaults(void)
{
    DmkLabParams p;
    for (int k = DMK_LAB_SUSTAINED; k <= DMK_LAB_RECOVERY; k++) {
        memset(&p, 0xab, sizeof p); /* init must set every field */
        dmk_lab_params_init(&p, (DmkLabKind)k);
        DMK_CHECK_INT(p.kind, k);
        DMK_CHECK(p.sample_s == 1.0);
        DMK_CHECK_INT(p.mixed_qd, 1);
        bool stepped = k == DMK_LAB_MIXED || k == DMK_LAB_LATENCY;
        DMK_CHECK(p.warmup_s == (stepped ? 2.0 : 0.0));
        DMK_CHECK(p.step_s == (k == DMK_LAB_RECOVERY ? 60.0 : 20.0));
        DMK_CHECK(p.idle_s == (k == DMK_LAB_RECOVERY ? 900.0 : 0.0));
        DMK_CHECK(p.span == (k == DMK_LAB_FULLSPAN ? 0 : 32 * GIB));
        bool fills = k == DMK_LAB_SUSTAINED || k == DMK_LAB_RECOVERY;
        DMK_CHECK(p.settle_s == (fills ? 300.0 : 0.0));
        DMK_CHECK(p.margin == (k == DMK_LAB_FULLSPAN ? 2 * GIB : 0));
    }
    dmk_lab_params_init(&p, DMK_LAB_SUSTAINED);
    check_job(&p.job, DMK_PATTERN_RND, 4096, 32, 1);
    DMK_CHECK_INT(p.job.read_share, 0);
    DMK_CHECK(p.duration_s == 7200.0);
    dmk_lab_params_init(&p, DMK_LAB_FULLSPAN);
    check_job(&p.job, DMK_PATTERN_SEQ, 1u << 20, 8, 1);
    DMK_CHECK_INT(p.job.read_share, 0);
    dmk_lab_params_init(&p, DMK_LAB_RECOVERY);
    check_job(&p.job, DMK_PATTERN_RND, 4096, 32, 1);
    DMK_CHECK(p.duration_s == 1800.0);
}

/* ---- building the runs --------------------------------------------------------- */

static DmkRunSpec *spec_new(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    dmk_run_spec_init(s);
    s->data = DMK_DATA_ZERO; /* the data pool is a memset: quick to make */
    return s;
}

/* What the builder must keep: the caller's target, data and backend settings. */
static void set_callers_part(DmkRunSpec *s)
{
    snprintf(s->dir, sizeof s->dir, "/some/where");
    s->data = DMK_DATA_ZERO;
    dmk_null_opts(&s->backend_opts)->latency_ns = 1234;
    dmk_null_opts(&s->backend_opts)->sim = (DmkNullSim){5 * MIB, 3, 7.0, 4096};
    s->watchdog_s = 33;
    snprintf(s->sweep, sizeof s->sweep, "qd");
}

static void check_callers_part(const DmkRunSpec *s)
{
    DMK_CHECK_STR(s->dir, "/some/where");
    DMK_CHECK_INT(s->data, DMK_DATA_ZERO);
    DMK_CHECK_INT(dmk_null_opts_get(&s->backend_opts)->latency_ns, 1234);
    DMK_CHECK_INT(dmk_null_opts_get(&s->backend_opts)->sim.cache_bytes, 5 * MIB);
    DMK_CHECK_INT(dmk_null_opts_get(&s->backend_opts)->sim.slow_factor, 3);
    DMK_CHECK(dmk_null_opts_get(&s->backend_opts)->sim.drain_s == 7.0);
    DMK_CHECK_INT(dmk_null_opts_get(&s->backend_opts)->sim.bytes_per_c, 4096);
    DMK_CHECK(s->watchdog_s == 33);
    DMK_CHECK_STR(s->sweep, ""); /* a lab run is no sweep */
}

/* Builds p into a spec that had the caller's part set. */
static DmkRunSpec *build(const DmkLabParams *p)
{
    DmkRunSpec *s = spec_new();
    set_callers_part(s);
    DmkError err = {0};
    int rc = dmk_lab_build(p, s, &err);
    if (rc != DMK_OK)
        printf("# dmk_lab_build(%s): %s\n", dmk_lab_name(p->kind), err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    check_callers_part(s);
    DMK_CHECK_STR(s->lab, dmk_lab_name(p->kind));
    DMK_CHECK_STR(s->profile, dmk_lab_name(p->kind));
    DMK_CHECK_INT(s->passes, 1);
    DMK_CHECK(s->interval_s == 0.0);
    DMK_CHECK(s->timeline_s == p->sample_s);
    DMK_CHECK(s->warmup_s == p->warmup_s);
    DMK_CHECK(s->keep_partial);
    for (size_t i = 0; i < s->n_tests; i++) {
        DMK_CHECK_INT(s->tests[i].n_jobs, 1);
        DMK_CHECK_INT(s->tests[i].rate_iops, 0); /* the ramp's rates are resolved in the run */
    }
    return s;
}

static void test_build_sustained(void)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_SUSTAINED);
    DmkRunSpec *s = build(&p);
    DMK_CHECK_INT(s->n_tests, 1);
    const DmkTest *t = &s->tests[0];
    DMK_CHECK_STR(t->name, "RND4K Q32T1");
    DMK_CHECK_STR(t->label, "sustained");
    DMK_CHECK_INT(t->mode, DMK_MODE_WRITE);
    DMK_CHECK_INT(t->jobs[0].read_share, 0);
    DMK_CHECK(t->measure_s == 7200.0);
    DMK_CHECK(!t->trim_before && t->limit_bytes == 0);
    /* the file is filled first (random writes into an unwritten file
     * would measure the file system), then the drive settles */
    DMK_CHECK(t->idle_before_s == 300.0);
    DMK_CHECK(s->size == 32 * GIB);
    DMK_CHECK(s->free_margin == 0);
    DMK_CHECK(!s->no_fill);
    DMK_CHECK(s->warmup_s == 0.0);
    free(s);

    /* its own write, length and sampling */
    p.job = (DmkJob){DMK_PATTERN_SEQ, 128u << 10, 4, 2, 100};
    p.duration_s = 90;
    p.sample_s = 0.1;
    p.span = 256 * MIB;
    p.settle_s = 7;
    s = build(&p);
    DMK_CHECK(s->tests[0].idle_before_s == 7.0);
    DMK_CHECK_STR(s->tests[0].name, "SEQ128K Q4T2");
    DMK_CHECK_INT(s->tests[0].jobs[0].read_share, 0); /* a write, whatever the job said */
    DMK_CHECK(s->tests[0].measure_s == 90.0);
    DMK_CHECK(s->timeline_s == 0.1);
    DMK_CHECK(s->size == 256 * MIB);
    free(s);
}

static void test_build_fullspan(void)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_FULLSPAN);
    DmkRunSpec *s = build(&p);
    DMK_CHECK_INT(s->n_tests, 1);
    const DmkTest *t = &s->tests[0];
    DMK_CHECK_STR(t->name, "SEQ1M Q8T1");
    DMK_CHECK_STR(t->label, "full span");
    DMK_CHECK_INT(t->mode, DMK_MODE_WRITE);
    DMK_CHECK(t->measure_s == 0.0); /* it ends by bytes, not time */
    DMK_CHECK(t->limit_bytes == DMK_LAB_SIZE_MAX);
    DMK_CHECK(s->size == 0);              /* the free space ... */
    DMK_CHECK(s->free_margin == 2 * GIB); /* ... but the margin */
    DMK_CHECK(s->no_fill);                /* it writes every block once: no fill, no settle */
    DMK_CHECK(t->idle_before_s == 0);
    free(s);

    /* one pass with one thread, whatever the job said; a size ends it by bytes */
    p.job.threads = 4;
    p.span = 512 * MIB;
    p.margin = 8 * MIB;
    p.settle_s = 60; /* nothing to settle after */
    s = build(&p);
    DMK_CHECK(s->no_fill);
    DMK_CHECK(s->tests[0].idle_before_s == 0);
    DMK_CHECK_STR(s->tests[0].name, "SEQ1M Q8T1");
    DMK_CHECK_INT(s->tests[0].jobs[0].threads, 1);
    DMK_CHECK(s->tests[0].limit_bytes == 512 * MIB);
    DMK_CHECK(s->size == 512 * MIB);
    DMK_CHECK(s->free_margin == 0);
    free(s);
}

static void test_build_mixed(void)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_MIXED);
    DmkRunSpec *s = build(&p);
    DMK_CHECK_INT(s->n_tests, 12);
    DMK_CHECK(!s->no_fill);                    /* it reads: the file is filled first */
    DMK_CHECK(s->tests[0].idle_before_s == 0); /* no settle by default */
    DMK_CHECK(s->warmup_s == 2.0);
    static const uint32_t shares[6] = {0, 20, 40, 60, 80, 100};
    for (size_t i = 0; i < s->n_tests && i < 12; i++) {
        const DmkTest *t = &s->tests[i];
        char label[32];
        snprintf(label, sizeof label, "%u %% read", shares[i % 6]);
        DMK_CHECK_STR(t->name, i < 6 ? "SEQ128K Q1T2" : "RND4K Q1T4");
        DMK_CHECK_STR(t->label, label);
        DMK_CHECK_INT(t->mode, DMK_MODE_MIX);
        DMK_CHECK_INT(t->jobs[0].read_share, shares[i % 6]);
        DMK_CHECK(t->measure_s == 20.0);
        DMK_CHECK_INT(dmk_lab_mix_share[i % 6], shares[i % 6]);
    }
    free(s);
    p.mixed_qd = 4;
    p.step_s = 3;
    p.warmup_s = 0.5;
    p.settle_s = 10;
    s = build(&p);
    DMK_CHECK(s->tests[0].idle_before_s == 10.0);
    DMK_CHECK(s->tests[1].idle_before_s == 0.0);
    DMK_CHECK_STR(s->tests[0].name, "SEQ128K Q4T2");
    DMK_CHECK_STR(s->tests[11].name, "RND4K Q4T4");
    DMK_CHECK(s->tests[5].measure_s == 3.0);
    DMK_CHECK(s->warmup_s == 0.5);
    free(s);
}

static void test_build_latency(void)
{
    static const struct {
        const char *name;
        DmkMode mode;
        uint32_t share;
    } profiles[4] = {{"RND4K Q128T1", DMK_MODE_READ, 100},
                     {"RND4K Q64T1", DMK_MODE_WRITE, 0},
                     {"SEQ64K Q16T1", DMK_MODE_READ, 100},
                     {"SEQ64K Q8T1", DMK_MODE_WRITE, 0}};
    static const uint32_t pct[11] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 120};
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_LATENCY);
    p.step_s = 5;
    DmkRunSpec *s = build(&p);
    DMK_CHECK_INT(s->n_tests, 4 * 12);
    DMK_CHECK(!s->no_fill);
    for (size_t i = 0; i < s->n_tests; i++)
        DMK_CHECK(s->tests[i].idle_before_s == 0);
    for (int k = 0; k < 11; k++)
        DMK_CHECK_INT(dmk_lab_ramp_pct[k], pct[k]);
    for (size_t i = 0; i < s->n_tests && i < 48; i++) {
        const DmkTest *t = &s->tests[i];
        size_t prof = i / 12, step = i % 12;
        DMK_CHECK_STR(t->name, profiles[prof].name);
        DMK_CHECK_INT(t->mode, profiles[prof].mode);
        DMK_CHECK_INT(t->jobs[0].read_share, profiles[prof].share);
        DMK_CHECK(t->measure_s == 5.0);
        if (step == 0) {
            DMK_CHECK_STR(t->label, "max");
            DMK_CHECK_INT(t->rate_ref, 0);
            DMK_CHECK_INT(t->rate_pct, 0);
        } else {
            char label[16];
            snprintf(label, sizeof label, "%u %%", pct[step - 1]);
            DMK_CHECK_STR(t->label, label);
            DMK_CHECK_INT(t->rate_ref, prof * 12 + 1); /* 1-based: its profile's "max" */
            DMK_CHECK_INT(t->rate_pct, pct[step - 1]);
        }
    }
    free(s);
}

static void test_build_recovery(void)
{
    static const char *labels[5] = {"fresh", "degradation", "degraded", "after idle", "after TRIM"};
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_RECOVERY);
    DmkRunSpec *s = build(&p);
    DMK_CHECK_INT(s->n_tests, 5);
    DMK_CHECK(!s->no_fill);
    DMK_CHECK(s->size == 32 * GIB);
    for (size_t i = 0; i < s->n_tests && i < 5; i++) {
        const DmkTest *t = &s->tests[i];
        DMK_CHECK_STR(t->name, "RND4K Q32T1");
        DMK_CHECK_STR(t->label, labels[i]);
        DMK_CHECK_INT(t->mode, DMK_MODE_WRITE);
        DMK_CHECK(t->measure_s == (i == 1 ? 1800.0 : 60.0));
        /* the settle before the first probe, the idle before the fourth */
        DMK_CHECK(t->idle_before_s == (i == 3 ? 900.0 : i == 0 ? 300.0 : 0.0));
        DMK_CHECK(t->trim_before == (i == 4));
        DMK_CHECK(t->limit_bytes == 0 && t->rate_ref == 0);
    }
    free(s);
}

/* p is refused with a message containing `needle`. */
static void check_refused(const DmkLabParams *p, const char *needle)
{
    DmkRunSpec *s = spec_new();
    DmkError err = {0};
    int rc = dmk_lab_build(p, s, &err);
    if (rc == DMK_OK || !contains(err.msg, needle))
        printf("# %s: rc %d, message \"%s\", expected one with \"%s\"\n", dmk_lab_name(p->kind), rc,
               err.msg, needle);
    DMK_CHECK_INT(rc, DMK_E_INVAL);
    DMK_CHECK(contains(err.msg, needle));
    free(s);
}

static void test_build_refused(void)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_SUSTAINED);
    p.kind = DMK_LAB_NONE;
    check_refused(&p, "unknown review-lab test");
    p.kind = (DmkLabKind)17;
    check_refused(&p, "unknown review-lab test 17");
    for (int k = DMK_LAB_SUSTAINED; k <= DMK_LAB_RECOVERY; k++) {
        dmk_lab_params_init(&p, (DmkLabKind)k);
        p.span = 256 * MIB;
        p.sample_s = 0.05;
        check_refused(&p, "sample interval 0.05 s is out of range (0.1 to 60 s)");
        p.sample_s = 61;
        check_refused(&p, "sample interval 61 s");
        p.sample_s = NAN;
        check_refused(&p, "sample interval");
        p.sample_s = 1;
        p.span = 8 * MIB;
        check_refused(&p, "test size");
        p.span = 100 * MIB + 4096;
        check_refused(&p, "whole number of MiB");
        p.span = DMK_LAB_SIZE_MAX + MIB;
        check_refused(&p, "test size");
    }
    dmk_lab_params_init(&p, DMK_LAB_FULLSPAN);
    p.job.pattern = DMK_PATTERN_RND;
    check_refused(&p, "sequential");
    dmk_lab_params_init(&p, DMK_LAB_FULLSPAN);
    p.margin = 0;
    check_refused(&p, "safety margin");
    dmk_lab_params_init(&p, DMK_LAB_SUSTAINED);
    p.duration_s = 0.05;
    check_refused(&p, "duration 0.05 s is out of range (0.1 to");
    p.duration_s = -1;
    check_refused(&p, "duration -1 s is out of range");
    p.duration_s = 8 * 86400.0;
    check_refused(&p, "duration 691200 s is out of range");
    dmk_lab_params_init(&p, DMK_LAB_SUSTAINED);
    p.job.queue_depth = 0;
    check_refused(&p, "queue depth 0 is out of range");
    dmk_lab_params_init(&p, DMK_LAB_RECOVERY);
    p.idle_s = -5;
    check_refused(&p, "idle time -5 s");
    for (int k = DMK_LAB_SUSTAINED; k <= DMK_LAB_RECOVERY; k++) {
        dmk_lab_params_init(&p, (DmkLabKind)k);
        p.settle_s = -1;
        check_refused(&p, "settle time -1 s is out of range");
        p.settle_s = NAN;
        check_refused(&p, "settle time");
        p.settle_s = 8 * 86400.0;
        check_refused(&p, "settle time");
    }
    dmk_lab_params_init(&p, DMK_LAB_MIXED);
    p.mixed_qd = 0;
    check_refused(&p, "queue depth 0");
    p.mixed_qd = DMK_QD_MAX + 1;
    check_refused(&p, "queue depth 1025");
    dmk_lab_params_init(&p, DMK_LAB_LATENCY);
    p.step_s = 0.01;
    check_refused(&p, "step time 0.01 s is out of range (0.1 to");

    p.step_s = 1;
    p.warmup_s = -1;
    check_refused(&p, "warm-up time -1 s");
}

/* A length of 0 is no length: refused like 0.05 s, not quietly replaced
 * by the run's measure time (the 20 s step for a sustained write or the
 * recovery's degradation, 1 s for each step of mixed and latency). */
static void test_build_zero_length_refused(void)
{
    DmkLabParams p;
    for (int k = DMK_LAB_SUSTAINED; k <= DMK_LAB_RECOVERY; k++) {
        dmk_lab_params_init(&p, (DmkLabKind)k);
        if (k == DMK_LAB_SUSTAINED || k == DMK_LAB_RECOVERY) {
            p.duration_s = 0;
            check_refused(&p, "0 s is out of range");
            dmk_lab_params_init(&p, (DmkLabKind)k);
        }
        if (k != DMK_LAB_SUSTAINED && k != DMK_LAB_FULLSPAN) {
            p.step_s = 0;
            check_refused(&p, "0 s is out of range");
        }
    }
}

/* ---- analysis on hand-made samples --------------------------------------------- */

/* n samples of `period` s, no temperature. */
static DmkSample *samples_new(size_t n, double period)
{
    DmkSample *s = calloc(n ? n : 1, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        s[i].t_s = period * (double)(i + 1);
        s[i].temp_c = NAN;
        s[i].lat_mean_us = 100;
    }
    return s;
}

/* A speed in MB/s, and the IOPS of 4 KiB blocks at it. */
static void set_speed(DmkSample *s, double mb_s)
{
    s->mb_s = mb_s;
    s->iops = mb_s * 1e6 / 4096.0;
}

/* high MB/s for the first `drop` samples, then low. */
static DmkSample *step_series(size_t n, size_t drop, double high, double low)
{
    DmkSample *s = samples_new(n, 1.0);
    for (size_t i = 0; i < n; i++)
        set_speed(&s[i], i < drop ? high : low);
    return s;
}

/* dmk_lab_cliff of n samples in MB/s; frees them. */
static DmkLabCliff cliff_freeing(DmkSample *s, size_t n)
{
    DmkLabCliff c;
    dmk_lab_cliff(s, n, "mb_s", &c);
    free(s);
    return c;
}

/* dmk_lab_cliff of a step_series. */
static DmkLabCliff step_cliff(size_t n, size_t drop, double high, double low)
{
    return cliff_freeing(step_series(n, drop, high, low), n);
}

static void test_cliff_clean_step(void)
{
    DmkSample *s = step_series(40, 15, 1000, 250);
    DmkLabCliff c;
    dmk_lab_cliff(s, 40, "mb_s", &c);
    DMK_CHECK_INT(c.n, 40);
    DMK_CHECK(c.cliff);
    DMK_CHECK_NEAR(c.cache_bytes, 15e9, 1);
    DMK_CHECK_NEAR(c.cliff_t_s, 15.0, 1e-9);
    DMK_CHECK_NEAR(c.before, 1000, 1e-9);
    DMK_CHECK_NEAR(c.after, 250, 1e-9);
    DMK_CHECK_NEAR(c.total_bytes, 15e9 + 25 * 250e6, 1);
    DMK_CHECK_NEAR(c.steady_mean, 250, 1e-9);
    DMK_CHECK_NEAR(c.steady_excursion_pct, 0, 1e-9);
    DMK_CHECK_NEAR(c.steady_within_pct, 100, 1e-9);
    DMK_CHECK(c.steady);
    /* the same in IOPS: the bytes are the same, the speeds in IOPS */
    dmk_lab_cliff(s, 40, "iops", &c);
    DMK_CHECK(c.cliff);
    DMK_CHECK_NEAR(c.cache_bytes, 15e9, 1);
    DMK_CHECK_NEAR(c.before, 1000e6 / 4096, 1e-6);
    DMK_CHECK_NEAR(c.after, 250e6 / 4096, 1e-6);
    DMK_CHECK_NEAR(c.steady_mean, 250e6 / 4096, 1e-6);
    free(s);

    /* a transition sample half way: the drop is placed within that
     * sample, half its time at 1000 MB/s (0.5 GB), half at 250 */
    s = step_series(40, 15, 1000, 250);
    set_speed(&s[15], 625);
    dmk_lab_cliff(s, 40, "mb_s", &c);
    DMK_CHECK(c.cliff);
    DMK_CHECK_NEAR(c.cache_bytes, 15.5e9, 1);
    DMK_CHECK_NEAR(c.cliff_t_s, 15.5, 1e-9);
    DMK_CHECK_NEAR(c.before, 1000, 1e-9);
    DMK_CHECK_NEAR(c.after, 250, 1e-9);
    /* flat sides: only the I/Os a sample holds (a whole number of 4 KiB)
     * and those in flight (Little's law: 100 us at 244,141 IOPS, 24 I/Os)
     * leave it uncertain, by well under a sample (1 GB) */
    DMK_CHECK(c.cache_bytes_err > 0 && c.cache_bytes_err < 1e6);
    DMK_CHECK_NEAR(c.cliff_t_err_s, c.cache_bytes_err / 1e9, 1e-12);
    free(s);

    /* +-5 % noise on both sides, 0.5 s samples: the drop comes at the end
     * of sample 22; found within the error stated, which is the noise's,
     * well under a sample (400 MB) */
    s = samples_new(50, 0.5);
    double cache = 0;
    for (size_t i = 0; i < 50; i++) {
        double noise = 1.0 + 0.05 * sin((double)i * 1.7);
        set_speed(&s[i], (i < 23 ? 800 : 200) * noise);
        if (i < 23)
            cache += s[i].mb_s * 1e6 * 0.5;
    }
    dmk_lab_cliff(s, 50, "mb_s", &c);
    printf("# noisy step: %.4g +- %.3g GB (%.4g true), at %.3f +- %.3f s\n", c.cache_bytes / 1e9,
           c.cache_bytes_err / 1e9, cache / 1e9, c.cliff_t_s, c.cliff_t_err_s);
    DMK_CHECK(c.cliff);
    DMK_CHECK(fabs(c.cache_bytes - cache) <= c.cache_bytes_err);
    DMK_CHECK(c.cache_bytes_err < 0.25 * 400e6);
    DMK_CHECK(fabs(c.cliff_t_s - 11.5) <= c.cliff_t_err_s);
    DMK_CHECK(near_rel(c.before, 800, 0.01) && near_rel(c.after, 200, 0.01));
    free(s);
}

/* Samples of a write that completes whole I/Os of io_bytes at hi B/s up
 * to cache_bytes, then at lo B/s: the count of I/Os done by the end of
 * each period, as a drive's would be. */
static DmkSample *quantised_series(size_t n, double period, double io_bytes, double cache_bytes,
                                   double hi, double lo)
{
    DmkSample *s = samples_new(n, period);
    double t_cache = cache_bytes / hi, done_before = 0;
    for (size_t i = 0; i < n; i++) {
        double t = s[i].t_s;
        double bytes = t <= t_cache ? hi * t : cache_bytes + lo * (t - t_cache);
        double done = floor(bytes / io_bytes); /* I/Os complete by t */
        s[i].iops = (done - done_before) / period;
        s[i].mb_s = s[i].iops * io_bytes / 1e6;
        s[i].lat_mean_us = 0; /* nothing in flight: the cliff is where the bytes say */
        done_before = done;
    }
    return s;
}

/* Issue 18's case: 1 MiB writes, a cache of 1,025.5 MiB (the drop half
 * an I/O into a sample), 60 MB/s after it, 0.2 s samples that hold 11 or
 * 12 I/Os past it (57.7 or 62.9 MB/s): the size within the error stated,
 * which is a few MiB, not a sample's 100 MiB (their median said 983 MiB
 * for the size, and one of the two for the speed); the speeds within
 * 0.5 % of the true ones. */
static void test_cliff_within_sample(void)
{
    const double mib = (double)MIB, hi = 500e6, lo = 60e6, cache = 1025.5 * mib;
    DmkSample *s = quantised_series(400, 0.2, mib, cache, hi, lo);
    DmkLabCliff c;
    dmk_lab_cliff(s, 400, "mb_s", &c);
    printf("# 1 MiB I/Os: cache %.1f +- %.1f MiB (1,025.5 true), %.2f -> %.3f MB/s, at %.3f +- "
           "%.3f s (%.3f true)\n",
           c.cache_bytes / mib, c.cache_bytes_err / mib, c.before, c.after, c.cliff_t_s,
           c.cliff_t_err_s, cache / hi);
    DMK_CHECK(c.cliff);
    DMK_CHECK(fabs(c.cache_bytes - cache) <= c.cache_bytes_err);
    DMK_CHECK(c.cache_bytes_err <= 5 * mib);
    DMK_CHECK(fabs(c.cliff_t_s - cache / hi) <= c.cliff_t_err_s);
    DMK_CHECK(near_rel(c.before, 500, 0.005));
    DMK_CHECK(near_rel(c.after, 60, 0.005));
    /* the same in IOPS: the same bytes, speeds in I/Os over time */
    dmk_lab_cliff(s, 400, "iops", &c);
    DMK_CHECK(c.cliff && fabs(c.cache_bytes - cache) <= c.cache_bytes_err);
    DMK_CHECK(near_rel(c.after, lo / mib, 0.005));
    free(s);
    /* a dip and a burst (a cache that drained a little) on the wrong side
     * of the midpoint leave each side's speed alone, as a median did */
    s = quantised_series(400, 0.2, mib, cache, hi, lo);
    s[3].mb_s = 100, s[3].iops = 100e6 / mib;
    for (size_t i = 300; i < 303; i++)
        s[i].mb_s = 450, s[i].iops = 450e6 / mib;
    dmk_lab_cliff(s, 400, "mb_s", &c);
    DMK_CHECK(c.cliff && near_rel(c.before, 500, 0.005) && near_rel(c.after, 60, 0.005));
    free(s);
}

static void test_cliff_none(void)
{
    DmkLabCliff c;
    /* flat with +-15 % noise */
    DmkSample *s = samples_new(60, 1.0);
    for (size_t i = 0; i < 60; i++)
        set_speed(&s[i], 500 * (1.0 + 0.15 * sin((double)i * 2.1)));
    dmk_lab_cliff(s, 60, "mb_s", &c);
    DMK_CHECK(!c.cliff);
    DMK_CHECK(c.cache_bytes == 0);
    DMK_CHECK(c.steady);
    DMK_CHECK(c.steady_excursion_pct <= 15.5);
    DMK_CHECK_NEAR(c.steady_within_pct, 100, 1e-9);
    free(s);

    /* a virtual disk: fast and slow stretches taking turns, both ways */
    s = samples_new(60, 1.0);
    for (size_t i = 0; i < 60; i++)
        set_speed(&s[i], (i * 7) % 11 < 5 ? 1000 : 300);
    DMK_CHECK(!cliff_freeing(s, 60).cliff);
    s = samples_new(60, 1.0);
    for (size_t i = 0; i < 60; i++)
        set_speed(&s[i], (i / 4) % 2 ? 300 : 1000);
    DMK_CHECK(!cliff_freeing(s, 60).cliff);
    /* one long dip that recovers is no cliff */
    s = samples_new(60, 1.0);
    for (size_t i = 0; i < 60; i++)
        set_speed(&s[i], i >= 20 && i < 35 ? 250 : 1000);
    DMK_CHECK(!cliff_freeing(s, 60).cliff);
    /* a drop of 25 % is not a cliff (30 % needed) */
    DMK_CHECK(!step_cliff(40, 15, 1000, 750).cliff);
    /* a rise is not a cliff */
    DMK_CHECK(!step_cliff(40, 15, 250, 1000).cliff);
}

static void test_cliff_too_late(void)
{
    /* 5 % of the samples after the drop: too few to call it sustained */
    DmkLabCliff c = step_cliff(100, 95, 1000, 250);
    DMK_CHECK(!c.cliff);
    DMK_CHECK(c.cache_bytes == 0);
    DMK_CHECK(!step_cliff(100, 92, 1000, 250).cliff);
    /* 10 %: enough */
    c = step_cliff(100, 90, 1000, 250);
    DMK_CHECK(c.cliff);
    DMK_CHECK_NEAR(c.cache_bytes, 90e9, 1);
    /* a drop right at the start (3 samples before it) is found too */
    c = step_cliff(40, 3, 1000, 250);
    DMK_CHECK(c.cliff);
    DMK_CHECK_NEAR(c.cache_bytes, 3e9, 1);
}

static void test_cliff_few_samples(void)
{
    DmkLabCliff c;
    DmkSample *s = step_series(9, 4, 1000, 100);
    dmk_lab_cliff(s, 9, "mb_s", &c);
    DMK_CHECK_INT(c.n, 9);
    DMK_CHECK(!c.cliff);
    DMK_CHECK(isnan(c.before) && isnan(c.after));
    DMK_CHECK_NEAR(c.total_bytes, 4e9 + 5e8, 1); /* still counted */
    DMK_CHECK(!c.steady);
    free(s);
    dmk_lab_cliff(NULL, 0, "mb_s", &c);
    DMK_CHECK_INT(c.n, 0);
    DMK_CHECK(!c.cliff && c.total_bytes == 0);
    /* ten is enough */
    c = step_cliff(10, 4, 1000, 100);
    DMK_CHECK(c.cliff);
    DMK_CHECK_NEAR(c.cache_bytes, 4e9, 1);
}

static void test_steady_state(void)
{
    DmkLabCliff c;
    /* 50 samples: the last 20 % are the last 10 */
    DmkSample *s = samples_new(50, 1.0);
    for (size_t i = 0; i < 50; i++)
        set_speed(&s[i], 100);
    set_speed(&s[45], 130);
    set_speed(&s[47], 70);
    dmk_lab_cliff(s, 50, "mb_s", &c);
    DMK_CHECK(!c.cliff);
    DMK_CHECK_NEAR(c.steady_mean, 100, 1e-9);
    DMK_CHECK_NEAR(c.steady_excursion_pct, 30, 1e-9);
    DMK_CHECK_NEAR(c.steady_within_pct, 80, 1e-9);
    DMK_CHECK(!c.steady);
    /* an outlier before the last 10 does not count */
    set_speed(&s[45], 100);
    set_speed(&s[47], 100);
    set_speed(&s[39], 10);
    set_speed(&s[49], 125);
    dmk_lab_cliff(s, 50, "mb_s", &c);
    DMK_CHECK_NEAR(c.steady_mean, 102.5, 1e-9);
    DMK_CHECK_NEAR(c.steady_excursion_pct, 22.5 / 102.5 * 100, 1e-9);
    DMK_CHECK_NEAR(c.steady_within_pct, 90, 1e-9);
    DMK_CHECK(c.steady);
    free(s);
    /* 20 samples: at least the last 5 */
    s = samples_new(20, 1.0);
    for (size_t i = 0; i < 20; i++)
        set_speed(&s[i], i < 15 ? 500 : (i == 19 ? 50 : 100));
    dmk_lab_cliff(s, 20, "mb_s", &c);
    DMK_CHECK_NEAR(c.steady_mean, 90, 1e-9);
    DMK_CHECK_NEAR(c.steady_within_pct, 80, 1e-9);
    free(s);
}

/* Temperatures per sample: `rise` samples from `from` to `to` (whole
 * degrees), then `to`. */
static void set_temps(DmkSample *s, size_t n, double from, double to, size_t rise)
{
    for (size_t i = 0; i < n; i++)
        s[i].temp_c = i >= rise ? to : floor(from + (to - from) * (double)i / (double)rise + 0.5);
}

static void test_thermal_throttling(void)
{
    DmkLabThermal th;
    /* heats 40 -> 80 C over 30 s, the speed falls to a quarter as it gets there */
    DmkSample *s = step_series(60, 30, 2000, 500);
    set_temps(s, 60, 40, 80, 29);
    dmk_lab_thermal(s, 60, "mb_s", &th);
    DMK_CHECK(th.sensor);
    DMK_CHECK_NEAR(th.min_c, 40, 1e-9);
    DMK_CHECK_NEAR(th.max_c, 80, 1e-9);
    DMK_CHECK(th.throttled);
    DMK_CHECK_NEAR(th.throttle_t_s, 30, 1e-9);
    DMK_CHECK_NEAR(th.throttle_c, 80, 1e-9);
    DMK_CHECK_NEAR(th.before, 2000, 1e-9);
    DMK_CHECK_NEAR(th.after, 500, 1e-9);
    /* a sensor that shows the maximum a sample after the drop */
    set_temps(s, 60, 40, 80, 31);
    dmk_lab_thermal(s, 60, "mb_s", &th);
    DMK_CHECK(th.throttled);
    DMK_CHECK_NEAR(th.throttle_t_s, 30, 1e-9);
    /* the cliff report and the thermal one agree on when */
    DmkLabCliff c;
    dmk_lab_cliff(s, 60, "mb_s", &c);
    DMK_CHECK(c.cliff && fabs(c.cliff_t_s - th.throttle_t_s) < 1e-9);
    free(s);
}

static void test_thermal_not_throttling(void)
{
    DmkLabThermal th;
    /* warm at once (45 -> 70 C in 10 s), flat from there; a cache cliff
     * long after (at 100 s of 150): not throttling */
    DmkSample *s = step_series(150, 100, 2000, 500);
    set_temps(s, 150, 45, 70, 10);
    dmk_lab_thermal(s, 150, "mb_s", &th);
    DMK_CHECK(th.sensor);
    DMK_CHECK_NEAR(th.min_c, 45, 1e-9);
    DMK_CHECK_NEAR(th.max_c, 70, 1e-9);
    DMK_CHECK(!th.throttled);
    DMK_CHECK(isnan(th.throttle_c) && isnan(th.before) && isnan(th.after));
    DmkLabCliff c;
    dmk_lab_cliff(s, 150, "mb_s", &c);
    DMK_CHECK(c.cliff); /* it is a cache cliff */
    /* at a flat temperature all along: the drive did not heat up */
    set_temps(s, 150, 70, 70, 0);
    dmk_lab_thermal(s, 150, "mb_s", &th);
    DMK_CHECK(th.sensor && !th.throttled);
    /* heating without a drop in speed */
    for (size_t i = 0; i < 150; i++)
        set_speed(&s[i], 2000);
    set_temps(s, 150, 40, 80, 30);
    dmk_lab_thermal(s, 150, "mb_s", &th);
    DMK_CHECK(th.sensor && !th.throttled);
    DMK_CHECK_NEAR(th.max_c, 80, 1e-9);
    free(s);
}

static void test_thermal_no_sensor(void)
{
    DmkLabThermal th;
    DmkSample *s = step_series(60, 30, 2000, 500);
    dmk_lab_thermal(s, 60, "mb_s", &th);
    DMK_CHECK(!th.sensor);
    DMK_CHECK(!th.throttled);
    DMK_CHECK(isnan(th.min_c) && isnan(th.max_c));
    free(s);
    dmk_lab_thermal(NULL, 0, "iops", &th);
    DMK_CHECK(!th.sensor && !th.throttled);
}

/* The throttling analysis places its drop the same way, and its speeds
 * are bytes over time too. */
static void test_thermal_within_sample(void)
{
    const double mib = (double)MIB, cache = 1025.5 * mib;
    DmkSample *s = quantised_series(400, 0.2, mib, cache, 500e6, 60e6);
    set_temps(s, 400, 40, 80, 10); /* 80 C at 2.0 s, the drop at 2.151 s */
    DmkLabThermal th;
    dmk_lab_thermal(s, 400, "mb_s", &th);
    DmkLabCliff c;
    dmk_lab_cliff(s, 400, "mb_s", &c);
    printf("# throttled at %.3f +- %.3f s (%.3f true), %.2f -> %.3f MB/s\n", th.throttle_t_s,
           th.throttle_t_err_s, cache / 500e6, th.before, th.after);
    DMK_CHECK(th.throttled);
    DMK_CHECK(fabs(th.throttle_t_s - cache / 500e6) <= th.throttle_t_err_s);
    DMK_CHECK(th.throttle_t_err_s < 0.2 / 4);
    DMK_CHECK(near_rel(th.before, 500, 0.005) && near_rel(th.after, 60, 0.005));
    /* the report's test that the drop is the throttling's, not a cache's */
    DMK_CHECK(c.cliff && fabs(c.cliff_t_s - th.throttle_t_s) < 1e-6);
    free(s);
}

/* ---- the result-level analysis and report on hand-built results ------------------- */

/* A result of n tests, each one pass with the given IOPS and latency. */
static DmkRunResult *result_new(const char *lab, size_t n)
{
    DmkRunResult *r = calloc(1, sizeof *r);
    r->tests = calloc(n, sizeof *r->tests);
    r->n_tests = n;
    r->complete = true;
    snprintf(r->lab, sizeof r->lab, "%s", lab);
    snprintf(r->target.path, sizeof r->target.path, "/mnt/x");
    snprintf(r->date, sizeof r->date, "2026-11-30T06:35:13Z");
    r->size = 64 * MIB;
    return r;
}

static void set_test(DmkTestResult *t, const char *name, DmkMode mode, const char *label,
                     double iops, double lat_us)
{
    DmkJob j;
    dmk_job_parse_name(name, &j, NULL);
    snprintf(t->test.name, sizeof t->test.name, "%s", name);
    snprintf(t->test.label, sizeof t->test.label, "%s", label);
    t->test.mode = mode;
    t->test.n_jobs = 1;
    t->test.jobs[0] = j;
    t->n_passes = 1;
    t->score.total.iops = iops;
    t->score.total.mb_s = iops * j.block_size / 1e6;
    t->score.total.lat_mean_us = lat_us;
    t->score.total.lat_p99_us = lat_us * 2;
}

static void test_latency_analysis_report(void)
{
    DmkRunResult *r = result_new("latency", 24);
    /* one profile under 1 ms up to its 100 % step, whose 99,500 IOPS are
     * within 2 % of the 120 % step's 100,100 and of the full-speed 100,000
     * (both at the 128 queued's 1.28 ms): the headline is the 100 % step;
     * the other never under 1 ms, its saturated steps equal: the first */
    for (int k = 0; k < 12; k++) {
        char label[16] = "max";
        double pct = k == 0 ? 100 : dmk_lab_ramp_pct[k - 1];
        if (k)
            snprintf(label, sizeof label, "%u %%", dmk_lab_ramp_pct[k - 1]);
        double iops = 100000 * fmin(pct, 100) / 100, lat = pct <= 90 ? 300 + pct : 1280;
        if (k == 10)
            iops = 99500, lat = 400;
        if (k == 11)
            iops = 100100, lat = 1279;
        set_test(&r->tests[k], "RND4K Q128T1", DMK_MODE_READ, label, iops, lat);
        r->tests[k].test.rate_iops = k ? (uint64_t)(1000 * pct) : 0;
        set_test(&r->tests[12 + k], "RND4K Q64T1", DMK_MODE_WRITE, label,
                 50000 * fmin(pct, 100) / 100, 1280);
    }
    DmkLabLatency l[4];
    size_t n = dmk_lab_latency(r, l, 4);
    DMK_CHECK_INT(n, 2);
    DMK_CHECK_STR(l[0].name, "RND4K Q128T1");
    DMK_CHECK_INT(l[0].mode, DMK_MODE_READ);
    DMK_CHECK_INT(l[0].first, 0);
    DMK_CHECK_INT(l[0].count, 12);
    DMK_CHECK_NEAR(l[0].max_iops, 100000, 1e-9);
    DMK_CHECK_NEAR(l[0].best_iops, 100100, 1e-9);
    DMK_CHECK_INT(l[0].peak_step, 10);
    DMK_CHECK_NEAR(l[0].peak_iops, 99500, 1e-9);
    DMK_CHECK_NEAR(l[0].peak_lat_ms, 0.4, 1e-9);
    DMK_CHECK_NEAR(l[0].peak_outstanding, 39.8, 1e-9);
    DMK_CHECK_NEAR(l[0].peak_tol_pct, DMK_LAB_PEAK_TOL_PCT, 0);
    DMK_CHECK_NEAR(l[0].outstanding_set, 128, 0);
    DMK_CHECK_NEAR(l[0].outstanding[0], 128, 1e-9);
    DMK_CHECK_NEAR(l[0].outstanding[1], 10000 * 310e-6, 1e-9);
    DMK_CHECK_NEAR(l[0].outstanding[11], 100100 * 1279e-6, 1e-9);
    DMK_CHECK(l[0].sub_ms);
    DMK_CHECK_NEAR(l[0].sub_ms_iops, 99500, 1e-9);
    DMK_CHECK_STR(l[1].name, "RND4K Q64T1");
    DMK_CHECK_INT(l[1].first, 12);
    DMK_CHECK_INT(l[1].count, 12);
    DMK_CHECK(!l[1].sub_ms);
    DMK_CHECK_NEAR(l[1].peak_iops, 50000, 1e-9);
    DMK_CHECK_INT(l[1].peak_step, 12);
    DMK_CHECK_NEAR(l[1].peak_outstanding, 64, 1e-9);
    /* at most `max` profiles */
    DMK_CHECK_INT(dmk_lab_latency(r, l, 1), 1);
    char *text = report_of(r);
    DMK_CHECK(contains(text, "Latency under load on /mnt/x"));
    DMK_CHECK(contains(text, "4KiB random read (RND4K Q128T1, 128 outstanding): peak 99,500 IOPS "
                             "at 0.40 ms mean latency with 39.8 of the 128 outstanding; "
                             "sub-millisecond up to 99,500 IOPS."));
    DMK_CHECK(contains(text, "4KiB random write (RND4K Q64T1, 64 outstanding): peak 50,000 IOPS "
                             "at 1.28 ms mean latency with 64.0 of the 64 outstanding; no step "
                             "stayed under 1 ms."));
    const char *row = strstr(text, "\n  120 %  ");
    DMK_CHECK(row != NULL);
    if (row) {
        char line[128];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
        DMK_CHECK(contains(line, " 120,000 ") && contains(line, " 100,100 "));
        DMK_CHECK(contains(line, " 1.28 ") && contains(line, " 2.56 ") && contains(line, " 128"));
        DMK_CHECK(!contains(line, "peak"));
    }
    /* each step with what it had outstanding; the headline's marked */
    DMK_CHECK(contains(text, " mean ms       p99 ms  outstanding\n"));
    DMK_CHECK(contains(text, "\n  100 %         100,000         99,500         0.40         0.80"
                             "         39.8 <- peak\n"));
    DMK_CHECK(contains(text, "\n  max              full        100,000"));
    DMK_CHECK(contains(text, "\nPeak: the step of the lowest mean latency within 2 % of the "
                             "profile's most IOPS; outstanding: IOPS x mean latency (Little's "
                             "law).\n"));
    DMK_CHECK(!contains(text, "Stopped before the end"));
    report_done(text);
    /* snprintf's rule: a short buffer gets what fits, the length needed comes back */
    char small[16];
    size_t need = dmk_lab_report(r, NULL, 0);
    DMK_CHECK_INT(dmk_lab_report(r, small, sizeof small), need);
    DMK_CHECK_INT(strlen(small), sizeof small - 1);
    DMK_CHECK(strncmp(small, "Latency under l", 15) == 0);
    dmk_run_result_free(r);
}

/* A profile of 12 steps (full speed, 10 .. 100 %, 120 %) whose IOPS
 * rise with the load to `sat` (the steps from `from` on reach it), at
 * `lat_us` below it; steps' IOPS and latencies at [k] override. */
static DmkRunResult *ramp_of(const char *name, DmkMode mode, double sat, double lat_us,
                             const double *iops, const double *lat)
{
    DmkRunResult *r = result_new("latency", 12);
    for (int k = 0; k < 12; k++) {
        char label[16] = "max";
        double pct = k == 0 ? 100 : dmk_lab_ramp_pct[k - 1];
        if (k)
            snprintf(label, sizeof label, "%u %%", dmk_lab_ramp_pct[k - 1]);
        set_test(&r->tests[k], name, mode, label,
                 iops[k] > 0 ? iops[k] : sat * fmin(pct, 100) / 100, lat[k] > 0 ? lat[k] : lat_us);
        r->tests[k].test.rate_iops = k ? (uint64_t)(sat * pct / 100) : 0;
    }
    return r;
}

/* Issue 18's two ramps, where the most IOPS by a hair moved the headline
 * to another step: it is now the lowest latency within 2 % of the most,
 * with what that step had outstanding. */
static void test_latency_peak_stable(void)
{
    DmkLabLatency l;
    /* 64 KiB reads, QD16, a drive held to 2,000 IOPS: at full speed the 16
     * queue (7.99 ms); the 120 % step reached 0.5 % more at 1.99 ms with 4 */
    double iops[12] = {2000, [10] = 1990, [11] = 2010}, lat[12] = {7990, [10] = 2100, [11] = 1990};
    DmkRunResult *r = ramp_of("SEQ64K Q16T1", DMK_MODE_READ, 2000, 500, iops, lat);
    DMK_CHECK_INT(dmk_lab_latency(r, &l, 1), 1);
    DMK_CHECK_INT(l.peak_step, 11);
    DMK_CHECK_NEAR(l.peak_lat_ms, 1.99, 1e-9);
    DMK_CHECK_NEAR(l.peak_outstanding, 2010 * 1.99e-3, 1e-9);
    DMK_CHECK_NEAR(l.outstanding_set, 16, 0);
    DMK_CHECK_NEAR(l.outstanding[0], 2000 * 7.99e-3, 1e-9);
    check_report(r,
                 PARTS("64KiB sequential read (SEQ64K Q16T1, 16 outstanding): peak 2,010 IOPS at "
                       "1.99 ms mean latency with 4.00 of the 16 outstanding;"),
                 NULL);
    /* the full-speed step a hair ahead instead (2,011): the same headline */
    r->tests[0].score.total.iops = 2011;
    DMK_CHECK_INT(dmk_lab_latency(r, &l, 1), 1);
    DMK_CHECK_INT(l.peak_step, 11);
    DMK_CHECK_NEAR(l.best_iops, 2011, 1e-9);
    dmk_run_result_free(r);

    /* 4 KiB reads, QD128 at 2,000 IOPS: 64 ms at full speed, the 100 %
     * step the same 2,000 (a hair less) at 0.055 ms */
    double iops4[12] = {2000, [10] = 1999.5, [11] = 2000},
           lat4[12] = {64000, [10] = 55, [11] = 30000};
    r = ramp_of("RND4K Q128T1", DMK_MODE_READ, 2000, 50, iops4, lat4);
    DMK_CHECK_INT(dmk_lab_latency(r, &l, 1), 1);
    DMK_CHECK_INT(l.peak_step, 10);
    DMK_CHECK_NEAR(l.peak_iops, 1999.5, 1e-9);
    DMK_CHECK_NEAR(l.peak_lat_ms, 0.055, 1e-12);
    DMK_CHECK(l.sub_ms && l.sub_ms_iops == 1999.5);
    check_report(r,
                 PARTS("peak 2,000 IOPS at 0.06 ms mean latency with 0.11 of the 128 outstanding"),
                 PARTS("at 64.0 ms"));
    dmk_run_result_free(r);

    /* 3 % less is not the peak however fast: the tolerance is 2 % */
    double iops3[12] = {2000, [10] = 1940, [11] = 2000},
           lat3[12] = {64000, [10] = 55, [11] = 64000};
    r = ramp_of("RND4K Q128T1", DMK_MODE_READ, 2000, 50, iops3, lat3);
    DMK_CHECK_INT(dmk_lab_latency(r, &l, 1), 1);
    DMK_CHECK_INT(l.peak_step, 0); /* of equal latencies the first, of equal IOPS */
    DMK_CHECK_NEAR(l.peak_lat_ms, 64, 1e-9);
    DMK_CHECK_NEAR(l.peak_outstanding, 128, 1e-9);
    /* no step measured: no peak, said so */
    for (size_t k = 0; k < 12; k++)
        r->tests[k].n_passes = 0;
    DMK_CHECK_INT(dmk_lab_latency(r, &l, 1), 1);
    DMK_CHECK(l.peak_iops == 0 && l.peak_step == 0 && isnan(l.outstanding[0]));
    check_report(r, PARTS("(RND4K Q128T1, 128 outstanding): no step measured;"), NULL);
    dmk_run_result_free(r);
}

/* A lab result on a raw device: the header names the region of the
 * device it wrote over, and the device's size, as the plain report does;
 * no "test file" anywhere (issue 18). */
static void test_device_header(void)
{
    DmkRunResult *r = result_new("sustained", 1);
    DmkTestResult *t = &r->tests[0];
    set_test(t, "RND4K Q32T1", DMK_MODE_WRITE, "sustained", 16000, 2000);
    DmkTargetInfo *ti = &r->target;
    snprintf(ti->path, sizeof ti->path, "/dev/sdz");
    snprintf(ti->fs_type, sizeof ti->fs_type, "%s", DMK_FS_TYPE_DEVICE);
    snprintf(ti->model, sizeof ti->model, "Test SSD 1TB");
    ti->is_device = true;
    ti->fs_size_bytes = 500 * GIB;
    r->size = GIB;
    char area[64];
    dmk_result_area(r, area, sizeof area);
    DMK_CHECK_STR(area, "1 GiB region of /dev/sdz");
    check_report(r,
                 PARTS("Sustained write on a 1 GiB region of /dev/sdz (raw device of 500 GiB, Test "
                       "SSD 1TB), 2026-11-30T06:35:13Z\n"),
                 PARTS("test file"));
    /* a device's size unknown: no "of" */
    ti->fs_size_bytes = 0;
    check_report(r, PARTS("on a 1 GiB region of /dev/sdz (raw device, Test SSD 1TB), "), NULL);
    /* a directory's: as before */
    ti->is_device = false;
    snprintf(ti->path, sizeof ti->path, "/mnt/x");
    snprintf(ti->fs_type, sizeof ti->fs_type, "ext4");
    dmk_result_area(r, area, sizeof area);
    DMK_CHECK_STR(area, "1 GiB test file");
    check_report(r,
                 PARTS("Sustained write on /mnt/x (ext4, Test SSD 1TB), 1 GiB test file, "
                       "2026-11-30T06:35:13Z\n"),
                 NULL);
    dmk_run_result_free(r);
}

static void test_mixed_recovery_analysis(void)
{
    DmkRunResult *r = result_new("mixed", 12);
    for (int i = 0; i < 12; i++) {
        char label[16];
        snprintf(label, sizeof label, "%u %% read", dmk_lab_mix_share[i % 6]);
        set_test(&r->tests[i], i < 6 ? "SEQ128K Q1T2" : "RND4K Q1T4", DMK_MODE_MIX, label,
                 1000 * (i + 1), 500);
        r->tests[i].test.jobs[0].read_share = dmk_lab_mix_share[i % 6];
    }
    DmkLabMixed m[3];
    size_t n = dmk_lab_mixed(r, m, 3);
    DMK_CHECK_INT(n, 2);
    DMK_CHECK_STR(m[0].name, "SEQ128K Q1T2");
    DMK_CHECK_STR(m[1].name, "RND4K Q1T4");
    double sum = 0;
    for (int k = 0; k < 6; k++) {
        DMK_CHECK_INT(m[0].share[k], dmk_lab_mix_share[k]);
        DMK_CHECK_INT(m[1].share[k], dmk_lab_mix_share[k]);
        DMK_CHECK_NEAR(m[0].mb_s[k], 1000.0 * (k + 1) * 131072 / 1e6, 1e-9);
        sum += m[0].mb_s[k];
    }
    DMK_CHECK_INT(m[0].n, 6);
    DMK_CHECK_NEAR(m[0].mean_mb_s, sum / 6, 1e-9);
    check_report(r, PARTS("Mixed load on /mnt/x", "Read share", "Average", "SEQ128K Q1T2"), NULL);
    dmk_run_result_free(r);

    /* recovery stopped after the degraded probe: the last two not measured */
    r = result_new("recovery", 3);
    set_test(&r->tests[0], "RND4K Q32T1", DMK_MODE_WRITE, "fresh", 30000, 1000);
    set_test(&r->tests[1], "RND4K Q32T1", DMK_MODE_WRITE, "degradation", 9000, 3000);
    set_test(&r->tests[2], "RND4K Q32T1", DMK_MODE_WRITE, "degraded", 7000, 4000);
    r->complete = false;
    DmkLabRecovery rec;
    dmk_lab_recovery(r, &rec);
    DMK_CHECK_STR(rec.metric, "iops");
    DMK_CHECK_STR(rec.label[0], "fresh");
    DMK_CHECK_STR(rec.label[1], "degraded");
    DMK_CHECK_STR(rec.label[2], "after idle");
    DMK_CHECK_STR(rec.label[3], "after TRIM");
    DMK_CHECK_NEAR(rec.value[0], 30000, 1e-9);
    DMK_CHECK_NEAR(rec.value[1], 7000, 1e-9);
    DMK_CHECK(isnan(rec.value[2]) && isnan(rec.value[3]));
    DMK_CHECK(dmk_lab_timeline_test(r) == &r->tests[1]); /* the degradation, by its label */
    check_report(r,
                 PARTS("Stopped before the end", "after idle   not measured",
                       "fresh        30,000 IOPS (123 MB/s)"),
                 NULL);
    dmk_run_result_free(r);

    /* not a lab result; a lab result with no test */
    r = result_new("", 0);
    check_report(r, PARTS("Not a review-lab result."), NULL);
    snprintf(r->lab, sizeof r->lab, "sustained");
    check_report(r, PARTS("No test completed."), NULL);
    dmk_run_result_free(r);
}

/* ---- whole runs on the null backend -------------------------------------------- */

/* What the progress reports of a run showed. */
typedef struct {
    DmkRunner *runner;
    int calls, measure_calls;
    int stop_after_measure; /* > 0: stop the run at this many measure reports */
    bool stop_at_interval;  /* stop the run at its first interval (idle) report */
    uint64_t t_stop_ns;
    uint64_t t_measure_ns; /* when the measurement began, from the first measure report */
    double first_remaining, last_remaining, last_elapsed, max_remaining_rise;
    int elapsed_falls, bytes_falls;
    size_t last_index;
    DmkStage last_stage;
    uint64_t last_bytes, max_bytes;
    int temp_nan, temp_finite, temp_not_whole;
    double temp_min, temp_max;
    atomic_int measuring;
} Watch;

static void watch_init(Watch *w)
{
    memset(w, 0, sizeof *w);
    w->temp_min = INFINITY;
    w->temp_max = -INFINITY;
    atomic_init(&w->measuring, 0);
}

static void watch_progress(const DmkProgress *p, void *user)
{
    Watch *w = user;
    if (w->calls == 0) {
        w->first_remaining = p->remaining_s;
    } else {
        w->max_remaining_rise = fmax(w->max_remaining_rise, p->remaining_s - w->last_remaining);
        w->elapsed_falls += p->elapsed_s < w->last_elapsed;
        /* warm-up and measurement of one test: its bytes only grow */
        bool in_test = (p->stage == DMK_STAGE_WARMUP || p->stage == DMK_STAGE_MEASURE) &&
                       (w->last_stage == DMK_STAGE_WARMUP || w->last_stage == DMK_STAGE_MEASURE);
        bool same_test = in_test && p->test_index == w->last_index;
        if (same_test && p->test_bytes < w->last_bytes) {
            printf("# progress: test %zu stage %d: %llu bytes after %llu (stage %d)\n",
                   p->test_index, (int)p->stage, (unsigned long long)p->test_bytes,
                   (unsigned long long)w->last_bytes, (int)w->last_stage);
            w->bytes_falls++;
        }
    }
    w->calls++;
    w->last_remaining = p->remaining_s;
    w->last_elapsed = p->elapsed_s;
    w->last_index = p->test_index;
    w->last_stage = p->stage;
    w->last_bytes = p->test_bytes;
    if (p->test_bytes > w->max_bytes)
        w->max_bytes = p->test_bytes;
    if (p->stage == DMK_STAGE_MEASURE) {
        if (w->measure_calls++ == 0) {
            /* one pass of the test's own length: fraction is the share of it behind us */
            double pass_s = p->test ? p->test->measure_s : 0;
            w->t_measure_ns = dmk_clock_ns() - (uint64_t)(p->fraction * pass_s * 1e9);
        }
        atomic_store(&w->measuring, 1);
        if (isnan(p->temp_c)) {
            w->temp_nan++;
        } else {
            w->temp_finite++;
            w->temp_min = fmin(w->temp_min, p->temp_c);
            w->temp_max = fmax(w->temp_max, p->temp_c);
            w->temp_not_whole += p->temp_c != floor(p->temp_c);
        }
    }
    bool stop = (w->stop_after_measure && w->measure_calls == w->stop_after_measure &&
                 p->stage == DMK_STAGE_MEASURE) ||
                (w->stop_at_interval && p->stage == DMK_STAGE_INTERVAL);
    if (stop && !w->t_stop_ns) {
        w->t_stop_ns = dmk_clock_ns();
        dmk_runner_stop(w->runner);
    }
}

/* Runs spec on the null backend with w watching (NULL: no callbacks). */
static int run_null(const DmkRunSpec *spec, Watch *w, DmkRunResult **out, DmkError *err)
{
    DmkRunner *r = dmk_runner_new(spec, dmk_backend_null());
    DMK_CHECK(r != NULL);
    if (w)
        w->runner = r;
    DmkRunCallbacks cb = {watch_progress, NULL, w};
    memset(err, 0, sizeof *err);
    *out = NULL;
    uint64_t t0 = dmk_clock_ns();
    int rc = dmk_runner_run(r, w ? &cb : NULL, out, err);
    printf("# %s run: rc %d in %.2f s%s%s\n", spec->lab[0] ? spec->lab : "plain", rc,
           (double)(dmk_clock_ns() - t0) / 1e9, rc ? ": " : "", rc ? err->msg : "");
    dmk_runner_free(r);
    if (!*out)
        DMK_CHECK(*out != NULL);
    return rc;
}

/* A lab spec for the null backend: latency in us, the simulated drive. */
static DmkRunSpec *lab_spec(const DmkLabParams *p, uint64_t latency_us, DmkNullSim sim)
{
    DmkRunSpec *s = spec_new();
    dmk_null_opts(&s->backend_opts)->latency_ns = latency_us * 1000;
    dmk_null_opts(&s->backend_opts)->sim = sim;
    DmkError err = {0};
    int rc = dmk_lab_build(p, s, &err);
    if (rc != DMK_OK)
        printf("# dmk_lab_build: %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    return s;
}

/* One run on the null backend: its spec (freed with it), what its
 * progress showed, its result, status and seconds. */
typedef struct {
    DmkRunSpec *spec;
    Watch w;
    DmkRunResult *res;
    DmkError err;
    int rc;
    double took;
} NullRun;

typedef enum { NO_CALLBACKS, WATCHED } Watching;

/* Readies run to run spec, which it takes over; set run->w's stops, then null_run. */
static void null_run_init(NullRun *run, DmkRunSpec *spec)
{
    memset(run, 0, sizeof *run);
    run->spec = spec;
    watch_init(&run->w);
}

/* Runs run->spec with run->w watching, or with no callbacks at all, and
 * checks that it ends with `want`; true when there is a result to check. */
static bool null_run(NullRun *run, Watching watching, int want)
{
    uint64_t t0 = dmk_clock_ns();
    run->rc = run_null(run->spec, watching == WATCHED ? &run->w : NULL, &run->res, &run->err);
    run->took = (double)(dmk_clock_ns() - t0) / 1e9;
    DMK_CHECK_INT(run->rc, want);
    return run->res != NULL;
}

static void null_run_free(NullRun *run)
{
    dmk_run_result_free(run->res);
    free(run->spec);
    run->res = NULL;
    run->spec = NULL;
}

/* Runs spec (taken over), which must succeed; false, with nothing left
 * to free, when there is no result to check. */
static bool run_ok(NullRun *run, DmkRunSpec *spec, Watching watching)
{
    null_run_init(run, spec);
    if (null_run(run, watching, DMK_OK))
        return true;
    null_run_free(run);
    return false;
}

/* A short sustained write as dmk_lab_build makes it: the 16 MiB file is
 * filled first (16 MiB into the simulated cache, +16 MiB / bytes_per_c
 * on the simulated sensor), with no settle unless the test asks. */
static DmkLabParams sustained_params(double duration_s, double sample_s)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_SUSTAINED);
    p.span = 16 * MIB;
    p.duration_s = duration_s;
    p.sample_s = sample_s;
    p.settle_s = 0;
    return p;
}

/* A short recovery test in 0.1 s samples: probes of step_s, a degradation
 * of duration_s, an idle of idle_s, after a settle of settle_s. */
static DmkLabParams recovery_params(uint64_t span, double step_s, double duration_s, double idle_s,
                                    double settle_s)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_RECOVERY);
    p.span = span;
    p.step_s = step_s;
    p.duration_s = duration_s;
    p.idle_s = idle_s;
    p.settle_s = settle_s;
    p.sample_s = 0.1;
    return p;
}

static double sample_bytes(const DmkSample *s, size_t i)
{
    double t0 = i ? s[i - 1].t_s : 0.0;
    return s[i].mb_s * 1e6 * (s[i].t_s - t0);
}

/* The best 0.1 s sample of a test: a rate limiter that let I/O through
 * too fast would raise it. */
static double best_sample(const DmkTestResult *t)
{
    double best = 0;
    for (size_t i = 0; i < t->n_samples; i++)
        best = fmax(best, t->samples[i].iops);
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_iops(const DmkTestResult *t)
{
    if (!t->n_samples)
        return NAN;
    double *v = malloc(t->n_samples * sizeof *v);
    for (size_t i = 0; i < t->n_samples; i++)
        v[i] = t->samples[i].iops;
    qsort(v, t->n_samples, sizeof *v, cmp_double);
    double m = t->n_samples % 2 ? v[t->n_samples / 2]
                                : (v[t->n_samples / 2 - 1] + v[t->n_samples / 2]) / 2;
    free(v);
    return m;
}

/* The samples are periods of `period` s ending at t_s, the last possibly
 * shorter (ending at `measured`; a last piece under a tenth of a period
 * joins the sample before it), and their bytes add up to the pass's. */
static void check_samples(const DmkTestResult *t, double period, double measured)
{
    size_t expect = (size_t)ceil(measured / period - 1e-6);
    if (expect >= 2 && measured - period * (double)(expect - 1) < period / 10)
        expect--;
    if (t->n_samples != expect)
        printf("# %s %s: %zu samples over %.3f s, expected %zu\n", t->test.name, t->test.label,
               t->n_samples, measured, expect);
    DMK_CHECK_INT(t->n_samples, expect);
    double bytes = 0;
    for (size_t i = 0; i < t->n_samples; i++) {
        double end = i + 1 == t->n_samples ? measured : fmin(period * (double)(i + 1), measured);
        DMK_CHECK_NEAR(t->samples[i].t_s, end, 1e-6);
        bytes += sample_bytes(t->samples, i);
    }
    if (t->n_passes)
        DMK_CHECK(near_rel(bytes, (double)t->passes[0].total.bytes, 1e-6));
}

static void sustained_cache_once(const void *arg)
{
    (void)arg;
    /* 2000 us, QD32: 16,000 IOPS (65.5 MB/s) fresh, 4,000 past an 80 MiB
     * cache that never drains, of which the fill took 16 MiB: the cliff
     * comes after 64 MiB of the run's writes (about 1 s in) */
    DmkLabParams p = sustained_params(3.0, 0.1);
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 2000, (DmkNullSim){80 * MIB, 4, 0, 0}), WATCHED))
        return;
    const DmkRunResult *res = run.res;
    DMK_CHECK(res->complete);
    DMK_CHECK_STR(res->lab, "sustained");
    DMK_CHECK_INT(res->n_tests, 1);
    DMK_CHECK_STR(res->target.temp_sensor, "");
    const DmkTestResult *t = &res->tests[0];
    DMK_CHECK(!t->partial);
    DMK_CHECK_INT(t->n_passes, 1);
    DMK_CHECK_NEAR(t->score.total.seconds, 3.0, 1e-9);
    check_samples(t, 0.1, 3.0);
    for (size_t i = 0; i < t->n_samples; i++)
        DMK_CHECK(isnan(t->samples[i].temp_c));
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, dmk_lab_metric(&t->test), &c);
    double fast_sample = c.before * 4096 * 0.1; /* bytes of one sample before the drop */
    printf("# cliff %d: %.2f +- %.2f MiB written before it (64 expected, one sample %.1f MiB), "
           "%.0f -> %.0f IOPS (ratio %.2f)\n",
           c.cliff, c.cache_bytes / MIB, c.cache_bytes_err / MIB, fast_sample / MIB, c.before,
           c.after, c.before / c.after);
    DMK_CHECK(c.cliff);
    /* placed within its sample: within the error stated, a small part of one */
    DMK_CHECK(fabs(c.cache_bytes - 64.0 * MIB) <= c.cache_bytes_err);
    DMK_CHECK(c.cache_bytes_err <= fast_sample / 4);
    DMK_CHECK(near_rel(c.before, 16000, 0.01));
    DMK_CHECK(near_rel(c.after, 4000, 0.01));
    DMK_CHECK(near_rel(c.before / c.after, 4.0, 0.02));
    DMK_CHECK(near_rel(c.total_bytes, (double)t->score.total.bytes, 1e-6));
    DMK_CHECK(c.steady);
    DMK_CHECK(near_rel(c.steady_mean, c.after, 0.1));
    /* the progress: no sensor, time moving the right way */
    DMK_CHECK(run.w.temp_nan > 0 && run.w.temp_finite == 0);
    check_report(
        res,
        PARTS("Sustained write on", "RND4K Q32T1 write, sustained:", "sampled every 0.1 s.",
              " MiB written before the speed dropped at", "Steady state (last 20 % of the run):",
              "Temperature: no temperature sensor readable"),
        PARTS("no cache detected"));
    null_run_free(&run);
}

ONCE_TEST(sustained_cache)

/* The lab's own preparation: a 128 MiB fill overflows a 32 MiB cache
 * that drains in 2 s, and a settle of 2.2 s empties it again, so the run
 * finds the cache: 32 MiB plus what drains while it fills (16 MiB/s
 * against 62.5 MiB/s of writes at 2000 us). Half speed past it, which
 * outruns the drain. */
static void sustained_settle_once(const void *arg)
{
    (void)arg;
    DmkLabParams p = sustained_params(2.0, 0.1);
    p.span = 128 * MIB;
    p.settle_s = 2.2;
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 2000, (DmkNullSim){32 * MIB, 2, 2.0, 0}), NO_CALLBACKS))
        return;
    DMK_CHECK(run.took >= 4.2); /* the settle was spent */
    const DmkTestResult *t = &run.res->tests[0];
    check_samples(t, 0.1, 2.0);
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, "iops", &c);
    double v = c.before * 4096, d = 32.0 * MIB / 2.0; /* bytes/s written, drained */
    double expect = 32.0 * MIB * v / (v - d), one = v * 0.1;
    printf("# after the settle: cliff %d after %.2f +- %.2f MiB (%.2f expected, one sample %.1f "
           "MiB), %.0f -> %.0f IOPS\n",
           c.cliff, c.cache_bytes / MIB, c.cache_bytes_err / MIB, expect / MIB, one / MIB, c.before,
           c.after);
    DMK_CHECK(c.cliff);
    DMK_CHECK(fabs(c.cache_bytes - expect) <= c.cache_bytes_err);
    DMK_CHECK(c.cache_bytes_err <= one / 4);
    DMK_CHECK(near_rel(c.before, 16000, 0.01));
    DMK_CHECK(near_rel(c.before / c.after, 2.0, 0.02));
    null_run_free(&run);
}

ONCE_TEST(sustained_settle)

static void sustained_no_cache_once(const void *arg)
{
    (void)arg;
    DmkLabParams p = sustained_params(1.5, 0.1);
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 1000, (DmkNullSim){0}), WATCHED))
        return;
    const Watch *w = &run.w;
    const DmkTestResult *t = &run.res->tests[0];
    check_samples(t, 0.1, 1.5);
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, "iops", &c);
    DMK_CHECK(!c.cliff);
    DMK_CHECK(c.steady);
    DMK_CHECK(near_rel(c.steady_mean, 32000, 0.01));
    printf("# no cache: steady %.0f IOPS, excursion %.1f %%\n", c.steady_mean,
           c.steady_excursion_pct);
    /* progress: remaining falls to 0, elapsed rises, bytes grow, no temperature */
    printf("# progress: %d reports, remaining %.2f -> %.2f s (largest rise %.3f s), %llu bytes\n",
           w->calls, w->first_remaining, w->last_remaining, w->max_remaining_rise,
           (unsigned long long)w->max_bytes);
    DMK_CHECK(w->calls >= 10);
    DMK_CHECK(w->first_remaining <= 1.5 + 1e-9 && w->first_remaining >= 1.2);
    DMK_CHECK(w->last_remaining <= 0.2);
    DMK_CHECK(w->max_remaining_rise <= 0.02);
    DMK_CHECK_INT(w->elapsed_falls, 0);
    DMK_CHECK_INT(w->bytes_falls, 0);
    DMK_CHECK(w->max_bytes > 0 && w->max_bytes <= t->score.total.bytes + 32 * 4096);
    DMK_CHECK(w->max_bytes >= t->score.total.bytes * 0.8);
    DMK_CHECK(w->temp_nan == w->measure_calls && w->temp_finite == 0);
    check_report(run.res,
                 PARTS("Cache: no cache detected in", "(no sustained drop in speed)",
                       "no temperature sensor"),
                 PARTS("Thermal throttling"));
    null_run_free(&run);
}

ONCE_TEST(sustained_no_cache)

static void sustained_thermal_once(const void *arg)
{
    (void)arg;
    /* 2000 us, 1 C per 1.5 MiB: the fill warms the drive to ~51 C, the
     * run to 80 C after ~44 MiB more (~0.7 s at 65.5 MB/s); throttled, the
     * writes (4,000 IOPS, 16 MB/s, +10 C/s) outrun the cooling (2 C/s) */
    DmkLabParams p = sustained_params(2.5, 0.1);
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 2000, (DmkNullSim){0, 4, 0, 3 * MIB / 2}), WATCHED))
        return;
    const Watch *w = &run.w;
    DMK_CHECK_STR(run.res->target.temp_sensor, "simulated sensor (null backend)");
    const DmkTestResult *t = &run.res->tests[0];
    check_samples(t, 0.1, 2.5);
    size_t finite = 0, whole = 0;
    double first = NAN, last = NAN;
    for (size_t i = 0; i < t->n_samples; i++) {
        double c = t->samples[i].temp_c;
        finite += isfinite(c);
        whole += c == floor(c);
        if (i == 0)
            first = c;
        last = c;
        DMK_CHECK(c >= 40 && c <= 80);
    }
    DMK_CHECK_INT(finite, t->n_samples);
    DMK_CHECK_INT(whole, t->n_samples);
    DMK_CHECK(first < 60);
    DMK_CHECK(last == 80);
    DmkLabThermal th;
    dmk_lab_thermal(t->samples, t->n_samples, "iops", &th);
    printf("# thermal: %g..%g C, throttled %d at %.1f s, %.0f -> %.0f IOPS\n", th.min_c, th.max_c,
           th.throttled, th.throttle_t_s, th.before, th.after);
    DMK_CHECK(th.sensor);
    DMK_CHECK(th.min_c >= 40 && th.min_c < 60);
    DMK_CHECK(th.max_c == 80);
    DMK_CHECK(th.throttled);
    DMK_CHECK(th.throttle_c == 80);
    DMK_CHECK(th.throttle_t_s > 0.3 && th.throttle_t_s < 1.5);
    DMK_CHECK(near_rel(th.before / th.after, 4.0, 0.15));
    /* progress carries the temperature, whole degrees, up to 80 */
    DMK_CHECK(w->temp_finite == w->measure_calls && w->temp_nan == 0);
    DMK_CHECK(w->temp_min >= 40 && w->temp_max == 80);
    DMK_CHECK_INT(w->temp_not_whole, 0);
    check_report(run.res,
                 PARTS("Temperature: ", "to 80 C (simulated sensor (null backend)).",
                       "Thermal throttling: after", "at its maximum of 80 C, the speed fell from",
                       "Cache: no cache detected; the speed drop at"),
                 PARTS("no temperature sensor"));
    null_run_free(&run);
}

ONCE_TEST(sustained_thermal)

/* A drive with a sensor that hardly warms (1 C per 16 MiB against 2 C/s
 * of cooling: +2 C/s at full speed, cooling past the cache) and a cache
 * cliff: the cliff is the cache's, not throttling. */
static void sustained_cache_with_sensor_once(const void *arg)
{
    (void)arg;
    DmkLabParams p = sustained_params(2.5, 0.1);
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 2000, (DmkNullSim){80 * MIB, 4, 0, 16 * MIB}), NO_CALLBACKS))
        return;
    const DmkTestResult *t = &run.res->tests[0];
    DmkLabThermal th;
    dmk_lab_thermal(t->samples, t->n_samples, "iops", &th);
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, "iops", &c);
    printf("# sensor and cache: %g..%g C, cliff %d after %.1f MiB, throttled %d\n", th.min_c,
           th.max_c, c.cliff, c.cache_bytes / MIB, th.throttled);
    DMK_CHECK(th.sensor && th.max_c < 50);
    DMK_CHECK(c.cliff);
    DMK_CHECK(!th.throttled);
    check_report(run.res,
                 PARTS("No thermal throttling detected.", "written before the speed dropped"),
                 NULL);
    null_run_free(&run);
}

ONCE_TEST(sustained_cache_with_sensor)

/* The latency ramp's four profiles (dmk_lab_build's latency spec), each
 * run on its own at a latency that makes its maximum 4,000 IOPS (QD x
 * 250 us): every step's rate-limited worker then mostly sleeps (a period
 * of 208 us or more), and a 0.1 s sample holds 40 or more I/Os even at
 * 10 %. */
static const struct {
    const char *name, *title;
    double qd;
} lat_profiles[4] = {{"RND4K Q128T1", "4KiB random read", 128},
                     {"RND4K Q64T1", "4KiB random write", 64},
                     {"SEQ64K Q16T1", "64KiB sequential read", 16},
                     {"SEQ64K Q8T1", "64KiB sequential write", 8}};

static void latency_profile_once(const void *arg)
{
    size_t i = *(const size_t *)arg;
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_LATENCY);
    p.span = 16 * MIB;
    p.step_s = 0.2;
    p.warmup_s = 0;
    p.sample_s = 0.1;
    DmkRunSpec *s = lab_spec(&p, 0, (DmkNullSim){0});
    DMK_CHECK_INT(s->n_tests, 48);
    if (s->n_tests != 48) {
        free(s);
        return;
    }
    /* profile i alone: its 12 steps, their rates taken from its "max" */
    memmove(s->tests, &s->tests[i * 12], 12 * sizeof *s->tests);
    s->n_tests = 12;
    for (size_t k = 1; k < 12; k++)
        s->tests[k].rate_ref -= (uint32_t)(i * 12);
    uint64_t latency_us = (uint64_t)lat_profiles[i].qd * 250;
    double capacity = lat_profiles[i].qd / ((double)latency_us / 1e6); /* 4,000 IOPS */
    dmk_null_opts(&s->backend_opts)->latency_ns = latency_us * 1000;
    NullRun run;
    if (!run_ok(&run, s, NO_CALLBACKS))
        return;
    const DmkRunResult *res = run.res;
    if (res->n_tests != 12) {
        DMK_CHECK(res->n_tests == 12);
        null_run_free(&run);
        return;
    }
    DMK_CHECK(res->complete);
    DmkLabLatency l[2];
    DMK_CHECK_INT(dmk_lab_latency(res, l, 2), 1);
    double max = l[0].max_iops;
    printf("# %s at %llu us: max %.0f IOPS (%.0f at best)\n", l[0].name,
           (unsigned long long)latency_us, max, capacity);
    DMK_CHECK_STR(l[0].name, lat_profiles[i].name);
    DMK_CHECK_INT(l[0].count, 12);
    /* QD x 1/latency, less the I/Os that complete exactly at the end of
     * the 0.2 s step (they count in no pass): 40 at QD128 (4 %) */
    DMK_CHECK(max >= capacity * 0.95 && max <= capacity * 1.001);
    DMK_CHECK(!l[0].sub_ms);
    DMK_CHECK(l[0].peak_iops >= max * 0.97 && l[0].peak_iops <= capacity * 1.02);
    /* A rate-limited step runs at its rate (its best 0.1 s sample within
     * one I/O, 10 IOPS), and past the drive's capacity it is capped there;
     * the latency stays the drive's (the limiter queues nothing). */
    double ratio[11], p50[11];
    for (size_t k = 1; k < 12; k++) {
        const DmkTestResult *t = &res->tests[k];
        uint32_t pct = dmk_lab_ramp_pct[k - 1];
        double target = max * pct / 100.0, got = t->score.total.iops;
        double best = best_sample(t), lat = t->score.total.lat_mean_us;
        if (t->test.rate_iops != (uint64_t)(target + 0.5))
            printf("#   %s: rate %llu, expected %.0f\n", t->test.label,
                   (unsigned long long)t->test.rate_iops, target);
        DMK_CHECK(t->test.rate_iops == (uint64_t)(target + 0.5));
        double lower = fmin(target, max), upper = fmin(target, capacity);
        bool not_more = best <= upper * 1.05 + 10 && got <= upper * 1.03 + 5;
        bool not_far = best >= lower * 0.95;
        ratio[k - 1] = best / lower;
        p50[k - 1] = t->score.total.lat_p50_us;
        if (!not_more || !not_far || ratio[k - 1] < 0.95)
            printf("#   %s: %.0f IOPS (best sample %.0f) for a target of %.0f, latency mean "
                   "%.0f us, median %.0f us, max %.0f us\n",
                   t->test.label, got, best, target, lat, p50[k - 1], t->score.total.lat_max_us);
        DMK_CHECK(not_more);
        DMK_CHECK(not_far);
        DMK_CHECK(t->score.total.ios > 0 && lat >= latency_us);
        /* what it had outstanding, by Little's law: its IOPS times the
         * drive's latency, which does not change with the load */
        double q = got * (double)latency_us / 1e6;
        if (!near_rel(l[0].outstanding[k], q, 0.05))
            printf("#   %s: %.2f outstanding, %.2f expected\n", t->test.label, l[0].outstanding[k],
                   q);
        DMK_CHECK(near_rel(l[0].outstanding[k], q, 0.05));
    }
    /* the headline: a step within 2 % of the most IOPS, at its latency,
     * with no more outstanding than the profile keeps */
    DMK_CHECK(l[0].peak_iops >= l[0].best_iops * 0.98 && l[0].peak_step < 12);
    DMK_CHECK_NEAR(l[0].peak_outstanding, l[0].peak_iops * l[0].peak_lat_ms / 1e3, 1e-9);
    DMK_CHECK(l[0].peak_outstanding <= lat_profiles[i].qd * 1.01);
    DMK_CHECK_NEAR(l[0].outstanding_set, lat_profiles[i].qd, 0);
    qsort(ratio, 11, sizeof *ratio, cmp_double);
    qsort(p50, 11, sizeof *p50, cmp_double);
    printf("# median step: %.3f of its rate, latency median %.0f us\n", ratio[5], p50[5]);
    DMK_CHECK(ratio[5] >= 0.99);
    DMK_CHECK(p50[5] <= latency_us * 1.01);
    char want[128];
    snprintf(want, sizeof want, "%s (%s, %.0f outstanding): peak ", lat_profiles[i].title,
             lat_profiles[i].name, lat_profiles[i].qd);
    check_report(res, PARTS(want, "no step stayed under 1 ms.", "\n  120 %  "), NULL);
    null_run_free(&run);
}

static void test_latency_ramp(void)
{
    static const size_t index[4] = {0, 1, 2, 3};
    for (size_t i = 0; i < 4; i++)
        latency_profile_once(&index[i]);
}

static void mixed_run_once(const void *arg)
{
    (void)arg;
    /* QD8 per thread at 1000 us: SEQ128K T2 16,000 IOPS, RND4K T4 32,000 */
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_MIXED);
    p.span = 64 * MIB;
    p.step_s = 0.25;
    p.warmup_s = 0;
    p.sample_s = 0.25;
    p.mixed_qd = 8;
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 1000, (DmkNullSim){0}), NO_CALLBACKS))
        return;
    const DmkRunResult *res = run.res;
    DMK_CHECK_INT(res->n_tests, 12);
    for (size_t i = 0; i < res->n_tests && i < 12; i++) {
        const DmkTestResult *t = &res->tests[i];
        uint32_t share = dmk_lab_mix_share[i % 6];
        const DmkPassResult *sc = &t->score;
        double read_share = 100.0 * (double)sc->read.bytes / (double)sc->total.bytes;
        double expect_iops = i < 6 ? 16000 : 32000;
        printf("# %s %s: read share %.1f %%, %.0f IOPS\n", t->test.name, t->test.label, read_share,
               sc->total.iops);
        DMK_CHECK_STR(t->test.name, i < 6 ? "SEQ128K Q8T2" : "RND4K Q8T4");
        DMK_CHECK_INT(t->test.jobs[0].read_share, share);
        DMK_CHECK(sc->read.bytes + sc->write.bytes == sc->total.bytes);
        if (share == 0 || share == 100)
            DMK_CHECK(read_share == (double)share);
        /* each worker holds its share by construction (dmk-mix.h): less
         * than 2 I/Os per worker from exact in a step (it drew per I/O,
         * and this allowed 4 points) */
        double exact = (double)sc->total.ios * share / 100.0;
        DMK_CHECK(fabs((double)sc->read.ios - exact) < 2.0 * dmk_test_threads(&t->test));
        DMK_CHECK(near_rel(sc->total.iops, expect_iops, 0.01));
        DMK_CHECK(near_rel(sc->read.mb_s + sc->write.mb_s, sc->total.mb_s, 1e-6));
    }
    DmkLabMixed m[2];
    DMK_CHECK_INT(dmk_lab_mixed(res, m, 2), 2);
    DMK_CHECK_INT(m[0].n, 6);
    DMK_CHECK_INT(m[1].n, 6);
    DMK_CHECK_NEAR(m[1].mb_s[3], res->tests[9].score.total.mb_s, 1e-9);
    check_report(res, PARTS("Mixed load on", "SEQ128K Q8T2", "RND4K Q8T4", "       100 %"), NULL);
    null_run_free(&run);
}

ONCE_TEST(mixed_run)

/* The mixed sweep's known answer (issue 18): a drive that writes
 * 100 MB/s, one write after another for all workers, and reads in
 * 200 us. While the writes keep it busy, a step of s % reads moves
 * 100 / (1 - s / 100) MB/s; all reads, QD x threads per 200 us. What is
 * left is a step's edges (a write that began before it counts whole):
 * well under 1 % in the shortest, SEQ128K all writes, 381 I/Os. */
static void mixed_rate_run_once(const void *arg)
{
    (void)arg;
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_MIXED);
    p.span = 64 * MIB;
    p.step_s = 0.5;
    p.warmup_s = 0;
    p.sample_s = 0.5;
    p.mixed_qd = 8;
    DmkNullSim sim = {0};
    sim.write_bytes_s = 100000000;
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 200, sim), NO_CALLBACKS))
        return;
    const DmkRunResult *res = run.res;
    DMK_CHECK_INT(res->n_tests, 12);
    for (size_t i = 0; i < res->n_tests && i < 12; i++) {
        const DmkTestResult *t = &res->tests[i];
        uint32_t share = dmk_lab_mix_share[i % 6], threads = dmk_test_threads(&t->test);
        const DmkPassResult *sc = &t->score;
        double truth = share < 100 ? 100.0 / (1.0 - share / 100.0)
                                   : 8.0 * threads / 200e-6 * t->test.jobs[0].block_size / 1e6;
        printf("# %s %u %% read: %.2f MB/s (truth %.2f), read %.3f %% of %llu I/Os\n", t->test.name,
               share, sc->total.mb_s, truth, dmk_pass_read_pct(sc),
               (unsigned long long)sc->total.ios);
        DMK_CHECK(near_rel(sc->total.mb_s, truth, 0.01));
        double exact = (double)sc->total.ios * share / 100.0;
        DMK_CHECK(fabs((double)sc->read.ios - exact) < 2.0 * threads);
    }
    null_run_free(&run);
}

ONCE_TEST(mixed_rate_run)

static void fullspan_run_once(const void *arg)
{
    (void)arg;
    /* 2 GiB, SEQ1M Q8 at 5 ms: 8 MiB per 5 ms (1,678 MB/s) into a 512 MiB
     * cache, half that past it: 0.32 s + 1.92 s, 20 and 10 batches a
     * sample */
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_FULLSPAN);
    p.span = 2 * GIB;
    p.sample_s = 0.1;
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 5000, (DmkNullSim){512 * MIB, 2, 0, 0}), NO_CALLBACKS))
        return;
    const DmkRunResult *res = run.res;
    DMK_CHECK(res->complete);
    DMK_CHECK(res->size == 2 * GIB);
    DMK_CHECK_INT(res->n_tests, 1);
    const DmkTestResult *t = &res->tests[0];
    DMK_CHECK_STR(t->test.label, "full span");
    DMK_CHECK(!t->partial);
    DMK_CHECK_INT(t->n_passes, 1);
    /* it ends by bytes: every block once, then stops */
    DMK_CHECK(t->score.total.bytes == 2 * GIB);
    DMK_CHECK_INT(t->score.total.ios, 2048);
    DMK_CHECK(t->score.write.bytes == 2 * GIB && t->score.read.bytes == 0);
    double secs = t->score.total.seconds;
    printf("# full span: %.3f s (2.24 expected), %zu samples\n", secs, t->n_samples);
    DMK_CHECK(near_rel(secs, 2.24, 0.01));
    check_samples(t, 0.1, secs);
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, dmk_lab_metric(&t->test), &c);
    DMK_CHECK_STR(dmk_lab_metric(&t->test), "mb_s");
    printf("# full span cliff %d after %.1f +- %.1f MiB, %.1f -> %.1f MB/s\n", c.cliff,
           c.cache_bytes / MIB, c.cache_bytes_err / MIB, c.before, c.after);
    DMK_CHECK(c.cliff);
    /* within the error stated (8 MiB in flight and the samples' 8 MiB
     * steps), a small part of a sample (160 MiB) */
    DMK_CHECK(fabs(c.cache_bytes - 512.0 * MIB) <= c.cache_bytes_err);
    DMK_CHECK(c.cache_bytes_err <= c.before * 1e6 * 0.1 / 4);
    /* bytes over time: 8 MiB per 5 ms and per 10 ms, to the one batch of
     * 8 I/Os that the last, short sample holds more than its length's */
    DMK_CHECK(near_rel(c.before, 8 * MIB / 5e-3 / 1e6, 0.001));
    DMK_CHECK(near_rel(c.after, 8 * MIB / 10e-3 / 1e6, 0.01));
    DMK_CHECK(near_rel(c.before / c.after, 2.0, 0.01));
    DMK_CHECK(near_rel(c.total_bytes, 2048.0 * MIB, 1e-6));
    check_report(res,
                 PARTS("Full-span write on", "SEQ1M Q8T1 write, full span: 2.0 GiB written in",
                       "\nCache: ", " MiB written before", " written before the speed dropped at ",
                       " MB/s to "),
                 NULL);
    null_run_free(&run);
}

ONCE_TEST(fullspan_run)

static void test_recovery_run(void)
{
    /* 1000 us; a 112 MiB cache, 8x slower once full, drained in 28 s of
     * idle (4 MiB/s); the fill leaves 16 MiB in it, the 0.5 s settle takes
     * 2 MiB out: fresh 32,000 IOPS (the 0.3 s probe writes 37.5 MiB), the
     * degradation fills the rest in ~0.5 s, degraded 4,000 IOPS (15.6
     * MiB/s, more than the drain: the cache stays nearly full); a full cache
     * that idled 1 s takes 4 MiB (1,024 writes) at full speed again, then
     * slows (~7,000 IOPS over the probe); after TRIM 32,000 again */
    DmkLabParams p = recovery_params(16 * MIB, 0.3, 1.5, 1, 0.5);
    NullRun run;
    if (!run_ok(&run, lab_spec(&p, 1000, (DmkNullSim){112 * MIB, 8, 28, 0}), WATCHED))
        return;
    const DmkRunResult *res = run.res;
    DMK_CHECK(run.took >= 4.2); /* the settle and idle time were spent */
    DMK_CHECK(res->complete);
    DMK_CHECK_INT(res->n_tests, 5);
    DmkLabRecovery rec;
    dmk_lab_recovery(res, &rec);
    DMK_CHECK_STR(rec.metric, "iops");
    double fresh = rec.value[0], degraded = rec.value[1], idle = rec.value[2], trim = rec.value[3];
    printf("# recovery: fresh %.0f, degraded %.0f, after idle %.0f, after TRIM %.0f IOPS\n", fresh,
           degraded, idle, trim);
    DMK_CHECK(near_rel(fresh, 32000, 0.01));
    /* slow; what drains while it writes is written at full speed again */
    DMK_CHECK(degraded >= 4000 * 0.75 && degraded <= 4000 * 1.3);
    DMK_CHECK(idle >= degraded * 1.3 && idle <= fresh * 0.5);
    DMK_CHECK(near_rel(trim, fresh, 0.01)); /* TRIM empties the cache: as fresh */
    DMK_CHECK(contains(res->lab_note, "TRIM"));
    DMK_CHECK(contains(res->lab_note, "null backend"));
    const DmkTestResult *deg = dmk_lab_timeline_test(res);
    DMK_CHECK(deg == &res->tests[1]);
    if (deg) {
        check_samples(deg, 0.1, 1.5);
        DmkLabCliff c;
        dmk_lab_cliff(deg->samples, deg->n_samples, "iops", &c);
        DMK_CHECK(c.cliff); /* the rest of the cache is spent during the degradation */
    }
    /* every probe has its samples too */
    for (size_t i = 0; i < res->n_tests; i++)
        if (i != 1)
            check_samples(&res->tests[i], 0.1, 0.3);
    DMK_CHECK(run.w.max_remaining_rise <= 0.02);
    DMK_CHECK_INT(run.w.elapsed_falls, 0);
    check_report(
        res,
        PARTS("Recovery on", "fresh        ", "degraded     ", "after idle   ", "after TRIM   ",
              "RND4K Q32T1 write, degradation:", "TRIM: the null backend's simulated drive forgot"),
        PARTS("not measured"));
    null_run_free(&run);
}

/* ---- stopping -------------------------------------------------------------------- */

/* A stopped sustained run: its test is partial, with the samples and the
 * seconds measured until the stop. */
static void check_partial(const DmkRunResult *res, const Watch *w)
{
    DMK_CHECK(!res->complete);
    DMK_CHECK_INT(res->n_tests, 1);
    if (res->n_tests < 1)
        return;
    const DmkTestResult *t = &res->tests[0];
    DMK_CHECK(t->partial);
    DMK_CHECK_INT(t->n_passes, 1);
    if (t->n_passes < 1)
        return;
    const DmkStats *st = &t->passes[0].total;
    /* from the start of the measurement to the stop request */
    double until_stop = (double)(w->t_stop_ns - w->t_measure_ns) / 1e9;
    printf("# stopped %.3f s into the measurement: %.3f s measured, %zu samples, %.0f IOPS\n",
           until_stop, st->seconds, t->n_samples, st->iops);
    DMK_CHECK(st->seconds > 0.3 && st->seconds < 5.0);
    /* the measured seconds end at the stop, not at whatever came after it
     * (the workers see the stop within a reap, ~1 ms here) */
    if (!(st->seconds >= until_stop - 0.01 && st->seconds <= until_stop + 0.04))
        printf("# the pass claims %.3f s, %+.3f s from the stop\n", st->seconds,
               st->seconds - until_stop);
    DMK_CHECK(st->seconds >= until_stop - 0.01 && st->seconds <= until_stop + 0.04);
    DMK_CHECK(st->ios > 0 && st->bytes == st->ios * 4096);
    DMK_CHECK(near_rel(st->mb_s, (double)st->bytes / st->seconds / 1e6, 1e-9));
    DMK_CHECK(near_rel(st->iops, (double)st->ios / st->seconds, 1e-9));
    DMK_CHECK(near_rel(t->score.total.mb_s, st->mb_s, 1e-12));
    DMK_CHECK(near_rel(st->iops, 32000, 0.01));
    check_samples(t, 0.1, st->seconds);
    /* the last sample, however short, covers time that had I/O in it */
    if (t->n_samples >= 4) {
        DmkTestResult whole = *t; /* the samples of whole periods */
        whole.n_samples--;
        double median = median_iops(&whole);
        const DmkSample *last = &t->samples[t->n_samples - 1];
        double len = last->t_s - last[-1].t_s;
        printf("# median sample %.0f IOPS, the last (%.3f s) %.0f IOPS\n", median, len, last->iops);
        if (len >= 0.02)
            DMK_CHECK(last->iops >= median * 0.5);
    }
    check_report(res, PARTS("Stopped before the end", "(stopped early)"), NULL);
}

static void test_stop_from_callback(void)
{
    DmkLabParams p = sustained_params(20, 0.1);
    NullRun run;
    null_run_init(&run, lab_spec(&p, 1000, (DmkNullSim){0}));
    run.w.stop_after_measure = 10; /* ~1 s in */
    null_run(&run, WATCHED, DMK_E_STOPPED);
    DMK_CHECK(contains(run.err.msg, "stopped"));
    DMK_CHECK(run.took < 4.0);
    if (run.res)
        check_partial(run.res, &run.w);
    null_run_free(&run);
}

typedef struct {
    const DmkRunSpec *spec;
    Watch *w;
    DmkRunResult *res;
    DmkError err;
    int rc;
} Job;

static void job_entry(void *arg)
{
    Job *j = arg;
    DmkRunner *r = dmk_runner_new(j->spec, dmk_backend_null());
    j->w->runner = r;
    DmkRunCallbacks cb = {watch_progress, NULL, j->w};
    j->rc = dmk_runner_run(r, &cb, &j->res, &j->err);
    dmk_runner_free(r);
}

static void test_stop_from_thread(void)
{
    DmkLabParams p = sustained_params(20, 0.1);
    DmkRunSpec *s = lab_spec(&p, 1000, (DmkNullSim){0});
    Watch w;
    watch_init(&w);
    Job job = {s, &w, NULL, {0}, 0};
    DmkThread *th;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_thread_start(&th, job_entry, &job, &err), DMK_OK);
    uint64_t deadline = dmk_clock_ns() + 10000000000ULL;
    while (!atomic_load(&w.measuring) && dmk_clock_ns() < deadline)
        dmk_sleep_ns(5000000);
    dmk_sleep_ns(800000000);
    w.t_stop_ns = dmk_clock_ns();
    dmk_runner_stop(w.runner);
    uint64_t t_stop = w.t_stop_ns;
    dmk_thread_join(th);
    double lag = (double)(dmk_clock_ns() - t_stop) / 1e9;
    printf("# the run ended %.3f s after the stop\n", lag);
    DMK_CHECK(lag < 0.5);
    DMK_CHECK_INT(job.rc, DMK_E_STOPPED);
    DMK_CHECK(job.res != NULL);
    if (job.res)
        check_partial(job.res, &w);
    dmk_run_result_free(job.res);
    free(s);
}

/* A stop while the recovery test idles keeps the probes before it, whole. */
static void test_stop_in_idle(void)
{
    DmkLabParams p = recovery_params(64 * MIB, 0.2, 0.4, 30, 0);
    NullRun run;
    null_run_init(&run, lab_spec(&p, 1000, (DmkNullSim){16 * MIB, 4, 20, 0}));
    run.w.stop_at_interval = true;
    null_run(&run, WATCHED, DMK_E_STOPPED);
    DMK_CHECK(run.took < 5.0);
    const DmkRunResult *res = run.res;
    if (res) {
        DMK_CHECK(!res->complete);
        DMK_CHECK_INT(res->n_tests, 3);
        for (size_t i = 0; i < res->n_tests; i++) {
            DMK_CHECK(!res->tests[i].partial);
            DMK_CHECK_INT(res->tests[i].n_passes, 1);
        }
        DmkLabRecovery rec;
        dmk_lab_recovery(res, &rec);
        DMK_CHECK(isfinite(rec.value[0]) && isfinite(rec.value[1]));
        DMK_CHECK(isnan(rec.value[2]) && isnan(rec.value[3]));
        DMK_CHECK_STR(res->lab_note, ""); /* no TRIM happened */
        check_report(res, PARTS("after TRIM   not measured"), NULL);
    }
    null_run_free(&run);
}

/* A stop while the drive settles after the fill: nothing was measured. */
static void test_stop_in_settle(void)
{
    DmkLabParams p = sustained_params(5, 0.1);
    p.settle_s = 30;
    NullRun run;
    null_run_init(&run, lab_spec(&p, 1000, (DmkNullSim){0}));
    run.w.stop_at_interval = true;
    null_run(&run, WATCHED, DMK_E_STOPPED);
    DMK_CHECK(run.took < 3.0);
    DMK_CHECK(run.w.t_stop_ns != 0);
    DMK_CHECK_INT(run.w.measure_calls, 0);
    if (run.res) {
        DMK_CHECK(!run.res->complete);
        DMK_CHECK_INT(run.res->n_tests, 0);
        check_report(run.res, PARTS("No test completed."), NULL);
    }
    null_run_free(&run);
}

/* ---- rate limiting ---------------------------------------------------------------- */

typedef struct {
    uint64_t latency_us, rate;
    const char *name;
} RateCase;

/* A test of its own at `rate` IOPS (no lab): 0.5 s in 0.1 s samples. */
static void rate_once(const void *arg)
{
    const RateCase *rc_ = arg;
    uint64_t latency_us = rc_->latency_us, rate = rc_->rate;
    const char *name = rc_->name;
    DmkRunSpec *s = dmk_test_spec_new(".", 64 * MIB, 0.5);
    s->data = DMK_DATA_ZERO; /* as spec_new's */
    s->timeline_s = 0.1;
    dmk_null_opts(&s->backend_opts)->latency_ns = latency_us * 1000;
    dmk_test_spec_add(s, name, DMK_MODE_READ, 100);
    s->tests[0].rate_iops = rate;
    NullRun run;
    null_run_init(&run, s);
    null_run(&run, NO_CALLBACKS, DMK_OK);
    if (run.res && run.res->n_tests == 1) {
        const DmkTestResult *t = &run.res->tests[0];
        double best = best_sample(t), median = median_iops(t), got = t->score.total.iops;
        double r = (double)rate;
        /* The rate in its best 0.1 s, most of the time (the median) and
         * over the pass; evenly spread: no 0.1 s carries 1.5 times its
         * share. */
        bool ok = near_rel(best, r, 0.01) && near_rel(median, r, 0.01) && near_rel(got, r, 0.01);
        printf("# %s at %llu us, %llu IOPS asked: %.0f achieved, median 0.1 s %.0f, busiest "
               "%.0f%s\n",
               name, (unsigned long long)latency_us, (unsigned long long)rate, got, median, best,
               ok ? "" : "  <--");
        DMK_CHECK(t->test.rate_iops == rate);
        DMK_CHECK_INT(t->n_samples, 5);
        DMK_CHECK(near_rel(best, r, 0.01));
        DMK_CHECK(near_rel(median, r, 0.01));
        DMK_CHECK(near_rel(got, r, 0.01));
        DMK_CHECK(best <= 1.5 * r);
        /* latency is the drive's, not time spent waiting for the rate */
        DMK_CHECK(t->score.total.lat_p50_us <= (double)latency_us * 1.01);
    }
    null_run_free(&run);
}

static void test_rate_limit(void)
{
    static const RateCase cases[] = {
        {0, 2000, "RND4K Q32T1"},    {100, 2000, "RND4K Q32T1"}, {0, 20000, "RND4K Q32T1"},
        {100, 20000, "RND4K Q32T1"}, {0, 100000, "RND4K Q32T1"}, {100, 100000, "RND4K Q32T1"},
        {100, 20000, "RND4K Q8T4"}, /* spread over threads */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        rate_once(&cases[i]);
}

/* ---- a long run, in the background ------------------------------------------------ */

/* 20 s of sustained writes at 0.1 s samples on a slow null drive (20 ms,
 * 1,600 IOPS), beside the other tests (its threads share the simulated
 * clock with theirs): 200 samples, one pass, nothing more. */
static Job long_job;
static Watch long_watch;
static DmkRunSpec *long_spec;
static DmkThread *long_thread;

static void long_run_start(void)
{
    DmkLabParams p = sustained_params(20, 0.1);
    long_spec = lab_spec(&p, 20000, (DmkNullSim){0});
    watch_init(&long_watch);
    long_job = (Job){long_spec, &long_watch, NULL, {0}, 0};
    DmkError err = {0};
    if (dmk_thread_start(&long_thread, job_entry, &long_job, &err) != DMK_OK) {
        printf("# starting the long run: %s\n", err.msg);
        long_thread = NULL;
    }
}

static void test_long_run_bounded(void)
{
    DMK_CHECK(long_thread != NULL);
    if (!long_thread)
        return;
    dmk_thread_join(long_thread);
    DMK_CHECK_INT(long_job.rc, DMK_OK);
    DmkRunResult *res = long_job.res;
    DMK_CHECK(res != NULL);
    if (res) {
        DMK_CHECK(res->complete);
        DMK_CHECK_INT(res->n_tests, 1);
        const DmkTestResult *t = &res->tests[0];
        DMK_CHECK_INT(t->n_passes, 1);
        DMK_CHECK_INT(t->n_samples, 200);
        DMK_CHECK_NEAR(t->score.total.seconds, 20.0, 1e-9);
        check_samples(t, 0.1, 20.0);
        size_t empty = 0;
        for (size_t i = 0; i < t->n_samples; i++) {
            if (t->samples[i].iops <= 0)
                printf("# long run: nothing completed in sample %zu (a held-up thread?)\n", i);
            empty += t->samples[i].iops <= 0;
        }
        DMK_CHECK_INT(empty, 0);
        printf("# long run: %zu samples, %.0f IOPS, %d progress reports\n", t->n_samples,
               t->score.total.iops, long_watch.calls);
        DMK_CHECK(near_rel(t->score.total.iops, 1600, 0.01));
        /* 10 reports a second, not one per I/O */
        DMK_CHECK(long_watch.calls >= 195 && long_watch.calls <= 210);
    }
    dmk_run_result_free(res);
    free(long_spec);
}

int main(int argc, char **argv)
{
    dmk_gschema_path = argc > 1 ? argv[1] : NULL;
    dmk_clock_simulate();
    long_run_start();
    DMK_TEST(test_names);
    DMK_TEST(test_table);
    DMK_TEST(test_planned);
    DMK_TEST(test_describe);
    DMK_TEST(test_describe_margin);
    DMK_TEST(test_describe_device);
    DMK_TEST(test_fields_device_words);
    DMK_TEST(test_gschema_choices);
    DMK_TEST(test_params_defaults);
    DMK_TEST(test_build_sustained);
    DMK_TEST(test_build_fullspan);
    DMK_TEST(test_build_mixed);
    DMK_TEST(test_build_latency);
    DMK_TEST(test_build_recovery);
    DMK_TEST(test_build_refused);
    DMK_TEST(test_build_zero_length_refused);
    DMK_TEST(test_cliff_clean_step);
    DMK_TEST(test_cliff_within_sample);
    DMK_TEST(test_cliff_none);
    DMK_TEST(test_cliff_too_late);
    DMK_TEST(test_cliff_few_samples);
    DMK_TEST(test_steady_state);
    DMK_TEST(test_thermal_throttling);
    DMK_TEST(test_thermal_within_sample);
    DMK_TEST(test_thermal_not_throttling);
    DMK_TEST(test_thermal_no_sensor);
    DMK_TEST(test_latency_analysis_report);
    DMK_TEST(test_latency_peak_stable);
    DMK_TEST(test_device_header);
    DMK_TEST(test_mixed_recovery_analysis);
    DMK_TEST(test_sustained_cache);
    DMK_TEST(test_sustained_settle);
    DMK_TEST(test_sustained_no_cache);
    DMK_TEST(test_sustained_thermal);
    DMK_TEST(test_sustained_cache_with_sensor);
    DMK_TEST(test_latency_ramp);
    DMK_TEST(test_mixed_run);
    DMK_TEST(test_mixed_rate_run);
    DMK_TEST(test_fullspan_run);
    DMK_TEST(test_recovery_run);
    DMK_TEST(test_stop_from_callback);
    DMK_TEST(test_stop_from_thread);
    DMK_TEST(test_stop_in_idle);
    DMK_TEST(test_stop_in_settle);
    DMK_TEST(test_rate_limit);
    DMK_TEST(test_long_run_bounded);
    return dmk_test_done();
}
