/* threads.c: four threads per rank communicating at once under
 * MPI_THREAD_MULTIPLE, for tests/commprof_threads.sh (expected values in
 * tests/commprof_check.py, mode threads).  Run on 4 ranks.
 *
 * All threads share one duplicate of MPI_COMM_WORLD, first used by all
 * of them at once (its record and translation are made by whichever comes
 * first).  Thread t of rank r, 100 times: Irecv from r-1, Send 8(t+1)
 * bytes to r+1, Wait, with tag t.  Then, each on its own duplicate of
 * MPI_COMM_WORLD (all with the same members, so one record), 5 Allreduce
 * of 1 double and one Alltoallv of i+1 bytes to member i.
 *
 * Without MPI_THREAD_MULTIPLE rank 0 prints "threads: MPI_THREAD_MULTIPLE
 * not provided" and nothing is tested.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define MESSAGES 100

static MPI_Comm shared, own[THREADS];
static int r, n;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    char out[32] = {0}, in[32];
    for (int i = 0; i < MESSAGES; i++) {
        MPI_Request q;
        MPI_Irecv(in, 32, MPI_BYTE, (r + n - 1) % n, t, shared, &q);
        MPI_Send(out, 8 * (t + 1), MPI_BYTE, (r + 1) % n, t, shared);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    double x = 1, y;
    for (int i = 0; i < 5; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, own[t]);
    int c[64], d[64], rc[64], rd[64];
    char s[64 * 65] = {0}, v[64 * 64];
    for (int i = 0; i < n; i++) {
        c[i] = i + 1;
        d[i] = i ? d[i - 1] + c[i - 1] : 0;
        rc[i] = r + 1;
        rd[i] = i * (r + 1);
    }
    MPI_Alltoallv(s, c, d, MPI_BYTE, v, rc, rd, MPI_BYTE, own[t]);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (provided < MPI_THREAD_MULTIPLE || n > 64) {
        if (r == 0)
            printf("threads: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &shared);
    for (int t = 0; t < THREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &own[t]);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++)
        MPI_Comm_free(&own[t]);
    MPI_Comm_free(&shared);
    MPI_Finalize();
    return 0;
}
