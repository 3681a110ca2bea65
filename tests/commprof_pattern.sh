#!/usr/bin/env bash
# libcommprof on 4 ranks of tests/mpi/pattern.c: the profile equals the
# known pattern exactly, agrees with Open MPI's own pml and osc monitoring
# (under Open MPI; other MPIs have none), honours COMMPROF_ENABLE=0 and COMMPROF_START=off, and leaves
# the program's exit status alone.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"

expect_ok run 4 -x COMMPROF_OUT="$work/p.json" "$PATTERN"
expect_ok $check pattern "$work/p.json"
checks=$((checks + 1))
[ "$(ls -A "$work" | grep -c 'p\.json')" -eq 1 ] || fail "more than the profile left behind"

if mpi_is_openmpi; then
  mkdir -p "$work/mon"
  expect_ok run 4 -x COMMPROF_OUT="$work/plain.json" --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$work/mon/prof" \
    "$PATTERN" --plain
  expect_ok $check monitoring "$work/plain.json" "$work/mon"
fi

expect_ok run 4 -x COMMPROF_OUT="$work/late.json" -x COMMPROF_START=off "$PATTERN"
expect_ok $check late "$work/late.json"

expect_ok run 4 -x COMMPROF_OUT="$work/off.json" -x COMMPROF_ENABLE=0 "$PATTERN"
expect_no_file "$work/off.json"
finish
