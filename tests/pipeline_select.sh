#!/usr/bin/env bash
# topomap-select-graph with --repeat 1 under the configured launcher
# (MPIEXEC): on a profile with two critical types
# (tests/data/build_minshare.json, 8 ranks) it maps and runs each of the
# four graphs, each run with its graph's mapping in the launcher's form
# (Open MPI: the rankfile, unchecked; Hydra: its hostfile and -bind-to
# user: list), prints a row per graph and, as best, the one with the
# smallest mean time, also written to DIR/best; on a profile with one
# critical type it tries that graph only, and stops at the first failed run
# of the application with its exit status and no best; bad usage fails.
. "$TOPOMAP_SRCDIR/tests/pipeline_lib.sh"
sel=$TOPOMAP_SELECT_GRAPH

d=$work/sel
expect_ok "$sel" --profile "$TOPOMAP_DATA/build_minshare.json" --repeat 1 --time 0.2 \
  -o "$d" -- "$M" -n 8 true
checks=$((checks + 1))
[ "$(awk 'NR > 1 && !/^best:/ { print $1 }' "$work/out" | tr '\n' ' ')" = "p2p alltoallv sum wsum " ] ||
  { fail "one row per graph:"; cat "$work/out"; }
fastest=$(awk 'NR > 1 && !/^best:/ && (best == "" || $4 < t) { best = $1; t = $4 } END { print best }' "$work/out")
expect_output "best: $fastest $d/graphs/$fastest.tg.json"
checks=$((checks + 1))
[ "$(cat "$d/best")" = "$fastest $d/graphs/$fastest.tg.json" ] || fail "$d/best: $(cat "$d/best")"
for g in p2p alltoallv sum wsum; do
  for f in $(map_out "$d/$g" | sed 's|.*/||') report.json run-1.log; do
    checks=$((checks + 1)); [ -f "$d/$g/$f" ] || fail "no $d/$g/$f"
  done
done
expect_grep "topomap-select-graph: graph wsum: run 1: " "$work/err"
for g in p2p wsum; do
  expect_grep "topomap-run: running: $(run_head "$d/$g") -n 8 true" "$d/$g/run-1.log"
done
checks=$((checks + 1))
! grep -q "checking the rankfile" "$d"/*/run-1.log || fail "a run checked its rankfile"

# One critical type: one graph; a failing run ends the selection.
d=$work/fail
expect_fail 4 "topomap-select-graph: graph p2p: run 1 failed (exit status 4)" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --repeat 2 --time 0.2 \
  -o "$d" -- "$M" -n 4 sh -c 'exit 4'
expect_no_file "$d/best"
expect_no_file "$d/sum"

expect_fail 2 "--profile is required" "$sel" -- "$M" -n 4 true
expect_fail 2 "--repeat wants an integer >= 1, not '0'" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --repeat 0 -- "$M" -n 4 true
expect_fail 2 "unknown option '--bogus'" "$sel" --bogus -- "$M" true
expect_fail 2 "'aprun' is not Open MPI's mpirun or mpiexec" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" -- aprun -n 4 true
expect_fail 2 "no job to run" "$sel" --profile "$TOPOMAP_DATA/build_p2p.json"
expect_fail 1 "$work/none.json: no such file" "$sel" --profile "$work/none.json" -- "$M" true
expect_ok "$sel" --help
expect_grep "Usage: topomap-select-graph --profile P [OPTIONS] [--] LAUNCHER LAUNCHER-ARGS APP APP-ARGS" "$work/out"
finish
