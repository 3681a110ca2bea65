/* order_parts.c: the task list of a partition (gm_part_order) and the
 * GPARTRB order built on it.
 *
 * GreedyMap places a list front to back, each task near the nodes of its
 * placed neighbours; with packNodeFirst a part that fills a node lands
 * where its first task's placed neighbours pull it.  So the list should
 * (a) bring every part after parts it talks to, and (b) start each part
 * with the task that talks most to what is already placed.
 *
 * (a) Maximum-adjacency order over the graph of parts (vertices = parts,
 * an edge between two parts when a task edge joins them, weighted by the
 * bytes between them, sums saturating at 2^64 - 1): from a pseudo-
 * peripheral part of each connected component (George-Liu, as the BFS
 * orders start), the next part is always the one with the most bytes to
 * the parts already listed, ties to the lowest part.  A lazy max-heap
 * holds (bytes, part) entries; each edge of the graph of parts pushes at
 * most one, and stale entries are skipped when popped.  On the panel of
 * bench/mapper this beats breadth-first and reverse Cuthill-McKee orders
 * of the parts (a breadth-first front of a 2-D task graph grows as a ring
 * that a 3-D torus cannot hold close together).
 *
 * (b) Inside a part: breadth-first over the part's own edges from its task
 * with the most bytes to the parts listed before it (ties, and in the
 * first part: the lowest id), neighbours in CSR (id) order, restarting at
 * the lowest task not yet listed when the part is not connected.
 *
 * Cost: O(T + E) for the graph of parts and the lists inside parts, plus
 * O(E' log E') for the heap (E' <= E edges between parts).
 *
 * GPARTRB: the partition is recursive bisection's (gm_bisect_map, the rb
 * baseline): task graph and nodes halved together along the network, so
 * each part is the tasks rb puts on one node and part sizes are the
 * nodes' shares.  Its parts follow the network's structure at every
 * scale, which k-way parts (GPART) do not; the list then lets GreedyMap
 * place them again by cost. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

typedef unsigned __int128 u128;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Tasks grouped by part: members[first[p] .. first[p + 1]) ascending. */
typedef struct groups {
    int *first, *members;
} groups;

static int group(const int *part, int n, int nparts, groups *gr)
{
    gr->first = calloc((size_t)nparts + 2, sizeof *gr->first);
    gr->members = malloc(((size_t)n + 1) * sizeof *gr->members);
    if (!gr->first || !gr->members)
        return -1;
    for (int t = 0; t < n; t++)
        gr->first[part[t] + 2]++;
    for (int p = 0; p < nparts; p++)
        gr->first[p + 2] += gr->first[p + 1];
    /* first[p + 1] is now where part p starts; counting shifts it to
     * first[p] once every task is in. */
    for (int t = 0; t < n; t++)
        gr->members[gr->first[part[t] + 1]++] = t;
    return 0;
}

/* The graph of parts, as a task graph without types or layers. */
static int quotient(const tg_graph *g, const int *part, int nparts,
                    const groups *gr, tg_graph **out)
{
    tg_graph *q = calloc(1, sizeof *q);
    uint64_t *acc = calloc((size_t)nparts + 1, sizeof *acc);
    int *touched = malloc(((size_t)nparts + 1) * sizeof *touched);
    int rc = -1;
    if (!q || !acc || !touched)
        goto done;
    q->n = nparts;
    q->xadj = malloc(((size_t)nparts + 1) * sizeof *q->xadj);
    /* At most every arc of g joins two parts. */
    size_t cap = (size_t)g->xadj[g->n] + 1;
    q->adjncy = malloc(cap * sizeof *q->adjncy);
    q->adjwgt = malloc(cap * sizeof *q->adjwgt);
    if (!q->xadj || !q->adjncy || !q->adjwgt)
        goto done;
    int64_t arcs = 0;
    for (int p = 0; p < nparts; p++) {
        q->xadj[p] = arcs;
        int nt = 0;
        for (int i = gr->first[p]; i < gr->first[p + 1]; i++) {
            int t = gr->members[i];
            for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
                int r = part[g->adjncy[e]];
                if (r == p)
                    continue;
                if (acc[r] == 0)
                    touched[nt++] = r;
                acc[r] = sat_add(acc[r], g->adjwgt[e]);
            }
        }
        for (int i = 0; i < nt; i++) {
            q->adjncy[arcs] = touched[i];
            q->adjwgt[arcs++] = acc[touched[i]];
            acc[touched[i]] = 0;
        }
    }
    q->xadj[nparts] = arcs;
    q->nedges = arcs / 2;
    rc = 0;
done:
    free(acc);
    free(touched);
    if (rc)
        tg_graph_free(q);
    else
        *out = q;
    return rc;
}

typedef struct hentry {
    uint64_t bytes;
    int part;
} hentry;

/* Max-heap: more bytes first, then the lower part. */
static int above(const hentry *a, const hentry *b)
{
    return a->bytes > b->bytes || (a->bytes == b->bytes && a->part < b->part);
}

static void push(hentry *h, int *n, hentry x)
{
    int i = (*n)++;
    while (i > 0 && above(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static hentry pop(hentry *h, int *n)
{
    hentry top = h[0], x = h[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && above(&h[c + 1], &h[c]))
            c++;
        if (!above(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
    return top;
}

/* Maximum-adjacency order of q's vertices into porder. */
static int max_adjacency(const tg_graph *q, int *porder)
{
    int np = q->n, k = 0, nh = 0;
    gm_levels lv = {q, calloc((size_t)np + 1, sizeof(int)), 0,
                    malloc(((size_t)np + 1) * sizeof(int))};
    uint64_t *conn = calloc((size_t)np + 1, sizeof *conn);
    char *listed = calloc((size_t)np + 1, 1);
    hentry *heap = malloc(((size_t)q->xadj[np] + (size_t)np + 1) *
                          sizeof *heap);
    int rc = lv.mark && lv.queue && conn && listed && heap ? 0 : -1;
    for (int s = 0; !rc && s < np; s++) {
        if (listed[s])
            continue;
        push(heap, &nh, (hentry){0, gm_pseudo_peripheral(&lv, s)});
        while (nh > 0) {
            hentry x = pop(heap, &nh);
            int p = x.part;
            if (listed[p] || x.bytes != conn[p])
                continue; /* stale */
            listed[p] = 1;
            porder[k++] = p;
            for (int64_t e = q->xadj[p]; e < q->xadj[p + 1]; e++) {
                int r = q->adjncy[e];
                if (listed[r])
                    continue;
                conn[r] = sat_add(conn[r], q->adjwgt[e]);
                push(heap, &nh, (hentry){conn[r], r});
            }
        }
    }
    free(lv.mark);
    free(lv.queue);
    free(conn);
    free(listed);
    free(heap);
    return rc;
}

/* Part p's tasks from order[*k] on (see (b) at the top); rank: part ->
 * position in the part order. */
static void list_part(const tg_graph *g, const int *part, const int *rank,
                      const groups *gr, int p, char *listed, int *order,
                      int *k)
{
    const int *mem = gr->members + gr->first[p];
    int size = gr->first[p + 1] - gr->first[p];
    if (size == 0)
        return;
    int root = mem[0];
    u128 most = 0;
    for (int i = 0; i < size; i++) {
        u128 b = 0;
        for (int64_t e = g->xadj[mem[i]]; e < g->xadj[mem[i] + 1]; e++)
            if (rank[part[g->adjncy[e]]] < rank[p])
                b += g->adjwgt[e];
        if (b > most) {
            most = b;
            root = mem[i];
        }
    }
    int head = *k;
    for (int i = -1; i < size; i++) {
        int s = i < 0 ? root : mem[i];
        if (listed[s])
            continue;
        listed[s] = 1;
        order[(*k)++] = s;
        while (head < *k) {
            int t = order[head++];
            for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
                int u = g->adjncy[e];
                if (part[u] == p && !listed[u]) {
                    listed[u] = 1;
                    order[(*k)++] = u;
                }
            }
        }
    }
}

int gm_part_order(const tg_graph *g, const int *part, int nparts,
                  int *order, tg_error *err)
{
    for (int t = 0; t < g->n; t++)
        if (part[t] < 0 || part[t] >= nparts)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "task %d is in part %d, not in 0 .. %d", t,
                                part[t], nparts - 1);
    groups gr = {NULL, NULL};
    tg_graph *q = NULL;
    int *porder = malloc(((size_t)nparts + 1) * sizeof *porder);
    int *rank = malloc(((size_t)nparts + 1) * sizeof *rank);
    char *listed = calloc((size_t)g->n + 1, 1);
    int rc = porder && rank && listed ? group(part, g->n, nparts, &gr) : -1;
    if (!rc)
        rc = quotient(g, part, nparts, &gr, &q);
    if (!rc)
        rc = max_adjacency(q, porder);
    if (!rc) {
        for (int i = 0; i < nparts; i++)
            rank[porder[i]] = i;
        int k = 0;
        for (int i = 0; i < nparts; i++)
            list_part(g, part, rank, &gr, porder[i], listed, order, &k);
    }
    free(gr.first);
    free(gr.members);
    tg_graph_free(q);
    free(porder);
    free(rank);
    free(listed);
    return rc ? tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory") : 0;
}

int gm_order_gpartrb(const tg_graph *g, const gm_machine *m, uint64_t seed,
                     int *order, tg_error *err)
{
    gm_place *map = malloc(((size_t)g->n + 1) * sizeof *map);
    int *part = malloc(((size_t)g->n + 1) * sizeof *part);
    int rc = map && part ? gm_bisect_map(g, m, seed, 0, map, err)
                         : tg_error_set(err, TG_ENOMEM, NULL, 0,
                                        "out of memory");
    if (!rc) {
        for (int t = 0; t < g->n; t++)
            part[t] = map[t].node;
        rc = gm_part_order(g, part, m->n, order, err);
    }
    free(map);
    free(part);
    return rc;
}
