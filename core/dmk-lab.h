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
} DmkLabKind;

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
} DmkLabParams;

const char *dmk_lab_name(DmkLabKind k);         /* "sustained", ...; "" for NONE */
DmkLabKind dmk_lab_from_name(const char *name); /* DMK_LAB_NONE when unknown */
/* "Sustained write", "Full-span write", "Mixed load", "Latency under load", "Recovery". */
const char *dmk_lab_title(DmkLabKind k);

/* The reviews' defaults for `kind` (above). */
void dmk_lab_params_init(DmkLabParams *p, DmkLabKind kind);

/* Fills spec's tests and lab settings from p; spec's dir, data, backend
 * settings and null simulation are the caller's and kept. The result is
 * validated like any spec. */
int dmk_lab_build(const DmkLabParams *p, DmkRunSpec *spec, DmkError *err);

/* ---- analysis -------------------------------------------------------------- */

/* The sustained write's story, from one test's samples. Speeds are in the
 * metric asked for (MB/s or IOPS). */
typedef struct {
    size_t n;             /* samples looked at */
    double total_bytes;   /* written over the samples */
    bool cliff;           /* a sustained drop was found */
    double cache_bytes;   /* written before the drop */
    double cliff_t_s;     /* when it came */
    double before, after; /* median speed before and after the drop */
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
    bool throttled;       /* a sustained drop while the temperature sat at its maximum */
    double throttle_t_s;  /* when the drop came */
    double throttle_c;    /* the temperature then */
    double before, after; /* median speed before and after */
} DmkLabThermal;

void dmk_lab_thermal(const DmkSample *s, size_t n, const char *metric, DmkLabThermal *out);

/* One latency-under-load profile of a result: the tests with that name
 * and mode ("max" first, then the ramp). */
typedef struct {
    char name[48];       /* "RND4K Q128T1" */
    DmkMode mode;        /* read or write */
    size_t first, count; /* its tests in the result, in run order */
    double max_iops;     /* the full-speed step */
    double peak_iops;    /* the highest IOPS any step achieved */
    double peak_lat_ms;  /* the mean latency there */
    bool sub_ms;         /* some step had a mean latency under 1 ms */
    double sub_ms_iops;  /* the highest IOPS of such a step */
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
