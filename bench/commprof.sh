#!/usr/bin/env bash
# commprof.sh: what libcommprof costs an MPI application, measured with and
# without the preload in the same run (runs alternate), and whether it
# changes anything the application does.
#
# Usage: bench/commprof.sh [--lib SO] [--pingpong PROG] [--runs N]
#                          [--lammps-runs N] [--np N] [--no-lammps]
#   --lib SO          libcommprof.so (default libcommprof/.libs/libcommprof.so
#                     under the current folder, a build folder)
#   --pingpong PROG   bench/pingpong (default bench/pingpong here)
#   --runs N          ping-pong runs each way (default 7; median shown)
#   --lammps-runs N   LAMMPS melt runs each way (default 5; median shown)
#   --np N            LAMMPS ranks (default 8)
#   --no-lammps       ping-pong only
# Prints the machine (cores, load average), then:
#   1. ping-pong on 2 ranks at 8 B, 1 KiB, 64 KiB and MPI_Send to
#      MPI_PROC_NULL: ns per call without and with, added ns, ratio;
#      where the added time goes (pingpong --calls): calls on 1 rank
#      without and with, and the pieces a wrapper is made of;
#   2. LAMMPS melt: median wall time and loop time, without and with;
#   3. the LAMMPS thermo lines with and without: IDENTICAL or the diff;
#   4. LAMMPS's point-to-point bytes per pair in the profile against Open
#      MPI's pml monitoring of the same run.
# Nothing passes or fails on time: exit 1 only when the thermo lines differ
# or the profile disagrees with the monitoring (or a run fails); 2 on a bad
# command line.  LAMMPS comes from scripts/install-bench-deps.sh.
set -u

me=commprof.sh
srcdir=$(cd "$(dirname "$0")/.." && pwd)
lib=libcommprof/.libs/libcommprof.so
pingpong=bench/pingpong
runs=7
lruns=5
np=8
lammps=yes
usage() {
  echo "$me: $1 (see --help)" >&2
  exit 2
}
count() { [[ $2 =~ ^[1-9][0-9]*$ ]] || usage "$1 takes a positive count, not '$2'"; }
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) sed -n '2,26s/^# \{0,1\}//p' "$0"; exit 0 ;;
    --lib | --pingpong | --runs | --lammps-runs | --np)
      [ $# -ge 2 ] || usage "$1 needs a value"
      case $1 in
        --lib) lib=$2 ;;
        --pingpong) pingpong=$2 ;;
        --runs) count "$1" "$2"; runs=$2 ;;
        --lammps-runs) count "$1" "$2"; lruns=$2 ;;
        --np) count "$1" "$2"; np=$2 ;;
      esac
      shift 2 ;;
    --no-lammps) lammps=no; shift ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -f "$lib" ] || usage "$lib: no libcommprof here (run from the build folder, or give --lib)"
[ -x "$pingpong" ] || usage "$pingpong: no ping-pong program (make bench/pingpong, or give --pingpong)"
abs() { echo "$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")"; }
lib=$(abs "$lib")
pingpong=$(abs "$pingpong")

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/commprof-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
cores=$(nproc)

# The median of the numbers on standard input.
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
load() { cut -d' ' -f1-3 /proc/loadavg; }
# A warning when other work competes for the cores (MPI ranks poll).
busy() {
  awk -v c="$cores" -v when="$1" '{ if ($1 >= c) printf "warning: load average %s on %d cores %s: other work competes with the runs, the times are not to be trusted\n", $1, c, when }' /proc/loadavg
}

echo "machine: $cores cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), load average $(load) at the start"
echo "MPI: $(ompi_info --version 2>/dev/null | head -n 1); libcommprof: $lib"
busy "at the start"
echo

# ---------------------------------------------------------------- ping-pong
# alternate TAG RUNS NP ARGS...: RUNS runs of `mpirun -np NP pingpong ARGS`
# without and RUNS with the preload, appended to $tmp/TAG.plain and
# $tmp/TAG.pre.  Run I alternates which comes first, so that a slow phase
# of the machine falls on both sides alike.
alternate() {
  local tag=$1 n=$2 np=$3 i kind
  shift 3
  for ((i = 1; i <= n; i++)); do
    for kind in $( ((i % 2)) && echo plain pre || echo pre plain); do
      local pre=()
      [ "$kind" = pre ] && pre=(-x "LD_PRELOAD=$lib" -x "COMMPROF_OUT=$tmp/$tag.json")
      mpirun -np "$np" "${pre[@]}" "$pingpong" "$@" >> "$tmp/$tag.$kind" ||
        { echo "$me: pingpong $* failed ($kind)" >&2; exit 1; }
    done
  done
}
# med TAG KIND NAME [SIZE]: the median of that figure over the runs.
med() { awk -v k="$3" -v s="${4:-0}" '$1 == k && $2 == s { print $3 }' "$tmp/$1.$2" | median; }

echo "ping-pong: $runs runs without and $runs with the preload, alternating" >&2
# Short samples, many of them: at 1 KiB a sample of the program's default
# 10000 round trips lasts 8 ms and more, several scheduler ticks on a
# shared machine, and the best of 5 such samples still holds preemptions
# (the figure then swings by microseconds from run to run); 2000 round
# trips last about 2 ms, and the best of 15 is a quiet one.
alternate pp "$runs" 2 --iters 2000 --samples 15
printf '%s\n' "1. ping-pong, 2 ranks: ns per MPI call, median of $runs runs each way (each run: best of 15 samples of 2000 round trips)" \
  "   (a round trip is 4 calls: Send, Recv, Send, Recv; proc_null: MPI_Send of 8 B to MPI_PROC_NULL)"
printf '   %-10s %12s %12s %12s %8s\n' size without with added ratio
for row in "8 B:pingpong:8" "1 KiB:pingpong:1024" "64 KiB:pingpong:65536" "proc_null:proc_null:0"; do
  IFS=: read -r name key size <<< "$row"
  awk -v n="$name" -v a="$(med pp plain "$key" "$size")" -v b="$(med pp pre "$key" "$size")" \
    'BEGIN { printf "   %-10s %12.1f %12.1f %12.1f %8.3f\n", n, a, b, b - a, b / a }'
done
echo "   target: at most 20 ns added per call"
echo

# Where the added time goes: one rank, no partner to wait for.
ccruns=3
alternate cc "$ccruns" 1 --calls
echo "   where the added time goes: 1 rank, ns per iteration, median of $ccruns runs each way"
printf '   %-36s %10s %10s %10s\n' "" without with added
for row in "MPI_Send to MPI_PROC_NULL:send_null" "the same on a dup of MPI_COMM_WORLD:send_null_dup" \
           "Isend + Recv + Wait to self (3 calls):self_isend_recv"; do
  IFS=: read -r name key <<< "$row"
  awk -v n="$name" -v a="$(med cc plain "$key")" -v b="$(med cc pre "$key")" \
    'BEGIN { printf "   %-36s %10.1f %10.1f %10.1f\n", n, a, b, b - a }'
done
# The wrapper's own cost, for the LAMMPS estimate below.
call_ns=$(awk -v a="$(med cc plain send_null)" -v b="$(med cc pre send_null)" 'BEGIN { printf "%.1f", b - a }')
echo "   the pieces of a wrapper, called directly (without the preload):"
for row in "clock_gettime(CLOCK_MONOTONIC)  (2 per wrapped call):clock_gettime" \
           "PMPI_Type_size_x  (bytes of a send):type_size" \
           "PMPI_Comm_get_attr  (a communicator other than MPI_COMM_WORLD):get_attr" \
           "PMPI_Get_elements_x  (bytes of a receive):get_elements" \
           "relaxed atomic add  (counters under MPI_THREAD_MULTIPLE):atomic_add"; do
  printf '   %10.1f  %s\n' "$(med cc plain "${row##*:}")" "${row%:*}"
done
echo

if [ "$lammps" = no ]; then
  echo "load average $(load) at the end"
  busy "at the end"
  exit 0
fi

# ------------------------------------------------------------------- LAMMPS
lmp=""
for c in lmp lmp_openmpi lmp_mpi; do
  command -v "$c" > /dev/null && { lmp=$(command -v "$c"); break; }
done
melt=${LAMMPS_MELT:-/usr/share/lammps/examples/melt/in.melt}
if [ -z "$lmp" ] || [ ! -f "$melt" ]; then
  echo "2-4. LAMMPS melt: n/a (install it with scripts/install-bench-deps.sh: lammps, lammps-examples)"
  echo "load average $(load) at the end"
  busy "at the end"
  exit 0
fi
over=()
if [ "$np" -gt "$cores" ]; then
  over=(--oversubscribe)
  note="$np ranks on $cores cores: oversubscribed (--oversubscribe), so the ranks share cores and the times are not those of $np real cores"
else
  note="$np ranks on $cores cores"
fi
mkdir "$tmp/lmp"
lmprun() { # lmprun plain|pre|monitor N: output in $tmp/lmp/KIND.N.out, wall ns in .ns
  local extra=()
  case $1 in
    pre) extra=(-x "LD_PRELOAD=$lib" -x "COMMPROF_OUT=$tmp/lmp/pre.json") ;;
    monitor)
      mkdir -p "$tmp/lmp/mon"
      extra=(-x "LD_PRELOAD=$lib" -x "COMMPROF_OUT=$tmp/lmp/monitor.json"
        --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3
        --mca pml_monitoring_filename "$tmp/lmp/mon/prof") ;;
  esac
  local t0 t1
  t0=$(date +%s%N)
  (cd "$tmp/lmp" && mpirun -np "$np" "${over[@]}" "${extra[@]}" "$lmp" -in "$melt" -log none \
    > "$tmp/lmp/$1.$2.out" 2>&1) || { echo "$me: LAMMPS run failed ($1), output:" >&2
    tail -n 20 "$tmp/lmp/$1.$2.out" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $((t1 - t0)) > "$tmp/lmp/$1.$2.ns"
}
echo "LAMMPS melt: $lruns runs without and $lruns with the preload, alternating" >&2
for ((i = 1; i <= lruns; i++)); do
  if ((i % 2)); then lmprun plain "$i"; lmprun pre "$i"
  else lmprun pre "$i"; lmprun plain "$i"; fi
done
loop() { sed -n 's/^Loop time of \([0-9.e+-]*\) .*/\1/p' "$1"; }
for kind in plain pre; do
  cat "$tmp/lmp/$kind".*.ns | awk '{ print $1 / 1e9 }' | median > "$tmp/lmp/$kind.wall"
  for f in "$tmp/lmp/$kind".*.out; do loop "$f"; done | median > "$tmp/lmp/$kind.loop"
done
echo "2. LAMMPS melt ($melt, $lmp), $note"
echo "   median of $lruns runs each way, seconds"
printf '   %-28s %10s %10s %10s\n' "" without with overhead
for what in wall loop; do
  case $what in
    wall) name="wall time (whole mpirun)" ;;
    loop) name="LAMMPS loop time" ;;
  esac
  awk -v n="$name" -v a="$(cat "$tmp/lmp/plain.$what")" -v b="$(cat "$tmp/lmp/pre.$what")" \
    'BEGIN { printf "   %-28s %10.3f %10.3f %9.2f%%\n", n, a, b, 100 * (b - a) / a }'
done
# Timing noise on a busy machine easily exceeds 1%: the profile's call
# counts times the cost of one wrapped call say what to expect.  Ranks on
# cores of their own pay in parallel (the busiest rank's calls); ranks
# sharing cores pay in turn (all calls spread over the cores).
read -r busiest total < <(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
calls = [sum(t["calls"] for t in r["types"].values()) for r in p["ranks"]]
print(max(calls), sum(calls))' "$tmp/lmp/pre.json")
used=$((np < cores ? np : cores))
awk -v b="$busiest" -v t="$total" -v u="$used" -v n="$np" -v ns="$call_ns" \
  -v loop="$(cat "$tmp/lmp/pre.loop")" 'BEGIN {
  c = (t / u > b) ? t / u : b
  printf "   expected: %d MPI calls on %d ranks (busiest %d) over %d cores = %.0f calls per core\n", t, n, b, u, c
  printf "   x %s ns added per call (above) = %.2f ms, %.3f%% of the loop time\n", ns, c * ns / 1e6, 100 * c * ns / 1e9 / loop }'
echo "   target: at most 1% overhead"
echo

# The thermo table: the header line (Step ...) up to the Loop time line.
thermo() { sed -n '/^ *Step /,/^Loop time/p' "$1" | grep -v '^Loop time'; }
thermo "$tmp/lmp/plain.1.out" > "$tmp/lmp/thermo.ref"
if [ ! -s "$tmp/lmp/thermo.ref" ]; then
  echo "3. thermo lines: none found in LAMMPS's output"
  status=1
else
  differ=""
  for f in "$tmp/lmp"/plain.*.out "$tmp/lmp"/pre.*.out; do
    thermo "$f" | cmp -s - "$tmp/lmp/thermo.ref" || { differ=$f; break; }
  done
  if [ -z "$differ" ]; then
    echo "3. thermo lines ($(wc -l < "$tmp/lmp/thermo.ref") lines) of all $((2 * lruns)) runs, with and without the preload: IDENTICAL"
  else
    echo "3. thermo lines: $(basename "$differ") differs from plain.1.out (plain: without, pre: with the preload):"
    thermo "$differ" | diff "$tmp/lmp/thermo.ref" - | sed 's/^/   /'
    status=1
  fi
fi
echo

echo "LAMMPS melt under Open MPI's pml monitoring, with the preload" >&2
lmprun monitor 1
echo "4. point-to-point bytes and messages per pair: libcommprof against Open MPI's pml monitoring (same run)"
python3 "$srcdir/tests/commprof_check.py" monitoring "$tmp/lmp/monitor.json" "$tmp/lmp/mon" \
  | sed 's/^/   /'
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo
echo "load average $(load) at the end"
busy "at the end"
exit "$status"
