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

# heat (a 2-D Jacobi stencil, CPU or GPU variant and memory kind from
# TOPOMAP_PROC_KIND and TOPOMAP_MEM_KIND): checked by tests/examples_heat.sh.
# The CUDA variant is compiled by nvcc when configure found CUDA;
# -fmad=false keeps its arithmetic that of the CPU variant.
noinst_PROGRAMS += examples/heat
examples_heat_SOURCES = examples/heat.c examples/heat.h examples/heat_cpu.c \
	examples/example_mix.h $(EXAMPLE_ARGS)
examples_heat_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_heat_LDADD = $(MPI_LIBS)
EXTRA_DIST += examples/heat_cuda.cu
if HAVE_CUDA
HEAT_NVCCFLAGS = -O2 -fmad=false -Xcompiler -Wall -Xcompiler -Wextra
# nvcc's kernel-launch stubs are C++.
examples_heat_LDADD += examples/heat_cuda.$(OBJEXT) $(CUDA_LIBS) -lstdc++
EXTRA_examples_heat_DEPENDENCIES = examples/heat_cuda.$(OBJEXT)
CLEANFILES += examples/heat_cuda.$(OBJEXT)
examples/heat_cuda.$(OBJEXT): $(srcdir)/examples/heat_cuda.cu \
		$(srcdir)/examples/heat.h
	@$(MKDIR_P) examples
	$(AM_V_GEN)$(NVCC) $(HEAT_NVCCFLAGS) $(NVCCFLAGS) -c -o $@ \
		$(srcdir)/examples/heat_cuda.cu
endif
