/* gen_stencil.c: N-D grid (stencil) task graphs.
 *
 * One task per grid point, numbered row-major (last dimension fastest).
 * Each task is joined to its neighbours at the offsets of the stencil: the
 * 2d face neighbours, or with diagonals every offset in {-1, 0, 1}^d but 0.
 *
 * Only the "positive half" of the offsets (those whose first nonzero
 * component is +1) is walked: the other half is the same edges seen from
 * the other end, so each geometric edge is added exactly once with weight
 * `bytes`.  When wrapping makes two different offsets reach the same
 * neighbour (a periodic dimension of size 2, or diagonals in small
 * dimensions) the builder merges the triples and the weights add up, which
 * is what the application really sends: one halo message per offset.  A
 * periodic dimension of size 1 wraps a task onto itself; the builder drops
 * those self-edges.
 *
 * The cost is O(tasks * offsets * ndims) time and O(edges) memory. */
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

#define MAXDIMS 8

/* The offsets of the stencil, positive half only, each as ndims values in
 * {-1, 0, 1}. */
typedef struct offsets {
    int count;
    signed char (*v)[MAXDIMS];
} offsets;

static int check_options(const tg_stencil_options *o, tg_graph **out,
                         int *ntasks, tg_error *err)
{
    if (!o || !out)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "stencil: no options or no output given");
    if (o->ndims < 1 || o->ndims > MAXDIMS)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "stencil: %d dimensions: must be 1 to %d",
                            o->ndims, MAXDIMS);
    int64_t n = 1;
    for (int i = 0; i < o->ndims; i++) {
        if (o->dims[i] < 1)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "stencil: dimension %d has size %d: sizes "
                                "must be >= 1", i + 1, o->dims[i]);
        /* Both factors are <= TG_TASKS_MAX < 2^31, so the product fits
         * in 64 bits before the check. */
        n *= o->dims[i];
        if (n > TG_TASKS_MAX)
            return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                                "stencil: the grid has more than %d tasks",
                                TG_TASKS_MAX);
    }
    /* 0 is out of range; past 2^63 - 1 a weight does not fit, which is
     * TG_EOVERFLOW as in tg_builder_add. */
    if (o->bytes < 1 || o->bytes > TG_WEIGHT_MAX)
        return tg_error_set(err, o->bytes ? TG_EOVERFLOW : TG_EINVAL, NULL,
                            0, "stencil: bytes is %llu: must be 1 to 2^63 - 1",
                            (unsigned long long)o->bytes);
    *ntasks = (int)n;
    return 0;
}

/* Fill `off` with the positive half of the stencil's offsets: every vector
 * in {-1, 0, 1}^d whose first nonzero component is +1, restricted to unit
 * vectors without diagonals.  Counting through base 3 lists them in a fixed
 * order, which keeps the output independent of anything but the options. */
static int make_offsets(int d, int diagonals, offsets *off)
{
    int total = 1;
    for (int i = 0; i < d; i++)
        total *= 3;
    /* (3^d - 1) / 2 is the size of the positive half. */
    off->v = malloc((size_t)(total / 2) * sizeof *off->v);
    if (!off->v)
        return -1;
    off->count = 0;
    for (int k = 0; k < total; k++) {
        signed char v[MAXDIMS] = {0};
        int first = 0, nonzero = 0;
        for (int i = d - 1, rest = k; i >= 0; i--, rest /= 3) {
            v[i] = (signed char)(rest % 3 - 1);
            if (v[i])
                nonzero++;
        }
        for (int i = 0; i < d && !first; i++)
            first = v[i];
        if (first != 1 || (!diagonals && nonzero != 1))
            continue;
        memcpy(off->v[off->count++], v, sizeof v);
    }
    return 0;
}

/* The task at coord + delta, or -1 when that point is outside a
 * non-periodic grid. */
static int neighbour(const tg_stencil_options *o, const int *coord,
                     const int64_t *stride, const signed char *delta)
{
    int64_t id = 0;
    for (int i = 0; i < o->ndims; i++) {
        int c = coord[i] + delta[i];
        if (c < 0 || c >= o->dims[i]) {
            if (!o->periodic)
                return -1;
            c = c < 0 ? c + o->dims[i] : c - o->dims[i];
        }
        id += c * stride[i];
    }
    return (int)id;
}

/* Add every task's positive-half edges to the builder. */
static int add_edges(const tg_stencil_options *o, int n, const offsets *off,
                     tg_builder *b, tg_error *err)
{
    int64_t stride[MAXDIMS];
    int coord[MAXDIMS] = {0};
    stride[o->ndims - 1] = 1;
    for (int i = o->ndims - 2; i >= 0; i--)
        stride[i] = stride[i + 1] * o->dims[i + 1];
    for (int t = 0; t < n; t++) {
        for (int k = 0; k < off->count; k++) {
            int u = neighbour(o, coord, stride, off->v[k]);
            if (u < 0)
                continue;
            int rc = tg_builder_add(b, t, u, o->bytes, err);
            if (rc)
                return rc;
        }
        /* Advance the coordinates like an odometer, last dimension
         * fastest, so that they always match t. */
        for (int i = o->ndims - 1; i >= 0; i--) {
            if (++coord[i] < o->dims[i])
                break;
            coord[i] = 0;
        }
    }
    return 0;
}

int tg_gen_stencil(const tg_stencil_options *o, tg_graph **out,
                   tg_error *err)
{
    int n = 0;
    int rc = check_options(o, out, &n, err);
    if (rc)
        return rc;
    offsets off;
    tg_builder *b = tg_builder_new(n);
    if (!b || make_offsets(o->ndims, o->diagonals, &off)) {
        tg_builder_free(b);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    rc = add_edges(o, n, &off, b, err);
    free(off.v);
    if (!rc)
        rc = tg_builder_finish_typed(b, "p2p", out, err);
    tg_builder_free(b);
    if (!rc) {
        int periods[TG_GRID_MAXDIMS];
        for (int i = 0; i < o->ndims; i++)
            periods[i] = o->periodic;
        rc = tg_graph_set_grid(*out, o->ndims, o->dims, periods, NULL, err);
        if (rc) {
            tg_graph_free(*out);
            *out = NULL;
        }
    }
    return rc;
}
