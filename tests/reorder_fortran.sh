#!/usr/bin/env bash
# libtopomap-reorder from Fortran (tests/mpi/reorder_f.F90, `use mpi` and
# `use mpi_f08`; 8 ranks on hosts a,b,a,b,...): Open MPI's Fortran layer
# calls PMPI_ directly, so the library's Fortran entry points must catch
# the calls; each call is reordered exactly once (one report line each),
# MPI_UNWEIGHTED from Fortran is recognised, and the results are those
# of the C tests: the 4x2 grid 8 -> 4 bytes across hosts, the Wagner
# graph (every ring edge across, 16) -> 8.  Skipped (77) without mpifort.
. "$TOPOMAP_SRCDIR/tests/reorder_lib.sh"
if [ -z "${REORDER_F:-}" ]; then
  echo "SKIP: no working mpifort at configure time (install gfortran)"
  exit 77
fi
H=a,b,a,b,a,b,a,b
for prog in "$REORDER_F" "$REORDER_F08"; do
  rm -f "$work/report.json"
  expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/report.json" "$prog"
  expect_output "cart map 0 2 4 6 1 3 5 7"
  expect_output "failures 0"
  checks=$((checks + 1))
  [ "$(wc -l < "$work/report.json")" -eq 2 ] || fail "$(basename "$prog"): not 2 report lines: $(cat "$work/report.json")"
  expect_ok report_line 1
  checks=$((checks + 1))
  grep -qF '"call":"MPI_Cart_create"' "$work/out" &&
    grep -qF '"identity":{"offnode_bytes":8,' "$work/out" &&
    grep -qF '"result":{"offnode_bytes":4,' "$work/out" || fail "cart line: $(cat "$work/out")"
  expect_ok report_line 2
  checks=$((checks + 1))
  grep -qF '"call":"MPI_Dist_graph_create_adjacent"' "$work/out" &&
    grep -qF '"identity":{"offnode_bytes":16,' "$work/out" &&
    grep -qF '"result":{"offnode_bytes":8,' "$work/out" || fail "dist line: $(cat "$work/out")"
done
finish
