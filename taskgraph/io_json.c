/* io_json.c: the native task-graph file, FILE.tg.json.
 *
 *   {
 *     "format": "topomap-taskgraph",
 *     "version": 1,
 *     "tasks": 4,
 *     "grid": {"dims": [2, 2], "periods": [1, 0]},
 *     "types": [{"name": "p2p", "factor": 1}],
 *     "edges": [
 *       [0, 1, 100],
 *       [1, 2, 100]
 *     ],
 *     "layers": [{"name": "p2p", "edges": [[0, 1, 100], [1, 2, 100]]}]
 *   }
 *
 * Each undirected edge appears once as [a, b, weight] with a < b and
 * 0 < weight <= 2^63 - 1.  "types", "layers" and "grid" are optional.
 * "grid" (tg_grid) says the tasks form a Cartesian grid, each of its
 * "periods" 0 or 1 (periodic); it may carry
 * "tasks": [t0, t1, ...], the task at each grid position, when that is not
 * the identity.
 *
 * Reading parses with jansson.  Writing streams the edges, one per line,
 * rather than building a jansson tree of millions of arrays first: the
 * output is the same JSON, at a fraction of the memory and time; jansson
 * still encodes every string (type names). */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "tg_internal.h"

#define TG_JSON_FORMAT "topomap-taskgraph"
#define TG_JSON_VERSION 1

/* ----------------------------------------------------------------- write */

static int write_edges(FILE *fp, const tg_graph *g, const char *indent)
{
    int first = 1;
    for (int a = 0; a < g->n; a++)
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++)
            if (g->adjncy[e] > a) {
                fprintf(fp, "%s\n%s[%d, %d, %" PRIu64 "]", first ? "" : ",",
                        indent, a, g->adjncy[e], g->adjwgt[e]);
                first = 0;
            }
    return first;
}

static void write_grid(FILE *fp, const tg_graph *g)
{
    const tg_grid *gr = &g->grid;
    fprintf(fp, "  \"grid\": {\"dims\": [");
    for (int i = 0; i < gr->ndims; i++)
        fprintf(fp, "%s%d", i ? ", " : "", gr->dims[i]);
    fprintf(fp, "], \"periods\": [");
    for (int i = 0; i < gr->ndims; i++)
        fprintf(fp, "%s%d", i ? ", " : "", gr->periods[i]);
    fprintf(fp, "]");
    if (gr->task) {
        fprintf(fp, ", \"tasks\": [");
        for (int p = 0; p < g->n; p++)
            fprintf(fp, "%s%d", p ? ", " : "", gr->task[p]);
        fprintf(fp, "]");
    }
    fprintf(fp, "},\n");
}

/* Write s as a JSON string through jansson's encoder. */
static int write_string(FILE *fp, const char *s)
{
    json_t *j = json_string(s);
    if (!j)
        return -1; /* not valid UTF-8 */
    int rc = json_dumpf(j, fp, JSON_ENCODE_ANY);
    json_decref(j);
    return rc;
}

int tg_write_json(const char *path, const tg_graph *g, tg_error *err)
{
    tg_out o;
    int rc = tg_out_open(&o, path, err);
    if (rc)
        return rc;
    FILE *fp = o.fp;
    fprintf(fp, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n"
                "  \"tasks\": %d,\n", TG_JSON_FORMAT, TG_JSON_VERSION, g->n);
    if (g->grid.ndims)
        write_grid(fp, g);
    fprintf(fp, "  \"types\": [");
    for (int i = 0; i < g->ntypes; i++) {
        fprintf(fp, "%s{\"name\": ", i ? ", " : "");
        if (write_string(fp, g->types[i].name)) {
            tg_out_abort(&o);
            return tg_error_set(err, TG_EINVAL, path, 0,
                                "type name is not valid UTF-8");
        }
        fprintf(fp, ", \"factor\": %.17g}", g->types[i].factor);
    }
    fprintf(fp, "],\n  \"edges\": [");
    if (!write_edges(fp, g, "    "))
        fprintf(fp, "\n  ");
    fprintf(fp, "]");
    if (g->nlayers) {
        fprintf(fp, ",\n  \"layers\": [");
        for (int i = 0; i < g->nlayers; i++) {
            fprintf(fp, "%s\n    {\"name\": ", i ? "," : "");
            if (write_string(fp, g->layers[i].name)) {
                tg_out_abort(&o);
                return tg_error_set(err, TG_EINVAL, path, 0,
                                    "layer name is not valid UTF-8");
            }
            fprintf(fp, ", \"edges\": [");
            if (!write_edges(fp, g->layers[i].graph, "      "))
                fprintf(fp, "\n    ");
            fprintf(fp, "]}");
        }
        fprintf(fp, "\n  ]");
    }
    fprintf(fp, "\n}\n");
    return tg_out_commit(&o, err);
}

/* ------------------------------------------------------------------ read */

/* The edge arrays as read: from jansson's tree, or straight from the
 * text where tg_json_edge_spans found the plain form. */
typedef struct edge_src {
    json_t *array;            /* jansson's, when span is NULL */
    const tg_text *t;         /* the file's text: a span's, and lines */
    const tg_edge_span *span;
    tg_json_step at[3];       /* the array's path, for lines */
    int depth;
} edge_src;

static size_t edge_count(const edge_src *src)
{
    return src->span ? src->span->count : json_array_size(src->array);
}

/* Edge i's three values, i counting up from 0 one by one; 0, or -1 when
 * it is not three integers (jansson's tree only: a span is checked). */
static int edge_get(const edge_src *src, size_t i, size_t *pos,
                    int64_t v[3])
{
    if (src->span) {
        if (i == 0)
            *pos = src->span->start;
        return tg_edge_span_next(src->t->buf, src->span, pos, v);
    }
    json_t *e = json_array_get(src->array, i);
    json_t *j[3] = {json_array_get(e, 0), json_array_get(e, 1),
                    json_array_get(e, 2)};
    if (!json_is_array(e) || json_array_size(e) != 3 ||
        !json_is_integer(j[0]) || !json_is_integer(j[1]) ||
        !json_is_integer(j[2]))
        return -1;
    for (int k = 0; k < 3; k++)
        v[k] = json_integer_value(j[k]);
    return 0;
}

/* The line where the value at `at` (depth steps), and then element
 * `index` of it when index >= 0, starts in the file: found only when
 * there is something to report. */
static long line_of(const tg_text *t, const tg_json_step *at, int depth,
                    long index)
{
    tg_json_step path[8];
    memcpy(path, at, (size_t)depth * sizeof *path);
    if (index >= 0)
        path[depth++] = (tg_json_step){NULL, (size_t)index};
    return tg_json_line(t->buf, t->len, path, depth);
}

/* Report a problem with edge i of src at its line: "WHERE[i]: TEXT". */
__attribute__((format(printf, 6, 7))) static int
edge_error(tg_error *err, const char *path, const edge_src *src,
           const char *where, size_t i, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return tg_error_set(err, TG_EPARSE, path,
                        err ? line_of(src->t, src->at, src->depth, (long)i)
                            : 0,
                        "%s[%zu]: %s", where, i, text);
}

/* The builder merged a repeated edge: find the second listing of a pair
 * by marking each edge's arc in row a as it is met. */
static int name_repeated_edge(const char *path, const edge_src *src,
                              const char *where, const tg_graph *g,
                              tg_error *err)
{
    char *seen = calloc((size_t)g->xadj[g->n] + 1, 1);
    if (!seen)
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    int rc = TG_EPARSE;
    size_t pos = 0;
    int64_t v[3];
    for (size_t i = 0; i < edge_count(src) && !edge_get(src, i, &pos, v);
         i++) {
        int a = (int)v[0], b = (int)v[1];
        int64_t arc = g->xadj[a];
        while (g->adjncy[arc] != b)
            arc++;
        if (seen[arc]++) {
            rc = edge_error(err, path, src, where, i,
                            "edge %d-%d is listed twice", a, b);
            break;
        }
    }
    free(seen);
    return rc;
}

/* The edges (at JSON path `where`) of a graph of n tasks. */
static int read_edges(const char *path, const edge_src *src,
                      const char *where, int n, tg_graph **out,
                      tg_error *err)
{
    if (!src->span && !json_is_array(src->array))
        return tg_error_set(err, TG_EPARSE, path,
                            err ? line_of(src->t, src->at, src->depth, -1)
                                : 0,
                            "%s: must be an array of [a, b, weight]", where);
    tg_builder *b = tg_builder_new(n);
    if (!b)
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    size_t count = edge_count(src), pos = 0;
    int rc = 0;
    for (size_t i = 0; i < count && !rc; i++) {
        int64_t v[3];
        if (edge_get(src, i, &pos, v)) {
            rc = edge_error(err, path, src, where, i,
                            "must be [a, b, weight] with three integers");
            break;
        }
        int64_t a = v[0], bb = v[1], w = v[2];
        if (a < 0 || a >= n || bb < 0 || bb >= n)
            rc = edge_error(err, path, src, where, i,
                            "task id outside 0..%d", n - 1);
        else if (a >= bb)
            rc = edge_error(err, path, src, where, i,
                            "[%lld, %lld, ...] must have a < b",
                            (long long)a, (long long)bb);
        else if (w <= 0)
            rc = edge_error(err, path, src, where, i,
                            "weight %lld must be positive", (long long)w);
        else
            rc = tg_builder_add(b, (int)a, (int)bb, (uint64_t)w, err);
    }
    tg_graph *g = NULL;
    if (!rc)
        rc = tg_builder_finish(b, &g, err);
    tg_builder_free(b);
    if (!rc && (size_t)g->nedges != count)
        rc = name_repeated_edge(path, src, where, g, err);
    if (rc) {
        if (err && !err->source[0])
            snprintf(err->source, sizeof err->source, "%s", path);
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}

/* The span of each edge array by layer, found once: span[0] the graph's
 * own "edges", span[1 + i] layers[i]'s; -1 where the array is not in
 * the plain form (jansson's tree holds it).  So that each layer finds
 * its span in O(1), not by a pass over all the spans. */
typedef struct span_index {
    int *span;
    int nlayers;
} span_index;

static int span_index_make(span_index *ix, const tg_edge_spans *sp,
                           size_t nlayers)
{
    ix->nlayers = (int)nlayers;
    ix->span = malloc((nlayers + 1) * sizeof *ix->span);
    if (!ix->span)
        return -1;
    for (size_t i = 0; i <= nlayers; i++)
        ix->span[i] = -1;
    for (int i = sp->n - 1; i >= 0; i--) /* the first span of a layer */
        if (sp->v[i].layer >= -1 && sp->v[i].layer < ix->nlayers)
            ix->span[sp->v[i].layer + 1] = i;
    return 0;
}

/* The source of the edges of `layer` (-1: the graph's): its span when it
 * has one, else jansson's value. */
static edge_src edges_of(const tg_text *t, const tg_edge_spans *sp,
                         const span_index *ix, int layer, json_t *array)
{
    edge_src src = {array, t, NULL, {{NULL, 0}}, 0};
    int k = layer >= -1 && layer < ix->nlayers ? ix->span[layer + 1] : -1;
    if (k >= 0) {
        src.array = NULL;
        src.span = &sp->v[k];
    }
    if (layer < 0) {
        src.at[src.depth++] = (tg_json_step){"edges", 0};
    } else {
        src.at[src.depth++] = (tg_json_step){"layers", 0};
        src.at[src.depth++] = (tg_json_step){NULL, (size_t)layer};
        src.at[src.depth++] = (tg_json_step){"edges", 0};
    }
    return src;
}

static int read_types(const char *path, json_t *types, tg_graph *g,
                      tg_error *err)
{
    if (!types)
        return 0;
    if (!json_is_array(types))
        return tg_error_set(err, TG_EPARSE, path, 0,
                            "types: must be an array");
    for (size_t i = 0; i < json_array_size(types); i++) {
        json_t *t = json_array_get(types, i);
        json_t *name = json_object_get(t, "name");
        json_t *factor = json_object_get(t, "factor");
        if (!json_is_string(name) || !json_is_number(factor) ||
            json_number_value(factor) < 0)
            return tg_error_set(err, TG_EPARSE, path, 0,
                                "types[%zu]: needs a \"name\" string and a "
                                "\"factor\" >= 0", i);
        int rc = tg_graph_add_type(g, json_string_value(name),
                                   json_number_value(factor), err);
        if (rc)
            return rc;
    }
    return 0;
}

static int read_layers(const char *path, json_t *layers,
                       const tg_text *t, const tg_edge_spans *sp,
                       const span_index *ix, tg_graph *g, tg_error *err)
{
    if (!layers)
        return 0;
    if (!json_is_array(layers))
        return tg_error_set(err, TG_EPARSE, path, 0,
                            "layers: must be an array");
    /* The names so far, a hash: a pass over them per layer
     * (tg_graph_add_layer's check) takes quadratic time. */
    json_t *names = json_object();
    if (!names)
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < json_array_size(layers) && !rc; i++) {
        json_t *l = json_array_get(layers, i);
        json_t *name = json_object_get(l, "name");
        if (!json_is_string(name)) {
            rc = tg_error_set(err, TG_EPARSE, path, 0,
                              "layers[%zu]: needs a \"name\" string", i);
            break;
        }
        const char *s = json_string_value(name);
        if (json_object_get(names, s)) {
            tg_json_step at[3] = {{"layers", 0}, {NULL, i}, {"name", 0}};
            rc = tg_error_set(err, TG_EINVAL, path,
                              err ? tg_json_line(t->buf, t->len, at, 3) : 0,
                              "two layers are called '%s'", s);
            break;
        }
        if (json_object_set_new_nocheck(names, s, json_true())) {
            rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
            break;
        }
        char where[64];
        snprintf(where, sizeof where, "layers[%zu].edges", i);
        tg_graph *lg;
        edge_src src = edges_of(t, sp, ix, (int)i,
                                json_object_get(l, "edges"));
        rc = read_edges(path, &src, where, g->n, &lg, err);
        if (!rc)
            rc = tg_graph_add_layer_unique(g, s, lg, err);
        if (rc && err && !err->source[0])
            snprintf(err->source, sizeof err->source, "%s", path);
    }
    json_decref(names);
    return rc;
}

/* An int array of exactly `len` members (len < 0: any length up to
 * `max`) into v; the count, or -1. */
static long int_array(json_t *a, long len, long max, int *v)
{
    if (!json_is_array(a))
        return -1;
    size_t n = json_array_size(a);
    if ((len >= 0 && n != (size_t)len) || (len < 0 && n > (size_t)max))
        return -1;
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < INT32_MIN ||
            json_integer_value(x) > INT32_MAX)
            return -1;
        v[i] = (int)json_integer_value(x);
    }
    return (long)n;
}

static int read_grid(const char *path, const tg_text *t, json_t *grid,
                     tg_graph *g, tg_error *err)
{
    if (!grid)
        return 0;
    int dims[TG_GRID_MAXDIMS], periods[TG_GRID_MAXDIMS];
    json_t *jt = json_object_get(grid, "tasks");
    long nd = json_is_object(grid)
                  ? int_array(json_object_get(grid, "dims"), -1,
                              TG_GRID_MAXDIMS, dims)
                  : -1;
    if (nd < 1)
        return tg_error_set(err, TG_EPARSE, path, 0,
                            "grid: needs \"dims\", an array of 1 to %d "
                            "integers", TG_GRID_MAXDIMS);
    if (int_array(json_object_get(grid, "periods"), nd, 0, periods) < 0)
        return tg_error_set(err, TG_EPARSE, path, 0,
                            "grid: needs \"periods\", %ld integers (0 or 1)",
                            nd);
    for (long i = 0; i < nd; i++)
        if (periods[i] != 0 && periods[i] != 1) {
            tg_json_step at[3] = {{"grid", 0}, {"periods", 0},
                                  {NULL, (size_t)i}};
            return tg_error_set(err, TG_EPARSE, path,
                                err ? tg_json_line(t->buf, t->len, at, 3) : 0,
                                "grid.periods[%ld]: %d must be 0 or 1 (1: "
                                "periodic)", i, periods[i]);
        }
    int *task = NULL;
    if (jt) {
        task = malloc((size_t)(g->n ? g->n : 1) * sizeof *task);
        if (!task)
            return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
        if (int_array(jt, g->n, 0, task) < 0) {
            free(task);
            return tg_error_set(err, TG_EPARSE, path, 0,
                                "grid: \"tasks\" must be %d integers, one "
                                "task per grid position", g->n);
        }
    }
    int rc = tg_graph_set_grid(g, (int)nd, dims, periods, task, err);
    free(task);
    if (rc && err) {
        /* Say where: tg_graph_set_grid's text names no file. */
        char text[sizeof err->text];
        memcpy(text, err->text, sizeof text);
        tg_error_set(err, TG_EPARSE, path, 0, "grid: %.*s",
                     (int)sizeof text - 8, text);
    }
    return rc ? TG_EPARSE : 0;
}

/* The line of the top-level "tasks" member. */
static long tasks_line(const tg_text *t)
{
    tg_json_step at = {"tasks", 0};
    return tg_json_line(t->buf, t->len, &at, 1);
}

/* Tasks with no edge take no byte of the file, and every layer is a graph
 * of all the tasks: bound tasks x (1 + layers) by the file's size. */
static int check_tasks(const char *path, const tg_text *t, json_int_t tasks,
                       json_t *layers, tg_error *err)
{
    size_t nl = json_is_array(layers) ? json_array_size(layers) : 0;
    /* tasks < 2^31 and nl < 2^32 (each layer takes bytes): no overflow. */
    if ((uint64_t)tasks * (nl + 1) <= (uint64_t)TG_UNLISTED_MAX + t->len)
        return 0; /* (the line is looked for only to report) */
    if (nl == 0)
        return tg_declared_check(path, tasks_line(t), "\"tasks\":",
                                 (uint64_t)tasks, t->len, err);
    char what[128];
    snprintf(what, sizeof what, "\"tasks\": %lld in the graph and each of "
             "its %zu layers,", (long long)tasks, nl);
    return tg_declared_check(path, tasks_line(t), what,
                             (uint64_t)tasks * (nl + 1), t->len, err);
}

/* jansson reads the text through this with the inside of every span
 * left out but for its newlines, so that its line numbers stay true and it
 * sees an empty array where a span is. */
typedef struct blanked {
    const tg_text *t;
    const tg_edge_spans *sp;
    size_t pos;
    int k; /* the first span not wholly before pos (spans are in order) */
} blanked;

static size_t read_blanked(void *buf, size_t size, void *arg)
{
    blanked *b = arg;
    const char *text = b->t->buf;
    char *out = buf;
    size_t n = 0;
    while (n < size && b->pos < b->t->len) {
        while (b->k < b->sp->n && b->sp->v[b->k].end <= b->pos)
            b->k++;
        const tg_edge_span *s = b->k < b->sp->n ? &b->sp->v[b->k] : NULL;
        if (s && b->pos > s->start && b->pos + 1 < s->end) {
            /* Inside: on to its next newline, or to its closing ']'. */
            const char *nl = memchr(text + b->pos, '\n', s->end - 1 - b->pos);
            if (nl) {
                out[n++] = '\n';
                b->pos = (size_t)(nl - text) + 1;
            } else
                b->pos = s->end - 1;
            continue;
        }
        /* Outside: copy up to the next span's inside, or at a span's
         * closing ']' that ']' (the next span comes after it). */
        size_t stop = !s ? b->t->len
                      : s->start >= b->pos ? s->start + 1
                                           : s->end;
        size_t len = stop - b->pos < size - n ? stop - b->pos : size - n;
        memcpy(out + n, text + b->pos, len);
        n += len;
        b->pos += len;
    }
    return n;
}

int tg_read_json(const char *path, tg_graph **out, tg_error *err)
{
    /* Through tg_text, so an empty or unreadable file gets the same
     * message as in every other format. */
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    if (rc)
        return rc;
    tg_edge_spans sp;
    if (tg_json_edge_spans(t.buf, t.len, &sp)) {
        tg_text_free(&t);
        return tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    }
    json_error_t jerr;
    blanked bl = {&t, &sp, 0, 0};
    json_t *root = json_load_callback(read_blanked, &bl,
                                      JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        tg_edge_spans_free(&sp);
        tg_text_free(&t);
        return tg_error_set(err, TG_EPARSE, path, jerr.line > 0 ? jerr.line : 0,
                            "%s", jerr.text);
    }
    tg_graph *g = NULL;
    span_index ix = {NULL, 0};
    json_t *format = json_object_get(root, "format");
    json_t *version = json_object_get(root, "version");
    json_t *tasks = json_object_get(root, "tasks");
    if (!json_is_object(root))
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "not a task graph: the top level is not an object");
    else if (!json_is_string(format) ||
             strcmp(json_string_value(format), TG_JSON_FORMAT) != 0)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "not a task graph: \"format\" must be \"%s\"",
                          TG_JSON_FORMAT);
    else if (!json_is_integer(version) ||
             json_integer_value(version) != TG_JSON_VERSION)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "unsupported task-graph version (this topomap reads "
                          "version %d)", TG_JSON_VERSION);
    else if (!json_is_integer(tasks) || json_integer_value(tasks) < 0 ||
             json_integer_value(tasks) > TG_TASKS_MAX)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "\"tasks\" must be an integer in 0..%d",
                          TG_TASKS_MAX);
    else if (check_tasks(path, &t, json_integer_value(tasks),
                         json_object_get(root, "layers"), err))
        rc = TG_EPARSE;
    else {
        json_t *layers = json_object_get(root, "layers");
        if (span_index_make(&ix, &sp, json_is_array(layers)
                                          ? json_array_size(layers)
                                          : 0))
            rc = tg_error_set(err, TG_ENOMEM, path, 0, "out of memory");
    }
    if (!rc) {
        edge_src src = edges_of(&t, &sp, &ix, -1,
                                json_object_get(root, "edges"));
        rc = read_edges(path, &src, "edges", (int)json_integer_value(tasks),
                        &g, err);
    }
    if (!rc)
        rc = read_types(path, json_object_get(root, "types"), g, err);
    if (!rc)
        rc = read_layers(path, json_object_get(root, "layers"), &t, &sp, &ix,
                         g, err);
    if (!rc)
        rc = read_grid(path, &t, json_object_get(root, "grid"), g, err);
    free(ix.span);
    json_decref(root);
    tg_edge_spans_free(&sp);
    tg_text_free(&t);
    if (rc) {
        tg_graph_free(g);
        return rc;
    }
    *out = g;
    return 0;
}
