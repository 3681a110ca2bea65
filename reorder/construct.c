/* construct.c: the flow of one intercepted constructor call (see
 * ro_internal.h): MPI's own constructor first, then, with reorder = 1,
 * the plan and the rebuilt communicator. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ro_internal.h"

const char *ro_call_name(ro_kind kind)
{
    static const char *const names[] = {
        [RO_CART] = "MPI_Cart_create",
        [RO_GRAPH] = "MPI_Graph_create",
        [RO_DIST_ADJACENT] = "MPI_Dist_graph_create_adjacent",
        [RO_DIST] = "MPI_Dist_graph_create",
    };
    return names[kind];
}

int ro_create(const ro_call *c, MPI_Comm comm, MPI_Comm *out)
{
    /* MPI's prototypes take non-const arrays in older versions; Open MPI
     * 4.1 declares them const. */
    switch (c->kind) {
    case RO_CART:
        return PMPI_Cart_create(comm, c->ndims, c->dims, c->periods, 0, out);
    case RO_GRAPH:
        return PMPI_Graph_create(comm, c->nnodes, c->index, c->edges, 0,
                                 out);
    case RO_DIST_ADJACENT:
        return PMPI_Dist_graph_create_adjacent(
            comm, c->indegree, c->sources, c->sourceweights, c->outdegree,
            c->destinations, c->destweights, c->info, 0, out);
    case RO_DIST:
        return PMPI_Dist_graph_create(comm, c->n, c->sources, c->degrees,
                                      c->destinations, c->weights, c->info,
                                      0, out);
    }
    return MPI_ERR_INTERN;
}

/* Each kind of warning has its own "first time": a report that cannot be
 * written must not hide a later failure that keeps MPI's order. */
static void warn_once(int *warned, const ro_call *c, const char *why,
                      const char *then)
{
    if (*warned)
        return;
    *warned = 1;
    fprintf(stderr, "libtopomap-reorder: %s: %s; %s\n",
            ro_call_name(c->kind), why, then);
}

void ro_warn(const ro_call *c, const char *why)
{
    static int warned;
    warn_once(&warned, c, why,
              "this and later topology communicators may keep MPI's rank "
              "order");
}

void ro_warn_report(const ro_call *c, const char *why)
{
    static int warned;
    warn_once(&warned, c, why,
              "the mapping is applied all the same; the report lacks this "
              "call's line (and may lack later ones, unwarned)");
}

int ro_agree(int ok, MPI_Comm comm)
{
    int rank, bad;
    PMPI_Comm_rank(comm, &rank);
    int mine = ok ? INT_MAX : rank;
    PMPI_Allreduce(&mine, &bad, 1, MPI_INT, MPI_MIN, comm);
    return bad == INT_MAX ? -1 : bad;
}

/* TOPOMAP_REORDER=0 turns the library off; anything else (or unset)
 * leaves it on. */
static int enabled(void)
{
    const char *e = getenv("TOPOMAP_REORDER");
    return !(e && strcmp(e, "0") == 0);
}

int ro_construct(const ro_call *c, int reorder, MPI_Comm *out)
{
    int rc = ro_create(c, c->comm, out);
    if (rc != MPI_SUCCESS || !reorder || !enabled())
        return rc;
    int size;
    PMPI_Comm_size(c->comm, &size);
    if (size < 2)
        return rc;
    double t0 = PMPI_Wtime();
    ro_role role;
    MPI_Comm moved;
    if (ro_plan(c, *out, t0, &role) != RO_MOVE ||
        ro_rebuild(c, &role, &moved) != 0)
        return rc;
    if (*out != MPI_COMM_NULL)
        PMPI_Comm_free(out);
    *out = moved;
    return MPI_SUCCESS;
}
