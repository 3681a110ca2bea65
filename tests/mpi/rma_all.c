/* rma_all.c: every one-sided call libcommprof intercepts, with known
 * bytes, for tests/commprof_rma.sh (expected values in
 * tests/commprof_check.py, mode rma).  Run on 4 ranks; ints are 4 B.
 *
 * Rank r of n, on a window of 64 ints per rank:
 *   fence; Put 5 ints, Get 3 ints, Accumulate 2 ints at r+1; fence
 *   Win_lock (exclusive) r+2; Get_accumulate 4 ints, Fetch_and_op 1 int,
 *     Compare_and_swap 1 int at r+2; Win_unlock
 *   Win_lock_all; Rput 6 ints, Rget 7 ints, Raccumulate 1 int,
 *     Rget_accumulate 2 ints at r+3; Waitall; Win_flush r+3,
 *     Win_flush_all, Win_flush_local r+3, Win_flush_local_all;
 *     Win_unlock_all
 *   PSCW in pairs (r, r^1): odd r: Win_start, Put 10 ints at r-1,
 *     Win_complete; even r: Win_post, Win_wait.  Then the other way: even
 *     r: Win_start, Put 3 ints at r+1, Win_complete; odd r: Win_post and
 *     a Win_test loop, whose calls each rank prints ("rank R polls P").
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n, polls = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int *base, o[16] = {0}, res[16], cmp = 0;
    MPI_Win win;
    MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    const int t1 = (r + 1) % n, t2 = (r + 2) % n, t3 = (r + 3) % n;

    MPI_Win_fence(0, win);
    MPI_Put(o, 5, MPI_INT, t1, 0, 5, MPI_INT, win);
    MPI_Get(res, 3, MPI_INT, t1, 8, 3, MPI_INT, win);
    MPI_Accumulate(o, 2, MPI_INT, t1, 16, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);

    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t2, 0, win);
    MPI_Get_accumulate(o, 4, MPI_INT, res, 4, MPI_INT, t2, 20, 4, MPI_INT,
                       MPI_SUM, win);
    MPI_Fetch_and_op(o, res + 4, MPI_INT, t2, 24, MPI_SUM, win);
    MPI_Compare_and_swap(o, &cmp, res + 5, MPI_INT, t2, 25, win);
    MPI_Win_unlock(t2, win);

    MPI_Request q[4];
    MPI_Win_lock_all(0, win);
    MPI_Rput(o, 6, MPI_INT, t3, 30, 6, MPI_INT, win, &q[0]);
    MPI_Rget(res, 7, MPI_INT, t3, 36, 7, MPI_INT, win, &q[1]);
    MPI_Raccumulate(o + 8, 1, MPI_INT, t3, 44, 1, MPI_INT, MPI_SUM, win,
                    &q[2]);
    MPI_Rget_accumulate(o + 8, 2, MPI_INT, res + 8, 2, MPI_INT, t3, 46, 2,
                        MPI_INT, MPI_SUM, win, &q[3]);
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    MPI_Win_flush(t3, win);
    MPI_Win_flush_all(win);
    MPI_Win_flush_local(t3, win);
    MPI_Win_flush_local_all(win);
    MPI_Win_unlock_all(win);

    MPI_Group world, pair;
    int partner = r ^ 1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &partner, &pair);
    if (r % 2) {
        MPI_Win_start(pair, 0, win);
        MPI_Put(o, 10, MPI_INT, partner, 50, 10, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Win_post(pair, 0, win);
        for (int flag = 0; !flag; polls++)
            MPI_Win_test(win, &flag);
    } else {
        MPI_Win_post(pair, 0, win);
        MPI_Win_wait(win);
        MPI_Win_start(pair, 0, win);
        MPI_Put(o, 3, MPI_INT, partner, 60, 3, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Group_free(&pair);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    printf("rank %d polls %d\n", r, polls);
    MPI_Finalize();
    return 0;
}
