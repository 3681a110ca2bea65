/* shells.c: nodes in order of nondecreasing distance from a start node.
 *
 * Tori and meshes enumerate, for radius r = 0, 1, ..., every offset vector
 * whose hop count is exactly r, depth-first over the dimensions with the
 * hops left as the budget (so no position outside the radius is visited),
 * and yield the nodes sitting at those positions.  Other networks yield
 * the nodes by distance, equals by increasing id (a stable counting sort
 * of all nodes by distance when the walk starts, O(nodes)).  Flat
 * networks, and dragonflies whose node i sits at position i (the default
 * placement), give that same order without the sort, O(1) to start and
 * amortised O(1) a node: on flat the start, then every other node by id;
 * on a dragonfly the start, then the other nodes of its router
 * (distance 2), then, one distance after the other (3, 4, 5), the routers
 * at that distance in increasing order, each a range of ids.  From a node
 * of router rho of group gp, the routers of group g != gp at distance 3
 * are none or its gateway router to gp (when the gateway of gp to g is
 * rho), at 4 that gateway (when it is not) or the others (when it is), at
 * 5 the others (when it is not); group gp's other routers are at 3.
 * Fat-trees and other dragonflies group the nodes in classes whose nodes
 * are at the same distance from any other node, their attachments (the
 * sets of their hosts' links, explicit.c) and their routers: a start
 * takes the distance of each class, O(classes), and the walk merges the
 * classes of each distance by id (a heap, O(log classes) a node).  Graphs
 * sort (a host may lie on the route to another, so a node's distances
 * are its own). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

struct gm_shells {
    const gm_machine *m;
    int src;
    /* torus */
    int torus;
    int nd;
    int lo[GM_MAX_DIMS], hi[GM_MAX_DIMS]; /* offsets allowed per dimension */
    int off[GM_MAX_DIMS], rem[GM_MAX_DIMS];
    int r, rmax, fresh;
    /* other networks */
    int *order, *dist, *count; /* nodes by distance; count: maxdist + 2 */
    int n, next;
    /* flat and dragonflies at the default placement: ranges of ids */
    int lazy;
    int lv;        /* distance of the range [cur, end); 6: done */
    int cur, end;
    int g, after;  /* dragonfly: group (-1: the next after `after`) */
    int rt;        /* its router */
    int only;      /* 1: router r0 of group g only, 0: every other one */
    int r0;
    int gp, rho;   /* the start's group and router in it */
    /* fat-trees, dragonflies placed by a file: classes of nodes */
    int classes;
    int ncls, clv, maxd;
    int *cls_of;       /* node -> class */
    int *cls_first;    /* class -> its first place in cls_ids; ncls + 1 */
    int *cls_ids;      /* the nodes by class, by id within a class */
    int *cls_dist;     /* class -> distance of its nodes from the start */
    int *lv_first;     /* distance -> its first place in lv_cls; maxd + 2 */
    int *lv_cls;       /* the classes by distance from the start */
    int *at;           /* class -> the place of its next node to yield */
    int *heap, nheap;  /* the classes of distance clv left, by next node */
    int *minfree;      /* class -> no free node before this place */
};

/* The classes: on fat-trees a node's attachment (its set of links: the
 * distance between two distinct nodes is a function of their two
 * attachments, explicit.c), on dragonflies its router. */
static int classes_new(gm_shells *s)
{
    const gm_machine *m = s->m;
    int n = m->n, K = 0;
    s->cls_of = malloc(((size_t)n + 1) * sizeof *s->cls_of);
    s->cls_ids = malloc(((size_t)n + 1) * sizeof *s->cls_ids);
    if (!s->cls_of || !s->cls_ids)
        return -1;
    for (int i = 0; i < n; i++) {
        int c = m->net->kind == GM_NET_FATTREE
                    ? m->attach[i]
                    : m->pos[i] / m->net->per_router;
        s->cls_of[i] = c;
        if (c >= K)
            K = c + 1;
    }
    s->ncls = K;
    s->maxd = gm_max_distance(m);
    size_t k = (size_t)K + 1;
    s->cls_first = calloc(k, sizeof *s->cls_first);
    s->cls_dist = malloc(k * sizeof *s->cls_dist);
    s->lv_first = malloc(((size_t)s->maxd + 2) * sizeof *s->lv_first);
    s->lv_cls = malloc(k * sizeof *s->lv_cls);
    s->at = malloc(k * sizeof *s->at);
    s->heap = malloc(k * sizeof *s->heap);
    s->minfree = malloc(k * sizeof *s->minfree);
    if (!s->cls_first || !s->cls_dist || !s->lv_first || !s->lv_cls ||
        !s->at || !s->heap || !s->minfree)
        return -1;
    for (int i = 0; i < n; i++)
        s->cls_first[s->cls_of[i] + 1]++;
    for (int c = 0; c < K; c++)
        s->cls_first[c + 1] += s->cls_first[c];
    for (int c = 0; c < K; c++)
        s->at[c] = s->minfree[c] = s->cls_first[c];
    for (int i = 0; i < n; i++) /* by id within a class */
        s->cls_ids[s->at[s->cls_of[i]]++] = i;
    return 0;
}

int gm_shells_new(const gm_machine *m, gm_shells **out, tg_error *err)
{
    gm_shells *s = calloc(1, sizeof *s);
    if (!s)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    s->m = m;
    s->torus = m->net->kind == GM_NET_TORUS;
    s->lazy = m->net->kind == GM_NET_FLAT;
    if (m->net->kind == GM_NET_DRAGONFLY) {
        s->lazy = 1;
        for (int i = 0; i < m->n && s->lazy; i++)
            s->lazy = m->pos[i] == i;
    }
    s->lv = 6;
    s->classes = !s->lazy && (m->net->kind == GM_NET_FATTREE ||
                              m->net->kind == GM_NET_DRAGONFLY);
    if (s->classes) {
        int rc = classes_new(s);
        if (rc) {
            gm_shells_free(s);
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        }
    } else if (!s->torus && !s->lazy) {
        s->order = malloc(((size_t)m->n + 1) * sizeof *s->order);
        s->dist = malloc(((size_t)m->n + 1) * sizeof *s->dist);
        s->count = malloc(((size_t)gm_max_distance(m) + 2) * sizeof *s->count);
        if (!s->order || !s->dist || !s->count) {
            gm_shells_free(s);
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        }
    }
    s->n = 0; /* nothing to yield before gm_shells_start */
    s->rmax = -1;
    *out = s;
    return 0;
}

void gm_shells_free(gm_shells *s)
{
    if (!s)
        return;
    free(s->order);
    free(s->dist);
    free(s->count);
    free(s->cls_of);
    free(s->cls_first);
    free(s->cls_ids);
    free(s->cls_dist);
    free(s->lv_first);
    free(s->lv_cls);
    free(s->at);
    free(s->heap);
    free(s->minfree);
    free(s);
}

/* Counting sort of all nodes by distance from the start. */
static void start_bucketed(gm_shells *s, int node)
{
    const gm_machine *m = s->m;
    int D = gm_max_distance(m);
    memset(s->count, 0, ((size_t)D + 2) * sizeof *s->count);
    for (int i = 0; i < m->n; i++)
        s->count[gm_distance(m, node, i) + 1]++;
    for (int d = 0; d <= D; d++)
        s->count[d + 1] += s->count[d];
    for (int i = 0; i < m->n; i++) {
        int d = gm_distance(m, node, i);
        int at = s->count[d]++;
        s->order[at] = i;
        s->dist[at] = d;
    }
    s->n = m->n;
    s->next = 0;
}

static void start_torus(gm_shells *s, int node, int wrap)
{
    const gm_network *net = s->m->net;
    const int *c = gm_machine_coords(s->m, node);
    s->nd = net->ndims;
    s->rmax = 0;
    for (int k = 0; k < s->nd; k++) {
        int size = net->size[k];
        if (wrap && net->wrap[k]) {
            /* Each ring position once: an even ring's far side is +. */
            s->lo[k] = -((size - 1) / 2);
            s->hi[k] = size / 2;
        } else {
            s->lo[k] = -c[k];
            s->hi[k] = size - 1 - c[k];
        }
        s->rmax += -s->lo[k] > s->hi[k] ? -s->lo[k] : s->hi[k];
    }
    s->r = 0;
    s->fresh = 1;
}

/* The distance of every class from node (the nodes of its own class
 * other than it), the classes bucketed by it: O(classes). */
static void start_classes(gm_shells *s, int node)
{
    const int *first = s->cls_first, *ids = s->cls_ids;
    int D = s->maxd;
    memset(s->lv_first, 0, ((size_t)D + 2) * sizeof *s->lv_first);
    for (int c = 0; c < s->ncls; c++) {
        int lo = first[c], hi = first[c + 1], other = -1;
        if (hi > lo)
            other = ids[lo] != node ? ids[lo] : hi - lo > 1 ? ids[lo + 1] : -1;
        s->cls_dist[c] = other < 0 ? -1 : gm_distance(s->m, node, other);
        if (other >= 0)
            s->lv_first[s->cls_dist[c] + 1]++;
    }
    for (int d = 0; d <= D; d++)
        s->lv_first[d + 1] += s->lv_first[d];
    for (int c = 0; c < s->ncls; c++)
        if (s->cls_dist[c] >= 0)
            s->lv_cls[s->lv_first[s->cls_dist[c]]++] = c;
    for (int d = D; d >= 0; d--) /* back to the starts */
        s->lv_first[d + 1] = s->lv_first[d];
    s->lv_first[0] = 0;
    s->lv = 0;
    s->clv = -1;
    s->nheap = 0;
}

void gm_shells_start(gm_shells *s, int node, int wrap)
{
    s->src = node;
    if (s->torus) {
        start_torus(s, node, wrap);
    } else if (s->classes) {
        start_classes(s, node);
    } else if (s->lazy) {
        const gm_network *net = s->m->net;
        s->lv = 0; /* the start alone, then the ranges (next_range) */
        s->cur = node;
        s->end = node + 1;
        if (net->kind == GM_NET_DRAGONFLY) {
            int router = node / net->per_router;
            s->gp = router / net->routers;
            s->rho = router % net->routers;
        }
    } else {
        start_bucketed(s, node);
    }
}

int gm_shells_lazy(const gm_shells *s)
{
    return s->torus                ? GM_SHELLS_TORUS
           : s->lazy || s->classes ? GM_SHELLS_BY_ID
                                   : GM_SHELLS_BUCKETS;
}

/* The first offset of dimension j within the budget rem[j]; the last
 * dimension must use the budget up exactly. */
static int first_value(gm_shells *s, int j)
{
    int rem = s->rem[j];
    if (j == s->nd - 1) {
        if (rem > 0 && -rem >= s->lo[j])
            s->off[j] = -rem;
        else if (rem <= s->hi[j])
            s->off[j] = rem;
        else
            return 0;
        return 1;
    }
    int v = s->lo[j] > -rem ? s->lo[j] : -rem;
    if (v > (s->hi[j] < rem ? s->hi[j] : rem))
        return 0;
    s->off[j] = v;
    return 1;
}

static int next_value(gm_shells *s, int j)
{
    int rem = s->rem[j];
    if (j == s->nd - 1) {
        if (s->off[j] < 0 && rem <= s->hi[j]) {
            s->off[j] = rem;
            return 1;
        }
        return 0;
    }
    if (s->off[j] < (s->hi[j] < rem ? s->hi[j] : rem)) {
        s->off[j]++;
        return 1;
    }
    return 0;
}

/* The next offset vector of radius r; 0 when the radius is exhausted. */
static int next_vector(gm_shells *s)
{
    int j, ok;
    if (s->fresh) {
        s->fresh = 0;
        j = 0;
        s->rem[0] = s->r;
        ok = first_value(s, 0);
    } else {
        j = s->nd - 1;
        ok = next_value(s, j);
    }
    for (;;) {
        if (ok) {
            if (j == s->nd - 1)
                return 1;
            s->rem[j + 1] = s->rem[j] - abs(s->off[j]);
            j++;
            ok = first_value(s, j);
        } else {
            if (j == 0)
                return 0;
            j--;
            ok = next_value(s, j);
        }
    }
}

static int next_torus(gm_shells *s, int *dist)
{
    const gm_machine *m = s->m;
    const gm_network *net = m->net;
    const int *c = gm_machine_coords(m, s->src);
    while (s->r <= s->rmax) {
        if (!next_vector(s)) {
            s->r++;
            s->fresh = 1;
            continue;
        }
        int p = 0;
        for (int k = 0; k < s->nd; k++) {
            int x = c[k] + s->off[k];
            x += x < 0 ? net->size[k] : x >= net->size[k] ? -net->size[k] : 0;
            p = p * net->size[k] + x;
        }
        int node = m->pos_node[p];
        if (node >= 0) {
            if (dist)
                *dist = s->r;
            return node;
        }
    }
    return -1;
}

/* Dragonfly: the router of group g towards group h. */
static int gateway(const gm_network *net, int g, int h)
{
    return (h < g ? h : h - 1) % net->routers;
}

/* The first group after `after` with routers at distance s->lv, G when
 * none; sets s->only and s->r0 for it. */
static int next_group(gm_shells *s, int after)
{
    const gm_network *net = s->m->net;
    int G = net->groups, R = net->routers, gp = s->gp, rho = s->rho;
    int g = G;
    if (s->lv == 2) {
        g = after < 0 ? gp : G;
    } else if (s->lv == 3) {
        /* gp, and the groups g whose gateway from gp is rho: g = rho + kR
         * below gp, g = rho + 1 + kR above it. */
        int lo = after + 1;
        if (lo <= gp)
            g = gp;
        int x = lo <= rho ? rho : rho + (lo - rho + R - 1) / R * R;
        if (x < gp && x < g)
            g = x;
        int from = lo > gp + 1 ? lo : gp + 1;
        x = from <= rho + 1 ? rho + 1
                            : rho + 1 + (from - rho - 1 + R - 1) / R * R;
        if (x < g)
            g = x;
    } else if (R > 1) { /* with one router per group, 4 and 5 are empty */
        for (g = after + 1; g < G; g++)
            if (g != gp && (s->lv == 4 || gateway(net, gp, g) != rho))
                break;
    }
    if (g >= G)
        return G;
    if (g == gp) {
        s->only = s->lv == 2;
        s->r0 = rho;
    } else {
        s->r0 = gateway(net, g, gp);
        s->only = s->lv == 3 || (s->lv == 4 && gateway(net, gp, g) != rho);
    }
    return g;
}

/* The first router of group s->g at or after r, R when none. */
static int router_from(const gm_shells *s, int r)
{
    if (s->only)
        return r <= s->r0 ? s->r0 : s->m->net->routers;
    return r == s->r0 ? r + 1 : r;
}

/* Lazy walks: the range after [cur, end), 0 when there is none.  Flat:
 * every node at distance 2 (the start is skipped where it recurs). */
static int next_range(gm_shells *s)
{
    const gm_network *net = s->m->net;
    int n = s->m->n;
    if (net->kind == GM_NET_FLAT) {
        if (s->lv != 0) {
            s->lv = 6;
            return 0;
        }
        s->lv = 2;
        s->cur = 0;
        s->end = n;
        return 1;
    }
    int R = net->routers, per = net->per_router;
    if (s->lv == 0) {
        s->lv = 2;
        s->g = s->after = -1;
    }
    while (s->lv <= 5) {
        if (s->g < 0) {
            s->g = next_group(s, s->after);
            if (s->g >= net->groups || (int64_t)s->g * R * per >= n) {
                s->lv++;
                s->g = s->after = -1;
                continue;
            }
            s->rt = router_from(s, 0);
        } else {
            s->rt = router_from(s, s->rt + 1);
        }
        int64_t lo = ((int64_t)s->g * R + s->rt) * per;
        if (s->rt >= R || lo >= n) {
            s->after = s->g;
            s->g = -1;
            continue;
        }
        s->cur = (int)lo;
        s->end = lo + per < n ? (int)lo + per : n;
        return 1;
    }
    return 0;
}

static int next_lazy(gm_shells *s, int *dist)
{
    for (;;) {
        if (s->cur < s->end) {
            int node = s->cur++;
            if (node == s->src && s->lv > 0)
                continue;
            if (dist)
                *dist = s->lv;
            return node;
        }
        if (!next_range(s))
            return -1;
    }
}

/* The class heap, by the node each class yields next. */
static int heap_key(const gm_shells *s, int i)
{
    return s->cls_ids[s->at[s->heap[i]]];
}

static void heap_down(gm_shells *s, int i)
{
    for (;;) {
        int l = 2 * i + 1, best = i;
        if (l < s->nheap && heap_key(s, l) < heap_key(s, best))
            best = l;
        if (l + 1 < s->nheap && heap_key(s, l + 1) < heap_key(s, best))
            best = l + 1;
        if (best == i)
            return;
        int t = s->heap[i];
        s->heap[i] = s->heap[best];
        s->heap[best] = t;
        i = best;
    }
}

/* Class c's next place at or after i, the start left out. */
static int class_place(const gm_shells *s, int c, int i)
{
    return i < s->cls_first[c + 1] && s->cls_ids[i] == s->src ? i + 1 : i;
}

/* Classes: the start, then distance after distance the nodes of the
 * classes at that distance, merged by id (a heap of the classes). */
static int next_classes(gm_shells *s, int *dist)
{
    if (s->lv == 6)
        return -1;
    if (s->lv == 0) {
        s->lv = 1;
        if (dist)
            *dist = 0;
        return s->src;
    }
    while (s->nheap == 0) {
        if (s->clv >= s->maxd)
            return -1;
        s->clv++;
        for (int i = s->lv_first[s->clv]; i < s->lv_first[s->clv + 1];
             i++) {
            int c = s->lv_cls[i];
            s->at[c] = class_place(s, c, s->cls_first[c]);
            if (s->at[c] < s->cls_first[c + 1])
                s->heap[s->nheap++] = c;
        }
        for (int i = s->nheap / 2 - 1; i >= 0; i--)
            heap_down(s, i);
    }
    int c = s->heap[0], node = s->cls_ids[s->at[c]];
    s->at[c] = class_place(s, c, s->at[c] + 1);
    if (s->at[c] >= s->cls_first[c + 1])
        s->heap[0] = s->heap[--s->nheap];
    heap_down(s, 0);
    if (dist)
        *dist = s->clv;
    return node;
}

int gm_shells_next(gm_shells *s, int *dist)
{
    if (s->torus)
        return next_torus(s, dist);
    if (s->classes)
        return next_classes(s, dist);
    if (s->lazy)
        return next_lazy(s, dist);
    if (s->next >= s->n)
        return -1;
    if (dist)
        *dist = s->dist[s->next];
    return s->order[s->next++];
}

int gm_shells_nearest_free(gm_shells *s, const gm_free *fr, int node)
{
    if (fr->left[node] > 0)
        return node; /* alone at distance 0 */
    if (s->lazy) {
        int went;
        gm_shells_start(s, node, 1);
        return gm_shells_next_free(s, fr, INT_MAX, NULL, &went);
    }
    /* Classes: each one's first free node, by a cursor that only moves on
     * (nodes only fill up); the closest of them, the lowest id among
     * equals. */
    int best = -1, bd = 0;
    for (int c = 0; c < s->ncls; c++) {
        int i = s->minfree[c], hi = s->cls_first[c + 1];
        while (i < hi && fr->left[s->cls_ids[i]] == 0)
            i++;
        s->minfree[c] = i;
        if (i == hi)
            continue;
        int y = s->cls_ids[i], d = gm_distance(s->m, node, y);
        if (best < 0 || d < bd || (d == bd && y < best)) {
            best = y;
            bd = d;
        }
    }
    return best;
}

int gm_shells_next_free(gm_shells *s, const gm_free *fr, int limit,
                        int *dist, int *passed)
{
    int went = 0;
    if (!s->lazy) {
        while (went < limit) {
            int d, node = gm_shells_next(s, &d);
            if (node < 0)
                break;
            went++;
            if (fr->left[node] > 0) {
                if (dist)
                    *dist = d;
                *passed = went;
                return node;
            }
        }
        *passed = went;
        return -1;
    }
    /* Over the full nodes of a range in one step; the start is not
     * counted where it recurs. */
    for (;;) {
        if (s->cur < s->end) {
            int k = gm_free_next(fr, s->cur);
            if (k > s->end)
                k = s->end;
            int over = k - s->cur;
            if (s->lv > 0 && s->src >= s->cur && s->src < k)
                over--;
            went += over;
            s->cur = k;
            if (k == s->end || (k == s->src && s->lv > 0)) {
                s->cur += k < s->end;
                if (went >= limit)
                    break;
                continue;
            }
            s->cur = k + 1;
            if (++went > limit)
                break;
            if (dist)
                *dist = s->lv;
            *passed = went;
            return k;
        }
        if (!next_range(s))
            break;
    }
    *passed = went;
    return -1;
}
