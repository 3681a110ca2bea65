# fuzz.mk: builds the libFuzzer harnesses of tests/fuzz/ with clang (GNU
# make; `make fuzz` in the build folder runs it, tests/fuzz/local.mk).  The
# library sources are compiled again here, instrumented for coverage and
# with ASan and UBSan, into tests/fuzz/obj/ of the build folder.
#
# Set by the caller: FUZZ_CC, top_srcdir, top_builddir (absolute), the
# libraries' source lists TG_SOURCES GM_SOURCES HT_SOURCES, and
# HWLOC_CFLAGS HWLOC_LIBS JANSSON_CFLAGS JANSSON_LIBS MPI_CFLAGS MPI_LIBS
# METIS_LIBS as configure found them.

S := $(top_srcdir)
O := $(top_builddir)/tests/fuzz
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer $(SAN) -Wall -Wextra \
	-DHAVE_CONFIG_H -I$(top_builddir) -I$(S)/taskgraph -I$(S)/greedymap \
	-I$(S)/hetero -I$(S)/parmapper -I$(S)/tests/fuzz \
	$(HWLOC_CFLAGS) $(JANSSON_CFLAGS)

HARNESSES := fuzz_graph fuzz_profile fuzz_machine fuzz_mapping fuzz_hetero

# Object of a source file of the tree: tests/fuzz/obj/DIR/FILE.o
obj = $(patsubst %.c,$(O)/obj/%.o,$(filter %.c,$(1)))

TG_OBJS := $(call obj,$(TG_SOURCES))
GM_OBJS := $(call obj,$(GM_SOURCES))
HT_OBJS := $(call obj,$(HT_SOURCES))
COMMON := $(call obj,tests/fuzz/fuzz_file.c)
# parmapper --check-rankfile: its reader, pm_hosts_find and cli_fail
PM_OBJS := $(call obj,parmapper/rankfile.c parmapper/discover.c taskgraph/cli.c)

all: $(addprefix $(O)/,$(HARNESSES))

# Library code: coverage for the fuzzer, but not its main.
$(O)/obj/%.o: $(S)/%.c
	@mkdir -p $(@D)
	@echo "  FUZZCC   $*.c"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(MPI_CFLAGS) \
		-MMD -MP -c -o $@ $<

LINK = @echo "  FUZZLD   tests/fuzz/$(@F)"; \
	$(FUZZ_CC) -fsanitize=fuzzer $(SAN) -o $@ $^

$(O)/fuzz_graph: $(call obj,tests/fuzz/fuzz_graph.c) $(COMMON) $(TG_OBJS)
	$(LINK) $(JANSSON_LIBS) -lm
$(O)/fuzz_profile: $(call obj,tests/fuzz/fuzz_profile.c) $(COMMON) $(TG_OBJS)
	$(LINK) $(JANSSON_LIBS) -lm
$(O)/fuzz_machine: $(call obj,tests/fuzz/fuzz_machine.c) $(COMMON) \
		$(GM_OBJS) $(TG_OBJS)
	$(LINK) $(HWLOC_LIBS) $(METIS_LIBS) $(JANSSON_LIBS) -lm
$(O)/fuzz_mapping: $(call obj,tests/fuzz/fuzz_mapping.c) $(COMMON) \
		$(PM_OBJS) $(GM_OBJS) $(TG_OBJS)
	$(LINK) $(MPI_LIBS) $(HWLOC_LIBS) $(METIS_LIBS) $(JANSSON_LIBS) -lm
$(O)/fuzz_hetero: $(call obj,tests/fuzz/fuzz_hetero.c) $(COMMON) \
		$(HT_OBJS) $(TG_OBJS)
	$(LINK) $(HWLOC_LIBS) $(JANSSON_LIBS) -lm

-include $(shell find $(O)/obj -name '*.d' 2>/dev/null)

.PHONY: all
