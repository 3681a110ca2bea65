/* wrappers.c: the MPI functions listed in wrappers.def, generated from
 * that one table so that every wrapper has the same shape: the classic
 * calls, the MPI-4 calls this MPI declares (config.h's CP_HAVE_*), and
 * their large-count _c variants (a second expansion of the table). */
#include <stdlib.h>

#include "cp_internal.h"

/* The words the AFTER column of wrappers.def is written in.  None counts
 * a call that failed (under MPI_ERRORS_RETURN): nothing was sent. */
#define IF_OK(call)                                                          \
    do {                                                                     \
        if (rc == MPI_SUCCESS)                                               \
            call;                                                            \
    } while (0)
#define SEND(comm, dest, count, type, buf)                                   \
    IF_OK(cp_sent(comm, dest, count, type, buf))
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
    TRACK(.type = CP_P2P, .persistent = CP_PERSIST_SEND,                     \
          .peer_world = cp_peer_world(comm, dest),                           \
          .bytes = cp_bytes(count, dt), .buf = (b))
#define PRECV(comm)                                                          \
    TRACK(.type = CP_P2P, .persistent = CP_PERSIST_RECV,                     \
          .rec = cp_comm_get(comm))
/* A receive counted as posted, count x type from source (at each
 * completion; from the status under MPI_ANY_SOURCE, where the MPI sets it:
 * CP_POSTED_STATUS): a partitioned receive, whose buffer is whole at
 * completion, and MPI_Isendrecv's, whose status MPICH leaves unset (4.0.2:
 * source 0, tag 0, 0 bytes; 5.0: stale values), so that it counts alike
 * under every MPI.  From MPI_PROC_NULL: nothing, not even tracked. */
#define POSTED_RECV(comm, source, count, dt, persist)                        \
    do {                                                                     \
        if ((source) != MPI_PROC_NULL)                                       \
            TRACK(.type = CP_P2P, .persistent = (persist), .posted = 1,      \
                  .rec = cp_comm_get(comm),                                  \
                  .peer_world = cp_peer_world(comm, source),                 \
                  .bytes = cp_bytes(count, dt));                             \
    } while (0)
#define PRECV_PART(comm, source, count, dt)                                  \
    POSTED_RECV(comm, source, count, dt, CP_PERSIST_RECV)
#define ISENDRECV(comm, source, count, dt)                                    \
    POSTED_RECV(comm, source, count, dt, 0)
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
/* The collective words record into into_ (NULL: the communicator's
 * record; a persistent collective's own, PINIT) and keep their buffer in
 * buf_ for PCOLL. */
#define COLL(T, comm, bytes, buf)                                            \
    IF_OK(cp_coll_add(into_, comm, T, bytes, ticks, buf_ = (buf)))
#define PEERS(T, comm, counts, types, type, buf)                             \
    IF_OK(cp_coll_peers(into_, comm, T, CP_COUNTS(counts), types, type,      \
                        ticks, buf_ = (buf)))
#define RSCATTER(T, comm, counts, type, buf)                                 \
    IF_OK(cp_coll_reduce_scatter(into_, comm, T, CP_COUNTS(counts), type,    \
                                 ticks, buf_ = (buf)))
#define FROM_ROOT(T, comm, root, counts, count, type, one_block, buf)        \
    IF_OK(cp_coll_from_root(into_, comm, T, root, CP_COUNTS(counts), count,  \
                            type, one_block, ticks, buf_ = (buf)))
#define TO_ROOT(T, comm, root, count, type, buf)                             \
    IF_OK(cp_coll_to_root(into_, comm, T, root, count, type, ticks,          \
                          buf_ = (buf)))
#define NEIGHBORS(T, comm, counts, count, types, type, one_block, buf)       \
    IF_OK(cp_coll_neighbors(into_, comm, T, CP_COUNTS(counts), count, types, \
                            type, one_block, ticks, buf_ = (buf)))
#define ICOLL(T) TRACK(.type = T, .rec = cp_comm_get(comm))
/* A persistent collective: its init's time goes to the communicator's
 * record; its call, bytes and peers, recorded into pinit_, are counted
 * at each start (completion.c), and its peers freed with the request. */
#define PCOLL(T)                                                             \
    do {                                                                     \
        cp_comm *rec_ = cp_comm_get(comm);                                   \
        if (rc == MPI_SUCCESS && *request != MPI_REQUEST_NULL) {             \
            if (on_)                                                         \
                cp_coll_wait(rec_, T, ticks);                                \
            cp_req_add(*request,                                             \
                       &(cp_req_info){.type = T, .rec = rec_,                \
                                      .persistent = CP_PERSIST_COLL,         \
                                      .bytes = pinit_.bytes, .buf = buf_,    \
                                      .peers = pinit_.peers});               \
        } else {                                                             \
            free(pinit_.peers);                                              \
        }                                                                    \
    } while (0)
#define IRMA() TRACK(.type = CP_RMA)
#define RMA(win, target, count, type, buf)                                   \
    IF_OK(cp_rma(win, target, cp_bytes(count, type), buf))
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
#define PINIT()                                                              \
    cp_coll pinit_ = {.calls = 0};                                           \
    into_ = &pinit_

/* A wrapper that runs when recording or when `busy` (something begun
 * while recording waits to be finished: a matched message; or a
 * persistent init, whenever the profiler is ready); its time is charged
 * when recording. */
#define WRAP(NAME, ...) WRAP_AS(MPI_##NAME, PMPI_##NAME, __VA_ARGS__)
#define WRAP_AS(FUNC, PFUNC, TYPE, PARAMS, ARGS, BEFORE, AFTER, busy)        \
    int FUNC PARAMS                                                          \
    {                                                                        \
        int on_ = cp_on();                                                   \
        if (!on_ && !(busy))                                                 \
            return PFUNC ARGS;                                               \
        int64_t t0 = cp_now();                                               \
        cp_cuda_poll(t0);                                                    \
        cp_coll *into_ = NULL;                                               \
        const void *buf_ = NULL;                                             \
        BEFORE;                                                              \
        int rc = PFUNC ARGS;                                                 \
        int64_t ticks = cp_now() - t0;                                       \
        if (on_)                                                             \
            cp_charge(TYPE, ticks);                                          \
        AFTER;                                                               \
        (void)ticks;                                                         \
        (void)into_;                                                         \
        (void)buf_;                                                          \
        return rc;                                                           \
    }

/* A parameter or argument list with more at its end. */
#define CP_LIST(...) __VA_ARGS__
#define CP_APPEND(list, ...) (CP_LIST list, __VA_ARGS__)

/* A collective's three calls: blocking, nonblocking, persistent (run
 * whenever the profiler is ready, as WI; MPIX_NAME_init where Open MPI
 * 4.1's extension has them instead of MPI-4's). */
#if CP_HAVE_COLL_INIT
#define WRAP_INIT WRAP
#elif CP_HAVE_MPIX_COLL_INIT
#define WRAP_INIT(NAME, ...) WRAP_AS(MPIX_##NAME, PMPIX_##NAME, __VA_ARGS__)
#else
#define WRAP_INIT(...)
#endif
#define WRAP_PINIT(INIT, TYPE, PARAMS, ARGS, AFTER)                          \
    WRAP_INIT(INIT, TYPE, PARAMS, ARGS, PINIT(), AFTER; PCOLL(TYPE),         \
              cp_ready())
#define WRAP_COLL(NAME, INAME, INIT, TYPE, PARAMS, ARGS, AFTER)              \
    WRAP(NAME, TYPE, PARAMS, ARGS, , AFTER, 0)                               \
    WRAP(INAME, TYPE, CP_APPEND(PARAMS, MPI_Request *request),               \
         CP_APPEND(ARGS, request), , AFTER; ICOLL(TYPE), 0)                  \
    WRAP_PINIT(INIT, TYPE,                                                   \
               CP_APPEND(PARAMS, MPI_Info info, MPI_Request *request),       \
               CP_APPEND(ARGS, info, request), AFTER)

/* The classic calls (and the MPI-4 ones without a large count): int
 * counts and displacements. */
#define CP_COUNT int
#define CP_DISPL int
#define W(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                           \
    WRAP(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER, 0)
#define WC W
#define WMC(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                         \
    WRAP(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER, !cp_msg_empty())
#define WI(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                          \
    WRAP(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER, cp_ready())
#define WIC WI
#define WCOLL(NAME, INAME, TYPE, PARAMS, ARGS, AFTER)                        \
    WRAP_COLL(NAME, INAME, NAME##_init, TYPE, PARAMS, ARGS, AFTER)
#define WINIT WRAP_PINIT
#include "wrappers.def"

/* Their large-count variants, MPI_NAME_c: MPI_Count counts, MPI_Aint
 * displacements. */
#if CP_HAVE_LARGE_COUNT
#undef CP_COUNT
#undef CP_DISPL
#undef W
#undef WC
#undef WMC
#undef WI
#undef WIC
#undef WCOLL
#undef WINIT
#if !CP_HAVE_COLL_INIT
#undef WRAP_INIT
#define WRAP_INIT(...) /* no MPIX_NAME_init_c */
#endif
#define CP_COUNT MPI_Count
#define CP_DISPL MPI_Aint
#define W(...)
#define WC(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                          \
    WRAP(NAME##_c, TYPE, PARAMS, ARGS, BEFORE, AFTER, 0)
#define WMC(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                         \
    WRAP(NAME##_c, TYPE, PARAMS, ARGS, BEFORE, AFTER, !cp_msg_empty())
#define WI(...)
#define WIC(NAME, TYPE, PARAMS, ARGS, BEFORE, AFTER)                         \
    WRAP(NAME##_c, TYPE, PARAMS, ARGS, BEFORE, AFTER, cp_ready())
#define WCOLL(NAME, INAME, TYPE, PARAMS, ARGS, AFTER)                        \
    WRAP_COLL(NAME##_c, INAME##_c, NAME##_init_c, TYPE, PARAMS, ARGS, AFTER)
#define WINIT(...)
#include "wrappers.def"
#endif
