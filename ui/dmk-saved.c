/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-saved.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-json.h"
#include "dmk-outfile.h"
#include "dmk-text.h"
#ifdef DMK_HAVE_CSV
#include "dmk-csv-read.h"
#include "dmk-csv.h"
#endif
#ifdef DMK_HAVE_XLSX
#include "dmk-xlsx.h"
#endif

struct DmkSaved {
    DmkRunResult *result;
    char *path;
    char *title;
    gboolean unsaved; /* dmk_saved_is_unsaved */
};

static void set_path(DmkSaved *s, const char *path)
{
    g_free(s->path);
    g_free(s->title);
    s->path = g_strdup(path);
    s->title = path ? g_filename_display_basename(path) : dmk_text_result_title(s->result);
}

DmkSaved *dmk_saved_new(DmkRunResult *result, const char *path)
{
    DmkSaved *s = g_rc_box_new0(DmkSaved);
    s->result = result;
    set_path(s, path);
    return s;
}

DmkSaved *dmk_saved_ref(DmkSaved *s)
{
    return g_rc_box_acquire(s);
}

static void saved_clear(gpointer data)
{
    DmkSaved *s = data;
    dmk_run_result_free(s->result);
    g_free(s->path);
    g_free(s->title);
}

void dmk_saved_unref(DmkSaved *s)
{
    if (s)
        g_rc_box_release_full(s, saved_clear);
}

const DmkRunResult *dmk_saved_get_result(const DmkSaved *s)
{
    return s->result;
}

const char *dmk_saved_get_path(const DmkSaved *s)
{
    return s->path;
}

const char *dmk_saved_get_title(const DmkSaved *s)
{
    return s->title;
}

void dmk_saved_set_comment(DmkSaved *s, const char *comment)
{
    char old[sizeof s->result->comment];
    g_strlcpy(old, s->result->comment, sizeof old);
    g_strlcpy(s->result->comment, comment ? comment : "", sizeof s->result->comment);
    if (strcmp(old, s->result->comment) != 0)
        s->unsaved = TRUE;
}

gboolean dmk_saved_is_unsaved(const DmkSaved *s)
{
    return s->unsaved;
}

void dmk_saved_set_unsaved(DmkSaved *s, gboolean unsaved)
{
    s->unsaved = unsaved;
}

static gboolean is_json(const char *path)
{
#ifdef DMK_HAVE_CSV
    return g_str_has_suffix(path, ".json") || g_str_has_suffix(path, ".JSON");
#else
    (void)path;
    return TRUE;
#endif
}

static gboolean is_xlsx(const char *path)
{
    return g_str_has_suffix(path, ".xlsx") || g_str_has_suffix(path, ".XLSX");
}

static int write_file(const DmkRunResult *r, FILE *f, const char *path, DmkError *err)
{
    if (is_xlsx(path)) {
#ifdef DMK_HAVE_XLSX
        return dmk_xlsx_write(f, r, path, err);
#else
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "%s: this build has no spreadsheet export (built without "
                             "libxlsxwriter); save as .csv instead",
                             path);
#endif
    }
#ifdef DMK_HAVE_CSV
    if (!is_json(path))
        return dmk_csv_write(f, r, path, err);
#endif
    return dmk_json_write(f, r, path, err);
}

typedef struct {
    const DmkRunResult *result;
    const char *path;
} WriteJob;

static int write_job(FILE *f, void *ctx, DmkError *err)
{
    const WriteJob *job = ctx;
    return write_file(job->result, f, job->path, err);
}

gboolean dmk_saved_write(DmkSaved *s, const char *path, GError **error)
{
    DmkError err = {0};
    /* A temporary file renamed over the old one when complete: a full
     * disk or a failed write keeps the file from before (dmk-outfile.h). */
    WriteJob job = {s->result, path};
    int rc = dmk_outfile_write(path, write_job, &job, &err);
    if (rc != DMK_OK) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, err.msg);
        return FALSE;
    }
    if (!is_json(path) && !is_xlsx(path))
        set_path(s, path); /* JSON and .xlsx are exports: only CSV opens again */
    s->unsaved = FALSE;    /* written as the user chose: a question would be a nag */
    return TRUE;
}

GPtrArray *dmk_saved_load(const char *path, GError **error)
{
#ifdef DMK_HAVE_CSV
    DmkRunResult **runs = NULL;
    size_t n = 0;
    DmkError err = {0};
    if (dmk_csv_load_runs(path, &runs, &n, &err) != DMK_OK) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err.msg);
        return NULL;
    }
    GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)dmk_saved_unref);
    for (size_t i = 0; i < n; i++) {
        /* One of several runs (files joined with cat) is not known by the
         * file: saving it must not replace the others with it alone. */
        DmkSaved *s = dmk_saved_new(runs[i], n == 1 ? path : NULL);
        if (n > 1) {
            char *name = g_filename_display_basename(path);
            g_free(s->title);
            /* TRANSLATORS: a tab's title: a file's name and the run's number in it. */
            s->title = g_strdup_printf(_("%s (run %zu)"), name, i + 1);
            g_free(name);
        }
        g_ptr_array_add(all, s);
    }
    free(runs);
    return all;
#else
    g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                "%s: this build cannot read result files (built without libcsv)", path);
    return NULL;
#endif
}
