/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How long the chart renderer takes to draw what the window shows at its
 * heaviest: a two-hour sustained write's timeline (7,200 one-second
 * samples as dots, their moving average, and the same against time with
 * the temperature) and the Compare tab's chart of 12 results. Each chart
 * is built as the window builds it and drawn many times as a frame of
 * the window draws it (frame()), at the on-screen size, at 1x and at 2x
 * (a HiDPI screen); the median and the longest draw are printed,
 * tab-separated:
 *
 *     chart<TAB>NAME<TAB>WxH@S<TAB>median_ms<TAB>M<TAB>max_ms<TAB>X<TAB>cpu_median_ms<TAB>C
 *     <TAB>reps<TAB>N
 *
 * (wall-clock median and maximum, and the median of the CPU time the draw
 * took: on a busy machine the wall clock includes waiting for a core).
 * Used by tests/bench/window-responsiveness; not a test: the times are the
 * machine's. Usage: dmk-bench-chart [REPETITIONS] (default 100); with
 * $DMK_BENCH_PNG=DIR each chart's last frame is also saved there; with
 * $DMK_BENCH_VECTOR set the charts are drawn as for an export, every dot
 * and point a path (what the window did before it said its scale). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dmk-chart-build.h"
#include "dmk-chart-lab.h"
#include "dmk-test-lab.h"

#define TIMELINE_SAMPLES 7200 /* 2 h at one sample a second */
#define COMPARE_RESULTS  12

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One frame of a GtkDrawingArea as GTK 4 makes it: the draw function
 * paints into a recording surface (a GskCairoNode), which the renderer
 * then replays onto an image of the area's size in device pixels; both
 * happen on the main thread. */
static void frame(const DmkChartModel *m, int width, int height, double scale,
                  const DmkChartStyle *style, const char *png)
{
    /* The window tells the renderer its scale (ui/dmk-plot.c), unless
     * $DMK_BENCH_VECTOR asks for an export's drawing (every dot a path). */
    DmkChartStyle screen = *style;
    screen.screen_scale = getenv("DMK_BENCH_VECTOR") ? 0 : scale;
    style = &screen;
    cairo_rectangle_t extents = {0, 0, width, height};
    cairo_surface_t *rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents);
    cairo_t *cr = cairo_create(rec);
    dmk_chart_render_styled(cr, width, height, m, style);
    cairo_destroy(cr);
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(width * scale),
                                                      (int)(height * scale));
    cairo_surface_set_device_scale(img, scale, scale);
    cr = cairo_create(img);
    cairo_set_source_surface(cr, rec, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(img);
    if (png && cairo_surface_write_to_png(img, png) != CAIRO_STATUS_SUCCESS)
        fprintf(stderr, "dmk-bench-chart: cannot write %s\n", png);
    cairo_surface_destroy(img);
    cairo_surface_destroy(rec);
}

/* Draws m reps times at width x height logical pixels times scale. */
static void bench(const char *name, const DmkChartModel *m, int width, int height, double scale,
                  int reps, const DmkChartStyle *style)
{
    double *t = calloc((size_t)reps, sizeof *t), *cpu = calloc((size_t)reps, sizeof *cpu);
    if (!t || !cpu)
        exit(1);
    /* $DMK_BENCH_PNG=DIR: each chart's last frame as a PNG there, to look at. */
    const char *dir = getenv("DMK_BENCH_PNG");
    char png[4096];
    snprintf(png, sizeof png, "%s/%s-%dx%d@%g.png", dir ? dir : ".", name, width, height, scale);
    for (int i = 0; i < reps; i++) {
        double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        frame(m, width, height, scale, style, dir && i == reps - 1 ? png : NULL);
        t[i] = clock_ms(CLOCK_MONOTONIC) - t0;
        cpu[i] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    qsort(t, (size_t)reps, sizeof *t, by_value);
    qsort(cpu, (size_t)reps, sizeof *cpu, by_value);
    printf("chart\t%s\t%dx%d@%g\tmedian_ms\t%.2f\tmax_ms\t%.2f\tcpu_median_ms\t%.2f\treps\t%d\n",
           name, width, height, scale, t[reps / 2], t[reps - 1], cpu[reps / 2], reps);
    fflush(stdout);
    free(t);
    free(cpu);
}

/* A sustained write: the cache at 3,000 MB/s for a quarter, then 800 MB/s
 * with a drive's jitter, the temperature climbing from 40 to 70 C. */
static void timeline_result(DmkTestLab *lab, DmkSample *samples)
{
    dmk_test_build_lab_result(&lab->r, &lab->t, lab->passes, samples);
    srand(16);
    for (size_t i = 0; i < TIMELINE_SAMPLES; i++) {
        double base = i < TIMELINE_SAMPLES / 4 ? 3000 : 800;
        double mb_s = base * (0.85 + 0.3 * (double)rand() / RAND_MAX);
        samples[i] = (DmkSample){.t_s = (double)(i + 1),
                                 .mb_s = mb_s,
                                 .iops = mb_s * 1e6 / 1048576,
                                 .lat_mean_us = 8000 * 1e3 / mb_s,
                                 .temp_c = 40 + 30 * (double)i / TIMELINE_SAMPLES};
    }
    lab->t.samples = samples;
    lab->t.n_samples = TIMELINE_SAMPLES;
}

/* CrystalDiskMark's four tests, read and write: the Benchmark tab's result. */
static const char *const tile_names[] = {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"};
#define N_TILE_TESTS 8

typedef struct {
    DmkRunResult r;
    DmkTestResult t[N_TILE_TESTS];
    DmkPassResult p[N_TILE_TESTS][2];
    DmkSample s[2];
} TileResult;

static void tile_result(TileResult *tr, size_t k)
{
    DmkTestResult first;
    dmk_test_build_result(&tr->r, &first, tr->p[0], tr->s, "");
    snprintf(tr->r.date, sizeof tr->r.date, "2026-11-%02zuT06:35:13Z", k + 1);
    for (size_t i = 0; i < N_TILE_TESTS; i++) {
        DmkTestResult *t = &tr->t[i];
        memset(t, 0, sizeof *t);
        memset(tr->p[i], 0, sizeof tr->p[i]);
        const char *name = tile_names[i / 2];
        snprintf(t->test.name, sizeof t->test.name, "%s", name);
        t->test.mode = i % 2 ? DMK_MODE_WRITE : DMK_MODE_READ;
        t->test.n_jobs = 1;
        dmk_job_parse_name(name, &t->test.jobs[0], NULL);
        double mb_s = (i < 4 ? 3500.0 / (1 + (double)(i / 2)) : 60.0 / (double)(i / 2 - 1)) *
                      (1 + 0.05 * (double)k) * (i % 2 ? 0.8 : 1);
        DmkStats s = {.ios = 1000,
                      .bytes = (uint64_t)(mb_s * 5e6),
                      .seconds = 5,
                      .mb_s = mb_s,
                      .iops = mb_s * 1e6 / (i < 4 ? 1048576 : 4096),
                      .lat_mean_us = 100,
                      .lat_p99_us = 200};
        tr->p[i][0].total = s;
        if (t->test.mode == DMK_MODE_READ)
            tr->p[i][0].read = s;
        else
            tr->p[i][0].write = s;
        t->passes = tr->p[i];
        t->n_passes = 1;
        dmk_test_result_summarize(t);
    }
    tr->r.tests = tr->t;
    tr->r.n_tests = N_TILE_TESTS;
}

static int build_compare(DmkChartBuild *b, TileResult *tr)
{
    const DmkRunResult *res[COMPARE_RESULTS];
    char names[COMPARE_RESULTS][32];
    const char *name_ptr[COMPARE_RESULTS];
    for (size_t k = 0; k < COMPARE_RESULTS; k++) {
        tile_result(&tr[k], k);
        res[k] = &tr[k].r;
        snprintf(names[k], sizeof names[k], "[%zu] R%zu.csv", k + 1, k + 1);
        name_ptr[k] = names[k];
    }
    /* As the window's compare chart (ui/dmk-plot.c). */
    DmkChartBuildOptions opt = {
        .names = name_ptr, .one_by_direction = true, .note_differences = true};
    DmkError err = {0};
    memset(b, 0, sizeof *b);
    dmk_chart_model_init(&b->model);
    if (dmk_chart_build(b, DMK_CHART_BUILD_TILES, "mb_s", res, COMPARE_RESULTS, &opt, &err) !=
        DMK_OK) {
        fprintf(stderr, "dmk-bench-chart: compare chart: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int build_lab(DmkChartBuild *b, DmkLabChartKind kind, const DmkRunResult *r)
{
    DmkError err = {0};
    memset(b, 0, sizeof *b);
    if (dmk_chart_build_lab(b, kind, r, 0, &err) != DMK_OK) {
        fprintf(stderr, "dmk-bench-chart: %s chart: %s\n", dmk_lab_chart_name(kind), err.msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 100;
    if (reps < 1)
        reps = 1;
    static DmkTestLab lab;
    static DmkSample samples[TIMELINE_SAMPLES];
    static TileResult tiles[COMPARE_RESULTS];
    timeline_result(&lab, samples);
    DmkChartBuild speed, temp, cmp;
    if (build_lab(&speed, DMK_LAB_CHART_SPEED, &lab.r) ||
        build_lab(&temp, DMK_LAB_CHART_TEMPERATURE, &lab.r) || build_compare(&cmp, tiles))
        return 1;
    const DmkChartStyle light = {DMK_CHART_LIGHT}, dark = {DMK_CHART_DARK};
    /* The window's chart at its usual size and a maximized one; 2x: HiDPI. */
    static const struct {
        int w, h;
        double scale;
    } sizes[] = {{800, 500, 1}, {800, 500, 2}, {1600, 900, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bench("timeline-7200-speed", &speed.model, sizes[i].w, sizes[i].h, sizes[i].scale, reps,
              &light);
        bench("timeline-7200-temperature", &temp.model, sizes[i].w, sizes[i].h, sizes[i].scale,
              reps, &light);
        bench("compare-12", &cmp.model, sizes[i].w, sizes[i].h, sizes[i].scale, reps, &light);
    }
    bench("compare-12-dark", &cmp.model, 800, 500, 1, reps, &dark);
    dmk_chart_build_free(&speed);
    dmk_chart_build_free(&temp);
    dmk_chart_build_free(&cmp);
    return 0;
}
