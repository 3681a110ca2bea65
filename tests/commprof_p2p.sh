#!/usr/bin/env bash
# libcommprof on tests/mpi/p2p_all.c (4 ranks): every point-to-point
# function, its bytes, messages and calls exactly; a normal MPI_Finalize
# leaves no partial file; with the profiler off, the program runs alike.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
expect_ok run 4 -x COMMPROF_OUT="$work/p.json" "$MPI_TESTS/p2p_all"
cp "$work/out" "$work/polls"
expect_ok $check p2p "$work/p.json" "$work/polls"
expect_no_file "$work/p.json.rank0"
# Off (COMMPROF_ENABLE=0): the persistent inits, which run even while not
# recording, touch nothing of the profiler's; no profile.
expect_ok run 4 -x COMMPROF_OUT="$work/off.json" -x COMMPROF_ENABLE=0 "$MPI_TESTS/p2p_all"
expect_no_file "$work/off.json"
finish
