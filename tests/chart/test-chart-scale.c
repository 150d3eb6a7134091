/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The value axis on a log scale, value labels that never overlap in dense
 * compare charts, and the dark palette: checked through dmk_chart_probe
 * (what one render placed) and on the pixels of image surfaces.
 * `test-chart-scale --shots DIR` writes the charts to look at instead. */
#include "dmk-test.h"

#include <math.h>
#include <stdint.h>
#include <sys/stat.h>

#include "chart-pixels.h"
#include "dmk-chart.h"

/* CrystalDiskMark's eight tiles, as a compare chart shows them. */
static const char *const tests8[] = {
    "SEQ1M Q8T1 Read",  "SEQ1M Q8T1 Write",  "SEQ1M Q1T1 Read", "SEQ1M Q1T1 Write",
    "RND4K Q32T1 Read", "RND4K Q32T1 Write", "RND4K Q1T1 Read", "RND4K Q1T1 Write",
};
/* A fast NVMe drive's numbers; each result differs by a few per cent, as
 * runs of drives of one class do, so neighbouring labels are as wide. */
static const double base8[] = {3512.4, 3021.7, 2104.9, 2498.3, 612.5, 451.2, 41.2, 162.3};

#define MAX_SERIES 12
static DmkChartPoint pts[MAX_SERIES][8];
static DmkChartSeries sers[MAX_SERIES];

static DmkChartModel compare_model(size_t n_results, DmkValueScale scale)
{
    DmkChartModel m;
    dmk_chart_model_init(&m);
    m.kind = DMK_CHART_BARS;
    snprintf(m.title, sizeof m.title, "MB/s of each test");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("mb_s"));
    for (size_t s = 0; s < n_results; s++) {
        memset(&sers[s], 0, sizeof sers[s]);
        snprintf(sers[s].name, sizeof sers[s].name, "result-%02zu.csv: Drive %zu", s + 1, s + 1);
        for (size_t j = 0; j < 8; j++)
            pts[s][j].y = base8[j] * (1 + 0.03 * (double)((s * 7 + j * 3) % 11) / 10.0 +
                                      (j == 6 ? 0.5 * (double)(s % 2) : 0));
        sers[s].n = 8;
        sers[s].points = pts[s];
    }
    m.n_series = n_results;
    m.series = sers;
    m.n_categories = 8;
    m.categories = tests8;
    m.y_scale = scale;
    return m;
}

static DmkChartBox label_boxes[1024];
static DmkChartBox bar_boxes[1024];

static DmkChartProbe probe_of(const DmkChartModel *m, double w, double h, const DmkChartStyle *st)
{
    DmkChartProbe p = {.labels = label_boxes,
                       .max_labels = sizeof label_boxes / sizeof label_boxes[0],
                       .bars = bar_boxes,
                       .max_bars = sizeof bar_boxes / sizeof bar_boxes[0]};
    dmk_chart_probe(w, h, m, st, &p);
    return p;
}

static bool intersect(DmkChartBox a, DmkChartBox b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* ---- the log axis ---- */

static bool is_125(double v)
{
    double mag = pow(10, floor(log10(v) + 1e-9)), k = v / mag;
    return fabs(k - 1) < 1e-6 || fabs(k - 2) < 1e-6 || fabs(k - 5) < 1e-6;
}

static void test_log_ticks(void)
{
    DmkChartModel m = compare_model(2, DMK_VALUE_LOG);
    DmkChartProbe p = probe_of(&m, 800, 500, NULL);
    DMK_CHECK(p.y_log);
    DMK_CHECK(p.n_y_ticks >= 7);
    /* 1-2-5 a decade, in order, from under the smallest value (41.2). */
    for (size_t i = 0; i < p.n_y_ticks; i++) {
        DMK_CHECK(is_125(p.y_ticks[i]));
        if (i > 0) {
            double r = p.y_ticks[i] / p.y_ticks[i - 1];
            DMK_CHECK(fabs(r - 2) < 1e-6 || fabs(r - 2.5) < 1e-6);
        }
    }
    DMK_CHECK(p.y_ticks[0] <= 41.2);
    DMK_CHECK_NEAR(p.y_ticks[0], 10, 1e-9);
    bool has_1000 = false;
    for (size_t i = 0; i < p.n_y_ticks; i++)
        has_1000 = has_1000 || fabs(p.y_ticks[i] - 1000) < 1e-9;
    DMK_CHECK(has_1000);
    /* The axis says it is a log one, with its unit. */
    DMK_CHECK_HAS(p.y_title, "MB/s");
    DMK_CHECK_HAS(p.y_title, "log scale");
}

static void test_log_auto(void)
{
    /* 3,500 MB/s beside 41 MB/s: over 50 times, so auto goes log. */
    DmkChartModel m = compare_model(2, DMK_VALUE_AUTO);
    DMK_CHECK(probe_of(&m, 800, 500, NULL).y_log);
    m.y_scale = DMK_VALUE_LINEAR;
    DmkChartProbe p = probe_of(&m, 800, 500, NULL);
    DMK_CHECK(!p.y_log);
    DMK_CHECK_STR(p.y_title, dmk_chart_metric_title("mb_s"));
    /* The sequential tests alone differ by less than 2: auto stays linear. */
    m = compare_model(2, DMK_VALUE_AUTO);
    m.n_categories = 4;
    for (size_t s = 0; s < m.n_series; s++)
        sers[s].n = 4;
    DMK_CHECK(!probe_of(&m, 800, 500, NULL).y_log);
    /* The one table names every scale once. */
    DmkValueScale v = DMK_VALUE_LINEAR;
    DMK_CHECK(dmk_value_scale_from_name("log", &v) && v == DMK_VALUE_LOG);
    DMK_CHECK(dmk_value_scale_from_name("auto", &v) && v == DMK_VALUE_AUTO);
    DMK_CHECK(dmk_value_scale_from_name("linear", &v) && v == DMK_VALUE_LINEAR);
    DMK_CHECK(!dmk_value_scale_from_name("Log", &v));
    DMK_CHECK_INT(dmk_value_scale_count, 3);
}

/* The smallest bar (RND4K Q1T1 Read, 41 MB/s) of 2 results at 800x500. */
static double smallest_bar_height(DmkValueScale scale)
{
    DmkChartModel m = compare_model(2, scale);
    DmkChartProbe p = probe_of(&m, 800, 500, NULL);
    DMK_CHECK_INT(p.n_bars, 16);
    double h = INFINITY;
    for (size_t i = 0; i < p.n_bars; i++)
        h = fmin(h, p.bars[i].h);
    return h;
}

static void test_log_small_bar_visible(void)
{
    double lin = smallest_bar_height(DMK_VALUE_LINEAR), log = smallest_bar_height(DMK_VALUE_LOG);
    /* The defect: on the linear axis the 4K Q1T1 bar is a sliver. */
    DMK_CHECK(lin < 8);
    DMK_CHECK(log > 40);
    printf("# smallest bar: %.1f px linear, %.1f px log\n", lin, log);
}

static void test_log_lines(void)
{
    /* A block-size sweep, 512 B to 64 MiB, a zero where a size failed:
     * the zero leaves a gap, never a line to minus infinity. */
    static DmkChartPoint p[18];
    for (int i = 0; i < 18; i++) {
        p[i].x = (double)(512ULL << i);
        p[i].y = i == 3 ? 0 : fmin(3500, 4.5 * pow(2, i));
    }
    DmkChartSeries s = {.name = "NVMe", .n = 18, .points = p};
    DmkChartModel m;
    dmk_chart_model_init(&m);
    m.x_scale = DMK_AXIS_LOG2;
    m.x_ticks = DMK_TICKS_BYTES;
    m.n_series = 1;
    m.series = &s;
    m.y_scale = DMK_VALUE_AUTO;
    DmkChartProbe pr = probe_of(&m, 800, 500, NULL);
    DMK_CHECK(pr.y_log);
    DMK_CHECK(pr.y_ticks[0] <= 4.5);
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 800, 500);
    cairo_t *cr = cairo_create(img);
    dmk_chart_render(cr, 800, 500, &m);
    DMK_CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_flush(img);
    DMK_CHECK(count_rgb(img, series_rgb[0]) > 200);
    cairo_surface_destroy(img);
    /* With a right axis (temperature beside speed) the left may go log:
     * the right keeps its own even steps. */
    static DmkChartPoint temp[18];
    for (int i = 0; i < 18; i++)
        temp[i] = (DmkChartPoint){p[i].x, 40 + i};
    DmkChartSeries two[2] = {s, {.name = "Temperature", .n = 18, .points = temp}};
    two[1].axis = DMK_Y_RIGHT;
    m.series = two;
    m.n_series = 2;
    snprintf(m.y2_title, sizeof m.y2_title, "Temperature (C)");
    pr = probe_of(&m, 800, 500, NULL);
    DMK_CHECK(pr.y_log);
}

/* ---- value labels ---- */

static void check_no_overlap(size_t n_results, double w, double h)
{
    for (int sc = 0; sc < 2; sc++) {
        DmkChartModel m = compare_model(n_results, sc ? DMK_VALUE_LOG : DMK_VALUE_LINEAR);
        DmkChartProbe p = probe_of(&m, w, h, NULL);
        size_t clashes = 0;
        for (size_t i = 0; i < p.n_labels; i++) {
            DMK_CHECK(p.labels[i].w > 0 && p.labels[i].h > 0);
            DMK_CHECK(p.labels[i].x >= 0 && p.labels[i].x + p.labels[i].w <= w);
            for (size_t k = i + 1; k < p.n_labels; k++)
                clashes += intersect(p.labels[i], p.labels[k]);
        }
        DMK_CHECK_INT(clashes, 0);
        /* Left out only where there is no room: at the design size every
         * bar of 5 results still gets its number, and of up to 12 at
         * least every other one. */
        if (n_results <= 5 && w >= 800)
            DMK_CHECK_INT(p.n_labels, n_results * 8);
        if (w >= 800)
            DMK_CHECK(p.n_labels * 2 >= n_results * 8);
        printf("# %zu results at %.0fx%.0f (%s): %zu of %zu labels\n", n_results, w, h,
               sc ? "log" : "linear", p.n_labels, n_results * 8);
    }
}

static void test_labels_never_overlap(void)
{
    for (size_t n = 2; n <= MAX_SERIES; n++) {
        check_no_overlap(n, 800, 500);
        check_no_overlap(n, 1024, 600);
        check_no_overlap(n, 480, 300);
    }
}

/* The export that showed "41.262.3": two results' RND4K Q1T1 labels side
 * by side, each wider than its bar. Now they are apart, or upright. */
static void test_labels_two_close(void)
{
    DmkChartModel m = compare_model(2, DMK_VALUE_LINEAR);
    pts[0][6].y = 41.2;
    pts[1][6].y = 62.3;
    DmkChartProbe p = probe_of(&m, 480, 300, NULL);
    for (size_t i = 0; i < p.n_labels; i++)
        for (size_t k = i + 1; k < p.n_labels; k++)
            DMK_CHECK(!intersect(p.labels[i], p.labels[k]));
    DMK_CHECK(p.n_labels > 0);
}

/* ---- the dark palette ---- */

static double luminance(uint32_t rgb)
{
    return (0.2126 * (rgb >> 16 & 0xff) + 0.7152 * (rgb >> 8 & 0xff) + 0.0722 * (rgb & 0xff)) / 255;
}

static cairo_surface_t *draw_styled(const DmkChartModel *m, int w, int h, DmkChartTheme theme)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    DmkChartStyle st = {.theme = theme};
    dmk_chart_render_styled(cr, w, h, m, &st);
    DMK_CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static void test_dark_palette(void)
{
    DmkChartModel m = compare_model(4, DMK_VALUE_AUTO);
    cairo_surface_t *s = draw_styled(&m, 800, 500, DMK_CHART_DARK);
    /* The paper is dark, corners and most of the picture alike. */
    DMK_CHECK(luminance(pixel(s, 1, 1)) < 0.2);
    DMK_CHECK(luminance(pixel(s, 798, 498)) < 0.2);
    size_t dark = 0, light = 0;
    for (int y = 0; y < 500; y++)
        for (int x = 0; x < 800; x++) {
            double l = luminance(pixel(s, x, y));
            dark += l < 0.2;
            light += l > 0.75;
        }
    DMK_CHECK(dark > 800 * 500 / 2);
    /* Text and axes are light on it: titles and labels show. */
    DMK_CHECK(light > 1000);
    cairo_surface_destroy(s);
    DmkChartStyle st = {.theme = DMK_CHART_DARK};
    DmkChartProbe p = probe_of(&m, 800, 500, &st);
    DMK_CHECK(p.background[0] < 0.2);
    /* NULL style and the plain renderer stay print-first white. */
    s = draw_styled(&m, 800, 500, DMK_CHART_LIGHT);
    DMK_CHECK_INT(pixel(s, 1, 1), 0xffffff);
    cairo_surface_destroy(s);
    p = probe_of(&m, 800, 500, NULL);
    DMK_CHECK_NEAR(p.background[0], 1, 1e-9);
}

/* ---- exports ---- */

static void test_exports_valid(void)
{
    DmkChartModel m = compare_model(12, DMK_VALUE_AUTO);
    DmkError err = {0};
    char path[512];
    unsigned char b[32];
    snprintf(path, sizeof path, "%s/scale-dense.png", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 2, &err), DMK_OK);
    DMK_CHECK_INT(read_head(path, b, sizeof b), sizeof b);
    DMK_CHECK(memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0 && be32(b + 16) == 1600);
    /* The export is white: print first. */
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    DMK_CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(s);
    DMK_CHECK_INT(pixel(s, 2, 2), 0xffffff);
    cairo_surface_destroy(s);
    snprintf(path, sizeof path, "%s/scale-dense.svg", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_OK);
    DMK_CHECK_INT(read_head(path, b, sizeof b), sizeof b);
    DMK_CHECK(memcmp(b, "<?xml", 5) == 0);
    snprintf(path, sizeof path, "%s/scale-dense.pdf", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_OK);
    DMK_CHECK_INT(read_head(path, b, sizeof b), sizeof b);
    DMK_CHECK(memcmp(b, "%PDF-", 5) == 0);
}

/* ---- pictures to look at ---- */

static int write_png(cairo_surface_t *s, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = cairo_surface_write_to_png(s, path) == CAIRO_STATUS_SUCCESS ? 0 : 1;
    cairo_surface_destroy(s);
    printf("%s\n", path);
    return rc;
}

static int write_shots(const char *dir)
{
    dmk_test_mkdir(dir);
    int rc = 0;
    DmkChartModel m = compare_model(12, DMK_VALUE_LINEAR);
    rc |= write_png(draw_styled(&m, 800, 500, DMK_CHART_LIGHT), dir, "compare12-linear.png");
    m = compare_model(8, DMK_VALUE_LOG);
    rc |= write_png(draw_styled(&m, 800, 500, DMK_CHART_LIGHT), dir, "compare8-log.png");
    m = compare_model(2, DMK_VALUE_LINEAR);
    rc |= write_png(draw_styled(&m, 800, 500, DMK_CHART_LIGHT), dir, "compare2-linear.png");
    m = compare_model(2, DMK_VALUE_LOG);
    rc |= write_png(draw_styled(&m, 800, 500, DMK_CHART_LIGHT), dir, "compare2-log.png");
    m = compare_model(4, DMK_VALUE_AUTO);
    rc |= write_png(draw_styled(&m, 800, 500, DMK_CHART_DARK), dir, "compare4-dark.png");
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--shots") == 0)
        return write_shots(argv[2]);
    DMK_TEST(test_log_ticks);
    DMK_TEST(test_log_auto);
    DMK_TEST(test_log_small_bar_visible);
    DMK_TEST(test_log_lines);
    DMK_TEST(test_labels_never_overlap);
    DMK_TEST(test_labels_two_close);
    DMK_TEST(test_dark_palette);
    DMK_TEST(test_exports_valid);
    return dmk_test_done();
}
