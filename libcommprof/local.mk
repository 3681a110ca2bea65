# libcommprof: the PMPI profiler, built with the configured MPI's flags.
# Installed as $(libdir)/libcommprof.so, or, configured with
# --with-commprof-suffix=S (a second MPI beside the default), in its own
# folder $(libdir)/libcommprof-S/ with the link $(libdir)/libcommprof-S.so
# to it, and without the pkg-config file, which stays the default's: one
# libdir holds one per MPI, and commprof-run knows its own by that name.
commproflibdir = $(libdir)/$(COMMPROF_NAME)
if COMMPROF_SUFFIXED
commproflib_LTLIBRARIES = libcommprof/libcommprof.la
install-exec-hook: install-commprof-link
uninstall-hook: uninstall-commprof-link
else
lib_LTLIBRARIES += libcommprof/libcommprof.la
pkgconfig_DATA += libcommprof/commprof.pc
endif
topomapinclude_HEADERS += libcommprof/commprof.h
install-commprof-link:
	cd "$(DESTDIR)$(libdir)" && rm -f $(COMMPROF_NAME).so && \
	  $(LN_S) $(COMMPROF_NAME)/libcommprof.so $(COMMPROF_NAME).so
uninstall-commprof-link:
	rm -f "$(DESTDIR)$(libdir)/$(COMMPROF_NAME).so"
.PHONY: install-commprof-link uninstall-commprof-link

libcommprof_libcommprof_la_SOURCES = \
	libcommprof/commprof.h libcommprof/cp_internal.h \
	libcommprof/wrappers.def libcommprof/wrappers.c \
	libcommprof/state.c libcommprof/comm.c libcommprof/requests.c \
	libcommprof/completion.c libcommprof/lifecycle.c libcommprof/writer.c \
	libcommprof/partial.c libcommprof/clock.c libcommprof/cuda.c \
	libcommprof/cu_abi.h
libcommprof_libcommprof_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
libcommprof_libcommprof_la_LIBADD = $(MPI_LIBS) $(PTHREAD_LIBS)
libcommprof_libcommprof_la_LDFLAGS = -version-info 0:0:0
# Wrappers of the Fortran bindings: fortran.def, expanded by fortran.c;
# none under the MPI 5 standard ABI, whose C header has no Fortran types
# (MPICH 5's mpicc_abi).
if !MPI_ABI
libcommprof_libcommprof_la_SOURCES += libcommprof/fortran.def \
	libcommprof/fortran.h libcommprof/fortran.c libcommprof/fortran_conv.c
endif
EXTRA_DIST += libcommprof/probe.c
EXTRA_DIST += libcommprof/fortran.def libcommprof/fortran.h \
	libcommprof/fortran.c libcommprof/fortran_conv.c
EXTRA_DIST += libcommprof/commprof.pc.in

# MPI tests: programs with known patterns, checked exactly
# (tests/commprof_check.py) by one script each.
check_PROGRAMS += tests/mpi/pattern tests/mpi/p2p_all tests/mpi/coll_all \
	tests/mpi/intercomm tests/mpi/rma_all tests/mpi/threads tests/mpi/abort \
	tests/mpi/timing tests/mpi/requests tests/mpi/memkinds tests/mpi/phases \
	tests/mpi/cart tests/mpi/mpi4
CP_TEST_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_mpi_pattern_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_pattern_LDADD = $(MPI_LIBS)
tests_mpi_p2p_all_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_p2p_all_LDADD = $(MPI_LIBS)
tests_mpi_coll_all_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_coll_all_LDADD = $(MPI_LIBS)
tests_mpi_intercomm_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_intercomm_LDADD = $(MPI_LIBS)
tests_mpi_rma_all_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_rma_all_LDADD = $(MPI_LIBS)
tests_mpi_threads_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_threads_LDADD = $(MPI_LIBS) $(PTHREAD_LIBS)
tests_mpi_abort_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_abort_LDADD = $(MPI_LIBS)
tests_mpi_timing_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_timing_LDADD = $(MPI_LIBS)
tests_mpi_requests_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_requests_LDADD = $(MPI_LIBS)
tests_mpi_memkinds_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_memkinds_LDADD = $(MPI_LIBS)
tests_mpi_phases_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_phases_LDADD = $(MPI_LIBS)
tests_mpi_cart_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_cart_LDADD = $(MPI_LIBS)
tests_mpi_mpi4_CFLAGS = $(CP_TEST_CFLAGS)
tests_mpi_mpi4_LDADD = $(MPI_LIBS)
# A stand-in for the CUDA driver that tests/mpi/memkinds loads: a shared
# library with the driver's name, libcuda.so.1; never installed.
CUDA_SHIM = tests/cudashim/libcuda.so.1
check_SCRIPTS += $(CUDA_SHIM)
$(CUDA_SHIM): tests/cudashim/cudashim.c libcommprof/cu_abi.h
	$(AM_V_CCLD)$(MKDIR_P) tests/cudashim && $(CC) $(AM_CFLAGS) $(CFLAGS) \
	  -I$(srcdir)/libcommprof -fPIC -shared -Wl,-soname,libcuda.so.1 \
	  -o $@ $(srcdir)/tests/cudashim/cudashim.c
CLEANFILES += $(CUDA_SHIM)
EXTRA_DIST += tests/cudashim/cudashim.c
CP_TESTS = tests/commprof_pattern.sh tests/commprof_p2p.sh \
	tests/commprof_coll.sh tests/commprof_intercomm.sh tests/commprof_rma.sh \
	tests/commprof_threads.sh tests/commprof_abort.sh tests/commprof_crash.sh \
	tests/commprof_timing.sh tests/commprof_requests.sh \
	tests/commprof_memkinds.sh tests/commprof_phases.sh \
	tests/commprof_cart.sh tests/commprof_mpi4.sh
TESTS += $(CP_TESTS)
EXTRA_DIST += $(CP_TESTS) tests/commprof_lib.sh tests/commprof_check.py \
	tests/mpi/end_early.h
