/* test_machine.c: the machine model of libgreedymap: nodes and hostfiles,
 * network specs, placement and positions files, distances, routes, link
 * ids and shells, on every network kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_testutil.h"
#include "greedymap.h"
#include "testutil.h"

/* ------------------------------------------------------------- helpers */

static gm_machine *named(const char *const *hosts, int n)
{
    gm_machine *m = gm_machine_new();
    tg_error err;
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(gm_machine_add_node(m, hosts[i], 1, &err), i);
    return m;
}

/* Every route has length == distance, starts at a, ends at b, and its
 * links chain; the route is written only up to cap. */
static void check_routes(const gm_machine *m)
{
    int n = gm_machine_nodes(m), cap = gm_max_distance(m) + 1;
    int *links = malloc((size_t)cap * sizeof *links);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int len = gm_route(m, a, b, links, cap);
            ck_assert_int_eq(len, gm_distance(m, a, b));
            ck_assert_int_le(len, gm_max_distance(m));
            int at = gm_node_vertex(m, a);
            for (int i = 0; i < len; i++) {
                int from, to;
                ck_assert_int_eq(gm_link_ends(m, links[i], &from, &to), 0);
                ck_assert_int_lt(links[i], gm_link_count(m));
                ck_assert_int_eq(from, at);
                at = to;
            }
            ck_assert_int_eq(at, gm_node_vertex(m, b));
        }
    free(links);
}

/* Shells from every node: itself first at 0, nondecreasing distances that
 * match gm_distance (when wrap), every node exactly once. */
static void check_shells(const gm_machine *m, int wrap)
{
    int n = gm_machine_nodes(m);
    gm_shells *s;
    tg_error err;
    ck_assert_int_eq(gm_shells_new(m, &s, &err), 0);
    char *seen = malloc((size_t)n);
    for (int a = 0; a < n; a++) {
        memset(seen, 0, (size_t)n);
        gm_shells_start(s, a, wrap);
        int node, d, last = 0, count = 0;
        while ((node = gm_shells_next(s, &d)) >= 0) {
            if (count == 0) {
                ck_assert_int_eq(node, a);
                ck_assert_int_eq(d, 0);
            }
            ck_assert_int_ge(d, last);
            if (wrap)
                ck_assert_int_eq(d, gm_distance(m, a, node));
            ck_assert_int_eq(seen[node], 0);
            seen[node] = 1;
            last = d;
            count++;
        }
        ck_assert_int_eq(count, n);
    }
    free(seen);
    gm_shells_free(s);
}

/* Distance between the nodes at two torus coordinates. */
static int tdist(const gm_machine *m, const int *sizes, int nd, const int *a,
                 const int *b)
{
    int pa = 0, pb = 0;
    for (int k = 0; k < nd; k++) {
        pa = pa * sizes[k] + a[k];
        pb = pb * sizes[k] + b[k];
    }
    return gm_distance(m, pa, pb);
}

/* --------------------------------------------------------------- nodes */

START_TEST(uniform_and_hostfile)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(3, 4, &m, &err), 0);
    ck_assert_int_eq(gm_machine_nodes(m), 3);
    ck_assert_str_eq(gm_machine_hostname(m, 2), "node2");
    ck_assert_int_eq(gm_machine_slots(m, 1), 4);
    ck_assert_int_eq(gm_machine_total_slots(m), 12);
    ck_assert_int_eq(gm_machine_find(m, "node1"), 1);
    ck_assert_int_eq(gm_machine_find(m, "node9"), -1);
    ck_assert_int_eq(gm_network_kind(gm_machine_network(m)), GM_NET_FLAT);
    ck_assert_int_eq(gm_machine_add_node(m, "node1", 1, &err), TG_EINVAL);
    ck_assert_int_eq(gm_machine_add_node(m, "x", 0, &err), TG_EINVAL);
    gm_machine_free(m);
    ck_assert_int_eq(gm_machine_uniform(0, 4, &m, &err), TG_EINVAL);

    const char *hf = tu_write("hosts", "# cluster\nhostA slots=4\n\nhostB\n"
                                       "hostA slots=2 max_slots=8 # more\n");
    ck_assert_int_eq(gm_machine_read_hostfile(hf, &m, &err), 0);
    ck_assert_int_eq(gm_machine_nodes(m), 2);
    ck_assert_str_eq(gm_machine_hostname(m, 0), "hostA");
    ck_assert_int_eq(gm_machine_slots(m, 0), 6);
    ck_assert_int_eq(gm_machine_slots(m, 1), 1);
    gm_machine_free(m);

    hf = tu_write("bad1", "a slots=2\nb slots=x\n");
    ck_assert_int_eq(gm_machine_read_hostfile(hf, &m, &err), TG_EPARSE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.text, "bad slot count 'x'");
    hf = tu_write("bad2", "a\n\nb cpus=3\n");
    ck_assert_int_eq(gm_machine_read_hostfile(hf, &m, &err), TG_EPARSE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_str_eq(err.text, "expected slots=N, got 'cpus=3'");
    hf = tu_write("bad3", "a slots=0\n");
    ck_assert_int_eq(gm_machine_read_hostfile(hf, &m, &err), TG_EPARSE);
    ck_assert_int_eq(err.line, 1);
    hf = tu_write("bad4", "# nothing\n");
    ck_assert_int_eq(gm_machine_read_hostfile(hf, &m, &err), TG_EPARSE);
    ck_assert_str_eq(err.text, "no hosts");
}
END_TEST

START_TEST(network_spec_errors)
{
    gm_network *net;
    tg_error err;
    const char *bad[] = {"torus:4xq", "torus:", "mesh:0x4", "torus:4x",
                         "cube:3", "dragonfly:1,2", "dragonfly:2,2,0",
                         "torus:2x2x2x2x2x2x2x2x2", "fattree:", "flat:3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(gm_network_parse(bad[i], &net, &err) < 0, "%s",
                      bad[i]);
    ck_assert_int_eq(gm_network_parse("graph:/nonexistent/g", &net, &err),
                     TG_EIO);
    ck_assert_str_eq(err.source, "/nonexistent/g");

    ck_assert_int_eq(gm_network_parse("torus:8x8x4m", &net, &err), 0);
    int sizes[GM_MAX_DIMS], wrap[GM_MAX_DIMS];
    ck_assert_int_eq(gm_network_shape(net, sizes, wrap), 3);
    ck_assert_int_eq(sizes[2], 4);
    ck_assert_int_eq(wrap[0], 1);
    ck_assert_int_eq(wrap[2], 0);
    ck_assert_int_eq(gm_network_positions(net), 256);
    gm_network_free(net);
    ck_assert_int_eq(gm_network_parse("mesh:3x5t", &net, &err), 0);
    ck_assert_int_eq(gm_network_shape(net, sizes, wrap), 2);
    ck_assert_int_eq(wrap[0], 0);
    ck_assert_int_eq(wrap[1], 1);
    gm_network_free(net);
}
END_TEST

/* A few bytes of spec must not make a machine that costs gigabytes: tori,
 * meshes and dragonflies are bounded at 1048576 positions, as hostfiles
 * are at 1048576 slots, and at 16777216 link ids. */
START_TEST(network_spec_limits)
{
    gm_network *net;
    tg_error err;
    const char *ok[] = {"torus:1024x1024", "mesh:2x2x2x2x2x2x2x8192",
                        "dragonfly:16,256,256", "dragonfly:4000,1,1",
                        "dragonfly:1,4000,1"};
    const int ok_pos[] = {1048576, 1048576, 1048576, 4000, 4000};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        ck_assert_msg(gm_network_parse(ok[i], &net, &err) == 0, "%s: %s",
                      ok[i], err.text);
        ck_assert_int_eq(gm_network_positions(net), ok_pos[i]);
        gm_network_free(net);
    }
    struct {
        const char *spec, *msg;
    } bad[] = {
        {"torus:8192x8192", "network 'torus:8192x8192' has 67108864 "
                            "positions, more than the limit of 1048576"},
        {"torus:1024x1025", "network 'torus:1024x1025' has 1049600 "
                            "positions, more than the limit of 1048576"},
        {"mesh:2147483647x2147483647x2147483647",
         "network 'mesh:2147483647x2147483647x2147483647' has more than "
         "1000000000000000000 positions, more than the limit of 1048576"},
        {"dragonfly:16,16,65536", "network 'dragonfly:16,16,65536' has "
                                  "16777216 positions, more than the "
                                  "limit of 1048576"},
        {"dragonfly:16,256,257", "network 'dragonfly:16,256,257' has "
                                 "1052672 positions, more than the limit "
                                 "of 1048576"},
        /* 40000 routers linked all-to-all in one group: 1.6e9 links. */
        {"dragonfly:1,40000,1", "network 'dragonfly:1,40000,1' has "
                                "1600080001 links, more than the limit of "
                                "16777216"},
        {"dragonfly:40000,1,1", "network 'dragonfly:40000,1,1' has "
                                "1600120000 links, more than the limit of "
                                "16777216"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        net = NULL;
        ck_assert_int_eq(gm_network_parse(bad[i].spec, &net, &err),
                         TG_EINVAL);
        ck_assert_ptr_null(net);
        ck_assert_str_eq(err.source, "");
        ck_assert_str_eq(err.text, bad[i].msg);
    }
}
END_TEST

/* ------------------------------------------------------------ tori */

START_TEST(torus_distances_1d_to_5d)
{
    /* 1-D ring vs line of 5. */
    gm_machine *t = gt_machine_on(5, 1, "torus:5"), *l = gt_machine_on(5, 1,
                                                               "mesh:5");
    ck_assert_int_eq(gm_distance(t, 0, 4), 1);
    ck_assert_int_eq(gm_distance(l, 0, 4), 4);
    ck_assert_int_eq(gm_distance(t, 0, 3), 2);
    ck_assert_int_eq(gm_distance(l, 0, 3), 3);
    ck_assert_int_eq(gm_distance(t, 2, 2), 0);
    gm_machine_free(t);
    gm_machine_free(l);

    /* 2-D: node 10 of torus:4x4 is (2,2). */
    t = gt_machine_on(16, 1, "torus:4x4");
    l = gt_machine_on(16, 1, "mesh:4x4");
    ck_assert_int_eq(gm_distance(t, 0, 10), 4);
    ck_assert_int_eq(gm_distance(l, 0, 10), 4);
    ck_assert_int_eq(gm_distance(t, 0, 15), 2);
    ck_assert_int_eq(gm_distance(l, 0, 15), 6);
    ck_assert_int_eq(gm_machine_coords(t, 10)[0], 2);
    ck_assert_int_eq(gm_machine_coords(t, 7)[0], 1);
    ck_assert_int_eq(gm_machine_coords(t, 7)[1], 3);
    gm_machine_free(t);
    gm_machine_free(l);

    /* Per-dimension wrap: (0,0) to (3,3) = 1 (ring) + 3 (line). */
    t = gt_machine_on(16, 1, "torus:4x4m");
    ck_assert_int_eq(gm_distance(t, 0, 15), 4);
    gm_machine_free(t);

    /* 3-D: (0,0,0) to (3,2,1) = node 57. */
    t = gt_machine_on(64, 1, "torus:4x4x4");
    l = gt_machine_on(64, 1, "mesh:4x4x4");
    ck_assert_int_eq(gm_distance(t, 0, 57), 1 + 2 + 1);
    ck_assert_int_eq(gm_distance(l, 0, 57), 3 + 2 + 1);
    ck_assert_int_eq(gm_distance(t, 57, 0), 4);
    gm_machine_free(t);
    gm_machine_free(l);

    /* 4-D: (0,0,0,0) to (2,2,2,2) = node 80 of 3x3x3x3. */
    t = gt_machine_on(81, 1, "torus:3x3x3x3");
    l = gt_machine_on(81, 1, "mesh:3x3x3x3");
    ck_assert_int_eq(gm_distance(t, 0, 80), 4);
    ck_assert_int_eq(gm_distance(l, 0, 80), 8);
    gm_machine_free(t);
    gm_machine_free(l);

    /* 5-D 2x3x4x5x6: (0,..,0) to (1,2,3,4,5) = node 719. */
    const int sz[] = {2, 3, 4, 5, 6}, o[] = {0, 0, 0, 0, 0},
              f[] = {1, 2, 3, 4, 5}, g[] = {1, 1, 2, 2, 3};
    t = gt_machine_on(720, 1, "torus:2x3x4x5x6");
    l = gt_machine_on(720, 1, "mesh:2x3x4x5x6");
    ck_assert_int_eq(gm_distance(t, 0, 719), 5);
    ck_assert_int_eq(gm_distance(l, 0, 719), 15);
    ck_assert_int_eq(tdist(t, sz, 5, o, g), 1 + 1 + 2 + 2 + 3);
    ck_assert_int_eq(tdist(l, sz, 5, f, g), 0 + 1 + 1 + 2 + 2);
    ck_assert_int_eq(tdist(t, sz, 5, f, g), 0 + 1 + 1 + 2 + 2);
    ck_assert_int_eq(gm_max_distance(t), 1 + 1 + 2 + 2 + 3);
    ck_assert_int_eq(gm_max_distance(l), 1 + 2 + 3 + 4 + 5);
    gm_machine_free(t);
    gm_machine_free(l);
}
END_TEST

START_TEST(torus_routes_dimension_order)
{
    gm_machine *m = gt_machine_on(16, 1, "torus:4x4");
    int links[16];
    /* (0,0) -> (2,2): even ring tie goes +: (0,0)->(1,0)->(2,0) along dim
     * 0, then (2,0)->(2,1)->(2,2); id = (v*2 + k)*2 + dir. */
    ck_assert_int_eq(gm_route(m, 0, 10, links, 16), 4);
    const int want[] = {(0 * 2 + 0) * 2, (4 * 2 + 0) * 2, (8 * 2 + 1) * 2,
                        (9 * 2 + 1) * 2};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(links[i], want[i]);
    /* (0,0) -> (3,3): wraps the - way in both dimensions. */
    ck_assert_int_eq(gm_route(m, 0, 15, links, 16), 2);
    ck_assert_int_eq(links[0], (0 * 2 + 0) * 2 + 1);
    ck_assert_int_eq(links[1], (12 * 2 + 1) * 2 + 1);
    char name[64];
    ck_assert_str_eq(gm_link_name(m, links[0], name, sizeof name),
                     "node0->node12");
    /* cap limits what is written, not the length. */
    links[0] = -7;
    ck_assert_int_eq(gm_route(m, 0, 10, links, 0), 4);
    ck_assert_int_eq(links[0], -7);
    check_routes(m);
    gm_machine_free(m);

    const char *specs[] = {"mesh:4x3", "torus:5", "torus:2x2", "mesh:3x3x2",
                           "torus:3x2x2x2", "torus:4x3m"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        gm_network *net;
        tg_error err;
        ck_assert_int_eq(gm_network_parse(specs[i], &net, &err), 0);
        int n = gm_network_positions(net);
        gm_network_free(net);
        m = gt_machine_on(n, 2, specs[i]);
        check_routes(m);
        gm_machine_free(m);
    }
    /* A mesh has no link off its border. */
    m = gt_machine_on(4, 1, "mesh:4");
    int from, to;
    ck_assert_int_eq(gm_link_ends(m, (3 * 1 + 0) * 2 + 0, &from, &to),
                     TG_EINVAL);
    ck_assert_int_eq(gm_link_ends(m, (3 * 1 + 0) * 2 + 1, &from, &to), 0);
    ck_assert_int_eq(from, 3);
    ck_assert_int_eq(to, 2);
    gm_machine_free(m);
}
END_TEST

START_TEST(torus_shells)
{
    const char *specs[] = {"torus:4x4", "mesh:4x4", "torus:5x3", "torus:2",
                           "mesh:3x2x4", "torus:3x4x2x2x3", "torus:6x5m"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        gm_network *net;
        tg_error err;
        ck_assert_int_eq(gm_network_parse(specs[i], &net, &err), 0);
        int n = gm_network_positions(net);
        gm_network_free(net);
        gm_machine *m = gt_machine_on(n, 1, specs[i]);
        check_shells(m, 1);
        check_shells(m, 0);
        gm_machine_free(m);
    }
    /* Exact first shells of torus:4x4 from (0,0): 1 node at 0, 4 at 1,
     * 6 at 2, 4 at 3, 1 at 4. */
    gm_machine *m = gt_machine_on(16, 1, "torus:4x4");
    gm_shells *s;
    tg_error err;
    ck_assert_int_eq(gm_shells_new(m, &s, &err), 0);
    gm_shells_start(s, 0, 1);
    int count[5] = {0}, d;
    while (gm_shells_next(s, &d) >= 0)
        count[d]++;
    const int want[5] = {1, 4, 6, 4, 1};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(count[i], want[i]);
    /* Without wrap from (0,0): the mesh shells 1, 2, 3, 4, 3, 2, 1. */
    gm_shells_start(s, 0, 0);
    int mc[7] = {0};
    while (gm_shells_next(s, &d) >= 0)
        mc[d]++;
    const int mw[7] = {1, 2, 3, 4, 3, 2, 1};
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(mc[i], mw[i]);
    gm_shells_free(s);
    gm_machine_free(m);
}
END_TEST

START_TEST(torus_positions_file)
{
    const char *hosts[] = {"h0", "h1", "h2"};
    gm_machine *m = named(hosts, 3);
    tg_error err;
    const char *pf = tu_write("pos", "# allocation\nother 2 2\nh0 0 0\n"
                                     "h1 3 3  # the far corner\n"
                                     "h2 1 2#\n   # h2 3 3\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:4x4", pf, &err),
                     0);
    ck_assert_int_eq(gm_machine_position(m, 1), 15);
    ck_assert_int_eq(gm_distance(m, 0, 1), 2);
    ck_assert_int_eq(gm_distance(m, 0, 2), 3);
    ck_assert_int_eq(gm_distance(m, 1, 2), 3);
    check_routes(m);
    check_shells(m, 1);

    pf = tu_write("pos2", "h0 0 0\nh1 0 0\nh2 1 1\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:4x4", pf, &err),
                     TG_EPARSE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.text, "host h1 is on the position of host h0");
    /* A failed placement leaves the machine on flat. */
    ck_assert_int_eq(gm_network_kind(gm_machine_network(m)), GM_NET_FLAT);
    ck_assert_int_eq(gm_distance(m, 0, 1), 2);

    pf = tu_write("pos3", "h0 0 0\nh1 4 0\nh2 1 1\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:4x4", pf, &err),
                     TG_EPARSE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.text, "coordinate 0 is 4, outside 0..3");
    pf = tu_write("pos4", "h0 0 0\nh1 1 0\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:4x4", pf, &err),
                     TG_EPARSE);
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.text, "host h2 has no position");
    pf = tu_write("pos5", "h0 0 0\nh1 1 0\nh2 2 0\nh0 3 0\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:4x4", pf, &err),
                     TG_EPARSE);
    ck_assert_int_eq(err.line, 4);
    ck_assert_str_eq(err.text, "host h0 listed twice (first on line 1)");
    pf = tu_write("pos6", "h0 0\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "torus:4x4", pf, &err),
                     TG_EPARSE);
    ck_assert_str_eq(err.text, "expected 2 coordinates");
    gm_machine_free(m);

    /* More nodes than positions. */
    gm_machine *big;
    ck_assert_int_eq(gm_machine_uniform(17, 1, &big, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(big, "torus:4x4", NULL,
                                                 &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "the machine has 17 nodes, network "
                               "'torus:4x4' has 16 positions");
    gm_machine_free(big);
}
END_TEST

/* ---------------------------------------------------------------- flat */

START_TEST(flat_network)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(4, 2, &m, &err), 0);
    ck_assert_int_eq(gm_distance(m, 1, 1), 0);
    ck_assert_int_eq(gm_distance(m, 0, 3), 2);
    ck_assert_int_eq(gm_max_distance(m), 2);
    int links[2];
    ck_assert_int_eq(gm_route(m, 0, 3, links, 2), 2);
    ck_assert_int_eq(links[0], 0);
    ck_assert_int_eq(links[1], 7);
    char name[64];
    ck_assert_str_eq(gm_link_name(m, 7, name, sizeof name), "switch->node3");
    ck_assert_int_eq(gm_link_count(m), 8);
    check_routes(m);
    check_shells(m, 1);
    ck_assert_int_eq(gm_machine_set_network_spec(m, "flat", "/x", &err),
                     TG_EINVAL);
    ck_assert_int_eq(gm_machine_set_network_spec(m, "flat", NULL, &err), 0);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------------ fat-tree */

static const char *two_leaves =
    "# two leaf switches and a spine\n"
    "SwitchName=leaf0 Nodes=n[0-3]\n"
    "SwitchName=leaf1 Nodes=n[4-7] LinkSpeed=100\n"
    "\n"
    "SwitchName=spine Switches=leaf[0-1]  # the top\n";

START_TEST(fattree_distances)
{
    const char *conf = tu_write("topology.conf", two_leaves);
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    /* node0..7 match no topology name: placed in file order. */
    gm_machine *m = gt_machine_on(8, 4, spec);
    ck_assert_int_eq(gm_distance(m, 0, 0), 0);
    ck_assert_int_eq(gm_distance(m, 0, 3), 2);
    ck_assert_int_eq(gm_distance(m, 0, 5), 4);
    ck_assert_int_eq(gm_distance(m, 7, 4), 2);
    ck_assert_int_eq(gm_max_distance(m), 4);
    ck_assert_int_eq(gm_vertex_count(m), 11);
    check_routes(m);
    check_shells(m, 1);
    int links[8];
    ck_assert_int_eq(gm_route(m, 1, 6, links, 8), 4);
    const char *hops[] = {"node1->leaf0", "leaf0->spine", "spine->leaf1",
                          "leaf1->node6"};
    char name[64];
    for (int i = 0; i < 4; i++)
        ck_assert_str_eq(gm_link_name(m, links[i], name, sizeof name),
                         hops[i]);
    gm_machine_free(m);

    /* By name, in any order; a subset of the hosts. */
    const char *hosts[] = {"n5", "n0", "n1"};
    m = named(hosts, 3);
    tg_error err;
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err), 0);
    ck_assert_int_eq(gm_distance(m, 1, 2), 2);
    ck_assert_int_eq(gm_distance(m, 0, 1), 4);
    check_shells(m, 1);
    gm_machine_free(m);

    /* Some names match, one does not. */
    const char *mixed[] = {"n0", "foo"};
    m = named(mixed, 2);
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err),
                     TG_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.text, "node foo is not a host"));
    ck_assert_str_eq(err.source, conf);
    /* A positions file maps foo explicitly. */
    const char *pf = tu_write("ftpos", "foo n7\nn0 n0\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, pf, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 1), 4);
    pf = tu_write("ftpos2", "foo leaf0\nn0 n0\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, pf, &err),
                     TG_EPARSE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_ptr_nonnull(strstr(err.text, "'leaf0' is not a host"));
    gm_machine_free(m);

    /* Nine nodes on eight hosts. */
    gm_machine *big;
    ck_assert_int_eq(gm_machine_uniform(9, 1, &big, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(big, spec, NULL, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "the machine has 9 nodes, the topology 8 "
                               "hosts");
    gm_machine_free(big);
}
END_TEST

START_TEST(fattree_three_levels_and_hostlists)
{
    const char *conf = tu_write("t3.conf",
                                "SwitchName=e0 Nodes=a[00-01]\n"
                                "SwitchName=e1 Nodes=a[02-03]\n"
                                "SwitchName=e2 Nodes=a04,a05\n"
                                "SwitchName=top Switches=m[0-1]\n"
                                "SwitchName=m0 Switches=e[0-1]\n"
                                "SwitchName=m1 Switches=e2\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    const char *hosts[] = {"a00", "a01", "a02", "a03", "a04", "a05"};
    gm_machine *m = named(hosts, 6);
    tg_error err;
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 1), 2);
    ck_assert_int_eq(gm_distance(m, 0, 2), 4);
    ck_assert_int_eq(gm_distance(m, 0, 4), 6);
    ck_assert_int_eq(gm_distance(m, 5, 3), 6);
    check_routes(m);
    check_shells(m, 1);
    gm_machine_free(m);
}
END_TEST

START_TEST(fattree_parse_errors)
{
    gm_network *net;
    tg_error err;
    struct {
        const char *text;
        long line;
        const char *msg;
    } cases[] = {
        {"SwitchName=s0 Nodes=n[3-1]\n", 1, "bad range in hostlist 'n[3-1]'"},
        {"SwitchName=s0 Nodes=n0\nSwitchName=s1 Switches=s0,s9\n", 2,
         "switch 's9' is never defined"},
        {"# c\nNodes=n1\n", 2, "a line needs SwitchName="},
        {"SwitchName=s0 Nodes=n0\nSwitchName=s0 Nodes=n1\n", 2,
         "switch 's0' defined twice (first on line 1)"},
        {"SwitchName=s0 Nodes=n0\nSwitchName=s1 Switches=n0\n", 2,
         "'n0' is a node, not a switch"},
        {"SwitchName=s0 Nodes=n0 Speed=3\n", 1, "unknown or repeated key "
                                               "'Speed'"},
        {"SwitchName=s0 Nodes=n[0-1\n", 1, "bad hostlist 'n[0-1'"},
        {"SwitchName=s0 Switches=s1\nSwitchName=s1\n", 0,
         "no nodes in the topology"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = tu_write("bad.conf", cases[i].text);
        char spec[700];
        snprintf(spec, sizeof spec, "fattree:%s", path);
        ck_assert_int_eq(gm_network_parse(spec, &net, &err), TG_EPARSE);
        ck_assert_str_eq(err.source, path);
        ck_assert_int_eq(err.line, cases[i].line);
        ck_assert_str_eq(err.text, cases[i].msg);
    }
}
END_TEST

/* ----------------------------------------------------------- dragonfly */

START_TEST(dragonfly_distances)
{
    /* 3 groups x 2 routers x 2 nodes.  Global links: group 0 reaches 1
     * on router 0 and 2 on router 1; group 1 reaches 0 on router 0, 2 on
     * router 1; group 2 reaches 0 on router 0, 1 on router 1. */
    gm_machine *m = gt_machine_on(12, 1, "dragonfly:3,2,2");
    ck_assert_int_eq(gm_distance(m, 0, 1), 2);  /* one router */
    ck_assert_int_eq(gm_distance(m, 0, 2), 3);  /* one group */
    ck_assert_int_eq(gm_distance(m, 0, 4), 3);  /* gateways at both ends */
    ck_assert_int_eq(gm_distance(m, 0, 6), 4);  /* local hop at the end */
    ck_assert_int_eq(gm_distance(m, 0, 8), 4);  /* local hop at the start */
    ck_assert_int_eq(gm_distance(m, 2, 10), 4);
    ck_assert_int_eq(gm_distance(m, 0, 10), 5); /* local, global, local */
    ck_assert_int_eq(gm_vertex_count(m), 18);
    check_routes(m);
    check_shells(m, 1);
    int links[8];
    ck_assert_int_eq(gm_route(m, 0, 10, links, 8), 5);
    const char *hops[] = {"node0->g0r0", "g0r0->g0r1", "g0r1->g2r0",
                          "g2r0->g2r1", "g2r1->node10"};
    char name[64];
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(gm_link_name(m, links[i], name, sizeof name),
                         hops[i]);
    gm_machine_free(m);

    /* Positions "host g r i". */
    const char *hosts[] = {"x", "y"};
    m = named(hosts, 2);
    tg_error err;
    const char *pf = tu_write("dfpos", "x 0 0 1\ny 2 1 0\n");
    ck_assert_int_eq(gm_machine_set_network_spec(m, "dragonfly:3,2,2", pf,
                                                 &err),
                     0);
    ck_assert_int_eq(gm_machine_position(m, 0), 1);
    ck_assert_int_eq(gm_machine_position(m, 1), 10);
    ck_assert_int_eq(gm_distance(m, 0, 1), 5);
    gm_machine_free(m);
}
END_TEST

/* --------------------------------------------------------------- graph */

START_TEST(graph_network)
{
    const char *path = tu_write("net.txt", "# hosts a..d, switches s1..s3\n"
                                           "nodes a b\n"
                                           "a s1\nb s1\ns1 s2\ns2 c\n"
                                           "s2 s3\ns3 d\nc d\n"
                                           "nodes c d\n");
    char spec[700];
    snprintf(spec, sizeof spec, "graph:%s", path);
    const char *hosts[] = {"d", "c", "b", "a"};
    gm_machine *m = named(hosts, 4);
    tg_error err;
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 1), 1);
    ck_assert_int_eq(gm_distance(m, 2, 3), 2);
    ck_assert_int_eq(gm_distance(m, 3, 1), 3);
    ck_assert_int_eq(gm_distance(m, 3, 0), 4);
    ck_assert_int_eq(gm_max_distance(m), 4);
    check_routes(m);
    check_shells(m, 1);
    gm_machine_free(m);

    /* '#' starts a comment anywhere on a line: "#", "the" and "hosts"
     * are no hosts, "a cable" no link end. */
    path = tu_write("netc.txt", "nodes h0 h1 # the two hosts\n"
                                "h0 h1 # a cable\n"
                                "h1 s#witch\n  # h0 x\n");
    snprintf(spec, sizeof spec, "graph:%s", path);
    gm_network *cnet;
    ck_assert_int_eq(gm_network_parse(spec, &cnet, &err), 0);
    ck_assert_int_eq(gm_network_positions(cnet), 2);
    ck_assert_int_eq(gm_machine_uniform(2, 1, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network(m, cnet, NULL, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 1), 1);
    ck_assert_int_eq(gm_vertex_count(m), 3); /* h0, h1, s */
    ck_assert_int_eq(gm_link_count(m), 4);
    gm_machine_free(m);

    /* Unreachable hosts. */
    path = tu_write("net2.txt", "nodes a b\na s\n");
    snprintf(spec, sizeof spec, "graph:%s", path);
    ck_assert_int_eq(gm_machine_uniform(2, 1, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "node node0 cannot reach node node1");
    gm_machine_free(m);

    gm_network *net;
    path = tu_write("net3.txt", "nodes a\na b c\n");
    snprintf(spec, sizeof spec, "graph:%s", path);
    ck_assert_int_eq(gm_network_parse(spec, &net, &err), TG_EPARSE);
    ck_assert_int_eq(err.line, 2);
    path = tu_write("net4.txt", "a b\n");
    snprintf(spec, sizeof spec, "graph:%s", path);
    ck_assert_int_eq(gm_network_parse(spec, &net, &err), TG_EPARSE);
    ck_assert_str_eq(err.text, "no hosts: declare them with 'nodes NAME...'");
    path = tu_write("net5.txt", "nodes a\na a\n");
    snprintf(spec, sizeof spec, "graph:%s", path);
    ck_assert_int_eq(gm_network_parse(spec, &net, &err), TG_EPARSE);
    ck_assert_str_eq(err.text, "a link from 'a' to itself");
}
END_TEST

/* ------------------------------------------------- multi-parent fat-tree */

START_TEST(fattree_multiple_parents)
{
    /* Two spines over two leaves: two up/down routes between leaves. */
    const char *conf = tu_write("mp.conf", "SwitchName=l0 Nodes=n[0-1]\n"
                                           "SwitchName=l1 Nodes=n[2-3]\n"
                                           "SwitchName=s0 Switches=l[0-1]\n"
                                           "SwitchName=s1 Switches=l[0-1]\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    gm_machine *m = gt_machine_on(4, 1, spec);
    ck_assert_int_eq(gm_distance(m, 0, 1), 2);
    ck_assert_int_eq(gm_distance(m, 0, 2), 4);
    check_routes(m);
    /* The fixed route takes the first spine; least-loaded the free one. */
    gm_loads *l;
    tg_error err;
    ck_assert_int_eq(gm_loads_new(m, &l, &err), 0);
    ck_assert_uint_eq(gm_loads_add(l, 0, 2, 10, GM_ROUTE_LEAST_LOADED), 10);
    ck_assert_uint_eq(gm_loads_add(l, 1, 3, 10, GM_ROUTE_LEAST_LOADED), 10);
    ck_assert_uint_eq(gm_loads_max(l, NULL), 10);
    gm_loads_reset(l);
    ck_assert_uint_eq(gm_loads_add(l, 0, 2, 10, GM_ROUTE_FIXED), 10);
    ck_assert_uint_eq(gm_loads_add(l, 1, 3, 10, GM_ROUTE_FIXED), 20);
    int at;
    ck_assert_uint_eq(gm_loads_max(l, &at), 20);
    char name[64];
    ck_assert_str_eq(gm_link_name(m, at, name, sizeof name), "l0->s0");
    gm_loads_free(l);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------ tables shared by attachments */

/* Distances of explicit networks are kept per attachment (the set of a
 * host's links), not per host.  Checked against a plain BFS from every
 * host over the same links, written here from the file's own lines, on
 * random networks where hosts share, differ in and overlap their
 * attachments, are multi-homed and (graph networks) linked to each other. */
typedef struct refnet {
    int nv, narcs;
    int from[4096], to[4096];
    unsigned char up[4096];
} refnet;

static void ref_link(refnet *r, int a, int b, int updown)
{
    r->from[r->narcs] = a, r->to[r->narcs] = b, r->up[r->narcs++] = 1;
    r->from[r->narcs] = b, r->to[r->narcs] = a;
    r->up[r->narcs++] = (unsigned char)!updown;
}

/* Up/down (phases 2) or plain (1) BFS distance from vertex a to b. */
static int ref_distance(const refnet *r, int phases, int a, int b)
{
    int dist[2 * 512], queue[2 * 512], head = 0, tail = 0;
    for (int i = 0; i < 2 * r->nv; i++)
        dist[i] = -1;
    dist[2 * a] = 0;
    queue[tail++] = 2 * a;
    while (head < tail) {
        int st = queue[head++], v = st / 2, ph = st % 2;
        for (int e = 0; e < r->narcs; e++) {
            if (r->from[e] != v || (phases == 2 && ph == 1 && r->up[e]))
                continue;
            int next = 2 * r->to[e] + (phases == 2 && !r->up[e] ? 1 : ph);
            if (dist[next] < 0) {
                dist[next] = dist[st] + 1;
                queue[tail++] = next;
            }
        }
    }
    int d = dist[2 * b];
    if (dist[2 * b + 1] >= 0 && (d < 0 || dist[2 * b + 1] < d))
        d = dist[2 * b + 1];
    return d;
}

static unsigned lcg(unsigned *x)
{
    *x = *x * 1103515245u + 12345u;
    return (*x >> 16) & 0x7fff;
}

START_TEST(explicit_tables_match_bfs)
{
    for (unsigned seed = 1; seed <= 12; seed++) {
        unsigned x = seed;
        int fattree = seed % 2;
        int hosts = 6 + (int)(lcg(&x) % 20), leaves = 2 + (int)(lcg(&x) % 5);
        refnet r = {0};
        r.nv = hosts + leaves + 3; /* hosts, leaves, 2 spines, a root */
        char text[16384] = "";
        size_t at = 0;
        if (fattree) {
            /* Each host under one or two leaves, each leaf under one or
             * both spines, both spines under the root. */
            for (int l = 0; l < leaves; l++) {
                at += (size_t)snprintf(text + at, sizeof text - at,
                                       "SwitchName=l%d Nodes=", l);
                int first = 1;
                for (int h = 0; h < hosts; h++)
                    if ((int)(lcg(&x) % (unsigned)leaves) == l ||
                        (h % leaves == l)) {
                        at += (size_t)snprintf(text + at, sizeof text - at,
                                               "%snode%d", first ? "" : ",",
                                               h);
                        ref_link(&r, h, hosts + l, 1);
                        first = 0;
                    }
                at += (size_t)snprintf(text + at, sizeof text - at, "\n");
            }
            for (int sp = 0; sp < 2; sp++) {
                at += (size_t)snprintf(text + at, sizeof text - at,
                                       "SwitchName=s%d Switches=", sp);
                int first = 1;
                for (int l = 0; l < leaves; l++)
                    if (l % 2 == sp || lcg(&x) % 2) {
                        at += (size_t)snprintf(text + at, sizeof text - at,
                                               "%sl%d", first ? "" : ",", l);
                        ref_link(&r, hosts + l, hosts + leaves + sp, 1);
                        first = 0;
                    }
                at += (size_t)snprintf(text + at, sizeof text - at, "\n");
                ref_link(&r, hosts + leaves + sp, hosts + leaves + 2, 1);
            }
            at += (size_t)snprintf(text + at, sizeof text - at,
                                   "SwitchName=root Switches=s[0-1]\n");
        } else {
            /* Switches in a ring with a chord; hosts on one to three
             * switches; a few host-to-host links. */
            int sw = leaves + 3;
            at += (size_t)snprintf(text + at, sizeof text - at, "nodes");
            for (int h = 0; h < hosts; h++)
                at += (size_t)snprintf(text + at, sizeof text - at,
                                       " node%d", h);
            at += (size_t)snprintf(text + at, sizeof text - at, "\n");
            for (int i = 0; i < sw; i++) {
                at += (size_t)snprintf(text + at, sizeof text - at,
                                       "w%d w%d\n", i, (i + 1) % sw);
                ref_link(&r, hosts + i, hosts + (i + 1) % sw, 0);
            }
            at += (size_t)snprintf(text + at, sizeof text - at, "w0 w%d\n",
                                   sw / 2);
            ref_link(&r, hosts, hosts + sw / 2, 0);
            for (int h = 0; h < hosts; h++) {
                int k = 1 + (int)(lcg(&x) % 3), base = (int)(lcg(&x) % 3);
                for (int j = 0; j < k; j++) {
                    int w = (base + 2 * j) % sw;
                    at += (size_t)snprintf(text + at, sizeof text - at,
                                           "node%d w%d\n", h, w);
                    ref_link(&r, h, hosts + w, 0);
                }
                if (h % 5 == 4) {
                    at += (size_t)snprintf(text + at, sizeof text - at,
                                           "node%d node%d\n", h, h - 3);
                    ref_link(&r, h, h - 3, 0);
                }
            }
        }
        char name[32], spec[700];
        snprintf(name, sizeof name, "rand%u.net", seed);
        snprintf(spec, sizeof spec, "%s:%s", fattree ? "fattree" : "graph",
                 tu_write(name, text));
        gm_machine *m = gt_machine_on(hosts, 1, spec);
        int maxd = 0;
        for (int a = 0; a < hosts; a++)
            for (int b = 0; b < hosts; b++) {
                int want = ref_distance(&r, fattree ? 2 : 1, a, b);
                ck_assert_msg(gm_distance(m, a, b) == want,
                              "seed %u: %d -> %d is %d, BFS says %d", seed,
                              a, b, gm_distance(m, a, b), want);
                if (want > maxd)
                    maxd = want;
            }
        ck_assert_int_eq(gm_max_distance(m), maxd);
        check_routes(m);
        gm_machine_free(m);
    }
}
END_TEST

START_TEST(explicit_tables_bounded)
{
    /* Tables shared by attachment: 200,000 hosts under one switch cost
     * one table (a 32-byte file took 66 s and 14 GB with one per host). */
    const char *one = tu_write("one.conf", "SwitchName=s Nodes=n[0-199999]\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", one);
    gm_machine *m = gm_machine_new();
    tg_error err;
    char host[32];
    for (int i = 0; i < 200000; i++) {
        snprintf(host, sizeof host, "n%d", i);
        ck_assert_int_eq(gm_machine_add_node(m, host, 1, &err), i);
    }
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 199999), 2);
    ck_assert_int_eq(gm_max_distance(m), 2);
    gm_machine_free(m);

    /* 20,000 hosts each under its own leaf: 20,000 tables of 20,001
     * switches x 2 phases and 20,000 x 20,000 distances between them,
     * 2.2 GiB, more than the 312.5 MiB of 20,000 nodes (16 KiB each):
     * refused with the sizes said.  (Before, the tables had a row per
     * host as well, 3.0 GiB against a limit of 2 GiB.) */
    FILE *fp = fopen(tu_path("leaves.conf"), "w");
    for (int i = 0; i < 20000; i++)
        fprintf(fp, "SwitchName=l%d Nodes=n%d\n", i, i);
    fprintf(fp, "SwitchName=top Switches=l[0-19999]\n");
    fclose(fp);
    snprintf(spec, sizeof spec, "fattree:%s", tu_path("leaves.conf"));
    m = gm_machine_new();
    for (int i = 0; i < 20000; i++) {
        snprintf(host, sizeof host, "n%d", i);
        ck_assert_int_eq(gm_machine_add_node(m, host, 1, &err), i);
    }
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.source, tu_path("leaves.conf"));
    ck_assert_str_eq(err.text, "the network's distance tables would take "
                               "2.2 GiB (20000 distinct host attachments x "
                               "20001 switches x 2 phases, and 20000 x "
                               "20000 between attachments), more than the "
                               "limit of 312.5 MiB for 20000 nodes (16 KiB "
                               "a node, at least 256 MiB, at most 2 GiB)");
    gm_machine_free(m);
}
END_TEST

/* The names of a route's links, joined by spaces. */
static const char *route_names(const gm_machine *m, int a, int b)
{
    static char text[512];
    int links[16], len = gm_route(m, a, b, links, 16);
    size_t at = 0;
    text[0] = 0;
    for (int i = 0; i < len && i < 16; i++) {
        char name[64];
        at += (size_t)snprintf(text + at, sizeof text - at, "%s%s",
                               i ? " " : "",
                               gm_link_name(m, links[i], name, sizeof name));
    }
    return text;
}

START_TEST(explicit_tables_unused_hosts)
{
    /* Hosts that no node uses cost no row: 1,800 nodes under 1,800 leaves
     * beside a switch of 300,000 unused hosts (one line).  With a row per
     * host the tables were 1,800 x 303,601 vertices x 2 phases, 2.0 GiB,
     * refused; a 13 KB file of 500 leaves and a million unused hosts took
     * 7.9 s and 2.08 GB to map 4 tasks.  Now: 1,801 switch rows. */
    FILE *fp = fopen(tu_path("unused.conf"), "w");
    for (int i = 0; i < 1800; i++)
        fprintf(fp, "SwitchName=l%d Nodes=h%d\n", i, i);
    fprintf(fp, "SwitchName=big Nodes=x[0-299999]\n"
                "SwitchName=top Switches=l[0-1799],big\n");
    fclose(fp);
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", tu_path("unused.conf"));
    gm_machine *m = gt_machine_on(1800, 1, spec); /* node i on h<i> */
    ck_assert_int_eq(gm_vertex_count(m), 1800 + 300000 + 1802);
    ck_assert_int_eq(gm_link_count(m), 2 * (1800 + 300000 + 1801));
    ck_assert_int_eq(gm_distance(m, 0, 1799), 4);
    ck_assert_int_eq(gm_distance(m, 1799, 0), 4);
    ck_assert_int_eq(gm_distance(m, 7, 7), 0);
    ck_assert_int_eq(gm_max_distance(m), 4);
    ck_assert_str_eq(route_names(m, 0, 1799),
                     "node0->l0 l0->top top->l1799 l1799->node1799");
    gm_machine_free(m);

    /* Nodes on hosts of the big switch: it is on their routes, and the
     * last hop goes down into the host among its 300,000 links. */
    const char *pos = tu_write("unused.pos", "node0 x5\nnode1 x299999\n"
                                             "node2 h7\nnode3 h1799\n");
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(4, 1, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, pos, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 1), 2);
    ck_assert_int_eq(gm_distance(m, 0, 2), 4);
    ck_assert_int_eq(gm_max_distance(m), 4);
    ck_assert_str_eq(route_names(m, 0, 1), "node0->big big->node1");
    ck_assert_str_eq(route_names(m, 1, 3),
                     "node1->big big->top top->l1799 l1799->node3");
    gm_loads *l;
    ck_assert_int_eq(gm_loads_new(m, &l, &err), 0);
    ck_assert_uint_eq(gm_loads_add(l, 0, 1, 10, GM_ROUTE_LEAST_LOADED), 10);
    ck_assert_uint_eq(gm_loads_add(l, 3, 1, 5, GM_ROUTE_LEAST_LOADED), 15);
    int link;
    ck_assert_uint_eq(gm_loads_max(l, &link), 15);
    char name[64];
    ck_assert_str_eq(gm_link_name(m, link, name, sizeof name),
                     "big->node1");
    gm_loads_free(l);
    check_routes(m);
    gm_machine_free(m);
}
END_TEST

START_TEST(explicit_tables_dead_ends)
{
    /* Graphs: a vertex that is no node's host and has one link to the
     * rest, again and again, is on no route: a chain and a tree of unused
     * hosts and switches hanging off a ring of four switches, and a part
     * of the network without a node.  Distances and routes are those of
     * the ring; the hanging vertices are still the network's. */
    const char *path = tu_write("dead.net",
                                "nodes a b c u0 u1 u2\n"
                                "s0 s1\ns1 s2\ns2 s3\ns3 s0\n"
                                "a s0\nb s1\nc s2\nb a\n"
                                "s3 t0\nt0 t1\nt1 u0\nt1 u1\nt0 t2\n"
                                "u2 t9\nt9 t8\nt8 u2\n");
    char spec[700];
    snprintf(spec, sizeof spec, "graph:%s", path);
    gm_machine *m = gt_machine_on(3, 1, spec); /* a, b, c */
    ck_assert_int_eq(gm_vertex_count(m), 15);
    ck_assert_int_eq(gm_distance(m, 0, 1), 1);
    ck_assert_int_eq(gm_distance(m, 0, 2), 4);
    ck_assert_int_eq(gm_distance(m, 2, 1), 3);
    ck_assert_int_eq(gm_max_distance(m), 4);
    ck_assert_str_eq(route_names(m, 2, 0),
                     "node2->s2 s2->s1 s1->s0 s0->node0");
    check_routes(m);
    gm_machine_free(m);

    /* With a node on u1, its branch is on the routes. */
    const char *pos = tu_write("dead.pos", "node0 a\nnode1 u1\n");
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 1, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, pos, &err), 0);
    ck_assert_int_eq(gm_distance(m, 0, 1), 5);
    ck_assert_str_eq(route_names(m, 1, 0),
                     "node1->t1 t1->t0 t0->s3 s3->s0 s0->node0");
    check_routes(m);
    gm_machine_free(m);

    /* A node in the part without others still cannot reach them. */
    pos = tu_write("dead2.pos", "node0 a\nnode1 u2\n");
    ck_assert_int_eq(gm_machine_uniform(2, 1, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, pos, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.text, "node node0 cannot reach node node1");
    gm_machine_free(m);
}
END_TEST

START_TEST(explicit_tables_graph_limit)
{
    /* A ring of 11,600 hosts, every host a node and its own attachment:
     * 11,600 tables of 11,600 rows, 256.7 MiB, past the 256 MiB that any
     * machine may use (16 KiB a node is less).  It was built (a ring of
     * 30,000 hosts, 597 KB, took 10 s and 1.77 GB to map 4 tasks). */
    FILE *fp = fopen(tu_path("ring.net"), "w");
    fprintf(fp, "nodes");
    for (int i = 0; i < 11600; i++)
        fprintf(fp, " h%d", i);
    fprintf(fp, "\n");
    for (int i = 0; i < 11600; i++)
        fprintf(fp, "h%d h%d\n", i, (i + 1) % 11600);
    fclose(fp);
    char spec[700];
    snprintf(spec, sizeof spec, "graph:%s", tu_path("ring.net"));
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(11600, 1, &m, &err), 0);
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err),
                     TG_EINVAL);
    ck_assert_str_eq(err.source, tu_path("ring.net"));
    ck_assert_str_eq(err.text, "the network's distance tables would take "
                               "256.7 MiB (11600 distinct host attachments "
                               "x 11600 vertices), more than the limit of "
                               "256.0 MiB for 11600 nodes (16 KiB a node, "
                               "at least 256 MiB, at most 2 GiB)");
    gm_machine_free(m);
}
END_TEST

static Suite *machine_suite(void)
{
    Suite *s = suite_create("machine");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, uniform_and_hostfile);
    tcase_add_test(tc, network_spec_errors);
    tcase_add_test(tc, network_spec_limits);
    tcase_add_test(tc, torus_distances_1d_to_5d);
    tcase_add_test(tc, torus_routes_dimension_order);
    tcase_add_test(tc, torus_shells);
    tcase_add_test(tc, torus_positions_file);
    tcase_add_test(tc, flat_network);
    tcase_add_test(tc, fattree_distances);
    tcase_add_test(tc, fattree_three_levels_and_hostlists);
    tcase_add_test(tc, fattree_parse_errors);
    tcase_add_test(tc, dragonfly_distances);
    tcase_add_test(tc, graph_network);
    tcase_add_test(tc, fattree_multiple_parents);
    tcase_add_test(tc, explicit_tables_match_bfs);
    tcase_add_test(tc, explicit_tables_bounded);
    tcase_add_test(tc, explicit_tables_unused_hosts);
    tcase_add_test(tc, explicit_tables_dead_ends);
    tcase_add_test(tc, explicit_tables_graph_limit);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(machine_suite);
}
