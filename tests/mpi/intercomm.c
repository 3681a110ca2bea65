/* intercomm.c: point-to-point and collectives on an intercommunicator,
 * for tests/commprof_intercomm.sh (expected values in
 * tests/commprof_check.py, mode intercomm).  Run on 4 ranks.
 *
 * MPI_Intercomm_create joins the even ranks {0, 2} and the odd ranks
 * {1, 3} (local leaders 0 and 1).  Rank r has local rank r/2 and talks to
 * the remote rank of the same index, world rank r^1:
 *   Isend 40 B to it, Recv from MPI_ANY_SOURCE (status ignored), Wait
 *   Bcast 24 B from world rank 0: MPI_ROOT there, MPI_PROC_NULL at 2,
 *     root 0 (its rank in the remote group) at the odd ranks
 *   Ibcast 12 B from world rank 3 (local rank 1 of the odd group)
 *   Gather 4 ints from the even ranks to world rank 1; MPI_ROOT there
 *     passes a send count of 7 ints, which is not significant
 *   Allgather 2 ints from everyone to the remote group
 *   Reduce_scatter and Reduce_scatter_block of 6 ints between {0} and
 *     {1, 2, 3}: bytes, but no peers (which remote member gets which part
 *     is not known to the sender)
 */
#include <stddef.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    int odd = r % 2, lr = r / 2;
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, odd, r, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, odd ? 0 : 1, 99, &inter);

    char s[64] = {0}, t[64];
    int a[16] = {0}, b[16];
    MPI_Request q;
    MPI_Isend(s, 40, MPI_BYTE, lr, 1, inter, &q);
    MPI_Recv(t, 40, MPI_BYTE, MPI_ANY_SOURCE, 1, inter, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);

    int root = odd ? 0 : (r == 0 ? MPI_ROOT : MPI_PROC_NULL);
    MPI_Bcast(s, 24, MPI_BYTE, root, inter);
    root = !odd ? 1 : (r == 3 ? MPI_ROOT : MPI_PROC_NULL);
    MPI_Ibcast(s, 12, MPI_BYTE, root, inter, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);

    if (odd)
        MPI_Gather(a, 7, MPI_INT, b, 4, MPI_INT,
                   r == 1 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
        MPI_Gather(a, 4, MPI_INT, NULL, 0, MPI_INT, 0, inter);
    MPI_Allgather(a, 2, MPI_INT, b, 2, MPI_INT, inter);

    /* Groups of unequal sizes, {0} and {1, 2, 3}: recvcounts has an entry
     * per member of the local group (6 ints at world 0, 1 + 2 + 3 at the
     * others), which is each send buffer, as is _block's 6 x 1 and 2 x 3. */
    MPI_Comm one, uneven;
    MPI_Comm_split(MPI_COMM_WORLD, r > 0, r, &one);
    MPI_Intercomm_create(one, 0, MPI_COMM_WORLD, r > 0 ? 0 : 1, 98, &uneven);
    int counts[3] = {r > 0 ? 1 : 6, 2, 3};
    MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, uneven);
    MPI_Reduce_scatter_block(a, b, r > 0 ? 2 : 6, MPI_INT, MPI_SUM, uneven);

    MPI_Comm_free(&uneven);
    MPI_Comm_free(&one);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
