/*
 * mpi_fortran_names.h: the names a Fortran compiler calls an MPI binding
 * by, for the libraries that take Fortran calls over (libcommprof's
 * fortran.c, libtopomap-reorder's fortran.c).  Not installed.
 *
 * mpif.h and `use mpi` calls reach MPI_SEND, mpi_send, mpi_send_ or
 * mpi_send__ as the compiler mangles them; `use mpi_f08` calls without a
 * choice buffer reach mpi_send_f08_.  MPI_F_NAMES(fn, UP, low) makes each
 * of the five an alias of the C function fn, which takes the Fortran
 * arguments (all by reference, ierror last).
 */
#ifndef TOPOMAP_MPI_FORTRAN_NAMES_H
#define TOPOMAP_MPI_FORTRAN_NAMES_H

#define MPI_F_ALIAS(symbol, fn)                                              \
    extern __typeof__(fn) symbol __attribute__((alias(#fn)));
#define MPI_F_NAMES(fn, UP, low)                                             \
    MPI_F_ALIAS(MPI_##UP, fn)                                                \
    MPI_F_ALIAS(mpi_##low, fn)                                               \
    MPI_F_ALIAS(mpi_##low##_, fn)                                            \
    MPI_F_ALIAS(mpi_##low##__, fn)                                           \
    MPI_F_ALIAS(mpi_##low##_f08_, fn)

#endif
