# Repository scripts (not installed): dependencies, build, tests, quickstart.
EXTRA_DIST += scripts/install-deps.sh scripts/build.sh scripts/test.sh \
	scripts/quickstart.sh
EXTRA_DIST += scripts/install-bench-deps.sh scripts/install-mpis.sh \
	scripts/check-mpis.sh

# make check-mpis: topomap built against every installed MPI (Open MPI 4.1
# and 5, MPICH 4 and 5; scripts/install-mpis.sh), one folder each under
# mpis/ here, and the tests that depend on the MPI run under each, with a
# table of the results (scripts/check-mpis.sh).
check-mpis:
	TOPOMAP_MPIS_BUILD='$(abs_top_builddir)/mpis' $(abs_top_srcdir)/scripts/check-mpis.sh
.PHONY: check-mpis

# What the three launching scripts know of MPI launchers: copied into each
# of them in place of the line @LAUNCHER_SH@ of its .in.
LAUNCHER_SH = $(srcdir)/scripts/launcher.sh
LAUNCHER_SED = -e '/^@LAUNCHER_SH[@]$$/{r $(LAUNCHER_SH)' -e 'd;}'
EXTRA_DIST += scripts/launcher.sh

# How topomap-run and topomap-select-graph run their steps and pass a
# signal on to them: copied into each in place of the line @STEPS_SH@ of
# its .in.
STEPS_SH = $(srcdir)/scripts/steps.sh
STEPS_SED = -e '/^@STEPS_SH[@]$$/{r $(STEPS_SH)' -e 'd;}'
EXTRA_DIST += scripts/steps.sh

# commprof-run: installed; knows the installed libcommprof by its path,
# substituted here (not by configure) so that `make prefix=...` holds.
bin_SCRIPTS += scripts/commprof-run
CLEANFILES += scripts/commprof-run
EXTRA_DIST += scripts/commprof-run.in
scripts/commprof-run: $(srcdir)/scripts/commprof-run.in $(LAUNCHER_SH) Makefile
	$(AM_V_GEN)$(MKDIR_P) scripts && \
	sed -e 's|@libdir[@]|$(libdir)|g' -e 's|@COMMPROF_NAME[@]|$(COMMPROF_NAME)|g' \
	  -e 's|@SANITIZE_PRELOAD[@]|$(SANITIZE_PRELOAD)|g' $(LAUNCHER_SED) \
	  $(srcdir)/scripts/commprof-run.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# topomap-plot: pictures (python3 + python3-matplotlib); installed as is.
bin_SCRIPTS += scripts/topomap-plot
EXTRA_DIST += scripts/topomap-plot

# topomap-run and topomap-select-graph: installed; they use the build
# tree's tools when run from it, else the installed ones, whose folder is
# substituted here.
TOPOMAP_RUN_GENERATED = scripts/topomap-run scripts/topomap-select-graph
bin_SCRIPTS += $(TOPOMAP_RUN_GENERATED)
CLEANFILES += $(TOPOMAP_RUN_GENERATED)
EXTRA_DIST += scripts/topomap-run.in scripts/topomap-select-graph.in
scripts/topomap-run: $(srcdir)/scripts/topomap-run.in
scripts/topomap-select-graph: $(srcdir)/scripts/topomap-select-graph.in
$(TOPOMAP_RUN_GENERATED): $(LAUNCHER_SH) $(STEPS_SH) Makefile
	$(AM_V_GEN)$(MKDIR_P) scripts && \
	sed -e 's|@bindir[@]|$(bindir)|g' $(LAUNCHER_SED) $(STEPS_SED) \
	  $(srcdir)/$@.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# topomap-cluster: an emulated cluster of network namespaces (root);
# installed as is.
bin_SCRIPTS += scripts/topomap-cluster
EXTRA_DIST += scripts/topomap-cluster
