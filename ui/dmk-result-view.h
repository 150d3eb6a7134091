/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A result tab: a kept result (DmkSaved) shown read-only as
 * CrystalDiskMark's tile grid, its chart (bars of the tests, or lines vs
 * queue depth or block size for a sweep) and its context: drive, capacity,
 * file system and free space, OS, test size and passes, date, version and
 * comment. Its buttons trigger the window's win.export-csv and
 * win.export-chart, which act on the tab shown. */
#ifndef DMK_RESULT_VIEW_H
#define DMK_RESULT_VIEW_H

#include <gtk/gtk.h>

#include "dmk-saved.h"
#include "dmk-units.h"

G_BEGIN_DECLS

#define DMK_TYPE_RESULT_VIEW (dmk_result_view_get_type())
G_DECLARE_FINAL_TYPE(DmkResultView, dmk_result_view, DMK, RESULT_VIEW, GtkBox)

/* Keeps a reference to saved. */
GtkWidget *dmk_result_view_new(DmkSaved *saved, DmkUnit unit);
DmkSaved *dmk_result_view_get_saved(DmkResultView *self);
void dmk_result_view_set_unit(DmkResultView *self, DmkUnit unit);
/* The chart's drawing area (see dmk-plot.h). */
GtkWidget *dmk_result_view_get_chart(DmkResultView *self);

/* The result's comment changed (typed on the Benchmark tab after its
 * run): the header shows it as it is now. */
void dmk_result_view_update_comment(DmkResultView *self);

/* For tests: "tab-tile\t<tab>\t<test>\t<mode>\t<text>" per tile. */
void dmk_result_view_dump(DmkResultView *self, int tab, GString *out);

G_END_DECLS

#endif
