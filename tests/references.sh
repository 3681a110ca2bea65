#!/usr/bin/env bash
# Files written by topomap checked by independent tools: METIS's graphchk
# and Scotch's gtst accept them (and reject a broken file, so the check
# cannot pass vacuously), and Scotch's own converter (gcv) reads
# topomap's METIS and Matrix Market files into the same graphs that
# taskgraph reads.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
tg=$TASKGRAPH
for tool in "GRAPHCHK:metis" "SCOTCH_GTST:scotch" "SCOTCH_GCV:scotch"; do
  var=${tool%%:*}; pkg=${tool#*:}
  eval "path=\${$var:-}"
  if [ -z "$path" ] || [ ! -x "$path" ]; then
    echo "FAIL: $var not found: install the Debian package $pkg and re-run configure"
    exit 1
  fi
done

expect_ok $tg gen random-geometric --tasks 300 --radius 0.1 --seed 3 --bytes 77 -o "$work/g.graph"
expect_ok $tg convert "$work/g.graph" "$work/g.grf"
expect_ok $tg gen stencil --dims 5x6x7 --periodic --diagonals -o "$work/s.graph"
expect_ok $tg gen qbox --rows 6 --cols 5 --periodic -o "$work/q.graph"

for g in g s q; do
  expect_ok "$GRAPHCHK" "$work/$g.graph"
  checks=$((checks + 1)); grep -q "The format of the graph is correct" "$work/out" \
    || { fail "graphchk did not accept $g.graph:"; cat "$work/out"; }
done

# A graph whose adjacency is not symmetric: graphchk must reject it.
printf '3 2\n2\n1 3\n\n' > "$work/bad.graph"
"$GRAPHCHK" "$work/bad.graph" > "$work/out" 2>&1
checks=$((checks + 1)); grep -q "The format of the graph is correct" "$work/out" && fail "graphchk accepted a broken graph"

expect_ok $tg info "$work/g.grf"
edges=$(sed -n 's/^edges *//p' "$work/out")
bytes=$(sed -n 's/^total bytes *//p' "$work/out")
expect_ok "$SCOTCH_GTST" "$work/g.grf"
# gtst exits 0 even when graphCheck fails: its verdict is "ERROR" on stderr.
checks=$((checks + 1)); grep -q ERROR "$work/err" && { fail "gtst rejected g.grf:"; cat "$work/err"; }
# gtst counts undirected edges, and sums edge loads over both arcs.
gedges=$(sed -n 's/^S	Edge	nbr=\([0-9]*\).*/\1/p' "$work/out")
gload=$(sed -n 's/^S	Edge load.*sum=\([0-9]*\).*/\1/p' "$work/out")
checks=$((checks + 1)); [ -n "$edges" ] && [ "$gedges" = "$edges" ] || fail "gtst counts '$gedges' edges, taskgraph '$edges'"
checks=$((checks + 1)); [ -n "$bytes" ] && [ "$gload" = "$((2 * bytes))" ] || fail "gtst edge load sum '$gload', taskgraph 2 x '$bytes'"
# Arc 0->1 and arc 1->2 with no way back: gtst must reject it.
printf '0\n3 2\n0 000\n1 1\n1 2\n0\n' > "$work/bad.grf"
"$SCOTCH_GTST" "$work/bad.grf" > "$work/out" 2>&1
checks=$((checks + 1)); grep -q "ERROR: graphCheck: arc data do not match" "$work/out" || { fail "gtst accepted a broken graph"; cat "$work/out"; }

# Scotch's converter (its Chaco reader reads METIS files) and ours agree.
expect_ok "$SCOTCH_GCV" -ic "$work/g.graph" "$work/gcv.grf"
expect_ok $tg convert "$work/gcv.grf" "$work/gcv.graph"
checks=$((checks + 1)); cmp -s "$work/g.graph" "$work/gcv.graph" || fail "gcv's .grf differs from taskgraph's graph"

# Matrix Market: gcv symmetrises a pattern matrix; taskgraph reads the same
# edges (weights aside: gcv drops them, so compare the METIS structure).
cat > "$work/m.mtx" <<'MTX'
%%MatrixMarket matrix coordinate pattern general
6 6 8
1 2
2 1
2 3
4 3
5 4
6 5
1 6
3 3
MTX
expect_ok "$SCOTCH_GCV" -im "$work/m.mtx" "$work/mgcv.grf"
expect_ok $tg convert "$work/mgcv.grf" "$work/mgcv.graph"
expect_ok $tg convert "$work/m.mtx" "$work/m.graph"
# Keep the neighbours, drop the weights (every second number on a vertex line).
structure() { awk 'NR == 1 { print $1, $2; next } { s = ""; for (i = 1; i <= NF; i += 2) s = s " " $i; print s }' "$1"; }
structure "$work/m.graph" > "$work/m.struct"
structure "$work/mgcv.graph" > "$work/mgcv.struct"
checks=$((checks + 1)); cmp -s "$work/m.struct" "$work/mgcv.struct" || { fail "gcv and taskgraph read different Matrix Market graphs"; diff "$work/m.struct" "$work/mgcv.struct"; }
finish
