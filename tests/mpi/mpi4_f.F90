! mpi4_f.F90: MPI-4 calls from `use mpi_f08`, for tests/commprof_mpi4.sh
! (commprof_check.py mpi4_f): built where mpifort works and the MPI has the
! persistent collectives and the large-count calls (MPICH 4 here).  On 4
! ranks: MPI_Barrier_init started twice (MPICH's f08 binding calls
! PMPI_Barrier_init: libcommprof's Fortran row records it); MPI_Send and
! MPI_Recv of 6 INTEGERs (24 B) to r+1 with an INTEGER(MPI_COUNT_KIND)
! count, and MPI_Allreduce of 3 INTEGERs (12 B) with one (the binding
! calls MPI_Send_c and friends, which the C wrappers record); an
! MPI_Bcast_init of 5 INTEGERs (20 B) from rank 1, started once.
program mpi4_f
  use mpi_f08
  implicit none
  integer :: r, n, i, a(6), b(6), x(3), y(3), c(5)
  integer(kind=MPI_COUNT_KIND) :: k
  type(MPI_Request) :: q

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, r)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  call MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, q)
  do i = 1, 2
    call MPI_Start(q)
    call MPI_Wait(q, MPI_STATUS_IGNORE)
  end do
  call MPI_Request_free(q)

  a = r
  k = 6
  if (mod(r, 2) == 0) then
    call MPI_Send(a, k, MPI_INTEGER, mod(r + 1, n), 0, MPI_COMM_WORLD)
    call MPI_Recv(b, k, MPI_INTEGER, mod(r + n - 1, n), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  else
    call MPI_Recv(b, k, MPI_INTEGER, mod(r + n - 1, n), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Send(a, k, MPI_INTEGER, mod(r + 1, n), 0, MPI_COMM_WORLD)
  end if
  if (b(6) /= mod(r + n - 1, n)) stop 1
  x = 1
  k = 3
  call MPI_Allreduce(x, y, k, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (y(3) /= n) stop 2

  c = r
  call MPI_Bcast_init(c, 5, MPI_INTEGER, 1, MPI_COMM_WORLD, MPI_INFO_NULL, q)
  call MPI_Start(q)
  call MPI_Wait(q, MPI_STATUS_IGNORE)
  call MPI_Request_free(q)
  if (c(5) /= 1) stop 3
  print '(a, i0, a)', 'rank ', r, ' ok'
  call MPI_Finalize()
end program mpi4_f
