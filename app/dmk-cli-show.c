/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-cli-show.h"

#include <stdlib.h>
#include <string.h>

#include "dmk-cli-report.h"
#include "dmk-csv-read.h"
#include "dmk-escape.h"
#include "dmk-i18n.h"
#include "dmk-report.h"
#include "dmk-size.h"

int dmk_cli_load_all(DmkCliArgs *a, DmkRunResult **out)
{
    const char *files[DMK_CLI_MAX_FILES];
    size_t n_in = a->n_files, n = 0;
    memcpy(files, a->files, sizeof files);
    for (size_t i = 0; i < n_in; i++) {
        DmkError err = {0};
        DmkRunResult **runs = NULL;
        size_t k = 0;
        int rc = dmk_csv_load_runs(files[i], &runs, &k, &err);
        if (rc == DMK_OK && n + k > DMK_CLI_MAX_FILES) {
            char name[4096];
            rc = dmk_error_set(&err, DMK_E_INVAL, 0,
                               "%s holds %zu runs: with the files before it more than %d results",
                               dmk_escape(files[i], name, sizeof name), k, DMK_CLI_MAX_FILES);
            for (size_t j = 0; j < k; j++)
                dmk_run_result_free(runs[j]);
        }
        if (rc != DMK_OK) {
            free(runs);
            fprintf(stderr, "drivemark-cli: %s\n", err.msg);
            dmk_cli_free_all(out, n);
            return rc;
        }
        for (size_t j = 0; j < k; j++, n++) {
            out[n] = runs[j];
            a->files[n] = files[i];
            a->file_run[n] = k > 1 ? (unsigned)(j + 1) : 0;
        }
        free(runs);
    }
    a->n_files = n;
    return DMK_OK;
}

const char *dmk_cli_input_name(const DmkCliArgs *a, size_t i, char *buf, size_t len)
{
    dmk_escape(a->files[i], buf, len);
    if (a->file_run[i]) {
        char *name = strdup(buf);
        /* TRANSLATORS: a result file's name and which of the runs it holds this is (1, 2...). */
        if (name)
            snprintf(buf, len, DMK_("%s (run %u)"), name, a->file_run[i]);
        free(name);
    }
    return buf;
}

void dmk_cli_free_all(DmkRunResult **r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        dmk_run_result_free(r[i]);
        r[i] = NULL;
    }
}

/* ---- the comparison table ------------------------------------------------ */

typedef struct {
    const char *name;
    DmkMode mode;
} RowKey;

static const DmkTestResult *find_test(const DmkRunResult *r, const RowKey *k)
{
    for (size_t i = 0; i < r->n_tests; i++)
        if (r->tests[i].test.mode == k->mode && strcmp(r->tests[i].test.name, k->name) == 0)
            return &r->tests[i];
    return NULL;
}

/* Every test and direction of any file, in the order they first appear. */
static size_t collect_rows(DmkRunResult *const *res, size_t n, RowKey *rows, size_t max)
{
    size_t n_rows = 0;
    for (size_t f = 0; f < n; f++) {
        for (size_t i = 0; i < res[f]->n_tests && n_rows < max; i++) {
            RowKey k = {res[f]->tests[i].test.name, res[f]->tests[i].test.mode};
            bool seen = false;
            for (size_t r = 0; r < n_rows && !seen; r++)
                seen = rows[r].mode == k.mode && strcmp(rows[r].name, k.name) == 0;
            if (!seen)
                rows[n_rows++] = k;
        }
    }
    return n_rows;
}

static const char *metric_label(const char *metric)
{
    if (strcmp(metric, "iops") == 0)
        return "IOPS"; /* a unit: the same in every language */
    /* TRANSLATORS: in "Drivemark results: mean latency in us of each test's best pass"; us
     * (microseconds) is the unit, as typed. */
    if (strcmp(metric, "lat_mean_us") == 0)
        return DMK_("mean latency in us");
    /* TRANSLATORS: in "Drivemark results: 99th percentile latency in us of each test's best
     * pass"; us (microseconds) is the unit, as typed. */
    if (strcmp(metric, "lat_p99_us") == 0)
        return DMK_("99th percentile latency in us");
    return "MB/s (10^6 bytes/s)"; /* a unit */
}

/* Under a file's line in a comparison: what its file system did to the
 * test file, and how many of its tests carry each flag. */
static void print_file_flags(FILE *f, const DmkRunResult *r)
{
    char notes[1024];
    dmk_run_fs_notes(r, notes, sizeof notes);
    for (char *line = notes, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
        fputs("      ", f);
        /* TRANSLATORS: a note under a result file's line in show: what its file system did. */
        fprintf(f, DMK_("Note: %.*s\n"), (int)(nl - line), line);
    }
    char flags[512] = "";
    size_t used = 0;
    for (uint32_t bit = 1; (bit & DMK_FLAG_ALL) && used < sizeof flags; bit <<= 1) {
        size_t n = 0;
        for (size_t i = 0; i < r->n_tests; i++)
            n += (r->tests[i].flags & bit) != 0;
        if (!n)
            continue;
        if (used)
            used += (size_t)snprintf(flags + used, sizeof flags - used, ", ");
        /* TRANSLATORS: how many of a file's tests carry a flag; %s is the flag's name as the
         * result files have it (cached, throttled...), untranslated. */
        if (used < sizeof flags)
            used += (size_t)snprintf(flags + used, sizeof flags - used,
                                     dmk_ngettext("%zu test %s", "%zu tests %s", n), n,
                                     dmk_flag_name(bit));
    }
    if (flags[0]) {
        fputs("      ", f);
        /* TRANSLATORS: %s lists the flags' counts: "2 tests cached, 1 test throttled". */
        fprintf(f, DMK_("Flags: %s\n"), flags);
    }
}

static void print_files(FILE *f, const DmkCliArgs *a, DmkRunResult *const *res)
{
    /* TRANSLATORS: show's title; %s is what is compared (MB/s (10^6 bytes/s), IOPS, mean latency
     * in us). */
    fprintf(f, DMK_("Drivemark results: %s of each test's best pass\n\n"), metric_label(a->metric));
    for (size_t i = 0; i < a->n_files; i++) {
        char label[DMK_RESULT_LABEL_LEN], name[4096], path[1024], fs[32];
        const DmkTargetInfo *t = &res[i]->target;
        dmk_result_label(res[i], false, label, sizeof label);
        /* The file's name and its cells, escaped (dmk-escape.h). */
        dmk_escape_inplace(label, NULL);
        char where[1100];
        snprintf(where, sizeof where, "%s%s%s", dmk_escape(t->path, path, sizeof path),
                 t->fs_type[0] ? ", " : "", dmk_escape(t->fs_type, fs, sizeof fs));
        fprintf(f, "  [%zu] %s\n      ", i + 1, dmk_cli_input_name(a, i, name, sizeof name));
        if (res[i]->complete)
            fprintf(f, "%s (%s)\n", label, where);
        else
            /* TRANSLATORS: a result's drive, then its path and file system (/mnt, ext4). */
            fprintf(f, DMK_("%s (%s) - incomplete run\n"), label, where);
        print_file_flags(f, res[i]);
    }
}

static void print_header(FILE *f, size_t name_w, size_t n_files)
{
    /* TRANSLATORS: show's column headings: the test (SEQ1M Q8T1), its direction (Read, Write). */
    fprintf(f, "\n%-*s %-5s", (int)name_w, DMK_("Test"), DMK_("Mode"));
    for (size_t i = 0; i < n_files; i++) {
        char h[32];
        snprintf(h, sizeof h, "[%zu]", i + 1);
        fprintf(f, " %14s", h);
    }
    for (size_t i = 1; i < n_files; i++) {
        char h[40];
        /* TRANSLATORS: a column heading of show: file [2]'s difference to the first, in %. */
        snprintf(h, sizeof h, DMK_("[%zu] diff %%"), i + 1);
        fprintf(f, " %12s", h);
    }
    fputc('\n', f);
}

/* One row: each file's value, then each later file's difference in %. */
static void print_row(FILE *f, const RowKey *k, size_t name_w, DmkRunResult *const *res, size_t n,
                      const DmkStatField *fd)
{
    char b[64];
    double first = 0.0;
    bool have_first = false;
    fprintf(f, "%-*s %-5s", (int)name_w, k->name, dmk_mode_title(k->mode));
    for (size_t i = 0; i < n; i++) {
        const DmkTestResult *t = find_test(res[i], k);
        fprintf(f, " %14s",
                t ? dmk_format_double(dmk_stat_get(&t->score.total, fd), fd->decimals, b, sizeof b)
                  : "-");
        if (i == 0 && t) {
            first = dmk_stat_get(&t->score.total, fd);
            have_first = true;
        }
    }
    for (size_t i = 1; i < n; i++) {
        const DmkTestResult *t = find_test(res[i], k);
        if (!t || !have_first || first == 0.0) {
            fprintf(f, " %12s", "-");
            continue;
        }
        double d = (dmk_stat_get(&t->score.total, fd) - first) / first * 100.0;
        dmk_format_double(d, 1, b + 1, sizeof b - 1);
        b[0] = '+';
        fprintf(f, " %12s", d >= 0 ? b : b + 1);
    }
    fputc('\n', f);
}

static void print_compare(FILE *f, const DmkCliArgs *a, DmkRunResult *const *res)
{
    RowKey *rows = malloc(DMK_CLI_MAX_FILES * DMK_MAX_TESTS * sizeof *rows);
    if (!rows)
        return;
    size_t n_rows = collect_rows(res, a->n_files, rows, DMK_CLI_MAX_FILES * DMK_MAX_TESTS);
    size_t name_w = strlen(DMK_("Test")); /* the heading's, at least */
    for (size_t r = 0; r < n_rows; r++)
        if (strlen(rows[r].name) > name_w)
            name_w = strlen(rows[r].name);
    print_files(f, a, res);
    print_header(f, name_w, a->n_files);
    for (size_t r = 0; r < n_rows; r++)
        print_row(f, &rows[r], name_w, res, a->n_files, dmk_cli_metric_field(a->metric));
    free(rows);
}

static bool any_lab(DmkRunResult *const *res, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (res[i]->lab[0])
            return true;
    return false;
}

/* Lab results do not line up test by test: each file's report in turn. */
static void print_each(FILE *f, const DmkCliArgs *a, DmkRunResult *const *res)
{
    for (size_t i = 0; i < a->n_files; i++) {
        char name[4096];
        if (a->n_files > 1)
            fprintf(f, "%s== %s ==\n", i ? "\n" : "", dmk_cli_input_name(a, i, name, sizeof name));
        if (res[i]->lab[0])
            dmk_report_lab(f, res[i]);
        else
            dmk_report_table(f, res[i]);
    }
}

int dmk_cli_show(const DmkCliArgs *args, FILE *f)
{
    DmkRunResult *res[DMK_CLI_MAX_FILES] = {0};
    DmkCliArgs in = *args; /* its files become the results loaded */
    const DmkCliArgs *a = &in;
    if (dmk_cli_load_all(&in, res) != DMK_OK)
        return DMK_EXIT_FAILED;
    if (any_lab(res, a->n_files))
        print_each(f, a, res);
    else if (a->n_files == 1 && !a->metric_set)
        dmk_report_table(f, res[0]);
    else
        print_compare(f, a, res);
    fflush(f);
    dmk_cli_free_all(res, a->n_files);
    return ferror(f) ? 1 : 0;
}
