/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A tile in a column narrower than its flag badge, as in a sweep's tab:
 * the badge wraps to more lines, and the tile asks for its height for
 * its width, so the window gives it room for every line and the number
 * above keeps its own height. A tile that reported a constant size was
 * given the height of a one-line badge, which then overlapped the
 * number. Under an X server of its own (run_in_x.py). */
#include "dmk-test.h"

#include <gtk/gtk.h>

#include "dmk-test-spec.h"
#include "dmk-tile.h"

#define NARROW_PX 70

static gboolean wake(gpointer data)
{
    (void)data;
    return G_SOURCE_CONTINUE;
}

/* Iterates until w is mapped with a width (at most 20 s): a state, not a
 * guessed delay. The timeout only makes each iteration return. */
static void wait_laid_out(GtkWidget *w)
{
    guint id = g_timeout_add(50, wake, NULL);
    gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
    while (!(gtk_widget_get_mapped(w) && gtk_widget_get_width(w) > 0) &&
           g_get_monotonic_time() < end)
        g_main_context_iteration(NULL, TRUE);
    g_source_remove(id);
    DMK_CHECK(gtk_widget_get_mapped(w) && gtk_widget_get_width(w) > 0);
}

/* A measured read of SEQ1M Q8T1 flagged peak and low queue depth. */
static void flag_tile(DmkTile *tile, DmkRunResult *r, DmkTestResult *t)
{
    DmkRunSpec *spec = dmk_test_spec_new(".", 16ULL << 20, 1);
    dmk_test_spec_add(spec, "SEQ1M Q8T1", DMK_MODE_READ, 0);
    r->size = spec->size;
    t->test = spec->tests[0];
    t->score.total.mb_s = 5410.652;
    t->score.total.iops = 5160.0;
    t->score.total.lat_mean_us = 1548.2;
    t->achieved_qd = 0.9;
    t->flags = DMK_FLAG_PEAK | DMK_FLAG_LOW_QD;
    free(spec);
    dmk_tile_set_test(tile, &t->test);
    dmk_tile_set_stats(tile, &t->score.total);
    dmk_tile_set_flags(tile, r, t);
}

static void test_badge_gets_its_lines(void)
{
    GtkWidget *win = gtk_window_new();
    GtkWidget *tile = dmk_tile_new();
    DmkRunResult r = {0};
    DmkTestResult t = {0};
    flag_tile(DMK_TILE(tile), &r, &t);
    printf("# badge: %s\n", dmk_tile_get_flags_text(DMK_TILE(tile)));
    DMK_CHECK_HAS(dmk_tile_get_flags_text(DMK_TILE(tile)), "QD 0.9 of 8");
    DMK_CHECK_INT(gtk_widget_get_request_mode(tile), GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH);
    gtk_window_set_child(GTK_WINDOW(win), tile);
    gtk_window_set_default_size(GTK_WINDOW(win), NARROW_PX, 1);
    gtk_window_present(GTK_WINDOW(win));
    wait_laid_out(tile);
    int width = gtk_widget_get_width(tile), height = gtk_widget_get_height(tile);
    int one_line = 0, for_width = 0;
    gtk_widget_measure(tile, GTK_ORIENTATION_VERTICAL, -1, &one_line, NULL, NULL, NULL);
    gtk_widget_measure(tile, GTK_ORIENTATION_VERTICAL, width, &for_width, NULL, NULL, NULL);
    printf("# %d px wide: %d px high; needs %d px at this width, %d px unwrapped\n", width, height,
           for_width, one_line);
    DMK_CHECK(for_width > one_line); /* the badge did wrap: the case is real */
    DMK_CHECK(height >= for_width);
    gtk_window_destroy(GTK_WINDOW(win));
}

/* The tooltip is made when GTK asks (query-tooltip), from what the tile
 * shows: nothing for an empty tile, the figures and the flags' meaning
 * for a measured one. */
static void test_tooltip_on_demand(void)
{
    GtkWidget *tile = g_object_ref_sink(dmk_tile_new());
    DMK_CHECK(gtk_widget_get_has_tooltip(tile));
    DMK_CHECK(dmk_tile_dup_tooltip(DMK_TILE(tile)) == NULL);
    DmkRunResult r = {0};
    DmkTestResult t = {0};
    flag_tile(DMK_TILE(tile), &r, &t);
    char *tip = dmk_tile_dup_tooltip(DMK_TILE(tile));
    DMK_CHECK(tip != NULL);
    if (tip) {
        char **lines = g_strsplit(tip, "\n", -1); /* each a TAP comment */
        for (char **l = lines; *l; l++)
            printf("# %s\n", *l);
        g_strfreev(lines);
        DMK_CHECK_HAS(tip, "5410.652 MB/s");
        DMK_CHECK_HAS(tip, "requests were in flight");
    }
    g_free(tip);
    g_object_unref(tile);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!gtk_init_check()) {
        printf("1..0 # SKIP no display for GTK\n");
        return 0;
    }
    DMK_TEST(test_badge_gets_its_lines);
    DMK_TEST(test_tooltip_on_demand);
    return dmk_test_done();
}
