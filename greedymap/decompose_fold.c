/* decompose_fold.c: embedding a grid of boxes in a torus or mesh whose
 * positions are as many as the boxes, folding dimensions where the shapes
 * differ (a box grid 8x4 on a torus 4x4x2: the 8 becomes 4 x 2).
 *
 * A fold says how many boxes of grid dimension d go along network
 * dimension j (fold[d][j]; the product over j is parts[d], over d the
 * network's size[j]).  Every fold is enumerated, prime factor by prime
 * factor (a table with the prime's exponents in parts[] as row sums and
 * in size[] as column sums), at most FOLD_CAP of them.
 *
 * Under a fold, box coordinate b_d is written in the mixed radix of its
 * network dimensions (the lowest j slowest) as a reflected (boustrophedon)
 * code, so that b_d and b_d + 1 differ by one in one digit only: a
 * dimension folded over two network dimensions runs back and forth like a
 * snake and its neighbouring boxes stay at distance 1.  Where network
 * dimension j takes digits of several grid dimensions, the one with the
 * most bytes crossing its boundaries is fastest (stride 1), the next
 * strided by the first's digit count, and so on (ties: the lower d
 * fastest).
 *
 * The estimate of a fold is the sum over grid dimensions d and step
 * counts s of the bytes stepping s boxes along d (gm_dgrid_steps) times
 * the mean network distance of a step b_d -> b_d + s over all b_d (round
 * the end when d wraps): on a torus, distances add up over network
 * dimensions, so an edge crossing boundaries of two grid dimensions costs
 * about the sum of its steps.  Stencils step one box only; a clique along
 * a dimension (Qbox's columns) steps over several, so that four boxes of
 * one clique fold into a 2x2 square (step 3 one hop) rather than a line
 * (three hops). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

#define FOLD_CAP 100000

typedef struct shape {
    int m[TG_GRID_MAXDIMS];                 /* network dims of d */
    int j[TG_GRID_MAXDIMS][GM_MAX_DIMS];    /* those, slowest first */
    int rad[TG_GRID_MAXDIMS][GM_MAX_DIMS];  /* their digit counts */
    int stride[TG_GRID_MAXDIMS][GM_MAX_DIMS];
} shape;

static void make_shape(const gm_network *net, int k, const double *x,
                       int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS], shape *s)
{
    for (int d = 0; d < k; d++) {
        s->m[d] = 0;
        for (int j = 0; j < net->ndims; j++)
            if (fold[d][j] > 1) {
                s->j[d][s->m[d]] = j;
                s->rad[d][s->m[d]++] = fold[d][j];
            }
    }
    for (int j = 0; j < net->ndims; j++) {
        int done[TG_GRID_MAXDIMS] = {0}, stride = 1;
        for (;;) {
            int pick = -1;
            for (int d = 0; d < k; d++)
                if (fold[d][j] > 1 && !done[d] &&
                    (pick < 0 || x[d] > x[pick]))
                    pick = d;
            if (pick < 0)
                break;
            done[pick] = 1;
            for (int i = 0; i < s->m[pick]; i++)
                if (s->j[pick][i] == j)
                    s->stride[pick][i] = stride;
            stride *= fold[pick][j];
        }
    }
}

/* The reflected mixed-radix digits of b (radices slowest first). */
static void gray(int b, int m, const int *rad, int *g)
{
    int v = b;
    for (int i = 0; i < m; i++) {
        int P = 1;
        for (int t = i + 1; t < m; t++)
            P *= rad[t];
        int digit = v / P, rest = v % P;
        g[i] = digit;
        v = digit & 1 ? P - 1 - rest : rest;
    }
}

static int ring(const gm_network *net, int j, int delta)
{
    int a = abs(delta);
    if (net->wrap[j] && net->size[j] - a < a)
        a = net->size[j] - a;
    return a;
}

/* The network distance between boxes b and c along grid dimension d,
 * every other coordinate equal. */
static int step(const gm_network *net, const shape *s, int d, int b, int c)
{
    int gb[GM_MAX_DIMS], gc[GM_MAX_DIMS], dist = 0;
    gray(b, s->m[d], s->rad[d], gb);
    gray(c, s->m[d], s->rad[d], gc);
    for (int i = 0; i < s->m[d]; i++)
        dist += ring(net, s->j[d][i], (gc[i] - gb[i]) * s->stride[d][i]);
    return dist;
}

static double estimate(const gm_network *net, int k, const int *parts,
                       const int *per, const double *x,
                       const gm_box_steps *st,
                       int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS])
{
    shape s;
    make_shape(net, k, x, fold, &s);
    double cost = 0;
    for (int d = 0; d < k; d++) {
        if (parts[d] == 1)
            continue;
        for (int i = 0; i < st->n[d]; i++) {
            int by = st->step[d][i];
            int64_t sum = 0, steps = 0;
            for (int b = 0; b + by < parts[d]; b++, steps++)
                sum += step(net, &s, d, b, b + by);
            if (per[d])
                for (int b = parts[d] - by; b < parts[d]; b++, steps++)
                    sum += step(net, &s, d, b, b + by - parts[d]);
            cost += st->bytes[d][by] * (double)sum / (double)steps;
        }
    }
    return cost;
}

typedef struct fold_walk {
    const gm_network *net;
    int k;
    const int *parts, *per;
    const double *x;
    const gm_box_steps *st;
    int nprimes;
    int prime[64];
    int row[64][TG_GRID_MAXDIMS]; /* exponents left, per prime */
    int col[64][GM_MAX_DIMS];
    int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS];
    int64_t count;
    int found;
    int best[TG_GRID_MAXDIMS][GM_MAX_DIMS];
    double cost;
} fold_walk;

static int exponent(int v, int q)
{
    int e = 0;
    while (v % q == 0) {
        v /= q;
        e++;
    }
    return e;
}

static void fold_rec(fold_walk *w, int pi, int d, int j)
{
    if (w->count >= FOLD_CAP)
        return;
    if (pi == w->nprimes) {
        w->count++;
        double c = estimate(w->net, w->k, w->parts, w->per, w->x, w->st,
                            w->fold);
        if (!w->found || c < w->cost) {
            w->found = 1;
            w->cost = c;
            memcpy(w->best, w->fold, sizeof w->fold);
        }
        return;
    }
    const int n = w->net->ndims;
    if (d == w->k) {
        fold_rec(w, pi + 1, 0, 0);
        return;
    }
    int q = w->prime[pi];
    int *row = w->row[pi], *col = w->col[pi];
    int lo = 0, hi = row[d] < col[j] ? row[d] : col[j];
    if (j == n - 1)
        lo = row[d]; /* the row's last cell takes what is left */
    if (d == w->k - 1) /* so does the column's */
        lo = hi = col[j] <= row[d] && (j < n - 1 || col[j] == row[d])
                      ? col[j]
                      : -1;
    if (lo > hi || lo < 0)
        return;
    /* Larger shares first: on equal estimates the fold that keeps grid
     * dimension d on network dimension d (the identity where the shapes
     * match) comes first. */
    for (int e = hi; e >= lo; e--) {
        int mult = 1;
        for (int t = 0; t < e; t++)
            mult *= q;
        row[d] -= e;
        col[j] -= e;
        w->fold[d][j] *= mult;
        if (j == n - 1)
            fold_rec(w, pi, d + 1, 0);
        else
            fold_rec(w, pi, d, j + 1);
        w->fold[d][j] /= mult;
        row[d] += e;
        col[j] += e;
    }
}

int gm_fold_best(const gm_network *net, int k, const int *parts,
                 const int *per, const double *x, const gm_box_steps *st,
                 int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS], double *cost)
{
    fold_walk *w = calloc(1, sizeof *w);
    if (!w)
        return 0;
    w->net = net;
    w->k = k;
    w->parts = parts;
    w->per = per;
    w->x = x;
    w->st = st;
    int64_t total = 1;
    for (int j = 0; j < net->ndims; j++)
        total *= net->size[j];
    int64_t boxes = 1;
    for (int d = 0; d < k; d++)
        boxes *= parts[d];
    int ok = boxes == total;
    /* The primes of the network's sizes: the box counts have the same. */
    for (int j = 0; ok && j < net->ndims; j++) {
        int v = net->size[j];
        for (int q = 2; v > 1; q++) {
            if ((int64_t)q * q > v)
                q = v;
            if (v % q)
                continue;
            while (v % q == 0)
                v /= q;
            int seen = 0;
            for (int i = 0; i < w->nprimes; i++)
                seen |= w->prime[i] == q;
            if (!seen && w->nprimes < 64)
                w->prime[w->nprimes++] = q;
        }
    }
    for (int i = 0; ok && i < w->nprimes; i++) {
        int rows = 0, cols = 0;
        for (int d = 0; d < k; d++)
            rows += w->row[i][d] = exponent(parts[d], w->prime[i]);
        for (int j = 0; j < net->ndims; j++)
            cols += w->col[i][j] = exponent(net->size[j], w->prime[i]);
        ok = rows == cols;
    }
    for (int d = 0; d < k; d++)
        for (int j = 0; j < GM_MAX_DIMS; j++)
            w->fold[d][j] = 1;
    if (ok)
        fold_rec(w, 0, 0, 0);
    int found = w->found;
    if (found) {
        memcpy(fold, w->best, sizeof w->best);
        *cost = w->cost;
    }
    free(w);
    return found;
}

int64_t gm_fold_position(const gm_network *net, int k, const double *x,
                         int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS],
                         const int *b)
{
    shape s;
    make_shape(net, k, x, fold, &s);
    int c[GM_MAX_DIMS] = {0};
    for (int d = 0; d < k; d++) {
        int g[GM_MAX_DIMS];
        gray(b[d], s.m[d], s.rad[d], g);
        for (int i = 0; i < s.m[d]; i++)
            c[s.j[d][i]] += g[i] * s.stride[d][i];
    }
    int64_t pos = 0;
    for (int j = 0; j < net->ndims; j++)
        pos = pos * net->size[j] + c[j];
    return pos;
}
