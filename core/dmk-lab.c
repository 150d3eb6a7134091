/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-lab-findings.h"
#include "dmk-i18n.h"
#include "dmk-lab-private.h"
#include "dmk-runner.h"
#include "dmk-surface.h"
#include "dmk-sweep.h"
#include "dmk-text.h"
#include "dmk-trace.h"

const uint32_t dmk_lab_ramp_pct[DMK_LAB_RAMP_STEPS] = {10, 20, 30, 40,  50, 60,
                                                       70, 80, 90, 100, 120};
const uint32_t dmk_lab_mix_share[DMK_LAB_MIX_STEPS] = {0, 20, 40, 60, 80, 100};

/* ---- the settings ------------------------------------------------------------ */

static const DmkLabParam params[DMK_LAB_N_PARAMS] = {
    [DMK_LAB_P_JOB] = {DMK_LAB_P_JOB, "test", "NAME", DMK_LAB_VALUE_JOB, 0, 0, true,
                       DMK_N_("the write, by CrystalDiskMark's name"), ""},
    [DMK_LAB_P_DURATION] = {DMK_LAB_P_DURATION, "duration", "SECONDS", DMK_LAB_VALUE_SECONDS, 1,
                            DMK_SECONDS_MAX, false,
                            DMK_N_("sustained: the write's length (default: 2h); recovery: the "
                                   "degradation's (default: 30m)"),
                            ""},
    [DMK_LAB_P_SPAN] = {DMK_LAB_P_SPAN, "size", "SIZE", DMK_LAB_VALUE_SIZE, (double)DMK_SIZE_MIN,
                        (double)DMK_LAB_SIZE_MAX, true,
                        DMK_N_("the test file, or the amount a full-span write writes"), ""},
    [DMK_LAB_P_MARGIN] = {DMK_LAB_P_MARGIN, "margin", "SIZE", DMK_LAB_VALUE_SIZE,
                          (double)(1ULL << 20), (double)DMK_LAB_SIZE_MAX, false,
                          DMK_N_("fullspan without --size: space left free (default: 2GiB)"), ""},
    [DMK_LAB_P_STEP] =
        {DMK_LAB_P_STEP, "step", "SECONDS", DMK_LAB_VALUE_SECONDS, 0.1, DMK_SECONDS_MAX, false,
         DMK_N_("mixed, latency: each point (default: 20); recovery: each probe (default: 60)"),
         ""},
    [DMK_LAB_P_WARMUP] = {DMK_LAB_P_WARMUP, "warmup", "SECONDS", DMK_LAB_VALUE_SECONDS, 0,
                          DMK_SECONDS_MAX, true, DMK_N_("warm-up before each step"), ""},
    [DMK_LAB_P_QD] = {DMK_LAB_P_QD, "qd", "N", DMK_LAB_VALUE_COUNT, 1, DMK_SWEEP_QD_MAX, true,
                      DMK_N_("outstanding I/Os per thread"), ""},
    [DMK_LAB_P_IDLE] = {DMK_LAB_P_IDLE, "idle", "SECONDS", DMK_LAB_VALUE_SECONDS, 0,
                        DMK_SECONDS_MAX, false,
                        DMK_N_("recovery: idle time before the after-idle probe (default: 15m)"),
                        ""},
    [DMK_LAB_P_SETTLE] =
        {DMK_LAB_P_SETTLE, "settle", "SECONDS", DMK_LAB_VALUE_SECONDS, 0, DMK_SECONDS_MAX, false,
         DMK_N_(
             "idle after filling the test file, so the drive can empty its cache first (default: "
             "5m for sustained and recovery, 0 for mixed and latency; fullspan does not fill)"),
         " (it does not fill the file first)"},
    [DMK_LAB_P_SAMPLE] = {DMK_LAB_P_SAMPLE, "sample", "SECONDS", DMK_LAB_VALUE_SECONDS,
                          DMK_LAB_SAMPLE_MIN, DMK_LAB_SAMPLE_MAX, false,
                          DMK_N_("the timeline's sample interval, 0.1-60 (default: 1)"), ""},
    [DMK_LAB_P_SAMPLES] =
        {DMK_LAB_P_SAMPLES, "samples", "N", DMK_LAB_VALUE_COUNT, 2, DMK_SURFACE_SAMPLES_MAX, false,
         DMK_N_("surface: read-rate samples spread over the device, 2-200 (default: 100)"), ""},
    [DMK_LAB_P_SAMPLE_SIZE] =
        {DMK_LAB_P_SAMPLE_SIZE, "sample-size", "SIZE", DMK_LAB_VALUE_SIZE, (double)(1ULL << 20),
         (double)DMK_SURFACE_SAMPLE_SIZE_MAX, false,
         DMK_N_("surface: the bytes each sample reads, 1MiB-64MiB (default: 10MiB)"), ""},
    [DMK_LAB_P_ACCESSES] =
        {DMK_LAB_P_ACCESSES, "accesses", "N", DMK_LAB_VALUE_COUNT, 1, DMK_SURFACE_ACCESSES_MAX,
         false,
         DMK_N_("surface: random 4 KiB reads timed for the access time, 1-100000 (default: 1000)"),
         ""},
    [DMK_LAB_P_TRACE] = {DMK_LAB_P_TRACE, "trace", "FILE", DMK_LAB_VALUE_PATH, 0, 0, false,
                         DMK_N_("trace: the block trace to replay, an fio iolog (v2 or v3)"), ""},
    [DMK_LAB_P_TRACE_IDLE] = {DMK_LAB_P_TRACE_IDLE, "trace-idle-max", "SECONDS",
                              DMK_LAB_VALUE_SECONDS, 0, DMK_LAB_TRACE_IDLE_MAX, false,
                              DMK_N_("trace: idle gaps longer than this are cut to it, 0-60 "
                                     "(default: 0.005, that is 5 ms)"),
                              ""},
};

const DmkLabParam *dmk_lab_param(DmkLabParamId id)
{
    return (unsigned)id < DMK_LAB_N_PARAMS ? &params[id] : NULL;
}

const DmkLabParam *dmk_lab_param_find(const char *name)
{
    for (size_t i = 0; name && i < DMK_LAB_N_PARAMS; i++)
        if (strcmp(name, params[i].name) == 0)
            return &params[i];
    return NULL;
}

double *dmk_lab_seconds_of(DmkLabParams *p, DmkLabParamId id)
{
    switch (id) {
    case DMK_LAB_P_DURATION:
        return &p->duration_s;
    case DMK_LAB_P_SAMPLE:
        return &p->sample_s;
    case DMK_LAB_P_STEP:
        return &p->step_s;
    case DMK_LAB_P_IDLE:
        return &p->idle_s;
    case DMK_LAB_P_SETTLE:
        return &p->settle_s;
    case DMK_LAB_P_WARMUP:
        return &p->warmup_s;
    case DMK_LAB_P_TRACE_IDLE:
        return &p->trace_idle_s;
    default:
        return NULL;
    }
}

uint64_t *dmk_lab_size_of(DmkLabParams *p, DmkLabParamId id)
{
    switch (id) {
    case DMK_LAB_P_SPAN:
        return &p->span;
    case DMK_LAB_P_MARGIN:
        return &p->margin;
    case DMK_LAB_P_SAMPLE_SIZE:
        return &p->sample_size;
    default:
        return NULL;
    }
}

uint32_t *dmk_lab_count_of(DmkLabParams *p, DmkLabParamId id)
{
    return id == DMK_LAB_P_SAMPLES ? &p->samples : id == DMK_LAB_P_ACCESSES ? &p->accesses : NULL;
}

char *dmk_lab_path_of(DmkLabParams *p, DmkLabParamId id, size_t *len)
{
    if (id != DMK_LAB_P_TRACE)
        return NULL;
    *len = sizeof p->trace;
    return p->trace;
}

/* ---- the form's rows ---------------------------------------------------------- */

static const double durations[] = {60, 600, 1800, 3600, 7200, 43200};
static const double degradations[] = {600, 1800, 3600, 7200};
static const double samples[] = {0.1, 0.5, 1, 5, 10, 60};
static const double steps[] = {5, 10, 20, 30, 60, 180};
static const double probes[] = {30, 60, 180};
static const double warmups[] = {0, 1, 2, 5, 10};
static const double idles[] = {60, 300, 900, 1800, 3600};
static const double settles[] = {0, 60, 300, 900};
static const char *const write_jobs[] = {
    "RND4K Q32T1", "RND4K Q1T1", "RND4K Q32T16", "SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1", NULL};
static const char *const seq_jobs[] = {"SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1", NULL};

#define N(a)       (sizeof(a) / sizeof(a)[0])
#define PRESETS(a) a, N(a), NULL

/* Rows several tests share, written once (xgettext reads the macros'
 * bodies, so their texts stay in the template). */
#define SPAN_FIELD                                                                             \
    {                                                                                          \
        DMK_LAB_P_SPAN, DMK_N_("Test fi_le"),                                                  \
            DMK_N_("The test file: the area written over, again and again"), NULL, 0, NULL, 0, \
            DMK_N_("Regi_on"),                                                                 \
            DMK_N_("The region of the device: its first bytes, written over again and again")  \
    }
#define SETTLE_FIELD                                                                              \
    {                                                                                             \
        DMK_LAB_P_SETTLE, DMK_N_("Settle _time"),                                                 \
            DMK_N_("Idle after the test file is written, for the drive to empty its cache first " \
                   "(pick "                                                                       \
                   "one, or type e.g. 90 s, 45 min, 3 h or 1:30:00)"),                            \
            PRESETS(settles), 0, NULL,                                                            \
            DMK_N_("Idle after the region is written, for the drive to empty its cache first "    \
                   "(pick one, "                                                                  \
                   "or type e.g. 90 s, 45 min, 3 h or 1:30:00)")                                  \
    }
#define SAMPLE_FIELD                                                                               \
    {                                                                                              \
        DMK_LAB_P_SAMPLE, DMK_N_("Sample _every"),                                                 \
            DMK_N_("How often speed and temperature are recorded: 0.1 to 60 s"), PRESETS(samples), \
            0                                                                                      \
    }

/* The labels and tips are English here (DMK_N_), translated where the
 * form shows them. A raw device has no test file: its first span bytes
 * are the region, with a label and tip of their own. */
static const DmkLabField sustained_fields[] = {
    {DMK_LAB_P_JOB, DMK_N_("_Write test"),
     DMK_N_(
         "What is written, by CrystalDiskMark's name: pattern, block size, queue depth, threads"),
     NULL, 0, write_jobs, 0},
    {DMK_LAB_P_DURATION, DMK_N_("_Duration"),
     DMK_N_("How long to write (pick one, or type e.g. 90 s, 45 min, 3 h or 1:30:00)"),
     PRESETS(durations), 0},
    SPAN_FIELD,
    SETTLE_FIELD,
    SAMPLE_FIELD,
};
static const DmkLabField fullspan_fields[] = {
    {DMK_LAB_P_JOB, DMK_N_("_Write test"),
     DMK_N_(
         "What is written, by CrystalDiskMark's name: pattern, block size, queue depth, threads"),
     NULL, 0, seq_jobs, 0},
    {DMK_LAB_P_SPAN, DMK_N_("A_mount"),
     DMK_N_("How much to write: the free space (2 GiB are left free), or a size"), NULL, 0, NULL,
     DMK_LAB_FIELD_FREE_SPACE, NULL,
     DMK_N_("How much of the device to write: all of it, or its first bytes")},
    SAMPLE_FIELD,
};
static const DmkLabField mixed_fields[] = {
    {DMK_LAB_P_STEP, DMK_N_("Ste_p time"),
     DMK_N_("How long each read share is measured (pick one, or type e.g. 90 s, 45 min, 3 h or "
            "1:30:00)"),
     PRESETS(steps), 0},
    {DMK_LAB_P_WARMUP, DMK_N_("W_arm-up"),
     DMK_N_("Discarded before each step (pick one, or type e.g. 90 s, 45 min, 3 h or 1:30:00)"),
     PRESETS(warmups), 0},
    {DMK_LAB_P_QD, DMK_N_("_QD per thread"),
     DMK_N_("Outstanding I/Os of each thread (the reviews: 1)"), NULL, 0, NULL, 0},
    SPAN_FIELD,
};
static const DmkLabField latency_fields[] = {
    {DMK_LAB_P_STEP, DMK_N_("Ste_p time"),
     DMK_N_("How long each load step is measured (pick one, or type e.g. 90 s, 45 min, 3 h or "
            "1:30:00)"),
     PRESETS(steps), 0},
    {DMK_LAB_P_WARMUP, DMK_N_("W_arm-up"),
     DMK_N_("Discarded before each step (pick one, or type e.g. 90 s, 45 min, 3 h or 1:30:00)"),
     PRESETS(warmups), 0},
    SPAN_FIELD,
};
/* Small sets for a quick look, the reviews' 8 GiB, and larger. */
static const double set_sizes[] = {256.0 * (1 << 20), 1024.0 * (1 << 20), 2.0 * (1 << 30),
                                   4.0 * (1 << 30),   8.0 * (1 << 30),    16.0 * (1 << 30)};
static const DmkLabField files_fields[] = {
    {DMK_LAB_P_SPAN, DMK_N_("Set si_ze"),
     DMK_N_("The size of each file set (ISO, Program, Work); the reviews use 8 GB. Eight times "
            "this must be free: the sets, their copies, the archive and the extracted set"),
     PRESETS(set_sizes), 0},
};
static const DmkLabField recovery_fields[] = {
    {DMK_LAB_P_JOB, DMK_N_("_Write test"),
     DMK_N_(
         "What is written, by CrystalDiskMark's name: pattern, block size, queue depth, threads"),
     NULL, 0, write_jobs, 0},
    {DMK_LAB_P_DURATION, DMK_N_("_Degradation"),
     DMK_N_("How long to write to wear the drive down (pick one, or type e.g. 90 s, 45 min, 3 h or "
            "1:30:00)"),
     PRESETS(degradations), 0},
    {DMK_LAB_P_STEP, DMK_N_("_Probe time"),
     DMK_N_("How long each probe (fresh, degraded ...) measures (pick one, or type e.g. 90 s, 45 "
            "min, 3 h or 1:30:00)"),
     PRESETS(probes), 0},
    {DMK_LAB_P_IDLE, DMK_N_("_Idle time"),
     DMK_N_("Idle before the after-idle probe, for the drive to clean up (pick one, or type e.g. "
            "90 s, 45 min, 3 h or 1:30:00)"),
     PRESETS(idles), 0},
    SPAN_FIELD,
    SETTLE_FIELD,
    SAMPLE_FIELD,
};

static const DmkLabField surface_fields[] = {
    {DMK_LAB_P_SAMPLES, DMK_N_("_Samples"),
     DMK_N_("Read-rate samples spread evenly over the whole device"), NULL, 0, NULL, 0},
    {DMK_LAB_P_SAMPLE_SIZE, DMK_N_("Sample si_ze"),
     DMK_N_("The bytes each sample reads, in one read"), NULL, 0, NULL, 0},
    {DMK_LAB_P_ACCESSES, DMK_N_("_Accesses"),
     DMK_N_("Random 4 KiB reads at places all over the device, each timed"), NULL, 0, NULL, 0},
};

static const double trace_idles[] = {0, 0.001, 0.005, 0.1, 1};
static const double trace_sizes[] = {1024.0 * (1 << 20), 4.0 * (1 << 30), 8.0 * (1 << 30),
                                     32.0 * (1 << 30)};
static const DmkLabField trace_fields[] = {
    {DMK_LAB_P_TRACE, DMK_N_("T_race file"),
     DMK_N_("The block trace to replay: an fio iolog (version 2 or 3), e.g. one of the "
            "project's data/traces"),
     NULL, 0, NULL, 0},
    {DMK_LAB_P_TRACE_IDLE, DMK_N_("Idle _threshold"),
     DMK_N_("Idle gaps longer than this are cut to it, in seconds (default: 5 ms, 0.005)"),
     PRESETS(trace_idles), 0},
    {DMK_LAB_P_SPAN, DMK_N_("Test fi_le"),
     DMK_N_("The test file the trace's offsets are mapped into, written in full first"),
     PRESETS(trace_sizes), 0, DMK_N_("Regi_on"),
     DMK_N_("The region of the device: its first bytes, written over again and again")},
};

/* ---- building the runs ------------------------------------------------------ */

static void sustained_defaults(DmkLabParams *p)
{
    p->job = (DmkJob){DMK_PATTERN_RND, 4096, 32, 1, 0};
    p->duration_s = 7200.0;
    p->settle_s = 300.0;
}

static void fullspan_defaults(DmkLabParams *p)
{
    p->job = (DmkJob){DMK_PATTERN_SEQ, 1u << 20, 8, 1, 0};
    p->span = 0;
    p->margin = 2ULL << 30;
}

/* Mixed and latency: each step after a short warm-up. */
static void stepped_defaults(DmkLabParams *p)
{
    p->warmup_s = 2.0;
}

static void recovery_defaults(DmkLabParams *p)
{
    p->job = (DmkJob){DMK_PATTERN_RND, 4096, 32, 1, 0};
    p->duration_s = 1800.0;
    p->step_s = 60.0;
    p->idle_s = 900.0;
    p->settle_s = 300.0;
}

static void files_defaults(DmkLabParams *p)
{
    p->span = 8ULL << 30; /* the reviews' 8 GB per set */
}

static void trace_defaults(DmkLabParams *p)
{
    p->span = 8ULL << 30; /* room for a desktop trace's working set */
    p->trace_idle_s = DMK_LAB_TRACE_IDLE_S;
}

static DmkTest *add_test(DmkRunSpec *spec, const DmkJob *job, DmkMode mode, const char *label)
{
    DmkError ignored; /* a lab run has at most 48 of the spec's 256 tests */
    dmk_run_spec_add(spec, job, mode, job->read_share, &ignored);
    DmkTest *t = &spec->tests[spec->n_tests - 1];
    snprintf(t->label, sizeof t->label, "%s", label);
    return t;
}

static void build_sustained(const DmkLabParams *p, DmkRunSpec *spec)
{
    DmkTest *t = add_test(spec, &p->job, DMK_MODE_WRITE, "sustained");
    t->measure_s = p->duration_s;
}

/* One sequential pass over the file: it ends by bytes, not time. */
static void build_fullspan(const DmkLabParams *p, DmkRunSpec *spec)
{
    DmkJob job = p->job;
    job.threads = 1;
    DmkTest *t = add_test(spec, &job, DMK_MODE_WRITE, "full span");
    t->limit_bytes = p->span ? p->span : DMK_LAB_SIZE_MAX;
    spec->free_margin = p->span ? 0 : p->margin;
}

static void build_mixed(const DmkLabParams *p, DmkRunSpec *spec)
{
    /* The reviews' Iometer set: independent workers, each its own slice. */
    const DmkJob jobs[2] = {{DMK_PATTERN_SEQ, 128u << 10, p->mixed_qd, 2, 0},
                            {DMK_PATTERN_RND, 4096, p->mixed_qd, 4, 0}};
    for (int j = 0; j < 2; j++) {
        for (int k = 0; k < DMK_LAB_MIX_STEPS; k++) {
            DmkJob job = jobs[j];
            job.read_share = dmk_lab_mix_share[k];
            char label[32];
            snprintf(label, sizeof label, "%u %% read", dmk_lab_mix_share[k]);
            add_test(spec, &job, DMK_MODE_MIX, label)->measure_s = p->step_s;
        }
    }
}

static void build_latency(const DmkLabParams *p, DmkRunSpec *spec)
{
    /* StorageReview's VDBench profiles: outstanding I/O, one worker. */
    static const struct {
        DmkJob job;
        DmkMode mode;
    } profiles[DMK_LAB_LAT_PROFILES] = {
        {{DMK_PATTERN_RND, 4096, 128, 1, 100}, DMK_MODE_READ},
        {{DMK_PATTERN_RND, 4096, 64, 1, 0}, DMK_MODE_WRITE},
        {{DMK_PATTERN_SEQ, 64u << 10, 16, 1, 100}, DMK_MODE_READ},
        {{DMK_PATTERN_SEQ, 64u << 10, 8, 1, 0}, DMK_MODE_WRITE},
    };
    for (int i = 0; i < DMK_LAB_LAT_PROFILES; i++) {
        uint32_t max_index = (uint32_t)spec->n_tests + 1; /* 1-based */
        add_test(spec, &profiles[i].job, profiles[i].mode, "max")->measure_s = p->step_s;
        for (int k = 0; k < DMK_LAB_RAMP_STEPS; k++) {
            char label[32];
            snprintf(label, sizeof label, "%u %%", dmk_lab_ramp_pct[k]);
            DmkTest *t = add_test(spec, &profiles[i].job, profiles[i].mode, label);
            t->measure_s = p->step_s;
            t->rate_ref = max_index;
            t->rate_pct = dmk_lab_ramp_pct[k];
        }
    }
}

static void build_recovery(const DmkLabParams *p, DmkRunSpec *spec)
{
    add_test(spec, &p->job, DMK_MODE_WRITE, "fresh")->measure_s = p->step_s;
    add_test(spec, &p->job, DMK_MODE_WRITE, "degradation")->measure_s = p->duration_s;
    add_test(spec, &p->job, DMK_MODE_WRITE, "degraded")->measure_s = p->step_s;
    DmkTest *idle = add_test(spec, &p->job, DMK_MODE_WRITE, "after idle");
    idle->measure_s = p->step_s;
    idle->idle_before_s = p->idle_s;
    DmkTest *trim = add_test(spec, &p->job, DMK_MODE_WRITE, "after TRIM");
    trim->measure_s = p->step_s;
    trim->trim_before = true;
}

static void surface_defaults(DmkLabParams *p)
{
    p->span = 0; /* the whole device */
    p->samples = DMK_SURFACE_SAMPLES;
    p->sample_size = DMK_SURFACE_SAMPLE_SIZE;
    p->accesses = DMK_SURFACE_ACCESSES;
}

/* Reads only: each sample one read of sample_size (GNOME Disks reads a
 * sample so), placed by the runner once it knows the device's size; then
 * the random reads, each kept with its place (dmk-surface.h). */
static void build_surface(const DmkLabParams *p, DmkRunSpec *spec)
{
    DmkJob seq = {DMK_PATTERN_SEQ, (uint32_t)p->sample_size, 1, 1, 100};
    for (uint32_t i = 0; i < p->samples; i++) {
        DmkTest *t = add_test(spec, &seq, DMK_MODE_READ, "sample");
        t->limit_bytes = p->sample_size;
        t->spread_index = i;
        t->spread_count = p->samples;
    }
    DmkJob rnd = {DMK_PATTERN_RND, DMK_SURFACE_ACCESS_BS, 1, 1, 100};
    DmkTest *t = add_test(spec, &rnd, DMK_MODE_READ, "access");
    t->limit_bytes = (uint64_t)p->accesses * DMK_SURFACE_ACCESS_BS;
    t->keep_ios = p->accesses;
    /* Each test is one read or a few: no timeline to sample, no warm-up
     * (it would take the reads the test counts). */
    spec->timeline_s = 0;
    spec->warmup_s = 0;
}

/* ---- the tests ----------------------------------------------------------------- */

#define FIELDS(a) a, N(a)
#define COMMON \
    (DMK_LAB_P(DMK_LAB_P_SPAN) | DMK_LAB_P(DMK_LAB_P_WARMUP) | DMK_LAB_P(DMK_LAB_P_SAMPLE))

static const DmkLabTest tests[] = {
    {DMK_LAB_SUSTAINED, "sustained", DMK_N_("Sustained write"),
     DMK_N_("A long write that finds the SLC cache: speed against data written, the cliff where "
            "the cache runs out, the steady speed after it, and the drive's temperature where a "
            "sensor can be read."),
     COMMON | DMK_LAB_P(DMK_LAB_P_JOB) | DMK_LAB_P(DMK_LAB_P_DURATION) |
         DMK_LAB_P(DMK_LAB_P_SETTLE),
     FIELDS(sustained_fields), true, true, sustained_defaults, build_sustained,
     dmk_lab_describe_sustained, dmk_lab_report_first_timeline, "speed zoom temperature",
     dmk_lab_findings_first_timeline},
    {DMK_LAB_FULLSPAN, "fullspan", DMK_N_("Full-span write"),
     DMK_N_("One sequential write across the free space, as AIDA64's linear write: the cache, the "
            "cliff and the native speed of the whole drive."),
     COMMON | DMK_LAB_P(DMK_LAB_P_JOB) | DMK_LAB_P(DMK_LAB_P_MARGIN), FIELDS(fullspan_fields), true,
     false, fullspan_defaults, build_fullspan, dmk_lab_describe_fullspan,
     dmk_lab_report_first_timeline, "speed zoom temperature", dmk_lab_findings_first_timeline},
    {DMK_LAB_MIXED, "mixed", DMK_N_("Mixed load"),
     DMK_N_("Reads and writes at once, from 0 to 100 % reads: sequential 128 KiB with two threads, "
            "then random 4 KiB with four, as the reviews' Iometer runs."),
     COMMON | DMK_LAB_P(DMK_LAB_P_STEP) | DMK_LAB_P(DMK_LAB_P_QD) | DMK_LAB_P(DMK_LAB_P_SETTLE),
     FIELDS(mixed_fields), false, true, stepped_defaults, build_mixed, dmk_lab_describe_mixed,
     dmk_lab_report_mixed, "mixed mixed-average", dmk_lab_findings_mixed},
    {DMK_LAB_LATENCY, "latency", DMK_N_("Latency under load"),
     /* xgettext:no-c-format */
     DMK_N_("Four workloads, each at full speed and then held to 10 to 120 % of it: mean and "
            "99th-percentile latency against IOPS, as StorageReview shows."),
     COMMON | DMK_LAB_P(DMK_LAB_P_STEP) | DMK_LAB_P(DMK_LAB_P_SETTLE), FIELDS(latency_fields),
     false, true, stepped_defaults, build_latency, dmk_lab_describe_latency, dmk_lab_report_latency,
     "latency", dmk_lab_findings_latency},
    {DMK_LAB_RECOVERY, "recovery", DMK_N_("Recovery"),
     DMK_N_("Fresh, then worn down by a long random write, then after idle time and after TRIM: "
            "how far the drive falls and how well it recovers."),
     COMMON | DMK_LAB_P(DMK_LAB_P_JOB) | DMK_LAB_P(DMK_LAB_P_DURATION) | DMK_LAB_P(DMK_LAB_P_STEP) |
         DMK_LAB_P(DMK_LAB_P_IDLE) | DMK_LAB_P(DMK_LAB_P_SETTLE),
     FIELDS(recovery_fields), true, true, recovery_defaults, build_recovery,
     dmk_lab_describe_recovery, dmk_lab_report_recovery, "recovery speed zoom temperature",
     dmk_lab_findings_recovery},
    {DMK_LAB_SURFACE, "surface", DMK_N_("Surface scan"),
     DMK_N_(
         "GNOME Disks' benchmark of a whole device, reading only: the read rate of samples spread "
         "from its first byte to its last, and the access time of random reads all over it."),
     DMK_LAB_P(DMK_LAB_P_SAMPLES) | DMK_LAB_P(DMK_LAB_P_SAMPLE_SIZE) |
         DMK_LAB_P(DMK_LAB_P_ACCESSES),
     FIELDS(surface_fields), false, false, surface_defaults, build_surface,
     dmk_lab_describe_surface, dmk_lab_report_surface, "surface-rate surface-access", NULL, true},
    {DMK_LAB_FILES, "files", DMK_N_("File copy and archive"),
     DMK_N_("The reviews' real-world test: an ISO, a Program and a Work file set copied within the "
            "drive as applications copy, until the copies are on the drive; then the Work set "
            "archived into a Deflate .zip and extracted, with the CPU time beside the wall time."),
     DMK_LAB_P(DMK_LAB_P_SPAN), FIELDS(files_fields), false, false, files_defaults,
     dmk_lab_build_files, dmk_lab_describe_files, dmk_lab_report_files, "files",
     dmk_lab_findings_files, false, dmk_lab_files_run},
    {DMK_LAB_TRACE, "trace", DMK_N_("Trace replay"),
     DMK_N_("A recorded block trace (fio iolog) replayed against the test file with its idle "
            "gaps cut short, as PCMark 8 and Tom's Hardware score theirs: average bandwidth and "
            "service time over the busy time, reads and writes apart and together."),
     DMK_LAB_P(DMK_LAB_P_SPAN) | DMK_LAB_P(DMK_LAB_P_TRACE) | DMK_LAB_P(DMK_LAB_P_TRACE_IDLE),
     FIELDS(trace_fields), false, false, trace_defaults, dmk_lab_build_trace,
     dmk_lab_describe_trace, dmk_lab_report_trace, "trace", dmk_lab_findings_trace, false,
     dmk_lab_trace_run, true},
};

size_t dmk_lab_test_count(void)
{
    return N(tests);
}

const DmkLabTest *dmk_lab_test_at(size_t i)
{
    return i < N(tests) ? &tests[i] : NULL;
}

const DmkLabTest *dmk_lab_test(DmkLabKind k)
{
    for (size_t i = 0; i < N(tests); i++)
        if (tests[i].kind == k)
            return &tests[i];
    return NULL;
}

const char *dmk_lab_name(DmkLabKind k)
{
    const DmkLabTest *t = dmk_lab_test(k);
    return t ? t->name : "";
}

const char *dmk_lab_title(DmkLabKind k)
{
    const DmkLabTest *t = dmk_lab_test(k);
    return t ? t->title : "";
}

DmkLabKind dmk_lab_from_name(const char *name)
{
    for (size_t i = 0; name && i < N(tests); i++)
        if (strcmp(name, tests[i].name) == 0)
            return tests[i].kind;
    return DMK_LAB_NONE;
}

const char *dmk_lab_names_text(const char *sep, const char *last, char *buf, size_t len)
{
    const char *names[N(tests)];
    for (size_t i = 0; i < N(tests); i++)
        names[i] = tests[i].name;
    return dmk_join_names(names, N(tests), sep, last, buf, len);
}

void dmk_lab_params_init(DmkLabParams *p, DmkLabKind kind)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->sample_s = 1.0;
    p->span = 32ULL << 30; /* the reviews' test area: past any SLC cache of the day */
    p->step_s = 20.0;
    p->mixed_qd = 1;
    const DmkLabTest *t = dmk_lab_test(kind);
    if (t)
        t->defaults(p);
}

/* The surface scan's counts and sample size, against the table's ranges. */
static int check_surface(const DmkLabParams *p, DmkError *err)
{
    const DmkLabParam *n = &params[DMK_LAB_P_SAMPLES], *a = &params[DMK_LAB_P_ACCESSES];
    const DmkLabParam *z = &params[DMK_LAB_P_SAMPLE_SIZE];
    if (p->samples < n->min || p->samples > n->max)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%u samples is out of range (%g to %g)",
                             p->samples, n->min, n->max);
    if (p->accesses < a->min || p->accesses > a->max)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%u accesses is out of range (%g to %g)",
                             p->accesses, a->min, a->max);
    if ((double)p->sample_size < z->min || (double)p->sample_size > z->max || p->sample_size % 4096)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "sample size %llu bytes is out of range (1 MiB to 64 MiB, a multiple "
                             "of 4 KiB)",
                             (unsigned long long)p->sample_size);
    return DMK_OK;
}

static int check_params(const DmkLabParams *p, DmkError *err)
{
    if (!dmk_lab_test(p->kind))
        return dmk_error_set(err, DMK_E_INVAL, 0, "unknown review-lab test %d", (int)p->kind);
    if (!(p->sample_s >= DMK_LAB_SAMPLE_MIN && p->sample_s <= DMK_LAB_SAMPLE_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "sample interval %g s is out of range (%g to %g s)", p->sample_s,
                             DMK_LAB_SAMPLE_MIN, DMK_LAB_SAMPLE_MAX);
    if (p->kind == DMK_LAB_FULLSPAN && p->job.pattern != DMK_PATTERN_SEQ)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "the full-span write is sequential (SEQ...), not random");
    /* The table says which lengths the test has. */
    unsigned applies = dmk_lab_test(p->kind)->params;
    bool timed = applies & DMK_LAB_P(DMK_LAB_P_DURATION);
    bool stepped = applies & DMK_LAB_P(DMK_LAB_P_STEP);
    if (timed && !(p->duration_s >= 0.1 && p->duration_s <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "duration %g s is out of range (0.1 to %g s)",
                             p->duration_s, DMK_SECONDS_MAX);
    if (stepped && !(p->step_s >= 0.1 && p->step_s <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "step time %g s is out of range (0.1 to %g s)",
                             p->step_s, DMK_SECONDS_MAX);
    if (!(p->settle_s >= 0 && p->settle_s <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "settle time %g s is out of range (0 to %g s)",
                             p->settle_s, DMK_SECONDS_MAX);
    if (applies & DMK_LAB_P(DMK_LAB_P_SAMPLES)) {
        int rc = check_surface(p, err);
        if (rc != DMK_OK)
            return rc;
    }
    if ((applies & DMK_LAB_P(DMK_LAB_P_TRACE_IDLE)) &&
        !(p->trace_idle_s >= 0 && p->trace_idle_s <= DMK_LAB_TRACE_IDLE_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "idle threshold %g s is out of range (0 to %g s)",
                             p->trace_idle_s, DMK_LAB_TRACE_IDLE_MAX);
    if ((applies & DMK_LAB_P(DMK_LAB_P_MARGIN)) && p->span == 0 && p->margin == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "a full-span write over the free space needs a safety margin");
    return DMK_OK;
}

/* The spec of p, not yet validated; p is checked. */
static int fill_spec(const DmkLabParams *p, DmkRunSpec *spec, DmkError *err)
{
    int rc = check_params(p, err);
    if (rc != DMK_OK)
        return rc;
    const DmkLabTest *t = dmk_lab_test(p->kind);
    snprintf(spec->lab, sizeof spec->lab, "%s", t->name);
    snprintf(spec->profile, sizeof spec->profile, "%s", t->name);
    spec->sweep[0] = '\0';
    spec->size = p->span;
    spec->free_margin = 0;
    spec->passes = 1;
    spec->measure_s = p->step_s > 0 ? p->step_s : 1.0;
    spec->warmup_s = p->warmup_s;
    spec->interval_s = 0;
    spec->timeline_s = p->sample_s;
    spec->keep_partial = true;
    /* The full span writes every block once, sequentially: no fill. The
     * others fill first and settle (dmk-lab.h says why). */
    spec->no_fill = !t->fills;
    spec->n_tests = 0;
    t->build(p, spec);
    if (!spec->no_fill)
        spec->tests[0].idle_before_s += p->settle_s;
    return DMK_OK;
}

int dmk_lab_build(const DmkLabParams *p, DmkRunSpec *spec, DmkError *err)
{
    const DmkLabTest *t = dmk_lab_test(p->kind);
    if (t && t->device_only && !spec->device)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s reads a whole device, and '%s' is a folder: name a block "
                             "device (e.g. /dev/sdb); the scan only reads, so no data is at risk",
                             DMK_(t->title), spec->dir);
    int rc = fill_spec(p, spec, err);
    return rc != DMK_OK ? rc : dmk_run_spec_validate(spec, 0, err);
}

double dmk_lab_planned_s(const DmkLabParams *p)
{
    DmkRunSpec *spec = malloc(sizeof *spec);
    DmkError err;
    double s = -1;
    if (spec) {
        dmk_run_spec_init(spec);
        if (fill_spec(p, spec, &err) == DMK_OK)
            s = dmk_run_spec_planned_s(spec);
        for (size_t i = 0; spec->n_tests && i < spec->n_tests; i++)
            if (spec->tests[i].limit_bytes && spec->tests[i].measure_s <= 0)
                s = -1; /* its length is the drive's */
        free(spec);
    }
    return s;
}

void dmk_lab_describe(const DmkLabParams *p, char *buf, size_t len)
{
    const DmkLabTest *t = dmk_lab_test(p->kind);
    if (len)
        buf[0] = '\0';
    if (!t || len == 0)
        return;
    t->describe(p, buf, len);
    if (t->fills) {
        size_t used = strlen(buf);
        dmk_lab_describe_fill(p, buf + used, len - used);
    }
}

/* ---- analysis: samples ------------------------------------------------------ */

const char *dmk_lab_metric(const DmkTest *t)
{
    return t->n_jobs > 0 && t->jobs[0].pattern == DMK_PATTERN_RND ? "iops" : "mb_s";
}

static double speed_of(const DmkSample *s, bool iops)
{
    return iops ? s->iops : s->mb_s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), which it sorts. */
static double median_sorted(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static double median_of(const DmkSample *s, size_t from, size_t to, bool iops)
{
    size_t n = to - from;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v || n == 0) {
        free(v);
        return NAN;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = speed_of(&s[from + i], iops);
    double m = median_sorted(v, n);
    free(v);
    return m;
}

/* The one split of the samples into two flat segments that explains
 * them best (least squares), each segment long enough to mean something:
 * the drop of a cache cliff or of throttling is the biggest step in the
 * series. Returns the index of the first sample after the split. */
static size_t best_split(const DmkSample *s, size_t n, bool iops, size_t min_before,
                         size_t min_after)
{
    double total = 0, total2 = 0;
    for (size_t i = 0; i < n; i++) {
        double v = speed_of(&s[i], iops);
        total += v;
        total2 += v * v;
    }
    double sum = 0, best = INFINITY;
    size_t best_k = 0;
    for (size_t k = 1; k < n; k++) {
        sum += speed_of(&s[k - 1], iops);
        if (k < min_before || n - k < min_after)
            continue;
        double a = sum, b = total - sum;
        /* SSE = sum(v^2) - a^2/k - b^2/(n-k): minimise by maximising the rest. */
        double sse = total2 - a * a / (double)k - b * b / (double)(n - k);
        if (sse < best) {
            best = sse;
            best_k = k;
        }
    }
    return best_k;
}

/* A drop is sustained when the two sides barely overlap: nearly every
 * sample after it lies below the midpoint of the two medians, and most
 * before it above, and the speed fell by at least 30 %. Noise on a
 * virtual disk, which swings both ways, fails this. */
static bool sustained_drop(const DmkSample *s, size_t n, size_t k, bool iops, double before,
                           double after)
{
    if (!(before > 0) || !(after >= 0) || after > before * 0.7)
        return false;
    double mid = (before + after) / 2.0;
    size_t above_after = 0, below_before = 0;
    for (size_t i = 0; i < k; i++)
        below_before += speed_of(&s[i], iops) < mid;
    for (size_t i = k; i < n; i++)
        above_after += speed_of(&s[i], iops) > mid;
    return below_before <= k / 4 && above_after <= (n - k) / 10;
}

static double sample_bytes(const DmkSample *s, size_t i)
{
    double t0 = i ? s[i - 1].t_s : 0.0;
    double dt = s[i].t_s - t0;
    return dt > 0 && s[i].mb_s > 0 ? s[i].mb_s * 1e6 * dt : 0.0;
}

static double sample_s(const DmkSample *s, size_t i)
{
    double dt = s[i].t_s - (i ? s[i - 1].t_s : 0.0);
    return dt > 0 ? dt : 0.0;
}

/* One side of a drop: its speed as I/Os (or bytes) over its seconds, the
 * same in MB/s, how much one sample's MB/s varies about it, and how many
 * samples it took. */
typedef struct {
    double v, mb_s, sd_mb_s;
    size_t n;
} Side;

/* The samples [from, to) but `skip`, on their side of `mid` in the metric
 * (above it before the drop, below after): a sample of the other level is
 * a dip or a burst, not this side's speed, which the sides' medians kept
 * out before. With none left, the median. */
static Side side_of(const DmkSample *s, size_t from, size_t to, size_t skip, bool iops, bool above,
                    double mid)
{
    double secs = 0, units = 0, bytes = 0;
    Side d = {0};
    for (size_t i = from; i < to; i++) {
        double v = speed_of(&s[i], iops), dt = sample_s(s, i);
        if (i == skip || dt <= 0 || (above ? v < mid : v > mid))
            continue;
        secs += dt;
        units += v * dt;
        bytes += s[i].mb_s * dt;
        d.n++;
    }
    if (d.n == 0) {
        d.v = median_of(s, from, to, iops);
        d.mb_s = median_of(s, from, to, false);
        return d;
    }
    d.v = units / secs;
    d.mb_s = bytes / secs;
    double sq = 0;
    for (size_t i = from; i < to; i++) {
        double v = speed_of(&s[i], iops), dt = sample_s(s, i);
        if (i != skip && dt > 0 && !(above ? v < mid : v > mid))
            sq += (s[i].mb_s - d.mb_s) * (s[i].mb_s - d.mb_s);
    }
    d.sd_mb_s = d.n > 1 ? sqrt(sq / (double)(d.n - 1)) : 0.0;
    return d;
}

/* A drop found in the samples, placed within the sample it came in. */
typedef struct {
    size_t k;                /* the first sample after the split */
    size_t j;                /* the sample the drop came in: k - 1 or k */
    Side before, after;      /* the two speeds (side_of) */
    double bytes, bytes_err; /* written before the drop, +- */
    double t_s, t_err_s;     /* when, +- */
} Drop;

/* How much of sample i (its time) ran at speed b rather than a, MB/s. */
static double share_at(const DmkSample *s, size_t i, double b, double a)
{
    double f = b > a ? (s[i].mb_s - a) / (b - a) : 1.0;
    return f < 0 ? 0.0 : (f > 1 ? 1.0 : f);
}

/* The sample the drop came in: of the two beside the split, the one whose
 * speed lies further from its own side's (the median's, in MB/s), as a
 * sample that holds the drop lies between the two levels. */
static size_t drop_sample(const DmkSample *s, size_t n, size_t k)
{
    double b = median_of(s, 0, k, false), a = median_of(s, k, n, false);
    return 1.0 - share_at(s, k - 1, b, a) > share_at(s, k, b, a) ? k - 1 : k;
}

/* Where the drop lies in sample j, in bytes: B t of its time t at the
 * speed before B, the rest at A after, so that B t + A (dt - t) is what
 * it wrote. The error: 2 standard deviations of that, from how much one
 * sample's speed varies (the mix of the two sides', at least one I/O in
 * its length: a sample holds whole I/Os) and how well each side's mean
 * is known; at most the sample at speed B, the most it can hide. */
static void place_drop(const DmkSample *s, Drop *d)
{
    size_t j = d->j;
    double dt = sample_s(s, j), before = 0;
    for (size_t i = 0; i < j; i++)
        before += sample_bytes(s, i);
    double B = d->before.mb_s, A = d->after.mb_s, v = s[j].mb_s;
    double f = share_at(s, j, B, A), gap = B - A;
    d->bytes = before + B * 1e6 * f * dt;
    d->t_s = (j ? s[j - 1].t_s : 0.0) + f * dt;
    double io_mb = s[j].iops > 0 ? s[j].mb_s / s[j].iops : 0.0; /* MB per I/O */
    double sd_v =
        fmax(f * d->before.sd_mb_s + (1 - f) * d->after.sd_mb_s, dt > 0 ? io_mb / dt : 0.0);
    double var = 0;
    if (gap > 0 && dt > 0) {
        double dv = B * dt / gap, dA = B * dt * (v - B) / (gap * gap);
        double dB = -dt * (v - A) * A / (gap * gap);
        double se_b = d->before.n ? d->before.sd_mb_s / sqrt((double)d->before.n) : 0.0;
        double se_a = d->after.n ? d->after.sd_mb_s / sqrt((double)d->after.n) : 0.0;
        var = dv * dv * sd_v * sd_v + dA * dA * se_a * se_a + dB * dB * se_b * se_b;
    }
    /* The samples count completions, and the drop is not a clean step in
     * them: what was in flight (Little's law: IOPS x mean latency) at the
     * slow speed leaves a gap before the first slow I/O completes, and
     * the drive may have taken those writes before or after it filled. */
    double inflight = s[j].iops * s[j].lat_mean_us / 1e6 * io_mb;
    d->bytes_err = fmin(2.0 * sqrt(var) + (inflight > 0 ? 2.0 * inflight : 0.0), B * dt) * 1e6;
    d->t_err_s = B > 0 ? d->bytes_err / (B * 1e6) : dt;
}

/* The split and whether it is a sustained drop (the sides' medians
 * decide: a few odd samples cannot); d gets where and the speeds. */
static bool find_drop(const DmkSample *s, size_t n, bool iops, Drop *d)
{
    memset(d, 0, sizeof *d);
    size_t min_after = n / 10 > 5 ? n / 10 : 5;
    d->k = n >= 10 ? best_split(s, n, iops, 3, min_after) : 0;
    if (d->k == 0)
        return false;
    size_t k = d->k;
    double mb = median_of(s, 0, k, iops), ma = median_of(s, k, n, iops);
    if (!sustained_drop(s, n, k, iops, mb, ma))
        return false;
    double mid = (mb + ma) / 2.0;
    d->j = drop_sample(s, n, k);
    /* The run's first sample is its start, a latency in which nothing
     * completes, not the speed before (best_split leaves 3 samples). */
    d->before = side_of(s, 1, k, d->j, iops, true, mid);
    d->after = side_of(s, k, n, d->j, iops, false, mid);
    place_drop(s, d);
    return true;
}

static void steady_state(const DmkSample *s, size_t n, bool iops, DmkLabCliff *out)
{
    size_t from = n - (n / 5 > 5 ? n / 5 : (n < 5 ? n : 5));
    double sum = 0;
    for (size_t i = from; i < n; i++)
        sum += speed_of(&s[i], iops);
    double mean = sum / (double)(n - from), worst = 0;
    size_t within = 0;
    for (size_t i = from; i < n; i++) {
        double dev = fabs(speed_of(&s[i], iops) - mean);
        worst = fmax(worst, dev);
        within += dev <= 0.2 * mean;
    }
    out->steady_mean = mean;
    out->steady_excursion_pct = mean > 0 ? worst / mean * 100.0 : 0.0;
    out->steady_within_pct = 100.0 * (double)within / (double)(n - from);
    out->steady = mean > 0 && out->steady_within_pct >= 90.0;
}

void dmk_lab_cliff(const DmkSample *s, size_t n, const char *metric, DmkLabCliff *out)
{
    memset(out, 0, sizeof *out);
    bool iops = metric && strcmp(metric, "iops") == 0;
    out->n = n;
    for (size_t i = 0; i < n; i++)
        out->total_bytes += sample_bytes(s, i);
    out->before = out->after = NAN;
    if (n < 10)
        return;
    Drop d;
    out->cliff = find_drop(s, n, iops, &d);
    if (out->cliff) {
        out->before = d.before.v;
        out->after = d.after.v;
        out->cache_bytes = d.bytes;
        out->cache_bytes_err = d.bytes_err;
        out->cliff_t_s = d.t_s;
        out->cliff_t_err_s = d.t_err_s;
    }
    steady_state(s, n, iops, out);
}

/* ---- analysis: temperature -------------------------------------------------- */

/* Throttling, as opposed to a cache cliff that happens on a warm drive:
 * the drive heated up by 10 C or more to its maximum, the drop came within
 * 30 s (or a tenth of the time before it) of reaching that maximum, and
 * the temperature stayed there afterwards. */
static bool is_throttle(const DmkSample *s, size_t n, size_t k, double max_c)
{
    double first = NAN, reached_t = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s[i].temp_c))
            continue;
        if (isnan(first))
            first = s[i].temp_c;
        if (isnan(reached_t) && s[i].temp_c >= max_c - 2.0)
            reached_t = s[i].t_s;
    }
    double drop_t = s[k - 1].t_s;
    /* Sensors lag: the maximum may show a second after the drop. */
    double period = n > 1 ? s[1].t_s - s[0].t_s : 1.0;
    if (!(max_c - first >= 10.0) || isnan(reached_t) || reached_t > drop_t + fmax(1.0, 2 * period))
        return false;
    if (reached_t < drop_t && drop_t - reached_t > fmax(30.0, drop_t / 10.0))
        return false;
    size_t hot = 0, known = 0;
    for (size_t i = k; i < n; i++) {
        if (isfinite(s[i].temp_c)) {
            known++;
            hot += s[i].temp_c >= max_c - 3.0;
        }
    }
    return known > 0 && hot * 10 >= known * 8;
}

void dmk_lab_thermal(const DmkSample *s, size_t n, const char *metric, DmkLabThermal *out)
{
    memset(out, 0, sizeof *out);
    out->min_c = out->max_c = out->throttle_c = NAN;
    out->before = out->after = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s[i].temp_c))
            continue;
        out->sensor = true;
        out->min_c = isnan(out->min_c) ? s[i].temp_c : fmin(out->min_c, s[i].temp_c);
        out->max_c = isnan(out->max_c) ? s[i].temp_c : fmax(out->max_c, s[i].temp_c);
    }
    bool iops = metric && strcmp(metric, "iops") == 0;
    Drop d;
    if (!out->sensor || !find_drop(s, n, iops, &d))
        return;
    if (!is_throttle(s, n, d.k, out->max_c))
        return;
    out->throttled = true;
    out->throttle_t_s = d.t_s; /* as dmk_lab_cliff's cliff_t_s: the report compares them */
    out->throttle_t_err_s = d.t_err_s;
    out->throttle_c = out->max_c; /* the sensor lags the drop; its maximum is the limit */
    out->before = d.before.v;
    out->after = d.after.v;
}

/* ---- analysis: results ------------------------------------------------------ */

static bool same_profile(const DmkTest *a, const DmkTest *b)
{
    return strcmp(a->name, b->name) == 0 && a->mode == b->mode;
}

/* The headline's step of profile l (DMK_LAB_PEAK_TOL_PCT): the lowest
 * mean latency within the tolerance of the most IOPS; of equal latencies
 * the more IOPS. */
static void latency_peak(const DmkRunResult *r, DmkLabLatency *l)
{
    double floor_iops = l->best_iops * (1.0 - l->peak_tol_pct / 100.0);
    bool found = false;
    for (size_t i = l->first; i < l->first + l->count; i++) {
        const DmkStats *st = &r->tests[i].score.total;
        if (r->tests[i].n_passes == 0 || !(st->iops > 0) || st->iops < floor_iops)
            continue;
        double lat = st->lat_mean_us / 1000.0;
        if (found && (lat > l->peak_lat_ms || (lat == l->peak_lat_ms && st->iops <= l->peak_iops)))
            continue;
        found = true;
        l->peak_step = i;
        l->peak_iops = st->iops;
        l->peak_lat_ms = lat;
        l->peak_outstanding = st->iops * st->lat_mean_us / 1e6;
    }
}

size_t dmk_lab_latency(const DmkRunResult *r, DmkLabLatency *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_tests && n < max;) {
        DmkLabLatency *l = &out[n++];
        memset(l, 0, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", r->tests[i].test.name);
        l->mode = r->tests[i].test.mode;
        l->first = l->peak_step = i;
        l->max_iops = r->tests[i].score.total.iops;
        l->outstanding_set = (double)dmk_test_inflight(&r->tests[i].test);
        l->peak_tol_pct = DMK_LAB_PEAK_TOL_PCT;
        for (size_t k = 0; k < DMK_LAB_LAT_STEPS; k++)
            l->outstanding[k] = NAN;
        for (; i < r->n_tests && same_profile(&r->tests[i].test, &r->tests[l->first].test); i++) {
            const DmkStats *st = &r->tests[i].score.total;
            l->count++;
            if (r->tests[i].n_passes == 0)
                continue;
            if (l->count <= DMK_LAB_LAT_STEPS)
                l->outstanding[l->count - 1] = st->iops * st->lat_mean_us / 1e6;
            l->best_iops = fmax(l->best_iops, st->iops);
            if (st->lat_mean_us < 1000.0 && st->iops > l->sub_ms_iops) {
                l->sub_ms = true;
                l->sub_ms_iops = st->iops;
            }
        }
        latency_peak(r, l);
    }
    return n;
}

size_t dmk_lab_mixed(const DmkRunResult *r, DmkLabMixed *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_tests && n < max;) {
        DmkLabMixed *m = &out[n++];
        memset(m, 0, sizeof *m);
        snprintf(m->name, sizeof m->name, "%s", r->tests[i].test.name);
        size_t first = i;
        double sum = 0;
        for (; i < r->n_tests && strcmp(r->tests[i].test.name, r->tests[first].test.name) == 0;
             i++) {
            if (m->n == DMK_LAB_MIX_STEPS)
                continue;
            m->share[m->n] = r->tests[i].test.jobs[0].read_share;
            m->mb_s[m->n] = r->tests[i].score.total.mb_s;
            sum += m->mb_s[m->n++];
        }
        m->mean_mb_s = m->n ? sum / (double)m->n : NAN;
    }
    return n;
}

/* The phases' words, English as the files keep the steps' labels (DMK_N_):
 * the report translates them where it shows them. */
static const char *const recovery_labels[4] = {
    /* TRANSLATORS: the recovery test's phases: the drive fresh, degraded by writes, after
       idling, after TRIM. */
    DMK_N_("fresh"), DMK_N_("degraded"), DMK_N_("after idle"), DMK_N_("after TRIM")};

void dmk_lab_recovery(const DmkRunResult *r, DmkLabRecovery *out)
{
    out->metric = "iops";
    for (int k = 0; k < 4; k++) {
        out->label[k] = recovery_labels[k];
        out->value[k] = NAN;
    }
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        out->metric = dmk_lab_metric(&t->test);
        bool iops = strcmp(out->metric, "iops") == 0;
        for (int k = 0; k < 4; k++)
            if (strcmp(t->test.label, recovery_labels[k]) == 0 && t->n_passes)
                out->value[k] = iops ? t->score.total.iops : t->score.total.mb_s;
    }
}

const DmkTestResult *dmk_lab_timeline_test(const DmkRunResult *r)
{
    const DmkTestResult *best = NULL;
    for (size_t i = 0; i < r->n_tests; i++) {
        if (strcmp(r->tests[i].test.label, "degradation") == 0)
            return &r->tests[i];
        if (!best || r->tests[i].n_samples > best->n_samples)
            best = &r->tests[i];
    }
    return best && best->n_samples ? best : NULL;
}
