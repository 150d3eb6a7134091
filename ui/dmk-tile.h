/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One CrystalDiskMark tile: a big right-aligned number over a meter bar
 * whose length is the value on a log scale. It keeps the score it shows,
 * so switching the unit re-renders without rerunning; hovering shows MB/s,
 * IOPS and latency. CSS node "tile" with a child "meter" (see style.css). */
#ifndef DMK_TILE_H
#define DMK_TILE_H

#include <gtk/gtk.h>

#include "dmk-result.h"
#include "dmk-units.h"

G_BEGIN_DECLS

#define DMK_TYPE_TILE (dmk_tile_get_type())
G_DECLARE_FINAL_TYPE(DmkTile, dmk_tile, DMK, TILE, GtkWidget)

GtkWidget *dmk_tile_new(void);

/* What the tile measures, for its tooltip and accessible name. */
void dmk_tile_set_test(DmkTile *self, const DmkTest *test);

/* The test set last; NULL before. */
const DmkTest *dmk_tile_get_test(DmkTile *self);

/* Shows a score (copied), measured; NULL clears the tile to "0.00". */
void dmk_tile_set_stats(DmkTile *self, const DmkStats *stats);
void dmk_tile_set_unit(DmkTile *self, DmkUnit unit);

/* The number as shown ("5410.65"), for tests and the accessible name. */
const char *dmk_tile_get_text(DmkTile *self);
gboolean dmk_tile_has_value(DmkTile *self);

/* The honest-number flags of test t of run r (dmk-result.h) as a badge
 * under the number ("peak", "QD 8.0 of 32", "over SATA limit") with
 * their explanation in the tooltip; NULL clears them. */
void dmk_tile_set_flags(DmkTile *self, const DmkRunResult *r, const DmkTestResult *t);

/* The tooltip's text: the state's note, the figures in every unit and
 * what the flags mean; NULL when there is nothing to say. g_free it. */
char *dmk_tile_dup_tooltip(DmkTile *self);
/* The badge's text, "" when no flag shows (for tests). */
const char *dmk_tile_get_flags_text(DmkTile *self);

/* Running: this test is being measured now. Stale: the value is from the
 * previous run and this run will measure it again (dimmed, and the tooltip
 * says so), until its test starts. Both only change the style. */
void dmk_tile_set_running(DmkTile *self, gboolean running);
void dmk_tile_set_stale(DmkTile *self, gboolean stale);

/* The figure of the test under way, shown as it is measured (the last
 * interval's rate), with what it is in the tooltip (note); no value of
 * the tile's until the test's score arrives (dmk_tile_set_stats). */
void dmk_tile_set_live(DmkTile *self, const DmkStats *live, const char *note);

/* How far the test under way is, 0..1: a thin bar along the tile's foot
 * (the meter is the value's, so progress never lengthens it); < 0 hides it. */
void dmk_tile_set_progress(DmkTile *self, double fraction);

/* The run ended during this tile's test: its live figure stays, marked
 * "partial" (why in the tooltip), not a value. */
void dmk_tile_set_partial(DmkTile *self, const char *why);

/* The run ended before this tile's test: no number ("\u2014"), and why in
 * the tooltip; any old value and flags are gone. */
void dmk_tile_set_skipped(DmkTile *self, const char *why);

/* The target allows no such test (a write test on a device in use): no
 * number, why on the badge ("read only: mounted at /") and in the
 * tooltip; any old value goes. NULL lifts it (the tile is empty then). */
void dmk_tile_set_blocked(DmkTile *self, const char *why);

/* "empty", "measured", "stale", "live", "partial", "skipped" or
 * "blocked" (tests). */
const char *dmk_tile_get_state(DmkTile *self);

/* How far the progress bar is, -1 when hidden (tests). */
double dmk_tile_get_progress(DmkTile *self);

/* How many times its CSS size the number is drawn (>= 1): it grows with
 * the tile, as CrystalDiskMark's do in a maximised window. */
double dmk_tile_get_text_scale(DmkTile *self);

G_END_DECLS

#endif
