! pattern_f.F90: a Fortran MPI program whose communication is known
! exactly, for checking libcommprof's Fortran wrappers
! (tests/fortran_pattern.sh and the `fortran` mode of
! tests/commprof_check.py hold the expected values).  Built twice: with
! `use mpi` (pattern_f) and, with -DF08, with `use mpi_f08` (pattern_f08).
! Run on 4 ranks.  Every rank checks what it received, the statuses,
! indices and handles MPI gave back, and an error code, and stops with
! MPI_Abort if one is wrong; rank 0 prints what it saw.
!
! Rank r, with n ranks:
!   1. Send 100 INTEGERs (400 B) to r+1; Recv from r-1, MPI_STATUS_IGNORE
!   2. Isend 7 DOUBLE PRECISION (56 B) to r+2, Irecv from MPI_ANY_SOURCE,
!      Waitall with MPI_STATUSES_IGNORE
!   3. Isend 3 INTEGERs from MPI_BOTTOM (an hindexed type at their
!      absolute address, 12 B) to r+3; Recv from MPI_ANY_SOURCE with a
!      status; Wait
!   4. Send_init 16 INTEGERs (64 B) to r+3, Recv_init from r+1, both
!      started 5 times (Startall, Waitall), then Request_free
!   5. Irecv from r-1, Send to r+1 of 2 x contiguous(3 INTEGERs) = 24 B,
!      Waitany: index 2 (1-based) of (MPI_REQUEST_NULL, the Irecv)
!   6. Pcontrol(0): Sendrecv_replace of 4096 B with r+1 and r-1, not
!      recorded; Pcontrol(1)
!   7. with MPI_ERRORS_RETURN, a Send to rank n fails with MPI_ERR_RANK
!   8. Comm_split into even and odd ranks: Alltoall of 4 INTEGERs per peer
!   9. Allreduce of 8 DOUBLE PRECISION with MPI_IN_PLACE
!  10. Bcast of 25 INTEGERs (100 B) from rank 1
!  11. Put of 5 INTEGERs (20 B) into the window of rank r+1 between fences
!
! With --plain, steps 4 and 6 are left out: Open MPI's pml monitoring
! (the independent reference) does not see persistent sends and knows
! nothing of MPI_Pcontrol.
#include "fortran_mpi.h"
program pattern_f
  USE_MPI
  implicit none
  integer :: r, n, i, idx, cnt, cls, ierr, ierr2
  logical :: plain
  character(len=16) :: arg
  HANDLE(MPI_Comm) :: half
  HANDLE(MPI_Request) :: req(2), pers(2)
  HANDLE(MPI_Datatype) :: three, abst
  HANDLE(MPI_Win) :: win
  STATUS_DECL(st)
  integer :: blen(1)
  integer(kind=MPI_ADDRESS_KIND) :: disp(1), wsize
  integer :: a(100), b(100), t(6), s4(8), r4(8), c25(25), five(5)
  integer, asynchronous :: w(3), wr(3), p(16), q(16), u(6), wbuf(5)
  double precision :: x(8)
  double precision, asynchronous :: d(7), e(7)
  character :: big(4096)

  call MPI_Init(ierr)
  call need(ierr == MPI_SUCCESS, 'MPI_Init ierr')
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call need(n == 4, 'run on 4 ranks')
  plain = .false.
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    plain = arg == '--plain'
  end if

  ! 1. blocking ring, even ranks send first
  a = r
  if (mod(r, 2) == 0) then
    call MPI_Send(a, 100, MPI_INTEGER, mod(r + 1, n), 1, MPI_COMM_WORLD, ierr)
    call MPI_Recv(b, 100, MPI_INTEGER, mod(r + n - 1, n), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  else
    call MPI_Recv(b, 100, MPI_INTEGER, mod(r + n - 1, n), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Send(a, 100, MPI_INTEGER, mod(r + 1, n), 1, MPI_COMM_WORLD, ierr)
  end if
  call need(all(b == mod(r + n - 1, n)), 'Recv data')

  ! 2. nonblocking, any source, statuses ignored
  d = r
  call MPI_Isend(d, 7, MPI_DOUBLE_PRECISION, mod(r + 2, n), 2, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Irecv(e, 7, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  call need(all(e == mod(r + 2, n)), 'Irecv data')
  call need(req(1) == MPI_REQUEST_NULL .and. req(2) == MPI_REQUEST_NULL, 'Waitall requests')

  ! 3. MPI_BOTTOM, and a status from an any-source receive
  w = 10 * r + [1, 2, 3]
  call MPI_Get_address(w, disp(1), ierr)
  blen(1) = 3
  call MPI_Type_create_hindexed(1, blen, disp, MPI_INTEGER, abst, ierr)
  call MPI_Type_commit(abst, ierr)
  call MPI_Isend(MPI_BOTTOM, 1, abst, mod(r + 3, n), 3, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Recv(wr, 3, MPI_INTEGER, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, st, ierr)
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call need(FIELD(st, MPI_SOURCE) == mod(r + 1, n) .and. FIELD(st, MPI_TAG) == 3 .and. cnt == 3, &
            'any-source status')
  call need(all(wr == 10 * mod(r + 1, n) + [1, 2, 3]), 'MPI_BOTTOM data')
  call MPI_Type_free(abst, ierr)

  ! 4. persistent requests
  if (.not. plain) then
    p = r
    call MPI_Send_init(p, 16, MPI_INTEGER, mod(r + 3, n), 4, MPI_COMM_WORLD, pers(1), ierr)
    call MPI_Recv_init(q, 16, MPI_INTEGER, mod(r + 1, n), 4, MPI_COMM_WORLD, pers(2), ierr)
    do i = 1, 5
      call MPI_Startall(2, pers, ierr)
      call MPI_Waitall(2, pers, MPI_STATUSES_IGNORE, ierr)
    end do
    call need(all(q == mod(r + 1, n)), 'persistent data')
    call need(pers(1) /= MPI_REQUEST_NULL, 'persistent request kept')
    call MPI_Request_free(pers(1), ierr)
    call MPI_Request_free(pers(2), ierr)
    call need(pers(1) == MPI_REQUEST_NULL, 'Request_free')
  end if

  ! 5. a derived type, Waitany's 1-based index
  call MPI_Type_contiguous(3, MPI_INTEGER, three, ierr)
  call MPI_Type_commit(three, ierr)
  t = r
  req(1) = MPI_REQUEST_NULL
  call MPI_Irecv(u, 2, three, mod(r + n - 1, n), 5, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Send(t, 2, three, mod(r + 1, n), 5, MPI_COMM_WORLD, ierr)
  call MPI_Waitany(2, req, idx, st, ierr)
  call MPI_Get_count(st, three, cnt, ierr)
  call need(idx == 2 .and. req(2) == MPI_REQUEST_NULL, 'Waitany index')
  call need(FIELD(st, MPI_SOURCE) == mod(r + n - 1, n) .and. cnt == 2, 'Waitany status')
  call need(all(u == mod(r + n - 1, n)), 'derived type data')
  call MPI_Type_free(three, ierr)

  ! 6. not recorded
  if (.not. plain) then
    big = 'x'
    call MPI_Pcontrol(0)
    call MPI_Sendrecv_replace(big, 4096, MPI_CHARACTER, mod(r + 1, n), 6, mod(r + n - 1, n), 6, &
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Pcontrol(1)
  end if

  ! 7. an error returned, not raised
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(a, 1, MPI_INTEGER, n, 7, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, ierr2)
  call need(cls == MPI_ERR_RANK, 'error class')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

  ! 8. a sub-communicator
  call MPI_Comm_split(MPI_COMM_WORLD, mod(r, 2), r, half, ierr)
  s4 = r
  call MPI_Alltoall(s4, 4, MPI_INTEGER, r4, 4, MPI_INTEGER, half, ierr)
  call need(all(r4(1:4) == mod(r, 2)) .and. all(r4(5:8) == mod(r, 2) + 2), 'Alltoall data')
  call MPI_Comm_free(half, ierr)

  ! 9. in place
  x = r
  call MPI_Allreduce(MPI_IN_PLACE, x, 8, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call need(all(x == 6), 'Allreduce in place')

  ! 10.
  c25 = r
  call MPI_Bcast(c25, 25, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  call need(all(c25 == 1), 'Bcast data')

  ! 11. one-sided
  wbuf = -1
  wsize = 5 * 4
  call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  five = 10 * r + [1, 2, 3, 4, 5]
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(five, 5, MPI_INTEGER, mod(r + 1, n), 0_MPI_ADDRESS_KIND, 5, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call need(all(wbuf == 10 * mod(r + n - 1, n) + [1, 2, 3, 4, 5]), 'Put data')
  call MPI_Win_free(win, ierr)

  if (r == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,f0.1)') 'source ', FIELD(st, MPI_SOURCE), ' count ', cnt, &
      ' index ', idx, ' sum ', x(1)
  end if
  call MPI_Finalize(ierr)
  if (ierr /= MPI_SUCCESS) error stop 'pattern_f: MPI_Finalize failed'

contains

#include "fortran_need.h"

end program pattern_f
