/*
 * callcost.c: where the time of a profiled MPI call goes.  bench/commprof.sh
 * runs it on one rank with and without libcommprof preloaded; each line is
 * the best of SAMPLES loops of ITERS iterations, in ns per iteration:
 *
 *   send_null        MPI_Send of 8 B to MPI_PROC_NULL (the wrapper, when
 *                    preloaded, around a call that moves nothing)
 *   send_null_dup    the same on a duplicate of MPI_COMM_WORLD (the
 *                    profiler looks the communicator up)
 *   self_isend_recv  MPI_Isend + MPI_Recv + MPI_Wait of 8 B to itself
 *                    (three calls that move a message)
 *   pmpi_send_null   PMPI_Send to MPI_PROC_NULL: the MPI library alone
 *
 * and the pieces a wrapper is made of, called directly (the same with and
 * without the preload):
 *
 *   clock_gettime    clock_gettime(CLOCK_MONOTONIC), twice per wrapped call
 *   type_size        PMPI_Type_size_x(MPI_BYTE), bytes of a send
 *   get_attr         PMPI_Comm_get_attr of a cached attribute, the
 *                    communicator lookup
 *   get_elements     PMPI_Get_elements_x of a status, bytes of a receive
 *   atomic_add       a relaxed __atomic_fetch_add (counters under
 *                    MPI_THREAD_MULTIPLE; a plain add costs about nothing)
 *
 * Output: NAME<TAB>NS per line, from rank 0.  Exit status 2 on a bad
 * command line.
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
    "usage: mpirun -np 1 callcost [--iters N] [--samples S]\n"
    "\n"
    "Times an MPI_Send to MPI_PROC_NULL, a send to self, and the pieces a\n"
    "profiling wrapper is made of; prints nanoseconds per iteration.\n"
    "\n"
    "  --iters N     iterations per sample (default 100000)\n"
    "  --samples S   samples per line, the fastest is kept (default 5)\n";

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

enum {
    SEND_NULL,
    SEND_NULL_DUP,
    SELF_ISEND_RECV,
    PMPI_SEND_NULL,
    CLOCK_GETTIME,
    TYPE_SIZE,
    GET_ATTR,
    GET_ELEMENTS,
    ATOMIC_ADD,
    NCASES
};
static const char *const names[NCASES] = {
    "send_null", "send_null_dup", "self_isend_recv", "pmpi_send_null",
    "clock_gettime", "type_size", "get_attr", "get_elements", "atomic_add"};

/* What the loops work on; volatile sinks keep the compiler from dropping
 * calls whose results are not used otherwise. */
static MPI_Comm dup;
static int keyval;
static MPI_Status status;
static volatile int64_t sink;
static uint64_t counter;

/* One loop of n iterations of case c; its time in ns. */
static double run(int c, long n)
{
    char buf[8] = {0}, in[8];
    MPI_Request req;
    struct timespec ts;
    MPI_Count count;
    void *value;
    int flag;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        switch (c) {
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
        case PMPI_SEND_NULL:
            PMPI_Send(buf, 8, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
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

static long count_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 && v <= 1000000000L ? v : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long iters = 100000, samples = 5;
    for (int i = 1; i < argc; i++) {
        long *target = strcmp(argv[i], "--iters") == 0     ? &iters
                       : strcmp(argv[i], "--samples") == 0 ? &samples
                                                           : NULL;
        if (strcmp(argv[i], "--help") == 0) {
            if (rank == 0)
                fputs(usage_text, stdout);
            MPI_Finalize();
            return 0;
        }
        if (!target || i + 1 == argc || !(*target = count_arg(argv[++i]))) {
            if (rank == 0)
                fprintf(stderr, "callcost: bad argument '%s'\nTry 'callcost --help'.\n",
                        argv[i]);
            MPI_Finalize();
            return 2;
        }
    }

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                           &keyval, NULL);
    MPI_Comm_set_attr(dup, keyval, &counter);
    /* A status as a receive of 8 bytes leaves it. */
    char buf[8] = {0};
    MPI_Sendrecv(buf, 8, MPI_BYTE, 0, 0, buf, 8, MPI_BYTE, 0, 0, MPI_COMM_SELF,
                 &status);
    if (rank == 0)
        for (int c = 0; c < NCASES; c++) {
            run(c, iters / 10 + 1); /* warm up */
            double best = 0;
            for (long k = 0; k < samples; k++) {
                double t = run(c, iters);
                if (k == 0 || t < best)
                    best = t;
            }
            printf("%s\t%.1f\n", names[c], best / (double)iters);
        }
    MPI_Comm_free_keyval(&keyval);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
