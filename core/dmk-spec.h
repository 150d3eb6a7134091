/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What to run: tests named the CrystalDiskMark way ("SEQ1M Q8T1"), each
 * made of one or more jobs (groups of identical workers), and the run's
 * settings. Specs are plain data; dmk_run_spec_validate() checks them
 * before anything touches a disk. */
#ifndef DMK_SPEC_H
#define DMK_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-platform.h"

#define DMK_MAX_JOBS  8
#define DMK_MAX_TESTS 256

/* Limits of a spec, shared by the CLI's messages and the validator. */
#define DMK_BS_MIN      512ULL
#define DMK_BS_MAX      (64ULL << 20)
#define DMK_QD_MAX      1024
#define DMK_THREADS_MAX 64
#define DMK_SIZE_MIN    (16ULL << 20)
#define DMK_SIZE_MAX    (64ULL << 30)
/* Review-lab runs (dmk-lab.h) may span a whole drive. */
#define DMK_LAB_SIZE_MAX (1ULL << 50)
#define DMK_RATE_MAX     100000000u
#define DMK_PASSES_MAX   100
#define DMK_SECONDS_MAX  (7.0 * 86400.0)
/* Buffers (every request has one, for reads and for random data's
 * writes): QD x threads x block size may not exceed this. */
#define DMK_BUFFER_BYTES_MAX (1ULL << 30)

typedef enum { DMK_PATTERN_SEQ = 0, DMK_PATTERN_RND = 1 } DmkPattern;

/* Direction of one measured test. */
typedef enum { DMK_MODE_READ = 0, DMK_MODE_WRITE = 1, DMK_MODE_MIX = 2 } DmkMode;

/* Which directions a profile runs in. */
typedef enum {
    DMK_RUN_READ_WRITE = 0, /* each test read, then write */
    DMK_RUN_READ = 1,
    DMK_RUN_WRITE = 2,
    DMK_RUN_MIX = 3,
} DmkRunMode;

/* A group of identical workers: each thread owns a queue of queue_depth
 * requests and its own slice of the test file. */
typedef struct {
    DmkPattern pattern;
    uint32_t block_size;
    uint32_t queue_depth;
    uint32_t threads;
    uint32_t read_share; /* percent of I/Os that read, chosen per I/O */
} DmkJob;

typedef struct {
    char name[48]; /* "SEQ1M Q8T1" */
    DmkMode mode;
    int n_jobs;
    DmkJob jobs[DMK_MAX_JOBS];
    /* What a review-lab step adds; all zero for a CrystalDiskMark test. */
    char label[32];       /* "fresh", "after TRIM", "40 %", "max"; "" for none */
    double measure_s;     /* > 0: this test's one pass, instead of the run's passes */
    double idle_before_s; /* idle this long before the test (recovery), after any interval */
    bool trim_before;     /* TRIM the test file's blocks before the test (recovery) */
    uint64_t limit_bytes; /* > 0: the test ends once this many bytes are done (full span) */
    uint64_t rate_iops;   /* > 0: the test's total IOPS, spread evenly over its threads */
    /* > 0: rate_iops becomes rate_pct % of the IOPS that test number
     * rate_ref (1-based, earlier in the run) achieved: the latency ramp. */
    uint32_t rate_ref;
    uint32_t rate_pct;
    /* The surface scan (dmk-surface.h): spread_count > 0 makes the test
     * read sample spread_index (0-based) of spread_count samples of
     * limit_bytes each, spread evenly over the whole target; the runner
     * places it once it knows the target's size (dmk_surface_offset) and
     * records where in region_offset of the result's copy. */
    uint32_t spread_index;
    uint32_t spread_count;
    uint64_t region_offset; /* the result's: the sample's first byte (bytes into the target) */
    /* > 0: the result's samples are the test's first keep_ios I/Os, one
     * each with its offset (DmkSample.offset), instead of a timeline: the
     * surface scan's access times. */
    uint32_t keep_ios;
} DmkTest;

typedef struct {
    char dir[1024]; /* target directory */
    uint64_t size;  /* test file size */
    uint32_t passes;
    double measure_s;  /* each pass */
    double warmup_s;   /* discarded warm-up before each test; 0 = none */
    double interval_s; /* idle time between tests */
    double timeline_s; /* sample period of the timeline, 0 = no timeline */
    double watchdog_s; /* a queue with nothing completing this long fails */
    DmkDataKind data;
    char profile[32]; /* "default", "peak", ... or "custom" */
    char sweep[8];    /* "qd", "bs" for a sweep (dmk-sweep.h), else "" */
    /* The backend's own options (the null backend's latency and simulated
     * drive: null/dmk-null.h), passed on to its target as they are. */
    DmkBackendOpts backend_opts;
    /* Review-lab runs (dmk-lab.h): which test, "" for CrystalDiskMark's. */
    char lab[16];
    bool no_fill;         /* write-only tests: the file is allocated, not filled first */
    bool keep_partial;    /* a stop keeps the samples of the test under way */
    uint64_t free_margin; /* size == 0: the file takes the free space but this much */
    /* dir names a raw block device, not a directory: the tests use its
     * first `size` bytes (0: all of it). Writes need device_confirm to
     * name the same device (dmk_device_confirmed); a run without write
     * tests reads what is there and writes nothing. */
    bool device;
    char device_confirm[1024];
    /* The device is already open (has_device_fd): device_fd, obtained by
     * the window through UDisks2 where this user may not open it, is
     * what the target uses (DmkTargetParams.device_fd). The run owns it:
     * dmk_runner_run closes it when it returns, whatever happened (and
     * dmk_runner_free, for a runner that never ran), so a spec with one
     * runs once. */
    bool has_device_fd;
    int device_fd;
    /* Written blocks carry a header and CRC32C and are read back after
     * each test that writes (docs/verify.md); needs a backend that keeps
     * data (DmkBackend.keeps_data). */
    bool verify;
    /* The trace lab test (dmk-lab.h): the trace file and the idle
     * threshold, seconds; "" and 0 for every other run. */
    char trace[1024];
    double trace_idle_s;
    /* The user's comment, copied into the result (DmkRunResult.comment). */
    char comment[512];
    size_t n_tests;
    DmkTest tests[DMK_MAX_TESTS];
} DmkRunSpec;

/* CrystalDiskMark 8's defaults: 1 GiB, 5 passes of 5 s, warm-up, 5 s interval. */
void dmk_run_spec_init(DmkRunSpec *spec);

/* "SEQ1M Q8T1", "RND4K Q32T16", "SEQ128K Q32T1" (case-insensitive). */
int dmk_job_parse_name(const char *name, DmkJob *job, DmkError *err);
/* The canonical name of a one-job test. */
char *dmk_job_format_name(const DmkJob *job, char *buf, size_t len);

/* Adds one test (a single job) in the given direction; read_share is used
 * for DMK_MODE_MIX. */
int dmk_run_spec_add(DmkRunSpec *spec, const DmkJob *job, DmkMode mode, uint32_t read_share,
                     DmkError *err);

/* Adds each test of `jobs` in the directions `run_mode` asks for
 * (read then write each, or one direction, or mixed at read_share). */
int dmk_run_spec_add_all(DmkRunSpec *spec, const DmkJob *jobs, size_t n, DmkRunMode run_mode,
                         uint32_t read_share, DmkError *err);

/* Checks every bound; max_inflight is the OS's limit (0 = none). */
int dmk_run_spec_validate(const DmkRunSpec *spec, uint64_t max_inflight, DmkError *err);

const char *dmk_mode_name(DmkMode m);       /* "read", "write", "mix" */
const char *dmk_pattern_name(DmkPattern p); /* "seq", "rnd" */

/* Total threads and in-flight requests of a test. */
uint32_t dmk_test_threads(const DmkTest *t);
uint64_t dmk_test_inflight(const DmkTest *t);

/* Whether running the spec writes to the target: a write or mixed test,
 * a TRIM, or the fill before reads (which a device run leaves out when
 * nothing else writes). */
bool dmk_run_spec_writes(const DmkRunSpec *spec);

#endif
