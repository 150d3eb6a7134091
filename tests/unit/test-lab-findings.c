/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-lab-findings: the findings' tables are whole; every field of every
 * finding struct is saved in the CSV and read back exactly (saved, read
 * and saved again gives the same bytes) and lands in the JSON; older
 * files (no finding rows) load with their findings computed from the
 * samples; what a file says wins over its samples; a fresh result reports
 * the figures its saved file will. argv[1] is tests/data. */
#include "dmk-test.h"
#include "dmk-test-scratch.h"

#include <math.h>
#include <string.h>

#include "dmk-csv-read.h"
#include "dmk-csv.h"
#include "dmk-json.h"
#include "dmk-lab-findings.h"
#include "dmk-lab.h"

static const char *data_dir = "tests/data";

/* ---- helpers ------------------------------------------------------------- */

static char *write_with(DmkScratchWriter w, const DmkRunResult *r, size_t *len)
{
    return dmk_scratch_write("test-lab-findings.out", w, r, len);
}

static DmkRunResult *load_mem(const char *text, size_t len)
{
    DmkRunResult *r = NULL;
    DmkError err = {0};
    if (dmk_csv_load_mem("r.csv", text, len, &r, &err) != DMK_OK)
        printf("# load: %s\n", err.msg);
    return r;
}

static DmkRunResult *load_data(const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    DmkRunResult *r = NULL;
    DmkError err = {0};
    if (dmk_csv_load(path, &r, &err) != DMK_OK)
        printf("# %s: %s\n", path, err.msg);
    DMK_CHECK(r != NULL);
    return r;
}

/* Written, read back, written again: the same bytes; the loaded result. */
static DmkRunResult *round_trip(const DmkRunResult *r)
{
    size_t len = 0, len2 = 0;
    char *a = write_with(dmk_csv_write, r, &len);
    DmkRunResult *back = a ? load_mem(a, len) : NULL;
    char *b = back ? write_with(dmk_csv_write, back, &len2) : NULL;
    DMK_CHECK(b != NULL);
    if (b) {
        DMK_CHECK_INT(len2, len);
        DMK_CHECK(len == len2 && memcmp(a, b, len) == 0);
    }
    free(a);
    free(b);
    return back;
}

static char *report_of(const DmkRunResult *r)
{
    size_t need = dmk_lab_report(r, NULL, 0) + 1;
    char *text = malloc(need);
    dmk_lab_report(r, text, need);
    return text;
}

static bool same_value(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* Two results' findings agree set by set, field by field, to rel (0:
 * exactly). */
static void check_near_findings(const DmkLabFindings *a, const DmkLabFindings *b, double rel)
{
    DMK_CHECK_INT(a->n, b->n);
    for (size_t k = 0; k < a->n && k < b->n; k++) {
        const DmkLabFinding *x = &a->f[k], *y = &b->f[k];
        DMK_CHECK_INT(x->set, y->set);
        DMK_CHECK_INT(x->test, y->test);
        if (x->set != y->set)
            continue;
        for (size_t i = 0; i < dmk_lab_set(x->set)->n_fields; i++) {
            double u = dmk_lab_finding_get(x, i), v = dmk_lab_finding_get(y, i);
            if (same_value(u, v) || fabs(u - v) <= rel * fabs(u))
                continue;
            printf("# %s.%s: %.17g and %.17g\n", dmk_lab_set(x->set)->name,
                   dmk_lab_set(x->set)->fields[i].key, dmk_lab_finding_get(x, i),
                   dmk_lab_finding_get(y, i));
            DMK_CHECK(0);
        }
    }
}

/* ---- hand-built results of each lab test ---------------------------------- */

static void check_same_findings(const DmkLabFindings *a, const DmkLabFindings *b)
{
    check_near_findings(a, b, 0);
}

static DmkRunResult *result_new(const char *lab, size_t n)
{
    DmkRunResult *r = calloc(1, sizeof *r);
    r->tests = calloc(n, sizeof *r->tests);
    r->n_tests = n;
    r->complete = true;
    snprintf(r->version, sizeof r->version, "0.1.0");
    snprintf(r->lab, sizeof r->lab, "%s", lab);
    snprintf(r->profile, sizeof r->profile, "%s", lab);
    snprintf(r->backend, sizeof r->backend, "null");
    snprintf(r->target.path, sizeof r->target.path, "/mnt/x");
    snprintf(r->date, sizeof r->date, "2026-11-30T06:35:13Z");
    r->size = 64ULL << 20;
    r->passes = 1;
    r->measure_s = 20;
    return r;
}

/* One pass with these figures. */
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
    t->passes = calloc(1, sizeof *t->passes);
    t->passes[0].total.iops = iops;
    t->passes[0].total.mb_s = iops * j.block_size / 1e6;
    t->passes[0].total.lat_mean_us = lat_us;
    t->passes[0].total.lat_p99_us = lat_us * 2;
    dmk_test_result_summarize(t);
}

/* A timeline of n samples every 0.1 s: `high` MB/s for the first `drop`,
 * then `low`; the temperature rising 1 C a sample from 50 to 80 C. */
static void set_timeline(DmkTestResult *t, size_t n, size_t drop, double high, double low)
{
    t->n_samples = n;
    t->samples = calloc(n, sizeof *t->samples);
    for (size_t i = 0; i < n; i++) {
        double mb = i < drop ? high : low;
        t->samples[i] = (DmkSample){.t_s = 0.1 * (double)(i + 1),
                                    .mb_s = mb,
                                    .iops = mb * 1e6 / t->test.jobs[0].block_size,
                                    .lat_mean_us = 100,
                                    .temp_c = fmin(50.0 + (double)i, 80.0)};
    }
}

static DmkRunResult *sustained_result(void)
{
    DmkRunResult *r = result_new("sustained", 1);
    set_test(&r->tests[0], "SEQ1M Q8T1", DMK_MODE_WRITE, "sustained", 100, 1000);
    /* 170.5004 MB/s rounds to 171 live, and to 170 from the CSV's 170.500
     * (half to even), unless the live figures are the file's. */
    set_timeline(&r->tests[0], 60, 20, 1850.25, 170.5004);
    return r;
}

static DmkRunResult *latency_result(void)
{
    DmkRunResult *r = result_new("latency", 24);
    for (int k = 0; k < 12; k++) {
        char label[16] = "max";
        double pct = k == 0 ? 100 : dmk_lab_ramp_pct[k - 1];
        if (k)
            snprintf(label, sizeof label, "%u %%", dmk_lab_ramp_pct[k - 1]);
        double iops = 100000 * fmin(pct, 100) / 100;
        set_test(&r->tests[k], "RND4K Q128T1", DMK_MODE_READ, label, iops,
                 pct <= 90 ? 300 + pct : 1500);
        set_test(&r->tests[12 + k], "RND4K Q64T1", DMK_MODE_WRITE, label, iops / 2, 2500);
    }
    return r;
}

static DmkRunResult *mixed_result(void)
{
    DmkRunResult *r = result_new("mixed", 12);
    for (int i = 0; i < 12; i++) {
        char label[16];
        snprintf(label, sizeof label, "%u %% read", dmk_lab_mix_share[i % 6]);
        set_test(&r->tests[i], i < 6 ? "SEQ128K Q1T2" : "RND4K Q1T4", DMK_MODE_MIX, label,
                 1000 * (i + 1), 500);
        r->tests[i].test.jobs[0].read_share = dmk_lab_mix_share[i % 6];
    }
    return r;
}

static DmkRunResult *recovery_result(void)
{
    static const char *const labels[] = {"fresh", "degradation", "degraded", "after idle",
                                         "after TRIM"};
    static const double iops[] = {30000, 9000, 7000, 20000, 29000};
    DmkRunResult *r = result_new("recovery", 5);
    for (int i = 0; i < 5; i++)
        set_test(&r->tests[i], "RND4K Q32T1", DMK_MODE_WRITE, labels[i], iops[i], 1000);
    set_timeline(&r->tests[1], 40, 10, 120, 30);
    return r;
}

typedef DmkRunResult *(*Builder)(void);
static const Builder builders[] = {sustained_result, latency_result, mixed_result, recovery_result};

/* ---- the tables --------------------------------------------------------------- */

static void test_tables(void)
{
    size_t sizes[DMK_LAB_N_SETS] = {
        sizeof(DmkLabCliff),    sizeof(DmkLabThermal), sizeof(DmkLabLatency), sizeof(DmkLabMixed),
        sizeof(DmkLabRecovery), sizeof(DmkLabFiles),   sizeof(DmkLabTrace)};
    DMK_CHECK(dmk_lab_set(DMK_LAB_N_SETS) == NULL);
    for (size_t s = 0; s < DMK_LAB_N_SETS; s++) {
        const DmkLabSetDesc *set = dmk_lab_set((DmkLabSetId)s);
        DMK_CHECK_INT(set->id, s);
        DMK_CHECK(set->name[0] && set->title[0] && set->n_fields > 0);
        for (size_t i = 0; i < set->n_fields; i++) {
            const DmkLabFindingField *f = &set->fields[i];
            char key[96];
            snprintf(key, sizeof key, "%s.%s", set->name, f->key);
            /* each key found again, and only once */
            DmkLabSetId fs;
            size_t fi;
            DMK_CHECK(dmk_lab_finding_key(key, strlen(key), &fs, &fi));
            DMK_CHECK(fs == (DmkLabSetId)s && fi == i);
            DMK_CHECK(!f->label || f->label[0] != '\0'); /* NULL: not shown on its own */
            size_t width = f->kind == DMK_LAB_FIELD_BOOL    ? sizeof(bool)
                           : f->kind == DMK_LAB_FIELD_COUNT ? sizeof(size_t)
                                                            : sizeof(double);
            DMK_CHECK(f->offset + width <= sizes[s]);
            /* only a figure has a unit; a temperature only may be negative */
            DMK_CHECK((f->unit != DMK_LAB_UNIT_NONE) == (f->kind == DMK_LAB_FIELD_DOUBLE));
            if (!f->when)
                continue;
            bool found = false;
            for (size_t j = 0; j < set->n_fields; j++)
                found = found || (strcmp(set->fields[j].key, f->when) == 0 &&
                                  set->fields[j].kind == DMK_LAB_FIELD_BOOL);
            if (!found)
                printf("# %s: when '%s' is no BOOL field of its set\n", key, f->when);
            DMK_CHECK(found);
        }
    }
    DmkLabSetId s;
    size_t i;
    DMK_CHECK(!dmk_lab_finding_key("cliff.", 6, &s, &i));
    DMK_CHECK(!dmk_lab_finding_key("cliff", 5, &s, &i));
    DMK_CHECK(!dmk_lab_finding_key("cliffXcache", 11, &s, &i));
    DMK_CHECK(!dmk_lab_finding_key("cliff.cachex", 12, &s, &i));
    DMK_CHECK_STR(dmk_lab_unit_name(dmk_lab_unit_resolve(DMK_LAB_UNIT_SPEED, "iops")), "iops");
    DMK_CHECK_STR(dmk_lab_unit_name(dmk_lab_unit_resolve(DMK_LAB_UNIT_SPEED, "mb_s")), "mb_s");
}

/* Which sets each lab test has, anchored where. */
static void test_sets(void)
{
    static const struct {
        size_t n;
        DmkLabSetId set[3];
        size_t test[3];
    } want[] = {
        {2, {DMK_LAB_SET_CLIFF, DMK_LAB_SET_THERMAL}, {0, 0}},
        {2, {DMK_LAB_SET_LATENCY, DMK_LAB_SET_LATENCY}, {0, 12}},
        {2, {DMK_LAB_SET_MIXED, DMK_LAB_SET_MIXED}, {0, 6}},
        {3, {DMK_LAB_SET_RECOVERY, DMK_LAB_SET_CLIFF, DMK_LAB_SET_THERMAL}, {0, 1, 1}},
    };
    for (size_t b = 0; b < sizeof builders / sizeof builders[0]; b++) {
        DmkRunResult *r = builders[b]();
        DmkLabFindings f;
        dmk_lab_findings(r, &f);
        DMK_CHECK_INT(f.n, want[b].n);
        for (size_t k = 0; k < f.n && k < want[b].n; k++) {
            DMK_CHECK_INT(f.f[k].set, want[b].set[k]);
            DMK_CHECK_INT(f.f[k].test, want[b].test[k]);
        }
        dmk_run_result_free(r);
    }
    /* an ordinary run has none */
    DmkRunResult *r = result_new("", 1);
    set_test(&r->tests[0], "SEQ1M Q8T1", DMK_MODE_READ, "", 100, 1000);
    DmkLabFindings f;
    dmk_lab_findings(r, &f);
    DMK_CHECK_INT(f.n, 0);
    dmk_run_result_free(r);
}

/* ---- every field through the file ------------------------------------------ */

/* A value for field i no analysis would give, of the field's kind and
 * exact at its unit's decimals; some not measured (NaN). */
static double odd_value(const DmkLabFinding *f, size_t i)
{
    const DmkLabFindingField *fd = &dmk_lab_set(f->set)->fields[i];
    if (fd->kind == DMK_LAB_FIELD_BOOL)
        return (double)((i + f->test) % 2);
    if (fd->kind == DMK_LAB_FIELD_COUNT)
        return 1234.0 + (double)i;
    if (i % 4 == 3)
        return NAN;
    DmkLabUnit u = dmk_lab_finding_unit(f, i);
    if (u == DMK_LAB_UNIT_C)
        return -12.5 + (double)i; /* below 0: a temperature may be */
    if (dmk_lab_unit_decimals(u) == 0)
        return 1073741824.0 + (double)i;
    return 1000.25 + 7.0 * (double)i;
}

/* Gives r's tests a saved figure for every field of every set, as a
 * loaded file would have them. */
static void save_odd_values(DmkRunResult *r, DmkLabFindings *want)
{
    dmk_lab_findings(r, want);
    for (size_t k = 0; k < want->n; k++) {
        DmkLabFinding *f = &want->f[k];
        DmkTestResult *t = &r->tests[f->test];
        size_t n = dmk_lab_set(f->set)->n_fields;
        t->findings = realloc(t->findings, (t->n_findings + n) * sizeof *t->findings);
        for (size_t i = 0; i < n; i++) {
            double v = odd_value(f, i);
            t->findings[t->n_findings++] = (DmkSavedFinding){(uint16_t)f->set, (uint16_t)i, v};
            dmk_lab_finding_set(f, i, v);
        }
    }
}

static void test_every_field_round_trip(void)
{
    for (size_t b = 0; b < sizeof builders / sizeof builders[0]; b++) {
        DmkRunResult *r = builders[b]();
        DmkLabFindings want, got, found;
        save_odd_values(r, &want);
        dmk_lab_findings(r, &found);
        check_same_findings(&want, &found); /* the saved figures win */
        DmkRunResult *back = round_trip(r);
        DMK_CHECK(back != NULL);
        if (back) {
            dmk_lab_findings(back, &got);
            check_same_findings(&want, &got);
            for (size_t k = 0; k < got.n; k++)
                DMK_CHECK_INT(back->tests[got.f[k].test].n_findings,
                              r->tests[got.f[k].test].n_findings);
        }
        dmk_run_result_free(back);
        dmk_run_result_free(r);
    }
}

/* The JSON has each set under its name, the unit in each key. */
static void test_json(void)
{
    DmkRunResult *r = recovery_result();
    DmkLabFindings want;
    save_odd_values(r, &want);
    char *s = write_with(dmk_json_write, r, NULL);
    DMK_CHECK(s != NULL);
    if (s) {
        DMK_CHECK(strstr(s, "\"schema_version\":2,") != NULL);
        const char *f = strstr(s, ",\"findings\":{\"cliff\":[{\"test\":2,");
        DMK_CHECK(f != NULL);
        /* recovery: field 0 of test 1 (fresh): 1000.25 IOPS */
        DMK_CHECK(strstr(s, "\"recovery\":[{\"test\":1,\"fresh_iops\":1000.25,") != NULL);
        DMK_CHECK(
            strstr(s,
                   "\"cache_bytes\":null,\"cache_err_bytes\":1073741828,\"cliff_t_s\":1035.250,") !=
            NULL);
        DMK_CHECK(strstr(s, "\"min_c\":-11.5,") != NULL);
        DMK_CHECK(strstr(s, "\"after_idle_iops\":1014.25,\"after_trim_iops\":null}") != NULL);
        DMK_CHECK(strstr(s, "\"samples\":1234,\"written_bytes\":1073741825,\"cliff\":true,") !=
                  NULL);
        DMK_CHECK(f && strcmp(s + strlen(s) - 4, "]}}\n") == 0);
        free(s);
    }
    dmk_run_result_free(r);
    /* no findings in an ordinary run's JSON */
    r = result_new("", 1);
    set_test(&r->tests[0], "SEQ1M Q8T1", DMK_MODE_READ, "", 100, 1000);
    s = write_with(dmk_json_write, r, NULL);
    DMK_CHECK(s && !strstr(s, "findings"));
    free(s);
    dmk_run_result_free(r);
}

/* ---- older files, and the file winning ------------------------------------- */

static void check_none_saved(const DmkRunResult *r)
{
    for (size_t i = 0; i < r->n_tests; i++)
        DMK_CHECK_INT(r->tests[i].n_findings, 0);
}

static void test_older_schemas(void)
{
    /* The same run saved as schema 5 (samples only) and 6: the same
     * report, and findings that agree but for what the samples' 3
     * decimals lose (bytes summed from MB/s: 89,784,300 from the file's
     * samples, 89,784,320 saved from the run's). */
    DmkRunResult *old = load_data("lab-findings/cache-schema5.csv");
    DmkRunResult *now = load_data("lab-findings/cache-schema6.csv");
    if (old && now) {
        check_none_saved(old);
        DMK_CHECK_INT(now->tests[0].n_findings, dmk_lab_set(DMK_LAB_SET_CLIFF)->n_fields +
                                                    dmk_lab_set(DMK_LAB_SET_THERMAL)->n_fields);
        DmkLabFindings a, b;
        dmk_lab_findings(old, &a);
        dmk_lab_findings(now, &b);
        check_near_findings(&a, &b, 1e-5);
        DMK_CHECK(b.f[0].u.cliff.total_bytes == 89784320.0);
        DMK_CHECK(a.n == 2 && a.f[0].u.cliff.cliff && a.f[0].u.cliff.n == 25);
        char *ra = report_of(old), *rb = report_of(now);
        DMK_CHECK_STR(ra, rb);
        DMK_CHECK(
            strstr(ra, "Cache: about 62 MiB +-1 MiB written before the speed dropped at 1.00 s") !=
            NULL);
        free(ra);
        free(rb);
        /* saved again, the old file gets its finding rows: the new file's bytes */
        size_t len = 0;
        char *again = write_with(dmk_csv_write, old, &len);
        DmkRunResult *back = again ? load_mem(again, len) : NULL;
        DMK_CHECK(back && back->tests[0].n_findings == now->tests[0].n_findings);
        free(again);
        dmk_run_result_free(back);
    }
    dmk_run_result_free(old);
    dmk_run_result_free(now);
    /* schema 3 (a lab file) and schema 1 (no lab) */
    DmkRunResult *r3 = load_data("bad-csv/ok-schema3-lab.csv");
    if (r3) {
        check_none_saved(r3);
        DmkLabFindings f;
        dmk_lab_findings(r3, &f);
        DMK_CHECK_INT(f.n, 2);
        DMK_CHECK(f.n > 0 && f.f[0].u.cliff.n == r3->tests[0].n_samples);
    }
    dmk_run_result_free(r3);
    DmkRunResult *r1 = load_data("schema1.csv");
    if (r1) {
        check_none_saved(r1);
        DmkLabFindings f;
        dmk_lab_findings(r1, &f);
        DMK_CHECK_INT(f.n, 0);
    }
    dmk_run_result_free(r1);
}

#define REPLACE_ROOM 64

static char *read_data(const char *name, size_t *len)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    FILE *f = fopen(path, "rb");
    DMK_CHECK(f != NULL);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    /* room for replace()'s edits to grow the text a little */
    char *s = calloc((size_t)n + 1 + REPLACE_ROOM, 1);
    *len = fread(s, 1, (size_t)n, f);
    fclose(f);
    return s;
}

/* Replaces the first `from` in s, a text of read_data's: to may be longer
 * by REPLACE_ROOM bytes in all (2147483648 for 65230321 is 2 more). */
static bool replace(char *s, const char *from, const char *to)
{
    char *p = strstr(s, from);
    if (!p)
        return false;
    size_t lf = strlen(from), lt = strlen(to);
    DMK_CHECK(lt <= lf + REPLACE_ROOM);
    memmove(p + lt, p + lf, strlen(p + lf) + 1);
    memcpy(p, to, lt);
    return true;
}

static void test_file_wins(void)
{
    size_t len = 0;
    char *s = read_data("lab-findings/cache-schema6.csv", &len);
    if (!s)
        return;
    /* the cache said bigger, the steady state not steady, and a sample
     * edited: the file's findings are what is shown */
    DMK_CHECK(replace(s, "\"cliff.cache\",65230321,", "\"cliff.cache\",2147483648,"));
    DMK_CHECK(replace(s, "\"cliff.steady\",1,", "\"cliff.steady\",0,"));
    DMK_CHECK(replace(s, ",0.500,,,,,65.536,16000.00,", ",0.500,,,,,6.536,1600.00,"));
    DmkRunResult *r = load_mem(s, strlen(s));
    DMK_CHECK(r != NULL);
    if (r) {
        char *text = report_of(r);
        DMK_CHECK(strstr(text, "Cache: about 2.0 GiB (2,048 +-1 MiB) written before the speed "
                               "dropped at 1.00 s") != NULL);
        DMK_CHECK(strstr(text, "within +-20 % of the mean (not steady)") != NULL);
        DmkLabFindings saved, computed;
        dmk_lab_findings(r, &saved);
        dmk_lab_findings_computed(r, &computed);
        DMK_CHECK(saved.f[0].u.cliff.cache_bytes == 2147483648.0);
        DMK_CHECK(computed.f[0].u.cliff.cache_bytes < 1e8);
        /* the window's words */
        char v[64];
        DMK_CHECK_STR(dmk_lab_finding_text(&saved, &saved.f[0], 3, v, sizeof v),
                      "about 2.0 GiB (2,048 +-1 MiB)");
        DMK_CHECK_STR(dmk_lab_finding_text(&saved, &saved.f[0], 8, v, sizeof v),
                      "3,989 IOPS (16.3 MB/s)");
        DMK_CHECK_STR(dmk_lab_finding_text(&saved, &saved.f[0], 9, v, sizeof v), "no");
        free(text);
    }
    dmk_run_result_free(r);
    free(s);
}

/* The live report is the saved file's, to the digit, and a drop that came
 * with throttling is said to be no cache in the window's words too. */
static void test_live_reads_as_saved(void)
{
    for (size_t b = 0; b < sizeof builders / sizeof builders[0]; b++) {
        DmkRunResult *r = builders[b]();
        DmkRunResult *back = round_trip(r);
        if (back && b != 1) { /* latency's table prints the steps' own scores */
            char *live = report_of(r), *saved = report_of(back);
            DMK_CHECK_STR(live, saved);
            free(live);
            free(saved);
        }
        dmk_run_result_free(back);
        dmk_run_result_free(r);
    }
    DmkRunResult *r = load_data("lab-findings/thermal-schema6.csv");
    if (r) {
        DmkLabFindings f;
        dmk_lab_findings(r, &f);
        DMK_CHECK(f.n == 2 && dmk_lab_cliff_is_thermal(&f, &f.f[0]));
        char v[64];
        DMK_CHECK_STR(dmk_lab_finding_text(&f, &f.f[0], 2, v, sizeof v), "no (thermal throttling)");
        DMK_CHECK(!dmk_lab_finding_shown(&f, &f.f[0], 3)); /* no "SLC cache" */
        DMK_CHECK(dmk_lab_finding_shown(&f, &f.f[1], 4));  /* "Throttled after" */
        DMK_CHECK_STR(dmk_lab_finding_text(&f, &f.f[1], 2, v, sizeof v), "80 C");
    }
    dmk_run_result_free(r);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];
    DMK_TEST(test_tables);
    DMK_TEST(test_sets);
    DMK_TEST(test_every_field_round_trip);
    DMK_TEST(test_json);
    DMK_TEST(test_older_schemas);
    DMK_TEST(test_file_wins);
    DMK_TEST(test_live_reads_as_saved);
    return dmk_test_done();
}
