#include "dmk-app.h"

#include <stdio.h>
#include <string.h>

#include "dmk-lab-page.h"
#include "dmk-outfile.h"
#include "dmk-presets.h"
#include "dmk-resources.h"
#include "dmk-screenshot.h"
#include "dmk-size.h"
#include "dmk-version.h"
#include "dmk-window.h"
#include "null/dmk-null.h"

#define EXIT_FAILED  1
#define EXIT_USAGE   2
#define EXIT_STOPPED 3

/* The command line, checked in handle-local-options. */
typedef struct {
    char *target, *profile, *mode, *unit, *backend, *comment;
    char *screenshot, *json, *export_chart, *sweep, *lab;
    char *confirm_device; /* tests: typed into a device's question */
    char **open, **drop, **activate;
    gboolean compare;
    guint64 size;
    int passes;
    gboolean mix, autorun, quit_when_done, dump_tiles, dump_clipboard;
    gboolean verify;
    double measure_s, warmup_s, interval_s, stop_after_s, close_after_s;
    double watchdog_s; /* tests: --watchdog, 0 when not given */
    /* tests: --null-* and --fault-hang, parsed by their backends */
    DmkBackendOpts backend_opts;
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

G_DEFINE_FINAL_TYPE(DmkApp, dmk_app, GTK_TYPE_APPLICATION)

/* Not const: --backend's text is the registry's, filled in by dmk_app_init. */
static GOptionEntry option_entries[] = {
    {"target", 't', 0, G_OPTION_ARG_FILENAME, NULL, "Folder for the test file", "DIR"},
    {"profile", 0, 0, G_OPTION_ARG_STRING, NULL, "default, peak, real, demo or nvme", "NAME"},
    {"mix", 0, 0, G_OPTION_ARG_NONE, NULL, "Add the mixed (70 % read) column", NULL},
    {"mode", 0, 0, G_OPTION_ARG_STRING, NULL, "rw (read and write), read or write", "MODE"},
    {"verify", 0, 0, G_OPTION_ARG_NONE, NULL,
     "Verify written data: read every written block back after its test", NULL},
    {"size", 0, 0, G_OPTION_ARG_STRING, NULL, "Test file size, 16MiB-64GiB", "SIZE"},
    {"passes", 0, 0, G_OPTION_ARG_INT, NULL, "Passes per test, 1-9", "N"},
    {"measure", 0, 0, G_OPTION_ARG_STRING, NULL, "Length of each pass", "SECONDS"},
    {"warmup", 0, 0, G_OPTION_ARG_STRING, NULL, "Warm-up before each test, 0 for none", "SECONDS"},
    {"interval", 0, 0, G_OPTION_ARG_STRING, NULL, "Idle time between tests", "SECONDS"},
    {"unit", 0, 0, G_OPTION_ARG_STRING, NULL, "mb-s, gb-s, mib-s, iops or us", "UNIT"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, NULL, NULL /* backend_help */, "NAME"},
    {"comment", 0, 0, G_OPTION_ARG_STRING, NULL, "Comment for the results", "TEXT"},
    {"autorun", 0, 0, G_OPTION_ARG_NONE, NULL, "Run all tests (or the --sweep or --lab) at once",
     NULL},
    {"sweep", 0, 0, G_OPTION_ARG_STRING, NULL,
     "Show the sweep tab for qd (queue depths) or bs (block sizes)", "KIND"},
    {"null-cache", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Null backend: a simulated write cache of SIZE (tests)", "SIZE"},
    {"null-thermal", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Null backend: a simulated sensor, 1 C warmer per SIZE written (tests)", "SIZE"},
    {"null-clock", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Null backend: real or simulated time, which moves only while the run waits for its I/O "
     "(tests; needs --lab and --null-latency)",
     "KIND"},
    {"null-latency", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Null backend: each I/O of a lab test takes US microseconds (tests)", "US"},
    {"open", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, "Open a result file (CSV); repeatable",
     "FILE"},
    {"compare", 0, 0, G_OPTION_ARG_NONE, NULL, "Compare every opened result", NULL},
    {"export-chart", 0, 0, G_OPTION_ARG_FILENAME, NULL,
     "Save the chart shown as PNG, SVG or PDF when done (NAME@2x.png: twice the pixels)", "FILE"},
    {"screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, "Save a PNG of the window when done", "FILE"},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, NULL, "Save the results as JSON when done", "FILE"},
    {"dump-tiles", 0, 0, G_OPTION_ARG_NONE, NULL, "Print the tiles, status and error when done",
     NULL},
    {"quit-when-done", 0, 0, G_OPTION_ARG_NONE, NULL, "Quit after the run (and screenshot)", NULL},
    {"dump-clipboard", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
     "Copy the results when done and print what the clipboard holds (tests)", NULL},
    {"drop", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME_ARRAY, NULL,
     "Drop a file on the window, as a file manager would (tests)", "FILE"},
    {"activate", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, NULL,
     "Trigger the window's action NAME (as win.NAME) once it is shown (tests)", "NAME"},
    {"stop-after", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_DOUBLE, NULL,
     "Press Stop SECONDS after the run started (tests)", "SECONDS"},
    {"stop-at", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Press Stop at the Nth progress report of STAGE (prepare, warmup, measure, interval) with "
     "bytes moved, the run waiting there for it; or once a stall is shown: stall (tests)",
     "STAGE[:N]"},
    {"close-at", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "Close the window where --stop-at would press Stop (tests)", "STAGE[:N]"},
    {"close-after", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_DOUBLE, NULL,
     "Close the window SECONDS after the run started (tests)", "SECONDS"},
    {"watchdog", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "A queue with nothing completing this long fails the run (tests)", "SECONDS"},
    {"fault-hang", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, NULL,
     "The fault backend: its Nth submit call never returns, as on a frozen file system (tests)",
     "N"},
    {"confirm-device", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, NULL,
     "Type NAME into a device's \"type its name\" question when asked (tests)", "NAME"},
    {"version", 0, 0, G_OPTION_ARG_NONE, NULL, "Show the version", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

/* ---- settings --------------------------------------------------------- */

/* The installed schema; in a build tree, the one compiled next to it. */
static GSettings *settings_new(void)
{
    GSettingsSchemaSource *src = g_settings_schema_source_get_default();
    GSettingsSchema *schema = src ? g_settings_schema_source_lookup(src, DMK_APP_ID, TRUE) : NULL;
#ifdef DMK_BUILD_SCHEMA_DIR
    if (!schema && g_file_test(DMK_BUILD_SCHEMA_DIR "/gschemas.compiled", G_FILE_TEST_EXISTS)) {
        GSettingsSchemaSource *build =
            g_settings_schema_source_new_from_directory(DMK_BUILD_SCHEMA_DIR, src, FALSE, NULL);
        schema = build ? g_settings_schema_source_lookup(build, DMK_APP_ID, TRUE) : NULL;
        if (build)
            g_settings_schema_source_unref(build);
    }
#endif
    if (!schema)
        return NULL;
    GSettings *settings = g_settings_new_full(schema, NULL, NULL);
    g_settings_schema_unref(schema);
    return settings;
}

/* ---- the command line ---------------------------------------------------- */

static int parse_seconds(GVariantDict *d, const char *key, double min, double *out, DmkError *err)
{
    char *v = NULL;
    if (!g_variant_dict_lookup(d, key, "s", &v))
        return DMK_OK;
    char what[32];
    g_snprintf(what, sizeof what, "--%s", key);
    int rc = dmk_parse_seconds_range(what, v, min, DMK_SECONDS_MAX, out, err);
    g_free(v);
    return rc;
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
    if (lp->kind != DMK_LAB_VALUE_SECONDS && lp->kind != DMK_LAB_VALUE_SIZE)
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

static void add_lab_options(GApplication *app)
{
    char names[256];
    g_snprintf(lab_kind_help, sizeof lab_kind_help, "Show the Lab tab with test KIND: %s",
               dmk_lab_names_text(", ", " or ", names, sizeof names));
    g_application_add_main_option(app, "lab", 0, 0, G_OPTION_ARG_STRING, lab_kind_help, "KIND");
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        if (!is_window_setting(lp))
            continue;
        g_snprintf(lab_option_names[id], sizeof lab_option_names[id], "lab-%s", lp->name);
        g_snprintf(lab_option_help[id], sizeof lab_option_help[id], "Lab: %s", lp->help);
        g_application_add_main_option(app, lab_option_names[id], 0, 0, G_OPTION_ARG_STRING,
                                      lab_option_help[id], lp->value);
    }
}

static int parse_lab_setting(GVariantDict *d, const DmkLabParam *lp, double *out, DmkError *err)
{
    char *v = NULL, what[48];
    g_snprintf(what, sizeof what, "--lab-%s", lp->name);
    if (!g_variant_dict_lookup(d, what + 2, "s", &v))
        return DMK_OK;
    int rc;
    if (lp->kind == DMK_LAB_VALUE_SECONDS) {
        rc = dmk_parse_seconds_range(what, v, lp->min, lp->max, out, err);
    } else {
        uint64_t bytes = 0;
        rc = dmk_parse_size_range(what, v, (uint64_t)lp->min, (uint64_t)lp->max, &bytes, err);
        *out = (double)bytes;
    }
    g_free(v);
    return rc;
}

/* --NAME VALUE as option `key` of backend be, into o->backend_opts. */
static int parse_backend_option(DmkAppOptions *o, GVariantDict *d, const DmkBackend *be,
                                const char *name, const char *key, DmkError *err)
{
    char *v = NULL;
    if (!g_variant_dict_lookup(d, name, "s", &v))
        return DMK_OK;
    char what[32];
    g_snprintf(what, sizeof what, "--%s", name);
    int rc = dmk_backend_set_option(be, &o->backend_opts, key, v, what, err);
    g_free(v);
    return rc;
}

/* The null backend's options that come with lab runs (tests). */
static const char *const lab_options[] = {"lab", "null-cache", "null-thermal", "null-latency"};

static int parse_lab(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    DmkLabOverrides *l = &o->lab_o;
    int rc = parse_lab_kind(o, d, err);
    for (int id = 0; rc == DMK_OK && id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        if (!is_window_setting(lp))
            continue;
        rc = parse_lab_setting(d, lp, &l->value[id], err);
        char name[48];
        g_snprintf(name, sizeof name, "lab-%s", lp->name);
        o->lab_set = o->lab_set || g_variant_dict_contains(d, name);
    }
    if (rc == DMK_OK)
        rc = parse_backend_option(o, d, dmk_backend_null(), "null-cache", "cache", err);
    if (rc == DMK_OK)
        rc = parse_backend_option(o, d, dmk_backend_null(), "null-thermal", "thermal", err);
    if (rc == DMK_OK)
        rc = parse_backend_option(o, d, dmk_backend_null(), "null-latency", "latency", err);
    for (size_t i = 0; i < G_N_ELEMENTS(lab_options); i++)
        o->lab_set = o->lab_set || g_variant_dict_contains(d, lab_options[i]);
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

static int parse_numbers(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    char *size = NULL;
    int rc = DMK_OK;
    if (g_variant_dict_lookup(d, "size", "s", &size))
        rc = dmk_parse_size_range("--size", size, DMK_SIZE_MIN, DMK_SIZE_MAX, &o->size, err);
    g_free(size);
    if (rc == DMK_OK && g_variant_dict_lookup(d, "passes", "i", &o->passes) &&
        (o->passes < 1 || o->passes > 9))
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "--passes %d is out of range: expected 1 to 9",
                           o->passes);
    if (rc == DMK_OK)
        rc = parse_seconds(d, "measure", 0.1, &o->measure_s, err);
    if (rc == DMK_OK)
        rc = parse_seconds(d, "warmup", 0, &o->warmup_s, err);
    if (rc == DMK_OK)
        rc = parse_seconds(d, "interval", 0, &o->interval_s, err);
    if (rc == DMK_OK && g_variant_dict_lookup(d, "stop-after", "d", &o->stop_after_s) &&
        o->stop_after_s < 0)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "--stop-after must not be negative");
    if (rc == DMK_OK && g_variant_dict_lookup(d, "close-after", "d", &o->close_after_s) &&
        o->close_after_s < 0)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "--close-after must not be negative");
    if (rc == DMK_OK)
        rc = parse_seconds(d, "watchdog", 1, &o->watchdog_s, err);
    o->fault_hang = g_variant_dict_contains(d, "fault-hang");
    if (rc == DMK_OK)
        rc = parse_backend_option(o, d, dmk_backend_by_name("fault"), "fault-hang", "hang", err);
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
    static const char *const modes[] = {"rw", "read", "write", NULL};
    static const char *const units[] = {"mb-s", "gb-s", "mib-s", "iops", "us", NULL};
    static const char *const sweeps[] = {"qd", "bs", NULL};
    g_variant_dict_lookup(d, "sweep", "s", &o->sweep);
    int rc = check_choice("--sweep", o->sweep, sweeps, "qd or bs", err);
    if (rc != DMK_OK)
        return rc;
    g_variant_dict_lookup(d, "profile", "s", &o->profile);
    g_variant_dict_lookup(d, "mode", "s", &o->mode);
    g_variant_dict_lookup(d, "unit", "s", &o->unit);
    g_variant_dict_lookup(d, "backend", "s", &o->backend);
    g_variant_dict_lookup(d, "comment", "s", &o->comment);
    if (o->profile && !dmk_profile_find(o->profile))
        return dmk_error_set(
            err, DMK_E_INVAL, 0,
            "--profile '%s' is unknown: expected default, peak, real, demo or nvme", o->profile);
    const DmkBackend *be;
    if (o->backend && dmk_backend_choose("--backend", o->backend, &be, err) != DMK_OK)
        return DMK_E_INVAL;
    rc = check_choice("--mode", o->mode, modes, "rw, read or write", err);
    return rc != DMK_OK
               ? rc
               : check_choice("--unit", o->unit, units, "mb-s, gb-s, mib-s, iops or us", err);
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
static int probe_outputs(const DmkAppOptions *o, DmkError *err)
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

/* --null-clock simulated: only for the Lab tab's runs on the null
 * backend with a latency (simulated time moves while I/O takes time). */
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
    else if (sim && !(o->lab && dmk_null_opts_get(&o->backend_opts)->latency_ns > 0 &&
                      dmk_backend_by_name(o->backend) == dmk_backend_null()))
        rc = dmk_error_set(err, DMK_E_INVAL, 0,
                           "--null-clock simulated needs --lab, --backend null and a "
                           "--null-latency above 0");
    o->null_clock_simulated = sim;
    g_free(v);
    return rc;
}

static int parse_options(DmkAppOptions *o, GVariantDict *d, DmkError *err)
{
    g_variant_dict_lookup(d, "target", "^ay", &o->target);
    g_variant_dict_lookup(d, "confirm-device", "^ay", &o->confirm_device);
    g_variant_dict_lookup(d, "screenshot", "^ay", &o->screenshot);
    g_variant_dict_lookup(d, "json", "^ay", &o->json);
    g_variant_dict_lookup(d, "export-chart", "^ay", &o->export_chart);
    g_variant_dict_lookup(d, "open", "^aay", &o->open);
    g_variant_dict_lookup(d, "drop", "^aay", &o->drop);
    g_variant_dict_lookup(d, "activate", "^as", &o->activate);
    o->compare = g_variant_dict_contains(d, "compare");
    o->mix = g_variant_dict_contains(d, "mix");
    o->verify = g_variant_dict_contains(d, "verify");
    o->autorun = g_variant_dict_contains(d, "autorun");
    o->quit_when_done = g_variant_dict_contains(d, "quit-when-done");
    o->dump_tiles = g_variant_dict_contains(d, "dump-tiles");
    o->dump_clipboard = g_variant_dict_contains(d, "dump-clipboard");
    if (o->comment && !g_utf8_validate(o->comment, -1, NULL))
        return dmk_error_set(err, DMK_E_INVAL, 0, "--comment is not valid UTF-8");
    int rc = parse_numbers(o, d, err);
    if (rc == DMK_OK)
        rc = parse_lab(o, d, err);
    if (rc == DMK_OK)
        rc = check_outputs(o, err);
    if (rc == DMK_OK)
        rc = parse_choices(o, d, err);
    return rc != DMK_OK ? rc : parse_null_clock(o, d, err); /* needs the backend */
}

static gboolean any_option(GVariantDict *d)
{
    for (const GOptionEntry *e = option_entries; e->long_name; e++)
        if (g_variant_dict_contains(d, e->long_name))
            return TRUE;
    return FALSE;
}

/* Settings from the command line are shown and used, never saved: the
 * settings object stays in delay-apply mode for the whole session. */
static void apply_to_settings(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    GSettings *s = self->settings;
    if (!(o->size || o->passes || o->profile || o->mode || o->unit || o->mix || o->target ||
          o->lab || o->verify))
        return;
    g_settings_delay(s);
    if (o->size)
        g_settings_set_uint64(s, "test-size", o->size);
    if (o->passes)
        g_settings_set_int(s, "passes", o->passes);
    if (o->profile) {
        g_settings_set_string(s, "profile", o->profile);
        g_settings_set_boolean(s, "mix", o->mix);
    } else if (o->mix) {
        g_settings_set_boolean(s, "mix", TRUE);
    }
    if (o->mode)
        g_settings_set_string(s, "mode", o->mode);
    if (o->unit)
        g_settings_set_string(s, "unit", o->unit);
    if (o->lab)
        g_settings_set_string(s, "lab-test", o->lab);
    if (o->verify)
        g_settings_set_boolean(s, "verify", TRUE);
}

static int dmk_app_handle_local_options(GApplication *app, GVariantDict *d)
{
    DmkApp *self = DMK_APP(app);
    DmkError err = {0};
    if (g_variant_dict_contains(d, "version")) {
        printf("drivemark %s\n", DMK_VERSION);
        return 0;
    }
    if (parse_options(&self->opt, d, &err) != DMK_OK) {
        g_printerr("drivemark: %s\nTry 'drivemark --help'.\n", err.msg);
        return EXIT_USAGE;
    }
    if (probe_outputs(&self->opt, &err) != DMK_OK) {
        g_printerr("drivemark: %s\n", err.msg);
        return EXIT_FAILED;
    }
    self->settings = settings_new();
    if (!self->settings) {
        g_printerr("drivemark: the settings schema %s is not installed (run 'meson install', or "
                   "point GSETTINGS_SCHEMA_DIR at a folder where it is compiled)\n",
                   DMK_APP_ID);
        return EXIT_FAILED;
    }
    apply_to_settings(self);
    if (self->opt.null_clock_simulated) {
        dmk_clock_simulate();   /* before any run thread */
        dmk_clock_thread_end(); /* the main loop takes no part: each run's thread does */
    }
    /* With options, this process does the work itself instead of passing
     * an activation on to a running instance, which would drop them. */
    if (any_option(d))
        g_application_set_flags(app, g_application_get_flags(app) | G_APPLICATION_NON_UNIQUE);
    return -1;
}

/* ---- scripted runs ---------------------------------------------------------- */

static gboolean scripted(const DmkAppOptions *o)
{
    return o->screenshot || o->json || o->dump_tiles || o->dump_clipboard || o->quit_when_done ||
           o->export_chart;
}

static void fail_with(DmkApp *self, GError **error)
{
    g_printerr("drivemark: %s\n", (*error)->message);
    g_clear_error(error);
    self->exit_status = self->exit_status ? self->exit_status : EXIT_FAILED;
}

/* "chart@2x.png" is a 2x image, as the web and macOS name them. */
static void export_chart(DmkApp *self, const char *path)
{
    GError *error = NULL;
    double scale = g_str_has_suffix(path, "@2x.png") || g_str_has_suffix(path, "@2x.PNG") ? 2 : 1;
    if (!dmk_window_export_chart(self->window, path, scale, &error))
        fail_with(self, &error);
}

static void write_outputs(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    GError *error = NULL;
    if (o->export_chart)
        export_chart(self, o->export_chart);
    /* A question still open is what the user looks at: it is the picture. */
    GtkWidget *question = dmk_window_get_question(self->window);
    GtkWidget *shown = question ? question : GTK_WIDGET(self->window);
    if (o->screenshot && !dmk_screenshot_save(shown, o->screenshot, &error)) {
        g_printerr("drivemark: %s\n", error->message);
        g_clear_error(&error);
        self->exit_status = self->exit_status ? self->exit_status : EXIT_FAILED;
    }
    if (o->json && dmk_window_get_result(self->window) &&
        !dmk_window_save_result(self->window, o->json, &error)) {
        g_printerr("drivemark: %s\n", error->message);
        g_clear_error(&error);
        self->exit_status = self->exit_status ? self->exit_status : EXIT_FAILED;
    }
    if (o->dump_tiles) {
        char *dump = dmk_window_dump(self->window);
        fputs(dump, stdout);
        fflush(stdout);
        g_free(dump);
    }
}

static void quit_if_asked(DmkApp *self)
{
    if (self->opt.quit_when_done && self->window)
        gtk_window_destroy(GTK_WINDOW(self->window));
}

static void on_clipboard_text(GObject *source, GAsyncResult *result, gpointer data)
{
    DmkApp *self = data;
    GError *error = NULL;
    char *text = gdk_clipboard_read_text_finish(GDK_CLIPBOARD(source), result, &error);
    char **lines = g_strsplit(text ? text : "", "\n", -1);
    for (char **l = lines; *l; l++)
        printf("clipboard\t%s\n", *l);
    fflush(stdout);
    if (error)
        g_printerr("drivemark: reading the clipboard back failed: %s\n", error->message);
    g_clear_error(&error);
    g_strfreev(lines);
    g_free(text);
    quit_if_asked(self);
}

/* What Ctrl+C puts on the clipboard, read back through GDK. */
static void dump_clipboard(DmkApp *self)
{
    GtkWidget *w = GTK_WIDGET(self->window);
    gtk_root_set_focus(GTK_ROOT(w), NULL); /* no text field may take the copy */
    gtk_widget_activate_action(w, "win.copy", NULL);
    gdk_clipboard_read_text_async(gtk_widget_get_clipboard(w), NULL, on_clipboard_text, self);
}

static void finish_after_frame(DmkApp *self);

/* Up to this many frames, when the window queued another redraw after the
 * one waited for (a slow machine): the screenshot needs a drawn one. */
#define SCREENSHOT_FRAMES_MAX 20

static gboolean finish_script(gpointer data)
{
    DmkApp *self = data;
    if (!self->window)
        return G_SOURCE_REMOVE;
    if (self->opt.screenshot && self->frames_waited < SCREENSHOT_FRAMES_MAX &&
        !dmk_screenshot_ready(GTK_WIDGET(self->window))) {
        self->frames_waited++;
        finish_after_frame(self);
        return G_SOURCE_REMOVE;
    }
    write_outputs(self);
    if (self->opt.dump_clipboard)
        dump_clipboard(self); /* quits once the text is back */
    else
        quit_if_asked(self);
    return G_SOURCE_REMOVE;
}

static void on_after_paint(GdkFrameClock *clock, gpointer data)
{
    g_signal_handlers_disconnect_by_func(clock, on_after_paint, data);
    /* A little later still, so the frame is on screen, not just drawn. */
    g_timeout_add(50, finish_script, data);
}

/* The screenshot must show the final tiles: wait for the next frame. */
static void finish_after_frame(DmkApp *self)
{
    /* An open question is what the screenshot shows: its frame counts. */
    GtkWidget *question = dmk_window_get_question(self->window);
    GtkWidget *w = question ? question : GTK_WIDGET(self->window);
    GdkFrameClock *clock = gtk_widget_get_frame_clock(w);
    if (!clock) {
        g_timeout_add(250, finish_script, self);
        return;
    }
    g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), self);
    gtk_widget_queue_draw(w);
}

static void on_run_finished(DmkWindow *win, int rc, gpointer data)
{
    DmkApp *self = data;
    (void)win;
    if (!scripted(&self->opt) || !self->opt.autorun)
        return;
    self->opt.autorun = FALSE; /* later runs are the user's */
    self->exit_status = rc == DMK_OK ? 0 : rc == DMK_E_STOPPED ? EXIT_STOPPED : EXIT_FAILED;
    finish_after_frame(self);
}

static gboolean press_stop(gpointer data)
{
    DmkApp *self = data;
    if (self->window)
        dmk_window_stop(self->window);
    return G_SOURCE_REMOVE;
}

/* As if the user closed the window: the run stops, then the window goes. */
static gboolean press_close(gpointer data)
{
    DmkApp *self = data;
    if (self->window)
        gtk_window_close(GTK_WINDOW(self->window));
    return G_SOURCE_REMOVE;
}

static gboolean autorun(gpointer data)
{
    DmkApp *self = data;
    if (!self->window)
        return G_SOURCE_REMOVE;
    if (self->opt.stop_at_count)
        dmk_window_set_stop_at(self->window, self->opt.stop_stage, self->opt.stop_at_count,
                               self->opt.close_at);
    if (self->opt.stop_at_stall)
        dmk_window_set_stop_at_stall(self->window, self->opt.close_at);
    if (self->opt.lab)
        dmk_window_run_lab(self->window, TRUE); /* the command line asked: no question */
    else if (self->opt.sweep)
        dmk_window_run_sweep(self->window);
    else
        dmk_window_run_all(self->window);
    if (!dmk_window_is_running(self->window)) {
        /* Refused before it began (the info bar says why). */
        self->opt.autorun = FALSE;
        self->exit_status = EXIT_FAILED;
        if (scripted(&self->opt))
            finish_after_frame(self);
        return G_SOURCE_REMOVE;
    }
    if (self->opt.stop_after_s > 0)
        g_timeout_add((guint)(self->opt.stop_after_s * 1000.0), press_stop, self);
    if (self->opt.close_after_s > 0)
        g_timeout_add((guint)(self->opt.close_after_s * 1000.0), press_close, self);
    return G_SOURCE_REMOVE;
}

/* As a file manager's drop would: a GdkFileList through the drop handler. */
static void drop_files(DmkApp *self, char **paths)
{
    GSList *files = NULL;
    for (char **p = paths; *p; p++)
        files = g_slist_append(files, g_file_new_for_path(*p));
    GdkFileList *list = gdk_file_list_new_from_list(files);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed(&value, list);
    if (!dmk_window_drop(self->window, &value))
        self->exit_status = EXIT_FAILED;
    g_value_unset(&value);
    g_slist_free_full(files, g_object_unref);
}

/* Results from the command line, before the window is shown, so it opens
 * at the size the charts want. A file that fails makes a scripted run
 * fail (the info bar says why). */
static void open_results(DmkApp *self)
{
    const DmkAppOptions *o = &self->opt;
    if (o->open && dmk_window_open_paths(self->window, (const char *const *)o->open) > 0)
        self->exit_status = EXIT_FAILED;
    if (o->drop)
        drop_files(self, o->drop);
    if (o->compare)
        dmk_window_show_compare(self->window);
    if (o->sweep)
        dmk_window_show_sweep(self->window,
                              strcmp(o->sweep, "bs") == 0 ? DMK_SWEEP_BS : DMK_SWEEP_QD);
    if (o->lab)
        dmk_window_show_lab(self->window, o->lab_o.kind);
}

/* As the menu would: opens the dialogs, for a smoke test of them. */
static gboolean activate_actions(gpointer data)
{
    DmkApp *self = data;
    for (char **a = self->opt.activate; self->window && a && *a; a++) {
        char *name = g_strconcat("win.", *a, NULL);
        if (!gtk_widget_activate_action(GTK_WIDGET(self->window), name, NULL))
            g_printerr("drivemark: --activate %s: no such action, or it is disabled\n", *a);
        g_free(name);
    }
    return G_SOURCE_REMOVE;
}

/* ---- application ---------------------------------------------------------- */

static void dmk_app_activate(GApplication *app)
{
    DmkApp *self = DMK_APP(app);
    const DmkAppOptions *o = &self->opt;
    if (self->window) {
        gtk_window_present(GTK_WINDOW(self->window));
        return;
    }
    self->window = dmk_window_new(GTK_APPLICATION(app), self->settings);
    g_object_add_weak_pointer(G_OBJECT(self->window), (gpointer *)&self->window);
    /* --fault-hang: the fault backend, with the hang as its option */
    DmkRunOverrides ov = {o->fault_hang ? "fault" : o->backend,
                          o->measure_s,
                          o->warmup_s,
                          o->interval_s,
                          o->watchdog_s,
                          o->backend_opts};
    dmk_window_set_overrides(self->window, &ov);
    if (o->target)
        dmk_window_set_target(self->window, o->target);
    if (o->confirm_device)
        dmk_window_set_device_answer(self->window, o->confirm_device);
    if (o->comment)
        dmk_window_set_comment(self->window, o->comment);
    if (o->lab_set)
        dmk_window_set_lab_overrides(self->window, &o->lab_o);
    g_signal_connect(self->window, "run-finished", G_CALLBACK(on_run_finished), self);
    open_results(self);
    gtk_window_present(GTK_WINDOW(self->window));
    dmk_window_focus_run_button(self->window);
    if (o->activate)
        g_idle_add(activate_actions, self);
    if (o->autorun)
        g_idle_add(autorun, self);
    else if (scripted(o))
        finish_after_frame(self);
}

/* Closing the windows, not quitting the main loop: a window with a run
 * stops it and waits for the worker before it goes. */
static void act_quit(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a;
    (void)p;
    GList *windows = g_list_copy(gtk_application_get_windows(GTK_APPLICATION(app)));
    for (GList *l = windows; l; l = l->next)
        gtk_window_close(GTK_WINDOW(l->data));
    g_list_free(windows);
}

static void act_about(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a;
    (void)p;
    static const char *const authors[] = {"The Drivemark developers", NULL};
    gtk_show_about_dialog(gtk_application_get_active_window(GTK_APPLICATION(app)), "program-name",
                          "Drivemark", "version", DMK_VERSION, "logo-icon-name", DMK_APP_ID,
                          "comments",
                          "Measures the read and write speed of drives the way CrystalDiskMark "
                          "does.\nMB/s = 1,000,000 bytes per second.",
                          "license-type", GTK_LICENSE_GPL_3_0, "authors", authors, "website",
                          "https://github.com/drivemark/drivemark", NULL);
}

static void set_accels(GtkApplication *app)
{
    static const struct {
        const char *action;
        const char *accel;
    } accels[] = {
        {"win.run-all", "<Control>r"},
        {"win.stop", "Escape"},
        {"win.copy", "<Control>c"},
        {"win.save", "<Control>s"},
        {"win.open", "<Control>o"},
        {"win.export-chart", "<Control>e"},
        {"win.choose-target", "<Control><Shift>o"},
        {"win.run-test(0)", "<Control>1"},
        {"win.run-test(1)", "<Control>2"},
        {"win.run-test(2)", "<Control>3"},
        {"win.run-test(3)", "<Control>4"},
        {"win.close-tab", "<Control>w"},
        {"app.quit", "<Control>q"},
        {"app.about", "F1"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(accels); i++) {
        const char *list[] = {accels[i].accel, NULL};
        gtk_application_set_accels_for_action(app, accels[i].action, list);
    }
}

/* A broken rule would silently fall back to the theme: say so, loudly
 * enough that the UI tests (G_DEBUG=fatal-warnings) notice. */
static void on_css_error(GtkCssProvider *css, GtkCssSection *section, GError *error, gpointer data)
{
    (void)css;
    (void)data;
    char *where = gtk_css_section_to_string(section);
    g_warning("style.css: %s: %s", where, error->message);
    g_free(where);
}

static void load_css(void)
{
    GtkCssProvider *css = gtk_css_provider_new();
    g_signal_connect(css, "parsing-error", G_CALLBACK(on_css_error), NULL);
    gtk_css_provider_load_from_resource(css, "/io/github/drivemark/Drivemark/style.css");
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);
}

static void dmk_app_startup(GApplication *app)
{
    static const GActionEntry entries[] = {
        {"quit", act_quit, NULL, NULL, NULL, {0}},
        {"about", act_about, NULL, NULL, NULL, {0}},
    };
    G_APPLICATION_CLASS(dmk_app_parent_class)->startup(app);
    g_action_map_add_action_entries(G_ACTION_MAP(app), entries, G_N_ELEMENTS(entries), app);
    set_accels(GTK_APPLICATION(app));
    gtk_window_set_default_icon_name(DMK_APP_ID);
    load_css();
}

static void dmk_app_finalize(GObject *object)
{
    DmkApp *self = DMK_APP(object);
    DmkAppOptions *o = &self->opt;
    g_clear_object(&self->settings);
    g_free(o->target);
    g_free(o->confirm_device);
    g_free(o->stop_at);
    g_free(o->profile);
    g_free(o->mode);
    g_free(o->unit);
    g_free(o->backend);
    g_free(o->comment);
    g_free(o->screenshot);
    g_free(o->json);
    g_free(o->export_chart);
    g_free(o->sweep);
    g_free(o->lab);
    g_strfreev(o->open);
    g_strfreev(o->drop);
    g_strfreev(o->activate);
    G_OBJECT_CLASS(dmk_app_parent_class)->finalize(object);
}

static void dmk_app_class_init(DmkAppClass *klass)
{
    GApplicationClass *ac = G_APPLICATION_CLASS(klass);
    /* Before any window class is made: the template lives there. */
    dmk_register_resource();
    G_OBJECT_CLASS(klass)->finalize = dmk_app_finalize;
    ac->handle_local_options = dmk_app_handle_local_options;
    ac->startup = dmk_app_startup;
    ac->activate = dmk_app_activate;
}

/* --backend's help: "The I/O backend: native, libaio or null". */
static void set_backend_help(void)
{
    static char help[192];
    char names[160];
    g_snprintf(help, sizeof help, "The I/O backend: %s", dmk_backend_choices(names, sizeof names));
    for (GOptionEntry *e = option_entries; e->long_name; e++)
        if (strcmp(e->long_name, "backend") == 0)
            e->description = help;
}

static void dmk_app_init(DmkApp *self)
{
    set_backend_help();
    self->opt.measure_s = self->opt.warmup_s = self->opt.interval_s = -1;
    dmk_lab_overrides_init(&self->opt.lab_o);
    g_application_add_main_option_entries(G_APPLICATION(self), option_entries);
    add_lab_options(G_APPLICATION(self));
    g_application_set_option_context_summary(
        G_APPLICATION(self), "Benchmarks the drive under a folder the way CrystalDiskMark does.");
    g_application_set_option_context_description(
        G_APPLICATION(self),
        "Settings given here apply to this session only; what is chosen in "
        "the window is remembered. --open, --compare and --export-chart "
        "make a chart from saved results without a click.\nSizes are binary (64MiB, 1GiB); seconds "
        "may end in s, m or h.\nExit status with --quit-when-done: 0 done, 1 "
        "failed, 2 bad option, 3 stopped.");
}

DmkApp *dmk_app_new(void)
{
    return g_object_new(DMK_TYPE_APP, "application-id", DMK_APP_ID, "flags",
                        G_APPLICATION_DEFAULT_FLAGS, NULL);
}

int dmk_app_get_exit_status(DmkApp *self)
{
    return self->exit_status;
}
