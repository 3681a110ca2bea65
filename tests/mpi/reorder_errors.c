/* reorder_errors.c: bad input to the constructors gets MPI's own error
 * under libtopomap-reorder.  With MPI_ERRORS_RETURN on MPI_COMM_WORLD,
 * each bad call (reorder = 1) is made through MPI_ (the library) and
 * through PMPI_ (MPI itself); rank 0 prints one line per case,
 *   CASE CLASS_MPI CLASS_PMPI
 * and the program fails unless both classes are equal and an error.
 * Last, a graph Open MPI 4.1 accepts although an edge names a node >=
 * nnodes: "graph_edge_out_of_range CLASS" (the library cannot map it and
 * keeps MPI's communicator, with a warning).  With the argument "first",
 * a valid ring (reorder = 1) is made before all of them: a call the
 * library maps and reports, "ring CLASS". */
#include <stdio.h>
#include <string.h>

#include <mpi.h>

static int failures;

static void report(int me, const char *name, int a, int b)
{
    int ca, cb;
    MPI_Error_class(a, &ca);
    MPI_Error_class(b, &cb);
    if (me == 0)
        printf("%s %d %d\n", name, ca, cb);
    if (ca != cb || ca == MPI_SUCCESS)
        failures++;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size, me;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL;
    int periods[2] = {0, 0};

    if (argc > 1 && strcmp(argv[1], "first") == 0) {
        int ring = 1, cls;
        int rc = MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &ring, 1, &a);
        MPI_Error_class(rc, &cls);
        if (me == 0)
            printf("ring %d\n", cls);
        if (rc != MPI_SUCCESS)
            failures++;
        else
            MPI_Comm_free(&a);
    }

    int negative[2] = {-1, 2};
    report(me, "cart_negative_dims",
           MPI_Cart_create(MPI_COMM_WORLD, 2, negative, periods, 1, &a),
           PMPI_Cart_create(MPI_COMM_WORLD, 2, negative, periods, 1, &b));
    int big[2] = {size, 2};
    report(me, "cart_too_many",
           MPI_Cart_create(MPI_COMM_WORLD, 2, big, periods, 1, &a),
           PMPI_Cart_create(MPI_COMM_WORLD, 2, big, periods, 1, &b));
    report(me, "cart_negative_ndims",
           MPI_Cart_create(MPI_COMM_WORLD, -1, big, periods, 1, &a),
           PMPI_Cart_create(MPI_COMM_WORLD, -1, big, periods, 1, &b));
    int index[64] = {0}, edges[1] = {0}; /* room past nnodes */
    report(me, "graph_too_many_nodes",
           MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 1, &a),
           PMPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 1, &b));
    int bad = size;
    /* Through a volatile, so that GCC does not read the sentinel
     * (int *)2 as an array of no elements. */
    const int *volatile unweighted = MPI_UNWEIGHTED;
    report(me, "dist_adjacent_rank_out_of_range",
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad,
                                          unweighted, 1, &bad,
                                          unweighted, MPI_INFO_NULL, 1,
                                          &a),
           PMPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad,
                                           unweighted, 1, &bad,
                                           unweighted, MPI_INFO_NULL, 1,
                                           &b));
    int one = 1;
    report(me, "dist_rank_out_of_range",
           MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &bad, &one, &me,
                                 unweighted, MPI_INFO_NULL, 1, &a),
           PMPI_Dist_graph_create(MPI_COMM_WORLD, 1, &bad, &one, &me,
                                  unweighted, MPI_INFO_NULL, 1, &b));
    report(me, "cart_null_comm",
           MPI_Cart_create(MPI_COMM_NULL, 2, big, periods, 1, &a),
           PMPI_Cart_create(MPI_COMM_NULL, 2, big, periods, 1, &b));
    int one_node[1] = {1}, far[1] = {size};
    int rc = MPI_Graph_create(MPI_COMM_WORLD, 1, one_node, far, 1, &a);
    int cls;
    MPI_Error_class(rc, &cls);
    if (me == 0)
        printf("graph_edge_out_of_range %d\n", cls);
    if (rc == MPI_SUCCESS && a != MPI_COMM_NULL)
        MPI_Comm_free(&a);
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return failures ? 1 : 0;
}
