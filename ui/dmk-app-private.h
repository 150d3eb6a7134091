/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the application's three files share (dmk-app.c: the application;
 * dmk-app-options.c: its command line; dmk-app-script.c: the scripted runs
 * the tests and screenshots drive). Private to them: the rest of ui/ sees
 * only dmk-app.h. */
#ifndef DMK_APP_PRIVATE_H
#define DMK_APP_PRIVATE_H

#include "dmk-app.h"
#include "dmk-error.h"
#include "dmk-lab-page.h"
#include "dmk-request.h"
#include "dmk-window.h"

G_BEGIN_DECLS

/* The command line, checked in handle-local-options. */
typedef struct {
    /* The run request's options (core/dmk-request.h's table): which were
     * given, and their values, parsed and checked as drivemark-cli does. */
    DmkRunRequest req;
    char *unit, *comment;
    char *screenshot, *json, *export_chart, *sweep, *lab;
    char *confirm_device;   /* tests: typed into a device's question */
    gboolean udisks_always; /* tests: a device is asked of UDisks2 even as root */
    char **open, **drop, **activate;
    char **set_test;         /* tests: "ROW=NAME" set in the Settings dialog, then OK */
    gboolean settings_reset; /* tests: the Settings dialog's Reset to Default, then OK */
    char *save_text, *save_image;
    char **when_started, **when_done; /* tests: actions once the autorun's run started, ended */
    char *type_comment;               /* tests: typed into the comment once it ended */
    int window_w, window_h;           /* tests: --window-size; 0: the window's own */
    char **answers;                   /* tests: the questions' answers (dmk_window_set_answers) */
    GFile **files;                    /* given as arguments (a file manager's open), or NULL */
    size_t n_files;
    gboolean compare;
    gboolean autorun, quit_when_done, dump_tiles, dump_clipboard;
    double stop_after_s, close_after_s;
    int runs; /* tests: --autorun this many times (--runs), the stops in the last */
    /* tests: --null-* and --fault-hang are parsed by their backends into
     * req.backend_opts */
    gboolean fault_hang;           /* --fault-hang given: the run is the fault backend's */
    char *stop_at;                 /* tests: "STAGE[:N]", where the run is stopped */
    gboolean close_at;             /* ... by closing the window (--close-at) */
    gboolean null_clock_simulated; /* tests: dmk_clock_simulate() */
    DmkStage stop_stage;           /* ... parsed */
    unsigned stop_at_count;        /* 0: no --stop-at */
    gboolean stop_at_stall;        /* --stop-at stall: once the stall is shown */
    DmkLabOverrides lab_o;         /* --lab and --lab-*, --null-* */
    gboolean lab_set;              /* one of them was given */
} DmkAppOptions;

struct _DmkApp {
    GtkApplication parent_instance;
    GSettings *settings;
    DmkAppOptions opt;
    DmkWindow *window;
    int exit_status;
    int frames_waited; /* for a screenshot with something to show */
};

void _dmk_app_options_add(GApplication *app);
/* Every option of the window's, in the order --help lists them, to fn
 * (the man page's generator, app/dmk-gen-gui-docs.c, reads them here). */
typedef void (*DmkAppOptionFn)(const GOptionEntry *e, void *data);
void _dmk_app_options_each(DmkAppOptionFn fn, void *data);
void _dmk_app_options_init(DmkAppOptions *o);
void _dmk_app_options_clear(DmkAppOptions *o);
/* The options into o, checked; DMK_OK or a usage error in err. */
int _dmk_app_options_parse(DmkAppOptions *o, GVariantDict *d, DmkError *err);
/* The output files can be written (before anything runs). */
int _dmk_app_options_probe(const DmkAppOptions *o, DmkError *err);
gboolean _dmk_app_options_any(GVariantDict *d);

/* The scripted run's part of activate: before the window is shown (its
 * results and tabs) and after (actions, the autorun, the final outputs). */
void _dmk_app_script_before_show(DmkApp *self);
void _dmk_app_script_after_show(DmkApp *self);

G_END_DECLS

#endif
