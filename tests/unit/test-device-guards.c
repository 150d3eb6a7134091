/* The raw device write guards on a fake sysfs/procfs tree, so that what
 * this machine's kernel cannot make (partitions, device-mapper and md
 * holders) is checked too: each refusal names what it found, and a
 * device in use by nothing passes. The real kernel paths are tried in
 * tests/integration/test_device.py on loop devices. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-target-linux.h"
#include "dmk-test.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    DMK_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void dir(const char *rel)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    DMK_CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
}

#define DISK "sys/devices/virtual/block/loop7"

/* loop7 (7:7) with partitions loop7p1 (259:1) and loop7p2 (259:2); nothing
 * mounted, no swap, no holders. */
static void make_tree(void)
{
    const char *base = getenv("DMK_TEST_TMPDIR");
    snprintf(root, sizeof root, "%s/guards-XXXXXX", base ? base : ".");
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

static int check(DmkError *err)
{
    dmk_error_clear(err);
    int rc = dmk_linux_device_check_unused(root, "/dev/loop7", makedev(7, 7), err);
    printf("# %s\n", rc == DMK_OK ? "passes" : err->msg);
    return rc;
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
    int rc = dmk_linux_device_check_unused(root, "/dev/sdz", makedev(8, 200), &err);
    DMK_CHECK(rc != DMK_OK);
    DMK_CHECK(strstr(err.msg, "refusing to write to /dev/sdz: its entry in sysfs") != NULL);
    printf("# %s\n", err.msg);
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

int main(void)
{
    DMK_TEST(test_unused_passes);
    DMK_TEST(test_disk_mounted);
    DMK_TEST(test_partition_mounted);
    DMK_TEST(test_partition_held_by_dm);
    DMK_TEST(test_disk_held_by_md);
    DMK_TEST(test_no_sysfs_entry_refuses);
    DMK_TEST(test_no_mountinfo_refuses);
    return dmk_test_done();
}
