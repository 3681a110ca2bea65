/* test_refine.c: the local refinement after Algorithm 1 (refine=1,
 * gm_refine): small cases worked out by hand (a swap of two tasks, the
 * edge between two swapped tasks, a move into a free slot, a swap of two
 * nodes' tasks), never worse than Algorithm 1 on random graphs over every
 * network kind, capacities and slots, determinism, independence from the
 * order of the CSR, stopping, and the configuration key. */
#include <stdlib.h>
#include <string.h>

#include "gm_testutil.h"
#include "greedymap.h"
#include "testutil.h"

/* ------------------------------------------------------ mappings by hand */

START_TEST(one_swap_fixes_a_line)
{
    /* mesh:3 (a line of nodes 0-1-2), one slot each; edges 0-1 (3) and
     * 0-2 (5).  OO: task 0 on node 0, task 1 next to it on node 1 (cost
     * 3), task 2 on the last free node, 2 (cost 10): 13 per edge end, 26.
     * Refining, the node sweep starts at node 0: swapping it with node 1
     * puts task 0 between its neighbours (3 + 5 = 8, -5), with node 2 it
     * gives 3 x 1 + 5 x 2 = 13 (no gain); the swap with node 1 is taken.
     * 8 is the optimum (both edges at one hop), nothing improves after. */
    const int e[][3] = {{0, 1, 3}, {0, 2, 5}};
    tg_graph *g = tu_graph(3, 2, e);
    gm_machine *m = gt_machine_on(3, 1, "mesh:3");
    gm_place map[3];
    const int greedy[][2] = {{0, 0}, {1, 0}, {2, 0}};
    gt_map_with(g, m, "order=oo", map);
    gt_assert_map(map, greedy, 3);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 26);
    const int refined[][2] = {{1, 0}, {0, 0}, {2, 0}};
    gt_map_with(g, m, "order=oo,refine=1", map);
    gt_assert_map(map, refined, 3);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 16);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(swap_minds_the_edge_between_the_two)
{
    /* flat, 2 nodes x 2 slots (distance 2); edges 0-2 (5), 1-3 (5), 0-1
     * (1), 2-3 (1).  OO with packing: {0, 1} on node 0, {2, 3} on node 1;
     * both heavy edges cross: 2 x (5 + 5) x 2 = 40.  Swapping the nodes'
     * tasks changes nothing.  Task 0's candidate is node 1; swapping it
     * with task 2 (slot 0) changes its own hop-bytes by -8 and task 2's by
     * -8, but the edge 0-2 stays crossed: + 2 x 5 x 2, so +4 (counting
     * the edge as moved would give -16 and take this swap, the first
     * equal).  With task 3: -8 - 8 + 0 = -16: {3, 1} and {2, 0}, only the
     * light edges cross: 2 x (1 + 1) x 2 = 8.  Task 0 takes task 3's
     * slot and task 3 task 0's. */
    const int e[][3] = {{0, 2, 5}, {1, 3, 5}, {0, 1, 1}, {2, 3, 1}};
    tg_graph *g = tu_graph(4, 4, e);
    gm_machine *m = gt_machine_on(2, 2, "flat");
    gm_place map[4];
    const int greedy[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    gt_map_with(g, m, "order=oo", map);
    gt_assert_map(map, greedy, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 40);
    const int refined[][2] = {{1, 1}, {0, 1}, {1, 0}, {0, 0}};
    gt_map_with(g, m, "order=oo,refine=1", map);
    gt_assert_map(map, refined, 4);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 8);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(move_into_a_free_slot)
{
    /* mesh:3, 2 slots per node, 3 tasks; edges 0-2 (4), 0-1 (1).  OO with
     * packing: 0 and 1 fill node 0, task 2 goes next to task 0, node 1
     * (cost 4): 2 x 4 = 8.  No node swap gains (node 2 is as far from
     * node 1 as node 0).  Task 0: moving into node 1's free slot costs
     * 1 - 4 = -3, swapping with task 2 -3 - 4 + 2 x 4 = +1: the move.
     * Task 0 takes node 1's slot 1; task 1, in node 0's highest slot,
     * goes down to slot 0.  Left: the edge 0-1 at one hop, 2 x 1 = 2. */
    const int e[][3] = {{0, 2, 4}, {0, 1, 1}};
    tg_graph *g = tu_graph(3, 2, e);
    gm_machine *m = gt_machine_on(3, 2, "mesh:3");
    gm_place map[3];
    const int greedy[][2] = {{0, 0}, {0, 1}, {1, 0}};
    gt_map_with(g, m, "order=oo", map);
    gt_assert_map(map, greedy, 3);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 8);
    const int refined[][2] = {{1, 1}, {0, 0}, {1, 0}};
    gt_map_with(g, m, "order=oo,refine=1", map);
    gt_assert_map(map, refined, 3);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 2);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(node_swap_moves_a_pair)
{
    /* mesh:3, 2 slots per node; pairs {0, 1}, {2, 3}, {4, 5} joined by
     * 100 bytes each, and 1-4 (5).  OO with packing: the pairs fill nodes
     * 0, 1, 2 (task 2 has no placed neighbour: the free node nearest the
     * last one, node 1); 1-4 spans two hops: 2 x 5 x 2 = 20.  No single
     * task can leave its partner (-100 at least), but node 0's tasks
     * swapped with node 1's put the pairs {0, 1} and {4, 5} side by side:
     * 2 x 5 = 10.  Nothing gains after that. */
    const int e[][3] = {{0, 1, 100}, {2, 3, 100}, {4, 5, 100}, {1, 4, 5}};
    tg_graph *g = tu_graph(6, 4, e);
    gm_machine *m = gt_machine_on(3, 2, "mesh:3");
    gm_place map[6];
    const int greedy[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}};
    gt_map_with(g, m, "order=oo", map);
    gt_assert_map(map, greedy, 6);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 20);
    const int refined[][2] = {{1, 0}, {1, 1}, {0, 0},
                              {0, 1}, {2, 0}, {2, 1}};
    gt_map_with(g, m, "order=oo,refine=1", map);
    gt_assert_map(map, refined, 6);
    ck_assert_uint_eq(gt_hop_bytes(g, m, map), 10);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------------ invariants */

/* Slots: a bijection (gm_mapping_check) and every node's used slots 0 ..
 * c-1; returns the tasks on each node in count (nodes entries). */
static void check_slots(const tg_graph *g, const gm_machine *m,
                        const gm_place *map, int *count, const char *what)
{
    tg_error err;
    int rc = gm_mapping_check(m, map, g->n, &err);
    ck_assert_msg(rc == 0, "%s: %s", what, err.text);
    int nodes = gm_machine_nodes(m);
    int64_t *slotsum = calloc((size_t)nodes, sizeof *slotsum);
    memset(count, 0, (size_t)nodes * sizeof *count);
    for (int t = 0; t < g->n; t++) {
        count[map[t].node]++;
        slotsum[map[t].node] += map[t].slot;
    }
    for (int n = 0; n < nodes; n++)
        ck_assert_msg(slotsum[n] == (int64_t)count[n] * (count[n] - 1) / 2,
                      "%s: node %d does not use its lowest slots", what, n);
    free(slotsum);
}

/* Every hop-bytes configuration of the portfolio, seeds 0 and 2, with and
 * without refine, on random graphs filling the machine and leaving 3
 * slots free: the refined mapping is a valid mapping using each node's
 * lowest slots, never above Algorithm 1's hop-bytes, the same on a second
 * run; with every slot used every node stays full.  Returns how many
 * refined mappings were strictly better. */
static int never_worse_on(gm_machine *m)
{
    gm_config *cs;
    int nc, better = 0;
    tg_error err;
    ck_assert_int_eq(gm_configurations(m, &cs, &nc, &err), 0);
    int total = (int)gm_machine_total_slots(m), nodes = gm_machine_nodes(m);
    int *count = malloc((size_t)nodes * sizeof *count);
    const int sizes[] = {total, total - 3};
    for (int k = 0; k < 2; k++) {
        tg_graph *g = tu_random_graph(sizes[k], 3, (unsigned)(k + total));
        gm_place *plain = malloc((size_t)g->n * sizeof *plain);
        gm_place *map = malloc((size_t)g->n * sizeof *map);
        gm_place *again = malloc((size_t)g->n * sizeof *again);
        for (int i = 0; i < nc; i++) {
            if (cs[i].cost != GM_COST_HOPBYTES)
                continue;
            for (uint64_t seed = 0; seed < 3; seed += 2) {
                gm_config c = cs[i];
                c.seed = seed;
                c.refine = 0;
                char text[256];
                ck_assert_int_eq(gm_greedymap(g, m, &c, plain, &err), 0);
                c.refine = 1;
                gm_config_format(&c, text, sizeof text);
                int rc = gm_greedymap(g, m, &c, map, &err);
                ck_assert_msg(rc == 0, "%s: %s", text, err.text);
                check_slots(g, m, map, count, text);
                for (int n = 0; k == 0 && n < nodes; n++)
                    ck_assert_int_eq(count[n], gm_machine_slots(m, n));
                uint64_t before = gt_hop_bytes(g, m, plain);
                uint64_t after = gt_hop_bytes(g, m, map);
                ck_assert_msg(after <= before, "%s: %llu after, %llu before",
                              text, (unsigned long long)after,
                              (unsigned long long)before);
                better += after < before;
                ck_assert_int_eq(gm_greedymap(g, m, &c, again, &err), 0);
                ck_assert_msg(!memcmp(map, again,
                                      (size_t)g->n * sizeof *map),
                              "%s: not reproducible", text);
            }
        }
        free(plain);
        free(map);
        free(again);
        tg_graph_free(g);
    }
    free(count);
    free(cs);
    return better;
}

START_TEST(never_worse_than_algorithm_1)
{
    const char *specs[] = {"flat", "torus:3x4", "mesh:2x3", "torus:4x4m",
                           "dragonfly:3,2,2"};
    const int nodes[] = {6, 12, 6, 16, 12}, slots[] = {3, 2, 3, 2, 2};
    int better = 0;
    for (int i = 0; i < 5; i++) {
        gm_machine *m = gt_machine_on(nodes[i], slots[i], specs[i]);
        better += never_worse_on(m);
        gm_machine_free(m);
    }
    gm_machine *m = gt_machine_on(64, 1, "torus:4x4x4");
    better += never_worse_on(m);
    gm_machine_free(m);
    m = gt_two_leaves(2);
    better += never_worse_on(m);
    gm_machine_free(m);
    const int uneven[] = {1, 3, 2, 4, 1};
    m = gt_uneven_on(uneven, 5, "mesh:5");
    better += never_worse_on(m);
    gm_machine_free(m);
    m = gt_uneven_on(uneven, 5, "flat");
    better += never_worse_on(m);
    gm_machine_free(m);
    /* Greedy mappings of random graphs leave room: most runs improve. */
    ck_assert_int_ge(better, 100);
}
END_TEST

/* ------------------------------------------------------------ gm_refine */

START_TEST(refines_any_mapping)
{
    /* A random mapping (slots taken anywhere in a node, 5 of 48 free) of a
     * random graph on a 4x4 torus of 3 slots: refined, it is valid, keeps
     * every node's count or moves tasks into free slots only, and is
     * strictly better.  Its slots need not start at 0 (the input's did
     * not), so only the bijection is checked. */
    gm_machine *m = gt_machine_on(16, 3, "torus:4x4");
    tg_graph *g = tu_random_graph(43, 3, 7);
    gm_place map[43];
    tg_error err;
    ck_assert_int_eq(gm_baseline_map(g, m, GM_BASE_RANDOM, 3, map, &err), 0);
    uint64_t before = gt_hop_bytes(g, m, map);
    ck_assert_int_eq(gm_refine(g, m, NULL, NULL, map, &err), 0);
    ck_assert_int_eq(gm_mapping_check(m, map, g->n, &err), 0);
    ck_assert_uint_lt(gt_hop_bytes(g, m, map), before);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

START_TEST(csr_order_does_not_matter)
{
    /* The same graph with every CSR row reversed refines the same random
     * mapping to the same result: ties go by node id and slot, never by
     * the order of a task's edges. */
    gm_machine *m = gt_machine_on(12, 4, "torus:3x4");
    tg_graph *g = tu_random_graph(48, 4, 11), *h = tu_random_graph(48, 4, 11);
    for (int t = 0; t < h->n; t++)
        for (int64_t a = h->xadj[t], b = h->xadj[t + 1] - 1; a < b;
             a++, b--) {
            int v = h->adjncy[a];
            uint64_t w = h->adjwgt[a];
            h->adjncy[a] = h->adjncy[b];
            h->adjwgt[a] = h->adjwgt[b];
            h->adjncy[b] = v;
            h->adjwgt[b] = w;
        }
    gm_place a[48], b[48];
    tg_error err;
    ck_assert_int_eq(gm_baseline_map(g, m, GM_BASE_RANDOM, 5, a, &err), 0);
    memcpy(b, a, sizeof a);
    ck_assert_int_eq(gm_refine(g, m, NULL, NULL, a, &err), 0);
    ck_assert_int_eq(gm_refine(h, m, NULL, NULL, b, &err), 0);
    ck_assert(!memcmp(a, b, sizeof a));
    tg_graph_free(g);
    tg_graph_free(h);
    gm_machine_free(m);
}
END_TEST

static int stop_after(void *arg)
{
    int *left = arg;
    return (*left)-- <= 0;
}

START_TEST(stop_ends_early)
{
    /* A stop after 20 questions ends the refinement with 1; the mapping is
     * complete and no worse.  Through gm_greedymap_run, a stop during
     * Algorithm 1 itself also returns 1. */
    gm_machine *m = gt_machine_on(16, 3, "torus:4x4");
    tg_graph *g = tu_random_graph(48, 3, 9);
    gm_place map[48];
    tg_error err;
    ck_assert_int_eq(gm_baseline_map(g, m, GM_BASE_RANDOM, 1, map, &err), 0);
    uint64_t before = gt_hop_bytes(g, m, map);
    int left = 20;
    ck_assert_int_eq(gm_refine(g, m, stop_after, &left, map, &err), 1);
    ck_assert_int_eq(gm_mapping_check(m, map, g->n, &err), 0);
    ck_assert_uint_le(gt_hop_bytes(g, m, map), before);
    gm_config c = gt_config("order=oo,refine=1");
    int order[48];
    for (int t = 0; t < 48; t++)
        order[t] = t;
    left = 60; /* 48 placements, then 12 refinement steps */
    ck_assert_int_eq(gm_greedymap_run(g, m, &c, order, stop_after, &left,
                                      map, &err),
                     1);
    ck_assert_int_eq(gm_mapping_check(m, map, g->n, &err), 0);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------- the config key */

START_TEST(refine_key)
{
    gm_config c = gt_config("refine=1,order=bfs");
    ck_assert_int_eq(c.refine, 1);
    char buf[256];
    ck_assert_str_eq(gm_config_format(&c, buf, sizeof buf),
                     "order=bfs,delta=all,pack=1,cost=hopbytes,wrap=1,"
                     "centre=last,refine=1,seed=0");
    ck_assert_int_eq(gt_config("").refine, 0);
    tg_error err;
    gm_config x;
    ck_assert_int_eq(gm_config_parse("refine=1,cost=maxlinkload", &x, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "configuration 'refine=1,cost=maxlinkload': "
                               "refine=1 needs cost=hopbytes");
    ck_assert_int_eq(gm_config_parse("refine=2", &x, &err), TG_EINVAL);
    ck_assert_str_eq(err.text,
                     "configuration 'refine=2': bad refine '2' (0 or 1)");
    /* A configuration built by hand is checked the same way. */
    tg_graph *g = tu_graph(2, 0, NULL);
    gm_machine *m = gt_machine_on(2, 1, "flat");
    gm_place map[2];
    c.cost = GM_COST_MAXHOPBYTES;
    ck_assert_int_eq(gm_greedymap(g, m, &c, map, &err), TG_EINVAL);
    ck_assert_str_eq(err.text,
                     "configuration: refine=1 needs cost=hopbytes");
    c.cost = GM_COST_HOPBYTES;
    c.refine = 2;
    ck_assert_int_eq(gm_greedymap(g, m, &c, map, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "configuration: refine is 0 or 1");
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

static Suite *refine_suite(void)
{
    Suite *s = suite_create("refine");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, one_swap_fixes_a_line);
    tcase_add_test(tc, swap_minds_the_edge_between_the_two);
    tcase_add_test(tc, move_into_a_free_slot);
    tcase_add_test(tc, node_swap_moves_a_pair);
    tcase_add_test(tc, never_worse_than_algorithm_1);
    tcase_add_test(tc, refines_any_mapping);
    tcase_add_test(tc, csr_order_does_not_matter);
    tcase_add_test(tc, stop_ends_early);
    tcase_add_test(tc, refine_key);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(refine_suite);
}
