/* wrappers.c: the MPI functions listed in wrappers.def, generated from
 * that one table so that every wrapper has the same shape. */
#include "cp_internal.h"

/* The words the AFTER column of wrappers.def is written in. */
#define SEND(comm, dest, count, type, buf)                                   \
    cp_sent(comm, dest, count, type, buf)
#define RECV(comm, st)                                                       \
    do {                                                                     \
        if (rc == MPI_SUCCESS)                                               \
            cp_received(comm, st);                                           \
    } while (0)
/* (No comma outside parentheses in a word: W passes AFTER on to WRAP.) */
#define TRACK(...)                                                           \
    do {                                                                     \
        if (rc == MPI_SUCCESS)                                               \
            cp_req_add(*request, &(cp_req_info){__VA_ARGS__});               \
    } while (0)
#define IRECV(comm) TRACK(.type = CP_P2P, .rec = cp_comm_get(comm))
#define PSEND(comm, dest, count, dt, b)                                      \
    TRACK(.type = CP_P2P, .persistent = 1,                                   \
          .peer_world = cp_peer_world(comm, dest),                           \
          .bytes = cp_bytes(count, dt), .buf = (b))
#define PRECV(comm)                                                          \
    TRACK(.type = CP_P2P, .persistent = 2, .rec = cp_comm_get(comm))
#define MPROBE(comm, found)                                                  \
    do {                                                                     \
        if (rc == MPI_SUCCESS && (found))                                    \
            cp_msg_add(*message, cp_comm_get(comm));                         \
    } while (0)
#define MRECV(st)                                                            \
    do {                                                                     \
        if (rc == MPI_SUCCESS && msg_rec_)                                   \
            cp_received_rec(msg_rec_, st);                                   \
    } while (0)
#define IMRECV() TRACK(.type = CP_P2P, .rec = msg_rec_)
#define COLL(T, comm, bytes, buf) cp_coll_add(comm, T, bytes, ticks, buf)
#define PEERS(T, comm, counts, types, type, buf)                             \
    cp_coll_peers(comm, T, counts, types, type, ticks, buf)
#define FROM_ROOT(T, comm, root, counts, count, type, one_block, buf)        \
    cp_coll_from_root(comm, T, root, counts, count, type, one_block, ticks,  \
                      buf)
#define TO_ROOT(T, comm, root, count, type, buf)                             \
    cp_coll_to_root(comm, T, root, count, type, ticks, buf)
#define NEIGHBORS(T, comm, counts, count, types, type, one_block, buf)       \
    cp_coll_neighbors(comm, T, counts, count, types, type, one_block, ticks, \
                      buf)
#define ICOLL(T) TRACK(.type = T, .rec = cp_comm_get(comm))
#define IRMA() TRACK(.type = CP_RMA)
#define RMA(win, target, count, type, buf)                                   \
    cp_rma(win, target, cp_bytes(count, type), buf)
#define INPLACE(sendbuf, send_side, recv_side)                               \
    ((sendbuf) == MPI_IN_PLACE ? (recv_side) : (send_side))

/* The words of the BEFORE column.  STATUS gives PMPI a status to fill
 * when the caller ignores it, since the received bytes and source come
 * from it; MESSAGE takes the record of a matched message's communicator
 * before MPI_Mrecv or MPI_Imrecv turns the handle into MPI_MESSAGE_NULL. */
#define STATUS(st)                                                           \
    MPI_Status local_status_;                                                \
    if ((st) == MPI_STATUS_IGNORE)                                           \
    (st) = &local_status_
#define MESSAGE(msg) cp_comm *msg_rec_ = cp_msg_take(*(msg))

/* A wrapper that runs when recording or when `busy` (something begun
 * while recording waits to be finished: a matched message); its time is
 * charged when recording. */
#define WRAP(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER, busy)                  \
    int MPI_##NAME PARAMS                                                    \
    {                                                                        \
        int on_ = cp_on();                                                   \
        if (!on_ && !(busy))                                                 \
            return PMPI_##NAME ARGS;                                         \
        int64_t t0 = cp_now();                                               \
        cp_cuda_poll(t0);                                                    \
        BEFORE;                                                              \
        int rc = PMPI_##NAME ARGS;                                           \
        int64_t ticks = cp_now() - t0;                                       \
        if (on_)                                                             \
            cp_charge(TYPE, ticks);                                          \
        AFTER;                                                               \
        (void)ticks;                                                         \
        return rc;                                                           \
    }
#define W(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                           \
    WRAP(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER, 0)
#define WM(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                          \
    WRAP(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER, !cp_msg_empty())

#include "wrappers.def"
