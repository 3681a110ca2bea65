/* cores.c: where each process runs inside its host, and the hosts'
 * topology (hwloc) for greedymap's levels inside a node.
 *
 * Each process reports the core it is bound to: the core of the first PU
 * of its binding (hwloc_get_cpubind), as a logical index in its host's
 * topology, loaded once with hwloc's defaults as Open MPI loads it (so
 * the indexes are those of its rankfiles), with the host's core and
 * package counts; an unbound process (bound to every PU) reports none.
 * Rank 0 gives the machine a node topology only when every host has
 * exactly as many processes as cores, bound to distinct cores (the usual
 * full-node launch, --bind-to core) and every host reports rank 0's core
 * and package counts: greedymap describes every node by one topology, so
 * a host unlike the others, or one not filled, means no levels at all.
 * The topology is then rank 0's own (hwloc's synthetic export, or XML
 * through a temporary file when the topology is not symmetric).
 *
 * For testing on one machine, TOPOMAP_REORDER_TOPOLOGY=SPEC (an hwloc
 * synthetic string such as "pack:2 core:2", or the path of an hwloc XML
 * file) is every host's topology, and each process is bound to the core
 * given for its rank of MPI_COMM_WORLD in TOPOMAP_REORDER_CORES
 * ("3,0,2,...") or, without that, to the core numbered by its index among
 * its host's processes.  Unlike real bindings, which may share a core or
 * leave a host partly filled and then just give no levels, a list with a
 * core the topology lacks, two processes of a host on one core, or not
 * one entry per rank is a mistake of the tester: an internal failure,
 * warned, so that a test does not silently measure hosts alone.  Pretend
 * hosts (TOPOMAP_REORDER_HOSTS) without a pretend topology have no cores:
 * they are not this machine's. */
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ro_internal.h"
#include "tg_internal.h" /* tg_synthetic_check */

/* This process's topology: loaded once (0 not yet, 1 loaded, -1 failed),
 * kept for the life of the process. */
static int topo_state;
static hwloc_topology_t topo;
static char topo_why[300]; /* why it failed */

static int load_topology(const char *spec, char *why, size_t size)
{
    if (topo_state)
        goto out;
    topo_state = -1;
    if (hwloc_topology_init(&topo)) {
        snprintf(topo_why, sizeof topo_why, "hwloc cannot make a topology");
        goto out;
    }
    int rc = 0;
    tg_error err;
    if (spec && access(spec, R_OK) == 0) {
        rc = hwloc_topology_set_xml(topo, spec);
    } else if (spec &&
               tg_synthetic_check(spec, "TOPOMAP_REORDER_TOPOLOGY", &err)) {
        hwloc_topology_destroy(topo);
        snprintf(topo_why, sizeof topo_why, "%.290s", err.text);
        goto out;
    } else if (spec) {
        rc = hwloc_topology_set_synthetic(topo, spec);
    }
    if (rc || hwloc_topology_load(topo)) {
        hwloc_topology_destroy(topo);
        if (spec)
            snprintf(topo_why, sizeof topo_why,
                     "TOPOMAP_REORDER_TOPOLOGY: '%.200s' is neither a "
                     "readable hwloc XML file nor an hwloc synthetic "
                     "topology",
                     spec);
        else
            snprintf(topo_why, sizeof topo_why,
                     "hwloc cannot read this host's topology");
        goto out;
    }
    topo_state = 1;
out:
    if (topo_state < 0)
        snprintf(why, size, "%s", topo_why);
    return topo_state > 0 ? 0 : -1;
}

/* The core of world rank `rank` in TOPOMAP_REORDER_CORES, which must
 * give exactly `nranks` cores, one per rank of MPI_COMM_WORLD, each one
 * of the `ncores` of the pretend topology: a core it does not have, or a
 * list too short or too long, is a mistake in the list, which would
 * otherwise quietly cost the node its levels.  The whole list is read on
 * every process, so that every process finds the same fault and the
 * lowest rank names it.  (Two processes of one host on one core take the
 * hosts, which only rank 0 knows: ro_check_given_cores.) */
static int pretend_core(const char *spec, int rank, int nranks, int ncores,
                        int *core, char *why, size_t size)
{
    const char *p = spec;
    int i = 0;
    for (;; i++) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 0 || v > 1 << 30 ||
            (*end && *end != ',')) {
            snprintf(why, size,
                     "TOPOMAP_REORDER_CORES: entry %d is not a core number "
                     "(a non-negative integer)",
                     i + 1);
            return -1;
        }
        if (v >= ncores) {
            if (ncores > 0)
                snprintf(why, size,
                         "TOPOMAP_REORDER_CORES: entry %d is core %ld, but "
                         "TOPOMAP_REORDER_TOPOLOGY has cores 0 to %d",
                         i + 1, v, ncores - 1);
            else
                snprintf(why, size,
                         "TOPOMAP_REORDER_CORES: entry %d is core %ld, but "
                         "TOPOMAP_REORDER_TOPOLOGY has no cores",
                         i + 1, v);
            return -1;
        }
        if (i == rank)
            *core = (int)v;
        if (!*end)
            break;
        p = end + 1;
    }
    return ro_list_length("TOPOMAP_REORDER_CORES", i + 1L, "cores", nranks,
                          why, size);
}

/* The logical index of the core of the first PU of this process's
 * binding; RO_CORE_NONE when it is not bound (or bound everywhere). */
static int bound_core(void)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int core = RO_CORE_NONE;
    if (!set)
        return core;
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
        hwloc_bitmap_and(set, set, all);
        int first = hwloc_bitmap_first(set);
        hwloc_obj_t pu = first < 0 || hwloc_bitmap_isequal(set, all)
                             ? NULL
                             : hwloc_get_pu_obj_by_os_index(
                                   topo, (unsigned)first);
        hwloc_obj_t c =
            pu ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu)
               : NULL;
        if (c)
            core = (int)c->logical_index;
    }
    hwloc_bitmap_free(set);
    return core;
}

int ro_my_core(ro_core *out, char *why, size_t size)
{
    *out = (ro_core){RO_CORE_NONE, 0, 0, 0};
    const char *spec = getenv("TOPOMAP_REORDER_TOPOLOGY");
    const char *cores = getenv("TOPOMAP_REORDER_CORES");
    if (spec && !*spec)
        spec = NULL;
    if (!spec && cores && *cores) {
        snprintf(why, size, "TOPOMAP_REORDER_CORES needs "
                            "TOPOMAP_REORDER_TOPOLOGY (the topology of the "
                            "pretend cores)");
        return -1;
    }
    const char *hosts = getenv("TOPOMAP_REORDER_HOSTS");
    if (!spec && hosts && *hosts)
        return 0;
    /* A host hwloc cannot read just has no cores; a bad pretend
     * topology is an error. */
    if (load_topology(spec, why, size))
        return spec ? -1 : 0;
    out->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    out->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    if (!spec) {
        out->core = bound_core();
        return 0;
    }
    out->core = RO_CORE_SLOT;
    if (cores && *cores) {
        int rank, nranks;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        PMPI_Comm_size(MPI_COMM_WORLD, &nranks);
        out->given = 1;
        return pretend_core(cores, rank, nranks, out->cores, &out->core,
                            why, size);
    }
    return 0;
}

int ro_check_given_cores(const ro_layout *l, const ro_core *c,
                         MPI_Comm comm, tg_error *err)
{
    int ncores = 0;
    for (int p = 0; p < l->nprocs; p++)
        if (c[p].given && c[p].core >= ncores)
            ncores = c[p].core + 1;
    if (!ncores)
        return 0;
    /* owner[k]: the process of the host at hand given core k, or -1. */
    int *owner = malloc((size_t)ncores * sizeof *owner);
    if (!owner)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int k = 0; k < ncores; k++)
        owner[k] = -1;
    int p = -1, q = -1;
    for (int h = 0; h < l->nhosts && p < 0; h++) {
        for (int i = l->first[h]; i < l->first[h + 1] && p < 0; i++) {
            int r = l->proc[i];
            if (!c[r].given)
                continue;
            if (owner[c[r].core] >= 0)
                p = owner[c[r].core], q = r;
            else
                owner[c[r].core] = r;
        }
        for (int i = l->first[h]; i < l->first[h + 1]; i++)
            if (c[l->proc[i]].given)
                owner[c[l->proc[i]].core] = -1;
    }
    free(owner);
    if (p < 0)
        return 0;
    /* The list is by rank of MPI_COMM_WORLD: its entries are those. */
    int ranks[2] = {p < q ? p : q, p < q ? q : p};
    int world[2] = {MPI_UNDEFINED, MPI_UNDEFINED};
    MPI_Group g, wg;
    if (PMPI_Comm_group(comm, &g) == MPI_SUCCESS) {
        if (PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS) {
            PMPI_Group_translate_ranks(g, 2, ranks, wg, world);
            PMPI_Group_free(&wg);
        }
        PMPI_Group_free(&g);
    }
    if (world[0] == MPI_UNDEFINED || world[1] == MPI_UNDEFINED)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "TOPOMAP_REORDER_CORES gives core %d to two "
                            "processes of host %s (one process per core)",
                            c[q].core, l->host[l->proc_host[q]]);
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "TOPOMAP_REORDER_CORES: entries %d and %d give core "
                        "%d to two processes of host %s (one process per "
                        "core)",
                        world[0] + 1, world[1] + 1, c[q].core,
                        l->host[l->proc_host[q]]);
}

int ro_layout_cores(ro_layout *l, const ro_core *c)
{
    int ncores = c[0].cores, npack = c[0].packages;
    if (ncores <= 0)
        return 0;
    for (int p = 0; p < l->nprocs; p++)
        if (c[p].cores != ncores || c[p].packages != npack)
            return 0;
    for (int h = 0; h < l->nhosts; h++)
        if (l->slots[h] != ncores)
            return 0;
    int *core = malloc((size_t)l->nprocs * sizeof *core);
    char *seen = calloc((size_t)l->nhosts * (size_t)ncores, 1);
    int applies = core && seen;
    for (int p = 0; p < l->nprocs && applies; p++) {
        core[p] = c[p].core == RO_CORE_SLOT ? l->proc_slot[p] : c[p].core;
        char *s = seen + (size_t)l->proc_host[p] * (size_t)ncores +
                  (size_t)core[p];
        if (core[p] < 0 || core[p] >= ncores || *s)
            applies = 0;
        else
            *s = 1;
    }
    if (applies)
        for (int p = 0; p < l->nprocs; p++) {
            l->proc_slot[p] = core[p];
            l->proc[l->first[l->proc_host[p]] + core[p]] = p;
        }
    int rc = core && seen ? applies : -1;
    free(core);
    free(seen);
    return rc;
}

int ro_set_node_topology(gm_machine *m, tg_error *err)
{
    const char *spec = getenv("TOPOMAP_REORDER_TOPOLOGY");
    if (spec && *spec)
        return gm_machine_set_node_topology(m, spec, err);
    /* ro_my_core loaded it on this process (rank 0), or no core count
     * would have been reported. */
    char synth[1024];
    if (hwloc_topology_export_synthetic(topo, synth, sizeof synth, 0) > 0)
        return gm_machine_set_node_topology(m, synth, err);
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/topomap-reorder-XXXXXX.xml",
             dir && *dir ? dir : "/tmp");
    int fd = mkstemps(path, 4);
    if (fd < 0)
        return tg_error_set(err, TG_EIO, NULL, 0,
                            "cannot make a temporary file for this host's "
                            "topology: %s",
                            strerror(errno));
    close(fd);
    int rc = hwloc_topology_export_xml(topo, path, 0)
                 ? tg_error_set(err, TG_EIO, path, 0,
                                "hwloc cannot write this host's topology")
                 : gm_machine_set_node_topology(m, path, err);
    unlink(path);
    return rc;
}
