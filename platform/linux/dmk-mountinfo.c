#include "dmk-mountinfo.h"

#include <stdio.h>
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

bool dmk_mountinfo_parse(const char *line, DmkMountLine *m)
{
    /* Optional fields sit between the options and " - ". */
    const char *sep = strstr(line, " - ");
    if (!sep || sscanf(line, "%u %u %u:%u %511s %511s %255s", &m->id, &m->parent, &m->major,
                       &m->minor, m->root, m->mnt, m->opts) != 7)
        return false;
    m->super_opts[0] = '\0';
    if (sscanf(sep + 3, "%31s %255s %2047s", m->fstype, m->source, m->super_opts) < 2)
        return false;
    dmk_mountinfo_unescape(m->root);
    dmk_mountinfo_unescape(m->mnt);
    dmk_mountinfo_unescape(m->source);
    return true;
}
