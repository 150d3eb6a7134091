/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The review-lab tests of docs/methodology.md sections 2-5, built on the
 * ordinary runner: each is a DmkRunSpec (dmk_lab_build) whose tests are
 * its steps, and an analysis of the result that turns samples into what a
 * review reports (cache size, steady state, throttling, "sub-millisecond
 * up to N IOPS"). The analysis reads only a DmkRunResult, so a result
 * loaded from CSV or JSON is analysed exactly as a fresh one.
 *
 *  sustained  one long write (RND4K Q32T1) over a span, sampled every
 *             second: the SLC cache, the cliff and the steady state
 *  fullspan   one sequential write (SEQ1M Q8T1) over the free space (or a
 *             size) that ends by bytes, with the same cliff detection
 *  mixed      read share 0, 20 .. 100 % of sequential 128 KiB with 2
 *             threads, then random 4 KiB with 4 threads
 *  latency    four profiles (4K random read QD128, write QD64, 64K
 *             sequential read QD16, write QD8), each at full speed, then
 *             rate-limited to 10 .. 100 % and 120 % of it
 *  recovery   fresh probe, degradation, degraded probe, idle then probe,
 *             TRIM then probe
 *  surface    GNOME Disks' benchmark of a whole device, reads only: the
 *             read rate of samples spread over it and the access time of
 *             random reads (dmk-surface.h)
 *  files      the reviews' real-world test: three file sets (ISO, Program,
 *             Work) copied within the drive, the Work set archived into
 *             a Deflate .zip and extracted (dmk-fileset.h); not block I/O
 *             on a test file, so it has its own run (DmkLabTest.run)
 *  trace      a block trace (fio iolog, dmk-trace.h) replayed against the
 *             test file, idle gaps cut to a threshold (PCMark's method),
 *             scored over the busy time (its own run too: dmk-lab-trace.c)
 *
 * Every lab run samples the drive's temperature with its timeline where
 * the platform has a sensor. All but the full-span write fill the test
 * file first, as Iometer does: random writes into an allocated but
 * unwritten file would measure the file system converting extents, and
 * split them so finely that removing the file takes many minutes where
 * the file system discards on delete. */
#ifndef DMK_LAB_H
#define DMK_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-result.h"
#include "dmk-spec.h"

typedef enum {
    DMK_LAB_NONE = 0,
    DMK_LAB_SUSTAINED,
    DMK_LAB_FULLSPAN,
    DMK_LAB_MIXED,
    DMK_LAB_LATENCY,
    DMK_LAB_RECOVERY,
    DMK_LAB_SURFACE,
    DMK_LAB_FILES,
    DMK_LAB_TRACE,
} DmkLabKind;

/* The trace test's idle threshold: a gap longer than this is cut to it,
 * as PCMark 8 removes idle time (docs/lab.md says why 5 ms). */
#define DMK_LAB_TRACE_IDLE_S   0.005
#define DMK_LAB_TRACE_IDLE_MAX 60.0

#define DMK_LAB_SAMPLE_MIN 0.1
#define DMK_LAB_SAMPLE_MAX 60.0
/* The latency ramp's steps, in percent of each profile's maximum. */
#define DMK_LAB_RAMP_STEPS 11
extern const uint32_t dmk_lab_ramp_pct[DMK_LAB_RAMP_STEPS];
/* The mixed sweep's read shares. */
#define DMK_LAB_MIX_STEPS 6
extern const uint32_t dmk_lab_mix_share[DMK_LAB_MIX_STEPS];
/* Latency under load profiles. */
#define DMK_LAB_LAT_PROFILES 4

typedef struct {
    DmkLabKind kind;
    DmkJob job;        /* sustained, recovery: the write test; full span: the sequential write */
    double duration_s; /* sustained: the run (7200); recovery: the degradation (1800) */
    double sample_s;   /* timeline period: 1 s (0.1 to 60) */
    uint64_t span;     /* the test file; full span: 0 = the free space but `margin` */
    uint64_t margin;   /* full span: left free on the file system (2 GiB) */
    double step_s;     /* mixed and latency: each point (20 s); recovery: each probe (60 s) */
    double warmup_s;   /* before each step, discarded (mixed, latency: 2 s; else 0) */
    double idle_s;     /* recovery: idle before the after-idle probe (900 s) */
    /* Idle after the test file is filled, before the first step, so the
     * drive can empty its write cache into flash first (the reviews pause
     * between tests): sustained, recovery 300 s; mixed, latency 0. The
     * full-span write does not fill first. */
    double settle_s;
    uint32_t mixed_qd; /* mixed: outstanding I/Os per thread (1) */
    /* The target is a raw device, which has no test file: the test writes
     * over the first `span` bytes of it (all of it for a span of 0).
     * Only dmk_lab_describe reads it (its words); the run's spec says
     * device itself (DmkRunSpec.device, the caller's). */
    bool device;
    /* surface (dmk-surface.h): how many samples of how many bytes spread
     * over the device (100 of 10 MiB), and how many random accesses (1000). */
    uint32_t samples;
    uint64_t sample_size;
    uint32_t accesses;
    /* trace: the trace file replayed, and the idle gaps' threshold (a
     * longer gap is cut to it: DMK_LAB_TRACE_IDLE_S). */
    char trace[1024];
    double trace_idle_s;
} DmkLabParams;

/* ---- the tests, each described once ------------------------------------------ */

/* The settings of DmkLabParams that a test may take. */
typedef enum {
    DMK_LAB_P_DURATION,    /* duration_s */
    DMK_LAB_P_SAMPLE,      /* sample_s */
    DMK_LAB_P_STEP,        /* step_s */
    DMK_LAB_P_IDLE,        /* idle_s */
    DMK_LAB_P_SETTLE,      /* settle_s */
    DMK_LAB_P_MARGIN,      /* margin */
    DMK_LAB_P_JOB,         /* job: the write */
    DMK_LAB_P_SPAN,        /* span */
    DMK_LAB_P_WARMUP,      /* warmup_s */
    DMK_LAB_P_QD,          /* mixed_qd */
    DMK_LAB_P_SAMPLES,     /* samples */
    DMK_LAB_P_SAMPLE_SIZE, /* sample_size */
    DMK_LAB_P_ACCESSES,    /* accesses */
    DMK_LAB_P_TRACE,       /* trace: the file */
    DMK_LAB_P_TRACE_IDLE,  /* trace_idle_s */
    DMK_LAB_N_PARAMS,
} DmkLabParamId;

#define DMK_LAB_P(id) (1u << (id))

typedef enum {
    DMK_LAB_VALUE_SECONDS,
    DMK_LAB_VALUE_SIZE,  /* bytes */
    DMK_LAB_VALUE_JOB,   /* a test by CrystalDiskMark's name */
    DMK_LAB_VALUE_COUNT, /* a whole number */
    DMK_LAB_VALUE_PATH,  /* a file's path (dmk_lab_path_of) */
} DmkLabValueKind;

/* A setting: its one name and range, for drivemark-cli (--NAME) and the
 * window (--lab-NAME, and the Lab tab's form). */
typedef struct {
    DmkLabParamId id;
    const char *name;  /* "duration": the CLI's option without "--" */
    const char *value; /* the help's placeholder: "SECONDS" */
    DmkLabValueKind kind;
    double min, max; /* seconds, bytes or a count; not for a job */
    /* The CLI's option serves other commands too (--size, --warmup,
     * --test, --qd): its own row parses it, with this range for a lab. */
    bool shared;
    const char *help;    /* the CLI's help line; the window's follows it */
    const char *why_not; /* said after "--NAME does not apply to TEST" */
} DmkLabParam;

const DmkLabParam *dmk_lab_param(DmkLabParamId id);
const DmkLabParam *dmk_lab_param_find(const char *name); /* NULL when unknown */
/* The field of p that setting id is: seconds or bytes; NULL when it is not one. */
double *dmk_lab_seconds_of(DmkLabParams *p, DmkLabParamId id);
uint64_t *dmk_lab_size_of(DmkLabParams *p, DmkLabParamId id);
/* The field of p that a count setting is (DMK_LAB_VALUE_COUNT but the
 * shared --qd, which its own row parses); NULL when it is not one. */
uint32_t *dmk_lab_count_of(DmkLabParams *p, DmkLabParamId id);
/* The field of p that a path setting is, and its room (*len bytes);
 * NULL when it is not one. */
char *dmk_lab_path_of(DmkLabParams *p, DmkLabParamId id, size_t *len);

/* A row of the Lab tab's form: the setting, in that test's words. */
#define DMK_LAB_FIELD_FREE_SPACE 1u /* a span of 0 reads "Free space - margin" */
typedef struct {
    DmkLabParamId id;
    const char *label; /* with its mnemonic: "_Duration" */
    const char *tip;   /* the tooltip */
    /* time fields: the lengths offered, in seconds; a size field (the
     * file sets'): the sizes offered, in bytes (NULL: the form's own) */
    const double *presets;
    size_t n_presets;
    const char *const *jobs; /* job fields: the tests offered, NULL-terminated */
    unsigned flags;          /* DMK_LAB_FIELD_* */
    /* On a raw device, which has no test file (DmkLabParams.device): the
     * label and tooltip instead; NULL where label and tip fit both. */
    const char *device_label, *device_tip;
} DmkLabField;

typedef struct DmkRunner DmkRunner;

/* What a report section writes into (dmk-lab-report.c's). */
typedef struct DmkLabOut DmkLabOut;
/* What the analysis found, as files keep it (dmk-lab-findings.h). */
typedef struct DmkLabFindings DmkLabFindings;

/* One review-lab test. Everything that differs between the tests is
 * here; the CLI, the window, the report, the CSV reader and the charts
 * (chart/dmk-chart-lab.h) read it, and docs/design.md lists what a new
 * test touches. */
typedef struct {
    DmkLabKind kind;
    const char *name;          /* the CLI's command and the files' "lab" word: "sustained" */
    const char *title;         /* "Sustained write" */
    const char *blurb;         /* what the Lab tab says of it before a run */
    unsigned params;           /* DMK_LAB_P() of every setting that applies */
    const DmkLabField *fields; /* the form's rows, in order (some of params) */
    size_t n_fields;
    /* The result is one long write told by its timeline (speed against
     * data written): the Lab tab's live chart follows bytes, not time. */
    bool by_bytes;
    /* Fills the test file before its first step and settles (all but the
     * full-span write, which writes every block once: dmk-lab.h's top). */
    bool fills;
    /* Its own defaults over dmk_lab_params_init's common ones. */
    void (*defaults)(DmkLabParams *p);
    /* Its steps: the tests added to spec (dmk_lab_build does the rest). */
    void (*build)(const DmkLabParams *p, DmkRunSpec *spec);
    /* What p will do, in a sentence or two (the Lab tab's summary). */
    void (*describe)(const DmkLabParams *p, char *buf, size_t len);
    /* Its part of dmk_lab_report, after the common header. */
    void (*report)(DmkLabOut *o, const DmkRunResult *r);
    /* Its charts' names (chart/dmk-chart-lab.h's kinds), in display
     * order, separated by spaces. */
    const char *charts;
    /* What its analysis found, each set anchored at its test, appended
     * to out (dmk-lab-findings.h: files keep these, the report reads them). */
    void (*findings)(const DmkRunResult *r, DmkLabFindings *out);
    /* Only reads, and only a whole device: a folder is refused (the
     * surface scan, dmk-surface.h says why). */
    bool device_only;
    /* A test that is no block I/O on a test file (files): the whole run,
     * in place of the runner's test file and workers, filling res's
     * tests from 0 (res->n_tests those done) with the runner's stop flag
     * and progress (dmk_runner_stopping, dmk_runner_lab_progress). NULL
     * for the others. */
    int (*run)(DmkRunner *r, const DmkRunSpec *spec, DmkRunResult *res, DmkError *err);
    /* Its own run does block I/O through the runner's backend (trace):
     * any backend applies, the null one too; else (files) only real
     * files do. */
    bool any_backend;
} DmkLabTest;

/* The tests, in the order the CLI's help and the Lab tab list them:
 * i from 0 to dmk_lab_test_count() - 1, which is at most
 * DMK_LAB_MAX_TESTS (room for arrays of them; test-lab checks it). */
#define DMK_LAB_MAX_TESTS 32
size_t dmk_lab_test_count(void);
const DmkLabTest *dmk_lab_test_at(size_t i);
const DmkLabTest *dmk_lab_test(DmkLabKind k); /* NULL for NONE or an unknown kind */

const char *dmk_lab_name(DmkLabKind k);         /* "sustained", ...; "" for NONE */
DmkLabKind dmk_lab_from_name(const char *name); /* DMK_LAB_NONE when unknown */
/* "Sustained write", "Full-span write", "Mixed load", "Latency under load", "Recovery". */
const char *dmk_lab_title(DmkLabKind k);
/* "sustained, fullspan, mixed, latency or recovery" (sep ", ", last " or "). */
const char *dmk_lab_names_text(const char *sep, const char *last, char *buf, size_t len);

/* The reviews' defaults for `kind` (above). */
void dmk_lab_params_init(DmkLabParams *p, DmkLabKind kind);

/* How long p runs, the fill excluded, as the runner plans it
 * (dmk_run_spec_planned_s); -1 when it lasts as long as the drive takes
 * (a full-span write ends by bytes) or p is not valid. */
double dmk_lab_planned_s(const DmkLabParams *p);

/* dmk_lab_test(p->kind)->describe, and where the test fills the file
 * first, what that adds. */
void dmk_lab_describe(const DmkLabParams *p, char *buf, size_t len);

/* Fills spec's tests and lab settings from p; spec's dir, data, backend
 * settings and null simulation are the caller's and kept. The result is
 * validated like any spec. */
int dmk_lab_build(const DmkLabParams *p, DmkRunSpec *spec, DmkError *err);

/* ---- analysis -------------------------------------------------------------- */

/* The sustained write's story, from one test's samples. Speeds are in the
 * metric asked for (MB/s or IOPS). */
typedef struct {
    size_t n;           /* samples looked at */
    double total_bytes; /* written over the samples */
    bool cliff;         /* a sustained drop was found */
    /* Written before the drop, placed within the sample it came in: the
     * bytes before that sample and the part of it written at the speed
     * before (the sample's speed between the two sides' tells how much). */
    double cache_bytes;
    /* +- bytes of cache_bytes: about 2 standard deviations of where the
     * drop lies in its sample, from how much one sample's speed varies
     * (at least one I/O's worth) and how well the two speeds are known,
     * plus twice the bytes in flight then (Little's law: completions,
     * which samples count, are no clean step at the drop); at most one
     * sample's bytes at the speed before. 0 with no cliff. */
    double cache_bytes_err;
    double cliff_t_s;     /* when it came (s into the test), within its sample likewise */
    double cliff_t_err_s; /* +- s of cliff_t_s: cache_bytes_err at the speed before */
    /* The speed before and after the drop: I/Os (bytes) over time, each
     * side's sum over its seconds. Left out: the drop's own sample, the
     * run's first (its start: a latency in which nothing completes), and
     * samples of the other side's level (below the midpoint of the two
     * sides' medians before the drop, above it after: a dip, a burst of a
     * drained cache), which a median kept out before. Not a median of
     * samples, which hold whole numbers of I/Os. */
    double before, after;
    /* The last 20 % of the run: mean, and how tightly the samples hold to
     * it: the largest excursion in percent of the mean (SNIA's steady
     * state asks for 20 %) and the share of samples within +-20 %. */
    double steady_mean;
    double steady_excursion_pct;
    double steady_within_pct;
    bool steady; /* every steady sample within +-20 % of the mean... 90 % of them */
} DmkLabCliff;

/* metric: "mb_s" or "iops". Needs 10 samples; fewer: n < 10, nothing found. */
void dmk_lab_cliff(const DmkSample *s, size_t n, const char *metric, DmkLabCliff *out);

/* The temperature's story over the same samples. */
typedef struct {
    bool sensor; /* samples carry a temperature */
    double min_c, max_c;
    bool throttled;          /* a sustained drop while the temperature sat at its maximum */
    double throttle_t_s;     /* when the drop came */
    double throttle_t_err_s; /* +- s of throttle_t_s (DmkLabCliff's cliff_t_err_s) */
    double throttle_c;       /* the temperature then */
    /* The speed before and after, as DmkLabCliff's: I/Os (bytes) over
     * time of each side, the drop's sample, the first and the other
     * level's left out. */
    double before, after;
} DmkLabThermal;

void dmk_lab_thermal(const DmkSample *s, size_t n, const char *metric, DmkLabThermal *out);

/* One latency-under-load profile of a result: the tests with that name
 * and mode ("max" first, then the ramp). */
/* The headline's "peak N IOPS at M ms" is the step of the lowest mean
 * latency among those within this many percent of the profile's most
 * IOPS: at and past saturation the full-speed, 100 % and 120 % steps all
 * reach the drive's maximum, apart only by the noise of a measurement,
 * and differ in how many I/Os wait in the queue; a hair's lead must not
 * move the headline to a queue's latency. 2 % is twice that noise (the
 * rate-limited steps hold their rate within 1 % on the simulated drive)
 * and a fifth of the ramp's 10 % spacing, so the 90 % step never counts
 * (docs/methodology.md, section 4). */
#define DMK_LAB_PEAK_TOL_PCT 2.0
/* The steps of a profile that DmkLabLatency.outstanding keeps: the
 * full-speed one and the ramp. */
#define DMK_LAB_LAT_STEPS (DMK_LAB_RAMP_STEPS + 1)

typedef struct {
    char name[48];       /* "RND4K Q128T1" */
    DmkMode mode;        /* read or write */
    size_t first, count; /* its tests in the result, in run order */
    double max_iops;     /* the full-speed step */
    double best_iops;    /* the highest IOPS any step achieved */
    /* The headline's step (DMK_LAB_PEAK_TOL_PCT): its IOPS, its mean
     * latency, its index in the result (first..first + count - 1; with
     * no measured step, first and peak_iops 0), and the I/Os it had
     * outstanding on average by Little's law (IOPS x mean latency). */
    double peak_iops;
    double peak_lat_ms;
    size_t peak_step;
    double peak_outstanding;
    double peak_tol_pct;    /* DMK_LAB_PEAK_TOL_PCT, kept with what it chose */
    double outstanding_set; /* the I/Os the profile keeps queued: QD x threads */
    bool sub_ms;            /* some step had a mean latency under 1 ms */
    double sub_ms_iops;     /* the highest IOPS of such a step */
    /* Each step's average outstanding I/Os (IOPS x mean latency), in run
     * order: step first + i at [i]; NaN for a step not measured; only the
     * first DMK_LAB_LAT_STEPS of a longer profile. */
    double outstanding[DMK_LAB_LAT_STEPS];
} DmkLabLatency;

/* The profiles of a latency result in run order; returns how many (<= max). */
size_t dmk_lab_latency(const DmkRunResult *r, DmkLabLatency *out, size_t max);

/* The mixed sweep: per pattern the MB/s at each read share, and the mean. */
typedef struct {
    char name[48]; /* "SEQ128K Q1T2" */
    size_t n;
    uint32_t share[DMK_LAB_MIX_STEPS];
    double mb_s[DMK_LAB_MIX_STEPS];
    double mean_mb_s;
} DmkLabMixed;

size_t dmk_lab_mixed(const DmkRunResult *r, DmkLabMixed *out, size_t max);

/* The recovery bars: fresh, degraded, after idle, after TRIM (NaN when
 * the run stopped before), in the probe test's metric. */
typedef struct {
    const char *label[4];
    double value[4];
    const char *metric; /* "iops" for random probes, "mb_s" for sequential */
} DmkLabRecovery;

void dmk_lab_recovery(const DmkRunResult *r, DmkLabRecovery *out);

/* One step of the file-set test (files): a copy, the archive or the
 * extract. The CPU time is the run's thread's own: beside the wall time
 * it says when the CPU (Deflate), not the drive, set the pace. */
#define DMK_LAB_FILE_STEPS 5
typedef struct {
    size_t files;  /* the set's files */
    double bytes;  /* the set's bytes */
    double wall_s; /* from the first read until everything written is on the drive */
    double cpu_s;  /* the run thread's CPU time, user and system */
    double mb_s;   /* the set's bytes over wall_s */
    /* archive: the .zip's size in % of the set's (Deflate's work); else NaN */
    double archive_pct;
    bool archived; /* the step wrote the archive: archive_pct applies */
} DmkLabFiles;
/* The field of DmkLabFiles that a fresh result keeps with each step's
 * test (its saved finding), as a file does: cpu_s is the run's, not its
 * samples'. */
#define DMK_LAB_FILES_CPU 3
/* "ISO copy", "Program copy", "Work copy", "Work archive", "Work extract". */
const char *dmk_lab_files_step_label(size_t i);
/* The name the test's directory in the target starts with. */
extern const char dmk_lab_files_prefix[];
/* Removes a directory an earlier file-set run left in dir (it was
 * killed); removed gets its path, "" when there was none. */
int dmk_lab_files_remove_leftover(const char *dir, char *removed, size_t len, DmkError *err);

/* The trace replay's scores (trace), one set per run: bytes over the
 * busy time and the service times (submission to completion, ms) of all
 * requests, the reads and the writes, and how the time went. */
enum { DMK_LAB_TRACE_ALL, DMK_LAB_TRACE_READS, DMK_LAB_TRACE_WRITES, DMK_LAB_TRACE_DIRS };
enum {
    DMK_LAB_TRACE_MEAN,
    DMK_LAB_TRACE_P50,
    DMK_LAB_TRACE_P99,
    DMK_LAB_TRACE_P999,
    DMK_LAB_TRACE_STATS
};
typedef struct {
    size_t ios[DMK_LAB_TRACE_DIRS];   /* requests replayed */
    double bytes[DMK_LAB_TRACE_DIRS]; /* their bytes */
    double mb_s[DMK_LAB_TRACE_DIRS];  /* bytes over the busy time, 10^6 bytes/s */
    double service[DMK_LAB_TRACE_DIRS][DMK_LAB_TRACE_STATS]; /* ms; NaN with no request */
    double busy_s;     /* time with a request in flight: what the scores are over */
    double wall_s;     /* the whole replay */
    double trace_s;    /* the trace's own time */
    double replayed_s; /* its schedule once the idle gaps were cut */
    size_t gaps_cut;   /* idle gaps longer than the threshold */
    double idle_max_ms;
    double qd; /* achieved: the sum of service times over the busy time */
} DmkLabTrace;
/* A fresh result keeps every field with its test (its saved findings). */
#define DMK_LAB_TRACE_FIELDS 28

/* "iops" for a random job, "mb_s" for a sequential one: the reviews' unit. */
const char *dmk_lab_metric(const DmkTest *t);

/* The test of a sustained, full-span or recovery result that carries the
 * long timeline (the degradation), or NULL. */
const DmkTestResult *dmk_lab_timeline_test(const DmkRunResult *r);

/* The plain-text report the CLI prints and the window shows: what was
 * found, said plainly ("no cache detected in 12.0 GiB written", "no
 * temperature sensor"). Returns the length it needed (snprintf's rule). */
size_t dmk_lab_report(const DmkRunResult *r, char *buf, size_t len);

#endif
