/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-request: the run request's table gives every option one name,
 * range and default; its parser refuses each out-of-range value with
 * the option's name and range; its builder applies CrystalDiskMark's
 * rules and the checks both front ends relied on. */
#include "dmk-test-gschema.h"
#include "dmk-test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-lab.h"
#include "dmk-presets.h"
#include "dmk-request.h"
#include "null/dmk-null.h"

static DmkRunSpec *new_spec(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    DMK_CHECK(s != NULL);
    return s;
}

static DmkRunRequest *new_request(DmkRequestKind kind, DmkLabKind lab)
{
    DmkRunRequest *r = malloc(sizeof *r);
    DMK_CHECK(r != NULL);
    if (r)
        dmk_run_request_init(r, kind, lab);
    return r;
}

/* One row per option, in id order, with distinct names; each value kind
 * with a range has one. */
static void test_table(void)
{
    DMK_CHECK_INT(dmk_request_option_count(), DMK_REQ_N_OPTIONS);
    for (size_t i = 0; i < dmk_request_option_count(); i++) {
        const DmkRequestOption *o = dmk_request_option((DmkRequestOptionId)i);
        DMK_CHECK_INT(o->id, i);
        DMK_CHECK(o->name && o->name[0] != '-');
        DMK_CHECK(dmk_request_option_by_name(o->name) == o);
        DMK_CHECK((o->value == NULL) == (o->kind == DMK_REQ_VALUE_FLAG));
        DMK_CHECK(o->kinds != 0 && o->fronts != 0);
        if (o->kind == DMK_REQ_VALUE_UINT || o->kind == DMK_REQ_VALUE_SIZE ||
            o->kind == DMK_REQ_VALUE_SECONDS)
            DMK_CHECK(o->min <= o->max);
    }
    DMK_CHECK(dmk_request_option_by_name("--passes") == NULL);
    DMK_CHECK(dmk_request_option(DMK_REQ_N_OPTIONS) == NULL);
}

/* A request left at the table's defaults builds CrystalDiskMark 8's
 * default run: the defaults come from the table. */
static void test_defaults_from_table(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_INT(s->passes, (uint32_t)dmk_request_option(DMK_REQ_PASSES)->def);
    DMK_CHECK_INT(s->size, (uint64_t)dmk_request_option(DMK_REQ_SIZE)->def);
    DMK_CHECK_NEAR(s->measure_s, dmk_request_option(DMK_REQ_MEASURE)->def, 1e-9);
    DMK_CHECK_NEAR(s->interval_s, dmk_request_option(DMK_REQ_INTERVAL)->def, 1e-9);
    DMK_CHECK_NEAR(s->watchdog_s, dmk_request_option(DMK_REQ_WATCHDOG)->def, 1e-9);
    DMK_CHECK_NEAR(s->timeline_s, dmk_request_option(DMK_REQ_TIMELINE)->def, 1e-9);
    /* the same as a bare spec's: CrystalDiskMark 8's 1 GiB, 5 x 5 s */
    DmkRunSpec *bare = new_spec();
    if (bare) {
        dmk_run_spec_init(bare);
        DMK_CHECK_INT(s->passes, bare->passes);
        DMK_CHECK_INT(s->size, bare->size);
        DMK_CHECK_NEAR(s->measure_s, bare->measure_s, 1e-9);
        DMK_CHECK_NEAR(s->warmup_s, bare->warmup_s, 1e-9);
        DMK_CHECK_NEAR(s->watchdog_s, bare->watchdog_s, 1e-9);
        free(bare);
    }
    /* the default profile, each test read then write */
    const DmkProfile *p = dmk_profile_find("default");
    DMK_CHECK_STR(s->profile, "default");
    DMK_CHECK_INT(s->n_tests, 2 * p->n_tests);
    DMK_CHECK_INT(s->tests[0].mode, DMK_MODE_READ);
    DMK_CHECK_INT(s->tests[1].mode, DMK_MODE_WRITE);
    DMK_CHECK(!s->verify);
    free(r);
    free(s);
}

/* CrystalDiskMark discards a warm-up as long as one pass, unless one is
 * given (0: none). */
static void test_warmup_rule(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MEASURE, "2.5", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_NEAR(s->warmup_s, 2.5, 1e-9);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_WARMUP, "0", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_NEAR(s->warmup_s, 0, 1e-9);
    DMK_CHECK(r->given & DMK_REQ_BIT(DMK_REQ_WARMUP));
    free(r);
    free(s);
}

/* Every out-of-range value is refused, with --NAME, the value and the
 * range in the message; nothing is marked given. */
static void test_out_of_range(void)
{
    static const struct {
        DmkRequestOptionId id;
        const char *bad, *says;
    } cases[] = {
        {DMK_REQ_PASSES, "0", "1 to 9"},
        {DMK_REQ_PASSES, "10", "1 to 9"},
        {DMK_REQ_READ_SHARE, "101", "0 to 100"},
        {DMK_REQ_SIZE, "8MiB", "16 MiB to 64 GiB"},
        {DMK_REQ_SIZE, "65GiB", "16 MiB to 64 GiB"},
        {DMK_REQ_MEASURE, "0", "--measure '0'"},
        {DMK_REQ_MEASURE, "8d", "--measure '8d'"},
        {DMK_REQ_WARMUP, "-1", "--warmup '-1'"},
        {DMK_REQ_INTERVAL, "x", "--interval 'x'"},
        {DMK_REQ_TIMELINE, "0.001", "--timeline '0.001'"},
        {DMK_REQ_WATCHDOG, "0.5", "--watchdog '0.5'"},
        {DMK_REQ_MODE, "sideways", "expected rw (read and write), read, write or mix"},
        {DMK_REQ_PROFILE, "fast", "expected default, peak, real, demo or nvme"},
        {DMK_REQ_DATA, "ones", "expected random or zero"},
        {DMK_REQ_BACKEND, "floppy", "--backend 'floppy'"},
        {DMK_REQ_TEST, "RND4K Q0T1", "queue depth out of range"},
        {DMK_REQ_TARGET, "", "--target '' is not a usable path"},
    };
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    if (!r)
        return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DmkError err = {0};
        char name[40];
        snprintf(name, sizeof name, "--%s", dmk_request_option(cases[i].id)->name);
        DMK_CHECK_INT(dmk_run_request_set(r, cases[i].id, cases[i].bad, &err), DMK_E_INVAL);
        if (cases[i].id != DMK_REQ_TEST)
            DMK_CHECK_HAS(err.msg, name);
        DMK_CHECK_HAS(err.msg, cases[i].says);
        DMK_CHECK_INT(r->given, 0);
    }
    /* the bounds themselves are accepted */
    DmkError err = {0};
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_PASSES, "9", &err), DMK_OK);
    DMK_CHECK_INT(r->passes, 9);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_PASSES, "1", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_SIZE, "16MiB", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_SIZE, "64GiB", &err), DMK_OK);
    /* a lab test's span may be a whole drive */
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_SIZE, "1PiB", &err), DMK_E_INVAL);
    free(r);
    r = new_request(DMK_REQUEST_LAB, DMK_LAB_SUSTAINED);
    if (r) {
        DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_SIZE, "1PiB", &err), DMK_OK);
        free(r);
    }
}

/* --test replaces the profile's tests ("custom"); mix mode uses the
 * default share unless --read-share, which needs mix mode; the window's
 * Mix column adds each test mixed at 70 %. */
static void test_tests_and_mix(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_TEST, "RND4K Q1T1", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MODE, "mix", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_STR(s->profile, "custom");
    DMK_CHECK_INT(s->n_tests, 1);
    DMK_CHECK_INT(s->tests[0].mode, DMK_MODE_MIX);
    DMK_CHECK_INT(s->tests[0].jobs[0].read_share, DMK_MIX_READ_SHARE_DEFAULT);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_READ_SHARE, "30", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_INT(s->tests[0].jobs[0].read_share, 30);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MODE, "read", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "--read-share needs --mode mix");
    free(r);
    r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    if (!r)
        return;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_PROFILE, "demo", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MIX, NULL, &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    size_t n = dmk_profile_find("demo")->n_tests;
    DMK_CHECK_INT(s->n_tests, 3 * n);
    DMK_CHECK_INT(s->tests[2 * n].mode, DMK_MODE_MIX);
    DMK_CHECK_INT(s->tests[2 * n].jobs[0].read_share, DMK_MIX_READ_SHARE_DEFAULT);
    free(r);
    free(s);
}

/* --verify on a run that writes nothing is a usage error; the window's
 * standing setting (verify_if_writes) leaves such a run unverified. */
static void test_verify(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_VERIFY, NULL, &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK(s->verify);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MODE, "read", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "no test writes");
    r->verify_if_writes = true;
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK(!s->verify);
    free(r);
    free(s);
}

/* A sweep takes no mix mode; a given mode replaces the sweep's own. */
static void test_sweep(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_SWEEP, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MODE, "write", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_STR(s->sweep, "qd");
    DMK_CHECK_INT(s->n_tests, r->sweep.n_points);
    for (size_t i = 0; i < s->n_tests; i++)
        DMK_CHECK_INT(s->tests[i].mode, DMK_MODE_WRITE);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_MODE, "mix", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "--mode 'mix' does not apply to a sweep");
    free(r);
    free(s);
}

/* A lab test's spec is its own; --size and --warmup given become its
 * span and warm-up, --test its write (one only). */
static void test_lab(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_LAB, DMK_LAB_SUSTAINED);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    r->lab.duration_s = 60;
    r->lab.settle_s = 0;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_SIZE, "256MiB", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_WARMUP, "1", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_TEST, "SEQ1M Q8T1", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_STR(s->lab, "sustained");
    DMK_CHECK_INT(s->size, 256ULL << 20);
    DMK_CHECK_NEAR(s->warmup_s, 1, 1e-9);
    DMK_CHECK_INT(s->tests[s->n_tests - 1].jobs[0].block_size, 1u << 20);
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_TEST, "RND4K Q1T1", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "sustained takes one --test");
    free(r);
    free(s);
}

/* The null backend's simulated drive and clock need that backend. */
static void test_null_simulation(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    if (!r || !s)
        return;
    dmk_null_opts(&r->backend_opts)->sim.cache_bytes = 64ULL << 20;
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "add --backend null");
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_BACKEND, "null", &err), DMK_OK);
    DMK_CHECK(dmk_run_request_backend(r) == dmk_backend_null());
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    r->null_clock_simulated = true;
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "--null-latency above 0");
    free(r);
    free(s);
}

/* The window's passes setting (its drop-down, CrystalDiskMark's menu)
 * has the table's range and default. */
static void test_gschema_passes(void)
{
    if (!dmk_gschema_path)
        DMK_SKIP("no schema path given (a cross build)");
    char *key = dmk_gschema_key("passes");
    if (!key)
        return;
    const DmkRequestOption *o = dmk_request_option(DMK_REQ_PASSES);
    char want[96];
    snprintf(want, sizeof want, "<range min=\"%.0f\" max=\"%.0f\"/>", o->min, o->max);
    DMK_CHECK_HAS(key, want);
    snprintf(want, sizeof want, "<default>%.0f</default>", o->def);
    DMK_CHECK_HAS(key, want);
}

/* The schema's profile choices are the profiles' table and the window's
 * custom one; the custom profile starts as the default profile's tests;
 * the mix ratio's range and default are --read-share's. */
static void test_gschema_profiles(void)
{
    if (!dmk_gschema_path)
        DMK_SKIP("no schema path given (a cross build)");
    char *key = dmk_gschema_key("profile");
    if (!key)
        return;
    char want[256];
    size_t n = 0;
    for (const char *c = strstr(key, "<choice value=\""); c; c = strstr(c + 1, "<choice value=\""))
        n++;
    DMK_CHECK(n == dmk_profile_count() + 1);
    for (size_t i = 0; i < dmk_profile_count(); i++) {
        snprintf(want, sizeof want, "<choice value=\"%s\"/>", dmk_profile_at(i)->id);
        DMK_CHECK_HAS(key, want);
    }
    DMK_CHECK_HAS(key, "<choice value=\"custom\"/>");
    key = dmk_gschema_key("custom-tests");
    if (!key)
        return;
    const DmkProfile *def = dmk_profile_find("default");
    size_t len = (size_t)snprintf(want, sizeof want, "<default>[");
    for (size_t i = 0; i < def->n_tests; i++)
        len +=
            (size_t)snprintf(want + len, sizeof want - len, "%s'%s'", i ? ", " : "", def->tests[i]);
    snprintf(want + len, sizeof want - len, "]</default>");
    DMK_CHECK_HAS(key, want);
    key = dmk_gschema_key("mix-read-share");
    if (!key)
        return;
    const DmkRequestOption *o = dmk_request_option(DMK_REQ_READ_SHARE);
    snprintf(want, sizeof want, "<range min=\"%.0f\" max=\"%.0f\"/>", o->min, o->max);
    DMK_CHECK_HAS(key, want);
    snprintf(want, sizeof want, "<default>%.0f</default>", o->def);
    DMK_CHECK_HAS(key, want);
}

/* The window's Mix column runs at the request's read share. */
static void test_mix_column_share(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    DMK_CHECK(dmk_run_request_set(r, DMK_REQ_TARGET, ".", &err) == DMK_OK);
    DMK_CHECK(dmk_run_request_set(r, DMK_REQ_PROFILE, "demo", &err) == DMK_OK);
    r->mix = true;
    r->read_share = 40;
    DMK_CHECK(dmk_run_request_build(r, s, &err) == DMK_OK);
    DMK_CHECK(s->n_tests == 3);
    DMK_CHECK(s->n_tests == 3 && s->tests[2].mode == DMK_MODE_MIX &&
              s->tests[2].jobs[0].read_share == 40);
    free(s);
    free(r);
}

/* The options the lab tests share say each test's default, from the
 * lab tests' table: the words they had when typed by hand. */
static void test_lab_help(void)
{
    char buf[512];
    DMK_CHECK_STR(dmk_request_option_help(dmk_request_option(DMK_REQ_WARMUP), buf, sizeof buf),
                  "discarded warm-up before each test, 0 for none (default: the measure time; "
                  "lab: 2 for mixed and latency, else 0)");
    DMK_CHECK_STR(dmk_request_option_help(dmk_request_option(DMK_REQ_SIZE), buf, sizeof buf),
                  "test file size, 16MiB-64GiB; the lab tests' span, up to 1PiB (default: 1GiB; "
                  "lab: 32GiB; fullspan: the free space; files, trace: 8GiB)");
    DMK_CHECK_STR(dmk_request_option_help(dmk_request_option(DMK_REQ_TEST), buf, sizeof buf),
                  "a test by CrystalDiskMark's name, e.g. \"RND4K Q32T1\" (run: repeatable, "
                  "replaces the profile's tests; sustained, recovery: the write, default RND4K "
                  "Q32T1; fullspan: default SEQ1M Q8T1)");
    /* every test that takes a write names it, with its default */
    for (size_t i = 0; i < dmk_lab_test_count(); i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        DmkLabParams p;
        char job[48];
        if (!(t->params & DMK_LAB_P(DMK_LAB_P_JOB)))
            continue;
        dmk_lab_params_init(&p, t->kind);
        DMK_CHECK_HAS(buf, t->name);
        DMK_CHECK_HAS(buf, dmk_job_format_name(&p.job, job, sizeof job));
    }
    DMK_CHECK_STR(dmk_request_option_help(dmk_request_option(DMK_REQ_PASSES), buf, sizeof buf),
                  dmk_request_option(DMK_REQ_PASSES)->help);
    DMK_CHECK(dmk_request_option_help(dmk_request_option(DMK_REQ_BACKEND), buf, sizeof buf) ==
              NULL);
}

/* One meaning per number, said in one text. */
static void test_exit_statuses(void)
{
    char text[512];
    dmk_exit_status_text(text, sizeof text);
    DMK_CHECK_HAS(text, "0 done");
    DMK_CHECK_HAS(text, "2 usage error");
    DMK_CHECK_HAS(text, "3 --verify found written data");
    DMK_CHECK_HAS(text, "130 interrupted");
    DMK_CHECK_INT(DMK_EXIT_INTERRUPTED, 130);
    DMK_CHECK_INT(DMK_EXIT_TERMINATED, 143);
    DMK_CHECK_STR(dmk_run_mode_name(DMK_RUN_READ_WRITE), "rw");
    DMK_CHECK_STR(dmk_run_mode_name(DMK_RUN_MIX), "mix");
}

/* Each choice word an option offers (the completions' and man pages')
 * is one its parser takes; a word it does not take is refused. */
static void test_choices(void)
{
    static const DmkRequestOptionId ids[] = {DMK_REQ_PROFILE, DMK_REQ_MODE, DMK_REQ_DATA,
                                             DMK_REQ_BACKEND, DMK_REQ_SIZE, DMK_REQ_TEST,
                                             DMK_REQ_PASSES};
    const char *words[64];
    char list[256];
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const DmkRequestOption *o = dmk_request_option(ids[i]);
        size_t n = dmk_request_option_choices(o, words, 64);
        DMK_CHECK(n > 1 && n <= 64);
        for (size_t k = 0; k < n && k < 64; k++) {
            DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
            DmkError err = {0};
            if (!r)
                return;
            DMK_CHECK_INT(dmk_run_request_set(r, ids[i], words[k], &err), DMK_OK);
            free(r);
        }
    }
    /* the backends are those --backend's message names, native first */
    size_t n = dmk_request_option_choices(dmk_request_option(DMK_REQ_BACKEND), words, 64);
    DMK_CHECK_STR(words[0], "native");
    dmk_backend_choices(list, sizeof list);
    for (size_t k = 0; k < n; k++)
        DMK_CHECK_HAS(list, words[k]);
    /* --passes: its range, 1 to 9; CrystalDiskMark's sizes, 16MiB..64GiB */
    DMK_CHECK_INT(dmk_request_option_choices(dmk_request_option(DMK_REQ_PASSES), words, 64), 9);
    DMK_CHECK_STR(words[0], "1");
    DMK_CHECK_STR(words[8], "9");
    n = dmk_request_option_choices(dmk_request_option(DMK_REQ_SIZE), words, 64);
    DMK_CHECK_INT(n, dmk_size_preset_count());
    DMK_CHECK_STR(words[0], "16MiB");
    DMK_CHECK_STR(words[n - 1], "64GiB");
    /* a path, a number range too wide to list: any value */
    DMK_CHECK_INT(dmk_request_option_choices(dmk_request_option(DMK_REQ_TARGET), words, 64), 0);
    DMK_CHECK_INT(dmk_request_option_choices(dmk_request_option(DMK_REQ_READ_SHARE), words, 64), 0);
    /* fewer room than words: the count still says how many */
    DMK_CHECK_INT(dmk_request_option_choices(dmk_request_option(DMK_REQ_PASSES), words, 2), 9);
}

/* --comment: valid UTF-8 of at most 511 bytes, into the spec as it is. */
static void test_comment(void)
{
    DmkRunRequest *r = new_request(DMK_REQUEST_RUN, DMK_LAB_NONE);
    DmkRunSpec *s = new_spec();
    DmkError err = {0};
    char longer[513];
    if (!r || !s)
        return;
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_COMMENT, "=caf\xc3\xa9, \"2\"", &err), DMK_OK);
    DMK_CHECK_INT(dmk_run_request_build(r, s, &err), DMK_OK);
    DMK_CHECK_STR(s->comment, "=caf\xc3\xa9, \"2\"");
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_COMMENT, "caf\xe9", &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "--comment is not valid UTF-8");
    memset(longer, 'x', 512);
    longer[512] = '\0';
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_COMMENT, longer, &err), DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "at most 511");
    longer[511] = '\0';
    DMK_CHECK_INT(dmk_run_request_set(r, DMK_REQ_COMMENT, longer, &err), DMK_OK);
    DMK_CHECK_INT((int)strlen(r->comment), 511);
    free(r);
    free(s);
}

/* The table's exit statuses, one by one, as the man pages list them. */
static void test_exit_status_rows(void)
{
    const char *meaning = NULL;
    DMK_CHECK(dmk_exit_status_count() >= 5);
    DMK_CHECK_INT(dmk_exit_status_at(0, &meaning), DMK_EXIT_OK);
    DMK_CHECK_STR(meaning, "done");
    DMK_CHECK_INT(dmk_exit_status_at(dmk_exit_status_count(), &meaning), -1);
}

int main(int argc, char **argv)
{
    dmk_gschema_path = argc > 1 ? argv[1] : NULL;
    DMK_TEST(test_table);
    DMK_TEST(test_defaults_from_table);
    DMK_TEST(test_warmup_rule);
    DMK_TEST(test_out_of_range);
    DMK_TEST(test_tests_and_mix);
    DMK_TEST(test_verify);
    DMK_TEST(test_sweep);
    DMK_TEST(test_lab);
    DMK_TEST(test_null_simulation);
    DMK_TEST(test_gschema_passes);
    DMK_TEST(test_gschema_profiles);
    DMK_TEST(test_mix_column_share);
    DMK_TEST(test_lab_help);
    DMK_TEST(test_exit_statuses);
    DMK_TEST(test_choices);
    DMK_TEST(test_comment);
    DMK_TEST(test_exit_status_rows);
    return dmk_test_done();
}
