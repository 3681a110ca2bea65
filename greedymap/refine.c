/* refine.c: local refinement of a mapping (refine=1, gm_refine), in the
 * style of Kernighan-Lin and Fiduccia-Mattheyses restricted to total
 * hop-bytes: the state, the groups of bytes by node both levels use, and
 * the passes.
 *
 * A pass is one sweep over the nodes (refine_nodes.c: swap the tasks of a
 * node with those of one of the REFINE_NEAR nodes nearest it) and then
 * one over the tasks (refine_tasks.c: swap a task with a task on, or move
 * it into a free slot of, one of the REFINE_HEAVY nodes holding most of
 * its bytes).  Each step weighs its candidates by the exact change of
 * total hop-bytes, computed from the adjacency of the tasks that move
 * only, and applies the best strict improvement at once (the first of
 * equals, in a fixed candidate order); the next step sees the new
 * mapping.  From the second pass on, the task sweep weighs a task again
 * only when its node or a node holding one of its neighbours changed
 * since it was last weighed (a change further away, to the neighbours of
 * a task it could swap with, is not looked for; on milc of bench/mapper
 * this rule takes a GPART refinement from 4 s to under 3 s, and changes
 * no result on the Qbox cases).  Passes repeat until one changes nothing,
 * REFINE_PASSES at most.  Only strict improvements are applied, so the
 * total hop-bytes never rises and the refinement ends; nothing is random,
 * and no result depends on the order of a task's edges in the CSR.
 * Then, when the machine has levels inside its nodes, gm_slots_place
 * (slots.c) swaps tasks between the slots of each node to lower the
 * communication cost J there; the nodes' tasks, and so the hop-bytes,
 * stay as they are.
 *
 * Why two levels.  Swapping single tasks fixes single tasks (on the Qbox
 * cases of bench/mapper, BFS with Delta = 4 and no packing leaves every
 * column clique a task or two off its 2x2 square of nodes; the task sweep
 * puts all back), but
 * cannot move a group whose members are better off together: one task of
 * a clique quarter leaving its 15 partners always loses.  The node sweep
 * moves a whole node's tasks at once.
 *
 * Cost per pass, s the slots per node, d the average degree, E the
 * edges: the node sweep O(N x REFINE_NEAR x s x d) = O(E x REFINE_NEAR)
 * memory steps plus distances to the nodes of each group (each O(dims)
 * on tori, O(1) elsewhere), and finding the nearest nodes (gm_shells:
 * O(REFINE_NEAR) on tori, O(groups) on fat-trees and dragonflies, O(N)
 * per node on graph networks, so O(N^2) per sweep there); the task sweep O(T x REFINE_HEAVY x s x d) = O(E x REFINE_HEAVY
 * x s) memory steps, each task u weighed being grouped by node before its
 * distances are taken.  Memory O(N + T + total slots). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* Passes at most. */
#define REFINE_PASSES 8

static void groups_free(gm_groups *gr)
{
    free(gr->of);
    free(gr->node);
    free(gr->w);
}

static int groups_init(gm_groups *gr, int nodes)
{
    size_t n = (size_t)nodes + 1;
    gr->n = 0;
    gr->of = malloc(n * sizeof *gr->of);
    gr->node = malloc(n * sizeof *gr->node);
    gr->w = malloc(n * sizeof *gr->w);
    if (!gr->of || !gr->node || !gr->w)
        return -1;
    for (int i = 0; i < nodes; i++)
        gr->of[i] = -1;
    return 0;
}

void gm_groups_add(gm_refine_state *r, gm_groups *gr, int t, int skip,
                   int u, gm_i128 *wu)
{
    const tg_graph *g = r->g;
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
        int v = g->adjncy[e], n = r->map[v].node;
        if (v == u)
            *wu += g->adjwgt[e];
        if (n == skip)
            continue;
        int k = gr->of[n];
        if (k < 0) {
            k = gr->of[n] = gr->n++;
            gr->node[k] = n;
            gr->w[k] = 0;
        }
        gr->w[k] += g->adjwgt[e];
    }
}

void gm_refine_touch(gm_refine_state *r, int node)
{
    r->changed[node] = ++r->clock;
}

void gm_groups_clear(gm_groups *gr)
{
    for (int k = 0; k < gr->n; k++)
        gr->of[gr->node[k]] = -1;
    gr->n = 0;
}

gm_i128 gm_groups_shift(const gm_machine *m, const gm_groups *gr, int from,
                        int to)
{
    gm_i128 d = 0;
    for (int k = 0; k < gr->n; k++)
        d += gr->w[k] * (gm_distance(m, to, gr->node[k]) -
                         gm_distance(m, from, gr->node[k]));
    return d;
}

static void state_free(gm_refine_state *r)
{
    free(r->first);
    free(r->occ);
    free(r->used);
    groups_free(&r->ga);
    groups_free(&r->gb);
    gm_shells_free(r->sh);
    free(r->buf);
    free(r->changed);
    free(r->seen);
}

static int state_init(gm_refine_state *r, const tg_graph *g,
                      const gm_machine *m, gm_place *map, tg_error *err)
{
    size_t n = (size_t)m->n;
    int64_t total = gm_machine_total_slots(m);
    int most = 0;
    for (int i = 0; i < m->n; i++)
        if (m->slots[i] > most)
            most = m->slots[i];
    r->g = g;
    r->m = m;
    r->map = map;
    r->first = malloc((n + 1) * sizeof *r->first);
    r->occ = malloc(((size_t)total + 1) * sizeof *r->occ);
    r->used = calloc(n + 1, sizeof *r->used);
    r->buf = malloc(2 * ((size_t)most + 1) * sizeof *r->buf);
    r->changed = malloc((n + 1) * sizeof *r->changed);
    r->seen = malloc(((size_t)g->n + 1) * sizeof *r->seen);
    if (!r->first || !r->occ || !r->used || !r->buf || !r->changed ||
        !r->seen || groups_init(&r->ga, m->n) ||
        groups_init(&r->gb, m->n))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = gm_shells_new(m, &r->sh, err);
    if (rc)
        return rc;
    r->first[0] = 0;
    for (int i = 0; i < m->n; i++) {
        r->first[i + 1] = r->first[i] + m->slots[i];
        r->changed[i] = -1;
    }
    for (int64_t p = 0; p < total; p++)
        r->occ[p] = -1;
    for (int t = 0; t < g->n; t++) {
        r->occ[r->first[map[t].node] + map[t].slot] = t;
        r->used[map[t].node]++;
        r->seen[t] = -1;
    }
    return 0;
}

/* steps 0 .. n-1 of a sweep; 1 when one changed something, 0, or 2 when
 * stop asked to end. */
static int sweep(gm_refine_state *r, int n,
                 int (*step)(gm_refine_state *, int), int (*stop)(void *),
                 void *arg)
{
    int changed = 0;
    for (int i = 0; i < n; i++) {
        if (stop && stop(arg))
            return 2;
        changed |= step(r, i);
    }
    return changed;
}

int gm_refine_nodes(const tg_graph *g, const gm_machine *m,
                    int (*stop)(void *arg), void *arg, gm_place *map,
                    tg_error *err)
{
    int rc = gm_mapping_check(m, map, g->n, err);
    if (rc || g->n == 0)
        return rc;
    gm_refine_state r;
    memset(&r, 0, sizeof r);
    rc = state_init(&r, g, m, map, err);
    for (int pass = 0; !rc && pass < REFINE_PASSES; pass++) {
        int a = sweep(&r, m->n, gm_refine_node, stop, arg);
        int b = a == 2 ? 2 : sweep(&r, g->n, gm_refine_task, stop, arg);
        if (a == 2 || b == 2)
            rc = 1;
        else if (!a && !b)
            break;
    }
    state_free(&r);
    return rc;
}

int gm_refine(const tg_graph *g, const gm_machine *m,
              int (*stop)(void *arg), void *arg, gm_place *map,
              tg_error *err)
{
    int rc = gm_refine_nodes(g, m, stop, arg, map, err);
    return rc ? rc : gm_slots_place(g, m, NULL, map, err);
}
