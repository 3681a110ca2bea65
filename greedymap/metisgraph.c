/* metisgraph.c: a task graph in METIS's 32-bit CSR, weights scaled down
 * to fit (for GPART and any other METIS caller).
 *
 * Debian's METIS has 32-bit idx_t, and METIS adds edge weights up (a
 * vertex's internal and external degrees, the edge cut) in idx_t.  When
 * the sum of all arc weights S (each edge twice) exceeds 2^29, every weight
 * is divided by f = ceil(S / 2^29) and rounded to nearest, and a weight
 * that would become 0 is kept at 1, so no edge vanishes.  The scaled sum
 * is then at most 2^29 + arcs, which fits in idx_t because graphs with more
 * than 2^30 arcs are refused (METIS indexes arcs in idx_t too).  Weights
 * keep their proportions to within the rounding, which is what a min-cut
 * partitioner needs. */
#include <metis.h>
#include <stdlib.h>

#include "gm_internal.h"

_Static_assert(sizeof(idx_t) == sizeof(int32_t), "METIS with 32-bit idx_t");

#define SUM_LIMIT ((uint64_t)1 << 29)
#define ARC_LIMIT ((int64_t)1 << 30)

int gm_metis_graph_make(const tg_graph *g, gm_metis_graph *out,
                        tg_error *err)
{
    int64_t arcs = g->xadj[g->n];
    if (arcs > ARC_LIMIT)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                            "the graph has %lld edges, more than METIS "
                            "(32-bit) can take",
                            (long long)(arcs / 2));
    unsigned __int128 sum = 0;
    for (int64_t e = 0; e < arcs; e++)
        sum += g->adjwgt[e];
    uint64_t f = 1;
    if (sum > SUM_LIMIT)
        f = (uint64_t)((sum + SUM_LIMIT - 1) / SUM_LIMIT);
    out->n = g->n;
    out->scale = f;
    out->xadj = malloc(((size_t)g->n + 1) * sizeof *out->xadj);
    out->adjncy = malloc(((size_t)arcs + 1) * sizeof *out->adjncy);
    out->adjwgt = malloc(((size_t)arcs + 1) * sizeof *out->adjwgt);
    if (!out->xadj || !out->adjncy || !out->adjwgt) {
        gm_metis_graph_free(out);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int t = 0; t <= g->n; t++)
        out->xadj[t] = (int32_t)g->xadj[t];
    for (int64_t e = 0; e < arcs; e++) {
        uint64_t w = g->adjwgt[e] / f + (g->adjwgt[e] % f >= (f + 1) / 2);
        out->adjncy[e] = g->adjncy[e];
        out->adjwgt[e] = (int32_t)(w ? w : 1);
    }
    return 0;
}

void gm_metis_graph_free(gm_metis_graph *mg)
{
    free(mg->xadj);
    free(mg->adjncy);
    free(mg->adjwgt);
    mg->xadj = mg->adjncy = mg->adjwgt = NULL;
}
