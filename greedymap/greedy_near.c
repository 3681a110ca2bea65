/* greedy_near.c: the Delta closest nodes that still have free slots, the
 * candidate set of GreedyMap (papers/001, Algorithm 1, line 8).
 *
 * When Delta covers every node with free slots, the candidates are simply
 * the list of those nodes (no distances).  Otherwise a gm_shells walk
 * from the centre (the last used node, or with centre=nbr the node of the
 * task's heaviest placed neighbours: greedy.c) yields nodes by
 * nondecreasing distance and full nodes are skipped (gm_shells_next_free:
 * on flat networks and dragonflies at the default placement a range of
 * full nodes in one step).  Nodes only ever become full, so when the next
 * task starts from the same node the walk goes on where it stopped: the
 * candidates that filled up are dropped and the walk adds the next free
 * nodes (when no node filled up since, the candidates are the last
 * call's, O(1)).  A walk that has stepped over more nodes than there are
 * free nodes in one call (a start deep inside a full region) stops, and
 * the Delta closest are picked from the free list instead, by a counting
 * sort on distance (on flat, every node but the start at distance 2, the
 * list's first ones, O(Delta)); among nodes at the same distance the walk
 * keeps its shell order and the fallback the free list's order.  So one
 * call costs O(min(walk, free nodes) + Delta) and a start of the walk:
 * O(1) on tori, meshes, flat networks and dragonflies at the default
 * placement, O(classes) on fat-trees (attachments) and other dragonflies
 * (routers), O(nodes) on graphs (gm_shells_start sorts them all).
 *
 * Torus_Wrap = 0 explores a torus as a mesh: the walk and the fallback
 * then both use the distance without wrap. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

struct gm_near {
    const gm_machine *m;
    gm_shells *sh;  /* NULL when delta covers every node */
    int delta, wrap;
    int mesh;       /* torus explored without wrap */
    int from;       /* where the walk started, -1 when none is under way */
    int *cand, ncand;
    int seen;       /* fr->count when cand was found */
    int *count, dmax; /* the fallback's counting sort */
};

int gm_near_new(const gm_machine *m, int delta, int wrap, gm_near **out,
                tg_error *err)
{
    gm_near *nr = calloc(1, sizeof *nr);
    if (!nr)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    nr->m = m;
    nr->delta = delta;
    nr->wrap = wrap;
    nr->from = -1;
    const gm_network *net = m->net;
    nr->mesh = net->kind == GM_NET_TORUS && !wrap;
    *out = nr;
    if (delta >= m->n)
        return 0;
    if (nr->mesh)
        for (int k = 0; k < net->ndims; k++)
            nr->dmax += net->size[k] - 1;
    else
        nr->dmax = gm_max_distance(m);
    int rc = gm_shells_new(m, &nr->sh, err);
    if (rc) {
        gm_near_free(nr);
        return rc;
    }
    nr->cand = malloc((size_t)delta * sizeof *nr->cand);
    nr->count = malloc(((size_t)nr->dmax + 2) * sizeof *nr->count);
    if (!nr->cand || !nr->count) {
        gm_near_free(nr);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    return 0;
}

void gm_near_free(gm_near *nr)
{
    if (!nr)
        return;
    gm_shells_free(nr->sh);
    free(nr->cand);
    free(nr->count);
    free(nr);
}

int gm_near_distance(const gm_near *nr, int a, int b)
{
    if (!nr->mesh)
        return gm_distance(nr->m, a, b);
    const int *ca = gm_machine_coords(nr->m, a);
    const int *cb = gm_machine_coords(nr->m, b);
    int d = 0;
    for (int k = 0; k < nr->m->net->ndims; k++)
        d += abs(ca[k] - cb[k]);
    return d;
}

/* The delta free nodes closest to `from`, by a counting sort of the free
 * list on distance (stable, so ties keep the list's order). */
static void select_closest(gm_near *nr, int from, const gm_free *fr)
{
    if (nr->m->net->kind == GM_NET_FLAT) {
        /* from at distance 0 when free, every other node at 2: the sort
         * is the list's first nodes, O(delta). */
        int k = 0;
        if (fr->left[from] > 0)
            nr->cand[k++] = from;
        for (int i = 0; k < nr->delta; i++)
            if (fr->list[i] != from)
                nr->cand[k++] = fr->list[i];
        nr->ncand = nr->delta;
        return;
    }
    int *count = nr->count;
    memset(count, 0, ((size_t)nr->dmax + 2) * sizeof *count);
    for (int i = 0; i < fr->count; i++)
        count[gm_near_distance(nr, from, fr->list[i]) + 1]++;
    for (int d = 0; d <= nr->dmax; d++)
        count[d + 1] += count[d];
    for (int i = 0; i < fr->count; i++) {
        int at = count[gm_near_distance(nr, from, fr->list[i])]++;
        if (at < nr->delta)
            nr->cand[at] = fr->list[i];
    }
    nr->ncand = nr->delta;
}

int gm_free_next(const gm_free *fr, int k)
{
    int r = k;
    while (r < fr->n && fr->left[r] == 0)
        r = fr->skip[r];
    while (k < r) { /* every node on the way is full: point them at r */
        int next = fr->skip[k];
        fr->skip[k] = r;
        k = next;
    }
    return r;
}

void gm_near_forget(gm_near *nr)
{
    nr->from = -1;
}

int gm_near_find(gm_near *nr, int from, const gm_free *fr, const int **out)
{
    if (nr->delta >= fr->count) {
        *out = fr->list;
        return fr->count;
    }
    *out = nr->cand;
    if (from == nr->from && fr->count == nr->seen)
        return nr->ncand; /* no node filled up since: nothing to redo */
    nr->seen = fr->count;
    if (from != nr->from) {
        gm_shells_start(nr->sh, from, nr->wrap);
        nr->from = from;
        nr->ncand = 0;
    } else {
        int k = 0;
        for (int i = 0; i < nr->ncand; i++)
            if (fr->left[nr->cand[i]] > 0)
                nr->cand[k++] = nr->cand[i];
        nr->ncand = k;
    }
    /* delta < fr->count free nodes, so the walk finds delta of them.  It
     * gives way after fr->count + 1 steps of this call: steps counts the
     * nodes gone over, full ones too. */
    for (int steps = 0; nr->ncand < nr->delta;) {
        int went, node = gm_shells_next_free(nr->sh, fr, fr->count + 1 - steps,
                                             NULL, &went);
        if (node < 0) {
            select_closest(nr, from, fr);
            nr->from = -1;
            break;
        }
        steps += went;
        nr->cand[nr->ncand++] = node;
    }
    return nr->ncand;
}
