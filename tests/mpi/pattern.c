/* pattern.c: an MPI program whose communication is known exactly, for
 * checking libcommprof's profile (tests/commprof_pattern.sh and
 * tests/commprof_check.py hold the expected values).  Run on 4 ranks.
 *
 * Rank r, with n ranks:
 *   1. Sendrecv 1000 bytes to r+1 (from r-1), 3 times, status ignored
 *   2. Isend 10 doubles (80 B) to r+2, Irecv from ANY_SOURCE, Waitall
 *      with MPI_STATUSES_IGNORE
 *   3. Send_init 16 ints (64 B) to r+3, started 5 times
 *   4. a derived type (2 x contiguous(3 ints) = 24 B) Send to r+1
 *   5. Pcontrol(0): 1 MiB Send to r+1 that must not be recorded; Pcontrol(1)
 *   6. Comm_split into even and odd ranks: Alltoall of 4 ints per peer
 *   7. Allreduce of 8 doubles on MPI_COMM_WORLD, then an Alltoallv
 *      sending i+1 ints to rank i
 *   8. Bcast of 100 bytes from rank 1 of the world
 *   9. Put of 5 ints into the window of rank r+1 between two fences
 *
 * With --plain, steps 3 and 5 and the Alltoallv are left out: Open MPI's
 * pml monitoring (the independent reference) does not see persistent
 * sends, knows nothing of MPI_Pcontrol, and counts the messages inside
 * its Alltoallv as user point-to-point traffic.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int plain = argc > 1 && strcmp(argv[1], "--plain") == 0;
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char a[1000], b[1000];
    memset(a, r, sizeof a);
    for (int i = 0; i < 3; i++)
        MPI_Sendrecv(a, 1000, MPI_CHAR, (r + 1) % n, 1, b, 1000, MPI_CHAR,
                     (r + n - 1) % n, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    double d[10] = {0}, e[10];
    MPI_Request req[2];
    MPI_Isend(d, 10, MPI_DOUBLE, (r + 2) % n, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(e, 10, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

    int p[16] = {0}, q[16];
    MPI_Request pers[2];
    if (!plain) {
        MPI_Send_init(p, 16, MPI_INT, (r + 3) % n, 3, MPI_COMM_WORLD, &pers[0]);
        MPI_Recv_init(q, 16, MPI_INT, (r + n - 3) % n, 3, MPI_COMM_WORLD,
                      &pers[1]);
        for (int i = 0; i < 5; i++) {
            MPI_Startall(2, pers);
            MPI_Waitall(2, pers, MPI_STATUSES_IGNORE);
        }
        MPI_Request_free(&pers[0]);
        MPI_Request_free(&pers[1]);
    }

    MPI_Datatype three;
    MPI_Type_contiguous(3, MPI_INT, &three);
    MPI_Type_commit(&three);
    int t[6] = {0}, u[6];
    MPI_Send(t, 2, three, (r + 1) % n, 4, MPI_COMM_WORLD);
    MPI_Recv(u, 2, three, (r + n - 1) % n, 4, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Type_free(&three);

    if (!plain) {
        char *big = calloc(1 << 20, 1);
        MPI_Pcontrol(0);
        MPI_Sendrecv_replace(big, 1 << 20, MPI_CHAR, (r + 1) % n, 5,
                             (r + n - 1) % n, 5, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        MPI_Pcontrol(1);
        free(big);
    }

    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
    int hs;
    MPI_Comm_size(half, &hs);
    int *s4 = calloc((size_t)hs * 4, sizeof *s4), *r4 = calloc((size_t)hs * 4, sizeof *r4);
    MPI_Alltoall(s4, 4, MPI_INT, r4, 4, MPI_INT, half);
    free(s4);
    free(r4);
    MPI_Comm_free(&half);

    double x[8] = {0}, y[8];
    MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (!plain) {
        int *cnt = calloc((size_t)n, sizeof *cnt), *dsp = calloc((size_t)n, sizeof *dsp);
        int *rc_ = calloc((size_t)n, sizeof *rc_), *rd = calloc((size_t)n, sizeof *rd);
        int *sv = calloc((size_t)(n * (n + 1) / 2), sizeof *sv);
        int *rv = calloc((size_t)n * (size_t)(r + 1), sizeof *rv);
        for (int i = 0; i < n; i++) {
            cnt[i] = i + 1;
            dsp[i] = i ? dsp[i - 1] + cnt[i - 1] : 0;
            rc_[i] = r + 1;
            rd[i] = i * (r + 1);
        }
        MPI_Alltoallv(sv, cnt, dsp, MPI_INT, rv, rc_, rd, MPI_INT, MPI_COMM_WORLD);
        free(cnt);
        free(dsp);
        free(rc_);
        free(rd);
        free(sv);
        free(rv);
    }
    char c100[100] = {0};
    MPI_Bcast(c100, 100, MPI_CHAR, 1, MPI_COMM_WORLD);

    int *base;
    MPI_Win win;
    MPI_Win_allocate(5 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    int five[5] = {1, 2, 3, 4, 5};
    MPI_Win_fence(0, win);
    MPI_Put(five, 5, MPI_INT, (r + 1) % n, 0, 5, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    MPI_Finalize();
    return 0;
}
