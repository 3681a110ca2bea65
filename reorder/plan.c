/* plan.c: step 2 of a reordering constructor (see ro_internal.h).  Every
 * process sends rank 0 its host and, for dist graphs, its out-edges; rank
 * 0 maps the tasks, writes the report and scatters each process's role.
 * The collectives run on every process whatever fails: a failure is
 * agreed on (ro_agree, or rank 0's MPI_Bcast) before any collective
 * that would need the failed buffer. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ro_internal.h"

_Static_assert(sizeof(ro_role) == sizeof(int),
               "ro_role is scattered as one int");
_Static_assert(sizeof(ro_core) == 4 * sizeof(int),
               "ro_core is gathered as 4 ints");

/* What rank 0 has gathered. */
typedef struct gathered {
    const char *names;  /* MPI_MAX_PROCESSOR_NAME chars per process */
    const ro_core *cores; /* one per process */
    int nprocs;
    const int *npairs;  /* dist graphs: out-edges per process */
    const int *pairs;   /* (dst, weight) pairs, process by process */
} gathered;

static int task_graph(const ro_call *c, const gathered *in, tg_graph **g,
                      tg_error *err)
{
    switch (c->kind) {
    case RO_CART:
        return ro_cart_graph(c, g, err);
    case RO_GRAPH:
        return ro_graph_graph(c, g, err);
    default:
        return ro_dist_graph(in->nprocs, in->npairs, in->pairs, g, err);
    }
}

/* The machine of the layout: one node per host with its processes as
 * slots, on a flat network or TOPOMAP_REORDER_NETWORK (a greedymap
 * network spec; node i at position i); with *cores, the hosts' topology
 * inside every node, or, when greedymap refuses it, a warning and none
 * (*cores = 0: the slots renumbered by core are still the hosts'). */
static int machine(const ro_call *c, const ro_layout *l, int *cores,
                   gm_machine **out, tg_error *err)
{
    gm_machine *m = gm_machine_new();
    if (!m)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = 0;
    for (int h = 0; h < l->nhosts && rc >= 0; h++)
        rc = gm_machine_add_node(m, l->host[h], l->slots[h], err);
    const char *net = getenv("TOPOMAP_REORDER_NETWORK");
    if (rc >= 0 && net && *net)
        rc = gm_machine_set_network_spec(m, net, NULL, err);
    tg_error terr = {0};
    if (rc >= 0 && *cores && ro_set_node_topology(m, &terr)) {
        char msg[512], why[600];
        tg_error_format(&terr, msg, sizeof msg);
        snprintf(why, sizeof why, "no levels inside hosts: %s", msg);
        ro_warn(c, why);
        *cores = 0;
    }
    if (rc < 0) {
        gm_machine_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

/* Rank 0: map, report, and fill role[] (one per process).  Returns
 * RO_MOVE, RO_KEEP, or RO_FAIL with why filled. */
static int decide(const ro_call *c, const gathered *in, double t0,
                  ro_role *role, char *why, size_t size)
{
    ro_layout l;
    tg_graph *g = NULL;
    gm_machine *m = NULL;
    gm_place *ident = NULL, *map = NULL;
    int *perm = NULL, status = RO_FAIL;
    tg_error err = {0};
    if (ro_layout_make(in->names, in->nprocs, &l)) {
        snprintf(why, size, "out of memory");
        return RO_FAIL;
    }
    if (ro_check_given_cores(&l, in->cores, c->comm, &err))
        goto fail;
    int cores = ro_layout_cores(&l, in->cores);
    if (cores < 0) {
        tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    if (task_graph(c, in, &g, &err) || machine(c, &l, &cores, &m, &err))
        goto fail;
    int n = g->n;
    ident = malloc(((size_t)n + 1) * sizeof *ident);
    map = malloc(((size_t)n + 1) * sizeof *map);
    perm = malloc(((size_t)n + 1) * sizeof *perm);
    if (!ident || !map || !perm) {
        tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    for (int t = 0; t < n; t++)
        ident[t] = (gm_place){l.proc_host[t], l.proc_slot[t]};
    const char *mapper;
    gm_metrics before, after;
    if (ro_choose_mapping(g, m, ident, map, &mapper, &err) ||
        gm_evaluate(g, m, ident, GM_METRICS_NO_LOAD, NULL, &before, &err) ||
        gm_evaluate(g, m, map, GM_METRICS_NO_LOAD, NULL, &after, &err))
        goto fail;
    gm_level_metrics lv_before, lv_after;
    if (cores && (gm_evaluate_levels(g, m, ident, &lv_before, &err) ||
                  gm_evaluate_levels(g, m, map, &lv_after, &err)))
        goto fail;
    status = strcmp(mapper, "identity") ? RO_MOVE : RO_KEEP;
    for (int p = 0; p < in->nprocs; p++)
        role[p].newrank = MPI_UNDEFINED;
    for (int t = 0; t < n; t++) {
        perm[t] = l.proc[l.first[map[t].node] + map[t].slot];
        role[perm[t]].newrank = t;
    }
    const char *path = getenv("TOPOMAP_REORDER_REPORT");
    if (path && *path) {
        ro_report r = {c,
                       &l,
                       n,
                       perm,
                       mapper,
                       &before,
                       &after,
                       cores ? gm_machine_node_topology(m) : NULL,
                       cores ? &lv_before : NULL,
                       cores ? &lv_after : NULL,
                       PMPI_Wtime() - t0,
                       status == RO_MOVE};
        char rwhy[600];
        if (ro_report_write(path, &r, rwhy, sizeof rwhy))
            ro_warn_report(c, rwhy);
    }
    goto done;
fail:
    tg_error_format(&err, why, size);
    status = RO_FAIL;
done:
    free(ident);
    free(map);
    free(perm);
    gm_machine_free(m);
    tg_graph_free(g);
    ro_layout_free(&l);
    return status;
}

int ro_plan(const ro_call *c, MPI_Comm first, double t0, ro_role *role)
{
    MPI_Comm comm = c->comm;
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int dist = c->kind == RO_DIST || c->kind == RO_DIST_ADJACENT;
    char why[600] = "out of memory", name[MPI_MAX_PROCESSOR_NAME];
    int *pairs = NULL, npairs = 0, *allpairs = NULL;
    char *names = NULL;
    ro_core core, *cores = NULL;
    int *counts = NULL, *lens = NULL, *displs = NULL;
    ro_role *roles = NULL;
    int status = RO_FAIL;

    int ok = ro_my_host(name, why, sizeof why) == 0 &&
             ro_my_core(&core, why, sizeof why) == 0;
    if (ok && dist && ro_dist_edges(first, &pairs, &npairs))
        ok = 0, snprintf(why, sizeof why, "out of memory");
    if (ok && rank == 0) {
        names = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
        cores = malloc((size_t)size * sizeof *cores);
        counts = malloc((size_t)size * sizeof *counts);
        lens = malloc((size_t)size * sizeof *lens);
        displs = malloc((size_t)size * sizeof *displs);
        roles = malloc((size_t)size * sizeof *roles);
        if (!names || !cores || !counts || !lens || !displs || !roles)
            ok = 0, snprintf(why, sizeof why, "out of memory");
    }
    int bad = ro_agree(ok, comm);
    if (bad >= 0) {
        ok = bad != rank; /* the lowest failing rank warns */
        goto out;
    }
    PMPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names,
                MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm);
    PMPI_Gather(&core, 4, MPI_INT, cores, 4, MPI_INT, 0, comm);
    if (dist) {
        PMPI_Gather(&npairs, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
        if (rank == 0) {
            size_t total = 0;
            for (int p = 0; p < size; p++) {
                lens[p] = 2 * counts[p];
                displs[p] = (int)total;
                total += (size_t)lens[p];
            }
            /* MPI_Gatherv's displacements are ints. */
            if (total > INT_MAX)
                snprintf(why, sizeof why, "%zu edges are more than one "
                         "gather holds", total / 2);
            else
                allpairs = malloc((total + 1) * sizeof *allpairs);
            ok = allpairs != NULL;
        }
        PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
        if (!ok) {
            ok = rank != 0; /* rank 0 warns */
            goto out;
        }
        PMPI_Gatherv(pairs, 2 * npairs, MPI_INT, allpairs, lens, displs,
                     MPI_INT, 0, comm);
    }
    if (rank == 0) {
        gathered in = {names, cores, size, counts, allpairs};
        status = decide(c, &in, t0, roles, why, sizeof why);
        ok = status != RO_FAIL;
    }
    PMPI_Bcast(&status, 1, MPI_INT, 0, comm);
    if (status == RO_MOVE)
        PMPI_Scatter(roles, 1, MPI_INT, role, 1, MPI_INT, 0, comm);
out:
    if (!ok)
        ro_warn(c, why);
    free(pairs);
    free(allpairs);
    free(names);
    free(cores);
    free(counts);
    free(lens);
    free(displs);
    free(roles);
    return status;
}
