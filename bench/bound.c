/* bound.c: lower bounds on hop-bytes for bench/mapper (bound.h). */
#include "bound.h"

#include <stdlib.h>

/* ------------------------------------------------- equal-size partitions */

typedef struct psearch {
    int n, k, size;
    uint64_t w[BOUND_PARTITION_MAX][BOUND_PARTITION_MAX];
    int part[BOUND_PARTITION_MAX];  /* -1: not yet placed */
    int fill[BOUND_PARTITION_MAX];  /* tasks in each part */
    /* to[v][p]: weight from v to the placed tasks of part p; placed[v]
     * the weight from v to all placed tasks */
    uint64_t to[BOUND_PARTITION_MAX][BOUND_PARTITION_MAX];
    uint64_t placed[BOUND_PARTITION_MAX];
    uint64_t best;  /* least cut found */
    uint64_t root;  /* the bound before anything is placed */
    long nodes, limit;
} psearch;

static void place(psearch *s, int v, int p, int sign)
{
    for (int u = 0; u < s->n; u++) {
        uint64_t w = s->w[v][u];
        if (sign > 0)
            s->to[u][p] += w, s->placed[u] += w;
        else
            s->to[u][p] -= w, s->placed[u] -= w;
    }
    s->part[v] = sign > 0 ? p : -1;
    s->fill[p] += sign;
}

/* Twice a lower bound on what the unplaced tasks still add to the cut:
 * each goes to some part p with room and then cuts its edges to placed
 * tasks outside p (counted twice) and, of its edges to unplaced tasks,
 * all but the heaviest (room of p - 1) (each such edge counted from both
 * ends).  Also the task to branch on: the largest gap between its best
 * and second best part. */
static uint64_t still_to_cut(const psearch *s, int used, int *branch)
{
    int un[BOUND_PARTITION_MAX], r = 0;
    for (int v = 0; v < s->n; v++)
        if (s->part[v] < 0)
            un[r++] = v;
    uint64_t sum = 0, widest = 0;
    *branch = -1;
    for (int i = 0; i < r; i++) {
        int v = un[i];
        /* weights to the other unplaced tasks, heaviest first, and their
         * prefix sums */
        uint64_t w[BOUND_PARTITION_MAX], heavy[BOUND_PARTITION_MAX + 1];
        uint64_t all = 0;
        int c = 0;
        for (int j = 0; j < r; j++)
            if (j != i) {
                uint64_t x = s->w[v][un[j]];
                int at = c++;
                while (at > 0 && w[at - 1] < x) {
                    w[at] = w[at - 1];
                    at--;
                }
                w[at] = x;
                all += x;
            }
        heavy[0] = 0;
        for (int j = 0; j < c; j++)
            heavy[j + 1] = heavy[j] + w[j];
        uint64_t b1 = UINT64_MAX, b2 = UINT64_MAX;
        for (int p = 0; p <= used && p < s->k; p++) {
            if (s->fill[p] >= s->size)
                continue;
            int room = s->size - s->fill[p] - 1;
            if (room > c)
                room = c;
            uint64_t cost = 2 * (s->placed[v] - s->to[v][p]) +
                            (all - heavy[room]);
            if (cost < b1)
                b2 = b1, b1 = cost;
            else if (cost < b2)
                b2 = cost;
        }
        sum += b1;
        uint64_t gap = b2 == UINT64_MAX ? UINT64_MAX : b2 - b1;
        if (*branch < 0 || gap > widest)
            *branch = v, widest = gap;
    }
    return sum;
}

/* Parts are opened in order (a task goes to an open part or to the first
 * empty one), so that no partition is searched once per numbering. */
static void search(psearch *s, int left, uint64_t cut, int used)
{
    if (s->nodes++ >= s->limit)
        return;
    if (!left) {
        if (cut < s->best)
            s->best = cut;
        return;
    }
    int v;
    uint64_t bound = cut + still_to_cut(s, used, &v) / 2;
    if (s->nodes == 1)
        s->root = bound;
    if (bound >= s->best)
        return;
    int ps[BOUND_PARTITION_MAX], np = 0;
    uint64_t cost[BOUND_PARTITION_MAX];
    for (int p = 0; p <= used && p < s->k; p++)
        if (s->fill[p] < s->size) {
            uint64_t c = s->placed[v] - s->to[v][p];
            int at = np++;
            while (at > 0 && cost[at - 1] > c) {
                cost[at] = cost[at - 1], ps[at] = ps[at - 1];
                at--;
            }
            cost[at] = c, ps[at] = p;
        }
    for (int i = 0; i < np; i++) {
        place(s, v, ps[i], 1);
        search(s, left - 1, cut + cost[i], used + (ps[i] == used));
        place(s, v, ps[i], -1);
    }
}

int bound_partition(const tg_graph *g, int size, long limit, uint64_t *cut,
                    int *exact, tg_error *err)
{
    if (!g || size < 1 || g->n < 1 || g->n > BOUND_PARTITION_MAX ||
        g->n % size)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "bound_partition: %d tasks in parts of %d: "
                            "need at most %d tasks, a multiple of the part",
                            g ? g->n : 0, size, BOUND_PARTITION_MAX);
    uint64_t total;
    int rc = tg_graph_total_weight(g, &total, err);
    if (rc)
        return rc;
    /* the bound adds twice every weight, once from each end */
    if (total > UINT64_MAX / 8)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                            "bound_partition: weights add up to %llu, too "
                            "much to bound", (unsigned long long)total);
    psearch *s = calloc(1, sizeof *s);
    if (!s)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    s->n = g->n, s->size = size, s->k = g->n / size;
    for (int u = 0; u < g->n; u++) {
        s->part[u] = -1;
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (g->adjncy[e] != u)
                s->w[u][g->adjncy[e]] = g->adjwgt[e];
    }
    s->best = UINT64_MAX;
    s->limit = limit;
    search(s, g->n, 0, 0);
    *exact = s->nodes <= s->limit;
    *cut = *exact ? s->best : s->root;
    free(s);
    return 0;
}

/* ------------------------------------------------ the 27-point stencil */

/* Centred intervals: an axis line of a centred set holds the first h of
 * 0, 1, -1, 2, -2, ... (at(i) is the i-th).  Two such columns of heights
 * a and b side by side are joined by 3 min(a, b) pairs within one step,
 * less 2 when a == b and 1 when they differ by 1 (their ends): the most
 * any two sets of a and b points on two lines can have. */
#define KING_MAX 40

static int at(int i) { return i % 2 ? (i + 1) / 2 : -(i / 2); }

static long side_by_side(int a, int b)
{
    int lo = a < b ? a : b, d = abs(a - b);
    return 3L * lo - (d >= 2 ? 0 : 2 - d);
}

typedef struct kings {
    int h[KING_MAX + 1][KING_MAX + 1]; /* column heights, by zig-zag index */
    long best;
} kings;

/* Inverse of at(). */
static int index_of(int x) { return x > 0 ? 2 * x - 1 : -2 * x; }

/* Edges column (i, j) of height v adds to those placed before it (rows
 * above, and this row to its left): its own v - 1 and those to every
 * neighbouring column already placed. */
static long added(const kings *s, int i, int j, int v)
{
    long e = v - 1;
    int x = at(i), y = at(j);
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++) {
            if (!dx && !dy)
                continue;
            int i2 = index_of(x + dx), j2 = index_of(y + dy);
            if (i2 > KING_MAX || j2 > KING_MAX)
                continue;
            int before = i2 < i || (i2 == i && j2 < j);
            if (before && s->h[i2][j2])
                e += side_by_side(v, s->h[i2][j2]);
        }
    return e;
}

/* Plane partitions of `left` more points: heights fall along each row and
 * each column of the zig-zag indices. */
static void plane(kings *s, int i, int j, int left, long edges)
{
    if (!left) {
        if (edges > s->best)
            s->best = edges;
        return;
    }
    if (i > KING_MAX)
        return;
    int most = left;
    if (j > KING_MAX)
        most = 0;
    if (j > 0 && s->h[i][j - 1] < most)
        most = s->h[i][j - 1];
    if (i > 0 && s->h[i - 1][j] < most)
        most = s->h[i - 1][j];
    for (int v = most; v >= 1; v--) {
        s->h[i][j] = v;
        plane(s, i, j + 1, left - v, edges + added(s, i, j, v));
    }
    s->h[i][j] = 0;
    if (j > 0)
        plane(s, i + 1, 0, left, edges);
}

long bound_king_edges(int k)
{
    if (k < 1 || k > KING_MAX)
        return -1;
    kings *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->best = -1;
    plane(s, 0, 0, k, 0);
    long best = s->best;
    free(s);
    return best;
}

/* ------------------------------------------------------------- cliques */

long bound_clique_hops(int c, int cap)
{
    if (c < 1 || cap < 1)
        return -1;
    /* pairs on different nodes: fewest with full nodes */
    long full = c / cap, rest = c % cap;
    long same = full * cap * (cap - 1) / 2 + rest * (rest - 1) / 2;
    long apart = (long)c * (c - 1) / 2 - same;
    long one_hop = (long)(c / 2) * ((c + 1) / 2);
    if (one_hop > apart)
        one_hop = apart;
    return 2 * apart - one_hop;
}
