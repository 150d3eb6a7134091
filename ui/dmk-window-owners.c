/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run owners: the page a run reports to, one const table each. The
 * Benchmark tab's tiles, the sweep tab and the Lab tab each start runs;
 * the window keeps the owner of the run under way (self->run.owner) and
 * hands it the worker's reports (dmk-window-run.c), so that each page
 * sees only its own runs: a sweep's point named as a tile is not that
 * tile's, a lab test's steps fill no tile. A new kind of run is one table
 * here and a DmkRunStart with it where the run is built. */
#include "dmk-window-private.h"

#include <glib/gi18n.h>

#include <string.h>

/* ---- the Benchmark tab's tiles ----------------------------------------- */

static GtkWidget *tiles_page(DmkWindow *self)
{
    return self->benchmark_page;
}

/* Test `index`'s tile, as the spec's builder noted it; NULL for none. */
static DmkTile *run_tile(DmkWindow *self, size_t index)
{
    return index < self->run.n_tiles ? self->run.tiles[index] : NULL;
}

/* The tiles this run will measure keep their old numbers, dimmed and
 * said to be the previous run's, until their test starts (an empty one
 * is reset, so an old "\u2014" goes); the button pressed becomes Stop. */
static GtkWidget *tiles_begin(DmkWindow *self, const DmkRunSpec *spec)
{
    for (size_t i = 0; i < spec->n_tests; i++) {
        DmkTile *tile = run_tile(self, i);
        if (tile && dmk_tile_has_value(tile))
            dmk_tile_set_stale(tile, TRUE);
        else if (tile)
            dmk_tile_set_stats(tile, NULL);
    }
    int row = self->run.row;
    return row < 0 ? GTK_WIDGET(self->all_button) : self->row_buttons[row];
}

static void set_running_tile(DmkWindow *self, DmkTile *tile)
{
    for (int r = 0; r < DMK_ROWS_MAX; r++) {
        for (int c = 0; c < DMK_COLS; c++) {
            dmk_tile_set_running(self->tiles[r][c], self->tiles[r][c] == tile);
            if (self->tiles[r][c] != tile)
                dmk_tile_set_progress(self->tiles[r][c], -1);
        }
    }
}

/* The live figure from a report: the engine's rate over its last poll
 * (a tenth of a second), with the IOPS its block size makes and the mean
 * latency its queues make of those (Little's law: in flight / IOPS). */
static void live_stats(const DmkProgress *p, DmkStats *s)
{
    uint64_t in_flight = 0;
    double block = 0;
    for (int j = 0; j < p->test->n_jobs; j++) {
        in_flight += (uint64_t)p->test->jobs[j].queue_depth * p->test->jobs[j].threads;
        block = MAX(block, (double)p->test->jobs[j].block_size);
    }
    *s = (DmkStats){.mb_s = p->mb_s};
    s->iops = block > 0 ? p->mb_s * 1e6 / block : 0;
    s->lat_mean_us = s->iops > 0 ? (double)in_flight / s->iops * 1e6 : 0;
}

/* A test that starts drops its tile's old number; while it measures, the
 * tile shows the rate as it goes, a few times a second (the window gets
 * at most ~10 reports a second), and how far the test is. */
static void tiles_progress(DmkWindow *self, const DmkProgress *p)
{
    gboolean testing = p->stage != DMK_STAGE_PREPARE && p->test;
    DmkTile *tile = testing ? run_tile(self, p->test_index) : NULL;
    set_running_tile(self, tile);
    if (!tile || p->stage == DMK_STAGE_INTERVAL)
        return;
    if (g_strcmp0(dmk_tile_get_state(tile), "stale") == 0) {
        dmk_tile_set_stats(tile, NULL);
        dmk_tile_set_flags(tile, NULL, NULL);
    }
    dmk_tile_set_progress(tile, _dmk_window_test_fraction(self, p));
    /* The last report of a test's last pass is of its queues draining:
     * no rate to show, the score follows. */
    if (p->stage != DMK_STAGE_MEASURE || p->test_bytes == 0 ||
        (p->pass >= p->passes && p->fraction >= 1.0))
        return;
    DmkStats live;
    live_stats(p, &live);
    /* TRANSLATORS: a tile's tooltip during a run: the pass's number of all. */
    char *note = g_strdup_printf(_("Measuring now, pass %u of %u: the rate of the last tenth of a "
                                   "second, not yet a result."),
                                 MAX(p->pass, 1u), MAX(p->passes, 1u));
    dmk_tile_set_live(tile, &live, note);
    g_free(note);
}

static void tiles_test_done(DmkWindow *self, const DmkTest *test, const DmkPassResult *score,
                            size_t index)
{
    (void)test;
    DmkTile *tile = run_tile(self, index);
    if (!tile)
        return;
    dmk_tile_set_stats(tile, &score->total);
    dmk_tile_set_running(tile, FALSE);
    dmk_tile_set_progress(tile, -1);
}

/* A run that ended early: the tiles it never measured lose any number
 * (an old one would read as this run's), the test it was in keeps its
 * live figure marked partial; why, in their tooltips. */
static void mark_unmeasured(DmkWindow *self, int rc, const char *status)
{
    gboolean stopped = rc == DMK_E_STOPPED;
    /* TRANSLATORS: a tile's tooltip; %s is the status line ("Stopped after 0:42"). */
    char *partial =
        stopped ? g_strdup_printf(_("%s: the run stopped during this test. The number "
                                    "is its last live reading, not a result; the "
                                    "run's tab, Copy and Save leave this test out."),
                                  status)
                /* TRANSLATORS: a tile's tooltip; %s is the status line ("Failed after 0:42"). */
                : g_strdup_printf(_("%s: the run failed during this test. The number "
                                    "is its last live reading, not a result; the "
                                    "run's tab, Copy and Save leave this test out."),
                                  status);
    /* TRANSLATORS: a tile's tooltip; %s is the status line ("Stopped after 0:42"). */
    char *skipped =
        stopped ? g_strdup_printf(_("%s: the run stopped before this test, which it "
                                    "did not measure."),
                                  status)
                /* TRANSLATORS: a tile's tooltip; %s is the status line ("Failed after 0:42"). */
                : g_strdup_printf(_("%s: the run failed before this test, which it "
                                    "did not measure."),
                                  status);
    for (size_t i = 0; i < self->run.n_tiles; i++) {
        DmkTile *tile = run_tile(self, i);
        const char *state = tile ? dmk_tile_get_state(tile) : "measured";
        if (strcmp(state, "live") == 0)
            dmk_tile_set_partial(tile, partial);
        else if (strcmp(state, "measured") != 0)
            dmk_tile_set_skipped(tile, skipped);
    }
    g_free(partial);
    g_free(skipped);
}

static void unmark_tiles(DmkWindow *self)
{
    for (int r = 0; r < DMK_ROWS_MAX; r++) {
        for (int c = 0; c < DMK_COLS; c++) {
            dmk_tile_set_running(self->tiles[r][c], FALSE);
            dmk_tile_set_progress(self->tiles[r][c], -1);
        }
    }
}

/* The Benchmark tab's run-level note: what the file system did to the
 * test file; hidden when it did nothing. Made on first use, under the
 * tiles. */
static void show_flags_note(DmkWindow *self, const DmkRunResult *r)
{
    char notes[2048];
    dmk_run_fs_notes(r, notes, sizeof notes);
    g_strchomp(notes); /* one label: no line end after the last note */
    if (!self->flags_note && !notes[0])
        return;
    if (!self->flags_note) {
        self->flags_note = gtk_label_new("");
        gtk_label_set_xalign(GTK_LABEL(self->flags_note), 0);
        gtk_label_set_wrap(GTK_LABEL(self->flags_note), TRUE);
        gtk_widget_add_css_class(self->flags_note, "flags-note");
        gtk_widget_set_tooltip_text(self->flags_note,
                                    _("A copy-on-write or compressing file system changes what a "
                                      "benchmark measures; Drivemark turns both off for its test "
                                      "file where the file system allows (btrfs: NOCOW)."));
        gtk_box_insert_child_after(GTK_BOX(self->benchmark_page), self->flags_note,
                                   GTK_WIDGET(self->grid));
    }
    gtk_label_set_text(GTK_LABEL(self->flags_note), notes);
    gtk_widget_set_visible(self->flags_note, notes[0] != '\0');
}

/* The tiles take the finished run's flags (peak, a short queue, over the
 * interface; tiles the run did not measure keep theirs), and the run is
 * the one that copy and save take from the Benchmark tab. */
static void tiles_finished(DmkWindow *self, const DmkRunResult *r, DmkSaved *saved)
{
    unmark_tiles(self);
    if (r) {
        for (size_t i = 0; i < r->n_tests; i++) {
            DmkTile *tile = run_tile(self, i); /* the result's tests are the spec's, in order */
            if (tile)
                dmk_tile_set_flags(tile, r, &r->tests[i]);
        }
        show_flags_note(self, r);
    }
    /* Copy and save take what the tiles show: this run's, even when it
     * measured nothing (its predecessor has its own tab). */
    g_clear_pointer(&self->last_run, dmk_saved_unref);
    if (saved)
        self->last_run = dmk_saved_ref(saved);
}

/* Every tile of the run now shows this run's score or says it has none. */
static void tiles_ended(DmkWindow *self, DmkSaved *saved, int rc, const char *status)
{
    (void)saved;
    mark_unmeasured(self, rc, status);
}

/* The tiles' run buttons are dmk-window.c's (every run locks them). */
const DmkRunOwner _dmk_window_tiles_owner = {
    .page = tiles_page,
    .begin = tiles_begin,
    .progress = tiles_progress,
    .test_done = tiles_test_done,
    .finished = tiles_finished,
    .ended = tiles_ended,
};

/* ---- the sweep tab ------------------------------------------------------------ */

static GtkWidget *sweep_page(DmkWindow *self)
{
    return GTK_WIDGET(self->sweep_page);
}

static GtkWidget *sweep_begin(DmkWindow *self, const DmkRunSpec *spec)
{
    dmk_sweep_page_begin(self->sweep_page, spec);
    return NULL; /* the page's own button becomes Stop */
}

static void sweep_progress(DmkWindow *self, const DmkProgress *p)
{
    dmk_sweep_page_progress(self->sweep_page, p);
}

static void sweep_test_done(DmkWindow *self, const DmkTest *test, const DmkPassResult *score,
                            size_t index)
{
    (void)index;
    dmk_sweep_page_point(self->sweep_page, test, score);
}

static void sweep_ended(DmkWindow *self, DmkSaved *saved, int rc, const char *status)
{
    (void)saved; /* its tab shows it */
    dmk_sweep_page_end(self->sweep_page, rc == DMK_OK, status);
}

static void sweep_set_running(DmkWindow *self, gboolean running, gboolean mine)
{
    dmk_sweep_page_set_running(self->sweep_page, running, mine);
}

const DmkRunOwner _dmk_window_sweep_owner = {
    .page = sweep_page,
    .begin = sweep_begin,
    .progress = sweep_progress,
    .test_done = sweep_test_done,
    .ended = sweep_ended,
    .set_running = sweep_set_running,
    .show_result = TRUE,
};

/* ---- the Lab tab -------------------------------------------------------------- */

static GtkWidget *lab_page(DmkWindow *self)
{
    return GTK_WIDGET(self->lab_page);
}

static GtkWidget *lab_begin(DmkWindow *self, const DmkRunSpec *spec)
{
    dmk_lab_page_begin(self->lab_page, spec);
    return NULL; /* the page's own button becomes Stop */
}

static void lab_progress(DmkWindow *self, const DmkProgress *p)
{
    dmk_lab_page_progress(self->lab_page, p);
}

static void lab_ended(DmkWindow *self, DmkSaved *saved, int rc, const char *status)
{
    dmk_lab_page_end(self->lab_page, saved, rc == DMK_OK, status);
}

static void lab_set_running(DmkWindow *self, gboolean running, gboolean mine)
{
    dmk_lab_page_set_running(self->lab_page, running, mine);
}

/* The surface scan's samples, each as it ends (the live read-rate chart);
 * the other lab tests draw from their samples at the end. */
static void lab_test_done(DmkWindow *self, const DmkTest *test, const DmkPassResult *score,
                          size_t index)
{
    (void)index;
    dmk_lab_page_test_done(self->lab_page, test, score);
}

const DmkRunOwner _dmk_window_lab_owner = {
    .page = lab_page,
    .begin = lab_begin,
    .progress = lab_progress,
    .test_done = lab_test_done,
    .ended = lab_ended,
    .set_running = lab_set_running,
};

/* ---- all of them -------------------------------------------------------------- */

static const DmkRunOwner *const owners[] = {
    &_dmk_window_tiles_owner,
    &_dmk_window_sweep_owner,
    &_dmk_window_lab_owner,
};

void _dmk_window_owners_set_running(DmkWindow *self, gboolean running)
{
    for (size_t i = 0; i < G_N_ELEMENTS(owners); i++)
        if (owners[i]->set_running)
            owners[i]->set_running(self, running, self->run.owner == owners[i]);
}

gboolean _dmk_window_runs_on(DmkWindow *self, GtkWidget *page)
{
    return self->run.owner && self->run.owner->page(self) == page;
}
