#!/usr/bin/env bash
# parmapper and the levels inside a node (package, NUMA node, L3, core).
# In the job: each host's hwloc topology, here the synthetic node
# "pack:2 core:2 pu:1" given to the ranks with HWLOC_SYNTHETIC (hwloc
# cannot read a binding on it, so all 4 cores are usable).  Two pairs
# talk 100 bytes each (0-2, 1-3) and 0-1 one byte: each pair must share
# a package, so only the 1-byte edge crosses packages (J = 2 x (200 x 1 +
# 1 x 4) = 408; block, which splits both pairs, 2 x (200 x 4 + 1 x 1) =
# 1602), and the rankfile, the map_cpu list and the report follow the
# chosen cores; with an XML of ../shared/hwloc-xml that has hwloc's NUMA
# latencies, the job's J is greedymap eval's with that XML.  --no-levels
# gives the block slots back (one level:
# every pair of cores costs 1, J = 2 x 201).
# Slurm: offline on two such nodes, node0 holds the pairs 0-2, 1-3 and
# node1 the pairs 4-5, 6-7, so the k-th rank of node0 and of node1 sit on
# different cores: no map_cpu list binds both; parmapper writes a
# topomap-exec placement instead and says so, and topomap-exec binds each
# rank of it to its core.  Hydra's numbering per run of consecutive lines
# of its machinefile: a mapping whose nodes' ranks alternate gets the
# topomap-exec form under Hydra and a map_cpu list under srun.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
node="pack:2 core:2 pu:1"

# hwloc ignores HWLOC_SYNTHETIC and HWLOC_XMLFILE when HWLOC_COMPONENTS
# is set (the sanitized build sets it, tests/sanitize/env.sh): the ranks
# that read such a topology run without it.
described() { (unset HWLOC_COMPONENTS; launch "$@"); }

# METIS graphs (1-based neighbours, weights).
printf '4 3 001\n3 100 2 1\n1 1 4 100\n1 100\n2 100\n' > "$work/pairs.graph"
printf '8 5 001\n3 100 2 1\n1 1 4 100\n1 100\n2 100\n6 100\n5 100\n8 100\n7 100\n' > "$work/p8.graph"

expect_ok described 4 -x HWLOC_SYNTHETIC="$node" "$PARMAPPER" "$work/pairs.graph" --first --quiet \
  --rankfile "$work/rf" --slurm-hostfile "$work/sh" --report "$work/r.json"
host=$(sed -n 1p "$work/sh")
expect_output "slurm: SLURM_HOSTFILE=$work/sh srun --distribution=arbitrary --cpu-bind=map_cpu:3,1,2,0"
expect_output "levels: pu 0, core 200, l3 0, numa 0, package 1, node 0; J 408 (default: J 1602)"
checks=$((checks + 1))
printf 'rank 0=%s slot=3\nrank 1=%s slot=1\nrank 2=%s slot=2\nrank 3=%s slot=0\n' \
  "$host" "$host" "$host" "$host" | cmp -s - "$work/rf" || fail "rankfile: $(cat "$work/rf")"
expect_ok $check report "$work/r.json"
checks=$((checks + 1))
got=$(python3 - "$work/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c, d = r["chosen"]["metrics"], r["default"]["metrics"]
print(r["machine"]["levels"], r["machine"]["hosts"][0]["cores_used"], r["slurm_map_cpu"],
      r["binding"]["kind"], r["binding"]["placement"], c["comm_cost"], d["comm_cost"],
      c["cross_socket_bytes"], d["cross_socket_bytes"],
      [(l["name"], l["cost"], l["bytes"]) for l in c["levels"]])
PY
)
[ "$got" = "job [0, 1, 2, 3] [3, 1, 2, 0] map_cpu None 408 1602 1 200 [('pu', 1, 0), ('core', 1, 200), ('l3', 2, 0), ('numa', 2, 0), ('package', 4, 1), ('node', 10, 0)]" ] ||
  fail "report: $got"

expect_ok described 4 -x HWLOC_SYNTHETIC="$node" "$PARMAPPER" "$work/pairs.graph" --first --quiet \
  --no-levels --rankfile "$work/rf0" --report "$work/r0.json"
checks=$((checks + 1))
[ "$(sed 's/.*slot=//' "$work/rf0" | tr '\n' ' ')" = "0 1 2 3 " ] || fail "--no-levels: $(cat "$work/rf0")"
checks=$((checks + 1))
got=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print(r["machine"]["levels"], r["chosen"]["metrics"]["comm_cost"])' "$work/r0.json")
[ "$got" = "none 402" ] || fail "--no-levels report: $got"

# hwloc's NUMA latencies reach the job's levels: on the XML of 4 packages
# and 8 NUMA nodes with a latency matrix, the report's J of the chosen
# mapping is the one greedymap eval gives with the same XML offline.
xml=$TOPOMAP_SHARED/hwloc-xml/16amd64-4distances.xml
if [ -r "$xml" ]; then
  expect_ok "$TASKGRAPH" gen random-geometric --tasks 16 --radius 0.4 -o "$work/rgg.tg.json"
  expect_ok described 2 -x HWLOC_XMLFILE="$xml" "$PARMAPPER" "$work/rgg.tg.json" --first --quiet \
    --mapping "$work/rgg.map" --report "$work/rgg.json"
  printf '%s slots=16\n' "$(sed -n 2p "$work/rgg.map" | cut -d' ' -f2)" > "$work/hosts"
  expect_ok "$GREEDYMAP" eval "$work/rgg.tg.json" --hostfile "$work/hosts" --node-topology "$xml" \
    --mapping "$work/rgg.map" --json
  checks=$((checks + 1))
  python3 - "$work/rgg.json" "$work/out" <<'PY' || fail "J with NUMA latencies: the report differs from greedymap eval"
import json, sys
r, e = json.load(open(sys.argv[1]))["chosen"]["metrics"], json.load(open(sys.argv[2]))
assert r["numa_latency"] and e["numa_latency"], (r["numa_latency"], e["numa_latency"])
assert (r["comm_cost"], r["levels"]) == (e["comm_cost"], e["levels"]), (r, e)
PY
fi

# Slurm and Hydra with different cores per node.
expect_ok "$PARMAPPER" "$work/p8.graph" --nodes 2 --slots 4 --node-topology "$node" --first --quiet \
  --rankfile "$work/rf8" --slurm-hostfile "$work/sh8" --hydra-hostfile "$work/hh8" --report "$work/r8.json"
expect_output "wrote binding placement $work/sh8.placement.json"
expect_output "slurm: SLURM_HOSTFILE=$work/sh8 srun --distribution=arbitrary --cpu-bind=none topomap-exec $work/sh8.placement.json --"
expect_output "hydra: mpiexec -f $work/hh8 -bind-to none topomap-exec $work/sh8.placement.json --"
expect_output "levels: pu 0, core 400, l3 0, numa 0, package 1, node 0; J 808 (default: J 2002)"
checks=$((checks + 1))
printf 'rank %d=node0 slot=%d\n' 0 3 1 1 2 2 3 0 > "$work/want"
printf 'rank %d=node1 slot=%d\n' 4 0 5 1 6 2 7 3 >> "$work/want"
cmp -s "$work/want" "$work/rf8" || fail "rankfile on two nodes: $(cat "$work/rf8")"
checks=$((checks + 1))
python3 - "$work/sh8.placement.json" "$work/rf8" "$work/sh8" "$work/r8.json" <<'PY' || fail "the placement does not follow the rankfile"
import json, sys
pl = json.load(open(sys.argv[1]))["ranks"]
rf = [l.split() for l in open(sys.argv[2])]
hosts = open(sys.argv[3]).read().split()
r = json.load(open(sys.argv[4]))
seen = {}
for e, (_, rank, slot) in zip(pl, rf):
    host = rank.split("=")[1]
    want = {"host": host, "local_rank": seen.get(host, 0), "rank": int(rank.split("=")[0]),
            "proc": "cpu", "cores": slot.split("=")[1],
            "memory": {"policy": "none", "nodes": "", "kind": "dram"}}
    seen[host] = seen.get(host, 0) + 1
    assert e == want, (e, want)
assert hosts == ["node0"] * 4 + ["node1"] * 4
assert r["slurm_map_cpu"] is None and r["binding"] == {"kind": "topomap-exec", "placement": sys.argv[1]}
PY
# topomap-exec binds every rank on cores this machine has (0 and 1) to its
# core, on a host named as the placement's (a UTS namespace).
if unshare --uts true 2> /dev/null; then
  for r in "node0 1 1 1" "node0 3 3 0" "node1 0 4 0" "node1 1 5 1"; do
    read -r h l g core <<< "$r"
    expect_ok unshare --uts sh -c "hostname $h && SLURM_LOCALID=$l SLURM_PROCID=$g \
      \"\$0\" \"\$1\" -- sh -c 'taskset -cp \$\$'" "$TOPOMAP_EXEC" "$work/sh8.placement.json"
    checks=$((checks + 1))
    grep -q "current affinity list: $core\$" "$work/out" || fail "rank $g: $(cat "$work/out")"
  done
fi

# Hydra numbers -bind-to user: per run of consecutive lines of one host in
# the machinefile, Slurm per node: pairs 0-2 and 1-3 on 2 nodes x 2 slots
# put ranks 0, 2 on node0 and 1, 3 on node1, in slots 0, 1 of each.  One
# map_cpu list (0,1) binds them under srun; under Hydra every rank is a
# run of its own (k = 0 each), so no list binds rank 2 to slot 1: the
# topomap-exec form, for Hydra alone and for both files at once.
printf '4 2 001\n3 100\n4 100\n1 100\n2 100\n' > "$work/alt.graph"
alt() { "$PARMAPPER" "$work/alt.graph" --nodes 2 --slots 2 --first --quiet --rankfile "$work/alt.rf" "$@"; }
expect_ok alt --slurm-hostfile "$work/alt.sh"
expect_output "slurm: SLURM_HOSTFILE=$work/alt.sh srun --distribution=arbitrary --cpu-bind=map_cpu:0,1"
checks=$((checks + 1))
printf 'rank 0=node0 slot=0\nrank 1=node1 slot=0\nrank 2=node0 slot=1\nrank 3=node1 slot=1\n' |
  cmp -s - "$work/alt.rf" || fail "alternating rankfile: $(cat "$work/alt.rf")"
expect_ok alt --hydra-hostfile "$work/alt.hh"
expect_output "hydra: mpiexec -f $work/alt.hh -bind-to none topomap-exec $work/alt.hh.placement.json --"
expect_ok alt --hydra-hostfile "$work/alt.hh" --slurm-hostfile "$work/alt.sh"
expect_output "slurm: SLURM_HOSTFILE=$work/alt.sh srun --distribution=arbitrary --cpu-bind=none topomap-exec $work/alt.sh.placement.json --"
expect_output "hydra: mpiexec -f $work/alt.hh -bind-to none topomap-exec $work/alt.sh.placement.json --"
# Consecutive ranks per node (the block mapping of a line): one list both ways.
printf '4 2 001\n2 100\n1 100\n4 100\n3 100\n' > "$work/line.graph"
expect_ok "$PARMAPPER" "$work/line.graph" --nodes 2 --slots 2 --first --quiet \
  --hydra-hostfile "$work/line.hh" --slurm-hostfile "$work/line.sh"
expect_output "hydra: mpiexec -f $work/line.hh -bind-to user:0,1"

# The placement's name is taken by another output: refused before anything.
expect_fail 2 "--report and the hostfile's binding placement (FILE.placement.json) name the same file" \
  "$PARMAPPER" "$work/p8.graph" --nodes 2 --slots 4 --first --slurm-hostfile "$work/x" --report "$work/x.placement.json"
finish
