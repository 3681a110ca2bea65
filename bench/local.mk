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
