/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the man pages' generators share (dmk-gen-docs for drivemark-cli,
 * dmk-gen-gui-docs for the window): roff's escaping, and the template
 * filled in from the tables. Build tools, never installed. */
#ifndef DMK_GEN_MAN_H
#define DMK_GEN_MAN_H

#include <stdio.h>

/* Text as roff reads it: backslashes and minus signs escaped, a line's
 * leading '.' or '\'' not taken for a request. */
void dmk_gen_roff(FILE *f, const char *s);

/* The template at path onto out: each line "@NAME@" replaced by what
 * part(f, "NAME", data) writes, but "@EXIT_STATUS@", which is the exit
 * statuses' table (core/dmk-request.h) as a list; "@VERSION@" anywhere
 * becomes the version. 0, or 1 with the reason on stderr. */
int dmk_gen_man(const char *path, FILE *out, void (*part)(FILE *f, const char *name, void *data),
                void *data);

#endif
