/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Export: the same render call on a Cairo image, SVG or PDF surface.
 * Cairo writes through our stream callback rather than to a path, so a
 * failure reports the C library's reason ("Permission denied"), not just
 * Cairo's "error while writing to output stream". */
#include "dmk-chart-private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "dmk-outfile.h"
#include "dmk-version.h"

typedef enum { FMT_NONE, FMT_PNG, FMT_SVG, FMT_PDF } ExportFormat;

typedef struct {
    FILE *f;
    int error; /* errno of the first failed write */
} Sink;

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int length)
{
    Sink *s = closure;
    if (s->error)
        return CAIRO_STATUS_WRITE_ERROR;
    errno = 0;
    if (fwrite(data, 1, length, s->f) != length) {
        s->error = errno ? errno : EIO;
        return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
}

/* ASCII case-insensitive: the C locale's tolower could differ. */
static bool ext_is(const char *ext, const char *want)
{
    for (; *ext && *want; ext++, want++) {
        char a = *ext >= 'A' && *ext <= 'Z' ? (char)(*ext - 'A' + 'a') : *ext;
        if (a != *want)
            return false;
    }
    return *ext == '\0' && *want == '\0';
}

static ExportFormat format_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash))
        return FMT_NONE;
    if (ext_is(dot + 1, "png"))
        return FMT_PNG;
    if (ext_is(dot + 1, "svg"))
        return FMT_SVG;
    if (ext_is(dot + 1, "pdf"))
        return FMT_PDF;
    return FMT_NONE;
}

static int cairo_error(DmkError *err, const char *path, cairo_status_t st)
{
    int code = st == CAIRO_STATUS_NO_MEMORY ? DMK_E_NOMEM : DMK_E_IO;
    return dmk_error_set(err, code, 0, "Cannot export the chart to \"%s\": %s", path,
                         cairo_status_to_string(st));
}

/* What goes in one file: one chart, or a grid of them (cols x rows cells
 * of cell_w x cell_h, row by row; a NULL model leaves a blank cell). */
typedef struct {
    const DmkChartModel *const *models;
    size_t n;
    int cols, rows;
    int cell_w, cell_h;
} Page;

static int page_width(const Page *p)
{
    return p->cols * p->cell_w;
}

static int page_height(const Page *p)
{
    return p->rows * p->cell_h;
}

static bool any_model(const Page *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->models[i])
            return true;
    return false;
}

/* The document's title: the first chart's. */
static const char *page_title(const Page *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->models[i])
            return p->models[i]->title;
    return "";
}

static cairo_surface_t *vector_surface(ExportFormat fmt, Sink *sink, const Page *p)
{
    int width = page_width(p), height = page_height(p);
    if (fmt == FMT_SVG) {
        cairo_surface_t *s = cairo_svg_surface_create_for_stream(sink_write, sink, width, height);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
        /* Pixels: a web page shows the chart at the size it was drawn. */
        cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
#endif
        return s;
    }
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(sink_write, sink, width, height);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
    if (page_title(p)[0])
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, page_title(p));
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "Drivemark " DMK_VERSION);
#endif
    return s;
}

static cairo_surface_t *create_surface(ExportFormat fmt, Sink *sink, const Page *p, double scale)
{
    if (fmt != FMT_PNG)
        return vector_surface(fmt, sink, p);
    cairo_surface_t *s =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)lround(page_width(p) * scale),
                                   (int)lround(page_height(p) * scale));
    /* Device scale: a 2x PNG has the 1x layout with twice the pixels. */
    cairo_surface_set_device_scale(s, scale, scale);
    return s;
}

static cairo_status_t draw_into(cairo_surface_t *s, const Page *p)
{
    cairo_t *cr = cairo_create(s);
    if (p->n < (size_t)p->cols * (size_t)p->rows) {
        /* Blank cells are white like the charts, not transparent. */
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
    }
    for (size_t i = 0; i < p->n; i++) {
        if (!p->models[i])
            continue;
        cairo_save(cr);
        cairo_translate(cr, (double)(i % (size_t)p->cols) * p->cell_w,
                        (double)(i / (size_t)p->cols) * p->cell_h);
        dmk_chart_render(cr, p->cell_w, p->cell_h, p->models[i]);
        cairo_restore(cr);
    }
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    return st;
}

static cairo_status_t write_surface(ExportFormat fmt, cairo_surface_t *s, Sink *sink)
{
    if (fmt == FMT_PNG)
        return cairo_surface_write_to_png_stream(s, sink_write, sink);
    cairo_surface_finish(s);
    return cairo_surface_status(s);
}

static int check_args(const Page *p, const char *path, double scale, DmkError *err)
{
    if (!path || !path[0])
        return dmk_error_set(err, DMK_E_INVAL, 0, "No file name given for the chart");
    if (!p->models || !any_model(p))
        return dmk_error_set(err, DMK_E_INVAL, 0, "No chart to export to \"%s\"", path);
    if (p->cols < 1)
        return dmk_error_set(err, DMK_E_INVAL, 0, "Cannot export the charts to \"%s\": %d columns",
                             path, p->cols);
    if (p->cell_w < 1 || p->cell_h < 1 || p->cell_w > 16384 / p->cols ||
        p->cell_h > 16384 / p->rows)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "Cannot export the chart to \"%s\": size %dx%d is not in 1..16384",
                             path, p->cell_w * p->cols, p->cell_h * p->rows);
    if (!(scale >= 0.25 && scale <= 8))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "Cannot export the chart to \"%s\": scale must be 0.25..8", path);
    if (format_of(path) == FMT_NONE)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "Cannot export the chart to \"%s\": the name must end in .png, "
                             ".svg or .pdf",
                             path);
    return DMK_OK;
}

static int export_to(const Page *p, const char *path, ExportFormat fmt, Sink *sink, double scale,
                     DmkError *err)
{
    cairo_surface_t *s = create_surface(fmt, sink, p, scale);
    cairo_status_t st = cairo_surface_status(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = draw_into(s, p);
    if (st == CAIRO_STATUS_SUCCESS)
        st = write_surface(fmt, s, sink);
    cairo_surface_destroy(s);
    if (sink->error)
        return dmk_error_errno(err, sink->error, "Cannot write the chart to \"%s\"", path);
    if (st != CAIRO_STATUS_SUCCESS)
        return cairo_error(err, path, st);
    return DMK_OK;
}

static int export_page(const Page *p, const char *path, double scale, DmkError *err)
{
    int rc = check_args(p, path, scale, err);
    if (rc != DMK_OK)
        return rc;
    if (format_of(path) != FMT_PNG)
        scale = 1;
    /* A new file renamed over the old chart only when complete; a device
     * under a chart's name (/dev/full as x.png) is written to, never
     * removed; a FIFO with no reader is refused (dmk-outfile.h). */
    DmkOutFile out;
    rc = dmk_outfile_check(&out, path, err);
    if (rc == DMK_OK)
        rc = dmk_outfile_begin(&out, err);
    if (rc != DMK_OK) {
        dmk_outfile_abort(&out);
        return rc;
    }
    Sink sink = {out.f, 0};
    rc = export_to(p, path, format_of(path), &sink, scale, err);
    if (rc != DMK_OK) {
        dmk_outfile_fail(&out, err);
        return rc;
    }
    return dmk_outfile_commit(&out, err);
}

int dmk_chart_export(const DmkChartModel *m, const char *path, int width, int height, double scale,
                     DmkError *err)
{
    const DmkChartModel *one[1] = {m};
    Page p = {one, 1, 1, 1, width, height};
    return export_page(&p, path, scale, err);
}

int dmk_chart_export_grid(const DmkChartModel *const *models, size_t n, int cols, const char *path,
                          int width, int height, double scale, DmkError *err)
{
    Page p = {models, n, cols, 1, width, height};
    if (cols >= 1 && n > 0)
        p.rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
    return export_page(&p, path, scale, err);
}
