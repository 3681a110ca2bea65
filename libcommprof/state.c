/* state.c: libcommprof's state, its start and end, and the accounting
 * helpers the wrappers call. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

cp_state cp = {.lock = PTHREAD_MUTEX_INITIALIZER};

const char *const cp_type_names[CP_NTYPES] = {
#define CP_NAME(id, name) name,
    CP_TYPES(CP_NAME)
#undef CP_NAME
};

void cp_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "commprof (rank %d): ", cp.world_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* An environment switch: 0 for "0", "off", "no", "false"; else 1. */
static int env_flag(const char *name, int dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    return !(strcmp(v, "0") == 0 || strcmp(v, "off") == 0 ||
             strcmp(v, "no") == 0 || strcmp(v, "false") == 0);
}

void cp_start(void)
{
    if (cp.initialized)
        return;
    cp.enabled = env_flag("COMMPROF_ENABLE", 1);
    if (!cp.enabled)
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &cp.world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &cp.world_size);
    size_t n = (size_t)cp.world_size;
    uint64_t *block = calloc(6 * n, sizeof *block);
    if (!block) {
        cp_warn("out of memory at MPI_Init: profiling disabled");
        cp.enabled = 0;
        return;
    }
    cp.sent_bytes = block;
    cp.sent_msgs = block + n;
    cp.recv_bytes = block + 2 * n;
    cp.recv_msgs = block + 3 * n;
    cp.rma_bytes = block + 4 * n;
    cp.rma_ops = block + 5 * n;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                            &cp.comm_keyval, NULL);
    PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN,
                           &cp.win_keyval, NULL);
    cp.t_init = cp_now();
    cp.initialized = 1;
    cp.recording = env_flag("COMMPROF_START", 1);
}

void cp_finish(void)
{
    if (!cp.initialized || cp.finalized)
        return;
    cp.recording = 0;
    cp.t_finalize = cp_now();
    cp_write_profile();
    cp.finalized = 1;
    cp_req_free_all();
    cp_comms_free();
    free(cp.sent_bytes);
    cp.sent_bytes = NULL;
}

/* MPI_Pcontrol(0) stops recording, (1) starts it, (2) clears what was
 * recorded so far; other levels are ignored, as the standard allows. */
static void clear_counters(void)
{
    size_t n = (size_t)cp.world_size;
    memset(cp.type_ns, 0, sizeof cp.type_ns);
    memset(cp.type_calls, 0, sizeof cp.type_calls);
    memset(cp.sent_bytes, 0, 6 * n * sizeof *cp.sent_bytes);
    pthread_mutex_lock(&cp.lock);
    for (cp_comm *c = cp.comms; c; c = c->next)
        for (int t = 0; t < CP_NTYPES; t++) {
            uint64_t *peers = c->coll[t].peers;
            if (peers)
                memset(peers, 0, (size_t)c->size * sizeof *peers);
            c->coll[t] = (cp_coll){.peers = peers};
        }
    pthread_mutex_unlock(&cp.lock);
}

int MPI_Pcontrol(const int level, ...)
{
    if (!cp.initialized || cp.finalized)
        return MPI_SUCCESS;
    if (level == 0)
        __atomic_store_n(&cp.recording, 0, __ATOMIC_RELAXED);
    else if (level == 1)
        __atomic_store_n(&cp.recording, 1, __ATOMIC_RELAXED);
    else if (level == 2)
        clear_counters();
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ accounting */

uint64_t cp_bytes(int count, MPI_Datatype dt)
{
    if (count <= 0 || dt == MPI_DATATYPE_NULL)
        return 0;
    MPI_Count size = 0;
    if (PMPI_Type_size_x(dt, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* Members of the group that comm's peers are in. */
static int peer_count(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return cp.world_size;
    cp_comm *c = cp_comm_get(comm);
    return c ? cp_comm_peers(c) : 0;
}

uint64_t cp_nbytes(MPI_Comm comm, int count, MPI_Datatype dt)
{
    return (uint64_t)peer_count(comm) * cp_bytes(count, dt);
}

uint64_t cp_vbytes(MPI_Comm comm, const int *counts,
                   const MPI_Datatype *types, MPI_Datatype type)
{
    uint64_t sum = 0;
    int n = peer_count(comm);
    for (int i = 0; i < n; i++)
        sum += cp_bytes(counts[i], types ? types[i] : type);
    return sum;
}

int cp_comm_rank(MPI_Comm comm)
{
    int r = -1;
    PMPI_Comm_rank(comm, &r);
    return r;
}

static int comm_is_inter(MPI_Comm comm)
{
    cp_comm *c = cp_comm_get(comm);
    return c && c->remote_size;
}

int cp_is_root(MPI_Comm comm, int root)
{
    if (root == MPI_ROOT)
        return 1;
    return !comm_is_inter(comm) && root >= 0 && cp_comm_rank(comm) == root;
}

void cp_rma(MPI_Win win, int target, uint64_t bytes)
{
    int world = cp_win_peer_world(win, target);
    if (world < 0 || world >= cp.world_size)
        return;
    cp_add(&cp.rma_bytes[world], bytes);
    cp_add(&cp.rma_ops[world], 1);
}

void cp_sent_world(int world, uint64_t bytes)
{
    if (world < 0 || world >= cp.world_size)
        return;
    cp_add(&cp.sent_bytes[world], bytes);
    cp_add(&cp.sent_msgs[world], 1);
}

void cp_sent(MPI_Comm comm, int dest, int count, MPI_Datatype dt)
{
    cp_sent_world(cp_peer_world(comm, dest), cp_bytes(count, dt));
}

/* Count a receive from world rank `world` as its status tells. */
static void received_from(int world, const MPI_Status *st)
{
    if (world < 0 || world >= cp.world_size)
        return;
    MPI_Count bytes = 0;
    PMPI_Get_elements_x(st, MPI_BYTE, &bytes);
    cp_add(&cp.recv_bytes[world], bytes > 0 ? (uint64_t)bytes : 0);
    cp_add(&cp.recv_msgs[world], 1);
}

void cp_received(MPI_Comm comm, const MPI_Status *st)
{
    if (st->MPI_SOURCE >= 0)
        received_from(cp_peer_world(comm, st->MPI_SOURCE), st);
}

void cp_received_rec(const cp_comm *rec, const MPI_Status *st)
{
    int world = cp_comm_world(rec, st->MPI_SOURCE);
    if (world >= 0)
        received_from(world, st);
}

/* The record of type t on comm, with room for per-peer bytes when asked
 * (*npeers: their number); NULL when it cannot be had. */
static cp_coll *coll_of(MPI_Comm comm, cp_type t, int want_peers, int *npeers)
{
    cp_comm *c = cp_comm_get(comm);
    if (!c)
        return NULL;
    cp_coll *k = &c->coll[t];
    *npeers = cp_comm_peers(c);
    if (want_peers && !__atomic_load_n(&k->peers, __ATOMIC_ACQUIRE)) {
        uint64_t *p = calloc((size_t)*npeers, sizeof *p);
        uint64_t *expected = NULL;
        if (p && !__atomic_compare_exchange_n(&k->peers, &expected, p, 0,
                                              __ATOMIC_ACQ_REL,
                                              __ATOMIC_ACQUIRE))
            free(p); /* another thread was first */
    }
    return want_peers && !k->peers ? NULL : k;
}

static void add_call(cp_coll *k, uint64_t bytes, int64_t ns)
{
    cp_add(&k->calls, 1);
    cp_add(&k->bytes, bytes);
    cp_add(&k->ns, (uint64_t)(ns > 0 ? ns : 0));
}

void cp_coll_add(MPI_Comm comm, cp_type t, uint64_t bytes, int64_t ns)
{
    int n;
    cp_coll *k = coll_of(comm, t, 0, &n);
    if (k)
        add_call(k, bytes, ns);
}

void cp_coll_wait(cp_comm *rec, cp_type t, int64_t ns)
{
    cp_add(&rec->coll[t].ns, (uint64_t)(ns > 0 ? ns : 0));
}

void cp_coll_peers(MPI_Comm comm, cp_type t, const int *counts,
                   const MPI_Datatype *types, MPI_Datatype type, int64_t ns)
{
    int n;
    cp_coll *k = coll_of(comm, t, 1, &n);
    if (!k)
        return;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        uint64_t b = cp_bytes(counts[i], types ? types[i] : type);
        cp_add(&k->peers[i], b);
        sum += b;
    }
    add_call(k, sum, ns);
}

void cp_coll_from_root(MPI_Comm comm, cp_type t, const int *counts, int count,
                       MPI_Datatype type)
{
    int n;
    cp_coll *k = coll_of(comm, t, 1, &n);
    if (!k)
        return;
    /* An intercommunicator's root sends to every remote member. */
    int me = comm_is_inter(comm) ? -1 : cp_comm_rank(comm);
    for (int i = 0; i < n; i++)
        if (i != me)
            cp_add(&k->peers[i], cp_bytes(counts ? counts[i] : count, type));
}

void cp_coll_root(MPI_Comm comm, cp_type t, int root, uint64_t bytes)
{
    int n;
    cp_coll *k = coll_of(comm, t, 1, &n);
    if (k && root >= 0 && root < n)
        cp_add(&k->peers[root], bytes);
}
