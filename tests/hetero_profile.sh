#!/usr/bin/env bash
# topomap-place from libcommprof profiles: a CPU and a GPU profile of one
# job (tests/data/hetero_cpu.json, hetero_gpu.json, written by hand) make
# an input known exactly: compute seconds per variant, the footprint
# (peak resident memory, or the rank's share of its GPU's memory in use),
# sends per peer (point-to-point, rma and an Allreduce of 800 bytes on 4
# ranks, recursive doubling: partners r^1 and r^2; a send to oneself left
# out; where the profiles differ the larger count), hosts from the first
# profile given.  Placing from the profiles equals placing from the input
# they make.  One profile with --gpu-speedup on the DGX-2.  Every error
# with its message, and nothing written.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
cpu=$TOPOMAP_DATA/hetero_cpu.json
gpu=$TOPOMAP_DATA/hetero_gpu.json
syn="pack:2 numa:1(memory=16GiB) core:2 pu:1"

expect_ok "$TOPOMAP_PLACE" --write-input "$work/in.json" "$cpu" "$gpu"
expect_output "wrote $work/in.json: 4 ranks"
cat > "$work/want.json" <<'JSON'
{"format": "topomap-hetero-input", "version": 1, "ranks": [
 {"rank": 0, "host": "n0", "local_rank": 0, "compute": {"cpu": 2.0, "gpu": 0.25}, "memory_bytes": 3221225472, "memory_bound": 1.0, "sends": [[1, 1200800, 13], [2, 5800, 6]]},
 {"rank": 1, "host": "n0", "local_rank": 1, "compute": {"cpu": 1.5, "gpu": 0.3}, "memory_bytes": 3221225472, "memory_bound": 1.0, "sends": [[0, 1000800, 11], [3, 800, 1]]},
 {"rank": 2, "host": "n1", "local_rank": 0, "compute": {"cpu": 3.0, "gpu": 0.5}, "memory_bytes": 2147483648, "memory_bound": 1.0, "sends": [[0, 800, 1], [3, 200800, 3]]},
 {"rank": 3, "host": "n1", "local_rank": 1, "compute": {"cpu": 0.5, "gpu": 0.1}, "memory_bytes": 314572800, "memory_bound": 1.0, "sends": [[0, 4096, 4], [1, 800, 1], [2, 200800, 3]]}]}
JSON
checks=$((checks + 1))
diff "$work/want.json" "$work/in.json" || fail "the input from the two profiles"

# The other way round: the hosts of the GPU run, the rest the same.
expect_ok "$TOPOMAP_PLACE" --write-input "$work/in2.json" "$gpu" "$cpu"
sed 's/"host": "n/"host": "g/' "$work/want.json" > "$work/want2.json"
checks=$((checks + 1))
diff "$work/want2.json" "$work/in2.json" || fail "the input with the GPU profile first"

# The CPU run alone: no GPU variant, its own memory and sends.
expect_ok "$TOPOMAP_PLACE" --write-input "$work/in1.json" "$cpu"
expect_grep ' {"rank": 0, "host": "n0", "local_rank": 0, "compute": {"cpu": 2.0}, "memory_bytes": 1073741824, "memory_bound": 1.0, "sends": [[1, 1000800, 11], [2, 5800, 6]]},' "$work/in1.json"
expect_grep ' {"rank": 3, "host": "n1", "local_rank": 1, "compute": {"cpu": 0.5}, "memory_bytes": 268435456, "memory_bound": 1.0, "sends": [[0, 4096, 4], [1, 800, 1], [2, 200800, 3]]}]}' "$work/in1.json"
# The same file given as the CPU variant (its ranks say cpu too).
expect_ok "$TOPOMAP_PLACE" --write-input "$work/in1c.json" "cpu:$cpu"
checks=$((checks + 1))
cmp -s "$work/in1.json" "$work/in1c.json" || fail "cpu:FILE differs from FILE"

# Placing from the profiles is placing from the input they make.
expect_ok "$TOPOMAP_PLACE" "$cpu" "$gpu" -t "$syn" -o "$work/pl-prof.json"
cp "$work/out" "$work/out-prof"
expect_ok "$TOPOMAP_PLACE" "$work/in.json" -t "$syn" -o "$work/pl-in.json"
checks=$((checks + 1))
cmp -s "$work/out-prof" "$work/out" && cmp -s "$work/pl-prof.json" "$work/pl-in.json" ||
  fail "profiles and their input place differently"
# Rank 0 on CPU: 2 s, and its transfers: with rank 1 on n0, 2201600 bytes
# in 24 messages through shared memory (8000 MiB/s, 500 ns), with ranks 2
# and 3 on n1, 6600 bytes in 7 messages and 4096 bytes in 4 over the
# network (10000 MiB/s, 2000 ns): 0.000297471 s.
expect_output "0 n0 0 cpu - dram 0 0 2 0.000297471"

# One variant on the DGX-2: --gpu-speedup 10 makes the GPU one; GPU-first
# puts every rank on a GPU with a tenth of its CPU time.
dgx=$TOPOMAP_SHARED/hwloc-xml/nvidiaDGX2.xml
if [ -f "$dgx" ]; then
  expect_ok "$TOPOMAP_PLACE" "$cpu" --gpu-speedup 10 -m gpu-first -t "$dgx" --gpu-memory 32GiB
  checks=$((checks + 1))
  [ "$(awk '$4 == "gpu" && $6 == "device" {print $1, $9}' "$work/out" | tr '\n' ' ')" = \
    "0 0.2 1 0.15 2 0.3 3 0.05 " ] || fail "GPU ranks with CPU time / 10 expected"
  expect_ok "$TOPOMAP_PLACE" "$cpu" -m gpu-first -t "$dgx"
  checks=$((checks + 1))
  [ "$(awk '$4 == "cpu" {print $1, $9}' "$work/out" | tr '\n' ' ')" = "0 2 1 1.5 2 3 3 0.5 " ] ||
    fail "without --gpu-speedup every rank stays on CPU"
fi

# Errors: exit 1, the file and, for a rank, the line of its entry; nothing
# written.
bad() { # bad MESSAGE INPUT...
  local msg=$1; shift
  expect_fail 1 "$msg" "$TOPOMAP_PLACE" --write-input "$work/none.json" "$@"
  expect_no_file "$work/none.json"
}
bad "topomap-place: $cpu:8: rank 0: a second cpu variant (the first is in $cpu)" "$cpu" "$cpu"
bad "topomap-place: $cpu:8: rank 0 ran the cpu variant (proc_kind), but the file is given as gpu" "gpu:$cpu"
sed '19s/"proc_kind": "cpu"/"proc_kind": null/' "$cpu" > "$work/nokind.json"
bad "topomap-place: $work/nokind.json:18: rank 2 has no proc_kind (TOPOMAP_PROC_KIND was not set): give the variant of the whole file as cpu:$work/nokind.json or gpu:$work/nokind.json" \
  "$work/nokind.json" "$gpu"
expect_ok "$TOPOMAP_PLACE" --write-input "$work/kind.json" "cpu:$work/nokind.json" "$gpu"
checks=$((checks + 1))
cmp -s "$work/want.json" "$work/kind.json" || fail "cpu:FILE should give rank 2 its variant"
# An empty host name (the input and the placement made from it would be
# refused when read), in either profile.
sed '18s/"host": "n1"/"host": ""/' "$cpu" > "$work/nohost.json"
bad "topomap-place: $work/nohost.json:18: rank 2 has an empty \"host\": its host name is needed to place it" \
  "$work/nohost.json" "$gpu"
bad "topomap-place: $work/nohost.json:18: rank 2 has an empty \"host\": its host name is needed to place it" \
  "$gpu" "$work/nohost.json"
# Compute times past 1e9 s (here 9e9 s), as for an input file.
sed -e '8s/"wall_ns": [0-9]*/"wall_ns": 9000000000500000000/' \
  -e '9s/"compute_ns": [0-9]*/"compute_ns": 9000000000000000000/' "$cpu" > "$work/long.json"
bad "topomap-place: $work/long.json:8: rank 0: compute_ns 9000000000000000000 is more than 1e+09 s" \
  "$work/long.json" "$gpu"
sed 's/"world_size": 4/"world_size": 8/' "$gpu" > "$work/ws8.json"
bad "topomap-place: $work/ws8.json: world size 8, but $cpu has world size 4" "$cpu" "$work/ws8.json"
bad "topomap-place: $TOPOMAP_DATA/profile_4.json:8: rank 0 has no compute_ns and maxrss_kb (a profile from a libcommprof that did not record them)" \
  "cpu:$TOPOMAP_DATA/profile_4.json"
bad "topomap-place: $TOPOMAP_DATA/profile_4.json.rank1: a partial profile (one rank's file): merge the ranks' files with taskgraph merge first" \
  "cpu:$TOPOMAP_DATA/profile_4.json.rank1"
# Without rank 3 (its rows and records too): nobody ran it.
drop3() {
  python3 - "$1" "$2" <<'PY'
import json, sys
q = json.load(open(sys.argv[1]))
q["ranks"] = [r for r in q["ranks"] if r["rank"] != 3]
for c in q["communicators"]:
    c["collectives"] = [k for k in c["collectives"] if k["rank"] != 3]
json.dump(q, open(sys.argv[2], "w"), indent=1)
PY
}
drop3 "$cpu" "$work/cpu3.json"
drop3 "$gpu" "$work/gpu3.json"
bad "topomap-place: rank 3 is in none of the profiles" "$work/cpu3.json" "$work/gpu3.json"
bad "topomap-place: $work/cpu3.json: rank 3 is not in the profile" "$work/cpu3.json"
# Rank 3 from the GPU run only, where it sat where rank 2 sat in the CPU run.
sed 's/"rank": 3, "host": "g1", "local_rank": 1,/"rank": 3, "host": "n1", "local_rank": 0,/' "$gpu" > "$work/moved.json"
expect_ok "$TOPOMAP_PLACE" --write-input "$work/ok.json" "$work/cpu3.json" "$gpu"
bad "topomap-place: ranks 2 and 3 are both host n1 local rank 0 (the profiles come from different runs)" \
  "$work/cpu3.json" "$work/moved.json"
bad "topomap-place: $work/in.json: not a profile: \"format\" must be \"topomap-commprof\"" "$cpu" "$work/in.json"
bad "topomap-place: $work/nosuch.json: cannot open" "$cpu" "$work/nosuch.json"
bad "topomap-place: $work/nosuch.json: cannot open" "$work/nosuch.json"
bad "topomap-place: 'gpu:' names no file" "$cpu" "gpu:"
expect_fail 2 "--write-input writes the input only: drop --output" \
  "$TOPOMAP_PLACE" --write-input "$work/none.json" -o "$work/none.json" "$cpu"
expect_no_file "$work/none.json"
finish
