/* baseline.c: the reference mappers of papers/001, 5.1: the list mappings
 * block ("default", planar order), cyclic and hilbert, random, and the
 * dispatch to recursive bisection (bisect.c) and decompose
 * (decompose_map.c). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

static const char *const names[] = {"block", "cyclic", "hilbert", "rb",
                                    "random", "decompose", "drb"};
#define NBASE ((int)(sizeof names / sizeof names[0]))

int gm_baseline_parse(const char *name, gm_baseline *out, tg_error *err)
{
    for (int i = 0; i < NBASE; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (gm_baseline)i;
            return 0;
        }
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "unknown baseline '%s' (expected block, cyclic, "
                        "hilbert, rb, random, decompose or drb)",
                        name);
}

const char *gm_baseline_name(gm_baseline b)
{
    return (int)b >= 0 && (int)b < NBASE ? names[b] : "?";
}

/* Task i on the i-th processor of the node list `order`, slots of a node
 * consecutive: the first g->n processors are used. */
static void list_map(const gm_machine *m, const int *order, int ntasks,
                     gm_place *map)
{
    int k = 0, slot = 0;
    for (int t = 0; t < ntasks; t++) {
        if (slot == m->slots[order[k]]) {
            k++;
            slot = 0;
        }
        map[t].node = order[k];
        map[t].slot = slot++;
    }
}

static int block(const gm_machine *m, int ntasks, gm_place *map,
                 tg_error *err)
{
    int *order = malloc(((size_t)m->n + 1) * sizeof *order);
    if (!order)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int i = 0; i < m->n; i++)
        order[i] = i;
    list_map(m, order, ntasks, map);
    free(order);
    return 0;
}

/* Task i on node i mod N, passing over full nodes: `live` holds the nodes
 * with free slots in node order and shrinks as they fill, so the cost is
 * O(T + N).  With fewer tasks than slots every node gets its lowest
 * slots. */
static int cyclic(const gm_machine *m, int ntasks, gm_place *map,
                  tg_error *err)
{
    int *live = malloc(((size_t)m->n + 1) * sizeof *live);
    int *used = calloc((size_t)m->n + 1, sizeof *used);
    if (!live || !used) {
        free(live);
        free(used);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    int nlive = m->n;
    for (int i = 0; i < m->n; i++)
        live[i] = i;
    int t = 0;
    while (t < ntasks) {
        int keep = 0;
        for (int k = 0; k < nlive && t < ntasks; k++) {
            int node = live[k];
            map[t].node = node;
            map[t++].slot = used[node]++;
            if (used[node] < m->slots[node])
                live[keep++] = node;
        }
        nlive = keep;
    }
    free(live);
    free(used);
    return 0;
}

static int hilbert(const gm_machine *m, int ntasks, gm_place *map,
                   tg_error *err)
{
    int *order = malloc(((size_t)m->n + 1) * sizeof *order);
    if (!order)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = gm_hilbert_nodes(m, order, err);
    if (!rc)
        list_map(m, order, ntasks, map);
    free(order);
    return rc;
}

/* Uniform in [0, n) without modulo bias (rejection). */
static uint64_t below(tg_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = tg_rng_next(r);
    while (x >= limit);
    return x % n;
}

/* The first g->n steps of a Fisher-Yates shuffle of all processors in
 * planar order: task i gets the i-th processor of a uniformly random
 * permutation. */
static int random_map(const gm_machine *m, uint64_t seed, int ntasks,
                      int64_t total, gm_place *map, tg_error *err)
{
    gm_place *proc = malloc(((size_t)total + 1) * sizeof *proc);
    if (!proc)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int64_t k = 0;
    for (int node = 0; node < m->n; node++)
        for (int s = 0; s < m->slots[node]; s++) {
            proc[k].node = node;
            proc[k++].slot = s;
        }
    tg_rng rng;
    tg_rng_seed(&rng, seed);
    for (int t = 0; t < ntasks; t++) {
        int64_t j = t + (int64_t)below(&rng, (uint64_t)(total - t));
        gm_place tmp = proc[t];
        proc[t] = proc[j];
        proc[j] = tmp;
        map[t] = proc[t];
    }
    free(proc);
    return 0;
}

int gm_baseline_map(const tg_graph *g, const gm_machine *m, gm_baseline b,
                    uint64_t seed, gm_place *map, tg_error *err)
{
    int64_t total = gm_machine_total_slots(m);
    if (g->n > total)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d tasks but the machine has %lld slots", g->n,
                            (long long)total);
    switch (b) {
    case GM_BASE_BLOCK:
        return block(m, g->n, map, err);
    case GM_BASE_CYCLIC:
        return cyclic(m, g->n, map, err);
    case GM_BASE_HILBERT:
        return hilbert(m, g->n, map, err);
    case GM_BASE_RB:
        return gm_bisect_map(g, m, seed, 0, map, err);
    case GM_BASE_DRB:
        return gm_bisect_map(g, m, seed, 1, map, err);
    case GM_BASE_RANDOM:
        return random_map(m, seed, g->n, total, map, err);
    case GM_BASE_DECOMPOSE:
        return gm_decompose(g, m, NULL, NULL, map, err);
    }
    return tg_error_set(err, TG_EINVAL, NULL, 0, "unknown baseline %d",
                        (int)b);
}
