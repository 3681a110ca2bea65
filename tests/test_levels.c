/* test_levels.c: the levels inside a node (node topologies, KaHIP
 * hierarchies), the bytes at each level and the communication cost J of
 * mappings computed by hand, and the slots GreedyMap and the refinement
 * choose by them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

#include "gm_testutil.h"
#include "greedymap.h"
#include "testutil.h"

static gm_machine *with_topology(int nodes, int slots, const char *spec,
                                 const char *topo)
{
    gm_machine *m = gt_machine_on(nodes, slots, spec);
    tg_error err;
    ck_assert_int_eq(gm_machine_set_node_topology(m, topo, &err), 0);
    return m;
}

/* The level called name in lm, its index; the test fails without one. */
static int level(const gm_level_metrics *lm, const char *name)
{
    for (int i = 0; i < lm->nlevels; i++)
        if (!strcmp(lm->name[i], name))
            return i;
    ck_abort_msg("no level %s", name);
    return -1;
}

static void evaluate(const tg_graph *g, const gm_machine *m,
                     const gm_place *map, gm_level_metrics *lm)
{
    tg_error err;
    ck_assert_int_eq(gm_evaluate_levels(g, m, map, lm, &err), 0);
    ck_assert_int_eq(lm->saturated, 0);
}

START_TEST(two_socket_nodes)
{
    /* 2 nodes of "pack:2 core:4" on flat (nodes 2 hops apart): slots 0-3
     * on package 0, 4-7 on package 1.
     *   0-1 (10): (0,0)-(0,1) one package: core, cost 1
     *   0-2 (20): (0,0)-(0,4) two packages: package, cost 4
     *   1-3 (30): (0,1)-(1,0) two nodes: 10 x 2 hops = 20
     *   2-3 (5):  (0,4)-(1,0) two nodes: 20
     *   3-4 (7):  (1,0)-(1,7) two packages: 4
     * J counts every edge from both ends:
     * 2 x (10 x 1 + 27 x 4 + 35 x 20) = 2 x 818 = 1636. */
    const int e[][3] = {
        {0, 1, 10}, {0, 2, 20}, {1, 3, 30}, {2, 3, 5}, {3, 4, 7}};
    tg_graph *g = tu_graph(5, 5, e);
    gm_machine *m = with_topology(2, 8, "flat", "pack:2 core:4 pu:1");
    gm_place map[5] = {{0, 0}, {0, 1}, {0, 4}, {1, 0}, {1, 7}};
    gm_level_metrics lm;
    evaluate(g, m, map, &lm);
    ck_assert_int_eq(lm.nlevels, 6);
    const char *names[] = {"pu", "core", "l3", "numa", "package", "node"};
    const uint64_t cost[] = {1, 1, 2, 2, 4, 10}, bytes[] = {0, 10, 0, 0,
                                                             27, 35};
    for (int i = 0; i < 6; i++) {
        ck_assert_str_eq(lm.name[i], names[i]);
        ck_assert_uint_eq(lm.cost[i], cost[i]);
        ck_assert_uint_eq(lm.bytes[i], bytes[i]);
    }
    ck_assert_uint_eq(lm.comm_cost, 1636);
    gm_metrics r;
    tg_error err;
    ck_assert_int_eq(gm_evaluate(g, m, map, GM_METRICS_NO_LOAD, NULL, &r,
                                 &err),
                     0);
    ck_assert_uint_eq(r.cross_socket_bytes, 27);
    ck_assert_uint_eq(gm_comm_distance(m, map[0], map[0]), 0);
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 0}, (gm_place){0, 3}),
                      1);
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 3}, (gm_place){0, 4}),
                      4);
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 0}, (gm_place){1, 0}),
                      20);

    /* Without a node topology every pair of slots of a node costs 1:
     * 2 x (37 x 1 + 35 x 20) = 1474. */
    gm_machine *plain = gt_machine_on(2, 8, "flat");
    evaluate(g, plain, map, &lm);
    ck_assert_int_eq(lm.nlevels, 2);
    ck_assert_str_eq(lm.name[0], "core");
    ck_assert_uint_eq(lm.bytes[0], 37);
    ck_assert_str_eq(lm.name[1], "node");
    ck_assert_uint_eq(lm.bytes[1], 35);
    ck_assert_uint_eq(lm.comm_cost, 1474);
    gm_machine_free(plain);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(l3_numa_package)
{
    /* "pack:2 numa:2 l3:2 core:2": core c is on L3 c/2, NUMA node c/4,
     * package c/8.  Task 0 on core 0 talks to cores 1 (w 1: one L3), 2
     * (w 2: two L3s of one NUMA node), 4 (w 3: two NUMA nodes of one
     * package) and 8 (w 4: two packages):
     * J = 2 x (1 x 1 + 2 x 2 + 3 x 2 + 4 x 4) = 54. */
    const int e[][3] = {{0, 1, 1}, {0, 2, 2}, {0, 3, 3}, {0, 4, 4}};
    tg_graph *g = tu_graph(5, 4, e);
    gm_machine *m =
        with_topology(1, 16, "flat", "pack:2 numa:2 l3:2 core:2 pu:1");
    gm_place map[5] = {{0, 0}, {0, 1}, {0, 2}, {0, 4}, {0, 8}};
    gm_level_metrics lm;
    evaluate(g, m, map, &lm);
    ck_assert_uint_eq(lm.bytes[level(&lm, "core")], 1);
    ck_assert_uint_eq(lm.bytes[level(&lm, "l3")], 2);
    ck_assert_uint_eq(lm.bytes[level(&lm, "numa")], 3);
    ck_assert_uint_eq(lm.bytes[level(&lm, "package")], 4);
    ck_assert_uint_eq(lm.comm_cost, 54);
    gm_machine_free(m);

    /* Slots that are PUs: "core:2 pu:2", PUs 0 and 1 on core 0.  0-1 on
     * one core (pu level), 0-2 on two cores: 2 x (5 + 6) = 22. */
    const int e2[][3] = {{0, 1, 5}, {0, 2, 6}};
    tg_graph *g2 = tu_graph(3, 2, e2);
    m = with_topology(1, 4, "flat", "core:2 pu:2");
    gm_place map2[3] = {{0, 0}, {0, 1}, {0, 2}};
    evaluate(g2, m, map2, &lm);
    ck_assert_uint_eq(lm.bytes[level(&lm, "pu")], 5);
    ck_assert_uint_eq(lm.bytes[level(&lm, "core")], 6);
    ck_assert_uint_eq(lm.bytes[level(&lm, "package")], 0);
    ck_assert_uint_eq(lm.comm_cost, 22);
    gm_machine_free(m);
    tg_graph_free(g2);
    tg_graph_free(g);
}
END_TEST

/* Two cliques of 4 with interleaved ids: {0, 2, 4, 6} and {1, 3, 5, 7},
 * every edge 1 byte. */
static tg_graph *interleaved_cliques(void)
{
    int e[12][3], k = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++) {
                e[k][0] = c + 2 * i;
                e[k][1] = c + 2 * j;
                e[k++][2] = 1;
            }
    return tu_graph(8, 12, e);
}

START_TEST(hierarchy_as_kahip)
{
    /* 2 nodes x 4 slots as "2:2:2" with distances "1:10:100": processor
     * p = 4 node + slot; levels 1 and 2 inside a node, 3 between nodes.
     * Block (task i on processor i): the cliques' edges inside a node
     * join slots 0-2 and 1-3 (level 2, 4 edges), the other 8 cross
     * nodes: J = 2 x (4 x 10 + 8 x 100) = 1680, as SharedMap's
     * determine_qap counts it. */
    tg_graph *g = interleaved_cliques();
    gm_machine *m = gt_machine_on(2, 4, "flat");
    tg_error err;
    ck_assert_int_eq(gm_machine_set_hierarchy(m, "2:2:2", "1:10:100", &err),
                     0);
    gm_place map[8];
    for (int t = 0; t < 8; t++)
        map[t] = (gm_place){t / 4, t % 4};
    gm_level_metrics lm;
    evaluate(g, m, map, &lm);
    ck_assert_int_eq(lm.nlevels, 3);
    ck_assert_str_eq(lm.name[0], "level1");
    ck_assert_str_eq(lm.name[2], "level3");
    ck_assert_uint_eq(lm.bytes[0], 0);
    ck_assert_uint_eq(lm.bytes[1], 4);
    ck_assert_uint_eq(lm.bytes[2], 8);
    ck_assert_uint_eq(lm.cost[2], 100);
    ck_assert_uint_eq(lm.comm_cost, 1680);
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 0}, (gm_place){0, 1}),
                      1);
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 1}, (gm_place){0, 2}),
                      10);
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 1}, (gm_place){1, 1}),
                      100);
    /* Four nodes of 2 in groups of 2: nodes 0 and 1 at 10, 1 and 2 at
     * 100. */
    gm_machine *m4 = gt_machine_on(4, 2, "flat");
    ck_assert_int_eq(gm_machine_set_hierarchy(m4, "2:2:2", "1:10:100", &err),
                     0);
    ck_assert_uint_eq(
        gm_comm_distance(m4, (gm_place){0, 1}, (gm_place){1, 0}), 10);
    ck_assert_uint_eq(
        gm_comm_distance(m4, (gm_place){1, 1}, (gm_place){2, 0}), 100);
    ck_assert_uint_eq(
        gm_comm_distance(m4, (gm_place){3, 0}, (gm_place){3, 1}), 1);
    gm_machine_free(m4);

    ck_assert_int_eq(gm_machine_set_hierarchy(m, "2:2", "1:10:100", &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "hierarchy '2:2' has 2 levels but distance "
                               "'1:10:100' has 3");
    ck_assert_int_eq(gm_machine_set_hierarchy(m, "2:3", "1:10", &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text,
                     "hierarchy '2:3' does not describe 2 nodes of 4 slots: "
                     "the product of its first levels must be the slots of "
                     "a node and the product of all levels the 8 slots of "
                     "the machine");
    ck_assert_int_eq(gm_machine_set_hierarchy(m, "2:2:2", "1:0:100", &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "distance '1:0:100': expected up to 16 "
                               "positive numbers separated by ':' (entry 2)");
    const int uneven[2] = {4, 2};
    gm_machine *mu = gt_uneven_on(uneven, 2, "flat");
    ck_assert_int_eq(gm_machine_set_hierarchy(mu, "2:3", "1:10", &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "hierarchy: nodes 'h0' and 'h1' have 4 and 2 "
                               "slots; a hierarchy needs equal nodes");
    gm_machine_free(mu);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(greedy_slots_follow_packages)
{
    /* One node of "pack:2 core:4", the interleaved cliques in id order
     * (order=oo).  The old slot order (0, 1, 2, ...) splits both cliques
     * over the packages: 8 of the 12 bytes cross them, J = 2 x (4 + 32)
     * = 72.  Placed in list order each task takes the free slot nearest
     * its clique (tasks 0-7 onto slots 0-7 again: task 1 has no placed
     * neighbour, so it starts the second clique on package 0); the swaps
     * then move task 0 with 5 and 2 with 7: clique {0, 2, 4, 6} on
     * package 1, {1, 3, 5, 7} on package 0, no byte crossing, J = 24. */
    tg_graph *g = interleaved_cliques();
    gm_machine *m = with_topology(1, 8, "flat", "pack:2 core:4 pu:1");
    gm_place map[8];
    gt_map_with(g, m, "order=oo", map);
    const int want[8][2] = {{0, 5}, {0, 1}, {0, 7}, {0, 3},
                            {0, 4}, {0, 0}, {0, 6}, {0, 2}};
    gt_assert_map(map, want, 8);
    gm_level_metrics lm;
    evaluate(g, m, map, &lm);
    ck_assert_uint_eq(lm.bytes[level(&lm, "package")], 0);
    ck_assert_uint_eq(lm.comm_cost, 24);
    gm_place block[8];
    for (int t = 0; t < 8; t++)
        block[t] = (gm_place){0, t};
    evaluate(g, m, block, &lm);
    ck_assert_uint_eq(lm.bytes[level(&lm, "package")], 8);
    ck_assert_uint_eq(lm.comm_cost, 72);

    /* The refinement takes block to the same slots. */
    tg_error err;
    ck_assert_int_eq(gm_refine(g, m, NULL, NULL, block, &err), 0);
    gt_assert_map(block, want, 8);

    /* Without a node topology nothing changes: slots in list order. */
    gm_machine *plain = gt_machine_on(1, 8, "flat");
    gt_map_with(g, plain, "order=oo", map);
    for (int t = 0; t < 8; t++)
        ck_assert_int_eq(map[t].slot, t);
    gm_machine_free(plain);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(slots_keep_nodes)
{
    /* A random graph of 64 tasks on a 2x2 torus of "pack:2 core:8"
     * nodes: every task stays on the node it gets without a topology
     * (so hop-bytes are the same), and fewer bytes cross packages. */
    tg_graph *g = tu_random_graph(64, 6, 7);
    gm_machine *m = with_topology(4, 16, "torus:2x2", "pack:2 core:8 pu:1");
    gm_machine *plain = gt_machine_on(4, 16, "torus:2x2");
    const char *configs[] = {"order=bfs", "order=gpart,refine=1",
                             "order=rcm,pack=0,delta=2"};
    /* Bytes across packages with the old slot order and with levels
     * (this graph and seed: about half as many after). */
    const uint64_t before[] = {165, 276, 161}, after[] = {72, 145, 67};
    for (int c = 0; c < 3; c++) {
        gm_place a[64], b[64];
        gt_map_with(g, plain, configs[c], a);
        gt_map_with(g, m, configs[c], b);
        for (int t = 0; t < 64; t++)
            ck_assert_int_eq(a[t].node, b[t].node);
        gm_metrics ra, rb;
        tg_error err;
        ck_assert_int_eq(gm_evaluate(g, m, a, GM_METRICS_NO_LOAD, NULL, &ra,
                                     &err),
                         0);
        ck_assert_int_eq(gm_evaluate(g, m, b, GM_METRICS_NO_LOAD, NULL, &rb,
                                     &err),
                         0);
        ck_assert_uint_eq(ra.hop_bytes_total, rb.hop_bytes_total);
        ck_assert_uint_eq(ra.cross_socket_bytes, before[c]);
        ck_assert_uint_eq(rb.cross_socket_bytes, after[c]);
    }
    gm_machine_free(plain);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(rankfile_slots_are_cores)
{
    /* The rankfile's slot=S is the S-th core in hwloc's logical order,
     * which Open MPI reads as such: task 0 on slot 5 is package 1's core
     * 1 ("slot=1:1" reads back as slot 5). */
    tg_graph *g = interleaved_cliques();
    gm_machine *m = with_topology(1, 8, "flat", "pack:2 core:4 pu:1");
    gm_place map[8];
    gt_map_with(g, m, "order=oo", map);
    tg_error err;
    const char *path = tu_path("levels.rankfile");
    ck_assert_int_eq(gm_rankfile_write(path, m, map, 8, &err), 0);
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    char line[64];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    ck_assert_str_eq(line, "rank 0=node0 slot=5\n");
    fclose(fp);
    const char *sc = tu_write("levels_sc.rankfile", "rank 0=node0 slot=1:1\n");
    gm_place *back = NULL;
    ck_assert_int_eq(gm_rankfile_read(sc, m, 1, &back, NULL, &err), 0);
    ck_assert_int_eq(back[0].slot, map[0].slot);
    free(back);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(numa_latency_matrix)
{
    /* 16amd64-4distances.xml: 8 packages of 2 cores, one NUMA node each,
     * NUMA latencies 10 local and 20 remote: two packages cost 20 / 10 =
     * 2 instead of 4.  Task 0 on core 0, 1 on core 1 (w 5), 2 on core 2
     * (package 1, w 7): J = 2 x (5 x 1 + 7 x 2) = 38. */
    const int e[][3] = {{0, 1, 5}, {0, 2, 7}};
    tg_graph *g = tu_graph(3, 2, e);
    gm_machine *m =
        with_topology(1, 16, "flat", gt_xml_path("16amd64-4distances.xml"));
    gm_place map[3] = {{0, 0}, {0, 1}, {0, 2}};
    gm_level_metrics lm;
    evaluate(g, m, map, &lm);
    ck_assert_int_eq(lm.latency_level, level(&lm, "numa"));
    ck_assert_uint_eq(lm.bytes[level(&lm, "core")], 5);
    ck_assert_uint_eq(lm.bytes[level(&lm, "package")], 7);
    ck_assert_uint_eq(lm.comm_cost, 38);
    ck_assert_uint_eq(gm_comm_distance(m, map[0], map[2]), 2);
    gm_machine_free(m);
    /* A synthetic topology has no matrix. */
    m = with_topology(1, 16, "flat", "pack:8 core:2 pu:1");
    evaluate(g, m, map, &lm);
    ck_assert_int_eq(lm.latency_level, -1);
    ck_assert_uint_eq(lm.comm_cost, 66);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

/* In-job levels: node 0 uses all four cores of "pack:2 core:2 pu:1",
 * node 1 only cores 1 and 2 (one per package), two slots on each. */
START_TEST(in_job_levels)
{
    hwloc_topology_t topo;
    ck_assert_int_eq(hwloc_topology_init(&topo), 0);
    ck_assert_int_eq(hwloc_topology_set_synthetic(topo, "pack:2 core:2 pu:1"),
                     0);
    ck_assert_int_eq(hwloc_topology_load(topo), 0);
    const int all[4] = {0, 1, 2, 3}, some[2] = {1, 2};
    int g0[4 * GM_NODE_LEVELS], g1[2 * GM_NODE_LEVELS], nnuma;
    uint64_t *numa;
    tg_error err;
    ck_assert_int_eq(gm_node_levels_describe(topo, all, 4, g0, &nnuma, &numa,
                                             &err), 0);
    ck_assert_int_eq(nnuma, 0); /* no latency matrix in a synthetic one */
    ck_assert_ptr_null(numa);
    ck_assert_int_eq(gm_node_levels_describe(topo, some, 2, g1, &nnuma,
                                             &numa, &err), 0);
    const int bad[1] = {4};
    ck_assert_int_eq(gm_node_levels_describe(topo, bad, 1, g1, &nnuma, &numa,
                                             &err), TG_EINVAL);
    hwloc_topology_destroy(topo);
    /* Groups bottom up: position, core, L3 (none: numa's), NUMA (the
     * machine's one), package. */
    ck_assert_int_eq(g1[0 * GM_NODE_LEVELS + 4], 0);
    ck_assert_int_eq(g1[1 * GM_NODE_LEVELS + 4], 1);

    gm_machine *m = gt_machine_on(2, 4, "flat");
    ck_assert_int_eq(gm_machine_set_node_levels(m, 0, g0, 4, 1, 0, NULL,
                                                &err), 0);
    ck_assert_int_eq(gm_machine_set_node_levels(m, 1, g1, 2, 2, 0, NULL,
                                                &err), 0);
    ck_assert_int_eq(gm_machine_set_node_levels(m, 1, g1, 1, 2, 0, NULL,
                                                &err), TG_EINVAL);
    /* Node 0: cores 0, 1 share package 0 (1), cores 1, 2 do not (4).
     * Node 1: slots 0, 1 on core 1 (1), slots 1, 2 on cores 1, 2 (4). */
    const int pairs[][5] = {{0, 0, 1, 1}, {0, 1, 2, 4}, {0, 0, 3, 4},
                            {1, 0, 1, 1}, {1, 1, 2, 4}, {1, 2, 3, 1}};
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(
            gm_comm_distance(m, (gm_place){pairs[i][0], pairs[i][1]},
                             (gm_place){pairs[i][0], pairs[i][2]}),
            (uint64_t)pairs[i][3]);
    ck_assert_int_eq(gm_slot_package(m, 1, 1), 0);
    ck_assert_int_eq(gm_slot_package(m, 1, 2), 1);
    ck_assert_int_eq(gm_distance(m, 0, 1), 2); /* flat: up and down */
    ck_assert_uint_eq(gm_comm_distance(m, (gm_place){0, 0}, (gm_place){1, 0}),
                      2 * GM_NODE_FACTOR);
    /* Two heavy pairs (0-2, 1-3, 100 bytes) and 0-1 (1 byte) on node 0:
     * GreedyMap puts each pair in a package, J = 2 x (200 + 4) = 408;
     * block: 2 x (200 x 4 + 1) = 1602. */
    int e[3][3] = {{0, 2, 100}, {1, 3, 100}, {0, 1, 1}};
    tg_graph *g = tu_graph(4, 3, e);
    gm_machine *one = gt_machine_on(1, 4, "flat");
    ck_assert_int_eq(gm_machine_set_node_levels(one, 0, g0, 4, 1, 0, NULL,
                                                &err), 0);
    gm_place map[4], block[4];
    gt_map_with(g, one, "order=oo", map);
    gm_level_metrics lm;
    evaluate(g, one, map, &lm);
    ck_assert_uint_eq(lm.comm_cost, 408);
    for (int t = 0; t < 4; t++)
        block[t] = (gm_place){0, t};
    evaluate(g, one, block, &lm);
    ck_assert_uint_eq(lm.comm_cost, 1602);
    gm_metrics mt;
    ck_assert_int_eq(gm_evaluate(g, one, map, 0, NULL, &mt, &err), 0);
    ck_assert_int_eq(mt.has_node_topology, 1);
    ck_assert_uint_eq(mt.cross_socket_bytes, 1);
    /* The levels leave at the next node added. */
    ck_assert_int_eq(gm_machine_add_node(one, "extra", 4, &err), 1);
    ck_assert_int_eq(gm_slot_package(one, 0, 0), -1);
    gm_machine_free(one);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

/* Slots in task order on nodes whose slots nothing tells apart; nodes
 * with packages keep theirs. */
START_TEST(slots_in_task_order)
{
    tg_error err;
    gm_machine *plain = gt_machine_on(2, 3, "flat");
    gm_place map[5] = {{1, 2}, {0, 2}, {1, 0}, {0, 0}, {1, 1}};
    ck_assert_int_eq(gm_slots_task_order(plain, map, 5, &err), 0);
    const int want[5][2] = {{1, 0}, {0, 0}, {1, 1}, {0, 2}, {1, 2}};
    gt_assert_map(map, want, 5);
    gm_machine_free(plain);
    gm_machine *m = with_topology(1, 4, "flat", "pack:2 core:2 pu:1");
    gm_place two[4] = {{0, 3}, {0, 1}, {0, 2}, {0, 0}};
    ck_assert_int_eq(gm_slots_task_order(m, two, 4, &err), 0);
    const int same[4][2] = {{0, 3}, {0, 1}, {0, 2}, {0, 0}};
    gt_assert_map(two, same, 4);
    gm_machine_free(m);
    /* One package of two cores: symmetric again. */
    m = with_topology(1, 2, "flat", "pack:1 core:2 pu:1");
    gm_place rev[2] = {{0, 1}, {0, 0}};
    ck_assert_int_eq(gm_slots_task_order(m, rev, 2, &err), 0);
    ck_assert_int_eq(rev[0].slot, 0);
    ck_assert_int_eq(rev[1].slot, 1);
    gm_machine_free(m);
}
END_TEST

static Suite *levels_suite(void)
{
    Suite *s = suite_create("levels");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, two_socket_nodes);
    tcase_add_test(tc, l3_numa_package);
    tcase_add_test(tc, hierarchy_as_kahip);
    tcase_add_test(tc, greedy_slots_follow_packages);
    tcase_add_test(tc, slots_keep_nodes);
    tcase_add_test(tc, rankfile_slots_are_cores);
    tcase_add_test(tc, in_job_levels);
    tcase_add_test(tc, slots_in_task_order);
    if (access(gt_xml_path("16amd64-4distances.xml"), R_OK) == 0)
        tcase_add_test(tc, numa_latency_matrix);
    else
        printf("skipped the hwloc XML test: %s not found\n",
               gt_xml_path("16amd64-4distances.xml"));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(levels_suite);
}
