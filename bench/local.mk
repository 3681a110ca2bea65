# Benchmarks print figures beside a reference measured in the same run; they
# never pass or fail on time.  `make bench` builds and runs them.
noinst_PROGRAMS += bench/graph_io
bench_graph_io_SOURCES = bench/graph_io.c
bench_graph_io_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
bench_graph_io_LDADD = taskgraph/libtaskgraph.la $(JANSSON_LIBS) -lm
if HAVE_SCOTCH_LIB
bench_graph_io_CPPFLAGS = $(AM_CPPFLAGS) $(SCOTCH_CFLAGS) -DHAVE_SCOTCH_LIB=1
bench_graph_io_LDADD += $(SCOTCH_LIBS) -lz -lpthread
endif
EXTRA_DIST += bench/README.md

.PHONY: bench
bench: bench/graph_io
	GRAPHCHK='$(GRAPHCHK)' bench/graph_io

# What libcommprof costs: bench/pingpong and LAMMPS melt (when installed,
# scripts/install-bench-deps.sh), run with and without the preload.
noinst_PROGRAMS += bench/pingpong
bench_pingpong_SOURCES = bench/pingpong.c
bench_pingpong_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_pingpong_LDADD = $(MPI_LIBS)
EXTRA_DIST += bench/commprof.sh

.PHONY: bench-commprof
bench: bench-commprof
bench-commprof: bench/pingpong libcommprof/libcommprof.la
	$(srcdir)/bench/commprof.sh --lib libcommprof/.libs/libcommprof.so \
	  --pingpong bench/pingpong

# The mapping panel of issue 5: every GreedyMap configuration, the baselines
# and Scotch on the 14 cases of issues 5 and 12 (bench/README.md);
# bench/mapper.sh also checks that `greedymap eval` agrees with the bench's
# rows.
noinst_PROGRAMS += bench/mapper
bench_mapper_SOURCES = bench/mapper.c bench/bound.c bench/bound.h
bench_mapper_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap \
	-DREFMAP_SCRIPT='"$(abs_top_srcdir)/bench/refmap.py"' \
	-DBENCH_DATA='"$(abs_top_srcdir)/bench/data"'
bench_mapper_LDADD = greedymap/libgreedymap.la taskgraph/libtaskgraph.la -lm
if HAVE_SCOTCH_LIB
bench_mapper_CPPFLAGS += $(SCOTCH_CFLAGS) -DHAVE_SCOTCH_LIB=1
bench_mapper_LDADD += $(SCOTCH_LIBS) -lz -lpthread
endif
EXTRA_DIST += bench/mapper.sh bench/refmap.py bench/data/README.md \
	bench/data/lammps-peptide-32.tg.json bench/data/hpcc-32.tg.json

# The node shapes of stencil-fattree behind bench/README.md's "Lower
# bounds" (a script: python3 bench/stencil_shapes.py).
EXTRA_DIST += bench/stencil_shapes.py

# bench/bound.c (the lower bounds beside bench/mapper's rows) against brute
# force.
check_PROGRAMS += tests/test_bound
tests_test_bound_SOURCES = tests/test_bound.c bench/bound.c bench/bound.h
tests_test_bound_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bench
tests_test_bound_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_bound_LDADD = $(TG_TEST_LDADD)
TESTS += tests/test_bound

.PHONY: bench-mapper
bench: bench-mapper
# KaHIP and SharedMap rows when scripts/install-bench-deps.sh made their
# Python (MAPPER_REFERENCES to name another).
MAPPER_REFERENCES = /opt/topomap-bench/venv/bin/python
bench-mapper: bench/mapper greedymap/greedymap
	$(srcdir)/bench/mapper.sh --mapper bench/mapper \
	  --greedymap greedymap/greedymap \
	  $$(test -x '$(MAPPER_REFERENCES)' && echo --references '$(MAPPER_REFERENCES)') \
	  $(MAPPER_FLAGS)

# Slots chosen by the levels inside a node against the old slot order
# (issue 12; a script, bench/README.md).
EXTRA_DIST += bench/levels.sh
.PHONY: bench-levels
bench: bench-levels
bench-levels: greedymap/greedymap taskgraph/taskgraph parmapper/parmapper
	$(srcdir)/bench/levels.sh --greedymap greedymap/greedymap \
	  --taskgraph taskgraph/taskgraph --parmapper parmapper/parmapper

# Issue 12's scaling table (the default `greedymap map` against
# scotch_gmap on stencils 32^3 to 128^3 and a million-task random
# geometric graph) and parmapper's portfolio at 10 s against 60 s (a
# script, bench/README.md).  Not part of `make bench`: Scotch alone takes
# about 15 minutes of CPU (9 at 128^3).  SCALE_FLAGS passes options.
EXTRA_DIST += bench/scale.sh bench/scale_repair.py
.PHONY: bench-scale
bench-scale: greedymap/greedymap taskgraph/taskgraph parmapper/parmapper
	$(srcdir)/bench/scale.sh --greedymap greedymap/greedymap \
	  --taskgraph taskgraph/taskgraph --parmapper parmapper/parmapper \
	  --mpirun '$(MPIEXEC)' $(SCALE_FLAGS)

# taskgraph build on LAMMPS peptide, with topomap-plot pictures (a script).
EXTRA_DIST += bench/lammps_build.sh bench/figures/lammps-peptide-matrix.png

# examples/heat in the all-cpu, gpu-first and ccd placements, on a machine
# with a GPU (a script; bench/README.md).
EXTRA_DIST += bench/hetero_gpu.sh

# parmapper's quality against --time and ranks on milc and qbox-wsum, beside
# the best single member of its portfolio (checked against bench/mapper's
# rows and greedymap map for the refined baselines) and Scotch.
EXTRA_DIST += bench/parmapper.py

.PHONY: bench-parmapper
bench: bench-parmapper
bench-parmapper: bench/mapper parmapper/parmapper taskgraph/taskgraph \
	  greedymap/greedymap
	python3 $(srcdir)/bench/parmapper.py --mapper bench/mapper \
	  --parmapper parmapper/parmapper --taskgraph taskgraph/taskgraph \
	  --greedymap greedymap/greedymap \
	  --mpirun '$(MPIEXEC)' $(PARMAPPER_FLAGS)

# The application on the emulated cluster (issue 16): the default mapping, a
# bad one and topomap's under three placements, two networks and two link
# rates (bench/README.md).  bench/libmpitime.so is the PMPI preload that
# times MPI_Init to MPI_Finalize and records each rank's host; -rpath makes
# libtool build it shared although it is not installed.
noinst_LTLIBRARIES = bench/libmpitime.la
bench_libmpitime_la_SOURCES = bench/mpitime.c
bench_libmpitime_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_libmpitime_la_LIBADD = $(MPI_LIBS)
bench_libmpitime_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/bench/.libs
EXTRA_DIST += bench/cluster.sh

# Not part of `make bench`: it needs root and about half an hour.
# CLUSTER_FLAGS passes options, e.g. CLUSTER_FLAGS="--matrix full --repeat 5".
.PHONY: bench-cluster
bench-cluster: bench/libmpitime.la libcommprof/libcommprof.la parmapper/parmapper \
	  taskgraph/taskgraph greedymap/greedymap examples/qboxlike examples/halo3d \
	  examples/spmv $(TOPOMAP_RUN_GENERATED) scripts/commprof-run
	$(srcdir)/bench/cluster.sh --build . $(CLUSTER_FLAGS)

# bench/libmpicount.so: the reference count of an application's MPI calls
# and sent bytes, loaded in front of libcommprof (bench/mpicount.c); built
# like libmpitime, for tests/scalapack_lu.sh and bench/mpich_app.sh.
noinst_LTLIBRARIES += bench/libmpicount.la
bench_libmpicount_la_SOURCES = bench/mpicount.c
bench_libmpicount_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_libmpicount_la_LIBADD = $(MPI_LIBS)
bench_libmpicount_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/bench/.libs

# Issue 14: a real application Debian ships for MPICH (its ScaLAPACK LU
# driver) profiled by libcommprof built against MPICH 4.0, checked against
# libmpicount, Open MPI's run of the same driver and its pml monitoring,
# and timed with and without the preload (bench/mpich_app.sh, about a
# minute).  Run from the Open MPI 4.1 build; MPICH_APP_BUILD is the build
# configured with mpicc.mpich (scripts/check-mpis.sh mpich4 makes it),
# whose libraries and bench/pingpong are brought up to date here; it installs nothing.
# MPICH_APP_FLAGS passes options (--runs N).
MPICH_APP_BUILD = $(abs_top_srcdir)/build-mpis/mpich4
EXTRA_DIST += bench/mpich_app.sh
.PHONY: check-mpich-app
check-mpich-app: libcommprof/libcommprof.la bench/libmpicount.la bench/pingpong
	@test -f '$(MPICH_APP_BUILD)/Makefile' || { echo "check-mpich-app: no MPICH build in $(MPICH_APP_BUILD): run scripts/check-mpis.sh mpich4 first, or set MPICH_APP_BUILD" >&2; exit 2; }
	$(MAKE) -C '$(MPICH_APP_BUILD)' libcommprof/libcommprof.la bench/libmpicount.la \
	  bench/pingpong
	$(srcdir)/bench/mpich_app.sh --ompi-build . --mpich-build '$(MPICH_APP_BUILD)' \
	  $(MPICH_APP_FLAGS)
