#!/usr/bin/env bash
# Install dependencies, build topomap, and run the whole pipeline on this
# machine with the bundled Qbox-like example (examples/qboxlike: a ring in
# each row, an Alltoall in each column, a global Allreduce): profile it at
# 16 ranks (commprof-run), build its task graphs (taskgraph build), map
# them inside a 16-rank job on this host and launch the example with the
# rankfile (topomap-run; oversubscribed when the host has fewer cores),
# then map the same pattern at 1024 tasks onto a described machine, 64
# nodes x 16 slots on a 4x4x4 torus (parmapper offline), and compare the
# chosen mapping with the default one: a table, and the Pareto front in
# pareto.png.  Output goes to ./quickstart-out.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "quickstart.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TOPOMAP_BUILD_DIR:-$root/build}
out=${TOPOMAP_QUICKSTART_OUT:-$root/quickstart-out}
start=$SECONDS

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

tg=$build/taskgraph/taskgraph
mkdir -p "$out"
step() { echo; echo "\$ $*"; "$@"; }

# Open MPI refuses root unless told, and runs no more ranks than cores
# unless told: 16 ranks on a small machine are oversubscribed.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1
cores=$(hwloc-calc --number-of core all)
np=16
bytes=65536
iters=10
app=("$build/examples/qboxlike" --bytes "$bytes" --iters "$iters")

echo
echo "== 1. profile the Qbox-like example at $np ranks"
step "$build/scripts/commprof-run" -o "$out/commprof.json" -- mpirun -np "$np" "${app[@]}"

echo
echo "== 2. build its task graphs"
step "$tg" build "$out/commprof.json" -o "$out/graphs"

echo
echo "== 3. map inside a $np-rank job on this host ($cores cores), then run with the rankfile"
# With fewer cores than ranks, parmapper has several ranks share a core
# (ranks / cores, rounded up).  On one host every mapping has hop-bytes 0
# (no network between ranks): this step shows the mechanics; step 4 the
# gain.
step "$build/scripts/topomap-run" --graph "$out/graphs/wsum.tg.json" --time 3 \
  --keep "$out/job" -- mpirun -np "$np" "${app[@]}"

echo
echo "== 4. the same pattern at 1024 tasks on 64 nodes x 16 slots, torus 4x4x4 (offline)"
# The example at 1024 ranks is too big for this machine: its graph comes
# from taskgraph gen qbox on a 32x32 grid, each pair of neighbours
# exchanging what the example's pairs exchange (2 x iterations x bytes),
# weighted with the type factors the 16-rank build found.
weights=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
f = {t["name"]: t["factor"] if t["critical"] else 0 for t in s["types"]}
print("p2p=%r,alltoall=%r" % (f.get("p2p", 0), f.get("alltoall", 0)))' "$out/graphs/summary.json")
pair=$((2 * iters * bytes))
step "$tg" gen qbox --rows 32 --cols 32 --periodic --p2p-bytes "$pair" \
  --alltoall-bytes "$pair" -o "$out/qbox1024.tg.json"
step "$tg" combine "$out/qbox1024.tg.json" --weights "$weights" -o "$out/qbox1024-wsum.tg.json"
mkdir -p "$out/offline"
ranks=$(( cores < 8 ? cores : 8 ))
step mpirun -np "$ranks" "$build/parmapper/parmapper" "$out/qbox1024-wsum.tg.json" \
  --nodes 64 --slots 16 --network torus:4x4x4 --time 10 \
  --mapping "$out/offline/mapping" --report "$out/offline/report.json"

echo
python3 - "$out/offline/report.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
d, c, s = r["default"]["metrics"], r["chosen"]["metrics"], r["search"]
print(f"1024 tasks on 64 nodes x 16 slots, torus 4x4x4: parmapper ran "
      f"{s['runs']} GreedyMap runs on {s['ranks']} ranks in {s['seconds']:.1f} s")
rows = [("hop-bytes avg", "hop_bytes_avg", "{:.0f}"),
        ("hop-bytes max", "hop_bytes_max", "{}"),
        ("dilation (byte-weighted)", "dilation_wavg", "{:.3f}"),
        ("dilation max", "dilation_max", "{}"),
        ("off-node bytes", "offnode_bytes", "{}"),
        ("max link load", "load_max_fixed", "{}")]
print(f"{'metric':<26} {'default (block)':>16} {'chosen':>16} {'chosen/default':>15}")
for name, key, fmt in rows:
    ratio = f"{c[key] / d[key]:.3f}" if d[key] else "-"
    print(f"{name:<26} {fmt.format(d[key]):>16} {fmt.format(c[key]):>16} {ratio:>15}")
print(f"chosen: {r['chosen']['config']}")
EOF

echo
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  step "$root/scripts/topomap-plot" pareto "$out/offline/report.json" -o "$out/pareto.png"
else
  echo "no picture: /usr/bin/python3 has no matplotlib (Debian: python3-matplotlib)"
fi
echo
echo "quickstart: done in $((SECONDS - start)) s; files in $out"
