/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's gettext runtime on Windows (platform/windows/intl), loaded
 * as GLib finds it: LoadLibrary, then the g_libintl_* names proxy-libintl's
 * header gave GLib and GTK (and the plain ones). Catalogs are written here
 * by a small .mo writer of the test's own, in either byte order, so hostile
 * ones can be made too: plural forms of Russian and Czech, the LANGUAGE
 * list and its fallbacks, a folder with a non-ASCII name, truncated and
 * lying files refused without a crash, lookups from several threads.
 *
 *   test-intl.exe PATH\TO\libintl-8.dll [UI_LANGUAGE]
 *
 * UI_LANGUAGE (cs or ru): the Windows user interface language the process
 * was started with (Wine takes it from LANG / LC_ALL at start), which a
 * lookup with no variable set must follow. */
#include <windows.h>

#include <stdint.h>
#include <wchar.h>

#include "dmk-test.h"

typedef char *(*DmkGettextFn)(const char *);
typedef char *(*DmkDgettextFn)(const char *, const char *);
typedef char *(*DmkDngettextFn)(const char *, const char *, const char *, unsigned long);
typedef char *(*DmkBindFn)(const char *, const char *);
typedef char *(*DmkDomainFn)(const char *);

static HMODULE dll;
static DmkGettextFn p_gettext;
static DmkDgettextFn p_dgettext;
static DmkDngettextFn p_dngettext;
static DmkBindFn p_bindtextdomain, p_codeset;
static DmkDomainFn p_textdomain;
static char root[MAX_PATH * 2];
static const char *ui_language;

#define RU_PLURAL \
    "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"
#define CS_PLURAL "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"

/* ---- A .mo writer ---------------------------------------------------- */

typedef struct {
    const char *id, *str; /* plural: forms joined by NULs, lengths given */
    size_t idlen, strlen_;
} Entry;

static void put32(unsigned char *p, uint32_t v, int be)
{
    for (int i = 0; i < 4; i++)
        p[be ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

/* The file's bytes; entries sorted by msgid, as msgfmt writes them. */
static unsigned char *build_mo(const Entry *e, uint32_t n, int be, size_t *size)
{
    size_t total = 28 + 16 * (size_t)n;
    for (uint32_t i = 0; i < n; i++)
        total += e[i].idlen + e[i].strlen_ + 2;
    unsigned char *b = calloc(1, total);
    put32(b, 0x950412deu, be);
    put32(b + 8, n, be);
    put32(b + 12, 28, be);
    put32(b + 16, 28 + 8 * n, be);
    put32(b + 24, 28 + 16 * n, be);
    size_t at = 28 + 16 * (size_t)n;
    for (int t = 0; t < 2; t++) {
        for (uint32_t i = 0; i < n; i++) {
            const char *s = t ? e[i].str : e[i].id;
            size_t len = t ? e[i].strlen_ : e[i].idlen;
            put32(b + 28 + 8 * (size_t)(t * n + i), (uint32_t)len, be);
            put32(b + 32 + 8 * (size_t)(t * n + i), (uint32_t)at, be);
            memcpy(b + at, s, len);
            at += len + 1;
        }
    }
    *size = total;
    return b;
}

static wchar_t *wide(const char *s)
{
    static wchar_t w[MAX_PATH * 2];
    MultiByteToWideChar(CP_UTF8, 0, s, -1, w, MAX_PATH * 2);
    return w;
}

/* DIR\LANG\LC_MESSAGES\DOMAIN.mo, its folders made. */
static void save_mo(const char *dir, const char *lang, const char *domain, const unsigned char *b,
                    size_t size)
{
    char path[MAX_PATH * 2];
    snprintf(path, sizeof path, "%s\\%s", dir, lang);
    _wmkdir(wide(dir));
    _wmkdir(wide(path));
    snprintf(path, sizeof path, "%s\\%s\\LC_MESSAGES", dir, lang);
    _wmkdir(wide(path));
    snprintf(path, sizeof path, "%s\\%s\\LC_MESSAGES\\%s.mo", dir, lang, domain);
    FILE *f = _wfopen(wide(path), L"wb");
    DMK_CHECK(f != NULL);
    if (f) {
        fwrite(b, 1, size, f);
        fclose(f);
    }
}

#define E(id, str)                               \
    {                                            \
        id, str, sizeof(id) - 1, sizeof(str) - 1 \
    }

static void write_catalog(const char *dir, const char *lang, const char *domain, const char *plural,
                          const char *file3[3], const char *read, int be)
{
    char header[256], forms[128];
    int hl = snprintf(header, sizeof header,
                      "Content-Type: text/plain; charset=UTF-8\n"
                      "Plural-Forms: nplurals=3; plural=%s;\n",
                      plural);
    int fl = snprintf(forms, sizeof forms, "%s%c%s%c%s", file3[0], 0, file3[1], 0, file3[2]);
    Entry e[] = {
        {"", header, 0, (size_t)hl},
        {"%d file\0%d files", forms, sizeof("%d file\0%d files") - 1, (size_t)fl},
        {"Read [MB/s]", read, 11, strlen(read)},
    };
    size_t size;
    unsigned char *b = build_mo(e, 3, be, &size);
    save_mo(dir, lang, domain, b, size);
    free(b);
}

static void set_env(const char *name, const char *value)
{
    wchar_t w[64];
    MultiByteToWideChar(CP_UTF8, 0, name, -1, w, 64);
    SetEnvironmentVariableW(w, value ? wide(value) : NULL);
}

static void only_language(const char *language)
{
    set_env("LANGUAGE", language);
    set_env("LC_ALL", NULL);
    set_env("LC_MESSAGES", NULL);
    set_env("LANG", NULL);
}

/* ---- The tests ------------------------------------------------------- */

static const char *ru_forms[3] = {"%d файл", "%d файла", "%d файлов"};
static const char *cs_forms[3] = {"%d soubor", "%d soubory", "%d souborů"};

static void test_exports(void)
{
    static const char *names[] = {"gettext",    "dgettext",       "dcgettext",
                                  "ngettext",   "dngettext",      "dcngettext",
                                  "textdomain", "bindtextdomain", "bind_textdomain_codeset"};
    char g[64];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(g, sizeof g, "g_libintl_%s", names[i]);
        if (!GetProcAddress(dll, names[i]) || !GetProcAddress(dll, g))
            printf("# %s or %s is not exported\n", names[i], g);
        DMK_CHECK(GetProcAddress(dll, names[i]) && GetProcAddress(dll, g));
    }
}

static void test_domains(void)
{
    DMK_CHECK_STR(p_textdomain(NULL), "messages"); /* GLib relies on it */
    DMK_CHECK_STR(p_textdomain("other"), "other");
    DMK_CHECK_STR(p_textdomain(NULL), "other");
    DMK_CHECK_STR(p_textdomain(""), "messages");
    DMK_CHECK_STR(p_bindtextdomain("plural", root), root);
    DMK_CHECK_STR(p_bindtextdomain("plural", NULL), root);
    DMK_CHECK(p_codeset("plural", NULL) == NULL);
    DMK_CHECK_STR(p_codeset("plural", "UTF-8"), "UTF-8");
    DMK_CHECK(p_bindtextdomain("", root) == NULL);
}

static void test_russian_plurals(void)
{
    only_language("ru");
    static const unsigned long n[] = {1, 2, 5, 11, 21, 22, 0, 101, 111, 1000004};
    static const int form[] = {0, 1, 2, 2, 0, 1, 2, 0, 2, 1};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        const char *got = p_dngettext("plural", "%d file", "%d files", n[i]);
        if (strcmp(got, ru_forms[form[i]]) != 0)
            printf("# n=%lu: \"%s\", expected \"%s\"\n", n[i], got, ru_forms[form[i]]);
        DMK_CHECK_STR(got, ru_forms[form[i]]);
    }
    p_textdomain("plural");
    DMK_CHECK_STR(p_gettext("Read [MB/s]"), "Чтение [MB/s]");      /* the default domain */
    DMK_CHECK_HAS(p_gettext(""), "Plural-Forms: nplurals=3");      /* the header */
    DMK_CHECK_STR(p_dgettext("plural", "Not there"), "Not there"); /* a miss: the msgid */
}

/* The Czech catalog is big-endian: both byte orders read. */
static void test_czech_plurals_big_endian(void)
{
    only_language("cs");
    DMK_CHECK_STR(p_dngettext("plural", "%d file", "%d files", 1), cs_forms[0]);
    DMK_CHECK_STR(p_dngettext("plural", "%d file", "%d files", 2), cs_forms[1]);
    DMK_CHECK_STR(p_dngettext("plural", "%d file", "%d files", 4), cs_forms[1]);
    DMK_CHECK_STR(p_dngettext("plural", "%d file", "%d files", 5), cs_forms[2]);
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Čtení [MB/s]");
}

static void test_language_list(void)
{
    only_language("xx:cs_CZ.UTF-8:ru"); /* no xx; cs_CZ finds cs */
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Čtení [MB/s]");
    only_language("de:ru");
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Чтение [MB/s]");
    only_language("en");
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Read [MB/s]");
    DMK_CHECK_STR(p_dngettext("plural", "%d file", "%d files", 2), "%d files");
    only_language("../../x:ru"); /* not a language name: skipped */
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Чтение [MB/s]");
    only_language(NULL);
    set_env("LC_ALL", "cs_CZ.UTF-8");
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Čtení [MB/s]");
    set_env("LC_ALL", "C.UTF-8"); /* C: English, not Windows' language */
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Read [MB/s]");
    set_env("LC_ALL", NULL);
    set_env("LANG", "ru_RU");
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), "Чтение [MB/s]");
    set_env("LANG", NULL);
    /* Windows' own language: whatever Wine says, a valid answer. */
    const char *got = p_dgettext("plural", "Read [MB/s]");
    printf("# with no variable set: \"%s\"\n", got);
    DMK_CHECK(strcmp(got, "Read [MB/s]") == 0 || strcmp(got, "Чтение [MB/s]") == 0 ||
              strcmp(got, "Čtení [MB/s]") == 0);
}

/* No variable at all: Windows' language (GetUserDefaultUILanguage, "cs-CZ"
 * finding "cs"). The meson test intl-windows-language starts Wine in
 * Czech and names it. */
static void test_windows_language(void)
{
    if (!ui_language)
        DMK_SKIP("no UI language named (the test intl-windows-language names one)");
    only_language(NULL);
    const char *want = strcmp(ui_language, "cs") == 0 ? "Čtení [MB/s]" : "Чтение [MB/s]";
    DMK_CHECK_STR(p_dgettext("plural", "Read [MB/s]"), want);
}

static void test_unicode_folder(void)
{
    char dir[MAX_PATH * 2];
    snprintf(dir, sizeof dir, "%s\\Тест", root);
    write_catalog(dir, "ru", "unicode", RU_PLURAL, ru_forms, "Чтение (Тест)", 0);
    p_bindtextdomain("unicode", dir);
    only_language("ru");
    DMK_CHECK_STR(p_dgettext("unicode", "Read [MB/s]"), "Чтение (Тест)");
}

/* Each one a domain of its own in language "ru": none may crash, each
 * gives the msgid back. */
static void check_hostile(const char *domain, const unsigned char *b, size_t size)
{
    save_mo(root, "ru", domain, b, size);
    p_bindtextdomain(domain, root);
    only_language("ru");
    const char *got = p_dgettext(domain, "Read [MB/s]");
    if (strcmp(got, "Read [MB/s]") != 0)
        printf("# %s: \"%s\"\n", domain, got);
    DMK_CHECK_STR(got, "Read [MB/s]");
    DMK_CHECK_STR(p_dngettext(domain, "%d file", "%d files", 5), "%d files");
}

static void test_hostile_files(void)
{
    Entry e[] = {E("", "Plural-Forms: nplurals=3; plural=" RU_PLURAL ";\n"),
                 E("Read [MB/s]", "Чтение [MB/s]")};
    size_t size;
    unsigned char *good = build_mo(e, 2, 0, &size);
    unsigned char *b = malloc(size);
    char name[32];
    for (size_t cut = 0; cut < size; cut += 7) { /* truncated anywhere */
        snprintf(name, sizeof name, "cut%zu", cut);
        check_hostile(name, good, cut);
    }
    memcpy(b, good, size);
    b[0] ^= 1; /* not a .mo */
    check_hostile("magic", b, size);
    memcpy(b, good, size);
    put32(b + 8, 0x10000000u, 0); /* N far beyond the file */
    check_hostile("count", b, size);
    memcpy(b, good, size);
    put32(b + 16, 0xfffffff0u, 0); /* the translation table past the end */
    check_hostile("table", b, size);
    memcpy(b, good, size);
    put32(b + 28 + 16 + 12, 0xfffffff8u, 0); /* a string's offset past the end */
    check_hostile("offset", b, size);
    memcpy(b, good, size);
    put32(b + 28 + 16 + 8, 0x7fffffffu, 0); /* a string's length past the end */
    check_hostile("length", b, size);
    memcpy(b, good, size);
    b[size - 1] = 'x'; /* the last string not NUL-terminated */
    check_hostile("nul", b, size);
    memcpy(b, good, size);
    put32(b + 4, 0x00050000u, 0); /* a revision of the future */
    check_hostile("revision", b, size);
    free(b);
    free(good);
}

/* A broken Plural-Forms falls back to n != 1, whatever the expression. */
static void test_bad_plural_expression(void)
{
    static const char *exprs[] = {"(n==1",
                                  "n ? 1",
                                  "n ==",
                                  "1/0",
                                  "n % 0",
                                  "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
                                  "((((((((((((n))))))))))))))))))))))))))))))))))))))))))))))))))"
                                  "))))))))))))))))))))))))))))",
                                  "99999999999999999999999999",
                                  "n & 1",
                                  "x"};
    char domain[16];
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        snprintf(domain, sizeof domain, "expr%zu", i);
        write_catalog(root, "ru", domain, exprs[i], ru_forms, "Чтение [MB/s]", 0);
        p_bindtextdomain(domain, root);
        only_language("ru");
        const char *one = p_dngettext(domain, "%d file", "%d files", 1);
        const char *five = p_dngettext(domain, "%d file", "%d files", 5);
        int defaulted = strcmp(one, ru_forms[0]) == 0 && strcmp(five, ru_forms[1]) == 0;
        int evaluated = i >= 3 && i <= 4; /* 1/0 and n%0 are well formed: 0 */
        if (!(evaluated ? strcmp(one, ru_forms[0]) == 0 : defaulted))
            printf("# %s: n=1 \"%s\", n=5 \"%s\"\n", exprs[i], one, five);
        DMK_CHECK(evaluated ? strcmp(one, ru_forms[0]) == 0 : defaulted);
    }
}

static DWORD WINAPI lookups(LPVOID arg)
{
    (void)arg;
    int bad = 0;
    for (unsigned long n = 0; n < 2000; n++) {
        bad += strstr(p_dngettext("threads", "%d file", "%d files", n), "файл") == NULL;
        bad += strcmp(p_dgettext("threads", "Read [MB/s]"), "Чтение [MB/s]") != 0;
    }
    return (DWORD)bad;
}

/* Several threads, first use included (a domain not looked up before). */
static void test_threads(void)
{
    write_catalog(root, "ru", "threads", RU_PLURAL, ru_forms, "Чтение [MB/s]", 1);
    p_bindtextdomain("threads", root);
    only_language("ru");
    HANDLE t[6];
    for (int i = 0; i < 6; i++)
        t[i] = CreateThread(NULL, 0, lookups, NULL, 0, NULL);
    WaitForMultipleObjects(6, t, TRUE, INFINITE);
    for (int i = 0; i < 6; i++) {
        DWORD bad = 1;
        GetExitCodeThread(t[i], &bad);
        DMK_CHECK_INT(bad, 0);
        CloseHandle(t[i]);
    }
}

/* The test's folder and all in it, when the cases are done. */
static void remove_tree(const wchar_t *dir)
{
    wchar_t pattern[MAX_PATH * 2], path[MAX_PATH * 2];
    WIN32_FIND_DATAW fd;
    swprintf(pattern, MAX_PATH * 2, L"%ls\\*", dir);
    HANDLE h = FindFirstFileW(pattern, &fd);
    while (h != INVALID_HANDLE_VALUE) {
        if (wcscmp(fd.cFileName, L".") != 0 && wcscmp(fd.cFileName, L"..") != 0) {
            swprintf(path, MAX_PATH * 2, L"%ls\\%ls", dir, fd.cFileName);
            if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
                remove_tree(path);
            else
                DeleteFileW(path);
        }
        if (!FindNextFileW(h, &fd)) {
            FindClose(h);
            break;
        }
    }
    RemoveDirectoryW(dir);
}

#define LOAD(var, type, name) ((var = (type)(void (*)(void))GetProcAddress(dll, name)) != NULL)

int main(int argc, char **argv)
{
    if (argc < 2 || !(dll = LoadLibraryA(argv[1]))) {
        printf("Bail out! cannot load %s\n", argc < 2 ? "(no DLL given)" : argv[1]);
        return 1;
    }
    if (!LOAD(p_gettext, DmkGettextFn, "g_libintl_gettext") ||
        !LOAD(p_dgettext, DmkDgettextFn, "g_libintl_dgettext") ||
        !LOAD(p_dngettext, DmkDngettextFn, "g_libintl_dngettext") ||
        !LOAD(p_bindtextdomain, DmkBindFn, "g_libintl_bindtextdomain") ||
        !LOAD(p_codeset, DmkBindFn, "g_libintl_bind_textdomain_codeset") ||
        !LOAD(p_textdomain, DmkDomainFn, "g_libintl_textdomain")) {
        printf("Bail out! %s lacks the g_libintl_* functions\n", argv[1]);
        return 1;
    }
    ui_language = argc > 2 ? argv[2] : NULL;
    snprintf(root, sizeof root, "%s\\intl-%lu", dmk_test_tmpdir(), GetCurrentProcessId());
    write_catalog(root, "ru", "plural", RU_PLURAL, ru_forms, "Чтение [MB/s]", 0);
    write_catalog(root, "cs", "plural", CS_PLURAL, cs_forms, "Čtení [MB/s]", 1);
    p_bindtextdomain("plural", root);
    DMK_TEST(test_exports);
    DMK_TEST(test_domains);
    DMK_TEST(test_russian_plurals);
    DMK_TEST(test_czech_plurals_big_endian);
    DMK_TEST(test_language_list);
    DMK_TEST(test_windows_language);
    DMK_TEST(test_unicode_folder);
    DMK_TEST(test_hostile_files);
    DMK_TEST(test_bad_plural_expression);
    DMK_TEST(test_threads);
    wchar_t wroot[MAX_PATH * 2];
    wcscpy(wroot, wide(root));
    remove_tree(wroot);
    return dmk_test_done();
}
