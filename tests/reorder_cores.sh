#!/usr/bin/env bash
# libtopomap-reorder inside hosts: cores and packages (reorder/cores.c).
# Two pretend hosts of TOPOMAP_REORDER_TOPOLOGY="pack:2 core:2 pu:1" (4
# cores, 2 per package) and a 4x2 grid, one byte per direction and
# neighbour (2 bytes an edge); the report's bytes per level and J are
# counted by hand below.  J counts every edge from both ends: 2 x bytes x
# distance, the distance 1 between two cores of a package, 4 between
# packages and 20 between hosts (GM_NODE_FACTOR 10 x 2 links through the
# flat network's switch).  Then: no node topology when the bindings do not
# fill the hosts (reports as without cores), bad settings (warned, naming
# the bad entry; MPI's order kept, no report) and, under Open MPI, this
# machine's own cores.
. "$TOPOMAP_SRCDIR/tests/reorder_lib.sh"
cart=$MPI_TESTS/reorder_cart
T="pack:2 core:2 pu:1"

# Hosts alternating, each host's processes on its cores in rank order
# (no TOPOMAP_REORDER_CORES): host a holds x = 0..3 of column y = 0,
# cores 0-3, packages {x=0,1} and {x=2,3}.  MPI's order: per host edges
# x0-x1, x2-x3 inside a package (2 x 2 x 2 = 8 bytes at core level),
# x1-x2 across packages (2 x 2 = 4), the 4 y edges across hosts (8):
# J = 2 x (8 x 1 + 4 x 4 + 8 x 20) = 368.  The result (block): a 2x2 box
# per host (x < 2 on a), a row of it per package: per host 2 y edges
# inside packages (8 in all), 2 x edges across them (8); the 2 x edges
# x1-x2 across hosts (4): J = 2 x (8 + 8 x 4 + 4 x 20) = 240.
H=a,b,a,b,a,b,a,b
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="$T" \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" $H 2 0 0 0 0 1
expect_output "dims 4x2 identity 8 result 4"
expect_output "map 0 2 4 6 1 3 5 7"
expect_ok report_line 1
expect_output '{"call":"MPI_Cart_create","size":8,"tasks":8,"hosts":[{"name":"a","ranks":[0,2,4,6]},{"name":"b","ranks":[1,3,5,7]}],"node_topology":"pack:2 core:2 pu:1","mapper":"block","reordered":true,"permutation":[0,2,4,6,1,3,5,7],"identity":{"offnode_bytes":8,"hop_bytes_total":32,"hop_bytes_avg":4,"level_bytes":{"pu":0,"core":8,"l3":0,"numa":0,"package":4,"node":8},"comm_cost":368},"result":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2,"level_bytes":{"pu":0,"core":8,"l3":0,"numa":0,"package":8,"node":4},"comm_cost":240}}'

# Hosts in blocks (a 2x2 box each: already the best between hosts) but
# ranks bound across packages: on each host ranks r, r+1, r+2, r+3 on
# cores 0, 2, 3, 1, so package 0 holds (0,0) and (1,1), package 1 (0,1)
# and (1,0): all 4 edges of a box cross packages (16 bytes), the 2 x
# edges x1-x2 cross hosts (4): J = 2 x (16 x 4 + 4 x 20) = 288.  The
# result keeps the hosts and moves ranks between cores: task t on core
# t mod 4 (block), so new ranks 0-3 are old 0, 3, 1, 2; J = 240 as above.
H=a:4,b:4
C=0,2,3,1,0,2,3,1
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="$T" -x TOPOMAP_REORDER_CORES=$C \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "dims 4x2 identity 4 result 4"
expect_output "map 0 3 1 2 4 7 5 6"
expect_ok report_line 1
expect_output '{"call":"MPI_Cart_create","size":8,"tasks":8,"hosts":[{"name":"a","ranks":[0,3,1,2]},{"name":"b","ranks":[4,7,5,6]}],"node_topology":"pack:2 core:2 pu:1","mapper":"block","reordered":true,"permutation":[0,3,1,2,4,7,5,6],"identity":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2,"level_bytes":{"pu":0,"core":0,"l3":0,"numa":0,"package":16,"node":4},"comm_cost":288},"result":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2,"level_bytes":{"pu":0,"core":8,"l3":0,"numa":0,"package":8,"node":4},"comm_cost":240}}'
# The same topology as an hwloc XML file: the same figures.
expect_ok lstopo-no-graphics --input "$T" --of xml "$work/topo.xml"
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="$work/topo.xml" -x TOPOMAP_REORDER_CORES=$C \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 3 1 2 4 7 5 6"
expect_grep '"node_topology":"'"$work/topo.xml"'"' "$work/report.json"
expect_grep '"identity":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2,"level_bytes":{"pu":0,"core":0,"l3":0,"numa":0,"package":16,"node":4},"comm_cost":288},"result":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2,"level_bytes":{"pu":0,"core":8,"l3":0,"numa":0,"package":8,"node":4},"comm_cost":240}' "$work/report.json"
# Without the topology only hosts count: MPI's order is kept, as before.
expect_ok run 8 $H -x TOPOMAP_REORDER_REPORT="$work/report.json" \
  "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_ok report_line 1
expect_output '{"call":"MPI_Cart_create","size":8,"tasks":8,"hosts":[{"name":"a","ranks":[0,1,2,3]},{"name":"b","ranks":[4,5,6,7]}],"mapper":"identity","reordered":false,"permutation":[0,1,2,3,4,5,6,7],"identity":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2},"result":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2}}'

# No node topology when the bindings do not fill every host: 4
# processes on hosts of 8 cores.  The choice is then by hops between
# hosts, and the report as without cores.
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="pack:2 core:4 pu:1" \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_ok report_line 1
expect_output '{"call":"MPI_Cart_create","size":8,"tasks":8,"hosts":[{"name":"a","ranks":[0,1,2,3]},{"name":"b","ranks":[4,5,6,7]}],"mapper":"identity","reordered":false,"permutation":[0,1,2,3,4,5,6,7],"identity":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2},"result":{"offnode_bytes":4,"hop_bytes_total":16,"hop_bytes_avg":2}}'

# Bad settings: warned once, MPI's order kept.
expect_ok run 8 $H -x TOPOMAP_REORDER_CORES=$C "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "libtopomap-reorder: MPI_Cart_create: TOPOMAP_REORDER_CORES needs TOPOMAP_REORDER_TOPOLOGY" "$work/err"
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="$T" -x TOPOMAP_REORDER_CORES=0,2,3 \
  "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "TOPOMAP_REORDER_CORES names 3 cores, so none for rank 3 of MPI_COMM_WORLD" "$work/err"
checks=$((checks + 1))
[ "$(grep -c '^libtopomap-reorder:' "$work/err")" -eq 1 ] || fail "not one warning: $(cat "$work/err")"
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="$T" -x TOPOMAP_REORDER_CORES=0,x \
  "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_grep "TOPOMAP_REORDER_CORES: entry 2 is not a core number" "$work/err"
# A list that names a core the topology lacks, gives two processes of one
# host one core, or has more entries than ranks is a mistake too, not a
# layout that merely gets no levels: on hosts alternating, where hosts
# alone would reorder (map 0 2 4 6 1 3 5 7), MPI's order is kept, and
# the warning names the entries.
A=a,b,a,b,a,b,a,b
expect_ok run 8 $A -x TOPOMAP_REORDER_TOPOLOGY="$T" -x TOPOMAP_REORDER_CORES=0,0,1,1,2,2,3,4 \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" $A 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "libtopomap-reorder: MPI_Cart_create: TOPOMAP_REORDER_CORES: entry 8 is core 4, but TOPOMAP_REORDER_TOPOLOGY has cores 0 to 3; this and later topology communicators may keep MPI's rank order" "$work/err"
checks=$((checks + 1))
[ "$(grep -c '^libtopomap-reorder:' "$work/err")" -eq 1 ] || fail "not one warning: $(cat "$work/err")"
expect_no_file "$work/report.json"
expect_ok run 8 $A -x TOPOMAP_REORDER_TOPOLOGY="$T" -x TOPOMAP_REORDER_CORES=0,0,1,1,2,2,2,3 \
  -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" $A 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "libtopomap-reorder: MPI_Cart_create: TOPOMAP_REORDER_CORES: entries 5 and 7 give core 2 to two processes of host a (one process per core); this and later topology communicators may keep MPI's rank order" "$work/err"
checks=$((checks + 1))
[ "$(grep -c '^libtopomap-reorder:' "$work/err")" -eq 1 ] || fail "not one warning: $(cat "$work/err")"
expect_no_file "$work/report.json"
expect_ok run 8 $A -x TOPOMAP_REORDER_TOPOLOGY="$T" -x TOPOMAP_REORDER_CORES=0,0,1,1,2,2,3,3,0 \
  "$cart" $A 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "libtopomap-reorder: MPI_Cart_create: TOPOMAP_REORDER_CORES names 9 cores, but MPI_COMM_WORLD has 8 ranks (one entry per rank)" "$work/err"
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="pack:2 core:2" \
  "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "TOPOMAP_REORDER_TOPOLOGY: 'pack:2 core:2' is neither a readable hwloc XML file nor an hwloc synthetic topology" "$work/err"
# 22 bytes that hwloc would take minutes to build: refused first.
expect_ok run 8 $H -x TOPOMAP_REORDER_TOPOLOGY="pack:64 core:64 pu:64" \
  "$cart" a,a,a,a,b,b,b,b 2 0 0 0 0 1
expect_output "map 0 1 2 3 4 5 6 7"
expect_grep "TOPOMAP_REORDER_TOPOLOGY 'pack:64 core:64 pu:64' describes 262144 PUs, more than the 4096 a synthetic topology may have here" "$work/err"

# This machine's own cores (Open MPI: --bind-to core), one process per
# core on a ring: the node gets this host's topology (hwloc's synthetic
# export, which depends on the machine: only its presence is checked, and
# that the ring's bytes, 2 per edge, are all inside the node).  Unbound
# processes (--bind-to none): no node topology.
ncores=$(hwloc-calc --number-of core machine:0 2>/dev/null || echo 0)
if mpi_is_openmpi && [ "$ncores" -ge 2 ] && [ "$ncores" -le 16 ]; then
  hosts=$(printf 'x,%.0s' $(seq "$ncores")); hosts=${hosts%,}
  for bind in core none; do
    rm -f "$work/report.json"
    expect_ok launch "$ncores" --bind-to $bind -x LD_PRELOAD="${SANITIZE_PRELOAD:-}$REORDER_LIB" \
      -x TOPOMAP_REORDER_REPORT="$work/report.json" "$cart" "$hosts" 1 0 1 1
    expect_ok python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read())
n, bound = int(sys.argv[2]), sys.argv[3] == "core"
assert ("node_topology" in r) == bound, r
if bound:
    for k in ("identity", "result"):
        assert sum(r[k]["level_bytes"].values()) == 2 * n, r
        assert r[k]["level_bytes"]["node"] == 0, r
    assert r["result"]["comm_cost"] <= r["identity"]["comm_cost"], r
' "$work/report.json" "$ncores" $bind
  done
fi
finish
