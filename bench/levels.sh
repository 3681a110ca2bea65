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
# In the job (parmapper, 2 ranks under mpirun on this host, --first): the
# host described by an hwloc XML of ../shared/hwloc-xml given to the ranks
# with HWLOC_XMLFILE (every core usable, one task per core), alternating
#   no-levels  parmapper --no-levels: the cores of the host all alike (the
#              old in-job model);
#   levels     the host's levels from hwloc inside the job (discover.c);
# both mappings evaluated by `greedymap eval --node-topology XML` (the
# same levels offline), same columns.  Without --parmapper or the XMLs
# that part is left out.
#
# usage: bench/levels.sh [--greedymap PATH] [--taskgraph PATH]
#                        [--parmapper PATH] [--repeat R] [--shared DIR]
set -u
gm=greedymap/greedymap
tg=taskgraph/taskgraph
pm=
repeat=5
shared=${TOPOMAP_SHARED:-$(dirname "$0")/../../shared}
while [ $# -gt 0 ]; do
    case $1 in
    --greedymap) gm=$2; shift 2 ;;
    --taskgraph) tg=$2; shift 2 ;;
    --parmapper) pm=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --shared) shared=$2; shift 2 ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# The columns of one mapping: eval --json with the topology, then the
# times.  row NAME CONFIG SIDE JSON TIMES
row() {
    local hb pkg numa j
    read -r hb pkg numa j < <(figures "$4")
    printf '%-14s %-24s %-9s %14s %12s %12s %14s  %s\n' "$1" "$2" "$3" \
        "$hb" "$pkg" "$numa" "$j" "$(stats < "$5")"
}

# injob NAME GRAPH XML: parmapper in the job on the XML's host, with and
# without its levels.
injob() {
    local name=$1 graph=$2 xml=$3 host cores
    host=$(hostname)
    cores=$(HWLOC_XMLFILE=$xml hwloc-calc --number-of core all) || exit 1
    : > "$dir/t.no-levels"; : > "$dir/t.levels"
    for ((i = 0; i < repeat; i++)); do
        for side in no-levels levels; do
            local extra=()
            [ $side = no-levels ] && extra=(--no-levels)
            local t0 t1
            t0=$(date +%s.%N)
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                mpirun -np 2 --oversubscribe -x HWLOC_XMLFILE="$xml" "$pm" \
                "$graph" --first --quiet ${extra[@]+"${extra[@]}"} \
                --mapping "$dir/$side.map" --report "$dir/$side.report" \
                > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
            t1=$(date +%s.%N)
            echo "$t1 - $t0" | bc >> "$dir/t.$side"
        done
    done
    printf '%s slots=%s\n' "$host" "$cores" > "$dir/hosts"
    for side in no-levels levels; do
        "$gm" eval "$graph" --hostfile "$dir/hosts" --node-topology "$xml" \
            --mapping "$dir/$side.map" --json > "$dir/$side.json" || exit 1
        row "$name" "parmapper --first" "$side" "$dir/$side.json" \
            "$dir/t.$side"
    done
    # The job's own J is the one greedymap eval gives with the XML.
    python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["chosen"]["metrics"]["comm_cost"]
b = json.load(open(sys.argv[2]))["comm_cost"]
sys.exit(a != b)' "$dir/levels.report" "$dir/levels.json" ||
        echo "$name: the report's J differs from greedymap eval's" >&2
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
        row "$name" "$config" "$side" "$dir/$side.json" "$dir/t.$side"
    done
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %-24s %-9s %14s %12s %12s %14s  %s\n' case config slots \
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
# In the job: qbox grids whose column Alltoall (heavy) block splits over
# the packages or NUMA nodes, and a random geometric graph (task ids not
# in spatial order) on a node of 4 packages and 8 NUMA nodes.
hx=$shared/hwloc-xml
if [ -n "$pm" ] && [ -r "$hx/nvidiaDGX2.xml" ]; then
    "$tg" gen qbox --rows 2 --cols 2 --p2p-bytes 100 --alltoall-bytes 1000 \
        -o "$dir/q22.tg.json" > /dev/null || exit 1
    "$tg" gen qbox --rows 4 --cols 4 --p2p-bytes 100 --alltoall-bytes 1000 \
        -o "$dir/q44.tg.json" > /dev/null || exit 1
    "$tg" gen random-geometric --tasks 16 --radius 0.4 \
        -o "$dir/rgg16.tg.json" > /dev/null || exit 1
    injob dgx2-qbox2x2 "$dir/q22.tg.json" "$hx/nvidiaDGX2.xml"
    injob knl-qbox4x4 "$dir/q44.tg.json" "$hx/64intel64-fakeKNL-SNC4-hybrid.xml"
    injob amd16-rgg16 "$dir/rgg16.tg.json" "$hx/16amd64-4distances.xml"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
