/* decompose_map.c: gm_decompose, the plan of decompose.c laid out as a
 * mapping.
 *
 * Compact orders.  Tasks inside a box, and boxes when they are not
 * embedded, are listed by recursive bisection of the region: the region
 * is halved (the lower floor(extent / 2) cells first) across the
 * dimension whose cut crosses fewest bytes
 * for its area (rho[i] / extent, extents in tasks; ties: the longer, then
 * the lower dimension), down to single cells.  So consecutive slots of a
 * node hold neighbouring tasks, and consecutive boxes, which go onto
 * consecutive nodes in network order (hosts under one leaf switch, one
 * router, or along the Hilbert curve of a torus), form compact groups;
 * with group boxes (the plan's group[]), the group boxes in that order,
 * then the boxes inside each.
 *
 * Packages.  When a node topology is set and the boxes are exact, a node
 * whose packages hold equal numbers of slots has its box cut once more,
 * into one sub-box per package (gm_dgrid_best over the box, which does not
 * wrap), the i-th sub-box in row-major order onto the i-th package's
 * slots (in slot order), each in the compact order above. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

typedef struct rb_walk {
    int k;
    const double *rho;
    double unit[TG_GRID_MAXDIMS]; /* tasks per cell along each dimension */
    void (*emit)(void *arg, const int *c);
    void *arg;
} rb_walk;

static void rb(rb_walk *w, int *lo, int *hi)
{
    int best = -1;
    double best_ext = 0;
    for (int i = 0; i < w->k; i++) {
        int ext = hi[i] - lo[i];
        if (ext < 2)
            continue;
        double e = ext * w->unit[i];
        /* rho[i] / e smaller, then e larger. */
        if (best < 0 || w->rho[i] * best_ext < w->rho[best] * e ||
            (w->rho[i] * best_ext == w->rho[best] * e && e > best_ext)) {
            best = i;
            best_ext = e;
        }
    }
    if (best < 0) {
        w->emit(w->arg, lo);
        return;
    }
    int mid = lo[best] + (hi[best] - lo[best]) / 2, keep = hi[best];
    hi[best] = mid;
    rb(w, lo, hi);
    hi[best] = keep;
    keep = lo[best];
    lo[best] = mid;
    rb(w, lo, hi);
    lo[best] = keep;
}

/* ------------------------------------------------------------ state */

typedef struct lay {
    const gm_dgrid *d;
    const gm_machine *m;
    const gm_decompose_plan *pl;
    gm_place *map;
    /* the flow: nodes in network order */
    const int *nodes;
    int at, slot;
    /* exact boxes: the node (-1: the flow) and the slots to fill, in
     * order (NULL: 0, 1, ...) */
    int node;
    const int *slots;
    int filled;
    /* boxes listed (not embedded) */
    int *boxes;
    int nboxes;
} lay;

static int64_t position(const gm_dgrid *d, const int *c)
{
    int64_t p = 0;
    for (int i = 0; i < d->k; i++)
        p = p * d->L[i] + c[i];
    return p;
}

static void put_task(void *arg, const int *c)
{
    lay *l = arg;
    int64_t p = position(l->d, c);
    int t = l->d->task ? l->d->task[p] : (int)p;
    if (l->node >= 0) { /* an exact box onto its node */
        l->map[t].node = l->node;
        l->map[t].slot = l->slots ? l->slots[l->filled] : l->filled;
        l->filled++;
        return;
    }
    while (l->slot == l->m->slots[l->nodes[l->at]]) {
        l->at++;
        l->slot = 0;
    }
    l->map[t].node = l->nodes[l->at];
    l->map[t].slot = l->slot++;
}

static void put_box(void *arg, const int *b)
{
    lay *l = arg;
    int64_t id = 0;
    for (int i = 0; i < l->d->k; i++)
        id = id * l->pl->parts[i] + b[i];
    l->boxes[l->nboxes++] = (int)id;
}

static void box_bounds(const gm_dgrid *d, const int *parts, const int *b,
                       int *lo, int *hi)
{
    for (int i = 0; i < d->k; i++) {
        lo[i] = (int)((int64_t)b[i] * d->L[i] / parts[i]);
        hi[i] = (int)((int64_t)(b[i] + 1) * d->L[i] / parts[i]);
    }
}

static void tasks_of_box(lay *l, int *lo, int *hi)
{
    rb_walk w = {l->d->k, l->d->rho, {0}, put_task, l};
    for (int i = 0; i < l->d->k; i++)
        w.unit[i] = 1;
    rb(&w, lo, hi);
}

/* Packages of a node: slots grouped by package; npkg sub-boxes when the
 * packages hold equal slot counts, else 0. */
typedef struct pkgs {
    int npkg;
    int *slots; /* S entries: package 0's slots, then package 1's, ... */
    int per;    /* slots per package */
} pkgs;

static int pkgs_make(const gm_machine *m, int node, pkgs *p)
{
    memset(p, 0, sizeof *p);
    int S = m->slots[node];
    if (!m->topo || gm_slot_package(m, node, 0) < 0)
        return 0;
    int top = 0;
    for (int s = 0; s < S; s++)
        if (gm_slot_package(m, node, s) + 1 > top)
            top = gm_slot_package(m, node, s) + 1;
    if (top < 2 || S % top)
        return 0;
    if (!(p->slots = malloc((size_t)S * sizeof *p->slots)))
        return -1;
    int k = 0;
    for (int q = 0; q < top; q++) {
        int here = 0;
        for (int s = 0; s < S; s++)
            if (gm_slot_package(m, node, s) == q) {
                p->slots[k++] = s;
                here++;
            }
        if (here != S / top) {
            free(p->slots);
            p->slots = NULL;
            return 0;
        }
    }
    p->npkg = top;
    p->per = S / top;
    return 0;
}

/* Box with bounds lo, hi onto `node` (exact boxes), a sub-box per package
 * when pk says so. */
static void box_onto_node(lay *l, const pkgs *pk, int node, int *lo, int *hi)
{
    static const int no_wrap[TG_GRID_MAXDIMS];
    const gm_dgrid *d = l->d;
    int ext[TG_GRID_MAXDIMS], q[TG_GRID_MAXDIMS];
    double cut;
    for (int i = 0; i < d->k; i++)
        ext[i] = hi[i] - lo[i];
    l->node = node;
    l->filled = 0;
    if (!pk->npkg || !gm_dgrid_best(d, ext, no_wrap, pk->npkg, q, &cut)) {
        l->slots = NULL; /* slots 0, 1, ... in the compact order */
        tasks_of_box(l, lo, hi);
        l->node = -1;
        return;
    }
    l->slots = pk->slots;
    int sub[TG_GRID_MAXDIMS] = {0};
    for (int s = 0; s < pk->npkg; s++) {
        int slo[TG_GRID_MAXDIMS], shi[TG_GRID_MAXDIMS];
        for (int i = 0; i < d->k; i++) {
            slo[i] = lo[i] + (int)((int64_t)sub[i] * ext[i] / q[i]);
            shi[i] = lo[i] + (int)((int64_t)(sub[i] + 1) * ext[i] / q[i]);
        }
        l->filled = s * pk->per;
        tasks_of_box(l, slo, shi);
        for (int i = d->k - 1; i >= 0; i--) {
            if (++sub[i] < q[i])
                break;
            sub[i] = 0;
        }
    }
    l->slots = NULL;
    l->node = -1;
}

/* ------------------------------------------------------------ nodes */

static const gm_machine *cmp_machine;

static int by_position(const void *a, const void *b)
{
    int x = cmp_machine->pos[*(const int *)a];
    int y = cmp_machine->pos[*(const int *)b];
    return (x > y) - (x < y);
}

/* The machine's nodes in network order (top of decompose.c). */
static int network_order(const gm_machine *m, int *order, tg_error *err)
{
    if (m->net->kind == GM_NET_TORUS)
        return gm_hilbert_nodes(m, order, err);
    for (int i = 0; i < m->n; i++)
        order[i] = i;
    if (m->net->kind != GM_NET_FLAT) {
        cmp_machine = m;
        qsort(order, (size_t)m->n, sizeof *order, by_position);
    }
    return 0;
}

/* The groups of the first B nodes in network order (fat-tree leaves,
 * dragonfly routers): runs of consecutive nodes at the least distance
 * (`near`) from the run's first node.  Returns their size G when every
 * run has G nodes, G divides B and the runs' first nodes are all at one
 * distance `far` from the first run's; else 0.  Tori (boxes embedded or
 * along the Hilbert curve) and flat networks have none. */
static int groups_of(const gm_machine *m, const int *nodes, int B, int *near,
                     int *far)
{
    if (m->net->kind == GM_NET_TORUS || m->net->kind == GM_NET_FLAT ||
        B < 4)
        return 0;
    *near = gm_distance(m, nodes[0], nodes[1]);
    int G = 1;
    while (G < B && gm_distance(m, nodes[0], nodes[G]) == *near)
        G++;
    if (G < 2 || G == B || B % G)
        return 0;
    *far = gm_distance(m, nodes[0], nodes[G]);
    for (int s = 0; s < B; s += G) {
        if (s && gm_distance(m, nodes[0], nodes[s]) != *far)
            return 0;
        for (int i = s + 1; i < s + G; i++)
            if (gm_distance(m, nodes[s], nodes[i]) != *near)
                return 0;
    }
    return *far > *near ? G : 0;
}

/* ------------------------------------------------------------ the map */

static int lay_out(lay *l, const pkgs *pk)
{
    const gm_dgrid *d = l->d;
    const gm_decompose_plan *pl = l->pl;
    const int k = d->k;
    int b[TG_GRID_MAXDIMS], lo[TG_GRID_MAXDIMS], hi[TG_GRID_MAXDIMS];
    if (pl->embedded) {
        double x[TG_GRID_MAXDIMS];
        int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS];
        memcpy(fold, pl->fold, sizeof fold);
        gm_dgrid_cut(d, d->L, d->per, pl->parts, x);
        for (int i = 0; i < k; i++)
            b[i] = 0;
        for (int box = 0; box < pl->boxes; box++) {
            int64_t pos = gm_fold_position(l->m->net, k, x, fold, b);
            box_bounds(d, pl->parts, b, lo, hi);
            box_onto_node(l, pk, l->m->pos_node[pos], lo, hi);
            for (int i = k - 1; i >= 0; i--) {
                if (++b[i] < pl->parts[i])
                    break;
                b[i] = 0;
            }
        }
        return 0;
    }
    if (!(l->boxes = malloc((size_t)pl->boxes * sizeof *l->boxes)))
        return -1;
    /* The group boxes in compact order, then the boxes of each. */
    int ngroups = 1, r[TG_GRID_MAXDIMS];
    for (int i = 0; i < k; i++) {
        ngroups *= pl->group[i];
        r[i] = pl->parts[i] / pl->group[i];
    }
    int *groups = malloc((size_t)ngroups * sizeof *groups);
    if (!groups)
        return -1;
    gm_decompose_plan gp = *pl;
    memcpy(gp.parts, pl->group, sizeof gp.parts);
    lay gl = *l;
    gl.pl = &gp;
    gl.boxes = groups;
    gl.nboxes = 0;
    rb_walk w = {k, d->rho, {0}, put_box, &gl};
    for (int i = 0; i < k; i++) {
        w.unit[i] = (double)d->L[i] / pl->group[i];
        lo[i] = 0;
        hi[i] = pl->group[i];
    }
    rb(&w, lo, hi);
    w.arg = l;
    for (int i = 0; i < k; i++)
        w.unit[i] = (double)d->L[i] / pl->parts[i];
    for (int j = 0; j < ngroups; j++) {
        int64_t id = groups[j];
        for (int i = k - 1; i >= 0; i--) {
            lo[i] = (int)(id % pl->group[i]) * r[i];
            hi[i] = lo[i] + r[i];
            id /= pl->group[i];
        }
        rb(&w, lo, hi);
    }
    free(groups);
    for (int j = 0; j < l->nboxes; j++) {
        int64_t id = l->boxes[j];
        for (int i = k - 1; i >= 0; i--) {
            b[i] = (int)(id % pl->parts[i]);
            id /= pl->parts[i];
        }
        box_bounds(d, pl->parts, b, lo, hi);
        if (pl->exact)
            box_onto_node(l, pk, l->nodes[j], lo, hi);
        else
            tasks_of_box(l, lo, hi);
    }
    return 0;
}

int gm_decompose(const tg_graph *g, const gm_machine *m, const tg_grid *grid,
                 gm_decompose_plan *plan, gm_place *map, tg_error *err)
{
    tg_grid own;
    if (!grid) {
        if (!gm_grid_of(g, &own))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "decompose needs a grid: the graph has "
                                "none (a .tg.json with \"grid\", or "
                                "--grid DIMS) and its edges are not a "
                                "stencil over tasks in row-major order");
        grid = &own;
    }
    int64_t total = gm_machine_total_slots(m);
    if (g->n > total)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d tasks but the machine has %lld slots", g->n,
                            (long long)total);
    gm_dgrid d;
    int rc = gm_dgrid_make(g, grid, &d, err);
    if (rc)
        return rc;
    int *nodes = malloc(((size_t)m->n + 1) * sizeof *nodes);
    if (!nodes) {
        gm_dgrid_free(&d);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    if ((rc = network_order(m, nodes, err))) {
        free(nodes);
        gm_dgrid_free(&d);
        return rc;
    }
    /* B: the nodes the tasks need in network order; exact when they all
     * have the same slots and the tasks fill them. */
    int B = 0;
    int64_t held = 0;
    while (held < g->n)
        held += m->slots[nodes[B++]];
    int exact = B > 0 && held == g->n;
    for (int i = 1; exact && i < B; i++)
        exact = m->slots[nodes[i]] == m->slots[nodes[0]];
    gm_decompose_plan pl;
    memset(&pl, 0, sizeof pl);
    int found = 0;
    if (exact && m->net->kind == GM_NET_TORUS && B == m->n &&
        m->n == m->net->npos)
        found = gm_decompose_choose(&d, B, 1, m->net, &pl);
    int near, far, G = groups_of(m, nodes, B, &near, &far);
    if (!found && exact && G > 1 && G < B)
        found = gm_decompose_choose_groups(&d, B, B / G, near, far, &pl);
    if (!found && exact)
        found = gm_decompose_choose(&d, B, 1, NULL, &pl);
    if (!found && B > 0)
        found = gm_decompose_choose(&d, B, 0, NULL, &pl);
    if (plan)
        *plan = pl;
    if (map && B > 0) {
        pkgs pk = {0, NULL, 0};
        lay l = {&d, m, &pl, map, nodes, 0, 0, -1, NULL, 0, NULL, 0};
        if ((pl.exact && pkgs_make(m, nodes[0], &pk)) || lay_out(&l, &pk))
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        free(pk.slots);
        free(l.boxes);
    }
    free(nodes);
    gm_dgrid_free(&d);
    return rc;
}
