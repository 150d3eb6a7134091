/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text from outside the program (a result file's cells, a file or drive
 * name) made safe to print on a terminal: every control character (C0
 * but those the caller keeps, DEL, C1 such as the 8-bit CSI), every
 * bidirectional formatting character (U+061C, U+200E/F, U+202A..U+202E,
 * U+2066..U+2069) and every byte of invalid UTF-8 becomes '?', so an
 * escape sequence (ESC[2J, an OSC window title, colours) or a reordering
 * of the line cannot reach the terminal. Error messages and `show` use
 * the same rule. */
#ifndef DMK_ESCAPE_H
#define DMK_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
size_t dmk_utf8_len(const unsigned char *s, size_t n);

/* Whether the character at s (k bytes, from dmk_utf8_len; 0 for an
 * invalid byte) is one the rule above replaces. */
bool dmk_escape_unsafe(const unsigned char *s, size_t k);

/* in copied into out (cap bytes) as valid UTF-8: each byte of invalid
 * UTF-8 becomes U+FFFD, as JSON writes it, and a cut falls on a character
 * boundary. Every text the program writes into a result file passes
 * here, so each file it writes is one it can read back. out. */
const char *dmk_utf8_valid_copy(const char *in, char *out, size_t cap);

/* s escaped in place; each character of `keep` ("\n") stays. */
void dmk_escape_inplace(char *s, const char *keep);

/* s escaped into buf (cap bytes), cut at a character boundary; buf. */
const char *dmk_escape(const char *s, char *buf, size_t cap);

#endif
