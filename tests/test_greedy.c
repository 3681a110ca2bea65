/* test_greedy.c: GreedyMap (papers/001, Algorithm 1): task orders worked
 * out by hand, GPART's part sizes, the order of a partition's parts and
 * GPARTRB's parts, small mappings and hop-bytes computed by hand (ties
 * broken by spread, candidates around the neighbours, where tasks with no
 * placed neighbour go), the invariants of Algorithm 1 on random graphs
 * over every network kind and every configuration of the portfolio,
 * seeds, and the configuration strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greedymap.h"
#include "gm_testutil.h"
#include "testutil.h"

static void assert_order(const tg_graph *g, const char *config,
                         const int *want)
{
    gm_config c = gt_config(config);
    int order[64];
    tg_error err;
    ck_assert_int_eq(gm_task_order(g, NULL, &c, order, &err), 0);
    for (int i = 0; i < g->n; i++)
        ck_assert_msg(order[i] == want[i], "%s: position %d is %d, not %d",
                      config, i, order[i], want[i]);
}

/* ---------------------------------------------------------------- orders */

/* A comb: spine 0-1-2-3, teeth 0-4, 1-5, 2-6, 3-7. */
static const int comb[][3] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {0, 4, 1},
                              {1, 5, 1}, {2, 6, 1}, {3, 7, 1}};

START_TEST(orders_of_a_comb)
{
    /* George-Liu from 0: depth 4, last level {7}; from 7 depth 5 > 4, last
     * level {4}; from 4 depth 5, not deeper: the start is 7. */
    tg_graph *g = tu_graph(8, 7, comb);
    const int oo[] = {0, 1, 2, 3, 4, 5, 6, 7};
    assert_order(g, "order=oo", oo);
    /* 7; 3; 2; 2's neighbours 1, 6; 1's 0, 5; 0's 4. */
    const int bfs[] = {7, 3, 2, 1, 6, 0, 5, 4};
    assert_order(g, "order=bfs", bfs);
    /* Cuthill-McKee: 7, 3, 2, then 2's neighbours by degree (6 has 1, 1
     * has 3), 1's by degree (5, then 0), 0's (4); reversed. */
    const int rcm[] = {4, 0, 5, 1, 6, 2, 3, 7};
    assert_order(g, "order=rcm", rcm);
    /* Depth first 7, 3, 2, 1 (the lowest of the equal edges), 0, 4; then
     * the oldest queued task not visited: 6, then 5. */
    const int bfsdfs[] = {7, 3, 2, 1, 0, 4, 6, 5};
    assert_order(g, "order=bfsdfs", bfsdfs);
    tg_graph_free(g);

    /* A heavy tooth 2-6 pulls the path there first; BFS ignores it. */
    int heavy[7][3];
    memcpy(heavy, comb, sizeof heavy);
    heavy[5][2] = 5;
    g = tu_graph(8, 7, (const int(*)[3])heavy);
    const int bfsdfs2[] = {7, 3, 2, 6, 1, 0, 4, 5};
    assert_order(g, "order=bfsdfs", bfsdfs2);
    assert_order(g, "order=bfs", bfs);
    tg_graph_free(g);
}
END_TEST

START_TEST(orders_of_a_disconnected_graph)
{
    /* Components {0, 2}, {1, 3, 5} (1 in the middle), {4}, taken in the
     * order of their lowest task.  {1, 3, 5} starts at 3: from 1 the depth
     * is 1, from 3 it is 2. */
    const int e[][3] = {{0, 2, 1}, {1, 3, 1}, {1, 5, 1}};
    tg_graph *g = tu_graph(6, 3, e);
    const int bfs[] = {0, 2, 3, 1, 5, 4};
    assert_order(g, "order=bfs", bfs);
    assert_order(g, "order=bfsdfs", bfs);
    const int rcm[] = {2, 0, 5, 1, 3, 4};
    assert_order(g, "order=rcm", rcm);
    tg_graph_free(g);

    /* No edges at all: every order is OO. */
    g = tu_graph(5, 0, NULL);
    const int oo[] = {0, 1, 2, 3, 4};
    assert_order(g, "order=bfs", oo);
    assert_order(g, "order=rcm", oo);
    assert_order(g, "order=bfsdfs", oo);
    tg_graph_free(g);
}
END_TEST

START_TEST(file_order)
{
    const int e[][3] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}};
    tg_graph *g = tu_graph(4, 3, e);
    const char *path = tu_write("order.txt", "# a custom list\n2\n\n 0\n"
                                             "3 # then 3\n1#\n # 2\n");
    char text[600];
    snprintf(text, sizeof text, "order=file:%s", path);
    const int want[] = {2, 0, 3, 1};
    assert_order(g, text, want);

    struct {
        const char *body;
        long line;
        const char *msg;
    } bad[] = {
        {"0\n1\n2\n", 0, "task 3 is missing (3 of 4 tasks listed)"},
        {"0\n1\n# x\n1\n2\n3\n", 4, "task 1 is listed twice (first on line 2)"},
        {"0\n1\n4\n2\n3\n", 3, "task 4 is out of range: the graph has 4 tasks"},
        {"0\n1 2\n3\n", 2, "expected one task id per line"},
        {"0\nx\n", 2, "task id is not a non-negative integer: 'x'"},
        {"0\n-1\n", 2, "task id is negative: '-1'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = tu_write("bad.txt", bad[i].body);
        snprintf(text, sizeof text, "order=file:%s", path);
        gm_config c = gt_config(text);
        int order[4];
        tg_error err;
        ck_assert_int_eq(gm_task_order(g, NULL, &c, order, &err), TG_EPARSE);
        ck_assert_str_eq(err.source, path);
        ck_assert_int_eq(err.line, bad[i].line);
        ck_assert_str_eq(err.text, bad[i].msg);
    }
    gm_config c = gt_config("order=file:/nonexistent/order");
    int order[4];
    tg_error err;
    ck_assert_int_eq(gm_task_order(g, NULL, &c, order, &err), TG_EIO);
    ck_assert_str_eq(err.source, "/nonexistent/order");
    tg_graph_free(g);
}
END_TEST

/* ----------------------------------------------------------------- GPART */

static void assert_part_sizes(const tg_graph *g, const gm_machine *m,
                              uint64_t seed, const int *want)
{
    int *part = malloc((size_t)g->n * sizeof *part);
    int *order = malloc((size_t)g->n * sizeof *order);
    int size[16] = {0};
    tg_error err;
    int rc = gm_partition(g, m, seed, part, &err);
    ck_assert_msg(rc == 0, "%s", err.text);
    for (int t = 0; t < g->n; t++) {
        ck_assert(part[t] >= 0 && part[t] < gm_machine_nodes(m));
        size[part[t]]++;
    }
    for (int p = 0; p < gm_machine_nodes(m); p++)
        ck_assert_msg(size[p] == want[p], "part %d has %d tasks, not %d", p,
                      size[p], want[p]);
    /* The GPART list: parts in node order, ids ascending inside. */
    gm_config c = gt_config("order=gpart");
    c.seed = seed;
    ck_assert_int_eq(gm_task_order(g, m, &c, order, &err), 0);
    for (int i = 1; i < g->n; i++) {
        int a = order[i - 1], b = order[i];
        ck_assert(part[a] < part[b] || (part[a] == part[b] && a < b));
    }
    free(part);
    free(order);
}

START_TEST(gpart_part_sizes)
{
    const int slots[] = {3, 5, 2, 6};
    gm_machine *m = gt_uneven_on(slots, 4, "flat");
    for (unsigned s = 1; s <= 4; s++) {
        tg_graph *g = tu_random_graph(16, 3, s);
        assert_part_sizes(g, m, s, slots);
        tg_graph_free(g);
        /* Fewer tasks: nodes fill in node order. */
        g = tu_random_graph(12, 2, s);
        const int twelve[] = {3, 5, 2, 2};
        assert_part_sizes(g, m, s, twelve);
        tg_graph_free(g);
        g = tu_random_graph(9, 2, s);
        const int nine[] = {3, 5, 1, 0};
        assert_part_sizes(g, m, s, nine);
        tg_graph_free(g);
        g = tu_random_graph(2, 1, s);
        const int two[] = {2, 0, 0, 0};
        assert_part_sizes(g, m, s, two);
        tg_graph_free(g);
    }
    /* Four cliques in scrambled ids: the parts are the cliques. */
    const int members[4][6] = {{4, 9, 13}, {0, 2, 7, 11, 15},
                               {5, 10}, {1, 3, 6, 8, 12, 14}};
    const int count[4] = {3, 5, 2, 6};
    int e[64][3], ne = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < count[k]; i++)
            for (int j = i + 1; j < count[k]; j++) {
                e[ne][0] = members[k][i];
                e[ne][1] = members[k][j];
                e[ne++][2] = 10;
            }
    tg_graph *g = tu_graph(16, ne, (const int(*)[3])e);
    int part[16];
    tg_error err;
    ck_assert_int_eq(gm_partition(g, m, 0, part, &err), 0);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < count[k]; i++)
            ck_assert_int_eq(part[members[k][i]], k);
    tg_graph_free(g);

    g = tu_random_graph(17, 2, 1);
    ck_assert_int_eq(gm_partition(g, m, 0, part, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "17 tasks do not fit on 16 slots");
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(gpart_weights_beyond_32_bits)
{
    /* Weights near 2^62 are scaled for METIS; the light edge between the
     * two heavy pairs is still the one cut. */
    tg_builder *b = tg_builder_new(4);
    tg_error err;
    ck_assert_int_eq(tg_builder_add(b, 0, 1, (uint64_t)1 << 62, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 2, 3, (uint64_t)1 << 62, &err), 0);
    ck_assert_int_eq(tg_builder_add(b, 1, 2, 1, &err), 0);
    tg_graph *g;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    gm_machine *m = gt_machine_on(2, 2, "flat");
    int part[4];
    ck_assert_int_eq(gm_partition(g, m, 0, part, &err), 0);
    ck_assert_int_eq(part[0], part[1]);
    ck_assert_int_eq(part[2], part[3]);
    ck_assert_int_ne(part[0], part[2]);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------ mappings by hand */

START_TEST(path_on_two_nodes)
{
    /* Path 0-1 (1), 1-2 (100), 2-3 (1) on flat, 2 nodes x 2 slots.  OO and
     * packNodeFirst: 0, 1 fill node 0, then 2, 3 node 1; the heavy edge
     * crosses: hop-bytes 2 x 100 x 2 = 400.  Without packing the cost
     * keeps 1 next to 0 as well (0 on node 0, 2 on node 1). */
    const int e[][3] = {{0, 1, 1}, {1, 2, 100}, {2, 3, 1}};
    tg_graph *g = tu_graph(4, 3, e);
    gm_machine *m = gt_machine_on(2, 2, "flat");
    gm_place map[4];
    const int want[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    gt_map_with(g, m, "order=oo,pack=1", map);
    gt_assert_map(map, want, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 400);
    gt_map_with(g, m, "order=oo,pack=0", map);
    gt_assert_map(map, want, 4);
    /* GPART puts 1 and 2 in one part (cut 2 instead of 100), so the part
     * boundary falls on the light edges: 2 x (1 x 2 + 1 x 2) = 8. */
    gt_map_with(g, m, "order=gpart,pack=1", map);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 8);
    ck_assert_int_eq(map[1].node, map[2].node);
    /* RCM starts at an end (0; from 0 the depth is 3, from 3 also 3) and
     * reverses: 3, 2, 1, 0. */
    gt_map_with(g, m, "order=rcm,pack=1", map);
    const int rcm[][2] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}};
    gt_assert_map(map, rcm, 4);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(path_on_a_ring_of_nodes)
{
    /* Path of 6 tasks on torus:3 with 2 slots.  0, 1 on node 0; 2's
     * neighbour is on node 0, nodes 1 and 2 both at distance 1: seed 0
     * takes the one closest to the last node, then the lowest id: node 1;
     * then node 2.  Two edges cross one link: 2 x 2 = 4. */
    const int e[][3] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1},
                        {4, 5, 1}};
    tg_graph *g = tu_graph(6, 5, e);
    gm_machine *m = gt_machine_on(3, 2, "torus:3");
    gm_place map[6];
    const int want[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}};
    gt_map_with(g, m, "order=oo,pack=1,delta=2", map);
    gt_assert_map(map, want, 6);
    gt_map_with(g, m, "order=oo,pack=0,delta=all", map);
    gt_assert_map(map, want, 6);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 4);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(delta_limits_the_candidates)
{
    /* A star (task 0 in the middle) on torus:8, one slot per node, OO,
     * seed 0; the walk from a node yields offset -1 before +1.  On this
     * ring every map below puts the leaves 1, 1, 2, 2, 3, 3 and 4 hops from
     * the middle: hop-bytes 2 x 16. */
    int star[7][3];
    for (int i = 0; i < 7; i++) {
        star[i][0] = 0;
        star[i][1] = i + 1;
        star[i][2] = 1;
    }
    tg_graph *g = tu_graph(8, 7, (const int(*)[3])star);
    gm_machine *m = gt_machine_on(8, 1, "torus:8");
    gm_place map[8];
    /* Delta = 1: always the nearest free node to the last one, whatever
     * it costs: around the ring the - way. */
    gt_map_with(g, m, "delta=1", map);
    const int one[][2] = {{0, 0}, {7, 0}, {6, 0}, {5, 0},
                          {4, 0}, {3, 0}, {2, 0}, {1, 0}};
    gt_assert_map(map, one, 8);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 32);
    /* wrap = 0 explores the ring as a line from node 0: the + way. */
    gt_map_with(g, m, "delta=1,wrap=0", map);
    const int line[][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0},
                           {4, 0}, {5, 0}, {6, 0}, {7, 0}};
    gt_assert_map(map, line, 8);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 32);
    /* Delta = 2: 1 -> node 1 (nodes 7 and 1 tie, the lower id); 2: from
     * node 1 the candidates are 2 and 7, 7 is nearer to task 0; 3: 6 or 5,
     * 6; 4: 5 or 4, 5; 5: 4 or 3, 3; 6: 2 or 4, 2; 7: node 4 is left. */
    gt_map_with(g, m, "delta=2", map);
    const int two[][2] = {{0, 0}, {1, 0}, {7, 0}, {6, 0},
                          {5, 0}, {3, 0}, {2, 0}, {4, 0}};
    gt_assert_map(map, two, 8);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 32);
    /* Delta = all: each task on the free node nearest to task 0, ties to
     * the node nearest the last one. */
    gt_map_with(g, m, "delta=all", map);
    const int all[][2] = {{0, 0}, {1, 0}, {7, 0}, {6, 0},
                          {2, 0}, {3, 0}, {5, 0}, {4, 0}};
    gt_assert_map(map, all, 8);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 32);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* Tasks with no placed neighbour: every candidate ties.  Seed 0 takes
 * the last node while it has a free slot, else the free node closest to
 * it (in the metric of the candidates), the lowest id among equals; other
 * seeds draw with probability proportional to the free slots, in the order
 * of the free list (greedy.c finds both without scanning every free node
 * when Delta covers them all, and must find the same).  12 tasks, edges
 * 0-1 (5 bytes) and 5-6 (3), the others alone; OO, one slot per node
 * unless said. */
START_TEST(lone_tasks_tie_breaks)
{
    const int e[][3] = {{0, 1, 5}, {5, 6, 3}};
    tg_graph *g = tu_graph(12, 2, e);
    const int uneven[] = {3, 1, 2, 1, 3, 2};
    static const struct {
        const char *spec;
        int nodes, slots; /* nodes 0: the uneven slots above, -1: the
                             two leaves of gt_two_leaves */
        const char *config;
        int want[12][2];
    } cases[] = {
        /* torus:4x4, node (r, c) = 4r + c.  0 on node 0, 1 next to it on
         * node 1 (1, 3, 4, 12 tie; the lowest); then from a full node its
         * free neighbour of lowest id: 2, 3, 7 (from (0,3): (1,3) = 7
         * before (3,3) = 15), 4 (from (1,3): (1,0) = 4 by wrap); 6 next to
         * 5 on node 4: 5 (5 and 8 tie, the lowest); then 6, 10, 9, 8 and
         * 11 (from (2,0): (2,3) by wrap before (3,0) = 12). */
        {"torus:4x4", 16, 1, "order=oo",
         {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {7, 0}, {4, 0},
          {5, 0}, {6, 0}, {10, 0}, {9, 0}, {8, 0}, {11, 0}}},
        /* Without wrap the walk turns back at the edges: a snake. */
        {"torus:4x4", 16, 1, "order=oo,wrap=0",
         {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {7, 0}, {6, 0},
          {5, 0}, {4, 0}, {8, 0}, {9, 0}, {10, 0}, {11, 0}}},
        /* dragonfly:3,2,2: router r holds nodes 2r, 2r+1, group g routers
         * 2g, 2g+1.  From node 1 (router 0 full) the closest are at 3 hops:
         * router 1 and router 2 (the gateway of group 1 to group 0, whose
         * gateway to group 1 is router 0): node 2; from 3, router 4 (group
         * 2's gateway to group 0) is at 3: node 8; 6 next to 5 on node 9:
         * router 5 (3 hops), node 10; from 11 router 3: node 6; then 4. */
        {"dragonfly:3,2,2", 12, 1, "order=oo",
         {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {8, 0}, {9, 0},
          {10, 0}, {11, 0}, {6, 0}, {7, 0}, {4, 0}, {5, 0}}},
        /* Two slots, no packing: a task alone stays on the last node while
         * it has a free slot. */
        {"torus:4x4", 8, 2, "order=oo,pack=0",
         {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
          {3, 0}, {3, 1}, {7, 0}, {7, 1}, {4, 0}, {4, 1}}},
        /* Delta = 2: among the two free nodes the walk meets first. */
        {"torus:4x4", 16, 1, "order=oo,delta=2",
         {{0, 0}, {3, 0}, {2, 0}, {1, 0}, {5, 0}, {4, 0},
          {7, 0}, {6, 0}, {10, 0}, {9, 0}, {8, 0}, {11, 0}}},
        /* Seeded: the draws these seeds give. */
        {"torus:4x4", 16, 1, "order=oo,seed=7",
         {{11, 0}, {8, 0}, {15, 0}, {12, 0}, {13, 0}, {9, 0},
          {5, 0}, {0, 0}, {3, 0}, {1, 0}, {7, 0}, {10, 0}}},
        {"torus:4x4", 8, 2, "order=oo,seed=7,pack=0",
         {{5, 0}, {5, 1}, {1, 0}, {7, 0}, {6, 0}, {6, 1},
          {7, 1}, {0, 0}, {0, 1}, {1, 1}, {4, 0}, {3, 0}}},
        {"torus:4x4", 16, 1, "order=oo,seed=7,delta=3",
         {{11, 0}, {7, 0}, {4, 0}, {8, 0}, {5, 0}, {9, 0},
          {10, 0}, {6, 0}, {1, 0}, {13, 0}, {12, 0}, {14, 0}}},
        {"dragonfly:3,2,2", 12, 1, "order=oo,seed=7",
         {{8, 0}, {9, 0}, {2, 0}, {7, 0}, {11, 0}, {6, 0},
          {5, 0}, {0, 0}, {4, 0}, {1, 0}, {3, 0}, {10, 0}}},
        {"flat", 6, 3, "order=oo,seed=3",
         {{4, 0}, {4, 1}, {4, 2}, {3, 0}, {3, 1}, {3, 2},
          {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}},
        {"dragonfly:3,2,2", 12, 1, "order=oo,delta=3",
         {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {8, 0}, {9, 0},
          {10, 0}, {11, 0}, {6, 0}, {7, 0}, {4, 0}, {5, 0}}},
        /* Two leaves of 4 nodes (nodes -1), 2 slots: leaf0 fills first. */
        {"fattree", -1, 2, "order=oo",
         {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
          {3, 0}, {3, 1}, {4, 0}, {4, 1}, {5, 0}, {5, 1}}},
        /* Delta = 3: from node 3 the walk goes over leaf0's 4 full nodes,
         * more than the 4 free ones, and gives way to the free list, 7 6
         * 5 4 by then (each full node took the last one's place): of 7, 6
         * and 5, node 5. */
        {"fattree", -1, 2, "order=oo,delta=3",
         {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
          {3, 0}, {3, 1}, {5, 0}, {5, 1}, {4, 0}, {4, 1}}},
        {"fattree", -1, 2, "order=oo,delta=3,pack=0",
         {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
          {3, 0}, {3, 1}, {4, 0}, {4, 1}, {5, 0}, {5, 1}}},
        {"fattree", -1, 2, "order=oo,seed=7",
         {{5, 0}, {5, 1}, {1, 0}, {1, 1}, {7, 0}, {7, 1},
          {4, 0}, {4, 1}, {3, 0}, {3, 1}, {2, 0}, {2, 1}}},
        /* Uneven slots: the draw weighs nodes by their free slots. */
        {"flat", 0, 0, "order=oo,seed=5,pack=0",
         {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {4, 1},
          {4, 2}, {0, 0}, {2, 1}, {0, 1}, {0, 2}, {5, 1}}},
        {"mesh:6", 0, 0, "order=oo,seed=9",
         {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {5, 0}, {5, 1},
          {4, 0}, {4, 1}, {4, 2}, {2, 0}, {2, 1}, {3, 0}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_machine *m =
            cases[i].nodes < 0 ? gt_two_leaves(cases[i].slots)
            : cases[i].nodes   ? gt_machine_on(cases[i].nodes, cases[i].slots,
                                               cases[i].spec)
                               : gt_uneven_on(uneven, 6, cases[i].spec);
        gm_place map[12];
        gt_map_with(g, m, cases[i].config, map);
        for (int t = 0; t < 12; t++)
            ck_assert_msg(map[t].node == cases[i].want[t][0] &&
                              map[t].slot == cases[i].want[t][1],
                          "%s, %s: task %d on (%d, %d), not (%d, %d)",
                          cases[i].spec, cases[i].config, t, map[t].node,
                          map[t].slot, cases[i].want[t][0],
                          cases[i].want[t][1]);
        gm_machine_free(m);
    }
    tg_graph_free(g);
}
END_TEST

START_TEST(costs_differ)
{
    /* mesh:3x3 (node = 3x + y), one slot per node, OO, seed 0.  Edges 0-1
     * (10), 1-2 (1), 0-3 (1), 2-3 (2).  Task 0 on node 0; task 1 next to
     * it, node 1 (nodes 1 and 3 tie, the lower id); task 2 next to task 1,
     * node 2 (nodes 2 and 4 tie).  Per-task hop-bytes are then 10, 11, 1.
     * Task 3 talks to task 0 (1 byte) and task 2 (2 bytes):
     *   node 3 (1,0): h = 1 + 2 x 3 = 7, task 0 -> 11: maximum 11;
     *   node 4 (1,1): h = 2 + 2 x 2 = 6, task 0 -> 12: 12;
     *   node 5 (1,2): h = 3 + 2 x 1 = 5, task 0 -> 13: 13;
     *   nodes 6, 7, 8: h = 10, 9, 8, task 0 -> 12, 13, 14.
     * Hop-bytes takes node 5, max hop-bytes node 3.  Max link load: the
     * only load above 2 is task 1's 10 bytes on (0,1)->(0,0), which every
     * candidate's least-loaded routes avoid, so all tie at 10 and
     * hop-bytes decides: node 5. */
    const int e[][3] = {{0, 1, 10}, {1, 2, 1}, {0, 3, 1}, {2, 3, 2}};
    tg_graph *g = tu_graph(4, 4, e);
    gm_machine *m = gt_machine_on(9, 1, "mesh:3x3");
    gm_place map[4];
    const int hop[][2] = {{0, 0}, {1, 0}, {2, 0}, {5, 0}};
    const int max[][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    gm_metrics r;
    tg_error err;
    gt_map_with(g, m, "cost=hopbytes", map);
    gt_assert_map(map, hop, 4);
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &r, &err), 0);
    ck_assert_uint_eq(r.hop_bytes_max, 13);
    gt_map_with(g, m, "cost=maxhopbytes", map);
    gt_assert_map(map, max, 4);
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &r, &err), 0);
    ck_assert_uint_eq(r.hop_bytes_max, 11);
    gt_map_with(g, m, "cost=maxlinkload", map);
    gt_assert_map(map, hop, 4);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(optimal_hop_bytes_on_rings_and_tori)
{
    /* A ring of 8 tasks on torus:8, one slot each: every edge can be one
     * hop, so the optimum is 2 x 8 edges x 3 bytes = 48, and GreedyMap
     * finds it for every seed (after the first two tasks every choice is
     * forced). */
    int ring[8][3];
    for (int i = 0; i < 8; i++) {
        ring[i][0] = i;
        ring[i][1] = (i + 1) % 8;
        ring[i][2] = 3;
    }
    tg_graph *g = tu_graph(8, 8, (const int(*)[3])ring);
    gm_machine *m = gt_machine_on(8, 1, "torus:8");
    gm_place map[8];
    for (uint64_t seed = 0; seed < 6; seed++) {
        char text[64];
        snprintf(text, sizeof text, "order=oo,seed=%llu",
                 (unsigned long long)seed);
        gt_map_with(g, m, text, map);
        ck_assert_uint_eq(gt_hop_bytes(g, m, map), 48);
        snprintf(text, sizeof text, "order=bfsdfs,delta=2,seed=%llu",
                 (unsigned long long)seed);
        gt_map_with(g, m, text, map);
        ck_assert_uint_eq(gt_hop_bytes(g, m, map), 48);
    }
    tg_graph_free(g);
    gm_machine_free(m);

    /* A periodic 4x4 stencil (32 edges) on torus:4x4: the optimum puts
     * every edge on one hop, 2 x 32 = 64; so does OO with Delta = sqrt. */
    tg_stencil_options o = {2, {4, 4}, 1, 0, 1};
    tg_error err;
    ck_assert_int_eq(tg_gen_stencil(&o, &g, &err), 0);
    m = gt_machine_on(16, 1, "torus:4x4");
    gm_place map16[16];
    gt_map_with(g, m, "order=oo,delta=sqrt", map16);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map16), 64);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

/* ----------------------------------------------- part order, GPARTRB */

START_TEST(part_order_of_a_path)
{
    /* Four parts of three tasks, each part a path of heavy edges (10):
     * part 0 = 0-5-10, part 1 = 1-6-11, part 2 = 2-7-8, part 3 = 3-4-9.
     * Light edges (1) join them into a path of parts 2 - 0 - 3 - 1:
     * 8-0, 5-4, 3-11.  George-Liu from part 0: depth 2, last level {1};
     * from 1 depth 3, last level {2}; from 2 depth 3, not deeper: the
     * start is part 1.  Maximum adjacency then walks the path: 1, 3, 0, 2.
     * Inside: part 1 (first) from its lowest task, 1, 6, 11; part 3 from
     * 3 (its edge to part 1), 3, 4, 9; part 0 from 5 (edge to part 3),
     * 5's neighbours in id order: 5, 0, 10; part 2 from 8: 8, 7, 2. */
    const int e[][3] = {{0, 5, 10}, {5, 10, 10}, {1, 6, 10}, {6, 11, 10},
                        {2, 7, 10}, {7, 8, 10},  {3, 4, 10}, {4, 9, 10},
                        {8, 0, 1},  {5, 4, 1},   {3, 11, 1}};
    tg_graph *g = tu_graph(12, 11, e);
    const int part[] = {0, 1, 2, 3, 3, 0, 1, 2, 2, 3, 0, 1};
    const int want[] = {1, 6, 11, 3, 4, 9, 5, 0, 10, 8, 7, 2};
    int order[12];
    tg_error err;
    ck_assert_int_eq(gm_part_order(g, part, 4, order, &err), 0);
    for (int i = 0; i < 12; i++)
        ck_assert_msg(order[i] == want[i], "position %d is %d, not %d", i,
                      order[i], want[i]);
    /* A fifth part with no task, and one with no edge to the others:
     * both are components of their own, listed after the path by their
     * lowest part (the empty one lists nothing). */
    const int part6[] = {0, 1, 2, 3, 3, 0, 1, 2, 2, 3, 0, 1};
    ck_assert_int_eq(gm_part_order(g, part6, 6, order, &err), 0);
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(order[i], want[i]);
    const int bad[] = {0, 1, 2, 3, 3, 0, 1, 2, 2, 3, 0, 4};
    ck_assert_int_eq(gm_part_order(g, bad, 4, order, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "task 11 is in part 4, not in 0 .. 3");
    tg_graph_free(g);

    /* A part whose own edges do not reach all of it restarts at its
     * lowest task not listed: parts {0, 1, 2} and {3, 4}; edges 0-1 (5)
     * inside, 2-3 (1) across, 4 alone.  Part 0 first (George-Liu from
     * part 0: depth 1; from part 1 depth 1, not deeper), from task 0: 0,
     * 1, then 2; part 1 from 3 (its edge to part 0), then 4. */
    const int e2[][3] = {{0, 1, 5}, {2, 3, 1}};
    g = tu_graph(5, 2, e2);
    const int part2[] = {0, 0, 0, 1, 1};
    const int want2[] = {0, 1, 2, 3, 4};
    ck_assert_int_eq(gm_part_order(g, part2, 2, order, &err), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(order[i], want2[i]);
    tg_graph_free(g);
}
END_TEST

START_TEST(gpartrb_parts)
{
    /* GPARTRB's parts are the rb baseline's nodes: in the list, each
     * node's tasks are consecutive, every node's run is as long as its
     * slots (as many tasks as slots), and the same seed gives the same
     * list. */
    const int slots[] = {3, 5, 2, 6};
    gm_machine *m = gt_uneven_on(slots, 4, "mesh:4");
    for (unsigned s = 1; s <= 3; s++) {
        tg_graph *g = tu_random_graph(16, 3, s);
        gm_place rb[16];
        int order[16], again[16], seen[4] = {0};
        tg_error err;
        ck_assert_int_eq(gm_baseline_map(g, m, GM_BASE_RB, s, rb, &err), 0);
        gm_config c = gt_config("order=gpartrb");
        c.seed = s;
        ck_assert_int_eq(gm_task_order(g, m, &c, order, &err), 0);
        ck_assert_int_eq(gm_task_order(g, m, &c, again, &err), 0);
        ck_assert(!memcmp(order, again, sizeof order));
        for (int i = 0; i < 16;) {
            int node = rb[order[i]].node, run = 0;
            ck_assert_msg(!seen[node]++, "node %d's tasks are split", node);
            while (i < 16 && rb[order[i]].node == node) {
                i++;
                run++;
            }
            ck_assert_int_eq(run, slots[node]);
        }
        tg_graph_free(g);
    }
    gm_machine_free(m);
}
END_TEST

START_TEST(spread_breaks_ties_into_squares)
{
    /* A 4-clique (weights 1) on mesh:3x3 (node = 3x + y), one slot per
     * node, OO, seed 0.  Task 0 on node 0; task 1 at hop 1: nodes 1 and 3
     * tie at every rule, the lower id: node 1.  Task 2: nodes 2 (0,2), 3
     * (1,0) and 4 (1,1) all cost 3; spread (squared Euclidean distances
     * to nodes 0 and 1): 4 + 1 = 5, 1 + 2 = 3, 2 + 1 = 3; of 3 and 4, node
     * 4 is nearer the last node (1).  Task 3 then costs 4 on node 3 and
     * closes the square: pairwise distances 1, 2, 1, 1, 2, 1, hop-bytes
     * 2 x 8.  Without the spread, task 2 took node 2 (nearest the last
     * node, lower id) and task 3 node 4: a line with a bump, 2 x 9. */
    const int e[][3] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1},
                        {1, 2, 1}, {1, 3, 1}, {2, 3, 1}};
    tg_graph *g = tu_graph(4, 6, e);
    gm_machine *m = gt_machine_on(9, 1, "mesh:3x3");
    gm_place map[4];
    const int want[][2] = {{0, 0}, {1, 0}, {4, 0}, {3, 0}};
    gt_map_with(g, m, "order=oo,delta=all", map);
    gt_assert_map(map, want, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 16);
    gt_map_with(g, m, "order=oo,delta=all,pack=0", map);
    gt_assert_map(map, want, 4);
    gm_machine_free(m);
    /* Off tori and meshes no spread: on a fat-tree of two leaves every
     * node of the first leaf ties for task 1 and 2, the lowest id wins. */
    m = gt_two_leaves(1);
    const int ft[][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    gt_map_with(g, m, "order=oo,delta=all", map);
    gt_assert_map(map, ft, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 2 * 6 * 2);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(centre_on_the_neighbours)
{
    /* mesh:3x3 (node = 3x + y), one slot per node, OO, Delta = 1, pack
     * = 0, seed 0.  Tasks 1 and 2 have no edge; task 3 talks to task 0
     * (1 byte).  Task 0 on node 0; task 1: the free node nearest node 0,
     * node 1 (the walk yields (0,1) before (1,0)); task 2: nearest node 1,
     * node 2.  Task 3 with centre=last: the free node nearest node 2 is
     * node 5 (1,2), 3 hops from task 0; with centre=nbr the walk starts
     * at node 0, where task 0 is, and finds node 3 (1,0), 1 hop. */
    const int e[][3] = {{0, 3, 1}};
    tg_graph *g = tu_graph(4, 1, e);
    gm_machine *m = gt_machine_on(9, 1, "mesh:3x3");
    gm_place map[4];
    const int last[][2] = {{0, 0}, {1, 0}, {2, 0}, {5, 0}};
    gt_map_with(g, m, "order=oo,delta=1,pack=0", map);
    gt_assert_map(map, last, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 2 * 3);
    const int nbr[][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    gt_map_with(g, m, "order=oo,delta=1,pack=0,centre=nbr", map);
    gt_assert_map(map, nbr, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 2 * 1);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------------ invariants */

/* Algorithm 1's invariants for one mapping: a bijection onto slots
 * (gm_mapping_check), each node's slots used from 0 up, and with
 * packNodeFirst (and no refinement after) a node is left only when
 * full. */
static void check_invariants(const tg_graph *g, const gm_machine *m,
                             const gm_config *c, const gm_place *map)
{
    char text[256];
    gm_config_format(c, text, sizeof text);
    tg_error err;
    int rc = gm_mapping_check(m, map, g->n, &err);
    ck_assert_msg(rc == 0, "%s: %s", text, err.text);
    int nodes = gm_machine_nodes(m);
    int *used = calloc((size_t)nodes, sizeof *used);
    int64_t *slotsum = calloc((size_t)nodes, sizeof *slotsum);
    for (int t = 0; t < g->n; t++) {
        used[map[t].node]++;
        slotsum[map[t].node] += map[t].slot;
    }
    for (int n = 0; n < nodes; n++)
        ck_assert_msg(slotsum[n] == (int64_t)used[n] * (used[n] - 1) / 2,
                      "%s: node %d does not use its lowest slots", text, n);
    if (c->pack && !c->refine) { /* the refinement reorders tasks */
        int *order = malloc((size_t)g->n * sizeof *order);
        ck_assert_int_eq(gm_task_order(g, m, c, order, &err), 0);
        memset(used, 0, (size_t)nodes * sizeof *used);
        for (int i = 0; i < g->n; i++) {
            int node = map[order[i]].node;
            if (i > 0) {
                int prev = map[order[i - 1]].node;
                ck_assert_msg(prev == node ||
                                  used[prev] == gm_machine_slots(m, prev),
                              "%s: task %d left node %d before it was full",
                              text, order[i], prev);
            }
            used[node]++;
        }
        free(order);
    }
    free(used);
    free(slotsum);
}

static void portfolio_on(gm_machine *m, int want_configs)
{
    gm_config *cs;
    int nc;
    tg_error err;
    ck_assert_int_eq(gm_configurations(m, &cs, &nc, &err), 0);
    ck_assert_int_eq(nc, want_configs);
    int total = (int)gm_machine_total_slots(m);
    const int sizes[] = {total, total - 3};
    for (int k = 0; k < 2; k++) {
        tg_graph *g = tu_random_graph(sizes[k], 2, (unsigned)(k + total));
        gm_place *map = malloc((size_t)g->n * sizeof *map);
        gm_place *again = malloc((size_t)g->n * sizeof *again);
        for (int i = 0; i < nc; i++)
            for (uint64_t seed = 0; seed < 3; seed += 2) {
                gm_config c = cs[i];
                c.seed = seed;
                char text[256];
                gm_config_format(&c, text, sizeof text);
                int rc = gm_greedymap(g, m, &c, map, &err);
                ck_assert_msg(rc == 0, "%s: %s", text, err.text);
                check_invariants(g, m, &c, map);
                ck_assert_int_eq(gm_greedymap(g, m, &c, again, &err), 0);
                ck_assert_msg(!memcmp(map, again,
                                      (size_t)g->n * sizeof *map),
                              "%s: not reproducible", text);
            }
        free(map);
        free(again);
        tg_graph_free(g);
    }
    free(cs);
}

START_TEST(portfolio_invariants)
{
    /* 6 orders x 9 groups; 13 groups with the wrap = 0 ones on tori; 7
     * where sqrt(nodes) is 4, the small constant; and 3 refined members
     * (see config.c). */
    gm_machine *m = gt_machine_on(6, 3, "flat");
    portfolio_on(m, 57);
    gm_machine_free(m);
    m = gt_machine_on(12, 2, "torus:3x4");
    portfolio_on(m, 57);
    gm_machine_free(m);
    m = gt_machine_on(64, 1, "torus:4x4x4");
    portfolio_on(m, 81);
    gm_machine_free(m);
    m = gt_machine_on(6, 3, "mesh:2x3");
    portfolio_on(m, 57);
    gm_machine_free(m);
    m = gt_machine_on(16, 2, "torus:4x4m");
    portfolio_on(m, 57);
    gm_machine_free(m);
    m = gt_machine_on(12, 2, "dragonfly:3,2,2");
    portfolio_on(m, 45);
    gm_machine_free(m);
    m = gt_two_leaves(2);
    portfolio_on(m, 57);
    gm_machine_free(m);
    const int slots[] = {1, 3, 2, 4, 1};
    m = gt_uneven_on(slots, 5, "mesh:5");
    portfolio_on(m, 57);
    gm_machine_free(m);
    m = gt_uneven_on(slots, 5, "flat");
    portfolio_on(m, 57);
    gm_machine_free(m);
}
END_TEST

START_TEST(seeds)
{
    /* No edges: every placement ties, so the seed decides everything. */
    tg_graph *g = tu_graph(12, 0, NULL);
    gm_machine *m = gt_machine_on(12, 2, "torus:3x4");
    gm_place a[12], b[12];
    int differ = 0;
    for (uint64_t s = 1; s < 6; s++) {
        char text[64];
        snprintf(text, sizeof text, "pack=0,seed=%llu",
                 (unsigned long long)s);
        gt_map_with(g, m, text, a);
        snprintf(text, sizeof text, "pack=0,seed=%llu",
                 (unsigned long long)s + 1);
        gt_map_with(g, m, text, b);
        differ += memcmp(a, b, sizeof a) != 0;
    }
    ck_assert_int_ge(differ, 4);
    /* Seed 0 has no randomness: first task on node 0, ties to the closest
     * node to the last one, then the lowest id: with no edges and no
     * packing, node 0's two slots, then its neighbours in id order. */
    gt_map_with(g, m, "pack=0,seed=0,delta=all", a);
    ck_assert_int_eq(a[0].node, 0);
    ck_assert_int_eq(a[1].node, 0);
    ck_assert_int_eq(a[2].node, 1);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(greedymap_errors)
{
    tg_graph *g = tu_graph(5, 0, NULL);
    gm_machine *m = gt_machine_on(2, 2, "flat");
    gm_place map[5];
    gm_config c = gt_config("");
    tg_error err;
    ck_assert_int_eq(gm_greedymap(g, m, &c, map, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "5 tasks do not fit on 4 slots");
    c.delta = -2;
    ck_assert_int_eq(gm_greedymap(g, m, &c, map, &err), TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "delta -2"));
    c = gt_config("");
    c.order = GM_ORDER_FILE;
    ck_assert_int_eq(gm_greedymap(g, m, &c, map, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "configuration: order=file without a file");
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ----------------------------------------------------------- link loads */

START_TEST(loads_peek)
{
    /* flat, 3 nodes: flows 0->1 (5 bytes) and 0->2 (7) share node 0's up
     * link: 12 after both.  The peek changes nothing; the commit agrees. */
    gm_machine *m = gt_machine_on(3, 1, "flat");
    gm_loads *l;
    tg_error err;
    ck_assert_int_eq(gm_loads_new(m, &l, &err), 0);
    int a[] = {0, 0, 1}, b[] = {1, 2, 1};
    uint64_t w[] = {5, 7, 100}, x;
    ck_assert_int_eq(gm_loads_peek(l, a, b, w, 3, GM_ROUTE_FIXED, &x, &err),
                     0);
    ck_assert_uint_eq(x, 12);
    ck_assert_uint_eq(gm_loads_max(l, NULL), 0);
    ck_assert_uint_eq(gm_loads_add_flows(l, a, b, w, 3, GM_ROUTE_FIXED), 12);
    gm_loads_free(l);
    gm_machine_free(m);

    /* torus:4x4, least-loaded routes: the peek sees its own earlier flows
     * as the commit does, on top of loads already there. */
    m = gt_machine_on(16, 1, "torus:4x4");
    ck_assert_int_eq(gm_loads_new(m, &l, &err), 0);
    gm_loads_add(l, 0, 5, 9, GM_ROUTE_LEAST_LOADED);
    gm_loads_add(l, 1, 6, 4, GM_ROUTE_LEAST_LOADED);
    int nl = gm_link_count(m);
    uint64_t *before = malloc((size_t)nl * sizeof *before);
    for (int i = 0; i < nl; i++)
        before[i] = gm_loads_get(l, i);
    int fa[] = {0, 0, 0, 4}, fb[] = {5, 5, 10, 6};
    uint64_t fw[] = {3, 3, 2, 8};
    ck_assert_int_eq(gm_loads_peek(l, fa, fb, fw, 4, GM_ROUTE_LEAST_LOADED,
                                   &x, &err),
                     0);
    for (int i = 0; i < nl; i++)
        ck_assert_uint_eq(gm_loads_get(l, i), before[i]);
    ck_assert_uint_eq(gm_loads_add_flows(l, fa, fb, fw, 4,
                                         GM_ROUTE_LEAST_LOADED),
                      x);
    ck_assert_uint_ge(x, 9);
    free(before);
    gm_loads_free(l);
    gm_machine_free(m);
}
END_TEST

/* --------------------------------------------------------- config text */

START_TEST(config_text)
{
    gm_config c = gt_config("");
    char buf[256];
    ck_assert_str_eq(gm_config_format(&c, buf, sizeof buf),
                     "order=oo,delta=all,pack=1,cost=hopbytes,wrap=1,"
                     "centre=last,refine=0,seed=0");
    ck_assert_int_eq(c.centre, GM_CENTRE_LAST);
    c = gt_config("centre=nbr,order=gpartrb");
    ck_assert_int_eq(c.order, GM_ORDER_GPARTRB);
    ck_assert_int_eq(c.centre, GM_CENTRE_NBR);
    ck_assert_str_eq(gm_config_format(&c, buf, sizeof buf),
                     "order=gpartrb,delta=all,pack=1,cost=hopbytes,wrap=1,"
                     "centre=nbr,refine=0,seed=0");
    c = gt_config("seed=18446744073709551615,cost=maxlinkload,wrap=0,"
                  "pack=0,delta=sqrt,order=bfsdfs");
    ck_assert_int_eq(c.order, GM_ORDER_BFSDFS);
    ck_assert_int_eq(c.delta, GM_DELTA_SQRT);
    ck_assert_int_eq(c.pack, 0);
    ck_assert_int_eq(c.cost, GM_COST_MAXLINKLOAD);
    ck_assert_int_eq(c.wrap, 0);
    ck_assert_uint_eq(c.seed, UINT64_MAX);
    ck_assert_str_eq(gm_config_format(&c, buf, sizeof buf),
                     "order=bfsdfs,delta=sqrt,pack=0,cost=maxlinkload,"
                     "wrap=0,centre=last,refine=0,"
                     "seed=18446744073709551615");
    c = gt_config("delta=12,cost=maxhopbytes,order=file:/tmp/a,b=c");
    ck_assert_int_eq(c.order, GM_ORDER_FILE);
    ck_assert_str_eq(c.order_file, "/tmp/a,b=c");
    ck_assert_int_eq(c.delta, 12);
    ck_assert_str_eq(gm_config_format(&c, buf, sizeof buf),
                     "delta=12,pack=1,cost=maxhopbytes,wrap=1,centre=last,"
                     "refine=0,seed=0,order=file:/tmp/a,b=c");

    /* Every portfolio member, and a file order, round-trips. */
    gm_machine *m = gt_machine_on(64, 4, "torus:4x4x4");
    gm_config *cs;
    int nc;
    tg_error err;
    ck_assert_int_eq(gm_configurations(m, &cs, &nc, &err), 0);
    ck_assert_int_eq(nc, 81);
    for (int i = 0; i <= nc; i++) {
        gm_config a = i < nc ? cs[i] : c, back;
        char again[256];
        gm_config_format(&a, buf, sizeof buf);
        ck_assert_int_eq(gm_config_parse(buf, &back, &err), 0);
        ck_assert_str_eq(gm_config_format(&back, again, sizeof again), buf);
        ck_assert_int_eq(back.order, a.order);
        ck_assert_int_eq(back.delta, a.delta);
        ck_assert_int_eq(back.pack, a.pack);
        ck_assert_int_eq(back.cost, a.cost);
        ck_assert_int_eq(back.wrap, a.wrap);
        ck_assert_int_eq(back.centre, a.centre);
        ck_assert_int_eq(back.refine, a.refine);
        ck_assert_uint_eq(back.seed, a.seed);
    }
    free(cs);
    gm_machine_free(m);

    struct {
        const char *text, *msg;
    } bad[] = {
        {"order=foo", "bad order 'foo' (oo, bfs, bfsdfs, gpart, rcm, "
                      "gpartrb or file:PATH)"},
        {"centre=heavy", "bad centre 'heavy' (last or nbr)"},
        {"order=file:", "bad order 'file:'"},
        {"delta=0", "bad delta '0' (all, sqrt or a positive integer)"},
        {"delta=-3", "bad delta '-3'"},
        {"delta=2147483648", "bad delta '2147483648'"},
        {"pack=2", "bad pack '2' (0 or 1)"},
        {"wrap=yes", "bad wrap 'yes' (0 or 1)"},
        {"cost=time", "bad cost 'time' (hopbytes, maxhopbytes or "
                      "maxlinkload)"},
        {"seed=18446744073709551616", "bad seed '18446744073709551616'"},
        {"seed=", "bad seed ''"},
        {"colour=red", "unknown key 'colour' (order, delta, pack, cost, "
                       "wrap, centre, refine, seed, baseline)"},
        {"order=bfs,order=oo", "'order' is given twice"},
        {"order", "'order' is not key=value"},
        {"order=bfs,,pack=1", "an empty item"},
        {"order=bfs,", "an empty item"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gm_config x;
        ck_assert_int_eq(gm_config_parse(bad[i].text, &x, &err), TG_EINVAL);
        char want[256];
        snprintf(want, sizeof want, "configuration '%s': ", bad[i].text);
        ck_assert_msg(!strncmp(err.text, want, strlen(want)) &&
                          strstr(err.text, bad[i].msg),
                      "%s: got '%s'", bad[i].text, err.text);
    }
}
END_TEST

START_TEST(portfolio_shape)
{
    /* Off tori no wrap variants; Deltas that coincide appear once: on 4
     * nodes, 4 and sqrt(4) = 2 < 4: only sqrt and all remain. */
    gm_config *cs;
    int nc;
    tg_error err;
    gm_machine *m = gt_machine_on(4, 2, "mesh:4");
    ck_assert_int_eq(gm_configurations(m, &cs, &nc, &err), 0);
    ck_assert_int_eq(nc, 6 * (2 + 1 + 1 + 2 + 1) + 3);
    for (int i = 0; i < nc; i++) {
        /* The refined members come last, with the hop-bytes cost. */
        ck_assert_int_eq(cs[i].refine, i >= nc - 3);
        ck_assert(!cs[i].refine || cs[i].cost == GM_COST_HOPBYTES);
        ck_assert_int_eq(cs[i].wrap, 1);
        ck_assert_int_eq(cs[i].seed, 0);
        /* GPARTRB, and only it, looks around the placed neighbours. */
        ck_assert_int_eq(cs[i].order == GM_ORDER_GPARTRB,
                         cs[i].centre == GM_CENTRE_NBR);
        ck_assert(cs[i].delta == GM_DELTA_SQRT ||
                  cs[i].delta == GM_DELTA_ALL);
    }
    /* Packing first: the fastest. */
    ck_assert_int_eq(cs[0].pack, 1);
    ck_assert_int_eq(cs[nc - 4].pack, 0);
    /* BFS without packing, GPART and GPARTRB with, at the smallest Delta
     * (sqrt(4) = 2 here); GPARTRB keeps wrap = 1 off tori. */
    ck_assert_int_eq(cs[nc - 3].order, GM_ORDER_BFS);
    ck_assert_int_eq(cs[nc - 3].pack, 0);
    ck_assert_int_eq(cs[nc - 2].order, GM_ORDER_GPART);
    ck_assert_int_eq(cs[nc - 1].order, GM_ORDER_GPARTRB);
    ck_assert_int_eq(cs[nc - 1].pack, 1);
    ck_assert_int_eq(cs[nc - 1].delta, GM_DELTA_SQRT);
    free(cs);
    gm_machine_free(m);
    /* On a torus GPARTRB's refined member explores without wrap. */
    m = gt_machine_on(64, 1, "torus:4x4x4");
    ck_assert_int_eq(gm_configurations(m, &cs, &nc, &err), 0);
    ck_assert_int_eq(cs[nc - 1].wrap, 0);
    ck_assert_int_eq(cs[nc - 1].delta, 4);
    ck_assert_int_eq(cs[nc - 2].wrap, 1);
    free(cs);
    gm_machine_free(m);
}
END_TEST

static Suite *greedy_suite(void)
{
    Suite *s = suite_create("greedy");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, orders_of_a_comb);
    tcase_add_test(tc, orders_of_a_disconnected_graph);
    tcase_add_test(tc, file_order);
    tcase_add_test(tc, gpart_part_sizes);
    tcase_add_test(tc, gpart_weights_beyond_32_bits);
    tcase_add_test(tc, part_order_of_a_path);
    tcase_add_test(tc, gpartrb_parts);
    tcase_add_test(tc, spread_breaks_ties_into_squares);
    tcase_add_test(tc, centre_on_the_neighbours);
    tcase_add_test(tc, path_on_two_nodes);
    tcase_add_test(tc, path_on_a_ring_of_nodes);
    tcase_add_test(tc, delta_limits_the_candidates);
    tcase_add_test(tc, lone_tasks_tie_breaks);
    tcase_add_test(tc, costs_differ);
    tcase_add_test(tc, optimal_hop_bytes_on_rings_and_tori);
    tcase_add_test(tc, portfolio_invariants);
    tcase_add_test(tc, seeds);
    tcase_add_test(tc, greedymap_errors);
    tcase_add_test(tc, loads_peek);
    tcase_add_test(tc, config_text);
    tcase_add_test(tc, portfolio_shape);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(greedy_suite);
}
