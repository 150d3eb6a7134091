/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's runs, sweeps and lab tests: settings (and the sweep and
 * Lab tabs' choices) become a spec, the spec runs on a worker thread, and
 * what it reports lands in the status line and goes to the run's owner,
 * the page that started it (dmk-window-owners.c): the tiles, the sweep
 * tab's chart or the Lab tab. What finished is kept as a tab. Errors go
 * to the info bar with the engine's own message. The title and a bar
 * over the status line say how far the run is. */
#include "dmk-window-private.h"

#include "dmk-widgets.h"

#include <string.h>

#include <glib/gi18n.h>

#include "dmk-escape.h"
#include "dmk-report.h"
#include "dmk-request.h"
#include "dmk-screenshot.h"
#include "dmk-target-list.h"
#include "dmk-text.h"

static void show_error(DmkWindow *self, int code, const char *message);
static void show_form_error(DmkWindow *self, DmkProblemOwner form, int code, const char *message);

/* ---- from settings to a spec --------------------------------------------- */

/* The window fills a run request (core/dmk-request.h) from its settings
 * and the command line's overrides, and the request's builder makes the
 * spec with CrystalDiskMark's rules, as for drivemark-cli. */

static double seconds_setting(DmkWindow *self, const char *key, double override)
{
    return override >= 0 ? override : (double)g_settings_get_int(self->settings, key);
}

/* Whether the profile's row j holds the test named `name` (canonical). */
static gboolean row_runs(const DmkProfile *p, size_t j, const char *name)
{
    DmkJob job;
    char canon[sizeof((DmkTest *)0)->name];
    DmkError err = {0};
    return dmk_job_parse_name(p->tests[j], &job, &err) == DMK_OK &&
           strcmp(dmk_job_format_name(&job, canon, sizeof canon), name) == 0;
}

/* The tile each of spec's tests fills, by the runner's test index, noted
 * once as the spec is built: the first row of that test (or only `row`)
 * whose tile in the test's direction no earlier test took, so a profile
 * that lists a test twice fills both rows, in order. */
static void map_tiles(DmkWindow *self, int row, const DmkRunSpec *spec, DmkRunStart *start)
{
    const DmkProfile *p = _dmk_window_profile(self);
    gboolean taken[DMK_ROWS_MAX][DMK_COLS] = {{FALSE}};
    start->n_tiles = MIN(spec->n_tests, (size_t)DMK_TILES_MAX);
    for (size_t i = 0; i < start->n_tiles; i++) {
        DmkMode mode = spec->tests[i].mode;
        start->tiles[i] = NULL;
        for (size_t j = 0; j < p->n_tests && j < DMK_ROWS_MAX && !start->tiles[i]; j++) {
            if ((row >= 0 && (size_t)row != j) || taken[j][mode] ||
                !row_runs(p, j, spec->tests[i].name))
                continue;
            taken[j][mode] = TRUE;
            start->tiles[i] = self->tiles[j][mode];
        }
    }
}

static void set_data_kind(DmkWindow *self, DmkRunRequest *r)
{
    char *data = g_settings_get_string(self->settings, "data");
    r->data = strcmp(data, "zero") == 0 ? DMK_DATA_ZERO : DMK_DATA_RANDOM;
    g_free(data);
}

/* What a run, a sweep and a lab test share: the Benchmark tab's target,
 * size, passes and times (a warm-up the builder's unless overridden). */
static int fill_request(DmkWindow *self, DmkRequestKind kind, DmkLabKind lab, DmkRunRequest *r,
                        DmkError *err)
{
    const char *dir = _dmk_window_target_path(self);
    dmk_run_request_init(r, kind, lab);
    if (!dir || !*dir)
        return dmk_error_set(err, DMK_E_INVAL, 0, "choose a target folder first");
    if (strlen(dir) >= sizeof r->target)
        return dmk_error_set(err, DMK_E_INVAL, 0, "the target's path is too long: %s", dir);
    g_strlcpy(r->target, dir, sizeof r->target);
    r->device = _dmk_window_target_is_device(self);
    r->size = g_settings_get_uint64(self->settings, "test-size");
    r->passes = (uint32_t)g_settings_get_int(self->settings, "passes");
    r->measure_s = seconds_setting(self, "measure-time", self->overrides.measure_s);
    r->warmup_s = self->overrides.warmup_s; /* < 0: the measure time */
    r->interval_s = seconds_setting(self, "interval-time", self->overrides.interval_s);
    if (self->overrides.watchdog_s > 0)
        r->watchdog_s = self->overrides.watchdog_s;
    g_strlcpy(r->backend, self->backend ? self->backend : "native", sizeof r->backend);
    r->backend_opts = self->overrides.backend_opts;
    set_data_kind(self, r);
    return DMK_OK;
}

/* The profile's tests (or the one of `row`), in the chosen directions,
 * and mixed when the profile has the Mix column; the Benchmark tab's
 * "Verify written data" for those that write. */
static int build_spec(DmkWindow *self, int row, DmkRunSpec *spec, DmkRunStart *start, DmkError *err)
{
    DmkRunRequest *r = g_new(DmkRunRequest, 1);
    const DmkProfile *p = _dmk_window_profile(self);
    int rc = fill_request(self, DMK_REQUEST_RUN, DMK_LAB_NONE, r, err);
    g_strlcpy(r->profile, p->id, sizeof r->profile);
    if (rc == DMK_OK && row >= 0 && ((size_t)row >= p->n_tests || row >= DMK_ROWS_MAX))
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "the profile has no test in row %d", row + 1);
    if (rc == DMK_OK && row >= 0)
        rc = dmk_run_request_set(r, DMK_REQ_TEST, p->tests[row], err);
    /* The custom profile (the Settings dialog's) is not the table's: its
     * tests are given by name, as drivemark-cli's --test. */
    for (size_t i = 0; rc == DMK_OK && row < 0 && strcmp(p->id, "custom") == 0 && i < p->n_tests;
         i++)
        rc = dmk_run_request_set(r, DMK_REQ_TEST, p->tests[i], err);
    r->read_share = (uint32_t)g_settings_get_int(self->settings, "mix-read-share");
    /* A device in use is only read: its write and mixed tiles say why. */
    gboolean read_only = _dmk_window_target_usage(self) != NULL;
    r->mode = read_only ? DMK_RUN_READ : _dmk_window_run_mode(self);
    r->mix = !read_only && _dmk_window_mix(self);
    r->verify = g_settings_get_boolean(self->settings, "verify");
    r->verify_if_writes = true;
    if (rc == DMK_OK)
        rc = dmk_run_request_build(r, spec, err);
    g_free(r);
    if (rc == DMK_OK)
        map_tiles(self, row, spec, start);
    return rc;
}

static int build_sweep_spec(DmkWindow *self, const DmkSweep *sw, DmkRunSpec *spec, DmkError *err)
{
    DmkRunRequest *r = g_new(DmkRunRequest, 1);
    int rc = fill_request(self, DMK_REQUEST_SWEEP, DMK_LAB_NONE, r, err);
    r->sweep = *sw;
    if (_dmk_window_target_usage(self))
        r->sweep.mode = DMK_RUN_READ; /* as the Sweep tab shows it */
    if (rc == DMK_OK)
        rc = dmk_run_request_build(r, spec, err);
    g_free(r);
    return rc;
}

static gboolean build_lab_spec(DmkWindow *self, DmkRunSpec *spec)
{
    DmkLabParams p;
    DmkError err = {0};
    DmkRunRequest *r = g_new(DmkRunRequest, 1);
    int rc = dmk_lab_page_get_params(self->lab_page, &p, &err);
    if (rc == DMK_OK)
        rc = fill_request(self, DMK_REQUEST_LAB, p.kind, r, &err);
    if (rc == DMK_OK) {
        r->lab = p; /* the Lab tab's form: its span and warm-up too */
        rc = dmk_run_request_build(r, spec, &err);
    }
    g_free(r);
    if (rc != DMK_OK)
        show_form_error(self, DMK_PROBLEM_LAB, err.code, err.msg);
    return rc == DMK_OK;
}

gboolean _dmk_window_sweep_valid(DmkWindow *self)
{
    DmkRunSpec *spec = g_new(DmkRunSpec, 1);
    DmkSweep sw;
    DmkError err = {0};
    dmk_sweep_page_get_sweep(self->sweep_page, &sw);
    int rc = build_sweep_spec(self, &sw, spec, &err);
    g_free(spec);
    return rc == DMK_OK;
}

/* ---- errors ----------------------------------------------------------------- */

static const char *error_heading(int code)
{
    switch (code) {
    case DMK_E_NOSPC:
        return _("Not enough free space");
    case DMK_E_PERM:
        return _("The target cannot be written");
    case DMK_E_NOTSUP:
        return _("This target cannot be benchmarked");
    case DMK_E_NOENT:
        return _("The target does not exist");
    case DMK_E_INVAL:
        return _("These settings cannot run");
    case DMK_E_LIMIT:
        return _("A system limit was reached");
    case DMK_E_TIMEOUT:
        return _("The run stalled");
    default:
        return _("The benchmark failed");
    }
}

/* The engine writes messages to go after a program's name ("refusing
 * /dev/shm: ..."); as a sentence on its own it starts with a capital. */
static char *sentence(const char *message)
{
    gunichar first = g_utf8_get_char_validated(message, -1);
    if (first == (gunichar)-1 || first == (gunichar)-2 || !g_unichar_islower(first))
        return g_strdup(message);
    char head[8] = {0};
    g_unichar_to_utf8(g_unichar_toupper(first), head);
    return g_strconcat(head, g_utf8_next_char(message), NULL);
}

void _dmk_window_show_problem(DmkWindow *self, const char *heading, const char *message)
{
    _dmk_window_show_problem_of(self, DMK_PROBLEM_OTHER, heading, message);
}

void _dmk_window_show_problem_of(DmkWindow *self, DmkProblemOwner owner, const char *heading,
                                 const char *message)
{
    self->problem_owner = owner;
    char *text = sentence(message);
    char *valid = g_utf8_make_valid(text, -1);
    char *markup = g_markup_printf_escaped("<b>%s</b>\n%s", heading, valid);
    g_free(text);
    g_free(valid);
    gtk_label_set_markup(self->info_label, markup);
    g_free(markup);
    gtk_info_bar_set_message_type(self->info_bar, GTK_MESSAGE_ERROR);
    gtk_widget_set_visible(GTK_WIDGET(self->info_bar), TRUE);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->info_bar), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   heading, -1);
}

/* The engine's codes that are about the target, not the settings. */
static gboolean about_target(int code)
{
    return code == DMK_E_NOSPC || code == DMK_E_PERM || code == DMK_E_NOTSUP || code == DMK_E_NOENT;
}

static void show_error(DmkWindow *self, int code, const char *message)
{
    _dmk_window_show_problem_of(self, about_target(code) ? DMK_PROBLEM_TARGET : DMK_PROBLEM_OTHER,
                                error_heading(code), message);
}

/* A settings error of a page's own form: the page's fields own it. */
static void show_form_error(DmkWindow *self, DmkProblemOwner form, int code, const char *message)
{
    _dmk_window_show_problem_of(self, about_target(code) ? DMK_PROBLEM_TARGET : form,
                                error_heading(code), message);
}

void _dmk_window_hide_error(DmkWindow *self)
{
    gtk_widget_set_visible(GTK_WIDGET(self->info_bar), FALSE);
}

void _dmk_window_clear_problem(DmkWindow *self, DmkProblemOwner owner)
{
    if (self->problem_owner == owner)
        _dmk_window_hide_error(self);
}

/* ---- what the worker reports (main thread) ----------------------------- */

/* How much of a test its warm-up is: the rest is its passes. */
static double warmup_share(DmkWindow *self, const DmkTest *t)
{
    double measure = t->measure_s > 0 ? t->measure_s : self->run.passes * self->run.measure_s;
    double warmup = self->run.warmup_s > 0 ? self->run.warmup_s : 0;
    return warmup + measure > 0 ? warmup / (warmup + measure) : 0;
}

double _dmk_window_test_fraction(DmkWindow *self, const DmkProgress *p)
{
    double f = CLAMP(p->fraction, 0.0, 1.0);
    if (!p->test)
        return 0;
    double w = warmup_share(self, p->test);
    switch (p->stage) {
    case DMK_STAGE_WARMUP:
        return w * f;
    case DMK_STAGE_MEASURE:
        /* A test that ends by bytes has one pass whatever the run's are. */
        return w + (1 - w) * ((MAX(p->pass, 1u) - 1) + f) / MAX(p->passes, 1u);
    case DMK_STAGE_VERIFY:
    case DMK_STAGE_CLEANUP:
        return 1;
    default:
        return 0; /* preparing; the interval before the test */
    }
}

double _dmk_window_run_fraction(DmkWindow *self, const DmkProgress *p)
{
    if (p->stage == DMK_STAGE_CLEANUP)
        return 1;
    if (p->stage == DMK_STAGE_PREPARE || !p->test || !p->n_tests)
        return 0;
    return ((double)p->test_index + _dmk_window_test_fraction(self, p)) / (double)p->n_tests;
}

/* ---- progress in the title and the run's bar ---------------------------- */

#define DMK_TITLE "Drivemark"

/* CrystalDiskMark's habit: the title says where the run is, so a window
 * behind others or minimised still tells ("Drivemark — 2/9 SEQ1M Q8T1
 * Read 45 %"). */
static char *progress_title(DmkWindow *self, const DmkProgress *p)
{
    int pct = (int)(_dmk_window_test_fraction(self, p) * 100.0);
    if (p->stage == DMK_STAGE_CLEANUP)
        /* TRANSLATORS: the window's title during a run's cleanup. */
        return g_strdup(_("Drivemark \u2014 removing the test file"));
    if (p->stage == DMK_STAGE_PREPARE || !p->test)
        return g_strdup_printf(_("Drivemark \u2014 preparing %d %%"),
                               (int)(CLAMP(p->fraction, 0.0, 1.0) * 100.0));
    /* TRANSLATORS: the window's title during a run: the test's number of
     * all, its name (SEQ1M Q8T1, kept), its direction and how far it is. */
    return g_strdup_printf(_("Drivemark \u2014 %zu/%zu %s %s %d %%"), p->test_index + 1, p->n_tests,
                           p->test->name, dmk_text_mode_title(p->test->mode), pct);
}

/* The Benchmark tab's run's bar, over the status line so that it shows
 * on every tab (the sweep and Lab tabs have their own); made on the first
 * run. The running tile has the test's: two bars, because a tile's own
 * bar (its meter) is its value's, which filling with progress as
 * CrystalDiskMark does would make mean two things. */
static GtkProgressBar *run_bar(DmkWindow *self)
{
    if (self->run_bar)
        return self->run_bar;
    GtkWidget *bar = gtk_progress_bar_new();
    gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(bar), TRUE);
    gtk_widget_add_css_class(bar, "run-progress");
    gtk_accessible_update_property(GTK_ACCESSIBLE(bar), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Progress of the run"), -1);
    GtkWidget *status = GTK_WIDGET(self->status_label);
    gtk_box_insert_child_after(GTK_BOX(gtk_widget_get_parent(status)), bar,
                               gtk_widget_get_prev_sibling(status));
    self->run_bar = GTK_PROGRESS_BAR(bar);
    return self->run_bar;
}

static void show_run_progress(DmkWindow *self, const DmkProgress *p)
{
    char *title = progress_title(self, p);
    gtk_window_set_title(GTK_WINDOW(self), title);
    g_free(title);
    if (self->run.owner != &_dmk_window_tiles_owner)
        return;
    GtkProgressBar *bar = run_bar(self);
    double f = _dmk_window_run_fraction(self, p);
    char *text = p->test && p->stage != DMK_STAGE_PREPARE
                     /* TRANSLATORS: the progress bar: the test's number of all, then
                      * how far the whole run is, in percent. */
                     ? g_strdup_printf(_("Test %zu of %zu \u00b7 run %d %%"), p->test_index + 1,
                                       p->n_tests, (int)(f * 100.0))
                     : g_strdup_printf(_("Preparing \u00b7 run %d %%"), (int)(f * 100.0));
    gtk_progress_bar_set_fraction(bar, f);
    gtk_progress_bar_set_text(bar, text);
    gtk_widget_set_visible(GTK_WIDGET(bar), TRUE);
    g_free(text);
}

/* The run is over: the plain title, no bar. */
static void end_run_progress(DmkWindow *self)
{
    gtk_window_set_title(GTK_WINDOW(self), DMK_TITLE);
    if (self->run_bar)
        gtk_widget_set_visible(GTK_WIDGET(self->run_bar), FALSE);
}

/* A hook for the UI tests (DMK_TEST_TRACE_PROGRESS): each report as the
 * window showed it, the tile of its test, the run's bar and the title. */
static void trace_progress(DmkWindow *self, const DmkProgress *p)
{
    static const char *const stages[] = {"prepare",  "warmup",  "measure",
                                         "interval", "cleanup", "verify"};
    if (!g_getenv("DMK_TEST_TRACE_PROGRESS"))
        return;
    DmkTile *tile = self->run.owner == &_dmk_window_tiles_owner && p->test_index < self->run.n_tiles
                        ? self->run.tiles[p->test_index]
                        : NULL;
    g_print("progress\t%zu\t%s\t%s\t%s\t%.4f\t%.4f\t%s\n", p->test_index,
            (size_t)p->stage < G_N_ELEMENTS(stages) ? stages[p->stage] : "?",
            tile ? dmk_tile_get_text(tile) : "", tile ? dmk_tile_get_state(tile) : "",
            tile ? dmk_tile_get_progress(tile) : -1.0,
            self->run_bar ? gtk_progress_bar_get_fraction(self->run_bar) : -1.0,
            gtk_window_get_title(GTK_WINDOW(self)));
}

static void on_progress(const DmkProgress *p, gpointer data)
{
    DmkWindow *self = data;
    /* The engine has stopped all I/O once it removes the test file; how
     * long that takes is the file system's (a discard mount trims first). */
    if (p->stage == DMK_STAGE_CLEANUP && self->stop_asked_us && !self->stop_took_us)
        self->stop_took_us = g_get_monotonic_time() - self->stop_asked_us;
    if (self->stop_asked_us || self->stall_msg)
        return; /* "Stopping…" (or the stall) stays until the run has ended */
    char *text = dmk_text_progress(p);
    _dmk_window_set_status(self, text);
    g_free(text);
    show_run_progress(self, p);
    if (self->run.owner->progress)
        self->run.owner->progress(self, p);
    trace_progress(self, p);
}

static void on_test_done(const DmkTest *test, const DmkPassResult *score, size_t index,
                         gpointer data)
{
    DmkWindow *self = data;
    if (self->run.owner->test_done)
        self->run.owner->test_done(self, test, score, index);
}

/* Every run and sweep that measured something is kept as a tab, shown at
 * once or not as its owner says (a sweep's is; a run's waits behind the
 * Benchmark tab's tiles, a lab test's behind the Lab tab, which shows it
 * too); the owner has it first. A stopped run keeps what it measured.
 * Returns the kept result (the tab's), or NULL. */
static DmkSaved *keep_result(DmkWindow *self, DmkRunResult *res)
{
    const DmkRunOwner *owner = self->run.owner;
    DmkSaved *saved = NULL;
    if (res && res->n_tests) {
        g_strlcpy(res->comment, gtk_editable_get_text(GTK_EDITABLE(self->comment_entry)),
                  sizeof res->comment);
        saved = dmk_saved_new(res, NULL);
        dmk_saved_set_unsaved(saved, TRUE); /* quitting asks until it is saved */
    }
    if (owner->finished)
        owner->finished(self, res, saved);
    if (!saved) {
        dmk_run_result_free(res);
        return NULL;
    }
    _dmk_window_add_result(self, saved, owner->show_result);
    dmk_saved_unref(saved);
    return saved;
}

/* The verify option's verdict: on the status line, and when a block was
 * bad, in the error bar too, since the numbers look fine while data was lost. */
static char *verify_status(DmkWindow *self, DmkSaved *saved, char *status)
{
    DmkVerifyResult sum;
    if (!saved)
        return status;
    dmk_run_result_verify(dmk_saved_get_result(saved), &sum);
    if (!sum.checked)
        return status;
    char line[512];
    dmk_verify_describe(&sum, line, sizeof line);
    char *with = g_strdup_printf("%s \u2014 %s", status, line);
    g_free(status);
    if (sum.bad)
        _dmk_window_show_problem(self, _("Written data did not read back as written"), line);
    return with;
}

static void report_end(DmkWindow *self, int rc, const DmkError *err, DmkSaved *saved,
                       gboolean left_behind)
{
    char *took = dmk_text_clock((double)(g_get_monotonic_time() - self->run_started_us) / 1e6);
    /* TRANSLATORS: the status line after a run; %s is how long it took (1:05). */
    char *status = rc == DMK_OK          ? g_strdup_printf(_("Done in %s"), took)
                   : rc == DMK_E_STOPPED ? g_strdup_printf(_("Stopped after %s"), took)
                                         : g_strdup_printf(_("Failed after %s"), took);
    status = verify_status(self, saved, status);
    _dmk_window_set_status(self, status);
    if (self->run.owner->ended)
        self->run.owner->ended(self, saved, rc, status);
    /* A stop that left a stuck call behind (a frozen file system) says so. */
    if (rc != DMK_OK && (rc != DMK_E_STOPPED || left_behind)) {
        /* A run that failed on FUSE or NFS may have left its test file
         * under the hidden name the note gives (a dead FUSE server). */
        const DmkRunResult *r = saved ? dmk_saved_get_result(saved) : NULL;
        /* The note names the directory: escaped as the message is, so
         * it is found in it when said there, and shown safe when not. */
        char left[sizeof r->target.leftover_note];
        dmk_escape(r ? r->target.leftover_note : "", left, sizeof left);
        bool said = left[0] && strstr(err->msg, left) != NULL;
        char *msg =
            left[0] && !said ? g_strdup_printf("%s\n\n%s", err->msg, left) : g_strdup(err->msg);
        show_error(self, rc, msg);
        g_free(msg);
    }
    g_free(status);
    g_free(took);
}

static void clear_run_timers(DmkWindow *self)
{
    if (self->hold_shot_id)
        g_source_remove(self->hold_shot_id);
    self->hold_shot_id = 0;
    if (self->stop_stuck_id)
        g_source_remove(self->stop_stuck_id);
    self->stop_stuck_id = 0;
    if (self->stall_end_id)
        g_source_remove(self->stall_end_id);
    self->stall_end_id = 0;
}

/* A run that stalled is a failure whatever its thread returned after
 * (a stop pressed once the stall was shown, say): never complete. */
static int stalled_rc(DmkWindow *self, int rc, DmkRunResult *res, const DmkError **err,
                      DmkError *own)
{
    if (!self->stall_msg)
        return rc;
    if (res)
        res->complete = false;
    if (rc == DMK_E_TIMEOUT)
        return rc;
    *own = (DmkError){.code = DMK_E_TIMEOUT};
    g_strlcpy(own->msg, self->stall_msg, sizeof own->msg);
    *err = own;
    return DMK_E_TIMEOUT;
}

static void on_finished(int rc, DmkRunResult *res, const DmkError *err, gpointer data)
{
    DmkWindow *self = data;
    DmkError own;
    gboolean left_behind = dmk_run_worker_left_behind(self->worker);
    dmk_run_worker_unref(self->worker);
    self->worker = NULL;
    clear_run_timers(self);
    rc = stalled_rc(self, rc, res, &err, &own);
    if (self->stop_asked_us && !self->stop_took_us)
        self->stop_took_us = g_get_monotonic_time() - self->stop_asked_us;
    DmkSaved *saved = keep_result(self, res);
    g_clear_pointer(&self->finished_run, dmk_saved_unref);
    self->finished_run = saved ? dmk_saved_ref(saved) : NULL;
    report_end(self, rc, err, saved, left_behind);
    end_run_progress(self);
    self->run.owner = NULL;
    _dmk_window_set_running_ui(self, FALSE, NULL);
    if (!self->closing)
        _dmk_window_run_ended_while_asked(self); /* before anyone hears of the end */
    _dmk_window_emit_run_finished(self, rc);
    if (self->closing)
        gtk_window_destroy(GTK_WINDOW(self));
}

/* ---- a stalled run ------------------------------------------------------------ */

/* After a stall, how long the run's own thread gets to end (its teardown:
 * the test file's removal, quick unless the kernel is stuck) before the
 * window goes on without it; the command line's bound (DMK_GUARD_STALL_S). */
#define DMK_STALL_END_S 10

/* The stall's thread did not end: the window lets it go (it ends by itself
 * if its call ever returns, or with the program) and the run ends here, a
 * failure, so Stop, Close and Quit do not wait for it. */
static gboolean on_stall_stuck(gpointer data)
{
    DmkWindow *self = data;
    self->stall_end_id = 0;
    if (!self->worker)
        return G_SOURCE_REMOVE;
    dmk_run_worker_abandon(self->worker);
    self->worker = NULL;
    if (self->stop_stuck_id)
        g_source_remove(self->stop_stuck_id);
    self->stop_stuck_id = 0;
    char *took = dmk_text_clock((double)(g_get_monotonic_time() - self->run_started_us) / 1e6);
    char *status = g_strdup_printf(_("Failed after %s: the run stalled"), took);
    /* TRANSLATORS: the first %s is the stall's message, the last a note on the test file. */
    char *msg = g_strdup_printf(
        _("%s\n\nThe run did not end within %d s of the stall: a call to the operating system is "
          "stuck (a frozen file system or a hung drive), and Drivemark goes on without it. %s"),
        self->stall_msg, DMK_STALL_END_S,
        dmk_runner_stuck_note(_dmk_window_target_is_device(self)));
    const DmkRunOwner *owner = self->run.owner;
    if (owner->finished)
        owner->finished(self, NULL, NULL); /* nothing is kept of a stalled run */
    _dmk_window_set_status(self, status);
    if (owner->ended)
        owner->ended(self, NULL, DMK_E_TIMEOUT, status);
    show_error(self, DMK_E_TIMEOUT, msg);
    g_free(msg);
    g_free(status);
    g_free(took);
    end_run_progress(self);
    self->run.owner = NULL;
    _dmk_window_set_running_ui(self, FALSE, NULL);
    _dmk_window_emit_run_finished(self, DMK_E_TIMEOUT);
    if (self->closing)
        gtk_window_destroy(GTK_WINDOW(self));
    return G_SOURCE_REMOVE;
}

/* The engine found no progress for the watchdog time: said now, on the
 * main thread, before the run's thread tears down (which may block in
 * the kernel). The run is a failure from here on; its end follows, or
 * DMK_STALL_END_S later the window lets the thread go. */
static void on_stalled(const char *msg, gpointer data)
{
    DmkWindow *self = data;
    if (self->stall_msg || !self->worker)
        return;
    self->stall_msg =
        g_strdup_printf("%s. %s", msg, dmk_runner_stuck_note(_dmk_window_target_is_device(self)));
    if (!self->stop_asked_us)
        _dmk_window_set_status(self, _("Failed: the run stalled"));
    show_error(self, DMK_E_TIMEOUT, self->stall_msg);
    self->stall_end_id = g_timeout_add_seconds(DMK_STALL_END_S, on_stall_stuck, self);
    if (self->stop_at_stall) {
        self->stop_at_stall = FALSE; /* that run's only */
        if (self->close_at_stop)
            dmk_window_close_answered(self);
        else
            dmk_window_stop(self);
    }
}

/* ---- starting and stopping --------------------------------------------- */

static const DmkBackend *run_backend(DmkWindow *self)
{
    const DmkBackend *be = dmk_backend_by_name(self->backend);
    return be ? be : dmk_backend_native();
}

static void stop_held(DmkWindow *self);

/* Up to this many tries, 0.1 s apart, for a frame drawn since the hold. */
#define DMK_HOLD_SHOT_TRIES 50

static gboolean shoot_held(gpointer data)
{
    DmkWindow *self = data;
    GError *error = NULL;
    if (!dmk_screenshot_ready(GTK_WIDGET(self)) && ++self->hold_shot_tries < DMK_HOLD_SHOT_TRIES)
        return G_SOURCE_CONTINUE;
    if (!dmk_screenshot_save(GTK_WIDGET(self), g_getenv("DMK_TEST_SHOT_AT_HOLD"), &error)) {
        g_printerr("drivemark: %s\n", error->message);
        g_clear_error(&error);
    }
    self->hold_shot_id = 0;
    if (self->worker)
        stop_held(self);
    return G_SOURCE_REMOVE;
}

/* A hook for screenshots (DMK_TEST_SHOT_AT_HOLD=PNG): the window as it
 * is at the hold, mid-test, once that state is drawn; then the stop. */
static gboolean shot_at_hold(DmkWindow *self)
{
    if (!g_getenv("DMK_TEST_SHOT_AT_HOLD") || self->hold_shot_id)
        return FALSE;
    gtk_widget_queue_draw(GTK_WIDGET(self));
    self->hold_shot_tries = 0;
    self->hold_shot_id = g_timeout_add(100, shoot_held, self);
    return TRUE;
}

/* Tests: the run waits at the report asked for, shown: Stop, as a user would. */
static void on_held(const DmkProgress *p, gpointer data)
{
    DmkWindow *self = data;
    on_progress(p, self);
    if (!shot_at_hold(self))
        stop_held(self);
}

static void stop_held(DmkWindow *self)
{
    if (self->close_at_stop)
        dmk_window_close_answered(self); /* stops the run, then goes */
    else
        dmk_window_stop(self);
}

void dmk_window_set_stop_at(DmkWindow *self, DmkStage stage, unsigned count, gboolean close)
{
    self->stop_at = (DmkRunHold){stage, count};
    self->close_at_stop = close;
}

void dmk_window_set_stop_at_stall(DmkWindow *self, gboolean close)
{
    self->stop_at_stall = TRUE;
    self->close_at_stop = close;
}

void _dmk_window_start_run(DmkWindow *self, int row, gboolean confirmed)
{
    if (self->worker || self->lab_confirm || row >= DMK_ROWS_MAX)
        return;
    /* What the list said may be old: a device mounted since runs its
     * reads only. One gone, like a folder gone, is the engine's to say. */
    _dmk_window_recheck_target(self);
    DmkRunSpec *spec = g_new(DmkRunSpec, 1);
    DmkRunStart start = {.owner = &_dmk_window_tiles_owner, .row = row};
    DmkError err = {0};
    _dmk_window_hide_error(self);
    if (build_spec(self, row, spec, &start, &err) != DMK_OK) {
        show_error(self, err.code, err.msg);
        g_free(spec);
        return;
    }
    if (_dmk_window_device_ready(self, spec, &start))
        _dmk_window_launch_asking(self, spec, &start, confirmed);
    g_free(spec);
}

void _dmk_window_start_sweep(DmkWindow *self, gboolean confirmed)
{
    if (self->worker || self->lab_confirm)
        return;
    DmkRunSpec *spec = g_new(DmkRunSpec, 1);
    DmkRunStart start = {.owner = &_dmk_window_sweep_owner};
    DmkSweep sw;
    DmkError err = {0};
    _dmk_window_recheck_target(self);
    _dmk_window_hide_error(self);
    dmk_sweep_page_get_sweep(self->sweep_page, &sw);
    if (build_sweep_spec(self, &sw, spec, &err) != DMK_OK) {
        show_form_error(self, DMK_PROBLEM_SWEEP, err.code, err.msg);
        g_free(spec);
        return;
    }
    if (_dmk_window_device_ready(self, spec, &start))
        _dmk_window_launch_asking(self, spec, &start, confirmed);
    g_free(spec);
}

/* The run's owner is set before anything reports, and its page begins
 * first: the worker's reports go to it from the first one on. */
void _dmk_window_launch(DmkWindow *self, const DmkRunSpec *spec, const DmkRunStart *start)
{
    if (self->worker || self->udisks_wait)
        return;
    /* A device only root may open is asked of UDisks2 first (the native
     * backend's: the null and fault backends open nothing). */
    if (run_backend(self) == dmk_backend_native() &&
        _dmk_window_device_via_udisks(self, spec, start))
        return;
    DmkRunWorkerCallbacks cb = {on_progress, on_test_done, on_finished, self, on_held, on_stalled};
    self->run = *start;
    self->run.warmup_s = spec->warmup_s;
    self->run.measure_s = spec->measure_s;
    self->run.passes = spec->passes;
    GtkWidget *stop_button = start->owner->begin ? start->owner->begin(self, spec) : NULL;
    g_clear_pointer(&self->stall_msg, g_free);
    self->run_started_us = g_get_monotonic_time();
    self->stop_asked_us = self->stop_took_us = 0;
    _dmk_window_set_status(self, _("Starting\u2026"));
    self->worker = dmk_run_worker_start_held(spec, run_backend(self), &cb, &self->stop_at);
    self->stop_at.count = 0; /* that run's only */
    _dmk_window_set_running_ui(self, TRUE, stop_button);
}

void dmk_window_run_lab(DmkWindow *self, gboolean confirmed)
{
    if (self->worker || self->lab_confirm)
        return;
    dmk_window_show_lab(self, DMK_LAB_NONE);
    _dmk_window_recheck_target(self);
    _dmk_window_hide_error(self);
    if (_dmk_window_target_usage(self) && _dmk_window_lab_writes(self)) {
        /* A lab test that writes: Start says so, and so does a shortcut. */
        char *why = g_strdup_printf(_("this lab test writes, and %s is in use (%s); only read "
                                      "tests run on it"),
                                    _dmk_window_target_path(self), _dmk_window_target_usage(self));
        show_error(self, DMK_E_PERM, why);
        g_free(why);
        return;
    }
    DmkRunSpec *spec = g_new(DmkRunSpec, 1);
    DmkRunStart lab = {.owner = &_dmk_window_lab_owner};
    if (build_lab_spec(self, spec)) {
        /* Filling a drive is not something to start by a slip of the mouse. */
        if (!confirmed && !spec->device && dmk_lab_from_name(spec->lab) == DMK_LAB_FULLSPAN)
            _dmk_window_confirm_fullspan(self, spec);
        else if (_dmk_window_device_ready(self, spec, &lab))
            _dmk_window_launch_asking(self, spec, &lab, confirmed); /* a device's own question
                                                                     * replaces the fill's */
    }
    g_free(spec);
}

void dmk_window_run_all(DmkWindow *self, gboolean confirmed)
{
    _dmk_window_start_run(self, -1, confirmed);
}

/* A stop ends a run within a few seconds, even with a worker stuck in the
 * kernel (the engine leaves it behind). The run's own thread can be
 * stuck too (opening, flushing or closing the test file on a frozen file
 * system): then the window says so instead of "Stopping…" for ever, and a
 * window being closed goes, leaving the thread to end by itself. */
#define DMK_STOP_STUCK_S 10

/* The run's thread is let go (it ends by itself if its call ever
 * returns, or with the program) and the window closes without it. */
static void leave_worker_and_close(DmkWindow *self)
{
    dmk_run_worker_abandon(self->worker);
    self->worker = NULL;
    clear_run_timers(self);
    gtk_window_destroy(GTK_WINDOW(self));
}

static gboolean close_now(gpointer data)
{
    DmkWindow *self = data;
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    g_print("closed-at\t%s\n", gtk_label_get_text(self->status_label)); /* the state it met */
    /* The user who closes or quits here answers "Stop and Quit". */
    self->quit_answered = TRUE;
    if (g_strcmp0(g_getenv("DMK_TEST_CLOSE_AFTER_STOP_BOUND"), "quit") == 0 && app)
        g_action_group_activate_action(G_ACTION_GROUP(app), "quit", NULL); /* Ctrl+Q */
    else
        gtk_window_close(GTK_WINDOW(self));
    g_object_unref(self);
    return G_SOURCE_REMOVE;
}

/* A hook for the UI tests: the user closes the window (=close) or quits
 * (=quit) once the stop's bound has passed, as one who reads "Not
 * stopped" would. */
static void close_later_if_asked(DmkWindow *self)
{
    if (g_getenv("DMK_TEST_CLOSE_AFTER_STOP_BOUND"))
        g_idle_add(close_now, g_object_ref(self));
}

static gboolean on_stop_stuck(gpointer data)
{
    DmkWindow *self = data;
    self->stop_stuck_id = 0;
    if (!self->worker)
        return G_SOURCE_REMOVE;
    /* A closing window goes whatever the thread does: even the test
     * file's removal (stop_took_us: begun) can block for ever, as a
     * close() on a frozen ext4 does. */
    if (self->closing) {
        leave_worker_and_close(self);
        return G_SOURCE_REMOVE;
    }
    close_later_if_asked(self);
    /* Removing the test file has begun: its I/O is over, only slow (a
     * discard mount trims first). */
    if (self->stop_took_us)
        return G_SOURCE_REMOVE;
    char msg[512];
    /* A device has no test file (the target cannot change during a run). */
    /* TRANSLATORS: %s is one of the two sentences on the test file that follow. */
    snprintf(msg, sizeof msg,
             _("The run did not stop within %d s: a call to the operating system is stuck (a "
               "frozen file system or a hung drive). %s; the run is not complete."),
             DMK_STOP_STUCK_S,
             _dmk_window_target_is_device(self)
                 ? _("The device has no test file: nothing is left on it")
                 : _("Its test file is freed when that call returns or Drivemark exits"));
    _dmk_window_set_status(self, _("Not stopped: a call to the OS is stuck"));
    show_error(self, DMK_E_TIMEOUT, msg);
    return G_SOURCE_REMOVE;
}

void dmk_window_stop(DmkWindow *self)
{
    if (!self->worker || self->stop_asked_us)
        return;
    self->stop_stuck_id = g_timeout_add_seconds(DMK_STOP_STUCK_S, on_stop_stuck, self);
    self->stop_asked_us = g_get_monotonic_time();
    g_free(self->status_at_stop);
    self->status_at_stop = g_strdup(gtk_label_get_text(self->status_label));
    dmk_run_worker_stop(self->worker);
    _dmk_window_set_status(self, _("Stopping\u2026"));
    gtk_window_set_title(GTK_WINDOW(self), _("Drivemark \u2014 stopping\u2026"));
}

/* Closing during a run stops it first; the window goes once the worker
 * has ended, so the test file is gone and the thread joined before the
 * application can exit, or DMK_STOP_STUCK_S after the stop without it.
 * A stop asked earlier whose bound has passed already (its timer gone:
 * "Not stopped", or a cleanup that does not end) re-arms nothing, so the
 * window lets the thread go now rather than wait for it for ever. */
gboolean _dmk_window_on_close_request(GtkWindow *window)
{
    DmkWindow *self = DMK_WINDOW(window);
    if (_dmk_window_close_asks(self))
        return TRUE; /* the answer closes it, or not */
    if (!self->worker)
        return FALSE;
    self->closing = TRUE;
    if (self->stop_asked_us && !self->stop_stuck_id) {
        dmk_run_worker_abandon(self->worker);
        self->worker = NULL;
        clear_run_timers(self);
        return FALSE; /* the window closes as usual */
    }
    dmk_window_stop(self);
    return TRUE;
}

void _dmk_window_run_dispose(DmkWindow *self)
{
    /* Normally the run ended before; this is the last resort (the app is
     * torn down): stop, wait, and drop what the worker still had to say. */
    clear_run_timers(self);
    _dmk_window_device_dispose(self);
    dmk_run_worker_cancel(self->worker);
    self->worker = NULL;
    g_clear_pointer(&self->stall_msg, g_free);
}

/* ---- results out ----------------------------------------------------------- */

/* Copy and save take the comment as it is now, as CrystalDiskMark does. */
static void apply_comment(DmkWindow *self)
{
    if (self->last_run)
        dmk_saved_set_comment(self->last_run,
                              gtk_editable_get_text(GTK_EDITABLE(self->comment_entry)));
}

const DmkRunResult *dmk_window_get_result(DmkWindow *self)
{
    apply_comment(self);
    DmkSaved *s = _dmk_window_current_saved(self);
    s = s ? s : self->last_run;
    return s ? dmk_saved_get_result(s) : NULL;
}

const DmkRunResult *dmk_window_get_run_result(DmkWindow *self)
{
    return self->finished_run ? dmk_saved_get_result(self->finished_run) : NULL;
}

gboolean dmk_window_save_result(DmkWindow *self, const char *path, GError **error)
{
    apply_comment(self);
    DmkSaved *s = _dmk_window_current_saved(self);
    s = s ? s : self->last_run;
    if (!s) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there are no results to save yet"));
        return FALSE;
    }
    if (!dmk_saved_write(s, path, error))
        return FALSE;
    if (dmk_saved_get_path(s) && strcmp(dmk_saved_get_path(s), path) == 0) {
        _dmk_window_saved_renamed(self, s);
        _dmk_window_add_recent(self, path);
    }
    return TRUE;
}

/* ---- what the window shows, for tests ----------------------------------- */

static void dump_tiles(DmkWindow *self, GString *s)
{
    for (int r = 0; r < DMK_ROWS_MAX; r++) {
        for (int c = 0; c < DMK_COLS; c++) {
            DmkTile *t = self->tiles[r][c];
            if (!gtk_widget_get_visible(GTK_WIDGET(t)))
                continue;
            g_string_append_printf(s, "tile\t%s\t%s\t%s\t%s\t%s\n", self->row_names[r],
                                   dmk_mode_name((DmkMode)c), dmk_tile_get_text(t),
                                   dmk_tile_has_value(t) ? "measured" : "empty",
                                   dmk_tile_get_state(t));
            if (dmk_tile_get_flags_text(t)[0])
                g_string_append_printf(s, "tile-flags\t%s\t%s\t%s\n", self->row_names[r],
                                       dmk_mode_name((DmkMode)c), dmk_tile_get_flags_text(t));
        }
    }
}

/* The chosen target and what Run makes of it: "target PATH ok|REASON",
 * "run-button on|off TOOLTIP". */
static void dump_target(DmkWindow *self, GString *s)
{
    const char *path = _dmk_window_target_path(self);
    GtkWidget *b = GTK_WIDGET(self->all_button);
    const char *tip = gtk_widget_get_tooltip_text(b);
    g_string_append_printf(s, "target\t%s\t%s\n", path ? path : "",
                           self->target_problem ? self->target_problem : "ok");
    g_string_append_printf(s, "run-button\t%s\t%s\n", gtk_widget_get_sensitive(b) ? "on" : "off",
                           tip ? tip : "");
    const char *usage = _dmk_window_target_usage(self);
    g_string_append_printf(s, "target-usage\t%s\n", usage ? usage : "");
    /* The devices as the list shows them: "device PATH TITLE DETAIL". */
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->targets));
    for (guint i = 0; i < n; i++) {
        DmkTargetItem *item = g_list_model_get_item(G_LIST_MODEL(self->targets), i);
        if (dmk_target_item_get_kind(item) == DMK_TARGET_DEVICE) {
            char *title = dmk_target_item_describe(item, FALSE);
            char *detail = dmk_target_item_describe(item, TRUE);
            g_string_append_printf(s, "device\t%s\t%s\t%s\n", dmk_target_item_get_path(item), title,
                                   detail);
            g_free(title);
            g_free(detail);
        }
        g_object_unref(item);
    }
}

char *dmk_window_dump(DmkWindow *self)
{
    GString *s = g_string_new(NULL);
    dump_tiles(self, s);
    if (self->flags_note && gtk_widget_get_visible(self->flags_note)) {
        char *one =
            g_strdelimit(g_strdup(gtk_label_get_text(GTK_LABEL(self->flags_note))), "\n", ';');
        g_string_append_printf(s, "flags-note\t%s\n", one);
        g_free(one);
    }
    g_string_append_printf(s, "status\t%s\n", gtk_label_get_text(self->status_label));
    g_string_append_printf(s, "title\t%s\n", gtk_window_get_title(GTK_WINDOW(self)));
    if (self->stall_msg)
        g_string_append_printf(s, "stall\t%s\n", self->stall_msg);
    if (gtk_widget_get_visible(GTK_WIDGET(self->info_bar))) {
        /* "Heading: message; message" on one line. */
        char **parts = g_strsplit(gtk_label_get_text(self->info_label), "\n", -1);
        char *rest = parts[0] && parts[1] ? g_strjoinv("; ", parts + 1) : NULL;
        g_string_append_printf(s, "error\t%s%s%s\n", parts[0] ? parts[0] : "", rest ? ": " : "",
                               rest ? rest : "");
        g_free(rest);
        g_strfreev(parts);
        int start = 0, end = 0;
        gboolean sel = gtk_label_get_selection_bounds(self->info_label, &start, &end);
        g_string_append_printf(s, "error-selected\t%s\n", sel && end > start ? "yes" : "no");
    }
    dump_target(self, s);
    int min_w = 0, nat_w = 0;
    gtk_widget_measure(GTK_WIDGET(self), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL,
                       NULL);
    g_string_append_printf(s, "window-size\t%d\t%d\t%d\t%d\n",
                           gtk_widget_get_width(GTK_WIDGET(self)),
                           gtk_widget_get_height(GTK_WIDGET(self)), min_w, nat_w);
    dmk_widget_dump_clipped(GTK_WIDGET(self), s);
    if (self->stop_took_us) {
        g_string_append_printf(s, "stop-took-ms\t%" G_GINT64_FORMAT "\n",
                               self->stop_took_us / 1000);
        g_string_append_printf(s, "status-at-stop\t%s\n", self->status_at_stop);
    }
    GtkWidget *question = dmk_window_get_question(self);
    if (question) {
        char *text = NULL, *more = NULL;
        g_object_get(question, "text", &text, "secondary-text", &more, NULL);
        if (more)
            g_strdelimit(more, "\n", ' '); /* one dump line */
        g_string_append_printf(s, "dialog\t%s\t%s\n", text ? text : "", more ? more : "");
        g_free(text);
        g_free(more);
    }
    _dmk_window_dump_settings(self, s);
    _dmk_window_dump_tabs(self, s);
    return g_string_free(s, FALSE);
}
