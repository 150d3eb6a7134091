/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk_os_list_volumes: what the target drop-down offers. Checks what holds
 * on any Linux machine: real file systems listed with their size, the
 * build dir's file system among them, RAM-backed ones marked unusable. */
#include "dmk-test.h"

#include <stdlib.h>

#include "dmk-platform.h"

#define MAX 64

static DmkVolume vols[MAX];
static int n_vols;

static void test_lists_file_systems(void)
{
    n_vols = dmk_os_list_volumes(vols, MAX);
    DMK_CHECK(n_vols > 0);
    for (int i = 0; i < n_vols; i++) {
        printf("# %-30s %-8s %s %s\n", vols[i].path, vols[i].fs_type,
               vols[i].usable ? "usable" : "no:", vols[i].reason);
        DMK_CHECK(vols[i].path[0] == '/');
        DMK_CHECK(vols[i].fs_type[0] != '\0');
        DMK_CHECK(vols[i].size_bytes > 0);
        DMK_CHECK(vols[i].free_bytes <= vols[i].size_bytes);
        DMK_CHECK(vols[i].usable == (vols[i].reason[0] == '\0'));
        for (int j = 0; j < i; j++)
            DMK_CHECK(strcmp(vols[i].path, vols[j].path) != 0); /* no duplicates */
    }
}

static void test_no_pseudo_file_systems(void)
{
    static const char *const pseudo[] = {"proc", "sysfs", "devpts", "cgroup", "cgroup2"};
    for (int i = 0; i < n_vols; i++)
        for (size_t j = 0; j < sizeof pseudo / sizeof pseudo[0]; j++)
            DMK_CHECK(strcmp(vols[i].fs_type, pseudo[j]) != 0);
}

static void test_ram_backed_unusable(void)
{
    int seen = 0;
    for (int i = 0; i < n_vols; i++) {
        if (strcmp(vols[i].fs_type, "tmpfs") != 0 && strcmp(vols[i].fs_type, "ramfs") != 0)
            continue;
        seen++;
        DMK_CHECK(!vols[i].usable);
        DMK_CHECK(strstr(vols[i].reason, "RAM-backed") != NULL);
    }
    if (!seen)
        DMK_SKIP("no tmpfs or ramfs is listed here");
}

/* The test dir is on a real disk: some listed volume must hold it. */
static void test_holds_build_dir(void)
{
    const char *dir = getenv("DMK_TEST_TMPDIR");
    if (!dir || dir[0] != '/')
        DMK_SKIP("DMK_TEST_TMPDIR is not set");
    int found = 0;
    for (int i = 0; i < n_vols; i++) {
        size_t n = strlen(vols[i].path);
        if (strncmp(dir, vols[i].path, n) == 0 && (n == 1 || dir[n] == '/' || dir[n] == '\0'))
            found = 1;
    }
    DMK_CHECK(found);
}

static void test_max_respected(void)
{
    DmkVolume one[2];
    memset(one, 0x5a, sizeof one);
    int n = dmk_os_list_volumes(one, 1);
    DMK_CHECK(n == 1 || (n == 0 && n_vols == 0));
    DMK_CHECK(((unsigned char *)&one[1])[0] == 0x5a); /* nothing written past max */
}

int main(void)
{
    DMK_TEST(test_lists_file_systems);
    DMK_TEST(test_no_pseudo_file_systems);
    DMK_TEST(test_ram_backed_unusable);
    DMK_TEST(test_holds_build_dir);
    DMK_TEST(test_max_respected);
    return dmk_test_done();
}
