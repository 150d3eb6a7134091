/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the chart tests (test-chart.c, test-chart-lab.c) share: the
 * renderer's palette, a model drawn on an image surface and its pixels
 * counted, and the files an export writes read back. */
#ifndef DMK_CHART_PIXELS_H
#define DMK_CHART_PIXELS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "dmk-chart-private.h"
#include "dmk-test.h"

/* The renderer's palette, as RGB24 pixels. */
static const uint32_t series_rgb[8] = {0x1e7b34, 0xe08214, 0x2c5fa8, 0xc0392b,
                                       0x7b4fa0, 0x17a2b8, 0x8c6a2f, 0x333333};

/* $DMK_TEST_TMPDIR, made if need be, or the current directory. */
static inline const char *tmp_dir(void)
{
    const char *d = getenv("DMK_TEST_TMPDIR");
    if (!d || !d[0])
        return ".";
    dmk_test_mkdir(d);
    return d;
}

static inline cairo_surface_t *draw(const DmkChartModel *m, int w, int h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    dmk_chart_render(cr, w, h, m);
    DMK_CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static inline uint32_t pixel(cairo_surface_t *s, int x, int y)
{
    const unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    return *(const uint32_t *)(d + (size_t)y * (size_t)stride + (size_t)x * 4) & 0xffffff;
}

/* Pixels of colour rgb in the columns x0 to x1 - 1. */
static inline size_t count_rgb_in(cairo_surface_t *s, uint32_t rgb, int x0, int x1)
{
    size_t n = 0;
    int h = cairo_image_surface_get_height(s);
    for (int y = 0; y < h; y++)
        for (int x = x0; x < x1; x++)
            n += pixel(s, x, y) == rgb;
    return n;
}

/* Pixels of colour rgb in the whole picture. */
static inline size_t count_rgb(cairo_surface_t *s, uint32_t rgb)
{
    return count_rgb_in(s, rgb, 0, cairo_image_surface_get_width(s));
}

static inline size_t count_non_white(cairo_surface_t *s, int x0, int y0, int x1, int y1)
{
    size_t n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            n += pixel(s, x, y) != 0xffffff;
    return n;
}

/* The first cap bytes of a file (fewer if it is shorter, 0 if missing). */
static inline size_t read_head(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static inline uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#endif
