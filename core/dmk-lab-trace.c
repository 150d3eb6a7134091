/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lab test "trace" (dmk-lab.h's table, docs/lab.md "Trace replay"):
 * a block trace (an fio iolog, dmk-trace.h) replayed against the test
 * file, its offsets mapped into the file, its idle gaps longer than the
 * threshold cut to it (PCMark 8's method), writes with the run's data,
 * scored as the reviews score a trace: bytes over the busy time, the
 * service times and their percentiles, reads and writes apart and
 * together. Its own run (DmkLabTest.run): the trace is read before
 * anything is written, so a bad file costs nothing; the test file is
 * filled first (reads of never-written blocks would not reach the
 * drive), and closing the target removes it after success, an error, a
 * stop or a signal (the CLI stops the runner on SIGINT and SIGTERM). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-lab-findings.h"
#include "dmk-lab-private.h"
#include "dmk-pool.h"
#include "dmk-runner.h"
#include "dmk-size.h"
#include "dmk-trace.h"

/* The fill's requests: large sequential writes, a few in flight. */
#define FILL_CHUNK (1u << 20)
#define FILL_QD    4u

void dmk_lab_build_trace(const DmkLabParams *p, DmkRunSpec *spec)
{
    /* One step, the replay; its job says the replay queue's depth. It
     * ends with the trace, not by time: its length is the trace's. */
    const DmkJob job = {DMK_PATTERN_RND, 4096, DMK_TRACE_QD_MAX, 1, 50};
    DmkError ignored;
    dmk_run_spec_add(spec, &job, DMK_MODE_MIX, job.read_share, &ignored);
    DmkTest *t = &spec->tests[spec->n_tests - 1];
    snprintf(t->label, sizeof t->label, "trace");
    t->limit_bytes = 1;
    t->measure_s = 0;
    snprintf(spec->trace, sizeof spec->trace, "%s", p->trace);
    spec->trace_idle_s = p->trace_idle_s;
    spec->no_fill = true; /* the run fills the file itself */
    spec->timeline_s = 0;
    spec->warmup_s = 0;
}

void dmk_lab_describe_trace(const DmkLabParams *p, char *buf, size_t len)
{
    char sz[32];
    dmk_format_size(p->span, sz, sizeof sz);
    if (!p->trace[0]) {
        snprintf(buf, len,
                 "Replays a block trace (fio iolog v2 or v3) against a test file of %s: choose "
                 "the trace file.",
                 sz);
        return;
    }
    snprintf(buf, len,
             "Replays %.600s against a test file of %s, written in full first; idle gaps longer "
             "than %g ms are cut to %g ms. Scored over the busy time; the file is removed at the "
             "end.",
             p->trace, sz, p->trace_idle_s * 1e3, p->trace_idle_s * 1e3);
}

/* ---- the run ------------------------------------------------------------------------ */

/* A trace that writes the whole region once, sequentially, with no gaps:
 * the fill, replayed by the same code as the trace. */
static int fill_trace(uint64_t size, DmkTrace *out, DmkError *err)
{
    memset(out, 0, sizeof *out);
    size_t n = (size_t)((size + FILL_CHUNK - 1) / FILL_CHUNK);
    out->ios = calloc(n ? n : 1, sizeof *out->ios);
    if (!out->ios)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the fill");
    out->version = 3;
    for (size_t i = 0; i < n; i++) {
        uint64_t off = (uint64_t)i * FILL_CHUNK;
        uint64_t left = size - off;
        out->ios[i] =
            (DmkTraceIo){0, off, left < FILL_CHUNK ? (uint32_t)left : FILL_CHUNK, DMK_TRACE_WRITE};
        out->max_len = out->max_len > out->ios[i].len ? out->max_len : out->ios[i].len;
    }
    out->n = out->writes = n;
    out->write_bytes = size;
    return DMK_OK;
}

static void stats_of(DmkStats *st, uint64_t ios, uint64_t bytes, double busy_s,
                     const DmkReplayLat *l)
{
    double s = busy_s > 0 ? busy_s : 1e-9;
    bool any = ios > 0;
    *st = (DmkStats){.ios = ios,
                     .bytes = bytes,
                     .seconds = busy_s,
                     .mb_s = (double)bytes / 1e6 / s,
                     .iops = (double)ios / s,
                     .lat_mean_us = any ? l->mean_us : NAN,
                     .lat_min_us = any ? l->min_us : NAN,
                     .lat_max_us = any ? l->max_us : NAN,
                     .lat_stddev_us = any ? l->stddev_us : NAN,
                     .lat_p50_us = any ? l->p50_us : NAN,
                     .lat_p90_us = any ? l->p90_us : NAN,
                     .lat_p99_us = any ? l->p99_us : NAN,
                     .lat_p999_us = any ? l->p999_us : NAN,
                     .lat_p9999_us = any ? l->p9999_us : NAN};
}

static void service_of(const DmkReplayLat *l, uint64_t ios, double *out)
{
    out[DMK_LAB_TRACE_MEAN] = ios ? l->mean_us / 1e3 : NAN;
    out[DMK_LAB_TRACE_P50] = ios ? l->p50_us / 1e3 : NAN;
    out[DMK_LAB_TRACE_P99] = ios ? l->p99_us / 1e3 : NAN;
    out[DMK_LAB_TRACE_P999] = ios ? l->p999_us / 1e3 : NAN;
}

/* The replay's figures as the files keep them (DMK_LAB_TRACE_FIELDS). */
static void trace_figures(const DmkReplayStats *st, double idle_s, DmkLabTrace *x)
{
    double busy = (double)st->busy_ns / 1e9, b = busy > 0 ? busy : 1e-9;
    const uint64_t ios[DMK_LAB_TRACE_DIRS] = {st->ios, st->reads, st->writes};
    const uint64_t bytes[DMK_LAB_TRACE_DIRS] = {st->read_bytes + st->write_bytes, st->read_bytes,
                                                st->write_bytes};
    const DmkReplayLat *lat[DMK_LAB_TRACE_DIRS] = {&st->lat_all, &st->lat_read, &st->lat_write};
    memset(x, 0, sizeof *x);
    for (int d = 0; d < DMK_LAB_TRACE_DIRS; d++) {
        x->ios[d] = (size_t)ios[d];
        x->bytes[d] = (double)bytes[d];
        x->mb_s[d] = (double)bytes[d] / 1e6 / b;
        service_of(lat[d], ios[d], x->service[d]);
    }
    x->busy_s = busy;
    x->wall_s = (double)st->wall_ns / 1e9;
    x->trace_s = (double)st->trace_ns / 1e9;
    x->replayed_s = (double)st->cut_ns / 1e9;
    x->gaps_cut = st->gaps_cut;
    x->idle_max_ms = idle_s * 1e3;
    x->qd = st->qd;
}

/* The step's result: one pass, the replay's read, write and total stats
 * over the busy time, and its other figures kept with the test. */
static int record(DmkRunResult *res, const DmkRunSpec *spec, const DmkReplayStats *st,
                  DmkError *err)
{
    DmkTestResult *t = &res->tests[0];
    t->passes = calloc(1, sizeof *t->passes);
    t->findings = calloc(DMK_LAB_TRACE_FIELDS, sizeof *t->findings);
    if (!t->passes || !t->findings) {
        free(t->passes);
        free(t->findings);
        t->passes = NULL;
        t->findings = NULL;
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the results");
    }
    t->test = spec->tests[0];
    double busy = (double)st->busy_ns / 1e9;
    DmkPassResult *p = &t->passes[0];
    stats_of(&p->read, st->reads, st->read_bytes, busy, &st->lat_read);
    stats_of(&p->write, st->writes, st->write_bytes, busy, &st->lat_write);
    stats_of(&p->total, st->ios, st->read_bytes + st->write_bytes, busy, &st->lat_all);
    p->read_pct_saved = st->ios ? 100.0 * (double)st->reads / (double)st->ios : 0.0;
    t->n_passes = 1;
    t->score = *p;
    t->mb_s_median = t->mb_s_min = t->mb_s_max = p->total.mb_s;
    DmkLabFinding f = {.set = DMK_LAB_SET_TRACE, .metric = "mb_s"};
    trace_figures(st, spec->trace_idle_s, &f.u.trace);
    for (size_t i = 0; i < DMK_LAB_TRACE_FIELDS; i++)
        t->findings[i] =
            (DmkSavedFinding){DMK_LAB_SET_TRACE, (uint16_t)i, dmk_lab_finding_get(&f, i)};
    t->n_findings = DMK_LAB_TRACE_FIELDS;
    res->n_tests = 1;
    return DMK_OK;
}

typedef struct {
    const DmkBackend *be;
    DmkTarget *target;
    DmkTargetInfo info;
    DmkQueue *q;
    DmkPool pool;
    bool has_pool;
} Rig;

static int rig_open(DmkRunner *r, const DmkRunSpec *spec, uint32_t max_len, Rig *g, DmkError *err)
{
    memset(g, 0, sizeof *g);
    g->be = dmk_runner_backend(r);
    DmkTargetParams tp = {.dir = spec->dir,
                          .size = spec->size,
                          .stop = dmk_runner_stop_flag(r),
                          .opts = &spec->backend_opts};
    int rc = g->be->target_open(&tp, &g->target, &g->info, err);
    if (rc == DMK_OK)
        rc = g->be->queue_open(g->target, DMK_TRACE_QD_MAX, &g->q, err);
    uint32_t block = max_len > FILL_CHUNK ? max_len : FILL_CHUNK;
    if (rc == DMK_OK)
        rc =
            dmk_pool_init(&g->pool, spec->data, g->info.test_size, block,
                          g->info.mem_align > 64 ? g->info.mem_align : 64, dmk_runner_seed(r), err);
    g->has_pool = rc == DMK_OK;
    return rc;
}

static void rig_close(Rig *g)
{
    if (g->has_pool)
        dmk_pool_free(&g->pool);
    if (g->q)
        g->be->queue_close(g->q);
    if (g->target)
        g->be->target_close(g->target); /* the test file goes with it */
}

/* The runner's progress for the step under way: the share of the trace
 * issued, the MB/s so far and the seconds left at that pace. */
typedef struct {
    DmkRunner *r;
    DmkStage stage;
    uint64_t t0;
} Tell;

static void on_progress(size_t issued, size_t total, uint64_t bytes, void *ctx)
{
    Tell *k = ctx;
    double f = total ? (double)issued / (double)total : 1.0;
    double secs = (double)(dmk_clock_ns() - k->t0) / 1e9;
    double mb_s = secs > 0 ? (double)bytes / 1e6 / secs : 0.0;
    double left = f > 0 && f < 1 ? secs * (1 - f) / f : 0.0;
    dmk_runner_lab_progress(k->r, k->stage, 0, f, bytes, mb_s, left);
}

static int replay(DmkRunner *r, const Rig *g, const DmkTrace *t, DmkStage stage, unsigned qd,
                  double idle_s, uint64_t seed, DmkReplayStats *st, DmkError *err)
{
    Tell tell = {r, stage, dmk_clock_ns()};
    DmkReplayParams p = {.be = g->be,
                         .q = g->q,
                         .region_size = g->info.test_size,
                         .align = g->info.offset_align,
                         .mem_align = g->info.mem_align,
                         .qd = qd,
                         .idle_max_ns = (uint64_t)(idle_s * 1e9),
                         .pool = &g->pool,
                         .seed = seed,
                         .stop = dmk_runner_stop_flag(r),
                         .progress = on_progress,
                         .progress_ctx = &tell};
    return dmk_trace_replay(t, &p, st, err);
}

static int fill(DmkRunner *r, const Rig *g, DmkError *err)
{
    DmkTrace ft;
    int rc = fill_trace(g->info.test_size, &ft, err);
    if (rc != DMK_OK)
        return rc;
    dmk_runner_lab_progress(r, DMK_STAGE_PREPARE, 0, 0.0, 0, 0.0, 0.0);
    DmkReplayStats st;
    rc = replay(r, g, &ft, DMK_STAGE_PREPARE, FILL_QD, 0.0, dmk_runner_seed(r) ^ 0x66696c6cULL, &st,
                err);
    dmk_trace_free(&ft);
    if (rc == DMK_OK && g->be->target_sync)
        rc = g->be->target_sync(g->target, err);
    return rc;
}

static void note(DmkRunResult *res, const DmkRunSpec *spec, const DmkTrace *t)
{
    snprintf(res->lab_note, sizeof res->lab_note,
             "Trace: %.380s (fio iolog v%d, %zu reads, %zu writes); idle gaps over %g ms cut to "
             "%g ms.",
             spec->trace, t->version, t->reads, t->writes, spec->trace_idle_s * 1e3,
             spec->trace_idle_s * 1e3);
}

int dmk_lab_trace_run(DmkRunner *r, const DmkRunSpec *spec, DmkRunResult *res, DmkError *err)
{
    if (spec->device)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "the trace test replays onto a test file: it needs a directory, not "
                             "the device %s",
                             spec->dir);
    if (!spec->trace[0])
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "the trace test needs a trace file (drivemark-cli: --trace FILE)");
    DmkTrace t;
    int rc = dmk_trace_load(spec->trace, &t, err); /* names the path and the line */
    if (rc != DMK_OK)
        return rc;
    if (t.reads + t.writes == 0) {
        dmk_trace_free(&t);
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s has no reads or writes to replay",
                             spec->trace);
    }
    note(res, spec, &t);
    Rig g;
    rc = rig_open(r, spec, t.max_len, &g, err);
    if (rc == DMK_OK)
        rc = fill(r, &g, err);
    DmkReplayStats st;
    memset(&st, 0, sizeof st);
    if (rc == DMK_OK) {
        dmk_runner_lab_progress(r, DMK_STAGE_MEASURE, 0, 0.0, 0, 0.0, 0.0);
        rc = replay(r, &g, &t, DMK_STAGE_MEASURE, DMK_TRACE_QD_MAX, spec->trace_idle_s,
                    dmk_runner_seed(r), &st, err);
    }
    /* What was replayed before a stop is kept (a lab run keeps partial
     * results); an error keeps nothing. */
    if ((rc == DMK_OK || (rc == DMK_E_STOPPED && st.ios)) && res->n_tests == 0) {
        DmkError rec;
        if (record(res, spec, &st, &rec) != DMK_OK && rc == DMK_OK) {
            *err = rec;
            rc = rec.code;
        }
    }
    dmk_runner_lab_progress(r, DMK_STAGE_CLEANUP, 0, 1.0, 0, 0, 0);
    rig_close(&g);
    dmk_trace_free(&t);
    return rc;
}

/* ---- what it found ------------------------------------------------------------------ */

void dmk_lab_findings_trace(const DmkRunResult *r, DmkLabFindings *out)
{
    if (r->n_tests == 0 || !r->tests[0].n_passes || out->n >= DMK_LAB_MAX_FINDINGS)
        return;
    const DmkTestResult *t = &r->tests[0];
    DmkLabFinding *f = &out->f[out->n++];
    memset(f, 0, sizeof *f);
    f->set = DMK_LAB_SET_TRACE;
    f->test = 0;
    f->metric = "mb_s";
    DmkLabTrace *x = &f->u.trace;
    /* What the stats say; the rest is the run's, kept with the test. */
    const DmkStats *st[DMK_LAB_TRACE_DIRS] = {&t->score.total, &t->score.read, &t->score.write};
    for (int d = 0; d < DMK_LAB_TRACE_DIRS; d++) {
        x->ios[d] = (size_t)st[d]->ios;
        x->bytes[d] = (double)st[d]->bytes;
        x->mb_s[d] = st[d]->mb_s;
        x->service[d][DMK_LAB_TRACE_MEAN] = st[d]->lat_mean_us / 1e3;
        x->service[d][DMK_LAB_TRACE_P50] = st[d]->lat_p50_us / 1e3;
        x->service[d][DMK_LAB_TRACE_P99] = st[d]->lat_p99_us / 1e3;
        x->service[d][DMK_LAB_TRACE_P999] = st[d]->lat_p999_us / 1e3;
    }
    x->busy_s = t->score.total.seconds;
    x->wall_s = x->trace_s = x->replayed_s = x->idle_max_ms = x->qd = NAN;
}
