#include "dmk-cli.h"

#include <stdlib.h>
#include <string.h>

#include "dmk-presets.h"
#include "dmk-size.h"
#include "dmk-version.h"

typedef int (*DmkOptFn)(DmkCliArgs *a, const char *value, DmkError *err);

typedef struct {
    const char *name;  /* "--size" */
    const char *value; /* "SIZE", or NULL for a flag */
    unsigned commands; /* DmkCommand bits where it is accepted, 0 = everywhere */
    DmkOptFn fn;
    const char *help;
} DmkOption;

/* ---- option handlers ---------------------------------------------------- */

static int opt_target(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (!*v || strlen(v) >= sizeof a->spec->dir)
        return dmk_error_set(err, DMK_E_INVAL, 0, "--target '%s' is not a usable path", v);
    snprintf(a->spec->dir, sizeof a->spec->dir, "%s", v);
    return DMK_OK;
}

static int opt_profile(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (!dmk_profile_find(v))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--profile '%s' is unknown: expected default, peak, real, demo "
                             "or nvme",
                             v);
    a->profile = v;
    return DMK_OK;
}

static int opt_test(DmkCliArgs *a, const char *v, DmkError *err)
{
    DmkJob job;
    int rc = dmk_job_parse_name(v, &job, err);
    if (rc != DMK_OK)
        return rc;
    if (a->n_tests >= DMK_MAX_TESTS / 2)
        return dmk_error_set(err, DMK_E_INVAL, 0, "too many --test options (at most %d)",
                             DMK_MAX_TESTS / 2);
    a->tests[a->n_tests++] = v;
    return DMK_OK;
}

static int opt_mode(DmkCliArgs *a, const char *v, DmkError *err)
{
    static const struct {
        const char *name;
        DmkRunMode mode;
    } modes[] = {{"rw", DMK_RUN_READ_WRITE},
                 {"read", DMK_RUN_READ},
                 {"write", DMK_RUN_WRITE},
                 {"mix", DMK_RUN_MIX}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(v, modes[i].name) == 0) {
            a->run_mode = modes[i].mode;
            return DMK_OK;
        }
    }
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--mode '%s' is unknown: expected rw (read and write), read, write or "
                         "mix",
                         v);
}

static int opt_read_share(DmkCliArgs *a, const char *v, DmkError *err)
{
    uint64_t n;
    int rc = dmk_parse_uint_range("--read-share", v, 0, 100, &n, err);
    a->read_share = (uint32_t)n;
    a->read_share_set = true;
    return rc;
}

static int opt_size(DmkCliArgs *a, const char *v, DmkError *err)
{
    return dmk_parse_size_range("--size", v, DMK_SIZE_MIN, DMK_SIZE_MAX, &a->spec->size, err);
}

static int opt_passes(DmkCliArgs *a, const char *v, DmkError *err)
{
    uint64_t n;
    int rc = dmk_parse_uint_range("--passes", v, 1, DMK_PASSES_MAX, &n, err);
    a->spec->passes = (uint32_t)n;
    return rc;
}

static int opt_measure(DmkCliArgs *a, const char *v, DmkError *err)
{
    return dmk_parse_seconds_range("--measure", v, 0.1, DMK_SECONDS_MAX, &a->spec->measure_s, err);
}

static int opt_warmup(DmkCliArgs *a, const char *v, DmkError *err)
{
    a->warmup_set = true;
    return dmk_parse_seconds_range("--warmup", v, 0, DMK_SECONDS_MAX, &a->spec->warmup_s, err);
}

static int opt_interval(DmkCliArgs *a, const char *v, DmkError *err)
{
    return dmk_parse_seconds_range("--interval", v, 0, DMK_SECONDS_MAX, &a->spec->interval_s, err);
}

static int opt_timeline(DmkCliArgs *a, const char *v, DmkError *err)
{
    return dmk_parse_seconds_range("--timeline", v, 0.01, 3600, &a->spec->timeline_s, err);
}

static int opt_data(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (strcmp(v, "random") == 0)
        a->spec->data = DMK_DATA_RANDOM;
    else if (strcmp(v, "zero") == 0)
        a->spec->data = DMK_DATA_ZERO;
    else
        return dmk_error_set(err, DMK_E_INVAL, 0, "--data '%s' is unknown: expected random or zero",
                             v);
    return DMK_OK;
}

static int opt_backend(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (!dmk_backend_by_name(v))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--backend '%s' is unknown: expected %s, native or null", v,
                             dmk_backend_native()->name);
    a->backend = v;
    return DMK_OK;
}

static int opt_null_latency(DmkCliArgs *a, const char *v, DmkError *err)
{
    uint64_t us;
    int rc = dmk_parse_uint_range("--null-latency", v, 0, 10000000, &us, err);
    a->spec->null_latency_ns = us * 1000;
    return rc;
}

static int opt_json(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)err;
    a->json_path = v;
    return DMK_OK;
}

static int opt_csv(DmkCliArgs *a, const char *v, DmkError *err)
{
#ifdef DMK_HAVE_CSV
    (void)err;
    a->csv_path = v;
    return DMK_OK;
#else
    (void)a;
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--csv '%s': this build has no CSV support (built without libcsv)", v);
#endif
}

static int opt_quiet(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    (void)err;
    a->quiet = true;
    return DMK_OK;
}

static int opt_help(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    (void)err;
    a->cmd = DMK_CMD_HELP;
    return DMK_OK;
}

static int opt_version(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    (void)err;
    a->cmd = DMK_CMD_VERSION;
    return DMK_OK;
}

/* ---- the table ---------------------------------------------------------- */

#define RUN DMK_CMD_RUN
#define ANY 0u /* accepted everywhere */

static const DmkOption options[] = {
    {"--target", "DIR", RUN, opt_target, "directory for the test file (default: .)"},
    {"--profile", "NAME", RUN, opt_profile, "default, peak, real, demo or nvme (default: default)"},
    {"--test", "NAME", RUN, opt_test,
     "a test by CrystalDiskMark's name, e.g. \"RND4K Q32T1\" (repeatable; replaces the "
     "profile's tests)"},
    {"--mode", "MODE", RUN, opt_mode, "rw (each test read, then write), read, write or mix"},
    {"--read-share", "N", RUN, opt_read_share,
     "percent of I/Os that read in mix mode, 0-100 (default: 70)"},
    {"--size", "SIZE", RUN, opt_size, "test file size, 16MiB-64GiB (default: 1GiB)"},
    {"--passes", "N", RUN, opt_passes, "passes per test, 1-100; the best one counts (default: 5)"},
    {"--measure", "SECONDS", RUN, opt_measure, "length of each pass (default: 5)"},
    {"--warmup", "SECONDS", RUN, opt_warmup,
     "discarded warm-up before each test, 0 for none (default: the measure time)"},
    {"--interval", "SECONDS", RUN, opt_interval, "idle time between tests (default: 5)"},
    {"--timeline", "SECONDS", RUN, opt_timeline,
     "record throughput every SECONDS (0.01-3600) into the results"},
    {"--data", "KIND", RUN, opt_data, "random (incompressible, default) or zero"},
    {"--backend", "NAME", RUN, opt_backend,
     "the I/O backend: native (default) or null (no disk I/O: measures the engine itself)"},
    {"--null-latency", "US", RUN, opt_null_latency,
     "null backend only: each I/O completes after US microseconds"},
    {"--json", "FILE", RUN, opt_json, "write results as JSON to FILE (- for stdout)"},
    {"--csv", "FILE", RUN, opt_csv, "write results as CSV to FILE (- for stdout)"},
    {"--quiet", NULL, RUN, opt_quiet, "no progress line"},
    {"--help", NULL, ANY, opt_help, "show this help"},
    {"--version", NULL, ANY, opt_version, "show the version"},
};

static const DmkOption *find_option(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
            return &options[i];
    return NULL;
}

void dmk_cli_usage(FILE *f)
{
    fprintf(f, "Usage: drivemark-cli run [OPTION]...\n"
               "       drivemark-cli --help | --version\n\n"
               "Benchmarks the drive under a directory the way CrystalDiskMark does, with its\n"
               "own test file that nothing leaves behind. MB/s = 1,000,000 bytes/s.\n\n"
               "Options of run:\n");
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char left[40];
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].value ? " " : "",
                 options[i].value ? options[i].value : "");
        fprintf(f, "  %-22s %s\n", left, options[i].help);
    }
    fprintf(f, "\nSizes are binary: K, M, G, T or KiB, MiB, GiB, TiB. Seconds may end in s, m "
               "or h.\n"
               "Exit status: 0 done, 1 failed or target refused, 2 usage error,\n"
               "130 interrupted (SIGINT), 143 terminated (SIGTERM).\n");
}

/* ---- parsing ------------------------------------------------------------ */

static int parse_command(const char *word, DmkCliArgs *a, DmkError *err)
{
    if (strcmp(word, "run") == 0)
        a->cmd = DMK_CMD_RUN;
    else if (strcmp(word, "help") == 0)
        a->cmd = DMK_CMD_HELP;
    else if (strcmp(word, "version") == 0)
        a->cmd = DMK_CMD_VERSION;
    else
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "unknown command '%s': expected run, help or version", word);
    return DMK_OK;
}

/* One "--name value" or "--name=value" at argv[*i]; advances *i. */
static int parse_option(int argc, char **argv, int *i, DmkCommand cmd, DmkCliArgs *a, DmkError *err)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const DmkOption *o = find_option(arg, len);
    if (!o)
        return dmk_error_set(err, DMK_E_INVAL, 0, "unknown option '%.*s'", (int)len, arg);
    if (o->commands && !(o->commands & (unsigned)cmd))
        return dmk_error_set(err, DMK_E_INVAL, 0, "option '%s' belongs after a command (e.g. run)",
                             o->name);
    const char *value = NULL;
    if (o->value) {
        if (eq)
            value = eq + 1;
        else if (*i + 1 < argc)
            value = argv[++*i];
        else
            return dmk_error_set(err, DMK_E_INVAL, 0, "option '%s' needs a value (%s)", o->name,
                                 o->value);
    } else if (eq) {
        return dmk_error_set(err, DMK_E_INVAL, 0, "option '%s' takes no value", o->name);
    }
    return o->fn(a, value, err);
}

static int build_spec(DmkCliArgs *a, DmkError *err)
{
    DmkRunSpec *s = a->spec;
    if (!a->warmup_set)
        s->warmup_s = s->measure_s; /* CrystalDiskMark: one discarded pass */
    uint32_t share = a->read_share_set ? a->read_share : DMK_MIX_READ_SHARE_DEFAULT;
    if (a->read_share_set && a->run_mode != DMK_RUN_MIX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "--read-share needs --mode mix");
    if (a->n_tests == 0) {
        const DmkProfile *p = dmk_profile_find(a->profile);
        snprintf(s->profile, sizeof s->profile, "%s", p->id);
        return dmk_profile_add(s, p, a->run_mode, share, err);
    }
    snprintf(s->profile, sizeof s->profile, "custom");
    for (size_t i = 0; i < a->n_tests; i++) {
        DmkJob job;
        int rc = dmk_job_parse_name(a->tests[i], &job, err);
        if (rc == DMK_OK)
            rc = dmk_run_spec_add_all(s, &job, 1, a->run_mode, share, err);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

int dmk_cli_parse(int argc, char **argv, DmkCliArgs *a, DmkError *err)
{
    memset(a, 0, sizeof *a);
    a->profile = "default";
    a->backend = "native";
    a->spec = malloc(sizeof *a->spec);
    if (!a->spec)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    dmk_run_spec_init(a->spec);
    DmkCommand cmd = DMK_CMD_NONE;
    for (int i = 1; i < argc; i++) {
        int rc;
        if (strncmp(argv[i], "--", 2) == 0 && argv[i][2])
            rc = parse_option(argc, argv, &i, cmd, a, err);
        else if (cmd == DMK_CMD_NONE && argv[i][0] != '-') {
            rc = parse_command(argv[i], a, err);
            cmd = a->cmd;
        } else
            rc = dmk_error_set(err, DMK_E_INVAL, 0, "unexpected argument '%s'", argv[i]);
        if (rc != DMK_OK)
            return DMK_E_INVAL;
        if (a->cmd == DMK_CMD_HELP || a->cmd == DMK_CMD_VERSION)
            return DMK_OK;
    }
    if (a->cmd == DMK_CMD_NONE)
        return dmk_error_set(err, DMK_E_INVAL, 0, "no command given (try: drivemark-cli run)");
    if (build_spec(a, err) != DMK_OK)
        return DMK_E_INVAL;
    /* A spec the engine would refuse is the user's to fix: a usage error. */
    if (dmk_run_spec_validate(a->spec, dmk_os_max_inflight(), err) != DMK_OK)
        return DMK_E_INVAL;
    return DMK_OK;
}

void dmk_cli_args_free(DmkCliArgs *a)
{
    free(a->spec);
    a->spec = NULL;
}
