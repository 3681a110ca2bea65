#!/usr/bin/env bash
# libcommprof's times on tests/mpi/timing.c (4 ranks), with each clock
# (COMMPROF_CLOCK=tsc, monotonic): per rank the types' ns add up to
# mpi_ns, mpi_ns <= wall_ns <= the program's own Init-to-Finalize time,
# wall_ns - mpi_ns covers the sleep outside MPI and each collective's ns
# the sleeps inside it (commprof_check.py, mode timing); an unknown
# COMMPROF_CLOCK is named in a warning and the machine's choice is used.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
for clock in tsc monotonic; do
  expect_ok run 4 -x COMMPROF_OUT="$work/$clock.json" -x COMMPROF_CLOCK=$clock \
    "$MPI_TESTS/timing"
  cp "$work/out" "$work/$clock.out"
  expect_ok $check timing "$work/$clock.json" "$work/$clock.out" $clock
done
expect_ok run 4 -x COMMPROF_OUT="$work/other.json" -x COMMPROF_CLOCK=rdtsc \
  "$MPI_TESTS/timing"
expect_grep "COMMPROF_CLOCK=rdtsc: not tsc or monotonic" "$work/err"
cp "$work/out" "$work/other.out"
expect_ok $check timing "$work/other.json" "$work/other.out" tsc
finish
