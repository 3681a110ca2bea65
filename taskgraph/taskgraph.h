/*
 * taskgraph.h: the task-graph library of topomap (prefix tg_).
 *
 * A task graph (papers/001, 3.1) has n tasks and undirected edges whose
 * weight is the number of bytes the two tasks exchange in both directions.
 * It is stored in CSR form: the neighbours of task t are
 * adjncy[xadj[t] .. xadj[t+1]-1], sorted ascending, with their weights in
 * adjwgt at the same positions; every edge appears once per endpoint and the
 * two copies carry the same weight.  There are no self-edges and no edges of
 * weight 0.
 *
 * A graph may carry per-type layers (one task graph per communication type,
 * the cg_t of papers/001, 4.1.1) and records which types it was built from
 * with their factors.
 *
 * Errors: every function that can fail returns 0 on success or a negative
 * TG_E* code, and fills the caller's tg_error with a message that names the
 * file and line where there is one.  Nothing is written on failure.
 */
#ifndef TOPOMAP_TASKGRAPH_H
#define TOPOMAP_TASKGRAPH_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

enum {
    TG_OK = 0,
    TG_ENOMEM = -1,   /* out of memory */
    TG_EIO = -2,      /* a file could not be opened, read or written */
    TG_EPARSE = -3,   /* a file is malformed */
    TG_EINVAL = -4,   /* an argument is out of range */
    TG_EOVERFLOW = -5 /* a count or weight does not fit */
};

typedef struct tg_error {
    char source[512]; /* file name, or "" when the error is not about a file */
    long line;        /* 1-based line in source, or 0 when not known */
    char text[512];   /* what is wrong */
} tg_error;

/* Fill err (when not NULL) and return code.  printf-style message. */
int tg_error_set(tg_error *err, int code, const char *source, long line,
                 const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Format err as "SOURCE:LINE: TEXT" (or "SOURCE: TEXT", or "TEXT") into
 * buf; returns buf. */
const char *tg_error_format(const tg_error *err, char *buf, size_t size);

/* ----------------------------------------------------------------- model */

/* Largest weight a graph can hold: weights are written as signed 64-bit
 * integers in every format, so they stop at 2^63 - 1. */
#define TG_WEIGHT_MAX ((uint64_t)INT64_MAX)
/* Largest number of tasks: task ids are ints, like MPI ranks. */
#define TG_TASKS_MAX INT32_MAX

typedef struct tg_graph tg_graph;

#define TG_GRID_MAXDIMS 8

/* The Cartesian grid the tasks form, when something says so (a
 * MPI_Cart_create recorded in the profile, the stencil generator, the
 * user).  Grid position p is the row-major index of coordinates
 * (c0, ..., c_{d-1}), the last dimension fastest, as MPI_Cart_rank numbers
 * them; task[p] is the task at position p (task == NULL: task p).  The grid
 * covers every task: the dims multiply to the graph's task count. */
typedef struct tg_grid {
    int ndims; /* 0: no grid */
    int dims[TG_GRID_MAXDIMS];
    int periods[TG_GRID_MAXDIMS]; /* 1: the dimension wraps */
    int *task;                    /* NULL or a permutation of 0 .. n-1 */
} tg_grid;

/* A communication type a graph was built from, with the factor its weights
 * were multiplied by (1 for a plain type graph or a Sum). */
typedef struct tg_type {
    char *name;
    double factor;
} tg_type;

/* A per-type layer: a task graph with the same number of tasks. */
typedef struct tg_layer {
    char *name;
    tg_graph *graph;
} tg_layer;

struct tg_graph {
    int n;            /* tasks */
    int64_t nedges;   /* undirected edges; xadj[n] == 2 * nedges */
    int64_t *xadj;    /* n + 1 offsets */
    int *adjncy;      /* 2 * nedges neighbours */
    uint64_t *adjwgt; /* 2 * nedges weights, > 0 */
    int ntypes;       /* types this graph was built from (may be 0) */
    tg_type *types;
    int nlayers;      /* optional per-type layers (may be 0) */
    tg_layer *layers;
    tg_grid grid;     /* grid.ndims == 0 when the graph is not known to
                         be a grid; layers never carry one */
};

/* Free a graph with its types and layers.  NULL is allowed. */
void tg_graph_free(tg_graph *g);

/* Deep copy (types and layers included). */
int tg_graph_copy(const tg_graph *g, tg_graph **out, tg_error *err);

/* Weight of edge {a, b}, 0 when there is none.  O(log degree). */
uint64_t tg_graph_weight(const tg_graph *g, int a, int b);

/* Sum of all edge weights (each edge once).  Fails with TG_EOVERFLOW past
 * UINT64_MAX. */
int tg_graph_total_weight(const tg_graph *g, uint64_t *total, tg_error *err);

/* Record that g was built from type `name` with `factor` (appended to
 * g->types). */
int tg_graph_add_type(tg_graph *g, const char *name, double factor,
                      tg_error *err);

/* Attach `layer` (ownership passes to g, also on failure) as a per-type
 * layer called `name`.  Its task count must equal g's; a layer may not have
 * layers of its own. */
int tg_graph_add_layer(tg_graph *g, const char *name, tg_graph *layer,
                       tg_error *err);

/* Say that g's tasks form a grid (see tg_grid); task may be NULL.  Fails
 * with TG_EINVAL, saying why, unless 1 <= ndims <= TG_GRID_MAXDIMS, every
 * dim >= 1, the dims multiply to g->n and task is a permutation.  Replaces
 * any grid g had; ndims == 0 removes it. */
int tg_graph_set_grid(tg_graph *g, int ndims, const int *dims,
                      const int *periods, const int *task, tg_error *err);

/* Check the CSR invariants (sorted neighbours, symmetric with equal
 * weights, no self-edges, no zero weights, ids in range, consistent
 * counts) of g and its layers.  Used by tests and after every reader. */
int tg_graph_check(const tg_graph *g, tg_error *err);

/* Structural facts for `taskgraph info`. */
typedef struct tg_stats {
    int n;
    int64_t nedges;
    uint64_t total_weight; /* sum of edge weights, each edge once */
    int degree_min, degree_max;
    double degree_avg;
    int components;        /* connected components (isolated tasks count) */
    int isolated;          /* tasks with no edge */
} tg_stats;

int tg_graph_stats(const tg_graph *g, tg_stats *st, tg_error *err);

/* --------------------------------------------------------------- builder */

/* Builds a graph from directed (src, dst, bytes) triples.  Duplicates are
 * merged, self-edges and zero weights dropped, and the undirected weight is
 * w(a,b) = bytes a->b + bytes b->a (papers/001, 3.1).  Linear time. */
typedef struct tg_builder tg_builder;

tg_builder *tg_builder_new(int n);
void tg_builder_free(tg_builder *b);
int tg_builder_tasks(const tg_builder *b);

/* Add bytes sent from src to dst.  Fails on ids outside [0, n) or a
 * weight above TG_WEIGHT_MAX. */
int tg_builder_add(tg_builder *b, int src, int dst, uint64_t bytes,
                   tg_error *err);

/* Produce the graph; the builder is left empty and reusable.  Fails with
 * TG_EOVERFLOW when merged weights exceed TG_WEIGHT_MAX. */
int tg_builder_finish(tg_builder *b, tg_graph **out, tg_error *err);

/* ------------------------------------------------------------- combiners */

/* Sum (papers/001, 4.1.1): union of the tasks and edges of k graphs with
 * the same task count, weights added exactly.  The result's types are the
 * inputs' types, in input order.  The result has no layers. */
int tg_sum(const tg_graph *const *graphs, int k, tg_graph **out,
           tg_error *err);

/* Weighted-sum (papers/001, 4.1.1): like Sum, with the weights of input i
 * multiplied by factors[i] >= 0.  Each edge's weight is rounded to the
 * nearest integer; an edge whose weighted weight is positive but rounds to
 * 0 keeps weight 1, so no communicating pair disappears.  Inputs with
 * factor 1 are added exactly, so a Weighted-sum of one type with factor 1
 * equals that type's graph.  The result's types carry the factors (times
 * the inputs' own factors). */
int tg_weighted_sum(const tg_graph *const *graphs, const double *factors,
                    int k, tg_graph **out, tg_error *err);

/* Sum or Weighted-sum of g's own layers (factors NULL for Sum, else one per
 * layer in layer order).  The result has no layers. */
int tg_combine_layers(const tg_graph *g, const double *factors,
                      tg_graph **out, tg_error *err);

/* --------------------------------------------------------- files: formats */

typedef enum tg_format {
    TG_FORMAT_UNKNOWN = 0,
    TG_FORMAT_JSON,   /* native .tg.json */
    TG_FORMAT_METIS,  /* METIS graph file, .graph / .metis */
    TG_FORMAT_SCOTCH, /* Scotch source graph, .grf / .src */
    TG_FORMAT_MTX     /* Matrix Market coordinate, .mtx / .mm (read only) */
} tg_format;

/* Format from a name ("json", "metis", "scotch", "mtx"); UNKNOWN if none. */
tg_format tg_format_from_name(const char *name);
/* Format from a file name's extension; UNKNOWN if none matches. */
tg_format tg_format_from_path(const char *path);
const char *tg_format_name(tg_format f);

/* How Matrix Market values become weights. */
typedef enum tg_mtx_weights {
    TG_MTX_PATTERN = 0, /* every stored entry weighs 1 (default) */
    TG_MTX_VALUES       /* weight = |value| rounded; 0 entries dropped */
} tg_mtx_weights;

typedef struct tg_read_options {
    tg_format format;           /* UNKNOWN: from the extension */
    tg_mtx_weights mtx_weights;
} tg_read_options;

/* Read a graph.  opts may be NULL (format from extension, defaults). */
int tg_read(const char *path, const tg_read_options *opts, tg_graph **out,
            tg_error *err);
/* Write a graph atomically (temporary file in the same folder, renamed into
 * place).  format UNKNOWN: from the extension.  METIS and Scotch files hold
 * only the combined graph; types, layers and the grid survive only in
 * JSON. */
int tg_write(const char *path, tg_format format, const tg_graph *g,
             tg_error *err);

/* A JSON string to fp, with '"', '\\' and control characters escaped as
 * libcommprof's writer escapes them (for files written by hand). */
void tg_json_put_string(FILE *fp, const char *s);

/* Per-format readers and writers (what tg_read / tg_write dispatch to).
 * `source` is the name used in error messages. */
int tg_read_json(const char *path, tg_graph **out, tg_error *err);
int tg_write_json(const char *path, const tg_graph *g, tg_error *err);
int tg_read_metis(const char *path, tg_graph **out, tg_error *err);
int tg_write_metis(const char *path, const tg_graph *g, tg_error *err);
int tg_read_scotch(const char *path, tg_graph **out, tg_error *err);
int tg_write_scotch(const char *path, const tg_graph *g, tg_error *err);
int tg_read_mtx(const char *path, tg_mtx_weights weights, tg_graph **out,
                tg_error *err);

/* ------------------------------------------------------------ generators */

/* N-D grid: one task per point, row-major (last dimension fastest). */
typedef struct tg_stencil_options {
    int ndims;
    int dims[8];
    int periodic;   /* wrap every dimension */
    int diagonals;  /* all 3^d - 1 neighbours instead of 2d */
    uint64_t bytes; /* weight of each edge */
} tg_stencil_options;

int tg_gen_stencil(const tg_stencil_options *o, tg_graph **out,
                   tg_error *err);

/* Qbox-like 2-D process grid of rows x cols tasks, task = r * cols + c:
 * a "p2p" layer with each task exchanging p2p_bytes with its row
 * neighbours (a ring when periodic), and an "alltoall" layer with a clique
 * of alltoall_bytes edges inside each column.  The graph is their Sum and
 * carries its process grid (rows x cols; the second dimension wraps when
 * periodic), as the stencils carry theirs. */
typedef struct tg_qbox_options {
    int rows, cols;
    int periodic;
    uint64_t p2p_bytes;
    uint64_t alltoall_bytes;
} tg_qbox_options;

int tg_gen_qbox(const tg_qbox_options *o, tg_graph **out, tg_error *err);

/* Random geometric graph: n points uniform in the unit square from `seed`,
 * an edge of `bytes` between every pair closer than `radius`. */
typedef struct tg_rgg_options {
    int n;
    double radius;
    uint64_t seed;
    uint64_t bytes;
} tg_rgg_options;

int tg_gen_rgg(const tg_rgg_options *o, tg_graph **out, tg_error *err);

/* The points tg_gen_rgg uses for (n, seed), x[i], y[i] in [0, 1): a
 * generator seeded with `seed` draws, for i = 0 .. n-1, x[i] then y[i].
 * Returns TG_EINVAL for n < 0, or NULL arrays with n > 0. */
int tg_rgg_points(int n, uint64_t seed, double *x, double *y);

/* -------------------------------------------------------------- profiles */

/* A libcommprof profile, commprof.json (topomap-formats(5)), in memory:
 * raw and directional, exactly as recorded.  A type is an index into the
 * profile's own list `types` (as the file lists them), so types a later
 * libcommprof adds need no change here; "p2p" and "rma" name the
 * point-to-point and one-sided types, every other type is a collective.
 * Ranks are indexed by world rank; a profile merged from per-rank partial
 * files may lack some (present == 0, every other member zero). */

#define TG_PROFILE_FORMAT "topomap-commprof"
#define TG_PROFILE_VERSION 1

/* Memory kinds of send buffers, in the order of a rank's
 * "sent_by_kind": host (pageable), pinned, device, managed. */
#define TG_MEM_KINDS 4
extern const char *const tg_mem_kind_names[TG_MEM_KINDS];

/* Traffic between a rank and one other world rank. */
typedef struct tg_prof_row {
    int peer;       /* world rank */
    uint64_t bytes;
    uint64_t count; /* messages, or one-sided operations */
} tg_prof_row;

/* What one rank recorded in one phase: from the application's
 * MPI_Pcontrol(k), k >= 3, to the next phase change; phase 1 from
 * MPI_Init (topomap-formats(5)).  Types and rows as in tg_prof_rank. */
typedef struct tg_prof_phase {
    int phase;             /* its level */
    uint64_t *ns, *calls;  /* per type (ntypes each) */
    int nsent, nreceived, nrma;
    tg_prof_row *sent, *received, *rma;
} tg_prof_phase;

typedef struct tg_prof_rank {
    int present;
    char *host;
    int local_rank;        /* rank on its node */
    char *cpus;            /* the CPUs it may run on, "0-3,8" */
    uint64_t wall_ns;      /* MPI_Init to MPI_Finalize */
    uint64_t mpi_ns;       /* time in MPI */
    /* What placement needs (issue 7), in profiles that have it
     * (has_facts; older ones lack it and leave these zero). */
    int has_facts;
    uint64_t compute_ns;   /* wall_ns - mpi_ns */
    uint64_t maxrss_kb;    /* peak resident memory */
    char *proc_kind;       /* TOPOMAP_PROC_KIND: "cpu", "gpu"; NULL: unset */
    char *cuda_bus_id;     /* PCI bus id of its CUDA context's device;
                            * NULL: no context */
    uint64_t cuda_mem_used; /* bytes in use on that device */
    uint64_t sent_by_kind[TG_MEM_KINDS]; /* bytes from each memory kind */
    uint64_t *ns, *calls;  /* per type: time and calls (ntypes each) */
    int nsent, nreceived, nrma;
    tg_prof_row *sent;     /* point-to-point sends, per destination */
    tg_prof_row *received; /* completed receives, per source */
    tg_prof_row *rma;      /* one-sided operations, per target */
    int nphases;           /* 0 unless the profile has phases */
    tg_prof_phase *phases; /* ascending phase, each once */
} tg_prof_rank;            /* rows: ascending peer, each peer once */

/* Bytes one collective record sent to one member of the communicator's
 * peer group (tg_prof_comm_world gives its world rank). */
typedef struct tg_prof_peer {
    int index;
    uint64_t bytes;
} tg_prof_peer;

/* What one member recorded for one collective type on a communicator. */
typedef struct tg_prof_coll {
    int phase;            /* in a communicator's phase_colls: the phase;
                           * 0 in colls (every phase) */
    int rank;             /* world rank of the member */
    int type;
    uint64_t calls, bytes, ns; /* bytes: of its send buffers */
    int npeers;           /* 0 where the call does not say where bytes go */
    tg_prof_peer *peers;  /* ascending index, each once */
} tg_prof_coll;

typedef struct tg_prof_comm {
    int size;             /* local group */
    int *members;         /* world ranks, in communicator-rank order */
    int remote_size;      /* intercommunicator: the remote group; else 0 */
    int *remote;
    int ncolls;
    tg_prof_coll *colls;  /* in file order */
    int nphase_colls;     /* the same split by phase, in profiles with
                           * phases; 0 otherwise */
    tg_prof_coll *phase_colls; /* in file order */
} tg_prof_comm;

/* A Cartesian communicator the application created (MPI_Cart_create, or
 * MPI_Cart_sub): its dims and periods and, for each Cartesian rank
 * (row-major, as MPI_Cart_rank numbers them), the world rank there. */
typedef struct tg_prof_cart {
    int ndims;
    int *dims, *periods;
    int size;             /* the product of dims */
    int *members;         /* size world ranks, each once */
} tg_prof_cart;

/* World rank of member `index` of the group c's collectives address: the
 * remote group of an intercommunicator, else c's own. */
static inline int tg_prof_comm_world(const tg_prof_comm *c, int index)
{
    return c->remote_size ? c->remote[index] : c->members[index];
}

typedef struct tg_profile {
    int partial;          /* a per-rank partial file ("partial": true) */
    /* The job the profile comes from ("job"): 16 lowercase hex digits, or
     * "" when the file has none (written before libcommprof recorded it);
     * rank 0's start time (s since the epoch) and host. */
    char job_id[17];
    long long job_start;
    char *job_host;
    char *mpi_library;
    int world_size;
    int ntypes;
    char **types;
    int nranks;           /* ranks present */
    tg_prof_rank *ranks;  /* world_size entries, by world rank */
    int ncomms;
    tg_prof_comm *comms;  /* in file order (the file's "id" is the index) */
    /* The phases of the run ("phases", ascending levels), when it had
     * more than one: every present rank then has its nphases, and every
     * communicator its phase_colls.  0 and NULL otherwise. */
    int nphases;
    int *phases;
    int ncarts;
    tg_prof_cart *carts;  /* in file order */
    int view;             /* made by tg_profile_phase: shares its strings
                           * and groups with the profile it came from */
    /* A partial profile tg_profile_read made: the world ranks of its
     * nranks ranks, in the file's order; its ranks are then memory whose
     * pages cost only where a rank is written, so that a file of a few
     * ranks of a large world costs its size, not the world's (merging W
     * partial files: O(W) once, not O(W) each).  NULL otherwise. */
    int *listed;
} tg_profile;

/* Read and check a profile or a partial profile: format, version, the type
 * of every member, every rank and member index in range, no rank or peer
 * listed twice, collective records only from members present in "ranks".
 * Errors name the file and line.  Linear in the file's size. */
int tg_profile_read(const char *path, tg_profile **out, tg_error *err);
void tg_profile_free(tg_profile *p);

/* 1 when the file is a JSON object whose top-level "format" is
 * TG_PROFILE_FORMAT; 0 otherwise (unreadable included).  To tell a
 * profile from a task graph before reading either: it looks at the first
 * 64 KiB, and reads on through the whole file only when "format" is not
 * among them (a file whose members were sorted, `jq -S`). */
int tg_profile_sniff(const char *path);

/* The profile of phase `phase` alone (one of p->phases): every present
 * rank with that phase's types and rows (none where the rank has no
 * such phase; mpi_ns their sum), every communicator with that phase's
 * records; no phases.  It borrows from p (free it with tg_profile_free
 * before p).  TG_EINVAL, naming the phases there are, when p has no such
 * phase. */
int tg_profile_phase(const tg_profile *p, int phase, tg_profile **out,
                     tg_error *err);

/* The Cartesian communicator of p that covers every world rank, to give
 * the graphs built from p their grid: the first such in p->carts; NULL
 * when none does. */
const tg_prof_cart *tg_profile_grid(const tg_profile *p);

/* Index of type `name`, or -1 when the profile does not list it. */
int tg_profile_type(const tg_profile *p, const char *name);

/* Write p atomically in the layout libcommprof writes (a partial profile
 * keeps "partial": true); ranks not present are left out. */
int tg_profile_write(const char *path, const tg_profile *p, tg_error *err);

/* One cell of a communication matrix. */
typedef struct tg_prof_entry {
    int src, dst;         /* world ranks */
    uint64_t bytes;
    uint64_t count;       /* messages (operations for rma, calls for a
                           * collective) */
} tg_prof_entry;

/* The matrix of one type, sorted by src then dst, each pair once:
 *   p2p        the sent rows (src = the rank, dst = the peer), or with
 *              `received` the received rows (src = the peer, dst = the
 *              rank);
 *   rma        the rma rows (src = origin, dst = target);
 *   collective per record: its per-peer bytes (src = the member, dst = the
 *              peer's world rank), or, for a record without them, its
 *              bytes on the diagonal (src = dst = the member); count is
 *              the record's calls; records and peers of 0 bytes are left
 *              out; pairs from several communicators are added.
 * `received` is only for p2p (TG_EINVAL otherwise).  *out is NULL when
 * there are no entries. */
int tg_profile_matrix(const tg_profile *p, int type, int received,
                      tg_prof_entry **out, size_t *n, tg_error *err);

/* Per-type totals over all ranks. */
typedef struct tg_prof_type_stats {
    uint64_t ns, calls;
    double share;     /* ns / the ns of all types; 0 when that is 0 */
    uint64_t bytes;   /* p2p: sent; rma: rma rows; collectives: records */
    int nsizes;       /* collectives: the distinct sizes (local plus remote
                       * group) of the communicators it has records on */
    int *sizes;       /* ascending */
} tg_prof_type_stats;

/* One entry per type of p, in p's type order; free with
 * tg_profile_stats_free. */
int tg_profile_stats(const tg_profile *p, tg_prof_type_stats **out,
                     tg_error *err);
void tg_profile_stats_free(tg_prof_type_stats *s, int ntypes);

/* Merging per-rank partial files into a profile: add each partial
 * profile (consumed: freed by the call, also on failure; `source` names
 * it in messages), then finish.  Only partial profiles are taken; they
 * must agree on world size and types, and no rank may come twice.
 * Communicators with the same members and remote group become one,
 * numbered as libcommprof numbers them (by the lowest rank with records on
 * them, then by that rank's order), with the records by rank; so the merge
 * of the partial files of every rank equals the profile written at
 * MPI_Finalize.  Ranks with no partial file are not present in the
 * result. */
typedef struct tg_profile_merge tg_profile_merge;

tg_profile_merge *tg_profile_merge_new(void);
int tg_profile_merge_add(tg_profile_merge *m, tg_profile *part,
                         const char *source, tg_error *err);
/* The merged profile (not partial); fails when nothing was added.  m is
 * left empty, ready for another merge. */
int tg_profile_merge_finish(tg_profile_merge *m, tg_profile **out,
                            tg_error *err);
void tg_profile_merge_free(tg_profile_merge *m);

/* ----------------------------------------------------------------- build */

/* `taskgraph build` (papers/001, 4.1.1): from a profile, the time of each
 * type, the large collectives left out, the critical types C*, a task
 * graph per critical type (cg_t), and their Sum and Weighted-sum.  How
 * each type becomes edges is in taskgraph(1). */

/* The model of the allreduce family (Allreduce, Reduce_scatter,
 * Reduce_scatter_block, Scan, Exscan). */
typedef enum tg_coll_model {
    TG_MODEL_AUTO = 0,           /* per communicator and message size,
                                  * what Open MPI 4.1's coll/tuned runs */
    TG_MODEL_RING,
    TG_MODEL_RECURSIVE_DOUBLING,
    TG_MODEL_RABENSEIFNER,
    TG_MODEL_CLIQUE
} tg_coll_model;

/* "auto", "ring", "recursive-doubling", "rabenseifner", "clique". */
const char *tg_coll_model_name(tg_coll_model m);
/* The model called `name`; -1 when there is none. */
int tg_coll_model_from_name(const char *name);

typedef struct tg_build_options {
    double large;     /* a collective on a communicator of at least
                       * large x world size ranks is left out (0.5) */
    double coverage;  /* C* covers this share of the time left (0.85);
                       * it holds the heaviest type whatever the share,
                       * so 0 makes that type alone */
    double min_share; /* a type under this share of the time left is
                       * never critical (0.05) */
    tg_coll_model allreduce_model; /* TG_MODEL_AUTO */
    int phase;        /* 0 (the default): every phase together; else
                       * this phase of the profile alone
                       * (tg_profile_phase) */
} tg_build_options;

/* The defaults above. */
void tg_build_options_init(tg_build_options *o);

/* Why a type's time is (partly) left out. */
typedef enum tg_build_filter {
    TG_BUILD_KEPT = 0, /* nothing left out */
    TG_BUILD_PARTLY,   /* some of its collectives ran on large communicators */
    TG_BUILD_LARGE,    /* all of them did */
    TG_BUILD_NO_DATA   /* what is left moves no bytes (a barrier) */
} tg_build_filter;

/* "no", "partly", "large", "no bytes". */
const char *tg_build_filter_name(tg_build_filter f);

typedef struct tg_build_type {
    char *name;
    uint64_t ns, calls, bytes; /* as tg_profile_stats counts them */
    double share;              /* ns / the ns of all types */
    int nsizes;                /* distinct communicator sizes, ascending */
    int *sizes;
    tg_build_filter filter;
    uint64_t kept_ns;          /* ns less what ran on large communicators;
                                * 0 for TG_BUILD_LARGE and NO_DATA */
    double kept_share;         /* kept_ns / the kept_ns of all types */
    unsigned models;           /* allreduce family: bit m set when model m
                                * made some of its edges */
    int critical;              /* in C* */
    double factor;             /* its Weighted-sum factor (0 if not in C*) */
    tg_graph *graph;           /* its edges (what was kept); NULL when none */
} tg_build_type;

typedef struct tg_build {
    int world_size;
    tg_build_options options;
    uint64_t total_ns, kept_ns; /* all types; what is left after filtering */
    int ntypes;                 /* the types used (calls or time), longest
                                 * first, then in the profile's order */
    tg_build_type *types;
    int ncritical;              /* C*, heaviest first: indices into types */
    int *critical;
    double covered;             /* their kept_ns / kept_ns */
    tg_graph *sum, *wsum;       /* Sum and Weighted-sum of C*, with the
                                 * cg_t graphs as layers */
} tg_build;

/* Everything `taskgraph build` computes.  Fails (TG_EINVAL) when no type
 * is critical: every type filtered, no time recorded, or min_share above
 * every type's share, or when o->phase is not a phase of p.  When a
 * Cartesian communicator of p covers every rank (tg_profile_grid), every
 * graph built carries its grid. */
int tg_build_run(const tg_profile *p, const tg_build_options *o,
                 tg_build **out, tg_error *err);
void tg_build_free(tg_build *b);

/* Where tg_build_sends hands each send: `bytes` (> 0) in `count`
 * operations from world rank src to world rank dst (src != dst).  A
 * non-zero return (a TG_E* code, with err filled) stops the walk. */
typedef int (*tg_send_fn)(void *arg, int src, int dst, uint64_t bytes,
                          uint64_t count, tg_error *err);

/* The directed traffic the type graphs of tg_build_run are made from,
 * before anything is added up or made symmetric, for every type of p in
 * p's order: the sent rows (count: messages), the rma rows (operations),
 * and each collective record turned into sends by its model (count: the
 * record's calls; modelled bytes rounded, a positive amount never to 0).
 * o->large and o->allreduce_model apply as in tg_build_run (a large
 * value such as HUGE_VAL keeps every communicator); the other options do
 * not.  For consumers that need per-peer sends rather than an undirected
 * graph (libhetero's input from profiles). */
int tg_build_sends(const tg_profile *p, const tg_build_options *o,
                   tg_send_fn fn, void *arg, tg_error *err);

/* Write DIR/TYPE.tg.json per critical type, DIR/sum.tg.json,
 * DIR/wsum.tg.json, for each format in `formats` (TG_FORMAT_METIS,
 * TG_FORMAT_SCOTCH; nformats may be 0) the same graphs in it, and
 * DIR/summary.json ("topomap-build-summary", topomap-formats(5)), naming
 * `profile` as their source.  All or nothing: the files are written into
 * a hidden folder beside DIR, which then becomes DIR.  DIR may not exist,
 * be empty, or hold a previous build (its summary.json, and only files
 * that summary.json's "files" lists), which is replaced; anything else
 * is refused, naming the first entry that does not belong. */
int tg_build_write(const tg_build *b, const char *dir, const char *profile,
                   const tg_format *formats, int nformats, tg_error *err);

#ifdef __cplusplus
}
#endif

#endif
