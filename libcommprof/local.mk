# libcommprof: the PMPI profiler, built with Open MPI's flags.
lib_LTLIBRARIES += libcommprof/libcommprof.la
topomapinclude_HEADERS += libcommprof/commprof.h
pkgconfig_DATA += libcommprof/commprof.pc

libcommprof_libcommprof_la_SOURCES = \
	libcommprof/commprof.h libcommprof/cp_internal.h \
	libcommprof/wrappers.def libcommprof/wrappers.c \
	libcommprof/state.c libcommprof/comm.c libcommprof/requests.c \
	libcommprof/completion.c libcommprof/lifecycle.c libcommprof/writer.c
libcommprof_libcommprof_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
libcommprof_libcommprof_la_LIBADD = $(MPI_LIBS) $(PTHREAD_LIBS)
libcommprof_libcommprof_la_LDFLAGS = -version-info 0:0:0
# Wrappers of the Fortran bindings: fortran.def, expanded by fortran.c.
libcommprof_libcommprof_la_SOURCES += libcommprof/fortran.def \
	libcommprof/fortran.h libcommprof/fortran.c libcommprof/fortran_conv.c
EXTRA_DIST += libcommprof/commprof.pc.in

# MPI tests: a program with a known pattern, checked exactly.
check_PROGRAMS += tests/mpi/pattern
tests_mpi_pattern_SOURCES = tests/mpi/pattern.c
tests_mpi_pattern_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_mpi_pattern_LDADD = $(MPI_LIBS)
TESTS += tests/commprof_pattern.sh
EXTRA_DIST += tests/commprof_pattern.sh tests/commprof_check.py
