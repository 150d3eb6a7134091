/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sweep tab: one workload measured at a series of queue depths or
 * block sizes (dmk-sweep.h), the reviews' line charts. The user picks the
 * kind, pattern and directions (the points are the reviews' defaults,
 * dmk_sweep_init); the window runs it through its worker with the
 * Benchmark tab's target, size and passes, and feeds each finished point
 * back here, so the line grows while the sweep runs. Signal "run" fires
 * when Start (or Stop) is pressed; the window decides which. */
#ifndef DMK_SWEEP_PAGE_H
#define DMK_SWEEP_PAGE_H

#include <gtk/gtk.h>

#include "dmk-runner.h"
#include "dmk-sweep.h"

G_BEGIN_DECLS

#define DMK_TYPE_SWEEP_PAGE (dmk_sweep_page_get_type())
G_DECLARE_FINAL_TYPE(DmkSweepPage, dmk_sweep_page, DMK, SWEEP_PAGE, GtkBox)

GtkWidget *dmk_sweep_page_new(void);

/* The sweep the controls describe. */
void dmk_sweep_page_get_sweep(DmkSweepPage *self, DmkSweep *out);
void dmk_sweep_page_set_kind(DmkSweepPage *self, DmkSweepKind kind);
/* What the Benchmark tab's settings add: "64 MiB test file in /data ...". */
/* Start is off while the target cannot work, its tooltip saying why;
 * NULL turns it back on. Not while a run is under way. */
void dmk_sweep_page_block_start(DmkSweepPage *self, const char *why);
/* The target takes no writes (a device in use): the sweep reads only,
 * the Directions list shows "Read" and is off, why ("read only: mounted
 * at /") in its tooltip. NULL gives the list back as the user left it. */
void dmk_sweep_page_set_read_only(DmkSweepPage *self, const char *why);
void dmk_sweep_page_set_note(DmkSweepPage *self, const char *note);

/* A run began (running and mine) or ended, or another run keeps the
 * Start button waiting (running, not mine). */
void dmk_sweep_page_set_running(DmkSweepPage *self, gboolean running, gboolean mine);

/* This page's sweep: it starts (spec as it runs), progresses, a point
 * finishes, it ends (done: it ran to its end; status: "Done in 0:42",
 * "Stopped after ..."). */
void dmk_sweep_page_begin(DmkSweepPage *self, const DmkRunSpec *spec);
void dmk_sweep_page_progress(DmkSweepPage *self, const DmkProgress *p);
void dmk_sweep_page_point(DmkSweepPage *self, const DmkTest *test, const DmkPassResult *score);
void dmk_sweep_page_end(DmkSweepPage *self, gboolean done, const char *status);

/* The live chart's drawing area (see dmk-plot.h). */
GtkWidget *dmk_sweep_page_get_chart(DmkSweepPage *self);

G_END_DECLS

#endif
