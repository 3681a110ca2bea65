! phases_f.F90: tests/mpi/phases.c in Fortran (`use mpi`), for
! tests/commprof_phases.sh, which expects the same profile of both: phases
! from MPI_Pcontrol through libcommprof's Fortran wrappers.  Run on 4
! ranks.  Rank r of n, each step a Sendrecv to r+d from r-d (mod n):
!   phase 1 (from MPI_Init)  100 B, d = 1
!   MPI_Pcontrol(3)          300 B, d = 2; Bcast of 40 B from rank 0
!   MPI_Pcontrol(4)          400 B, d = 3; Allreduce of 2 INTEGERs
!   MPI_Pcontrol(3)          300 B, d = 2
!   MPI_Pcontrol(0)          400 B, d = 1, not recorded
!   MPI_Pcontrol(1)          7 B, d = 1, in phase 3
#include "fortran_mpi.h"
program phases_f
  USE_MPI
  implicit none
  integer :: r, n, ierr, x(2), y(2)
  character :: a(400), b(400)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  a = 'x'
  x = (/1, 2/)
  call step(100, 1)
  call MPI_Pcontrol(3)
  call step(300, 2)
  call MPI_Bcast(a, 40, MPI_BYTE, 0, MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(4)
  call step(400, 3)
  call MPI_Allreduce(x, y, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(3)
  call step(300, 2)
  call MPI_Pcontrol(0)
  call step(400, 1)
  call MPI_Pcontrol(1)
  call step(7, 1)
  call MPI_Finalize(ierr)

contains

  subroutine step(bytes, d)
    integer, intent(in) :: bytes, d
    call MPI_Sendrecv(a, bytes, MPI_BYTE, mod(r + d, n), 0, b, bytes, &
                      MPI_BYTE, mod(r - d + n, n), 0, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
  end subroutine step
end program phases_f
