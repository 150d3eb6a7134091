/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-gen-man.h"

#include <stdbool.h>
#include <string.h>

#include "dmk-request.h"
#include "dmk-version.h"

void dmk_gen_roff(FILE *f, const char *s)
{
    bool line_start = true;
    for (; *s; s++) {
        if (line_start && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
        line_start = *s == '\n';
    }
}

/* One status a paragraph; 128 + N is the table's DMK_EXIT_SIGNAL. */
static void exit_statuses(FILE *f)
{
    for (size_t i = 0; i < dmk_exit_status_count(); i++) {
        const char *meaning;
        int status = dmk_exit_status_at(i, &meaning);
        fprintf(f, ".TP\n.B %d\n", status);
        dmk_gen_roff(f, meaning);
        fputs(".\n", f);
    }
    fprintf(f, ".TP\n.BR %d \" + \" \\fIN\\fR\nended by signal \\fIN\\fR.\n", DMK_EXIT_SIGNAL);
}

int dmk_gen_man(const char *path, FILE *out, void (*part)(FILE *f, const char *name, void *data),
                void *data)
{
    FILE *in = fopen(path, "r");
    char line[1024];
    if (!in) {
        perror(path);
        return 1;
    }
    while (fgets(line, sizeof line, in)) {
        size_t n = strlen(line);
        char *at = strstr(line, "@VERSION@");
        if (n > 3 && line[0] == '@' && line[n - 2] == '@' && line[n - 1] == '\n') {
            line[n - 2] = '\0';
            if (strcmp(line + 1, "EXIT_STATUS") == 0)
                exit_statuses(out);
            else
                part(out, line + 1, data);
        } else if (at) {
            fprintf(out, "%.*s%s%s", (int)(at - line), line, DMK_VERSION, at + strlen("@VERSION@"));
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    return 0;
}
