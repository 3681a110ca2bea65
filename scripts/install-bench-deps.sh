#!/usr/bin/env bash
# Install what the benchmarks need beyond install-deps.sh: LAMMPS and its
# examples (lammps, lammps-examples) for bench/commprof.sh and
# bench/cluster.sh, HPCC and GROMACS (hpcc, gromacs) for bench/cluster.sh,
# and perf (linux-perf) for looking into libcommprof's cost, each only if
# missing.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,6s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "install-bench-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

# Kept out of install-deps.sh so that CI, which never runs the benchmarks,
# does not pull LAMMPS, HPCC and GROMACS in.
want=()
melt=/usr/share/lammps/examples/melt/in.melt
command -v lmp > /dev/null && [ -f "$melt" ] || want+=(lammps lammps-examples)
command -v hpcc > /dev/null || want+=(hpcc)
# Debian's gromacs package has gmx_mpi (Open MPI) beside gmx.
command -v gmx_mpi > /dev/null || want+=(gromacs)
command -v perf > /dev/null || want+=(linux-perf)
if [ ${#want[@]} -eq 0 ]; then
  echo "install-bench-deps: LAMMPS ($(command -v lmp)), $melt, hpcc, gmx_mpi and perf already installed"
  exit 0
fi
echo "install-bench-deps: installing ${want[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
echo "install-bench-deps: installed ${want[*]}"
