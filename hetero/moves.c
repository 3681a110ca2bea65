/* moves.c: the neighbourhoods a search explores beyond papers/000's
 * one-rank moves, each within one node: exchanging the choices of two
 * ranks, or any joint change of two; rotating the choices of three;
 * ejection chains that free a full resource for the slowest rank; and the
 * random kicks that restart a descent. */
#include <stdlib.h>

#include "ht_internal.h"

/* Try ranks r and q at choices a and b together. */
static int try_two(ht_state *s, int r, int a, int q, int b)
{
    const ht_problem *p = s->p;
    int ca = s->choice[r], cb = s->choice[q];
    if ((a == ca && b == cb) || !ht_problem_allows(p, r, a) ||
        !ht_problem_allows(p, q, b))
        return 0;
    s->moves[0] = (ht_move){r, ca, a, a, -1};
    s->moves[1] = (ht_move){q, cb, b, b, -1};
    return ht_state_test(s, 2);
}

/* Over every pair of ranks of one node: with `all`, any joint change of
 * the two; else the exchange of their choices. */
int ht_two_rank_pass(ht_state *s, int all)
{
    const ht_problem *p = s->p;
    int improved = 0;
    for (int i = 0; i < p->n; i++) {
        int r = s->order[i], h = p->host[r];
        for (int j = s->hstart[h]; j < s->hstart[h + 1]; j++) {
            int q = s->hrank[j];
            if (s->pos[q] <= i)
                continue;
            if (!all) {
                improved |= try_two(s, r, s->choice[q], q, s->choice[r]);
                continue;
            }
            for (int a = 0; a < p->nchoices; a++)
                for (int b = 0; b < p->nchoices; b++)
                    improved |= try_two(s, r, a, q, b);
        }
    }
    return improved;
}

/* The resources over capacity for the target of moves[k-1] once
 * moves[0..k) are made, capacities ignored; the load is left as it was. */
static ht_over blocked(ht_state *s, int k)
{
    const ht_problem *p = s->p;
    const ht_move *m = s->moves;
    for (int i = 0; i < k; i++)
        ht_load_add(&s->load, p, m[i].rank, m[i].old, -1);
    for (int i = 0; i < k; i++)
        ht_load_add(&s->load, p, m[i].rank, m[i].target, 1);
    ht_over o = ht_load_over(&s->load, p, m[k - 1].rank, m[k - 1].target);
    for (int i = 0; i < k; i++)
        ht_load_add(&s->load, p, m[i].rank, m[i].target, -1);
    for (int i = 0; i < k; i++)
        ht_load_add(&s->load, p, m[i].rank, m[i].old, 1);
    return o;
}

static int none_over(const ht_over *o)
{
    return o->gpu < 0 && o->numa < 0 && o->coreset < 0;
}

/* Moves of the ranks of r's host that use a resource of o, other than the
 * ranks already in moves[0..k), each to every other choice it has, as
 * moves[k]: the callback says whether to stop. */
static int each_ejection(ht_state *s, int k, const ht_over *o,
                         int (*then)(ht_state *, int))
{
    const ht_problem *p = s->p;
    int h = p->host[s->moves[0].rank];
    for (int j = s->hstart[h]; j < s->hstart[h + 1]; j++) {
        int q = s->hrank[j], cq = s->choice[q], seen = 0;
        for (int i = 0; i < k; i++)
            seen |= s->moves[i].rank == q;
        if (seen || !ht_over_uses(p, o, cq))
            continue;
        for (int b = 0; b < p->nchoices; b++) {
            if (b == cq || !ht_problem_allows(p, q, b))
                continue;
            s->moves[k] = (ht_move){q, cq, b, b, -1};
            if (then(s, k + 1))
                return 1;
        }
    }
    return 0;
}

/* The second link: when moves[0..k) still overfill the last target, eject
 * once more. */
static int second_link(ht_state *s, int k)
{
    ht_over o = blocked(s, k);
    if (none_over(&o))
        return ht_state_test(s, k);
    return each_ejection(s, k, &o, ht_state_test);
}

/* Ejection chains for the slowest ranks: a move that a full resource
 * blocks (a GPU's slots or memory, a NUMA node, cores) is tried with a
 * rank using that resource moved elsewhere, and, where that rank's new
 * place is full too, a third rank moved out of it. */
int ht_chain_pass(ht_state *s)
{
    const ht_problem *p = s->p;
    int improved = 0;
    for (int i = 0; i < p->n; i++) {
        int r = s->order[i];
        if (s->comp[r] + s->comm[r] < s->cost.makespan * (1 - 1e-12))
            continue;
        for (int a = 0; a < p->nchoices; a++) {
            if (a == s->choice[r] || !ht_problem_allows(p, r, a))
                continue;
            s->moves[0] = (ht_move){r, s->choice[r], a, a, -1};
            ht_over o = blocked(s, 1);
            if (!none_over(&o) && each_ejection(s, 1, &o, second_link)) {
                improved = 1;
                break;
            }
        }
    }
    return improved;
}

/* Rotate the choices of three ranks of one node, both ways. */
int ht_rotate_pass(ht_state *s)
{
    const ht_problem *p = s->p;
    int improved = 0;
    for (int h = 0; h < p->nhosts; h++)
        for (int i = s->hstart[h]; i < s->hstart[h + 1]; i++)
            for (int j = i + 1; j < s->hstart[h + 1]; j++)
                for (int k = j + 1; k < s->hstart[h + 1]; k++)
                    for (int way = 0; way < 2; way++) {
                        int r[3] = {s->hrank[i], s->hrank[j], s->hrank[k]};
                        int ok = 1;
                        for (int m = 0; m < 3; m++) {
                            int q = r[m], to = r[(m + 1 + way) % 3];
                            int c = s->choice[to];
                            ok &=
                                c != s->choice[q] && ht_problem_allows(p, q, c);
                            s->moves[m] = (ht_move){q, s->choice[q], c, c, -1};
                        }
                        if (ok)
                            improved |= ht_state_test(s, 3);
                    }
    return improved;
}

void ht_kick(ht_state *s, tg_rng *rng)
{
    const ht_problem *p = s->p;
    int h = p->host[tg_rng_next(rng) % (uint64_t)p->n];
    int size = s->hstart[h + 1] - s->hstart[h], k = 2 + size / 4;
    for (int i = 0; i < k; i++) {
        int r =
            s->hrank[s->hstart[h] + (int)(tg_rng_next(rng) % (uint64_t)size)];
        for (int t = 0; t < p->nchoices; t++) {
            int c = (int)(tg_rng_next(rng) % (uint64_t)p->nchoices);
            s->moves[0] = (ht_move){r, s->choice[r], c, c, -1};
            if (c != s->choice[r] && ht_problem_allows(p, r, c) &&
                ht_state_apply(s, 1))
                break;
        }
    }
    ht_state_reset(s, s->choice);
}
