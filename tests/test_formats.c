/* test_formats.c: the METIS, Scotch and Matrix Market readers and writers
 * (and JSON through tg_read / tg_write): round trips, hand-written files
 * with known content, independent tools (METIS graphchk, Scotch gtst and
 * gcv), bad input with exact lines, and writers that leave nothing
 * behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tg_internal.h"

/* ---------------------------------------------------------------- helpers */

#define W62 ((uint64_t)1 << 62)

/* A graph from {a, b} pairs with 64-bit weights (tu_graph takes ints). */
static tg_graph *graph64(int n, int m, const int pairs[][2],
                         const uint64_t *w)
{
    tg_builder *b = tg_builder_new(n);
    tg_error err;
    for (int i = 0; i < m; i++)
        ck_assert_int_eq(tg_builder_add(b, pairs[i][0], pairs[i][1], w[i],
                                        &err), 0);
    tg_graph *g = NULL;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    return g;
}

/* 5 tasks, task 3 isolated, a weight just above 2^62 and one of
 * 2^63 - 1:  0-1 7, 0-2 2^62+12345, 1-2 1, 2-4 2^63-1. */
static tg_graph *sample_graph(void)
{
    static const int pairs[][2] = {{0, 1}, {2, 0}, {1, 2}, {4, 2}};
    const uint64_t w[] = {7, W62 + 12345, 1, TG_WEIGHT_MAX};
    return graph64(5, 4, pairs, w);
}

/* A ring (so every task has an edge) plus `chords` random edges, weights
 * in 1..maxw; duplicates merge in the builder. */
static tg_graph *random_graph(int n, int chords, uint64_t maxw,
                              uint64_t seed)
{
    tg_rng r;
    tg_rng_seed(&r, seed);
    tg_builder *b = tg_builder_new(n);
    tg_error err;
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(tg_builder_add(b, i, (i + 1) % n,
                                        1 + tg_rng_next(&r) % maxw, &err), 0);
    for (int k = 0; k < chords; k++) {
        int a = (int)(tg_rng_next(&r) % (uint64_t)n);
        int c = (int)(tg_rng_next(&r) % (uint64_t)n);
        ck_assert_int_eq(tg_builder_add(b, a, c, 1 + tg_rng_next(&r) % maxw,
                                        &err), 0);
    }
    tg_graph *g = NULL;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    ck_assert_int_eq(tg_graph_check(g, &err), 0);
    return g;
}

/* The whole file as a string (caller frees). */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * cap + 4096 + 1;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        got = fread(buf + len, 1, cap - len - 1, fp);
        len += got;
    } while (got > 0);
    fclose(fp);
    buf[len] = '\0';
    return buf;
}

static void assert_file_text(const char *path, const char *expected)
{
    char *text = slurp(path);
    ck_assert_str_eq(text, expected);
    free(text);
}

/* tu_assert_same_graph, with one assertion for a whole big graph: check
 * records every passing assertion, which costs seconds on 400000 arcs. */
static void assert_same(const tg_graph *a, const tg_graph *b)
{
    int64_t arcs = a->xadj[a->n];
    if (arcs <= 20000) {
        tu_assert_same_graph(a, b);
        return;
    }
    ck_assert_int_eq(a->n, b->n);
    ck_assert_int_eq(a->nedges, b->nedges);
    ck_assert(memcmp(a->xadj, b->xadj, ((size_t)a->n + 1) * sizeof *a->xadj)
              == 0);
    ck_assert(memcmp(a->adjncy, b->adjncy, (size_t)arcs * sizeof *a->adjncy)
              == 0);
    ck_assert(memcmp(a->adjwgt, b->adjwgt, (size_t)arcs * sizeof *a->adjwgt)
              == 0);
}

/* Write g as `name` (format from the extension), read it back, compare. */
static tg_graph *through(const tg_graph *g, const char *name)
{
    tg_error err;
    const char *path = tu_path(name);
    ck_assert_msg(tg_write(path, TG_FORMAT_UNKNOWN, g, &err) == 0,
                  "write %s: %s", name, err.text);
    tg_graph *back = NULL;
    ck_assert_msg(tg_read(path, NULL, &back, &err) == 0, "read %s: %s",
                  name, err.text);
    assert_same(g, back);
    return back;
}

static tg_graph *read_ok(const char *name, const char *text)
{
    const char *path = tu_write(name, text);
    tg_graph *g = NULL;
    tg_error err;
    int rc = tg_read(path, NULL, &g, &err);
    ck_assert_msg(rc == 0, "%s: %s (line %ld)", name, err.text, err.line);
    ck_assert_int_eq(tg_graph_check(g, &err), 0);
    return g;
}

static tg_graph *read_mtx_ok(const char *name, const char *text,
                             tg_mtx_weights w)
{
    const char *path = tu_write(name, text);
    tg_graph *g = NULL;
    tg_error err;
    int rc = tg_read_mtx(path, w, &g, &err);
    ck_assert_msg(rc == 0, "%s: %s (line %ld)", name, err.text, err.line);
    ck_assert_int_eq(tg_graph_check(g, &err), 0);
    return g;
}

static void assert_csr(const tg_graph *g, int n, const int64_t *xadj,
                       const int *adj, const uint64_t *w)
{
    ck_assert_int_eq(g->n, n);
    ck_assert_int_eq(g->nedges, xadj[n] / 2);
    for (int i = 0; i <= n; i++)
        ck_assert_int_eq(g->xadj[i], xadj[i]);
    for (int64_t e = 0; e < xadj[n]; e++) {
        ck_assert_int_eq(g->adjncy[e], adj[e]);
        ck_assert_uint_eq(g->adjwgt[e], w[e]);
    }
}

/* -------------------------------------------------------------- writers */

START_TEST(metis_exact_text_and_round_trip)
{
    tg_graph *g = sample_graph();
    tg_error err;
    const char *path = tu_path("sample.graph");
    ck_assert_int_eq(tg_write_metis(path, g, &err), 0);
    assert_file_text(path, "% written by topomap\n"
                           "5 4 001\n"
                           "2 7 3 4611686018427400249\n"
                           "1 7 3 1\n"
                           "1 4611686018427400249 2 1 5 9223372036854775807\n"
                           "\n"
                           "3 9223372036854775807\n");
    tg_graph *back = NULL;
    ck_assert_int_eq(tg_read_metis(path, &back, &err), 0);
    tu_assert_same_graph(g, back);
    ck_assert_uint_eq(tg_graph_weight(back, 2, 0), W62 + 12345);
    ck_assert_uint_eq(tg_graph_weight(back, 4, 2), TG_WEIGHT_MAX);
    ck_assert_int_eq(back->xadj[4], back->xadj[3]); /* task 3 isolated */
    tg_graph_free(back);
    tg_graph_free(g);
}
END_TEST

START_TEST(scotch_exact_text_and_round_trip)
{
    tg_graph *g = sample_graph();
    tg_error err;
    const char *path = tu_path("sample.grf");
    ck_assert_int_eq(tg_write_scotch(path, g, &err), 0);
    assert_file_text(path, "0\n"
                           "5 8\n"
                           "0 010\n"
                           "2 7 1 4611686018427400249 2\n"
                           "2 7 0 1 2\n"
                           "3 4611686018427400249 0 1 1 "
                           "9223372036854775807 4\n"
                           "0\n"
                           "1 9223372036854775807 2\n");
    tg_graph *back = NULL;
    ck_assert_int_eq(tg_read_scotch(path, &back, &err), 0);
    tu_assert_same_graph(g, back);
    tg_graph_free(back);
    tg_graph_free(g);
}
END_TEST

START_TEST(round_trips_all_formats)
{
    /* The sample, a graph without edges, a graph without tasks, and a
     * random graph with weights up to 2^62, through every format. */
    tg_graph *graphs[4];
    graphs[0] = sample_graph();
    graphs[1] = tu_graph(3, 0, NULL);
    graphs[2] = tu_graph(0, 0, NULL);
    graphs[3] = random_graph(500, 3000, W62, 11);
    static const char *const ext[] = {"graph", "grf", "tg.json"};
    for (int i = 0; i < 4; i++) {
        for (int f = 0; f < 3; f++) {
            char name[64];
            snprintf(name, sizeof name, "rt%d.%s", i, ext[f]);
            tg_graph_free(through(graphs[i], name));
        }
        tg_graph_free(graphs[i]);
    }
    /* The edgeless files are as small as they can be. */
    assert_file_text(tu_path("rt1.graph"),
                     "% written by topomap\n3 0 001\n\n\n\n");
    assert_file_text(tu_path("rt1.grf"), "0\n3 0\n0 010\n0\n0\n0\n");
    assert_file_text(tu_path("rt2.graph"), "% written by topomap\n0 0 001\n");
}
END_TEST

START_TEST(chain_metis_scotch_json_metis)
{
    tg_graph *g = random_graph(300, 1200, TG_WEIGHT_MAX / 4, 5);
    tg_graph *a = through(g, "chain_a.graph");
    tg_graph *b = through(a, "chain_b.grf");
    tg_graph *c = through(b, "chain_c.tg.json");
    tg_graph *d = through(c, "chain_d.graph");
    tu_assert_same_graph(g, d);
    /* Same graph, same bytes. */
    char *t1 = slurp(tu_path("chain_a.graph"));
    char *t2 = slurp(tu_path("chain_d.graph"));
    ck_assert_str_eq(t1, t2);
    free(t1);
    free(t2);
    tg_graph_free(a);
    tg_graph_free(b);
    tg_graph_free(c);
    tg_graph_free(d);
    tg_graph_free(g);
}
END_TEST

START_TEST(grid_round_trip_and_checks)
{
    /* A 3x2 grid with dimension 0 periodic, positions permuted: written
     * exactly, read back the same, kept by copy and by a Sum of the grid
     * with itself, dropped by a Sum with a graph of no grid. */
    static const int edges[][3] = {{0, 1, 5}, {2, 3, 7}, {4, 5, 9}};
    tg_graph *g = tu_graph(6, 3, edges);
    tg_error err;
    int dims[] = {3, 2}, periods[] = {1, 0}, task[] = {5, 4, 3, 2, 1, 0};
    ck_assert_int_eq(tg_graph_set_grid(g, 2, dims, periods, task, &err), 0);
    tg_graph *r = through(g, "grid.tg.json");
    char *text = slurp(tu_path("grid.tg.json"));
    ck_assert_ptr_nonnull(strstr(text, "\n  \"grid\": {\"dims\": [3, 2], "
                                       "\"periods\": [1, 0], \"tasks\": "
                                       "[5, 4, 3, 2, 1, 0]},\n"));
    free(text);
    ck_assert_int_eq(r->grid.ndims, 2);
    ck_assert_int_eq(r->grid.dims[0], 3);
    ck_assert_int_eq(r->grid.dims[1], 2);
    ck_assert_int_eq(r->grid.periods[0], 1);
    ck_assert_int_eq(r->grid.periods[1], 0);
    ck_assert_ptr_nonnull(r->grid.task);
    for (int p = 0; p < 6; p++)
        ck_assert_int_eq(r->grid.task[p], 5 - p);
    const tg_graph *two[] = {g, r};
    tg_graph *sum = NULL;
    ck_assert_int_eq(tg_sum(two, 2, &sum, &err), 0);
    ck_assert_int_eq(sum->grid.ndims, 2);
    ck_assert_int_eq(sum->grid.task[0], 5);
    tg_graph_free(sum);
    tg_graph *plain = tu_graph(6, 3, edges);
    const tg_graph *mixed[] = {g, plain};
    ck_assert_int_eq(tg_sum(mixed, 2, &sum, &err), 0);
    ck_assert_int_eq(sum->grid.ndims, 0);
    tg_graph_free(sum);

    /* Refused: dims that do not multiply to the tasks, a dim of 0, a
     * repeated task; the grid is left as it was. */
    int bad_dims[] = {4, 2}, zero[] = {6, 0}, twice[] = {0, 1, 2, 3, 4, 4};
    ck_assert_int_eq(tg_graph_set_grid(plain, 2, bad_dims, periods, NULL,
                                       &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "the grid has 8 points, the graph 6 tasks");
    int many[] = {3, 3, 5};
    ck_assert_int_eq(tg_graph_set_grid(plain, 3, many, NULL, NULL, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "the grid has more than 9 points, the graph "
                               "6 tasks");
    ck_assert_int_eq(tg_graph_set_grid(plain, 2, zero, periods, NULL, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "grid dimension 2 is 0: dimensions are >= 1");
    ck_assert_int_eq(tg_graph_set_grid(plain, 2, dims, periods, twice, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "grid position 5 holds task 4, which is "
                               "already at another position");
    ck_assert_int_eq(plain->grid.ndims, 0);

    /* A file whose grid does not fit its tasks names the file. */
    const char *path = tu_write("badgrid.tg.json",
        "{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 6,"
        " \"grid\": {\"dims\": [5], \"periods\": [0]}, \"edges\": []}");
    tg_graph *bad = NULL;
    ck_assert_int_eq(tg_read_json(path, &bad, &err), TG_EPARSE);
    ck_assert_ptr_null(bad);
    ck_assert_str_eq(err.source, path);
    ck_assert_str_eq(err.text, "grid: the grid has 5 points, the graph 6 "
                               "tasks");
    tg_graph_free(plain);
    tg_graph_free(r);
    tg_graph_free(g);
}
END_TEST

/* Edge arrays in the plain form are read straight from the text, others
 * by jansson.  A key written with an escape ("\\u0065dges") is the same
 * key to jansson but not to the text scanner, so each case below read both
 * ways must give the same graph or the same error. */
static const char *const edge_cases[] = {
    "[[0, 1, 5], [1, 2, 7], [0, 3, 1]]",
    "[\n  [0,1,5] ,\n\t[2 , 3 ,9]\n]",
    "[]",
    "[[0, 1, 5], [1, 0, 7]]",           /* repeated, other way round */
    "[[0, 1, 5], [2, 3, 1], [0, 1, 2]]", /* repeated */
    "[[0, 4, 5]]",                       /* task id out of range */
    "[[-1, 2, 5]]",
    "[[2, 1, 5]]",                       /* a > b */
    "[[1, 1, 5]]",
    "[[0, 1, 0]]",                       /* zero weight */
    "[[0, 1, -3]]",
    "[[0, 1, -0]]",
    "[[0, 1]]",                          /* two values */
    "[[0, 1, 2, 3]]",
    "[[0, 1, 1.5]]",                     /* a real */
    "[[0, 1, 1e3]]",
    "[[0, 1, \"5\"]]",
    "[[0, [1], 5]]",
    "[0, 1, 5]",
    "{\"a\": 1}",
    "\"edges\"",
    "[[0, 1, 9223372036854775807]]",
    "[[0, 1, 9223372036854775808]]",     /* too big for jansson */
    "[[0, 01, 5]]",                      /* not JSON */
    "[[0, 1, 5],]",
    "[[0, 1, 5]",
};

static int read_text(const char *name, const char *text, tg_graph **g,
                     tg_error *err)
{
    memset(err, 0, sizeof *err);
    *g = NULL;
    return tg_read_json(tu_write(name, text), g, err);
}

START_TEST(plain_edges_read_like_jansson)
{
    char a[512], b[512];
    for (size_t i = 0; i < sizeof edge_cases / sizeof edge_cases[0]; i++)
        for (int layer = 0; layer < 2; layer++) {
            /* The graph's own edges, or a layer's (the graph's plain). */
            const char *fmt =
                layer ? "{\"format\": \"topomap-taskgraph\", \"version\": 1, "
                        "\"tasks\": 4, \"edges\": [[0, 1, 1]], \"layers\": "
                        "[{\"name\": \"x\", \"edges\": [[0, 1, 1]]}, "
                        "{\"name\": \"y\", \"%s\": %s}]}"
                      : "{\"format\": \"topomap-taskgraph\", \"version\": 1, "
                        "\"tasks\": 4, \"%s\": %s}";
            snprintf(a, sizeof a, fmt, "edges", edge_cases[i]);
            snprintf(b, sizeof b, fmt, "\\u0065dges", edge_cases[i]);
            tg_graph *ga, *gb;
            tg_error ea, eb;
            int ra = read_text("plain.tg.json", a, &ga, &ea);
            int rb = read_text("plain.tg.json", b, &gb, &eb);
            ck_assert_msg(ra == rb, "case %zu layer %d: %d vs %d (%s | %s)",
                          i, layer, ra, rb, ea.text, eb.text);
            if (ra) {
                ck_assert_str_eq(ea.text, eb.text);
                ck_assert_int_eq(ea.line, eb.line);
                continue;
            }
            tu_assert_same_graph(ga, gb);
            ck_assert_int_eq(ga->nlayers, gb->nlayers);
            for (int l = 0; l < ga->nlayers; l++)
                tu_assert_same_graph(ga->layers[l].graph,
                                     gb->layers[l].graph);
            tg_graph_free(ga);
            tg_graph_free(gb);
        }
    tg_graph *g;
    tg_error e;
    /* A graph with two layers as the writer lays it out, one edge a line,
     * larger than jansson's read buffer: the same both ways. */
    tg_graph *big = random_graph(400, 1500, 1000, 3);
    ck_assert_int_eq(tg_graph_add_layer(big, "p2p", random_graph(400, 900,
                                        1000, 4), &e), 0);
    ck_assert_int_eq(tg_graph_add_layer(big, "rma", random_graph(400, 700,
                                        1000, 5), &e), 0);
    const char *path = tu_path("layers.tg.json");
    ck_assert_int_eq(tg_write_json(path, big, &e), 0);
    char *text = slurp(path), *esc = malloc(2 * strlen(text) + 1), *o = esc;
    for (const char *p = text; *p;)
        if (!strncmp(p, "\"edges\"", 7)) {
            o += sprintf(o, "\"\\u0065dges\"");
            p += 7;
        } else
            *o++ = *p++;
    *o = '\0';
    tg_graph *ga, *gb;
    tg_error ea, eb;
    ck_assert_int_eq(read_text("layers.tg.json", text, &ga, &ea), 0);
    ck_assert_int_eq(read_text("layers-esc.tg.json", esc, &gb, &eb), 0);
    tu_assert_same_graph(ga, big);
    tu_assert_same_graph(gb, big);
    ck_assert_int_eq(ga->nlayers, 2);
    for (int l = 0; l < 2; l++) {
        tu_assert_same_graph(ga->layers[l].graph, big->layers[l].graph);
        tu_assert_same_graph(gb->layers[l].graph, big->layers[l].graph);
    }
    tg_graph_free(ga);
    tg_graph_free(gb);
    tg_graph_free(big);
    free(text);
    free(esc);

    /* Syntax errors after a plain array keep their line. */
    ck_assert_int_eq(read_text("late.tg.json",
                               "{\"format\": \"topomap-taskgraph\",\n"
                               "\"version\": 1, \"tasks\": 4,\n"
                               "\"edges\": [\n[0, 1, 5],\n[1, 2, 5]\n],\n"
                               "\"types\": [x]}\n", &g, &e),
                     TG_EPARSE);
    ck_assert_int_eq(e.line, 7);
}
END_TEST

START_TEST(large_graph_round_trip)
{
    /* 20000 tasks and about 200000 edges: the readers' growth and bounds
     * on a graph too big to hand-check, compared edge by edge. */
    tg_graph *g = random_graph(20000, 200000, 1000000, 99);
    ck_assert_int_gt(g->nedges, 210000);
    tg_graph_free(through(g, "large.graph"));
    tg_graph_free(through(g, "large.grf"));
    tg_graph_free(through(g, "large.tg.json"));
    tg_graph_free(g);
}
END_TEST

START_TEST(failed_writes_leave_nothing)
{
    tg_graph *g = sample_graph();
    tg_error err;
    int before = tu_count_files();
    static const char *const names[] = {"missing/g.graph", "missing/g.grf",
                                        "missing/g.tg.json"};
    for (int i = 0; i < 3; i++) {
        const char *path = tu_path(names[i]);
        memset(&err, 0, sizeof err);
        ck_assert_int_eq(tg_write(path, TG_FORMAT_UNKNOWN, g, &err), TG_EIO);
        ck_assert_str_eq(err.source, path);
        ck_assert_ptr_nonnull(strstr(err.text, "cannot create"));
        ck_assert_int_eq(tu_count_files(), before);
    }
    /* The per-format writers directly, too. */
    ck_assert_int_eq(tg_write_metis(tu_path("missing/x.graph"), g, &err),
                     TG_EIO);
    ck_assert_int_eq(tg_write_scotch(tu_path("missing/x.grf"), g, &err),
                     TG_EIO);
    ck_assert_int_eq(tu_count_files(), before);

    /* Matrix Market is read only, by extension or by name. */
    const char *mtx = tu_path("g.mtx");
    ck_assert_int_eq(tg_write(mtx, TG_FORMAT_UNKNOWN, g, &err), TG_EINVAL);
    ck_assert_str_eq(err.source, mtx);
    ck_assert_ptr_nonnull(strstr(err.text, "read only"));
    ck_assert_int_eq(tg_write(tu_path("g.graph"), TG_FORMAT_MTX, g, &err),
                     TG_EINVAL);
    ck_assert(!tu_exists(mtx));
    ck_assert(!tu_exists(tu_path("g.graph")));
    ck_assert_int_eq(tu_count_files(), before);
    tg_graph_free(g);
}
END_TEST

/* --------------------------------------------------------- METIS reader */

START_TEST(metis_unit_weights_comments_blank_vertex)
{
    /* fmt absent (000): every edge weighs 1.  Edges 1-2 1-3 2-3 3-5;
     * vertex 4 is the blank line; a comment inside the body is not a
     * vertex; trailing blank lines are fine. */
    tg_graph *g = read_ok("unit.graph", "% five vertices\n"
                                        "%another comment\n"
                                        "5 4\n"
                                        "2 3\n"
                                        "3 1\n"
                                        "% vertex 3 next\n"
                                        "5 1 2\n"
                                        "\n"
                                        "3\n"
                                        "\n"
                                        "\n");
    const int64_t xadj[] = {0, 2, 4, 7, 7, 8};
    const int adj[] = {1, 2, 0, 2, 0, 1, 4, 2};
    const uint64_t w[] = {1, 1, 1, 1, 1, 1, 1, 1};
    assert_csr(g, 5, xadj, adj, w);
    tg_graph_free(g);

    /* The same without comments, with "000", tabs, spaces and no final
     * newline. */
    g = read_ok("unit2.graph", "5 4 000\n2\t3\n 1 3 \n1 2 5\n   \n3");
    assert_csr(g, 5, xadj, adj, w);
    tg_graph_free(g);
}
END_TEST

START_TEST(metis_edge_weights)
{
    /* fmt 001, neighbours out of order, a weight of 2^62 and CRLF. */
    tg_graph *g = read_ok("w.graph", "3 2 001\r\n"
                                     "3 4611686018427387904 2 5\r\n"
                                     "1 5\r\n"
                                     "1 4611686018427387904\r\n");
    const int64_t xadj[] = {0, 2, 3, 4};
    const int adj[] = {1, 2, 0, 0};
    const uint64_t w[] = {5, W62, 5, W62};
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);

    /* "1" is fmt 001 without its leading zeros. */
    g = read_ok("w1.graph", "2 1 1\n2 9223372036854775807\n"
                            "1 9223372036854775807\n");
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), TG_WEIGHT_MAX);
    tg_graph_free(g);
}
END_TEST

START_TEST(metis_vertex_weights_and_sizes)
{
    /* fmt 011 with ncon 2: two vertex weights, then neighbour/weight. */
    tg_graph *g = read_ok("vw.graph", "3 2 011 2\n"
                                      "1 2 2 5\n"
                                      "3 4 1 5 3 6\n"
                                      "0 0 2 6\n");
    const int64_t xadj[] = {0, 1, 3, 4};
    const int adj[] = {1, 0, 2, 1};
    const uint64_t w[] = {5, 5, 6, 6};
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);

    /* fmt 010 without ncon: one vertex weight, unit edge weights. */
    g = read_ok("vw1.graph", "3 2 010\n7 2\n8 1 3\n9 2\n");
    const uint64_t ones[] = {1, 1, 1, 1};
    assert_csr(g, 3, xadj, adj, ones);
    tg_graph_free(g);

    /* fmt 100 (sizes), 111 with ncon 1 and 110 with ncon 3. */
    g = read_ok("vs.graph", "3 2 100\n4 2\n4 1 3\n4 2\n");
    assert_csr(g, 3, xadj, adj, ones);
    tg_graph_free(g);
    g = read_ok("vsw.graph", "3 2 111 1\n9 7 2 5\n9 7 1 5 3 6\n9 7 2 6\n");
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);
    g = read_ok("vs3.graph", "3 2 110 3\n1 1 1 1 2\n2 2 2 2 1 3\n"
                             "3 3 3 3 2\n");
    assert_csr(g, 3, xadj, adj, ones);
    tg_graph_free(g);
    /* A vertex with weights and no neighbours. */
    g = read_ok("vw0.graph", "3 1 010\n1 2\n1 1\n5\n");
    ck_assert_int_eq(g->nedges, 1);
    ck_assert_int_eq(g->xadj[3] - g->xadj[2], 0);
    tg_graph_free(g);
}
END_TEST

/* -------------------------------------------------------- Scotch reader */

START_TEST(scotch_base1_loads)
{
    /* baseval 1, flags 011: vertex loads and edge loads. */
    tg_graph *g = read_ok("b1.grf", "0\n3 4\n1 011\n"
                                    "10 1 5 2\n"
                                    "20 2 5 1 7 3\n"
                                    "30 1 7 2\n");
    const int64_t xadj[] = {0, 1, 3, 4};
    const int adj[] = {1, 0, 2, 1};
    const uint64_t w[] = {5, 5, 7, 7};
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);

    /* baseval 0, no loads at all (flags 000): weight 1. */
    g = read_ok("b0.grf", "0\n3 4\n0 000\n1 1\n2 2 0\n1 1\n");
    const uint64_t ones[] = {1, 1, 1, 1};
    assert_csr(g, 3, xadj, adj, ones);
    tg_graph_free(g);
}
END_TEST

START_TEST(scotch_labels)
{
    /* flags 100: labels 30, 10, 20; neighbours are labels. */
    tg_graph *g = read_ok("lab.grf", "0\n3 4\n0 100\n"
                                     "30 1 10\n"
                                     "10 2 30 20\n"
                                     "20 1 10\n");
    const int64_t xadj[] = {0, 1, 3, 4};
    const int adj[] = {1, 0, 2, 1};
    const uint64_t ones[] = {1, 1, 1, 1};
    assert_csr(g, 3, xadj, adj, ones);
    tg_graph_free(g);

    /* flags 111 with baseval 1: label, vertex load, degree, then
     * (edge load, neighbour label) pairs. */
    g = read_ok("lab2.grf", "0\n3 4\n1 111\n"
                            "1000 1 1 9 3000\n"
                            "3000 1 2 9 1000 4 2000\n"
                            "2000 1 1 4 3000\n");
    /* vertex 0 = label 1000, 1 = 3000, 2 = 2000: edges 0-1 9, 1-2 4. */
    const uint64_t w[] = {9, 9, 4, 4};
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);
}
END_TEST

START_TEST(scotch_tokens_across_lines)
{
    /* The same graph as b1.grf (loads 5 and 7, base 0), with every token
     * wherever: header numbers split, vertices split across lines and
     * blank lines between. */
    tg_graph *g = read_ok("spread.grf", "0 3\n4\n\n0\n010 1 5\n1 2 5\n"
                                        "0\t7\n\n2 1\n7 1\n\n");
    const int64_t xadj[] = {0, 1, 3, 4};
    const int adj[] = {1, 0, 2, 1};
    const uint64_t w[] = {5, 5, 7, 7};
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);

    /* All on one line. */
    g = read_ok("oneline.grf", "0 3 4 0 010 1 5 1 2 5 0 7 2 1 7 1");
    assert_csr(g, 3, xadj, adj, w);
    tg_graph_free(g);
}
END_TEST

/* --------------------------------------------------- Matrix Market reader */

/* A symmetric 4 x 4 matrix with a diagonal entry, stored in full and as
 * its lower triangle:  a21 = a12 = -2.4, a32 = a23 = 0.4, a41 = a14 = 10. */
static const char mtx_general[] =
    "%%MatrixMarket matrix coordinate real general\n"
    "% the full matrix\n"
    "4 4 7\n"
    "1 1 3.5\n"
    "2 1 -2.4\n"
    "1 2 -2.4\n"
    "3 2 0.4\n"
    "2 3 0.4\n"
    "4 1 10\n"
    "1 4 1e1\n";
static const char mtx_symmetric[] =
    "%%MatrixMarket Matrix Coordinate Real Symmetric\n"
    "4 4 4\n"
    "1 1 3.5\n"
    "2 1 -2.4\n"
    "3 2 0.4\n"
    "4 1 10\n";

START_TEST(mtx_general_equals_symmetric)
{
    tg_graph *gp = read_mtx_ok("gen.mtx", mtx_general, TG_MTX_PATTERN);
    tg_graph *sp = read_mtx_ok("sym.mtx", mtx_symmetric, TG_MTX_PATTERN);
    tu_assert_same_graph(gp, sp);
    /* Pattern: one per entry, both directions of a pair add up to 2; the
     * diagonal is dropped. */
    const int64_t xadj[] = {0, 2, 4, 5, 6};
    const int adj[] = {1, 3, 0, 2, 1, 0};
    const uint64_t w[] = {2, 2, 2, 2, 2, 2};
    assert_csr(gp, 4, xadj, adj, w);

    /* Values: |-2.4| rounds to 2 (2 + 2 = 4), 0.4 rounds to 0 and the
     * edge disappears, 10 + 10 = 20. */
    tg_graph *gv = read_mtx_ok("gen.mtx", mtx_general, TG_MTX_VALUES);
    tg_graph *sv = read_mtx_ok("sym.mtx", mtx_symmetric, TG_MTX_VALUES);
    tu_assert_same_graph(gv, sv);
    const int64_t xv[] = {0, 2, 3, 3, 4};
    const int av[] = {1, 3, 0, 0};
    const uint64_t wv[] = {4, 20, 4, 20};
    assert_csr(gv, 4, xv, av, wv);
    tg_graph_free(gp);
    tg_graph_free(sp);
    tg_graph_free(gv);
    tg_graph_free(sv);

    /* tg_read passes the weight mode on. */
    tg_read_options o = {TG_FORMAT_UNKNOWN, TG_MTX_VALUES};
    tg_graph *g = NULL;
    tg_error err;
    ck_assert_int_eq(tg_read(tu_path("sym.mtx"), &o, &g, &err), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 3, 0), 20);
    tg_graph_free(g);
    o.format = TG_FORMAT_MTX;
    o.mtx_weights = TG_MTX_PATTERN;
    ck_assert_int_eq(tg_read(tu_path("sym.mtx"), &o, &g, &err), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 3, 0), 2);
    tg_graph_free(g);
}
END_TEST

START_TEST(mtx_fields_and_weights)
{
    /* integer, general, one direction per pair, a negative value and one
     * of 2^62 + 1 that a double could not hold: exact. */
    const char *integer = "%%MatrixMarket matrix coordinate integer general\n"
                          "3 3 3\n"
                          "1 2 -7\n"
                          "3 1 4611686018427387905\n"
                          "2 2 5\n";
    tg_graph *g = read_mtx_ok("int.mtx", integer, TG_MTX_VALUES);
    ck_assert_int_eq(g->nedges, 2);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 7);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), W62 + 1);
    tg_graph_free(g);
    g = read_mtx_ok("int.mtx", integer, TG_MTX_PATTERN);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 1);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), 1);
    tg_graph_free(g);

    /* pattern: no values; VALUES still gives 1 per entry. */
    const char *pattern = "%%matrixmarket MATRIX coordinate PATTERN general\n"
                          "3 3 4\n2 1\n1 2\n3 2\n1 1\n";
    for (int mode = 0; mode < 2; mode++) {
        g = read_mtx_ok("pat.mtx", pattern,
                        mode ? TG_MTX_VALUES : TG_MTX_PATTERN);
        ck_assert_int_eq(g->nedges, 2);
        ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 2);
        ck_assert_uint_eq(tg_graph_weight(g, 1, 2), 1);
        tg_graph_free(g);
    }

    /* real: 2.5 rounds away from zero to 3, 1e3 is 1000, and 0 drops its
     * entry with TG_MTX_VALUES; TG_MTX_PATTERN counts every entry. */
    const char *real = "%%MatrixMarket matrix coordinate real general\n"
                       "3 3 3\n2 1 2.5\n3 1 1e3\n3 2 0\n";
    g = read_mtx_ok("real.mtx", real, TG_MTX_VALUES);
    ck_assert_int_eq(g->nedges, 2);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 3);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 0), 1000);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 1), 0);
    tg_graph_free(g);
    g = read_mtx_ok("real.mtx", real, TG_MTX_PATTERN);
    ck_assert_int_eq(g->nedges, 3);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 1), 1);
    tg_graph_free(g);

    /* skew-symmetric: lower triangle, each entry counts both ways. */
    const char *skew = "%%MatrixMarket matrix coordinate integer "
                       "skew-symmetric\n3 3 2\n2 1 -4\n3 1 4\n";
    g = read_mtx_ok("skew.mtx", skew, TG_MTX_VALUES);
    ck_assert_int_eq(g->nedges, 2);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 8);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), 8);
    tg_graph_free(g);
    g = read_mtx_ok("skew.mtx", skew, TG_MTX_PATTERN);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 2);
    tg_graph_free(g);

    /* An integer past 2^63 - 1 is only an error when it becomes a
     * weight. */
    const char *huge = "%%MatrixMarket matrix coordinate integer general\n"
                       "2 2 1\n2 1 9223372036854775808\n";
    g = read_mtx_ok("huge.mtx", huge, TG_MTX_PATTERN);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 1);
    tg_graph_free(g);
}
END_TEST

/* ------------------------------------------------- independent references */

/* Path of the tool in environment variable `var`; fails the test with the
 * Debian package to install when it is not set. */
static const char *tool(const char *var, const char *package)
{
    const char *p = getenv(var);
    ck_assert_msg(p && *p, "%s is not set: install the Debian package %s "
                  "and re-run configure (or set %s to the program)", var,
                  package, var);
    return p;
}

/* Run `prog args` with stdout and stderr into a file; return the output
 * (caller frees).  The exit status is in *status. */
static char *run_tool(const char *prog, const char *args, int *status)
{
    const char *out = tu_path("tool.out");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s' 2>&1", prog, args, out);
    *status = tu_run(cmd);
    return slurp(out);
}

START_TEST(graphchk_accepts_our_metis)
{
    const char *graphchk = tool("GRAPHCHK", "metis");
    tg_graph *g = random_graph(100, 250, 100000, 3);
    const char *path = tu_path("ref.graph");
    tg_error err;
    ck_assert_int_eq(tg_write_metis(path, g, &err), 0);
    char args[1300], expect[128];
    int st;
    snprintf(args, sizeof args, "'%s'", path);
    char *out = run_tool(graphchk, args, &st);
    /* graphchk exits 0 whether or not the graph is right: read what it
     * says. */
    ck_assert_int_eq(st, 0);
    snprintf(expect, sizeof expect, "#Vertices: 100, #Edges: %lld",
             (long long)g->nedges);
    ck_assert_msg(strstr(out, expect), "graphchk said:\n%s", out);
    ck_assert_msg(strstr(out, "The format of the graph is correct!"),
                  "graphchk said:\n%s", out);
    ck_assert_msg(!strstr(out, "error") && !strstr(out, "incorrect") &&
                      !strstr(out, " not "),
                  "graphchk said:\n%s", out);
    free(out);

    /* The same check rejects an asymmetric adjacency and asymmetric
     * weights, so it cannot pass vacuously; and so do we. */
    static const char *const bad[] = {"3 2\n2\n1 3\n1\n",
                                      "3 2 001\n2 5\n1 5 3 7\n2 9\n"};
    for (int i = 0; i < 2; i++) {
        const char *b = tu_write(i ? "badw.graph" : "bada.graph", bad[i]);
        snprintf(args, sizeof args, "'%s'", b);
        out = run_tool(graphchk, args, &st);
        ck_assert_msg(strstr(out, "The format of the graph is incorrect!"),
                      "graphchk accepted %s:\n%s", b, out);
        ck_assert_msg(strstr(out, i ? "do not have the same weight"
                                    : "Missing edge"),
                      "graphchk said:\n%s", out);
        free(out);
        tg_graph *x = NULL;
        ck_assert_int_eq(tg_read_metis(b, &x, &err), TG_EPARSE);
        ck_assert_int_eq(err.line, 3);
        ck_assert_ptr_null(x);
    }
    tg_graph_free(g);
}
END_TEST

START_TEST(gtst_accepts_our_scotch)
{
    const char *gtst = tool("SCOTCH_GTST", "scotch");
    tg_graph *g = random_graph(100, 250, 100000, 4);
    const char *path = tu_path("ref.grf");
    tg_error err;
    ck_assert_int_eq(tg_write_scotch(path, g, &err), 0);
    uint64_t total;
    ck_assert_int_eq(tg_graph_total_weight(g, &total, &err), 0);
    char args[1300], expect[128];
    int st;
    snprintf(args, sizeof args, "'%s'", path);
    char *out = run_tool(gtst, args, &st);
    ck_assert_int_eq(st, 0);
    ck_assert_msg(!strstr(out, "ERROR"), "gtst said:\n%s", out);
    /* gtst counts vertices and undirected edges, and sums edge loads over
     * both arcs. */
    ck_assert_msg(strstr(out, "S\tVertex\tnbr=100\n"), "gtst said:\n%s", out);
    snprintf(expect, sizeof expect, "S\tEdge\tnbr=%lld\n",
             (long long)g->nedges);
    ck_assert_msg(strstr(out, expect), "gtst said:\n%s", out);
    snprintf(expect, sizeof expect, "sum=%llu\t",
             (unsigned long long)(2 * total));
    const char *load = strstr(out, "S\tEdge load\t");
    ck_assert_msg(load && strstr(load, expect), "gtst said:\n%s", out);
    free(out);

    /* gtst also exits 0 on a broken graph, but says ERROR: arcs whose
     * loads differ.  We reject it too. */
    const char *b = tu_write("bad.grf", "0\n3 4\n0 010\n1 5 1\n2 5 0 7 2\n"
                                        "1 9 1\n");
    snprintf(args, sizeof args, "'%s'", b);
    out = run_tool(gtst, args, &st);
    ck_assert_msg(strstr(out, "ERROR"), "gtst accepted %s:\n%s", b, out);
    free(out);
    tg_graph *x = NULL;
    ck_assert_int_eq(tg_read_scotch(b, &x, &err), TG_EPARSE);
    ck_assert_int_eq(err.line, 5);
    ck_assert_ptr_null(x);
    tg_graph_free(g);
}
END_TEST

START_TEST(gcv_reads_our_metis_like_we_do)
{
    /* gcv's Chaco reader reads METIS files (-ic; -im is Matrix Market).
     * Its .grf (base 1, tab separated) and ours must be the same graph. */
    const char *gcv = tool("SCOTCH_GCV", "scotch");
    tg_graph *g = random_graph(100, 250, 100000, 5);
    const char *metis = tu_path("gcv_in.graph");
    const char *ours = tu_path("gcv_ours.grf");
    const char *theirs = tu_path("gcv_theirs.grf");
    tg_error err;
    ck_assert_int_eq(tg_write_metis(metis, g, &err), 0);
    ck_assert_int_eq(tg_write_scotch(ours, g, &err), 0);
    char args[1300];
    int st;
    snprintf(args, sizeof args, "-ic '%s' '%s'", metis, theirs);
    char *out = run_tool(gcv, args, &st);
    ck_assert_msg(st == 0 && !strstr(out, "ERROR"), "gcv said:\n%s", out);
    free(out);
    tg_graph *x = NULL, *y = NULL;
    ck_assert_int_eq(tg_read_scotch(ours, &x, &err), 0);
    ck_assert_msg(tg_read_scotch(theirs, &y, &err) == 0, "%s", err.text);
    tu_assert_same_graph(x, y);
    tu_assert_same_graph(g, y);
    tg_graph_free(x);
    tg_graph_free(y);
    tg_graph_free(g);

    /* Matrix Market through gcv -im: it symmetrises and drops values and
     * the diagonal.  A general pattern matrix listing each pair once is
     * the same graph for both; in symmetric storage ours counts each
     * entry both ways (weight 2) on the same edges. */
    static const char *const mm[] = {
        "%%MatrixMarket matrix coordinate pattern general\n"
        "6 6 8\n1 2\n3 2\n4 3\n5 4\n6 5\n1 6\n3 3\n6 3\n",
        "%%MatrixMarket matrix coordinate pattern symmetric\n"
        "6 6 7\n2 1\n3 2\n4 3\n5 4\n6 5\n6 1\n3 3\n"};
    for (int i = 0; i < 2; i++) {
        const char *in = tu_write(i ? "gcv_s.mtx" : "gcv_g.mtx", mm[i]);
        snprintf(args, sizeof args, "-im '%s' '%s'", in, theirs);
        out = run_tool(gcv, args, &st);
        ck_assert_msg(st == 0 && !strstr(out, "ERROR"), "gcv said:\n%s",
                      out);
        free(out);
        ck_assert_int_eq(tg_read_mtx(in, TG_MTX_PATTERN, &x, &err), 0);
        ck_assert_int_eq(tg_read_scotch(theirs, &y, &err), 0);
        ck_assert_int_eq(x->nedges, i ? 6 : 7);
        ck_assert_int_eq(x->n, y->n);
        ck_assert_int_eq(x->nedges, y->nedges);
        for (int64_t e = 0; e < x->xadj[x->n]; e++) {
            ck_assert_int_eq(x->adjncy[e], y->adjncy[e]);
            ck_assert_uint_eq(x->adjwgt[e], i ? 2 : 1);
            ck_assert_uint_eq(y->adjwgt[e], 1);
        }
        for (int t = 0; t <= x->n; t++)
            ck_assert_int_eq(x->xadj[t], y->xadj[t]);
        tg_graph_free(x);
        tg_graph_free(y);
    }
}
END_TEST

/* ------------------------------------------------------------ bad input */

typedef struct bad_case {
    const char *name; /* the extension picks the reader */
    const char *text;
    int code;
    long line;
    const char *msg;  /* part of err.text */
    tg_mtx_weights mtx;
} bad_case;

#define MM "%%MatrixMarket matrix coordinate "

static const bad_case bad_cases[] = {
    /* METIS */
    {"num.graph", "3 2 001\n2 x\n1 5 3 5\n2 5\n", TG_EPARSE, 2,
     "vertex 1: edge weight is not a non-negative integer: 'x'", 0},
    {"hdr.graph", "% c\n%c\n3 two\n2\n1\n\n", TG_EPARSE, 3,
     "edge count is not a non-negative integer: 'two'", 0},
    {"hdrshort.graph", "5\n", TG_EPARSE, 1, "'vertices edges [fmt [ncon]]'",
     0},
    {"hdrlong.graph", "2 1 001 1 7\n2 1\n1 1\n", TG_EPARSE, 1,
     "'vertices edges [fmt [ncon]]'", 0},
    {"neg.graph", "3 2 001\n2 -5\n1 -5 3 5\n2 5\n", TG_EPARSE, 2,
     "edge weight is negative: '-5'", 0},
    {"ovf.graph", "2 1 001\n2 99999999999999999999\n1 99999999999999999999\n",
     TG_EOVERFLOW, 2, "edge weight overflows 64 bits", 0},
    {"big.graph", "2 1 001\n2 9223372036854775808\n1 9223372036854775808\n",
     TG_EOVERFLOW, 2, "edge weight 9223372036854775808 for neighbour 2 "
     "exceeds 2^63 - 1", 0},
    {"idovf.graph", "2 1\n99999999999999999999\n1\n", TG_EOVERFLOW, 2,
     "vertex 1: neighbour overflows 64 bits", 0},
    {"range.graph", "3 2\n2\n1 4\n2\n", TG_EPARSE, 3,
     "vertex 2: neighbour 4 outside 1..3", 0},
    {"zero.graph", "3 2\n2\n1 3\n0\n", TG_EPARSE, 4,
     "vertex 3: neighbour 0 outside 1..3", 0},
    {"count.graph", "3 5\n2\n1 3\n2\n", TG_EPARSE, 1,
     "header says 5 edges, body has 2", 0},
    {"count2.graph", "% c\n3 1\n2\n1 3\n2\n", TG_EPARSE, 2,
     "header says 1 edges, body has 2", 0},
    {"asym.graph", "3 2\n2\n1 3\n\n", TG_EPARSE, 3,
     "vertex 2 lists neighbour 3, but vertex 3 (line 4) does not list 2", 0},
    {"asymw.graph", "3 2 001\n2 5\n1 5 3 7\n2 9\n", TG_EPARSE, 3,
     "edge 2-3 has weight 7 here but 9", 0},
    {"self.graph", "2 1\n2\n1 2\n", TG_EPARSE, 3,
     "vertex 2 lists itself", 0},
    {"twice.graph", "3 2\n2 2\n1 1\n\n", TG_EPARSE, 2,
     "vertex 1 lists neighbour 2 twice", 0},
    {"trunc.graph", "4 3\n2\n1 3\n", TG_EPARSE, 3,
     "expected 4 vertex lines, file ends after 2", 0},
    {"trunc2.graph", "%c\n4 0\n\n\n%c\n", TG_EPARSE, 5,
     "expected 4 vertex lines, file ends after 2", 0},
    {"more.graph", "2 1\n2\n1\n\n1\n", TG_EPARSE, 5,
     "more vertex lines than the 2 in the header", 0},
    {"fmt.graph", "2 1 002\n2\n1\n", TG_EPARSE, 1, "fmt 002", 0},
    {"fmt2.graph", "2 1 1000\n2\n1\n", TG_EPARSE, 1, "fmt 1000", 0},
    {"ncon.graph", "2 1 001 2\n2 1\n1 1\n", TG_EPARSE, 1,
     "ncon is 2 but fmt 001 has no vertex weights", 0},
    {"tasks.graph", "3000000000 0\n", TG_EOVERFLOW, 1,
     "3000000000 vertices: at most 2147483647", 0},
    {"w0.graph", "2 1 001\n2 0\n1 0\n", TG_EPARSE, 2, "edge weight 0", 0},
    {"now.graph", "2 1 001\n2\n1 5\n", TG_EPARSE, 2,
     "vertex 1: neighbour 2 has no edge weight", 0},
    {"vw.graph", "2 1 010 2\n5\n1 1 1\n", TG_EPARSE, 2,
     "vertex 1: 2 vertex weights expected, found 1", 0},
    {"vwneg.graph", "2 1 010\n-1 2\n1 1\n", TG_EPARSE, 2,
     "vertex 1: vertex weight is negative", 0},
    {"vsize.graph", "2 1 100\n\n1 1\n", TG_EPARSE, 2,
     "vertex 1: missing vertex size", 0},
    {"empty.graph", "", TG_EPARSE, 0, "empty file", 0},
    {"blank.graph", " \n\n\t\n", TG_EPARSE, 0, "empty file", 0},
    {"comments.graph", "% nothing\n% else\n", TG_EPARSE, 2, "no header", 0},
    /* Scotch */
    {"ver.grf", "7\n2 2\n0 000\n1 1\n1 0\n", TG_EPARSE, 1,
     "Scotch graph version 7 is not supported", 0},
    {"flags.grf", "0\n2 2\n0 020\n1 1\n1 0\n", TG_EPARSE, 3,
     "flags 020 are not three 0/1 digits", 0},
    {"base.grf", "0\n2 2\n2 000\n1 1\n1 0\n", TG_EPARSE, 3,
     "baseval 2 must be 0 or 1", 0},
    {"odd.grf", "0\n2 3\n0 000\n1 1\n1 0\n", TG_EPARSE, 2,
     "arc count 3 is odd", 0},
    {"hdrtrunc.grf", "0\n2\n", TG_EPARSE, 2,
     "truncated file: it ends inside the header", 0},
    {"trunc.grf", "0\n3 4\n0 000\n1 1\n2 0 2\n", TG_EPARSE, 5,
     "truncated file: it ends after 2 of the 3 vertices", 0},
    {"truncarc.grf", "0\n3 4\n0 000\n1 1\n2 0\n\n", TG_EPARSE, 6,
     "truncated file: it ends inside vertex 1", 0},
    {"count.grf", "0\n2 4\n0 000\n1 1\n1 0\n", TG_EPARSE, 2,
     "header says 4 arcs, body has 2", 0},
    {"deg.grf", "0\n2 2\n0 000\n2 1 1\n1 0\n", TG_EPARSE, 5,
     "vertex 1: degree 1 takes the arcs past the 2", 0},
    {"asym.grf", "0\n2 2\n0 010\n1 5 1\n1 6 0\n", TG_EPARSE, 4,
     "edge 0-1 has load 5 here but 6", 0},
    {"asymadj.grf", "0\n3 4\n0 000\n1 1\n2 0 2\n1 0\n", TG_EPARSE, 5,
     "vertex 1 lists neighbour 2, but vertex 2 (line 6) does not list 1", 0},
    {"twice.grf", "0\n2 4\n0 000\n2 1 1\n2 0 0\n", TG_EPARSE, 4,
     "vertex 0 lists neighbour 1 twice", 0},
    {"range.grf", "0\n2 2\n0 000\n1 5\n1 0\n", TG_EPARSE, 4,
     "vertex 0: neighbour 5 outside 0..1", 0},
    {"range1.grf", "0\n2 2\n1 000\n1 0\n1 1\n", TG_EPARSE, 4,
     "vertex 1: neighbour 0 outside 1..2", 0},
    {"self.grf", "0\n2 2\n0 000\n1 0\n1 0\n", TG_EPARSE, 4,
     "vertex 0 lists itself", 0},
    {"trail.grf", "0\n2 2\n0 000\n1 1\n1 0\n\n7\n", TG_EPARSE, 7,
     "unexpected data after the last vertex", 0},
    {"trail2.grf", "0\n2 2\n0 000\n1 1\n1 0 x\n", TG_EPARSE, 5,
     "unexpected data after the last vertex", 0},
    {"num.grf", "0\n2 2\n0 000\n1\nx\n1 0\n", TG_EPARSE, 5,
     "neighbour is not a non-negative integer: 'x'", 0},
    {"neg.grf", "0\n2 2\n0 010\n1 -3 1\n1 3 0\n", TG_EPARSE, 4,
     "edge load is negative: '-3'", 0},
    {"ovf.grf", "0\n2 2\n0 010\n1 18446744073709551616 1\n1 1 0\n",
     TG_EOVERFLOW, 4, "edge load overflows 64 bits", 0},
    {"big.grf", "0\n2 2\n0 010\n1 9223372036854775808 1\n"
     "1 9223372036854775808 0\n", TG_EOVERFLOW, 4,
     "vertex 0: edge load 9223372036854775808 exceeds 2^63 - 1", 0},
    {"load0.grf", "0\n2 2\n0 010\n1 0 1\n1 0 0\n", TG_EPARSE, 4,
     "edge load 0", 0},
    {"duplabel.grf", "0\n2 2\n0 100\n7 1 7\n7 1 7\n", TG_EPARSE, 5,
     "label 7 is used by vertices 0 and 1", 0},
    {"nolabel.grf", "0\n2 2\n0 100\n7 1 8\n8 1 9\n", TG_EPARSE, 5,
     "neighbour 9 is not the label of any vertex", 0},
    {"selflabel.grf", "0\n2 2\n0 100\n7 1 7\n8 1 8\n", TG_EPARSE, 4,
     "(label 7) lists itself", 0},
    {"tasks.grf", "0\n3000000000 0\n0 000\n", TG_EOVERFLOW, 2,
     "at most 2147483647", 0},
    {"empty.grf", "", TG_EPARSE, 0, "empty file", 0},
    /* Matrix Market */
    {"nonsq.mtx", MM "pattern general\n3 4 1\n1 2\n", TG_EPARSE, 2,
     "the matrix is 3 x 4: a task graph needs a square matrix", 0},
    {"cplx.mtx", MM "complex general\n2 2 1\n1 2 1 1\n", TG_EPARSE, 1,
     "complex matrices are not supported", 0},
    {"herm.mtx", MM "complex hermitian\n2 2 1\n2 1 1 1\n", TG_EPARSE, 1,
     "complex matrices are not supported", 0},
    {"herm2.mtx", MM "real hermitian\n2 2 1\n2 1 1\n", TG_EPARSE, 1,
     "hermitian matrices are not supported", 0},
    {"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n"
     "4\n", TG_EPARSE, 1, "'array' matrices are not supported", 0},
    {"vector.mtx", "%%MatrixMarket vector coordinate real general\n2 1\n"
     "1 1\n", TG_EPARSE, 1, "'vector' files are not supported", 0},
    {"field.mtx", MM "double general\n2 2 0\n", TG_EPARSE, 1,
     "unknown field 'double'", 0},
    {"sym.mtx", MM "real lower\n2 2 0\n", TG_EPARSE, 1,
     "unknown symmetry 'lower'", 0},
    {"banner.mtx", "3 3 1\n1 2\n", TG_EPARSE, 1,
     "not a Matrix Market file", 0},
    {"banner2.mtx", "%%MatrixMarket matrix coordinate real\n2 2 0\n",
     TG_EPARSE, 1, "must be '%%MatrixMarket matrix coordinate FIELD "
     "SYMMETRY'", 0},
    {"upper.mtx", MM "real symmetric\n% c\n3 3 2\n2 1 1.0\n1 3 2.0\n",
     TG_EPARSE, 5, "entry (1, 3) is above the diagonal: a symmetric file "
     "stores only the lower triangle", 0},
    {"upskew.mtx", MM "integer skew-symmetric\n3 3 1\n2 3 1\n", TG_EPARSE,
     3, "skew-symmetric file stores only the lower triangle", 0},
    {"trunc.mtx", MM "pattern general\n3 3 3\n1 2\n", TG_EPARSE, 3,
     "expected 3 entries, file ends after 1", 0},
    {"more.mtx", MM "pattern general\n3 3 1\n1 2\n\n2 3\n", TG_EPARSE, 5,
     "more entries than the 1 in the size line", 0},
    {"range.mtx", MM "pattern general\n3 3 2\n1 2\n4 1\n", TG_EPARSE, 4,
     "entry (4, 1): row index 4 outside 1..3", 0},
    {"range0.mtx", MM "pattern general\n3 3 2\n1 2\n1 0\n", TG_EPARSE, 4,
     "column index 0 outside 1..3", 0},
    {"value.mtx", MM "real general\n2 2 1\n2 1 abc\n", TG_EPARSE, 3,
     "value is not a finite number: 'abc'", 0},
    {"intval.mtx", MM "integer general\n2 2 1\n2 1 1.5\n", TG_EPARSE, 3,
     "value is not an integer: '1.5'", 0},
    {"noval.mtx", MM "real general\n2 2 1\n2 1\n", TG_EPARSE, 3,
     "has no value", 0},
    {"extra.mtx", MM "pattern general\n2 2 1\n2 1 5\n", TG_EPARSE, 3,
     "unexpected data after entry (2, 1)", 0},
    {"ovf.mtx", MM "real general\n2 2 1\n2 1 -1e30\n", TG_EOVERFLOW, 3,
     "exceeds 2^63 - 1", TG_MTX_VALUES},
    {"intovf.mtx", MM "integer general\n2 2 1\n2 1 -9223372036854775808\n",
     TG_EOVERFLOW, 3, "value 9223372036854775808 exceeds 2^63 - 1",
     TG_MTX_VALUES},
    {"int64.mtx", MM "integer general\n2 2 1\n2 1 99999999999999999999\n",
     TG_EOVERFLOW, 3, "value overflows 64 bits", 0},
    {"merged.mtx", MM "integer general\n2 2 2\n2 1 9223372036854775807\n"
     "1 2 1\n", TG_EOVERFLOW, 0, "exceeds 2^63 - 1", TG_MTX_VALUES},
    {"nosize.mtx", MM "real general\n% only comments\n", TG_EPARSE, 2,
     "ends before the size line", 0},
    {"size.mtx", MM "real general\n2 2\n", TG_EPARSE, 2,
     "the size line must be 'rows cols entries'", 0},
    {"rows.mtx", MM "real general\n3000000000 3000000000 0\n", TG_EOVERFLOW,
     2, "3000000000 rows", 0},
    {"empty.mtx", "", TG_EPARSE, 0, "empty file", 0},
};
#define NBAD ((int)(sizeof bad_cases / sizeof bad_cases[0]))

static int read_as(const char *path, tg_mtx_weights mtx, tg_graph **g,
                   tg_error *err)
{
    switch (tg_format_from_path(path)) {
    case TG_FORMAT_METIS:
        return tg_read_metis(path, g, err);
    case TG_FORMAT_SCOTCH:
        return tg_read_scotch(path, g, err);
    case TG_FORMAT_MTX:
        return tg_read_mtx(path, mtx, g, err);
    default:
        ck_abort_msg("no reader for %s", path);
        return 0;
    }
}

START_TEST(bad_input)
{
    const bad_case *c = &bad_cases[_i];
    const char *path = tu_write(c->name, c->text);
    static tg_graph untouched;
    tg_graph *g = &untouched;
    tg_error err;
    memset(&err, 0, sizeof err);
    int rc = read_as(path, c->mtx, &g, &err);
    ck_assert_msg(rc == c->code, "%s: code %d, expected %d (%s)", c->name, rc,
                  c->code, err.text);
    ck_assert_msg(g == &untouched, "%s: *out was written", c->name);
    ck_assert_str_eq(err.source, path);
    ck_assert_msg(err.line == c->line, "%s: line %ld, expected %ld (%s)",
                  c->name, err.line, c->line, err.text);
    ck_assert_msg(strstr(err.text, c->msg), "%s: '%s' does not say '%s'",
                  c->name, err.text, c->msg);

    /* Through tg_read (the extension picks the reader): the same error,
     * and *out untouched. */
    tg_read_options o = {TG_FORMAT_UNKNOWN, c->mtx};
    tg_error err2;
    ck_assert_int_eq(tg_read(path, &o, &g, &err2), c->code);
    ck_assert(g == &untouched);
    ck_assert_str_eq(err2.text, err.text);
    ck_assert_int_eq(err2.line, err.line);

    /* A NULL error pointer is allowed and gives the same code. */
    ck_assert_int_eq(read_as(path, c->mtx, &g, NULL), c->code);
    ck_assert(g == &untouched);
}
END_TEST

START_TEST(missing_file)
{
    static const char *const names[] = {"none.graph", "none.grf",
                                        "none.mtx"};
    for (int i = 0; i < 3; i++) {
        const char *path = tu_path(names[i]);
        tg_graph *g = NULL;
        tg_error err;
        ck_assert_int_eq(read_as(path, TG_MTX_PATTERN, &g, &err), TG_EIO);
        ck_assert_str_eq(err.source, path);
        ck_assert_ptr_nonnull(strstr(err.text, "cannot open"));
        ck_assert_ptr_null(g);
    }
}
END_TEST

static Suite *formats_suite(void)
{
    Suite *s = suite_create("formats");
    TCase *w = tcase_create("write");
    tcase_set_timeout(w, 120);
    tcase_add_test(w, metis_exact_text_and_round_trip);
    tcase_add_test(w, scotch_exact_text_and_round_trip);
    tcase_add_test(w, round_trips_all_formats);
    tcase_add_test(w, chain_metis_scotch_json_metis);
    tcase_add_test(w, grid_round_trip_and_checks);
    tcase_add_test(w, plain_edges_read_like_jansson);
    tcase_add_test(w, large_graph_round_trip);
    tcase_add_test(w, failed_writes_leave_nothing);
    suite_add_tcase(s, w);
    TCase *r = tcase_create("read");
    tcase_add_test(r, metis_unit_weights_comments_blank_vertex);
    tcase_add_test(r, metis_edge_weights);
    tcase_add_test(r, metis_vertex_weights_and_sizes);
    tcase_add_test(r, scotch_base1_loads);
    tcase_add_test(r, scotch_labels);
    tcase_add_test(r, scotch_tokens_across_lines);
    tcase_add_test(r, mtx_general_equals_symmetric);
    tcase_add_test(r, mtx_fields_and_weights);
    suite_add_tcase(s, r);
    TCase *ref = tcase_create("references");
    tcase_set_timeout(ref, 60);
    tcase_add_test(ref, graphchk_accepts_our_metis);
    tcase_add_test(ref, gtst_accepts_our_scotch);
    tcase_add_test(ref, gcv_reads_our_metis_like_we_do);
    suite_add_tcase(s, ref);
    TCase *bad = tcase_create("bad input");
    tcase_add_loop_test(bad, bad_input, 0, NBAD);
    tcase_add_test(bad, missing_file);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    return tu_main(formats_suite);
}
