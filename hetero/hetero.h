/*
 * hetero.h: heterogeneous placement (prefix ht_): for each rank, CPU cores
 * or a GPU, which GPU, and which kind of memory holds its data.
 *
 * The pieces, in the order data flows through them:
 *   - a node description from hwloc (ht_node): cores and packages, GPUs
 *     with their PCI bus id, UUID, memory and the cores near them, NUMA
 *     nodes with their kind, capacity, bandwidth and latency;
 *   - a calibration file written by memprobe (ht_memcal, format
 *     "topomap-memcal") for what hwloc does not know;
 *   - the per-rank input (ht_input, format "topomap-hetero-input"): compute
 *     time per variant, memory footprint, bytes to each peer;
 *   - the problem (ht_problem): the choices each rank has, the cost model
 *     (papers/003's roofline: time = work / rate + bytes / bandwidth +
 *     latency; objective the makespan, then the sum) and the capacities;
 *   - the search: the GPU-first default of papers/002, an all-CPU baseline,
 *     constrained coordinate-wise descent (papers/000, Algorithms 1 and 2)
 *     and an exhaustive enumerator for small instances;
 *   - the placement (ht_placement, format "topomap-placement") that
 *     topomap-exec applies before it execs the application.
 *
 * Units: bytes, seconds; bandwidths in MiB/s and latencies in ns, as hwloc's
 * memory attributes have them.
 *
 * Errors: functions that can fail return 0 or a negative TG_E* code and
 * fill the caller's tg_error (taskgraph.h) naming the file and line.
 */
#ifndef TOPOMAP_HETERO_H
#define TOPOMAP_HETERO_H

#include <hwloc.h>
#include <stdint.h>
#include <stdio.h>

#include "taskgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- kinds */

typedef enum ht_proc { HT_PROC_CPU = 0, HT_PROC_GPU } ht_proc;

/* Where a rank's data lives.  The first three belong to a GPU rank
 * (cudaMalloc, cudaMallocHost mapped into the device, cudaMallocManaged);
 * the others are NUMA-node kinds, bound with hwloc. */
typedef enum ht_memkind {
    HT_MEM_DEVICE = 0,
    HT_MEM_PINNED,
    HT_MEM_MANAGED,
    HT_MEM_DRAM,
    HT_MEM_HBM,
    HT_MEM_CXL,
    HT_MEM_NVM,
    HT_MEM_GPUNUMA, /* GPU memory exposed as a NUMA node (never chosen) */
    HT_MEM_COUNT
} ht_memkind;

/* "cpu", "gpu" / "device", "pinned", "managed", "dram", "hbm", "cxl",
 * "nvm", "gpu". */
const char *ht_proc_name(ht_proc p);
const char *ht_memkind_name(ht_memkind k);
/* By name; -1 when unknown. */
int ht_proc_parse(const char *name);
int ht_memkind_parse(const char *name);
/* 1 for the kinds of a NUMA node (dram .. gpu). */
int ht_memkind_is_numa(ht_memkind k);

/* Where a figure came from. */
typedef enum ht_source {
    HT_SRC_NONE = 0,   /* unknown: the cost model uses its default */
    HT_SRC_HWLOC,      /* hwloc's topology or memory attributes */
    HT_SRC_CALIBRATION, /* a memprobe file */
    HT_SRC_OPTION      /* given on the command line (--gpu-memory) */
} ht_source;
/* "none", "hwloc", "calibration", "option" */
const char *ht_source_name(ht_source s);

/* -------------------------------------------------------------- node */

typedef struct ht_numa {
    unsigned os_index;
    ht_memkind kind;   /* dram, hbm, cxl, nvm or gpunuma */
    char subtype[32];  /* hwloc's subtype, "" when none */
    uint64_t capacity; /* bytes */
    double bandwidth;  /* MiB/s from the CPUs local to it; 0 unknown */
    double latency;    /* ns from the CPUs local to it; 0 unknown */
    ht_source bandwidth_src, latency_src;
    hwloc_bitmap_t cpuset; /* the PUs local to it */
    int package;           /* logical index of its package, -1 if none */
} ht_numa;

typedef struct ht_gpu {
    char name[32];   /* its first cuda* or nvml* OS device */
    char busid[32];  /* PCI bus id "0000:34:00.0", "" if not on PCI */
    char uuid[64];   /* "GPU-...", "" when hwloc does not know it */
    char model[128]; /* "" when unknown */
    uint64_t memory; /* bytes of device memory, 0 unknown */
    ht_source memory_src;
    hwloc_bitmap_t cpuset; /* PUs near it: its non-I/O ancestor's cpuset */
    int package;           /* logical index of that package, -1 if none */
    int numa;              /* index in ht_node.numa of the DRAM node nearest
                            * to it (host side of pinned and managed
                            * memory), -1 if none */
    /* From a calibration only (MiB/s, ns; 0 unknown): kernel bandwidth to
     * device, pinned (zero-copy) and managed memory; host-device copy
     * bandwidth and latency, the slower direction. */
    double bw_device, bw_pinned, bw_managed;
    double bw_copy_pageable, bw_copy_pinned;
    double lat_copy_pageable, lat_copy_pinned;
} ht_gpu;

typedef struct ht_node {
    char host[256]; /* hwloc's HostName, "" when unknown */
    hwloc_topology_t topo;
    int npackages;
    int npus;
    int ncores;           /* Core objects, or PUs when there are none */
    hwloc_bitmap_t *core; /* [ncores] PUs of each core, logical order */
    int *core_package;    /* [ncores] package index, -1 if none */
    int nnuma;
    ht_numa *numa; /* logical order */
    int ngpus;
    ht_gpu *gpus;     /* in PCI bus id order (CUDA_DEVICE_ORDER) */
    int ncxl_devices; /* CXL memory devices not online as NUMA */
    uint64_t cxl_device_bytes;
} ht_node;

/* Describe a node from `spec`: NULL for the running host, the path of an
 * hwloc XML file, or an hwloc synthetic description ("pack:2 core:4 pu:1").
 * I/O devices are kept, so GPUs appear. */
int ht_node_load(const char *spec, ht_node **out, tg_error *err);
void ht_node_free(ht_node *n);

/* Index of the GPU with this bus id (case-insensitive), or -1. */
int ht_node_find_gpu(const ht_node *n, const char *busid);
/* Index of the NUMA node with this OS index, or -1. */
int ht_node_find_numa(const ht_node *n, unsigned os_index);

/* ------------------------------------------------------- calibration */

typedef struct ht_memcal_numa {
    unsigned os_index;
    char kind[16];      /* informational */
    char initiator[64]; /* PUs the threads ran on, list syntax */
    int threads;
    double copy, triad; /* MiB/s */
    double bandwidth;   /* MiB/s: the figure the cost model uses */
    double latency;     /* ns, 0 when not measured */
} ht_memcal_numa;

typedef struct ht_memcal_gpu {
    char busid[32];
    char uuid[64];
    char model[128];
    uint64_t memory;                   /* bytes, 0 unknown */
    double device, pinned, managed;    /* kernel MiB/s */
    double h2d_pageable, d2h_pageable; /* copy MiB/s */
    double h2d_pinned, d2h_pinned;
    double lat_pageable, lat_pinned; /* copy latency, ns */
} ht_memcal_gpu;

typedef struct ht_memcal {
    char host[256];
    uint64_t array_bytes; /* method: bytes per array, repeats */
    int repeats;
    int nnuma;
    ht_memcal_numa *numa;
    int ngpus;
    ht_memcal_gpu *gpus;
} ht_memcal;

int ht_memcal_read(const char *path, ht_memcal **out, tg_error *err);
/* Atomic: nothing is left at path on failure. */
int ht_memcal_write(const char *path, const ht_memcal *cal, tg_error *err);
void ht_memcal_free(ht_memcal *cal);

/* Fill what hwloc did not know from cal: NUMA bandwidth and latency where
 * hwloc's memory attributes have none (matched by OS index), GPU figures
 * and unknown memory sizes (matched by PCI bus id).  A calibrated NUMA
 * node or GPU that the node lacks is an error. */
int ht_node_calibrate(ht_node *n, const ht_memcal *cal, const char *source,
                      tg_error *err);

/* ------------------------------------------------------------- input */

typedef struct ht_send {
    int peer; /* global rank */
    uint64_t bytes;
    uint64_t messages; /* 0 when unknown */
} ht_send;

/* The most seconds of compute a variant may take (about 32 years): the
 * readers refuse more, a broken file, whose sums would overflow the cost
 * model to inf. */
#define HT_COMPUTE_MAX 1e9

typedef struct ht_rank {
    char *host;
    int local_rank;
    double t_cpu, t_gpu; /* seconds of compute per variant, < 0 absent */
    uint64_t footprint;  /* bytes of data */
    double memory_bound; /* share of compute that scales with memory
                          * bandwidth, 0..1 (default 1) */
    int nsends;
    ht_send *sends; /* what this rank sends, per peer */
} ht_rank;

typedef struct ht_input {
    int n; /* ranks 0..n-1 */
    ht_rank *ranks;
} ht_input;

/* A "topomap-hetero-input" file (man topomap-place). */
int ht_input_read(const char *path, ht_input **out, tg_error *err);
/* Atomic; one rank per line, the reader's layout. */
int ht_input_write(const char *path, const ht_input *in, tg_error *err);
void ht_input_free(ht_input *in);

/* The input from what topomap-place and parmapper --hetero take as INPUT:
 * one topomap-hetero-input file, or one or more libcommprof profiles
 * (format "topomap-commprof", told by tg_profile_sniff), each "PATH", or
 * "cpu:PATH" / "gpu:PATH" to say the variant its ranks ran when
 * TOPOMAP_PROC_KIND was not set.  From profiles (input_profile.c): per rank
 * the compute seconds of the variant it ran, each variant from one
 * profile only; footprint the largest of its peak resident memory and its
 * share of its GPU's memory in use; sends per peer from the rows and the
 * collective models of tg_build_sends (every communicator), the larger
 * count where profiles differ; host and local rank from the first profile
 * that has the rank; memory_bound 1.  World sizes must agree and every
 * rank must be in some profile. */
int ht_input_load(const char *const *inputs, int n, ht_input **out,
                  tg_error *err);

/* ----------------------------------------------------------- problem */

typedef struct ht_params {
    int ranks_per_gpu;    /* default 1 */
    int cores_per_rank;   /* default 1 */
    double gpu_speedup;   /* 0: none; else a variant that was not
                           * measured is derived (t_gpu = t_cpu / s) */
    int cuda_aware;       /* MPI reads device buffers (default 0) */
    double net_bandwidth; /* MiB/s between nodes */
    double net_latency;   /* ns */
    double shm_bandwidth; /* MiB/s between ranks of one node */
    double shm_latency;   /* ns */
    int rotations;        /* CCD rotations (papers/000: 5) */
    int restarts;         /* kicks after the descent (default 8) */
    uint64_t seed;        /* of the kicks (default 0) */
} ht_params;

void ht_params_default(ht_params *p);

/* One thing a rank can be given. */
typedef struct ht_choice {
    ht_proc proc;
    int gpu; /* index in ht_node.gpus, -1 for CPU */
    ht_memkind mem;
    int numa;         /* CPU: its memory; GPU: host side (pinned,
                       * managed, staging), -1 if the GPU has none */
    double bandwidth; /* MiB/s of this memory from this processor,
                       * defaults applied */
} ht_choice;

/* The instance: input, node (the same description for every host of the
 * input), parameters.  Keeps pointers to in and node. */
typedef struct ht_problem ht_problem;

int ht_problem_new(const ht_input *in, const ht_node *node,
                   const ht_params *par, ht_problem **out, tg_error *err);
void ht_problem_free(ht_problem *p);

int ht_problem_nchoices(const ht_problem *p);
const ht_choice *ht_problem_choice(const ht_problem *p, int c);
/* 1 when rank r has the variant choice c needs. */
int ht_problem_allows(const ht_problem *p, int r, int c);

typedef struct ht_cost {
    double makespan; /* max over ranks of compute + communication */
    double sum;      /* sum over ranks */
} ht_cost;

/* Cost of choice[0..n-1]; TG_EINVAL naming the first capacity exceeded or
 * variant missing. */
int ht_evaluate(const ht_problem *p, const int *choice, ht_cost *cost,
                tg_error *err);
/* The two parts of rank r's time under choice (no capacity check). */
void ht_rank_time(const ht_problem *p, const int *choice, int r,
                  double *compute, double *comm);
/* -1, 0, 1 as a is better than, as good as, worse than b (makespan first,
 * then sum, each to a relative 1e-12). */
int ht_cost_compare(const ht_cost *a, const ht_cost *b);

typedef struct ht_search_stats {
    long evaluations;  /* placements costed */
    int rotations;     /* rotations run */
    int polish_passes; /* unconstrained passes after them */
} ht_search_stats;

/* papers/002's default: each rank with a GPU variant on the least loaded
 * GPU of its node that holds it, in the best-bandwidth memory that fits;
 * the others on the best-bandwidth NUMA node that fits.  Ranks in order,
 * those with only a GPU variant first. */
int ht_gpu_first(const ht_problem *p, int *choice, tg_error *err);
/* The same with every rank that has a CPU variant on CPU cores. */
int ht_all_cpu(const ht_problem *p, int *choice, tg_error *err);
/* Constrained coordinate-wise descent (papers/000) from ht_gpu_first,
 * then moves of two and three ranks and ejection chains until nothing
 * improves, then par->restarts random kicks (seeded by par->seed); all of
 * it again from ht_all_cpu, and the better result.  stats may be NULL. */
int ht_search(const ht_problem *p, int *choice, ht_cost *cost,
              ht_search_stats *stats, tg_error *err);
/* The optimum by enumeration, for at most HT_EXHAUSTIVE_MAX ranks.  It
 * visits up to ht_exhaustive_count assignments, the product over ranks
 * of the choices each has, which grows as the node's choices to the
 * power of the ranks: 4 ranks on 64 NUMA nodes, 2^24, take a second or
 * two, 5 ranks over a minute.  Capacities and the best makespan so far
 * cut many instances far below it (the tests' random ones, counts up to
 * 6 x 10^7, take milliseconds), but a caller that enumerates a user's
 * input refuses a count over HT_EXHAUSTIVE_BUDGET first, as
 * topomap-place does: 2^24 took at most 4.6 s (8 ranks, all pairs
 * talking, 8 choices each, nothing cut). */
#define HT_EXHAUSTIVE_MAX 8
#define HT_EXHAUSTIVE_BUDGET 16777216ULL /* 2^24: 8^8, 64^4 */
/* The product over ranks of the number of choices each may take (those
 * ht_problem_allows); UINT64_MAX when it does not fit. */
uint64_t ht_exhaustive_count(const ht_problem *p);
int ht_exhaustive(const ht_problem *p, int *choice, ht_cost *cost,
                  tg_error *err);

/* --------------------------------------------------------- placement */

typedef enum ht_policy {
    HT_POLICY_NONE = 0,  /* "none": leave the memory policy alone */
    HT_POLICY_BIND,      /* "bind": only these nodes */
    HT_POLICY_PREFERRED, /* "preferred": these first */
    HT_POLICY_INTERLEAVE /* "interleave": round-robin over them */
} ht_policy;
const char *ht_policy_name(ht_policy p);
int ht_policy_parse(const char *name); /* -1 when unknown */

typedef struct ht_entry {
    char *host;
    int local_rank;
    int rank; /* global rank, for checking */
    ht_proc proc;
    char gpu_busid[32];  /* GPU ranks only */
    char gpu_uuid[64];   /* "" when none: only read from files (ht_place
                          * leaves it empty; man topomap-exec) */
    hwloc_bitmap_t cpus; /* PU OS indexes of its cores */
    ht_policy policy;
    hwloc_bitmap_t nodes; /* NUMA OS indexes */
    ht_memkind mem;
} ht_entry;

typedef struct ht_placement {
    int n;
    ht_entry *entries; /* by global rank when built by ht_place */
    ht_cost cost;      /* predicted; < 0 when unknown */
} ht_placement;

/* n entries, each with empty cpus and nodes bitmaps (the rest zero:
 * CPU, policy none), cost unknown; NULL when out of memory. */
ht_placement *ht_placement_new(int n);
/* Turn choice[] into a placement: cores from each choice's allowed set
 * (GPU: near the GPU; CPU: local to its memory), innermost sets first. */
int ht_place(const ht_problem *p, const int *choice, ht_placement **out,
             tg_error *err);
/* Atomic write; the reader checks every member and names file, line and
 * rank entry on error. */
int ht_placement_write(const char *path, const ht_placement *pl, tg_error *err);
/* The same text into fp, for a caller that commits it with other files
 * (`name` for messages); fp is left as it is on error. */
int ht_placement_fwrite(FILE *fp, const char *name, const ht_placement *pl,
                        tg_error *err);
int ht_placement_read(const char *path, ht_placement **out, tg_error *err);
/* Whether an entry's cpus and nodes are wanted, asked once per entry in
 * file order, with host, local_rank, rank, proc and the GPU read. */
typedef int (*ht_entry_keep)(const ht_entry *e, void *arg);
/* ht_placement_read, but the cpus and nodes of only the entries keep
 * wants (all when keep is NULL): the others' lists are checked as
 * strictly, their bitmaps left empty.  A bitmap takes a bit per index up
 * to its highest, so a file of n entries naming index 1048575 would
 * take 2n x 128 KB: topomap-exec, run once per rank, keeps its own. */
int ht_placement_read_some(const char *path, ht_entry_keep keep, void *arg,
                           ht_placement **out, tg_error *err);
void ht_placement_free(ht_placement *pl);
/* The entry of (host, local_rank) or NULL.  Hosts match exactly, or up to
 * the first '.' of either name (n0 matches n0.cluster). */
const ht_entry *ht_placement_find(const ht_placement *pl, const char *host,
                                  int local_rank);
/* 1 when two host names denote the same host by the rule above. */
int ht_host_match(const char *a, const char *b);

/* Parse a list "0-3,8" of integers 0..1048575 (no blanks) into b; "" is
 * the empty set.  -1 when malformed, -2 when b could not grow (out of
 * memory; b is then empty).  b NULL: the syntax only. */
int ht_list_parse(hwloc_bitmap_t b, const char *text);

#ifdef __cplusplus
}
#endif

#endif
