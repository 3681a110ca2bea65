/* bisect.c: recursive bisection (Hoefler and Snir, ICS'11; a baseline of
 * papers/001, 5.1).  The machine's nodes and the task graph are cut in two
 * together, each task half going to one node half, until a half is one
 * node; its tasks then take its slots in task order.
 *
 * Nodes.  Tori and meshes: along the dimension whose coordinates span the
 * most, at the coordinate step closest to half the nodes (a plane of the
 * torus); when that step leaves a side with under a quarter of the nodes,
 * at exactly half of the nodes sorted by that coordinate, then position.
 * Other networks: the nodes sorted by distance from a peripheral node
 * (the node farthest from the first one; ties keep the previous order)
 * and cut at half, so that close nodes stay together.  Coordinates are
 * taken as they are: a block that wraps around a torus is not seen as
 * contiguous.
 *
 * Tasks.  METIS_PartGraphRecursive with 2 parts and target weights equal
 * to the halves' shares: with c_A and c_B the slots of the two halves, the
 * first half gets t_A = round(T c_A / (c_A + c_B)) of the T tasks (kept
 * within both halves' slots).  METIS balances only approximately, so the
 * part sizes are then made exact: the overfull part gives away its tasks
 * with the largest gain (bytes to the other part minus bytes to its own,
 * computed once), ties to the smaller task.  With fewer tasks than slots
 * the free slots are thus spread over the halves in proportion to their
 * slots, and inside a node the highest slots stay free.  METIS sees the
 * weights of gm_metis_graph_make (scaled to fit its 32-bit sums); METIS's
 * seed is the baseline's seed.  The regions are cut level by level
 * (breadth first); rb's cuts do not depend on that order.
 *
 * drb (dual recursive bipartitioning, Pellegrini's, as Scotch maps).  The
 * same cuts, each then weighing the edges to the tasks outside the region
 * being cut, whose place is known as far as the cutting has gone: a task
 * already in a one-node region at that node, another at its region's
 * middle (region_set).  The cost of a bisection is the bytes of its cut
 * edges times the distance between the two halves' middles plus, for
 * every edge to a task outside, its bytes times the distance from the
 * task's half to the other task's region.  First the orientation: when
 * the halves are equal, the task halves trade node halves if that lowers
 * the cost (METIS knows nothing of the outside, so its side 0 is as often
 * the wrong one); then up to DRB_PASSES passes of swaps, the tasks of
 * each side sorted by the gain of crossing, the k-th of one side paired
 * with the k-th of the other while the pair's exact gain is positive, so
 * the sizes stay and the cost never rises.  Breadth first matters here:
 * a region sees every other cut at least as deep as itself less one
 * level, not the far side of the machine still whole.  On bench/mapper's
 * panel drb reaches 0.68 to 0.97 of rb's average hop-bytes on tori
 * (grids, milc, the random geometric graph, Qbox, HPCC), level with it
 * on fat-trees (within 0.2 %), and costs 1.3 to 2 times rb's time. */
#include <stdlib.h>
#include <string.h>

#include <metis.h>

#include "gm_internal.h"

/* A task of a subgraph and its gain (fix_sizes, dual_refine). */
typedef struct gkey {
    __int128 gain;
    int i;
} gkey;

typedef struct region {
    int node;                /* a node in the middle */
    int mid2[GM_MAX_DIMS];   /* tori: twice the middle's coordinates */
} region;

typedef struct rb {
    const tg_graph *g;
    const gm_machine *m;
    gm_place *map;
    idx_t seed;
    gm_metis_graph mg; /* the whole graph, weights scaled */
    int *loc;       /* task -> index in the current subgraph, or -1 */
    int *side;      /* index in the current subgraph -> 0 or 1 */
    int *scratch;   /* T tasks, for the stable partition */
    idx_t *xadj, *adjncy, *adjwgt, *where; /* the current subgraph */
    int dual;       /* drb: weigh the edges to tasks outside (below) */
    region *reg;    /* drb: where each span's nodes are */
    int *reg_of;    /* drb: task -> the span (region) it is in */
    gkey *keys;     /* drb: the tasks of a subgraph by gain */
} rb;

static int nomem(tg_error *err)
{
    return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
}

/* ---------------------------------------------------------------- nodes */

typedef struct nkey {
    int64_t key, tie;
    int node;
} nkey;

static int cmp_nkey(const void *pa, const void *pb)
{
    const nkey *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->tie > b->tie) - (a->tie < b->tie);
}

/* Torus/mesh: sort by the widest dimension and return the cut. */
static int torus_cut(const gm_machine *m, nkey *k, int nn)
{
    int d = m->net->ndims, best = 0, span = -1;
    for (int i = 0; i < d; i++) {
        int lo = INT32_MAX, hi = -1;
        for (int j = 0; j < nn; j++) {
            int c = gm_machine_coords(m, k[j].node)[i];
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        if (hi - lo > span) {
            span = hi - lo;
            best = i;
        }
    }
    for (int j = 0; j < nn; j++) {
        k[j].key = gm_machine_coords(m, k[j].node)[best];
        k[j].tie = gm_machine_position(m, k[j].node);
    }
    qsort(k, (size_t)nn, sizeof *k, cmp_nkey);
    int cut = -1;
    for (int j = 1; j < nn; j++)
        if (k[j].key != k[j - 1].key &&
            (cut < 0 || abs(2 * j - nn) < abs(2 * cut - nn)))
            cut = j;
    return 4 * cut >= nn && 4 * (nn - cut) >= nn ? cut : nn / 2;
}

/* Other networks: by distance from a peripheral node, then old order. */
static int distance_cut(const gm_machine *m, nkey *k, int nn)
{
    int far = k[0].node, fd = -1;
    for (int j = 0; j < nn; j++) {
        int dist = gm_distance(m, k[0].node, k[j].node);
        if (dist > fd) {
            fd = dist;
            far = k[j].node;
        }
    }
    for (int j = 0; j < nn; j++) {
        k[j].key = gm_distance(m, far, k[j].node);
        k[j].tie = j;
    }
    qsort(k, (size_t)nn, sizeof *k, cmp_nkey);
    return nn / 2;
}

/* Reorder nodes[0..nn-1] so that the first *na form one half. */
static int split_nodes(const gm_machine *m, int *nodes, int nn, int *na,
                       tg_error *err)
{
    nkey *k = malloc((size_t)nn * sizeof *k);
    if (!k)
        return nomem(err);
    for (int j = 0; j < nn; j++)
        k[j].node = nodes[j];
    *na = m->net->kind == GM_NET_TORUS ? torus_cut(m, k, nn)
                                       : distance_cut(m, k, nn);
    for (int j = 0; j < nn; j++)
        nodes[j] = k[j].node;
    free(k);
    return 0;
}

/* ---------------------------------------------------------------- tasks */

/* The subgraph induced by tasks[0..nt-1] in METIS form; its weights sum
 * to no more than the whole graph's, which fit. */
static void subgraph(rb *r, const int *tasks, int nt)
{
    const gm_metis_graph *mg = &r->mg;
    idx_t arcs = 0;
    r->xadj[0] = 0;
    for (int i = 0; i < nt; i++) {
        for (idx_t e = mg->xadj[tasks[i]]; e < mg->xadj[tasks[i] + 1]; e++) {
            int u = r->loc[mg->adjncy[e]];
            if (u < 0)
                continue;
            r->adjncy[arcs] = u;
            r->adjwgt[arcs++] = mg->adjwgt[e];
        }
        r->xadj[i + 1] = arcs;
    }
}

static int cmp_gain(const void *pa, const void *pb)
{
    const gkey *a = pa, *b = pb;
    if (a->gain != b->gain)
        return a->gain > b->gain ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Move the tasks with the largest gain out of the overfull side until the
 * first side has exactly ta tasks. */
static int fix_sizes(rb *r, const int *tasks, int nt, int ta, tg_error *err)
{
    int na = 0;
    for (int i = 0; i < nt; i++)
        na += r->side[i] == 0;
    if (na == ta)
        return 0;
    int from = na > ta ? 0 : 1, excess = na > ta ? na - ta : ta - na;
    int nc = from == 0 ? na : nt - na;
    gkey *c = malloc((size_t)nc * sizeof *c);
    if (!c)
        return nomem(err);
    const tg_graph *g = r->g;
    int k = 0;
    for (int i = 0; i < nt; i++) {
        if (r->side[i] != from)
            continue;
        __int128 gain = 0;
        for (int64_t e = g->xadj[tasks[i]]; e < g->xadj[tasks[i] + 1]; e++) {
            int u = r->loc[g->adjncy[e]];
            if (u >= 0)
                gain += r->side[u] == from ? -(__int128)g->adjwgt[e]
                                           : (__int128)g->adjwgt[e];
        }
        c[k].gain = gain;
        c[k++].i = i;
    }
    qsort(c, (size_t)nc, sizeof *c, cmp_gain);
    for (int j = 0; j < excess; j++)
        r->side[c[j].i] = 1 - from;
    free(c);
    return 0;
}

/* ------------------------------------------------------ external gains */

/* Where a region of nodes is, for the distances of drb: on tori and
 * meshes the middle of its bounding box (the halves of torus_cut are
 * boxes), in coordinates doubled so that it is a whole number; elsewhere
 * the middle of its node list (sorted by distance from a peripheral node:
 * close nodes together). */
static void region_set(rb *r, int at, const int *nodes, int nn)
{
    const gm_machine *m = r->m;
    region *g = &r->reg[at];
    g->node = nodes[nn / 2];
    if (m->net->kind != GM_NET_TORUS)
        return;
    int d = m->net->ndims, lo[GM_MAX_DIMS], hi[GM_MAX_DIMS];
    for (int i = 0; i < d; i++) {
        lo[i] = INT32_MAX;
        hi[i] = -1;
    }
    for (int j = 0; j < nn; j++) {
        const int *c = gm_machine_coords(m, nodes[j]);
        for (int i = 0; i < d; i++) {
            lo[i] = c[i] < lo[i] ? c[i] : lo[i];
            hi[i] = c[i] > hi[i] ? c[i] : hi[i];
        }
    }
    for (int i = 0; i < d; i++)
        g->mid2[i] = lo[i] + hi[i];
}

/* Distance between two regions, doubled: between the middles on tori
 * and meshes (the shorter way round a wrapping dimension), twice that of
 * the representative nodes elsewhere. */
static int64_t region_dist(const rb *r, int a, int b)
{
    const gm_network *net = r->m->net;
    if (net->kind != GM_NET_TORUS)
        return 2 * (int64_t)gm_distance(r->m, r->reg[a].node, r->reg[b].node);
    int64_t sum = 0;
    for (int i = 0; i < net->ndims; i++) {
        int64_t d = llabs((int64_t)r->reg[a].mid2[i] - r->reg[b].mid2[i]);
        int64_t size2 = 2 * (int64_t)net->size[i];
        sum += net->wrap[i] && 2 * d > size2 ? size2 - d : d;
    }
    return sum;
}

/* What moving to the other side gains on an edge of bytes w to task v
 * outside the subgraph, from side s. */
static __int128 outside_gain(const rb *r, int v, __int128 w, const int rep[2],
                             int s)
{
    return w * (region_dist(r, rep[s], r->reg_of[v]) -
                region_dist(r, rep[1 - s], r->reg_of[v]));
}

/* The gain of moving subgraph task i to the other side: the drop of its
 * edges' cost, an edge inside the subgraph costing dab (the distance
 * between the two halves' middles) when cut, an edge to a task
 * outside the distance from i's half to that task's region. */
static __int128 task_gain(const rb *r, const int *tasks, int i,
                          const int rep[2], int64_t dab)
{
    const tg_graph *g = r->g;
    int s = r->side[i];
    __int128 gain = 0;
    for (int64_t e = g->xadj[tasks[i]]; e < g->xadj[tasks[i] + 1]; e++) {
        int v = g->adjncy[e], u = r->loc[v];
        __int128 w = g->adjwgt[e];
        if (u >= 0)
            gain += r->side[u] == s ? -w * dab : w * dab;
        else
            gain += outside_gain(r, v, w, rep, s);
    }
    return gain;
}

/* Bytes of the edges between subgraph tasks a and b. */
static __int128 between(const rb *r, const int *tasks, int a, int b)
{
    const tg_graph *g = r->g;
    __int128 w = 0;
    for (int64_t e = g->xadj[tasks[a]]; e < g->xadj[tasks[a] + 1]; e++)
        if (g->adjncy[e] == tasks[b])
            w += g->adjwgt[e];
    return w;
}

#define DRB_PASSES 4

/* Dual recursive bipartitioning's step (Pellegrini's, as Scotch maps):
 * the bisection of tasks[0..nt-1] over the node halves of regions rep[0]
 * and rep[1] takes the edges to tasks outside into account.  First the
 * orientation (which task half goes to which node half), then passes of
 * swaps between the halves, each pair the best remaining of each side by
 * gain, applied when it lowers the cost exactly (so the sizes stay as
 * they are and the cost never rises). */
static void dual_refine(rb *r, const int *tasks, int nt, const int rep[2])
{
    int64_t dab = region_dist(r, rep[0], rep[1]);
    __int128 flip = 0;
    int outside = 0;
    const tg_graph *g = r->g;
    for (int i = 0; i < nt; i++) {
        int s = r->side[i];
        for (int64_t e = g->xadj[tasks[i]]; e < g->xadj[tasks[i] + 1]; e++) {
            int v = g->adjncy[e];
            if (r->loc[v] >= 0)
                continue;
            outside = 1;
            flip += outside_gain(r, v, g->adjwgt[e], rep, s);
        }
    }
    if (!outside && dab == 0)
        return;
    int na = 0;
    for (int i = 0; i < nt; i++)
        na += r->side[i] == 0;
    if (flip > 0 && 2 * na == nt) /* unequal halves keep their sizes */
        for (int i = 0; i < nt; i++)
            r->side[i] = 1 - r->side[i];
    for (int pass = 0; pass < DRB_PASSES; pass++) {
        int ka = 0, kb = na;
        for (int i = 0; i < nt; i++) {
            gkey *k = &r->keys[r->side[i] ? kb++ : ka++];
            k->gain = task_gain(r, tasks, i, rep, dab);
            k->i = i;
        }
        qsort(r->keys, (size_t)na, sizeof *r->keys, cmp_gain);
        qsort(r->keys + na, (size_t)(nt - na), sizeof *r->keys, cmp_gain);
        int swaps = 0;
        for (int k = 0; k < na && na + k < nt; k++) {
            int a = r->keys[k].i, b = r->keys[na + k].i;
            __int128 d = task_gain(r, tasks, a, rep, dab) +
                         task_gain(r, tasks, b, rep, dab) -
                         2 * between(r, tasks, a, b) * dab;
            if (d <= 0)
                break;
            r->side[a] = 1;
            r->side[b] = 0;
            swaps++;
        }
        if (!swaps)
            break;
    }
}

/* Decide the side of every task: ta of them on side 0. */
static int split_tasks(rb *r, const int *tasks, int nt, int ta,
                       const int rep[2], tg_error *err)
{
    for (int i = 0; i < nt; i++)
        r->loc[tasks[i]] = i;
    int rc = 0;
    if (ta == 0 || ta == nt) {
        for (int i = 0; i < nt; i++)
            r->side[i] = ta == 0;
    } else {
        subgraph(r, tasks, nt);
        if (r->xadj[nt] == 0) { /* no edges: METIS has nothing to cut */
            for (int i = 0; i < nt; i++)
                r->side[i] = i >= ta;
        } else {
            idx_t nv = nt, ncon = 1, nparts = 2, cut;
            real_t tpw[2] = {(real_t)ta / (real_t)nt, 0};
            tpw[1] = 1 - tpw[0];
            idx_t opt[METIS_NOPTIONS];
            METIS_SetDefaultOptions(opt);
            opt[METIS_OPTION_SEED] = r->seed;
            if (METIS_PartGraphRecursive(&nv, &ncon, r->xadj, r->adjncy,
                                         NULL, NULL, r->adjwgt, &nparts, tpw,
                                         NULL, opt, &cut, r->where) != METIS_OK)
                rc = tg_error_set(err, TG_ENOMEM, NULL, 0,
                                  "METIS failed to bisect %d tasks", nt);
            for (int i = 0; !rc && i < nt; i++)
                r->side[i] = r->where[i] != 0;
        }
        if (!rc)
            rc = fix_sizes(r, tasks, nt, ta, err);
        if (!rc && r->dual)
            dual_refine(r, tasks, nt, rep);
    }
    for (int i = 0; i < nt; i++)
        r->loc[tasks[i]] = -1;
    return rc;
}

/* ------------------------------------------------------------ recursion */

static int64_t slots_of(const gm_machine *m, const int *nodes, int nn)
{
    int64_t s = 0;
    for (int j = 0; j < nn; j++)
        s += m->slots[nodes[j]];
    return s;
}

/* A region still to cut: tasks[t0 .. t0+nt-1] onto nodes[n0 .. n0+nn-1]. */
typedef struct span {
    int t0, nt, n0, nn;
} span;

/* Cut one region in two; the halves go to q[*tail] and q[*tail + 1]. */
static int bisect_one(rb *r, int *tasks, int *nodes, span s, span *q,
                      int *tail, tg_error *err)
{
    tasks += s.t0;
    nodes += s.n0;
    int nt = s.nt, nn = s.nn, na = 0;
    int rc = split_nodes(r->m, nodes, nn, &na, err);
    if (rc)
        return rc;
    int64_t ca = slots_of(r->m, nodes, na);
    int64_t cb = slots_of(r->m, nodes + na, nn - na);
    /* round(nt * ca / (ca + cb)), within [nt - cb, ca] */
    int64_t ta = (int64_t)(((__int128)nt * ca + (ca + cb) / 2) / (ca + cb));
    if (ta > ca)
        ta = ca;
    if (nt - ta > cb)
        ta = nt - cb;
    int rep[2] = {*tail, *tail + 1}; /* the halves' spans and regions */
    if (r->dual) {
        region_set(r, rep[0], nodes, na);
        region_set(r, rep[1], nodes + na, nn - na);
    }
    rc = split_tasks(r, tasks, nt, (int)ta, rep, err);
    if (rc)
        return rc;
    /* Stable partition: tasks stay in increasing order on each side. */
    int a = 0, b = (int)ta;
    for (int i = 0; i < nt; i++) {
        r->scratch[r->side[i] ? b++ : a++] = tasks[i];
        if (r->dual)
            r->reg_of[tasks[i]] = rep[r->side[i]];
    }
    memcpy(tasks, r->scratch, (size_t)nt * sizeof *tasks);
    q[(*tail)++] = (span){s.t0, (int)ta, s.n0, na};
    q[(*tail)++] = (span){s.t0 + (int)ta, nt - (int)ta, s.n0 + na, nn - na};
    return 0;
}

/* Every region cut, level by level (breadth first), so that a cut weighs
 * the tasks of the other regions at the same depth of the cutting (for
 * drb; rb's cuts do not depend on the order).  A one-node region's tasks
 * take its slots in task order. */
static int bisect(rb *r, int *tasks, int *nodes, tg_error *err)
{
    span *q = malloc((2 * (size_t)r->m->n + 1) * sizeof *q);
    if (!q)
        return nomem(err);
    int head = 0, tail = 0, rc = 0;
    q[tail++] = (span){0, r->g->n, 0, r->m->n};
    if (r->dual) /* every task's region (reg_of zeroed) */
        region_set(r, 0, nodes, r->m->n);
    while (head < tail && !rc) {
        span s = q[head++];
        if (s.nt == 0)
            continue;
        if (s.nn > 1) {
            rc = bisect_one(r, tasks, nodes, s, q, &tail, err);
            continue;
        }
        for (int i = 0; i < s.nt; i++) {
            r->map[tasks[s.t0 + i]].node = nodes[s.n0];
            r->map[tasks[s.t0 + i]].slot = i;
        }
    }
    free(q);
    return rc;
}

int gm_bisect_map(const tg_graph *g, const gm_machine *m, uint64_t seed,
                  int dual, gm_place *map, tg_error *err)
{
    rb r = {.g = g, .m = m, .map = map, .seed = (idx_t)(seed % INT32_MAX),
            .dual = dual};
    int rc = gm_metis_graph_make(g, &r.mg, err);
    if (rc)
        return rc;
    size_t n1 = (size_t)g->n + 1, arcs = (size_t)g->xadj[g->n] + 1;
    int *tasks = malloc(n1 * sizeof *tasks);
    int *nodes = malloc(((size_t)m->n + 1) * sizeof *nodes);
    r.loc = malloc(n1 * sizeof *r.loc);
    r.side = malloc(n1 * sizeof *r.side);
    r.scratch = malloc(n1 * sizeof *r.scratch);
    r.xadj = malloc(n1 * sizeof *r.xadj);
    r.where = malloc(n1 * sizeof *r.where);
    r.adjncy = malloc(arcs * sizeof *r.adjncy);
    r.adjwgt = malloc(arcs * sizeof *r.adjwgt);
    if (dual) {
        r.reg_of = calloc(n1, sizeof *r.reg_of);
        r.reg = calloc(2 * (size_t)m->n + 1, sizeof *r.reg);
        r.keys = malloc(n1 * sizeof *r.keys);
    }
    if (!tasks || !nodes || !r.loc || !r.side || !r.scratch || !r.xadj ||
        !r.where || !r.adjncy || !r.adjwgt ||
        (dual && (!r.reg_of || !r.reg || !r.keys)))
        rc = nomem(err);
    if (!rc) {
        for (int t = 0; t < g->n; t++) {
            tasks[t] = t;
            r.loc[t] = -1;
        }
        for (int j = 0; j < m->n; j++)
            nodes[j] = j;
        rc = bisect(&r, tasks, nodes, err);
    }
    free(tasks);
    free(nodes);
    free(r.loc);
    free(r.side);
    free(r.scratch);
    free(r.xadj);
    free(r.where);
    free(r.adjncy);
    free(r.adjwgt);
    free(r.reg_of);
    free(r.reg);
    free(r.keys);
    gm_metis_graph_free(&r.mg);
    return rc;
}
