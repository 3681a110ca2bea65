#!/usr/bin/env bash
# libcommprof on tests/mpi/p2p_all.c (4 ranks): every point-to-point
# function, its bytes, messages and calls exactly; a normal MPI_Finalize
# leaves no partial file.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
expect_ok run 4 -x COMMPROF_OUT="$work/p.json" "$MPI_TESTS/p2p_all"
cp "$work/out" "$work/polls"
expect_ok $check p2p "$work/p.json" "$work/polls"
expect_no_file "$work/p.json.rank0"
finish
