/* gm_testutil.c: see gm_testutil.h. */
#include <stdio.h>
#include <stdlib.h>

#include "gm_testutil.h"
#include "testutil.h"

gm_machine *gt_machine_on(int nodes, int slots, const char *spec)
{
    gm_machine *m;
    tg_error err;
    ck_assert_int_eq(gm_machine_uniform(nodes, slots, &m, &err), 0);
    int rc = gm_machine_set_network_spec(m, spec, NULL, &err);
    ck_assert_msg(rc == 0, "%s: %s", spec, err.text);
    return m;
}

gm_machine *gt_uneven_on(const int *slots, int n, const char *spec)
{
    gm_machine *m = gm_machine_new();
    tg_error err;
    char host[16];
    for (int i = 0; i < n; i++) {
        snprintf(host, sizeof host, "h%d", i);
        ck_assert_int_eq(gm_machine_add_node(m, host, slots[i], &err), i);
    }
    ck_assert_int_eq(gm_machine_set_network_spec(m, spec, NULL, &err), 0);
    return m;
}

gm_machine *gt_two_leaves(int slots)
{
    const char *conf = tu_write("topology.conf",
                                "SwitchName=leaf0 Nodes=node[0-3]\n"
                                "SwitchName=leaf1 Nodes=node[4-7]\n"
                                "SwitchName=spine Switches=leaf[0-1]\n");
    char spec[700];
    snprintf(spec, sizeof spec, "fattree:%s", conf);
    return gt_machine_on(8, slots, spec);
}

gm_config gt_config(const char *text)
{
    gm_config c;
    tg_error err;
    int rc = gm_config_parse(text, &c, &err);
    ck_assert_msg(rc == 0, "%s: %s", text, err.text);
    return c;
}

void gt_map_with(const tg_graph *g, const gm_machine *m, const char *config,
                 gm_place *map)
{
    gm_config c = gt_config(config);
    tg_error err;
    int rc = gm_greedymap(g, m, &c, map, &err);
    ck_assert_msg(rc == 0, "%s: %s", config, err.text);
}

void gt_assert_map(const gm_place *map, const int (*want)[2], int n)
{
    for (int t = 0; t < n; t++) {
        ck_assert_msg(map[t].node == want[t][0] && map[t].slot == want[t][1],
                      "task %d on (%d, %d), not (%d, %d)", t, map[t].node,
                      map[t].slot, want[t][0], want[t][1]);
    }
}

uint64_t gt_hop_bytes(const tg_graph *g, const gm_machine *m,
                      const gm_place *map)
{
    gm_metrics r;
    tg_error err;
    ck_assert_int_eq(gm_evaluate(g, m, map, GM_METRICS_NO_LOAD, NULL, &r,
                                 &err),
                     0);
    return r.hop_bytes_total;
}

const char *gt_xml_path(const char *name)
{
    static char path[1024];
    const char *shared = getenv("TOPOMAP_SHARED");
    snprintf(path, sizeof path, "%s/hwloc-xml/%s", shared ? shared : ".",
             name);
    return path;
}
