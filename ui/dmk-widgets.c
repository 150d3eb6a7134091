/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-widgets.h"

#include <glib/gi18n.h>

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

void dmk_drop_down_show_strings(GtkDropDown *dd)
{
    GtkExpression *e = gtk_property_expression_new(GTK_TYPE_STRING_OBJECT, NULL, "string");
    gtk_drop_down_set_expression(dd, e);
    gtk_expression_unref(e); /* the drop-down holds its own reference */
}

GtkWidget *dmk_action_button_new(const char *label, const char *action, const char *tip)
{
    GtkWidget *b = gtk_button_new_with_mnemonic(label);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), action);
    gtk_widget_set_tooltip_text(b, tip);
    return b;
}

static void dump_label_if_cut(GtkLabel *label, GString *out)
{
    PangoLayout *layout = gtk_label_get_layout(label);
    int lw = 0, lh = 0;
    pango_layout_get_pixel_size(layout, &lw, &lh);
    int w = gtk_widget_get_width(GTK_WIDGET(label)), h = gtk_widget_get_height(GTK_WIDGET(label));
    /* A pixel of slack: Pango's rounding, not a cut glyph. */
    gboolean cut = pango_layout_is_ellipsized(layout) || lh > h + 1 ||
                   (!gtk_label_get_wrap(label) && lw > w + 1);
    if (!cut || !gtk_label_get_text(label)[0])
        return;
    char *one = g_strdelimit(g_strdup(gtk_label_get_text(label)), "\n\t", ' ');
    g_string_append_printf(out, "clipped\t%s\t%dx%d\t%dx%d\n", one, w, h, lw, lh);
    g_free(one);
}

void dmk_widget_dump_clipped(GtkWidget *root, GString *out)
{
    for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
        if (!gtk_widget_get_mapped(c))
            continue;
        if (GTK_IS_LABEL(c))
            dump_label_if_cut(GTK_LABEL(c), out);
        dmk_widget_dump_clipped(c, out);
    }
}

void dmk_start_button_block(GtkWidget *button, const char *why, const char *start_tip)
{
    gtk_widget_set_tooltip_text(button, why ? why : start_tip);
    gtk_widget_set_sensitive(button, why == NULL);
}

void dmk_start_button_set(GtkWidget *button, gboolean running, gboolean mine, const char *stop_tip,
                          const char *start_tip)
{
    gboolean stop = running && mine;
    gtk_button_set_label(GTK_BUTTON(button), stop ? _("Stop") : _("Start"));
    if (stop)
        gtk_widget_add_css_class(button, "stop");
    else
        gtk_widget_remove_css_class(button, "stop");
    gtk_widget_set_tooltip_text(button, stop      ? stop_tip
                                        : running ? _("Another run is under way")
                                                  : start_tip);
    gtk_widget_set_sensitive(button, !running || mine);
}
