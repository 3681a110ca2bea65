/*
 * ro_internal.h: what the files of libtopomap-reorder share.  Not
 * installed: the library has no API of its own, it replaces MPI's
 * topology constructors (see doc/libtopomap-reorder.7).
 *
 * The flow of one constructor call (construct.c):
 *   1. the PMPI constructor with the caller's arguments and reorder = 0,
 *      so invalid input gets MPI's own error, through MPI's own handler;
 *   2. with reorder = 1 and the library on, a plan (plan.c): each
 *      process's host (hosts.c) and the task graph (taskgraph.c) reach
 *      rank 0, which maps the tasks with greedymap (mapper.c), writes the
 *      report (report.c) and hands every process its new rank;
 *   3. when the mapping beats the identity order, PMPI_Comm_split by the
 *      new ranks and the PMPI constructor again, reorder = 0, on the split
 *      communicator (rebuild.c); the first communicator is freed.
 * Every internal failure leaves the result of step 1 in place and warns
 * once on stderr.
 */
#ifndef TOPOMAP_RO_INTERNAL_H
#define TOPOMAP_RO_INTERNAL_H

#include <mpi.h>
#include <stdint.h>

#include "greedymap.h"

typedef enum ro_kind {
    RO_CART = 0,
    RO_GRAPH,
    RO_DIST_ADJACENT,
    RO_DIST
} ro_kind;

/* The arguments of one constructor call, as the caller gave them (reorder
 * aside), so that the same topology can be made on another communicator.
 * Only the fields of `kind` are used. */
typedef struct ro_call {
    ro_kind kind;
    MPI_Comm comm;
    /* MPI_Cart_create */
    int ndims;
    const int *dims, *periods;
    /* MPI_Graph_create */
    int nnodes;
    const int *index, *edges;
    /* MPI_Dist_graph_create_adjacent */
    int indegree, outdegree;
    const int *sources, *sourceweights, *destinations, *destweights;
    /* MPI_Dist_graph_create */
    int n;
    const int *degrees, *weights; /* sources, destinations as above */
    MPI_Info info;
} ro_call;

/* "MPI_Cart_create" and so on. */
const char *ro_call_name(ro_kind kind);

/* The PMPI constructor of c->kind on `comm` with c's arguments and
 * reorder = 0 (construct.c). */
int ro_create(const ro_call *c, MPI_Comm comm, MPI_Comm *out);

/* Steps 1-3 above (construct.c). */
int ro_construct(const ro_call *c, int reorder, MPI_Comm *out);

/* Print "libtopomap-reorder: NAME: WHY; ..." on stderr, the first time
 * only (construct.c): for a failure that keeps MPI's rank order. */
void ro_warn(const ro_call *c, const char *why);
/* The same for a report that cannot be written, the first time only too,
 * saying that the mapping is applied all the same (it is: the report is
 * only a record of it). */
void ro_warn_report(const ro_call *c, const char *why);

/* Collective over comm: -1 when ok holds on every process, else the
 * lowest rank where it does not, on every process; that one warns, so a
 * failure seen everywhere is said once, not once per process
 * (construct.c). */
int ro_agree(int ok, MPI_Comm comm);

/* What rank 0 decided for one process: its rank in the new communicator
 * (MPI_UNDEFINED: none).  New rank t is the process the mapping chose for
 * task t, which is rank t of c->comm in MPI's own order. */
typedef struct ro_role {
    int newrank;
} ro_role;

enum { RO_KEEP = 0, RO_MOVE = 1, RO_FAIL = 2 };

/* Step 2 (plan.c), collective over c->comm: RO_MOVE with *role filled,
 * RO_KEEP (identity order no worse) or RO_FAIL (warned); the same on
 * every process.  `first` is the communicator of step 1. */
int ro_plan(const ro_call *c, MPI_Comm first, double t_start,
            ro_role *role);

/* Step 3 (rebuild.c), collective over c->comm: 0 and *out (MPI_COMM_NULL
 * for a process left out), or -1 (warned; nothing to free) on every
 * process. */
int ro_rebuild(const ro_call *c, const ro_role *role, MPI_Comm *out);

/* hosts.c: this process's host name: the entry of TOPOMAP_REORDER_HOSTS
 * for its rank in MPI_COMM_WORLD when that is set, else
 * MPI_Get_processor_name.  0, or -1 with why filled. */
int ro_my_host(char name[MPI_MAX_PROCESSOR_NAME], char *why, size_t size);

/* Rank 0's view of the processes of c->comm: nhosts hosts in the order of
 * their first rank, each process's host and slot (its index among its
 * host's processes), and the process on each (host, slot). */
typedef struct ro_layout {
    int nprocs, nhosts;
    char **host;     /* nhosts names */
    int *slots;      /* processes per host */
    int *proc_host;  /* nprocs */
    int *proc_slot;  /* nprocs */
    int *first;      /* nhosts + 1 offsets into proc */
    int *proc;       /* nprocs: processes host by host, slot by slot */
} ro_layout;

/* From the names gathered at rank 0 (MPI_MAX_PROCESSOR_NAME chars per
 * process).  0 or TG_ENOMEM. */
int ro_layout_make(const char *names, int nprocs, ro_layout *out);
void ro_layout_free(ro_layout *l);

/* cores.c: the core this process is bound to, as a logical index in its
 * host's hwloc topology (RO_CORE_NONE: not bound to one; RO_CORE_SLOT:
 * under a pretend topology without TOPOMAP_REORDER_CORES, its index among
 * its host's processes), with the host's core and package counts (0 when
 * not known) and whether the core is TOPOMAP_REORDER_CORES's.  Gathered
 * at rank 0 as 4 ints.  0, or -1 with why filled (a bad
 * TOPOMAP_REORDER_TOPOLOGY or TOPOMAP_REORDER_CORES, such as a core the
 * topology does not have). */
enum { RO_CORE_NONE = -1, RO_CORE_SLOT = -2 };
typedef struct ro_core {
    int core, cores, packages;
    int given; /* 1: core from TOPOMAP_REORDER_CORES */
} ro_core;
int ro_my_core(ro_core *out, char *why, size_t size);
/* A per-rank list in variable `var` has n entries (of `what`): 0 when
 * that is one per rank of MPI_COMM_WORLD (nranks), else -1 with why
 * saying which rank has none, or that there are too many (hosts.c). */
int ro_list_length(const char *var, long n, const char *what, int nranks,
                   char *why, size_t size);
/* Rank 0: two processes of one host given one core by
 * TOPOMAP_REORDER_CORES are a mistake in the list (bound processes that
 * share a core are not: the node just gets no levels): 0 when there are
 * none, else nonzero with err filled (naming the two entries, or out of
 * memory).  comm: the call's, to name them by rank of MPI_COMM_WORLD. */
int ro_check_given_cores(const ro_layout *l, const ro_core *cores,
                         MPI_Comm comm, tg_error *err);
/* Rank 0: when every host has one process per core, bound to distinct
 * cores, and every process reports the same core and package counts,
 * renumbers the layout's slots by core (slot k = the process on core k)
 * and returns 1; 0 when not (layout unchanged); -1: out of memory. */
int ro_layout_cores(ro_layout *l, const ro_core *cores);
/* Rank 0, after ro_layout_cores returned 1: m's node topology, the
 * pretend one or this host's. */
int ro_set_node_topology(gm_machine *m, tg_error *err);

/* taskgraph.c: the task graph of a call on rank 0: the Cartesian grid's
 * neighbours (with its grid attached), the graph's edges, or the dist
 * graph's edges gathered from every process (count[p] (dst, weight) pairs
 * of process p, made by ro_dist_edges, one process after the other in
 * `pairs`).  Unit bytes per direction and neighbour; application weights
 * where given (0 weights add nothing). */
int ro_cart_graph(const ro_call *c, tg_graph **out, tg_error *err);
int ro_graph_graph(const ro_call *c, tg_graph **out, tg_error *err);
int ro_dist_graph(int nprocs, const int *count, const int *pairs,
                  tg_graph **out, tg_error *err);
/* This process's out-edges in `first` as (dst, weight) pairs (weight 1
 * when the graph is unweighted): *pairs (free()) and *count. */
int ro_dist_edges(MPI_Comm first, int **pairs, int *count);

/* mapper.c: the one place that says which mappers are tried.  Maps g
 * onto m into map (g->n places) with the best of the candidates by
 * cost (below); *name says which.  identity (g->n places) is the
 * order MPI would use; the result is never worse than it: when no
 * candidate is strictly better, map is a copy of identity and *name is
 * "identity".  The measure is the communication cost J
 * (gm_evaluate_levels) when m has a node topology, else hop-bytes. */
int ro_choose_mapping(const tg_graph *g, const gm_machine *m,
                      const gm_place *identity, gm_place *map,
                      const char **name, tg_error *err);

/* report.c: rank 0 of the call appends one line (a JSON object) to the
 * report file TOPOMAP_REORDER_REPORT, whole, under an exclusive flock, so
 * the lines of calls from any processes, concurrent or not, all land.
 * perm[i] = the rank in c->comm of new rank i (ntasks entries). */
typedef struct ro_report {
    const ro_call *call;
    const ro_layout *layout;
    int ntasks;
    const int *perm;
    const char *mapper;
    const gm_metrics *identity, *result;
    /* With a node topology (else NULL): its spec, and the bytes per level
     * and J of both orders. */
    const char *topology;
    const gm_level_metrics *identity_levels, *result_levels;
    double seconds;
    int reordered;
} ro_report;
int ro_report_write(const char *path, const ro_report *r, char *why,
                    size_t size);

#endif
