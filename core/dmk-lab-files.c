/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real-world lab test "files" (dmk-lab.h's table, docs/lab.md): the
 * reviews' three file sets copied within the drive, and the Work set
 * archived into a Deflate .zip and extracted, each step timed until its
 * data is on the drive. Not block I/O on a test file: the runner hands
 * the run to dmk_lab_files_run, which keeps the runner's stop flag,
 * progress and result, so the CLI's signals and the window's Stop end
 * it as any run and everything it made is removed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-fileset.h"
#include "dmk-lab-findings.h"
#include "dmk-lab-private.h"
#include "dmk-runner.h"
#include "dmk-size.h"

/* Room for every set, its copy, the archive (Deflate never grows a
 * file by much: at most the set again) and the extracted set, and the
 * file system's own metadata for thousands of small files. */
#define FILES_NEED(size) ((size)*8 + (64ULL << 20))

const char dmk_lab_files_prefix[] = "drivemark-files.";

static const char *const step_labels[DMK_LAB_FILE_STEPS] = {"ISO copy", "Program copy", "Work copy",
                                                            "Work archive", "Work extract"};

const char *dmk_lab_files_step_label(size_t i)
{
    return i < DMK_LAB_FILE_STEPS ? step_labels[i] : "";
}

void dmk_lab_build_files(const DmkLabParams *p, DmkRunSpec *spec)
{
    /* The copies move the data in 1 MiB reads and writes, one at a time:
     * what the test's name says, so the files' columns hold. */
    const DmkJob job = {DMK_PATTERN_SEQ, DMK_FILESET_CHUNK, 1, 1, 50};
    size_t steps = dmk_archive_available() ? DMK_LAB_FILE_STEPS : 3;
    for (size_t i = 0; i < steps; i++) {
        DmkError ignored;
        dmk_run_spec_add(spec, &job, DMK_MODE_MIX, job.read_share, &ignored);
        DmkTest *t = &spec->tests[spec->n_tests - 1];
        snprintf(t->label, sizeof t->label, "%s", step_labels[i]);
        t->limit_bytes = p->span; /* the set's bytes: the step ends by them */
    }
    spec->no_fill = true;
}

void dmk_lab_describe_files(const DmkLabParams *p, char *buf, size_t len)
{
    char sz[32], need[32];
    dmk_format_size(p->span, sz, sizeof sz);
    dmk_format_size(FILES_NEED(p->span), need, sizeof need);
    snprintf(buf, len,
             "Writes the ISO, Program and Work sets of %s each and copies each within the drive%s, "
             "timed until the copies are on the drive. Needs %s free; everything is removed at "
             "the end.",
             sz,
             dmk_archive_available() ? ", then archives the Work set into a Deflate .zip and "
                                       "extracts it"
                                     : " (this build has no libarchive: no archive and extract)",
             need);
}

/* ---- the run ------------------------------------------------------------------------ */

typedef struct {
    DmkRunner *r;
    const DmkRunSpec *spec;
    size_t test;
    DmkStage stage;
    uint64_t total, t0, last_ns, last_bytes;
    double mb_s;
    /* A hook for the tests (DMK_TEST_FILES_FAIL=N): step N fails with an
     * I/O error after its first chunk, as a drive that fails mid-copy;
     * -1 when not set. */
    long fail_step;
    bool failed;
    DmkError fail_err;
    /* The whole run's bytes (writing the sets, the copies, the archive
     * and the extract) and those done before the step under way: the
     * seconds left at the speed so far. */
    uint64_t run_total, run_done, run_t0;
} Tick;

static double left_s(const Tick *k, uint64_t done, uint64_t now)
{
    double all = (double)(k->run_done + done), secs = (double)(now - k->run_t0) / 1e9;
    if (all <= 0 || secs <= 0 || k->run_total <= k->run_done + done)
        return 0.0;
    return (double)(k->run_total - k->run_done - done) * secs / all;
}

static bool tick_failed(const Tick *k, DmkError *err)
{
    if (k->stage != DMK_STAGE_MEASURE || (long)k->test != k->fail_step)
        return false;
    dmk_error_set(err, DMK_E_IO, 5, "a test's injected failure in step %zu (DMK_TEST_FILES_FAIL)",
                  k->test);
    return true;
}

static bool on_tick(uint64_t done, void *ctx)
{
    Tick *k = ctx;
    if (tick_failed(k, &k->fail_err)) {
        k->failed = true;
        return true;
    }
    uint64_t now = dmk_clock_ns();
    if (now - k->last_ns >= 100000000ULL) {
        /* bytes per ns, in MB/s */
        k->mb_s = (double)(done - k->last_bytes) * 1e3 / (double)(now - k->last_ns);
        k->last_ns = now;
        k->last_bytes = done;
        double f = k->total ? (double)done / (double)k->total : 0.0;
        dmk_runner_lab_progress(k->r, k->stage, k->test, f > 1 ? 1 : f, done, k->mb_s,
                                left_s(k, done, now));
    }
    return dmk_runner_stopping(k->r);
}

static void tick_start(Tick *k, DmkStage stage, size_t test, uint64_t total)
{
    k->run_done += k->total; /* the step before, done */
    k->stage = stage;
    k->test = test;
    k->total = total;
    k->t0 = k->last_ns = dmk_clock_ns();
    k->last_bytes = 0;
    k->mb_s = 0;
    dmk_runner_lab_progress(k->r, stage, test, 0.0, 0, 0.0, left_s(k, 0, k->t0));
}

/* One step's result: a single pass, read and write as they were, the
 * set's bytes over the wall time its score; the thread's CPU time is kept
 * with it as the file's finding (dmk_lab_findings reads it back). */
static int record(DmkRunResult *res, const DmkRunSpec *spec, size_t i, const DmkFileSet *s,
                  uint64_t read_b, uint64_t write_b, double wall_s, double cpu_s, DmkError *err)
{
    DmkTestResult *t = &res->tests[i];
    t->passes = calloc(1, sizeof *t->passes);
    t->findings = calloc(1, sizeof *t->findings);
    if (!t->passes || !t->findings) {
        free(t->passes);
        free(t->findings);
        t->passes = NULL;
        t->findings = NULL;
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the results");
    }
    t->test = spec->tests[i];
    DmkPassResult *p = &t->passes[0];
    double w = wall_s > 0 ? wall_s : 1e-9;
    p->read = (DmkStats){
        .ios = s->n_files, .bytes = read_b, .seconds = wall_s, .mb_s = (double)read_b / 1e6 / w};
    p->write = (DmkStats){
        .ios = s->n_files, .bytes = write_b, .seconds = wall_s, .mb_s = (double)write_b / 1e6 / w};
    p->total = (DmkStats){.ios = s->n_files,
                          .bytes = s->bytes,
                          .seconds = wall_s,
                          .mb_s = (double)s->bytes / 1e6 / w,
                          .iops = (double)s->n_files / w};
    for (double *lat = &p->total.lat_mean_us; lat <= &p->total.lat_p9999_us; lat++)
        *lat = NAN;
    p->read.lat_mean_us = p->write.lat_mean_us = NAN;
    t->n_passes = 1;
    t->score = *p;
    t->mb_s_median = t->mb_s_min = t->mb_s_max = p->total.mb_s;
    t->findings[0] = (DmkSavedFinding){DMK_LAB_SET_FILES, DMK_LAB_FILES_CPU, cpu_s};
    t->n_findings = 1;
    res->n_tests = i + 1;
    return DMK_OK;
}

typedef struct {
    char dir[1100]; /* the test's own directory */
    char src[1200]; /* a set */
    char dst[1200]; /* its copy, the archive or the extracted set */
    char zip[1200];
} Paths;

static int set_path(char *buf, size_t len, const char *dir, const char *set, const char *suffix,
                    DmkError *err)
{
    int n = snprintf(buf, len, "%s/%s%s", dir, set, suffix);
    if (n < 0 || (size_t)n >= len)
        return dmk_error_set(err, DMK_E_INVAL, 0, "the path %s is too long", dir);
    return DMK_OK;
}

/* Generate a set, empty the cache of it, and copy it. */
static int copy_step(DmkRunner *r, const DmkRunSpec *spec, DmkRunResult *res, size_t i,
                     const Paths *pp, DmkFileSet *set, Tick *k, DmkError *err)
{
    char src[1200], dst[1200];
    const char *name = dmk_set_name((DmkSetKind)i);
    int rc = dmk_fileset_plan(set, (DmkSetKind)i, spec->size, DMK_FILESET_SEED, err);
    if (rc == DMK_OK)
        rc = set_path(src, sizeof src, pp->dir, name, "", err);
    if (rc == DMK_OK)
        rc = set_path(dst, sizeof dst, pp->dir, name, "-copy", err);
    if (rc != DMK_OK)
        return rc;
    tick_start(k, DMK_STAGE_PREPARE, i, set->bytes);
    rc = dmk_fileset_write(set, src, on_tick, k, err);
    if (rc == DMK_OK)
        rc = dmk_fileset_drop_cache(set, src, err);
    if (rc != DMK_OK)
        return rc;
    tick_start(k, DMK_STAGE_MEASURE, i, set->bytes);
    double cpu0 = dmk_thread_cpu_s();
    rc = dmk_fileset_copy(set, src, dst, on_tick, k, err);
    if (rc == DMK_OK)
        rc = dmk_tree_sync_dir(pp->dir, err);
    double wall = (double)(dmk_clock_ns() - k->t0) / 1e9, cpu = dmk_thread_cpu_s() - cpu0;
    (void)r;
    return rc == DMK_OK ? record(res, spec, i, set, set->bytes, set->bytes, wall, cpu, err) : rc;
}

static int drop_file(const char *path, DmkError *err)
{
    int fd = -1;
    int rc = dmk_tree_open(path, false, &fd, err);
    if (rc == DMK_OK) {
        rc = dmk_tree_sync(fd, path, err);
        if (rc == DMK_OK)
            dmk_tree_drop_cache(fd, path);
        dmk_tree_close(fd);
    }
    return rc;
}

static int archive_steps(const DmkRunSpec *spec, DmkRunResult *res, const Paths *pp,
                         const DmkFileSet *work, Tick *k, DmkError *err)
{
    char src[1200], dst[1200], zip[1200];
    const char *name = dmk_set_name(DMK_SET_WORK);
    int rc = set_path(src, sizeof src, pp->dir, name, "", err);
    if (rc == DMK_OK)
        rc = set_path(zip, sizeof zip, pp->dir, name, ".zip", err);
    if (rc == DMK_OK)
        rc = set_path(dst, sizeof dst, pp->dir, name, "-extracted", err);
    if (rc == DMK_OK)
        rc = dmk_fileset_drop_cache(work, src, err);
    if (rc != DMK_OK)
        return rc;
    uint64_t zip_bytes = 0;
    tick_start(k, DMK_STAGE_MEASURE, 3, work->bytes);
    double cpu0 = dmk_thread_cpu_s();
    rc = dmk_archive_write(work, src, zip, on_tick, k, &zip_bytes, err);
    if (rc == DMK_OK)
        rc = dmk_tree_sync_dir(pp->dir, err);
    double wall = (double)(dmk_clock_ns() - k->t0) / 1e9, cpu = dmk_thread_cpu_s() - cpu0;
    if (rc == DMK_OK)
        rc = record(res, spec, 3, work, work->bytes, zip_bytes, wall, cpu, err);
    if (rc == DMK_OK)
        rc = drop_file(zip, err);
    if (rc != DMK_OK)
        return rc;
    tick_start(k, DMK_STAGE_MEASURE, 4, work->bytes);
    cpu0 = dmk_thread_cpu_s();
    rc = dmk_archive_extract(work, zip, dst, on_tick, k, err);
    if (rc == DMK_OK)
        rc = dmk_tree_sync_dir(pp->dir, err);
    wall = (double)(dmk_clock_ns() - k->t0) / 1e9;
    cpu = dmk_thread_cpu_s() - cpu0;
    return rc == DMK_OK ? record(res, spec, 4, work, zip_bytes, work->bytes, wall, cpu, err) : rc;
}

/* A directory of an earlier run that was killed (SIGKILL, a power cut):
 * named, with how to remove it, before anything is written. */
static int check_leftover(const DmkRunSpec *spec, DmkError *err)
{
    char name[256];
    dmk_tree_find(spec->dir, dmk_lab_files_prefix, name, sizeof name);
    if (!name[0])
        return DMK_OK;
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "%s/%s was left by an earlier file-set run that was ended before it "
                         "could remove it (killed, or the machine went down): it holds only that "
                         "run's files. Remove it and run again (drivemark-cli: add "
                         "--remove-leftover; or delete the folder)",
                         spec->dir, name);
}

static int check_space(const DmkRunSpec *spec, DmkRunResult *res, DmkError *err)
{
    uint64_t free_b = 0;
    int rc = dmk_tree_free(spec->dir, &free_b, err);
    if (rc != DMK_OK)
        return rc;
    res->target.fs_free_bytes = free_b;
    uint64_t need = FILES_NEED(spec->size);
    if (need <= free_b)
        return DMK_OK;
    char a[32], b[32], c[32];
    return dmk_error_set(err, DMK_E_NOSPC, 0,
                         "the file sets of %s need %s free in %s (the sets, their copies, the "
                         "archive and the extracted set), but %s is free: choose a smaller size",
                         dmk_format_size(spec->size, a, sizeof a),
                         dmk_format_size(need, b, sizeof b), spec->dir,
                         dmk_format_size(free_b, c, sizeof c));
}

int dmk_lab_files_remove_leftover(const char *dir, char *removed, size_t len, DmkError *err)
{
    char name[256], path[1400];
    removed[0] = '\0';
    dmk_tree_find(dir, dmk_lab_files_prefix, name, sizeof name);
    if (!name[0])
        return DMK_OK;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = dmk_tree_remove(path, err);
    if (rc == DMK_OK)
        snprintf(removed, len, "%s", path);
    return rc;
}

int dmk_lab_files_run(DmkRunner *r, const DmkRunSpec *spec, DmkRunResult *res, DmkError *err)
{
    if (spec->device)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "the file-set test copies files: it needs a directory, not the "
                             "device %s",
                             spec->dir);
    int rc = check_leftover(spec, err);
    if (rc == DMK_OK)
        rc = check_space(spec, res, err);
    if (rc != DMK_OK)
        return rc;
    Paths pp;
    int n = snprintf(pp.dir, sizeof pp.dir, "%s/%s%016llx", spec->dir, dmk_lab_files_prefix,
                     (unsigned long long)dmk_entropy64());
    if (n < 0 || (size_t)n >= sizeof pp.dir)
        return dmk_error_set(err, DMK_E_INVAL, 0, "the path %s is too long", spec->dir);
    rc = dmk_tree_mkdir(pp.dir, err);
    if (rc != DMK_OK)
        return rc;
    snprintf(res->lab_note, sizeof res->lab_note, "Working directory: %.450s (removed at the end).",
             pp.dir);
    const char *fail = getenv("DMK_TEST_FILES_FAIL");
    Tick k = {.r = r,
              .spec = spec,
              .fail_step = fail ? strtol(fail, NULL, 10) : -1,
              .run_total = spec->size * (2 * DMK_N_SETS + (spec->n_tests > DMK_N_SETS ? 2 : 0)),
              .run_t0 = dmk_clock_ns()};
    DmkFileSet sets[DMK_N_SETS] = {0};
    for (size_t i = 0; rc == DMK_OK && i < DMK_N_SETS; i++)
        rc = copy_step(r, spec, res, i, &pp, &sets[i], &k, err);
    if (rc == DMK_OK && spec->n_tests > DMK_N_SETS)
        rc = archive_steps(spec, res, &pp, &sets[DMK_SET_WORK], &k, err);
    for (size_t i = 0; i < DMK_N_SETS; i++)
        dmk_fileset_free(&sets[i]);
    /* Whatever happened, the test's files go: after an error, a stop or
     * a signal (the CLI stops the runner on SIGINT and SIGTERM). */
    dmk_runner_lab_progress(r, DMK_STAGE_CLEANUP, spec->n_tests ? spec->n_tests - 1 : 0, 1.0, 0, 0,
                            0);
    DmkError rm = {0};
    if (dmk_tree_remove(pp.dir, &rm) != DMK_OK) {
        snprintf(res->target.leftover_note, sizeof res->target.leftover_note,
                 "the file-set test could not remove its directory %.400s: %.700s", pp.dir, rm.msg);
        if (rc == DMK_OK)
            rc = dmk_error_set(err, rm.code, rm.os_error, "%s", rm.msg);
    }
    if (rc == DMK_E_STOPPED && k.failed) {
        *err = k.fail_err;
        rc = err->code;
    }
    return rc;
}

/* ---- what it found ------------------------------------------------------------------ */

void dmk_lab_findings_files(const DmkRunResult *r, DmkLabFindings *out)
{
    for (size_t i = 0; i < r->n_tests && out->n < DMK_LAB_MAX_FINDINGS; i++) {
        const DmkTestResult *t = &r->tests[i];
        if (!t->n_passes)
            continue;
        DmkLabFinding *f = &out->f[out->n++];
        memset(f, 0, sizeof *f);
        f->set = DMK_LAB_SET_FILES;
        f->test = i;
        f->metric = "mb_s";
        DmkLabFiles *x = &f->u.files;
        const DmkStats *st = &t->score.total;
        x->files = (size_t)st->ios;
        x->bytes = (double)st->bytes;
        x->wall_s = st->seconds;
        x->mb_s = st->mb_s;
        x->cpu_s = NAN; /* the run's figure, kept with the test (record) */
        const DmkStats *rd = &t->score.read, *wr = &t->score.write;
        x->archived = strstr(t->test.label, "archive") != NULL;
        x->archive_pct = strstr(t->test.label, "archive") && rd->bytes
                             ? 100.0 * (double)wr->bytes / (double)rd->bytes
                             : NAN;
    }
}

void dmk_lab_report_files(DmkLabOut *o, const DmkRunResult *r)
{
    dmk_lab_report_files_table(o, r);
}
