#!/usr/bin/env bash
# libcommprof on 4 ranks of tests/mpi/pattern.c: the profile equals the
# known pattern exactly, agrees with Open MPI's own pml and osc monitoring
# (under Open MPI; other MPIs have none), honours COMMPROF_ENABLE=0 and
# COMMPROF_START=off (the switches take 0/off/no/false and 1/on/yes/true
# in any case; any other value is warned, naming it, and the default, on,
# taken), and leaves the program's exit status alone.
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
expect_ok run 4 -x COMMPROF_OUT="$work/late2.json" -x COMMPROF_START=OFF "$PATTERN"
checks=$((checks + 1))
grep -q "commprof (rank" "$work/err" && fail "COMMPROF_START=OFF: a warning: $(cat "$work/err")"
expect_ok $check late "$work/late2.json"

expect_ok run 4 -x COMMPROF_OUT="$work/off.json" -x COMMPROF_ENABLE=0 "$PATTERN"
expect_no_file "$work/off.json"
expect_ok run 4 -x COMMPROF_OUT="$work/off2.json" -x COMMPROF_ENABLE=False "$PATTERN"
expect_no_file "$work/off2.json"

# Values that are none of the spellings: one warning per rank and
# variable (as for COMMPROF_CLOCK), the defaults (on, recording from
# MPI_Init), so the whole pattern.
expect_ok run 4 -x COMMPROF_OUT="$work/bad.json" -x COMMPROF_ENABLE=disable \
  -x COMMPROF_START=later "$PATTERN"
cp "$work/err" "$work/bad.err"
expect_ok $check pattern "$work/bad.json"
for r in 0 1 2 3; do
  expect_grep "commprof (rank $r): COMMPROF_ENABLE=disable: not 0/off/no/false or 1/on/yes/true, profiling on" "$work/bad.err"
  expect_grep "commprof (rank $r): COMMPROF_START=later: not 0/off/no/false or 1/on/yes/true, recording from MPI_Init" "$work/bad.err"
done
checks=$((checks + 1))
[ "$(grep -c 'commprof (rank' "$work/bad.err")" -eq 8 ] || fail "not 8 warnings: $(cat "$work/bad.err")"
finish
