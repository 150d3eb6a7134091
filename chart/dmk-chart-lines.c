/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Line charts: y vs x per series, e.g. IOPS vs queue depth, one line per
 * drive. A missing value breaks the line rather than bridging it, so a
 * reader never takes an interpolation for a measurement. */
#include "dmk-chart-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A point the axes must show: on a fixed x axis, only those inside it. */
static bool point_counts(const DmkChartModel *m, const DmkChartPoint *p)
{
    if (!dmk_chart_x_ok(m, p->x) || !dmk_chart_value_ok(p->y))
        return false;
    return !dmk_chart_x_fixed(m) || (p->x >= m->x_min && p->x <= m->x_max);
}

static void range_add(DmkLinesRange *r, const DmkChartSeries *ser, const DmkChartPoint *p)
{
    r->any = true;
    r->xmin = fmin(r->xmin, p->x);
    r->xmax = fmax(r->xmax, p->x);
    if (ser->axis != DMK_Y_RIGHT) {
        r->ymax = fmax(r->ymax, p->y);
        return;
    }
    r->right = true;
    r->y2min = fmin(r->y2min, p->y);
    r->y2max = fmax(r->y2max, p->y);
}

bool dmk_chart_lines_range(const DmkChartModel *m, DmkLinesRange *r)
{
    *r = (DmkLinesRange){INFINITY, -INFINITY, 0, INFINITY, -INFINITY, false, false};
    for (size_t s = 0; s < m->n_series; s++) {
        const DmkChartSeries *ser = &m->series[s];
        for (size_t i = 0; ser->points && i < ser->n; i++)
            if (point_counts(m, &ser->points[i]))
                range_add(r, ser, &ser->points[i]);
    }
    return r->any;
}

double dmk_chart_lines_min(const DmkChartModel *m)
{
    double min = INFINITY;
    for (size_t s = 0; s < m->n_series; s++) {
        const DmkChartSeries *ser = &m->series[s];
        for (size_t i = 0; ser->axis != DMK_Y_RIGHT && ser->points && i < ser->n; i++)
            if (point_counts(m, &ser->points[i]) && ser->points[i].y > 0)
                min = fmin(min, ser->points[i].y);
    }
    return min;
}

static int by_x(const void *a, const void *b)
{
    double xa = ((const DmkChartPoint *)a)->x, xb = ((const DmkChartPoint *)b)->x;
    return (xa > xb) - (xa < xb);
}

static bool in_x_order(const DmkChartPoint *p, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (p[i].x < p[i - 1].x)
            return false;
    return true;
}

/* The series' points with a usable x, in x order (a sweep may list them
 * in any order) unless the series keeps its own. NULL when there are none
 * or memory ran out. */
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
    /* Samples come in time order, mostly x order too: a sorted list is
     * left as it is (what a stable sort would leave), not sorted again
     * at every frame. */
    if (!ser->in_order && !in_x_order(p, *n))
        qsort(p, *n, sizeof *p, by_x);
    return p;
}

/* Points of series s inside the x axis: all of them unless it is fixed. */
static size_t visible_points(const DmkChartModel *m, size_t s)
{
    const DmkChartSeries *ser = &m->series[s];
    if (!dmk_chart_x_fixed(m) || !ser->points)
        return ser->n;
    size_t n = 0;
    for (size_t i = 0; i < ser->n; i++)
        n += ser->points[i].x >= m->x_min && ser->points[i].x <= m->x_max;
    return n;
}

void dmk_chart_place(const DmkChartCtx *c, size_t s, const DmkChartPoint *p, double *x, double *y)
{
    const DmkAxis *ya = c->m->series[s].axis == DMK_Y_RIGHT && c->has_y2 ? &c->y2 : &c->y;
    *x = c->plot.x + c->plot.w * dmk_chart_axis_map(&c->x, p->x);
    *y = c->plot.y + c->plot.h * (1 - dmk_chart_axis_map(ya, p->y));
}

/* A line through far more points than the plot has pixels (a two-hour
 * timeline's moving average: 7,200) would cost Cairo's stroker a join at
 * every one; within a column of COLUMN units (half a logical pixel, so a
 * 2x screen loses nothing either) the line is only its vertical span.
 * Each column keeps its first, lowest, highest and last point, in the
 * order they came: the drawn pixels stay the same, at a few points a
 * column. */
#define COLUMN 0.5

/* On screen (c->screen_scale) the device pixel is known: a column is one
 * of them (half of COLUMN's points at 1x), and a point within THIN_TOL
 * device pixels of the line its neighbours make is left out (Cairo draws
 * curves to 0.1 px), so a temperature ramp is a few dozen points, not
 * thousands. Cairo's stroker and scan converter took 2 us a point of a
 * two-hour timeline's average. Exports keep COLUMN and every point. */
#define THIN_TOL  0.05
#define THIN_KEEP 32 /* at most this many points are left out in a row */

typedef struct {
    cairo_t *cr;
    double tol;                          /* user units; 0: every point goes to the path */
    double ax, ay;                       /* the last point put on the path */
    double px[THIN_KEEP], py[THIN_KEEP]; /* the points after it, left out so far */
    size_t n;
} Thin;

static double segment_dist2(double x, double y, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = ax + t * dx - x, ey = ay + t * dy - y;
    return ex * ex + ey * ey;
}

/* Whether every point left out lies on the way from the last one drawn
 * to (x, y). */
static bool thin_straight(const Thin *t, double x, double y)
{
    for (size_t i = 0; i < t->n; i++)
        if (segment_dist2(t->px[i], t->py[i], t->ax, t->ay, x, y) > t->tol * t->tol)
            return false;
    return true;
}

static void thin_flush(Thin *t)
{
    if (!t->n)
        return;
    t->ax = t->px[t->n - 1], t->ay = t->py[t->n - 1];
    cairo_line_to(t->cr, t->ax, t->ay);
    t->n = 0;
}

static void thin_move(Thin *t, double x, double y)
{
    thin_flush(t);
    cairo_move_to(t->cr, x, y);
    t->ax = x, t->ay = y;
}

static void thin_line(Thin *t, double x, double y)
{
    if (t->tol <= 0) {
        cairo_line_to(t->cr, x, y);
        return;
    }
    /* (x, y) would bend the line away from the points left out: the last
     * of them is a corner. */
    if (t->n == THIN_KEEP || !thin_straight(t, x, y))
        thin_flush(t);
    t->px[t->n] = x, t->py[t->n] = y;
    t->n++;
}

typedef struct {
    Thin *t;
    double width;      /* of a column, user units: COLUMN, or a screen's pixel */
    bool open;         /* a column is being gathered */
    double col;        /* its index */
    double x[4], y[4]; /* first, lowest, highest, last */
    size_t i_lo, i_hi; /* when the lowest and highest came */
    bool pen_down;     /* the column continues the path */
    bool span_only;    /* on screen: a column is its lowest and highest point */
} Column;

static void column_flush(Column *k)
{
    if (!k->open)
        return;
    /* y grows downwards: "lowest" is the least y, the top of the span. */
    int a = k->i_lo <= k->i_hi ? 1 : 2, b = 3 - a;
    /* A column one device pixel wide shows only its span: its first and
     * last point lie inside it, and the way in from the column before and
     * out to the next passes the same pixels within that one column.
     * Half the points of a noisy line (a timeline's moving average at 2x:
     * 4.5 of the chart's 8 ms of CPU were its stroke). */
    int first = k->span_only ? a : 0;
    if (k->pen_down)
        thin_line(k->t, k->x[first], k->y[first]);
    else
        thin_move(k->t, k->x[first], k->y[first]);
    if (!k->span_only)
        thin_line(k->t, k->x[a], k->y[a]);
    thin_line(k->t, k->x[b], k->y[b]);
    if (!k->span_only)
        thin_line(k->t, k->x[3], k->y[3]);
    k->open = false;
    k->pen_down = true;
}

static void column_add(Column *k, size_t i, double x, double y)
{
    double col = floor(x / k->width);
    if (k->open && col != k->col)
        column_flush(k);
    if (!k->open) {
        *k = (Column){.t = k->t,
                      .width = k->width,
                      .open = true,
                      .col = col,
                      .pen_down = k->pen_down,
                      .span_only = k->span_only,
                      .i_lo = i,
                      .i_hi = i};
        for (int j = 0; j < 4; j++) {
            k->x[j] = x;
            k->y[j] = y;
        }
        return;
    }
    if (y < k->y[1]) {
        k->x[1] = x, k->y[1] = y, k->i_lo = i;
    }
    if (y > k->y[2]) {
        k->x[2] = x, k->y[2] = y, k->i_hi = i;
    }
    k->x[3] = x, k->y[3] = y;
}

/* THIN_TOL device pixels in user units; 0 off screen. */
static double thin_tol(const DmkChartCtx *c)
{
    if (!(c->screen_scale > 0))
        return 0;
    double dx = 1, dy = 0;
    cairo_user_to_device_distance(c->cr, &dx, &dy);
    double d = hypot(dx, dy) * c->screen_scale;
    return d > 0 ? THIN_TOL / d : 0;
}

static void stroke_series(DmkChartCtx *c, size_t s, const DmkChartPoint *p, size_t n)
{
    cairo_t *cr = c->cr;
    bool dense = (double)n > c->plot.w / COLUMN;
    double px = thin_tol(c) / THIN_TOL; /* a device pixel on screen, else 0 */
    Thin t = {.cr = cr, .tol = dense ? px * THIN_TOL : 0};
    /* On screen a column is a device pixel: what one can show. */
    Column k = {.t = &t, .width = px > 0 ? fmax(px, COLUMN / 2) : COLUMN, .span_only = px > 0};
    bool pen_down = false;
    for (size_t i = 0; i < n; i++) {
        if (!dmk_chart_value_ok(p[i].y)) {
            column_flush(&k);
            thin_flush(&t);
            pen_down = k.pen_down = false;
            continue;
        }
        double x, y;
        dmk_chart_place(c, s, &p[i], &x, &y);
        if (dense)
            column_add(&k, i, x, y);
        else if (pen_down)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
        pen_down = true;
    }
    column_flush(&k);
    thin_flush(&t);
    /* A line through thousands of samples is drawn finer: at full width
     * its every wiggle would thicken it into a band. */
    double lw = c->font * ((double)visible_points(c->m, s) > c->plot.w / 2 ? 0.13 : 0.19);
    cairo_save(cr);
    cairo_set_line_width(cr, lw);
    /* A screen's dense line turns at every device pixel; there a round
     * join and a bevel differ by under half a pixel, and Cairo's stroker
     * takes a third less time without the round fans. */
    cairo_set_line_join(cr, dense && px > 0 ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_ROUND);
    size_t look = dmk_chart_look(c->m, s);
    dmk_chart_set_series_colour(cr, look, 1);
    if (!c->m->series[s].solid)
        dmk_chart_set_series_dash(cr, look, lw);
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
    size_t look = dmk_chart_look(c->m, s);
    for (size_t i = 0; i < n; i++) {
        if (!dmk_chart_value_ok(p[i].y) || (c->no_markers && !isolated(p, n, i)))
            continue;
        double x, y;
        dmk_chart_place(c, s, &p[i], &x, &y);
        dmk_chart_draw_marker(c->cr, look, x, y, c->font * 0.36);
    }
}

/* Dots are round caps on zero-length strokes (a few bytes each in SVG and
 * PDF, where a circle is four curves), stroked a batch at a time: where
 * samples pile up, the translucent batches add up to a darker band, so
 * the spread of the samples shows; one stroke for all would paint their
 * union in one flat tint. */
#define DOT_BATCH DMK_CHART_DOT_BATCH

static void dot_series(DmkChartCtx *c, size_t s, const DmkChartPoint *p, size_t n)
{
    /* A window's frame: the same dots as one image (dmk-chart-dots.c). */
    if (c->screen_scale > 0 && dmk_chart_dots_image(c, s, p, n))
        return;
    cairo_t *cr = c->cr;
    cairo_save(cr);
    dmk_chart_set_series_colour(cr, dmk_chart_look(c->m, s), c->dot_alpha);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_width(cr, 2 * c->dot_r);
    cairo_new_path(cr);
    size_t in_batch = 0;
    for (size_t i = 0; i < n; i++) {
        if (!dmk_chart_value_ok(p[i].y))
            continue;
        double x, y;
        dmk_chart_place(c, s, &p[i], &x, &y);
        cairo_move_to(cr, x, y);
        cairo_close_path(cr);
        if (++in_batch == DOT_BATCH) {
            cairo_stroke(cr);
            in_batch = 0;
        }
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* The most points shown of any series drawn as `style`. */
static size_t most_points(const DmkChartModel *m, DmkSeriesStyle style)
{
    size_t most = 0;
    for (size_t s = 0; s < m->n_series; s++) {
        size_t n = m->series[s].style == style ? visible_points(m, s) : 0;
        most = n > most ? n : most;
    }
    return most;
}

/* Markers on points closer than about two marker widths would merge into
 * a thick smudge (a timeline of samples); the dash patterns and colours
 * still tell such series apart. Dots shrink and fade as they crowd: a
 * few dozen samples get solid dots, thousands a faint haze whose density
 * is the information. */
void dmk_chart_lines_density(DmkChartCtx *c)
{
    double w = fmax(c->plot.w, 1);
    c->no_markers = (double)most_points(c->m, DMK_SERIES_LINE) * c->font * 1.4 > w;
    double per_px = (double)most_points(c->m, DMK_SERIES_DOTS) / w;
    /* 0 at 1 sample per 20 px or fewer, 1 at 4 per pixel or more */
    double crowd = fmax(0, fmin(1, log2(fmax(per_px, 1e-9) * 20) / log2(80)));
    c->dot_r = c->font * (0.3 - 0.19 * crowd);
    c->dot_alpha = 0.9 - 0.5 * crowd;
}

bool dmk_chart_series_marked(const DmkChartCtx *c, size_t s)
{
    return c->m->series[s].style == DMK_SERIES_LINE && !c->no_markers;
}

static void draw_pass(DmkChartCtx *c, int pass, size_t s)
{
    bool dots = c->m->series[s].style == DMK_SERIES_DOTS;
    if (dots != (pass == 0))
        return;
    size_t n;
    DmkChartPoint *p = sorted_points(c->m, &c->m->series[s], &n);
    if (!p)
        return;
    /* A zero has no place on a log axis: a gap, as a missing value. */
    bool left = c->m->series[s].axis != DMK_Y_RIGHT || !c->has_y2;
    for (size_t i = 0; left && i < n; i++)
        if (!dmk_chart_y_ok(c, p[i].y))
            p[i].y = NAN;
    if (pass == 0)
        dot_series(c, s, p, n);
    else if (pass == 1)
        stroke_series(c, s, p, n);
    else
        mark_series(c, s, p, n);
    free(p);
}

void dmk_chart_lines_draw(DmkChartCtx *c)
{
    cairo_t *cr = c->cr;
    cairo_save(cr);
    /* A fixed x range leaves points outside it: the plot's edge cuts
     * them, and the line towards them, off. */
    if (c->x_fixed) {
        cairo_rectangle(cr, c->plot.x, c->plot.y, c->plot.w, c->plot.h);
        cairo_clip(cr);
    }
    /* Dots first, then lines, markers on top, so no line hides another's
     * points and the samples' haze never hides their average. */
    for (int pass = 0; pass < 3; pass++)
        for (size_t s = 0; s < c->m->n_series; s++)
            draw_pass(c, pass, s);
    cairo_restore(cr);
}
