/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compare tab: pick kept results with check buttons, and the chart
 * overlays them (a bar or a line per result) above a table of the
 * numbers with each one's difference in % to the first picked. The
 * metric (MB/s, IOPS, mean or 99th percentile latency) is chosen here.
 * Its "Export Chart…" button triggers the window's win.export-chart. */
#ifndef DMK_COMPARE_VIEW_H
#define DMK_COMPARE_VIEW_H

#include <gtk/gtk.h>

#include "dmk-saved.h"

G_BEGIN_DECLS

#define DMK_TYPE_COMPARE_VIEW (dmk_compare_view_get_type())
G_DECLARE_FINAL_TYPE(DmkCompareView, dmk_compare_view, DMK, COMPARE_VIEW, GtkBox)

/* Results ticked by default. Four: at 1,024 px the chart is about 560 px
 * wide, where four bars a test keep their value labels and each its own
 * colour and hatching; more read as a comb. The table and the check
 * buttons scroll, so any number can be ticked by hand. */
#define DMK_COMPARE_DEFAULT_PICKS 4

GtkWidget *dmk_compare_view_new(void);

/* A result to offer (picked at once when `picked`); keeps a reference. */
void dmk_compare_view_add(DmkCompareView *self, DmkSaved *saved, gboolean picked);
void dmk_compare_view_remove(DmkCompareView *self, DmkSaved *saved);
/* Picks every result, in the order they were added. */
/* Ticks the first DMK_COMPARE_DEFAULT_PICKS results opened, unticks the
 * rest: the Compare tab's default, which adding a result follows too. */
void dmk_compare_view_pick_default(DmkCompareView *self);
/* Titles change when a result is saved under a new name. */
void dmk_compare_view_refresh(DmkCompareView *self);
guint dmk_compare_view_count(DmkCompareView *self);
/* The ticked results (DmkSaved *, the view's: not reffed), the first
 * ticked first, as the table's columns. */
GPtrArray *dmk_compare_view_picked(DmkCompareView *self);

/* The chart's drawing area (see dmk-plot.h). */
GtkWidget *dmk_compare_view_get_chart(DmkCompareView *self);

/* The picked results and the table as tab-separated text (Copy, Save
 * Text on the compare tab); NULL when nothing is picked. */
char *dmk_compare_view_text(DmkCompareView *self);

/* For tests: "compare\t<rank>\t<title>" per picked result, then
 * "compare-row\t<test>\t<mode>\t<value>...\t<diff %>..." per table row. */
void dmk_compare_view_dump(DmkCompareView *self, GString *out);

G_END_DECLS

#endif
