/* SPDX-License-Identifier: GPL-3.0-or-later */
/* UDisks2's open of a raw device for this user (dmk-udisks.h): find the
 * device's Block object by device number, then call its open method,
 * each step a callback on the main context, so the window stays live
 * while polkit asks the user. */
#define _GNU_SOURCE /* O_DIRECT */
#include "dmk-udisks.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define UDISKS_NAME  "org.freedesktop.UDisks2"
#define UDISKS_PATH  "/org/freedesktop/UDisks2"
#define UDISKS_BLOCK "org.freedesktop.UDisks2.Block"

typedef struct {
    char *device;
    gboolean writable;
    dev_t rdev;
    GDBusConnection *bus;
} Ask;

static void ask_free(gpointer data)
{
    Ask *a = data;
    g_free(a->device);
    g_clear_object(&a->bus);
    g_free(a);
}

gboolean dmk_udisks_needed(const char *device, gboolean writable)
{
    if (g_access(device, writable ? R_OK | W_OK : R_OK) == 0)
        return FALSE;
    return errno == EACCES || errno == EPERM;
}

static const char *method(const Ask *a)
{
    return a->writable ? "OpenDevice" : "OpenForBenchmark";
}

/* What a D-Bus error means here, in words; NULL: only its own text. */
static const char *meaning(const char *name)
{
    static const struct {
        const char *name, *words;
    } known[] = {
        {"org.freedesktop.UDisks2.Error.NotAuthorizedDismissed",
         N_("the authentication dialog was dismissed")},
        {"org.freedesktop.UDisks2.Error.NotAuthorized", N_("polkit did not authorize it")},
        {"org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain", N_("polkit did not authorize it")},
        {"org.freedesktop.DBus.Error.ServiceUnknown",
         N_("UDisks2 is not on the system bus (raw devices otherwise need root or the disk "
            "group)")},
        {"org.freedesktop.DBus.Error.NameHasNoOwner",
         N_("UDisks2 is not on the system bus (raw devices otherwise need root or the disk "
            "group)")},
        {"org.freedesktop.DBus.Error.UnknownMethod", N_("this UDisks2 does not offer the method")},
        {"org.freedesktop.DBus.Error.NoReply", N_("UDisks2 did not answer")},
    };
    for (size_t i = 0; name && i < G_N_ELEMENTS(known); i++)
        if (g_strcmp0(name, known[i].name) == 0)
            return _(known[i].words);
    return NULL;
}

/* Ends the task with the message the user reads: the operation, the
 * device, what went wrong and the D-Bus error as it came. */
static void fail(GTask *task, GError *e, const char *why)
{
    Ask *a = g_task_get_task_data(task);
    if (g_error_matches(e, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        g_task_return_error(task, e);
        g_object_unref(task);
        return;
    }
    char *name = g_dbus_error_get_remote_error(e);
    g_dbus_error_strip_remote_error(e);
    const char *words = why ? why : meaning(name);
    char *detail = name ? g_strdup_printf("%s: %s", name, e->message) : g_strdup(e->message);
    if (words && a->writable)
        g_task_return_new_error(
            task, e->domain, e->code,
            /* TRANSLATORS: %1$s is a device (/dev/sdb), %2$s UDisks2's method
             * (OpenDevice), %3$s what went wrong, %4$s the D-Bus error as it came. */
            _("opening the device %1$s for writing through UDisks2 (Block.%2$s) "
              "failed: %3$s (%4$s)"),
            a->device, method(a), words, detail);
    else if (words)
        g_task_return_new_error(
            task, e->domain, e->code,
            /* TRANSLATORS: %1$s is a device (/dev/sdb), %2$s UDisks2's method
             * (OpenForBenchmark), %3$s what went wrong, %4$s the D-Bus error as it came. */
            _("opening the device %1$s for reading through UDisks2 (Block.%2$s) "
              "failed: %3$s (%4$s)"),
            a->device, method(a), words, detail);
    else if (a->writable)
        g_task_return_new_error(
            task, e->domain, e->code,
            /* TRANSLATORS: %1$s is a device (/dev/sdb), %2$s UDisks2's method
             * (OpenDevice), %3$s the D-Bus error as it came. */
            _("opening the device %1$s for writing through UDisks2 (Block.%2$s) "
              "failed: %3$s"),
            a->device, method(a), detail);
    else
        g_task_return_new_error(
            task, e->domain, e->code,
            /* TRANSLATORS: %1$s is a device (/dev/sdb), %2$s UDisks2's method
             * (OpenForBenchmark), %3$s the D-Bus error as it came. */
            _("opening the device %1$s for reading through UDisks2 (Block.%2$s) "
              "failed: %3$s"),
            a->device, method(a), detail);
    g_free(detail);
    g_free(name);
    g_error_free(e);
    g_object_unref(task);
}

static void on_opened(GObject *source, GAsyncResult *res, gpointer data)
{
    GTask *task = data;
    GUnixFDList *fds = NULL;
    GError *e = NULL;
    GVariant *v =
        g_dbus_connection_call_with_unix_fd_list_finish(G_DBUS_CONNECTION(source), &fds, res, &e);
    int fd = -1;
    if (v) {
        gint32 index = -1;
        g_variant_get(v, "(h)", &index);
        fd = fds ? g_unix_fd_list_get(fds, index, &e) : -1;
        if (fd < 0 && !e)
            e = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_FAILED, _("no descriptor came with it"));
        g_variant_unref(v);
    }
    g_clear_object(&fds);
    if (fd < 0) {
        fail(task, e, NULL);
        return;
    }
    g_task_return_int(task, fd);
    g_object_unref(task);
}

static GVariant *open_params(const Ask *a)
{
    GVariantBuilder opts;
    g_variant_builder_init(&opts, G_VARIANT_TYPE_VARDICT);
    if (!a->writable)
        return g_variant_new("(a{sv})", &opts);
    /* The flags the engine's own open of the path uses (O_CLOEXEC and
     * the access mode are UDisks2's to set). */
    g_variant_builder_add(&opts, "{sv}", "flags", g_variant_new_int32(O_DIRECT | O_EXCL));
    return g_variant_new("(sa{sv})", "rw", &opts);
}

static void call_open(GTask *task, const char *path)
{
    Ask *a = g_task_get_task_data(task);
    /* No timeout: the call lasts as long as the user takes with polkit's
     * dialog; Stop or closing the window cancels it. */
    g_dbus_connection_call_with_unix_fd_list(
        a->bus, UDISKS_NAME, path, UDISKS_BLOCK, method(a), open_params(a), G_VARIANT_TYPE("(h)"),
        G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION, G_MAXINT, NULL,
        g_task_get_cancellable(task), on_opened, task);
}

/* The object whose Block.DeviceNumber is rdev, or NULL. */
static char *find_block(GVariant *objects, dev_t rdev)
{
    GVariantIter it;
    const char *path;
    GVariant *ifaces;
    char *found = NULL;
    g_variant_iter_init(&it, objects);
    while (!found && g_variant_iter_next(&it, "{&o@a{sa{sv}}}", &path, &ifaces)) {
        GVariant *props = g_variant_lookup_value(ifaces, UDISKS_BLOCK, G_VARIANT_TYPE_VARDICT);
        guint64 num = 0;
        if (props && g_variant_lookup(props, "DeviceNumber", "t", &num) && num == (guint64)rdev)
            found = g_strdup(path);
        if (props)
            g_variant_unref(props);
        g_variant_unref(ifaces);
    }
    return found;
}

static void on_objects(GObject *source, GAsyncResult *res, gpointer data)
{
    GTask *task = data;
    Ask *a = g_task_get_task_data(task);
    GError *e = NULL;
    GVariant *v = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &e);
    if (!v) {
        fail(task, e, NULL);
        return;
    }
    GVariant *objects = g_variant_get_child_value(v, 0);
    char *path = find_block(objects, a->rdev);
    g_variant_unref(objects);
    g_variant_unref(v);
    if (!path) {
        /* TRANSLATORS: %u:%u is a device's major and minor number (8:16). */
        e = g_error_new(G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("UDisks2 lists no block device %u:%u"),
                        major(a->rdev), minor(a->rdev));
        fail(task, e, _("UDisks2 does not know the device"));
        return;
    }
    call_open(task, path);
    g_free(path);
}

static void on_bus(GObject *source, GAsyncResult *res, gpointer data)
{
    (void)source;
    GTask *task = data;
    Ask *a = g_task_get_task_data(task);
    GError *e = NULL;
    a->bus = g_bus_get_finish(res, &e);
    if (!a->bus) {
        fail(task, e, _("the system bus cannot be reached"));
        return;
    }
    g_dbus_connection_call(a->bus, UDISKS_NAME, UDISKS_PATH, "org.freedesktop.DBus.ObjectManager",
                           "GetManagedObjects", NULL, G_VARIANT_TYPE("(a{oa{sa{sv}}})"),
                           G_DBUS_CALL_FLAGS_NONE, -1, g_task_get_cancellable(task), on_objects,
                           task);
}

void dmk_udisks_open_async(const char *device, gboolean writable, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
    GTask *task = g_task_new(NULL, cancellable, callback, user_data);
    /* A descriptor that arrives as the caller cancels is still handed
     * over (and closed there), never dropped here. */
    g_task_set_check_cancellable(task, FALSE);
    Ask *a = g_new0(Ask, 1);
    a->device = g_strdup(device);
    a->writable = writable;
    g_task_set_task_data(task, a, ask_free);
    GStatBuf st;
    int rc = g_stat(device, &st), en = errno;
    if (rc != 0 || !S_ISBLK(st.st_mode)) {
        GError *e = rc != 0
                        ? g_error_new_literal(G_IO_ERROR, g_io_error_from_errno(en), g_strerror(en))
                        : g_error_new_literal(G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                              _("not a block device"));
        fail(task, e, _("the device cannot be looked up"));
        return;
    }
    a->rdev = st.st_rdev;
    g_bus_get(G_BUS_TYPE_SYSTEM, cancellable, on_bus, task);
}

int dmk_udisks_open_finish(GAsyncResult *result, GError **error)
{
    return (int)g_task_propagate_int(G_TASK(result), error);
}
