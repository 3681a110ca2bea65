/* fortran_conv.c: the conversions libcommprof's Fortran wrappers share
 * (see fortran.h): statuses, handle arrays, topology degrees, and memory
 * that must outlive a nonblocking call. */
#include <pthread.h>
#include <stdlib.h>

#include "fortran.h"

MPI_Status *fc_status_in(const MPI_Fint *f, MPI_Status *c)
{
    if (fc_is_status_ignore(f))
        return MPI_STATUS_IGNORE;
    PMPI_Status_f2c(f, c);
    return c;
}

void fc_status_out(const MPI_Status *c, MPI_Fint *f)
{
    if (c != MPI_STATUS_IGNORE)
        PMPI_Status_c2f(c, f);
}

/* Room for n entries of `size` bytes: the stack buffer when they fit,
 * else the heap. */
static void *room(int n, size_t size, void *stack, void **heap, int *ierr)
{
    if (*ierr != MPI_SUCCESS)
        return NULL;
    if (stack && n <= FC_STACK)
        return stack;
    *heap = malloc((size_t)n * size);
    if (!*heap) {
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        *ierr = MPI_ERR_NO_MEM;
    }
    return *heap;
}

MPI_Datatype *fc_types(const MPI_Fint *f, int n, MPI_Datatype *stack,
                       void **heap, int *ierr)
{
    if (n <= 0)
        return NULL;
    MPI_Datatype *c = room(n, sizeof *c, stack, heap, ierr);
    for (int i = 0; c && i < n; i++)
        c[i] = PMPI_Type_f2c(f[i]);
    return c;
}

MPI_Request *fc_requests(const MPI_Fint *f, int n, MPI_Request *stack,
                         void **heap, int *ierr)
{
    MPI_Request *c = room(n > 0 ? n : 1, sizeof *c, stack, heap, ierr);
    for (int i = 0; c && i < n; i++)
        c[i] = PMPI_Request_f2c(f[i]);
    return c;
}

MPI_Status *fc_statuses(const MPI_Fint *f, int n, MPI_Status *stack,
                        void **heap, int *ierr)
{
    if (fc_is_statuses_ignore(f))
        return MPI_STATUSES_IGNORE;
    return room(n > 0 ? n : 1, sizeof(MPI_Status), stack, heap, ierr);
}

void fc_requests_out(const MPI_Request *c, int n, MPI_Fint *f, int done)
{
    for (int i = 0; i < n; i++) {
        if (done)
            fc_request_done(f[i], c[i]);
        f[i] = PMPI_Request_c2f(c[i]);
    }
}

void fc_statuses_out(const MPI_Status *c, int n, MPI_Fint *f)
{
    if (c == MPI_STATUSES_IGNORE)
        return;
    for (int i = 0; i < n; i++)
        PMPI_Status_c2f(&c[i], f + (size_t)i * FC_STATUS_INTS);
}

void fc_indices_out(MPI_Fint *f, int n)
{
    for (int i = 0; i < n; i++)
        f[i]++;
}

/* ------------------------------------------------------------ kept memory */

/* Few nonblocking w-collectives are outstanding at a time: a short list
 * under a lock, and a count read without it so that a Wait with nothing
 * kept costs one load. */
typedef struct kept {
    MPI_Fint request;
    void *mem;
} kept;

static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static kept *keeps;
static int nkeeps, keeps_cap;

/* Free everything kept under `request`; caller holds keep_lock. */
static void release(MPI_Fint request)
{
    for (int i = nkeeps - 1; i >= 0; i--)
        if (keeps[i].request == request) {
            free(keeps[i].mem);
            keeps[i] = keeps[nkeeps - 1];
            __atomic_store_n(&nkeeps, nkeeps - 1, __ATOMIC_RELAXED);
        }
}

/* A request may keep several arrays (send and receive types).  What a
 * request whose completion no Fortran Wait or Test saw had kept stays
 * until its handle is reused and completes, or until MPI_Finalize. */
void fc_keep(MPI_Fint request, void *mem)
{
    pthread_mutex_lock(&keep_lock);
    if (nkeeps == keeps_cap) {
        int cap = keeps_cap ? 2 * keeps_cap : 16;
        kept *k = realloc(keeps, (size_t)cap * sizeof *k);
        if (!k) {
            /* Leak rather than free what the call may still read. */
            pthread_mutex_unlock(&keep_lock);
            return;
        }
        keeps = k;
        keeps_cap = cap;
    }
    keeps[nkeeps] = (kept){request, mem};
    __atomic_store_n(&nkeeps, nkeeps + 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&keep_lock);
}

void fc_request_done(MPI_Fint f, MPI_Request c)
{
    if (c != MPI_REQUEST_NULL || __atomic_load_n(&nkeeps, __ATOMIC_RELAXED) == 0)
        return;
    pthread_mutex_lock(&keep_lock);
    release(f);
    pthread_mutex_unlock(&keep_lock);
}

void fc_keep_free_all(void)
{
    pthread_mutex_lock(&keep_lock);
    for (int i = 0; i < nkeeps; i++)
        free(keeps[i].mem);
    free(keeps);
    keeps = NULL;
    nkeeps = keeps_cap = 0;
    pthread_mutex_unlock(&keep_lock);
}

/* ----------------------------------------------------------- communicators */

/* The C handle of a Fortran communicator; MPI_COMM_NULL when invalid. */
static MPI_Comm comm_of(const MPI_Fint *f)
{
    MPI_Comm c = PMPI_Comm_f2c(*f);
    return c ? c : MPI_COMM_NULL;
}

int fc_peers(const MPI_Fint *comm)
{
    MPI_Comm c = comm_of(comm);
    int inter = 0, n = 0;
    if (c == MPI_COMM_NULL)
        return 0;
    PMPI_Comm_test_inter(c, &inter);
    if (inter)
        PMPI_Comm_remote_size(c, &n);
    else
        PMPI_Comm_size(c, &n);
    return n;
}

/* In- and out-degree of comm's topology (0 without one). */
static void degrees(const MPI_Fint *comm, int *in, int *out)
{
    MPI_Comm c = comm_of(comm);
    int topo = MPI_UNDEFINED, rank, weighted;
    *in = *out = 0;
    if (c != MPI_COMM_NULL)
        PMPI_Topo_test(c, &topo);
    if (topo == MPI_CART) {
        PMPI_Cartdim_get(c, in);
        *in *= 2;
        *out = *in;
    } else if (topo == MPI_GRAPH) {
        PMPI_Comm_rank(c, &rank);
        PMPI_Graph_neighbors_count(c, rank, in);
        *out = *in;
    } else if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(c, in, out, &weighted);
    }
}

int fc_indegree(const MPI_Fint *comm)
{
    int in, out;
    degrees(comm, &in, &out);
    return in;
}

int fc_outdegree(const MPI_Fint *comm)
{
    int in, out;
    degrees(comm, &in, &out);
    return out;
}
