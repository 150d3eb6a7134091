/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-chart-build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-report.h"
#include "dmk-size.h"

/* One build's inputs, so the helpers take one argument instead of six. */
typedef struct {
    DmkChartBuild *b;
    DmkChartBuildKind kind;
    const DmkStatField *field;
    const DmkRunResult *const *res;
    size_t n;
    DmkChartBuildOptions opt;
} Ctx;

/* ---- building blocks ----------------------------------------------------- */

static const DmkStatField *metric_field(const char *metric)
{
    for (size_t i = 0; metric && i < dmk_stat_field_count; i++)
        if (strcmp(dmk_stat_fields[i].name, metric) == 0)
            return &dmk_stat_fields[i];
    return &dmk_stat_fields[0]; /* mb_s */
}

static double value_of(const Ctx *c, const DmkTestResult *t)
{
    return dmk_stat_get(&t->score.total, c->field);
}

/* Per direction, one lines/bars chart of a single result. */
static bool by_direction(const Ctx *c)
{
    return c->opt.one_by_direction && c->n == 1;
}

/* The data written, as a subtitle says it: a whole phrase per kind, for
 * the translator (dmk_data_name's word is the files', never translated). */
static const char *data_phrase(bool same, DmkDataKind d)
{
    if (!same)
        /* TRANSLATORS: the data the results wrote: some random, some zeros. */
        return DMK_("random and zero data");
    /* TRANSLATORS: the data a test wrote: random bytes, or zeros. */
    return d == DMK_DATA_ZERO ? DMK_("zero data") : DMK_("random data");
}

/* Room for the largest chart: every test of every result a series. */
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
    dmk_chart_model_init(&b->model);
}

/* The series takes pts (freed with b). */
static DmkChartSeries *add_series(DmkChartBuild *b, DmkChartPoint *pts, size_t n)
{
    DmkChartSeries *s = &b->series[b->n_series];
    s->n = n;
    s->points = pts;
    b->points[b->n_series++] = pts;
    return s;
}

/* label + suffix in buf, the label cut short so the suffix always fits
 * (the renderer ellipsizes what is still too long for the legend). */
static void join_label(char *buf, size_t len, const char *label, const char *suffix)
{
    size_t room = len - 1 - strlen(suffix);
    snprintf(buf, len, "%.*s%s", (int)(strlen(label) < room ? strlen(label) : room), label, suffix);
}

void dmk_chart_result_name(const DmkRunResult *const *res, size_t i, const char *const *names,
                           char *buf, size_t len)
{
    if (names) {
        join_label(buf, len, names[i] ? names[i] : "", "");
        return;
    }
    /* Whole labels, so results differing only past the legend's width
     * still count as different; join_label cuts the name to fit. */
    char mine[DMK_RESULT_LABEL_LEN], other[DMK_RESULT_LABEL_LEN], suffix[32] = "";
    dmk_result_label(res[i], false, mine, sizeof mine);
    for (size_t k = 0; k < i && !suffix[0]; k++) {
        dmk_result_label(res[k], false, other, sizeof other);
        if (strcmp(mine, other) == 0)
            snprintf(suffix, sizeof suffix, " [%zu]", i + 1);
    }
    join_label(buf, len, mine, suffix);
}

/* The legend name of result i: the caller's, or its drive and date, told
 * apart from an earlier result with the same ones by the result's number. */
static void result_label(const Ctx *c, size_t i, char *buf, size_t len)
{
    dmk_chart_result_name(c->res, i, c->opt.names, buf, len);
}

/* The conditions, from the first result; with note_differences, where the
 * others differ the subtitle says so. A single result charted by
 * direction names its drive first, as the legend cannot, and a single
 * result's comment comes last. */
static void set_subtitle(const Ctx *c)
{
    const DmkRunResult *r = c->res[0];
    bool size_same = true, passes_same = true, data_same = true;
    for (size_t i = 1; c->opt.note_differences && i < c->n; i++) {
        size_same = size_same && c->res[i]->size == r->size;
        passes_same =
            passes_same && c->res[i]->passes == r->passes && c->res[i]->measure_s == r->measure_s;
        data_same = data_same && c->res[i]->data == r->data;
    }
    char who[160] = "", meas[32], file[96], passes[64]; /* file: room in a subtitle */
    if (by_direction(c))
        dmk_result_label(r, true, who, sizeof who); /* the target's path says little here */
    dmk_result_area(r, file, sizeof file);          /* "1 GiB test file", a device's "region of" */
    /* TRANSLATORS: the best of so many passes, each so many seconds long. */
    snprintf(passes, sizeof passes,
             dmk_ngettext("best of %u x %s s", "best of %u x %s s", r->passes), r->passes,
             dmk_format_double(r->measure_s, 1, meas, sizeof meas));
    DmkChartModel *m = &c->b->model;
    /* TRANSLATORS: a chart's subtitle: the version, the area tested ("1 GiB
     * test file"), the passes ("best of 5 x 5 s") and the data written
     * ("random data"). */
    int at = snprintf(m->subtitle, sizeof m->subtitle, "%s%s", who, who[0] ? " - " : "");
    size_t off = at > 0 && (size_t)at < sizeof m->subtitle ? (size_t)at : 0;
    snprintf(m->subtitle + off, sizeof m->subtitle - off, DMK_("Drivemark %s, %s, %s, %s"),
             r->version, size_same ? file : DMK_("test file sizes differ"),
             passes_same ? passes : DMK_("passes differ"), data_phrase(data_same, r->data));
    /* One result's comment says what was tested, as on its tab (several
     * results: each has its own, the legend names their drives). */
    char tail[sizeof r->comment + 4];
    snprintf(tail, sizeof tail, " - %s", r->comment);
    size_t len = strlen(m->subtitle), room = sizeof m->subtitle - 1 - len;
    size_t add = c->n == 1 && r->comment[0] ? strlen(tail) : 0;
    add = add < room ? add : room; /* a long comment is cut: the subtitle has no more room */
    memcpy(m->subtitle + len, tail, add);
    m->subtitle[len + add] = '\0';
}

/* ---- line charts: QD and block-size sweeps -------------------------------- */

/* Tests on one line differ only in x: same direction, pattern, threads,
 * and the block size (QD chart) or queue depth (block-size chart). */
static bool same_line(const DmkTest *a, const DmkTest *b, DmkChartBuildKind kind)
{
    const DmkJob *x = &a->jobs[0], *y = &b->jobs[0];
    if (a->mode != b->mode || x->pattern != y->pattern ||
        dmk_test_threads(a) != dmk_test_threads(b) || x->read_share != y->read_share)
        return false;
    return kind == DMK_CHART_BUILD_QD ? x->block_size == y->block_size
                                      : x->queue_depth == y->queue_depth;
}

static double x_of(const DmkTest *t, DmkChartBuildKind kind)
{
    return kind == DMK_CHART_BUILD_QD ? t->jobs[0].queue_depth : t->jobs[0].block_size;
}

/* "RND4K T1" on a QD chart, "RND Q4T1" on a block-size chart. */
static void line_label(const DmkTest *t, DmkChartBuildKind kind, char *buf, size_t len)
{
    char bl[16];
    const DmkJob *j = &t->jobs[0];
    if (kind == DMK_CHART_BUILD_QD)
        snprintf(buf, len, "%s%s T%u", j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND",
                 dmk_format_block(j->block_size, bl, sizeof bl), dmk_test_threads(t));
    else
        snprintf(buf, len, "%s Q%uT%u", j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND",
                 j->queue_depth, dmk_test_threads(t));
}

/* Is test i the first of its line in r? How many lines share its mode? */
static bool leads_line(const DmkRunResult *r, size_t i, DmkChartBuildKind kind)
{
    for (size_t k = 0; k < i; k++)
        if (same_line(&r->tests[k].test, &r->tests[i].test, kind))
            return false;
    return true;
}

static size_t lines_of_mode(const DmkRunResult *r, DmkMode mode, DmkChartBuildKind kind)
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

/* A line's direction in a legend: the files' word (dmk_mode_name), in
 * the reader's language. */
static const char *mode_word(DmkMode m)
{
    /* TRANSLATORS: a line's direction in a chart's legend, lower case
     * ("RND4K T1 read - Samsung SSD 970"): reads, writes or a mix. */
    return m == DMK_MODE_READ ? DMK_("read") : m == DMK_MODE_WRITE ? DMK_("write") : DMK_("mix");
}

/* A line's legend name: "Read" or "Read (RND4K T1)" by direction; else
 * "<result> - read", or "RND4K T1 read - <result>" where several lines
 * share a direction: what tells them apart goes first, where the legend's
 * ellipsis cannot cut it off. */
static void line_name(const Ctx *c, size_t f, const DmkTest *t0, char *buf, size_t len)
{
    char what[64] = "", who[sizeof((DmkChartSeries *)0)->name], head[96];
    bool several = lines_of_mode(c->res[f], t0->mode, c->kind) > 1;
    if (several)
        line_label(t0, c->kind, what, sizeof what);
    if (by_direction(c)) {
        snprintf(buf, len, "%s%s%s%s", dmk_mode_title(t0->mode), several ? " (" : "", what,
                 several ? ")" : "");
        return;
    }
    result_label(c, f, who, sizeof who);
    if (several) {
        snprintf(head, sizeof head, "%s %s - ", what, mode_word(t0->mode));
        snprintf(buf, len, "%s", head);
        join_label(buf + strlen(head), len - strlen(head), who, "");
    } else {
        snprintf(head, sizeof head, " - %s", mode_word(t0->mode));
        join_label(buf, len, who, head);
    }
}

/* The series of the line led by test `lead` of result f. */
static int add_line(const Ctx *c, size_t f, size_t lead)
{
    const DmkRunResult *r = c->res[f];
    const DmkTest *t0 = &r->tests[lead].test;
    DmkChartPoint *pts = calloc(r->n_tests, sizeof *pts);
    if (!pts)
        return DMK_E_NOMEM;
    size_t n = 0;
    for (size_t i = lead; i < r->n_tests; i++)
        if (same_line(&r->tests[i].test, t0, c->kind))
            pts[n++] = (DmkChartPoint){x_of(&r->tests[i].test, c->kind), value_of(c, &r->tests[i])};
    qsort(pts, n, sizeof *pts, cmp_x);
    DmkChartSeries *s = add_series(c->b, pts, n);
    line_name(c, f, t0, s->name, sizeof s->name);
    return DMK_OK;
}

/* Do all tests of all results share the workload of the first (direction
 * aside)? Then the title can name it. */
static bool one_workload(const Ctx *c)
{
    DmkTest first = c->res[0]->tests[0].test;
    for (size_t f = 0; f < c->n; f++) {
        for (size_t i = 0; i < c->res[f]->n_tests; i++) {
            first.mode = c->res[f]->tests[i].test.mode;
            first.jobs[0].read_share = c->res[f]->tests[i].test.jobs[0].read_share;
            if (!same_line(&first, &c->res[f]->tests[i].test, c->kind))
                return false;
        }
    }
    return true;
}

/* "Random 4 KiB: MB/s (10^6 B/s) vs queue depth"; without the workload
 * when the lines have different ones. */
static void set_line_titles(const Ctx *c)
{
    DmkChartModel *m = &c->b->model;
    const DmkTest *t = &c->res[0]->tests[0].test;
    bool qd = c->kind == DMK_CHART_BUILD_QD;
    char what[96] = "", bs[32], th[32] = "";
    const DmkJob *j = &t->jobs[0];
    bool seq = j->pattern == DMK_PATTERN_SEQ;
    if (dmk_test_threads(t) > 1)
        snprintf(th, sizeof th, dmk_ngettext(", %u thread", ", %u threads", dmk_test_threads(t)),
                 dmk_test_threads(t));
    bool named = one_workload(c);
    /* TRANSLATORS: a chart title's start: the access pattern and block size
     * ("Random 4 KiB"), or queue depth; ", 2 threads" may follow. */
    if (named && qd)
        snprintf(what, sizeof what, seq ? DMK_("Sequential %s%s: ") : DMK_("Random %s%s: "),
                 dmk_format_size(j->block_size, bs, sizeof bs), th);
    else if (named)
        snprintf(what, sizeof what,
                 seq ? DMK_("Sequential at QD%u%s: ") : DMK_("Random at QD%u%s: "), j->queue_depth,
                 th);
    /* TRANSLATORS: a chart's title: its workload ("Random 4 KiB: ") or
     * nothing, then the value charted ("MB/s (10^6 B/s)"). */
    snprintf(m->title, sizeof m->title,
             qd ? DMK_("%s%s vs queue depth") : DMK_("%s%s vs block size"), what,
             dmk_chart_metric_title(c->field->name));
    snprintf(m->x_title, sizeof m->x_title, "%s", qd ? DMK_("Queue depth") : DMK_("Block size"));
    m->x_ticks = qd ? DMK_TICKS_NUMBER : DMK_TICKS_BYTES;
    m->kind = DMK_CHART_LINES;
    m->x_scale = DMK_AXIS_LOG2; /* the points double: 1, 2, 4 ... or 512 B .. 64 MiB */
}

static int build_lines(const Ctx *c)
{
    size_t max = 0;
    for (size_t f = 0; f < c->n; f++)
        max += c->res[f]->n_tests;
    if (build_alloc(c->b, max, 0) != DMK_OK)
        return DMK_E_NOMEM;
    for (size_t f = 0; f < c->n; f++)
        for (size_t i = 0; i < c->res[f]->n_tests; i++)
            if (leads_line(c->res[f], i, c->kind) && add_line(c, f, i) != DMK_OK)
                return DMK_E_NOMEM;
    set_line_titles(c);
    return DMK_OK;
}

/* ---- tiles: CrystalDiskMark's tests as grouped bars ----------------------- */

/* A category's label: "SEQ1M Q8T1 Read"; by direction only the test's
 * name, the legend naming the direction. */
static void category_of(const Ctx *c, const DmkTest *t, char *buf, size_t len)
{
    if (by_direction(c))
        snprintf(buf, len, "%s", t->name);
    else
        snprintf(buf, len, "%s %s", t->name, dmk_mode_title(t->mode));
}

/* The categories: each one of any result, in first-seen order. */
static int add_categories(const Ctx *c)
{
    DmkChartBuild *b = c->b;
    for (size_t f = 0; f < c->n; f++) {
        for (size_t i = 0; i < c->res[f]->n_tests; i++) {
            char label[80];
            category_of(c, &c->res[f]->tests[i].test, label, sizeof label);
            bool seen = false;
            for (size_t k = 0; k < b->n_categories && !seen; k++)
                seen = strcmp(b->categories[k], label) == 0;
            if (seen)
                continue;
            if (!(b->categories[b->n_categories] = malloc(strlen(label) + 1)))
                return DMK_E_NOMEM;
            strcpy(b->categories[b->n_categories++], label);
        }
    }
    return DMK_OK;
}

/* The test of r in category `label` (in direction `mode` when by
 * direction, else any), or NULL. */
static const DmkTestResult *category_test(const Ctx *c, const DmkRunResult *r, const char *label,
                                          int mode)
{
    for (size_t i = 0; i < r->n_tests; i++) {
        char l[80];
        category_of(c, &r->tests[i].test, l, sizeof l);
        if ((mode < 0 || r->tests[i].test.mode == (DmkMode)mode) && strcmp(l, label) == 0)
            return &r->tests[i];
    }
    return NULL;
}

/* The series of result f (in direction mode, or any: -1); none when it
 * has no test in any category, and by direction that leaves it out. */
static int add_bars(const Ctx *c, size_t f, int mode)
{
    DmkChartBuild *b = c->b;
    DmkChartPoint *pts = calloc(b->n_categories ? b->n_categories : 1, sizeof *pts);
    if (!pts)
        return DMK_E_NOMEM;
    bool any = false;
    for (size_t k = 0; k < b->n_categories; k++) {
        const DmkTestResult *t = category_test(c, c->res[f], b->categories[k], mode);
        /* a test the result lacks: no bar, never a zero one */
        pts[k] = (DmkChartPoint){(double)k, t ? value_of(c, t) : NAN};
        any = any || t;
    }
    if (mode >= 0 && !any) {
        free(pts);
        return DMK_OK;
    }
    DmkChartSeries *s = add_series(b, pts, b->n_categories);
    if (mode >= 0)
        snprintf(s->name, sizeof s->name, "%s", dmk_mode_title((DmkMode)mode));
    else
        result_label(c, f, s->name, sizeof s->name);
    return DMK_OK;
}

static int build_tiles(const Ctx *c)
{
    size_t max = 0;
    for (size_t f = 0; f < c->n; f++)
        max += c->res[f]->n_tests;
    size_t n_series = by_direction(c) ? DMK_MODE_MIX - DMK_MODE_READ + 1 : c->n;
    if (build_alloc(c->b, n_series, max) != DMK_OK || add_categories(c) != DMK_OK)
        return DMK_E_NOMEM;
    int rc = DMK_OK;
    if (by_direction(c))
        for (int mode = DMK_MODE_READ; mode <= DMK_MODE_MIX && rc == DMK_OK; mode++)
            rc = add_bars(c, 0, mode);
    else
        for (size_t f = 0; f < c->n && rc == DMK_OK; f++)
            rc = add_bars(c, f, -1);
    c->b->model.kind = DMK_CHART_BARS;
    /* TRANSLATORS: a bar chart's title; %s is the value ("MB/s (10^6 B/s)"). */
    snprintf(c->b->model.title, sizeof c->b->model.title, DMK_("%s of each test"),
             dmk_chart_metric_title(c->field->name));
    return rc;
}

int dmk_chart_build(DmkChartBuild *b, DmkChartBuildKind kind, const char *metric,
                    const DmkRunResult *const *res, size_t n, const DmkChartBuildOptions *opt,
                    DmkError *err)
{
    memset(b, 0, sizeof *b);
    dmk_chart_model_init(&b->model);
    /* The first result's tests set the titles; a later empty one only
     * adds no line, or a series of missing bars. */
    if (n == 0 || res[0]->n_tests == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0, "nothing to chart: no results");
    Ctx c = {b, kind, metric_field(metric), res, n, {0}};
    if (opt)
        c.opt = *opt;
    int rc = kind == DMK_CHART_BUILD_TILES ? build_tiles(&c) : build_lines(&c);
    if (rc != DMK_OK) {
        dmk_chart_build_free(b);
        return dmk_error_set(err, rc, 0, "out of memory building the chart");
    }
    set_subtitle(&c);
    snprintf(b->model.y_title, sizeof b->model.y_title, "%s",
             dmk_chart_metric_title(c.field->name));
    /* Results' charts set beside each other tests (and block sizes) whose
     * speeds differ by decades: log where they do. Callers may fix it. */
    b->model.y_scale = DMK_VALUE_AUTO;
    b->model.n_series = b->n_series;
    b->model.series = b->series;
    b->model.n_categories = b->n_categories;
    b->model.categories = (const char *const *)b->categories;
    return DMK_OK;
}
