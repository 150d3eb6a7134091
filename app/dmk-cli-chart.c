/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-cli-chart.h"

#include <stdio.h>
#include <string.h>

#include "dmk-chart-build.h"
#include "dmk-chart-lab.h"
#include "dmk-cli-show.h"
#include "dmk-escape.h"
#include "dmk-i18n.h"
#include "dmk-outfile.h"

/* ---- CrystalDiskMark runs and sweeps --------------------------------------- */

/* --kind, or what the first file was: a QD sweep, a block-size sweep, tiles. */
static DmkChartBuildKind chart_kind(const DmkCliArgs *a, const DmkRunResult *first)
{
    switch (a->chart_kind) {
    case DMK_CLI_CHART_QD:
        return DMK_CHART_BUILD_QD;
    case DMK_CLI_CHART_BS:
        return DMK_CHART_BUILD_BS;
    case DMK_CLI_CHART_TILES:
        return DMK_CHART_BUILD_TILES;
    default:
        break;
    }
    if (strcmp(first->sweep, "qd") == 0)
        return DMK_CHART_BUILD_QD;
    if (strcmp(first->sweep, "bs") == 0)
        return DMK_CHART_BUILD_BS;
    return DMK_CHART_BUILD_TILES;
}

/* --y-scale where given; else the builder's (lab charts: linear, as a
 * timeline's drop reads best on a linear axis). */
static void set_y_scale(const DmkCliArgs *a, DmkChartModel *m)
{
    if (a->y_scale_set)
        m->y_scale = (DmkValueScale)a->y_scale;
}

static int chart_plain(const DmkCliArgs *a, DmkRunResult **res)
{
    DmkChartBuild b;
    DmkError err = {0};
    /* NULL options: legends name each file's drive and date. */
    int rc = dmk_chart_build(&b, chart_kind(a, res[0]), a->metric, (const DmkRunResult *const *)res,
                             a->n_files, NULL, &err);
    if (rc == DMK_OK) {
        set_y_scale(a, &b.model);
        rc = dmk_chart_export(&b.model, a->chart_out, a->width, a->height, (double)a->scale, &err);
        dmk_chart_build_free(&b);
    }
    if (rc != DMK_OK)
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
    return rc == DMK_OK ? 0 : 1;
}

/* ---- review-lab results ------------------------------------------------------ */

static bool is_lab(const DmkRunResult *r)
{
    return dmk_lab_from_name(r->lab) != DMK_LAB_NONE;
}

static bool lab_choice(DmkChartChoice c)
{
    return c == DMK_CLI_CHART_LAB;
}

/* "speed, zoom or temperature": the --kind words r's charts answer to;
 * how many there are. */
static size_t kinds_that_fit(const DmkRunResult *r, char *buf, size_t len)
{
    DmkLabChartKind k[32], uniq[32];
    size_t n = dmk_lab_charts(r, k, NULL, 32), nu = 0;
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (size_t j = 0; j < nu; j++)
            seen = seen || uniq[j] == k[i];
        if (!seen)
            uniq[nu++] = k[i];
    }
    size_t used = 0;
    buf[0] = '\0';
    /* TRANSLATORS: joins the last two --kind words in "--kind speed, zoom or temperature fit
     * it". */
    const char *or_word = DMK_(" or ");
    for (size_t j = 0; j < nu && used < len; j++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 j == 0        ? ""
                                 : j + 1 == nu ? or_word
                                               : ", ",
                                 dmk_lab_chart_name(uniq[j]));
    if (nu == 0)
        /* TRANSLATORS: in "--kind none (no test completed) fit it": no --kind word fits. */
        snprintf(buf, len, "%s", DMK_("none (no test completed)"));
    return nu;
}

/* A file the chart cannot take, with the kinds that would take it. */
static int refuse(const DmkCliArgs *a, size_t f, const DmkRunResult *r, const char *why)
{
    char fits[128], name[4096];
    const char *file = dmk_cli_input_name(a, f, name, sizeof name);
    if (!is_lab(r)) {
        /* TRANSLATORS: %1$s is a result file's name, %2$s why the chart cannot take it; qd, bs
         * and tiles are --kind's words, typed as they are. */
        fprintf(stderr,
                DMK_("drivemark-cli: \"%s\" is not a review-lab result: %s; --kind qd, bs or "
                     "tiles fit it\n"),
                file, why);
        return DMK_EXIT_FAILED;
    }
    /* "a sustained write result": the lab's title, in a sentence */
    char lab[64];
    snprintf(lab, sizeof lab, "%s", dmk_lab_title(dmk_lab_from_name(r->lab)));
    if (lab[0] >= 'A' && lab[0] <= 'Z')
        lab[0] = (char)(lab[0] - 'A' + 'a');
    size_t n_fits = kinds_that_fit(r, fits, sizeof fits);
    /* TRANSLATORS: %1$s is a result file's name, %2$s the review-lab test's title in lower case
     * ("sustained write"), %3$s why the chart cannot take it, %4$s the --kind words that fit
     * it ("speed or zoom"), typed as they are. */
    fprintf(stderr,
            dmk_ngettext("drivemark-cli: \"%s\" is a %s result: %s; --kind %s fits it\n",
                         "drivemark-cli: \"%s\" is a %s result: %s; --kind %s fit it\n", n_fits),
            file, lab, why, fits);
    return DMK_EXIT_FAILED;
}

/* The lab chart to draw: --kind's, or the first file's first chart. */
static int pick_kind(const DmkCliArgs *a, DmkRunResult **res, DmkLabChartKind *kind)
{
    DmkLabChartKind first[32];
    if (lab_choice(a->chart_kind)) {
        *kind = dmk_lab_chart_find(a->lab_chart)->kind; /* opt_kind found it */
        return DMK_OK;
    }
    size_t f = 0;
    while (f < a->n_files && !is_lab(res[f]))
        f++;
    if (a->chart_kind != DMK_CLI_CHART_FROM_FILE)
        /* TRANSLATORS: qd, bs and tiles are --kind's words, typed as they are. */
        return refuse(a, f, res[f], DMK_("qd, bs and tiles chart CrystalDiskMark runs and sweeps"));
    if (f > 0) {
        char why[1100], name0[1001];
        /* TRANSLATORS: why a file cannot be charted; %s is the first file's name. */
        snprintf(why, sizeof why,
                 DMK_("it cannot share a chart with CrystalDiskMark results (\"%s\")"),
                 dmk_escape(a->files[0], name0, sizeof name0));
        return refuse(a, f, res[f], why);
    }
    if (dmk_lab_charts(res[0], first, NULL, 32) == 0)
        return refuse(a, 0, res[0], DMK_("no test completed, so there is nothing to chart"));
    *kind = first[0];
    return DMK_OK;
}

/* Every file must be a lab result with this chart. */
static int check_files(const DmkCliArgs *a, DmkRunResult **res, DmkLabChartKind kind)
{
    char why[160];
    /* TRANSLATORS: why a file cannot be charted; %s is the chart's --kind word (speed, zoom). */
    snprintf(why, sizeof why, DMK_("it has no %s chart"), dmk_lab_chart_name(kind));
    for (size_t f = 0; f < a->n_files; f++) {
        if (!is_lab(res[f]))
            return refuse(a, f, res[f], DMK_("a lab chart cannot include it"));
        if (!dmk_lab_chart_fits(res[f], kind))
            return refuse(a, f, res[f], why);
    }
    return DMK_OK;
}

/* All of the first file's latency profiles, a 2 x 2 grid of charts of
 * --width x --height each, every file a line in each. */
static int export_latency(const DmkCliArgs *a, const DmkRunResult *const *res, size_t n,
                          const DmkLabChartOptions *opt, DmkError *err)
{
    DmkLabLatency prof[DMK_LAB_LAT_PROFILES];
    size_t np = dmk_lab_latency(res[0], prof, DMK_LAB_LAT_PROFILES);
    DmkChartBuild b[DMK_LAB_LAT_PROFILES];
    const DmkChartModel *models[DMK_LAB_LAT_PROFILES];
    size_t built = 0;
    int rc = DMK_OK;
    for (; built < np && rc == DMK_OK; built++) {
        rc = dmk_chart_build_lab_compare(&b[built], DMK_LAB_CHART_LATENCY, res, n, built, opt, err);
        set_y_scale(a, &b[built].model);
        models[built] = &b[built].model;
    }
    if (rc == DMK_OK)
        rc = dmk_chart_export_grid(models, np, 2, a->chart_out, a->width, a->height,
                                   (double)a->scale, err);
    for (size_t p = 0; p < built; p++)
        dmk_chart_build_free(&b[p]);
    return rc;
}

static int export_lab(const DmkCliArgs *a, DmkLabChartKind kind, const DmkRunResult *const *res,
                      size_t n, DmkError *err)
{
    DmkLabChartOptions opt = {.metric = a->metric_set ? a->metric : NULL};
    if (kind == DMK_LAB_CHART_LATENCY)
        return export_latency(a, res, n, &opt, err);
    DmkChartBuild b;
    int rc = dmk_chart_build_lab_compare(&b, kind, res, n, 0, &opt, err);
    if (rc == DMK_OK) {
        set_y_scale(a, &b.model);
        rc = dmk_chart_export(&b.model, a->chart_out, a->width, a->height, (double)a->scale, err);
        dmk_chart_build_free(&b);
    }
    return rc;
}

static int chart_lab(const DmkCliArgs *a, DmkRunResult **res)
{
    DmkLabChartKind kind = DMK_LAB_CHART_SPEED;
    if (pick_kind(a, res, &kind) != DMK_OK || check_files(a, res, kind) != DMK_OK)
        return DMK_EXIT_FAILED;
    size_t n = a->n_files;
    if (n > 1 && !dmk_lab_chart_compares(kind)) {
        /* Said, not silently dropped: the chart has room for one drive. */
        char name[4096];
        /* TRANSLATORS: %1$s is the chart's --kind word (speed), %2$s the file drawn, %3$zu how
         * many files were left out. */
        fprintf(stderr,
                dmk_ngettext("drivemark-cli: the %s chart shows one result: drawing \"%s\" only, "
                             "leaving out %zu other file\n",
                             "drivemark-cli: the %s chart shows one result: drawing \"%s\" only, "
                             "leaving out %zu other files\n",
                             n - 1),
                dmk_lab_chart_name(kind), dmk_escape(a->files[0], name, sizeof name), n - 1);
        n = 1;
    }
    DmkError err = {0};
    if (export_lab(a, kind, (const DmkRunResult *const *)res, n, &err) != DMK_OK) {
        fprintf(stderr, "drivemark-cli: %s\n", err.msg);
        return DMK_EXIT_FAILED;
    }
    return 0;
}

/* ---- the command ----------------------------------------------------------------- */

/* --out naming one of the inputs (under any spelling: a symbolic link,
 * ./F, a hard link) would replace a result with its own chart. */
static bool out_is_an_input(const DmkCliArgs *a)
{
    DmkOutFile out;
    DmkError err = {0};
    bool same = false;
    /* A path that cannot be checked fails at the export, with its reason. */
    if (dmk_outfile_check(&out, a->chart_out, &err) == DMK_OK)
        for (size_t f = 0; f < a->n_files && !same; f++) {
            same = dmk_outfile_is_input(&out, a->files[f]);
            char o[512], i[512];
            if (same)
                fprintf(stderr,
                        DMK_("drivemark-cli: --out '%s' is the input file '%s': the chart would "
                             "replace it; give the chart its own file\n"),
                        dmk_escape(a->chart_out, o, sizeof o),
                        dmk_escape(a->files[f], i, sizeof i));
        }
    dmk_outfile_abort(&out);
    return same;
}

int dmk_cli_chart(const DmkCliArgs *args)
{
    DmkRunResult *res[DMK_CLI_MAX_FILES] = {0};
    if (out_is_an_input(args))
        return DMK_EXIT_USAGE; /* a usage error, as --json and --csv naming one file */
    DmkCliArgs in = *args;     /* its files become the results loaded */
    const DmkCliArgs *a = &in;
    if (dmk_cli_load_all(&in, res) != DMK_OK)
        return DMK_EXIT_FAILED;
    bool any_lab = false;
    for (size_t f = 0; f < a->n_files; f++)
        any_lab = any_lab || is_lab(res[f]);
    int rc = any_lab || lab_choice(a->chart_kind) ? chart_lab(a, res) : chart_plain(a, res);
    dmk_cli_free_all(res, a->n_files);
    return rc;
}
