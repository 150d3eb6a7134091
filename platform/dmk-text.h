/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Words joined into a sentence's list: "a, b or c". The lab tests', the
 * chart kinds' and the backends' names in help and error texts are each
 * a table's names joined this one way. */
#ifndef DMK_TEXT_H
#define DMK_TEXT_H

#include <stddef.h>

/* names[0..n) into buf (len bytes, cut short if it must), sep between
 * them but last before the final one; returns buf. */
char *dmk_join_names(const char *const *names, size_t n, const char *sep, const char *last,
                     char *buf, size_t len);

#endif
