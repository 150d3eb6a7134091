/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File > Save Text (CrystalDiskMark's text result, the same as Copy) and
 * Save Image (the tab shown with the run's context under it, the forum
 * post habit), both written through dmk-outfile: a file is replaced only
 * once the new one is complete. */
#include "dmk-window-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "dmk-lab-view.h"
#include "dmk-outfile.h"
#include "dmk-plot.h"
#include "dmk-screenshot.h"
#include "dmk-size.h"
#include "dmk-text.h"
#include "dmk-version.h"

char *_dmk_window_result_text(const DmkRunResult *r)
{
    /* A lab result's words are its findings, not a table of tiles. */
    return r->lab[0] ? dmk_lab_report_text(r) : dmk_text_report(r);
}

gboolean _dmk_window_compare_shown(DmkWindow *self)
{
    GtkWidget *page =
        gtk_notebook_get_nth_page(self->notebook, gtk_notebook_get_current_page(self->notebook));
    return page && page == GTK_WIDGET(self->compare_view);
}

char *_dmk_window_shown_text(DmkWindow *self)
{
    if (_dmk_window_compare_shown(self))
        return dmk_compare_view_text(self->compare_view);
    const DmkRunResult *r = dmk_window_get_result(self);
    return r ? _dmk_window_result_text(r) : NULL;
}

/* ---- Save Text ----------------------------------------------------------------- */

typedef struct {
    const char *text, *path;
} TextJob;

static int write_text(FILE *f, void *ctx, DmkError *err)
{
    const TextJob *job = ctx;
    size_t len = strlen(job->text);
    errno = 0;
    if (len && fwrite(job->text, 1, len, f) != len)
        return dmk_error_errno(err, errno ? errno : EIO, "writing the text %s failed", job->path);
    return DMK_OK;
}

gboolean dmk_window_save_text(DmkWindow *self, const char *path, GError **error)
{
    char *text = _dmk_window_shown_text(self);
    if (!text) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there are no results to save yet"));
        return FALSE;
    }
    TextJob job = {text, path};
    DmkError err = {0};
    int rc = dmk_outfile_write(path, write_text, &job, &err);
    g_free(text);
    if (rc != DMK_OK)
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, err.msg);
    return rc == DMK_OK;
}

/* ---- Save Image ----------------------------------------------------------------- */

#define IMAGE_PAD 8

/* "Drivemark 1.2 · Samsung SSD 980 PRO 1TB, 2026-12-01 22:40 · 1 GiB test
 * file in /data · comment": the run's, or before any run what the next
 * one would use. */
static char *context_line(DmkWindow *self)
{
    const DmkRunResult *r = dmk_window_get_result(self);
    char label[512], area[1400], size[32];
    const char *comment;
    if (r) {
        dmk_result_label(r, true, label, sizeof label);
        dmk_result_area(r, area, sizeof area);
        if (r->target.path[0] && !r->target.is_device) {
            size_t n = strlen(area);
            /* TRANSLATORS: after the run's test area in a saved image's context
             * line ("1 GiB test file"); %s is a folder. */
            g_snprintf(area + n, sizeof area - n, _(" in %s"), r->target.path);
        }
        comment = r->comment;
    } else {
        GDateTime *now = g_date_time_new_now_local();
        char *date = g_date_time_format(now, "%Y-%m-%d %H:%M");
        g_strlcpy(label, date, sizeof label);
        g_free(date);
        g_date_time_unref(now);
        dmk_format_size(g_settings_get_uint64(self->settings, "test-size"), size, sizeof size);
        const char *dir = _dmk_window_target_path(self);
        /* TRANSLATORS: a saved image's context line: a size (1 GiB), a folder. */
        g_snprintf(area, sizeof area, _("%s test file in %s"), size, dir ? dir : "?");
        comment = gtk_editable_get_text(GTK_EDITABLE(self->comment_entry));
    }
    GString *s = g_string_new("Drivemark " DMK_VERSION);
    if (label[0])
        g_string_append_printf(s, " \u00b7 %s", label);
    g_string_append_printf(s, " \u00b7 %s", area);
    if (comment && comment[0])
        g_string_append_printf(s, " \u00b7 %s", comment);
    return g_string_free(s, FALSE);
}

static GtkWidget *shown_page(DmkWindow *self)
{
    return gtk_notebook_get_nth_page(self->notebook, gtk_notebook_get_current_page(self->notebook));
}

/* The page as drawn, on the window's background, and the context under
 * it in the page's text colour. */
static GskRenderNode *image_node(DmkWindow *self, GtkWidget *page, int w, int h, int scale,
                                 int *total_h)
{
    char *line = context_line(self);
    PangoLayout *layout = gtk_widget_create_pango_layout(page, line);
    g_free(line);
    pango_layout_set_width(layout, (w - 2 * IMAGE_PAD) * PANGO_SCALE);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    int lw = 0, lh = 0;
    pango_layout_get_pixel_size(layout, &lw, &lh);
    *total_h = h + lh + 2 * IMAGE_PAD;
    GdkRGBA bg = {1, 1, 1, 1}, fg = {0, 0, 0, 1};
    GtkStyleContext *sc = gtk_widget_get_style_context(GTK_WIDGET(self));
    gtk_style_context_lookup_color(sc, "theme_bg_color", &bg);
    gtk_style_context_get_color(gtk_widget_get_style_context(page), &fg);
    GtkSnapshot *snap = gtk_snapshot_new();
    if (scale != 1)
        gtk_snapshot_scale(snap, (float)scale, (float)scale);
    gtk_snapshot_append_color(snap, &bg, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)*total_h));
    dmk_plot_offscreen_begin(); /* every chart drawn, none put off */
    GdkPaintable *paintable = gtk_widget_paintable_new(page);
    gdk_paintable_snapshot(paintable, snap, w, h);
    g_object_unref(paintable);
    dmk_plot_offscreen_end();
    gtk_snapshot_translate(snap, &GRAPHENE_POINT_INIT(IMAGE_PAD, (float)(h + IMAGE_PAD)));
    gtk_snapshot_append_layout(snap, layout, &fg);
    g_object_unref(layout);
    return gtk_snapshot_free_to_node(snap);
}

gboolean dmk_window_save_image(DmkWindow *self, const char *path, GError **error)
{
    GtkWidget *page = shown_page(self);
    GtkNative *native = gtk_widget_get_native(GTK_WIDGET(self));
    GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
    int w = page ? gtk_widget_get_width(page) : 0, h = page ? gtk_widget_get_height(page) : 0;
    int scale = gtk_widget_get_scale_factor(GTK_WIDGET(self));
    if (!renderer || w <= 2 * IMAGE_PAD || h <= 0) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                    _("the window is not shown yet, so there is no picture of it to save"));
        return FALSE;
    }
    int total_h = h;
    GskRenderNode *node = image_node(self, page, w, h, scale, &total_h);
    return dmk_screenshot_save_node(renderer, node, w, total_h, scale, path, error);
}

/* ---- the dialogs ---------------------------------------------------------------- */

typedef gboolean (*SaveFn)(DmkWindow *self, const char *path, GError **error);

static void on_save_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    SaveFn save = (SaveFn)g_object_get_data(G_OBJECT(dialog), "dmk-save");
    gboolean image = g_object_get_data(G_OBJECT(dialog), "dmk-image") != NULL;
    GFile *file = response == GTK_RESPONSE_ACCEPT
                      ? gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog))
                      : NULL;
    char *path = file ? g_file_get_path(file) : NULL;
    GError *error = NULL;
    if (path && !save(self, path, &error)) {
        _dmk_window_show_problem(
            self, image ? _("The image could not be saved") : _("The text could not be saved"),
            error->message);
        g_error_free(error);
    } else if (path) {
        char *name = g_filename_display_name(path);
        /* TRANSLATORS: the status line; %s is a file's name. */
        char *status = image ? g_strdup_printf(_("Saved the image to %s"), name)
                             /* TRANSLATORS: the status line; %s is a file's name. */
                             : g_strdup_printf(_("Saved the text to %s"), name);
        _dmk_window_set_status(self, status);
        g_free(status);
        g_free(name);
    }
    g_free(path);
    g_clear_object(&file);
    g_object_unref(dialog);
    g_object_unref(self);
}

static void ask_path(DmkWindow *self, const char *title, gboolean image, const char *filter_name,
                     const char *pattern, const char *ext, SaveFn save)
{
    GtkFileChooserNative *d = gtk_file_chooser_native_new(
        title, GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(d), TRUE);
    GtkFileFilter *f = gtk_file_filter_new();
    gtk_file_filter_set_name(f, filter_name);
    gtk_file_filter_add_pattern(f, pattern);
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), f);
    g_object_unref(f);
    GDateTime *now = g_date_time_new_now_local();
    char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
    char *name = g_strdup_printf("drivemark-%s.%s", stamp, ext);
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), name);
    g_free(name);
    g_free(stamp);
    g_date_time_unref(now);
    g_object_set_data(G_OBJECT(d), "dmk-save", (gpointer)save);
    g_object_set_data(G_OBJECT(d), "dmk-image", GINT_TO_POINTER(image));
    g_signal_connect(d, "response", G_CALLBACK(on_save_response), g_object_ref(self));
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static void act_save_text(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    if (dmk_window_get_result(self) || _dmk_window_compare_shown(self))
        ask_path(self, _("Save Results as Text"), FALSE, _("Text (*.txt)"), "*.txt", "txt",
                 dmk_window_save_text);
}

static void act_save_image(GSimpleAction *a, GVariant *p, gpointer self)
{
    (void)a;
    (void)p;
    ask_path(self, _("Save Image"), TRUE, _("PNG image (*.png)"), "*.png", "png",
             dmk_window_save_image);
}

void _dmk_window_add_export_actions(DmkWindow *self)
{
    static const GActionEntry entries[] = {
        {"save-text", act_save_text, NULL, NULL, NULL, {0}},
        {"save-image", act_save_image, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
}
