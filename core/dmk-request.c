/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-request.h"

#include <stdio.h>
#include <string.h>

#include "dmk-escape.h"
#include "dmk-i18n.h"
#include "dmk-presets.h"
#include "dmk-size.h"
#include "null/dmk-null.h"

/* ---- exit statuses ----------------------------------------------------- */

/* The meanings are English here (the man page's), translated in --help
 * (dmk_exit_status_text). */
static const struct {
    int status;
    const char *meaning;
} exit_statuses[] = {
    {DMK_EXIT_OK, DMK_N_("done")},
    {DMK_EXIT_FAILED, DMK_N_("failed, target refused or a bad result file")},
    {DMK_EXIT_USAGE, DMK_N_("usage error")},
    {DMK_EXIT_BAD_DATA, DMK_N_("--verify found written data that did not read back")},
    {DMK_EXIT_INTERRUPTED, DMK_N_("interrupted (SIGINT, or Stop in the window)")},
    {DMK_EXIT_TERMINATED, DMK_N_("terminated (SIGTERM)")},
};

size_t dmk_exit_status_count(void)
{
    return sizeof exit_statuses / sizeof exit_statuses[0];
}

int dmk_exit_status_at(size_t i, const char **meaning)
{
    if (i >= dmk_exit_status_count())
        return -1;
    *meaning = exit_statuses[i].meaning;
    return exit_statuses[i].status;
}

char *dmk_exit_status_text(char *buf, size_t len)
{
    size_t n = sizeof exit_statuses / sizeof exit_statuses[0];
    int used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < n && used >= 0 && (size_t)used < len; i++)
        used += snprintf(buf + used, len - (size_t)used, "%s%d %s%s", i ? " " : "",
                         exit_statuses[i].status, DMK_(exit_statuses[i].meaning),
                         i + 1 < n ? "," : ".");
    return buf;
}

/* ---- the table ----------------------------------------------------------- */

#define RUN   DMK_REQ_KIND(DMK_REQUEST_RUN)
#define SWEEP DMK_REQ_KIND(DMK_REQUEST_SWEEP)
#define LAB   DMK_REQ_KIND(DMK_REQUEST_LAB)
#define ALL   (RUN | SWEEP | LAB)
#define BOTH  (DMK_REQ_CLI | DMK_REQ_WINDOW)
#define DAY   86400.0

/* In DmkRequestOptionId's order. The defaults are CrystalDiskMark 8's
 * (dmk_run_spec_init holds the same for a bare spec). */
/* The help lines are English here (DMK_N_: the man page's words too) and
 * translated where --help shows them (dmk_request_option_help). */
static const DmkRequestOption options[DMK_REQ_N_OPTIONS] = {
    {DMK_REQ_TARGET, "target", "DIR", DMK_REQ_VALUE_PATH, 0, 0, 0, 0, NULL, ALL, BOTH,
     DMK_N_("directory for the test file (default: drivemark-cli's is ., the window's the last one "
            "chosen)")},
    {DMK_REQ_PROFILE, "profile", "NAME", DMK_REQ_VALUE_CHOICE, 0, 0, 0, 0,
     "default, peak, real, demo or nvme", RUN, BOTH,
     DMK_N_("the tests: default, peak, real, demo or nvme (default: default)")},
    {DMK_REQ_TEST, "test", "NAME", DMK_REQ_VALUE_TEST, 0, 0, 0, 0, NULL, RUN | LAB, DMK_REQ_CLI,
     DMK_N_("a test by CrystalDiskMark's name, e.g. \"RND4K Q32T1\" (run: repeatable, replaces the "
            "profile's tests)")},
    {DMK_REQ_MODE, "mode", "MODE", DMK_REQ_VALUE_CHOICE, 0, 0, 0, 0,
     "rw (read and write), read, write or mix", RUN | SWEEP, BOTH,
     DMK_N_("the directions: rw (each test read, then write), read, write, or (drivemark-cli run "
            "only) mix")},
    {DMK_REQ_READ_SHARE, "read-share", "N", DMK_REQ_VALUE_UINT, 0, 100, 0,
     DMK_MIX_READ_SHARE_DEFAULT, NULL, RUN, DMK_REQ_CLI,
     DMK_N_("percent of I/Os that read in mix mode, 0-100 (default: 70)")},
    {DMK_REQ_MIX, "mix", NULL, DMK_REQ_VALUE_FLAG, 0, 0, 0, 0, NULL, RUN, DMK_REQ_WINDOW,
     DMK_N_("add the mixed column: each test of the profile mixed, 70 % reads")},
    {DMK_REQ_SIZE, "size", "SIZE", DMK_REQ_VALUE_SIZE, (double)DMK_SIZE_MIN, (double)DMK_SIZE_MAX,
     (double)DMK_LAB_SIZE_MAX, (double)(1ULL << 30), NULL, ALL, BOTH,
     DMK_N_("test file size, 16MiB-64GiB (default: 1GiB)")},
    /* CrystalDiskMark's menu, 1 to 9, and the window's setting (checked
     * against its schema by test-request); the engine and the CSV reader
     * keep DMK_PASSES_MAX, so older results with more passes still open. */
    {DMK_REQ_PASSES, "passes", "N", DMK_REQ_VALUE_UINT, 1, 9, 0, 5, NULL, RUN | SWEEP, BOTH,
     DMK_N_("passes per test, 1-9; the best one counts (default: 5)")},
    {DMK_REQ_MEASURE, "measure", "SECONDS", DMK_REQ_VALUE_SECONDS, 0.1, 7 * DAY, 0, 5, NULL,
     RUN | SWEEP, BOTH, DMK_N_("length of each pass (default: 5)")},
    /* def < 0: the measure time (CrystalDiskMark discards one pass's worth). */
    {DMK_REQ_WARMUP, "warmup", "SECONDS", DMK_REQ_VALUE_SECONDS, 0, 7 * DAY, 0, -1, NULL, ALL, BOTH,
     DMK_N_("discarded warm-up before each test, 0 for none (default: the measure time)")},
    {DMK_REQ_INTERVAL, "interval", "SECONDS", DMK_REQ_VALUE_SECONDS, 0, 7 * DAY, 0, 5, NULL,
     RUN | SWEEP, BOTH, DMK_N_("idle time between tests (default: 5)")},
    {DMK_REQ_TIMELINE, "timeline", "SECONDS", DMK_REQ_VALUE_SECONDS, 0.01, 3600, 0, 0, NULL,
     RUN | SWEEP, DMK_REQ_CLI,
     DMK_N_("record throughput every SECONDS (0.01-3600) into the results")},
    {DMK_REQ_WATCHDOG, "watchdog", "SECONDS", DMK_REQ_VALUE_SECONDS, 1, 7 * DAY, 0, 60, NULL, ALL,
     DMK_REQ_CLI | DMK_REQ_WINDOW | DMK_REQ_WINDOW_HIDDEN,
     DMK_N_("fail the run when the drive completes no request for SECONDS (default: 60)")},
    {DMK_REQ_DATA, "data", "KIND", DMK_REQ_VALUE_CHOICE, 0, 0, 0, 0, "random or zero", ALL,
     DMK_REQ_CLI, DMK_N_("random (incompressible, default) or zero")},
    {DMK_REQ_VERIFY, "verify", NULL, DMK_REQ_VALUE_FLAG, 0, 0, 0, 0, NULL, RUN | SWEEP, BOTH,
     DMK_N_("read every written block back after its test and check its header and CRC32C (not "
            "timed); exit status 3 when one is bad")},
    /* help NULL: the front ends write it from the backend registry */
    {DMK_REQ_BACKEND, "backend", "NAME", DMK_REQ_VALUE_CHOICE, 0, 0, 0, 0, NULL, ALL, BOTH, NULL},
    /* max: the bytes DmkRunResult.comment holds */
    {DMK_REQ_COMMENT, "comment", "TEXT", DMK_REQ_VALUE_TEXT, 0, 511, 0, 0, NULL, ALL, BOTH,
     DMK_N_("a comment kept with the results (the CSV, the JSON, the report), up to 511 bytes of "
            "UTF-8")},
};

size_t dmk_request_option_count(void)
{
    return DMK_REQ_N_OPTIONS;
}

const DmkRequestOption *dmk_request_option(DmkRequestOptionId id)
{
    return id < DMK_REQ_N_OPTIONS ? &options[id] : NULL;
}

const DmkRequestOption *dmk_request_option_by_name(const char *name)
{
    for (size_t i = 0; name && i < DMK_REQ_N_OPTIONS; i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

void dmk_run_request_init(DmkRunRequest *r, DmkRequestKind kind, DmkLabKind lab)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    snprintf(r->target, sizeof r->target, ".");
    snprintf(r->profile, sizeof r->profile, "default");
    snprintf(r->backend, sizeof r->backend, "native");
    r->mode = DMK_RUN_READ_WRITE;
    r->data = DMK_DATA_RANDOM;
    r->read_share = (uint32_t)options[DMK_REQ_READ_SHARE].def;
    r->size = (uint64_t)options[DMK_REQ_SIZE].def;
    r->passes = (uint32_t)options[DMK_REQ_PASSES].def;
    r->measure_s = options[DMK_REQ_MEASURE].def;
    r->warmup_s = options[DMK_REQ_WARMUP].def;
    r->interval_s = options[DMK_REQ_INTERVAL].def;
    r->timeline_s = options[DMK_REQ_TIMELINE].def;
    r->watchdog_s = options[DMK_REQ_WATCHDOG].def;
    dmk_sweep_init(&r->sweep, DMK_SWEEP_QD, DMK_PATTERN_RND);
    if (kind == DMK_REQUEST_LAB)
        dmk_lab_params_init(&r->lab, lab);
}

/* ---- parsing one option ------------------------------------------------------ */

/* --mode's words, indexed by DmkRunMode; --data's, by DmkDataKind. */
static const char *const mode_names[] = {"rw", "read", "write", "mix"};
static const char *const data_names[] = {[DMK_DATA_RANDOM] = "random", [DMK_DATA_ZERO] = "zero"};

const char *dmk_run_mode_name(DmkRunMode m)
{
    return (size_t)m < sizeof mode_names / sizeof mode_names[0] ? mode_names[m] : "?";
}

static int set_choice(DmkRunRequest *r, const DmkRequestOption *o, const char *what, const char *v,
                      DmkError *err)
{
    const DmkBackend *be;
    switch (o->id) {
    case DMK_REQ_PROFILE:
        if (!dmk_profile_find(v))
            break;
        snprintf(r->profile, sizeof r->profile, "%s", v);
        return DMK_OK;
    case DMK_REQ_MODE:
        for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
            if (strcmp(v, mode_names[i]) == 0) {
                r->mode = (DmkRunMode)i;
                return DMK_OK;
            }
        break;
    case DMK_REQ_DATA:
        for (size_t i = 0; i < sizeof data_names / sizeof data_names[0]; i++)
            if (data_names[i] && strcmp(v, data_names[i]) == 0) {
                r->data = (DmkDataKind)i;
                return DMK_OK;
            }
        break;
    case DMK_REQ_BACKEND:
        /* The registry's own message lists its backends. */
        if (dmk_backend_choose(what, v, &be, err) != DMK_OK)
            return DMK_E_INVAL;
        snprintf(r->backend, sizeof r->backend, "%s", v);
        return DMK_OK;
    default:
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s cannot be set", what);
    }
    return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' is unknown: expected %s", what, v,
                         o->choices);
}

static int set_path(DmkRunRequest *r, const char *what, const char *v, DmkError *err)
{
    if (!*v || strlen(v) >= sizeof r->target)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' is not a usable path", what, v);
    snprintf(r->target, sizeof r->target, "%s", v);
    return DMK_OK;
}

static int set_test(DmkRunRequest *r, const char *v, DmkError *err)
{
    DmkJob job;
    int rc = dmk_job_parse_name(v, &job, err);
    if (rc != DMK_OK)
        return rc;
    if (strlen(v) >= sizeof r->tests[0])
        return dmk_error_set(err, DMK_E_INVAL, 0, "--test '%s' is too long", v);
    if (r->n_tests >= DMK_REQUEST_TESTS_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "too many --test options (at most %d)",
                             DMK_REQUEST_TESTS_MAX);
    snprintf(r->tests[r->n_tests++], sizeof r->tests[0], "%s", v);
    return DMK_OK;
}

/* The comment goes into result files as it is: valid UTF-8 that fits,
 * or a usage error (not a comment cut short or changed). */
static int set_text(DmkRunRequest *r, const DmkRequestOption *o, const char *what, const char *v,
                    DmkError *err)
{
    size_t n = strlen(v);
    if (n > (size_t)o->max || n >= sizeof r->comment)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s is %zu bytes long: at most %.0f", what, n,
                             o->max);
    for (size_t i = 0; i < n;) {
        size_t k = dmk_utf8_len((const unsigned char *)v + i, n - i);
        if (!k)
            return dmk_error_set(err, DMK_E_INVAL, 0, "%s is not valid UTF-8 (byte %zu of %zu)",
                                 what, i + 1, n);
        i += k;
    }
    snprintf(r->comment, sizeof r->comment, "%s", v);
    return DMK_OK;
}

static double *seconds_of(DmkRunRequest *r, DmkRequestOptionId id)
{
    return id == DMK_REQ_MEASURE    ? &r->measure_s
           : id == DMK_REQ_WARMUP   ? &r->warmup_s
           : id == DMK_REQ_INTERVAL ? &r->interval_s
           : id == DMK_REQ_TIMELINE ? &r->timeline_s
                                    : &r->watchdog_s;
}

static int set_number(DmkRunRequest *r, const DmkRequestOption *o, const char *what, const char *v,
                      DmkError *err)
{
    uint64_t n = 0;
    int rc;
    if (o->kind == DMK_REQ_VALUE_SECONDS)
        return dmk_parse_seconds_range(what, v, o->min, o->max, seconds_of(r, o->id), err);
    if (o->kind == DMK_REQ_VALUE_SIZE) {
        double max = r->kind == DMK_REQUEST_LAB && o->lab_max > 0 ? o->lab_max : o->max;
        return dmk_parse_size_range(what, v, (uint64_t)o->min, (uint64_t)max, &r->size, err);
    }
    rc = dmk_parse_uint_range(what, v, (uint64_t)o->min, (uint64_t)o->max, &n, err);
    if (rc == DMK_OK && o->id == DMK_REQ_PASSES)
        r->passes = (uint32_t)n;
    else if (rc == DMK_OK)
        r->read_share = (uint32_t)n;
    return rc;
}

int dmk_run_request_set(DmkRunRequest *r, DmkRequestOptionId id, const char *value, DmkError *err)
{
    const DmkRequestOption *o = dmk_request_option(id);
    char what[32];
    if (!o)
        return dmk_error_set(err, DMK_E_INVAL, 0, "no such option");
    snprintf(what, sizeof what, "--%s", o->name);
    if (o->kind != DMK_REQ_VALUE_FLAG && !value)
        return dmk_error_set(err, DMK_E_INVAL, 0, "option '%s' needs a value (%s)", what, o->value);
    int rc = DMK_OK;
    switch (o->kind) {
    case DMK_REQ_VALUE_FLAG:
        if (id == DMK_REQ_MIX)
            r->mix = true;
        else
            r->verify = true;
        break;
    case DMK_REQ_VALUE_PATH:
        rc = set_path(r, what, value, err);
        break;
    case DMK_REQ_VALUE_CHOICE:
        rc = set_choice(r, o, what, value, err);
        break;
    case DMK_REQ_VALUE_TEST:
        rc = set_test(r, value, err);
        break;
    case DMK_REQ_VALUE_TEXT:
        rc = set_text(r, o, what, value, err);
        break;
    default:
        rc = set_number(r, o, what, value, err);
        break;
    }
    if (rc == DMK_OK)
        r->given |= DMK_REQ_BIT(id);
    return rc;
}

/* ---- the words an option's value may be ------------------------------------ */

static size_t add_word(const char **words, size_t n, size_t max, const char *w)
{
    for (size_t i = 0; i < n && i < max; i++)
        if (strcmp(words[i], w) == 0)
            return n; /* each once */
    if (n < max)
        words[n] = w;
    return n + 1;
}

static size_t words_of(const char *const *list, size_t count, const char **words, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (list[i])
            n = add_word(words, n, max, list[i]);
    return n;
}

/* CrystalDiskMark's sizes as the option takes them: "16MiB" ... "64GiB". */
static size_t size_words(const char **words, size_t max)
{
    static char text[32][32];
    size_t n = dmk_size_preset_count();
    for (size_t i = 0; i < n && i < max && i < sizeof text / sizeof text[0]; i++) {
        uint64_t v = dmk_size_preset_at(i);
        snprintf(text[i], sizeof text[i], "%llu%s",
                 (unsigned long long)(v % (1ULL << 30) ? v >> 20 : v >> 30),
                 v % (1ULL << 30) ? "MiB" : "GiB");
        words[i] = text[i];
    }
    return n;
}

/* A range of at most a dozen integers, each a word: --passes 1..9. */
static size_t number_words(const DmkRequestOption *o, const char **words, size_t max)
{
    static char text[DMK_REQ_N_OPTIONS][12][8];
    if (o->max - o->min >= 12)
        return 0;
    size_t n = 0;
    for (double v = o->min; v <= o->max; v++, n++)
        if (n < max) {
            snprintf(text[o->id][n], sizeof text[0][0], "%.0f", v);
            words[n] = text[o->id][n];
        }
    return n;
}

size_t dmk_request_option_choices(const DmkRequestOption *o, const char **words, size_t max)
{
    size_t n = 0;
    switch (o->id) {
    case DMK_REQ_PROFILE:
        for (size_t i = 0; i < dmk_profile_count(); i++)
            n = add_word(words, n, max, dmk_profile_at(i)->id);
        return n;
    case DMK_REQ_TEST: /* not the only names, but the ones people use */
        for (size_t i = 0; i < dmk_profile_count(); i++)
            for (size_t t = 0; t < dmk_profile_at(i)->n_tests; t++)
                n = add_word(words, n, max, dmk_profile_at(i)->tests[t]);
        return n;
    case DMK_REQ_MODE:
        return words_of(mode_names, sizeof mode_names / sizeof mode_names[0], words, max);
    case DMK_REQ_DATA:
        return words_of(data_names, sizeof data_names / sizeof data_names[0], words, max);
    case DMK_REQ_BACKEND:
        /* dmk_backend_choose's: native and every backend but the tests' */
        n = add_word(words, n, max, "native");
        for (size_t i = 0; i < dmk_backend_count(); i++)
            if (!dmk_backend_at(i)->tests_only)
                n = add_word(words, n, max, dmk_backend_at(i)->name);
        return n;
    case DMK_REQ_SIZE:
        return size_words(words, max);
    default:
        return o->kind == DMK_REQ_VALUE_UINT ? number_words(o, words, max) : 0;
    }
}

const DmkBackend *dmk_run_request_backend(const DmkRunRequest *r)
{
    const DmkBackend *be = dmk_backend_by_name(r->backend);
    return be ? be : dmk_backend_native();
}

/* ---- the builder ------------------------------------------------------------ */

static bool given(const DmkRunRequest *r, DmkRequestOptionId id)
{
    return (r->given & DMK_REQ_BIT(id)) != 0;
}

/* What every request shares: where, how big, how long, on what. */
static void base_spec(const DmkRunRequest *r, DmkRunSpec *s)
{
    snprintf(s->dir, sizeof s->dir, "%s", r->target);
    s->device = r->device;
    snprintf(s->device_confirm, sizeof s->device_confirm, "%s", r->device_confirm);
    s->size = r->size;
    s->passes = r->passes;
    s->measure_s = r->measure_s;
    /* CrystalDiskMark: one discarded pass's worth before each test. */
    s->warmup_s = r->warmup_s >= 0 ? r->warmup_s : r->measure_s;
    s->interval_s = r->interval_s;
    s->timeline_s = r->timeline_s;
    s->watchdog_s = r->watchdog_s;
    s->data = r->data;
    s->backend_opts = r->backend_opts;
    snprintf(s->comment, sizeof s->comment, "%s", r->comment);
}

/* The profile's tests, or the --test ones, in the request's directions;
 * then (the window's Mix column) the same tests mixed at read_share (the
 * window's mix ratio; 70 % unless it sets another). */
static int add_run(const DmkRunRequest *r, DmkRunSpec *s, DmkError *err)
{
    DmkJob jobs[DMK_REQUEST_TESTS_MAX];
    size_t n = 0;
    const DmkProfile *p = dmk_profile_find(r->profile);
    if (given(r, DMK_REQ_READ_SHARE) && r->mode != DMK_RUN_MIX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "--read-share needs --mode mix");
    if (!p && r->n_tests == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--profile '%s' is unknown: expected default, peak, real, demo or "
                             "nvme",
                             r->profile);
    size_t count = r->n_tests ? r->n_tests : p->n_tests;
    for (; n < count; n++) {
        int rc = dmk_job_parse_name(r->n_tests ? r->tests[n] : p->tests[n], &jobs[n], err);
        if (rc != DMK_OK)
            return rc;
    }
    snprintf(s->profile, sizeof s->profile, "%s", r->n_tests ? "custom" : p->id);
    int rc = dmk_run_spec_add_all(s, jobs, n, r->mode, r->read_share, err);
    if (rc == DMK_OK && r->mix)
        rc = dmk_run_spec_add_all(s, jobs, n, DMK_RUN_MIX, r->read_share, err);
    return rc;
}

static int add_sweep(const DmkRunRequest *r, DmkRunSpec *s, DmkError *err)
{
    DmkSweep sw = r->sweep;
    if (given(r, DMK_REQ_MODE) && r->mode == DMK_RUN_MIX)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--mode 'mix' does not apply to a sweep: expected rw, read or write");
    if (given(r, DMK_REQ_MODE))
        sw.mode = r->mode;
    return dmk_sweep_add(s, &sw, err);
}

/* A lab test's spec is its own (dmk_lab_build); the shared options
 * given change its settings: --size its span, --warmup its warm-up,
 * --test its write. */
static int add_lab(const DmkRunRequest *r, DmkRunSpec *s, DmkError *err)
{
    DmkLabParams p = r->lab;
    const DmkLabTest *t = dmk_lab_test(p.kind);
    if (!t)
        return dmk_error_set(err, DMK_E_INVAL, 0, "no such lab test");
    if (r->n_tests > 1)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s takes one --test", t->name);
    if (r->n_tests) {
        int rc = dmk_job_parse_name(r->tests[0], &p.job, err);
        if (rc != DMK_OK)
            return rc;
    }
    if (given(r, DMK_REQ_SIZE))
        p.span = r->size;
    if (given(r, DMK_REQ_WARMUP))
        p.warmup_s = r->warmup_s;
    return dmk_lab_build(&p, s, err);
}

/* The null backend's simulated drive and clock belong to it alone, as
 * the io_uring backend's options to it. */
static int check_backend(const DmkRunRequest *r, DmkError *err)
{
    bool null = dmk_run_request_backend(r) == dmk_backend_null();
    const DmkNullOpts *no = dmk_null_opts_get(&r->backend_opts);
    if ((no->sim.cache_bytes || no->sim.bytes_per_c) && !null)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--null-cache and --null-thermal simulate a drive on the null "
                             "backend: add --backend null");
    if (r->null_clock_simulated && !null)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--null-clock simulates the null backend's time: add --backend null");
    if (strcmp(r->backend_opts.backend, "io_uring") == 0 &&
        strcmp(dmk_run_request_backend(r)->name, "io_uring") != 0)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--io-uring-sqpoll and --io-uring-hipri are options of the io_uring "
                             "backend: add --backend io_uring");
    if (r->null_clock_simulated && !no->latency_ns)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--null-clock simulated needs --null-latency above 0: simulated "
                             "time moves only while I/O takes time");
    return DMK_OK;
}

static bool any_write(const DmkRunSpec *s)
{
    for (size_t i = 0; i < s->n_tests; i++)
        if (s->tests[i].mode != DMK_MODE_READ)
            return true;
    return false;
}

int dmk_run_request_build(const DmkRunRequest *r, DmkRunSpec *spec, DmkError *err)
{
    dmk_run_spec_init(spec);
    base_spec(r, spec);
    int rc = check_backend(r, err);
    if (rc == DMK_OK)
        rc = r->kind == DMK_REQUEST_LAB     ? add_lab(r, spec, err)
             : r->kind == DMK_REQUEST_SWEEP ? add_sweep(r, spec, err)
                                            : add_run(r, spec, err);
    if (rc != DMK_OK)
        return rc;
    /* The CLI's --verify on a run that writes nothing is refused by the
     * validator; the window's standing setting has nothing to check. */
    spec->verify = r->verify && (!r->verify_if_writes || any_write(spec));
    /* A spec the engine would refuse is the user's to fix: a usage error. */
    return dmk_run_spec_validate(spec, dmk_os_max_inflight(), err);
}
