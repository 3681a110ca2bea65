#!/usr/bin/env bash
# Install what bench/commprof.sh needs beyond install-deps.sh: LAMMPS and
# its examples (the Debian packages lammps and lammps-examples), if missing.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,3s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "install-bench-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

# Kept out of install-deps.sh so that CI, which never runs the benchmarks,
# does not pull LAMMPS in.
melt=/usr/share/lammps/examples/melt/in.melt
if command -v lmp > /dev/null && [ -f "$melt" ]; then
  echo "install-bench-deps: LAMMPS ($(command -v lmp)) and $melt already installed"
  exit 0
fi
echo "install-bench-deps: installing lammps lammps-examples"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends lammps lammps-examples >/dev/null
echo "install-bench-deps: installed lammps lammps-examples"
