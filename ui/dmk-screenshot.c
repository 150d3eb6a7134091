/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-screenshot.h"

#include <errno.h>
#include <glib/gi18n.h>

#include "dmk-outfile.h"
#include "dmk-plot.h"

typedef struct {
    GBytes *png;
    const char *path;
} PngJob;

static int write_png(FILE *f, void *ctx, DmkError *err)
{
    const PngJob *job = ctx;
    gsize len = 0;
    const void *data = g_bytes_get_data(job->png, &len);
    errno = 0;
    if (len && fwrite(data, 1, len, f) != len)
        return dmk_error_errno(err, errno ? errno : EIO, "writing the screenshot %s failed",
                               job->path);
    return DMK_OK;
}

/* The widget's render tree, scaled up by the scale factor so a 200 %
 * screen gives a 200 % picture (a paintable is drawn in logical pixels). */
static GskRenderNode *render_node(GtkWidget *widget, int width, int height, int scale)
{
    /* Charts whose first draw waits for a frame are drawn in this one. */
    dmk_plot_offscreen_begin();
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    if (scale != 1)
        gtk_snapshot_scale(snapshot, (float)scale, (float)scale);
    gdk_paintable_snapshot(paintable, snapshot, width, height);
    g_object_unref(paintable);
    dmk_plot_offscreen_end();
    return gtk_snapshot_free_to_node(snapshot);
}

gboolean dmk_screenshot_ready(GtkWidget *widget)
{
    int width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0)
        return FALSE;
    GskRenderNode *node = render_node(widget, width, height, 1);
    if (node)
        gsk_render_node_unref(node);
    return node != NULL;
}

gboolean dmk_screenshot_save(GtkWidget *widget, const char *path, GError **error)
{
    int width = gtk_widget_get_width(widget);
    int height = gtk_widget_get_height(widget);
    int scale = gtk_widget_get_scale_factor(widget);
    GtkNative *native = gtk_widget_get_native(widget);
    GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
    if (!renderer || width <= 0 || height <= 0) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                    _("the window is not shown yet, so there is nothing to take a screenshot of"));
        return FALSE;
    }
    GskRenderNode *node = render_node(widget, width, height, scale);
    if (!node) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, _("the window drew nothing"));
        return FALSE;
    }
    return dmk_screenshot_save_node(renderer, node, width, height, scale, path, error);
}

/* The texture of a node, encoded as PNG and written to path. */
static gboolean save_texture(GdkTexture *texture, const char *path, GError **error)
{
    /* Encoded in memory, then written like every file the program makes:
     * to a temporary file renamed over the old one when complete. */
    GBytes *png = gdk_texture_save_to_png_bytes(texture);
    DmkError err = {0};
    PngJob job = {png, path};
    int rc = png ? dmk_outfile_write(path, write_png, &job, &err)
                 : dmk_error_set(&err, DMK_E_NOMEM, 0, "encoding the image %s failed", path);
    if (png)
        g_bytes_unref(png);
    if (rc != DMK_OK)
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, err.msg);
    return rc == DMK_OK;
}

gboolean dmk_screenshot_save_node(GskRenderer *renderer, GskRenderNode *node, int width, int height,
                                  int scale, const char *path, GError **error)
{
    graphene_rect_t viewport =
        GRAPHENE_RECT_INIT(0, 0, (float)(width * scale), (float)(height * scale));
    GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &viewport);
    gsk_render_node_unref(node);
    gboolean ok = save_texture(texture, path, error);
    g_object_unref(texture);
    return ok;
}
