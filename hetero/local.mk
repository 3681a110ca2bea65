# libhetero: heterogeneous placement (node description, calibration, cost
# model, search, placement files) and its commands topomap-place,
# topomap-exec and memprobe.
lib_LTLIBRARIES += hetero/libhetero.la
topomapinclude_HEADERS += hetero/hetero.h
pkgconfig_DATA += hetero/hetero.pc

hetero_libhetero_la_SOURCES = \
	hetero/hetero.h hetero/ht_internal.h \
	hetero/names.c hetero/json.c hetero/node.c hetero/memcal.c \
	hetero/input.c hetero/input_profile.c hetero/problem.c hetero/cost.c hetero/capacity.c \
	hetero/baseline.c hetero/state.c hetero/moves.c hetero/search.c \
	hetero/exhaustive.c \
	hetero/placement.c
hetero_libhetero_la_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(JANSSON_CFLAGS)
hetero_libhetero_la_LIBADD = taskgraph/libtaskgraph.la $(HWLOC_LIBS) \
	$(JANSSON_LIBS) -lm
hetero_libhetero_la_LDFLAGS = -version-info 0:0:0
EXTRA_DIST += hetero/hetero.pc.in hetero/README.md

# Commands.  taskgraph/cli.c holds the option and message helpers every
# topomap command shares.
HT_CMD_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/hetero
HT_CMD_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
HT_CMD_LDADD = hetero/libhetero.la taskgraph/libtaskgraph.la $(HWLOC_LIBS) -lm

bin_PROGRAMS += hetero/topomap-place
hetero_topomap_place_SOURCES = hetero/topomap-place.c hetero/ht_cli.c \
	hetero/ht_cli.h taskgraph/cli.c taskgraph/cli.h
hetero_topomap_place_CPPFLAGS = $(HT_CMD_CPPFLAGS)
hetero_topomap_place_CFLAGS = $(HT_CMD_CFLAGS)
hetero_topomap_place_LDADD = $(HT_CMD_LDADD)

# Tests.
HT_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/hetero
HT_TEST_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(CHECK_CFLAGS)
HT_TEST_LDADD = hetero/libhetero.la tests/libtestutil.la \
	taskgraph/libtaskgraph.la $(HWLOC_LIBS) $(CHECK_LIBS) -lm
HT_FIXTURE = tests/test_hetero_fixture.c tests/test_hetero_fixture.h

check_PROGRAMS += tests/test_hetero_search
tests_test_hetero_search_SOURCES = tests/test_hetero_search.c $(HT_FIXTURE)
tests_test_hetero_search_CPPFLAGS = $(HT_TEST_CPPFLAGS)
tests_test_hetero_search_CFLAGS = $(HT_TEST_CFLAGS)
tests_test_hetero_search_LDADD = $(HT_TEST_LDADD)
TESTS += tests/test_hetero_search

check_PROGRAMS += tests/test_hetero_node
tests_test_hetero_node_SOURCES = tests/test_hetero_node.c $(HT_FIXTURE)
tests_test_hetero_node_CPPFLAGS = $(HT_TEST_CPPFLAGS)
tests_test_hetero_node_CFLAGS = $(HT_TEST_CFLAGS)
tests_test_hetero_node_LDADD = $(HT_TEST_LDADD)
TESTS += tests/test_hetero_node

check_PROGRAMS += tests/test_hetero_xml
tests_test_hetero_xml_SOURCES = tests/test_hetero_xml.c $(HT_FIXTURE)
tests_test_hetero_xml_CPPFLAGS = $(HT_TEST_CPPFLAGS)
tests_test_hetero_xml_CFLAGS = $(HT_TEST_CFLAGS)
tests_test_hetero_xml_LDADD = $(HT_TEST_LDADD)
TESTS += tests/test_hetero_xml

bin_PROGRAMS += hetero/topomap-exec
hetero_topomap_exec_SOURCES = hetero/topomap-exec.c taskgraph/cli.c \
	taskgraph/cli.h
hetero_topomap_exec_CPPFLAGS = $(HT_CMD_CPPFLAGS)
hetero_topomap_exec_CFLAGS = $(HT_CMD_CFLAGS)
hetero_topomap_exec_LDADD = $(HT_CMD_LDADD)

# topomap-exec under mpirun: a program that reports its own binding.
check_PROGRAMS += tests/test_hetero_bindcheck
tests_test_hetero_bindcheck_SOURCES = tests/test_hetero_bindcheck.c
tests_test_hetero_bindcheck_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
tests_test_hetero_bindcheck_LDADD = $(HWLOC_LIBS)

AM_TESTS_ENVIRONMENT += \
	TOPOMAP_PLACE='$(abs_top_builddir)/hetero/topomap-place'; \
	TOPOMAP_EXEC='$(abs_top_builddir)/hetero/topomap-exec'; \
	HT_BINDCHECK='$(abs_top_builddir)/tests/test_hetero_bindcheck'; \
	MEMPROBE='$(abs_top_builddir)/hetero/memprobe'; \
	export TOPOMAP_PLACE TOPOMAP_EXEC HT_BINDCHECK MEMPROBE;
TESTS += tests/hetero_place.sh tests/hetero_exec.sh tests/hetero_memprobe.sh \
	tests/hetero_profile.sh tests/hetero_profile_mpi.sh
EXTRA_DIST += tests/hetero_place.sh tests/hetero_exec.sh tests/hetero_profile.sh \
	tests/hetero_profile_mpi.sh tests/hetero_input_check.py \
	tests/data/hetero_cpu.json tests/data/hetero_gpu.json \
	tests/hetero_memprobe.sh

# memprobe: the CPU part always; the CUDA part, compiled by nvcc, when
# configure found CUDA.
bin_PROGRAMS += hetero/memprobe
hetero_memprobe_SOURCES = hetero/memprobe.c hetero/memprobe.h \
	taskgraph/cli.c taskgraph/cli.h
hetero_memprobe_CPPFLAGS = $(HT_CMD_CPPFLAGS)
hetero_memprobe_CFLAGS = $(HT_CMD_CFLAGS)
hetero_memprobe_LDADD = $(HT_CMD_LDADD) $(PTHREAD_LIBS)
EXTRA_DIST += hetero/memprobe_cuda.cu
if HAVE_CUDA
HT_NVCCFLAGS = -O2 -Xcompiler -Wall -Xcompiler -Wextra
# nvcc's kernel-launch stubs are C++.
hetero_memprobe_LDADD += hetero/memprobe_cuda.$(OBJEXT) $(CUDA_LIBS) -lstdc++
EXTRA_hetero_memprobe_DEPENDENCIES = hetero/memprobe_cuda.$(OBJEXT)
CLEANFILES += hetero/memprobe_cuda.$(OBJEXT)
hetero/memprobe_cuda.$(OBJEXT): $(srcdir)/hetero/memprobe_cuda.cu \
		$(srcdir)/hetero/memprobe.h $(srcdir)/hetero/hetero.h
	@$(MKDIR_P) hetero
	$(AM_V_GEN)$(NVCC) $(HT_NVCCFLAGS) $(NVCCFLAGS) -I$(srcdir)/hetero \
		-I$(srcdir)/taskgraph $(HWLOC_CFLAGS) -c -o $@ \
		$(srcdir)/hetero/memprobe_cuda.cu
endif
