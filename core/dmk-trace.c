/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fio iolog traces: the strict parser and the replay (dmk-trace.h). */
#include "dmk-trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-hist.h"
#include "dmk-platform.h"
#include "dmk-rng.h"

static const char ver2[] = "fio version 2 iolog";
static const char ver3[] = "fio version 3 iolog";

/* ---- the parser --------------------------------------------------------------------- */

typedef struct {
    const char *path;
    size_t line;
    DmkError *err;
} Where;

static int bad(const Where *w, const char *what, const char *word)
{
    if (word)
        return dmk_error_set(w->err, DMK_E_INVAL, 0, "%s line %zu: %s '%.64s'", w->path, w->line,
                             what, word);
    return dmk_error_set(w->err, DMK_E_INVAL, 0, "%s line %zu: %s", w->path, w->line, what);
}

/* A decimal number of digits only, at most max; false on anything else. */
static bool number(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

#define MAX_WORDS 6

/* Splits line (modified in place) at spaces and tabs; returns the count
 * (MAX_WORDS means "more than fit"). */
static size_t split(char *line, char **words)
{
    size_t n = 0;
    char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (n == MAX_WORDS)
            return MAX_WORDS;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    return n;
}

static int push(DmkTrace *t, size_t *cap, const DmkTraceIo *io, const Where *w)
{
    if (t->n == DMK_TRACE_IOS_MAX)
        return bad(w, "more requests than a trace may hold (50,000,000)", NULL);
    if (t->n == *cap) {
        size_t c = *cap ? *cap * 2 : 1024;
        DmkTraceIo *m = realloc(t->ios, c * sizeof *m);
        if (!m)
            return dmk_error_set(w->err, DMK_E_NOMEM, 0, "%s: out of memory for the trace",
                                 w->path);
        t->ios = m;
        *cap = c;
    }
    t->ios[t->n++] = *io;
    return DMK_OK;
}

static bool file_action(const char *a)
{
    return !strcmp(a, "add") || !strcmp(a, "open") || !strcmp(a, "close");
}

static bool skipped_action(const char *a)
{
    return !strcmp(a, "sync") || !strcmp(a, "datasync") || !strcmp(a, "trim");
}

static int parse_line(DmkTrace *t, size_t *cap, char *line, uint64_t *last_us, bool *first,
                      const Where *w)
{
    char *words[MAX_WORDS];
    size_t n = split(line, words);
    if (n == 0)
        return DMK_OK; /* a blank line */
    size_t i = 0;
    uint64_t t_us = 0;
    if (t->version == 3) {
        if (!number(words[0], DMK_TRACE_TIME_MAX, &t_us))
            return bad(
                w, "the time (microseconds since the start) is not a number up to 2^50:", words[0]);
        i = 1;
    }
    if (n < i + 2)
        return bad(w, "too few fields: expected FILENAME ACTION [OFFSET LENGTH]", NULL);
    const char *act = words[i + 1];
    size_t rest = n - i - 2;
    if (file_action(act)) {
        if (rest != 0)
            return bad(w, "a file action takes no offset or length:", act);
        t->skipped++;
        return DMK_OK;
    }
    bool rw = !strcmp(act, "read") || !strcmp(act, "write");
    bool wait = !strcmp(act, "wait");
    if (!rw && !wait && !skipped_action(act))
        return bad(w,
                   "unknown action (expected add, open, close, read, write, sync, datasync, "
                   "trim or wait):",
                   act);
    if (wait && t->version == 3)
        return bad(w, "a version 3 iolog has no wait (its times say when)", NULL);
    if (rest != 2)
        return bad(w, rest < 2 ? "missing the offset and length of" : "too many fields after", act);
    uint64_t off = 0, len = 0;
    if (wait) {
        if (!number(words[i + 2], DMK_TRACE_TIME_MAX / 1000, &off))
            return bad(w,
                       "the wait's time (milliseconds) is not a number up to 2^40:", words[i + 2]);
        if (!number(words[i + 3], UINT32_MAX, &len))
            return bad(w, "the wait's last field is not a number:", words[i + 3]);
        DmkTraceIo io = {.t_us = off * 1000, .op = DMK_TRACE_WAIT};
        t->waits++;
        return push(t, cap, &io, w);
    }
    if (!number(words[i + 2], DMK_TRACE_OFFSET_MAX, &off))
        return bad(w, "the offset is not a number of bytes up to 2^60:", words[i + 2]);
    if (!number(words[i + 3], DMK_TRACE_LEN_MAX, &len))
        return bad(w, "the length is not a number of bytes up to 64 MiB:", words[i + 3]);
    if (off + len > DMK_TRACE_OFFSET_MAX)
        return bad(w, "the request ends past 2^60 bytes", NULL);
    if (t->version == 3) {
        if (!*first && t_us < *last_us)
            return bad(w, "the time goes back:", words[0]);
        if (*first)
            t->span_us = 0;
        else
            t->span_us += t_us - *last_us;
        *last_us = t_us;
        *first = false;
    }
    if (skipped_action(act)) {
        t->skipped++;
        return DMK_OK;
    }
    if (len == 0)
        return bad(w, "a read or write of 0 bytes", NULL);
    bool write = act[0] == 'w';
    DmkTraceIo io = {.t_us = t_us,
                     .offset = off,
                     .len = (uint32_t)len,
                     .op = write ? DMK_TRACE_WRITE : DMK_TRACE_READ};
    if (write) {
        t->writes++;
        t->write_bytes += len;
    } else {
        t->reads++;
        t->read_bytes += len;
    }
    if (len > t->max_len)
        t->max_len = (uint32_t)len;
    return push(t, cap, &io, w);
}

int dmk_trace_parse(const char *text, size_t len, const char *path, DmkTrace *out, DmkError *err)
{
    memset(out, 0, sizeof *out);
    Where w = {path, 0, err};
    char *line = malloc(DMK_TRACE_LINE_MAX + 1);
    if (!line)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "%s: out of memory", path);
    size_t cap = 0, pos = 0;
    uint64_t last_us = 0;
    bool first = true;
    int rc = DMK_OK;
    while (rc == DMK_OK && pos < len) {
        w.line++;
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        if (n && text[pos + n - 1] == '\r')
            n--;
        if (n > DMK_TRACE_LINE_MAX) {
            rc = bad(&w, "the line is longer than 4096 bytes", NULL);
            break;
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos += (nl ? (size_t)(nl - (text + pos)) + 1 : len - pos);
        if (memchr(line, '\0', n)) {
            rc = bad(&w, "a NUL byte in the line", NULL);
            break;
        }
        if (w.line == 1) {
            if (!strcmp(line, ver2))
                out->version = 2;
            else if (!strcmp(line, ver3))
                out->version = 3;
            else
                rc = bad(&w,
                         "not a fio iolog: expected 'fio version 2 iolog' or 'fio version 3 "
                         "iolog' (version 1 is not read, nor is fio itself since 2.x)",
                         NULL);
            continue;
        }
        rc = parse_line(out, &cap, line, &last_us, &first, &w);
    }
    free(line);
    if (rc == DMK_OK && !out->version) {
        w.line = 1;
        rc = bad(&w, "the file is empty: expected 'fio version 2 iolog' or 'fio version 3 iolog'",
                 NULL);
    }
    if (rc == DMK_OK && out->reads + out->writes == 0) {
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "%s: the trace has no read or write to replay",
                           path);
    }
    if (rc != DMK_OK)
        dmk_trace_free(out);
    return rc;
}

int dmk_trace_load(const char *path, DmkTrace *out, DmkError *err)
{
    memset(out, 0, sizeof *out);
    /* A FIFO with no writer would block the open forever, a device is no
     * trace: only a regular file is read (as result files are). */
    FILE *f = NULL;
    int orc = dmk_os_open_input(path, &f, err);
    if (orc != DMK_OK)
        return orc;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int rc = buf ? DMK_OK : dmk_error_set(err, DMK_E_NOMEM, 0, "%s: out of memory", path);
    while (rc == DMK_OK) {
        if (n == cap) {
            if (cap >= DMK_TRACE_FILE_MAX) {
                rc = dmk_error_set(err, DMK_E_INVAL, 0, "%s is larger than a trace may be (2 GiB)",
                                   path);
                break;
            }
            char *m = realloc(buf, cap * 2);
            if (!m) {
                rc = dmk_error_set(err, DMK_E_NOMEM, 0, "%s: out of memory", path);
                break;
            }
            buf = m;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                rc = dmk_error_errno(err, errno, "cannot read the trace %s", path);
            break;
        }
    }
    fclose(f);
    if (rc == DMK_OK)
        rc = dmk_trace_parse(buf, n, path, out, err);
    free(buf);
    return rc;
}

void dmk_trace_free(DmkTrace *t)
{
    free(t->ios);
    memset(t, 0, sizeof *t);
}

/* ---- the replay --------------------------------------------------------------------- */

uint64_t dmk_trace_map(uint64_t offset, uint32_t len, uint64_t size, uint32_t align)
{
    if (!align)
        align = 1;
    uint64_t off = offset % size;
    off -= off % align;
    if (off + len > size) {
        off = size - len;
        off -= off % align;
    }
    return off;
}

static uint32_t round_up(uint32_t len, uint32_t align)
{
    return align > 1 ? (len + align - 1) / align * align : len;
}

static bool stopping(const DmkReplayParams *p)
{
    return p->stop && atomic_load(p->stop);
}

typedef struct {
    const DmkReplayParams *p;
    DmkIo *slots;
    DmkIo **free_ios;
    size_t n_free;
    unsigned inflight;
    uint64_t busy_start;
    DmkHist *hist;     /* all requests */
    DmkHist *hist_dir; /* [0] reads, [1] writes */
    DmkReplayStats *st;
} Replay;

static int complete(Replay *r, DmkIo **done, int n, uint64_t now, DmkError *err)
{
    int rc = DMK_OK;
    for (int i = 0; i < n; i++) {
        DmkIo *io = done[i];
        r->inflight--;
        r->free_ios[r->n_free++] = io;
        if (rc == DMK_OK && io->res < 0) {
            rc = dmk_error_os(
                err, (int)io->res, io->os_error, "the trace's %s of %u bytes at offset %llu failed",
                io->op == DMK_OP_WRITE ? "write" : "read", io->len, (unsigned long long)io->offset);
        } else if (rc == DMK_OK && (uint64_t)io->res != io->len) {
            rc = dmk_error_set(err, DMK_E_SHORT, 0,
                               "the trace's %s at offset %llu moved %lld of %u bytes",
                               io->op == DMK_OP_WRITE ? "write" : "read",
                               (unsigned long long)io->offset, (long long)io->res, io->len);
        }
        if (io->res > 0) {
            r->st->ios++;
            if (io->op == DMK_OP_WRITE) {
                r->st->writes++;
                r->st->write_bytes += (uint64_t)io->res;
            } else {
                r->st->reads++;
                r->st->read_bytes += (uint64_t)io->res;
            }
            dmk_hist_add(r->hist, now - io->submit_ns);
            dmk_hist_add(&r->hist_dir[io->op == DMK_OP_WRITE], now - io->submit_ns);
        }
    }
    if (n > 0 && r->inflight == 0)
        r->st->busy_ns += now - r->busy_start;
    return rc;
}

/* Reaps at least min (waiting up to timeout_ns). */
static int reap(Replay *r, int min, uint64_t timeout_ns, DmkError *err)
{
    DmkIo *done[DMK_TRACE_QD_MAX];
    int n = r->p->be->reap(r->p->q, min, (int)r->p->qd, timeout_ns, done, err);
    if (n < 0)
        return n;
    return complete(r, done, n, dmk_clock_ns(), err);
}

static void sleep_until(const DmkReplayParams *p, uint64_t until)
{
    for (uint64_t now = dmk_clock_ns(); now < until && !stopping(p); now = dmk_clock_ns()) {
        uint64_t d = until - now;
        dmk_sleep_ns(d > 100000000ULL ? 100000000ULL : d);
    }
}

static void lat_of(const DmkHist *h, DmkReplayLat *out)
{
    memset(out, 0, sizeof *out);
    if (!h->count)
        return;
    out->mean_us = dmk_hist_mean(h) / 1e3;
    out->stddev_us = dmk_hist_stddev(h) / 1e3;
    out->p50_us = (double)dmk_hist_percentile(h, 50.0) / 1e3;
    out->p90_us = (double)dmk_hist_percentile(h, 90.0) / 1e3;
    out->p99_us = (double)dmk_hist_percentile(h, 99.0) / 1e3;
    out->p999_us = (double)dmk_hist_percentile(h, 99.9) / 1e3;
    out->p9999_us = (double)dmk_hist_percentile(h, 99.99) / 1e3;
    out->min_us = (double)h->min / 1e3;
    out->max_us = (double)h->max / 1e3;
}

static void finish(Replay *r, uint64_t start)
{
    DmkReplayStats *st = r->st;
    st->wall_ns = dmk_clock_ns() - start;
    double busy_s = (double)st->busy_ns / 1e9;
    st->mb_s = busy_s > 0 ? (double)(st->read_bytes + st->write_bytes) / 1e6 / busy_s : 0.0;
    st->qd = st->busy_ns ? (double)r->hist->sum / (double)st->busy_ns : 0.0;
    if (r->hist->count) {
        st->lat_mean_us = dmk_hist_mean(r->hist) / 1e3;
        st->lat_p50_us = (double)dmk_hist_percentile(r->hist, 50.0) / 1e3;
        st->lat_p99_us = (double)dmk_hist_percentile(r->hist, 99.0) / 1e3;
        st->lat_max_us = (double)r->hist->max / 1e3;
    }
    lat_of(r->hist, &st->lat_all);
    lat_of(&r->hist_dir[0], &st->lat_read);
    lat_of(&r->hist_dir[1], &st->lat_write);
}

int dmk_trace_replay(const DmkTrace *t, const DmkReplayParams *p, DmkReplayStats *out,
                     DmkError *err)
{
    memset(out, 0, sizeof *out);
    unsigned qd = t->version == 2 ? 1 : p->qd;
    if (p->qd < 1 || p->qd > DMK_TRACE_QD_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "the replay's queue depth %u is not 1 to %u",
                             p->qd, DMK_TRACE_QD_MAX);
    uint32_t align = p->align ? p->align : 1;
    uint32_t max_len = round_up(t->max_len, align);
    if (max_len > p->region_size)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "the trace's largest request (%u bytes) does not fit the test "
                             "region of %llu bytes",
                             t->max_len, (unsigned long long)p->region_size);
    Replay r = {.p = p, .st = out};
    r.slots = calloc(qd, sizeof *r.slots);
    r.free_ios = calloc(qd, sizeof *r.free_ios);
    r.hist = malloc(sizeof *r.hist);
    r.hist_dir = malloc(2 * sizeof *r.hist_dir);
    if (!r.slots || !r.free_ios || !r.hist || !r.hist_dir) {
        free(r.slots);
        free(r.free_ios);
        free(r.hist);
        free(r.hist_dir);
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the replay");
    }
    dmk_hist_reset(r.hist);
    dmk_hist_reset(&r.hist_dir[0]);
    dmk_hist_reset(&r.hist_dir[1]);
    int rc = DMK_OK;
    for (unsigned i = 0; i < qd; i++) {
        r.slots[i].user = dmk_aligned_alloc(p->mem_align > 64 ? p->mem_align : 64, max_len);
        if (!r.slots[i].user)
            rc = dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the replay's buffers");
        else
            memset(r.slots[i].user, 0, max_len);
        r.free_ios[r.n_free++] = &r.slots[i];
    }
    DmkRng rng;
    dmk_rng_seed(&rng, p->seed);
    uint64_t key = p->seed;
    uint64_t start = dmk_clock_ns(), last_issue = start, told = start;
    uint64_t prev_t = t->n ? t->ios[0].t_us : 0, prev_wait_us = 0;
    size_t next = 0;
    while (rc == DMK_OK && (next < t->n || r.inflight)) {
        if (stopping(p)) {
            rc = dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
            break;
        }
        /* What is due now goes in one submit. */
        DmkIo *batch[DMK_TRACE_QD_MAX];
        int nb = 0;
        uint64_t now = dmk_clock_ns(), due = 0;
        bool waiting_time = false;
        while (next < t->n && r.inflight + (unsigned)nb < qd) {
            const DmkTraceIo *e = &t->ios[next];
            if (e->op == DMK_TRACE_WAIT) {
                if (r.inflight || nb)
                    break; /* idle means nothing in flight */
                uint64_t gap = e->t_us > prev_wait_us ? (e->t_us - prev_wait_us) * 1000 : 0;
                prev_wait_us = e->t_us > prev_wait_us ? e->t_us : prev_wait_us;
                uint64_t cut = gap > p->idle_max_ns ? p->idle_max_ns : gap;
                out->trace_ns += gap;
                out->cut_ns += cut;
                out->gaps_cut += gap > p->idle_max_ns;
                next++;
                sleep_until(p, now + cut);
                now = dmk_clock_ns();
                last_issue = now;
                continue;
            }
            if (t->version == 3) {
                uint64_t gap = e->t_us > prev_t ? (e->t_us - prev_t) * 1000 : 0;
                uint64_t cut = gap > p->idle_max_ns ? p->idle_max_ns : gap;
                due = last_issue + cut;
                if (due > now) {
                    waiting_time = true;
                    break;
                }
                out->trace_ns += gap;
                out->cut_ns += cut;
                out->gaps_cut += gap > p->idle_max_ns;
                prev_t = e->t_us;
                last_issue = due;
            }
            DmkIo *io = r.free_ios[--r.n_free];
            io->len = round_up(e->len, align);
            io->offset =
                p->region_offset + dmk_trace_map(e->offset, io->len, p->region_size, align);
            io->op = e->op == DMK_TRACE_WRITE ? DMK_OP_WRITE : DMK_OP_READ;
            io->buf = io->user;
            if (io->op == DMK_OP_WRITE && p->pool) {
                size_t off = dmk_pool_pick(p->pool, io->len, &rng);
                if (p->pool->keyed)
                    dmk_pool_fill(p->pool, io->user, off, io->len, key);
                else
                    io->buf = p->pool->data + off;
                key += dmk_pool_units(io->len) * DMK_POOL_KEY_STEP;
            }
            batch[nb++] = io;
            next++;
        }
        if (nb) {
            uint64_t ts = dmk_clock_ns();
            for (int i = 0; i < nb; i++)
                batch[i]->submit_ns = ts;
            int sent = 0;
            while (rc == DMK_OK && sent < nb) {
                if (r.inflight == 0)
                    r.busy_start = ts;
                int k = p->be->submit(p->q, batch + sent, nb - sent, err);
                if (k < 0) {
                    rc = k;
                    break;
                }
                r.inflight += (unsigned)k;
                sent += k;
                if (sent < nb) {
                    rc = reap(&r, r.inflight ? 1 : 0, 100000000ULL, err);
                    ts = dmk_clock_ns();
                    for (int i = sent; i < nb; i++)
                        batch[i]->submit_ns = ts;
                }
            }
            /* what was never sent goes back */
            for (int i = sent; i < nb; i++)
                r.free_ios[r.n_free++] = batch[i];
            if (rc != DMK_OK)
                break;
        }
        now = dmk_clock_ns();
        if (p->progress && now - told >= 100000000ULL) {
            told = now;
            p->progress(next, t->n, out->read_bytes + out->write_bytes, p->progress_ctx);
        }
        if (r.inflight) {
            /* Wait for a completion, or only until the next request is due
             * (none at all when it is due already: take what completed). */
            bool until_due = waiting_time && r.inflight < qd;
            uint64_t timeout = 100000000ULL;
            if (until_due)
                timeout = due > now ? (due - now < timeout ? due - now : timeout) : 0;
            rc = reap(&r, timeout ? 1 : 0, timeout, err);
        } else if (waiting_time) {
            sleep_until(p, due);
        }
    }
    /* A stop or an error: what is in flight completes before the buffers go. */
    for (int tries = 0; r.inflight && tries < 30; tries++) {
        DmkError ignored;
        if (reap(&r, 1, 100000000ULL, &ignored) < 0)
            break;
    }
    finish(&r, start);
    if (!r.inflight) {
        for (unsigned i = 0; i < qd; i++)
            dmk_aligned_free(r.slots[i].user);
        free(r.slots);
        free(r.free_ios);
    } /* else left with the queue, as the runner leaves a stuck worker's */
    free(r.hist);
    free(r.hist_dir);
    return rc;
}
