/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The chart renderer without a display: models are drawn on Cairo image
 * surfaces and the pixels checked, and exports are checked as files.
 * `test-chart --shots DIR` writes sample charts to look at instead. */
#include "dmk-test.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart-pixels.h"
#include "dmk-chart-private.h"
#include "dmk-chart.h"

/* ---- sample models: what a review compares ---- */

static const double qd_x[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
static const double qd_nvme[] = {15e3, 28e3, 55e3, 105e3, 200e3, 360e3, 520e3, 600e3, 610e3};
static const double qd_sata[] = {10e3, 18e3, 33e3, 55e3, 80e3, 92e3, 95e3, 95e3, 95e3};
static const double qd_hdd[] = {100, 130, 170, 220, 280, 330, 370, 390, 400};

static const double bs_nvme[] = {60,   115,  220,  400,  700,  1150, 1700, 2300, 2900,
                                 3300, 3400, 3450, 3480, 3490, 3500, 3500, 3500, 3500};
static const double bs_sata[] = {30,  55,  100, 180, 280, 360, 420, 470, 500,
                                 520, 530, 535, 538, 540, 540, 540, 540, 540};
static const double bs_hdd[] = {5,   10,  20,  38,  70,  110, 150, 180, 200,
                                210, 215, 218, 220, 220, 220, 220, 220, 220};

static const char *const cdm_tests[] = {
    "SEQ1M Q8T1 Read",  "SEQ1M Q8T1 Write",  "SEQ1M Q1T1 Read", "SEQ1M Q1T1 Write",
    "RND4K Q32T1 Read", "RND4K Q32T1 Write", "RND4K Q1T1 Read", "RND4K Q1T1 Write",
};
static const double cdm_nvme[] = {3512.4, 3021.7, 2104.9, 2498.3, 612.5, 451.2, 65.31, 181.4};
static const double cdm_sata[] = {561.2, 529.8, 520.4, 498.1, 381.7, 331.0, 40.12, 109.6};

/* Storage for the points of up to 8 series of up to 64 points. */
static DmkChartPoint pts[8][64];
static DmkChartSeries sers[8];

static void set_series(size_t i, const char *name, const double *x, const double *y, size_t n)
{
    snprintf(sers[i].name, sizeof sers[i].name, "%s", name);
    for (size_t k = 0; k < n; k++) {
        pts[i][k].x = x ? x[k] : (double)k;
        pts[i][k].y = y[k];
    }
    sers[i].n = n;
    sers[i].points = pts[i];
}

static DmkChartModel qd_model(void)
{
    DmkChartModel m;
    dmk_chart_model_init(&m);
    snprintf(m.title, sizeof m.title, "Random 4 KiB read: IOPS vs queue depth");
    snprintf(m.subtitle, sizeof m.subtitle, "1 thread, 1 GiB test file, best of 5 passes");
    snprintf(m.x_title, sizeof m.x_title, "Queue depth");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("iops"));
    m.x_scale = DMK_AXIS_LOG2;
    set_series(0, "Samsung 980 PRO 1TB (NVMe)", qd_x, qd_nvme, 9);
    set_series(1, "Crucial MX500 500GB (SATA SSD)", qd_x, qd_sata, 9);
    set_series(2, "WD Blue 2TB (HDD)", qd_x, qd_hdd, 9);
    m.n_series = 3;
    m.series = sers;
    return m;
}

static DmkChartModel bs_model(void)
{
    static double bs_x[18];
    for (int i = 0; i < 18; i++)
        bs_x[i] = (double)(512ULL << i);
    DmkChartModel m;
    dmk_chart_model_init(&m);
    snprintf(m.title, sizeof m.title, "Sequential read: throughput vs block size");
    snprintf(m.subtitle, sizeof m.subtitle, "Q1T1, 1 GiB test file");
    snprintf(m.x_title, sizeof m.x_title, "Block size");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("mb_s"));
    m.x_scale = DMK_AXIS_LOG2;
    m.x_ticks = DMK_TICKS_BYTES;
    set_series(0, "Samsung 980 PRO 1TB (NVMe)", bs_x, bs_nvme, 18);
    set_series(1, "Crucial MX500 500GB (SATA SSD)", bs_x, bs_sata, 18);
    set_series(2, "WD Blue 2TB (HDD)", bs_x, bs_hdd, 18);
    m.n_series = 3;
    m.series = sers;
    return m;
}

static DmkChartModel bars_model(void)
{
    DmkChartModel m;
    dmk_chart_model_init(&m);
    m.kind = DMK_CHART_BARS;
    snprintf(m.title, sizeof m.title, "CrystalDiskMark tests");
    snprintf(m.subtitle, sizeof m.subtitle, "Default profile, 1 GiB, 5 passes");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("mb_s"));
    m.n_categories = 8;
    m.categories = cdm_tests;
    set_series(0, "Samsung 980 PRO 1TB (NVMe)", NULL, cdm_nvme, 8);
    set_series(1, "Crucial MX500 500GB (SATA SSD)", NULL, cdm_sata, 8);
    m.n_series = 2;
    m.series = sers;
    return m;
}

/* ---- pixel checks ---- */

/* Distinct colours, up to a cap: a blank or one-colour image has few. */
static size_t distinct_colours(cairo_surface_t *s)
{
    static uint32_t seen[4096];
    size_t n = 0;
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    for (int y = 0; y < h && n < 4096; y++) {
        for (int x = 0; x < w && n < 4096; x++) {
            uint32_t p = pixel(s, x, y);
            size_t k = 0;
            while (k < n && seen[k] != p)
                k++;
            if (k == n)
                seen[n++] = p;
        }
    }
    return n;
}

static void check_corners_white(cairo_surface_t *s)
{
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    DMK_CHECK_INT(pixel(s, 0, 0), 0xffffff);
    DMK_CHECK_INT(pixel(s, w - 1, 0), 0xffffff);
    DMK_CHECK_INT(pixel(s, 0, h - 1), 0xffffff);
    DMK_CHECK_INT(pixel(s, w - 1, h - 1), 0xffffff);
}

static void check_series_colours(cairo_surface_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t c = count_rgb(s, series_rgb[i]);
        if (c < 20)
            printf("# series %zu colour %06x: %zu pixels\n", i, (unsigned)series_rgb[i], c);
        DMK_CHECK(c >= 20);
    }
}

static void test_metric_titles(void)
{
    DMK_CHECK_STR(dmk_chart_metric_title("mb_s"), "MB/s (10^6 B/s)");
    DMK_CHECK_STR(dmk_chart_metric_title("iops"), "IOPS");
    DMK_CHECK_STR(dmk_chart_metric_title("lat_mean_us"), "Mean latency (us)");
    DMK_CHECK_STR(dmk_chart_metric_title("lat_p99_us"), "99th percentile latency (us)");
    DMK_CHECK_STR(dmk_chart_metric_title("other"), "other");
    DMK_CHECK_STR(dmk_chart_metric_title(NULL), "");
}

static void test_number_format(void)
{
    char buf[64];
    dmk_chart_format_value(3512.4, buf, sizeof buf);
    DMK_CHECK_STR(buf, "3,512");
    dmk_chart_format_value(65.31, buf, sizeof buf);
    DMK_CHECK_STR(buf, "65.3");
    dmk_chart_format_value(4.5, buf, sizeof buf);
    DMK_CHECK_STR(buf, "4.5");
    dmk_chart_format_value(90, buf, sizeof buf);
    DMK_CHECK_STR(buf, "90");
    dmk_chart_format_value(0.25, buf, sizeof buf);
    DMK_CHECK_STR(buf, "0.25");
    dmk_chart_format_value(0, buf, sizeof buf);
    DMK_CHECK_STR(buf, "0");
    dmk_chart_format_value(25e6, buf, sizeof buf);
    DMK_CHECK_STR(buf, "25.00M");
}

static void test_y_axis_nice(void)
{
    DmkAxis a;
    dmk_chart_axis_y(&a, 95000);
    DMK_CHECK_NEAR(a.lo, 0, 0);
    DMK_CHECK_NEAR(a.step, 20000, 1e-9);
    DMK_CHECK_NEAR(a.hi, 100000, 1e-6);
    DMK_CHECK_INT(a.n_ticks, 6);
    char buf[64];
    dmk_chart_format_tick(&a, a.ticks[5], buf, sizeof buf);
    DMK_CHECK_STR(buf, "100,000");
    dmk_chart_axis_y(&a, 0.7);
    DMK_CHECK_NEAR(a.step, 0.1, 1e-12); /* 0..0.7, not 0..0.8 */
    dmk_chart_format_tick(&a, a.ticks[1], buf, sizeof buf);
    DMK_CHECK_STR(buf, "0.1");
    dmk_chart_axis_y(&a, 0); /* all zero: still an axis */
    DMK_CHECK(a.hi > 0 && a.n_ticks >= 2);
    dmk_chart_axis_y(&a, 4.2e7);
    dmk_chart_format_tick(&a, a.ticks[1], buf, sizeof buf);
    DMK_CHECK_STR(buf, "10M");
}

static void test_log2_axis_labels(void)
{
    DmkAxis a;
    dmk_chart_axis_x(&a, DMK_AXIS_LOG2, DMK_TICKS_BYTES, 512, 64.0 * 1024 * 1024);
    DMK_CHECK_INT(a.n_ticks, 18);
    char buf[64];
    dmk_chart_format_tick(&a, a.ticks[0], buf, sizeof buf);
    DMK_CHECK_STR(buf, "512 B");
    dmk_chart_format_tick(&a, a.ticks[3], buf, sizeof buf);
    DMK_CHECK_STR(buf, "4 KiB");
    dmk_chart_format_tick(&a, a.ticks[11], buf, sizeof buf);
    DMK_CHECK_STR(buf, "1 MiB");
    dmk_chart_format_tick(&a, a.ticks[17], buf, sizeof buf);
    DMK_CHECK_STR(buf, "64 MiB");
    /* Where labels must be thinned, 1 KiB / 1 MiB keep theirs. */
    a.label_every = 2;
    DMK_CHECK(dmk_chart_tick_labelled(&a, 1));  /* 1 KiB */
    DMK_CHECK(!dmk_chart_tick_labelled(&a, 0)); /* 512 B */
    DMK_CHECK(dmk_chart_tick_labelled(&a, 11)); /* 1 MiB */
    dmk_chart_axis_x(&a, DMK_AXIS_LOG2, DMK_TICKS_NUMBER, 1, 256);
    DMK_CHECK_INT(a.n_ticks, 9);
    dmk_chart_format_tick(&a, a.ticks[8], buf, sizeof buf);
    DMK_CHECK_STR(buf, "256");
    DMK_CHECK(dmk_chart_axis_map(&a, 1) > 0 && dmk_chart_axis_map(&a, 256) < 1);
}

static void test_ellipsize(void)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
    cairo_t *cr = cairo_create(s);
    dmk_chart_font(cr, 12, DMK_TEXT_REGULAR);
    char out[128];
    dmk_chart_ellipsize(cr, "Short", 200, out, sizeof out);
    DMK_CHECK_STR(out, "Short");
    const char *longname = "A very long drive name \xC3\xA9\xC3\xA9\xC3\xA9 that goes on and on";
    dmk_chart_ellipsize(cr, longname, 80, out, sizeof out);
    DMK_CHECK(dmk_chart_text_width(cr, out) <= 80);
    DMK_CHECK(strlen(out) > 3 && strcmp(out + strlen(out) - 3, "\xE2\x80\xA6") == 0);
    dmk_chart_ellipsize(cr, longname, 1, out, sizeof out); /* nothing fits */
    DMK_CHECK_STR(out, "\xE2\x80\xA6");
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

static void test_lines_render(void)
{
    DmkChartModel m = qd_model();
    cairo_surface_t *s = draw(&m, 800, 500);
    DMK_CHECK(distinct_colours(s) > 100);
    check_corners_white(s);
    check_series_colours(s, 3);
    cairo_surface_destroy(s);
    m = bs_model();
    s = draw(&m, 800, 500);
    DMK_CHECK(distinct_colours(s) > 100);
    check_corners_white(s);
    check_series_colours(s, 3);
    cairo_surface_destroy(s);
}

static void test_bars_render(void)
{
    DmkChartModel m = bars_model();
    cairo_surface_t *s = draw(&m, 800, 500);
    DMK_CHECK(distinct_colours(s) > 100);
    check_corners_white(s);
    /* Bars are big blocks of their colour. */
    DMK_CHECK(count_rgb(s, series_rgb[0]) > 5000);
    DMK_CHECK(count_rgb(s, series_rgb[1]) > 2000);
    cairo_surface_destroy(s);
}

static DmkChartModel eight_model(void)
{
    static const double y[8][5] = {
        {110, 210, 300, 380, 400}, {100, 190, 280, 350, 370}, {90, 170, 250, 320, 340},
        {80, 150, 220, 280, 300},  {70, 130, 190, 240, 260},  {60, 110, 160, 200, 220},
        {50, 90, 130, 160, 180},   {40, 70, 100, 120, 140},
    };
    static const double x[5] = {1, 4, 16, 64, 256};
    DmkChartModel m;
    dmk_chart_model_init(&m);
    snprintf(m.title, sizeof m.title, "Eight drives, mean latency vs queue depth");
    snprintf(m.x_title, sizeof m.x_title, "Queue depth");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("lat_mean_us"));
    m.x_scale = DMK_AXIS_LOG2;
    for (size_t i = 0; i < 8; i++) {
        char name[64];
        snprintf(name, sizeof name, "Drive %zu with a rather long model name", i + 1);
        set_series(i, name, x, y[i], 5);
    }
    m.n_series = 8;
    m.series = sers;
    return m;
}

static DmkChartModel eight_bars_model(void)
{
    static const char *const cats[4] = {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"};
    DmkChartModel m = eight_model();
    snprintf(m.title, sizeof m.title, "Eight drives, read");
    m.x_title[0] = '\0';
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("mb_s"));
    m.kind = DMK_CHART_BARS;
    m.n_categories = 4;
    m.categories = cats;
    return m;
}

/* Long, unbreakable category labels: slanted. */
static DmkChartModel slanted_model(void)
{
    static const char *const cats[6] = {
        "Sequential-1MiB-Q8T1-read", "Sequential-1MiB-Q8T1-write", "Random-4KiB-Q32T16-read",
        "Random-4KiB-Q32T16-write",  "Random-4KiB-Q1T1-read",      "Random-4KiB-Q1T1-write",
    };
    static const double a[6] = {7012.5, 6420.1, 5120.4, 4480.2, 92.4, 310.5};
    static const double b[6] = {5120.2, 4880.3, 3900.7, 3200.1, 70.3, 250.8};
    static const double c[6] = {3500.7, 3000.1, 2100.4, 2498.3, 65.31, 181.4};
    DmkChartModel m;
    dmk_chart_model_init(&m);
    m.kind = DMK_CHART_BARS;
    snprintf(m.title, sizeof m.title, "PCIe 5.0 vs 4.0 vs 3.0");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("mb_s"));
    m.n_categories = 6;
    m.categories = cats;
    set_series(0, "Crucial T705 2TB", NULL, a, 6);
    set_series(1, "Samsung 990 PRO 2TB", NULL, b, 6);
    set_series(2, "Samsung 970 EVO Plus 1TB", NULL, c, 6);
    m.n_series = 3;
    m.series = sers;
    return m;
}

static void test_eight_series(void)
{
    DmkChartModel m = eight_model();
    cairo_surface_t *s = draw(&m, 800, 500);
    check_series_colours(s, 8);
    check_corners_white(s);
    cairo_surface_destroy(s);
    /* As bars too: a bar per drive in each group. */
    m = eight_bars_model();
    s = draw(&m, 800, 500);
    check_series_colours(s, 8);
    cairo_surface_destroy(s);
    m = slanted_model();
    s = draw(&m, 800, 500);
    check_series_colours(s, 3);
    check_corners_white(s);
    cairo_surface_destroy(s);
}

static void test_empty_model(void)
{
    DmkChartModel m;
    dmk_chart_model_init(&m);
    snprintf(m.title, sizeof m.title, "Nothing measured");
    cairo_surface_t *s = draw(&m, 800, 500);
    check_corners_white(s);
    /* "No data" in the middle, nothing else below the title. */
    DMK_CHECK(count_non_white(s, 300, 200, 500, 300) > 100);
    DMK_CHECK_INT(count_non_white(s, 0, 320, 800, 500), 0);
    /* An all-invalid model looks exactly like an empty one. */
    static const double bad[3] = {NAN, -5, INFINITY};
    static const double x[3] = {1, 2, 4};
    set_series(0, "Broken", x, bad, 3);
    m.n_series = 1;
    m.series = sers;
    cairo_surface_t *s2 = draw(&m, 800, 500);
    DMK_CHECK(memcmp(cairo_image_surface_get_data(s), cairo_image_surface_get_data(s2),
                     (size_t)cairo_image_surface_get_stride(s) * 500) == 0);
    cairo_surface_destroy(s2);
    cairo_surface_destroy(s);
    /* NULL model, bars without categories, degenerate sizes. */
    s = draw(NULL, 800, 500);
    DMK_CHECK(count_non_white(s, 300, 200, 500, 300) > 100);
    cairo_surface_destroy(s);
    m.kind = DMK_CHART_BARS;
    s = draw(&m, 800, 500);
    cairo_surface_destroy(s);
    DmkChartModel q = qd_model();
    s = draw(&q, 1, 1);
    cairo_surface_destroy(s);
    s = draw(&q, 60, 40);
    cairo_surface_destroy(s);
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
    cairo_t *cr = cairo_create(img);
    dmk_chart_render(cr, 0, -5, &q);
    dmk_chart_render(cr, NAN, 10, &q);
    dmk_chart_render(NULL, 10, 10, &q);
    cairo_destroy(cr);
    cairo_surface_destroy(img);
}

static void test_nan_values(void)
{
    DmkChartModel m = qd_model();
    pts[0][3].y = NAN;
    pts[1][5].y = INFINITY;
    pts[2][0].y = -1;
    pts[2][4].x = NAN;
    pts[1][0].x = -4; /* not on a log2 axis */
    cairo_surface_t *s = draw(&m, 800, 500);
    check_series_colours(s, 3);
    check_corners_white(s);
    cairo_surface_destroy(s);
    /* Bars: a missing value leaves its bar out. */
    m = bars_model();
    pts[0][2].y = NAN;
    pts[1][7].y = -INFINITY;
    s = draw(&m, 800, 500);
    DMK_CHECK(count_rgb(s, series_rgb[0]) > 3000);
    cairo_surface_destroy(s);
    /* A huge value must not break the axis. */
    m = qd_model();
    pts[0][8].y = 1e300;
    s = draw(&m, 800, 500);
    check_corners_white(s);
    cairo_surface_destroy(s);
}

static void test_long_labels(void)
{
    static const char *const cats[3] = {
        "Supercalifragilisticexpialidocious-sequential-read-test",
        "A category label with many many words in it that will not wrap in three lines",
        "",
    };
    static const double y[3] = {1, 2, 3};
    DmkChartModel m;
    dmk_chart_model_init(&m);
    m.kind = DMK_CHART_BARS;
    memset(m.title, 'T', sizeof m.title - 1);
    m.title[sizeof m.title - 1] = '\0';
    memset(m.y_title, 'Y', sizeof m.y_title - 1);
    m.y_title[sizeof m.y_title - 1] = '\0';
    m.n_categories = 3;
    m.categories = cats;
    set_series(0, "", NULL, y, 2); /* fewer values than categories */
    memset(sers[0].name, 'N', sizeof sers[0].name - 1);
    sers[0].name[sizeof sers[0].name - 1] = '\0';
    m.n_series = 1;
    m.series = sers;
    cairo_surface_t *s = draw(&m, 800, 500);
    check_corners_white(s);
    DMK_CHECK(count_rgb(s, series_rgb[0]) > 1000);
    cairo_surface_destroy(s);
    m.categories = NULL; /* labels missing altogether */
    s = draw(&m, 800, 500);
    cairo_surface_destroy(s);
}

/* ---- export ---- */

static void check_png(const char *path, uint32_t w, uint32_t h)
{
    unsigned char b[32];
    size_t n = read_head(path, b, sizeof b);
    DMK_CHECK(n == sizeof b);
    if (n != sizeof b)
        return;
    DMK_CHECK(memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0);
    DMK_CHECK(memcmp(b + 12, "IHDR", 4) == 0);
    DMK_CHECK_INT(be32(b + 16), w);
    DMK_CHECK_INT(be32(b + 20), h);
}

static void test_export_png(void)
{
    DmkChartModel m = qd_model();
    DmkError err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/chart-1x.png", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_OK);
    check_png(path, 800, 500);
    snprintf(path, sizeof path, "%s/chart-2x.PNG", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 2, &err), DMK_OK);
    check_png(path, 1600, 1000);
    /* The 2x image is the 1x layout, not a bigger chart: its pixels read
     * back at half size match the 1x image's structure. */
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    DMK_CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
    DMK_CHECK_INT(cairo_image_surface_get_width(s), 1600);
    cairo_surface_destroy(s);
}

static void test_export_svg_pdf(void)
{
    DmkChartModel m = bars_model();
    DmkError err = {0};
    char path[512];
    static unsigned char buf[1 << 20];
    snprintf(path, sizeof path, "%s/chart.svg", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_OK);
    size_t n = read_head(path, buf, sizeof buf - 1);
    buf[n] = '\0';
    DMK_CHECK(n > 1000 && memcmp(buf, "<?xml", 5) == 0);
    DMK_CHECK(strstr((char *)buf, "<svg") != NULL);
    snprintf(path, sizeof path, "%s/chart.Pdf", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_OK);
    n = read_head(path, buf, sizeof buf);
    DMK_CHECK(n > 1000 && memcmp(buf, "%PDF-", 5) == 0);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    DMK_CHECK(n >= 5 && memcmp(buf + n - 5, "%%EOF", 5) == 0);
}

static void test_export_errors(void)
{
    DmkChartModel m = qd_model();
    DmkError err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/chart.bmp", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, path) != NULL);
    DMK_CHECK(strstr(err.msg, ".png") != NULL);
    FILE *f = fopen(path, "rb");
    DMK_CHECK(f == NULL); /* nothing created */
    if (f)
        fclose(f);
    DMK_CHECK_INT(dmk_chart_export(&m, "noextension", 800, 500, 1, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "noextension") != NULL);
    snprintf(path, sizeof path, "%s/no-such-dir/sub/chart.png", tmp_dir());
    DMK_CHECK(dmk_chart_export(&m, path, 800, 500, 1, &err) < 0);
    DMK_CHECK(strstr(err.msg, path) != NULL);
    printf("# %s\n", err.msg);
    snprintf(path, sizeof path, "%s/chart.pdf", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export(&m, path, 0, 500, 1, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, path) != NULL);
    DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, NAN, &err), DMK_E_INVAL);
    DMK_CHECK_INT(dmk_chart_export(NULL, path, 800, 500, 1, &err), DMK_E_INVAL);
    DMK_CHECK_INT(dmk_chart_export(&m, NULL, 800, 500, 1, &err), DMK_E_INVAL);
#ifdef __linux__
    /* A disk that is full: the write error names the path and the C
     * library's reason, and the link to it is not left behind. */
    snprintf(path, sizeof path, "%s/full.png", tmp_dir());
    remove(path);
    if (symlink("/dev/full", path) == 0) {
        DMK_CHECK_INT(dmk_chart_export(&m, path, 800, 500, 1, &err), DMK_E_NOSPC);
        DMK_CHECK(strstr(err.msg, path) != NULL);
        printf("# %s\n", err.msg);
        remove(path);
    }
#endif
}

/* ---- sample charts to look at ---- */

static DmkChartModel empty_model(void)
{
    DmkChartModel m;
    dmk_chart_model_init(&m);
    snprintf(m.title, sizeof m.title, "Random 4 KiB read: IOPS vs queue depth");
    snprintf(m.subtitle, sizeof m.subtitle, "No result selected");
    return m;
}

/* A linear x axis: throughput over a test's timeline, with a gap. */
static DmkChartModel timeline_model(void)
{
    static double t[60], a[60], b[60];
    for (int i = 0; i < 60; i++) {
        t[i] = 0.5 * (i + 1);
        a[i] = i < 20 ? 2900 + 40 * (i % 3) : 1450 + 30 * (i % 4); /* SLC cache runs out */
        b[i] = i == 30 ? NAN : 520 + 10 * (i % 2);
    }
    DmkChartModel m;
    dmk_chart_model_init(&m);
    snprintf(m.title, sizeof m.title, "Sequential write over time");
    snprintf(m.x_title, sizeof m.x_title, "Time (s)");
    snprintf(m.y_title, sizeof m.y_title, "%s", dmk_chart_metric_title("mb_s"));
    set_series(0, "Samsung 980 PRO 1TB (NVMe)", t, a, 60);
    set_series(1, "Crucial MX500 500GB (SATA SSD)", t, b, 60);
    m.n_series = 2;
    m.series = sers;
    return m;
}

typedef struct {
    const char *name;
    DmkChartModel (*make)(void);
    int width, height;
    double scale;
} Shot;

static int write_shots(const char *dir)
{
    static const Shot shots[] = {
        {"qd-iops-1x.png", qd_model, 800, 500, 1},
        {"qd-iops-2x.png", qd_model, 800, 500, 2},
        {"qd-iops.svg", qd_model, 800, 500, 1},
        {"qd-iops.pdf", qd_model, 800, 500, 1},
        {"block-size-1x.png", bs_model, 800, 500, 1},
        {"block-size-2x.png", bs_model, 800, 500, 2},
        {"block-size.svg", bs_model, 800, 500, 1},
        {"block-size.pdf", bs_model, 800, 500, 1},
        {"cdm-bars-1x.png", bars_model, 800, 500, 1},
        {"cdm-bars-2x.png", bars_model, 800, 500, 2},
        {"cdm-bars.svg", bars_model, 800, 500, 1},
        {"cdm-bars.pdf", bars_model, 800, 500, 1},
        {"eight-lines-1x.png", eight_model, 800, 500, 1},
        {"eight-bars-1x.png", eight_bars_model, 800, 500, 1},
        {"slanted-bars-1x.png", slanted_model, 800, 500, 1},
        {"qd-iops-small.png", qd_model, 480, 300, 1},
        {"cdm-bars-small.png", bars_model, 480, 300, 1},
        {"block-size-wide.png", bs_model, 1400, 700, 1},
        {"no-data.png", empty_model, 800, 500, 1},
        {"timeline-1x.png", timeline_model, 800, 500, 1},
    };
    dmk_test_mkdir(dir);
    int rc = 0;
    for (size_t i = 0; i < sizeof shots / sizeof shots[0]; i++) {
        DmkChartModel m = shots[i].make();
        char path[1024];
        DmkError err = {0};
        snprintf(path, sizeof path, "%s/%s", dir, shots[i].name);
        if (dmk_chart_export(&m, path, shots[i].width, shots[i].height, shots[i].scale, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            rc = 1;
        } else {
            printf("%s\n", path);
        }
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--shots") == 0)
        return write_shots(argv[2]);
    DMK_TEST(test_metric_titles);
    DMK_TEST(test_number_format);
    DMK_TEST(test_y_axis_nice);
    DMK_TEST(test_log2_axis_labels);
    DMK_TEST(test_ellipsize);
    DMK_TEST(test_lines_render);
    DMK_TEST(test_bars_render);
    DMK_TEST(test_eight_series);
    DMK_TEST(test_empty_model);
    DMK_TEST(test_nan_values);
    DMK_TEST(test_long_labels);
    DMK_TEST(test_export_png);
    DMK_TEST(test_export_svg_pdf);
    DMK_TEST(test_export_errors);
    return dmk_test_done();
}
