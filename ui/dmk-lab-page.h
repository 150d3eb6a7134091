/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Lab tab: the review-lab tests of core/dmk-lab.h (sustained write,
 * full-span write, mixed load, latency under load, recovery), each with
 * its settings, a live chart while it runs and, at the end, its result in
 * a DmkLabView (dmk-lab-view.h): the charts (chart/dmk-chart-lab.h) and the
 * written report (dmk_lab_report).
 *
 * DmkLabPage is the tab itself: a form on the left (the test and its
 * settings, defaults from dmk_lab_params_init), the run's progress and
 * charts on the right. The window runs the test through its one worker
 * with the Benchmark tab's target, as it runs the sweep tab's sweeps;
 * signal "run" fires when Start (or Stop) is pressed, "kind-changed"
 * when another test is chosen.
 *
 * The tab shows the latest run's result in its own DmkLabView; a lab
 * result opened from a file gets a tab of its own with one. */
#ifndef DMK_LAB_PAGE_H
#define DMK_LAB_PAGE_H

#include <gtk/gtk.h>

#include "dmk-lab-view.h"
#include "dmk-lab.h"
#include "dmk-runner.h"
#include "dmk-saved.h"

G_BEGIN_DECLS

/* What the command line sets for lab runs (scripts and tests). Times < 0
 * and sizes of 0 keep what the form says; the form shows what is used. */
typedef struct {
    DmkLabKind kind; /* DMK_LAB_NONE: keep */
    /* Each time (seconds) and size (bytes) setting of dmk-lab.h's table
     * by its DmkLabParamId, --lab-NAME; < 0: keep. */
    double value[DMK_LAB_N_PARAMS];
    /* --lab-trace FILE (the one path setting); "": keep. */
    char trace[1024];
} DmkLabOverrides;

void dmk_lab_overrides_init(DmkLabOverrides *o);

/* ---- the Lab tab ------------------------------------------------------------ */

#define DMK_TYPE_LAB_PAGE (dmk_lab_page_get_type())
G_DECLARE_FINAL_TYPE(DmkLabPage, dmk_lab_page, DMK, LAB_PAGE, GtkBox)

GtkWidget *dmk_lab_page_new(void);

DmkLabKind dmk_lab_page_get_kind(DmkLabPage *self);
void dmk_lab_page_set_kind(DmkLabPage *self, DmkLabKind kind);
/* Puts the command line's settings into the form. */
void dmk_lab_page_apply_overrides(DmkLabPage *self, const DmkLabOverrides *o);

/* The test the form describes; DMK_E_INVAL with a message naming the
 * field when a typed time cannot be read. */
/* Types text into the chosen test's time field labelled name (its
 * label without the mnemonic, any case), as the user would; FALSE when
 * the test has no such field. For scripts (win.lab-field). */
gboolean dmk_lab_page_type_field(DmkLabPage *self, const char *name, const char *text);

int dmk_lab_page_get_params(DmkLabPage *self, DmkLabParams *out, DmkError *err);

/* Where the test file goes, from the Benchmark tab: "Test file in /data
 * (ext4, 80.7 GiB free) · random data". */
/* Start is off while the target cannot work, its tooltip saying why;
 * NULL turns it back on. Not while a run is under way. */
void dmk_lab_page_block_start(DmkLabPage *self, const char *why);
void dmk_lab_page_set_note(DmkLabPage *self, const char *note);

/* Whether the Benchmark tab's target is a raw device, which has no test
 * file: the summary and the progress say "region" (DmkLabParams.device). */
void dmk_lab_page_set_device(DmkLabPage *self, gboolean device);

/* A run began (running and mine) or ended, or another run keeps Start
 * waiting (running, not mine). */
void dmk_lab_page_set_running(DmkLabPage *self, gboolean running, gboolean mine);

/* This page's run: it starts, progresses, ends with what it measured
 * (saved may be NULL: nothing was) and the status ("Done in 0:42",
 * "Stopped after 1:02:03"). A stopped run's samples are shown as well. */
void dmk_lab_page_begin(DmkLabPage *self, const DmkRunSpec *spec);
void dmk_lab_page_progress(DmkLabPage *self, const DmkProgress *p);
/* A test of the run ended: the surface scan's samples join its live
 * read-rate chart at their place; other tests' are not drawn live. */
void dmk_lab_page_test_done(DmkLabPage *self, const DmkTest *test, const DmkPassResult *score);
/* done: the test ran to its end (the bar full); status: the status line. */
void dmk_lab_page_end(DmkLabPage *self, DmkSaved *saved, gboolean done, const char *status);

/* The view of the latest result, NULL before there is one. */
DmkLabView *dmk_lab_page_get_view(DmkLabPage *self);

/* For tests: the test chosen, the form's values, the progress line, the
 * chart shown and, with a result, its view's lines ("lab-..."). */
void dmk_lab_page_dump(DmkLabPage *self, GString *out);

G_END_DECLS

#endif
