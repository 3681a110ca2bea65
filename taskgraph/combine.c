/* combine.c: Sum and Weighted-sum of type graphs (papers/001, 4.1.1).
 *
 * Both walk the k inputs row by row, merging their sorted neighbour lists,
 * so the cost is O(k * arcs) with no sort and no hash table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

/* The grid of the inputs when they all have the same one (a Sum of a
 * stencil's type graphs is still that stencil's grid). */
static int inherit_grid(tg_graph *g, const tg_graph *const *graphs, int k,
                        tg_error *err)
{
    const tg_grid *a = &graphs[0]->grid;
    for (int i = 1; i < k; i++) {
        const tg_grid *b = &graphs[i]->grid;
        if (b->ndims != a->ndims ||
            memcmp(b->dims, a->dims, sizeof a->dims) ||
            memcmp(b->periods, a->periods, sizeof a->periods) ||
            !b->task != !a->task ||
            (a->task && memcmp(a->task, b->task,
                               (size_t)g->n * sizeof *a->task)))
            return 0;
    }
    return tg_graph_set_grid(g, a->ndims, a->dims, a->periods, a->task, err);
}

/* Merge k graphs.  factors == NULL: exact integer Sum.  Otherwise each
 * weight is sum_i factors[i] * w_i, rounded (see tg_weighted_sum). */
static int merge(const tg_graph *const *graphs, const double *factors, int k,
                 tg_graph **out, tg_error *err)
{
    if (k < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0, "nothing to combine");
    int n = graphs[0]->n;
    int64_t bound = 0;
    for (int i = 0; i < k; i++) {
        if (graphs[i]->n != n)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "graph %d has %d tasks, graph 1 has %d",
                                i + 1, graphs[i]->n, n);
        if (factors && !(factors[i] >= 0 && isfinite(factors[i])))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "factor %d is %g: factors must be finite "
                                "and >= 0", i + 1, factors[i]);
        bound += graphs[i]->xadj[n];
    }
    tg_graph *g = tg_graph_alloc(n, bound);
    int64_t *pos = malloc((size_t)k * sizeof *pos);
    if (!g || !pos) {
        tg_graph_free(g);
        free(pos);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    int64_t arcs = 0;
    for (int a = 0; a < n; a++) {
        for (int i = 0; i < k; i++)
            pos[i] = graphs[i]->xadj[a];
        for (;;) {
            int next = INT32_MAX;
            for (int i = 0; i < k; i++)
                if (pos[i] < graphs[i]->xadj[a + 1] &&
                    graphs[i]->adjncy[pos[i]] < next)
                    next = graphs[i]->adjncy[pos[i]];
            if (next == INT32_MAX)
                break;
            /* Contributions with factor 1 (every Sum, and a Weighted-sum
             * of one type) are added as exact integers; only scaled ones go
             * through floating point. */
            uint64_t sum = 0;
            long double scaled = 0;
            int overflow = 0, any_scaled = 0;
            for (int i = 0; i < k; i++) {
                if (pos[i] >= graphs[i]->xadj[a + 1] ||
                    graphs[i]->adjncy[pos[i]] != next)
                    continue;
                uint64_t w = graphs[i]->adjwgt[pos[i]++];
                if (factors && factors[i] != 1.0) {
                    scaled += (long double)factors[i] * w;
                    any_scaled = 1;
                } else if (w > TG_WEIGHT_MAX - sum)
                    overflow = 1;
                else
                    sum += w;
            }
            if (any_scaled && !overflow) {
                if (scaled > (long double)(TG_WEIGHT_MAX - sum))
                    overflow = 1;
                else
                    sum += (uint64_t)llroundl(scaled);
            }
            if (overflow) {
                tg_graph_free(g);
                free(pos);
                return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                                    "edge %d-%d: combined weight exceeds "
                                    "2^63 - 1", a, next);
            }
            if (sum == 0) {
                if (!(scaled > 0))
                    continue; /* every contributing factor was 0 */
                sum = 1;      /* positive, but rounded to 0 */
            }
            g->adjncy[arcs] = next;
            g->adjwgt[arcs++] = sum;
        }
        g->xadj[a + 1] = arcs;
    }
    free(pos);
    g->nedges = arcs / 2;
    /* Shrink to the real size; failure to shrink is harmless. */
    int *adj = realloc(g->adjncy, (size_t)(arcs ? arcs : 1) * sizeof *adj);
    if (adj)
        g->adjncy = adj;
    uint64_t *wgt = realloc(g->adjwgt, (size_t)(arcs ? arcs : 1) * sizeof *wgt);
    if (wgt)
        g->adjwgt = wgt;
    *out = g;
    return 0;
}

/* Append the types of `src` (scaled by f) to g. */
static int inherit_types(tg_graph *g, const tg_graph *src, double f,
                         tg_error *err)
{
    for (int t = 0; t < src->ntypes; t++) {
        int rc = tg_graph_add_type(g, src->types[t].name,
                                   src->types[t].factor * f, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int combine(const tg_graph *const *graphs, const double *factors,
                   int k, tg_graph **out, tg_error *err)
{
    tg_graph *g = NULL;
    int rc = merge(graphs, factors, k, &g, err);
    for (int i = 0; !rc && i < k; i++)
        rc = inherit_types(g, graphs[i], factors ? factors[i] : 1.0, err);
    if (!rc)
        rc = inherit_grid(g, graphs, k, err);
    if (rc) {
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}

int tg_sum(const tg_graph *const *graphs, int k, tg_graph **out,
           tg_error *err)
{
    return combine(graphs, NULL, k, out, err);
}

int tg_weighted_sum(const tg_graph *const *graphs, const double *factors,
                    int k, tg_graph **out, tg_error *err)
{
    return combine(graphs, factors, k, out, err);
}

int tg_combine_layers(const tg_graph *g, const double *factors,
                      tg_graph **out, tg_error *err)
{
    if (g->nlayers == 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "the graph has no type layers to combine");
    const tg_graph **layers = malloc((size_t)g->nlayers * sizeof *layers);
    if (!layers)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int i = 0; i < g->nlayers; i++)
        layers[i] = g->layers[i].graph;
    tg_graph *c = NULL;
    int rc = merge(layers, factors, g->nlayers, &c, err);
    free(layers);
    for (int i = 0; !rc && i < g->nlayers; i++)
        rc = tg_graph_add_type(c, g->layers[i].name,
                               factors ? factors[i] : 1.0, err);
    if (!rc)
        rc = tg_graph_set_grid(c, g->grid.ndims, g->grid.dims,
                               g->grid.periods, g->grid.task, err);
    if (rc) {
        tg_graph_free(c);
        return rc;
    }
    *out = c;
    return 0;
}
