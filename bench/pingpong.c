/*
 * pingpong.c: the cost of an MPI point-to-point call, for bench/commprof.sh
 * to run with and without libcommprof preloaded.  On exactly 2 ranks:
 *
 *   pingpong SIZE   rank 0 does MPI_Send + MPI_Recv of SIZE bytes, rank 1
 *                   MPI_Recv + MPI_Send, ITERS times (ITERS / 10 at 64 KiB,
 *                   a thousand times slower); a round trip is four calls
 *                   one after the other, so the figure is the time of a
 *                   round trip divided by 4
 *   proc_null       rank 0 alone calls MPI_Send of 8 bytes to
 *                   MPI_PROC_NULL 10 x ITERS times: a call that moves
 *                   nothing, so the figure is the call itself (with the
 *                   preload: the whole cost of the wrapper)
 *
 * for SIZE = 8 B, 1 KiB, 64 KiB.  Each is timed SAMPLES times and the
 * fastest sample is kept (a sample slowed by another process is not the
 * call's cost).  Rank 0 prints one line per measurement,
 *
 *   pingpong<TAB>SIZE<TAB>NS_PER_CALL
 *   proc_null<TAB>0<TAB>NS_PER_CALL
 *
 * Exit status 2 on a bad command line or a rank count other than 2.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int sizes[] = {8, 1024, 64 * 1024};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
#define MAX_SIZE (64 * 1024)

static const char usage_text[] =
    "usage: mpirun -np 2 pingpong [--iters N] [--samples S]\n"
    "\n"
    "Times MPI point-to-point calls between 2 ranks: ping-pong at 8 B, 1 KiB\n"
    "and 64 KiB, and MPI_Send to MPI_PROC_NULL; prints nanoseconds per call.\n"
    "\n"
    "  --iters N     round trips per sample (default 10000; N / 10 at 64 KiB;\n"
    "                10 x N sends to MPI_PROC_NULL)\n"
    "  --samples S   samples per measurement, the fastest is kept (default 5)\n";

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* N round trips of SIZE bytes between ranks 0 and 1; rank 0's time. */
static double round_trips(char *buf, int size, long n, int rank)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    return now_ns() - t0;
}

static double null_sends(char *buf, long n)
{
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        MPI_Send(buf, 8, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    return now_ns() - t0;
}

/* A positive count from the command line, or 0. */
static long count_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 && v <= 1000000000L ? v : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    long iters = 10000, samples = 5;
    const char *bad = NULL;
    for (int i = 1; i < argc && !bad; i++) {
        long *target = strcmp(argv[i], "--iters") == 0     ? &iters
                       : strcmp(argv[i], "--samples") == 0 ? &samples
                                                           : NULL;
        if (strcmp(argv[i], "--help") == 0) {
            if (rank == 0)
                fputs(usage_text, stdout);
            MPI_Finalize();
            return 0;
        }
        if (!target || i + 1 == argc || !(*target = count_arg(argv[++i])))
            bad = argv[i];
    }
    if (bad || n != 2) {
        if (rank == 0) {
            if (bad)
                fprintf(stderr, "pingpong: bad argument '%s'\n", bad);
            else
                fprintf(stderr, "pingpong: runs on 2 ranks, not %d\n", n);
            fputs("Try 'pingpong --help'.\n", stderr);
        }
        MPI_Finalize();
        return 2;
    }

    static char buf[MAX_SIZE];
    for (int s = 0; s < NSIZES; s++) {
        long trips = sizes[s] > 4096 ? iters / 10 + 1 : iters;
        round_trips(buf, sizes[s], trips / 10 + 1, rank); /* warm up */
        double best = 0;
        for (long k = 0; k < samples; k++) {
            double t = round_trips(buf, sizes[s], trips, rank);
            if (k == 0 || t < best)
                best = t;
        }
        if (rank == 0)
            printf("pingpong\t%d\t%.1f\n", sizes[s], best / (4.0 * (double)trips));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        null_sends(buf, iters);
        double best = 0;
        for (long k = 0; k < samples; k++) {
            double t = null_sends(buf, 10 * iters);
            if (k == 0 || t < best)
                best = t;
        }
        printf("proc_null\t0\t%.1f\n", best / (10.0 * (double)iters));
    }
    MPI_Finalize();
    return 0;
}
