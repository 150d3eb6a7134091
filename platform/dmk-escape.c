/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-escape.h"

#include <string.h>

size_t dmk_utf8_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    size_t k = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
    if (k == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
        return 0;
    if (k == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
        return 0;
    return k;
}

bool dmk_escape_unsafe(const unsigned char *s, size_t k)
{
    if (k == 0)
        return true; /* invalid UTF-8: a terminal may take it for C1 */
    if (k == 1)
        return s[0] < 0x20 || s[0] == 0x7f;
    if (k == 2) /* U+0080..U+009F: C1 controls (0xC2 0x9B is CSI); U+061C */
        return (s[0] == 0xc2 && s[1] < 0xa0) || (s[0] == 0xd8 && s[1] == 0x9c);
    if (k == 3 && s[0] == 0xe2 && s[1] == 0x80) /* U+200E/F, U+202A..U+202E */
        return s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae);
    if (k == 3 && s[0] == 0xe2 && s[1] == 0x81) /* U+2066..U+2069 */
        return s[2] >= 0xa6 && s[2] <= 0xa9;
    return false;
}

void dmk_escape_inplace(char *s, const char *keep)
{
    size_t n = strlen(s), o = 0;
    for (size_t i = 0; i < n;) {
        const unsigned char *c = (const unsigned char *)s + i;
        size_t k = dmk_utf8_len(c, n - i);
        bool kept = k == 1 && keep && c[0] && strchr(keep, c[0]);
        if (!kept && dmk_escape_unsafe(c, k)) {
            s[o++] = '?';
            i += k ? k : 1;
        } else {
            memmove(s + o, s + i, k);
            o += k;
            i += k;
        }
    }
    s[o] = '\0';
}

const char *dmk_escape(const char *s, char *buf, size_t cap)
{
    size_t n = strlen(s), o = 0;
    if (cap == 0)
        return buf;
    for (size_t i = 0; i < n;) {
        const unsigned char *c = (const unsigned char *)s + i;
        size_t k = dmk_utf8_len(c, n - i);
        bool bad = dmk_escape_unsafe(c, k);
        size_t out = bad ? 1 : k;
        if (o + out + 1 > cap)
            break;
        if (bad)
            buf[o] = '?';
        else
            memcpy(buf + o, c, k);
        o += out;
        i += k ? k : 1;
    }
    buf[o] = '\0';
    return buf;
}

const char *dmk_utf8_valid_copy(const char *in, char *out, size_t cap)
{
    static const char fffd[] = "\xef\xbf\xbd";
    size_t n = strlen(in), o = 0;
    if (cap == 0)
        return out;
    for (size_t i = 0; i < n;) {
        size_t k = dmk_utf8_len((const unsigned char *)in + i, n - i);
        size_t w = k ? k : 3;
        if (o + w + 1 > cap)
            break;
        memcpy(out + o, k ? in + i : fffd, w);
        o += w;
        i += k ? k : 1;
    }
    out[o] = '\0';
    return out;
}
