/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The backend registry (platform/dmk-backends.c): every backend this build
 * has, once, described; lookups by name; the texts front ends print; each
 * backend's own options, and what its target does with them. */
#include "dmk-test.h"

#include "dmk-platform.h"
#include "dmk-target-rules.h"
#include "fault/dmk-fault.h"
#include "null/dmk-null.h"

#define MIB (1ULL << 20)

/* Every backend once, with a name, a line for help and its I/O calls;
 * exactly one is the OS's own, and "native" names it. */
static void test_registry_lists_each_once(void)
{
    size_t n = dmk_backend_count(), natives = 0;
    DMK_CHECK(n >= 3); /* the OS's own, null and fault */
    for (size_t i = 0; i < n; i++) {
        const DmkBackend *be = dmk_backend_at(i);
        DMK_CHECK(be && be->name && *be->name);
        DMK_CHECK(be->description && strlen(be->description) > 10);
        DMK_CHECK(be->target_open && be->queue_open && be->submit && be->reap);
        DMK_CHECK(!be->options || be->parse_option);
        for (size_t j = 0; j < i; j++)
            DMK_CHECK(strcmp(dmk_backend_at(j)->name, be->name) != 0);
        DMK_CHECK(dmk_backend_by_name(be->name) == be);
        natives += be->native;
    }
    DMK_CHECK_INT(natives, 1);
    DMK_CHECK(dmk_backend_at(n) == NULL);
    DMK_CHECK(dmk_backend_by_name("native") == dmk_backend_native());
    DMK_CHECK(dmk_backend_by_name("null") == dmk_backend_null());
#ifdef _WIN32
    DMK_CHECK_STR(dmk_backend_native()->name, "iocp");
#else
    DMK_CHECK_STR(dmk_backend_native()->name, "libaio");
#endif
    DMK_CHECK(dmk_backend_by_name("fault") != NULL);
    DMK_CHECK(dmk_backend_by_name("fault")->tests_only);
}

/* Whether `word` is in the list as a whole word ("native, libaio or null"). */
static bool names(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* The list a user sees starts with "native", names every backend that is
 * offered and none that is for tests only; "A, B or C". */
static void test_choices_text(void)
{
    char buf[256];
    dmk_backend_choices(buf, sizeof buf);
    DMK_CHECK(strncmp(buf, "native, ", 8) == 0);
    DMK_CHECK(strstr(buf, " or ") != NULL);
    for (size_t i = 0; i < dmk_backend_count(); i++) {
        const DmkBackend *be = dmk_backend_at(i);
        DMK_CHECK(names(buf, be->name) == !be->tests_only);
    }
    char want[256];
    snprintf(want, sizeof want, "native, %s", dmk_backend_native()->name);
    DMK_CHECK(strncmp(buf, want, strlen(want)) == 0); /* the OS's own first */
    DMK_CHECK(names(buf, "null") && !names(buf, "fault"));
    /* the in-memory backends say so; the OS's own writes to a disk */
    DMK_CHECK(dmk_backend_null()->in_memory && dmk_backend_by_name("fault")->in_memory);
    DMK_CHECK(!dmk_backend_native()->in_memory && dmk_backend_native()->keeps_data);
}

/* An unknown name, and a test-only backend, are refused with the list. */
static void test_choose_refuses_unknown(void)
{
    const DmkBackend *be = NULL;
    DmkError err = {0};
    DMK_CHECK_INT(dmk_backend_choose("--backend", "null", &be, &err), DMK_OK);
    DMK_CHECK(be == dmk_backend_null());
    DMK_CHECK_INT(dmk_backend_choose("--backend", "native", &be, &err), DMK_OK);
    DMK_CHECK(be == dmk_backend_native());
    const char *bad[] = {"spdk", "fault", "", "NULL"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        be = NULL;
        memset(&err, 0, sizeof err);
        DMK_CHECK_INT(dmk_backend_choose("--backend", bad[i], &be, &err), DMK_E_INVAL);
        DMK_CHECK(be == NULL);
        char want[300], list[256];
        snprintf(want, sizeof want, "--backend '%s' is unknown: expected %s", bad[i],
                 dmk_backend_choices(list, sizeof list));
        DMK_CHECK_STR(err.msg, want);
    }
}

/* One option: accepted, or refused with a message holding `needle`. */
static void check_option(const DmkBackend *be, DmkBackendOpts *o, const char *key, const char *v,
                         const char *needle)
{
    DmkError err = {0};
    int rc = dmk_backend_set_option(be, o, key, v, "--opt", &err);
    if (!needle) {
        if (rc != DMK_OK)
            printf("# %s %s=%s: %s\n", be->name, key, v, err.msg);
        DMK_CHECK_INT(rc, DMK_OK);
        return;
    }
    DMK_CHECK_INT(rc, DMK_E_INVAL);
    if (!strstr(err.msg, needle))
        printf("# %s %s=%s: \"%s\" lacks \"%s\"\n", be->name, key, v, err.msg, needle);
    DMK_CHECK(strstr(err.msg, needle) != NULL);
}

/* Every option a backend lists has a key, a value's name and help, and
 * keys it does not list are refused naming those it has. */
static void test_options_described(void)
{
    for (size_t i = 0; i < dmk_backend_count(); i++) {
        const DmkBackend *be = dmk_backend_at(i);
        for (const DmkBackendOption *o = be->options; o && o->key; o++)
            DMK_CHECK(*o->key && o->arg && *o->arg && o->help && strlen(o->help) > 10);
        DmkBackendOpts opts = {0};
        check_option(be, &opts, "no-such", "1", "has no option 'no-such'");
    }
    DmkBackendOpts opts = {0};
    check_option(dmk_backend_null(), &opts, "bogus", "1", "latency, serve, cache, thermal, slow");
    check_option(dmk_backend_native(), &opts, "latency", "1", "(it has none)");
}

/* The null backend's options: ranges as --null-* always had them, the
 * message naming the option as the user spelled it, and the simulated
 * drive's defaults (4x slower, a cache that drains in 5 s). */
static void test_null_options(void)
{
    const DmkBackend *be = dmk_backend_null();
    DmkBackendOpts o = {0};
    check_option(be, &o, "latency", "250", NULL);
    check_option(be, &o, "serve", "1000", NULL);
    check_option(be, &o, "cache", "64MiB", NULL);
    check_option(be, &o, "thermal", "16M", NULL);
    const DmkNullOpts *n = dmk_null_opts_get(&o);
    DMK_CHECK_STR(o.backend, "null");
    DMK_CHECK_INT(n->latency_ns, 250000);
    DMK_CHECK_INT(n->serve_ns, 1000000);
    DMK_CHECK_INT(n->sim.cache_bytes, 64 * MIB);
    DMK_CHECK_INT(n->sim.bytes_per_c, 16 * MIB);
    DMK_CHECK_INT(n->sim.slow_factor, 4);
    DMK_CHECK(n->sim.drain_s == 5.0);
    check_option(be, &o, "slow", "7", NULL);
    DMK_CHECK_INT(n->sim.slow_factor, 7);
    check_option(be, &o, "latency", "10000001", "expected an integer from 0 to 10000000");
    check_option(be, &o, "latency", "fast", "--opt 'fast'");
    check_option(be, &o, "serve", "-1", "--opt '-1'");
    check_option(be, &o, "cache", "4K", "expected 1 MiB to 1 PiB");
    check_option(be, &o, "thermal", "2T", "expected 4 KiB to 1 TiB");
    check_option(be, &o, "slow", "0", "--opt '0'");
    DMK_CHECK_INT(n->latency_ns, 250000); /* a refused value changes nothing */
    DMK_CHECK_INT(n->sim.slow_factor, 7);
}

/* The fault backend takes the null backend's latency and serve (it runs
 * their queue) and its own hang; options parsed for null stay readable. */
static void test_fault_options(void)
{
    const DmkBackend *be = dmk_backend_by_name("fault");
    DmkBackendOpts o = {0};
    check_option(dmk_backend_null(), &o, "latency", "30", NULL);
    check_option(be, &o, "hang", "40", NULL);
    DMK_CHECK_STR(o.backend, "fault");
    DmkFaultOpts f = dmk_fault_opts_get(&o);
    DMK_CHECK_INT(f.hang, 40);
    DMK_CHECK_INT(f.null.latency_ns, 30000);
    DMK_CHECK_INT(dmk_null_opts_get(&o)->latency_ns, 30000); /* ours begin with null's */
    check_option(be, &o, "serve", "5", NULL);
    DMK_CHECK_INT(dmk_fault_opts_get(&o).null.serve_ns, 5000);
    check_option(be, &o, "hang", "0", "--opt '0'");
    check_option(be, &o, "cache", "64M", "has no option 'cache'");
    DMK_CHECK_INT(dmk_fault_opts_get(&o).hang, 40);
}

/* Another backend's block is not read as null's: its defaults instead. */
static void test_opts_belong_to_one_backend(void)
{
    DmkBackendOpts o = {0};
    DMK_CHECK_INT(dmk_null_opts_get(&o)->latency_ns, 0);
    DMK_CHECK_INT(dmk_null_opts_get(NULL)->latency_ns, 0);
    snprintf(o.backend, sizeof o.backend, "io_uring");
    memset(o.data, 0xff, sizeof o.data);
    DMK_CHECK_INT(dmk_null_opts_get(&o)->latency_ns, 0);
    DMK_CHECK_INT(dmk_fault_opts_get(&o).hang, 0);
    dmk_null_opts(&o)->latency_ns = 5; /* claimed for null: cleared first */
    DMK_CHECK_STR(o.backend, "null");
    DMK_CHECK_INT(dmk_null_opts_get(&o)->serve_ns, 0);
}

/* What a target makes of its options: the null backend's latency holds
 * each request back; the fault target sizes a full span by the rule the
 * real targets follow (dmk-target-rules.h), as the null target does. */
static void test_targets_take_options(void)
{
    const DmkBackend *bes[] = {dmk_backend_null(), dmk_backend_fault(NULL)};
    for (size_t b = 0; b < 2; b++) {
        const DmkBackend *be = bes[b];
        DmkBackendOpts o = {0};
        dmk_null_opts(&o)->latency_ns = 1000000000ULL; /* 1 s */
        DmkTargetParams p = {.dir = "nowhere", .size = 16 * MIB, .opts = &o};
        DmkTarget *t = NULL;
        DmkTargetInfo info;
        DmkQueue *q = NULL;
        DmkError err = {0};
        DMK_CHECK_INT(be->target_open(&p, &t, &info, &err), DMK_OK);
        DMK_CHECK_INT(be->queue_open(t, 2, &q, &err), DMK_OK);
        DmkIo io = {.len = 4096, .submit_ns = dmk_clock_ns()}, *batch[1] = {&io}, *done[1];
        DMK_CHECK_INT(be->submit(q, batch, 1, &err), 1);
        DMK_CHECK_INT(be->reap(q, 0, 1, 0, done, &err), 0); /* not due for a second */
        be->queue_close(q);
        be->target_close(t);
        /* the full span: the free space of a simulated 64 GiB drive, less the margin */
        DmkTargetParams span = {.dir = "nowhere", .free_margin = 2048 * MIB};
        DMK_CHECK_INT(be->target_open(&span, &t, &info, &err), DMK_OK);
        DMK_CHECK_INT(info.test_size, dmk_target_free_size(64ULL << 30, 2048 * MIB));
        be->target_close(t);
    }
}

int main(void)
{
    DMK_TEST(test_registry_lists_each_once);
    DMK_TEST(test_choices_text);
    DMK_TEST(test_choose_refuses_unknown);
    DMK_TEST(test_options_described);
    DMK_TEST(test_null_options);
    DMK_TEST(test_fault_options);
    DMK_TEST(test_opts_belong_to_one_backend);
    DMK_TEST(test_targets_take_options);
    return dmk_test_done();
}
