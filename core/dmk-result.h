/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The immutable record of a run: its context and, per test, every pass
 * and the CrystalDiskMark score. Front ends only read it. */
#ifndef DMK_RESULT_H
#define DMK_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-hist.h"
#include "dmk-platform.h"
#include "dmk-spec.h"

/* Throughput and latency of one direction (or both) over a period. */
typedef struct {
    uint64_t ios;
    uint64_t bytes;
    double seconds;
    double mb_s; /* 10^6 bytes per second */
    double iops;
    double lat_mean_us, lat_min_us, lat_max_us, lat_stddev_us;
    double lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us, lat_p9999_us;
} DmkStats;

typedef struct {
    DmkStats total; /* read + write */
    DmkStats read;
    DmkStats write;
    /* The longest pause in the pass (results.md, "paused"): seconds in
     * which nothing was submitted or completed far beyond the latency
     * seen; 0 for none, and in results read back from a file. */
    double paused_s;
    /* In a result read back from a file: the achieved read share it keeps
     * (schema 6), 0 for none; read it through dmk_pass_read_pct. */
    double read_pct_saved;
} DmkPassResult;

/* A plausible drive temperature: outside this range a sensor misread, and
 * the writers record the sample as having none. */
#define DMK_TEMP_MIN_C (-60.0)
#define DMK_TEMP_MAX_C 200.0

/* One timeline point: what completed in (t_s - period, t_s]. */
typedef struct {
    double t_s; /* seconds since the measured part of the test began */
    double mb_s, iops, lat_mean_us;
    double temp_c; /* the drive's temperature then; NaN when there is no sensor */
    /* A test that keeps its I/Os (DmkTest.keep_ios): this one I/O's
     * first byte, in bytes into the target (t_s: when it completed);
     * unused (0) in a timeline. */
    double offset;
} DmkSample;

/* What was wrong with a block that the verify option read back. */
typedef enum {
    DMK_VERIFY_OK = 0,
    DMK_VERIFY_NO_HEADER = 1,    /* no header of this run: the write was lost or went elsewhere */
    DMK_VERIFY_WRONG_OFFSET = 2, /* this run's block, written for another offset: misdirected */
    DMK_VERIFY_STALE = 3,        /* an earlier test's block: the write was lost */
    DMK_VERIFY_CORRUPT = 4,      /* the CRC32C fails: data or header changed */
} DmkVerifyBad;

/* The read-back after a test that wrote (the verify option); its time is
 * never part of the test's numbers. */
typedef struct {
    bool checked;     /* the test's written blocks were read back */
    uint64_t blocks;  /* written blocks checked */
    uint64_t bytes;   /* their bytes */
    uint64_t bad;     /* of them, bad */
    uint64_t skipped; /* written twice at once (content undefined), not checked */
    /* When bad > 0: file offsets of the first (lowest) bad block and of
     * its first wrong byte, and what was wrong. */
    uint64_t first_bad_block;
    uint64_t first_bad_byte;
    DmkVerifyBad first_bad_why;
    double seconds; /* the read-back */
} DmkVerifyResult;

/* One figure a result file kept of what the review-lab analysis found
 * (dmk-lab-findings.h: which finding struct, which row of its table, the
 * value), anchored at the test whose rows the file keeps it with. A fresh
 * result has none: its findings are computed from its samples. */
typedef struct {
    uint16_t set;   /* DmkLabSetId */
    uint16_t field; /* the row of that set's table */
    double value;   /* a bool or count as 0, 1, 2 ...; NaN: not measured */
} DmkSavedFinding;

typedef struct {
    DmkTest test;
    uint32_t n_passes; /* passes completed */
    DmkPassResult *passes;
    uint32_t best_pass;  /* the pass with the highest MB/s */
    DmkPassResult score; /* CrystalDiskMark's number: the best pass */
    double mb_s_median, mb_s_min, mb_s_max;
    size_t n_samples;
    DmkSample *samples;
    bool partial; /* stopped during its measurement: the passes and samples so far */
    /* Honest numbers: the time-averaged requests in flight during the
     * measured part, all threads together (0: not measured), and the
     * DMK_FLAG_* bits that say why the score may not be what the drive
     * sustains. The depth is kept to DMK_QD_DECIMALS, as the files keep
     * it, so a report of the run and of its saved file agree. */
    double achieved_qd;
    uint32_t flags;
    DmkVerifyResult verify;
    /* Loaded from a file only (the CSV's finding rows): what it says wins
     * over what the samples give (dmk_lab_findings). */
    size_t n_findings;
    DmkSavedFinding *findings;
} DmkTestResult;

typedef struct {
    char version[32];
    char date[32]; /* ISO 8601 UTC, when the run started */
    char os[128];
    char backend[16];
    char profile[32];
    char sweep[8]; /* "qd" or "bs" when the run was a sweep, else "" */
    char comment[512];
    char lab[16];       /* review-lab test (dmk-lab.h): "sustained", ...; "" for tiles */
    char lab_note[512]; /* what a lab run did besides I/O, e.g. how TRIM went */
    DmkTargetInfo target;
    uint64_t size;
    uint32_t passes;
    double measure_s, warmup_s, interval_s;
    DmkDataKind data;
    bool complete; /* false when stopped or failed before the last test */
    size_t n_tests;
    DmkTestResult *tests;
} DmkRunResult;

/* The DmkStats fields the writers emit, in order, with the decimals each
 * keeps: JSON and CSV share this table so they never disagree. */
typedef struct {
    const char *name; /* "mb_s", "iops", "lat_mean_us", ... */
    size_t offset;    /* of a double in DmkStats */
    int decimals;
    const char *title; /* a spreadsheet's heading, with the unit: "Speed (MB/s)" */
} DmkStatField;

extern const DmkStatField dmk_stat_fields[];
extern const size_t dmk_stat_field_count;

static inline double dmk_stat_get(const DmkStats *s, const DmkStatField *f)
{
    return *(const double *)((const char *)s + f->offset);
}

/* s with each dmk_stat_fields value rounded to the decimals the result
 * files keep: what a report or a tile shows of a run just measured then
 * reads the same as when its file is opened again (0.035 us kept, not a
 * raw 0.0349 shown as 0.03 and read back as 0.04). The run's own numbers
 * stay exact; only what is shown goes through this. */
DmkStats dmk_stats_as_saved(const DmkStats *s);

const char *dmk_data_name(DmkDataKind d); /* "random", "zero" */

/* ---- honest numbers (results.md, "Flags") ------------------------------- */

/* Why a test's score may not be what the drive sustains. */
enum {
    DMK_FLAG_PEAK = 1u << 0,           /* the test span fits a drive's cache */
    DMK_FLAG_OVER_INTERFACE = 1u << 1, /* faster than the drive's link can carry */
    DMK_FLAG_LOW_QD = 1u << 2,         /* fewer requests in flight than asked */
    DMK_FLAG_RAM_BACKED = 1u << 3, /* the target's storage is memory (a device given on purpose) */
    DMK_FLAG_STORAGE_UNKNOWN = 1u << 4, /* the storage could not be followed: may be RAM */
    DMK_FLAG_PAUSED = 1u << 5,          /* a pass contained a pause: its time counts idle */
    DMK_FLAG_CACHED = 1u << 6,          /* a cache in front of the drive (a buffered loop device) */
};
#define DMK_FLAG_ALL                                                                   \
    (DMK_FLAG_PEAK | DMK_FLAG_OVER_INTERFACE | DMK_FLAG_LOW_QD | DMK_FLAG_RAM_BACKED | \
     DMK_FLAG_STORAGE_UNKNOWN | DMK_FLAG_PAUSED | DMK_FLAG_CACHED)

/* The reviews' practice (methodology.md): a 1 GiB CrystalDiskMark file
 * fits inside an SLC cache, so its tiles are "peak"; labs use 16 to 32 GiB
 * spans to get past the cache. A test on a span under this is peak. */
#define DMK_PEAK_SPAN_BYTES (16ULL << 30)
/* Achieved queue depth below this share of the asked one is flagged. */
#define DMK_LOW_QD_SHARE 0.9

/* Requests the test asked to keep in flight: queue depth x threads, all jobs. */
uint32_t dmk_test_asked_qd(const DmkTest *t);

/* The flags of test t of run r, from r's test size and link and t's
 * score and achieved queue depth. */
uint32_t dmk_test_flags(const DmkRunResult *r, const DmkTestResult *t);

/* "peak", "over_interface", "low_qd", "ram_backed", "storage_unknown",
 * "paused", "cached" for
 * one bit; NULL for others. */
const char *dmk_flag_name(uint32_t bit);

/* The set bits' names, space-separated ("peak low_qd"); "" for none. */
char *dmk_flags_format(uint32_t flags, char *buf, size_t len);

/* Parses dmk_flags_format's text (any order, single spaces); false for
 * an unknown or repeated name. */
bool dmk_flags_parse(const char *s, uint32_t *flags);

/* A short marker for a tile or report line ("peak", "QD 12.4 of 32",
 * "over SATA 6.0 Gbps limit") and, when tip is not NULL, a sentence that
 * explains it. */
void dmk_flag_describe(const DmkRunResult *r, const DmkTestResult *t, uint32_t bit, char *marker,
                       size_t mlen, char *tip, size_t tlen);

/* "none", "off", "active" (CSV and JSON); -1 from parse when unknown. */
const char *dmk_fs_feature_name(DmkFsFeature f);
int dmk_fs_feature_parse(const char *s);

/* The run-level warnings for people, one per line (each ending in
 * '\n'), "" when none: "btrfs copy-on-write: turned off for the test
 * file (NOCOW)", "btrfs copy-on-write: active, the numbers include it". */
void dmk_run_fs_notes(const DmkRunResult *r, char *buf, size_t len);

/* A result's label for people, in legends, tooltips and the CLI's table:
 * "Samsung SSD 980 PRO 1TB, 2026-11-30 06:45", the drive's model (its
 * target path where the model is unknown, unless without_path) and the
 * start to the minute, enough to tell runs apart. An empty part leaves
 * its ", " out. Not escaped: the caller escapes for where it shows it. */
void dmk_result_label(const DmkRunResult *r, bool without_path, char *buf, size_t len);

/* What a run wrote over, for people: "1 GiB test file"; on a raw device,
 * which has no test file, "1 GiB region of /dev/sdb" (the first `size`
 * bytes of it). Not escaped, as dmk_result_label. */
void dmk_result_area(const DmkRunResult *r, char *buf, size_t len);

/* Room for a whole dmk_result_label: the path, ", " and 16 of date. */
#define DMK_RESULT_LABEL_LEN (sizeof(((DmkTargetInfo *)0)->path) + 32)

/* Stats of a histogram that counted `bytes` over `seconds`. */
void dmk_stats_from_hist(DmkStats *s, const DmkHist *h, uint64_t bytes, double seconds);

/* The longest pause of any pass (DmkPassResult.paused_s), and its pass
 * (0-based) in *pass when not NULL; 0 when none was seen. */
double dmk_test_paused_s(const DmkTestResult *t, uint32_t *pass);

/* The achieved read share of a pass, in percent: its completed reads of
 * all its completed I/Os, counted in the measured window, to the
 * DMK_SHARE_DECIMALS that the result files keep (so a report of a run and
 * of its saved file agree to the digit). From the read and write counts;
 * in a result read back from a file, which keeps no counts, the share it
 * saved, or for an older file the read and write IOPS of the same
 * seconds. -1 when the pass completed nothing. A mixed job holds the
 * asked share by construction (dmk-mix.h); this is what a reader checks
 * it against. */
#define DMK_SHARE_DECIMALS 3
#define DMK_QD_DECIMALS    2 /* of DmkTestResult.achieved_qd */
double dmk_pass_read_pct(const DmkPassResult *p);

/* Whether the achieved share is worth showing beside the asked one: it
 * differs by DMK_SHARE_SHOW_PCT points or more. Shown to 0.1, so "read
 * 70.1 % measured" can stand for 70.100 but never for 70.063. */
#define DMK_SHARE_SHOW_PCT 0.1
bool dmk_pass_share_differs(const DmkPassResult *p, uint32_t asked);

/* "read 72.1 % measured" where dmk_pass_share_differs, else "": what a
 * mixed test's line adds (the CLI report and `show`, the window's tile). */
const char *dmk_share_note(const DmkPassResult *p, uint32_t asked, char *buf, size_t len);

/* Sets best_pass, score, median/min/max from the passes. The best pass
 * is the fastest one without a pause, where there is one: a pass that
 * counted idle time is not the drive's number. */
void dmk_test_result_summarize(DmkTestResult *t);

void dmk_run_result_free(DmkRunResult *r);

/* "lost or misdirected write", ... ; "" for DMK_VERIFY_OK. */
const char *dmk_verify_bad_name(DmkVerifyBad why);

/* "no_header", "wrong_offset", "stale", "corrupt" ("" for OK): the
 * result files' names; dmk_verify_bad_from_key() is the inverse (-1 when
 * unknown). */
const char *dmk_verify_bad_key(DmkVerifyBad why);
int dmk_verify_bad_from_key(const char *key);

/* The verify results of all tests of a run added up; first_bad_* from
 * the first test with a bad block. checked is false when no test was. */
void dmk_run_result_verify(const DmkRunResult *r, DmkVerifyResult *sum);

#endif
