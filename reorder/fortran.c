/*
 * fortran.c: the Fortran bindings of the four constructors.
 *
 * Open MPI 4.1's Fortran layer does not go through the C MPI_ symbols:
 * mpif.h and `use mpi` call mpi_cart_create_ (libmpi_mpifh), which calls
 * PMPI_Cart_create, and `use mpi_f08` calls mpi_cart_create_f08_
 * (libmpi_usempif08), which calls pmpi_cart_create_.  So each function
 * here takes all five names a Fortran compiler may use (as libcommprof's
 * fortran.c does), converts the handles and sentinels as Open MPI's
 * binding does, and calls the C MPI_ function once: this library's
 * wrapper (wrappers.c), so a Fortran call is reordered exactly once.
 *
 * INTEGER is a C int and LOGICAL .TRUE. is 1 with gfortran, which
 * Debian's Open MPI is built with, so integer and logical arrays pass as
 * they are (as Open MPI's own binding passes them).  f08 handles are one
 * INTEGER passed by reference, f08 logicals are the same LOGICAL, and an
 * absent OPTIONAL ierror is NULL.
 */
#include "mpi_fortran_names.h"
#include "ro_internal.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not an int");

/* Fortran MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are common blocks, spelled
 * as the compiler mangles them; weak, so a mangling no library defines
 * is NULL and never matches. */
#define RO_SENTINEL(low, UP)                                                 \
    extern char mpi_fortran_##low __attribute__((weak)),                     \
        mpi_fortran_##low##_ __attribute__((weak)),                          \
        mpi_fortran_##low##__ __attribute__((weak)),                         \
        MPI_FORTRAN_##UP __attribute__((weak));                              \
    static int is_##low(const void *p)                                       \
    {                                                                        \
        return p && (p == &mpi_fortran_##low || p == &mpi_fortran_##low##_ || \
                     p == &mpi_fortran_##low##__ || p == &MPI_FORTRAN_##UP); \
    }
RO_SENTINEL(unweighted, UNWEIGHTED)
RO_SENTINEL(weights_empty, WEIGHTS_EMPTY)

static const int *c_weights(const MPI_Fint *w)
{
    if (is_unweighted(w))
        return MPI_UNWEIGHTED;
    if (is_weights_empty(w))
        return MPI_WEIGHTS_EMPTY;
    return w;
}

/* The result: the new handle only when the call succeeded, as Open MPI's
 * binding does; ierr may be NULL (f08 without ierror). */
static void done(int c_ierr, MPI_Comm c_new, MPI_Fint *f_new, MPI_Fint *ierr)
{
    if (c_ierr == MPI_SUCCESS)
        *f_new = MPI_Comm_c2f(c_new);
    if (ierr)
        *ierr = c_ierr;
}

static void f_cart_create(MPI_Fint *comm_old, MPI_Fint *ndims,
                          MPI_Fint *dims, MPI_Fint *periods,
                          MPI_Fint *reorder, MPI_Fint *comm_cart,
                          MPI_Fint *ierr)
{
    MPI_Comm c_new;
    int c_ierr = MPI_Cart_create(MPI_Comm_f2c(*comm_old), *ndims, dims,
                                 periods, *reorder, &c_new);
    done(c_ierr, c_new, comm_cart, ierr);
}
MPI_F_NAMES(f_cart_create, CART_CREATE, cart_create)

static void f_graph_create(MPI_Fint *comm_old, MPI_Fint *nnodes,
                           MPI_Fint *index, MPI_Fint *edges,
                           MPI_Fint *reorder, MPI_Fint *comm_graph,
                           MPI_Fint *ierr)
{
    MPI_Comm c_new;
    int c_ierr = MPI_Graph_create(MPI_Comm_f2c(*comm_old), *nnodes, index,
                                  edges, *reorder, &c_new);
    done(c_ierr, c_new, comm_graph, ierr);
}
MPI_F_NAMES(f_graph_create, GRAPH_CREATE, graph_create)

static void f_dist_graph_create_adjacent(
    MPI_Fint *comm_old, MPI_Fint *indegree, MPI_Fint *sources,
    MPI_Fint *sourceweights, MPI_Fint *outdegree, MPI_Fint *destinations,
    MPI_Fint *destweights, MPI_Fint *info, MPI_Fint *reorder,
    MPI_Fint *comm_dist_graph, MPI_Fint *ierr)
{
    MPI_Comm c_new;
    int c_ierr = MPI_Dist_graph_create_adjacent(
        MPI_Comm_f2c(*comm_old), *indegree, sources,
        c_weights(sourceweights), *outdegree, destinations,
        c_weights(destweights), MPI_Info_f2c(*info), *reorder, &c_new);
    done(c_ierr, c_new, comm_dist_graph, ierr);
}
MPI_F_NAMES(f_dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT,
         dist_graph_create_adjacent)

static void f_dist_graph_create(MPI_Fint *comm_old, MPI_Fint *n,
                                MPI_Fint *sources, MPI_Fint *degrees,
                                MPI_Fint *destinations, MPI_Fint *weights,
                                MPI_Fint *info, MPI_Fint *reorder,
                                MPI_Fint *comm_dist_graph, MPI_Fint *ierr)
{
    MPI_Comm c_new;
    int c_ierr = MPI_Dist_graph_create(
        MPI_Comm_f2c(*comm_old), *n, sources, degrees, destinations,
        c_weights(weights), MPI_Info_f2c(*info), *reorder, &c_new);
    done(c_ierr, c_new, comm_dist_graph, ierr);
}
MPI_F_NAMES(f_dist_graph_create, DIST_GRAPH_CREATE, dist_graph_create)
