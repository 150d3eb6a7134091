/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The storage walk (dmk-storage-linux.c) on a fake sysfs/procfs tree, for
 * what this machine's kernel cannot make: device-mapper and md over
 * several devices, a RAM disk, nbd. The real kernel paths (loop devices,
 * partitions, zram, overlay, bindfs) are tried as root in
 * tests/integration/test_target_storage.py. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-drive-linux.h"
#include "dmk-storage-linux.h"
#include "dmk-test-tree.h"
#include "dmk-test.h"

static char root[PATH_MAX];
static char img[PATH_MAX + 8];

#define BLOCK "sys/devices/virtual/block/"

static void put(const char *rel, const char *text)
{
    dmk_tree_put(root, rel, text);
}

static void dir(const char *rel)
{
    dmk_tree_dir(root, rel);
}

static void link_to(const char *rel_link, const char *target)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", root, rel_link);
    DMK_CHECK(symlink(target, path) == 0);
}

/* A block device NAME (MAJ:MIN) under sys/devices/virtual/block, with
 * its sys/dev/block link. */
static void device(const char *name, const char *majmin)
{
    char rel[256], text[64], target[PATH_MAX * 2];
    snprintf(rel, sizeof rel, BLOCK "%s", name);
    dir(rel);
    snprintf(rel, sizeof rel, BLOCK "%s/dev", name);
    snprintf(text, sizeof text, "%s\n", majmin);
    put(rel, text);
    snprintf(rel, sizeof rel, "sys/dev/block/%s", majmin);
    snprintf(target, sizeof target, "%s/" BLOCK "%s", root, name);
    link_to(rel, target);
    snprintf(rel, sizeof rel, "sys/block/%s", name);
    link_to(rel, target);
}

static void slave(const char *holder, const char *name)
{
    char rel[256], target[64];
    snprintf(rel, sizeof rel, BLOCK "%s/slaves", holder);
    dir(rel);
    snprintf(rel, sizeof rel, BLOCK "%s/slaves/%s", holder, name);
    snprintf(target, sizeof target, "../../%s", name);
    link_to(rel, target);
}

/* sda, sdb: disks; sda1 a partition; dm-0 over sda and loop7, whose
 * backing file is img (on the build dir's file system, which the fake
 * mountinfo calls tmpfs); md127 over sda and sdb; zram0, ram0, nbd0;
 * loop8 not attached. */
static void make_tree(void)
{
    snprintf(root, sizeof root, "%s/storage-XXXXXX", dmk_test_tmpdir());
    DMK_CHECK(mkdtemp(root) != NULL);
    const char *dirs[] = {"sys",           "sys/block",   "sys/dev",
                          "sys/dev/block", "sys/devices", "sys/devices/virtual",
                          BLOCK,           "proc",        "proc/self"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        dir(dirs[i]);
    device("sda", "8:0");
    device("sdb", "8:16");
    dir(BLOCK "sda/sda1");
    put(BLOCK "sda/sda1/dev", "8:1\n");
    put(BLOCK "sda/sda1/partition", "1\n");
    char target[PATH_MAX * 2];
    snprintf(target, sizeof target, "%s/" BLOCK "sda/sda1", root);
    link_to("sys/dev/block/8:1", target);
    device("loop7", "7:7");
    device("loop8", "7:8");
    dir(BLOCK "loop7/loop");
    snprintf(img, sizeof img, "%s/img", root);
    put("img", "");
    char text[PATH_MAX * 2];
    snprintf(text, sizeof text, "%s\n", img);
    put(BLOCK "loop7/loop/backing_file", text);
    device("dm-0", "253:0");
    slave("dm-0", "sda");
    slave("dm-0", "loop7");
    device("md127", "9:127");
    slave("md127", "sda");
    slave("md127", "sdb");
    device("zram0", "252:0");
    device("ram0", "1:0");
    device("nbd0", "43:0");
    struct stat st;
    DMK_CHECK(stat(img, &st) == 0);
    snprintf(text, sizeof text,
             "22 1 8:0 / / rw,relatime shared:1 - ext4 /dev/sda rw\n"
             "30 22 %u:%u / /fake-ram rw shared:2 - tmpfs tmpfs rw\n",
             major(st.st_dev), minor(st.st_dev));
    put("proc/self/mountinfo", text);
}

static void remove_tree(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    DMK_CHECK(system(cmd) == 0);
}

static DmkLinuxStorage of(unsigned ma, unsigned mi)
{
    DmkLinuxStorage s;
    dmk_linux_storage_of_dev(root, makedev(ma, mi), &s);
    printf("# %u:%u: %d, %s\n", ma, mi, (int)s.kind, s.chain);
    return s;
}

/* The device ma:mi is storage of kind, described exactly as chain. */
static void check_of(unsigned ma, unsigned mi, DmkStorage kind, const char *chain)
{
    DmkLinuxStorage s = of(ma, mi);
    DMK_CHECK_INT(s.kind, kind);
    DMK_CHECK_STR(s.chain, chain);
}

static void test_disk_and_partition(void)
{
    check_of(8, 0, DMK_STORAGE_DISK, "/dev/sda");
    check_of(8, 1, DMK_STORAGE_DISK, "/dev/sda1, a partition of /dev/sda");
}

/* One RAM-backed leg is enough: the device measures memory in part. */
static void test_dm_over_disk_and_ram_loop(void)
{
    DmkLinuxStorage s = of(253, 0);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_RAM);
    char loop[PATH_MAX * 2];
    snprintf(loop, sizeof loop, "/dev/loop7, whose backing file %s is on tmpfs", img);
    DMK_CHECK(strncmp(s.chain, "/dev/dm-0 over /dev/", 20) == 0);
    DMK_CHECK(strstr(s.chain, loop) != NULL);
    DMK_CHECK(strstr(s.chain, "/dev/sda") != NULL);
    DMK_CHECK(strstr(s.chain, "; and ") != NULL);
}

static void test_md_over_disks(void)
{
    DmkLinuxStorage s = of(9, 127);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_DISK);
    DMK_CHECK(strcmp(s.chain, "/dev/md127 over /dev/sda; and /dev/sdb") == 0 ||
              strcmp(s.chain, "/dev/md127 over /dev/sdb; and /dev/sda") == 0);
}

static void test_ram_devices(void)
{
    check_of(252, 0, DMK_STORAGE_RAM, "/dev/zram0 (zram: compressed RAM)");
    check_of(1, 0, DMK_STORAGE_RAM, "/dev/ram0 (a RAM disk)");
}

/* The loop backing the raw-device guard can reuse: from sysfs alone on a
 * fake tree (no LOOP_GET_STATUS64 there). */
static void test_loop_backing(void)
{
    DmkLinuxLoopBacking b;
    DMK_CHECK(dmk_linux_loop_backing(root, "loop7", &b));
    DMK_CHECK_STR(b.path, img);
    struct stat st;
    DMK_CHECK(stat(img, &st) == 0);
    DMK_CHECK(b.known && b.path_ok && !b.is_device);
    DMK_CHECK(b.fs_dev == st.st_dev && b.ino == st.st_ino);
    DMK_CHECK(!dmk_linux_loop_backing(root, "loop8", &b)); /* not attached */
}

static void test_unknown(void)
{
    DmkLinuxStorage s = of(43, 0);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_UNKNOWN);
    check_of(7, 8, DMK_STORAGE_UNKNOWN, "/dev/loop8, which has no backing file (not attached)");
    check_of(99, 99, DMK_STORAGE_UNKNOWN, "device 99:99, which sysfs does not know");
}

/* A mount line as the drive list has it: overlay and FUSE by their
 * options and source, network file systems unknown. */
static void test_mount_lines(void)
{
    DmkMountLine m;
    DmkLinuxStorage s;
    char line[PATH_MAX * 3];
    snprintf(line, sizeof line,
             "40 22 0:40 / /o rw - overlay overlay rw,lowerdir=/l,upperdir=%s,workdir=/w\n", root);
    DMK_CHECK(dmk_mountinfo_parse(line, &m));
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_RAM); /* root is on "tmpfs" in the fake table */
    DMK_CHECK(strncmp(s.chain, "overlay, whose upper layer ", 27) == 0);
    DMK_CHECK(dmk_mountinfo_parse("41 22 0:41 / /n rw - nfs4 srv:/x rw,vers=4.2\n", &m));
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_UNKNOWN);
    DMK_CHECK_STR(s.chain, "nfs4 from srv:/x, a server's storage");
    DMK_CHECK(dmk_mountinfo_parse("42 22 0:42 / /s rw - fuse.sshfs u@h:/ rw\n", &m));
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_UNKNOWN);
    DMK_CHECK(dmk_mountinfo_parse("43 22 0:43 / /r rw - overlay overlay rw,lowerdir=/a:/b\n", &m));
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_UNKNOWN);
    snprintf(line, sizeof line, "44 22 0:44 / /e rw - ecryptfs %s rw,ecryptfs_sig=x\n", root);
    DMK_CHECK(dmk_mountinfo_parse(line, &m));
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_RAM); /* over root, "tmpfs" in the fake table */
    DMK_CHECK(strncmp(s.chain, "ecryptfs over ", 14) == 0);
    DMK_CHECK(dmk_mountinfo_parse("45 22 0:45 / /z rw - zfs tank/home rw,xattr\n", &m));
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_DISK);
}

/* A loop device without direct I/O (loop/dio 0) is named on the way
 * down, also under device-mapper; with dio 1, or with no dio file (an
 * old kernel), nothing is. */
static void test_buffered_loop(void)
{
    put(BLOCK "loop7/loop/dio", "0\n");
    DmkLinuxStorage s = of(7, 7);
    DMK_CHECK_STR(s.cached_loop, "loop7");
    s = of(253, 0);
    DMK_CHECK_STR(s.cached_loop, "loop7");
    s = of(8, 0);
    DMK_CHECK_STR(s.cached_loop, "");
    put(BLOCK "loop7/loop/dio", "1\n");
    s = of(7, 7);
    DMK_CHECK_STR(s.cached_loop, "");
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/" BLOCK "loop7/loop/dio", root);
    DMK_CHECK(unlink(path) == 0);
    s = of(7, 7);
    DMK_CHECK_STR(s.cached_loop, "");
}

/* A FUSE mount's source directory is followed through the mount's own
 * root (mountinfo's fourth field: a bind mount of MNT/a shows "/a"). */
static void test_fuse_mount_root(void)
{
    char line[PATH_MAX * 2], want[PATH_MAX * 2];
    DmkMountLine m;
    DmkLinuxStorage s;
    dir("a");
    snprintf(line, sizeof line, "46 22 0:46 /a /b rw - fuse %s rw\n", root);
    DMK_CHECK(dmk_mountinfo_parse(line, &m));
    DMK_CHECK_STR(m.root, "/a");
    DMK_CHECK_INT(m.id, 46);
    DMK_CHECK_INT(m.parent, 22);
    DMK_CHECK_STR(m.mnt, "/b");
    dmk_linux_storage_of_mount(root, &m, &s);
    snprintf(want, sizeof want, "FUSE over %s/a, which is on tmpfs", root);
    DMK_CHECK_STR(s.chain, want);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_RAM); /* root's file system is "tmpfs" in the fake table */
}

/* Options longer than DmkMountLine holds (an overlay of many layers): the
 * parse says they were cut, at a whole option, and the walk reads them
 * whole again from mountinfo by the mount's id, so an upperdir past the
 * cut is still followed (to "tmpfs" here); a relative upperdir is
 * unknown, never followed from our own directory. */
static void test_long_overlay_options(void)
{
    size_t len = 3 * sizeof(((DmkMountLine *)0)->super_opts);
    char *line = malloc(len + PATH_MAX * 2), *table = malloc(len + PATH_MAX * 4);
    DMK_CHECK(line && table);
    if (!line || !table)
        return;
    int n = snprintf(line, len, "47 22 0:47 / /ov rw - overlay overlay rw,lowerdir=");
    for (int i = 0; (size_t)n < len - 64; i++)
        n += snprintf(line + n, len - (size_t)n, "%s/lower%04d", i ? ":" : "", i);
    snprintf(line + n, len + PATH_MAX * 2 - (size_t)n, ",upperdir=%s,workdir=/w\n", root);
    DmkMountLine m;
    DmkLinuxStorage s;
    DMK_CHECK(dmk_mountinfo_parse(line, &m));
    DMK_CHECK(m.super_opts_cut);
    DMK_CHECK(strstr(m.super_opts, "upperdir=") == NULL);
    DMK_CHECK_STR(m.super_opts, "rw"); /* lowerdir= did not fit whole: left out */
    /* Not in the table: the options cannot be read whole, so unknown. */
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_UNKNOWN);
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
    FILE *f = fopen(path, "a");
    DMK_CHECK(f != NULL);
    if (f) {
        fputs(line, f);
        fclose(f);
    }
    char *all = dmk_mountinfo_super_opts(root, &m);
    DMK_CHECK(all != NULL && strstr(all, ",upperdir=") != NULL && strstr(all, ",workdir=/w"));
    free(all);
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_RAM); /* root is on "tmpfs" in the fake table */
    DMK_CHECK(strncmp(s.chain, "overlay, whose upper layer ", 27) == 0);
    DMK_CHECK(dmk_mountinfo_parse(
        "48 22 0:48 / /ov2 rw - overlay overlay rw,lowerdir=l,upperdir=u,workdir=w\n", &m));
    DMK_CHECK(!m.super_opts_cut);
    dmk_linux_storage_of_mount(root, &m, &s);
    DMK_CHECK_INT(s.kind, DMK_STORAGE_UNKNOWN);
    DMK_CHECK(strstr(s.chain, "\"u\" is a relative path") != NULL);
    /* A mount point too long for its field is said to be cut, and the
     * line still names its file system and source. */
    n = snprintf(line, len, "49 22 0:49 / /");
    for (int i = 0; i < 600; i++)
        line[n++] = 'd';
    snprintf(line + n, len - (size_t)n, " rw - overlay overlay rw,upperdir=/u\n");
    DMK_CHECK(dmk_mountinfo_parse(line, &m));
    DMK_CHECK(m.fields_cut);
    DMK_CHECK_STR(m.fstype, "overlay");
    DMK_CHECK(dmk_mountinfo_parse("50 22 0:50 / /x rw - ext4 /dev/sda1 rw\n", &m));
    DMK_CHECK(!m.fields_cut);
    free(line);
    free(table);
}

/* Notes that go into result files carry the OS's error text as the C
 * locale has it, whatever LC_MESSAGES says: files stay the same in every
 * language (drivemark-cli and the window set LC_MESSAGES from the user's
 * environment, and glibc translates strerror). */
static void test_file_notes_errno_in_c(void)
{
    char buf[128];
    DMK_CHECK_STR(dmk_linux_errno_text_c(EPERM, buf, sizeof buf), "Operation not permitted");
    const char *old = setlocale(LC_MESSAGES, NULL);
    char *saved = old ? strdup(old) : NULL;
    if (!setlocale(LC_MESSAGES, "de_DE.UTF-8")) {
        free(saved);
        DMK_SKIP("no de_DE.UTF-8 locale to translate strerror (setup.sh test makes one)");
    }
    printf("# de: strerror says \"%s\"\n", strerror(EPERM));
    DMK_CHECK_STR(dmk_linux_errno_text_c(EPERM, buf, sizeof buf), "Operation not permitted");
    setlocale(LC_MESSAGES, saved ? saved : "C");
    free(saved);
}

int main(void)
{
    make_tree();
    DMK_TEST(test_disk_and_partition);
    DMK_TEST(test_file_notes_errno_in_c);
    DMK_TEST(test_dm_over_disk_and_ram_loop);
    DMK_TEST(test_md_over_disks);
    DMK_TEST(test_ram_devices);
    DMK_TEST(test_loop_backing);
    DMK_TEST(test_unknown);
    DMK_TEST(test_mount_lines);
    DMK_TEST(test_buffered_loop);
    DMK_TEST(test_fuse_mount_root);
    DMK_TEST(test_long_overlay_options);
    remove_tree();
    return dmk_test_done();
}
