/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-gen-docs: drivemark-cli's man page and its bash, zsh and fish
 * completions, written at build time from the tables its parser reads
 * (dmk-cli-options.c's rows, the run request's table, the lab tests',
 * the backend registry, the exit statuses), so that no second list of
 * options can drift from what the program accepts. Run by meson in
 * native builds only; never installed.
 *
 *   dmk-gen-docs man TEMPLATE OUT   the template with @SYNOPSIS@,
 *                                   @COMMANDS@, @OPTIONS@, @EXIT_STATUS@
 *                                   lines and @VERSION@ filled in
 *   dmk-gen-docs bash|zsh|fish OUT  the shell's completion script */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-cli-private.h"
#include "dmk-gen-man.h"
#include "dmk-version.h"

#define MAX_WORDS 64
#define MAX_CMDS  32
#define MAX_OPTS  96

/* ---- what the tables say ------------------------------------------------ */

/* A command word: the CLI's table's, or a lab test (DMK_CMD_LAB, lab). */
typedef struct {
    const char *name;
    DmkCommand cmd;
    DmkLabKind lab;
    const char *usage;
    const char *summary; /* NULL for help and version */
    const DmkLabTest *test;
} Cmd;

static size_t commands(Cmd *out)
{
    size_t n_table, n = 0;
    const DmkCliCommand *table = _dmk_cli_commands(&n_table);
    for (size_t i = 0; i < n_table && n < MAX_CMDS; i++) {
        if (!table[i].built)
            continue;
        out[n++] = (Cmd){table[i].name,  table[i].cmd,     DMK_LAB_NONE,
                         table[i].usage, table[i].summary, NULL};
        if (table[i].cmd != DMK_CMD_SWEEP)
            continue;
        for (size_t k = 0; k < dmk_lab_test_count() && n < MAX_CMDS; k++) {
            const DmkLabTest *t = dmk_lab_test_at(k);
            out[n++] = (Cmd){t->name, DMK_CMD_LAB, t->kind, "[OPTION]...", t->blurb, t};
        }
    }
    return n;
}

/* Every row, in --help's order: the lab tests' own settings head their
 * group. */
static size_t options(const DmkOption **out)
{
    size_t n_rows, n_lab, n = 0;
    const DmkOption *rows = _dmk_cli_options(&n_rows);
    const DmkOption *lab = _dmk_cli_lab_rows(&n_lab);
    unsigned group = ~0u;
    for (size_t i = 0; i < n_rows; i++) {
        if (rows[i].commands != group && (group = rows[i].commands) == DMK_CMD_LAB)
            for (size_t j = 0; j < n_lab && n < MAX_OPTS; j++)
                out[n++] = &lab[j];
        if (n < MAX_OPTS)
            out[n++] = &rows[i];
    }
    return n;
}

typedef enum { VAL_NONE, VAL_ANY, VAL_FILE, VAL_DIR, VAL_DEVICE, VAL_WORDS } ValKind;

/* What o's value is, by its table: the words it may be, or a path by
 * its placeholder (FILE, DIR, DEV), or anything (a number, a list). */
static ValKind value_kind(const DmkOption *o, const char **words, size_t *n)
{
    *n = 0;
    if (!o->value)
        return VAL_NONE;
    size_t k = _dmk_cli_option_choices(o, words, MAX_WORDS);
    if (k) {
        *n = k < MAX_WORDS ? k : MAX_WORDS;
        return VAL_WORDS;
    }
    return strcmp(o->value, "FILE") == 0  ? VAL_FILE
           : strcmp(o->value, "DIR") == 0 ? VAL_DIR
           : strcmp(o->value, "DEV") == 0 ? VAL_DEVICE
                                          : VAL_ANY;
}

static const char *help_of(const DmkOption *o, char *buf, size_t len)
{
    return _dmk_cli_option_help(o, buf, len);
}

/* A menu line of text: its first clause (up to ';'), at most 60
 * columns, cut after a word with "..." where longer. */
static const char *short_help(const char *text, char *buf, size_t len)
{
    size_t full = strcspn(text, ";"), n;
    while (full && strchr(" ,.:", text[full - 1]))
        full--;
    n = full;
    if (n > 60) {
        n = 57;
        while (n && text[n] != ' ')
            n--;
        while (n && strchr(" ,.:", text[n - 1]))
            n--;
    }
    snprintf(buf, len, "%.*s%s", (int)n, text, n < full ? "..." : "");
    return buf;
}

/* A command's menu line: a lab test's title, or the summary without the
 * command's own name ("run benchmarks ...": "benchmarks ..."). */
static const char *command_help(const Cmd *c, char *buf, size_t len)
{
    const char *text = c->test                  ? c->test->title
                       : c->summary             ? c->summary
                       : c->cmd == DMK_CMD_HELP ? "show the help"
                                                : "show the version";
    size_t name = strlen(c->name);
    if (!c->test && strncmp(text, c->name, name) == 0 && text[name] == ' ')
        text += name + 1;
    return short_help(text, buf, len);
}

/* The commands o belongs to, by name, into names; how many. */
static size_t commands_of(const DmkOption *o, const Cmd *cmds, size_t n_cmds, const char **names)
{
    size_t n = 0;
    for (size_t i = 0; i < n_cmds; i++)
        if (o->commands && _dmk_cli_option_applies(o, cmds[i].cmd, cmds[i].lab))
            names[n++] = cmds[i].name;
    return n;
}

/* ---- the man page (man(7)) ------------------------------------------------ */

static void man_synopsis(FILE *f, const Cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].usage[0])
            continue;
        fputs(".SY drivemark\\-cli\n", f);
        fputs(".B ", f);
        dmk_gen_roff(f, cmds[i].name);
        fputs("\n", f);
        dmk_gen_roff(f, cmds[i].usage);
        fputs("\n.YS\n", f);
    }
    fputs(".SY drivemark\\-cli\n.BR \\-h | \\-\\-help | \\-V | \\-\\-version\n.YS\n", f);
}

static void man_commands(FILE *f, const Cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].summary)
            continue;
        fputs(".TP\n.B ", f);
        dmk_gen_roff(f, cmds[i].name);
        fputs("\n", f);
        if (cmds[i].test) {
            dmk_gen_roff(f, cmds[i].test->title);
            fputs(": ", f);
        }
        dmk_gen_roff(f, cmds[i].summary);
        fputs("\n", f);
    }
    fputs(".TP\n.B help\nthe same as \\fB\\-\\-help\\fR.\n", f);
    fputs(".TP\n.B version\nthe same as \\fB\\-\\-version\\fR.\n", f);
}

static void man_option(FILE *f, const DmkOption *o)
{
    char help[512];
    fputs(".TP\n", f);
    if (o->short_name)
        fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB", f);
    dmk_gen_roff(f, o->name);
    fputs("\\fR", f);
    if (o->value) {
        fputs(" \\fI", f);
        dmk_gen_roff(f, o->value);
        fputs("\\fR", f);
    }
    fputs("\n", f);
    dmk_gen_roff(f, help_of(o, help, sizeof help));
    fputs("\n", f);
}

static void man_options(FILE *f)
{
    const DmkOption *opts[MAX_OPTS];
    size_t n = options(opts);
    unsigned group = ~0u;
    for (size_t i = 0; i < n; i++) {
        if (opts[i]->commands != group) {
            char heading[128];
            group = opts[i]->commands;
            fputs(".SS \"Options of ", f);
            dmk_gen_roff(f, _dmk_cli_heading(group, heading, sizeof heading));
            fputs("\"\n", f);
        }
        man_option(f, opts[i]);
    }
}

/* The template's generated parts, by the name on their line. */
static void man_part(FILE *f, const char *name, void *data)
{
    Cmd cmds[MAX_CMDS];
    size_t n_cmds = commands(cmds);
    (void)data;
    if (strcmp(name, "SYNOPSIS") == 0)
        man_synopsis(f, cmds, n_cmds);
    else if (strcmp(name, "COMMANDS") == 0)
        man_commands(f, cmds, n_cmds);
    else if (strcmp(name, "OPTIONS") == 0)
        man_options(f);
}

/* ---- bash ------------------------------------------------------------------- */

/* Words joined by sep, each passed through quote (or as they are). */
static void put_words(FILE *f, const char *const *words, size_t n, const char *sep)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? sep : "", words[i]);
}

static void bash_values(FILE *f, const DmkOption *const *opts, size_t n)
{
    fputs("    case $prev in\n", f);
    for (size_t i = 0; i < n; i++) {
        const char *words[MAX_WORDS];
        size_t k;
        ValKind v = value_kind(opts[i], words, &k);
        if (v == VAL_NONE)
            continue;
        fprintf(f, "    %s)\n", opts[i]->name);
        if (v == VAL_WORDS) {
            /* one a line: a test's name holds a space */
            fputs("        _drivemark_cli_words \"", f);
            put_words(f, words, k, "\n");
            fputs("\"\n", f);
        } else if (v == VAL_FILE) {
            fputs("        _drivemark_cli_files -f\n", f);
        } else if (v == VAL_DIR) {
            fputs("        _drivemark_cli_files -d\n", f);
        } else if (v == VAL_DEVICE) {
            fputs("        [[ -n $cur ]] || cur=/dev/\n        _drivemark_cli_files -f\n", f);
        } else {
            fputs("        COMPREPLY=()\n", f); /* a number, a size, a list: typed */
        }
        fputs("        return 0 ;;\n", f);
    }
    fputs("    esac\n", f);
}

static void bash_command_options(FILE *f, const Cmd *cmds, size_t n_cmds,
                                 const DmkOption *const *opts, size_t n)
{
    fputs("_drivemark_cli_options()\n{\n    case $1 in\n", f);
    for (size_t c = 0; c <= n_cmds; c++) {
        /* c == n_cmds: before any command, where only the options of
         * every command go */
        fprintf(f, "    %s) echo \"", c < n_cmds ? cmds[c].name : "\"\"");
        bool first = true;
        for (size_t i = 0; i < n; i++) {
            bool fits = c < n_cmds ? _dmk_cli_option_applies(opts[i], cmds[c].cmd, cmds[c].lab)
                                   : opts[i]->commands == 0;
            if (!fits)
                continue;
            if (opts[i]->short_name)
                fprintf(f, "%s-%c", first ? "" : " ", opts[i]->short_name);
            fprintf(f, "%s%s", first && !opts[i]->short_name ? "" : " ", opts[i]->name);
            first = false;
        }
        fputs("\" ;;\n", f);
    }
    fputs("    esac\n}\n\n", f);
}

static int bash(FILE *f)
{
    Cmd cmds[MAX_CMDS];
    const DmkOption *opts[MAX_OPTS];
    size_t n_cmds = commands(cmds), n = options(opts);
    const char *words[MAX_WORDS];
    size_t k;
    fputs("# bash completion for drivemark-cli " DMK_VERSION ", generated by dmk-gen-docs from\n"
          "# the option tables drivemark-cli parses: edit those, not this file.\n\n",
          f);
    bash_command_options(f, cmds, n_cmds, opts, n);
    fputs("_drivemark_cli_words()\n{\n"
          "    local IFS=$'\\n' w\n"
          "    COMPREPLY=()\n"
          "    for w in $(compgen -W \"$1\" -- \"$cur\"); do\n"
          "        COMPREPLY+=(\"${w// /\\\\ }\")\n"
          "    done\n}\n\n"
          "_drivemark_cli_files()\n{\n"
          "    local IFS=$'\\n'\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    COMPREPLY=($(compgen \"$@\" -- \"$cur\"))\n}\n\n",
          f);
    fputs("_drivemark_cli()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local cmd=\"\" i=1 valued=\" ",
          f);
    for (size_t i = 0; i < n; i++)
        if (opts[i]->value)
            fprintf(f, "%s ", opts[i]->name);
    fputs("\"\n"
          "    # --name=value: bash splits the = off as a word of its own\n"
          "    if [[ $cur == = ]]; then cur=\"\"\n"
          "    elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}\n"
          "    fi\n"
          "    # the command: the first word that is no option nor an option's value\n"
          "    while (( i < COMP_CWORD )); do\n"
          "        case ${COMP_WORDS[i]} in\n"
          "        -*) [[ $valued == *\" ${COMP_WORDS[i]} \"* && ${COMP_WORDS[i+1]} != = ]] "
          "&& (( i++ )) ;;\n"
          "        =) (( i++ )) ;;\n"
          "        *) cmd=${COMP_WORDS[i]}; break ;;\n"
          "        esac\n"
          "        (( i++ ))\n"
          "    done\n",
          f);
    bash_values(f, opts, n);
    fputs("    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$(_drivemark_cli_options \"$cmd\")\" -- \"$cur\"))\n"
          "        return 0\n"
          "    fi\n"
          "    case $cmd in\n"
          "    \"\") _drivemark_cli_words \"",
          f);
    for (size_t c = 0; c < n_cmds; c++)
        fprintf(f, "%s%s", c ? "\n" : "", cmds[c].name);
    fputs(
        "\" ;;\n    sweep)\n        local w\n        for w in \"${COMP_WORDS[@]:2:COMP_CWORD-2}\"; "
        "do\n            [[ $w == qd || $w == bs ]] && return 0\n        done\n"
        "        _drivemark_cli_words \"",
        f);
    k = _dmk_cli_sweep_kinds(words, MAX_WORDS);
    put_words(f, words, k, "\n");
    fputs("\" ;;\n"
          "    show|chart)\n"
          "        _drivemark_cli_files -f -X '!*.[cC][sS][vV]'\n"
          "        local IFS=$'\\n'\n"
          "        COMPREPLY+=($(compgen -d -- \"$cur\")) ;;\n"
          "    esac\n"
          "    return 0\n"
          "}\n\n"
          "complete -F _drivemark_cli drivemark-cli\n",
          f);
    return 0;
}

/* ---- zsh --------------------------------------------------------------------- */

/* Text inside a zsh _arguments spec in single quotes: the quote closed
 * and reopened, brackets and colons escaped. */
static void zsh_text(FILE *f, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++) {
        if (s[i] == '\'')
            fputs("'\\''", f);
        else if (strchr("[]:\\", s[i]))
            fprintf(f, "\\%c", s[i]);
        else
            fputc(s[i], f);
    }
}

static void zsh_option(FILE *f, const DmkOption *o)
{
    char help[512];
    const char *words[MAX_WORDS];
    size_t k;
    ValKind v = value_kind(o, words, &k);
    char line[80];
    const char *text = short_help(help_of(o, help, sizeof help), line, sizeof line);
    fputs("    '", f);
    if (o->short_name)
        fprintf(f, "(-%c %s)'{-%c,%s}'", o->short_name, o->name, o->short_name, o->name);
    else
        fputs(o->name, f);
    if (o->value)
        fputc('=', f);
    fputc('[', f);
    zsh_text(f, text, sizeof line);
    fputc(']', f);
    if (v != VAL_NONE) {
        fputc(':', f);
        zsh_text(f, o->value, 64);
        fputc(':', f);
    }
    if (v == VAL_WORDS) {
        fputc('(', f);
        for (size_t i = 0; i < k; i++) {
            fputs(i ? " " : "", f);
            for (const char *c = words[i]; *c; c++)
                fprintf(f, "%s%c", *c == ' ' ? "\\" : "", *c);
        }
        fputc(')', f);
    } else if (v == VAL_FILE || v == VAL_DEVICE) {
        fputs("_files", f);
    } else if (v == VAL_DIR) {
        fputs("_files -/", f);
    } else if (v == VAL_ANY) {
        fputs(" ", f);
    }
    fputs("' \\\n", f);
}

static int zsh(FILE *f)
{
    Cmd cmds[MAX_CMDS];
    const DmkOption *opts[MAX_OPTS];
    size_t n_cmds = commands(cmds), n = options(opts);
    const char *words[MAX_WORDS];
    size_t k = _dmk_cli_sweep_kinds(words, MAX_WORDS);
    char line[80];
    fputs("#compdef drivemark-cli\n"
          "# zsh completion for drivemark-cli " DMK_VERSION ", generated by dmk-gen-docs from\n"
          "# the option tables drivemark-cli parses: edit those, not this file.\n\n"
          "_drivemark-cli() {\n"
          "  local curcontext=$curcontext state line ret=1\n"
          "  local -a commands\n"
          "  commands=(\n",
          f);
    for (size_t c = 0; c < n_cmds; c++) {
        fputs("    '", f);
        zsh_text(f, cmds[c].name, 64);
        fputc(':', f);
        zsh_text(f, command_help(&cmds[c], line, sizeof line), sizeof line);
        fputs("'\n", f);
    }
    fputs("  )\n  _arguments -C \\\n", f);
    for (size_t i = 0; i < n; i++)
        if (opts[i]->commands == 0)
            zsh_option(f, opts[i]);
    fputs("    '1:command:->command' \\\n"
          "    '*::argument:->argument' && ret=0\n"
          "  case $state in\n"
          "  command) _describe -t commands 'drivemark-cli command' commands && ret=0 ;;\n"
          "  argument)\n"
          "    curcontext=${curcontext%:*:*}:drivemark-cli-$words[1]:\n"
          "    case $words[1] in\n",
          f);
    for (size_t c = 0; c < n_cmds; c++) {
        fprintf(f, "    %s)\n      _arguments \\\n", cmds[c].name);
        for (size_t i = 0; i < n; i++)
            if (_dmk_cli_option_applies(opts[i], cmds[c].cmd, cmds[c].lab))
                zsh_option(f, opts[i]);
        if (cmds[c].cmd == DMK_CMD_SWEEP) {
            fputs("        '1:kind:(", f);
            put_words(f, words, k, " ");
            fputs(")' \\\n", f);
        } else if (cmds[c].cmd == DMK_CMD_SHOW || cmds[c].cmd == DMK_CMD_CHART) {
            fputs("        '*:result file:_files -g \"*.(#i)csv\"' \\\n", f);
        }
        fputs("        && ret=0 ;;\n", f);
    }
    /* Autoloaded from fpath: the file is the function's body, run it;
     * sourced: register the function for the command. */
    fputs("    esac ;;\n  esac\n  return ret\n}\n\n"
          "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
          "  _drivemark-cli \"$@\"\n"
          "else\n"
          "  compdef _drivemark-cli drivemark-cli\n"
          "fi\n",
          f);
    return 0;
}

/* ---- fish -------------------------------------------------------------------- */

/* Text in fish's single quotes: backslashes and quotes escaped. */
static void fish_text(FILE *f, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++) {
        if (s[i] == '\'' || s[i] == '\\')
            fputc('\\', f);
        fputc(s[i], f);
    }
}

static void fish_option(FILE *f, const DmkOption *o, const Cmd *cmds, size_t n_cmds)
{
    char help[512];
    const char *words[MAX_WORDS], *names[MAX_CMDS];
    size_t k, n_names = commands_of(o, cmds, n_cmds, names);
    ValKind v = value_kind(o, words, &k);
    if (o->commands && !n_names)
        return; /* a command this build lacks */
    fputs("complete -c drivemark-cli", f);
    if (o->commands) {
        fputs(" -n '__fish_seen_subcommand_from", f);
        for (size_t i = 0; i < n_names; i++)
            fprintf(f, " %s", names[i]);
        fputc('\'', f);
    }
    if (o->short_name)
        fprintf(f, " -s %c", o->short_name);
    fprintf(f, " -l %s", o->name + 2);
    if (v == VAL_WORDS) {
        /* each word in quotes, inside the argument's: a test's name holds a space */
        fputs(" -x -a \"", f);
        for (size_t i = 0; i < k; i++)
            fprintf(f, "%s'%s'", i ? " " : "", words[i]);
        fputc('"', f);
    } else if (v == VAL_FILE || v == VAL_DEVICE) {
        fputs(" -r -F", f);
    } else if (v == VAL_DIR) {
        fputs(" -x -a '(__fish_complete_directories)'", f);
    } else if (v == VAL_ANY) {
        fputs(" -x", f);
    }
    char line[80];
    fputs(" -d '", f);
    fish_text(f, short_help(help_of(o, help, sizeof help), line, sizeof line), sizeof line);
    fputs("'\n", f);
}

static int fish(FILE *f)
{
    Cmd cmds[MAX_CMDS];
    const DmkOption *opts[MAX_OPTS];
    size_t n_cmds = commands(cmds), n = options(opts);
    const char *words[MAX_WORDS];
    size_t k = _dmk_cli_sweep_kinds(words, MAX_WORDS);
    char line[80];
    fputs("# fish completion for drivemark-cli " DMK_VERSION ", generated by dmk-gen-docs from\n"
          "# the option tables drivemark-cli parses: edit those, not this file.\n\n"
          "complete -c drivemark-cli -f\n",
          f);
    for (size_t c = 0; c < n_cmds; c++) {
        fprintf(f, "complete -c drivemark-cli -n '__fish_use_subcommand' -a %s -d '", cmds[c].name);
        fish_text(f, command_help(&cmds[c], line, sizeof line), sizeof line);
        fputs("'\n", f);
    }
    fputs("complete -c drivemark-cli -n '__fish_seen_subcommand_from sweep; and not "
          "__fish_seen_subcommand_from",
          f);
    for (size_t i = 0; i < k; i++)
        fprintf(f, " %s", words[i]);
    fputs("' -a '", f);
    put_words(f, words, k, " ");
    fputs("'\n"
          "complete -c drivemark-cli -n '__fish_seen_subcommand_from show chart' -k -a "
          "'(__fish_complete_suffix .csv)'\n",
          f);
    for (size_t i = 0; i < n; i++)
        fish_option(f, opts[i], cmds, n_cmds);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "man") == 0 && argc < 4)) {
        fprintf(stderr, "usage: dmk-gen-docs man TEMPLATE OUT | bash|zsh|fish OUT\n");
        return 2;
    }
    const char *out_path = argv[argc - 1];
    FILE *f = fopen(out_path, "w");
    if (!f) {
        perror(out_path);
        return 1;
    }
    int rc = strcmp(argv[1], "man") == 0    ? dmk_gen_man(argv[2], f, man_part, NULL)
             : strcmp(argv[1], "bash") == 0 ? bash(f)
             : strcmp(argv[1], "zsh") == 0  ? zsh(f)
             : strcmp(argv[1], "fish") == 0 ? fish(f)
                                            : 2;
    if (fclose(f) != 0 || rc != 0) {
        if (rc == 2)
            fprintf(stderr, "dmk-gen-docs: unknown kind '%s'\n", argv[1]);
        remove(out_path);
        return rc ? rc : 1;
    }
    return 0;
}
