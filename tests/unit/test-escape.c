/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-escape: control and bidi characters of text from files become '?',
 * everything else (UTF-8 letters, emoji) stays; the one rule that show,
 * the loader's messages and every DmkError use. */
#include "dmk-test.h"

#include "dmk-error.h"
#include "dmk-escape.h"

static void test_controls(void)
{
    char buf[128];
    DMK_CHECK_STR(dmk_escape("a\x1b[2Jb", buf, sizeof buf), "a?[2Jb");
    DMK_CHECK_STR(dmk_escape("\x1b]0;title\x07", buf, sizeof buf), "?]0;title?");
    DMK_CHECK_STR(dmk_escape("tab\there\nnl\x7f", buf, sizeof buf), "tab?here?nl?");
    /* C1: U+009B is an 8-bit CSI, U+0085 NEL */
    DMK_CHECK_STR(dmk_escape("x\xc2\x9b"
                             "31m\xc2\x85y",
                             buf, sizeof buf),
                  "x?31m?y");
    /* invalid UTF-8: a lone 0x9b byte is a C1 CSI on some terminals */
    DMK_CHECK_STR(dmk_escape("x\x9b"
                             "31m\xff",
                             buf, sizeof buf),
                  "x?31m?");
}

static void test_bidi(void)
{
    char buf[128];
    DMK_CHECK_STR(dmk_escape("\xe2\x80\xae"
                             "evil\xe2\x80\xac",
                             buf, sizeof buf),
                  "?evil?");
    DMK_CHECK_STR(
        dmk_escape("\xe2\x81\xa6\xe2\x81\xa9\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", buf, sizeof buf),
        "?????");
    DMK_CHECK_STR(dmk_escape("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xad", buf, sizeof buf), "???");
}

static void test_kept(void)
{
    char buf[128];
    /* é, ™, an emoji, a zero-width joiner (U+200D: not a bidi control) */
    const char *ok = "caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80 a\xe2\x80\x8d"
                     "b";
    DMK_CHECK_STR(dmk_escape(ok, buf, sizeof buf), ok);
    char s[] = "line one\nline\x1b two";
    dmk_escape_inplace(s, "\n");
    DMK_CHECK_STR(s, "line one\nline? two");
    /* cut at a character boundary, never inside one */
    char small[6];
    DMK_CHECK_STR(dmk_escape("ab\xc3\xa9\xc3\xa9", small, sizeof small), "ab\xc3\xa9");
}

static void test_error_messages(void)
{
    DmkError err = {0};
    dmk_error_set(&err, DMK_E_INVAL, 0, "opening %s failed", "/x/\x1b[2J\xe2\x80\xae.csv");
    DMK_CHECK_STR(err.msg, "opening /x/?[2J?.csv failed");
}

/* dmk_utf8_valid_copy: what the CSV writer (and the JSON writer's test)
 * makes of bytes that are not UTF-8: U+FFFD each, valid text unchanged,
 * a cut on a character boundary. */
static void test_utf8_valid_copy(void)
{
    char buf[64];
    DMK_CHECK_STR(dmk_utf8_valid_copy("M\xfcller", buf, sizeof buf), "M\xef\xbf\xbdller");
    DMK_CHECK_STR(dmk_utf8_valid_copy("\xc3\xa9t\xc3\xa9", buf, sizeof buf), "\xc3\xa9t\xc3\xa9");
    /* overlong, surrogate, a lone continuation, a cut sequence at the end */
    DMK_CHECK_STR(dmk_utf8_valid_copy("\xc0\xaf|\xed\xa0\x80|\x80|\xe2\x82", buf, sizeof buf),
                  "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd|"
                  "\xef\xbf\xbd\xef\xbf\xbd");
    /* 5 bytes of room: "ab" and no half of U+FFFD */
    DMK_CHECK_STR(dmk_utf8_valid_copy("ab\xff"
                                      "cd",
                                      buf, 5),
                  "ab");
}

/* dmk_error_append: what joins a message after it is set is escaped as
 * the message is, the newline kept; text before it is not touched; a
 * full message takes no more and stays terminated; NULL is allowed. */
static void test_error_append(void)
{
    DmkError err = {0};
    dmk_error_set(&err, DMK_E_IO, 5, "renaming a failed");
    DMK_CHECK_INT(
        dmk_error_append(&err, " (the old %s was kept)", "/m/\x1b]0;t\x07\xe2\x80\xae.csv"),
        DMK_E_IO);
    DMK_CHECK_STR(err.msg, "renaming a failed (the old /m/?]0;t??.csv was kept)");
    DMK_CHECK_INT(err.os_error, 5);
    dmk_error_append(&err, "\n%s\xc2\x9b", "x\xff");
    DMK_CHECK_STR(err.msg, "renaming a failed (the old /m/?]0;t??.csv was kept)\nx??");
    /* full: the cut may split a character; its half becomes '?' */
    char big[sizeof err.msg + 8];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    dmk_error_set(&err, DMK_E_IO, 0, "%.760s", big);
    dmk_error_append(&err, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    DMK_CHECK_INT(strlen(err.msg), sizeof err.msg - 1);
    DMK_CHECK_STR(err.msg + 760, "\xc3\xa9\xc3\xa9\xc3\xa9?");
    dmk_error_append(&err, "more");
    DMK_CHECK_INT(strlen(err.msg), sizeof err.msg - 1);
    DMK_CHECK_INT(dmk_error_append(NULL, "%s", "x"), DMK_OK);
    /* dmk_error_os's OS text goes the same way */
    dmk_error_os(&err, DMK_E_NOENT, 2, "opening %s failed", "\x1b[1m");
    DMK_CHECK(strncmp(err.msg, "opening ?[1m failed: ", 21) == 0);
}

int main(void)
{
    DMK_TEST(test_controls);
    DMK_TEST(test_bidi);
    DMK_TEST(test_kept);
    DMK_TEST(test_error_messages);
    DMK_TEST(test_utf8_valid_copy);
    DMK_TEST(test_error_append);
    return dmk_test_done();
}
