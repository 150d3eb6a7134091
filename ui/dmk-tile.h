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

/* Shows a score (copied); NULL clears the tile to "0.00". */
void dmk_tile_set_stats(DmkTile *self, const DmkStats *stats);
void dmk_tile_set_unit(DmkTile *self, DmkUnit unit);

/* The number as shown ("5410.65"), for tests and the accessible name. */
const char *dmk_tile_get_text(DmkTile *self);
gboolean dmk_tile_has_value(DmkTile *self);

/* The honest-number flags of test t of run r (dmk-result.h) as a badge
 * under the number ("peak", "QD 8.0 of 32", "over SATA limit") with
 * their explanation in the tooltip; NULL clears them. */
void dmk_tile_set_flags(DmkTile *self, const DmkRunResult *r, const DmkTestResult *t);

/* The badge's text, "" when no flag shows (for tests). */
const char *dmk_tile_get_flags_text(DmkTile *self);

/* Running: this test is being measured now. Stale: the value is from an
 * earlier run and this run will replace it. Both only change the style. */
void dmk_tile_set_running(DmkTile *self, gboolean running);
void dmk_tile_set_stale(DmkTile *self, gboolean stale);

G_END_DECLS

#endif
