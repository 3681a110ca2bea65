/* mapper.c: which mappers libtopomap-reorder tries, in one place: block,
 * decompose (Mapple's boxes, for Cartesian grids: the graph carries the
 * grid of MPI_Cart_create), recursive bisection (rb) and GreedyMap's
 * default configuration, the best by the communication cost J when the
 * machine has levels inside its nodes (cores and packages of the hosts,
 * cores.c), else by hop-bytes between hosts, the earliest of equals; the identity order unless one is strictly better.  A mapper that
 * fails (decompose on a graph with no grid) is skipped: the identity order
 * is always there to fall back on. */
#include <stdlib.h>
#include <string.h>

#include "ro_internal.h"

/* A candidate fills map (g->n places) or fails. */
typedef struct candidate {
    const char *name;
    int (*map)(const tg_graph *g, const gm_machine *m, gm_place *map,
               tg_error *err);
} candidate;

static int map_block(const tg_graph *g, const gm_machine *m, gm_place *map,
                     tg_error *err)
{
    return gm_baseline_map(g, m, GM_BASE_BLOCK, 0, map, err);
}

static int map_decompose(const tg_graph *g, const gm_machine *m,
                         gm_place *map, tg_error *err)
{
    return gm_baseline_map(g, m, GM_BASE_DECOMPOSE, 0, map, err);
}

static int map_rb(const tg_graph *g, const gm_machine *m, gm_place *map,
                  tg_error *err)
{
    return gm_baseline_map(g, m, GM_BASE_RB, 0, map, err);
}

static int map_greedy(const tg_graph *g, const gm_machine *m, gm_place *map,
                      tg_error *err)
{
    gm_config c;
    int rc = gm_config_parse("", &c, err);
    return rc ? rc : gm_greedymap(g, m, &c, map, err);
}

static const candidate candidates[] = {
    {"block", map_block},
    {"decompose", map_decompose},
    {"rb", map_rb},
    {"greedymap", map_greedy},
};

/* What the choice minimises: J with a node topology, else hop-bytes. */
static int cost(const tg_graph *g, const gm_machine *m, const gm_place *map,
                uint64_t *out, tg_error *err)
{
    if (gm_machine_node_topology(m)) {
        gm_level_metrics lv;
        int rc = gm_evaluate_levels(g, m, map, &lv, err);
        *out = lv.comm_cost;
        return rc;
    }
    gm_metrics met;
    int rc = gm_evaluate(g, m, map, GM_METRICS_NO_LOAD, NULL, &met, err);
    *out = met.hop_bytes_total;
    return rc;
}

int ro_choose_mapping(const tg_graph *g, const gm_machine *m,
                      const gm_place *identity, gm_place *map,
                      const char **name, tg_error *err)
{
    uint64_t best;
    int rc = cost(g, m, identity, &best, err);
    if (rc)
        return rc;
    memcpy(map, identity, (size_t)g->n * sizeof *map);
    *name = "identity";
    gm_place *try = malloc(((size_t)g->n + 1) * sizeof *try);
    if (!try)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        uint64_t c;
        tg_error e;
        if (candidates[i].map(g, m, try, &e) || cost(g, m, try, &c, &e))
            continue;
        if (c < best) {
            best = c;
            memcpy(map, try, (size_t)g->n * sizeof *map);
            *name = candidates[i].name;
        }
    }
    free(try);
    return 0;
}
