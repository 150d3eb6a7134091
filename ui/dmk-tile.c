/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-tile.h"

#include <glib/gi18n.h>

#include "dmk-size.h"
#include "dmk-text.h"

/* What the number shown is: the tile's own score or not. */
typedef enum {
    DMK_TILE_EMPTY,    /* "0.00": nothing measured yet */
    DMK_TILE_MEASURED, /* stats: a run's score */
    DMK_TILE_STALE,    /* stats: the previous run's, about to be measured again */
    DMK_TILE_LIVE,     /* live: the test under way, as it goes */
    DMK_TILE_PARTIAL,  /* live: the run ended during the test; not a result */
    DMK_TILE_SKIPPED,  /* "\u2014": the run ended before the test */
    DMK_TILE_BLOCKED,  /* "\u2014": the target allows no such test (why on the badge) */
} DmkTileState;

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
    DmkTileState state;
    DmkStats live; /* the live (and then partial) figure */
    char *note;    /* what the state means, before the tooltip's figures */
    DmkUnit unit;
    double fraction;     /* meter length, 0..1 */
    GtkWidget *progress; /* the test's progress along the foot; hidden when < 0 */
    double progress_fraction;
    double text_scale; /* how much bigger than its CSS size the number is drawn */
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
    /* The badge wraps in a narrow tile: its height for the tile's width. */
    gtk_widget_measure(self->badge, orientation, for_size, &bmin, &bnat, NULL, NULL);
    *min += bmin;
    *nat += bnat;
    *min_baseline = *nat_baseline = -1;
}

/* A badge wraps in a narrow tile (a sweep's), so the tile's height
 * depends on its width: GTK measures a constant-size widget once, for any
 * width, which gave a wrapped badge one line's height over the number. */
static GtkSizeRequestMode dmk_tile_get_request_mode(GtkWidget *widget)
{
    (void)widget;
    return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* A bar 3 px high along the foot, over the badge; its length the test's
 * progress. */
static void allocate_progress(DmkTile *self, int width, int height)
{
    gboolean shown = self->progress_fraction >= 0;
    int len = shown ? (int)(self->progress_fraction * width + 0.5) : 0;
    int ph = height < 3 ? height : 3;
    gtk_widget_set_child_visible(self->progress, len > 0);
    GskTransform *at = gsk_transform_translate(NULL, &GRAPHENE_POINT_INIT(0, height - ph));
    gtk_widget_allocate(self->progress, len, ph, -1, at);
}

/* CrystalDiskMark's numbers grow with a maximised window: the number is
 * drawn scaled to fill the tile's height (or its width, whichever is
 * less), up to this. Scaled as drawn, not by its font: the tile's size
 * request stays the CSS font's, so the window can shrink again. */
#define MAX_TEXT_SCALE 2.5
#define TEXT_SHARE     0.5

static void allocate_label(DmkTile *self, int width, int height, int baseline)
{
    int nat_w = 1, nat_h = 1;
    gtk_widget_measure(self->label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat_w, NULL, NULL);
    gtk_widget_measure(self->label, GTK_ORIENTATION_VERTICAL, -1, NULL, &nat_h, NULL, NULL);
    /* The number takes up to half the tile's height, as CrystalDiskMark's:
     * at the window's own size it keeps its CSS size. */
    double s = MIN(TEXT_SHARE * height / MAX(nat_h, 1), (double)width / MAX(nat_w, 1));
    self->text_scale = CLAMP(s, 1.0, MAX_TEXT_SCALE);
    if (self->text_scale <= 1.0) {
        gtk_widget_allocate(self->label, width, height, baseline, NULL);
        return;
    }
    s = self->text_scale;
    int w = MAX((int)(width / s), nat_w), h = MAX((int)(height / s), nat_h);
    gtk_widget_allocate(self->label, w, h, -1, gsk_transform_scale(NULL, (float)s, (float)s));
}

double dmk_tile_get_text_scale(DmkTile *self)
{
    return self->text_scale > 0 ? self->text_scale : 1.0;
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
    allocate_label(self, width, height - bh, bh ? -1 : baseline);
    allocate_progress(self, width, height);
}

static void dmk_tile_dispose(GObject *object)
{
    DmkTile *self = DMK_TILE(object);
    g_clear_pointer(&self->meter, gtk_widget_unparent);
    g_clear_pointer(&self->label, gtk_widget_unparent);
    g_clear_pointer(&self->badge, gtk_widget_unparent);
    g_clear_pointer(&self->progress, gtk_widget_unparent);
    g_clear_pointer(&self->flags_tip, g_free);
    g_clear_pointer(&self->note, g_free);
    G_OBJECT_CLASS(dmk_tile_parent_class)->dispose(object);
}

static void dmk_tile_class_init(DmkTileClass *klass)
{
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = dmk_tile_dispose;
    widget_class->get_request_mode = dmk_tile_get_request_mode;
    widget_class->measure = dmk_tile_measure;
    widget_class->size_allocate = dmk_tile_size_allocate;
    gtk_widget_class_set_css_name(widget_class, "tile");
    gtk_widget_class_set_accessible_role(widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static gboolean on_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard,
                                 GtkTooltip *tooltip, gpointer data);

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
    /* Wrapped, never cut: "peak · QD 1.8 of 8" in a narrow tile. */
    gtk_label_set_wrap(GTK_LABEL(self->badge), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(self->badge), PANGO_WRAP_WORD_CHAR);
    gtk_widget_set_visible(self->badge, FALSE);
    gtk_widget_set_parent(self->badge, GTK_WIDGET(self));
    self->progress = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(self->progress, "progress");
    gtk_widget_set_parent(self->progress, GTK_WIDGET(self));
    self->progress_fraction = -1;
    gtk_widget_set_overflow(GTK_WIDGET(self), GTK_OVERFLOW_HIDDEN);
    gtk_widget_set_has_tooltip(GTK_WIDGET(self), TRUE);
    g_signal_connect(self, "query-tooltip", G_CALLBACK(on_query_tooltip), NULL);
}

GtkWidget *dmk_tile_new(void)
{
    return g_object_new(DMK_TYPE_TILE, NULL);
}

/* The figure the number is of: the score, the live one, or none. */
static const DmkStats *shown_stats(DmkTile *self)
{
    switch (self->state) {
    case DMK_TILE_MEASURED:
    case DMK_TILE_STALE:
        return &self->stats;
    case DMK_TILE_LIVE:
    case DMK_TILE_PARTIAL:
        return &self->live;
    default:
        return NULL;
    }
}

static gboolean shows_number(DmkTile *self)
{
    return shown_stats(self) != NULL;
}

/* "SEQ1M Q8T1 Read: 5410.65 MB/s" for screen readers. */
static void update_accessible(DmkTile *self)
{
    const char *text = gtk_label_get_text(GTK_LABEL(self->label));
    const char *flags =
        gtk_widget_get_visible(self->badge) ? gtk_label_get_text(GTK_LABEL(self->badge)) : "";
    const char *test = self->has_test ? self->test.name : "";
    const char *mode = self->has_test ? dmk_text_mode_title(self->test.mode) : "";
    char *name;
    if (shows_number(self))
        /* TRANSLATORS: a result tile for screen readers: the test's name
         * ("SEQ1M Q8T1"), its direction ("Read"), the number, its unit. */
        name = g_strdup_printf(_("%1$s %2$s: %3$s %4$s"), test, mode, text,
                               dmk_unit_label(self->unit));
    else
        /* TRANSLATORS: a result tile without a number, for screen readers. */
        name = g_strdup_printf(_("%1$s %2$s: no result"), test, mode);
    if (flags[0]) {
        char *with = g_strdup_printf("%s, %s", name, flags);
        g_free(name);
        name = with;
    }
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   g_strstrip(name), -1);
    g_free(name);
}

static void set_class(GtkWidget *w, const char *name, gboolean on);

/* The state's note ("Previous run's value..."), then the figures, then
 * the flags' explanations. */
char *dmk_tile_dup_tooltip(DmkTile *self)
{
    g_return_val_if_fail(DMK_IS_TILE(self), NULL);
    GString *tip = g_string_new(self->note ? self->note : "");
    const DmkStats *s = shown_stats(self);
    if (s && self->has_test) {
        char *figures = dmk_text_tooltip(&self->test, s);
        g_string_append_printf(tip, "%s%s", tip->len ? "\n\n" : "", figures);
        g_free(figures);
    }
    if (self->flags_tip && (self->state == DMK_TILE_MEASURED || self->state == DMK_TILE_STALE))
        g_string_append_printf(tip, "%s%s", tip->len ? "\n\n" : "", self->flags_tip);
    return g_string_free(tip, tip->len == 0);
}

/* Made when GTK asks, not on each change: gtk_widget_set_tooltip_text
 * looks for the pointer to see whether the tooltip is up, an X round
 * trip, and a live tile changes several times a second. A tooltip that
 * is up shows the new figures when the pointer next moves. */
static gboolean on_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard,
                                 GtkTooltip *tooltip, gpointer data)
{
    (void)x, (void)y, (void)keyboard, (void)data;
    char *tip = dmk_tile_dup_tooltip(DMK_TILE(widget));
    if (tip)
        gtk_tooltip_set_text(tooltip, tip);
    g_free(tip);
    return tip != NULL;
}

static void refresh(DmkTile *self)
{
    char text[48];
    DmkStats zero = {0};
    const DmkStats *s = shown_stats(self);
    if (self->state == DMK_TILE_SKIPPED || self->state == DMK_TILE_BLOCKED)
        g_strlcpy(text, "\u2014", sizeof text);
    else
        dmk_unit_format(self->unit, s ? s : &zero, text, sizeof text);
    gtk_label_set_text(GTK_LABEL(self->label), text);
    self->fraction = dmk_unit_meter(self->unit, s ? s : &zero);
    static const char *const classes[] = {NULL,      NULL,      "stale",  "live",
                                          "partial", "skipped", "blocked"};
    for (size_t i = 0; i < G_N_ELEMENTS(classes); i++)
        if (classes[i])
            set_class(GTK_WIDGET(self), classes[i], self->state == (DmkTileState)i);
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
    if (tip->len)
        g_string_append_c(tip, '\n');
    /* TRANSLATORS: a mixed test's tooltip: the share of reads done, and asked. */
    g_string_append_printf(tip,
                           _("Reads were %1$s %% of the I/Os the score's pass completed, where "
                             "%2$u %% was asked: its MB/s are of that mix."),
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
    self->state = stats ? DMK_TILE_MEASURED : DMK_TILE_EMPTY;
    g_clear_pointer(&self->note, g_free);
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

/* A state whose number is not the tile's score: the score goes. */
static void set_state(DmkTile *self, DmkTileState state, const char *note)
{
    self->state = state;
    if (state != DMK_TILE_STALE && state != DMK_TILE_MEASURED)
        self->has_value = FALSE;
    if (note != self->note) {
        g_free(self->note);
        self->note = g_strdup(note);
    }
    refresh(self);
}

void dmk_tile_set_stale(DmkTile *self, gboolean stale)
{
    g_return_if_fail(DMK_IS_TILE(self));
    if (stale && self->has_value)
        set_state(self, DMK_TILE_STALE,
                  _("The previous run's value: this run measures the test again."));
    else if (!stale && self->state == DMK_TILE_STALE)
        set_state(self, DMK_TILE_MEASURED, NULL);
}

void dmk_tile_set_live(DmkTile *self, const DmkStats *live, const char *note)
{
    g_return_if_fail(DMK_IS_TILE(self) && live);
    if (self->state != DMK_TILE_LIVE)
        dmk_tile_set_flags(self, NULL, NULL); /* an old value's flags are not the live one's */
    self->live = *live;
    set_state(self, DMK_TILE_LIVE, note);
}

void dmk_tile_set_partial(DmkTile *self, const char *why)
{
    g_return_if_fail(DMK_IS_TILE(self));
    if (self->state != DMK_TILE_LIVE) {
        dmk_tile_set_skipped(self, why);
        return;
    }
    gtk_label_set_text(GTK_LABEL(self->badge), _("partial \u00b7 not a result"));
    gtk_widget_set_visible(self->badge, TRUE);
    set_class(self->badge, "warn", TRUE);
    set_state(self, DMK_TILE_PARTIAL, why);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

void dmk_tile_set_skipped(DmkTile *self, const char *why)
{
    g_return_if_fail(DMK_IS_TILE(self));
    dmk_tile_set_flags(self, NULL, NULL);
    set_state(self, DMK_TILE_SKIPPED, why);
}

void dmk_tile_set_blocked(DmkTile *self, const char *why)
{
    g_return_if_fail(DMK_IS_TILE(self));
    if (!why) {
        if (self->state == DMK_TILE_BLOCKED) {
            dmk_tile_set_flags(self, NULL, NULL);
            dmk_tile_set_stats(self, NULL);
        }
        return;
    }
    /* The badge says it where it shows, not only in a tooltip. */
    dmk_tile_set_flags(self, NULL, NULL);
    gtk_label_set_text(GTK_LABEL(self->badge), why);
    gtk_widget_set_visible(self->badge, TRUE);
    set_class(self->badge, "warn", TRUE);
    set_state(self, DMK_TILE_BLOCKED, why);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

void dmk_tile_set_progress(DmkTile *self, double fraction)
{
    g_return_if_fail(DMK_IS_TILE(self));
    double f = fraction < 0 ? -1 : fraction > 1 ? 1 : fraction;
    if (f == self->progress_fraction)
        return; /* every report clears the other tiles' bars: no relayout for that */
    self->progress_fraction = f;
    gtk_widget_queue_allocate(GTK_WIDGET(self));
}

double dmk_tile_get_progress(DmkTile *self)
{
    g_return_val_if_fail(DMK_IS_TILE(self), -1);
    return self->progress_fraction;
}

const char *dmk_tile_get_state(DmkTile *self)
{
    static const char *const names[] = {"empty",   "measured", "stale",  "live",
                                        "partial", "skipped",  "blocked"};
    g_return_val_if_fail(DMK_IS_TILE(self), "");
    return names[self->state];
}
