/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The main loop's responsiveness, measured (tests/bench/window-responsiveness):
 * with $DMK_STALL_PROBE set, a high-priority 1 ms timeout records the largest
 * gap between its wake-ups (the longest the main loop was busy elsewhere),
 * and a tick callback on the window the frame clock's longest frame interval,
 * from the window's first frame on (before it, nothing is on screen) until
 * dmk_stall_probe_stop or the window's end; the figures are written when
 * the window goes, to the file the variable names ("-": stderr), each gap
 * with when it began, in seconds from the window's creation. Unset,
 * nothing is installed. */
#ifndef DMK_STALL_PROBE_H
#define DMK_STALL_PROBE_H

#include <gtk/gtk.h>

/* Installs the probe on window when $DMK_STALL_PROBE is set. */
void dmk_stall_probe_start(GtkWidget *window);
/* The end of what is measured: a script's outputs (the dump, the
 * screenshot) and its quit are the tests' work, not the user's. */
void dmk_stall_probe_stop(void);

#endif
