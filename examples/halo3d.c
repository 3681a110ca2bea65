/* halo3d.c: a 3-D halo exchange (the pattern of a 7-point stencil) on a
 * periodic process grid; an example application for topomap.
 *
 *   mpirun -np P halo3d [--bytes N] [--iters K] [--dx A] [--dy B] [--dz C]
 *                       [--reorder R]
 *
 * The P ranks form a periodic grid of MPI_Dims_create(P, 3) dimensions
 * (MPI_Cart_create; rank r of the grid's communicator sits at the
 * row-major coordinates of r, and with --reorder 0, the default, it is
 * world rank r; --reorder 1 lets MPI, or libtopomap-reorder, choose);
 * --dx/--dy/--dz fix dimensions, as an application reading its process
 * grid from its input does (0: MPI_Dims_create's).
 * In each of K iterations every rank sends one message of N bytes to each
 * of its 6 neighbours (-x, +x, -y, +y, -z, +z) and receives one from each.
 * Along a dimension of 2 both neighbours are the same rank, which then gets
 * 2 messages; along a dimension of 1 the rank sends to itself.
 *
 * Each rank's state is 6 faces of N bytes, face d being what it sends in
 * direction d; r below is the rank in the grid, its position, so that the
 * result is the same whichever process holds each position.  The update stands in for the stencil arithmetic: it is
 * integer-exact, so the result does not depend on timing, and mixes every
 * received byte into the state, so the checksum tells whether each message
 * reached the right neighbour (tests/examples_check.py recomputes it).
 *   initial   face[d][i] = (r * 131 + d * 31 + i * 7) mod 256
 *   halo[d]   what the neighbour on side d sent towards this rank
 *   update    face[d][i] = 5 face[d][i] + 3 halo[d][i]
 *                          + halo[(d + 1) mod 6][i] + d + 1   (mod 256)
 *   checksum  sum over ranks r of (2r + 1) * FNV-1a(faces of r), mod 2^64
 * Rank 0 prints one line: the grid, the sizes and the checksum.
 */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_args.h"

/* Direction d: dimension d / 2, towards lower (even d) or higher (odd d)
 * coordinates; the opposite direction is d ^ 1. */
enum { NDIRS = 6 };

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static const char usage_text[] =
    "Usage: mpirun -np P halo3d [--bytes N] [--iters K] [--dx A] [--dy B] "
    "[--dz C] [--reorder R]\n"
    "A 3-D halo exchange on a periodic grid of MPI_Dims_create(P, 3) ranks:\n"
    "each iteration, every rank sends N bytes to each of its 6 neighbours.\n"
    "  --bytes N   bytes per message (default 4096)\n"
    "  --iters K   iterations (default 100)\n"
    "  --dx A, --dy B, --dz C\n"
    "              fix the grid's dimensions (default 0: MPI_Dims_create's\n"
    "              choice); those given must divide P, all three multiply\n"
    "              to P\n"
    "  --reorder R MPI_Cart_create's reorder: 0 (the default) or 1\n"
    "Prints one line with the grid and a checksum of the final state.\n";

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    long long bytes = 4096, iters = 100, fixed[3] = {0, 0, 0}, reorder = 0;
    example_opt opts[] = {{"--bytes", EXAMPLE_INT, &bytes, 1, 1 << 30},
                          {"--iters", EXAMPLE_INT, &iters, 0, 1 << 30},
                          {"--dx", EXAMPLE_INT, &fixed[0], 0, 1 << 30},
                          {"--dy", EXAMPLE_INT, &fixed[1], 0, 1 << 30},
                          {"--dz", EXAMPLE_INT, &fixed[2], 0, 1 << 30},
                          {"--reorder", EXAMPLE_INT, &reorder, 0, 1}};
    int rc = example_parse_args("halo3d", usage_text, argc, argv, opts, 6,
                                rank);
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }

    /* MPI_Dims_create is erroneous when the fixed dimensions do not divide
     * the rank count (or, all fixed, do not multiply to it): say so. */
    int dims[3], periods[3] = {1, 1, 1}, nfree = 0;
    long long prod = 1;
    for (int k = 0; k < 3; k++) {
        dims[k] = (int)fixed[k];
        if (fixed[k])
            prod *= fixed[k];
        else
            nfree++;
    }
    if (nranks % prod != 0 || (nfree == 0 && prod != nranks)) {
        if (rank == 0)
            fprintf(stderr,
                    "halo3d: --dx %lld --dy %lld --dz %lld do not fit %d "
                    "ranks: the fixed dimensions must divide it (and, all "
                    "three fixed, multiply to it)\n",
                    fixed[0], fixed[1], fixed[2], nranks);
        MPI_Finalize();
        return 2;
    }
    MPI_Dims_create(nranks, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, (int)reorder, &cart);
    int me; /* position in the grid */
    MPI_Comm_rank(cart, &me);
    int nbr[NDIRS];
    for (int k = 0; k < 3; k++)
        MPI_Cart_shift(cart, k, 1, &nbr[2 * k], &nbr[2 * k + 1]);

    size_t n = (size_t)bytes;
    unsigned char *face = malloc(NDIRS * n), *halo = malloc(NDIRS * n);
    if (!face || !halo) {
        fprintf(stderr, "halo3d: rank %d: out of memory for 12 x %zu bytes\n",
                rank, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int d = 0; d < NDIRS; d++)
        for (size_t i = 0; i < n; i++)
            face[d * n + i] = (unsigned char)(me * 131 + d * 31 + i * 7);

    for (long long it = 0; it < iters; it++) {
        /* A message going in direction d carries tag d, and arrives from
         * the receiver's side d ^ 1: the tags keep the two messages apart
         * when both neighbours are one rank. */
        MPI_Request req[2 * NDIRS];
        for (int d = 0; d < NDIRS; d++) {
            MPI_Irecv(halo + d * n, (int)n, MPI_UNSIGNED_CHAR, nbr[d], d ^ 1,
                      cart, &req[d]);
            MPI_Isend(face + d * n, (int)n, MPI_UNSIGNED_CHAR, nbr[d], d,
                      cart, &req[NDIRS + d]);
        }
        MPI_Waitall(2 * NDIRS, req, MPI_STATUSES_IGNORE);
        for (int d = 0; d < NDIRS; d++) {
            const unsigned char *h = halo + d * n;
            const unsigned char *h1 = halo + ((d + 1) % NDIRS) * n;
            unsigned char *f = face + d * n;
            for (size_t i = 0; i < n; i++)
                f[i] = (unsigned char)(5 * f[i] + 3 * h[i] + h1[i] + d + 1);
        }
    }

    uint64_t mine = (2 * (uint64_t)me + 1) *
                    fnv1a(face, NDIRS * n, 0xcbf29ce484222325ULL);
    uint64_t sum = 0;
    MPI_Reduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, cart);
    if (me == 0)
        printf("halo3d: %d ranks, grid %dx%dx%d, %lld bytes per message, "
               "%lld iterations, checksum %016" PRIx64 "\n",
               nranks, dims[0], dims[1], dims[2], bytes, iters, sum);
    free(face);
    free(halo);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
