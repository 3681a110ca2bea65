# Man pages: one per command, and the file formats.
dist_man_MANS += doc/taskgraph.1 doc/topomap-formats.5
dist_man_MANS += doc/commprof-run.1
dist_man_MANS += doc/greedymap.1
dist_man_MANS += doc/topomap-place.1 doc/topomap-exec.1 doc/memprobe.1
dist_man_MANS += doc/topomap-plot.1
dist_man_MANS += doc/topomap-run.1 doc/topomap-select-graph.1 doc/parmapper.1
dist_man_MANS += doc/topomap-cluster.1
EXTRA_DIST += doc/DESIGN.md
