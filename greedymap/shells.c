/* shells.c: nodes in order of nondecreasing distance from a start node.
 *
 * Tori and meshes enumerate, for radius r = 0, 1, ..., every offset vector
 * whose hop count is exactly r, depth-first over the dimensions with the
 * hops left as the budget (so no position outside the radius is visited),
 * and yield the nodes sitting at those positions.  Other networks bucket
 * all nodes by their distance when the walk starts. */
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
};

int gm_shells_new(const gm_machine *m, gm_shells **out, tg_error *err)
{
    gm_shells *s = calloc(1, sizeof *s);
    if (!s)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    s->m = m;
    s->torus = m->net->kind == GM_NET_TORUS;
    if (!s->torus) {
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

void gm_shells_start(gm_shells *s, int node, int wrap)
{
    s->src = node;
    if (s->torus)
        start_torus(s, node, wrap);
    else
        start_bucketed(s, node);
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

int gm_shells_next(gm_shells *s, int *dist)
{
    if (s->torus)
        return next_torus(s, dist);
    if (s->next >= s->n)
        return -1;
    if (dist)
        *dist = s->dist[s->next];
    return s->order[s->next++];
}
