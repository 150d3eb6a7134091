/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-presets.h"

#include <string.h>

#include "dmk-i18n.h"

/* The labels are shown (the window's profile menu), translated where
 * shown; the ids and the test names are never translated. */
static const DmkProfile profiles[] = {
    {"default", DMK_N_("Default"), 4, {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"}},
    {"peak", DMK_N_("Peak Performance"), 2, {"SEQ1M Q8T1", "RND4K Q32T1"}},
    {"real", DMK_N_("Real World Performance"), 2, {"SEQ1M Q1T1", "RND4K Q1T1"}},
    {"demo", DMK_N_("Demo"), 1, {"SEQ1M Q8T1"}},
    {"nvme", DMK_N_("NVMe SSD"), 4, {"SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"}},
};

/* In MiB. */
static const uint32_t size_presets_mib[] = {16,   32,   64,   128,   256,   512,  1024,
                                            2048, 4096, 8192, 16384, 32768, 65536};

size_t dmk_size_preset_count(void)
{
    return sizeof size_presets_mib / sizeof size_presets_mib[0];
}

uint64_t dmk_size_preset_at(size_t i)
{
    return i < dmk_size_preset_count() ? (uint64_t)size_presets_mib[i] << 20 : 0;
}

size_t dmk_profile_count(void)
{
    return sizeof profiles / sizeof profiles[0];
}

const DmkProfile *dmk_profile_at(size_t i)
{
    return i < dmk_profile_count() ? &profiles[i] : NULL;
}

const DmkProfile *dmk_profile_find(const char *id)
{
    for (size_t i = 0; i < dmk_profile_count(); i++)
        if (strcmp(profiles[i].id, id) == 0)
            return &profiles[i];
    return NULL;
}

int dmk_profile_add(DmkRunSpec *spec, const DmkProfile *p, DmkRunMode run_mode, uint32_t read_share,
                    DmkError *err)
{
    DmkJob jobs[4];
    for (size_t i = 0; i < p->n_tests; i++) {
        int rc = dmk_job_parse_name(p->tests[i], &jobs[i], err);
        if (rc != DMK_OK)
            return rc;
    }
    return dmk_run_spec_add_all(spec, jobs, p->n_tests, run_mode, read_share, err);
}
