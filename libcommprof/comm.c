/* comm.c: communicator and window records.
 *
 * A communicator's members are translated to world ranks once, when the
 * profiler first meets it, and the record is cached on the communicator
 * as an MPI attribute, with its neighbours once a neighbourhood collective
 * needs them: MPI drops the attribute when the communicator is freed, so a
 * reused handle never finds a stale translation, and no call ever
 * translates a group or walks a topology again.  Communicators with the
 * same members share one record. */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

/* World ranks of the members of `group`, malloc'd. */
static int *translate(MPI_Group group, int *size)
{
    MPI_Group world;
    PMPI_Group_size(group, size);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int *ranks = malloc((size_t)(*size ? *size : 1) * sizeof *ranks);
    int *out = malloc((size_t)(*size ? *size : 1) * sizeof *out);
    if (ranks && out) {
        for (int i = 0; i < *size; i++)
            ranks[i] = i;
        PMPI_Group_translate_ranks(group, *size, ranks, world, out);
        for (int i = 0; i < *size; i++) /* another job's process */
            if (out[i] == MPI_UNDEFINED || out[i] < 0)
                out[i] = -1;
    } else {
        free(out);
        out = NULL;
    }
    free(ranks);
    PMPI_Group_free(&world);
    return out;
}

static int same(const int *a, int na, const int *b, int nb)
{
    return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

/* Find or add the record with these members (takes ownership of the
 * arrays).  Caller holds cp.lock. */
static cp_comm *intern(int *members, int size, int *remote, int remote_size)
{
    for (cp_comm *c = cp.comms; c; c = c->next)
        if (same(c->members, c->size, members, size) &&
            same(c->remote, c->remote_size, remote, remote_size)) {
            free(members);
            free(remote);
            return c;
        }
    cp_comm *c = calloc(1, sizeof *c);
    if (!c) {
        free(members);
        free(remote);
        return NULL;
    }
    c->size = size;
    c->members = members;
    c->remote_size = remote_size;
    c->remote = remote;
    c->phase[0] = c->coll;
    for (int i = 0; i < size + remote_size; i++)
        c->outside |= (i < size ? members[i] : remote[i - size]) < 0;
    c->is_world = size == cp.world_size && !remote_size;
    for (int i = 0; c->is_world && i < size; i++)
        c->is_world = members[i] == i;
    c->next = cp.comms;
    /* Published whole: a partial profile written from a signal handler
     * walks this list without the lock. */
    __atomic_store_n(&cp.comms, c, __ATOMIC_RELEASE);
    return c;
}

/* What a communicator handle caches: its record, and once a
 * neighbourhood collective has asked, its out-neighbours. */
typedef struct cached {
    cp_comm *rec;
    int topo_known; /* set with a release store once nout/out are final */
    int nout;       /* -1: no topology */
    int *out;
} cached;

/* PMPI_Comm_get_attr costs about 20 ns (a hash lookup in Open MPI's
 * attribute table), so below MPI_THREAD_MULTIPLE, where MPI calls never
 * overlap, a small direct-mapped table of recent handles and their
 * entries comes first.  Under MULTIPLE it is not used: a thread could read
 * a handle and an entry that another thread wrote at the same time. */
#define RECENT_BITS 4
static struct recent {
    MPI_Comm comm;
    cached *h;
} recent[1 << RECENT_BITS];

static struct recent *recent_of(MPI_Comm comm)
{
    uint64_t k = 0;
    memcpy(&k, &comm, sizeof comm < sizeof k ? sizeof comm : sizeof k);
    return &recent[(k * 0x9e3779b97f4a7c15ULL) >> (64 - RECENT_BITS)];
}

/* MPI drops the attribute when the communicator is freed: forget the
 * handle's cache (the record stays). */
static int forget(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    cached *h = value;
    struct recent *r = recent_of(comm);
    if (r->h == h)
        *r = (struct recent){MPI_COMM_NULL, NULL};
    free(h->out);
    free(h);
    return MPI_SUCCESS;
}

int cp_comm_keyval_create(void)
{
    return PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, forget,
                                   &cp.comm_keyval, NULL);
}

/* A new cache entry for comm: its members translated and interned. */
static cached *cache_new(MPI_Comm comm)
{
    MPI_Group g;
    int size, remote_size = 0, inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_group(comm, &g);
    int *members = translate(g, &size);
    PMPI_Group_free(&g);
    int *remote = NULL;
    if (inter) {
        PMPI_Comm_remote_group(comm, &g);
        remote = translate(g, &remote_size);
        PMPI_Group_free(&g);
    }
    cached *h = calloc(1, sizeof *h);
    if (!h || !members || (inter && !remote)) {
        free(h);
        free(members);
        free(remote);
        return NULL;
    }
    h->rec = intern(members, size, remote, remote_size);
    if (!h->rec) {
        free(h);
        return NULL;
    }
    return h;
}

/* The cache entry of comm, made on first use.  Checked again under the
 * lock, so two threads meeting a new communicator cache one entry. */
static cached *cache_get(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || !cp.initialized)
        return NULL;
    struct recent *r = cp.threaded ? NULL : recent_of(comm);
    if (r && r->comm == comm)
        return r->h;
    cached *h;
    int flag = 0;
    PMPI_Comm_get_attr(comm, cp.comm_keyval, &h, &flag);
    if (flag) {
        if (r)
            *r = (struct recent){comm, h};
        return h;
    }
    pthread_mutex_lock(&cp.lock);
    PMPI_Comm_get_attr(comm, cp.comm_keyval, &h, &flag);
    if (!flag) {
        h = cache_new(comm);
        if (h)
            PMPI_Comm_set_attr(comm, cp.comm_keyval, h);
    }
    pthread_mutex_unlock(&cp.lock);
    if (r && h)
        *r = (struct recent){comm, h};
    return h;
}

cp_comm *cp_comm_get(MPI_Comm comm)
{
    cached *h = cache_get(comm);
    return h ? h->rec : NULL;
}

/* Out-neighbours in send-block order (MPI 3.1, 7.6): per dimension of a
 * Cartesian topology the source, then the destination of a shift by +1;
 * a graph's neighbours; a dist-graph's destinations.  Caller holds
 * cp.lock. */
static void neighbors(MPI_Comm comm, cached *h)
{
    int kind = MPI_UNDEFINED, n = -1, *out = NULL;
    PMPI_Topo_test(comm, &kind);
    if (kind == MPI_CART) {
        int ndims = 0;
        PMPI_Cartdim_get(comm, &ndims);
        n = 2 * ndims;
        out = malloc((size_t)(n ? n : 1) * sizeof *out);
        for (int d = 0; out && d < ndims; d++)
            PMPI_Cart_shift(comm, d, 1, &out[2 * d], &out[2 * d + 1]);
    } else if (kind == MPI_GRAPH) {
        int me = cp_comm_rank(comm);
        n = 0;
        PMPI_Graph_neighbors_count(comm, me, &n);
        out = malloc((size_t)(n ? n : 1) * sizeof *out);
        if (out)
            PMPI_Graph_neighbors(comm, me, n, out);
    } else if (kind == MPI_DIST_GRAPH) {
        int indeg = 0, weighted = 0;
        n = 0;
        PMPI_Dist_graph_neighbors_count(comm, &indeg, &n, &weighted);
        /* Room for sources, destinations and both weights. */
        size_t room = 2 * (size_t)indeg + 2 * (size_t)n;
        int *all = malloc((room ? room : 1) * sizeof *all);
        out = malloc((size_t)(n ? n : 1) * sizeof *out);
        if (all && out) {
            int *in = all, *inw = all + indeg, *outw = all + 2 * indeg + n;
            PMPI_Dist_graph_neighbors(comm, indeg, in, inw, n, all + 2 * indeg,
                                      outw);
            memcpy(out, all + 2 * indeg, (size_t)n * sizeof *out);
        } else {
            free(out);
            out = NULL;
        }
        free(all);
    }
    if (n >= 0 && !out)
        n = -1;
    for (int j = 0; j < n; j++)
        if (out[j] == MPI_PROC_NULL)
            out[j] = -1;
    h->nout = n;
    h->out = out;
    __atomic_store_n(&h->topo_known, 1, __ATOMIC_RELEASE);
}

int cp_comm_neighbors(MPI_Comm comm, cp_comm **rec, const int **out)
{
    cached *h = cache_get(comm);
    if (!h)
        return -1;
    if (!__atomic_load_n(&h->topo_known, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&cp.lock);
        if (!h->topo_known)
            neighbors(comm, h);
        pthread_mutex_unlock(&cp.lock);
    }
    *rec = h->rec;
    *out = h->out;
    return h->nout;
}

int cp_peer_world_other(MPI_Comm comm, int r)
{
    cp_comm *c = cp_comm_get(comm);
    return c ? cp_comm_world(c, r) : -1;
}

int cp_win_peer_world(MPI_Win win, int r)
{
    if (r < 0 || win == MPI_WIN_NULL)
        return -1;
    cp_comm *c;
    int flag = 0;
    PMPI_Win_get_attr(win, cp.win_keyval, &c, &flag);
    if (!flag) {
        MPI_Group g;
        int size;
        PMPI_Win_get_group(win, &g);
        int *members = translate(g, &size);
        PMPI_Group_free(&g);
        if (!members)
            return -1;
        pthread_mutex_lock(&cp.lock);
        c = intern(members, size, NULL, 0);
        pthread_mutex_unlock(&cp.lock);
        if (!c)
            return -1;
        PMPI_Win_set_attr(win, cp.win_keyval, c);
    }
    return r < c->size ? c->members[r] : -1;
}

/* ------------------------------------------------------------ Cartesian */

/* Record the Cartesian communicator comm, unless this rank has it. */
static void cart_note(MPI_Comm comm)
{
    if (!cp.initialized || cp.finalized || comm == MPI_COMM_NULL)
        return;
    int ndims = 0, coords[CP_CART_MAX_DIMS];
    if (PMPI_Cartdim_get(comm, &ndims) != MPI_SUCCESS || ndims < 0 ||
        ndims > CP_CART_MAX_DIMS)
        return;
    cp_cart *c = calloc(1, sizeof *c);
    MPI_Group g;
    PMPI_Comm_group(comm, &g);
    if (c)
        c->members = translate(g, &c->size);
    PMPI_Group_free(&g);
    if (!c || !c->members ||
        PMPI_Cart_get(comm, ndims, c->dims, c->periods, coords) !=
            MPI_SUCCESS) {
        if (c)
            free(c->members);
        free(c);
        return;
    }
    c->ndims = ndims;
    for (int d = 0; d < ndims; d++)
        c->periods[d] = c->periods[d] != 0;
    pthread_mutex_lock(&cp.lock);
    cp_cart **at = &cp.carts;
    for (; *at; at = &(*at)->next)
        if ((*at)->ndims == ndims && (*at)->size == c->size &&
            !memcmp((*at)->dims, c->dims, sizeof c->dims) &&
            !memcmp((*at)->periods, c->periods, sizeof c->periods) &&
            !memcmp((*at)->members, c->members,
                    (size_t)c->size * sizeof *c->members))
            break;
    if (*at) {
        free(c->members);
        free(c);
    } else {
        __atomic_store_n(at, c, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&cp.lock);
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *comm_cart)
{
    int rc = PMPI_Cart_create(comm_old, ndims, dims, periods, reorder,
                              comm_cart);
    if (rc == MPI_SUCCESS)
        cart_note(*comm_cart);
    return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
    if (rc == MPI_SUCCESS)
        cart_note(*newcomm);
    return rc;
}

void cp_comms_free(void)
{
    pthread_mutex_lock(&cp.lock);
    while (cp.comms) {
        cp_comm *c = cp.comms;
        cp.comms = c->next;
        for (int i = 0; i < CP_MAX_PHASES; i++) {
            for (int t = 0; c->phase[i] && t < CP_NTYPES; t++)
                free(c->phase[i][t].peers);
            if (i)
                free(c->phase[i]);
        }
        free(c->members);
        free(c->remote);
        free(c);
    }
    while (cp.carts) {
        cp_cart *c = cp.carts;
        cp.carts = c->next;
        free(c->members);
        free(c);
    }
    pthread_mutex_unlock(&cp.lock);
}
