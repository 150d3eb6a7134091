/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The raw device write guards on a fake sysfs/procfs tree, so that what
 * this machine's kernel cannot make (partitions, device-mapper and md
 * holders, loop devices sharing a file, dm built on a partition) is
 * checked too: each refusal names what it found, and a
 * device in use by nothing passes. The real kernel paths are tried in
 * tests/integration/test_device.py on loop devices. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-platform.h"
#include "dmk-target-linux.h"
#include "dmk-test-tree.h"
#include "dmk-test.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
    dmk_tree_put(root, rel, text);
}

static void dir(const char *rel)
{
    dmk_tree_dir(root, rel);
}

#define DISK "sys/devices/virtual/block/loop7"

/* loop7 (7:7) with partitions loop7p1 (259:1) and loop7p2 (259:2), which
 * do not overlap; nothing mounted, no swap, no holders. */
static void make_tree(void)
{
    snprintf(root, sizeof root, "%s/guards-XXXXXX", dmk_test_tmpdir());
    DMK_CHECK(mkdtemp(root) != NULL);
    const char *dirs[] = {"sys",
                          "sys/dev",
                          "sys/dev/block",
                          "sys/devices",
                          "sys/devices/virtual",
                          "sys/devices/virtual/block",
                          DISK,
                          DISK "/holders",
                          DISK "/loop7p1",
                          DISK "/loop7p1/holders",
                          DISK "/loop7p2",
                          DISK "/loop7p2/holders",
                          "sys/class",
                          "sys/class/block",
                          "proc",
                          "proc/self"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        dir(dirs[i]);
    put(DISK "/dev", "7:7\n");
    put(DISK "/loop7p1/dev", "259:1\n");
    put(DISK "/loop7p1/partition", "1\n");
    put(DISK "/loop7p2/dev", "259:2\n");
    put(DISK "/loop7p2/partition", "2\n");
    /* Apart: sectors 2048-4095 and 4096-8191. */
    put(DISK "/loop7p1/start", "2048\n");
    put(DISK "/loop7p1/size", "2048\n");
    put(DISK "/loop7p2/start", "4096\n");
    put(DISK "/loop7p2/size", "4096\n");
    char link[PATH_MAX * 2], target[PATH_MAX * 2];
    snprintf(link, sizeof link, "%s/sys/dev/block/7:7", root);
    snprintf(target, sizeof target, "%s/" DISK, root);
    DMK_CHECK(symlink(target, link) == 0);
    put("proc/self/mountinfo", "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
                               "23 22 0:5 / /dev rw shared:2 - devtmpfs devtmpfs rw\n");
    put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");
}

static void remove_tree(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    DMK_CHECK(system(cmd) == 0);
}

/* The guard's verdict on writing to path (device number dev) in the
 * fake tree; the message, or that it passes, goes to the log. */
static int check_dev(const char *path, dev_t dev, DmkError *err)
{
    dmk_error_clear(err);
    int rc = dmk_linux_device_check_unused(root, path, dev, err);
    printf("# %s\n", rc == DMK_OK ? "passes" : err->msg);
    return rc;
}

/* The same for the tree's loop7, the device most cases are about. */
static int check(DmkError *err)
{
    return check_dev("/dev/loop7", makedev(7, 7), err);
}

static void test_unused_passes(void)
{
    DmkError err;
    make_tree();
    DMK_CHECK_INT(check(&err), DMK_OK);
    remove_tree();
}

static void test_disk_mounted(void)
{
    DmkError err;
    make_tree();
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "40 22 7:7 / /mnt/my\\040disk rw - ext4 /dev/loop7 rw\n");
    DMK_CHECK_INT(check(&err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/loop7: it is mounted at /mnt/my disk");
    remove_tree();
}

static void test_partition_mounted(void)
{
    DmkError err;
    make_tree();
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 259:2 / /mnt/x rw,nosuid - vfat /dev/loop7p2 rw\n");
    DMK_CHECK_INT(check(&err), DMK_E_PERM);
    DMK_CHECK_STR(
        err.msg,
        "refusing to write to /dev/loop7: its partition /dev/loop7p2 is mounted at /mnt/x");
    remove_tree();
}

static void test_partition_held_by_dm(void)
{
    DmkError err;
    make_tree();
    dir(DISK "/loop7p1/holders/dm-3");
    dir("sys/class/block/dm-3");
    dir("sys/class/block/dm-3/dm");
    put("sys/class/block/dm-3/dm/name", "vg0-home\n");
    DMK_CHECK_INT(check(&err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/loop7: its partition /dev/loop7p1 is held "
                           "by dm-3 (device-mapper \"vg0-home\")");
    remove_tree();
}

static void test_disk_held_by_md(void)
{
    DmkError err;
    make_tree();
    dir(DISK "/holders/md127");
    DMK_CHECK_INT(check(&err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/loop7: it is held by md127 (md RAID)");
    remove_tree();
}

static void test_no_sysfs_entry_refuses(void)
{
    DmkError err;
    make_tree();
    int rc = check_dev("/dev/sdz", makedev(8, 200), &err);
    DMK_CHECK(rc != DMK_OK);
    DMK_CHECK(strstr(err.msg, "refusing to write to /dev/sdz: its entry in sysfs") != NULL);
    remove_tree();
}

static void test_no_mountinfo_refuses(void)
{
    DmkError err;
    make_tree();
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
    unlink(path);
    DMK_CHECK(check(&err) != DMK_OK);
    DMK_CHECK(strstr(err.msg, "cannot be read, so its mounts cannot be checked") != NULL);
    remove_tree();
}

/* A second fake loop device, loop8 (7:8), and a third, loop9 (7:9), both
 * over the file img/a.img of the tree (the same inode); loop9 mounted. */
static void make_loops(void)
{
    const char *dirs[] = {"img",
                          "sys/block",
                          "sys/devices/virtual/block/loop8",
                          "sys/devices/virtual/block/loop8/loop",
                          "sys/devices/virtual/block/loop8/holders",
                          "sys/devices/virtual/block/loop9",
                          "sys/devices/virtual/block/loop9/loop",
                          "sys/devices/virtual/block/loop9/holders"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        dir(dirs[i]);
    put("img/a.img", "image\n");
    const char *names[] = {"loop8", "loop9"};
    for (int i = 0; i < 2; i++) {
        char rel[128], link[PATH_MAX * 2], target[PATH_MAX * 2];
        snprintf(rel, sizeof rel, "sys/devices/virtual/block/%s/dev", names[i]);
        put(rel, i == 0 ? "7:8\n" : "7:9\n");
        snprintf(rel, sizeof rel, "sys/devices/virtual/block/%s/loop/backing_file", names[i]);
        snprintf(target, sizeof target, "%s/img/a.img\n", root);
        put(rel, target);
        snprintf(target, sizeof target, "%s/sys/devices/virtual/block/%s", root, names[i]);
        snprintf(link, sizeof link, "%s/sys/block/%s", root, names[i]);
        DMK_CHECK(symlink(target, link) == 0);
        snprintf(link, sizeof link, "%s/sys/dev/block/7:%d", root, 8 + i);
        DMK_CHECK(symlink(target, link) == 0);
    }
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "44 22 7:9 / /srv/data rw - ext4 /dev/loop9 rw\n");
}

static void test_loop_sharing_file_with_mounted_loop(void)
{
    DmkError err;
    make_tree();
    make_loops();
    int rc = check_dev("/dev/loop8", makedev(7, 8), &err);
    DMK_CHECK_INT(rc, DMK_E_PERM);
    DMK_CHECK(strstr(err.msg, "refusing to write to /dev/loop8: /dev/loop9 is mounted at "
                              "/srv/data, and it shares storage with /dev/loop8 (/dev/loop8 "
                              "stores its data in the file ") == err.msg);
    DMK_CHECK(strstr(err.msg, "/img/a.img; /dev/loop9 stores its data in the file ") != NULL);
    remove_tree();
}

static void test_loop_sharing_file_unmounted(void)
{
    DmkError err;
    make_tree();
    make_loops();
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
    int rc = check_dev("/dev/loop8", makedev(7, 8), &err);
    DMK_CHECK_INT(rc, DMK_E_PERM);
    DMK_CHECK(strstr(err.msg, "/img/a.img is also used by /dev/loop9, a loop device") != NULL);
    remove_tree();
}

static void test_loop_with_unknown_backing_refuses(void)
{
    DmkError err;
    make_tree();
    make_loops();
    put("sys/devices/virtual/block/loop9/loop/backing_file", "/img/gone.img (deleted)\n");
    int rc = check_dev("/dev/loop7", makedev(7, 7), &err);
    DMK_CHECK(rc != DMK_OK);
    DMK_CHECK(strstr(err.msg, "what /dev/loop9 stores its data in (/img/gone.img (deleted)) "
                              "cannot be identified") != NULL);
    remove_tree();
}

/* A device-mapper target built on one partition: the mounted sibling
 * partition does not overlap it; built on the whole disk, it does. */
static void test_dm_on_partition_beside_mounted_one(void)
{
    DmkError err;
    make_tree();
    dir("sys/devices/virtual/block/dm-5");
    dir("sys/devices/virtual/block/dm-5/slaves");
    dir("sys/devices/virtual/block/dm-5/holders");
    dir("sys/class/block/loop7p1");
    dir("sys/class/block/loop7");
    put("sys/class/block/loop7p1/dev", "259:1\n");
    put("sys/class/block/loop7/dev", "7:7\n");
    put("sys/devices/virtual/block/dm-5/dev", "254:5\n");
    dir("sys/devices/virtual/block/dm-5/slaves/loop7p1");
    char link[PATH_MAX * 2], target[PATH_MAX * 2];
    snprintf(target, sizeof target, "%s/sys/devices/virtual/block/dm-5", root);
    snprintf(link, sizeof link, "%s/sys/dev/block/254:5", root);
    DMK_CHECK(symlink(target, link) == 0);
    snprintf(target, sizeof target, "%s/" DISK "/loop7p1", root);
    snprintf(link, sizeof link, "%s/sys/dev/block/259:1", root);
    DMK_CHECK(symlink(target, link) == 0);
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 259:2 / /mnt/x rw - vfat /dev/loop7p2 rw\n");
    int rc = check_dev("/dev/dm-5", makedev(254, 5), &err);
    DMK_CHECK_INT(rc, DMK_OK);
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 7:7 / /mnt/x rw - vfat /dev/loop7 rw\n");
    rc = check_dev("/dev/dm-5", makedev(254, 5), &err);
    DMK_CHECK_INT(rc, DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/dm-5: /dev/loop7 is mounted at /mnt/x, and "
                           "it shares storage with /dev/dm-5 (/dev/dm-5 is built on /dev/loop7p1; "
                           "/dev/loop7p1 is a partition of /dev/loop7)");
    remove_tree();
}

/* nbd0 (43:0) served by a local process (pid 4242) that has img/a.img
 * open, the file that the mounted loop9 also sits on. */
static void test_nbd_server_file_shared_with_mounted_loop(void)
{
    DmkError err;
    make_tree();
    make_loops();
    const char *dirs[] = {"sys/devices/virtual/block/nbd0",
                          "sys/devices/virtual/block/nbd0/holders", "proc/4242", "proc/4242/fd"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        dir(dirs[i]);
    put("sys/devices/virtual/block/nbd0/dev", "43:0\n");
    put("sys/devices/virtual/block/nbd0/pid", "4242\n");
    char link[PATH_MAX * 2], target[PATH_MAX * 2];
    snprintf(target, sizeof target, "%s/sys/devices/virtual/block/nbd0", root);
    snprintf(link, sizeof link, "%s/sys/dev/block/43:0", root);
    DMK_CHECK(symlink(target, link) == 0);
    snprintf(target, sizeof target, "%s/img/a.img", root);
    snprintf(link, sizeof link, "%s/proc/4242/fd/3", root);
    DMK_CHECK(symlink(target, link) == 0);
    int rc = check_dev("/dev/nbd0", makedev(43, 0), &err);
    DMK_CHECK_INT(rc, DMK_E_PERM);
    DMK_CHECK(
        strstr(err.msg, "refusing to write to /dev/nbd0: /dev/loop9 is mounted at /srv/data") ==
        err.msg);
    DMK_CHECK(strstr(err.msg, "/dev/nbd0 stores its data in the file ") != NULL);
    remove_tree();
}

/* The partitions of loop7 as device nodes of their own: sysfs links for
 * 259:1 and 259:2, so that they can be targets. */
static void link_partitions(void)
{
    for (int n = 1; n <= 2; n++) {
        char link[PATH_MAX * 2], target[PATH_MAX * 2];
        snprintf(target, sizeof target, "%s/" DISK "/loop7p%d", root, n);
        snprintf(link, sizeof link, "%s/sys/dev/block/259:%d", root, n);
        DMK_CHECK(symlink(target, link) == 0);
    }
}

/* An isohybrid image (a Debian live USB): partition 1 covers the whole
 * image and the EFI partition 2 lies inside it; the kernel adds both from
 * the table without checking overlap. Writing either writes the other.
 * Only a fake tree can show this: this machine's kernel adds partitions
 * through BLKPG (partx, addpart), which refuses overlapping ones, so
 * tests/integration cannot make them on a loop device. */
static void test_overlapping_partition_mounted_refuses(void)
{
    DmkError err;
    make_tree();
    link_partitions();
    put(DISK "/loop7p1/start", "0\n");
    put(DISK "/loop7p1/size", "8192\n");
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 259:2 / /boot/efi rw - vfat /dev/loop7p2 rw\n");
    DMK_CHECK_INT(check_dev("/dev/loop7p1", makedev(259, 1), &err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/loop7p1: /dev/loop7p2 is mounted at "
                           "/boot/efi, and it shares storage with /dev/loop7p1 (/dev/loop7p1 "
                           "overlaps /dev/loop7p2, a partition of the same disk)");
    /* The other way round: the covering partition mounted, the one
     * inside it written. */
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 259:1 / /run/live rw - iso9660 /dev/loop7p1 ro\n");
    DMK_CHECK_INT(check_dev("/dev/loop7p2", makedev(259, 2), &err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/loop7p2: /dev/loop7p1 is mounted at "
                           "/run/live, and it shares storage with /dev/loop7p2 (/dev/loop7p2 "
                           "overlaps /dev/loop7p1, a partition of the same disk)");
    /* Held (dm on the overlapping sibling) refuses too. */
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
    dir(DISK "/loop7p1/holders/dm-3");
    DMK_CHECK_INT(check_dev("/dev/loop7p2", makedev(259, 2), &err), DMK_E_PERM);
    DMK_CHECK(strstr(err.msg, "/dev/loop7p1 is held by dm-3") != NULL);
    remove_tree();
}

/* Partitions that only touch (one ends where the next starts) do not
 * overlap: a mounted neighbour leaves the other free to write. */
static void test_apart_partition_mounted_passes(void)
{
    DmkError err;
    make_tree();
    link_partitions();
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 259:2 / /mnt/x rw - vfat /dev/loop7p2 rw\n");
    DMK_CHECK_INT(check_dev("/dev/loop7p1", makedev(259, 1), &err), DMK_OK);
    remove_tree();
}

/* Where a sibling lies cannot be read: it may overlap, so refuse. */
static void test_partition_extent_unknown_refuses(void)
{
    DmkError err;
    make_tree();
    link_partitions();
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/" DISK "/loop7p2/start", root);
    DMK_CHECK(unlink(path) == 0);
    DMK_CHECK_INT(check_dev("/dev/loop7p1", makedev(259, 1), &err), DMK_E_IO);
    DMK_CHECK(strstr(err.msg, "refusing to write to /dev/loop7p1: where the partition "
                              "/dev/loop7p2 lies on its disk cannot be read") == err.msg);
    remove_tree();
}

/* sysfs fails a read of loop/backing_file (ENAMETOOLONG) when the path is
 * longer than a page; the device is still attached (its loop/ directory
 * is there) and may sit on anything: refused, not taken as detached. A
 * fake tree has no /dev/loop9 to ask LOOP_GET_STATUS64. */
static void test_loop_backing_unreadable_refuses(void)
{
    DmkError err;
    make_tree();
    make_loops();
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/sys/devices/virtual/block/loop9/loop/backing_file", root);
    DMK_CHECK(unlink(path) == 0);
    int rc = check_dev("/dev/loop7", makedev(7, 7), &err);
    DMK_CHECK_INT(rc, DMK_E_IO);
    DMK_CHECK(strstr(err.msg,
                     "refusing to write to /dev/loop7: what /dev/loop9 stores its data in "
                     "(unknown: its loop/backing_file in sysfs cannot be read") == err.msg);
    DMK_CHECK(strstr(err.msg, "cannot be identified, so it may share storage with /dev/loop7") !=
              NULL);
    /* Detached (no loop/ directory): nothing to share, it passes. */
    snprintf(path, sizeof path, "rm -rf '%s/sys/devices/virtual/block/loop9/loop'", root);
    DMK_CHECK(system(path) == 0);
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
    DMK_CHECK_INT(check_dev("/dev/loop7", makedev(7, 7), &err), DMK_OK);
    remove_tree();
}

/* An attached loop device whose dev cannot be read is not dropped. */
static void test_loop_devnum_unreadable_refuses(void)
{
    DmkError err;
    make_tree();
    make_loops();
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/sys/devices/virtual/block/loop9/dev", root);
    DMK_CHECK(unlink(path) == 0);
    DMK_CHECK_INT(check_dev("/dev/loop7", makedev(7, 7), &err), DMK_E_IO);
    DMK_CHECK(strstr(err.msg, "what /dev/loop9 stores its data in (its device number (") != NULL);
    remove_tree();
}

/* nbd0 connected by nbd-client (pid 4243), whose only descriptors are
 * its socket to a separate server: the export may be a mounted image,
 * and nothing here says which, so the write is refused. */
static void test_nbd_client_with_separate_server_refuses(void)
{
    DmkError err;
    make_tree();
    const char *dirs[] = {"sys/devices/virtual/block/nbd0",
                          "sys/devices/virtual/block/nbd0/holders", "proc/4243", "proc/4243/fd"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        dir(dirs[i]);
    put("sys/devices/virtual/block/nbd0/dev", "43:0\n");
    put("sys/devices/virtual/block/nbd0/pid", "4243\n");
    put("proc/4243/comm", "nbd-client\n");
    char link[PATH_MAX * 2], target[PATH_MAX * 2];
    snprintf(target, sizeof target, "%s/sys/devices/virtual/block/nbd0", root);
    snprintf(link, sizeof link, "%s/sys/dev/block/43:0", root);
    DMK_CHECK(symlink(target, link) == 0);
    snprintf(link, sizeof link, "%s/proc/4243/fd/3", root);
    DMK_CHECK(symlink("socket:[81234]", link) == 0);
    DMK_CHECK_INT(check_dev("/dev/nbd0", makedev(43, 0), &err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/nbd0: /dev/nbd0's storage cannot be known: "
                           "its server is another process (process 4243 (nbd-client), which "
                           "connected it, has no file or device open that could be the export)");
    remove_tree();
}

/* The kernel's answer to an O_EXCL open, as the test sets it: loop7p1 is
 * claimed (by dm-5, which is built on it, or by an unseen user). */
static int claimed_p1(const char *name, dev_t dev)
{
    (void)dev;
    return strcmp(name, "loop7p1") == 0 ? EBUSY : 0;
}

/* dm-5 (254:5) built on loop7p1, as in the test above. */
static void make_dm_on_p1(void)
{
    dir("sys/devices/virtual/block/dm-5");
    dir("sys/devices/virtual/block/dm-5/slaves");
    dir("sys/devices/virtual/block/dm-5/holders");
    dir("sys/devices/virtual/block/dm-5/slaves/loop7p1");
    dir("sys/class/block/dm-5");
    put("sys/class/block/dm-5/dev", "254:5\n");
    dir("sys/class/block/loop7p1");
    put("sys/class/block/loop7p1/dev", "259:1\n");
    put("sys/devices/virtual/block/dm-5/dev", "254:5\n");
    char link[PATH_MAX * 2], target[PATH_MAX * 2];
    snprintf(target, sizeof target, "%s/sys/devices/virtual/block/dm-5", root);
    snprintf(link, sizeof link, "%s/sys/dev/block/254:5", root);
    DMK_CHECK(symlink(target, link) == 0);
    link_partitions();
}

/* An LVM volume, a LUKS mapping, /dev/md0: the target claims its own
 * slaves, so their O_EXCL probe fails because of the target itself. That
 * claim (holders/ lists only the target) is no other user; the same
 * EBUSY with nobody listed (a mount in another namespace) still refuses.
 * This kernel has no dm or md, so the probe is the test's. */
static void test_slave_claimed_by_target_itself_passes(void)
{
    DmkError err;
    make_tree();
    make_dm_on_p1();
    dir(DISK "/loop7p1/holders/dm-5");
    dmk_linux_guard_set_claim_probe(claimed_p1);
    DMK_CHECK_INT(check_dev("/dev/dm-5", makedev(254, 5), &err), DMK_OK);
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/" DISK "/loop7p1/holders/dm-5", root);
    DMK_CHECK(rmdir(path) == 0);
    DMK_CHECK_INT(check_dev("/dev/dm-5", makedev(254, 5), &err), DMK_E_PERM);
    DMK_CHECK_STR(err.msg, "refusing to write to /dev/dm-5: /dev/loop7p1 is reported in use by "
                           "the kernel (an exclusive open failed: mounted, held or opened by "
                           "another program), and it shares storage with /dev/dm-5 (/dev/dm-5 "
                           "is built on /dev/loop7p1)");
    /* A second holder beside the target is another user. */
    dir(DISK "/loop7p1/holders/dm-5");
    dir(DISK "/loop7p1/holders/dm-6");
    DMK_CHECK_INT(check_dev("/dev/dm-5", makedev(254, 5), &err), DMK_E_PERM);
    DMK_CHECK(strstr(err.msg, "is held by dm-6") != NULL);
    dmk_linux_guard_set_claim_probe(NULL);
    remove_tree();
}

/* The device list's short words come from the same walk: what uses the
 * storage and, when it is not the device itself, which node. */
static bool usage_of(const char *path, dev_t dev, char *buf, size_t len)
{
    bool used = dmk_linux_device_usage(root, path, dev, buf, len);
    printf("# usage of %s: %s\n", path, used ? buf : "free");
    return used;
}

static void test_usage_texts(void)
{
    char use[384];
    make_tree();
    DMK_CHECK(!usage_of("/dev/loop7", makedev(7, 7), use, sizeof use));
    DMK_CHECK_STR(use, "");
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "40 22 7:7 / /mnt/my\\040disk rw - ext4 /dev/loop7 rw\n");
    DMK_CHECK(usage_of("/dev/loop7", makedev(7, 7), use, sizeof use));
    DMK_CHECK_STR(use, "mounted at /mnt/my disk");
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
                               "41 22 259:2 / /mnt/x rw - vfat /dev/loop7p2 rw\n");
    DMK_CHECK(usage_of("/dev/loop7", makedev(7, 7), use, sizeof use));
    DMK_CHECK_STR(use, "mounted at /mnt/x (loop7p2)");
    put("proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
    dir(DISK "/loop7p1/holders/dm-3");
    dir("sys/class/block/dm-3");
    dir("sys/class/block/dm-3/dm");
    put("sys/class/block/dm-3/dm/name", "vg0-home\n");
    DMK_CHECK(usage_of("/dev/loop7", makedev(7, 7), use, sizeof use));
    DMK_CHECK_STR(use, "held by dm-3 (device-mapper \"vg0-home\") on loop7p1");
    remove_tree();
}

/* Through a loop device over the same file, as the guard follows it. */
static void test_usage_through_shared_file(void)
{
    char use[384];
    make_tree();
    make_loops();
    DMK_CHECK(usage_of("/dev/loop8", makedev(7, 8), use, sizeof use));
    DMK_CHECK_STR(use, "mounted at /srv/data (loop9)");
    remove_tree();
}

/* A walk that cannot finish is no proof of a free device. */
static void test_usage_unknown_is_in_use(void)
{
    char use[384];
    make_tree();
    DMK_CHECK(usage_of("/dev/loop6", makedev(7, 6), use, sizeof use));
    DMK_CHECK(strncmp(use, "its users cannot be checked: ", 29) == 0);
    DMK_CHECK(strstr(use, "refusing") == NULL);
    remove_tree();
}

/* A device gone since it was listed (or a path that is no block
 * device) is said, not taken for a free one. */
static void test_usage_of_gone_device(void)
{
    char use[384], path[PATH_MAX];
    DMK_CHECK(dmk_os_device_usage("/dev/dmk-no-such-device", use, sizeof use) == DMK_E_NOENT);
    DMK_CHECK_STR(use, "No such file or directory");
    snprintf(path, sizeof path, "%s/not-a-device", dmk_test_tmpdir());
    FILE *f = fopen(path, "w");
    DMK_CHECK(f != NULL);
    fclose(f);
    DMK_CHECK(dmk_os_device_usage(path, use, sizeof use) == DMK_E_INVAL);
    DMK_CHECK_STR(use, "it is a regular file now, not a block device");
    unlink(path);
}

int main(void)
{
    DMK_TEST(test_unused_passes);
    DMK_TEST(test_disk_mounted);
    DMK_TEST(test_partition_mounted);
    DMK_TEST(test_partition_held_by_dm);
    DMK_TEST(test_disk_held_by_md);
    DMK_TEST(test_no_sysfs_entry_refuses);
    DMK_TEST(test_no_mountinfo_refuses);
    DMK_TEST(test_loop_sharing_file_with_mounted_loop);
    DMK_TEST(test_loop_sharing_file_unmounted);
    DMK_TEST(test_loop_with_unknown_backing_refuses);
    DMK_TEST(test_dm_on_partition_beside_mounted_one);
    DMK_TEST(test_nbd_server_file_shared_with_mounted_loop);
    DMK_TEST(test_overlapping_partition_mounted_refuses);
    DMK_TEST(test_apart_partition_mounted_passes);
    DMK_TEST(test_partition_extent_unknown_refuses);
    DMK_TEST(test_loop_backing_unreadable_refuses);
    DMK_TEST(test_loop_devnum_unreadable_refuses);
    DMK_TEST(test_nbd_client_with_separate_server_refuses);
    DMK_TEST(test_slave_claimed_by_target_itself_passes);
    DMK_TEST(test_usage_texts);
    DMK_TEST(test_usage_through_shared_file);
    DMK_TEST(test_usage_unknown_is_in_use);
    DMK_TEST(test_usage_of_gone_device);
    return dmk_test_done();
}
