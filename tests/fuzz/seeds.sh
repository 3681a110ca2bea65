#!/usr/bin/env bash
# Write the seed corpora of the fuzz harnesses from the project's fixtures
# (tests/data) and from files topomap's own tools write (task graphs in
# every format, mappings, rankfiles, placement input, placement,
# calibration), plus small hand-written files for the formats no tool
# writes (Matrix Market, topology.conf, positions, hostlists).
#   tests/fuzz/seeds.sh BUILDDIR OUTDIR
# OUTDIR/HARNESS/ gets one file per seed: the harness's selector byte
# (which reader, see the top of tests/fuzz/HARNESS.c), then the file.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
[ $# -eq 2 ] || { echo "usage: seeds.sh BUILDDIR OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
out=$2
data=$src/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out"

# seed HARNESS SELECTOR NAME FILE...: the selector byte, then the files
# joined by NUL bytes (the harnesses that read several files split there).
seed() {
  local h=$1 sel=$2 name=$3 first=1
  shift 3
  mkdir -p "$out/$h"
  {
    # shellcheck disable=SC2059 # the format is the byte's octal escape
    printf "\\$(printf %03o "$sel")"
    for f in "$@"; do
      [ $first -eq 1 ] || printf '\0'
      first=0
      cat "$f"
    done
  } > "$out/$h/$name"
}
# text NAME TEXT: a hand-written file in the scratch folder; prints its path.
text() { printf '%b' "$2" > "$tmp/$1"; echo "$tmp/$1"; }

tg=$build/taskgraph/taskgraph
gm=$build/greedymap/greedymap
place=$build/hetero/topomap-place

# ------------------------------------------------------------ fuzz_graph
# selectors: 0 .tg.json, 1 METIS, 2 Scotch, 3 .mtx pattern, 4 .mtx values
"$tg" gen stencil --dims 3x3 --periodic -o "$tmp/st.tg.json" >/dev/null
"$tg" gen qbox --rows 2 --cols 3 -o "$tmp/qbox.tg.json" >/dev/null
"$tg" gen stencil --dims 2x2x2 -o "$tmp/st.graph" >/dev/null
"$tg" gen random-geometric --tasks 12 --radius 0.4 -o "$tmp/rgg.graph" >/dev/null
"$tg" gen stencil --dims 4x3 -o "$tmp/st.grf" >/dev/null
seed fuzz_graph 0 stencil.tg.json "$tmp/st.tg.json"
seed fuzz_graph 0 qbox.tg.json "$tmp/qbox.tg.json"
for f in "$data"/build_*.json; do
  b=$(basename "$f" .json)
  "$tg" build "$f" -o "$tmp/$b" >/dev/null 2>&1 || continue
  seed fuzz_graph 0 "$b.sum.tg.json" "$tmp/$b/sum.tg.json"
done
seed fuzz_graph 1 stencil.graph "$tmp/st.graph"
seed fuzz_graph 1 rgg.graph "$tmp/rgg.graph"
seed fuzz_graph 2 stencil.grf "$tmp/st.grf"
mtx=$(text a.mtx '%%MatrixMarket matrix coordinate real general\n% comment\n4 4 5\n1 2 3.5\n2 3 -1\n3 4 2\n4 1 7\n2 2 1\n')
sym=$(text s.mtx '%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 4\n3 2 5\n3 3 1\n')
pat=$(text p.mtx '%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n')
seed fuzz_graph 3 pattern.mtx "$pat"
seed fuzz_graph 3 real.mtx "$mtx"
seed fuzz_graph 4 real.mtx "$mtx"
seed fuzz_graph 4 symmetric.mtx "$sym"

# ---------------------------------------------------------- fuzz_profile
# selectors: even one profile, odd partial profiles joined by NUL
for f in "$data"/profile_*.json "$data"/build_*.json "$data"/hetero_*.json; do
  seed fuzz_profile 0 "$(basename "$f")" "$f"
done
seed fuzz_profile 1 merge4 "$data"/profile_4.json.rank[0-3]
seed fuzz_profile 1 merge2 "$data/profile_4.json.rank1" "$data/profile_4.json.rank3"

# ---------------------------------------------------------- fuzz_machine
# selectors: 0 hostfile, 1 topology.conf [NUL positions], 2 edge list
# [NUL positions], 3 positions on torus:4x4, 4 hostlist, 5 order file,
# 6 network spec, 7 GreedyMap configuration
seed fuzz_machine 0 hostfile "$(text hostfile '# cluster\nn0 slots=4\nn1 slots=2 max_slots=8\nn2\nn0 slots=1\n')"
ft=$(text ft.conf '# two leaves\nSwitchName=s0 Nodes=n[0-3] LinkSpeed=100\nSwitchName=s1 Nodes=n[4-5,7]\nSwitchName=top Switches=s[0-1]\n')
seed fuzz_machine 1 topology.conf "$ft"
seed fuzz_machine 1 topology-positions "$ft" "$(text ftpos 'node0 n1\nnode1 n4\nnode2 n7\nnode3 n0\nnode4 n2\nnode5 n3\n')"
net=$(text net.txt '# ring of switches\nnodes h0 h1 h2 h3\nh0 s0\nh1 s0\nh2 s1\nh3 s1\ns0 s1\n')
seed fuzz_machine 2 graph.txt "$net"
seed fuzz_machine 2 graph-positions "$net" "$(text netpos 'node0 h3\nnode1 h2\nnode2 h1\nnode3 h0\n')"
seed fuzz_machine 3 positions "$(text tpos '# x y\nnode0 0 0\nnode1 0 1\nnode2 1 0\nnode3 3 3\nnode4 2 1\nnode5 1 2\nother 2 2\n')"
seed fuzz_machine 4 hostlist "$(printf 'n[0-3,7],login[01-02]x,c[1-2]d[3-4]' > "$tmp/hl"; echo "$tmp/hl")"
seed fuzz_machine 5 order "$(text order '# tasks\n3\n1\n0\n2\n7\n6\n5\n4\n')"
for s in torus:4x4x2 mesh:8x8 torus:8x8x4m dragonfly:3,2,2 flat; do
  seed fuzz_machine 6 "spec-${s//[:,]/_}" "$(printf '%s' "$s" > "$tmp/spec"; echo "$tmp/spec")"
done
seed fuzz_machine 7 config "$(printf 'order=bfs,delta=sqrt,pack=1,cost=maxhopbytes,wrap=0,centre=nbr,seed=7' > "$tmp/cfg"; echo "$tmp/cfg")"
seed fuzz_machine 7 config-file "$(printf 'refine=1,order=file:/x/y' > "$tmp/cfg2"; echo "$tmp/cfg2")"

# ---------------------------------------------------------- fuzz_mapping
# selectors (mod 6): 0 mapping, 1 rankfile, 2 rankfile with a node
# topology, 3 Scotch map, 4 Scotch map by node, 5 parmapper
# --check-rankfile; +6: 8 tasks asked instead of as many as lines
"$gm" map "$tmp/st.graph" --nodes 4 --slots 4 --network torus:2x2 \
  -o "$tmp/map.txt" --rankfile "$tmp/rankfile" >/dev/null 2>&1
seed fuzz_mapping 6 mapping "$tmp/map.txt"
seed fuzz_mapping 7 rankfile "$tmp/rankfile"
seed fuzz_mapping 2 rankfile-sockets "$(text rf2 'rank 0=node0 slot=0:1\nrank 1 = node1 slot = 1:0\n# comment\nrank 2=node3 slot=3\n')"
seed fuzz_mapping 3 scotch.map "$(text sm '4\n0\t3\n1\t2\n2\t1\n3\t0\n')"
seed fuzz_mapping 4 scotch-node.map "$(text sm1 '3\n1\t0\n2\t0\n3\t2\n')"
seed fuzz_mapping 5 check-rankfile "$(text rf3 'rank 0=node0 slot=0-1\nrank 1=+n1 slot=1:0\nrank 2=node1.cluster slot=*\nrank 3=node0.cluster slot=0,1:1\n')"

# ----------------------------------------------------------- fuzz_hetero
# selectors: 0 placement input, 1 profile as input, 2 calibration,
# 3 placement
"$place" --write-input "$tmp/input.json" "$data/hetero_cpu.json" >/dev/null 2>&1
small=$(text small.json '{"format": "topomap-hetero-input", "version": 1, "ranks": [\n {"rank": 0, "host": "a", "local_rank": 0, "compute": {"cpu": 2},\n  "sends": [[1, 8388608000]]},\n {"rank": 1, "host": "a", "local_rank": 1, "compute": {"cpu": 1},\n  "sends": [[0, 8388608000]]},\n {"rank": 2, "host": "b", "local_rank": 0, "compute": {"cpu": 3}}]}\n')
"$place" "$small" -t 'pack:2 numa:1 core:2 pu:1' -o "$tmp/placement.json" >/dev/null
seed fuzz_hetero 0 input.json "$tmp/input.json"
seed fuzz_hetero 0 small.json "$small"
seed fuzz_hetero 1 hetero_cpu.json "$data/hetero_cpu.json"
seed fuzz_hetero 1 hetero_gpu.json "$data/hetero_gpu.json"
seed fuzz_hetero 1 profile_4.json "$data/profile_4.json"
seed fuzz_hetero 2 memcal.json "$(text cal.json '{"format": "topomap-memcal", "version": 1, "host": "x",\n "numa": [{"os_index": 0, "bandwidth_mib_s": 30000},\n            {"os_index": 3, "bandwidth_mib_s": 10000}],\n "gpus": [{"busid": "0000:17:00.0", "device_mib_s": 100000,\n   "pinned_mib_s": 10000, "managed_mib_s": 50000,\n   "h2d_pageable_mib_s": 5000, "d2h_pageable_mib_s": 4000,\n   "h2d_pinned_mib_s": 10000, "d2h_pinned_mib_s": 10000,\n   "copy_pageable_latency_ns": 10000,\n   "copy_pinned_latency_ns": 5000}]}\n')"
seed fuzz_hetero 3 placement.json "$tmp/placement.json"

for h in "$out"/*; do
  echo "seeds: $(basename "$h"): $(find "$h" -type f | wc -l) files"
done
