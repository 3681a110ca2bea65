#!/usr/bin/env bash
# The example applications halo3d and spmv under libcommprof: the
# point-to-point pairs, bytes and messages of each profile and the checksum
# each prints are exactly what tests/examples_check.py works out from their
# definitions (halo3d on grids 2x2x2 and 3x2x1, where neighbours coincide
# or are the rank itself; spmv on 4 and 6 ranks, whose checksums must also
# agree); bad options fail with a message and exit 2.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
check="python3 $TOPOMAP_SRCDIR/tests/examples_check.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
unset LD_PRELOAD

for np in 8 6; do
  expect_ok "$COMMPROF_RUN" -o "$work/h$np.json" -- \
    mpirun -np "$np" "$EXAMPLES/halo3d" --bytes 40 --iters 3
  cp "$work/out" "$work/h$np.out"
  expect_ok $check halo3d "$work/h$np.json" "$work/h$np.out" 40 3
done

for np in 4 6; do
  expect_ok "$COMMPROF_RUN" -o "$work/s$np.json" -- \
    mpirun -np "$np" "$EXAMPLES/spmv" --points 400 --radius 0.1 --iters 5 --seed 3
  cp "$work/out" "$work/s$np.out"
  expect_ok $check spmv "$work/s$np.json" "$work/s$np.out" 400 0.1 5 3
done
checks=$((checks + 1))
[ "$(grep -o 'checksum.*' "$work/s4.out")" = "$(grep -o 'checksum.*' "$work/s6.out")" ] ||
  fail "spmv's checksum depends on the rank count"

expect_fail 2 "halo3d: --bytes '0': must be an integer from 1 to 1073741824" \
  mpirun -np 1 "$EXAMPLES/halo3d" --bytes 0
expect_fail 2 "spmv: random-geometric: radius 0: must be > 0" \
  mpirun -np 1 "$EXAMPLES/spmv" --radius 0
expect_fail 2 "spmv: '--size': unknown option" mpirun -np 1 "$EXAMPLES/spmv" --size 3
finish
