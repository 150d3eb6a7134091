/* The Linux test file, shared by the libaio backend. */
#ifndef DMK_TARGET_LINUX_H
#define DMK_TARGET_LINUX_H

#include <stdbool.h>
#include <stdint.h>

#include "dmk-platform.h"

typedef struct {
    int fd;
    bool named; /* created by name and unlinked, where O_TMPFILE was missing */
    uint64_t size;
} DmkLinuxTarget;

int dmk_linux_target_open(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                          DmkError *err);
void dmk_linux_target_close(DmkLinuxTarget *t);

#endif
