/* order.c: the task lists of GreedyMap (papers/001, 4.5): OO, BFS,
 * BFS-DFS and RCM here, GPART and FILE in order_gpart.c and order_file.c,
 * GPARTRB in order_parts.c.
 *
 * The graph-walking orders take the connected components one after the
 * other, in the order of their lowest task id, and start each component
 * at a pseudo-peripheral task found by the George-Liu rule: from the
 * component's lowest task r, build the BFS level structure; take x, the
 * task of least degree in the last level (the first such in BFS order);
 * if x's level structure is deeper than r's, r = x and repeat, else r is
 * the start.  At most MAX_ROOTS level structures are built per component,
 * so every order here costs O(T + E) (RCM adds a sort of each task's
 * neighbours by degree).
 *
 *   BFS      breadth-first from the start, neighbours in id order.
 *   BFS-DFS  depth-first along paths, breadth-first when stuck: from the
 *            current task go to its unvisited neighbour with the heaviest
 *            edge (ties: the lowest id); every neighbour seen is queued
 *            once, in id order; when the current task has no unvisited
 *            neighbour, the path restarts from the oldest queued task not
 *            yet visited.
 *   RCM      Cuthill-McKee (breadth-first from the start, each task's
 *            unvisited neighbours appended by increasing degree, ties by
 *            id), then each component's list reversed; the components
 *            keep their order. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

#define MAX_ROOTS 8

typedef struct walk {
    gm_levels lv;
    char *done;  /* already in the order */
    uint64_t *keys; /* RCM: (degree, id) of the neighbours being sorted */
} walk;

static int degree(const tg_graph *g, int t)
{
    return (int)(g->xadj[t + 1] - g->xadj[t]);
}

/* The BFS level structure rooted at r in w->queue: returns its size, the
 * index where its last level starts in *last, and its depth. */
static int levels(gm_levels *w, int r, int *last, int *depth)
{
    const tg_graph *g = w->g;
    int stamp = ++w->stamp, head = 0, tail = 0, level_end = 1;
    w->queue[tail++] = r;
    w->mark[r] = stamp;
    *last = 0;
    *depth = 0;
    while (head < tail) {
        if (head == level_end) {
            *last = head;
            ++*depth;
            level_end = tail;
        }
        int t = w->queue[head++];
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            if (w->mark[u] != stamp) {
                w->mark[u] = stamp;
                w->queue[tail++] = u;
            }
        }
    }
    return tail;
}

int gm_pseudo_peripheral(gm_levels *w, int start)
{
    int r = start, last, depth;
    int size = levels(w, r, &last, &depth);
    for (int i = 1; i < MAX_ROOTS; i++) {
        int x = w->queue[last];
        for (int k = last + 1; k < size; k++)
            if (degree(w->g, w->queue[k]) < degree(w->g, x))
                x = w->queue[k];
        int xlast, xdepth;
        int xsize = levels(w, x, &xlast, &xdepth);
        if (xdepth <= depth)
            break;
        r = x;
        last = xlast;
        depth = xdepth;
        size = xsize;
    }
    return r;
}

static void bfs(walk *w, int r, int *order, int *k)
{
    const tg_graph *g = w->lv.g;
    int head = *k;
    order[(*k)++] = r;
    w->done[r] = 1;
    while (head < *k) {
        int t = order[head++];
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            if (!w->done[u]) {
                w->done[u] = 1;
                order[(*k)++] = u;
            }
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void rcm(walk *w, int r, int *order, int *k)
{
    const tg_graph *g = w->lv.g;
    int first = *k, head = *k;
    order[(*k)++] = r;
    w->done[r] = 1;
    while (head < *k) {
        int t = order[head++], nk = 0;
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            if (!w->done[u]) {
                w->done[u] = 1;
                w->keys[nk++] = (uint64_t)degree(g, u) << 32 | (unsigned)u;
            }
        }
        qsort(w->keys, (size_t)nk, sizeof *w->keys, cmp_u64);
        for (int i = 0; i < nk; i++)
            order[(*k)++] = (int)(w->keys[i] & 0xffffffffu);
    }
    for (int a = first, b = *k - 1; a < b; a++, b--) {
        int x = order[a];
        order[a] = order[b];
        order[b] = x;
    }
}

static void bfs_dfs(walk *w, int r, int *order, int *k)
{
    const tg_graph *g = w->lv.g;
    /* w->lv.mark is free again here: it flags queued tasks */
    int *mark = w->lv.mark, *queue = w->lv.queue;
    int head = 0, tail = 0;
    queue[tail++] = r;
    mark[r] = -1;
    while (head < tail) {
        int t = queue[head++];
        while (t >= 0 && !w->done[t]) {
            order[(*k)++] = t;
            w->done[t] = 1;
            int next = -1;
            uint64_t best = 0;
            for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
                int u = g->adjncy[e];
                if (w->done[u])
                    continue;
                if (mark[u] != -1) {
                    mark[u] = -1;
                    queue[tail++] = u;
                }
                if (g->adjwgt[e] > best) {
                    best = g->adjwgt[e];
                    next = u;
                }
            }
            t = next;
        }
    }
}

int gm_task_order(const tg_graph *g, const gm_machine *m, const gm_config *c,
                  int *order, tg_error *err)
{
    int rc = gm_config_check(c, err);
    if (rc)
        return rc;
    switch (c->order) {
    case GM_ORDER_GPART:
        return gm_order_gpart(g, m, c->seed, order, err);
    case GM_ORDER_GPARTRB:
        return gm_order_gpartrb(g, m, c->seed, order, err);
    case GM_ORDER_FILE:
        return gm_order_file(c->order_file, g->n, order, err);
    case GM_ORDER_OO:
        for (int t = 0; t < g->n; t++)
            order[t] = t;
        return 0;
    default:
        break;
    }
    int maxdeg = 0;
    for (int t = 0; t < g->n; t++)
        if (degree(g, t) > maxdeg)
            maxdeg = degree(g, t);
    walk w = {{g, calloc((size_t)g->n + 1, sizeof *w.lv.mark), 0,
               malloc(((size_t)g->n + 1) * sizeof *w.lv.queue)},
              calloc((size_t)g->n + 1, 1),
              malloc(((size_t)maxdeg + 1) * sizeof *w.keys)};
    if (!w.lv.mark || !w.lv.queue || !w.done || !w.keys)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int s = 0, k = 0; !rc && s < g->n; s++) {
        if (w.done[s])
            continue;
        int r = gm_pseudo_peripheral(&w.lv, s);
        if (c->order == GM_ORDER_BFS)
            bfs(&w, r, order, &k);
        else if (c->order == GM_ORDER_RCM)
            rcm(&w, r, order, &k);
        else
            bfs_dfs(&w, r, order, &k);
    }
    free(w.lv.mark);
    free(w.lv.queue);
    free(w.done);
    free(w.keys);
    return rc;
}
