/* graph.c: the CSR task graph: allocation, copy, lookup, checks, stats. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

int tg_error_set(tg_error *err, int code, const char *source, long line,
                 const char *fmt, ...)
{
    if (!err)
        return code;
    snprintf(err->source, sizeof err->source, "%s", source ? source : "");
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
    return code;
}

const char *tg_error_format(const tg_error *err, char *buf, size_t size)
{
    if (err->source[0] && err->line > 0)
        snprintf(buf, size, "%s:%ld: %s", err->source, err->line, err->text);
    else if (err->source[0])
        snprintf(buf, size, "%s: %s", err->source, err->text);
    else
        snprintf(buf, size, "%s", err->text);
    return buf;
}

tg_graph *tg_graph_alloc(int n, int64_t arcs)
{
    /* Refuse sizes whose byte count would wrap, so no caller has to. */
    if (n < 0 || arcs < 0 ||
        (uint64_t)arcs > SIZE_MAX / sizeof(uint64_t))
        return NULL;
    tg_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->n = n;
    g->nedges = arcs / 2;
    g->xadj = calloc((size_t)n + 1, sizeof *g->xadj);
    g->adjncy = malloc((size_t)(arcs ? arcs : 1) * sizeof *g->adjncy);
    g->adjwgt = malloc((size_t)(arcs ? arcs : 1) * sizeof *g->adjwgt);
    if (!g->xadj || !g->adjncy || !g->adjwgt) {
        tg_graph_free(g);
        return NULL;
    }
    return g;
}

void tg_graph_free(tg_graph *g)
{
    if (!g)
        return;
    free(g->xadj);
    free(g->adjncy);
    free(g->adjwgt);
    for (int i = 0; i < g->ntypes; i++)
        free(g->types[i].name);
    free(g->types);
    for (int i = 0; i < g->nlayers; i++) {
        free(g->layers[i].name);
        tg_graph_free(g->layers[i].graph);
    }
    free(g->layers);
    free(g->grid.task);
    free(g);
}

int tg_graph_set_grid(tg_graph *g, int ndims, const int *dims,
                      const int *periods, const int *task, tg_error *err)
{
    if (ndims < 0 || ndims > TG_GRID_MAXDIMS)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "a grid has 1 to %d dimensions, not %d",
                            TG_GRID_MAXDIMS, ndims);
    int64_t points = 1;
    int cut = 0; /* stopped multiplying before the last dimension */
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 1)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "grid dimension %d is %d: dimensions are "
                                ">= 1", i + 1, dims[i]);
        if (points > g->n) { /* no overflow: points <= n * dim < 2^62 */
            cut = 1;
            continue;
        }
        points *= dims[i];
    }
    if (ndims && points != g->n)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "the grid has %s%lld points, the graph %d tasks",
                            cut ? "more than " : "", (long long)points,
                            g->n);
    int *copy = NULL;
    if (ndims && task) {
        copy = malloc((size_t)(g->n ? g->n : 1) * sizeof *copy);
        char *seen = calloc((size_t)g->n + 1, 1);
        if (!copy || !seen) {
            free(copy);
            free(seen);
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        }
        for (int p = 0; p < g->n; p++) {
            if (task[p] < 0 || task[p] >= g->n || seen[task[p]]) {
                int bad = task[p];
                free(copy);
                free(seen);
                return tg_error_set(err, TG_EINVAL, NULL, 0,
                                    "grid position %d holds task %d, which "
                                    "is %s", p, bad,
                                    bad < 0 || bad >= g->n
                                        ? "not a task of the graph"
                                        : "already at another position");
            }
            seen[task[p]] = 1;
            copy[p] = task[p];
        }
        free(seen);
    }
    free(g->grid.task);
    memset(&g->grid, 0, sizeof g->grid);
    g->grid.ndims = ndims;
    for (int i = 0; i < ndims; i++) {
        g->grid.dims[i] = dims[i];
        g->grid.periods[i] = periods && periods[i] ? 1 : 0;
    }
    g->grid.task = copy;
    return 0;
}

int tg_graph_add_type(tg_graph *g, const char *name, double factor,
                      tg_error *err)
{
    tg_type *t = realloc(g->types, ((size_t)g->ntypes + 1) * sizeof *t);
    if (!t)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    g->types = t;
    t[g->ntypes].name = strdup(name);
    if (!t[g->ntypes].name)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    t[g->ntypes].factor = factor;
    g->ntypes++;
    return 0;
}

/* tg_graph_add_layer, the name compared with the other layers' when
 * `check` (a pass over them: a caller adding many layers checks their
 * names itself, by a hash, not in quadratic time). */
static int add_layer(tg_graph *g, const char *name, tg_graph *layer,
                     int check, tg_error *err)
{
    int rc = 0;
    if (layer->n != g->n)
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "layer '%s' has %d tasks, the graph has %d", name,
                          layer->n, g->n);
    else if (layer->nlayers)
        rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                          "layer '%s' has layers of its own", name);
    for (int i = 0; !rc && check && i < g->nlayers; i++)
        if (strcmp(g->layers[i].name, name) == 0)
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "two layers are called '%s'", name);
    tg_layer *l = NULL;
    if (!rc) {
        l = realloc(g->layers, ((size_t)g->nlayers + 1) * sizeof *l);
        if (!l)
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    if (rc) {
        tg_graph_free(layer);
        return rc;
    }
    g->layers = l;
    l[g->nlayers].name = strdup(name);
    if (!l[g->nlayers].name) {
        tg_graph_free(layer);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    l[g->nlayers].graph = layer;
    g->nlayers++;
    return 0;
}

int tg_graph_add_layer(tg_graph *g, const char *name, tg_graph *layer,
                       tg_error *err)
{
    return add_layer(g, name, layer, 1, err);
}

int tg_graph_add_layer_unique(tg_graph *g, const char *name,
                              tg_graph *layer, tg_error *err)
{
    return add_layer(g, name, layer, 0, err);
}

int tg_graph_copy(const tg_graph *g, tg_graph **out, tg_error *err)
{
    int64_t arcs = g->xadj[g->n];
    tg_graph *c = tg_graph_alloc(g->n, arcs);
    if (!c)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    memcpy(c->xadj, g->xadj, ((size_t)g->n + 1) * sizeof *c->xadj);
    memcpy(c->adjncy, g->adjncy, (size_t)arcs * sizeof *c->adjncy);
    memcpy(c->adjwgt, g->adjwgt, (size_t)arcs * sizeof *c->adjwgt);
    int rc = 0;
    for (int i = 0; !rc && i < g->ntypes; i++)
        rc = tg_graph_add_type(c, g->types[i].name, g->types[i].factor, err);
    for (int i = 0; !rc && i < g->nlayers; i++) {
        tg_graph *l;
        rc = tg_graph_copy(g->layers[i].graph, &l, err);
        if (!rc)
            rc = tg_graph_add_layer_unique(c, g->layers[i].name, l, err);
    }
    if (!rc)
        rc = tg_graph_set_grid(c, g->grid.ndims, g->grid.dims,
                               g->grid.periods, g->grid.task, err);
    if (rc) {
        tg_graph_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

uint64_t tg_graph_weight(const tg_graph *g, int a, int b)
{
    if (a < 0 || a >= g->n)
        return 0;
    int64_t lo = g->xadj[a], hi = g->xadj[a + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->adjncy[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < g->xadj[a + 1] && g->adjncy[lo] == b) ? g->adjwgt[lo] : 0;
}

int tg_graph_total_weight(const tg_graph *g, uint64_t *total, tg_error *err)
{
    uint64_t sum = 0;
    for (int a = 0; a < g->n; a++)
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++)
            if (g->adjncy[e] > a) {
                if (sum > UINT64_MAX - g->adjwgt[e])
                    return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                                        "total weight exceeds 2^64 - 1");
                sum += g->adjwgt[e];
            }
    *total = sum;
    return 0;
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int tg_graph_sort_rows(tg_graph *g, tg_error *err)
{
    /* Rows are short: sort (neighbour << 32 | position) keys per row, then
     * permute neighbours and weights with one scratch row. */
    int64_t maxdeg = 0;
    for (int a = 0; a < g->n; a++)
        if (g->xadj[a + 1] - g->xadj[a] > maxdeg)
            maxdeg = g->xadj[a + 1] - g->xadj[a];
    int64_t *key = malloc((size_t)(maxdeg ? maxdeg : 1) * sizeof *key);
    uint64_t *w = malloc((size_t)(maxdeg ? maxdeg : 1) * sizeof *w);
    if (!key || !w) {
        free(key);
        free(w);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int a = 0; a < g->n; a++) {
        int64_t b = g->xadj[a], deg = g->xadj[a + 1] - b;
        int sorted = 1;
        for (int64_t i = 1; i < deg && sorted; i++)
            sorted = g->adjncy[b + i - 1] <= g->adjncy[b + i];
        if (sorted)
            continue;
        for (int64_t i = 0; i < deg; i++) {
            key[i] = ((int64_t)g->adjncy[b + i] << 32) | i;
            w[i] = g->adjwgt[b + i];
        }
        qsort(key, (size_t)deg, sizeof *key, cmp_int64);
        for (int64_t i = 0; i < deg; i++) {
            g->adjncy[b + i] = (int)(key[i] >> 32);
            g->adjwgt[b + i] = w[key[i] & 0xffffffff];
        }
    }
    free(key);
    free(w);
    return 0;
}

int tg_graph_is_symmetric(const tg_graph *g)
{
    /* Build the transpose: visiting the sources in increasing order fills
     * each of its rows already sorted, so a symmetric graph is exactly its
     * own transpose.  A binary search per arc costs a few cache misses per
     * arc on a big graph; this is two passes and a memcmp. */
    int64_t arcs = g->xadj[g->n];
    size_t nn = (size_t)g->n + 1, na = (size_t)(arcs ? arcs : 1);
    int64_t *fill = malloc(nn * sizeof *fill);
    int *adj = calloc(na, sizeof *adj);
    uint64_t *wgt = calloc(na, sizeof *wgt);
    int ok = fill && adj && wgt;
    if (ok)
        memcpy(fill, g->xadj, nn * sizeof *fill);
    for (int a = 0; ok && a < g->n; a++)
        for (int64_t e = g->xadj[a]; ok && e < g->xadj[a + 1]; e++) {
            int b = g->adjncy[e];
            /* A row of the transpose that overflows has more arcs in than
             * out; if none does, every one is filled exactly. */
            ok = fill[b] < g->xadj[b + 1] &&
                 (e == g->xadj[a] || g->adjncy[e - 1] != b);
            if (ok) {
                adj[fill[b]] = a;
                wgt[fill[b]++] = g->adjwgt[e];
            }
        }
    ok = ok && memcmp(adj, g->adjncy, (size_t)arcs * sizeof *adj) == 0 &&
         memcmp(wgt, g->adjwgt, (size_t)arcs * sizeof *wgt) == 0;
    free(fill);
    free(adj);
    free(wgt);
    return ok;
}

tg_asymmetry tg_graph_find_asymmetry(const tg_graph *g, int *a, int64_t *arc)
{
    for (int v = 0; v < g->n; v++)
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
            int b = g->adjncy[e];
            uint64_t back = tg_graph_weight(g, b, v);
            tg_asymmetry why = e > g->xadj[v] && g->adjncy[e - 1] == b
                                   ? TG_REPEATED
                               : back == 0               ? TG_MISSING
                               : back != g->adjwgt[e]    ? TG_WEIGHT_DIFFERS
                                                         : TG_SYMMETRIC;
            if (why != TG_SYMMETRIC) {
                *a = v;
                *arc = e;
                return why;
            }
        }
    return TG_SYMMETRIC;
}

int tg_text_check_symmetric(const tg_text *t, tg_graph *g, const long *vline,
                            long long base, const char *weight_word,
                            tg_error *err)
{
    int rc = tg_graph_sort_rows(g, err);
    if (rc || tg_graph_is_symmetric(g))
        return rc;
    int a;
    int64_t e;
    tg_asymmetry why = tg_graph_find_asymmetry(g, &a, &e);
    if (why == TG_SYMMETRIC)
        return 0; /* tg_graph_is_symmetric ran out of memory */
    int b = g->adjncy[e];
    long long na = a + base, nb = b + base;
    if (why == TG_REPEATED)
        return tg_error_set(err, TG_EPARSE, t->source, vline[a],
                            "vertex %lld lists neighbour %lld twice", na, nb);
    if (why == TG_MISSING)
        return tg_error_set(err, TG_EPARSE, t->source, vline[a],
                            "vertex %lld lists neighbour %lld, but vertex "
                            "%lld (line %ld) does not list %lld", na, nb, nb,
                            vline[b], na);
    return tg_error_set(err, TG_EPARSE, t->source, vline[a],
                        "edge %lld-%lld has %s %" PRIu64 " here but %" PRIu64
                        " at vertex %lld (line %ld)", na, nb, weight_word,
                        g->adjwgt[e], tg_graph_weight(g, b, a), nb, vline[b]);
}

int tg_graph_check(const tg_graph *g, tg_error *err)
{
    if (g->n < 0 || g->xadj[0] != 0 || g->xadj[g->n] != 2 * g->nedges)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "inconsistent task or edge count");
    for (int a = 0; a < g->n; a++) {
        if (g->xadj[a + 1] < g->xadj[a])
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "task %d: decreasing offsets", a);
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++) {
            int b = g->adjncy[e];
            if (b < 0 || b >= g->n)
                return tg_error_set(err, TG_EINVAL, NULL, 0,
                                    "task %d: neighbour %d out of range", a,
                                    b);
            if (b == a)
                return tg_error_set(err, TG_EINVAL, NULL, 0,
                                    "task %d: self-edge", a);
            if (e > g->xadj[a] && g->adjncy[e - 1] >= b)
                return tg_error_set(err, TG_EINVAL, NULL, 0,
                                    "task %d: neighbours not sorted or "
                                    "repeated", a);
            if (g->adjwgt[e] == 0 || g->adjwgt[e] > TG_WEIGHT_MAX)
                return tg_error_set(err, TG_EINVAL, NULL, 0,
                                    "edge %d-%d: weight out of range", a, b);
        }
    }
    int a;
    int64_t arc;
    if (!tg_graph_is_symmetric(g) &&
        tg_graph_find_asymmetry(g, &a, &arc) != TG_SYMMETRIC)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "edge %d-%d: not symmetric", a, g->adjncy[arc]);
    for (int i = 0; i < g->nlayers; i++) {
        const tg_graph *l = g->layers[i].graph;
        if (l->n != g->n || l->nlayers)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "layer '%s': bad shape", g->layers[i].name);
        int rc = tg_graph_check(l, err);
        if (rc)
            return rc;
    }
    return 0;
}

int tg_graph_stats(const tg_graph *g, tg_stats *st, tg_error *err)
{
    memset(st, 0, sizeof *st);
    st->n = g->n;
    st->nedges = g->nedges;
    int rc = tg_graph_total_weight(g, &st->total_weight, err);
    if (rc)
        return rc;
    if (g->n == 0)
        return 0;
    st->degree_min = INT32_MAX;
    for (int a = 0; a < g->n; a++) {
        int d = (int)(g->xadj[a + 1] - g->xadj[a]);
        if (d < st->degree_min)
            st->degree_min = d;
        if (d > st->degree_max)
            st->degree_max = d;
        if (d == 0)
            st->isolated++;
    }
    st->degree_avg = (double)(2 * g->nedges) / g->n;

    /* Connected components by iterative BFS over a queue. */
    int *queue = malloc((size_t)g->n * sizeof *queue);
    char *seen = calloc((size_t)g->n, 1);
    if (!queue || !seen) {
        free(queue);
        free(seen);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    for (int s = 0; s < g->n; s++) {
        if (seen[s])
            continue;
        st->components++;
        int head = 0, tail = 0;
        queue[tail++] = s;
        seen[s] = 1;
        while (head < tail) {
            int a = queue[head++];
            for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++)
                if (!seen[g->adjncy[e]]) {
                    seen[g->adjncy[e]] = 1;
                    queue[tail++] = g->adjncy[e];
                }
        }
    }
    free(queue);
    free(seen);
    return 0;
}
