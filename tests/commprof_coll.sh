#!/usr/bin/env bash
# libcommprof on tests/mpi/coll_all.c (8 ranks): every collective,
# blocking and nonblocking, in place, on sub-communicators, and the
# neighbourhood collectives on Cartesian, graph and dist-graph topologies,
# exactly.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
expect_ok run 8 -x COMMPROF_OUT="$work/c.json" "$MPI_TESTS/coll_all"
expect_ok $check coll "$work/c.json"
finish
