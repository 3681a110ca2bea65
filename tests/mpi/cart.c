/* cart.c: Cartesian communicators for tests/commprof_cart.sh (the exact
 * profiles and graphs are in that script).  Run on 6 ranks.
 *
 * By the argument:
 *   world     MPI_Cart_create over MPI_COMM_WORLD: dims 3x2, both
 *             periodic, reorder 0; then MPI_Cart_sub keeping the second
 *             dimension (three 1-D communicators of 2 ranks, periodic)
 *   reversed  first MPI_Cart_create over the halves of MPI_Comm_split
 *             (color r % 2, key r): 3 ranks, periodic, reorder 0; then
 *             over the world in reverse order (MPI_Comm_split with key
 *             5 - r): dims 3x2, periods 1 and 0, reorder 0, so Cartesian
 *             rank p is world rank 5 - p
 * Then on the 2-D communicator, each rank sends 100 B to its +1
 * neighbour of dimension 0 and 10 B to its +1 neighbour of dimension 1
 * (MPI_Cart_shift and Sendrecv; MPI_PROC_NULL at a non-periodic edge).
 * With a second argument `abort`, a Barrier, then rank 1 calls
 * MPI_Abort(3) and the others wait to be ended: partial files.
 */
#include <mpi.h>
#include <string.h>

#include "end_early.h"

static char buf[2][128];

static void shift(MPI_Comm cart, int dim, int bytes)
{
    int src, dst;
    MPI_Cart_shift(cart, dim, 1, &src, &dst);
    MPI_Sendrecv(buf[0], bytes, MPI_BYTE, dst, 0, buf[1], bytes, MPI_BYTE,
                 src, 0, cart, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, dims[2] = {3, 2}, periods[2] = {1, 1};
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm base = MPI_COMM_WORLD, half, half_cart, cart, sub;
    int reversed = argc > 1 && strcmp(argv[1], "reversed") == 0;
    if (reversed) {
        int three = 3, yes = 1;
        MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
        MPI_Cart_create(half, 1, &three, &yes, 0, &half_cart);
        MPI_Comm_split(MPI_COMM_WORLD, 0, 5 - r, &base);
        periods[1] = 0;
    }
    MPI_Cart_create(base, 2, dims, periods, 0, &cart);
    if (!reversed) {
        int remain[2] = {0, 1};
        MPI_Cart_sub(cart, remain, &sub);
    }
    shift(cart, 0, 100);
    shift(cart, 1, 10);
    if (argc > 2 && strcmp(argv[2], "abort") == 0)
        end_early(r);
    MPI_Finalize();
    return 0;
}
