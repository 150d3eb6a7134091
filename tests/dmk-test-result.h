/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A result built by hand, the same for every test of a writer or reader
 * (JSON, CSV), so their expectations can be read against one fixture. */
#ifndef DMK_TEST_RESULT_H
#define DMK_TEST_RESULT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dmk-result.h"

/* A hand-built result: one mixed RND4K Q32T1 test with two passes (full
 * per-direction statistics) and two timeline samples without a
 * temperature (no sensor, as on the null backend); tests change what they
 * look at. */
static inline void dmk_test_build_result(DmkRunResult *r, DmkTestResult *t, DmkPassResult *passes,
                                         DmkSample *samples, const char *comment)
{
    memset(r, 0, sizeof *r);
    memset(t, 0, sizeof *t);
    memset(passes, 0, 2 * sizeof *passes);
    snprintf(r->version, sizeof r->version, "0.1.0");
    snprintf(r->date, sizeof r->date, "2026-11-30T06:35:13Z");
    snprintf(r->os, sizeof r->os, "Linux 6.1.0 x86_64");
    snprintf(r->backend, sizeof r->backend, "null");
    snprintf(r->profile, sizeof r->profile, "default");
    snprintf(r->comment, sizeof r->comment, "%s", comment);
    snprintf(r->target.path, sizeof r->target.path, "/mnt/data, with a comma");
    snprintf(r->target.fs_type, sizeof r->target.fs_type, "ext4");
    snprintf(r->target.model, sizeof r->target.model, "Samsung SSD 970 EVO Plus 1TB");
    r->target.capacity_bytes = 1000204886016ULL;
    r->target.fs_free_bytes = 123456789ULL;
    r->size = 1ULL << 30;
    r->passes = 2;
    r->measure_s = 5;
    r->warmup_s = 2.5;
    r->interval_s = 0;
    r->data = DMK_DATA_ZERO;
    r->complete = true;
    r->n_tests = 1;
    r->tests = t;

    DmkJob j;
    dmk_job_parse_name("RND4K Q32T1", &j, NULL);
    snprintf(t->test.name, sizeof t->test.name, "RND4K Q32T1");
    t->test.mode = DMK_MODE_MIX;
    t->test.n_jobs = 1;
    t->test.jobs[0] = j;
    t->test.jobs[0].read_share = 70;
    t->n_passes = 2;
    t->passes = passes;
    passes[0].total = (DmkStats){.ios = 100000,
                                 .bytes = 409600000,
                                 .seconds = 5,
                                 .mb_s = 81.92,
                                 .iops = 20000,
                                 .lat_mean_us = 1599.5,
                                 .lat_p99_us = 3000.25};
    passes[0].read = (DmkStats){.mb_s = 57.344, .iops = 14000, .lat_p99_us = 3100};
    passes[0].write = (DmkStats){.mb_s = 24.576, .iops = 6000, .lat_p99_us = 2900};
    passes[1].total = (DmkStats){.ios = 200000,
                                 .bytes = 819200000,
                                 .seconds = 5,
                                 .mb_s = 163.84,
                                 .iops = 40000,
                                 .lat_mean_us = 799.75,
                                 .lat_p99_us = 1234.5678};
    passes[1].read = (DmkStats){.ios = 140000,
                                .bytes = 573440000,
                                .mb_s = 114.688,
                                .iops = 28000,
                                .lat_mean_us = 800.5,
                                .lat_p99_us = 1300};
    passes[1].write = (DmkStats){.ios = 60000,
                                 .bytes = 245760000,
                                 .mb_s = 49.152,
                                 .iops = 12000,
                                 .lat_mean_us = 797.25,
                                 .lat_p99_us = 1100};
    dmk_test_result_summarize(t);
    samples[0] = (DmkSample){
        .t_s = 0.5, .mb_s = 100.0, .iops = 24414.0625, .lat_mean_us = 5.5, .temp_c = NAN};
    samples[1] = (DmkSample){
        .t_s = 1.0, .mb_s = 200.0, .iops = 48828.125, .lat_mean_us = 2.25, .temp_c = NAN};
    t->n_samples = 2;
    t->samples = samples;
}

#define DMK_TEST_LAB_SAMPLES 50

/* The temperature of lab sample i: every fourth has none (NaN), the rest
 * include 41.0 first, 79.5 last and one below zero. */
static inline double dmk_test_lab_temp(size_t i)
{
    if (i % 4 == 2)
        return NAN;
    if (i == 0)
        return 41.0;
    if (i == DMK_TEST_LAB_SAMPLES - 1)
        return 79.5;
    if (i == 9)
        return -12.5;
    return 41.0 + (double)i * 0.7; /* not exact in binary: the cell rounds it */
}

/* The fixture as a review-lab run leaves it: a sustained write stopped
 * during its one pass (partial), after TRIM, rate-limited, on a span over
 * DMK_SIZE_MAX, with a temperature sensor and DMK_TEST_LAB_SAMPLES
 * samples (samples holds that many). */
static inline void dmk_test_build_lab_result(DmkRunResult *r, DmkTestResult *t,
                                             DmkPassResult *passes, DmkSample *samples)
{
    dmk_test_build_result(r, t, passes, samples, "lab run");
    snprintf(r->profile, sizeof r->profile, "sustained");
    snprintf(r->lab, sizeof r->lab, "sustained");
    snprintf(r->lab_note, sizeof r->lab_note,
             "TRIM: 2.00 GiB punched, \"fstrim\" not permitted, as a user");
    snprintf(r->target.temp_sensor, sizeof r->target.temp_sensor, "nvme0 Composite (hwmon2)");
    r->target.discard = 1;
    r->size = 2000398934016ULL; /* a whole 2 TB drive */
    r->passes = 5;              /* the run's setting; the lab step ran one pass */
    r->complete = false;

    snprintf(t->test.label, sizeof t->test.label, "after TRIM");
    t->test.mode = DMK_MODE_WRITE;
    t->test.jobs[0].read_share = 0;
    t->test.rate_iops = 12345;
    t->partial = true;
    t->n_passes = 1;
    passes[0].read = (DmkStats){0};
    dmk_test_result_summarize(t);
    for (size_t i = 0; i < DMK_TEST_LAB_SAMPLES; i++)
        samples[i] = (DmkSample){.t_s = 0.5 * (double)(i + 1),
                                 .mb_s = 80.0 + (double)(i % 7) * 1.125,
                                 .iops = 19531.25 + (double)i,
                                 .lat_mean_us = 1600.5 + (double)(i % 3),
                                 .temp_c = dmk_test_lab_temp(i)};
    t->n_samples = DMK_TEST_LAB_SAMPLES;
}

#endif
