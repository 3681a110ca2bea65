/* requests.c: many receives outstanding at once, completed in another
 * order than they were posted in, for tests/commprof_requests.sh (checked
 * by tests/commprof_check.py, mode requests).  Run on 4 ranks.
 *
 * Rank r, in each of 2 rounds: posts N receives from r-1 with tags 0 to
 * N-1 (tag t carries t % 17 + 1 bytes), sends N messages to r+1 with the
 * tags in a scrambled order, and completes the receives: a third one at a
 * time with Waitany, a third with a Testsome loop, the rest with one
 * Waitall.  So libcommprof's request table grows past its first size, and
 * entries leave it in an order unrelated to the one they came in.
 * Rank r prints "rank R completions C": its number of Waitany, Testsome
 * and Waitall calls.
 */
#include <mpi.h>
#include <stdio.h>

#define N 600

int main(int argc, char **argv)
{
    static char in[N][17], out[17];
    static MPI_Request q[N];
    static int idx[N];
    int r, n, calls = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int round = 0; round < 2; round++) {
        for (int t = 0; t < N; t++)
            MPI_Irecv(in[t], 17, MPI_BYTE, (r + n - 1) % n, t, MPI_COMM_WORLD,
                      &q[t]);
        for (int k = 0; k < N; k++) {
            int t = (int)((7919L * k + 13 * round) % N); /* 7919: prime */
            MPI_Send(out, t % 17 + 1, MPI_BYTE, (r + 1) % n, t,
                     MPI_COMM_WORLD);
        }
        for (int k = 0; k < N / 3; k++) {
            int i;
            MPI_Waitany(N, q, &i, MPI_STATUS_IGNORE);
            calls++;
        }
        for (int done = 0; done < N / 3;) {
            int got;
            MPI_Testsome(N, q, &got, idx, MPI_STATUSES_IGNORE);
            calls++;
            done += got == MPI_UNDEFINED ? 0 : got;
        }
        MPI_Waitall(N, q, MPI_STATUSES_IGNORE);
        calls++;
    }
    printf("rank %d completions %d\n", r, calls);
    MPI_Finalize();
    return 0;
}
