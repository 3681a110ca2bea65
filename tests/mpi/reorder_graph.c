/* reorder_graph.c: the graph constructors under libtopomap-reorder.
 *
 *   reorder_graph HOSTS KIND WEIGHTED
 *
 * on 8 ranks.  The graph is the Wagner graph: task i talks to i-1, i+1
 * (a ring) and i+4 (a chord), with bytes 1, 1 and 100 when WEIGHTED is 1,
 * unweighted (MPI_UNWEIGHTED; 1 byte each) when 0.  KIND: adjacent
 * (MPI_Dist_graph_create_adjacent, each rank its own lists), general
 * (MPI_Dist_graph_create, each rank its own out-edges) or graph
 * (MPI_Graph_create, unweighted).  Checks on every rank of the result:
 * its kind; its neighbours are task r's (in the given order for adjacent
 * and graph, as a set for general) with their weights; a neighbourhood
 * alltoall delivers each source's rank in the order Dist_graph_neighbors
 * says; one order all ranks agree on.  Rank 0 prints
 *   identity X result Y
 *   map W0 W1 ..
 * X and Y: bytes between ranks on two hosts in MPI's order and in the
 * returned one.  Exit 1 when a check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reorder_check.h"

#define N 8
#define DEG 3

static void lists(int t, int *nbr, int *w)
{
    nbr[0] = (t + N - 1) % N;
    nbr[1] = (t + 1) % N;
    nbr[2] = (t + 4) % N;
    w[0] = w[1] = 1;
    w[2] = 100;
}

static int contains(const int *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, me;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int host[N];
    if (argc != 4 || size != N || rc_hosts(argv[1], N, host)) {
        if (me == 0)
            fprintf(stderr, "usage: mpirun -np 8 reorder_graph HOSTS "
                            "adjacent|general|graph 0|1\n");
        MPI_Finalize();
        return 2;
    }
    const char *kind = argv[2];
    int weighted = atoi(argv[3]);
    int nbr[DEG], w[DEG];
    lists(me, nbr, w);
    const int *wts = weighted ? w : MPI_UNWEIGHTED;
    MPI_Comm g;
    if (!strcmp(kind, "adjacent")) {
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, DEG, nbr, wts, DEG,
                                       nbr, wts, MPI_INFO_NULL, 1, &g);
    } else if (!strcmp(kind, "general")) {
        int one = DEG;
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &one, nbr, wts,
                              MPI_INFO_NULL, 1, &g);
    } else {
        int index[N], edges[N * DEG];
        for (int t = 0; t < N; t++) {
            index[t] = (t + 1) * DEG;
            lists(t, edges + t * DEG, w);
        }
        weighted = 0;
        lists(me, nbr, w);
        MPI_Graph_create(MPI_COMM_WORLD, N, index, edges, 1, &g);
    }
    int r, topo;
    MPI_Comm_rank(g, &r);
    MPI_Topo_test(g, &topo);
    int want[DEG], ww[DEG];
    lists(r, want, ww);
    int src[DEG], sw[DEG], dst[DEG], dw[DEG], got[DEG];
    if (!strcmp(kind, "graph")) {
        int nn;
        rc_expect(topo == MPI_GRAPH, "MPI_GRAPH", topo, MPI_GRAPH);
        MPI_Graph_neighbors_count(g, r, &nn);
        rc_expect(nn == DEG, "Graph_neighbors_count", nn, DEG);
        MPI_Graph_neighbors(g, r, DEG, dst);
        memcpy(src, dst, sizeof src);
        for (int i = 0; i < DEG; i++)
            rc_expect(dst[i] == want[i], "Graph_neighbors in order", dst[i],
                      want[i]);
    } else {
        int in, out, isw;
        rc_expect(topo == MPI_DIST_GRAPH, "MPI_DIST_GRAPH", topo,
                  MPI_DIST_GRAPH);
        MPI_Dist_graph_neighbors_count(g, &in, &out, &isw);
        rc_expect(in == DEG && out == DEG && isw == weighted,
                  "Dist_graph_neighbors_count", in * 10 + out, isw);
        MPI_Dist_graph_neighbors(g, DEG, src, sw, DEG, dst, dw);
        int ordered = !strcmp(kind, "adjacent");
        for (int i = 0; i < DEG; i++) {
            /* general: any order, each neighbour with its weight. */
            int j = i;
            if (!ordered)
                for (j = 0; j < DEG && want[j] != src[i]; j++)
                    ;
            rc_expect(j < DEG && src[i] == want[j], "source", src[i], i);
            rc_expect(j < DEG && (!weighted || sw[i] == ww[j]),
                      "source weight", sw[i], i);
            rc_expect(contains(want, DEG, dst[i]) &&
                          (!ordered || dst[i] == want[i]),
                      "destination", dst[i], i);
        }
    }
    /* Each rank sends its rank to every destination: what arrives from
     * source i is src[i]. */
    int mine[DEG] = {r, r, r};
    MPI_Neighbor_alltoall(mine, 1, MPI_INT, got, 1, MPI_INT, g);
    for (int i = 0; i < DEG; i++)
        rc_expect(got[i] == src[i], "Neighbor_alltoall", got[i], src[i]);
    int world[N], ident[N];
    rc_world_map(g, world);
    int lo = 0, hi;
    for (int t = 0; t < N; t++) {
        ident[t] = t;
        lo = (int)(((unsigned)lo * 31u + (unsigned)world[t]) % 1000000007u);
    }
    hi = lo;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, g);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, g);
    rc_expect(lo == hi, "the same map on every rank", lo, hi);
    if (r == 0) {
        int es[N * DEG], ed[N * DEG], ew[N * DEG], ne = 0;
        for (int t = 0; t < N; t++) {
            int l[DEG], lw[DEG];
            lists(t, l, lw);
            for (int i = 0; i < DEG; i++, ne++) {
                es[ne] = t;
                ed[ne] = l[i];
                ew[ne] = weighted ? lw[i] : 1;
            }
        }
        rc_print(rc_offnode(ne, es, ed, ew, ident, host),
                 rc_offnode(ne, es, ed, ew, world, host), world, N);
    }
    MPI_Comm_free(&g);
    int failures = rc_failures();
    MPI_Finalize();
    return failures ? 1 : 0;
}
