#!/usr/bin/env bash
# levels.sh: what choosing slots by the levels inside a node (issue 12,
# item 2) changes.  For each case (a task graph of bench/mapper's panel
# made with `taskgraph gen`, a network, a node topology), `greedymap map`
# runs one configuration twice, alternating, REPEAT times each:
#   before  without --node-topology: slots fill 0, 1, 2, ... (the old
#           order); the mapping is then evaluated with the topology;
#   after   with --node-topology: each node's slots by bytes x level
#           distance (slots.c).
# Both mappings put every task on the same node (the hop-bytes column
# shows it); the table gives bytes across packages, across NUMA nodes
# (numa + package levels) and J of `greedymap eval --json`, and the
# median wall time of the two runs with their spread (min-max), beside
# the load average.
#
# usage: bench/levels.sh [--greedymap PATH] [--taskgraph PATH]
#                        [--repeat R] [--shared DIR]
set -u
gm=greedymap/greedymap
tg=taskgraph/taskgraph
repeat=5
shared=${TOPOMAP_SHARED:-$(dirname "$0")/../../shared}
while [ $# -gt 0 ]; do
    case $1 in
    --greedymap) gm=$2; shift 2 ;;
    --taskgraph) tg=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --shared) shared=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "levels.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/levels-sh.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

# The figures of an eval --json: hop-bytes total, bytes at package, bytes
# at numa + package, J.
figures() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
lv = {l["name"]: l["bytes"] for l in d["levels"]}
print(d["hop_bytes_total"], lv["package"], lv["numa"] + lv["package"],
      d["comm_cost"])' "$1"
}

# Median and min-max of the numbers on stdin.
stats() {
    sort -g | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%.3f (%.3f-%.3f)", m, v[1], v[NR] }'
}

# run NAME GRAPH NETWORK SLOTS TOPOLOGY CONFIG
run() {
    local name=$1 graph=$2 net=$3 slots=$4 topo=$5 config=$6
    local machine=(--network "$net" --slots "$slots")
    : > "$dir/t.before"; : > "$dir/t.after"
    for ((i = 0; i < repeat; i++)); do
        for side in before after; do
            local extra=()
            [ $side = after ] && extra=(--node-topology "$topo")
            local t0 t1
            t0=$(date +%s.%N)
            "$gm" map "$graph" "${machine[@]}" ${extra[@]+"${extra[@]}"} \
                --config "$config" -o "$dir/$side.map" > /dev/null 2> "$dir/err" \
                || { cat "$dir/err" >&2; exit 1; }
            t1=$(date +%s.%N)
            echo "$t1 - $t0" | bc >> "$dir/t.$side"
        done
    done
    for side in before after; do
        "$gm" eval "$graph" "${machine[@]}" --node-topology "$topo" \
            --mapping "$dir/$side.map" --json > "$dir/$side.json" || exit 1
        read -r hb pkg numa j < <(figures "$dir/$side.json")
        printf '%-14s %-24s %-6s %14s %12s %12s %14s  %s\n' "$name" \
            "$config" "$side" "$hb" "$pkg" "$numa" "$j" \
            "$(stats < "$dir/t.$side")"
    done
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %-24s %-6s %14s %12s %12s %14s  %s\n' case config slots \
    hop-bytes pkg-bytes numa-bytes J "seconds median (min-max)"
"$tg" gen qbox --rows 64 --cols 128 --periodic -o "$dir/qbox.tg.json" \
    > /dev/null || exit 1
"$tg" gen stencil --dims 16x16x16x16 --periodic -o "$dir/milc.tg.json" \
    > /dev/null || exit 1
"$tg" gen random-geometric --tasks 32768 --radius 0.01 \
    -o "$dir/rgg.tg.json" > /dev/null || exit 1
xml=$shared/hwloc-xml/32em64t-2n8c2t-pci-normalio.xml
for config in order=bfs order=gpart,refine=1; do
    run qbox-sum "$dir/qbox.tg.json" torus:8x8x8 16 "pack:2 core:8 pu:1" \
        "$config"
    run milc "$dir/milc.tg.json" torus:16x16x16 16 "pack:2 core:8 pu:1" \
        "$config"
    run rgg-torus "$dir/rgg.tg.json" torus:8x8x8 64 \
        "pack:2 numa:2 l3:2 core:8 pu:1" "$config"
    if [ -r "$xml" ]; then
        run qbox-xml "$dir/qbox.tg.json" torus:8x8x8 16 "$xml" "$config"
    fi
done
# decompose lays a sub-box per package itself (decompose_map.c): its
# before is the same boxes without the package cut.
run milc "$dir/milc.tg.json" torus:16x16x16 16 "pack:2 core:8 pu:1" \
    baseline=decompose
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
