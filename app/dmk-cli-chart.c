#include "dmk-cli-chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-cli-show.h"
#include "dmk-report.h"
#include "dmk-size.h"

/* ---- building blocks ----------------------------------------------------- */

static double metric_of(const DmkTestResult *t, const char *metric)
{
    return dmk_stat_get(&t->score.total, dmk_cli_metric_field(metric));
}

static const char *pattern_title(DmkPattern p)
{
    return p == DMK_PATTERN_SEQ ? "Sequential" : "Random";
}

static const char *mode_word(DmkMode m)
{
    return dmk_mode_name(m); /* "read", "write", "mix" */
}

/* Room for the largest chart: every test of every file a series. */
static int build_alloc(DmkChartBuild *b, size_t n_series, size_t n_categories)
{
    b->series = calloc(n_series ? n_series : 1, sizeof *b->series);
    b->points = calloc(n_series ? n_series : 1, sizeof *b->points);
    b->categories = calloc(n_categories ? n_categories : 1, sizeof *b->categories);
    return b->series && b->points && b->categories ? DMK_OK : DMK_E_NOMEM;
}

void dmk_chart_build_free(DmkChartBuild *b)
{
    for (size_t i = 0; b->points && i < b->n_series; i++)
        free(b->points[i]);
    for (size_t i = 0; b->categories && i < b->n_categories; i++)
        free(b->categories[i]);
    free(b->series);
    free(b->points);
    free(b->categories);
    memset(b, 0, sizeof *b);
}

/* label + suffix in buf, the label cut short so the suffix always fits
 * (the renderer ellipsizes what is still too long for the legend). */
static void join_label(char *buf, size_t len, const char *label, const char *suffix)
{
    size_t room = len - 1 - strlen(suffix);
    snprintf(buf, len, "%.*s%s", (int)(strlen(label) < room ? strlen(label) : room), label, suffix);
}

/* The legend name of file i: its drive and date, told apart from an
 * earlier file with the same ones by the file's number. */
static void file_label(DmkRunResult *const *res, size_t i, char *buf, size_t len)
{
    char mine[256], other[256], suffix[32] = "";
    dmk_cli_result_label(res[i], mine, sizeof mine);
    for (size_t k = 0; k < i && !suffix[0]; k++) {
        dmk_cli_result_label(res[k], other, sizeof other);
        if (strcmp(mine, other) == 0)
            snprintf(suffix, sizeof suffix, " [%zu]", i + 1);
    }
    join_label(buf, len, mine, suffix);
}

static void set_subtitle(DmkChartModel *m, const DmkRunResult *r)
{
    char size[32], meas[32];
    snprintf(m->subtitle, sizeof m->subtitle,
             "Drivemark %s, %s test file, best of %u x %s s, %s data", r->version,
             dmk_format_size(r->size, size, sizeof size), r->passes,
             dmk_format_double(r->measure_s, 1, meas, sizeof meas), dmk_data_name(r->data));
}

/* ---- line charts: QD and block-size sweeps -------------------------------- */

/* Tests on one line differ only in x: same direction, pattern, threads,
 * and the block size (QD chart) or queue depth (block-size chart). */
static bool same_line(const DmkTest *a, const DmkTest *b, DmkChartChoice kind)
{
    const DmkJob *x = &a->jobs[0], *y = &b->jobs[0];
    if (a->mode != b->mode || x->pattern != y->pattern ||
        dmk_test_threads(a) != dmk_test_threads(b) || x->read_share != y->read_share)
        return false;
    return kind == DMK_CLI_CHART_QD ? x->block_size == y->block_size
                                    : x->queue_depth == y->queue_depth;
}

static double x_of(const DmkTest *t, DmkChartChoice kind)
{
    return kind == DMK_CLI_CHART_QD ? t->jobs[0].queue_depth : t->jobs[0].block_size;
}

/* "RND4K T1" on a QD chart, "RND Q4T1" on a block-size chart. */
static void line_label(const DmkTest *t, DmkChartChoice kind, char *buf, size_t len)
{
    char bl[16];
    const DmkJob *j = &t->jobs[0];
    if (kind == DMK_CLI_CHART_QD)
        snprintf(buf, len, "%s%s T%u", j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND",
                 dmk_format_block(j->block_size, bl, sizeof bl), dmk_test_threads(t));
    else
        snprintf(buf, len, "%s Q%uT%u", j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND",
                 j->queue_depth, dmk_test_threads(t));
}

/* Is test i the first of its line in r? How many lines share its mode? */
static bool leads_line(const DmkRunResult *r, size_t i, DmkChartChoice kind)
{
    for (size_t k = 0; k < i; k++)
        if (same_line(&r->tests[k].test, &r->tests[i].test, kind))
            return false;
    return true;
}

static size_t lines_of_mode(const DmkRunResult *r, DmkMode mode, DmkChartChoice kind)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_tests; i++)
        n += r->tests[i].test.mode == mode && leads_line(r, i, kind);
    return n;
}

static int cmp_x(const void *a, const void *b)
{
    double x = ((const DmkChartPoint *)a)->x, y = ((const DmkChartPoint *)b)->x;
    return (x > y) - (x < y);
}

/* The series of the line led by test `lead` of file f. */
static int add_line(DmkChartBuild *b, DmkRunResult *const *res, size_t f, size_t lead,
                    DmkChartChoice kind, const char *metric)
{
    const DmkRunResult *r = res[f];
    const DmkTest *t0 = &r->tests[lead].test;
    DmkChartPoint *pts = calloc(r->n_tests, sizeof *pts);
    if (!pts)
        return DMK_E_NOMEM;
    size_t n = 0;
    for (size_t i = lead; i < r->n_tests; i++)
        if (same_line(&r->tests[i].test, t0, kind))
            pts[n++] =
                (DmkChartPoint){x_of(&r->tests[i].test, kind), metric_of(&r->tests[i], metric)};
    qsort(pts, n, sizeof *pts, cmp_x);
    DmkChartSeries *s = &b->series[b->n_series];
    char who[256], what[64] = "", suffix[64];
    file_label(res, f, who, sizeof who);
    snprintf(suffix, sizeof suffix, " - %s", mode_word(t0->mode));
    if (lines_of_mode(r, t0->mode, kind) > 1) {
        /* Several lines per direction: what tells them apart goes first,
         * where the legend's ellipsis cannot cut it off. */
        line_label(t0, kind, what, sizeof what);
        snprintf(suffix, sizeof suffix, "%s %s - ", what, mode_word(t0->mode));
        snprintf(s->name, sizeof s->name, "%s", suffix);
        join_label(s->name + strlen(suffix), sizeof s->name - strlen(suffix), who, "");
    } else {
        join_label(s->name, sizeof s->name, who, suffix);
    }
    s->n = n;
    s->points = pts;
    b->points[b->n_series++] = pts;
    return DMK_OK;
}

/* Do all tests of all files share the workload of the first (direction
 * aside)? Then the title can name it. */
static bool one_workload(DmkRunResult *const *res, size_t n, DmkChartChoice kind)
{
    DmkTest first = res[0]->tests[0].test;
    for (size_t f = 0; f < n; f++) {
        for (size_t i = 0; i < res[f]->n_tests; i++) {
            first.mode = res[f]->tests[i].test.mode;
            first.jobs[0].read_share = res[f]->tests[i].test.jobs[0].read_share;
            if (!same_line(&first, &res[f]->tests[i].test, kind))
                return false;
        }
    }
    return true;
}

/* "Random 4 KiB: MB/s (10^6 B/s) vs queue depth"; without the workload
 * when the lines have different ones. */
static void set_line_titles(DmkChartModel *m, const DmkTest *t, bool named, DmkChartChoice kind,
                            const char *metric)
{
    char what[96] = "", bs[32], th[16] = "";
    const DmkJob *j = &t->jobs[0];
    if (dmk_test_threads(t) > 1)
        snprintf(th, sizeof th, ", %u threads", dmk_test_threads(t));
    if (named && kind == DMK_CLI_CHART_QD)
        snprintf(what, sizeof what, "%s %s%s: ", pattern_title(j->pattern),
                 dmk_format_size(j->block_size, bs, sizeof bs), th);
    else if (named)
        snprintf(what, sizeof what, "%s at QD%u%s: ", pattern_title(j->pattern), j->queue_depth,
                 th);
    snprintf(m->title, sizeof m->title, "%s%s vs %s", what, dmk_chart_metric_title(metric),
             kind == DMK_CLI_CHART_QD ? "queue depth" : "block size");
    snprintf(m->x_title, sizeof m->x_title,
             kind == DMK_CLI_CHART_QD ? "Queue depth" : "Block size");
    m->x_ticks = kind == DMK_CLI_CHART_QD ? DMK_TICKS_NUMBER : DMK_TICKS_BYTES;
    m->kind = DMK_CHART_LINES;
    m->x_scale = DMK_AXIS_LOG2; /* the points double: 1, 2, 4 ... or 512 B .. 64 MiB */
}

static int build_lines(DmkChartBuild *b, DmkChartChoice kind, const char *metric,
                       DmkRunResult *const *res, size_t n)
{
    size_t max = 0;
    for (size_t f = 0; f < n; f++)
        max += res[f]->n_tests;
    if (build_alloc(b, max, 0) != DMK_OK)
        return DMK_E_NOMEM;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < res[f]->n_tests; i++)
            if (leads_line(res[f], i, kind) && add_line(b, res, f, i, kind, metric) != DMK_OK)
                return DMK_E_NOMEM;
    set_line_titles(&b->model, &res[0]->tests[0].test, one_workload(res, n, kind), kind, metric);
    return DMK_OK;
}

/* ---- tiles: CrystalDiskMark's tests as grouped bars ----------------------- */

static const DmkTestResult *find_test(const DmkRunResult *r, const char *name, DmkMode mode)
{
    for (size_t i = 0; i < r->n_tests; i++)
        if (r->tests[i].test.mode == mode && strcmp(r->tests[i].test.name, name) == 0)
            return &r->tests[i];
    return NULL;
}

/* The categories: each test and direction of any file, in first-seen order. */
static int add_categories(DmkChartBuild *b, DmkRunResult *const *res, size_t n)
{
    for (size_t f = 0; f < n; f++) {
        for (size_t i = 0; i < res[f]->n_tests; i++) {
            const DmkTest *t = &res[f]->tests[i].test;
            bool seen = false;
            for (size_t k = 0; k < f && !seen; k++)
                seen = find_test(res[k], t->name, t->mode) != NULL;
            for (size_t k = 0; k < i && !seen; k++)
                seen = res[f]->tests[k].test.mode == t->mode &&
                       strcmp(res[f]->tests[k].test.name, t->name) == 0;
            if (seen)
                continue;
            char label[80];
            snprintf(label, sizeof label, "%s %s", t->name, dmk_mode_title(t->mode));
            if (!(b->categories[b->n_categories] = malloc(strlen(label) + 1)))
                return DMK_E_NOMEM;
            strcpy(b->categories[b->n_categories++], label);
        }
    }
    return DMK_OK;
}

/* "SEQ1M Q8T1 Read" -> the test of r it names, or NULL. */
static const DmkTestResult *category_test(const DmkRunResult *r, const char *label)
{
    for (size_t i = 0; i < r->n_tests; i++) {
        char l[80];
        snprintf(l, sizeof l, "%s %s", r->tests[i].test.name,
                 dmk_mode_title(r->tests[i].test.mode));
        if (strcmp(l, label) == 0)
            return &r->tests[i];
    }
    return NULL;
}

static int build_tiles(DmkChartBuild *b, const char *metric, DmkRunResult *const *res, size_t n)
{
    size_t max = 0;
    for (size_t f = 0; f < n; f++)
        max += res[f]->n_tests;
    if (build_alloc(b, n, max) != DMK_OK || add_categories(b, res, n) != DMK_OK)
        return DMK_E_NOMEM;
    for (size_t f = 0; f < n; f++) {
        DmkChartPoint *pts = calloc(b->n_categories, sizeof *pts);
        if (!pts)
            return DMK_E_NOMEM;
        b->points[b->n_series] = pts;
        for (size_t c = 0; c < b->n_categories; c++) {
            const DmkTestResult *t = category_test(res[f], b->categories[c]);
            /* a test the file lacks: no bar, never a zero one */
            pts[c] = (DmkChartPoint){(double)c, t ? metric_of(t, metric) : NAN};
        }
        DmkChartSeries *s = &b->series[b->n_series++];
        file_label(res, f, s->name, sizeof s->name);
        s->n = b->n_categories;
        s->points = pts;
    }
    b->model.kind = DMK_CHART_BARS;
    snprintf(b->model.title, sizeof b->model.title, "%s of each test",
             dmk_chart_metric_title(metric));
    return DMK_OK;
}

int dmk_chart_build(DmkChartBuild *b, DmkChartChoice kind, const char *metric,
                    DmkRunResult *const *res, size_t n, DmkError *err)
{
    memset(b, 0, sizeof *b);
    dmk_chart_model_init(&b->model);
    if (n == 0 || res[0]->n_tests == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0, "nothing to chart: no results");
    int rc = kind == DMK_CLI_CHART_TILES ? build_tiles(b, metric, res, n)
                                         : build_lines(b, kind, metric, res, n);
    if (rc != DMK_OK) {
        dmk_chart_build_free(b);
        return dmk_error_set(err, rc, 0, "out of memory building the chart");
    }
    set_subtitle(&b->model, res[0]);
    snprintf(b->model.y_title, sizeof b->model.y_title, "%s", dmk_chart_metric_title(metric));
    b->model.n_series = b->n_series;
    b->model.series = b->series;
    b->model.n_categories = b->n_categories;
    b->model.categories = (const char *const *)b->categories;
    return DMK_OK;
}

/* ---- the command --------------------------------------------------------- */

/* --kind, or what the first file was: a QD sweep, a block-size sweep, tiles. */
static DmkChartChoice chart_kind(const DmkCliArgs *a, const DmkRunResult *first)
{
    if (a->chart_kind != DMK_CLI_CHART_FROM_FILE)
        return a->chart_kind;
    if (strcmp(first->sweep, "qd") == 0)
        return DMK_CLI_CHART_QD;
    if (strcmp(first->sweep, "bs") == 0)
        return DMK_CLI_CHART_BS;
    return DMK_CLI_CHART_TILES;
}

int dmk_cli_chart(const DmkCliArgs *a)
{
    DmkRunResult *res[DMK_CLI_MAX_FILES] = {0};
    if (dmk_cli_load_all(a, res) != DMK_OK)
        return 1;
    DmkChartBuild b;
    DmkError err = {0};
    int rc = dmk_chart_build(&b, chart_kind(a, res[0]), a->metric, res, a->n_files, &err);
    if (rc == DMK_OK) {
        rc = dmk_chart_export(&b.model, a->chart_out, a->width, a->height, (double)a->scale, &err);
        dmk_chart_build_free(&b);
    }
    if (rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
    dmk_cli_free_all(res, a->n_files);
    return rc == DMK_OK ? 0 : 1;
}
