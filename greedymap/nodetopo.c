/* nodetopo.c: the intra-node structure of the machine's nodes, read with
 * hwloc from a synthetic description or an XML file: the package (socket)
 * of every slot and the levels of levels.c (pu, core, l3, numa, package)
 * with their default costs, or hwloc's NUMA latencies where it has them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "gm_internal.h"

void gm_nodetopo_free(gm_nodetopo *t)
{
    if (!t)
        return;
    free(t->spec);
    free(t->core_pkg);
    free(t->pu_pkg);
    free(t);
}

/* Package logical index of every object of `type`, in logical order; 0
 * for all when the topology has no package level. */
static int *packages_of(hwloc_topology_t topo, hwloc_obj_type_t type,
                        int count)
{
    int *pkg = malloc((size_t)(count ? count : 1) * sizeof *pkg);
    if (!pkg)
        return NULL;
    for (int i = 0; i < count; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        hwloc_obj_t p =
            hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, o);
        pkg[i] = p ? (int)p->logical_index : 0;
    }
    return pkg;
}

/* Default costs of the levels of a node topology, bottom up: a pair of
 * slots costs the cost of the highest boundary between them.  Two PUs of
 * one core and two cores under one L3 cache exchange data through that
 * cache (1); crossing L3 groups or NUMA nodes of one package goes through
 * the package's interconnect (2, about the ratio of remote to local
 * latency that ACPI SLIT tables give, 21:10); crossing packages goes over
 * the socket link (4).  Between nodes: GM_NODE_FACTOR x network hops. */
static const char *const level_names[] = {"pu", "core", "l3", "numa",
                                          "package"};
static const uint64_t level_costs[] = {1, 1, 2, 2, 4};
enum { L_PU, L_CORE, L_L3, L_NUMA, L_PACKAGE, L_COUNT };
_Static_assert(L_COUNT == GM_NODE_LEVELS, "greedymap.h describes five levels");

/* The logical index of o's ancestor (or covering NUMA node) of `type`, or
 * `above` when the topology has none. */
static int group_of(hwloc_topology_t topo, hwloc_obj_t o,
                    hwloc_obj_type_t type, int above)
{
    hwloc_obj_t p;
    if (type == HWLOC_OBJ_NUMANODE)
        p = hwloc_get_next_obj_covering_cpuset_by_type(topo, o->cpuset,
                                                       type, NULL);
    else
        p = hwloc_get_ancestor_obj_by_type(topo, type, o);
    return p ? (int)p->logical_index : above;
}

/* Groups at the five levels of `count` objects of `type` (cores or
 * PUs): the idx[i]-th in logical order (the i-th when idx is NULL).
 * Levels the topology lacks take the groups of the level above, so that
 * only levels it has separate two slots; the pu group is i. */
static void fill_groups(hwloc_topology_t topo, hwloc_obj_type_t type,
                        const int *idx, int count, int *gid)
{
    for (int i = 0; i < count; i++) {
        hwloc_obj_t o =
            hwloc_get_obj_by_type(topo, type, (unsigned)(idx ? idx[i] : i));
        int *g = gid + (size_t)i * L_COUNT;
        g[L_PACKAGE] = group_of(topo, o, HWLOC_OBJ_PACKAGE, 0);
        g[L_NUMA] = group_of(topo, o, HWLOC_OBJ_NUMANODE, g[L_PACKAGE]);
        g[L_L3] = group_of(topo, o, HWLOC_OBJ_L3CACHE, g[L_NUMA]);
        g[L_CORE] = group_of(topo, o, HWLOC_OBJ_CORE, i);
        g[L_PU] = i;
    }
}

/* hwloc's NUMA latency matrix, when it covers every NUMA node, as costs
 * latency(i, j) / latency(i, i) rounded (at least 1): a remote access
 * twice as slow as a local one costs 2.  *nnuma = 0 and *cost = NULL
 * without one.  Returns 0 or TG_ENOMEM. */
static int numa_costs(hwloc_topology_t topo, int *nnuma, uint64_t **cost)
{
    unsigned nr = 1;
    struct hwloc_distances_s *d = NULL;
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    *nnuma = 0;
    *cost = NULL;
    if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &d,
                                    HWLOC_DISTANCES_KIND_MEANS_LATENCY,
                                    0) < 0 ||
        nr == 0)
        return 0;
    int rc = 0;
    if ((int)d->nbobjs == n && n > 1) {
        uint64_t *c = malloc((size_t)n * (size_t)n * sizeof *c);
        if (!c)
            rc = TG_ENOMEM;
        for (int i = 0; i < n && !rc; i++) {
            uint64_t local = d->values[(size_t)i * n + i];
            for (int j = 0; j < n; j++) {
                uint64_t v = d->values[(size_t)i * n + j];
                uint64_t x = local ? (v + local / 2) / local : 1;
                int a = (int)d->objs[i]->logical_index;
                int b = (int)d->objs[j]->logical_index;
                c[a * n + b] = x ? x : 1;
            }
        }
        *cost = c;
        *nnuma = c ? n : 0;
    }
    hwloc_distances_release(topo, d);
    return rc;
}

/* A copy of an n x n matrix (NULL for NULL). */
static int copy_matrix(const uint64_t *from, int n, uint64_t **to)
{
    *to = NULL;
    if (!from || n <= 0)
        return 0;
    *to = malloc((size_t)n * (size_t)n * sizeof **to);
    if (!*to)
        return TG_ENOMEM;
    memcpy(*to, from, (size_t)n * (size_t)n * sizeof **to);
    return 0;
}

/* The five level names and default costs, bottom up. */
static void name_levels(gm_lv *lv)
{
    for (int i = 0; i < L_COUNT; i++) {
        snprintf(lv->name[i], sizeof lv->name[i], "%s", level_names[i]);
        lv->cost[i] = level_costs[i];
    }
    snprintf(lv->name[L_COUNT], sizeof lv->name[0], "node");
    lv->numa_level = L_NUMA;
}

static gm_lv *topology_levels(hwloc_topology_t topo, int cores, int pus)
{
    gm_lv *lv = gm_lv_new(L_COUNT, cores, pus);
    if (!lv)
        return NULL;
    name_levels(lv);
    fill_groups(topo, HWLOC_OBJ_CORE, NULL, cores, lv->tab[0].gid);
    fill_groups(topo, HWLOC_OBJ_PU, NULL, pus, lv->tab[1].gid);
    if (numa_costs(topo, &lv->tab[0].nnuma, &lv->tab[0].numa_cost) ||
        copy_matrix(lv->tab[0].numa_cost, lv->tab[0].nnuma,
                    &lv->tab[1].numa_cost)) {
        gm_lv_free(lv);
        return NULL;
    }
    lv->tab[1].nnuma = lv->tab[0].nnuma;
    return lv;
}

/* ------------------------------------------------------ in-job levels */

int gm_node_levels_describe(struct hwloc_topology *topo, const int *core,
                            int ncores, int *groups, int *nnuma,
                            uint64_t **numa_cost, tg_error *err)
{
    int have = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (int i = 0; i < ncores; i++)
        if (core[i] < 0 || core[i] >= have)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "core %d: the topology has %d cores",
                                core[i], have);
    fill_groups(topo, HWLOC_OBJ_CORE, core, ncores, groups);
    if (numa_costs(topo, nnuma, numa_cost))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    return 0;
}

int gm_machine_set_node_levels(gm_machine *m, int node, const int *groups,
                               int ncores, int per_core, int nnuma,
                               const uint64_t *numa_cost, tg_error *err)
{
    int slots = m->slots[node];
    if (per_core < 1 || (int64_t)ncores * per_core < slots)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "node '%s': %d slots do not fit on %d cores x "
                            "%d tasks per core",
                            m->host[node], slots, ncores, per_core);
    for (int i = 0; i < ncores * L_COUNT; i++)
        if (groups[i] < 0 ||
            (i % L_COUNT == L_NUMA && nnuma && groups[i] >= nnuma))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "node '%s': group %d of core %d out of "
                                "range",
                                m->host[node], groups[i], i / L_COUNT);
    gm_lv *lv = m->lv;
    if (!lv || !lv->node) { /* the first node: a model of per-node tables */
        lv = gm_lv_new(L_COUNT, 0, 0);
        if (lv)
            lv->node = calloc((size_t)m->n + 1, sizeof *lv->node);
        if (!lv || !lv->node) {
            gm_lv_free(lv);
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        }
        lv->nnodes = m->n;
        name_levels(lv);
        lv->package_level = L_PACKAGE;
        gm_lv_free(m->lv);
        m->lv = lv;
        gm_nodetopo_free(m->topo); /* the levels replace a node topology */
        m->topo = NULL;
    }
    gm_lv_tab t = {NULL, 0, NULL};
    t.gid = malloc(((size_t)slots + 1) * L_COUNT * sizeof *t.gid);
    if (!t.gid || copy_matrix(numa_cost, nnuma, &t.numa_cost)) {
        free(t.gid);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    t.nnuma = t.numa_cost ? nnuma : 0;
    /* Slot s is on core s / per_core; slots of one core differ at pu. */
    for (int s = 0; s < slots; s++) {
        memcpy(t.gid + (size_t)s * L_COUNT,
               groups + (size_t)(s / per_core) * L_COUNT,
               L_COUNT * sizeof *t.gid);
        t.gid[(size_t)s * L_COUNT + L_PU] = s;
    }
    free(lv->node[node].gid);
    free(lv->node[node].numa_cost);
    lv->node[node] = t;
    return 0;
}

/* A readable file is an XML topology; anything else a synthetic string.
 * hwloc's messages go to stderr only when asked, so errors say which of
 * the two readings failed. */
static int load(hwloc_topology_t topo, const char *spec, tg_error *err)
{
    FILE *fp = fopen(spec, "r");
    if (fp) {
        fclose(fp);
        if (hwloc_topology_set_xml(topo, spec) < 0 ||
            hwloc_topology_load(topo) < 0)
            return tg_error_set(err, TG_EPARSE, spec, 0,
                                "not an hwloc XML topology");
        return 0;
    }
    int open_errno = errno;
    if (tg_synthetic_check(spec, "node topology", err))
        return TG_EINVAL;
    if (hwloc_topology_set_synthetic(topo, spec) < 0 ||
        hwloc_topology_load(topo) < 0) {
        if (strchr(spec, '/') || strstr(spec, ".xml"))
            return tg_error_set(err, TG_EIO, spec, 0,
                                "cannot read node topology file: %s",
                                strerror(open_errno));
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "node topology '%s' is neither a readable XML "
                            "file nor an hwloc synthetic description such "
                            "as \"pack:2 core:16 pu:1\"",
                            spec);
    }
    return 0;
}

/* Every node's slots must be its cores or its PUs. */
static int check_slots(const gm_machine *m, const gm_nodetopo *t,
                       tg_error *err)
{
    for (int i = 0; i < m->n; i++)
        if (m->slots[i] != t->cores && m->slots[i] != t->pus)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "node '%s' has %d slots but node topology "
                                "'%s' has %d cores and %d PUs",
                                m->host[i], m->slots[i], t->spec, t->cores,
                                t->pus);
    return 0;
}

int gm_machine_set_node_topology(gm_machine *m, const char *spec,
                                 tg_error *err)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) < 0)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = load(topo, spec, err);
    gm_nodetopo *t = NULL;
    gm_lv *lv = NULL;
    if (!rc) {
        t = calloc(1, sizeof *t);
        if (t) {
            t->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
            t->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
            t->spec = strdup(spec);
            t->core_pkg = packages_of(topo, HWLOC_OBJ_CORE, t->cores);
            t->pu_pkg = packages_of(topo, HWLOC_OBJ_PU, t->pus);
        }
        if (t)
            lv = topology_levels(topo, t->cores, t->pus);
        if (!t || !t->spec || !t->core_pkg || !t->pu_pkg || !lv)
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    hwloc_topology_destroy(topo);
    if (!rc)
        rc = check_slots(m, t, err);
    if (rc) {
        gm_nodetopo_free(t);
        gm_lv_free(lv);
        return rc;
    }
    gm_nodetopo_free(m->topo);
    m->topo = t;
    gm_lv_free(m->lv);
    m->lv = lv;
    return 0;
}

const char *gm_machine_node_topology(const gm_machine *m)
{
    return m->topo ? m->topo->spec : NULL;
}

int gm_machine_has_packages(const gm_machine *m)
{
    return m->topo || (m->lv && m->lv->package_level >= 0);
}

int gm_slot_package(const gm_machine *m, int node, int slot)
{
    const gm_nodetopo *t = m->topo;
    if (!t) {
        const gm_lv_tab *tab =
            m->lv && m->lv->package_level >= 0
                ? gm_lv_table(m, m->lv, node)
                : NULL;
        return tab ? tab->gid[slot * m->lv->nlev + m->lv->package_level]
                   : -1;
    }
    return m->slots[node] == t->cores ? t->core_pkg[slot] : t->pu_pkg[slot];
}
