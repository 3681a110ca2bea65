#!/usr/bin/env bash
# Install the Debian packages that bench/commprof.sh needs beyond install-deps.sh:
# LAMMPS and its examples (the melt input), and matplotlib for topomap-plot
# (bench/lammps_build.sh). Installs only what is missing.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,4s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "install-bench-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

# Kept out of install-deps.sh so that CI, which never runs the benchmarks,
# does not pull LAMMPS in.
PACKAGES=(lammps lammps-examples python3-matplotlib)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-bench-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "install-bench-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-bench-deps: installed ${missing[*]}"
