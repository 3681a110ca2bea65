! fortran_mpi.h: what the Fortran test programs share, for `use mpi` and,
! when built with -DF08, `use mpi_f08` (#included before the program):
! USE_MPI, declarations of handles and statuses, and their fields.
#ifdef F08
#define USE_MPI use mpi_f08
#define HANDLE(T) type(T)
#define STATUS_DECL(x) type(MPI_Status) :: x
#define STATUSES_DECL(x, n) type(MPI_Status) :: x(n)
#define FIELD(st, f) st%f
#define AFIELD(st, k, f) st(k)%f
#else
#define USE_MPI use mpi
#define HANDLE(T) integer
#define STATUS_DECL(x) integer :: x(MPI_STATUS_SIZE)
#define STATUSES_DECL(x, n) integer :: x(MPI_STATUS_SIZE, n)
#define FIELD(st, f) st(f)
#define AFIELD(st, k, f) st(f, k)
#endif
