#!/usr/bin/env bash
# topomap-place: the node description, a placement on a synthetic node
# checked line by line, every method, -m exhaustive's limits (8 ranks,
# 2^24 assignments), the errors (compute times past 1e9 s among them); on
# the DGX-2 of ../shared/hwloc-xml (when present) GPU ranks by their GPUs'
# bus ids, with no UUID; on the KNL, a placement that first fit misses,
# found, and one that cannot fit, proved so.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
syn="pack:2 numa:1 core:2 pu:1"

expect_ok "$TOPOMAP_PLACE" --describe -t "$syn"
expect_output "packages: 2"
expect_output "cores: 4"
expect_output "numa 1: dram, 1.000 GiB, package 1, cpus 2-3, bandwidth 0 MiB/s (none), latency 0 ns (none)"

# Ranks 0 and 1 on host a exchange 8000 MiB each way: 16000 MiB through
# shared memory at 8000 MiB/s, 2 s each; rank 2 is alone on host b.
cat > "$work/in.json" <<JSON
{"format": "topomap-hetero-input", "version": 1, "ranks": [
 {"rank": 0, "host": "a", "local_rank": 0, "compute": {"cpu": 2},
  "sends": [[1, 8388608000]]},
 {"rank": 1, "host": "a", "local_rank": 1, "compute": {"cpu": 1},
  "sends": [[0, 8388608000]]},
 {"rank": 2, "host": "b", "local_rank": 0, "compute": {"cpu": 3}}]}
JSON
expect_ok "$TOPOMAP_PLACE" "$work/in.json" -t "$syn" -o "$work/pl.json"
expect_output "gpu-first 4 10"
expect_output "all-cpu 4 10"
expect_output "ccd 4 10 chosen"
expect_output "1 a 1 cpu - dram 1 2 1 2"
cp "$work/pl.json" "$work/out"
expect_output '  "predicted": {"makespan_s": 4, "sum_s": 10},'
expect_output '    {"host": "a", "local_rank": 0, "rank": 0, "proc": "cpu", "cores": "0", "memory": {"policy": "bind", "nodes": "0", "kind": "dram"}},'
expect_output '    {"host": "a", "local_rank": 1, "rank": 1, "proc": "cpu", "cores": "2", "memory": {"policy": "bind", "nodes": "1", "kind": "dram"}},'
expect_output '    {"host": "b", "local_rank": 0, "rank": 2, "proc": "cpu", "cores": "0", "memory": {"policy": "bind", "nodes": "0", "kind": "dram"}}'
for m in gpu-first all-cpu exhaustive; do
  expect_ok "$TOPOMAP_PLACE" "$work/in.json" -t "$syn" -m $m
  expect_output "$m 4 10 chosen"
done

# -m exhaustive enumerates at most 8 ranks: 8 alone on host a (1 s each,
# every core of the node) place, 9 are an error of the input (exit 1,
# naming it), found before any method runs.
for n in 8 9; do
  python3 - "$work/in$n.json" $n <<'PY'
import json, sys
n = int(sys.argv[2])
ranks = [{"rank": r, "host": "a", "local_rank": r, "compute": {"cpu": 1}} for r in range(n)]
json.dump({"format": "topomap-hetero-input", "version": 1, "ranks": ranks}, open(sys.argv[1], "w"))
PY
done
expect_ok "$TOPOMAP_PLACE" "$work/in8.json" -t "pack:2 numa:1 core:4 pu:1" -m exhaustive
expect_output "exhaustive 1 8 chosen"
expect_fail 1 "topomap-place: $work/in9.json: 9 ranks, more than the 8 that -m exhaustive enumerates (use -m ccd, the default)" \
  "$TOPOMAP_PLACE" "$work/in9.json" -t "pack:2 numa:1 core:8 pu:1" -m exhaustive -o "$work/none.json"
checks=$((checks + 1))
[ -s "$work/out" ] && fail "-m exhaustive on 9 ranks printed: $(cat "$work/out")"
expect_no_file "$work/none.json"

# ... and at most 2^24 assignments, the product over ranks of the choices
# each has: the 8 ranks on 8 NUMA nodes of one core each (8^8 = 2^24, of
# which 8! fit) place; a ring of 4 on 65 NUMA nodes (65^4 = 17850625) is
# refused, before any method runs (before, it was enumerated: 2.5 s; 5
# ranks on 64 nodes took minutes), and ccd places it.
expect_ok "$TOPOMAP_PLACE" "$work/in8.json" -t "pack:1 numa:8 core:1 pu:1" -m exhaustive
expect_output "exhaustive 1 8 chosen"
python3 - "$work/ring4.json" <<'PY'
import json, sys
ranks = [{"rank": r, "host": "h0", "local_rank": r, "compute": {"cpu": 1},
          "sends": [[(r + 1) % 4, 1048576]]} for r in range(4)]
json.dump({"format": "topomap-hetero-input", "version": 1, "ranks": ranks}, open(sys.argv[1], "w"))
PY
expect_fail 1 "topomap-place: $work/ring4.json: 17850625 assignments of 4 ranks to this node's choices, more than the 16777216 that -m exhaustive enumerates (use -m ccd, the default)" \
  "$TOPOMAP_PLACE" "$work/ring4.json" -t "pack:1 numa:65 core:1 pu:1" -m exhaustive -o "$work/none.json"
checks=$((checks + 1))
[ -s "$work/out" ] && fail "-m exhaustive on 65^4 assignments printed: $(cat "$work/out")"
expect_no_file "$work/none.json"
expect_ok "$TOPOMAP_PLACE" "$work/ring4.json" -t "pack:1 numa:65 core:1 pu:1"
expect_output "ccd 1.00025 4.001 chosen"
expect_output "3 h0 3 cpu - dram 3 3 1 0.00025"

# Compute times past 1e9 s are refused where they are read: two ranks of
# 1e308 s summed to inf, and the placement said "sum_s": inf, no JSON.
sed 's/"compute": {"cpu": [12]}/"compute": {"cpu": 1e308}/' "$work/in.json" > "$work/huge.json"
expect_fail 1 "huge.json:2: ranks[0]: \"compute\" must hold seconds in 0..1e+09 for \"cpu\", \"gpu\" or both" \
  "$TOPOMAP_PLACE" "$work/huge.json" -t "$syn" -o "$work/none.json"
expect_no_file "$work/none.json"

# Errors: usage (2), data (1); nothing is written.
expect_fail 2 "an INPUT file is needed" "$TOPOMAP_PLACE" -t "$syn"
expect_fail 2 "unknown method 'best'" "$TOPOMAP_PLACE" "$work/in.json" -m best
expect_fail 2 "--ranks-per-gpu wants an integer" "$TOPOMAP_PLACE" "$work/in.json" --ranks-per-gpu 0
expect_fail 1 "topomap-place: topology 'pack:64 core:64 pu:64' describes 262144 PUs, more than the 4096" \
  "$TOPOMAP_PLACE" --describe --topology "pack:64 core:64 pu:64"
sed 's/"local_rank": 1,/"local_rank": 0,/' "$work/in.json" > "$work/dup.json"
expect_fail 1 "dup.json:4: ranks[1]: host a local rank 0 is also rank 0" \
  "$TOPOMAP_PLACE" "$work/dup.json" -t "$syn" -o "$work/none.json"
expect_no_file "$work/none.json"
expect_fail 1 "rank 0 fits nowhere: a: ranks would need 4 cores of a set of 2" \
  "$TOPOMAP_PLACE" "$work/in.json" -t "$syn" --cores-per-rank 4 -o "$work/none.json"
expect_no_file "$work/none.json"
expect_fail 1 "cannot create" "$TOPOMAP_PLACE" "$work/in.json" -t "$syn" -o "$work/no/such/dir.json"
echo '{"format": "topomap-memcal", "version": 1, "numa": [{"os_index": 5, "bandwidth_mib_s": 1}]}' > "$work/cal.json"
expect_fail 1 "calibrated NUMA node 5 is not on this node" \
  "$TOPOMAP_PLACE" --describe -t "$syn" -c "$work/cal.json"
expect_ok "$TOPOMAP_PLACE" --help
expect_output "usage: topomap-place INPUT... [-o PLACEMENT] [options]"

# Four ranks ten times faster on a GPU, on the DGX-2: each on a GPU, with
# the cores of its package (two per package in this file).
dgx=$TOPOMAP_SHARED/hwloc-xml/nvidiaDGX2.xml
if [ -f "$dgx" ]; then
  {
    echo '{"format": "topomap-hetero-input", "version": 1, "ranks": ['
    for r in 0 1 2 3; do
      echo " {\"rank\": $r, \"host\": \"dgx\", \"local_rank\": $r, \"compute\": {\"cpu\": 10, \"gpu\": 1}}$([ $r -lt 3 ] && echo ,)"
    done
    echo ']}'
  } > "$work/dgx.json"
  expect_ok "$TOPOMAP_PLACE" "$work/dgx.json" -t "$dgx" -o "$work/dgx-pl.json"
  expect_output "ccd 1 4 chosen"
  cp "$work/dgx-pl.json" "$work/out"
  checks=$((checks + 1))
  [ "$(grep -c '"proc": "gpu", "gpu": {"busid": "0000:[0-9a-f:.]*"}, "cores"' "$work/out")" -eq 4 ] ||
    fail "four GPU ranks with their bus id (and no UUID: the file's UUIDs are one machine's) expected"
  checks=$((checks + 1))
  [ "$(grep -c '"cores": "0"\|"cores": "1"' "$work/out")" -eq 2 ] &&
    [ "$(grep -c '"cores": "24"\|"cores": "25"' "$work/out")" -eq 2 ] ||
    fail "two ranks per package expected"

  # This file gives no GPU memory size, so a GPU is no limit: a 60 GiB rank
  # was put in the device memory of a 32 GB V100.  Now it is refused until
  # the size is given; given, the 60 GiB rank's data stays out of device
  # memory (it may still run on a GPU, from pinned or managed memory, which
  # count on the host's NUMA node), and the 1 GiB rank's goes in.
  {
    echo '{"format": "topomap-hetero-input", "version": 1, "ranks": ['
    echo ' {"rank": 0, "host": "dgx", "local_rank": 0, "compute": {"cpu": 10, "gpu": 1}, "memory_bytes": 64424509440},'
    echo ' {"rank": 1, "host": "dgx", "local_rank": 1, "compute": {"cpu": 10, "gpu": 1}, "memory_bytes": 1073741824}]}'
  } > "$work/big.json"
  expect_fail 1 "GPU 0000:34:00.0: its memory size is unknown (hwloc does not give it and no calibration has it), so rank 0's 64424509440 bytes could not be checked against it: give the size with --gpu-memory SIZE or a memprobe calibration" \
    "$TOPOMAP_PLACE" "$work/big.json" -t "$dgx" -o "$work/big-pl.json"
  checks=$((checks + 1))
  [ ! -e "$work/big-pl.json" ] || fail "a placement was written after the refusal"
  expect_ok "$TOPOMAP_PLACE" "$work/big.json" -t "$dgx" --gpu-memory 32GB
  checks=$((checks + 1))
  [ "$(awk '$1 == 0 {print $4, $6}' "$work/out")" = "gpu managed" ] ||
    fail "the 60 GiB rank's data was put in a 32 GB GPU"
  checks=$((checks + 1))
  [ "$(awk '$1 == 1 {print $4, $6}' "$work/out")" = "gpu device" ] ||
    fail "the 1 GiB rank belongs in device memory"
  expect_ok "$TOPOMAP_PLACE" --describe -t "$dgx" --gpu-memory 32GiB
  expect_grep "gpu 0: 0000:34:00.0 nvml0, \"Tesla V100-SXM3-32GB-H\", uuid GPU-d3977428-7a30-086b-2e20-5c1eeed647c6, 32.000 GiB (option), package 0" "$work/out"
  # Ranks with no data need no size: the four above were placed without it.
  expect_fail 2 "--gpu-memory '12': expected a size of at least 1 MiB" \
    "$TOPOMAP_PLACE" "$work/big.json" -t "$dgx" --gpu-memory 12
  expect_fail 2 "--gpu-memory '32XB'" \
    "$TOPOMAP_PLACE" "$work/big.json" -t "$dgx" --gpu-memory 32XB
fi

# The KNL: four ranks of 0.6 GiB and four of 1.5 GiB.  First fit in rank
# order puts the small ones in MCDRAM (2 GiB a node) and then finds no room
# for the large ones, too large for DRAM (1 GiB a node), so both defaults
# fail; yet a placement fits, and ccd finds the optimum exhaustive finds:
# the large ranks in MCDRAM (1 s), the small ones in DRAM (4 s).
knl=$TOPOMAP_SHARED/hwloc-xml/64intel64-fakeKNL-SNC4-hybrid.xml
if [ -f "$knl" ]; then
  {
    echo '{"format": "topomap-hetero-input", "version": 1, "ranks": ['
    for r in 0 1 2 3 4 5 6 7; do
      echo " {\"rank\": $r, \"host\": \"n0\", \"local_rank\": $r, \"compute\": {\"cpu\": 1.0}, \"memory_bytes\": $([ $r -lt 4 ] && echo 644245094 || echo 1610612736)}$([ $r -lt 7 ] && echo ,)"
    done
    echo ']}'
  } > "$work/knl.json"
  expect_ok "$TOPOMAP_PLACE" "$work/knl.json" -t "$knl" -o "$work/knl-pl.json"
  expect_output "gpu-first - - (rank 4: no room left by the ranks placed before it (first fit): n0: NUMA node 7 (hbm) would hold 2254857830 bytes of 2147483648)"
  expect_output "all-cpu - - (rank 4: no room left by the ranks placed before it (first fit): n0: NUMA node 7 (hbm) would hold 2254857830 bytes of 2147483648)"
  expect_output "ccd 4 20 chosen"
  checks=$((checks + 1))
  [ "$(awk '$2 == "n0" {print $1, $4, $6, $9}' "$work/out" | tr '\n' ' ')" = \
    "0 cpu dram 4 1 cpu dram 4 2 cpu dram 4 3 cpu dram 4 4 cpu hbm 1 5 cpu hbm 1 6 cpu hbm 1 7 cpu hbm 1 " ] ||
    fail "ranks 0-3 in DRAM, 4-7 in MCDRAM expected: $(cat "$work/out")"
  expect_grep '"predicted": {"makespan_s": 4, "sum_s": 20},' "$work/knl-pl.json"
  expect_ok "$TOPOMAP_PLACE" "$work/knl.json" -t "$knl" -m exhaustive
  expect_output "exhaustive 4 20 chosen"
  # Five large ranks: each fits alone, and 7.5 GiB is less than the 12
  # GiB of the node, but only the four MCDRAM nodes hold one; the search
  # proves that nothing fits.
  { sed -n '1,5p' "$work/knl.json"
    echo ' {"rank": 4, "host": "n0", "local_rank": 4, "compute": {"cpu": 1.0}, "memory_bytes": 1610612736}]}'
  } | sed 's/644245094/1610612736/' > "$work/knl5.json"
  expect_fail 1 "topomap-place: no placement fits on n0: a complete search of its 5 ranks (largest data first, best fit, backtracking) found none; the furthest it got placed 4 of them, then rank 4 found no room: n0: NUMA node 0 (dram) would hold 1610612736 bytes of 1073741824" \
    "$TOPOMAP_PLACE" "$work/knl5.json" -t "$knl" -o "$work/none.json"
  expect_no_file "$work/none.json"
fi
finish
