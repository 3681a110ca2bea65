/*
 * ht_internal.h: structures and helpers shared by the modules of
 * libhetero; not installed.
 */
#ifndef TOPOMAP_HT_INTERNAL_H
#define TOPOMAP_HT_INTERNAL_H

#include <jansson.h>

#include "hetero.h"
#include "tg_internal.h"

#define HT_MIB 1048576.0

/* ---------------------------------------------------------------- JSON */

/* A JSON file parsed whole, with its text kept for ht_json_line. */
typedef struct ht_json {
    const char *path;
    char *text;
    size_t len;
    json_t *root;
} ht_json;

/* Load and parse path; the top level must be an object whose "format" is
 * `format` and whose "version" is `version`.  Syntax errors carry
 * jansson's line. */
int ht_json_load(ht_json *j, const char *path, const char *format, int version,
                 tg_error *err);
void ht_json_free(ht_json *j);

/* The line where element `index` of the top-level array member `member`
 * starts (0 when it cannot be found), so messages about an element can
 * name a line although jansson keeps no positions. */
long ht_json_line(const ht_json *j, const char *member, size_t index);

/* Error about element `index` of array `member`: "FILE:LINE: member[i]:
 * TEXT".  Returns TG_EPARSE. */
int ht_json_elem_error(const ht_json *j, tg_error *err, const char *member,
                       size_t index, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Optional number member: 1 and *v when present and a number, 0 when
 * absent, -1 when present but not a number. */
int ht_json_number(json_t *obj, const char *key, double *v);
/* Optional non-negative integer member (same returns). */
int ht_json_u64(json_t *obj, const char *key, uint64_t *v);
/* Optional string member copied into buf (same returns; -1 also when it
 * does not fit). */
int ht_json_string(json_t *obj, const char *key, char *buf, size_t size);

/* Write the members of obj (in insertion order) as one line, after
 * `indent`: used by the writers that put one record per line. */
int ht_json_put_line(FILE *fp, const char *indent, json_t *obj);

/* ------------------------------------------------------------- problem */

/* Rates of one GPU with defaults applied (MiB/s, ns). */
typedef struct ht_gpu_rates {
    double device, pinned, managed;
    double copy_pageable, copy_pinned;
    double lat_pageable, lat_pinned;
} ht_gpu_rates;

struct ht_problem {
    const ht_input *in;
    const ht_node *node;
    ht_params par;
    int n; /* ranks */
    int nhosts;
    int *host;             /* [n] host index of each rank */
    const char **hostname; /* [nhosts] */

    int nchoices;
    ht_choice *choice;   /* GPU choices first, then CPU ones */
    int *coreset_of;     /* [nchoices] allowed core set */
    char *on_device;     /* [nchoices] data in device or managed memory */
    double *comp;        /* [n * nchoices] compute seconds, < 0: the
                          * rank lacks the variant */
    ht_gpu_rates *rates; /* [ngpus] */

    /* Distinct allowed core sets, as sets of core indexes.  They are
     * cpusets of hwloc tree objects, so any two are nested or disjoint,
     * and counting per set is Hall's condition (ht_load_check). */
    int ncoresets;
    hwloc_bitmap_t *coreset;
    int *coreset_size;
    int **sub; /* sub[s]: the sets inside s (s included) */
    int *nsub;
    int **super; /* super[s]: the sets containing s */
    int *nsuper;

    /* Symmetric adjacency: bytes and messages both ways per pair. */
    int64_t *xadj;
    int *adj;
    double *bytes;
    double *msgs;
};

/* Seconds to move bytes at MiB/s. */
static inline double ht_seconds(double bytes, double mib_s)
{
    return bytes / (mib_s * HT_MIB);
}

/* Seconds of a transfer of w bytes in m messages between a rank with
 * choice ca and one with cb, on one host (same) or two. */
double ht_pair_time(const ht_problem *p, int same, int ca, int cb, double w,
                    double m);

/* Seconds of arc e (an index in p->adj) of rank r under choice[], as
 * rank r's communication time counts it. */
double ht_arc_time(const ht_problem *p, const int *choice, int r, int64_t e);

/* Ranks with at least this many peers have their communication time
 * summed pairwise (a binary tree over their arcs, ht_comm_leaves(deg)
 * leaves, the arcs in adjacency order, zeros after them), the others in
 * adjacency order; ht_comm_time and the search state (state.c), which
 * keeps the tree so that a move of one peer costs O(log deg) rather than
 * O(deg), use the same order, so the same placement always gives the
 * same figure. */
#define HT_COMM_TREE_MIN 64
static inline int64_t ht_comm_leaves(int64_t deg)
{
    int64_t l = 1;
    while (l < deg)
        l *= 2;
    return l;
}

/* Communication seconds of rank r under choice[] (in the order above). */
double ht_comm_time(const ht_problem *p, const int *choice, int r);

/* ------------------------------------------------------------ capacity */

/* What the ranks placed so far use, per host. */
typedef struct ht_load {
    int *gpu_ranks;     /* [nhosts * ngpus] */
    uint64_t *gpu_mem;  /* [nhosts * ngpus] device bytes */
    uint64_t *numa_mem; /* [nhosts * nnuma] */
    int *set_ranks;     /* [nhosts * ncoresets] ranks whose allowed set
                         * is exactly this one */
} ht_load;

int ht_load_init(ht_load *l, const ht_problem *p, tg_error *err);
void ht_load_free(ht_load *l);
/* Add (sign 1) or remove (sign -1) rank r with choice c. */
void ht_load_add(ht_load *l, const ht_problem *p, int r, int c, int sign);
/* After adding rank r with choice c: 0 when every resource it uses is
 * within capacity, else TG_EINVAL saying which (err may be NULL). */
int ht_load_check(const ht_load *l, const ht_problem *p, int r, int c,
                  tg_error *err);
/* The resources of choice c that are over capacity on rank r's host after
 * adding r with c: a GPU (ranks or device memory), a NUMA node, a core set
 * (its index); -1 where within capacity. */
typedef struct ht_over {
    int gpu, numa, coreset;
} ht_over;
ht_over ht_load_over(const ht_load *l, const ht_problem *p, int r, int c);
/* 1 when choice c uses one of the resources in o. */
int ht_over_uses(const ht_problem *p, const ht_over *o, int c);
/* Add r with c if it fits (returns 1), else leave l as it was (0). */
int ht_load_try(ht_load *l, const ht_problem *p, int r, int c);

/* ------------------------------------------------------------ baseline */

/* 0 when rank r fits on its host with no other rank there, else
 * TG_EINVAL "rank R fits nowhere: why". */
int ht_fits_alone(const ht_problem *p, int r, tg_error *err);

/* Undone choices after which ht_feasible gives up on a host. */
#define HT_FEASIBLE_BACKTRACKS 100000
/* A placement that fits, by search (baseline.c), for when the greedy
 * defaults fail: TG_EINVAL "rank R fits nowhere" when a rank fits on no
 * empty node, "no placement fits on HOST" when a condition every
 * placement meets fails or the search ran out, "no placement found that
 * fits on HOST" when it gave up after HT_FEASIBLE_BACKTRACKS. */
int ht_feasible(const ht_problem *p, int *choice, tg_error *err);

/* -------------------------------------------------------- search state */

/* One rank's part of a move. */
typedef struct ht_move {
    int rank;
    int old;    /* choice before the move */
    int target; /* the new choice, or -1: pick one like `like` */
    int like;
    int now; /* the choice it got */
} ht_move;

/* A placement being improved, kept costed. */
typedef struct ht_state {
    const ht_problem *p;
    int *choice;         /* the caller's array, kept current */
    double *comp, *comm; /* per rank */
    ht_load load;
    ht_cost cost;
    long evals;
    int *order;           /* ranks, longest compute first */
    int *pos;             /* position of each rank in order */
    int *hstart, *hrank;  /* ranks of each host (CSR) */
    int *uf;              /* union-find over the constraint graph */
    int *mstart, *member; /* its components (CSR over roots) */
    int *mark, stamp;
    double *tree;         /* max tree over the ranks' times */
    int leaves;           /* its leaves: a power of two >= n */
    int *aff, naff;       /* ranks the last move touched */
    int *moved, mstamp;   /* moved[r] == mstamp: r is in the last move */
    int64_t *rev;         /* [arcs] the arc back (q's arc to r) */
    int64_t *ctstart;     /* [n] rank r's tree of arc times at
                           * ctree[ctstart[r]], 2 x leaves, root at 1;
                           * -1 below HT_COMM_TREE_MIN peers */
    double *ctree;
    double *was;          /* their times before it */
    ht_move *moves;       /* [n] the move being tried */
    int *cand;            /* [nchoices] */
    int *edge_a, *edge_b; /* constraint graph, lightest edge first */
    int nedges;
} ht_state;

/* Start from choice[] (which must fit); the state writes to it. */
int ht_state_init(ht_state *s, const ht_problem *p, int *choice, tg_error *err);
void ht_state_free(ht_state *s);
/* Make moves[0..k): all ranks out, then each in (a move with target -1
 * takes a choice like its `like`).  0, and nothing changed, when they do
 * not fit.  Costs are not updated. */
int ht_state_apply(ht_state *s, int k);
/* TestMapping (papers/000): make moves[0..k) and keep them when the
 * objective improves; 1 when kept. */
int ht_state_test(ht_state *s, int k);
/* Make `choice` the current placement, everything recomputed. */
void ht_state_reset(ht_state *s, const int *choice);

/* Neighbourhoods (moves.c); each returns 1 when it improved. */
int ht_two_rank_pass(ht_state *s, int all);
int ht_rotate_pass(ht_state *s);
int ht_chain_pass(ht_state *s);
/* Move a few ranks of one node, drawn at random, to random choices that
 * fit, and recompute. */
void ht_kick(ht_state *s, tg_rng *rng);

#endif
