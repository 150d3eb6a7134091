/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-units.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "dmk-size.h"

/* The labels are units: the same in every language (never translated). */
static const struct {
    const char *id;
    const char *label;
} units[DMK_UNIT_COUNT] = {
    {"mb-s", "MB/s"}, {"gb-s", "GB/s"}, {"mib-s", "MiB/s"}, {"iops", "IOPS"}, {"us", "\u03bcs"},
};

const char *dmk_unit_id(DmkUnit u)
{
    return u < DMK_UNIT_COUNT ? units[u].id : units[0].id;
}

DmkUnit dmk_unit_from_id(const char *id)
{
    for (int i = 0; i < DMK_UNIT_COUNT; i++)
        if (id && strcmp(id, units[i].id) == 0)
            return (DmkUnit)i;
    return DMK_UNIT_MB_S;
}

const char *dmk_unit_label(DmkUnit u)
{
    return u < DMK_UNIT_COUNT ? units[u].label : units[0].label;
}

/* As the result files keep the value (dmk_stats_as_saved): a tile shows
 * the same digits live and when its file is opened again (25945.9649
 * would show .96 live, and its saved 25945.965 .97). */
double dmk_unit_value(DmkUnit u, const DmkStats *raw)
{
    DmkStats saved = dmk_stats_as_saved(raw);
    const DmkStats *s = &saved;
    double mb_s = s->mb_s;
    switch (u) {
    case DMK_UNIT_GB_S:
        return mb_s / 1000.0;
    case DMK_UNIT_MIB_S:
        return mb_s * 1e6 / 1048576.0;
    case DMK_UNIT_IOPS:
        return s->iops;
    case DMK_UNIT_US:
        return s->lat_mean_us;
    default:
        return mb_s;
    }
}

/* A tile holds about eight characters: CrystalDiskMark gives big numbers
 * fewer decimals rather than a smaller font. */
int dmk_unit_decimals(DmkUnit u, double v)
{
    double a = fabs(v);
    if (u == DMK_UNIT_GB_S)
        return 3;
    if (u == DMK_UNIT_IOPS)
        return a >= 1e6 ? 0 : 1;
    return a >= 1e6 ? 0 : a >= 1e5 ? 1 : 2;
}

char *dmk_unit_format(DmkUnit u, const DmkStats *s, char *buf, size_t len)
{
    double v = dmk_unit_value(u, s);
    return dmk_format_double(v, dmk_unit_decimals(u, v), buf, len);
}

static double clamp01(double x)
{
    return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* CrystalDiskMark's scale: a full bar is 10^5 MB/s, each decade a sixth. */
double dmk_unit_meter(DmkUnit u, const DmkStats *s)
{
    switch (u) {
    case DMK_UNIT_IOPS:
        return s->iops > 0 ? clamp01(log10(s->iops) / 7.0) : 0.0; /* 10M IOPS full */
    case DMK_UNIT_US:
        /* 1 us fills the bar, 1 s leaves it empty. */
        return s->lat_mean_us > 0 ? clamp01(1.0 - log10(s->lat_mean_us) / 6.0) : 0.0;
    default:
        return s->mb_s > 0 ? clamp01(log10(s->mb_s * 10.0) / 6.0) : 0.0;
    }
}
