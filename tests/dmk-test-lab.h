/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A review-lab result (dmk_test_build_lab_result) together with the
 * storage it points into, for the tests of the writers and the reader. */
#ifndef DMK_TEST_LAB_H
#define DMK_TEST_LAB_H

#include "dmk-test-result.h"

typedef struct {
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[DMK_TEST_LAB_SAMPLES];
} DmkTestLab;

/* Builds lab->r, which points into lab: lab must stay where it is. */
static inline void dmk_test_lab_init(DmkTestLab *lab)
{
    dmk_test_build_lab_result(&lab->r, &lab->t, lab->passes, lab->samples);
}

#endif
