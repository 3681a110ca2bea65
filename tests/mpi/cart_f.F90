! cart_f.F90: the `world` run of tests/mpi/cart.c in Fortran, for
! tests/commprof_cart.sh, which expects the same profile of both:
! Cartesian communicators through libcommprof's Fortran wrappers.  Built
! with `use mpi` (cart_f) and, with -DF08, `use mpi_f08` (cart_f08).  Run
! on 6 ranks: MPI_Cart_create over MPI_COMM_WORLD, dims 3x2, both
! periodic, reorder .false.; MPI_Cart_sub keeping the second dimension;
! then each rank sends 100 B to its +1 neighbour of dimension 0 and 10 B
! to its +1 neighbour of dimension 1.
#include "fortran_mpi.h"
program cart_f
  USE_MPI
  implicit none
  integer :: ierr, dims(2)
  logical :: periods(2), remain(2)
  HANDLE(MPI_Comm) :: cart, sub
  character :: a(100), b(100)

  call MPI_Init(ierr)
  a = 'x'
  dims = (/3, 2/)
  periods = (/.true., .true./)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  remain = (/.false., .true./)
  call MPI_Cart_sub(cart, remain, sub, ierr)
  call shift(0, 100)
  call shift(1, 10)
  call MPI_Finalize(ierr)

contains

  subroutine shift(dim, bytes)
    integer, intent(in) :: dim, bytes
    integer :: src, dst
    call MPI_Cart_shift(cart, dim, 1, src, dst, ierr)
    call MPI_Sendrecv(a, bytes, MPI_BYTE, dst, 0, b, bytes, MPI_BYTE, src, &
                      0, cart, MPI_STATUS_IGNORE, ierr)
  end subroutine shift
end program cart_f
