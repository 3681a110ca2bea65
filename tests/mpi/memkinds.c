/* memkinds.c: sends from buffers that a stand-in CUDA driver
 * (tests/cudashim, libcuda.so.1) calls pinned, device and managed memory,
 * for tests/commprof_memkinds.sh (expected values in
 * tests/commprof_check.py, mode memkinds).  Run on 4 ranks as
 *   memkinds MODE SHIM
 * with SHIM the stand-in's path and MODE:
 *   early  the stand-in is loaded before MPI_Init;
 *   late   it is loaded after MPI_Init, then the rank sleeps 10 ms: more
 *          than the millisecond libcommprof waits between looks for a
 *          driver loaded since, as creating a real context takes;
 *   none   it is not loaded (every byte is host memory, and libcommprof
 *          must not load it either, though LD_LIBRARY_PATH finds it).
 *
 * Rank r of n, before MPI_Init, sets TOPOMAP_PROC_KIND to cpu (rank 0),
 * gpu (1) or fpga (2, not a kind), or unsets it (3), and touches 16 MiB.
 * Its buffers, page-aligned, are host (4 KiB, unmarked), pinned, device
 * and managed memory (64 KiB each, marked for the stand-in).  To r+1, all
 * on MPI_COMM_WORLD, receives pre-posted:
 *   3 Send of 100 B from host offsets 0, 100, 200;
 *   2 Send of 200 B from pinned offsets 0, 8192;
 *   300 B from device offsets 0, 4096, 20000, 60000 by Send, Isend, Ssend
 *     and Sendrecv;
 *   a Send of 400 B from managed memory;
 *   a persistent send of 500 B from device offset 32768, started 3 times;
 * then an Allreduce in place of 64 doubles in managed memory (offset
 * 8192), a Bcast of 1000 B from pinned offset 16384 with root 0, and a Put
 * of 8 B from device offset 40000 to r+1 between two fences.  Before
 * MPI_Finalize, even ranks have a context on device r with (r+1) MiB in
 * use (odd ranks none).  After it, rank r prints
 *   rank R queries Q forbidden F
 * the stand-in's count of cuPointerGetAttributes calls and of calls that
 * would create or switch a context (-1 -1 when it is not loaded).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SHIM_PINNED = 1, SHIM_DEVICE = 2, SHIM_MANAGED = 3 };

static void *shim;

/* A function of the stand-in. */
static void *fn(const char *name)
{
    void *f = shim ? dlsym(shim, name) : NULL;
    if (shim && !f) {
        fprintf(stderr, "memkinds: the stand-in has no %s\n", name);
        exit(1);
    }
    return f;
}

static void load(const char *path)
{
    shim = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!shim) {
        fprintf(stderr, "memkinds: %s\n", dlerror());
        exit(1);
    }
}

static char *buffer(size_t size, int kind)
{
    char *p = aligned_alloc(4096, size);
    if (!p)
        exit(1);
    memset(p, 1, size);
    int (*mark)(const void *, size_t, int) =
        (int (*)(const void *, size_t, int))fn("cushim_mark");
    if (mark && kind)
        mark(p, size, kind);
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const char *mode = argv[1];
    /* The rank before MPI_Init, as the launcher tells it: Open MPI's
     * mpirun, or PMI_RANK (MPICH's Hydra). */
    const char *e = getenv("OMPI_COMM_WORLD_RANK");
    if (!e)
        e = getenv("PMI_RANK");
    int me = e ? atoi(e) : 0;
    const char *const proc[] = {"cpu", "gpu", "fpga"};
    if (me < 3)
        setenv("TOPOMAP_PROC_KIND", proc[me], 1);
    else
        unsetenv("TOPOMAP_PROC_KIND");
    char *big = malloc(16 << 20);
    if (!big)
        return 1;
    memset(big, 1, 16 << 20);

    if (strcmp(mode, "early") == 0)
        load(argv[2]);
    MPI_Init(&argc, &argv);
    if (strcmp(mode, "late") == 0) {
        load(argv[2]);
        struct timespec ms = {0, 10000000};
        while (nanosleep(&ms, &ms) != 0)
            ;
    }
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int next = (r + 1) % n, prev = (r + n - 1) % n;
    char *host = buffer(4096, 0), *pinned = buffer(65536, SHIM_PINNED),
         *device = buffer(65536, SHIM_DEVICE),
         *managed = buffer(65536, SHIM_MANAGED);

    static char in[16][512];
    MPI_Request q[16], s;
    int nq = 0;
    for (int tag = 1; tag <= 10; tag++)
        if (tag != 9) /* Sendrecv receives its own */
            MPI_Irecv(in[nq], 512, MPI_BYTE, prev, tag, MPI_COMM_WORLD,
                      &q[nq]), nq++;
    for (int k = 0; k < 3; k++)
        MPI_Irecv(in[nq], 512, MPI_BYTE, prev, 11, MPI_COMM_WORLD, &q[nq]),
            nq++;
    MPI_Barrier(MPI_COMM_WORLD);

    for (int k = 0; k < 3; k++)
        MPI_Send(host + 100 * k, 100, MPI_BYTE, next, 1 + k, MPI_COMM_WORLD);
    MPI_Send(pinned, 200, MPI_BYTE, next, 4, MPI_COMM_WORLD);
    MPI_Send(pinned + 8192, 200, MPI_BYTE, next, 5, MPI_COMM_WORLD);
    MPI_Send(device, 300, MPI_BYTE, next, 6, MPI_COMM_WORLD);
    MPI_Isend(device + 4096, 300, MPI_BYTE, next, 7, MPI_COMM_WORLD, &s);
    MPI_Ssend(device + 20000, 300, MPI_BYTE, next, 8, MPI_COMM_WORLD);
    MPI_Sendrecv(device + 60000, 300, MPI_BYTE, next, 9, in[15], 512,
                 MPI_BYTE, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(managed, 400, MPI_BYTE, next, 10, MPI_COMM_WORLD);
    MPI_Request p;
    MPI_Send_init(device + 32768, 500, MPI_BYTE, next, 11, MPI_COMM_WORLD, &p);
    for (int k = 0; k < 3; k++) {
        MPI_Start(&p);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&p);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Waitall(nq, q, MPI_STATUSES_IGNORE);

    MPI_Allreduce(MPI_IN_PLACE, managed + 8192, 64, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Bcast(pinned + 16384, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Win win;
    MPI_Win_create(host + 2048, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(device + 40000, 8, MPI_BYTE, next, 0, 8, MPI_BYTE, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    void (*context)(int, size_t) = (void (*)(int, size_t))fn("cushim_context");
    if (context && r % 2 == 0)
        context(r, (size_t)(r + 1) << 20);
    MPI_Finalize();
    int queries = -1, forbidden = -1;
    void (*counts)(int *, int *) = (void (*)(int *, int *))fn("cushim_counts");
    if (counts)
        counts(&queries, &forbidden);
    printf("rank %d queries %d forbidden %d\n", r, queries, forbidden);
    free(big);
    return 0;
}
