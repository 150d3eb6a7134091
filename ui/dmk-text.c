#include "dmk-text.h"

#include <string.h>

#include "dmk-size.h"

/* The rule, header and line layout below are drivemark-cli's
 * (app/dmk-cli-report.c); tests/ui/test-text.c holds them equal. */
static const char rule[] =
    "------------------------------------------------------------------------------\n";

const char *dmk_text_mode_title(DmkMode m)
{
    return m == DMK_MODE_READ ? "Read" : m == DMK_MODE_WRITE ? "Write" : "Mix";
}

/* "1MiB", "4KiB", "512B" as CrystalDiskMark labels blocks. */
static void block_label(uint32_t bs, char *buf, size_t len)
{
    if (bs % (1u << 20) == 0)
        g_snprintf(buf, (gulong)len, "%uMiB", bs >> 20);
    else if (bs % 1024 == 0)
        g_snprintf(buf, (gulong)len, "%uKiB", bs >> 10);
    else
        g_snprintf(buf, (gulong)len, "%uB", bs);
}

static void append_test_line(GString *s, const DmkTestResult *t)
{
    const DmkJob *j = &t->test.jobs[0];
    const DmkStats *st = &t->score.total;
    char bl[16], mb[32], io[32], lat[32];
    block_label(j->block_size, bl, sizeof bl);
    g_string_append_printf(s, "  %s %8s (Q=%3u, T=%2u): %9s MB/s [%9s IOPS] <%9s us>\n",
                           j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND", bl, j->queue_depth,
                           dmk_test_threads(&t->test),
                           dmk_format_double(st->mb_s, 3, mb, sizeof mb),
                           dmk_format_double(st->iops, 1, io, sizeof io),
                           dmk_format_double(st->lat_mean_us, 2, lat, sizeof lat));
    if (t->test.mode == DMK_MODE_MIX) {
        dmk_format_double(t->score.read.mb_s, 3, mb, sizeof mb);
        dmk_format_double(t->score.write.mb_s, 3, io, sizeof io);
        g_string_append_printf(s, "      read %3u %%: %s MB/s, write %3u %%: %s MB/s\n",
                               j->read_share, mb, 100 - j->read_share, io);
    }
}

static void append_section(GString *s, const DmkRunResult *r, DmkMode mode)
{
    gboolean any = FALSE;
    for (size_t i = 0; i < r->n_tests; i++) {
        if (r->tests[i].test.mode != mode)
            continue;
        if (!any)
            g_string_append_printf(s, "\n[%s]\n", dmk_text_mode_title(mode));
        any = TRUE;
        append_test_line(s, &r->tests[i]);
    }
}

static void append_drive(GString *s, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    char cap[32];
    g_string_append_printf(s, "  Drive: %s (%s, %s)\n", t->model[0] ? t->model : "unknown model",
                           t->device[0] ? t->device : "unknown device",
                           t->capacity_bytes ? dmk_format_size(t->capacity_bytes, cap, sizeof cap)
                                             : "size unknown");
    g_string_append_printf(s, "Backend: %s%s\n", r->backend,
                           strcmp(r->backend, "null") == 0 ? " (no disk I/O: engine overhead only)"
                                                           : "");
}

static void append_context(GString *s, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    char size[32], freeb[32], fsz[32], meas[32], warm[32], intv[32];
    g_string_append_printf(s, "\nProfile: %s\n", r->profile);
    g_string_append_printf(s, "   Test: %s (x%u) [%s: %s, %s free of %s]\n",
                           dmk_format_size(r->size, size, sizeof size), r->passes, t->path,
                           t->fs_type[0] ? t->fs_type : "?",
                           dmk_format_size(t->fs_free_bytes, freeb, sizeof freeb),
                           dmk_format_size(t->fs_size_bytes, fsz, sizeof fsz));
    g_string_append_printf(s, "   Data: %s\n",
                           r->data == DMK_DATA_ZERO ? "All 0x00" : "Random (incompressible)");
    g_string_append_printf(s, "   Time: Measure %s s / Warm-up %s s / Interval %s s\n",
                           dmk_format_double(r->measure_s, 1, meas, sizeof meas),
                           dmk_format_double(r->warmup_s, 1, warm, sizeof warm),
                           dmk_format_double(r->interval_s, 1, intv, sizeof intv));
    g_string_append_printf(s, "   Date: %s\n", r->date);
    g_string_append_printf(s, "     OS: %s\n", r->os);
    append_drive(s, r);
    if (r->comment[0])
        g_string_append_printf(s, "Comment: %s\n", r->comment);
    if (!r->complete)
        g_string_append(s, "\n(incomplete: the run ended before its last test)\n");
}

char *dmk_text_report(const DmkRunResult *r)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%sDrivemark %s\n%s", rule, r->version, rule);
    g_string_append(s, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
                       "* KB = 1000 bytes, KiB = 1024 bytes\n");
    append_section(s, r, DMK_MODE_READ);
    append_section(s, r, DMK_MODE_WRITE);
    append_section(s, r, DMK_MODE_MIX);
    append_context(s, r);
    return g_string_free(s, FALSE);
}

char *dmk_text_test_title(const DmkTest *t)
{
    const DmkJob *j = &t->jobs[0];
    char bl[16];
    block_label(j->block_size, bl, sizeof bl);
    return g_strdup_printf("%s %s %s Q%uT%u",
                           j->pattern == DMK_PATTERN_SEQ ? "Sequential" : "Random",
                           dmk_text_mode_title(t->mode), bl, j->queue_depth, dmk_test_threads(t));
}

char *dmk_text_tooltip(const DmkTest *t, const DmkStats *s)
{
    char mb[32], io[32], mean[32], p99[32];
    char *title = dmk_text_test_title(t);
    char *tip =
        g_strdup_printf("%s\n%s MB/s\n%s IOPS\nLatency: mean %s \u03bcs, 99th percentile %s "
                        "\u03bcs",
                        title, dmk_format_double(s->mb_s, 3, mb, sizeof mb),
                        dmk_format_double(s->iops, 1, io, sizeof io),
                        dmk_format_double(s->lat_mean_us, 2, mean, sizeof mean),
                        dmk_format_double(s->lat_p99_us, 2, p99, sizeof p99));
    g_free(title);
    return tip;
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
    if (p->stage == DMK_STAGE_PREPARE || !p->test)
        return g_strdup_printf("Preparing test file %d %%", pct);
    char *title = dmk_text_test_title(p->test);
    char *left = dmk_text_clock(p->remaining_s);
    char *line;
    if (p->stage == DMK_STAGE_WARMUP)
        line = g_strdup_printf("%s - warm-up %d %% (%s left)", title, pct, left);
    else if (p->stage == DMK_STAGE_MEASURE)
        line = g_strdup_printf("%s - pass %u/%u (%s left)", title, p->pass, p->passes, left);
    else
        line = g_strdup_printf("Interval before %s (%s left)", title, left);
    g_free(title);
    g_free(left);
    return line;
}
