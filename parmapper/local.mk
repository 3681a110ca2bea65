# parmapper: the MPI program that runs GreedyMap's portfolio inside the
# job and writes the chosen mapping (papers/001, 4.2).  It shares the
# greedymap command's machine and graph options (greedymap/cmd_args.c) and
# taskgraph's option helpers (taskgraph/cli.c); --hetero uses libhetero
# and the placement options of topomap-place (hetero/ht_cli.c).
bin_PROGRAMS += parmapper/parmapper
parmapper_parmapper_SOURCES = parmapper/parmapper.h parmapper/main.c \
	parmapper/options.c parmapper/launcher.c parmapper/discover.c \
	parmapper/share.c parmapper/slots.c parmapper/binding.c \
	parmapper/rankfile.c parmapper/search.c parmapper/pareto.h \
	parmapper/pareto.c parmapper/gather.c parmapper/outputs.c \
	parmapper/report.c parmapper/hetero.c parmapper/signals.c \
	greedymap/cmd.h \
	greedymap/cmd_args.c taskgraph/cli.c taskgraph/cli.h hetero/ht_cli.c \
	hetero/ht_cli.h
parmapper_parmapper_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/greedymap \
	-I$(top_srcdir)/hetero
parmapper_parmapper_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(HWLOC_CFLAGS) \
	$(JANSSON_CFLAGS)
parmapper_parmapper_LDADD = greedymap/libgreedymap.la hetero/libhetero.la \
	taskgraph/libtaskgraph.la $(MPI_LIBS) $(HWLOC_LIBS) $(JANSSON_LIBS) \
	$(PTHREAD_LIBS) -lm
