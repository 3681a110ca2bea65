/* taskgraph.c: the task graph of a constructor call.  Task i is rank i of
 * the topology MPI would make with reorder = 0; a message to a neighbour
 * counts one byte per direction and neighbour (the bytes only compare
 * placements of one call), or the application's weight where it gives
 * one.  A Cartesian neighbour reached both ways (a periodic dimension of
 * 2) counts twice, as MPI_Cart_shift's two directions would use it. */
#include <stdlib.h>

#include "ro_internal.h"

int ro_cart_graph(const ro_call *c, tg_graph **out, tg_error *err)
{
    int n = 1;
    for (int d = 0; d < c->ndims; d++)
        n *= c->dims[d];
    if (c->ndims > TG_GRID_MAXDIMS)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d dimensions (at most %d are mapped)",
                            c->ndims, TG_GRID_MAXDIMS);
    tg_builder *b = tg_builder_new(n);
    if (!b)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = 0, coord[TG_GRID_MAXDIMS], periods[TG_GRID_MAXDIMS];
    for (int d = 0; d < c->ndims; d++)
        periods[d] = c->periods[d] != 0;
    /* Row-major, the last dimension fastest, as MPI_Cart_rank numbers. */
    for (int t = 0; t < n && rc == 0; t++) {
        for (int d = c->ndims - 1, r = t; d >= 0; d--) {
            coord[d] = r % c->dims[d];
            r /= c->dims[d];
        }
        for (int d = 0, stride = n; d < c->ndims && rc == 0; d++) {
            stride /= c->dims[d];
            for (int dir = -1; dir <= 1 && rc == 0; dir += 2) {
                int x = coord[d] + dir;
                if (x < 0 || x >= c->dims[d]) {
                    if (!periods[d])
                        continue;
                    x = (x + c->dims[d]) % c->dims[d];
                }
                rc = tg_builder_add(b, t, t + (x - coord[d]) * stride, 1,
                                    err);
            }
        }
    }
    tg_graph *g = NULL;
    if (rc == 0)
        rc = tg_builder_finish(b, &g, err);
    tg_builder_free(b);
    if (rc == 0)
        rc = tg_graph_set_grid(g, c->ndims, c->dims, periods, NULL, err);
    if (rc) {
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}

int ro_graph_graph(const ro_call *c, tg_graph **out, tg_error *err)
{
    tg_builder *b = tg_builder_new(c->nnodes);
    if (!b)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = 0;
    for (int i = 0; i < c->nnodes && rc == 0; i++)
        for (int j = i ? c->index[i - 1] : 0; j < c->index[i] && rc == 0;
             j++)
            rc = tg_builder_add(b, i, c->edges[j], 1, err);
    if (rc == 0)
        rc = tg_builder_finish(b, out, err);
    tg_builder_free(b);
    return rc;
}

int ro_dist_edges(MPI_Comm first, int **pairs, int *count)
{
    int in, outd, weighted;
    *pairs = NULL;
    *count = 0;
    PMPI_Dist_graph_neighbors_count(first, &in, &outd, &weighted);
    int *src = malloc(((size_t)in + 1) * sizeof *src);
    int *srcw = malloc(((size_t)in + 1) * sizeof *srcw);
    int *dst = malloc(((size_t)outd + 1) * sizeof *dst);
    int *dstw = malloc(((size_t)outd + 1) * sizeof *dstw);
    int *p = malloc((2 * (size_t)outd + 1) * sizeof *p);
    int rc = -1;
    if (src && srcw && dst && dstw && p) {
        PMPI_Dist_graph_neighbors(first, in, src, srcw, outd, dst, dstw);
        for (int i = 0; i < outd; i++) {
            p[2 * i] = dst[i];
            p[2 * i + 1] = weighted ? dstw[i] : 1;
        }
        *pairs = p;
        *count = outd;
        p = NULL;
        rc = 0;
    }
    free(src);
    free(srcw);
    free(dst);
    free(dstw);
    free(p);
    return rc;
}

int ro_dist_graph(int nprocs, const int *count, const int *pairs,
                  tg_graph **out, tg_error *err)
{
    tg_builder *b = tg_builder_new(nprocs);
    if (!b)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = 0;
    for (int p = 0; p < nprocs && rc == 0; p++)
        for (int i = 0; i < count[p] && rc == 0; i++, pairs += 2)
            if (pairs[1] > 0)
                rc = tg_builder_add(b, p, pairs[0], (uint64_t)pairs[1], err);
    if (rc == 0)
        rc = tg_builder_finish(b, out, err);
    tg_builder_free(b);
    return rc;
}
