#!/usr/bin/env bash
# cluster_reorder.sh: libtopomap-reorder on real hosts, the emulated
# cluster's (2 nodes x 4 slots): MPI_Cart_create(reorder = 1) from 8 ranks
# launched --map-by node, so that MPI's order alternates the hosts.  The
# library learns the hosts from the job itself (no TOPOMAP_REORDER_HOSTS)
# and returns the order that halves the bytes between hosts, as on the
# pretend hosts of tests/reorder_cart.sh; the program checks the returned
# communicator's validity.  TOPOMAP_REORDER=0 and reorder = 0 keep MPI's
# order.  Skipped (77) where network namespaces cannot be made.
. "$TOPOMAP_SRCDIR/tests/cluster_lib.sh"
cart=$MPI_TESTS/reorder_cart
preload=${SANITIZE_PRELOAD:-}$REORDER_LIB

cluster_up 2 --slots 4

# 4x2 from MPI_Dims_create on hosts node0, node1, node0, ...: MPI's order
# puts both ends of every y edge on two hosts (8 bytes), the result cuts
# 2 x edges (4 bytes).
H=node0,node1,node0,node1,node0,node1,node0,node1
expect_ok on_cluster mpirun -np 8 --map-by node -x LD_PRELOAD="$preload" \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 4"
expect_output "map 0 2 4 6 1 3 5 7"
expect_ok python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[0])
assert r["hosts"] == [{"name": "node0", "ranks": [0, 2, 4, 6]},
                      {"name": "node1", "ranks": [1, 3, 5, 7]}], r["hosts"]
assert r["reordered"] and r["identity"]["offnode_bytes"] == 8 and \
    r["result"]["offnode_bytes"] == 4, r' "$work/report.json"

# Turned off, and reorder = 0: MPI's order, 8 bytes between hosts.
expect_ok on_cluster mpirun -np 8 --map-by node -x LD_PRELOAD="$preload" \
  -x TOPOMAP_REORDER=0 "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 8"
expect_ok on_cluster mpirun -np 8 --map-by node -x LD_PRELOAD="$preload" \
  "$cart" $H 2 0 0 0 0 0
expect_output "dims 4x2 identity 8 result 8"

expect_ok cluster down
expect_gone "down"
finish
