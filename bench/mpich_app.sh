#!/usr/bin/env bash
# mpich_app.sh: a real application that Debian ships for MPICH, profiled
# exactly by libcommprof built against Debian's MPICH 4.0, its output
# unchanged, and what the profiler costs it.
#
# Usage: bench/mpich_app.sh --mpich-build DIR --ompi-build DIR [--runs N]
#   --mpich-build DIR  a build folder configured with mpicc.mpich
#                      (scripts/check-mpis.sh mpich4 makes build-mpis/mpich4)
#   --ompi-build DIR   a build folder configured with Open MPI 4.1's mpicc
#                      (the default build)
#   --runs N           timed runs each way under MPICH (default 5; medians)
# From each build it takes libcommprof/.libs/libcommprof.so,
# bench/.libs/libmpicount.so (bench/mpicount.c: an independent count of the
# application's MPI calls and sent bytes, loaded in front of libcommprof)
# and bench/pingpong.
#
# The application: Debian's ScaLAPACK LU driver xdlu (scalapack-mpi-test,
# scripts/install-bench-deps.sh), built from one source for MPICH and for
# Open MPI, on the case of tests/scalapack_lib.sh (400 x 400, 4 ranks on a
# 2 x 2 grid).  Launched by mpiexec.mpich with LD_PRELOAD, and by
# mpirun.openmpi for the cross-check.  It prints, with progress on stderr:
#   1. output: the driver's output (its residuals; the result row's times
#      left out) in every run with the preload, against the first without;
#   2. MPICH, one run: libcommprof against libmpicount in the same run,
#      calls per type and bytes and messages per pair;
#   3. Open MPI, one run: libcommprof against libmpicount and against the
#      pml monitoring in the same run; then the MPICH profile against the
#      Open MPI profile: all but times and point-to-point call counts;
#   4. times under MPICH without and with the preload (runs alternate):
#      medians and range of the whole mpiexec and of the driver's LU and
#      solve times, with the load average, and the MPI calls of the
#      busiest rank times what one wrapped call adds (bench/pingpong
#      --calls of the MPICH build, 1 rank): the profiler's expected cost.
# Exit 1 on any difference in 1-3 or a failed run (never on time); 2 on a
# bad command line or a missing prerequisite.  `make check-mpich-app`.
set -u

me=mpich_app.sh
srcdir=$(cd "$(dirname "$0")/.." && pwd)
runs=5
mbuild=""
obuild=""
usage() {
  echo "$me: $1 (see --help)" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) sed -n '2,35s/^# \{0,1\}//p' "$0"; exit 0 ;;
    --mpich-build | --ompi-build | --runs)
      [ $# -ge 2 ] || usage "$1 needs a value"
      case $1 in
        --mpich-build) mbuild=$2 ;;
        --ompi-build) obuild=$2 ;;
        --runs) [[ $2 =~ ^[1-9][0-9]*$ ]] || usage "--runs takes a positive count, not '$2'"
          runs=$2 ;;
      esac
      shift 2 ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -n "$mbuild" ] || usage "--mpich-build is required"
[ -n "$obuild" ] || usage "--ompi-build is required"

TOPOMAP_SRCDIR=$srcdir
. "$srcdir/tests/scalapack_lib.sh"
missing() {
  echo "$me: $1" >&2
  exit 2
}
# A build folder's MPI as configure found it, and its two libraries.
build_of() { # build_of DIR IMPL VERSION-PREFIX
  local mk=$1/Makefile impl ver
  [ -f "$mk" ] || missing "$1: not a configured build folder"
  impl=$(sed -n 's/^MPI_IMPL = //p' "$mk")
  ver=$(sed -n 's/^MPI_IMPL_VERSION = //p' "$mk")
  [ "$impl" = "$2" ] && [[ $ver == $3* ]] ||
    missing "$1: configured for $impl $ver, not $2 $3 (Debian's build of the driver)"
  for f in libcommprof/.libs/libcommprof.so bench/.libs/libmpicount.so bench/pingpong; do
    [ -f "$1/$f" ] || missing "$1/$f missing (make -C $1 libcommprof/libcommprof.la bench/libmpicount.la bench/pingpong)"
  done
}
build_of "$mbuild" mpich 4.0
build_of "$obuild" openmpi 4.1
mbuild=$(cd "$mbuild" && pwd -P)
obuild=$(cd "$obuild" && pwd -P)
mexec=$(command -v mpiexec.mpich) || missing "mpiexec.mpich not found (Debian's mpich: scripts/install-mpis.sh)"
oexec=$(command -v mpirun.openmpi) || missing "mpirun.openmpi not found (Debian's openmpi-bin)"
mxdlu=$(scalapack_driver mpich 4.0.2) && oxdlu=$(scalapack_driver openmpi 4.1.4) ||
  missing "Debian's ScaLAPACK drivers not in $SCALAPACK_TESTS (scripts/install-bench-deps.sh installs scalapack-mpi-test)"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpich-app.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$SCALAPACK_LU_DAT" "$tmp/LU.dat"
check="python3 $srcdir/tests/commprof_check.py"
status=0
cores=$(nproc)
load() { cut -d' ' -f1-3 /proc/loadavg; }
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }

# run TAG MPI PRELOAD [ENV=VALUE...] [-- MPIRUN-OPTIONS...]: one 4-rank
# run of the driver in $tmp, its output in $tmp/TAG.out, the seconds of
# the whole launch in $tmp/TAG.s.
run() {
  local tag=$1 mpi=$2 preload=$3 env=() opts=() t0 t1 cmd
  shift 3
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
  [ $# -gt 0 ] && shift && opts=("$@")
  [ -n "$preload" ] && env+=("LD_PRELOAD=$preload")
  if [ "$mpi" = mpich ]; then
    cmd=("$mexec" -n 4)
    for e in "${env[@]}"; do cmd+=(-genv "${e%%=*}" "${e#*=}"); done
    cmd+=("$mxdlu")
  else
    cmd=("$oexec" -np 4 --oversubscribe)
    for e in "${env[@]}"; do cmd+=(-x "$e"); done
    cmd+=("${opts[@]}" "$oxdlu")
  fi
  t0=$(date +%s%N)
  (cd "$tmp" && "${cmd[@]}" > "$tmp/$tag.out" 2>&1) ||
    { echo "$me: run $tag failed: ${cmd[*]}" >&2; tail -n 20 "$tmp/$tag.out" >&2; exit 1; }
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' > "$tmp/$tag.s"
}

echo "machine: $cores cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), load average $(load) at the start"
echo "application: $mxdlu (MPICH), $oxdlu (Open MPI): ScaLAPACK LU, 400 x 400, 4 right-hand sides, NB 32, 4 ranks on a 2 x 2 grid"
echo "MPICH: $("$mexec" --version 2>&1 | sed -n 's/^ *Version: *//p' | head -n 1) (Hydra), libcommprof from $mbuild"
echo "Open MPI: $("$oexec" --version 2>&1 | head -n 1), libcommprof from $obuild"
echo

mlib=$mbuild/libcommprof/.libs/libcommprof.so
olib=$obuild/libcommprof/.libs/libcommprof.so
echo "MPICH: $runs runs without and $runs with the preload, alternating" >&2
for ((i = 1; i <= runs; i++)); do
  for kind in $( ((i % 2)) && echo plain pre || echo pre plain); do
    if [ "$kind" = pre ]; then
      run "pre.$i" mpich "$mlib" "COMMPROF_OUT=$tmp/pre.$i.json"
    else
      run "plain.$i" mpich ""
    fi
  done
done
echo "MPICH: one run with libcommprof and libmpicount" >&2
run count mpich "$mbuild/bench/.libs/libmpicount.so $mlib" \
  "COMMPROF_OUT=$tmp/mpich.json" "MPICOUNT_OUT=$tmp/mpich.count"
echo "Open MPI: one run with libcommprof, libmpicount and the pml monitoring" >&2
mkdir "$tmp/mon"
run ompi openmpi "$obuild/bench/.libs/libmpicount.so $olib" \
  "COMMPROF_OUT=$tmp/ompi.json" "MPICOUNT_OUT=$tmp/ompi.count" -- \
  --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
  --mca pml_monitoring_filename "$tmp/mon/prof"

# 1. The output, times left out, of every MPICH run against plain.1.
scalapack_result "$tmp/plain.1.out" > "$tmp/ref"
differ=""
for f in "$tmp"/plain.*.out "$tmp"/pre.*.out "$tmp/count.out"; do
  scalapack_result "$f" | cmp -s "$tmp/ref" - || differ+=" $(basename "$f" .out)"
done
residuals=$(grep '^||' "$tmp/plain.1.out" | tr -s ' ' | paste -sd ';' | sed 's/;/; /g')
if [ -z "$differ" ]; then
  echo "1. output of all $((2 * runs + 1)) MPICH runs ($(wc -l < "$tmp/ref") lines; the result row's 3 times left out), with and without the preload: IDENTICAL"
else
  echo "1. output: differs from plain.1 (plain: without, pre: with the preload) in:$differ"
  for f in $differ; do scalapack_result "$tmp/$f.out" | diff "$tmp/ref" - | sed 's/^/   /'; done
  status=1
fi
echo "   residuals: $residuals"
if ! scalapack_residuals_ok "$tmp/plain.1.out"; then
  echo "   the residuals are missing or not below 16"
  status=1
fi
# The same case under Open MPI: not asserted (the MPIs may sum a norm's
# Allreduce in another order), shown.
if scalapack_result "$tmp/ompi.out" | cmp -s "$tmp/ref" -; then
  echo "   Open MPI's run of the same case: the same output"
else
  echo "   Open MPI's run of the same case: another output (not asserted):"
  scalapack_result "$tmp/ompi.out" | diff "$tmp/ref" - | sed 's/^/   /'
fi
echo

# comparison TITLE CHECK-ARGS...: the checker's lines, indented; its
# failure fails the run.
comparison() {
  echo "$1"
  shift
  $check "$@" | sed 's/^/   /'
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}
comparison "2. MPICH: libcommprof against libmpicount (same run)" counted "$tmp/mpich.json" "$tmp/mpich.count"
comparison "3. Open MPI: libcommprof against libmpicount (same run)" counted "$tmp/ompi.json" "$tmp/ompi.count"
comparison "   Open MPI: libcommprof against the pml monitoring (same run)" monitoring "$tmp/ompi.json" "$tmp/mon"
comparison "   libcommprof under MPICH against libcommprof under Open MPI (two runs)" same "$tmp/mpich.json" "$tmp/ompi.json"
for ((i = 1; i <= runs; i++)); do
  $check same "$tmp/pre.$i.json" "$tmp/mpich.json" > "$tmp/same.$i" ||
    { echo "   the timed run pre.$i recorded other traffic:"; sed 's/^/   /' "$tmp/same.$i"; status=1; }
done
echo "   the $runs timed MPICH runs with the preload: the same traffic as the counted run"
echo

# 4. Times.  The driver's LU and solve times: the result row's 9th and
# 10th fields.
for kind in plain pre; do
  cat "$tmp/$kind".*.s > "$tmp/$kind.wall"
  for f in "$tmp/$kind".*.out; do
    awk '$1 == "WALL" && NF == 12 { print $9 + $10 }' "$f"
  done > "$tmp/$kind.lu"
done
echo "4. times under MPICH, 4 ranks on $cores cores, median (range) of $runs runs each way, seconds"
printf '   %-34s %18s %18s %9s\n' "" without with ratio
for row in "whole mpiexec:wall" "driver's LU + solve time:lu"; do
  a=$(median < "$tmp/plain.${row#*:}") b=$(median < "$tmp/pre.${row#*:}")
  printf '   %-34s %7.3f (%-8s) %7.3f (%-8s) %9.3f\n' "${row%:*}" "$a" "$(range < "$tmp/plain.${row#*:}")" \
    "$b" "$(range < "$tmp/pre.${row#*:}")" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
done
# What one wrapped call adds under MPICH: bench/pingpong --calls on one
# rank, MPI_Send to MPI_PROC_NULL without and with the preload (3 runs
# each way, alternating; medians), times the busiest rank's calls.
for ((i = 1; i <= 3; i++)); do
  for kind in $( ((i % 2)) && echo plain pre || echo pre plain); do
    env=()
    [ "$kind" = pre ] && env=(-genv LD_PRELOAD "$mlib" -genv COMMPROF_OUT "$tmp/pp.json")
    "$mexec" -n 1 "${env[@]}" "$mbuild/bench/pingpong" --calls |
      awk '$1 == "send_null" { print $3 }' >> "$tmp/pp.$kind" ||
      { echo "$me: bench/pingpong --calls failed" >&2; exit 1; }
  done
done
added=$(awk -v a="$(median < "$tmp/pp.plain")" -v b="$(median < "$tmp/pp.pre")" 'BEGIN { printf "%.1f", b - a }')
busiest=$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
print(max(sum(t["calls"] for t in r["types"].values()) for r in p["ranks"]))' "$tmp/mpich.json")
echo "   one wrapped call adds $added ns (MPI_Send to MPI_PROC_NULL, $(median < "$tmp/pp.plain") ns without," \
  "bench/pingpong --calls, medians of 3); the busiest rank makes $busiest MPI calls:" \
  "$(awk -v n="$busiest" -v c="$added" 'BEGIN { printf "%.3f", n * c / 1e6 }') ms expected"
echo "load average $(load) at the end"
awk -v c="$cores" '{ if ($1 >= c) printf "warning: load average %s on %d cores: other work competes with the runs, the times are not to be trusted\n", $1, c }' /proc/loadavg
exit "$status"
