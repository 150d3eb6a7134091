/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Review-lab results built by hand, with known numbers, for the chart
 * tests (test-chart-lab.c, test-chart-cli.c). Each is malloc'd like a
 * runner's result: free it with dmk_run_result_free. */
#ifndef DMK_LAB_FIXTURES_H
#define DMK_LAB_FIXTURES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dmk-lab.h"
#include "dmk-result.h"

#define MIB (1ULL << 20)
#define GIB ((double)(1ULL << 30))

static inline DmkRunResult *new_result(const char *lab, size_t n_tests)
{
    DmkRunResult *r = calloc(1, sizeof *r);
    snprintf(r->version, sizeof r->version, "0.1.0");
    snprintf(r->date, sizeof r->date, "2026-11-30T06:35:13Z");
    snprintf(r->backend, sizeof r->backend, "native");
    snprintf(r->lab, sizeof r->lab, "%s", lab);
    snprintf(r->profile, sizeof r->profile, "%s", lab);
    snprintf(r->target.path, sizeof r->target.path, "/mnt/data");
    snprintf(r->target.model, sizeof r->target.model, "Samsung SSD 970 EVO Plus 1TB");
    snprintf(r->target.device, sizeof r->target.device, "/dev/nvme0n1");
    r->size = 32ULL << 30;
    r->passes = 1;
    r->complete = true;
    r->tests = calloc(n_tests, sizeof *r->tests);
    return r;
}

/* Test number r->n_tests, one pass whose total is `st`. */
static inline DmkTestResult *add_test(DmkRunResult *r, const char *name, DmkMode mode,
                                      const char *label, DmkStats st)
{
    DmkTestResult *t = &r->tests[r->n_tests++];
    dmk_job_parse_name(name, &t->test.jobs[0], NULL);
    snprintf(t->test.name, sizeof t->test.name, "%s", name);
    snprintf(t->test.label, sizeof t->test.label, "%s", label);
    t->test.mode = mode;
    t->test.n_jobs = 1;
    t->test.measure_s = 20;
    t->n_passes = 1;
    t->passes = calloc(1, sizeof *t->passes);
    t->passes[0].total = st;
    dmk_test_result_summarize(t);
    return t;
}

/* A tiny deterministic noise source: the same pictures every run. */
static inline double noise(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

/* n samples of `period` s of RND4K writes: `fast` IOPS for `cache_n`
 * samples, then `slow`, each +-`spread` of itself; temperature from 40 C
 * rising `c_per_s`, or none when that is 0. */
static inline void fill_samples(DmkTestResult *t, size_t n, double period, size_t cache_n,
                                double fast, double slow, double spread, double c_per_s)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    t->samples = calloc(n, sizeof *t->samples);
    t->n_samples = n;
    for (size_t i = 0; i < n; i++) {
        DmkSample *s = &t->samples[i];
        double base = i < cache_n ? fast : slow;
        s->t_s = period * (double)(i + 1);
        s->iops = base * (1 + spread * 2 * noise(&seed));
        s->mb_s = s->iops * 4096 / 1e6;
        s->lat_mean_us = 32 / s->iops * 1e6;
        /* whole degrees, as drives report them, flickering where they change */
        double c = fmin(72, 40 + c_per_s * s->t_s) + 0.8 * noise(&seed);
        s->temp_c = c_per_s > 0 ? round(c) : NAN;
    }
}

/* 100 one-second samples: 20 at 100,000 IOPS (7.63 GiB), 80 at 25,000,
 * exactly. */
static inline DmkRunResult *step_sustained(bool sensor)
{
    DmkRunResult *r = new_result("sustained", 1);
    DmkTestResult *t = add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "sustained", (DmkStats){0});
    fill_samples(t, 100, 1.0, 20, 100000, 25000, 0, sensor ? 0.5 : 0);
    return r;
}

/* A two-hour RND4K Q32T1 write as a review shows it: 7,200 samples, a
 * 12 GiB cache, temperature rising to 72 C. */
static inline DmkRunResult *long_sustained(bool sensor, double fast, double slow, const char *model)
{
    DmkRunResult *r = new_result("sustained", 1);
    snprintf(r->target.model, sizeof r->target.model, "%s", model);
    DmkTestResult *t = add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "sustained", (DmkStats){0});
    size_t cache_n = (size_t)(12.0 * GIB / (fast * 4096));
    fill_samples(t, 7200, 1.0, cache_n, fast, slow, 0.35, sensor ? 0.03 : 0);
    return r;
}

/* The four profiles of latency under load; profile p's step k of load
 * pct reaches min(pct, 100) % of max IOPS, its latency growing with it. */
static inline DmkRunResult *hand_latency(double max_iops, double base_us)
{
    static const char *const names[4] = {"RND4K Q128T1", "RND4K Q64T1", "SEQ64K Q16T1",
                                         "SEQ64K Q8T1"};
    static const DmkMode modes[4] = {DMK_MODE_READ, DMK_MODE_WRITE, DMK_MODE_READ, DMK_MODE_WRITE};
    DmkRunResult *r = new_result("latency", 4 * (1 + DMK_LAB_RAMP_STEPS));
    for (int p = 0; p < 4; p++) {
        double max = max_iops / (p + 1);
        DmkStats st = {.iops = max, .lat_mean_us = base_us * 8, .lat_p99_us = base_us * 20};
        add_test(r, names[p], modes[p], "max", st);
        for (int k = 0; k < DMK_LAB_RAMP_STEPS; k++) {
            double pct = dmk_lab_ramp_pct[k], load = fmin(pct, 100) / 100;
            st.iops = max * load * (pct > 100 ? 1.0 : 0.995);
            st.lat_mean_us = base_us * (1 + 6 * pow(load, 6)) + (pct > 100 ? base_us * 1.5 : 0);
            st.lat_p99_us = st.lat_mean_us * (2.5 + load);
            char label[16];
            snprintf(label, sizeof label, "%u %%", dmk_lab_ramp_pct[k]);
            DmkTestResult *t = add_test(r, names[p], modes[p], label, st);
            t->test.rate_pct = dmk_lab_ramp_pct[k];
            t->test.rate_iops = (uint64_t)(max * dmk_lab_ramp_pct[k] / 100);
            t->test.rate_ref = (uint32_t)(p * 12 + 1);
        }
    }
    return r;
}

static inline DmkRunResult *hand_mixed(double seq_scale)
{
    static const double seq[6] = {1800, 1400, 1200, 1300, 1900, 3200};
    static const double rnd[6] = {310, 250, 215, 230, 290, 420};
    DmkRunResult *r = new_result("mixed", 12);
    for (int k = 0; k < 12; k++) {
        bool s = k < 6;
        DmkStats st = {.mb_s = (s ? seq[k] * seq_scale : rnd[k - 6])};
        char label[16];
        snprintf(label, sizeof label, "%u %% read", dmk_lab_mix_share[k % 6]);
        DmkTestResult *t = add_test(r, s ? "SEQ128K Q1T2" : "RND4K Q1T4", DMK_MODE_MIX, label, st);
        t->test.jobs[0].read_share = dmk_lab_mix_share[k % 6];
    }
    return r;
}

/* Recovery with the after-idle probe missing (the run stopped there). */
static inline DmkRunResult *hand_recovery(bool with_idle)
{
    DmkRunResult *r = new_result("recovery", 5);
    add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "fresh", (DmkStats){.iops = 180000});
    DmkTestResult *d =
        add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "degradation", (DmkStats){.iops = 60000});
    fill_samples(d, 1800, 1.0, 500, 180000, 40000, 0.3, 0);
    add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "degraded", (DmkStats){.iops = 41000});
    DmkTestResult *idle =
        add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "after idle", (DmkStats){.iops = 95000});
    idle->test.idle_before_s = 900;
    if (!with_idle)
        idle->n_passes = 0;
    add_test(r, "RND4K Q32T1", DMK_MODE_WRITE, "after TRIM", (DmkStats){.iops = 170000});
    return r;
}

#endif
