#!/usr/bin/env bash
# libtopomap-reorder on MPI_Cart_create (tests/mpi/reorder_cart.c, 8
# ranks on pretend hosts): 2-D and 3-D grids, periodic and not, dims from
# MPI_Dims_create and given.  Every returned communicator is checked for
# validity by the program; here the bytes crossing hosts in MPI's order
# and in the returned one, exact (one byte per direction and neighbour,
# counted by hand in the comments), the report (one whole line per call,
# calls on communicators whose rank 0 differ, in turn and at the same
# time, included; added to what the file holds), reorder = 0,
# TOPOMAP_REORDER=0, internal failures (warned, MPI's order kept) and a
# report that cannot be written (warned, the order applied all the same).
. "$TOPOMAP_SRCDIR/tests/reorder_lib.sh"
cart=$MPI_TESTS/reorder_cart

# 4x2 from MPI_Dims_create, hosts alternating: MPI's order puts the two
# ends of every y edge (4) on two hosts, 8 bytes; halves x < 2 and x >= 2
# cut 2 x edges, 4 bytes.
H=a,b,a,b,a,b,a,b
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 4"
expect_output "map 0 2 4 6 1 3 5 7"
expect_ok report_line 1
expect_output '{"call":"MPI_Cart_create","size":8,"tasks":8,"hosts":[{"name":"a","ranks":[0,2,4,6]},{"name":"b","ranks":[1,3,5,7]}],"mapper":"block","reordered":true,"permutation":[0,2,4,6,1,3,5,7],"identity":{"offnode_bytes":8,"hop_bytes_total":32,"hop_bytes_avg":4},"result":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2}}'

# Beside libcommprof: the profile sees the reordered communicator (its
# members in the new order) and none of the library's own traffic (it
# talks through PMPI_: no gather, scatter or bcast in the profile).
RUN_PRELOAD="$REORDER_LIB:$COMMPROF_LIB" expect_ok run 8 $H \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  -x COMMPROF_OUT="$work/cp.json" "$cart" $H 2 0 0 0 0 1
expect_output "map 0 2 4 6 1 3 5 7"
checks=$((checks + 1))
[ "$(wc -l < "$work/report.json")" -eq 1 ] || fail "beside libcommprof: not 1 report line: $(cat "$work/report.json")"
expect_ok python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
cart = [c for c in p["communicators"] if c["members"] == [0, 2, 4, 6, 1, 3, 5, 7]]
assert len(cart) == 1, p["communicators"]
types = {e["type"] for c in p["communicators"] for e in c.get("collectives", [])}
assert "neighbor_allgather" in types and not types & {"gather", "gatherv", "scatter", "bcast"}, types
' "$work/cp.json"

# 4x2 given, x periodic, hosts in pairs (host = x mod 2), spelled
# NAME:K: every x edge (2 rings of 4) crosses, 16 bytes; the best cut is
# 4 edges, 8 bytes.
H=a,a,b,b,a,a,b,b
expect_ok run 8 a:2,b:2,a:2,b:2 "$cart" $H 2 4 2 1 0 1
expect_output "dims 4x2 identity 16 result 8"
# The same without periods: 6 x edges cross (12 bytes), then 2 (4).
expect_ok run 8 a:2,b:2,a:2,b:2 "$cart" $H 2 4 2 0 0 1
expect_output "dims 4x2 identity 12 result 4"

# 2x2x2 from MPI_Dims_create, hosts a checkerboard: all 12 edges cross
# (24 bytes); two half-cubes cut 4 (8 bytes).
H=a,b,b,a,b,a,a,b
expect_ok run 8 $H "$cart" $H 3 0 0 0 0 0 0 1
expect_output "dims 2x2x2 identity 24 result 8"
# Periodic: in a dimension of 2 both directions reach the same neighbour,
# so every edge counts 4 bytes: 48, then 16.
expect_ok run 8 $H "$cart" $H 3 2 2 2 1 1 1 1
expect_output "dims 2x2x2 identity 48 result 16"

# 4 hosts of 2 where MPI's order is already best (pairs along x; 8 edges
# of 4 bytes cross either way): the identity is kept, and said so.
H=a,b,c,d,a,b,c,d
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  "$cart" $H 3 2 2 2 1 1 1 1
expect_output "dims 2x2x2 identity 32 result 32"
expect_output "map 0 1 2 3 4 5 6 7"
expect_ok report_line 1
expect_output '{"call":"MPI_Cart_create","size":8,"tasks":8,"hosts":[{"name":"a","ranks":[0,4]},{"name":"b","ranks":[1,5]},{"name":"c","ranks":[2,6]},{"name":"d","ranks":[3,7]}],"mapper":"identity","reordered":false,"permutation":[0,1,2,3,4,5,6,7],"identity":{"offnode_bytes":32,"hop_bytes_total":128,"hop_bytes_avg":16},"result":{"offnode_bytes":32,"hop_bytes_total":128,"hop_bytes_avg":16}}'

# Every reordering call's line reaches the report, whichever process is
# its rank 0, each line whole and valid JSON (report_hosts: the first host
# of each line, in file order).  Two calls in turn (a ring on a reversed
# copy of MPI_COMM_WORLD, its rank 0 world rank 7 on host d, then on
# MPI_COMM_WORLD, rank 0 on a): the first call's line is in the file
# before that call returns, so before the second's.  Two at the same time
# (a ring on the even ranks, hosts a,c,a,c, and one on the odd ranks,
# b,d,b,d): both lines, in either order.  Hosts alternate along each ring,
# so every call reorders (identity 16 bytes across hosts, result 8;
# halves 8 and 4).  The lines go after what the file holds: a line of an
# earlier job stays, and half of one (a writer killed mid-line) is cut off
# ("stale": lines that are not a call's).
report_hosts() {
  python3 -c '
import json, sys
data = open(sys.argv[1]).read()
assert data.endswith("\n"), "torn end: %r" % data[-80:]
lines = [json.loads(l) for l in data.split("\n")[:-1]]
assert all("stale" in r or r["call"] == "MPI_Cart_create" and r["reordered"] for r in lines), data
print(" ".join("stale" if "stale" in r else r["hosts"][0]["name"] for r in lines))' "$work/stale.json"
}
H=a,b,c,d,a,b,c,d
printf '{"stale":1}\n{"stale":' > "$work/stale.json"
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/stale.json" \
  "$cart" $H 1 0 1 1 reversed
expect_output "dims 8 identity 16 result 8"
expect_output "map 7 3 6 2 5 1 4 0"
expect_output "map 0 4 1 5 2 6 3 7"
expect_ok report_hosts
expect_output "stale d a"
printf '{"stale":1}\n' > "$work/stale.json"
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/stale.json" \
  "$cart" $H 1 0 1 1 halves
expect_output "dims 4 identity 8 result 4"
expect_output "map 0 4 2 6"
expect_output "map 1 5 3 7"
expect_ok report_hosts
checks=$((checks + 1))
case $(cat "$work/out") in
  "stale a b"|"stale b a") ;;
  *) fail "halves: not one line per half: $(cat "$work/stale.json")" ;;
esac

# An application's result does not change with the order: halo3d (a
# 2x2x2 periodic grid; its state follows the grid position) gives the same
# checksum with --reorder 1, which the library honours on 2 pretend hosts
# in a checkerboard (every neighbour on the other host), as with
# --reorder 0.
H=a,b,b,a,b,a,a,b
expect_ok run 8 $H "$EXAMPLES/halo3d" --bytes 40 --iters 3
sum0=$(grep '^halo3d: ' "$work/out")
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  "$EXAMPLES/halo3d" --bytes 40 --iters 3 --reorder 1
expect_output "$sum0"
expect_grep '"reordered":true' "$work/report.json"

# A 3x2 grid on 8 ranks (hosts alternating) leaves 2 processes out.  MPI's
# order uses ranks 0-5: the 3 y edges cross, 6 bytes; host a has 4 slots,
# so x = 0, 1 there and x = 2 on b cut 2 x edges, 4 bytes.
H=a,b,a,b,a,b,a,b
expect_ok run 8 $H "$cart" $H 2 3 2 0 0 1
expect_output "dims 3x2 identity 6 result 4"

# reorder = 0: untouched, congruent to PMPI_Cart_create's (the program
# compares), no report.
rm -f "$work/report.json"
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  "$cart" $H 2 0 0 0 0 0
expect_output "dims 4x2 identity 8 result 8"
expect_output "map 0 1 2 3 4 5 6 7"
expect_no_file "$work/report.json"
# TOPOMAP_REORDER=0: off, even with reorder = 1.
expect_ok run 8 $H -x TOPOMAP_REORDER=0 \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_no_file "$work/report.json"

# Internal failures never stop the application: MPI's order, a warning.
expect_ok run 8 a,b "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_grep "libtopomap-reorder: MPI_Cart_create: TOPOMAP_REORDER_HOSTS names 2 processes, so none for rank 2 of MPI_COMM_WORLD" "$work/err"
# Said once for the job (by the lowest rank that saw it), not per rank.
checks=$((checks + 1))
[ "$(grep -c '^libtopomap-reorder:' "$work/err")" -eq 1 ] || fail "not one warning: $(cat "$work/err")"
expect_ok run 8 a,b,a,,a,b,a,b "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_grep "TOPOMAP_REORDER_HOSTS: empty host name at character 7" "$work/err"
# One entry more than ranks (a layout meant for another job) is refused
# too, not read as the first 8.
expect_ok run 8 $H,c "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_grep "libtopomap-reorder: MPI_Cart_create: TOPOMAP_REORDER_HOSTS names 9 processes, but MPI_COMM_WORLD has 8 ranks (one entry per rank); this and later topology communicators may keep MPI's rank order" "$work/err"
expect_ok run 8 a:4,b:3,c:2 "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_grep "TOPOMAP_REORDER_HOSTS names 9 processes, but MPI_COMM_WORLD has 8" "$work/err"
expect_ok run 8 $H -x TOPOMAP_REORDER_NETWORK=torus:1 "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_grep "libtopomap-reorder: MPI_Cart_create:" "$work/err"
# A greedymap network: 2 hosts on a 2-node mesh (neighbours at 1 hop).
expect_ok run 8 $H -x TOPOMAP_REORDER_NETWORK=mesh:2 \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 4"
expect_grep '"identity":{"offnode_bytes":8,"hop_bytes_total":16,' "$work/report.json"

# A report that cannot be written (no such folder) is no failure of the
# mapping: the ranks are reordered as with a report, and the warning says
# so.
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/missing/report.json" \
  "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 4"
expect_output "map 0 2 4 6 1 3 5 7"
expect_grep "libtopomap-reorder: MPI_Cart_create: $work/missing/report.json: cannot write the report: No such file or directory; the mapping is applied all the same; the report lacks this call's line (and may lack later ones, unwarned)" "$work/err"
checks=$((checks + 1))
[ "$(grep -c '^libtopomap-reorder:' "$work/err")" -eq 1 ] || fail "not one warning: $(cat "$work/err")"
finish
