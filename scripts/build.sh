#!/usr/bin/env bash
# Configure and build topomap in a build folder (autoreconf when needed).
#   scripts/build.sh [CONFIGURE-FLAGS...]
# Environment: TOPOMAP_BUILD_DIR (default: build), JOBS (default 2).
# Re-runs configure when the flags or configure itself changed.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,5s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TOPOMAP_BUILD_DIR:-$root/build}
jobs=${JOBS:-2}

# autoreconf when configure is missing or older than what it is made from.
need_autoreconf=0
[ -x "$root/configure" ] || need_autoreconf=1
if [ $need_autoreconf -eq 0 ]; then
  for f in "$root/configure.ac" "$root/Makefile.am" "$root"/*/local.mk; do
    if [ "$f" -nt "$root/configure" ]; then need_autoreconf=1; fi
  done
fi
if [ $need_autoreconf -eq 1 ]; then
  echo "build: autoreconf"
  (cd "$root" && autoreconf -fi)
fi

mkdir -p "$build"
cd "$build"
flags="$*"
if [ ! -f Makefile ] || [ ! -f .configure-flags ] || [ "$(cat .configure-flags)" != "$flags" ] \
   || [ "$root/configure" -nt config.status ]; then
  echo "build: configure $flags"
  # shellcheck disable=SC2086
  "$root/configure" $flags
  echo "$flags" > .configure-flags
fi
make -j"$jobs"
