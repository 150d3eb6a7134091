/* Line charts: y vs x per series, e.g. IOPS vs queue depth, one line per
 * drive. A missing value breaks the line rather than bridging it, so a
 * reader never takes an interpolation for a measurement. */
#include "dmk-chart-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool dmk_chart_lines_range(const DmkChartModel *m, double *xmin, double *xmax, double *ymax)
{
    bool any = false;
    *xmin = INFINITY;
    *xmax = -INFINITY;
    *ymax = 0;
    for (size_t s = 0; s < m->n_series; s++) {
        const DmkChartSeries *ser = &m->series[s];
        for (size_t i = 0; ser->points && i < ser->n; i++) {
            const DmkChartPoint *p = &ser->points[i];
            if (!dmk_chart_x_ok(m, p->x) || !dmk_chart_value_ok(p->y))
                continue;
            any = true;
            *xmin = fmin(*xmin, p->x);
            *xmax = fmax(*xmax, p->x);
            *ymax = fmax(*ymax, p->y);
        }
    }
    return any;
}

static int by_x(const void *a, const void *b)
{
    double xa = ((const DmkChartPoint *)a)->x, xb = ((const DmkChartPoint *)b)->x;
    return (xa > xb) - (xa < xb);
}

/* The series' points with a usable x, in x order (a sweep may list them
 * in any order). NULL when there are none or memory ran out. */
static DmkChartPoint *sorted_points(const DmkChartModel *m, const DmkChartSeries *ser, size_t *n)
{
    *n = 0;
    if (!ser->points || ser->n == 0)
        return NULL;
    DmkChartPoint *p = malloc(ser->n * sizeof *p);
    if (!p)
        return NULL;
    for (size_t i = 0; i < ser->n; i++)
        if (dmk_chart_x_ok(m, ser->points[i].x))
            p[(*n)++] = ser->points[i];
    qsort(p, *n, sizeof *p, by_x);
    return p;
}

static void to_device(const DmkChartCtx *c, const DmkChartPoint *p, double *x, double *y)
{
    *x = c->plot.x + c->plot.w * dmk_chart_axis_map(&c->x, p->x);
    *y = c->plot.y + c->plot.h * (1 - dmk_chart_axis_map(&c->y, p->y));
}

static void stroke_series(DmkChartCtx *c, size_t s, const DmkChartPoint *p, size_t n)
{
    cairo_t *cr = c->cr;
    bool pen_down = false;
    for (size_t i = 0; i < n; i++) {
        if (!dmk_chart_value_ok(p[i].y)) {
            pen_down = false;
            continue;
        }
        double x, y;
        to_device(c, &p[i], &x, &y);
        if (pen_down)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
        pen_down = true;
    }
    double lw = c->font * 0.19;
    cairo_save(cr);
    cairo_set_line_width(cr, lw);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    dmk_chart_set_series_colour(cr, s, 1);
    dmk_chart_set_series_dash(cr, s, lw);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* A point with no drawn neighbour: without a marker nothing shows it. */
static bool isolated(const DmkChartPoint *p, size_t n, size_t i)
{
    return (i == 0 || !dmk_chart_value_ok(p[i - 1].y)) &&
           (i + 1 == n || !dmk_chart_value_ok(p[i + 1].y));
}

static void mark_series(DmkChartCtx *c, size_t s, const DmkChartPoint *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!dmk_chart_value_ok(p[i].y) || (c->no_markers && !isolated(p, n, i)))
            continue;
        double x, y;
        to_device(c, &p[i], &x, &y);
        dmk_chart_draw_marker(c->cr, s, x, y, c->font * 0.36);
    }
}

/* Markers on points closer than about two marker widths would merge into
 * a thick smudge (a timeline of samples); the dash patterns and colours
 * still tell such series apart. */
static bool markers_fit(const DmkChartCtx *c)
{
    size_t most = 0;
    for (size_t s = 0; s < c->m->n_series; s++)
        most = c->m->series[s].n > most ? c->m->series[s].n : most;
    return (double)most * c->font * 1.4 <= c->plot.w;
}

void dmk_chart_lines_draw(DmkChartCtx *c)
{
    const DmkChartModel *m = c->m;
    c->no_markers = !markers_fit(c);
    /* Lines first, markers on top, so no line hides another's points. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t s = 0; s < m->n_series; s++) {
            size_t n;
            DmkChartPoint *p = sorted_points(m, &m->series[s], &n);
            if (!p)
                continue;
            if (pass == 0)
                stroke_series(c, s, p, n);
            else
                mark_series(c, s, p, n);
            free(p);
        }
    }
}
