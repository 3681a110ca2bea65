#!/usr/bin/env bash
# parmapper offline (one process, no mpirun): graphs mapped onto 64 nodes
# of 16 slots on a 4x4x4 torus; the chosen point's average hop-bytes is
# never above the default (block) mapping's.  Also --help, and the Slurm
# hostfile following the mapping.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"

expect_ok "$PARMAPPER" --help
expect_output "search:"

# --help and parmapper(1) list the same options with the same syntax: the
# usage lines (up to the first blank line) and the SYNOPSIS name the same
# ones, and every option of the getopt table is in both.
page=$TOPOMAP_SRCDIR/doc/parmapper.1
# The options ("--time") of stdin, sorted, on one line; man's \- is -.
opts() { sed 's/\\-/-/g' | grep -oE -- '(^|[][ |(])--?[a-zA-Z][a-z0-9-]*' | sed 's/^[][ |(]//' | LC_ALL=C sort -u | tr '\n' ' '; }
want="--alpha --check-options --check-rankfile --first --hetero --hydra-hostfile --map-by --mapping --network \
--no-levels --nodes --placement --quiet --rankfile --report --rounds --seed --select --slots \
--slurm-hostfile --tasks-per-slot --time "
got=$(sed '/^$/q' "$work/out" | opts)
checks=$((checks + 1))
[ "$got" = "$want" ] || fail "parmapper --help usage: '$got', not '$want'"
got=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$page" | opts)
checks=$((checks + 1))
[ "$got" = "$want" ] || fail "parmapper(1) SYNOPSIS: '$got', not '$want'"
helps=" $(opts < "$work/out")"
pages=" $(opts < "$page")"
for opt in --help --nodes --slots --hostfile --network --positions --node-topology --from \
  --layer --seed --grid --tasks-per-slot --time --rounds --first --alpha --select \
  --rankfile --slurm-hostfile --hydra-hostfile --mapping --report --hetero --placement \
  --check-rankfile --check-options --quiet --no-levels --calibration --ranks-per-gpu --cores-per-rank \
  --gpu-speedup --cuda-aware --net-bandwidth --net-latency --shm-bandwidth --shm-latency \
  --rotations --restarts --gpu-memory; do
  checks=$((checks + 1))
  [[ $helps == *" $opt "* ]] || fail "$opt is not in parmapper --help"
  checks=$((checks + 1))
  [[ $pages == *" $opt "* ]] || fail "$opt is not in parmapper(1)"
done

machine=(--nodes 64 --slots 16 --network torus:4x4x4)
expect_ok "$TASKGRAPH" gen stencil --dims 16x8x8 --periodic -o "$work/stencil.tg.json"
expect_ok "$TASKGRAPH" gen qbox --rows 32 --cols 32 -o "$work/qbox.tg.json"
expect_ok "$TASKGRAPH" gen random-geometric --tasks 1000 --radius 0.05 -o "$work/rgg.tg.json"
for g in stencil qbox rgg; do
  expect_ok "$PARMAPPER" "$work/$g.tg.json" "${machine[@]}" --first \
    --report "$work/$g.json" --mapping "$work/$g.map" --slurm-hostfile "$work/$g.hosts" \
    --hydra-hostfile "$work/$g.hydra"
  expect_ok $check report "$work/$g.json"
  # Hydra's hostfile is Slurm's (a host per rank, in rank order), and so
  # is its -bind-to user: list.
  checks=$((checks + 1))
  cmp -s "$work/$g.hosts" "$work/$g.hydra" || fail "$g: Hydra's hostfile differs from Slurm's"
  checks=$((checks + 1))
  [ "$(sed -n 's/^slurm: .*map_cpu://p' "$work/out")" = "$(sed -n 's/^hydra: .*user://p' "$work/out")" ] ||
    fail "$g: Hydra's -bind-to user: list differs from srun's map_cpu list"
  expect_ok $check beats-block "$work/$g.json"
  expect_ok $check slurm "$work/$g.hosts" "$work/$g.map"
done
# The mapping reads back with greedymap and has the report's metrics.
expect_ok "$GREEDYMAP" eval "$work/rgg.tg.json" "${machine[@]}" --mapping "$work/rgg.map" --json
checks=$((checks + 1))
python3 - "$work/out" "$work/rgg.json" <<'PY' || fail "greedymap eval disagrees with the report"
import json, sys
e, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
m = r["chosen"]["metrics"]
sys.exit(0 if (e["hop_bytes_total"], e["hop_bytes_max"]) == (m["hop_bytes_total"], m["hop_bytes_max"]) else 1)
PY
# The first round holds block, rb, drb and decompose: a periodic 16x16
# stencil on a 4x4 torus of 16 slots is best as 4x4 boxes, one per node,
# every box one hop from its neighbours (average hop-bytes 1000, 1000
# bytes per edge), which decompose gives and GreedyMap does not.
expect_ok "$TASKGRAPH" gen stencil --dims 16x16 --periodic -o "$work/s16.tg.json"
expect_ok "$PARMAPPER" "$work/s16.tg.json" --nodes 16 --slots 16 --network torus:4x4 --first \
  --report "$work/s16.json" --mapping "$work/s16.map"
checks=$((checks + 1))
python3 - "$work/s16.json" <<'PY' || fail "the first round did not keep decompose's mapping"
import json, sys
c = json.load(open(sys.argv[1]))["chosen"]
sys.exit(0 if (c["config"], c["hop_bytes_avg"]) == ("baseline=decompose,seed=0", 1000.0) else 1)
PY
finish
