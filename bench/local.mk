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

# taskgraph build on LAMMPS peptide, with topomap-plot pictures (a script).
EXTRA_DIST += bench/lammps_build.sh
