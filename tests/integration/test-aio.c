/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The native backend (libaio; io_uring as well, run again with
 * DMK_TEST_NATIVE=io_uring) on a real file system: a temp dir under the
 * build dir (never tmpfs). Checks that runs at QD1 and QD32 measure something,
 * that the test file is really written (no holes, no unwritten extents,
 * random or zero data as asked), that unsuitable targets are refused with
 * a clear message, and that no file is left behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "dmk-runner.h"
#include "dmk-test.h"

#define MIB (1ULL << 20)

static char tmpdir[900];

static void make_tmpdir(void)
{
    const char *base = getenv("DMK_TEST_TMPDIR");
    if (!base)
        base = ".";
    mkdir(base, 0755);
    snprintf(tmpdir, sizeof tmpdir, "%s/aio-XXXXXX", base);
    if (!mkdtemp(tmpdir)) {
        printf("Bail out! mkdtemp under %s: %s\n", base, strerror(errno));
        exit(1);
    }
}

static int dir_entries(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static void spec_for(DmkRunSpec *s, const char *test, DmkMode mode, uint32_t share)
{
    DmkJob job;
    dmk_run_spec_init(s);
    snprintf(s->dir, sizeof s->dir, "%.999s", tmpdir);
    s->size = 64 * MIB;
    s->passes = 1;
    s->measure_s = 0.5;
    s->warmup_s = 0.2;
    s->interval_s = 0;
    if (dmk_job_parse_name(test, &job, NULL) == DMK_OK)
        dmk_run_spec_add(s, &job, mode, share, NULL);
}

/* ---- inspecting the live test file from the progress callback ----------- */

typedef struct {
    bool inspected;
    bool found;
    uint64_t size, allocated;
    int unwritten_extents;
    int zero_blocks, distinct_blocks; /* of 16 sampled 4 KiB blocks */
    int visible_entries;              /* names in the target dir during the run */
} Inspect;

/* The test file is open in this process; find it through /proc/self/fd. */
static int find_test_fd(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int found = -1;
    char link[300], target[4096];
    while (d && (e = readdir(d)) && found < 0) {
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        char real[4096];
        if (realpath(tmpdir, real) && strncmp(target, real, strlen(real)) == 0 &&
            target[strlen(real)] == '/')
            found = open(link, O_RDONLY);
    }
    if (d)
        closedir(d);
    return found;
}

static int count_unwritten(int fd, uint64_t size)
{
    size_t len = sizeof(struct fiemap) + 256 * sizeof(struct fiemap_extent);
    struct fiemap *fm = calloc(1, len);
    fm->fm_length = size;
    fm->fm_flags = FIEMAP_FLAG_SYNC;
    fm->fm_extent_count = 256;
    int unwritten = -1;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) == 0) {
        unwritten = 0;
        for (unsigned i = 0; i < fm->fm_mapped_extents; i++)
            if (fm->fm_extents[i].fe_flags & FIEMAP_EXTENT_UNWRITTEN)
                unwritten++;
    }
    free(fm);
    return unwritten;
}

static void sample_blocks(int fd, uint64_t size, Inspect *in)
{
    static unsigned char blocks[16][4096];
    static const unsigned char zero[4096];
    for (int i = 0; i < 16; i++) {
        off_t off = (off_t)((size / 16) * (uint64_t)i + 8192 * (uint64_t)i) & ~(off_t)4095;
        if (pread(fd, blocks[i], 4096, off) != 4096)
            continue;
        in->zero_blocks += memcmp(blocks[i], zero, 4096) == 0;
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= memcmp(blocks[i], blocks[j], 4096) == 0;
        in->distinct_blocks += !dup;
    }
}

static void on_progress(const DmkProgress *p, void *ud)
{
    Inspect *in = ud;
    if (in->inspected || p->stage != DMK_STAGE_MEASURE)
        return;
    in->inspected = true;
    in->visible_entries = dir_entries(tmpdir);
    int fd = find_test_fd();
    if (fd < 0)
        return;
    struct stat st;
    fstat(fd, &st);
    in->found = true;
    in->size = (uint64_t)st.st_size;
    in->allocated = (uint64_t)st.st_blocks * 512;
    in->unwritten_extents = count_unwritten(fd, in->size);
    sample_blocks(fd, in->size, in);
    close(fd);
}

static int run_inspected(DmkRunSpec *s, Inspect *in, DmkRunResult **res, DmkError *err)
{
    memset(in, 0, sizeof *in);
    DmkRunner *r = dmk_runner_new(s, dmk_backend_native());
    DmkRunCallbacks cb = {on_progress, NULL, in};
    int rc = dmk_runner_run(r, &cb, res, err);
    dmk_runner_free(r);
    return rc;
}

/* ---- tests -------------------------------------------------------------- */

static void check_run(const char *test, DmkMode mode, uint32_t share)
{
    static DmkRunSpec s;
    spec_for(&s, test, mode, share);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    Inspect in;
    int rc = run_inspected(&s, &in, &res, &err);
    if (rc != DMK_OK)
        printf("# %s: %s\n", test, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(res && res->complete && res->n_tests == 1);
    if (res && res->n_tests == 1) {
        const DmkTestResult *t = &res->tests[0];
        const DmkStats *st = &t->score.total;
        DMK_CHECK(st->ios > 0);
        DMK_CHECK_INT(st->bytes, st->ios * t->test.jobs[0].block_size);
        DMK_CHECK(st->mb_s > 0 && st->lat_mean_us > 0);
        DMK_CHECK(st->lat_min_us <= st->lat_p50_us && st->lat_p50_us <= st->lat_max_us);
        DMK_CHECK(strcmp(res->backend, dmk_backend_native()->name) == 0);
        DMK_CHECK(res->target.offset_align >= 512 && res->target.fs_type[0]);
        if (mode == DMK_MODE_READ)
            DMK_CHECK(t->score.write.ios == 0 && t->score.read.ios == st->ios);
        if (mode == DMK_MODE_WRITE)
            DMK_CHECK(t->score.read.ios == 0 && t->score.write.ios == st->ios);
        if (mode == DMK_MODE_MIX)
            DMK_CHECK(t->score.read.ios > 0 && t->score.write.ios > 0);
    }
    /* The file really is there and written while the test runs ... */
    DMK_CHECK(in.inspected && in.found);
    DMK_CHECK_INT(in.size, 64 * MIB);
    DMK_CHECK(in.allocated >= in.size);
    DMK_CHECK_INT(in.unwritten_extents, 0);
    DMK_CHECK_INT(in.zero_blocks, 0);
    /* Random data: the sampled blocks differ. Each 4 KiB of each write
     * has its own key (core/dmk-pool.h), so no two blocks are alike; a
     * constant buffer would give 1. */
    DMK_CHECK_INT(in.distinct_blocks, 16);
    DMK_CHECK_INT(in.visible_entries, 0); /* O_TMPFILE: it has no name */
    /* ... and gone afterwards. */
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
    dmk_run_result_free(res);
}

static void read_qd1(void)
{
    check_run("RND4K Q1T1", DMK_MODE_READ, 100);
}

static void read_qd32(void)
{
    check_run("RND4K Q32T1", DMK_MODE_READ, 100);
}

static void write_qd1(void)
{
    check_run("RND4K Q1T1", DMK_MODE_WRITE, 0);
}

static void write_qd32(void)
{
    check_run("RND4K Q32T1", DMK_MODE_WRITE, 0);
}

static void mix_qd1(void)
{
    check_run("RND4K Q1T1", DMK_MODE_MIX, 70);
}

static void mix_qd32(void)
{
    check_run("RND4K Q32T1", DMK_MODE_MIX, 70);
}

static void seq_threads(void)
{
    check_run("SEQ1M Q8T4", DMK_MODE_READ, 100);
}

static void zero_data(void)
{
    static DmkRunSpec s;
    spec_for(&s, "SEQ1M Q1T1", DMK_MODE_READ, 100);
    s.data = DMK_DATA_ZERO;
    DmkRunResult *res = NULL;
    DmkError err = {0};
    Inspect in;
    DMK_CHECK_INT(run_inspected(&s, &in, &res, &err), DMK_OK);
    DMK_CHECK(in.found);
    DMK_CHECK_INT(in.zero_blocks, 16);
    DMK_CHECK_INT(in.unwritten_extents, 0);
    dmk_run_result_free(res);
}

/* Where O_TMPFILE is missing, a named file is unlinked at once. */
static void named_fallback(void)
{
    static DmkRunSpec s;
    spec_for(&s, "RND4K Q32T1", DMK_MODE_WRITE, 0);
    setenv("DMK_TEST_NO_TMPFILE", "1", 1);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    Inspect in;
    int rc = run_inspected(&s, &in, &res, &err);
    unsetenv("DMK_TEST_NO_TMPFILE");
    DMK_CHECK_INT(rc, DMK_OK);
    DMK_CHECK(in.found);
    DMK_CHECK_INT(in.visible_entries, 0);
    DMK_CHECK_INT(in.zero_blocks, 0);
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
    dmk_run_result_free(res);
}

static int run_plain(DmkRunSpec *s, DmkError *err)
{
    DmkRunResult *res = NULL;
    DmkRunner *r = dmk_runner_new(s, dmk_backend_native());
    int rc = dmk_runner_run(r, NULL, &res, err);
    dmk_runner_free(r);
    dmk_run_result_free(res);
    return rc;
}

static void missing_dir(void)
{
    static DmkRunSpec s;
    spec_for(&s, "RND4K Q1T1", DMK_MODE_READ, 100);
    snprintf(s.dir, sizeof s.dir, "%.900s/does-not-exist", tmpdir);
    DmkError err = {0};
    DMK_CHECK_INT(run_plain(&s, &err), DMK_E_NOENT);
    DMK_CHECK(strstr(err.msg, "does-not-exist") != NULL);
    DMK_CHECK(strstr(err.msg, "No such file or directory") != NULL);
    DMK_CHECK_INT(access(s.dir, F_OK), -1); /* nothing was created */
}

static void not_a_dir(void)
{
    static DmkRunSpec s;
    char file[1000];
    snprintf(file, sizeof file, "%.900s/plain-file", tmpdir);
    FILE *f = fopen(file, "w");
    if (f)
        fclose(f);
    spec_for(&s, "RND4K Q1T1", DMK_MODE_READ, 100);
    snprintf(s.dir, sizeof s.dir, "%.999s", file);
    DmkError err = {0};
    DMK_CHECK_INT(run_plain(&s, &err), DMK_E_INVAL);
    DMK_CHECK(strstr(err.msg, "not a directory") != NULL);
    unlink(file);
}

static void tmpfs_refused(void)
{
    struct statfs sf;
    if (statfs("/dev/shm", &sf) != 0 || (unsigned long)sf.f_type != 0x01021994)
        DMK_SKIP("/dev/shm is not a tmpfs here");
    static DmkRunSpec s;
    spec_for(&s, "RND4K Q1T1", DMK_MODE_READ, 100);
    snprintf(s.dir, sizeof s.dir, "/dev/shm");
    DmkError err = {0};
    DMK_CHECK_INT(run_plain(&s, &err), DMK_E_NOTSUP);
    DMK_CHECK(strstr(err.msg, "RAM-backed") != NULL && strstr(err.msg, "tmpfs") != NULL);
}

/* A 512-byte block where the file system wants 4096 is refused before any
 * I/O, with the sector size in the message. */
static void alignment_checked(void)
{
    static DmkRunSpec s;
    spec_for(&s, "RND512 Q1T1", DMK_MODE_READ, 100);
    DmkRunResult *res = NULL;
    DmkError err = {0};
    DmkRunner *r = dmk_runner_new(&s, dmk_backend_native());
    int rc = dmk_runner_run(r, NULL, &res, &err);
    dmk_runner_free(r);
    if (rc == DMK_OK) {
        DMK_CHECK(res->target.offset_align <= 512);
        printf("# 512-byte direct I/O is allowed here (offset alignment %u)\n",
               res->target.offset_align);
    } else {
        DMK_CHECK_INT(rc, DMK_E_INVAL);
        DMK_CHECK(strstr(err.msg, "sector") != NULL);
    }
    dmk_run_result_free(res);
    DMK_CHECK_INT(dir_entries(tmpdir), 0);
}

int main(void)
{
    make_tmpdir();
    DMK_TEST(read_qd1);
    DMK_TEST(read_qd32);
    DMK_TEST(write_qd1);
    DMK_TEST(write_qd32);
    DMK_TEST(mix_qd1);
    DMK_TEST(mix_qd32);
    DMK_TEST(seq_threads);
    DMK_TEST(zero_data);
    DMK_TEST(named_fallback);
    DMK_TEST(missing_dir);
    DMK_TEST(not_a_dir);
    DMK_TEST(tmpfs_refused);
    DMK_TEST(alignment_checked);
    rmdir(tmpdir);
    return dmk_test_done();
}
