/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-cli-device.h"

#include <string.h>

#include "dmk-target-rules.h"

int dmk_cli_opt_device(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (!*v || strlen(v) >= sizeof a->req.target)
        return dmk_error_set(err, DMK_E_INVAL, 0, "--device '%s' is not a usable path", v);
    snprintf(a->req.target, sizeof a->req.target, "%s", v);
    a->req.device = true;
    return DMK_OK;
}

int dmk_cli_opt_destroy(DmkCliArgs *a, const char *v, DmkError *err)
{
    if (!*v || strlen(v) >= sizeof a->req.device_confirm)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--yes-destroy-data needs the device's name, e.g. "
                             "--yes-destroy-data=/dev/sdb");
    snprintf(a->req.device_confirm, sizeof a->req.device_confirm, "%s", v);
    return DMK_OK;
}

int dmk_cli_device_usage(const DmkCliArgs *a, DmkError *err)
{
    if (a->req.device && (a->req.given & DMK_REQ_BIT(DMK_REQ_TARGET)))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--device and --target exclude each other: a run measures either a "
                             "raw device or a test file in a directory");
    if (a->req.device_confirm[0] && !a->req.device)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "--yes-destroy-data belongs to --device (a directory target only "
                             "ever writes its own test file)");
    return DMK_OK;
}

int dmk_cli_device_consent(const DmkCliArgs *a, DmkError *err)
{
    const DmkRunSpec *s = a->spec;
    if (!s->device)
        return DMK_OK;
    /* A device with no storage is said first: no consent can make it
     * measurable, so asking for one would only mislead. */
    uint64_t none = 0;
    if (dmk_os_device_empty(s->dir))
        return dmk_device_region(s->dir, s->size, 0, 512, &none, err);
    const char *typed = s->device_confirm;
    char real[1024];
    dmk_os_resolve_device(s->dir, real, sizeof real);
    /* A wrong name is refused even for a read-only run: it shows the user
     * meant some other disk. */
    if (typed[0] && !dmk_device_confirmed(s->dir, typed))
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to run on %s: --yes-destroy-data=%s names another device "
                             "than --device %s (%s); type the device's name exactly",
                             s->dir, typed, s->dir, real);
    /* The lab tests take no --mode: each one writes, so the read-only
     * way out is another command. */
    if (!typed[0] && dmk_run_spec_writes(s) && a->cmd == DMK_CMD_LAB)
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to write to %s: the review-lab tests write to the device, "
                             "which destroys the data on it; to allow that, add "
                             "--yes-destroy-data=%s (to measure it without writing: "
                             "drivemark-cli run --device %s --mode read)",
                             s->dir, s->dir, s->dir);
    if (!typed[0] && dmk_run_spec_writes(s))
        return dmk_error_set(err, DMK_E_PERM, 0,
                             "refusing to write to %s: the tests write to the device, which "
                             "destroys the data on it; to allow that, add "
                             "--yes-destroy-data=%s (or read only: --mode read)",
                             s->dir, s->dir);
    return DMK_OK;
}
