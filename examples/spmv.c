/* spmv.c: an irregular sparse matrix-vector product; an example
 * application for topomap.
 *
 *   mpirun -np P spmv [--points N] [--radius R] [--iters K] [--seed S]
 *
 * The matrix has the structure of the random geometric graph of
 * `taskgraph gen random-geometric --tasks N --radius R --seed S` (N points
 * in the unit square, an edge between every two closer than R), plus the
 * diagonal; every rank builds it with libtaskgraph.  Rows are dealt out
 * the way a mesh code partitions its points: sorted by the Morton (Z-order)
 * key of the point (x and y scaled to 16-bit integers, the bits of x in the
 * even positions), ties by index, and cut into P consecutive chunks, chunk
 * r being sorted positions floor(r N / P) to floor((r + 1) N / P) - 1.
 * Chunks are compact but irregular regions, so each rank talks to a
 * varying set of ranks, with varying volumes.
 *
 * In each of K iterations, rank r sends rank s, in one message, the
 * entries x_i of its rows i that have a neighbour in s's rows (8 bytes
 * each, in increasing i), then every row is replaced by the average of
 * itself and its neighbours: y_i = (x_i + sum of x_j over neighbours j in
 * increasing j) / (degree_i + 1).  Initially x_i = (7919 i) mod 1000.
 * Additions in a fixed order and one division make y_i the same bits
 * whatever P is, so the checksum does not depend on the rank count:
 *   checksum = sum over i of mix(bits(x_i) + (i + 1) * 0x9e3779b97f4a7c15),
 * mod 2^64, mix being splitmix64's finaliser.  Rank 0 prints one line.
 * tests/examples_check.py recomputes the pattern and the checksum.
 */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_args.h"
#include "example_mix.h"
#include "taskgraph.h"

static uint64_t spread16(uint64_t v)
{
    v &= 0xffff;
    v = (v | (v << 8)) & 0x00ff00ff;
    v = (v | (v << 4)) & 0x0f0f0f0f;
    v = (v | (v << 2)) & 0x33333333;
    return (v | (v << 1)) & 0x55555555;
}

/* Morton key in the high 32 bits, index in the low 32: sorting these
 * sorts by key, ties by index. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void *alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "spmv: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Sort and drop repeats; returns the new length. */
static size_t sort_unique(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (m == 0 || v[k] != v[m - 1])
            v[m++] = v[k];
    return m;
}

/* The entries to exchange with each other rank: pairs rank * N + point,
 * sorted, so the points for one rank are consecutive and increasing. */
typedef struct plan {
    size_t nsend, nrecv;
    uint64_t *send, *recv;
} plan;

static void make_plan(const tg_graph *g, const int *owner, int me,
                      const int *rows, int nrows, plan *p)
{
    size_t max = (size_t)g->xadj[g->n];
    p->send = alloc(max, sizeof *p->send);
    p->recv = alloc(max, sizeof *p->recv);
    p->nsend = p->nrecv = 0;
    uint64_t n = (uint64_t)g->n;
    for (int k = 0; k < nrows; k++) {
        int i = rows[k];
        for (int64_t e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
            int j = g->adjncy[e], s = owner[j];
            if (s == me)
                continue;
            p->send[p->nsend++] = (uint64_t)s * n + (uint64_t)i;
            p->recv[p->nrecv++] = (uint64_t)s * n + (uint64_t)j;
        }
    }
    p->nsend = sort_unique(p->send, p->nsend);
    p->nrecv = sort_unique(p->recv, p->nrecv);
}

/* Post one message per peer rank from the run of list entries for it:
 * Isend (pack from x) or Irecv (into buf). */
static int post(const uint64_t *list, size_t len, uint64_t n, double *buf,
                const double *x, int send, MPI_Request *req)
{
    int nreq = 0;
    for (size_t a = 0; a < len;) {
        size_t b = a;
        int peer = (int)(list[a] / n);
        while (b < len && (int)(list[b] / n) == peer) {
            if (send)
                buf[b] = x[list[b] % n];
            b++;
        }
        if (send)
            MPI_Isend(buf + a, (int)(b - a), MPI_DOUBLE, peer, 0,
                      MPI_COMM_WORLD, &req[nreq++]);
        else
            MPI_Irecv(buf + a, (int)(b - a), MPI_DOUBLE, peer, 0,
                      MPI_COMM_WORLD, &req[nreq++]);
        a = b;
    }
    return nreq;
}

static const char usage_text[] =
    "Usage: mpirun -np P spmv [--points N] [--radius R] [--iters K] "
    "[--seed S]\n"
    "A sparse matrix-vector product whose matrix is the random geometric\n"
    "graph of N points (taskgraph gen random-geometric), rows partitioned\n"
    "along a Morton curve, so the ranks exchange irregular halos.\n"
    "  --points N  rows of the matrix (default 20000)\n"
    "  --radius R  points closer than R are coupled (default 0.02)\n"
    "  --iters K   products (default 100)\n"
    "  --seed S    seed of the points (default 1)\n"
    "Prints one line with the sizes and a checksum of the final vector,\n"
    "the same for every rank count.\n";

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    long long npoints = 20000, iters = 100, seed = 1;
    double radius = 0.02;
    example_opt opts[] = {
        {"--points", EXAMPLE_INT, &npoints, 1, 1 << 26},
        {"--radius", EXAMPLE_REAL, &radius, 0, 2},
        {"--iters", EXAMPLE_INT, &iters, 0, 1 << 30},
        {"--seed", EXAMPLE_INT, &seed, 0, 0x1p62}};
    int rc = example_parse_args("spmv", usage_text, argc, argv, opts, 4, me);
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }

    tg_rgg_options ro = {.n = (int)npoints, .radius = radius,
                         .seed = (uint64_t)seed, .bytes = 8};
    tg_graph *g = NULL;
    tg_error err;
    if (tg_gen_rgg(&ro, &g, &err)) {
        char text[1100];
        if (me == 0)
            fprintf(stderr, "spmv: %s\n",
                    tg_error_format(&err, text, sizeof text));
        MPI_Finalize();
        return 2;
    }
    int n = g->n;
    /* x and y hold the points first, then the vector and the product. */
    double *x = alloc((size_t)n, sizeof *x), *y = alloc((size_t)n, sizeof *y);
    uint64_t *order = alloc((size_t)n, sizeof *order);
    tg_rgg_points(n, (uint64_t)seed, x, y);
    for (int i = 0; i < n; i++) {
        uint64_t key = spread16((uint64_t)(x[i] * 65536.0)) |
                       spread16((uint64_t)(y[i] * 65536.0)) << 1;
        order[i] = key << 32 | (uint64_t)i;
    }
    qsort(order, (size_t)n, sizeof *order, cmp_u64);
    int *owner = alloc((size_t)n, sizeof *owner);
    int *rows = alloc((size_t)n, sizeof *rows), nrows = 0;
    for (int r = 0, p = 0; r < nranks; r++)
        for (int end = (int)((int64_t)(r + 1) * n / nranks); p < end; p++) {
            int i = (int)(order[p] & 0xffffffff);
            owner[i] = r;
            if (r == me)
                rows[nrows++] = i;
        }
    free(order);

    plan pl;
    make_plan(g, owner, me, rows, nrows, &pl);
    double *sendbuf = alloc(pl.nsend, sizeof *sendbuf);
    double *recvbuf = alloc(pl.nrecv, sizeof *recvbuf);
    MPI_Request *req = alloc(2 * (size_t)nranks, sizeof *req);

    for (int i = 0; i < n; i++)
        x[i] = (double)((7919 * (int64_t)i) % 1000);
    for (long long it = 0; it < iters; it++) {
        int nreq = post(pl.recv, pl.nrecv, (uint64_t)n, recvbuf, x, 0, req);
        nreq += post(pl.send, pl.nsend, (uint64_t)n, sendbuf, x, 1,
                     req + nreq);
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        for (size_t k = 0; k < pl.nrecv; k++)
            x[pl.recv[k] % (uint64_t)n] = recvbuf[k];
        for (int k = 0; k < nrows; k++) {
            int i = rows[k];
            double s = x[i];
            for (int64_t e = g->xadj[i]; e < g->xadj[i + 1]; e++)
                s += x[g->adjncy[e]];
            y[i] = s / (double)(g->xadj[i + 1] - g->xadj[i] + 1);
        }
        for (int k = 0; k < nrows; k++)
            x[rows[k]] = y[rows[k]];
    }

    uint64_t mine = 0, sum = 0;
    for (int k = 0; k < nrows; k++)
        mine += example_term(x[rows[k]], (uint64_t)rows[k] + 1);
    MPI_Reduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("spmv: %d ranks, %d points, radius %g, seed %lld, %" PRId64
               " nonzeros, %lld iterations, checksum %016" PRIx64 "\n",
               nranks, n, radius, seed, (int64_t)n + 2 * g->nedges, iters,
               sum);
    free(x);
    free(y);
    free(owner);
    free(rows);
    free(pl.send);
    free(pl.recv);
    free(sendbuf);
    free(recvbuf);
    free(req);
    tg_graph_free(g);
    MPI_Finalize();
    return 0;
}
