#!/usr/bin/env bash
# Install dependencies, build topomap, and run it on a bundled example:
# generate a Qbox-like task graph (point-to-point along rows, Alltoall in
# columns), combine its type layers, convert it for METIS and Scotch (whose
# own checkers then read it), and print its summary.  Output goes to
# ./quickstart-out.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TOPOMAP_BUILD_DIR:-$root/build}
out=${TOPOMAP_QUICKSTART_OUT:-$root/quickstart-out}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

tg="$build/taskgraph/taskgraph"
mkdir -p "$out"
step() { echo; echo "\$ $*"; "$@"; }

step "$tg" gen qbox --rows 8 --cols 16 --p2p-bytes 4096 --alltoall-bytes 1024 -o "$out/qbox.tg.json"
step "$tg" info "$out/qbox.tg.json"
step "$tg" combine "$out/qbox.tg.json" --weights p2p=0.7,alltoall=0.3 -o "$out/qbox-wsum.tg.json"
step "$tg" convert "$out/qbox-wsum.tg.json" "$out/qbox-wsum.graph"
step "$tg" convert "$out/qbox-wsum.tg.json" "$out/qbox-wsum.grf"
step graphchk "$out/qbox-wsum.graph"
step gtst "$out/qbox-wsum.grf"
step "$tg" info "$out/qbox-wsum.graph"
echo
echo "quickstart: done; files in $out"
