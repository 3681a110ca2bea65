#!/usr/bin/env bash
# topomap-plot pareto: a file that is not a parmapper report, an
# incomplete report, a missing -o: clear errors, no picture.  With
# python3-matplotlib: a PNG of a hand-written report with a front of 3
# points, and of a real report (parmapper offline, 8 tasks on a 2x2
# torus); the test is skipped without matplotlib.  topomap-plot --help
# starts with the usage.  topomap-plot matrix: a pair that exchanged only
# empty messages (0 bytes) passes nothing, white, in a profile and in a
# graph; an input without a byte, a clear error and no picture.
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

# --help: the usage first, then the commands.  (The line of the usage was
# left out: the help began with the table of commands.)
expect_ok $plot --help
checks=$((checks + 1))
[ "$(head -n 1 "$work/out")" = "usage: topomap-plot matrix|pareto INPUT -o FILE.png [--title TEXT]" ] ||
  fail "--help starts with: $(head -n 1 "$work/out")"
expect_grep "  matrix PROFILE|GRAPH -o FILE.png   the communication matrix as a heatmap" "$work/out"

# matrix: an input whose pairs passed no byte (2 ranks, p2p, 3 empty
# messages from 0 to 1; a graph without edges) has nothing to draw: said,
# exit 1, no picture.  (They ended in a traceback, ValueError.)
cat > "$work/empty.json" <<'EOF'
{"format": "topomap-commprof", "version": 1, "mpi_library": "fixture", "world_size": 2,
 "types": ["p2p"],
 "ranks": [
  {"rank": 0, "host": "n0", "local_rank": 0, "cpus": "0", "wall_ns": 1000, "mpi_ns": 100,
   "types": {"p2p": {"ns": 100, "calls": 3}}, "sent": [[1, 0, 3]], "received": [], "rma": []},
  {"rank": 1, "host": "n0", "local_rank": 1, "cpus": "1", "wall_ns": 1000, "mpi_ns": 100,
   "types": {"p2p": {"ns": 100, "calls": 3}}, "sent": [], "received": [[0, 0, 3]], "rma": []}],
 "communicators": []}
EOF
echo '{"format": "topomap-taskgraph", "version": 1, "tasks": 3, "edges": []}' > "$work/none.tg.json"
expect_fail 1 "topomap-plot: $work/empty.json: no bytes to draw (0 between every pair it lists)" \
  $plot matrix "$work/empty.json" -o "$work/e.png"
expect_fail 1 "topomap-plot: $work/none.tg.json: no communication to draw" \
  $plot matrix "$work/none.tg.json" -o "$work/n.png"
for f in e n; do expect_no_file "$work/$f.png"; done

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

# matrix: pairs of 0 bytes beside pairs of bytes, white, the log scale's
# limits from the bytes: in tests/data/profile_4.json rank 2 sent rank 1
# three empty p2p messages (and empty bcasts, without peers); in a graph,
# an edge of weight 0.  (Both ended in a traceback, ValueError: Invalid
# vmin or vmax, the scale's lower limit 0.)
expect_ok $plot matrix "$TOPOMAP_DATA/profile_4.json" -o "$work/p4.png"
expect_output "wrote $work/p4.png: 6 panels (p2p, allreduce, alltoall, bcast, scatter, rma), 4 ranks"
is_png "$work/p4.png"
echo '{"format": "topomap-taskgraph", "version": 1, "tasks": 3, "edges": [[0, 1, 0], [1, 2, 5]]}' > "$work/zero.tg.json"
expect_ok $plot matrix "$work/zero.tg.json" -o "$work/z.png"
expect_output "wrote $work/z.png: 1 panel (graph), 3 tasks"
is_png "$work/z.png"
# A type with empty messages only gets no panel, as a barrier: the p2p
# of the profile above, beside 8 bytes of RMA from rank 0 to rank 1.
cat > "$work/rma.json" <<'EOF'
{"format": "topomap-commprof", "version": 1, "mpi_library": "fixture", "world_size": 2,
 "types": ["p2p", "rma"],
 "ranks": [
  {"rank": 0, "host": "n0", "local_rank": 0, "cpus": "0", "wall_ns": 1000, "mpi_ns": 100,
   "types": {"p2p": {"ns": 100, "calls": 3}, "rma": {"ns": 10, "calls": 1}},
   "sent": [[1, 0, 3]], "received": [], "rma": [[1, 8, 1]]},
  {"rank": 1, "host": "n0", "local_rank": 1, "cpus": "1", "wall_ns": 1000, "mpi_ns": 100,
   "types": {"p2p": {"ns": 100, "calls": 3}}, "sent": [], "received": [[0, 0, 3]], "rma": []}],
 "communicators": []}
EOF
expect_ok $plot matrix "$work/rma.json" -o "$work/r.png"
expect_output "wrote $work/r.png: 1 panel (rma), 2 ranks"
is_png "$work/r.png"
finish
