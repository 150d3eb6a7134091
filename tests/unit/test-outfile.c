/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-outfile: a result file is replaced only when the new one is
 * complete (a temporary file beside it, renamed over it); a failed write
 * keeps the old file and leaves no temporary file; two spellings of one
 * file are the same file. Plain C: it also runs under Wine, where the
 * rename is MoveFileExW. */
#include "dmk-test.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#define make_dir(p)   _mkdir(p)
#define remove_dir(p) _rmdir(p)
#else
#include <unistd.h>
#define make_dir(p)   mkdir(p, 0755) /* the suite's tmp dir too: other users reach it */
#define remove_dir(p) rmdir(p)
#endif

#include "dmk-outfile.h"
#include "dmk-platform.h"

static char dir[1024];

static void path_of(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* Entries of dir but . and .. */
static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    DMK_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void slurp(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static int write_text(FILE *f, void *ctx, DmkError *err)
{
    (void)err;
    fputs(ctx, f);
    return DMK_OK;
}

/* Writes half, then fails as a full disk would. */
static int write_fails(FILE *f, void *ctx, DmkError *err)
{
    fputs(ctx, f);
    return dmk_error_errno(err, ENOSPC, "writing %s failed", "the test file");
}

static void test_replaces_when_complete(void)
{
    char path[1100], got[64];
    path_of("r.csv", path, sizeof path);
    put(path, "old result");
    DmkError err = {0};
    DMK_CHECK_INT(dmk_outfile_write(path, write_text, "new result", &err), DMK_OK);
    slurp(path, got, sizeof got);
    DMK_CHECK_STR(got, "new result");
    DMK_CHECK_INT(entries(), 1); /* no temporary file left */
    remove(path);
}

static void test_failure_keeps_old(void)
{
    char path[1100], got[64], want[1200];
    path_of("r.json", path, sizeof path);
    put(path, "old result");
    DmkError err = {0};
    DMK_CHECK(dmk_outfile_write(path, write_fails, "half of a new", &err) != DMK_OK);
    printf("# %s\n", err.msg);
    slurp(path, got, sizeof got);
    DMK_CHECK_STR(got, "old result");
    snprintf(want, sizeof want, "(the old %s was kept)", path);
    DMK_CHECK(strstr(err.msg, want) != NULL);
    DMK_CHECK_INT(entries(), 1);
    remove(path);
}

static void test_failure_creates_nothing(void)
{
    char path[1100], want[1200];
    path_of("new.csv", path, sizeof path);
    DmkError err = {0};
    DMK_CHECK(dmk_outfile_write(path, write_fails, "half", &err) != DMK_OK);
    snprintf(want, sizeof want, "(%s was not created)", path);
    DMK_CHECK(strstr(err.msg, want) != NULL);
    DMK_CHECK_INT(entries(), 0);
}

static void test_missing_directory(void)
{
    char path[1100], want[1200];
    path_of("none/r.csv", path, sizeof path);
    DmkOutFile o;
    DmkError err = {0};
    DMK_CHECK(dmk_outfile_check(&o, path, &err) != DMK_OK);
    snprintf(want, sizeof want, "opening %s for writing failed: ", path);
    DMK_CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    DMK_CHECK_INT(entries(), 0);
}

static void test_same_file(void)
{
    char a[1100], b[1100], c[1100];
    path_of("F.csv", a, sizeof a);
    path_of("./F.csv", b, sizeof b);
    path_of("G.csv", c, sizeof c);
    DmkOutFile oa, ob, oc, s1, s2;
    DmkError err = {0};
    /* before the file exists: by the directory's real path and the name */
    DMK_CHECK_INT(dmk_outfile_check(&oa, a, &err), DMK_OK);
    DMK_CHECK_INT(dmk_outfile_check(&ob, b, &err), DMK_OK);
    DMK_CHECK_INT(dmk_outfile_check(&oc, c, &err), DMK_OK);
    DMK_CHECK(dmk_outfile_same(&oa, &ob));
    DMK_CHECK(!dmk_outfile_same(&oa, &oc));
    /* existing: by identity */
    put(a, "x");
    DMK_CHECK_INT(dmk_outfile_check(&oa, a, &err), DMK_OK);
    DMK_CHECK_INT(dmk_outfile_check(&ob, b, &err), DMK_OK);
    DMK_CHECK(dmk_outfile_same(&oa, &ob));
    DMK_CHECK_INT(dmk_outfile_check(&s1, "-", &err), DMK_OK);
    DMK_CHECK_INT(dmk_outfile_check(&s2, "-", &err), DMK_OK);
    DMK_CHECK(dmk_outfile_same(&s1, &s2));
    DMK_CHECK(!dmk_outfile_same(&s1, &oa));
    remove(a);
}

/* Two new names differing only in case are one file where case is
 * ignored (vfat, NTFS): refused; an output over an existing input is
 * found by identity (and on Windows by the case-blind path). */
static void test_case_and_inputs(void)
{
    char up[1100], low[1100], in[1100], in2[1100];
    path_of("R.json", up, sizeof up);
    path_of("r.JSON", low, sizeof low);
    path_of("in.csv", in, sizeof in);
    path_of("./in.csv", in2, sizeof in2);
    DmkOutFile a, b, o;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_outfile_check(&a, up, &err), DMK_OK);
    DMK_CHECK_INT(dmk_outfile_check(&b, low, &err), DMK_OK);
    DMK_CHECK(dmk_outfile_same(&a, &b));
    put(in, "x");
    DMK_CHECK_INT(dmk_outfile_check(&o, in2, &err), DMK_OK);
    DMK_CHECK(dmk_outfile_is_input(&o, in));
    DMK_CHECK(!dmk_outfile_is_input(&a, in)); /* a new file is not the input */
    DMK_CHECK_INT(dmk_outfile_check(&o, in, &err), DMK_OK);
    /* the whole cycle after the up-front probe: nothing else left */
    DMK_CHECK_INT(dmk_outfile_begin(&o, &err), DMK_OK);
    fputs("new", o.f);
    DMK_CHECK_INT(dmk_outfile_commit(&o, &err), DMK_OK);
    remove(in);
    DIR *dp = opendir(dir);
    int left = 0;
    for (struct dirent *e; dp && (e = readdir(dp));)
        left += e->d_name[0] != '.' || strncmp(e->d_name, ".drivemark-", 11) == 0;
    if (dp)
        closedir(dp);
    DMK_CHECK_INT(left, 0);
}

int main(void)
{
    const char *base = getenv("DMK_TEST_TMPDIR");
    snprintf(dir, sizeof dir, "%s%soutfile-%llu", base ? base : "", base ? "/" : "",
             (unsigned long long)(dmk_entropy64() % 1000000000ULL));
    if (base)
        make_dir(base);
    if (make_dir(dir) != 0) {
        printf("Bail out! cannot make %s: %s\n", dir, strerror(errno));
        return 1;
    }
    DMK_TEST(test_replaces_when_complete);
    DMK_TEST(test_failure_keeps_old);
    DMK_TEST(test_failure_creates_nothing);
    DMK_TEST(test_missing_directory);
    DMK_TEST(test_same_file);
    DMK_TEST(test_case_and_inputs);
    remove_dir(dir);
    return dmk_test_done();
}
