#!/usr/bin/env bash
# libcommprof on tests/mpi/threads.c (4 ranks, 4 threads each, under
# MPI_THREAD_MULTIPLE): nothing lost or counted twice, twice over.  Skipped
# when the MPI library does not provide MPI_THREAD_MULTIPLE.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
for i in 1 2; do
  expect_ok run 4 -x COMMPROF_OUT="$work/t$i.json" "$MPI_TESTS/threads"
  if grep -q "MPI_THREAD_MULTIPLE not provided" "$work/out"; then
    echo "SKIP: the MPI library does not provide MPI_THREAD_MULTIPLE"
    exit 77
  fi
  expect_ok $check threads "$work/t$i.json"
done
finish
