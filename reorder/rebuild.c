/* rebuild.c: step 3 of a reordering constructor (see ro_internal.h): the
 * processes split by their new ranks, and the topology made again, with
 * reorder = 0, on the split communicator.  Cartesian grids, graphs and
 * MPI_Dist_graph_create's edge lists name tasks, which are now the new
 * ranks, so the caller's arguments serve as they are.
 * MPI_Dist_graph_create_adjacent's lists are each process's own, in an
 * order its neighbourhood collectives follow: task t's lists move, order
 * kept, to the process that is now rank t.  They travel on the split
 * communicator, where no message of the application can match. */
#include <stdlib.h>
#include <string.h>

#include "ro_internal.h"

enum { H_IN, H_OUT, H_SW, H_DW, H_LEN };
#define TAG 1

/* Task t's lists, packed: sources, their weights when weighted,
 * destinations, their weights when weighted. */
static int *pack(const ro_call *c, const int *head, int *len)
{
    *len = head[H_IN] * (1 + head[H_SW]) + head[H_OUT] * (1 + head[H_DW]);
    int *buf = malloc(((size_t)*len + 1) * sizeof *buf), *p = buf;
    if (!buf)
        return NULL;
    memcpy(p, c->sources, (size_t)head[H_IN] * sizeof *p);
    p += head[H_IN];
    if (head[H_SW]) {
        memcpy(p, c->sourceweights, (size_t)head[H_IN] * sizeof *p);
        p += head[H_IN];
    }
    memcpy(p, c->destinations, (size_t)head[H_OUT] * sizeof *p);
    p += head[H_OUT];
    if (head[H_DW])
        memcpy(p, c->destweights, (size_t)head[H_OUT] * sizeof *p);
    return buf;
}

/* The weights argument for n weights at w, weighted or not. */
static const int *weights(const int *w, int n, int weighted)
{
    if (!weighted)
        return MPI_UNWEIGHTED;
    return n ? w : MPI_WEIGHTS_EMPTY;
}

/* MPI_Dist_graph_create_adjacent on split with the lists of the task that
 * is now this process's rank. */
static int adjacent(const ro_call *c, MPI_Comm split, MPI_Comm *out)
{
    int me;
    PMPI_Comm_rank(c->comm, &me);
    int head[H_LEN] = {c->indegree, c->outdegree,
                       c->sourceweights != MPI_UNWEIGHTED,
                       c->destweights != MPI_UNWEIGHTED};
    int got[H_LEN], len, rlen;
    /* Task me's lists go to the process that is now rank me of split. */
    MPI_Request req;
    MPI_Status st;
    PMPI_Isend(head, H_LEN, MPI_INT, me, TAG, split, &req);
    PMPI_Recv(got, H_LEN, MPI_INT, MPI_ANY_SOURCE, TAG, split, &st);
    PMPI_Wait(&req, MPI_STATUS_IGNORE);
    int *mine = pack(c, head, &len);
    rlen = got[H_IN] * (1 + got[H_SW]) + got[H_OUT] * (1 + got[H_DW]);
    int *lists = malloc(((size_t)rlen + 1) * sizeof *lists);
    int rc = -1;
    if (ro_agree(mine && lists, split) < 0) {
        PMPI_Isend(mine, len, MPI_INT, me, TAG, split, &req);
        PMPI_Recv(lists, rlen, MPI_INT, st.MPI_SOURCE, TAG, split,
                  MPI_STATUS_IGNORE);
        PMPI_Wait(&req, MPI_STATUS_IGNORE);
        ro_call t = *c;
        int *p = lists;
        t.indegree = got[H_IN];
        t.sources = p;
        p += got[H_IN];
        t.sourceweights = weights(p, got[H_IN], got[H_SW]);
        p += got[H_SW] ? got[H_IN] : 0;
        t.outdegree = got[H_OUT];
        t.destinations = p;
        p += got[H_OUT];
        t.destweights = weights(p, got[H_OUT], got[H_DW]);
        rc = ro_create(&t, split, out);
    }
    free(mine);
    free(lists);
    return rc;
}

int ro_rebuild(const ro_call *c, const ro_role *role, MPI_Comm *out)
{
    MPI_Comm split;
    int undefined = role->newrank == MPI_UNDEFINED;
    PMPI_Comm_split(c->comm, undefined ? MPI_UNDEFINED : 0,
                    undefined ? 0 : role->newrank, &split);
    int rc = MPI_SUCCESS;
    *out = MPI_COMM_NULL;
    if (split != MPI_COMM_NULL) {
        rc = c->kind == RO_DIST_ADJACENT ? adjacent(c, split, out)
                                         : ro_create(c, split, out);
        PMPI_Comm_free(&split);
    }
    int bad = ro_agree(rc == MPI_SUCCESS, c->comm), me;
    if (bad < 0)
        return 0;
    if (*out != MPI_COMM_NULL)
        PMPI_Comm_free(out);
    PMPI_Comm_rank(c->comm, &me);
    if (me == bad)
        ro_warn(c, "the communicator could not be rebuilt in the new "
                   "order (out of memory?)");
    return -1;
}
