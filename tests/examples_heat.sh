#!/usr/bin/env bash
# examples/heat: its checksum is the one tests/examples_check.py computes
# with a serial Jacobi run of its own, on 1, 2 and 4 ranks, with the
# variables unset and set to cpu/dram, and under topomap-exec with a
# hand-written placement (four CPU memory kinds); a CPU rank never makes
# the CUDA runtime look for the driver; bad kinds and a GPU rank without
# a usable GPU, or without CUDA in the build, fail with a message and exit
# 1.  Where there is a GPU (and CUDA in the build) the GPU variant in each
# memory kind, beside CPU ranks, must give the same checksum.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
check="python3 $TOPOMAP_SRCDIR/tests/examples_check.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
unset LD_PRELOAD TOPOMAP_PROC_KIND TOPOMAP_MEM_KIND OMPI_COMM_WORLD_LOCAL_RANK \
  OMPI_COMM_WORLD_RANK SLURM_LOCALID SLURM_PROCID PMI_LOCAL_RANK PMI_RANK \
  FLUX_TASK_LOCAL_ID FLUX_TASK_RANK
heat=$EXAMPLES/heat
size=(--rows 30 --cols 17 --iters 25)
cuda=no
grep -q '^#define HAVE_CUDA 1' "$EXAMPLES/../config.h" && cuda=yes
gpu=no
[ -e /dev/nvidia0 ] && gpu=yes

# A run's output must check against the reference; its checksum is kept
# in $work/NAME.sum.
run_ok() {
  local name=$1 kinds=$2; shift 2
  expect_ok "$@" || return
  cp "$work/out" "$work/$name.out"
  # shellcheck disable=SC2086 # one kind per rank
  expect_ok $check heat "$work/$name.out" 30 17 25 $kinds ||
    sed 's/^/  /' "$work/out"
  grep -o 'checksum [0-9a-f]*' "$work/$name.out" > "$work/$name.sum"
}
same_sum() {
  checks=$((checks + 1))
  cmp -s "$work/$1.sum" "$work/$2.sum" ||
    fail "checksums of $1 and $2 differ: $(cat "$work/$1.sum") $(cat "$work/$2.sum")"
}

for np in 1 2 4; do
  run_ok np$np cpu:dram mpirun -np $np "$heat" "${size[@]}"
done
same_sum np1 np2
same_sum np1 np4
run_ok cpu cpu:dram env TOPOMAP_PROC_KIND=cpu TOPOMAP_MEM_KIND=dram \
  mpirun -np 4 "$heat" "${size[@]}"
same_sum np1 cpu

# Under topomap-exec, which exports each rank's kinds and binds it: ranks
# alternate between the first two cores this process may use, memory on
# the first NUMA node.
host=$(hostname)
read -r -a pus <<< "$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2])')"
numa=$("$TOPOMAP_PLACE" --describe | sed -n 's/^numa \([0-9]*\):.*/\1/p' | head -1)
entry() {
  printf ' {"host": "%s", "local_rank": %d, "rank": %d, "proc": "cpu", "cores": "%d", "memory": {"policy": "%s", "nodes": "%s", "kind": "%s"}}' \
    "$host" "$1" "$1" "${pus[$1 % 2]}" "$2" "$numa" "$3"
}
if [ ${#pus[@]} -ge 2 ] && [ -n "$numa" ]; then
  {
    echo '{"format": "topomap-placement", "version": 1, "ranks": ['
    entry 0 bind dram; echo ,; entry 1 bind hbm; echo ,
    entry 2 preferred cxl; echo ,; entry 3 none nvm; echo ']}'
  } > "$work/placement.json"
  run_ok exec "cpu:dram cpu:hbm cpu:cxl cpu:nvm" mpirun -np 4 --bind-to none \
    "$TOPOMAP_EXEC" "$work/placement.json" -- "$heat" "${size[@]}"
  same_sum np1 exec
else
  echo "fewer than 2 cores or no NUMA node: topomap-exec part skipped"
fi

# The CUDA runtime looks for the driver, libcuda.so.1, at its first call:
# a CPU rank must never get there.  halo3d, which has no CUDA at all, says
# whether MPI itself loads the driver (a CUDA-aware MPI may); then this
# check tells nothing.
ld_finds_driver() {
  rm -f "$work"/ld.*
  mpirun -np 1 env LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/ld" "$@" > /dev/null 2>&1
  grep -qs 'find library=libcuda\.so' "$work"/ld.*
}
if [ $cuda = yes ]; then
  if ld_finds_driver "$EXAMPLES/halo3d" --bytes 8 --iters 1; then
    echo "MPI itself loads libcuda.so.1: no-CUDA-call check skipped"
  else
    checks=$((checks + 1))
    ! ld_finds_driver "$heat" --rows 4 --iters 1 ||
      fail "a CPU rank of heat looked for the CUDA driver"
    checks=$((checks + 1))
    ld_finds_driver env TOPOMAP_PROC_KIND=gpu "$heat" --rows 4 --iters 1 ||
      fail "a GPU rank did not look for the CUDA driver: the check above proves nothing"
  fi
fi

# Kinds that make no sense.
expect_fail 1 "heat: rank 0: TOPOMAP_PROC_KIND='fpga': not cpu or gpu" \
  env TOPOMAP_PROC_KIND=fpga mpirun -np 2 "$heat" "${size[@]}"
expect_fail 1 "heat: rank 1: TOPOMAP_MEM_KIND='flash': not a memory kind (device, pinned, managed, dram, hbm, cxl, nvm)" \
  env TOPOMAP_MEM_KIND=flash mpirun -np 2 "$heat" "${size[@]}"
expect_fail 1 "TOPOMAP_MEM_KIND=device is for GPU ranks, and this one is a CPU rank" \
  env TOPOMAP_MEM_KIND=device mpirun -np 2 "$heat" "${size[@]}"
expect_fail 1 "TOPOMAP_MEM_KIND=hbm is for CPU ranks, and this one is a GPU rank" \
  env TOPOMAP_PROC_KIND=gpu TOPOMAP_MEM_KIND=hbm mpirun -np 2 "$heat" "${size[@]}"
# Only rank 1 is wrong; every rank still ends, with exit 1.
expect_fail 1 "heat: rank 1: TOPOMAP_MEM_KIND=managed is for GPU ranks" \
  mpirun -np 1 "$heat" "${size[@]}" : -np 1 env TOPOMAP_MEM_KIND=managed "$heat" "${size[@]}"
expect_fail 2 "heat: --rows 3: fewer rows than the 4 ranks" \
  mpirun -np 4 "$heat" --rows 3
expect_fail 2 "heat: '--size': unknown option" mpirun -np 1 "$heat" --size 3

if [ $cuda = no ]; then
  expect_fail 1 "heat: rank 0: TOPOMAP_PROC_KIND=gpu: built without CUDA" \
    env TOPOMAP_PROC_KIND=gpu mpirun -np 4 "$heat" "${size[@]}"
  finish
fi
expect_fail 1 "heat: rank 3: no usable GPU" \
  env TOPOMAP_PROC_KIND=gpu CUDA_VISIBLE_DEVICES= mpirun -np 4 "$heat" "${size[@]}"
if [ $gpu = no ]; then
  expect_fail 1 "heat: rank 0: no usable GPU: cudaGetDeviceCount failed: " \
    env TOPOMAP_PROC_KIND=gpu mpirun -np 4 "$heat" "${size[@]}"
  finish
fi

# A GPU: every memory kind, alone and beside CPU ranks.
for mem in device pinned managed; do
  run_ok $mem gpu:$mem env TOPOMAP_PROC_KIND=gpu TOPOMAP_MEM_KIND=$mem \
    mpirun -np 2 "$heat" "${size[@]}"
  same_sum np1 $mem
done
app=("$heat" "${size[@]}")
run_ok mixed "gpu:device cpu:dram gpu:pinned gpu:managed" mpirun \
  -np 1 env TOPOMAP_PROC_KIND=gpu TOPOMAP_MEM_KIND=device "${app[@]}" : \
  -np 1 "${app[@]}" : \
  -np 1 env TOPOMAP_PROC_KIND=gpu TOPOMAP_MEM_KIND=pinned "${app[@]}" : \
  -np 1 env TOPOMAP_PROC_KIND=gpu TOPOMAP_MEM_KIND=managed "${app[@]}"
same_sum np1 mixed
finish
