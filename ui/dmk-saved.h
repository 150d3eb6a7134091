/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A result the window keeps: a finished run or sweep, or a file that was
 * opened. The tab that shows it, the compare view and the window share it
 * (reference counted, main thread only). The result is not changed once
 * kept but for its comment, which the Benchmark tab's entry still edits
 * until the run is copied or saved, as in CrystalDiskMark. */
#ifndef DMK_SAVED_H
#define DMK_SAVED_H

#include <glib.h>

#include "dmk-result.h"

typedef struct DmkSaved DmkSaved;

/* Takes result. path: the file it came from, NULL for a run not saved yet. */
DmkSaved *dmk_saved_new(DmkRunResult *result, const char *path);
DmkSaved *dmk_saved_ref(DmkSaved *s);
void dmk_saved_unref(DmkSaved *s);

const DmkRunResult *dmk_saved_get_result(const DmkSaved *s);
/* The file it was loaded from or last saved to; NULL when never saved. */
const char *dmk_saved_get_path(const DmkSaved *s);
/* The tab's title: the file's name, else "Run 14:05" or "QD sweep 14:05". */
const char *dmk_saved_get_title(const DmkSaved *s);

/* A comment other than the one it has makes the result unsaved again. */
void dmk_saved_set_comment(DmkSaved *s, const char *comment);

/* Whether it holds what no file does (a run, or a comment typed since
 * it was written): quitting or closing its tab asks first. A result
 * starts saved; the window marks the runs it keeps, and a write clears it. */
gboolean dmk_saved_is_unsaved(const DmkSaved *s);
void dmk_saved_set_unsaved(DmkSaved *s, gboolean unsaved);

/* Writes the result as CSV (JSON for a name ending in .json, a workbook
 * for .xlsx: dmk-xlsx.h); after a CSV the result is known by that file,
 * which can be opened again. */
gboolean dmk_saved_write(DmkSaved *s, const char *path, GError **error);

/* Loads a result file (CSV): its runs, one unless result files were
 * joined with cat (then each is titled "r.csv (run 2)" and known by no
 * file); NULL with error set to the reader's message, which names the
 * file, line and column. */
GPtrArray *dmk_saved_load(const char *path, GError **error);

#endif
