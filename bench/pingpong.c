/*
 * pingpong.c: the cost of MPI point-to-point calls, for bench/commprof.sh
 * to run with and without libcommprof preloaded.  Every figure is the
 * fastest of SAMPLES timed loops (a sample slowed by another process is
 * not the call's cost), in ns.  Rank 0 prints NAME<TAB>SIZE<TAB>NS lines.
 *
 * On 2 ranks (the default mode):
 *
 *   pingpong SIZE    rank 0 does MPI_Send + MPI_Recv of SIZE bytes, rank 1
 *                    MPI_Recv + MPI_Send, ITERS times (ITERS / 10 at 64
 *                    KiB, a thousand times slower); a round trip is four
 *                    calls one after the other, so the figure is the time
 *                    of a round trip divided by 4; SIZE = 8, 1024, 65536
 *   proc_null 0      MPI_Send of 8 B to MPI_PROC_NULL, 10 x ITERS times on
 *                    rank 0: a call that moves nothing (with the preload:
 *                    the whole cost of the wrapper)
 *
 * With --calls, on 1 rank, where the time of a wrapped call goes (ns per
 * iteration, ITERS x 10 iterations; SIZE is 0):
 *
 *   send_null        MPI_Send of 8 B to MPI_PROC_NULL
 *   send_null_dup    the same on a duplicate of MPI_COMM_WORLD (the
 *                    profiler looks the communicator up)
 *   self_isend_recv  MPI_Isend + MPI_Recv + MPI_Wait of 8 B to itself
 *   clock_gettime    clock_gettime(CLOCK_MONOTONIC), twice per wrapped call
 *   type_size        PMPI_Type_size_x(MPI_BYTE), bytes of a send
 *   get_attr         PMPI_Comm_get_attr of a cached attribute, the
 *                    communicator lookup
 *   get_elements     PMPI_Get_elements_x of a status, bytes of a receive
 *   atomic_add       a relaxed __atomic_fetch_add (counters under
 *                    MPI_THREAD_MULTIPLE; a plain add costs about nothing)
 *
 * the last five called directly, so the same with and without the preload.
 * Exit status 2 on a bad command line or the wrong number of ranks.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_text[] =
    "usage: mpirun -np 2 pingpong [--iters N] [--samples S]\n"
    "       mpirun -np 1 pingpong --calls [--iters N] [--samples S]\n"
    "\n"
    "Times MPI point-to-point calls: ping-pong between 2 ranks at 8 B, 1 KiB\n"
    "and 64 KiB, and MPI_Send to MPI_PROC_NULL; with --calls, on 1 rank,\n"
    "sends that move nothing, a send to self and the pieces a profiling\n"
    "wrapper is made of.  Prints nanoseconds per call.\n"
    "\n"
    "  --iters N     round trips per sample (default 10000; N / 10 at 64 KiB);\n"
    "                10 x N calls per sample for MPI_PROC_NULL and --calls\n"
    "  --samples S   samples per figure, the fastest is kept (default 5)\n";

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* What is timed: one loop of n iterations of case c (with argument arg),
 * its time in ns.  Rank 1 takes part in the ping-pong only. */
enum {
    PINGPONG,
    PROC_NULL,
    SEND_NULL,
    SEND_NULL_DUP,
    SELF_ISEND_RECV,
    CLOCK_GETTIME,
    TYPE_SIZE,
    GET_ATTR,
    GET_ELEMENTS,
    ATOMIC_ADD,
    NCASES
};
static const char *const names[NCASES] = {
    "pingpong",      "proc_null",     "send_null", "send_null_dup",
    "self_isend_recv", "clock_gettime", "type_size", "get_attr",
    "get_elements",  "atomic_add"};

#define MAX_SIZE (64 * 1024)
static char buf[MAX_SIZE];
static int rank;
/* What the --calls loops work on; volatile sinks keep the compiler from
 * dropping calls whose results are not used otherwise. */
static MPI_Comm dup;
static int keyval;
static MPI_Status status;
static volatile int64_t sink;
static uint64_t counter;

static double run(int c, int arg, long n)
{
    char in[8];
    MPI_Request req;
    struct timespec ts;
    MPI_Count count;
    void *value;
    int flag;
    if (c == PINGPONG)
        MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        switch (c) {
        case PINGPONG:
            if (rank == 0) {
                MPI_Send(buf, arg, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, arg, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, arg, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, arg, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
            break;
        case PROC_NULL:
        case SEND_NULL:
            MPI_Send(buf, 8, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
            break;
        case SEND_NULL_DUP:
            MPI_Send(buf, 8, MPI_BYTE, MPI_PROC_NULL, 0, dup);
            break;
        case SELF_ISEND_RECV:
            MPI_Isend(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_SELF, &req);
            MPI_Recv(in, 8, MPI_BYTE, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            break;
        case CLOCK_GETTIME:
            clock_gettime(CLOCK_MONOTONIC, &ts);
            sink = ts.tv_nsec;
            break;
        case TYPE_SIZE:
            PMPI_Type_size_x(MPI_BYTE, &count);
            sink = count;
            break;
        case GET_ATTR:
            PMPI_Comm_get_attr(dup, keyval, &value, &flag);
            sink = flag;
            break;
        case GET_ELEMENTS:
            PMPI_Get_elements_x(&status, MPI_BYTE, &count);
            sink = count;
            break;
        default:
            __atomic_fetch_add(&counter, 8, __ATOMIC_RELAXED);
        }
    }
    return now_ns() - t0;
}

/* Time case c: a warm-up loop, then the fastest of `samples` loops of n
 * iterations, printed by rank 0 as ns per call (per iteration / per_iter). */
static void measure(int c, int arg, long n, long samples, double per_iter)
{
    run(c, arg, n / 10 + 1);
    double best = 0;
    for (long k = 0; k < samples; k++) {
        double t = run(c, arg, n);
        if (k == 0 || t < best)
            best = t;
    }
    if (rank == 0)
        printf("%s\t%d\t%.1f\n", names[c], c == PINGPONG ? arg : 0,
               best / (per_iter * (double)n));
}

/* A positive count from the command line, or 0. */
static long count_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 && v <= 100000000L ? v : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    long iters = 10000, samples = 5;
    int calls = 0;
    const char *bad = NULL;
    for (int i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            if (rank == 0)
                fputs(usage_text, stdout);
            MPI_Finalize();
            return 0;
        }
        if (strcmp(argv[i], "--calls") == 0) {
            calls = 1;
            continue;
        }
        long *target = strcmp(argv[i], "--iters") == 0     ? &iters
                       : strcmp(argv[i], "--samples") == 0 ? &samples
                                                           : NULL;
        if (!target || i + 1 == argc || !(*target = count_arg(argv[++i])))
            bad = argv[i];
    }
    if (bad || n != (calls ? 1 : 2)) {
        if (rank == 0) {
            if (bad)
                fprintf(stderr, "pingpong: bad argument '%s'\n", bad);
            else
                fprintf(stderr, "pingpong: runs on %s, not %d\n",
                        calls ? "1 rank with --calls" : "2 ranks", n);
            fputs("Try 'pingpong --help'.\n", stderr);
        }
        MPI_Finalize();
        return 2;
    }

    if (!calls) {
        const int sizes[] = {8, 1024, MAX_SIZE};
        for (int s = 0; s < 3; s++)
            measure(PINGPONG, sizes[s], sizes[s] > 4096 ? iters / 10 + 1 : iters,
                    samples, 4.0);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            measure(PROC_NULL, 0, 10 * iters, samples, 1.0);
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                               &keyval, NULL);
        MPI_Comm_set_attr(dup, keyval, &counter);
        /* A status as a receive of 8 bytes leaves it. */
        MPI_Sendrecv(buf, 8, MPI_BYTE, 0, 0, buf + 8, 8, MPI_BYTE, 0, 0,
                     MPI_COMM_SELF, &status);
        for (int c = SEND_NULL; c < NCASES; c++)
            measure(c, 0, 10 * iters, samples, 1.0);
        MPI_Comm_free_keyval(&keyval);
        MPI_Comm_free(&dup);
    }
    MPI_Finalize();
    return 0;
}
