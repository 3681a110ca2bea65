/* test_metrics.c: hop-bytes, dilation, off-node bytes and link loads of
 * small mappings computed by hand; mapping files and rankfiles; a check
 * against Scotch's gmtst where it is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_testutil.h"
#include "greedymap.h"
#include "testutil.h"

/* ------------------------------------------------------------- metrics */

START_TEST(ring_on_2x2_torus)
{
    /* Ring 0-1 (10), 1-2 (20), 2-3 (30), 3-0 (40); task i on node i of
     * torus:2x2: node0 (0,0), node1 (0,1), node2 (1,0), node3 (1,1).
     * Distances: d(0,1) = 1, d(1,2) = 2, d(2,3) = 1, d(3,0) = 2.
     * hopbytes: t0 = 10*1 + 40*2 = 90, t1 = 10 + 20*2 = 50,
     * t2 = 40 + 30 = 70, t3 = 30 + 80 = 110; total 320 = 2 x 160. */
    const int e[][3] = {{0, 1, 10}, {1, 2, 20}, {2, 3, 30}, {3, 0, 40}};
    tg_graph *g = tu_graph(4, 4, e);
    gm_machine *m = gt_machine_on(4, 1, "torus:2x2");
    gm_place map[4] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    gm_metrics r;
    uint64_t hb[4];
    tg_error err;
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, hb, &r, &err), 0);
    const uint64_t want[4] = {90, 50, 70, 110};
    for (int t = 0; t < 4; t++)
        ck_assert_uint_eq(hb[t], want[t]);
    ck_assert_int_eq(r.tasks, 4);
    ck_assert_int_eq(r.edges, 4);
    ck_assert_uint_eq(r.bytes, 100);
    ck_assert_uint_eq(r.offnode_bytes, 100);
    ck_assert_double_eq(r.offnode_share, 1.0);
    ck_assert_uint_eq(r.hop_bytes_total, 320);
    ck_assert_double_eq(r.hop_bytes_avg, 80.0);
    ck_assert_uint_eq(r.hop_bytes_max, 110);
    ck_assert_int_eq(r.hop_bytes_max_task, 3);
    ck_assert_double_eq(r.dilation_avg, 1.5);
    ck_assert_double_eq(r.dilation_wavg, 1.6);
    ck_assert_int_eq(r.dilation_max, 2);
    /* Dimension order, smaller task first: 0->1 uses (0,0)->(0,1);
     * 0->3 uses (0,0)->(1,0), (1,0)->(1,1); 1->2 uses (0,1)->(1,1),
     * (1,1)->(1,0); 2->3 uses (1,0)->(1,1).  So (1,0)->(1,1) carries
     * 40 + 30 = 70; its id is (2*2 + 1)*2 + 0 = 10.  The heuristic finds
     * nothing better: 0->3 keeps the free order (0, 1), 1->2 too, and
     * 2->3 has only one route. */
    ck_assert_uint_eq(r.load_max_fixed, 70);
    ck_assert_int_eq(r.load_max_fixed_link, 10);
    ck_assert_uint_eq(r.load_max_heuristic, 70);
    ck_assert_int_eq(r.saturated, 0);
    char name[64];
    ck_assert_str_eq(gm_link_name(m, 10, name, sizeof name), "node2->node3");

    /* Two tasks per node: edges inside a node cost nothing. */
    gm_machine *m2 = gt_machine_on(2, 2, "torus:2");
    gm_place map2[4] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    ck_assert_int_eq(gm_evaluate(g, m2, map2, GM_METRICS_NO_LOAD, NULL, &r,
                                 &err),
                     0);
    /* Off node: 1-2 (20) and 3-0 (40), one hop each. */
    ck_assert_uint_eq(r.offnode_bytes, 60);
    ck_assert_double_eq(r.offnode_share, 0.6);
    ck_assert_uint_eq(r.hop_bytes_total, 120);
    ck_assert_uint_eq(r.hop_bytes_max, 40);
    ck_assert_int_eq(r.hop_bytes_max_task, 0);
    ck_assert_double_eq(r.dilation_avg, 0.5);
    ck_assert_uint_eq(r.load_max_fixed, 0);
    ck_assert_int_eq(r.load_max_fixed_link, -1);
    gm_machine_free(m2);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(heuristic_spreads_load_on_torus)
{
    /* Tasks 0, 1 on node0 (0,0); 2, 3 on node3 (1,1) of torus:2x2; edges
     * 0-2 and 1-3 of 10 bytes.  Fixed routes both take dimension 0 first:
     * 20 on (0,0)->(1,0) and (1,0)->(1,1).  Least-loaded sends the second
     * one along dimension 1 first: 10 everywhere. */
    const int e[][3] = {{0, 2, 10}, {1, 3, 10}};
    tg_graph *g = tu_graph(4, 2, e);
    gm_machine *m = gt_machine_on(4, 2, "torus:2x2");
    gm_place map[4] = {{0, 0}, {0, 1}, {3, 0}, {3, 1}};
    gm_metrics r;
    tg_error err;
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &r, &err), 0);
    ck_assert_uint_eq(r.load_max_fixed, 20);
    ck_assert_uint_eq(r.load_max_heuristic, 10);
    ck_assert_uint_eq(r.hop_bytes_total, 80);
    gm_machine_free(m);
    tg_graph_free(g);

    /* 4-D: the heuristic tries the d rotations of the dimension order. */
    gm_loads *l;
    m = gt_machine_on(16, 1, "torus:2x2x2x2");
    ck_assert_int_eq(gm_loads_new(m, &l, &err), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(gm_loads_add(l, 0, 15, 5, GM_ROUTE_LEAST_LOADED),
                          5);
    ck_assert_uint_eq(gm_loads_add(l, 0, 15, 5, GM_ROUTE_LEAST_LOADED), 10);
    gm_loads_reset(l);
    ck_assert_uint_eq(gm_loads_add(l, 0, 15, 5, GM_ROUTE_FIXED), 5);
    ck_assert_uint_eq(gm_loads_add(l, 0, 15, 5, GM_ROUTE_FIXED), 10);
    ck_assert_uint_eq(gm_loads_add(l, 3, 3, 5, GM_ROUTE_FIXED), 0);
    ck_assert_int_eq(gm_loads_saturated(l), 0);
    ck_assert_uint_eq(gm_loads_add(l, 0, 15, UINT64_MAX, GM_ROUTE_FIXED),
                      UINT64_MAX);
    ck_assert_int_eq(gm_loads_saturated(l), 1);
    gm_loads_free(l);
    gm_machine_free(m);
}
END_TEST

START_TEST(star_on_fattree)
{
    /* Leaves leaf0 (n0..n3) and leaf1 (n4..n7) under one spine.  Task 0
     * on n0 talks to task i on ni with 10*i bytes.  Distances from n0:
     * 2 to n1..n3, 4 to n4..n7.  hopbytes(0) = 2*(10+20+30) +
     * 4*(40+50+60+70) = 1000; hopbytes(i) = 10*i*d: 20, 40, 60, 160,
     * 200, 240, 280 (sum 1000); total 2000, average 250. */
    const char *conf = tu_write("topology.conf",
                                "SwitchName=leaf0 Nodes=n[0-3]\n"
                                "SwitchName=leaf1 Nodes=n[4-7]\n"
                                "SwitchName=spine Switches=leaf[0-1]\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    gm_machine *m = gt_machine_on(8, 1, spec);
    int e[7][3];
    for (int i = 0; i < 7; i++) {
        e[i][0] = 0;
        e[i][1] = i + 1;
        e[i][2] = 10 * (i + 1);
    }
    tg_graph *g = tu_graph(8, 7, (const int(*)[3])e);
    gm_place map[8];
    for (int t = 0; t < 8; t++)
        map[t] = (gm_place){t, 0};
    gm_metrics r;
    uint64_t hb[8];
    tg_error err;
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, hb, &r, &err), 0);
    const uint64_t want[8] = {1000, 20, 40, 60, 160, 200, 240, 280};
    for (int t = 0; t < 8; t++)
        ck_assert_uint_eq(hb[t], want[t]);
    ck_assert_uint_eq(r.hop_bytes_total, 2000);
    ck_assert_double_eq(r.hop_bytes_avg, 250.0);
    ck_assert_uint_eq(r.hop_bytes_max, 1000);
    ck_assert_int_eq(r.hop_bytes_max_task, 0);
    ck_assert_uint_eq(r.bytes, 280);
    /* dilation: 2,2,2,4,4,4,4 -> 22/7; weighted 2000/2/280. */
    ck_assert_double_eq_tol(r.dilation_avg, 22.0 / 7.0, 1e-12);
    ck_assert_double_eq_tol(r.dilation_wavg, 1000.0 / 280.0, 1e-12);
    ck_assert_int_eq(r.dilation_max, 4);
    /* Every byte leaves n0 up to leaf0: 280; leaf0->spine carries 220. */
    char name[64];
    ck_assert_uint_eq(r.load_max_fixed, 280);
    ck_assert_str_eq(gm_link_name(m, r.load_max_fixed_link, name,
                                  sizeof name),
                     "node0->leaf0");
    ck_assert_uint_eq(r.load_max_heuristic, 280);
    gm_loads *l;
    ck_assert_int_eq(gm_loads_new(m, &l, &err), 0);
    for (int i = 1; i < 8; i++)
        gm_loads_add(l, 0, i, 10 * (uint64_t)i, GM_ROUTE_FIXED);
    int links[4];
    ck_assert_int_eq(gm_route(m, 0, 4, links, 4), 4);
    ck_assert_uint_eq(gm_loads_get(l, links[1]), 220);
    ck_assert_uint_eq(gm_loads_get(l, links[2]), 220);
    ck_assert_uint_eq(gm_loads_get(l, links[3]), 40);
    gm_loads_free(l);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(huge_weights_saturate)
{
    /* 2^62 bytes over 5 hops: the true hop-bytes do not fit 64 bits. */
    const uint64_t big = UINT64_C(1) << 62;
    tg_builder *b = tg_builder_new(2);
    tg_error err;
    ck_assert_int_eq(tg_builder_add(b, 0, 1, big, &err), 0);
    tg_graph *g;
    ck_assert_int_eq(tg_builder_finish(b, &g, &err), 0);
    tg_builder_free(b);
    gm_machine *m = gt_machine_on(11, 1, "mesh:11");
    gm_place map[2] = {{0, 0}, {5, 0}};
    gm_metrics r;
    ck_assert_int_eq(gm_evaluate(g, m, map, 0, NULL, &r, &err), 0);
    ck_assert_int_eq(r.saturated, 1);
    ck_assert_uint_eq(r.hop_bytes_max, UINT64_MAX);
    ck_assert_uint_eq(r.bytes, big);
    ck_assert_double_eq(r.hop_bytes_avg, 5.0 * (double)big);
    ck_assert_double_eq(r.dilation_wavg, 5.0);
    ck_assert_uint_eq(r.load_max_fixed, big);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

START_TEST(mapping_check_errors)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 2, &m, &err), 0);
    gm_place ok[3] = {{0, 0}, {1, 1}, {0, 1}};
    ck_assert_int_eq(gm_mapping_check(m, ok, 3, &err), 0);
    gm_place bad1[2] = {{0, 0}, {2, 0}};
    ck_assert_int_eq(gm_mapping_check(m, bad1, 2, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "task 1 is on node 2, the machine has 2 "
                               "nodes");
    gm_place bad2[2] = {{0, 2}, {1, 0}};
    ck_assert_int_eq(gm_mapping_check(m, bad2, 2, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "task 0 is on node0 slot 2, the node has 2 "
                               "slots");
    gm_place bad3[3] = {{1, 1}, {0, 0}, {1, 1}};
    ck_assert_int_eq(gm_mapping_check(m, bad3, 3, &err), TG_EINVAL);
    ck_assert_str_eq(err.text, "task 2 is on node1 slot 1, already used by "
                               "task 0");
    /* gm_evaluate refuses the same way. */
    const int e[][3] = {{0, 1, 1}};
    tg_graph *g = tu_graph(3, 1, e);
    gm_metrics r;
    ck_assert_int_eq(gm_evaluate(g, m, bad3, 0, NULL, &r, &err), TG_EINVAL);
    tg_graph_free(g);
    gm_machine_free(m);
}
END_TEST

/* ------------------------------------------------------- mapping files */

START_TEST(mapping_file_round_trip_and_rankfile)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 2, &m, &err), 0);
    const char *path = tu_write("ok.map", "# a mapping\n0 node0 0\n\n"
                                          "2 node0 1 # on the first node\n"
                                          "1 node1 1#\n  # 1 node0 0\n"
                                          "3 node1 0   \n");
    gm_place *map;
    int n;
    ck_assert_int_eq(gm_mapping_read(path, m, 4, &map, &n, &err), 0);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(map[1].node, 1);
    ck_assert_int_eq(map[1].slot, 1);
    ck_assert_int_eq(map[2].node, 0);
    ck_assert_int_eq(map[2].slot, 1);
    const char *out = tu_path("out.map");
    ck_assert_int_eq(gm_mapping_write(out, m, map, n, &err), 0);
    gm_place *back;
    int n2;
    ck_assert_int_eq(gm_mapping_read(out, m, -1, &back, &n2, &err), 0);
    ck_assert_int_eq(n2, 4);
    for (int t = 0; t < 4; t++) {
        ck_assert_int_eq(back[t].node, map[t].node);
        ck_assert_int_eq(back[t].slot, map[t].slot);
    }
    free(back);

    const char *rf = tu_path("rankfile");
    ck_assert_int_eq(gm_rankfile_write(rf, m, map, n, &err), 0);
    FILE *fp = fopen(rf, "r");
    char text[256];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[len] = '\0';
    ck_assert_str_eq(text, "rank 0=node0 slot=0\n"
                           "rank 1=node1 slot=1\n"
                           "rank 2=node0 slot=1\n"
                           "rank 3=node1 slot=0\n");
    fp = fopen(out, "r");
    len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[len] = '\0';
    ck_assert_str_eq(text, "# topomap mapping: task node slot\n"
                           "0 node0 0\n1 node1 1\n2 node0 1\n3 node1 0\n");
    /* A bad mapping writes nothing. */
    map[3] = map[0];
    const char *bad = tu_path("bad.rankfile");
    ck_assert_int_eq(gm_rankfile_write(bad, m, map, n, &err), TG_EINVAL);
    ck_assert(!tu_exists(bad));
    free(map);
    gm_machine_free(m);
}
END_TEST

START_TEST(mapping_file_errors)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 2, &m, &err), 0);
    struct {
        const char *text;
        int ntasks;
        long line;
        const char *msg;
    } cases[] = {
        {"0 node0 0\n1 nodeX 0\n", 2, 2, "unknown host 'nodeX'"},
        {"# x\n0 node0 2\n", 1, 2, "slot 2 is out of range: node0 has 2 "
                                   "slots"},
        {"0 node0 0\n0 node1 0\n", 2, 2, "task 0 is mapped twice (first on "
                                         "line 1)"},
        {"0 node0 0\n1 node0 1\n3 node1 0\n", 4, 0, "task 2 is missing (4 "
                                                    "tasks)"},
        {"0 node0 x\n", 1, 1, "slot is not a non-negative integer: 'x'"},
        {"0 node0 0\n-1 node1 0\n", 2, 2, "task is negative: '-1'"},
        {"0 node0 0\n1 node0 0\n", 2, 2, "node0 slot 0 is used twice (first "
                                         "on line 1)"},
        {"0 node0\n", 1, 1, "expected 'task host slot'"},
        {"0 node0 0 7\n", 1, 1, "extra text after 'task host slot'"},
        {"5 node0 0\n", 2, 1, "task 5 is out of range (2 tasks)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = tu_write("bad.map", cases[i].text);
        gm_place *map = NULL;
        ck_assert_int_eq(gm_mapping_read(path, m, cases[i].ntasks, &map,
                                         NULL, &err),
                         TG_EPARSE);
        ck_assert_ptr_null(map);
        ck_assert_str_eq(err.source, path);
        ck_assert_int_eq(err.line, cases[i].line);
        ck_assert_str_eq(err.text, cases[i].msg);
    }
    gm_machine_free(m);
}
END_TEST

/* One text, read once, in each format; the format told from the text (a
 * pipe can be read only once, so nothing reads the file twice). */
START_TEST(mapping_text_any_format)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(2, 2, &m, &err), 0);
    struct {
        const char *text;
        gm_map_format format;
    } cases[] = {
        {"# topomap\n\n0 node0 1\n1 node1 0 # x\n", GM_MAP_TOPOMAP},
        {"  # Open MPI\nrank 0=node0 slot=1 # x\nrank 1=node1 slot=0\n",
         GM_MAP_RANKFILE},
        {"\n2 \r\n0 1\n1 2\n", GM_MAP_SCOTCH},
        {"2", GM_MAP_SCOTCH},
        {"rank0=node0 slot=1\n", GM_MAP_TOPOMAP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = tu_write("any.map", cases[i].text);
        gm_map_text *t = NULL;
        gm_map_format f = (gm_map_format)-1;
        ck_assert_int_eq(gm_map_text_load(path, &t, &f, &err), 0);
        ck_assert_int_eq(f, cases[i].format);
        if (i >= 3) {
            gm_map_text_free(t);
            continue;
        }
        gm_place *map = NULL;
        int n = 0;
        ck_assert_int_eq(gm_map_text_read(t, f, 0, m, -1, &map, &n, &err), 0);
        ck_assert_int_eq(n, 2);
        ck_assert_int_eq(map[0].node, 0);
        ck_assert_int_eq(map[0].slot, 1);
        ck_assert_int_eq(map[1].node, 1);
        ck_assert_int_eq(map[1].slot, 0);
        free(map);
        /* Parsed once: the text is gone. */
        map = NULL;
        ck_assert_int_eq(gm_map_text_read(t, f, 0, m, -1, &map, &n, &err),
                         TG_EINVAL);
        ck_assert_ptr_null(map);
        ck_assert_str_eq(err.text, "the mapping text was parsed already");
        gm_map_text_free(t);
    }
    /* Errors of the readers: an empty file, a parse error at its line. */
    const char *path = tu_write("empty.map", " \n\n");
    gm_map_text *t = NULL;
    ck_assert_int_eq(gm_map_text_load(path, &t, NULL, &err), TG_EPARSE);
    ck_assert_ptr_null(t);
    ck_assert_str_eq(err.text, "empty file");
    path = tu_write("bad.map", "0 node0 0\n1 node1 0 # x\n1 node0 1\n");
    ck_assert_int_eq(gm_map_text_load(path, &t, NULL, &err), 0);
    gm_place *map = NULL;
    ck_assert_int_eq(gm_map_text_read(t, GM_MAP_TOPOMAP, 0, m, 2, &map, NULL,
                                      &err),
                     TG_EPARSE);
    ck_assert_str_eq(err.source, path);
    ck_assert_int_eq(err.line, 3);
    ck_assert_str_eq(err.text, "task 1 is mapped twice (first on line 2)");
    gm_map_text_free(t);
    gm_machine_free(m);
}
END_TEST

/* --------------------------------------------------------------- Scotch */

/* The "(N)" after "name=" in gmtst's output, or -1. */
static long long gmtst_value(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p || !(p = strchr(p, '(')))
        return -1;
    return atoll(p + 1);
}

START_TEST(hop_bytes_match_scotch_gmtst)
{
    if (tu_run("command -v gmtst >/dev/null 2>&1") != 0)
        return; /* Scotch's tools are not installed */
    /* 12 tasks: a ring plus chords i -- i+5, weights 1 + (7i mod 23).
     * Scotch's "torus2D X Y" numbers terminal p = x + X*y, which is
     * position p of our torus:YxX (last dimension fastest). */
    int e[24][3], m_ = 0;
    for (int i = 0; i < 12; i++) {
        e[m_][0] = i;
        e[m_][1] = (i + 1) % 12;
        e[m_++][2] = 1 + (7 * i) % 23;
        e[m_][0] = i;
        e[m_][1] = (i + 5) % 12;
        e[m_++][2] = 2 + (5 * i) % 11;
    }
    tg_graph *g = tu_graph(12, m_, (const int(*)[3])e);
    tg_error err;
    const char *grf = tu_path("g.grf");
    ck_assert_int_eq(tg_write_scotch(grf, g, &err), 0);
    tu_write("t.tgt", "torus2D\n4\t3\n");
    gm_machine *m = gt_machine_on(12, 1, "torus:3x4");
    gm_place map[12];
    char text[512] = "12\n";
    for (int t = 0; t < 12; t++) {
        map[t] = (gm_place){(5 * t + 3) % 12, 0};
        snprintf(text + strlen(text), sizeof text - strlen(text), "%d\t%d\n",
                 t, map[t].node);
    }
    tu_write("g.map", text);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && gmtst g.grf t.tgt g.map > out.txt",
             tu_tmpdir());
    ck_assert_int_eq(tu_run(cmd), 0);
    FILE *fp = fopen(tu_path("out.txt"), "r");
    char out[4096];
    size_t len = fread(out, 1, sizeof out - 1, fp);
    fclose(fp);
    out[len] = '\0';
    gm_metrics r;
    ck_assert_int_eq(gm_evaluate(g, m, map, GM_METRICS_NO_LOAD, NULL, &r,
                                 &err),
                     0);
    /* CommExpan = sum over edges of w x distance: half our total. */
    ck_assert_int_eq(gmtst_value(out, "CommExpan="),
                     (long long)(r.hop_bytes_total / 2));
    ck_assert_int_eq(gmtst_value(out, "CommDilat="),
                     (long long)(r.dilation_avg * (double)r.edges + 0.5));
    ck_assert_int_eq(gmtst_value(out, "CommCutSz="),
                     (long long)r.offnode_bytes);
    gm_machine_free(m);
    tg_graph_free(g);
}
END_TEST

static Suite *metrics_suite(void)
{
    Suite *s = suite_create("metrics");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ring_on_2x2_torus);
    tcase_add_test(tc, heuristic_spreads_load_on_torus);
    tcase_add_test(tc, star_on_fattree);
    tcase_add_test(tc, huge_weights_saturate);
    tcase_add_test(tc, mapping_check_errors);
    tcase_add_test(tc, mapping_file_round_trip_and_rankfile);
    tcase_add_test(tc, mapping_file_errors);
    tcase_add_test(tc, mapping_text_any_format);
    tcase_add_test(tc, hop_bytes_match_scotch_gmtst);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_main(metrics_suite);
}
