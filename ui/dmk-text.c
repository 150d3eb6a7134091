/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-text.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-escape.h"
#include "dmk-presets.h"
#include "dmk-report.h"
#include "dmk-size.h"

const char *dmk_text_mode_title(DmkMode m)
{
    return _(dmk_mode_title(m)); /* again for Windows, where the core speaks English */
}

/* The same text drivemark-cli prints (core/dmk-report.c), in GLib memory. */
char *dmk_text_report(const DmkRunResult *r)
{
    char *text = dmk_report_text(r);
    char *copy = g_strdup(text ? text : "");
    free(text);
    return copy;
}

char *dmk_text_test_title(const DmkTest *t)
{
    const DmkJob *j = &t->jobs[0];
    char bl[16];
    dmk_block_label(j->block_size, bl, sizeof bl);
    /* TRANSLATORS: a test's title: %1$s the direction ("Read"), %2$s the
     * block size ("4K"); "Q%3$uT%4$u" is the test's notation, kept as it is. */
    return g_strdup_printf(j->pattern == DMK_PATTERN_SEQ ? _("Sequential %1$s %2$s Q%3$uT%4$u")
                                                         : _("Random %1$s %2$s Q%3$uT%4$u"),
                           dmk_text_mode_title(t->mode), bl, j->queue_depth, dmk_test_threads(t));
}

char *dmk_text_tooltip(const DmkTest *t, const DmkStats *s)
{
    char mb[32], io[32], mean[32], p99[32];
    char *title = dmk_text_test_title(t);
    char *tip =
        /* TRANSLATORS: a result tile's tooltip: the test's title, MB/s,
         * IOPS, the mean and 99th percentile latency in µs. */
        g_strdup_printf(_("%1$s\n%2$s MB/s\n%3$s IOPS\nLatency: mean %4$s \u03bcs, 99th "
                          "percentile %5$s \u03bcs"),
                        title, dmk_format_double(s->mb_s, 3, mb, sizeof mb),
                        dmk_format_double(s->iops, 1, io, sizeof io),
                        dmk_format_double(s->lat_mean_us, 2, mean, sizeof mean),
                        dmk_format_double(s->lat_p99_us, 2, p99, sizeof p99));
    g_free(title);
    return tip;
}

char *dmk_text_length(double s)
{
    long m = lround(s / 60), secs = lround(s);
    if (secs < 60)
        return g_strdup_printf("%ld s", secs);
    if (secs < 600 && secs % 60)
        return g_strdup_printf("%ld min %ld s", secs / 60, secs % 60);
    if (m < 60)
        return g_strdup_printf("%ld min", m);
    return m % 60 ? g_strdup_printf("%ld h %ld min", m / 60, m % 60)
                  : g_strdup_printf("%ld h", m / 60);
}

char *dmk_text_clock(double seconds)
{
    unsigned long t = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;
    if (t >= 3600)
        return g_strdup_printf("%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    return g_strdup_printf("%lu:%02lu", t / 60, t % 60);
}

char *dmk_text_progress(const DmkProgress *p)
{
    int pct = (int)(p->fraction * 100.0 + 0.5);
    if (p->stage == DMK_STAGE_CLEANUP)
        return g_strdup(p->test ? _("Removing the test's files...")
                                : _("Removing the test file..."));
    /* A lab step with its own files (the file sets) writes them first. */
    if (p->stage == DMK_STAGE_PREPARE && p->test && p->test->label[0])
        /* TRANSLATORS: %1$s is a Lab step ("copy"), %2$d a percentage. */
        return g_strdup_printf(_("Writing the files for %1$s %2$d %%"), p->test->label, pct);
    if (p->stage == DMK_STAGE_PREPARE || !p->test)
        return g_strdup_printf(_("Preparing test file %d %%"), pct);
    char *title = dmk_text_test_title(p->test);
    char *left = dmk_text_clock(p->remaining_s);
    char *line;
    if (p->stage == DMK_STAGE_WARMUP)
        /* TRANSLATORS: progress: the test's title, a percentage, a clock
         * time left (1:05). */
        line = g_strdup_printf(_("%1$s - warm-up %2$d %% (%3$s left)"), title, pct, left);
    else if (p->stage == DMK_STAGE_VERIFY)
        line = g_strdup_printf(_("%1$s - verifying written data %2$d %%"), title, pct);
    else if (p->stage == DMK_STAGE_MEASURE)
        /* TRANSLATORS: progress: the test's title, the pass and how many
         * there are, a clock time left (1:05). */
        line = g_strdup_printf(_("%1$s - pass %2$u/%3$u (%4$s left)"), title, p->pass, p->passes,
                               left);
    else
        /* TRANSLATORS: progress: the next test's title, a clock time left. */
        line = g_strdup_printf(_("Interval before %1$s (%2$s left)"), title, left);
    g_free(title);
    g_free(left);
    return line;
}

/* ---- a saved result's context ------------------------------------------ */

/* The run's start in local time; NULL when the date cannot be read. */
static GDateTime *result_time(const DmkRunResult *r)
{
    GDateTime *utc = r->date[0] ? g_date_time_new_from_iso8601(r->date, NULL) : NULL;
    if (!utc)
        return NULL;
    GDateTime *local = g_date_time_to_local(utc);
    g_date_time_unref(utc);
    return local;
}

char *dmk_text_result_title(const DmkRunResult *r)
{
    /* TRANSLATORS: a result's tab: "Run" is the noun, one benchmark run. */
    const char *what = strcmp(r->sweep, "qd") == 0   ? _("QD sweep")
                       : strcmp(r->sweep, "bs") == 0 ? _("Block-size sweep")
                                                     : C_("a benchmark run", "Run");
    GDateTime *t = result_time(r);
    char *when = t ? g_date_time_format(t, "%H:%M") : NULL;
    /* TRANSLATORS: a result's tab: what ran ("Run", "QD sweep"), then the
     * local time it started (14:05). */
    char *title = when ? g_strdup_printf(_("%1$s %2$s"), what, when) : g_strdup(what);
    g_free(when);
    if (t)
        g_date_time_unref(t);
    return title;
}

char *dmk_text_result_label(const DmkRunResult *r)
{
    char label[DMK_RESULT_LABEL_LEN]; /* as the CLI's table and the charts' legends */
    dmk_result_label(r, false, label, sizeof label);
    dmk_escape_inplace(label, NULL); /* a tooltip and a legend: no bidi override */
    return g_strdup(label);
}

char *dmk_text_capacity(uint64_t bytes)
{
    double v = (double)bytes;
    if (v >= 1e12)
        return g_strdup_printf("%.2f TB", v / 1e12);
    if (v >= 1e9)
        return g_strdup_printf("%.1f GB", v / 1e9);
    return g_strdup_printf("%.0f MB", v / 1e6);
}

char *dmk_text_context_drive(const DmkRunResult *r)
{
    char *drive = g_strdup(r->target.model[0] ? r->target.model : _("Unknown drive"));
    dmk_escape_inplace(drive, NULL);
    return drive;
}

/* Parts joined by " · ", empty ones left out. */
static void add_part(GString *s, const char *part)
{
    if (!part || !*part)
        return;
    if (s->len)
        g_string_append(s, " \u00b7 ");
    g_string_append(s, part);
}

static char *free_space(const DmkTargetInfo *t)
{
    if (!t->fs_free_bytes)
        return g_strdup("");
    char *free_b = dmk_text_capacity(t->fs_free_bytes);
    char *size_b = t->fs_size_bytes ? dmk_text_capacity(t->fs_size_bytes) : NULL;
    /* TRANSLATORS: a file system's free space and size ("120 GB free of 1.0 TB"). */
    char *text = size_b ? g_strdup_printf(_("%1$s free of %2$s"), free_b, size_b)
                        : g_strdup_printf(_("%s free"), free_b);
    g_free(free_b);
    g_free(size_b);
    return text;
}

char *dmk_text_context_where(const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    GString *s = g_string_new(NULL);
    char *cap = t->capacity_bytes ? dmk_text_capacity(t->capacity_bytes) : NULL;
    char *drive = g_strdup_printf("%s%s%s", cap ? cap : "", cap && t->device[0] ? " " : "",
                                  t->device[0] ? t->device : "");
    add_part(s, drive);
    char *fs = t->fs_type[0] ? g_strdup_printf("%s (%s)", t->path, t->fs_type) : g_strdup(t->path);
    char *space = free_space(t);
    char *where = space[0] ? g_strdup_printf("%s, %s", fs, space) : g_strdup(fs);
    add_part(s, where);
    add_part(s, r->os);
    g_free(cap);
    g_free(drive);
    g_free(fs);
    g_free(space);
    g_free(where);
    return g_string_free(s, FALSE);
}

static char *what_ran(const DmkRunResult *r)
{
    if (strcmp(r->sweep, "qd") == 0)
        return g_strdup(_("Queue-depth sweep"));
    if (strcmp(r->sweep, "bs") == 0)
        return g_strdup(_("Block-size sweep"));
    if (!r->profile[0])
        return g_strdup("");
    /* The profile's label in the user's language; an id this build does
     * not know (a newer file) as the file keeps it. */
    const DmkProfile *p = dmk_profile_find(r->profile);
    /* TRANSLATORS: %s is a profile's name ("Default", "Peak Performance"). */
    return g_strdup_printf(_("%s profile"), p ? _(p->label) : r->profile);
}

char *dmk_text_context_how(const DmkRunResult *r)
{
    char area[sizeof r->target.path + 64], meas[32];
    GString *s = g_string_new(NULL);
    char *what = what_ran(r);
    dmk_result_area(r, area, sizeof area); /* "1 GiB test file", a device's "region of" */
    char *file = g_strdup(area);
    /* TRANSLATORS: the best of so many passes, each so many seconds long. */
    char *passes = g_strdup_printf(
        g_dngettext(NULL, "best of %u \u00d7 %s s", "best of %u \u00d7 %s s", r->passes), r->passes,
        dmk_format_double(r->measure_s, 1, meas, sizeof meas));
    /* TRANSLATORS: the data a test wrote: random bytes, or zeros (a whole
     * phrase per kind; the files keep the English word). */
    char *data = g_strdup(r->data == DMK_DATA_ZERO ? _("zero data") : _("random data"));
    GDateTime *t = result_time(r);
    char *when = t ? g_date_time_format(t, "%Y-%m-%d %H:%M") : g_strdup(r->date);
    char *version =
        g_strdup_printf("Drivemark %s%s%s", r->version, r->backend[0] ? ", " : "", r->backend);
    char *parts[] = {what, file, passes, data, when, version};
    for (size_t i = 0; i < G_N_ELEMENTS(parts); i++) {
        add_part(s, parts[i]);
        g_free(parts[i]);
    }
    if (!r->complete)
        add_part(s, _("incomplete (stopped or failed)"));
    if (t)
        g_date_time_unref(t);
    return g_string_free(s, FALSE);
}
