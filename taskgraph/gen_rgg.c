/* gen_rgg.c: random geometric task graphs.
 *
 * n points uniform in the unit square, an edge of `bytes` between every
 * pair whose distance is below `radius` (no wrap-around).  The points are
 * bucketed into an m x m grid of cells of side >= radius, so a point's
 * neighbours lie in its own cell or in one of the 8 around it, and only
 * those are compared.  m is also capped at sqrt(n): the cell arrays stay
 * O(n), and each cell holds O(1 + n * radius^2) points on average, which
 * makes the expected cost O(n + edges). */
#include <math.h>
#include <stdlib.h>

#include "tg_internal.h"

/* The points, in a documented order so that anyone can reproduce them:
 * a tg_rng seeded with `seed`, then for i = 0 .. n-1, x[i] then y[i], each
 * one tg_rng_uniform draw. */
int tg_rgg_points(int n, uint64_t seed, double *x, double *y)
{
    if (n < 0 || (n > 0 && (!x || !y)))
        return TG_EINVAL;
    tg_rng r;
    tg_rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        x[i] = tg_rng_uniform(&r);
        y[i] = tg_rng_uniform(&r);
    }
    return 0;
}

static int check_options(const tg_rgg_options *o, tg_graph **out,
                         tg_error *err)
{
    if (!o || !out)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "random-geometric: no options or no output "
                            "given");
    if (o->n < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "random-geometric: %d tasks: must be >= 1", o->n);
    /* Written so that NaN fails too.  Beyond sqrt(2), the diagonal of the
     * square, every radius gives the same complete graph. */
    if (!(o->radius > 0 && o->radius <= sqrt(2.0)))
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "random-geometric: radius %g: must be > 0 and "
                            "<= sqrt(2)", o->radius);
    /* 0 is out of range; past 2^63 - 1 a weight does not fit. */
    if (o->bytes < 1 || o->bytes > TG_WEIGHT_MAX)
        return tg_error_set(err, o->bytes ? TG_EOVERFLOW : TG_EINVAL, NULL,
                            0, "random-geometric: bytes is %llu: must be 1 to "
                            "2^63 - 1", (unsigned long long)o->bytes);
    return 0;
}

/* Cells per side.  The side 1/m must be at least the radius; a margin of
 * 1e-9 keeps it so even after the rounding of 1/radius and of x * m, which
 * could otherwise put two close points in cells two apart. */
static int cells_per_side(int n, double radius)
{
    double m = floor((1.0 - 1e-9) / radius);
    double cap = floor(sqrt((double)n));
    if (m > cap)
        m = cap;
    return m < 1 ? 1 : (int)m;
}

static int cell_of(double v, int m)
{
    int c = (int)(v * m);
    return c < m ? c : m - 1;
}

/* A bucketing of the points by cell: the points of cell k are
 * order[start[k] .. start[k+1]-1]. */
typedef struct cells {
    int m;
    int *start; /* m * m + 1 */
    int *order; /* n */
} cells;

static int bucket(const double *x, const double *y, int n, int m, cells *cl)
{
    size_t ncells = (size_t)m * (size_t)m;
    int *cell = malloc((size_t)n * sizeof *cell);
    cl->m = m;
    cl->start = calloc(ncells + 1, sizeof *cl->start);
    cl->order = malloc((size_t)n * sizeof *cl->order);
    if (!cell || !cl->start || !cl->order) {
        free(cell);
        free(cl->start);
        free(cl->order);
        return -1;
    }
    /* A counting sort by cell. */
    for (int i = 0; i < n; i++) {
        cell[i] = cell_of(y[i], m) * m + cell_of(x[i], m);
        cl->start[cell[i] + 1]++;
    }
    for (size_t k = 0; k < ncells; k++)
        cl->start[k + 1] += cl->start[k];
    for (int i = 0; i < n; i++)
        cl->order[cl->start[cell[i]]++] = i;
    /* The fill moved each start to the next cell's; shift back. */
    for (size_t k = ncells; k > 0; k--)
        cl->start[k] = cl->start[k - 1];
    cl->start[0] = 0;
    free(cell);
    return 0;
}

/* Compare the points of cells a and b (a == b: each pair once) and add an
 * edge for every pair closer than the radius. */
static int join_cells(const tg_rgg_options *o, const double *x,
                      const double *y, const cells *cl, int a, int b,
                      tg_builder *bld, tg_error *err)
{
    double r2 = o->radius * o->radius;
    for (int p = cl->start[a]; p < cl->start[a + 1]; p++) {
        int i = cl->order[p];
        for (int q = a == b ? p + 1 : cl->start[b]; q < cl->start[b + 1];
             q++) {
            int j = cl->order[q];
            double dx = x[i] - x[j], dy = y[i] - y[j];
            if (dx * dx + dy * dy < r2) {
                int rc = tg_builder_add(bld, i, j, o->bytes, err);
                if (rc)
                    return rc;
            }
        }
    }
    return 0;
}

/* Join every cell with itself and with the 4 neighbours that come after
 * it (east, and the three to the north), so each pair of adjacent cells is
 * visited once. */
static int join_all(const tg_rgg_options *o, const double *x,
                    const double *y, const cells *cl, tg_builder *bld,
                    tg_error *err)
{
    static const int step[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    int m = cl->m;
    for (int cy = 0; cy < m; cy++)
        for (int cx = 0; cx < m; cx++) {
            int a = cy * m + cx;
            int rc = join_cells(o, x, y, cl, a, a, bld, err);
            for (int s = 0; s < 4 && !rc; s++) {
                int nx = cx + step[s][0], ny = cy + step[s][1];
                if (nx < 0 || nx >= m || ny >= m)
                    continue;
                rc = join_cells(o, x, y, cl, a, ny * m + nx, bld, err);
            }
            if (rc)
                return rc;
        }
    return 0;
}

int tg_gen_rgg(const tg_rgg_options *o, tg_graph **out, tg_error *err)
{
    int rc = check_options(o, out, err);
    if (rc)
        return rc;
    int n = o->n;
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    tg_builder *bld = tg_builder_new(n);
    cells cl = {0, NULL, NULL};
    if (!x || !y || !bld || tg_rgg_points(n, o->seed, x, y) ||
        bucket(x, y, n, cells_per_side(n, o->radius), &cl)) {
        free(x);
        free(y);
        tg_builder_free(bld);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    rc = join_all(o, x, y, &cl, bld, err);
    free(x);
    free(y);
    free(cl.start);
    free(cl.order);
    if (!rc)
        rc = tg_builder_finish_typed(bld, "p2p", out, err);
    tg_builder_free(bld);
    return rc;
}
