/* test_baselines.c: the baseline mappers of libgreedymap (block, cyclic,
 * hilbert, rb, random, drb) and the intra-node topology (hwloc synthetic
 * strings and XML files, packages of slots, cross-socket bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm_testutil.h"
#include "greedymap.h"
#include "testutil.h"

/* ------------------------------------------------------------- helpers */

/* Nodes n0, n1, ... with the given slots, on `spec` (NULL: flat). */
static gm_machine *machine(const int *slots, int n, const char *spec)
{
    gm_machine *m = gm_machine_new();
    tg_error err;
    for (int i = 0; i < n; i++) {
        char host[16];
        snprintf(host, sizeof host, "n%d", i);
        ck_assert_int_eq(gm_machine_add_node(m, host, slots[i], &err), i);
    }
    if (spec) {
        int rc = gm_machine_set_network_spec(m, spec, NULL, &err);
        ck_assert_msg(rc == 0, "%s: %s", spec, err.text);
    }
    return m;
}

static gm_machine *uniform_on(int nodes, int slots, const char *spec)
{
    int *s = malloc((size_t)nodes * sizeof *s);
    for (int i = 0; i < nodes; i++)
        s[i] = slots;
    gm_machine *m = machine(s, nodes, spec);
    free(s);
    return m;
}

/* A ring of n tasks plus a chord from every task to task + n/3. */
static tg_graph *ring(int n)
{
    tg_builder *b = tg_builder_new(n);
    tg_error err;
    for (int t = 0; n > 2 && t < n; t++) {
        ck_assert_int_eq(tg_builder_add(b, t, (t + 1) % n, 10, &err), 0);
        if (n > 6)
            ck_assert_int_eq(tg_builder_add(b, t, (t + n / 3) % n, 1, &err),
                             0);
    }
    tg_graph *g = NULL;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    return g;
}

static gm_place *run_ok(const tg_graph *g, const gm_machine *m,
                        gm_baseline b, uint64_t seed)
{
    gm_place *map = malloc(((size_t)g->n + 1) * sizeof *map);
    tg_error err;
    int rc = gm_baseline_map(g, m, b, seed, map, &err);
    ck_assert_msg(rc == 0, "%s: %s", gm_baseline_name(b), err.text);
    rc = gm_mapping_check(m, map, g->n, &err);
    ck_assert_msg(rc == 0, "%s: %s", gm_baseline_name(b), err.text);
    return map;
}

static void assert_map(const gm_place *map, const int expect[][2], int n)
{
    for (int t = 0; t < n; t++) {
        ck_assert_msg(map[t].node == expect[t][0] &&
                          map[t].slot == expect[t][1],
                      "task %d on (%d, %d), expected (%d, %d)", t,
                      map[t].node, map[t].slot, expect[t][0], expect[t][1]);
    }
}

/* ------------------------------------------------------ names, errors */

START_TEST(names)
{
    const char *names[] = {"block",  "cyclic",    "hilbert",
                           "rb",     "random",    "decompose", "drb"};
    tg_error err;
    for (int i = 0; i < 7; i++) {
        gm_baseline b;
        ck_assert_int_eq(gm_baseline_parse(names[i], &b, &err), 0);
        ck_assert_int_eq(b, i);
        ck_assert_str_eq(gm_baseline_name(b), names[i]);
    }
    gm_baseline b;
    ck_assert_int_eq(gm_baseline_parse("default", &b, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "unknown baseline 'default' (expected block, "
                               "cyclic, hilbert, rb, random, decompose or "
                               "drb)");
}
END_TEST

START_TEST(too_many_tasks)
{
    const int slots[] = {2, 3, 1};
    gm_machine *m = machine(slots, 3, NULL);
    tg_graph *g = ring(7);
    gm_place map[7];
    tg_error err;
    for (int b = GM_BASE_BLOCK; b <= GM_BASE_RANDOM; b++) {
        ck_assert_int_eq(gm_baseline_map(g, m, b, 1, map, &err), TG_EINVAL);
        ck_assert_str_eq(err.text, "7 tasks but the machine has 6 slots");
    }
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(hilbert_needs_coordinates)
{
    const char *conf = tu_write("topology.conf",
                                "SwitchName=leaf0 Nodes=a[0-1]\n"
                                "SwitchName=leaf1 Nodes=a[2-3]\n"
                                "SwitchName=top Switches=leaf[0-1]\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    const char *specs[] = {spec, "flat", "dragonfly:2,2,1"};
    tg_graph *g = ring(4);
    gm_place map[4];
    tg_error err;
    for (int i = 0; i < 3; i++) {
        gm_machine *m = uniform_on(4, 1, specs[i]);
        ck_assert_int_eq(gm_baseline_map(g, m, GM_BASE_HILBERT, 0, map, &err),
                         TG_EINVAL);
        ck_assert_str_eq(err.text, "hilbert needs a torus or mesh network");
        gm_machine_free(m);
    }
    tg_graph_free(g);
}
END_TEST

/* ---------------------------------------------------- block and cyclic */

START_TEST(block_cyclic_unequal)
{
    const int slots[] = {2, 3, 1};
    gm_machine *m = machine(slots, 3, NULL);
    tg_graph *g = ring(6);
    gm_place *map = run_ok(g, m, GM_BASE_BLOCK, 0);
    const int block[6][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 0}};
    assert_map(map, block, 6);
    free(map);
    /* n2 is full after one round, n0 after two; n1 takes the rest */
    map = run_ok(g, m, GM_BASE_CYCLIC, 0);
    const int cyclic[6][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {1, 2}};
    assert_map(map, cyclic, 6);
    free(map);
    tg_graph_free(g);
    /* Fewer tasks: block leaves the last processors free, cyclic the
     * highest slots of every node. */
    g = ring(4);
    map = run_ok(g, m, GM_BASE_BLOCK, 0);
    assert_map(map, block, 4);
    free(map);
    map = run_ok(g, m, GM_BASE_CYCLIC, 0);
    assert_map(map, cyclic, 4);
    free(map);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------------- hilbert */

/* The node order hilbert gives (one slot per node). */
static void hilbert_order(const gm_machine *m, int *order)
{
    int n = gm_machine_nodes(m);
    tg_graph *g = ring(n);
    gm_place *map = run_ok(g, m, GM_BASE_HILBERT, 0);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(map[i].slot, 0);
        order[i] = map[i].node;
    }
    free(map);
    tg_graph_free(g);
}

/* Every node once; returns how many consecutive pairs are not at
 * distance 1. */
static int hilbert_jumps(const gm_machine *m)
{
    int n = gm_machine_nodes(m), jumps = 0;
    int *order = malloc((size_t)n * sizeof *order);
    int *seen = calloc((size_t)n, sizeof *seen);
    hilbert_order(m, order);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(seen[order[i]]++, 0);
        if (i && gm_distance(m, order[i - 1], order[i]) != 1)
            jumps++;
    }
    free(order);
    free(seen);
    return jumps;
}

START_TEST(hilbert_4x4)
{
    /* The classic curve: starts at the origin along dimension 0 and ends
     * at (3, 0).  Node = x * 4 + y. */
    const int xy[16][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 2}, {0, 3},
                           {1, 3}, {1, 2}, {2, 2}, {2, 3}, {3, 3}, {3, 2},
                           {3, 1}, {2, 1}, {2, 0}, {3, 0}};
    gm_machine *m = uniform_on(16, 1, "mesh:4x4");
    int order[16];
    hilbert_order(m, order);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(order[i], xy[i][0] * 4 + xy[i][1]);
    gm_machine_free(m);
    /* Slots of a node are consecutive; fewer tasks leave the curve's last
     * processors free. */
    m = uniform_on(16, 2, "torus:4x4");
    tg_graph *g = ring(29);
    gm_place *map = run_ok(g, m, GM_BASE_HILBERT, 0);
    for (int t = 0; t < 29; t++) {
        ck_assert_int_eq(map[t].node, xy[t / 2][0] * 4 + xy[t / 2][1]);
        ck_assert_int_eq(map[t].slot, t % 2);
    }
    free(map);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(hilbert_3d_and_more)
{
    /* 2x2x2: a Gray code (x, y, z), z fastest. */
    const int xyz[8] = {0, 1, 3, 2, 6, 7, 5, 4};
    gm_machine *m = uniform_on(8, 1, "mesh:2x2x2");
    int order[8];
    hilbert_order(m, order);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(order[i], xyz[i]);
    ck_assert_int_eq(hilbert_jumps(m), 0);
    gm_machine_free(m);
    /* Powers of two in 3 to 5 dimensions: a true Hilbert curve, every
     * step between neighbours. */
    const char *cubes[] = {"mesh:4x4x4", "mesh:4x4x4x4", "mesh:2x2x2x2x2",
                           "torus:8x8x8"};
    const int sizes[] = {64, 256, 32, 512};
    for (int i = 0; i < 4; i++) {
        m = uniform_on(sizes[i], 1, cubes[i]);
        ck_assert_msg(hilbert_jumps(m) == 0, "%s", cubes[i]);
        gm_machine_free(m);
    }
}
END_TEST

START_TEST(hilbert_not_power_of_two)
{
    /* 3x5 inside the 8x8 curve: the curve happens to stay inside. */
    const int xy[15][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}, {2, 0},
                           {2, 1}, {2, 2}, {2, 3}, {1, 3}, {1, 2},
                           {0, 2}, {0, 3}, {0, 4}, {1, 4}, {2, 4}};
    gm_machine *m = uniform_on(15, 1, "mesh:3x5");
    int order[15];
    hilbert_order(m, order);
    for (int i = 0; i < 15; i++)
        ck_assert_int_eq(order[i], xy[i][0] * 5 + xy[i][1]);
    ck_assert_int_eq(hilbert_jumps(m), 0);
    gm_machine_free(m);
    /* 5x3 inside the 8x8 curve: its quadrant x, y < 4 is the 4x4 curve
     * with x and y swapped, which without the row y = 3 steps (3,2) ->
     * (1,2); then the curve crosses the absent quadrant x < 4, y >= 4 and
     * comes back at (4,2) from (0,2): two steps between non-neighbours. */
    m = uniform_on(15, 1, "mesh:5x3");
    ck_assert_int_eq(hilbert_jumps(m), 2);
    gm_machine_free(m);
    m = uniform_on(60, 1, "mesh:3x4x5");
    hilbert_jumps(m); /* every node once */
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------------------ rb */

/* Two 4-cliques, the even and the odd tasks (100 bytes per edge), and one
 * light edge (1 byte) between tasks 0 and 1. */
static tg_graph *two_cliques(void)
{
    int edges[13][3], k = 0;
    for (int c = 0; c < 2; c++)
        for (int a = c; a < 8; a += 2)
            for (int b = a + 2; b < 8; b += 2) {
                edges[k][0] = a;
                edges[k][1] = b;
                edges[k++][2] = 100;
            }
    edges[k][0] = 0;
    edges[k][1] = 1;
    edges[k++][2] = 1;
    return tu_graph(8, k, edges);
}

START_TEST(rb_two_cliques)
{
    /* 2x2 torus of 2-slot nodes.  The first cut is along dimension 0:
     * nodes 0, 1 (x = 0) and 2, 3 (x = 1). */
    tg_graph *g = two_cliques();
    gm_machine *m = uniform_on(4, 2, "torus:2x2");
    for (uint64_t seed = 0; seed < 4; seed++) {
        gm_place *map = run_ok(g, m, GM_BASE_RB, seed);
        int half0 = gm_machine_coords(m, map[0].node)[0];
        for (int t = 0; t < 8; t++)
            ck_assert_int_eq(gm_machine_coords(m, map[t].node)[0],
                             t % 2 ? 1 - half0 : half0);
        gm_metrics me;
        tg_error err;
        ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &me, &err), 0);
        /* A clique is split 2 + 2 over the nodes of its half: 4 of its 6
         * edges cross one link; the light edge goes between the halves. */
        uint64_t light = (uint64_t)gm_distance(m, map[0].node, map[1].node);
        ck_assert_uint_eq(me.hop_bytes_total, 2 * (2 * 4 * 100 + light));
        free(map);
    }
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(rb_fattree_leaves)
{
    /* Two leaves of two 2-slot nodes: the node halves are the leaves (by
     * distance from n2, the node farthest from n0), one clique each. */
    const char *conf = tu_write("leaves.conf", "SwitchName=l0 Nodes=n[0-1]\n"
                                               "SwitchName=l1 Nodes=n[2-3]\n"
                                               "SwitchName=s Switches=l[0-1]\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    const int slots[4] = {2, 2, 2, 2};
    gm_machine *m = machine(slots, 4, spec);
    tg_graph *g = two_cliques();
    gm_place *map = run_ok(g, m, GM_BASE_RB, 0);
    int leaf0 = map[0].node / 2;
    for (int t = 0; t < 8; t++)
        ck_assert_int_eq(map[t].node / 2, t % 2 ? 1 - leaf0 : leaf0);
    free(map);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(rb_fewer_tasks_and_networks)
{
    /* 4 nodes of 4 slots, 6 tasks: each half (2 nodes, 8 slots) gets 3
     * tasks, which its nodes share as round(3 x 4 / 8) = 2 and 1. */
    tg_graph *g = ring(6);
    const char *specs[] = {"flat", "mesh:4", "dragonfly:2,2,1"};
    for (int i = 0; i < 3; i++) {
        gm_machine *m = uniform_on(4, 4, specs[i]);
        gm_place *map = run_ok(g, m, GM_BASE_RB, 0);
        int used[4] = {0};
        for (int t = 0; t < 6; t++)
            used[map[t].node]++;
        int sorted[4];
        memcpy(sorted, used, sizeof used);
        for (int a = 0; a < 4; a++)
            for (int b = a + 1; b < 4; b++)
                if (sorted[b] > sorted[a]) {
                    int x = sorted[a];
                    sorted[a] = sorted[b];
                    sorted[b] = x;
                }
        ck_assert_int_eq(sorted[0], 2);
        ck_assert_int_eq(sorted[1], 2);
        ck_assert_int_eq(sorted[2], 1);
        ck_assert_int_eq(sorted[3], 1);
        free(map);
        gm_machine_free(m);
    }
    tg_graph_free(g);
}
END_TEST

/* A path of 8 tasks, 1000 bytes an edge, onto 8 one-slot nodes of
 * mesh:8 and mesh:4x2.  Each bisection of drb weighs the edges leaving
 * its tasks: the end of a half that talks to the other half goes next to
 * it, whichever side METIS gave it, so the path lies along the line
 * (nodes 0..7) and snakes through the 4x2 mesh (node 2x + y: (0,1) (0,0)
 * (1,0) (1,1) (2,1) (2,0) (3,0) (3,1)), every edge one hop: hop-bytes
 * 7 x 1000 x 2 (both ends) = 14,000, the least possible.  rb bisects the
 * same way but places each half's tasks without looking outside it, and
 * ends above (26,000 and 20,000 with Debian's METIS). */
START_TEST(drb_path_aligns)
{
    tg_stencil_options o = {1, {8}, 0, 0, 1000};
    tg_graph *g;
    tg_error err;
    ck_assert_int_eq(tg_gen_stencil(&o, &g, &err), 0);
    static const char *specs[2] = {"mesh:8", "mesh:4x2"};
    static const int want[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7},
                                   {1, 0, 2, 3, 5, 4, 6, 7}};
    for (int s = 0; s < 2; s++) {
        gm_machine *m = uniform_on(8, 1, specs[s]);
        gm_place *map = run_ok(g, m, GM_BASE_DRB, 0);
        for (int t = 0; t < 8; t++)
            ck_assert_msg(map[t].node == want[s][t], "%s: task %d on %d",
                          specs[s], t, map[t].node);
        ck_assert_uint_eq(gt_hop_bytes(g, m, map), 14000);
        gm_place *rb = run_ok(g, m, GM_BASE_RB, 0);
        ck_assert_uint_gt(gt_hop_bytes(g, m, rb), 14000);
        free(rb);
        free(map);
        gm_machine_free(m);
    }
    tg_graph_free(g);
}
END_TEST

/* -------------------------------------------------------------- random */

START_TEST(random_seeded)
{
    gm_machine *m = uniform_on(8, 8, "torus:2x4");
    tg_graph *g = ring(64);
    gm_place *a = run_ok(g, m, GM_BASE_RANDOM, 7);
    gm_place *b = run_ok(g, m, GM_BASE_RANDOM, 7);
    gm_place *c = run_ok(g, m, GM_BASE_RANDOM, 8);
    ck_assert_int_eq(memcmp(a, b, 64 * sizeof *a), 0);
    ck_assert_int_ne(memcmp(a, c, 64 * sizeof *a), 0);
    int in_order = 0; /* not the block mapping in disguise */
    for (int t = 0; t < 64; t++)
        in_order += a[t].node == t / 8 && a[t].slot == t % 8;
    ck_assert_int_lt(in_order, 8);
    free(a);
    free(b);
    free(c);
    tg_graph_free(g);
    /* Fewer tasks than slots: the first steps of the same shuffle. */
    g = ring(10);
    gm_place *d = run_ok(g, m, GM_BASE_RANDOM, 7);
    a = run_ok(g, m, GM_BASE_RANDOM, 7);
    ck_assert_int_eq(memcmp(a, d, 10 * sizeof *a), 0);
    free(a);
    free(d);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* gm_config_seeded: GreedyMap, rb, drb and random take a seed; block,
 * cyclic, hilbert and decompose do not, refined or not, and give the same
 * mapping for any seed (parmapper runs them only once, search.c). */
START_TEST(seeded)
{
    ck_assert_int_eq(gm_config_seeded(&(gm_config){.baseline = 0}), 1);
    ck_assert_int_eq(gm_config_seeded(&(gm_config){.refine = 1}), 1);
    const int want[] = {[GM_BASE_BLOCK] = 0, [GM_BASE_CYCLIC] = 0,
                        [GM_BASE_HILBERT] = 0, [GM_BASE_RB] = 1,
                        [GM_BASE_RANDOM] = 1, [GM_BASE_DECOMPOSE] = 0,
                        [GM_BASE_DRB] = 1};
    for (int b = GM_BASE_BLOCK; b <= GM_BASE_DRB; b++)
        for (int r = 0; r < 2; r++)
            ck_assert_int_eq(
                gm_config_seeded(&(gm_config){.baseline = 1 + b, .refine = r}),
                want[b]);
    gm_machine *m = uniform_on(8, 8, "torus:2x4");
    tg_graph *g = ring(64);
    const gm_baseline unseeded[] = {GM_BASE_BLOCK, GM_BASE_CYCLIC,
                                    GM_BASE_HILBERT};
    for (size_t i = 0; i < sizeof unseeded / sizeof *unseeded; i++) {
        gm_place *a = run_ok(g, m, unseeded[i], 0);
        gm_place *b = run_ok(g, m, unseeded[i], 0x9e3779b97f4a7c15ULL);
        ck_assert_int_eq(memcmp(a, b, 64 * sizeof *a), 0);
        free(a);
        free(b);
    }
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ---------------------------------------------------------- invariants */

/* Every baseline, every network, unequal slots, all or fewer tasks: a
 * valid mapping (gm_mapping_check in run_ok); the deterministic ones use
 * the lowest slots of every node. */
START_TEST(invariants)
{
    const char *conf = tu_write("tree.conf", "SwitchName=l0 Nodes=a[0-5]\n"
                                             "SwitchName=l1 Nodes=a[6-11]\n"
                                             "SwitchName=l2 Nodes=a[12-15]\n"
                                             "SwitchName=s Switches=l[0-2]\n");
    const char *net = tu_write("net.txt", "nodes h0 h1 h2 h3 h4 h5 h6 h7 h8 "
                                          "h9 h10 h11 h12 h13 h14 h15\n"
                                          "h0 r0\nh1 r0\nh2 r0\nh3 r0\n"
                                          "h4 r1\nh5 r1\nh6 r1\nh7 r1\n"
                                          "h8 r2\nh9 r2\nh10 r2\nh11 r2\n"
                                          "h12 r3\nh13 r3\nh14 r3\nh15 r3\n"
                                          "r0 r1\nr1 r2\nr2 r3\nr3 r0\n");
    char tree[700], graph[700];
    snprintf(tree, sizeof tree, "fattree:%s", conf);
    snprintf(graph, sizeof graph, "graph:%s", net);
    const char *specs[] = {"flat",        "torus:4x4", "mesh:3x5",
                           "torus:2x2x4", tree,        graph,
                           "dragonfly:4,2,2"};
    int slots[16];
    for (int i = 0; i < 16; i++)
        slots[i] = 1 + i % 3;
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        gm_machine *m = machine(slots, 15, specs[s]);
        int total = (int)gm_machine_total_slots(m);
        int torus = gm_network_kind(gm_machine_network(m)) == GM_NET_TORUS;
        const int counts[] = {total, total - 7, 1, 0};
        for (int c = 0; c < 4; c++) {
            tg_graph *g = ring(counts[c]);
            for (int b = GM_BASE_BLOCK; b <= GM_BASE_DRB; b++) {
                if ((b == GM_BASE_HILBERT && !torus) ||
                    b == GM_BASE_DECOMPOSE) /* needs a grid: test_decompose */
                    continue;
                gm_place *map = run_ok(g, m, b, 3);
                int used[15] = {0}, maxslot[15];
                for (int i = 0; i < 15; i++)
                    maxslot[i] = -1;
                for (int t = 0; t < g->n; t++) {
                    used[map[t].node]++;
                    if (map[t].slot > maxslot[map[t].node])
                        maxslot[map[t].node] = map[t].slot;
                }
                for (int i = 0; b != GM_BASE_RANDOM && i < 15; i++)
                    ck_assert_msg(maxslot[i] == used[i] - 1,
                                  "%s %s: node %d", specs[s],
                                  gm_baseline_name(b), i);
                free(map);
            }
            tg_graph_free(g);
        }
        gm_machine_free(m);
    }
}
END_TEST

/* -------------------------------------------------------- node topology */

START_TEST(node_topology_synthetic)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 4, &m, &err), 0);
    ck_assert_ptr_null(gm_machine_node_topology(m));
    ck_assert_int_eq(gm_slot_package(m, 0, 0), -1);
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:2 core:2 pu:1",
                                                  &err),
                     0);
    ck_assert_str_eq(gm_machine_node_topology(m), "pack:2 core:2 pu:1");
    const int pkg[4] = {0, 0, 1, 1};
    for (int s = 0; s < 4; s++) {
        ck_assert_int_eq(gm_slot_package(m, 0, s), pkg[s]);
        ck_assert_int_eq(gm_slot_package(m, 1, s), pkg[s]);
    }
    /* 2 packages x 2 cores x 2 PUs: 4 slots are cores, 8 are PUs. */
    ck_assert_int_eq(gm_machine_add_node(m, "big", 8, &err), 2);
    ck_assert_ptr_null(gm_machine_node_topology(m)); /* dropped */
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:2 core:2 pu:2",
                                                  &err),
                     0);
    for (int s = 0; s < 8; s++)
        ck_assert_int_eq(gm_slot_package(m, 2, s), s / 4);
    for (int s = 0; s < 4; s++)
        ck_assert_int_eq(gm_slot_package(m, 1, s), s / 2);
    /* No package level: one package. */
    ck_assert_int_eq(gm_machine_set_node_topology(m, "core:4 pu:2", &err),
                     0);
    ck_assert_int_eq(gm_slot_package(m, 2, 7), 0);
    gm_machine_free(m);
}
END_TEST

START_TEST(node_topology_errors)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(3, 6, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:2 core:2 pu:2",
                                                  &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "node 'node0' has 6 slots but node topology "
                               "'pack:2 core:2 pu:2' has 4 cores and 8 PUs");
    ck_assert_ptr_null(gm_machine_node_topology(m));
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:2 cor:3", &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "node topology 'pack:2 cor:3' is neither a "
                               "readable XML file nor an hwloc synthetic "
                               "description such as \"pack:2 core:16 "
                               "pu:1\"");
    ck_assert_int_eq(gm_machine_set_node_topology(m, "/nonexistent/n.xml",
                                                  &err),
                     TG_EIO);
    ck_assert_str_eq(err.source, "/nonexistent/n.xml");
    ck_assert_str_eq(err.text, "cannot read node topology file: No such "
                               "file or directory");
    const char *bad = tu_write("bad.xml", "<topology>not really</topo");
    ck_assert_int_eq(gm_machine_set_node_topology(m, bad, &err), TG_EPARSE);
    ck_assert_str_eq(err.source, bad);
    ck_assert_str_eq(err.text, "not an hwloc XML topology");
    /* A failed call keeps the topology that was set. */
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:2 core:3 pu:1", &err),
                     0);
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:3 core:3 pu:1", &err),
                     TG_EINVAL);
    ck_assert_str_eq(gm_machine_node_topology(m), "pack:2 core:3 pu:1");
    gm_machine_free(m);
}
END_TEST

START_TEST(cross_socket_bytes)
{
    /* 2 nodes of "pack:2 core:2 pu:1": slots 0, 1 on package 0, slots 2,
     * 3 on package 1. */
    const int edges[6][3] = {{0, 1, 10}, {0, 2, 20},  {1, 3, 40},
                             {2, 3, 80}, {3, 4, 160}, {4, 5, 320}};
    const gm_place map[6] = {{0, 0}, {0, 1}, {0, 2},
                             {0, 3}, {1, 0}, {1, 3}};
    tg_graph *g = tu_graph(6, 6, edges);
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 4, &m, &err), 0);
    gm_metrics me;
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &me, &err), 0);
    ck_assert_int_eq(me.has_node_topology, 0);
    ck_assert_uint_eq(me.cross_socket_bytes, 0);
    ck_assert_int_eq(gm_machine_set_node_topology(m, "pack:2 core:2 pu:1",
                                                  &err),
                     0);
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &me, &err), 0);
    ck_assert_int_eq(me.has_node_topology, 1);
    /* 0-2 and 1-3 cross packages on n0, 4-5 on n1; 3-4 leaves the node */
    ck_assert_uint_eq(me.cross_socket_bytes, 20 + 40 + 320);
    ck_assert_uint_eq(me.offnode_bytes, 160);
    ck_assert_uint_eq(me.bytes, 630);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

/* ------------------------------------------------------ real topologies */

/* Node topology from a file, on one node of `slots` slots. */
static gm_machine *xml_node(const char *name, int slots)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(1, slots, &m, &err), 0);
    int rc = gm_machine_set_node_topology(m, gt_xml_path(name), &err);
    ck_assert_msg(rc == 0, "%s: %s", name, err.text);
    return m;
}

START_TEST(xml_all_load)
{
    /* Every file with its PU count as slots. */
    const struct {
        const char *name;
        int pus;
    } files[] = {{"16amd64-4distances.xml", 16},
                 {"32em64t-2n8c2t-pci-normalio.xml", 32},
                 {"32em64t-2n8c2t-pci-wholeio.xml", 32},
                 {"64intel64-fakeKNL-SNC4-hybrid.xml", 64},
                 {"8intel64-4n2t-memattrs.xml", 8},
                 {"cxlmem+dax.v2.xml", 4},
                 {"nvidiaDGX2.xml", 4},
                 {"power8gpudistances.xml", 16}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        gm_machine *m = xml_node(files[i].name, files[i].pus);
        ck_assert_int_ge(gm_slot_package(m, 0, files[i].pus - 1), 0);
        gm_machine_free(m);
    }
}
END_TEST

START_TEST(xml_packages)
{
    /* DGX-2 as exported: 2 packages of 2 cores, one PU each. */
    gm_machine *m = xml_node("nvidiaDGX2.xml", 4);
    for (int s = 0; s < 4; s++)
        ck_assert_int_eq(gm_slot_package(m, 0, s), s / 2);
    gm_machine_free(m);
    /* KNL: one package of 16 cores x 4 PUs. */
    m = xml_node("64intel64-fakeKNL-SNC4-hybrid.xml", 64);
    ck_assert_int_eq(gm_slot_package(m, 0, 63), 0);
    gm_machine_free(m);
    m = xml_node("64intel64-fakeKNL-SNC4-hybrid.xml", 16);
    ck_assert_int_eq(gm_slot_package(m, 0, 15), 0);
    gm_machine_free(m);
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(1, 32, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_node_topology(
                         m, gt_xml_path("64intel64-fakeKNL-SNC4-hybrid.xml"),
                         &err),
                     TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "has 32 slots"));
    ck_assert_ptr_nonnull(strstr(err.text, "has 16 cores and 64 PUs"));
    gm_machine_free(m);
    /* 2 sockets x 8 cores x 2 threads: cores 0-7 / PUs 0-15 on socket 0. */
    m = xml_node("32em64t-2n8c2t-pci-normalio.xml", 16);
    ck_assert_int_eq(gm_slot_package(m, 0, 7), 0);
    ck_assert_int_eq(gm_slot_package(m, 0, 8), 1);
    gm_machine_free(m);
    m = xml_node("32em64t-2n8c2t-pci-normalio.xml", 32);
    ck_assert_int_eq(gm_slot_package(m, 0, 15), 0);
    ck_assert_int_eq(gm_slot_package(m, 0, 16), 1);
    gm_machine_free(m);
    /* 4 NUMA nodes x 2 PUs, no core or package objects: one package. */
    m = xml_node("8intel64-4n2t-memattrs.xml", 8);
    ck_assert_int_eq(gm_slot_package(m, 0, 7), 0);
    gm_machine_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("baselines");
    TCase *tc = tcase_create("baselines");
    tcase_add_test(tc, names);
    tcase_add_test(tc, too_many_tasks);
    tcase_add_test(tc, hilbert_needs_coordinates);
    tcase_add_test(tc, block_cyclic_unequal);
    tcase_add_test(tc, hilbert_4x4);
    tcase_add_test(tc, hilbert_3d_and_more);
    tcase_add_test(tc, hilbert_not_power_of_two);
    tcase_add_test(tc, rb_two_cliques);
    tcase_add_test(tc, rb_fattree_leaves);
    tcase_add_test(tc, rb_fewer_tasks_and_networks);
    tcase_add_test(tc, drb_path_aligns);
    tcase_add_test(tc, random_seeded);
    tcase_add_test(tc, seeded);
    tcase_add_test(tc, invariants);
    suite_add_tcase(s, tc);
    tc = tcase_create("node topology");
    tcase_add_test(tc, node_topology_synthetic);
    tcase_add_test(tc, node_topology_errors);
    tcase_add_test(tc, cross_socket_bytes);
    suite_add_tcase(s, tc);
    /* The real topologies live outside the project (../shared). */
    if (access(gt_xml_path("nvidiaDGX2.xml"), R_OK) == 0) {
        tc = tcase_create("hwloc xml");
        tcase_add_test(tc, xml_all_load);
        tcase_add_test(tc, xml_packages);
        suite_add_tcase(s, tc);
    } else {
        printf("skipped the hwloc XML tests: %s not found\n",
               gt_xml_path("nvidiaDGX2.xml"));
    }
    return s;
}

int main(void)
{
    return tu_main(suite);
}
