/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The file-set test (core/dmk-fileset.h, dmk-lab-files.c): the sets are
 * the same bytes for the same seed (a known checksum), exactly the size
 * asked, with the documented distributions; written, copied, archived
 * and extracted on a real file system under $DMK_TEST_TMPDIR they read
 * back as planned; and a run through the runner leaves nothing after
 * success, an error, a stop and a refusal, and names what a killed run
 * left. Real files, small sets. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-crc32c.h"
#include "dmk-fileset.h"
#include "dmk-lab-findings.h"
#include "dmk-lab.h"
#include "dmk-platform.h"
#include "dmk-runner.h"
#include "dmk-test.h"

#define MIB (1ULL << 20)

/* The checksum of a set's bytes, from the generator alone. */
static uint32_t planned_crc(const DmkFileSet *s)
{
    unsigned char *buf = malloc(DMK_FILESET_CHUNK);
    uint32_t crc = 0;
    for (size_t i = 0; buf && i < s->n_files; i++) {
        crc = dmk_crc32c(crc, s->files[i].path, strlen(s->files[i].path));
        for (uint64_t off = 0; off < s->files[i].size; off += DMK_FILESET_CHUNK) {
            size_t n = s->files[i].size - off < DMK_FILESET_CHUNK ? (size_t)(s->files[i].size - off)
                                                                  : DMK_FILESET_CHUNK;
            dmk_fileset_content(s, i, off, buf, n);
            crc = dmk_crc32c(crc, buf, n);
        }
    }
    free(buf);
    return crc;
}

/* The same read from the files under root. */
static uint32_t disk_crc(const DmkFileSet *s, const char *root, uint64_t *bytes)
{
    unsigned char *buf = malloc(DMK_FILESET_CHUNK);
    uint32_t crc = 0;
    char p[2048];
    DmkError err;
    *bytes = 0;
    for (size_t i = 0; buf && i < s->n_files; i++) {
        crc = dmk_crc32c(crc, s->files[i].path, strlen(s->files[i].path));
        int fd = -1;
        dmk_tree_join(p, sizeof p, root, s->files[i].path, &err);
        if (dmk_tree_open(p, false, &fd, &err) != DMK_OK) {
            printf("# %s\n", err.msg);
            break;
        }
        int64_t n;
        while ((n = dmk_tree_read(fd, buf, DMK_FILESET_CHUNK, p, &err)) > 0) {
            crc = dmk_crc32c(crc, buf, (size_t)n);
            *bytes += (uint64_t)n;
        }
        dmk_tree_close(fd);
    }
    free(buf);
    return crc;
}

static void test_deterministic(void)
{
    /* Known answers: these pin every byte of the 16 MiB sets of the
     * project's seed; a change to the generator must change them on
     * purpose (results of two versions then compare different files). */
    static const uint32_t known[DMK_N_SETS] = {0x4d974efe, 0xf46e809e, 0x0a24410e};
    for (int k = 0; k < DMK_N_SETS; k++) {
        DmkFileSet a, b, c;
        DmkError err;
        DMK_CHECK(dmk_fileset_plan(&a, (DmkSetKind)k, 16 * MIB, DMK_FILESET_SEED, &err) == DMK_OK);
        DMK_CHECK(dmk_fileset_plan(&b, (DmkSetKind)k, 16 * MIB, DMK_FILESET_SEED, &err) == DMK_OK);
        DMK_CHECK(dmk_fileset_plan(&c, (DmkSetKind)k, 16 * MIB, DMK_FILESET_SEED + 1, &err) ==
                  DMK_OK);
        uint32_t ca = planned_crc(&a), cb = planned_crc(&b), cc = planned_crc(&c);
        printf("# %s: %zu files in %zu directories, crc32c %08x\n", dmk_set_name((DmkSetKind)k),
               a.n_files, a.n_dirs, ca);
        DMK_CHECK(ca == cb);
        DMK_CHECK(ca != cc);
        DMK_CHECK_INT(ca, known[k]);
        dmk_fileset_free(&a);
        dmk_fileset_free(&b);
        dmk_fileset_free(&c);
    }
}

static void test_sizes(void)
{
    const uint64_t sizes[] = {16 * MIB, 100 * MIB + 7, 8ULL << 30};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
        for (int k = 0; k < DMK_N_SETS; k++) {
            DmkFileSet s;
            DmkError err;
            DMK_CHECK(dmk_fileset_plan(&s, (DmkSetKind)k, sizes[j], 7, &err) == DMK_OK);
            uint64_t sum = 0;
            for (size_t i = 0; i < s.n_files; i++)
                sum += s.files[i].size;
            DMK_CHECK_INT(sum, sizes[j]);
            DMK_CHECK_INT(s.bytes, sizes[j]);
            if (k == DMK_SET_ISO)
                DMK_CHECK_INT(s.n_files, 4);
            dmk_fileset_free(&s);
        }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The documented distributions, on the 8 GiB sets the reviews use. */
static void test_distributions(void)
{
    DmkFileSet s;
    DmkError err;
    DMK_CHECK(dmk_fileset_plan(&s, DMK_SET_PROGRAM, 8ULL << 30, DMK_FILESET_SEED, &err) == DMK_OK);
    uint64_t *v = malloc(s.n_files * sizeof *v);
    for (size_t i = 0; v && i < s.n_files; i++)
        v[i] = s.files[i].size;
    qsort(v, s.n_files, sizeof *v, cmp_u64);
    size_t deepest = 0;
    for (size_t i = 0; i < s.n_dirs; i++) {
        size_t d = 1;
        for (const char *c = s.dirs[i]; *c; c++)
            d += *c == '/';
        deepest = d > deepest ? d : deepest;
    }
    printf("# Program 8 GiB: %zu files, median %llu bytes, %zu directories, %zu deep\n", s.n_files,
           (unsigned long long)v[s.n_files / 2], s.n_dirs, deepest);
    DMK_CHECK(s.n_files > 10000);
    DMK_CHECK_NEAR((double)v[s.n_files / 2], 18848.0, 18848.0 * 0.1);
    DMK_CHECK(deepest >= 5 && deepest <= 8);
    free(v);
    dmk_fileset_free(&s);

    DMK_CHECK(dmk_fileset_plan(&s, DMK_SET_WORK, 8ULL << 30, DMK_FILESET_SEED, &err) == DMK_OK);
    size_t count[4] = {0};
    uint64_t bytes[4] = {0};
    for (size_t i = 0; i < s.n_files; i++) {
        count[s.files[i].content]++;
        bytes[s.files[i].content] += s.files[i].size;
    }
    double gib = (double)(8ULL << 30) / 100.0;
    printf("# Work 8 GiB: %zu files: %zu documents, %zu photos and videos, %zu PDFs; by bytes "
           "%.1f, %.1f, %.1f %%\n",
           s.n_files, count[DMK_CONTENT_TEXT], count[DMK_CONTENT_RANDOM], count[DMK_CONTENT_MIXED],
           (double)bytes[DMK_CONTENT_TEXT] / gib, (double)bytes[DMK_CONTENT_RANDOM] / gib,
           (double)bytes[DMK_CONTENT_MIXED] / gib);
    /* The documented shares of the bytes (within 2 points: files are whole): 15 % documents, 20 %
     * PDFs, 65 % photos and videos; by count, documents the most. */
    DMK_CHECK_NEAR((double)bytes[DMK_CONTENT_TEXT] / gib, 15.0, 2.0);
    DMK_CHECK_NEAR((double)bytes[DMK_CONTENT_MIXED] / gib, 20.0, 2.0);
    DMK_CHECK_NEAR((double)bytes[DMK_CONTENT_RANDOM] / gib, 65.0, 2.0);
    DMK_CHECK(count[DMK_CONTENT_TEXT] > count[DMK_CONTENT_RANDOM]);
    dmk_fileset_free(&s);
}

static void scratch(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/fileset-%s", dmk_test_tmpdir(), name);
    DmkError err;
    dmk_tree_remove(buf, &err);
}

/* Written, copied, archived and extracted: the same bytes each time. */
static void test_on_disk(void)
{
    char root[1200], a[1300], b[1300], zip[1300], x[1300];
    scratch(root, sizeof root, "disk");
    DmkError err;
    DMK_CHECK(dmk_tree_mkdir(root, &err) == DMK_OK);
    snprintf(a, sizeof a, "%s/set", root);
    snprintf(b, sizeof b, "%s/copy", root);
    snprintf(zip, sizeof zip, "%s/set.zip", root);
    snprintf(x, sizeof x, "%s/extracted", root);
    for (int k = 0; k < DMK_N_SETS; k++) {
        DmkFileSet s;
        DMK_CHECK(dmk_fileset_plan(&s, (DmkSetKind)k, 16 * MIB, DMK_FILESET_SEED, &err) == DMK_OK);
        uint32_t want = planned_crc(&s);
        uint64_t bytes = 0;
        DMK_CHECK(dmk_fileset_write(&s, a, NULL, NULL, &err) == DMK_OK);
        DMK_CHECK(disk_crc(&s, a, &bytes) == want);
        DMK_CHECK_INT(bytes, 16 * MIB);
        DMK_CHECK(dmk_fileset_drop_cache(&s, a, &err) == DMK_OK);
        DMK_CHECK(dmk_fileset_copy(&s, a, b, NULL, NULL, &err) == DMK_OK);
        DMK_CHECK(disk_crc(&s, b, &bytes) == want);
        if (dmk_archive_available()) {
            uint64_t zb = 0;
            DMK_CHECK(dmk_archive_write(&s, a, zip, NULL, NULL, &zb, &err) == DMK_OK);
            DMK_CHECK(dmk_archive_extract(&s, zip, x, NULL, NULL, &err) == DMK_OK);
            DMK_CHECK(disk_crc(&s, x, &bytes) == want);
            printf("# %s 16 MiB: Deflate .zip %.1f %% of the set\n", dmk_set_name((DmkSetKind)k),
                   100.0 * (double)zb / (double)(16 * MIB));
            DMK_CHECK(dmk_tree_remove(zip, &err) == DMK_OK);
            DMK_CHECK(dmk_tree_remove(x, &err) == DMK_OK);
        }
        DMK_CHECK(dmk_tree_remove(a, &err) == DMK_OK);
        DMK_CHECK(dmk_tree_remove(b, &err) == DMK_OK);
        dmk_fileset_free(&s);
    }
    DMK_CHECK(dmk_tree_remove(root, &err) == DMK_OK);
}

/* ---- through the runner ---------------------------------------------------------- */

static size_t entries(const char *dir)
{
    char name[256];
    /* What the run may leave: its directory (the scratch folder holds
     * nothing else). */
    dmk_tree_find(dir, dmk_lab_files_prefix, name, sizeof name);
    return name[0] != 0;
}

typedef struct {
    DmkRunner *r;
    size_t stop_at; /* stop once step stop_at measures; SIZE_MAX never */
    bool saw_measure;
} StopAt;

static void on_progress(const DmkProgress *p, void *user)
{
    StopAt *s = user;
    if (p->stage == DMK_STAGE_MEASURE && p->test_index == s->stop_at) {
        s->saw_measure = true;
        dmk_runner_stop(s->r);
    }
}

static int run_files(const char *dir, uint64_t size, size_t stop_at, DmkRunResult **res,
                     DmkError *err)
{
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_FILES);
    p.span = size;
    DmkRunSpec *spec = malloc(sizeof *spec);
    dmk_run_spec_init(spec);
    snprintf(spec->dir, sizeof spec->dir, "%s", dir);
    int rc = dmk_lab_build(&p, spec, err);
    if (rc == DMK_OK) {
        DmkRunner *r = dmk_runner_new(spec, dmk_backend_native());
        StopAt s = {r, stop_at, false};
        DmkRunCallbacks cb = {on_progress, NULL, &s, NULL, NULL, NULL};
        rc = dmk_runner_run(r, &cb, res, err);
        dmk_runner_free(r);
        if (stop_at != SIZE_MAX)
            DMK_CHECK(s.saw_measure);
    }
    free(spec);
    return rc;
}

static void test_run_success(void)
{
    char dir[1200];
    scratch(dir, sizeof dir, "run");
    DmkError err;
    DMK_CHECK(dmk_tree_mkdir(dir, &err) == DMK_OK);
    DmkRunResult *res = NULL;
    int rc = run_files(dir, 16 * MIB, SIZE_MAX, &res, &err);
    if (rc != DMK_OK)
        printf("# %s\n", err.msg);
    DMK_CHECK(rc == DMK_OK);
    size_t steps = dmk_archive_available() ? DMK_LAB_FILE_STEPS : 3;
    DMK_CHECK(res && res->complete && res->n_tests == steps);
    DmkLabFindings *f = malloc(sizeof *f);
    dmk_lab_findings(res, f);
    DMK_CHECK_INT(f->n, steps);
    for (size_t i = 0; res && i < res->n_tests; i++) {
        const DmkLabFiles *x = &f->f[i].u.files;
        DMK_CHECK_STR(res->tests[i].test.label, dmk_lab_files_step_label(i));
        DMK_CHECK_INT(res->tests[i].score.total.bytes, 16 * MIB);
        DMK_CHECK(x->wall_s > 0 && x->mb_s > 0 && x->cpu_s >= 0 && x->cpu_s < x->wall_s * 2.0);
        DMK_CHECK(i == 3 ? x->archive_pct > 50 && x->archive_pct < 101 : isnan(x->archive_pct));
    }
    DMK_CHECK_STR(dmk_lab_set(DMK_LAB_SET_FILES)->fields[DMK_LAB_FILES_CPU].key, "cpu");
    char report[4096];
    dmk_lab_report(res, report, sizeof report);
    DMK_CHECK_HAS(report, "Program copy");
    DMK_CHECK_HAS(report, "file sets of 16 MiB each");
    /* A build without libarchive (the Windows zip's) says why the
     * archive column is empty; one with it has the steps instead. */
    if (dmk_archive_available())
        DMK_CHECK(strstr(report, "No archive and extract steps") == NULL);
    else
        DMK_CHECK_HAS(report, "No archive and extract steps: the build that ran this test has no "
                              "libarchive.");
    free(f);
    dmk_run_result_free(res);
    DMK_CHECK_INT(entries(dir), 0);
    DMK_CHECK(dmk_tree_remove(dir, &err) == DMK_OK);
}

static void set_env(const char *name, const char *value)
{
#ifdef _WIN32
    _putenv_s(name, value ? value : "");
#else
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
#endif
}

static void test_run_stop_and_error(void)
{
    char dir[1200];
    scratch(dir, sizeof dir, "stop");
    DmkError err;
    DMK_CHECK(dmk_tree_mkdir(dir, &err) == DMK_OK);
    /* Stopped in the second copy: the first is kept, nothing is left. */
    DmkRunResult *res = NULL;
    DMK_CHECK(run_files(dir, 16 * MIB, 1, &res, &err) == DMK_E_STOPPED);
    DMK_CHECK(res && !res->complete && res->n_tests == 1);
    dmk_run_result_free(res);
    DMK_CHECK_INT(entries(dir), 0);
    /* A failure mid-copy (the hook stands for a drive's I/O error). */
    set_env("DMK_TEST_FILES_FAIL", "2");
    res = NULL;
    int rc = run_files(dir, 16 * MIB, SIZE_MAX, &res, &err);
    set_env("DMK_TEST_FILES_FAIL", NULL);
    DMK_CHECK(rc == DMK_E_IO);
    DMK_CHECK_HAS(err.msg, "injected failure in step 2");
    DMK_CHECK(res && res->n_tests == 2);
    dmk_run_result_free(res);
    DMK_CHECK_INT(entries(dir), 0);
    DMK_CHECK(dmk_tree_remove(dir, &err) == DMK_OK);
}

static void test_refusals(void)
{
    char dir[1200], left[1300], removed[1400];
    scratch(dir, sizeof dir, "refuse");
    DmkError err;
    DMK_CHECK(dmk_tree_mkdir(dir, &err) == DMK_OK);
    /* More than the free space: refused before anything is written. */
    DmkRunResult *res = NULL;
    DMK_CHECK(run_files(dir, 1ULL << 49, SIZE_MAX, &res, &err) == DMK_E_NOSPC);
    DMK_CHECK_HAS(err.msg, "need 4.00 PiB free in");
    DMK_CHECK(res && res->n_tests == 0);
    dmk_run_result_free(res);
    DMK_CHECK_INT(entries(dir), 0);
    /* A directory a killed run left: named, nothing written, removable. */
    snprintf(left, sizeof left, "%s/%s0123456789abcdef", dir, dmk_lab_files_prefix);
    DMK_CHECK(dmk_tree_mkdir(left, &err) == DMK_OK);
    res = NULL;
    DMK_CHECK(run_files(dir, 16 * MIB, SIZE_MAX, &res, &err) == DMK_E_INVAL);
    DMK_CHECK_HAS(err.msg, "drivemark-files.0123456789abcdef was left by an earlier");
    dmk_run_result_free(res);
    DMK_CHECK(dmk_lab_files_remove_leftover(dir, removed, sizeof removed, &err) == DMK_OK);
    DMK_CHECK_STR(removed, left);
    DMK_CHECK_INT(entries(dir), 0);
    DMK_CHECK(dmk_tree_remove(dir, &err) == DMK_OK);
}

/* The window's set sizes: small ones for a quick run, the reviews' 8 GiB
 * (the default) among them, each one the --size range takes. */
static void test_form_sizes(void)
{
    const DmkLabTest *t = dmk_lab_test(DMK_LAB_FILES);
    const DmkLabParam *lp = dmk_lab_param(DMK_LAB_P_SPAN);
    DmkLabParams p;
    dmk_lab_params_init(&p, DMK_LAB_FILES);
    DMK_CHECK_INT(p.span, 8ULL << 30);
    DMK_CHECK(t->n_fields == 1 && t->fields[0].id == DMK_LAB_P_SPAN && t->fields[0].presets);
    bool has_default = false;
    for (size_t i = 0; i < t->fields[0].n_presets; i++) {
        double v = t->fields[0].presets[i];
        DMK_CHECK(v >= lp->min && v <= lp->max);
        DMK_CHECK(i == 0 || v > t->fields[0].presets[i - 1]);
        has_default = has_default || v == (double)p.span;
    }
    DMK_CHECK(has_default);
    DMK_CHECK(t->fields[0].presets[0] <= 256.0 * MIB);
}

int main(void)
{
    DMK_TEST(test_form_sizes);
    DMK_TEST(test_deterministic);
    DMK_TEST(test_sizes);
    DMK_TEST(test_distributions);
    DMK_TEST(test_on_disk);
    DMK_TEST(test_run_success);
    DMK_TEST(test_run_stop_and_error);
    DMK_TEST(test_refusals);
    return dmk_test_done();
}
