#include "dmk-lab-page.h"

#include <math.h>
#include <string.h>

#include "dmk-chart.h"
#include "dmk-widgets.h"
#include "dmk-lab-view.h"
#include "dmk-size.h"
#include "dmk-text.h"

#define FORM_WIDTH 320 /* the Lab tab's form, in pixels */
#define GIB        (1024.0 * 1024.0 * 1024.0)
/* The live chart keeps at most this many points: pairs are merged beyond,
 * so a 12 hour run draws as fast as a minute's. */
#define LIVE_POINTS_MAX 4000
#define LIVE_REDRAW_US  250000

void dmk_lab_overrides_init(DmkLabOverrides *o)
{
    memset(o, 0, sizeof *o);
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++)
        o->value[id] = -1;
}

/* ---- words and numbers ------------------------------------------------------ */

/* 1234567.8 -> "1,234,568", 9.996 -> "10.0": the report's figures. */
static char *thousands(double v)
{
    if (!isfinite(v))
        return g_strdup("\u2013");
    char buf[400];
    return g_strdup(dmk_format_figure(v, buf, sizeof buf));
}

/* 7200 -> "2 h", 1800 -> "30 min", 0.5 -> "0.5 s", 5400 -> "90 min". */
static char *time_text(double s)
{
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    if (s >= 3600 && fmod(s, 3600) == 0)
        return g_strdup_printf("%s h", g_ascii_formatd(num, sizeof num, "%.10g", s / 3600));
    if (s >= 60 && fmod(s, 60) == 0)
        return g_strdup_printf("%s min", g_ascii_formatd(num, sizeof num, "%.10g", s / 60));
    return g_strdup_printf("%s s", g_ascii_formatd(num, sizeof num, "%.3g", s));
}

/* A planned length for people: "45 s", "1 min 20 s", "16 min", "2 h 5 min". */
static char *length_text(double s)
{
    long m = lround(s / 60), secs = lround(s);
    if (secs < 60)
        return g_strdup_printf("%ld s", secs);
    if (secs < 600 && secs % 60)
        return g_strdup_printf("%ld min %ld s", secs / 60, secs % 60);
    if (m < 60)
        return g_strdup_printf("%ld min", m);
    return m % 60 ? g_strdup_printf("%ld h %ld min", m / 60, m % 60)
                  : g_strdup_printf("%ld h", m / 60);
}

static double unit_seconds(const char *unit)
{
    static const struct {
        const char *name;
        double s;
    } units[] = {
        {"", 1},         {"s", 1},     {"sec", 1},     {"secs", 1},     {"second", 1},
        {"seconds", 1},  {"m", 60},    {"min", 60},    {"mins", 60},    {"minute", 60},
        {"minutes", 60}, {"h", 3600},  {"hr", 3600},   {"hrs", 3600},   {"hour", 3600},
        {"hours", 3600}, {"d", 86400}, {"day", 86400}, {"days", 86400},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
        if (g_ascii_strcasecmp(unit, units[i].name) == 0)
            return units[i].s;
    return -1;
}

/* "1:30:00" or "45:00": hours, minutes and seconds as a clock writes them. */
static gboolean parse_clock(const char *text, double *out)
{
    char **parts = g_strsplit(text, ":", -1);
    guint n = g_strv_length(parts);
    double total = 0;
    gboolean ok = n == 2 || n == 3;
    for (guint i = 0; ok && i < n; i++) {
        char *end = NULL;
        double v = g_ascii_strtod(parts[i], &end);
        ok = end != parts[i] && *end == '\0' && v >= 0 && (i == 0 || v < 60);
        total = total * 60 + v;
    }
    g_strfreev(parts);
    *out = total;
    return ok;
}

/* What people type for a length of time: "90", "90 s", "1.5 min", "2h",
 * "2 hours", "1:30:00"; a decimal comma is a decimal point. */
static gboolean parse_time(const char *text, double *out)
{
    char *t = g_strstrip(g_strdelimit(g_strdup(text), ",", '.'));
    gboolean ok;
    if (strchr(t, ':')) {
        ok = parse_clock(t, out);
    } else {
        char *end = NULL;
        double v = g_ascii_strtod(t, &end);
        double unit = end != t ? unit_seconds(g_strstrip(end)) : -1;
        ok = unit > 0 && isfinite(v) && v >= 0;
        *out = v * unit;
    }
    g_free(t);
    return ok;
}

/* ---- the Lab tab: its form --------------------------------------------------- */

/* The form's rows come from the lab tests' table (core/dmk-lab.h):
 * each test's fields, in its words, over the settings' ranges. What is
 * the window's own is how a setting is picked: times from a list that
 * takes any other typed in, sizes and counts from these. */
static const guint64 span_gib[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
static const guint64 amount_gib[] = {0, 8, 16, 32, 64, 128, 256, 512, 1024};
static const guint64 qds[] = {1, 2, 4, 8, 16, 32};

enum { SIGNAL_RUN, SIGNAL_KIND_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

struct _DmkLabPage {
    GtkBox parent_instance;
    /* the form */
    GtkWidget *kind_dd;
    GtkWidget *form_stack;                                  /* a grid of fields per test */
    GtkWidget *fields[DMK_LAB_MAX_TESTS][DMK_LAB_N_PARAMS]; /* by test index, setting */
    GtkSizeGroup *label_group;
    GtkWidget *summary, *duration, *note;
    GtkWidget *button;
    gboolean running;
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

G_DEFINE_FINAL_TYPE(DmkLabPage, dmk_lab_page, GTK_TYPE_BOX)

static void update_summary(DmkLabPage *self);

/* ---- field widgets ------------------------------------------------------------ */

/* Values of a drop-down of numbers, by position. */
#define VALUES_KEY "dmk-values"

typedef enum {
    NUM_SIZE,   /* "32 GiB" */
    NUM_AMOUNT, /* a size, or 0: "Free space − 2 GiB" */
    NUM_COUNT,  /* "8" */
} NumberKind;

static GArray *dd_values(GtkWidget *dd)
{
    return g_object_get_data(G_OBJECT(dd), VALUES_KEY);
}

static char *number_label(guint64 v, NumberKind kind)
{
    char buf[32];
    if (kind == NUM_COUNT)
        return g_strdup_printf("%" G_GUINT64_FORMAT, v);
    if (kind == NUM_AMOUNT && v == 0)
        return g_strdup("Free space \u2212 2 GiB");
    return g_strdup(dmk_format_size(v, buf, sizeof buf));
}

/* Fills a drop-down with sizes (or counts) and selects `selected`,
 * which joins the list in order when it is not one of them. */
static void fill_numbers(GtkWidget *dd, const guint64 *v, size_t n, guint64 selected,
                         NumberKind kind)
{
    GArray *values = g_array_new(FALSE, FALSE, sizeof(guint64));
    g_array_append_vals(values, v, (guint)n);
    guint pos = 0;
    while (pos < values->len && g_array_index(values, guint64, pos) < selected)
        pos++;
    if (pos == values->len || g_array_index(values, guint64, pos) != selected)
        g_array_insert_val(values, pos, selected);
    GtkStringList *labels = gtk_string_list_new(NULL);
    for (guint i = 0; i < values->len; i++) {
        guint64 x = g_array_index(values, guint64, i);
        char *label = number_label(x, kind);
        gtk_string_list_append(labels, label);
        g_free(label);
    }
    g_object_set_data_full(G_OBJECT(dd), VALUES_KEY, values, (GDestroyNotify)g_array_unref);
    gtk_drop_down_set_model(GTK_DROP_DOWN(dd), G_LIST_MODEL(labels));
    g_object_unref(labels);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(dd), pos);
}

static guint64 dd_value(GtkWidget *dd)
{
    GArray *values = dd_values(dd);
    guint i = gtk_drop_down_get_selected(GTK_DROP_DOWN(dd));
    return values && i < values->len ? g_array_index(values, guint64, i) : 0;
}

static void on_field_changed(GObject *w, GParamSpec *pspec, DmkLabPage *self)
{
    (void)w;
    (void)pspec;
    update_summary(self);
}

static void on_time_changed(GtkComboBox *combo, DmkLabPage *self)
{
    double v;
    GtkWidget *entry = gtk_combo_box_get_child(combo);
    if (parse_time(gtk_editable_get_text(GTK_EDITABLE(entry)), &v))
        gtk_widget_remove_css_class(entry, "error");
    else
        gtk_widget_add_css_class(entry, "error");
    update_summary(self);
}

static GtkWidget *number_dropdown(DmkLabPage *self, const guint64 *v, size_t n, guint64 selected,
                                  NumberKind kind)
{
    GtkWidget *dd = gtk_drop_down_new(NULL, NULL);
    dmk_drop_down_show_strings(GTK_DROP_DOWN(dd));
    fill_numbers(dd, v, n, selected, kind);
    g_signal_connect(dd, "notify::selected", G_CALLBACK(on_field_changed), self);
    return dd;
}

static GtkWidget *job_dropdown(DmkLabPage *self, const char *const *names, const DmkJob *job)
{
    char name[48];
    dmk_job_format_name(job, name, sizeof name);
    GtkWidget *dd = gtk_drop_down_new_from_strings(names);
    for (guint i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            gtk_drop_down_set_selected(GTK_DROP_DOWN(dd), i);
    g_signal_connect(dd, "notify::selected", G_CALLBACK(on_field_changed), self);
    return dd;
}

static void set_time(GtkWidget *combo, double seconds)
{
    char *text = time_text(seconds);
    gtk_editable_set_text(GTK_EDITABLE(gtk_combo_box_get_child(GTK_COMBO_BOX(combo))), text);
    g_free(text);
}

/* A list of the usual lengths that takes any other typed in. */
static GtkWidget *time_combo(DmkLabPage *self, const DmkLabField *f, double value)
{
    GtkWidget *combo = gtk_combo_box_text_new_with_entry();
    for (size_t i = 0; i < f->n_presets; i++) {
        char *text = time_text(f->presets[i]);
        gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(combo), text);
        g_free(text);
    }
    GtkWidget *entry = gtk_combo_box_get_child(GTK_COMBO_BOX(combo));
    gtk_editable_set_width_chars(GTK_EDITABLE(entry), 8);
    set_time(combo, value);
    g_signal_connect(combo, "changed", G_CALLBACK(on_time_changed), self);
    return combo;
}

/* The span and amount tables read in GiB, as people pick sizes; the
 * drop-down keeps bytes, what DmkLabParams takes. */
static GtkWidget *gib_dropdown(DmkLabPage *self, const guint64 *gib, size_t n, guint64 selected,
                               NumberKind kind)
{
    guint64 v[MAX(G_N_ELEMENTS(span_gib), G_N_ELEMENTS(amount_gib))];
    g_assert(n <= G_N_ELEMENTS(v));
    for (size_t i = 0; i < n; i++)
        v[i] = gib[i] << 30;
    return number_dropdown(self, v, n, selected, kind);
}

/* A span of 0 in this field means the free space, less the margin. */
static NumberKind span_kind(const DmkLabField *f)
{
    return f->flags & DMK_LAB_FIELD_FREE_SPACE ? NUM_AMOUNT : NUM_SIZE;
}

/* The field's widget, showing p's value. */
static GtkWidget *field_widget(DmkLabPage *self, const DmkLabField *f, DmkLabParams *p)
{
    double *secs = dmk_lab_seconds_of(p, f->id);
    if (secs)
        return time_combo(self, f, *secs);
    switch (f->id) {
    case DMK_LAB_P_JOB:
        return job_dropdown(self, f->jobs, &p->job);
    case DMK_LAB_P_SPAN:
        if (span_kind(f) == NUM_AMOUNT)
            return gib_dropdown(self, amount_gib, G_N_ELEMENTS(amount_gib), p->span, NUM_AMOUNT);
        return gib_dropdown(self, span_gib, G_N_ELEMENTS(span_gib), p->span, NUM_SIZE);
    default:
        return number_dropdown(self, qds, G_N_ELEMENTS(qds), p->mixed_qd, NUM_COUNT);
    }
}

static GtkWidget *form_label(DmkLabPage *self, const char *text, GtkWidget *widget)
{
    GtkWidget *l = gtk_label_new_with_mnemonic(text);
    gtk_label_set_xalign(GTK_LABEL(l), 1);
    gtk_label_set_mnemonic_widget(GTK_LABEL(l), widget);
    gtk_widget_add_css_class(l, "form-label");
    gtk_size_group_add_widget(self->label_group, l);
    return l;
}

static GtkWidget *form_grid(void)
{
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 8);
    return grid;
}

static GtkWidget *build_kind_form(DmkLabPage *self, size_t ti)
{
    const DmkLabTest *t = dmk_lab_test_at(ti);
    DmkLabParams p;
    dmk_lab_params_init(&p, t->kind);
    GtkWidget *grid = form_grid();
    for (size_t i = 0; i < t->n_fields; i++) {
        const DmkLabField *f = &t->fields[i];
        GtkWidget *w = field_widget(self, f, &p);
        gtk_widget_set_hexpand(w, TRUE);
        gtk_widget_set_tooltip_text(w, f->tip);
        self->fields[ti][f->id] = w;
        gtk_grid_attach(GTK_GRID(grid), form_label(self, f->label, w), 0, (int)i, 1, 1);
        gtk_grid_attach(GTK_GRID(grid), w, 1, (int)i, 1, 1);
    }
    return grid;
}

/* ---- reading the form ---------------------------------------------------------- */

/* The test chosen: its index in the table. */
static size_t chosen(DmkLabPage *self)
{
    return gtk_drop_down_get_selected(GTK_DROP_DOWN(self->kind_dd));
}

/* The field's name for messages: "Sample every", without its mnemonic. */
static char *field_name(size_t ti, DmkLabParamId id)
{
    const DmkLabTest *t = dmk_lab_test_at(ti);
    for (size_t i = 0; i < t->n_fields; i++) {
        if (t->fields[i].id != id)
            continue;
        char **parts = g_strsplit(t->fields[i].label, "_", -1);
        char *name = g_strjoinv("", parts);
        g_strfreev(parts);
        return name;
    }
    return g_strdup("?");
}

/* A time field into p, within the setting's range (dmk-lab.h's table). */
static int read_time(DmkLabPage *self, size_t ti, DmkLabParamId id, DmkLabParams *p, DmkError *err)
{
    GtkWidget *combo = self->fields[ti][id];
    if (!combo)
        return DMK_OK; /* not a setting of this test: the default stays */
    const DmkLabParam *lp = dmk_lab_param(id);
    const char *text =
        gtk_editable_get_text(GTK_EDITABLE(gtk_combo_box_get_child(GTK_COMBO_BOX(combo))));
    double v;
    char *name = field_name(ti, id);
    int rc = DMK_OK;
    if (!parse_time(text, &v))
        rc = dmk_error_set(err, DMK_E_INVAL, 0,
                           "%s: '%s' is not a length of time (type e.g. 90 s, 45 min, 3 h or "
                           "1:30:00)",
                           name, text);
    else if (v < lp->min || v > lp->max)
        rc = dmk_error_set(err, DMK_E_INVAL, 0, "%s: %s is out of range (%g to %g s)", name, text,
                           lp->min, lp->max);
    else
        *dmk_lab_seconds_of(p, id) = v;
    g_free(name);
    return rc;
}

static void read_choices(DmkLabPage *self, size_t ti, DmkLabParams *p)
{
    GtkWidget **f = self->fields[ti];
    if (f[DMK_LAB_P_JOB]) {
        GtkStringObject *s = gtk_drop_down_get_selected_item(GTK_DROP_DOWN(f[DMK_LAB_P_JOB]));
        if (s)
            dmk_job_parse_name(gtk_string_object_get_string(s), &p->job, NULL);
    }
    if (f[DMK_LAB_P_SPAN])
        p->span = dd_value(f[DMK_LAB_P_SPAN]);
    if (f[DMK_LAB_P_QD])
        p->mixed_qd = (uint32_t)dd_value(f[DMK_LAB_P_QD]);
}

int dmk_lab_page_get_params(DmkLabPage *self, DmkLabParams *out, DmkError *err)
{
    size_t ti = chosen(self);
    dmk_lab_params_init(out, dmk_lab_test_at(ti)->kind);
    read_choices(self, ti, out);
    int rc = DMK_OK;
    for (int id = 0; rc == DMK_OK && id < DMK_LAB_N_PARAMS; id++)
        if (dmk_lab_seconds_of(out, (DmkLabParamId)id))
            rc = read_time(self, ti, (DmkLabParamId)id, out, err);
    return rc;
}

DmkLabKind dmk_lab_page_get_kind(DmkLabPage *self)
{
    return dmk_lab_test_at(chosen(self))->kind;
}

void dmk_lab_page_set_kind(DmkLabPage *self, DmkLabKind kind)
{
    for (size_t i = 0; i < dmk_lab_test_count(); i++)
        if (dmk_lab_test_at(i)->kind == kind)
            gtk_drop_down_set_selected(GTK_DROP_DOWN(self->kind_dd), (guint)i);
}

static void override_time(DmkLabPage *self, DmkLabParamId id, double v)
{
    for (size_t ti = 0; v >= 0 && ti < dmk_lab_test_count(); ti++)
        if (self->fields[ti][id])
            set_time(self->fields[ti][id], v);
}

static void override_size(DmkLabPage *self, DmkLabParamId id, double v)
{
    for (size_t ti = 0; v > 0 && ti < dmk_lab_test_count(); ti++) {
        const DmkLabTest *t = dmk_lab_test_at(ti);
        GtkWidget *dd = self->fields[ti][id];
        for (size_t i = 0; dd && i < t->n_fields; i++) {
            if (t->fields[i].id != id)
                continue;
            GArray *old = g_array_ref(dd_values(dd));
            fill_numbers(dd, (const guint64 *)(void *)old->data, old->len, (guint64)v,
                         span_kind(&t->fields[i]));
            g_array_unref(old);
        }
    }
}

void dmk_lab_page_apply_overrides(DmkLabPage *self, const DmkLabOverrides *o)
{
    dmk_lab_page_set_kind(self, o->kind);
    DmkLabParams p;
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        if (dmk_lab_seconds_of(&p, (DmkLabParamId)id))
            override_time(self, (DmkLabParamId)id, o->value[id]);
        else if (dmk_lab_size_of(&p, (DmkLabParamId)id))
            override_size(self, (DmkLabParamId)id, o->value[id]);
    }
}

/* ---- what the form means --------------------------------------------------- */

static void update_summary(DmkLabPage *self)
{
    DmkLabParams p;
    DmkError err = {0};
    if (!self->summary)
        return; /* still building */
    if (dmk_lab_page_get_params(self, &p, &err) != DMK_OK) {
        gtk_label_set_text(GTK_LABEL(self->summary), err.msg);
        gtk_label_set_text(GTK_LABEL(self->duration), "");
        return;
    }
    char text[1024];
    dmk_lab_describe(&p, text, sizeof text);
    gtk_label_set_text(GTK_LABEL(self->summary), text);
    /* The runner's own plan: the fill excluded, none for a write that
     * ends by bytes. */
    double s = dmk_lab_planned_s(&p);
    char *length = s >= 0 ? length_text(s) : NULL;
    gboolean fill = dmk_lab_test(p.kind)->fills;
    char *when = length ? g_strdup_printf("Takes about %s%s.", length,
                                          fill ? ", after the test file is written" : "")
                        : g_strdup("Takes as long as the drive needs to write it.");
    gtk_label_set_text(GTK_LABEL(self->duration), when);
    g_free(when);
    g_free(length);
}

void dmk_lab_page_set_note(DmkLabPage *self, const char *note)
{
    gtk_label_set_text(GTK_LABEL(self->note), note);
}

/* ---- running ------------------------------------------------------------------ */

void dmk_lab_page_set_running(DmkLabPage *self, gboolean running, gboolean mine)
{
    self->running = running && mine;
    dmk_start_button_set(self->button, running, mine,
                         "Stop the test; what it measured is kept (Esc)",
                         "Run the test chosen above");
    gtk_widget_set_sensitive(self->kind_dd, !running);
    gtk_widget_set_sensitive(self->form_stack, !running);
}

/* Stage and step for the progress line: "Latency under load, RND4K
 * Q128T1 read 40 % (step 5 of 48)". */
static char *progress_head(DmkLabPage *self, const DmkProgress *p)
{
    const char *title = dmk_lab_title(self->live_kind);
    if (p->n_tests <= 1 || !p->test)
        return g_strdup(title);
    const DmkTest *t = p->test;
    gboolean mixed = t->mode == DMK_MODE_MIX;
    return g_strdup_printf("%s, %s%s%s %s (step %zu of %zu)", title, t->name, mixed ? "" : " ",
                           mixed ? "" : dmk_mode_name(t->mode), t->label, p->test_index + 1,
                           p->n_tests);
}

/* ", 1,234 MB/s (301,000 IOPS), 45 °C" while measuring. */
static void append_speed(GString *s, const DmkProgress *p)
{
    if (p->stage != DMK_STAGE_MEASURE && p->stage != DMK_STAGE_WARMUP)
        return;
    char *mb = thousands(p->mb_s);
    g_string_append_printf(s, ", %s MB/s", mb);
    g_free(mb);
    const DmkJob *j = p->test && p->test->n_jobs == 1 ? &p->test->jobs[0] : NULL;
    if (j && j->pattern == DMK_PATTERN_RND && j->block_size) {
        char *iops = thousands(p->mb_s * 1e6 / j->block_size);
        g_string_append_printf(s, " (%s IOPS)", iops);
        g_free(iops);
    }
}

/* "Sustained write: 12:34 elapsed, about 1:47:26 left, 1,234 MB/s, 45 °C". */
static char *progress_line(DmkLabPage *self, const DmkProgress *p)
{
    if (p->stage == DMK_STAGE_CLEANUP)
        return g_strdup("Removing the test file\u2026");
    if (p->stage == DMK_STAGE_PREPARE || !p->test)
        return g_strdup_printf("Preparing the test file: %d %%", (int)(p->fraction * 100 + 0.5));
    char *head = progress_head(self, p);
    char *elapsed = dmk_text_clock(p->elapsed_s), *left = dmk_text_clock(p->remaining_s);
    GString *s = g_string_new(head);
    /* Idle before the first step is the settle time after the fill. */
    const char *idle = p->stage != DMK_STAGE_INTERVAL ? ""
                       : p->test_index == 0           ? "settling, "
                                                      : "idle, ";
    g_string_append_printf(s, ": %s%s elapsed", idle, elapsed);
    if (isfinite(p->remaining_s) && p->remaining_s >= 0)
        g_string_append_printf(s, ", about %s left", left);
    append_speed(s, p);
    if (isfinite(p->temp_c))
        g_string_append_printf(s, ", %.0f \u00b0C", p->temp_c);
    g_free(head);
    g_free(elapsed);
    g_free(left);
    return g_string_free(s, FALSE);
}

/* Halves the points, each pair merged into its mean. */
static void thin_live(GArray *a)
{
    guint n = a->len / 2;
    for (guint i = 0; i < n; i++) {
        DmkChartPoint *p = &g_array_index(a, DmkChartPoint, 2 * i);
        DmkChartPoint q = {(p[0].x + p[1].x) / 2, (p[0].y + p[1].y) / 2};
        g_array_index(a, DmkChartPoint, i) = q;
    }
    if (a->len % 2)
        g_array_index(a, DmkChartPoint, n++) = g_array_index(a, DmkChartPoint, a->len - 1);
    g_array_set_size(a, n);
}

/* Redraws at most 4 times a second: the run shares the CPU with us. */
static void refresh_live(DmkLabPage *self, gboolean now)
{
    self->live_series.points = (const DmkChartPoint *)(void *)self->live->data;
    self->live_series.n = self->live->len;
    gint64 t = g_get_monotonic_time();
    if (!now && t - self->live_drawn_us < LIVE_REDRAW_US)
        return;
    self->live_drawn_us = t;
    gtk_widget_queue_draw(self->live_area);
}

/* Speed against data written (sustained, full span, recovery) or against
 * time (mixed, latency), from the progress reports: an approximation
 * until the exact charts from the samples replace it. */
static void add_live_point(DmkLabPage *self, const DmkProgress *p)
{
    if ((p->stage != DMK_STAGE_MEASURE && p->stage != DMK_STAGE_WARMUP) || !p->test ||
        !isfinite(p->mb_s) || p->mb_s < 0)
        return;
    if (p->test_index != self->live_test) {
        self->live_base += self->live_last;
        self->live_last = 0;
        self->live_test = p->test_index;
    }
    self->live_last = (double)p->test_bytes;
    DmkChartPoint pt;
    pt.x = self->live_by_bytes ? (self->live_base + self->live_last) / GIB : p->elapsed_s;
    pt.y = self->live_iops && self->live_bs ? p->mb_s * 1e6 / self->live_bs : p->mb_s;
    g_array_append_val(self->live, pt);
    if (self->live->len > LIVE_POINTS_MAX)
        thin_live(self->live);
    if (self->live->len == 1)
        gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "live");
    refresh_live(self, self->live->len == 1);
}

void dmk_lab_page_progress(DmkLabPage *self, const DmkProgress *p)
{
    char *text = progress_line(self, p);
    double total = p->elapsed_s + p->remaining_s;
    double fraction = p->stage == DMK_STAGE_PREPARE  ? p->fraction
                      : total > 0 && isfinite(total) ? p->elapsed_s / total
                                                     : 0;
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), CLAMP(fraction, 0, 1));
    gtk_label_set_text(GTK_LABEL(self->progress_label), text);
    g_free(text);
    add_live_point(self, p);
}

static void set_empty(DmkLabPage *self, const char *title, const char *text)
{
    gtk_label_set_text(GTK_LABEL(self->empty_title), title);
    gtk_label_set_text(GTK_LABEL(self->empty_text), text);
}

/* The live chart's titles, from what the spec runs. */
static void live_titles(DmkLabPage *self, const DmkRunSpec *spec)
{
    DmkChartModel *m = &self->live_model;
    dmk_chart_model_init(m);
    const DmkTest *t = spec->n_tests ? &spec->tests[0] : NULL;
    self->live_bs = t && t->n_jobs ? t->jobs[0].block_size : 0;
    self->live_iops =
        self->live_by_bytes && t && t->n_jobs && t->jobs[0].pattern == DMK_PATTERN_RND;
    const char *metric = self->live_iops ? "iops" : "mb_s";
    if (self->live_by_bytes)
        g_snprintf(m->title, sizeof m->title, "%s: %s %s vs data written (live)",
                   dmk_lab_title(self->live_kind), t ? t->name : "",
                   self->live_iops ? "IOPS" : "MB/s");
    else
        g_snprintf(m->title, sizeof m->title, "%s: throughput over time (live)",
                   dmk_lab_title(self->live_kind));
    g_strlcpy(m->subtitle,
              "Approximate, from the progress reports; the exact charts follow at the end",
              sizeof m->subtitle);
    g_strlcpy(m->x_title, self->live_by_bytes ? "Data written (GiB)" : "Time (s)",
              sizeof m->x_title);
    g_strlcpy(m->y_title, dmk_chart_metric_title(metric), sizeof m->y_title);
    g_snprintf(self->live_series.name, sizeof self->live_series.name, "%s",
               self->live_by_bytes && t ? t->name : "All steps");
    m->n_series = 1;
    m->series = &self->live_series;
}

/* The last run's view goes: its result lives on in its own tab. */
static void drop_view(DmkLabPage *self)
{
    if (self->view)
        gtk_box_remove(GTK_BOX(self->result_box), GTK_WIDGET(self->view));
    self->view = NULL;
}

void dmk_lab_page_begin(DmkLabPage *self, const DmkRunSpec *spec)
{
    drop_view(self);
    self->live_kind = dmk_lab_from_name(spec->lab);
    const DmkLabTest *t = dmk_lab_test(self->live_kind);
    self->live_by_bytes = t && t->by_bytes;
    self->live_test = 0;
    self->live_base = self->live_last = 0;
    g_array_set_size(self->live, 0);
    live_titles(self, spec);
    refresh_live(self, TRUE);
    /* Until the first measurement: the fill and settling have no chart. */
    set_empty(self, "Getting ready\u2026",
              spec->no_fill ? "The chart starts with the first measurement."
                            : "The test file is written in full first, and the drive may rest a "
                              "while; the chart starts with the first measurement.");
    gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "empty");
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), 0);
    gtk_label_set_text(GTK_LABEL(self->progress_label), "Starting\u2026");
    gtk_widget_set_visible(self->progress_box, TRUE);
}

static void show_result(DmkLabPage *self, DmkSaved *saved)
{
    drop_view(self);
    self->view = DMK_LAB_VIEW(dmk_lab_view_new(saved, FALSE));
    gtk_box_append(GTK_BOX(self->result_box), GTK_WIDGET(self->view));
    gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "result");
}

void dmk_lab_page_end(DmkLabPage *self, DmkSaved *saved, const char *status)
{
    gtk_label_set_text(GTK_LABEL(self->progress_label), status);
    refresh_live(self, TRUE);
    if (g_str_has_prefix(status, "Done"))
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress), 1.0);
    if (saved) {
        show_result(self, saved);
    } else if (self->live->len == 0) {
        set_empty(self, "Nothing was measured", status);
        gtk_stack_set_visible_child_name(GTK_STACK(self->stack), "empty");
    }
}

DmkLabView *dmk_lab_page_get_view(DmkLabPage *self)
{
    return self->view;
}

/* ---- for tests ---------------------------------------------------------------- */

static char *field_text(GtkWidget *w)
{
    if (GTK_IS_COMBO_BOX(w))
        return g_strdup(
            gtk_editable_get_text(GTK_EDITABLE(gtk_combo_box_get_child(GTK_COMBO_BOX(w)))));
    GtkStringObject *s = gtk_drop_down_get_selected_item(GTK_DROP_DOWN(w));
    return g_strdup(s ? gtk_string_object_get_string(s) : "");
}

void dmk_lab_page_dump(DmkLabPage *self, GString *out)
{
    size_t ti = chosen(self);
    const DmkLabTest *t = dmk_lab_test_at(ti);
    g_string_append_printf(out, "lab-test\t%s\n", t->name);
    for (size_t i = 0; i < t->n_fields; i++) {
        DmkLabParamId id = t->fields[i].id;
        char *name = field_name(ti, id), *value = field_text(self->fields[ti][id]);
        g_string_append_printf(out, "lab-field\t%s\t%s\n", name, value);
        g_free(name);
        g_free(value);
    }
    g_string_append_printf(out, "lab-summary\t%s\t%s\n",
                           gtk_label_get_text(GTK_LABEL(self->summary)),
                           gtk_label_get_text(GTK_LABEL(self->duration)));
    g_string_append_printf(out, "lab-state\t%s\n",
                           gtk_stack_get_visible_child_name(GTK_STACK(self->stack)));
    if (gtk_widget_get_visible(self->progress_box))
        g_string_append_printf(out, "lab-progress\t%s\n",
                               gtk_label_get_text(GTK_LABEL(self->progress_label)));
    g_string_append_printf(out, "lab-live-points\t%u\n", self->live->len);
    if (self->view)
        dmk_lab_view_dump(self->view, "lab", 0, out);
}

/* ---- building ------------------------------------------------------------------ */

static void on_kind(GtkDropDown *dd, GParamSpec *pspec, DmkLabPage *self)
{
    (void)pspec;
    const DmkLabTest *t = dmk_lab_test_at(gtk_drop_down_get_selected(dd));
    gtk_stack_set_visible_child_name(GTK_STACK(self->form_stack), t->name);
    if (!self->view && self->live->len == 0 && !self->running)
        set_empty(self, t->title, t->blurb);
    update_summary(self);
    g_signal_emit(self, signals[SIGNAL_KIND_CHANGED], 0);
}

static void on_button(GtkButton *b, DmkLabPage *self)
{
    (void)b;
    g_signal_emit(self, signals[SIGNAL_RUN], 0);
}

static GtkWidget *info_label(const char *css_class)
{
    GtkWidget *l = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
    /* Narrow natural width: the form's width decides where it wraps. */
    gtk_label_set_max_width_chars(GTK_LABEL(l), 10);
    gtk_widget_add_css_class(l, css_class);
    return l;
}

static GtkWidget *build_kind_chooser(DmkLabPage *self)
{
    const char *titles[DMK_LAB_MAX_TESTS + 1] = {NULL};
    for (size_t i = 0; i < dmk_lab_test_count(); i++)
        titles[i] = dmk_lab_test_at(i)->title;
    self->kind_dd = gtk_drop_down_new_from_strings(titles);
    gtk_widget_set_hexpand(self->kind_dd, TRUE);
    gtk_widget_set_tooltip_text(self->kind_dd, "Which review-lab test to run");
    GtkWidget *grid = form_grid();
    gtk_grid_attach(GTK_GRID(grid), form_label(self, "_Test", self->kind_dd), 0, 0, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), self->kind_dd, 1, 0, 1, 1);
    return grid;
}

/* Start, which turns into Stop while the test runs (set_running). */
static GtkWidget *build_start(DmkLabPage *self)
{
    self->button = gtk_button_new_with_label("Start");
    gtk_widget_add_css_class(self->button, "run-button");
    gtk_widget_set_margin_top(self->button, 4);
    g_signal_connect(self->button, "clicked", G_CALLBACK(on_button), self);
    return self->button;
}

/* A fixed width however long the words: the chart gets the rest; a
 * short window scrolls the form rather than cut it. Its natural height
 * is not passed up: the notebook asks every page for its natural size,
 * and a tall form made the Benchmark tab's window twice as high as its
 * tiles (the Lab tab makes the window roomy when it is opened). */
static GtkWidget *form_scroller(GtkWidget *form)
{
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), FALSE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), form);
    gtk_widget_set_hexpand(scroll, FALSE); /* the fields expand within it, not it */
    return scroll;
}

/* The test and its settings, what they mean and how long it takes, and
 * Start: a form down the left, as a lab tool's side panel. */
static GtkWidget *build_form(DmkLabPage *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10);
    gtk_widget_add_css_class(box, "lab-form");
    gtk_widget_set_size_request(box, FORM_WIDTH, -1);
    gtk_box_append(GTK_BOX(box), build_kind_chooser(self));
    self->form_stack = gtk_stack_new();
    gtk_stack_set_vhomogeneous(GTK_STACK(self->form_stack), FALSE);
    for (size_t i = 0; i < dmk_lab_test_count(); i++)
        gtk_stack_add_named(GTK_STACK(self->form_stack), build_kind_form(self, i),
                            dmk_lab_test_at(i)->name);
    gtk_box_append(GTK_BOX(box), self->form_stack);
    gtk_box_append(GTK_BOX(box), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL));
    self->summary = info_label("lab-summary");
    self->duration = info_label("lab-duration");
    self->note = info_label("result-context");
    gtk_box_append(GTK_BOX(box), self->summary);
    gtk_box_append(GTK_BOX(box), self->duration);
    gtk_box_append(GTK_BOX(box), self->note);
    gtk_box_append(GTK_BOX(box), build_start(self));
    return form_scroller(box);
}

static GtkWidget *build_empty(DmkLabPage *self)
{
    GtkWidget *box = dmk_empty_state_new(&self->empty_title, &self->empty_text);
    return box;
}

static GtkWidget *build_live(DmkLabPage *self)
{
    self->live_area = dmk_lab_chart_area_new(&self->live_model);
    GtkWidget *frame = gtk_frame_new(NULL);
    gtk_frame_set_child(GTK_FRAME(frame), self->live_area);
    gtk_widget_set_overflow(frame, GTK_OVERFLOW_HIDDEN);
    gtk_widget_add_css_class(frame, "chart");
    return frame;
}

/* The progress line over its bar: a long line reads better left-aligned
 * in the body font than squeezed into the bar. */
static GtkWidget *build_progress(DmkLabPage *self)
{
    self->progress_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    self->progress_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(self->progress_label), 0);
    gtk_label_set_ellipsize(GTK_LABEL(self->progress_label), PANGO_ELLIPSIZE_END);
    gtk_label_set_selectable(GTK_LABEL(self->progress_label), TRUE);
    gtk_widget_set_can_focus(self->progress_label, FALSE);
    gtk_widget_add_css_class(self->progress_label, "lab-progress");
    self->progress = gtk_progress_bar_new();
    gtk_box_append(GTK_BOX(self->progress_box), self->progress_label);
    gtk_box_append(GTK_BOX(self->progress_box), self->progress);
    gtk_widget_set_visible(self->progress_box, FALSE); /* until a test starts */
    return self->progress_box;
}

static GtkWidget *build_results(DmkLabPage *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_set_hexpand(box, TRUE);
    gtk_box_append(GTK_BOX(box), build_progress(self));
    self->result_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    self->stack = gtk_stack_new();
    gtk_stack_add_named(GTK_STACK(self->stack), build_empty(self), "empty");
    gtk_stack_add_named(GTK_STACK(self->stack), build_live(self), "live");
    gtk_stack_add_named(GTK_STACK(self->stack), self->result_box, "result");
    gtk_widget_set_vexpand(self->stack, TRUE);
    gtk_box_append(GTK_BOX(box), self->stack);
    return box;
}

static void dmk_lab_page_dispose(GObject *object)
{
    DmkLabPage *self = DMK_LAB_PAGE(object);
    g_clear_object(&self->label_group);
    G_OBJECT_CLASS(dmk_lab_page_parent_class)->dispose(object);
}

static void dmk_lab_page_finalize(GObject *object)
{
    DmkLabPage *self = DMK_LAB_PAGE(object);
    g_array_unref(self->live);
    G_OBJECT_CLASS(dmk_lab_page_parent_class)->finalize(object);
}

static void dmk_lab_page_class_init(DmkLabPageClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = dmk_lab_page_dispose;
    G_OBJECT_CLASS(klass)->finalize = dmk_lab_page_finalize;
    signals[SIGNAL_RUN] = g_signal_new("run", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                       NULL, NULL, G_TYPE_NONE, 0);
    signals[SIGNAL_KIND_CHANGED] =
        g_signal_new("kind-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                     NULL, G_TYPE_NONE, 0);
}

static void dmk_lab_page_init(DmkLabPage *self)
{
    self->live = g_array_new(FALSE, TRUE, sizeof(DmkChartPoint));
    self->label_group = gtk_size_group_new(GTK_SIZE_GROUP_HORIZONTAL);
    dmk_chart_model_init(&self->live_model);
    gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_HORIZONTAL);
    gtk_box_set_spacing(GTK_BOX(self), 14);
    gtk_widget_add_css_class(GTK_WIDGET(self), "lab-page");
    gtk_box_append(GTK_BOX(self), build_form(self));
    gtk_box_append(GTK_BOX(self), build_results(self));
    g_signal_connect(self->kind_dd, "notify::selected", G_CALLBACK(on_kind), self);
    on_kind(GTK_DROP_DOWN(self->kind_dd), NULL, self);
}

GtkWidget *dmk_lab_page_new(void)
{
    return g_object_new(DMK_TYPE_LAB_PAGE, NULL);
}
