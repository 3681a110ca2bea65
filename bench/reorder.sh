#!/usr/bin/env bash
# reorder.sh: what libtopomap-reorder costs inside MPI_Cart_create and
# MPI_Dist_graph_create_adjacent (reorder = 1), beside MPI's own
# constructor timed in the same runs (bench/reorder_time.c: the two
# alternate, call by call, the first call of each kind is dropped as
# warm-up).
#
# Usage: bench/reorder.sh [--lib SO] [--prog PROG] [--reps N] [--np "2 4 8 16"]
#                         [--scale "16 32 64"] [--greedymap PROG]
#   --lib SO      libtopomap-reorder.so (default
#                 reorder/.libs/libtopomap-reorder.so under the current
#                 folder, a build folder)
#   --prog PROG   bench/reorder_time (default bench/reorder_time here)
#   --reps N      calls of each kind and constructor per job (default 15)
#   --np LIST     job sizes (default "2 4 8 16"; oversubscribed)
#   --scale LIST  also time, for grids of side K (K^3 tasks, periodic),
#                 the three mappers rank 0 runs, through the greedymap
#                 command on 64 slots per node (what grows with the job
#                 beyond this machine; default none)
#   --greedymap P the greedymap command (default greedymap/greedymap here;
#                 taskgraph/taskgraph beside it makes the grids)
# Each job pretends max(2, NP/4) hosts (TOPOMAP_REORDER_HOSTS): rank i on
# host (bits set in i) mod hosts, a checkerboard on the grids of these
# sizes, which the library does reorder (column "moved": whether it
# returned a reordered communicator, from the report of one more short
# run: writing the report is not timed), so the time includes the mapping
# and the rebuilt communicator.
# Prints the load average before and after, and per job size and kind
# the median and range (min..max) in milliseconds of the slowest rank's
# time, MPI's and the library's, and the median difference.  Nothing
# passes or fails on time; exit 2 on a bad command line, 1 when a run
# fails.
set -u
me=reorder.sh
lib=reorder/.libs/libtopomap-reorder.so
prog=bench/reorder_time
reps=15
nps="2 4 8 16"
scale=
gm=greedymap/greedymap
usage() { echo "$me: $1 (see --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    --lib) [ $# -ge 2 ] || usage "--lib needs a file"; lib=$2; shift 2 ;;
    --prog) [ $# -ge 2 ] || usage "--prog needs a file"; prog=$2; shift 2 ;;
    --reps) [ $# -ge 2 ] && [ "$2" -ge 2 ] 2>/dev/null || usage "--reps needs an integer >= 2"; reps=$2; shift 2 ;;
    --np) [ $# -ge 2 ] || usage "--np needs a list"; nps=$2; shift 2 ;;
    --scale) [ $# -ge 2 ] || usage "--scale needs a list"; scale=$2; shift 2 ;;
    --greedymap) [ $# -ge 2 ] || usage "--greedymap needs a file"; gm=$2; shift 2 ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -r "$lib" ] || usage "no library $lib (build first, or give --lib)"
[ -x "$prog" ] || usage "no program $prog (make bench/reorder_time, or give --prog)"
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/reorder-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# stats: median, min and max (ms) of the seconds on standard input.
stats() {
  sort -g | awk '{ v[NR] = $1 * 1000 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}

echo "cores $(nproc), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%4s %5s %-5s %26s %28s %9s %6s\n' np hosts kind \
  "MPI ms median [min..max]" "library ms median [min..max]" "added ms" moved
for np in $nps; do
  nh=$((np / 4 > 2 ? np / 4 : 2))
  hosts=$(awk -v n="$np" -v h="$nh" 'BEGIN { for (i = 0; i < n; i++) {
    b = 0; for (x = i; x > 0; x = int(x / 2)) b += x % 2
    printf "%sh%d", i ? "," : "", b % h } }')
  mpirun -np "$np" -x LD_PRELOAD="$lib" -x TOPOMAP_REORDER_HOSTS="$hosts" \
    "$prog" "$((reps + 1))" > "$tmp/out.$np" &&
  mpirun -np "$np" -x LD_PRELOAD="$lib" -x TOPOMAP_REORDER_HOSTS="$hosts" \
    -x TOPOMAP_REORDER_REPORT="$tmp/report.$np" "$prog" 1 > /dev/null ||
    { echo "$me: a run on $np ranks failed" >&2; exit 1; }
  for kind in cart dist; do
    read -r m0 lo0 hi0 <<< "$(awk -v k=$kind '$1 == k && $2 == "mpi"' "$tmp/out.$np" | tail -n +2 | awk '{ print $3 }' | stats)"
    read -r m1 lo1 hi1 <<< "$(awk -v k=$kind '$1 == k && $2 == "lib"' "$tmp/out.$np" | tail -n +2 | awk '{ print $3 }' | stats)"
    case $kind in cart) call=MPI_Cart_create ;; *) call=MPI_Dist_graph_create_adjacent ;; esac
    moved=no
    grep -F "\"call\":\"$call\"" "$tmp/report.$np" | grep -qF '"reordered":true' && moved=yes
    printf '%4d %5d %-5s %9.3f [%6.3f..%7.3f] %11.3f [%6.3f..%7.3f] %9.3f %6s\n' \
      "$np" "$nh" "$kind" "$m0" "$lo0" "$hi0" "$m1" "$lo1" "$hi1" \
      "$(awk -v a="$m0" -v b="$m1" 'BEGIN { print b - a }')" "$moved"
  done
done
[ -z "$scale" ] || {
  tg=$(dirname "$gm")/../taskgraph/taskgraph
  [ -x "$gm" ] && [ -x "$tg" ] || usage "no $gm or $tg (give --greedymap)"
  echo "rank 0's mapping beyond this machine: K^3 periodic grid, 64 slots per node, seconds (one run each; greedymap reads the graph file too)"
  printf '%4s %9s %6s %9s %9s %9s\n' K tasks nodes block rb greedymap
  for k in $scale; do
    n=$((k * k * k)); nodes=$(((n + 63) / 64))
    "$tg" gen stencil --dims "${k}x${k}x${k}" --periodic -o "$tmp/g$k.metis" > /dev/null || exit 1
    t() { local s; s=$(date +%s.%N); "$@" > /dev/null 2>&1 || { echo "$me: failed: $*" >&2; exit 1; }; awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'; }
    m="--nodes $nodes --slots 64 -o $tmp/map"
    printf '%4d %9d %6d %9s %9s %9s\n' "$k" "$n" "$nodes" \
      "$(t "$gm" baseline block "$tmp/g$k.metis" $m)" \
      "$(t "$gm" baseline rb "$tmp/g$k.metis" $m)" \
      "$(t "$gm" map "$tmp/g$k.metis" $m)"
  done
}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
