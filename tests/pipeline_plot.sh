#!/usr/bin/env bash
# topomap-plot pareto: a file that is not a parmapper report, an
# incomplete report, a missing -o: clear errors, no picture.  With
# python3-matplotlib: a PNG of a hand-written report with a front of 3
# points, and of a real report (parmapper offline, 8 tasks on a 2x2
# torus); the test is skipped without matplotlib.  topomap-plot --help
# starts with the usage.  topomap-plot matrix: a pair that exchanged only
# empty messages (0 bytes) passes nothing, white, in a profile and in a
# graph; an input without a byte, or an edge outside the graph, a clear
# error and no picture.  Beyond 1024 ranks the cells are blocks of ranks
# (K a side, said), so that 30000 ranks or a profile of 1048576 cost
# little.
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
# An edge that names a task outside the graph: said, not drawn in a cell
# of another (nor a traceback).
echo '{"format": "topomap-taskgraph", "version": 1, "tasks": 3, "edges": [[0, 1, 5], [1, 3, 2]]}' > "$work/out.tg.json"
expect_fail 1 "topomap-plot: $work/out.tg.json: edges[1]: task id outside 0..2" \
  $plot matrix "$work/out.tg.json" -o "$work/o.png"
expect_no_file "$work/o.png"

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

# matrix of many ranks: up to 1024, a cell per pair; beyond, cells of K
# ranks a side (at most 1024 cells), the bytes of their pairs summed, K
# said in the line printed (and on the axes).  8000 tasks and one edge
# took 7.9 s and 2.5 GB (an 8000 x 8000 array, and copies), within 500 MB
# of data now (ulimit -d); 30000 tasks, and a profile of 1048576 ranks,
# ended in a traceback (MemoryError).
graph_of() { printf '{"format": "topomap-taskgraph", "version": 1, "tasks": %d, "edges": [[0, 1, 5], [2, %d, 7]]}' "$1" $(($1 - 1)); }
for n in 1024 1025 8000 30000; do graph_of $n > "$work/g$n.tg.json"; done
expect_ok $plot matrix "$work/g1024.tg.json" -o "$work/g1024.png"
expect_output "wrote $work/g1024.png: 1 panel (graph), 1024 tasks"
expect_ok $plot matrix "$work/g1025.tg.json" -o "$work/g1025.png"
expect_output "wrote $work/g1025.png: 1 panel (graph), 1025 tasks, 2 tasks a cell (513 x 513 cells, bytes summed)"
expect_ok bash -c 'ulimit -d 500000 && exec "$@"' - $plot matrix "$work/g8000.tg.json" -o "$work/g8000.png"
expect_output "wrote $work/g8000.png: 1 panel (graph), 8000 tasks, 8 tasks a cell (1000 x 1000 cells, bytes summed)"
is_png "$work/g8000.png"
expect_ok bash -c 'ulimit -d 500000 && exec "$@"' - $plot matrix "$work/g30000.tg.json" -o "$work/g30000.png"
expect_output "wrote $work/g30000.png: 1 panel (graph), 30000 tasks, 30 tasks a cell (1000 x 1000 cells, bytes summed)"
sed 's/"world_size": 2,/"world_size": 1048576,/; s/"rank": 1,/"rank": 1048575,/; s/"rma": \[\[1, 8, 1\]\]/"rma": [[1048575, 8, 1]]/' \
  "$work/rma.json" > "$work/huge.json"
expect_ok $plot matrix "$work/huge.json" -o "$work/h.png"
expect_output "wrote $work/h.png: 1 panel (rma), 1048576 ranks, 1024 ranks a cell (1024 x 1024 cells, bytes summed)"
is_png "$work/h.png"
finish
