/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli's raw device options: --device /dev/X instead of a
 * directory, and --yes-destroy-data=/dev/X, the typed consent that any
 * write test needs. Kept apart from dmk-cli.c's table of the rest. */
#ifndef DMK_CLI_DEVICE_H
#define DMK_CLI_DEVICE_H

#include "dmk-cli.h"

/* The option handlers for dmk-cli.c's table. */
int dmk_cli_opt_device(DmkCliArgs *a, const char *v, DmkError *err);
int dmk_cli_opt_destroy(DmkCliArgs *a, const char *v, DmkError *err);

/* Usage errors (exit 2): --device with --target, consent without --device. */
int dmk_cli_device_usage(const DmkCliArgs *a, DmkError *err);

/* The consent check before a device run (a refusal exits 1): a run that
 * writes needs --yes-destroy-data naming the same device, as given or
 * with links resolved. Read-only runs pass without it. */
int dmk_cli_device_consent(const DmkCliArgs *a, DmkError *err);

#endif
