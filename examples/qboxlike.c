/* qboxlike.c: an MPI application with Qbox's communication pattern
 * (papers/001, 4.1.2): a 2-D process grid of rows x cols ranks, rank =
 * row * cols + col; every iteration each rank exchanges a halo with its
 * left and right neighbours in its row (point-to-point, a ring), runs an
 * Alltoall in its column (a sub-communicator from MPI_Comm_split), and all
 * ranks run one global Allreduce.  Bytes are known exactly:
 *
 *   p2p        BYTES to each row neighbour per iteration (a row of two
 *              ranks: 2 x BYTES to the one neighbour; of one: none)
 *   alltoall   a block of BYTES to each member of the column per iteration
 *   allreduce  8 doubles (64 bytes) per iteration, on MPI_COMM_WORLD
 *
 * The data are a function of rank and iteration, so the checksum printed
 * at the end is the same on every run. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_args.h"

static const char usage_text[] =
    "Usage: mpirun -np P qboxlike [--rows R --cols C] [--bytes N] [--iters K]\n"
    "A Qbox-like 2-D process grid of R x C = P ranks (default: from\n"
    "MPI_Dims_create): each iteration a halo exchange with the row\n"
    "neighbours, an Alltoall in each column and a global Allreduce.\n"
    "  --rows R    grid rows (with --cols; 0: from MPI_Dims_create)\n"
    "  --cols C    grid columns\n"
    "  --bytes N   halo message and Alltoall block size (default 65536)\n"
    "  --iters K   iterations (default 10)\n"
    "Prints one line with the grid and a checksum.\n";

/* A rank's data in iteration `it`: byte i is rank * 31 + it * 7 + i,
 * mod 256. */
static void fill(unsigned char *buf, size_t n, int rank, int it)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(rank * 31 + it * 7 + (int)(i % 256));
}

static double sum(const unsigned char *buf, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += buf[i];
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long rows = 0, cols = 0, bytes = 65536, iters = 10;
    example_opt opts[] = {{"--rows", EXAMPLE_INT, &rows, 0, 1 << 20},
                          {"--cols", EXAMPLE_INT, &cols, 0, 1 << 20},
                          {"--bytes", EXAMPLE_INT, &bytes, 1, 1 << 30},
                          {"--iters", EXAMPLE_INT, &iters, 1, 1 << 20}};
    int rc = example_parse_args("qboxlike", usage_text, argc, argv, opts, 4,
                                rank);
    if (rc < 0 && !rows && !cols) {
        int dims[2] = {0, 0};
        MPI_Dims_create(size, 2, dims);
        rows = dims[0];
        cols = dims[1];
    }
    if (rc < 0 && rows * cols != size) {
        if (rank == 0)
            fprintf(stderr, "qboxlike: a grid of %lld x %lld does not hold "
                    "%d ranks (see --help)\n", rows, cols, size);
        rc = 2;
    }
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }
    int nrows = (int)rows, ncols = (int)cols;
    size_t n = (size_t)bytes;

    int row = rank / ncols, col = rank % ncols;
    int left = row * ncols + (col + ncols - 1) % ncols;
    int right = row * ncols + (col + 1) % ncols;
    MPI_Comm column;
    MPI_Comm_split(MPI_COMM_WORLD, col, row, &column);

    unsigned char *out = malloc(n), *in = malloc(n),
                  *a2a_out = malloc(n * (size_t)nrows),
                  *a2a_in = malloc(n * (size_t)nrows);
    if (!out || !in || !a2a_out || !a2a_in) {
        fprintf(stderr, "qboxlike: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double check = 0;
    for (int it = 0; it < (int)iters; it++) {
        double local[8] = {0};
        /* Halo along the row: to the right, then to the left. */
        if (ncols > 1) {
            fill(out, n, rank, it);
            MPI_Sendrecv(out, (int)n, MPI_BYTE, right, 0, in, (int)n,
                         MPI_BYTE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            local[0] = sum(in, n);
            MPI_Sendrecv(out, (int)n, MPI_BYTE, left, 1, in, (int)n,
                         MPI_BYTE, right, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            local[1] = sum(in, n);
        }
        /* The column's transpose: block r for the member in row r. */
        for (int r = 0; r < nrows; r++)
            fill(a2a_out + (size_t)r * n, n, rank + r, it);
        MPI_Alltoall(a2a_out, (int)n, MPI_BYTE, a2a_in, (int)n, MPI_BYTE,
                     column);
        local[2] = sum(a2a_in, n * (size_t)nrows);
        /* The global sum (an energy, say): integers, so exact. */
        double global[8];
        MPI_Allreduce(local, global, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        check += global[0] + global[1] + global[2];
    }
    if (rank == 0)
        printf("qboxlike: %d ranks, grid %dx%d, %zu bytes, %lld iterations, "
               "checksum %.0f\n", size, nrows, ncols, n, iters, check);
    free(out);
    free(in);
    free(a2a_out);
    free(a2a_in);
    MPI_Comm_free(&column);
    MPI_Finalize();
    return 0;
}
