/* test_generators.c: the synthetic task graphs: stencil, qbox and random
 * geometric.  Counts and weights are checked against closed forms worked
 * out by hand, and the random graphs against an O(n^2) brute force. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tg_internal.h"

/* A pointer no generator could return: *out must still hold it after a
 * failure. */
static tg_graph *const untouched = (tg_graph *)&untouched;

static int degree(const tg_graph *g, int t)
{
    return (int)(g->xadj[t + 1] - g->xadj[t]);
}

static uint64_t total_weight(const tg_graph *g)
{
    uint64_t w;
    tg_error err;
    ck_assert_int_eq(tg_graph_total_weight(g, &w, &err), 0);
    return w;
}

static void assert_valid(const tg_graph *g)
{
    tg_error err;
    int rc = tg_graph_check(g, &err);
    ck_assert_msg(rc == 0, "tg_graph_check: %s", err.text);
}

/* Every edge of g weighs exactly w.  (Loops over large graphs count
 * mismatches and assert once: each check assertion costs a message to the
 * runner, which is slow under valgrind.) */
static void assert_all_weights(const tg_graph *g, uint64_t w)
{
    int64_t bad = 0;
    for (int64_t e = 0; e < g->xadj[g->n]; e++)
        bad += g->adjwgt[e] != w;
    ck_assert_msg(bad == 0, "%lld CSR entries do not weigh %llu",
                  (long long)bad, (unsigned long long)w);
}

/* Every task of g has degree k. */
static void assert_all_degrees(const tg_graph *g, int k)
{
    int bad = 0;
    for (int t = 0; t < g->n; t++)
        bad += degree(g, t) != k;
    ck_assert_msg(bad == 0, "%d tasks do not have degree %d", bad, k);
}

/* Row t of g is exactly the ascending list want[0..k). */
static void assert_row(const tg_graph *g, int t, const int *want, int k)
{
    ck_assert_int_eq(degree(g, t), k);
    for (int i = 0; i < k; i++)
        ck_assert_int_eq(g->adjncy[g->xadj[t] + i], want[i]);
}

static int same_graph(const tg_graph *a, const tg_graph *b)
{
    if (a->n != b->n || a->nedges != b->nedges)
        return 0;
    for (int t = 0; t <= a->n; t++)
        if (a->xadj[t] != b->xadj[t])
            return 0;
    for (int64_t e = 0; e < a->xadj[a->n]; e++)
        if (a->adjncy[e] != b->adjncy[e] || a->adjwgt[e] != b->adjwgt[e])
            return 0;
    return 1;
}

static void assert_single_type(const tg_graph *g, const char *name)
{
    ck_assert_int_eq(g->ntypes, 1);
    ck_assert_str_eq(g->types[0].name, name);
    ck_assert(g->types[0].factor == 1.0);
    ck_assert_int_eq(g->nlayers, 0);
}

/* --------------------------------------------------------------- stencil */

static tg_graph *stencil(int ndims, const int *dims, int periodic,
                         int diagonals, uint64_t bytes)
{
    tg_stencil_options o = {.ndims = ndims, .periodic = periodic,
                            .diagonals = diagonals, .bytes = bytes};
    memcpy(o.dims, dims, (size_t)ndims * sizeof *dims);
    tg_graph *g = NULL;
    tg_error err;
    int rc = tg_gen_stencil(&o, &g, &err);
    ck_assert_msg(rc == 0, "tg_gen_stencil: %s", err.text);
    assert_valid(g);
    assert_single_type(g, "p2p");
    int64_t n = 1;
    for (int i = 0; i < ndims; i++)
        n *= dims[i];
    ck_assert_int_eq(g->n, n);
    return g;
}

START_TEST(stencil_face_nonperiodic_counts)
{
    /* Edges along dimension i: (d_i - 1) per line, prod_{j != i} d_j
     * lines. */
    static const int cases[][5] = {
        /* ndims, dims... */
        {1, 7}, {2, 3, 4}, {3, 2, 3, 5}, {3, 4, 1, 3}, {4, 2, 2, 2, 2},
        {2, 1, 1}, {1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int d = cases[c][0];
        const int *dims = &cases[c][1];
        int64_t n = 1, want = 0;
        for (int i = 0; i < d; i++)
            n *= dims[i];
        for (int i = 0; i < d; i++)
            want += (int64_t)(dims[i] - 1) * (n / dims[i]);
        tg_graph *g = stencil(d, dims, 0, 0, 37);
        ck_assert_int_eq(g->nedges, want);
        ck_assert_uint_eq(total_weight(g), (uint64_t)want * 37);
        assert_all_weights(g, 37);
        tg_graph_free(g);
    }
}
END_TEST

START_TEST(stencil_row_major_numbering)
{
    /* 2x3x4: task (a, b, c) = 12a + 4b + c. */
    const int dims[] = {2, 3, 4};
    tg_graph *g = stencil(3, dims, 0, 0, 5);
    const int row0[] = {1, 4, 12};      /* (0,0,1) (0,1,0) (1,0,0) */
    const int row23[] = {11, 19, 22};   /* (1,2,3): (0,2,3) (1,1,3) (1,2,2) */
    const int row17[] = {5, 13, 16, 18, 21}; /* (1,1,1) */
    assert_row(g, 0, row0, 3);
    assert_row(g, 23, row23, 3);
    assert_row(g, 17, row17, 5);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_face_periodic_counts)
{
    /* With every d_i >= 3 each task has 2d distinct neighbours: d * N
     * edges. */
    static const int cases[][4] = {{1, 5}, {2, 3, 4}, {3, 3, 3, 3},
                                   {3, 5, 3, 7}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int d = cases[c][0];
        const int *dims = &cases[c][1];
        int n = 1;
        for (int i = 0; i < d; i++)
            n *= dims[i];
        tg_graph *g = stencil(d, dims, 1, 0, 9);
        ck_assert_int_eq(g->nedges, (int64_t)d * n);
        ck_assert_uint_eq(total_weight(g), (uint64_t)d * n * 9);
        assert_all_degrees(g, 2 * d);
        assert_all_weights(g, 9);
        tg_graph_free(g);
    }
}
END_TEST

START_TEST(stencil_ring_of_five)
{
    const int dims[] = {5};
    tg_graph *g = stencil(1, dims, 1, 0, 100);
    ck_assert_int_eq(g->nedges, 5);
    for (int t = 0; t < 5; t++) {
        ck_assert_uint_eq(tg_graph_weight(g, t, (t + 1) % 5), 100);
        ck_assert_uint_eq(tg_graph_weight(g, t, (t + 2) % 5), 0);
    }
    const int row0[] = {1, 4};
    assert_row(g, 0, row0, 2);
    tg_graph_free(g);

    /* The same without wrap: a path of 4 edges, no 0-4. */
    g = stencil(1, dims, 0, 0, 100);
    ck_assert_int_eq(g->nedges, 4);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 4), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 3, 4), 100);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_4x4_periodic_neighbours)
{
    const int dims[] = {4, 4};
    tg_graph *g = stencil(2, dims, 1, 0, 64);
    const int row0[] = {1, 3, 4, 12};
    const int row5[] = {1, 4, 6, 9};
    const int row15[] = {3, 11, 12, 14};
    assert_row(g, 0, row0, 4);
    assert_row(g, 5, row5, 4);
    assert_row(g, 15, row15, 4);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 64);
    ck_assert_uint_eq(tg_graph_weight(g, 12, 0), 64);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 5), 0);
    ck_assert_int_eq(g->nedges, 32);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_16_to_the_4_periodic)
{
    /* 65536 tasks, 4 * 65536 = 262144 edges, every degree 8. */
    const int dims[] = {16, 16, 16, 16};
    tg_graph *g = stencil(4, dims, 1, 0, 1000);
    ck_assert_int_eq(g->n, 65536);
    ck_assert_int_eq(g->nedges, 262144);
    assert_all_degrees(g, 8);
    ck_assert_uint_eq(total_weight(g), 262144ull * 1000);
    /* Task 0: +-1 in each dimension, strides 4096, 256, 16, 1. */
    const int row0[] = {1, 15, 16, 240, 256, 3840, 4096, 61440};
    assert_row(g, 0, row0, 8);
    assert_all_weights(g, 1000);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_100_cubed)
{
    /* 3 * 99 * 100^2 = 2970000 edges; inner degree 6, corner 3. */
    const int dims[] = {100, 100, 100};
    tg_graph *g = stencil(3, dims, 0, 0, 8);
    ck_assert_int_eq(g->nedges, 2970000);
    ck_assert_int_eq(degree(g, 0), 3);
    ck_assert_int_eq(degree(g, 999999), 3);
    ck_assert_int_eq(degree(g, 50 * 10000 + 50 * 100 + 50), 6);
    ck_assert_int_eq(degree(g, 50 * 100 + 50), 5); /* on a face */
    ck_assert_uint_eq(total_weight(g), 2970000ull * 8);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_27_point_periodic)
{
    /* All dims >= 3: c-1, c, c+1 are distinct modulo every d_i, so the 26
     * offsets reach 26 distinct tasks: 13 * N edges of weight bytes. */
    const int dims[] = {3, 4, 5};
    tg_graph *g = stencil(3, dims, 1, 1, 11);
    ck_assert_int_eq(g->nedges, 13 * 60);
    assert_all_degrees(g, 26);
    assert_all_weights(g, 11);
    ck_assert_uint_eq(total_weight(g), 13ull * 60 * 11);
    /* (0,0,0)-(2,3,4) = task 59 is the (-1,-1,-1) diagonal. */
    ck_assert_uint_eq(tg_graph_weight(g, 0, 59), 11);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_27_point_nonperiodic)
{
    /* 3x3x3 without wrap.  Degrees: centre 26, 8 corners 7 (2^3 - 1),
     * 12 edge midpoints 11 (2*2*3 - 1), 6 face centres 17 (2*3*3 - 1):
     * 26 + 56 + 132 + 102 = 316 = 2 * 158 edges.  Cross-check by
     * direction: a positive-half offset with k nonzero components joins
     * 2^k * 3^(3-k) pairs, and there are C(3,k) 2^k / 2 such offsets:
     * 3 * 18 + 6 * 12 + 4 * 8 = 54 + 72 + 32 = 158.  In general the count
     * is (prod_i (3 d_i - 2) - N) / 2: (343 - 27) / 2 = 158. */
    const int dims[] = {3, 3, 3};
    tg_graph *g = stencil(3, dims, 0, 1, 2);
    ck_assert_int_eq(g->nedges, 158);
    ck_assert_int_eq(degree(g, 13), 26);
    const int corners[] = {0, 2, 6, 8, 18, 20, 24, 26};
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(degree(g, corners[i]), 7);
    ck_assert_int_eq(degree(g, 1), 11);  /* (0,0,1): an edge midpoint */
    ck_assert_int_eq(degree(g, 4), 17);  /* (0,1,1): a face centre */
    ck_assert_uint_eq(total_weight(g), 158 * 2);
    assert_all_weights(g, 2);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 26), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 13), 2);
    tg_graph_free(g);

    /* The general formula on other shapes: 2x3 king graph (4*7 - 6)/2 =
     * 11; 2x3x4: (4*7*10 - 24)/2 = 128; 5x2x1x3: (13*4*1*7 - 30)/2 =
     * 167. */
    static const int cases[][6] = {{2, 2, 3}, {3, 2, 3, 4}, {4, 5, 2, 1, 3}};
    static const int want[] = {11, 128, 167};
    for (int c = 0; c < 3; c++) {
        g = stencil(cases[c][0], &cases[c][1], 0, 1, 1);
        ck_assert_int_eq(g->nedges, want[c]);
        tg_graph_free(g);
    }
}
END_TEST

START_TEST(stencil_periodic_size_two)
{
    /* 2x3 periodic, faces only: dimension 0 has size 2, so (0,c) reaches
     * (1,c) both with +1 and with -1 and the pair carries two halos; the
     * rings of 3 along dimension 1 carry one.  6 + 3 = 9 edges, total
     * weight d * N * bytes = 2 * 6 * 10 = 120 = 6*10 + 3*20. */
    const int dims[] = {2, 3};
    tg_graph *g = stencil(2, dims, 1, 0, 10);
    ck_assert_int_eq(g->nedges, 9);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 20);
    ck_assert_uint_eq(tg_graph_weight(g, 1, 4), 20);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 10);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), 10);
    ck_assert_uint_eq(total_weight(g), 120);
    tg_graph_free(g);

    /* A ring of 2: one edge, two messages. */
    const int two[] = {2};
    g = stencil(1, two, 1, 0, 7);
    ck_assert_int_eq(g->nedges, 1);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 14);
    tg_graph_free(g);

    /* 2x2 periodic with diagonals: a face neighbour is reached by 2 of
     * the 8 offsets, the diagonal one by 4: tasks 0=(0,0), 1=(0,1),
     * 2=(1,0), 3=(1,1). */
    const int sq[] = {2, 2};
    g = stencil(2, sq, 1, 1, 5);
    ck_assert_int_eq(g->nedges, 6);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 10);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), 10);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 20);
    ck_assert_uint_eq(tg_graph_weight(g, 1, 2), 20);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 3), 10);
    ck_assert_uint_eq(total_weight(g), 4 * 4 * 5);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_size_one_dimensions)
{
    const int one[] = {1};
    for (int p = 0; p < 2; p++)
        for (int d = 0; d < 2; d++) {
            tg_graph *g = stencil(1, one, p, d, 3);
            ck_assert_int_eq(g->nedges, 0);
            tg_graph_free(g);
        }
    const int ones[] = {1, 1, 1, 1, 1, 1, 1, 1};
    tg_graph *g = stencil(8, ones, 1, 1, 3);
    ck_assert_int_eq(g->n, 1);
    ck_assert_int_eq(g->nedges, 0);
    tg_graph_free(g);

    /* 4x1x1 periodic: the size-1 dimensions wrap onto the task itself
     * (dropped); what remains is a ring of 4. */
    const int col[] = {4, 1, 1};
    g = stencil(3, col, 1, 0, 6);
    ck_assert_int_eq(g->nedges, 4);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 6);
    ck_assert_uint_eq(total_weight(g), 24);
    tg_graph_free(g);
    g = stencil(3, col, 0, 0, 6);
    ck_assert_int_eq(g->nedges, 3);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 0);
    tg_graph_free(g);

    /* 1x5 periodic with diagonals: (0,+1), (-1,+1) and (+1,+1) all reach
     * the next task along the ring, so each ring edge carries 3 halos. */
    const int flat[] = {1, 5};
    g = stencil(2, flat, 1, 1, 6);
    ck_assert_int_eq(g->nedges, 5);
    assert_all_weights(g, 18);
    tg_graph_free(g);
}
END_TEST

START_TEST(stencil_merged_weight_overflow)
{
    /* A ring of 2 doubles the weight: 2 * 2^62 does not fit. */
    tg_stencil_options o = {.ndims = 1, .dims = {2}, .periodic = 1,
                            .bytes = 1ull << 62};
    tg_graph *g = untouched;
    tg_error err;
    ck_assert_int_eq(tg_gen_stencil(&o, &g, &err), TG_EOVERFLOW);
    ck_assert_ptr_eq(g, untouched);
    ck_assert_ptr_nonnull(strstr(err.text, "2^63 - 1"));
    /* Without wrap it fits. */
    o.periodic = 0;
    ck_assert_int_eq(tg_gen_stencil(&o, &g, &err), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 1ull << 62);
    tg_graph_free(g);
}
END_TEST

/* Expect tg_gen_stencil(o) to fail with `code` and a message containing
 * `text`, leaving *out alone. */
static void stencil_fails(const tg_stencil_options *o, int code,
                          const char *text)
{
    tg_graph *g = untouched;
    tg_error err = {.text = ""};
    ck_assert_int_eq(tg_gen_stencil(o, &g, &err), code);
    ck_assert_ptr_eq(g, untouched);
    ck_assert_msg(strstr(err.text, text), "message '%s' lacks '%s'",
                  err.text, text);
}

START_TEST(stencil_bad_options)
{
    tg_stencil_options ok = {.ndims = 2, .dims = {3, 3}, .bytes = 1};
    tg_stencil_options o = ok;
    o.ndims = 0;
    stencil_fails(&o, TG_EINVAL, "0 dimensions");
    o.ndims = 9;
    stencil_fails(&o, TG_EINVAL, "9 dimensions");
    o = ok;
    o.dims[1] = 0;
    stencil_fails(&o, TG_EINVAL, "dimension 2 has size 0");
    o.dims[1] = -4;
    stencil_fails(&o, TG_EINVAL, "dimension 2 has size -4");
    o = ok;
    o.dims[0] = o.dims[1] = 65536;
    stencil_fails(&o, TG_EOVERFLOW, "more than 2147483647 tasks");
    o = ok;
    o.ndims = 8;
    for (int i = 0; i < 8; i++)
        o.dims[i] = 16; /* 2^32 */
    stencil_fails(&o, TG_EOVERFLOW, "more than 2147483647 tasks");
    o = ok;
    o.bytes = 0;
    stencil_fails(&o, TG_EINVAL, "bytes is 0");
    o.bytes = TG_WEIGHT_MAX + 1;
    stencil_fails(&o, TG_EOVERFLOW, "bytes is 9223372036854775808");
    stencil_fails(NULL, TG_EINVAL, "no options");
    tg_error err;
    ck_assert_int_eq(tg_gen_stencil(&ok, NULL, &err), TG_EINVAL);
    /* err may be NULL. */
    ck_assert_int_eq(tg_gen_stencil(&o, NULL, NULL), TG_EINVAL);
    /* The largest legal weight is accepted. */
    o = ok;
    o.bytes = TG_WEIGHT_MAX;
    tg_graph *g = NULL;
    ck_assert_int_eq(tg_gen_stencil(&o, &g, &err), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), TG_WEIGHT_MAX);
    tg_graph_free(g);
}
END_TEST

/* ------------------------------------------------------------------ qbox */

static tg_graph *qbox(int rows, int cols, int periodic, uint64_t p2p,
                      uint64_t a2a)
{
    tg_qbox_options o = {.rows = rows, .cols = cols, .periodic = periodic,
                         .p2p_bytes = p2p, .alltoall_bytes = a2a};
    tg_graph *g = NULL;
    tg_error err;
    int rc = tg_gen_qbox(&o, &g, &err);
    ck_assert_msg(rc == 0, "tg_gen_qbox: %s", err.text);
    assert_valid(g);
    ck_assert_int_eq(g->n, rows * cols);
    /* Types p2p and alltoall, factor 1; layers in that order. */
    ck_assert_int_eq(g->ntypes, 2);
    ck_assert_str_eq(g->types[0].name, "p2p");
    ck_assert_str_eq(g->types[1].name, "alltoall");
    ck_assert(g->types[0].factor == 1.0 && g->types[1].factor == 1.0);
    ck_assert_int_eq(g->nlayers, 2);
    ck_assert_str_eq(g->layers[0].name, "p2p");
    ck_assert_str_eq(g->layers[1].name, "alltoall");
    for (int i = 0; i < 2; i++) {
        assert_valid(g->layers[i].graph);
        ck_assert_int_eq(g->layers[i].graph->n, g->n);
    }
    return g;
}

START_TEST(qbox_counts)
{
    static const int cases[][3] = {
        /* rows, cols, periodic */
        {3, 4, 0}, {3, 4, 1}, {4, 2, 0}, {4, 2, 1}, {5, 1, 1}, {1, 6, 1},
        {1, 1, 0}, {1, 1, 1}, {7, 3, 1}, {16, 8, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int R = cases[c][0], C = cases[c][1], per = cases[c][2];
        int64_t p2p = (int64_t)R * (C - 1) + (per && C > 2 ? R : 0);
        int64_t a2a = (int64_t)C * R * (R - 1) / 2;
        tg_graph *g = qbox(R, C, per, 1000, 250);
        const tg_graph *lp = g->layers[0].graph, *la = g->layers[1].graph;
        ck_assert_int_eq(lp->nedges, p2p);
        ck_assert_int_eq(la->nedges, a2a);
        ck_assert_int_eq(g->nedges, p2p + a2a);
        /* With cols == 2 periodic each row's two ring edges merge. */
        uint64_t wp = (uint64_t)p2p * 1000 * (per && C == 2 ? 2 : 1);
        ck_assert_uint_eq(total_weight(lp), wp);
        ck_assert_uint_eq(total_weight(la), (uint64_t)a2a * 250);
        ck_assert_uint_eq(total_weight(g), wp + (uint64_t)a2a * 250);
        assert_all_degrees(la, R - 1);
        /* The process grid rows x cols; dimension 1 (along a row)
         * wraps when periodic, each row a ring. */
        ck_assert_int_eq(g->grid.ndims, 2);
        ck_assert_int_eq(g->grid.dims[0], R);
        ck_assert_int_eq(g->grid.dims[1], C);
        ck_assert_int_eq(g->grid.periods[0], 0);
        ck_assert_int_eq(g->grid.periods[1], per);
        ck_assert_ptr_null(g->grid.task);
        tg_graph_free(g);
    }
}
END_TEST

START_TEST(qbox_weights)
{
    /* 3 rows x 4 cols, periodic:
     *    0  1  2  3
     *    4  5  6  7
     *    8  9 10 11 */
    tg_graph *g = qbox(3, 4, 1, 1000, 250);
    const tg_graph *lp = g->layers[0].graph, *la = g->layers[1].graph;
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 1000);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 3), 1000);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 1000); /* the ring */
    ck_assert_uint_eq(tg_graph_weight(g, 8, 11), 1000);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 4), 250);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 8), 250);
    ck_assert_uint_eq(tg_graph_weight(g, 7, 11), 250);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 5), 0);
    ck_assert_uint_eq(tg_graph_weight(lp, 0, 4), 0);
    ck_assert_uint_eq(tg_graph_weight(lp, 0, 1), 1000);
    ck_assert_uint_eq(tg_graph_weight(la, 0, 1), 0);
    ck_assert_uint_eq(tg_graph_weight(la, 1, 9), 250);
    const int row5[] = {1, 4, 6, 9};
    assert_row(g, 5, row5, 4);
    /* The layers themselves record no types: that is the combined
     * graph's business. */
    ck_assert_int_eq(lp->ntypes, 0);
    ck_assert_int_eq(lp->nlayers, 0);

    /* Sum of the layers is the graph itself. */
    tg_graph *s;
    tg_error err;
    ck_assert_int_eq(tg_combine_layers(g, NULL, &s, &err), 0);
    tu_assert_same_graph(s, g);
    tg_graph_free(s);

    /* Weighted-sum 0.6 p2p + 0.4 alltoall: 600 in rows, 100 in columns. */
    const double f[] = {0.6, 0.4};
    ck_assert_int_eq(tg_combine_layers(g, f, &s, &err), 0);
    assert_valid(s);
    ck_assert_uint_eq(tg_graph_weight(s, 0, 1), 600);
    ck_assert_uint_eq(tg_graph_weight(s, 0, 3), 600);
    ck_assert_uint_eq(tg_graph_weight(s, 0, 4), 100);
    ck_assert_uint_eq(tg_graph_weight(s, 3, 11), 100);
    ck_assert_int_eq(s->nedges, g->nedges);
    ck_assert_int_eq(s->ntypes, 2);
    ck_assert_str_eq(s->types[0].name, "p2p");
    ck_assert(s->types[0].factor == 0.6 && s->types[1].factor == 0.4);
    tg_graph_free(s);
    tg_graph_free(g);

    /* Not periodic: no ring edge. */
    g = qbox(3, 4, 0, 1000, 250);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 0);
    ck_assert_uint_eq(tg_graph_weight(g, 4, 5), 1000);
    tg_graph_free(g);
}
END_TEST

START_TEST(qbox_two_columns_and_one)
{
    /* cols == 2 periodic: the two ring edges of a row join one pair. */
    tg_graph *g = qbox(2, 2, 1, 1000, 3);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 2000);
    ck_assert_uint_eq(tg_graph_weight(g, 2, 3), 2000);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 2), 3);
    ck_assert_uint_eq(tg_graph_weight(g, 1, 3), 3);
    ck_assert_int_eq(g->nedges, 4);
    tg_graph_free(g);
    g = qbox(2, 2, 0, 1000, 3);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 1), 1000);
    tg_graph_free(g);

    /* cols == 1: one column, a single clique, an empty p2p layer. */
    g = qbox(4, 1, 1, 1000, 3);
    ck_assert_int_eq(g->layers[0].graph->nedges, 0);
    ck_assert_int_eq(g->nedges, 6);
    ck_assert_uint_eq(tg_graph_weight(g, 0, 3), 3);
    tg_graph_free(g);

    /* 1 x 1: a single task, nothing to exchange. */
    g = qbox(1, 1, 1, 1000, 3);
    ck_assert_int_eq(g->nedges, 0);
    tg_graph_free(g);
}
END_TEST

static void qbox_fails(const tg_qbox_options *o, int code, const char *text)
{
    tg_graph *g = untouched;
    tg_error err = {.text = ""};
    ck_assert_int_eq(tg_gen_qbox(o, &g, &err), code);
    ck_assert_ptr_eq(g, untouched);
    ck_assert_msg(strstr(err.text, text), "message '%s' lacks '%s'",
                  err.text, text);
}

START_TEST(qbox_bad_options)
{
    const tg_qbox_options ok = {.rows = 2, .cols = 3, .p2p_bytes = 1,
                                .alltoall_bytes = 1};
    tg_qbox_options o = ok;
    o.rows = 0;
    qbox_fails(&o, TG_EINVAL, "rows is 0");
    o = ok;
    o.cols = -1;
    qbox_fails(&o, TG_EINVAL, "cols is -1");
    o = ok;
    o.rows = o.cols = 65536;
    qbox_fails(&o, TG_EOVERFLOW, "more than 2147483647");
    o = ok;
    o.p2p_bytes = 0;
    qbox_fails(&o, TG_EINVAL, "p2p bytes is 0");
    o.p2p_bytes = TG_WEIGHT_MAX + 1;
    qbox_fails(&o, TG_EOVERFLOW, "p2p bytes is 9223372036854775808");
    o = ok;
    o.alltoall_bytes = 0;
    qbox_fails(&o, TG_EINVAL, "alltoall bytes is 0");
    o.alltoall_bytes = TG_WEIGHT_MAX + 1;
    qbox_fails(&o, TG_EOVERFLOW, "alltoall bytes is 9223372036854775808");
    /* One column of 2^31 - 1 rows: ~2^61 clique edges, refused before any
     * allocation. */
    o = ok;
    o.rows = TG_TASKS_MAX;
    o.cols = 1;
    qbox_fails(&o, TG_EOVERFLOW, "alltoall edges");
    qbox_fails(NULL, TG_EINVAL, "no options");
    ck_assert_int_eq(tg_gen_qbox(&ok, NULL, NULL), TG_EINVAL);
    /* cols == 2 periodic doubles p2p: 2 * 2^62 overflows when merged. */
    o = ok;
    o.cols = 2;
    o.periodic = 1;
    o.p2p_bytes = 1ull << 62;
    qbox_fails(&o, TG_EOVERFLOW, "2^63 - 1");
}
END_TEST

/* ------------------------------------------------------ random geometric */

static tg_graph *rgg(int n, double radius, uint64_t seed, uint64_t bytes)
{
    tg_rgg_options o = {.n = n, .radius = radius, .seed = seed,
                        .bytes = bytes};
    tg_graph *g = NULL;
    tg_error err;
    int rc = tg_gen_rgg(&o, &g, &err);
    ck_assert_msg(rc == 0, "tg_gen_rgg: %s", err.text);
    assert_valid(g);
    assert_single_type(g, "p2p");
    ck_assert_int_eq(g->n, n);
    return g;
}

START_TEST(rgg_points_documented_order)
{
    /* x[i] then y[i], one tg_rng_uniform each, from a generator seeded
     * with the seed. */
    double x[100], y[100];
    ck_assert_int_eq(tg_rgg_points(100, 77, x, y), 0);
    tg_rng r;
    tg_rng_seed(&r, 77);
    for (int i = 0; i < 100; i++) {
        ck_assert(x[i] == tg_rng_uniform(&r));
        ck_assert(y[i] == tg_rng_uniform(&r));
        ck_assert(x[i] >= 0 && x[i] < 1 && y[i] >= 0 && y[i] < 1);
    }
    ck_assert_int_eq(tg_rgg_points(0, 77, NULL, NULL), 0);
    ck_assert_int_eq(tg_rgg_points(-1, 77, x, y), TG_EINVAL);
    ck_assert_int_eq(tg_rgg_points(3, 77, NULL, y), TG_EINVAL);
}
END_TEST

/* The graph by brute force: every pair i < j with
 * (x_i - x_j)^2 + (y_i - y_j)^2 < radius^2. */
static tg_graph *rgg_brute(int n, double radius, uint64_t seed,
                           uint64_t bytes, double **px, double **py)
{
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    ck_assert(x && y);
    ck_assert_int_eq(tg_rgg_points(n, seed, x, y), 0);
    tg_builder *b = tg_builder_new(n);
    tg_error err;
    double r2 = radius * radius;
    int rc = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j];
            if (dx * dx + dy * dy < r2)
                rc |= tg_builder_add(b, i, j, bytes, &err);
        }
    ck_assert_int_eq(rc, 0);
    tg_graph *g;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    *px = x;
    *py = y;
    return g;
}

START_TEST(rgg_matches_brute_force)
{
    static const struct {
        int n;
        double radius;
        uint64_t seed;
    } cases[] = {
        {1, 0.5, 1},      {2, 1.0, 4},       {50, 1e-9, 3},
        {200, 0.1, 7},    {500, 0.05, 11},   {300, 0.3, 2},
        {100, 0.7, 9},    {3000, 0.01, 123}, {4000, 0.02, 0},
        {1000, 0.5, 5},   {777, 0.0333, 42}, {64, 1.4142135623730951, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c].n;
        double rad = cases[c].radius;
        tg_graph *g = rgg(n, rad, cases[c].seed, 10);
        double *x, *y;
        tg_graph *want = rgg_brute(n, rad, cases[c].seed, 10, &x, &y);
        ck_assert_msg(g->nedges == want->nedges,
                      "n %d radius %g: %lld edges, brute force %lld", n, rad,
                      (long long)g->nedges, (long long)want->nedges);
        ck_assert_msg(same_graph(g, want), "n %d radius %g: the edges "
                      "differ from the brute force's", n, rad);
        /* Every edge joins points closer than the radius. */
        int64_t far = 0;
        for (int i = 0; i < n; i++)
            for (int64_t e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
                int j = g->adjncy[e];
                double dx = x[i] - x[j], dy = y[i] - y[j];
                far += !(dx * dx + dy * dy < rad * rad);
            }
        ck_assert_int_eq(far, 0);
        assert_all_weights(g, 10);
        ck_assert_uint_eq(total_weight(g), (uint64_t)g->nedges * 10);
        free(x);
        free(y);
        tg_graph_free(want);
        tg_graph_free(g);
    }
}
END_TEST

START_TEST(rgg_extremes)
{
    /* A radius far below the spacing of 1000 points: no edges. */
    tg_graph *g = rgg(1000, 1e-12, 8, 1);
    ck_assert_int_eq(g->nedges, 0);
    tg_graph_free(g);
    /* sqrt(2) is the diagonal of the square and points lie in [0, 1):
     * every pair is closer, a complete graph of n (n - 1) / 2 edges. */
    g = rgg(300, sqrt(2.0), 8, 5);
    ck_assert_int_eq(g->nedges, 300 * 299 / 2);
    assert_all_degrees(g, 299);
    ck_assert_uint_eq(total_weight(g), 300 * 299 / 2 * 5);
    tg_graph_free(g);
    /* One task. */
    g = rgg(1, 1.0, 8, 5);
    ck_assert_int_eq(g->nedges, 0);
    tg_graph_free(g);
}
END_TEST

START_TEST(rgg_seeds)
{
    tg_graph *a = rgg(2000, 0.04, 99, 3);
    tg_graph *b = rgg(2000, 0.04, 99, 3);
    tg_graph *c = rgg(2000, 0.04, 100, 3);
    tu_assert_same_graph(a, b);
    ck_assert(!same_graph(a, c));
    tg_graph_free(a);
    tg_graph_free(b);
    tg_graph_free(c);
}
END_TEST

START_TEST(rgg_large_is_sane)
{
    /* 200000 points, radius 0.004: about pi r^2 n^2 / 2 = 1e6 edges (less
     * at the border).  Too many pairs for brute force; check the graph
     * and that the count is near its expectation. */
    tg_graph *g = rgg(200000, 0.004, 1, 1);
    double expect = 3.14159265358979 * 0.004 * 0.004 * 200000.0 * 199999.0 / 2;
    ck_assert(g->nedges > 0.97 * expect && g->nedges < 1.01 * expect);
    tg_graph_free(g);
}
END_TEST

static void rgg_fails(const tg_rgg_options *o, int code, const char *text)
{
    tg_graph *g = untouched;
    tg_error err = {.text = ""};
    ck_assert_int_eq(tg_gen_rgg(o, &g, &err), code);
    ck_assert_ptr_eq(g, untouched);
    ck_assert_msg(strstr(err.text, text), "message '%s' lacks '%s'",
                  err.text, text);
}

START_TEST(rgg_bad_options)
{
    const tg_rgg_options ok = {.n = 10, .radius = 0.2, .seed = 1,
                               .bytes = 1};
    tg_rgg_options o = ok;
    o.n = 0;
    rgg_fails(&o, TG_EINVAL, "0 tasks");
    o.n = -5;
    rgg_fails(&o, TG_EINVAL, "-5 tasks");
    o = ok;
    o.radius = 0;
    rgg_fails(&o, TG_EINVAL, "radius 0");
    o.radius = -0.1;
    rgg_fails(&o, TG_EINVAL, "radius -0.1");
    o.radius = 1.5;
    rgg_fails(&o, TG_EINVAL, "radius 1.5");
    o.radius = NAN;
    rgg_fails(&o, TG_EINVAL, "must be > 0 and <= sqrt(2)");
    o.radius = INFINITY;
    rgg_fails(&o, TG_EINVAL, "must be > 0 and <= sqrt(2)");
    o = ok;
    o.bytes = 0;
    rgg_fails(&o, TG_EINVAL, "bytes is 0");
    o.bytes = TG_WEIGHT_MAX + 1;
    rgg_fails(&o, TG_EOVERFLOW, "bytes is 9223372036854775808");
    rgg_fails(NULL, TG_EINVAL, "no options");
    ck_assert_int_eq(tg_gen_rgg(&ok, NULL, NULL), TG_EINVAL);
}
END_TEST

static Suite *generators_suite(void)
{
    Suite *s = suite_create("generators");
    TCase *st = tcase_create("stencil");
    /* The large lattices take a while under valgrind. */
    tcase_set_timeout(st, 120);
    tcase_add_test(st, stencil_face_nonperiodic_counts);
    tcase_add_test(st, stencil_row_major_numbering);
    tcase_add_test(st, stencil_face_periodic_counts);
    tcase_add_test(st, stencil_ring_of_five);
    tcase_add_test(st, stencil_4x4_periodic_neighbours);
    tcase_add_test(st, stencil_16_to_the_4_periodic);
    tcase_add_test(st, stencil_100_cubed);
    tcase_add_test(st, stencil_27_point_periodic);
    tcase_add_test(st, stencil_27_point_nonperiodic);
    tcase_add_test(st, stencil_periodic_size_two);
    tcase_add_test(st, stencil_size_one_dimensions);
    tcase_add_test(st, stencil_merged_weight_overflow);
    tcase_add_test(st, stencil_bad_options);
    suite_add_tcase(s, st);
    TCase *qb = tcase_create("qbox");
    tcase_add_test(qb, qbox_counts);
    tcase_add_test(qb, qbox_weights);
    tcase_add_test(qb, qbox_two_columns_and_one);
    tcase_add_test(qb, qbox_bad_options);
    suite_add_tcase(s, qb);
    TCase *rg = tcase_create("rgg");
    tcase_set_timeout(rg, 120);
    tcase_add_test(rg, rgg_points_documented_order);
    tcase_add_test(rg, rgg_matches_brute_force);
    tcase_add_test(rg, rgg_extremes);
    tcase_add_test(rg, rgg_seeds);
    tcase_add_test(rg, rgg_large_is_sane);
    tcase_add_test(rg, rgg_bad_options);
    suite_add_tcase(s, rg);
    return s;
}

int main(void)
{
    return tu_main(generators_suite);
}
