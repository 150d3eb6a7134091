/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The target drop-down's model: the home folder, every mounted file
 * system the platform layer lists (unusable ones shown disabled with the
 * reason), folders the user picked, the whole block devices as raw
 * targets ("Device (destroys data)", or what uses one that is in use),
 * and "Choose folder…" last. */
#ifndef DMK_TARGET_LIST_H
#define DMK_TARGET_LIST_H

#include <gtk/gtk.h>

#include "dmk-platform.h"

G_BEGIN_DECLS

typedef enum {
    DMK_TARGET_VOLUME = 0, /* a mount point or drive root */
    DMK_TARGET_FOLDER = 1, /* a folder: the home folder or one the user chose */
    DMK_TARGET_CHOOSE = 2, /* "Choose folder…" */
    /* A whole block device, benchmarked raw: "Device (destroys data)".
     * Write tests need its name typed (dmk_window_confirm_device). */
    DMK_TARGET_DEVICE = 3,
} DmkTargetKind;

#define DMK_TYPE_TARGET_ITEM (dmk_target_item_get_type())
G_DECLARE_FINAL_TYPE(DmkTargetItem, dmk_target_item, DMK, TARGET_ITEM, GObject)

DmkTargetKind dmk_target_item_get_kind(DmkTargetItem *item);
/* The folder the test file goes into, or the device's path; NULL for
 * "Choose folder…". */
const char *dmk_target_item_get_path(DmkTargetItem *item);
/* Why a volume or folder cannot be a target ("read-only", "No such file
 * or directory"); "" when it can. */
const char *dmk_target_item_get_reason(DmkTargetItem *item);
/* Folders are always selectable (one that cannot work stays chosen, shown
 * as such, with Run disabled); unusable volumes are not. */
gboolean dmk_target_item_is_selectable(DmkTargetItem *item);
/* Whether a run could start on it: a usable volume, a device, or a folder
 * that exists, is a folder, can be written and lies on a known file system. */
gboolean dmk_target_item_can_run(DmkTargetItem *item);
/* What uses a device ("mounted at / (vda1)", dmk_os_device_usage), as
 * its last check found; NULL when free or not a device. A device in use
 * is offered for reading only. */
const char *dmk_target_item_get_usage(DmkTargetItem *item);
/* The item's lines in the list: the title ("Device (destroys data):
 * /dev/sdb", "Device (in use, read only): /dev/loop3"), or with detail
 * the second line ("32.0 MiB \u2014 mounted at /mnt (loop3p1): read tests
 * only"). Free with g_free. */
char *dmk_target_item_describe(DmkTargetItem *item, gboolean detail);
/* Checks a folder again (it may have gone since it was listed), or what
 * uses a device (mounted, or gone, since); returns
 * dmk_target_item_can_run. */
gboolean dmk_target_item_check(DmkTargetItem *item);

/* A new list store of DmkTargetItem, filled. */
GListStore *dmk_target_list_new(void);

/* The position of path in the list, adding it as a folder (before
 * "Choose folder…") when it is not there yet. */
guint dmk_target_list_find_or_add(GListStore *store, const char *path);

/* The home folder when it can be used, else the first usable volume. */
guint dmk_target_list_default(GListStore *store);

/* Sets the drop-down's model and its factories: a compact line on the
 * button, two lines (place; file system and space, or why not) in the list. */
void dmk_target_list_attach(GtkDropDown *dropdown, GListStore *store);

G_END_DECLS

#endif
