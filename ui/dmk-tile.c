/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-tile.h"

#include "dmk-size.h"
#include "dmk-text.h"

struct _DmkTile {
    GtkWidget parent_instance;
    GtkWidget *meter; /* first child: drawn behind the label */
    GtkWidget *label;
    GtkWidget *badge; /* the honest-number flags: "peak", "QD 8.0 of 32"; hidden when none */
    char *flags_tip;  /* what they mean, appended to the tooltip */
    DmkTest test;
    gboolean has_test;
    DmkStats stats;
    gboolean has_value;
    DmkUnit unit;
    double fraction; /* meter length, 0..1 */
};

G_DEFINE_FINAL_TYPE(DmkTile, dmk_tile, GTK_TYPE_WIDGET)

/* The label decides the size; the meter only fills part of it. A flag
 * badge adds its line below the number. */
static void dmk_tile_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *min,
                             int *nat, int *min_baseline, int *nat_baseline)
{
    DmkTile *self = DMK_TILE(widget);
    gtk_widget_measure(self->label, orientation, for_size, min, nat, min_baseline, nat_baseline);
    if (orientation != GTK_ORIENTATION_VERTICAL || !gtk_widget_get_visible(self->badge))
        return;
    int bmin, bnat;
    gtk_widget_measure(self->badge, orientation, -1, &bmin, &bnat, NULL, NULL);
    *min += bmin;
    *nat += bnat;
    *min_baseline = *nat_baseline = -1;
}

static void dmk_tile_size_allocate(GtkWidget *widget, int width, int height, int baseline)
{
    DmkTile *self = DMK_TILE(widget);
    int meter_width = (int)(self->fraction * width + 0.5);
    gtk_widget_set_child_visible(self->meter, meter_width > 0);
    gtk_widget_allocate(self->meter, meter_width, height, -1, NULL);
    int bh = 0;
    if (gtk_widget_get_visible(self->badge)) {
        gtk_widget_measure(self->badge, GTK_ORIENTATION_VERTICAL, width, NULL, &bh, NULL, NULL);
        bh = bh < height ? bh : height;
        GskTransform *at = gsk_transform_translate(NULL, &GRAPHENE_POINT_INIT(0, height - bh));
        gtk_widget_allocate(self->badge, width, bh, -1, at);
    }
    gtk_widget_allocate(self->label, width, height - bh, bh ? -1 : baseline, NULL);
}

static void dmk_tile_dispose(GObject *object)
{
    DmkTile *self = DMK_TILE(object);
    g_clear_pointer(&self->meter, gtk_widget_unparent);
    g_clear_pointer(&self->label, gtk_widget_unparent);
    g_clear_pointer(&self->badge, gtk_widget_unparent);
    g_clear_pointer(&self->flags_tip, g_free);
    G_OBJECT_CLASS(dmk_tile_parent_class)->dispose(object);
}

static void dmk_tile_class_init(DmkTileClass *klass)
{
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = dmk_tile_dispose;
    widget_class->measure = dmk_tile_measure;
    widget_class->size_allocate = dmk_tile_size_allocate;
    gtk_widget_class_set_css_name(widget_class, "tile");
    gtk_widget_class_set_accessible_role(widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void dmk_tile_init(DmkTile *self)
{
    self->meter = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(self->meter, "meter");
    gtk_widget_set_parent(self->meter, GTK_WIDGET(self));
    self->label = gtk_label_new("0.00");
    gtk_widget_add_css_class(self->label, "value");
    gtk_label_set_xalign(GTK_LABEL(self->label), 1.0);
    /* Eight digits fit, so every tile has one width and numbers never jump. */
    gtk_label_set_width_chars(GTK_LABEL(self->label), 8);
    gtk_widget_set_parent(self->label, GTK_WIDGET(self));
    self->badge = gtk_label_new("");
    gtk_widget_add_css_class(self->badge, "badge");
    gtk_label_set_xalign(GTK_LABEL(self->badge), 0.0);
    gtk_label_set_ellipsize(GTK_LABEL(self->badge), PANGO_ELLIPSIZE_END);
    gtk_widget_set_visible(self->badge, FALSE);
    gtk_widget_set_parent(self->badge, GTK_WIDGET(self));
    gtk_widget_set_overflow(GTK_WIDGET(self), GTK_OVERFLOW_HIDDEN);
}

GtkWidget *dmk_tile_new(void)
{
    return g_object_new(DMK_TYPE_TILE, NULL);
}

/* "SEQ1M Q8T1 Read: 5410.65 MB/s" for screen readers. */
static void update_accessible(DmkTile *self)
{
    const char *text = gtk_label_get_text(GTK_LABEL(self->label));
    const char *flags =
        gtk_widget_get_visible(self->badge) ? gtk_label_get_text(GTK_LABEL(self->badge)) : "";
    char *name = g_strdup_printf("%s %s: %s %s%s%s", self->has_test ? self->test.name : "",
                                 self->has_test ? dmk_text_mode_title(self->test.mode) : "",
                                 self->has_value ? text : "no result",
                                 self->has_value ? dmk_unit_label(self->unit) : "",
                                 flags[0] ? ", " : "", flags);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   g_strstrip(name), -1);
    g_free(name);
}

static void set_class(GtkWidget *w, const char *name, gboolean on);

static void update_tooltip(DmkTile *self)
{
    char *tip = NULL;
    if (self->has_value && self->has_test)
        tip = dmk_text_tooltip(&self->test, &self->stats);
    if (tip && self->flags_tip) {
        char *both = g_strconcat(tip, "\n\n", self->flags_tip, NULL);
        g_free(tip);
        tip = both;
    }
    gtk_widget_set_tooltip_text(GTK_WIDGET(self), tip);
    g_free(tip);
}

static void refresh(DmkTile *self)
{
    char text[48];
    DmkStats zero = {0};
    const DmkStats *s = self->has_value ? &self->stats : &zero;
    dmk_unit_format(self->unit, s, text, sizeof text);
    gtk_label_set_text(GTK_LABEL(self->label), text);
    self->fraction = dmk_unit_meter(self->unit, s);
    update_tooltip(self);
    update_accessible(self);
    gtk_widget_queue_allocate(GTK_WIDGET(self));
}

/* A mixed test's achieved read share where it is 0.1 point or more off
 * the asked one (dmk_pass_share_differs): a marker, and why it matters.
 * Returns whether there was one. */
static gboolean describe_share(const DmkTestResult *t, GString *badge, GString *tip)
{
    char note[48], pct[32];
    uint32_t asked = t->test.jobs[0].read_share;
    if (t->test.mode != DMK_MODE_MIX || !dmk_share_note(&t->score, asked, note, sizeof note)[0])
        return FALSE;
    g_string_append_printf(badge, "%s%s", badge->len ? " \u00b7 " : "", note);
    g_string_append_printf(tip,
                           "%sReads were %s %% of the I/Os the score's pass completed, where "
                           "%u %% was asked: its MB/s are of that mix.",
                           tip->len ? "\n" : "",
                           dmk_format_double(dmk_pass_read_pct(&t->score), 1, pct, sizeof pct),
                           asked);
    return TRUE;
}

/* The flags' markers joined on one line, and their explanations; whether
 * any says the number is off (peak is how every short test is). */
static gboolean describe_flags(const DmkRunResult *r, const DmkTestResult *t, GString *badge,
                               GString *tip)
{
    for (uint32_t bit = 1; bit & DMK_FLAG_ALL; bit <<= 1) {
        char marker[64], why[1024];
        if (!(t->flags & bit))
            continue;
        dmk_flag_describe(r, t, bit, marker, sizeof marker, why, sizeof why);
        g_string_append_printf(badge, "%s%s", badge->len ? " \u00b7 " : "", marker);
        g_string_append_printf(tip, "%s%s", tip->len ? "\n" : "", why);
    }
    gboolean share = describe_share(t, badge, tip);
    return share || (t->flags & ~(uint32_t)DMK_FLAG_PEAK);
}

void dmk_tile_set_flags(DmkTile *self, const DmkRunResult *r, const DmkTestResult *t)
{
    g_return_if_fail(DMK_IS_TILE(self));
    GString *badge = g_string_new(""), *tip = g_string_new("");
    gboolean warn = r && t && describe_flags(r, t, badge, tip);
    gtk_label_set_text(GTK_LABEL(self->badge), badge->str);
    gtk_widget_set_visible(self->badge, badge->len > 0);
    set_class(self->badge, "warn", warn);
    set_class(GTK_WIDGET(self), "flagged", badge->len > 0);
    g_free(self->flags_tip);
    self->flags_tip = tip->len ? g_strdup(tip->str) : NULL;
    g_string_free(badge, TRUE);
    g_string_free(tip, TRUE);
    update_tooltip(self);
    update_accessible(self);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

const char *dmk_tile_get_flags_text(DmkTile *self)
{
    g_return_val_if_fail(DMK_IS_TILE(self), "");
    return gtk_widget_get_visible(self->badge) ? gtk_label_get_text(GTK_LABEL(self->badge)) : "";
}

void dmk_tile_set_test(DmkTile *self, const DmkTest *test)
{
    g_return_if_fail(DMK_IS_TILE(self));
    self->has_test = test != NULL;
    if (test)
        self->test = *test;
    refresh(self);
}

const DmkTest *dmk_tile_get_test(DmkTile *self)
{
    g_return_val_if_fail(DMK_IS_TILE(self), NULL);
    return self->has_test ? &self->test : NULL;
}

void dmk_tile_set_stats(DmkTile *self, const DmkStats *stats)
{
    g_return_if_fail(DMK_IS_TILE(self));
    self->has_value = stats != NULL;
    if (stats)
        self->stats = *stats;
    refresh(self);
}

void dmk_tile_set_unit(DmkTile *self, DmkUnit unit)
{
    g_return_if_fail(DMK_IS_TILE(self));
    self->unit = unit;
    refresh(self);
}

const char *dmk_tile_get_text(DmkTile *self)
{
    g_return_val_if_fail(DMK_IS_TILE(self), "");
    return gtk_label_get_text(GTK_LABEL(self->label));
}

gboolean dmk_tile_has_value(DmkTile *self)
{
    g_return_val_if_fail(DMK_IS_TILE(self), FALSE);
    return self->has_value;
}

static void set_class(GtkWidget *w, const char *name, gboolean on)
{
    if (on)
        gtk_widget_add_css_class(w, name);
    else
        gtk_widget_remove_css_class(w, name);
}

void dmk_tile_set_running(DmkTile *self, gboolean running)
{
    set_class(GTK_WIDGET(self), "running", running);
}

void dmk_tile_set_stale(DmkTile *self, gboolean stale)
{
    set_class(GTK_WIDGET(self), "stale", stale);
}
