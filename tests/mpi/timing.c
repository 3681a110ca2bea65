/* timing.c: MPI calls with a known sleep inside, and a known sleep outside
 * them, for tests/commprof_timing.sh (checked by tests/commprof_check.py,
 * mode timing).  Run on 4 ranks.
 *
 * Rank r, between MPI_Init and MPI_Finalize, all on MPI_COMM_WORLD:
 *   a Barrier;
 *   3 Allreduce of one int with a user operation that sleeps SLEEP_MS each
 *     time MPI applies it, inside the call, on whichever rank applies it;
 *   an Iallreduce with the same operation, SLEEP_MS of sleep outside MPI
 *     (no MPI call in between, so nothing progresses it there), and a Wait;
 *   a Reduce to rank 0 with the same operation.
 * Each rank measures with CLOCK_MONOTONIC: the time from before MPI_Init
 * to after MPI_Finalize (outer) and from after MPI_Init to before
 * MPI_Finalize (inner), the time it slept outside MPI (compute), and per
 * collective (barrier, allreduce, reduce) the time around its calls
 * (around: from before each call to after it, the Iallreduce and its Wait
 * apart) and the time and number of applications of the operation inside
 * them (inside, ops).  After MPI_Finalize it prints one line of names and
 * values:
 *   rank R outer NS inner NS compute NS barrier_around NS
 *     allreduce_around NS allreduce_inside NS allreduce_ops N
 *     reduce_around NS reduce_inside NS reduce_ops N
 * No figure depends on the machine's speed: the checker only compares
 * intervals that contain one another.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define SLEEP_MS 5

static int64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Sleep SLEEP_MS; the time slept, measured. */
static int64_t nap(void)
{
    int64_t a = now();
    struct timespec ms = {0, SLEEP_MS * 1000000L};
    while (nanosleep(&ms, &ms) != 0)
        ;
    return now() - a;
}

/* Where the operation adds its time and count. */
static int64_t *slept;
static int *applied;

static void sleepy_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
    *slept += nap();
    ++*applied;
}

/* Time around one call, added to *t. */
#define AROUND(t, call)                                                      \
    do {                                                                     \
        int64_t a_ = now();                                                  \
        call;                                                                \
        *(t) += now() - a_;                                                  \
    } while (0)

int main(int argc, char **argv)
{
    int64_t start = now(), compute = 0, barrier = 0, allreduce = 0,
            reduce = 0, in_allreduce = 0, in_reduce = 0;
    int ops_allreduce = 0, ops_reduce = 0, r, x = 1, y;
    MPI_Init(&argc, &argv);
    int64_t inner = now();
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Op op;
    MPI_Op_create(sleepy_sum, 1, &op);
    AROUND(&barrier, MPI_Barrier(MPI_COMM_WORLD));

    slept = &in_allreduce;
    applied = &ops_allreduce;
    for (int i = 0; i < 3; i++)
        AROUND(&allreduce,
               MPI_Allreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD));
    MPI_Request q;
    AROUND(&allreduce,
           MPI_Iallreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD, &q));
    compute += nap();
    AROUND(&allreduce, MPI_Wait(&q, MPI_STATUS_IGNORE));

    slept = &in_reduce;
    applied = &ops_reduce;
    AROUND(&reduce, MPI_Reduce(&x, &y, 1, MPI_INT, op, 0, MPI_COMM_WORLD));

    MPI_Op_free(&op);
    inner = now() - inner;
    MPI_Finalize();
    printf("rank %d outer %lld inner %lld compute %lld barrier_around %lld "
           "allreduce_around %lld allreduce_inside %lld allreduce_ops %d "
           "reduce_around %lld reduce_inside %lld reduce_ops %d\n",
           r, (long long)(now() - start), (long long)inner,
           (long long)compute, (long long)barrier, (long long)allreduce,
           (long long)in_allreduce, ops_allreduce, (long long)reduce,
           (long long)in_reduce, ops_reduce);
    return 0;
}
