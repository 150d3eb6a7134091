/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A raw device handed over as an open descriptor (the window obtains one
 * from UDisks2 where the user may not open the node): the Linux target
 * takes it only when it is that block device, opened for direct I/O (and,
 * for a run that writes, read-write and without O_SYNC), after the same
 * consent as a path; it never opens the path; and the run closes the
 * descriptor once, however it ends. The node checked is a block device
 * node made here (root) or one of /dev's, only stat()ed: what the
 * descriptors are is regular files, so nothing here reads or writes a
 * device. A real device through a real udisksd is
 * tests/integration/test_udisks.py. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-test-spec.h"
#include "dmk-test.h"

static char node[1024]; /* a block device node, "" when none */
static char file[1024]; /* the regular file the descriptors open */
static char tmp[512];

/* An unused loop minor: a node of it can be made and stat()ed, and an
 * open of it would fail (ENXIO), which the tests would show. */
#define NODE_MAJOR 7
#define NODE_MINOR 250

static bool find_dev_node(void)
{
    DIR *d = opendir("/sys/block");
    struct dirent *e;
    struct stat st;
    while (d && (e = readdir(d)) != NULL) {
        snprintf(node, sizeof node, "/dev/%.200s", e->d_name);
        if (e->d_name[0] != '.' && stat(node, &st) == 0 && S_ISBLK(st.st_mode)) {
            closedir(d);
            return true;
        }
    }
    if (d)
        closedir(d);
    node[0] = '\0';
    return false;
}

static void setup(void)
{
    snprintf(tmp, sizeof tmp, "%s/devfd-XXXXXX", dmk_test_tmpdir());
    if (!mkdtemp(tmp))
        return;
    snprintf(file, sizeof file, "%s/stand-in", tmp);
    int fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    static char block[1 << 20];
    if (fd >= 0 && write(fd, block, sizeof block) != (ssize_t)sizeof block)
        file[0] = '\0';
    if (fd >= 0)
        close(fd);
    snprintf(node, sizeof node, "%s/blk", tmp);
    if (mknod(node, S_IFBLK | 0600, makedev(NODE_MAJOR, NODE_MINOR)) != 0)
        find_dev_node();
}

static void teardown(void)
{
    if (strncmp(node, tmp, strlen(tmp)) == 0)
        unlink(node);
    if (file[0])
        unlink(file);
    rmdir(tmp);
}

/* Opens the stand-in with flags; -1 (and a reason) where its file system
 * refuses direct I/O. */
static int open_file(int flags, const char **why)
{
    int fd = open(file, flags | O_CLOEXEC);
    if (fd < 0)
        *why = errno == EINVAL ? "the build dir's file system refuses O_DIRECT"
                               : "the stand-in file cannot be opened";
    return fd;
}

/* target_open of `node` with the descriptor `fd`: its code, message in err. */
static int open_with(int fd, bool write, const char *confirm, DmkError *err)
{
    DmkTargetParams p = {.dir = node, .device = true, .device_write = write};
    p.device_confirm = confirm;
    p.has_device_fd = true;
    p.device_fd = fd;
    DmkTarget *t = NULL;
    DmkTargetInfo info;
    memset(err, 0, sizeof *err);
    int rc = dmk_backend_native()->target_open(&p, &t, &info, err);
    if (rc == DMK_OK)
        dmk_backend_native()->target_close(t);
    /* The descriptor stays the caller's: target_open never closes it. */
    DMK_CHECK(fcntl(fd, F_GETFD) >= 0);
    return rc;
}

#define NEED_NODE()                                                 \
    do {                                                            \
        if (!node[0] || !file[0])                                   \
            DMK_SKIP("no block device node to stat (not root, and " \
                     "/dev has none), or no stand-in file");        \
    } while (0)

static void test_without_direct_io_refused(void)
{
    NEED_NODE();
    const char *why = NULL;
    int fd = open_file(O_RDONLY, &why);
    if (fd < 0)
        DMK_SKIP(why);
    DmkError err;
    DMK_CHECK_INT(open_with(fd, false, NULL, &err), DMK_E_NOTSUP);
    DMK_CHECK_HAS(err.msg, "the descriptor handed over for it was not opened for direct I/O "
                           "(O_DIRECT), and cached I/O would measure memory");
    DMK_CHECK_HAS(err.msg, node);
    close(fd);
}

static void test_read_only_descriptor_refused_for_writes(void)
{
    NEED_NODE();
    const char *why = NULL;
    int fd = open_file(O_RDONLY | O_DIRECT, &why);
    if (fd < 0)
        DMK_SKIP(why);
    DmkError err;
    DMK_CHECK_INT(open_with(fd, true, node, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, "refusing to write to");
    DMK_CHECK_HAS(err.msg, "was opened for reading only");
    close(fd);
}

static void test_write_only_descriptor_refused(void)
{
    NEED_NODE();
    const char *why = NULL;
    int fd = open_file(O_WRONLY | O_DIRECT, &why);
    if (fd < 0)
        DMK_SKIP(why);
    DmkError err;
    DMK_CHECK_INT(open_with(fd, false, NULL, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, "was opened for writing only, and every run reads");
    DMK_CHECK_INT(open_with(fd, true, node, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, "was opened for writing only");
    close(fd);
}

/* O_SYNC makes each direct write FUA: other numbers than the path's
 * open; refused for writes, harmless for reads (which then meet the
 * identity check instead). */
static void test_sync_descriptor_refused_for_writes(void)
{
    NEED_NODE();
    const char *why = NULL;
    int fd = open_file(O_RDWR | O_DIRECT | O_SYNC, &why);
    if (fd < 0)
        DMK_SKIP(why);
    DmkError err;
    DMK_CHECK_INT(open_with(fd, true, node, &err), DMK_E_NOTSUP);
    DMK_CHECK_HAS(err.msg, "was opened with O_SYNC, which makes every write a write-through (FUA)");
    DMK_CHECK_INT(open_with(fd, false, NULL, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, "is a regular file, not the device");
    close(fd);
}

/* A descriptor of something else than the named device is refused, for
 * reads and writes; the path itself is never opened (an open of the node
 * made here would fail with ENXIO, which would be the message). */
static void test_descriptor_of_another_file_refused(void)
{
    NEED_NODE();
    const char *why = NULL;
    int fd = open_file(O_RDWR | O_DIRECT, &why);
    if (fd < 0)
        DMK_SKIP(why);
    struct stat st;
    char real[PATH_MAX];
    DMK_CHECK(stat(node, &st) == 0 && realpath(node, real) != NULL);
    char want[PATH_MAX + 100];
    snprintf(want, sizeof want,
             "the descriptor handed over for it is a regular file, not the device %s (%u:%u)", real,
             major(st.st_rdev), minor(st.st_rdev));
    DmkError err;
    DMK_CHECK_INT(open_with(fd, true, node, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, want);
    DMK_CHECK_INT(open_with(fd, false, NULL, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, want);
    DMK_CHECK(strstr(err.msg, "No such device") == NULL);
    close(fd);
}

/* The typed name is asked before the descriptor is looked at, as before
 * a path is opened. */
static void test_write_without_consent_refused(void)
{
    NEED_NODE();
    const char *why = NULL;
    int fd = open_file(O_RDWR | O_DIRECT, &why);
    if (fd < 0)
        DMK_SKIP(why);
    DmkError err;
    DMK_CHECK_INT(open_with(fd, true, "/dev/other", &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, "device's name was not confirmed (/dev/other given)");
    DMK_CHECK_INT(open_with(fd, true, NULL, &err), DMK_E_PERM);
    DMK_CHECK_HAS(err.msg, "(none given)");
    close(fd);
}

static bool is_closed(int fd)
{
    return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

/* The run owns the descriptor: closed when the run returns, refused,
 * invalid or done (the null backend runs it: it opens no device). */
static void test_run_closes_the_descriptor(void)
{
    int pipes[2][2];
    DMK_CHECK(pipe2(pipes[0], O_CLOEXEC) == 0 && pipe2(pipes[1], O_CLOEXEC) == 0);
    DmkRunSpec *s = dmk_test_spec_new(tmp, 16 << 20, 0.2);
    s->has_device_fd = true;
    s->device_fd = pipes[0][0];
    dmk_test_spec_add(s, "SEQ1M Q1T1", DMK_MODE_READ, 0);
    DmkRunner *r = dmk_runner_new(s, dmk_backend_by_name("null"));
    DmkError err = {0};
    int rc = dmk_runner_run(r, NULL, NULL, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(is_closed(pipes[0][0]));
    dmk_runner_free(r);
    /* A spec refused before anything opens: closed too. */
    s->device_fd = pipes[1][0];
    s->n_tests = 0;
    r = dmk_runner_new(s, dmk_backend_by_name("null"));
    DMK_CHECK(dmk_runner_run(r, NULL, NULL, &err) != DMK_OK);
    DMK_CHECK(is_closed(pipes[1][0]));
    dmk_runner_free(r);
    close(pipes[0][1]);
    close(pipes[1][1]);
    free(s);
}

/* A runner that never ran (a window closed before the run's thread got
 * going) closes it when freed. */
static void test_unrun_runner_closes_the_descriptor(void)
{
    int p[2];
    DMK_CHECK(pipe2(p, O_CLOEXEC) == 0);
    DmkRunSpec *s = dmk_test_spec_new(tmp, 16 << 20, 0.2);
    s->has_device_fd = true;
    s->device_fd = p[0];
    DmkRunner *r = dmk_runner_new(s, dmk_backend_by_name("null"));
    DMK_CHECK(!is_closed(p[0]));
    dmk_runner_free(r);
    DMK_CHECK(is_closed(p[0]));
    close(p[1]);
    free(s);
}

int main(void)
{
    setup();
    DMK_TEST(test_without_direct_io_refused);
    DMK_TEST(test_read_only_descriptor_refused_for_writes);
    DMK_TEST(test_write_only_descriptor_refused);
    DMK_TEST(test_sync_descriptor_refused_for_writes);
    DMK_TEST(test_descriptor_of_another_file_refused);
    DMK_TEST(test_write_without_consent_refused);
    DMK_TEST(test_run_closes_the_descriptor);
    DMK_TEST(test_unrun_runner_closes_the_descriptor);
    teardown();
    return dmk_test_done();
}
