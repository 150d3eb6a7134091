#include "dmk-text.h"

#include <stdlib.h>
#include <string.h>

#include "dmk-report.h"
#include "dmk-size.h"

const char *dmk_text_mode_title(DmkMode m)
{
    return dmk_mode_title(m);
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
