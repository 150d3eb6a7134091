/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parsing and formatting of sizes, counts and durations as users type
 * them. Sizes are binary (K = KiB = 1024); "KB"/"MB" are refused because
 * they are ambiguous, and so are zero, negatives, overflow and junk. */
#ifndef DMK_SIZE_H
#define DMK_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"

/* "4096", "4K", "4KiB", "1G", "64MiB" -> bytes. */
int dmk_parse_size(const char *s, uint64_t *out, DmkError *err);

/* A size in [min, max]; the message names `what` and the range. */
int dmk_parse_size_range(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                         DmkError *err);

/* A decimal integer in [min, max]. */
int dmk_parse_uint_range(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                         DmkError *err);

/* Seconds: "5", "0.5", "90s", "15m", "2h" -> seconds, in [min, max]. */
int dmk_parse_seconds_range(const char *what, const char *s, double min, double max, double *out,
                            DmkError *err);

/* Exact binary size for people: "512 B", "4 KiB", "1 GiB", "1.5 GiB". */
char *dmk_format_size(uint64_t bytes, char *buf, size_t len);

/* Compact block size for test names: "512", "4K", "128K", "1M". */
char *dmk_format_block(uint64_t bytes, char *buf, size_t len);

/* A double with '.' as the decimal point whatever the C locale says, with
 * `decimals` digits after the point, trailing zeros kept. */
char *dmk_format_double(double v, int decimals, char *buf, size_t len);

/* dmk_format_double with a ',' between thousands: (1234567.891, 2) ->
 * "1,234,567.89". The charts' numbers. */
char *dmk_format_thousands(double v, int decimals, char *buf, size_t len);

/* A measured figure for people, grouped by thousands: "123,457", "65.3",
 * "9.50"; two decimals below 10, one below 100, by the value as printed,
 * so 9.996 is "10.0", not "10.00", and a saved and reloaded result reads
 * the same. "-" when not finite. The lab report's and the Lab tab's. */
char *dmk_format_figure(double v, char *buf, size_t len);

#endif
