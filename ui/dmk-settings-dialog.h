/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CrystalDiskMark's Settings dialog (KDiskMark's "Queues & Threads"):
 * per tile row the test type (SEQ/RND), block size, queues and threads,
 * plus the Mix column's read share, the measure time and the interval.
 * It edits the custom profile (the "custom-tests" setting: test names
 * the engine parses, dmk_job_parse_name, so no second table of tests)
 * and starts from the tests the tiles show; Reset to Default puts back
 * the default profile's tests and the schema's defaults. OK writes the
 * settings and emits "applied". */
#ifndef DMK_SETTINGS_DIALOG_H
#define DMK_SETTINGS_DIALOG_H

#include <gtk/gtk.h>

#include "dmk-presets.h"

G_BEGIN_DECLS

#define DMK_SETTINGS_ROWS 4 /* the window's tile rows (DMK_ROWS_MAX) */

#define DMK_TYPE_SETTINGS_DIALOG (dmk_settings_dialog_get_type())
G_DECLARE_FINAL_TYPE(DmkSettingsDialog, dmk_settings_dialog, DMK, SETTINGS_DIALOG, GtkWindow)

/* shown: the tiles' tests now; measure_s, interval_s: the times in force
 * (a command-line override, or the settings'). */
DmkSettingsDialog *dmk_settings_dialog_new(GtkWindow *parent, GSettings *settings,
                                           const DmkProfile *shown, double measure_s,
                                           double interval_s);

/* Sets row's widgets to the test `name` ("RND4K Q32T16"), as a user
 * would pick them; FALSE when the name does not parse. */
gboolean dmk_settings_dialog_set_test(DmkSettingsDialog *self, int row, const char *name);
/* Sets the spin button of "mix" (reads in %), "measure" or "interval"
 * (seconds), as a user would type it; FALSE for another name. */
gboolean dmk_settings_dialog_set_value(DmkSettingsDialog *self, const char *field, int value);
/* The Reset to Default button. */
void dmk_settings_dialog_reset(DmkSettingsDialog *self);
/* The OK button: FALSE (the dialog says why and stays) when a row's test
 * cannot run (its buffers exceed DMK_BUFFER_BYTES_MAX). */
gboolean dmk_settings_dialog_apply(DmkSettingsDialog *self);
/* After "applied": whether the measure time or interval was changed
 * (then it is the setting's, no longer a command-line override). */
void dmk_settings_dialog_times_changed(DmkSettingsDialog *self, gboolean *measure,
                                       gboolean *interval);

/* The Settings > Measure Time and Interval Time menus' values, in
 * seconds (CrystalDiskMark's); the dialog's spin buttons take any value
 * of the schema's range. */
size_t dmk_settings_measure_choices(const int **values);
size_t dmk_settings_interval_choices(const int **values);

G_END_DECLS

#endif
