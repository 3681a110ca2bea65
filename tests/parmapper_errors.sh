#!/usr/bin/env bash
# parmapper's bad inputs, under mpirun and alone: a graph with more tasks
# than slots, fewer tasks than ranks, an unknown network, a time of 0 or below, an output that
# cannot be written (a missing folder, a folder as the file), two outputs
# that are one file; and a job killed mid-search (no output option at all:
# tests/parmapper_default.sh).  One message, a non-zero exit from
# every rank, and nothing written.  parmapper --check-options, alone:
# the run's verdict on a command line, nothing written.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
mkdir "$work/out.d"
expect_ok "$TASKGRAPH" gen stencil --dims 8x8 -o "$work/g.tg.json"
outs=(--rankfile "$work/out.d/rf" --mapping "$work/out.d/map" --report "$work/out.d/r.json"
      --slurm-hostfile "$work/out.d/hosts")

# The message comes once, from rank 0 (when another rank exits first,
# mpirun's SIGTERM to rank 0 adds no 'stopped by SIGTERM' line).
expect_fail 1 "64 tasks, but the machine has only 32 slots" \
  pm 3 "$work/g.tg.json" --nodes 2 --slots 16 --first "${outs[@]}"
checks=$((checks + 1))
[ "$(grep -c 'parmapper:' "$work/err")" -eq 1 ] || fail "expected one message: $(cat "$work/err")"
expect_fail 2 "--network: unknown network 'ring:4'" \
  pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --network ring:4 --first "${outs[@]}"
expect_fail 1 "the machine has 8 nodes, network 'torus:2x2' has 4 positions" \
  pm 2 "$work/g.tg.json" --nodes 8 --slots 16 --network torus:2x2 --first "${outs[@]}"
for t in 0 -1 abc; do
  expect_fail 2 "--time wants" pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --time $t "${outs[@]}"
  expect_fail 2 "--time wants" "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 --time $t "${outs[@]}"
done
for r in 0 -2 x; do
  expect_fail 2 "--rounds" "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 --rounds $r "${outs[@]}"
done
expect_fail 2 "give --time SECONDS, --rounds R or --first" "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 "${outs[@]}"
expect_fail 2 "--alpha wants" "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 --first --alpha 0.9 "${outs[@]}"
expect_fail 2 "--select" "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 --first --select best "${outs[@]}"
expect_fail 1 "$work/nowhere/r.json: cannot create" \
  pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --first "${outs[@]}" --report "$work/nowhere/r.json"
# An output that is a folder is refused before the search, and nothing
# else is written; two spellings of one file are one file.
mkdir "$work/out.d/adir"
expect_fail 1 "$work/out.d/adir: cannot write: Is a directory" \
  pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --time 30 "${outs[@]}" --report "$work/out.d/adir"
rmdir "$work/out.d/adir"
expect_fail 2 "--rankfile and --report name the same file" \
  "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 --first --rankfile "$work/out.d/same" \
  --report "$work/out.d/../out.d/same"
# In the job's own machine, a graph with fewer tasks than ranks would
# leave ranks out of the rankfile, which mpirun refuses.
expect_ok "$TASKGRAPH" gen stencil --dims 3 -o "$work/g3.tg.json"
expect_fail 1 "$work/g3.tg.json has 3 tasks but the job has 4 ranks: the rankfile would give 1 rank no place" \
  pm 4 "$work/g3.tg.json" --first "${outs[@]}"
checks=$((checks + 1))
[ "$(grep -c 'parmapper:' "$work/err")" -eq 1 ] || fail "expected one message: $(cat "$work/err")"
expect_fail 1 "$work/none.tg.json" \
  pm 2 "$work/none.tg.json" --nodes 4 --slots 16 --first "${outs[@]}"
checks=$((checks + 1))
[ "$(count_files "$work/out.d")" -eq 0 ] || fail "files left behind: $(ls -A "$work/out.d")"

# parmapper --check-options ARGS: ARGS read as a run reads them, without
# mpirun and without MPI, nothing opened or written (the graph need not
# exist, nor the outputs' folder; the default outputs not tried): exit 0
# and no output, or the run's message and exit 2.
mkdir "$work/cwd"
check_options() { (cd "$work/cwd" && "$PARMAPPER" --check-options "$@"); }
for args in "none.tg.json --time 1e9" "none.tg.json --first --seed +7 --alpha 0x1p0" \
  "none.tg.json --nodes 4 --slots 16 --rounds 2 --rankfile nowhere/rf --report nowhere/r.json" \
  "none.tg.json --first --network ring:4 --hetero none.json --placement p.json"; do
  read -ra a <<< "$args"
  expect_ok check_options "${a[@]}"
  checks=$((checks + 1))
  [ ! -s "$work/out" ] && [ ! -s "$work/err" ] || fail "output from --check-options $args: $(cat "$work/out" "$work/err")"
done
cerr() {
  local msg=$1
  shift
  expect_fail 2 "parmapper: $msg (see 'parmapper --help')" check_options "$@"
  checks=$((checks + 1))
  [ "$(wc -l < "$work/err")" -eq 1 ] || fail "expected one line: $(cat "$work/err")"
}
cerr "--time wants a number in 0..1e+09, not '1e10'" none.tg.json --time 1e10
cerr "--time wants a number of seconds > 0, not '-0'" none.tg.json --time -0
cerr "--seed wants an integer in 0..18446744073709551615, not ' -1'" none.tg.json --first --seed ' -1'
cerr "--alpha wants a number in 1..1e+09, not '5e-1'" none.tg.json --first --alpha 5e-1
cerr "unknown option '--bogus'" none.tg.json --first --bogus
cerr "give --time SECONDS, --rounds R or --first" none.tg.json
cerr "no task graph given" --first
cerr "--hetero needs --placement FILE" none.tg.json --first --hetero none.json
cerr "--rankfile and --report name the same file" none.tg.json --first --rankfile same \
  --report ./same
checks=$((checks + 1))
[ "$(count_files "$work/cwd")" -eq 0 ] || fail "--check-options left files: $(ls -A "$work/cwd")"

# A job killed during its search (as by a time limit or scancel): no
# output and no temporary is on disk while the search runs.
timeout -s TERM 3 mpirun -np 2 "$PARMAPPER" "$work/g.tg.json" --nodes 4 --slots 16 \
  --time 60 "${outs[@]}" > /dev/null 2>&1
checks=$((checks + 1))
[ "$(count_files "$work/out.d")" -eq 0 ] || fail "a killed job left: $(ls -A "$work/out.d")"

# And the same outputs when nothing is wrong.
expect_ok pm 2 "$work/g.tg.json" --nodes 4 --slots 16 --first "${outs[@]}"
checks=$((checks + 1))
[ "$(count_files "$work/out.d")" -eq 4 ] || fail "expected 4 outputs: $(ls -A "$work/out.d")"
finish
