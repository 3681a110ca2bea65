# libtopomap-reorder: MPI's topology constructors with reorder = 1 mapped
# by greedymap (PMPI; LD_PRELOAD or link it).  Built with Open MPI's flags.
lib_LTLIBRARIES += reorder/libtopomap-reorder.la
reorder_libtopomap_reorder_la_SOURCES = reorder/ro_internal.h \
	reorder/wrappers.c reorder/construct.c reorder/plan.c \
	reorder/rebuild.c reorder/hosts.c reorder/taskgraph.c \
	reorder/mapper.c reorder/report.c reorder/cores.c
# The Fortran bindings: none under the MPI 5 standard ABI, whose C header
# has no Fortran types (as libcommprof's).
if !MPI_ABI
reorder_libtopomap_reorder_la_SOURCES += reorder/fortran.c
endif
EXTRA_DIST += reorder/fortran.c
reorder_libtopomap_reorder_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/greedymap
reorder_libtopomap_reorder_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) \
	$(HWLOC_CFLAGS)
reorder_libtopomap_reorder_la_LIBADD = greedymap/libgreedymap.la \
	taskgraph/libtaskgraph.la $(MPI_LIBS) $(HWLOC_LIBS)
# Only the MPI entry points are exported: nothing of the library can
# clash with an application's own symbols.
reorder_libtopomap_reorder_la_LDFLAGS = -version-info 0:0:0 \
	-export-symbols-regex '^(MPI|mpi)_'
EXTRA_DIST += reorder/README.md

# Its MPI tests: programs that check the returned communicators and the
# bytes crossing (pretend) hosts exactly, run by tests/reorder_*.sh.
check_PROGRAMS += tests/mpi/reorder_cart tests/mpi/reorder_graph \
	tests/mpi/reorder_errors
tests_mpi_reorder_cart_SOURCES = tests/mpi/reorder_cart.c \
	tests/mpi/reorder_check.c tests/mpi/reorder_check.h
tests_mpi_reorder_cart_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_mpi_reorder_cart_LDADD = $(MPI_LIBS)
tests_mpi_reorder_graph_SOURCES = tests/mpi/reorder_graph.c \
	tests/mpi/reorder_check.c tests/mpi/reorder_check.h
tests_mpi_reorder_graph_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_mpi_reorder_graph_LDADD = $(MPI_LIBS)
tests_mpi_reorder_errors_SOURCES = tests/mpi/reorder_errors.c
tests_mpi_reorder_errors_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_mpi_reorder_errors_LDADD = $(MPI_LIBS)
if HAVE_MPIFORT
check_SCRIPTS += tests/mpi/reorder_f tests/mpi/reorder_f08
REORDER_F = $(abs_top_builddir)/tests/mpi/reorder_f
REORDER_F08 = $(abs_top_builddir)/tests/mpi/reorder_f08
else
REORDER_F =
REORDER_F08 =
endif
tests/mpi/reorder_f: tests/mpi/reorder_f.F90
	$(AM_V_GEN)$(MKDIR_P) tests/mpi && $(MPIFORT) -Wall -o $@ $(srcdir)/tests/mpi/reorder_f.F90
tests/mpi/reorder_f08: tests/mpi/reorder_f.F90
	$(AM_V_GEN)$(MKDIR_P) tests/mpi && $(MPIFORT) -Wall -DF08 -o $@ $(srcdir)/tests/mpi/reorder_f.F90
CLEANFILES += tests/mpi/reorder_f tests/mpi/reorder_f08
AM_TESTS_ENVIRONMENT += \
	REORDER_LIB='$(abs_top_builddir)/reorder/.libs/libtopomap-reorder.so'; \
	REORDER_F='$(REORDER_F)'; REORDER_F08='$(REORDER_F08)'; \
	export REORDER_LIB REORDER_F REORDER_F08;
REORDER_TESTS = tests/reorder_cart.sh tests/reorder_graph.sh \
	tests/reorder_errors.sh tests/reorder_fortran.sh \
	tests/reorder_cores.sh tests/cluster_reorder.sh
TESTS += $(REORDER_TESTS)
EXTRA_DIST += $(REORDER_TESTS) tests/reorder_lib.sh tests/mpi/reorder_f.F90

# Its cost: bench/reorder.sh runs bench/reorder_time (bench/README.md).
noinst_PROGRAMS += bench/reorder_time
bench_reorder_time_SOURCES = bench/reorder_time.c
bench_reorder_time_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_reorder_time_LDADD = $(MPI_LIBS)
EXTRA_DIST += bench/reorder.sh
.PHONY: bench-reorder
bench-reorder: bench/reorder_time reorder/libtopomap-reorder.la
	$(srcdir)/bench/reorder.sh --lib reorder/.libs/libtopomap-reorder.so \
	  --prog bench/reorder_time
bench: bench-reorder
dist_man_MANS += doc/libtopomap-reorder.7
# ... and on the emulated cluster: bench/reorder_cluster.sh runs
# bench/reorder_halo with MPI's reorder, topomap's and treematch.
noinst_PROGRAMS += bench/reorder_halo
bench_reorder_halo_SOURCES = bench/reorder_halo.c
bench_reorder_halo_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_reorder_halo_LDADD = $(MPI_LIBS)
EXTRA_DIST += bench/reorder_cluster.sh
