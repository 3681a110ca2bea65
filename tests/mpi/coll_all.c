/* coll_all.c: every collective libcommprof intercepts, blocking and
 * nonblocking, with known bytes, for tests/commprof_coll.sh (expected
 * values, derived per call, in tests/commprof_check.py, mode coll).  Run
 * on 8 ranks.  Every nonblocking call is completed by its own MPI_Wait.
 *
 * On MPI_COMM_WORLD, rank r of n (ints are 4 B, doubles 8 B):
 *   Barrier; Ibarrier
 *   Bcast 100 B from 0; Ibcast 5 ints from 1
 *   Reduce 4 doubles to 2; Ireduce 4 ints to 3, MPI_IN_PLACE at the root
 *   Allreduce 8 doubles; Iallreduce 2 ints in place
 *   Alltoall 4 ints each; Alltoall in place, 2 ints each; Ialltoall 1 int
 *   Alltoallv i+1 ints to member i; Alltoallv in place, 1+(r+i)%2 ints;
 *     Ialltoallv (r+i)%3 ints
 *   Alltoallw 1 element to i, an int to even i, a double to odd i;
 *     Ialltoallw 2 such elements
 *   Allgather 3 ints; Iallgather in place, 2 ints
 *   Allgatherv r+1 ints; Iallgatherv in place, 2 ints
 *   Gather 5 ints to 0; Igather 1 double to 1, in place at the root
 *   Gatherv r+1 ints to 2; Igatherv 2 ints to 3
 *   Scatter 3 ints each from 0; Iscatter 1 int each from 1, in place there
 *   Scatterv i+1 ints to i from 2; Iscatterv 1 double each from 3
 *   Reduce_scatter i+1 ints to i; Ireduce_scatter in place, 1 double each
 *   Reduce_scatter_block 2 ints; Ireduce_scatter_block in place, 1 int
 *   Scan 3 ints; Iscan in place, 1 int
 *   Exscan 2 doubles; Iexscan in place, 1 int
 * On the halves from Comm_split(color r%2, key -r), members in decreasing
 * world rank: Bcast 10 B from comm rank 0; Alltoallv i+1 bytes to comm
 * rank i; Allreduce 1 int.
 * Neighbourhood collectives, all topologies over MPI_COMM_WORLD without
 * reordering, on a dims_create(n, 2) grid (4 x 2 at 8 ranks, rank =
 * 2x + y; neighbour blocks -x, +x, -y, +y):
 *   periodic grid: Neighbor_allgather 3 ints; Neighbor_alltoall 1 int;
 *     Neighbor_alltoallv 1, 2, 3, 3 ints; Ineighbor_alltoallw 1 int,
 *     2 ints, 1 double, 1 double
 *   grid periodic in y only (MPI_PROC_NULL at the x ends):
 *     Ineighbor_allgather 1 double; Neighbor_allgatherv 1 int
 *   graph, neighbours r-1, r+1, r+n/2: Neighbor_alltoall 1 double;
 *     Ineighbor_allgatherv 2 ints
 *   dist-graph (weighted), sources r-1, r-3, destinations r+1, r+3:
 *     Neighbor_alltoallw 1 int, 2 ints; Ineighbor_alltoall 1 int;
 *     Ineighbor_alltoallv 2 ints, 1 int
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 64
static int sa[MAXN * 8], ra[MAXN * 8];
static double da[MAXN * 8], db[MAXN * 8];

static void wait(MPI_Request *q)
{
    MPI_Wait(q, MPI_STATUS_IGNORE);
}

/* Counts and displacements of n blocks: `each` elements per block, or
 * i+1 in block i when `each` is 0. */
static void blocks(int n, int *count, int *displ, int each)
{
    for (int i = 0; i < n; i++) {
        count[i] = each ? each : i + 1;
        displ[i] = i ? displ[i - 1] + count[i - 1] : 0;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n > MAXN || n < 6) {
        if (r == 0)
            fprintf(stderr, "coll_all: run on 6 to %d ranks\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request q;
    int c[MAXN], d[MAXN], c2[MAXN], d2[MAXN];
    MPI_Datatype ty[MAXN], ty2[MAXN];

    MPI_Barrier(w);
    MPI_Ibarrier(w, &q);
    wait(&q);

    MPI_Bcast(sa, 100, MPI_BYTE, 0, w);
    MPI_Ibcast(sa, 5, MPI_INT, 1, w, &q);
    wait(&q);

    MPI_Reduce(da, db, 4, MPI_DOUBLE, MPI_SUM, 2, w);
    MPI_Ireduce(r == 3 ? MPI_IN_PLACE : sa, ra, 4, MPI_INT, MPI_SUM, 3, w, &q);
    wait(&q);

    MPI_Allreduce(da, db, 8, MPI_DOUBLE, MPI_SUM, w);
    MPI_Iallreduce(MPI_IN_PLACE, ra, 2, MPI_INT, MPI_SUM, w, &q);
    wait(&q);

    MPI_Alltoall(sa, 4, MPI_INT, ra, 4, MPI_INT, w);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra, 2, MPI_INT, w);
    MPI_Ialltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, w, &q);
    wait(&q);

    blocks(n, c, d, 0);
    blocks(n, c2, d2, r + 1);
    MPI_Alltoallv(sa, c, d, MPI_INT, ra, c2, d2, MPI_INT, w);
    for (int i = 0; i < n; i++) {
        c2[i] = 1 + (r + i) % 2;
        d2[i] = 2 * i;
    }
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, ra, c2, d2,
                  MPI_INT, w);
    for (int i = 0; i < n; i++) {
        c[i] = (r + i) % 3;
        d[i] = 3 * i;
    }
    MPI_Ialltoallv(sa, c, d, MPI_INT, ra, c, d, MPI_INT, w, &q);
    wait(&q);

    for (int i = 0; i < n; i++) {
        c[i] = 1;
        d[i] = 16 * i;
        ty[i] = i % 2 ? MPI_DOUBLE : MPI_INT;
        ty2[i] = r % 2 ? MPI_DOUBLE : MPI_INT; /* what member i sends r */
    }
    MPI_Alltoallw(da, c, d, ty, db, c, d, ty2, w);
    for (int i = 0; i < n; i++)
        c[i] = 2;
    MPI_Ialltoallw(da, c, d, ty, db, c, d, ty2, w, &q);
    wait(&q);

    MPI_Allgather(sa, 3, MPI_INT, ra, 3, MPI_INT, w);
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra, 2, MPI_INT, w, &q);
    wait(&q);

    blocks(n, c, d, 0);
    blocks(n, c2, d2, 2);
    MPI_Allgatherv(sa, r + 1, MPI_INT, ra, c, d, MPI_INT, w);
    MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ra, c2, d2, MPI_INT, w,
                    &q);
    wait(&q);

    MPI_Gather(sa, 5, MPI_INT, ra, 5, MPI_INT, 0, w);
    if (r == 1)
        MPI_Igather(MPI_IN_PLACE, 1, MPI_DOUBLE, db, 1, MPI_DOUBLE, 1, w, &q);
    else
        MPI_Igather(da, 1, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, 1, w, &q);
    wait(&q);

    MPI_Gatherv(sa, r + 1, MPI_INT, ra, c, d, MPI_INT, 2, w);
    MPI_Igatherv(sa, 2, MPI_INT, ra, c2, d2, MPI_INT, 3, w, &q);
    wait(&q);

    MPI_Scatter(sa, 3, MPI_INT, ra, 3, MPI_INT, 0, w);
    if (r == 1)
        MPI_Iscatter(sa, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 1, w, &q);
    else
        MPI_Iscatter(NULL, 0, MPI_INT, ra, 1, MPI_INT, 1, w, &q);
    wait(&q);

    MPI_Scatterv(sa, c, d, MPI_INT, ra, r + 1, MPI_INT, 2, w);
    blocks(n, c2, d2, 1);
    MPI_Iscatterv(da, c2, d2, MPI_DOUBLE, db, 1, MPI_DOUBLE, 3, w, &q);
    wait(&q);

    MPI_Reduce_scatter(sa, ra, c, MPI_INT, MPI_SUM, w);
    MPI_Ireduce_scatter(MPI_IN_PLACE, db, c2, MPI_DOUBLE, MPI_SUM, w, &q);
    wait(&q);

    MPI_Reduce_scatter_block(sa, ra, 2, MPI_INT, MPI_SUM, w);
    MPI_Ireduce_scatter_block(MPI_IN_PLACE, ra, 1, MPI_INT, MPI_SUM, w, &q);
    wait(&q);

    MPI_Scan(sa, ra, 3, MPI_INT, MPI_SUM, w);
    MPI_Iscan(MPI_IN_PLACE, ra, 1, MPI_INT, MPI_SUM, w, &q);
    wait(&q);

    MPI_Exscan(da, db, 2, MPI_DOUBLE, MPI_SUM, w);
    MPI_Iexscan(MPI_IN_PLACE, ra, 1, MPI_INT, MPI_SUM, w, &q);
    wait(&q);

    /* The halves, in decreasing world rank. */
    MPI_Comm half;
    int hs, hr;
    MPI_Comm_split(w, r % 2, -r, &half);
    MPI_Comm_size(half, &hs);
    MPI_Comm_rank(half, &hr);
    MPI_Bcast(sa, 10, MPI_BYTE, 0, half);
    blocks(hs, c, d, 0);
    blocks(hs, c2, d2, hr + 1);
    MPI_Alltoallv(sa, c, d, MPI_BYTE, ra, c2, d2, MPI_BYTE, half);
    MPI_Allreduce(sa, ra, 1, MPI_INT, MPI_SUM, half);
    MPI_Comm_free(&half);

    /* Neighbourhoods. */
    int dims[2] = {0, 0}, periodic[2] = {1, 1}, ends[2] = {0, 1};
    MPI_Dims_create(n, 2, dims);
    MPI_Comm cart, open, graph, dist;
    MPI_Cart_create(w, 2, dims, periodic, 0, &cart);
    MPI_Cart_create(w, 2, dims, ends, 0, &open);
    int index[MAXN], edges[3 * MAXN];
    for (int i = 0; i < n; i++) {
        index[i] = 3 * (i + 1);
        edges[3 * i] = (i + n - 1) % n;
        edges[3 * i + 1] = (i + 1) % n;
        edges[3 * i + 2] = (i + n / 2) % n;
    }
    MPI_Graph_create(w, n, index, edges, 0, &graph);
    int src[2] = {(r + n - 1) % n, (r + n - 3) % n};
    int dst[2] = {(r + 1) % n, (r + 3) % n}, weight[2] = {1, 1};
    MPI_Dist_graph_create_adjacent(w, 2, src, weight, 2, dst, weight,
                                   MPI_INFO_NULL, 0, &dist);
    int k[4];
    MPI_Aint ad[4], ad2[4];

    MPI_Neighbor_allgather(sa, 3, MPI_INT, ra, 3, MPI_INT, cart);
    MPI_Neighbor_alltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, cart);
    int vs[4] = {1, 2, 3, 3}, vr[4] = {2, 1, 3, 3}, vd[4] = {0, 8, 16, 24};
    MPI_Neighbor_alltoallv(sa, vs, vd, MPI_INT, ra, vr, vd, MPI_INT, cart);
    int ws[4] = {1, 2, 1, 1}, wr[4] = {2, 1, 1, 1};
    MPI_Datatype wt[4] = {MPI_INT, MPI_INT, MPI_DOUBLE, MPI_DOUBLE};
    for (int j = 0; j < 4; j++)
        ad[j] = 16 * j;
    MPI_Ineighbor_alltoallw(da, ws, ad, wt, db, wr, ad, wt, cart, &q);
    wait(&q);

    MPI_Ineighbor_allgather(da, 1, MPI_DOUBLE, db, 1, MPI_DOUBLE, open, &q);
    wait(&q);
    for (int j = 0; j < 4; j++) {
        k[j] = 1;
        d[j] = j;
    }
    MPI_Neighbor_allgatherv(sa, 1, MPI_INT, ra, k, d, MPI_INT, open);

    MPI_Neighbor_alltoall(da, 1, MPI_DOUBLE, db, 1, MPI_DOUBLE, graph);
    for (int j = 0; j < 3; j++) {
        k[j] = 2;
        d[j] = 2 * j;
    }
    MPI_Ineighbor_allgatherv(sa, 2, MPI_INT, ra, k, d, MPI_INT, graph, &q);
    wait(&q);

    int ds[2] = {1, 2};
    MPI_Datatype dt[2] = {MPI_INT, MPI_INT};
    ad2[0] = 0;
    ad2[1] = 16;
    MPI_Neighbor_alltoallw(sa, ds, ad2, dt, ra, ds, ad2, dt, dist);
    MPI_Ineighbor_alltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, dist, &q);
    wait(&q);
    int dv[2] = {2, 1}, dd[2] = {0, 4};
    MPI_Ineighbor_alltoallv(sa, dv, dd, MPI_INT, ra, dv, dd, MPI_INT, dist, &q);
    wait(&q);

    MPI_Comm_free(&cart);
    MPI_Comm_free(&open);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&dist);
    MPI_Finalize();
    return 0;
}
