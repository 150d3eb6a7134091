/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The review-lab report: what the analysis found, in sentences a reviewer
 * can quote, with the unit on every number. Shared by drivemark-cli and
 * the window. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-lab-findings.h"
#include "dmk-lab-private.h"
#include "dmk-lab.h"
#include "dmk-report.h"
#include "dmk-size.h"
#include "dmk-surface.h"

struct DmkLabOut {
    char *buf;
    size_t len, used; /* used may exceed len: snprintf's rule */
    /* What was found, as the file says where it was loaded from one
     * (dmk_lab_findings): every figure below is one of these. */
    DmkLabFindings found;
};
typedef struct DmkLabOut Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(DMK_PRINTF_FORMAT, 2, 3)));

static void put(Out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->used < o->len ? o->len - o->used : 0;
    int n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->used += (size_t)n;
}

/* 123456.7 -> "123,457", 9.996 -> "10.0": dmk_format_figure, short here
 * where a sentence holds several. */
static const char *num(double v, char *buf, size_t len)
{
    return dmk_format_figure(v, buf, len);
}

static const char *gib(double bytes, char *buf, size_t len)
{
    return dmk_lab_size_text(bytes, buf, len);
}

/* "180,000 IOPS (737 MB/s)" for random tests, "1,850 MB/s" for sequential
 * ones: numbers and units, never translated, put into the sentences. */
static const char *speed_text(double v, bool iops, uint32_t bs, char *buf, size_t len)
{
    char a[32], b[32];
    if (iops)
        snprintf(buf, len, "%s IOPS (%s MB/s)", num(v, a, sizeof a),
                 num(v * bs / 1e6, b, sizeof b));
    else
        snprintf(buf, len, "%s MB/s", num(v, a, sizeof a));
    return buf;
}

/* A raw device has no test file: the test wrote over a region of it, and
 * the device's size is what the plain report gives ("raw device of"). */
static void put_device_header(Out *o, const DmkRunResult *r, const char *title, const char *area)
{
    const DmkTargetInfo *t = &r->target;
    char dev[32];
    bool model = t->model[0] != '\0';
    if (t->fs_size_bytes) {
        dmk_format_size(t->fs_size_bytes, dev, sizeof dev);
        if (model)
            /* TRANSLATORS: %1$s is the lab test ("Sustained write"), %2$s what it wrote over
               ("1 GiB region of /dev/sdb"), %3$s the device's size, %4$s its model, %5$s the
               date. */
            put(o, DMK_("%s on a %s (raw device of %s, %s), %s\n"), title, area, dev, t->model,
                r->date);
        else
            put(o, DMK_("%s on a %s (raw device of %s), %s\n"), title, area, dev, r->date);
    } else if (model) {
        put(o, DMK_("%s on a %s (raw device, %s), %s\n"), title, area, t->model, r->date);
    } else {
        put(o, DMK_("%s on a %s (raw device), %s\n"), title, area, r->date);
    }
}

static void put_header(Out *o, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    const char *title = DMK_(dmk_lab_title(dmk_lab_from_name(r->lab)));
    char area[sizeof t->path + 64];
    const char *fs = t->fs_type[0] ? t->fs_type : "?";
    dmk_result_area(r, area, sizeof area);
    if (t->is_device)
        put_device_header(o, r, title, area);
    else if (t->model[0])
        /* TRANSLATORS: %1$s is the lab test, %2$s the folder, %3$s its file system ("ext4"),
           %4$s the drive's model, %5$s what was tested ("32 GiB test file"), %6$s the date. */
        put(o, DMK_("%s on %s (%s, %s), %s, %s\n"), title, t->path, fs, t->model, area, r->date);
    else
        put(o, DMK_("%s on %s (%s), %s, %s\n"), title, t->path, fs, area, r->date);
    if (!r->complete)
        put(o, "%s\n",
            DMK_("Stopped before the end: what follows is what was measured until then."));
    /* What the file system did to the test file (honest numbers). */
    char notes[2048];
    dmk_run_fs_notes(r, notes, sizeof notes);
    for (char *line = notes, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1)
        /* TRANSLATORS: %.*s is a note on the file system or the storage, a sentence. */
        put(o, DMK_("Note: %.*s.\n"), (int)(nl - line), line);
}

static void put_temperature(Out *o, const DmkRunResult *r, const DmkTestResult *t, bool iops,
                            const DmkLabThermal *thermal)
{
    const DmkLabThermal th = *thermal;
    char a[32], b[32], s1[96], s2[96];
    if (!th.sensor) {
        if (r->target.device[0])
            /* TRANSLATORS: %s is a device ("/dev/nvme0n1"). */
            put(o, DMK_("Temperature: no temperature sensor readable for %s.\n"), r->target.device);
        else
            put(o, "%s\n", DMK_("Temperature: no temperature sensor readable for this drive."));
        return;
    }
    /* TRANSLATORS: the lowest and highest temperature in degrees C, then the sensor's name. */
    put(o, DMK_("Temperature: %s to %s C (%s)."), dmk_format_double(th.min_c, 0, a, sizeof a),
        dmk_format_double(th.max_c, 0, b, sizeof b),
        r->target.temp_sensor[0] ? r->target.temp_sensor : DMK_("drive sensor"));
    if (!th.throttled) {
        put(o, " %s\n", DMK_("No thermal throttling detected."));
        return;
    }
    uint32_t bs = t->test.jobs[0].block_size;
    /* TRANSLATORS: %1$s seconds, %2$s degrees C, %3$s and %4$s speeds ("1,850 MB/s"). */
    put(o,
        DMK_(" Thermal throttling: after %s s, at its maximum of %s C, the speed fell from "
             "%s to %s.\n"),
        num(th.throttle_t_s, a, sizeof a), dmk_format_double(th.throttle_c, 0, b, sizeof b),
        speed_text(th.before, iops, bs, s1, sizeof s1),
        speed_text(th.after, iops, bs, s2, sizeof s2));
}

/* The cache and temperature of timeline test t, as found (or, for a test
 * the lab's findings do not anchor, from its samples). */
static void found_timeline(const Out *o, const DmkRunResult *r, const DmkTestResult *t,
                           DmkLabCliff *c, DmkLabThermal *th)
{
    size_t i = (size_t)(t - r->tests);
    const DmkLabFinding *fc = dmk_lab_findings_at(&o->found, DMK_LAB_SET_CLIFF, i);
    const DmkLabFinding *ft = dmk_lab_findings_at(&o->found, DMK_LAB_SET_THERMAL, i);
    const char *metric = dmk_lab_metric(&t->test);
    if (fc)
        *c = fc->u.cliff;
    else
        dmk_lab_cliff(t->samples, t->n_samples, metric, c);
    if (ft)
        *th = ft->u.thermal;
    else
        dmk_lab_thermal(t->samples, t->n_samples, metric, th);
}

/* The timeline's first line: the test, what it wrote, how it sampled. */
static void put_timeline_head(Out *o, const DmkTestResult *t, const DmkLabCliff *c)
{
    char a[32], b[32], d[32];
    double secs = t->n_samples ? t->samples[t->n_samples - 1].t_s : 0.0;
    double period = t->n_samples ? t->samples[0].t_s : 0.0;
    gib(c->total_bytes, a, sizeof a);
    num(secs, b, sizeof b);
    dmk_format_double(period, period < 1 ? 1 : 0, d, sizeof d);
    if (t->partial)
        /* TRANSLATORS: %1$s is the test's name ("RND4K Q32T1"), %2$s its label as saved
           ("sustained"), %3$s a size, %4$s and %5$s seconds. */
        put(o,
            DMK_("%s write, %s: %s written in %s s, sampled every %s s (stopped "
                 "early).\n"),
            t->test.name, t->test.label, a, b, d);
    else
        put(o, DMK_("%s write, %s: %s written in %s s, sampled every %s s.\n"), t->test.name,
            t->test.label, a, b, d);
}

static void put_cache(Out *o, const DmkLabCliff *c, bool thermal_drop, bool iops, uint32_t bs)
{
    char a[32], z[96], s1[96], s2[96];
    if (c->n < 10) {
        /* TRANSLATORS: %zu is a count of samples. */
        put(o, DMK_("Cache: too few samples (%zu) to look for a cache.\n"), c->n);
        return;
    }
    if (thermal_drop || c->cliff)
        dmk_lab_size_within_text(c->cache_bytes, c->cache_bytes_err, z, sizeof z);
    if (thermal_drop)
        /* TRANSLATORS: %1$s is seconds, %2$s a size ("about 32 GiB +-1 GiB"). */
        put(o,
            DMK_("Cache: no cache detected; the speed drop at %s s (after %s) came as the "
                 "drive reached its maximum temperature: thermal throttling, below.\n"),
            num(c->cliff_t_s, a, sizeof a), z);
    else if (c->cliff)
        /* TRANSLATORS: %1$s is a size ("about 32 GiB +-1 GiB"), %2$s seconds, %3$s and %4$s
           speeds ("1,850 MB/s"). */
        put(o, DMK_("Cache: %s written before the speed dropped at %s s, from %s to %s.\n"), z,
            num(c->cliff_t_s, a, sizeof a), speed_text(c->before, iops, bs, s1, sizeof s1),
            speed_text(c->after, iops, bs, s2, sizeof s2));
    else
        /* TRANSLATORS: %s is a size ("64 GiB"). */
        put(o, DMK_("Cache: no cache detected in %s written (no sustained drop in speed).\n"),
            gib(c->total_bytes, a, sizeof a));
}

static void put_steady(Out *o, const DmkLabCliff *c, bool iops, uint32_t bs)
{
    char a[32], b[32], s1[96];
    if (c->n < 10)
        return;
    speed_text(c->steady_mean, iops, bs, s1, sizeof s1);
    num(c->steady_excursion_pct, a, sizeof a);
    num(c->steady_within_pct, b, sizeof b);
    if (c->steady)
        /* TRANSLATORS: %1$s is a speed ("1,850 MB/s"), %2$s and %3$s percentages. */
        put(o,
            DMK_("Steady state (last 20 %% of the run): %s, largest excursion %s %%, %s %% "
                 "of samples within +-20 %% of the mean (steady).\n"),
            s1, a, b);
    else
        put(o,
            DMK_("Steady state (last 20 %% of the run): %s, largest excursion %s %%, %s %% "
                 "of samples within +-20 %% of the mean (not steady).\n"),
            s1, a, b);
}

/* Sustained, full span and the recovery's degradation: the cliff story. */
static void put_timeline(Out *o, const DmkRunResult *r, const DmkTestResult *t)
{
    bool iops = strcmp(dmk_lab_metric(&t->test), "iops") == 0;
    uint32_t bs = t->test.jobs[0].block_size;
    DmkLabCliff c;
    DmkLabThermal th;
    found_timeline(o, r, t, &c, &th);
    put_timeline_head(o, t, &c);
    bool thermal_drop = th.throttled && c.cliff && fabs(th.throttle_t_s - c.cliff_t_s) < 1e-6;
    put_cache(o, &c, thermal_drop, iops, bs);
    put_steady(o, &c, iops, bs);
    put_temperature(o, r, t, iops, &th);
}

void dmk_lab_report_mixed(Out *o, const DmkRunResult *r)
{
    (void)r;
    DmkLabMixed m[2];
    size_t n = 0;
    for (size_t k = 0; k < o->found.n && n < 2; k++)
        if (o->found.f[k].set == DMK_LAB_SET_MIXED)
            m[n++] = o->found.f[k].u.mixed;
    char a[32];
    /* TRANSLATORS: the mixed table's first column's heading: the share of reads (%%). */
    put(o, "%-14s", DMK_("Read share"));
    for (size_t j = 0; j < n; j++)
        put(o, " %16s", m[j].name);
    put(o, "\n");
    for (size_t k = 0; k < DMK_LAB_MIX_STEPS; k++) {
        put(o, "%10u %%   ", dmk_lab_mix_share[k]);
        for (size_t j = 0; j < n; j++)
            put(o, " %11s MB/s", k < m[j].n ? num(m[j].mb_s[k], a, sizeof a) : "-");
        put(o, "\n");
    }
    /* TRANSLATORS: the mixed table's last row: the mean over every read share. */
    put(o, "%-14s", DMK_("Average"));
    for (size_t j = 0; j < n; j++)
        put(o, " %11s MB/s", num(m[j].mean_mb_s, a, sizeof a));
    put(o, "\n");
    /* A step whose reads were 0.1 point or more off its row's share (each
     * worker holds it by construction, dmk-mix.h, so only the I/Os at a
     * short step's edges can): its figure is of the mix it had. */
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        uint32_t asked = t->test.jobs[0].read_share;
        if (t->test.mode == DMK_MODE_MIX && dmk_share_note(&t->score, asked, a, sizeof a)[0])
            /* TRANSLATORS: %1$s is the test's name, %2$u the read share asked (%%), %3$s the
               share measured ("read 71.3 % measured"). */
            put(o, DMK_("%s at %u %% read: %s\n"), t->test.name, asked, a);
    }
}

/* The profile's line: its peak and how far it stayed under 1 ms. */
static void put_latency_line(Out *o, const DmkRunResult *r, const DmkLabLatency *l)
{
    char a[32], b[32], c[32], e[96], f[32], g[32];
    const DmkTest *t0 = &r->tests[l->first].test;
    dmk_lab_profile_words(t0, e, sizeof e);
    dmk_format_thousands(l->outstanding_set, 0, f, sizeof f);
    num(l->sub_ms_iops, g, sizeof g);
    if (l->peak_iops <= 0) {
        if (l->sub_ms)
            /* TRANSLATORS: %1$s is the profile ("4KiB random read"), %2$s its test's name,
               %3$s I/Os outstanding, %4$s IOPS. */
            put(o,
                DMK_("%s (%s, %s outstanding): no step measured; sub-millisecond up to "
                     "%s IOPS.\n"),
                e, l->name, f, g);
        else
            put(o,
                DMK_("%s (%s, %s outstanding): no step measured; no step stayed under "
                     "1 ms.\n"),
                e, l->name, f);
        return;
    }
    num(l->peak_iops, a, sizeof a);
    num(l->peak_lat_ms, b, sizeof b);
    num(l->peak_outstanding, c, sizeof c);
    if (l->sub_ms)
        /* TRANSLATORS: the profile ("4KiB random read"), its test's name, the I/Os
           outstanding; the peak's IOPS, ms and I/Os, the I/Os outstanding again; IOPS. Use
           %1$s... to reorder. */
        put(o,
            DMK_("%s (%s, %s outstanding): peak %s IOPS at %s ms mean latency with "
                 "%s of the %s outstanding; sub-millisecond up to %s IOPS.\n"),
            e, l->name, f, a, b, c, f, g);
    else
        put(o,
            DMK_("%s (%s, %s outstanding): peak %s IOPS at %s ms mean latency with "
                 "%s of the %s outstanding; no step stayed under 1 ms.\n"),
            e, l->name, f, a, b, c, f);
}

static void put_latency_profile(Out *o, const DmkRunResult *r, const DmkLabLatency *l)
{
    char a[32], b[32], c[32], d[32], e[64];
    put_latency_line(o, r, l);
    /* TRANSLATORS: the latency table's headings: the step, the IOPS it was held to, the IOPS
       done, the mean and 99th-percentile latency, the I/Os outstanding. */
    put(o, "  %-6s %14s %14s %12s %12s %12s\n", DMK_("step"), DMK_("target IOPS"), "IOPS",
        DMK_("mean ms"), DMK_("p99 ms"), DMK_("outstanding"));
    for (size_t i = l->first; i < l->first + l->count; i++) {
        const DmkTestResult *t = &r->tests[i];
        const DmkStats *s = &t->score.total;
        /* what the step had queued on average, by Little's law */
        double q = t->n_passes ? s->iops * s->lat_mean_us / 1e6 : NAN;
        put(o, "  %-6s %14s %14s %12s %12s %12s%s%s\n", t->test.label,
            /* TRANSLATORS: a latency step not held to a rate: at full speed. */
            t->test.rate_iops ? num((double)t->test.rate_iops, a, sizeof a) : DMK_("full"),
            num(s->iops, b, sizeof b), num(s->lat_mean_us / 1000.0, c, sizeof c),
            num(s->lat_p99_us / 1000.0, d, sizeof d), num(q, e, sizeof e),
            t->partial ? DMK_(" (stopped)") : "",
            /* TRANSLATORS: marks the table's peak row. */
            l->peak_iops > 0 && i == l->peak_step ? DMK_(" <- peak") : "");
    }
}

void dmk_lab_report_latency(Out *o, const DmkRunResult *r)
{
    size_t n = 0;
    for (size_t k = 0; k < o->found.n; k++)
        if (o->found.f[k].set == DMK_LAB_SET_LATENCY) {
            put_latency_profile(o, r, &o->found.f[k].u.latency);
            n++;
        }
    char a[32];
    if (n)
        put(o,
            /* TRANSLATORS: %s is a percentage ("10"). */
            DMK_("Peak: the step of the lowest mean latency within %s %% of the profile's most "
                 "IOPS; outstanding: IOPS x mean latency (Little's law).\n"),
            dmk_format_double(DMK_LAB_PEAK_TOL_PCT, 0, a, sizeof a));
}

void dmk_lab_report_recovery(Out *o, const DmkRunResult *r)
{
    DmkLabRecovery rec;
    const DmkLabFinding *f = dmk_lab_findings_at(&o->found, DMK_LAB_SET_RECOVERY, 0);
    if (f)
        rec = f->u.recovery;
    else
        dmk_lab_recovery(r, &rec);
    bool iops = strcmp(rec.metric, "iops") == 0;
    uint32_t bs = r->n_tests ? r->tests[0].test.jobs[0].block_size : 4096;
    for (int k = 0; k < 4; k++) {
        char sp[96];
        /* The phase's label is English in the file ("after idle"): translated here. */
        put(o, "%-12s %s\n", DMK_(rec.label[k]),
            isnan(rec.value[k]) ? DMK_("not measured")
                                : speed_text(rec.value[k], iops, bs, sp, sizeof sp));
    }
    const DmkTestResult *deg = dmk_lab_timeline_test(r);
    if (deg && deg->n_samples)
        put_timeline(o, r, deg);
}

/* GNOME Disks' two headline figures, with their spread. */
void dmk_lab_report_surface(Out *o, const DmkRunResult *r)
{
    DmkSurface s;
    char a[32], b[32], c[32], z[32];
    if (dmk_surface_of(r, &s) != DMK_OK) {
        put(o, "%s\n", DMK_("Out of memory for the surface scan's figures."));
        return;
    }
    if (s.n_samples)
        /* TRANSLATORS: MB/s: the mean, the lowest, the highest; %4$zu samples of %5$s bytes
           ("10 MiB"). The two lines' labels are padded to one width. */
        put(o, DMK_("Read rate    %s MB/s on average (%s to %s) over %zu samples of %s\n"),
            num(s.rate_avg, a, sizeof a), num(s.rate_min, b, sizeof b),
            num(s.rate_max, c, sizeof c), s.n_samples,
            dmk_format_size((uint64_t)s.sample_bytes, z, sizeof z));
    else
        put(o, "%s\n", DMK_("Read rate    not measured"));
    if (s.n_accesses)
        /* TRANSLATORS: ms: the mean, the lowest, the highest; %4$zu random reads. */
        put(o, DMK_("Access time  %s ms on average (%s to %s) over %zu random reads\n"),
            dmk_format_double(s.access_avg_ms, 2, a, sizeof a),
            dmk_format_double(s.access_min_ms, 2, b, sizeof b),
            dmk_format_double(s.access_max_ms, 2, c, sizeof c), s.n_accesses);
    else
        put(o, "%s\n", DMK_("Access time  not measured"));
    dmk_surface_free(&s);
}

/* The file-set test: one row per step, CPU time beside the wall time, so
 * a reader sees where Deflate and not the drive set the pace. */
void dmk_lab_report_files_table(Out *o, const DmkRunResult *r)
{
    char a[32], b[32], c[32], d[32], e[32];
    /* TRANSLATORS: the file-set table's headings: the step, its files, their size, the wall
       time, the CPU time, the speed, the archive's size in %% of the set's. */
    put(o, "%-13s %8s %10s %10s %10s %10s %8s\n", DMK_("Step"), DMK_("Files"), DMK_("Size"),
        DMK_("Time"), DMK_("CPU"), "MB/s", DMK_("Archive"));
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkLabFinding *f = dmk_lab_findings_at(&o->found, DMK_LAB_SET_FILES, i);
        if (!f)
            continue;
        const DmkLabFiles *x = &f->u.files;
        char w[32];
        snprintf(c, sizeof c, "%s s", dmk_format_double(x->wall_s, 2, w, sizeof w));
        snprintf(d, sizeof d, "-");
        if (isfinite(x->cpu_s))
            snprintf(d, sizeof d, "%s s", dmk_format_double(x->cpu_s, 2, w, sizeof w));
        e[0] = '\0'; /* only the archive step has a size in % */
        if (isfinite(x->archive_pct))
            snprintf(e, sizeof e, "%s %%", dmk_format_double(x->archive_pct, 1, w, sizeof w));
        put(o, "%-13s %8zu %10s %10s %10s %10s %8s\n", r->tests[i].test.label, x->files,
            gib(x->bytes, a, sizeof a), c, d, num(x->mb_s, b, sizeof b), e);
    }
    const char *legend =
        /* xgettext:no-c-format */
        DMK_("Time: from the first read until every file and directory written is on the drive "
             "(fsync); the sources were dropped from the page cache first. CPU: the run's own "
             "thread; near the time, the CPU set the pace. Archive: the .zip's size in % of the "
             "set's (Deflate).\n");
    put(o, "%s", legend);
    /* A complete run of a build without libarchive (the Windows zip's)
     * has the three copies only: said, so the empty column is explained. */
    if (r->complete && r->n_tests == DMK_LAB_FILE_STEPS - 2)
        put(o, "%s\n",
            DMK_("No archive and extract steps: the build that ran this test has no libarchive."));
}

void dmk_lab_report_first_timeline(Out *o, const DmkRunResult *r)
{
    if (r->n_tests)
        put_timeline(o, r, &r->tests[0]);
}

size_t dmk_lab_report(const DmkRunResult *result, char *buf, size_t len)
{
    /* Printed text comes from a file: escaped (dmk_report_printable). */
    DmkRunResult *r = dmk_report_printable(result);
    if (!r) {
        if (len)
            buf[0] = '\0';
        return 0;
    }
    Out o = {buf, len, 0, {0}};
    dmk_lab_findings(r, &o.found);
    if (len)
        buf[0] = '\0';
    put_header(&o, r);
    const DmkLabTest *lab = dmk_lab_test(dmk_lab_from_name(r->lab));
    if (lab)
        lab->report(&o, r);
    else
        put(&o, "%s\n", DMK_("Not a review-lab result."));
    if (r->lab_note[0])
        put(&o, "%s\n", r->lab_note);
    if (r->n_tests == 0)
        put(&o, "%s\n", DMK_("No test completed."));
    free(r);
    return o.used;
}

/* The trace replay's scores: MB/s over the busy time and the service
 * times, reads, writes and all requests, then how the time went. */
static void put_trace_row(Out *o, const char *what, const DmkLabTrace *x, int d)
{
    char a[32], b[32], c[32], e[32], f[32], g[32];
    if (!x->ios[d]) {
        put(o, "%-6s %9s\n", what, "0");
        return;
    }
    const double *sv = x->service[d];
    put(o, "%-6s %9zu %10s %10s %9s %9s %9s %10s\n", what, x->ios[d], num(x->mb_s[d], a, sizeof a),
        num(sv[DMK_LAB_TRACE_MEAN], b, sizeof b), num(sv[DMK_LAB_TRACE_P50], c, sizeof c),
        num(sv[DMK_LAB_TRACE_P99], e, sizeof e), num(sv[DMK_LAB_TRACE_P999], f, sizeof f),
        gib(x->bytes[d], g, sizeof g));
}

void dmk_lab_report_trace(Out *o, const DmkRunResult *r)
{
    const DmkLabFinding *f = dmk_lab_findings_at(&o->found, DMK_LAB_SET_TRACE, 0);
    if (!r->n_tests || !f) {
        put(o, "Nothing was replayed.\n");
        return;
    }
    const DmkLabTrace *x = &f->u.trace;
    put(o, "%-6s %9s %10s %10s %9s %9s %9s %10s\n", "", "Requests", "MB/s", "Mean ms", "p50 ms",
        "p99 ms", "p99.9 ms", "Data");
    put_trace_row(o, "Read", x, DMK_LAB_TRACE_READS);
    put_trace_row(o, "Write", x, DMK_LAB_TRACE_WRITES);
    put_trace_row(o, "All", x, DMK_LAB_TRACE_ALL);
    put(o,
        "Busy %.3f s of a %.3f s replay; the trace's own %.3f s became %.3f s with %zu idle "
        "gaps cut to %g ms; average queue depth %.2f.\n",
        x->busy_s, x->wall_s, x->trace_s, x->replayed_s, x->gaps_cut, x->idle_max_ms, x->qd);
    put(o, "MB/s: bytes over the busy time (a request in flight), 10^6 bytes/s; service time: "
           "from submission to completion.\n");
}
