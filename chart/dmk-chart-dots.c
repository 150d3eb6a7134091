/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A timeline's dots on screen: thousands of tiny translucent discs.
 * Cairo's scan converter takes about 1.5 us for each (a two-hour run's
 * 7,200 were two thirds of the chart's draw), though each covers a few
 * pixels; here each dot is a pre-computed coverage stamp added into a
 * buffer at the screen's resolution, and the buffer is painted once. The
 * look is that of dmk-chart-lines.c's strokes: the dots of one batch
 * cover their union (here: the most any one of them covers a pixel), and
 * the batches add up as translucent paint does. Exports keep the strokes
 * (a PNG, SVG or PDF of them is what it always was). */
#include "dmk-chart-private.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A dot's centre is placed to a quarter of a device pixel; a stamp's
 * coverage is counted on SUPER x SUPER points per pixel (Cairo's own
 * scan converter resolves 15 rows per pixel). */
#define PHASES 4
#define SUPER  16
/* Beyond this the image is not worth making: the strokes draw it. */
#define MAX_PIXELS (8192 * 8192)

typedef struct {
    int half, side; /* a stamp spans the dot's pixel +- half */
    uint8_t *cov;   /* PHASES x PHASES stamps of side x side, 0-255 */
} Stamps;

/* The share of pixel (u, v) of a stamp within r of (cx, cy). */
static uint8_t coverage(double u, double v, double cx, double cy, double r)
{
    int in = 0;
    for (int b = 0; b < SUPER; b++) {
        double dy = v + (b + 0.5) / SUPER - cy;
        for (int a = 0; a < SUPER; a++) {
            double dx = u + (a + 0.5) / SUPER - cx;
            in += dx * dx + dy * dy <= r * r;
        }
    }
    return (uint8_t)((in * 255 + SUPER * SUPER / 2) / (SUPER * SUPER));
}

static bool stamps_make(Stamps *st, double r)
{
    st->half = (int)ceil(r) + 1;
    st->side = 2 * st->half + 1;
    size_t one = (size_t)st->side * (size_t)st->side;
    st->cov = malloc(one * PHASES * PHASES);
    if (!st->cov)
        return false;
    for (int py = 0; py < PHASES; py++)
        for (int px = 0; px < PHASES; px++) {
            uint8_t *c = st->cov + one * (size_t)(py * PHASES + px);
            /* the dot's centre in the stamp: its pixel, at the phase's middle */
            double cx = st->half + (px + 0.5) / PHASES, cy = st->half + (py + 0.5) / PHASES;
            for (int v = 0; v < st->side; v++)
                for (int u = 0; u < st->side; u++)
                    c[v * st->side + u] = coverage(u, v, cx, cy, r);
        }
    return true;
}

/* The buffer: device pixels (x0, y0) to (x0 + w, y0 + h) of the chart. */
typedef struct {
    int x0, y0, w, h;
    double scale;           /* device pixels per user unit */
    cairo_surface_t *paint; /* A8: the paint so far, as a mask of the series' colour */
    uint8_t *alpha;         /* its pixels, stride apart */
    int stride;
    uint8_t *batch;         /* w apart */
    int bx0, by0, bx1, by1; /* the batch's pixels, [bx0, bx1) x [by0, by1) */
    int ux0, uy0, ux1, uy1; /* all that was painted */
} Layer;

static void box_reset(int *x0, int *y0, int *x1, int *y1)
{
    *x0 = *y0 = INT32_MAX;
    *x1 = *y1 = INT32_MIN;
}

static void stamp(Layer *l, const Stamps *st, double x, double y)
{
    double fx = x * l->scale - l->x0, fy = y * l->scale - l->y0;
    if (!(fabs(fx) < 1e9 && fabs(fy) < 1e9))
        return;
    long qx = (long)floor(fx * PHASES), qy = (long)floor(fy * PHASES);
    long cx = (long)floor((double)qx / PHASES), cy = (long)floor((double)qy / PHASES);
    const uint8_t *c = st->cov + (size_t)st->side * (size_t)st->side *
                                     (size_t)((qy - cy * PHASES) * PHASES + (qx - cx * PHASES));
    long u0 = cx - st->half, v0 = cy - st->half;
    long a0 = u0 < 0 ? -u0 : 0, b0 = v0 < 0 ? -v0 : 0;
    long a1 = u0 + st->side > l->w ? l->w - u0 : st->side;
    long b1 = v0 + st->side > l->h ? l->h - v0 : st->side;
    if (a0 >= a1 || b0 >= b1)
        return;
    for (long b = b0; b < b1; b++) {
        uint8_t *row = l->batch + (size_t)(v0 + b) * (size_t)l->w + (size_t)u0;
        const uint8_t *s = c + b * st->side;
        for (long a = a0; a < a1; a++)
            row[a] = s[a] > row[a] ? s[a] : row[a];
    }
    l->bx0 = (int)fmin(l->bx0, (double)(u0 + a0));
    l->bx1 = (int)fmax(l->bx1, (double)(u0 + a1));
    l->by0 = (int)fmin(l->by0, (double)(v0 + b0));
    l->by1 = (int)fmax(l->by1, (double)(v0 + b1));
}

/* The batch's union, painted at alpha over what is there, as Cairo
 * paints it: 8 bits a pixel, rounded at each batch. */
static void batch_flush(Layer *l, double alpha)
{
    if (l->bx0 >= l->bx1)
        return;
    unsigned k = (unsigned)(alpha * 255 + 0.5);
    for (int y = l->by0; y < l->by1; y++) {
        uint8_t *m = l->batch + (size_t)y * (size_t)l->w;
        uint8_t *a = l->alpha + (size_t)y * (size_t)l->stride;
        for (int x = l->bx0; x < l->bx1; x++) {
            if (!m[x])
                continue;
            unsigned src = (m[x] * k + 127) / 255;
            a[x] = (uint8_t)(src + (a[x] * (255 - src) + 127) / 255);
            m[x] = 0;
        }
    }
    l->ux0 = l->ux0 < l->bx0 ? l->ux0 : l->bx0;
    l->uy0 = l->uy0 < l->by0 ? l->uy0 : l->by0;
    l->ux1 = l->ux1 > l->bx1 ? l->ux1 : l->bx1;
    l->uy1 = l->uy1 > l->by1 ? l->uy1 : l->by1;
    box_reset(&l->bx0, &l->by0, &l->bx1, &l->by1);
}

/* What was painted, in the series' colour (cr's source), onto cr. */
static void layer_paint(const Layer *l, cairo_t *cr)
{
    if (l->ux0 >= l->ux1)
        return;
    cairo_surface_mark_dirty(l->paint);
    cairo_surface_set_device_scale(l->paint, l->scale, l->scale);
    cairo_rectangle(cr, (l->x0 + l->ux0) / l->scale, (l->y0 + l->uy0) / l->scale,
                    (l->ux1 - l->ux0) / l->scale, (l->uy1 - l->uy0) / l->scale);
    cairo_clip(cr);
    cairo_mask_surface(cr, l->paint, l->x0 / l->scale, l->y0 / l->scale);
}

/* Device pixels per user unit: the screen's scale times cr's own (a
 * zoomed chart is drawn scaled); 0 where cr turns or skews. */
static double device_scale(const DmkChartCtx *c)
{
    cairo_matrix_t mx;
    cairo_get_matrix(c->cr, &mx);
    if (mx.xy != 0 || mx.yx != 0 || mx.xx <= 0 || fabs(mx.xx - mx.yy) > 1e-9 * mx.xx)
        return 0;
    return c->screen_scale * mx.xx;
}

/* The buffer over the plot and a dot's reach around it. */
static bool layer_make(Layer *l, const DmkChartCtx *c, double scale, double r)
{
    double m = r + 2;
    *l = (Layer){.scale = scale};
    l->x0 = (int)floor((c->plot.x - m) * scale);
    l->y0 = (int)floor((c->plot.y - m) * scale);
    l->w = (int)ceil((c->plot.x + c->plot.w + m) * scale) - l->x0;
    l->h = (int)ceil((c->plot.y + c->plot.h + m) * scale) - l->y0;
    if (l->w <= 0 || l->h <= 0 || (double)l->w * l->h > MAX_PIXELS)
        return false;
    l->paint = cairo_image_surface_create(CAIRO_FORMAT_A8, l->w, l->h);
    if (cairo_surface_status(l->paint) != CAIRO_STATUS_SUCCESS)
        return false;
    cairo_surface_flush(l->paint);
    l->alpha = cairo_image_surface_get_data(l->paint);
    l->stride = cairo_image_surface_get_stride(l->paint);
    l->batch = calloc((size_t)l->w * (size_t)l->h, 1);
    box_reset(&l->bx0, &l->by0, &l->bx1, &l->by1);
    box_reset(&l->ux0, &l->uy0, &l->ux1, &l->uy1);
    return l->batch != NULL;
}

bool dmk_chart_dots_image(DmkChartCtx *c, size_t s, const DmkChartPoint *p, size_t n)
{
    double scale = device_scale(c);
    Layer l;
    Stamps st = {0};
    bool ok = scale > 0 && layer_make(&l, c, scale, c->dot_r) && stamps_make(&st, c->dot_r * scale);
    for (size_t i = 0, in_batch = 0; ok && i < n; i++) {
        if (!dmk_chart_value_ok(p[i].y))
            continue;
        double x, y;
        dmk_chart_place(c, s, &p[i], &x, &y);
        stamp(&l, &st, x, y);
        if (++in_batch == DMK_CHART_DOT_BATCH) {
            batch_flush(&l, c->dot_alpha);
            in_batch = 0;
        }
    }
    if (ok) {
        batch_flush(&l, c->dot_alpha);
        cairo_save(c->cr);
        dmk_chart_set_series_colour(c->cr, dmk_chart_look(c->m, s), 1);
        layer_paint(&l, c->cr);
        cairo_restore(c->cr);
    }
    if (scale > 0) {
        cairo_surface_destroy(l.paint);
        free(l.batch);
    }
    free(st.cov);
    return ok;
}
