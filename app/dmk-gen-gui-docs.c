/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-gen-gui-docs: the window's man page, drivemark(1), its OPTIONS
 * written at build time from the options the window registers
 * (ui/dmk-app-options.c: its own table, the run request's, the lab
 * tests' and the backends'), so the page lists what drivemark takes.
 * Run by meson in native builds with GTK only; never installed.
 *
 *   dmk-gen-gui-docs TEMPLATE OUT */
#include <stdio.h>
#include <string.h>

#include "dmk-app-private.h"
#include "dmk-gen-man.h"

/* ".TP\n\fB\-t\fR, \fB\-\-target\fR=\fIDIR\fR\nhelp" for each option
 * that --help shows (hidden ones are the tests'). */
static void man_option(const GOptionEntry *e, void *data)
{
    FILE *f = data;
    if (e->flags & G_OPTION_FLAG_HIDDEN)
        return;
    fputs(".TP\n", f);
    if (e->short_name)
        fprintf(f, "\\fB\\-%c\\fR, ", e->short_name);
    fputs("\\fB\\-\\-", f);
    dmk_gen_roff(f, e->long_name);
    fputs("\\fR", f);
    if (e->arg != G_OPTION_ARG_NONE) {
        fputs("=\\fI", f);
        dmk_gen_roff(f, e->arg_description ? e->arg_description : "VALUE");
        fputs("\\fR", f);
    }
    fputs("\n", f);
    dmk_gen_roff(f, e->description ? e->description : "");
    fputs("\n", f);
}

static void man_part(FILE *f, const char *name, void *data)
{
    (void)data;
    if (strcmp(name, "OPTIONS") == 0)
        _dmk_app_options_each(man_option, f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dmk-gen-gui-docs TEMPLATE OUT\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "w");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    int rc = dmk_gen_man(argv[1], f, man_part, NULL);
    if (fclose(f) != 0 || rc != 0) {
        remove(argv[2]);
        return 1;
    }
    return 0;
}
