/* pareto.c: the Pareto front of (average, maximum) hop-bytes, the
 * choice of a point, the focus and the order of the runs (rules at the
 * top of pareto.h). */
#include <stdlib.h>
#include <string.h>

#include "pareto.h"

static const char *const criterion_names[] = {"alpha", "avg", "max",
                                              "maxload"};

int pm_criterion_parse(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, criterion_names[i]))
            return i;
    return -1;
}

const char *pm_criterion_name(pm_criterion c)
{
    return criterion_names[c];
}

/* -1, 0, 1 as a < b, a == b, a > b. */
static int cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

/* The key: config index, then seed, then round. */
static int cmp_key(const pm_point *a, const pm_point *b)
{
    int c = (a->config > b->config) - (a->config < b->config);
    if (!c)
        c = cmp_u64(a->seed, b->seed);
    if (!c)
        c = (a->round > b->round) - (a->round < b->round);
    return c;
}

/* The average, then the maximum, then J, then the key. */
static int cmp_rest(const pm_point *a, const pm_point *b)
{
    int c = cmp_u64(a->total, b->total);
    if (!c)
        c = cmp_u64(a->max, b->max);
    if (!c)
        c = cmp_u64(a->cost, b->cost);
    return c ? c : cmp_key(a, b);
}

int pm_dominates(const pm_point *a, const pm_point *b)
{
    if (a->total > b->total || a->max > b->max)
        return 0;
    if (a->total < b->total || a->max < b->max)
        return 1;
    if (a->cost != b->cost)
        return a->cost < b->cost;
    return cmp_key(a, b) < 0;
}

void pm_front_init(pm_front *f)
{
    memset(f, 0, sizeof *f);
}

void pm_front_free(pm_front *f)
{
    free(f->p);
    free(f->removed);
    pm_front_init(f);
}

static int grow(pm_point **p, int *cap, int need)
{
    if (need <= *cap)
        return 0;
    int cap2 = *cap ? 2 * *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    pm_point *q = realloc(*p, (size_t)cap2 * sizeof *q);
    if (!q)
        return -1;
    *p = q;
    *cap = cap2;
    return 0;
}

int pm_front_add(pm_front *f, const pm_point *p)
{
    f->nremoved = 0;
    for (int i = 0; i < f->n; i++)
        if (pm_dominates(&f->p[i], p))
            return 0;
    /* Room for the worst case first, so that failure changes nothing. */
    if (grow(&f->p, &f->cap, f->n + 1) ||
        grow(&f->removed, &f->cap_removed, f->n))
        return -1;
    int k = 0, at = -1;
    for (int i = 0; i < f->n; i++) {
        if (pm_dominates(p, &f->p[i])) {
            f->removed[f->nremoved++] = f->p[i];
            continue;
        }
        if (at < 0 && cmp_rest(p, &f->p[i]) < 0)
            at = k;
        f->p[k++] = f->p[i];
    }
    if (at < 0)
        at = k;
    memmove(&f->p[at + 1], &f->p[at], (size_t)(k - at) * sizeof *f->p);
    f->p[at] = *p;
    f->n = k + 1;
    return 1;
}

/* The criterion's own metric of p; the alpha rule's is the maximum. */
static uint64_t primary(const pm_point *p, pm_criterion c)
{
    switch (c) {
    case PM_SELECT_AVG:
        return p->total;
    case PM_SELECT_MAXLOAD:
        return p->load;
    default:
        return p->max;
    }
}

int pm_select(const pm_point *pts, int n, pm_criterion c, double alpha)
{
    uint64_t h0 = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || pts[i].total < h0)
            h0 = pts[i].total;
    /* A as written, not as a double: 1.15 is stored a little below, which
     * would leave out a point at exactly 1.15 h0.  A double is within 2^-53
     * of its decimal, so a bound that much higher keeps such a point and
     * admits no other whole number of hop-bytes below 2^52. */
    long double bound =
        (long double)alpha * (long double)h0 * (1.0L + 0x1p-52L);
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (c == PM_SELECT_ALPHA && (long double)pts[i].total > bound)
            continue;
        if (best >= 0) {
            int d = cmp_u64(primary(&pts[i], c), primary(&pts[best], c));
            if (d > 0 || (d == 0 && cmp_rest(&pts[i], &pts[best]) >= 0))
                continue;
        }
        best = i;
    }
    return best;
}

int pm_focus(const uint64_t *total, const uint64_t *max, const int *order,
             int n, double margin, int *out)
{
    const long double keep = 1.0L + (long double)margin;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int c = order[i], beaten = total[c] == UINT64_MAX;
        for (int d = 0; d < n && !beaten; d++)
            beaten = total[d] != UINT64_MAX &&
                     keep * (long double)total[d] < (long double)total[c] &&
                     keep * (long double)max[d] < (long double)max[c];
        if (!beaten)
            out[k++] = c;
    }
    return k;
}

/* How costly a configuration is expected to be, 0 to NCLASSES - 1: the
 * baselines (gm_portfolio) first, block and decompose (one pass over the
 * graph) before rb and drb (METIS bisections), so that even a budget too
 * short for anything else has the default's mapping on the front; then
 * GreedyMap's, a refinement after Algorithm 1 (refine=1) costing most,
 * then Delta = all nodes, then an order made with METIS (GPART, GPARTRB);
 * refined baselines (rb and drb with refine=1) with the refined. */
#define NCLASSES 10
static int cost_class(const gm_config *c)
{
    int metis = c->baseline ? (c->baseline - 1 == GM_BASE_RB ||
                               c->baseline - 1 == GM_BASE_DRB)
                            : (c->order == GM_ORDER_GPART ||
                               c->order == GM_ORDER_GPARTRB);
    if (c->baseline && !c->refine)
        return metis;
    return 2 + 4 * c->refine +
           2 * (!c->baseline && c->delta == GM_DELTA_ALL) + metis;
}

void pm_cost_order(const gm_config *configs, int n, int *order)
{
    int k = 0;
    for (int cls = 0; cls < NCLASSES; cls++)
        for (int i = 0; i < n; i++)
            if (cost_class(&configs[i]) == cls)
                order[k++] = i;
}
