/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tiles' units and how numbers look in them: CrystalDiskMark's way of
 * writing a value (as many decimals as fit in a tile) and its meter, a bar
 * proportional to the value on a log scale. Plain C and GLib-free so the
 * tests can check the rules without a display. */
#ifndef DMK_UNITS_H
#define DMK_UNITS_H

#include <stddef.h>

#include "dmk-result.h"

typedef enum {
    DMK_UNIT_MB_S = 0, /* 10^6 bytes per second, as CrystalDiskMark */
    DMK_UNIT_GB_S = 1,
    DMK_UNIT_MIB_S = 2,
    DMK_UNIT_IOPS = 3,
    DMK_UNIT_US = 4, /* mean latency in microseconds */
    DMK_UNIT_COUNT = 5,
} DmkUnit;

/* "mb-s", "gb-s", "mib-s", "iops", "us": the settings' names. */
const char *dmk_unit_id(DmkUnit u);
/* DMK_UNIT_MB_S when the id is unknown. */
DmkUnit dmk_unit_from_id(const char *id);
/* "MB/s", "GB/s", "MiB/s", "IOPS", "μs" (UTF-8). */
const char *dmk_unit_label(DmkUnit u);

/* The number a tile shows, in unit u. */
double dmk_unit_value(DmkUnit u, const DmkStats *s);

/* How many decimals CrystalDiskMark writes for v in unit u. */
int dmk_unit_decimals(DmkUnit u, double v);

/* The tile's text: "5410.65" MB/s, "5.411" GB/s, "856.0" IOPS. */
char *dmk_unit_format(DmkUnit u, const DmkStats *s, char *buf, size_t len);

/* The meter's length, 0..1: log10 of the value, so 1 MB/s and 10 GB/s
 * both show (latency: shorter is better, so the bar grows as it falls). */
double dmk_unit_meter(DmkUnit u, const DmkStats *s);

#endif
