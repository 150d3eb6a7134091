/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Review-lab charts (chart/dmk-chart-lab.h): models built from hand-made
 * results with known numbers, and from real lab runs on the null backend
 * (a simulated SLC cache and temperature sensor), drawn and exported.
 * `test-chart-lab --shots DIR` writes every lab chart to look at. */
#include "dmk-test.h"

#include <stdint.h>
#include <sys/stat.h>

#include "dmk-chart-lab.h"
#include "dmk-chart-private.h"
#include "dmk-lab-findings.h"
#include "dmk-platform.h"
#include "dmk-runner.h"
#include "chart-pixels.h"
#include "lab-fixtures.h"
#include "null/dmk-null.h"

/* ---- null-backend runs ----------------------------------------------------------- */

typedef struct {
    DmkLabKind kind;
    uint64_t latency_ns;
    DmkNullSim sim;
    double duration_s, step_s;
    uint64_t span;
    DmkRunResult *res;
    int rc;
} LabRun;

static void run_lab(void *arg)
{
    LabRun *lr = arg;
    DmkRunSpec *spec = calloc(1, sizeof *spec);
    dmk_run_spec_init(spec);
    snprintf(spec->dir, sizeof spec->dir, "."); /* the null backend never touches it */
    DmkLabParams p;
    dmk_lab_params_init(&p, lr->kind);
    p.duration_s = lr->duration_s;
    p.sample_s = 0.1;
    p.step_s = lr->step_s;
    p.warmup_s = lr->kind == DMK_LAB_MIXED || lr->kind == DMK_LAB_LATENCY ? 0.05 : 0;
    p.span = lr->span;
    p.idle_s = 1;
    p.settle_s = 0; /* the simulated cache's fill shows as a smaller cache, no matter */
    DmkError err = {0};
    lr->rc = dmk_lab_build(&p, spec, &err);
    dmk_null_opts(&spec->backend_opts)->latency_ns = lr->latency_ns;
    dmk_null_opts(&spec->backend_opts)->sim = lr->sim;
    if (lr->rc == DMK_OK) {
        DmkRunner *runner = dmk_runner_new(spec, dmk_backend_null());
        lr->rc = dmk_runner_run(runner, NULL, &lr->res, &err);
        dmk_runner_free(runner);
    }
    if (lr->rc != DMK_OK)
        printf("# %s lab run: %s\n", dmk_lab_name(lr->kind), err.msg);
    free(spec);
}

enum { RUN_CACHE, RUN_THERMAL, RUN_FULLSPAN, RUN_MIXED, RUN_LATENCY, RUN_RECOVERY, N_RUNS };

/* Every lab once, all at the same time, on the simulated clock
 * (dmk_clock_simulate in main): CPU time only, whatever the machine. */
static LabRun runs[N_RUNS] = {
    /* 32 I/Os per ms: 131 MB/s into a 128 MiB cache, 4x slower after it */
    [RUN_CACHE] = {DMK_LAB_SUSTAINED, 1000000, {128 * MIB, 4, 5, 0}, 4, 0.5, 64 * MIB},
    /* 1 C per 8 MiB from 40 C: throttled at the simulated drive's limit */
    [RUN_THERMAL] = {DMK_LAB_SUSTAINED, 1000000, {0, 4, 0, 8 * MIB}, 5, 0.5, 64 * MIB},
    /* 8 MiB per 20 ms: 400 MB/s, 1.6 s over 640 MiB, a 256 MiB cache */
    [RUN_FULLSPAN] = {DMK_LAB_FULLSPAN, 20000000, {256 * MIB, 4, 5, 0}, 0, 0.5, 640 * MIB},
    [RUN_MIXED] = {DMK_LAB_MIXED, 200000, {0}, 0, 0.25, 64 * MIB},
    [RUN_LATENCY] = {DMK_LAB_LATENCY, 1000000, {0}, 0, 0.15, 64 * MIB},
    [RUN_RECOVERY] = {DMK_LAB_RECOVERY, 1000000, {128 * MIB, 4, 1, 0}, 3, 0.4, 64 * MIB},
};

static void run_all_labs(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    DmkThread *th[N_RUNS] = {0};
    for (int i = 0; i < N_RUNS; i++) {
        DmkError err = {0};
        if (dmk_thread_start(&th[i], run_lab, &runs[i], &err) != DMK_OK)
            printf("# starting a lab run: %s\n", err.msg);
    }
    for (int i = 0; i < N_RUNS; i++)
        dmk_thread_join(th[i]);
}

/* ---- helpers ----------------------------------------------------------------------- */

static size_t count_rgb_column(cairo_surface_t *s, uint32_t rgb, int x)
{
    return count_rgb_in(s, rgb, x, x + 1);
}

/* Pixels whose colour leans to `rgb`'s hue from white: a translucent dot. */
static size_t count_tinted(cairo_surface_t *s, uint32_t rgb)
{
    size_t n = 0;
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int r0 = (int)(rgb >> 16), g0 = (int)(rgb >> 8 & 0xff), b0 = (int)(rgb & 0xff);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint32_t p = pixel(s, x, y);
            int r = (int)(p >> 16), g = (int)(p >> 8 & 0xff), b = (int)(p & 0xff);
            if (p == 0xffffff)
                continue;
            /* on the line from white to the colour: (255 - c) proportional */
            double k = (255.0 - b) / (255.0 - b0);
            n += fabs((255 - r) - k * (255 - r0)) < 12 && fabs((255 - g) - k * (255 - g0)) < 12 &&
                 k > 0.05 && k < 0.97;
        }
    }
    return n;
}

/* PNG (w x h), SVG and PDF of m, each checked as its format. */
static void export_all(const DmkChartModel *m, const char *base, int w, int h)
{
    static unsigned char buf[64];
    char path[1024];
    DmkError err = {0};
    snprintf(path, sizeof path, "%s/%s.png", tmp_dir(), base);
    DMK_CHECK_INT(dmk_chart_export(m, path, w, h, 1, &err), DMK_OK);
    DMK_CHECK(read_head(path, buf, 32) == 32 && memcmp(buf, "\x89PNG", 4) == 0);
    DMK_CHECK_INT(be32(buf + 16), w);
    DMK_CHECK_INT(be32(buf + 20), h);
    snprintf(path, sizeof path, "%s/%s.svg", tmp_dir(), base);
    DMK_CHECK_INT(dmk_chart_export(m, path, w, h, 1, &err), DMK_OK);
    DMK_CHECK(read_head(path, buf, 5) == 5 && memcmp(buf, "<?xml", 5) == 0);
    snprintf(path, sizeof path, "%s/%s.pdf", tmp_dir(), base);
    DMK_CHECK_INT(dmk_chart_export(m, path, w, h, 1, &err), DMK_OK);
    DMK_CHECK(read_head(path, buf, 5) == 5 && memcmp(buf, "%PDF-", 5) == 0);
}

static bool has(const char *s, const char *part)
{
    bool ok = strstr(s, part) != NULL;
    if (!ok)
        printf("# \"%s\" lacks \"%s\"\n", s, part);
    return ok;
}

static int build(DmkChartBuild *b, DmkLabChartKind kind, const DmkRunResult *r, size_t profile)
{
    DmkError err = {0};
    int rc = dmk_chart_build_lab(b, kind, r, profile, &err);
    if (rc != DMK_OK)
        printf("# %s: %s\n", dmk_lab_chart_name(kind), err.msg);
    return rc;
}

/* ---- tests --------------------------------------------------------------------------- */

static void test_moving_average(void)
{
    double v[10], out[10];
    for (int i = 0; i < 10; i++)
        v[i] = i + 1;
    /* window 4: two before, the sample, one after */
    dmk_lab_moving_average(v, 10, 4, out);
    DMK_CHECK_NEAR(out[0], 1.5, 1e-12); /* 1, 2 */
    DMK_CHECK_NEAR(out[1], 2.0, 1e-12); /* 1, 2, 3 */
    DMK_CHECK_NEAR(out[2], 2.5, 1e-12); /* 1 .. 4 */
    DMK_CHECK_NEAR(out[5], 5.5, 1e-12); /* 4 .. 7 */
    DMK_CHECK_NEAR(out[9], 9.0, 1e-12); /* 8 .. 10 */
    /* a missing sample is left out, not taken as zero */
    v[4] = NAN;
    dmk_lab_moving_average(v, 10, 4, out);
    DMK_CHECK_NEAR(out[5], (4.0 + 6 + 7) / 3, 1e-12);
    v[3] = v[5] = v[6] = NAN;
    dmk_lab_moving_average(v, 10, 2, out); /* window 2: one before and the sample */
    DMK_CHECK(isnan(out[4]) && isnan(out[5]));
    DMK_CHECK_NEAR(out[7], 8, 1e-12); /* v[6] missing: v[7] alone */
    DMK_CHECK_NEAR(out[8], 8.5, 1e-12);
    dmk_lab_moving_average(v, 10, 1, out);
    DMK_CHECK_NEAR(out[0], 1, 0);
    DMK_CHECK_NEAR(out[9], 10, 0);
}

static void test_chart_lists(void)
{
    DmkLabChartKind k[32];
    size_t p[32];
    DmkRunResult *r = step_sustained(false);
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 32), 3);
    DMK_CHECK(k[0] == DMK_LAB_CHART_SPEED && k[1] == DMK_LAB_CHART_ZOOM &&
              k[2] == DMK_LAB_CHART_TEMPERATURE);
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 1), 1); /* max respected */
    DMK_CHECK(dmk_lab_chart_fits(r, DMK_LAB_CHART_ZOOM));
    DMK_CHECK(!dmk_lab_chart_fits(r, DMK_LAB_CHART_LATENCY));
    dmk_run_result_free(r);
    r = hand_latency(200000, 80);
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 32), 4);
    DMK_CHECK(k[3] == DMK_LAB_CHART_LATENCY && p[3] == 3);
    dmk_run_result_free(r);
    r = hand_recovery(true);
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 32), 4);
    DMK_CHECK(k[0] == DMK_LAB_CHART_RECOVERY && k[1] == DMK_LAB_CHART_SPEED);
    dmk_run_result_free(r);
    r = hand_mixed(1);
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 32), 2);
    DMK_CHECK(k[0] == DMK_LAB_CHART_MIXED && k[1] == DMK_LAB_CHART_MIXED_AVERAGE);
    snprintf(r->lab, sizeof r->lab, "%s", ""); /* tiles: no lab chart */
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 32), 0);
    dmk_run_result_free(r);
    DMK_CHECK_STR(dmk_lab_chart_name(DMK_LAB_CHART_MIXED_AVERAGE), "mixed-average");
    DMK_CHECK_STR(dmk_lab_chart_name((DmkLabChartKind)99), "");
    DMK_CHECK(!dmk_lab_chart_compares(DMK_LAB_CHART_TEMPERATURE));
    DMK_CHECK(dmk_lab_chart_compares(DMK_LAB_CHART_SPEED));
}

/* The chart kinds' table: each found by kind and name, and every chart a
 * lab test's descriptor lists (by name) one of them. */
static void test_chart_table(void)
{
    size_t n = dmk_lab_chart_count();
    DMK_CHECK(n >= 7); /* a new kind adds to the seven */
    for (size_t i = 0; i < n; i++) {
        const DmkLabChart *c = dmk_lab_chart((DmkLabChartKind)i);
        DMK_CHECK(c && c->name[0] && c->title[0] && c->count && c->build);
        if (c)
            DMK_CHECK(dmk_lab_chart_find(c->name) == c);
    }
    DMK_CHECK(dmk_lab_chart((DmkLabChartKind)n) == NULL);
    DMK_CHECK(dmk_lab_chart_find("Speed") == NULL);
    for (size_t i = 0; i < dmk_lab_test_count(); i++) {
        const char *w = dmk_lab_test_at(i)->charts;
        while (*w) {
            char name[32];
            size_t len = strcspn(w, " ");
            snprintf(name, sizeof name, "%.*s", (int)len, w);
            DMK_CHECK(dmk_lab_chart_find(name) != NULL);
            if (!dmk_lab_chart_find(name))
                printf("# %s lists chart '%s', which chart/ does not have\n",
                       dmk_lab_test_at(i)->name, name);
            w += len;
            w += strspn(w, " ");
        }
    }
    char buf[256];
    dmk_lab_chart_names_text(", ", " or ", buf, sizeof buf);
    DMK_CHECK(strncmp(buf, "speed, zoom, temperature, mixed, mixed-average, latency", 55) == 0);
}

/* x: cumulative GiB, monotonic, ending at what dmk_lab_cliff counted. */
static void check_written_axis(const DmkChartSeries *s, const DmkTestResult *t)
{
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, "iops", &c);
    DMK_CHECK_INT(s->n, t->n_samples);
    bool monotonic = true;
    for (size_t i = 1; i < s->n; i++)
        monotonic = monotonic && s->points[i].x >= s->points[i - 1].x;
    DMK_CHECK(monotonic);
    DMK_CHECK(s->points[0].x > 0);
    DMK_CHECK_NEAR(s->points[s->n - 1].x, c.total_bytes / GIB, 1e-9);
}

static void test_speed_model(void)
{
    DmkRunResult *r = step_sustained(false);
    const DmkTestResult *t = &r->tests[0];
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    const DmkChartModel *m = &b.model;
    DMK_CHECK_INT(m->n_series, 2);
    DMK_CHECK(m->kind == DMK_CHART_LINES && m->x_scale == DMK_AXIS_LINEAR);
    DMK_CHECK(m->series[0].style == DMK_SERIES_DOTS && m->series[1].style == DMK_SERIES_LINE);
    DMK_CHECK(m->series[1].solid);
    check_written_axis(&m->series[0], t);
    /* dots: each sample's IOPS */
    DMK_CHECK_NEAR(m->series[0].points[10].y, 100000, 1e-6);
    DMK_CHECK_NEAR(m->series[0].points[70].y, 25000, 1e-6);
    /* the average, each side of the drop the analysis found on its own:
     * the line falls at sample 20 from one level straight to the other */
    DMK_CHECK_NEAR(m->series[1].points[0].y, 100000, 1e-6);
    DMK_CHECK_NEAR(m->series[1].points[19].y, 100000, 1e-6);
    DMK_CHECK_NEAR(m->series[1].points[20].y, 25000, 1e-6);
    DMK_CHECK_NEAR(m->series[1].points[99].y, 25000, 1e-6);
    DMK_CHECK_NEAR(m->series[1].points[70].y, 25000, 1e-6);
    DMK_CHECK_NEAR(m->series[1].points[0].x, m->series[0].points[0].x, 0);
    DMK_CHECK(has(m->title, "Sustained write RND4K Q32T1: IOPS vs GiB written"));
    DMK_CHECK(has(m->subtitle, "Samsung SSD 970 EVO Plus 1TB, 2026-11-30 06:35"));
    DMK_CHECK(has(m->subtitle, "cache 7.63 GiB, 100,000 then 25,000 IOPS"));
    DMK_CHECK_STR(m->x_title, "GiB written");
    DMK_CHECK_STR(m->y_title, "IOPS");
    DMK_CHECK(has(m->series[0].name, "IOPS of each 1 s sample"));
    DMK_CHECK(has(m->series[1].name, "30 samples"));
    export_all(m, "lab-speed-step", 800, 500);
    dmk_chart_build_free(&b);
    /* A ramp (no drop): the average is the centred 30-sample mean, 15
     * samples before and 14 after, cut short at the ends. */
    DmkTestResult *rt = &r->tests[0];
    for (size_t i = 0; i < rt->n_samples; i++)
        rt->samples[i].iops = 1000.0 * (double)(i + 1);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    DMK_CHECK_NEAR(b.model.series[1].points[0].y, 8000, 1e-6);   /* 1..15 */
    DMK_CHECK_NEAR(b.model.series[1].points[50].y, 50500, 1e-6); /* 36..65 */
    DMK_CHECK_NEAR(b.model.series[1].points[99].y, 92500, 1e-6); /* 85..100 */
    dmk_chart_build_free(&b);
    free(rt->samples);
    fill_samples(rt, 100, 1.0, 20, 100000, 25000, 0, 0);
    /* MB/s on request, the same samples */
    const DmkRunResult *one[1] = {r};
    DmkLabChartOptions opt = {.metric = "mb_s"};
    DmkError err = {0};
    DMK_CHECK_INT(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_SPEED, one, 1, 0, &opt, &err),
                  DMK_OK);
    DMK_CHECK_NEAR(b.model.series[0].points[10].y, 409.6, 1e-9);
    DMK_CHECK_STR(b.model.y_title, "MB/s (10^6 B/s)");
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_zoom_model(void)
{
    DmkRunResult *r = step_sustained(false);
    DmkLabCliff c;
    dmk_lab_cliff(r->tests[0].samples, 100, "iops", &c);
    DMK_CHECK(c.cliff);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_ZOOM, r, 0), DMK_OK);
    DMK_CHECK_NEAR(b.model.x_min, 0, 0);
    DMK_CHECK_NEAR(b.model.x_max, 2 * c.cache_bytes / GIB, 1e-12);
    DMK_CHECK(has(b.model.title, "the first 15.3 GiB"));
    check_written_axis(&b.model.series[0], &r->tests[0]); /* all samples, clipped when drawn */
    export_all(&b.model, "lab-zoom-step", 800, 500);
    dmk_chart_build_free(&b);
    /* No cliff: the first tenth of the run. */
    free(r->tests[0].samples);
    fill_samples(&r->tests[0], 100, 1.0, 100, 50000, 50000, 0, 0);
    dmk_lab_cliff(r->tests[0].samples, 100, "iops", &c);
    DMK_CHECK(!c.cliff);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_ZOOM, r, 0), DMK_OK);
    DMK_CHECK_NEAR(b.model.x_max, c.total_bytes / GIB / 10, 1e-12);
    DMK_CHECK(has(b.model.subtitle, "no cache detected in"));
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_temperature_model(void)
{
    DmkRunResult *r = step_sustained(true);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_TEMPERATURE, r, 0), DMK_OK);
    const DmkChartModel *m = &b.model;
    DMK_CHECK_INT(m->n_series, 3);
    DMK_CHECK(m->series[0].axis == DMK_Y_LEFT && m->series[1].axis == DMK_Y_LEFT);
    DMK_CHECK(m->series[2].axis == DMK_Y_RIGHT);
    DMK_CHECK_NEAR(m->series[2].points[5].y, r->tests[0].samples[5].temp_c, 0);
    DMK_CHECK_NEAR(m->series[2].points[5].x, 6, 1e-12); /* time, s */
    DMK_CHECK_NEAR(m->series[0].points[99].x, 100, 1e-12);
    DMK_CHECK(has(m->y2_title, "Temperature (") && has(m->y2_title, "C)"));
    DMK_CHECK_STR(m->x_title, "Time (s)");
    DMK_CHECK(has(m->subtitle, "no thermal throttling detected"));
    DMK_CHECK(has(m->series[2].name, "right axis"));
    /* The temperature line is drawn in its colour in the plot, and the
     * right axis's labels stand right of the plot. */
    cairo_surface_t *s = draw(m, 800, 500);
    DMK_CHECK(count_rgb_in(s, series_rgb[3], 0, 800) > 100);
    DMK_CHECK(count_non_white(s, 760, 150, 800, 450) > 50);
    cairo_surface_destroy(s);
    export_all(m, "lab-temperature-step", 800, 500);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_no_sensor(void)
{
    DmkRunResult *r = step_sustained(false);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_TEMPERATURE, r, 0), DMK_OK);
    DMK_CHECK_INT(b.model.n_series, 0);
    DMK_CHECK_STR(b.model.no_data, "No temperature sensor");
    DMK_CHECK(has(b.model.subtitle, "no temperature readable for /dev/nvme0n1"));
    /* The chart says so where "No data" would be: more ink than that. */
    DmkChartModel plain = b.model;
    plain.no_data[0] = '\0';
    cairo_surface_t *s = draw(&b.model, 800, 500), *p = draw(&plain, 800, 500);
    size_t said = count_non_white(s, 0, 200, 800, 350),
           nodata = count_non_white(p, 0, 200, 800, 350);
    DMK_CHECK(said > nodata * 2 && nodata > 100);
    DMK_CHECK_INT(count_non_white(s, 0, 360, 800, 500), 0);
    cairo_surface_destroy(s);
    cairo_surface_destroy(p);
    export_all(&b.model, "lab-temperature-none", 800, 500);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

/* 7,200 samples: small translucent dots, so the haze does not fill the
 * plot and the average stays visible on top. */
static void test_many_dots(void)
{
    DmkRunResult *r = long_sustained(true, 180000, 45000, "Samsung SSD 970 EVO Plus 1TB");
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    DMK_CHECK_INT(b.model.series[0].n, 7200);
    cairo_surface_t *s = draw(&b.model, 800, 500);
    size_t tinted = count_tinted(s, series_rgb[2]), solid = count_rgb_in(s, series_rgb[2], 0, 800);
    size_t plot = count_non_white(s, 100, 100, 780, 440);
    DMK_CHECK(tinted > 5000);      /* the samples show */
    DMK_CHECK(solid < tinted / 4); /* translucent, not solid blobs */
    DMK_CHECK(plot < 680 * 340 * 0.6);
    DMK_CHECK(count_rgb_in(s, series_rgb[1], 0, 800) > 500); /* the average over them */
    cairo_surface_destroy(s);
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_TEMPERATURE, r, 0), DMK_OK);
    DMK_CHECK_STR(b.model.x_title, "Time (min)");
    DMK_CHECK_NEAR(b.model.series[2].points[7199].x, 120, 1e-9);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_latency_model(void)
{
    DmkRunResult *r = hand_latency(200000, 80);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_LATENCY, r, 0), DMK_OK);
    const DmkChartModel *m = &b.model;
    DMK_CHECK_INT(m->n_series, 2);
    DMK_CHECK_INT(m->series[0].n, 12);
    DMK_CHECK(m->series[0].in_order);
    /* x: achieved IOPS in order of load, 10 % first, the full-speed step last */
    DMK_CHECK_NEAR(m->series[0].points[0].x, r->tests[1].score.total.iops, 0);
    DMK_CHECK_NEAR(m->series[0].points[0].y, r->tests[1].score.total.lat_mean_us / 1000, 1e-12);
    DMK_CHECK_NEAR(m->series[0].points[10].x, r->tests[11].score.total.iops, 0);
    DMK_CHECK_NEAR(m->series[0].points[11].x, r->tests[0].score.total.iops, 0);
    DMK_CHECK_NEAR(m->series[1].points[3].y, r->tests[4].score.total.lat_p99_us / 1000, 1e-12);
    DMK_CHECK_STR(m->title, "4K random read, 128 outstanding I/Os: latency vs IOPS");
    DMK_CHECK_STR(m->y_title, "Latency (ms)");
    DMK_CHECK(has(m->x_title, "IOPS"));
    /* the peak: the lowest latency within 2 % of the most IOPS, the 100 %
     * step's 199,000 (0.5 % below the full-speed step's, at 0.64 ms) */
    DMK_CHECK(has(m->subtitle, "under 1 ms up to 200,000 IOPS, peak 199,000 IOPS at 0.56 ms, "
                               "111 of 128 outstanding"));
    export_all(m, "lab-latency-1", 800, 500);
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_LATENCY, r, 3), DMK_OK);
    DMK_CHECK_STR(b.model.title, "64K sequential write, 8 outstanding I/Os: latency vs IOPS");
    dmk_chart_build_free(&b);
    DmkError err = {0};
    DMK_CHECK(dmk_chart_build_lab(&b, DMK_LAB_CHART_LATENCY, r, 4, &err) < 0);
    DMK_CHECK(has(err.msg, "profile 5"));
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_mixed_models(void)
{
    DmkRunResult *r = hand_mixed(1);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_MIXED, r, 0), DMK_OK);
    DMK_CHECK_INT(b.model.n_series, 2);
    DMK_CHECK_INT(b.model.series[0].n, 6);
    DMK_CHECK_NEAR(b.model.series[0].points[2].x, 40, 0);
    DMK_CHECK_NEAR(b.model.series[0].points[2].y, 1200, 0);
    DMK_CHECK_NEAR(b.model.series[1].points[5].y, 420, 0);
    DMK_CHECK_STR(b.model.series[0].name, "Sequential 128 KiB, 2 threads");
    DMK_CHECK_STR(b.model.x_title, "Read share (% read)");
    export_all(&b.model, "lab-mixed", 800, 500);
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_MIXED_AVERAGE, r, 0), DMK_OK);
    DMK_CHECK(b.model.kind == DMK_CHART_BARS);
    DMK_CHECK_INT(b.model.n_categories, 2);
    DMK_CHECK_INT(b.model.n_series, 1);
    DMK_CHECK_NEAR(b.model.series[0].points[0].y, (1800 + 1400 + 1200 + 1300 + 1900 + 3200) / 6.0,
                   1e-9);
    DMK_CHECK_STR(b.model.categories[1], "Random 4 KiB, 4 threads");
    export_all(&b.model, "lab-mixed-average", 800, 500);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_recovery_model(void)
{
    DmkRunResult *r = hand_recovery(false);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_RECOVERY, r, 0), DMK_OK);
    const DmkChartModel *m = &b.model;
    DMK_CHECK(m->kind == DMK_CHART_BARS);
    DMK_CHECK_INT(m->n_categories, 4);
    DMK_CHECK_INT(m->series[0].n, 4);
    DMK_CHECK_NEAR(m->series[0].points[0].y, 180000, 0);
    DMK_CHECK_NEAR(m->series[0].points[1].y, 41000, 0);
    DMK_CHECK(isnan(m->series[0].points[2].y)); /* not measured: no bar */
    DMK_CHECK_NEAR(m->series[0].points[3].y, 170000, 0);
    DMK_CHECK_STR(m->categories[2], "After 15 min idle (not measured)");
    DMK_CHECK_STR(m->y_title, "IOPS");
    /* Three bars, the third category left blank: three runs of columns
     * holding the bar colour, the gap after the second the widest. */
    cairo_surface_t *s = draw(m, 800, 500);
    int bars = 0, x_end[4] = {0}, x_start[4] = {0};
    bool in_bar = false;
    for (int x = 0; x < 800; x++) {
        bool bar = count_rgb_column(s, series_rgb[0], x) > 20;
        if (bar && !in_bar && bars < 4)
            x_start[bars++] = x;
        if (!bar && in_bar)
            x_end[bars - 1] = x;
        in_bar = bar;
    }
    DMK_CHECK_INT(bars, 3);
    DMK_CHECK(x_start[2] - x_end[1] > 1.5 * (x_start[1] - x_end[0]));
    cairo_surface_destroy(s);
    export_all(m, "lab-recovery", 800, 500);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

/* A surface scan of a 1 GB device by hand: 4 samples of 10 MiB at
 * 0, 1/3, 2/3 and the end, 100 .. 400 MB/s, and 5 accesses of 1 .. 5 ms. */
static DmkRunResult *hand_surface(bool accesses)
{
    DmkRunResult *r = new_result("surface", 5);
    r->target.is_device = true;
    r->target.test_size = 1000000000ULL;
    const uint64_t sample = 10ULL << 20, last = (1000000000ULL - sample) / 4096 * 4096;
    for (int i = 0; i < 4; i++) {
        DmkStats st = {.mb_s = 100.0 * (i + 1), .bytes = sample, .ios = 1};
        DmkTestResult *t = add_test(r, "SEQ1M Q1T1", DMK_MODE_READ, "sample", st);
        t->test.jobs[0].block_size = (uint32_t)sample;
        t->test.spread_count = 4;
        t->test.region_offset = last / 3 * (uint64_t)i / 4096 * 4096;
    }
    DmkTestResult *a =
        add_test(r, "RND4K Q1T1", DMK_MODE_READ, "access", (DmkStats){.mb_s = 1, .ios = 5});
    a->test.keep_ios = 5;
    a->n_samples = accesses ? 5 : 0;
    a->samples = calloc(5, sizeof *a->samples);
    for (size_t k = 0; k < a->n_samples; k++)
        a->samples[k] = (DmkSample){.t_s = (double)k * 0.01,
                                    .lat_mean_us = 1000.0 * (double)(k + 1),
                                    .offset = 4096.0 * 40000 * (double)k};
    return r;
}

static void test_surface_models(void)
{
    DmkRunResult *r = hand_surface(true);
    DmkLabChartKind k[8];
    size_t p[8];
    DMK_CHECK_INT(dmk_lab_charts(r, k, p, 8), 2);
    DMK_CHECK(k[0] == DMK_LAB_CHART_SURFACE_RATE && k[1] == DMK_LAB_CHART_SURFACE_ACCESS);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SURFACE_RATE, r, 0), DMK_OK);
    const DmkChartModel *m = &b.model;
    DMK_CHECK(m->kind == DMK_CHART_LINES);
    DMK_CHECK(has(m->title, "read rate across the device, average 250 MB/s"));
    DMK_CHECK_STR(m->y_title, "Read rate (MB/s)");
    DMK_CHECK_STR(m->x_title, "Position on the device (GB)");
    DMK_CHECK(has(m->subtitle, "4 samples of 10 MiB, 100 to 400 MB/s"));
    DMK_CHECK_INT(m->n_series, 2);
    DMK_CHECK_INT(m->series[0].n, 4);
    /* each sample at its middle, in GB; the last ends at the device's end */
    DMK_CHECK_NEAR(m->series[0].points[0].x, (10ULL << 20) / 2 / 1e9, 1e-9);
    DMK_CHECK(m->series[0].points[3].x + (10ULL << 20) / 2 / 1e9 <= 1.0);
    DMK_CHECK_NEAR(m->series[0].points[2].y, 300, 0);
    DMK_CHECK_STR(m->series[1].name, "Average 250 MB/s");
    DMK_CHECK_NEAR(m->series[1].points[0].y, 250, 0);
    DMK_CHECK_NEAR(m->x_min, 0, 0);
    DMK_CHECK_NEAR(m->x_max, 1.0, 1e-9);
    export_all(m, "lab-surface-rate", 800, 500);
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SURFACE_ACCESS, r, 0), DMK_OK);
    DMK_CHECK(has(m->title, "access time, average 3.00 ms"));
    DMK_CHECK_STR(m->y_title, "Access time (ms)");
    DMK_CHECK(m->series[0].style == DMK_SERIES_DOTS);
    DMK_CHECK_INT(m->series[0].n, 5);
    DMK_CHECK_NEAR(m->series[0].points[4].y, 5, 1e-12);
    DMK_CHECK_NEAR(m->series[0].points[1].x, 4096.0 * 40000 / 1e9, 1e-12);
    DMK_CHECK_STR(m->series[1].name, "Average 3.00 ms");
    export_all(m, "lab-surface-access", 800, 500);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
    /* Stopped before the accesses: the chart says so. */
    r = hand_surface(false);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SURFACE_ACCESS, r, 0), DMK_OK);
    DMK_CHECK_STR(b.model.no_data, "Stopped before the random reads");
    DMK_CHECK(b.model.y_title[0]);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

/* A loaded file's findings are what its charts say too: its own figures
 * over what its samples give (dmk-lab-findings.h). */
static void saved_finding(DmkTestResult *t, DmkLabSetId set, const char *key, double v)
{
    DmkLabSetId s;
    size_t field;
    char k[64];
    snprintf(k, sizeof k, "%s.%s", dmk_lab_set(set)->name, key);
    DMK_CHECK(dmk_lab_finding_key(k, strlen(k), &s, &field));
    t->findings = realloc(t->findings, (t->n_findings + 1) * sizeof *t->findings);
    t->findings[t->n_findings++] = (DmkSavedFinding){(uint16_t)s, (uint16_t)field, v};
}

static void test_saved_findings_win(void)
{
    DmkRunResult *r = step_sustained(false);
    saved_finding(&r->tests[0], DMK_LAB_SET_CLIFF, "cache", 2.0 * (1ULL << 30));
    saved_finding(&r->tests[0], DMK_LAB_SET_CLIFF, "after", 24000);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    DMK_CHECK(has(b.model.subtitle, "cache 2.00 GiB, 100,000 then 24,000 IOPS"));
    dmk_chart_build_free(&b);
    /* in MB/s the findings (in IOPS) do not apply: from the samples */
    DmkLabChartOptions opt = {0};
    const DmkRunResult *one[1] = {r};
    opt.metric = "mb_s";
    DmkError err = {0};
    DMK_CHECK_INT(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_SPEED, one, 1, 0, &opt, &err),
                  DMK_OK);
    DMK_CHECK(has(b.model.subtitle, "cache 7.63 GiB"));
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
    r = hand_recovery(false);
    saved_finding(&r->tests[0], DMK_LAB_SET_RECOVERY, "fresh", 190000);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_RECOVERY, r, 0), DMK_OK);
    DMK_CHECK_NEAR(b.model.series[0].points[0].y, 190000, 0);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_errors(void)
{
    DmkRunResult *r = step_sustained(true), *l = hand_latency(1000, 50);
    const DmkRunResult *two[2] = {r, r}, *mix[2] = {r, l};
    DmkChartBuild b;
    DmkError err = {0};
    DMK_CHECK(dmk_chart_build_lab(&b, DMK_LAB_CHART_LATENCY, r, 0, &err) < 0);
    DMK_CHECK(has(err.msg, "no latency chart"));
    DMK_CHECK_INT(b.model.n_series, 0);
    DMK_CHECK(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_TEMPERATURE, two, 2, 0, NULL, &err) <
              0);
    DMK_CHECK(has(err.msg, "one result"));
    DMK_CHECK(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_SPEED, mix, 2, 0, NULL, &err) < 0);
    DMK_CHECK(has(err.msg, "result 2 (latency) has no speed chart"));
    DmkLabChartOptions opt = {.metric = "lat_p99_us"};
    DMK_CHECK(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_SPEED, two, 1, 0, &opt, &err) < 0);
    DMK_CHECK(has(err.msg, "iops or mb_s"));
    opt.metric = "iops";
    DMK_CHECK(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_LATENCY, mix + 1, 1, 0, &opt, &err) <
              0);
    DMK_CHECK(has(err.msg, "own unit"));
    DMK_CHECK(dmk_chart_build_lab(&b, (DmkLabChartKind)42, r, 0, &err) < 0);
    dmk_run_result_free(r);
    dmk_run_result_free(l);
}

static void test_compare(void)
{
    DmkRunResult *a = step_sustained(false), *c = step_sustained(false);
    const DmkRunResult *two[2] = {a, c};
    DmkChartBuild b;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_SPEED, two, 2, 0, NULL, &err),
                  DMK_OK);
    DMK_CHECK_INT(b.model.n_series, 4);
    DMK_CHECK(has(b.model.series[3].name, "[2]")); /* same drive and date: numbered */
    DMK_CHECK(b.model.series[2].look == b.model.series[3].look);
    DMK_CHECK(has(b.model.subtitle, "7.63 GiB; 7.63 GiB"));
    dmk_chart_build_free(&b);
    dmk_run_result_free(a);
    dmk_run_result_free(c);
    DmkRunResult *l1 = hand_latency(200000, 80), *l2 = hand_latency(90000, 150);
    const DmkRunResult *lat[2] = {l1, l2};
    static const char *const names[2] = {"Drive A", "Drive B"};
    DmkLabChartOptions opt = {.names = names};
    DMK_CHECK_INT(dmk_chart_build_lab_compare(&b, DMK_LAB_CHART_LATENCY, lat, 2, 1, &opt, &err),
                  DMK_OK);
    DMK_CHECK_INT(b.model.n_series, 2);
    DMK_CHECK_STR(b.model.series[1].name, "Drive B");
    DMK_CHECK_NEAR(b.model.series[1].points[11].x, 45000, 1e-9); /* profile 2's max */
    DMK_CHECK(has(b.model.title, "mean latency vs IOPS"));
    export_all(&b.model, "lab-latency-compare", 800, 500);
    dmk_chart_build_free(&b);
    dmk_run_result_free(l1);
    dmk_run_result_free(l2);
}

static void test_axis_y2(void)
{
    DmkAxis a;
    dmk_chart_axis_y2(&a, 41, 80, 5);
    DMK_CHECK_INT(a.n_ticks, 6);
    DMK_CHECK(a.lo <= 41 && a.hi >= 80);
    DMK_CHECK_NEAR(a.hi - a.lo, 5 * a.step, 1e-9);
    dmk_chart_axis_y2(&a, 60, 60, 4); /* flat: still an axis around it */
    DMK_CHECK(a.lo < 60 && a.hi > 60 && a.n_ticks == 5);
    dmk_chart_axis_y2(&a, 20, 95, 5);
    DMK_CHECK_NEAR(a.lo, 0, 0); /* from zero when that costs no room */
    DMK_CHECK_NEAR(a.hi, 100, 1e-9);
    dmk_chart_axis_x_fixed(&a, DMK_TICKS_NUMBER, 0, 0.75);
    DMK_CHECK_NEAR(a.lo, 0, 0);
    DMK_CHECK_NEAR(a.hi, 0.75, 0);
    DMK_CHECK(a.n_ticks >= 4 && a.ticks[a.n_ticks - 1] <= 0.75);
}

/* A fixed x range clips: nothing is drawn right of the plot. */
static void test_zoom_clips(void)
{
    DmkRunResult *r = long_sustained(false, 180000, 45000, "X");
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_ZOOM, r, 0), DMK_OK);
    DMK_CHECK(b.model.x_max > 20 && b.model.x_max < 30);
    cairo_surface_t *s = draw(&b.model, 800, 500);
    /* the dots' colour only inside the plot: not in the right margin */
    DMK_CHECK_INT(count_tinted(s, series_rgb[2]) > 1000, 1);
    DMK_CHECK_INT(count_rgb_in(s, series_rgb[1], 790, 800), 0);
    cairo_surface_destroy(s);
    dmk_chart_build_free(&b);
    dmk_run_result_free(r);
}

static void test_grid_export(void)
{
    DmkRunResult *r = hand_latency(200000, 80);
    DmkChartBuild b[4];
    const DmkChartModel *models[4];
    for (size_t p = 0; p < 4; p++) {
        DMK_CHECK_INT(build(&b[p], DMK_LAB_CHART_LATENCY, r, p), DMK_OK);
        models[p] = &b[p].model;
    }
    char path[1024];
    DmkError err = {0};
    unsigned char head[32];
    snprintf(path, sizeof path, "%s/lab-latency-grid.png", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export_grid(models, 4, 2, path, 800, 500, 1, &err), DMK_OK);
    DMK_CHECK(read_head(path, head, 32) == 32);
    DMK_CHECK_INT(be32(head + 16), 1600);
    DMK_CHECK_INT(be32(head + 20), 1000);
    /* each cell is a whole chart: its title's ink in each quarter's top */
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    for (int c = 0; c < 4; c++) {
        int x0 = (c % 2) * 800, y0 = (c / 2) * 500;
        DMK_CHECK(count_non_white(s, x0 + 100, y0 + 5, x0 + 700, y0 + 35) > 300);
        DMK_CHECK_INT(pixel(s, x0 + 2, y0 + 2), 0xffffff);
    }
    cairo_surface_destroy(s);
    snprintf(path, sizeof path, "%s/lab-latency-grid.pdf", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export_grid(models, 3, 2, path, 400, 300, 1, &err), DMK_OK);
    snprintf(path, sizeof path, "%s/lab-latency-grid.svg", tmp_dir());
    DMK_CHECK_INT(dmk_chart_export_grid(models, 4, 2, path, 800, 500, 1, &err), DMK_OK);
    DMK_CHECK_INT(dmk_chart_export_grid(models, 4, 0, path, 800, 500, 1, &err), DMK_E_INVAL);
    DMK_CHECK_INT(dmk_chart_export_grid(models, 4, 2, path, 9000, 500, 1, &err), DMK_E_INVAL);
    DMK_CHECK(has(err.msg, "18000x1000"));
    DMK_CHECK_INT(dmk_chart_export_grid(NULL, 0, 2, path, 800, 500, 1, &err), DMK_E_INVAL);
    for (size_t p = 0; p < 4; p++)
        dmk_chart_build_free(&b[p]);
    dmk_run_result_free(r);
}

/* ---- real runs on the null backend ---------------------------------------------------- */

static const DmkRunResult *lab_result(int which)
{
    run_all_labs();
    return runs[which].rc == DMK_OK ? runs[which].res : NULL;
}

/* Every chart of a run builds, has something to draw, and exports. */
static void check_all_charts(const DmkRunResult *r, const char *base)
{
    DmkLabChartKind k[32];
    size_t p[32], n = dmk_lab_charts(r, k, p, 32);
    DMK_CHECK(n > 0);
    for (size_t i = 0; i < n; i++) {
        DmkChartBuild b;
        DMK_CHECK_INT(build(&b, k[i], r, p[i]), DMK_OK);
        DMK_CHECK(b.model.title[0] && b.model.y_title[0]);
        DMK_CHECK(b.model.n_series > 0 || b.model.no_data[0]);
        for (size_t s = 0; s < b.model.n_series; s++)
            DMK_CHECK(b.model.series[s].name[0]);
        char name[128];
        snprintf(name, sizeof name, "%s-%s-%zu", base, dmk_lab_chart_name(k[i]), p[i]);
        export_all(&b.model, name, 800, 500);
        dmk_chart_build_free(&b);
    }
}

static void test_run_cache(void)
{
    const DmkRunResult *r = lab_result(RUN_CACHE);
    if (!r)
        DMK_SKIP("the null-backend run failed");
    const DmkTestResult *t = dmk_lab_timeline_test(r);
    DmkLabCliff c;
    dmk_lab_cliff(t->samples, t->n_samples, "iops", &c);
    /* The chart says what the analysis found, whatever the machine's load
     * did to the simulated drive's samples. */
    if (!c.cliff)
        printf("# the simulated cache left no visible cliff on this run\n");
    else
        DMK_CHECK(c.cache_bytes / MIB > 16 && c.cache_bytes / MIB < 256); /* the simulated 128 */
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    check_written_axis(&b.model.series[0], t);
    DMK_CHECK(has(b.model.subtitle, c.cliff ? "cache 0." : "no cache detected"));
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_ZOOM, r, 0), DMK_OK);
    double end = c.cliff ? fmin(2 * c.cache_bytes, c.total_bytes) : c.total_bytes / 10;
    /* The chart reads the findings, which keep the cache (placed within
     * its sample, so fractional) in whole bytes: 2 bytes' worth of GiB. */
    DMK_CHECK_NEAR(b.model.x_max, end / GIB, 2.0 / GIB);
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_TEMPERATURE, r, 0), DMK_OK);
    DMK_CHECK_STR(b.model.no_data, "No temperature sensor");
    dmk_chart_build_free(&b);
    check_all_charts(r, "run-sustained-cache");
}

static void test_run_thermal(void)
{
    const DmkRunResult *r = lab_result(RUN_THERMAL);
    if (!r)
        DMK_SKIP("the null-backend run failed");
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_TEMPERATURE, r, 0), DMK_OK);
    DMK_CHECK_INT(b.model.n_series, 3);
    DMK_CHECK(b.model.series[2].axis == DMK_Y_RIGHT);
    /* The chart says what the analysis found. Whether the simulated drive
     * throttles visibly depends on the machine's load, not on the chart. */
    const DmkTestResult *t = dmk_lab_timeline_test(r);
    DmkLabThermal th;
    DmkLabCliff c;
    dmk_lab_thermal(t->samples, t->n_samples, "iops", &th);
    dmk_lab_cliff(t->samples, t->n_samples, "iops", &c);
    DMK_CHECK(th.sensor);
    DMK_CHECK(has(b.model.subtitle, th.throttled ? "throttled after" : "no thermal throttling"));
    if (!th.throttled)
        printf("# the simulated drive did not throttle visibly on this run\n");
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    if (th.throttled && c.cliff && fabs(th.throttle_t_s - c.cliff_t_s) < 1e-6)
        DMK_CHECK(has(b.model.subtitle, "no cache detected: the drop is throttling"));
    dmk_chart_build_free(&b);
    check_all_charts(r, "run-sustained-thermal");
}

static void test_run_fullspan(void)
{
    const DmkRunResult *r = lab_result(RUN_FULLSPAN);
    if (!r)
        DMK_SKIP("the null-backend run failed");
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    DMK_CHECK(has(b.model.title, "Full-span write SEQ1M Q8T1: MB/s vs GiB written"));
    const DmkChartSeries *s = &b.model.series[0];
    DMK_CHECK_NEAR(s->points[s->n - 1].x, 640.0 / 1024, 0.05); /* the span, written once */
    dmk_chart_build_free(&b);
    check_all_charts(r, "run-fullspan");
}

static void test_run_mixed(void)
{
    const DmkRunResult *r = lab_result(RUN_MIXED);
    if (!r)
        DMK_SKIP("the null-backend run failed");
    DmkLabMixed mx[2];
    DMK_CHECK_INT(dmk_lab_mixed(r, mx, 2), 2);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_MIXED_AVERAGE, r, 0), DMK_OK);
    DMK_CHECK_NEAR(b.model.series[0].points[1].y, mx[1].mean_mb_s, 0);
    dmk_chart_build_free(&b);
    check_all_charts(r, "run-mixed");
}

static void test_run_latency(void)
{
    const DmkRunResult *r = lab_result(RUN_LATENCY);
    if (!r)
        DMK_SKIP("the null-backend run failed");
    DmkLabLatency l[4];
    DMK_CHECK_INT(dmk_lab_latency(r, l, 4), 4);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_LATENCY, r, 2), DMK_OK);
    DMK_CHECK_INT(b.model.series[0].n, l[2].count);
    /* the last point is the full-speed step, the first test of the profile */
    DMK_CHECK_NEAR(b.model.series[0].points[l[2].count - 1].x,
                   r->tests[l[2].first].score.total.iops, 0);
    DMK_CHECK(has(b.model.title, "64K sequential read, 16 outstanding I/Os"));
    dmk_chart_build_free(&b);
    check_all_charts(r, "run-latency");
}

static void test_run_recovery(void)
{
    const DmkRunResult *r = lab_result(RUN_RECOVERY);
    if (!r)
        DMK_SKIP("the null-backend run failed");
    DmkLabRecovery rec;
    dmk_lab_recovery(r, &rec);
    DmkChartBuild b;
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_RECOVERY, r, 0), DMK_OK);
    DMK_CHECK_INT(b.model.n_categories, 4);
    for (int k = 0; k < 4; k++)
        DMK_CHECK(b.model.series[0].points[k].y == rec.value[k] ||
                  (isnan(rec.value[k]) && isnan(b.model.series[0].points[k].y)));
    DMK_CHECK_STR(b.model.categories[2], "After 1 s idle");
    dmk_chart_build_free(&b);
    DMK_CHECK_INT(build(&b, DMK_LAB_CHART_SPEED, r, 0), DMK_OK);
    DMK_CHECK(has(b.model.title, "Recovery, degradation RND4K Q32T1"));
    dmk_chart_build_free(&b);
    check_all_charts(r, "run-recovery");
}

/* ---- charts to look at ------------------------------------------------------------------ */

static void shot(const char *dir, const char *name, DmkLabChartKind kind,
                 const DmkRunResult *const *res, size_t n, size_t profile, int w, int h)
{
    DmkChartBuild b;
    DmkError err = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (dmk_chart_build_lab_compare(&b, kind, res, n, profile, NULL, &err) != DMK_OK ||
        dmk_chart_export(&b.model, path, w, h, 1, &err) != DMK_OK)
        fprintf(stderr, "%s: %s\n", name, err.msg);
    else
        printf("%s\n", path);
    dmk_chart_build_free(&b);
}

static void latency_grid(const char *dir, const DmkRunResult *const *res, size_t n,
                         const char *name)
{
    DmkChartBuild b[4];
    const DmkChartModel *models[4];
    DmkError err = {0};
    for (size_t p = 0; p < 4; p++) {
        dmk_chart_build_lab_compare(&b[p], DMK_LAB_CHART_LATENCY, res, n, p, NULL, &err);
        models[p] = &b[p].model;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (dmk_chart_export_grid(models, 4, 2, path, 800, 500, 1, &err) != DMK_OK)
        fprintf(stderr, "%s\n", err.msg);
    else
        printf("%s\n", path);
    for (size_t p = 0; p < 4; p++)
        dmk_chart_build_free(&b[p]);
}

static int write_shots(const char *dir)
{
    dmk_test_mkdir(dir);
    DmkRunResult *s1 = long_sustained(true, 180000, 45000, "Samsung SSD 970 EVO Plus 1TB");
    DmkRunResult *s2 = long_sustained(false, 95000, 18000, "Crucial P3 1TB");
    DmkRunResult *s0 = long_sustained(false, 180000, 45000, "Samsung SSD 970 EVO Plus 1TB");
    DmkRunResult *l1 = hand_latency(200000, 80), *l2 = hand_latency(90000, 150);
    DmkRunResult *m1 = hand_mixed(1), *m2 = hand_mixed(0.6), *r1 = hand_recovery(true);
    DmkRunResult *r2 = hand_recovery(false);
    snprintf(l2->target.model, sizeof l2->target.model, "Crucial P3 1TB");
    snprintf(m2->target.model, sizeof m2->target.model, "Crucial P3 1TB");
    snprintf(r2->target.model, sizeof r2->target.model, "Crucial P3 1TB");
    const DmkRunResult *ss[2] = {s1, s2}, *ll[2] = {l1, l2}, *mm[2] = {m1, m2}, *rr[2] = {r1, r2};
    shot(dir, "speed.png", DMK_LAB_CHART_SPEED, ss, 1, 0, 800, 500);
    shot(dir, "speed-small.png", DMK_LAB_CHART_SPEED, ss, 1, 0, 480, 300);
    shot(dir, "speed-wide.png", DMK_LAB_CHART_SPEED, ss, 1, 0, 1400, 700);
    shot(dir, "zoom.png", DMK_LAB_CHART_ZOOM, ss, 1, 0, 800, 500);
    shot(dir, "temperature.png", DMK_LAB_CHART_TEMPERATURE, ss, 1, 0, 800, 500);
    shot(dir, "temperature-none.png", DMK_LAB_CHART_TEMPERATURE, (const DmkRunResult *const[]){s0},
         1, 0, 800, 500);
    shot(dir, "speed-compare.png", DMK_LAB_CHART_SPEED, ss, 2, 0, 800, 500);
    shot(dir, "zoom-compare.png", DMK_LAB_CHART_ZOOM, ss, 2, 0, 800, 500);
    shot(dir, "mixed.png", DMK_LAB_CHART_MIXED, mm, 1, 0, 800, 500);
    shot(dir, "mixed-compare.png", DMK_LAB_CHART_MIXED, mm, 2, 0, 800, 500);
    shot(dir, "mixed-average.png", DMK_LAB_CHART_MIXED_AVERAGE, mm, 1, 0, 800, 500);
    shot(dir, "mixed-average-compare.png", DMK_LAB_CHART_MIXED_AVERAGE, mm, 2, 0, 800, 500);
    shot(dir, "latency.png", DMK_LAB_CHART_LATENCY, ll, 1, 0, 800, 500);
    shot(dir, "latency-compare.png", DMK_LAB_CHART_LATENCY, ll, 2, 1, 800, 500);
    latency_grid(dir, ll, 1, "latency-grid.png");
    latency_grid(dir, ll, 2, "latency-grid-compare.png");
    shot(dir, "recovery.png", DMK_LAB_CHART_RECOVERY, rr + 1, 1, 0, 800, 500);
    shot(dir, "recovery-compare.png", DMK_LAB_CHART_RECOVERY, rr, 2, 0, 800, 500);
    shot(dir, "recovery-speed.png", DMK_LAB_CHART_SPEED, rr, 1, 0, 800, 500);
    shot(dir, "speed.svg", DMK_LAB_CHART_SPEED, ss, 1, 0, 800, 500);
    shot(dir, "speed.pdf", DMK_LAB_CHART_SPEED, ss, 1, 0, 800, 500);
    shot(dir, "temperature.pdf", DMK_LAB_CHART_TEMPERATURE, ss, 1, 0, 800, 500);
    run_all_labs();
    static const char *const run_names[N_RUNS] = {"run-cache", "run-thermal", "run-fullspan",
                                                  "run-mixed", "run-latency", "run-recovery"};
    for (int i = 0; i < N_RUNS; i++) {
        DmkLabChartKind k[32];
        size_t p[32], n = runs[i].res ? dmk_lab_charts(runs[i].res, k, p, 32) : 0;
        for (size_t c = 0; c < n; c++) {
            char name[128];
            snprintf(name, sizeof name, "%s-%s-%zu.png", run_names[i], dmk_lab_chart_name(k[c]),
                     p[c]);
            shot(dir, name, k[c], (const DmkRunResult *const *)&runs[i].res, 1, p[c], 800, 500);
        }
    }
    DmkRunResult *all[] = {s0, s1, s2, l1, l2, m1, m2, r1, r2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        dmk_run_result_free(all[i]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--shots") == 0)
        return write_shots(argv[2]);
    dmk_clock_simulate();
    DMK_TEST(test_moving_average);
    DMK_TEST(test_chart_lists);
    DMK_TEST(test_chart_table);
    DMK_TEST(test_speed_model);
    DMK_TEST(test_zoom_model);
    DMK_TEST(test_temperature_model);
    DMK_TEST(test_no_sensor);
    DMK_TEST(test_many_dots);
    DMK_TEST(test_latency_model);
    DMK_TEST(test_mixed_models);
    DMK_TEST(test_recovery_model);
    DMK_TEST(test_surface_models);
    DMK_TEST(test_errors);
    DMK_TEST(test_compare);
    DMK_TEST(test_axis_y2);
    DMK_TEST(test_zoom_clips);
    DMK_TEST(test_grid_export);
    DMK_TEST(test_run_cache);
    DMK_TEST(test_run_thermal);
    DMK_TEST(test_run_fullspan);
    DMK_TEST(test_run_mixed);
    DMK_TEST(test_run_latency);
    DMK_TEST(test_run_recovery);
    DMK_TEST(test_saved_findings_win);
    for (int i = 0; i < N_RUNS; i++)
        dmk_run_result_free(runs[i].res);
    return dmk_test_done();
}
