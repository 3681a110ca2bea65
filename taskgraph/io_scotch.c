/* io_scotch.c: Scotch source graph files, .grf (Scotch 7 user guide,
 * section "Graph files").
 *
 *   0                      version
 *   vertnbr edgenbr        edgenbr counts arcs: twice the undirected edges
 *   baseval flags          flags "abc": a vertex labels, b edge loads,
 *                          c vertex loads
 *   then per vertex: [label] [vertex load] degree, and per arc
 *   [edge load] neighbour (the load comes before the neighbour)
 *
 * Numbers are separated by any white space and may be spread over lines
 * freely, so the reader reads tokens across line ends; messages still
 * name the line of the token at fault.  Neighbours are vertex numbers from
 * baseval (0 or 1), or labels when the file has vertex labels.  Without
 * edge loads every edge weighs 1.  Vertex loads are checked and ignored.
 *
 * As for METIS, the CSR is filled in file order, sorted, and checked for
 * arcs without a reverse of the same load, rather than merged by the
 * builder, which would hide a half-listed edge. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

/* ---------------------------------------------------------------- write */

int tg_write_scotch(const char *path, const tg_graph *g, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    FILE *fp = o.fp;
    /* Base 0, flags 010: edge loads only. */
    fprintf(fp, "0\n%d %" PRId64 "\n0 010\n", g->n, g->xadj[g->n]);
    for (int a = 0; a < g->n; a++) {
        fprintf(fp, "%" PRId64, g->xadj[a + 1] - g->xadj[a]);
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++) {
            tg_put_u64(fp, ' ', g->adjwgt[e]);
            tg_put_u64(fp, ' ', (uint64_t)g->adjncy[e]);
        }
        putc('\n', fp);
    }
    return tg_out_commit(&o, err);
}

/* ----------------------------------------------------------------- read */

typedef struct scotch_reader {
    tg_text t;
    char *p;            /* cursor in the current line, NULL before line 1 */
    tg_error *err;
    int n;              /* vertnbr */
    uint64_t arcnbr;    /* edgenbr: arcs announced */
    long arcs_line;     /* line of edgenbr */
    int base;           /* baseval */
    int labels, eloads, vloads;
    tg_graph *g;        /* CSR filled in file order */
    int64_t arcs;       /* arcs read */
    long *vline;        /* line where each vertex starts */
    uint64_t *vlabel;   /* label of each vertex (with labels) */
    uint64_t *alabel;   /* neighbour label of each arc (with labels) */
} scotch_reader;

/* The next number, wherever it is: 1, 0 at the end of the file, or a
 * negative TG_E* code with the message in r->err. */
static int next_u64(scotch_reader *r, uint64_t *v, const char *what)
{
    for (;;) {
        if (r->p) {
            int got = tg_lex_u64(&r->t, &r->p, v, what, r->err);
            if (got > 0)
                return 1;
            if (got < 0)
                return got;
        }
        char *line = tg_text_next(&r->t, NULL, 1);
        if (!line)
            return 0;
        r->p = line;
    }
}

/* Vertex v's number in messages: as the file counts, from baseval. */
static long long vnum(const scotch_reader *r, int64_t v)
{
    return (long long)v + r->base;
}

/* Where the reader is, for a truncated file. */
enum { IN_HEADER, BEFORE_VERTEX, IN_VERTEX };

/* Like next_u64, where the end of the file is an error too: `at` and the
 * vertex v say where the file stopped. */
static int need_u64(scotch_reader *r, uint64_t *x, const char *what, int at,
                    int64_t v)
{
    int got = next_u64(r, x, what);
    if (got > 0)
        return 0;
    if (got < 0)
        return got;
    const char *src = r->t.source;
    long line = r->t.line;
    if (at == IN_HEADER)
        return tg_error_set(r->err, TG_EPARSE, src, line,
                            "truncated file: it ends inside the header");
    if (at == BEFORE_VERTEX)
        return tg_error_set(r->err, TG_EPARSE, src, line,
                            "truncated file: it ends after %lld of the %d "
                            "vertices in the header", (long long)v, r->n);
    return tg_error_set(r->err, TG_EPARSE, src, line,
                        "truncated file: it ends inside vertex %lld (header "
                        "says %d vertices)", vnum(r, v), r->n);
}

static int read_header(scotch_reader *r)
{
    tg_text *t = &r->t;
    uint64_t version, n, arcs, base, flags;
    int rc = need_u64(r, &version, "version", IN_HEADER, 0);
    if (rc)
        return rc;
    if (version != 0)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "Scotch graph version %" PRIu64 " is not "
                            "supported (a source graph file starts with 0)",
                            version);
    rc = need_u64(r, &n, "vertex count", IN_HEADER, 0);
    if (rc)
        return rc;
    if (n > TG_TASKS_MAX)
        return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                            "%" PRIu64 " vertices: at most %d are supported",
                            n, TG_TASKS_MAX);
    rc = need_u64(r, &arcs, "arc count", IN_HEADER, 0);
    if (rc)
        return rc;
    r->arcs_line = t->line;
    if (arcs > (uint64_t)INT64_MAX)
        return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                            "arc count %" PRIu64 " is too large", arcs);
    if (arcs % 2)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "arc count %" PRIu64 " is odd: Scotch counts "
                            "both arcs of every edge", arcs);
    rc = need_u64(r, &base, "baseval", IN_HEADER, 0);
    if (rc)
        return rc;
    if (base > 1)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "baseval %" PRIu64 " must be 0 or 1", base);
    rc = need_u64(r, &flags, "flags", IN_HEADER, 0);
    if (rc)
        return rc;
    if (flags > 111 || flags % 10 > 1 || flags / 10 % 10 > 1)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "flags %03" PRIu64 " are not three 0/1 digits "
                            "(vertex labels, edge loads, vertex loads)",
                            flags);
    r->n = (int)n;
    r->arcnbr = arcs;
    r->base = (int)base;
    r->labels = flags / 100 == 1;
    r->eloads = flags / 10 % 10 == 1;
    r->vloads = flags % 10 == 1;
    return 0;
}

/* Read the arcs of vertex v, `deg` of them. */
static int read_arcs(scotch_reader *r, int64_t v, uint64_t deg)
{
    tg_text *t = &r->t;
    tg_graph *g = r->g;
    for (uint64_t i = 0; i < deg; i++) {
        uint64_t w = 1, x;
        int rc;
        if (r->eloads) {
            if ((rc = need_u64(r, &w, "edge load", IN_VERTEX, v)))
                return rc;
            if (w == 0)
                return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                    "vertex %lld: edge load 0 (loads must "
                                    "be positive)", vnum(r, v));
            if (w > TG_WEIGHT_MAX)
                return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                                    "vertex %lld: edge load %" PRIu64
                                    " exceeds 2^63 - 1", vnum(r, v), w);
        }
        if ((rc = need_u64(r, &x, "neighbour", IN_VERTEX, v)))
            return rc;
        if (r->labels) {
            r->alabel[r->arcs] = x; /* resolved once all labels are known */
        } else {
            if (x < (uint64_t)r->base || x - r->base >= (uint64_t)r->n)
                return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                    "vertex %lld: neighbour %" PRIu64
                                    " outside %d..%lld", vnum(r, v), x,
                                    r->base, vnum(r, r->n - 1));
            if (x - r->base == (uint64_t)v)
                return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                    "vertex %lld lists itself as a neighbour "
                                    "(self-loops are not allowed)",
                                    vnum(r, v));
            g->adjncy[r->arcs] = (int)(x - r->base);
        }
        g->adjwgt[r->arcs++] = w;
    }
    return 0;
}

/* Read vertex v: [label] [vertex load] degree, then its arcs. */
static int read_vertex(scotch_reader *r, int64_t v)
{
    tg_text *t = &r->t;
    static const char *const what[] = {"vertex label", "vertex load",
                                       "degree"};
    const int present[] = {r->labels, r->vloads, 1};
    uint64_t x[3] = {0, 0, 0};
    int at = BEFORE_VERTEX;
    for (int k = 0; k < 3; k++) {
        if (!present[k])
            continue;
        int rc = need_u64(r, &x[k], what[k], at, v);
        if (rc)
            return rc;
        if (at == BEFORE_VERTEX) /* the vertex's first number names it */
            r->vline[v] = t->line;
        at = IN_VERTEX;
    }
    if (r->labels)
        r->vlabel[v] = x[0];
    uint64_t deg = x[2];
    if (deg > r->arcnbr - (uint64_t)r->arcs)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "vertex %lld: degree %" PRIu64 " takes the arcs "
                            "past the %" PRIu64 " in the header", vnum(r, v),
                            deg, r->arcnbr);
    return read_arcs(r, v, deg);
}

static int out_of_memory(scotch_reader *r)
{
    return tg_error_set(r->err, TG_ENOMEM, r->t.source, 0, "out of memory");
}

static int read_body(scotch_reader *r)
{
    tg_text *t = &r->t;
    /* Every vertex and every arc takes at least one number, and k numbers
     * take at least 2k - 1 characters: a bound from the file's size on
     * what the header may claim, so no huge count allocates much. */
    int64_t bound = (int64_t)(t->len / 2) + 1;
    int64_t nv = r->n < bound ? r->n : bound;
    int64_t na = (int64_t)r->arcnbr < bound ? (int64_t)r->arcnbr : bound;
    tg_graph *g = r->g = calloc(1, sizeof *r->g);
    if (!g)
        return out_of_memory(r);
    g->xadj = calloc((size_t)nv + 1, sizeof *g->xadj);
    g->adjncy = malloc((size_t)(na ? na : 1) * sizeof *g->adjncy);
    g->adjwgt = malloc((size_t)(na ? na : 1) * sizeof *g->adjwgt);
    r->vline = malloc((size_t)(nv ? nv : 1) * sizeof *r->vline);
    if (!g->xadj || !g->adjncy || !g->adjwgt || !r->vline)
        return out_of_memory(r);
    if (r->labels) {
        r->vlabel = malloc((size_t)(nv ? nv : 1) * sizeof *r->vlabel);
        r->alabel = malloc((size_t)(na ? na : 1) * sizeof *r->alabel);
        if (!r->vlabel || !r->alabel)
            return out_of_memory(r);
    }
    for (int64_t v = 0; v < r->n; v++) {
        int rc = read_vertex(r, v);
        if (rc)
            return rc;
        g->xadj[v + 1] = r->arcs;
    }
    g->n = r->n;
    if (r->p && !tg_lex_at_end(r->p))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "unexpected data after the last vertex");
    if (tg_text_next(t, NULL, 1))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "unexpected data after the last vertex");
    return 0;
}

typedef struct label_index {
    uint64_t label;
    int v;
} label_index;

static int cmp_label(const void *a, const void *b)
{
    const label_index *x = a, *y = b;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/* Turn the neighbour labels into vertex indices. */
static int resolve_labels(scotch_reader *r)
{
    tg_graph *g = r->g;
    const char *src = r->t.source;
    label_index *idx = malloc(((size_t)g->n + 1) * sizeof *idx);
    if (!idx)
        return out_of_memory(r);
    for (int v = 0; v < g->n; v++) {
        idx[v].label = r->vlabel[v];
        idx[v].v = v;
    }
    qsort(idx, (size_t)g->n, sizeof *idx, cmp_label);
    int rc = 0;
    for (int i = 1; i < g->n && !rc; i++)
        if (idx[i].label == idx[i - 1].label)
            rc = tg_error_set(r->err, TG_EPARSE, src, r->vline[idx[i].v],
                              "label %" PRIu64 " is used by vertices %lld "
                              "and %lld", idx[i].label, vnum(r, idx[i - 1].v),
                              vnum(r, idx[i].v));
    for (int a = 0; a < g->n && !rc; a++)
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1] && !rc; e++) {
            uint64_t x = r->alabel[e];
            size_t lo = 0, hi = (size_t)g->n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (idx[mid].label < x)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == (size_t)g->n || idx[lo].label != x)
                rc = tg_error_set(r->err, TG_EPARSE, src, r->vline[a],
                                  "vertex %lld (label %" PRIu64 "): "
                                  "neighbour %" PRIu64 " is not the label "
                                  "of any vertex", vnum(r, a), r->vlabel[a],
                                  x);
            else if (idx[lo].v == a)
                rc = tg_error_set(r->err, TG_EPARSE, src, r->vline[a],
                                  "vertex %lld (label %" PRIu64 ") lists "
                                  "itself as a neighbour (self-loops are "
                                  "not allowed)", vnum(r, a), x);
            else
                g->adjncy[e] = idx[lo].v;
        }
    free(idx);
    return rc;
}

int tg_read_scotch(const char *path, tg_graph **out, tg_error *err)
{
    scotch_reader r;
    memset(&r, 0, sizeof r);
    r.err = err;
    int rc = tg_text_load(&r.t, path, err);
    if (rc)
        return rc;
    rc = read_header(&r);
    if (!rc)
        rc = read_body(&r);
    if (!rc && r.labels)
        rc = resolve_labels(&r);
    if (!rc)
        rc = tg_text_check_symmetric(&r.t, r.g, r.vline, r.base, "load", err);
    if (!rc && (uint64_t)r.arcs != r.arcnbr)
        rc = tg_error_set(err, TG_EPARSE, path, r.arcs_line,
                          "header says %" PRIu64 " arcs, body has %" PRId64,
                          r.arcnbr, r.arcs);
    tg_text_free(&r.t);
    free(r.vline);
    free(r.vlabel);
    free(r.alabel);
    if (rc) {
        tg_graph_free(r.g);
        return rc;
    }
    r.g->nedges = r.arcs / 2;
    *out = r.g;
    return 0;
}
