/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The backend registry: the descriptors platform/meson.build lists for
 * this OS (the generated dmk-backend-list.h), looked up by name, and the
 * texts and checks every front end shares, so that a backend is named in
 * one place, its own file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-backend-list.h"
#include "dmk-i18n.h"
#include "dmk-platform.h"
#include "dmk-text.h"

/* One X(id) per backend, defined as dmk_backend_<id>_desc in its file. */
#define X(id) extern const DmkBackend dmk_backend_##id##_desc;
DMK_BACKEND_LIST
#undef X

static const DmkBackend *const registry[] = {
#define X(id) &dmk_backend_##id##_desc,
    DMK_BACKEND_LIST
#undef X
};

#define N_BACKENDS (sizeof registry / sizeof registry[0])

size_t dmk_backend_count(void)
{
    return N_BACKENDS;
}

const DmkBackend *dmk_backend_at(size_t i)
{
    return i < N_BACKENDS ? registry[i] : NULL;
}

/* Tests: DMK_TEST_NATIVE=io_uring makes "native" (what a run without
 * --backend gets) that backend, so the integration tests that run the
 * native backend on real files and devices run on each real backend. */
static const DmkBackend *test_native(void)
{
    const char *name = getenv("DMK_TEST_NATIVE");
    for (size_t i = 0; name && i < N_BACKENDS; i++)
        if (strcmp(name, registry[i]->name) == 0 && !registry[i]->in_memory)
            return registry[i];
    return NULL;
}

const DmkBackend *dmk_backend_native(void)
{
    const DmkBackend *test = test_native();
    if (test)
        return test;
    for (size_t i = 0; i < N_BACKENDS; i++)
        if (registry[i]->native)
            return registry[i];
    return NULL;
}

const DmkBackend *dmk_backend_by_name(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "native") == 0)
        return dmk_backend_native();
    for (size_t i = 0; i < N_BACKENDS; i++)
        if (strcmp(name, registry[i]->name) == 0)
            return registry[i];
    return NULL;
}

/* The names joined, the last two by last (English " or ", or its
 * translation in a message). */
static char *choices(const char *last, char *buf, size_t len)
{
    const char *names[N_BACKENDS + 1];
    size_t n = 0;
    names[n++] = "native";
    for (size_t i = 0; i < N_BACKENDS; i++)
        if (!registry[i]->tests_only)
            names[n++] = registry[i]->name;
    return dmk_join_names(names, n, ", ", last, buf, len);
}

char *dmk_backend_choices(char *buf, size_t len)
{
    return choices(" or ", buf, len);
}

int dmk_backend_choose(const char *what, const char *name, const DmkBackend **out, DmkError *err)
{
    const DmkBackend *be = dmk_backend_by_name(name);
    if (be && !be->tests_only) {
        *out = be;
        return DMK_OK;
    }
    char list[256];
    /* TRANSLATORS: joins the last two backends of a list: "native, libaio or null". */
    choices(DMK_(" or "), list, sizeof list);
    /* TRANSLATORS: the first %s is the option or key that named the backend (--backend), the
     * second the name given, the last the backends there are. */
    return dmk_error_set(err, DMK_E_INVAL, 0, "%s '%s' is unknown: expected %s", what, name, list);
}

/* "latency, serve, cache": the keys of be's options. */
static char *option_keys(const DmkBackend *be, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const DmkBackendOption *o = be->options; o && o->key && used < len; o++) {
        int w = snprintf(buf + used, len - used, "%s%s", o == be->options ? "" : ", ", o->key);
        used += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

int dmk_backend_set_option(const DmkBackend *be, DmkBackendOpts *opts, const char *key,
                           const char *value, const char *what, DmkError *err)
{
    const DmkBackendOption *o = be->options;
    while (o && o->key && strcmp(o->key, key) != 0)
        o++;
    if (!o || !o->key || !be->parse_option) {
        char keys[256];
        option_keys(be, keys, sizeof keys);
        /* Two whole sentences rather than one with its ending glued on. */
        if (!keys[0])
            return dmk_error_set(err, DMK_E_INVAL, 0,
                                 "the %s backend has no option '%s' (it has none)", be->name, key);
        return dmk_error_set(err, DMK_E_INVAL, 0, "the %s backend has no option '%s': it has %s",
                             be->name, key, keys);
    }
    return be->parse_option(opts, key, value, what ? what : key, err);
}
