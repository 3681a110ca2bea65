! calls_f.F90: every Fortran function libcommprof wraps (fortran.def),
! called at least once from Fortran with results the program checks, for
! tests/fortran_pattern.sh and the `fortran_calls` mode of
! tests/commprof_check.py, which hold the expected profile.  Built twice:
! with `use mpi` (calls_f) and, with -DF08, `use mpi_f08` (calls_f08).
! Run on 4 ranks; every message and every one-sided operation carries one
! INTEGER (4 B), and every collective one INTEGER per block.  A wrong
! value, status, index, flag or handle stops the run with MPI_Abort.
! Each rank prints the calls its polling loops made: "rank R polls P"
! (Test, Testall, Testany, Waitsome, Testsome, Iprobe, Improbe) and
! "rank R rma_polls Q" (Win_test).
!
! Rank r; its partner nb = r xor 1; left and right on a ring of 4.
!  A. point-to-point with nb: Send, Bsend, Ssend, Rsend into a posted
!     Irecv + Wait; Isend, Ibsend, Issend, Irsend + Irecvs + Waitall;
!     Sendrecv; Sendrecv_replace; Send/Recv; the four persistent sends and
!     Recv_init, Startall, Start, Waitall, Request_free; Probe, Iprobe,
!     Mprobe + Mrecv, Improbe + Imrecv; Test, Testall, Waitany, Testany,
!     Waitsome, Testsome.  25 messages each way.
!  B. every collective on MPI_COMM_WORLD, blocking and nonblocking (+Wait),
!     the nonblocking one in place where the standard allows it.
!  N. the neighbourhood collectives on a periodic ring (Cart_create), and
!     Neighbor_alltoallw on a dist graph whose in- and out-degrees differ.
!  C. one-sided: Put, Get, Accumulate between fences; Get_accumulate,
!     Fetch_and_op, Compare_and_swap, flushes under a lock; Rput, Rget,
!     Raccumulate, Rget_accumulate under lock_all; post/start/complete
!     and Win_test, then the other way with Win_wait.
#include "fortran_mpi.h"
program calls_f
  USE_MPI
  implicit none
  integer :: r, n, nb, left, right, i, k, idx, outcnt, done, polls, rma_polls
  integer :: provided, cnt, ierr, t, indices(8), one, five, seven, cmp
  integer :: indeg, outdeg, sources(2), dests(2), wcnt(4)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, wdisp(4)
  logical :: flag
  HANDLE(MPI_Request) :: rq(8), rq1
  HANDLE(MPI_Message) :: msg
  HANDLE(MPI_Comm) :: ring, dist
  HANDLE(MPI_Datatype) :: t1, st1(4), rt1(4)
  HANDLE(MPI_Win) :: win
  HANDLE(MPI_Group) :: wgroup, pgroup
  STATUS_DECL(st)
  STATUSES_DECL(sts, 8)
  integer :: x, x4(4)
  integer, asynchronous :: v, v4(4), y, sb(4), rb(4), g, g2, g3, ga, fo, cs
  integer, volatile :: wbuf(8)
  character :: bsbuf(4096)

  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call need(ierr == MPI_SUCCESS .and. provided >= MPI_THREAD_FUNNELED, 'Init_thread')
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call need(n == 4, 'run on 4 ranks')
  nb = ieor(r, 1)
  left = mod(r + n - 1, n)
  right = mod(r + 1, n)
  polls = 0
  rma_polls = 0
  call MPI_Buffer_attach(bsbuf, 4096, ierr)

  ! ------------------------------------------------------- point-to-point
  do k = 1, 4
    call MPI_Irecv(v, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, rq1, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    x = 100 * r + k
    select case (k)
    case (1)
      call MPI_Send(x, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, ierr)
    case (2)
      call MPI_Bsend(x, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, ierr)
    case (3)
      call MPI_Ssend(x, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, ierr)
    case (4)
      call MPI_Rsend(x, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, ierr)
    end select
    call MPI_Wait(rq1, st, ierr)
    call need(v == 100 * nb + k .and. FIELD(st, MPI_SOURCE) == nb .and. FIELD(st, MPI_TAG) == k &
              .and. rq1 == MPI_REQUEST_NULL, 'send modes')
  end do

  do k = 1, 4
    call MPI_Irecv(v4(k), 1, MPI_INTEGER, nb, 4 + k, MPI_COMM_WORLD, rq(k), ierr)
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  x4 = 100 * r + [5, 6, 7, 8]
  call MPI_Isend(x4(1), 1, MPI_INTEGER, nb, 5, MPI_COMM_WORLD, rq(5), ierr)
  call MPI_Ibsend(x4(2), 1, MPI_INTEGER, nb, 6, MPI_COMM_WORLD, rq(6), ierr)
  call MPI_Issend(x4(3), 1, MPI_INTEGER, nb, 7, MPI_COMM_WORLD, rq(7), ierr)
  call MPI_Irsend(x4(4), 1, MPI_INTEGER, nb, 8, MPI_COMM_WORLD, rq(8), ierr)
  call MPI_Waitall(8, rq, sts, ierr)
  do k = 1, 4
    call need(v4(k) == 100 * nb + 4 + k .and. AFIELD(sts, k, MPI_SOURCE) == nb &
              .and. AFIELD(sts, k, MPI_TAG) == 4 + k, 'nonblocking send modes')
  end do

  x = 100 * r + 9
  call MPI_Sendrecv(x, 1, MPI_INTEGER, nb, 9, v, 1, MPI_INTEGER, nb, 9, MPI_COMM_WORLD, st, ierr)
  call need(v == 100 * nb + 9 .and. FIELD(st, MPI_SOURCE) == nb, 'Sendrecv')
  v = 100 * r + 10
  call MPI_Sendrecv_replace(v, 1, MPI_INTEGER, nb, 10, nb, 10, MPI_COMM_WORLD, st, ierr)
  call need(v == 100 * nb + 10 .and. FIELD(st, MPI_TAG) == 10, 'Sendrecv_replace')
  x = 100 * r + 11
  if (mod(r, 2) == 0) then
    call MPI_Send(x, 1, MPI_INTEGER, nb, 11, MPI_COMM_WORLD, ierr)
    call MPI_Recv(v, 1, MPI_INTEGER, nb, 11, MPI_COMM_WORLD, st, ierr)
  else
    call MPI_Recv(v, 1, MPI_INTEGER, nb, 11, MPI_COMM_WORLD, st, ierr)
    call MPI_Send(x, 1, MPI_INTEGER, nb, 11, MPI_COMM_WORLD, ierr)
  end if
  call need(v == 100 * nb + 11 .and. FIELD(st, MPI_SOURCE) == nb, 'Recv')

  do k = 1, 4
    call MPI_Recv_init(v4(k), 1, MPI_INTEGER, nb, 11 + k, MPI_COMM_WORLD, rq(k), ierr)
  end do
  x4 = 100 * r + [12, 13, 14, 15]
  call MPI_Send_init(x4(1), 1, MPI_INTEGER, nb, 12, MPI_COMM_WORLD, rq(5), ierr)
  call MPI_Bsend_init(x4(2), 1, MPI_INTEGER, nb, 13, MPI_COMM_WORLD, rq(6), ierr)
  call MPI_Ssend_init(x4(3), 1, MPI_INTEGER, nb, 14, MPI_COMM_WORLD, rq(7), ierr)
  call MPI_Rsend_init(x4(4), 1, MPI_INTEGER, nb, 15, MPI_COMM_WORLD, rq(8), ierr)
  call MPI_Startall(4, rq, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Start(rq(5), ierr)
  call MPI_Startall(3, rq(6:8), ierr)
  call MPI_Waitall(8, rq, MPI_STATUSES_IGNORE, ierr)
  call need(all(v4 == 100 * nb + [12, 13, 14, 15]), 'persistent data')
  call need(rq(1) /= MPI_REQUEST_NULL .and. rq(8) /= MPI_REQUEST_NULL, 'persistent requests kept')
  do k = 1, 8
    call MPI_Request_free(rq(k), ierr)
    call need(rq(k) == MPI_REQUEST_NULL, 'Request_free')
  end do

  x = 100 * r + 16
  call MPI_Isend(x, 1, MPI_INTEGER, nb, 16, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Probe(nb, 16, MPI_COMM_WORLD, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call need(cnt == 1 .and. FIELD(st, MPI_SOURCE) == nb, 'Probe')
  call MPI_Recv(v, 1, MPI_INTEGER, nb, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)

  x = 100 * r + 17
  call MPI_Isend(x, 1, MPI_INTEGER, nb, 17, MPI_COMM_WORLD, rq1, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(nb, 17, MPI_COMM_WORLD, flag, st, ierr)
    polls = polls + 1
  end do
  call need(FIELD(st, MPI_TAG) == 17, 'Iprobe')
  call MPI_Recv(v, 1, MPI_INTEGER, nb, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(v == 100 * nb + 17, 'Iprobe data')

  x = 100 * r + 18
  call MPI_Isend(x, 1, MPI_INTEGER, nb, 18, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Mprobe(nb, 18, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_Mrecv(v, 1, MPI_INTEGER, msg, st, ierr)
  call need(v == 100 * nb + 18 .and. msg == MPI_MESSAGE_NULL .and. FIELD(st, MPI_TAG) == 18, 'Mrecv')
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)

  x = 100 * r + 19
  call MPI_Isend(x, 1, MPI_INTEGER, nb, 19, MPI_COMM_WORLD, rq1, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Improbe(nb, 19, MPI_COMM_WORLD, flag, msg, st, ierr)
    polls = polls + 1
  end do
  call MPI_Imrecv(v, 1, MPI_INTEGER, msg, rq(1), ierr)
  call need(msg == MPI_MESSAGE_NULL, 'Imrecv message')
  call MPI_Wait(rq(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(v == 100 * nb + 19, 'Imrecv data')

  ! the completion functions: a receive (index 1) and a send (index 2)
  call MPI_Irecv(v, 1, MPI_INTEGER, nb, 20, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  x = 100 * r + 20
  call MPI_Send(x, 1, MPI_INTEGER, nb, 20, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(rq1, flag, st, ierr)
    polls = polls + 1
  end do
  call need(v == 100 * nb + 20 .and. rq1 == MPI_REQUEST_NULL .and. FIELD(st, MPI_SOURCE) == nb, 'Test')

  do k = 21, 25
    x = 100 * r + k
    call MPI_Irecv(v, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, rq(1), ierr)
    call MPI_Isend(x, 1, MPI_INTEGER, nb, k, MPI_COMM_WORLD, rq(2), ierr)
    done = 0
    do while (done < 2)
      select case (k)
      case (21)
        call MPI_Testall(2, rq, flag, sts, ierr)
        polls = polls + 1
        if (flag) then
          call need(AFIELD(sts, 1, MPI_SOURCE) == nb .and. AFIELD(sts, 1, MPI_TAG) == k, 'Testall status')
          done = 2
        end if
      case (22)
        call MPI_Waitany(2, rq, idx, st, ierr)
        call need(idx == 1 .or. idx == 2, 'Waitany index')
        if (idx == 1) call need(FIELD(st, MPI_SOURCE) == nb, 'Waitany status')
        done = done + 1
      case (23)
        call MPI_Testany(2, rq, idx, flag, st, ierr)
        polls = polls + 1
        if (flag) then
          call need(idx == 1 .or. idx == 2, 'Testany index')
          if (idx == 1) call need(FIELD(st, MPI_SOURCE) == nb, 'Testany status')
          done = done + 1
        end if
      case (24, 25)
        if (k == 24) then
          call MPI_Waitsome(2, rq, outcnt, indices, sts, ierr)
        else
          call MPI_Testsome(2, rq, outcnt, indices, sts, ierr)
        end if
        polls = polls + 1
        do i = 1, outcnt
          call need(indices(i) == 1 .or. indices(i) == 2, 'Waitsome or Testsome index')
          if (indices(i) == 1) call need(AFIELD(sts, i, MPI_SOURCE) == nb, 'Waitsome or Testsome status')
        end do
        done = done + outcnt
      end select
    end do
    call need(v == 100 * nb + k .and. rq(1) == MPI_REQUEST_NULL .and. rq(2) == MPI_REQUEST_NULL, 'completion')
  end do

  ! ---------------------------------------------------------- collectives
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)

  x = r
  call MPI_Bcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  y = r
  call MPI_Ibcast(y, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(x == 0 .and. y == 1, 'Bcast')

  ! reductions: the sum of the ranks is 6
  x = r
  y = -1
  call MPI_Reduce(x, y, 1, MPI_INTEGER, MPI_SUM, 2, MPI_COMM_WORLD, ierr)
  if (r == 2) call need(y == 6, 'Reduce')
  y = r
  if (r == 3) then
    call MPI_Ireduce(MPI_IN_PLACE, y, 1, MPI_INTEGER, MPI_SUM, 3, MPI_COMM_WORLD, rq1, ierr)
  else
    call MPI_Ireduce(y, v, 1, MPI_INTEGER, MPI_SUM, 3, MPI_COMM_WORLD, rq1, ierr)
  end if
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  if (r == 3) call need(y == 6, 'Ireduce in place')
  call MPI_Allreduce(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call need(y == 6, 'Allreduce')
  y = r
  call MPI_Iallreduce(MPI_IN_PLACE, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(y == 6, 'Iallreduce in place')

  ! all-to-all: block i of rank j holds 10 j + i, so rank r receives
  ! 10 i + r from rank i
  sb = 10 * r + [0, 1, 2, 3]
  call MPI_Alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call need(all(rb == [0, 10, 20, 30] + r), 'Alltoall')
  rb = sb
  call MPI_Ialltoall(MPI_IN_PLACE, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(all(rb == [0, 10, 20, 30] + r), 'Ialltoall in place')
  wcnt = 1
  call MPI_Alltoallv(sb, wcnt, [0, 1, 2, 3], MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  call need(all(rb == [0, 10, 20, 30] + r), 'Alltoallv')
  rb = sb
  call MPI_Ialltoallv(MPI_IN_PLACE, wcnt, [0, 1, 2, 3], MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], &
                      MPI_INTEGER, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(all(rb == [0, 10, 20, 30] + r), 'Ialltoallv in place')
  ! Alltoallw in place with the predefined type; Ialltoallw with a
  ! derived one, whose type arrays Open MPI holds until completion
  call MPI_Type_contiguous(1, MPI_INTEGER, t1, ierr)
  call MPI_Type_commit(t1, ierr)
  do i = 1, 4
    rt1(i) = MPI_INTEGER
  end do
  rb = sb
  call MPI_Alltoallw(MPI_IN_PLACE, wcnt, [0, 4, 8, 12], rt1, rb, wcnt, [0, 4, 8, 12], rt1, &
                     MPI_COMM_WORLD, ierr)
  call need(all(rb == [0, 10, 20, 30] + r), 'Alltoallw in place')
  do i = 1, 4
    st1(i) = t1
    rt1(i) = t1
  end do
  rb = -1
  call MPI_Ialltoallw(sb, wcnt, [0, 4, 8, 12], st1, rb, wcnt, [0, 4, 8, 12], rt1, MPI_COMM_WORLD, &
                      rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(all(rb == [0, 10, 20, 30] + r), 'Ialltoallw')

  ! gathers: rank i's block is i
  x = r
  call MPI_Allgather(x, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call need(all(rb == [0, 1, 2, 3]), 'Allgather')
  rb = -1
  rb(r + 1) = r
  call MPI_Iallgather(MPI_IN_PLACE, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(all(rb == [0, 1, 2, 3]), 'Iallgather in place')
  call MPI_Allgatherv(x, 1, MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call need(all(rb == [0, 1, 2, 3]), 'Allgatherv')
  rb = -1
  rb(r + 1) = r
  call MPI_Iallgatherv(MPI_IN_PLACE, 1, MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], MPI_INTEGER, &
                       MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(all(rb == [0, 1, 2, 3]), 'Iallgatherv in place')
  rb = -1
  call MPI_Gather(x, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (r == 0) call need(all(rb == [0, 1, 2, 3]), 'Gather')
  rb = -1
  rb(r + 1) = r
  if (r == 1) then
    call MPI_Igather(MPI_IN_PLACE, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, rq1, ierr)
  else
    call MPI_Igather(x, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, rq1, ierr)
  end if
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  if (r == 1) call need(all(rb == [0, 1, 2, 3]), 'Igather in place')
  rb = -1
  call MPI_Gatherv(x, 1, MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], MPI_INTEGER, 2, MPI_COMM_WORLD, ierr)
  if (r == 2) call need(all(rb == [0, 1, 2, 3]), 'Gatherv')
  rb = -1
  rb(r + 1) = r
  if (r == 3) then
    call MPI_Igatherv(MPI_IN_PLACE, 1, MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], MPI_INTEGER, 3, &
                      MPI_COMM_WORLD, rq1, ierr)
  else
    call MPI_Igatherv(x, 1, MPI_INTEGER, rb, wcnt, [0, 1, 2, 3], MPI_INTEGER, 3, MPI_COMM_WORLD, &
                      rq1, ierr)
  end if
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  if (r == 3) call need(all(rb == [0, 1, 2, 3]), 'Igatherv in place')

  ! scatters: the root's block i is 100 + i, for rank i
  sb = 100 + [0, 1, 2, 3]
  y = -1
  call MPI_Scatter(sb, 1, MPI_INTEGER, y, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call need(y == 100 + r, 'Scatter')
  y = -1
  if (r == 1) then
    call MPI_Iscatter(sb, 1, MPI_INTEGER, MPI_IN_PLACE, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, rq1, ierr)
  else
    call MPI_Iscatter(sb, 1, MPI_INTEGER, y, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, rq1, ierr)
  end if
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  if (r /= 1) call need(y == 100 + r, 'Iscatter')
  y = -1
  call MPI_Scatterv(sb, wcnt, [0, 1, 2, 3], MPI_INTEGER, y, 1, MPI_INTEGER, 2, MPI_COMM_WORLD, ierr)
  call need(y == 100 + r, 'Scatterv')
  y = -1
  if (r == 3) then
    call MPI_Iscatterv(sb, wcnt, [0, 1, 2, 3], MPI_INTEGER, MPI_IN_PLACE, 1, MPI_INTEGER, 3, &
                       MPI_COMM_WORLD, rq1, ierr)
  else
    call MPI_Iscatterv(sb, wcnt, [0, 1, 2, 3], MPI_INTEGER, y, 1, MPI_INTEGER, 3, MPI_COMM_WORLD, &
                       rq1, ierr)
  end if
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  if (r /= 3) call need(y == 100 + r, 'Iscatterv')

  ! reduce-scatters and scans: block i of rank j is i + j, so block r sums
  ! to 4 r + 6
  sb = r + [0, 1, 2, 3]
  call MPI_Reduce_scatter(sb, y, wcnt, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call need(y == 4 * r + 6, 'Reduce_scatter')
  rb = sb
  call MPI_Ireduce_scatter(MPI_IN_PLACE, rb, wcnt, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(rb(1) == 4 * r + 6, 'Ireduce_scatter in place')
  call MPI_Reduce_scatter_block(sb, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call need(y == 4 * r + 6, 'Reduce_scatter_block')
  rb = sb
  call MPI_Ireduce_scatter_block(MPI_IN_PLACE, rb, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(rb(1) == 4 * r + 6, 'Ireduce_scatter_block in place')
  x = r + 1
  call MPI_Scan(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call need(y == (r + 1) * (r + 2) / 2, 'Scan')
  y = r + 1
  call MPI_Iscan(MPI_IN_PLACE, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(y == (r + 1) * (r + 2) / 2, 'Iscan in place')
  call MPI_Exscan(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (r > 0) call need(y == r * (r + 1) / 2, 'Exscan')
  y = r + 1
  call MPI_Iexscan(MPI_IN_PLACE, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  if (r > 0) call need(y == r * (r + 1) / 2, 'Iexscan in place')

  ! ------------------------------------------------ neighbourhood collectives
  ! On the ring the neighbours are left then right; block 1 goes left.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [4], [.true.], .false., ring, ierr)
  x = r
  rb = -1
  call MPI_Neighbor_allgather(x, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, ierr)
  call need(rb(1) == left .and. rb(2) == right, 'Neighbor_allgather')
  rb = -1
  call MPI_Ineighbor_allgather(x, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(rb(1) == left .and. rb(2) == right, 'Ineighbor_allgather')
  rb = -1
  call MPI_Neighbor_allgatherv(x, 1, MPI_INTEGER, rb, wcnt, [0, 1], MPI_INTEGER, ring, ierr)
  call need(rb(1) == left .and. rb(2) == right, 'Neighbor_allgatherv')
  rb = -1
  call MPI_Ineighbor_allgatherv(x, 1, MPI_INTEGER, rb, wcnt, [0, 1], MPI_INTEGER, ring, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(rb(1) == left .and. rb(2) == right, 'Ineighbor_allgatherv')
  ! block 1 (10 r) goes left, block 2 (10 r + 1) right
  sb = 10 * r + [0, 1, 2, 3]
  rb = -1
  call MPI_Neighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, ierr)
  call need(rb(1) == 10 * left + 1 .and. rb(2) == 10 * right, 'Neighbor_alltoall')
  rb = -1
  call MPI_Ineighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(rb(1) == 10 * left + 1 .and. rb(2) == 10 * right, 'Ineighbor_alltoall')
  rb = -1
  call MPI_Neighbor_alltoallv(sb, wcnt, [0, 1], MPI_INTEGER, rb, wcnt, [0, 1], MPI_INTEGER, ring, ierr)
  call need(rb(1) == 10 * left + 1 .and. rb(2) == 10 * right, 'Neighbor_alltoallv')
  rb = -1
  call MPI_Ineighbor_alltoallv(sb, wcnt, [0, 1], MPI_INTEGER, rb, wcnt, [0, 1], MPI_INTEGER, ring, &
                               rq1, ierr)
  call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
  call need(rb(1) == 10 * left + 1 .and. rb(2) == 10 * right, 'Ineighbor_alltoallv')
  call MPI_Comm_free(ring, ierr)

  ! A dist graph: rank r sends to r+1, and rank 0 to 2 as well, so rank 0
  ! has out-degree 2 and in-degree 1, rank 2 the reverse.  Rank r sends
  ! 10 r + k as its k-th out-block.
  outdeg = 1
  dests(1) = right
  if (r == 0) then
    outdeg = 2
    dests(2) = 2
  end if
  indeg = 1
  sources(1) = left
  if (r == 2) then
    indeg = 2
    sources(2) = 0
  end if
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, sources, MPI_UNWEIGHTED, outdeg, dests, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., dist, ierr)
  sb = 10 * r + [1, 2, 3, 4]
  wdisp = [0, 4, 8, 12]
  do k = 1, 2
    rb = -1
    if (k == 1) then
      call MPI_Neighbor_alltoallw(sb, wcnt(1:outdeg), wdisp(1:outdeg), st1(1:outdeg), rb, &
                                  wcnt(1:indeg), wdisp(1:indeg), rt1(1:indeg), dist, ierr)
    else
      call MPI_Ineighbor_alltoallw(sb, wcnt(1:outdeg), wdisp(1:outdeg), st1(1:outdeg), rb, &
                                   wcnt(1:indeg), wdisp(1:indeg), rt1(1:indeg), dist, rq1, ierr)
      call MPI_Wait(rq1, MPI_STATUS_IGNORE, ierr)
    end if
    call need(rb(1) == 10 * left + 1, 'Neighbor_alltoallw from the left')
    if (r == 2) call need(rb(2) == 10 * 0 + 2, 'Neighbor_alltoallw from rank 0')
  end do
  call MPI_Comm_free(dist, ierr)
  call MPI_Type_free(t1, ierr)

  ! ------------------------------------------------------------ one-sided
  ! Element k of rank t's window starts as 1000 t + k.
  do k = 1, 8
    wbuf(k) = 1000 * r + k
  end do
  wsize = 8 * 4
  call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  one = 1
  x = r
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(x, 1, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call MPI_Get(g, 1, MPI_INTEGER, right, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call MPI_Accumulate(one, 1, MPI_INTEGER, right, 2_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call need(wbuf(1) == left .and. g == 1000 * right + 2 .and. wbuf(3) == 1000 * r + 4, 'fence epoch')

  t = mod(r + 2, n)
  five = 5
  seven = 7
  cmp = 1000 * t + 6
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win, ierr)
  call MPI_Get_accumulate(five, 1, MPI_INTEGER, ga, 1, MPI_INTEGER, t, 3_MPI_ADDRESS_KIND, 1, &
                          MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Fetch_and_op(one, fo, MPI_INTEGER, t, 4_MPI_ADDRESS_KIND, MPI_SUM, win, ierr)
  call MPI_Compare_and_swap(seven, cmp, cs, MPI_INTEGER, t, 5_MPI_ADDRESS_KIND, win, ierr)
  call MPI_Win_flush(t, win, ierr)
  call MPI_Win_flush_local(t, win, ierr)
  call MPI_Win_unlock(t, win, ierr)
  call need(ga == 1000 * t + 4 .and. fo == 1000 * t + 5 .and. cs == 1000 * t + 6, 'lock epoch results')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call need(wbuf(4) == 1000 * r + 9 .and. wbuf(5) == 1000 * r + 6 .and. wbuf(6) == 7, 'lock epoch')

  t = mod(r + 3, n)
  call MPI_Win_lock_all(0, win, ierr)
  call MPI_Rput(x, 1, MPI_INTEGER, t, 6_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, rq(1), ierr)
  call MPI_Rget(g2, 1, MPI_INTEGER, t, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, rq(2), ierr)
  call MPI_Raccumulate(one, 1, MPI_INTEGER, t, 7_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win, &
                       rq(3), ierr)
  call MPI_Rget_accumulate(one, 1, MPI_INTEGER, g3, 1, MPI_INTEGER, t, 1_MPI_ADDRESS_KIND, 1, &
                           MPI_INTEGER, MPI_NO_OP, win, rq(4), ierr)
  call MPI_Waitall(4, rq, MPI_STATUSES_IGNORE, ierr)
  call MPI_Win_flush_all(win, ierr)
  call MPI_Win_flush_local_all(win, ierr)
  call MPI_Win_unlock_all(win, ierr)
  call need(g2 == mod(t + n - 1, n) .and. g3 == 1000 * t + 2, 'lock_all results')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call need(wbuf(7) == right .and. wbuf(8) == 1000 * r + 9, 'lock_all epoch')

  ! post/start/complete: odd ranks put into their even partner's window
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
  call MPI_Group_incl(wgroup, 1, [nb], pgroup, ierr)
  if (mod(r, 2) == 0) then
    call MPI_Win_post(pgroup, 0, win, ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Win_test(win, flag, ierr)
      rma_polls = rma_polls + 1
    end do
  else
    call MPI_Win_start(pgroup, 0, win, ierr)
    call MPI_Put(x, 1, MPI_INTEGER, nb, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_complete(win, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (mod(r, 2) == 0) call need(wbuf(2) == nb, 'post/start epoch')
  ! and back: even ranks put into their odd partner's window, which waits
  if (mod(r, 2) == 1) then
    call MPI_Win_post(pgroup, 0, win, ierr)
    call MPI_Win_wait(win, ierr)
    call need(wbuf(2) == nb, 'post/wait epoch')
  else
    call MPI_Win_start(pgroup, 0, win, ierr)
    call MPI_Put(x, 1, MPI_INTEGER, nb, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_complete(win, ierr)
  end if
  call MPI_Group_free(pgroup, ierr)
  call MPI_Group_free(wgroup, ierr)
  call MPI_Win_free(win, ierr)

  write (*, '(a,i0,a,i0)') 'rank ', r, ' polls ', polls
  write (*, '(a,i0,a,i0)') 'rank ', r, ' rma_polls ', rma_polls
  call MPI_Finalize(ierr)
  if (ierr /= MPI_SUCCESS) error stop 'calls_f: MPI_Finalize failed'

contains

#include "fortran_need.h"

end program calls_f
