/* hilbert.c: the nodes of a torus or mesh in the order of a Hilbert curve
 * over their coordinates (the OO_Hilbert list mapping of papers/001, 5.1),
 * in any number of dimensions.
 *
 * The curve is Skilling's ("Programming the Hilbert curve", AIP Conf.
 * Proc. 707, 2004) on the cube of side 2^b, b the bits of the largest
 * dimension: every node's coordinates are turned into its "transposed"
 * Hilbert index, whose bits interleaved (dimension 0 most significant)
 * give its position on the curve, and the nodes are sorted by it.  Cube
 * positions that hold no node (sides that are not powers of two, or
 * allocations that are a subset of the network) are simply absent from
 * the order, so consecutive nodes are neighbours wherever the curve stays
 * inside the occupied positions. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* d <= GM_MAX_DIMS = 8 dimensions of b <= 31 bits: 248 bits. */
#define KEY_WORDS 4

typedef struct hkey {
    uint64_t w[KEY_WORDS]; /* w[0] most significant */
    int node;
} hkey;

/* Skilling's AxestoTranspose: coordinates x[0..d-1] of b bits in place
 * into the transposed Hilbert index. */
static void axes_to_transpose(uint32_t *x, int b, int d)
{
    uint32_t m = (uint32_t)1 << (b - 1);
    for (uint32_t q = m; q > 1; q >>= 1) { /* inverse undo */
        uint32_t p = q - 1;
        for (int i = 0; i < d; i++)
            if (x[i] & q) {
                x[0] ^= p; /* invert */
            } else {       /* exchange */
                uint32_t t = (x[0] ^ x[i]) & p;
                x[0] ^= t;
                x[i] ^= t;
            }
    }
    for (int i = 1; i < d; i++) /* Gray encode */
        x[i] ^= x[i - 1];
    uint32_t t = 0;
    for (uint32_t q = m; q > 1; q >>= 1)
        if (x[d - 1] & q)
            t ^= q - 1;
    for (int i = 0; i < d; i++)
        x[i] ^= t;
}

/* Interleave the transposed index into the key: bit b-1 of x[0], of
 * x[1], ..., of x[d-1], then bit b-2 of each, and so on. */
static void make_key(const uint32_t *x, int b, int d, hkey *k)
{
    memset(k->w, 0, sizeof k->w);
    int at = 0;
    for (int bit = b - 1; bit >= 0; bit--)
        for (int i = 0; i < d; i++, at++)
            if (x[i] >> bit & 1)
                k->w[at / 64] |= (uint64_t)1 << (63 - at % 64);
}

static int cmp_key(const void *pa, const void *pb)
{
    const hkey *a = pa, *b = pb;
    for (int i = 0; i < KEY_WORDS; i++)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

int gm_hilbert_nodes(const gm_machine *m, int *order, tg_error *err)
{
    const gm_network *net = m->net;
    if (net->kind != GM_NET_TORUS)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "hilbert needs a torus or mesh network");
    int d = net->ndims, b = 1;
    for (int i = 0; i < d; i++)
        while (b < 31 && ((int64_t)1 << b) < net->size[i])
            b++;
    hkey *keys = malloc((size_t)(m->n ? m->n : 1) * sizeof *keys);
    if (!keys)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int node = 0; node < m->n; node++) {
        uint32_t x[GM_MAX_DIMS];
        const int *c = gm_machine_coords(m, node);
        for (int i = 0; i < d; i++)
            x[i] = (uint32_t)c[i];
        axes_to_transpose(x, b, d);
        make_key(x, b, d, &keys[node]);
        keys[node].node = node;
    }
    /* Distinct positions have distinct keys: the order is total. */
    qsort(keys, (size_t)m->n, sizeof *keys, cmp_key);
    for (int i = 0; i < m->n; i++)
        order[i] = keys[i].node;
    free(keys);
    return 0;
}
