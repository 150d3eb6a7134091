#include "dmk-plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-report.h"
#include "dmk-size.h"
#include "dmk-text.h"

struct DmkPlot {
    DmkChartModel model;
    const DmkStatField *field;
    char metric[32];
    GArray *series;        /* DmkChartSeries */
    GPtrArray *points;     /* each series' DmkChartPoint array */
    GPtrArray *categories; /* char *, bars only */
};

/* ---- building blocks ----------------------------------------------------- */

static const DmkStatField *metric_field(const char *metric)
{
    for (size_t i = 0; metric && i < dmk_stat_field_count; i++)
        if (strcmp(dmk_stat_fields[i].name, metric) == 0)
            return &dmk_stat_fields[i];
    return &dmk_stat_fields[0]; /* mb_s */
}

static double value_of(const DmkPlot *p, const DmkTestResult *t)
{
    return dmk_stat_get(&t->score.total, p->field);
}

/* The series keeps pts; the plot frees it. */
static void add_series(DmkPlot *p, const char *name, DmkChartPoint *pts, size_t n)
{
    DmkChartSeries s;
    memset(&s, 0, sizeof s);
    g_strlcpy(s.name, name, sizeof s.name);
    s.n = n;
    s.points = pts;
    g_ptr_array_add(p->points, pts);
    g_array_append_val(p->series, s);
}

/* Legend names: drive and date, told apart from an earlier result with
 * the same ones by the result's number (as drivemark-cli chart does). */
static char **result_names(const DmkRunResult *const *res, size_t n)
{
    char **base = g_new0(char *, n + 1);
    char **names = g_new0(char *, n + 1);
    for (size_t i = 0; i < n; i++) {
        base[i] = dmk_text_result_label(res[i]);
        gboolean dup = FALSE;
        for (size_t k = 0; k < i && !dup; k++)
            dup = strcmp(base[k], base[i]) == 0;
        names[i] = dup ? g_strdup_printf("%s [%zu]", base[i], i + 1) : g_strdup(base[i]);
    }
    g_strfreev(base);
    return names;
}

/* One result's chart names its drive (and when) above the legend of
 * directions: "Samsung SSD 980 PRO 1TB, 2026-11-30 06:45". */
static char *drive_and_date(const DmkRunResult *r)
{
    char *label = dmk_text_result_label(r);
    if (r->target.model[0])
        return label;
    g_free(label); /* the target's path says little on a chart */
    char when[32];
    g_snprintf(when, sizeof when, "%.16s", r->date);
    if (strlen(when) > 10 && when[10] == 'T')
        when[10] = ' ';
    return g_strdup(when);
}

/* The conditions, from the first result; where the others differ the
 * subtitle says so rather than claim the first one's for all. */
static void set_subtitle(DmkChartModel *m, const DmkRunResult *const *res, size_t n,
                         const char *who)
{
    const DmkRunResult *r = res[0];
    gboolean size_same = TRUE, passes_same = TRUE, data_same = TRUE;
    for (size_t i = 1; i < n; i++) {
        size_same = size_same && res[i]->size == r->size;
        passes_same =
            passes_same && res[i]->passes == r->passes && res[i]->measure_s == r->measure_s;
        data_same = data_same && res[i]->data == r->data;
    }
    char size[32], meas[32], file[64], passes[64];
    g_snprintf(file, sizeof file, "%s test file", dmk_format_size(r->size, size, sizeof size));
    g_snprintf(passes, sizeof passes, "best of %u x %s s", r->passes,
               dmk_format_double(r->measure_s, 1, meas, sizeof meas));
    g_snprintf(m->subtitle, sizeof m->subtitle, "%s%sDrivemark %s, %s, %s, %s data", who ? who : "",
               who ? " - " : "", r->version, size_same ? file : "test file sizes differ",
               passes_same ? passes : "passes differ",
               data_same ? dmk_data_name(r->data) : "random and zero");
}

/* ---- lines: queue-depth and block-size sweeps ------------------------------ */

/* Tests on one line differ only in x: same direction, pattern, threads,
 * and block size (QD chart) or queue depth (block-size chart). */
static gboolean same_line(const DmkTest *a, const DmkTest *b, gboolean qd)
{
    const DmkJob *x = &a->jobs[0], *y = &b->jobs[0];
    if (a->mode != b->mode || x->pattern != y->pattern ||
        dmk_test_threads(a) != dmk_test_threads(b) || x->read_share != y->read_share)
        return FALSE;
    return qd ? x->block_size == y->block_size : x->queue_depth == y->queue_depth;
}

static gboolean leads_line(const DmkRunResult *r, size_t i, gboolean qd)
{
    for (size_t k = 0; k < i; k++)
        if (same_line(&r->tests[k].test, &r->tests[i].test, qd))
            return FALSE;
    return TRUE;
}

static size_t lines_of_mode(const DmkRunResult *r, DmkMode mode, gboolean qd)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_tests; i++)
        n += r->tests[i].test.mode == mode && leads_line(r, i, qd);
    return n;
}

static int cmp_x(const void *a, const void *b)
{
    double x = ((const DmkChartPoint *)a)->x, y = ((const DmkChartPoint *)b)->x;
    return (x > y) - (x < y);
}

/* "Read", "Read (RND4K T1)" for one result; "<who> - read" for several. */
static char *line_name(const DmkRunResult *r, const DmkTest *t, gboolean qd, const char *who)
{
    char bl[16], what[48] = "";
    const DmkJob *j = &t->jobs[0];
    const char *pat = j->pattern == DMK_PATTERN_SEQ ? "SEQ" : "RND";
    if (lines_of_mode(r, t->mode, qd) > 1 && qd)
        g_snprintf(what, sizeof what, " (%s%s T%u)", pat,
                   dmk_format_block(j->block_size, bl, sizeof bl), dmk_test_threads(t));
    else if (lines_of_mode(r, t->mode, qd) > 1)
        g_snprintf(what, sizeof what, " (%s Q%uT%u)", pat, j->queue_depth, dmk_test_threads(t));
    if (!who)
        return g_strdup_printf("%s%s", dmk_mode_title(t->mode), what);
    return g_strdup_printf("%s - %s%s", who, dmk_mode_name(t->mode), what);
}

static void add_line(DmkPlot *p, const DmkRunResult *r, size_t lead, gboolean qd, const char *who)
{
    const DmkTest *t0 = &r->tests[lead].test;
    DmkChartPoint *pts = g_new0(DmkChartPoint, r->n_tests);
    size_t n = 0;
    for (size_t i = lead; i < r->n_tests; i++) {
        const DmkJob *j = &r->tests[i].test.jobs[0];
        if (same_line(&r->tests[i].test, t0, qd))
            pts[n++] =
                (DmkChartPoint){qd ? j->queue_depth : j->block_size, value_of(p, &r->tests[i])};
    }
    qsort(pts, n, sizeof *pts, cmp_x);
    char *name = line_name(r, t0, qd, who);
    add_series(p, name, pts, n);
    g_free(name);
}

static void set_line_titles(DmkPlot *p, const DmkTest *t, gboolean qd)
{
    DmkChartModel *m = &p->model;
    char bs[32], th[24] = "";
    const DmkJob *j = &t->jobs[0];
    const char *pattern = j->pattern == DMK_PATTERN_SEQ ? "Sequential" : "Random";
    if (dmk_test_threads(t) > 1)
        g_snprintf(th, sizeof th, ", %u threads", dmk_test_threads(t));
    if (qd)
        g_snprintf(m->title, sizeof m->title, "%s %s%s: %s vs queue depth", pattern,
                   dmk_format_size(j->block_size, bs, sizeof bs), th,
                   dmk_chart_metric_title(p->metric));
    else
        g_snprintf(m->title, sizeof m->title, "%s at QD%u%s: %s vs block size", pattern,
                   j->queue_depth, th, dmk_chart_metric_title(p->metric));
    g_strlcpy(m->x_title, qd ? "Queue depth" : "Block size", sizeof m->x_title);
    m->x_ticks = qd ? DMK_TICKS_NUMBER : DMK_TICKS_BYTES;
    m->kind = DMK_CHART_LINES;
    m->x_scale = DMK_AXIS_LOG2; /* the points double: 1, 2, 4 ... or 512 B .. 64 MiB */
}

static void build_lines(DmkPlot *p, const DmkRunResult *const *res, size_t n, char **names)
{
    gboolean qd = strcmp(res[0]->sweep, "qd") == 0;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < res[f]->n_tests; i++)
            if (leads_line(res[f], i, qd))
                add_line(p, res[f], i, qd, n > 1 ? names[f] : NULL);
    set_line_titles(p, &res[0]->tests[0].test, qd);
}

/* ---- bars: the tiles' tests ------------------------------------------------- */

static const DmkTestResult *find_test(const DmkRunResult *r, const char *name, int mode)
{
    for (size_t i = 0; i < r->n_tests; i++)
        if ((mode < 0 || r->tests[i].test.mode == (DmkMode)mode) &&
            strcmp(r->tests[i].test.name, name) == 0)
            return &r->tests[i];
    return NULL;
}

static void add_category(DmkPlot *p, char *label)
{
    for (guint i = 0; i < p->categories->len; i++) {
        if (strcmp(g_ptr_array_index(p->categories, i), label) == 0) {
            g_free(label);
            return;
        }
    }
    g_ptr_array_add(p->categories, label);
}

static char *category_of(const DmkTest *t)
{
    return g_strdup_printf("%s %s", t->name, dmk_mode_title(t->mode));
}

/* One result, as CrystalDiskMark's grid: a group per test, a bar per
 * direction. */
static void build_bars_one(DmkPlot *p, const DmkRunResult *r)
{
    for (size_t i = 0; i < r->n_tests; i++)
        add_category(p, g_strdup(r->tests[i].test.name));
    for (int mode = DMK_MODE_READ; mode <= DMK_MODE_MIX; mode++) {
        gboolean any = FALSE;
        DmkChartPoint *pts = g_new0(DmkChartPoint, p->categories->len);
        for (guint c = 0; c < p->categories->len; c++) {
            const DmkTestResult *t = find_test(r, g_ptr_array_index(p->categories, c), mode);
            pts[c] = (DmkChartPoint){c, t ? value_of(p, t) : NAN}; /* missing: no bar */
            any = any || t;
        }
        if (any)
            add_series(p, dmk_mode_title((DmkMode)mode), pts, p->categories->len);
        else
            g_free(pts);
    }
}

/* Several results: a group per test and direction, a bar per result. */
static void build_bars_many(DmkPlot *p, const DmkRunResult *const *res, size_t n, char **names)
{
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < res[f]->n_tests; i++)
            add_category(p, category_of(&res[f]->tests[i].test));
    for (size_t f = 0; f < n; f++) {
        DmkChartPoint *pts = g_new0(DmkChartPoint, p->categories->len);
        for (guint c = 0; c < p->categories->len; c++) {
            const DmkTestResult *t = NULL;
            for (size_t i = 0; i < res[f]->n_tests && !t; i++) {
                char *cat = category_of(&res[f]->tests[i].test);
                if (strcmp(cat, g_ptr_array_index(p->categories, c)) == 0)
                    t = &res[f]->tests[i];
                g_free(cat);
            }
            pts[c] = (DmkChartPoint){c, t ? value_of(p, t) : NAN};
        }
        add_series(p, names[f], pts, p->categories->len);
    }
}

/* ---- the plot ------------------------------------------------------------ */

/* Lines when every result is a sweep of one kind. */
static gboolean all_sweeps(const DmkRunResult *const *res, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!res[i]->sweep[0] || strcmp(res[i]->sweep, res[0]->sweep) != 0)
            return FALSE;
    return n > 0;
}

static void build(DmkPlot *p, const DmkRunResult *const *res, const char *const *given, size_t n)
{
    char **names = given ? g_strdupv((char **)given) : result_names(res, n);
    if (all_sweeps(res, n)) {
        build_lines(p, res, n, names);
    } else {
        if (n == 1)
            build_bars_one(p, res[0]);
        else
            build_bars_many(p, res, n, names);
        p->model.kind = DMK_CHART_BARS;
        g_snprintf(p->model.title, sizeof p->model.title, "%s of each test",
                   dmk_chart_metric_title(p->metric));
    }
    /* One result's legend names directions: the drive goes above. */
    char *drive = n == 1 ? drive_and_date(res[0]) : NULL;
    set_subtitle(&p->model, res, n, drive && drive[0] ? drive : NULL);
    g_free(drive);
    g_strfreev(names);
}

DmkPlot *dmk_plot_new(const DmkRunResult *const *res, const char *const *names, size_t n,
                      const char *metric)
{
    DmkPlot *p = g_new0(DmkPlot, 1);
    dmk_chart_model_init(&p->model);
    p->field = metric_field(metric);
    g_strlcpy(p->metric, p->field->name, sizeof p->metric);
    p->series = g_array_new(FALSE, TRUE, sizeof(DmkChartSeries));
    p->points = g_ptr_array_new_with_free_func(g_free);
    p->categories = g_ptr_array_new_with_free_func(g_free);
    size_t used = 0;
    const DmkRunResult **with_tests = g_new0(const DmkRunResult *, n + 1);
    const char **used_names = g_new0(const char *, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (res[i] && res[i]->n_tests > 0) {
            used_names[used] = names ? names[i] : NULL;
            with_tests[used++] = res[i];
        }
    }
    if (used > 0)
        build(p, with_tests, names ? used_names : NULL, used);
    g_free(with_tests);
    g_free(used_names);
    g_strlcpy(p->model.y_title, dmk_chart_metric_title(p->metric), sizeof p->model.y_title);
    p->model.n_series = p->series->len;
    p->model.series = (const DmkChartSeries *)(void *)p->series->data;
    p->model.n_categories = p->categories->len;
    p->model.categories = (const char *const *)p->categories->pdata;
    return p;
}

const DmkChartModel *dmk_plot_get_model(const DmkPlot *p)
{
    return &p->model;
}

void dmk_plot_free(DmkPlot *p)
{
    if (!p)
        return;
    g_array_unref(p->series);
    g_ptr_array_unref(p->points);
    g_ptr_array_unref(p->categories);
    g_free(p);
}

gboolean dmk_plot_export(const DmkPlot *p, const char *path, double scale, GError **error)
{
    DmkError err = {0};
    if (dmk_chart_export(&p->model, path, DMK_PLOT_EXPORT_WIDTH, DMK_PLOT_EXPORT_HEIGHT, scale,
                         &err) == DMK_OK)
        return TRUE;
    g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, err.msg);
    return FALSE;
}

/* ---- the drawing area --------------------------------------------------- */

#define PLOT_KEY "dmk-plot"

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    (void)data;
    const DmkPlot *p = g_object_get_data(G_OBJECT(area), PLOT_KEY);
    DmkChartModel empty;
    dmk_chart_model_init(&empty);
    dmk_chart_render(cr, width, height, p ? &p->model : &empty);
}

GtkWidget *dmk_plot_area_new(void)
{
    GtkWidget *area = gtk_drawing_area_new();
    /* The least that stays legible; the window grows when a chart is
     * first shown (dmk-window-tabs.c), and the Benchmark tab alone keeps
     * CrystalDiskMark's size. */
    gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(area), 320);
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(area), 180);
    gtk_widget_set_hexpand(area, TRUE);
    gtk_widget_set_vexpand(area, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw, NULL, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, "Chart",
                                   -1);
    return area;
}

static void update_accessible(GtkWidget *area, const DmkPlot *p)
{
    const char *title = p && p->model.title[0] ? p->model.title : "Chart: no data";
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

void dmk_plot_area_set_plot(GtkWidget *area, DmkPlot *plot)
{
    g_object_set_data_full(G_OBJECT(area), PLOT_KEY, plot, (GDestroyNotify)dmk_plot_free);
    update_accessible(area, plot);
    gtk_widget_queue_draw(area);
}

const DmkPlot *dmk_plot_area_get_plot(GtkWidget *area)
{
    return g_object_get_data(G_OBJECT(area), PLOT_KEY);
}
