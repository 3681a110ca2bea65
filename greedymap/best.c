/* best.c: the default of greedymap map (issue 12, item 3): GreedyMap with
 * a configuration and the baselines block, rb and decompose, the mapping
 * of least total hop-bytes kept, so that the default never loses to any
 * of them. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

int gm_map_best(const tg_graph *g, const gm_machine *m, const gm_config *c,
                gm_place *map, gm_config *won, uint64_t *total,
                tg_error *err)
{
    gm_config cand[4];
    int n = 0;
    cand[n++] = *c;
    const gm_baseline extra[] = {GM_BASE_BLOCK, GM_BASE_RB,
                                 GM_BASE_DECOMPOSE};
    tg_grid grid;
    for (int i = 0; i < 3; i++)
        if (extra[i] != GM_BASE_DECOMPOSE || gm_grid_of(g, &grid)) {
            cand[n] = *c;
            cand[n++].baseline = 1 + (int)extra[i];
        }
    gm_place *tmp = malloc(((size_t)g->n + 1) * sizeof *tmp);
    if (!tmp)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    uint64_t best = 0;
    int at = -1, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        gm_metrics r;
        rc = gm_greedymap(g, m, &cand[i], tmp, err);
        if (!rc)
            rc = gm_evaluate(g, m, tmp, GM_METRICS_NO_LOAD, NULL, &r, err);
        if (!rc && (at < 0 || r.hop_bytes_total < best)) {
            best = r.hop_bytes_total;
            at = i;
            memcpy(map, tmp, (size_t)g->n * sizeof *map);
        }
    }
    free(tmp);
    if (!rc) {
        if (won)
            *won = cand[at];
        if (total)
            *total = best;
    }
    return rc;
}
