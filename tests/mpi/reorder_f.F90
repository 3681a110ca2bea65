! reorder_f.F90: libtopomap-reorder from Fortran, 8 ranks: built with
! `use mpi` and, with -DF08, with `use mpi_f08`.  MPI_Cart_create of a 4x2
! grid and MPI_Dist_graph_create_adjacent of the Wagner graph (ring and
! chord i+4, MPI_UNWEIGHTED), both with reorder = .true.  Checks on every
! rank: Cart_rank(Cart_coords(r)) = r, Cart_shift against the coordinates,
! the dist graph's neighbours are task r's in order.  Rank 0 prints the
! world rank of every rank of each result ("cart map ...", "dist map ...")
! and "failures N" (N summed over ranks); exit status 1 when N > 0.
program reorder_f
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
#ifdef F08
  type(MPI_Comm) :: cart, dist
#else
  integer :: cart, dist
#endif
  integer :: ierr, me, r, d, src, dst, back, indeg, outdeg, failures
  integer :: dims(2), coords(2), world(8), nbr(3), want(3)
  integer :: srcs(3), dsts(3), sw(3), dw(3)
  logical :: periods(2), weighted

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  failures = 0

  dims = (/ 4, 2 /)
  periods = (/ .false., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., cart, ierr)
  if (ierr /= MPI_SUCCESS) failures = failures + 1
  call MPI_Comm_rank(cart, r, ierr)
  call MPI_Cart_coords(cart, r, 2, coords, ierr)
  call MPI_Cart_rank(cart, coords, back, ierr)
  if (back /= r) failures = failures + 1
  do d = 0, 1
    call MPI_Cart_shift(cart, d, 1, src, dst, ierr)
    if (coords(d + 1) == 0) then
      if (src /= MPI_PROC_NULL) failures = failures + 1
    else if (d == 0) then
      if (src /= r - 2) failures = failures + 1
    else
      if (src /= r - 1) failures = failures + 1
    end if
    if (coords(d + 1) == dims(d + 1) - 1) then
      if (dst /= MPI_PROC_NULL) failures = failures + 1
    else if (d == 0) then
      if (dst /= r + 2) failures = failures + 1
    else
      if (dst /= r + 1) failures = failures + 1
    end if
  end do
  call MPI_Allgather(me, 1, MPI_INTEGER, world, 1, MPI_INTEGER, cart, ierr)
  if (r == 0) print '(a,8(1x,i0))', 'cart map', world

  nbr = (/ mod(me + 7, 8), mod(me + 1, 8), mod(me + 4, 8) /)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, nbr, &
       MPI_UNWEIGHTED, 3, nbr, MPI_UNWEIGHTED, MPI_INFO_NULL, .true., &
       dist, ierr)
  if (ierr /= MPI_SUCCESS) failures = failures + 1
  call MPI_Comm_rank(dist, r, ierr)
  call MPI_Dist_graph_neighbors_count(dist, indeg, outdeg, weighted, ierr)
  if (indeg /= 3 .or. outdeg /= 3 .or. weighted) failures = failures + 1
  call MPI_Dist_graph_neighbors(dist, 3, srcs, sw, 3, dsts, dw, ierr)
  want = (/ mod(r + 7, 8), mod(r + 1, 8), mod(r + 4, 8) /)
  if (any(srcs /= want) .or. any(dsts /= want)) failures = failures + 1
  call MPI_Allgather(me, 1, MPI_INTEGER, world, 1, MPI_INTEGER, dist, ierr)
  if (r == 0) print '(a,8(1x,i0))', 'dist map', world

  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_free(dist, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, &
       MPI_COMM_WORLD, ierr)
  if (me == 0) print '(a,i0)', 'failures ', failures
  call MPI_Finalize(ierr)
  if (failures > 0) stop 1
end program reorder_f
