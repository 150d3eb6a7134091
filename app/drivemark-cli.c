/* drivemark-cli: the headless runner over the same engine as the GUI. */
#include <errno.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmk-cli-device.h"
#include "dmk-cli-report.h"
#include "dmk-cli.h"
#include "dmk-json.h"
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

#define EXIT_USAGE 2
/* The run finished but --verify found blocks that did not read back as
 * written: the numbers stand, the drive (or its path) lost data. */
#define EXIT_BAD_DATA 3

static DmkRunner *volatile current_runner;
static atomic_int caught_signal;

static void on_interrupt(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&caught_signal, &none, sig);
    if (current_runner)
        dmk_runner_stop(current_runner);
}

static void on_progress(const DmkProgress *p, void *user_data)
{
    (void)user_data;
    dmk_report_progress(p);
}

/* An output named by --json/--csv: "-" is stdout. Checked before the
 * run so a bad path fails in a second, not after the benchmark, but a
 * file is only created (or an old one replaced) once there is a result
 * to write: a failed, stopped or killed run leaves no empty file and
 * keeps the one from before. A device or FIFO (/dev/full, a pipe) is
 * opened at once and never removed. */
typedef struct {
    const char *path;
    FILE *f;
    bool deferred; /* a regular file, opened when the result is written */
} DmkOutput;

/* The directory part of path ("." for a bare name), in buf. */
static void parent_dir(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
#ifdef _WIN32
    const char *back = strrchr(path, '\\');
    if (back && (!slash || back > slash))
        slash = back;
#endif
    if (!slash)
        snprintf(buf, len, ".");
    else if (slash == path)
        snprintf(buf, len, "/");
    else
        snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* Would fopen(path, "wb") work later? Without creating or truncating. */
static int check_writable(const char *path, DmkError *err)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return dmk_error_errno(err, EISDIR, "opening %s for writing failed", path);
        FILE *f = fopen(path, "ab"); /* exists: neither created nor truncated */
        if (!f)
            return dmk_error_errno(err, errno, "opening %s for writing failed", path);
        fclose(f);
        return DMK_OK;
    }
    if (errno != ENOENT)
        return dmk_error_errno(err, errno, "opening %s for writing failed", path);
    char dir[4096];
    parent_dir(path, dir, sizeof dir);
    if (stat(dir, &st) != 0)
        return dmk_error_errno(err, errno, "opening %s for writing failed", path);
    if (!S_ISDIR(st.st_mode))
        return dmk_error_errno(err, ENOTDIR, "opening %s for writing failed", path);
    if (access(dir, W_OK) != 0)
        return dmk_error_errno(err, errno, "opening %s for writing failed", path);
    return DMK_OK;
}

static int output_open(DmkOutput *o, const char *path, DmkError *err)
{
    o->path = path;
    o->f = NULL;
    o->deferred = false;
    if (!path)
        return DMK_OK;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return DMK_OK;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        o->f = fopen(path, "wb");
        if (!o->f)
            return dmk_error_errno(err, errno, "opening %s for writing failed", path);
        return DMK_OK;
    }
    int rc = check_writable(path, err);
    o->deferred = rc == DMK_OK;
    return rc;
}

static int output_close(DmkOutput *o, DmkError *err)
{
    int rc = DMK_OK;
    if (o->f && o->f != stdout && fclose(o->f) != 0)
        rc = dmk_error_errno(err, errno, "closing %s failed", o->path);
    o->f = NULL;
    return rc;
}

/* Writes res to o; a regular file that could not be written whole is
 * removed, so no truncated file passes for a result. */
static int output_write(DmkOutput *o, const DmkRunResult *res,
                        int (*write_fn)(FILE *, const DmkRunResult *, const char *, DmkError *),
                        DmkError *err)
{
    if (!o->path)
        return DMK_OK;
    if (o->deferred) {
        o->f = fopen(o->path, "wb");
        if (!o->f)
            return dmk_error_errno(err, errno, "opening %s for writing failed", o->path);
    }
    int rc = write_fn(o->f, res, o->path, err);
    int rc2 = output_close(o, rc == DMK_OK ? err : &(DmkError){0});
    if (rc == DMK_OK)
        rc = rc2;
    if (rc != DMK_OK && o->deferred && remove(o->path) == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (the incomplete file was removed)");
    }
    o->deferred = false;
    return rc;
}

static int write_outputs(const DmkRunResult *res, DmkOutput *json, DmkOutput *csv, DmkError *err)
{
    /* Both are tried: a JSON file that failed does not cost the CSV. */
    int rc = output_write(json, res, dmk_json_write, err);
#ifdef DMK_HAVE_CSV
    DmkError csv_err = {0};
    int rc_csv = output_write(csv, res, dmk_csv_write, &csv_err);
    if (rc == DMK_OK && rc_csv != DMK_OK) {
        rc = rc_csv;
        *err = csv_err;
    }
#endif
    DmkError ignored;
    output_close(json, &ignored);
    output_close(csv, &ignored);
    return rc;
}

static int exit_code(int rc)
{
    int sig = atomic_load(&caught_signal);
    if (sig)
        return 128 + sig; /* 130 for SIGINT, 143 for SIGTERM */
    return rc == DMK_OK ? 0 : 1;
}

/* What a run leaves for the user: the table or lab report and the
 * result files, produced as soon as everything is measured (before the
 * test file's removal, which a discard-mounted file system can make slow). */
typedef struct {
    DmkOutput json, csv;
    const DmkCliArgs *args;
    FILE *table;
    bool progress_shown;
    bool done;
    int rc;
    DmkError err;
} DmkRunOutputs;

static void discard_outputs(DmkRunOutputs *o)
{
    DmkError ignored;
    /* Nothing was measured: a deferred file was never created, so an old
     * result under that name is kept; a device is only closed. */
    output_close(&o->json, &ignored);
    output_close(&o->csv, &ignored);
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
        dmk_report_lab(o->table, res);
    else
        dmk_report_table(o->table, res);
    o->rc = write_outputs(res, &o->json, &o->csv, &o->err);
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

static int cmd_run(DmkCliArgs *a)
{
    DmkError err = {0};
    DmkRunOutputs out = {.args = a};
    const DmkBackend *be = dmk_backend_by_name(a->backend);
    if (dmk_cli_device_consent(a, &err) != DMK_OK) {
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
        return 1; /* a refusal, not a usage error: nothing was touched */
    }
    int rc = output_open(&out.json, a->json_path, &err);
    if (rc == DMK_OK)
        rc = output_open(&out.csv, a->csv_path, &err);
    if (rc != DMK_OK) {
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
        return 1;
    }
    /* The table goes to stderr when stdout carries JSON or CSV. */
    out.table = out.json.f == stdout || out.csv.f == stdout ? stderr : stdout;
    if (a->null_clock_simulated)
        dmk_clock_simulate(); /* before the runner starts any thread */
    DmkRunner *runner = dmk_runner_new(a->spec, be);
    current_runner = runner;
    dmk_os_on_interrupt(on_interrupt);
    if (atomic_load(&caught_signal))
        dmk_runner_stop(runner);
    bool progress = !a->quiet && dmk_os_stderr_is_tty();
    out.progress_shown = progress;
    DmkRunCallbacks cb = {progress ? on_progress : NULL, NULL, &out, on_measured};
    DmkRunResult *res = NULL;
    rc = dmk_runner_run(runner, &cb, &res, &err);
    if (progress)
        dmk_report_progress_end();
    current_runner = NULL;
    dmk_runner_free(runner);
    if (!out.done) /* the run failed before the runner measured anything */
        on_measured(res, rc, &out);
    bool bad_data = verify_failed(res);
    dmk_run_result_free(res);
    if (rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
    if (out.rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", out.err.msg);
    int status = exit_code(rc != DMK_OK ? rc : out.rc);
    return status == 0 && bad_data ? EXIT_BAD_DATA : status;
}

int main(int argc, char **argv)
{
    DmkCliArgs args;
    DmkError err = {0};
    if (dmk_cli_parse(argc, argv, &args, &err) != DMK_OK) {
        fprintf(stderr, "drivemark-cli: %s\nTry 'drivemark-cli --help'.\n", err.msg);
        dmk_cli_args_free(&args);
        return EXIT_USAGE;
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
    else
        status = cmd_run(&args); /* run, sweep and the lab tests: a spec to measure */
    dmk_cli_args_free(&args);
    return status;
}
