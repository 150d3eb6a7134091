/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-report.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-escape.h"
#include "dmk-i18n.h"
#include "dmk-size.h"

/* A growing string: the report is built in memory so that every front
 * end (a terminal, a clipboard) gets the same bytes without a FILE*. */
typedef struct {
    char *s;
    size_t len, cap;
    bool failed;
} DmkStr;

__attribute__((format(DMK_PRINTF_FORMAT, 2, 3))) static void put(DmkStr *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 1024) + (size_t)n;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

const char *dmk_mode_title(DmkMode m)
{
    if (m == DMK_MODE_READ)
        /* TRANSLATORS: a test's direction, a heading: it reads. */
        return DMK_("Read");
    if (m == DMK_MODE_WRITE)
        /* TRANSLATORS: a test's direction (the noun, a heading), not the verb. */
        return DMK_("Write");
    /* TRANSLATORS: a test's direction: reads and writes mixed. */
    return DMK_("Mix");
}

char *dmk_block_label(uint32_t bs, char *buf, size_t len)
{
    if (bs % (1u << 20) == 0)
        snprintf(buf, len, "%uMiB", bs >> 20);
    else if (bs % 1024 == 0)
        snprintf(buf, len, "%uKiB", bs >> 10);
    else
        snprintf(buf, len, "%uB", bs);
    return buf;
}

/* "  [peak, QD 12.4 of 32]" after a flagged test's line; "" when none. */
static void flag_markers(const DmkRunResult *r, const DmkTestResult *t, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t bit = 1; bit & DMK_FLAG_ALL; bit <<= 1) {
        char m[64];
        if (!(t->flags & bit) || used >= len)
            continue;
        dmk_flag_describe(r, t, bit, m, sizeof m, NULL, 0);
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "  [", m);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used && used < len)
        snprintf(buf + used, len - used, "]");
}

static void put_test_line(DmkStr *b, const DmkRunResult *r, const DmkTestResult *t)
{
    const DmkJob *j = &t->test.jobs[0];
    /* As the files keep them: `show FILE` prints the same digits. */
    DmkStats total = dmk_stats_as_saved(&t->score.total);
    const DmkStats *s = &total;
    char bl[16], mb[32], io[32], lat[32], flags[200];
    flag_markers(r, t, flags, sizeof flags);
    put(b, "  %s %8s (Q=%3u, T=%2u): %9s MB/s [%9s IOPS] <%9s us>%s\n",
        j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND", dmk_block_label(j->block_size, bl, 16),
        j->queue_depth, dmk_test_threads(&t->test), dmk_format_double(s->mb_s, 3, mb, 32),
        dmk_format_double(s->iops, 1, io, 32), dmk_format_double(s->lat_mean_us, 2, lat, 32),
        flags);
    if (t->test.mode != DMK_MODE_MIX)
        return;
    /* The achieved share only where it is not the asked one as shown
     * (dmk_pass_share_differs): otherwise the line stays as it was. */
    char share[40], note[48] = "";
    if (dmk_share_note(&t->score, j->read_share, share, sizeof share)[0])
        snprintf(note, sizeof note, " (%s)", share);
    DmkStats rd = dmk_stats_as_saved(&t->score.read), wr = dmk_stats_as_saved(&t->score.write);
    /* TRANSLATORS: a mixed test's parts: read share (%%), its MB/s, write share, its MB/s,
       then maybe " (achieved share)". */
    put(b, DMK_("      read %3u %%: %s MB/s, write %3u %%: %s MB/s%s\n"), j->read_share,
        dmk_format_double(rd.mb_s, 3, mb, 32), 100 - j->read_share,
        dmk_format_double(wr.mb_s, 3, io, 32), note);
}

char *dmk_verify_describe(const DmkVerifyResult *v, char *buf, size_t len)
{
    char sz[32], sec[32];
    int n;
    if (!v->checked) {
        snprintf(buf, len, "%s", DMK_("not verified"));
        return buf;
    }
    if (v->bad == 0)
        /* TRANSLATORS: %1$llu is a count of blocks, %2$s their size ("1 GiB"). */
        n = snprintf(buf, len, DMK_("Verified %llu blocks (%s), 0 bad"),
                     (unsigned long long)v->blocks, dmk_format_size(v->bytes, sz, sizeof sz));
    else
        n = snprintf(buf, len,
                     /* TRANSLATORS: counts of blocks, two byte offsets, then why the block
                        is bad ("wrong data"). */
                     DMK_("VERIFY FAILED: %llu bad of %llu blocks; first bad byte at offset "
                          "%llu (block at %llu): %s"),
                     (unsigned long long)v->bad, (unsigned long long)v->blocks,
                     (unsigned long long)v->first_bad_byte, (unsigned long long)v->first_bad_block,
                     dmk_verify_bad_name(v->first_bad_why));
    if (n >= 0 && (size_t)n < len && v->skipped)
        /* TRANSLATORS: appended to the verify line: a count of blocks. */
        n += snprintf(buf + n, len - (size_t)n,
                      dmk_ngettext("; %llu written twice at once, not checked",
                                   "; %llu written twice at once, not checked", v->skipped),
                      (unsigned long long)v->skipped);
    if (n >= 0 && (size_t)n < len)
        /* TRANSLATORS: appended to the verify line: seconds. */
        snprintf(buf + n, len - (size_t)n, DMK_(" (read back in %s s, not timed)"),
                 dmk_format_double(v->seconds, 1, sec, sizeof sec));
    return buf;
}

static void put_section(DmkStr *b, const DmkRunResult *r, DmkMode mode)
{
    bool any = false;
    for (size_t i = 0; i < r->n_tests; i++) {
        if (r->tests[i].test.mode != mode)
            continue;
        if (!any)
            put(b, "\n[%s]\n", dmk_mode_title(mode));
        any = true;
        put_test_line(b, r, &r->tests[i]);
        if (r->tests[i].verify.checked) {
            char v[512];
            put(b, "      %s\n", dmk_verify_describe(&r->tests[i].verify, v, sizeof v));
        }
    }
}

static void put_drive(DmkStr *b, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    char cap[32];
    /* TRANSLATORS: the report's labels are right-aligned to the colon: keep the widths
       where the language allows. %1$s: the drive's model, %2$s its device, %3$s its size. */
    put(b, DMK_("  Drive: %s (%s, %s)\n"), t->model[0] ? t->model : DMK_("unknown model"),
        t->device[0] ? t->device : DMK_("unknown device"),
        t->capacity_bytes ? dmk_format_size(t->capacity_bytes, cap, sizeof cap)
                          : DMK_("size unknown"));
    if (strcmp(r->backend, "null") == 0)
        put(b, DMK_("Backend: %s (no disk I/O: engine overhead only)\n"), r->backend);
    else
        put(b, DMK_("Backend: %s\n"), r->backend);
}

/* The drive's link, what the file system did to the test file, and
 * what each flag seen on a test line means. */
static void put_honesty(DmkStr *b, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    char mb[32], notes[2048], marker[64], tip[1024];
    if (t->iface_bytes_s)
        /* TRANSLATORS: %1$s is the drive's link ("SATA 6.0 Gbps"), %2$s a speed. */
        put(b, DMK_("   Link: %s (%s MB/s per direction)\n"), t->iface,
            dmk_format_double((double)t->iface_bytes_s / 1e6, 0, mb, sizeof mb));
    dmk_run_fs_notes(r, notes, sizeof notes);
    for (char *line = notes, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1)
        put(b, DMK_("   Note: %.*s\n"), (int)(nl - line), line);
    for (uint32_t bit = 1; bit & DMK_FLAG_ALL; bit <<= 1) {
        for (size_t i = 0; i < r->n_tests; i++) {
            if (!(r->tests[i].flags & bit))
                continue;
            dmk_flag_describe(r, &r->tests[i], bit, marker, sizeof marker, tip, sizeof tip);
            /* TRANSLATORS: %1$s is the flag's name as the files keep it ("peak"), %2$s
               what it means. */
            put(b, DMK_("   Flag: [%s] %s\n"), dmk_flag_name(bit), tip);
            break;
        }
    }
}

/* The run's verdict on its data, when the verify option was on. */
static void put_verify(DmkStr *b, const DmkRunResult *r)
{
    DmkVerifyResult sum;
    dmk_run_result_verify(r, &sum);
    if (!sum.checked)
        return;
    char v[512];
    put(b, DMK_(" Verify: %s\n"), dmk_verify_describe(&sum, v, sizeof v));
}

static void put_profile(DmkStr *b, const DmkRunResult *r)
{
    if (strcmp(r->sweep, "qd") == 0)
        /* TRANSLATORS: %s is the profile's name, never translated ("default"). */
        put(b, DMK_("\nProfile: %s (queue-depth sweep)\n"), r->profile);
    else if (strcmp(r->sweep, "bs") == 0)
        put(b, DMK_("\nProfile: %s (block-size sweep)\n"), r->profile);
    else
        put(b, DMK_("\nProfile: %s\n"), r->profile);
}

/* The test's size, passes, and where it ran. */
static void put_test_area(DmkStr *b, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    char size[32], freeb[32], fsz[32];
    const char *fs = t->fs_type[0] ? t->fs_type : "?";
    dmk_format_size(r->size, size, 32);
    if (t->is_device) /* a raw device has no free space, only its size */
        /* TRANSLATORS: %1$s is the size tested, %2$u the passes, %3$s the device's path,
           %4$s its size. */
        put(b, DMK_("   Test: %s (x%u) [%s: raw device of %s]\n"), size, r->passes, t->path,
            dmk_format_size(t->fs_size_bytes, fsz, 32));
    else if (t->fs_size_bytes == 0) /* a file of schema 4 or older: no size kept */
        /* TRANSLATORS: %1$s is the size tested, %2$u the passes, %3$s the folder, %4$s its
           file system ("ext4"), %5$s the free space. */
        put(b, DMK_("   Test: %s (x%u) [%s: %s, %s free]\n"), size, r->passes, t->path, fs,
            dmk_format_size(t->fs_free_bytes, freeb, 32));
    else
        /* TRANSLATORS: as above, then %6$s the file system's size. */
        put(b, DMK_("   Test: %s (x%u) [%s: %s, %s free of %s]\n"), size, r->passes, t->path, fs,
            dmk_format_size(t->fs_free_bytes, freeb, 32),
            dmk_format_size(t->fs_size_bytes, fsz, 32));
}

static void put_context(DmkStr *b, const DmkRunResult *r)
{
    char meas[32], warm[32], intv[32];
    put_profile(b, r);
    put_test_area(b, r);
    /* TRANSLATORS: the data written: all zero bytes, or random (incompressible) bytes. */
    put(b, "%s\n",
        r->data == DMK_DATA_ZERO ? DMK_("   Data: All 0x00")
                                 : DMK_("   Data: Random (incompressible)"));
    /* TRANSLATORS: seconds of each: measuring, warming up, between tests. */
    put(b, DMK_("   Time: Measure %s s / Warm-up %s s / Interval %s s\n"),
        dmk_format_double(r->measure_s, 1, meas, 32), dmk_format_double(r->warmup_s, 1, warm, 32),
        dmk_format_double(r->interval_s, 1, intv, 32));
    put(b, DMK_("   Date: %s\n"), r->date);
    /* TRANSLATORS: the operating system's name and version. */
    put(b, DMK_("     OS: %s\n"), r->os);
    put_drive(b, r);
    put_honesty(b, r);
    put_verify(b, r);
    if (r->comment[0])
        put(b, DMK_("Comment: %s\n"), r->comment);
    if (!r->complete)
        put(b, "%s", DMK_("\n(incomplete: the run ended before its last test)\n"));
}

DmkRunResult *dmk_report_printable(const DmkRunResult *r)
{
    DmkRunResult *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    *p = *r;
    DmkTargetInfo *t = &p->target;
    char *texts[] = {p->version, p->date,        p->os,          p->backend, p->profile, p->sweep,
                     p->lab,     p->comment,     p->lab_note,    t->path,    t->fs_type, t->device,
                     t->model,   t->mount_point, t->temp_sensor, t->iface};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        dmk_escape_inplace(texts[i], NULL);
    return p;
}

char *dmk_report_text(const DmkRunResult *result)
{
    DmkRunResult *r = dmk_report_printable(result);
    if (!r)
        return NULL;
    static const char rule[] =
        "------------------------------------------------------------------------------\n";
    DmkStr b = {0};
    put(&b, "%sDrivemark %s\n%s", rule, r->version, rule);
    put(&b, "%s",
        DMK_("* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
             "* KB = 1000 bytes, KiB = 1024 bytes\n"));
    put_section(&b, r, DMK_MODE_READ);
    put_section(&b, r, DMK_MODE_WRITE);
    put_section(&b, r, DMK_MODE_MIX);
    put_context(&b, r);
    free(r);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
