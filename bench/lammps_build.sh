#!/usr/bin/env bash
# lammps_build.sh: LAMMPS's peptide example (Debian's lammps-examples) run
# under libcommprof, its profile built into task graphs by taskgraph build,
# and its communication matrix drawn by topomap-plot.
#
# Usage: bench/lammps_build.sh [--lib SO] [--taskgraph PROG] [--np N]
#            [--out DIR]
#   --lib SO          libcommprof.so (default libcommprof/.libs/libcommprof.so
#                     under the current folder, a build folder)
#   --taskgraph PROG  the taskgraph command (default taskgraph/taskgraph here)
#   --np N            LAMMPS ranks (default 8)
#   --out DIR         where everything goes (default lammps-peptide): the
#                     profile commprof.json, LAMMPS's output lammps.out,
#                     the build in graphs/, and the pictures matrix.png
#                     (the profile, a panel per type) and graphs.png (the
#                     Sum's layers: the graphs of the critical types)
# Prints the build's summary table and where the files went.  LAMMPS
# comes from scripts/install-bench-deps.sh, python3-matplotlib from
# scripts/install-deps.sh.
set -u

me=lammps_build.sh
srcdir=$(cd "$(dirname "$0")/.." && pwd)
lib=libcommprof/.libs/libcommprof.so
tg=taskgraph/taskgraph
np=8
out=lammps-peptide
usage() {
  echo "$me: $1 (see --help)" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
    --lib | --taskgraph | --np | --out)
      [ $# -ge 2 ] || usage "$1 needs a value"
      case $1 in
        --lib) lib=$2 ;;
        --taskgraph) tg=$2 ;;
        --np) [[ $2 =~ ^[1-9][0-9]*$ ]] || usage "--np takes a positive count, not '$2'"; np=$2 ;;
        --out) out=$2 ;;
      esac
      shift 2 ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -f "$lib" ] || usage "$lib: no libcommprof here (run from the build folder, or give --lib)"
[ -x "$tg" ] || usage "$tg: no taskgraph command (run from the build folder, or give --taskgraph)"
abs() { echo "$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")"; }
lib=$(abs "$lib")
TASKGRAPH=$(abs "$tg")
export TASKGRAPH

lmp=""
for c in lmp lmp_openmpi lmp_mpi; do
  command -v "$c" > /dev/null && { lmp=$(command -v "$c"); break; }
done
example=${LAMMPS_PEPTIDE:-/usr/share/lammps/examples/peptide}
if [ -z "$lmp" ] || [ ! -f "$example/in.peptide" ]; then
  echo "$me: LAMMPS or its peptide example is missing: scripts/install-bench-deps.sh installs them" >&2
  exit 1
fi

mkdir -p "$out/run" || exit 1
out=$(cd "$out" && pwd -P)
# The input reads data.peptide from the folder it runs in.
cp "$example/in.peptide" "$example/data.peptide" "$out/run/" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
over=()
[ "$np" -gt "$(nproc)" ] && over=(--oversubscribe)
echo "LAMMPS peptide ($example, $lmp) on $np ranks with libcommprof" >&2
(cd "$out/run" && mpirun -np "$np" "${over[@]}" -x LD_PRELOAD="$lib" \
  -x COMMPROF_OUT="$out/commprof.json" "$lmp" -in in.peptide -log none) \
  > "$out/lammps.out" 2>&1 ||
  { echo "$me: LAMMPS failed, output:" >&2; tail -n 20 "$out/lammps.out" >&2; exit 1; }
rm -rf "$out/run"

echo "taskgraph build $out/commprof.json -o $out/graphs"
"$TASKGRAPH" build "$out/commprof.json" -o "$out/graphs" || exit 1
plot=$srcdir/scripts/topomap-plot
"$plot" matrix "$out/commprof.json" -o "$out/matrix.png" \
  --title "LAMMPS peptide, $np ranks: the profile" || exit 1
"$plot" matrix "$out/graphs/sum.tg.json" -o "$out/graphs.png" \
  --title "LAMMPS peptide, $np ranks: the critical types' graphs" || exit 1
