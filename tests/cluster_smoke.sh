#!/usr/bin/env bash
# cluster_smoke.sh: the emulated cluster in a minute: 2 nodes up, an MPI
# job of 4 ranks across them, down, and nothing left behind.  Skipped
# (77) with the reason where network namespaces cannot be made.
. "$TOPOMAP_SRCDIR/tests/cluster_lib.sh"

cluster_up 2 --slots 2 --rate 1gbit

# Each node answers with its own hostname.
expect_ok on_cluster hostname && expect_output node0
expect_ok cluster run --node node1 -- hostname && expect_output node1

# mpirun on node0 launches across the nodes: 2 ranks on each, by slot.
expect_ok on_cluster mpirun -np 4 "$MPI_TESTS/whereami"
sort "$work/out" | awk '{ print $1, $2, $3, $4 }' > "$work/where"
printf '%s\n' 'rank 0 host node0' 'rank 1 host node0' 'rank 2 host node1' \
  'rank 3 host node1' > "$work/expected"
checks=$((checks + 1))
cmp -s "$work/where" "$work/expected" || { fail "ranks not by slot over node0, node1:"; cat "$work/out"; }

# Open MPI's session folders are the cluster's own, on every node (two
# clusters both have a node0: in the machine's /tmp their jobs could meet).
expect_ok on_cluster mpirun -np 2 --map-by node sh -c 'echo "$(hostname) $OMPI_FILE_LOCATION"'
checks=$((checks + 1))
[ "$(grep -c "^node[01] $cluster_dir/tmp/" "$work/out")" -eq 2 ] ||
  { fail "session folders not in $cluster_dir/tmp:"; cat "$work/out"; }

expect_ok cluster down
expect_gone "down"
finish
