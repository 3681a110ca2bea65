/* metrics.c: hop-bytes (papers/001, eq. 1-3), dilation, off-node and
 * cross-socket bytes and the maximum link load (eq. 4-5) of a mapping;
 * the bytes at each level and the communication cost J (levels.c). */
#include <string.h>

#include "gm_internal.h"

typedef unsigned __int128 u128;

/* A 128-bit sum as uint64_t, stopping at UINT64_MAX. */
static uint64_t clamp(u128 x, int *saturated)
{
    if (x > UINT64_MAX) {
        *saturated = 1;
        return UINT64_MAX;
    }
    return (uint64_t)x;
}

/* Sums over edges, each counted once (from its smaller task). */
typedef struct edge_sums {
    u128 bytes, offnode, cross, wdist;
    uint64_t dist;
    int dmax;
    int packages; /* 1: count bytes across packages (gm_slot_package) */
} edge_sums;

static void hop_bytes(const tg_graph *g, const gm_machine *m,
                      const gm_place *map, uint64_t *task_hb,
                      gm_metrics *out, edge_sums *es)
{
    u128 total = 0, best = 0;
    out->hop_bytes_max_task = g->n ? 0 : -1;
    for (int t = 0; t < g->n; t++) {
        int a = map[t].node;
        u128 hb = 0;
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            uint64_t w = g->adjwgt[e];
            int d = gm_distance(m, a, map[u].node);
            hb += (u128)w * (unsigned)d;
            if (u > t) {
                es->bytes += w;
                es->offnode += a != map[u].node ? w : 0;
                if (a == map[u].node && es->packages &&
                    gm_slot_package(m, a, map[t].slot) !=
                        gm_slot_package(m, a, map[u].slot))
                    es->cross += w;
                es->wdist += (u128)w * (unsigned)d;
                es->dist += (unsigned)d;
                if (d > es->dmax)
                    es->dmax = d;
            }
        }
        if (task_hb)
            task_hb[t] = clamp(hb, &out->saturated);
        if (hb > best) {
            best = hb;
            out->hop_bytes_max_task = t;
        }
        total += hb;
    }
    out->hop_bytes_total = clamp(total, &out->saturated);
    out->hop_bytes_max = clamp(best, &out->saturated);
    out->hop_bytes_avg = g->n ? (double)((long double)total / g->n) : 0;
}

/* Route every edge between two nodes, smaller task first, in CSR order. */
static void link_load(const tg_graph *g, const gm_place *map, gm_loads *l,
                      gm_route_policy policy, uint64_t *max, int *link,
                      int *saturated)
{
    gm_loads_reset(l);
    for (int t = 0; t < g->n; t++)
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            if (u > t && map[t].node != map[u].node)
                gm_loads_add(l, map[t].node, map[u].node, g->adjwgt[e],
                             policy);
        }
    *max = gm_loads_max(l, link);
    if (gm_loads_saturated(l))
        *saturated = 1;
}

int gm_evaluate(const tg_graph *g, const gm_machine *m, const gm_place *map,
                unsigned flags, uint64_t *task_hop_bytes, gm_metrics *out,
                tg_error *err)
{
    int rc = gm_mapping_check(m, map, g->n, err);
    if (rc)
        return rc;
    gm_loads *l = NULL;
    if (!(flags & GM_METRICS_NO_LOAD)) {
        rc = gm_loads_new(m, &l, err);
        if (rc)
            return rc;
    }
    memset(out, 0, sizeof *out);
    out->tasks = g->n;
    out->edges = g->nedges;
    edge_sums es;
    memset(&es, 0, sizeof es);
    es.packages = gm_machine_has_packages(m);
    hop_bytes(g, m, map, task_hop_bytes, out, &es);
    out->bytes = clamp(es.bytes, &out->saturated);
    out->offnode_bytes = clamp(es.offnode, &out->saturated);
    out->offnode_share =
        es.bytes ? (double)((long double)es.offnode / es.bytes) : 0;
    out->cross_socket_bytes = clamp(es.cross, &out->saturated);
    out->has_node_topology = gm_machine_has_packages(m);
    out->dilation_avg = g->nedges ? (double)es.dist / (double)g->nedges : 0;
    out->dilation_wavg =
        es.bytes ? (double)((long double)es.wdist / es.bytes) : 0;
    out->dilation_max = es.dmax;
    out->load_max_fixed_link = out->load_max_heuristic_link = -1;
    if (l) {
        link_load(g, map, l, GM_ROUTE_FIXED, &out->load_max_fixed,
                  &out->load_max_fixed_link, &out->saturated);
        link_load(g, map, l, GM_ROUTE_LEAST_LOADED, &out->load_max_heuristic,
                  &out->load_max_heuristic_link, &out->saturated);
        gm_loads_free(l);
    }
    return 0;
}

/* ------------------------------------------------------------ levels */

int gm_evaluate_levels(const tg_graph *g, const gm_machine *m,
                       const gm_place *map, gm_level_metrics *out,
                       tg_error *err)
{
    int rc = gm_mapping_check(m, map, g->n, err);
    if (rc)
        return rc;
    const gm_lv *lv = gm_machine_lv(m);
    memset(out, 0, sizeof *out);
    out->nlevels = lv->nlev + (lv->nup ? lv->nup : 1);
    for (int i = 0; i < out->nlevels; i++) {
        memcpy(out->name[i], lv->name[i], sizeof out->name[i]);
        out->cost[i] = i < lv->nlev ? lv->cost[i]
                     : lv->nup      ? lv->upcost[i - lv->nlev]
                                    : lv->node_factor;
    }
    out->latency_level = gm_lv_has_latencies(lv) ? lv->numa_level : -1;
    u128 bytes[GM_LEVELS_MAX] = {0}, j = 0;
    for (int t = 0; t < g->n; t++)
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            uint64_t w = g->adjwgt[e];
            int l = gm_lv_level(m, lv, map[t], map[u]);
            if (l < 0)
                continue;
            j += (u128)w * gm_comm_distance(m, map[t], map[u]);
            if (u > t)
                bytes[l] += w;
        }
    for (int i = 0; i < out->nlevels; i++)
        out->bytes[i] = clamp(bytes[i], &out->saturated);
    out->comm_cost = clamp(j, &out->saturated);
    return 0;
}
