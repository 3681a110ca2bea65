/* decompose.c: Mapple's decompose (papers/004, section 4) generalised:
 * the bytes of a grid's edges by offset, the enumeration of factorisations
 * over prime factors, the cut that crosses fewest bytes, and the choice of
 * the plan that gm_decompose follows (decompose_map.c lays it out).
 *
 * Bytes.  Every edge {a, b} of the graph is an offset between the grid
 * positions of a and b (on a wrapping dimension the shorter way round,
 * +L/2 when both are equal); edges with the same offset form a class.
 * When dimension i of a region of size L is cut into p parts, an edge of
 * offset o stays inside one part along i at L - p|o| of its positions (a
 * part of size s holds s - |o| of them) out of L positions on a wrapping
 * dimension, L - |o| on another (p = 1: all of them).  The positions
 * along the dimensions are independent, so the share of a class that
 * crosses a boundary is 1 - prod_i (inside_i / positions_i), and the cut
 * is the sum over classes of bytes x that share.  That is Mapple's
 * V = (sum_n h_n / w_n) prod l_m (its A.3.1, unequal halo widths) with
 * the bytes measured from the graph, diagonals included: exact when
 * every edge of a class carries the same bytes (stencils, with any bytes
 * per dimension), the bytes of a class spread evenly otherwise.
 *
 * The plan (gm_decompose).  Nodes come in network order: along the torus
 * or mesh's Hilbert curve (gm_hilbert_nodes), by position on fat-trees,
 * dragonflies and graphs (the topology's own host order, which groups
 * hosts by leaf switch or router), by id on flat.  The boxes are as many
 * as the nodes that hold the tasks in that order (B).  When those B nodes
 * all have S slots and the grid has B x S tasks, the boxes are equal and
 * hold S tasks each (exact): parts[i] divides dims[i].  Otherwise (slot
 * counts that differ, fewer tasks than a node's slots on the last node,
 * or no factorisation of B dividing the dimensions) the boxes are the
 * factorisation of B with parts[i] <= dims[i] crossing fewest bytes, of
 * sizes floor(j L / p) to floor((j + 1) L / p), and the tasks flow box
 * after box onto the nodes (each node takes the next `slots` tasks), so a
 * node may hold the end of one box and the start of the next; when B has
 * no such factorisation, the largest box count below B that has one.
 *
 * On a torus or mesh whose every position holds one of the nodes, all
 * needed, the exact boxes are embedded instead: every factorisation and
 * every fold of the box grid into the network (decompose_fold.c) is
 * weighed by estimated hop-bytes and the least taken (ties: fewer bytes
 * cut, then the first enumerated).  On fat-trees, dragonflies and graphs
 * whose B nodes come in equal groups in network order (the hosts under
 * one leaf switch or on one router, at the least distance `near` from
 * each other, `far` between groups), the exact boxes are chosen with
 * the group boxes they make up: the pair minimising near x cut(boxes) +
 * (far - near) x cut(group boxes), each group box onto one group's
 * nodes (decompose_map.c).  Elsewhere (flat) the cut alone decides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* ------------------------------------------------------------ classes */

typedef struct cls_table {
    int k;
    size_t cap, count;
    int *off;       /* cap x k */
    double *bytes;  /* cap; 0: empty slot (bytes are > 0) */
} cls_table;

static size_t cls_hash(const int *o, int k, size_t cap)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < k; i++) {
        h ^= (uint32_t)o[i];
        h *= 1099511628211ULL;
    }
    return (size_t)(h ^ h >> 29) & (cap - 1);
}

static int cls_grow(cls_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    int *off = malloc(cap * (size_t)t->k * sizeof *off);
    double *bytes = calloc(cap, sizeof *bytes);
    if (!off || !bytes) {
        free(off);
        free(bytes);
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (t->bytes[i] == 0)
            continue;
        size_t h = cls_hash(t->off + i * (size_t)t->k, t->k, cap);
        while (bytes[h] != 0)
            h = (h + 1) & (cap - 1);
        memcpy(off + h * (size_t)t->k, t->off + i * (size_t)t->k,
               (size_t)t->k * sizeof *off);
        bytes[h] = t->bytes[i];
    }
    free(t->off);
    free(t->bytes);
    t->off = off;
    t->bytes = bytes;
    t->cap = cap;
    return 0;
}

static int cls_add(cls_table *t, const int *o, double w)
{
    if (2 * (t->count + 1) > t->cap && cls_grow(t))
        return -1;
    size_t h = cls_hash(o, t->k, t->cap);
    while (t->bytes[h] != 0) {
        if (!memcmp(t->off + h * (size_t)t->k, o, (size_t)t->k * sizeof *o)) {
            t->bytes[h] += w;
            return 0;
        }
        h = (h + 1) & (t->cap - 1);
    }
    memcpy(t->off + h * (size_t)t->k, o, (size_t)t->k * sizeof *o);
    t->bytes[h] = w;
    t->count++;
    return 0;
}

static void coords_of(int64_t pos, int k, const int *L, int *c)
{
    for (int i = k - 1; i >= 0; i--) {
        c[i] = (int)(pos % L[i]);
        pos /= L[i];
    }
}

/* Room for gm_dgrid_steps: L[i] + 1 step counts per dimension. */
static int steps_alloc(gm_dgrid *d)
{
    if (!(d->steps = calloc(1, sizeof *d->steps)))
        return -1;
    for (int i = 0; i < d->k; i++) {
        size_t n = (size_t)d->L[i] + 1;
        d->steps->step[i] = malloc(n * sizeof *d->steps->step[i]);
        d->steps->bytes[i] = calloc(n, sizeof *d->steps->bytes[i]);
        if (!d->steps->step[i] || !d->steps->bytes[i])
            return -1;
    }
    return 0;
}

int gm_dgrid_make(const tg_graph *g, const tg_grid *grid, gm_dgrid *d,
                  tg_error *err)
{
    memset(d, 0, sizeof *d);
    int64_t points = 1;
    for (int i = 0; i < grid->ndims && points <= INT32_MAX; i++)
        points *= grid->dims[i] > 0 ? grid->dims[i] : 0;
    if (grid->ndims < 1 || grid->ndims > TG_GRID_MAXDIMS || points != g->n)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "decompose: a grid of %d dimensions and %lld "
                            "points for %d tasks",
                            grid->ndims, (long long)points, g->n);
    d->k = grid->ndims;
    d->n = g->n;
    d->task = grid->task;
    for (int i = 0; i < d->k; i++) {
        d->L[i] = grid->dims[i];
        d->per[i] = grid->periods[i] && grid->dims[i] > 2;
    }
    int *posof = NULL;
    if (grid->task) {
        if (!(posof = malloc(((size_t)g->n + 1) * sizeof *posof)))
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        for (int p = 0; p < g->n; p++)
            posof[grid->task[p]] = p;
    }
    cls_table t = {d->k, 0, 0, NULL, NULL};
    int rc = 0;
    for (int a = 0; a < g->n && !rc; a++) {
        int ca[TG_GRID_MAXDIMS], cb[TG_GRID_MAXDIMS], o[TG_GRID_MAXDIMS];
        coords_of(posof ? posof[a] : a, d->k, d->L, ca);
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1] && !rc; e++) {
            int b = g->adjncy[e];
            if (b < a)
                continue;
            coords_of(posof ? posof[b] : b, d->k, d->L, cb);
            int sign = 0;
            for (int i = 0; i < d->k; i++) {
                int x = cb[i] - ca[i];
                if (d->per[i]) {
                    if (2 * x > d->L[i])
                        x -= d->L[i];
                    else if (2 * x <= -d->L[i])
                        x += d->L[i];
                }
                o[i] = x;
                if (!sign && x)
                    sign = x > 0 ? 1 : -1;
            }
            for (int i = 0; i < d->k; i++)
                o[i] *= sign;
            if (cls_add(&t, o, (double)g->adjwgt[e]))
                rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        }
    }
    free(posof);
    if (!rc) {
        d->off = malloc((t.count + 1) * (size_t)d->k * sizeof *d->off);
        d->bytes = malloc((t.count + 1) * sizeof *d->bytes);
        if (!d->off || !d->bytes)
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (size_t i = 0; !rc && i < t.cap; i++) {
        if (t.bytes[i] == 0)
            continue;
        memcpy(d->off + (size_t)d->ncls * (size_t)d->k,
               t.off + i * (size_t)d->k, (size_t)d->k * sizeof *d->off);
        d->bytes[d->ncls] = t.bytes[i];
        for (int j = 0; j < d->k; j++)
            d->rho[j] += t.bytes[i] * abs(t.off[i * (size_t)d->k + j]);
        d->ncls++;
    }
    free(t.off);
    free(t.bytes);
    if (!rc && steps_alloc(d))
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (rc)
        gm_dgrid_free(d);
    return rc;
}

void gm_dgrid_free(gm_dgrid *d)
{
    free(d->off);
    free(d->bytes);
    if (d->steps)
        for (int i = 0; i < d->k; i++) {
            free(d->steps->step[i]);
            free(d->steps->bytes[i]);
        }
    free(d->steps);
    d->off = NULL;
    d->bytes = NULL;
    d->steps = NULL;
    d->ncls = 0;
}

void gm_dgrid_steps(const gm_dgrid *d, const int *p)
{
    gm_box_steps *st = d->steps;
    for (int i = 0; i < d->k; i++)
        for (int s = 0; s < p[i]; s++)
            st->bytes[i][s] = 0;
    for (int c = 0; c < d->ncls; c++) {
        const int *o = d->off + (size_t)c * (size_t)d->k;
        for (int i = 0; i < d->k; i++) {
            int a = abs(o[i]), L = d->L[i], size = L / p[i];
            if (a == 0 || p[i] == 1)
                continue;
            /* From position x (x in [0, n)), offset a steps q = a / size
             * boxes, or q + 1 where x's place in its box is at least
             * size - a % size; wrapping, the steps are modulo p. */
            int64_t n = d->per[i] ? L : L - a, q = a / size, r = a % size;
            int64_t far = n / size * r +
                          (n % size > size - r ? n % size - (size - r) : 0);
            double share = d->bytes[c] / (double)n;
            st->bytes[i][q % p[i]] += share * (double)(n - far);
            st->bytes[i][(q + 1) % p[i]] += share * (double)far;
        }
    }
    for (int i = 0; i < d->k; i++) {
        st->n[i] = 0;
        for (int s = 1; s < p[i]; s++)
            if (st->bytes[i][s] > 0)
                st->step[i][st->n[i]++] = s;
    }
}

double gm_dgrid_cut(const gm_dgrid *d, const int *L, const int *per,
                    const int *p, double *x)
{
    double cut = 0;
    if (x)
        for (int i = 0; i < d->k; i++)
            x[i] = 0;
    for (int c = 0; c < d->ncls; c++) {
        const int *o = d->off + (size_t)c * (size_t)d->k;
        double stay = 1;
        for (int i = 0; i < d->k; i++) {
            double a = abs(o[i]);
            double positions = per[i] ? L[i] : L[i] - a;
            double inside = p[i] == 1 ? positions : L[i] - p[i] * a;
            double s = positions > 0 ? (inside > 0 ? inside : 0) / positions
                                     : 1;
            stay *= s;
            if (x)
                x[i] += d->bytes[c] * (1 - s);
        }
        cut += d->bytes[c] * (1 - stay);
    }
    return cut;
}

/* ---------------------------------------------------- factorisations */

typedef struct fact_walk {
    int k;
    const int *L;
    int divide;
    int nprimes;
    int prime[32], expo[32];
    int p[TG_GRID_MAXDIMS];
    int64_t cap, count;
    void (*fn)(void *arg, const int *p);
    void *arg;
} fact_walk;

/* Give the remaining `left` factors of prime number `pi` to dimensions
 * i .. k-1, then go on with the next prime. */
static void walk(fact_walk *w, int pi, int i, int left)
{
    if (w->count >= w->cap)
        return;
    if (pi == w->nprimes) {
        w->count++;
        w->fn(w->arg, w->p);
        return;
    }
    int q = w->prime[pi];
    if (i == w->k - 1) {
        int64_t v = w->p[i];
        for (int e = 0; e < left; e++)
            v *= q;
        if (v > w->L[i] || (w->divide && w->L[i] % v))
            return;
        int keep = w->p[i];
        w->p[i] = (int)v;
        walk(w, pi + 1, 0, pi + 1 < w->nprimes ? w->expo[pi + 1] : 0);
        w->p[i] = keep;
        return;
    }
    int keep = w->p[i];
    int64_t v = keep;
    for (int e = 0; e <= left; e++) {
        if (v > w->L[i] || (w->divide && w->L[i] % v))
            break;
        w->p[i] = (int)v;
        walk(w, pi, i + 1, left - e);
        v *= q;
    }
    w->p[i] = keep;
}

int64_t gm_factorisations(int n, int k, const int *L, int divide,
                          int64_t cap, void (*fn)(void *arg, const int *p),
                          void *arg)
{
    fact_walk w = {.k = k, .L = L, .divide = divide, .cap = cap, .fn = fn,
                   .arg = arg};
    for (int i = 0; i < k; i++)
        w.p[i] = 1;
    int m = n;
    for (int q = 2; (int64_t)q * q <= m; q++)
        if (m % q == 0) {
            w.prime[w.nprimes] = q;
            w.expo[w.nprimes] = 0;
            while (m % q == 0) {
                m /= q;
                w.expo[w.nprimes]++;
            }
            w.nprimes++;
        }
    if (m > 1) {
        w.prime[w.nprimes] = m;
        w.expo[w.nprimes++] = 1;
    }
    if (n < 1 || k < 1)
        return 0;
    walk(&w, 0, 0, w.nprimes ? w.expo[0] : 0);
    return w.count;
}

/* The most factorisations weighed in one choice: far more than the
 * dimensions and node counts of real grids give (4,096 nodes over 4
 * dimensions: 455), a bound on the time of absurd ones. */
#define FACT_CAP 200000

typedef struct best_cut {
    const gm_dgrid *d;
    const int *L, *per;
    int found;
    int p[TG_GRID_MAXDIMS];
    double cut;
} best_cut;

/* A strict improvement, with room for rounding in the sums. */
static int less(double a, double b)
{
    return a < b - 1e-9 * (fabs(a) + fabs(b));
}

static void consider_cut(void *arg, const int *p)
{
    best_cut *b = arg;
    double c = gm_dgrid_cut(b->d, b->L, b->per, p, NULL);
    if (!b->found || less(c, b->cut)) {
        b->found = 1;
        b->cut = c;
        memcpy(b->p, p, (size_t)b->d->k * sizeof *p);
    }
}

int gm_dgrid_best(const gm_dgrid *d, const int *L, const int *per,
                  int nparts, int *parts, double *cut)
{
    best_cut b = {d, L, per, 0, {0}, 0};
    gm_factorisations(nparts, d->k, L, 1, FACT_CAP, consider_cut, &b);
    if (b.found) {
        memcpy(parts, b.p, (size_t)d->k * sizeof *parts);
        *cut = b.cut;
    }
    return b.found;
}

int gm_decompose_parts(const tg_graph *g, const tg_grid *grid, int nparts,
                       int *parts, double *cut, tg_error *err)
{
    gm_dgrid d;
    int rc = gm_dgrid_make(g, grid, &d, err);
    if (rc)
        return rc;
    if (!gm_dgrid_best(&d, d.L, d.per, nparts, parts, cut))
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "decompose: no cut of the grid into %d equal "
                          "boxes (the box counts must divide the grid's "
                          "dimensions)",
                          nparts);
    gm_dgrid_free(&d);
    return rc;
}

/* ------------------------------------------------------------ the plan */

typedef struct best_plan {
    const gm_dgrid *d;
    const gm_network *net; /* NULL: cut only */
    int found;
    gm_decompose_plan plan;
} best_plan;

static void consider_plan(void *arg, const int *p)
{
    best_plan *b = arg;
    const gm_dgrid *d = b->d;
    double x[TG_GRID_MAXDIMS];
    double c = gm_dgrid_cut(d, d->L, d->per, p, x);
    int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS];
    double hb = 0;
    if (b->net) {
        gm_dgrid_steps(d, p);
        if (!gm_fold_best(b->net, d->k, p, d->per, x, d->steps, fold, &hb))
            return;
    }
    gm_decompose_plan *pl = &b->plan;
    if (b->found && !less(hb, pl->hop_bytes) &&
        (less(pl->hop_bytes, hb) || !less(c, pl->cut_bytes)))
        return;
    b->found = 1;
    memcpy(pl->parts, p, (size_t)d->k * sizeof *p);
    pl->cut_bytes = c;
    pl->hop_bytes = hb;
    if (b->net)
        memcpy(pl->fold, fold, sizeof fold);
}

typedef struct best_groups {
    const gm_dgrid *d;
    int ngroups, near, far;
    const int *p;   /* the parts being weighed */
    double pcut;
    int found;
    gm_decompose_plan plan;
} best_groups;

static void consider_group(void *arg, const int *q)
{
    best_groups *b = arg;
    const gm_dgrid *d = b->d;
    double qc = gm_dgrid_cut(d, d->L, d->per, q, NULL);
    double cost = b->near * b->pcut + (double)(b->far - b->near) * qc;
    gm_decompose_plan *pl = &b->plan;
    if (b->found && !less(cost, pl->hop_bytes) &&
        (less(pl->hop_bytes, cost) || !less(b->pcut, pl->cut_bytes)))
        return;
    b->found = 1;
    pl->hop_bytes = cost;
    pl->cut_bytes = b->pcut;
    memcpy(pl->parts, b->p, (size_t)d->k * sizeof *q);
    memcpy(pl->group, q, (size_t)d->k * sizeof *q);
}

static void consider_parts(void *arg, const int *p)
{
    best_groups *b = arg;
    b->p = p;
    b->pcut = gm_dgrid_cut(b->d, b->d->L, b->d->per, p, NULL);
    gm_factorisations(b->ngroups, b->d->k, p, 1, FACT_CAP, consider_group,
                      b);
}

int gm_decompose_choose_groups(const gm_dgrid *d, int B, int ngroups,
                               int near, int far, gm_decompose_plan *plan)
{
    best_groups b = {d, ngroups, near, far, NULL, 0, 0, {0}};
    gm_factorisations(B, d->k, d->L, 1, FACT_CAP, consider_parts, &b);
    if (!b.found)
        return 0;
    *plan = b.plan;
    plan->hop_bytes = 0; /* an estimate of distances, not of hop-bytes */
    plan->ndims = d->k;
    plan->boxes = B;
    plan->exact = 1;
    plan->embedded = 0;
    return 1;
}

/* Choose the plan for B boxes: exact (equal boxes dividing the
 * dimensions) when `exact`, embedded in net when net is not NULL. */
int gm_decompose_choose(const gm_dgrid *d, int B, int exact,
                        const gm_network *net, gm_decompose_plan *plan)
{
    best_plan b = {d, net, 0, {0}};
    for (int n = B; n >= 1 && !b.found; n--) {
        gm_factorisations(n, d->k, d->L, exact, FACT_CAP, consider_plan, &b);
        if (exact || net)
            break; /* no fallback to fewer boxes there */
    }
    if (!b.found)
        return 0;
    *plan = b.plan;
    plan->ndims = d->k;
    plan->boxes = 1;
    for (int i = 0; i < d->k; i++)
        plan->boxes *= plan->parts[i];
    plan->exact = exact;
    plan->embedded = net != NULL;
    for (int i = 0; i < d->k; i++)
        plan->group[i] = 1;
    return 1;
}
