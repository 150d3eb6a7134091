#include "dmk-cli-report.h"

#include <string.h>

#include "dmk-size.h"

static const char *mode_title(DmkMode m)
{
    return m == DMK_MODE_READ ? "Read" : m == DMK_MODE_WRITE ? "Write" : "Mix";
}

/* "1MiB", "4KiB", "512B" as CrystalDiskMark labels blocks. */
static void block_label(uint32_t bs, char *buf, size_t len)
{
    if (bs % (1u << 20) == 0)
        snprintf(buf, len, "%uMiB", bs >> 20);
    else if (bs % 1024 == 0)
        snprintf(buf, len, "%uKiB", bs >> 10);
    else
        snprintf(buf, len, "%uB", bs);
}

void dmk_report_test_line(FILE *f, const DmkTestResult *t)
{
    const DmkJob *j = &t->test.jobs[0];
    const DmkStats *s = &t->score.total;
    char bl[16], mb[32], io[32], lat[32];
    block_label(j->block_size, bl, sizeof bl);
    fprintf(f, "  %s %8s (Q=%3u, T=%2u): %9s MB/s [%9s IOPS] <%9s us>\n",
            j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND", bl, j->queue_depth,
            dmk_test_threads(&t->test), dmk_format_double(s->mb_s, 3, mb, sizeof mb),
            dmk_format_double(s->iops, 1, io, sizeof io),
            dmk_format_double(s->lat_mean_us, 2, lat, sizeof lat));
    if (t->test.mode == DMK_MODE_MIX) {
        dmk_format_double(t->score.read.mb_s, 3, mb, sizeof mb);
        dmk_format_double(t->score.write.mb_s, 3, io, sizeof io);
        fprintf(f, "      read %3u %%: %s MB/s, write %3u %%: %s MB/s\n", j->read_share, mb,
                100 - j->read_share, io);
    }
}

static void print_section(FILE *f, const DmkRunResult *r, DmkMode mode)
{
    bool any = false;
    for (size_t i = 0; i < r->n_tests; i++) {
        if (r->tests[i].test.mode != mode)
            continue;
        if (!any)
            fprintf(f, "\n[%s]\n", mode_title(mode));
        any = true;
        dmk_report_test_line(f, &r->tests[i]);
    }
}

static void print_context(FILE *f, const DmkRunResult *r)
{
    const DmkTargetInfo *t = &r->target;
    char size[32], cap[32], freeb[32], fsz[32], meas[32], intv[32];
    dmk_format_size(r->size, size, sizeof size);
    fprintf(f, "\nProfile: %s\n", r->profile);
    fprintf(f, "   Test: %s (x%u) [%s: %s, %s free of %s]\n", size, r->passes, t->path,
            t->fs_type[0] ? t->fs_type : "?", dmk_format_size(t->fs_free_bytes, freeb, 32),
            dmk_format_size(t->fs_size_bytes, fsz, 32));
    fprintf(f, "   Data: %s\n", r->data == DMK_DATA_ZERO ? "All 0x00" : "Random (incompressible)");
    fprintf(f, "   Time: Measure %s s / Warm-up %s s / Interval %s s\n",
            dmk_format_double(r->measure_s, 1, meas, sizeof meas),
            dmk_format_double(r->warmup_s, 1, fsz, sizeof fsz),
            dmk_format_double(r->interval_s, 1, intv, sizeof intv));
    fprintf(f, "   Date: %s\n", r->date);
    fprintf(f, "     OS: %s\n", r->os);
    fprintf(f, "  Drive: %s (%s, %s)\n", t->model[0] ? t->model : "unknown model",
            t->device[0] ? t->device : "unknown device",
            t->capacity_bytes ? dmk_format_size(t->capacity_bytes, cap, sizeof cap)
                              : "size unknown");
    fprintf(f, "Backend: %s%s\n", r->backend,
            strcmp(r->backend, "null") == 0 ? " (no disk I/O: engine overhead only)" : "");
    if (r->comment[0])
        fprintf(f, "Comment: %s\n", r->comment);
    if (!r->complete)
        fprintf(f, "\n(incomplete: the run ended before its last test)\n");
}

void dmk_report_table(FILE *f, const DmkRunResult *r)
{
    static const char rule[] =
        "------------------------------------------------------------------------------\n";
    fprintf(f, "%sDrivemark %s\n%s", rule, r->version, rule);
    fprintf(f, "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
               "* KB = 1000 bytes, KiB = 1024 bytes\n");
    print_section(f, r, DMK_MODE_READ);
    print_section(f, r, DMK_MODE_WRITE);
    print_section(f, r, DMK_MODE_MIX);
    print_context(f, r);
    fflush(f);
}

static void format_clock(double s, char *buf, size_t len)
{
    unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

void dmk_report_progress(const DmkProgress *p)
{
    char left[32], mb[32];
    format_clock(p->remaining_s, left, sizeof left);
    dmk_format_double(p->mb_s, 1, mb, sizeof mb);
    int pct = (int)(p->fraction * 100.0 + 0.5);
    fputs("\r\033[K", stderr);
    switch (p->stage) {
    case DMK_STAGE_PREPARE:
        fprintf(stderr, "  Preparing test file %3d %%  %s MB/s", pct, mb);
        break;
    case DMK_STAGE_WARMUP:
        fprintf(stderr, "  [%zu/%zu] %s %s - warm-up %3d %%  %s MB/s  (%s left)", p->test_index + 1,
                p->n_tests, p->test->name, mode_title(p->test->mode), pct, mb, left);
        break;
    case DMK_STAGE_MEASURE:
        fprintf(stderr, "  [%zu/%zu] %s %s - pass %u/%u  %s MB/s  (%s left)", p->test_index + 1,
                p->n_tests, p->test->name, mode_title(p->test->mode), p->pass, p->passes, mb, left);
        break;
    case DMK_STAGE_INTERVAL:
        fprintf(stderr, "  Interval before %s %s  (%s left)", p->test->name,
                mode_title(p->test->mode), left);
        break;
    }
    fflush(stderr);
}

void dmk_report_progress_end(void)
{
    fputs("\r\033[K", stderr);
    fflush(stderr);
}
