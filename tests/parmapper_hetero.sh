#!/usr/bin/env bash
# parmapper --hetero offline (one process) on DGX-2 nodes (../shared/
# hwloc-xml, two packages of two cores and eight GPUs in this file): a
# CPU and a GPU profile of 8 ranks (1 MiB between t and t^4, 1 KiB in a
# ring, so GreedyMap puts t and t+4 together), where every rank but 3 and
# 7 runs 10 times faster on a GPU and those two 5 times slower, are placed
# after GreedyMap chose 2 nodes of 4 slots: exactly the six fast ranks on
# GPUs, each with a core of its GPU's package, each entry at the host and
# local rank the mapping gives (tests/parmapper_check.py).  On one node,
# parmapper and topomap-place place the same.  Bad inputs: one message,
# exit 1 or 2, nothing written.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
dgx=$TOPOMAP_SHARED/hwloc-xml/nvidiaDGX2.xml

# profiles N DIR: DIR/cpu.json and DIR/gpu.json, N ranks on one host.
profiles() {
  mkdir -p "$2"
  python3 - "$1" "$2" <<'PY'
import json, sys
n, d = int(sys.argv[1]), sys.argv[2]
for kind in ("cpu", "gpu"):
    ranks = []
    for t in range(n):
        fast = t % 4 != 3
        sec = {"cpu": 10 if fast else 1, "gpu": 1 if fast else 5}[kind]
        ring = sorted({(t + 1) % n, (t - 1) % n} - {t, t ^ n // 2})
        sent = sorted([[t ^ n // 2, 1048576, 1]] + [[p, 1024, 1] for p in ring])
        ranks.append({"rank": t, "host": "h0", "local_rank": t, "cpus": str(t),
                      "wall_ns": sec * 10**9 + 10**8, "mpi_ns": 10**8,
                      "compute_ns": sec * 10**9, "maxrss_kb": 1048576, "proc_kind": kind,
                      "cuda": None,
                      "sent_by_kind": {"host": sum(s[1] for s in sent), "pinned": 0,
                                       "device": 0, "managed": 0},
                      "types": {"p2p": {"ns": 10**8, "calls": 2 * len(sent)}},
                      "sent": sent, "received": sent, "rma": []})
    json.dump({"format": "topomap-commprof", "version": 1, "mpi_library": "fixture",
               "world_size": n, "types": ["p2p"], "ranks": ranks, "communicators": []},
              open("%s/%s.json" % (d, kind), "w"), indent=1)
PY
}
profiles 8 "$work/p8"
profiles 4 "$work/p4"
expect_ok "$TASKGRAPH" build "$work/p8/cpu.json" -o "$work/g8"
expect_ok "$TASKGRAPH" build "$work/p4/cpu.json" -o "$work/g4"
het8=(--hetero "cpu:$work/p8/cpu.json" --hetero "$work/p8/gpu.json")

if [ -f "$dgx" ]; then
  expect_ok "$PARMAPPER" "$work/g8/wsum.tg.json" --nodes 2 --slots 4 --node-topology "$dgx" --gpu-memory 32GiB \
    --first "${het8[@]}" --placement "$work/pl.json" --mapping "$work/map" --report "$work/r.json"
  expect_grep "wrote placement $work/pl.json" "$work/out"
  expect_grep "hetero: 6 of 8 ranks on GPUs; predicted makespan 1.00" "$work/out"
  expect_ok $check report "$work/r.json"
  expect_ok $check placement "$work/pl.json" "$work/map" "$dgx" 0,1,2,4,5,6
  # Each GPU by its bus id only: a UUID would be the topology file's GPU's,
  # the same on node0 and node1, and no GPU of either.
  checks=$((checks + 1))
  [ "$(grep -c '"proc": "gpu", "gpu": {"busid": "0000:[0-9a-f]*:[0-9a-f]*\.[0-9a-f]"}, "cores"' "$work/pl.json")" -eq 6 ] &&
    ! grep -q '"uuid"' "$work/pl.json" ||
    fail "six GPU ranks, each with a bus id and no UUID, expected: $(cat "$work/pl.json")"
  checks=$((checks + 1))
  python3 - "$work/r.json" "$work/pl.json" "$dgx" <<'PY' || fail "the report's hetero section"
import json, sys
r, pl = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
h = r["hetero"]
assert h["ranks"] == 8 and h["gpu_ranks"] == 6, h
assert h["node_topology"] == sys.argv[3] and h["placement"].endswith("pl.json"), h
assert abs(h["chosen"]["makespan_s"] - pl["predicted"]["makespan_s"]) < 1e-8, (h, pl["predicted"])
assert h["all_cpu"]["makespan_s"] >= 10, h
PY
  # Both nodes are used, four ranks each, and not in blocks of rank order
  # (t and t+4 share a node), so local ranks are not rank mod 4.
  checks=$((checks + 1))
  [ "$(grep -c ' node0 ' "$work/map")" -eq 4 ] && [ "$(grep -c ' node1 ' "$work/map")" -eq 4 ] &&
    awk '$1 == 0 {a = $2} $1 == 4 {b = $2} END {exit a != b}' "$work/map" ||
    fail "four ranks on each node, 0 and 4 together, expected: $(cat "$work/map")"

  # One node: what topomap-place decides for the same profiles.
  expect_ok "$PARMAPPER" "$work/g4/wsum.tg.json" --nodes 1 --slots 4 --node-topology "$dgx" --gpu-memory 32GiB \
    --first --hetero "$work/p4/cpu.json" --hetero "$work/p4/gpu.json" \
    --placement "$work/pl1.json" --mapping "$work/map1"
  expect_ok $check placement "$work/pl1.json" "$work/map1" "$dgx" 0,1,2
  expect_ok "$TOPOMAP_PLACE" "$work/p4/cpu.json" "$work/p4/gpu.json" -t "$dgx" --gpu-memory 32GiB -o "$work/tp.json"
  expect_ok $check same-node "$work/pl1.json" "$work/tp.json"
else
  skipped="no $dgx: the DGX-2 part did not run"
fi

# Bad inputs, alone and under mpirun: nothing written.
mkdir "$work/o"
outs=(--placement "$work/o/pl.json" --mapping "$work/o/map" --report "$work/o/r.json")
machine=(--nodes 2 --slots 4 --node-topology "pack:2 numa:1(memory=16GiB) core:2 pu:1")
expect_fail 1 "parmapper: --hetero: the input has 8 ranks, but the graph has 4 tasks" \
  "$PARMAPPER" "$work/g4/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" "${outs[@]}"
expect_fail 1 "parmapper: --hetero: the input has 8 ranks, but the graph has 4 tasks" \
  pm 2 "$work/g4/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" "${outs[@]}"
checks=$((checks + 1))
[ "$(grep -c 'parmapper:' "$work/err")" -eq 1 ] || fail "expected one message: $(cat "$work/err")"
expect_fail 1 "parmapper: $work/p8/none.json: cannot open" \
  pm 2 "$work/g8/wsum.tg.json" "${machine[@]}" --first --hetero "$work/p8/none.json" "${outs[@]}"
expect_fail 1 "parmapper: $work/p8/cpu.json:10: rank 0: a second cpu variant (the first is in $work/p8/cpu.json)" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first --hetero "$work/p8/cpu.json" \
  --hetero "$work/p8/cpu.json" "${outs[@]}"
# Found after the search: three cores a rank on nodes of four.
expect_fail 1 "parmapper: rank 0 fits nowhere: node0: ranks would need 3 cores of a set of 2" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" \
  --cores-per-rank 3 "${outs[@]}"
expect_fail 2 "parmapper: --hetero needs --placement FILE" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" --report "$work/o/r.json"
expect_fail 2 "parmapper: --placement needs --hetero INPUT" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first --placement "$work/o/pl.json"
expect_fail 2 "parmapper: --gpu-speedup is for --hetero" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first --gpu-speedup 4 --report "$work/o/r.json"
expect_fail 2 "parmapper: --report and --placement name the same file" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" \
  --report "$work/o/pl.json" --placement "$work/o/pl.json"
expect_fail 2 "parmapper: --ranks-per-gpu wants an integer" \
  "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" "${outs[@]}" \
  --ranks-per-gpu 0
checks=$((checks + 1))
[ "$(count_files "$work/o")" -eq 0 ] || fail "files left behind: $(ls -A "$work/o")"
# And all of them when nothing is wrong (a CPU-only node: no GPU rank).
expect_ok "$PARMAPPER" "$work/g8/wsum.tg.json" "${machine[@]}" --first "${het8[@]}" "${outs[@]}"
expect_ok $check placement "$work/o/pl.json" "$work/o/map"
checks=$((checks + 1))
[ "$(count_files "$work/o")" -eq 3 ] && ! grep -q '"proc": "gpu"' "$work/o/pl.json" ||
  fail "expected 3 outputs and no GPU rank: $(ls -A "$work/o")"
expect_ok "$PARMAPPER" --help
expect_grep "  --hetero INPUT       what each rank needs, as topomap-place reads it:" "$work/out"
[ -z "${skipped:-}" ] || finish_skipped "$skipped"
finish
