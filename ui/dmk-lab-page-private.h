/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Lab tab's parts (dmk-lab-page.h is what the window sees):
 * dmk-lab-page.c, the tab itself (its layout, the test chooser, Start and
 * Stop, a run's beginning and end, the result's view, the tests' dump);
 * dmk-lab-page-form.c, its form (each test's settings fields, built from
 * core/dmk-lab.h's table of tests, read back into DmkLabParams, set from
 * the command line, and what they mean: the summary and the duration);
 * dmk-lab-page-live.c, a run's progress line and its live chart. What
 * they share but nothing outside the tab may call is named
 * _dmk_lab_page_*, as the window's are _dmk_window_*. */
#ifndef DMK_LAB_PAGE_PRIVATE_H
#define DMK_LAB_PAGE_PRIVATE_H

#include "dmk-chart.h"
#include "dmk-lab-page.h"

G_BEGIN_DECLS

struct _DmkLabPage {
    GtkBox parent_instance;
    /* the form */
    GtkWidget *kind_dd;
    GtkWidget *form_stack;                                  /* a grid of fields per test */
    GtkWidget *fields[DMK_LAB_MAX_TESTS][DMK_LAB_N_PARAMS]; /* by test index, setting */
    GtkWidget *labels[DMK_LAB_MAX_TESTS][DMK_LAB_N_PARAMS]; /* each field's label */
    GtkSizeGroup *label_group;
    GtkWidget *summary, *duration, *note;
    GtkWidget *button;
    gboolean running;
    gboolean device; /* the target is a raw device (dmk_lab_page_set_device) */
    /* the right side */
    GtkWidget *progress_box, *progress_label, *progress;
    GtkWidget *stack; /* "empty", "live", "result" */
    GtkWidget *empty_title, *empty_text;
    GtkWidget *live_area;
    GtkWidget *result_box;
    DmkLabView *view;
    /* the live chart: speed over data written (or time), approximate */
    DmkChartModel live_model;
    DmkChartSeries live_series;
    GArray *live; /* DmkChartPoint */
    gboolean live_by_bytes, live_iops;
    uint32_t live_bs;
    size_t live_test;
    double live_base, live_last; /* bytes written by earlier tests, and the latest */
    DmkLabKind live_kind;
    gint64 live_drawn_us; /* when the live chart was last redrawn */
};

/* ---- the form (dmk-lab-page-form.c) ----------------------------------------- */

/* The settings of every test of the table, a grid of fields each, in a
 * stack by the test's name (self->form_stack); the fields show the
 * test's defaults (dmk_lab_params_init). */
GtkWidget *_dmk_lab_page_build_fields(DmkLabPage *self);
/* A form's grid, and the label of one of its rows (mnemonic, right-aligned,
 * as wide as every other: the test chooser's row lines up with the fields). */
GtkWidget *_dmk_lab_page_form_grid(void);
GtkWidget *_dmk_lab_page_form_label(DmkLabPage *self, const char *text, GtkWidget *widget);
/* What the chosen test's settings mean, and how long it takes. */
void _dmk_lab_page_update_summary(DmkLabPage *self);
/* The fields' labels, tooltips and a full span's "whole device" for
 * self->device (DmkLabField's device_label, device_tip). */
void _dmk_lab_page_form_set_device(DmkLabPage *self);
/* The test chosen, its fields' values and the summary ("lab-test",
 * "lab-field", "lab-summary"). */
void _dmk_lab_page_dump_form(DmkLabPage *self, GString *out);

/* ---- the live chart (dmk-lab-page-live.c) ------------------------------------ */

/* The live chart's widget (self->live_area). */
GtkWidget *_dmk_lab_page_build_live(DmkLabPage *self);
/* A new run: no points yet, titles from what the spec runs. */
void _dmk_lab_page_live_begin(DmkLabPage *self, const DmkRunSpec *spec);
/* Redraws the live chart now, or when it was not redrawn in the last
 * quarter second. */
void _dmk_lab_page_refresh_live(DmkLabPage *self, gboolean now);

G_END_DECLS

#endif
