/* discover.c: the hosts of the job and the cores it may use.
 *
 * Ranks that share memory (MPI_Comm_split_type SHARED) are one host.
 * Every rank asks hwloc where it is bound (hwloc_get_cpubind; an unbound
 * process gets every PU it is allowed, so a job without binding may use
 * the whole host), and the host's first rank ORs the bindings together and
 * describes the host with hwloc: its cores and packages, and which cores
 * the job may use (those with a PU in the union).  What that union is
 * depends on how the job was launched: Open MPI 4.1 binds each rank to a
 * core by default when there are at most 2 ranks and to a package
 * (socket) otherwise, so a default launch of more than 2 ranks may use
 * every core of the packages its ranks are on; with --bind-to core the
 * usable cores are exactly the ranks' cores, and with --bind-to none every
 * core of the host.  Topologies are loaded with hwloc's defaults, as Open
 * MPI loads them, so logical core indexes are those of its rankfiles
 * (HWLOC_XMLFILE in the ranks' environment makes it an XML topology,
 * whose binding hwloc cannot read: every core of it is then usable).
 * The first rank of a host also describes the levels of its usable cores
 * (package, NUMA node, L3, core) and hwloc's NUMA latencies, with
 * greedymap's code (gm_node_levels_describe), so that the search counts
 * bytes across them.  The first ranks of the hosts then send their
 * descriptions to rank 0, hosts in the order of their first rank. */
#include <hwloc.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

/* The fields of one host after its name, as ints. */
enum { F_CORES, F_PACKAGES, F_RANKS, F_NUSABLE, F_NNUMA, F_HEAD };

/* This process's binding as 64-bit words (nwords of them), and the
 * topology for the host's description. */
static int my_binding(hwloc_topology_t *topo, unsigned long **words,
                      int *nwords, tg_error *err)
{
    if (hwloc_topology_init(topo))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (hwloc_topology_load(*topo)) {
        hwloc_topology_destroy(*topo);
        *topo = NULL;
        return tg_error_set(err, TG_EIO, NULL, 0,
                            "hwloc cannot read this host's topology");
    }
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(*topo);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (hwloc_get_cpubind(*topo, set, HWLOC_CPUBIND_PROCESS) ||
        hwloc_bitmap_iszero(set))
        hwloc_bitmap_copy(set, all);
    hwloc_bitmap_and(set, set, all);
    int last = hwloc_bitmap_last(all);
    *nwords = last < 0 ? 1 : last / (int)(8 * sizeof(unsigned long)) + 1;
    *words = calloc((size_t)*nwords, sizeof **words);
    if (!*words) {
        hwloc_bitmap_free(set);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int i = 0; i < *nwords; i++)
        (*words)[i] = hwloc_bitmap_to_ith_ulong(set, (unsigned)i);
    hwloc_bitmap_free(set);
    return 0;
}

/* The description of this host from the union of its ranks' bindings:
 * F_HEAD ints, the usable cores' logical indexes, the first PU (OS index)
 * of every core, GM_NODE_LEVELS groups per usable core, and the NUMA
 * latency costs (F_NNUMA squared, row by row). */
static int describe(hwloc_topology_t topo, const unsigned long *words,
                    int nwords, int ranks, int **desc, int *len,
                    tg_error *err)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    int *usable = malloc(((size_t)cores + 1) * sizeof *usable);
    int *groups =
        malloc(((size_t)cores + 1) * GM_NODE_LEVELS * sizeof *groups);
    if (!set || !usable || !groups) {
        hwloc_bitmap_free(set);
        free(usable);
        free(groups);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int i = 0; i < nwords; i++)
        hwloc_bitmap_set_ith_ulong(set, (unsigned)i, words[i]);
    int packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    int k = 0;
    for (int c = 0; c < cores; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE,
                                                 (unsigned)c);
        if (hwloc_bitmap_intersects(core->cpuset, set))
            usable[k++] = c;
    }
    hwloc_bitmap_free(set);
    int nnuma = 0;
    uint64_t *numa = NULL;
    int rc = gm_node_levels_describe(topo, usable, k, groups, &nnuma, &numa,
                                     err);
    size_t total = (size_t)F_HEAD + (size_t)k + (size_t)cores +
                   (size_t)k * GM_NODE_LEVELS + (size_t)nnuma * nnuma;
    int *d = rc ? NULL : malloc(total * sizeof *d);
    if (!rc && !d)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (!rc) {
        int *at = d + F_HEAD;
        memcpy(at, usable, (size_t)k * sizeof *at);
        at += k;
        for (int c = 0; c < cores; c++)
            *at++ = hwloc_bitmap_first(
                hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)c)
                    ->cpuset);
        memcpy(at, groups, (size_t)k * GM_NODE_LEVELS * sizeof *at);
        at += (size_t)k * GM_NODE_LEVELS;
        for (int i = 0; i < nnuma * nnuma; i++) /* small ratios */
            *at++ = numa[i] > INT_MAX ? INT_MAX : (int)numa[i];
        d[F_CORES] = cores;
        d[F_PACKAGES] = packages > 0 ? packages : 1;
        d[F_RANKS] = ranks;
        d[F_NUSABLE] = k;
        d[F_NNUMA] = nnuma;
        *desc = d;
        *len = (int)total;
    }
    free(usable);
    free(groups);
    free(numa);
    return rc;
}

/* Rank 0 of `leaders`: unpack every host's name and description. */
static int unpack(const char *names, const int *desc, int nhosts,
                  pm_hosts *out, tg_error *err)
{
    out->h = calloc((size_t)nhosts, sizeof *out->h);
    if (!out->h)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    out->n = nhosts;
    for (int i = 0; i < nhosts; i++) {
        pm_host *h = &out->h[i];
        h->cores = desc[F_CORES];
        h->packages = desc[F_PACKAGES];
        h->ranks = desc[F_RANKS];
        h->nusable = desc[F_NUSABLE];
        h->nnuma = desc[F_NNUMA];
        h->name = strdup(names + (size_t)i * MPI_MAX_PROCESSOR_NAME);
        h->core = malloc(((size_t)h->nusable + 1) * sizeof *h->core);
        h->pu = malloc(((size_t)h->cores + 1) * sizeof *h->pu);
        h->groups = malloc(((size_t)h->nusable + 1) * GM_NODE_LEVELS *
                           sizeof *h->groups);
        h->numa_cost = malloc(((size_t)h->nnuma * h->nnuma + 1) *
                              sizeof *h->numa_cost);
        if (!h->name || !h->core || !h->pu || !h->groups || !h->numa_cost)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        const int *at = desc + F_HEAD;
        memcpy(h->core, at, (size_t)h->nusable * sizeof *h->core);
        at += h->nusable;
        memcpy(h->pu, at, (size_t)h->cores * sizeof *h->pu);
        at += h->cores;
        memcpy(h->groups, at,
               (size_t)h->nusable * GM_NODE_LEVELS * sizeof *h->groups);
        at += (size_t)h->nusable * GM_NODE_LEVELS;
        for (int j = 0; j < h->nnuma * h->nnuma; j++)
            h->numa_cost[j] = (uint64_t)*at++;
        desc = at;
    }
    return 0;
}

/* 1 when `have` holds on every rank of comm. */
static int all_have(int have, MPI_Comm comm)
{
    int all;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

/* The first ranks of the hosts send name and description to rank 0 of
 * `leaders` (world rank 0). */
static int gather_hosts(MPI_Comm leaders, const int *desc, int len,
                        pm_hosts *out, tg_error *err)
{
    int rank, size;
    MPI_Comm_rank(leaders, &rank);
    MPI_Comm_size(leaders, &size);
    char name[MPI_MAX_PROCESSOR_NAME] = "";
    int nlen;
    MPI_Get_processor_name(name, &nlen);
    char *names = NULL;
    int *lens = NULL, *displs = NULL, *all = NULL, rc = 0;
    if (rank == 0) {
        names = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
        lens = malloc((size_t)size * sizeof *lens);
        displs = malloc((size_t)size * sizeof *displs);
    }
    /* No collective receives into a buffer the root could not get. */
    int ok = all_have(rank > 0 || (names && lens && displs), leaders);
    if (ok) {
        MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names,
                   MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, leaders);
        MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, leaders);
        if (rank == 0) {
            int total = 0;
            for (int i = 0; i < size; i++) {
                displs[i] = total;
                total += lens[i];
            }
            all = malloc(((size_t)total + 1) * sizeof *all);
        }
        ok = all_have(rank > 0 || all, leaders);
    }
    if (ok)
        MPI_Gatherv(desc, len, MPI_INT, all, lens, displs, MPI_INT, 0,
                    leaders);
    if (!ok)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    else if (rank == 0)
        rc = unpack(names, all, size, out, err);
    free(names);
    free(lens);
    free(displs);
    free(all);
    return rc;
}

int pm_discover(MPI_Comm comm, pm_hosts *out, tg_error *err)
{
    memset(out, 0, sizeof *out);
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm host;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                        &host);
    int hrank, hsize;
    MPI_Comm_rank(host, &hrank);
    MPI_Comm_size(host, &hsize);
    hwloc_topology_t topo = NULL;
    unsigned long *words = NULL, *both = NULL;
    int nwords = 0, *desc = NULL, len = 0;
    int rc = my_binding(&topo, &words, &nwords, err);
    /* The collectives run whatever happened; a failure is agreed on
     * afterwards. */
    if (all_have(rc == 0, comm)) {
        /* Ranks of one host in different cgroups see topologies of
         * different sizes (hwloc leaves out the PUs a process may not
         * use): the bindings are reduced at the largest size. */
        int most;
        MPI_Allreduce(&nwords, &most, 1, MPI_INT, MPI_MAX, host);
        unsigned long *w = realloc(words, (size_t)most * sizeof *w);
        if (w) {
            memset(w + nwords, 0, (size_t)(most - nwords) * sizeof *w);
            words = w;
            nwords = most;
        }
        if (hrank == 0)
            both = calloc((size_t)most, sizeof *both);
        if (!all_have(w && (hrank != 0 || both), host))
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        else
            MPI_Reduce(words, both, nwords, MPI_UNSIGNED_LONG, MPI_BOR, 0,
                       host);
        if (hrank == 0 && !rc)
            rc = describe(topo, both, nwords, hsize, &desc, &len, err);
        MPI_Comm leaders;
        MPI_Comm_split(comm, hrank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
        if (hrank == 0) {
            if (all_have(!rc, leaders))
                rc = gather_hosts(leaders, desc, len, out, err);
            MPI_Comm_free(&leaders);
        }
    }
    free(words);
    free(both);
    free(desc);
    if (topo)
        hwloc_topology_destroy(topo);
    MPI_Comm_free(&host);
    return rc;
}

void pm_hosts_free(pm_hosts *h)
{
    for (int i = 0; i < h->n; i++) {
        free(h->h[i].name);
        free(h->h[i].core);
        free(h->h[i].pu);
        free(h->h[i].groups);
        free(h->h[i].numa_cost);
    }
    free(h->h);
    memset(h, 0, sizeof *h);
}

const pm_host *pm_hosts_find(const pm_hosts *h, const char *name)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->h[i].name, name))
            return &h->h[i];
    return NULL;
}

int pm_per_core(int given, int slots, int cores)
{
    if (given > 0)
        return given;
    if (cores <= 0 || slots <= cores)
        return 1;
    return (slots - 1) / cores + 1;
}

void pm_hosts_tasks_per_slot(pm_hosts *h, int given)
{
    for (int i = 0; i < h->n; i++)
        h->h[i].tasks_per_slot =
            pm_per_core(given, h->h[i].ranks, h->h[i].nusable);
}
