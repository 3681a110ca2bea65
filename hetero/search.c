/* search.c: constrained coordinate-wise descent (papers/000, Algorithms 1
 * and 2) over the choices of every rank.
 *
 * From the GPU-first default, each rotation visits the ranks from the
 * longest compute time to the shortest and tries each of the rank's
 * choices with everything else fixed, keeping a change only when the
 * objective improves (TestMapping).  The co-location constraint: ranks of
 * one node joined by an edge of the constraint graph keep one processor
 * kind, so moving a rank to the other kind moves its whole component,
 * each member to the same memory kind (Algorithm 2): to the rank's own new
 * GPU or NUMA node when it holds the member, else to the least loaded GPU,
 * or the first NUMA node of that kind, that does.  The constraint graph starts
 * with every pair of communicating ranks of a node; after each rotation the
 * lightest 1/(rotations-1) of its edges are dropped, so the last rotation is
 * free.
 *
 * The moves of papers/000 change one rank at a time, and a full GPU (at
 * most ranks_per_gpu ranks) or HBM node blocks every move onto it, as does
 * a slowest rank whose time hangs on its peers' places; so after the
 * rotations, passes of moves of several ranks of a node (moves.c: any two
 * choices of two ranks, rotations of three, ejection chains; where a
 * node's ranks times choices are many, only exchanges of two) and free
 * one-rank moves repeat until nothing improves.  Then `restarts` seeded
 * random kicks, each followed by those passes, kept when better.  The
 * whole descent runs from GPU-first and from all-CPU; the better wins.
 * When neither fits (first fit in rank order can fail where a placement
 * exists), it runs from the start ht_feasible (baseline.c) finds, and
 * the error, when there is none, is that search's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

#define POLISH_MAX 100  /* passes; each must improve, so this is a guard */
#define PAIR_BUDGET 2e4 /* (ranks x choices)^2 of the widest node */

static int find(int *uf, int x)
{
    while (uf[x] != x)
        x = uf[x] = uf[uf[x]];
    return x;
}

/* Components of the constraint graph without its `pruned` lightest
 * edges. */
static void components(ht_state *s, int pruned)
{
    int n = s->p->n;
    for (int r = 0; r < n; r++)
        s->uf[r] = r;
    for (int e = pruned; e < s->nedges; e++) {
        int a = find(s->uf, s->edge_a[e]), b = find(s->uf, s->edge_b[e]);
        if (a != b)
            s->uf[a < b ? b : a] = a < b ? a : b;
    }
    memset(s->mstart, 0, ((size_t)n + 1) * sizeof *s->mstart);
    for (int r = 0; r < n; r++)
        s->mstart[find(s->uf, r) + 1]++;
    for (int r = 0; r < n; r++)
        s->mstart[r + 1] += s->mstart[r];
    int *fill = s->mark; /* borrowed; refresh's stamps restart */
    for (int r = 0; r < n; r++)
        fill[r] = s->mstart[r];
    for (int r = 0; r < n; r++)
        s->member[fill[find(s->uf, r)]++] = r;
    memset(s->mark, 0, (size_t)n * sizeof *s->mark);
    s->stamp = 0;
}

/* One coordinate-wise pass; with `constrained`, a move to the other
 * processor kind takes the rank's component along (Algorithm 2). */
static int cd_pass(ht_state *s, int constrained)
{
    const ht_problem *p = s->p;
    int improved = 0;
    for (int i = 0; i < p->n; i++) {
        int r = s->order[i];
        for (int c = 0; c < p->nchoices; c++) {
            if (c == s->choice[r] || !ht_problem_allows(p, r, c))
                continue;
            int k = 0;
            s->moves[k++] = (ht_move){r, s->choice[r], c, c, -1};
            if (constrained) {
                int root = find(s->uf, r);
                for (int j = s->mstart[root]; j < s->mstart[root + 1]; j++) {
                    int q = s->member[j];
                    if (q != r &&
                        p->choice[s->choice[q]].proc != p->choice[c].proc)
                        s->moves[k++] = (ht_move){q, s->choice[q], -1, c, -1};
                }
            }
            improved |= ht_state_test(s, k);
        }
    }
    return improved;
}

/* Passes of moves of several ranks (moves.c) and free one-rank moves until
 * nothing improves. */
static void polish(ht_state *s, int pairs, ht_search_stats *st)
{
    for (int k = 0; k < POLISH_MAX; k++) {
        st->polish_passes++;
        int improved = pairs ? ht_two_rank_pass(s, 1) | ht_chain_pass(s) |
                                   ht_rotate_pass(s)
                             : ht_two_rank_pass(s, 0);
        improved |= cd_pass(s, 0);
        if (!improved)
            break;
    }
}

/* CCD from the placement in choice, polished; then the restarts: kick the
 * best placement, polish, keep the result when it is better. */
static int descend(const ht_problem *p, int *choice, ht_search_stats *st,
                   tg_error *err)
{
    ht_state s;
    int rc = ht_state_init(&s, p, choice, err);
    int *best = rc ? NULL : malloc((size_t)p->n * sizeof *best);
    if (!rc && !best)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rot = p->par.rotations;
    for (int i = 0; !rc && i < rot; i++) {
        int pruned = rot == 1
                         ? s.nedges
                         : (int)(((int64_t)i * s.nedges + rot - 2) / (rot - 1));
        components(&s, pruned);
        cd_pass(&s, pruned < s.nedges);
        st->rotations++;
    }
    double widest = 0;
    for (int h = 0; !rc && h < p->nhosts; h++)
        widest = fmax(widest, s.hstart[h + 1] - s.hstart[h]);
    int pairs = widest * widest * p->nchoices * p->nchoices <= PAIR_BUDGET;
    tg_rng rng;
    tg_rng_seed(&rng, p->par.seed);
    if (!rc) {
        polish(&s, pairs, st);
        memcpy(best, choice, (size_t)p->n * sizeof *best);
    }
    for (int i = 0; !rc && i < p->par.restarts; i++) {
        ht_cost was = s.cost;
        ht_kick(&s, &rng);
        polish(&s, pairs, st);
        if (ht_cost_compare(&s.cost, &was) < 0)
            memcpy(best, choice, (size_t)p->n * sizeof *best);
        else
            ht_state_reset(&s, best);
    }
    st->evaluations += s.evals;
    ht_state_free(&s);
    free(best);
    return rc;
}

int ht_search(const ht_problem *p, int *choice, ht_cost *cost,
              ht_search_stats *stats, tg_error *err)
{
    int (*const start[2])(const ht_problem *, int *,
                          tg_error *) = {ht_gpu_first, ht_all_cpu};
    int *work = malloc((size_t)p->n * sizeof *work);
    if (!work)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    ht_search_stats st = {0, 0, 0};
    int rc = 0, found = 0;
    tg_error why;
    for (int i = 0; i < 3 && !rc; i++) {
        ht_cost c;
        if (i == 2) { /* neither default fits: search for a start */
            if (found)
                break;
            int f = ht_feasible(p, work, &why);
            if (f == TG_ENOMEM)
                rc = tg_error_set(err, f, NULL, 0, "%s", why.text);
            if (f)
                continue;
        } else if (start[i](p, work, &why))
            continue; /* this default does not fit; try the next */
        rc = descend(p, work, &st, err);
        if (!rc)
            rc = ht_evaluate(p, work, &c, err);
        if (!rc && (!found || ht_cost_compare(&c, cost) < 0)) {
            found = 1;
            *cost = c;
            memcpy(choice, work, (size_t)p->n * sizeof *choice);
        }
    }
    free(work);
    if (!rc && !found)
        rc = tg_error_set(err, TG_EINVAL, NULL, 0, "%s", why.text);
    if (!rc && stats)
        *stats = st;
    return rc;
}
