#!/usr/bin/env bash
# topomap-select-graph with --repeat 1: on a profile with two critical
# types (tests/data/build_minshare.json, 8 ranks) it maps and runs each of
# the four graphs, prints a row per graph and, as best, the one with the
# smallest mean time, also written to DIR/best; on a profile with one
# critical type it tries that graph only, and stops at the first failed run
# of the application with its exit status and no best; bad usage fails.
. "$TOPOMAP_SRCDIR/tests/pipeline_lib.sh"
sel=$TOPOMAP_SELECT_GRAPH

d=$work/sel
expect_ok "$sel" --profile "$TOPOMAP_DATA/build_minshare.json" --repeat 1 --time 0.2 \
  -o "$d" -- mpirun -np 8 true
checks=$((checks + 1))
[ "$(awk 'NR > 1 && !/^best:/ { print $1 }' "$work/out" | tr '\n' ' ')" = "p2p alltoallv sum wsum " ] ||
  { fail "one row per graph:"; cat "$work/out"; }
fastest=$(awk 'NR > 1 && !/^best:/ && (best == "" || $4 < t) { best = $1; t = $4 } END { print best }' "$work/out")
expect_output "best: $fastest $d/graphs/$fastest.tg.json"
checks=$((checks + 1))
[ "$(cat "$d/best")" = "$fastest $d/graphs/$fastest.tg.json" ] || fail "$d/best: $(cat "$d/best")"
for g in p2p alltoallv sum wsum; do
  for f in rankfile report.json run-1.log; do
    checks=$((checks + 1)); [ -f "$d/$g/$f" ] || fail "no $d/$g/$f"
  done
done
expect_grep "topomap-select-graph: graph wsum: run 1: " "$work/err"

# One critical type: one graph; a failing run ends the selection.
d=$work/fail
expect_fail 4 "topomap-select-graph: graph p2p: run 1 failed (exit status 4)" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --repeat 2 --time 0.2 \
  -o "$d" -- mpirun -np 4 sh -c 'exit 4'
expect_no_file "$d/best"
expect_no_file "$d/sum"

expect_fail 2 "--profile is required" "$sel" -- mpirun -np 4 true
expect_fail 2 "--repeat wants an integer >= 1, not '0'" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --repeat 0 -- mpirun -np 4 true
expect_fail 2 "unknown option '--bogus'" "$sel" --bogus -- mpirun true
expect_fail 2 "no job to run" "$sel" --profile "$TOPOMAP_DATA/build_p2p.json"
expect_fail 1 "$work/none.json: no such file" "$sel" --profile "$work/none.json" -- mpirun true
expect_ok "$sel" --help
expect_grep "Usage: topomap-select-graph --profile P [OPTIONS]" "$work/out"
finish
