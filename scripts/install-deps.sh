#!/usr/bin/env bash
# Install the Debian packages that topomap's build, tests and quickstart need.
# Installs only what is missing, is safe to run twice, and prints what it installs.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,3s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "install-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

# Build: compilers, autotools, MPI, the libraries configure checks for;
# gfortran, which mpifort runs (libopenmpi-dev pulls in only gfortran-12),
# for the test of libcommprof's Fortran wrappers.
# Tests: check (unit tests), metis (graphchk), scotch (gtst, gmap), hwloc tools.
# Quickstart: python3-matplotlib, for topomap-plot's Pareto picture.
# The emulated cluster (topomap-cluster): ip and tc from iproute2.
# The emulated cluster's Slurm tests (tests/cluster_slurm.sh, topomap-cluster
# up --slurm): slurm-wlm (slurmctld, slurmd, srun) and munge.
# make fuzz (tests/fuzz/): clang and its libFuzzer and sanitizer runtimes.
# gdb: the stacks tests/time-limit.sh prints of a test that hung.
PACKAGES=(
  build-essential autoconf automake libtool pkg-config
  openmpi-bin libopenmpi-dev gfortran
  libmetis-dev metis
  libhwloc-dev hwloc-nox
  libjansson-dev
  check libsubunit-dev
  scotch libscotch-dev
  python3 python3-matplotlib
  iproute2
  slurm-wlm munge
  clang libclang-rt-dev
  gdb
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: installed ${missing[*]}"
