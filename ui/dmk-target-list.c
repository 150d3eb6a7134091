/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-target-list.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#ifdef G_OS_WIN32
#include <io.h> /* W_OK */
#else
#include <unistd.h>
#endif

#define MAX_VOLUMES 64
#define MAX_DEVICES 64

struct _DmkTargetItem {
    GObject parent_instance;
    DmkTargetKind kind;
    char *name;       /* what the list shows first */
    char *path;       /* where the test file goes */
    DmkVolume volume; /* the file system under path */
    gboolean has_volume;
    DmkDevice device; /* DMK_TARGET_DEVICE: the disk, and what uses it */
    char *problem;    /* a folder's or device's: why it cannot work; NULL when it can */
};

G_DEFINE_FINAL_TYPE(DmkTargetItem, dmk_target_item, G_TYPE_OBJECT)

static void dmk_target_item_finalize(GObject *object)
{
    DmkTargetItem *self = DMK_TARGET_ITEM(object);
    g_free(self->name);
    g_free(self->path);
    g_free(self->problem);
    G_OBJECT_CLASS(dmk_target_item_parent_class)->finalize(object);
}

static void dmk_target_item_class_init(DmkTargetItemClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = dmk_target_item_finalize;
}

static void dmk_target_item_init(DmkTargetItem *self)
{
    (void)self;
}

static DmkTargetItem *item_new(DmkTargetKind kind, const char *name, const char *path)
{
    DmkTargetItem *item = g_object_new(DMK_TYPE_TARGET_ITEM, NULL);
    item->kind = kind;
    item->name = g_strdup(name);
    item->path = g_strdup(path);
    return item;
}

DmkTargetKind dmk_target_item_get_kind(DmkTargetItem *item)
{
    return item->kind;
}

const char *dmk_target_item_get_path(DmkTargetItem *item)
{
    return item->path;
}

const char *dmk_target_item_get_reason(DmkTargetItem *item)
{
    if (item->kind == DMK_TARGET_FOLDER || item->kind == DMK_TARGET_DEVICE)
        return item->problem ? item->problem : "";
    return item->has_volume && item->kind == DMK_TARGET_VOLUME ? item->volume.reason : "";
}

gboolean dmk_target_item_is_selectable(DmkTargetItem *item)
{
    return item->kind != DMK_TARGET_VOLUME || item->volume.usable;
}

gboolean dmk_target_item_can_run(DmkTargetItem *item)
{
    return dmk_target_item_is_selectable(item) && item->kind != DMK_TARGET_CHOOSE && !item->problem;
}

const char *dmk_target_item_get_usage(DmkTargetItem *item)
{
    return item->kind == DMK_TARGET_DEVICE && item->device.in_use ? item->device.usage : NULL;
}

/* What uses the device now (it may have been mounted, or gone, since it
 * was listed): the platform's words, as the list shows them. */
static void device_check(DmkTargetItem *item)
{
    char usage[sizeof item->device.usage];
    int rc = dmk_os_device_usage(item->path, usage, sizeof usage);
    g_clear_pointer(&item->problem, g_free);
    if (rc < 0) {
        /* TRANSLATORS: why a device cannot be used; %s is the system's words. */
        item->problem = g_strdup_printf(_("it is no longer there (%s)"), usage);
        return;
    }
    /* The node stays when its storage goes (a loop device detached, a
     * card taken out): nothing there to measure. */
    if (dmk_os_device_empty(item->path)) {
        item->problem = g_strdup(_("it holds no storage now (detached or taken out)"));
        return;
    }
    item->device.in_use = rc > 0;
    g_strlcpy(item->device.usage, usage, sizeof item->device.usage);
}

/* Why the folder cannot take a test file, in the OS's words; NULL when it
 * can. Checked when the folder enters the list and again when it is
 * chosen, so that a folder that is missing, a file, read-only or on a
 * file system of unknown size never looks usable until Run. */
static char *folder_problem(const char *path, gboolean has_volume)
{
    GStatBuf st;
    if (g_stat(path, &st) != 0)
        return g_strdup(g_strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return g_strdup(_("not a folder"));
    if (g_access(path, W_OK) != 0)
        /* TRANSLATORS: why a folder cannot be used; %s is the system's words. */
        return g_strdup_printf(_("cannot be written (%s)"), g_strerror(errno));
    if (!has_volume)
        return g_strdup(_("its free space is unknown (no mounted file system holds it)"));
    return NULL;
}

gboolean dmk_target_item_check(DmkTargetItem *item)
{
    if (item->kind == DMK_TARGET_DEVICE)
        device_check(item);
    if (item->kind != DMK_TARGET_FOLDER)
        return dmk_target_item_can_run(item);
    g_free(item->problem);
    item->problem = folder_problem(item->path, item->has_volume);
    return item->problem == NULL;
}

/* ---- filling the list ------------------------------------------------- */

/* Whether path lies on the file system mounted at mount (or is it). */
static gboolean path_is_under(const char *path, const char *mount)
{
    GFile *p = g_file_new_for_path(path);
    GFile *m = g_file_new_for_path(mount);
    gboolean under = g_file_equal(p, m) || g_file_has_prefix(p, m);
    g_object_unref(p);
    g_object_unref(m);
    return under;
}

/* The volume holding path: the volume item with the longest mount point
 * that contains it (mounts nest). */
static void find_volume(GListStore *store, DmkTargetItem *folder)
{
    size_t best = 0;
    guint n = g_list_model_get_n_items(G_LIST_MODEL(store));
    for (guint i = 0; i < n; i++) {
        DmkTargetItem *v = g_list_model_get_item(G_LIST_MODEL(store), i);
        if (v->kind == DMK_TARGET_VOLUME && path_is_under(folder->path, v->path) &&
            (!folder->has_volume || strlen(v->path) > best)) {
            best = strlen(v->path);
            folder->volume = v->volume;
            folder->has_volume = TRUE;
        }
        g_object_unref(v);
    }
}

static void add_volumes(GListStore *store)
{
    DmkVolume *vols = g_new0(DmkVolume, MAX_VOLUMES);
    int n = dmk_os_list_volumes(vols, MAX_VOLUMES);
    for (int i = 0; i < n; i++) {
        char *name = vols[i].label[0] ? g_strdup_printf("%s (%s)", vols[i].path, vols[i].label)
                                      : g_strdup(vols[i].path);
        DmkTargetItem *item = item_new(DMK_TARGET_VOLUME, name, vols[i].path);
        item->volume = vols[i];
        item->has_volume = TRUE;
        g_list_store_append(store, item);
        g_object_unref(item);
        g_free(name);
    }
    g_free(vols);
}

/* Raw devices come after the folders, apart from them: a device is
 * never what a user picking a folder meant. Each says what uses it (the
 * platform's walk, dmk_os_device_usage); the title is made when shown,
 * from what the last check found. */
static void add_devices(GListStore *store)
{
    DmkDevice *devs = g_new0(DmkDevice, MAX_DEVICES);
    int n = dmk_os_list_devices(devs, MAX_DEVICES);
    for (int i = 0; i < n; i++) {
        DmkTargetItem *item = item_new(DMK_TARGET_DEVICE, devs[i].path, devs[i].path);
        item->device = devs[i];
        g_list_store_append(store, item);
        g_object_unref(item);
    }
    g_free(devs);
}

/* Inserts a folder item before the devices and "Choose folder…". */
static guint insert_folder(GListStore *store, const char *name, const char *path)
{
    DmkTargetItem *item = item_new(DMK_TARGET_FOLDER, name, path);
    find_volume(store, item);
    dmk_target_item_check(item);
    guint n = g_list_model_get_n_items(G_LIST_MODEL(store));
    guint pos = n;
    for (guint i = 0; i < n && pos == n; i++) {
        DmkTargetItem *it = g_list_model_get_item(G_LIST_MODEL(store), i);
        if (it->kind == DMK_TARGET_DEVICE || it->kind == DMK_TARGET_CHOOSE)
            pos = i;
        g_object_unref(it);
    }
    g_list_store_insert(store, pos, item);
    g_object_unref(item);
    return pos;
}

GListStore *dmk_target_list_new(void)
{
    GListStore *store = g_list_store_new(DMK_TYPE_TARGET_ITEM);
    add_volumes(store);
    /* The home folder first: on a desktop it is where a user may write. */
    DmkTargetItem *home = item_new(DMK_TARGET_FOLDER, _("Home folder"), g_get_home_dir());
    find_volume(store, home);
    dmk_target_item_check(home);
    g_list_store_insert(store, 0, home);
    g_object_unref(home);
    add_devices(store);
    DmkTargetItem *choose = item_new(DMK_TARGET_CHOOSE, _("Choose folder\u2026"), NULL);
    g_list_store_append(store, choose);
    g_object_unref(choose);
    return store;
}

guint dmk_target_list_find_or_add(GListStore *store, const char *path)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(store));
    for (guint i = 0; i < n; i++) {
        DmkTargetItem *item = g_list_model_get_item(G_LIST_MODEL(store), i);
        gboolean same =
            item->path && strcmp(item->path, path) == 0 && dmk_target_item_is_selectable(item);
        g_object_unref(item);
        if (same)
            return i;
    }
    return insert_folder(store, path, path);
}

guint dmk_target_list_default(GListStore *store)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(store));
    for (guint i = 0; i < n; i++) {
        DmkTargetItem *item = g_list_model_get_item(G_LIST_MODEL(store), i);
        /* Never a device: destroying data is not a default. */
        gboolean ok = item->kind != DMK_TARGET_DEVICE && dmk_target_item_can_run(item) &&
                      (!item->has_volume || item->volume.usable);
        g_object_unref(item);
        if (ok)
            return i;
    }
    return 0;
}

/* ---- showing it ------------------------------------------------------- */

/* "18/252GiB" as CrystalDiskMark writes a drive's use, or MiB when small. */
static char *format_use(const DmkVolume *v)
{
    uint64_t used = v->size_bytes > v->free_bytes ? v->size_bytes - v->free_bytes : 0;
    int pct = v->size_bytes ? (int)((double)used * 100.0 / (double)v->size_bytes + 0.5) : 0;
    gboolean gib = v->size_bytes >= (1ULL << 30);
    unsigned shift = gib ? 30 : 20;
    /* TRANSLATORS: a drive's use, as CrystalDiskMark writes it: percent used,
     * then used and whole size in %3$s (GiB or MiB, not translated). */
    return g_strdup_printf(_("%1$d%% (%2$llu/%3$llu%4$s)"), pct,
                           (unsigned long long)(used >> shift),
                           (unsigned long long)(v->size_bytes >> shift), gib ? "GiB" : "MiB");
}

/* The second line in the list: what the file system is, or why not. */
static char *format_detail(DmkTargetItem *item)
{
    if (item->kind == DMK_TARGET_CHOOSE)
        return g_strdup(_("Benchmark the drive under any folder"));
    if (item->kind == DMK_TARGET_DEVICE) {
        char *size_s = g_format_size_full(item->device.size_bytes, G_FORMAT_SIZE_IEC_UNITS);
        const char *usage = dmk_target_item_get_usage(item);
        /* TRANSLATORS: after a device's size in the target list; %s is why. */
        char *what =
            item->problem ? g_strdup_printf(_("cannot be used: %s"), item->problem)
            /* TRANSLATORS: after a device's size in the target list; %s is what uses it. */
            : usage ? g_strdup_printf(_("%s: read tests only"), usage)
                    : g_strdup(_("raw disk: write tests erase it"));
        /* TRANSLATORS: the target list's line of a device: its model, its size, what it is. */
        char *d =
            item->device.model[0]
                ? g_strdup_printf(_("%1$s, %2$s \u2014 %3$s"), item->device.model, size_s, what)
                /* TRANSLATORS: the target list's line of a device: its size, what it is. */
                : g_strdup_printf(_("%1$s \u2014 %2$s"), size_s, what);
        g_free(what);
        g_free(size_s);
        return d;
    }
    /* A folder that cannot work says why, and no file system's figures:
     * those would be its parent's, made up for a place that is not there. */
    if (item->kind == DMK_TARGET_FOLDER && item->problem)
        /* TRANSLATORS: the target list's line of a folder: its path, why not. */
        return g_strdup_printf(_("%s \u2014 cannot be used: %s"), item->path, item->problem);
    if (!item->has_volume)
        return g_strdup(item->path);
    const DmkVolume *v = &item->volume;
    const char *dev = v->device[0] == '/' ? v->device : NULL;
    /* TRANSLATORS: a file system (ext4) on its device (/dev/sda1). */
    char *fs = dev ? g_strdup_printf(_("%s on %s"), v->fs_type, dev) : g_strdup(v->fs_type);
    char *free_s = g_format_size_full(v->free_bytes, G_FORMAT_SIZE_IEC_UNITS);
    char *size_s = g_format_size_full(v->size_bytes, G_FORMAT_SIZE_IEC_UNITS);
    char *detail =
        item->kind == DMK_TARGET_FOLDER
            /* TRANSLATORS: the target list's line of a folder: its path, its file system ("ext4 on
               /dev/sda1"), its free space. */
            ? g_strdup_printf(_("%1$s \u2014 %2$s, %3$s free"), item->path, fs, free_s)
            : !v->usable ? g_strdup_printf("%s \u2014 %s", fs, v->reason)
                         /* TRANSLATORS: the target list's line of a volume: its file system ("ext4
                            on /dev/sda1"), its free space and size. */
                         : g_strdup_printf(_("%1$s \u2014 %2$s free of %3$s"), fs, free_s, size_s);
    g_free(fs);
    g_free(free_s);
    g_free(size_s);
    return detail;
}

/* A device's first line in the list, by its state. */
static char *device_title(DmkTargetItem *item)
{
    if (item->problem)
        /* TRANSLATORS: the target list's title of a device (/dev/sdb). */
        return g_strdup_printf(_("Device (cannot be used): %s"), item->path);
    if (dmk_target_item_get_usage(item))
        /* TRANSLATORS: the target list's title of a device (/dev/sdb). */
        return g_strdup_printf(_("Device (in use, read only): %s"), item->path);
    /* TRANSLATORS: the target list's title of a device (/dev/sdb). */
    return g_strdup_printf(_("Device (destroys data): %s"), item->path);
}

/* The first line in the list: a volume's mount point, a folder's name, a
 * device's path, in use or with the warning (what uses it is the second
 * line's, which has room for a mount point's path). */
static char *format_title(DmkTargetItem *item)
{
    if (item->kind == DMK_TARGET_DEVICE)
        return device_title(item);
    if (item->kind != DMK_TARGET_FOLDER || strcmp(item->name, item->path) != 0)
        return g_strdup(item->name);
    return g_path_get_basename(item->path);
}

/* A device's line on the button, by its state. */
static char *device_compact(DmkTargetItem *item)
{
    if (item->problem)
        /* TRANSLATORS: the target button's line of a device (/dev/sdb). */
        return g_strdup_printf(_("%s  (device, cannot be used)"), item->path);
    if (dmk_target_item_get_usage(item))
        /* TRANSLATORS: the target button's line of a device (/dev/sdb). */
        return g_strdup_printf(_("%s  (device, in use: read only)"), item->path);
    /* TRANSLATORS: the target button's line of a device (/dev/sdb). */
    return g_strdup_printf(_("%s  (device)"), item->path);
}

/* The button's single line, short as CrystalDiskMark's "C: 19% (18/252GiB)":
 * a volume's mount point, "Home", or a folder's own name. */
static char *format_compact(DmkTargetItem *item)
{
    if (item->kind == DMK_TARGET_CHOOSE)
        return g_strdup(item->name);
    if (item->kind == DMK_TARGET_DEVICE)
        return device_compact(item);
    char *name = item->kind == DMK_TARGET_VOLUME ? g_strdup(item->path)
                 /* TRANSLATORS: the target button's short name of the home folder. */
                 : strcmp(item->name, item->path) != 0 ? g_strdup(C_("folder", "Home"))
                                                       : g_path_get_basename(item->path);
    if (item->kind == DMK_TARGET_FOLDER && item->problem) {
        /* TRANSLATORS: the target button's line of a folder; %s is its name. */
        char *line = g_strdup_printf(_("%s  (cannot be used)"), name);
        g_free(name);
        return line;
    }
    if (!item->has_volume)
        return name;
    char *use = format_use(&item->volume);
    char *line = g_strdup_printf("%s  %s", name, use);
    g_free(use);
    g_free(name);
    return line;
}

char *dmk_target_item_describe(DmkTargetItem *item, gboolean detail)
{
    return detail ? format_detail(item) : format_title(item);
}

static void setup_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer compact)
{
    (void)f;
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *title = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    /* The end of a path says more than its start; so does the space used. */
    gtk_label_set_ellipsize(GTK_LABEL(title),
                            compact ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_MIDDLE);
    gtk_box_append(GTK_BOX(box), title);
    if (!compact) {
        GtkWidget *detail = gtk_label_new(NULL);
        gtk_label_set_xalign(GTK_LABEL(detail), 0);
        gtk_widget_add_css_class(detail, "dim-label");
        gtk_widget_add_css_class(detail, "caption");
        gtk_box_append(GTK_BOX(box), detail);
    } else {
        /* Short when the window is narrow, whole when there is room. */
        gtk_label_set_max_width_chars(GTK_LABEL(title), 28);
        gtk_widget_set_hexpand(title, TRUE);
    }
    gtk_list_item_set_child(li, box);
}

static void bind_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer compact)
{
    (void)f;
    DmkTargetItem *item = gtk_list_item_get_item(li);
    GtkWidget *box = gtk_list_item_get_child(li);
    GtkWidget *title = gtk_widget_get_first_child(box);
    gboolean selectable = dmk_target_item_can_run(item) || item->kind == DMK_TARGET_CHOOSE;
    char *text = compact ? format_compact(item) : format_title(item);
    gtk_label_set_text(GTK_LABEL(title), text);
    g_free(text);
    if (!compact) {
        char *detail = format_detail(item);
        gtk_label_set_text(GTK_LABEL(gtk_widget_get_next_sibling(title)), detail);
        g_free(detail);
        /* Unusable rows stay in view, greyed, saying why. They stay
         * activatable (for the theme's row padding); the window puts the
         * selection back when an unusable volume is picked, and a folder
         * that cannot work stays chosen with Run disabled, saying why. */
        gtk_widget_set_sensitive(box, selectable);
    }
}

static GtkListItemFactory *row_factory(gboolean compact)
{
    GtkListItemFactory *f = gtk_signal_list_item_factory_new();
    g_signal_connect(f, "setup", G_CALLBACK(setup_row), GINT_TO_POINTER(compact));
    g_signal_connect(f, "bind", G_CALLBACK(bind_row), GINT_TO_POINTER(compact));
    return f;
}

void dmk_target_list_attach(GtkDropDown *dropdown, GListStore *store)
{
    GtkListItemFactory *button = row_factory(TRUE);
    GtkListItemFactory *list = row_factory(FALSE);
    gtk_drop_down_set_factory(dropdown, button);
    gtk_drop_down_set_list_factory(dropdown, list);
    gtk_drop_down_set_model(dropdown, G_LIST_MODEL(store));
    g_object_unref(button);
    g_object_unref(list);
}
