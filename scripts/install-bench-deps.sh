#!/usr/bin/env bash
# Install what the benchmarks need beyond install-deps.sh: LAMMPS and its
# examples (lammps, lammps-examples) for bench/commprof.sh and
# bench/cluster.sh, HPCC and GROMACS (hpcc, gromacs) for bench/cluster.sh,
# perf (linux-perf) for looking into libcommprof's cost, ScaLAPACK's test
# drivers built for MPICH and for Open MPI (scalapack-mpi-test) for
# bench/mpich_app.sh and tests/scalapack_lu.sh, and a Python virtual
# environment /opt/topomap-bench/venv with KaHIP and SharedMap (PyPI
# kahip, chszlablib) for bench/mapper's reference rows, each only if
# missing.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
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
# ScaLAPACK's drivers, one build per MPI from the same Debian source: the
# application bench/mpich_app.sh profiles under MPICH (GROMACS and LAMMPS
# are built for Open MPI only); its LU.dat comes with scalapack-test-common.
sltests=/usr/lib/x86_64-linux-gnu/scalapack
[ -x $sltests/mpich-tests/xdlu ] && [ -x $sltests/openmpi-tests/xdlu ] || want+=(scalapack-mpi-test)
python3 -m venv --help > /dev/null 2>&1 || want+=(python3-venv)
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ ${#want[@]} -eq 0 ]; then
  echo "install-bench-deps: LAMMPS ($(command -v lmp)), $melt, hpcc, gmx_mpi, perf and ScaLAPACK's drivers already installed"
else
  echo "install-bench-deps: installing ${want[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
  echo "install-bench-deps: installed ${want[*]}"
fi

# KaHIP and SharedMap from PyPI, in a virtual environment of their own
# (bench/local.mk's REFMAP_PYTHON).
venv=/opt/topomap-bench/venv
if "$venv/bin/python" -c 'import kahip, chszlablib' 2> /dev/null; then
  echo "install-bench-deps: KaHIP and SharedMap already in $venv"
else
  echo "install-bench-deps: installing kahip and chszlablib into $venv"
  $SUDO python3 -m venv "$venv"
  $SUDO "$venv/bin/pip" install -q kahip chszlablib
fi
