/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fault backend (dmk-fault.h): requests complete in memory as in the
 * null backend, in submit order, at once or after a fixed latency, except
 * where the installed script makes them fail. Faults are decided as a real
 * drive's would show: a completion's result, a submit call's return, a
 * target call's error, never by reaching into the engine. */
#include "dmk-fault.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-size.h"
#include "null/dmk-null-queue.h"

typedef _Atomic uint64_t DmkFaultCount;

/* Counts shared by every queue (queues run on their own threads), so that
 * "the 5th completion" means the 5th the drive handed back. */
typedef struct {
    DmkFaultCount submit_calls, accepted, accepted_op[2];
    DmkFaultCount completed_all, completed[2], bytes[2];
    DmkFaultCount faults, pushed_back, lost, opens, sync_calls, gaps;
    atomic_int targets_open, queues_open, hung;
    atomic_bool released;
} DmkFaultCounts;

static DmkFaultScript dmk_fault_script;
static DmkFaultCounts dmk_fault_counts;

struct DmkTarget {
    DmkFaultScript script; /* as it was at open */
    char dir[1024];        /* for messages */
    uint64_t latency_ns, serve_ns;
    uint64_t size;
    atomic_bool vanished; /* the drive is gone: nothing works any more */
    unsigned char *data;  /* script.keep_data: what was written, size bytes */
};

/* The null backend's queue (dmk-null-queue.h), with the requests the
 * script swallowed beside it. */
struct DmkQueue {
    DmkTarget *target;
    DmkNullFifo q;   /* the requests that will complete */
    unsigned n_lost; /* swallowed requests: they hold their slot for ever */
};

/* ---- counting and striking ----------------------------------------------- */

/* Numbers an event: 1 for the first. */
static uint64_t count_up(DmkFaultCount *c)
{
    return atomic_fetch_add(c, 1) + 1;
}

/* The event's number among those fault f counts; 0 when f does not count it. */
static uint64_t event_no(const DmkFaultAt *f, int op, uint64_t all, uint64_t of_op)
{
    if (f->ops == DMK_FAULT_ANY)
        return all;
    bool reads = f->ops == DMK_FAULT_READS;
    return reads == (op == DMK_OP_READ) ? of_op : 0;
}

/* Whether fault f strikes event number k (0: an event it does not count). */
static bool strikes(const DmkFaultAt *f, uint64_t k)
{
    if (!f->nth || k < f->nth)
        return false;
    uint32_t times = f->times ? f->times : 1;
    return times == DMK_FAULT_FOREVER || k - f->nth < times;
}

static int code_of(const DmkFaultAt *f)
{
    return f->code ? f->code : DMK_E_IO;
}

/* Fills err as a real backend would for fault f: what failed, then the
 * OS's text for its os_error. */
static int report(DmkError *err, const DmkFaultAt *f, const char *what)
{
    atomic_fetch_add(&dmk_fault_counts.faults, 1);
    if (f->os_error)
        return dmk_error_os(err, code_of(f), f->os_error, "%s", what);
    /* TRANSLATORS: a whole sentence on what failed, then the scripted error's code. */
    return dmk_error_set(err, code_of(f), 0, "%s (error %d)", what, code_of(f));
}

/* ---- targets ------------------------------------------------------------- */

static void fill_info(const DmkTargetParams *p, const DmkTarget *t, DmkTargetInfo *info)
{
    memset(info, 0, sizeof *info);
    snprintf(info->path, sizeof info->path, "%s", p->dir);
    snprintf(info->fs_type, sizeof info->fs_type, "fault");
    snprintf(info->model, sizeof info->model, "Fault backend (no I/O)");
    info->test_size = t->size;
    info->capacity_bytes = t->size;
    info->fs_size_bytes = t->size;
    info->fs_free_bytes = t->size;
    info->discard = -1;
    info->mem_align = 512;
    info->offset_align = 512;
}

static void install(const DmkFaultScript *script);

/* The script a target follows: the installed one, and the hang its
 * options ask for (installed, counts zeroed, as dmk_backend_fault would). */
static void open_script(const DmkFaultOpts *o)
{
    static atomic_uint_fast64_t opens; /* with a hang asked, in this process */
    if (!o->hang)
        return;
    uint64_t run = atomic_fetch_add(&opens, 1) + 1;
    DmkFaultScript s = {.hang = {.nth = run >= o->hang_run ? o->hang : 0}};
    install(&s);
}

static int fault_target_open(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                             DmkError *err)
{
    DmkFaultOpts o = dmk_fault_opts_get(p->opts);
    open_script(&o);
    const DmkFaultScript *s = &dmk_fault_script;
    if (strikes(&s->open, count_up(&dmk_fault_counts.opens))) {
        char what[1100];
        snprintf(what, sizeof what, DMK_("creating the test file in %s failed"), p->dir);
        return report(err, &s->open, what);
    }
    DmkTarget *t = calloc(1, sizeof *t);
    if (!t)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory");
    t->script = *s;
    snprintf(t->dir, sizeof t->dir, "%s", p->dir);
    t->latency_ns = o.null.latency_ns;
    t->serve_ns = s->serve_ns ? s->serve_ns : o.null.serve_ns;
    int rc = dmk_null_target_size(p, &t->size, err);
    if (rc == DMK_OK && s->keep_data && !(t->data = calloc(1, t->size)))
        rc = dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the fault target's data");
    if (rc != DMK_OK) {
        free(t);
        return rc;
    }
    atomic_init(&t->vanished, false);
    fill_info(p, t, info);
    atomic_fetch_add(&dmk_fault_counts.targets_open, 1);
    *out = t;
    return DMK_OK;
}

static void fault_target_close(DmkTarget *t)
{
    if (t) {
        atomic_fetch_sub(&dmk_fault_counts.targets_open, 1);
        free(t->data);
    }
    free(t);
}

/* A vanished drive fails every flush; otherwise the script's sync fault. */
static void hold_call(const DmkFaultScript *s, uint64_t call);
static void hold_sync(const DmkFaultScript *s, uint64_t call);

static int fault_target_sync(DmkTarget *t, DmkError *err)
{
    uint64_t k = count_up(&dmk_fault_counts.sync_calls);
    hold_sync(&t->script, k);
    const DmkFaultAt *f = NULL;
    if (atomic_load(&t->vanished))
        f = &t->script.vanish;
    else if (strikes(&t->script.sync, k))
        f = &t->script.sync;
    if (!f)
        return DMK_OK;
    char what[1100];
    snprintf(what, sizeof what, DMK_("flushing the test file in %s to the drive failed"), t->dir);
    return report(err, f, what);
}

static int fault_temperature(DmkTarget *t, double *celsius)
{
    (void)t;
    (void)celsius;
    return DMK_E_NOTSUP;
}

static int fault_trim(DmkTarget *t, DmkTrimReport *rep, DmkError *err)
{
    (void)err;
    memset(rep, 0, sizeof *rep);
    rep->punched_bytes = t->size;
    snprintf(rep->note, sizeof rep->note,
             "TRIM: the fault backend has no drive to trim; nothing was done.");
    return DMK_OK;
}

/* ---- queues -------------------------------------------------------------- */

static int fault_queue_open(DmkTarget *t, unsigned depth, DmkQueue **out, DmkError *err)
{
    DmkQueue *q = calloc(1, sizeof *q);
    if (!q)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an I/O queue");
    if (dmk_null_fifo_init(&q->q, depth, t->latency_ns, t->serve_ns, err) != DMK_OK) {
        free(q);
        return DMK_E_NOMEM;
    }
    q->target = t;
    atomic_fetch_add(&dmk_fault_counts.queues_open, 1);
    *out = q;
    return DMK_OK;
}

/* Swallowed requests are simply forgotten: the backend never allocated
 * anything for them, and the engine owns their memory. */
static void fault_queue_close(DmkQueue *q)
{
    if (!q)
        return;
    atomic_fetch_sub(&dmk_fault_counts.queues_open, 1);
    dmk_null_fifo_free(&q->q);
    free(q);
}

/* The faults of one submit call: a negative DmkErrCode, 0 when the drive
 * pushes back, 1 when the call goes ahead. */
static int call_fault(DmkTarget *t, uint64_t call, int n, DmkError *err)
{
    const DmkFaultScript *s = &t->script;
    char what[96];
    snprintf(what, sizeof what,
             dmk_ngettext("submitting %d request failed", "submitting %d requests failed", n), n);
    if (s->vanish.nth && call >= s->vanish.nth)
        atomic_store(&t->vanished, true);
    if (atomic_load(&t->vanished))
        return report(err, &s->vanish, what);
    if (strikes(&s->submit_error, call))
        return report(err, &s->submit_error, what);
    if (strikes(&s->push_back, call)) {
        atomic_fetch_add(&dmk_fault_counts.faults, 1);
        atomic_fetch_add(&dmk_fault_counts.pushed_back, 1);
        return 0;
    }
    return 1;
}

/* Takes one request into the FIFO, unless the script swallows it. */
static void accept_one(DmkQueue *q, DmkIo *io)
{
    DmkFaultCounts *c = &dmk_fault_counts;
    const DmkFaultAt *lose = &q->target->script.lose;
    uint64_t all = count_up(&c->accepted);
    uint64_t of_op = count_up(&c->accepted_op[io->op & 1]);
    if (strikes(lose, event_no(lose, io->op, all, of_op))) {
        q->n_lost++;
        atomic_fetch_add(&c->lost, 1);
        atomic_fetch_add(&c->faults, 1);
        return;
    }
    dmk_null_fifo_push(&q->q, io, q->q.latency_ns);
}

/* Blocks the calling thread, counted as hung, until the test releases
 * every hung call (dmk_fault_release). */
static void hang_until_released(DmkFaultCounts *c)
{
    atomic_fetch_add(&c->hung, 1);
    while (!atomic_load(&c->released))
        dmk_sleep_ns(1000000);
    atomic_fetch_sub(&c->hung, 1);
}

/* A call that blocks like io_submit on a frozen file system (until the
 * test releases it), or returns late by a set time. */
static void hold_call(const DmkFaultScript *s, uint64_t call)
{
    DmkFaultCounts *c = &dmk_fault_counts;
    if (strikes(&s->gap, call)) {
        atomic_fetch_add(&c->gaps, 1);
        dmk_sleep_ns(s->gap_ns);
    }
    if (strikes(&s->hang, call))
        hang_until_released(c);
}

/* The same for a flush (target_sync call `call`). */
static void hold_sync(const DmkFaultScript *s, uint64_t call)
{
    if (strikes(&s->hang_sync, call))
        hang_until_released(&dmk_fault_counts);
}

static int fault_submit(DmkQueue *q, DmkIo **ios, int n, DmkError *err)
{
    uint64_t call = count_up(&dmk_fault_counts.submit_calls);
    hold_call(&q->target->script, call);
    int go = call_fault(q->target, call, n, err);
    if (go <= 0)
        return go;
    int room = (int)(q->q.depth - q->q.count - q->n_lost);
    uint32_t max = q->target->script.submit_max;
    int k = n < room ? n : room;
    if (max && (uint32_t)k > max)
        k = (int)max;
    for (int i = 0; i < k; i++)
        accept_one(q, ios[i]);
    return k;
}

/* ---- completions --------------------------------------------------------- */

/* script.keep_data: a write's bytes are kept, a read gets them back (as
 * far as the request moved, inside the target). */
static void keep_or_give(const DmkTarget *t, DmkIo *io)
{
    if (!t->data || io->res <= 0 || io->offset >= t->size)
        return;
    uint64_t n = (uint64_t)io->res;
    n = n < t->size - io->offset ? n : t->size - io->offset;
    if ((io->op & 1) == DMK_OP_WRITE)
        memcpy(t->data + io->offset, io->buf, n);
    else
        memcpy(io->buf, t->data + io->offset, n);
}

/* Sets a request's result: moved in full, or as the script says. */
static void complete(void *target, DmkIo *io)
{
    const DmkTarget *t = target;
    DmkFaultCounts *c = &dmk_fault_counts;
    const DmkFaultScript *s = &t->script;
    int op = io->op & 1;
    uint64_t all = count_up(&c->completed_all), of_op = count_up(&c->completed[op]);
    const DmkFaultAt *f = NULL;
    io->res = io->len;
    io->os_error = 0;
    if (atomic_load(&t->vanished))
        f = &s->vanish;
    else if (strikes(&s->fail, event_no(&s->fail, op, all, of_op)))
        f = &s->fail;
    if (f) {
        io->res = code_of(f);
        io->os_error = f->os_error;
        atomic_fetch_add(&c->faults, 1);
    } else if (strikes(&s->short_io, event_no(&s->short_io, op, all, of_op))) {
        io->res = io->len / 2;
        atomic_fetch_add(&c->faults, 1);
    }
    if (io->res > 0)
        atomic_fetch_add(&c->bytes[op], (uint64_t)io->res);
    keep_or_give(t, io);
}

/* The null backend's reap, the script having its say on each completion
 * as it is taken off (a vanish during the wait fails only what follows). */
static int fault_reap(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done,
                      DmkError *err)
{
    (void)err;
    uint64_t deadline = dmk_clock_ns() + timeout_ns;
    /* A vanished drive fails what is in flight at once, due or not. */
    bool all_due =
        (q->q.latency_ns == 0 && q->q.serve_ns == 0) || atomic_load(&q->target->vanished);
    int n = dmk_null_fifo_reap(&q->q, min, max, timeout_ns, all_due, done, complete, q->target);
    /* Only swallowed requests left: nothing will come, but a real reap
     * would wait its time out rather than return at once. */
    if (n < min && !q->q.count && dmk_clock_ns() < deadline)
        dmk_wait_until_ns(deadline);
    return n;
}

/* ---- options ------------------------------------------------------------- */

static const DmkBackendOption fault_options[] = {
    /* TRANSLATORS: US, N and R (here and in the fault backend's other options) are the
     * option's value as --help names it: keep them. */
    {"latency", "US", DMK_N_("each I/O completes after US microseconds (the null backend's)")},
    {"serve", "US", DMK_N_("each queue answers one request at a time, US microseconds apart")},
    {"hang", "N", DMK_N_("the Nth submit call never returns, as on a frozen file system")},
    {"hang-run", "R",
     DMK_N_("the hang strikes from the Rth run of the process on (default: the first)")},
    {NULL, NULL, NULL},
};

DmkFaultOpts *dmk_fault_opts(DmkBackendOpts *opts)
{
    _Static_assert(sizeof(DmkFaultOpts) <= DMK_BACKEND_OPTS_SIZE, "DmkBackendOpts is too small");
    if (strcmp(opts->backend, "fault") != 0) {
        DmkNullOpts null = *dmk_null_opts_get(opts);
        memset(opts, 0, sizeof *opts);
        snprintf(opts->backend, sizeof opts->backend, "fault");
        ((DmkFaultOpts *)(void *)opts->data)->null = null;
    }
    return (DmkFaultOpts *)(void *)opts->data;
}

DmkFaultOpts dmk_fault_opts_get(const DmkBackendOpts *opts)
{
    if (opts && strcmp(opts->backend, "fault") == 0)
        return *(const DmkFaultOpts *)(const void *)opts->data;
    /* the null backend's options alone (or none): the first part of ours */
    return (DmkFaultOpts){.null = *dmk_null_opts_get(opts)};
}

static int fault_parse_option(DmkBackendOpts *opts, const char *key, const char *value,
                              const char *what, DmkError *err)
{
    DmkFaultOpts *o = dmk_fault_opts(opts);
    if (strcmp(key, "hang") == 0)
        return dmk_parse_uint_range(what, value, 1, UINT32_MAX, &o->hang, err);
    if (strcmp(key, "hang-run") == 0)
        return dmk_parse_uint_range(what, value, 1, UINT32_MAX, &o->hang_run, err);
    /* latency and serve are the null backend's, in the first part */
    return dmk_backend_null()->parse_option(opts, key, value, what, err);
}

const DmkBackend dmk_backend_fault_desc = {
    .name = "fault",
    .description = DMK_N_("the null backend's queue with scripted faults (tests)"),
    .tests_only = true,
    .in_memory = true,
    .options = fault_options,
    .parse_option = fault_parse_option,
    .target_open = fault_target_open,
    .target_close = fault_target_close,
    .target_sync = fault_target_sync,
    .queue_open = fault_queue_open,
    .queue_close = fault_queue_close,
    .submit = fault_submit,
    .reap = fault_reap,
    .target_temperature = fault_temperature,
    .target_trim = fault_trim,
};

/* Makes *script (NULL: none) the one targets take, and zeroes the counts. */
static void install(const DmkFaultScript *script)
{
    static const DmkFaultScript none;
    dmk_fault_script = script ? *script : none;
    DmkFaultCounts *c = &dmk_fault_counts;
    DmkFaultCount *all[] = {&c->submit_calls,   &c->accepted,      &c->accepted_op[0],
                            &c->accepted_op[1], &c->completed_all, &c->completed[0],
                            &c->completed[1],   &c->bytes[0],      &c->bytes[1],
                            &c->faults,         &c->pushed_back,   &c->lost,
                            &c->opens,          &c->sync_calls,    &c->gaps};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        atomic_store(all[i], 0);
    atomic_store(&c->released, false);
}

const DmkBackend *dmk_backend_fault(const DmkFaultScript *script)
{
    install(script);
    if (dmk_fault_script.close_waits || dmk_fault_script.keep_data) {
        /* the same, but its queues stand for ones that wait for the drive,
         * or it keeps what is written */
        static DmkBackend other;
        other = dmk_backend_fault_desc;
        other.close_waits = dmk_fault_script.close_waits;
        other.keeps_data = dmk_fault_script.keep_data;
        return &other;
    }
    return &dmk_backend_fault_desc;
}

void dmk_fault_stats(DmkFaultStats *out)
{
    DmkFaultCounts *c = &dmk_fault_counts;
    memset(out, 0, sizeof *out);
    out->submit_calls = atomic_load(&c->submit_calls);
    out->accepted = atomic_load(&c->accepted);
    for (int op = 0; op < 2; op++) {
        out->completed[op] = atomic_load(&c->completed[op]);
        out->bytes[op] = atomic_load(&c->bytes[op]);
    }
    out->faults = atomic_load(&c->faults);
    out->pushed_back = atomic_load(&c->pushed_back);
    out->lost = atomic_load(&c->lost);
    out->sync_calls = atomic_load(&c->sync_calls);
    out->targets_open = atomic_load(&c->targets_open);
    out->queues_open = atomic_load(&c->queues_open);
    out->hung = atomic_load(&c->hung);
    out->gaps = atomic_load(&c->gaps);
}

void dmk_fault_release(void)
{
    atomic_store(&dmk_fault_counts.released, true);
}
