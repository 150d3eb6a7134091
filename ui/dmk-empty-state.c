#include "dmk-empty-state.h"

GtkWidget *dmk_empty_state_new(GtkWidget **title, GtkWidget **text)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_valign(box, GTK_ALIGN_CENTER);
    gtk_widget_add_css_class(box, "empty-state");
    *title = gtk_label_new("");
    *text = gtk_label_new("");
    /* A readable measure: the explanation wraps at about 50 characters. */
    gtk_label_set_wrap(GTK_LABEL(*text), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(*text), 50);
    gtk_label_set_justify(GTK_LABEL(*text), GTK_JUSTIFY_CENTER);
    gtk_widget_add_css_class(*title, "empty-title");
    gtk_widget_add_css_class(*text, "result-context");
    gtk_box_append(GTK_BOX(box), *title);
    gtk_box_append(GTK_BOX(box), *text);
    return box;
}
