#!/usr/bin/env bash
# libcommprof's facts for placement on tests/mpi/memkinds.c (4 ranks), with
# a stand-in CUDA driver (tests/cudashim, libcuda.so.1) loaded before
# MPI_Init, after it, or not at all: bytes sent per memory kind, exactly;
# one driver query per allocation; no call that creates or switches a
# context; the GPU of the ranks with a context; TOPOMAP_PROC_KIND (an
# unknown kind is named in a warning and not recorded); peak memory and
# compute time (commprof_check.py, mode memkinds).  Without the driver,
# libcommprof loads nothing (the stand-in, which LD_LIBRARY_PATH finds,
# leaves no mark).  taskgraph reads the new members, merges them back to
# the same text, and names a damaged one.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
shim=$(cd "$MPI_TESTS/../cudashim" && pwd)/libcuda.so.1
for mode in early late none; do
  rm -f "$work/mark"
  expect_ok run 4 -x COMMPROF_OUT="$work/$mode.json" -x COMMPROF_SHIM_MARK="$work/mark" \
    -x LD_LIBRARY_PATH="$(dirname "$shim")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$MPI_TESTS/memkinds" $mode "$shim"
  cp "$work/out" "$work/$mode.out"
  expect_grep "TOPOMAP_PROC_KIND=fpga: not cpu or gpu, not recorded" "$work/err"
  expect_ok $check memkinds "$work/$mode.json" "$work/$mode.out" $mode
  checks=$((checks + 1))
  if [ $mode = none ]; then
    [ ! -e "$work/mark" ] || fail "none: the stand-in driver was loaded"
  else
    [ -e "$work/mark" ] || fail "$mode: the stand-in driver left no mark"
  fi
done

# taskgraph: the partial files of every rank (split as libcommprof would
# write them) merge into the very profile, new members included.
expect_ok $check split "$work/early.json" "$work/split.json"
expect_ok "$TASKGRAPH" merge "$work"/split.json.rank* -o "$work/merged.json"
checks=$((checks + 1))
cmp -s "$work/merged.json" "$work/early.json" || fail "the merge differs from the profile"

# A damaged member is named with its rank.
damage() { # damage NAME PYTHON: the early profile with q changed by PYTHON
  python3 - "$work/early.json" "$work/$1.json" "$2" <<'PY'
import json, sys
q = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(q, open(sys.argv[2], "w"), indent=1)
PY
}
damage compute 'q["ranks"][1]["compute_ns"] += 1'
expect_fail 1 "ranks[1].compute_ns: " "$TASKGRAPH" info "$work/compute.json"
expect_grep "is not wall_ns - mpi_ns" "$work/err"
damage kind 'q["ranks"][2]["proc_kind"] = "fpga"'
expect_fail 1 'ranks[2].proc_kind: must be "cpu", "gpu" or null' "$TASKGRAPH" info "$work/kind.json"
damage cuda 'del q["ranks"][0]["cuda"]["mem_used"]'
expect_fail 1 'ranks[0].cuda: missing "mem_used"' "$TASKGRAPH" info "$work/cuda.json"
damage kinds 'del q["ranks"][3]["sent_by_kind"]["device"]'
expect_fail 1 'ranks[3].sent_by_kind: missing "device"' "$TASKGRAPH" info "$work/kinds.json"
finish
