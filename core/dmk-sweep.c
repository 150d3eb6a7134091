/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-sweep.h"

#include <stdio.h>
#include <string.h>

#define KIB 1024u
#define MIB (1024u * 1024u)

/* The points of a review's sweep: first .. last, doubling. */
static void set_doubling(DmkSweep *s, uint32_t first, uint32_t last)
{
    s->n_points = 0;
    for (uint64_t v = first; v <= last && s->n_points < DMK_SWEEP_MAX_POINTS; v *= 2)
        s->points[s->n_points++] = (uint32_t)v;
}

void dmk_sweep_init(DmkSweep *s, DmkSweepKind kind, DmkPattern pattern)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->pattern = pattern;
    s->mode = DMK_RUN_READ_WRITE;
    s->threads = 1;
    /* Reviews 000-004: 4 KiB random at QD 1..32, 128 KiB sequential at QD
     * 1..16; random 512 B..256 KiB at QD4; ATTO sequential 512 B..64 MiB. */
    s->block_size = pattern == DMK_PATTERN_SEQ ? 128 * KIB : 4 * KIB;
    s->queue_depth = 4;
    if (kind == DMK_SWEEP_QD)
        set_doubling(s, 1, pattern == DMK_PATTERN_SEQ ? 16 : 32);
    else
        set_doubling(s, 512, pattern == DMK_PATTERN_SEQ ? 64 * MIB : 256 * KIB);
}

const char *dmk_sweep_name(DmkSweepKind k)
{
    return k == DMK_SWEEP_BS ? "bs" : "qd";
}

static int check_qd(uint64_t qd, DmkError *err)
{
    if (qd < 1 || qd > DMK_SWEEP_QD_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "queue depth %llu is out of range for a sweep (1 to %d)",
                             (unsigned long long)qd, DMK_SWEEP_QD_MAX);
    return DMK_OK;
}

static int check_bs(uint64_t bs, DmkError *err)
{
    if (bs < DMK_BS_MIN || bs > DMK_BS_MAX || (bs & (bs - 1)) != 0)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "block size %llu is out of range (a power of two, 512 B to 64 MiB)",
                             (unsigned long long)bs);
    return DMK_OK;
}

/* Each point once: a repeated point would only draw a zig-zag. */
static int check_points(const DmkSweep *s, DmkError *err)
{
    if (s->n_points < 1 || s->n_points > DMK_SWEEP_MAX_POINTS)
        return dmk_error_set(err, DMK_E_INVAL, 0, "a sweep has 1 to %d points, not %zu",
                             DMK_SWEEP_MAX_POINTS, s->n_points);
    for (size_t i = 0; i < s->n_points; i++) {
        int rc =
            s->kind == DMK_SWEEP_QD ? check_qd(s->points[i], err) : check_bs(s->points[i], err);
        if (rc != DMK_OK)
            return rc;
        for (size_t k = 0; k < i; k++)
            if (s->points[k] == s->points[i])
                return dmk_error_set(err, DMK_E_INVAL, 0, "the sweep lists %u twice", s->points[i]);
    }
    return DMK_OK;
}

int dmk_sweep_validate(const DmkSweep *s, DmkError *err)
{
    if (s->kind != DMK_SWEEP_QD && s->kind != DMK_SWEEP_BS)
        return dmk_error_set(err, DMK_E_INVAL, 0, "unknown sweep kind %d", (int)s->kind);
    if (s->mode == DMK_RUN_MIX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "a sweep runs read, write or both, not mixed");
    if (s->threads < 1 || s->threads > DMK_THREADS_MAX)
        return dmk_error_set(err, DMK_E_INVAL, 0, "thread count %u is out of range (1 to %d)",
                             s->threads, DMK_THREADS_MAX);
    int rc = s->kind == DMK_SWEEP_QD ? check_bs(s->block_size, err) : check_qd(s->queue_depth, err);
    return rc != DMK_OK ? rc : check_points(s, err);
}

/* The job of point i. */
static DmkJob point_job(const DmkSweep *s, size_t i)
{
    DmkJob j = {0};
    j.pattern = s->pattern;
    j.block_size = s->kind == DMK_SWEEP_BS ? s->points[i] : s->block_size;
    j.queue_depth = s->kind == DMK_SWEEP_QD ? s->points[i] : s->queue_depth;
    j.threads = s->threads;
    return j;
}

static int add_direction(DmkRunSpec *spec, const DmkSweep *s, DmkMode mode, DmkError *err)
{
    for (size_t i = 0; i < s->n_points; i++) {
        DmkJob j = point_job(s, i);
        int rc = dmk_run_spec_add(spec, &j, mode, mode == DMK_MODE_READ ? 100 : 0, err);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

int dmk_sweep_add(DmkRunSpec *spec, const DmkSweep *s, DmkError *err)
{
    int rc = dmk_sweep_validate(s, err);
    if (rc == DMK_OK && s->mode != DMK_RUN_WRITE)
        rc = add_direction(spec, s, DMK_MODE_READ, err);
    if (rc == DMK_OK && s->mode != DMK_RUN_READ)
        rc = add_direction(spec, s, DMK_MODE_WRITE, err);
    if (rc != DMK_OK)
        return rc;
    snprintf(spec->sweep, sizeof spec->sweep, "%s", dmk_sweep_name(s->kind));
    snprintf(spec->profile, sizeof spec->profile, "custom");
    return DMK_OK;
}
