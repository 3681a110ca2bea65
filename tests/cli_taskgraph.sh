#!/usr/bin/env bash
# The taskgraph command end to end: gen, info, convert, combine, --help.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
tg=$TASKGRAPH

# A 16^4 periodic lattice (MILC-like): 262144 edges, degree 8.
expect_ok $tg gen stencil --dims 16x16x16x16 --periodic --bytes 10 -o "$work/milc.tg.json"
expect_output "wrote $work/milc.tg.json: 65536 tasks, 262144 edges"
expect_ok $tg info "$work/milc.tg.json"
expect_output "tasks        65536"
expect_output "edges        262144"
expect_output "total bytes  2621440"
expect_output "degree       min 8, avg 8.00, max 8"
expect_output "components   1 (0 isolated tasks)"
expect_output "types        p2p (factor 1)"

# 27-point 3-D stencil, periodic 4x4x4: 13 * 64 = 832 edges, degree 26.
expect_ok $tg gen stencil --dims 4x4x4 --periodic --diagonals -o "$work/s27.graph"
expect_ok $tg info "$work/s27.graph"
expect_output "edges        832"
expect_output "degree       min 26, avg 26.00, max 26"

# Qbox 4x6: p2p 4*5 = 20 edges, alltoall 6 * C(4,2) = 36 edges.
expect_ok $tg gen qbox --rows 4 --cols 6 --p2p-bytes 1000 --alltoall-bytes 250 -o "$work/qbox.tg.json"
expect_ok $tg info "$work/qbox.tg.json"
expect_output "edges        56"
expect_output "total bytes  29000"
expect_output "layers       p2p: 20 edges, 20000 bytes"
expect_output "             alltoall: 36 edges, 9000 bytes"
# Weighted-sum 0.6/0.4: 20*600 + 36*100 = 15600 bytes.
expect_ok $tg combine "$work/qbox.tg.json" --weights p2p=0.6,alltoall=0.4 -o "$work/w.tg.json"
expect_ok $tg info "$work/w.tg.json"
expect_output "total bytes  15600"
expect_output "types        p2p (factor 0.6), alltoall (factor 0.4)"
expect_ok $tg combine "$work/qbox.tg.json" -o "$work/s.graph"
expect_ok $tg info "$work/s.graph"
expect_output "total bytes  29000"

# Random geometric graphs are reproducible from the seed.
expect_ok $tg gen random-geometric --tasks 500 --radius 0.08 --seed 7 -o "$work/r1.grf"
expect_output "seed 7"
expect_ok $tg gen random-geometric --tasks 500 --radius 0.08 --seed 7 -o "$work/r2.grf"
checks=$((checks + 1)); cmp -s "$work/r1.grf" "$work/r2.grf" || fail "same seed, different graphs"
expect_ok $tg gen random-geometric --tasks 500 --radius 0.08 --seed 8 -o "$work/r3.grf"
checks=$((checks + 1)); cmp -s "$work/r1.grf" "$work/r3.grf" && fail "different seeds, same graph"

# Round trip through every format keeps the graph (compare as METIS text).
expect_ok $tg convert "$work/r1.grf" "$work/r1.tg.json"
expect_ok $tg convert "$work/r1.tg.json" "$work/r1.graph"
expect_ok $tg convert "$work/r1.graph" "$work/r1b.grf"
checks=$((checks + 1)); cmp -s "$work/r1.grf" "$work/r1b.grf" || fail "grf -> json -> metis -> grf changed the graph"
expect_ok $tg convert "$work/r1.graph" "$work/r1.txt" --to json
expect_ok $tg convert "$work/r1.txt" "$work/r1c.graph" --from json
checks=$((checks + 1)); cmp -s "$work/r1.graph" "$work/r1c.graph" || fail "--from/--to changed the graph"

# Matrix Market in, symmetric storage: the 3x3 path 1-2-3 with values.
cat > "$work/m.mtx" <<'MTX'
%%MatrixMarket matrix coordinate real symmetric
% a path
3 3 3
1 1 4.0
2 1 -7.5
3 2 2.0
MTX
expect_ok $tg info "$work/m.mtx"
expect_output "edges        2"
expect_output "total bytes  4"
# |-7.5| rounds to 8 and 2.0 to 2, both counted in both directions.
expect_ok $tg info "$work/m.mtx" --mtx-weights values
expect_output "total bytes  20"

# Help everywhere, exit 0.
for sub in "" gen convert info combine; do
  expect_ok $tg $sub --help
  checks=$((checks + 1)); grep -q '^usage: taskgraph' "$work/out" || fail "no usage in '$sub --help'"
done
expect_ok $tg --version
finish
