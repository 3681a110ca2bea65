/* wrappers.c: the MPI functions listed in wrappers.def, generated from
 * that one table so that every wrapper has the same shape. */
#include "cp_internal.h"

/* The words the AFTER column of wrappers.def is written in. */
#define SEND(comm, dest, count, type) cp_sent(comm, dest, count, type)
#define RECV(comm, st)                                                       \
    do {                                                                     \
        if (rc == MPI_SUCCESS)                                               \
            cp_received(comm, st);                                           \
    } while (0)
#define TRACK(...)                                                           \
    do {                                                                     \
        cp_req_info info_ = {__VA_ARGS__};                                   \
        if (rc == MPI_SUCCESS)                                               \
            cp_req_add(*request, &info_);                                    \
    } while (0)
#define IRECV(comm) TRACK(.type = CP_P2P, .rec = cp_comm_get(comm))
#define PSEND(comm, dest, count, dt)                                         \
    TRACK(.type = CP_P2P, .persistent = 1,                                   \
          .peer_world = cp_peer_world(comm, dest),                           \
          .bytes = cp_bytes(count, dt))
#define PRECV(comm)                                                          \
    TRACK(.type = CP_P2P, .persistent = 2, .rec = cp_comm_get(comm))
#define COLL(T, comm, bytes) cp_coll_add(comm, T, bytes, ns)
#define PEERS(T, comm, counts, types, type)                                  \
    cp_coll_peers(comm, T, counts, types, type, ns)
#define IS_ROOT(comm, root) cp_is_root(comm, root)
#define FROM_ROOT(T, comm, root, counts, count, type)                        \
    do {                                                                     \
        if (IS_ROOT(comm, root))                                             \
            cp_coll_from_root(comm, T, counts, count, type);                 \
    } while (0)
#define TO_ROOT(T, comm, root, bytes)                                        \
    do {                                                                     \
        if (!IS_ROOT(comm, root))                                            \
            cp_coll_root(comm, T, root, bytes);                              \
    } while (0)
#define ICOLL(T) TRACK(.type = T, .rec = cp_comm_get(comm))
#define IRMA() TRACK(.type = CP_RMA)
#define RMA(win, target, count, type) cp_rma(win, target, cp_bytes(count, type))
#define INPLACE(sendbuf, send_side, recv_side)                               \
    ((sendbuf) == MPI_IN_PLACE ? (recv_side) : (send_side))
/* BEFORE: give PMPI a status to fill when the caller ignores it, since
 * the received bytes and source come from it. */
#define STATUS(st)                                                           \
    MPI_Status local_status_;                                                \
    if ((st) == MPI_STATUS_IGNORE)                                           \
    (st) = &local_status_

#define W(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                           \
    int MPI_##NAME PARAMS                                                    \
    {                                                                        \
        if (!cp_on())                                                        \
            return PMPI_##NAME ARGS;                                         \
        int64_t t0 = cp_now();                                               \
        BEFORE;                                                              \
        int rc = PMPI_##NAME ARGS;                                           \
        int64_t ns = cp_now() - t0;                                          \
        cp_charge(TYPE, ns);                                                 \
        AFTER;                                                               \
        (void)ns;                                                            \
        return rc;                                                           \
    }

#include "wrappers.def"
