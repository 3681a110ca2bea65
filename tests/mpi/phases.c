/* phases.c: phases marked with MPI_Pcontrol, for tests/commprof_phases.sh
 * (the exact profile is in that script).  Run on 4 ranks.
 *
 * Rank r of n, each step a Sendrecv that sends to r+d and receives from
 * r-d (mod n):
 *   phase 1 (from MPI_Init)  100 B, d = 1
 *   MPI_Pcontrol(3)          300 B, d = 2; Bcast of 40 B from rank 0
 *   MPI_Pcontrol(4)          400 B, d = 3; Allreduce of 2 ints
 *   MPI_Pcontrol(3)          300 B, d = 2 (phase 3 again: added to it)
 *   MPI_Pcontrol(0)          1 MiB, d = 1, not recorded
 *   MPI_Pcontrol(1)          7 B, d = 1: recording resumes in phase 3
 * Then, by the argument:
 *   finalize  MPI_Finalize (the default)
 *   abort     MPI_Pcontrol(0) and a Barrier (everything recorded is
 *             recorded by every rank), then rank 1 calls MPI_Abort(3)
 *             and the others wait in a Recv until mpirun ends them:
 *             each rank leaves a partial file
 *   many      instead of all the above: MPI_Pcontrol(k) for k = 3 .. 20,
 *             each followed by a Barrier; phases past the 16th are
 *             refused (a warning), their Barriers counted in phase 17
 */
#include <mpi.h>
#include <string.h>

#include "end_early.h"

static char buf[2][1 << 20];

static void step(int bytes, int d, int r, int n)
{
    MPI_Sendrecv(buf[0], bytes, MPI_BYTE, (r + d) % n, 0, buf[1], bytes,
                 MPI_BYTE, (r - d + n) % n, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n, x[2] = {1, 2}, y[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc > 1 && strcmp(argv[1], "many") == 0) {
        for (int k = 3; k <= 20; k++) {
            MPI_Pcontrol(k);
            MPI_Barrier(MPI_COMM_WORLD);
        }
        MPI_Finalize();
        return 0;
    }
    step(100, 1, r, n);
    MPI_Pcontrol(3);
    step(300, 2, r, n);
    MPI_Bcast(buf[0], 40, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Pcontrol(4);
    step(400, 3, r, n);
    MPI_Allreduce(x, y, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Pcontrol(3);
    step(300, 2, r, n);
    MPI_Pcontrol(0);
    step(1 << 20, 1, r, n);
    MPI_Pcontrol(1);
    step(7, 1, r, n);
    if (argc > 1 && strcmp(argv[1], "abort") == 0) {
        MPI_Pcontrol(0);
        end_early(r);
    }
    MPI_Finalize();
    return 0;
}
