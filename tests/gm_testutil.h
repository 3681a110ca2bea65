/* gm_testutil.h: helpers shared by the libgreedymap check tests
 * (test_machine.c, test_metrics.c, test_greedy.c, test_refine.c). */
#ifndef TOPOMAP_GM_TESTUTIL_H
#define TOPOMAP_GM_TESTUTIL_H

#include "greedymap.h"

/* nodes x slots on the network `spec`. */
gm_machine *gt_machine_on(int nodes, int slots, const char *spec);
/* Nodes h0 .. h{n-1} with the given slot counts, on `spec`. */
gm_machine *gt_uneven_on(const int *slots, int n, const char *spec);
/* A fat-tree of 8 nodes: two leaf switches of 4 under one spine. */
gm_machine *gt_two_leaves(int slots);
/* A configuration from its text (the test fails on a parse error). */
gm_config gt_config(const char *text);
/* gm_greedymap with the configuration `config` (fails the test on an
 * error). */
void gt_map_with(const tg_graph *g, const gm_machine *m, const char *config,
                 gm_place *map);
/* Assert task t is on (want[t][0], want[t][1]) for t < n. */
void gt_assert_map(const gm_place *map, const int (*want)[2], int n);
/* gm_evaluate's hop_bytes_total (each edge counted from both ends). */
uint64_t gt_hop_bytes(const tg_graph *g, const gm_machine *m,
                      const gm_place *map);
/* $TOPOMAP_SHARED/hwloc-xml/name (. without it), in a static buffer. */
const char *gt_xml_path(const char *name);

#endif
