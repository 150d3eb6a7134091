/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli --help: the commands, the lab tests from dmk-lab.h's
 * table, and every option of dmk-cli-options.c's table under a heading
 * for the commands that take it. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dmk-cli-private.h"
#include "dmk-i18n.h"

/* The commands an option group's heading names, as typed; the lab tests
 * as a phrase (marked for --help, English in the man page). */
static const struct {
    unsigned bit;
    const char *name;
} command_names[] = {{DMK_CMD_RUN, "run"},
                     {DMK_CMD_SWEEP, "sweep"},
                     {DMK_CMD_SHOW, "show"},
                     {DMK_CMD_CHART, "chart"},
                     /* TRANSLATORS: in --help's "Options of run and the lab tests:". */
                     {DMK_CMD_LAB, DMK_N_("the lab tests")}};

#define N_COMMAND_NAMES (sizeof command_names / sizeof command_names[0])

const char *_dmk_cli_heading(unsigned commands, char *buf, size_t len)
{
    int used = snprintf(buf, len, "%s", commands ? "" : "every command");
    for (size_t i = 0; i < N_COMMAND_NAMES && used >= 0 && (size_t)used < len; i++)
        if (commands & command_names[i].bit)
            used += snprintf(buf + used, len - (size_t)used, "%s%s", used ? " and " : "",
                             command_names[i].name);
    return buf;
}

/* --help's heading of an option group, a whole sentence to translate:
 * the command names stay as typed; the man page keeps _dmk_cli_heading's
 * English. */
static void print_heading(FILE *f, unsigned commands)
{
    if (!commands) {
        fputs(DMK_("\nOptions of every command:\n"), f);
        return;
    }
    /* TRANSLATORS: joins two command names in --help's "Options of run and sweep:". */
    const char *and_word = DMK_(" and ");
    char words[128];
    int used = 0;
    words[0] = '\0';
    for (size_t i = 0; i < N_COMMAND_NAMES && used >= 0 && (size_t)used < sizeof words; i++)
        if (commands & command_names[i].bit)
            used +=
                snprintf(words + used, sizeof words - (size_t)used, "%s%s", used ? and_word : "",
                         command_names[i].bit == DMK_CMD_LAB ? DMK_(command_names[i].name)
                                                             : command_names[i].name);
    /* TRANSLATORS: %s is a list of drivemark-cli's commands (run, sweep, show, chart), typed as
     * they are. */
    fprintf(f, DMK_("\nOptions of %s:\n"), words);
}

/* Help lines fit an 80-column terminal (and the test that checks every
 * line of it): the help wrapped after the option's column. */
#define HELP_WIDTH  79
#define HELP_INDENT 25

/* The columns the first n bytes of UTF-8 text take on a terminal: one a
 * character (a translation's letters are more bytes than columns). */
static size_t text_columns(const char *text, size_t n)
{
    size_t cols = 0;
    for (size_t i = 0; i < n; i++)
        cols += ((unsigned char)text[i] & 0xC0) != 0x80;
    return cols;
}

/* Words of `text` on lines of at most `width` columns, each indented by
 * `indent` but the first, which continues after `col` columns (a space
 * before its first word unless col is 0 or the caller padded to indent). */
static void print_wrapped(FILE *f, const char *text, size_t col, size_t indent, size_t width)
{
    bool fresh = true; /* nothing of text on this line yet */
    while (*text) {
        size_t n = strcspn(text, " "), cols = text_columns(text, n);
        if (!fresh && col + 1 + cols > width) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > 0 && (!fresh || col != indent)) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)n, text);
        col += cols;
        fresh = false;
        text += n;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

/* The lab commands' names, joined by '|', hold no space to wrap at: a
 * space after the last '|' within room lets print_wrapped break there. */
static void break_names(char *line, size_t len, size_t room)
{
    size_t n = strcspn(line, " ");
    if (n <= room || strlen(line) + 2 > len)
        return;
    char *cut = NULL;
    for (char *p = line; p < line + room; p++)
        if (*p == '|')
            cut = p + 1;
    if (cut) {
        memmove(cut + 1, cut, strlen(cut) + 1);
        *cut = ' ';
    }
}

/* The lab tests, from dmk-lab.h's table: "  sustained  Sustained write: ...". */
static void print_lab_tests(FILE *f)
{
    /* Wrapped as the translation's words fall. */
    print_wrapped(f,
                  DMK_("The review-lab tests; each samples the drive's temperature where a sensor "
                       "is readable:"),
                  0, 0, HELP_WIDTH);
    for (size_t i = 0; i < dmk_lab_test_count(); i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        char head[128];
        /* The title and blurb are the core table's: translated where
         * its catalog has them, the name never. */
        snprintf(head, sizeof head, "  %-10s %s:", t->name, DMK_(t->title));
        fputs(head, f);
        print_wrapped(f, DMK_(t->blurb), text_columns(head, strlen(head)), 13, 79);
    }
}

/* A piece of a help built here: its msgid in the man page, translated in
 * --help (format_arg: a format stays checked against its arguments). */
__attribute__((format_arg(1))) static const char *help_piece(const char *msgid, bool translated)
{
    return translated ? DMK_(msgid) : msgid;
}

/* A backend's own words (the registry's): translated where its catalog
 * has them. */
static const char *backend_text(const char *text, bool translated)
{
    return translated && *text ? DMK_(text) : text;
}

/* --backend's help: "native (default: libaio), libaio (...) or null (...)". */
static const char *backend_help(char *buf, size_t len, bool translated)
{
    const DmkBackend *native = dmk_backend_native();
    /* TRANSLATORS: --backend's help, the backends' list follows; native is a value of --backend,
     * %s the backend it stands for (libaio), typed as they are. */
    int used =
        snprintf(buf, len, help_piece(DMK_N_("the I/O backend: native (default: %s)"), translated),
                 native->name);
    /* TRANSLATORS: joins the last two backends in --backend's help: "libaio (...) or null
     * (...)". */
    const char *or_word = help_piece(DMK_N_(" or "), translated);
    size_t n = dmk_backend_count(), last = 0;
    for (size_t i = 0; i < n; i++)
        last = dmk_backend_at(i)->tests_only ? last : i;
    for (size_t i = 0; i < n && used > 0 && (size_t)used < len; i++) {
        const DmkBackend *be = dmk_backend_at(i);
        if (!be->tests_only)
            used += snprintf(buf + used, len - used, "%s%s (%s)", i == last ? or_word : ", ",
                             be->name, backend_text(be->description, translated));
    }
    return buf;
}

/* The key of option `name` when it is "--BACKEND-KEY" of backend be, the
 * name's '_' written '-' ("--io-uring-sqpoll"); NULL when it is not. */
static const char *backend_key(const DmkBackend *be, const char *name)
{
    const char *p = name + 2;
    for (const char *b = be->name; *b; b++, p++)
        if (*p != (*b == '_' ? '-' : *b))
            return NULL;
    return *p == '-' ? p + 1 : NULL;
}

/* "--null-latency": the null backend's option "latency", helped by its
 * own line: "null backend only: each I/O completes after US microseconds". */
static const char *backend_option_help(const char *name, char *buf, size_t len, bool translated)
{
    for (size_t i = 0; i < dmk_backend_count(); i++) {
        const DmkBackend *be = dmk_backend_at(i);
        const char *key = backend_key(be, name);
        for (const DmkBackendOption *o = key ? be->options : NULL; o && o->key; o++)
            if (strcmp(o->key, key) == 0) {
                /* TRANSLATORS: a backend's own option's help: the first %s is the
                 * backend's name (null, io_uring), typed as is, the second what the
                 * option does. */
                snprintf(buf, len, help_piece(DMK_N_("%s backend only: %s"), translated), be->name,
                         backend_text(o->help, translated));
                return buf;
            }
    }
    return "";
}

const char *_dmk_cli_option_help(const DmkOption *o, char *buf, size_t len)
{
    if (o->help)
        return o->help;
    return o->req == DMK_REQ_BACKEND + 1 ? backend_help(buf, len, false)
                                         : backend_option_help(o->name, buf, len, false);
}

/* o's help as --help says it, translated: the table's msgid, one built
 * anew from the other tables, or the core's (translated where its
 * catalog has it). An empty one is not looked up: "" is the catalog's
 * header. */
static const char *option_help_translated(const DmkOption *o, char *buf, size_t len)
{
    const char *built = _dmk_cli_built_help(o, buf, len);
    if (built)
        return built;
    if (o->help)
        return *o->help ? DMK_(o->help) : o->help;
    return o->req == DMK_REQ_BACKEND + 1 ? backend_help(buf, len, true)
                                         : backend_option_help(o->name, buf, len, true);
}

static void print_option(FILE *f, const DmkOption *o)
{
    char left[48], help[512];
    snprintf(left, sizeof left, "%s%c%s%s%s", o->short_name ? "-" : "",
             o->short_name ? o->short_name : ' ', o->short_name ? ", " : "", o->name,
             o->value ? " " : "");
    if (!o->short_name)
        memmove(left, left + 1, strlen(left)); /* the ' ' placeholder */
    snprintf(left + strlen(left), sizeof left - strlen(left), "%s", o->value ? o->value : "");
    if (strlen(left) > HELP_INDENT - 4) /* a long name: its help on the next line */
        fprintf(f, "  %s\n%*s", left, HELP_INDENT, "");
    else
        fprintf(f, "  %-*s", HELP_INDENT - 2, left);
    print_wrapped(f, option_help_translated(o, help, sizeof help), HELP_INDENT, HELP_INDENT,
                  HELP_WIDTH);
}

/* The commands' summaries (msgids, English in the man page), the lab
 * tests' after sweep's; show's and chart's run on as one paragraph
 * ("chart draws them"). */
static void print_summaries(FILE *f)
{
    size_t n;
    const DmkCliCommand *cmds = _dmk_cli_commands(&n);
    char text[512] = "";
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].summary)
            continue;
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%s", used ? " " : "", DMK_(cmds[i].summary));
        if (cmds[i].cmd == DMK_CMD_SHOW)
            continue;
        print_wrapped(f, text, 0, 0, HELP_WIDTH);
        text[0] = '\0';
        if (cmds[i].cmd == DMK_CMD_SWEEP)
            print_lab_tests(f);
    }
}

/* "Usage: drivemark-cli run [OPTION]..." for each command of the table,
 * the lab tests' line after sweep's. */
static void print_synopsis(FILE *f)
{
    char labs[256];
    size_t n;
    const DmkCliCommand *cmds = _dmk_cli_commands(&n);
    /* TRANSLATORS: --help's first word, before "drivemark-cli run [OPTION]...". */
    const char *lead = DMK_("Usage:");
    /* The lines below it are indented as far (6 columns in English). */
    int pad = (int)text_columns(lead, strlen(lead));
    size_t col = (size_t)pad + 14; /* after "Usage: drivemark-cli" */
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].usage[0])
            continue; /* help and version: the options' line below */
        char line[160];
        snprintf(line, sizeof line, "%s %s", cmds[i].name, cmds[i].usage);
        fprintf(f, "%s%*s drivemark-cli", lead, pad - (int)text_columns(lead, strlen(lead)), "");
        print_wrapped(f, line, col, col + 1, HELP_WIDTH);
        lead = "";
        if (cmds[i].cmd == DMK_CMD_SWEEP) {
            snprintf(line, sizeof line, "%s [OPTION]...",
                     dmk_lab_names_text("|", "|", labs, sizeof labs));
            break_names(line, sizeof line, HELP_WIDTH - col - 1);
            fprintf(f, "%*s drivemark-cli", pad, "");
            print_wrapped(f, line, col, col + 1, HELP_WIDTH);
        }
    }
    fprintf(f, "%*s drivemark-cli -h|--help | -V|--version\n\n", pad, "");
}

void dmk_cli_usage(FILE *f)
{
    size_t n_options, n_lab_rows;
    const DmkOption *options = _dmk_cli_options(&n_options);
    const DmkOption *lab_rows = _dmk_cli_lab_rows(&n_lab_rows);
    print_synopsis(f);
    print_summaries(f);
    unsigned group = ~0u;
    for (size_t i = 0; i < n_options; i++) {
        if (options[i].commands != group) {
            print_heading(f, group = options[i].commands);
            /* The lab tests' own settings head their group. */
            for (size_t j = 0; group == DMK_CMD_LAB && j < n_lab_rows; j++)
                print_option(f, &lab_rows[j]);
        }
        print_option(f, &options[i]);
    }
    char exits[512];
    fputc('\n', f);
    /* TRANSLATORS: the unit letters and names stay as they are: the options take them so. */
    print_wrapped(f,
                  DMK_("Sizes are binary: K, M, G, T, P, E or KiB, MiB, GiB, TiB, PiB, EiB. "
                       "Seconds may end in s, m or h."),
                  0, 0, HELP_WIDTH);
    /* TRANSLATORS: --help's last heading, followed by the exit statuses' list. */
    const char *heading = DMK_("Exit status:");
    fputs(heading, f);
    print_wrapped(f, dmk_exit_status_text(exits, sizeof exits),
                  text_columns(heading, strlen(heading)), 0, HELP_WIDTH);
}
