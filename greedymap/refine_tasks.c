/* refine_tasks.c: the task sweep of gm_refine (refine.c): swaps and moves
 * of single tasks.
 *
 * For task t on node a (tasks in id order), the candidate nodes are the
 * REFINE_HEAVY nodes other than a that hold the most of t's bytes (ties:
 * the lower node id), heaviest first.  On each candidate node b:
 *   - moving t into a free slot of b, when b has one, changes total
 *     hop-bytes (each edge once) by h(t, b) - h(t, a), with h(t, x) = sum
 *     over t's edges of w x distance(x, node of the other end);
 *   - swapping t with a task u on b (slot order) by
 *     h(t, b) - h(t, a) + h(u, a) - h(u, b) + 2 w(t,u) distance(a, b):
 *     the first two differences treat the edge t-u as if its far end
 *     stayed put (at b for t, at a for u), each w(t,u) x distance(a, b)
 *     too low, while the edge really keeps its length.
 * The best strict improvement is applied.  A swap keeps every node's task
 * count; a move takes b's lowest free slot and, when t was not in a's
 * highest used slot, the task there takes t's old one (a change of slot
 * inside a node changes no metric), so a node whose used slots were 0 ..
 * c-1, as Algorithm 1 leaves them, keeps them so. */
#include "gm_internal.h"

/* Candidate nodes per task. */
#define REFINE_HEAVY 4

/* The k heaviest groups of gr not on node a, heaviest first (ties: the
 * lower node); returns how many, their nodes in cand. */
static int heaviest(const gm_groups *gr, int a, int *cand)
{
    int k = 0;
    for (int i = 0; i < gr->n; i++) {
        if (gr->node[i] == a)
            continue;
        int j = k < REFINE_HEAVY ? k++ : REFINE_HEAVY;
        while (j > 0 && (gr->w[cand[j - 1]] < gr->w[i] ||
                         (gr->w[cand[j - 1]] == gr->w[i] &&
                          gr->node[cand[j - 1]] > gr->node[i]))) {
            if (j < REFINE_HEAVY)
                cand[j] = cand[j - 1];
            j--;
        }
        if (j < REFINE_HEAVY)
            cand[j] = i;
    }
    for (int i = 0; i < k; i++)
        cand[i] = gr->node[cand[i]];
    return k;
}

/* Put t into b's lowest free slot; the task in a's highest used slot, if
 * above t's, takes t's old one.  O(slots of a and b). */
static void move(gm_refine_state *r, int t, int b)
{
    gm_place *map = r->map;
    int a = map[t].node, hole = map[t].slot, top = r->m->slots[a] - 1;
    int *occ_a = r->occ + r->first[a], *occ_b = r->occ + r->first[b];
    while (occ_a[top] < 0)
        top--;
    occ_a[hole] = occ_a[top];
    map[occ_a[top]].slot = hole;
    occ_a[top] = -1;
    r->used[a]--;
    int s = 0;
    while (occ_b[s] >= 0)
        s++;
    occ_b[s] = t;
    map[t] = (gm_place){b, s};
    r->used[b]++;
    gm_refine_touch(r, a);
    gm_refine_touch(r, b);
}

static void swap(gm_refine_state *r, int t, int u)
{
    gm_place pt = r->map[t], pu = r->map[u];
    r->map[t] = pu;
    r->map[u] = pt;
    r->occ[r->first[pu.node] + pu.slot] = t;
    r->occ[r->first[pt.node] + pt.slot] = u;
    gm_refine_touch(r, pt.node);
    gm_refine_touch(r, pu.node);
}

/* The best strictly improving move or swap of t; 1 when one was
 * applied. */
static int improve(gm_refine_state *r, int t)
{
    const gm_machine *m = r->m;
    int a = r->map[t].node, cand[REFINE_HEAVY];
    gm_i128 none = 0, best = 0;
    gm_groups_add(r, &r->ga, t, -1, -1, &none);
    int k = heaviest(&r->ga, a, cand), best_b = -1, best_u = -1;
    for (int i = 0; i < k; i++) {
        int b = cand[i];
        gm_i128 dt = gm_groups_shift(m, &r->ga, a, b);
        if (r->used[b] < m->slots[b] && dt < best) {
            best = dt;
            best_b = b;
            best_u = -1;
        }
        for (int s = 0; s < m->slots[b]; s++) {
            int u = r->occ[r->first[b] + s];
            if (u < 0)
                continue;
            gm_i128 wtu = 0;
            gm_groups_add(r, &r->gb, u, -1, t, &wtu);
            gm_i128 x = dt + gm_groups_shift(m, &r->gb, b, a) +
                        2 * wtu * gm_distance(m, a, b);
            gm_groups_clear(&r->gb);
            if (x < best) {
                best = x;
                best_b = b;
                best_u = u;
            }
        }
    }
    gm_groups_clear(&r->ga);
    if (best_b < 0)
        return 0;
    if (best_u < 0)
        move(r, t, best_b);
    else
        swap(r, t, best_u);
    return 1;
}

/* 1 when t was never weighed, or its node or a node holding one of its
 * neighbours changed since. */
static int stale(const gm_refine_state *r, int t)
{
    const tg_graph *g = r->g;
    int64_t seen = r->seen[t];
    if (seen < 0 || r->changed[r->map[t].node] > seen)
        return 1;
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++)
        if (r->changed[r->map[g->adjncy[e]].node] > seen)
            return 1;
    return 0;
}

int gm_refine_task(gm_refine_state *r, int t)
{
    if (!stale(r, t))
        return 0;
    r->seen[t] = r->clock;
    return improve(r, t);
}
