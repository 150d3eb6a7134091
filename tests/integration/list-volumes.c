/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prints the drive list (dmk_os_list_volumes) one volume a line, tab
 * separated: path, "usable" or "unusable", the reason. For
 * test_target_storage.py, which checks the window's list marks what
 * the target refuses with the same resolution. */
#include <stdio.h>

#include "dmk-platform.h"

#define MAX 256

static DmkVolume vols[MAX];

int main(void)
{
    int n = dmk_os_list_volumes(vols, MAX);
    if (n < 0) {
        fprintf(stderr, "list-volumes: listing the volumes failed (%d)\n", n);
        return 1;
    }
    for (int i = 0; i < n; i++)
        printf("%s\t%s\t%s\n", vols[i].path, vols[i].usable ? "usable" : "unusable",
               vols[i].reason);
    return 0;
}
