/* reorder_halo.c: a 3-D halo exchange whose topology communicator is made
 * with reorder = 1, for timing libtopomap-reorder against MPI's own
 * reorder on the emulated cluster (bench/reorder_cluster.sh).
 *
 *   reorder_halo cart|dist BYTES ITERS
 *
 * The ranks form a periodic grid of MPI_Dims_create(P, 3); cart: the
 * communicator from MPI_Cart_create(reorder = 1); dist: from
 * MPI_Dist_graph_create_adjacent(reorder = 1) with the grid's 6
 * neighbours (MPI's order), unweighted.  Each iteration sends BYTES to
 * each of the 6 neighbours with MPI_Neighbor_alltoall.  Rank 0 prints
 *   seconds S offnode_pairs K
 * S: the slowest rank's time for the ITERS iterations (after a barrier);
 * K: directed neighbour pairs whose ranks run on two hosts
 * (MPI_Get_processor_name), the placement the constructor chose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, me;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (argc != 4 || (strcmp(argv[1], "cart") && strcmp(argv[1], "dist")) ||
        atol(argv[2]) < 1 || atoi(argv[3]) < 1) {
        if (me == 0)
            fprintf(stderr, "usage: reorder_halo cart|dist BYTES ITERS\n");
        MPI_Finalize();
        return 2;
    }
    int bytes = atoi(argv[2]), iters = atoi(argv[3]);
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, nbr[6];
    MPI_Dims_create(size, 3, dims);
    MPI_Comm topo;
    if (!strcmp(argv[1], "cart")) {
        MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &topo);
    } else {
        /* The grid's neighbours in MPI's row-major order, computed here:
         * no Cartesian communicator, which --mca topo treematch (dist
         * graphs only) could not make. */
        int c[3] = {me / (dims[1] * dims[2]), me / dims[2] % dims[1],
                    me % dims[2]};
        for (int d = 0; d < 3; d++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int x[3] = {c[0], c[1], c[2]};
                x[d] = (x[d] + dir + dims[d]) % dims[d];
                nbr[2 * d + (dir > 0)] =
                    (x[0] * dims[1] + x[1]) * dims[2] + x[2];
            }
        /* Through a volatile, so that GCC does not read the sentinel
         * (int *)2 as an array of no elements. */
        const int *volatile unweighted = MPI_UNWEIGHTED;
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 6, nbr, unweighted,
                                       6, nbr, unweighted, MPI_INFO_NULL, 1,
                                       &topo);
    }
    int r, in, out, w;
    MPI_Comm_rank(topo, &r);
    /* The neighbours in the communicator made (a cart's as a dist graph
     * would list them: Cart_shift order). */
    if (!strcmp(argv[1], "cart")) {
        for (int d = 0; d < 3; d++)
            MPI_Cart_shift(topo, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);
    } else {
        int src[6], sw[6], dw[6];
        MPI_Dist_graph_neighbors_count(topo, &in, &out, &w);
        MPI_Dist_graph_neighbors(topo, 6, src, sw, 6, nbr, dw);
    }
    char name[MPI_MAX_PROCESSOR_NAME] = "", *names;
    int len;
    MPI_Get_processor_name(name, &len);
    names = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names,
                  MPI_MAX_PROCESSOR_NAME, MPI_CHAR, topo);
    int off = 0;
    for (int i = 0; i < 6; i++)
        off += strcmp(names + (size_t)r * MPI_MAX_PROCESSOR_NAME,
                      names + (size_t)nbr[i] * MPI_MAX_PROCESSOR_NAME) != 0;
    char *sbuf = calloc(6, (size_t)bytes), *rbuf = malloc(6 * (size_t)bytes);
    MPI_Barrier(topo);
    double t = MPI_Wtime();
    for (int it = 0; it < iters; it++)
        MPI_Neighbor_alltoall(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE,
                              topo);
    t = MPI_Wtime() - t;
    double worst;
    int offsum;
    MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, topo);
    MPI_Reduce(&off, &offsum, 1, MPI_INT, MPI_SUM, 0, topo);
    if (r == 0)
        printf("seconds %.6f offnode_pairs %d\n", worst, offsum);
    free(sbuf);
    free(rbuf);
    free(names);
    MPI_Comm_free(&topo);
    MPI_Finalize();
    return 0;
}
