#!/usr/bin/env bash
# reorder_lib.sh: what the libtopomap-reorder tests share (sourced):
# lib.sh, mpi_lib.sh (the configured launcher, Open MPI's settings for
# running as root on a small machine), and
#   run NP HOSTS ARGS...   NP ranks with the library preloaded (after the
#                          ASan runtime in a sanitized build)
#                          and TOPOMAP_REORDER_HOSTS=HOSTS (8 ranks on this
#                          machine act as 2 or 4 hosts); more -x NAME=VALUE
#                          may lead ARGS; RUN_PRELOAD, when set, replaces
#                          the preload (to load another library beside);
#                          $work/report.json is removed first (the library
#                          adds its lines to what a report holds).
#   report_line N          line N of $work/report.json without its time
#                          ("seconds"), keys in file order.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
. "$TOPOMAP_SRCDIR/tests/mpi_lib.sh"
run() {
  local np=$1 hosts=$2; shift 2
  rm -f "$work/report.json"
  launch "$np" -x LD_PRELOAD="${SANITIZE_PRELOAD:-}${RUN_PRELOAD:-$REORDER_LIB}" \
    -x TOPOMAP_REORDER_HOSTS="$hosts" "$@"
}
report_line() {
  python3 -c '
import json, sys
line = open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1]
r = json.loads(line)
assert r.pop("seconds") >= 0
print(json.dumps(r, separators=(",", ":")))' "$work/report.json" "$1"
}
