/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the review-lab analysis found (dmk-lab.h's DmkLabCliff,
 * DmkLabThermal, DmkLabLatency, DmkLabMixed, DmkLabRecovery), as result
 * files keep it and people read it. Each finding struct is described once,
 * by a table of its fields (key, unit, offset, kind, label): the CSV
 * writer and reader, the JSON writer, the report, `show` and the window
 * all read the tables, so a new field of a struct is one row there
 * (dmk-lab-findings.c), and docs/results.md lists the rows.
 *
 * A "set" is one instance of a struct in a result: the cliff of a
 * sustained write, one latency profile, one mixed pattern. Each is
 * anchored at a test (the timeline test, the profile's first step, the
 * pattern's first share, a recovery's first probe): the CSV keeps its
 * figures as finding rows after that test's rows. A result loaded from a
 * file has those figures (DmkTestResult.findings) and they win over what
 * the samples give; a fresh result, or an older file without them, has
 * its findings computed from its samples. */
#ifndef DMK_LAB_FINDINGS_H
#define DMK_LAB_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-lab.h"
#include "dmk-result.h"

/* The finding structs, in the order files list them per test. */
typedef enum {
    DMK_LAB_SET_CLIFF,    /* DmkLabCliff: cache and steady state */
    DMK_LAB_SET_THERMAL,  /* DmkLabThermal: temperature and throttling */
    DMK_LAB_SET_LATENCY,  /* DmkLabLatency: one latency-under-load profile */
    DMK_LAB_SET_MIXED,    /* DmkLabMixed: one mixed pattern */
    DMK_LAB_SET_RECOVERY, /* DmkLabRecovery: the four probes */
    DMK_LAB_SET_FILES,    /* DmkLabFiles: one step of the file-set test */
    DMK_LAB_SET_TRACE,    /* DmkLabTrace: the trace replay */
    DMK_LAB_N_SETS,
} DmkLabSetId;

/* How a field is stored in its struct. */
typedef enum {
    DMK_LAB_FIELD_BOOL,   /* bool: 0 or 1 in files, "yes"/"no" for people */
    DMK_LAB_FIELD_COUNT,  /* size_t: a whole number */
    DMK_LAB_FIELD_DOUBLE, /* double: NaN (not measured) is an empty cell, null in JSON */
} DmkLabFieldKind;

/* A field's unit. SPEED is the set's metric: MB/s or IOPS, by the test
 * (dmk_lab_metric); files say which in the unit cell or the JSON key. */
typedef enum {
    DMK_LAB_UNIT_NONE,
    DMK_LAB_UNIT_BYTES,
    DMK_LAB_UNIT_S,
    DMK_LAB_UNIT_C,
    DMK_LAB_UNIT_PCT,
    DMK_LAB_UNIT_MS,
    DMK_LAB_UNIT_MB_S,
    DMK_LAB_UNIT_IOPS,
    DMK_LAB_UNIT_IOS, /* I/Os outstanding (Little's law: IOPS x mean latency) */
    DMK_LAB_UNIT_SPEED,
} DmkLabUnit;

/* One row of a struct's table. */
typedef struct {
    const char *key; /* "cache": the CSV's "cliff.cache", JSON's "cache_bytes" */
    DmkLabUnit unit;
    size_t offset;        /* offsetof in the struct */
    DmkLabFieldKind kind; /* a temperature (unit C) may be below 0; nothing else */
    const char *label;    /* for people: "SLC cache"; NULL: not shown on its own (a +- the row
                           * before says, a rule the report states) */
    /* Shown only where the BOOL field of the same set with this key is
     * true (NULL: always): no speed "after the cache" where none was
     * found. Files keep every field. */
    const char *when;
} DmkLabFindingField;

/* One finding struct. */
typedef struct {
    DmkLabSetId id;
    const char *name;  /* "cliff": the CSV keys' prefix, the JSON's group */
    const char *title; /* "Cache and steady state" */
    const DmkLabFindingField *fields;
    size_t n_fields;
} DmkLabSetDesc;

const DmkLabSetDesc *dmk_lab_set(DmkLabSetId id); /* NULL past DMK_LAB_N_SETS */
/* The set and field of a CSV key ("cliff.cache"), or false. */
bool dmk_lab_finding_key(const char *key, size_t len, DmkLabSetId *set, size_t *field);

/* A unit's word in files ("bytes", "mb_s", ""), its decimals there, and
 * its symbol for people ("MB/s", "%"). SPEED must be resolved first. */
const char *dmk_lab_unit_name(DmkLabUnit u);
int dmk_lab_unit_decimals(DmkLabUnit u);
/* SPEED as the set's metric ("mb_s", "iops"); any other unit as it is. */
DmkLabUnit dmk_lab_unit_resolve(DmkLabUnit u, const char *metric);

/* One set of a result. */
typedef struct {
    DmkLabSetId set;
    size_t test;         /* the anchor: index in the result's tests */
    const char *metric;  /* "mb_s" or "iops": what SPEED fields are in */
    uint32_t block_size; /* the anchor's: an IOPS speed in MB/s as well, for people */
    union {
        DmkLabCliff cliff;
        DmkLabThermal thermal;
        DmkLabLatency latency;
        DmkLabMixed mixed;
        DmkLabRecovery recovery;
        DmkLabFiles files;
        DmkLabTrace trace;
    } u;
} DmkLabFinding;

/* A latency run's 16 profiles at most (dmk_lab_report's room), and room
 * for the rest. */
#define DMK_LAB_MAX_FINDINGS 24
struct DmkLabFindings { /* typedef in dmk-lab.h */
    size_t n;
    DmkLabFinding f[DMK_LAB_MAX_FINDINGS];
};

/* What each lab test finds (its DmkLabTest.findings): the sets appended
 * to out, each anchored at its test. */
void dmk_lab_findings_first_timeline(const DmkRunResult *r, DmkLabFindings *out);
void dmk_lab_findings_mixed(const DmkRunResult *r, DmkLabFindings *out);
void dmk_lab_findings_latency(const DmkRunResult *r, DmkLabFindings *out);
void dmk_lab_findings_recovery(const DmkRunResult *r, DmkLabFindings *out);

/* Every set of r, as its lab test's table says (DmkLabTest.findings):
 * computed from the samples, each figure rounded to what a file keeps (so
 * a fresh result reads as its saved file will), then what the file said
 * (DmkTestResult.findings) put over it. None for an ordinary run. */
void dmk_lab_findings(const DmkRunResult *r, DmkLabFindings *out);
/* The same without the file's figures: what the samples give. */
void dmk_lab_findings_computed(const DmkRunResult *r, DmkLabFindings *out);

/* The set of that kind anchored at test, or NULL. */
const DmkLabFinding *dmk_lab_findings_at(const DmkLabFindings *f, DmkLabSetId set, size_t test);

/* For what else shows them (the charts): dmk-lab.h's analyses as found,
 * the file's figures where it has them. The cache and temperature of
 * timeline test t in metric (from its samples where the findings' metric
 * is another, or no set is anchored at t); the recovery probes; the mixed
 * patterns (as dmk_lab_mixed, its per-share speeds the steps' scores). */
void dmk_lab_timeline_found(const DmkRunResult *r, const DmkTestResult *t, const char *metric,
                            DmkLabCliff *cliff, DmkLabThermal *thermal);
void dmk_lab_recovery_found(const DmkRunResult *r, DmkLabRecovery *out);
size_t dmk_lab_mixed_found(const DmkRunResult *r, DmkLabMixed *out, size_t max);

/* Field i of f's set: its value as a double (a bool 0 or 1), and its
 * unit with SPEED resolved. */
double dmk_lab_finding_get(const DmkLabFinding *f, size_t i);
void dmk_lab_finding_set(DmkLabFinding *f, size_t i, double v);
DmkLabUnit dmk_lab_finding_unit(const DmkLabFinding *f, size_t i);
/* Whether people are shown field i: its `when` holds, and a cache's
 * figures are not shown where the drop was thermal throttling (the
 * thermal set of the same test, in all, says so; as the report says). */
bool dmk_lab_finding_shown(const DmkLabFindings *all, const DmkLabFinding *f, size_t i);
/* The speed drop of cliff (a DMK_LAB_SET_CLIFF set) came with throttling. */
bool dmk_lab_cliff_is_thermal(const DmkLabFindings *all, const DmkLabFinding *cliff);

/* Field i as a file keeps it: "1073741824", "58.900", "1", "" for NaN.
 * Returns buf. */
char *dmk_lab_finding_cell(const DmkLabFinding *f, size_t i, char *buf, size_t len);
/* Field i for people, with its unit: "1.0 GiB", "58.9 MB/s", "16,000 IOPS
 * (65.5 MB/s)" (a speed in IOPS, as the report says it), "yes", "not
 * measured", in the lab report's digits. Returns buf. */
char *dmk_lab_finding_text(const DmkLabFindings *all, const DmkLabFinding *f, size_t i, char *buf,
                           size_t len);
/* The set's heading for people: "Cache and steady state", "4K random read
 * (RND4K Q128T1)", "Mixed load SEQ128K Q1T2". Returns buf. */
/* A size as the lab report says it: GiB with one decimal, under 1 GiB in
 * MiB, so a small cache is not "0.0 GiB". */
char *dmk_lab_size_text(double bytes, char *buf, size_t len);
/* A size found within +- err bytes, as precisely as it is known: "about
 * 64 MiB +-1 MiB", "about 1.0 GiB (1,025 +-3 MiB)": the nearest tenth of
 * a GiB for the reader, with the MiB the resolution supports. */
char *dmk_lab_size_within_text(double bytes, double err, char *buf, size_t len);
/* The set's title and a field's label as shown, in the user's language
 * (the tables keep them English); the label NULL where the table has none. */
const char *dmk_lab_set_title(DmkLabSetId id);
const char *dmk_lab_field_label(const DmkLabFindingField *field);
/* "4KiB random read": a latency profile in words (the block size, the
 * access, the direction), in the user's language. */
char *dmk_lab_profile_words(const DmkTest *t, char *buf, size_t len);
char *dmk_lab_finding_title(const DmkRunResult *r, const DmkLabFinding *f, char *buf, size_t len);

#endif
