/* strmap.c: a small open-addressing hash map from strings to ints (host
 * and vertex names). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* FNV-1a: short names, good enough spread, no state. */
static size_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

void gm_strmap_free(gm_strmap *h)
{
    free(h->keys);
    free(h->vals);
    memset(h, 0, sizeof *h);
}

int gm_strmap_get(const gm_strmap *h, const char *key)
{
    if (!h->cap)
        return -1;
    for (size_t i = hash(key) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
        if (!h->keys[i])
            return -1;
        if (strcmp(h->keys[i], key) == 0)
            return h->vals[i];
    }
}

static int grow(gm_strmap *h)
{
    size_t cap = h->cap ? h->cap * 2 : 64;
    const char **keys = calloc(cap, sizeof *keys);
    int *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return TG_ENOMEM;
    }
    for (size_t j = 0; j < h->cap; j++) {
        if (!h->keys[j])
            continue;
        size_t i = hash(h->keys[j]) & (cap - 1);
        while (keys[i])
            i = (i + 1) & (cap - 1);
        keys[i] = h->keys[j];
        vals[i] = h->vals[j];
    }
    free(h->keys);
    free(h->vals);
    h->keys = keys;
    h->vals = vals;
    h->cap = cap;
    return 0;
}

int gm_strmap_put(gm_strmap *h, const char *key, int val)
{
    /* Keep the load under one half so probes stay short. */
    if (2 * (h->count + 1) > h->cap && grow(h) != 0)
        return TG_ENOMEM;
    size_t i = hash(key) & (h->cap - 1);
    for (; h->keys[i]; i = (i + 1) & (h->cap - 1))
        if (strcmp(h->keys[i], key) == 0)
            return h->vals[i];
    h->keys[i] = key;
    h->vals[i] = val;
    h->count++;
    return -1;
}
