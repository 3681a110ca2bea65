/*
 * cp_internal.h: the state and helpers behind libcommprof's MPI wrappers.
 *
 * libcommprof lives inside someone else's process, so it keeps one global
 * state (the only global mutable state in topomap), never aborts, never
 * prints unless something went wrong, and costs as little as it can on the
 * path of a point-to-point call: counters are dense per-world-rank arrays
 * allocated at MPI_Init and updated with relaxed atomic adds, so that path
 * never allocates and never takes a lock.
 */
#ifndef TOPOMAP_CP_INTERNAL_H
#define TOPOMAP_CP_INTERNAL_H

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

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
    X(RMA, "rma")

typedef enum cp_type {
#define CP_ENUM(id, name) CP_##id,
    CP_TYPES(CP_ENUM)
#undef CP_ENUM
        CP_NTYPES
} cp_type;

extern const char *const cp_type_names[CP_NTYPES];

/* ------------------------------------------------------------ the clock */

static inline int64_t cp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* -------------------------------------------------------- communicators */

/* What one rank recorded for one collective type on one communicator. */
typedef struct cp_coll {
    uint64_t calls;
    uint64_t bytes;  /* bytes in this rank's send buffers */
    uint64_t ns;     /* time in the calls (and their waits) */
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
    cp_coll coll[CP_NTYPES];
    struct cp_comm *next;
} cp_comm;

/* The record of `comm`, created and cached on first use; NULL for
 * MPI_COMM_NULL or when memory is short. */
cp_comm *cp_comm_get(MPI_Comm comm);

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

/* World rank of comm rank `r` in the group that point-to-point calls on
 * `comm` address (the remote group of an intercommunicator); -1 for
 * MPI_PROC_NULL, MPI_ANY_SOURCE or out of range. */
int cp_peer_world(MPI_Comm comm, int r);

/* World rank of `r` in the window's group; -1 if none. */
int cp_win_peer_world(MPI_Win win, int r);

/* Free every communicator record (at the end). */
void cp_comms_free(void);

/* ------------------------------------------------------------ the state */

typedef struct cp_state {
    int initialized; /* MPI_Init seen and the arrays allocated */
    int finalized;
    int enabled;     /* COMMPROF_ENABLE != 0 */
    int recording;   /* MPI_Pcontrol / COMMPROF_START */
    int world_rank, world_size;
    int64_t t_init, t_finalize;

    /* Per type: time and calls of this rank. */
    uint64_t type_ns[CP_NTYPES];
    uint64_t type_calls[CP_NTYPES];

    /* Dense per-world-rank counters of this rank. */
    uint64_t *sent_bytes, *sent_msgs;
    uint64_t *recv_bytes, *recv_msgs;
    uint64_t *rma_bytes, *rma_ops;

    pthread_mutex_t lock; /* communicator records, request table growth */
    cp_comm *comms;
    int comm_keyval, win_keyval;
} cp_state;

extern cp_state cp;

static inline int cp_on(void)
{
    return __atomic_load_n(&cp.recording, __ATOMIC_RELAXED);
}

static inline void cp_add(uint64_t *c, uint64_t v)
{
    __atomic_fetch_add(c, v, __ATOMIC_RELAXED);
}

/* Charge one call of `ns` nanoseconds to type t. */
static inline void cp_charge(cp_type t, int64_t ns)
{
    cp_add(&cp.type_ns[t], (uint64_t)(ns > 0 ? ns : 0));
    cp_add(&cp.type_calls[t], 1);
}

/* Bytes of `count` elements of `dt` (0 for MPI_DATATYPE_NULL or errors). */
uint64_t cp_bytes(int count, MPI_Datatype dt);
/* The same for every member of comm's peer group (the remote group of an
 * intercommunicator), and for per-member counts (types per member when
 * `types` is given). */
uint64_t cp_nbytes(MPI_Comm comm, int count, MPI_Datatype dt);
uint64_t cp_vbytes(MPI_Comm comm, const int *counts,
                   const MPI_Datatype *types, MPI_Datatype type);
int cp_comm_rank(MPI_Comm comm);
/* Is this process the root of a rooted collective (MPI_ROOT included)? */
int cp_is_root(MPI_Comm comm, int root);

/* Point-to-point accounting. */
void cp_sent(MPI_Comm comm, int dest, int count, MPI_Datatype dt);
void cp_received(MPI_Comm comm, const MPI_Status *st);
void cp_received_rec(const cp_comm *rec, const MPI_Status *st);
/* The same, with the peer as a world rank. */
void cp_sent_world(int world, uint64_t bytes);

/* Collective accounting: `bytes` of this rank's send buffer, and when
 * `peer_bytes` is given, what it sends to each comm rank. */
void cp_coll_add(MPI_Comm comm, cp_type t, uint64_t bytes, int64_t ns);
/* Time spent completing a nonblocking collective of type t on rec. */
void cp_coll_wait(cp_comm *rec, cp_type t, int64_t ns);
/* A v/w collective: one call of `ns`, bytes to each member from counts
 * (types per member when `types` is given), and their sum as its bytes. */
void cp_coll_peers(MPI_Comm comm, cp_type t, const int *counts,
                   const MPI_Datatype *types, MPI_Datatype type, int64_t ns);
void cp_coll_root(MPI_Comm comm, cp_type t, int root, uint64_t bytes);
/* At the root: bytes to every other member (counts per member, or count
 * for each). */
void cp_coll_from_root(MPI_Comm comm, cp_type t, const int *counts, int count,
                       MPI_Datatype type);

/* One-sided: bytes to `target` of the window. */
void cp_rma(MPI_Win win, int target, uint64_t bytes);

/* ------------------------------------------------------------ requests */

/* What a request stands for, so that its completion is charged to the
 * right type and a receive's bytes are counted from its status. */
typedef struct cp_req_info {
    cp_type type;
    cp_comm *rec;        /* receives and collectives: the communicator's
                          * record (not its handle, which may be freed
                          * before the request completes) */
    int persistent;      /* 1 send, 2 receive; 0 not persistent */
    int peer_world;      /* persistent send: destination */
    uint64_t bytes;      /* persistent send: bytes per start */
} cp_req_info;

void cp_req_add(MPI_Request req, const cp_req_info *info);
/* Look up (and, unless persistent, forget) a request; 0 if unknown. */
int cp_req_take(MPI_Request req, cp_req_info *info);
int cp_req_find(MPI_Request req, cp_req_info *info);
void cp_req_forget(MPI_Request req);
int cp_req_empty(void);
void cp_req_free_all(void);

/* Completion of `n` requests whose handles (as they were before the call)
 * are in `before`, with statuses `st` (indices `idx` when not NULL). */
void cp_completed(const MPI_Request *before, int n, const int *idx,
                  const MPI_Status *st, int64_t t0);

/* ------------------------------------------------------------ lifetime */

void cp_start(void);  /* after PMPI_Init */
void cp_finish(void); /* before PMPI_Finalize: gather and write */
void cp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The profile writer (rank 0). */
int cp_write_profile(void);

#endif
