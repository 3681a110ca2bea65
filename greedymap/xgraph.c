/* xgraph.c: networks given as named vertices and links (fat-tree, graph):
 * building the CSR of directed links. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

void gm_xgraph_free(gm_xgraph *x)
{
    if (!x)
        return;
    for (int v = 0; v < x->nv; v++)
        free(x->names[v]);
    free(x->names);
    gm_strmap_free(&x->index);
    free(x->hosts);
    free(x->host_of);
    free(x->xadj);
    free(x->adj);
    free(x->tail);
    free(x->up);
    free(x);
}

int gm_xbuild_init(gm_xbuild *b, const char *source, int updown)
{
    memset(b, 0, sizeof *b);
    b->x = calloc(1, sizeof *b->x);
    if (!b->x)
        return TG_ENOMEM;
    b->x->updown = updown;
    b->x->source = source;
    return 0;
}

void gm_xbuild_abort(gm_xbuild *b)
{
    gm_xgraph_free(b->x);
    free(b->la);
    free(b->lb);
    memset(b, 0, sizeof *b);
}

static int nomem(tg_error *err)
{
    return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
}

int gm_xbuild_vertex(gm_xbuild *b, const char *name, int *created,
                     tg_error *err)
{
    gm_xgraph *x = b->x;
    int v = gm_strmap_get(&x->index, name);
    if (created)
        *created = v < 0;
    if (v >= 0)
        return v;
    if (x->nv == INT32_MAX / 2)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0, "too many vertices");
    if (x->nv == b->cap_v) {
        int cap = b->cap_v ? 2 * b->cap_v : 64;
        char **names = realloc(x->names, (size_t)cap * sizeof *names);
        if (!names)
            return nomem(err);
        x->names = names;
        int *host_of = realloc(x->host_of, (size_t)cap * sizeof *host_of);
        if (!host_of)
            return nomem(err);
        x->host_of = host_of;
        b->cap_v = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return nomem(err);
    if (gm_strmap_put(&x->index, copy, x->nv) < -1) {
        free(copy);
        return nomem(err);
    }
    x->names[x->nv] = copy;
    x->host_of[x->nv] = -1;
    return x->nv++;
}

int gm_xbuild_host(gm_xbuild *b, int v, tg_error *err)
{
    gm_xgraph *x = b->x;
    if (x->host_of[v] >= 0)
        return 0;
    if (x->nhosts == b->cap_h) {
        int cap = b->cap_h ? 2 * b->cap_h : 64;
        int *hosts = realloc(x->hosts, (size_t)cap * sizeof *hosts);
        if (!hosts)
            return nomem(err);
        x->hosts = hosts;
        b->cap_h = cap;
    }
    x->host_of[v] = x->nhosts;
    x->hosts[x->nhosts++] = v;
    return 0;
}

int gm_xbuild_link(gm_xbuild *b, int a, int v, tg_error *err)
{
    /* Two arcs per link, and arc ids are ints. */
    if (b->nlinks >= INT32_MAX / 2 - 1)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0, "too many links");
    if (b->nlinks == b->cap_l) {
        int64_t cap = b->cap_l ? 2 * b->cap_l : 256;
        int *la = realloc(b->la, (size_t)cap * sizeof *la);
        if (!la)
            return nomem(err);
        b->la = la;
        int *lb = realloc(b->lb, (size_t)cap * sizeof *lb);
        if (!lb)
            return nomem(err);
        b->lb = lb;
        b->cap_l = cap;
    }
    b->la[b->nlinks] = a;
    b->lb[b->nlinks] = v;
    b->nlinks++;
    return 0;
}

int gm_xbuild_finish(gm_xbuild *b, gm_xgraph **out, tg_error *err)
{
    gm_xgraph *x = b->x;
    size_t arcs = (size_t)(2 * b->nlinks);
    x->xadj = calloc((size_t)x->nv + 1, sizeof *x->xadj);
    x->adj = malloc((arcs ? arcs : 1) * sizeof *x->adj);
    x->tail = malloc((arcs ? arcs : 1) * sizeof *x->tail);
    x->up = malloc(arcs ? arcs : 1);
    if (!x->xadj || !x->adj || !x->tail || !x->up) {
        gm_xbuild_abort(b);
        return nomem(err);
    }
    for (int64_t i = 0; i < b->nlinks; i++) {
        x->xadj[b->la[i] + 1]++;
        x->xadj[b->lb[i] + 1]++;
    }
    for (int v = 0; v < x->nv; v++)
        x->xadj[v + 1] += x->xadj[v];
    /* Fill in link order, so "the first choice" is file order. */
    int *fill = malloc(((size_t)x->nv + 1) * sizeof *fill);
    if (!fill) {
        gm_xbuild_abort(b);
        return nomem(err);
    }
    memcpy(fill, x->xadj, ((size_t)x->nv + 1) * sizeof *fill);
    for (int64_t i = 0; i < b->nlinks; i++) {
        int a = b->la[i], v = b->lb[i];
        int e = fill[a]++;
        x->adj[e] = v;
        x->tail[e] = a;
        x->up[e] = (unsigned char)(x->updown != 0);
        e = fill[v]++;
        x->adj[e] = a;
        x->tail[e] = v;
        x->up[e] = 0;
    }
    free(fill);
    free(b->la);
    free(b->lb);
    *out = x;
    memset(b, 0, sizeof *b);
    return 0;
}
