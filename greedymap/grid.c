/* grid.c: where decompose's grid comes from: the graph's own (tg_grid),
 * the user's text ("64x64x64,1,1,0"), or the graph's edges.
 *
 * Detection never guesses: a shape is accepted only when every task's
 * neighbours are exactly those of the stencil on that shape.  The
 * candidate shapes come from task 0 (position 0 in row-major order): its
 * neighbours at distances that divide the task count are the candidate
 * strides 1 < s1 < s2 < ... (each dividing the next), dims[k-1] = s1,
 * dims[i] = s_{k-1-i+1} / s_{k-1-i}, dims[0] = n / s_top; a dimension of
 * size L > 2 wraps when task 0 has the neighbour (L - 1) x its stride;
 * the stencil is the face one or the full {-1,0,1}^d one.  A candidate
 * is checked on task 0 first, then on every task (O(E log degree)).
 * Shapes with more dimensions are tried first; at most 4 dimensions. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

#define DETECT_MAXDIMS 4

int gm_grid_of(const tg_graph *g, tg_grid *out)
{
    if (g->grid.ndims > 0) {
        *out = g->grid;
        return 1;
    }
    return gm_grid_detect(g, out);
}

typedef struct shape {
    int k;
    int dims[DETECT_MAXDIMS], per[DETECT_MAXDIMS];
    int64_t stride[DETECT_MAXDIMS];
    int full; /* 1: {-1,0,1}^k, 0: faces */
} shape;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The stencil neighbours of task t under s, sorted, unique, t left out:
 * their count (buf holds 3^4 entries). */
static int expected(const shape *s, int t, int *buf)
{
    int c[DETECT_MAXDIMS], nb = 0;
    int64_t r = t;
    for (int i = s->k - 1; i >= 0; i--) {
        c[i] = (int)(r % s->dims[i]);
        r /= s->dims[i];
    }
    int total = 1;
    for (int i = 0; i < s->k; i++)
        total *= 3;
    for (int code = 0; code < total; code++) {
        int o[DETECT_MAXDIMS], nz = 0, v = code, ok = 1;
        for (int i = 0; i < s->k; i++) {
            o[i] = v % 3 - 1;
            v /= 3;
            nz += o[i] != 0;
        }
        if (nz == 0 || (!s->full && nz > 1))
            continue;
        int64_t id = 0;
        for (int i = 0; i < s->k && ok; i++) {
            int x = c[i] + o[i];
            if (x < 0 || x >= s->dims[i]) {
                if (!s->per[i])
                    ok = 0;
                x = (x + s->dims[i]) % s->dims[i];
            }
            id += x * s->stride[i];
        }
        if (ok && id != t)
            buf[nb++] = (int)id;
    }
    qsort(buf, (size_t)nb, sizeof *buf, cmp_int);
    int u = 0;
    for (int i = 0; i < nb; i++)
        if (!u || buf[u - 1] != buf[i])
            buf[u++] = buf[i];
    return u;
}

static int matches(const tg_graph *g, const shape *s, int t)
{
    int buf[81];
    int nb = expected(s, t, buf);
    int64_t deg = g->xadj[t + 1] - g->xadj[t];
    return nb == deg &&
           !memcmp(buf, g->adjncy + g->xadj[t], (size_t)nb * sizeof *buf);
}

static int verify(const tg_graph *g, const shape *s)
{
    if (!matches(g, s, 0) || !matches(g, s, g->n - 1))
        return 0;
    for (int t = 0; t < g->n; t++)
        if (!matches(g, s, t))
            return 0;
    return 1;
}

/* Try the shape of strides chain[0] = 1 < chain[1] < ... (k of them). */
static int try_chain(const tg_graph *g, const int *chain, int k, tg_grid *out)
{
    shape s = {.k = k};
    for (int i = 0; i < k; i++) {
        /* dimension k-1-i has stride chain[i] */
        int64_t next = i + 1 < k ? chain[i + 1] : g->n;
        s.stride[k - 1 - i] = chain[i];
        s.dims[k - 1 - i] = (int)(next / chain[i]);
    }
    for (int i = 0; i < k; i++) {
        s.per[i] = 0;
        if (s.dims[i] > 2)
            s.per[i] = tg_graph_weight(g, 0, (int)((s.dims[i] - 1) *
                                                   s.stride[i])) != 0;
    }
    for (s.full = 0; s.full <= 1; s.full++)
        if (verify(g, &s)) {
            memset(out, 0, sizeof *out);
            out->ndims = k;
            for (int i = 0; i < k; i++) {
                out->dims[i] = s.dims[i];
                out->periods[i] = s.per[i];
            }
            return 1;
        }
    return 0;
}

typedef struct chains {
    const tg_graph *g;
    const int *cand;
    int ncand;
    int chain[DETECT_MAXDIMS];
    int want; /* chain length wanted */
    tg_grid *out;
} chains;

static int extend(chains *c, int len)
{
    int top = c->chain[len - 1];
    if (len == c->want)
        return c->g->n / top >= 2 && try_chain(c->g, c->chain, len, c->out);
    for (int i = 0; i < c->ncand; i++) {
        int v = c->cand[i];
        if (v > top && v % top == 0 && v / top >= 2 && c->g->n / v >= 2) {
            c->chain[len] = v;
            if (extend(c, len + 1))
                return 1;
        }
    }
    return 0;
}

int gm_grid_detect(const tg_graph *g, tg_grid *out)
{
    if (g->n < 2 || g->xadj[1] == 0 || g->adjncy[0] != 1)
        return 0; /* row-major: task 0's first neighbour is task 1 */
    int deg = (int)g->xadj[1];
    int *cand = malloc((size_t)deg * sizeof *cand);
    if (!cand)
        return 0;
    int n = 0;
    for (int i = 0; i < deg; i++) {
        int v = g->adjncy[i];
        if (v > 1 && g->n % v == 0)
            cand[n++] = v;
    }
    chains c = {g, cand, n, {1}, 0, out};
    int found = 0;
    for (c.want = DETECT_MAXDIMS; c.want >= 1 && !found; c.want--)
        found = extend(&c, 1);
    free(cand);
    return found;
}

int gm_grid_parse(const char *text, tg_grid *out, tg_error *err)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    int64_t product = 1;
    for (;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > INT32_MAX ||
            out->ndims == TG_GRID_MAXDIMS)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "grid '%s': expected dimensions like "
                                "64x64x64 (1 to %d of them, each >= 1), "
                                "then optionally ,P,P,... (1: the "
                                "dimension wraps)",
                                text, TG_GRID_MAXDIMS);
        out->dims[out->ndims++] = (int)v;
        product *= v;
        if (product > INT32_MAX)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "grid '%s': more than %d points", text,
                                INT32_MAX);
        p = end;
        if (*p != 'x')
            break;
        p++;
    }
    if (*p == '\0')
        return 0;
    for (int i = 0; i < out->ndims; i++) {
        if (*p != ',' || (p[1] != '0' && p[1] != '1'))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "grid '%s': after the dimensions, one "
                                "period per dimension: ,0 or ,1 (%d of "
                                "them)",
                                text, out->ndims);
        out->periods[i] = p[1] - '0';
        p += 2;
    }
    if (*p)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "grid '%s': unexpected '%s' at the end", text,
                            p);
    return 0;
}
