/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A raw device this user may not open (no root, not in the disk group),
 * opened by UDisks2 instead, as GNOME Disks' benchmark does: udisksd
 * (root) asks polkit, which may ask the user for a password, opens the
 * device and passes the descriptor over the system bus. The window hands
 * that descriptor to the engine (DmkRunSpec.device_fd), whose target
 * checks that it is the device named, opened as its own open would, and
 * runs the same guards on it (platform/linux/dmk-device-linux.c).
 *
 * Reading: Block.OpenForBenchmark({}) (O_RDONLY | O_DIRECT | O_SYNC;
 * O_SYNC does nothing to reads). Writing: Block.OpenDevice("rw",
 * {flags: O_DIRECT | O_EXCL}), the same polkit action: OpenForBenchmark's
 * writable open adds O_SYNC, which makes every direct write FUA (a
 * write-through the path's own open does not ask for) and cannot be
 * taken off a descriptor (F_SETFL leaves it), so its write numbers
 * would not compare with a run as root.
 *
 * Linux only (GIO's Unix descriptor passing); the GLib part stays in ui/
 * since the engine has no GLib. */
#ifndef DMK_UDISKS_H
#define DMK_UDISKS_H

#include <gio/gio.h>

/* Whether this user's own open of device would be refused for lack of
 * permission (EACCES, EPERM), the case UDisks2 is asked for; FALSE for
 * root, the disk group, and anything else (a missing path: the engine's
 * open says what is wrong). */
gboolean dmk_udisks_needed(const char *device, gboolean writable);

/* Asks UDisks2 on the system bus ($DBUS_SYSTEM_BUS_ADDRESS where set)
 * for a descriptor of the block device `device` (links resolved by
 * device number), for writing or only reading; polkit may show its
 * dialog meanwhile, for as long as the user takes. */
void dmk_udisks_open_async(const char *device, gboolean writable, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data);

/* The descriptor (the caller's to close), or -1 with *error set: its
 * message names the operation, the device and the D-Bus error ("opening
 * the device /dev/sdb for writing through UDisks2 (Block.OpenDevice)
 * failed: the authentication dialog was dismissed
 * (org.freedesktop.UDisks2.Error.NotAuthorizedDismissed: ...)"); a
 * cancelled call is G_IO_ERROR_CANCELLED. A descriptor that arrives
 * after a cancel is still returned, never leaked. */
int dmk_udisks_open_finish(GAsyncResult *result, GError **error);

#endif
