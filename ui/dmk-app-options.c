/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's command line: the options (each described once, in the
 * run request's table of core/dmk-request.h, shared with drivemark-cli,
 * in option_entries for the window's own, and in dmk-lab.h's and the
 * backends' tables), parsed and checked in handle-local-options before
 * anything runs. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "dmk-app-private.h"
#include "dmk-compare-view.h"
#include "dmk-outfile.h"
#include "dmk-presets.h"
#include "dmk-size.h"
#include "null/dmk-null.h"

/* The window's own options; the run request's come from its table
 * (add_request_options: --comment too), the backends' from theirs
 * (backend_options). The help a user reads is marked N_(): GApplication
 * translates it where --help shows it (its main group's domain is the
 * default one, which main() sets), and the man page's generator takes it
 * as it is, in English. The hidden options are the tests' and scripts'
 * (--help-all only): their help stays English, unmarked. */
G_STATIC_ASSERT(DMK_COMPARE_DEFAULT_PICKS == 4); /* the words of --compare's help */

static const GOptionEntry option_entries[] = {
    {"unit", 0, 0, G_OPTION_ARG_STRING, NULL, N_("mb-s, gb-s, mib-s, iops or us"), "UNIT"},
    {"autorun", 0, 0, G_OPTION_ARG_NONE, NULL,
     N_("Run all tests (or the --sweep or --lab) at once"), NULL},
    {"sweep", 0, 0, G_OPTION_ARG_STRING, NULL,
     N_("Show the sweep tab for qd (queue depths) or bs (block sizes)"), "KIND"},
    {"null-clock", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Null backend: real or simulated time, which moves only while the run waits for its I/O "
     "(tests; needs --null-latency)",
     "KIND"},
    {"open", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, N_("Open a result file (CSV); repeatable"),
     "FILE"},
    {"compare", 0, 0, G_OPTION_ARG_NONE, NULL,
     N_("Show the Compare tab (the first 4 opened results ticked)"), NULL},
    {"export-chart", 0, 0, G_OPTION_ARG_FILENAME, NULL,
     N_("Save the chart shown as PNG, SVG or PDF when done (NAME@2x.png: twice the pixels)"),
     "FILE"},
    {"screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Save a PNG of the window when done"),
     "FILE"},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Save the results as JSON when done"), "FILE"},
    {"save-text", 0, 0, G_OPTION_ARG_FILENAME, NULL,
     N_("Save the results as CrystalDiskMark's text (as File, Save Text) when done"), "FILE"},
    {"save-image", 0, 0, G_OPTION_ARG_FILENAME, NULL,
     N_("Save the tab shown and its context as a PNG (as File, Save Image) when done"), "FILE"},
    {"dump-tiles", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the tiles, status and error when done"),
     NULL},
    {"quit-when-done", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Quit after the run (and screenshot)"),
     NULL},
    {"dump-clipboard", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
     "Copy the results when done and print what the clipboard holds (tests)", NULL},
    {"drop", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME_ARRAY, NULL,
     "Drop a file on the window, as a file manager would (tests)", "FILE"},
    {"activate", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, NULL,
     "Trigger the window's action NAME (as win.NAME; app.NAME as it is; NAME(TARGET) with "
     "a target, as \"zoom(200)\") once it is shown (tests)",
     "NAME"},
    {"set-test", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, NULL,
     "Open the Settings dialog, set row ROW (1-4) to the test NAME (or mix, measure, interval "
     "to N) and press OK (tests)",
     "ROW=NAME"},
    {"settings-reset", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
     "Open the Settings dialog, press Reset to Default, then OK (tests)", NULL},
    {"when-started", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, NULL,
     "Trigger action NAME, as --activate, once the --autorun's run has started (tests)", "NAME"},
    {"when-done", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, NULL,
     "Trigger action NAME, as --activate, once the --autorun's run has ended, before the "
     "outputs (tests)",
     "NAME"},
    {"type-comment", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Type TEXT into the comment field once the --autorun's run has ended (tests)", "TEXT"},
    {"answer", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, NULL,
     "Answer the next question the window asks (quit, close a tab, a big write): cancel, "
     "discard, stop, start, save or save:DIR; repeatable, in order (tests)",
     "ANSWER"},
    {"stop-after", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_DOUBLE, NULL,
     "Press Stop SECONDS after the run started (tests)", "SECONDS"},
    {"stop-at", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Press Stop at the Nth progress report of STAGE (prepare, warmup, measure, interval) with "
     "bytes moved, the run waiting there for it; or once a stall is shown: stall (tests)",
     "STAGE[:N]"},
    {"close-at", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Close the window where --stop-at would press Stop (tests)", "STAGE[:N]"},
    {"runs", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, NULL,
     "With --autorun: run N times one after the other, --stop-at, --close-at and --stop-after "
     "acting in the last (tests)",
     "N"},
    {"close-after", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_DOUBLE, NULL,
     "Close the window SECONDS after the run started (tests)", "SECONDS"},
    {"confirm-device", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, NULL,
     "Type NAME into a device's \"type its name\" question when asked (tests)", "NAME"},
    {"udisks-always", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
     "Ask UDisks2 to open a device even where this user may open it (tests)", NULL},
    {"window-size", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Open the window this big, as a user's resize or a maximised window under a window "
     "manager would (tests; Xvfb has none)",
     "WxH"},
    {"version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the version"), NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

/* One option to fn: GApplication's, or the man page's generator. */
static void add_option(DmkAppOptionFn fn, void *data, const char *name, char short_name, int flags,
                       GOptionArg arg, const char *help, const char *value)
{
    GOptionEntry e = {name, short_name, flags, arg, NULL, help, value};
    fn(&e, data);
}

static int parse_lab_kind(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    g_variant_dict_lookup(d, "lab", "s", &o->lab);
    if (!o->lab)
        return DMK_OK;
    o->lab_o.kind = dmk_lab_from_name(o->lab);
    char names[256];
    if (o->lab_o.kind == DMK_LAB_NONE)
        return dmk_error_set(err, DMK_E_INVAL, 0, "--lab '%s' is unknown: expected %s", o->lab,
                             dmk_lab_names_text(", ", " or ", names, sizeof names));
    return DMK_OK;
}

/* ---- the Lab tab's settings: --lab-NAME for each time and size setting
 * of dmk-lab.h's table that a test's form shows, with its range there. */

static gboolean is_window_setting(const DmkLabParam *lp)
{
    /* Counts of the lab's own (the surface scan's), not the shared --qd. */
    bool count = lp->kind == DMK_LAB_VALUE_COUNT && !lp->shared;
    bool path = lp->kind == DMK_LAB_VALUE_PATH;
    if (lp->kind != DMK_LAB_VALUE_SECONDS && lp->kind != DMK_LAB_VALUE_SIZE && !count && !path)
        return FALSE;
    for (size_t i = 0; i < dmk_lab_test_count(); i++)
        for (size_t f = 0; f < dmk_lab_test_at(i)->n_fields; f++)
            if (dmk_lab_test_at(i)->fields[f].id == lp->id)
                return TRUE;
    return FALSE;
}

/* Option names and help live as long as the application: GApplication
 * keeps the pointers. */
static char lab_option_names[DMK_LAB_N_PARAMS][40];
static char lab_option_help[DMK_LAB_N_PARAMS][320];
static char lab_kind_help[320];

static void add_lab_options(DmkAppOptionFn fn, void *data)
{
    char names[256];
    /* TRANSLATORS: --help; KIND is the option's value, %s the lab tests' names (not translated). */
    g_snprintf(lab_kind_help, sizeof lab_kind_help, _("Show the Lab tab with test KIND: %s"),
               dmk_lab_names_text(", ", " or ", names, sizeof names));
    add_option(fn, data, "lab", 0, 0, G_OPTION_ARG_STRING, lab_kind_help, "KIND");
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        if (!is_window_setting(lp))
            continue;
        g_snprintf(lab_option_names[id], sizeof lab_option_names[id], "lab-%s", lp->name);
        /* TRANSLATORS: --help of a Lab tab setting; %s is what it sets. */
        g_snprintf(lab_option_help[id], sizeof lab_option_help[id], _("Lab: %s"), _(lp->help));
        add_option(fn, data, lab_option_names[id], 0, 0, G_OPTION_ARG_STRING, lab_option_help[id],
                   lp->value);
    }
}

static int parse_lab_setting(GVariantDict *d, const DmkLabParam *lp, DmkLabOverrides *l,
                             DmkError *err)
{
    char *v = NULL, what[48];
    double *out = &l->value[lp->id];
    g_snprintf(what, sizeof what, "--lab-%s", lp->name);
    if (!g_variant_dict_lookup(d, what + 2, "s", &v))
        return DMK_OK;
    int rc = DMK_OK;
    if (lp->kind == DMK_LAB_VALUE_PATH) { /* the trace: checked when the run reads it */
        if (!v[0] || strlen(v) >= sizeof l->trace)
            rc = dmk_error_set(err, DMK_E_INVAL, 0, "%s needs a file's path", what);
        else
            g_strlcpy(l->trace, v, sizeof l->trace);
    } else if (lp->kind == DMK_LAB_VALUE_SECONDS) {
        rc = dmk_parse_seconds_range(what, v, lp->min, lp->max, out, err);
    } else if (lp->kind == DMK_LAB_VALUE_COUNT) {
        uint64_t n = 0;
        rc = dmk_parse_uint_range(what, v, (uint64_t)lp->min, (uint64_t)lp->max, &n, err);
        *out = (double)n;
    } else {
        uint64_t bytes = 0;
        rc = dmk_parse_size_range(what, v, (uint64_t)lp->min, (uint64_t)lp->max, &bytes, err);
        *out = (double)bytes;
    }
    g_free(v);
    return rc;
}

/* ---- the backends' options that test scripts give the window, each as
 * --BACKEND-KEY (drivemark-cli's name), with the backend table's words. */

static const struct {
    const char *backend, *key;
} backend_options[] = {{"null", "cache"},
                       {"null", "thermal"},
                       {"null", "latency"},
                       {"fault", "hang"},
                       {"fault", "hang-run"}};

#define N_BACKEND_OPTIONS G_N_ELEMENTS(backend_options)

/* Names and help live as long as the application (GApplication keeps
 * the pointers). */
static char backend_option_names[N_BACKEND_OPTIONS][32];
static char backend_option_help[N_BACKEND_OPTIONS][320];

static const char *backend_option_name(size_t i)
{
    g_snprintf(backend_option_names[i], sizeof backend_option_names[i], "%s-%s",
               backend_options[i].backend, backend_options[i].key);
    return backend_option_names[i];
}

static const DmkBackendOption *backend_option_of(const DmkBackend *be, const char *key)
{
    for (const DmkBackendOption *bo = be ? be->options : NULL; bo && bo->key; bo++)
        if (strcmp(bo->key, key) == 0)
            return bo;
    return NULL;
}

static void add_backend_options(DmkAppOptionFn fn, void *data)
{
    for (size_t i = 0; i < N_BACKEND_OPTIONS; i++) {
        const char *be_name = backend_options[i].backend;
        const DmkBackendOption *bo =
            backend_option_of(dmk_backend_by_name(be_name), backend_options[i].key);
        if (!bo)
            continue;
        g_snprintf(backend_option_help[i], sizeof backend_option_help[i],
                   "The %s backend: %s (tests)", be_name, bo->help);
        add_option(fn, data, backend_option_name(i), 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING,
                   backend_option_help[i], bo->arg);
    }
}

/* Backend be_name's options given, into o->req.backend_opts, in the
 * table's order; *given: whether any was. */
static int parse_backend_options(DmkAppOptions *o, GVariantDict *d, const char *be_name,
                                 gboolean *given, DmkError *err)
{
    int rc = DMK_OK;
    for (size_t i = 0; rc == DMK_OK && i < N_BACKEND_OPTIONS; i++) {
        char *v = NULL, what[40];
        const char *name = backend_option_name(i);
        if (strcmp(backend_options[i].backend, be_name) != 0 ||
            !g_variant_dict_lookup(d, name, "s", &v))
            continue;
        g_snprintf(what, sizeof what, "--%s", name);
        rc = dmk_backend_set_option(dmk_backend_by_name(be_name), &o->req.backend_opts,
                                    backend_options[i].key, v, what, err);
        *given = TRUE;
        g_free(v);
    }
    return rc;
}

static int parse_lab(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    DmkLabOverrides *l = &o->lab_o;
    int rc = parse_lab_kind(o, d, err);
    for (int id = 0; rc == DMK_OK && id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        if (!is_window_setting(lp))
            continue;
        rc = parse_lab_setting(d, lp, l, err);
        char name[48];
        g_snprintf(name, sizeof name, "lab-%s", lp->name);
        o->lab_set = o->lab_set || g_variant_dict_contains(d, name);
    }
    /* The null backend's options come with lab runs (tests). */
    gboolean null_given = FALSE;
    if (rc == DMK_OK)
        rc = parse_backend_options(o, d, "null", &null_given, err);
    o->lab_set = o->lab_set || null_given || g_variant_dict_contains(d, "lab");
    return rc;
}

/* --stop-at STAGE[:N]: the stage by its name, N from 1 (default 1). */
static int parse_stop_at(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    static const char *const names[] = {"prepare", "warmup", "measure", "interval"};
    static const DmkStage stages[] = {DMK_STAGE_PREPARE, DMK_STAGE_WARMUP, DMK_STAGE_MEASURE,
                                      DMK_STAGE_INTERVAL};
    const char *opt = "--stop-at";
    if (g_variant_dict_lookup(d, "close-at", "s", &o->stop_at)) {
        o->close_at = TRUE;
        opt = "--close-at";
        if (g_variant_dict_contains(d, "stop-at"))
            return dmk_error_set(err, DMK_E_INVAL, 0,
                                 "--stop-at and --close-at exclude each other");
    } else if (!g_variant_dict_lookup(d, "stop-at", "s", &o->stop_at)) {
        return DMK_OK;
    }
    if (g_strcmp0(o->stop_at, "stall") == 0) {
        o->stop_at_stall = TRUE;
        return DMK_OK;
    }
    char **parts = g_strsplit(o->stop_at, ":", 2);
    guint64 n = 1;
    gboolean ok = !parts[1] || (g_ascii_string_to_unsigned(parts[1], 10, 1, 1000, &n, NULL));
    int found = -1;
    for (int i = 0; i < (int)G_N_ELEMENTS(names); i++)
        if (g_strcmp0(parts[0], names[i]) == 0)
            found = i;
    g_strfreev(parts);
    if (!ok || found < 0)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s '%s' is unknown: expected prepare, warmup, measure or "
                             "interval, optionally with :N (1 to 1000), or stall",
                             opt, o->stop_at);
    o->stop_stage = stages[found];
    o->stop_at_count = (unsigned)n;
    return DMK_OK;
}

/* The run request's options that the window offers, by the table: the
 * same names, ranges and messages as drivemark-cli's. */
static int parse_request(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    int rc = DMK_OK;
    for (size_t i = 0; rc == DMK_OK && i < dmk_request_option_count(); i++) {
        const DmkRequestOption *ro = dmk_request_option((DmkRequestOptionId)i);
        char *v = NULL;
        if (!(ro->fronts & DMK_REQ_WINDOW) || !g_variant_dict_contains(d, ro->name))
            continue;
        if (ro->kind == DMK_REQ_VALUE_PATH)
            g_variant_dict_lookup(d, ro->name, "^ay", &v);
        else if (ro->kind != DMK_REQ_VALUE_FLAG)
            g_variant_dict_lookup(d, ro->name, "s", &v);
        rc = dmk_run_request_set(&o->req, ro->id, v, err);
        g_free(v);
    }
    /* The window's tiles have a column per direction: mixed is the
     * column --mix adds, not a mode of its own. */
    if (rc == DMK_OK && (o->req.given & DMK_REQ_BIT(DMK_REQ_MODE)) && o->req.mode == DMK_RUN_MIX)
        rc = dmk_error_set(err, DMK_E_INVAL, 0,
                           "--mode 'mix' does not apply to the window: expected rw, read or "
                           "write (--mix adds the mixed column)");
    return rc;
}

static int parse_numbers(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    int rc = DMK_OK;
    if (rc == DMK_OK && g_variant_dict_lookup(d, "stop-after", "d", &o->stop_after_s) &&
        o->stop_after_s < 0)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "--stop-after must not be negative");
    if (rc == DMK_OK && g_variant_dict_lookup(d, "close-after", "d", &o->close_after_s) &&
        o->close_after_s < 0)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "--close-after must not be negative");
    o->runs = 1;
    if (rc == DMK_OK && g_variant_dict_lookup(d, "runs", "i", &o->runs) &&
        (o->runs < 1 || o->runs > 100))
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "--runs must be from 1 to 100");
    if (rc == DMK_OK)
        rc = parse_backend_options(o, d, "fault", &o->fault_hang, err);
    if (rc == DMK_OK)
        rc = parse_stop_at(o, d, err);
    return rc;
}

static int check_choice(const char *opt, const char *v, const char *const *ok, const char *list,
                        DmkError *err)
{
    if (!v || g_strv_contains(ok, v))
        return DMK_OK;
    return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' is unknown: expected %s", opt, v, list);
}

static int parse_choices(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    static const char *const units[] = {"mb-s", "gb-s", "mib-s", "iops", "us", NULL};
    static const char *const sweeps[] = {"qd", "bs", NULL};
    g_variant_dict_lookup(d, "sweep", "s", &o->sweep);
    int rc = check_choice("--sweep", o->sweep, sweeps, "qd or bs", err);
    if (rc != DMK_OK)
        return rc;
    g_variant_dict_lookup(d, "unit", "s", &o->unit);
    g_variant_dict_lookup(d, "comment", "s", &o->comment);
    return check_choice("--unit", o->unit, units, "mb-s, gb-s, mib-s, iops or us", err);
}

/* --json, --screenshot and --export-chart naming one file (under any
 * spelling: a link, ./F) would leave only the last one written. */
static int check_outputs(const DmkAppOptions *o, DmkError *err)
{
    const struct {
        const char *opt, *path;
    } outs[] = {
        {"--json", o->json}, {"--screenshot", o->screenshot}, {"--export-chart", o->export_chart}};
    DmkOutFile f[3];
    for (size_t i = 0; i < 3; i++) {
        DmkError ignored = {0};
        memset(&f[i], 0, sizeof f[i]);
        /* Only looked at, nothing opened (a pipe's reader must not see an
         * end); a path that cannot be checked fails later with its reason,
         * a device or pipe is written as it is. */
        if (!outs[i].path)
            continue;
        if (strcmp(outs[i].path, "-") == 0)
            f[i].kind = DMK_OUT_STDOUT;
        else if (dmk_os_output_info(outs[i].path, &f[i].info, &ignored) == DMK_OK)
            f[i].kind = f[i].info.is_stdout ? DMK_OUT_STDOUT
                        : f[i].info.kind == DMK_FILE_REGULAR || f[i].info.kind == DMK_FILE_MISSING
                            ? DMK_OUT_REPLACE
                            : DMK_OUT_NONE;
    }
    int rc = DMK_OK;
    for (size_t i = 0; i < 3 && rc == DMK_OK; i++)
        for (size_t j = i + 1; j < 3 && rc == DMK_OK; j++)
            if (dmk_outfile_same(&f[i], &f[j]))
                rc = dmk_error_set(err, DMK_E_INVAL, 0,
                                   "%s '%s' and %s '%s' are the same file: give each its own file",
                                   outs[i].opt, outs[i].path, outs[j].opt, outs[j].path);
    /* An opened result written over by an output (--open r.csv --json
     * r.csv, or through a link) would be lost. */
    for (size_t i = 0; i < 3 && rc == DMK_OK; i++)
        for (size_t k = 0; o->open && o->open[k] && rc == DMK_OK; k++)
            if (dmk_outfile_is_input(&f[i], o->open[k]))
                rc = dmk_error_set(err, DMK_E_INVAL, 0,
                                   "%s '%s' is the file --open '%s' opens: it would be "
                                   "replaced; give each its own file",
                                   outs[i].opt, outs[i].path, o->open[k]);
    return rc;
}

/* The window's outputs, before anything runs: a directory where a
 * result could not be renamed into place (chattr +a, another user's file
 * in a sticky directory, a FUSE mount refusing renames) fails now, not
 * after the run (dmk_os_output_info's checks, dmk_os_rename_probe). A
 * path that cannot be looked at fails later, at the write, with its
 * reason; devices and pipes are written as they are. */
int _dmk_app_options_probe(const DmkAppOptions *o, DmkError *err)
{
    const char *paths[] = {o->json, o->screenshot, o->export_chart};
    for (size_t i = 0; i < 3; i++) {
        DmkFileInfo info;
        DmkError e = {0};
        if (!paths[i] || strcmp(paths[i], "-") == 0)
            continue;
        int rc = dmk_os_output_info(paths[i], &info, &e);
        if (rc == DMK_OK && !info.is_stdout &&
            (info.kind == DMK_FILE_REGULAR || info.kind == DMK_FILE_MISSING))
            rc = dmk_os_rename_probe(info.real, &e);
        if (rc == DMK_E_PERM) { /* a refusal; other faults are said at the write */
            *err = e;
            return rc;
        }
    }
    return DMK_OK;
}

/* --null-clock simulated: only for runs on the null backend with a
 * latency (simulated time moves while I/O takes time). */
static int parse_null_clock(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    char *v = NULL;
    if (!g_variant_dict_lookup(d, "null-clock", "s", &v))
        return DMK_OK;
    gboolean sim = g_strcmp0(v, "simulated") == 0, known = sim || g_strcmp0(v, "real") == 0;
    int rc = DMK_OK;
    if (!known)
        rc = dmk_error_set(err, DMK_E_INVAL, 0,
                           "--null-clock '%s' is unknown: expected real or simulated", v);
    else if (sim && !(dmk_null_opts_get(&o->req.backend_opts)->latency_ns > 0 &&
                      dmk_run_request_backend(&o->req) == dmk_backend_null()))
        rc = dmk_error_set(err, DMK_E_INVAL, 0,
                           "--null-clock simulated needs --backend null and a "
                           "--null-latency above 0");
    o->null_clock_simulated = sim;
    g_free(v);
    return rc;
}

int _dmk_app_options_parse(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    g_variant_dict_lookup(d, "confirm-device", "^ay", &o->confirm_device);
    o->udisks_always = g_variant_dict_contains(d, "udisks-always");
    g_variant_dict_lookup(d, "screenshot", "^ay", &o->screenshot);
    g_variant_dict_lookup(d, "json", "^ay", &o->json);
    g_variant_dict_lookup(d, "export-chart", "^ay", &o->export_chart);
    g_variant_dict_lookup(d, "open", "^aay", &o->open);
    g_variant_dict_lookup(d, "drop", "^aay", &o->drop);
    g_variant_dict_lookup(d, "activate", "^as", &o->activate);
    g_variant_dict_lookup(d, "set-test", "^as", &o->set_test);
    o->settings_reset = g_variant_dict_contains(d, "settings-reset");
    g_variant_dict_lookup(d, "save-text", "^ay", &o->save_text);
    g_variant_dict_lookup(d, "save-image", "^ay", &o->save_image);
    g_variant_dict_lookup(d, "when-started", "^as", &o->when_started);
    g_variant_dict_lookup(d, "when-done", "^as", &o->when_done);
    g_variant_dict_lookup(d, "type-comment", "s", &o->type_comment);
    char *size = NULL;
    if (g_variant_dict_lookup(d, "window-size", "s", &size) &&
        (sscanf(size, "%dx%d", &o->window_w, &o->window_h) != 2 || o->window_w <= 0 ||
         o->window_h <= 0)) {
        int rc = dmk_error_set(err, DMK_E_INVAL, 0, "--window-size '%s': expected WxH", size);
        g_free(size);
        return rc;
    }
    g_free(size);
    g_variant_dict_lookup(d, "answer", "^as", &o->answers);
    for (char **a = o->answers; a && *a; a++)
        if (!dmk_window_answer_valid(*a))
            return dmk_error_set(err, DMK_E_INVAL, 0,
                                 "--answer '%s' is unknown: expected cancel, discard, stop, start, "
                                 "save or save:DIR",
                                 *a);
    o->compare = g_variant_dict_contains(d, "compare");
    o->autorun = g_variant_dict_contains(d, "autorun");
    o->quit_when_done = g_variant_dict_contains(d, "quit-when-done");
    o->dump_tiles = g_variant_dict_contains(d, "dump-tiles");
    o->dump_clipboard = g_variant_dict_contains(d, "dump-clipboard");
    if (o->comment && !g_utf8_validate(o->comment, -1, NULL))
        return dmk_error_set(err, DMK_E_INVAL, 0, "--comment is not valid UTF-8");
    int rc = parse_request(o, d, err);
    if (rc == DMK_OK)
        rc = parse_numbers(o, d, err);
    if (rc == DMK_OK)
        rc = parse_lab(o, d, err);
    if (rc == DMK_OK)
        rc = check_outputs(o, err);
    if (rc == DMK_OK)
        rc = parse_choices(o, d, err);
    return rc != DMK_OK ? rc : parse_null_clock(o, d, err); /* needs the backend */
}

gboolean _dmk_app_options_any(GVariantDict *d)
{
    for (const GOptionEntry *e = option_entries; e->long_name; e++)
        if (g_variant_dict_contains(d, e->long_name))
            return TRUE;
    for (size_t i = 0; i < dmk_request_option_count(); i++)
        if (g_variant_dict_contains(d, dmk_request_option((DmkRequestOptionId)i)->name))
            return TRUE;
    for (size_t i = 0; i < N_BACKEND_OPTIONS; i++)
        if (g_variant_dict_contains(d, backend_option_name(i)))
            return TRUE;
    return FALSE;
}

/* Help texts live as long as the application: GApplication keeps the
 * pointers. The table's words, as a sentence (GLib's style); --backend's
 * from the registry: "The I/O backend: native, libaio or null". */
static char request_help[DMK_REQ_N_OPTIONS][512];

static const char *request_help_of(const DmkRequestOption *ro)
{
    char *h = request_help[ro->id], names[160];
    /* The table's run and sweep words only: the window's lab runs take
     * their span and warm-up from the Lab tab (--lab-size, --lab-warmup). */
    if (ro->help)
        g_strlcpy(h, _(ro->help), sizeof request_help[0]);
    else
        /* TRANSLATORS: --help of --backend; %s lists the backends' names (not translated). */
        g_snprintf(h, sizeof request_help[0], _("the I/O backend: %s"),
                   dmk_backend_choices(names, sizeof names));
    h[0] = g_ascii_toupper(h[0]);
    return h;
}

/* The run request's options that the window offers, from its table;
 * values as text, parsed by the table (parse_request). */
static void add_request_options(DmkAppOptionFn fn, void *data)
{
    for (size_t i = 0; i < dmk_request_option_count(); i++) {
        const DmkRequestOption *ro = dmk_request_option((DmkRequestOptionId)i);
        if (!(ro->fronts & DMK_REQ_WINDOW))
            continue;
        GOptionArg arg = ro->kind == DMK_REQ_VALUE_FLAG   ? G_OPTION_ARG_NONE
                         : ro->kind == DMK_REQ_VALUE_PATH ? G_OPTION_ARG_FILENAME
                                                          : G_OPTION_ARG_STRING;
        GOptionFlags flags = ro->fronts & DMK_REQ_WINDOW_HIDDEN ? G_OPTION_FLAG_HIDDEN : 0;
        char short_name = ro->id == DMK_REQ_TARGET ? 't' : 0;
        add_option(fn, data, ro->name, short_name, flags, arg, request_help_of(ro), ro->value);
    }
}

void _dmk_app_options_each(DmkAppOptionFn fn, void *data)
{
    add_request_options(fn, data);
    for (const GOptionEntry *e = option_entries; e->long_name; e++)
        fn(e, data);
    add_backend_options(fn, data);
    add_lab_options(fn, data);
}

static void add_to_app(const GOptionEntry *e, void *app)
{
    g_application_add_main_option(app, e->long_name, e->short_name, e->flags, e->arg,
                                  e->description, e->arg_description);
}

void _dmk_app_options_add(GApplication *app)
{
    _dmk_app_options_each(add_to_app, app);
}

void _dmk_app_options_init(DmkAppOptions *o)
{
    dmk_run_request_init(&o->req, DMK_REQUEST_RUN, DMK_LAB_NONE);
    dmk_lab_overrides_init(&o->lab_o);
}

void _dmk_app_options_clear(DmkAppOptions *o)
{
    g_free(o->confirm_device);
    g_free(o->stop_at);
    g_free(o->unit);
    g_free(o->comment);
    g_free(o->screenshot);
    g_free(o->json);
    g_free(o->export_chart);
    g_free(o->sweep);
    g_free(o->lab);
    g_strfreev(o->open);
    g_strfreev(o->drop);
    g_strfreev(o->activate);
    g_strfreev(o->set_test);
    g_free(o->save_text);
    g_free(o->save_image);
    g_strfreev(o->when_started);
    g_strfreev(o->when_done);
    g_strfreev(o->answers);
    g_free(o->type_comment);
}
