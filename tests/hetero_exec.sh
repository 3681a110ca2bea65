#!/usr/bin/env bash
# topomap-exec: under mpirun -np 2 it applies a placement that
# topomap-place made for this host from hwloc (each launched process checks
# its own cores, memory binding and variables with hwloc), also one with the
# cores exchanged; it finds its entry through SLURM_LOCALID too; and it
# refuses, with a clear message and no exec, placements that do not apply
# (a bus id of this machine that is no GPU among them); of 4000 entries
# naming the largest indexes it builds its own lists only, within 200 MB.
# GPU ranks with --dry-run on the DGX-2 of ../shared/hwloc-xml
# (HWLOC_XMLFILE): the GPU at the entry's bus id, by this machine's UUID
# for it (a second DGX-2 gets its own), or by index where hwloc knows no
# NVML device.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# The launcher variables of this shell must not leak into the checks.
unset OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_RANK SLURM_LOCALID \
  SLURM_PROCID PMI_LOCAL_RANK PMI_RANK FLUX_TASK_LOCAL_ID FLUX_TASK_RANK

host=$(hostname)
cores=$("$TOPOMAP_PLACE" --describe | sed -n 's/^cores: //p')
if [ "${cores:-0}" -lt 2 ]; then
  echo "this machine has fewer than 2 cores: skipped"; exit 77
fi

cat > "$work/in.json" <<EOF
{"format": "topomap-hetero-input", "version": 1, "ranks": [
 {"rank": 0, "host": "$host", "local_rank": 0, "compute": {"cpu": 1}},
 {"rank": 1, "host": "$host", "local_rank": 1, "compute": {"cpu": 2},
  "sends": [[0, 1048576]]}]}
EOF
expect_ok "$TOPOMAP_PLACE" "$work/in.json" -o "$work/pl.json"
pl=$work/pl.json

# A member of rank R's line of a placement file (one rank per line).
member() { grep "\"rank\": $1," "$2" | sed -n "s/.*\"$3\": \"\([^\"]*\)\".*/\1/p"; }
c0=$(member 0 "$pl" cores); c1=$(member 1 "$pl" cores)
n0=$(member 0 "$pl" nodes); n1=$(member 1 "$pl" nodes)
k0=$(member 0 "$pl" kind); k1=$(member 1 "$pl" kind)
checks=$((checks + 1))
[ -n "$c0" ] && [ -n "$c1" ] && [ "$c0" != "$c1" ] ||
  fail "topomap-place gave the two ranks cores '$c0' and '$c1'"

# Without Open MPI's own binding, so what the ranks see is topomap-exec's.
launch() { mpirun -np 2 --bind-to none "$TOPOMAP_EXEC" "$1" -- "$HT_BINDCHECK"; }
expect_ok launch "$pl"
expect_output "rank=0 cpus=$c0 nodes=$n0 policy=bind proc=cpu mem=$k0 cvd= order=PCI_BUS_ID"
expect_output "rank=1 cpus=$c1 nodes=$n1 policy=bind proc=cpu mem=$k1 cvd= order=PCI_BUS_ID"

# The same with the cores exchanged.
sed -e "/\"rank\": 0,/s/\"cores\": \"$c0\"/\"cores\": \"$c1\"/" \
    -e "/\"rank\": 1,/s/\"cores\": \"$c1\"/\"cores\": \"$c0\"/" "$pl" > "$work/swap.json"
expect_ok launch "$work/swap.json"
expect_output "rank=0 cpus=$c1 nodes=$n0 policy=bind proc=cpu mem=$k0 cvd= order=PCI_BUS_ID"
expect_output "rank=1 cpus=$c0 nodes=$n1 policy=bind proc=cpu mem=$k1 cvd= order=PCI_BUS_ID"

# Slurm's variable, and a dry run.
expect_ok env SLURM_LOCALID=1 SLURM_PROCID=1 "$TOPOMAP_EXEC" --dry-run "$pl"
expect_output "rank 1: cpu, cores $c1, memory $k1 on NUMA nodes $n1 (bind), CUDA_VISIBLE_DEVICES="

# Hydra's variables: PMI_RANK only, the entry of that global rank.
expect_ok env PMI_RANK=1 "$TOPOMAP_EXEC" --dry-run "$pl"
expect_output "rank 1: cpu, cores $c1, memory $k1 on NUMA nodes $n1 (bind), CUDA_VISIBLE_DEVICES="
if command -v mpiexec.mpich > /dev/null; then
  expect_ok mpiexec.mpich -n 2 -bind-to none "$TOPOMAP_EXEC" "$pl" -- "$HT_BINDCHECK"
  checks=$((checks + 1))
  grep -q "^rank=0 cpus=$c0 " "$work/out" && grep -q "^rank=1 cpus=$c1 " "$work/out" ||
    fail "under Hydra, rank 0 on $c0 and rank 1 on $c1:$(sed 's/^/ | /' "$work/out")"
fi

# Refusals: each exits 1 before running anything.
sed "s/\"host\": \"$host\"/\"host\": \"nosuchhost\"/" "$pl" > "$work/host.json"
as0() { env OMPI_COMM_WORLD_LOCAL_RANK=0 "$TOPOMAP_EXEC" "$@"; }
expect_fail 1 "cannot tell the local rank" "$TOPOMAP_EXEC" "$pl" -- true
expect_fail 1 "OMPI_COMM_WORLD_LOCAL_RANK='x' is not a rank" \
  env OMPI_COMM_WORLD_LOCAL_RANK=x "$TOPOMAP_EXEC" "$pl" -- true
expect_fail 1 "no entry for host $host local rank 2" \
  env PMI_LOCAL_RANK=2 "$TOPOMAP_EXEC" "$pl" -- true
expect_fail 1 "no entry for rank 2 (PMI_RANK)" env PMI_RANK=2 "$TOPOMAP_EXEC" "$pl" -- true
expect_fail 1 "PMI_RANK='-1' is not a rank" env PMI_RANK=-1 "$TOPOMAP_EXEC" "$pl" -- true
expect_fail 1 "rank 0 (PMI_RANK) is placed on host nosuchhost, but runs on $host" \
  env PMI_RANK=0 "$TOPOMAP_EXEC" "$work/host.json" -- true
expect_fail 1 "this is rank 1 (OMPI_COMM_WORLD_RANK), but the entry for host $host local rank 0 is rank 0" \
  env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_LOCAL_RANK=0 "$TOPOMAP_EXEC" "$pl" -- true
expect_fail 1 "host $host is not in the placement (it was made for nosuchhost, ...)" \
  as0 "$work/host.json" -- true
sed "/\"rank\": 0,/s/\"cores\": \"$c0\"/\"cores\": \"4000-4001\"/" "$pl" > "$work/cores.json"
expect_fail 1 "cores 4000-4001 are not on this machine" as0 "$work/cores.json" -- true
sed "/\"rank\": 0,/s/\"nodes\": \"$n0\"/\"nodes\": \"63\"/" "$pl" > "$work/numa.json"
expect_fail 1 "NUMA nodes 63 are not on this machine" as0 "$work/numa.json" -- true
sed "/\"rank\": 0,/s/\"proc\": \"cpu\"/\"proc\": \"gpu\", \"gpu\": {\"busid\": \"0000:ee:1f.7\"}/" \
  "$pl" > "$work/gpu.json"
expect_fail 1 "$work/gpu.json: rank 0: GPU 0000:ee:1f.7 is not on this machine" as0 "$work/gpu.json" -- true
# Broken files name file and line; the second rank's line is line 7.
sed '3s/,$//' "$pl" > "$work/syntax.json"
expect_fail 1 "$work/syntax.json:4:" as0 "$work/syntax.json" -- true
sed "/\"rank\": 1,/s/\"cores\": \"$c1\"/\"cores\": \"1-x\"/" "$pl" > "$work/list.json"
expect_fail 1 "$work/list.json:7: ranks[1]: \"cores\" must be a non-empty list" \
  as0 "$work/list.json" -- true
sed "/\"rank\": 1,/s/\"kind\": \"$k1\"/\"kind\": \"device\"/" "$pl" > "$work/kind.json"
expect_fail 1 "ranks[1]: memory kind device is for GPU ranks" as0 "$work/kind.json" -- true
expect_fail 127 "cannot run ./no-such-program" as0 "$pl" -- ./no-such-program
expect_fail 2 "no PROGRAM given" as0 "$pl" --
expect_ok "$TOPOMAP_EXEC" --help
expect_output "usage: topomap-exec [-v] [--dry-run] PLACEMENT -- PROGRAM [ARGS...]"

# A bus id where this machine has a PCI device but no GPU (its network
# card, or the PCI device its virtio network device sits on): refused,
# not given a GPU that happens to be there.
nic=$(for d in /sys/class/net/*/device; do
        [ -e "$d" ] && readlink -f "$d" | tr / '\n' |
          grep '^[0-9a-f]\{4\}:[0-9a-f]\{2\}:[0-9a-f]\{2\}\.[0-9a-f]$' | tail -n 1
      done | head -n 1)
if [ -n "$nic" ] && [ -e "/sys/bus/pci/devices/$nic" ] &&
  [ "$(cat "/sys/bus/pci/devices/$nic/vendor")" != 0x10de ]; then
  sed "/\"rank\": 0,/s/\"proc\": \"cpu\"/\"proc\": \"gpu\", \"gpu\": {\"busid\": \"$nic\"}/" \
    "$pl" > "$work/nic.json"
  expect_fail 1 "$work/nic.json: rank 0: the PCI device at $nic is not a GPU (vendor" \
    as0 "$work/nic.json" -- sh -c 'echo "ran with CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"'
  checks=$((checks + 1))
  [ ! -s "$work/out" ] || fail "the program ran: $(cat "$work/out")"
fi

# GPU ranks, with --dry-run on the DGX-2 of ../shared/hwloc-xml standing
# for this machine (HWLOC_XMLFILE).  The bus id names the GPU: the
# placement carries no UUID (topomap-place's node stands for every host,
# and identical nodes differ in their GPUs' UUIDs only), and
# CUDA_VISIBLE_DEVICES is the UUID of this machine's GPU at that bus id.
dgx=$TOPOMAP_SHARED/hwloc-xml/nvidiaDGX2.xml
if [ -f "$dgx" ]; then
  cat > "$work/gin.json" <<EOF
{"format": "topomap-hetero-input", "version": 1, "ranks": [
 {"rank": 0, "host": "$host", "local_rank": 0, "compute": {"cpu": 2.0, "gpu": 0.25}, "memory_bytes": 1073741824},
 {"rank": 1, "host": "$host", "local_rank": 1, "compute": {"cpu": 1.0}, "memory_bytes": 1048576}]}
EOF
  expect_ok "$TOPOMAP_PLACE" "$work/gin.json" -t "$dgx" --gpu-memory 32G -o "$work/gpl.json"
  expect_grep "{\"host\": \"$host\", \"local_rank\": 0, \"rank\": 0, \"proc\": \"gpu\", \"gpu\": {\"busid\": \"0000:34:00.0\"}, \"cores\": \"0\"" "$work/gpl.json"
  # A second DGX-2: the same bus ids, its own UUIDs.
  sed -e 's/GPU-d3977428-/GPU-11111111-/' -e 's/GPU-5bfda7ef-/GPU-22222222-/' \
    "$dgx" > "$work/other.xml"
  # HWLOC_XMLFILE is ignored where HWLOC_COMPONENTS is set, as the
  # sanitized build's tests set it (tests/sanitize/env.sh).
  gx() { env -u HWLOC_COMPONENTS OMPI_COMM_WORLD_LOCAL_RANK=0 HWLOC_XMLFILE="$1" "$TOPOMAP_EXEC" --dry-run "$2"; }
  want="rank 0: gpu, cores 0, memory device on NUMA nodes 0 (bind), CUDA_VISIBLE_DEVICES"
  expect_ok gx "$dgx" "$work/gpl.json"
  expect_output "$want=GPU-d3977428-7a30-086b-2e20-5c1eeed647c6"
  expect_ok gx "$work/other.xml" "$work/gpl.json"
  expect_output "$want=GPU-11111111-7a30-086b-2e20-5c1eeed647c6"
  # A placement of an older topomap-place, with the first machine's UUID:
  # on the second, a UUID it does not have is ignored.
  sed 's|"busid": "0000:34:00.0"}|"busid": "0000:34:00.0", "uuid": "GPU-d3977428-7a30-086b-2e20-5c1eeed647c6"}|' \
    "$work/gpl.json" > "$work/old.json"
  expect_ok gx "$work/other.xml" "$work/old.json"
  expect_output "$want=GPU-11111111-7a30-086b-2e20-5c1eeed647c6"
  expect_ok gx "$dgx" "$work/old.json"
  expect_output "$want=GPU-d3977428-7a30-086b-2e20-5c1eeed647c6"
  # This machine's UUID at another bus id contradicts the bus id.
  sed 's|"busid": "0000:34:00.0"}|"busid": "0000:34:00.0", "uuid": "GPU-5bfda7ef-6aec-a775-5ae1-a1c3dcaef094"}|' \
    "$work/gpl.json" > "$work/mix.json"
  expect_fail 1 "$work/mix.json: rank 0: its UUID GPU-5bfda7ef-6aec-a775-5ae1-a1c3dcaef094 is this machine's GPU at 0000:36:00.0, not the one at 0000:34:00.0" \
    gx "$dgx" "$work/mix.json"
  # A bus id that is not a GPU: the NVSwitch at 0000:61:00.0.
  sed 's/0000:34:00.0/0000:61:00.0/' "$work/gpl.json" > "$work/nvsw.json"
  expect_fail 1 "$work/nvsw.json: rank 0: the PCI device at 0000:61:00.0 is not a GPU (vendor 10de, device 1ac2, class 0680, NVSwitch; hwloc sees no CUDA or NVML device there)" \
    gx "$dgx" "$work/nvsw.json"
  checks=$((checks + 1))
  [ ! -s "$work/out" ] || fail "a dry run printed something for the NVSwitch: $(cat "$work/out")"
  # hwloc without NVML (no nvml OS devices): the NVIDIA display
  # controllers are the GPUs, each its index in bus order; the NVSwitch
  # still is none.
  sed 's/name="nvml\([0-9]*\)"/name="card\1"/' "$dgx" > "$work/nonvml.xml"
  expect_ok gx "$work/nonvml.xml" "$work/gpl.json"
  expect_output "$want=0"
  sed 's/0000:34:00.0/0000:e7:00.0/' "$work/gpl.json" > "$work/e7.json"
  expect_ok gx "$work/nonvml.xml" "$work/e7.json"
  expect_output "$want=15"
  expect_fail 1 "$work/nvsw.json: rank 0: the PCI device at 0000:61:00.0 is not a GPU" \
    gx "$work/nonvml.xml" "$work/nvsw.json"
else
  skipped="no $dgx: the GPU part did not run"
fi

# A repeated rank or host and local rank names the first earlier entry
# that it repeats, the rank first when one entry repeats both.
mkpl() { # mkpl FILE ENTRY...: a placement of these "host local rank" entries
  local f=$1; shift
  { printf '{"format": "topomap-placement", "version": 1, "ranks": [\n'
    local sep=""
    for e in "$@"; do
      set -- $e
      printf '%s{"host": "%s", "local_rank": %s, "rank": %s, "proc": "cpu", "cores": "0", "memory": {"policy": "none", "nodes": "", "kind": "dram"}}\n' "$sep" "$1" "$2" "$3"
      sep=","
    done
    printf ']}\n'; } > "$f"
}
mkpl "$work/rep1.json" "a 0 5" "b 1 1" "b 1 5"
expect_fail 1 "rep1.json:4: ranks[2]: rank 5 is also ranks[0]" \
  "$TOPOMAP_EXEC" --dry-run "$work/rep1.json"
mkpl "$work/rep2.json" "a 0 5" "b 1 1" "a 0 1"
expect_fail 1 "rep2.json:4: ranks[2]: host a local rank 0 is also ranks[0]" \
  "$TOPOMAP_EXEC" --dry-run "$work/rep2.json"
mkpl "$work/rep3.json" "a 0 5" "b 1 1" "a 0 5"
expect_fail 1 "rep3.json:4: ranks[2]: rank 5 is also ranks[0]" \
  "$TOPOMAP_EXEC" --dry-run "$work/rep3.json"

# Thousands of entries: each is checked, but only this process's own
# lists become bitmaps, which grow to their highest index.  2000 entries
# of other hosts and 2000 of this host's other local ranks name PU and
# NUMA node 1048575, the largest (128 KB a bitmap): before, every rank
# took 1 GB for them (20,000 entries: 4 GB, 7 s), and in a 200 MB
# address space hwloc's allocation failed and the message said that
# ranks[706]'s "cores" was no list.  The host's own entry is ranks[2000].
# Under ASan (tests/sanitize/env.sh), which reserves terabytes of address
# space, its limit on resident memory stands in (as in cli_limits.sh).
limited() {
  if [ -n "${ASAN_OPTIONS:-}" ]; then
    ASAN_OPTIONS="$ASAN_OPTIONS:hard_rss_limit_mb=300" "$@"
  else
    (ulimit -v 200000; "$@")
  fi
}
bigpl() { # bigpl FILE CORES NODES: the own entry's lists
  python3 - "$1" "$host" "$2" "$3" "$k0" <<'PY'
import sys
path, host, cores, nodes, kind = sys.argv[1:6]
e = ('{"host": "%s", "local_rank": %d, "rank": %d, "proc": "cpu", "cores": "%s", '
     '"memory": {"policy": "bind", "nodes": "%s", "kind": "%s"}}')
big = "1048575"
ranks = [e % ("other%d" % i, 0, i, big, big, "dram") for i in range(2000)]
ranks.append(e % (host, 0, 2000, cores, nodes, kind))
ranks += [e % (host, i, 2000 + i, big, big, "dram") for i in range(1, 2001)]
with open(path, "w") as f:
    f.write('{"format": "topomap-placement", "version": 1, "ranks": [\n'
            + ",\n".join(ranks) + "]}\n")
PY
}
bigpl "$work/big.json" "$c0" "$n0"
expect_ok limited env OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_RANK=2000 \
  "$TOPOMAP_EXEC" --dry-run "$work/big.json"
expect_output "rank 2000: cpu, cores $c0, memory $k0 on NUMA nodes $n0 (bind), CUDA_VISIBLE_DEVICES="
expect_ok limited env PMI_RANK=2000 "$TOPOMAP_EXEC" --dry-run "$work/big.json"
expect_output "rank 2000: cpu, cores $c0, memory $k0 on NUMA nodes $n0 (bind), CUDA_VISIBLE_DEVICES="
# The own entry's lists are built, and checked against this machine.
bigpl "$work/bigown.json" 1048575 "$n0"
expect_fail 1 "topomap-exec: cores 1048575 are not on this machine (it has " \
  limited env OMPI_COMM_WORLD_LOCAL_RANK=0 "$TOPOMAP_EXEC" --dry-run "$work/bigown.json"
# The other entries' lists are checked as strictly: past 1048575 is no
# list, wherever it is (line 2 is ranks[0], another host's).
sed '2s/"nodes": "1048575"/"nodes": "1048576"/' "$work/big.json" > "$work/bigbad.json"
expect_fail 1 "bigbad.json:2: ranks[0]: memory nodes \"1048576\" is not a list like \"0,2-3\"" \
  limited env OMPI_COMM_WORLD_LOCAL_RANK=0 "$TOPOMAP_EXEC" --dry-run "$work/bigbad.json"
[ -z "${skipped:-}" ] || finish_skipped "$skipped"
finish
