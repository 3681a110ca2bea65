/*
 * greedymap.h: the machine model and mapping metrics of topomap (prefix
 * gm_).
 *
 * A machine (papers/001, 3.1) is a list of nodes, each with a hostname and
 * a number of slots (processors), placed on a network.  Nodes are numbered
 * 0 .. n-1 in the order they were added; a slot is 0 .. slots-1 inside its
 * node.  A mapping places task t on (node, slot) = map[t].
 *
 * Networks (one spec string, gm_network_parse):
 *   flat               one switch; every node has a link to it and back.
 *   torus:16x16x16     N-D torus (up to 8 dimensions), every dimension wraps;
 *   mesh:8x8           the same without wrap.  A dimension may carry a
 *                      suffix that overrides its kind: 't' wraps, 'm' does
 *                      not (torus:8x8x4m wraps dimensions 0 and 1 only).
 *                      Position index = row-major coordinates, the LAST
 *                      dimension fastest: (x, y, z) -> (x * Y + y) * Z + z.
 *   fattree:FILE       Slurm topology.conf: "SwitchName=s0 Nodes=n[0-15,32]",
 *                      "SwitchName=s9 Switches=s[0-3]" (hostlist ranges,
 *                      '#' comments, LinkSpeed= ignored).  A switch listed
 *                      under several parents is allowed (a real fat-tree).
 *   dragonfly:G,R,N    G groups of R routers, N nodes per router.  Routers of
 *                      a group are linked all-to-all; each pair of groups
 *                      has one global link.  The link between groups g and h
 *                      sits, in group g, on router (h < g ? h : h - 1) % R
 *                      (and in group h on router (g < h ? g : g - 1) % R):
 *                      group g's G-1 global links are dealt round-robin over
 *                      its routers in the order of the other groups' ids.
 *                      Position p: group p / (R*N), router (p / N) % R.
 *   graph:FILE         an edge list: each line "a b" is one bidirectional
 *                      link between the vertices named a and b; lines
 *                      "nodes NAME..." declare which vertices are hosts
 *                      (the others are switches); '#' comments.
 *
 * Distance = links on a shortest path between two nodes (papers/001, 3.1);
 * a node to itself is 0.  Node-to-switch links count: on `flat` two
 * distinct nodes are at distance 2 (node -> switch -> node), on a fat-tree
 * two nodes under one leaf switch are at 2, under different leaves below a
 * common parent at 4, and so on; on a dragonfly nodes of one router are at
 * 2, of one group at 3, of different groups at 3, 4 or 5 (node link, local
 * hop if needed, global link, local hop if needed, node link).  On a torus or mesh nodes are the routers, so neighbours are at 1.
 * On fat-trees the distance is the up/down distance (the routes never turn
 * from down to up), which equals the shortest path on trees and on levelled
 * fat-trees.
 *
 * Routes and links.  Links are directed (G_n of papers/001 is directed):
 * every cable has one link id per direction, ids in [0, gm_link_count).
 * Fixed routes (gm_route):
 *   torus/mesh   dimension order, dimension 0 first; on a wrapping ring the
 *                shorter way, and on an even ring where both ways are equal
 *                (|delta| = size/2) the + direction.
 *   fat-tree     up to a lowest common ancestor, then down; among equal
 *                choices the first in file order.
 *   dragonfly    minimal: local hop to the router holding the global link
 *                (if needed), the global link, local hop to the destination
 *                router (if needed).
 *   graph        a shortest path; among equal choices the first link in
 *                file order.
 * Least-loaded routes (the congestion heuristic of papers/001, 5.1), used
 * by gm_loads_add with GM_ROUTE_LEAST_LOADED:
 *   torus/mesh   candidates are dimension orders: all d! orders when
 *                d <= 3, the d cyclic rotations (0..d-1, 1..d-1 0, ...)
 *                when d > 3; the candidate whose largest current link load
 *                is smallest wins (ties: the earliest, the fixed order being
 *                first).  Ring directions are as in the fixed route.
 *   fat-tree     hop by hop: at each step, among the links that stay on an
 *                up/down shortest route (the parents at an up step), the
 *                one with the least current load (ties: file order).
 *   graph        the same greedy rule over all shortest-path next hops.
 *   flat,        one minimal route only: the same as the fixed route.
 *   dragonfly
 *
 * Memory: torus, mesh, flat and dragonfly keep no tables (distance is O(d)
 * or O(1), no allocation).  Fat-tree and graph networks keep, for every
 * machine node, its BFS distances to every network vertex: 2 bytes x
 * vertices x nodes (x 2 on fat-trees, for the up and down phases).
 *
 * Errors: as in taskgraph.h, functions return 0 or a negative TG_E* code
 * and fill a tg_error that names the file and line where there is one.
 */
#ifndef TOPOMAP_GREEDYMAP_H
#define TOPOMAP_GREEDYMAP_H

#include <stddef.h>
#include <stdint.h>

#include "taskgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_MAX_DIMS 8

/* --------------------------------------------------------------- network */

typedef enum gm_net_kind {
    GM_NET_FLAT = 0,
    GM_NET_TORUS,     /* torus and mesh: one kind, wrap per dimension */
    GM_NET_FATTREE,
    GM_NET_DRAGONFLY,
    GM_NET_GRAPH
} gm_net_kind;

typedef struct gm_network gm_network;

/* Parse a network spec (see the top of this file); FILE arguments are read
 * now.  Spec errors name the spec; file errors name FILE and the line. */
int gm_network_parse(const char *spec, gm_network **out, tg_error *err);
void gm_network_free(gm_network *net);
gm_net_kind gm_network_kind(const gm_network *net);
/* Host positions the network offers; 0 for flat (as many as needed). */
int gm_network_positions(const gm_network *net);
/* Torus/mesh shape: dimensions (returned) and, when not NULL, sizes and
 * wrap flags (GM_MAX_DIMS entries each).  0 for other kinds. */
int gm_network_shape(const gm_network *net, int *sizes, int *wrap);

/* --------------------------------------------------------------- machine */

typedef struct gm_machine gm_machine;

/* An empty machine on a flat network. */
gm_machine *gm_machine_new(void);
void gm_machine_free(gm_machine *m);
/* Append a node; returns its id (>= 0) or a negative code.  Hostnames are
 * unique (TG_EINVAL for a repeat); slots >= 1.  Adding a node drops the
 * placement: call gm_machine_set_network again afterwards. */
int gm_machine_add_node(gm_machine *m, const char *host, int slots,
                        tg_error *err);
/* nodes x slots, named node0 .. node{nodes-1}, on a flat network. */
int gm_machine_uniform(int nodes, int slots, gm_machine **out,
                       tg_error *err);
/* An Open MPI hostfile: "host slots=S" (max_slots= is accepted and
 * ignored), "host" alone is 1 slot, '#' comments; a host listed again adds
 * its slots, as mpirun does.  Flat network. */
int gm_machine_read_hostfile(const char *path, gm_machine **out,
                             tg_error *err);

int gm_machine_nodes(const gm_machine *m);
int gm_machine_slots(const gm_machine *m, int node);
/* Sum of the slots of all nodes. */
int64_t gm_machine_total_slots(const gm_machine *m);
const char *gm_machine_hostname(const gm_machine *m, int node);
/* The node called host, or -1.  O(1) (hash). */
int gm_machine_find(const gm_machine *m, const char *host);

/* Put the machine on `net` (ownership passes to m, also on failure).
 * positions == NULL: node i goes to position i for torus, mesh and
 * dragonfly; for fat-tree and graph networks nodes go by name when every
 * hostname is a host of the topology, else the i-th node to the i-th host
 * in file order (no hostname may match then).  A positions file has lines
 * "hostname x y ..." (torus/mesh: one coordinate per dimension),
 * "hostname g r i" (dragonfly: group, router, node on the router) or
 * "hostname NAME" (fat-tree, graph: the host's name in the topology); '#'
 * comments; lines for hosts not in the machine are skipped, so one file can
 * describe a whole cluster; every machine node needs a line.  Errors: more
 * nodes than positions, a position outside the network, two hosts on one
 * position, a host listed twice, a node without a position, nodes that
 * cannot reach each other.  On failure the machine is back on `flat`. */
int gm_machine_set_network(gm_machine *m, gm_network *net,
                           const char *positions, tg_error *err);
/* gm_network_parse + gm_machine_set_network. */
int gm_machine_set_network_spec(gm_machine *m, const char *spec,
                                const char *positions, tg_error *err);
const gm_network *gm_machine_network(const gm_machine *m);
/* The network position of a node (torus: its row-major index). */
int gm_machine_position(const gm_machine *m, int node);
/* Torus/mesh coordinates of a node (ndims ints), or NULL for other kinds. */
const int *gm_machine_coords(const gm_machine *m, int node);

/* ------------------------------------------------------ distance, routes */

/* Links on a shortest path between nodes a and b (0 when a == b).
 * Allocation-free; O(d) on tori, O(1) elsewhere. */
int gm_distance(const gm_machine *m, int a, int b);
/* The largest distance between two nodes of this machine (an upper bound
 * on tori: the network's diameter).  Routes are never longer. */
int gm_max_distance(const gm_machine *m);

/* Link ids are in [0, gm_link_count(m)); some ids may be unused (mesh
 * borders, dragonfly router to itself). */
int gm_link_count(const gm_machine *m);
/* Network vertices: host positions and switches/routers, ids in
 * [0, gm_vertex_count(m)).  The vertex of a node: gm_node_vertex. */
int gm_vertex_count(const gm_machine *m);
int gm_node_vertex(const gm_machine *m, int node);
/* The vertices a link goes from and to; TG_EINVAL for an unused id. */
int gm_link_ends(const gm_machine *m, int link, int *from, int *to);
/* "FROM->TO" with vertex names (hostnames where a node sits, torus
 * coordinates "(x,y)", switch names), for reports; returns buf. */
const char *gm_link_name(const gm_machine *m, int link, char *buf,
                         size_t size);

/* The fixed route from node a to node b: writes its first min(len, cap)
 * link ids into links and returns len (== gm_distance(m, a, b)).
 * Allocation-free. */
int gm_route(const gm_machine *m, int a, int b, int *links, int cap);

/* ------------------------------------------------------------ link loads */

typedef enum gm_route_policy {
    GM_ROUTE_FIXED = 0,    /* gm_route */
    GM_ROUTE_LEAST_LOADED  /* the heuristic of papers/001, 5.1 (above) */
} gm_route_policy;

/* Bytes per link, for the link-load metric and for cost functions.  A
 * gm_loads (like a gm_shells) belongs to the machine as it was placed when
 * it was made: make a new one after gm_machine_set_network or
 * gm_machine_add_node. */
typedef struct gm_loads gm_loads;

int gm_loads_new(const gm_machine *m, gm_loads **out, tg_error *err);
void gm_loads_free(gm_loads *l);
/* All loads back to 0. */
void gm_loads_reset(gm_loads *l);
/* Route w bytes from node a to node b under `policy` and add w to every
 * link of the route (saturating at UINT64_MAX).  Returns the largest load
 * on that route afterwards (0 when a == b).  Allocation-free. */
uint64_t gm_loads_add(gm_loads *l, int a, int b, uint64_t w,
                      gm_route_policy policy);
uint64_t gm_loads_get(const gm_loads *l, int link);
/* The largest load and, when link is not NULL, the first link carrying it
 * (-1 when every load is 0).  O(links). */
uint64_t gm_loads_max(const gm_loads *l, int *link);
/* 1 when some addition saturated. */
int gm_loads_saturated(const gm_loads *l);

/* ---------------------------------------------------------------- shells */

/* Nodes in order of nondecreasing distance from a start node: the start
 * node itself first (distance 0), then every other node once.  Tori and
 * meshes generate coordinate shells of growing radius (no sort, cost
 * proportional to the positions inside the radius reached); other networks
 * bucket the nodes by distance (O(nodes) at start: by level on fat-trees,
 * BFS layers on graphs). */
typedef struct gm_shells gm_shells;

int gm_shells_new(const gm_machine *m, gm_shells **out, tg_error *err);
void gm_shells_free(gm_shells *s);
/* Restart from `node`.  wrap == 0 explores a torus as a mesh (the
 * Torus_Wrap = false configuration of papers/001, 4.5): shells and the
 * distances reported are then those without wrap.  Ignored off tori. */
void gm_shells_start(gm_shells *s, int node, int wrap);
/* The next node, its distance in *dist (may be NULL); -1 when done. */
int gm_shells_next(gm_shells *s, int *dist);

/* --------------------------------------------------------------- mapping */

/* Where a task runs. */
typedef struct gm_place {
    int node;
    int slot;
} gm_place;

/* Check a mapping of n tasks: node in range, slot < the node's slots, each
 * (node, slot) used once.  The message names the first offending task. */
int gm_mapping_check(const gm_machine *m, const gm_place *map, int n,
                     tg_error *err);

/* Read topomap's mapping file: lines "task host slot", '#' comments, every
 * task 0 .. ntasks-1 exactly once (ntasks < 0: as many tasks as lines).
 * *out gets ntasks places (free()), *n_out (may be NULL) the count.  Errors
 * name the file and line: bad number, unknown host, slot out of range, a
 * task out of range or twice, a (host, slot) twice; a missing task names
 * the file only. */
int gm_mapping_read(const char *path, const gm_machine *m, int ntasks,
                    gm_place **out, int *n_out, tg_error *err);
/* Write the mapping file (a '#' header line, then "task host slot" in task
 * order).  Atomic; the mapping is checked first. */
int gm_mapping_write(const char *path, const gm_machine *m,
                     const gm_place *map, int n, tg_error *err);
/* Write an Open MPI rankfile: "rank T=host slot=S" per task.  Atomic. */
int gm_rankfile_write(const char *path, const gm_machine *m,
                      const gm_place *map, int n, tg_error *err);

/* --------------------------------------------------------------- metrics */

/* Metrics of a mapping (papers/001, 3.2).  Sums are exact: they are kept
 * in 128 bits and returned as uint64_t, stopping at UINT64_MAX with
 * `saturated` set when they do not fit. */
typedef struct gm_metrics {
    int tasks;
    int64_t edges;
    uint64_t bytes;          /* sum of w(e), each edge once */
    uint64_t offnode_bytes;  /* w(e) of edges whose ends are on two nodes */
    double offnode_share;    /* offnode_bytes / bytes (0 when no bytes) */
    /* hopbytes(t) = sum over t's edges of w(e) x distance (eq. 1).  The
     * total is the sum over tasks, so it counts every edge twice:
     * hop_bytes_total = 2 x sum over edges of w(e) x distance. */
    uint64_t hop_bytes_total;
    double hop_bytes_avg;    /* eq. 2: hop_bytes_total / tasks */
    uint64_t hop_bytes_max;  /* eq. 3 */
    int hop_bytes_max_task;  /* the first task that has it (-1: no tasks) */
    /* Dilation = distance of an edge's two tasks, each edge once. */
    double dilation_avg;     /* mean over edges, unweighted */
    double dilation_wavg;    /* mean weighted by bytes: sum w d / sum w */
    int dilation_max;        /* largest, unweighted */
    /* Max link load (eq. 4-5): each edge's w(e) is charged to every link
     * of the route from the node of its smaller task to the node of its
     * larger task (the task graph has no directions; edges on one node
     * load no link).  Edges are routed in CSR order. */
    uint64_t load_max_fixed;     /* fixed routes (gm_route) */
    int load_max_fixed_link;     /* first link carrying it, -1 if none */
    uint64_t load_max_heuristic; /* least-loaded routes (papers/001, 5.1) */
    int load_max_heuristic_link;
    int saturated;               /* some value stopped at UINT64_MAX */
} gm_metrics;

enum {
    GM_METRICS_NO_LOAD = 1 /* skip both link-load metrics (faster) */
};

/* Evaluate a mapping of g's tasks (map has g->n entries, checked as by
 * gm_mapping_check).  task_hop_bytes, when not NULL, receives hopbytes(t)
 * for every task (saturated like the totals).  flags: GM_METRICS_*. */
int gm_evaluate(const tg_graph *g, const gm_machine *m, const gm_place *map,
                unsigned flags, uint64_t *task_hop_bytes, gm_metrics *out,
                tg_error *err);

#ifdef __cplusplus
}
#endif

#endif
