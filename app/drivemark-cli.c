/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli: the headless runner over the same engine as the GUI. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmk-cli-device.h"
#include "dmk-cli-guard.h"
#include "dmk-cli-report.h"
#include "dmk-cli.h"
#include "dmk-i18n.h"
#include "dmk-json.h"
#include "dmk-lab.h"
#include "dmk-outfile.h"
#include "dmk-report.h"
#include "dmk-runner.h"
#include "dmk-version.h"
#ifdef DMK_HAVE_CSV
#include "dmk-cli-show.h"
#include "dmk-csv.h"
#endif
#ifdef DMK_HAVE_CHART
#include "dmk-cli-chart.h"
#endif
#ifdef DMK_HAVE_XLSX
#include "dmk-xlsx.h"
#endif

/* Exit statuses: core/dmk-request.h's DmkExitStatus, the window's too.
 * DMK_EXIT_BAD_DATA: the run finished but --verify found blocks that did
 * not read back as written: the numbers stand, the drive lost data. */

static DmkRunner *volatile current_runner;
static atomic_int caught_signal;

static void on_interrupt(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&caught_signal, &none, sig);
    if (current_runner)
        dmk_runner_stop(current_runner);
}

/* The run stalled: the guard's parent hears it at once, before the
 * engine's teardown, which may be stuck in the kernel. */
static void on_stalled(const char *msg, void *user_data)
{
    (void)user_data;
    dmk_cli_guard_stalled(msg);
    /* A hook for the integration tests: the teardown after the stall
     * stuck for good, so the parent's own bound (DMK_GUARD_STALL_S) is
     * what ends the command. */
    if (getenv("DMK_TEST_STUCK_AFTER_STALL"))
        for (;;)
            dmk_sleep_ns(1000000000ULL);
}

static void on_progress(const DmkProgress *p, void *user_data)
{
    (void)user_data;
    dmk_report_progress(p);
}

/* An output named by --json/--csv/--xlsx (dmk-outfile.h): checked
 * before the run, so a bad path fails in a second, not after the
 * benchmark; a regular file is written to a temporary file and renamed
 * over the old one only once there is a complete result: a failed,
 * stopped or killed run, or a full disk, keeps the file from before. */
typedef DmkOutFile DmkOutput;

typedef int (*DmkWriteFn)(FILE *, const DmkRunResult *, const char *, DmkError *);

/* The result files a run writes, in this order: the option that names
 * each, its path in the arguments and its writer (NULL where this build
 * has none: dmk-cli-options.c refuses the option then). */
enum { OUT_JSON, OUT_CSV, OUT_XLSX, N_OUTPUTS };
static const struct {
    const char *option;
    size_t path; /* offset of the path in DmkCliArgs */
    DmkWriteFn write;
} outputs_table[N_OUTPUTS] = {
    [OUT_JSON] = {"--json", offsetof(DmkCliArgs, json_path), dmk_json_write},
#ifdef DMK_HAVE_CSV
    [OUT_CSV] = {"--csv", offsetof(DmkCliArgs, csv_path), dmk_csv_write},
#else
    [OUT_CSV] = {"--csv", offsetof(DmkCliArgs, csv_path), NULL},
#endif
#ifdef DMK_HAVE_XLSX
    [OUT_XLSX] = {"--xlsx", offsetof(DmkCliArgs, xlsx_path), dmk_xlsx_write},
#else
    [OUT_XLSX] = {"--xlsx", offsetof(DmkCliArgs, xlsx_path), NULL},
#endif
};

static const char *output_path(const DmkCliArgs *a, int k)
{
    return *(const char *const *)((const char *)a + outputs_table[k].path);
}

static bool quiet_notices; /* --quiet */

static int output_write(DmkOutput *o, const DmkRunResult *res, DmkWriteFn write_fn, DmkError *err)
{
    if (o->kind == DMK_OUT_NONE || !write_fn)
        return DMK_OK;
    /* Said before the write, not after: on a frozen or hung file system
     * the wait is here (fsync, rename), and the user sees what for. */
    if (o->kind != DMK_OUT_STDOUT && !quiet_notices)
        fprintf(stderr, DMK_("drivemark-cli: writing the result file %s\n"), o->path);
    int rc = dmk_outfile_begin(o, err);
    if (rc == DMK_OK)
        rc = write_fn(o->f, res, o->path, err);
    if (rc == DMK_OK)
        return dmk_outfile_commit(o, err);
    dmk_outfile_fail(o, err);
    return rc;
}

/* Each file is tried: a JSON file that failed does not cost the CSV.
 * The last failure is left in err for the caller; earlier ones are said
 * here, each file's own reason. */
static int write_outputs(const DmkRunResult *res, DmkOutput *out, DmkError *err)
{
    int rc = DMK_OK;
    for (int k = 0; k < N_OUTPUTS; k++) {
        DmkError e = {0};
        int rc_k = output_write(&out[k], res, outputs_table[k].write, &e);
        if (rc_k == DMK_OK)
            continue;
        if (rc != DMK_OK)
            fprintf(stderr, "drivemark-cli: %s\n", err->msg);
        rc = rc_k;
        *err = e;
    }
    return rc;
}

/* The outputs checked, and not one file twice under two names (the
 * second would silently replace the first). */
static int outputs_open(DmkOutput *out, const DmkCliArgs *a, bool *usage, DmkError *err)
{
    int rc = DMK_OK;
    *usage = false;
    for (int k = 0; k < N_OUTPUTS && rc == DMK_OK; k++)
        rc = dmk_outfile_check(&out[k], output_path(a, k), err);
    for (int k = 0; k < N_OUTPUTS && rc == DMK_OK; k++)
        for (int j = 0; j < k && rc == DMK_OK; j++)
            if (dmk_outfile_same(&out[j], &out[k])) {
                *usage = true;
                rc = dmk_error_set(err, DMK_E_INVAL, 0,
                                   "%s '%s' and %s '%s' are the same file: give each its own file",
                                   outputs_table[j].option, out[j].path, outputs_table[k].option,
                                   out[k].path);
            }
    /* The temporary files now, before anything is measured: a directory
     * where a result cannot be renamed into place fails in a second, and
     * the file system is known to take a new file before the run. */
    for (int k = 0; k < N_OUTPUTS && rc == DMK_OK; k++)
        if (out[k].kind == DMK_OUT_REPLACE)
            rc = dmk_outfile_begin(&out[k], err);
    return rc;
}

static int exit_code(int rc)
{
    int sig = atomic_load(&caught_signal);
    if (sig)
        return DMK_EXIT_SIGNAL + sig; /* 130 for SIGINT, 143 for SIGTERM */
    return rc == DMK_OK ? DMK_EXIT_OK : DMK_EXIT_FAILED;
}

/* What a run leaves for the user: the table or lab report and the
 * result files, produced as soon as everything is measured (before the
 * test file's removal, which a discard-mounted file system can make slow). */
typedef struct {
    DmkOutput out[N_OUTPUTS];
    const DmkCliArgs *args;
    FILE *table;
    bool progress_shown;
    bool done;
    int rc;
    DmkError err;
} DmkRunOutputs;

static void discard_outputs(DmkRunOutputs *o)
{
    /* Nothing was measured: the temporary file made before the run is
     * removed, an old result under that name is kept; a device is only
     * closed. */
    for (int k = 0; k < N_OUTPUTS; k++)
        dmk_outfile_abort(&o->out[k]);
}

static void on_measured(const DmkRunResult *res, int rc, void *user_data)
{
    (void)rc;
    DmkRunOutputs *o = user_data;
    if (o->done)
        return;
    o->done = true;
    if (o->progress_shown)
        dmk_report_progress_end();
    if (!res || res->n_tests == 0) {
        discard_outputs(o);
        return;
    }
    if (res->lab[0])
        dmk_report_lab_as_saved(o->table, res);
    else
        dmk_report_table(o->table, res);
    o->rc = write_outputs(res, o->out, &o->err);
}

/* --verify found bad blocks: said on stderr too, where a script sees it. */
static bool verify_failed(const DmkRunResult *res)
{
    DmkVerifyResult sum;
    if (!res)
        return false;
    dmk_run_result_verify(res, &sum);
    if (!sum.bad)
        return false;
    char v[512];
    fprintf(stderr, "drivemark-cli: %s\n", dmk_verify_describe(&sum, v, sizeof v));
    return true;
}

/* A hook for the integration tests (DMK_TEST_VERIFY_HOLD=FIFO): before a
 * test's written blocks are read back, say so on the FIFO and wait for
 * the test's answer, so the test can change the written data at that
 * very moment instead of racing the engine for it. */
static void on_hold_verify(const DmkTestResult *t, size_t index, void *user_data)
{
    (void)t;
    (void)user_data;
    const char *fifo = getenv("DMK_TEST_VERIFY_HOLD");
    char line[64];
    FILE *f = fifo ? fopen(fifo, "w") : NULL;
    if (!f)
        return;
    fprintf(f, "verify %zu\n", index);
    fclose(f);
    f = fopen(fifo, "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
}

static int cmd_run(DmkCliArgs *a)
{
    DmkError err = {0};
    DmkRunOutputs out = {.args = a};
    const DmkBackend *be = dmk_run_request_backend(&a->req);
    if (dmk_cli_device_consent(a, &err) != DMK_OK) {
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
        return DMK_EXIT_FAILED; /* a refusal, not a usage error: nothing was touched */
    }
    bool usage = false;
    quiet_notices = a->quiet;
    int rc = outputs_open(out.out, a, &usage, &err);
    if (rc != DMK_OK) {
        discard_outputs(&out);
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
        return usage ? DMK_EXIT_USAGE : DMK_EXIT_FAILED;
    }
    /* The table goes to stderr when stdout carries a result file. */
    out.table = stdout;
    for (int k = 0; k < N_OUTPUTS; k++)
        if (out.out[k].kind == DMK_OUT_STDOUT)
            out.table = stderr;
    if (a->remove_leftover) {
        char removed[1400];
        if (dmk_lab_files_remove_leftover(a->spec->dir, removed, sizeof removed, &err) != DMK_OK) {
            discard_outputs(&out);
            fprintf(stderr, "drivemark-cli: %s\n", err.msg);
            return DMK_EXIT_FAILED;
        }
        if (!quiet_notices && removed[0])
            fprintf(stderr, DMK_("drivemark-cli: removed %s, which an earlier run left\n"),
                    removed);
        else if (!quiet_notices)
            fputs(DMK_("drivemark-cli: no earlier run left a directory to remove\n"), stderr);
    }
    if (a->req.null_clock_simulated)
        dmk_clock_simulate(); /* before the runner starts any thread */
    DmkRunner *runner = dmk_runner_new(a->spec, be);
    current_runner = runner;
    dmk_os_on_interrupt(on_interrupt);
    if (atomic_load(&caught_signal))
        dmk_runner_stop(runner);
    DmkProgressStyle style = a->quiet ? DMK_PROGRESS_NONE : dmk_report_progress_style();
    bool progress = style != DMK_PROGRESS_NONE;
    dmk_report_progress_start(style);
    out.progress_shown = progress;
    DmkRunCallbacks cb = {progress ? on_progress : NULL,
                          NULL,
                          &out,
                          on_measured,
                          getenv("DMK_TEST_VERIFY_HOLD") ? on_hold_verify : NULL,
                          on_stalled};
    DmkRunResult *res = NULL;
    rc = dmk_runner_run(runner, &cb, &res, &err);
    if (progress)
        dmk_report_progress_end();
    current_runner = NULL;
    /* A worker stuck in the kernel was left behind: the process must end
     * now (main returns), and never report that run as a success. */
    bool abandoned = dmk_runner_abandoned(runner);
    if (abandoned && rc == DMK_OK)
        rc = dmk_error_set(&err, DMK_E_TIMEOUT, 0, "a worker did not return");
    if (abandoned)
        dmk_cli_guard_left_behind();
    dmk_runner_free(runner);
    if (!out.done) /* the run failed before the runner measured anything */
        on_measured(res, rc, &out);
    bool bad_data = verify_failed(res);
    /* A run that failed (a FUSE server that died) may have left its test
     * file under the hidden name the note gives. */
    char left[sizeof res->target.leftover_note] = "";
    if (rc != DMK_OK && res)
        snprintf(left, sizeof left, "%s", res->target.leftover_note);
    dmk_run_result_free(res);
    if (rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
    if (left[0])
        fprintf(stderr, "drivemark-cli: %s\n", left);
    if (out.rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", out.err.msg);
    int status = exit_code(rc != DMK_OK ? rc : out.rc);
    return status == DMK_EXIT_OK && bad_data ? DMK_EXIT_BAD_DATA : status;
}

int main(int argc, char **argv)
{
    DmkCliArgs args;
    DmkError err = {0};
#ifdef SIGPIPE
    /* A --json or --csv pipe whose reader went away must not end the
     * process silently (exit 141) and cost the other file: the write
     * fails with EPIPE instead, said as an error naming that output. */
    signal(SIGPIPE, SIG_IGN);
#endif
    dmk_i18n_init_messages();
    argv = dmk_os_utf8_argv(argc, argv);
    if (dmk_cli_parse(argc, argv, &args, &err) != DMK_OK) {
        /* TRANSLATORS: %s is the error; drivemark-cli --help is the command to type, untranslated.
         */
        fprintf(stderr, DMK_("drivemark-cli: %s\nTry 'drivemark-cli --help'.\n"), err.msg);
        dmk_cli_args_free(&args);
        return DMK_EXIT_USAGE;
    }
    int status = 0;
    if (args.cmd == DMK_CMD_HELP)
        dmk_cli_usage(stdout);
    else if (args.cmd == DMK_CMD_VERSION)
        printf("drivemark-cli %s\n", DMK_VERSION);
#ifdef DMK_HAVE_CSV
    else if (args.cmd == DMK_CMD_SHOW)
        status = dmk_cli_show(&args, stdout);
#endif
#ifdef DMK_HAVE_CHART
    else if (args.cmd == DMK_CMD_CHART)
        status = dmk_cli_chart(&args);
#endif
    else {
        /* run, sweep and the lab tests: a spec to measure, in the child */
        dmk_cli_guard_device(args.spec && args.spec->device);
        if (!dmk_cli_guard_start(&status)) {
            status = cmd_run(&args);
            dmk_cli_guard_finish(status);
        }
    }
    dmk_cli_args_free(&args);
    return status;
}
