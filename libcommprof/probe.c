/*
 * probe.c: not part of the library.  configure compiles it with the MPI's
 * flags once per block of MPI-4 calls in wrappers.def, after defining
 * CP_HAVE_<block> (and the blocks found before it) to 1: it compiles
 * where the MPI declares every function the table then lists, as
 * PMPI_NAME, or with CP_PROBE_LARGE every large-count variant PMPI_NAME_c
 * of the rows that have one.  So what configure finds is read from the
 * table that wrappers.c expands, never from a second list.
 */
#include <mpi.h>

#if !defined(CP_PROBE_LARGE) && !CP_HAVE_ISENDRECV && !CP_HAVE_PARTITIONED && \
    !CP_HAVE_COLL_INIT && !CP_HAVE_MPIX_COLL_INIT
#error "no block to probe"
#endif

#define REF(NAME) (void)&PMPI_##NAME;
#if CP_HAVE_COLL_INIT && CP_HAVE_MPIX_COLL_INIT
#error "MPIX_NAME_init are wrapped only where MPI_NAME_init are not"
#elif CP_HAVE_COLL_INIT
#define INIT REF
#elif CP_HAVE_MPIX_COLL_INIT
#include <mpi-ext.h>
#define INIT(NAME) (void)&PMPIX_##NAME;
#else
#define INIT(NAME)
#endif
#ifdef CP_PROBE_LARGE
#define CP_COUNT MPI_Count
#define CP_DISPL MPI_Aint
#define W(...)
#define WC(NAME, ...) REF(NAME##_c)
#define WCOLL(NAME, INAME, ...) REF(NAME##_c) REF(INAME##_c) INIT(NAME##_init_c)
#define WINIT(...)
#else
#define CP_COUNT int
#define CP_DISPL int
#define W(NAME, ...) REF(NAME)
#define WC W
#define WCOLL(NAME, INAME, ...) REF(NAME) REF(INAME) INIT(NAME##_init)
#define WINIT(NAME, ...) INIT(NAME)
#endif
#define WMC WC
#define WI W
#define WIC WC

int main(void)
{
#include "wrappers.def"
    return 0;
}
