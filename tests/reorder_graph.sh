#!/usr/bin/env bash
# libtopomap-reorder on the graph constructors (tests/mpi/reorder_graph.c,
# 8 ranks on 2 pretend hosts a:4,b:4): MPI_Dist_graph_create_adjacent and
# MPI_Dist_graph_create with and without weights, MPI_Graph_create.  The
# graph is the Wagner graph (ring i-1, i+1 and chord i+4); the program
# checks neighbours, weights and a neighbourhood alltoall on the result.
# By hand, directed edges crossing hosts: MPI's order cuts the 8 chord
# directions and ring edges 3-4 and 7-0 (4 directions): 12 unweighted, 804
# with chords of 100.  The Wagner graph's bisection width is 4 edges, 8
# directions; with weights, keeping every chord on one host cuts 4 ring
# edges, 8 bytes.
. "$TOPOMAP_SRCDIR/tests/reorder_lib.sh"
graph=$MPI_TESTS/reorder_graph
H=a,a,a,a,b,b,b,b
for kind in adjacent general; do
  expect_ok run 8 a:4,b:4 -x TOPOMAP_REORDER_REPORT="$work/report.json" \
    "$graph" $H $kind 0
  expect_output "identity 12 result 8"
  expect_grep '"reordered":true' "$work/report.json"
  expect_ok run 8 a:4,b:4 -x TOPOMAP_REORDER_REPORT="$work/report.json" \
    "$graph" $H $kind 1
  expect_output "identity 804 result 8"
  expect_grep '"identity":{"offnode_bytes":804,' "$work/report.json"
  expect_grep '"result":{"offnode_bytes":8,' "$work/report.json"
  checks=$((checks + 1))
  [ "$(wc -l < "$work/report.json")" -eq 1 ] || fail "$kind: not 1 report line: $(cat "$work/report.json")"
done
expect_ok run 8 a:4,b:4 "$graph" $H graph 0
expect_output "identity 12 result 8"
# Off: MPI's order.
expect_ok run 8 a:4,b:4 -x TOPOMAP_REORDER=0 "$graph" $H adjacent 1
expect_output "identity 804 result 804"
expect_output "map 0 1 2 3 4 5 6 7"
finish
