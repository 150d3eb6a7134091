/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A PNG of a window as GTK itself renders it (no X server or compositor
 * involved), at the widget's scale factor, so screenshots for tests and
 * documentation look exactly like the screen. */
#ifndef DMK_SCREENSHOT_H
#define DMK_SCREENSHOT_H

#include <gtk/gtk.h>

/* Whether the widget has a render tree to take now: false between a
 * queued redraw and the frame that draws it. */
gboolean dmk_screenshot_ready(GtkWidget *widget);

/* The widget must be realized and laid out (call after a frame). */
gboolean dmk_screenshot_save(GtkWidget *widget, const char *path, GError **error);

/* The node (taken: unreffed here) rendered at width x height logical pixels
 * times scale and written as PNG at path, atomically (dmk-outfile). */
gboolean dmk_screenshot_save_node(GskRenderer *renderer, GskRenderNode *node, int width, int height,
                                  int scale, const char *path, GError **error);

#endif
