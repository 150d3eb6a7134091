/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The finding structs' tables (dmk-lab-findings.h) and what reads them:
 * which sets a result has, each figure as a file keeps it and as people
 * read it. The analysis itself is dmk-lab.c's; this only describes and
 * carries what it found. */
#include "dmk-lab-findings.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-report.h"
#include "dmk-size.h"

/* ---- the tables ------------------------------------------------------------- */

/* The labels and the sets' titles are English in the tables (DMK_N_) and
 * translated where shown: the files keep only the keys and the units. */

#define N(a) (sizeof(a) / sizeof(a)[0])
#define F(type, key, unit, member, kind, label, when)                                       \
    {                                                                                       \
        key, DMK_LAB_UNIT_##unit, offsetof(type, member), DMK_LAB_FIELD_##kind, label, when \
    }

static const DmkLabFindingField cliff_fields[] = {
    F(DmkLabCliff, "samples", NONE, n, COUNT, DMK_N_("Samples"), NULL),
    /* TRANSLATORS: a lab finding's label: how much was written in all. */
    F(DmkLabCliff, "written", BYTES, total_bytes, DOUBLE, DMK_N_("Written"), NULL),
    F(DmkLabCliff, "cliff", NONE, cliff, BOOL, DMK_N_("Cache found"), NULL),
    F(DmkLabCliff, "cache", BYTES, cache_bytes, DOUBLE, DMK_N_("SLC cache"), "cliff"),
    F(DmkLabCliff, "cache_err", BYTES, cache_bytes_err, DOUBLE, NULL, "cliff"),
    F(DmkLabCliff, "cliff_t", S, cliff_t_s, DOUBLE, DMK_N_("Speed dropped at"), "cliff"),
    F(DmkLabCliff, "cliff_t_err", S, cliff_t_err_s, DOUBLE, NULL, "cliff"),
    F(DmkLabCliff, "before", SPEED, before, DOUBLE, DMK_N_("In the cache"), "cliff"),
    F(DmkLabCliff, "after", SPEED, after, DOUBLE, DMK_N_("After the cache"), "cliff"),
    F(DmkLabCliff, "steady", NONE, steady, BOOL, DMK_N_("Steady state"), NULL),
    F(DmkLabCliff, "steady_mean", SPEED, steady_mean, DOUBLE, DMK_N_("Steady speed (last 20 %)"),
      NULL),
    F(DmkLabCliff, "steady_excursion", PCT, steady_excursion_pct, DOUBLE,
      DMK_N_("Largest excursion"), NULL),
    F(DmkLabCliff, "steady_within", PCT, steady_within_pct, DOUBLE,
      DMK_N_("Samples within \u00b120 %"), NULL),
};

static const DmkLabFindingField thermal_fields[] = {
    F(DmkLabThermal, "sensor", NONE, sensor, BOOL, DMK_N_("Temperature sensor"), NULL),
    F(DmkLabThermal, "min", C, min_c, DOUBLE, DMK_N_("Lowest temperature"), "sensor"),
    F(DmkLabThermal, "max", C, max_c, DOUBLE, DMK_N_("Highest temperature"), "sensor"),
    F(DmkLabThermal, "throttled", NONE, throttled, BOOL, DMK_N_("Thermal throttling"), "sensor"),
    F(DmkLabThermal, "throttle_t", S, throttle_t_s, DOUBLE, DMK_N_("Throttled after"), "throttled"),
    F(DmkLabThermal, "throttle_t_err", S, throttle_t_err_s, DOUBLE, NULL, "throttled"),
    F(DmkLabThermal, "throttle", C, throttle_c, DOUBLE, DMK_N_("Throttled at"), "throttled"),
    F(DmkLabThermal, "before", SPEED, before, DOUBLE, DMK_N_("Before throttling"), "throttled"),
    F(DmkLabThermal, "after", SPEED, after, DOUBLE, DMK_N_("While throttled"), "throttled"),
};

static const DmkLabFindingField latency_fields[] = {
    F(DmkLabLatency, "max", IOPS, max_iops, DOUBLE, DMK_N_("At full speed"), NULL),
    /* TRANSLATORS: a lab finding's label: the IOPS at the latency test's peak step. */
    F(DmkLabLatency, "peak", IOPS, peak_iops, DOUBLE, DMK_N_("Peak"), NULL),
    F(DmkLabLatency, "best", IOPS, best_iops, DOUBLE, DMK_N_("Most IOPS of any step"), NULL),
    F(DmkLabLatency, "peak_latency", MS, peak_lat_ms, DOUBLE, DMK_N_("Mean latency at the peak"),
      NULL),
    F(DmkLabLatency, "peak_outstanding", IOS, peak_outstanding, DOUBLE,
      DMK_N_("Outstanding at the peak"), NULL),
    F(DmkLabLatency, "queued", IOS, outstanding_set, DOUBLE, DMK_N_("Queue depth x threads"), NULL),
    F(DmkLabLatency, "peak_tolerance", PCT, peak_tol_pct, DOUBLE, NULL, NULL),
    F(DmkLabLatency, "sub_ms", NONE, sub_ms, BOOL, DMK_N_("A step under 1 ms"), NULL),
    F(DmkLabLatency, "sub_ms_up_to", IOPS, sub_ms_iops, DOUBLE, DMK_N_("Sub-millisecond up to"),
      "sub_ms"),
};

static const DmkLabFindingField mixed_fields[] = {
    F(DmkLabMixed, "shares", NONE, n, COUNT, DMK_N_("Read shares measured"), NULL),
    F(DmkLabMixed, "mean", MB_S, mean_mb_s, DOUBLE, DMK_N_("Average"), NULL),
};

static const DmkLabFindingField recovery_fields[] = {
    /* TRANSLATORS: the recovery test's phases: the drive fresh, degraded by writes, after
       idling, after TRIM. */
    F(DmkLabRecovery, "fresh", SPEED, value[0], DOUBLE, DMK_N_("Fresh"), NULL),
    F(DmkLabRecovery, "degraded", SPEED, value[1], DOUBLE, DMK_N_("Degraded"), NULL),
    F(DmkLabRecovery, "after_idle", SPEED, value[2], DOUBLE, DMK_N_("After idle"), NULL),
    F(DmkLabRecovery, "after_trim", SPEED, value[3], DOUBLE, DMK_N_("After TRIM"), NULL),
};

/* The order is DMK_LAB_FILES_CPU's. */
static const DmkLabFindingField files_fields[] = {
    F(DmkLabFiles, "files", NONE, files, COUNT, DMK_N_("Files"), NULL),
    F(DmkLabFiles, "size", BYTES, bytes, DOUBLE, DMK_N_("Size"), NULL),
    /* TRANSLATORS: a lab finding's label: the seconds a file-set step took. */
    F(DmkLabFiles, "wall", S, wall_s, DOUBLE, DMK_N_("Time"), NULL),
    F(DmkLabFiles, "cpu", S, cpu_s, DOUBLE, DMK_N_("CPU time"), NULL),
    F(DmkLabFiles, "speed", MB_S, mb_s, DOUBLE, DMK_N_("Speed"), NULL),
    F(DmkLabFiles, "archived", NONE, archived, BOOL, NULL, NULL),
    F(DmkLabFiles, "archive", PCT, archive_pct, DOUBLE, DMK_N_("Archive's size"), "archived"),
};

/* DMK_LAB_TRACE_FIELDS rows: a fresh result keeps each with its test. */
static const DmkLabFindingField trace_fields[] = {
    F(DmkLabTrace, "ios", NONE, ios[DMK_LAB_TRACE_ALL], COUNT, DMK_N_("All requests"), NULL),
    F(DmkLabTrace, "read_ios", NONE, ios[DMK_LAB_TRACE_READS], COUNT, DMK_N_("Read requests"),
      NULL),
    F(DmkLabTrace, "write_ios", NONE, ios[DMK_LAB_TRACE_WRITES], COUNT, DMK_N_("Write requests"),
      NULL),
    F(DmkLabTrace, "size", BYTES, bytes[DMK_LAB_TRACE_ALL], DOUBLE, DMK_N_("All data"), NULL),
    F(DmkLabTrace, "read_size", BYTES, bytes[DMK_LAB_TRACE_READS], DOUBLE, DMK_N_("Read data"),
      NULL),
    F(DmkLabTrace, "write_size", BYTES, bytes[DMK_LAB_TRACE_WRITES], DOUBLE, DMK_N_("Write data"),
      NULL),
    F(DmkLabTrace, "speed", MB_S, mb_s[DMK_LAB_TRACE_ALL], DOUBLE, DMK_N_("Average bandwidth"),
      NULL),
    F(DmkLabTrace, "read_speed", MB_S, mb_s[DMK_LAB_TRACE_READS], DOUBLE, DMK_N_("Read bandwidth"),
      NULL),
    F(DmkLabTrace, "write_speed", MB_S, mb_s[DMK_LAB_TRACE_WRITES], DOUBLE, "Write bandwidth",
      NULL),
    F(DmkLabTrace, "service", MS, service[DMK_LAB_TRACE_ALL][DMK_LAB_TRACE_MEAN], DOUBLE,
      DMK_N_("Average service time"), NULL),
    F(DmkLabTrace, "service_p50", MS, service[DMK_LAB_TRACE_ALL][DMK_LAB_TRACE_P50], DOUBLE,
      DMK_N_("Median service time"), NULL),
    F(DmkLabTrace, "service_p99", MS, service[DMK_LAB_TRACE_ALL][DMK_LAB_TRACE_P99], DOUBLE,
      DMK_N_("99th-percentile service time"), NULL),
    F(DmkLabTrace, "service_p999", MS, service[DMK_LAB_TRACE_ALL][DMK_LAB_TRACE_P999], DOUBLE,
      DMK_N_("99.9th-percentile service time"), NULL),
    F(DmkLabTrace, "read_service", MS, service[DMK_LAB_TRACE_READS][DMK_LAB_TRACE_MEAN], DOUBLE,
      DMK_N_("Read average service time"), NULL),
    F(DmkLabTrace, "read_service_p50", MS, service[DMK_LAB_TRACE_READS][DMK_LAB_TRACE_P50], DOUBLE,
      DMK_N_("Read median service time"), NULL),
    F(DmkLabTrace, "read_service_p99", MS, service[DMK_LAB_TRACE_READS][DMK_LAB_TRACE_P99], DOUBLE,
      DMK_N_("Read 99th-percentile service time"), NULL),
    F(DmkLabTrace, "read_service_p999", MS, service[DMK_LAB_TRACE_READS][DMK_LAB_TRACE_P999],
      DOUBLE, DMK_N_("Read 99.9th-percentile service time"), NULL),
    F(DmkLabTrace, "write_service", MS, service[DMK_LAB_TRACE_WRITES][DMK_LAB_TRACE_MEAN], DOUBLE,
      DMK_N_("Write average service time"), NULL),
    F(DmkLabTrace, "write_service_p50", MS, service[DMK_LAB_TRACE_WRITES][DMK_LAB_TRACE_P50],
      DOUBLE, DMK_N_("Write median service time"), NULL),
    F(DmkLabTrace, "write_service_p99", MS, service[DMK_LAB_TRACE_WRITES][DMK_LAB_TRACE_P99],
      DOUBLE, DMK_N_("Write 99th-percentile service time"), NULL),
    F(DmkLabTrace, "write_service_p999", MS, service[DMK_LAB_TRACE_WRITES][DMK_LAB_TRACE_P999],
      DOUBLE, DMK_N_("Write 99.9th-percentile service time"), NULL),
    F(DmkLabTrace, "busy", S, busy_s, DOUBLE, DMK_N_("Busy time"), NULL),
    F(DmkLabTrace, "wall", S, wall_s, DOUBLE, DMK_N_("Replay time"), NULL),
    F(DmkLabTrace, "trace", S, trace_s, DOUBLE, DMK_N_("Trace's own time"), NULL),
    F(DmkLabTrace, "replayed", S, replayed_s, DOUBLE, DMK_N_("Time with the idle gaps cut"), NULL),
    F(DmkLabTrace, "gaps_cut", NONE, gaps_cut, COUNT, DMK_N_("Idle gaps cut"), NULL),
    F(DmkLabTrace, "idle_max", MS, idle_max_ms, DOUBLE, DMK_N_("Idle threshold"), NULL),
    F(DmkLabTrace, "qd", IOS, qd, DOUBLE, DMK_N_("Average queue depth"), NULL),
};

static const DmkLabSetDesc sets[DMK_LAB_N_SETS] = {
    [DMK_LAB_SET_CLIFF] = {DMK_LAB_SET_CLIFF, "cliff", DMK_N_("Cache and steady state"),
                           cliff_fields, N(cliff_fields)},
    [DMK_LAB_SET_THERMAL] = {DMK_LAB_SET_THERMAL, "thermal", DMK_N_("Temperature"), thermal_fields,
                             N(thermal_fields)},
    [DMK_LAB_SET_LATENCY] = {DMK_LAB_SET_LATENCY, "latency", DMK_N_("Latency under load"),
                             latency_fields, N(latency_fields)},
    [DMK_LAB_SET_MIXED] = {DMK_LAB_SET_MIXED, "mixed", DMK_N_("Mixed load"), mixed_fields,
                           N(mixed_fields)},
    [DMK_LAB_SET_RECOVERY] = {DMK_LAB_SET_RECOVERY, "recovery", DMK_N_("Recovery"), recovery_fields,
                              N(recovery_fields)},
    [DMK_LAB_SET_FILES] = {DMK_LAB_SET_FILES, "files", DMK_N_("File sets"), files_fields,
                           N(files_fields)},
    [DMK_LAB_SET_TRACE] = {DMK_LAB_SET_TRACE, "trace", DMK_N_("Trace replay"), trace_fields,
                           N(trace_fields)},
};

/* The units: their word in files, the decimals kept there, their symbol. */
static const struct {
    const char *name;
    int decimals;
    const char *symbol;
} units[] = {
    [DMK_LAB_UNIT_NONE] = {"", 0, ""},         [DMK_LAB_UNIT_BYTES] = {"bytes", 0, "bytes"},
    [DMK_LAB_UNIT_S] = {"s", 3, "s"},          [DMK_LAB_UNIT_C] = {"c", 1, "C"},
    [DMK_LAB_UNIT_PCT] = {"pct", 3, "%"},      [DMK_LAB_UNIT_MS] = {"ms", 6, "ms"},
    [DMK_LAB_UNIT_MB_S] = {"mb_s", 3, "MB/s"}, [DMK_LAB_UNIT_IOPS] = {"iops", 2, "IOPS"},
    [DMK_LAB_UNIT_IOS] = {"ios", 2, "I/Os"},   [DMK_LAB_UNIT_SPEED] = {"", 3, ""},
};

const DmkLabSetDesc *dmk_lab_set(DmkLabSetId id)
{
    return (unsigned)id < DMK_LAB_N_SETS ? &sets[id] : NULL;
}

bool dmk_lab_finding_key(const char *key, size_t len, DmkLabSetId *set, size_t *field)
{
    for (size_t s = 0; s < DMK_LAB_N_SETS; s++) {
        size_t nl = strlen(sets[s].name);
        if (len <= nl || memcmp(key, sets[s].name, nl) != 0 || key[nl] != '.')
            continue;
        for (size_t i = 0; i < sets[s].n_fields; i++) {
            const char *k = sets[s].fields[i].key;
            if (strlen(k) == len - nl - 1 && memcmp(key + nl + 1, k, len - nl - 1) == 0) {
                *set = (DmkLabSetId)s;
                *field = i;
                return true;
            }
        }
    }
    return false;
}

const char *dmk_lab_unit_name(DmkLabUnit u)
{
    return (unsigned)u < N(units) ? units[u].name : "";
}

int dmk_lab_unit_decimals(DmkLabUnit u)
{
    return (unsigned)u < N(units) ? units[u].decimals : 0;
}

DmkLabUnit dmk_lab_unit_resolve(DmkLabUnit u, const char *metric)
{
    if (u != DMK_LAB_UNIT_SPEED)
        return u;
    return metric && strcmp(metric, "iops") == 0 ? DMK_LAB_UNIT_IOPS : DMK_LAB_UNIT_MB_S;
}

/* ---- a set's fields ------------------------------------------------------------ */

static const DmkLabFindingField *field_of(const DmkLabFinding *f, size_t i)
{
    return &sets[f->set].fields[i];
}

double dmk_lab_finding_get(const DmkLabFinding *f, size_t i)
{
    const DmkLabFindingField *fd = field_of(f, i);
    const char *p = (const char *)&f->u + fd->offset;
    switch (fd->kind) {
    case DMK_LAB_FIELD_BOOL:
        return *(const bool *)p ? 1.0 : 0.0;
    case DMK_LAB_FIELD_COUNT:
        return (double)*(const size_t *)p;
    case DMK_LAB_FIELD_DOUBLE:
        break;
    }
    return *(const double *)p;
}

void dmk_lab_finding_set(DmkLabFinding *f, size_t i, double v)
{
    const DmkLabFindingField *fd = field_of(f, i);
    char *p = (char *)&f->u + fd->offset;
    switch (fd->kind) {
    case DMK_LAB_FIELD_BOOL:
        *(bool *)p = v != 0;
        return;
    case DMK_LAB_FIELD_COUNT:
        *(size_t *)p = v >= 0 && v < (double)SIZE_MAX ? (size_t)v : 0;
        return;
    case DMK_LAB_FIELD_DOUBLE:
        break;
    }
    *(double *)p = v;
}

DmkLabUnit dmk_lab_finding_unit(const DmkLabFinding *f, size_t i)
{
    return dmk_lab_unit_resolve(field_of(f, i)->unit, f->metric);
}

char *dmk_lab_finding_cell(const DmkLabFinding *f, size_t i, char *buf, size_t len)
{
    double v = dmk_lab_finding_get(f, i);
    if (field_of(f, i)->kind != DMK_LAB_FIELD_DOUBLE) {
        snprintf(buf, len, "%.0f", v);
        return buf;
    }
    DmkLabUnit u = dmk_lab_finding_unit(f, i);
    /* A temperature no drive gives is no reading, as in the samples. */
    bool implausible = u == DMK_LAB_UNIT_C && !(v >= DMK_TEMP_MIN_C && v <= DMK_TEMP_MAX_C);
    if (!isfinite(v) || implausible) {
        snprintf(buf, len, "%s", "");
        return buf;
    }
    return dmk_format_double(v, dmk_lab_unit_decimals(u), buf, len);
}

/* strtod of what dmk_format_double wrote, whatever the C locale's decimal
 * point is (the window runs in the user's locale). */
static double parse_c(const char *s)
{
    const char *dp = localeconv()->decimal_point;
    char b[400];
    size_t o = 0, dl = strlen(dp);
    for (size_t i = 0; s[i] && o + dl + 1 < sizeof b; i++) {
        if (s[i] == '.') {
            memcpy(b + o, dp, dl);
            o += dl;
        } else {
            b[o++] = s[i];
        }
    }
    b[o] = '\0';
    return strtod(b, NULL);
}

/* Every figure as the file will keep it: a fresh result reads as its
 * saved file, to the digit. */
static void round_as_saved(DmkLabFinding *f)
{
    char b[400];
    for (size_t i = 0; i < sets[f->set].n_fields; i++) {
        if (field_of(f, i)->kind != DMK_LAB_FIELD_DOUBLE)
            continue;
        dmk_lab_finding_cell(f, i, b, sizeof b);
        dmk_lab_finding_set(f, i, b[0] ? parse_c(b) : NAN);
    }
}

/* ---- the sets of a result ------------------------------------------------------ */

static DmkLabFinding *add(DmkLabFindings *out, DmkLabSetId set, size_t test, const char *metric)
{
    if (out->n >= DMK_LAB_MAX_FINDINGS)
        return NULL;
    DmkLabFinding *f = &out->f[out->n++];
    memset(f, 0, sizeof *f);
    f->set = set;
    f->test = test;
    f->metric = metric;
    return f;
}

/* The sets of one run, with their anchor's block size. */
static void set_block_sizes(const DmkRunResult *r, DmkLabFindings *out)
{
    for (size_t k = 0; k < out->n; k++)
        out->f[k].block_size = r->tests[out->f[k].test].test.jobs[0].block_size;
}

/* Cache and temperature of one timeline test. */
static void add_timeline(const DmkRunResult *r, size_t i, DmkLabFindings *out)
{
    const DmkTestResult *t = &r->tests[i];
    const char *metric = dmk_lab_metric(&t->test);
    DmkLabFinding *f = add(out, DMK_LAB_SET_CLIFF, i, metric);
    if (f)
        dmk_lab_cliff(t->samples, t->n_samples, metric, &f->u.cliff);
    f = add(out, DMK_LAB_SET_THERMAL, i, metric);
    if (f)
        dmk_lab_thermal(t->samples, t->n_samples, metric, &f->u.thermal);
}

void dmk_lab_findings_first_timeline(const DmkRunResult *r, DmkLabFindings *out)
{
    if (r->n_tests)
        add_timeline(r, 0, out);
}

void dmk_lab_findings_mixed(const DmkRunResult *r, DmkLabFindings *out)
{
    /* The report's two patterns (sequential, random), each anchored at
     * its first share: dmk_lab_mixed groups the tests by name the same way. */
    DmkLabMixed m[2];
    size_t n = dmk_lab_mixed(r, m, 2);
    for (size_t j = 0, i = 0; j < n && i < r->n_tests; j++) {
        DmkLabFinding *f = add(out, DMK_LAB_SET_MIXED, i, "mb_s");
        if (f)
            f->u.mixed = m[j];
        size_t first = i;
        while (i < r->n_tests && strcmp(r->tests[i].test.name, r->tests[first].test.name) == 0)
            i++;
    }
}

void dmk_lab_findings_latency(const DmkRunResult *r, DmkLabFindings *out)
{
    DmkLabLatency l[DMK_LAB_LAT_PROFILES * 4];
    size_t n = dmk_lab_latency(r, l, N(l));
    for (size_t j = 0; j < n; j++) {
        DmkLabFinding *f = add(out, DMK_LAB_SET_LATENCY, l[j].first, "iops");
        if (f)
            f->u.latency = l[j];
    }
}

void dmk_lab_findings_recovery(const DmkRunResult *r, DmkLabFindings *out)
{
    if (r->n_tests == 0)
        return;
    DmkLabRecovery rec;
    dmk_lab_recovery(r, &rec);
    DmkLabFinding *f = add(out, DMK_LAB_SET_RECOVERY, 0, rec.metric);
    if (f)
        f->u.recovery = rec;
    const DmkTestResult *deg = dmk_lab_timeline_test(r);
    if (deg && deg->n_samples)
        add_timeline(r, (size_t)(deg - r->tests), out);
}

void dmk_lab_findings_computed(const DmkRunResult *r, DmkLabFindings *out)
{
    out->n = 0;
    const DmkLabTest *lab = dmk_lab_test(dmk_lab_from_name(r->lab));
    if (lab && lab->findings)
        lab->findings(r, out);
    set_block_sizes(r, out);
    for (size_t k = 0; k < out->n; k++)
        round_as_saved(&out->f[k]);
}

void dmk_lab_findings(const DmkRunResult *r, DmkLabFindings *out)
{
    dmk_lab_findings_computed(r, out);
    for (size_t k = 0; k < out->n; k++) {
        DmkLabFinding *f = &out->f[k];
        const DmkTestResult *t = &r->tests[f->test];
        for (size_t j = 0; j < t->n_findings; j++) {
            const DmkSavedFinding *s = &t->findings[j];
            if (s->set == f->set && s->field < sets[f->set].n_fields)
                dmk_lab_finding_set(f, s->field, s->value);
        }
    }
}

const DmkLabFinding *dmk_lab_findings_at(const DmkLabFindings *all, DmkLabSetId set, size_t test)
{
    for (size_t k = 0; k < all->n; k++)
        if (all->f[k].set == set && all->f[k].test == test)
            return &all->f[k];
    return NULL;
}

/* ---- as found, for the charts ---------------------------------------------------- */

void dmk_lab_timeline_found(const DmkRunResult *r, const DmkTestResult *t, const char *metric,
                            DmkLabCliff *cliff, DmkLabThermal *thermal)
{
    dmk_lab_cliff(t->samples, t->n_samples, metric, cliff);
    dmk_lab_thermal(t->samples, t->n_samples, metric, thermal);
    DmkLabFindings *all = malloc(sizeof *all);
    if (!all)
        return;
    dmk_lab_findings(r, all);
    size_t i = (size_t)(t - r->tests);
    const DmkLabFinding *c = dmk_lab_findings_at(all, DMK_LAB_SET_CLIFF, i);
    const DmkLabFinding *th = dmk_lab_findings_at(all, DMK_LAB_SET_THERMAL, i);
    if (c && strcmp(c->metric, metric) == 0)
        *cliff = c->u.cliff;
    if (th && strcmp(th->metric, metric) == 0)
        *thermal = th->u.thermal;
    free(all);
}

void dmk_lab_recovery_found(const DmkRunResult *r, DmkLabRecovery *out)
{
    dmk_lab_recovery(r, out);
    DmkLabFindings *all = malloc(sizeof *all);
    if (!all)
        return;
    dmk_lab_findings(r, all);
    const DmkLabFinding *f = dmk_lab_findings_at(all, DMK_LAB_SET_RECOVERY, 0);
    if (f)
        *out = f->u.recovery;
    free(all);
}

size_t dmk_lab_mixed_found(const DmkRunResult *r, DmkLabMixed *out, size_t max)
{
    size_t n = dmk_lab_mixed(r, out, max);
    DmkLabFindings *all = malloc(sizeof *all);
    if (!all)
        return n;
    dmk_lab_findings(r, all);
    for (size_t k = 0, j = 0; k < all->n && j < n; k++)
        if (all->f[k].set == DMK_LAB_SET_MIXED)
            out[j++] = all->f[k].u.mixed;
    free(all);
    return n;
}

/* ---- for people ---------------------------------------------------------------- */

bool dmk_lab_cliff_is_thermal(const DmkLabFindings *all, const DmkLabFinding *cliff)
{
    const DmkLabFinding *th = dmk_lab_findings_at(all, DMK_LAB_SET_THERMAL, cliff->test);
    return th && th->u.thermal.throttled && cliff->u.cliff.cliff &&
           fabs(th->u.thermal.throttle_t_s - cliff->u.cliff.cliff_t_s) < 1e-6;
}

/* The row of f's set with that key, or -1. */
static int row_of(const DmkLabFinding *f, const char *key)
{
    for (size_t i = 0; key && i < sets[f->set].n_fields; i++)
        if (strcmp(sets[f->set].fields[i].key, key) == 0)
            return (int)i;
    return -1;
}

/* The cliff set's "cliff" row: a cache was found. */
static bool is_cliff_row(const DmkLabFinding *f, const char *key)
{
    return f->set == DMK_LAB_SET_CLIFF && key && strcmp(key, "cliff") == 0;
}

bool dmk_lab_finding_shown(const DmkLabFindings *all, const DmkLabFinding *f, size_t i)
{
    if (!field_of(f, i)->label) /* said with another row (a +-) or by the report only */
        return false;
    const char *when = field_of(f, i)->when;
    int w = row_of(f, when);
    if (w >= 0 && dmk_lab_finding_get(f, (size_t)w) == 0)
        return false;
    /* The report's rule: a drop that came with throttling is no cache. */
    return !(is_cliff_row(f, when) && dmk_lab_cliff_is_thermal(all, f));
}

char *dmk_lab_size_text(double bytes, char *buf, size_t len)
{
    char n[64];
    /* Below what rounds to 1024 MiB: byte counts summed from samples
     * (MB/s x seconds) land a hair either side of a whole GiB. */
    if (bytes < 1023.5 * (double)(1ULL << 20))
        snprintf(buf, len, "%s MiB",
                 dmk_format_double(bytes / (double)(1ULL << 20), 0, n, sizeof n));
    else
        snprintf(buf, len, "%s GiB",
                 dmk_format_double(bytes / (double)(1ULL << 30), 1, n, sizeof n));
    return buf;
}

char *dmk_lab_size_within_text(double bytes, double err, char *buf, size_t len)
{
    char a[64], b[64], c[64];
    double mib = (double)(1ULL << 20), err_mib = ceil(err / mib);
    if (!(err_mib >= 1))
        err_mib = 1; /* a sample holds whole I/Os: no finer than that */
    dmk_lab_size_text(bytes, a, sizeof a);
    if (err_mib >= 1024)
        /* TRANSLATORS: a size found ("32 GiB") and its margin in GiB ("1.5"). */
        snprintf(buf, len, DMK_("about %s +-%s GiB"), a,
                 dmk_format_double(err / (mib * 1024), 1, b, sizeof b));
    else if (bytes < 1023.5 * mib)
        /* TRANSLATORS: a size found ("600 MiB") and its margin in MiB ("4"). */
        snprintf(buf, len, DMK_("about %s +-%s MiB"), a,
                 dmk_format_thousands(err_mib, 0, b, sizeof b));
    else
        /* TRANSLATORS: a size found ("32.0 GiB"), the same in MiB ("32,768"), its margin. */
        snprintf(buf, len, DMK_("about %s (%s +-%s MiB)"), a,
                 dmk_format_thousands(bytes / mib, 0, c, sizeof c),
                 dmk_format_thousands(err_mib, 0, b, sizeof b));
    return buf;
}

char *dmk_lab_finding_text(const DmkLabFindings *all, const DmkLabFinding *f, size_t i, char *buf,
                           size_t len)
{
    const DmkLabFindingField *fd = field_of(f, i);
    double v = dmk_lab_finding_get(f, i);
    char n[64];
    if (fd->kind == DMK_LAB_FIELD_BOOL) {
        bool thermal = is_cliff_row(f, fd->key) && dmk_lab_cliff_is_thermal(all, f);
        /* TRANSLATORS: a lab finding's answer: whether a cache, a sensor ... was found. */
        snprintf(buf, len, "%s",
                 thermal ? DMK_("no (thermal throttling)")
                 : v     ? DMK_("yes")
                         : DMK_("no"));
        return buf;
    }
    if (fd->kind == DMK_LAB_FIELD_COUNT) {
        snprintf(buf, len, "%s", dmk_format_thousands(v, 0, n, sizeof n));
        return buf;
    }
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", DMK_("not measured"));
        return buf;
    }
    DmkLabUnit u = dmk_lab_finding_unit(f, i);
    switch (u) {
    case DMK_LAB_UNIT_BYTES:
        /* The cache as the report says it: with the resolution it has. */
        if (f->set == DMK_LAB_SET_CLIFF && strcmp(fd->key, "cache") == 0)
            return dmk_lab_size_within_text(v, f->u.cliff.cache_bytes_err, buf, len);
        return dmk_lab_size_text(v, buf, len);
    case DMK_LAB_UNIT_C: /* the report's: whole degrees */
        snprintf(buf, len, "%s C", dmk_format_double(v, 0, n, sizeof n));
        return buf;
    default:
        break;
    }
    if (fd->unit == DMK_LAB_UNIT_SPEED && u == DMK_LAB_UNIT_IOPS) {
        char mb[64];
        snprintf(buf, len, "%s IOPS (%s MB/s)", dmk_format_figure(v, n, sizeof n),
                 dmk_format_figure(v * f->block_size / 1e6, mb, sizeof mb));
        return buf;
    }
    snprintf(buf, len, "%s%s%s", dmk_format_figure(v, n, sizeof n), units[u].symbol[0] ? " " : "",
             units[u].symbol);
    return buf;
}

char *dmk_lab_profile_words(const DmkTest *t, char *buf, size_t len)
{
    char bl[32];
    bool seq = t->jobs[0].pattern == DMK_PATTERN_SEQ, rd = t->mode == DMK_MODE_READ;
    dmk_block_label(t->jobs[0].block_size, bl, sizeof bl);
    /* TRANSLATORS: a lab profile: %s is a block size ("4KiB"); the access is sequential or
       random, the test reads or writes. */
    snprintf(buf, len,
             seq ? (rd ? DMK_("%s sequential read") : DMK_("%s sequential write"))
                 : (rd ? DMK_("%s random read") : DMK_("%s random write")),
             bl);
    return buf;
}

const char *dmk_lab_set_title(DmkLabSetId id)
{
    return (unsigned)id < DMK_LAB_N_SETS ? DMK_(sets[id].title) : "";
}

const char *dmk_lab_field_label(const DmkLabFindingField *field)
{
    return field->label ? DMK_(field->label) : NULL;
}

char *dmk_lab_finding_title(const DmkRunResult *r, const DmkLabFinding *f, char *buf, size_t len)
{
    const DmkTest *t = &r->tests[f->test].test;
    const char *title = dmk_lab_set_title(f->set);
    char w[96];
    switch (f->set) {
    case DMK_LAB_SET_LATENCY:
        snprintf(buf, len, "%s (%s)", dmk_lab_profile_words(t, w, sizeof w), t->name);
        break;
    case DMK_LAB_SET_MIXED:
        /* TRANSLATORS: a set's title: %s is its test's name ("RND4K Q32T1"). */
        snprintf(buf, len, DMK_("Mixed load %s"), t->name);
        break;
    case DMK_LAB_SET_CLIFF:
    case DMK_LAB_SET_THERMAL:
        /* A recovery's timeline is its degradation: say so. */
        if (strcmp(t->label, "degradation") == 0)
            /* TRANSLATORS: a set's title ("Temperature") during the recovery test's phase
               that wears the drive down. */
            snprintf(buf, len, DMK_("%s (degradation)"), title);
        else
            snprintf(buf, len, "%s", title);
        break;
    case DMK_LAB_SET_FILES: /* one per step: "Work archive", the step's label as saved */
        snprintf(buf, len, "%s", t->label[0] ? t->label : title);
        break;
    default:
        snprintf(buf, len, "%s", title);
        break;
    }
    return buf;
}
