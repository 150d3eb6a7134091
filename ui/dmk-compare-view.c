/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-compare-view.h"

#include <glib/gi18n.h>

#include <math.h>
#include <string.h>

#include "dmk-plot.h"
#include "dmk-report.h"
#include "dmk-size.h"
#include "dmk-text.h"
#include "dmk-units.h"

typedef struct {
    DmkSaved *saved;
    GtkWidget *check;
    guint seq; /* when it was picked: the first picked is the reference */
} Entry;

struct _DmkCompareView {
    GtkBox parent_instance;
    GPtrArray *entries; /* Entry, in the order added */
    GtkWidget *picks;   /* the check buttons */
    GtkWidget *metric_dd;
    GtkWidget *chart;
    GtkWidget *table_scroll;
    GtkWidget *scale_dd; /* the chart's value axis */
    GtkWidget *caption;  /* what the table's numbers are */
    GPtrArray *rows;     /* char ** per table row, as shown, for the dump */
    guint next_seq;
};

G_DEFINE_FINAL_TYPE(DmkCompareView, dmk_compare_view, GTK_TYPE_BOX)

static const struct {
    const char *id;
    const char *label;
    DmkUnit unit; /* how a tile would write it */
    gboolean lower_is_better;
} metrics[] = {
    {"mb_s", "MB/s", DMK_UNIT_MB_S, FALSE},
    {"iops", "IOPS", DMK_UNIT_IOPS, FALSE},
    /* The units stay as they are; the latencies' names are msgids. */
    {"lat_mean_us", N_("Mean latency (\u03bcs)"), DMK_UNIT_US, TRUE},
    {"lat_p99_us", N_("99th percentile latency (\u03bcs)"), DMK_UNIT_US, TRUE},
};

static guint metric_index(DmkCompareView *self)
{
    guint i = gtk_drop_down_get_selected(GTK_DROP_DOWN(self->metric_dd));
    return i < G_N_ELEMENTS(metrics) ? i : 0;
}

static void entry_free(gpointer data)
{
    Entry *e = data;
    dmk_saved_unref(e->saved);
    g_free(e);
}

static int by_seq(gconstpointer a, gconstpointer b)
{
    const Entry *x = *(Entry *const *)a, *y = *(Entry *const *)b;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The picked entries, the first picked first. */
static GPtrArray *picked(DmkCompareView *self)
{
    GPtrArray *p = g_ptr_array_new();
    for (guint i = 0; i < self->entries->len; i++) {
        Entry *e = g_ptr_array_index(self->entries, i);
        if (gtk_check_button_get_active(GTK_CHECK_BUTTON(e->check)))
            g_ptr_array_add(p, e);
    }
    g_ptr_array_sort(p, by_seq);
    return p;
}

GPtrArray *dmk_compare_view_picked(DmkCompareView *self)
{
    GPtrArray *p = picked(self);
    GPtrArray *out = g_ptr_array_new();
    for (guint i = 0; i < p->len; i++)
        g_ptr_array_add(out, ((Entry *)g_ptr_array_index(p, i))->saved);
    g_ptr_array_unref(p);
    return out;
}

/* ---- the table ------------------------------------------------------------- */

static GtkWidget *cell(GtkGrid *grid, const char *text, int col, int row, float xalign)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), xalign);
    gtk_grid_attach(grid, l, col, row, 1, 1);
    return l;
}

static const DmkTestResult *find_test(const DmkRunResult *r, const DmkTest *key)
{
    for (size_t i = 0; i < r->n_tests; i++)
        if (r->tests[i].test.mode == key->mode && strcmp(r->tests[i].test.name, key->name) == 0)
            return &r->tests[i];
    return NULL;
}

/* Every test and direction of any picked result, in first-seen order. */
static GPtrArray *row_keys(GPtrArray *p)
{
    GPtrArray *keys = g_ptr_array_new();
    for (guint f = 0; f < p->len; f++) {
        const DmkRunResult *r = dmk_saved_get_result(((Entry *)p->pdata[f])->saved);
        for (size_t i = 0; i < r->n_tests; i++) {
            gboolean seen = FALSE;
            for (guint k = 0; k < keys->len && !seen; k++) {
                const DmkTest *t = keys->pdata[k];
                seen =
                    t->mode == r->tests[i].test.mode && strcmp(t->name, r->tests[i].test.name) == 0;
            }
            if (!seen)
                g_ptr_array_add(keys, (gpointer)&r->tests[i].test);
        }
    }
    return keys;
}

static double value_of(DmkCompareView *self, const DmkTestResult *t)
{
    const char *id = metrics[metric_index(self)].id;
    for (size_t i = 0; i < dmk_stat_field_count; i++)
        if (strcmp(dmk_stat_fields[i].name, id) == 0)
            return dmk_stat_get(&t->score.total, &dmk_stat_fields[i]);
    return NAN;
}

/* As a tile writes it: fewer decimals for big numbers. */
static char *format_value(DmkCompareView *self, double v)
{
    char buf[48];
    if (!isfinite(v))
        return g_strdup("\u2013");
    DmkUnit u = metrics[metric_index(self)].unit;
    return g_strdup(dmk_format_double(v, dmk_unit_decimals(u, v), buf, sizeof buf));
}

/* "+12.3 %", styled better or worse for this metric. */
static GtkWidget *diff_cell(DmkCompareView *self, GtkGrid *grid, double v, double v0, int col,
                            int row, char **text)
{
    gboolean ok = isfinite(v) && isfinite(v0) && v0 > 0;
    double d = ok ? (v - v0) / v0 * 100.0 : 0;
    *text = ok ? g_strdup_printf("%+.1f %%", d) : g_strdup("\u2013");
    GtkWidget *l = cell(grid, *text, col, row, 1.0);
    gboolean up_is_good = !metrics[metric_index(self)].lower_is_better;
    if (ok && fabs(d) >= 0.05)
        gtk_widget_add_css_class(l, (d > 0) == up_is_good ? "better" : "worse");
    return l;
}

/* The table in two grids: the test and mode pinned on the left, the
 * results' columns beside them scrolling sideways, so any number of
 * results fits the window; a size group per row keeps each row's two
 * halves level. */
typedef struct {
    GtkGrid *names;  /* Test, Mode */
    GtkGrid *values; /* [1], [2] ... and [2] vs [1] ... */
} Table;

static void level_row(GtkWidget *name_cell, GtkWidget *value_cell)
{
    GtkSizeGroup *g = gtk_size_group_new(GTK_SIZE_GROUP_VERTICAL);
    gtk_size_group_add_widget(g, name_cell);
    gtk_size_group_add_widget(g, value_cell);
    g_object_unref(g); /* the widgets keep it */
}

static void add_row(DmkCompareView *self, const Table *t, GPtrArray *p, const DmkTest *key, int row)
{
    guint n = p->len;
    char **texts = g_new0(char *, 2 + 2 * n);
    texts[0] = g_strdup_printf("%s\t%s", key->name, dmk_mode_name(key->mode));
    GtkWidget *name = cell(t->names, key->name, 0, row, 0);
    gtk_widget_add_css_class(name, "test-name");
    cell(t->names, _(dmk_mode_title(key->mode)), 1, row, 0);
    double v0 = NAN;
    for (guint f = 0; f < n; f++) {
        const DmkTestResult *r =
            find_test(dmk_saved_get_result(((Entry *)p->pdata[f])->saved), key);
        double v = r ? value_of(self, r) : NAN;
        v0 = f == 0 ? v : v0;
        texts[1 + f] = format_value(self, v);
        GtkWidget *value = cell(t->values, texts[1 + f], (int)f, row, 1.0);
        gtk_widget_add_css_class(value, "numeric");
        if (f == 0)
            level_row(name, value);
        if (f > 0)
            diff_cell(self, t->values, v, v0, (int)n + (int)f - 1, row, &texts[n + f]);
    }
    g_ptr_array_add(self->rows, texts);
}

static void add_headers(const Table *t, GPtrArray *p)
{
    /* TRANSLATORS: the compare table's columns: the test's name and its direction. */
    GtkWidget *h[] = {cell(t->names, _("Test"), 0, 0, 0), cell(t->names, _("Mode"), 1, 0, 0)};
    for (size_t i = 0; i < G_N_ELEMENTS(h); i++)
        gtk_widget_add_css_class(h[i], "column-header");
    /* Short headers, so the chart keeps the room: the check buttons above
     * say which result [1] is. */
    for (guint f = 0; f < p->len; f++) {
        const Entry *e = p->pdata[f];
        char *text = g_strdup_printf("[%u]", f + 1);
        GtkWidget *l = cell(t->values, text, (int)f, 0, 1.0);
        gtk_widget_set_tooltip_text(l, dmk_saved_get_title(e->saved));
        gtk_widget_add_css_class(l, "column-header");
        if (f == 0)
            level_row(h[0], l);
        g_free(text);
        if (f == 0)
            continue;
        /* TRANSLATORS: a compare column's header: result [2] against result [1]. */
        text = g_strdup_printf(_("[%u] vs [1]"), f + 1);
        gtk_widget_add_css_class(cell(t->values, text, (int)p->len + (int)f - 1, 0, 1.0),
                                 "column-header");
        g_free(text);
    }
}

static void set_caption(DmkCompareView *self, guint picked)
{
    const char *metric = _(metrics[metric_index(self)].label);
    /* TRANSLATORS: the compare table's caption; %s is the metric (MB/s, Mean latency). */
    char *text = picked <= 1 ? g_strdup_printf(_("%s of each test's best pass"), metric)
                 : metrics[metric_index(self)].lower_is_better
                     ? g_strdup_printf(_("%s of each test's best pass; [2] vs [1]: the "
                                         "difference in %%, lower is better"),
                                       metric)
                     : g_strdup_printf(_("%s of each test's best pass; [2] vs [1]: the "
                                         "difference in %%, higher is better"),
                                       metric);
    gtk_label_set_text(GTK_LABEL(self->caption), text);
    g_free(text);
}

static GtkWidget *table_grid(void)
{
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 3);
    gtk_widget_add_css_class(grid, "compare-table");
    gtk_widget_set_valign(grid, GTK_ALIGN_START);
    return grid;
}

/* The widest the results' columns ask before they scroll: two results'
 * numbers and difference fit unscrolled; more scroll, and the chart keeps
 * the rest of the window. */
#define TABLE_VALUES_MAX_WIDTH 300

/* The sideways scrollbar takes room below the numbers only while they
 * scroll: GTK counts a non-overlay scrollbar's height in the request
 * only with GTK_POLICY_ALWAYS, and AUTOMATIC would draw it over the last
 * row. Set after the allocation that found the need (not during it). */
static gboolean sideways_policy(gpointer data)
{
    GtkScrolledWindow *sw = data;
    GtkAdjustment *a = gtk_scrolled_window_get_hadjustment(sw);
    gboolean scrolls = gtk_adjustment_get_upper(a) - gtk_adjustment_get_lower(a) >
                       gtk_adjustment_get_page_size(a) + 0.5;
    GtkPolicyType h, v;
    gtk_scrolled_window_get_policy(sw, &h, &v);
    GtkPolicyType want = scrolls ? GTK_POLICY_ALWAYS : GTK_POLICY_AUTOMATIC;
    if (h != want)
        gtk_scrolled_window_set_policy(sw, want, GTK_POLICY_NEVER);
    g_object_set_data(G_OBJECT(sw), "dmk-policy-idle", NULL);
    return G_SOURCE_REMOVE;
}

static void on_sideways_range(GtkAdjustment *a, GtkScrolledWindow *sw)
{
    (void)a;
    if (g_object_get_data(G_OBJECT(sw), "dmk-policy-idle"))
        return;
    guint id =
        g_idle_add_full(G_PRIORITY_HIGH_IDLE, sideways_policy, g_object_ref(sw), g_object_unref);
    g_object_set_data(G_OBJECT(sw), "dmk-policy-idle", GUINT_TO_POINTER(id));
}

/* A row that scrolls sideways when it is wider than its room, with a
 * scrollbar always drawn (an overlay one shows only under the pointer,
 * and what is past the edge looked cut off) that takes room of its own
 * only while it scrolls. */
static GtkWidget *sideways_scroll(void)
{
    GtkWidget *sw = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(sw), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_scrolled_window_set_overlay_scrolling(GTK_SCROLLED_WINDOW(sw), FALSE);
    g_signal_connect_object(gtk_scrolled_window_get_hadjustment(GTK_SCROLLED_WINDOW(sw)), "changed",
                            G_CALLBACK(on_sideways_range), sw, 0);
    return sw;
}

static GtkWidget *table_body(const Table *t)
{
    GtkWidget *sideways = sideways_scroll();
    gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(sideways), TRUE);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(sideways), TRUE);
    gtk_scrolled_window_set_max_content_width(GTK_SCROLLED_WINDOW(sideways),
                                              TABLE_VALUES_MAX_WIDTH);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(sideways), GTK_WIDGET(t->values));
    /* Its natural width and no more: the window's extra room is the chart's. */
    gtk_widget_set_hexpand(sideways, FALSE);
    gtk_widget_set_valign(sideways, GTK_ALIGN_START);
    gtk_accessible_update_property(GTK_ACCESSIBLE(sideways), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Results"), -1);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    gtk_box_append(GTK_BOX(box), GTK_WIDGET(t->names));
    gtk_box_append(GTK_BOX(box), sideways);
    return box;
}

static void rebuild_table(DmkCompareView *self, GPtrArray *p)
{
    g_ptr_array_set_size(self->rows, 0);
    set_caption(self, p->len);
    if (p->len == 0) {
        GtkWidget *hint = gtk_label_new(_("Tick the results to compare above."));
        gtk_widget_add_css_class(hint, "dim-label");
        gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->table_scroll), hint);
        return;
    }
    Table t = {GTK_GRID(table_grid()), GTK_GRID(table_grid())};
    add_headers(&t, p);
    GPtrArray *keys = row_keys(p);
    for (guint k = 0; k < keys->len; k++)
        add_row(self, &t, p, keys->pdata[k], (int)k + 1);
    g_ptr_array_unref(keys);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->table_scroll), table_body(&t));
}

/* ---- the chart and updates ------------------------------------------------ */

/* The legend names what was picked: "nvme.csv: Samsung SSD 980 PRO 1TB". */
static char *legend_name(const DmkSaved *saved)
{
    const DmkRunResult *r = dmk_saved_get_result(saved);
    const char *title = dmk_saved_get_title(saved);
    char *name =
        r->target.model[0] ? g_strdup_printf("%s: %s", title, r->target.model) : g_strdup(title);
    char *valid = g_utf8_make_valid(name, -1);
    g_free(name);
    return valid;
}

/* "[1] nvme.csv" while picked: the table's columns say [1], [2]. */
static void set_check_label(Entry *e, guint rank)
{
    char *label = rank ? g_strdup_printf("[%u] %s", rank, dmk_saved_get_title(e->saved))
                       : g_strdup(dmk_saved_get_title(e->saved));
    gtk_check_button_set_label(GTK_CHECK_BUTTON(e->check), label);
    g_free(label);
    char *tip = dmk_text_result_label(dmk_saved_get_result(e->saved));
    char *valid = g_utf8_make_valid(tip, -1);
    gtk_widget_set_tooltip_text(e->check, valid);
    g_free(valid);
    g_free(tip);
}

static void relabel(DmkCompareView *self, GPtrArray *p)
{
    for (guint i = 0; i < self->entries->len; i++) {
        Entry *e = g_ptr_array_index(self->entries, i);
        guint rank = 0;
        for (guint k = 0; k < p->len && !rank; k++)
            rank = p->pdata[k] == e ? k + 1 : 0;
        set_check_label(e, rank);
    }
}

static void rebuild(DmkCompareView *self)
{
    GPtrArray *p = picked(self);
    const DmkRunResult **res = g_new0(const DmkRunResult *, p->len + 1);
    char **names = g_new0(char *, p->len + 1);
    for (guint i = 0; i < p->len; i++) {
        res[i] = dmk_saved_get_result(((Entry *)p->pdata[i])->saved);
        names[i] = legend_name(((Entry *)p->pdata[i])->saved);
    }
    dmk_plot_area_set_plot(self->chart, dmk_plot_new(res, (const char *const *)names, p->len,
                                                     metrics[metric_index(self)].id));
    g_free(res);
    g_strfreev(names);
    relabel(self, p);
    rebuild_table(self, p);
    g_ptr_array_unref(p);
}

static void on_toggled(GtkCheckButton *check, DmkCompareView *self)
{
    for (guint i = 0; i < self->entries->len; i++) {
        Entry *e = g_ptr_array_index(self->entries, i);
        if (e->check == GTK_WIDGET(check) && gtk_check_button_get_active(check))
            e->seq = ++self->next_seq;
    }
    rebuild(self);
}

static void on_metric(GtkDropDown *dd, GParamSpec *pspec, DmkCompareView *self)
{
    (void)dd;
    (void)pspec;
    rebuild(self);
}

static guint picked_count(DmkCompareView *self)
{
    guint n = 0;
    for (guint i = 0; i < self->entries->len; i++)
        n += gtk_check_button_get_active(
            GTK_CHECK_BUTTON(((Entry *)g_ptr_array_index(self->entries, i))->check));
    return n;
}

void dmk_compare_view_add(DmkCompareView *self, DmkSaved *saved, gboolean pick)
{
    Entry *e = g_new0(Entry, 1);
    e->saved = dmk_saved_ref(saved);
    e->check = gtk_check_button_new();
    g_ptr_array_add(self->entries, e);
    gtk_box_append(GTK_BOX(self->picks), e->check);
    /* Opened beyond the default's count: listed, ticked by hand. */
    if (pick && picked_count(self) < DMK_COMPARE_DEFAULT_PICKS) {
        e->seq = ++self->next_seq;
        gtk_check_button_set_active(GTK_CHECK_BUTTON(e->check), TRUE);
    }
    g_signal_connect(e->check, "toggled", G_CALLBACK(on_toggled), self);
    rebuild(self);
}

void dmk_compare_view_remove(DmkCompareView *self, DmkSaved *saved)
{
    for (guint i = 0; i < self->entries->len; i++) {
        Entry *e = g_ptr_array_index(self->entries, i);
        if (e->saved != saved)
            continue;
        gtk_box_remove(GTK_BOX(self->picks), e->check);
        g_ptr_array_remove_index(self->entries, i);
        rebuild(self);
        return;
    }
}

void dmk_compare_view_pick_default(DmkCompareView *self)
{
    for (guint i = 0; i < self->entries->len; i++) {
        Entry *e = g_ptr_array_index(self->entries, i);
        gboolean pick = i < DMK_COMPARE_DEFAULT_PICKS;
        g_signal_handlers_block_by_func(e->check, on_toggled, self);
        gtk_check_button_set_active(GTK_CHECK_BUTTON(e->check), pick);
        g_signal_handlers_unblock_by_func(e->check, on_toggled, self);
        e->seq = pick ? ++self->next_seq : 0;
    }
    rebuild(self);
}

void dmk_compare_view_refresh(DmkCompareView *self)
{
    rebuild(self);
}

guint dmk_compare_view_count(DmkCompareView *self)
{
    return self->entries->len;
}

GtkWidget *dmk_compare_view_get_chart(DmkCompareView *self)
{
    return self->chart;
}

/* The window's and the chart's widths now, for tests: the window's must
 * not grow with the results opened, nor the chart shrink. */
static void dump_layout(DmkCompareView *self, GString *out)
{
    GtkWidget *root = GTK_WIDGET(gtk_widget_get_root(GTK_WIDGET(self)));
    int min = 0, nat = 0, tmin = 0, tnat = 0;
    if (root)
        gtk_widget_measure(root, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
    gtk_widget_measure(self->table_scroll, GTK_ORIENTATION_HORIZONTAL, -1, &tmin, &tnat, NULL,
                       NULL);
    g_string_append_printf(out, "compare-layout\t%u\t%u\t%d\t%d\t%d\t%d\t%d\n", self->entries->len,
                           picked_count(self), min, nat, root ? gtk_widget_get_width(root) : 0,
                           tmin, tnat);
    dmk_plot_area_dump(self->chart, "compare", out);
}

void dmk_compare_view_dump(DmkCompareView *self, GString *out)
{
    dump_layout(self, out);
    GPtrArray *p = picked(self);
    for (guint i = 0; i < p->len; i++)
        g_string_append_printf(out, "compare\t%u\t%s\n", i + 1,
                               dmk_saved_get_title(((Entry *)p->pdata[i])->saved));
    for (guint r = 0; r < self->rows->len; r++) {
        char *line = g_strjoinv("\t", self->rows->pdata[r]);
        g_string_append_printf(out, "compare-row\t%s\n", line);
        g_free(line);
    }
    g_ptr_array_unref(p);
}

/* The picked results and the table as text, tab-separated so that it
 * pastes into a spreadsheet as a table: Copy and Save Text of the tab. */
char *dmk_compare_view_text(DmkCompareView *self)
{
    GPtrArray *p = picked(self);
    if (p->len == 0) {
        g_ptr_array_unref(p);
        return NULL;
    }
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "Drivemark comparison: %s\n", metrics[metric_index(self)].label);
    for (guint i = 0; i < p->len; i++) {
        const DmkRunResult *r = dmk_saved_get_result(((Entry *)p->pdata[i])->saved);
        char label[512];
        dmk_result_label(r, false, label, sizeof label);
        g_string_append_printf(s, "[%u]\t%s\t%s%s%s\n", i + 1,
                               dmk_saved_get_title(((Entry *)p->pdata[i])->saved), label,
                               r->comment[0] ? "\t" : "", r->comment);
    }
    g_string_append(s, "Test\tMode");
    for (guint i = 0; i < p->len; i++)
        g_string_append_printf(s, "\t[%u]", i + 1);
    for (guint i = 1; i < p->len; i++)
        g_string_append_printf(s, "\t[%u] vs [1]", i + 1);
    g_string_append_c(s, '\n');
    for (guint r = 0; r < self->rows->len; r++) {
        char *line = g_strjoinv("\t", self->rows->pdata[r]);
        g_string_append_printf(s, "%s\n", line);
        g_free(line);
    }
    g_ptr_array_unref(p);
    return g_string_free(s, FALSE);
}

/* ---- building ---------------------------------------------------------------- */

static GtkWidget *build_metric(DmkCompareView *self)
{
    const char *labels[G_N_ELEMENTS(metrics) + 1] = {NULL};
    for (size_t i = 0; i < G_N_ELEMENTS(metrics); i++)
        labels[i] = _(metrics[i].label);
    self->metric_dd = gtk_drop_down_new_from_strings(labels);
    gtk_widget_set_tooltip_text(self->metric_dd, _("What the chart and the table show"));
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->metric_dd), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Metric"), -1);
    g_signal_connect(self->metric_dd, "notify::selected", G_CALLBACK(on_metric), self);
    return self->metric_dd;
}

static GtkWidget *build_top(DmkCompareView *self)
{
    GtkWidget *top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    GtkWidget *label = gtk_label_new(_("Compare:"));
    gtk_widget_add_css_class(label, "heading");
    self->picks = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
    /* Many results scroll sideways instead of widening the window. */
    GtkWidget *scroll = sideways_scroll();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), self->picks);
    gtk_widget_set_hexpand(scroll, TRUE);
    GtkWidget *export = gtk_button_new_with_mnemonic(_("Export _Chart…"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(export), "win.export-chart");
    gtk_widget_set_tooltip_text(export, _("Save the chart as PNG, SVG or PDF (by the name's "
                                          "extension)"));
    gtk_box_append(GTK_BOX(top), label);
    gtk_box_append(GTK_BOX(top), scroll);
    gtk_box_append(GTK_BOX(top), build_metric(self));
    gtk_box_append(GTK_BOX(top), self->scale_dd);
    gtk_box_append(GTK_BOX(top), export);
    return top;
}

static GtkWidget *build_body(DmkCompareView *self)
{
    GtkWidget *body = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10);
    gtk_widget_set_vexpand(body, TRUE);
    GtkWidget *frame = gtk_frame_new(NULL);
    gtk_frame_set_child(GTK_FRAME(frame), self->chart);
    gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN);
    gtk_widget_add_css_class(frame, "chart");
    self->table_scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(self->table_scroll), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(self->table_scroll), TRUE);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(self->table_scroll), TRUE);
    self->caption = gtk_label_new("");
    gtk_label_set_wrap(GTK_LABEL(self->caption), TRUE);
    gtk_label_set_xalign(GTK_LABEL(self->caption), 0);
    gtk_label_set_max_width_chars(GTK_LABEL(self->caption), 30);
    gtk_widget_add_css_class(self->caption, "result-context");
    GtkWidget *side = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_hexpand(side, FALSE);
    gtk_box_append(GTK_BOX(side), self->caption);
    gtk_box_append(GTK_BOX(side), self->table_scroll);
    gtk_box_append(GTK_BOX(body), frame);
    gtk_box_append(GTK_BOX(body), side);
    return body;
}

static void dmk_compare_view_dispose(GObject *object)
{
    DmkCompareView *self = DMK_COMPARE_VIEW(object);
    if (self->entries)
        g_ptr_array_set_size(self->entries, 0);
    G_OBJECT_CLASS(dmk_compare_view_parent_class)->dispose(object);
}

static void dmk_compare_view_finalize(GObject *object)
{
    DmkCompareView *self = DMK_COMPARE_VIEW(object);
    g_ptr_array_unref(self->entries);
    g_ptr_array_unref(self->rows);
    G_OBJECT_CLASS(dmk_compare_view_parent_class)->finalize(object);
}

static void dmk_compare_view_class_init(DmkCompareViewClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = dmk_compare_view_dispose;
    G_OBJECT_CLASS(klass)->finalize = dmk_compare_view_finalize;
}

static void dmk_compare_view_init(DmkCompareView *self)
{
    self->entries = g_ptr_array_new_with_free_func(entry_free);
    self->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_VERTICAL);
    gtk_box_set_spacing(GTK_BOX(self), 8);
    gtk_widget_add_css_class(GTK_WIDGET(self), "compare-view");
    self->chart = dmk_plot_area_new();
    self->scale_dd = dmk_plot_scale_control_new(self->chart);
    gtk_box_append(GTK_BOX(self), build_top(self));
    gtk_box_append(GTK_BOX(self), build_body(self));
    rebuild(self);
}

GtkWidget *dmk_compare_view_new(void)
{
    return g_object_new(DMK_TYPE_COMPARE_VIEW, NULL);
}
