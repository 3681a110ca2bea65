#!/usr/bin/env bash
# libcommprof on tests/mpi/rma_all.c (4 ranks): every one-sided operation
# and synchronisation (fence, lock, lock_all and flushes, PSCW), exactly.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
expect_ok run 4 -x COMMPROF_OUT="$work/r.json" "$MPI_TESTS/rma_all"
cp "$work/out" "$work/polls"
expect_ok $check rma "$work/r.json" "$work/polls"
finish
