/* explicit.c: distances and routes on fat-tree and graph networks, from
 * BFS tables.
 *
 * On fat-trees the BFS runs over (vertex, phase) states: phase 0 has only
 * gone up so far, phase 1 has turned down and may not go up again, so the
 * distances are those of up/down routes.  T_b[v][0] is the length of the
 * shortest up-only walk from b to v and T_b[v][1] that of the shortest
 * up-then-down walk; reversed, they are a down-only and an up-then-down
 * route from v to b, which is what routing towards b needs.
 *
 * One table per attachment, not per node.  A walk from host vertex b
 * starts with one of b's links, so for every v other than b,
 * T_b[v] = 1 + the distance from that link's far end, the best link
 * taken: a BFS whose first states are b's neighbours at distance 1 gives
 * it, and it depends only on the set of b's links (far end, up or down),
 * its "attachment".  Hosts under the same leaf switches share one: a
 * 100,000-host fat-tree of 3,000 leaves needs 3,000 tables, not 100,000
 * (a 31-byte topology.conf listing 60,000 hosts under one switch took
 * 66 s and 14 GB with a table per host, and the check of the diameter
 * compared every pair of nodes).  The one entry that differs, b's own
 * phase-0 state, is 0 for b and is read through entry(). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* Largest size of the tables: beyond it the network is refused with its
 * size said, rather than the machine paging for minutes. */
#define TABLES_MAX ((size_t)2 << 30)

static const uint16_t *table(const gm_machine *m, int node)
{
    return m->tab + (size_t)m->attach[node] * (size_t)m->net->x->nv *
                        (size_t)m->phases;
}

/* State (v, ph) of node b's table t: b's own vertex at phase 0 is 0. */
static int entry(const gm_machine *m, const uint16_t *t, int b, int v,
                 int ph)
{
    if (ph == 0 && v == m->net->x->hosts[m->pos[b]])
        return 0;
    return t[(size_t)v * (size_t)m->phases + (size_t)ph];
}

/* The BFS of the walks that start with one of src's links. */
static void bfs(const gm_xgraph *x, int phases, int src, uint16_t *dist,
                int *queue)
{
    size_t states = (size_t)x->nv * (size_t)phases;
    for (size_t i = 0; i < states; i++)
        dist[i] = GM_UNREACHABLE;
    size_t head = 0, tail = 0;
    for (int e = x->xadj[src]; e < x->xadj[src + 1]; e++) {
        int first = x->adj[e] * phases + (phases == 2 && !x->up[e] ? 1 : 0);
        if (dist[first] == GM_UNREACHABLE) {
            dist[first] = 1;
            queue[tail++] = first;
        }
    }
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
    if (a == b)
        return 0;
    const uint16_t *t = table(m, a);
    int v = m->net->x->hosts[m->pos[b]];
    int d = t[(size_t)v * (size_t)m->phases];
    if (m->phases == 2 && t[(size_t)v * 2 + 1] < d)
        d = t[(size_t)v * 2 + 1];
    return d;
}

/* Nodes in the order of their attachments, for grouping equal ones: a
 * vertex's links as (far end, up) codes, sorted. */
typedef struct attach_key {
    int node, n;
    int *codes;
} attach_key;

static int by_codes(const void *pa, const void *pb)
{
    const attach_key *a = pa, *b = pb;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = 0; i < a->n; i++)
        if (a->codes[i] != b->codes[i])
            return a->codes[i] < b->codes[i] ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* m->attach[node] = its attachment's index, in the order of each
 * attachment's first node; returns their number, or -1 (no memory).
 * first[k] = a node of attachment k. */
static int group_attachments(gm_machine *m, int **first)
{
    const gm_xgraph *x = m->net->x;
    attach_key *keys = calloc((size_t)m->n + 1, sizeof *keys);
    int *codes = malloc(((size_t)x->xadj[x->nv] + 1) * sizeof *codes);
    *first = malloc(((size_t)m->n + 1) * sizeof **first);
    m->attach = malloc(((size_t)m->n + 1) * sizeof *m->attach);
    if (!keys || !codes || !*first || !m->attach) {
        free(keys);
        free(codes);
        return -1;
    }
    int at = 0;
    for (int i = 0; i < m->n; i++) {
        int v = x->hosts[m->pos[i]];
        keys[i] = (attach_key){i, x->xadj[v + 1] - x->xadj[v], codes + at};
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++)
            codes[at++] = 2 * x->adj[e] + x->up[e];
        qsort(keys[i].codes, (size_t)keys[i].n, sizeof *codes, by_int);
    }
    qsort(keys, (size_t)m->n, sizeof *keys, by_codes);
    /* Number the attachments by their smallest node, so the tables come
     * out in node order whatever the sort did. */
    int count = 0;
    for (int i = 0; i < m->n; i++) {
        int fresh = i == 0 || keys[i].n != keys[i - 1].n ||
                    memcmp(keys[i].codes, keys[i - 1].codes,
                           (size_t)keys[i].n * sizeof *codes) != 0;
        if (fresh)
            count++;
        m->attach[keys[i].node] = count - 1; /* provisional: sort order */
    }
    int *renum = malloc(((size_t)count + 1) * sizeof *renum);
    if (!renum) {
        free(keys);
        free(codes);
        return -1;
    }
    for (int k = 0; k < count; k++)
        renum[k] = -1;
    int next = 0;
    for (int i = 0; i < m->n; i++) {
        int k = m->attach[i];
        if (renum[k] < 0) {
            renum[k] = next;
            (*first)[next++] = i;
        }
        m->attach[i] = renum[k];
    }
    free(renum);
    free(keys);
    free(codes);
    return count;
}

int gm_explicit_tables(gm_machine *m, tg_error *err)
{
    const gm_xgraph *x = m->net->x;
    m->phases = x->updown ? 2 : 1;
    int *first = NULL;
    int count = group_attachments(m, &first);
    if (count < 0) {
        free(first);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    size_t per = (size_t)x->nv * (size_t)m->phases;
    if (count && per > TABLES_MAX / sizeof(uint16_t) / (size_t)count) {
        free(first);
        return tg_error_set(
            err, TG_EINVAL, x->source, 0,
            "the network's distance tables would take %.1f GiB (%d distinct "
            "host attachments x %d vertices%s), more than the limit of "
            "%zu GiB", (double)count * (double)per * sizeof(uint16_t) /
                           (1024.0 * 1024 * 1024),
            count, x->nv, m->phases == 2 ? " x 2 phases" : "",
            TABLES_MAX >> 30);
    }
    m->tab = malloc((count ? (size_t)count : 1) * per * sizeof(uint16_t));
    int *queue = malloc((per ? per : 1) * sizeof *queue);
    if (!m->tab || !queue) {
        free(queue);
        free(first);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int k = 0; k < count; k++)
        bfs(x, m->phases, x->hosts[m->pos[first[k]]], m->tab + (size_t)k * per,
            queue);
    free(queue);
    /* The diameter, and every node reaching every other: one pass per
     * attachment over the nodes, since nodes of one attachment have the
     * same distances to all others (and 2 between themselves, or no
     * route at all when they have no link). */
    m->maxdist = 0;
    for (int k = 0; k < count; k++) {
        int a = first[k];
        for (int b = 0; b < m->n; b++) {
            int d = gm_explicit_distance(m, a, b);
            if (d >= GM_UNREACHABLE - 1) {
                int from = a, to = b;
                free(first);
                return tg_error_set(err, TG_EINVAL, x->source, 0,
                                    "node %s cannot reach node %s%s",
                                    m->host[from], m->host[to],
                                    x->updown ? " by an up/down route" : "");
            }
            if (d > m->maxdist)
                m->maxdist = d;
        }
    }
    free(first);
    return 0;
}

/* Distance left from v to the target while going up is still allowed. */
static int left_up(const gm_machine *m, const uint16_t *t, int b, int v)
{
    int d = entry(m, t, b, v, 0);
    if (m->phases == 2) {
        int d1 = entry(m, t, b, v, 1);
        if (d1 < d)
            d = d1;
    }
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
    int left = a == b ? 0 : left_up(m, t, b, v);
    int len = 0;
    while (left > 0) {
        int best = -1;
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
            int u = x->adj[e];
            int ok;
            if (P == 1)
                ok = entry(m, t, b, u, 0) == left - 1;
            else if (x->up[e])
                ok = may_up && left_up(m, t, b, u) == left - 1;
            else
                ok = entry(m, t, b, u, 0) == left - 1;
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
