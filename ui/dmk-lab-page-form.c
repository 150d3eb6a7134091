/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Lab tab's form: each test's settings fields, built from the lab
 * tests' table (core/dmk-lab.h), read back into DmkLabParams, set from the
 * command line, and what they mean (dmk-lab-page-private.h lists the
 * tab's parts). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "dmk-lab-page-private.h"
#include "dmk-size.h"
#include "dmk-text.h"
#include "dmk-widgets.h"

void dmk_lab_overrides_init(DmkLabOverrides *o)
{
    memset(o, 0, sizeof *o);
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++)
        o->value[id] = -1;
}

/* ---- words and numbers ------------------------------------------------------ */

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

/* ---- field widgets ------------------------------------------------------------ */

/* The form's rows come from the lab tests' table (core/dmk-lab.h):
 * each test's fields, in its words, over the settings' ranges. What is
 * the window's own is how a setting is picked: times from a list that
 * takes any other typed in, sizes and counts from these. */
static const guint64 span_gib[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
static const guint64 amount_gib[] = {0, 8, 16, 32, 64, 128, 256, 512, 1024};
static const guint64 qds[] = {1, 2, 4, 8, 16, 32};
/* The surface scan's: GNOME Disks' defaults (100 of 10 MiB, 1,000) among them. */
static const guint64 sample_counts[] = {10, 20, 50, 100, 200};
static const guint64 sample_sizes[] = {1 << 20, 4 << 20, 10 << 20, 16 << 20, 32 << 20, 64 << 20};
static const guint64 access_counts[] = {100, 500, 1000, 5000, 10000};

/* Values of a drop-down of numbers, by position. */
#define VALUES_KEY "dmk-values"

typedef enum {
    NUM_SIZE,   /* "32 GiB" */
    NUM_AMOUNT, /* a size, or 0: "Free space − 2 GiB", the test's margin */
    NUM_COUNT,  /* "8" */
} NumberKind;

static GArray *dd_values(GtkWidget *dd)
{
    return g_object_get_data(G_OBJECT(dd), VALUES_KEY);
}

/* margin: what a full-span write leaves free (NUM_AMOUNT only), the
 * test's default from dmk-lab.h's table: the window has no margin field. */
static char *number_label(guint64 v, NumberKind kind, guint64 margin, gboolean device)
{
    char buf[32];
    if (kind == NUM_COUNT)
        return g_strdup_printf("%" G_GUINT64_FORMAT, v);
    if (kind == NUM_AMOUNT && v == 0 && device) /* a device has no free space: all of it */
        return g_strdup(_("The whole device"));
    if (kind == NUM_AMOUNT && v == 0)
        /* TRANSLATORS: a size to write: the free space less a margin ("2 GiB"). */
        return g_strdup_printf(_("Free space \u2212 %s"), dmk_format_size(margin, buf, sizeof buf));
    return g_strdup(dmk_format_size(v, buf, sizeof buf));
}

/* Fills a drop-down with sizes (or counts) and selects `selected`,
 * which joins the list in order when it is not one of them. */
static void fill_numbers(GtkWidget *dd, const guint64 *v, size_t n, guint64 selected,
                         NumberKind kind, guint64 margin, gboolean device)
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
        char *label = number_label(x, kind, margin, device);
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
    _dmk_lab_page_update_summary(self);
}

static void on_time_changed(GtkComboBox *combo, DmkLabPage *self)
{
    double v;
    GtkWidget *entry = gtk_combo_box_get_child(combo);
    if (parse_time(gtk_editable_get_text(GTK_EDITABLE(entry)), &v))
        gtk_widget_remove_css_class(entry, "error");
    else
        gtk_widget_add_css_class(entry, "error");
    _dmk_lab_page_update_summary(self);
}

static GtkWidget *number_dropdown(DmkLabPage *self, const guint64 *v, size_t n, guint64 selected,
                                  NumberKind kind, guint64 margin)
{
    GtkWidget *dd = gtk_drop_down_new(NULL, NULL);
    dmk_drop_down_show_strings(GTK_DROP_DOWN(dd));
    fill_numbers(dd, v, n, selected, kind, margin, self->device);
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
                               NumberKind kind, guint64 margin)
{
    guint64 v[MAX(G_N_ELEMENTS(span_gib), G_N_ELEMENTS(amount_gib))];
    g_assert(n <= G_N_ELEMENTS(v));
    for (size_t i = 0; i < n; i++)
        v[i] = gib[i] << 30;
    return number_dropdown(self, v, n, selected, kind, margin);
}

/* A span of 0 in this field means the free space, less the margin. */
static NumberKind span_kind(const DmkLabField *f)
{
    return f->flags & DMK_LAB_FIELD_FREE_SPACE ? NUM_AMOUNT : NUM_SIZE;
}

/* ---- a file's path (the trace test's trace) ---- */

#define ENTRY_KEY "dmk-entry"

static void on_path_response(GtkNativeDialog *d, int response, gpointer entry)
{
    GFile *file =
        response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file(GTK_FILE_CHOOSER(d)) : NULL;
    char *path = file ? g_file_get_path(file) : NULL;
    if (path)
        gtk_editable_set_text(GTK_EDITABLE(entry), path);
    g_free(path);
    g_clear_object(&file);
    g_object_unref(entry);
    g_object_unref(d);
}

static void on_choose_path(GtkButton *button, gpointer entry)
{
    GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(button));
    GtkFileChooserNative *d = gtk_file_chooser_native_new(
        _("Choose a Trace File"), GTK_IS_WINDOW(root) ? GTK_WINDOW(root) : NULL,
        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(d), TRUE);
    g_signal_connect(d, "response", G_CALLBACK(on_path_response), g_object_ref(entry));
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

/* An entry for the path, typed or chosen with the button beside it; the
 * box is the field, its entry kept on it (ENTRY_KEY). */
static GtkWidget *path_field(DmkLabPage *self, const char *path)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *entry = gtk_entry_new();
    GtkWidget *button = gtk_button_new_with_label(_("Choose\u2026"));
    gtk_editable_set_text(GTK_EDITABLE(entry), path);
    gtk_widget_set_hexpand(entry, TRUE);
    gtk_box_append(GTK_BOX(box), entry);
    gtk_box_append(GTK_BOX(box), button);
    g_object_set_data(G_OBJECT(box), ENTRY_KEY, entry);
    g_signal_connect(entry, "notify::text", G_CALLBACK(on_field_changed), self);
    g_signal_connect(button, "clicked", G_CALLBACK(on_choose_path), entry);
    return box;
}

static void read_path(GtkWidget *field, char *out, size_t len)
{
    GtkWidget *entry = g_object_get_data(G_OBJECT(field), ENTRY_KEY);
    g_strlcpy(out, entry ? gtk_editable_get_text(GTK_EDITABLE(entry)) : "", len);
}

/* The field's widget, showing p's value. */
static GtkWidget *field_widget(DmkLabPage *self, const DmkLabField *f, DmkLabParams *p)
{
    size_t room;
    char *path = dmk_lab_path_of(p, f->id, &room);
    if (path)
        return path_field(self, path);
    double *secs = dmk_lab_seconds_of(p, f->id);
    if (secs)
        return time_combo(self, f, *secs);
    switch (f->id) {
    case DMK_LAB_P_JOB:
        return job_dropdown(self, f->jobs, &p->job);
    case DMK_LAB_P_SPAN:
        if (f->presets) { /* the test's own sizes, in bytes */
            guint64 v[16];
            size_t n = MIN(f->n_presets, G_N_ELEMENTS(v));
            for (size_t i = 0; i < n; i++)
                v[i] = (guint64)f->presets[i];
            return number_dropdown(self, v, n, p->span, NUM_SIZE, 0);
        }
        if (span_kind(f) == NUM_AMOUNT)
            return gib_dropdown(self, amount_gib, G_N_ELEMENTS(amount_gib), p->span, NUM_AMOUNT,
                                p->margin);
        return gib_dropdown(self, span_gib, G_N_ELEMENTS(span_gib), p->span, NUM_SIZE, 0);
    case DMK_LAB_P_SAMPLES:
        return number_dropdown(self, sample_counts, G_N_ELEMENTS(sample_counts), p->samples,
                               NUM_COUNT, 0);
    case DMK_LAB_P_SAMPLE_SIZE:
        return number_dropdown(self, sample_sizes, G_N_ELEMENTS(sample_sizes), p->sample_size,
                               NUM_SIZE, 0);
    case DMK_LAB_P_ACCESSES:
        return number_dropdown(self, access_counts, G_N_ELEMENTS(access_counts), p->accesses,
                               NUM_COUNT, 0);
    default:
        return number_dropdown(self, qds, G_N_ELEMENTS(qds), p->mixed_qd, NUM_COUNT, 0);
    }
}

GtkWidget *_dmk_lab_page_form_label(DmkLabPage *self, const char *text, GtkWidget *widget)
{
    GtkWidget *l = gtk_label_new_with_mnemonic(text);
    gtk_label_set_xalign(GTK_LABEL(l), 1);
    gtk_label_set_mnemonic_widget(GTK_LABEL(l), widget);
    gtk_widget_add_css_class(l, "form-label");
    gtk_size_group_add_widget(self->label_group, l);
    return l;
}

GtkWidget *_dmk_lab_page_form_grid(void)
{
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 8);
    return grid;
}

/* The field's label for the target: a device's region, a directory's test file. */
static const char *field_label(const DmkLabPage *self, const DmkLabField *f)
{
    return _(self->device && f->device_label ? f->device_label : f->label);
}

/* The tip in the user's language (the table's are DMK_N_); NULL: none. */
static const char *field_tip(const DmkLabPage *self, const DmkLabField *f)
{
    const char *tip = self->device && f->device_tip ? f->device_tip : f->tip;
    return tip ? _(tip) : NULL;
}

static GtkWidget *build_kind_form(DmkLabPage *self, size_t ti)
{
    const DmkLabTest *t = dmk_lab_test_at(ti);
    DmkLabParams p;
    dmk_lab_params_init(&p, t->kind);
    GtkWidget *grid = _dmk_lab_page_form_grid();
    for (size_t i = 0; i < t->n_fields; i++) {
        const DmkLabField *f = &t->fields[i];
        GtkWidget *w = field_widget(self, f, &p);
        gtk_widget_set_hexpand(w, TRUE);
        gtk_widget_set_tooltip_text(w, field_tip(self, f));
        self->fields[ti][f->id] = w;
        self->labels[ti][f->id] = _dmk_lab_page_form_label(self, field_label(self, f), w);
        gtk_grid_attach(GTK_GRID(grid), self->labels[ti][f->id], 0, (int)i, 1, 1);
        gtk_grid_attach(GTK_GRID(grid), w, 1, (int)i, 1, 1);
    }
    return grid;
}

/* Each test's grid of fields, by its name. */
GtkWidget *_dmk_lab_page_build_fields(DmkLabPage *self)
{
    self->form_stack = gtk_stack_new();
    gtk_stack_set_vhomogeneous(GTK_STACK(self->form_stack), FALSE);
    for (size_t i = 0; i < dmk_lab_test_count(); i++)
        gtk_stack_add_named(GTK_STACK(self->form_stack), build_kind_form(self, i),
                            dmk_lab_test_at(i)->name);
    return self->form_stack;
}

/* ---- reading the form ---------------------------------------------------------- */

/* The test chosen: its index in the table. */
static size_t chosen(DmkLabPage *self)
{
    return gtk_drop_down_get_selected(GTK_DROP_DOWN(self->kind_dd));
}

/* The field's name for messages: "Sample every", without its mnemonic. */
static char *field_name(const DmkLabPage *self, size_t ti, DmkLabParamId id)
{
    const DmkLabTest *t = dmk_lab_test_at(ti);
    for (size_t i = 0; i < t->n_fields; i++) {
        if (t->fields[i].id != id)
            continue;
        char **parts = g_strsplit(field_label(self, &t->fields[i]), "_", -1);
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
    char *name = field_name(self, ti, id);
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
    if (f[DMK_LAB_P_SAMPLE_SIZE])
        p->sample_size = dd_value(f[DMK_LAB_P_SAMPLE_SIZE]);
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        uint32_t *count = dmk_lab_count_of(p, (DmkLabParamId)id);
        size_t room;
        char *path = dmk_lab_path_of(p, (DmkLabParamId)id, &room);
        if (count && f[id])
            *count = (uint32_t)dd_value(f[id]);
        if (path && f[id])
            read_path(f[id], path, room);
    }
}

int dmk_lab_page_get_params(DmkLabPage *self, DmkLabParams *out, DmkError *err)
{
    size_t ti = chosen(self);
    dmk_lab_params_init(out, dmk_lab_test_at(ti)->kind);
    out->device = self->device != FALSE;
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
        DmkLabParams defaults;
        dmk_lab_params_init(&defaults, t->kind);
        for (size_t i = 0; dd && i < t->n_fields; i++) {
            if (t->fields[i].id != id)
                continue;
            GArray *old = g_array_ref(dd_values(dd));
            fill_numbers(dd, (const guint64 *)(void *)old->data, old->len, (guint64)v,
                         span_kind(&t->fields[i]), defaults.margin, self->device);
            g_array_unref(old);
        }
    }
}

/* A count given on the command line (--lab-samples): selected, joining
 * the list where it is not one of its values. */
static void override_count(DmkLabPage *self, DmkLabParamId id, double v)
{
    for (size_t ti = 0; v > 0 && ti < dmk_lab_test_count(); ti++) {
        GtkWidget *dd = self->fields[ti][id];
        if (!dd)
            continue;
        GArray *old = g_array_ref(dd_values(dd));
        fill_numbers(dd, (const guint64 *)(void *)old->data, old->len, (guint64)v, NUM_COUNT, 0,
                     self->device);
        g_array_unref(old);
    }
}

/* A path given on the command line (--lab-trace): into its entry. */
static void override_path(DmkLabPage *self, DmkLabParamId id, const char *path)
{
    for (size_t ti = 0; path[0] && ti < dmk_lab_test_count(); ti++) {
        GtkWidget *field = self->fields[ti][id];
        GtkWidget *entry = field ? g_object_get_data(G_OBJECT(field), ENTRY_KEY) : NULL;
        if (entry)
            gtk_editable_set_text(GTK_EDITABLE(entry), path);
    }
}

void dmk_lab_page_apply_overrides(DmkLabPage *self, const DmkLabOverrides *o)
{
    dmk_lab_page_set_kind(self, o->kind);
    override_path(self, DMK_LAB_P_TRACE, o->trace);
    DmkLabParams p;
    for (int id = 0; id < DMK_LAB_N_PARAMS; id++) {
        if (dmk_lab_seconds_of(&p, (DmkLabParamId)id))
            override_time(self, (DmkLabParamId)id, o->value[id]);
        else if (dmk_lab_size_of(&p, (DmkLabParamId)id))
            override_size(self, (DmkLabParamId)id, o->value[id]);
        else if (dmk_lab_count_of(&p, (DmkLabParamId)id))
            override_count(self, (DmkLabParamId)id, o->value[id]);
    }
}

void _dmk_lab_page_form_set_device(DmkLabPage *self)
{
    for (size_t ti = 0; ti < dmk_lab_test_count(); ti++) {
        const DmkLabTest *t = dmk_lab_test_at(ti);
        DmkLabParams defaults;
        dmk_lab_params_init(&defaults, t->kind);
        for (size_t i = 0; i < t->n_fields; i++) {
            const DmkLabField *f = &t->fields[i];
            GtkWidget *w = self->fields[ti][f->id], *l = self->labels[ti][f->id];
            if (!w || !l)
                continue;
            gtk_label_set_text_with_mnemonic(GTK_LABEL(l), field_label(self, f));
            gtk_widget_set_tooltip_text(w, field_tip(self, f));
            if (f->id != DMK_LAB_P_SPAN || span_kind(f) != NUM_AMOUNT)
                continue;
            /* "Free space - 2 GiB" or "The whole device": the same values */
            GArray *old = g_array_ref(dd_values(w));
            guint at = gtk_drop_down_get_selected(GTK_DROP_DOWN(w));
            guint64 selected = at < old->len ? g_array_index(old, guint64, at) : 0;
            fill_numbers(w, (const guint64 *)(void *)old->data, old->len, selected, NUM_AMOUNT,
                         defaults.margin, self->device);
            g_array_unref(old);
        }
    }
}

/* ---- what the form means --------------------------------------------------- */

void _dmk_lab_page_update_summary(DmkLabPage *self)
{
    DmkLabParams p;
    DmkError err = {0};
    if (!self->summary)
        return; /* still building */
    g_signal_emit_by_name(self, "changed");
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
    char *length = s >= 0 ? dmk_text_length(s) : NULL;
    const DmkLabTest *t = dmk_lab_test(p.kind);
    gboolean fill = t->fills;
    /* A read-only test of a whole device (the surface scan) says so, and
     * on a folder what it needs instead, before Start is pressed. */
    char *when =
        t->device_only ? g_strdup(p.device ? _("Reads only: the device's data is left as it is.")
                                           : _("Needs a raw device: choose a Device as the "
                                               "Benchmark tab's target."))
        /* TRANSLATORS: %s is a length of time ("16 min"). */
        : length
            ? g_strdup_printf(!fill      ? _("Takes about %s.")
                              : p.device ? _("Takes about %s, after the region is written.")
                                         : _("Takes about %s, after the test file is written."),
                              length)
            : g_strdup(_("Takes as long as the drive needs to write it."));
    gtk_label_set_text(GTK_LABEL(self->duration), when);
    g_free(when);
    g_free(length);
}

/* ---- for tests ---------------------------------------------------------------- */

static char *field_text(GtkWidget *w)
{
    GtkWidget *entry = g_object_get_data(G_OBJECT(w), ENTRY_KEY); /* a path */
    if (entry)
        return g_strdup(gtk_editable_get_text(GTK_EDITABLE(entry)));
    if (GTK_IS_COMBO_BOX(w))
        return g_strdup(
            gtk_editable_get_text(GTK_EDITABLE(gtk_combo_box_get_child(GTK_COMBO_BOX(w)))));
    GtkStringObject *s = gtk_drop_down_get_selected_item(GTK_DROP_DOWN(w));
    return g_strdup(s ? gtk_string_object_get_string(s) : "");
}

gboolean dmk_lab_page_type_field(DmkLabPage *self, const char *name, const char *text)
{
    size_t ti = chosen(self);
    const DmkLabTest *t = dmk_lab_test_at(ti);
    for (size_t i = 0; i < t->n_fields; i++) {
        GtkWidget *w = self->fields[ti][t->fields[i].id];
        char *label = field_name(self, ti, t->fields[i].id);
        gboolean match = GTK_IS_COMBO_BOX(w) && g_ascii_strcasecmp(label, name) == 0;
        g_free(label);
        if (match) {
            /* The entry's own text, as typing sets it: the same signals follow. */
            gtk_editable_set_text(GTK_EDITABLE(gtk_combo_box_get_child(GTK_COMBO_BOX(w))), text);
            return TRUE;
        }
    }
    return FALSE;
}

void _dmk_lab_page_dump_form(DmkLabPage *self, GString *out)
{
    size_t ti = chosen(self);
    const DmkLabTest *t = dmk_lab_test_at(ti);
    g_string_append_printf(out, "lab-test\t%s\n", t->name);
    for (size_t i = 0; i < t->n_fields; i++) {
        DmkLabParamId id = t->fields[i].id;
        char *name = field_name(self, ti, id), *value = field_text(self->fields[ti][id]);
        g_string_append_printf(out, "lab-field\t%s\t%s\n", name, value);
        g_free(name);
        g_free(value);
    }
    g_string_append_printf(out, "lab-summary\t%s\t%s\n",
                           gtk_label_get_text(GTK_LABEL(self->summary)),
                           gtk_label_get_text(GTK_LABEL(self->duration)));
}
