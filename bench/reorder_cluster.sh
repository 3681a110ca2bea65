#!/usr/bin/env bash
# reorder_cluster.sh: a stencil application that asks for reorder = 1,
# launched with its ranks scattered over the nodes (--map-by node) of an
# emulated cluster (scripts/topomap-cluster --name reorder), timed with
# Open MPI's own reorder, with libtopomap-reorder preloaded, and, for the
# dist graph, with Open MPI's treematch topology component
# (--mca topo treematch).  The application is bench/reorder_halo: a
# periodic 3-D halo exchange through MPI_Neighbor_alltoall on the
# communicator from MPI_Cart_create or MPI_Dist_graph_create_adjacent.
#
# Usage: bench/reorder_cluster.sh [--build DIR] [--runs N] [--nodes N]
#          [--slots S] [--rate R] [--bytes B] [--iters I]
#   --build DIR  the build folder (default: build beside this script's
#                folder)
#   --runs N     runs of each variant (default 5), alternating: run r
#                starts with variant (r - 1) mod 5
#   --nodes N, --slots S   the cluster (default 4 x 4: 16 ranks)
#   --rate R     link rate (default 100mbit)
#   --bytes B    bytes to each neighbour per iteration (default 65536)
#   --iters I    iterations (default 200)
# Prints the load average before and after, then per variant the median
# and range of the slowest rank's time for the exchange (seconds) and the
# directed neighbour pairs across hosts (the placement the constructor
# chose, from the ranks' host names).  Needs root (exit 77 without); the
# cluster is always taken down.  Nothing passes or fails on time; exit 1
# when a run fails, 2 on a bad command line.
set -u
me=reorder_cluster.sh
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
runs=5 nodes=4 slots=4 rate=100mbit bytes=65536 iters=200
usage() { echo "$me: $1 (see --help)" >&2; exit 2; }
int() { [ "$2" -ge 1 ] 2>/dev/null || usage "$1 needs a positive integer"; }
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    --build) [ $# -ge 2 ] || usage "--build needs a folder"; build=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage "--runs needs a value"; int --runs "$2"; runs=$2; shift 2 ;;
    --nodes) [ $# -ge 2 ] || usage "--nodes needs a value"; int --nodes "$2"; nodes=$2; shift 2 ;;
    --slots) [ $# -ge 2 ] || usage "--slots needs a value"; int --slots "$2"; slots=$2; shift 2 ;;
    --rate) [ $# -ge 2 ] || usage "--rate needs a value"; rate=$2; shift 2 ;;
    --bytes) [ $# -ge 2 ] || usage "--bytes needs a value"; int --bytes "$2"; bytes=$2; shift 2 ;;
    --iters) [ $# -ge 2 ] || usage "--iters needs a value"; int --iters "$2"; iters=$2; shift 2 ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
lib=$build/reorder/.libs/libtopomap-reorder.so
prog=$build/bench/reorder_halo
[ -r "$lib" ] && [ -x "$prog" ] || usage "no $lib or $prog (make bench/reorder_halo)"
[ "$(id -u)" -eq 0 ] || { echo "$me: needs root (network namespaces); skipping"; exit 77; }
tc=$src/scripts/topomap-cluster
tmp=$(mktemp -d "${TMPDIR:-/tmp}/reorder-cluster-XXXXXX")
trap '"$tc" --name reorder down > /dev/null 2>&1; rm -rf "$tmp"' EXIT
"$tc" --name reorder up "$nodes" --slots "$slots" --rate "$rate" > "$tmp/up.log" 2>&1 ||
  { cat "$tmp/up.log"; echo "$me: topomap-cluster up failed" >&2; exit 1; }
np=$((nodes * slots))
variants=(cart-mpi cart-topomap dist-mpi dist-topomap dist-treematch)
run_variant() {
  local v=$1 extra=()
  case $v in
    *-topomap) extra=(-x LD_PRELOAD="$lib") ;;
    *-treematch) extra=(--mca topo treematch) ;;
  esac
  "$tc" --name reorder run -- mpirun -np "$np" --map-by node --bind-to none \
    --mca mpi_yield_when_idle 1 "${extra[@]}" "$prog" "${v%%-*}" "$bytes" "$iters"
}
echo "cores $(nproc), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$nodes nodes x $slots slots, $rate links, $np ranks --map-by node; $bytes B to each of 6 neighbours, $iters iterations; $runs runs each, alternating"
for r in $(seq 1 "$runs"); do
  for j in $(seq 0 4); do
    v=${variants[$(((r - 1 + j) % 5))]}
    run_variant "$v" > "$tmp/out" 2> "$tmp/err" ||
      { cat "$tmp/err"; echo "$me: run $r of $v failed" >&2; exit 1; }
    grep '^seconds ' "$tmp/out" >> "$tmp/$v"
  done
done
printf '%-16s %10s %22s %15s\n' variant median "[min..max] s" "pairs off host"
for v in "${variants[@]}"; do
  awk '{ print $2, $4 }' "$tmp/$v" | sort -g | awk -v v="$v" '
    { t[NR] = $1; p[$2] = 1 }
    END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
          pairs = ""; for (k in p) pairs = pairs (pairs == "" ? "" : ",") k
          printf "%-16s %10.3f [%8.3f..%8.3f] %15s\n", v, m, t[1], t[NR], pairs }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
