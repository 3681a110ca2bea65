#!/usr/bin/env bash
# cluster_pipeline.sh: the pipeline across the hosts of an emulated
# cluster of 4 nodes x 4 slots, each node with this machine's cores (16
# ranks, more than the cores of a node, and no --tasks-per-slot anywhere):
#   - commprof-run profiles a 4-node job; each rank's host, local rank and
#     CPUs in the profile are where it ran (tests/mpi/whereami, profiled,
#     says so from inside the same processes), and examples/qboxlike's
#     profile puts rank r on node r mod 4 as --map-by node does;
#   - parmapper in a 16-rank job finds the 4 hosts, their cores and 2 ranks
#     per core; on 4 cliques of tasks {g, g+4, g+8, g+12} (heavy) joined by
#     a light chain it puts each clique on one host (off-node bytes: the
#     chain's 15), which the default block mapping does not; launched with
#     mpirun --rankfile, every rank runs on the host and core its line
#     names, by hwloc and by sched_getaffinity;
#   - offline with the cluster's hostfile (4 slots on 2 cores): inside the
#     job the slots share the cores; outside it, the rankfile names cores
#     the nodes lack, and topomap-run --rankfile refuses it naming the line,
#     as it refuses a host outside the cluster, before the application;
#   - topomap-run (profile, build, map, run) and topomap-select-graph end
#     to end across the 4 hosts.
# Skipped (77) with the reason where network namespaces cannot be made.
. "$TOPOMAP_SRCDIR/tests/cluster_lib.sh"

cluster_up 4 --slots 4 --rate 1gbit
nodes="node0 node1 node2 node3"
pycheck() { python3 -c "$@"; }
# "N1 A N2 B ...": how many times each line of stdin comes, sorted.
counts() { sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? " " : ""), $1, $2 }'; }

# ---------------------------------------------------------------- profile
# whereami profiled: the profile's host and CPUs of each rank against what
# the rank itself says (sched_getaffinity), from the same run.
expect_ok on_cluster "$COMMPROF_RUN" -o "$work/where.json" -- \
  mpirun -np 16 --map-by node "$MPI_TESTS/whereami" --cpus
cp "$work/out" "$work/where.txt"
checks=$((checks + 1))
pycheck '
import json, sys
p = json.load(open(sys.argv[1]))
seen = {}
for line in open(sys.argv[2]):
    w = line.split()
    if w[:1] == ["rank"]:
        seen[int(w[1])] = (w[3], w[7])
def pus(s):
    out = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return ",".join(map(str, out))
got = {r["rank"]: (r["host"], pus(r["cpus"])) for r in p["ranks"]}
want_hosts = {r: "node%d" % (r % 4) for r in range(16)}
if p["world_size"] != 16 or got != seen or {r: h for r, (h, c) in got.items()} != want_hosts:
    sys.exit("profile %s\n  whereami %s" % (got, seen))
' "$work/where.json" "$work/where.txt" || fail "whereami's profile: hosts and CPUs differ from where the ranks ran"

# The example, the same placement.
expect_ok on_cluster "$COMMPROF_RUN" -o "$work/qbox.json" -- \
  mpirun -np 16 --map-by node "$EXAMPLES/qboxlike" --bytes 1024 --iters 2
expect_output "qboxlike: 16 ranks, grid 4x4, 1024 bytes, 2 iterations, checksum 25067520"
checks=$((checks + 1))
pycheck '
import json, sys
p = json.load(open(sys.argv[1]))
got = [(r["rank"], r["host"], r["local_rank"]) for r in p["ranks"]]
want = [(r, "node%d" % (r % 4), r // 4) for r in range(16)]
if got != want:
    sys.exit("%s, expected %s" % (got, want))
' "$work/qbox.json" || fail "qboxlike's profile: rank r is not on node r mod 4"

# -------------------------------------------------------------- parmapper
# 4 cliques of 1000 bytes a pair, tasks g, g+4, g+8, g+12, joined by a
# chain 0-1-...-15 of 1 byte a pair: the best mapping puts each clique on
# a host (only the chain's 15 bytes leave a node); the block mapping puts
# tasks 0-3 on node0, splitting every clique.
pycheck '
import json, sys
e = [[g + 4 * i, g + 4 * j, 1000] for g in range(4) for i in range(4) for j in range(i + 1, 4)]
e += [[t, t + 1, 1] for t in range(15)]
json.dump({"format": "topomap-taskgraph", "version": 1, "tasks": 16,
           "types": [{"name": "p2p", "factor": 1}], "edges": e}, open(sys.argv[1], "w"))
' "$work/cliques.tg.json"
expect_ok on_cluster mpirun -np 16 "$PARMAPPER" "$work/cliques.tg.json" --time 1 \
  --rankfile "$work/rf" --report "$work/r.json"
checks=$((checks + 1))
pycheck '
import json, sys
r = json.load(open(sys.argv[1]))
m = r["machine"]
hosts = [(h["name"], h["cores"], h["ranks"], h["cores_used"], h["tasks_per_slot"]) for h in m["hosts"]]
want = [("node%d" % i, 2, 4, [0, 1], 2) for i in range(4)]
if (m["source"], m["nodes"], m["slots"], m["tasks_per_slot"]) != ("job", 4, 16, None) or hosts != want:
    sys.exit("machine %s" % m)
c, d = r["chosen"]["metrics"], r["default"]["metrics"]
if (c["offnode_bytes"], c["hop_bytes_total"], d["offnode_bytes"], d["hop_bytes_total"]) != (15, 60, 24003, 96012):
    sys.exit("chosen %s\n  default %s" % (c, d))
' "$work/r.json" || fail "parmapper's report: $(cat "$work/r.json")"
# Each clique on one host, the four on the four hosts, two ranks per core.
checks=$((checks + 1))
got=$(awk '{ split($2, a, "="); host[a[1]] = a[2]; n[a[2] " " $3]++ }
  END { for (g = 0; g < 4; g++) printf "%s%s", (g ? " " : ""), host[g];
        for (g = 0; g < 4; g++) if (host[g] != host[g + 4] || host[g] != host[g + 8] || host[g] != host[g + 12]) print " split";
        for (k in n) if (n[k] != 2) print " " k "=" n[k] }' "$work/rf")
[ "$(tr ' ' '\n' <<< "$got" | sort | tr '\n' ' ')" = "$nodes " ] && [ "$(wc -l < "$work/rf")" = 16 ] ||
  fail "the rankfile does not put each clique on its own host, 2 ranks a core: $got; $(cat "$work/rf")"
# Launched with it: each rank on its line's host and core (hwloc's logical
# core), and on the core's PU by the OS (sched_getaffinity).
expect_ok on_cluster mpirun -np 16 --rankfile "$work/rf" "$MPI_TESTS/whereami" --cpus
cp "$work/out" "$work/bound.txt"
pu() { hwloc-calc --physical-output --intersect pu "core:$1"; }
sed -E 's/^rank ([0-9]+)=(.*) slot=(.*)$/\1 \2 \3/' "$work/rf" | sort -n |
  while read -r rank host core; do
    echo "rank $rank host $host cores $core cpus $(pu "$core")"
  done > "$work/want"
checks=$((checks + 1))
diff "$work/want" "$work/bound.txt" > "$work/diff" || fail "ranks not where the rankfile says: $(cat "$work/diff")"

# ---------------------------------------------------------------- offline
# The cluster's hostfile says 4 slots a node, its nodes have 2 cores.
hostfile=$cluster_dir/hostfile
expect_ok on_cluster mpirun -np 16 "$PARMAPPER" "$work/cliques.tg.json" --hostfile "$hostfile" \
  --first --rankfile "$work/off-in.rf"
checks=$((checks + 1))
[ "$(sed 's/.* //' "$work/off-in.rf" | counts)" = "8 slot=0 8 slot=1" ] ||
  fail "offline in the job: slots not shared 2 a core: $(cat "$work/off-in.rf")"
expect_ok on_cluster "$TOPOMAP_RUN" --rankfile "$work/off-in.rf" -- mpirun -np 16 "$MPI_TESTS/whereami"
expect_grep "topomap-run: $work/off-in.rf: 16 ranks on 4 of the job's 4 hosts, every host and core there" "$work/err"
# Outside the job (this machine's hosts are not node0..node3): slot s is
# core s, which does not exist from 2 on; refused at launch, with the line.
# (without mpirun; in a sanitized build through tests/sanitize/mpi-program,
# as tests/parmapper_lib.sh says)
alone=$PARMAPPER
[ -z "${TOPOMAP_SANITIZE_BIN:-}" ] || alone=$TOPOMAP_SANITIZE_BIN/parmapper
expect_ok "$alone" "$work/cliques.tg.json" --hostfile "$hostfile" --first --rankfile "$work/off.rf"
line=$(grep -n -E ' slot=[23]$' "$work/off.rf" | head -n 1)
checks=$((checks + 1))
[ -n "$line" ] || fail "offline outside the job: no slot=2 or 3 in $(cat "$work/off.rf")"
n=${line%%:*} slot=${line##*=} host=${line#*=} host=${host% slot=*}
expect_fail 1 "parmapper: $work/off.rf:$n: slot=$slot: host $host has 2 cores (hwloc, logical 0-1), so core $slot does not exist there" \
  on_cluster "$TOPOMAP_RUN" --rankfile "$work/off.rf" -- mpirun -np 16 touch "$work/ran"
expect_grep "topomap-run: $work/off.rf does not fit this job (exit status 1); the application was not run" "$work/err"
expect_no_file "$work/ran"
# A host outside the cluster.
sed 's/^rank 5=node[0-9]/rank 5=node9/' "$work/rf" > "$work/node9.rf"
n=$(grep -n '^rank 5=' "$work/node9.rf" | cut -d: -f1)
expect_fail 1 "parmapper: $work/node9.rf:$n: rank 5: host node9 is not a host of this job (its hosts: node0 node1 node2 node3)" \
  on_cluster "$TOPOMAP_RUN" --rankfile "$work/node9.rf" -- mpirun -np 16 touch "$work/ran"
expect_no_file "$work/ran"

# ------------------------------------------------------------ topomap-run
# The whole pipeline on qboxlike: profile, build, map, run, across hosts.
k=$work/run
expect_ok on_cluster "$TOPOMAP_RUN" --time 1 --keep "$k" -- \
  mpirun -np 16 "$EXAMPLES/qboxlike" --bytes 1024 --iters 2
checks=$((checks + 1))
[ "$(grep -c 'checksum 25067520$' "$work/out")" = 2 ] ||
  fail "qboxlike did not run twice (profile, mapped): $(cat "$work/out")"
expect_grep "topomap-run: running: mpirun --rankfile $k/rankfile -np 16 $EXAMPLES/qboxlike" "$work/err"
checks=$((checks + 1))
[ "$(sed -E 's/^rank [0-9]+=(.*) slot=.*/\1/' "$k/rankfile" | counts)" = \
  "4 node0 4 node1 4 node2 4 node3" ] || fail "topomap-run's rankfile: $(cat "$k/rankfile")"
checks=$((checks + 1))
pycheck '
import json, sys
p = json.load(open(sys.argv[1]))
if sorted({r["host"] for r in p["ranks"]}) != ["node0", "node1", "node2", "node3"]:
    sys.exit("hosts of the profile")' "$k/commprof.json" || fail "topomap-run's profile is not over 4 hosts"

# ---------------------------------------------------- topomap-select-graph
d=$work/sel
expect_ok on_cluster "$TOPOMAP_SELECT_GRAPH" --profile "$k/commprof.json" --repeat 1 --time 1 \
  -o "$d" -- mpirun -np 16 "$EXAMPLES/qboxlike" --bytes 1024 --iters 2
checks=$((checks + 1))
# (the critical types come in the order of their shares, which vary)
[ "$(awk 'NR > 1 && !/^best:/ { print $1 }' "$work/out" | sort | tr '\n' ' ')" = "alltoall p2p sum wsum " ] ||
  fail "one row per graph: $(cat "$work/out")"
best=$(cat "$d/best")
expect_output "best: $best"
for g in p2p alltoall sum wsum; do
  expect_grep "qboxlike: 16 ranks, grid 4x4, 1024 bytes, 2 iterations, checksum 25067520" "$d/$g/run-1.log"
  checks=$((checks + 1))
  [ "$(sed -E 's/^rank [0-9]+=(.*) slot=.*/\1/' "$d/$g/rankfile" | sort -u | tr '\n' ' ')" = "$nodes " ] ||
    fail "$g's rankfile is not over the 4 hosts: $(cat "$d/$g/rankfile")"
done

expect_ok cluster down
expect_gone "down"
finish
