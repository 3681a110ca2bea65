/* io_metis.c: METIS graph files (METIS 5 manual, section 4.1.1).
 *
 *   % comment lines start with '%'
 *   n m [fmt [ncon]]
 *   [size] [w_1 .. w_ncon] v_1 [ew_1] v_2 [ew_2] ...    (one line per vertex)
 *
 * n vertices and m undirected edges.  fmt has up to three 0/1 digits:
 * vertex sizes, vertex weights (ncon per vertex, default 1), edge weights.
 * Neighbour ids are 1-based and every edge is listed by both its ends with
 * the same weight; without edge weights every edge weighs 1.  A blank line
 * is a vertex with no neighbours, so blank lines inside the body are never
 * skipped.  Vertex sizes and weights are checked and ignored: a task graph
 * has only edge weights.
 *
 * The reader fills the CSR arrays in file order, sorts each row and then
 * checks that every arc has its reverse with the same weight.  It does not
 * go through the builder, which would silently merge a neighbour listed
 * twice or an edge listed by one end only. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

/* ---------------------------------------------------------------- write */

int tg_write_metis(const char *path, const tg_graph *g, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    FILE *fp = o.fp;
    /* fmt 001: edge weights only, the weight after each neighbour. */
    fprintf(fp, "%% written by topomap\n%d %" PRId64 " 001\n", g->n,
            g->nedges);
    for (int a = 0; a < g->n; a++) {
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++) {
            tg_put_u64(fp, e > g->xadj[a] ? ' ' : '\0',
                    (uint64_t)g->adjncy[e] + 1);
            tg_put_u64(fp, ' ', g->adjwgt[e]);
        }
        putc('\n', fp);
    }
    return tg_out_commit(&o, err);
}

/* ----------------------------------------------------------------- read */

typedef struct metis_reader {
    tg_text t;
    tg_error *err;
    int n;              /* vertices, from the header */
    int64_t m;          /* undirected edges, from the header */
    long header_line;
    int sizes;          /* fmt: vertex sizes present */
    uint64_t ncon;      /* vertex weights per vertex (0 when absent) */
    int weights;        /* fmt: edge weights present */
    tg_graph *g;        /* CSR filled in file order */
    int64_t arcs, cap;  /* arcs read, room in g->adjncy and g->adjwgt */
    long *vline;        /* line of each vertex, for messages */
} metis_reader;

/* Put "vertex V: " before the lexer's message. */
static int about_vertex(tg_error *err, int code, long v)
{
    if (err) {
        char text[sizeof err->text];
        snprintf(text, sizeof text, "vertex %ld: %.480s", v, err->text);
        snprintf(err->text, sizeof err->text, "%s", text);
    }
    return code;
}

static int read_header(metis_reader *r)
{
    tg_text *t = &r->t;
    char *p = tg_text_next(t, "%", 1);
    if (!p)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "no header line, only comments");
    r->header_line = t->line;
    static const char *const what[] = {"vertex count", "edge count", "fmt",
                                       "ncon"};
    uint64_t v[4] = {0, 0, 0, 0};
    int k;
    for (k = 0; k < 4; k++) {
        int got = tg_lex_u64(t, &p, &v[k], what[k], r->err);
        if (got < 0)
            return got;
        if (got == 0)
            break;
    }
    if (k < 2 || !tg_lex_at_end(p))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "the header must be 'vertices edges [fmt "
                            "[ncon]]'");
    if (v[0] > TG_TASKS_MAX)
        return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                            "%" PRIu64 " vertices: at most %d are supported",
                            v[0], TG_TASKS_MAX);
    if (v[1] > (uint64_t)INT64_MAX / 2)
        return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                            "edge count %" PRIu64 " is too large", v[1]);
    uint64_t fmt = v[2];
    if (fmt > 111 || fmt % 10 > 1 || fmt / 10 % 10 > 1)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "fmt %03" PRIu64 " is not up to three 0/1 digits "
                            "(vertex sizes, vertex weights, edge weights)",
                            fmt);
    r->n = (int)v[0];
    r->m = (int64_t)v[1];
    r->sizes = fmt / 100 == 1;
    r->weights = fmt % 10 == 1;
    int vweights = fmt / 10 % 10 == 1;
    if (k == 4 && v[3] > 0 && !vweights)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "ncon is %" PRIu64 " but fmt %03" PRIu64 " has no "
                            "vertex weights", v[3], fmt);
    r->ncon = vweights ? (k == 4 && v[3] > 0 ? v[3] : 1) : 0;
    return 0;
}

static int push_arc(metis_reader *r, int b, uint64_t w)
{
    tg_graph *g = r->g;
    if (r->arcs == r->cap) {
        /* Only a body with more arcs than its header announces gets
         * here. */
        int64_t cap = 2 * r->cap + 16;
        int *adj = realloc(g->adjncy, (size_t)cap * sizeof *adj);
        if (adj)
            g->adjncy = adj;
        uint64_t *wgt = adj ? realloc(g->adjwgt, (size_t)cap * sizeof *wgt)
                            : NULL;
        if (!wgt)
            return tg_error_set(r->err, TG_ENOMEM, r->t.source, r->t.line,
                                "out of memory");
        g->adjwgt = wgt;
        r->cap = cap;
    }
    g->adjncy[r->arcs] = b;
    g->adjwgt[r->arcs++] = w;
    return 0;
}

/* Parse the line of vertex id (1-based) and append its arcs. */
static int read_vertex(metis_reader *r, char *p, long id)
{
    tg_text *t = &r->t;
    uint64_t x;
    int got;
    if (r->sizes) {
        got = tg_lex_u64(t, &p, &x, "vertex size", r->err);
        if (got < 0)
            return about_vertex(r->err, got, id);
        if (got == 0)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "vertex %ld: missing vertex size (fmt "
                                "1xx)", id);
    }
    for (uint64_t c = 0; c < r->ncon; c++) {
        got = tg_lex_u64(t, &p, &x, "vertex weight", r->err);
        if (got < 0)
            return about_vertex(r->err, got, id);
        if (got == 0)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "vertex %ld: %" PRIu64 " vertex weights "
                                "expected, found %" PRIu64, id, r->ncon, c);
    }
    for (;;) {
        got = tg_lex_u64(t, &p, &x, "neighbour", r->err);
        if (got < 0)
            return about_vertex(r->err, got, id);
        if (got == 0)
            return 0;
        if (x < 1 || x > (uint64_t)r->n)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "vertex %ld: neighbour %" PRIu64
                                " outside 1..%d", id, x, r->n);
        if (x == (uint64_t)id)
            return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                "vertex %ld lists itself as a neighbour "
                                "(self-loops are not allowed)", id);
        uint64_t w = 1;
        if (r->weights) {
            got = tg_lex_u64(t, &p, &w, "edge weight", r->err);
            if (got < 0)
                return about_vertex(r->err, got, id);
            if (got == 0)
                return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                    "vertex %ld: neighbour %" PRIu64
                                    " has no edge weight (fmt xx1)", id, x);
            if (w == 0)
                return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                                    "vertex %ld: edge weight 0 for neighbour "
                                    "%" PRIu64 " (weights must be positive)",
                                    id, x);
            if (w > TG_WEIGHT_MAX)
                return tg_error_set(r->err, TG_EOVERFLOW, t->source, t->line,
                                    "vertex %ld: edge weight %" PRIu64
                                    " for neighbour %" PRIu64
                                    " exceeds 2^63 - 1", id, w, x);
        }
        int rc = push_arc(r, (int)(x - 1), w);
        if (rc)
            return rc;
    }
}

/* Lines left in the buffer: a bound on the vertex lines still to come, so
 * a header announcing billions of vertices in a small file allocates
 * nothing big. */
static int64_t lines_left(const tg_text *t)
{
    int64_t n = 1;
    const char *p = t->buf + t->pos, *end = t->buf + t->len;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
        n++;
        p++;
    }
    return n;
}

static int read_body(metis_reader *r)
{
    tg_text *t = &r->t;
    int64_t room = lines_left(t);
    if (room > r->n)
        room = r->n;
    /* Each arc takes at least two characters: another bound from the
     * file's size on what the header may claim. */
    int64_t cap = 2 * r->m;
    if (cap > (int64_t)(t->len / 2) + 1)
        cap = (int64_t)(t->len / 2) + 1;
    r->g = calloc(1, sizeof *r->g);
    if (r->g) {
        r->g->xadj = calloc((size_t)room + 1, sizeof *r->g->xadj);
        r->g->adjncy = malloc((size_t)(cap ? cap : 1) * sizeof(int));
        r->g->adjwgt = malloc((size_t)(cap ? cap : 1) * sizeof(uint64_t));
    }
    r->vline = malloc((size_t)(room ? room : 1) * sizeof *r->vline);
    if (!r->g || !r->g->xadj || !r->g->adjncy || !r->g->adjwgt || !r->vline)
        return tg_error_set(r->err, TG_ENOMEM, t->source, 0, "out of memory");
    r->cap = cap;

    int64_t v = 0;
    char *line;
    while (v < r->n && (line = tg_text_next(t, "%", 0))) {
        r->vline[v] = t->line;
        int rc = read_vertex(r, line, (long)v + 1);
        if (rc)
            return rc;
        r->g->xadj[++v] = r->arcs;
    }
    if (v < r->n)
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "truncated file: expected %d vertex lines, file "
                            "ends after %" PRId64, r->n, v);
    if (tg_text_next(t, "%", 1))
        return tg_error_set(r->err, TG_EPARSE, t->source, t->line,
                            "more vertex lines than the %d in the header",
                            r->n);
    r->g->n = r->n;
    return 0;
}

int tg_read_metis(const char *path, tg_graph **out, tg_error *err)
{
    metis_reader r;
    memset(&r, 0, sizeof r);
    r.err = err;
    int rc = tg_text_load(&r.t, path, err);
    if (rc)
        return rc;
    rc = read_header(&r);
    if (!rc)
        rc = read_body(&r);
    if (!rc)
        rc = tg_text_check_symmetric(&r.t, r.g, r.vline, 1, "weight", err);
    if (!rc && r.arcs != 2 * r.m)
        rc = tg_error_set(err, TG_EPARSE, path, r.header_line,
                          "header says %" PRId64 " edges, body has %" PRId64,
                          r.m, r.arcs / 2);
    tg_text_free(&r.t);
    free(r.vline);
    if (rc) {
        tg_graph_free(r.g);
        return rc;
    }
    r.g->nedges = r.m;
    *out = r.g;
    return 0;
}
