#!/usr/bin/env bash
# topomap-plot pareto: a file that is not a parmapper report, an
# incomplete report, a missing -o: clear errors, no picture.  With
# python3-matplotlib: a PNG of a hand-written report with a front of 3
# points, and of a real report (parmapper offline, 8 tasks on a 2x2
# torus); the test is skipped without matplotlib.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The script itself: its interpreter is Debian's python3, which
# python3-matplotlib is for (python3 on PATH may be another one).
plot=$TOPOMAP_SRCDIR/scripts/topomap-plot

cat > "$work/report.json" <<'EOF'
{"format": "topomap-parmapper-report", "version": 1,
 "graph": {"path": "dir/wsum.tg.json", "tasks": 8},
 "machine": {"nodes": 4, "slots": 8, "network": "torus:2x2"},
 "search": {"select": "alpha", "alpha": 1.05, "runs": 40, "seconds": 1.0},
 "front": [{"hop_bytes_avg": 100.0, "hop_bytes_max": 300},
           {"hop_bytes_avg": 104.0, "hop_bytes_max": 200},
           {"hop_bytes_avg": 150.0, "hop_bytes_max": 180}],
 "chosen": {"hop_bytes_avg": 104.0, "hop_bytes_max": 200},
 "default": {"mapping": "block", "metrics": {"hop_bytes_avg": 400.0, "hop_bytes_max": 500}}}
EOF
sed 's/"chosen"/"picked"/' "$work/report.json" > "$work/partial.json"
echo '{"format": "topomap-taskgraph"}' > "$work/graph.json"

expect_fail 1 "topomap-plot: $work/graph.json: not a parmapper report" \
  $plot pareto "$work/graph.json" -o "$work/g.png"
expect_fail 1 "topomap-plot: $work/partial.json: not a complete parmapper report (no 'chosen')" \
  $plot pareto "$work/partial.json" -o "$work/p.png"
expect_fail 2 "no output file: give -o FILE.png" $plot pareto "$work/report.json"
expect_fail 2 "give one report" $plot pareto -o "$work/x.png"
for f in g p x; do expect_no_file "$work/$f.png"; done

if ! /usr/bin/python3 -c 'import matplotlib' 2> /dev/null; then
  echo "/usr/bin/python3 has no matplotlib (Debian: python3-matplotlib): no picture drawn"
  [ "$failures" -eq 0 ] || finish
  exit 77
fi
is_png() {
  checks=$((checks + 1))
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is not a PNG"
}
expect_ok $plot pareto "$work/report.json" -o "$work/front.png"
expect_output "wrote $work/front.png: 3 points on the front, the chosen point and the default mapping"
is_png "$work/front.png"

"$TASKGRAPH" gen stencil --dims 2x4 -o "$work/s.tg.json" > /dev/null
expect_ok mpirun -np 1 "$PARMAPPER" "$work/s.tg.json" --nodes 4 --slots 2 \
  --network torus:2x2 --first --report "$work/real.json"
expect_ok $plot pareto "$work/real.json" -o "$work/real.png" --title "2x4 stencil"
is_png "$work/real.png"
finish
