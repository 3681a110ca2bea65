/* greedy.c: GreedyMap, Algorithm 1 of papers/001 (4.4).
 *
 * Tasks are placed one by one in the order of the configuration's task
 * list.  The first task goes to node 0 when the seed is 0, else to a node
 * drawn uniformly from the seed (the "last used node" n_l of line 3 then
 * starts there).  Each later task t goes:
 *   - with packNodeFirst, to n_l while n_l has a free slot;
 *   - else to one of the Delta nodes with free slots closest to a centre
 *     (greedy_near.c), the one of lowest cost.  The centre is n_l, as in
 *     line 8 (centre=last), or with centre=nbr the node holding the most
 *     of t's bytes to its placed neighbours (the first such group in CSR
 *     order; n_l when t has no placed neighbour).  With centre=last and a
 *     list whose consecutive tasks do not talk (the parts of GPART and
 *     GPARTRB, one after the other), the candidates sit around the node
 *     the previous part filled, which need not be near the new part's
 *     neighbours; centre=nbr looks where they are.
 * Ties (line 10, "a random processor from K").  All slots of a node cost
 * the same, so with a seed other than 0 a node is drawn among the nodes
 * tied at the lowest cost with probability proportional to their free
 * slots, which is a uniform draw among their processors.  Seed 0 draws
 * nothing: on tori and meshes it first takes the tied node of least
 * spread, the sum over t's placed neighbours of bytes x squared Euclidean
 * distance between the nodes (per dimension the shorter way round a
 * wrapping ring); then the tied node closest to n_l, then the lowest id.
 * The spread tells apart what hop-bytes cannot: the third quarter of a
 * 64-task clique on 16-slot nodes costs the same at the end of a line of
 * nodes as at the corner of a square (hop distances 2 and 1 to the first
 * two), but the corner leaves the fourth quarter a square (4 hops to the
 * others instead of 5); on the Qbox cases of bench/mapper this lowers the
 * best average hop-bytes by about 2%.  Off tori and meshes the spread is
 * not used.  The deterministic member keeps regular structure that random
 * ties break up: OO on a 16^4 lattice onto a 16^3 torus with 16 slots
 * reaches the optimum (every lattice line on one node, every other edge
 * one hop) with seed 0, while random ties land near 3.5 times its
 * hop-bytes.  Inside a node a task takes the lowest free slot: slots fill
 * 0, 1, 2...; when the machine has levels inside its nodes (a node
 * topology or a hierarchy), gm_slots_place (slots.c) then gives every
 * task, in list order, the free slot of its node of least cost (bytes x
 * level distance) to its neighbours placed there before it, exactly what
 * choosing the slot at placement time would give, and improves that by
 * swaps inside nodes.  Nodes, and so every hop-bytes figure, stay as
 * Algorithm 1 (and the refinement) left them.
 *
 * The cost of putting t on node n depends only on t's neighbours already
 * placed (P), which are gathered once per task and grouped by node:
 *   hopbytes     h(t, n) = sum over u in P of w(t,u) x distance(n, S(u)).
 *   maxhopbytes  the largest per-task hop-bytes of the partial solution
 *                after the placement: max(current maximum, h(t, n),
 *                max over u in P of hopbytes(u) + w(t,u) x distance),
 *                running hop-bytes being kept per task; equal maxima are
 *                then told apart by h(t, n).
 *   maxlinkload  the largest link load after routing, from n, one flow per
 *                node of P carrying t's bytes to the tasks there, with the
 *                least-loaded routes of papers/001, 5.1 (gm_loads_peek;
 *                the flows are committed the same way once t is placed);
 *                equal loads are then told apart by h(t, n).
 * Costs are exact (128-bit sums).  A task with no placed neighbour costs
 * the same everywhere, so every candidate ties.  Distances are
 * the network's own, also with Torus_Wrap = 0, which changes only which
 * nodes are the Delta closest.
 *
 * Complexity (4.4.1), d = average degree: without packNodeFirst
 * O(T Delta d) for the costs (the spread of ties is O(Delta d) more at
 * most), plus finding candidates (greedy_near.c); with packNodeFirst and
 * the hop-bytes cost O(T + N Delta d).  The two other costs keep per-task
 * hop-bytes or link loads up to date at every placement, O(T d) more.
 * centre=nbr picks its centre from the groups already gathered, O(d).
 * A task with no placed neighbour has nothing to weigh (every candidate
 * ties).  When Delta covers every free node, lone() finds the node
 * draw() would pick without looking at them all: seeded O(log N) (a
 * Fenwick tree); seed 0 O(1) on the last node, else the free node nearest
 * it (gm_shells_nearest_free: amortised O(log N) on flat, a walk over
 * ranges of ids on dragonflies at the default placement, O(classes) on
 * fat-trees, attachments, and other dragonflies, routers; on tori the
 * positions up to the first shell holding a free node, at most O(free
 * nodes); on graphs O(free nodes)).  With a smaller Delta such a task
 * costs its candidates (greedy_near.c) and O(Delta) for draw(). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

typedef unsigned __int128 u128;

/* A cost: key first, then tie. */
typedef struct cost {
    u128 key, tie;
} cost;

typedef struct greedy {
    const tg_graph *g;
    const gm_machine *m;
    gm_cost kind;
    int *node_of; /* task -> node, -1 while unplaced */
    gm_free fr;
    gm_near *near;
    tg_rng rng;
    /* t's placed neighbours (nb_*), grouped by node (grp_*) */
    int nnb, ngrp;
    int *nb_task, *nb_grp;
    uint64_t *nb_w;
    int *grp_node, *grp_dist, *grp_of; /* grp_of: node -> group, or -1 */
    u128 *grp_w;
    /* maxhopbytes: running hop-bytes per task and their maximum */
    u128 *hb, hb_max;
    /* maxlinkload: loads, their maximum, one flow per group */
    gm_loads *loads;
    uint64_t load_max;
    int *fa, *fb;
    uint64_t *fw;
    int *tie; /* nodes tied at the lowest cost */
    /* A task with no placed neighbour when every free node is a
     * candidate (lone()): seeded, a Fenwick tree of fr.left over the
     * places of fr.list (built at the first such task) and the free slots
     * in all; seed 0, a walk (sh, made at the first such task). */
    int64_t *fen, free_slots;
    int fen_n, fen_top;
    gm_shells *sh;
    int delta, wrap; /* Delta in nodes (gm_delta_nodes), Torus_Wrap */
    int fixed; /* seed 0: no randomness */
    int spread; /* seed 0 on a torus or mesh: ties by spread first */
    gm_centre centre;
} greedy;

static void greedy_free(greedy *s)
{
    free(s->node_of);
    free(s->fr.left);
    free(s->fr.list);
    free(s->fr.where);
    free(s->fr.skip);
    gm_near_free(s->near);
    free(s->nb_task);
    free(s->nb_grp);
    free(s->nb_w);
    free(s->grp_node);
    free(s->grp_dist);
    free(s->grp_of);
    free(s->grp_w);
    free(s->hb);
    gm_loads_free(s->loads);
    free(s->fa);
    free(s->fb);
    free(s->fw);
    free(s->tie);
    free(s->fen);
    gm_shells_free(s->sh);
}

static int greedy_init(greedy *s, const tg_graph *g, const gm_machine *m,
                       const gm_config *c, tg_error *err)
{
    s->g = g;
    s->m = m;
    s->kind = c->cost;
    s->fixed = c->seed == 0;
    s->spread = s->fixed && m->net->kind == GM_NET_TORUS;
    s->centre = c->centre;
    s->delta = gm_delta_nodes(c->delta, m->n);
    s->wrap = c->wrap;
    tg_rng_seed(&s->rng, c->seed);
    int maxdeg = 0;
    for (int t = 0; t < g->n; t++)
        if (g->xadj[t + 1] - g->xadj[t] > maxdeg)
            maxdeg = (int)(g->xadj[t + 1] - g->xadj[t]);
    size_t n = (size_t)m->n, deg = (size_t)maxdeg + 1;
    s->node_of = malloc(((size_t)g->n + 1) * sizeof *s->node_of);
    s->fr.left = malloc(n * sizeof *s->fr.left);
    s->fr.list = malloc(n * sizeof *s->fr.list);
    s->fr.where = malloc(n * sizeof *s->fr.where);
    s->fr.skip = malloc(n * sizeof *s->fr.skip);
    s->nb_task = malloc(deg * sizeof *s->nb_task);
    s->nb_grp = malloc(deg * sizeof *s->nb_grp);
    s->nb_w = malloc(deg * sizeof *s->nb_w);
    s->grp_node = malloc(deg * sizeof *s->grp_node);
    s->grp_dist = malloc(deg * sizeof *s->grp_dist);
    s->grp_w = malloc(deg * sizeof *s->grp_w);
    s->grp_of = malloc(n * sizeof *s->grp_of);
    s->tie = malloc(n * sizeof *s->tie);
    int ok = s->node_of && s->fr.left && s->fr.list && s->fr.where &&
             s->fr.skip && s->nb_task && s->nb_grp && s->nb_w &&
             s->grp_node && s->grp_dist && s->grp_w && s->grp_of && s->tie;
    if (ok && c->cost == GM_COST_MAXHOPBYTES) {
        s->hb = calloc((size_t)g->n + 1, sizeof *s->hb);
        ok = s->hb != NULL;
    }
    if (ok && c->cost == GM_COST_MAXLINKLOAD) {
        s->fa = malloc(deg * sizeof *s->fa);
        s->fb = malloc(deg * sizeof *s->fb);
        s->fw = malloc(deg * sizeof *s->fw);
        ok = s->fa && s->fb && s->fw;
        if (ok) {
            int rc = gm_loads_new(m, &s->loads, err);
            if (rc)
                return rc;
        }
    }
    if (!ok)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int t = 0; t < g->n; t++)
        s->node_of[t] = -1;
    for (int i = 0; i < m->n; i++) {
        s->fr.left[i] = m->slots[i];
        s->fr.list[i] = s->fr.where[i] = i;
        s->fr.skip[i] = i + 1;
        s->grp_of[i] = -1;
    }
    s->fr.count = s->fr.n = m->n;
    return gm_near_new(m, s->delta, c->wrap, &s->near, err);
}

/* Gather t's placed neighbours, grouped by node. */
static void gather(greedy *s, int t)
{
    const tg_graph *g = s->g;
    s->nnb = s->ngrp = 0;
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
        int u = g->adjncy[e], node = s->node_of[u];
        if (node < 0)
            continue;
        int k = s->grp_of[node];
        if (k < 0) {
            k = s->grp_of[node] = s->ngrp++;
            s->grp_node[k] = node;
            s->grp_w[k] = 0;
        }
        s->grp_w[k] += g->adjwgt[e];
        s->nb_task[s->nnb] = u;
        s->nb_grp[s->nnb] = k;
        s->nb_w[s->nnb++] = g->adjwgt[e];
    }
}

static void ungather(greedy *s)
{
    for (int k = 0; k < s->ngrp; k++)
        s->grp_of[s->grp_node[k]] = -1;
    s->nnb = s->ngrp = 0;
}

/* h(t, n), leaving each group's distance to n in grp_dist. */
static u128 hop_bytes_at(greedy *s, int n)
{
    u128 h = 0;
    for (int k = 0; k < s->ngrp; k++) {
        s->grp_dist[k] = gm_distance(s->m, n, s->grp_node[k]);
        h += s->grp_w[k] * (unsigned)s->grp_dist[k];
    }
    return h;
}

/* One flow from n per group, its bytes stopping at UINT64_MAX. */
static void flows_from(greedy *s, int n)
{
    for (int k = 0; k < s->ngrp; k++) {
        s->fa[k] = n;
        s->fb[k] = s->grp_node[k];
        s->fw[k] = s->grp_w[k] > UINT64_MAX ? UINT64_MAX
                                            : (uint64_t)s->grp_w[k];
    }
}

static int cost_at(greedy *s, int n, cost *out, tg_error *err)
{
    u128 h = hop_bytes_at(s, n);
    out->key = h;
    out->tie = 0;
    if (s->kind == GM_COST_MAXHOPBYTES) {
        u128 mx = s->hb_max > h ? s->hb_max : h;
        for (int i = 0; i < s->nnb; i++) {
            u128 x = s->hb[s->nb_task[i]] +
                     (u128)s->nb_w[i] * (unsigned)s->grp_dist[s->nb_grp[i]];
            if (x > mx)
                mx = x;
        }
        out->key = mx;
        out->tie = h;
    } else if (s->kind == GM_COST_MAXLINKLOAD) {
        uint64_t x;
        flows_from(s, n);
        int rc = gm_loads_peek(s->loads, s->fa, s->fb, s->fw, s->ngrp,
                               GM_ROUTE_LEAST_LOADED, &x, err);
        if (rc)
            return rc;
        out->key = x > s->load_max ? x : s->load_max;
        out->tie = h;
    }
    return 0;
}

static int cost_less(const cost *a, const cost *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

/* Seed 0's first tie-break on tori and meshes: sum over the groups of
 * placed neighbours of bytes x squared Euclidean distance from n. */
static u128 spread_at(const greedy *s, int n)
{
    const gm_network *net = s->m->net;
    const int *a = gm_machine_coords(s->m, n);
    u128 x = 0;
    for (int k = 0; k < s->ngrp; k++) {
        const int *b = gm_machine_coords(s->m, s->grp_node[k]);
        unsigned sq = 0;
        for (int j = 0; j < net->ndims; j++) {
            int d = abs(a[j] - b[j]);
            if (net->wrap[j] && net->size[j] - d < d)
                d = net->size[j] - d;
            sq += (unsigned)d * (unsigned)d;
        }
        x += s->grp_w[k] * sq;
    }
    return x;
}

/* Line 10: a node among the k tied ones.  Seed 0: the one of least
 * spread (tori and meshes, when t has placed neighbours), then the one
 * closest to `last`, then the lowest id; other seeds: a random one, with
 * probability proportional to its free slots. */
static int draw(greedy *s, const int *nodes, int k, int last)
{
    if (k == 1)
        return nodes[0];
    if (s->fixed) {
        int spread = s->spread && s->ngrp > 0;
        int best = nodes[0], bd = gm_near_distance(s->near, last, best);
        u128 bs = spread ? spread_at(s, best) : 0;
        for (int i = 1; i < k; i++) {
            u128 x = spread ? spread_at(s, nodes[i]) : 0;
            int d = gm_near_distance(s->near, last, nodes[i]);
            if (x < bs ||
                (x == bs && (d < bd || (d == bd && nodes[i] < best)))) {
                bs = x;
                bd = d;
                best = nodes[i];
            }
        }
        return best;
    }
    int64_t total = 0;
    for (int i = 0; i < k; i++)
        total += s->fr.left[nodes[i]];
    int64_t r = (int64_t)(((u128)tg_rng_next(&s->rng) * (uint64_t)total) >>
                          64);
    int i = 0;
    while (r >= s->fr.left[nodes[i]])
        r -= s->fr.left[nodes[i++]];
    return nodes[i];
}

/* Where to look for candidates: n_l, or with centre=nbr the node of the
 * heaviest group of placed neighbours (the first of equals). */
static int centre_of(const greedy *s, int last)
{
    if (s->centre != GM_CENTRE_NBR || s->ngrp == 0)
        return last;
    int best = 0;
    for (int k = 1; k < s->ngrp; k++)
        if (s->grp_w[k] > s->grp_w[best])
            best = k;
    return s->grp_node[best];
}

/* Fenwick tree over the places of fr.list: fen[1 .. fen_n], place i
 * (from 0) holding fr.left[fr.list[i]], 0 past fr.count. */
static void fen_add(greedy *s, int i, int64_t x)
{
    for (i++; i <= s->fen_n; i += i & -i)
        s->fen[i] += x;
}

static int fen_build(greedy *s, tg_error *err)
{
    int n = s->fr.count;
    s->fen = malloc(((size_t)n + 1) * sizeof *s->fen);
    if (!s->fen)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    s->fen_n = n;
    s->fen[0] = 0;
    s->free_slots = 0;
    for (int i = 1; i <= n; i++) {
        s->fen[i] = s->fr.left[s->fr.list[i - 1]];
        s->free_slots += s->fen[i];
    }
    for (int i = 1; i <= n; i++) {
        int j = i + (i & -i);
        if (j <= n)
            s->fen[j] += s->fen[i];
    }
    for (s->fen_top = 1; s->fen_top <= n / 2; s->fen_top *= 2)
        ;
    return 0;
}

/* The first place i of fr.list whose free slots, with those of the places
 * before it, exceed r: what draw()'s loop stops at. */
static int fen_find(const greedy *s, int64_t r)
{
    int at = 0;
    for (int step = s->fen_top; step; step /= 2)
        if (at + step <= s->fen_n && s->fen[at + step] <= r) {
            at += step;
            r -= s->fen[at];
        }
    return at;
}

/* A walk from last (in the metric of the candidates: without wrap when
 * wrap is 0 on a torus) to the end of the first shell holding a free
 * node: its lowest free node in *node and the free nodes of that shell in
 * *k.  0 when the walk gives way: past more nodes than are free, or past
 * `most` free nodes in the shell. */
static int first_shell(greedy *s, int last, int most, int *node, int *k)
{
    const gm_free *fr = &s->fr;
    int best = -1, bd = 0, went;
    *k = 0;
    gm_shells_start(s->sh, last, s->wrap);
    for (int steps = 0;;) {
        int d, n = gm_shells_next_free(s->sh, fr, fr->count - steps, &d,
                                       &went);
        steps += went;
        if (n < 0) {
            if (steps >= fr->count)
                return 0; /* the shell may go on */
            break;
        }
        if (best >= 0 && d > bd)
            break;
        if (++*k > most)
            return 0;
        if (best < 0 || n < best) {
            best = n;
            bd = d;
        }
    }
    *node = best;
    return best >= 0;
}

static int need_walk(greedy *s, tg_error *err)
{
    return s->sh ? 0 : gm_shells_new(s->m, &s->sh, err);
}

/* Seed 0, every free node a candidate, `last` full: the free node closest
 * to last, the lowest id among equals, as draw() over fr.list finds it.
 * Walks that yield equals by id (GM_SHELLS_BY_ID: flat, dragonflies,
 * fat-trees) give it directly (gm_shells_nearest_free); on tori and
 * meshes first_shell(), or, when it gives way, draw(), which also takes
 * the walks that sort every node (GM_SHELLS_BUCKETS: graphs). */
static int nearest(greedy *s, int last, int *node, tg_error *err)
{
    int rc = need_walk(s, err), kind = gm_shells_lazy(s->sh), k;
    if (rc)
        return rc;
    if (kind == GM_SHELLS_BY_ID) {
        *node = gm_shells_nearest_free(s->sh, &s->fr, last);
        return 0;
    }
    if (kind != GM_SHELLS_TORUS || !first_shell(s, last, INT_MAX, node, &k))
        *node = draw(s, s->fr.list, s->fr.count, last);
    return 0;
}

/* Line 10 for a task with no placed neighbour when every free node is a
 * candidate (Delta at least the free nodes): every node ties, and this
 * picks what draw() over fr.list would, without scanning it.  Seeded:
 * the same random number, the node by the Fenwick tree, O(log nodes).
 * Seed 0: last while it has a free slot (no other node is at distance 0
 * from it), else nearest(). */
static int lone(greedy *s, int last, int *node, tg_error *err)
{
    const gm_free *fr = &s->fr;
    if (fr->count == 1) {
        *node = fr->list[0];
        return 0;
    }
    if (s->fixed) {
        if (fr->left[last] > 0) {
            *node = last;
            return 0;
        }
        return nearest(s, last, node, err);
    }
    if (!s->fen) {
        int rc = fen_build(s, err);
        if (rc)
            return rc;
    }
    int64_t r = (int64_t)(((u128)tg_rng_next(&s->rng) *
                           (uint64_t)s->free_slots) >>
                          64);
    *node = fr->list[fen_find(s, r)];
    return 0;
}

/* Lines 8 and 10: the candidates near the centre, the lowest cost, a
 * draw. */
static int choose(greedy *s, int last, int *node, tg_error *err)
{
    const int *cand;
    if (s->nnb == 0 && s->delta >= s->fr.count)
        return lone(s, last, node, err);
    if (s->nnb == 0 && s->fixed && s->centre == GM_CENTRE_LAST &&
        s->fr.left[last] == 0 && s->m->net->kind != GM_NET_FLAT) {
        /* Seed 0, Delta below the free nodes, last full: draw() takes the
         * lowest free node of the closest shell among the candidates, and
         * when that shell has no more than Delta free nodes, all are
         * candidates (the walk meets them first, and the fallback sorts
         * by distance): the shell alone tells.  The candidates' walk from
         * last is then of no use: the next search starts from the node of
         * a later task (last is full), so it would start afresh anyway. */
        int rc = need_walk(s, err), k;
        if (rc)
            return rc;
        if (gm_shells_lazy(s->sh) != GM_SHELLS_BUCKETS &&
            first_shell(s, last, s->delta, node, &k)) {
            gm_near_forget(s->near);
            return 0;
        }
    }
    int k = gm_near_find(s->near, centre_of(s, last), &s->fr, &cand);
    if (s->nnb == 0) {
        /* Seed 0: last, when free, is among the candidates (the first a
         * walk from it meets) and alone at distance 0. */
        *node = s->fixed && s->fr.left[last] > 0 ? last
                                                 : draw(s, cand, k, last);
        return 0;
    }
    cost best = {0, 0};
    int nt = 0;
    for (int i = 0; i < k; i++) {
        cost x;
        int rc = cost_at(s, cand[i], &x, err);
        if (rc)
            return rc;
        if (nt == 0 || cost_less(&x, &best)) {
            best = x;
            nt = 0;
        } else if (cost_less(&best, &x)) {
            continue;
        }
        s->tie[nt++] = cand[i];
    }
    *node = draw(s, s->tie, nt, last);
    return 0;
}

/* Put t on node n (its lowest free slot) and update what the cost keeps. */
static void place(greedy *s, int t, int n, gm_place *map)
{
    map[t].node = n;
    map[t].slot = s->m->slots[n] - s->fr.left[n];
    s->node_of[t] = n;
    if (s->fen) {
        fen_add(s, s->fr.where[n], -1);
        s->free_slots--;
    }
    if (--s->fr.left[n] == 0) {
        int at = s->fr.where[n], moved = s->fr.list[--s->fr.count];
        s->fr.list[at] = moved;
        s->fr.where[moved] = at;
        s->fr.where[n] = -1;
        if (s->fen) {
            fen_add(s, at, s->fr.left[moved]);
            fen_add(s, s->fr.count, -(int64_t)s->fr.left[moved]);
        }
    }
    if (s->kind == GM_COST_MAXHOPBYTES) {
        u128 h = hop_bytes_at(s, n);
        s->hb[t] = h;
        if (h > s->hb_max)
            s->hb_max = h;
        for (int i = 0; i < s->nnb; i++) {
            u128 *x = &s->hb[s->nb_task[i]];
            *x += (u128)s->nb_w[i] * (unsigned)s->grp_dist[s->nb_grp[i]];
            if (*x > s->hb_max)
                s->hb_max = *x;
        }
    } else if (s->kind == GM_COST_MAXLINKLOAD) {
        flows_from(s, n);
        uint64_t x = gm_loads_add_flows(s->loads, s->fa, s->fb, s->fw,
                                        s->ngrp, GM_ROUTE_LEAST_LOADED);
        if (x > s->load_max)
            s->load_max = x;
    }
}

/* Returns 1 when stop asked to end before every task was placed. */
static int run(greedy *s, const gm_config *c, const int *order,
               int (*stop)(void *), void *arg, gm_place *map, tg_error *err)
{
    const int n = s->m->n;
    int last = c->seed ? (int)(((u128)tg_rng_next(&s->rng) * (unsigned)n) >>
                               64)
                       : 0;
    for (int i = 0; i < s->g->n; i++) {
        if (stop && stop(arg))
            return 1;
        int t = order[i], node = last;
        int pick = i > 0 && !(c->pack && s->fr.left[last] > 0);
        if (pick || s->kind != GM_COST_HOPBYTES)
            gather(s, t);
        if (pick) {
            int rc = choose(s, last, &node, err);
            if (rc)
                return rc;
        }
        place(s, t, node, map);
        ungather(s);
        last = node;
    }
    return 0;
}

/* The checks both entry points share. */
static int check_args(const tg_graph *g, const gm_machine *m,
                      const gm_config *c, tg_error *err)
{
    int rc = gm_config_check(c, err);
    if (rc)
        return rc;
    int64_t slots = gm_machine_total_slots(m);
    if (g->n > slots)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d tasks do not fit on %lld slots", g->n,
                            (long long)slots);
    return 0;
}

static int map_in_order(const tg_graph *g, const gm_machine *m,
                        const gm_config *c, const int *order,
                        int (*stop)(void *), void *arg, gm_place *map,
                        tg_error *err)
{
    greedy s;
    memset(&s, 0, sizeof s);
    int rc = greedy_init(&s, g, m, c, err);
    if (!rc)
        rc = run(&s, c, order, stop, arg, map, err);
    greedy_free(&s);
    if (!rc && c->refine)
        rc = gm_refine_nodes(g, m, stop, arg, map, err);
    if (!rc)
        rc = gm_slots_place(g, m, order, map, err);
    return rc;
}

int gm_greedymap(const tg_graph *g, const gm_machine *m, const gm_config *c,
                 gm_place *map, tg_error *err)
{
    int rc = check_args(g, m, c, err);
    if (rc || g->n == 0)
        return rc;
    if (c->baseline) {
        rc = gm_baseline_map(g, m, (gm_baseline)(c->baseline - 1), c->seed,
                             map, err);
        return rc || !c->refine ? rc : gm_refine(g, m, NULL, NULL, map, err);
    }
    int *order = malloc((size_t)g->n * sizeof *order);
    if (!order)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    rc = gm_task_order(g, m, c, order, err);
    if (!rc)
        rc = map_in_order(g, m, c, order, NULL, NULL, map, err);
    free(order);
    return rc;
}

int gm_greedymap_run(const tg_graph *g, const gm_machine *m,
                     const gm_config *c, const int *order,
                     int (*stop)(void *arg), void *arg, gm_place *map,
                     tg_error *err)
{
    int rc = check_args(g, m, c, err);
    if (rc || g->n == 0)
        return rc;
    if (c->baseline) { /* the list does not matter */
        rc = gm_baseline_map(g, m, (gm_baseline)(c->baseline - 1), c->seed,
                             map, err);
        return rc || !c->refine ? rc : gm_refine(g, m, stop, arg, map, err);
    }
    /* A task twice would leave another unplaced. */
    unsigned char *seen = calloc((size_t)g->n, 1);
    if (!seen)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int i = 0; i < g->n && !rc; i++) {
        if (order[i] < 0 || order[i] >= g->n || seen[order[i]]++)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "task list: entry %d (%d) is out of range or "
                              "a repeat",
                              i, order[i]);
    }
    free(seen);
    return rc ? rc : map_in_order(g, m, c, order, stop, arg, map, err);
}
