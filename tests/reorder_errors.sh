#!/usr/bin/env bash
# libtopomap-reorder passes bad input to MPI: with MPI_ERRORS_RETURN each
# bad constructor call (negative dims or ndims, more grid points than
# ranks, more graph nodes than ranks, a neighbour rank out of range, a
# null communicator; reorder = 1) returns the error class MPI itself
# returns (tests/mpi/reorder_errors.c compares it with the PMPI_ call's),
# and the library adds nothing on stderr.  A graph that Open MPI 4.1
# accepts although an edge names a node >= nnodes gets MPI's communicator
# and MPI_SUCCESS, and one warning from the library, which cannot map it.
# A report that cannot be written is warned apart, and says that the
# mapping is applied all the same.
. "$TOPOMAP_SRCDIR/tests/reorder_lib.sh"
expect_ok run 4 a,a,b,b -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  "$MPI_TESTS/reorder_errors"
for c in cart_negative_dims cart_too_many cart_negative_ndims \
  graph_too_many_nodes dist_adjacent_rank_out_of_range \
  dist_rank_out_of_range cart_null_comm; do
  checks=$((checks + 1))
  grep -qE "^$c ([1-9][0-9]*) \\1\$" "$work/out" || fail "no '$c CLASS CLASS' line: $(cat "$work/out")"
done
expect_output "graph_edge_out_of_range 0"
checks=$((checks + 1))
[ "$(grep -c libtopomap-reorder "$work/err")" -eq 1 ] || fail "not one warning: $(cat "$work/err")"
expect_grep "libtopomap-reorder: MPI_Graph_create: edge 0-4: task id outside 0..0; this and later topology communicators may keep MPI's rank order" "$work/err"
expect_no_file "$work/report.json"

# A report that cannot be written (no such folder), on a ring the library
# maps first: rank 0, which writes it, warns once that the mapping is
# applied all the same (the ring is MPI's communicator, reordered or
# not); the failure after it is still warned, once: a report's warning
# does not stand for it.
expect_ok run 4 a,a,b,b -x TOPOMAP_REORDER_REPORT="$work/missing/report.json" \
  "$MPI_TESTS/reorder_errors" first
expect_output "ring 0"
expect_output "graph_edge_out_of_range 0"
grep '^libtopomap-reorder:' "$work/err" > "$work/warnings"
printf '%s\n' \
  "libtopomap-reorder: MPI_Cart_create: $work/missing/report.json: cannot write the report: No such file or directory; the mapping is applied all the same; the report lacks this call's line (and may lack later ones, unwarned)" \
  "libtopomap-reorder: MPI_Graph_create: edge 0-4: task id outside 0..0; this and later topology communicators may keep MPI's rank order" > "$work/want"
checks=$((checks + 1))
diff "$work/want" "$work/warnings" || fail "not the 2 warnings: $(cat "$work/err")"
finish
