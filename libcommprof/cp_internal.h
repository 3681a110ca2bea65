/*
 * cp_internal.h: the state and helpers behind libcommprof's MPI wrappers.
 *
 * libcommprof lives inside someone else's process, so it keeps one global
 * state (the only global mutable state in topomap), never aborts, never
 * prints unless something went wrong, and costs as little as it can on the
 * path of a point-to-point call: counters are dense per-world-rank arrays
 * allocated at MPI_Init, so that path never allocates and never locks.
 *
 * Threads (MPI_THREAD_MULTIPLE).  Every counter is a 64-bit word updated
 * with cp_add: a relaxed atomic add when MPI provides THREAD_MULTIPLE,
 * a plain add otherwise (below MULTIPLE, MPI calls never run at the same
 * time, so nothing else can touch the word).  Atomics rather than
 * per-thread counters because a new thread's counters would have to be
 * allocated on its first call, which is a fast path, and merged rows of
 * world_size words per thread cost more than an uncontended atomic add.
 * What is created rather than counted (a communicator's record and its
 * cached translation, a request or matched-message entry) is created
 * under a mutex, never on the point-to-point fast path: a communicator
 * handle caches its record on first use (double-checked under cp.lock so
 * two threads never cache two), per-peer arrays of collective records are
 * published with a compare-and-swap, and the request and message tables
 * each have their own mutex and are allocated at MPI_Init.  Below
 * THREAD_MULTIPLE the tables are not locked and a cache of recent
 * communicator handles skips MPI's attribute lookup (requests.c, comm.c).
 */
#ifndef TOPOMAP_CP_INTERNAL_H
#define TOPOMAP_CP_INTERNAL_H

#include "config.h" /* CP_HAVE_*: the MPI-4 calls this MPI declares */

#include <mpi.h>
#if CP_HAVE_MPIX_COLL_INIT
#include <mpi-ext.h> /* Open MPI 4.1's MPIX_NAME_init (wrappers.def) */
#endif
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#define CP_HAVE_TSC 1
#include <x86intrin.h>
#else
#define CP_HAVE_TSC 0
#endif

/* Nothing declared here is exported: the library's interface is MPI's.
 * Hidden, the helpers are called directly rather than through the PLT,
 * cp is addressed without the GOT, and no name clashes with the
 * application's. */
#pragma GCC visibility push(hidden)

/* ------------------------------------------------------------- the types */

/* Communication types: point-to-point, one per collective operation
 * (blocking and nonblocking share one), and one-sided. */
#define CP_TYPES(X)                                                          \
    X(P2P, "p2p")                                                            \
    X(BARRIER, "barrier")                                                    \
    X(BCAST, "bcast")                                                        \
    X(REDUCE, "reduce")                                                      \
    X(ALLREDUCE, "allreduce")                                                \
    X(ALLTOALL, "alltoall")                                                  \
    X(ALLTOALLV, "alltoallv")                                                \
    X(ALLTOALLW, "alltoallw")                                                \
    X(ALLGATHER, "allgather")                                                \
    X(ALLGATHERV, "allgatherv")                                              \
    X(GATHER, "gather")                                                      \
    X(GATHERV, "gatherv")                                                    \
    X(SCATTER, "scatter")                                                    \
    X(SCATTERV, "scatterv")                                                  \
    X(REDUCE_SCATTER, "reduce_scatter")                                      \
    X(REDUCE_SCATTER_BLOCK, "reduce_scatter_block")                          \
    X(SCAN, "scan")                                                          \
    X(EXSCAN, "exscan")                                                      \
    X(NEIGHBOR_ALLGATHER, "neighbor_allgather")                              \
    X(NEIGHBOR_ALLGATHERV, "neighbor_allgatherv")                            \
    X(NEIGHBOR_ALLTOALL, "neighbor_alltoall")                                \
    X(NEIGHBOR_ALLTOALLV, "neighbor_alltoallv")                              \
    X(NEIGHBOR_ALLTOALLW, "neighbor_alltoallw")                              \
    X(RMA, "rma")

typedef enum cp_type {
#define CP_ENUM(id, name) CP_##id,
    CP_TYPES(CP_ENUM)
#undef CP_ENUM
        CP_NTYPES
} cp_type;

extern const char *const cp_type_names[CP_NTYPES];

/* ------------------------------------------------------------ the clock */

/*
 * Every wrapped call reads the clock twice, so the clock is most of what a
 * wrapper costs: clock_gettime(CLOCK_MONOTONIC) takes 25 to 30 ns through
 * the vDSO on the development machine (a VM), RDTSC 11.
 *
 * cp_now() returns ticks.  On x86-64, when the CPU reports an invariant
 * TSC (cpuid 0x80000007, EDX bit 8: constant rate, running in every power
 * state) and the kernel keeps time with it (clocksource "tsc": it found
 * the TSCs of all CPUs in step, so a rank moving between cores reads one
 * clock), a tick is one count of the time-stamp counter, read with RDTSC;
 * elsewhere (other architectures, no invariant TSC, a VM that hides it or
 * a kernel that distrusts it) a tick is one ns of CLOCK_MONOTONIC.
 * COMMPROF_CLOCK=tsc or monotonic forces the choice (tsc on x86-64 only).
 *
 * Everything recorded is in ticks: the hot path only subtracts and adds.
 * Each rank converts to ns when it writes (cp_clock_rate, cp_ns), at a
 * rate measured between a (TSC, CLOCK_MONOTONIC) pair taken at MPI_Init
 * and another taken at write time, each read to within tens of ns: over
 * a run of a second the rate is right to within about 0.1 ppm (NTP's
 * slewing of CLOCK_MONOTONIC, at most 500 ppm, is averaged over the run).
 * Every rank has its own rate, since nodes differ.  The conversion rounds
 * down, so sums keep their order: the ns of the types never add up to
 * more than the ns of the wall time that contains them.
 *
 * Plain RDTSC, not RDTSCP or LFENCE + RDTSC (twice the cost): RDTSC is not
 * ordered with the instructions around it, so each read may land up to
 * the CPU's out-of-order window (a few hundred instructions, well under a
 * microsecond) away from its place in the program.  Both ends of a call
 * move alike, the error of one interval has no sign, and it does not grow
 * with the number of calls; the time that matters in a profile is spent
 * in calls that wait, microseconds long and more.  clock_gettime pays for
 * an ordered read (the vDSO fences RDTSC) that a sum of many intervals
 * does not need.
 */

static inline int64_t cp_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Choose the clock (at MPI_Init, before the first cp_now). */
void cp_clock_init(void);

/* ns = ticks x num / den. */
typedef struct cp_rate {
    uint64_t num, den;
} cp_rate;

/* Ticks to ns, from MPI_Init to now.  Async-signal-safe. */
cp_rate cp_clock_rate(void);

static inline uint64_t cp_ns(uint64_t ticks, cp_rate r)
{
    if (r.num == r.den)
        return ticks;
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 wide;
    return (uint64_t)((wide)ticks * r.num / r.den);
#else
    return (uint64_t)((long double)ticks * r.num / r.den);
#endif
}

/* -------------------------------------------------------- communicators */

/* Phases (MPI_Pcontrol(k), k >= 3, see state.c): at most this many
 * distinct levels, the first phase (level 1, from MPI_Init) included. */
#define CP_MAX_PHASES 16
/* The counters of one phase: one block of 6 x world_size words, in the
 * order of cp_state's sent_bytes .. rma_ops. */
#define CP_ROWS 6

/* What one rank recorded for one collective type on one communicator. */
typedef struct cp_coll {
    uint64_t calls;
    uint64_t bytes;  /* bytes in this rank's send buffers */
    uint64_t ticks;  /* time in the calls (and their waits) */
    uint64_t *peers; /* bytes sent to each member (comm rank), or NULL */
} cp_coll;

/* A communicator as the profile knows it: its members as world ranks (the
 * remote group too for an intercommunicator), and what this rank did on
 * it.  Records outlive their communicator: MPI_Comm_free forgets the
 * handle's cache entry, not what was recorded. */
typedef struct cp_comm {
    int size;        /* local group */
    int *members;    /* world rank of each comm rank */
    int remote_size; /* remote group of an intercommunicator, else 0 */
    int *remote;
    int is_world;    /* members[i] == i */
    /* A member has no rank in this MPI_COMM_WORLD (a spawned or connected
     * job's): the communicator is left out of the profile, since its peers
     * are not tasks of this job (its time is in the type totals). */
    int outside;
    cp_coll coll[CP_NTYPES]; /* the first phase's records */
    /* The records of each phase (index into cp.phases): phase[0] is coll,
     * the others are allocated when a collective first runs on the
     * communicator in that phase and published with a compare-and-swap,
     * so a run that never changes phase holds nothing more. */
    cp_coll *phase[CP_MAX_PHASES];
    struct cp_comm *next;
} cp_comm;

/* Create the attribute key that communicator handles cache their entry
 * under (at MPI_Init). */
int cp_comm_keyval_create(void);
/* The record of `comm`, created and cached on first use; NULL for
 * MPI_COMM_NULL or when memory is short. */
cp_comm *cp_comm_get(MPI_Comm comm);

/* The out-neighbours of a communicator with a Cartesian, graph or
 * dist-graph topology, in the order of the send blocks of a neighbourhood
 * collective, as comm ranks (-1 for MPI_PROC_NULL): their number, with
 * *out pointing at them and *rec at the communicator's record; -1 when
 * comm has no topology or memory is short.  Computed once per handle. */
int cp_comm_neighbors(MPI_Comm comm, cp_comm **rec, const int **out);

/* Size of the group a communicator's calls address: the remote group of an
 * intercommunicator, else its own. */
static inline int cp_comm_peers(const cp_comm *c)
{
    return c->remote_size ? c->remote_size : c->size;
}

/* World rank of rank `r` of c's peer group; -1 when out of range. */
static inline int cp_comm_world(const cp_comm *c, int r)
{
    if (r < 0 || r >= cp_comm_peers(c))
        return -1;
    return c->remote_size ? c->remote[r] : c->members[r];
}


/* World rank of `r` in the window's group; -1 if none. */
int cp_win_peer_world(MPI_Win win, int r);

/* Free every communicator record (at the end). */
void cp_comms_free(void);

/* A Cartesian communicator the application created (MPI_Cart_create,
 * MPI_Cart_sub), recorded whether recording or not: it describes the
 * application, not its traffic.  members[p]: the world rank at Cartesian
 * rank p.  Each distinct one once, in the order this rank made them. */
#define CP_CART_MAX_DIMS 64
typedef struct cp_cart {
    int ndims, size;
    int dims[CP_CART_MAX_DIMS], periods[CP_CART_MAX_DIMS];
    int *members;
    struct cp_cart *next;
} cp_cart;

/* ---------------------------------------------------------- memory kinds */

/* Where a send buffer lives (cuda.c): host pageable memory, host memory
 * the CUDA driver has pinned, device memory, managed memory. */
typedef enum cp_mem_kind {
    CP_MEM_HOST,
    CP_MEM_PINNED,
    CP_MEM_DEVICE,
    CP_MEM_MANAGED,
    CP_MEM_KINDS
} cp_mem_kind;

extern const char *const cp_mem_kind_names[CP_MEM_KINDS];

/* TOPOMAP_PROC_KIND, the variant a rank runs (set by topomap-exec). */
enum { CP_PROC_UNSET, CP_PROC_CPU, CP_PROC_GPU };

/* ------------------------------------------------------------ the state */

#define CP_HOST_LEN 256
#define CP_CPUS_LEN 256
#define CP_BUS_ID_LEN 32 /* "0000:3b:00.0" and room to spare */

typedef struct cp_state {
    int initialized; /* MPI_Init seen and the arrays allocated */
    int finalized;
    int enabled;     /* COMMPROF_ENABLE not off */
    int recording;   /* MPI_Pcontrol / COMMPROF_START */
    int threaded;    /* MPI provides MPI_THREAD_MULTIPLE: atomic counters */
    int tsc;         /* cp_now reads the TSC (see the clock) */
    int world_rank, world_size;
    /* Where the profile goes (cp_start): COMMPROF_OUT, for a spawned world
     * with its own suffix; NULL when memory was short. */
    char *out;
    /* The CUDA driver, when the application has loaded it (cuda.c):
     * send buffers are classified while `cuda` is set; until then the
     * wrappers look for the driver again once cuda_look_at has passed. */
    int cuda;
    int64_t cuda_look_at; /* ticks */
    /* The current phase's counters, which the wrappers add to: per type,
     * time (ticks) and calls of this rank; dense per-world-rank counters.
     * Switched by MPI_Pcontrol (a call that runs in another thread while
     * the phase changes counts in either phase, never in none). */
    uint64_t *type_ticks, *type_calls;
    uint64_t *sent_bytes, *sent_msgs;
    uint64_t *recv_bytes, *recv_msgs;
    uint64_t *rma_bytes, *rma_ops;

    /* (What a wrapper reads comes first, above: two cache lines.) */
    int64_t t_init, t_finalize; /* ticks */

    /* Facts about this process, taken at MPI_Init so that a partial
     * profile can be written without calling MPI. */
    char host[CP_HOST_LEN], cpus[CP_CPUS_LEN];
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int local_rank;
    int proc_kind; /* CP_PROC_* */
    /* The job: drawn by rank 0 at MPI_Init and broadcast, so that every
     * rank's profile and partial profiles say which run they belong to
     * (a random 64-bit id, rank 0's start time in s since the epoch, and
     * rank 0's host). */
    uint64_t job_id;
    int64_t job_start;
    char job_host[CP_HOST_LEN];

    /* Bytes sent from each kind of memory but host, which is what the
     * other bytes sent leave (the writer works it out). */
    uint64_t kind_bytes[CP_MEM_KINDS];
    /* The GPU of the context current at MPI_Init, MPI_Abort or
     * MPI_Finalize, when there was one. */
    int gpu_known;
    char gpu_bus_id[CP_BUS_ID_LEN];
    uint64_t gpu_mem_used;

    /* The phases this rank has entered, in the order it entered them
     * (phases[0]: level 1, from MPI_Init), and the index of the current
     * one.  Each keeps its own counters; the profile's totals are their
     * sums, so a run that never changes phase records as it always did.
     * A phase's block is allocated by MPI_Pcontrol when the phase is
     * first entered, never on a wrapper's path. */
    struct cp_phase {
        int level;
        uint64_t type_ticks[CP_NTYPES];
        uint64_t type_calls[CP_NTYPES];
        uint64_t *rows; /* CP_ROWS x world_size */
    } phases[CP_MAX_PHASES];
    int nphases, phase;

    pthread_mutex_t lock; /* communicator records and handle caches */
    cp_comm *comms;       /* published with a release store */
    cp_cart *carts;       /* oldest first; the last one's next is
                           * published with a release store */
    int comm_keyval, win_keyval;
} __attribute__((aligned(64))) cp_state;

extern cp_state cp;

/* The records of c in the current phase (CP_NTYPES of them); NULL when
 * memory is short. */
cp_coll *cp_phase_colls(cp_comm *c, int phase);
static inline cp_coll *cp_colls(cp_comm *c)
{
    int i = __atomic_load_n(&cp.phase, __ATOMIC_RELAXED);
    cp_coll *k = __atomic_load_n(&c->phase[i], __ATOMIC_ACQUIRE);
    return __builtin_expect(k != NULL, 1) ? k : cp_phase_colls(c, i);
}

static inline int cp_on(void)
{
    return __atomic_load_n(&cp.recording, __ATOMIC_RELAXED);
}

/* Between MPI_Init and MPI_Finalize with the profiler on: its tables and
 * attribute keys exist, so bookkeeping may run, recording or not (a
 * persistent request's init). */
static inline int cp_ready(void)
{
    return cp.initialized && !cp.finalized;
}

/* Now, in ticks. */
static inline int64_t cp_now(void)
{
#if CP_HAVE_TSC
    if (__builtin_expect(cp.tsc, 1))
        return (int64_t)__rdtsc();
#endif
    return cp_monotonic_ns();
}

static inline void cp_add(uint64_t *c, uint64_t v)
{
    if (cp.threaded)
        __atomic_fetch_add(c, v, __ATOMIC_RELAXED);
    else
        *c += v;
}

/* A counter read while other threads may add to it. */
static inline uint64_t cp_load(const uint64_t *c)
{
    return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* Look for the CUDA driver now (cuda.c), and when it has not been found,
 * set when to look again. */
void cp_cuda_look(int64_t now);

/* In every wrapper that may send: look for a driver the application has
 * loaded since, at most once a millisecond. */
static inline void cp_cuda_poll(int64_t now)
{
    if (__builtin_expect(now >= __atomic_load_n(&cp.cuda_look_at,
                                                __ATOMIC_RELAXED),
                         0))
        cp_cuda_look(now);
}

/* Count `bytes` sent from `buf` by the kind of memory it lives in.
 * Without the driver, one predictable branch: everything is host memory,
 * which the writer derives. */
void cp_kind_count(const void *buf, uint64_t bytes);
static inline void cp_kind(const void *buf, uint64_t bytes)
{
    if (__builtin_expect(__atomic_load_n(&cp.cuda, __ATOMIC_ACQUIRE), 0) &&
        bytes)
        cp_kind_count(buf, bytes);
}

/* The GPU of the calling thread's current context into cp (gpu_*), when
 * the driver is loaded.  look: look for the driver again first, at once
 * (takes a lock and may dlopen); 0: only with a driver found already,
 * without a lock or a load, as MPI_Abort must, which applications call
 * from signal handlers. */
void cp_cuda_facts(int look);
/* Let go of the driver (at the end). */
void cp_cuda_end(void);

/* Charge one call of `ticks` to type t. */
static inline void cp_charge(cp_type t, int64_t ticks)
{
    cp_add(&cp.type_ticks[t], (uint64_t)(ticks > 0 ? ticks : 0));
    cp_add(&cp.type_calls[t], 1);
}

/* Bytes of `count` elements of `dt` (0 for MPI_DATATYPE_NULL or errors),
 * in 64 bits: an int count widens, a large-count (_c) one is exact. */
uint64_t cp_bytes(MPI_Count count, MPI_Datatype dt);
/* The same for every member of comm's peer group (the remote group of an
 * intercommunicator). */
uint64_t cp_nbytes(MPI_Comm comm, MPI_Count count, MPI_Datatype dt);
/* The same for every member of comm's own (local) group:
 * MPI_Reduce_scatter_block's send buffer, on an intercommunicator too. */
uint64_t cp_nbytes_local(MPI_Comm comm, MPI_Count count, MPI_Datatype dt);

/* An array of counts, int (the classic calls) or MPI_Count (their
 * large-count _c variants, MPI-4), or none; CP_COUNTS(p) makes one from
 * either kind of pointer, or NULL, so that a row of wrappers.def reads
 * the same for both variants. */
typedef struct cp_counts {
    const int *i;
    const MPI_Count *c;
} cp_counts;
static inline cp_counts cp_counts_int(const int *p)
{
    return (cp_counts){.i = p};
}
static inline cp_counts cp_counts_large(const MPI_Count *p)
{
    return (cp_counts){.c = p};
}
#define CP_COUNTS(p)                                                         \
    _Generic((p), const MPI_Count *: cp_counts_large,                        \
             MPI_Count *: cp_counts_large, default: cp_counts_int)(p)
static inline int cp_counts_given(cp_counts k)
{
    return k.i || k.c;
}
static inline MPI_Count cp_count(cp_counts k, int j)
{
    return k.c ? k.c[j] : k.i[j];
}
int cp_comm_rank(MPI_Comm comm);

/* The bytes a receive's status reports, and whether the receive was
 * cancelled.  Open MPI keeps both in the status (_ucount, _cancelled),
 * which is what PMPI_Get_elements_x with MPI_BYTE and PMPI_Test_cancelled
 * return: read directly, they cost nothing instead of about 10 ns a
 * receive.  Other MPI libraries are asked. */
static inline uint64_t cp_status_bytes(const MPI_Status *st)
{
#ifdef OPEN_MPI
    return st->_ucount;
#else
    MPI_Count bytes = 0;
    PMPI_Get_elements_x(st, MPI_BYTE, &bytes);
    return bytes > 0 ? (uint64_t)bytes : 0;
#endif
}

static inline int cp_status_cancelled(const MPI_Status *st)
{
#ifdef OPEN_MPI
    return st->_cancelled;
#else
    int flag = 0;
    PMPI_Test_cancelled(st, &flag);
    return flag;
#endif
}

/* World rank of comm rank `r` in the group that point-to-point calls on
 * `comm` address (the remote group of an intercommunicator); -1 for
 * MPI_PROC_NULL, MPI_ANY_SOURCE or out of range.  On MPI_COMM_WORLD, where
 * most calls go, without a call: the rank is the world rank. */
int cp_peer_world_other(MPI_Comm comm, int r);
static inline int cp_peer_world(MPI_Comm comm, int r)
{
    if (r < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return r < cp.world_size ? r : -1;
    return cp_peer_world_other(comm, r);
}

/* Point-to-point accounting, inline in the wrappers: on MPI_COMM_WORLD a
 * send or a receive costs its additions and no call but cp_bytes (the
 * receive path's calls were a fifth of a wrapper's cost left beside the
 * clock, bench/README.md).  `buf` is the send buffer, whose memory kind
 * the bytes count under (cp_kind); `world` the peer as a world rank. */
static inline void cp_sent_world(int world, uint64_t bytes, const void *buf)
{
    if (world < 0 || world >= cp.world_size)
        return;
    cp_add(&cp.sent_bytes[world], bytes);
    cp_add(&cp.sent_msgs[world], 1);
    cp_kind(buf, bytes);
}

static inline void cp_sent(MPI_Comm comm, int dest, MPI_Count count,
                           MPI_Datatype dt, const void *buf)
{
    int world = cp_peer_world(comm, dest);
    if (world >= 0) /* not MPI_PROC_NULL: worth a datatype's size */
        cp_sent_world(world, cp_bytes(count, dt), buf);
}

/* A receive of `bytes` from world rank `world`. */
static inline void cp_received_bytes(int world, uint64_t bytes)
{
    if (world < 0 || world >= cp.world_size)
        return;
    cp_add(&cp.recv_bytes[world], bytes);
    cp_add(&cp.recv_msgs[world], 1);
}

/* A receive from world rank `world` as its status tells. */
static inline void cp_received_world(int world, const MPI_Status *st)
{
    cp_received_bytes(world, cp_status_bytes(st));
}

static inline void cp_received(MPI_Comm comm, const MPI_Status *st)
{
    cp_received_world(cp_peer_world(comm, st->MPI_SOURCE), st);
}

static inline void cp_received_rec(const cp_comm *rec, const MPI_Status *st)
{
    cp_received_world(cp_comm_world(rec, st->MPI_SOURCE), st);
}

/* Collective accounting.  Each of these records one call of `ticks` in
 * `into`, or when `into` is NULL in the record of its type on comm in the
 * current phase (and the bytes from `buf` by memory kind).  A persistent
 * collective's init records into a record of its own (calls, bytes and
 * peers), which each MPI_Start adds to comm's (cp_coll_started). */
/* One call with `bytes` of this rank's send buffer `buf` (the receive
 * buffer where the call is MPI_IN_PLACE). */
void cp_coll_add(cp_coll *into, MPI_Comm comm, cp_type t, uint64_t bytes,
                 int64_t ticks, const void *buf);
/* Time spent completing a nonblocking collective of type t on rec. */
void cp_coll_wait(cp_comm *rec, cp_type t, int64_t ticks);
/* A v/w collective: bytes to each member from counts (types per member
 * when `types` is given), and their sum as its bytes. */
void cp_coll_peers(cp_coll *into, MPI_Comm comm, cp_type t, cp_counts counts,
                   const MPI_Datatype *types, MPI_Datatype type, int64_t ticks,
                   const void *buf);
/* MPI_Reduce_scatter: as cp_coll_peers on an intracommunicator.  On an
 * intercommunicator counts has one entry per member of the local group
 * (how the remote group's result is scattered here), so the send buffer
 * is their sum and which remote member gets which part is not known: the
 * bytes only, no peers. */
void cp_coll_reduce_scatter(cp_coll *into, MPI_Comm comm, cp_type t,
                            cp_counts counts, MPI_Datatype type,
                            int64_t ticks, const void *buf);
/* A rooted collective whose root sends (Bcast, Scatter, Scatterv): at the
 * root (MPI_ROOT included), `count` elements of `type` (counts[i] when
 * counts are given) to every other member, and as its bytes its send
 * buffer: that one block for a broadcast (`one_block`), else every
 * member's block.  The send arguments are read at the root only, where
 * they are significant. */
void cp_coll_from_root(cp_coll *into, MPI_Comm comm, cp_type t, int root,
                       cp_counts counts, MPI_Count count, MPI_Datatype type,
                       int one_block, int64_t ticks, const void *buf);
/* A rooted collective whose members send to the root (Reduce, Gather,
 * Gatherv): `count` elements of `type` as its bytes, sent to the root
 * unless this is the root; nothing in the root group of an
 * intercommunicator (root MPI_ROOT or MPI_PROC_NULL), where the send
 * arguments are not significant. */
void cp_coll_to_root(cp_coll *into, MPI_Comm comm, cp_type t, int root,
                     MPI_Count count, MPI_Datatype type, int64_t ticks,
                     const void *buf);
/* A neighbourhood collective: `count` elements of `type` (counts[j],
 * types[j] when given) to out-neighbour j, nothing to MPI_PROC_NULL, and
 * as its bytes its send buffer: one block when every neighbour gets the
 * same (`one_block`: the allgathers), else the sum of the blocks. */
void cp_coll_neighbors(cp_coll *into, MPI_Comm comm, cp_type t,
                       cp_counts counts, MPI_Count count,
                       const MPI_Datatype *types, MPI_Datatype type,
                       int one_block, int64_t ticks, const void *buf);
/* A start of a persistent collective of type t on rec: one call of
 * `ticks` with `bytes` from `buf` and `peers` (or NULL) to the members,
 * as its init recorded them. */
void cp_coll_started(cp_comm *rec, cp_type t, uint64_t bytes,
                     const uint64_t *peers, int64_t ticks, const void *buf);

/* One-sided: bytes to `target` of the window from the origin buffer. */
void cp_rma(MPI_Win win, int target, uint64_t bytes, const void *buf);

/* ------------------------------------------------- requests and messages */

/* Kinds of persistent request (cp_req_info.persistent): a send (bytes
 * counted at each start: MPI_Send_init and friends, MPI_Psend_init), a
 * receive (bytes at each completion: MPI_Recv_init, MPI_Precv_init), a
 * collective (MPI_Bcast_init and the other MPI-4 persistent collectives:
 * the call and its bytes at each start). */
enum { CP_PERSIST_SEND = 1, CP_PERSIST_RECV, CP_PERSIST_COLL };

/* Whether the MPI sets the status of a posted receive's request (an
 * MPI_Isendrecv's): Open MPI does; MPICH (4.0, 5.0) leaves it unset, so
 * there one from MPI_ANY_SOURCE has no known source and is not counted. */
#ifdef OPEN_MPI
#define CP_POSTED_STATUS 1
#else
#define CP_POSTED_STATUS 0
#endif

/* What a request stands for, so that its completion is charged to the
 * right type and a receive's bytes are counted from its status. */
typedef struct cp_req_info {
    cp_type type;
    cp_comm *rec;        /* receives and collectives: the communicator's
                          * record (not its handle, which may be freed
                          * before the request completes) */
    int persistent;      /* CP_PERSIST_*; 0 not persistent */
    int posted;          /* a receive counted as posted, `bytes` from
                          * peer_world, not from its status (see
                          * wrappers.c's POSTED_RECV) */
    int peer_world;      /* persistent send, posted receive: the peer */
    uint64_t bytes;      /* bytes per start or completion */
    const void *buf;     /* persistent send or collective: send buffer */
    uint64_t *peers;     /* persistent collective: bytes to each member
                          * per start (heap, freed with the request) */
} cp_req_info;

/* Allocate the tables (at MPI_Init; 0 on success). */
int cp_tables_init(void);
void cp_req_add(MPI_Request req, const cp_req_info *info);
/* Read before a completion call, so that it takes the entries of the
 * requests it completes, not those of requests another thread started
 * with the same handles since (see requests.c). */
uint64_t cp_req_ticket(void);
/* Look up (and, unless persistent, forget) a request tracked before
 * `ticket`; 0 if unknown. */
int cp_req_take(MPI_Request req, uint64_t ticket, cp_req_info *info);
int cp_req_find(MPI_Request req, cp_req_info *info);
void cp_req_forget(MPI_Request req);
int cp_req_empty(void);
/* A message matched by MPI_Mprobe or MPI_Improbe: the record of its
 * communicator, kept until MPI_Mrecv or MPI_Imrecv receives it (an
 * MPI_Message does not say which communicator it came from). */
void cp_msg_add(MPI_Message msg, cp_comm *rec);
cp_comm *cp_msg_take(MPI_Message msg);
int cp_msg_empty(void);
void cp_tables_free(void);

/* Completion of `n` requests whose handles (as they were before the call)
 * are in `before`, with statuses `st` (indices `idx` when not NULL).  The
 * call's time is charged when recording; a receive's bytes are counted
 * when it was posted while recording (a persistent one when recording at
 * its completion).  t0 and ticket (cp_req_ticket) are read before the
 * call. */
void cp_completed(const MPI_Request *before, int n, const int *idx,
                  const MPI_Status *st, int64_t t0, uint64_t ticket);

/* ------------------------------------------------------------ lifetime */

void cp_start(void);  /* after PMPI_Init */
void cp_finish(void); /* before PMPI_Finalize: gather and write */
void cp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Take the facts about this process (host, cores, local rank, MPI
 * library) into cp (at MPI_Init; collective). */
void cp_take_facts(void);
/* The profile writer (collective; rank 0 writes). */
int cp_write_profile(void);

/* Partial profiles (partial.c): cp_partial_setup at MPI_Init prepares the
 * file names and installs the exit and signal hooks; cp_partial_write
 * writes this rank's partial file once, if anything was recorded, with
 * async-signal-safe calls only. */
void cp_partial_setup(void);
void cp_partial_write(void);
/* Before MPI_Finalize's profile: stop the checkpoint thread. */
void cp_partial_stop(void);
/* At MPI_Finalize: put back the signal dispositions we replaced, remove a
 * checkpoint (the profile is written). */
void cp_partial_teardown(void);
/* The writer's side (writer.c), async-signal-safe: has this rank recorded
 * anything, and write its partial profile through `tmp` to `path` (0 on
 * success, nothing left behind on failure). */
int cp_recorded_anything(void);
int cp_write_partial(const char *tmp, const char *path);
/* The same for a checkpoint (COMMPROF_CHECKPOINT), through its own buffer,
 * marked "checkpoint": true. */
int cp_write_checkpoint(const char *tmp, const char *path);
/* The hidden temporary name a profile `path` is written through. */
void cp_tmp_name(char *tmp, size_t size, const char *path);

#pragma GCC visibility pop

#endif
