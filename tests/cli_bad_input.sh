#!/usr/bin/env bash
# Bad input to the taskgraph command: "taskgraph: FILE:LINE: problem",
# a non-zero exit, and no output file (nor a stray temporary) left behind.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
tg=$TASKGRAPH
in=$work/in
mkdir -p "$in" "$work/o"

bad() { # bad NAME CONTENT EXPECTED-MESSAGE: convert NAME must fail with it
  printf '%b' "$2" > "$in/$1"
  expect_fail 1 "taskgraph: $in/$1$3" $tg convert "$in/$1" "$work/o/out.tg.json"
  expect_no_file "$work/o/out.tg.json"
}

# METIS: unparsable number, negative weight, overflow, id out of range,
# header/body disagreement, asymmetric adjacency, truncated, empty.
bad num.graph      '3 2 001\n2 x\n1 5 3 5\n2 5\n' ':2:'
bad neg.graph      '3 2 001\n2 -5\n1 -5 3 5\n2 5\n' ':2:'
bad ovf.graph      '2 1 001\n2 99999999999999999999\n1 99999999999999999999\n' ':2:'
bad big.graph      '2 1 001\n2 9223372036854775808\n1 9223372036854775808\n' ':2:'
bad range.graph    '3 2\n2\n1 4\n2\n' ':3:'
bad count.graph    '3 5\n2\n1 3\n2\n' ':1: header says 5 edges, body has 2'
bad asym.graph     '3 2\n2\n1 3\n\n' ':3:'
bad trunc.graph    '4 3\n2\n1 3\n' ':'
bad empty.graph    '' ': empty file'
# Scotch and Matrix Market.
bad trunc.grf      '0\n3 4\n0 000\n1 1\n2 0 2\n' ':'
bad ver.grf        '7\n2 2\n0 000\n1 1\n1 0\n' ':1:'
bad range.mtx      '%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n' ':4:'
bad nonsquare.mtx  '%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n' ':2:'
bad trunc.mtx      '%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n' ':'
bad cplx.mtx       '%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n' ':1:'
# JSON.
bad syntax.tg.json '{"format": "topomap-taskgraph",\n "version": 1,\n "tasks": [}\n' ':3:'
bad ver.tg.json    '{"format": "topomap-taskgraph", "version": 9, "tasks": 1, "edges": []}' ': unsupported task-graph version'
# An edge or a period that is wrong: at its line.
tgj='{"format": "topomap-taskgraph", "version": 1, "tasks": 3,\n "edges": [\n  [0, 1, 5]'
bad w0.tg.json     "$tgj"',\n  [1, 2, 0]\n ]}\n' ':4: edges[1]: weight 0 must be positive'
bad id.tg.json     "$tgj"',\n  [1, 3, 1]\n ]}\n' ':4: edges[1]: task id outside 0..2'
bad ab.tg.json     "$tgj"',\n  [2, 1, 1]\n ]}\n' ':4: edges[1]: [2, 1, ...] must have a < b'
bad twice.tg.json  "$tgj"',\n  [1, 2, 1],\n  [0, 1, 2]\n ]}\n' ':5: edges[2]: edge 0-1 is listed twice'
bad real.tg.json   "$tgj"',\n  [1, 2, 1.5]\n ]}\n' ':4: edges[1]: must be [a, b, weight] with three integers'
bad layer.tg.json  "$tgj"'\n ],\n "layers": [{"name": "p2p", "edges": [\n  [0, 1, 0]]}]}\n' ':6: layers[0].edges[0]: weight 0 must be positive'
bad p7.tg.json     "$tgj"'\n ],\n "grid": {"dims": [3],\n  "periods": [7]}}\n' ':6: grid.periods[0]: 7 must be 0 or 1'
bad pneg.tg.json   "$tgj"'\n ],\n "grid": {"dims": [3], "periods": [-5]}}\n' ':5: grid.periods[0]: -5 must be 0 or 1'

# Unknown extensions, missing files, read-only formats.
printf '1 2\n' > "$in/g.txt"
expect_fail 1 "taskgraph: $in/g.txt: unknown graph format" $tg info "$in/g.txt"
expect_fail 1 "taskgraph: $in/none.graph: cannot open" $tg info "$in/none.graph"
expect_ok $tg gen stencil --dims 3x3 -o "$work/g.graph"
expect_fail 1 "unknown graph format" $tg convert "$work/g.graph" "$work/o/g.dot"
expect_fail 1 "Matrix Market is read only" $tg convert "$work/g.graph" "$work/o/g.mtx"
expect_fail 1 "cannot create" $tg convert "$work/g.graph" "$work/nodir/g.graph"
checks=$((checks + 1)); [ "$(count_files "$work/o")" -eq 0 ] || { fail "files left in output folder:"; ls -a "$work/o"; }

# A failed conversion does not touch an existing output file.
cp "$work/g.graph" "$work/o/keep.graph"
expect_fail 1 "taskgraph: $in/num.graph:2:" $tg convert "$in/num.graph" "$work/o/keep.graph"
checks=$((checks + 1)); cmp -s "$work/g.graph" "$work/o/keep.graph" || fail "failed convert changed an existing file"
rm "$work/o/keep.graph"

# Usage errors: exit 2 and a pointer to --help.
expect_fail 2 "unknown command 'frobnicate'" $tg frobnicate
expect_fail 2 "unknown option '--bogus'" $tg info --bogus "$work/g.graph"
# An option the command does not take is named, not the value after it.
expect_fail 2 "taskgraph info: unknown option '--to' (see 'taskgraph info --help')" $tg info "$work/g.graph" --to json
expect_fail 2 "taskgraph info: unknown option '--to' (see" $tg info "$work/g.graph" --to=json
expect_fail 2 "taskgraph convert: unknown option '-o' (see" $tg convert "$work/g.graph" "$work/o/x.graph" -o foo
expect_fail 2 "taskgraph convert: unknown option '--output' (see" $tg convert "$work/g.graph" "$work/o/x.graph" --output foo
expect_fail 2 "taskgraph combine: unknown option '--mtx-weights' (see" $tg combine "$work/g.graph" -o "$work/o/c.graph" --mtx-weights values
expect_fail 2 "taskgraph info: unknown option '-x' (see" $tg info -x "$work/g.graph"
expect_fail 2 "taskgraph info: unknown option '--bogus' (see" $tg info --bogus=1 "$work/g.graph"
expect_fail 2 "unknown option '--bogus'" $tg gen stencil --dims 4 --bogus -o "$work/o/x.graph"
expect_fail 2 "option '--dims' needs a value" $tg gen stencil --dims
expect_fail 2 "--dims wants sizes like 16x16x16" $tg gen stencil --dims 4xx4 -o "$work/o/x.graph"
expect_fail 2 "--dims wants an integer" $tg gen stencil --dims 4x-1 -o "$work/o/x.graph"
expect_fail 2 "--bytes wants an integer in 1..9223372036854775807" $tg gen stencil --dims 4 --bytes 0 -o "$work/o/x.graph"
# A minus after blanks: strtoull would take ' -1' for 2^64 - 1.
expect_fail 2 "--seed wants an integer in 0..18446744073709551615, not ' -1'" $tg gen random-geometric --tasks 8 --radius 0.5 --seed ' -1' -o "$work/o/x.graph"
expect_fail 2 "--radius does not apply to stencil" $tg gen stencil --dims 4 --radius 0.1 -o "$work/o/x.graph"
expect_fail 2 "no output file" $tg gen stencil --dims 4
expect_fail 2 "unknown kind 'torus'" $tg gen torus -o "$work/o/x.graph"
expect_fail 2 "--to: unknown format 'dot'" $tg convert "$work/g.graph" "$work/o/x" --to dot
expect_fail 2 "missing argument" $tg convert "$work/g.graph"
expect_fail 2 "unexpected argument" $tg info "$work/g.graph" extra
expect_fail 2 "--mtx-weights: 'pattern' or 'values'" $tg info "$work/g.graph" --mtx-weights sum
expect_fail 1 "no type layers" $tg combine "$work/g.graph" -o "$work/o/c.graph"
expect_ok $tg gen qbox --rows 2 --cols 2 -o "$work/q.tg.json"
expect_fail 2 "no factor for layer 'alltoall'" $tg combine "$work/q.tg.json" --weights p2p=1 -o "$work/o/c.graph"
expect_fail 2 "the graph has no layer 'rma'" $tg combine "$work/q.tg.json" --weights rma=1 -o "$work/o/c.graph"
expect_fail 2 "--weights wants a number" $tg combine "$work/q.tg.json" --weights p2p=-1,alltoall=1 -o "$work/o/c.graph"
checks=$((checks + 1)); [ "$(count_files "$work/o")" -eq 0 ] || { fail "files left in output folder:"; ls -a "$work/o"; }
finish
