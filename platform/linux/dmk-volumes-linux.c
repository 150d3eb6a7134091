/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The drive list on Linux: /proc/self/mountinfo for what is mounted,
 * statvfs for size and free space. Pseudo file systems are left out;
 * RAM-backed, read-only and unwritable ones stay in the list, marked, so
 * the GUI can say why they cannot be chosen. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "dmk-i18n.h"
#include "dmk-mountinfo.h"
#include "dmk-platform.h"
#include "dmk-storage-linux.h"

/* What the engine needs at the least: the smallest test file plus slack. */
#define MIN_FREE_BYTES ((16ULL << 20) + (8ULL << 20))

/* Kernel file systems that hold no user data, and squashfs, whose snap
 * images would flood the list with read-only entries. */
static bool is_pseudo_fs(const char *fs)
{
    static const char *const pseudo[] = {
        "proc",       "sysfs",      "devtmpfs",  "devpts",   "cgroup",      "cgroup2",
        "securityfs", "debugfs",    "tracefs",   "pstore",   "bpf",         "mqueue",
        "hugetlbfs",  "configfs",   "fusectl",   "autofs",   "binfmt_misc", "efivarfs",
        "nsfs",       "rpc_pipefs", "selinuxfs", "squashfs", "fuse.portal", "fuse.gvfsd-fuse"};
    for (size_t i = 0; i < sizeof pseudo / sizeof pseudo[0]; i++)
        if (strcmp(fs, pseudo[i]) == 0)
            return true;
    return false;
}

static bool is_ram_backed(const DmkMountLine *m)
{
    return strcmp(m->fstype, "tmpfs") == 0 || strcmp(m->fstype, "ramfs") == 0 ||
           strncmp(m->source, "/dev/zram", 9) == 0;
}

/* The system's own tmpfs mounts (/run, /sys/fs/cgroup, /dev) are no
 * place for a benchmark and nobody looks for them; /dev/shm and /tmp are
 * where people do try, so those stay (disabled, with the reason). */
static bool is_system_ram_mount(const DmkMountLine *m)
{
    static const char *const prefixes[] = {"/run", "/sys", "/proc", "/dev"};
    if (!is_ram_backed(m) || strcmp(m->mnt, "/dev/shm") == 0)
        return false;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(m->mnt, prefixes[i], n) == 0 && (m->mnt[n] == '/' || m->mnt[n] == '\0'))
            return true;
    }
    return false;
}

/* Whether the comma-separated mount options hold the word "ro". */
static bool has_ro_option(const char *opts)
{
    size_t n = strcspn(opts, ",");
    return n == 2 && strncmp(opts, "ro", 2) == 0;
}

/* The file system label from /dev/disk/by-label, "" when it has none. */
static void find_label(const char *source, char *buf, size_t len)
{
    char want[PATH_MAX], link[PATH_MAX + 300], got[PATH_MAX];
    buf[0] = '\0';
    if (strncmp(source, "/dev/", 5) != 0 || !realpath(source, want))
        return;
    DIR *d = opendir("/dev/disk/by-label");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(link, sizeof link, "/dev/disk/by-label/%s", e->d_name);
        if (realpath(link, got) && strcmp(got, want) == 0) {
            size_t n = strnlen(e->d_name, len - 1);
            memcpy(buf, e->d_name, n);
            buf[n] = '\0';
            dmk_mountinfo_unescape(buf); /* udev writes a space as \x20; octal is rare */
            break;
        }
    }
    closedir(d);
}

/* The first reason (most fundamental first) the volume cannot be a target. */
static void judge(const DmkMountLine *m, const struct statvfs *sv, DmkVolume *v)
{
    const char *why = NULL;
    if (is_ram_backed(m)) {
        bool zram = strncmp(m->source, "/dev/zram", 9) == 0;
        /* TRANSLATORS: why a file system cannot hold the test file, shown after its name in
         * the window's target list; %s is zram or the file system's type (tmpfs). */
        snprintf(v->reason, sizeof v->reason,
                 DMK_("RAM-backed (%s): would measure memory, not a drive"),
                 zram ? "zram" : m->fstype);
        v->usable = false;
        return;
    }
    /* The same resolution as the target's refusal: RAM under a loop
     * device, an overlay's upper layer, bindfs. */
    DmkLinuxStorage s;
    dmk_linux_storage_of_mount("", m, &s);
    if (s.kind == DMK_STORAGE_RAM) {
        /* TRANSLATORS: %s is what the storage is (in English): "/dev/loop3 over tmpfs". */
        snprintf(v->reason, sizeof v->reason,
                 DMK_("RAM-backed (%.300s): would measure memory, not a drive"), s.chain);
        v->usable = false;
        return;
    }
    if (has_ro_option(m->opts) || (sv->f_flag & ST_RDONLY))
        /* TRANSLATORS: why a file system cannot hold the test file (target list). */
        why = DMK_("read-only");
    else if (access(m->mnt, W_OK) != 0)
        why = DMK_("not writable by you: choose a folder on it");
    else if (v->free_bytes < MIN_FREE_BYTES)
        why = DMK_("not enough free space");
    v->usable = why == NULL;
    snprintf(v->reason, sizeof v->reason, "%s", why ? why : "");
}

/* Fills v from one mount; false when the mount is not worth listing. */
static bool describe(const DmkMountLine *m, DmkVolume *v)
{
    struct stat st;
    struct statvfs sv;
    if (is_pseudo_fs(m->fstype) || is_system_ram_mount(m))
        return false;
    /* Files bind-mounted into containers (/etc/hosts) are no targets. */
    if (stat(m->mnt, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    if (statvfs(m->mnt, &sv) != 0 || sv.f_blocks == 0)
        return false;
    memset(v, 0, sizeof *v);
    snprintf(v->path, sizeof v->path, "%s", m->mnt);
    snprintf(v->fs_type, sizeof v->fs_type, "%s", m->fstype);
    snprintf(v->device, sizeof v->device, "%s", m->source);
    find_label(m->source, v->label, sizeof v->label);
    v->size_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
    /* f_bavail, not f_bfree: blocks reserved for root are not ours. */
    v->free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
    judge(m, &sv, v);
    return true;
}

/* A later mount on the same directory hides the earlier one. */
static size_t slot_for(DmkVolume *out, size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i].path, path) == 0)
            return i;
    return n;
}

int dmk_os_list_volumes(DmkVolume *out, size_t max)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return DMK_E_NOENT;
    char line[4096];
    size_t n = 0;
    DmkMountLine m;
    DmkVolume v;
    while (fgets(line, sizeof line, f)) {
        if (!dmk_mountinfo_parse(line, &m) || !describe(&m, &v))
            continue;
        size_t i = slot_for(out, n, v.path);
        if (i == n && n == max)
            continue;
        out[i] = v;
        if (i == n)
            n++;
    }
    fclose(f);
    return (int)n;
}
