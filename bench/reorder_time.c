/* reorder_time.c: the time spent inside MPI_Cart_create and
 * MPI_Dist_graph_create_adjacent with reorder = 1, under
 * libtopomap-reorder (the MPI_ call, preloaded) beside MPI's own
 * constructor (the PMPI_ call) in the same run, alternating which goes
 * first.  The grid: MPI_Dims_create over 3 dimensions, periodic; the dist
 * graph: the same grid's 6 neighbours, unweighted.
 *
 *   mpirun -np N -x LD_PRELOAD=libtopomap-reorder.so reorder_time REPS
 *
 * Rank 0 prints one line per call, "KIND WHO SECONDS" (KIND cart or dist,
 * WHO lib or mpi), SECONDS the slowest rank's time from a barrier to the
 * call's return. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

typedef int (*cart_fn)(MPI_Comm, int, const int *, const int *, int,
                       MPI_Comm *);
typedef int (*dist_fn)(MPI_Comm, int, const int *, const int *, int,
                       const int *, const int *, MPI_Info, int, MPI_Comm *);

static int dims[3], periods[3] = {1, 1, 1}, nbr[6];

static double time_cart(cart_fn f)
{
    MPI_Comm c;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    f(MPI_COMM_WORLD, 3, dims, periods, 1, &c);
    t = MPI_Wtime() - t;
    MPI_Comm_free(&c);
    return t;
}

static double time_dist(dist_fn f)
{
    MPI_Comm c;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    f(MPI_COMM_WORLD, 6, nbr, MPI_UNWEIGHTED, 6, nbr, MPI_UNWEIGHTED,
      MPI_INFO_NULL, 1, &c);
    t = MPI_Wtime() - t;
    MPI_Comm_free(&c);
    return t;
}

static void put(const char *kind, const char *who, double t)
{
    double worst;
    int me;
    MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        printf("%s %s %.9f\n", kind, who, worst);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, reps = argc > 1 ? atoi(argv[1]) : 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (reps < 1) {
        fprintf(stderr, "usage: reorder_time REPS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Dims_create(size, 3, dims);
    /* The neighbours in MPI's order, from a plain grid. */
    MPI_Comm plain;
    PMPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &plain);
    for (int d = 0; d < 3; d++)
        MPI_Cart_shift(plain, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);
    MPI_Comm_free(&plain);
    for (int r = 0; r < reps; r++) {
        /* Alternate which goes first. */
        for (int k = 0; k < 2; k++) {
            if ((r + k) % 2 == 0) {
                put("cart", "lib", time_cart(MPI_Cart_create));
                put("dist", "lib",
                    time_dist(MPI_Dist_graph_create_adjacent));
            } else {
                put("cart", "mpi", time_cart(PMPI_Cart_create));
                put("dist", "mpi",
                    time_dist(PMPI_Dist_graph_create_adjacent));
            }
        }
    }
    MPI_Finalize();
    return 0;
}
