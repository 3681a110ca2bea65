#!/usr/bin/env bash
# libcommprof on tests/mpi/intercomm.c (4 ranks): point-to-point and
# collectives on an intercommunicator (MPI_ROOT, MPI_PROC_NULL, the remote
# group), exactly.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
expect_ok run 4 -x COMMPROF_OUT="$work/i.json" "$MPI_TESTS/intercomm"
expect_ok $check intercomm "$work/i.json"
finish
