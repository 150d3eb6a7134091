/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-presets: CrystalDiskMark 8's profiles, test by test. */
#include "dmk-test.h"

#include "dmk-presets.h"

typedef struct {
    const char *name;
    DmkPattern pattern;
    uint32_t block_size, queue_depth, threads;
} Expected;

#define SEQ1M_Q8T1                                    \
    {                                                 \
        "SEQ1M Q8T1", DMK_PATTERN_SEQ, 1u << 20, 8, 1 \
    }
#define SEQ1M_Q1T1                                    \
    {                                                 \
        "SEQ1M Q1T1", DMK_PATTERN_SEQ, 1u << 20, 1, 1 \
    }
#define SEQ128K_Q32T1                                       \
    {                                                       \
        "SEQ128K Q32T1", DMK_PATTERN_SEQ, 128u << 10, 32, 1 \
    }
#define RND4K_Q32T1                                 \
    {                                               \
        "RND4K Q32T1", DMK_PATTERN_RND, 4096, 32, 1 \
    }
#define RND4K_Q32T16                                  \
    {                                                 \
        "RND4K Q32T16", DMK_PATTERN_RND, 4096, 32, 16 \
    }
#define RND4K_Q1T1                                \
    {                                             \
        "RND4K Q1T1", DMK_PATTERN_RND, 4096, 1, 1 \
    }

typedef struct {
    const char *id;
    const char *label;
    size_t n;
    Expected tests[4];
} ExpectedProfile;

static const ExpectedProfile expected[] = {
    {"default", "Default", 4, {SEQ1M_Q8T1, SEQ1M_Q1T1, RND4K_Q32T1, RND4K_Q1T1}},
    {"peak", "Peak Performance", 2, {SEQ1M_Q8T1, RND4K_Q32T1}},
    {"real", "Real World Performance", 2, {SEQ1M_Q1T1, RND4K_Q1T1}},
    {"demo", "Demo", 1, {SEQ1M_Q8T1}},
    {"nvme", "NVMe SSD", 4, {SEQ1M_Q8T1, SEQ128K_Q32T1, RND4K_Q32T16, RND4K_Q1T1}},
};
#define N_EXPECTED (sizeof expected / sizeof expected[0])

static void check_job(const DmkJob *j, const Expected *e)
{
    DMK_CHECK_INT(j->pattern, e->pattern);
    DMK_CHECK_INT(j->block_size, e->block_size);
    DMK_CHECK_INT(j->queue_depth, e->queue_depth);
    DMK_CHECK_INT(j->threads, e->threads);
}

static void test_table(void)
{
    DMK_CHECK_INT(dmk_profile_count(), N_EXPECTED);
    for (size_t i = 0; i < N_EXPECTED; i++) {
        const ExpectedProfile *e = &expected[i];
        const DmkProfile *p = dmk_profile_find(e->id);
        DMK_CHECK(p != NULL);
        if (!p)
            continue;
        DMK_CHECK(dmk_profile_at(i) == p); /* listed in this order */
        DMK_CHECK_STR(p->id, e->id);
        DMK_CHECK_STR(p->label, e->label);
        DMK_CHECK_INT(p->n_tests, e->n);
        for (size_t k = 0; k < e->n && k < p->n_tests; k++) {
            DMK_CHECK_STR(p->tests[k], e->tests[k].name);
            DmkJob j;
            DMK_CHECK_INT(dmk_job_parse_name(p->tests[k], &j, NULL), DMK_OK);
            check_job(&j, &e->tests[k]);
        }
    }
    DMK_CHECK(dmk_profile_at(N_EXPECTED) == NULL);
    DMK_CHECK(dmk_profile_find("unknown") == NULL);
    DMK_CHECK(dmk_profile_find("") == NULL);
    DMK_CHECK(dmk_profile_find("Default") == NULL); /* ids are exact */
}

static void test_add_read_write(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    for (size_t i = 0; i < N_EXPECTED; i++) {
        const ExpectedProfile *e = &expected[i];
        dmk_run_spec_init(s);
        DmkError err = {0};
        DMK_CHECK_INT(dmk_profile_add(s, dmk_profile_find(e->id), DMK_RUN_READ_WRITE,
                                      DMK_MIX_READ_SHARE_DEFAULT, &err),
                      DMK_OK);
        DMK_CHECK_INT(s->n_tests, 2 * e->n);
        for (size_t k = 0; k < s->n_tests && k < 2 * e->n; k++) {
            const DmkTest *t = &s->tests[k];
            const Expected *x = &e->tests[k / 2];
            DMK_CHECK_STR(t->name, x->name);
            DMK_CHECK_INT(t->mode, k % 2 ? DMK_MODE_WRITE : DMK_MODE_READ);
            DMK_CHECK_INT(t->n_jobs, 1);
            DMK_CHECK_INT(t->jobs[0].read_share, k % 2 ? 0 : 100);
            check_job(&t->jobs[0], x);
        }
        /* every profile passes validation at CrystalDiskMark's default size */
        DMK_CHECK_INT(dmk_run_spec_validate(s, 0, &err), DMK_OK);
    }
    free(s);
}

static void test_add_one_direction(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    const DmkProfile *p = dmk_profile_find("nvme");
    DmkError err = {0};
    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_profile_add(s, p, DMK_RUN_READ, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 4);
    for (size_t k = 0; k < s->n_tests; k++) {
        DMK_CHECK_INT(s->tests[k].mode, DMK_MODE_READ);
        DMK_CHECK_STR(s->tests[k].name, expected[4].tests[k].name);
    }
    dmk_run_spec_init(s);
    DMK_CHECK_INT(dmk_profile_add(s, p, DMK_RUN_WRITE, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 4);
    for (size_t k = 0; k < s->n_tests; k++) {
        DMK_CHECK_INT(s->tests[k].mode, DMK_MODE_WRITE);
        DMK_CHECK_INT(s->tests[k].jobs[0].read_share, 0);
    }
    free(s);
}

static void test_add_mix(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    DMK_CHECK_INT(DMK_MIX_READ_SHARE_DEFAULT, 70);
    for (size_t i = 0; i < N_EXPECTED; i++) {
        const ExpectedProfile *e = &expected[i];
        dmk_run_spec_init(s);
        DmkError err = {0};
        DMK_CHECK_INT(dmk_profile_add(s, dmk_profile_find(e->id), DMK_RUN_MIX,
                                      DMK_MIX_READ_SHARE_DEFAULT, &err),
                      DMK_OK);
        DMK_CHECK_INT(s->n_tests, e->n);
        for (size_t k = 0; k < s->n_tests && k < e->n; k++) {
            DMK_CHECK_STR(s->tests[k].name, e->tests[k].name);
            DMK_CHECK_INT(s->tests[k].mode, DMK_MODE_MIX);
            DMK_CHECK_INT(s->tests[k].jobs[0].read_share, 70);
            check_job(&s->tests[k].jobs[0], &e->tests[k]);
        }
    }
    free(s);
}

/* A profile appends: two profiles in one spec keep both, in order. */
static void test_add_appends(void)
{
    DmkRunSpec *s = malloc(sizeof *s);
    dmk_run_spec_init(s);
    DmkError err = {0};
    DMK_CHECK_INT(dmk_profile_add(s, dmk_profile_find("demo"), DMK_RUN_READ, 70, &err), DMK_OK);
    DMK_CHECK_INT(dmk_profile_add(s, dmk_profile_find("real"), DMK_RUN_WRITE, 70, &err), DMK_OK);
    DMK_CHECK_INT(s->n_tests, 3);
    DMK_CHECK_STR(s->tests[0].name, "SEQ1M Q8T1");
    DMK_CHECK_INT(s->tests[0].mode, DMK_MODE_READ);
    DMK_CHECK_STR(s->tests[1].name, "SEQ1M Q1T1");
    DMK_CHECK_INT(s->tests[1].mode, DMK_MODE_WRITE);
    DMK_CHECK_STR(s->tests[2].name, "RND4K Q1T1");
    DMK_CHECK_INT(s->tests[2].mode, DMK_MODE_WRITE);
    free(s);
}

int main(void)
{
    DMK_TEST(test_table);
    DMK_TEST(test_add_read_write);
    DMK_TEST(test_add_one_direction);
    DMK_TEST(test_add_mix);
    DMK_TEST(test_add_appends);
    return dmk_test_done();
}
