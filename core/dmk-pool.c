#include "dmk-pool.h"

#include <errno.h>
#include <string.h>

int dmk_pool_init(DmkPool *p, DmkDataKind kind, uint64_t test_size, uint32_t max_block,
                  uint32_t align, uint64_t seed, DmkError *err)
{
    uint64_t base = test_size < DMK_POOL_MAX ? test_size : DMK_POOL_MAX;
    p->size = (size_t)(base + max_block);
    p->size = (p->size + align - 1) / align * align;
    p->align = align;
    errno = 0;
    p->data = dmk_aligned_alloc(align < 4096 ? 4096 : align, p->size);
    if (!p->data) /* the OS's reason too (ENOMEM under ulimit -v) */
        return dmk_error_errno(err, errno ? errno : ENOMEM,
                               "allocating the %zu MiB data pool failed", p->size >> 20);
    if (kind == DMK_DATA_ZERO) {
        memset(p->data, 0, p->size);
        return DMK_OK;
    }
    DmkRng rng;
    dmk_rng_seed(&rng, seed);
    uint64_t *w = (uint64_t *)p->data;
    for (size_t i = 0; i < p->size / 8; i++)
        w[i] = dmk_rng_next(&rng);
    return DMK_OK;
}

void dmk_pool_free(DmkPool *p)
{
    dmk_aligned_free(p->data);
    p->data = NULL;
    p->size = 0;
}
