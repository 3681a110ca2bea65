/* refine_nodes.c: the node sweep of gm_refine (refine.c): the tasks of
 * node x, all together, trade places with those of a nearby node y.
 *
 * For node x holding tasks (nodes in id order), the candidates are the
 * REFINE_NEAR nodes nearest x (gm_shells order, x itself left out; empty
 * nodes too, where the swap is a move of x's tasks).  A swap is possible
 * when each side's tasks fit in the other node's slots, and changes total
 * hop-bytes (each edge once) by
 *   H(x -> y) + H(y -> x) + 2 W(x,y) distance(x, y),
 * H(x -> y) = sum over the edges from x's tasks to tasks on other nodes n
 * of w x (distance(y, n) - distance(x, n)) (gm_groups_shift), W(x,y) the
 * bytes between the tasks of x and of y: the two shifts treat those edges
 * as if their far end stayed put, each W(x,y) x distance(x, y) too low,
 * while they keep their length.  Edges inside x or inside y keep length 0.
 * The best strict improvement is applied; the tasks of one node take the
 * other's slots from 0 up, in their slot order. */
#include "gm_internal.h"

/* Candidate nodes per node: on a 3-D torus, every node within 2 hops. */
#define REFINE_NEAR 24

/* Tasks of node x into list (slot order); returns how many. */
static int tasks_of(const gm_refine_state *r, int x, int *list)
{
    const int *occ = r->occ + r->first[x];
    int k = 0;
    for (int s = 0; s < r->m->slots[x]; s++)
        if (occ[s] >= 0)
            list[k++] = occ[s];
    return k;
}

/* Group the bytes of x's tasks to tasks on other nodes. */
static void gather(gm_refine_state *r, gm_groups *gr, int x)
{
    const int *occ = r->occ + r->first[x];
    gm_i128 none = 0;
    for (int s = 0; s < r->m->slots[x]; s++)
        if (occ[s] >= 0)
            gm_groups_add(r, gr, occ[s], x, -1, &none);
}

/* Put the k tasks of list on node x, slots 0 .. k-1. */
static void settle(gm_refine_state *r, int x, const int *list, int k)
{
    int *occ = r->occ + r->first[x];
    for (int s = 0; s < r->m->slots[x]; s++)
        occ[s] = s < k ? list[s] : -1;
    for (int s = 0; s < k; s++)
        r->map[list[s]] = (gm_place){x, s};
    r->used[x] = k;
    gm_refine_touch(r, x);
}

static void node_swap(gm_refine_state *r, int x, int y)
{
    int *buf = r->buf;
    int kx = tasks_of(r, x, buf), ky = tasks_of(r, y, buf + kx);
    settle(r, y, buf, kx);
    settle(r, x, buf + kx, ky);
}

int gm_refine_node(gm_refine_state *r, int x)
{
    const gm_machine *m = r->m;
    if (r->used[x] == 0)
        return 0;
    gather(r, &r->ga, x);
    gm_i128 best = 0;
    int best_y = -1;
    gm_shells_start(r->sh, x, 1);
    gm_shells_next(r->sh, NULL); /* x itself */
    for (int i = 0; i < REFINE_NEAR; i++) {
        int y = gm_shells_next(r->sh, NULL);
        if (y < 0)
            break;
        if (r->used[x] > m->slots[y] || r->used[y] > m->slots[x])
            continue;
        gather(r, &r->gb, y);
        int k = r->ga.of[y];
        gm_i128 wxy = k >= 0 ? r->ga.w[k] : 0;
        gm_i128 d = gm_groups_shift(m, &r->ga, x, y) +
                    gm_groups_shift(m, &r->gb, y, x) +
                    2 * wxy * gm_distance(m, x, y);
        gm_groups_clear(&r->gb);
        if (d < best) {
            best = d;
            best_y = y;
        }
    }
    gm_groups_clear(&r->ga);
    if (best_y < 0)
        return 0;
    node_swap(r, x, best_y);
    return 1;
}
