# libtaskgraph and the taskgraph command.
lib_LTLIBRARIES += taskgraph/libtaskgraph.la
topomapinclude_HEADERS += taskgraph/taskgraph.h
pkgconfig_DATA += taskgraph/taskgraph.pc

taskgraph_libtaskgraph_la_SOURCES = \
	taskgraph/taskgraph.h taskgraph/tg_internal.h \
	taskgraph/graph.c taskgraph/builder.c taskgraph/combine.c \
	taskgraph/fileio.c taskgraph/format.c \
	taskgraph/io_json.c taskgraph/io_metis.c taskgraph/io_scotch.c \
	taskgraph/io_mtx.c taskgraph/json_string.c \
	taskgraph/gen_stencil.c taskgraph/gen_qbox.c taskgraph/gen_rgg.c \
	taskgraph/profile_internal.h taskgraph/profile.c \
	taskgraph/profile_read.c taskgraph/profile_scan.c \
	taskgraph/profile_write.c taskgraph/profile_merge.c \
	taskgraph/profile_phase.c \
	taskgraph/build_internal.h taskgraph/build.c taskgraph/build_write.c \
	taskgraph/collmodel.c taskgraph/collmodel_auto.c taskgraph/synthetic.c
taskgraph_libtaskgraph_la_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
taskgraph_libtaskgraph_la_LIBADD = $(JANSSON_LIBS) -lm
taskgraph_libtaskgraph_la_LDFLAGS = -version-info 0:0:0

bin_PROGRAMS += taskgraph/taskgraph
taskgraph_taskgraph_SOURCES = taskgraph/cli.c taskgraph/cli.h \
	taskgraph/cmd_gen.c taskgraph/cmd_main.c taskgraph/cmd_profile.c \
	taskgraph/cmd_build.c
taskgraph_taskgraph_LDADD = taskgraph/libtaskgraph.la -lm
EXTRA_DIST += taskgraph/taskgraph.pc.in
