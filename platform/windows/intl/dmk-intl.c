/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libintl-8.dll for the Windows window: a small gettext runtime of our
 * own, written from the public description of the .mo format (no GNU
 * gettext code). The GTK stack's libintl is proxy-libintl built STUB_ONLY
 * (its meson.build forces it): it never loads a real libintl and always
 * returns the msgid. GLib, GTK and drivemark.exe import its g_libintl_*
 * functions from "libintl-8.dll"; this DLL has that name and exports those
 * names (and the plain gettext ones), so the zip ships it in the stub's
 * place and everything above it translates.
 *
 * What it does: reads GNU .mo files of either byte order, each offset
 * checked before use (a truncated or hostile file is refused whole, never
 * read past); binary search of the sorted msgids (msgfmt sorts them);
 * the header's Plural-Forms evaluated by a small C-expression parser; the
 * language from LANGUAGE, else LC_ALL / LC_MESSAGES / LANG, else the
 * Windows user interface language; catalogs cached for the process (also
 * the missing ones, so a miss costs no file system call the next time);
 * one SRWLOCK over the bindings and the cache; paths opened through the
 * wide API. Catalogs are returned as they are: ours and GTK's are UTF-8,
 * which is what GLib and GTK ask for with bind_textdomain_codeset. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DMK_INTL_API __declspec(dllexport)

/* GNU's value (libintl.h of proxy-libintl says the same); only messages
 * are translated here, so the category is otherwise ignored. */
#define DMK_LC_MESSAGES 1729

DMK_INTL_API char *gettext(const char *msgid);
DMK_INTL_API char *dgettext(const char *domain, const char *msgid);
DMK_INTL_API char *dcgettext(const char *domain, const char *msgid, int category);
DMK_INTL_API char *ngettext(const char *msgid1, const char *msgid2, unsigned long n);
DMK_INTL_API char *dngettext(const char *domain, const char *msgid1, const char *msgid2,
                             unsigned long n);
DMK_INTL_API char *dcngettext(const char *domain, const char *msgid1, const char *msgid2,
                              unsigned long n, int category);
DMK_INTL_API char *textdomain(const char *domain);
DMK_INTL_API char *bindtextdomain(const char *domain, const char *dir);
DMK_INTL_API char *bind_textdomain_codeset(const char *domain, const char *codeset);

/* A file bigger than this is not a catalog (GTK's largest is < 1 MB). */
#define DMK_MO_MAX   (64u << 20)
#define DMK_MO_MAGIC 0x950412deu
/* Nesting the plural parser accepts: real expressions need 3 or 4. */
#define DMK_EXPR_DEPTH 64

/* ---- .mo files ---------------------------------------------------------
 * Header (7 uint32 in the file's byte order): magic, revision, N, offset
 * of the msgid table, offset of the translation table, hash size, hash
 * offset. Each table holds N (length, offset) pairs; a string is `length`
 * bytes at `offset` followed by a NUL. Plural translations are their forms
 * joined by NULs within one length. */

typedef struct {
    unsigned char *data;
    size_t size;
    int swap;       /* the file is big-endian */
    uint32_t count; /* strings */
    size_t ids, strs;
    unsigned long nplurals;
    char *plural; /* the Plural-Forms expression; NULL: n != 1 */
} DmkMo;

static uint32_t mo_u32(const DmkMo *mo, size_t off)
{
    const unsigned char *p = mo->data + off;
    if (mo->swap)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Entry i of a table: a string wholly inside the file, NUL included, so
 * that every pointer handed out is a valid C string. */
static int mo_entry_ok(const DmkMo *mo, size_t table, uint32_t i)
{
    size_t e = table + (size_t)i * 8;
    uint64_t len = mo_u32(mo, e), off = mo_u32(mo, e + 4);
    return off + len < mo->size && mo->data[off + len] == '\0';
}

static const char *mo_string(const DmkMo *mo, size_t table, uint32_t i, uint32_t *len)
{
    size_t e = table + (size_t)i * 8;
    *len = mo_u32(mo, e);
    return (const char *)mo->data + mo_u32(mo, e + 4);
}

/* The header and both tables, before anything is read through them. */
static int mo_check(DmkMo *mo)
{
    if (mo->size < 28)
        return 0;
    mo->swap = 0;
    if (mo_u32(mo, 0) != DMK_MO_MAGIC) {
        mo->swap = 1;
        if (mo_u32(mo, 0) != DMK_MO_MAGIC)
            return 0;
    }
    /* Major revisions 0 and 1 share the tables read here (1 adds system-
     * dependent strings, which msgfmt writes only for <PRI...> macros). */
    if (mo_u32(mo, 4) >> 16 > 1)
        return 0;
    mo->count = mo_u32(mo, 8);
    mo->ids = mo_u32(mo, 12);
    mo->strs = mo_u32(mo, 16);
    uint64_t span = (uint64_t)mo->count * 8;
    if (mo->ids + span > mo->size || mo->strs + span > mo->size)
        return 0;
    for (uint32_t i = 0; i < mo->count; i++)
        if (!mo_entry_ok(mo, mo->ids, i) || !mo_entry_ok(mo, mo->strs, i))
            return 0;
    return 1;
}

/* The translation of msgid, or NULL: msgfmt writes the msgids sorted by
 * strcmp (a plural entry's key is its singular, up to the first NUL). */
static const char *mo_find(const DmkMo *mo, const char *msgid, uint32_t *len)
{
    uint32_t lo = 0, hi = mo->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, idlen;
        int c = strcmp(msgid, mo_string(mo, mo->ids, mid, &idlen));
        if (c == 0) {
            const char *s = mo_string(mo, mo->strs, mid, len);
            return *len ? s : NULL; /* an empty translation is none */
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* ---- Plural-Forms -------------------------------------------------------
 * plural=EXPR is a C expression of n: integers, ! * / % + - < > <= >= ==
 * != && || ?: and parentheses, with C's precedence. A recursive-descent
 * parser evaluates it as it reads; unsigned arithmetic as GNU's (n is an
 * unsigned long), x / 0 and x % 0 give 0 instead of trapping. */

typedef struct {
    const char *p;
    unsigned long long n;
    int depth;
    int bad;
} DmkExpr;

static unsigned long long expr_cond(DmkExpr *e);

static void expr_space(DmkExpr *e)
{
    while (*e->p == ' ' || *e->p == '\t' || *e->p == '\r' || *e->p == '\n')
        e->p++;
}

/* Takes the operator tok, but not the start of a longer one ("<" of "<=",
 * "!" of "!="). */
static int expr_take(DmkExpr *e, const char *tok)
{
    expr_space(e);
    size_t len = strlen(tok);
    if (strncmp(e->p, tok, len) != 0)
        return 0;
    if (len == 1 && (*tok == '<' || *tok == '>' || *tok == '!') && e->p[1] == '=')
        return 0;
    e->p += len;
    return 1;
}

static unsigned long long expr_fail(DmkExpr *e)
{
    e->bad = 1;
    return 0;
}

static unsigned long long expr_number(DmkExpr *e)
{
    unsigned long long v = 0;
    while (*e->p >= '0' && *e->p <= '9') {
        if (v > (~0ull - 9) / 10)
            return expr_fail(e);
        v = v * 10 + (unsigned)(*e->p++ - '0');
    }
    return v;
}

static unsigned long long expr_primary(DmkExpr *e)
{
    expr_space(e);
    if (e->bad || ++e->depth > DMK_EXPR_DEPTH)
        return expr_fail(e);
    unsigned long long v = 0;
    if (expr_take(e, "!")) {
        v = !expr_primary(e);
    } else if (expr_take(e, "(")) {
        v = expr_cond(e);
        if (!expr_take(e, ")"))
            v = expr_fail(e);
    } else if (*e->p == 'n') {
        e->p++;
        v = e->n;
    } else if (*e->p >= '0' && *e->p <= '9') {
        v = expr_number(e);
    } else {
        v = expr_fail(e);
    }
    e->depth--;
    return v;
}

static unsigned long long expr_mul(DmkExpr *e)
{
    unsigned long long v = expr_primary(e);
    for (;;) {
        if (expr_take(e, "*")) {
            v *= expr_primary(e);
        } else if (expr_take(e, "/")) {
            unsigned long long d = expr_primary(e);
            v = d ? v / d : 0;
        } else if (expr_take(e, "%")) {
            unsigned long long d = expr_primary(e);
            v = d ? v % d : 0;
        } else {
            return v;
        }
    }
}

static unsigned long long expr_add(DmkExpr *e)
{
    unsigned long long v = expr_mul(e);
    for (;;) {
        if (expr_take(e, "+"))
            v += expr_mul(e);
        else if (expr_take(e, "-"))
            v -= expr_mul(e);
        else
            return v;
    }
}

static unsigned long long expr_rel(DmkExpr *e)
{
    unsigned long long v = expr_add(e);
    for (;;) {
        if (expr_take(e, "<="))
            v = v <= expr_add(e);
        else if (expr_take(e, ">="))
            v = v >= expr_add(e);
        else if (expr_take(e, "<"))
            v = v < expr_add(e);
        else if (expr_take(e, ">"))
            v = v > expr_add(e);
        else
            return v;
    }
}

static unsigned long long expr_eq(DmkExpr *e)
{
    unsigned long long v = expr_rel(e);
    for (;;) {
        if (expr_take(e, "=="))
            v = v == expr_rel(e);
        else if (expr_take(e, "!="))
            v = v != expr_rel(e);
        else
            return v;
    }
}

/* Both sides are always evaluated: nothing here has side effects. */
static unsigned long long expr_and(DmkExpr *e)
{
    unsigned long long v = expr_eq(e);
    while (expr_take(e, "&&")) {
        unsigned long long r = expr_eq(e);
        v = v && r;
    }
    return v;
}

static unsigned long long expr_or(DmkExpr *e)
{
    unsigned long long v = expr_and(e);
    while (expr_take(e, "||")) {
        unsigned long long r = expr_and(e);
        v = v || r;
    }
    return v;
}

static unsigned long long expr_cond(DmkExpr *e)
{
    if (e->bad || ++e->depth > DMK_EXPR_DEPTH)
        return expr_fail(e);
    unsigned long long v = expr_or(e);
    if (expr_take(e, "?")) {
        unsigned long long a = expr_cond(e);
        if (!expr_take(e, ":"))
            return expr_fail(e);
        unsigned long long b = expr_cond(e);
        v = v ? a : b;
    }
    e->depth--;
    return v;
}

/* EXPR's value for n; -1 when it is not a well-formed expression. */
static long long dmk_intl_plural_eval(const char *expr, unsigned long long n)
{
    DmkExpr e = {expr, n, 0, 0};
    unsigned long long v = expr_cond(&e);
    expr_space(&e);
    if (e.bad || *e.p)
        return -1;
    return v > 0x7fffffff ? 0x7fffffff : (long long)v;
}

/* nplurals=N; plural=EXPR; from the header's Plural-Forms line. Anything
 * amiss leaves the Germanic default (2 forms, n != 1). */
static void mo_plural_forms(DmkMo *mo)
{
    mo->nplurals = 2;
    mo->plural = NULL;
    uint32_t len;
    const char *h = mo_find(mo, "", &len);
    const char *line = h ? strstr(h, "Plural-Forms:") : NULL;
    if (!line)
        return;
    const char *end = strchr(line, '\n');
    size_t span = end ? (size_t)(end - line) : strlen(line);
    const char *np = strstr(line, "nplurals=");
    const char *pl = strstr(line, "plural="); /* not in "nplurals=": an 's' follows */
    if (!np || !pl || np >= line + span || pl >= line + span)
        return;
    unsigned long k = strtoul(np + 9, NULL, 10);
    pl += 7;
    size_t elen = strcspn(pl, ";\n");
    char *expr = malloc(elen + 1);
    if (!expr || k == 0 || k > 100) {
        free(expr);
        return;
    }
    memcpy(expr, pl, elen);
    expr[elen] = '\0';
    if (dmk_intl_plural_eval(expr, 1) < 0) {
        free(expr);
        return;
    }
    mo->nplurals = k;
    mo->plural = expr;
}

/* Form `index` of a plural translation (forms joined by NULs), or NULL. */
static const char *mo_form(const char *s, uint32_t len, unsigned long index)
{
    const char *end = s + len;
    while (index-- > 0) {
        s += strlen(s) + 1;
        if (s >= end)
            return NULL;
    }
    return s;
}

static unsigned long mo_index(const DmkMo *mo, unsigned long n)
{
    long long v = mo->plural ? dmk_intl_plural_eval(mo->plural, n) : (n != 1);
    return v < 0 || (unsigned long long)v >= mo->nplurals ? 0 : (unsigned long)v;
}

/* ---- Files -------------------------------------------------------------- */

static wchar_t *to_wide(const char *s, UINT cp)
{
    DWORD flags = cp == CP_UTF8 ? MB_ERR_INVALID_CHARS : 0;
    int n = MultiByteToWideChar(cp, flags, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w && MultiByteToWideChar(cp, flags, s, -1, w, n) != n) {
        free(w);
        w = NULL;
    }
    return w;
}

static char *to_utf8(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = n > 0 ? malloc((size_t)n) : NULL;
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) != n) {
        free(s);
        s = NULL;
    }
    return s;
}

static unsigned char *read_file(const wchar_t *path, size_t *size)
{
    HANDLE h = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return NULL;
    LARGE_INTEGER len;
    unsigned char *data = NULL;
    DWORD got = 0;
    if (GetFileSizeEx(h, &len) && len.QuadPart > 0 && len.QuadPart <= DMK_MO_MAX)
        data = malloc((size_t)len.QuadPart);
    if (data && (!ReadFile(h, data, (DWORD)len.QuadPart, &got, NULL) || got != len.QuadPart)) {
        free(data);
        data = NULL;
    }
    CloseHandle(h);
    *size = (size_t)got;
    return data;
}

/* DIR\LANG\LC_MESSAGES\DOMAIN.mo, DIR in code page cp. */
static unsigned char *read_catalog(const char *dir, const char *lang, const char *domain, UINT cp,
                                   size_t *size)
{
    size_t len = strlen(dir) + strlen(lang) + strlen(domain) + 32;
    char *rest = malloc(len);
    wchar_t *wdir = to_wide(dir, cp);
    unsigned char *data = NULL;
    if (rest && wdir) {
        snprintf(rest, len, "\\%s\\LC_MESSAGES\\%s.mo", lang, domain);
        wchar_t *wrest = to_wide(rest, CP_UTF8);
        size_t n = wcslen(wdir) + (wrest ? wcslen(wrest) : 0) + 1;
        wchar_t *path = wrest ? malloc(n * sizeof *path) : NULL;
        if (path) {
            wcscpy(path, wdir);
            wcscat(path, wrest);
            data = read_file(path, size);
        }
        free(path);
        free(wrest);
    }
    free(wdir);
    free(rest);
    return data;
}

static int has_high_bytes(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 1;
    return 0;
}

/* The directory as UTF-8 (ours, GLib's own UTF-8 paths), else in the ANSI
 * code page: GTK hands bindtextdomain its folder converted with
 * g_win32_locale_filename_from_utf8, as GNU libintl's narrow API wants. */
static DmkMo *load_catalog(const char *dir, const char *lang, const char *domain)
{
    size_t size = 0;
    unsigned char *data = read_catalog(dir, lang, domain, CP_UTF8, &size);
    if (!data && has_high_bytes(dir))
        data = read_catalog(dir, lang, domain, CP_ACP, &size);
    DmkMo *mo = data ? calloc(1, sizeof *mo) : NULL;
    if (!mo) {
        free(data);
        return NULL;
    }
    mo->data = data;
    mo->size = size;
    if (!mo_check(mo)) {
        free(data);
        free(mo);
        return NULL;
    }
    mo_plural_forms(mo);
    return mo;
}

/* ---- Bindings and the cache ---------------------------------------------
 * Strings handed out (a domain's folder, textdomain's name) are never
 * freed: callers may keep the pointers, as GNU's API allows. */

typedef struct DmkBinding {
    struct DmkBinding *next;
    char *domain, *dir, *codeset;
} DmkBinding;

typedef struct DmkCatalog {
    struct DmkCatalog *next;
    char *domain, *dir, *lang;
    DmkMo *mo; /* NULL: there is none (cached too) */
} DmkCatalog;

static SRWLOCK lock = SRWLOCK_INIT;
static DmkBinding *bindings;
static DmkCatalog *catalogs;
static char *current_domain;
static char *default_dir;
/* Where the program's folder cannot be had (no memory, a path too long). */
static char last_resort[] = ".\\share\\locale";

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* An unbound domain's folder: share\locale beside the program, where the
 * zip puts the catalogs. Under the exclusive lock. */
static const char *fallback_dir(void)
{
    if (default_dir)
        return default_dir;
    wchar_t exe[MAX_PATH * 4];
    DWORD n = GetModuleFileNameW(NULL, exe, MAX_PATH * 4);
    if (n == 0 || n >= MAX_PATH * 4)
        return last_resort;
    wchar_t *slash = wcsrchr(exe, L'\\');
    if (slash)
        *slash = L'\0';
    char *dir = to_utf8(exe);
    size_t len = dir ? strlen(dir) + 16 : 0;
    default_dir = dir ? malloc(len) : NULL;
    if (default_dir)
        snprintf(default_dir, len, "%s\\share\\locale", dir);
    free(dir);
    return default_dir ? default_dir : last_resort;
}

static DmkBinding *find_binding(const char *domain)
{
    for (DmkBinding *b = bindings; b; b = b->next)
        if (strcmp(b->domain, domain) == 0)
            return b;
    return NULL;
}

static DmkBinding *add_binding(const char *domain)
{
    DmkBinding *b = find_binding(domain);
    if (b)
        return b;
    b = calloc(1, sizeof *b);
    if (b && !(b->domain = dup_str(domain))) {
        free(b);
        return NULL;
    }
    if (b) {
        b->next = bindings;
        bindings = b;
    }
    return b;
}

/* The domain's folder. Under the shared lock it may be NULL (the default
 * not made yet: the caller takes the exclusive one, where fallback_dir
 * has run and it never is). */
static const char *domain_dir(const char *domain)
{
    DmkBinding *b = find_binding(domain);
    if (b && b->dir)
        return b->dir;
    return default_dir ? default_dir : NULL;
}

static DmkCatalog *find_catalog(const char *domain, const char *dir, const char *lang)
{
    for (DmkCatalog *c = catalogs; c; c = c->next)
        if (strcmp(c->lang, lang) == 0 && strcmp(c->domain, domain) == 0 &&
            strcmp(c->dir, dir) == 0)
            return c;
    return NULL;
}

/* The loaded catalog of DOMAIN in LANG, or NULL; read once per process.
 * A file added later is not seen (GNU caches the same way). */
static const DmkMo *catalog(const char *domain, const char *lang)
{
    AcquireSRWLockShared(&lock);
    const char *dir = domain_dir(domain);
    DmkCatalog *c = dir ? find_catalog(domain, dir, lang) : NULL;
    ReleaseSRWLockShared(&lock);
    if (c)
        return c->mo;
    AcquireSRWLockExclusive(&lock);
    const char *fallback = fallback_dir();
    dir = domain_dir(domain);
    if (!dir)
        dir = fallback;
    c = find_catalog(domain, dir, lang);
    if (!c && (c = calloc(1, sizeof *c)) != NULL) {
        c->domain = dup_str(domain);
        c->dir = dup_str(dir);
        c->lang = dup_str(lang);
        if (c->domain && c->dir && c->lang) {
            c->mo = load_catalog(dir, lang, domain);
            c->next = catalogs;
            catalogs = c;
        } else {
            free(c->domain);
            free(c->dir);
            free(c->lang);
            free(c);
            c = NULL;
        }
    }
    ReleaseSRWLockExclusive(&lock);
    return c ? c->mo : NULL;
}

/* ---- The language -------------------------------------------------------
 * A list of names to try, NUL-separated, ended by an empty one. Each entry
 * ll_CC.codeset@modifier is tried as it is, then ll_CC@modifier, ll_CC,
 * ll@modifier and ll: "cs_CZ" finds the catalog "cs". */

#define DMK_LANGS 1024

static void add_name(char *list, size_t *used, const char *name, size_t len)
{
    if (len == 0 || *used + len + 2 > DMK_LANGS)
        return;
    for (const char *p = list; *p; p += strlen(p) + 1)
        if (strlen(p) == len && strncmp(p, name, len) == 0)
            return;
    memcpy(list + *used, name, len);
    *used += len;
    list[(*used)++] = '\0';
    list[*used] = '\0';
}

/* The length of entry's first len bytes up to one of set (strcspn within
 * an entry of LANGUAGE's list, which is not NUL-terminated). */
static size_t span_to(const char *s, size_t len, const char *set)
{
    size_t i = 0;
    while (i < len && !strchr(set, s[i]))
        i++;
    return i;
}

static void add_variants(char *list, size_t *used, const char *entry, size_t len)
{
    char buf[128];
    if (len == 0 || len >= 64)
        return;
    for (size_t i = 0; i < len; i++) {
        char c = entry[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '@' || c == '-'))
            return; /* not a language name; no path tricks through it */
    }
    size_t ll = span_to(entry, len, "_.@"), cc = ll;
    if (cc < len && entry[cc] == '_')
        cc += span_to(entry + cc, len - cc, ".@");
    const char *at = memchr(entry, '@', len);
    size_t mod = at ? len - (size_t)(at - entry) : 0;
    add_name(list, used, entry, len);
    const size_t heads[] = {cc, cc, ll, ll};
    const size_t mods[] = {mod, 0, mod, 0};
    for (int i = 0; i < 4; i++) {
        memcpy(buf, entry, heads[i]);
        memcpy(buf + heads[i], at ? at : "", mods[i]);
        add_name(list, used, buf, heads[i] + mods[i]);
    }
}

static int env_utf8(const wchar_t *name, char *out, size_t cap)
{
    wchar_t w[256];
    DWORD n = GetEnvironmentVariableW(name, w, 256);
    if (n == 0 || n >= 256)
        return 0;
    return WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)cap, NULL, NULL) > 1;
}

/* "cs-CZ" -> cs_CZ; "sr-Latn-RS" -> sr_RS@latin; "zh-Hans-CN" -> zh_CN. */
static void windows_language(char *list, size_t *used)
{
    wchar_t w[LOCALE_NAME_MAX_LENGTH];
    char name[LOCALE_NAME_MAX_LENGTH + 8], out[LOCALE_NAME_MAX_LENGTH + 16];
    LCID id = MAKELCID(GetUserDefaultUILanguage(), SORT_DEFAULT);
    if (LCIDToLocaleName(id, w, LOCALE_NAME_MAX_LENGTH, 0) == 0 &&
        GetUserDefaultLocaleName(w, LOCALE_NAME_MAX_LENGTH) == 0)
        return;
    if (WideCharToMultiByte(CP_UTF8, 0, w, -1, name, sizeof name, NULL, NULL) <= 1)
        return;
    char *parts[3] = {name, NULL, NULL};
    for (int i = 1; i < 3 && parts[i - 1]; i++) {
        char *dash = strchr(parts[i - 1], '-');
        if (dash) {
            *dash = '\0';
            parts[i] = dash + 1;
        }
    }
    const char *script = parts[1] && strlen(parts[1]) == 4 ? parts[1] : NULL;
    const char *region = script ? parts[2] : parts[1];
    snprintf(out, sizeof out, "%s%s%s%s", parts[0], region ? "_" : "", region ? region : "",
             script && strcmp(script, "Latn") == 0 ? "@latin" : "");
    add_variants(list, used, out, strlen(out));
}

static int is_c_locale(const char *v)
{
    return strcmp(v, "C") == 0 || strcmp(v, "POSIX") == 0 || strncmp(v, "C.", 2) == 0;
}

/* LANGUAGE wins (View > Language sets it; Windows has no C locale of
 * messages for it to yield to), then the first of LC_ALL, LC_MESSAGES,
 * LANG ("C" there means English), then Windows' own. */
static void language_list(char *list)
{
    char v[1024];
    size_t used = 0;
    list[0] = list[1] = '\0';
    if (env_utf8(L"LANGUAGE", v, sizeof v)) {
        for (const char *p = v; *p;) {
            size_t len = strcspn(p, ":");
            add_variants(list, &used, p, len);
            p += len + (p[len] == ':');
        }
        if (used)
            return;
    }
    static const wchar_t *const vars[] = {L"LC_ALL", L"LC_MESSAGES", L"LANG"};
    for (int i = 0; i < 3; i++) {
        if (env_utf8(vars[i], v, sizeof v)) {
            if (!is_c_locale(v))
                add_variants(list, &used, v, strlen(v));
            return;
        }
    }
    windows_language(list, &used);
}

/* ---- The API ------------------------------------------------------------ */

static const char *domain_or_current(const char *domain)
{
    if (domain && *domain)
        return domain;
    AcquireSRWLockShared(&lock);
    const char *d = current_domain ? current_domain : "messages";
    ReleaseSRWLockShared(&lock);
    return d;
}

static char *lookup(const char *domain, const char *id1, const char *id2, unsigned long n,
                    int plural)
{
    if (!id1)
        return NULL;
    const char *english = plural && n != 1 && id2 ? id2 : id1;
    char list[DMK_LANGS];
    language_list(list);
    domain = domain_or_current(domain);
    for (const char *lang = list; *lang; lang += strlen(lang) + 1) {
        const DmkMo *mo = catalog(domain, lang);
        uint32_t len;
        const char *s = mo ? mo_find(mo, id1, &len) : NULL;
        if (s && plural)
            s = mo_form(s, len, mo_index(mo, n));
        if (s)
            return (char *)s;
    }
    return (char *)english;
}

char *dcngettext(const char *domain, const char *msgid1, const char *msgid2, unsigned long n,
                 int category)
{
    (void)category; /* messages only: see DMK_LC_MESSAGES */
    return lookup(domain, msgid1, msgid2, n, 1);
}

char *dngettext(const char *domain, const char *msgid1, const char *msgid2, unsigned long n)
{
    return lookup(domain, msgid1, msgid2, n, 1);
}

char *ngettext(const char *msgid1, const char *msgid2, unsigned long n)
{
    return lookup(NULL, msgid1, msgid2, n, 1);
}

char *dcgettext(const char *domain, const char *msgid, int category)
{
    (void)category;
    return lookup(domain, msgid, NULL, 1, 0);
}

char *dgettext(const char *domain, const char *msgid)
{
    return lookup(domain, msgid, NULL, 1, 0);
}

char *gettext(const char *msgid)
{
    return lookup(NULL, msgid, NULL, 1, 0);
}

/* textdomain(NULL) is "messages" until set: GLib relies on it. */
char *textdomain(const char *domain)
{
    AcquireSRWLockExclusive(&lock);
    if (domain && *domain) {
        char *d = dup_str(domain);
        if (d)
            current_domain = d;
    } else if (domain) {
        current_domain = NULL;
    }
    char *now = current_domain ? current_domain : (char *)"messages";
    ReleaseSRWLockExclusive(&lock);
    return now;
}

char *bindtextdomain(const char *domain, const char *dir)
{
    if (!domain || !*domain)
        return NULL;
    AcquireSRWLockExclusive(&lock);
    const char *fallback = fallback_dir();
    DmkBinding *b = dir ? add_binding(domain) : find_binding(domain);
    char *d = dir ? dup_str(dir) : NULL;
    if (b && d)
        b->dir = d;
    else
        free(d);
    char *now = (char *)domain_dir(domain);
    if (!now)
        now = (char *)fallback;
    ReleaseSRWLockExclusive(&lock);
    return now;
}

char *bind_textdomain_codeset(const char *domain, const char *codeset)
{
    if (!domain || !*domain)
        return NULL;
    AcquireSRWLockExclusive(&lock);
    DmkBinding *b = codeset ? add_binding(domain) : find_binding(domain);
    char *c = codeset ? dup_str(codeset) : NULL;
    if (b && c)
        b->codeset = c;
    else
        free(c);
    char *now = b ? b->codeset : NULL;
    ReleaseSRWLockExclusive(&lock);
    return now;
}

/* The names GLib, GTK and drivemark.exe import: proxy-libintl's libintl.h
 * renames the API to g_libintl_*, and they were linked against it. */
DMK_INTL_API char *g_libintl_gettext(const char *msgid);
DMK_INTL_API char *g_libintl_dgettext(const char *domain, const char *msgid);
DMK_INTL_API char *g_libintl_dcgettext(const char *domain, const char *msgid, int category);
DMK_INTL_API char *g_libintl_ngettext(const char *msgid1, const char *msgid2, unsigned long n);
DMK_INTL_API char *g_libintl_dngettext(const char *domain, const char *msgid1, const char *msgid2,
                                       unsigned long n);
DMK_INTL_API char *g_libintl_dcngettext(const char *domain, const char *msgid1, const char *msgid2,
                                        unsigned long n, int category);
DMK_INTL_API char *g_libintl_textdomain(const char *domain);
DMK_INTL_API char *g_libintl_bindtextdomain(const char *domain, const char *dir);
DMK_INTL_API char *g_libintl_bind_textdomain_codeset(const char *domain, const char *codeset);

char *g_libintl_gettext(const char *msgid)
{
    return gettext(msgid);
}

char *g_libintl_dgettext(const char *domain, const char *msgid)
{
    return dgettext(domain, msgid);
}

char *g_libintl_dcgettext(const char *domain, const char *msgid, int category)
{
    return dcgettext(domain, msgid, category);
}

char *g_libintl_ngettext(const char *msgid1, const char *msgid2, unsigned long n)
{
    return ngettext(msgid1, msgid2, n);
}

char *g_libintl_dngettext(const char *domain, const char *msgid1, const char *msgid2,
                          unsigned long n)
{
    return dngettext(domain, msgid1, msgid2, n);
}

char *g_libintl_dcngettext(const char *domain, const char *msgid1, const char *msgid2,
                           unsigned long n, int category)
{
    return dcngettext(domain, msgid1, msgid2, n, category);
}

char *g_libintl_textdomain(const char *domain)
{
    return textdomain(domain);
}

char *g_libintl_bindtextdomain(const char *domain, const char *dir)
{
    return bindtextdomain(domain, dir);
}

char *g_libintl_bind_textdomain_codeset(const char *domain, const char *codeset)
{
    return bind_textdomain_codeset(domain, codeset);
}
