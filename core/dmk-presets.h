/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CrystalDiskMark 8's profiles, by the names the CLI and the GUI use. */
#ifndef DMK_PRESETS_H
#define DMK_PRESETS_H

#include <stddef.h>
#include <stdint.h>

#include "dmk-spec.h"

typedef struct {
    const char *id;    /* "default", "peak", "real", "demo", "nvme" */
    const char *label; /* "Default", "Peak Performance", ... */
    size_t n_tests;
    const char *tests[4]; /* test names in run order */
} DmkProfile;

/* NULL when there is no such profile. */
const DmkProfile *dmk_profile_find(const char *id);
size_t dmk_profile_count(void);
const DmkProfile *dmk_profile_at(size_t i);

/* CrystalDiskMark's test sizes, 16 MiB to 64 GiB, in bytes: the window's
 * size list and the completions' values of --size. */
size_t dmk_size_preset_count(void);
uint64_t dmk_size_preset_at(size_t i); /* 0 when out of range */

/* Adds the profile's tests to spec in the directions of run_mode. */
int dmk_profile_add(DmkRunSpec *spec, const DmkProfile *p, DmkRunMode run_mode, uint32_t read_share,
                    DmkError *err);

/* The read share CrystalDiskMark's "Mix" uses: 70 % reads. */
#define DMK_MIX_READ_SHARE_DEFAULT 70

#endif
