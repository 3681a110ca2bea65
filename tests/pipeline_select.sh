#!/usr/bin/env bash
# topomap-select-graph with --repeat 1 under the configured launcher
# (MPIEXEC): on a profile with two critical types
# (tests/data/build_minshare.json, 8 ranks) it maps and runs each of the
# four graphs, each run with its graph's mapping in the launcher's form
# (Open MPI: the rankfile, unchecked; Hydra: its hostfile and -bind-to
# user: list), prints a row per graph and, as best, the one with the
# smallest mean time, also written to DIR/best; on a profile with one
# critical type it tries that graph only, and stops at the first failed run
# of the application with its exit status and no best; bad usage fails,
# parmapper's command line (--time, --alpha, --seed, --parmapper) as
# parmapper --check-options reads it, before anything is written.
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

# One critical type: one graph; a failing run ends the selection.  (The
# last --time is the one topomap-run takes, written with an exponent.)
d=$work/fail
expect_fail 4 "topomap-select-graph: graph p2p: run 1 failed (exit status 4)" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --repeat 2 --time 1e10 --time=2e-1 \
  -o "$d" -- "$M" -n 4 sh -c 'exit 4'
expect_no_file "$d/best"
expect_no_file "$d/sum"

# TERM to topomap-select-graph alone (kill PID) during a mapping, once
# parmapper's search runs (its first progress line): passed on to
# topomap-run, which passes it on to the launcher and waits; exit status
# 128 + 15 once they have ended, no process of the run left.  (It used to
# exit at once, leaving topomap-run, the launcher and parmapper's ranks
# searching for --time seconds.)
d=$work/sig
"$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --time 600 -o "$d" -- "$M" -n 4 true \
  > "$work/sig.out" 2> "$work/sig.err" &
pid=$!
for ((i = 0; i < 600; i++)); do
  grep -q '^parmapper: [0-9]* s, ' "$work/sig.err" || ! kill -0 $pid 2> /dev/null && break
  sleep 0.5
done
checks=$((checks + 1))
grep -q '^parmapper: [0-9]* s, ' "$work/sig.err" || fail "no progress line from parmapper: $(cat "$work/sig.err")"
kill -TERM $pid
wait $pid
rc=$?
checks=$((checks + 1))
[ $rc = 143 ] || fail "exit status $rc, not 143"
expect_grep "topomap-select-graph: graph p2p: the mapping stopped by SIGTERM" "$work/sig.err"
expect_grep "topomap-run: mapping stopped by SIGTERM; the application was not run" "$work/sig.err"
# Given 20 s to end; any process left is named, killed, and fails.
checks=$((checks + 1))
for ((i = 0; i < 40; i++)); do
  left=$(pgrep -f -- "$d/") || break
  sleep 0.5
done
if [ -n "$left" ]; then
  fail "the mapping's topomap-run, launcher or ranks still running:"
  ps -o pid=,args= -p "${left//$'\n'/,}" | sed 's/^/  /'
  # shellcheck disable=SC2086 # a PID a word
  kill -KILL $left 2> /dev/null
fi
expect_no_file "$d/best"

expect_fail 2 "--profile is required" "$sel" -- "$M" -n 4 true
expect_fail 2 "--repeat wants an integer >= 1, not '0'" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" --repeat 0 -- "$M" -n 4 true
expect_fail 2 "unknown option '--bogus'" "$sel" --bogus -- "$M" true
expect_fail 2 "'aprun' is not Open MPI's mpirun or mpiexec" \
  "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" -- aprun -n 4 true
expect_fail 2 "no job to run" "$sel" --profile "$TOPOMAP_DATA/build_p2p.json"
# parmapper's command line, checked here by parmapper --check-options as
# topomap-run checks it, before anything is written.  (taskgraph build
# used to write DIR/graphs, then the first topomap-run refused it.)
d=$work/numbers
refused() {
  local msg=$1
  shift
  expect_fail 2 "parmapper: $msg (see 'parmapper --help')" \
    "$sel" --profile "$TOPOMAP_DATA/build_p2p.json" "$@" -o "$d" -- "$M" -n 4 true
  expect_grep "topomap-select-graph: parmapper would refuse its options from --time, --network, --alpha, --seed or --parmapper (see --help)" "$work/err"
}
refused "--time wants a number in 0..1e+09, not '1e10'" --time 1e10
refused "--time wants a number in 0..1e+09, not ''" --time=
refused "--alpha wants a number in 1..1e+09, not '5e-1'" --alpha=5e-1
refused "--seed wants an integer in 0..18446744073709551615, not '-1'" --seed 7 --seed -1
refused "unknown option '--bogus'" --parmapper --bogus
refused "--select: alpha, avg, max or maxload, not 'best'" --parmapper=--select=best
expect_no_file "$d"
expect_fail 1 "$work/none.json: no such file" "$sel" --profile "$work/none.json" -- "$M" true
expect_ok "$sel" --help
expect_grep "Usage: topomap-select-graph --profile P [OPTIONS] [--] LAUNCHER LAUNCHER-ARGS APP APP-ARGS" "$work/out"
# The whole comment at the top of the script, and nothing after it.
checks=$((checks + 1))
[ "$(tail -n 1 "$work/out")" = "it; 2 on a bad command line.  See topomap-select-graph(1)." ] ||
  fail "--help ends with: $(tail -n 1 "$work/out")"
finish
