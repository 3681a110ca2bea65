# make check: check unit tests per library area, and command-level tests.
TEST_EXTENSIONS = .sh
# Every test runs under a time limit (tests/time-limit.sh says why).
LOG_COMPILER = bash $(abs_top_srcdir)/tests/time-limit.sh
SH_LOG_COMPILER = bash $(abs_top_srcdir)/tests/time-limit.sh bash
AM_TESTS_ENVIRONMENT = \
	TASKGRAPH='$(abs_top_builddir)/taskgraph/taskgraph'; \
	GREEDYMAP='$(abs_top_builddir)/greedymap/greedymap'; export GREEDYMAP; \
	TOPOMAP_SRCDIR='$(abs_top_srcdir)'; \
	TOPOMAP_DATA='$(abs_top_srcdir)/tests/data'; \
	TOPOMAP_SHARED='$(abs_top_srcdir)/../shared'; \
	GRAPHCHK='$(GRAPHCHK)'; SCOTCH_GTST='$(SCOTCH_GTST)'; \
	SCOTCH_GCV='$(SCOTCH_GCV)'; \
	COMMPROF_LIB='$(abs_top_builddir)/libcommprof/.libs/libcommprof.so'; \
	MPICOUNT_LIB='$(abs_top_builddir)/bench/.libs/libmpicount.so'; export MPICOUNT_LIB; \
	MPIEXEC='$(MPIEXEC)'; MPIEXEC_KIND='$(MPIEXEC_KIND)'; MPI_IMPL='$(MPI_IMPL)'; \
	MPI_IMPL_VERSION='$(MPI_IMPL_VERSION)'; export MPIEXEC MPIEXEC_KIND MPI_IMPL MPI_IMPL_VERSION; \
	COMMPROF_PRELOAD='$(SANITIZE_PRELOAD)$(abs_top_builddir)/libcommprof/.libs/libcommprof.so'; \
	SANITIZE_PRELOAD='$(SANITIZE_PRELOAD)'; export COMMPROF_PRELOAD SANITIZE_PRELOAD; \
	PATTERN='$(abs_top_builddir)/tests/mpi/pattern'; \
	MPI_TESTS='$(abs_top_builddir)/tests/mpi'; export MPI_TESTS; \
	PATTERN_F='$(PATTERN_F)'; PATTERN_F08='$(PATTERN_F08)'; export PATTERN_F PATTERN_F08; \
	CALLS_F='$(CALLS_F)'; CALLS_F08='$(CALLS_F08)'; export CALLS_F CALLS_F08; \
	MPI4_F='$(MPI4_F)'; export MPI4_F; \
	COMMPROF_RUN='$(abs_top_builddir)/scripts/commprof-run'; export COMMPROF_RUN; \
	PARMAPPER='$(abs_top_builddir)/parmapper/parmapper'; export PARMAPPER; \
	EXAMPLES='$(abs_top_builddir)/examples'; export EXAMPLES; \
	TOPOMAP_RUN='$(abs_top_builddir)/scripts/topomap-run'; \
	TOPOMAP_SELECT_GRAPH='$(abs_top_builddir)/scripts/topomap-select-graph'; \
	export TOPOMAP_RUN TOPOMAP_SELECT_GRAPH; \
	export TASKGRAPH TOPOMAP_SRCDIR TOPOMAP_DATA TOPOMAP_SHARED GRAPHCHK \
	SCOTCH_GTST SCOTCH_GCV COMMPROF_LIB PATTERN;

# COMMPROF_PRELOAD: what LD_PRELOAD of a profiled MPI program is, the
# library after the ASan runtime in a sanitized build (configure.ac says
# why).  There the sanitizers' options come from tests/sanitize/ too.
if SANITIZE
AM_TESTS_ENVIRONMENT += . $(abs_top_srcdir)/tests/sanitize/env.sh;
endif
sanitize-clean:
	rm -rf tests/sanitize-bin
clean-local: sanitize-clean
.PHONY: sanitize-clean
EXTRA_DIST += tests/sanitize/env.sh tests/sanitize/mpi-program tests/time-limit.sh \
	tests/failed-log.sh

check_LTLIBRARIES = tests/libtestutil.la
tests_libtestutil_la_SOURCES = tests/testutil.c tests/testutil.h
tests_libtestutil_la_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)

TG_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TG_TEST_LDADD = tests/libtestutil.la taskgraph/libtaskgraph.la $(CHECK_LIBS)

check_PROGRAMS += tests/test_graph tests/test_formats tests/test_generators
tests_test_graph_SOURCES = tests/test_graph.c
tests_test_graph_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_graph_LDADD = $(TG_TEST_LDADD)
tests_test_formats_SOURCES = tests/test_formats.c
tests_test_formats_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_formats_LDADD = $(TG_TEST_LDADD)
tests_test_generators_SOURCES = tests/test_generators.c
tests_test_generators_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_generators_LDADD = $(TG_TEST_LDADD) -lm

TESTS += tests/test_graph tests/test_formats tests/test_generators \
	tests/cli_taskgraph.sh tests/cli_bad_input.sh tests/references.sh
EXTRA_DIST += tests/cli_taskgraph.sh tests/cli_bad_input.sh \
	tests/references.sh tests/lib.sh tests/install-check.sh

# Profiles: reader, matrix, info, merge (taskgraph/profile*.c,
# cmd_profile.c), on hand-written fixtures and on a profiled MPI run.
check_PROGRAMS += tests/test_profile
tests_test_profile_SOURCES = tests/test_profile.c
tests_test_profile_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_profile_LDADD = $(TG_TEST_LDADD)
TESTS += tests/test_profile tests/cli_profile.sh

# taskgraph build (taskgraph/build*.c, collmodel*.c, cmd_build.c): the
# models and the build on hand-written profiles, the command, and
# examples/qboxlike profiled at 16 ranks and built.
check_PROGRAMS += tests/test_build
tests_test_build_SOURCES = tests/test_build.c
tests_test_build_CFLAGS = $(TG_TEST_CFLAGS) $(JANSSON_CFLAGS)
tests_test_build_LDADD = $(TG_TEST_LDADD) $(JANSSON_LIBS) -lm
TESTS += tests/test_build tests/cli_build.sh tests/build_mpi.sh
EXTRA_DIST += tests/cli_build.sh tests/build_mpi.sh \
	tests/data/build_p2p.json tests/data/build_qbox.json \
	tests/data/build_minshare.json tests/data/build_coll4.json \
	tests/data/build_coll8.json
EXTRA_DIST += tests/cli_profile.sh tests/data/profile_4.json \
	tests/data/profile_4.json.rank0 tests/data/profile_4.json.rank1 \
	tests/data/profile_4.json.rank2 tests/data/profile_4.json.rank3 \
	tests/data/profile_bad_version.json tests/data/profile_truncated.json \
	tests/data/profile_rank_range.json tests/data/profile_member_type.json

# commprof-run, the wrapper that preloads libcommprof (scripts/).
TESTS += tests/cli_commprof_run.sh
EXTRA_DIST += tests/cli_commprof_run.sh

TESTS += tests/cli_greedymap.sh
EXTRA_DIST += tests/cli_greedymap.sh

# Small hostile files (huge declared counts, hostlists) refused cheaply.
TESTS += tests/cli_limits.sh
EXTRA_DIST += tests/cli_limits.sh

# parmapper: the Pareto front and selection, gm_greedymap_run (check),
# and the program under mpirun (tests/parmapper_*.sh, checked by
# tests/parmapper_check.py); tests/mpi/whereami reports bindings.
check_PROGRAMS += tests/test_parmapper tests/mpi/whereami
tests_test_parmapper_SOURCES = tests/test_parmapper.c parmapper/pareto.c \
	parmapper/pareto.h
tests_test_parmapper_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap \
	-I$(top_srcdir)/parmapper
tests_test_parmapper_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_parmapper_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
tests_mpi_whereami_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(HWLOC_CFLAGS)
tests_mpi_whereami_LDADD = $(MPI_LIBS) $(HWLOC_LIBS)
PM_TESTS = tests/parmapper_same.sh tests/parmapper_offline.sh \
	tests/parmapper_hetero.sh tests/parmapper_hetero_mpi.sh \
	tests/parmapper_rankfile.sh tests/parmapper_errors.sh \
	tests/parmapper_signals.sh tests/parmapper_progress.sh \
	tests/parmapper_levels.sh tests/parmapper_default.sh
TESTS += tests/test_parmapper $(PM_TESTS)
EXTRA_DIST += $(PM_TESTS) tests/parmapper_lib.sh tests/parmapper_check.py \
	tests/mpi_lib.sh

# libcommprof's Fortran wrappers: tests/mpi/pattern_f.F90 and calls_f.F90,
# each built by mpifort with `use mpi` and with `use mpi_f08` (-DF08) when
# configure found a working one; else the program variables are empty and
# fortran_pattern.sh reports itself skipped.
FORTRAN_PROGS = tests/mpi/pattern_f tests/mpi/pattern_f08 tests/mpi/calls_f tests/mpi/calls_f08 \
	tests/mpi/phases_f tests/mpi/cart_f tests/mpi/cart_f08
if HAVE_MPIFORT
check_SCRIPTS += $(FORTRAN_PROGS)
PATTERN_F = $(abs_top_builddir)/tests/mpi/pattern_f
PATTERN_F08 = $(abs_top_builddir)/tests/mpi/pattern_f08
CALLS_F = $(abs_top_builddir)/tests/mpi/calls_f
CALLS_F08 = $(abs_top_builddir)/tests/mpi/calls_f08
else
PATTERN_F =
PATTERN_F08 =
CALLS_F =
CALLS_F08 =
endif
FORTRAN_INCLUDES = tests/mpi/fortran_mpi.h tests/mpi/fortran_need.h
FORTRAN_BUILD = $(AM_V_GEN)$(MKDIR_P) tests/mpi && $(MPIFORT) -Wall -o $@
tests/mpi/pattern_f: tests/mpi/pattern_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) $(srcdir)/tests/mpi/pattern_f.F90
tests/mpi/pattern_f08: tests/mpi/pattern_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) -DF08 $(srcdir)/tests/mpi/pattern_f.F90
tests/mpi/calls_f: tests/mpi/calls_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) $(srcdir)/tests/mpi/calls_f.F90
tests/mpi/calls_f08: tests/mpi/calls_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) -DF08 $(srcdir)/tests/mpi/calls_f.F90
tests/mpi/phases_f: tests/mpi/phases_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) $(srcdir)/tests/mpi/phases_f.F90
tests/mpi/cart_f: tests/mpi/cart_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) $(srcdir)/tests/mpi/cart_f.F90
tests/mpi/cart_f08: tests/mpi/cart_f.F90 $(FORTRAN_INCLUDES)
	$(FORTRAN_BUILD) -DF08 $(srcdir)/tests/mpi/cart_f.F90
CLEANFILES += $(FORTRAN_PROGS)
# tests/mpi/mpi4_f.F90 (`use mpi_f08`, MPI-4 calls) for commprof_mpi4.sh:
# only where mpifort works and the MPI has the persistent collectives and
# the large-count calls (MPICH 4 here).
if MPI4_FORTRAN
check_SCRIPTS += tests/mpi/mpi4_f
MPI4_F = $(abs_top_builddir)/tests/mpi/mpi4_f
else
MPI4_F =
endif
tests/mpi/mpi4_f: tests/mpi/mpi4_f.F90
	$(FORTRAN_BUILD) $(srcdir)/tests/mpi/mpi4_f.F90
CLEANFILES += tests/mpi/mpi4_f
EXTRA_DIST += tests/mpi/mpi4_f.F90
TESTS += tests/fortran_pattern.sh
EXTRA_DIST += tests/fortran_pattern.sh tests/mpi/pattern_f.F90 tests/mpi/calls_f.F90 \
	tests/mpi/phases_f.F90 tests/mpi/cart_f.F90 \
	$(FORTRAN_INCLUDES)

# The example applications (examples/): their profiles and checksums
# against tests/examples_check.py.
TESTS += tests/examples_mpi.sh
EXTRA_DIST += tests/examples_mpi.sh tests/examples_check.py

# examples/heat: checksum against tests/examples_check.py for any rank
# count and under topomap-exec, CPU ranks that never call CUDA, kinds
# refused; the GPU variant where the machine has a GPU.
TESTS += tests/examples_heat.sh
EXTRA_DIST += tests/examples_heat.sh

# The pipeline scripts: topomap-run, topomap-select-graph and
# topomap-plot pareto (scripts/), and the launcher command lines they run
# (scripts/launcher.sh).
PIPELINE_TESTS = tests/pipeline_run.sh tests/pipeline_select.sh \
	tests/pipeline_plot.sh tests/launcher_argv.sh
TESTS += $(PIPELINE_TESTS)
EXTRA_DIST += $(PIPELINE_TESTS) tests/pipeline_lib.sh

# The emulated cluster (scripts/topomap-cluster): a smoke test on 2 nodes,
# its life cycle on 4, and the pipeline across 4 hosts (profile, parmapper
# and its rankfile, topomap-run, topomap-select-graph); all skip (77) where
# namespaces cannot be made.
CLUSTER_TESTS = tests/cluster_smoke.sh tests/cluster_lifecycle.sh \
	tests/cluster_pipeline.sh
TESTS += $(CLUSTER_TESTS)
EXTRA_DIST += $(CLUSTER_TESTS) tests/cluster_lib.sh

# The emulated cluster under the configured MPI (Open MPI 4.1, Open MPI 5,
# MPICH's Hydra; scripts/check-mpis.sh runs it in each MPI's build): a
# launch across 4 nodes, parmapper in the job, and the application placed
# with parmapper's output for that MPI.  SKIP without root or namespaces.
TESTS += tests/cluster_mpis.sh
EXTRA_DIST += tests/cluster_mpis.sh

# Slurm on the emulated cluster (topomap-cluster up --slurm): salloc +
# mpirun with parmapper's rankfile, srun --distribution=arbitrary with its
# Slurm hostfile, topomap-run -- srun; tests/mpi/whereami --cpus --slurmd
# reports each rank's host, CPUs and slurmd from inside.  SKIP without
# root or without Slurm.
TESTS += tests/cluster_slurm.sh
EXTRA_DIST += tests/cluster_slurm.sh

# A real application profiled under the configured MPI: Debian's ScaLAPACK
# LU driver against bench/mpicount.c's count (skipped without it).
TESTS += tests/scalapack_lu.sh
EXTRA_DIST += tests/scalapack_lu.sh tests/scalapack_lib.sh tests/data/scalapack_lu.dat

# parmapper's Slurm binding when the nodes' cores differ (no map_cpu list
# fits): its topomap-exec placement, run by srun on 2 nodes (about 40 s).
TESTS += tests/cluster_levels.sh
EXTRA_DIST += tests/cluster_levels.sh
