/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark: the GTK window over the same engine as drivemark-cli. */
#include "dmk-app.h"

int main(int argc, char **argv)
{
    DmkApp *app = dmk_app_new();
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    if (status == 0)
        status = dmk_app_get_exit_status(app);
    g_object_unref(app);
    return status;
}
