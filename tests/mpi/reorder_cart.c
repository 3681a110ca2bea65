/* reorder_cart.c: MPI_Cart_create under libtopomap-reorder.
 *
 *   reorder_cart HOSTS NDIMS D0 .. P0 .. REORDER [ON]
 *
 * HOSTS is the pretend host of every world rank ("a,b,a,b,..."), Di the
 * dimensions (all 0: from MPI_Dims_create on the communicator's size), Pi
 * the periods.  ON says which communicator the grid is made on: world
 * (the default) MPI_COMM_WORLD; reversed, first a copy of MPI_COMM_WORLD
 * in reverse order (its rank 0 is the last world rank), then
 * MPI_COMM_WORLD: two calls in turn whose rank 0 are two processes;
 * halves, MPI_COMM_WORLD split into its even and its odd ranks, one grid
 * on each half at the same time.  Each grid is checked to be a valid
 * topology communicator on every rank: its dims and periods, Cart_coords
 * and Cart_rank inverse, Cart_shift against the coordinates, a
 * neighbourhood allgather in Cart_shift's order, and one order that all
 * ranks agree on.  Rank 0 of each grid prints
 *   dims D0xD1.. identity X result Y
 *   map W0 W1 ..
 * X and Y: bytes (one per direction and neighbour) between ranks on two
 * hosts in MPI's order and in the returned order; map: the world rank
 * of each rank of the grid.  With REORDER 0 the communicator must be
 * congruent to what PMPI_Cart_create makes.  A grid smaller than its
 * communicator leaves the other ranks out (MPI_COMM_NULL): exactly size -
 * grid of them.  Exit 1 when a check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reorder_check.h"

#define MAXD 8

/* Rank of the neighbour of t at dir in dimension d, or -1. */
static int neighbour(int nd, const int *dims, const int *periods, int t,
                     int d, int dir)
{
    int c[MAXD], r = t;
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
    c[d] += dir;
    if (c[d] < 0 || c[d] >= dims[d]) {
        if (!periods[d])
            return -1;
        c[d] = (c[d] + dims[d]) % dims[d];
    }
    int q = 0;
    for (int i = 0; i < nd; i++)
        q = q * dims[i] + c[i];
    return q;
}

/* The grid of dims_in (all 0: MPI_Dims_create's) on old, checked as
 * above; rank 0 of the grid prints.  0, or -1 (said by old's rank 0)
 * when the grid needs more ranks than old has. */
static int grid(MPI_Comm old, int nd, const int *dims_in,
                const int *periods, int reorder, const int *host)
{
    int size, wsize, me;
    MPI_Comm_size(old, &size);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int dims[MAXD];
    for (int d = 0; d < nd; d++)
        dims[d] = dims_in[d];
    if (dims[0] == 0)
        MPI_Dims_create(size, nd, dims);
    int n = 1;
    for (int d = 0; d < nd; d++)
        n *= dims[d];
    if (n > size) {
        int r;
        MPI_Comm_rank(old, &r);
        if (r == 0)
            fprintf(stderr, "reorder_cart: the grid needs %d ranks\n", n);
        return -1;
    }
    MPI_Comm cart;
    MPI_Cart_create(old, nd, dims, periods, reorder, &cart);
    /* What MPI itself makes, for reorder = 0 (collective: every rank). */
    MPI_Comm direct = MPI_COMM_NULL;
    if (!reorder)
        PMPI_Cart_create(old, nd, dims, periods, 0, &direct);
    int in_grid = cart != MPI_COMM_NULL, members;
    MPI_Allreduce(&in_grid, &members, 1, MPI_INT, MPI_SUM, old);
    rc_expect(members == n, "ranks in the grid", members, n);
    if (cart != MPI_COMM_NULL) {
        int r, csize, topo, ndims, gd[MAXD], gp[MAXD], gc[MAXD], c[MAXD];
        MPI_Comm_rank(cart, &r);
        MPI_Comm_size(cart, &csize);
        MPI_Topo_test(cart, &topo);
        MPI_Cartdim_get(cart, &ndims);
        rc_expect(csize == n && topo == MPI_CART && ndims == nd,
                  "size and kind", csize, topo);
        MPI_Cart_get(cart, nd, gd, gp, gc);
        MPI_Cart_coords(cart, r, nd, c);
        int back;
        MPI_Cart_rank(cart, c, &back);
        rc_expect(back == r, "Cart_rank(Cart_coords(r)) == r", back, r);
        for (int d = 0; d < nd; d++) {
            rc_expect(gd[d] == dims[d] && !gp[d] == !periods[d],
                      "Cart_get dims and periods", gd[d], gp[d]);
            rc_expect(gc[d] == c[d], "Cart_get coords", gc[d], c[d]);
        }
        int got[2 * MAXD], want[2 * MAXD];
        for (int d = 0; d < nd; d++) {
            int src, dst;
            MPI_Cart_shift(cart, d, 1, &src, &dst);
            int es = neighbour(nd, dims, periods, r, d, -1);
            int ed = neighbour(nd, dims, periods, r, d, +1);
            rc_expect(src == (es < 0 ? MPI_PROC_NULL : es), "Cart_shift source",
                      src, es);
            rc_expect(dst == (ed < 0 ? MPI_PROC_NULL : ed), "Cart_shift dest",
                      dst, ed);
            want[2 * d] = es;
            want[2 * d + 1] = ed;
            got[2 * d] = got[2 * d + 1] = -1;
        }
        /* Every neighbour sends its rank: the buffer follows Cart_shift. */
        MPI_Neighbor_allgather(&r, 1, MPI_INT, got, 1, MPI_INT, cart);
        for (int i = 0; i < 2 * nd; i++)
            rc_expect(got[i] == want[i], "Neighbor_allgather", got[i],
                      want[i]);
        int *world = malloc((size_t)n * sizeof *world);
        rc_world_map(cart, world);
        /* All ranks agree: one permutation, the same on every rank. */
        int *seen = calloc((size_t)wsize, sizeof *seen), sum = 0;
        for (int t = 0; t < n; t++)
            seen[world[t]]++;
        for (int w = 0; w < wsize; w++)
            rc_expect(seen[w] <= 1, "each world rank once", w, seen[w]);
        rc_expect(world[r] == me, "map[my rank] == me", world[r], me);
        for (int t = 0; t < n; t++)
            sum = (int)(((unsigned)sum * 31u + (unsigned)world[t]) % 1000000007u);
        int lo = sum, hi = sum;
        MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, cart);
        MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, cart);
        rc_expect(lo == hi, "the same map on every rank", lo, hi);
        if (!reorder) {
            int cmp;
            MPI_Comm_compare(cart, direct, &cmp);
            rc_expect(cmp == MPI_CONGRUENT,
                      "reorder = 0: congruent to PMPI_Cart_create's", cmp,
                      MPI_CONGRUENT);
        }
        if (r == 0) {
            int *src = malloc(2 * MAXD * (size_t)n * sizeof *src);
            int *dst = malloc(2 * MAXD * (size_t)n * sizeof *dst);
            int *ident = malloc((size_t)n * sizeof *ident), ne = 0;
            for (int t = 0; t < n; t++) {
                ident[t] = t;
                for (int d = 0; d < nd; d++)
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int q = neighbour(nd, dims, periods, t, d, dir);
                        if (q >= 0 && q != t) {
                            src[ne] = t;
                            dst[ne++] = q;
                        }
                    }
            }
            printf("dims");
            for (int d = 0; d < nd; d++)
                printf("%c%d", d ? 'x' : ' ', dims[d]);
            printf(" ");
            rc_print(rc_offnode(ne, src, dst, NULL, ident, host),
                     rc_offnode(ne, src, dst, NULL, world, host), world, n);
            free(src);
            free(dst);
            free(ident);
        }
        free(seen);
        free(world);
        MPI_Comm_free(&cart);
    }
    if (direct != MPI_COMM_NULL)
        MPI_Comm_free(&direct);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, me;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int nd = argc > 2 ? atoi(argv[2]) : 0;
    const char *on =
        nd >= 1 && argc == 5 + 2 * nd ? argv[4 + 2 * nd] : "world";
    if (nd < 1 || nd > MAXD || (argc != 4 + 2 * nd && argc != 5 + 2 * nd) ||
        (strcmp(on, "world") && strcmp(on, "reversed") &&
         strcmp(on, "halves"))) {
        if (me == 0)
            fprintf(stderr, "usage: reorder_cart HOSTS NDIMS D.. P.. "
                            "REORDER [world|reversed|halves]\n");
        MPI_Finalize();
        return 2;
    }
    int *host = malloc((size_t)size * sizeof *host);
    if (rc_hosts(argv[1], size, host)) {
        if (me == 0)
            fprintf(stderr, "reorder_cart: HOSTS needs %d names\n", size);
        MPI_Finalize();
        return 2;
    }
    int dims[MAXD], periods[MAXD], reorder = atoi(argv[3 + 2 * nd]);
    for (int d = 0; d < nd; d++) {
        dims[d] = atoi(argv[3 + d]);
        periods[d] = atoi(argv[3 + nd + d]);
    }
    int bad;
    if (!strcmp(on, "world")) {
        bad = grid(MPI_COMM_WORLD, nd, dims, periods, reorder, host);
    } else if (!strcmp(on, "reversed")) {
        MPI_Comm rev;
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - me, &rev);
        bad = grid(rev, nd, dims, periods, reorder, host);
        if (!bad)
            bad = grid(MPI_COMM_WORLD, nd, dims, periods, reorder, host);
        MPI_Comm_free(&rev);
    } else {
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
        bad = grid(half, nd, dims, periods, reorder, host);
        MPI_Comm_free(&half);
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int failures = rc_failures();
    free(host);
    MPI_Finalize();
    return bad ? 2 : failures ? 1 : 0;
}
