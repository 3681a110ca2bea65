/* test_build.c: taskgraph build.  Each collective model on its own, with
 * sends worked out by hand (4 and 8 members, and 6 for the folds of the
 * non-power-of-two cases); the Open MPI 4.1 decisions; and the whole build
 * on hand-written profiles (tests/data/build_*.json) whose graphs are
 * known exactly: point-to-point only; a Qbox-like grid (row p2p, column
 * Alltoall, a global Allreduce that is filtered); types under --min-share;
 * every collective model on a communicator of 4 (members in a shuffled
 * order) and of 8; and the folder build writes. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_internal.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

/* Compare the sends of a model with m expected {peer, bytes}, in any
 * order. */
static void same_sends(const tg_send *s, int k, int m, const double e[][2])
{
    ck_assert_int_eq(k, m);
    for (int i = 0; i < m; i++) {
        int found = 0;
        for (int j = 0; j < k; j++)
            if (s[j].peer == (int)e[i][0]) {
                ck_assert_msg(fabs(s[j].bytes - e[i][1]) < 1e-9,
                              "to %d: %g bytes, expected %g", s[j].peer,
                              s[j].bytes, e[i][1]);
                found++;
            }
        ck_assert_msg(found == 1, "peer %g sent to %d times", e[i][0], found);
    }
}

#define SENDS(s, k, ...)                                                     \
    do {                                                                     \
        const double e_[][2] = {__VA_ARGS__};                                \
        same_sends(s, k, (int)(sizeof e_ / sizeof e_[0]), e_);               \
    } while (0)

static tg_coll_in in_of(int n, int me, double bytes)
{
    return (tg_coll_in){n, me, bytes, NULL, 0};
}

/* The profile tests/data/NAME. */
static tg_profile *profile(const char *name)
{
    const char *dir = getenv("TOPOMAP_DATA");
    ck_assert_msg(dir != NULL, "TOPOMAP_DATA is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tg_profile *p = NULL;
    tg_error err;
    ck_assert_msg(tg_profile_read(path, &p, &err) == 0, "%s: %s", name,
                  err.text);
    return p;
}

static tg_build *build(const char *name, const tg_build_options *o)
{
    tg_profile *p = profile(name);
    tg_build *b = NULL;
    tg_error err;
    ck_assert_msg(tg_build_run(p, o, &b, &err) == 0, "%s: %s", name,
                  err.text);
    tg_profile_free(p);
    return b;
}

static const tg_build_type *type_of(const tg_build *b, const char *name)
{
    for (int i = 0; i < b->ntypes; i++)
        if (!strcmp(b->types[i].name, name))
            return &b->types[i];
    ck_abort_msg("no type %s in the build", name);
    return NULL;
}

/* The graph of type `name` has exactly the m edges {a, b, w}, given as
 * indices into members (NULL: world ranks). */
static void same_edges(const tg_build *b, const char *name,
                       const int *members, int m, const int e[][3])
{
    const tg_build_type *t = type_of(b, name);
    ck_assert_msg(t->graph != NULL, "%s has no graph", name);
    int (*w)[3] = malloc(((size_t)m + 1) * sizeof *w);
    for (int i = 0; i < m; i++) {
        w[i][0] = members ? members[e[i][0]] : e[i][0];
        w[i][1] = members ? members[e[i][1]] : e[i][1];
        w[i][2] = e[i][2];
    }
    tg_graph *expect = tu_graph(b->world_size, m, (const int (*)[3])w);
    tu_assert_same_graph(t->graph, expect);
    tg_graph_free(expect);
    free(w);
}

#define EDGES(b, name, members, ...)                                         \
    do {                                                                     \
        const int e_[][3] = {__VA_ARGS__};                                   \
        same_edges(b, name, members, (int)(sizeof e_ / sizeof e_[0]), e_);   \
    } while (0)

/* Every pair of n members (indices into members, NULL: world ranks 0 to
 * n-1) with weight w(i, j). */
static void all_pairs(const tg_build *b, const char *name,
                      const int *members, int n, int (*w)(int, int))
{
    int e[64][3], m = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            e[m][0] = i;
            e[m][1] = j;
            e[m++][2] = w(i, j);
        }
    same_edges(b, name, members, m, (const int (*)[3])e);
}

static tg_build_options opts(double large, double coverage, double min_share,
                             tg_coll_model m)
{
    return (tg_build_options){large, coverage, min_share, m, 0};
}

/* ------------------------------------------------------- the models alone */

START_TEST(model_recorded)
{
    tg_send s[4];
    const tg_prof_peer peers[] = {{0, 30}, {1, 99}, {2, 30}, {3, 30}};
    tg_coll_in in = {4, 1, 189, peers, 4};
    SENDS(s, tg_model_recorded(&in, s), {0, 30}, {2, 30}, {3, 30});
}
END_TEST

START_TEST(model_alltoall_allgather)
{
    tg_send s[8];
    tg_coll_in in = in_of(4, 2, 400);
    SENDS(s, tg_model_alltoall(&in, s), {0, 100}, {1, 100}, {3, 100});
    in = in_of(2, -1, 400); /* an intercommunicator: the remote group */
    SENDS(s, tg_model_alltoall(&in, s), {0, 200}, {1, 200});
    in = in_of(4, 0, 50);
    SENDS(s, tg_model_allgather(&in, s), {1, 50}, {2, 50}, {3, 50});
    in = in_of(3, -1, 50);
    SENDS(s, tg_model_allgather(&in, s), {0, 50}, {1, 50}, {2, 50});
}
END_TEST

START_TEST(model_allreduce_ring)
{
    tg_send s[8];
    tg_coll_in in = in_of(4, 1, 400);
    SENDS(s, tg_model_allreduce_ring(&in, s), {2, 600});
    in = in_of(8, 7, 800);
    SENDS(s, tg_model_allreduce_ring(&in, s), {0, 1400});
    in = in_of(1, 0, 800);
    ck_assert_int_eq(tg_model_allreduce_ring(&in, s), 0);
}
END_TEST

START_TEST(model_allreduce_recdoubling)
{
    tg_send s[8];
    tg_coll_in in = in_of(4, 0, 400);
    SENDS(s, tg_model_allreduce_recdoubling(&in, s), {1, 400}, {2, 400});
    in = in_of(8, 5, 100);
    SENDS(s, tg_model_allreduce_recdoubling(&in, s), {4, 100}, {7, 100},
          {1, 100});
    /* 6 = 4 + 2: pairs (0, 1) and (2, 3) fold onto 1 and 3, which with 4
     * and 5 are numbered 0..3. */
    in = in_of(6, 0, 10);
    SENDS(s, tg_model_allreduce_recdoubling(&in, s), {1, 10});
    in.me = 1;
    SENDS(s, tg_model_allreduce_recdoubling(&in, s), {0, 10}, {3, 10},
          {4, 10});
    in.me = 3;
    SENDS(s, tg_model_allreduce_recdoubling(&in, s), {2, 10}, {1, 10},
          {5, 10});
    in.me = 4;
    SENDS(s, tg_model_allreduce_recdoubling(&in, s), {5, 10}, {1, 10});
}
END_TEST

START_TEST(model_allreduce_rabenseifner)
{
    tg_send s[8];
    tg_coll_in in = in_of(8, 5, 400);
    SENDS(s, tg_model_allreduce_rabenseifner(&in, s), {4, 400}, {7, 200},
          {1, 100});
    in = in_of(4, 0, 400); /* 2 (n - 1)/n V in all */
    SENDS(s, tg_model_allreduce_rabenseifner(&in, s), {1, 400}, {2, 200});
    /* 6: here the even member of each folded pair stays (0 and 2). */
    in = in_of(6, 0, 400);
    SENDS(s, tg_model_allreduce_rabenseifner(&in, s), {1, 600}, {2, 400},
          {4, 200});
    in.me = 1;
    SENDS(s, tg_model_allreduce_rabenseifner(&in, s), {0, 400});
    in.me = 2;
    SENDS(s, tg_model_allreduce_rabenseifner(&in, s), {3, 600}, {0, 400},
          {5, 200});
    in.me = 5;
    SENDS(s, tg_model_allreduce_rabenseifner(&in, s), {4, 400}, {2, 200});
}
END_TEST

START_TEST(model_allreduce_clique)
{
    tg_send s[8];
    tg_coll_in in = in_of(4, 0, 400);
    SENDS(s, tg_model_allreduce_clique(&in, s), {1, 200}, {2, 200},
          {3, 200});
}
END_TEST

START_TEST(model_reduce_scatter)
{
    tg_send s[8];
    const double b4[] = {10, 20, 30, 40};
    tg_coll_in in = in_of(4, 2, 100);
    SENDS(s, tg_model_reduce_scatter_ring(&in, b4, s), {3, 70});
    in.me = 1;
    SENDS(s, tg_model_reduce_scatter_clique(&in, b4, s), {0, 10}, {2, 30},
          {3, 40});
    /* Recursive halving on 8: the partner's half at distances 4, 2, 1. */
    const double b8[] = {1, 2, 3, 4, 5, 6, 7, 8};
    in = in_of(8, 5, 36);
    SENDS(s, tg_model_reduce_scatter_halving(&in, b8, s), {1, 10}, {7, 15},
          {4, 5});
    /* On 6: 0 sends everything to 1, which holds blocks 0 and 1 and hands
     * block 0 back at the end. */
    in = in_of(6, 0, 21);
    SENDS(s, tg_model_reduce_scatter_halving(&in, b8, s), {1, 21});
    in.me = 1;
    SENDS(s, tg_model_reduce_scatter_halving(&in, b8, s), {4, 11}, {3, 7},
          {0, 1});
    in.me = 4;
    SENDS(s, tg_model_reduce_scatter_halving(&in, b8, s), {1, 10}, {5, 6});
}
END_TEST

START_TEST(model_scan)
{
    tg_send s[8];
    tg_coll_in in = in_of(4, 1, 8);
    SENDS(s, tg_model_scan_chain(&in, s), {2, 8});
    SENDS(s, tg_model_scan_clique(&in, s), {2, 8}, {3, 8});
    in.me = 3;
    ck_assert_int_eq(tg_model_scan_chain(&in, s), 0);
    in = in_of(6, 5, 8);
    SENDS(s, tg_model_scan_recdoubling(&in, s), {4, 8}, {1, 8});
    in = in_of(8, 0, 8);
    SENDS(s, tg_model_scan_recdoubling(&in, s), {1, 8}, {2, 8}, {4, 8});
}
END_TEST

/* The tables of Open MPI 4.1's coll_tuned_decision_fixed.c, commutative
 * operations, at and around their switch points. */
START_TEST(ompi_decisions)
{
    ck_assert_int_eq(tg_ompi_allreduce(2, 7), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_allreduce(2, 8), TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_allreduce(3, 100000), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_allreduce(3, 262144), TG_MODEL_RABENSEIFNER);
    ck_assert_int_eq(tg_ompi_allreduce(4, 400), TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_allreduce(4, 8192), TG_MODEL_RABENSEIFNER);
    ck_assert_int_eq(tg_ompi_allreduce(8, 8191), TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_allreduce(16, 63), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_allreduce(16, 64), TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_allreduce(16, 4096), TG_MODEL_RABENSEIFNER);
    ck_assert_int_eq(tg_ompi_allreduce(100, 262143),
                     TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_allreduce(200, 1000),
                     TG_MODEL_RECURSIVE_DOUBLING); /* reduce + bcast */
    ck_assert_int_eq(tg_ompi_allreduce(3000, 3000), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_allreduce(5000, 10000), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_allreduce(5000, 1 << 20), TG_MODEL_RABENSEIFNER);
    ck_assert_int_eq(tg_ompi_reduce_scatter(2, 100), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_reduce_scatter(2, 100000),
                     TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_reduce_scatter(4, 100),
                     TG_MODEL_RECURSIVE_DOUBLING);
    ck_assert_int_eq(tg_ompi_reduce_scatter(4, 262144), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_reduce_scatter(40, 524288), TG_MODEL_RING);
    ck_assert_int_eq(tg_ompi_reduce_scatter(100, 1 << 20),
                     TG_MODEL_RECURSIVE_DOUBLING);
}
END_TEST

START_TEST(model_names)
{
    for (int m = TG_MODEL_AUTO; m <= TG_MODEL_CLIQUE; m++)
        ck_assert_int_eq(tg_coll_model_from_name(tg_coll_model_name(m)), m);
    ck_assert_int_eq(tg_coll_model_from_name("tree"), -1);
}
END_TEST

/* ------------------------------------------------------- whole builds */

START_TEST(p2p_only)
{
    tg_build_options o;
    tg_build_options_init(&o);
    tg_build *b = build("build_p2p.json", &o);
    ck_assert_int_eq(b->ntypes, 1);
    ck_assert_int_eq(b->ncritical, 1);
    const tg_build_type *t = type_of(b, "p2p");
    ck_assert(t->critical && t->factor == 1.0 && b->covered == 1.0);
    ck_assert_uint_eq(t->ns, 100000000);
    ck_assert_uint_eq(t->bytes, 210);
    EDGES(b, "p2p", NULL, {0, 1, 150}, {1, 2, 30}, {2, 3, 20}, {0, 3, 10});
    /* One type: Sum and Weighted-sum are its graph, with it as a layer. */
    tu_assert_same_graph(b->sum, t->graph);
    tu_assert_same_graph(b->wsum, t->graph);
    ck_assert_int_eq(b->wsum->nlayers, 1);
    ck_assert(b->wsum->ntypes == 1 && b->wsum->types[0].factor == 1.0);
    tg_build_free(b);
}
END_TEST

/* The Qbox-like grid of 2 rows of 4: a ring of 1000 bytes each way along
 * each row, a 600-byte Alltoall (twice) in each column of 2, and an
 * Allreduce on all 8, which a communicator of 8 >= 0.5 x 8 filters. */
static const int qbox_p2p[][3] = {{0, 1, 2000}, {1, 2, 2000}, {2, 3, 2000},
                                  {0, 3, 2000}, {4, 5, 2000}, {5, 6, 2000},
                                  {6, 7, 2000}, {4, 7, 2000}};
static const int qbox_a2a[][3] = {
    {0, 4, 1200}, {1, 5, 1200}, {2, 6, 1200}, {3, 7, 1200}};

START_TEST(qbox_grid)
{
    tg_build_options o;
    tg_build_options_init(&o);
    tg_build *b = build("build_qbox.json", &o);
    ck_assert_int_eq(b->ntypes, 3);
    ck_assert_str_eq(b->types[0].name, "p2p"); /* longest first */
    ck_assert_str_eq(b->types[1].name, "alltoall");
    ck_assert_str_eq(b->types[2].name, "allreduce");
    const tg_build_type *ar = type_of(b, "allreduce");
    ck_assert_int_eq(ar->filter, TG_BUILD_LARGE);
    ck_assert(!ar->critical && !ar->kept_ns && !ar->graph);
    ck_assert_uint_eq(b->total_ns, 800000000);
    ck_assert_uint_eq(b->kept_ns, 720000000);
    ck_assert_int_eq(b->ncritical, 2);
    const tg_build_type *p2p = &b->types[b->critical[0]],
                        *a2a = &b->types[b->critical[1]];
    ck_assert_str_eq(p2p->name, "p2p");
    ck_assert_str_eq(a2a->name, "alltoall");
    ck_assert(fabs(p2p->factor - 2.0 / 3) < 1e-12);
    ck_assert(fabs(a2a->factor - 1.0 / 3) < 1e-12);
    ck_assert(fabs(b->covered - 1) < 1e-12);
    same_edges(b, "p2p", NULL, 8, qbox_p2p);
    same_edges(b, "alltoall", NULL, 4, qbox_a2a);
    /* Sum: both, as they are; Weighted-sum: 2000 x 2/3 -> 1333, 1200 x
     * 1/3 = 400; factors in its types to 1e-12. */
    int sum[12][3], wsum[12][3];
    for (int i = 0; i < 8; i++) {
        memcpy(sum[i], qbox_p2p[i], sizeof sum[i]);
        memcpy(wsum[i], qbox_p2p[i], sizeof wsum[i]);
        wsum[i][2] = 1333;
    }
    for (int i = 0; i < 4; i++) {
        memcpy(sum[8 + i], qbox_a2a[i], sizeof sum[i]);
        memcpy(wsum[8 + i], qbox_a2a[i], sizeof wsum[i]);
        wsum[8 + i][2] = 400;
    }
    tg_graph *g = tu_graph(8, 12, (const int (*)[3])sum);
    tu_assert_same_graph(b->sum, g);
    tg_graph_free(g);
    g = tu_graph(8, 12, (const int (*)[3])wsum);
    tu_assert_same_graph(b->wsum, g);
    tg_graph_free(g);
    ck_assert_int_eq(b->wsum->ntypes, 2);
    ck_assert(fabs(b->wsum->types[0].factor - 2.0 / 3) < 1e-12);
    ck_assert(fabs(b->wsum->types[1].factor - 1.0 / 3) < 1e-12);
    ck_assert_int_eq(b->sum->nlayers, 2);
    ck_assert_str_eq(b->sum->layers[1].name, "alltoall");
    tg_build_free(b);

    /* Nothing filtered (--large above 1): the Allreduce is kept, 10% of
     * the time, and coverage stops before it (60% + 30% >= 85%). */
    o.large = 2;
    b = build("build_qbox.json", &o);
    ar = type_of(b, "allreduce");
    ck_assert_int_eq(ar->filter, TG_BUILD_KEPT);
    ck_assert(fabs(ar->kept_share - 0.1) < 1e-12 && !ar->critical);
    ck_assert_int_eq(b->ncritical, 2);
    ck_assert(fabs(b->covered - 0.9) < 1e-12);
    /* auto: 64 bytes on 8 members is recursive doubling in Open MPI 4.1;
     * 640 bytes from each rank, to its partners at distances 1, 2, 4. */
    ck_assert_uint_eq(ar->models, 1u << TG_MODEL_RECURSIVE_DOUBLING);
    EDGES(b, "allreduce", NULL, {0, 1, 1280}, {2, 3, 1280}, {4, 5, 1280},
          {6, 7, 1280}, {0, 2, 1280}, {1, 3, 1280}, {4, 6, 1280},
          {5, 7, 1280}, {0, 4, 1280}, {1, 5, 1280}, {2, 6, 1280},
          {3, 7, 1280});
    tg_build_free(b);
}
END_TEST

/* Time left: p2p 50%, alltoallv 32%, then bcast, gather, scatter and rma
 * 4.5% each; a barrier beside them moves no bytes. */
START_TEST(min_share_drops)
{
    tg_build_options o;
    tg_build_options_init(&o);
    tg_build *b = build("build_minshare.json", &o);
    ck_assert_uint_eq(b->total_ns, 1100000000);
    ck_assert_uint_eq(b->kept_ns, 1000000000);
    ck_assert_int_eq(type_of(b, "barrier")->filter, TG_BUILD_NO_DATA);
    ck_assert(!type_of(b, "barrier")->kept_ns);
    /* 82% < 85%, but the next type has 4.5% < 5%: C* stops short. */
    ck_assert_int_eq(b->ncritical, 2);
    ck_assert_str_eq(b->types[b->critical[0]].name, "p2p");
    ck_assert_str_eq(b->types[b->critical[1]].name, "alltoallv");
    ck_assert(fabs(b->covered - 0.82) < 1e-12);
    ck_assert(fabs(type_of(b, "p2p")->factor - 500.0 / 820) < 1e-12);
    const char *dropped[] = {"bcast", "gather", "scatter", "rma"};
    for (int i = 0; i < 4; i++) {
        const tg_build_type *t = type_of(b, dropped[i]);
        ck_assert(!t->critical && t->factor == 0);
        ck_assert(fabs(t->kept_share - 0.045) < 1e-12);
    }
    /* The p2p edge and the Alltoallv's on the same pair (0, 1). */
    EDGES(b, "p2p", NULL, {0, 1, 900});
    EDGES(b, "alltoallv", NULL, {0, 1, 350});
    EDGES(b, "bcast", NULL, {2, 3, 40});
    EDGES(b, "gather", NULL, {2, 3, 8});
    EDGES(b, "scatter", NULL, {2, 3, 12});
    EDGES(b, "rma", NULL, {2, 3, 64});
    ck_assert_uint_eq(tg_graph_weight(b->sum, 0, 1), 1250);
    tg_build_free(b);

    /* --min-share 0.04 lets the first of the equal types in (the
     * profile's order breaks the tie): 86.5% >= 85%. */
    o.min_share = 0.04;
    b = build("build_minshare.json", &o);
    ck_assert_int_eq(b->ncritical, 3);
    ck_assert_str_eq(b->types[b->critical[2]].name, "bcast");
    ck_assert(fabs(b->covered - 0.865) < 1e-12);
    tg_build_free(b);

    /* Coverage 0 is the smallest coverage, not none: the heaviest type
     * (50%) alone, as with any coverage up to its share. */
    for (int i = 0; i < 2; i++) {
        o = opts(0.5, i ? 0.5 : 0, 0.05, TG_MODEL_AUTO);
        b = build("build_minshare.json", &o);
        ck_assert_int_eq(b->ncritical, 1);
        ck_assert_str_eq(b->types[b->critical[0]].name, "p2p");
        ck_assert(fabs(b->covered - 0.5) < 1e-12);
        ck_assert(type_of(b, "p2p")->factor == 1);
        tg_build_free(b);
    }

    /* Everything with bytes. */
    o = opts(0.5, 1, 0, TG_MODEL_AUTO);
    b = build("build_minshare.json", &o);
    ck_assert_int_eq(b->ncritical, 6);
    ck_assert(fabs(b->covered - 1) < 1e-12);
    ck_assert(!type_of(b, "barrier")->critical);
    tg_build_free(b);
}
END_TEST

/* ------------------------------------ the models on 4 members: [2, 0, 3, 1] */

static const int m4[] = {2, 0, 3, 1};

static int w_a2a4(int i, int j) { (void)i, (void)j; return 50; }
static int w_ag4(int i, int j) { return 8 * (i + 1) + 8 * (j + 1); }
static int w_clique4(int i, int j) { (void)i, (void)j; return 400; }
static int w_rs_clique4(int i, int j) { return 10 * (i + 1) + 10 * (j + 1); }
static int w_rsb_clique4(int i, int j) { (void)i, (void)j; return 200; }
static int w_scan_clique4(int i, int j) { (void)i, (void)j; return 40; }

START_TEST(models_on_4)
{
    tg_build_options o = opts(2, 1, 0, TG_MODEL_AUTO);
    tg_build *b = build("build_coll4.json", &o);
    ck_assert_int_eq(type_of(b, "barrier")->filter, TG_BUILD_NO_DATA);
    /* As recorded: the root's sends, the sends to the root, the v's. */
    EDGES(b, "bcast", m4, {1, 0, 200}, {1, 2, 200}, {1, 3, 200});
    EDGES(b, "reduce", m4, {0, 2, 64}, {1, 2, 64}, {3, 2, 64});
    EDGES(b, "gatherv", m4, {1, 0, 20}, {2, 0, 30}, {3, 0, 40});
    EDGES(b, "scatterv", m4, {3, 0, 5}, {3, 1, 6}, {3, 2, 7});
    EDGES(b, "alltoallv", m4, {0, 1, 32}, {0, 2, 43}, {0, 3, 13},
          {1, 2, 55}, {2, 3, 77});
    EDGES(b, "neighbor_alltoall", m4, {0, 1, 32}, {1, 2, 32}, {2, 3, 32},
          {0, 3, 32});
    all_pairs(b, "alltoall", m4, 4, w_a2a4);
    all_pairs(b, "allgather", m4, 4, w_ag4);
    /* auto: 400 bytes on 4: recursive doubling; reduce_scatter of 100:
     * recursive halving; scan and exscan: a chain. */
    EDGES(b, "allreduce", m4, {0, 1, 800}, {2, 3, 800}, {0, 2, 800},
          {1, 3, 800});
    EDGES(b, "reduce_scatter", m4, {0, 2, 100}, {0, 1, 30}, {1, 3, 100},
          {2, 3, 70});
    EDGES(b, "reduce_scatter_block", m4, {0, 2, 400}, {1, 3, 400},
          {0, 1, 200}, {2, 3, 200});
    EDGES(b, "scan", m4, {0, 1, 40}, {1, 2, 40}, {2, 3, 40});
    EDGES(b, "exscan", m4, {0, 1, 8}, {1, 2, 8}, {2, 3, 8});
    ck_assert_uint_eq(type_of(b, "scan")->models, 1u << TG_MODEL_RING);
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_RING;
    b = build("build_coll4.json", &o);
    EDGES(b, "allreduce", m4, {0, 1, 600}, {1, 2, 600}, {2, 3, 600},
          {0, 3, 600});
    EDGES(b, "reduce_scatter", m4, {0, 1, 90}, {1, 2, 80}, {2, 3, 70},
          {0, 3, 60});
    EDGES(b, "reduce_scatter_block", m4, {0, 1, 300}, {1, 2, 300},
          {2, 3, 300}, {0, 3, 300});
    EDGES(b, "scan", m4, {0, 1, 40}, {1, 2, 40}, {2, 3, 40});
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_RECURSIVE_DOUBLING;
    b = build("build_coll4.json", &o);
    EDGES(b, "allreduce", m4, {0, 1, 800}, {2, 3, 800}, {0, 2, 800},
          {1, 3, 800});
    EDGES(b, "scan", m4, {0, 1, 80}, {2, 3, 80}, {0, 2, 80}, {1, 3, 80});
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_RABENSEIFNER;
    b = build("build_coll4.json", &o);
    EDGES(b, "allreduce", m4, {0, 1, 800}, {2, 3, 800}, {0, 2, 400},
          {1, 3, 400});
    EDGES(b, "reduce_scatter", m4, {0, 2, 100}, {0, 1, 30}, {1, 3, 100},
          {2, 3, 70});
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_CLIQUE;
    b = build("build_coll4.json", &o);
    all_pairs(b, "allreduce", m4, 4, w_clique4);
    all_pairs(b, "reduce_scatter", m4, 4, w_rs_clique4);
    all_pairs(b, "reduce_scatter_block", m4, 4, w_rsb_clique4);
    all_pairs(b, "scan", m4, 4, w_scan_clique4);
    tg_build_free(b);
}
END_TEST

/* ------------------------------------------------ the models on 8 members */

static int w_a2a8(int i, int j) { (void)i, (void)j; return 200; }
static int w_ag8(int i, int j) { (void)i, (void)j; return 20; }
static int w_clique8(int i, int j) { (void)i, (void)j; return 400; }
static int w_rs_clique8(int i, int j) { return 10 * (i + 1) + 10 * (j + 1); }
static int w_scan_clique8(int i, int j) { (void)i, (void)j; return 8; }

/* Partners at distances 1, 2 and 4 (recursive doubling), weights w1, w2,
 * w4. */
static void xor_pairs(const tg_build *b, const char *name, int w1, int w2,
                      int w4)
{
    int e[12][3], m = 0;
    for (int i = 0; i < 8; i++)
        for (int d = 1; d <= 4; d *= 2)
            if ((i ^ d) > i) {
                e[m][0] = i;
                e[m][1] = i ^ d;
                e[m++][2] = d == 1 ? w1 : d == 2 ? w2 : w4;
            }
    same_edges(b, name, NULL, m, (const int (*)[3])e);
}

START_TEST(models_on_8)
{
    tg_build_options o = opts(2, 1, 0, TG_MODEL_AUTO);
    tg_build *b = build("build_coll8.json", &o);
    EDGES(b, "bcast", NULL, {3, 0, 100}, {3, 1, 100}, {3, 2, 100},
          {3, 4, 100}, {3, 5, 100}, {3, 6, 100}, {3, 7, 100});
    all_pairs(b, "alltoall", NULL, 8, w_a2a8);
    all_pairs(b, "allgather", NULL, 8, w_ag8);
    xor_pairs(b, "allreduce", 1600, 1600, 1600); /* auto: 800 bytes */
    EDGES(b, "reduce_scatter", NULL, {0, 4, 360}, {1, 5, 360}, {2, 6, 360},
          {3, 7, 360}, {0, 2, 100}, {1, 3, 100}, {4, 6, 260}, {5, 7, 260},
          {0, 1, 30}, {2, 3, 70}, {4, 5, 110}, {6, 7, 150});
    EDGES(b, "scan", NULL, {0, 1, 8}, {1, 2, 8}, {2, 3, 8}, {3, 4, 8},
          {4, 5, 8}, {5, 6, 8}, {6, 7, 8});
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_RING;
    b = build("build_coll8.json", &o);
    EDGES(b, "allreduce", NULL, {0, 1, 1400}, {1, 2, 1400}, {2, 3, 1400},
          {3, 4, 1400}, {4, 5, 1400}, {5, 6, 1400}, {6, 7, 1400},
          {0, 7, 1400});
    EDGES(b, "reduce_scatter", NULL, {0, 1, 350}, {1, 2, 340}, {2, 3, 330},
          {3, 4, 320}, {4, 5, 310}, {5, 6, 300}, {6, 7, 290}, {0, 7, 280});
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_RECURSIVE_DOUBLING;
    b = build("build_coll8.json", &o);
    xor_pairs(b, "scan", 16, 16, 16);
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_RABENSEIFNER;
    b = build("build_coll8.json", &o);
    xor_pairs(b, "allreduce", 1600, 800, 400);
    ck_assert_uint_eq(type_of(b, "allreduce")->models,
                      1u << TG_MODEL_RABENSEIFNER);
    tg_build_free(b);

    o.allreduce_model = TG_MODEL_CLIQUE;
    b = build("build_coll8.json", &o);
    all_pairs(b, "allreduce", NULL, 8, w_clique8);
    all_pairs(b, "reduce_scatter", NULL, 8, w_rs_clique8);
    all_pairs(b, "scan", NULL, 8, w_scan_clique8);
    tg_build_free(b);
}
END_TEST

START_TEST(nothing_critical)
{
    tg_profile *p = profile("build_coll8.json");
    tg_build_options o;
    tg_build_options_init(&o); /* every record is on all 8: filtered */
    tg_build *b = NULL;
    tg_error err;
    ck_assert_int_eq(tg_build_run(p, &o, &b, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "no critical type: no time left after "
                               "leaving out large collectives and types "
                               "that move no bytes");
    ck_assert(b == NULL);
    tg_profile_free(p);
    p = profile("build_qbox.json");
    o.min_share = 1;
    ck_assert_int_eq(tg_build_run(p, &o, &b, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "no critical type: no type has min-share 1 "
                               "of the time left after filtering");
    /* Coverage 0 takes the heaviest type only if min-share lets it
     * (p2p has 66.67% of the time left). */
    o.coverage = 0;
    o.min_share = 0.7;
    ck_assert_int_eq(tg_build_run(p, &o, &b, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "no critical type: no type has min-share 0.7 "
                               "of the time left after filtering");
    ck_assert(b == NULL);
    tg_profile_free(p);
}
END_TEST

/* ------------------------------------------------------ directed sends */

typedef struct sends_seen {
    int n;
    uint64_t s[64][4]; /* src, dst, bytes, count */
} sends_seen;

static int record_send(void *arg, int src, int dst, uint64_t bytes,
                       uint64_t count, tg_error *err)
{
    sends_seen *v = arg;
    (void)err;
    ck_assert_int_lt(v->n, 64);
    uint64_t *e = v->s[v->n++];
    e[0] = (uint64_t)src;
    e[1] = (uint64_t)dst;
    e[2] = bytes;
    e[3] = count;
    return 0;
}

static int stop_at_third(void *arg, int src, int dst, uint64_t bytes,
                         uint64_t count, tg_error *err)
{
    int *calls = arg;
    (void)src, (void)dst, (void)bytes, (void)count;
    return ++*calls == 3 ? tg_error_set(err, TG_EINVAL, "", 0, "stop") : 0;
}

/* tests/data/profile_4.json, every send in the order the types are
 * listed: the sent rows (2 -> 1 has 0 bytes), rank 1's recorded Bcast,
 * the Allreduce of 80 bytes on 4 members (recursive doubling below 8192
 * bytes: partners r^1, r^2), the Alltoall of 64 bytes on {0, 2}, the
 * Scatter from 0 to the remote group {2, 3}, the rma rows.  Also: the
 * default options, a sink that fails, options out of range. */
START_TEST(directed_sends)
{
    static const uint64_t want[][4] = {
        {0, 1, 4000, 4}, {0, 2, 100, 1}, {1, 0, 4000, 4}, {3, 0, 50, 2},
        {3, 2, 7, 1},    {1, 0, 30, 1},  {1, 2, 30, 1},   {1, 3, 30, 1},
        {0, 1, 80, 1},   {0, 2, 80, 1},  {1, 0, 80, 1},   {1, 3, 80, 1},
        {2, 3, 80, 1},   {2, 0, 80, 1},  {3, 2, 80, 1},   {3, 1, 80, 1},
        {0, 2, 32, 2},   {2, 0, 32, 2},  {0, 2, 12, 1},   {0, 3, 12, 1},
        {0, 3, 64, 2},   {3, 0, 8, 1}};
    int nwant = (int)(sizeof want / sizeof want[0]);
    tg_profile *p = profile("profile_4.json");
    tg_build_options o;
    tg_build_options_init(&o);
    o.large = HUGE_VAL;
    sends_seen v = {0};
    tg_error err;
    ck_assert_int_eq(tg_build_sends(p, &o, record_send, &v, &err), 0);
    ck_assert_int_eq(v.n, nwant);
    for (int i = 0; i < nwant; i++)
        for (int k = 0; k < 4; k++)
            ck_assert_msg(v.s[i][k] == want[i][k],
                          "send %d: %llu %llu %llu %llu", i,
                          (unsigned long long)v.s[i][0],
                          (unsigned long long)v.s[i][1],
                          (unsigned long long)v.s[i][2],
                          (unsigned long long)v.s[i][3]);
    /* By default every communicator here is large: the rows alone. */
    tg_build_options_init(&o);
    v.n = 0;
    ck_assert_int_eq(tg_build_sends(p, &o, record_send, &v, &err), 0);
    ck_assert_int_eq(v.n, 7);
    ck_assert(v.s[5][0] == 0 && v.s[5][1] == 3 && v.s[5][2] == 64);
    /* The sink's error stops the walk. */
    int calls = 0;
    ck_assert_int_eq(tg_build_sends(p, &o, stop_at_third, &calls, &err),
                     TG_EINVAL);
    ck_assert_int_eq(calls, 3);
    ck_assert_str_eq(err.text, "stop");
    o.coverage = 2;
    ck_assert_int_eq(tg_build_sends(p, &o, record_send, &v, &err), TG_EINVAL);
    tg_profile_free(p);
}
END_TEST

/* Made symmetric, the sends are the build's graphs: with every type
 * critical, the Sum of tests/data/build_coll4.json. */
static int to_builder_test(void *b, int src, int dst, uint64_t bytes,
                           uint64_t count, tg_error *err)
{
    (void)count;
    return tg_builder_add(b, src, dst, bytes, err);
}

START_TEST(sends_make_the_sum)
{
    tg_profile *p = profile("build_coll4.json");
    tg_build_options o;
    tg_build_options_init(&o);
    o.large = HUGE_VAL;
    o.coverage = 1;
    o.min_share = 0;
    tg_build *b = NULL;
    tg_error err;
    ck_assert_int_eq(tg_build_run(p, &o, &b, &err), 0);
    tg_builder *bld = tg_builder_new(p->world_size);
    tg_graph *g = NULL;
    ck_assert_int_eq(tg_build_sends(p, &o, to_builder_test, bld, &err), 0);
    ck_assert_int_eq(tg_builder_finish(bld, &g, &err), 0);
    int with_graph = 0; /* all but the barrier, and all critical */
    for (int i = 0; i < b->ntypes; i++)
        with_graph += b->types[i].graph != NULL;
    ck_assert_int_eq(with_graph, b->ntypes - 1);
    ck_assert_int_eq(b->ncritical, with_graph);
    ck_assert_int_gt(g->nedges, 0);
    tu_assert_same_graph(g, b->sum);
    tg_graph_free(g);
    tg_builder_free(bld);
    tg_build_free(b);
    tg_profile_free(p);
}
END_TEST

/* ---------------------------------------------------------- the folder */

/* The sorted names in dir, joined by spaces. */
static const char *listing(const char *dir)
{
    static char out[1024];
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", dir);
    FILE *fp = popen(cmd, "r");
    size_t n = fread(out, 1, sizeof out - 1, fp);
    out[n] = '\0';
    pclose(fp);
    return out;
}

START_TEST(write_folder)
{
    tg_build_options o;
    tg_build_options_init(&o);
    tg_build *b = build("build_qbox.json", &o);
    tg_error err;
    const char *dir = tu_path("graphs");
    ck_assert_int_eq(tg_build_write(b, dir, "q.json", NULL, 0, &err), 0);
    ck_assert_str_eq(listing(dir), "alltoall.tg.json p2p.tg.json "
                                   "sum.tg.json summary.json wsum.tg.json ");
    ck_assert_int_eq(tu_count_files(), 1); /* nothing left beside it */

    /* summary.json: format, the critical types and factors to 1e-12. */
    char path[1024];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    json_t *j = json_load_file(path, 0, NULL);
    ck_assert(j != NULL);
    ck_assert_str_eq(json_string_value(json_object_get(j, "format")),
                     "topomap-build-summary");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "version")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(j, "profile")),
                     "q.json");
    json_t *crit = json_object_get(j, "critical"),
           *types = json_object_get(j, "types");
    ck_assert_int_eq(json_array_size(crit), 2);
    ck_assert_str_eq(json_string_value(json_array_get(crit, 1)), "alltoall");
    ck_assert_int_eq(json_array_size(types), 3);
    json_t *t0 = json_array_get(types, 0), *t2 = json_array_get(types, 2);
    ck_assert(fabs(json_real_value(json_object_get(t0, "factor")) -
                   2.0 / 3) < 1e-12);
    ck_assert_str_eq(json_string_value(json_object_get(t2, "filtered")),
                     "large");
    ck_assert(json_is_false(json_object_get(j, "single")));
    json_decref(j);

    /* The Weighted-sum read back carries the factors. */
    tg_graph *g = NULL;
    snprintf(path, sizeof path, "%s/wsum.tg.json", dir);
    ck_assert_int_eq(tg_read(path, NULL, &g, &err), 0);
    tu_assert_same_graph(g, b->wsum);
    ck_assert(fabs(g->types[0].factor - 2.0 / 3) < 1e-12);
    ck_assert(fabs(g->types[1].factor - 1.0 / 3) < 1e-12);
    ck_assert_int_eq(g->nlayers, 2);
    tg_graph_free(g);

    /* Again, with METIS and Scotch copies: the previous build is
     * replaced. */
    const tg_format f[] = {TG_FORMAT_METIS, TG_FORMAT_SCOTCH};
    ck_assert_int_eq(tg_build_write(b, dir, "q.json", f, 2, &err), 0);
    ck_assert_str_eq(listing(dir),
                     "alltoall.graph alltoall.grf alltoall.tg.json "
                     "p2p.graph p2p.grf p2p.tg.json sum.graph sum.grf "
                     "sum.tg.json summary.json wsum.graph wsum.grf "
                     "wsum.tg.json ");
    ck_assert_int_eq(tu_count_files(), 1);
    tg_build_free(b);

    /* A single type now: stale graphs of the previous build go. */
    b = build("build_p2p.json", &o);
    ck_assert_int_eq(tg_build_write(b, dir, "p.json", NULL, 0, &err), 0);
    ck_assert_str_eq(listing(dir), "p2p.tg.json sum.tg.json summary.json "
                                   "wsum.tg.json ");
    ck_assert_int_eq(tu_count_files(), 1);
    tg_build_free(b);
}
END_TEST

START_TEST(write_refuses)
{
    tg_build_options o;
    tg_build_options_init(&o);
    tg_build *b = build("build_p2p.json", &o);
    tg_error err;
    /* A folder with a file a build does not write: left alone. */
    const char *dir = tu_path("mine");
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    char keep[1024];
    snprintf(keep, sizeof keep, "%s/notes.txt", dir);
    FILE *fp = fopen(keep, "w");
    fputs("keep\n", fp);
    fclose(fp);
    ck_assert_int_eq(tg_build_write(b, dir, "p.json", NULL, 0, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "holds 'notes.txt', which a build does not "
                               "write: remove it or choose another folder");
    ck_assert_str_eq(listing(dir), "notes.txt ");
    /* Graphs but no summary: not a build either. */
    unlink(keep);
    snprintf(keep, sizeof keep, "%s/x.tg.json", dir);
    fclose(fopen(keep, "w"));
    ck_assert_int_eq(tg_build_write(b, dir, "p.json", NULL, 0, &err),
                     TG_EINVAL);
    ck_assert(strstr(err.text, "holds no build") != NULL);
    /* A file where the folder should be. */
    ck_assert_int_eq(tg_build_write(b, keep, "p.json", NULL, 0, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "exists and is not a folder");
    /* A folder that cannot be made: nothing created. */
    ck_assert_int_eq(tg_build_write(b, tu_path("no/such/dir"), "p.json",
                                    NULL, 0, &err),
                     TG_EIO);
    ck_assert(strstr(err.text, "cannot create") != NULL);
    ck_assert_int_eq(tu_count_files(), 1); /* only "mine" */
    tg_build_free(b);
}
END_TEST

static Suite *build_suite(void)
{
    Suite *s = suite_create("build");
    TCase *m = tcase_create("models");
    tcase_add_test(m, model_recorded);
    tcase_add_test(m, model_alltoall_allgather);
    tcase_add_test(m, model_allreduce_ring);
    tcase_add_test(m, model_allreduce_recdoubling);
    tcase_add_test(m, model_allreduce_rabenseifner);
    tcase_add_test(m, model_allreduce_clique);
    tcase_add_test(m, model_reduce_scatter);
    tcase_add_test(m, model_scan);
    tcase_add_test(m, ompi_decisions);
    tcase_add_test(m, model_names);
    suite_add_tcase(s, m);
    TCase *b = tcase_create("build");
    tcase_add_test(b, p2p_only);
    tcase_add_test(b, qbox_grid);
    tcase_add_test(b, min_share_drops);
    tcase_add_test(b, models_on_4);
    tcase_add_test(b, models_on_8);
    tcase_add_test(b, nothing_critical);
    tcase_add_test(b, directed_sends);
    tcase_add_test(b, sends_make_the_sum);
    suite_add_tcase(s, b);
    TCase *w = tcase_create("write");
    tcase_add_test(w, write_folder);
    tcase_add_test(w, write_refuses);
    suite_add_tcase(s, w);
    return s;
}

int main(void)
{
    return tu_main(build_suite);
}
