/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A raw device as the target: a run that writes to it starts only after
 * the user has typed the device's name, as the CLI's --yes-destroy-data
 * asks. The engine checks the typed name again and refuses a device in
 * use (mounted, swap, held); such a refusal shows in the info bar like
 * any other error. A device this user may not open (no root, not in the
 * disk group) is asked of UDisks2 after that question, as GNOME Disks
 * does (dmk-udisks.h): the descriptor it gives goes to the engine, which
 * checks and guards it as it would its own open. */
#include "dmk-window-private.h"

#include <glib/gi18n.h>

#include <string.h>

#include "dmk-target-list.h"
#include "dmk-target-rules.h"
#ifdef DMK_HAVE_UDISKS
#include "dmk-udisks.h"
#endif

gboolean _dmk_window_target_is_device(DmkWindow *self)
{
    DmkTargetItem *item = gtk_drop_down_get_selected_item(self->target_dd);
    return item && dmk_target_item_get_kind(item) == DMK_TARGET_DEVICE;
}

typedef struct {
    DmkRunSpec spec;
    DmkRunStart start;
    GtkWidget *entry, *accept;
} DmkDeviceAsk;

static gboolean answer_matches(const DmkDeviceAsk *ask)
{
    const char *typed = gtk_editable_get_text(GTK_EDITABLE(ask->entry));
    return dmk_device_confirmed(ask->spec.dir, typed);
}

static void on_typed(GtkEditable *entry, gpointer data)
{
    (void)entry;
    DmkDeviceAsk *ask = data;
    gtk_widget_set_sensitive(ask->accept, answer_matches(ask));
}

static void on_response(GtkDialog *dialog, int response, gpointer data)
{
    DmkWindow *self = data;
    DmkDeviceAsk *ask = g_object_get_data(G_OBJECT(dialog), "dmk-ask");
    /* Checked again here: the button is only a convenience. */
    gboolean go = response == GTK_RESPONSE_ACCEPT && answer_matches(ask) && !self->worker;
    if (response == GTK_RESPONSE_ACCEPT && !go)
        return; /* a wrong name: the question stays */
    self->lab_confirm = NULL;
    if (go) {
        g_strlcpy(ask->spec.device_confirm, gtk_editable_get_text(GTK_EDITABLE(ask->entry)),
                  sizeof ask->spec.device_confirm);
        _dmk_window_launch(self, &ask->spec, &ask->start);
    }
    gtk_window_destroy(GTK_WINDOW(dialog));
    g_object_unref(self);
}

static GtkWidget *build_dialog(DmkWindow *self, DmkDeviceAsk *ask)
{
    const char *dev = ask->spec.dir;
    GtkWidget *d = gtk_message_dialog_new(
        GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
        /* TRANSLATORS: %s is a device (/dev/sdb). */
        GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE, _("Erase the data on %s?"), dev);
    if (ask->spec.size)
        gtk_message_dialog_format_secondary_text(
            GTK_MESSAGE_DIALOG(d),
            /* TRANSLATORS: %1$llu is a number of MiB, %2$s a device (/dev/sdb). */
            _("The write tests write over the first %1$llu MiB of %2$s. Whatever is stored "
              "there, files and partitions included, is lost for good.\n\nType the device's "
              "name, %2$s, to go ahead."),
            (unsigned long long)(ask->spec.size >> 20), dev);
    else
        gtk_message_dialog_format_secondary_text(
            GTK_MESSAGE_DIALOG(d),
            /* TRANSLATORS: %1$s is a device (/dev/sdb). */
            _("The write tests write over all of %1$s. Whatever is stored there, files and "
              "partitions included, is lost for good.\n\nType the device's name, %1$s, to go "
              "ahead."),
            dev);
    ask->entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(ask->entry), dev);
    gtk_accessible_update_property(GTK_ACCESSIBLE(ask->entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Device name"), -1);
    gtk_widget_set_margin_start(ask->entry, 12);
    gtk_widget_set_margin_end(ask->entry, 12);
    GtkWidget *area = gtk_message_dialog_get_message_area(GTK_MESSAGE_DIALOG(d));
    gtk_box_append(GTK_BOX(area), ask->entry);
    /* The heading would touch the top edge where the theme adds no room. */
    gtk_widget_set_margin_top(area, 18);
    gtk_widget_set_margin_bottom(area, 6);
    gtk_dialog_add_buttons(GTK_DIALOG(d), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Erase and Run"),
                           GTK_RESPONSE_ACCEPT, NULL);
    ask->accept = gtk_dialog_get_widget_for_response(GTK_DIALOG(d), GTK_RESPONSE_ACCEPT);
    gtk_widget_add_css_class(ask->accept, "destructive-action");
    gtk_widget_set_sensitive(ask->accept, FALSE);
    gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_CANCEL);
    g_signal_connect(ask->entry, "changed", G_CALLBACK(on_typed), ask);
    return d;
}

gboolean _dmk_window_device_ready(DmkWindow *self, DmkRunSpec *spec, const DmkRunStart *start)
{
    if (!spec->device || !dmk_run_spec_writes(spec))
        return TRUE; /* a device that is only read is read as it is */
    if (self->lab_confirm) {
        gtk_window_present(GTK_WINDOW(self->lab_confirm));
        return FALSE;
    }
    DmkDeviceAsk *ask = g_new0(DmkDeviceAsk, 1);
    ask->spec = *spec;
    ask->start = *start;
    GtkWidget *d = build_dialog(self, ask);
    g_object_set_data_full(G_OBJECT(d), "dmk-ask", ask, g_free);
    g_signal_connect(d, "response", G_CALLBACK(on_response), g_object_ref(self));
    self->lab_confirm = d;
    gtk_window_present(GTK_WINDOW(d));
    if (self->device_answer) {
        g_object_ref(d); /* the response may destroy it */
        /* Tests type as a user would; the button decides, as for a user. */
        gtk_editable_set_text(GTK_EDITABLE(ask->entry), self->device_answer);
        if (gtk_widget_get_sensitive(ask->accept)) /* as its click would, but at once */
            gtk_dialog_response(GTK_DIALOG(d), GTK_RESPONSE_ACCEPT);
        g_object_unref(d);
    }
    return FALSE;
}

/* ---- UDisks2 -------------------------------------------------------------- */

typedef struct {
    DmkWindow *self; /* a reference */
    DmkRunSpec spec;
    DmkRunStart start;
} DmkUdisksAsk;

#ifdef DMK_HAVE_UDISKS
static void on_udisks(GObject *source, GAsyncResult *res, gpointer data)
{
    (void)source;
    DmkUdisksAsk *ask = data;
    DmkWindow *self = ask->self;
    GError *e = NULL;
    int fd = dmk_udisks_open_finish(res, &e);
    gboolean gone = !self->udisks_wait || g_cancellable_is_cancelled(self->udisks_wait);
    g_clear_object(&self->udisks_wait);
    if (fd >= 0 && !gone) {
        ask->spec.has_device_fd = true;
        ask->spec.device_fd = fd;
        _dmk_window_launch(self, &ask->spec, &ask->start);
        if (self->worker)
            fd = -1; /* the run's now */
    } else if (!gone) {
        /* As a run refused by the engine would end: said, and over. */
        _dmk_window_set_status(self, _("Failed: the device cannot be opened"));
        _dmk_window_show_problem(self, _("The device cannot be opened"), e->message);
        _dmk_window_emit_run_finished(self, DMK_E_PERM);
    }
    if (fd >= 0)
        dmk_os_device_fd_close(fd);
    g_clear_error(&e);
    g_object_unref(self);
    g_free(ask);
}
#endif

gboolean _dmk_window_device_via_udisks(DmkWindow *self, const DmkRunSpec *spec,
                                       const DmkRunStart *start)
{
#ifdef DMK_HAVE_UDISKS
    gboolean writes = dmk_run_spec_writes(spec);
    if (!spec->device || spec->has_device_fd ||
        !(self->udisks_always || dmk_udisks_needed(spec->dir, writes)))
        return FALSE;
    DmkUdisksAsk *ask = g_new0(DmkUdisksAsk, 1);
    ask->self = g_object_ref(self);
    ask->spec = *spec;
    ask->start = *start;
    self->udisks_wait = g_cancellable_new();
    /* TRANSLATORS: the status line; %s is a device (/dev/sdb). */
    char *status = g_strdup_printf(_("Asking for permission to open %s\u2026"), spec->dir);
    _dmk_window_set_status(self, status);
    g_free(status);
    dmk_udisks_open_async(spec->dir, writes, self->udisks_wait, on_udisks, ask);
    return TRUE;
#else
    (void)self, (void)spec, (void)start;
    return FALSE; /* the engine's own open says what it needs */
#endif
}

void _dmk_window_device_dispose(DmkWindow *self)
{
    /* The callback still comes (it holds the window) and closes a
     * descriptor that arrives anyway. */
    if (self->udisks_wait)
        g_cancellable_cancel(self->udisks_wait);
    g_clear_object(&self->udisks_wait);
}

void dmk_window_set_udisks_always(DmkWindow *self, gboolean always)
{
    self->udisks_always = always;
}

void dmk_window_set_device_answer(DmkWindow *self, const char *typed)
{
    g_free(self->device_answer);
    self->device_answer = g_strdup(typed);
}

GtkWidget *dmk_window_get_question(DmkWindow *self)
{
    return self->lab_confirm ? self->lab_confirm : self->quit_question;
}
