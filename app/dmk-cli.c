/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli's command line: the command, its words and options
 * (dmk-cli-options.c's table), then the checks that build what a
 * measuring command will run. */
#include "dmk-cli.h"

#include <stdlib.h>
#include <string.h>

#include "dmk-cli-device.h"
#include "dmk-cli-private.h"
#include "dmk-i18n.h"
#include "dmk-request.h"

/* ---- parsing ------------------------------------------------------------ */

/* The command words but the lab tests (dmk-lab.h's table), with what
 * follows each in the synopsis and what it does, as --help and the man
 * page (app/dmk-gen-docs.c) say them: the summaries are msgids
 * (DMK_N_), translated where --help prints them; the man page keeps
 * them in English. Each begins with its command's name, typed as is. */
/* TRANSLATORS: "run" is the command's name, typed as is; MB/s stays. */
#define RUN_SUMMARY                                                                              \
    DMK_N_(                                                                                      \
        "run benchmarks the drive under a directory the way CrystalDiskMark does, with its own " \
        "test file that nothing leaves behind. MB/s = 1,000,000 bytes/s.")
/* TRANSLATORS: "sweep" is the command's name, qd and bs its kinds, typed as they are. */
#define SWEEP_SUMMARY                                                                              \
    DMK_N_("sweep measures one workload at a series of queue depths (qd) or block sizes (bs), as " \
           "reviews chart them: all reads, then all writes.")
/* TRANSLATORS: "show" is the command's name, --csv an option, typed as they are. */
#define SHOW_SUMMARY                                                                             \
    DMK_N_(                                                                                      \
        "show prints saved results (--csv files); several side by side, with the difference to " \
        "the first in %.")
/* TRANSLATORS: "chart" is the command's name, typed as is. */
#define CHART_SUMMARY DMK_N_("chart draws saved results as a PNG, SVG or PDF file.")
#define SHOW_USAGE    "[--metric NAME] [--] FILE.csv..."
#define CHART_USAGE   "--out FILE.png|svg|pdf [OPTION]... [--] FILE.csv..."

static const DmkCliCommand commands[] = {
    {"run", DMK_CMD_RUN, true, "[OPTION]...", RUN_SUMMARY},
    {"sweep", DMK_CMD_SWEEP, true, "qd|bs [OPTION]...", SWEEP_SUMMARY},
#ifdef DMK_HAVE_CSV
    {"show", DMK_CMD_SHOW, true, SHOW_USAGE, SHOW_SUMMARY},
#else
    {"show", DMK_CMD_SHOW, false, SHOW_USAGE, SHOW_SUMMARY},
#endif
#ifdef DMK_HAVE_CHART
    {"chart", DMK_CMD_CHART, true, CHART_USAGE, CHART_SUMMARY},
#else
    {"chart", DMK_CMD_CHART, false, CHART_USAGE, CHART_SUMMARY},
#endif
    {"help", DMK_CMD_HELP, true, "", NULL},
    {"version", DMK_CMD_VERSION, true, "", NULL},
};

const DmkCliCommand *_dmk_cli_commands(size_t *n)
{
    *n = sizeof commands / sizeof commands[0];
    return commands;
}

/* sweep's kinds, by DmkSweepKind. */
size_t _dmk_cli_sweep_kinds(const char **words, size_t max)
{
    const DmkSweepKind kinds[] = {DMK_SWEEP_QD, DMK_SWEEP_BS};
    for (size_t i = 0; i < 2 && i < max; i++)
        words[i] = dmk_sweep_name(kinds[i]);
    return 2;
}

static int parse_command(const char *word, DmkCliArgs *a, DmkError *err)
{
    DmkLabKind lab = dmk_lab_from_name(word);
    if (lab != DMK_LAB_NONE) {
        a->cmd = DMK_CMD_LAB;
        dmk_run_request_init(&a->req, DMK_REQUEST_LAB, lab);
        return DMK_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(word, commands[i].name) != 0)
            continue;
        if (!commands[i].built)
            return dmk_error_set(err, DMK_E_INVAL, 0,
                                 "this build has no '%s' command (it was built without libcsv "
                                 "or Cairo)",
                                 word);
        a->cmd = commands[i].cmd;
        if (a->cmd == DMK_CMD_SWEEP)
            dmk_run_request_init(&a->req, DMK_REQUEST_SWEEP, DMK_LAB_NONE);
        return DMK_OK;
    }
    char labs[256];
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "unknown command '%s': expected run, sweep, %s, show, chart, help or "
                         "version",
                         word, dmk_lab_names_text(", ", ", ", labs, sizeof labs));
}

/* A word after the command: sweep's kind, or a result file. */
static int parse_positional(const char *word, DmkCliArgs *a, DmkError *err)
{
    if (a->cmd == DMK_CMD_SWEEP && !a->sweep_kind_set) {
        if (strcmp(word, dmk_sweep_name(DMK_SWEEP_QD)) == 0)
            a->sweep_kind = DMK_SWEEP_QD;
        else if (strcmp(word, dmk_sweep_name(DMK_SWEEP_BS)) == 0)
            a->sweep_kind = DMK_SWEEP_BS;
        else
            return dmk_error_set(err, DMK_E_INVAL, 0,
                                 "unknown sweep '%s': expected qd (queue depths) or bs (block "
                                 "sizes)",
                                 word);
        a->sweep_kind_set = true;
        return DMK_OK;
    }
    if (a->cmd == DMK_CMD_SHOW || a->cmd == DMK_CMD_CHART) {
        if (a->n_files >= DMK_CLI_MAX_FILES)
            return dmk_error_set(err, DMK_E_INVAL, 0, "too many result files (at most %d)",
                                 DMK_CLI_MAX_FILES);
        a->files[a->n_files++] = word;
        return DMK_OK;
    }
    return dmk_error_set(err, DMK_E_INVAL, 0, "unexpected argument '%s'", word);
}

static const char *command_name(const DmkCliArgs *a)
{
    DmkCommand cmd = a->cmd;
    if (cmd == DMK_CMD_LAB)
        return dmk_lab_name(a->req.lab.kind);
    return cmd == DMK_CMD_RUN     ? "run"
           : cmd == DMK_CMD_SWEEP ? "sweep"
           : cmd == DMK_CMD_SHOW  ? "show"
           : cmd == DMK_CMD_CHART ? "chart"
                                  : DMK_("this command");
}

/* "-q": a short option, a flag alone ("-qh" is not one). */
static bool is_short(const char *arg)
{
    return arg[0] == '-' && arg[1] && arg[1] != '-' && !arg[2];
}

/* One "--name value", "--name=value" or "-q" at argv[*i]; advances *i. */
static int parse_option(int argc, char **argv, int *i, DmkCommand cmd, DmkCliArgs *a, DmkError *err)
{
    const char *arg = argv[*i];
    const char *eq = is_short(arg) ? NULL : strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const DmkOption *o =
        is_short(arg) ? _dmk_cli_find_short(arg[1]) : _dmk_cli_find_option(arg, len);
    if (!o)
        return dmk_error_set(err, DMK_E_INVAL, 0, "unknown option '%.*s'", (int)len, arg);
    if (o->commands && cmd == DMK_CMD_NONE)
        return dmk_error_set(err, DMK_E_INVAL, 0, "option '%s' belongs after a command (e.g. run)",
                             o->name);
    if (o->commands && !(o->commands & (unsigned)cmd))
        return dmk_error_set(err, DMK_E_INVAL, 0, "option '%s' is not an option of %s", o->name,
                             command_name(a));
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
    return _dmk_cli_option_apply(a, o, value, err);
}

/* Which options fit which sweep: a QD sweep varies --qd at one --bs, a
 * block-size sweep varies --bs-list at one --qd. */
static int check_sweep_options(const DmkCliArgs *a, DmkError *err)
{
    if (!a->sweep_kind_set)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "sweep needs a kind: qd (queue depths) or bs (block sizes)");
    if (a->sweep_kind == DMK_SWEEP_QD && a->n_bs)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--bs-list belongs to sweep bs; sweep qd takes one --bs SIZE");
    if (a->sweep_kind == DMK_SWEEP_BS && a->bs_set)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--bs belongs to sweep qd; sweep bs takes --bs-list LIST");
    if (a->sweep_kind == DMK_SWEEP_BS && a->n_qd > 1)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "sweep bs runs at one queue depth: --qd N with N from 1 to %d",
                             DMK_SWEEP_QD_MAX);
    return DMK_OK;
}

/* The sweep's points and workload from sweep's own options, into the
 * request (its --mode is the request's). */
static int fill_sweep(DmkCliArgs *a, DmkError *err)
{
    DmkSweep *sw = &a->req.sweep;
    int rc = check_sweep_options(a, err);
    if (rc != DMK_OK)
        return rc;
    dmk_sweep_init(sw, a->sweep_kind, a->pattern_set ? a->pattern : DMK_PATTERN_RND);
    if (a->threads_set)
        sw->threads = a->threads;
    if (a->bs_set)
        sw->block_size = a->bs;
    const uint32_t *list = a->sweep_kind == DMK_SWEEP_QD ? a->qd_list : a->bs_list;
    size_t n = a->sweep_kind == DMK_SWEEP_QD ? a->n_qd : a->n_bs;
    if (n) {
        memcpy(sw->points, list, n * sizeof list[0]);
        sw->n_points = n;
    }
    if (a->sweep_kind == DMK_SWEEP_BS && a->n_qd == 1)
        sw->queue_depth = a->qd_list[0];
    return DMK_OK;
}

/* A lab option that the chosen lab test has no use for is a usage error,
 * not something to ignore. */
static int check_lab_options(const DmkCliArgs *a, DmkError *err)
{
    const DmkLabTest *t = dmk_lab_test(a->req.lab.kind);
    /* The shared options' rows say only that they were given. */
    unsigned given =
        a->lab_given | (a->req.n_tests ? DMK_LAB_P(DMK_LAB_P_JOB) : 0) |
        (a->n_qd ? DMK_LAB_P(DMK_LAB_P_QD) : 0) |
        ((a->req.given & DMK_REQ_BIT(DMK_REQ_SIZE)) ? DMK_LAB_P(DMK_LAB_P_SPAN) : 0) |
        ((a->req.given & DMK_REQ_BIT(DMK_REQ_WARMUP)) ? DMK_LAB_P(DMK_LAB_P_WARMUP) : 0);
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        if ((given & DMK_LAB_P(id)) && !(t->params & DMK_LAB_P(id)))
            return dmk_error_set(err, DMK_E_INVAL, 0, "--%s does not apply to %s%s", lp->name,
                                 t->name, lp->why_not);
    }
    if ((a->lab_given & DMK_LAB_P(DMK_LAB_P_MARGIN)) && (a->req.given & DMK_REQ_BIT(DMK_REQ_SIZE)))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--margin does not apply to %s with --size (--size sizes the file)",
                             t->name);
    if (a->n_qd > 1)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s takes one --qd", t->name);
    return DMK_OK;
}

/* The lab test's settings that are sweep's options too (--qd), into the
 * request; --size, --warmup and --test are the builder's. */
static int fill_lab(DmkCliArgs *a, DmkError *err)
{
    int rc = check_lab_options(a, err);
    if (rc == DMK_OK && a->n_qd)
        a->req.lab.mixed_qd = a->qd_list[0];
    return rc;
}

/* One file (or stdout) for two formats would hold one of them cut into
 * the other. */
static int check_outputs(const DmkCliArgs *a, DmkError *err)
{
    const struct {
        const char *option, *path;
    } out[] = {{"--json", a->json_path}, {"--csv", a->csv_path}, {"--xlsx", a->xlsx_path}};
    size_t n = sizeof out / sizeof out[0];
    for (size_t k = 0; k < n; k++)
        for (size_t j = 0; j < k; j++)
            if (out[j].path && out[k].path && strcmp(out[j].path, out[k].path) == 0)
                return dmk_error_set(err, DMK_E_INVAL, 0,
                                     "%s and %s both name '%s': give each its own file (at most "
                                     "one of them may be - for stdout)",
                                     out[j].option, out[k].option, out[k].path);
    return DMK_OK;
}

/* Builds and checks what a measuring command (run, sweep, a lab test)
 * will run: the request's builder, as the window's. */
static int build_spec(DmkCliArgs *a, DmkError *err)
{
    if (check_outputs(a, err) != DMK_OK)
        return DMK_E_INVAL;
    int rc = dmk_cli_device_usage(a, err);
    if (rc == DMK_OK && a->cmd == DMK_CMD_LAB)
        rc = fill_lab(a, err);
    if (rc == DMK_OK && a->cmd == DMK_CMD_SWEEP)
        rc = fill_sweep(a, err);
    return rc != DMK_OK ? rc : dmk_run_request_build(&a->req, a->spec, err);
}

/* show and chart read files; chart also needs somewhere to draw. */
static int check_readers(const DmkCliArgs *a, DmkError *err)
{
    const char *name = command_name(a);
    if (a->n_files == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s needs at least one result file (FILE.csv)",
                             name);
    if (a->cmd == DMK_CMD_CHART && !a->chart_out)
        return dmk_error_set(err, DMK_E_INVAL, 0, "chart needs --out FILE.png, .svg or .pdf");
    return DMK_OK;
}

static void init_args(DmkCliArgs *a)
{
    memset(a, 0, sizeof *a);
    dmk_run_request_init(&a->req, DMK_REQUEST_RUN, DMK_LAB_NONE);
    a->metric = "mb_s";
    a->width = 800;
    a->height = 500;
    a->scale = 1;
}

int dmk_cli_parse(int argc, char **argv, DmkCliArgs *a, DmkError *err)
{
    init_args(a);
    a->spec = malloc(sizeof *a->spec);
    if (!a->spec)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    dmk_run_spec_init(a->spec);
    DmkCommand cmd = DMK_CMD_NONE;
    bool options_end = false;
    for (int i = 1; i < argc; i++) {
        int rc;
        if (!options_end && cmd != DMK_CMD_NONE && strcmp(argv[i], "--") == 0) {
            /* After "--" every word is a file, even "-r.csv". */
            options_end = true;
            continue;
        }
        if (options_end)
            rc = parse_positional(argv[i], a, err);
        else if ((strncmp(argv[i], "--", 2) == 0 && argv[i][2]) ||
                 (is_short(argv[i]) && _dmk_cli_find_short(argv[i][1])))
            rc = parse_option(argc, argv, &i, cmd, a, err);
        else if (cmd == DMK_CMD_NONE && argv[i][0] != '-') {
            rc = parse_command(argv[i], a, err);
            cmd = a->cmd;
        } else if (argv[i][0] != '-')
            rc = parse_positional(argv[i], a, err);
        else if (cmd == DMK_CMD_SHOW || cmd == DMK_CMD_CHART)
            rc = dmk_error_set(err, DMK_E_INVAL, 0,
                               "unexpected argument '%s' (a file whose name begins with '-' "
                               "goes after --, or as ./%s)",
                               argv[i], argv[i]);
        else
            rc = dmk_error_set(err, DMK_E_INVAL, 0, "unexpected argument '%s'", argv[i]);
        if (rc != DMK_OK)
            return DMK_E_INVAL;
        if (a->cmd == DMK_CMD_HELP || a->cmd == DMK_CMD_VERSION)
            return DMK_OK;
    }
    if (a->cmd == DMK_CMD_NONE)
        return dmk_error_set(err, DMK_E_INVAL, 0, "no command given (try: drivemark-cli run)");
    int rc = a->cmd == DMK_CMD_SHOW || a->cmd == DMK_CMD_CHART ? check_readers(a, err)
                                                               : build_spec(a, err);
    return rc == DMK_OK ? DMK_OK : DMK_E_INVAL;
}

void dmk_cli_args_free(DmkCliArgs *a)
{
    free(a->spec);
    a->spec = NULL;
}
