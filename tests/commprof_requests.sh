#!/usr/bin/env bash
# libcommprof on tests/mpi/requests.c (4 ranks): 600 receives outstanding
# at once, completed out of order by Waitany, Testsome and Waitall, twice;
# every one is found in the request table and counted exactly.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
expect_ok run 4 -x COMMPROF_OUT="$work/r.json" "$MPI_TESTS/requests"
cp "$work/out" "$work/r.out"
expect_ok $check requests "$work/r.json" "$work/r.out"
finish
