/* order_gpart.c: the GPART task list (papers/001, 4.5): a METIS k-way
 * min-cut partition with one part per node, tasks of a part consecutive,
 * parts in node order, tasks of a part in id order.
 *
 * Part sizes.  Part i gets exactly as many tasks as node i will hold.
 * With as many tasks as slots that is node i's slot count; with fewer
 * tasks, nodes are filled in node order until the tasks run out (the
 * nodes a block mapping would use), the last one partly, and nodes left
 * empty get no part.  METIS is asked for these sizes as target part
 * weights (size / tasks) and only approximates them, so the partition is
 * then rebalanced to the exact sizes.
 *
 * Rebalancing.  For a task t of an overfull part p, let c(t, q) be the
 * weight of t's edges into part q, and q* the underfull part with the
 * largest c(t, q) (ties: the lowest part; with no neighbour in any
 * underfull part, the lowest underfull part).  Moving t from p to q* adds
 * c(t, p) - c(t, q*) to the cut: the cost of the move.  Tasks of overfull
 * parts wait in a min-heap by (cost, id); the cheapest is taken, its cost
 * recomputed (earlier moves may have changed it) and, when it has grown,
 * put back; otherwise the task moves, unless its part is no longer
 * overfull, in which case it stays.  Each move fixes one surplus task,
 * parts only go from under- to exactly full, so this ends with every part
 * at its size after at most (surplus) moves: O((T + E) log T) at worst.
 *
 * METIS gets the seed (modulo 2^31) so that seeds give different
 * partitions, and weights scaled to 32 bits (metisgraph.c). */
#include <metis.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

typedef struct entry {
    i128 cost;
    int task;
} entry;

typedef struct balance {
    const tg_graph *g;
    int nparts;
    int *part, *size;
    const int *want;
    int first_under; /* no part below it is underfull */
    u128 *conn;      /* per part, reset after each use */
    int *touched;
    entry *heap;
    int nheap;
} balance;

static int entry_less(const entry *a, const entry *b)
{
    return a->cost < b->cost || (a->cost == b->cost && a->task < b->task);
}

static void heap_push(balance *b, entry x)
{
    int i = b->nheap++;
    while (i > 0 && entry_less(&x, &b->heap[(i - 1) / 2])) {
        b->heap[i] = b->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    b->heap[i] = x;
}

static entry heap_pop(balance *b)
{
    entry top = b->heap[0], x = b->heap[--b->nheap];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= b->nheap)
            break;
        if (c + 1 < b->nheap && entry_less(&b->heap[c + 1], &b->heap[c]))
            c++;
        if (!entry_less(&b->heap[c], &x))
            break;
        b->heap[i] = b->heap[c];
        i = c;
    }
    b->heap[i] = x;
    return top;
}

static int underfull(const balance *b, int p)
{
    return b->size[p] < b->want[p];
}

/* The cost of moving t out of its part, and where to (see the top). */
static i128 move_cost(balance *b, int t, int *to)
{
    const tg_graph *g = b->g;
    int nt = 0;
    for (int64_t e = g->xadj[t]; e < g->xadj[t + 1]; e++) {
        int q = b->part[g->adjncy[e]];
        if (b->conn[q] == 0)
            b->touched[nt++] = q;
        b->conn[q] += g->adjwgt[e];
    }
    while (!underfull(b, b->first_under))
        b->first_under++;
    int best = b->first_under;
    u128 inside = b->conn[b->part[t]], out = 0;
    for (int i = 0; i < nt; i++) {
        int q = b->touched[i];
        if (underfull(b, q) &&
            (b->conn[q] > out || (b->conn[q] == out && q < best))) {
            out = b->conn[q];
            best = q;
        }
        b->conn[q] = 0;
    }
    *to = best;
    return (i128)inside - (i128)out;
}

static int rebalance(balance *b, tg_error *err)
{
    const tg_graph *g = b->g;
    int64_t surplus = 0;
    for (int p = 0; p < b->nparts; p++)
        if (b->size[p] > b->want[p])
            surplus += b->size[p] - b->want[p];
    if (surplus == 0)
        return 0;
    b->conn = calloc((size_t)b->nparts, sizeof *b->conn);
    b->touched = malloc(((size_t)g->n + 1) * sizeof *b->touched);
    b->heap = malloc(((size_t)g->n + 1) * sizeof *b->heap);
    if (!b->conn || !b->touched || !b->heap)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int t = 0; t < g->n; t++) {
        int p = b->part[t], to;
        if (b->size[p] > b->want[p])
            heap_push(b, (entry){move_cost(b, t, &to), t});
    }
    while (surplus > 0) {
        entry x = heap_pop(b);
        int t = x.task, p = b->part[t], to;
        if (b->size[p] <= b->want[p])
            continue;
        i128 c = move_cost(b, t, &to);
        if (c > x.cost) {
            heap_push(b, (entry){c, t});
            continue;
        }
        b->part[t] = to;
        b->size[p]--;
        b->size[to]++;
        surplus--;
    }
    return 0;
}

/* The part sizes: nodes in order until the tasks run out. */
static int part_sizes(const gm_machine *m, int n, int *want, int *nparts,
                      tg_error *err)
{
    int k = 0, left = n;
    for (int i = 0; i < m->n && left > 0; i++) {
        want[k] = m->slots[i] < left ? m->slots[i] : left;
        left -= want[k++];
    }
    if (left > 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d tasks do not fit on %lld slots", n,
                            (long long)gm_machine_total_slots(m));
    *nparts = k;
    return 0;
}

static int metis_parts(const tg_graph *g, const int *want, int nparts,
                       uint64_t seed, int *part, tg_error *err)
{
    gm_metis_graph mg;
    int rc = gm_metis_graph_make(g, &mg, err);
    if (rc)
        return rc;
    real_t *tp = malloc((size_t)nparts * sizeof *tp);
    if (!tp) {
        gm_metis_graph_free(&mg);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int p = 0; p < nparts; p++)
        tp[p] = (real_t)((double)want[p] / g->n);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = (idx_t)(seed % ((uint64_t)1 << 31));
    idx_t n = mg.n, ncon = 1, np = nparts, cut;
    int mrc = METIS_PartGraphKway(&n, &ncon, mg.xadj, mg.adjncy, NULL, NULL,
                                  mg.adjwgt, &np, tp, NULL, options, &cut,
                                  part);
    free(tp);
    gm_metis_graph_free(&mg);
    if (mrc != METIS_OK)
        return tg_error_set(err, mrc == METIS_ERROR_MEMORY ? TG_ENOMEM
                                                            : TG_EINVAL,
                            NULL, 0,
                            "METIS_PartGraphKway failed (code %d) on %d "
                            "tasks, %d parts",
                            mrc, g->n, nparts);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* (value, id) pairs sorted, the ids left in out. */
static void sort_by(const int *value, int k, uint64_t *keys, int *out)
{
    for (int i = 0; i < k; i++)
        keys[i] = (uint64_t)(unsigned)value[i] << 32 | (unsigned)i;
    qsort(keys, (size_t)k, sizeof *keys, cmp_u64);
    for (int i = 0; i < k; i++)
        out[i] = (int)(keys[i] & 0xffffffffu);
}

/* METIS's part ids carry no meaning, and as it only approximates the
 * targets its parts may rank by size differently from them: node i gets
 * the part whose size ranks as node i's target does, so rebalancing moves
 * fewer tasks.  Among nodes with equal targets the parts keep METIS's
 * relative order (with equal capacities nothing changes). */
static int relabel(int *part, int n, const int *want, int k,
                   tg_error *err)
{
    int *size = calloc((size_t)k, sizeof *size);
    int *byp = malloc((size_t)k * sizeof *byp);
    int *byn = malloc((size_t)k * sizeof *byn);
    int *label = malloc((size_t)k * sizeof *label);
    uint64_t *keys = malloc((size_t)k * sizeof *keys);
    int rc = 0;
    if (!size || !byp || !byn || !label || !keys) {
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int t = 0; t < n; t++)
        size[part[t]]++;
    sort_by(size, k, keys, byp);
    sort_by(want, k, keys, byn);
    for (int r = 0, end; r < k; r = end) {
        for (end = r + 1; end < k && want[byn[end]] == want[byn[r]];)
            end++;
        for (int i = r; i < end; i++) /* ids, to sort them */
            keys[i] = (uint64_t)byp[i];
        qsort(keys + r, (size_t)(end - r), sizeof *keys, cmp_u64);
        for (int i = r; i < end; i++)
            label[keys[i]] = byn[i];
    }
    for (int t = 0; t < n; t++)
        part[t] = label[part[t]];
done:
    free(size);
    free(byp);
    free(byn);
    free(label);
    free(keys);
    return rc;
}

int gm_partition(const tg_graph *g, const gm_machine *m, uint64_t seed,
                 int *part, tg_error *err)
{
    size_t nn = (size_t)m->n + 1;
    int *want = malloc(nn * sizeof *want);
    int *size = calloc(nn, sizeof *size);
    balance b = {0};
    int rc = 0, nparts = 0;
    if (!want || !size)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (!rc)
        rc = part_sizes(m, g->n, want, &nparts, err);
    if (!rc && nparts > 1) {
        rc = metis_parts(g, want, nparts, seed, part, err);
        if (!rc)
            rc = relabel(part, g->n, want, nparts, err);
    } else if (!rc)
        memset(part, 0, (size_t)g->n * sizeof *part);
    if (!rc) {
        for (int t = 0; t < g->n; t++)
            size[part[t]]++;
        b = (balance){g, nparts, part, size, want, 0, NULL, NULL, NULL, 0};
        rc = rebalance(&b, err);
    }
    free(b.conn);
    free(b.touched);
    free(b.heap);
    free(want);
    free(size);
    return rc;
}

int gm_order_gpart(const tg_graph *g, const gm_machine *m, uint64_t seed,
                   int *order, tg_error *err)
{
    int *part = malloc(((size_t)g->n + 1) * sizeof *part);
    int *first = calloc((size_t)m->n + 1, sizeof *first);
    int rc = part && first ? gm_partition(g, m, seed, part, err)
                           : tg_error_set(err, TG_ENOMEM, NULL, 0,
                                          "out of memory");
    if (!rc) {
        /* Counting sort by part, stable: ids ascend inside a part. */
        for (int t = 0; t < g->n; t++)
            first[part[t] + 1]++;
        for (int p = 0; p < m->n; p++)
            first[p + 1] += first[p];
        for (int t = 0; t < g->n; t++)
            order[first[part[t]]++] = t;
    }
    free(part);
    free(first);
    return rc;
}
