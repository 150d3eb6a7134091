/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's parts, shared by dmk-window.c (layout and settings),
 * dmk-window-run.c (runs and sweeps, progress, errors),
 * dmk-window-owners.c (the pages a run reports to: its run owner),
 * dmk-window-tabs.c (result tabs, compare, opening files, recent files),
 * dmk-window-actions.c (actions and their dialogs) and
 * dmk-window-device.c (a raw device's question). What they share but
 * nothing outside the window may call is named _dmk_window_*, as
 * gnome-text-editor names its window's (_editor_window_*); the public
 * dmk_window_* functions are dmk-window.h's. */
#ifndef DMK_WINDOW_PRIVATE_H
#define DMK_WINDOW_PRIVATE_H

#include "dmk-compare-view.h"
#include "dmk-lab-page.h"
#include "dmk-presets.h"
#include "dmk-run-worker.h"
#include "dmk-saved.h"
#include "dmk-sweep-page.h"
#include "dmk-tile.h"
#include "dmk-units.h"
#include "dmk-window.h"

#define DMK_ROWS_MAX  4 /* tests in the longest profile */
#define DMK_COLS      3 /* read, write, mix: indexed by DmkMode */
#define DMK_TILES_MAX (DMK_ROWS_MAX * DMK_COLS)

/* The page a run reports to: its run owner (dmk-window-owners.c). */
typedef struct DmkRunOwner DmkRunOwner;

/* A run as it starts: the page that owns it and, for the Benchmark tab's
 * tiles, the row pressed and the tile each test fills, by the runner's
 * test index (noted once as the spec is built: the runner's callbacks
 * then go by the index, never by a test's name). */
typedef struct {
    const DmkRunOwner *owner;
    int row; /* the tiles: the row run, -1 for all */
    size_t n_tiles;
    DmkTile *tiles[DMK_TILES_MAX]; /* [test index]; NULL: no tile */
    /* The spec's times, noted at launch: how far a test is (its progress). */
    double warmup_s, measure_s;
    uint32_t passes;
} DmkRunStart;

/* What a run owner does with its run; the window hands each of the
 * worker's reports to the owner of the run under way and asks nothing
 * else about it. NULL hooks: nothing to do. All on the main thread. */
struct DmkRunOwner {
    /* The tab whose Start (or Stop) button is this owner's. */
    GtkWidget *(*page)(DmkWindow *self);
    /* The run is about to start (spec as it runs; self->run set):
     * returns the button that becomes Stop, NULL for none. */
    GtkWidget *(*begin)(DmkWindow *self, const DmkRunSpec *spec);
    void (*progress)(DmkWindow *self, const DmkProgress *p);
    /* Test `index` of the spec finished with score. */
    void (*test_done)(DmkWindow *self, const DmkTest *test, const DmkPassResult *score,
                      size_t index);
    /* The run ended: res as it came back (NULL when the window let a
     * stuck run go), saved the result that is kept as a tab (NULL when
     * nothing was measured); before the tab is added. */
    void (*finished)(DmkWindow *self, const DmkRunResult *res, DmkSaved *saved);
    /* The status line now says how the run ended ("Done in 0:42"); rc:
     * the run's (DMK_OK, DMK_E_STOPPED, an error), never read from the
     * words, which are the user's language. */
    void (*ended)(DmkWindow *self, DmkSaved *saved, int rc, const char *status);
    /* Any run began (running) or ended; mine: this owner's. */
    void (*set_running)(DmkWindow *self, gboolean running, gboolean mine);
    gboolean show_result; /* the kept result's tab is shown at once */
};

/* What an error bar is about: each problem has the input it came from,
 * and the bar goes when that input validates again (a usable folder
 * chosen, the Lab form or the sweep's fields made valid, a result file
 * opened), not only when the next run starts. OTHER: a run's own failure,
 * which the next run's start clears. */
typedef enum {
    DMK_PROBLEM_OTHER = 0,
    DMK_PROBLEM_TARGET,
    DMK_PROBLEM_LAB,
    DMK_PROBLEM_SWEEP,
    DMK_PROBLEM_FILE,
} DmkProblemOwner;

/* The Benchmark tab's tiles, the sweep tab and the Lab tab. */
extern const DmkRunOwner _dmk_window_tiles_owner;
extern const DmkRunOwner _dmk_window_sweep_owner;
extern const DmkRunOwner _dmk_window_lab_owner;

struct _DmkWindow {
    GtkApplicationWindow parent_instance;

    /* from the template */
    GtkInfoBar *info_bar;
    GtkLabel *info_label;
    GtkNotebook *notebook;
    GtkWidget *benchmark_page;
    GtkGrid *grid;
    GtkButton *all_button;
    GtkWidget *settings_box;
    GtkDropDown *passes_dd, *size_dd, *target_dd, *unit_dd, *profile_dd, *mode_dd;
    GtkLabel *headers[DMK_COLS];
    GtkWidget *bottom_box;
    GtkCheckButton *verify_check; /* bound to the "verify" setting */
    GtkEntry *comment_entry;
    GtkLabel *status_label;

    /* built in code: one row per test of the profile */
    GtkWidget *row_buttons[DMK_ROWS_MAX];
    DmkTile *tiles[DMK_ROWS_MAX][DMK_COLS]; /* [row][DmkMode] */
    char row_names[DMK_ROWS_MAX][48];       /* canonical test names, "" = unused row */

    GSettings *settings;
    GListStore *targets;
    guint target_selected;         /* to go back to when "Choose folder…" is cancelled */
    char *target_problem;          /* why the chosen target cannot work; NULL when it can */
    DmkProblemOwner problem_owner; /* the info bar's, while it is shown */
    guint64 *sizes;                /* the size drop-down's values */
    guint n_sizes;
    gboolean syncing; /* settings are being copied into widgets: no write-back */

    DmkRunOverrides overrides;
    char *backend;

    /* built in code: the other fixed tabs */
    DmkSweepPage *sweep_page;
    DmkLabPage *lab_page;
    DmkCompareView *compare_view; /* shown while there is a result tab */
    DmkLabOverrides lab_overrides;
    GtkWidget *lab_confirm;     /* the full-span write's, a big write's or a device's question */
    GtkWidget *quit_question;   /* "Stop the test and quit?", "Quit without saving…?", a tab's */
    gboolean quit_answered;     /* the user said quit: the window goes without asking again */
    const char *const *answers; /* tests: the next questions' answers (--answer), borrowed */
    guint n_answered;
    char *device_answer; /* tests: typed into the device question at once (--confirm-device) */
    GCancellable *udisks_wait; /* UDisks2 is asked to open the device (polkit may ask), or NULL */
    gboolean udisks_always;    /* tests: ask UDisks2 even where this user may open it */

    DmkRunWorker *worker;
    DmkRunStart run;        /* the run under way's owner (NULL when none) and tiles */
    GtkWidget *stop_button; /* the run button that shows "Stop" */
    gint64 run_started_us;
    gint64 stop_asked_us; /* 0 when no stop was asked */
    gint64 stop_took_us;
    guint stop_stuck_id; /* the timer that says a stop is stuck, 0 when none */
    char *status_at_stop;
    char *stall_msg;        /* the run stalled: what the user was told, NULL before */
    gboolean stop_at_stall; /* tests: stop (or close, close_at_stop) once the stall is shown */
    guint stall_end_id;     /* the timer that lets a stalled run's stuck thread go, 0 when none */
    DmkRunHold stop_at;     /* tests: the next run is stopped there (--stop-at) */
    guint hold_shot_id;     /* tests: a screenshot at the hold, then the stop; 0 when none */
    int hold_shot_tries;
    gboolean close_at_stop; /* ... by closing the window (--close-at) */
    gboolean closing;       /* close the window once the run has ended */
    DmkSaved *last_run;     /* the newest run of the Benchmark tab, for copy and save */
    DmkSaved *finished_run; /* the newest run of any tab, what it kept (NULL: nothing) */
    int grown;              /* the width made roomy for charts once already, 0 before */

    GSettings *recent; /* not delayed: the recent files outlive --options */
    GMenu *recent_menu;
    GtkWidget *flags_note;   /* under the tiles: CoW/compression of the last run, NULL before */
    GtkProgressBar *run_bar; /* the whole run's progress over the status line, NULL before */

    /* dmk-window-settings.c: the custom profile, from "custom-tests" */
    DmkProfile custom;
    char custom_tests[DMK_ROWS_MAX][48];
    GtkWidget *settings_dialog; /* while open */
    GtkWidget *shortcuts;       /* the Keyboard Shortcuts window, while open */
    GtkCssProvider *zoom_css;   /* the zoom's font size, NULL at 100 % */
    GMenu *time_menus[2];       /* Measure Time, Interval Time */
    gboolean system_dark;       /* GTK's own prefer-dark when the theme follows the system */
    int portal_scheme;          /* the Settings portal's color-scheme: -1 unknown, 0, 1, 2 */
    GDBusProxy *portal;
    GCancellable *portal_cancel;
};

/* dmk-window.c */
const DmkProfile *_dmk_window_profile(DmkWindow *self);
gboolean _dmk_window_mix(DmkWindow *self);
DmkRunMode _dmk_window_run_mode(DmkWindow *self);
const char *_dmk_window_target_path(DmkWindow *self);
void _dmk_window_set_status(DmkWindow *self, const char *text);
void _dmk_window_update_actions(DmkWindow *self);
/* Locks the run buttons and settings while running, `stop_button` (may
 * be NULL) becoming the Stop button; not running puts them back. */
void _dmk_window_set_running_ui(DmkWindow *self, gboolean running, GtkWidget *stop_button);
DmkUnit _dmk_window_unit(DmkWindow *self);
void _dmk_window_emit_run_finished(DmkWindow *self, int rc);

/* dmk-window-run.c */
/* confirmed: the command line asked, no question on a big write. */
void _dmk_window_start_run(DmkWindow *self, int row, gboolean confirmed);
void _dmk_window_start_sweep(DmkWindow *self, gboolean confirmed);
/* The info bar with a heading of the caller's (markup-escaped here). */
void _dmk_window_show_problem(DmkWindow *self, const char *heading, const char *message);
/* The same, the problem owned by an input (DmkProblemOwner). */
void _dmk_window_show_problem_of(DmkWindow *self, DmkProblemOwner owner, const char *heading,
                                 const char *message);
/* Hides the info bar when it shows owner's problem: that input is valid now. */
void _dmk_window_clear_problem(DmkWindow *self, DmkProblemOwner owner);
void _dmk_window_hide_error(DmkWindow *self);
/* Whether the sweep tab's fields and the target make a sweep that can run. */
gboolean _dmk_window_sweep_valid(DmkWindow *self);
void _dmk_window_run_dispose(DmkWindow *self);
gboolean _dmk_window_on_close_request(GtkWindow *window);
/* Starts spec as start says (its owner, its tiles), with no further
 * question; nothing while a run is under way. */
void _dmk_window_launch(DmkWindow *self, const DmkRunSpec *spec, const DmkRunStart *start);
/* How far report p's test is, 0..1, from the run's warm-up and passes;
 * and the whole run, by tests (monotonic: the interval before a test
 * counts as its start). */
double _dmk_window_test_fraction(DmkWindow *self, const DmkProgress *p);
double _dmk_window_run_fraction(DmkWindow *self, const DmkProgress *p);

/* dmk-window-owners.c */
/* Tells each page whether a run is under way and whether it is its own. */
void _dmk_window_owners_set_running(DmkWindow *self, gboolean running);
/* TRUE when the run under way is page's (its owner's page). */
gboolean _dmk_window_runs_on(DmkWindow *self, GtkWidget *page);

/* dmk-window-tabs.c */
void _dmk_window_build_tabs(DmkWindow *self);
/* The window keeps the size it is first shown at (or the user gives it)
 * when tabs open. */
void _dmk_window_keep_size(DmkWindow *self);
/* The Lab tab's line on where its test file goes (target, free space). */
void _dmk_window_update_lab_note(DmkWindow *self);
void _dmk_window_load_recent(DmkWindow *self);
/* A tab for saved (referenced), picked in the compare tab; shown at once
 * when `show`. */
void _dmk_window_add_result(DmkWindow *self, DmkSaved *saved, gboolean show);
/* The result of the tab shown: a result tab's, or on the Benchmark tab
 * the last run's; NULL on the sweep and compare tabs. */
DmkSaved *_dmk_window_current_saved(DmkWindow *self);
/* The chart of the tab shown, NULL on the Benchmark tab; on a lab
 * result (the Lab tab's, or its own tab) its DmkLabView. */
GtkWidget *_dmk_window_current_chart(DmkWindow *self);
/* Whether the tab shown has a chart to export, without making it. */
gboolean _dmk_window_current_has_chart(DmkWindow *self);
/* The result tab shown, NULL on the fixed tabs. */
GtkWidget *_dmk_window_current_result_page(DmkWindow *self);
/* Closes a result tab with no question (page: one of the notebook's). */
void _dmk_window_close_tab(DmkWindow *self, GtkWidget *page);
/* The result a result tab shows and its title ("Run 14:05"); NULL for
 * the fixed tabs. */
DmkSaved *_dmk_window_page_saved(GtkWidget *page);
const char *_dmk_window_page_title(DmkWindow *self, GtkWidget *page);
/* The result tabs whose results no file holds (dmk_saved_is_unsaved),
 * in the tabs' order (borrowed pages). */
GPtrArray *_dmk_window_unsaved_pages(DmkWindow *self);
/* After a save: tab titles, the compare tab and the recent list follow. */
void _dmk_window_saved_renamed(DmkWindow *self, DmkSaved *saved);
void _dmk_window_add_recent(DmkWindow *self, const char *path);
/* Takes path off the recent list; NULL clears it. */
void _dmk_window_forget_recent(DmkWindow *self, const char *path);
void _dmk_window_set_units(DmkWindow *self, DmkUnit unit);
void _dmk_window_dump_tabs(DmkWindow *self, GString *s);
/* Opens the files (a tab each) and reports those that fail in the info
 * bar; returns how many failed. */
int _dmk_window_open_files(DmkWindow *self, GFile *const *files, size_t n);

/* dmk-window-settings.c */
/* The custom profile: the "custom-tests" setting's tests (a test that
 * does not parse is the default profile's of that row). */
const DmkProfile *_dmk_window_custom_profile(DmkWindow *self);
/* The Settings dialog, Measure/Interval Time, theme, zoom, Keyboard
 * Shortcuts and Help: actions, menus, and applying theme and zoom. */
void _dmk_window_settings_init(DmkWindow *self);
void _dmk_window_settings_dispose(DmkWindow *self);
void _dmk_window_dump_settings(DmkWindow *self, GString *s);
/* dmk_window_set_overrides: the Measure/Interval Time menus follow. */
void _dmk_window_settings_overrides_changed(DmkWindow *self);
/* The settings changed underneath: widgets and tiles follow (dmk-window.c). */
void _dmk_window_resync(DmkWindow *self);
/* Seconds in force: the command line's override, else the setting's. */
double _dmk_window_measure_s(DmkWindow *self);
double _dmk_window_interval_s(DmkWindow *self);

/* dmk-window-export.c */
/* What Copy puts on the clipboard and Save Text writes. */
char *_dmk_window_result_text(const DmkRunResult *r);
/* The text of the tab shown: its result's, or the compare tab's table;
 * NULL when there is none. */
char *_dmk_window_shown_text(DmkWindow *self);
gboolean _dmk_window_compare_shown(DmkWindow *self);
/* File > Save Text and Save Image (and their dialogs' actions). */
void _dmk_window_add_export_actions(DmkWindow *self);

/* dmk-window-actions.c */
void _dmk_window_add_actions(DmkWindow *self);
void _dmk_window_choose_target(DmkWindow *self);
/* Asks before a full-span write fills the target; starts it on yes. */
void _dmk_window_confirm_fullspan(DmkWindow *self, const DmkRunSpec *spec);
/* Starts spec as start says, first asking when it writes or lasts more
 * than the thresholds there (DMK_ASK_*) unless confirmed. */
void _dmk_window_launch_asking(DmkWindow *self, const DmkRunSpec *spec, const DmkRunStart *start,
                               gboolean confirmed);
/* The window's close (its button, Alt+F4, Ctrl+Q): TRUE when it asks
 * first (a run under way, results never saved); the answer closes it. */
gboolean _dmk_window_close_asks(DmkWindow *self);
/* The run ended while "Stop the test and quit?" was asked: asked again
 * as things are now (unsaved results), or closed. */
void _dmk_window_run_ended_while_asked(DmkWindow *self);
/* Ctrl+W and a tab's close button: asks first when its result is unsaved. */
void _dmk_window_close_tab_asking(DmkWindow *self, GtkWidget *page);
/* The comment entry changed: the Benchmark tab's last run takes it. */
void _dmk_window_comment_changed(DmkWindow *self);

/* dmk-window-device.c */
gboolean _dmk_window_target_is_device(DmkWindow *self);
/* What uses the chosen device ("mounted at / (vda1)"), as its last check
 * found; NULL when the target is no device or a free one. Only read
 * tests run on a device in use: no write or mixed test, no Lab test (each
 * writes), no write sweep, and no "type its name" question. */
const char *_dmk_window_target_usage(DmkWindow *self);
/* Whether the Lab test chosen writes (all but the surface scan, which the
 * lab tests' table marks as reading only): on a device in use it cannot
 * run. */
gboolean _dmk_window_lab_writes(DmkWindow *self);
/* Checks the chosen target again, as Run and Start do (a folder may have
 * gone, a device been mounted or unplugged since it was listed), and
 * updates the buttons and tiles; whether a run can start on it. */
gboolean _dmk_window_recheck_target(DmkWindow *self);
/* TRUE when spec may start now: no device, or a device it only reads.
 * Otherwise asks the user to type the device's name (Start stays
 * refused until it matches exactly), then starts it as start says with
 * spec->device_confirm set; FALSE meanwhile. */
gboolean _dmk_window_device_ready(DmkWindow *self, DmkRunSpec *spec, const DmkRunStart *start);
/* TRUE when spec's device is one this user may not open (EACCES), no
 * descriptor is there yet, and UDisks2 was asked for one: once it
 * answers, spec is launched with it (DmkRunSpec.device_fd) or the info
 * bar says why not (polkit's refusal, a dismissed dialog, no UDisks2).
 * FALSE: launch spec as it is. Cancelled with the window. */
gboolean _dmk_window_device_via_udisks(DmkWindow *self, const DmkRunSpec *spec,
                                       const DmkRunStart *start);
/* Lets go of a UDisks2 question under way (the window is going). */
void _dmk_window_device_dispose(DmkWindow *self);

#endif
