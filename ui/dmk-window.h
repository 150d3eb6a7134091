/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Drivemark's one window: the settings row, the tile grid with its run
 * buttons, the comment, the status line and an info bar for errors. It
 * owns the run (a DmkRunWorker) and the last result. Signal
 * "run-finished" (int rc, a DmkErrCode) fires after each run, when the
 * tiles already show what it measured. */
#ifndef DMK_WINDOW_H
#define DMK_WINDOW_H

#include <gtk/gtk.h>

#include "dmk-lab-page.h"
#include "dmk-result.h"
#include "dmk-runner.h"
#include "dmk-sweep.h"

G_BEGIN_DECLS

#define DMK_TYPE_WINDOW (dmk_window_get_type())
G_DECLARE_FINAL_TYPE(DmkWindow, dmk_window, DMK, WINDOW, GtkApplicationWindow)

/* Run settings that only the command line sets, for this session. */
typedef struct {
    const char *backend; /* "native" (NULL too), or a registered backend's name */
    double measure_s;    /* < 0: from the settings */
    double warmup_s;     /* < 0: the measure time, as CrystalDiskMark */
    double interval_s;   /* < 0: from the settings */
    /* Tests: the engine's watchdog time (0: its default), and the
     * backend's own options for every run (the null backend's latency and
     * simulated drive; the fault backend's hang, a submit call that makes
     * a run stall as on a frozen file system). */
    double watchdog_s;
    DmkBackendOpts backend_opts;
} DmkRunOverrides;

/* settings: an io.github.drivemark.drivemark GSettings (maybe delayed). */
DmkWindow *dmk_window_new(GtkApplication *app, GSettings *settings);

void dmk_window_set_overrides(DmkWindow *self, const DmkRunOverrides *o);
/* Selects a target folder (added to the list when it is not in it). */
void dmk_window_set_target(DmkWindow *self, const char *path);
void dmk_window_set_comment(DmkWindow *self, const char *comment);
/* Tests: the text typed into a device's "type its name" question as soon
 * as it is asked (the question's own button then decides). */
void dmk_window_set_device_answer(DmkWindow *self, const char *typed);
/* Tests: a device the window runs on is asked of UDisks2 even where this
 * user may open it (as root), so the UDisks2 path can be tried. */
void dmk_window_set_udisks_always(DmkWindow *self, gboolean always);
/* The question the window asks (a full-span or big write, a device's
 * name, quitting or closing a tab), or NULL. */
GtkWidget *dmk_window_get_question(DmkWindow *self);
/* Tests: the answers to the next questions (quit, a tab's close, a big
 * write), one each in order: cancel, discard, stop, start, save or
 * save:DIR (the results saved in DIR, no folder asked); NULL-ended,
 * borrowed for the window's life. Each answered question is printed,
 * "asked\tQUESTION\tDETAIL\tANSWER". */
void dmk_window_set_answers(DmkWindow *self, const char *const *answers);
/* Whether `answer` is one that dmk_window_set_answers takes. */
gboolean dmk_window_answer_valid(const char *answer);
/* Closes the window as a user who answered its question with Quit (or
 * "Stop and Quit") would: tests that close during a run. */
void dmk_window_close_answered(DmkWindow *self);

/* Opens the Settings dialog (Settings > Tests and Times) and returns it,
 * or the one already open; dmk-settings-dialog.h drives it. */
GtkWidget *dmk_window_open_settings(DmkWindow *self);
/* The Settings dialog or the Keyboard Shortcuts window while one is open,
 * else NULL: what a screenshot shows. */
GtkWidget *dmk_window_get_dialog(DmkWindow *self);
/* The target list when it is open (win.show-targets), for a screenshot of
 * what it says; NULL when closed. */
GtkWidget *dmk_window_get_open_list(DmkWindow *self);

/* File > Save Text: the text Copy gives, written to path (replacing the
 * file only when complete). */
gboolean dmk_window_save_text(DmkWindow *self, const char *path, GError **error);
/* File > Save Image: the tab shown (the tiles and their context) with a
 * line under it naming the drive, the test file, the date and the
 * comment, as a PNG at the screen's scale. */
gboolean dmk_window_save_image(DmkWindow *self, const char *path, GError **error);

/* Gives the All button the keyboard focus, as CrystalDiskMark does. */
void dmk_window_focus_run_button(DmkWindow *self);

/* The same as the All button and the Stop button. A run that writes or
 * lasts more than the thresholds of dmk-window-actions.c asks first
 * unless `confirmed` (the command line's --autorun). */
void dmk_window_run_all(DmkWindow *self, gboolean confirmed);
void dmk_window_stop(DmkWindow *self);
/* Tests: the next run presses Stop (or, with `close`, closes the window)
 * at its `count`th progress report of `stage` with bytes moved, the run
 * waiting there for it (DmkRunHold). */
void dmk_window_set_stop_at(DmkWindow *self, DmkStage stage, unsigned count, gboolean close);
/* Tests: Stop (or close the window) as soon as the next run's stall is
 * shown, as a user who reads it would (--stop-at stall, --close-at stall). */
void dmk_window_set_stop_at_stall(DmkWindow *self, gboolean close);
/* A run is under way, or about to be: UDisks2 is asked for its device
 * (then "run-finished" follows too, with the failure if it refuses). */
gboolean dmk_window_is_running(DmkWindow *self);

/* The result of the tab shown, or the newest run of the Benchmark tab
 * (comment applied); NULL before there is one. */
const DmkRunResult *dmk_window_get_result(DmkWindow *self);

/* What the run that ended last kept, whichever tab it ran on and whatever
 * tab is shown now (its verdict is the scripted exit status's); NULL when
 * it kept nothing or none has ended. */
const DmkRunResult *dmk_window_get_run_result(DmkWindow *self);

/* Writes that result as CSV (JSON for a .json name); FALSE with error set
 * on failure. */
gboolean dmk_window_save_result(DmkWindow *self, const char *path, GError **error);

/* Opens result files (CSV), a tab each, and shows the last; each that
 * fails is reported in the info bar with the reader's message (file,
 * line, column) and opens nothing. Returns how many failed. */
int dmk_window_open_paths(DmkWindow *self, const char *const *paths);
/* The same for files (a file manager's, GApplication's open). */
int dmk_window_open_files(DmkWindow *self, GFile *const *files, size_t n);

/* What dropping on the window does, for a GdkFileList or a GFile: opens
 * the files. TRUE when there were files. Tests call it directly. */
gboolean dmk_window_drop(DmkWindow *self, const GValue *value);

/* Picks every result in the compare tab and shows it. */
void dmk_window_show_compare(DmkWindow *self);

/* Shows the sweep tab set to `kind`; run_sweep starts it (as its Start
 * button), and the finished sweep opens as a tab. */
void dmk_window_show_sweep(DmkWindow *self, DmkSweepKind kind);
void dmk_window_run_sweep(DmkWindow *self, gboolean confirmed);

/* Shows the Lab tab with `kind` chosen (DMK_LAB_NONE: as it is). */
void dmk_window_show_lab(DmkWindow *self, DmkLabKind kind);
/* Starts the Lab tab's test, as its Start button does; a full-span write
 * asks first unless `confirmed` (the command line's --autorun). */
void dmk_window_run_lab(DmkWindow *self, gboolean confirmed);
void dmk_window_set_lab_overrides(DmkWindow *self, const DmkLabOverrides *o);

/* Exports the chart of the tab shown (a result, compare or the sweep) as
 * PNG (scale 1 or 2), SVG or PDF by path's extension. */
gboolean dmk_window_export_chart(DmkWindow *self, const char *path, double scale, GError **error);

/* What the window shows, one "key\tvalue" line each, for tests: every
 * visible tile ("tile\tSEQ1M Q8T1\tread\t5410.65"), the status line, the
 * info bar's text when shown, after a stop how long it took, the tab
 * shown ("page\tCompare"), each result tab and its tiles, the compare
 * tab's picks and table, and the recent files. */
char *dmk_window_dump(DmkWindow *self);

G_END_DECLS

#endif
