/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-cli-report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef DMK_HAVE_CSV
#include "dmk-csv-read.h"
#include "dmk-csv.h"
#endif
#include "dmk-escape.h"
#include "dmk-i18n.h"
#include "dmk-lab.h"
#include "dmk-platform.h"
#include "dmk-report.h"

#include "dmk-size.h"

void dmk_report_table(FILE *f, const DmkRunResult *r)
{
    char *text = dmk_report_text(r);
    /* Names and comments come from the file system and from result files
     * someone sent: no escape sequence of theirs reaches the terminal. */
    if (text)
        dmk_escape_inplace(text, "\n");
    fputs(text ? text : DMK_("(out of memory printing the results)\n"), f);
    free(text);
    fflush(f);
}

void dmk_report_lab(FILE *f, const DmkRunResult *r)
{
    size_t need = dmk_lab_report(r, NULL, 0) + 1;
    char *text = malloc(need);
    if (text) {
        dmk_lab_report(r, text, need);
        dmk_escape_inplace(text, "\n");
    }
    fputs(text ? text : DMK_("(out of memory printing the results)\n"), f);
    free(text);
    /* The comment, as the run's table ends with it (the window shows it
     * beside the report, so dmk_lab_report leaves it out). */
    if (r->comment[0]) {
        char comment[sizeof r->comment];
        snprintf(comment, sizeof comment, "%s", r->comment);
        dmk_escape_inplace(comment, NULL);
        /* TRANSLATORS: the run's comment (--comment), as the report's last line. */
        fprintf(f, DMK_("Comment: %s\n"), comment);
    }
    fflush(f);
}

#ifdef DMK_HAVE_CSV
/* r as the CSV keeps it: written and read back in memory. NULL when that
 * fails (the caller reports r itself). */
#ifdef _WIN32
/* Windows' C runtime has no open_memstream: a temporary file read back.
 * NULL (data left NULL) when there is none. */
static void write_read_back(const DmkRunResult *r, char **data, size_t *len, DmkError *err)
{
    FILE *f = tmpfile();
    if (!f)
        return;
    long size = -1;
    if (dmk_csv_write(f, r, "the report", err) == DMK_OK && (size = ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (*data = malloc((size_t)size)) != NULL)
        *len = fread(*data, 1, (size_t)size, f);
    fclose(f);
}
#else
static void write_read_back(const DmkRunResult *r, char **data, size_t *len, DmkError *err)
{
    FILE *f = open_memstream(data, len);
    if (!f)
        return;
    int rc = dmk_csv_write(f, r, "the report", err);
    if (fclose(f) != 0 || rc != DMK_OK) {
        free(*data);
        *data = NULL;
    }
}
#endif

static DmkRunResult *as_saved(const DmkRunResult *r)
{
    char *data = NULL;
    size_t len = 0;
    DmkError err = {0};
    DmkRunResult *back = NULL;
    write_read_back(r, &data, &len, &err);
    if (data)
        dmk_csv_load_mem("the report", data, len, &back, &err);
    free(data);
    return back;
}
#endif

void dmk_report_lab_as_saved(FILE *f, const DmkRunResult *r)
{
#ifdef DMK_HAVE_CSV
    /* A lab report rounds its figures (170.5004 MB/s: 171), and the CSV
     * keeps 3 decimals (170.500, which rounds half to even: 170 in
     * `show`). Reported from the values as saved, the report printed now
     * and `show` of the saved file agree to the digit, by construction. */
    DmkRunResult *saved = as_saved(r);
    dmk_report_lab(f, saved ? saved : r);
    dmk_run_result_free(saved);
#else
    dmk_report_lab(f, r);
#endif
}

static void format_clock(double s, char *buf, size_t len)
{
    unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

/* ---- the progress display ----------------------------------------------- */

static DmkProgressStyle progress_style = DMK_PROGRESS_REDRAW;
/* DMK_PROGRESS_LINES: the step's latest line, printed once the step is over. */
static char held[512];
static long held_key[4];

DmkProgressStyle dmk_report_progress_style(void)
{
    if (!dmk_os_stderr_is_tty())
        return DMK_PROGRESS_NONE;
    /* A terminal that says it cannot move the cursor (Emacs' shell, a
     * serial console, a CI log behind a pty) gets plain lines. */
    const char *term = getenv("TERM");
    return !term || !term[0] || strcmp(term, "dumb") == 0 ? DMK_PROGRESS_LINES
                                                          : DMK_PROGRESS_REDRAW;
}

void dmk_report_progress_start(DmkProgressStyle style)
{
    progress_style = style;
    held[0] = '\0';
}

/* A lab step runs for minutes or hours: elapsed time and temperature too.
 * The numbers are printed in the "C" locale's way ('.') in any language:
 * drivemark-cli sets only LC_MESSAGES. */
static void lab_progress(const DmkProgress *p, const char *mb, const char *left, char *line,
                         size_t len)
{
    char done[32], temp[32] = "";
    format_clock(p->elapsed_s, done, sizeof done);
    if (isfinite(p->temp_c))
        snprintf(temp, sizeof temp, "  %.0f C", p->temp_c);
    /* TRANSLATORS: a lab test's progress line: [step/steps], the test's name (SEQ1M Q8T1) and
     * direction (Read, Write), the step's label, the time elapsed (1:02:03), the GiB done, the
     * speed, the drive's temperature ("  41 C", or nothing) and the time left. */
    snprintf(line, len, DMK_("[%zu/%zu] %s %s, %s - %s elapsed  %.1f GiB  %s MB/s%s  (%s left)"),
             p->test_index + 1, p->n_tests, p->test->name, dmk_mode_title(p->test->mode),
             p->test->label, done, (double)p->test_bytes / (double)(1ULL << 30), mb, temp, left);
}

/* The progress line but its indent; every test name (SEQ1M Q8T1) and
 * unit (MB/s) in it stays as it is in every language. */
static void progress_text(const DmkProgress *p, char *line, size_t len)
{
    char left[32], mb[32];
    format_clock(p->remaining_s, left, sizeof left);
    dmk_format_double(p->mb_s, 1, mb, sizeof mb);
    int pct = (int)(p->fraction * 100.0 + 0.5);
    switch (p->stage) {
    case DMK_STAGE_PREPARE:
        /* A lab step with its own files (the file sets) writes them first. */
        if (p->test && p->test->label[0])
            /* TRANSLATORS: [step/steps], the step's label (a file set), the percentage done,
             * the speed and the time left (1:02). */
            snprintf(line, len,
                     DMK_("[%zu/%zu] writing the files for %s %3d %%  %s MB/s  (%s left)"),
                     p->test_index + 1, p->n_tests, p->test->label, pct, mb, left);
        else
            /* TRANSLATORS: the percentage done and the speed. */
            snprintf(line, len, DMK_("Preparing test file %3d %%  %s MB/s"), pct, mb);
        break;
    case DMK_STAGE_WARMUP:
        /* TRANSLATORS: [test/tests], the test's name (SEQ1M Q8T1) and direction (Read, Write),
         * the warm-up's percentage done, the speed and the time left (1:02). */
        snprintf(line, len, DMK_("[%zu/%zu] %s %s - warm-up %3d %%  %s MB/s  (%s left)"),
                 p->test_index + 1, p->n_tests, p->test->name, dmk_mode_title(p->test->mode), pct,
                 mb, left);
        break;
    case DMK_STAGE_MEASURE:
        if (p->test->label[0]) {
            lab_progress(p, mb, left, line, len);
            break;
        }
        /* TRANSLATORS: [test/tests], the test's name (SEQ1M Q8T1) and direction (Read, Write),
         * the pass of passes, the speed and the time left (1:02). */
        snprintf(line, len, DMK_("[%zu/%zu] %s %s - pass %u/%u  %s MB/s  (%s left)"),
                 p->test_index + 1, p->n_tests, p->test->name, dmk_mode_title(p->test->mode),
                 p->pass, p->passes, mb, left);
        break;
    case DMK_STAGE_CLEANUP:
        snprintf(line, len, "%s",
                 p->test ? DMK_("Removing the test's files...")
                         : DMK_("Removing the test file..."));
        break;
    case DMK_STAGE_VERIFY:
        /* TRANSLATORS: [test/tests], the test's name (SEQ1M Q8T1) and direction (Read, Write),
         * the percentage of the written data read back and checked. */
        snprintf(line, len, DMK_("[%zu/%zu] %s %s - verifying written data %3d %%"),
                 p->test_index + 1, p->n_tests, p->test->name, dmk_mode_title(p->test->mode), pct);
        break;
    case DMK_STAGE_INTERVAL:
        /* TRANSLATORS: the pause before the next test: its name (SEQ1M Q8T1) and direction
         * (Read, Write), and the time left (0:05). */
        snprintf(line, len, DMK_("Interval before %s %s  (%s left)"), p->test->name,
                 dmk_mode_title(p->test->mode), left);
        break;
    }
}

static void progress_line(const DmkProgress *p, char *line, size_t len)
{
    snprintf(line, len, "  ");
    progress_text(p, line + 2, len - 2);
}

/* The step a report belongs to: a line per step, and one a minute in a
 * lab test's long step. */
static bool same_step(const DmkProgress *p)
{
    long key[4] = {(long)p->stage, (long)p->test_index, (long)p->pass,
                   p->test && p->test->label[0] ? (long)(p->elapsed_s / 60) : 0};
    bool same = memcmp(key, held_key, sizeof key) == 0;
    memcpy(held_key, key, sizeof key);
    return same;
}

void dmk_report_progress(const DmkProgress *p)
{
    char line[sizeof held];
    progress_line(p, line, sizeof line);
    if (progress_style == DMK_PROGRESS_NONE)
        return;
    if (progress_style == DMK_PROGRESS_REDRAW) {
        fprintf(stderr, "\r\033[K%s", line);
    } else {
        if (!same_step(p) && held[0])
            fprintf(stderr, "%s\n", held);
        snprintf(held, sizeof held, "%s", line);
    }
    fflush(stderr);
}

void dmk_report_progress_end(void)
{
    if (progress_style == DMK_PROGRESS_REDRAW)
        fputs("\r\033[K", stderr);
    else if (progress_style == DMK_PROGRESS_LINES && held[0])
        fprintf(stderr, "%s\n", held);
    held[0] = '\0';
    fflush(stderr);
}
