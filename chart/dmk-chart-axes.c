/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Axes: "nice" 1-2-5 ticks from zero for values (a bar or line that does
 * not start at zero exaggerates differences between drives), powers of
 * two for queue depths and block sizes, gridlines and axis titles. */
#include "dmk-chart-private.h"
#include "dmk-i18n.h"

#include <math.h>
#include <stdio.h>

#define GRID_GREY  0.88
#define AXIS_GREY  0.35
#define LABEL_GREY 0.25

/* The 1-2-5 step nearest above raw. */
static double nice_step(double raw)
{
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    if (norm <= 1.0 + 1e-9)
        return mag;
    if (norm <= 2.0 + 1e-9)
        return 2 * mag;
    if (norm <= 5.0 + 1e-9)
        return 5 * mag;
    return 10 * mag;
}

static void linear_ticks(DmkAxis *a, double lo, double hi, double step)
{
    a->step = step;
    a->n_ticks = 0;
    for (double t = lo; t <= hi + step * 1e-6 && a->n_ticks < DMK_CHART_MAX_TICKS; t += step)
        a->ticks[a->n_ticks++] = fabs(t) < step * 1e-9 ? 0 : t;
}

/* Of the 1-2-5 steps that give 4 to 8 intervals, the one whose top tick
 * wastes least room above max; fewer gridlines on a tie. */
static double best_y_step(double max)
{
    double best = nice_step(max / 5), best_hi = INFINITY;
    for (int n = 4; n <= 8; n++) {
        double step = nice_step(max / n);
        double hi = ceil(max / step - 1e-9) * step;
        if (hi / step > 8.5 || hi / step < 3.5)
            continue;
        if (hi < best_hi * (1 - 1e-9) || (hi <= best_hi * (1 + 1e-9) && step > best)) {
            best = step;
            best_hi = hi;
        }
    }
    return best;
}

void dmk_chart_axis_y(DmkAxis *a, double max)
{
    if (!(max > 0) || !isfinite(max))
        max = 1;
    max = fmin(max, 1e300);
    a->scale = DMK_AXIS_LINEAR;
    a->format = DMK_TICKS_NUMBER;
    a->label_every = 1;
    double step = best_y_step(max);
    a->lo = 0;
    a->hi = ceil(max / step - 1e-9) * step;
    linear_ticks(a, 0, a->hi, step);
}

bool dmk_chart_wants_log(const DmkChartModel *m, double min, double max)
{
    if (!(min > 0) || !isfinite(min) || !(max > 0) || !isfinite(max))
        return false;
    if (m->y_scale == DMK_VALUE_LOG)
        return true;
    return m->y_scale == DMK_VALUE_AUTO && max / min > DMK_CHART_LOG_RATIO;
}

void dmk_chart_axis_y_log(DmkAxis *a, double min, double max)
{
    a->scale = DMK_AXIS_LOG10;
    a->format = DMK_TICKS_NUMBER;
    a->label_every = 1;
    a->step = 1;
    max = fmax(max, min);
    /* At least 0.15 decade under the smallest value: a value of exactly
     * 10^k would otherwise sit on the axis with no bar at all. */
    double lo = floor(log10(min) - 0.15), top = log10(max);
    if (top - lo > DMK_CHART_MAX_TICKS / 3 - 1)
        lo = ceil(top) - (DMK_CHART_MAX_TICKS / 3 - 1);
    a->lo = lo;
    /* Room above the highest value, as on the linear axis, for a bar's label. */
    a->hi = fmax(top + (top - lo) * 0.08, lo + 1);
    a->n_ticks = 0;
    static const double mantissas[] = {1, 2, 5};
    for (double e = lo; e <= ceil(a->hi); e++)
        for (size_t k = 0; k < 3 && a->n_ticks < DMK_CHART_MAX_TICKS; k++) {
            double t = e + log10(mantissas[k]);
            if (t <= a->hi + 1e-9)
                a->ticks[a->n_ticks++] = t;
        }
}

/* The smallest 1-2-5 step of `intervals` steps from a multiple of it that
 * spans min..max, starting from zero where the same step allows. */
void dmk_chart_axis_y2(DmkAxis *a, double min, double max, size_t intervals)
{
    a->scale = DMK_AXIS_LINEAR;
    a->format = DMK_TICKS_NUMBER;
    a->label_every = 1;
    if (!isfinite(min) || !isfinite(max) || max < min)
        min = max = 0;
    max = fmin(max, 1e300);
    if (max - min < 1e-9 * fmax(1, fabs(max))) {
        /* A flat line (a drive holding one temperature) sits mid-plot. */
        min = fmax(0, min - 1);
        max += 1;
    }
    double n = intervals > 0 ? (double)intervals : 1;
    /* A little room, as on the left: a line on the frame is hard to see. */
    double span = max - min;
    double top = max + span * 0.04, bottom = min > 0 ? fmax(0, min - span * 0.04) : min;
    double step = nice_step((top - bottom) / n), lo = 0;
    for (int k = 0; k < 64; k++, step = nice_step(step * 1.01)) {
        if (bottom >= 0 && n * step >= top) {
            lo = 0;
            break;
        }
        lo = floor(bottom / step + 1e-9) * step;
        if (lo + n * step >= top)
            break;
    }
    a->lo = lo;
    a->hi = lo + n * step;
    linear_ticks(a, a->lo, a->hi, step);
}

static void axis_x_log2(DmkAxis *a, double min, double max)
{
    double emin = floor(log2(min) + 1e-9), emax = ceil(log2(max) - 1e-9);
    if (emax - emin > DMK_CHART_MAX_TICKS - 1)
        emin = emax - (DMK_CHART_MAX_TICKS - 1);
    if (emin == emax) {
        emin -= 1;
        emax += 1;
    }
    a->n_ticks = 0;
    for (double e = emin; e <= emax; e++)
        a->ticks[a->n_ticks++] = e;
    a->step = 1;
    /* Room around the first and last points, so markers clear the axis. */
    double pad = fmax(0.3, (emax - emin) * 0.03);
    a->lo = emin - pad;
    a->hi = emax + pad;
}

static void axis_x_linear(DmkAxis *a, double min, double max)
{
    if (max - min < 1e-12 * fmax(1, fabs(max))) {
        min -= fmax(1, fabs(min) * 0.5);
        max += fmax(1, fabs(max) * 0.5);
    }
    double step = nice_step((max - min) / 6);
    double lo = floor(min / step + 1e-9) * step, hi = ceil(max / step - 1e-9) * step;
    linear_ticks(a, lo, hi, step);
    double pad = (hi - lo) * 0.03;
    a->lo = lo - pad;
    a->hi = hi + pad;
}

void dmk_chart_axis_x(DmkAxis *a, DmkAxisScale scale, DmkTickFormat format, double min, double max)
{
    a->scale = scale;
    a->format = format;
    a->label_every = 1;
    if (scale == DMK_AXIS_LOG2)
        axis_x_log2(a, min, max);
    else
        axis_x_linear(a, min, max);
}

void dmk_chart_axis_x_fixed(DmkAxis *a, DmkTickFormat format, double lo, double hi)
{
    a->scale = DMK_AXIS_LINEAR;
    a->format = format;
    a->label_every = 1;
    /* The finest 1-2-5 step with at most 8 intervals: a zoom or a run's
     * length rarely ends on a tick, so the ticks get what room there is. */
    double step = nice_step((hi - lo) / 8);
    linear_ticks(a, ceil(lo / step - 1e-9) * step, hi, step);
    a->lo = lo;
    a->hi = hi;
}

double dmk_chart_axis_map(const DmkAxis *a, double v)
{
    double t = a->scale == DMK_AXIS_LOG2 ? log2(v) : a->scale == DMK_AXIS_LOG10 ? log10(v) : v;
    return (t - a->lo) / (a->hi - a->lo);
}

double dmk_chart_tick_value(const DmkAxis *a, double t)
{
    if (a->scale == DMK_AXIS_LOG10)
        return pow(10, t);
    return a->scale == DMK_AXIS_LOG2 ? exp2(t) : t;
}

/* A log value axis's tick at a whole decade: 1, 10, 100. */
static bool decade(const DmkAxis *a, size_t i)
{
    return fabs(a->ticks[i] - round(a->ticks[i])) < 1e-9;
}

bool dmk_chart_tick_labelled(const DmkAxis *a, size_t i)
{
    long k = a->label_every > 1 ? a->label_every : 1;
    if (a->scale == DMK_AXIS_LOG10)
        return k == 1 || decade(a, i); /* crowded: the decades alone */
    if (a->scale == DMK_AXIS_LOG2) {
        /* Label exponents that are multiples of k: with k = 2 that is
         * 1 KiB, 4 KiB ... 1 MiB, the sizes reviewers quote. */
        long e = lround(a->ticks[i]);
        return ((e % k) + k) % k == 0;
    }
    return (long)i % k == 0;
}

/* A tick's place, 0..1 along the axis; ticks are in axis units. */
static double axis_pos(const DmkAxis *a, double t)
{
    return (t - a->lo) / (a->hi - a->lo);
}

static double max_label_width(cairo_t *cr, const DmkAxis *a)
{
    double w = 0;
    char buf[64];
    for (size_t i = 0; i < a->n_ticks; i++) {
        dmk_chart_format_tick(a, a->ticks[i], buf, sizeof buf);
        w = fmax(w, dmk_chart_text_width(cr, buf));
    }
    return w;
}

void dmk_chart_axis_fit_labels(DmkChartCtx *c, DmkAxis *a, double length)
{
    dmk_chart_font(c->cr, c->tick_font, DMK_TEXT_REGULAR);
    double need = max_label_width(c->cr, a) + c->tick_font;
    double spacing = length * a->step / (a->hi - a->lo);
    a->label_every = 1;
    while (a->label_every < (int)a->n_ticks && a->label_every * spacing < need)
        a->label_every++;
}

/* On a log value axis, 2 and 5 are labelled only where a line of text
 * fits between 1 and 2 (the closest pair, 0.3 decade apart). */
static void fit_log_labels(DmkChartCtx *c, DmkAxis *a, double length)
{
    dmk_chart_font(c->cr, c->tick_font, DMK_TEXT_REGULAR);
    double gap = length * log10(2) / (a->hi - a->lo);
    a->label_every = gap >= dmk_chart_line_height(c->cr) * 1.15 ? 1 : 2;
}

void dmk_chart_axis_fit_y(DmkChartCtx *c, DmkAxis *a, double length)
{
    if (a->scale == DMK_AXIS_LOG10)
        fit_log_labels(c, a, length);
}

double dmk_chart_y_labels_width(DmkChartCtx *c, const DmkAxis *a)
{
    dmk_chart_font(c->cr, c->tick_font, DMK_TEXT_REGULAR);
    return max_label_width(c->cr, a);
}

double dmk_chart_snap(cairo_t *cr, double v, double line_w)
{
    double sx = 1, sy = 0;
    cairo_user_to_device_distance(cr, &sx, &sy);
    if (!(sx > 0))
        return v;
    /* A line an odd number of device pixels wide is crisp on a pixel's
     * centre, an even one on a pixel's edge. */
    long w = lround(line_w * sx);
    double d = v * sx;
    d = (w % 2) ? floor(d) + 0.5 : round(d);
    return d / sx;
}

static void hline(cairo_t *cr, double x0, double x1, double y, double w)
{
    y = dmk_chart_snap(cr, y, w);
    cairo_set_line_width(cr, w);
    cairo_move_to(cr, x0, y);
    cairo_line_to(cr, x1, y);
    cairo_stroke(cr);
}

static void vline(cairo_t *cr, double x, double y0, double y1, double w)
{
    x = dmk_chart_snap(cr, x, w);
    cairo_set_line_width(cr, w);
    cairo_move_to(cr, x, y0);
    cairo_line_to(cr, x, y1);
    cairo_stroke(cr);
}

void dmk_chart_draw_grid(DmkChartCtx *c, bool vertical)
{
    cairo_t *cr = c->cr;
    const DmkRect *p = &c->plot;
    bool log = c->y.scale == DMK_AXIS_LOG10;
    for (size_t i = log ? 0 : 1; i < c->y.n_ticks; i++) {
        double y = p->y + p->h * (1 - axis_pos(&c->y, c->y.ticks[i]));
        if (log && y > p->y + p->h - 0.5)
            continue; /* on the x axis */
        /* Decades stand out of the 2s and 5s, as on log paper. */
        dmk_chart_set_grey(cr, !log || decade(&c->y, i) ? GRID_GREY : 0.94);
        hline(cr, p->x, p->x + p->w, y, 1);
    }
    if (!vertical)
        return;
    for (size_t i = 0; i < c->x.n_ticks; i++) {
        double x =
            p->x + p->w * dmk_chart_axis_map(&c->x, dmk_chart_tick_value(&c->x, c->x.ticks[i]));
        dmk_chart_set_grey(cr, dmk_chart_tick_labelled(&c->x, i) ? GRID_GREY : 0.94);
        vline(cr, x, p->y, p->y + p->h, 1);
    }
}

/* The tick labels of a y axis: left of the plot, or right of it. */
static void draw_y_labels(DmkChartCtx *c, const DmkAxis *a, bool right)
{
    cairo_t *cr = c->cr;
    const DmkRect *p = &c->plot;
    char buf[64];
    double gap = c->tick_font * 0.6;
    dmk_chart_font(cr, c->tick_font, DMK_TEXT_REGULAR);
    dmk_chart_set_grey(cr, LABEL_GREY);
    for (size_t i = 0; i < a->n_ticks; i++) {
        if (!dmk_chart_tick_labelled(a, i))
            continue;
        double y = p->y + p->h * (1 - axis_pos(a, a->ticks[i]));
        dmk_chart_format_tick(a, a->ticks[i], buf, sizeof buf);
        if (right)
            dmk_chart_text(cr, p->x + p->w + gap, y, 0, 0.5, buf);
        else
            dmk_chart_text(cr, p->x - gap, y, 1, 0.5, buf);
    }
}

static void draw_x_labels(DmkChartCtx *c)
{
    cairo_t *cr = c->cr;
    const DmkRect *p = &c->plot;
    double tick = c->tick_font * 0.4;
    char buf[64];
    dmk_chart_font(cr, c->tick_font, DMK_TEXT_REGULAR);
    for (size_t i = 0; i < c->x.n_ticks; i++) {
        if (!dmk_chart_tick_labelled(&c->x, i))
            continue;
        double x =
            p->x + p->w * dmk_chart_axis_map(&c->x, dmk_chart_tick_value(&c->x, c->x.ticks[i]));
        dmk_chart_set_grey(cr, AXIS_GREY);
        vline(cr, x, p->y + p->h, p->y + p->h + tick, 1);
        dmk_chart_set_grey(cr, LABEL_GREY);
        dmk_chart_format_tick(&c->x, c->x.ticks[i], buf, sizeof buf);
        dmk_chart_text(cr, x, p->y + p->h + tick * 1.5, 0.5, 0, buf);
    }
}

/* A y axis title, read upwards as on the left, against the chart's edge;
 * in a short plot (a small window, 2x scale) it shrinks down to 3/4 of
 * its size before it is cut ("..., log scale" must stay readable). */
static void draw_y_title(DmkChartCtx *c, const char *title, bool right)
{
    cairo_t *cr = c->cr;
    const DmkRect *p = &c->plot;
    char buf[256];
    cairo_save(cr);
    double w = dmk_chart_text_width(cr, title);
    if (w > p->h && w > 0)
        dmk_chart_font(cr, fmax(c->font * 0.75, c->font * p->h / w * 0.98), DMK_TEXT_BOLD);
    dmk_chart_ellipsize(cr, title, p->h, buf, sizeof buf);
    cairo_translate(cr, right ? c->width - c->pad : c->pad, p->y + p->h / 2);
    cairo_rotate(cr, -DMK_CHART_PI / 2);
    dmk_chart_text(cr, 0, 0, 0.5, right ? 1 : 0, buf);
    cairo_restore(cr);
}

/* The one series on the right axis, whose colour the axis title takes so
 * the reader sees which line it measures; -1 when several share it. */
static long right_series(const DmkChartModel *m)
{
    long found = -1;
    for (size_t s = 0; s < m->n_series; s++) {
        if (m->series[s].axis != DMK_Y_RIGHT)
            continue;
        if (found >= 0)
            return -1;
        found = (long)s;
    }
    return found;
}

static void draw_titles(DmkChartCtx *c)
{
    cairo_t *cr = c->cr;
    const DmkRect *p = &c->plot;
    char buf[256];
    dmk_chart_font(cr, c->font, DMK_TEXT_BOLD);
    dmk_chart_set_grey(cr, 0.15);
    if (c->y.scale == DMK_AXIS_LOG10) {
        /* Said on the axis: a reader must not compare bar heights as on a
         * linear one. */
        char t[200];
        if (c->m->y_title[0])
            /* TRANSLATORS: a chart's value axis title: the axis's own title
             * ("MB/s (10^6 B/s)"), then that its scale is logarithmic. */
            snprintf(t, sizeof t, DMK_("%s, log scale"), c->m->y_title);
        else
            snprintf(t, sizeof t, "%s", DMK_("log scale"));
        draw_y_title(c, t, false);
        if (c->probe)
            snprintf(c->probe->y_title, sizeof c->probe->y_title, "%s", t);
    } else if (c->m->y_title[0]) {
        draw_y_title(c, c->m->y_title, false);
        if (c->probe)
            snprintf(c->probe->y_title, sizeof c->probe->y_title, "%s", c->m->y_title);
    }
    if (c->has_y2 && c->m->y2_title[0]) {
        long s = right_series(c->m);
        if (s >= 0)
            dmk_chart_set_series_colour(cr, dmk_chart_look(c->m, (size_t)s), 1);
        draw_y_title(c, c->m->y2_title, true);
        dmk_chart_set_grey(cr, 0.15);
    }
    if (c->m->x_title[0]) {
        dmk_chart_ellipsize(cr, c->m->x_title, p->w, buf, sizeof buf);
        dmk_chart_text(cr, p->x + p->w / 2, p->y + p->h + c->x_band, 0.5, 0, buf);
    }
}

void dmk_chart_draw_axes(DmkChartCtx *c, bool x_labels)
{
    cairo_t *cr = c->cr;
    const DmkRect *p = &c->plot;
    dmk_chart_set_grey(cr, AXIS_GREY);
    vline(cr, p->x, p->y, p->y + p->h, 1);
    hline(cr, p->x, p->x + p->w, p->y + p->h, 1);
    if (c->has_y2)
        vline(cr, p->x + p->w, p->y, p->y + p->h, 1);
    draw_y_labels(c, &c->y, false);
    if (c->has_y2)
        draw_y_labels(c, &c->y2, true);
    if (x_labels)
        draw_x_labels(c);
    draw_titles(c);
}
