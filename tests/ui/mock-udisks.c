/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stand-in for udisksd on a private bus (tests/ui/test_udisks.py): it
 * owns org.freedesktop.UDisks2 on the bus $DBUS_SYSTEM_BUS_ADDRESS names
 * and offers what ui/dmk-udisks.c asks of the real one: the object
 * manager's GetManagedObjects, listing two block devices, and on one of
 * them Block.OpenForBenchmark and Block.OpenDevice, which open a regular
 * file standing in for the device with the flags udisksd uses (or answer
 * with a D-Bus error, as polkit's refusals do). Each call is logged, one
 * line, so the test sees what the client asked.
 *
 *   mock-udisks --number MAJ:MIN --log FILE (--serve FILE [--add-flags N]
 *               | --refuse NAME:MESSAGE)
 *
 * It prints "ready" once it owns the name. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *introspection =
    "<node>"
    " <interface name='org.freedesktop.DBus.ObjectManager'>"
    "  <method name='GetManagedObjects'>"
    "   <arg type='a{oa{sa{sv}}}' direction='out'/>"
    "  </method>"
    " </interface>"
    " <interface name='org.freedesktop.UDisks2.Block'>"
    "  <method name='OpenForBenchmark'>"
    "   <arg type='a{sv}' direction='in'/><arg type='h' direction='out'/>"
    "  </method>"
    "  <method name='OpenDevice'>"
    "   <arg type='s' direction='in'/><arg type='a{sv}' direction='in'/>"
    "   <arg type='h' direction='out'/>"
    "  </method>"
    " </interface>"
    "</node>";

#define BLOCK_PATH "/org/freedesktop/UDisks2/block_devices/stand_in"
#define OTHER_PATH "/org/freedesktop/UDisks2/block_devices/other"

static struct {
    guint64 number;
    const char *log, *serve, *refuse;
    int add_flags;
} opt;

static void log_call(GDBusMethodInvocation *inv, GVariant *params)
{
    FILE *f = fopen(opt.log, "a");
    if (!f)
        return;
    GDBusMessageFlags fl = g_dbus_message_get_flags(g_dbus_method_invocation_get_message(inv));
    char *args = g_variant_print(params, TRUE);
    fprintf(f, "%s\t%s\t%s\tinteractive=%d\n", g_dbus_method_invocation_get_method_name(inv),
            g_dbus_method_invocation_get_object_path(inv), args,
            (fl & G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION) ? 1 : 0);
    g_free(args);
    fclose(f);
}

static GVariant *block_props(guint64 number, const char *dev)
{
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a{sa{sv}}"));
    g_variant_builder_open(&b, G_VARIANT_TYPE("{sa{sv}}"));
    g_variant_builder_add(&b, "s", "org.freedesktop.UDisks2.Block");
    g_variant_builder_open(&b, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&b, "{sv}", "DeviceNumber", g_variant_new_uint64(number));
    g_variant_builder_add(&b, "{sv}", "Device", g_variant_new_bytestring(dev));
    g_variant_builder_close(&b);
    g_variant_builder_close(&b);
    return g_variant_builder_end(&b);
}

static void managed_objects(GDBusMethodInvocation *inv)
{
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a{oa{sa{sv}}}"));
    /* Another device first: the client must match the number. */
    g_variant_builder_add(&b, "{o@a{sa{sv}}}", OTHER_PATH,
                          block_props(makedev(259, 77), "/dev/other"));
    g_variant_builder_add(&b, "{o@a{sa{sv}}}", BLOCK_PATH,
                          block_props(opt.number, "/dev/stand-in"));
    g_dbus_method_invocation_return_value(inv, g_variant_new("(a{oa{sa{sv}}})", &b));
}

/* The flags udisksd 2.10 opens with: OpenForBenchmark O_DIRECT | O_SYNC
 * (| O_EXCL, read-write, when writable); OpenDevice the mode's access
 * and the caller's "flags". */
static int open_flags(const char *method, GVariant *params)
{
    int flags = 0;
    if (strcmp(method, "OpenForBenchmark") == 0) {
        GVariant *o = g_variant_get_child_value(params, 0);
        gboolean w = FALSE;
        g_variant_lookup(o, "writable", "b", &w);
        g_variant_unref(o);
        return O_DIRECT | O_SYNC | O_CLOEXEC | (w ? O_RDWR | O_EXCL : O_RDONLY);
    }
    const char *mode;
    GVariant *o;
    g_variant_get(params, "(&s@a{sv})", &mode, &o);
    g_variant_lookup(o, "flags", "i", &flags);
    g_variant_unref(o);
    return flags | (strcmp(mode, "rw") == 0 ? O_RDWR : O_RDONLY);
}

static void open_method(GDBusMethodInvocation *inv, const char *method, GVariant *params)
{
    if (opt.refuse) {
        const char *colon = strchr(opt.refuse, ':');
        char *name = g_strndup(opt.refuse, (gsize)(colon - opt.refuse));
        g_dbus_method_invocation_return_dbus_error(inv, name, colon + 1);
        g_free(name);
        return;
    }
    int fd = open(opt.serve, open_flags(method, params) | opt.add_flags);
    if (fd < 0) {
        g_dbus_method_invocation_return_dbus_error(inv, "org.freedesktop.UDisks2.Error.Failed",
                                                   g_strerror(errno));
        return;
    }
    GUnixFDList *list = g_unix_fd_list_new_from_array(&fd, 1); /* takes fd */
    g_dbus_method_invocation_return_value_with_unix_fd_list(inv, g_variant_new("(h)", 0), list);
    g_object_unref(list);
}

static void on_call(GDBusConnection *c, const char *sender, const char *path, const char *iface,
                    const char *method, GVariant *params, GDBusMethodInvocation *inv, gpointer data)
{
    (void)c, (void)sender, (void)iface, (void)data;
    log_call(inv, params);
    if (strcmp(method, "GetManagedObjects") == 0)
        managed_objects(inv);
    else if (strcmp(path, BLOCK_PATH) == 0)
        open_method(inv, method, params);
    else
        g_dbus_method_invocation_return_dbus_error(inv, "org.freedesktop.UDisks2.Error.Failed",
                                                   "the wrong device was asked for");
}

static const GDBusInterfaceVTable vtable = {on_call, NULL, NULL, {0}};

static void on_bus(GDBusConnection *c, const char *name, gpointer data)
{
    (void)name;
    GDBusNodeInfo *info = data;
    g_dbus_connection_register_object(c, "/org/freedesktop/UDisks2", info->interfaces[0], &vtable,
                                      NULL, NULL, NULL);
    g_dbus_connection_register_object(c, BLOCK_PATH, info->interfaces[1], &vtable, NULL, NULL,
                                      NULL);
    g_dbus_connection_register_object(c, OTHER_PATH, info->interfaces[1], &vtable, NULL, NULL,
                                      NULL);
}

static void on_name(GDBusConnection *c, const char *name, gpointer data)
{
    (void)c, (void)name, (void)data;
    printf("ready\n");
    fflush(stdout);
}

static void on_lost(GDBusConnection *c, const char *name, gpointer data)
{
    (void)c, (void)name, (void)data;
    fprintf(stderr, "mock-udisks: the name %s could not be owned\n", name);
    exit(1);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        unsigned maj = 0, min = 0;
        if (strcmp(argv[i], "--number") == 0 && sscanf(argv[i + 1], "%u:%u", &maj, &min) == 2)
            opt.number = makedev(maj, min);
        else if (strcmp(argv[i], "--log") == 0)
            opt.log = argv[i + 1];
        else if (strcmp(argv[i], "--serve") == 0)
            opt.serve = argv[i + 1];
        else if (strcmp(argv[i], "--refuse") == 0 && strchr(argv[i + 1], ':'))
            opt.refuse = argv[i + 1];
        else if (strcmp(argv[i], "--add-flags") == 0)
            opt.add_flags = atoi(argv[i + 1]);
    }
    if (!opt.log || (!opt.serve && !opt.refuse)) {
        fprintf(stderr, "usage: mock-udisks --number MAJ:MIN --log FILE "
                        "(--serve FILE [--add-flags N] | --refuse NAME:MESSAGE)\n");
        return 2;
    }
    GDBusNodeInfo *info = g_dbus_node_info_new_for_xml(introspection, NULL);
    g_bus_own_name(G_BUS_TYPE_SYSTEM, "org.freedesktop.UDisks2", G_BUS_NAME_OWNER_FLAGS_NONE,
                   on_bus, on_name, on_lost, info, NULL);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
