/* end_early.h: how the MPI test programs that leave partial profiles end
 * (tests/mpi/phases.c, cart.c): a Barrier, so that every rank has
 * recorded all it will, then rank 1 calls MPI_Abort(3) and the others
 * wait in a Recv that nothing matches until mpirun ends them.  Every rank
 * leaves its partial file; mpirun exits with 3. */
#ifndef TOPOMAP_TESTS_END_EARLY_H
#define TOPOMAP_TESTS_END_EARLY_H

#include <mpi.h>

static void end_early(int rank)
{
    char byte;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(&byte, 1, MPI_BYTE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

#endif
