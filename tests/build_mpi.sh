#!/usr/bin/env bash
# taskgraph build on a real profile: examples/qboxlike on a 4 x 4 grid
# (halo along the rows, Alltoall in the columns, an Allreduce on all 16)
# profiled under mpirun -np 16 with libcommprof.  The Allreduce is filtered
# (16 >= 0.5 x 16 ranks), p2p and alltoall are critical, and their graphs
# are exactly the rows' rings and the columns' cliques with the bytes the
# program sends: the graphs `taskgraph gen qbox` makes independently.
# Which types the default coverage picks depends on their times, which a
# loaded machine makes vary; the selection by time is checked exactly on
# fixtures (test_build), so here --coverage 1 --min-share 0 takes every
# kept type.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
tg=$TASKGRAPH
n=1024 iters=3

expect_ok run 16 -x COMMPROF_OUT="$work/q.json" "$EXAMPLES/qboxlike" --bytes $n --iters $iters
checks=$((checks + 1))
grep -q "^qboxlike: 16 ranks, grid 4x4, 1024 bytes, 3 iterations, checksum " "$work/out" ||
  { fail "qboxlike's summary line:"; cat "$work/out"; }

# Defaults: whatever the times, the Allreduce is left out.
expect_ok $tg build "$work/q.json" -o "$work/default"
checks=$((checks + 1))
grep -Eq '^allreduce +[0-9.]+% +- .* 16 +large +no ' "$work/out" ||
  { fail "allreduce not filtered:"; cat "$work/out"; }

expect_ok $tg build "$work/q.json" -o "$work/g" --coverage 1 --min-share 0
expect_output "wrote $work/g/p2p.tg.json: 16 tasks, 16 edges"
expect_output "wrote $work/g/alltoall.tg.json: 16 tasks, 24 edges"
checks=$((checks + 1))
grep -q '^critical types: \(p2p, alltoall\|alltoall, p2p\) (100.00%' "$work/out" ||
  { fail "critical types:"; cat "$work/out"; }

# Each pair: n bytes each way per iteration.
w=$((2 * n * iters))
expect_ok $tg gen qbox --rows 4 --cols 4 --periodic --p2p-bytes $w --alltoall-bytes $w \
  -o "$work/expect.tg.json"
same_layer() { # same_layer GRAPH TYPE: GRAPH's edges are the expected layer's
  checks=$((checks + 1))
  python3 - "$1" "$work/expect.tg.json" "$2" <<'EOF' || fail "$1 differs from the $2 layer of taskgraph gen qbox"
import json, sys
got = json.load(open(sys.argv[1]))["edges"]
layers = json.load(open(sys.argv[2]))["layers"]
sys.exit(0 if got == [l for l in layers if l["name"] == sys.argv[3]][0]["edges"] else 1)
EOF
}
same_layer "$work/g/p2p.tg.json" p2p
same_layer "$work/g/alltoall.tg.json" alltoall
expect_ok $tg convert "$work/g/sum.tg.json" "$work/sum.graph"
expect_ok $tg convert "$work/expect.tg.json" "$work/expect.graph"
checks=$((checks + 1))
cmp -s "$work/sum.graph" "$work/expect.graph" || fail "the Sum differs from taskgraph gen qbox"
finish
