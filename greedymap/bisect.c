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
 * seed is the baseline's seed. */
#include <stdlib.h>
#include <string.h>

#include <metis.h>

#include "gm_internal.h"

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

typedef struct gkey {
    __int128 gain;
    int i;
} gkey;

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

/* Decide the side of every task: ta of them on side 0. */
static int split_tasks(rb *r, const int *tasks, int nt, int ta,
                       tg_error *err)
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

static int bisect(rb *r, int *tasks, int nt, int *nodes, int nn,
                  tg_error *err)
{
    if (nt == 0)
        return 0;
    if (nn == 1) {
        for (int i = 0; i < nt; i++) {
            r->map[tasks[i]].node = nodes[0];
            r->map[tasks[i]].slot = i;
        }
        return 0;
    }
    int na = 0;
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
    rc = split_tasks(r, tasks, nt, (int)ta, err);
    if (rc)
        return rc;
    /* Stable partition: tasks stay in increasing order on each side. */
    int a = 0, b = (int)ta;
    for (int i = 0; i < nt; i++)
        r->scratch[r->side[i] ? b++ : a++] = tasks[i];
    memcpy(tasks, r->scratch, (size_t)nt * sizeof *tasks);
    rc = bisect(r, tasks, (int)ta, nodes, na, err);
    return rc ? rc : bisect(r, tasks + ta, nt - (int)ta, nodes + na,
                            nn - na, err);
}

int gm_bisect_map(const tg_graph *g, const gm_machine *m, uint64_t seed,
                  gm_place *map, tg_error *err)
{
    rb r = {.g = g, .m = m, .map = map, .seed = (idx_t)(seed % INT32_MAX)};
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
    if (!tasks || !nodes || !r.loc || !r.side || !r.scratch || !r.xadj ||
        !r.where || !r.adjncy || !r.adjwgt)
        rc = nomem(err);
    if (!rc) {
        for (int t = 0; t < g->n; t++) {
            tasks[t] = t;
            r.loc[t] = -1;
        }
        for (int j = 0; j < m->n; j++)
            nodes[j] = j;
        rc = bisect(&r, tasks, g->n, nodes, m->n, err);
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
    gm_metis_graph_free(&r.mg);
    return rc;
}
