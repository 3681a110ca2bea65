/* share.c: one machine and one graph on every rank, and agreement on
 * errors.
 *
 * Rank 0 alone reads the graph and the hostfile, or turns the discovered
 * hosts into nodes, and sends the nodes (names and slots) and the graph's
 * arrays to the others.  Every rank then places the nodes on --network and
 * --node-topology itself, so the files these name must be readable on
 * every host (they are small; the graph may be large and is read once).
 * In a job without --node-topology or --no-levels, rank 0 also sends the
 * levels of every host's usable cores (discover.c), which every rank
 * gives its node (gm_machine_set_node_levels). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

int pm_agree(MPI_Comm comm, int rc, const tg_error *err)
{
    int rank, rc0 = rc, all;
    MPI_Comm_rank(comm, &rank);
    MPI_Bcast(&rc0, 1, MPI_INT, 0, comm);
    if (rc && err && (rank == 0 || !rc0)) {
        char buf[1200];
        tg_error_format(err, buf, sizeof buf);
        if (rank == 0)
            fprintf(stderr, "parmapper: %s\n", buf);
        else
            fprintf(stderr, "parmapper: rank %d: %s\n", rank, buf);
    }
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, comm);
    return all;
}

/* MPI_Bcast of count elements of `size` bytes, in pieces that fit an
 * int count. */
static void bcast_big(void *buf, int64_t count, size_t size, MPI_Comm comm)
{
    const int64_t piece = (INT_MAX / 8) / (int64_t)size;
    for (int64_t at = 0; at < count; at += piece) {
        int64_t k = count - at < piece ? count - at : piece;
        MPI_Bcast((char *)buf + (size_t)at * size, (int)(k * (int64_t)size),
                  MPI_BYTE, 0, comm);
    }
}

/* ------------------------------------------------------------- machine */

/* The nodes as rank 0 sends them: names one after the other with their
 * NULs, and slots. */
typedef struct nodes_desc {
    int n;
    int64_t namelen;
    char *names;
    int *slots;
    /* The in-job levels, node after node: cores, tasks per core, NUMA
     * nodes, the cores' groups (GM_NODE_LEVELS each), the NUMA costs;
     * levlen 0: none. */
    int64_t levlen;
    int *lev;
} nodes_desc;

static int desc_alloc(nodes_desc *d, tg_error *err)
{
    d->names = malloc((size_t)d->namelen + 1);
    d->slots = malloc(((size_t)d->n + 1) * sizeof *d->slots);
    d->lev = malloc(((size_t)d->levlen + 1) * sizeof *d->lev);
    if (!d->names || !d->slots || !d->lev)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    return 0;
}

/* Rank 0: the hosts' levels into d->lev (allocated by desc_alloc). */
static void levels_pack(const pm_hosts *hosts, nodes_desc *d)
{
    int *at = d->lev;
    for (int i = 0; i < hosts->n; i++) {
        const pm_host *h = &hosts->h[i];
        *at++ = h->nusable;
        *at++ = h->tasks_per_slot;
        *at++ = h->nnuma;
        memcpy(at, h->groups,
               (size_t)h->nusable * GM_NODE_LEVELS * sizeof *at);
        at += (size_t)h->nusable * GM_NODE_LEVELS;
        for (int k = 0; k < h->nnuma * h->nnuma; k++)
            *at++ = (int)h->numa_cost[k]; /* from ints (discover.c) */
    }
}

/* Every rank: node i gets the levels of d->lev. */
static int levels_set(gm_machine *m, const nodes_desc *d, tg_error *err)
{
    const int *at = d->lev;
    for (int i = 0; d->levlen && i < d->n; i++) {
        int ncores = at[0], per = at[1], nnuma = at[2];
        const int *groups = at + 3;
        const int *cost = groups + (size_t)ncores * GM_NODE_LEVELS;
        uint64_t *c = malloc(((size_t)nnuma * nnuma + 1) * sizeof *c);
        if (!c)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        for (int k = 0; k < nnuma * nnuma; k++)
            c[k] = (uint64_t)cost[k];
        int rc = gm_machine_set_node_levels(m, i, groups, ncores, per, nnuma,
                                            nnuma ? c : NULL, err);
        free(c);
        if (rc)
            return rc;
        at = cost + (size_t)nnuma * nnuma;
    }
    return 0;
}

/* Rank 0: the nodes of the options (offline: each node's slots x
 * --tasks-per-slot, when given) or of the hosts (each host's usable cores
 * x its tasks per slot, pm_hosts_tasks_per_slot).  Returns an exit code
 * (printed). */
static int desc_make(const pm_options *o, const pm_hosts *hosts,
                     nodes_desc *d)
{
    tg_error err;
    gm_machine *m0 = NULL;
    if (o->offline) {
        int rc = cmd_machine(&o->a, &m0);
        if (rc)
            return rc;
        d->n = gm_machine_nodes(m0);
    } else {
        d->n = hosts->n;
    }
    for (int i = 0; i < d->n; i++)
        d->namelen += (int64_t)strlen(m0 ? gm_machine_hostname(m0, i)
                                         : hosts->h[i].name) + 1;
    int levels = !o->offline && !o->no_levels && !o->a.node_topology;
    for (int i = 0; levels && i < d->n; i++)
        d->levlen += 3 + (int64_t)hosts->h[i].nusable * GM_NODE_LEVELS +
                     (int64_t)hosts->h[i].nnuma * hosts->h[i].nnuma;
    int rc = desc_alloc(d, &err);
    if (!rc && levels)
        levels_pack(hosts, d);
    int64_t at = 0;
    for (int i = 0; i < d->n && !rc; i++) {
        const char *name = m0 ? gm_machine_hostname(m0, i) : hosts->h[i].name;
        int64_t slots = m0 ? gm_machine_slots(m0, i) : hosts->h[i].nusable;
        int per = m0 ? (o->tasks_per_slot ? o->tasks_per_slot : 1)
                     : hosts->h[i].tasks_per_slot;
        slots *= per;
        if (slots > INT_MAX)
            rc = tg_error_set(&err, TG_EOVERFLOW, NULL, 0,
                              "%s: %lld slots x %d tasks per slot do not "
                              "fit in an int",
                              name, (long long)(slots / per), per);
        strcpy(d->names + at, name);
        at += (int64_t)strlen(name) + 1;
        d->slots[i] = (int)slots;
    }
    gm_machine_free(m0);
    return rc ? cli_fail(&err) : 0;
}

/* Every rank: the machine of d, placed on the network and node topology
 * of the options.  The exit code; the error in err, `opt` names the
 * option whose text was wrong (a usage error) when the message is about
 * it. */
static int build(const pm_options *o, const nodes_desc *d, gm_machine **out,
                 tg_error *err, const char **opt)
{
    *opt = NULL;
    gm_machine *m = gm_machine_new();
    if (!m) {
        tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        return 1;
    }
    const char *name = d->names;
    for (int i = 0; i < d->n; i++) {
        if (gm_machine_add_node(m, name, d->slots[i], err) < 0) {
            gm_machine_free(m);
            return 1;
        }
        name += strlen(name) + 1;
    }
    gm_network *net = NULL;
    if (o->a.network && gm_network_parse(o->a.network, &net, err)) {
        *opt = "--network";
        gm_machine_free(m);
        return err->source[0] ? 1 : 2;
    }
    if ((net && gm_machine_set_network(m, net, o->a.positions, err)) ||
        (o->a.node_topology &&
         gm_machine_set_node_topology(m, o->a.node_topology, err)) ||
        levels_set(m, d, err)) {
        gm_machine_free(m);
        return 1;
    }
    *out = m;
    return 0;
}

int pm_share_machine(MPI_Comm comm, const pm_options *o,
                     const pm_hosts *hosts, gm_machine **out)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    nodes_desc d = {0, 0, NULL, NULL, 0, NULL};
    tg_error err;
    int rc = rank == 0 ? desc_make(o, hosts, &d) : 0;
    if ((rc = pm_agree(comm, rc, NULL)))
        goto done;
    MPI_Bcast(&d.n, 1, MPI_INT, 0, comm);
    MPI_Bcast(&d.namelen, 1, MPI_INT64_T, 0, comm);
    MPI_Bcast(&d.levlen, 1, MPI_INT64_T, 0, comm);
    rc = rank == 0 ? 0 : desc_alloc(&d, &err) ? 1 : 0;
    if ((rc = pm_agree(comm, rc, &err)))
        goto done;
    bcast_big(d.names, d.namelen, 1, comm);
    bcast_big(d.slots, d.n, sizeof *d.slots, comm);
    bcast_big(d.lev, d.levlen, sizeof *d.lev, comm);
    const char *opt;
    rc = build(o, &d, out, &err, &opt);
    if (rc && rank == 0) {
        /* The message the greedymap command would give. */
        if (opt)
            cmd_option_fail(opt, &err);
        else
            cli_fail(&err);
    }
    rc = pm_agree(comm, rc, rank ? &err : NULL);
done:
    free(d.names);
    free(d.slots);
    free(d.lev);
    return rc;
}

/* --------------------------------------------------------------- graph */

int pm_share_graph(MPI_Comm comm, const pm_options *o, const gm_machine *m,
                   tg_graph **out)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    tg_graph *g = NULL;
    tg_error err;
    int rc = rank == 0 ? cmd_graph(&o->a, o->a.pos[0], m, &g) : 0;
    if ((rc = pm_agree(comm, rc, NULL)))
        return rc;
    int n = rank == 0 ? g->n : 0;
    int64_t arcs = rank == 0 ? g->xadj[g->n] : 0;
    MPI_Bcast(&n, 1, MPI_INT, 0, comm);
    MPI_Bcast(&arcs, 1, MPI_INT64_T, 0, comm);
    if (rank != 0 && !(g = tg_graph_alloc(n, arcs)))
        rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory") ? 1 : 0;
    if ((rc = pm_agree(comm, rc, &err))) {
        tg_graph_free(g);
        return rc;
    }
    bcast_big(g->xadj, (int64_t)n + 1, sizeof *g->xadj, comm);
    bcast_big(g->adjncy, arcs, sizeof *g->adjncy, comm);
    bcast_big(g->adjwgt, arcs, sizeof *g->adjwgt, comm);
    /* The grid too: every rank builds the same portfolio from it
     * (gm_portfolio adds decompose when there is one). */
    int head[1 + 2 * TG_GRID_MAXDIMS + 1] = {0};
    if (rank == 0) {
        head[0] = g->grid.ndims;
        memcpy(head + 1, g->grid.dims, sizeof g->grid.dims);
        memcpy(head + 1 + TG_GRID_MAXDIMS, g->grid.periods,
               sizeof g->grid.periods);
        head[2 * TG_GRID_MAXDIMS + 1] = g->grid.task != NULL;
    }
    MPI_Bcast(head, 2 * TG_GRID_MAXDIMS + 2, MPI_INT, 0, comm);
    int *task = NULL;
    if (head[0] && head[2 * TG_GRID_MAXDIMS + 1]) {
        task = rank == 0 ? g->grid.task : malloc((size_t)n * sizeof *task);
        rc = task ? 0 : 1;
        if ((rc = pm_agree(comm, rc, NULL))) {
            tg_graph_free(g);
            return rc;
        }
        bcast_big(task, n, sizeof *task, comm);
    }
    if (rank != 0 && head[0]) {
        rc = tg_graph_set_grid(g, head[0], head + 1,
                               head + 1 + TG_GRID_MAXDIMS, task, &err)
                 ? 1
                 : 0;
        free(task);
    }
    if ((rc = pm_agree(comm, rc, &err))) {
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}
