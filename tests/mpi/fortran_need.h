  ! fortran_need.h: need(ok, what), #included after a test program's
  ! `contains`: a failed check prints what was wrong and ends the run
  ! (r is the program's rank).
  subroutine need(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: e
    if (.not. ok) then
      write (*, '(a,i0,a,a)') 'rank ', r, ': wrong ', what
      call MPI_Abort(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine need
