/*
 * fortran.h: what libcommprof's Fortran wrappers (fortran.c, generated
 * from fortran.def) share: recognising Open MPI's Fortran sentinels, and
 * handle and status arrays converted between the Fortran and C bindings.
 * Not installed.
 *
 * Open MPI's Fortran sentinels (MPI_BOTTOM, MPI_IN_PLACE,
 * MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE) are not values but the
 * addresses of common blocks: mpif.h declares
 *     common /mpi_fortran_in_place/ MPI_IN_PLACE
 * and `use mpi` and `use mpi_f08` bind to the same symbols.  The C symbol
 * is spelled the way the Fortran compiler mangles common-block names
 * (gfortran: mpi_fortran_in_place_), so, like Open MPI's own bindings, a
 * wrapper compares an argument's address with every mangling.  They are
 * weak references: a mangling no library defines has address NULL, and an
 * argument is compared with it only when the argument is not NULL.
 */
#ifndef TOPOMAP_CP_FORTRAN_H
#define TOPOMAP_CP_FORTRAN_H

#include "config.h" /* CP_HAVE_*: fortran.def's MPI-4 rows */

#include <mpi.h>

/* The Fortran INTEGER, and so every handle and count, is a C int, and
 * LOGICAL .TRUE. is 1 (gfortran, which Debian's Open MPI is built with):
 * integer arrays and flags pass to the C binding as they are, as Open
 * MPI's own Fortran binding passes them. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not an int");

/* A Fortran status is MPI_STATUS_SIZE INTEGERs. */
#define FC_STATUS_INTS ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))

/* Handle and status arrays up to this many entries are converted on the
 * stack; longer ones on the heap. */
#define FC_STACK 64

/* MPICH's `use mpi_f08` sentinels are the objects MPIR_F08_MPI_BOTTOM,
 * MPIR_F08_MPI_IN_PLACE, MPIR_F08_MPI_STATUS_IGNORE_OBJ and
 * MPIR_F08_MPI_STATUSES_IGNORE_OBJ of libmpichfort (the third column),
 * named by their symbols (MPICH's mpi.h declares some with other types). */
#define FC_SENTINELS(X)                                                      \
    X(bottom, BOTTOM, BOTTOM)                                                \
    X(in_place, IN_PLACE, IN_PLACE)                                          \
    X(status_ignore, STATUS_IGNORE, STATUS_IGNORE_OBJ)                       \
    X(statuses_ignore, STATUSES_IGNORE, STATUSES_IGNORE_OBJ)

#define FC_WEAK __attribute__((weak))
#define FC_DECLARE(low, UP, MPICH)                                           \
    extern char mpi_fortran_##low FC_WEAK, mpi_fortran_##low##_ FC_WEAK,    \
        mpi_fortran_##low##__ FC_WEAK, MPI_FORTRAN_##UP FC_WEAK,             \
        fc_mpich_##low __asm__("MPIR_F08_MPI_" #MPICH) FC_WEAK;              \
    static inline int fc_is_##low(const void *p)                             \
    {                                                                        \
        return p && (p == &mpi_fortran_##low || p == &mpi_fortran_##low##_ || \
                     p == &mpi_fortran_##low##__ || p == &MPI_FORTRAN_##UP || \
                     p == &fc_mpich_##low);                                  \
    }
FC_SENTINELS(FC_DECLARE)
#undef FC_DECLARE

/* A choice buffer: Fortran MPI_BOTTOM becomes C MPI_BOTTOM. */
static inline void *fc_bottom(void *buf)
{
    return fc_is_bottom(buf) ? MPI_BOTTOM : buf;
}

/* A buffer that may also be MPI_IN_PLACE. */
static inline void *fc_in_place(void *buf)
{
    return fc_is_in_place(buf) ? MPI_IN_PLACE : fc_bottom(buf);
}

/* A single status the call may write: the C binding gets
 * MPI_STATUS_IGNORE when the Fortran one is ignored, else *c filled from
 * the Fortran status, which fc_status_out copies back whether or not the
 * call wrote it (Open MPI's own binding lets the C call write into the
 * Fortran status directly; this has the same effect). */
MPI_Status *fc_status_in(const MPI_Fint *f, MPI_Status *c);
void fc_status_out(const MPI_Status *c, MPI_Fint *f);

/* Arrays of n handles or statuses, converted into `stack` (FC_STACK
 * entries; NULL to always use the heap) or the heap (*heap, which the
 * caller frees).  When memory is short they return NULL and set *ierr to
 * MPI_ERR_NO_MEM after calling MPI_COMM_WORLD's error handler, as Open
 * MPI's binding does; they do nothing when *ierr is already an error.
 * fc_types returns NULL for n <= 0 (the send types of an in-place
 * call); fc_statuses returns MPI_STATUSES_IGNORE for ignored statuses. */
MPI_Datatype *fc_types(const MPI_Fint *f, int n, MPI_Datatype *stack,
                       void **heap, int *ierr);
MPI_Request *fc_requests(const MPI_Fint *f, int n, MPI_Request *stack,
                         void **heap, int *ierr);
MPI_Status *fc_statuses(const MPI_Fint *f, int n, MPI_Status *stack,
                        void **heap, int *ierr);

/* After a successful call: the n C requests back into the Fortran array
 * (completed ones become MPI_REQUEST_NULL); with `done`, memory kept for
 * the completed ones is released.  The first n statuses back into the
 * Fortran array unless ignored.  The first n indices back to 1-based. */
void fc_requests_out(const MPI_Request *c, int n, MPI_Fint *f, int done);
void fc_statuses_out(const MPI_Status *c, int n, MPI_Fint *f);
void fc_indices_out(MPI_Fint *f, int n);

/* A request that a Wait or Test completed: release what was kept for it. */
void fc_request_done(MPI_Fint f, MPI_Request c);

/* Memory a nonblocking call may read until it completes (Open MPI keeps
 * the datatype arrays of Ialltoallw and Ineighbor_alltoallw and releases
 * their types at completion): kept under the request's Fortran handle
 * and freed when a Fortran Wait or Test completes a request with that
 * handle (Open MPI reuses a handle only after destroying its request, so
 * this frees nothing still in use), or at MPI_Finalize. */
void fc_keep(MPI_Fint request, void *mem);
void fc_keep_free_all(void);

/* Peers of a communicator's collectives (the remote group of an
 * intercommunicator), and the in- and out-degree of its topology for the
 * neighbourhood collectives; 0 for an invalid handle, which the call
 * itself then reports. */
int fc_peers(const MPI_Fint *comm);
int fc_indegree(const MPI_Fint *comm);
int fc_outdegree(const MPI_Fint *comm);

#endif
