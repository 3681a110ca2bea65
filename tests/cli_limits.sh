#!/usr/bin/env bash
# Small hostile files must not cost much: a count a file declares is
# bounded by what the file can hold (tasks of a .tg.json, rows of a Matrix
# Market file, a profile's world_size: 1048576 plus one per byte), and a
# hostlist, a hostfile and a torus, mesh or dragonfly spec by an explicit
# limit (1048576 names, slots or positions).  Each is refused with its
# file, line and problem, exit 1 (a spec on the command line: exit 2),
# within a small address space (ulimit -v), and nothing is written.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
tg=$TASKGRAPH
gm=$GREEDYMAP
in=$work/in
mkdir -p "$in" "$work/o"

# limited CMD...: CMD under a 200 MB address space (before the fix these
# took 1.5 to 6.9 GB and 5 to 100+ s).  Under ASan (a sanitized build,
# tests/sanitize/env.sh), which reserves terabytes of address space for
# its shadow memory, ASan's own limit on resident memory stands in.
limited() {
  if [ -n "${ASAN_OPTIONS:-}" ]; then
    ASAN_OPTIONS="$ASAN_OPTIONS:hard_rss_limit_mb=300" "$@"
  else
    (ulimit -v 200000; "$@")
  fi
}

# A 90-byte .tg.json declaring 200,000,000 tasks and no edge.
printf '{"format": "topomap-taskgraph", "version": 1, "tasks": 200000000, "edges": [],"types": []}' > "$in/huge.tg.json"
expect_fail 1 "taskgraph: $in/huge.tg.json:1: \"tasks\": 200000000 is more than a file of 90 bytes may declare (at most 1048666: 1048576 plus one per byte)" \
  limited $tg info "$in/huge.tg.json"
expect_fail 1 "taskgraph: $in/huge.tg.json:1: \"tasks\": 200000000 is more than" \
  limited $tg convert "$in/huge.tg.json" "$work/o/out.graph"
expect_no_file "$work/o/out.graph"
[ "$(count_files "$work/o")" -eq 0 ] || fail "stray files in $work/o"

# The same count on its own line is reported at that line.
printf '{"format": "topomap-taskgraph", "version": 1,\n "tasks": 200000000,\n "edges": []}\n' > "$in/lines.tg.json"
expect_fail 1 "taskgraph: $in/lines.tg.json:2: \"tasks\": 200000000 is more than a file of 81 bytes may declare (at most 1048657: 1048576 plus one per byte)" \
  limited $tg info "$in/lines.tg.json"

# Matrix Market declaring 2e8 x 2e8 with no entry.
printf '%%%%MatrixMarket matrix coordinate pattern general\n200000000 200000000 0\n' > "$in/huge.mtx"
expect_fail 1 "taskgraph: $in/huge.mtx:2: the row count 200000000 is more than a file of 71 bytes may declare (at most 1048647: 1048576 plus one per byte)" \
  limited $tg info "$in/huge.mtx"

# A profile declaring a world of 200,000,000 (and 20,000,000) ranks.
for n in 200000000 20000000; do
  printf '{"format": "topomap-commprof", "version": 1, "mpi_library": "x",\n "world_size": %s,\n "types": [], "ranks": [], "communicators": []}\n' $n > "$in/world$n.json"
  size=$(wc -c < "$in/world$n.json")
  expect_fail 1 "taskgraph: $in/world$n.json:2: world_size $n is more than a file of $size bytes may declare (at most $((1048576 + size)): 1048576 plus one per byte)" \
    limited $tg info "$in/world$n.json"
done
# A partial profile goes through the same reader (taskgraph merge).
printf '{"format": "topomap-commprof", "version": 1, "partial": true, "mpi_library": "x",\n "world_size": 200000000,\n "types": [], "ranks": [], "communicators": []}\n' > "$in/part.json.rank0"
expect_fail 1 "$in/part.json.rank0:2: world_size 200000000 is more than a file of" \
  limited $tg merge "$in/part.json.rank0" -o "$work/o/merged.json"
expect_no_file "$work/o/merged.json"

# Every layer of a .tg.json is a graph of all the tasks: 1000000 tasks
# and 2000 empty layers (61 kB; before: 66 s and 15.7 GB).
awk 'BEGIN { printf "{\"format\": \"topomap-taskgraph\", \"version\": 1, \"tasks\": 1000000, \"edges\": [], \"layers\": [";
  for (i = 0; i < 2000; i++) printf "%s{\"name\": \"l%d\", \"edges\": []}", i ? "," : "", i;
  printf "]}" }' > "$in/layers.tg.json"
size=$(wc -c < "$in/layers.tg.json")
expect_fail 1 "taskgraph: $in/layers.tg.json:1: \"tasks\": 1000000 in the graph and each of its 2000 layers, 2001000000 is more than a file of $size bytes may declare (at most $((1048576 + size)): 1048576 plus one per byte)" \
  limited $tg info "$in/layers.tg.json"

# Each rank of a profile holds a time and a count per type: 2000 types
# for each of 1000 ranks.
awk 'BEGIN { printf "{\"format\": \"topomap-commprof\", \"version\": 1, \"mpi_library\": \"x\",\n \"world_size\": 1000,\n \"types\": [";
  for (i = 0; i < 2000; i++) printf "%s\"t%d\"", i ? "," : "", i;
  printf "],\n \"ranks\": [";
  for (i = 0; i < 1000; i++) printf "%s{\"rank\": %d, \"host\": \"h\", \"local_rank\": %d, \"cpus\": \"0\", \"wall_ns\": 0, \"mpi_ns\": 0, \"types\": {}, \"sent\": [], \"received\": [], \"rma\": []}", i ? ",\n" : "", i, i;
  printf "],\n \"communicators\": []}\n" }' > "$in/types.json"
size=$(wc -c < "$in/types.json")
expect_fail 1 "taskgraph: $in/types.json:3: 2000 types for each of 1000 ranks, 2000000 is more than a file of $size bytes may declare (at most $((1048576 + size)): 1048576 plus one per byte)" \
  limited $tg info "$in/types.json"

# Within the bound a declared count is still taken: 1048576 tasks.
printf '{"format": "topomap-taskgraph", "version": 1, "tasks": 1048576, "edges": [[0, 1048575, 5]]}' > "$in/edge.tg.json"
expect_ok $tg info "$in/edge.tg.json"
expect_output "tasks        1048576"

# topology.conf: a 39-byte line expanding to 11 million hosts, and one
# expanding to 100 million.
printf 'SwitchName=s0 Nodes=a[0-3341]b[0-3341]\n' > "$in/t1.conf"
expect_fail 1 "greedymap: $in/t1.conf:1: Nodes=a[0-3341]b[0-3341] expands to 11168964 hosts, more than the limit of 1048576" \
  limited $gm configs --slots 1 --network "fattree:$in/t1.conf"
printf 'SwitchName=s0 Nodes=n[0-99999999]\n' > "$in/t2.conf"
expect_fail 1 "greedymap: $in/t2.conf:1: Nodes=n[0-99999999] expands to 100000000 hosts, more than the limit of 1048576" \
  limited $gm configs --slots 1 --network "fattree:$in/t2.conf"
# Switches= lists are bounded the same way; a product past 10^18 is
# said to be more than that.
printf 'SwitchName=s0 Nodes=n0\nSwitchName=top Switches=s[0-999999999]x[0-999999999]y[0-9]\n' > "$in/t3.conf"
expect_fail 1 "greedymap: $in/t3.conf:2: Switches=s[0-999999999]x[0-999999999]y[0-9] expands to more than 1000000000000000000 switches, more than the limit of 1048576" \
  limited $gm configs --slots 1 --network "fattree:$in/t3.conf"
# Many lines, each within the limit, cannot add up past it.
{ for i in 0 1 2; do printf 'SwitchName=s%d Nodes=s%dn[0-399999]\n' $i $i; done; } > "$in/t4.conf"
expect_fail 1 "greedymap: $in/t4.conf:3: Nodes=s2n[0-399999] takes the names listed in the file to 1200000, more than the limit of 1048576" \
  limited $gm configs --slots 1 --network "fattree:$in/t4.conf"
# A topology at the limit is fine: 2 switches of 512 nodes, listed as
# n[000-511].
printf 'SwitchName=s0 Nodes=a[000-511]\nSwitchName=s1 Nodes=b[000-511]\nSwitchName=top Switches=s[0-1]\n' > "$in/ok.conf"
expect_ok $gm configs --slots 1 --network "fattree:$in/ok.conf"

# Hostfiles: a 20-byte line giving 2^31 - 1 slots (before: 29 s and 8.4 GB
# to map 4 tasks), and lines that add up past the limit.
printf '{"format": "topomap-taskgraph", "version": 1, "tasks": 4, "edges": [[0, 1, 5]]}' > "$in/g4.tg.json"
printf 'n0 slots=2147483647\n' > "$in/big.hosts"
expect_fail 1 "greedymap: $in/big.hosts:1: slots=2147483647 takes the hostfile to 2147483647 slots, more than the limit of 1048576" \
  limited $gm map "$in/g4.tg.json" --hostfile "$in/big.hosts" -o "$work/o/map"
expect_no_file "$work/o/map"
printf 'n0 slots=1000000\nn1 slots=48577\n' > "$in/sum.hosts"
expect_fail 1 "greedymap: $in/sum.hosts:2: slots=48577 takes the hostfile to 1048577 slots, more than the limit of 1048576" \
  limited $gm map "$in/g4.tg.json" --hostfile "$in/sum.hosts" -o "$work/o/map"
printf 'n0 slots=1000000\nn1 slots=48576\n' > "$in/ok.hosts"
expect_ok $gm map "$in/g4.tg.json" --hostfile "$in/ok.hosts" -o "$work/o/map"

# Network specs, bounded as hostfiles are: a 15-byte torus of 67 million
# positions (before: more than 100 s and 2.4 GB to map 2 tasks on it, 592
# MB with --nodes 2), a dragonfly of 16.7 million hosts, and one group of
# 40000 routers all linked (1.6 billion links: 44 s and 12.5 GB).  A
# usage error, exit 2.
lim="more than the limit of 1048576 (see 'greedymap baseline --help')"
rm -f "$work/o/map"
for nodes in "" "--nodes 2"; do
  expect_fail 2 "greedymap baseline: --network: network 'torus:8192x8192' has 67108864 positions, $lim" \
    limited $gm baseline block "$in/g4.tg.json" --network torus:8192x8192 $nodes -o "$work/o/map"
  expect_fail 2 "greedymap baseline: --network: network 'mesh:4096x4096' has 16777216 positions, $lim" \
    limited $gm baseline block "$in/g4.tg.json" --network mesh:4096x4096 $nodes -o "$work/o/map"
  expect_fail 2 "greedymap baseline: --network: network 'dragonfly:16,16,65536' has 16777216 positions, $lim" \
    limited $gm baseline block "$in/g4.tg.json" --network dragonfly:16,16,65536 $nodes -o "$work/o/map"
done
expect_fail 2 "greedymap baseline: --network: network 'dragonfly:1,40000,1' has 1600080001 links, more than the limit of 16777216 (see 'greedymap baseline --help')" \
  limited $gm baseline block "$in/g4.tg.json" --network dragonfly:1,40000,1 --nodes 2 -o "$work/o/map"
expect_no_file "$work/o/map"
# At the limit: 1048576 positions.
expect_ok $gm baseline block "$in/g4.tg.json" --network torus:1024x1024 --nodes 4 -o "$work/o/map"
expect_output "wrote $work/o/map: 4 tasks on 4 nodes, baseline block, seed 0"
expect_ok $gm baseline block "$in/g4.tg.json" --network dragonfly:16,256,256 --nodes 4 -o "$work/o/map"
expect_output "wrote $work/o/map: 4 tasks on 4 nodes, baseline block, seed 0"

finish
