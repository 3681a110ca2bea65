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
 * phase-0 state, is 0 for b and is read through entry().
 *
 * A table has a row only for the vertices a route between two nodes can
 * pass (shortest routes, and shortest up/down walks, visit no vertex
 * twice):
 *   - on fat-trees, switches only: a host has only links up, so a route
 *     that enters one (going down) cannot leave it.  The distance between
 *     two nodes is 1 + the least entry of the switches above the second,
 *     the same for all nodes of two attachments: an attachment x
 *     attachment matrix D answers gm_explicit_distance, and a route's last
 *     hop, down into the target host, is looked up among that host's
 *     links (into[]).
 *   - on graphs, every vertex, hosts included (a host may be on the way).
 *   - in both, not the dead ends: a vertex that is not a node's host (on
 *     fat-trees: not a switch above one) with at most one link to the
 *     vertices kept, taken off again and again until none is left, so
 *     that the trees of unused hosts and switches hanging off the network
 *     cost no row, and nor do whole parts of it without a node.
 * A 13 KB topology.conf whose 500 nodes hang under 500 leaves, beside a
 * switch of a million unused hosts (one line), took 7.9 s and 2.08 GB
 * with a row per host; it takes 501 rows.  The tables are limited in
 * size relative to the machine's nodes (TABLES_*), so that a small file
 * cannot make them cost gigabytes for a small machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

/* The tables (2 bytes per row, phase and attachment, and on fat-trees 2
 * per pair of attachments) may take TABLES_PER_NODE per node of the
 * machine, at least TABLES_FLOOR and at most TABLES_MAX; beyond, the
 * network is refused with its size said, rather than the machine paging
 * for minutes.  (A ring of 30,000 hosts, 597 KB, each host its own
 * attachment: 1.7 GiB of tables, 10 s; refused at 469 MiB.) */
#define TABLES_PER_NODE ((size_t)16 << 10)
#define TABLES_FLOOR ((size_t)256 << 20)
#define TABLES_MAX ((size_t)2 << 30)

/* What the tables need besides them, in m->attach after its n entries
 * (one allocation, freed with it):
 *   nrows, count    rows of a table, attachments
 *   noderow[n]      graphs: the row of node i's host (fat-trees: -1)
 *   into[n + 1]     fat-trees: node i's links down into its host are
 *                   drow/darc[into[i] .. into[i + 1] - 1], by switch row
 *                   and then arc (graphs: none)
 *   row[nv]         vertex -> row, or -1 when it has none
 *   rxadj[nrows + 1], radj[K], rarc[K]: the links between rows as CSR:
 *                   the row at the far end and the arc of the xgraph, in
 *                   the xgraph's order
 *   drow[L], darc[L] (into, above)
 * m->tab: on fat-trees D (count x count, distances between the nodes of
 * two attachments), then the tables; count x nrows x phases entries. */
typedef struct xaux {
    int nrows, count;
    const int *noderow, *into, *row, *rxadj, *radj, *rarc, *drow, *darc;
} xaux;

static xaux aux_of(const gm_machine *m)
{
    const int *p = m->attach + m->n;
    xaux w;
    w.nrows = p[0];
    w.count = p[1];
    w.noderow = p + 2;
    w.into = w.noderow + m->n;
    w.row = w.into + m->n + 1;
    w.rxadj = w.row + m->net->x->nv;
    w.radj = w.rxadj + w.nrows + 1;
    w.rarc = w.radj + w.rxadj[w.nrows];
    w.drow = w.rarc + w.rxadj[w.nrows];
    w.darc = w.drow + w.into[m->n];
    return w;
}

/* The table of node's attachment. */
static const uint16_t *table(const gm_machine *m, const xaux *w, int node)
{
    size_t skip = m->phases == 2 ? (size_t)w->count * (size_t)w->count : 0;
    return m->tab + skip +
           (size_t)m->attach[node] * (size_t)w->nrows * (size_t)m->phases;
}

/* The BFS of the walks that start with one of src's links, over the
 * rows. */
static void bfs(const gm_xgraph *x, const xaux *w, int phases, int src,
                uint16_t *dist, int *queue)
{
    size_t states = (size_t)w->nrows * (size_t)phases;
    for (size_t i = 0; i < states; i++)
        dist[i] = GM_UNREACHABLE;
    size_t head = 0, tail = 0;
    for (int e = x->xadj[src]; e < x->xadj[src + 1]; e++) {
        int r = w->row[x->adj[e]];
        if (r < 0)
            continue; /* a dead end */
        int first = r * phases + (phases == 2 && !x->up[e] ? 1 : 0);
        if (dist[first] == GM_UNREACHABLE) {
            dist[first] = 1;
            queue[tail++] = first;
        }
    }
    while (head < tail) {
        int s = queue[head++];
        int r = s / phases, ph = s % phases;
        uint16_t d = dist[s];
        if (d == GM_UNREACHABLE - 1)
            continue; /* deeper than 16 bits can say: stop there */
        for (int k = w->rxadj[r]; k < w->rxadj[r + 1]; k++) {
            int e = w->rarc[k];
            if (ph == 1 && x->up[e])
                continue; /* no turning up after going down */
            int next = w->radj[k] * phases +
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
    const int *h = m->attach + m->n; /* nrows, count, noderow[] */
    if (m->phases == 2)
        return m->tab[(size_t)m->attach[a] * (size_t)h[1] +
                      (size_t)m->attach[b]];
    return m->tab[(size_t)m->attach[a] * (size_t)h[0] + (size_t)h[2 + b]];
}

/* Nodes in the order of their attachments, for grouping equal ones: a
 * vertex's links to rows as (far end's row, up) codes, sorted. */
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
 * first[k], second[k] = the smallest and the second smallest node of
 * attachment k (-1: none). */
static int group_attachments(gm_machine *m, const int *row, int **first,
                             int **second)
{
    const gm_xgraph *x = m->net->x;
    attach_key *keys = calloc((size_t)m->n + 1, sizeof *keys);
    int *codes = malloc(((size_t)x->xadj[x->nv] + 1) * sizeof *codes);
    *first = malloc(((size_t)m->n + 1) * sizeof **first);
    *second = malloc(((size_t)m->n + 1) * sizeof **second);
    if (!keys || !codes || !*first || !*second) {
        free(keys);
        free(codes);
        return -1;
    }
    int at = 0;
    for (int i = 0; i < m->n; i++) {
        int v = x->hosts[m->pos[i]], start = at;
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++)
            if (row[x->adj[e]] >= 0)
                codes[at++] = 2 * row[x->adj[e]] + x->up[e];
        keys[i] = (attach_key){i, at - start, codes + start};
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
            (*second)[next] = -1;
            (*first)[next++] = i;
        } else if ((*second)[renum[k]] < 0) {
            (*second)[renum[k]] = i;
        }
        m->attach[i] = renum[k];
    }
    free(renum);
    free(keys);
    free(codes);
    return count;
}

/* Vertex states while choosing the rows. */
enum { NOT_ROW, ROW, PINNED, DEAD };

/* The rows (see the top): row[v] for every vertex, or -1; returns their
 * number, *links the links between them.  st, deg and queue: nv each. */
static int choose_rows(const gm_machine *m, unsigned char *st, int *deg,
                       int *queue, int *row, size_t *links)
{
    const gm_xgraph *x = m->net->x;
    for (int v = 0; v < x->nv; v++)
        st[v] = x->updown && x->host_of[v] >= 0 ? NOT_ROW : ROW;
    for (int i = 0; i < m->n; i++) {
        int v = x->hosts[m->pos[i]];
        if (!x->updown)
            st[v] = PINNED;
        else /* the switches above a node's host */
            for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++)
                st[x->adj[e]] = PINNED;
    }
    /* Take off the dead ends, again and again. */
    int tail = 0;
    for (int v = 0; v < x->nv; v++) {
        if (st[v] == NOT_ROW)
            continue;
        deg[v] = 0;
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++)
            deg[v] += st[x->adj[e]] != NOT_ROW;
        if (st[v] == ROW && deg[v] <= 1) {
            st[v] = DEAD;
            queue[tail++] = v;
        }
    }
    for (int head = 0; head < tail; head++) {
        int v = queue[head];
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
            int u = x->adj[e];
            if ((st[u] == ROW || st[u] == PINNED) && --deg[u] <= 1 &&
                st[u] == ROW) {
                st[u] = DEAD;
                queue[tail++] = u;
            }
        }
    }
    int nrows = 0;
    for (int v = 0; v < x->nv; v++)
        row[v] = st[v] == ROW || st[v] == PINNED ? nrows++ : -1;
    *links = 0;
    for (int v = 0; v < x->nv; v++)
        if (row[v] >= 0)
            for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++)
                *links += row[x->adj[e]] >= 0;
    return nrows;
}

/* "1.7 GiB", "468.8 MiB". */
static void size_text(double bytes, char *buf, size_t size)
{
    double gib = 1024.0 * 1024 * 1024;
    if (bytes >= gib)
        snprintf(buf, size, "%.1f GiB", bytes / gib);
    else
        snprintf(buf, size, "%.1f MiB", bytes / (1024.0 * 1024));
}

/* TG_EINVAL when the tables would be larger than the limit for the
 * machine's nodes. */
static int check_size(const gm_machine *m, int count, int nrows,
                      tg_error *err)
{
    const gm_xgraph *x = m->net->x;
    double need = 2.0 * count * (double)nrows * m->phases;
    if (m->phases == 2)
        need += 2.0 * count * (double)count;
    double limit = (double)TABLES_PER_NODE * m->n;
    if (limit < (double)TABLES_FLOOR)
        limit = (double)TABLES_FLOOR;
    if (limit > (double)TABLES_MAX)
        limit = (double)TABLES_MAX;
    if (need <= limit)
        return 0;
    char size[32], most[32], what[160];
    size_text(need, size, sizeof size);
    size_text(limit, most, sizeof most);
    if (m->phases == 2)
        snprintf(what, sizeof what,
                 "%d distinct host attachments x %d switches x 2 phases, "
                 "and %d x %d between attachments",
                 count, nrows, count, count);
    else
        snprintf(what, sizeof what,
                 "%d distinct host attachments x %d vertices", count, nrows);
    return tg_error_set(err, TG_EINVAL, x->source, 0,
                        "the network's distance tables would take %s (%s), "
                        "more than the limit of %s for %d nodes (%zu KiB a "
                        "node, at least %zu MiB, at most %zu GiB)",
                        size, what, most, m->n, TABLES_PER_NODE >> 10,
                        TABLES_FLOOR >> 20, TABLES_MAX >> 30);
}

/* D[A][B] of a fat-tree: from a node of attachment A to another of B, 1 +
 * the least entry of A's table at the switches above B's hosts (a host is
 * entered going down, from either phase). */
static void pair_distances(gm_machine *m, const xaux *w, const int *first)
{
    const gm_xgraph *x = m->net->x;
    uint16_t *D = m->tab;
    for (int A = 0; A < w->count; A++) {
        const uint16_t *t = table(m, w, first[A]);
        for (int B = 0; B < w->count; B++) {
            int v = x->hosts[m->pos[first[B]]], least = GM_UNREACHABLE;
            for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
                int r = w->row[x->adj[e]];
                if (t[2 * r] < least)
                    least = t[2 * r];
                if (t[2 * r + 1] < least)
                    least = t[2 * r + 1];
            }
            D[(size_t)A * (size_t)w->count + (size_t)B] =
                (uint16_t)(least >= GM_UNREACHABLE - 1 ? GM_UNREACHABLE
                                                       : least + 1);
        }
    }
}

/* The diameter, and every node reaching every other: 0, or the first
 * pair that does not (in the order of the attachments' first nodes, then
 * of the nodes) in *from, *to. */
static int diameter(gm_machine *m, const xaux *w, const int *first,
                    const int *second, int *from, int *to)
{
    m->maxdist = 0;
    if (m->phases == 2) {
        /* Fat-trees: nodes of one attachment have the same distances, D. */
        const uint16_t *D = m->tab;
        for (int k = 0; k < w->count; k++) {
            int bad = -1;
            for (int B = 0; B < w->count; B++) {
                int b = B == k ? second[k] : first[B];
                if (b < 0)
                    continue;
                int d = D[(size_t)k * (size_t)w->count + (size_t)B];
                if (d >= GM_UNREACHABLE - 1) {
                    if (bad < 0 || b < bad)
                        bad = b;
                } else if (d > m->maxdist) {
                    m->maxdist = d;
                }
            }
            if (bad >= 0) {
                *from = first[k];
                *to = bad;
                return -1;
            }
        }
        return 0;
    }
    /* Graphs: one pass per attachment over the nodes, since nodes of one
     * attachment have the same distances to all others (and 2 between
     * themselves, or no route at all when they have no link). */
    for (int k = 0; k < w->count; k++) {
        int a = first[k];
        for (int b = 0; b < m->n; b++) {
            int d = gm_explicit_distance(m, a, b);
            if (d >= GM_UNREACHABLE - 1) {
                *from = a;
                *to = b;
                return -1;
            }
            if (d > m->maxdist)
                m->maxdist = d;
        }
    }
    return 0;
}

int gm_explicit_tables(gm_machine *m, tg_error *err)
{
    const gm_xgraph *x = m->net->x;
    int P = m->phases = x->updown ? 2 : 1;
    int n = m->n, nv = x->nv;
    unsigned char *st = malloc((size_t)nv + 1);
    int *deg = malloc(((size_t)nv + 1) * sizeof *deg);
    int *queue = malloc(((size_t)nv + 1) * sizeof *queue);
    int *row = malloc(((size_t)nv + 1) * sizeof *row);
    int *first = NULL, *second = NULL, *bfsq = NULL;
    int rc = 0;
    if (!st || !deg || !queue || !row)
        goto nomem;
    size_t links;
    int nrows = choose_rows(m, st, deg, queue, row, &links);
    /* Fat-trees: the links down into the nodes' hosts (queue: vertex ->
     * node). */
    size_t down = 0;
    for (int v = 0; v < nv; v++)
        queue[v] = -1;
    for (int i = 0; i < n; i++) {
        int v = x->hosts[m->pos[i]];
        queue[v] = i;
        if (P == 2)
            down += (size_t)(x->xadj[v + 1] - x->xadj[v]);
    }
    free(m->attach);
    m->attach = malloc(((size_t)n + 2 + (size_t)n + (size_t)n + 1 +
                        (size_t)nv + (size_t)nrows + 1 + 2 * links +
                        2 * down) *
                       sizeof *m->attach);
    if (!m->attach)
        goto nomem;
    int *h = m->attach + n;
    h[0] = nrows;
    int *noderow = h + 2, *into = noderow + n, *rrow = into + n + 1;
    int *rxadj = rrow + nv, *radj = rxadj + nrows + 1, *rarc = radj + links;
    int *drow = rarc + links, *darc = drow + down;
    memcpy(rrow, row, (size_t)nv * sizeof *row);
    int at = 0;
    rxadj[0] = 0;
    for (int v = 0; v < nv; v++) {
        if (row[v] < 0)
            continue;
        for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++)
            if (row[x->adj[e]] >= 0) {
                radj[at] = row[x->adj[e]];
                rarc[at++] = e;
            }
        rxadj[row[v] + 1] = at;
    }
    into[0] = 0;
    for (int i = 0; i < n; i++) {
        int v = x->hosts[m->pos[i]];
        noderow[i] = P == 1 ? row[v] : -1;
        into[i + 1] = into[i] + (P == 2 ? x->xadj[v + 1] - x->xadj[v] : 0);
    }
    if (P == 2) {
        /* deg: where each node's next link goes */
        memcpy(deg, into, (size_t)n * sizeof *deg);
        for (int v = 0; v < nv; v++) {
            if (row[v] < 0)
                continue;
            for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
                int u = x->adj[e];
                if (x->host_of[u] >= 0 && queue[u] >= 0) {
                    int i = queue[u];
                    drow[deg[i]] = row[v];
                    darc[deg[i]++] = e;
                }
            }
        }
    }
    free(st);
    free(deg);
    free(queue);
    st = NULL;
    deg = queue = NULL;
    int count = group_attachments(m, row, &first, &second);
    if (count < 0)
        goto nomem;
    h[1] = count;
    if ((rc = check_size(m, count, nrows, err)))
        goto out;
    size_t per = (size_t)nrows * (size_t)P;
    size_t pairs = P == 2 ? (size_t)count * (size_t)count : 0;
    m->tab = malloc((pairs + (size_t)count * per + 1) * sizeof(uint16_t));
    bfsq = malloc((per + 1) * sizeof *bfsq);
    if (!m->tab || !bfsq)
        goto nomem;
    xaux w = aux_of(m);
    for (int k = 0; k < count; k++)
        bfs(x, &w, P, x->hosts[m->pos[first[k]]],
            m->tab + pairs + (size_t)k * per, bfsq);
    if (P == 2)
        pair_distances(m, &w, first);
    int from, to;
    if (diameter(m, &w, first, second, &from, &to))
        rc = tg_error_set(err, TG_EINVAL, x->source, 0,
                          "node %s cannot reach node %s%s", m->host[from],
                          m->host[to],
                          x->updown ? " by an up/down route" : "");
    goto out;
nomem:
    rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
out:
    free(st);
    free(deg);
    free(queue);
    free(row);
    free(first);
    free(second);
    free(bfsq);
    return rc;
}

/* Graphs: the entry of row r in b's table t; b's own host is 0. */
static int entry(const xaux *w, const uint16_t *t, int b, int r)
{
    return r == w->noderow[b] ? 0 : t[r];
}

/* Fat-trees: distance left from switch row r to the target while going
 * up is still allowed. */
static int left_up(const uint16_t *t, int r)
{
    return t[2 * r] < t[2 * r + 1] ? t[2 * r] : t[2 * r + 1];
}

int gm_explicit_route(const gm_machine *m, int a, int b, int *links,
                      int cap, const uint64_t *loads)
{
    if (a == b)
        return 0;
    const gm_xgraph *x = m->net->x;
    const xaux w = aux_of(m);
    const uint16_t *t = table(m, &w, b); /* distances from b */
    int P = m->phases;
    int may_up = 1;
    int left = gm_explicit_distance(m, b, a);
    /* The row the route is at; on fat-trees -1 at a's host, which is no
     * row. */
    int r = P == 1 ? w.noderow[a] : -1;
    int len = 0;
    while (left > 0) {
        int best = -1, to = -1;
        if (r < 0) {
            /* a's host on a fat-tree: its links, all up */
            int v = x->hosts[m->pos[a]];
            for (int e = x->xadj[v]; e < x->xadj[v + 1]; e++) {
                int u = w.row[x->adj[e]];
                if (!(may_up && left_up(t, u) == left - 1))
                    continue;
                if (best < 0 || (loads && loads[e] < loads[best])) {
                    best = e;
                    to = u;
                }
                if (!loads)
                    break;
            }
        } else if (P == 2 && left == 1) {
            /* the last hop, down into b's host */
            for (int k = w.into[b]; k < w.into[b + 1]; k++) {
                if (w.drow[k] != r)
                    continue;
                int e = w.darc[k];
                if (best < 0 || (loads && loads[e] < loads[best]))
                    best = e;
                if (!loads)
                    break;
            }
        } else {
            for (int k = w.rxadj[r]; k < w.rxadj[r + 1]; k++) {
                int u = w.radj[k], e = w.rarc[k];
                int ok;
                if (P == 1)
                    ok = entry(&w, t, b, u) == left - 1;
                else if (x->up[e])
                    ok = may_up && left_up(t, u) == left - 1;
                else
                    ok = t[2 * u] == left - 1;
                if (!ok)
                    continue;
                if (best < 0 || (loads && loads[e] < loads[best])) {
                    best = e;
                    to = u;
                }
                if (!loads)
                    break;
            }
        }
        /* The tables guarantee a next hop (see the comment at the top). */
        if (best < 0)
            break;
        if (len < cap)
            links[len] = best;
        len++;
        if (P == 2 && !x->up[best])
            may_up = 0;
        r = to;
        left--;
    }
    return len;
}
