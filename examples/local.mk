# examples: MPI applications with known communication patterns, used by
# the quickstart and the MPI tests (examples/README.md).
EXTRA_DIST += examples/README.md

# halo3d (3-D halo exchange on a periodic grid) and spmv (sparse
# matrix-vector product on a random geometric graph from libtaskgraph):
# checked by tests/examples_mpi.sh.  -no-install: no libtool wrapper
# script between mpirun and the program.
noinst_PROGRAMS += examples/halo3d examples/spmv
EXAMPLE_ARGS = examples/example_args.c examples/example_args.h
examples_halo3d_SOURCES = examples/halo3d.c $(EXAMPLE_ARGS)
examples_halo3d_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_halo3d_LDADD = $(MPI_LIBS)
examples_spmv_SOURCES = examples/spmv.c examples/example_mix.h $(EXAMPLE_ARGS)
examples_spmv_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_spmv_LDADD = taskgraph/libtaskgraph.la $(MPI_LIBS)
examples_spmv_LDFLAGS = -no-install

# qboxlike (Qbox's pattern: row halo, column Alltoall, global Allreduce):
# profiled and built by tests/build_mpi.sh.
noinst_PROGRAMS += examples/qboxlike
examples_qboxlike_SOURCES = examples/qboxlike.c $(EXAMPLE_ARGS)
examples_qboxlike_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_qboxlike_LDADD = $(MPI_LIBS)
