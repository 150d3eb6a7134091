/* The centred "nothing here yet" box of the Sweep and Lab tabs: a title
 * and a wrapped explanation, styled by resources/style.css. */
#ifndef DMK_EMPTY_STATE_H
#define DMK_EMPTY_STATE_H

#include <gtk/gtk.h>

/* The box; *title and *text get its two labels (set with gtk_label_set_text). */
GtkWidget *dmk_empty_state_new(GtkWidget **title, GtkWidget **text);

#endif
