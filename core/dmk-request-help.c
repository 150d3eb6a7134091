/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The help lines of the run request's options that the lab tests share
 * (--size, --warmup, --test): the table's words for run and sweep, then
 * each lab test's default from dmk-lab.h's table (the tests that take the
 * setting, grouped by their default), so a test added there or a default
 * changed shows in both front ends' --help. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dmk-i18n.h"
#include "dmk-lab.h"
#include "dmk-request.h"
#include "dmk-size.h"
#include "dmk-text.h"

/* The lab tests that take one setting with one default. */
typedef struct {
    char value[48]; /* the default as the help says it: "2", "32GiB", "RND4K Q32T1" */
    const char *names[DMK_LAB_MAX_TESTS];
    size_t n;
} LabGroup;

typedef void (*DefaultText)(const DmkLabParams *p, char *buf, size_t len);

static void warmup_text(const DmkLabParams *p, char *buf, size_t len)
{
    snprintf(buf, len, "%g", p->warmup_s);
}

static void job_text(const DmkLabParams *p, char *buf, size_t len)
{
    dmk_job_format_name(&p->job, buf, len);
}

/* "32GiB", as the table's other sizes are written; a span of 0 is the
 * free space (a full-span write's). */
static void span_text(const DmkLabParams *p, char *buf, size_t len)
{
    char size[32], *o = buf;
    if (!p->span) {
        /* TRANSLATORS: a lab test's default size in --help: all the free space. */
        snprintf(buf, len, "%s", DMK_("the free space"));
        return;
    }
    dmk_format_size(p->span, size, sizeof size);
    for (const char *c = size; *c && (size_t)(o - buf) + 1 < len; c++)
        if (*c != ' ')
            *o++ = *c;
    *o = '\0';
}

/* The tests that take setting id, grouped by default in the table's
 * order; returns how many groups. */
static size_t lab_groups(DmkLabParamId id, DefaultText text, LabGroup *g)
{
    size_t n = 0;
    for (size_t i = 0; i < dmk_lab_test_count(); i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        DmkLabParams p;
        char value[sizeof g[0].value];
        if (!(t->params & DMK_LAB_P(id)))
            continue;
        dmk_lab_params_init(&p, t->kind);
        text(&p, value, sizeof value);
        size_t k = 0;
        while (k < n && strcmp(g[k].value, value) != 0)
            k++;
        if (k == n) {
            snprintf(g[n].value, sizeof g[n].value, "%s", value);
            g[n++].n = 0;
        }
        g[k].names[g[k].n++] = t->name;
    }
    return n;
}

/* "; lab: 2 for mixed and latency, else 0": the tests with a warm-up by
 * name, the rest (none) after "else". */
static int warmup_part(char *buf, size_t len)
{
    LabGroup g[DMK_LAB_MAX_TESTS];
    size_t n = lab_groups(DMK_LAB_P_WARMUP, warmup_text, g), named = 0;
    bool rest = false;
    /* TRANSLATORS: --help's warm-up line: the lab tests' defaults, a list inside the line's
       "(default: ...)": "; lab: 2 for mixed and latency, else 0". */
    int used = snprintf(buf, len, "%s", DMK_("; lab: "));
    for (size_t i = 0; i < n && used > 0 && (size_t)used < len; i++) {
        char names[160];
        if (strcmp(g[i].value, "0") == 0) {
            rest = true;
            continue;
        }
        /* TRANSLATORS: joins the last two names of a list ("mixed and latency"). */
        dmk_join_names(g[i].names, g[i].n, ", ", DMK_(" and "), names, sizeof names);
        used += snprintf(buf + used, len - (size_t)used, "%s", named++ ? "; " : "");
        if (used > 0 && (size_t)used < len)
            /* TRANSLATORS: an item of that list: %1$s seconds, %2$s the lab tests' names. */
            used += snprintf(buf + used, len - (size_t)used, DMK_("%s for %s"), g[i].value, names);
    }
    if (rest && used > 0 && (size_t)used < len)
        /* TRANSLATORS: the list's end: the other lab tests have no warm-up. */
        used += snprintf(buf + used, len - (size_t)used, "%s", named ? DMK_(", else 0") : "0");
    return used;
}

/* "; sustained, recovery: the write, default RND4K Q32T1; fullspan:
 * default SEQ1M Q8T1" ("the write" said once). */
static int job_part(char *buf, size_t len)
{
    LabGroup g[DMK_LAB_MAX_TESTS];
    size_t n = lab_groups(DMK_LAB_P_JOB, job_text, g);
    int used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < n && used >= 0 && (size_t)used < len; i++) {
        char names[160];
        dmk_join_names(g[i].names, g[i].n, ", ", ", ", names, sizeof names);
        /* TRANSLATORS: --help's --test line: the lab tests' names, then their default test
           ("RND4K Q32T1"), the first time saying it is the write. */
        used += snprintf(buf + used, len - (size_t)used,
                         i ? DMK_("; %s: default %s") : DMK_("; %s: the write, default %s"), names,
                         g[i].value);
    }
    return used;
}

/* "; lab: 32GiB; fullspan: the free space": the most tests' default as
 * the lab's, the others' by name. */
static int span_part(char *buf, size_t len)
{
    LabGroup g[DMK_LAB_MAX_TESTS];
    size_t n = lab_groups(DMK_LAB_P_SPAN, span_text, g), most = 0;
    for (size_t i = 1; i < n; i++)
        most = g[i].n > g[most].n ? i : most;
    /* TRANSLATORS: --help's --size line: most lab tests' default size ("32GiB"). */
    int used = n ? snprintf(buf, len, DMK_("; lab: %s"), g[most].value) : 0;
    if (!n && len)
        buf[0] = '\0';
    for (size_t i = 0; i < n && used > 0 && (size_t)used < len; i++) {
        char names[160];
        if (i == most)
            continue;
        dmk_join_names(g[i].names, g[i].n, ", ", ", ", names, sizeof names);
        used += snprintf(buf + used, len - (size_t)used, "; %s: %s", names, g[i].value);
    }
    return used;
}

const char *dmk_request_option_help(const DmkRequestOption *o, char *buf, size_t len)
{
    char lab[384] = "";
    if (len)
        buf[0] = '\0';
    if (!o->help)
        return NULL;
    if (o->id == DMK_REQ_WARMUP)
        warmup_part(lab, sizeof lab);
    else if (o->id == DMK_REQ_TEST)
        job_part(lab, sizeof lab);
    else if (o->id == DMK_REQ_SIZE)
        span_part(lab, sizeof lab);
    /* The lab's range goes before the table's defaults, and its defaults
     * inside their closing parenthesis: "test file size, 16MiB-64GiB;
     * the lab tests' span, up to 1PiB (default: 1GiB; lab: 32GiB ...)". */
    char range[64] = "", bound[32];
    if (o->lab_max > 0) {
        /* "1 PiB" written as the option takes it: "1PiB" */
        dmk_format_size((uint64_t)o->lab_max, bound, sizeof bound);
        char *space = strchr(bound, ' ');
        if (space)
            memmove(space, space + 1, strlen(space));
        /* TRANSLATORS: --help's --size line, after its own range: %s a size ("1PiB"). */
        snprintf(range, sizeof range, DMK_("; the lab tests' span, up to %s"), bound);
    }
    /* The help in the user's language (the table's is English); a catalog
     * keeps its " (default: ...)" last, where the lab's defaults go. */
    const char *help = DMK_(o->help);
    const char *open = strstr(help, " (");
    size_t head = open ? (size_t)(open - help) : strlen(help), n = strlen(help);
    n -= n && help[n - 1] == ')';
    snprintf(buf, len, "%.*s%s%.*s%s%s", (int)head, help, range, (int)(n - head), help + head, lab,
             n < strlen(help) ? ")" : "");
    return buf;
}
