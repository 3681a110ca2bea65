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

# 20000 layers, read in time linear in the file (their names checked by a
# hash, each layer's edges found without a pass over all the arrays: 0.56 s
# here before, 0.05 s now), each with its own edges: plain arrays, and
# one that jansson reads (its key written with an escape).
python3 - "$work/layers.tg.json" <<'PY'
import sys
ls = []
for i in range(20000):
    if i == 10000:
        ls.append('{"name": "l%d", "\\u0065dges": [[1, 2, 5]]}' % i)
    elif i % 5000 == 1:
        ls.append('{"name": "l%d", "edges": [[0, %d, %d]]}' % (i, 1 + i % 3, i))
    else:
        ls.append('{"name": "l%d", "edges": []}' % i)
open(sys.argv[1], "w").write('{"format": "topomap-taskgraph", "version": 1, "tasks": 4, '
                             '"edges": [[0, 1, 1]], "layers": [' + ",\n".join(ls) + "]}\n")
PY
expect_ok $tg info "$work/layers.tg.json"
expect_output "layers       l0: 0 edges, 0 bytes"
expect_output "             l1: 1 edges, 1 bytes"
expect_output "             l5001: 1 edges, 5001 bytes"
expect_output "             l10000: 1 edges, 5 bytes"
expect_output "             l15001: 1 edges, 15001 bytes"
expect_output "             l19999: 0 edges, 0 bytes"
checks=$((checks + 1))
[ "$(grep -cE ' l[0-9]+: ' "$work/out")" -eq 20000 ] || fail "info: not 20000 layers"
# Two layers of one name, the last named like the eighth: at its line.
sed 's/"l19999"/"l7"/' "$work/layers.tg.json" > "$work/dup.tg.json"
expect_fail 1 "taskgraph: $work/dup.tg.json:20000: two layers are called 'l7'" $tg info "$work/dup.tg.json"

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

# METIS and Scotch hold the graph alone: the grid, types and layers stay
# behind, as convert --help says.
expect_ok $tg convert "$work/qbox.tg.json" "$work/qbox.graph"
expect_ok $tg info "$work/qbox.graph"
expect_output "types        none recorded"
expect_output "layers       none"
checks=$((checks + 1)); grep -q '^grid' "$work/out" && fail "a grid in a METIS file"
expect_ok $tg convert --help
expect_output "Types, layers and the grid survive only in .tg.json."

# Help everywhere, exit 0.
for sub in "" gen convert info combine; do
  expect_ok $tg $sub --help
  checks=$((checks + 1)); grep -q '^usage: taskgraph' "$work/out" || fail "no usage in '$sub --help'"
done
expect_ok $tg --version

# --help and taskgraph(1) list the same options with the same syntax: each
# subcommand's usage lines (up to the first blank line) and its SYNOPSIS
# lines name the same ones, and every option of the getopt tables is in
# some --help and in the page.
page=$TOPOMAP_SRCDIR/doc/taskgraph.1
# The options ("-o", "--to") of stdin, sorted, on one line; man's \- is -.
opts() { sed 's/\\-/-/g' | grep -oE -- '(^|[][ |(])--?[a-zA-Z][a-z0-9-]*' | sed 's/^[][ |(]//' | LC_ALL=C sort -u | tr '\n' ' '; }
# The SYNOPSIS lines of "taskgraph SUB" (both of info), to the next .br.
synopsis() {
  awk -v cmd="$1" '/^\.SH/ { on = $2 == "SYNOPSIS" } on && $0 == ".B taskgraph " cmd { take = 1 }
    on && take && /^\.br$/ { take = 0 } on && take' "$page" | opts
}
declare -A want=([gen]="--to -o " [convert]="--from --mtx-weights --to " [info]="--from --mtx-weights "
  [combine]="--from --to --weights -o " [matrix]="--received --type " [merge]="--allow-missing -o "
  [build]="--allreduce-model --coverage --format --large --min-share --phase -o ")
for sub in gen convert info combine matrix merge build; do
  u=$($tg $sub --help | sed '/^$/q' | opts)
  s=$(synopsis $sub)
  checks=$((checks + 1))
  [ "$u" = "${want[$sub]}" ] || fail "taskgraph $sub --help usage: '$u', not '${want[$sub]}'"
  checks=$((checks + 1))
  [ "$s" = "${want[$sub]}" ] || fail "taskgraph(1) SYNOPSIS of $sub: '$s', not '${want[$sub]}'"
done
helps=" $({ $tg --help; for sub in gen convert info combine matrix merge build; do $tg $sub --help; done; } | opts)"
pages=" $(opts < "$page")"
for opt in --help --version --output --from --to --mtx-weights --weights --dims --periodic \
  --diagonals --bytes --rows --cols --p2p-bytes --alltoall-bytes --tasks --radius --seed \
  --type --received --allow-missing --large --coverage --min-share --allreduce-model \
  --format --phase; do
  checks=$((checks + 1))
  [[ $helps == *" $opt "* ]] || fail "$opt is in no taskgraph --help"
  checks=$((checks + 1))
  [[ $pages == *" $opt "* ]] || fail "$opt is not in taskgraph(1)"
done
finish
