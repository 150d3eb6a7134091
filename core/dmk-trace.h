/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Block traces and their replay (issue 21, docs/lab.md "Trace replay").
 *
 * The parser reads fio's iolog text formats as fio's read_iolog does
 * (fio's iolog.c), strictly: a file is taken whole or refused with a
 * DmkError naming the path, the line and what is wrong.
 *  - version 2: the line "fio version 2 iolog", then
 *      FILENAME add|open|close
 *      FILENAME read|write|sync|datasync|trim OFFSET LENGTH
 *      FILENAME wait MS 0          (sleep until MS since the start)
 *  - version 3 (what fio's write_iolog writes): "fio version 3 iolog",
 *    then each line of version 2 with a leading TIME, the microseconds
 *    since the log's start at which the request was issued; no wait.
 * Only reads and writes are replayed; sync, datasync, trim and the file
 * actions are counted (DmkTrace.skipped). Every file name is taken as the
 * one target (a trace of several files is replayed into one region).
 *
 * The replay (dmk_trace_replay) drives one queue of a backend: offsets
 * mapped into the region (modulo its size, aligned down to the target's
 * sector, moved back so the request fits), the trace's sizes (rounded up
 * to the sector), writes filled from the run's data pool. Version 3 is
 * replayed on its own clock: each request issued its trace gap after the
 * one before, a gap longer than idle_max shortened to idle_max, and at
 * most qd requests in flight (fio's log keeps issue times only, no
 * completions, so the trace's own depth cannot be read from it: the cap
 * is the replay queue's). Version 2 has no times: each request is issued
 * when the one before completed (QD 1), a wait is idle time, cut to
 * idle_max. Scored as the reviews score a trace: bytes over the busy time
 * (time with at least one request in flight), the service time (submit
 * to completion) of each request, its mean, p50 and p99. */
#ifndef DMK_TRACE_H
#define DMK_TRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-platform.h"
#include "dmk-pool.h"

/* Limits on what a trace file may hold. */
#define DMK_TRACE_LINE_MAX   4096u           /* bytes per line, fio's own buffer */
#define DMK_TRACE_IOS_MAX    50000000u       /* requests (about 1.2 GB of memory) */
#define DMK_TRACE_LEN_MAX    (64u << 20)     /* bytes per request */
#define DMK_TRACE_OFFSET_MAX (1ULL << 60)    /* offset + length, bytes (an exabyte) */
#define DMK_TRACE_TIME_MAX   (1ULL << 50)    /* a timestamp or wait, us (35 years) */
#define DMK_TRACE_FILE_MAX   (2048ULL << 20) /* the file's size */
#define DMK_TRACE_QD_MAX     32u             /* requests in flight during a replay */

typedef enum { DMK_TRACE_READ = 0, DMK_TRACE_WRITE = 1, DMK_TRACE_WAIT = 2 } DmkTraceOp;

typedef struct {
    uint64_t t_us;   /* v3: issue time since the log's start; v2 wait: its time */
    uint64_t offset; /* bytes */
    uint32_t len;    /* bytes; 0 for a wait */
    uint8_t op;      /* DmkTraceOp */
} DmkTraceIo;

typedef struct {
    int version; /* 2 or 3 */
    DmkTraceIo *ios;
    size_t n; /* entries of ios: reads, writes and (v2) waits */
    size_t reads, writes, waits;
    size_t skipped; /* sync, datasync, trim, add, open, close */
    uint64_t read_bytes, write_bytes;
    uint32_t max_len;
    uint64_t span_us; /* v3: last time - first time */
} DmkTrace;

/* Parses text (len bytes, need not end in NUL) as an iolog; path names
 * the file in messages. On error *out is empty and err says
 * "PATH line N: what is wrong". */
int dmk_trace_parse(const char *text, size_t len, const char *path, DmkTrace *out, DmkError *err);
/* Reads and parses the file at path (at most DMK_TRACE_FILE_MAX bytes). */
int dmk_trace_load(const char *path, DmkTrace *out, DmkError *err);
void dmk_trace_free(DmkTrace *t);

typedef struct {
    const DmkBackend *be;
    DmkQueue *q;             /* opened with depth >= qd */
    uint64_t region_offset;  /* where the region starts in the target */
    uint64_t region_size;    /* its bytes, > the trace's largest request */
    uint32_t align;          /* offsets and lengths: the target's offset_align */
    uint32_t mem_align;      /* buffers */
    unsigned qd;             /* most in flight, 1 .. DMK_TRACE_QD_MAX */
    uint64_t idle_max_ns;    /* a longer gap is cut to this */
    const DmkPool *pool;     /* writes' data (dmk_pool_init, random) */
    uint64_t seed;           /* the pool's picks and keys */
    const _Atomic int *stop; /* may be NULL; a stop ends the replay (DMK_E_STOPPED) */
    /* May be NULL: told every 100 ms or so, from the replay's thread, how
     * far it is: entries of the trace issued (of t->n) and bytes done. */
    void (*progress)(size_t issued, size_t total, uint64_t bytes, void *ctx);
    void *progress_ctx;
} DmkReplayParams;

/* Service times of one direction (or all), microseconds; 0 with none. */
typedef struct {
    double mean_us, p50_us, p90_us, p99_us, p999_us, p9999_us, min_us, max_us, stddev_us;
} DmkReplayLat;

typedef struct {
    uint64_t ios, reads, writes, read_bytes, write_bytes;
    uint64_t busy_ns;  /* time with at least one request in flight */
    uint64_t wall_ns;  /* the whole replay */
    uint64_t trace_ns; /* the trace's own time (v3: its span; v2: the waits' own) */
    uint64_t cut_ns;   /* the replay's schedule after the cut: trace_ns less what was cut */
    size_t gaps_cut;   /* gaps longer than idle_max */
    double mb_s;       /* (read + write bytes) / busy time, MB/s */
    double qd;         /* achieved: the sum of service times / busy time */
    double lat_mean_us, lat_p50_us, lat_p99_us, lat_max_us; /* service times */
    /* The same apart: all requests, the reads, the writes (the reviews
     * score each; the lab test's result keeps them as a test's stats). */
    DmkReplayLat lat_all, lat_read, lat_write;
} DmkReplayStats;

/* Replays t; fills *out (what was done so far on an error or a stop). */
int dmk_trace_replay(const DmkTrace *t, const DmkReplayParams *p, DmkReplayStats *out,
                     DmkError *err);

/* Where a trace's request lands in a region of size bytes: offset modulo
 * size, aligned down to align, moved back so that len bytes fit. */
uint64_t dmk_trace_map(uint64_t offset, uint32_t len, uint64_t size, uint32_t align);

#endif
