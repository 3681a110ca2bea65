#!/usr/bin/env bash
# parmapper --hetero inside a job on this host: examples/halo3d profiled
# on 2 ranks with TOPOMAP_PROC_KIND=cpu, its graph mapped by parmapper under
# mpirun -np 2 with the profile as --hetero input and the node described
# by hwloc; the placement (CPU only: the profile has no GPU variant) is
# keyed by this host and the mapping's local ranks, and the job launched
# with the rankfile through topomap-exec runs each rank on the cores, NUMA
# node, processor and memory kind of its entry, as the launched processes
# see it with hwloc (tests/test_hetero_bindcheck), also when the placement
# gives a rank other cores than its rankfile slot.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
unset OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_RANK SLURM_LOCALID \
  SLURM_PROCID PMI_LOCAL_RANK PMI_RANK FLUX_TASK_LOCAL_ID FLUX_TASK_RANK
cores=$("$TOPOMAP_PLACE" --describe | sed -n 's/^cores: //p')
if [ "${cores:-0}" -lt 2 ]; then
  echo "this machine has fewer than 2 cores: skipped"; exit 77
fi

expect_ok "$COMMPROF_RUN" -o "$work/prof.json" -- mpirun -np 2 -x TOPOMAP_PROC_KIND=cpu \
  "$EXAMPLES/halo3d" --bytes 4096 --iters 10
expect_ok "$TASKGRAPH" build "$work/prof.json" -o "$work/g"
expect_ok pm 2 "$work/g/wsum.tg.json" --first --hetero "$work/prof.json" \
  --placement "$work/pl.json" --rankfile "$work/rf" --mapping "$work/map" --report "$work/r.json"
expect_grep "hetero: 0 of 2 ranks on GPUs; predicted makespan " "$work/out"
expect_ok $check report "$work/r.json"
expect_ok $check placement "$work/pl.json" "$work/map"
expect_grep "\"host\": \"$(hostname)\"" "$work/pl.json"

expect_ok mpirun -np 2 --rankfile "$work/rf" "$TOPOMAP_EXEC" "$work/pl.json" -- "$HT_BINDCHECK"
cp "$work/out" "$work/bind"
expect_ok $check exec "$work/pl.json" "$work/bind"
# The placement's cores, not the rankfile's slots, are what the ranks get:
# the same launch with the two ranks' cores exchanged in the placement.
python3 - "$work/pl.json" "$work/swap.json" <<'PY'
import json, sys
pl = json.load(open(sys.argv[1]))
a, b = pl["ranks"][0], pl["ranks"][1]
a["cores"], b["cores"] = b["cores"], a["cores"]
json.dump(pl, open(sys.argv[2], "w"))
PY
expect_ok mpirun -np 2 --rankfile "$work/rf" "$TOPOMAP_EXEC" "$work/swap.json" -- "$HT_BINDCHECK"
cp "$work/out" "$work/bind2"
expect_ok $check exec "$work/swap.json" "$work/bind2"
checks=$((checks + 1))
[ "$(sort "$work/bind")" != "$(sort "$work/bind2")" ] || fail "exchanging the cores changed nothing"
finish
