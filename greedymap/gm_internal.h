/*
 * gm_internal.h: structures and helpers shared by the modules of
 * libgreedymap; not installed.
 */
#ifndef TOPOMAP_GM_INTERNAL_H
#define TOPOMAP_GM_INTERNAL_H

#include "greedymap.h"
#include "tg_internal.h"

#define GM_UNREACHABLE UINT16_MAX

/* ---------------------------------------------------------- string map */

/* Open-addressing hash map from strings to ints; keys are not copied (the
 * caller keeps them alive). */
typedef struct gm_strmap {
    const char **keys;
    int *vals;
    size_t cap; /* power of two, 0 when empty */
    size_t count;
} gm_strmap;

void gm_strmap_free(gm_strmap *h);
/* Value of key, or -1. */
int gm_strmap_get(const gm_strmap *h, const char *key);
/* Insert key -> val; returns the existing value (>= 0) when the key is
 * already there (and keeps it), -1 when inserted, TG_ENOMEM (< -1). */
int gm_strmap_put(gm_strmap *h, const char *key, int val);

/* --------------------------------------------------------- line files */

/* The next line of one of greedymap's line formats (hostfile, fat-tree
 * topology.conf, graph network, positions file, task order, mapping file,
 * rankfile): a '#' anywhere starts a comment that runs to the end of the
 * line and is cut off; lines blank after that are skipped.  NULL at the
 * end of the text. */
char *gm_text_line(tg_text *t);

/* ------------------------------------------------------------ hostlist */

/* The most nodes, slots or network positions a machine may get from its
 * description: a few bytes ("n[0-99999999]", "slots=2147483647",
 * "torus:8192x8192") must not make a machine that costs gigabytes to
 * build and map onto.  1048576 is past the largest machines built. */
#define GM_MACHINE_MAX (1 << 20)
/* The most names one hostlist may expand to. */
#define GM_HOSTLIST_MAX GM_MACHINE_MAX
/* The most slots --nodes N --slots S may give (N x S): past the largest
 * machines built (about 10 million cores), above GM_MACHINE_MAX so that a
 * 128^3 grid fits on 32768 nodes of 64 slots; a typo of a few digits
 * ("--slots 100000000") must not cost gigabytes before any error. */
#define GM_UNIFORM_SLOTS_MAX (1 << 24)
/* The most slots a hostfile may give, all its lines together. */
#define GM_HOSTFILE_SLOTS_MAX GM_MACHINE_MAX
/* The most host positions of a torus, mesh or dragonfly spec. */
#define GM_NETWORK_POSITIONS_MAX GM_MACHINE_MAX
/* The most link ids such a spec may give (link loads take 8 bytes each):
 * those of the largest torus within the positions limit, 2 per position
 * and dimension; it bounds a dragonfly's all-to-all links too. */
#define GM_NETWORK_LINKS_MAX \
    ((int64_t)GM_NETWORK_POSITIONS_MAX * 2 * GM_MAX_DIMS)
/* Counts past this are reported as "more than". */
#define GM_HOSTLIST_HUGE 1000000000000000000LL

/* Number of names `list` expands to, saturating at cap; -1 if malformed. */
long long gm_hostlist_count(const char *list, long long cap);

/* Expand a Slurm hostlist ("n[0-3,7],login[01-02]x") calling fn for each
 * name in order.  A list of more than GM_HOSTLIST_MAX names is refused
 * before any is made ("KEY=LIST expands to N NOUN, more than the limit
 * of M"; key may be NULL; noun says what the names are: "hosts").  Returns 0, fn's nonzero return, or TG_EPARSE
 * with a message in why (for the caller to put at its file and line). */
int gm_hostlist_expand(const char *key, const char *noun, const char *list,
                       int (*fn)(void *arg, const char *name), void *arg,
                       char *why, size_t whysize);

/* ------------------------------------------------------ explicit graphs */

/* A network given as vertices and bidirectional links (fat-tree, graph).
 * Arc i of the CSR is the directed link with id i. */
typedef struct gm_xgraph {
    int nv;
    char **names;      /* nv names */
    gm_strmap index;   /* name -> vertex */
    int nhosts;
    int *hosts;        /* host vertices in file order */
    int *host_of;      /* vertex -> host index, or -1 for a switch */
    int *xadj;         /* nv + 1 */
    int *adj;          /* arc -> head vertex */
    int *tail;         /* arc -> tail vertex */
    unsigned char *up; /* arc goes to a parent (fat-tree) */
    int updown;        /* 1: fat-tree (routes go up, then down) */
    const char *source;
} gm_xgraph;

/* Building: vertices by name (created on first use), links as pairs. */
typedef struct gm_xbuild {
    gm_xgraph *x;
    int cap_v;
    int64_t nlinks, cap_l;
    int *la, *lb;          /* link ends; la is the child on fat-trees */
    int cap_h;
} gm_xbuild;

int gm_xbuild_init(gm_xbuild *b, const char *source, int updown);
/* The vertex called name (created when new; *created set when not NULL). */
int gm_xbuild_vertex(gm_xbuild *b, const char *name, int *created,
                     tg_error *err);
/* Mark a vertex as a host (once; later marks are ignored). */
int gm_xbuild_host(gm_xbuild *b, int v, tg_error *err);
/* A link a <-> b; on fat-trees a is the child (the up direction a -> b). */
int gm_xbuild_link(gm_xbuild *b, int a, int v, tg_error *err);
/* Finish the CSR; on failure everything is freed. */
int gm_xbuild_finish(gm_xbuild *b, gm_xgraph **out, tg_error *err);
void gm_xbuild_abort(gm_xbuild *b);
void gm_xgraph_free(gm_xgraph *x);

int gm_fattree_read(const char *path, gm_xgraph **out, tg_error *err);
int gm_graph_read(const char *path, gm_xgraph **out, tg_error *err);

/* ------------------------------------------------------------- network */

struct gm_network {
    gm_net_kind kind;
    char *spec;
    int npos;                 /* host positions; 0 on flat */
    /* torus / mesh */
    int ndims;
    int size[GM_MAX_DIMS];
    int wrap[GM_MAX_DIMS];
    /* dragonfly */
    int groups, routers, per_router;
    /* fat-tree, graph */
    gm_xgraph *x;
};

int gm_torus_parse(gm_network *net, const char *dims, int wrap,
                   tg_error *err);
/* The error of a torus, mesh or dragonfly spec past a limit: "network
 * 'SPEC' has N WHAT, more than the limit of LIMIT" (what: "positions",
 * "links"; N past GM_HOSTLIST_HUGE said as more than that), TG_EINVAL. */
int gm_network_too_large(const gm_network *net, const char *what,
                         int64_t n, int64_t limit, tg_error *err);
int gm_dragonfly_parse(gm_network *net, const char *args, tg_error *err);

/* ---------------------------------------------------- node topology */

/* The intra-node structure shared by every node (nodetopo.c): the package
 * of each core and of each PU, in hwloc's logical order. */
typedef struct gm_nodetopo {
    char *spec;
    int cores, pus;
    int *core_pkg; /* cores entries */
    int *pu_pkg;   /* pus entries */
} gm_nodetopo;

void gm_nodetopo_free(gm_nodetopo *t);

/* Levels (levels.c): the groups a slot belongs to inside its node, bottom
 * up, and the cost of each level; between nodes either a hierarchy of
 * node groups (--hierarchy) or the network distance times node_factor.
 * Made by gm_machine_set_node_topology (pu, core, l3, numa, package) and
 * gm_machine_set_hierarchy (one level per hierarchy entry). */
#define GM_LV_MAX 16
/* The groups of a node's slots: gid[s x nlev + i] is slot s's group at
 * level i; with hwloc's NUMA latency matrix, two slots on NUMA nodes
 * i != j (groups at the model's numa_level) cost numa_cost[i x nnuma + j]
 * instead of their level's cost. */
typedef struct gm_lv_tab {
    int *gid;
    int nnuma;
    uint64_t *numa_cost;
} gm_lv_tab;

typedef struct gm_lv {
    int nlev;                   /* levels inside a node (>= 1) */
    char name[GM_LV_MAX][16];   /* intra-node levels, then upper ones */
    uint64_t cost[GM_LV_MAX];   /* two slots whose highest differing
                                   group is at level i cost cost[i] */
    int nslots[2];              /* slot counts with a group table */
    gm_lv_tab tab[2];           /* their tables (nslots[k] x nlev) */
    /* In-job levels (gm_machine_set_node_levels): one table per node,
     * NULL where a node has none yet (nnodes entries). */
    int nnodes;
    gm_lv_tab *node;
    int nup;                    /* hierarchy levels above the node; 0:
                                   the network times node_factor */
    int64_t upsize[GM_LV_MAX];  /* nodes per group at upper level j */
    uint64_t upcost[GM_LV_MAX];
    uint64_t node_factor;
    int numa_level;             /* the level of NUMA nodes (matrices) */
    int package_level;          /* in-job levels: the level of packages
                                   (gm_slot_package); -1 otherwise */
} gm_lv;

void gm_lv_free(gm_lv *lv);
/* A model with nlev levels for slot counts a and b (b may equal a or be
 * 0), tables zeroed; NULL when out of memory. */
gm_lv *gm_lv_new(int nlev, int a, int b);
/* The levels of a machine: its own, or the default (one level "core" of
 * cost 1 inside a node, the network times GM_NODE_FACTOR between). */
const gm_lv *gm_machine_lv(const gm_machine *m);
/* The level at which places a and b first share a group: -1 the same
 * slot, 0 .. nlev-1 inside a node, nlev + j between nodes (j = 0 on a
 * network). */
int gm_lv_level(const gm_machine *m, const gm_lv *lv, gm_place a,
                gm_place b);
/* The group table of a node's slots (NULL: group = slot, one level). */
const gm_lv_tab *gm_lv_table(const gm_machine *m, const gm_lv *lv, int node);
/* 1 when some table of lv has a NUMA latency matrix. */
int gm_lv_has_latencies(const gm_lv *lv);
/* The level of two distinct slots of a node: group table t. */
static inline int gm_lv_inner(const gm_lv *lv, const gm_lv_tab *t, int a,
                              int b)
{
    if (a == b)
        return -1;
    if (!t || !t->gid)
        return 0;
    const int *gid = t->gid;
    int i = lv->nlev - 1;
    while (i > 0 && gid[a * lv->nlev + i] == gid[b * lv->nlev + i])
        i--;
    return i;
}

/* The distance J counts between slots a and b of one node. */
static inline uint64_t gm_lv_pair(const gm_lv *lv, const gm_lv_tab *t, int a,
                                  int b)
{
    int l = gm_lv_inner(lv, t, a, b);
    if (l < 0)
        return 0;
    if (t && t->numa_cost && l >= lv->numa_level) {
        int i = t->gid[a * lv->nlev + lv->numa_level];
        int j = t->gid[b * lv->nlev + lv->numa_level];
        if (i != j && i < t->nnuma && j < t->nnuma)
            return t->numa_cost[i * t->nnuma + j];
    }
    return lv->cost[l];
}

/* The intra-node placement of tasks (slots.c): every node's tasks
 * re-placed in list order onto the free slot of least cost to the
 * node's tasks placed before them (ties: the lowest slot), then improved
 * by swaps and moves inside nodes.  Nothing happens when the machine has
 * one level inside nodes.  order may be NULL (keep the slots, improve
 * only). */
int gm_slots_place(const tg_graph *g, const gm_machine *m, const int *order,
                   gm_place *map, tg_error *err);

/* ------------------------------------------------------------- machine */

struct gm_machine {
    int n, cap;
    char **host;
    int *slots;
    gm_strmap hosts;
    gm_network *net;   /* never NULL */
    int *pos;          /* node -> position (host index on fat-tree/graph) */
    int *pos_node;     /* position -> node or -1 (npos entries; not flat) */
    int *coord;        /* torus: n * ndims */
    int phases;        /* explicit: 1, or 2 on fat-trees */
    int *attach;       /* explicit: node -> its attachment's table, then
                          the tables' row maps in the same allocation
                          (explicit.c, xaux) */
    uint16_t *tab;     /* explicit: on fat-trees an attachment x
                          attachment distance matrix, then attachment ->
                          row -> phase distance (explicit.c) */
    int maxdist;
    gm_nodetopo *topo; /* NULL when no node topology is set */
    gm_lv *lv;         /* NULL: the default levels (gm_machine_lv) */
};

/* The BFS distances of explicit networks, per node (explicit.c). */
int gm_explicit_tables(gm_machine *m, tg_error *err);
int gm_explicit_distance(const gm_machine *m, int a, int b);
/* Route a -> b; loads == NULL: first choice, else the least loaded. */
int gm_explicit_route(const gm_machine *m, int a, int b, int *links,
                      int cap, const uint64_t *loads);

/* Torus (net_torus.c).  order: dimension order (NULL = 0, 1, ...). */
int gm_torus_distance(const gm_machine *m, int a, int b);
int gm_torus_route(const gm_machine *m, int a, int b, const int *order,
                   int *links, int cap);
int gm_torus_link_ends(const gm_network *net, int link, int *from, int *to);
int gm_torus_links(const gm_network *net);
int gm_torus_diameter(const gm_network *net);

/* Flat (net_flat.c): hosts are vertices 0 .. n-1, the switch is n. */
int gm_flat_distance(const gm_machine *m, int a, int b);
int gm_flat_route(const gm_machine *m, int a, int b, int *links, int cap);
int gm_flat_link_ends(const gm_machine *m, int link, int *from, int *to);

/* Dragonfly (net_dragonfly.c): hosts 0 .. npos-1, then the routers. */
int gm_dragonfly_distance(const gm_machine *m, int a, int b);
int gm_dragonfly_route(const gm_machine *m, int a, int b, int *links,
                       int cap);
int gm_dragonfly_link_ends(const gm_network *net, int link, int *from,
                           int *to);
int gm_dragonfly_links(const gm_network *net);

/* Placement (placement.c). */
int gm_place_nodes(gm_machine *m, const char *positions, tg_error *err);

/* ------------------------------------------------------------ GreedyMap */

/* A task graph in METIS's 32-bit CSR (metisgraph.c): the same arcs, each
 * weight divided by `scale` (rounded, at least 1) so that METIS's sums fit
 * in 32 bits.  TG_EOVERFLOW when the graph has too many arcs for METIS. */
typedef struct gm_metis_graph {
    int32_t n;
    int32_t *xadj, *adjncy, *adjwgt;
    uint64_t scale;
} gm_metis_graph;

int gm_metis_graph_make(const tg_graph *g, gm_metis_graph *out,
                        tg_error *err);
void gm_metis_graph_free(gm_metis_graph *mg);

/* Task orders with files of their own (order_gpart.c, order_parts.c,
 * order_file.c). */
int gm_order_gpart(const tg_graph *g, const gm_machine *m, uint64_t seed,
                   int *order, tg_error *err);
int gm_order_gpartrb(const tg_graph *g, const gm_machine *m, uint64_t seed,
                     int *order, tg_error *err);
int gm_order_file(const char *path, int n, int *order, tg_error *err);

/* BFS level structures over a graph (order.c): mark has g->n entries, all
 * below stamp + 1 (calloc'd with stamp 0 will do), queue g->n. */
typedef struct gm_levels {
    const tg_graph *g;
    int *mark;
    int stamp;
    int *queue;
} gm_levels;

/* A pseudo-peripheral vertex of start's component by the George-Liu rule
 * (top of order.c): at most 8 level structures, O(size of component)
 * each. */
int gm_pseudo_peripheral(gm_levels *w, int start);

/* Configurations (config.c): TG_EINVAL naming the bad field; and the
 * number of nodes a delta stands for on a machine of `nodes` nodes. */
int gm_config_check(const gm_config *c, tg_error *err);
int gm_delta_nodes(int delta, int nodes);

/* How a gm_shells walk goes (shells.c): BUCKETS sorts every node by
 * distance at each start, O(nodes), then yields equals by increasing id
 * (graphs); TORUS generates coordinate shells, equals in the order of
 * their offset vectors; BY_ID yields the BUCKETS order without sorting
 * every node: O(1) to start on flat and on dragonflies whose node i sits
 * at position i, O(classes) on fat-trees (attachments) and other
 * dragonflies (routers). */
enum { GM_SHELLS_BUCKETS, GM_SHELLS_TORUS, GM_SHELLS_BY_ID };
int gm_shells_lazy(const gm_shells *s);

/* Free slots per node and the nodes that still have some (greedy.c). */
typedef struct gm_free {
    int *left;  /* node -> free slots */
    int *list;  /* the nodes with free slots, `count` of them */
    int *where; /* node -> its index in list, -1 once full */
    int count;
    int n;      /* nodes */
    int *skip;  /* node -> a later node; while node is full, so are the
                   nodes between (gm_free_next; starts as node + 1) */
} gm_free;

/* The first node from k on with a free slot, n when none: amortised
 * O(log n), nodes only filling up (greedy_near.c). */
int gm_free_next(const gm_free *fr, int k);
/* gm_shells_next, over the nodes without a free slot: the next node of
 * the walk that has one, its distance in *dist (may be NULL) and in
 * *passed the nodes the walk went over (it included); -1 when the walk
 * ends or goes over `limit` nodes first.  O(1) for each range of ids of a
 * GM_SHELLS_BY_ID walk, else each node gone over. */
int gm_shells_next_free(gm_shells *s, const gm_free *fr, int limit,
                        int *dist, int *passed);
/* GM_SHELLS_BY_ID walks: the first node with a free slot that a walk
 * from node would yield (the closest, the lowest id among equals), -1
 * when none; the walk under way is lost.  Flat and dragonflies at the
 * default placement: a walk over ranges of ids; fat-trees and other
 * dragonflies: O(classes) (attachments, routers). */
int gm_shells_nearest_free(gm_shells *s, const gm_free *fr, int node);

/* The delta closest nodes with free slots (greedy_near.c). */
typedef struct gm_near gm_near;

/* delta: a node count (gm_delta_nodes); wrap: as in gm_shells_start. */
int gm_near_new(const gm_machine *m, int delta, int wrap, gm_near **out,
                tg_error *err);
void gm_near_free(gm_near *nr);
/* The min(delta, fr->count) nodes with free slots closest to `from`;
 * *out stays valid until the next call or a change to fr. */
int gm_near_find(gm_near *nr, int from, const gm_free *fr, const int **out);
/* The next gm_near_find starts its walk afresh, whatever its centre. */
void gm_near_forget(gm_near *nr);
/* The distance the exploration goes by (without wrap when wrap is 0 on a
 * torus). */
int gm_near_distance(const gm_near *nr, int a, int b);

/* Local refinement (gm_refine): refine.c keeps the state and runs the
 * passes, refine_nodes.c swaps the tasks of whole nodes, refine_tasks.c
 * swaps and moves single tasks. */
typedef __int128 gm_i128;

/* Bytes from some tasks to the nodes of their neighbours, one group per
 * node. */
typedef struct gm_groups {
    int n;
    int *of;      /* node -> group, -1 (every node) */
    int *node;    /* group -> node */
    gm_i128 *w;   /* group -> bytes */
} gm_groups;

typedef struct gm_refine_state {
    const tg_graph *g;
    const gm_machine *m;
    gm_place *map;
    int64_t *first; /* node -> index of its slot 0 in occ */
    int *occ;       /* processor (first[node] + slot) -> task, -1 free */
    int *used;      /* node -> tasks on it */
    gm_groups ga, gb;
    gm_shells *sh;
    int *buf; /* 2 x (most slots of a node) tasks */
    /* what changed since a task was last weighed: a clock that ticks at
     * every change of a node's tasks */
    int64_t clock;
    int64_t *changed; /* node -> clock at its last change, -1 */
    int64_t *seen;    /* task -> clock when last weighed, -1 never */
} gm_refine_state;

/* Add t's edges to gr, leaving out those to tasks on node skip (-1: none);
 * the weight of an edge to task u (-1: none) is added to *wu too. */
void gm_groups_add(gm_refine_state *r, gm_groups *gr, int t, int skip,
                   int u, gm_i128 *wu);
void gm_groups_clear(gm_groups *gr);
/* Note that node's tasks changed. */
void gm_refine_touch(gm_refine_state *r, int node);
/* sum over the groups of w x (distance(to, node) - distance(from, node)):
 * the change of their hop-bytes (each edge once) when their tasks go from
 * node `from` to node `to`. */
gm_i128 gm_groups_shift(const gm_machine *m, const gm_groups *gr, int from,
                        int to);
/* gm_refine without its last step (gm_slots_place): the node and task
 * sweeps only. */
int gm_refine_nodes(const tg_graph *g, const gm_machine *m,
                    int (*stop)(void *arg), void *arg, gm_place *map,
                    tg_error *err);
/* One step of the node sweep (refine_nodes.c): the best strictly
 * improving swap of node x's tasks, applied; 1 when there was one. */
int gm_refine_node(gm_refine_state *r, int x);
/* One step of the task sweep (refine_tasks.c): task t, when stale, is
 * weighed and its best strictly improving swap or move applied; 1 when
 * there was one. */
int gm_refine_task(gm_refine_state *r, int t);

/* Baselines (hilbert.c, bisect.c).  Nodes along a Hilbert curve over the
 * torus/mesh coordinates: order gets every node once. */
int gm_hilbert_nodes(const gm_machine *m, int *order, tg_error *err);
/* Recursive bisection of g onto m (papers/001, 5.1; Hoefler and Snir);
 * with dual, each bisection weighs the edges to tasks outside it (the
 * drb baseline). */
int gm_bisect_map(const tg_graph *g, const gm_machine *m, uint64_t seed,
                  int dual, gm_place *map, tg_error *err);

/* The bytes crossing box boundaries along each dimension of a grid of
 * boxes, by how many boxes they step over (1 .. parts - 1: a clique along
 * a dimension steps over several), for the estimate of a fold. */
typedef struct gm_box_steps {
    int n[TG_GRID_MAXDIMS];         /* step counts listed per dimension */
    int *step[TG_GRID_MAXDIMS];     /* those step counts, ascending */
    double *bytes[TG_GRID_MAXDIMS]; /* bytes by step count (dense) */
} gm_box_steps;

/* decompose (decompose.c, decompose_fold.c, decompose_map.c).  A grid
 * with the bytes of g's edges grouped by the offset between their two
 * tasks' positions (a class per offset, the sign chosen so that the first
 * nonzero component is positive). */
typedef struct gm_dgrid {
    int k;                      /* dimensions */
    int L[TG_GRID_MAXDIMS];     /* sizes */
    int per[TG_GRID_MAXDIMS];   /* 1: wraps */
    int n;                      /* positions = tasks */
    const int *task;            /* position -> task; NULL: identity */
    int ncls;
    int *off;                   /* ncls x k offsets */
    double *bytes;              /* ncls */
    double rho[TG_GRID_MAXDIMS]; /* sum of bytes x |offset| per dimension:
                                    what crosses a plane, per unit area */
    gm_box_steps *steps;        /* room for gm_dgrid_steps */
} gm_dgrid;

int gm_dgrid_make(const tg_graph *g, const tg_grid *grid, gm_dgrid *d,
                  tg_error *err);
void gm_dgrid_free(gm_dgrid *d);
/* Bytes crossing the boundaries of boxes when dimension i of a region of
 * sizes L (wrapping where per says) is cut into p[i] parts; x, when not
 * NULL, gets per dimension the bytes crossing its boundaries (an edge
 * crossing two dimensions counts in both). */
double gm_dgrid_cut(const gm_dgrid *d, const int *L, const int *per,
                    const int *p, double *x);
/* d->steps for the whole grid cut into p[i] equal boxes along each
 * dimension i (p[i] dividing L[i]): every class's bytes spread over the
 * box steps its positions make. */
void gm_dgrid_steps(const gm_dgrid *d, const int *p);
/* Call fn(arg, p) for every p[0..k-1] with product n and p[i] <= L[i]
 * (and p[i] dividing L[i] when divide), prime by prime (papers/004,
 * 4.3), at most `cap` of them; returns how many. */
int64_t gm_factorisations(int n, int k, const int *L, int divide,
                          int64_t cap, void (*fn)(void *arg, const int *p),
                          void *arg);
/* The cut of `nparts` equal boxes over a region crossing fewest bytes:
 * 1 found (parts, *cut), 0 none. */
int gm_dgrid_best(const gm_dgrid *d, const int *L, const int *per,
                  int nparts, int *parts, double *cut);
/* The plan for B boxes (top of decompose.c): exact boxes (dividing the
 * dimensions) when `exact`, embedded in net when net is not NULL (exact
 * only).  1 found, 0 none. */
int gm_decompose_choose(const gm_dgrid *d, int B, int exact,
                        const gm_network *net, gm_decompose_plan *plan);
/* Exact boxes for B nodes in ngroups equal groups: parts and group boxes
 * minimising near x cut(parts) + (far - near) x cut(group), near the
 * distance inside a group, far between groups. */
int gm_decompose_choose_groups(const gm_dgrid *d, int B, int ngroups,
                               int near, int far, gm_decompose_plan *plan);
/* The torus embedding of a box grid of parts[] boxes (decompose_fold.c):
 * the fold (boxes of grid dimension d along network dimension j) whose
 * estimate (over d and step counts s, the bytes of st stepping s boxes
 * along d times the mean network distance of such a step) is lowest; x[d]
 * (bytes crossing d's boundaries) orders grid dimensions sharing a network
 * dimension.  1 found, 0 none (the shapes do not fold into each other). */
int gm_fold_best(const gm_network *net, int k, const int *parts,
                 const int *per, const double *x, const gm_box_steps *st,
                 int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS], double *cost);
/* The network position of box b (coordinates) under a fold. */
int64_t gm_fold_position(const gm_network *net, int k, const double *x,
                         int fold[TG_GRID_MAXDIMS][GM_MAX_DIMS],
                         const int *b);

#endif
