#!/usr/bin/env bash
# topomap-place on a real profile: examples/halo3d on 4 ranks run under
# libcommprof (commprof-run) with TOPOMAP_PROC_KIND=cpu.  The input it makes
# is checked against the profile itself (tests/hetero_input_check.py): per
# rank the CPU seconds (compute_ns / 1e9), no GPU variant, footprint
# maxrss_kb x 1024, host and local rank, and per peer the point-to-point
# rows (the rank's own z neighbour, itself, left out) plus its 8 bytes of
# the final MPI_Reduce to rank 0, each record one message.  Then on the
# DGX-2 (../shared/hwloc-xml) with --gpu-speedup 4: GPU-first puts every
# rank on its own GPU, two per package (two cores each in this file), with a
# quarter of its CPU time; the all-CPU placement keeps the measured times;
# and the search predicts no worse than either.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
check="python3 $TOPOMAP_SRCDIR/tests/hetero_input_check.py"
prof=$work/halo.json

expect_ok "$COMMPROF_RUN" -o "$prof" -- mpirun -np 4 -x TOPOMAP_PROC_KIND=cpu \
  "$EXAMPLES/halo3d" --bytes 1024 --iters 5
expect_ok "$TOPOMAP_PLACE" --write-input "$work/in.json" "$prof"
expect_ok $check input "$prof" "$work/in.json"

dgx=$TOPOMAP_SHARED/hwloc-xml/nvidiaDGX2.xml
if [ ! -f "$dgx" ]; then
  finish_skipped "no $dgx: the DGX-2 part did not run"
fi
for m in gpu-first all-cpu ccd; do
  expect_ok "$TOPOMAP_PLACE" "$prof" --gpu-speedup 4 -t "$dgx" --gpu-memory 32GiB -m $m -o "$work/$m.json"
  cp "$work/out" "$work/$m.out"
done
expect_ok $check placed "$prof" "$work/gpu-first.out" gpu 4
expect_ok $check placed "$prof" "$work/all-cpu.out" cpu 4
expect_ok $check best "$work/ccd.out"
checks=$((checks + 1))
[ "$(grep -c '"proc": "gpu"' "$work/gpu-first.json")" -eq 4 ] &&
  [ "$(grep -c '"cores": "0"\|"cores": "1"' "$work/gpu-first.json")" -eq 2 ] &&
  [ "$(grep -c '"cores": "24"\|"cores": "25"' "$work/gpu-first.json")" -eq 2 ] ||
  fail "four GPU ranks, two on each package, expected"
finish
