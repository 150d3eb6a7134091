/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Small widget helpers the window's tabs share, so each looks and behaves
 * the same wherever it appears. */
#ifndef DMK_WIDGETS_H
#define DMK_WIDGETS_H

#include <gtk/gtk.h>

/* The centred "nothing here yet" box of the Sweep and Lab tabs; *title
 * and *text get its two labels (set with gtk_label_set_text). */
GtkWidget *dmk_empty_state_new(GtkWidget **title, GtkWidget **text);

/* A drop-down over a GtkStringList shows its strings (and gets the default
 * factory for them); set before the model. */
void dmk_drop_down_show_strings(GtkDropDown *dd);

/* A button that activates a window action ("win.export-chart"). */
GtkWidget *dmk_action_button_new(const char *label, const char *action, const char *tip);

/* A tab's Start button: "Stop" while its own run goes on, insensitive
 * while another tab's run does; the tooltips say which. */
/* A start button that cannot start (not running): insensitive, its
 * tooltip saying why; why NULL puts it back with start_tip. */
/* Tests: "clipped TEXT WIDTHxHEIGHT LAYOUT-WxH" for every label shown
 * under root whose text is cut: ellipsized, taller than its allocation,
 * or (not wrapping) wider. */
void dmk_widget_dump_clipped(GtkWidget *root, GString *out);

void dmk_start_button_block(GtkWidget *button, const char *why, const char *start_tip);
void dmk_start_button_set(GtkWidget *button, gboolean running, gboolean mine, const char *stop_tip,
                          const char *start_tip);

#endif
