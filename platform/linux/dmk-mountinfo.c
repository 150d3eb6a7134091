/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "dmk-mountinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dmk_mountinfo_unescape(char *s)
{
    char *out = s;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
            *out++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 3;
        } else {
            *out++ = *p;
        }
    }
    *out = '\0';
}

/* The super options' place in a mountinfo line: the third field after
 * " - " (file system type, source, options); NULL when there is none. */
static const char *super_opts_of(const char *line)
{
    const char *p = strstr(line, " - ");
    if (!p)
        return NULL;
    p += 3;
    for (int field = 0; field < 2; field++) {
        p += strspn(p, " ");
        p += strcspn(p, " \t\n");
    }
    p += strspn(p, " ");
    return *p && *p != '\n' ? p : NULL;
}

bool dmk_mountinfo_parse(const char *line, DmkMountLine *m)
{
    /* Optional fields sit between the options and " - ". */
    const char *sep = strstr(line, " - ");
    if (!sep || sscanf(line, "%u %u %u:%u %511s %511s %255s", &m->id, &m->parent, &m->major,
                       &m->minor, m->root, m->mnt, m->opts) != 7)
        return false;
    m->super_opts[0] = '\0';
    m->super_opts_cut = false;
    if (sscanf(sep + 3, "%31s %255s", m->fstype, m->source) != 2)
        return false;
    /* A field that filled its buffer may have been cut (and the rest read
     * as the next field): said, so that no path is taken from it. The
     * line still counts (its source is read after " - " on its own), so
     * a mount at a long path is still seen as a mount. */
    m->fields_cut = strlen(m->root) >= sizeof m->root - 1 || strlen(m->mnt) >= sizeof m->mnt - 1 ||
                    strlen(m->opts) >= sizeof m->opts - 1 ||
                    strlen(m->fstype) >= sizeof m->fstype - 1 ||
                    strlen(m->source) >= sizeof m->source - 1;
    const char *opts = super_opts_of(line);
    size_t n = opts ? strcspn(opts, " \t\n") : 0;
    if (n >= sizeof m->super_opts) {
        /* Keep what fits, up to its last whole option, and say so: a cut
         * option (half an upperdir=) must never pass for a whole one. */
        n = sizeof m->super_opts - 1;
        while (n > 0 && opts[n] != ',')
            n--;
        m->super_opts_cut = true;
    }
    memcpy(m->super_opts, opts ? opts : "", n);
    m->super_opts[n] = '\0';
    dmk_mountinfo_unescape(m->root);
    dmk_mountinfo_unescape(m->mnt);
    dmk_mountinfo_unescape(m->source);
    return true;
}

char *dmk_mountinfo_super_opts(const char *root, const DmkMountLine *m)
{
    if (!m->super_opts_cut)
        return strdup(m->super_opts);
    char path[PATH_MAX], *line = NULL, *found = NULL;
    size_t cap = 0;
    snprintf(path, sizeof path, "%s/proc/self/mountinfo", root ? root : "");
    FILE *f = fopen(path, "re");
    /* getline: the whole line, whatever its length. */
    while (f && !found && getline(&line, &cap, f) > 0) {
        unsigned id;
        const char *opts = super_opts_of(line);
        if (sscanf(line, "%u", &id) == 1 && id == m->id && opts)
            found = strndup(opts, strcspn(opts, " \t\n"));
    }
    free(line);
    if (f)
        fclose(f);
    return found;
}
