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
 *                      (the others are switches).
 * Every line format (hostfile, topology.conf, graph, positions file, task
 * order file, mapping file, rankfile) takes '#' comments anywhere on a
 * line: a '#' and the rest of its line are left out.  A torus, mesh or
 * dragonfly spec gives at most 1048576 positions and 16777216 link ids
 * (those of the largest torus within that: positions x 8 dimensions x 2),
 * like a hostfile's 1048576 slots: past them gm_network_parse fails with
 * TG_EINVAL "network 'torus:8192x8192' has 67108864 positions, more than
 * the limit of 1048576" (or "... links ...").
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
 * or O(1), no allocation).  Fat-tree and graph networks keep BFS distances
 * per attachment (the set of links of a node's host: nodes under the same
 * leaf switches share one) to the vertices a route between nodes can pass
 * (fat-trees: switches; graphs: every vertex; neither: dead ends without
 * a node): 2 bytes x rows x attachments (x 2 on fat-trees, for the up and
 * down phases, plus an attachment x attachment distance matrix), at most
 * 16 KiB per node of the machine (at least 256 MiB, at most 2 GiB), beyond
 * which the network is refused with its size said (explicit.c).
 *
 * Inside a node (gm_machine_set_node_topology): one hwloc topology, a
 * synthetic string or an XML file, describes every node.  A slot is a core
 * (logical order) when the node has as many slots as cores, else a PU when
 * it has as many as PUs.  Packages are numbered by hwloc's logical index;
 * a topology without a package level is one package.  It gives the
 * metric cross_socket_bytes and the levels of J (gm_evaluate_levels);
 * GreedyMap and the refinement place tasks on the slots of a node by it
 * (gm_greedymap).
 *
 * Baselines (gm_baseline_map; papers/001, 5.1).  Processors are (node,
 * slot) pairs; "planar order" is node by node, slot by slot.  All take T <=
 * total slots tasks and say below which slots stay free when T is smaller.
 *   block    the "default" of the paper: task i on the i-th processor in
 *            planar order; the last processors stay free.
 *   cyclic   task i on node i mod N, passing over full nodes (unequal
 *            slots), each node's slots in order; the highest slots of
 *            every node stay free.
 *   hilbert  OO_Hilbert: task i on the i-th processor when nodes are
 *            ordered along a Hilbert curve over their torus/mesh
 *            coordinates (Skilling's algorithm in any number of
 *            dimensions, on the cube of side 2^b that holds the largest
 *            dimension; positions without a node are skipped), slots of a
 *            node consecutive; the curve's last processors stay free.  The
 *            curve starts at the origin along dimension 0.  Other networks:
 *            TG_EINVAL "hilbert needs a torus or mesh network".
 *   rb       recursive bisection (Hoefler and Snir): nodes and tasks are
 *            halved together (tori: along the widest dimension; other
 *            networks: by distance from a peripheral node), tasks by METIS
 *            with the halves' slot shares as targets, then made exact;
 *            free slots are spread over the halves in proportion to their
 *            slots, and inside a node the highest stay free.  Details at
 *            the top of bisect.c.
 *   drb      dual recursive bipartitioning (Pellegrini's, as Scotch maps):
 *            rb's cuts, level by level, each then weighing the edges to
 *            tasks outside it: which task half goes to which node half
 *            (when the halves are equal), and swaps between the halves
 *            that lower the bytes x distance to the other regions
 *            (between the middles of their nodes' bounding boxes on tori
 *            and meshes).  1.3 to 2 times rb's time.
 *   random   a uniformly random injection from the seed (Fisher-Yates on
 *            the processors in planar order, xoshiro256** from tg_rng).
 *   decompose  a Cartesian grid of tasks (the graph's tg_grid, or one
 *            gm_grid_detect finds) cut into one box per node (Mapple's
 *            decompose, papers/004 section 4, generalised; details at the
 *            top of decompose.c): the cut that crosses the fewest bytes,
 *            boxes embedded in a torus or mesh (dimensions folded where
 *            the shapes differ) or, on other networks, laid along a
 *            compact order of the box grid onto nodes in network order;
 *            a node's slots in a compact order of its box (a sub-box per
 *            package when a node topology has several).  Graphs without
 *            a grid: TG_EINVAL.
 *
 * GreedyMap (papers/001, 4.4-4.5; gm_greedymap): tasks are placed one by
 * one in the order of a task list.  The first task goes to node 0 (seed 0)
 * or to a node drawn from the seed; that is the "last used node" n_l.
 * With packNodeFirst a task stays on n_l while n_l has a free slot;
 * otherwise the candidates are the Delta nodes with free slots closest to
 * a centre (Delta = all, ceil(sqrt(nodes)) or a constant; found by a
 * shells walk that skips full nodes, never a scan of all nodes on tori and
 * meshes; Torus_Wrap = 0 explores a torus by its distances without wrap)
 * and the task goes to the one of lowest cost.  The centre is n_l
 * (centre=last, Algorithm 1 line 8) or, with centre=nbr, the node holding
 * the most of the task's bytes to its placed neighbours (n_l when none is
 * placed).  Costs depend only on the task's already placed neighbours:
 * hop-bytes; max hop-bytes (the largest per-task hop-bytes after the
 * placement, then hop-bytes); max link load (the largest link load after
 * routing the task's bytes from the candidate to its placed neighbours'
 * nodes with least-loaded routes, then hop-bytes).  Ties: with seed 0, on
 * tori and meshes first the tied node whose squared Euclidean distances
 * to the placed neighbours' nodes (per dimension, the shorter way round a
 * wrapping one), weighted by bytes, sum lowest: among nodes at the same
 * hop-bytes it keeps a group compact (a 2x2 square rather than a line
 * with a bump); then, on every network, the tied node closest to n_l,
 * then the lowest id (no randomness at all); with any other seed a random
 * tied node, weighted by its free slots (= a random processor among the
 * tied ones).  A node's slots fill from 0 up, except on machines with
 * levels inside their nodes (a node topology or a hierarchy): each
 * node's tasks then take, in list order, the free slot of least bytes x
 * level distance to the node's tasks before them, improved by swaps
 * inside the node (slots.c; nodes unchanged).  Same configuration and
 * seed, same mapping, bit for bit.
 * Refinement (refine=1, cost=hopbytes only; gm_refine): after Algorithm
 * 1, passes of strictly improving swaps of whole nodes' tasks with nearby
 * nodes', then of single tasks with tasks on (or moves into free slots
 * of) the nodes holding most of their bytes, by exact changes of total
 * hop-bytes; never worse than Algorithm 1's mapping, deterministic.
 * refine=0 (the default) runs Algorithm 1 only.
 * Task lists: OO (ids); BFS, BFS-DFS and RCM per connected component
 * (components by lowest id) from a George-Liu pseudo-peripheral task; BFS
 * visits neighbours in id order; BFS-DFS follows the heaviest edge to an
 * unvisited neighbour (ties: lowest id) and, when stuck, restarts from the
 * oldest discovered task not yet placed; RCM is Cuthill-McKee (neighbours
 * by increasing degree, then id) reversed per component.  GPART: a METIS
 * k-way partition into one part per node with part sizes exactly the
 * tasks each node will hold (gm_partition), parts in node order, ids
 * ascending inside a part.  GPARTRB: the parts of recursive bisection
 * (the rb baseline's tasks of each node: task graph and nodes halved
 * together along the network), parts in maximum-adjacency order over the
 * graph of parts (gm_part_order), each part's tasks breadth-first from
 * its task with the most bytes to the parts before it.  FILE: one task id
 * per line.
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

/* Intra-node structure for every node: an hwloc synthetic string ("pack:2
 * core:16 pu:1") or the path of an hwloc XML file (a readable file is
 * XML).  Slot s of a node is its s-th core in logical order when the
 * node's slots equal the core count, its s-th PU when they equal the PU
 * count; anything else is an error naming both numbers.  Adding a node
 * drops the node topology: set it again afterwards. */
int gm_machine_set_node_topology(gm_machine *m, const char *spec,
                                 tg_error *err);
/* The spec given to gm_machine_set_node_topology, or NULL when none. */
const char *gm_machine_node_topology(const gm_machine *m);
/* The package (socket) of a slot, by the package's logical index; 0 when
 * the node topology has no package level; -1 when no node topology or
 * in-job levels are set (or the node has no levels). */
int gm_slot_package(const gm_machine *m, int node, int slot);
/* 1 when slots have packages (a node topology or in-job levels). */
int gm_machine_has_packages(const gm_machine *m);

/* In-job levels: each node its own hwloc topology and its own cores (the
 * ones the job may use), as parmapper finds them inside the job.  The
 * levels are those of a node topology (pu, core, l3, numa, package, with
 * the same default costs and hwloc's NUMA latencies where it has them;
 * gm_evaluate_levels), computed by the same code.
 * gm_node_levels_describe: the groups of the ncores cores with logical
 * indexes core[] of a loaded hwloc topology, GM_NODE_LEVELS ints per core
 * into groups (bottom up: position in core[], core, L3, NUMA node,
 * package; a level the topology lacks takes the group of the level
 * above), and hwloc's NUMA latency costs (*nnuma x *nnuma, malloc'd,
 * indexed by NUMA logical index; NULL and 0 when hwloc has no matrix).
 * gm_machine_set_node_levels: node `node`'s slot s is then on described
 * core s / per_core (two slots of one core differ at level pu).  The
 * first call replaces a node topology or hierarchy; nodes not given
 * levels have one level (every pair of slots costs 1).  Adding a node
 * drops them.  Errors (TG_EINVAL): a core the topology lacks, slots that
 * do not fit, a group out of range. */
#define GM_NODE_LEVELS 5
struct hwloc_topology;
int gm_node_levels_describe(struct hwloc_topology *topo, const int *core,
                            int ncores, int *groups, int *nnuma,
                            uint64_t **numa_cost, tg_error *err);
int gm_machine_set_node_levels(gm_machine *m, int node, const int *groups,
                               int ncores, int per_core, int nnuma,
                               const uint64_t *numa_cost, tg_error *err);


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
/* The cost of adding flows without adding them: the largest load that the
 * links of their routes would carry after gm_loads_add(l, a[i], b[i], w[i],
 * policy) for i = 0 .. k-1 in order (0 when no flow leaves its node).
 * Nothing changes.  TG_ENOMEM only (its undo log grows on demand). */
int gm_loads_peek(gm_loads *l, const int *a, const int *b,
                  const uint64_t *w, int k, gm_route_policy policy,
                  uint64_t *max, tg_error *err);
/* The commit that goes with gm_loads_peek: gm_loads_add for each flow in
 * order; returns the largest load on their routes afterwards. */
uint64_t gm_loads_add_flows(gm_loads *l, const int *a, const int *b,
                            const uint64_t *w, int k,
                            gm_route_policy policy);

/* ---------------------------------------------------------------- shells */

/* Nodes in order of nondecreasing distance from a start node: the start
 * node itself first (distance 0), then every other node once.  Tori and
 * meshes generate coordinate shells of growing radius (no sort, cost
 * proportional to the positions inside the radius reached); flat networks
 * and dragonflies at their default placement walk ranges of ids (O(1) at
 * start); fat-trees and dragonflies placed by a file merge their groups of
 * nodes (attachments, routers) by distance (O(groups) at start); graph
 * networks sort every node (O(nodes) at start).  Ties go to the lower
 * node id. */
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

/* On every node whose distinct slots are all at the same distance
 * (gm_comm_distance; no levels inside it, or levels that separate nothing
 * there), give the node's tasks (map, n of them) its used slots in task
 * order: every metric and J stay the same, and the k-th task of each such
 * node sits on its k-th used slot, as one Slurm map_cpu list for all
 * nodes wants (slots.c; nodes of more than 4096 slots are left as they
 * are).  Returns 0 or TG_ENOMEM. */
int gm_slots_task_order(const gm_machine *m, gm_place *map, int n,
                        tg_error *err);

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
/* Write the mapping file and the rankfile (either path may be NULL) as one
 * step: both are complete before either replaces its destination, so a
 * failure (an unwritable folder, a full disk) leaves both untouched. */
int gm_mapping_write_files(const gm_machine *m, const gm_place *map, int n,
                           const char *mapping, const char *rankfile,
                           tg_error *err);
/* Read an Open MPI rankfile: lines "rank N=host slot=S" (blanks allowed
 * around '='), '#' comments; S is a slot number, or SOCKET:CORE (logical
 * indexes, the core counted inside its package, as Open MPI counts them)
 * when a node topology is set and the node's slots are its cores.  Every
 * rank 0 .. ntasks-1 exactly once (ntasks < 0: as many as lines).  Errors
 * as gm_mapping_read's, saying "rank". */
int gm_rankfile_read(const char *path, const gm_machine *m, int ntasks,
                     gm_place **out, int *n_out, tg_error *err);
/* Read a Scotch .map file: the first line is the count, then "label
 * target" lines.  Labels are task numbers from 0, or from 1 when no label
 * is 0 and one equals the task count (Scotch writes vertex numbers from the
 * graph's baseval).  The target is a processor index in planar order (node
 * by node, slot by slot: the target "cmplt P" or a torus with one slot per
 * node) or, with by_node, a node index whose slots are filled in task
 * order (an error when a node receives more tasks than slots).  Every task
 * 0 .. ntasks-1 exactly once (ntasks < 0: the count).  Errors name the
 * file and line. */
int gm_scotch_map_read(const char *path, const gm_machine *m, int ntasks,
                       int by_node, gm_place **out, int *n_out,
                       tg_error *err);

/* The three mapping file formats above. */
typedef enum gm_map_format {
    GM_MAP_TOPOMAP = 0, /* topomap's mapping file (gm_mapping_read) */
    GM_MAP_RANKFILE,    /* Open MPI rankfile (gm_rankfile_read) */
    GM_MAP_SCOTCH       /* Scotch .map (gm_scotch_map_read) */
} gm_map_format;

/* A mapping file read whole, once, then parsed in any of the formats: a
 * pipe (/dev/stdin, a shell's <(...)) can be read only once, so the
 * format is told from the same text that is parsed.  The readers above
 * are gm_map_text_load + gm_map_text_read.
 * gm_map_text_load: read `path` (errors: cannot open, empty file, binary
 * data); *guess (may be NULL) gets the format the content says: the first
 * line that is neither blank nor a '#' comment starts with "rank" and a
 * blank: GM_MAP_RANKFILE; holds one number alone: GM_MAP_SCOTCH; anything
 * else GM_MAP_TOPOMAP.
 * gm_map_text_read: parse the text as `format` (by_node: Scotch targets
 * are nodes, ignored by the other formats), as the reader of that format
 * does, messages naming `path`.  A text is parsed once (TG_EINVAL after).
 * Free it with gm_map_text_free. */
typedef struct gm_map_text gm_map_text;
int gm_map_text_load(const char *path, gm_map_text **out,
                     gm_map_format *guess, tg_error *err);
int gm_map_text_read(gm_map_text *t, gm_map_format format, int by_node,
                     const gm_machine *m, int ntasks, gm_place **out,
                     int *n_out, tg_error *err);
void gm_map_text_free(gm_map_text *t);

/* ------------------------------------------------------------- baselines */

/* The list mappings and other reference mappers of papers/001, 5.1 (see
 * the top of this file). */
typedef enum gm_baseline {
    GM_BASE_BLOCK = 0, /* "default": task i on the i-th processor */
    GM_BASE_CYCLIC,    /* round-robin over nodes */
    GM_BASE_HILBERT,   /* processors along a Hilbert curve (tori, meshes) */
    GM_BASE_RB,        /* recursive bisection with METIS */
    GM_BASE_RANDOM,    /* a random bijection from the seed */
    GM_BASE_DECOMPOSE, /* grid boxes, one per node (decompose.c) */
    GM_BASE_DRB        /* rb weighing edges to tasks outside (bisect.c) */
} gm_baseline;

/* "block", "cyclic", "hilbert", "rb", "random", "decompose" or "drb"
 * (TG_EINVAL otherwise). */
int gm_baseline_parse(const char *name, gm_baseline *out, tg_error *err);
const char *gm_baseline_name(gm_baseline b);
/* Map g's tasks (g->n <= total slots) into map[g->n].  seed drives random
 * and METIS inside rb; block, cyclic and hilbert ignore it. */
int gm_baseline_map(const tg_graph *g, const gm_machine *m, gm_baseline b,
                    uint64_t seed, gm_place *map, tg_error *err);

/* ------------------------------------------------------------ decompose */

/* The grid decompose works on: g->grid when the graph has one, else the
 * grid gm_grid_detect finds.  Returns 1 with *out filled (out->task
 * points into g, not copied), 0 when g has no grid. */
int gm_grid_of(const tg_graph *g, tg_grid *out);
/* A grid read from the graph's edges alone: 1 when g's edges are exactly
 * a stencil (the 2d face neighbours, or every offset in {-1,0,1}^d) over
 * tasks in row-major order on some dimensions (each >= 2, at most 4) and
 * periods, checked edge by edge; *out then holds them (task NULL).  0
 * otherwise: nothing is guessed.  O(E log degree) per candidate shape,
 * the candidates coming from task 0's neighbours. */
int gm_grid_detect(const tg_graph *g, tg_grid *out);
/* Parse "64x64x64" or "64x64x64,1,1,0" (dims, then one period flag per
 * dimension, 1 = wraps; default none wraps) into out (task NULL). */
int gm_grid_parse(const char *text, tg_grid *out, tg_error *err);

/* Mapple's decompose: the cut of `grid` (a grid of g's tasks) into
 * nparts equal boxes, parts[d] boxes along dimension d (every parts[d]
 * divides dims[d]), that crosses the fewest bytes of g's edges, all
 * factorisations of nparts enumerated over its prime factors.  The bytes
 * are counted per offset between the two tasks' grid positions (so
 * unequal bytes per dimension and diagonals count as they are): exact for
 * any graph whose every offset carries equal bytes at every position (a
 * stencil with per-dimension weights), an estimate otherwise.  *cut gets
 * that count.  Ties: the first in the enumeration (a lower exponent of a
 * smaller prime on a lower dimension first).  TG_EINVAL when no such cut
 * exists. */
int gm_decompose_parts(const tg_graph *g, const tg_grid *grid, int nparts,
                       int *parts, double *cut, tg_error *err);

/* What gm_decompose_map chooses (see the top of decompose.c). */
typedef struct gm_decompose_plan {
    int ndims;
    int parts[TG_GRID_MAXDIMS]; /* boxes along each grid dimension */
    int boxes;                  /* their product */
    int exact;    /* 1: every box holds exactly its node's slots; 0: the
                     tasks flow box after box onto the nodes */
    int embedded; /* 1: boxes embedded in the torus/mesh (fold); 0: along
                     the box order onto nodes in network order */
    /* fold[d][j]: boxes of grid dimension d along network dimension j
     * (embedded only; the product over j is parts[d]). */
    int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS];
    double cut_bytes; /* bytes crossing box boundaries (as above) */
    double hop_bytes; /* embedded: the hop-bytes estimate it minimised
                         (each edge once); 0 otherwise */
    /* Not embedded, exact, on networks whose nodes come in equal groups
     * (hosts under one leaf switch, on one router: consecutive in
     * network order, at the least distance from each other): the group
     * boxes, group[d] along grid dimension d (dividing parts[d]); all 1
     * otherwise. */
    int group[TG_GRID_MAXDIMS];
} gm_decompose_plan;

/* The plan and the mapping of decompose for g's tasks on `grid` (NULL:
 * gm_grid_of) onto m; either output may be NULL. */
int gm_decompose(const tg_graph *g, const gm_machine *m, const tg_grid *grid,
                 gm_decompose_plan *plan, gm_place *map, tg_error *err);

/* ---------------------------------------------------------------- levels */

/* Levels and the communication cost J (levels.c).  A pair of places has
 * a distance: 0 for one slot; inside a node the cost of the highest level
 * at which the two slots' groups differ; between nodes GM_NODE_FACTOR x
 * the network distance, or, with a hierarchy, the distance of the highest
 * level at which the two nodes' groups differ.  Levels inside a node:
 *   no node topology   one level, core: two slots of a node cost 1;
 *   node topology      pu 1 (two PUs of one core), core 1 (two cores of
 *                      one L3), l3 2 (two L3 groups of a NUMA node), numa
 *                      2 (two NUMA nodes of a package), package 4; a level
 *                      the topology lacks separates nothing; with hwloc's
 *                      NUMA latency matrix two slots on NUMA nodes i != j
 *                      cost latency(i, j) / latency(i, i), rounded;
 *   hierarchy          KaHIP's and SharedMap's machine model
 *                      (--hierarchy_parameter_string=4:8:8
 *                      --distance_parameter_string=1:10:100): processor p
 *                      (node by node, slot by slot) is in group
 *                      p / (a1 x .. x ai) at level i; two processors cost
 *                      d_i for the highest i at which their groups differ.
 *                      The first levels, whose product is the slots of a
 *                      node, are inside the node, the others group nodes
 *                      (so hop-bytes keep the network, J the hierarchy).
 * J = sum over tasks t, over t's edges (t, u), of w x distance: every
 * edge counted from both ends, as in hop_bytes_total and in SharedMap's
 * determine_qap. */
#define GM_NODE_FACTOR 10
#define GM_LEVELS_MAX 32

/* Describe the machine as hierarchy "a1:a2:..:ah" with distances
 * "d1:..:dh" (positive integers, at most 16 levels): every node has the
 * same slots, the product of the first levels; the product of all levels
 * is the machine's slots.  Replaces the levels of a node topology (which
 * still gives gm_slot_package).  Errors (TG_EINVAL) quote the text. */
int gm_machine_set_hierarchy(gm_machine *m, const char *hierarchy,
                             const char *distance, tg_error *err);
/* The distance J counts between two places (above). */
uint64_t gm_comm_distance(const gm_machine *m, gm_place a, gm_place b);

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
    /* w(e) of edges whose tasks are on one node but on two packages
     * (gm_slot_package); 0 without a node topology. */
    uint64_t cross_socket_bytes;
    int has_node_topology;   /* 1 when a node topology is set */
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

/* Bytes per level and the communication cost J of a mapping (checked as
 * by gm_mapping_check).  Levels bottom up: those inside a node
 * (gm_comm_distance above), then "node" (on a network) or the hierarchy's
 * levels above the node.  bytes[i] is the sum of w(e), each edge once,
 * over the edges whose two places' highest differing level is i (so
 * bytes across packages = bytes[package], across NUMA nodes = bytes[numa]
 * + bytes[package]); cost[i] is the level's distance (on a network the
 * node level's cost is GM_NODE_FACTOR, J multiplying it by the network
 * distance).  Edges on one slot count nowhere. */
typedef struct gm_level_metrics {
    int nlevels;
    char name[GM_LEVELS_MAX][16];
    uint64_t cost[GM_LEVELS_MAX];
    uint64_t bytes[GM_LEVELS_MAX];
    uint64_t comm_cost; /* J */
    /* >= 0: the node topology has hwloc's NUMA latency matrix and two
     * slots on NUMA nodes i != j cost latency(i, j) / latency(i, i)
     * (rounded, at least 1), not cost[], at this level and above inside
     * the node; -1: no matrix. */
    int latency_level;
    int saturated;      /* some value stopped at UINT64_MAX */
} gm_level_metrics;

int gm_evaluate_levels(const tg_graph *g, const gm_machine *m,
                       const gm_place *map, gm_level_metrics *out,
                       tg_error *err);

/* ------------------------------------------------------------- GreedyMap */

/* Task lists (papers/001, 4.5; details at the top of this file). */
typedef enum gm_order {
    GM_ORDER_OO = 0, /* original order */
    GM_ORDER_BFS,    /* breadth-first from a pseudo-peripheral task */
    GM_ORDER_BFSDFS, /* depth-first along paths, breadth-first when stuck */
    GM_ORDER_GPART,  /* METIS k-way parts, one per node, consecutive */
    GM_ORDER_RCM,    /* reverse Cuthill-McKee */
    GM_ORDER_GPARTRB, /* recursive-bisection parts, maximum adjacency */
    GM_ORDER_FILE    /* one task id per line of a file (always last) */
} gm_order;

/* What GreedyMap minimises when it picks a node. */
typedef enum gm_cost {
    GM_COST_HOPBYTES = 0, /* hop-bytes of the task to its placed neighbours */
    GM_COST_MAXHOPBYTES,  /* the largest per-task hop-bytes, then hop-bytes */
    GM_COST_MAXLINKLOAD   /* the largest link load, then hop-bytes */
} gm_cost;

/* Where the Delta candidate nodes are looked for (Algorithm 1, line 8). */
typedef enum gm_centre {
    GM_CENTRE_LAST = 0, /* around n_l, the last used node (the paper) */
    GM_CENTRE_NBR       /* around the node with most of the task's bytes to
                           its placed neighbours; n_l when none is placed */
} gm_centre;

/* delta: > 0 a constant number of nodes, or one of these. */
#define GM_DELTA_ALL 0
#define GM_DELTA_SQRT (-1) /* ceil(sqrt(nodes)) */

/* A configuration of GreedyMap (papers/001, 4.5) plus a seed. */
typedef struct gm_config {
    gm_order order;
    int delta;              /* > 0, GM_DELTA_ALL or GM_DELTA_SQRT */
    int pack;               /* packNodeFirst: 0 or 1 */
    gm_cost cost;
    int wrap;               /* Torus_Wrap: 0 or 1 (ignored off tori) */
    uint64_t seed;
    const char *order_file; /* GM_ORDER_FILE only; caller keeps it alive */
    gm_centre centre;       /* last (0, the paper) or nbr */
    int refine;             /* 1: gm_refine after Algorithm 1 (needs
                               cost = GM_COST_HOPBYTES); 0: none */
    int baseline;           /* 0: GreedyMap; 1 + a gm_baseline: that
                               reference mapper instead (gm_baseline_map
                               with seed, then gm_refine with refine=1),
                               every other field ignored */
} gm_config;

/* Parse "order=bfs,delta=sqrt,pack=1,cost=hopbytes,wrap=1,centre=last,
 * refine=0,seed=7": any subset of the keys, each at most once, defaults
 * order=oo, delta=all, pack=1, cost=hopbytes, wrap=1, centre=last,
 * refine=0, seed=0.  order
 * is oo, bfs, bfsdfs, gpart, rcm, gpartrb or file:PATH, where PATH runs
 * to the end of the text (so order=file:PATH comes last) and
 * out->order_file points into text (keep text alive).  delta is all, sqrt
 * or a positive integer; cost is hopbytes, maxhopbytes or maxlinkload;
 * centre is last or nbr; refine is 0 or 1, and 1 only with
 * cost=hopbytes (the refinement lowers total hop-bytes, which could raise
 * what the other costs minimise).  "baseline=KIND[,refine=1][,seed=S]"
 * (KIND as in gm_baseline_parse) is a reference mapper instead of
 * GreedyMap, refined with refine=1; it takes no other key.  Errors (TG_EINVAL) quote the text and name the bad
 * item. */
int gm_config_parse(const char *text, gm_config *out, tg_error *err);
/* The canonical text of a configuration, every key, in the order of
 * gm_config_parse's description except that order=file:PATH comes last;
 * gm_config_parse reads it back to the same configuration ("baseline=KIND,
 * seed=S" for a baseline).  Truncated to size; returns buf. */
const char *gm_config_format(const gm_config *c, char *buf, size_t size);
/* 1 when c's mapping depends on its seed: GreedyMap (the first node and
 * ties), rb and drb (METIS), random; 0 for block, cyclic, hilbert and
 * decompose, refined or not (gm_refine takes no seed). */
int gm_config_seeded(const gm_config *c);
/* The standard portfolio for this machine (< 100 entries, seed 0, wrap=0
 * variants only on tori with a wrapping dimension), fastest first; *out is
 * malloc'd. */
int gm_configurations(const gm_machine *m, gm_config **out, int *n,
                      tg_error *err);
/* What parmapper runs on g: gm_configurations, then the baselines block,
 * rb, drb and, when g has a grid (gm_grid_of), decompose, so that its
 * first round is never worse than any of them, then rb and drb refined
 * (refine=1), as greedymap map's default refines them. */
int gm_portfolio(const tg_graph *g, const gm_machine *m, gm_config **out,
                 int *n, tg_error *err);
/* The default of greedymap map: gm_greedymap with c, then the baselines
 * block, rb, drb (seed c->seed) and, when g has a grid (gm_grid_of),
 * decompose; the mapping of least total hop-bytes (ties: the earlier in
 * that order) is refined by gm_refine unless it is decompose's (best.c
 * says why) or c's cost is not hop-bytes, and so is every other such
 * candidate within 2 % of it before refinement; map gets the least total
 * of all these (ties: the winner before refinement, then the earlier in
 * that order); *won (may be NULL) the
 * configuration that makes it (c itself or c with baseline set, refine=1
 * where refined), *total (may be NULL) its total hop-bytes. */
int gm_map_best(const tg_graph *g, const gm_machine *m, const gm_config *c,
                gm_place *map, gm_config *won, uint64_t *total,
                tg_error *err);

/* The task list of a configuration: order[i] = the i-th task to place
 * (g->n entries).  m is used by GPART and GPARTRB only (parts); seed by
 * them only (METIS's seed).  FILE errors name the file and line. */
int gm_task_order(const tg_graph *g, const gm_machine *m, const gm_config *c,
                  int *order, tg_error *err);
/* GPART's partition: part[t] = the node whose part holds task t (g->n
 * entries).  Node i's part holds exactly as many tasks as node i will
 * hold: its slots, or, with fewer tasks than slots, nodes filled in node
 * order until the tasks run out (later nodes get none).  METIS k-way with
 * these target sizes, seeded with seed, then rebalanced to the exact
 * sizes by moving the tasks whose move adds least to the cut. */
int gm_partition(const tg_graph *g, const gm_machine *m, uint64_t seed,
                 int *part, tg_error *err);
/* The task list of a partition (part[t] in 0 .. nparts-1): the parts one
 * after the other, every part's tasks consecutive.  Parts in maximum-
 * adjacency order over the graph of parts (two parts adjacent when an
 * edge joins them, weighted by the bytes between them): each connected
 * component of that graph in the order of its lowest part, from a
 * George-Liu pseudo-peripheral part of it, then always the part with the
 * most bytes to the parts already listed (ties: the lowest part).  Inside
 * a part, breadth-first over the part's own edges (neighbours in id
 * order) from its task with the most bytes to the parts listed before it
 * (ties, and the first part: the lowest id), restarting at the lowest
 * task not yet listed when the part's edges do not reach all of it.
 * O((T + E) log T). */
int gm_part_order(const tg_graph *g, const int *part, int nparts,
                  int *order, tg_error *err);
/* Algorithm 1 of papers/001: map all g->n tasks (g->n <= total slots)
 * into map[g->n], then, with refine=1, gm_refine.  The same configuration
 * and seed give the same mapping bit for bit. */
int gm_greedymap(const tg_graph *g, const gm_machine *m, const gm_config *c,
                 gm_place *map, tg_error *err);
/* gm_greedymap with the task list given and a way to stop early.  order
 * (g->n entries, every task once) replaces the list of c->order, so a
 * caller that maps several configurations with one list (gm_task_order's)
 * computes it once.  stop, when not NULL, is called with arg before each
 * task is placed; when it returns non-zero the run ends there and returns
 * 1, map incomplete.  Placing one task evaluates at most Delta candidate
 * nodes against its placed neighbours, so a request is seen that soon.
 * With refine=1 stop is also asked before each task of a refinement
 * pass (a stop there returns 1 too, the map then complete but not fully
 * refined).  Same configuration, seed and list: the same mapping as
 * gm_greedymap. */
int gm_greedymap_run(const tg_graph *g, const gm_machine *m,
                     const gm_config *c, const int *order,
                     int (*stop)(void *arg), void *arg, gm_place *map,
                     tg_error *err);
/* Local refinement of a complete mapping of g's tasks (checked as by
 * gm_mapping_check), in place; details at the top of refine.c.  Passes,
 * 8 at most, until one changes nothing; each pass is
 *   a node sweep: for every node x (id order), the tasks of x all trade
 *     places with those of one of the 24 nodes nearest x (gm_shells
 *     order; an empty node takes them), when each side fits the other's
 *     slots;
 *   a task sweep: for every task t (id order), the 4 nodes other than its
 *     own holding the most of t's bytes (ties: the lower id) are
 *     candidates: t moves into a free slot there or swaps with a task
 *     there (from the second pass, only tasks whose node or neighbours'
 *     nodes changed since they were last weighed).
 * Every step takes its best strict improvement of total hop-bytes, exact
 * from the adjacency of the tasks that move (the edges between them
 * included), the first of equals.  So the total hop-bytes never rises;
 * every node keeps its task count except by moves into free slots, which
 * take the lowest free slot (the task in the old node's highest used slot
 * then takes the freed one, so used slots 0 .. c-1 stay so); no
 * randomness, and the order of edges in the CSR changes nothing.  Cost
 * per pass O(E x (24 + 4 s)) memory steps, s = slots per node, plus
 * distances.  stop, when not NULL, is asked before each node and task;
 * non-zero ends the refinement and returns 1 (map valid, partly
 * refined).  On machines with levels inside their nodes the slots of
 * each node are then improved by swaps (slots.c), which change J, not
 * hop-bytes. */
int gm_refine(const tg_graph *g, const gm_machine *m,
              int (*stop)(void *arg), void *arg, gm_place *map,
              tg_error *err);

#ifdef __cplusplus
}
#endif

#endif
