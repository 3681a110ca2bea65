/* best.c: the default of greedymap map (issue 12, item 3): GreedyMap with
 * a configuration and the baselines block, rb, drb and decompose, the
 * mapping of least total hop-bytes kept, so that the default never loses
 * to any of them, then refined by swaps (gm_refine, refine=1 of its
 * configuration), which never raise the total, and so is every candidate
 * within 2 % of it (CLOSE_PERMILLE), the least refined total kept.  Not
 * decompose's: its boxes were a fixed point of the swaps on every grid
 * measured (128^3 on torus 32^3 x 64 the same 1,453.12 hop-bytes after a
 * pass that took 18.6 s, three quarters of the mapping's time), where the
 * refinement took rb's mapping of the 27-point 32^3 stencil on the
 * fat-tree from 32,737.79 to 32,528.81 and GreedyMap's of the HPCC graph
 * on torus 2^3 from 3,291.00 to 3,201.48 MB (bench/README.md). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* Candidates whose total, before refinement, is within this many
 * thousandths of the least are refined too: the swaps gain more on some
 * mappings than on others (the HPCC graph on torus 2^3: drb's 3,255.02 MB
 * refines to 3,238.87, GreedyMap's 3,291.00 to 3,201.48), and where the
 * totals are far apart the second refinement is not worth its time. */
#define CLOSE_PERMILLE 1020

static int refinable(const gm_config *c)
{
    return c->baseline != 1 + (int)GM_BASE_DECOMPOSE &&
           c->cost == GM_COST_HOPBYTES && !c->refine;
}

/* Refine map when `refine`, then its total. */
static int finish(const tg_graph *g, const gm_machine *m, int refine,
                  gm_place *map, uint64_t *total, tg_error *err)
{
    gm_metrics r;
    int rc = refine ? gm_refine(g, m, NULL, NULL, map, err) : 0;
    if (!rc)
        rc = gm_evaluate(g, m, map, GM_METRICS_NO_LOAD, NULL, &r, err);
    if (!rc)
        *total = r.hop_bytes_total;
    return rc;
}

/* Map with candidate c into out, refined when `refine`; its total. */
static int run_one(const tg_graph *g, const gm_machine *m,
                   const gm_config *c, int refine, gm_place *out,
                   uint64_t *total, tg_error *err)
{
    int rc = gm_greedymap(g, m, c, out, err);
    return rc ? rc : finish(g, m, refine, out, total, err);
}

int gm_map_best(const tg_graph *g, const gm_machine *m, const gm_config *c,
                gm_place *map, gm_config *won, uint64_t *total,
                tg_error *err)
{
    gm_config cand[5];
    uint64_t before[5];
    int n = 0;
    cand[n++] = *c;
    const gm_baseline extra[] = {GM_BASE_BLOCK, GM_BASE_RB, GM_BASE_DRB,
                                 GM_BASE_DECOMPOSE};
    tg_grid grid;
    for (int i = 0; i < 4; i++)
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
        rc = run_one(g, m, &cand[i], 0, tmp, &before[i], err);
        if (!rc && (at < 0 || before[i] < best)) {
            best = before[i];
            at = i;
            memcpy(map, tmp, (size_t)g->n * sizeof *map);
        }
    }
    int first = at;
    uint64_t least = best;
    if (!rc && refinable(&cand[at])) {
        cand[at].refine = 1;
        rc = finish(g, m, 1, map, &best, err);
    }
    for (int i = 0; i < n && !rc; i++) {
        uint64_t t;
        if (i == first || !refinable(&cand[i]) ||
            (__int128)before[i] * 1000 > (__int128)least * CLOSE_PERMILLE)
            continue;
        rc = run_one(g, m, &cand[i], 1, tmp, &t, err);
        if (!rc && t < best) {
            best = t;
            at = i;
            cand[i].refine = 1;
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
