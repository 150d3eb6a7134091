/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a lab test's settings will do, in a sentence or two: the Lab
 * tab's summary under its form, from the tests' table (dmk-lab.c). Times
 * read as people pick them ("2 h", "30 min", "0.5 s"), numbers with a
 * decimal point whatever the locale, as the rest of the window's. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dmk-lab-private.h"
#include "dmk-size.h"

/* printf's %.*g with a '.' for the locale's decimal point. */
static const char *num_g(double v, int prec, char *buf, size_t len)
{
    snprintf(buf, len, "%.*g", prec, v);
    const char *dp = localeconv()->decimal_point;
    char *at = dp && strcmp(dp, ".") != 0 ? strstr(buf, dp) : NULL;
    if (at) {
        size_t n = strlen(dp);
        *at = '.';
        memmove(at + 1, at + n, strlen(at + n) + 1);
    }
    return buf;
}

/* 7200 -> "2 h", 1800 -> "30 min", 0.5 -> "0.5 s", 5400 -> "90 min". */
static const char *time_text(double s, char *buf, size_t len)
{
    char n[48];
    if (s >= 3600 && fmod(s, 3600) == 0)
        snprintf(buf, len, "%s h", num_g(s / 3600, 10, n, sizeof n));
    else if (s >= 60 && fmod(s, 60) == 0)
        snprintf(buf, len, "%s min", num_g(s / 60, 10, n, sizeof n));
    else
        snprintf(buf, len, "%s s", num_g(s, 3, n, sizeof n));
    return buf;
}

/* A test in words: "Random 4 KiB writes at queue depth 32". */
static const char *job_words(const DmkJob *j, char *buf, size_t len)
{
    char bs[32], threads[32] = "";
    dmk_format_size(j->block_size, bs, sizeof bs);
    if (j->threads > 1)
        snprintf(threads, sizeof threads, ", %u threads", j->threads);
    snprintf(buf, len, "%s %s writes at queue depth %u%s",
             j->pattern == DMK_PATTERN_RND ? "Random" : "Sequential", bs, j->queue_depth, threads);
    return buf;
}

/* What the test writes over: "a 32 GiB test file", or on a raw device,
 * which has no test file, "the first 32 GiB of the device". */
static const char *area_words(const DmkLabParams *p, char *buf, size_t len)
{
    char span[32];
    dmk_format_size(p->span, span, sizeof span);
    if (p->device)
        snprintf(buf, len, "the first %s of the device", span);
    else
        snprintf(buf, len, "a %s test file", span);
    return buf;
}

void dmk_lab_describe_sustained(const DmkLabParams *p, char *buf, size_t len)
{
    char area[64], job[128], dur[48], sample[48];
    snprintf(buf, len, "%s for %s over %s, sampled every %s.", job_words(&p->job, job, sizeof job),
             time_text(p->duration_s, dur, sizeof dur), area_words(p, area, sizeof area),
             time_text(p->sample_s, sample, sizeof sample));
}

/* "the free space but 2 GiB": what a full-span write of no size covers. */
static void free_space_words(uint64_t margin, char *buf, size_t len)
{
    char m[32];
    snprintf(buf, len, "the free space but %s", dmk_format_size(margin, m, sizeof m));
}

void dmk_lab_describe_fullspan(const DmkLabParams *p, char *buf, size_t len)
{
    char span[64], job[128], sample[48];
    if (p->span && p->device)
        area_words(p, span, sizeof span);
    else if (p->span)
        dmk_format_size(p->span, span, sizeof span);
    else if (p->device) /* a span of 0 is all of it: a device has no free space */
        snprintf(span, sizeof span, "the whole device");
    else
        free_space_words(p->margin, span, sizeof span);
    snprintf(buf, len, "%s once over %s, sampled every %s. %s", job_words(&p->job, job, sizeof job),
             span, time_text(p->sample_s, sample, sizeof sample),
             p->device ? "It writes over the device's data."
                       : "It fills the drive; the file is removed afterwards.");
}

/* "WHAT 12 steps of 20 s, each after a 2 s warm-up, on a 32 GiB test file." */
static void describe_steps(const DmkLabParams *p, const char *what, size_t n, char *buf, size_t len)
{
    char area[64], step[48], warm[48], after[80];
    if (p->warmup_s > 0)
        snprintf(after, sizeof after, "each after a %s warm-up",
                 time_text(p->warmup_s, warm, sizeof warm));
    else
        snprintf(after, sizeof after, "with no warm-up");
    snprintf(buf, len, "%s %zu steps of %s, %s, on %s.", what, n,
             time_text(p->step_s, step, sizeof step), after, area_words(p, area, sizeof area));
}

void dmk_lab_describe_mixed(const DmkLabParams *p, char *buf, size_t len)
{
    char what[160];
    snprintf(what, sizeof what,
             "Sequential 128 KiB (2 threads), then random 4 KiB (4 threads), QD%u per thread, at "
             "0 to 100 %% reads:",
             p->mixed_qd);
    describe_steps(p, what, 2 * DMK_LAB_MIX_STEPS, buf, len);
}

void dmk_lab_describe_latency(const DmkLabParams *p, char *buf, size_t len)
{
    describe_steps(p,
                   "4 KiB random read (QD128) and write (QD64), 64 KiB sequential read (QD16) and "
                   "write (QD8), each at full speed and held to 10 to 120 % of it:",
                   DMK_LAB_LAT_PROFILES * (DMK_LAB_RAMP_STEPS + 1), buf, len);
}

void dmk_lab_describe_recovery(const DmkLabParams *p, char *buf, size_t len)
{
    char area[64], job[128], deg[48], probe[48], idle[48];
    snprintf(buf, len,
             "%s, measured for %s each: fresh, degraded after %s of them, after %s idle and "
             "after TRIM, on %s.",
             job_words(&p->job, job, sizeof job), time_text(p->step_s, probe, sizeof probe),
             time_text(p->duration_s, deg, sizeof deg), time_text(p->idle_s, idle, sizeof idle),
             area_words(p, area, sizeof area));
}

void dmk_lab_describe_fill(const DmkLabParams *p, char *buf, size_t len)
{
    char settle[48];
    const char *what = p->device ? "region" : "test file";
    if (!(p->settle_s > 0))
        snprintf(buf, len, " The %s is written in full first.", what);
    else
        snprintf(buf, len,
                 " The %s is written in full first, then the drive rests %s to empty its "
                 "cache.",
                 what, time_text(p->settle_s, settle, sizeof settle));
}

void dmk_lab_describe_surface(const DmkLabParams *p, char *buf, size_t len)
{
    char size[32];
    snprintf(buf, len,
             "Reads %u samples of %s spread evenly over the whole device, one read each, then "
             "times %u random 4 KiB reads all over it. It writes nothing.",
             p->samples, dmk_format_size(p->sample_size, size, sizeof size), p->accesses);
}
