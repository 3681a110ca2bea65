/* heat.c: a 2-D Jacobi heat stencil whose ranks run on CPU cores or on a
 * GPU, with their data in the memory kind topomap chose; an example
 * application for topomap's heterogeneous placement (hetero/).
 *
 *   mpirun -np P heat [--rows N] [--cols M] [--iters K]
 *
 * The field has N x M interior points and a fixed boundary around them:
 * global row i (0 to N + 1), column j (0 to M + 1) starts as
 *   1                          on the top row (i = 0),
 *   0.5                        on the left column (j = 0), other rows,
 *   0                          on the bottom row and the right column,
 *   ((37 i + 11 j) mod 64) / 64   inside.
 * Each of K iterations replaces every interior point by
 *   0.25 * ((up + down) + (left + right)),
 * the same expression in the same order in both variants (no product is
 * added to anything, so no compiler can fuse a multiply-add; nvcc also
 * gets -fmad=false).  Rank r owns the band of interior rows floor(r N / P)
 * + 1 to floor((r + 1) N / P) and exchanges one halo row of M doubles with
 * each neighbouring band before each step (MPI_Irecv and MPI_Isend, tag 0
 * going up and 1 going down).
 *
 * TOPOMAP_PROC_KIND (cpu, the default, or gpu) picks the variant and
 * TOPOMAP_MEM_KIND the memory: heat_cpu.c for cpu (dram, the default, hbm,
 * cxl, nvm: host memory first touched by the rank), heat_cuda.cu for gpu
 * (device, the default: cudaMalloc; pinned: cudaMallocHost; managed:
 * cudaMallocManaged).  A CPU rank never calls CUDA.  Halos in device
 * memory go through pinned host buffers unless MPI is CUDA-aware.
 *
 * Every point's value is the same bits whatever P and the variants are, so
 *   checksum = sum over interior points p of
 *              mix(bits(value) + (p + 1) * 0x9e3779b97f4a7c15) mod 2^64,
 * p = (i - 1) M + (j - 1) and mix splitmix64's finaliser, is too
 * (tests/examples_check.py recomputes it).  Rank 0 prints it, the slowest
 * rank's time for the K iterations, and per rank its variant, memory kind,
 * rows, compute seconds (the steps) and communication seconds (the halo
 * exchanges, staging included).
 */
#include <inttypes.h>
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "example_args.h"
#include "example_mix.h"
#include "heat.h"

#define NMEM 7
static const char *const mem_names[NMEM] = {"device", "pinned", "managed",
                                            "dram",   "hbm",    "cxl",
                                            "nvm"};

#ifdef HAVE_CUDA
#define BUILT "This build has the CUDA variant.\n"
#else
#define BUILT "This build has no CUDA variant (configured without CUDA).\n"
#endif

static const char usage_text[] =
    "Usage: mpirun -np P heat [--rows N] [--cols M] [--iters K]\n"
    "A 2-D Jacobi heat stencil on N x M interior points with a fixed\n"
    "boundary, split by rows into P bands that exchange halo rows.\n"
    "  --rows N    interior rows (default 1024; at least P)\n"
    "  --cols M    interior columns (default 1024)\n"
    "  --iters K   iterations (default 100)\n"
    "Each rank runs the variant TOPOMAP_PROC_KIND names, with its data in\n"
    "the memory TOPOMAP_MEM_KIND names (topomap-exec sets both):\n"
    "  cpu (default)  dram (default), hbm, cxl, nvm: host memory, first\n"
    "                 touched by the rank where its memory binding puts it\n"
    "  gpu            device (default): cudaMalloc; pinned: cudaMallocHost;\n"
    "                 managed: cudaMallocManaged\n"
    "Prints a checksum of the final field, the same for any P and either\n"
    "variant, the slowest rank's time, and per rank its variant, memory\n"
    "kind, rows, compute and communication seconds.\n" BUILT;

/* The variant and memory kind the environment asks for; 0, or -1 with
 * why.  Nothing here touches CUDA. */
static int choose(int *gpu, heat_mem *mem, char *why, size_t size)
{
    const char *p = getenv("TOPOMAP_PROC_KIND");
    const char *m = getenv("TOPOMAP_MEM_KIND");
    if (!p || !*p || !strcmp(p, "cpu"))
        *gpu = 0;
    else if (!strcmp(p, "gpu"))
        *gpu = 1;
    else {
        snprintf(why, size, "TOPOMAP_PROC_KIND='%s': not cpu or gpu", p);
        return -1;
    }
    if (!m || !*m) {
        *mem = *gpu ? HEAT_DEVICE : HEAT_DRAM;
    } else {
        int k = 0;
        while (k < NMEM && strcmp(m, mem_names[k]))
            k++;
        if (k == NMEM) {
            snprintf(why, size, "TOPOMAP_MEM_KIND='%s': not a memory kind "
                     "(device, pinned, managed, dram, hbm, cxl, nvm)", m);
            return -1;
        }
        if ((k < HEAT_DRAM) != *gpu) {
            snprintf(why, size, "TOPOMAP_MEM_KIND=%s is for %s ranks, and "
                     "this one is a %s rank (TOPOMAP_PROC_KIND)", m,
                     *gpu ? "CPU" : "GPU", *gpu ? "GPU" : "CPU");
            return -1;
        }
        *mem = (heat_mem)k;
    }
#ifndef HAVE_CUDA
    if (*gpu) {
        snprintf(why, size, "TOPOMAP_PROC_KIND=gpu: built without CUDA");
        return -1;
    }
#endif
    return 0;
}

static int cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    return MPIX_Query_cuda_support();
#else
    return 0;
#endif
}

/* 1 on every rank when some rank failed; each failing rank says why. */
static int any_failed(int failed, int rank, const char *why)
{
    if (failed)
        fprintf(stderr, "heat: rank %d: %s\n", rank, why);
    int any;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return any;
}

/* A failure in the middle of the run, where the other ranks wait. */
static void die(int rank, const char *why)
{
    fprintf(stderr, "heat: rank %d: %s\n", rank, why);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

void heat_initial(const heat_field *f, double *out)
{
    size_t w = (size_t)f->cols + 2;
    for (int r = 0; r < f->rows + 2; r++) {
        long long i = f->row0 + r;
        for (long long j = 0; j < f->cols + 2; j++) {
            double x;
            if (i == 0)
                x = 1.0;
            else if (j == 0)
                x = 0.5;
            else if (i == f->nrows + 1 || j == f->cols + 1)
                x = 0.0;
            else
                x = (double)((37 * i + 11 * j) % 64) / 64.0;
            out[r * w + j] = x;
        }
    }
}

/* Send rows 1 and rows to the bands above and below, receive rows 0 and
 * rows + 1 from them (MPI_PROC_NULL at the ends: the boundary stays). */
static int exchange(const heat_variant *v, heat_field *f, int up, int down,
                    char *why, size_t size)
{
    int n = f->cols;
    size_t w = (size_t)n + 2;
    double *send[2], *recv[2];
    if (f->stage) {
        if (v->halo_out(f, why, size))
            return -1;
        for (int k = 0; k < 2; k++) {
            send[k] = f->stage + (size_t)k * n;
            recv[k] = f->stage + (size_t)(2 + k) * n;
        }
    } else {
        send[0] = f->u + w + 1;
        send[1] = f->u + (size_t)f->rows * w + 1;
        recv[0] = f->u + 1;
        recv[1] = f->u + (size_t)(f->rows + 1) * w + 1;
    }
    MPI_Request req[4];
    MPI_Irecv(recv[0], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(recv[1], n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(send[0], n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(send[1], n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    if (f->stage)
        return v->halo_in(f, up != MPI_PROC_NULL, down != MPI_PROC_NULL, why,
                          size);
    return 0;
}

static uint64_t checksum(const heat_field *f, const double *x)
{
    size_t w = (size_t)f->cols + 2;
    uint64_t sum = 0;
    for (int r = 1; r <= f->rows; r++)
        for (int j = 1; j <= f->cols; j++)
            sum += example_term(x[r * w + j],
                                (uint64_t)(f->row0 + r - 1) * f->cols + j);
    return sum;
}

/* Per rank: variant, memory kind, rows, compute and communication s. */
enum { NSTATS = 5 };

static void report(const heat_field *f, int nranks, long long iters,
                   uint64_t sum, double wall, const double *stats)
{
    printf("heat: %d ranks, grid %lldx%d, %lld iterations, checksum "
           "%016" PRIx64 ", wall %.6f s\n",
           nranks, f->nrows, f->cols, iters, sum, wall);
    for (int r = 0; r < nranks; r++) {
        const double *s = stats + r * NSTATS;
        printf("heat: rank %d: %s, %s, rows %.0f, compute %.6f s, "
               "communication %.6f s\n",
               r, s[0] ? "gpu" : "cpu", mem_names[(int)s[1]], s[2], s[3],
               s[4]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    long long nrows = 1024, ncols = 1024, iters = 100;
    example_opt opts[] = {{"--rows", EXAMPLE_INT, &nrows, 1, 1 << 24},
                          {"--cols", EXAMPLE_INT, &ncols, 1, 1 << 24},
                          {"--iters", EXAMPLE_INT, &iters, 0, 1 << 30}};
    int rc = example_parse_args("heat", usage_text, argc, argv, opts, 3, rank);
    if (rc < 0 && nrows < nranks) {
        if (rank == 0)
            fprintf(stderr, "heat: --rows %lld: fewer rows than the %d "
                    "ranks\n", nrows, nranks);
        rc = 2;
    }
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }

    MPI_Comm node;
    int local_rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);

    char why[256] = "";
    int gpu = 0;
    heat_field f = {0};
    f.nrows = nrows;
    f.cols = (int)ncols;
    f.row0 = rank * nrows / nranks;
    f.rows = (int)((rank + 1) * nrows / nranks - f.row0);
    int failed = choose(&gpu, &f.mem, why, sizeof why);
#ifdef HAVE_CUDA
    const heat_variant *v = gpu ? &heat_cuda : &heat_cpu;
#else
    const heat_variant *v = &heat_cpu; /* choose refused gpu */
#endif
    if (!failed) { /* no collective call here: some ranks may skip it */
        int staged = gpu && f.mem == HEAT_DEVICE && !cuda_aware();
        failed = v->setup(&f, local_rank, staged, why, sizeof why);
    }
    if (any_failed(failed, rank, why)) {
        if (!failed)
            v->teardown(&f);
        MPI_Finalize();
        return 1;
    }

    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
    double compute = 0, comm = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (long long it = 0; it < iters; it++) {
        double t0 = MPI_Wtime();
        if (exchange(v, &f, up, down, why, sizeof why))
            die(rank, why);
        double t1 = MPI_Wtime();
        if (v->step(&f, why, sizeof why))
            die(rank, why);
        double t2 = MPI_Wtime();
        comm += t1 - t0;
        compute += t2 - t1;
    }
    double mine = MPI_Wtime() - start, wall;
    MPI_Reduce(&mine, &wall, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    const double *x = v->view(&f, why, sizeof why);
    if (!x)
        die(rank, why);
    uint64_t part = checksum(&f, x), sum;
    MPI_Allreduce(&part, &sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    double stats[NSTATS] = {gpu, f.mem, f.rows, compute, comm};
    double *all = rank == 0 ? malloc(sizeof stats * nranks) : NULL;
    if (rank == 0 && !all)
        die(rank, "out of memory");
    MPI_Gather(stats, NSTATS, MPI_DOUBLE, all, NSTATS, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
    if (rank == 0)
        report(&f, nranks, iters, sum, wall, all);
    free(all);
    v->teardown(&f);
    MPI_Finalize();
    return 0;
}
