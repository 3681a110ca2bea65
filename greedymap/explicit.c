/* explicit.c: distances and routes on fat-tree and graph networks, from a
 * BFS per machine node.
 *
 * On fat-trees the BFS runs over (vertex, phase) states: phase 0 has only
 * gone up so far, phase 1 has turned down and may not go up again, so the
 * distances are those of up/down routes.  T_b[v][0] is the length of the
 * shortest up-only walk from b to v and T_b[v][1] that of the shortest
 * up-then-down walk; reversed, they are a down-only and an up-then-down
 * route from v to b, which is what routing towards b needs. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

static const uint16_t *table(const gm_machine *m, int node)
{
    return m->tab + (size_t)node * (size_t)m->net->x->nv * (size_t)m->phases;
}

static void bfs(const gm_xgraph *x, int phases, int src, uint16_t *dist,
                int *queue)
{
    size_t states = (size_t)x->nv * (size_t)phases;
    for (size_t i = 0; i < states; i++)
        dist[i] = GM_UNREACHABLE;
    size_t head = 0, tail = 0;
    dist[(size_t)src * phases] = 0;
    queue[tail++] = src * phases;
    while (head < tail) {
        int s = queue[head++];
        int v = s / phases, ph = s % phases;
        uint16_t d = dist[s];
        if (d == GM_UNREACHABLE - 1)
            continue; /* deeper than 16 bits can say: stop there */
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
            if (ph == 1 && x->up[e])
                continue; /* no turning up after going down */
            int next = x->adj[e] * phases +
                       (phases == 2 && !x->up[e] ? 1 : ph);
            if (dist[next] == GM_UNREACHABLE) {
                dist[next] = (uint16_t)(d + 1);
                queue[tail++] = next;
            }
        }
    }
}

int gm_explicit_distance(const gm_machine *m, int a, int b)
{
    const uint16_t *t = table(m, a);
    size_t v = (size_t)m->net->x->hosts[m->pos[b]] * (size_t)m->phases;
    int d = t[v];
    if (m->phases == 2 && t[v + 1] < d)
        d = t[v + 1];
    return d;
}

int gm_explicit_tables(gm_machine *m, tg_error *err)
{
    const gm_xgraph *x = m->net->x;
    m->phases = x->updown ? 2 : 1;
    size_t per = (size_t)x->nv * (size_t)m->phases;
    if (m->n && per > SIZE_MAX / sizeof(uint16_t) / (size_t)m->n)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    m->tab = malloc((m->n ? (size_t)m->n : 1) * per * sizeof(uint16_t));
    int *queue = malloc(per * sizeof *queue);
    if (!m->tab || !queue) {
        free(queue);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int i = 0; i < m->n; i++)
        bfs(x, m->phases, x->hosts[m->pos[i]],
            m->tab + (size_t)i * per, queue);
    free(queue);
    m->maxdist = 0;
    for (int a = 0; a < m->n; a++)
        for (int b = 0; b < m->n; b++) {
            int d = gm_explicit_distance(m, a, b);
            if (d >= GM_UNREACHABLE - 1)
                return tg_error_set(err, TG_EINVAL, x->source, 0,
                                    "node %s cannot reach node %s%s",
                                    m->host[a], m->host[b],
                                    x->updown ? " by an up/down route" : "");
            if (d > m->maxdist)
                m->maxdist = d;
        }
    return 0;
}

/* Distance left from v to the target while going up is still allowed. */
static int left_up(const uint16_t *t, int phases, int v)
{
    size_t i = (size_t)v * phases;
    int d = t[i];
    if (phases == 2 && t[i + 1] < d)
        d = t[i + 1];
    return d;
}

int gm_explicit_route(const gm_machine *m, int a, int b, int *links,
                      int cap, const uint64_t *loads)
{
    const gm_xgraph *x = m->net->x;
    const uint16_t *t = table(m, b); /* distances from b */
    int P = m->phases;
    int v = x->hosts[m->pos[a]];
    int may_up = 1;
    int left = left_up(t, P, v);
    int len = 0;
    while (left > 0) {
        int best = -1;
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
            int u = x->adj[e];
            int ok;
            if (P == 1)
                ok = t[u] == left - 1;
            else if (x->up[e])
                ok = may_up && left_up(t, P, u) == left - 1;
            else
                ok = t[(size_t)u * 2] == left - 1;
            if (!ok)
                continue;
            if (best < 0 && !loads)
                best = e;
            if (!loads)
                break;
            if (best < 0 || loads[e] < loads[best])
                best = e;
        }
        /* The tables guarantee a next hop (see the comment at the top). */
        if (best < 0)
            break;
        if (len < cap)
            links[len] = best;
        len++;
        if (P == 2 && !x->up[best])
            may_up = 0;
        v = x->adj[best];
        left--;
    }
    return len;
}
