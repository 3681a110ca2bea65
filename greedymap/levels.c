/* levels.c: the levels of the machine below and above the node and the
 * distance between two places that the communication cost J counts.
 *
 * Inside a node every slot belongs to one group per level, bottom up;
 * two distinct slots cost the cost of the highest level at which their
 * groups differ.  With a node topology (nodetopo.c) the levels are pu
 * (two PUs of one core), core (two cores of one L3 cache), l3 (two L3
 * groups of one NUMA node), numa (two NUMA nodes of one package) and
 * package (two packages), levels the topology lacks taking the groups of
 * the level above (so no bytes ever stop there); when the topology has
 * hwloc's NUMA latency matrix, two slots on NUMA nodes i != j cost
 * latency(i, j) / latency(i, i), rounded, at least 1 (nodetopo.c).  With a KaHIP/SharedMap
 * hierarchy a1:a2:..:ah and distances d1:..:dh (gm_machine_set_hierarchy)
 * processor p (planar order, node by node) is in group p / (a1 x .. x ai)
 * at level i, and two processors cost the d of the highest level at which
 * their groups differ, exactly as SharedMap's determine_distance. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

static void tab_free(gm_lv_tab *t)
{
    free(t->gid);
    free(t->numa_cost);
}

void gm_lv_free(gm_lv *lv)
{
    if (!lv)
        return;
    tab_free(&lv->tab[0]);
    tab_free(&lv->tab[1]);
    for (int i = 0; lv->node && i < lv->nnodes; i++)
        tab_free(&lv->node[i]);
    free(lv->node);
    free(lv);
}

gm_lv *gm_lv_new(int nlev, int a, int b)
{
    gm_lv *lv = calloc(1, sizeof *lv);
    if (!lv)
        return NULL;
    lv->nlev = nlev;
    lv->node_factor = GM_NODE_FACTOR;
    lv->package_level = -1;
    lv->nslots[0] = a;
    lv->nslots[1] = b;
    lv->tab[0].gid = calloc((size_t)(a ? a : 1) * (size_t)nlev, sizeof(int));
    lv->tab[1].gid = calloc((size_t)(b ? b : 1) * (size_t)nlev, sizeof(int));
    if (!lv->tab[0].gid || !lv->tab[1].gid) {
        gm_lv_free(lv);
        return NULL;
    }
    return lv;
}

/* No topology: every pair of slots of a node costs 1. */
static const gm_lv default_lv = {
    .nlev = 1, .name = {"core", "node"}, .cost = {1}, .node_factor =
    GM_NODE_FACTOR, .package_level = -1};

const gm_lv *gm_machine_lv(const gm_machine *m)
{
    return m->lv ? m->lv : &default_lv;
}

const gm_lv_tab *gm_lv_table(const gm_machine *m, const gm_lv *lv, int node)
{
    if (lv->node)
        return lv->node[node].gid ? &lv->node[node] : NULL;
    int s = m->slots[node];
    if (s == lv->nslots[0])
        return &lv->tab[0];
    if (s == lv->nslots[1])
        return &lv->tab[1];
    return NULL;
}

int gm_lv_has_latencies(const gm_lv *lv)
{
    if (lv->tab[0].numa_cost || lv->tab[1].numa_cost)
        return 1;
    for (int i = 0; lv->node && i < lv->nnodes; i++)
        if (lv->node[i].numa_cost)
            return 1;
    return 0;
}

int gm_lv_level(const gm_machine *m, const gm_lv *lv, gm_place a, gm_place b)
{
    if (a.node == b.node)
        return gm_lv_inner(lv, gm_lv_table(m, lv, a.node), a.slot, b.slot);
    int j = lv->nup - 1;
    while (j > 0 && a.node / lv->upsize[j] == b.node / lv->upsize[j])
        j--;
    return lv->nlev + (j > 0 ? j : 0);
}

uint64_t gm_comm_distance(const gm_machine *m, gm_place a, gm_place b)
{
    const gm_lv *lv = gm_machine_lv(m);
    int l = gm_lv_level(m, lv, a, b);
    if (l < 0)
        return 0;
    if (l < lv->nlev)
        return gm_lv_pair(lv, gm_lv_table(m, lv, a.node), a.slot, b.slot);
    if (lv->nup)
        return lv->upcost[l - lv->nlev];
    return lv->node_factor * (uint64_t)gm_distance(m, a.node, b.node);
}

/* ------------------------------------------------------------ hierarchy */

/* "a:b:c" into v (at most GM_LV_MAX positive numbers below 2^31). */
static int parse_list(const char *opt, const char *text, int64_t *v, int *n,
                      tg_error *err)
{
    const char *p = text;
    *n = 0;
    for (;;) {
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (end == p || errno || x < 1 || x > INT32_MAX || *n == GM_LV_MAX ||
            (*end && *end != ':'))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "%s '%s': expected up to %d positive "
                                "numbers separated by ':' (entry %d)",
                                opt, text, GM_LV_MAX, *n + 1);
        v[(*n)++] = x;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

int gm_machine_set_hierarchy(gm_machine *m, const char *hierarchy,
                             const char *distance, tg_error *err)
{
    int64_t a[GM_LV_MAX], d[GM_LV_MAX];
    int h, nd;
    int rc = parse_list("hierarchy", hierarchy, a, &h, err);
    if (!rc)
        rc = parse_list("distance", distance, d, &nd, err);
    if (rc)
        return rc;
    if (nd != h)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "hierarchy '%s' has %d levels but distance '%s' "
                            "has %d",
                            hierarchy, h, distance, nd);
    if (m->n == 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "hierarchy: the machine has no nodes");
    int slots = m->slots[0];
    for (int i = 1; i < m->n; i++)
        if (m->slots[i] != slots)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "hierarchy: nodes '%s' and '%s' have %d and "
                                "%d slots; a hierarchy needs equal nodes",
                                m->host[0], m->host[i], slots, m->slots[i]);
    /* The node is the group whose size is the slots of a node. */
    int k = 0;
    int64_t prod = 1;
    while (k < h && prod < slots)
        prod *= a[k++];
    int64_t total = prod;
    for (int i = k; i < h; i++)
        total *= a[i];
    if (prod != slots || total != (int64_t)slots * m->n)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "hierarchy '%s' does not describe %d nodes of %d "
                            "slots: the product of its first levels must be "
                            "the slots of a node and the product of all "
                            "levels the %lld slots of the machine",
                            hierarchy, m->n, slots,
                            (long long)slots * m->n);
    gm_lv *lv = gm_lv_new(k ? k : 1, slots, 0);
    if (!lv)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (k == 0) { /* one slot per node: no level inside */
        lv->cost[0] = d[0];
        snprintf(lv->name[0], sizeof lv->name[0], "slot");
    }
    for (int i = 0; i < k; i++) {
        int64_t size = 1;
        for (int j = 0; j < i; j++)
            size *= a[j];
        for (int s = 0; s < slots; s++)
            lv->tab[0].gid[s * k + i] = (int)(s / size);
        lv->cost[i] = (uint64_t)d[i];
        snprintf(lv->name[i], sizeof lv->name[i], "level%d", i + 1);
    }
    lv->nup = h - k;
    if (!lv->nup) /* one node, or nodes on the network */
        snprintf(lv->name[lv->nlev], sizeof lv->name[0], "node");
    int64_t size = 1;
    for (int j = 0; j < lv->nup; j++) {
        lv->upsize[j] = size;
        size *= a[k + j];
        lv->upcost[j] = (uint64_t)d[k + j];
        snprintf(lv->name[lv->nlev + j], sizeof lv->name[0], "level%d",
                 k + j + 1);
    }
    gm_lv_free(m->lv);
    m->lv = lv;
    return 0;
}
