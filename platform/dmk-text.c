/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-text.h"

#include <stdio.h>

char *dmk_join_names(const char *const *names, size_t n, const char *sep, const char *last,
                     char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        const char *before = i == 0 ? "" : i + 1 == n ? last : sep;
        int w = snprintf(buf + used, len - used, "%s%s", before, names[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    return buf;
}
