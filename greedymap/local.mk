# libgreedymap: the machine model (nodes, networks, distances, routes,
# shells), link loads, mapping files and metrics.
lib_LTLIBRARIES += greedymap/libgreedymap.la
topomapinclude_HEADERS += greedymap/greedymap.h
pkgconfig_DATA += greedymap/greedymap.pc

greedymap_libgreedymap_la_SOURCES = \
	greedymap/greedymap.h greedymap/gm_internal.h \
	greedymap/strmap.c greedymap/hostlist.c greedymap/machine.c \
	greedymap/network.c greedymap/placement.c greedymap/route.c \
	greedymap/net_flat.c greedymap/net_torus.c greedymap/net_dragonfly.c \
	greedymap/xgraph.c greedymap/net_fattree.c greedymap/net_graph.c \
	greedymap/explicit.c greedymap/shells.c greedymap/loads.c \
	greedymap/mapping.c greedymap/metrics.c \
	greedymap/nodetopo.c greedymap/baseline.c greedymap/hilbert.c \
	greedymap/bisect.c greedymap/grid.c greedymap/decompose.c \
	greedymap/decompose_fold.c greedymap/decompose_map.c greedymap/best.c \
	greedymap/metisgraph.c greedymap/order.c greedymap/order_gpart.c \
	greedymap/order_parts.c \
	greedymap/order_file.c greedymap/config.c greedymap/greedy_near.c \
	greedymap/greedy.c greedymap/refine.c greedymap/levels.c \
	greedymap/slots.c \
	greedymap/refine_nodes.c greedymap/refine_tasks.c
greedymap_libgreedymap_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
greedymap_libgreedymap_la_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
greedymap_libgreedymap_la_LIBADD = taskgraph/libtaskgraph.la $(HWLOC_LIBS) \
	$(METIS_LIBS) -lm
greedymap_libgreedymap_la_LDFLAGS = -version-info 0:0:0
EXTRA_DIST += greedymap/greedymap.pc.in greedymap/README.md

# The greedymap command; taskgraph's option helpers are compiled in.
bin_PROGRAMS += greedymap/greedymap
greedymap_greedymap_SOURCES = greedymap/cmd.h greedymap/cmd_main.c \
	greedymap/cmd_args.c greedymap/cmd_map.c greedymap/cmd_eval.c \
	taskgraph/cli.c taskgraph/cli.h
greedymap_greedymap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
greedymap_greedymap_LDADD = greedymap/libgreedymap.la \
	taskgraph/libtaskgraph.la -lm

check_PROGRAMS += tests/test_machine tests/test_metrics
tests_test_machine_SOURCES = tests/test_machine.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_machine_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_machine_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_machine_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
tests_test_metrics_SOURCES = tests/test_metrics.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_metrics_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_metrics_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_metrics_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
TESTS += tests/test_machine tests/test_metrics

check_PROGRAMS += tests/test_levels
tests_test_levels_SOURCES = tests/test_levels.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_levels_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_levels_CFLAGS = $(TG_TEST_CFLAGS) $(HWLOC_CFLAGS)
tests_test_levels_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD) $(HWLOC_LIBS)
TESTS += tests/test_levels

check_PROGRAMS += tests/test_baselines
tests_test_baselines_SOURCES = tests/test_baselines.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_baselines_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_baselines_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_baselines_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
TESTS += tests/test_baselines

check_PROGRAMS += tests/test_greedy tests/test_refine
tests_test_greedy_SOURCES = tests/test_greedy.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_greedy_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_greedy_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_greedy_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
tests_test_refine_SOURCES = tests/test_refine.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_refine_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_refine_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_refine_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
TESTS += tests/test_greedy tests/test_refine

check_PROGRAMS += tests/test_decompose
tests_test_decompose_SOURCES = tests/test_decompose.c tests/gm_testutil.c \
	tests/gm_testutil.h
tests_test_decompose_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap
tests_test_decompose_CFLAGS = $(TG_TEST_CFLAGS)
tests_test_decompose_LDADD = greedymap/libgreedymap.la $(TG_TEST_LDADD)
TESTS += tests/test_decompose
