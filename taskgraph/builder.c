/* builder.c: directed (src, dst, bytes) triples to an undirected CSR graph.
 *
 * Triples are stored with a < b, sorted by (a, b) with two stable counting
 * sorts (linear time, no comparisons), merged, and laid out as CSR: while
 * edges are visited in (a, b) order, row x first receives its neighbours
 * a < x in increasing order, then its neighbours b > x in increasing order,
 * so every row comes out sorted without a further sort. */
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

typedef struct triple {
    int a, b;
    uint64_t w;
} triple;

struct tg_builder {
    int n;
    triple *t;
    size_t len, cap;
};

tg_builder *tg_builder_new(int n)
{
    if (n < 0)
        return NULL;
    tg_builder *b = calloc(1, sizeof *b);
    if (b)
        b->n = n;
    return b;
}

void tg_builder_free(tg_builder *b)
{
    if (!b)
        return;
    free(b->t);
    free(b);
}

int tg_builder_tasks(const tg_builder *b)
{
    return b->n;
}

int tg_builder_add(tg_builder *b, int src, int dst, uint64_t bytes,
                   tg_error *err)
{
    if (src < 0 || src >= b->n || dst < 0 || dst >= b->n)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "edge %d-%d: task id outside 0..%d", src, dst,
                            b->n - 1);
    if (bytes > TG_WEIGHT_MAX)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                            "edge %d-%d: weight %llu exceeds 2^63 - 1", src,
                            dst, (unsigned long long)bytes);
    if (src == dst || bytes == 0)
        return 0;
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        triple *t = realloc(b->t, cap * sizeof *t);
        if (!t)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        b->t = t;
        b->cap = cap;
    }
    triple *t = &b->t[b->len++];
    t->a = src < dst ? src : dst;
    t->b = src < dst ? dst : src;
    t->w = bytes;
    return 0;
}

/* Stable counting sort of in[0..len) into out by key a (by_a) or b. */
static int counting_sort(const triple *in, triple *out, size_t len, int n,
                         int by_a)
{
    size_t *count = calloc((size_t)n + 1, sizeof *count);
    if (!count)
        return -1;
    for (size_t i = 0; i < len; i++)
        count[(by_a ? in[i].a : in[i].b) + 1]++;
    for (int k = 0; k < n; k++)
        count[k + 1] += count[k];
    for (size_t i = 0; i < len; i++)
        out[count[by_a ? in[i].a : in[i].b]++] = in[i];
    free(count);
    return 0;
}

int tg_builder_finish(tg_builder *b, tg_graph **out, tg_error *err)
{
    int n = b->n;
    size_t len = b->len;
    triple *tmp = malloc((len ? len : 1) * sizeof *tmp);
    if (!tmp || counting_sort(b->t, tmp, len, n, 0) ||
        counting_sort(tmp, b->t, len, n, 1)) {
        free(tmp);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    free(tmp);

    /* Merge duplicates in place. */
    size_t m = 0;
    for (size_t i = 0; i < len; i++) {
        if (m && b->t[m - 1].a == b->t[i].a && b->t[m - 1].b == b->t[i].b) {
            if (b->t[i].w > TG_WEIGHT_MAX - b->t[m - 1].w)
                return tg_error_set(err, TG_EOVERFLOW, NULL, 0,
                                    "edge %d-%d: total weight exceeds "
                                    "2^63 - 1", b->t[i].a, b->t[i].b);
            b->t[m - 1].w += b->t[i].w;
        } else {
            b->t[m++] = b->t[i];
        }
    }

    tg_graph *g = tg_graph_alloc(n, 2 * (int64_t)m);
    if (!g)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < m; i++) {
        g->xadj[b->t[i].a + 1]++;
        g->xadj[b->t[i].b + 1]++;
    }
    for (int k = 0; k < n; k++)
        g->xadj[k + 1] += g->xadj[k];
    int64_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!fill) {
        tg_graph_free(g);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    memcpy(fill, g->xadj, ((size_t)n + 1) * sizeof *fill);
    for (size_t i = 0; i < m; i++) {
        const triple *t = &b->t[i];
        g->adjncy[fill[t->a]] = t->b;
        g->adjwgt[fill[t->a]++] = t->w;
        g->adjncy[fill[t->b]] = t->a;
        g->adjwgt[fill[t->b]++] = t->w;
    }
    free(fill);
    b->len = 0;
    *out = g;
    return 0;
}

int tg_builder_finish_typed(tg_builder *b, const char *type, tg_graph **out,
                            tg_error *err)
{
    tg_graph *g = NULL;
    int rc = tg_builder_finish(b, &g, err);
    if (!rc)
        rc = tg_graph_add_type(g, type, 1.0, err);
    if (rc) {
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}
