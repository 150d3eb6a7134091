/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli's options: one table for every subcommand (options[],
 * with the run request's rows from core/dmk-request.h's table and the
 * lab tests' own settings from dmk-lab.h's) and a handler per option. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dmk-cli-device.h"
#include "dmk-cli-private.h"
#include "dmk-i18n.h"
#ifdef DMK_HAVE_CHART
#include "dmk-chart-lab.h"
#endif
#include "dmk-request.h"
#include "dmk-size.h"
#include "null/dmk-null.h"

/* ---- option handlers ---------------------------------------------------- */

/* An option of the run request (core/dmk-request.h's table): parsed and
 * range-checked there, with the same message as in the window. */
static int opt_request(DmkCliArgs *a, DmkRequestOptionId id, const char *v, DmkError *err)
{
    return dmk_run_request_set(&a->req, id, v, err);
}

/* --null-latency US and the like: option `key` of the null backend,
 * parsed by it into the spec's backend options. */
static int set_null(DmkCliArgs *a, const char *key, const char *what, const char *v, DmkError *err)
{
    return dmk_backend_set_option(dmk_backend_null(), &a->req.backend_opts, key, v, what, err);
}

static int opt_null_latency(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_null(a, "latency", "--null-latency", v, err);
}

/* A slow drive for tests: one request at a time per queue. */
static int opt_null_serve(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_null(a, "serve", "--null-serve", v, err);
}

/* --io-uring-sqpoll MS and --io-uring-hipri on|off: the io_uring
 * backend's options, where the build has it (liburing). */
static int set_uring(DmkCliArgs *a, const char *key, const char *what, const char *v, DmkError *err)
{
    const DmkBackend *be = dmk_backend_by_name("io_uring");
    if (!be)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: this build has no io_uring backend (built without liburing)",
                             what);
    return dmk_backend_set_option(be, &a->req.backend_opts, key, v, what, err);
}

static int opt_uring_sqpoll(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_uring(a, "sqpoll", "--io-uring-sqpoll", v, err);
}

static int opt_uring_hipri(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_uring(a, "hipri", "--io-uring-hipri", v, err);
}

static int opt_json(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)err;
    a->json_path = v;
    return DMK_OK;
}

static int opt_csv(DmkCliArgs *a, const char *v, DmkError *err)
{
#ifdef DMK_HAVE_CSV
    (void)err;
    a->csv_path = v;
    return DMK_OK;
#else
    (void)a;
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--csv '%s': this build has no CSV support (built without libcsv)", v);
#endif
}

static int opt_xlsx(DmkCliArgs *a, const char *v, DmkError *err)
{
#ifdef DMK_HAVE_XLSX
    (void)err;
    a->xlsx_path = v;
    return DMK_OK;
#else
    (void)a;
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--xlsx '%s': this build has no spreadsheet export (built without "
                         "libxlsxwriter); --csv writes the same cells",
                         v);
#endif
}

/* ---- options of sweep --------------------------------------------------- */

/* --pattern's words, by DmkPattern. */
static const char *const patterns[] = {[DMK_PATTERN_RND] = "rnd", [DMK_PATTERN_SEQ] = "seq"};

static size_t copy_words(const char *const *list, size_t n, const char **words, size_t max)
{
    for (size_t i = 0; i < n && i < max; i++)
        words[i] = list[i];
    return n;
}

static size_t pattern_words(const char **words, size_t max)
{
    return copy_words(patterns, sizeof patterns / sizeof patterns[0], words, max);
}

static int opt_pattern(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (strcmp(v, patterns[DMK_PATTERN_SEQ]) == 0)
        a->pattern = DMK_PATTERN_SEQ;
    else if (strcmp(v, patterns[DMK_PATTERN_RND]) == 0)
        a->pattern = DMK_PATTERN_RND;
    else
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--pattern '%s' is unknown: expected seq (sequential) or rnd "
                             "(random)",
                             v);
    a->pattern_set = true;
    return DMK_OK;
}

/* A block size: 512 B to 64 MiB, a power of two (direct I/O needs it). */
static int parse_block(const char *what, const char *v, uint32_t *out, DmkError *err)
{
    uint64_t bs;
    int rc = dmk_parse_size_range(what, v, DMK_BS_MIN, DMK_BS_MAX, &bs, err);
    if (rc != DMK_OK)
        return rc;
    if (bs & (bs - 1))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s '%s' is not a power of two; expected 512 B, 1 KiB, 2 KiB ... "
                             "64 MiB",
                             what, v);
    *out = (uint32_t)bs;
    return DMK_OK;
}

/* Every block size parse_block takes, as the option is written: "512",
 * "1K" ... "64M". */
static size_t block_words(const char **words, size_t max)
{
    static char text[32][8];
    size_t n = 0;
    for (uint64_t bs = DMK_BS_MIN; bs <= DMK_BS_MAX; bs *= 2, n++)
        if (n < max && n < sizeof text / sizeof text[0]) {
            const char *unit = bs >= (1u << 20) ? "M" : bs >= 1024 ? "K" : "";
            uint64_t v = bs >= (1u << 20) ? bs >> 20 : bs >= 1024 ? bs >> 10 : bs;
            snprintf(text[n], sizeof text[n], "%llu%s", (unsigned long long)v, unit);
            words[n] = text[n];
        }
    return n;
}

static int opt_bs(DmkCliArgs *a, const char *v, DmkError *err)
{
    a->bs_set = true;
    return parse_block("--bs", v, &a->bs, err);
}

static int opt_threads(DmkCliArgs *a, const char *v, DmkError *err)
{
    uint64_t n;
    int rc = dmk_parse_uint_range("--threads", v, 1, DMK_THREADS_MAX, &n, err);
    a->threads = (uint32_t)n;
    a->threads_set = true;
    return rc;
}

/* "1,2,4,8" or "512,4K,64K": each item parsed alone, so the message names
 * the option, the whole list and the bad item. */
static int parse_list(const char *opt, const char *v, bool sizes, uint32_t *out, size_t *n,
                      DmkError *err)
{
    char item[64], inner_msg[sizeof err->msg];
    DmkError inner = {0};
    *n = 0;
    for (const char *p = v;; p++) {
        size_t len = strcspn(p, ",");
        if (*n >= DMK_SWEEP_MAX_POINTS)
            return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' has more than %d items", opt, v,
                                 DMK_SWEEP_MAX_POINTS);
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        uint64_t qd = 0;
        int rc = sizes
                     ? parse_block("block size", item, &out[*n], &inner)
                     : dmk_parse_uint_range("queue depth", item, 1, DMK_SWEEP_QD_MAX, &qd, &inner);
        if (rc == DMK_OK && !sizes)
            out[*n] = (uint32_t)qd;
        if (rc != DMK_OK) {
            snprintf(inner_msg, sizeof inner_msg, "%s", inner.msg);
            return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s': %s", opt, v, inner_msg);
        }
        for (size_t k = 0; k < *n; k++)
            if (out[k] == out[*n])
                return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' lists %s twice", opt, v, item);
        (*n)++;
        p += len;
        if (!*p)
            return DMK_OK;
    }
}

static int opt_qd(DmkCliArgs *a, const char *v, DmkError *err)
{
    return parse_list("--qd", v, false, a->qd_list, &a->n_qd, err);
}

static int opt_bs_list(DmkCliArgs *a, const char *v, DmkError *err)
{
    return parse_list("--bs-list", v, true, a->bs_list, &a->n_bs, err);
}

/* ---- options of show and chart ------------------------------------------ */

static const char *const metrics[] = {"mb_s", "iops", "lat_mean_us", "lat_p99_us"};

static size_t metric_words(const char **words, size_t max)
{
    return copy_words(metrics, sizeof metrics / sizeof metrics[0], words, max);
}

const DmkStatField *dmk_cli_metric_field(const char *metric)
{
    for (size_t i = 0; i < dmk_stat_field_count; i++)
        if (strcmp(dmk_stat_fields[i].name, metric) == 0)
            return &dmk_stat_fields[i];
    return &dmk_stat_fields[0];
}

static int opt_metric(DmkCliArgs *a, const char *v, DmkError *err)
{
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
        if (strcmp(v, metrics[i]) == 0) {
            a->metric = metrics[i];
            a->metric_set = true;
            return DMK_OK;
        }
    }
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--metric '%s' is unknown: expected mb_s, iops, lat_mean_us or "
                         "lat_p99_us",
                         v);
}

static bool ends_with_nocase(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n <= k)
        return false;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != suffix[i])
            return false;
    return true;
}

static int opt_out(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (!ends_with_nocase(v, ".png") && !ends_with_nocase(v, ".svg") &&
        !ends_with_nocase(v, ".pdf"))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--out '%s' has no known format: expected a file name ending in "
                             ".png, .svg or .pdf",
                             v);
    a->chart_out = v;
    return DMK_OK;
}

/* A piece of a help built here: its msgid in the man page, translated in
 * --help (format_arg: a format stays checked against its arguments). */
__attribute__((format_arg(1))) static const char *help_piece(const char *msgid, bool translated)
{
    return translated ? DMK_(msgid) : msgid;
}

/* The lab charts' --kind words, where the chart renderer is built in. */
static const char *lab_chart_words(const char *sep, const char *last, bool translated, char *buf,
                                   size_t len)
{
#ifdef DMK_HAVE_CHART
    (void)translated;
    return dmk_lab_chart_names_text(sep, last, buf, len);
#else
    (void)sep;
    (void)last;
    /* TRANSLATORS: in place of the lab charts' --kind words where the build has no charts. */
    snprintf(buf, len, "%s", help_piece(DMK_N_("none in this build"), translated));
    return buf;
#endif
}

static bool is_lab_chart(const char *v)
{
#ifdef DMK_HAVE_CHART
    return dmk_lab_chart_find(v) != NULL;
#else
    (void)v;
    return false;
#endif
}

/* --kind's words for run and sweep results; the lab charts' are chart/'s. */
static const struct {
    const char *name;
    DmkChartChoice kind;
} chart_kinds[] = {
    {"qd", DMK_CLI_CHART_QD},
    {"bs", DMK_CLI_CHART_BS},
    {"tiles", DMK_CLI_CHART_TILES},
};

static size_t kind_words(const char **words, size_t max)
{
    size_t n = 0;
    for (; n < sizeof chart_kinds / sizeof chart_kinds[0]; n++)
        if (n < max)
            words[n] = chart_kinds[n].name;
#ifdef DMK_HAVE_CHART
    for (size_t i = 0; i < dmk_lab_chart_count(); i++, n++)
        if (n < max)
            words[n] = dmk_lab_chart_name((DmkLabChartKind)i);
#endif
    return n;
}

static int opt_kind(DmkCliArgs *a, const char *v, DmkError *err)
{
    for (size_t i = 0; i < sizeof chart_kinds / sizeof chart_kinds[0]; i++) {
        if (strcmp(v, chart_kinds[i].name) == 0) {
            a->chart_kind = chart_kinds[i].kind;
            return DMK_OK;
        }
    }
    if (is_lab_chart(v)) {
        a->chart_kind = DMK_CLI_CHART_LAB;
        a->lab_chart = v;
        return DMK_OK;
    }
    char words[256];
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--kind '%s' is unknown: expected qd (a line per drive vs queue depth), "
                         "bs (vs block size) or tiles (bars per test); for lab results %s",
                         v, lab_chart_words(", ", " or ", true, words, sizeof words));
}

static int opt_dimension(const char *what, const char *v, int max, int *out, DmkError *err)
{
    uint64_t n;
    int rc = dmk_parse_uint_range(what, v, 100, (uint64_t)max, &n, err);
    *out = (int)n;
    return rc;
}

static int opt_width(DmkCliArgs *a, const char *v, DmkError *err)
{
    return opt_dimension("--width", v, 10000, &a->width, err);
}

static int opt_height(DmkCliArgs *a, const char *v, DmkError *err)
{
    return opt_dimension("--height", v, 10000, &a->height, err);
}

static const char *const scales[] = {"1", "2"}; /* --scale's range, 1 to 2 */

static size_t scale_words(const char **words, size_t max)
{
    return copy_words(scales, sizeof scales / sizeof scales[0], words, max);
}

static int opt_scale(DmkCliArgs *a, const char *v, DmkError *err)
{
    uint64_t n;
    int rc = dmk_parse_uint_range("--scale", v, 1, sizeof scales / sizeof scales[0], &n, err);
    a->scale = (int)n;
    return rc;
}

/* --y-scale's words: chart/'s table of value scales. */
static size_t y_scale_words(const char **words, size_t max)
{
#ifdef DMK_HAVE_CHART
    for (size_t i = 0; i < dmk_value_scale_count && i < max; i++)
        words[i] = dmk_value_scales[i].name;
    return dmk_value_scale_count;
#else
    (void)words;
    (void)max;
    return 0;
#endif
}

static int opt_y_scale(DmkCliArgs *a, const char *v, DmkError *err)
{
#ifdef DMK_HAVE_CHART
    DmkValueScale scale;
    if (dmk_value_scale_from_name(v, &scale)) {
        a->y_scale = (int)scale;
        a->y_scale_set = true;
        return DMK_OK;
    }
#else
    (void)a;
#endif
    return dmk_error_set(err, DMK_E_INVAL, 0,
                         "--y-scale '%s' is unknown: expected auto (log where the values span "
                         "decades), linear or log",
                         v);
}

/* ---- options of every command -------------------------------------------- */

static int opt_quiet(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    (void)err;
    a->quiet = true;
    return DMK_OK;
}

static int opt_remove_leftover(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    if (a->cmd != DMK_CMD_LAB || a->req.lab.kind != DMK_LAB_FILES)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--remove-leftover applies to the files test only: it removes the "
                             "directory a killed file-set run left");
    a->remove_leftover = true;
    return DMK_OK;
}

static int opt_help(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    (void)err;
    a->cmd = DMK_CMD_HELP;
    return DMK_OK;
}

static int opt_version(DmkCliArgs *a, const char *v, DmkError *err)
{
    (void)v;
    (void)err;
    a->cmd = DMK_CMD_VERSION;
    return DMK_OK;
}

/* ---- options of the review-lab commands ------------------------------------ */

/* A lab test's own setting (dmk-lab.h's table), into a->req.lab; which
 * test it applies to is checked once the command is known to be one
 * (check_lab_options). */
static int opt_lab(DmkCliArgs *a, const DmkLabParam *lp, const char *v, DmkError *err)
{
    char what[40];
    snprintf(what, sizeof what, "--%s", lp->name);
    a->lab_given |= DMK_LAB_P(lp->id);
    double *secs = dmk_lab_seconds_of(&a->req.lab, lp->id);
    if (secs)
        return dmk_parse_seconds_range(what, v, lp->min, lp->max, secs, err);
    uint64_t *size = dmk_lab_size_of(&a->req.lab, lp->id);
    if (size)
        return dmk_parse_size_range(what, v, (uint64_t)lp->min, (uint64_t)lp->max, size, err);
    size_t room = 0;
    char *path = dmk_lab_path_of(&a->req.lab, lp->id, &room);
    if (path) {
        if (!v[0] || strlen(v) >= room)
            return dmk_error_set(err, DMK_E_INVAL, 0, "%s needs a file's path (under %zu bytes)",
                                 what, room);
        memcpy(path, v, strlen(v) + 1);
        return DMK_OK;
    }
    uint32_t *count = dmk_lab_count_of(&a->req.lab, lp->id);
    uint64_t n;
    if (!count)
        return dmk_error_set(err, DMK_E_INVAL, 0, "%s cannot be set", what);
    int rc = dmk_parse_uint_range(what, v, (uint64_t)lp->min, (uint64_t)lp->max, &n, err);
    if (rc == DMK_OK)
        *count = (uint32_t)n;
    return rc;
}

static int opt_null_cache(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_null(a, "cache", "--null-cache", v, err);
}

static int opt_null_thermal(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_null(a, "thermal", "--null-thermal", v, err);
}

static int opt_null_slow(DmkCliArgs *a, const char *v, DmkError *err)
{
    return set_null(a, "slow", "--null-slow", v, err);
}

static const char *const clocks[] = {"real", "simulated"};

static size_t clock_words(const char **words, size_t max)
{
    return copy_words(clocks, sizeof clocks / sizeof clocks[0], words, max);
}

static int opt_null_clock(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (strcmp(v, clocks[1]) != 0 && strcmp(v, clocks[0]) != 0)
        return dmk_error_set(err, DMK_E_INVAL, 0, "--null-clock '%s' is unknown: expected %s or %s",
                             v, clocks[0], clocks[1]);
    a->req.null_clock_simulated = strcmp(v, clocks[1]) == 0;
    return DMK_OK;
}

/* ---- the table ---------------------------------------------------------- */

#define RUN      DMK_CMD_RUN
#define SWEEP    DMK_CMD_SWEEP
#define LAB      DMK_CMD_LAB
#define MEASURES (DMK_CMD_RUN | DMK_CMD_SWEEP)
#define ALL_RUNS (DMK_CMD_RUN | DMK_CMD_SWEEP | DMK_CMD_LAB)
#define SHOW     DMK_CMD_SHOW
#define CHART    DMK_CMD_CHART
#define READERS  (DMK_CMD_SHOW | DMK_CMD_CHART)
#define ANY      0u /* accepted everywhere */

/* --kind's help names the lab charts of chart/'s table; --qd's the lab
 * tests that take a queue depth, from dmk-lab.h's. */
static char kind_help[512];
static char qd_help[512];

/* A row of the run request's table (core/dmk-request.h): its name, value,
 * commands and help are the table's, filled in by rows_init. */
#define REQ(id)                                            \
    {                                                      \
        NULL, NULL, 0, NULL, NULL, NULL, (id) + 1, 0, NULL \
    }

/* Grouped by the commands that take them: the help prints a heading
 * wherever that changes. Not const: the request's rows are filled in.
 * The helps are msgids (DMK_N_), translated where --help prints them;
 * the man page keeps them in English. */
static DmkOption options[] = {
    REQ(DMK_REQ_TARGET),
    {"--device", "DEV", ALL_RUNS, dmk_cli_opt_device,
     DMK_N_(
         "a raw block device instead (e.g. /dev/sdb): tests use its first --size bytes (fullspan, "
         "surface: all of it); reads need no more, writes need --yes-destroy-data")},
    {"--yes-destroy-data", "DEV", ALL_RUNS, dmk_cli_opt_destroy,
     DMK_N_(
         "allow write tests on --device, destroying its data: DEV must name that device; refused "
         "while it or a partition is mounted, swap or held (device-mapper, md)")},
    REQ(DMK_REQ_SIZE),
    REQ(DMK_REQ_DATA),
    REQ(DMK_REQ_BACKEND),
    {"--null-latency", "US", ALL_RUNS, opt_null_latency, NULL},
    {"--null-serve", "US", ALL_RUNS, opt_null_serve, NULL},
    {"--io-uring-sqpoll", "MS", ALL_RUNS, opt_uring_sqpoll, NULL},
    {"--io-uring-hipri", "on|off", ALL_RUNS, opt_uring_hipri, NULL},
    {"--null-clock", "KIND", ALL_RUNS, opt_null_clock,
     DMK_N_("null backend only: real (default) or simulated time, which moves only while the run "
            "waits "
            "for its I/O (exact, machine-independent numbers; needs --null-latency)"),
     .choices = clock_words},
    {"--json", "FILE", ALL_RUNS, opt_json, DMK_N_("write results as JSON to FILE (- for stdout)")},
    {"--csv", "FILE", ALL_RUNS, opt_csv, DMK_N_("write results as CSV to FILE (- for stdout)")},
    {"--xlsx", "FILE", ALL_RUNS, opt_xlsx,
     DMK_N_("write results as a spreadsheet (.xlsx) to FILE")},
    {"--quiet", NULL, ALL_RUNS, opt_quiet,
     DMK_N_("no progress line and no notices (\"writing the result file\"): only the results, "
            "warnings and errors"),
     .short_name = 'q'},
    REQ(DMK_REQ_COMMENT),
    REQ(DMK_REQ_WATCHDOG),
    REQ(DMK_REQ_WARMUP),
    REQ(DMK_REQ_MODE),
    REQ(DMK_REQ_PASSES),
    REQ(DMK_REQ_MEASURE),
    REQ(DMK_REQ_INTERVAL),
    REQ(DMK_REQ_TIMELINE),
    REQ(DMK_REQ_VERIFY),
    REQ(DMK_REQ_PROFILE),
    REQ(DMK_REQ_TEST),
    REQ(DMK_REQ_READ_SHARE),
    {"--pattern", "P", SWEEP, opt_pattern, DMK_N_("rnd (random, default) or seq (sequential)"),
     .choices = pattern_words},
    {"--bs", "SIZE", SWEEP, opt_bs,
     DMK_N_("qd: the block size, 512-64M (default: 4K random, 128K sequential)"),
     .choices = block_words},
    {"--qd", "LIST", SWEEP | LAB, opt_qd, qd_help}, /* filled by lab_rows_init */
    {"--bs-list", "LIST", SWEEP, opt_bs_list,
     DMK_N_("bs: block sizes, powers of two, e.g. 512,4K,64K,1M (default: 512..256K random, "
            "512..64M sequential)")},
    {"--threads", "N", SWEEP, opt_threads,
     DMK_N_("threads, each with its own queue, 1-64 (default: 1)")},
    {"--null-cache", "SIZE", LAB, opt_null_cache, NULL},
    {"--null-thermal", "SIZE", LAB, opt_null_thermal, NULL},
    {"--null-slow", "N", LAB, opt_null_slow, NULL},
    {"--remove-leftover", NULL, LAB, opt_remove_leftover,
     DMK_N_("files: first remove the directory (drivemark-files.*) that a killed run left in "
            "--target")},
    {"--metric", "NAME", READERS, opt_metric,
     DMK_N_("the number shown: mb_s (default), iops, lat_mean_us or lat_p99_us"),
     .choices = metric_words},
    {"--out", "FILE", CHART, opt_out, DMK_N_("the chart file: .png, .svg or .pdf (required)")},
    {"--kind", "KIND", CHART, opt_kind, kind_help, .choices = kind_words}, /* lab_rows_init */
    {"--width", "W", CHART, opt_width,
     DMK_N_("width in pixels (PNG) or points, 100-10000 (default: 800)")},
    {"--height", "H", CHART, opt_height, DMK_N_("height, 100-10000 (default: 500)")},
    {"--scale", "N", CHART, opt_scale,
     DMK_N_("PNG pixels per unit: 1, or 2 for a 2x image (default: 1)"), .choices = scale_words},
    {"--y-scale", "S", CHART, opt_y_scale,
     DMK_N_("the value axis: auto (log where the largest value is over 50 times the smallest), "
            "linear or log (default: auto; lab charts: linear)"),
     .choices = y_scale_words},
    {"--help", NULL, ANY, opt_help, DMK_N_("show this help"), .short_name = 'h'},
    {"--version", NULL, ANY, opt_version, DMK_N_("show the version"), .short_name = 'V'},
};

/* The lab tests' own settings (not --size, --warmup, --test or --qd,
 * which other commands share and options[] has), as rows of the lab
 * commands, from dmk-lab.h's table. */
static DmkOption lab_rows[DMK_LAB_N_PARAMS];
static char lab_names[DMK_LAB_N_PARAMS][40];
static size_t n_lab_rows;

/* The run request's options as they apply to the commands: run, sweep
 * and the lab tests are its kinds. */
static unsigned commands_of(unsigned kinds)
{
    return ((kinds & DMK_REQ_KIND(DMK_REQUEST_RUN)) ? DMK_CMD_RUN : 0) |
           ((kinds & DMK_REQ_KIND(DMK_REQUEST_SWEEP)) ? DMK_CMD_SWEEP : 0) |
           ((kinds & DMK_REQ_KIND(DMK_REQUEST_LAB)) ? DMK_CMD_LAB : 0);
}

static char request_names[DMK_REQ_N_OPTIONS][32];
static char request_help[DMK_REQ_N_OPTIONS][512]; /* those the lab tests share */

static void request_rows_init(void)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (!options[i].req)
            continue;
        const DmkRequestOption *ro = dmk_request_option((DmkRequestOptionId)(options[i].req - 1));
        snprintf(request_names[ro->id], sizeof request_names[0], "--%s", ro->name);
        options[i].name = request_names[ro->id];
        options[i].value = ro->value;
        options[i].commands = commands_of(ro->kinds);
        options[i].help = dmk_request_option_help(ro, request_help[ro->id], sizeof request_help[0]);
    }
}

/* "...; mixed: one, per thread (default: 1)": each lab test that takes
 * --qd (its params), with its default. */
static void qd_help_init(char *buf, size_t len, bool translated)
{
    /* TRANSLATORS: --qd's help; qd and bs are sweep's kinds, typed as they are. */
    int used = snprintf(buf, len, "%s",
                        help_piece(DMK_N_("qd: queue depths 1-256, e.g. 1,2,4,8 (default: "
                                          "1,2,4,8,16,32 random, 1..16 sequential); bs: one queue "
                                          "depth (default: 4)"),
                                   translated));
    for (size_t i = 0; i < dmk_lab_test_count() && used > 0 && (size_t)used < len; i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        DmkLabParams p;
        if (!(t->params & DMK_LAB_P(DMK_LAB_P_QD)))
            continue;
        dmk_lab_params_init(&p, t->kind);
        /* TRANSLATORS: appended to --qd's help for each lab test that takes it: %s is the test's
         * command name (mixed), typed as is; %u its default queue depth. */
        used += snprintf(buf + used, len - (size_t)used,
                         help_piece(DMK_N_("; %s: one, per thread (default: %u)"), translated),
                         t->name, (unsigned)p.mixed_qd);
    }
}

static void kind_help_init(char *buf, size_t len, bool translated)
{
    char words[256];
    /* TRANSLATORS: --kind's help; qd, bs and tiles are its words, typed as they are; %s lists the
     * lab charts' words (speed, zoom...). */
    snprintf(buf, len,
             help_piece(DMK_N_("qd (vs queue depth), bs (vs block size) or tiles (bars per test); "
                               "lab results: %s; default: the first file's sweep or lab chart, "
                               "else tiles"),
                        translated),
             lab_chart_words(", ", ", ", translated, words, sizeof words));
}

const char *_dmk_cli_built_help(const DmkOption *o, char *buf, size_t len)
{
    if (o->help == qd_help)
        qd_help_init(buf, len, true);
    else if (o->help == kind_help)
        kind_help_init(buf, len, true);
    else
        return NULL;
    return buf;
}

static void lab_rows_init(void)
{
    if (n_lab_rows)
        return;
    request_rows_init();
    /* In English, for the man page and the table; --help translates
     * them anew (_dmk_cli_built_help). */
    qd_help_init(qd_help, sizeof qd_help, false);
    kind_help_init(kind_help, sizeof kind_help, false);
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        const DmkLabParam *lp = dmk_lab_param((DmkLabParamId)id);
        if (lp->shared)
            continue;
        snprintf(lab_names[n_lab_rows], sizeof lab_names[0], "--%s", lp->name);
        lab_rows[n_lab_rows] = (DmkOption){
            lab_names[n_lab_rows], lp->value, DMK_CMD_LAB, NULL, lp->help, lp, 0, 0, NULL};
        n_lab_rows++;
    }
}

const DmkOption *_dmk_cli_find_option(const char *name, size_t len)
{
    lab_rows_init();
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
            return &options[i];
    for (size_t i = 0; i < n_lab_rows; i++)
        if (strlen(lab_rows[i].name) == len && strncmp(lab_rows[i].name, name, len) == 0)
            return &lab_rows[i];
    return NULL;
}

const DmkOption *_dmk_cli_find_short(char c)
{
    for (size_t i = 0; c && i < sizeof options / sizeof options[0]; i++)
        if (options[i].short_name == c)
            return &options[i];
    return NULL;
}

size_t _dmk_cli_option_choices(const DmkOption *o, const char **words, size_t max)
{
    if (o->req)
        return dmk_request_option_choices(dmk_request_option((DmkRequestOptionId)(o->req - 1)),
                                          words, max);
    return o->choices ? o->choices(words, max) : 0;
}

/* The lab setting o stands for (DMK_LAB_P), 0 for none: a lab test's own
 * row, or a shared option that check_lab_options counts as one. */
static unsigned lab_param_of(const DmkOption *o)
{
    if (o->lab)
        return DMK_LAB_P(o->lab->id);
    if (o->req == DMK_REQ_TEST + 1)
        return DMK_LAB_P(DMK_LAB_P_JOB);
    if (o->req == DMK_REQ_WARMUP + 1)
        return DMK_LAB_P(DMK_LAB_P_WARMUP);
    return o->fn == opt_qd ? DMK_LAB_P(DMK_LAB_P_QD) : 0;
}

bool _dmk_cli_option_applies(const DmkOption *o, DmkCommand cmd, DmkLabKind lab)
{
    if (o->commands && !(o->commands & (unsigned)cmd))
        return false;
    const DmkLabTest *t = cmd == DMK_CMD_LAB ? dmk_lab_test(lab) : NULL;
    if (o->fn == opt_remove_leftover) /* the file-set test's own */
        return lab == DMK_LAB_FILES;
    unsigned param = lab_param_of(o);
    return !t || !param || (t->params & param);
}

const DmkOption *_dmk_cli_options(size_t *n)
{
    lab_rows_init();
    *n = sizeof options / sizeof options[0];
    return options;
}

const DmkOption *_dmk_cli_lab_rows(size_t *n)
{
    lab_rows_init();
    *n = n_lab_rows;
    return lab_rows;
}

int _dmk_cli_option_apply(DmkCliArgs *a, const DmkOption *o, const char *value, DmkError *err)
{
    if (o->req)
        return opt_request(a, (DmkRequestOptionId)(o->req - 1), value, err);
    return o->fn ? o->fn(a, value, err) : opt_lab(a, o->lab, value, err);
}
