/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a lab test's settings will do, in a sentence or two: the Lab
 * tab's summary under its form, from the tests' table (dmk-lab.c). Times
 * read as people pick them ("2 h", "30 min", "0.5 s"), numbers with a
 * decimal point whatever the locale, as the rest of the window's. */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dmk-i18n.h"
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

/* A test in words: "Random 4 KiB writes at queue depth 32", a phrase that
 * the sentences below begin with. */
static const char *job_words(const DmkJob *j, char *buf, size_t len)
{
    char bs[32];
    bool rnd = j->pattern == DMK_PATTERN_RND;
    dmk_format_size(j->block_size, bs, sizeof bs);
    if (j->threads > 1)
        /* TRANSLATORS: a workload, starting a sentence: %1$s a block size ("4 KiB"), %2$u a
           queue depth, %3$u the threads. */
        snprintf(buf, len,
                 rnd ? DMK_("Random %s writes at queue depth %u, %u threads")
                     : DMK_("Sequential %s writes at queue depth %u, %u threads"),
                 bs, j->queue_depth, j->threads);
    else
        /* TRANSLATORS: a workload, starting a sentence: %1$s a block size, %2$u a queue depth. */
        snprintf(buf, len,
                 rnd ? DMK_("Random %s writes at queue depth %u")
                     : DMK_("Sequential %s writes at queue depth %u"),
                 bs, j->queue_depth);
    return buf;
}

/* What the test writes over: "a 32 GiB test file", or on a raw device,
 * which has no test file, "the first 32 GiB of the device". */
static const char *area_words(const DmkLabParams *p, char *buf, size_t len)
{
    char span[32];
    dmk_format_size(p->span, span, sizeof span);
    if (p->device)
        /* TRANSLATORS: what a lab test writes over, inside a sentence; %s a size ("32 GiB"). */
        snprintf(buf, len, DMK_("the first %s of the device"), span);
    else
        /* TRANSLATORS: what a lab test writes over, inside a sentence; %s a size ("32 GiB"). */
        snprintf(buf, len, DMK_("a %s test file"), span);
    return buf;
}

void dmk_lab_describe_sustained(const DmkLabParams *p, char *buf, size_t len)
{
    char area[128], job[160], dur[48], sample[48];
    /* TRANSLATORS: %1$s is the workload ("Random 4 KiB writes at queue depth 32"), %2$s a
       time ("2 h"), %3$s the area ("a 32 GiB test file"), %4$s a time ("1 s"). */
    snprintf(buf, len, DMK_("%s for %s over %s, sampled every %s."),
             job_words(&p->job, job, sizeof job), time_text(p->duration_s, dur, sizeof dur),
             area_words(p, area, sizeof area), time_text(p->sample_s, sample, sizeof sample));
}

void dmk_lab_describe_fullspan(const DmkLabParams *p, char *buf, size_t len)
{
    char span[128], m[32], job[160], sample[48];
    if (p->span && p->device)
        area_words(p, span, sizeof span);
    else if (p->span)
        dmk_format_size(p->span, span, sizeof span);
    else if (p->device) /* a span of 0 is all of it: a device has no free space */
        /* TRANSLATORS: what a full-span write covers, inside a sentence. */
        snprintf(span, sizeof span, "%s", DMK_("the whole device"));
    else
        /* TRANSLATORS: what a full-span write covers, inside a sentence; %s a size left free. */
        snprintf(span, sizeof span, DMK_("the free space but %s"),
                 dmk_format_size(p->margin, m, sizeof m));
    /* TRANSLATORS: %1$s is the workload ("Sequential 1 MiB writes at queue depth 8"), %2$s
       what it covers ("the free space but 2 GiB", "32 GiB"), %3$s a time ("1 s"); then a
       sentence of its own follows. */
    snprintf(buf, len, DMK_("%s once over %s, sampled every %s. %s"),
             job_words(&p->job, job, sizeof job), span,
             time_text(p->sample_s, sample, sizeof sample),
             p->device ? DMK_("It writes over the device's data.")
                       : DMK_("It fills the drive; the file is removed afterwards."));
}

/* "WHAT 12 steps of 20 s, each after a 2 s warm-up, on a 32 GiB test file." */
static void describe_steps(const DmkLabParams *p, const char *what, size_t n, char *buf, size_t len)
{
    char area[128], step[48], warm[48];
    area_words(p, area, sizeof area);
    time_text(p->step_s, step, sizeof step);
    if (p->warmup_s > 0)
        /* TRANSLATORS: %1$s is what is measured (ends with a colon), %2$zu the steps, %3$s and
           %4$s times ("20 s"), %5$s the area ("a 32 GiB test file"). */
        snprintf(buf, len, DMK_("%s %zu steps of %s, each after a %s warm-up, on %s."), what, n,
                 step, time_text(p->warmup_s, warm, sizeof warm), area);
    else
        /* TRANSLATORS: %1$s is what is measured, %2$zu the steps, %3$s a time, %4$s the area. */
        snprintf(buf, len, DMK_("%s %zu steps of %s, with no warm-up, on %s."), what, n, step,
                 area);
}

void dmk_lab_describe_mixed(const DmkLabParams *p, char *buf, size_t len)
{
    char what[320];
    /* TRANSLATORS: the mixed test's workloads, then its steps follow; %u a queue depth. */
    snprintf(what, sizeof what,
             DMK_("Sequential 128 KiB (2 threads), then random 4 KiB (4 threads), QD%u per "
                  "thread, at 0 to 100 %% reads:"),
             p->mixed_qd);
    describe_steps(p, what, 2 * DMK_LAB_MIX_STEPS, buf, len);
}

void dmk_lab_describe_latency(const DmkLabParams *p, char *buf, size_t len)
{
    /* TRANSLATORS: the latency test's workloads, then its steps follow. */
    /* xgettext:no-c-format */
    const char *what = DMK_("4 KiB random read (QD128) and write (QD64), 64 KiB sequential read "
                            "(QD16) and write (QD8), each at full speed and held to 10 to 120 % of "
                            "it:");
    describe_steps(p, what, DMK_LAB_LAT_PROFILES * (DMK_LAB_RAMP_STEPS + 1), buf, len);
}

void dmk_lab_describe_recovery(const DmkLabParams *p, char *buf, size_t len)
{
    char area[128], job[160], deg[48], probe[48], idle[48];
    /* TRANSLATORS: %1$s is the workload ("Random 4 KiB writes at queue depth 32"), %2$s,
       %3$s and %4$s times ("60 s", "30 min"), %5$s the area ("a 32 GiB test file"). */
    snprintf(buf, len,
             DMK_("%s, measured for %s each: fresh, degraded after %s of them, after %s "
                  "idle and after TRIM, on %s."),
             job_words(&p->job, job, sizeof job), time_text(p->step_s, probe, sizeof probe),
             time_text(p->duration_s, deg, sizeof deg), time_text(p->idle_s, idle, sizeof idle),
             area_words(p, area, sizeof area));
}

void dmk_lab_describe_fill(const DmkLabParams *p, char *buf, size_t len)
{
    char settle[48];
    if (!(p->settle_s > 0)) {
        snprintf(buf, len, " %s",
                 p->device ? DMK_("The region is written in full first.")
                           : DMK_("The test file is written in full first."));
        return;
    }
    time_text(p->settle_s, settle, sizeof settle);
    if (len < 2)
        return;
    buf[0] = ' '; /* it follows the test's sentence */
    /* TRANSLATORS: %s is a time ("5 min"). */
    snprintf(buf + 1, len - 1,
             p->device ? DMK_("The region is written in full first, then the drive rests %s to "
                              "empty its cache.")
                       : DMK_("The test file is written in full first, then the drive rests %s "
                              "to empty its cache."),
             settle);
}

void dmk_lab_describe_surface(const DmkLabParams *p, char *buf, size_t len)
{
    char size[32];
    /* TRANSLATORS: %1$u samples of %2$s bytes ("10 MiB"), %3$u random reads. */
    snprintf(buf, len,
             DMK_("Reads %u samples of %s spread evenly over the whole device, one read each, "
                  "then times %u random 4 KiB reads all over it. It writes nothing."),
             p->samples, dmk_format_size(p->sample_size, size, sizeof size), p->accesses);
}
