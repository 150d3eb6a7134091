/* Backend lookup by name, shared by every OS. */
#include <string.h>

#include "dmk-platform.h"

const DmkBackend *dmk_backend_by_name(const char *name)
{
    if (strcmp(name, "null") == 0)
        return dmk_backend_null();
    if (strcmp(name, "native") == 0 || strcmp(name, dmk_backend_native()->name) == 0)
        return dmk_backend_native();
    return NULL;
}
