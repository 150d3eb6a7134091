/* The window's parts, shared by dmk-window.c (layout and settings),
 * dmk-window-run.c (runs, progress, errors) and dmk-window-actions.c. */
#ifndef DMK_WINDOW_PRIVATE_H
#define DMK_WINDOW_PRIVATE_H

#include "dmk-presets.h"
#include "dmk-run-worker.h"
#include "dmk-tile.h"
#include "dmk-units.h"
#include "dmk-window.h"

#define DMK_ROWS_MAX 4 /* tests in the longest profile */
#define DMK_COLS     3 /* read, write, mix: indexed by DmkMode */

struct _DmkWindow {
    GtkApplicationWindow parent_instance;

    /* from the template */
    GtkInfoBar *info_bar;
    GtkLabel *info_label;
    GtkGrid *grid;
    GtkButton *all_button;
    GtkWidget *settings_box;
    GtkDropDown *passes_dd, *size_dd, *target_dd, *unit_dd, *profile_dd, *mode_dd;
    GtkLabel *headers[DMK_COLS];
    GtkWidget *bottom_box;
    GtkEntry *comment_entry;
    GtkLabel *status_label;

    /* built in code: one row per test of the profile */
    GtkWidget *row_buttons[DMK_ROWS_MAX];
    DmkTile *tiles[DMK_ROWS_MAX][DMK_COLS];
    char row_names[DMK_ROWS_MAX][48]; /* canonical test names, "" = unused row */

    GSettings *settings;
    GListStore *targets;
    guint target_selected; /* to go back to when "Choose folder…" is cancelled */
    guint64 *sizes;        /* the size drop-down's values */
    guint n_sizes;
    gboolean syncing; /* settings are being copied into widgets: no write-back */

    DmkRunOverrides overrides;
    char *backend;

    DmkRunWorker *worker;
    GtkWidget *stop_button; /* the run button that shows "Stop" */
    gint64 run_started_us;
    gint64 stop_asked_us; /* 0 when no stop was asked */
    gint64 stop_took_us;
    char *status_at_stop;
    gboolean closing; /* close the window once the run has ended */
    DmkRunResult *result;
};

/* dmk-window.c */
const DmkProfile *dmk_window_profile(DmkWindow *self);
gboolean dmk_window_mix(DmkWindow *self);
DmkRunMode dmk_window_run_mode(DmkWindow *self);
DmkTile *dmk_window_find_tile(DmkWindow *self, const DmkTest *test);
const char *dmk_window_target_path(DmkWindow *self);
void dmk_window_set_status(DmkWindow *self, const char *text);
void dmk_window_update_actions(DmkWindow *self);
/* Turns `stop_button` into the Stop button and locks the settings; NULL
 * puts every run button back. */
void dmk_window_set_running_ui(DmkWindow *self, GtkWidget *stop_button);
void dmk_window_emit_run_finished(DmkWindow *self, int rc);

/* dmk-window-run.c */
void dmk_window_start_run(DmkWindow *self, int row);
void dmk_window_show_error(DmkWindow *self, int code, const char *message);
void dmk_window_hide_error(DmkWindow *self);
void dmk_window_run_dispose(DmkWindow *self);
void dmk_window_apply_comment(DmkWindow *self);
gboolean dmk_window_on_close_request(GtkWindow *window);

/* dmk-window-actions.c */
void dmk_window_add_actions(DmkWindow *self);
void dmk_window_choose_target(DmkWindow *self);

#endif
