/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's tests' run specs: one start for each, so a test says only
 * what it changes (its backend's latency, a watchdog, verify); and what a
 * run came to. */
#ifndef DMK_TEST_SPEC_H
#define DMK_TEST_SPEC_H

#include <stdio.h>
#include <stdlib.h>

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "dmk-spec.h"
#include "dmk-test.h"

/* A short custom run: `size` bytes in dir, one pass of measure_s seconds,
 * no warm-up and no interval (a run takes what its tests ask, however
 * busy the machine), the rest as dmk_run_spec_init has it; no tests yet.
 * malloc'd: free() it. */
static inline DmkRunSpec *dmk_test_spec_new(const char *dir, uint64_t size, double measure_s)
{
    DmkRunSpec *s = malloc(sizeof *s);
    dmk_run_spec_init(s);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    snprintf(s->profile, sizeof s->profile, "custom");
    s->size = size;
    s->passes = 1;
    s->measure_s = measure_s;
    s->warmup_s = 0;
    s->interval_s = 0;
    return s;
}

/* Adds the test `name` ("RND4K Q32T1") in mode, read_share % reads for a
 * mix; a failed check, with the engine's message, when it is refused. */
static inline int dmk_test_spec_add(DmkRunSpec *s, const char *name, DmkMode mode,
                                    uint32_t read_share)
{
    DmkJob j;
    DmkError err = {0};
    int rc = dmk_job_parse_name(name, &j, &err);
    if (rc == DMK_OK)
        rc = dmk_run_spec_add(s, &j, mode, read_share, &err);
    if (rc != DMK_OK)
        printf("# adding %s: %s\n", name, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    return rc;
}

/* What a run came to: its status and message, its result (the caller
 * frees it), and its time on the program's clock, start to end. */
typedef struct {
    int rc;
    DmkError err;
    DmkRunResult *res;
    double took_s;
    uint64_t end_ns; /* dmk_clock_ns() when the run returned */
} DmkTestRun;

/* Runs r with cb (NULL: none) into *out, timed. */
static inline void dmk_test_run_timed(DmkRunner *r, const DmkRunCallbacks *cb, DmkTestRun *out)
{
    uint64_t t0 = dmk_clock_ns();
    out->rc = dmk_runner_run(r, cb, &out->res, &out->err);
    out->end_ns = dmk_clock_ns();
    out->took_s = (double)(out->end_ns - t0) / 1e9;
}

#endif
