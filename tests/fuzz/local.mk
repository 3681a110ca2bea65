# make fuzz: the libFuzzer harnesses of tests/fuzz/ (one per family of
# readers), built with clang, ASan and UBSan by tests/fuzz/fuzz.mk (GNU
# make) and run by tests/fuzz/run.sh for FUZZ_SECONDS each (FUZZ_HARNESSES:
# some of them only).  Seeds come from tests/data and from files the tools
# write (tests/fuzz/seeds.sh); corpora grow in tests/fuzz/corpus/ of the
# build folder, reproducers of failures stay in tests/fuzz/crashes/.
FUZZ_SECONDS = 120
FUZZ_HARNESSES =
FUZZ_BUILD = $(MAKE) -f $(abs_top_srcdir)/tests/fuzz/fuzz.mk \
	FUZZ_CC='$(FUZZ_CC)' top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' \
	TG_SOURCES='$(taskgraph_libtaskgraph_la_SOURCES)' \
	GM_SOURCES='$(greedymap_libgreedymap_la_SOURCES)' \
	HT_SOURCES='$(hetero_libhetero_la_SOURCES)' \
	HWLOC_CFLAGS='$(HWLOC_CFLAGS)' HWLOC_LIBS='$(HWLOC_LIBS)' \
	JANSSON_CFLAGS='$(JANSSON_CFLAGS)' JANSSON_LIBS='$(JANSSON_LIBS)' \
	MPI_CFLAGS='$(MPI_CFLAGS)' MPI_LIBS='$(MPI_LIBS)' \
	METIS_LIBS='$(METIS_LIBS)'

fuzz-build:
	@if test -z "$(FUZZ_CC)"; then \
	  echo "make fuzz: fuzzing is not available: configure found no clang that links -fsanitize=fuzzer (install clang, or configure FUZZ_CC=/path/to/clang)" >&2; \
	  exit 1; \
	fi
	+@$(FUZZ_BUILD)
# the tools write some of the seeds
fuzz: all fuzz-build
	$(SHELL) $(srcdir)/tests/fuzz/run.sh tests/fuzz $(FUZZ_SECONDS) $(FUZZ_HARNESSES)
fuzz-clean:
	rm -rf tests/fuzz/obj tests/fuzz/fuzz_graph tests/fuzz/fuzz_profile \
	  tests/fuzz/fuzz_machine tests/fuzz/fuzz_mapping tests/fuzz/fuzz_hetero \
	  tests/fuzz/seeds tests/fuzz/*.log
clean-local: fuzz-clean
.PHONY: fuzz fuzz-build fuzz-clean

# The runner itself: a failure is reported with its reproducer (make check).
AM_TESTS_ENVIRONMENT += FUZZ_CC='$(FUZZ_CC)'; export FUZZ_CC;
TESTS += tests/fuzz/runner_check.sh

EXTRA_DIST += tests/fuzz/runner_check.sh tests/fuzz/fuzz.mk tests/fuzz/run.sh tests/fuzz/seeds.sh \
	tests/fuzz/fuzz_file.c tests/fuzz/fuzz_file.h tests/fuzz/fuzz_graph.c \
	tests/fuzz/fuzz_profile.c tests/fuzz/fuzz_machine.c \
	tests/fuzz/fuzz_mapping.c tests/fuzz/fuzz_hetero.c
