/* exhaustive.c: the optimum by enumeration, the oracle the search is
 * tested against.  Depth-first over ranks and their choices; a branch is
 * cut when a capacity is exceeded, or when some rank placed so far, with
 * its compute and its transfers with the ranks already placed, is already
 * slower than the best complete placement (times only grow as ranks are
 * added).  Ties keep the first placement found. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

typedef struct enumr {
    const ht_problem *p;
    ht_load load;
    int *choice, *best;
    double *partial; /* [n] time of each placed rank so far */
    double *saved;   /* [arcs] partial[q] before arc e's pair was added */
    ht_cost best_cost;
    int found;
} enumr;

static void leaf(enumr *e)
{
    const ht_problem *p = e->p;
    ht_cost c = {0, 0};
    for (int r = 0; r < p->n; r++) {
        double comp, comm;
        ht_rank_time(p, e->choice, r, &comp, &comm);
        c.makespan = fmax(c.makespan, comp + comm);
        c.sum += comp + comm;
    }
    if (!e->found || ht_cost_compare(&c, &e->best_cost) < 0) {
        e->found = 1;
        e->best_cost = c;
        memcpy(e->best, e->choice, (size_t)p->n * sizeof *e->best);
    }
}

static void dfs(enumr *e, int r, double slowest)
{
    const ht_problem *p = e->p;
    if (r == p->n) {
        leaf(e);
        return;
    }
    for (int c = 0; c < p->nchoices; c++) {
        if (!ht_problem_allows(p, r, c) || !ht_load_try(&e->load, p, r, c))
            continue;
        e->choice[r] = c;
        double t = p->comp[(size_t)r * (size_t)p->nchoices + (size_t)c];
        double worst = slowest;
        for (int64_t k = p->xadj[r]; k < p->xadj[r + 1]; k++) {
            int q = p->adj[k];
            if (q > r)
                continue;
            double pt = ht_pair_time(p, p->host[q] == p->host[r], c,
                                     e->choice[q], p->bytes[k], p->msgs[k]);
            t += pt;
            e->saved[k] = e->partial[q];
            e->partial[q] += pt;
            worst = fmax(worst, e->partial[q]);
        }
        e->partial[r] = t;
        worst = fmax(worst, t);
        if (!e->found || worst <= e->best_cost.makespan * (1 + 1e-9))
            dfs(e, r + 1, worst);
        for (int64_t k = p->xadj[r]; k < p->xadj[r + 1]; k++)
            if (p->adj[k] < r)
                e->partial[p->adj[k]] = e->saved[k];
        ht_load_add(&e->load, p, r, c, -1);
    }
}

uint64_t ht_exhaustive_count(const ht_problem *p)
{
    uint64_t count = 1;
    for (int r = 0; r < p->n; r++) {
        uint64_t k = 0;
        for (int c = 0; c < p->nchoices; c++)
            k += (uint64_t)ht_problem_allows(p, r, c);
        if (k && count > UINT64_MAX / k)
            return UINT64_MAX;
        count *= k;
    }
    return count;
}

int ht_exhaustive(const ht_problem *p, int *choice, ht_cost *cost,
                  tg_error *err)
{
    if (p->n > HT_EXHAUSTIVE_MAX)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d ranks: enumeration is for at most %d", p->n,
                            HT_EXHAUSTIVE_MAX);
    enumr e;
    memset(&e, 0, sizeof e);
    e.p = p;
    e.best = choice;
    e.choice = malloc((size_t)p->n * sizeof *e.choice);
    e.partial = calloc((size_t)p->n, sizeof *e.partial);
    e.saved = malloc(((size_t)p->xadj[p->n] + 1) * sizeof *e.saved);
    int rc = ht_load_init(&e.load, p, err);
    if (!rc && (!e.choice || !e.partial || !e.saved))
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (!rc) {
        dfs(&e, 0, 0);
        if (e.found)
            *cost = e.best_cost;
        else
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "no placement fits this node's capacities");
    }
    ht_load_free(&e.load);
    free(e.choice);
    free(e.partial);
    free(e.saved);
    return rc;
}
