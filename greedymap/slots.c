/* slots.c: which slot of its node each task takes, by the levels inside
 * the node (levels.c).  The nodes' tasks are given; only the slots move,
 * so hop-bytes do not change, only the part of J inside nodes.
 *
 * Placement (with a task list): every node's tasks in list order, each
 * onto the free slot of least sum of bytes x level distance to the
 * node's tasks placed before it (ties: the lowest slot; a task with no
 * such neighbour takes the lowest free slot, as before).
 * Improvement: passes over the nodes (at most SLOT_PASSES, until one
 * changes nothing); for each task of a node in slot order, the best
 * strictly improving swap with another task of the node or move into a
 * free slot (the lowest slot of equals), applied at once.  With C[t][s]
 * the cost of t at slot s to the node's other tasks (a task at s itself
 * costing 0), swapping t at a with u at b changes the node's cost by
 * C[t][b] - C[t][a] + C[u][a] - C[u][b] + 2 w(t,u) D(a,b); C is kept up
 * to date after every step, O(slots x degree).  Cost per node and pass
 * O(s^2 + s x sum of its tasks' degrees) steps; nodes of more than
 * SLOT_MAX_IMPROVE slots are placed but not improved (C would take
 * s^2 x 16 bytes). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

#define SLOT_PASSES 8
#define SLOT_MAX_IMPROVE 1024

typedef struct slots {
    const tg_graph *g;
    const gm_machine *m;
    const gm_lv *lv;
    gm_place *map;
    int64_t *first; /* node -> index of its slot 0 in occ */
    int *occ;       /* processor -> task, -1 free */
    int *done;      /* task -> 1 once placed (placement) */
    gm_i128 *c;     /* improvement: tasks of a node x slots */
    int *loc;       /* task -> its row of c, -1 off the node */
    int *rows;      /* row -> task */
} slots;

static uint64_t dist(const slots *s, const gm_lv_tab *gid, int a, int b)
{
    return gm_lv_pair(s->lv, gid, a, b);
}

/* ----------------------------------------------------------- placement */

static void place_task(slots *s, int t)
{
    const tg_graph *g = s->g;
    int node = s->map[t].node, ns = s->m->slots[node];
    const gm_lv_tab *gid = gm_lv_table(s->m, s->lv, node);
    int *occ = s->occ + s->first[node];
    int best = -1;
    gm_i128 best_cost = 0;
    for (int a = 0; a < ns; a++) {
        if (occ[a] >= 0)
            continue;
        gm_i128 x = 0;
        for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
            int u = g->adjncy[e];
            if (s->done[u] && s->map[u].node == node)
                x += (gm_i128)g->adjwgt[e] * dist(s, gid, a, s->map[u].slot);
        }
        if (best < 0 || x < best_cost) {
            best = a;
            best_cost = x;
        }
    }
    occ[best] = t;
    s->map[t].slot = best;
    s->done[t] = 1;
}

/* ---------------------------------------------------------- improvement */

/* Add sign x w(x, v) x D(q, at) to C[x][q] for every neighbour x of v on
 * the node and every slot q: v's share of its neighbours' costs, v being
 * at slot `at`. */
static void charge(slots *s, int v, int at, int sign, const gm_lv_tab *gid, int ns)
{
    const tg_graph *g = s->g;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int x = g->adjncy[e];
        if (x == v || s->loc[x] < 0)
            continue;
        gm_i128 *row = s->c + (size_t)s->loc[x] * (size_t)ns;
        gm_i128 w = (gm_i128)g->adjwgt[e] * sign;
        for (int q = 0; q < ns; q++)
            row[q] += w * (gm_i128)dist(s, gid, q, at);
    }
}

/* The best strictly improving swap or move of t; applied.  1 if any. */
static int improve_task(slots *s, int t, const gm_lv_tab *gid, int ns, int *occ,
                        gm_i128 *wrow)
{
    const tg_graph *g = s->g;
    int a = s->map[t].slot;
    const gm_i128 *ct = s->c + (size_t)s->loc[t] * (size_t)ns;
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++)
        if (s->loc[g->adjncy[e]] >= 0 && g->adjncy[e] != t)
            wrow[s->loc[g->adjncy[e]]] += g->adjwgt[e];
    gm_i128 best = 0;
    int best_b = -1;
    for (int b = 0; b < ns; b++) {
        if (b == a)
            continue;
        int u = occ[b];
        gm_i128 d = ct[b] - ct[a];
        if (u >= 0) {
            const gm_i128 *cu = s->c + (size_t)s->loc[u] * (size_t)ns;
            d += cu[a] - cu[b] +
                 2 * wrow[s->loc[u]] * (gm_i128)dist(s, gid, a, b);
        }
        if (d < best) {
            best = d;
            best_b = b;
        }
    }
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++)
        if (s->loc[g->adjncy[e]] >= 0)
            wrow[s->loc[g->adjncy[e]]] = 0;
    if (best_b < 0)
        return 0;
    int b = best_b, u = occ[b];
    charge(s, t, a, -1, gid, ns);
    if (u >= 0)
        charge(s, u, b, -1, gid, ns);
    occ[b] = t;
    occ[a] = u;
    s->map[t].slot = b;
    if (u >= 0)
        s->map[u].slot = a;
    charge(s, t, b, 1, gid, ns);
    if (u >= 0)
        charge(s, u, a, 1, gid, ns);
    return 1;
}

/* Improvement passes over one node.  wrow: ns zeros, left zero. */
static void improve_node(slots *s, int node, gm_i128 *wrow)
{
    int ns = s->m->slots[node], k = 0;
    const gm_lv_tab *gid = gm_lv_table(s->m, s->lv, node);
    int *occ = s->occ + s->first[node];
    for (int q = 0; q < ns; q++)
        if (occ[q] >= 0) {
            s->loc[occ[q]] = k;
            s->rows[k++] = occ[q];
        }
    if (k < 2) /* one task alone costs nothing anywhere */
        goto out;
    memset(s->c, 0, (size_t)k * (size_t)ns * sizeof *s->c);
    for (int i = 0; i < k; i++)
        charge(s, s->rows[i], s->map[s->rows[i]].slot, 1, gid, ns);
    for (int pass = 0; pass < SLOT_PASSES; pass++) {
        int changed = 0;
        for (int q = 0; q < ns; q++)
            if (occ[q] >= 0)
                changed |= improve_task(s, occ[q], gid, ns, occ, wrow);
        if (!changed)
            break;
    }
out:
    for (int i = 0; i < k; i++)
        s->loc[s->rows[i]] = -1;
}

/* ------------------------------------------------------------- entry */

static void slots_free(slots *s)
{
    free(s->first);
    free(s->occ);
    free(s->done);
    free(s->c);
    free(s->loc);
    free(s->rows);
}

int gm_slots_place(const tg_graph *g, const gm_machine *m, const int *order,
                   gm_place *map, tg_error *err)
{
    const gm_lv *lv = gm_machine_lv(m);
    if (lv->nlev < 2 || g->n == 0)
        return 0; /* every pair of slots of a node costs the same */
    slots s = {.g = g, .m = m, .lv = lv, .map = map};
    int maxs = 0;
    s.first = malloc(((size_t)m->n + 1) * sizeof *s.first);
    if (s.first) {
        s.first[0] = 0;
        for (int i = 0; i < m->n; i++) {
            s.first[i + 1] = s.first[i] + m->slots[i];
            if (m->slots[i] > maxs && m->slots[i] <= SLOT_MAX_IMPROVE)
                maxs = m->slots[i];
        }
        s.occ = malloc((size_t)s.first[m->n] * sizeof *s.occ);
    }
    s.done = calloc((size_t)g->n, sizeof *s.done);
    s.loc = malloc((size_t)g->n * sizeof *s.loc);
    s.rows = malloc(((size_t)maxs + 1) * sizeof *s.rows);
    s.c = malloc(((size_t)maxs * (size_t)maxs + 1) * sizeof *s.c);
    gm_i128 *wrow = calloc((size_t)maxs + 1, sizeof *wrow);
    if (!s.first || !s.occ || !s.done || !s.loc || !s.rows || !s.c ||
        !wrow) {
        free(wrow);
        slots_free(&s);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int64_t p = 0; p < s.first[m->n]; p++)
        s.occ[p] = -1;
    for (int t = 0; t < g->n; t++)
        s.loc[t] = -1;
    if (order) {
        for (int i = 0; i < g->n; i++)
            place_task(&s, order[i]);
    } else {
        for (int t = 0; t < g->n; t++)
            s.occ[s.first[map[t].node] + map[t].slot] = t;
    }
    for (int node = 0; node < m->n; node++)
        if (m->slots[node] <= SLOT_MAX_IMPROVE)
            improve_node(&s, node, wrow);
    free(wrow);
    slots_free(&s);
    return 0;
}

/* ------------------------------------------------------- task order */

/* Largest node whose slot pairs are all compared (O(s^2) distances). */
#define SLOT_MAX_SYMMETRY 4096

/* 1 when every two distinct slots of node cost the same distance. */
static int symmetric(const gm_machine *m, const gm_lv *lv, int node)
{
    const gm_lv_tab *tab = gm_lv_table(m, lv, node);
    int ns = m->slots[node];
    if (!tab || ns < 3)
        return 1;
    if (ns > SLOT_MAX_SYMMETRY)
        return 0;
    uint64_t d = gm_lv_pair(lv, tab, 0, 1);
    for (int a = 0; a < ns; a++)
        for (int b = a + 1; b < ns; b++)
            if (gm_lv_pair(lv, tab, a, b) != d)
                return 0;
    return 1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int gm_slots_task_order(const gm_machine *m, gm_place *map, int n,
                        tg_error *err)
{
    const gm_lv *lv = gm_machine_lv(m);
    int64_t *first = calloc((size_t)m->n + 2, sizeof *first);
    int64_t *at = calloc((size_t)m->n + 1, sizeof *at);
    int *slot = malloc(((size_t)n + 1) * sizeof *slot);
    char *sym = malloc((size_t)m->n + 1);
    if (!first || !at || !slot || !sym) {
        free(first);
        free(at);
        free(slot);
        free(sym);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int t = 0; t < n; t++)
        first[map[t].node + 1]++;
    for (int i = 0; i < m->n; i++) {
        first[i + 1] += first[i];
        at[i] = first[i];
        sym[i] = first[i + 1] > first[i] + 1 && symmetric(m, lv, i);
    }
    for (int t = 0; t < n; t++)
        slot[at[map[t].node]++] = map[t].slot;
    for (int i = 0; i < m->n; i++) {
        if (sym[i])
            qsort(slot + first[i], (size_t)(first[i + 1] - first[i]),
                  sizeof *slot, cmp_int);
        at[i] = first[i];
    }
    for (int t = 0; t < n; t++)
        map[t].slot = slot[at[map[t].node]++];
    free(first);
    free(at);
    free(slot);
    free(sym);
    return 0;
}
