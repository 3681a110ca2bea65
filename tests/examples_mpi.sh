#!/usr/bin/env bash
# The example applications halo3d and spmv under libcommprof: the
# point-to-point pairs, bytes and messages of each profile and the checksum
# each prints are exactly what tests/examples_check.py works out from their
# definitions (halo3d on grids 2x2x2 and 3x2x1, where neighbours coincide
# or are the rank itself, and on the grid 1x2x3 given by --dx/--dy/--dz;
# spmv on 4 and 6 ranks, whose checksums must also agree); bad options fail
# with a message and exit 2.
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

# The grid from the command line, as halo2xn of bench/cluster.sh gives it.
expect_ok "$COMMPROF_RUN" -o "$work/hd.json" -- \
  mpirun -np 6 "$EXAMPLES/halo3d" --bytes 40 --iters 3 --dx 1 --dy 2 --dz 3
cp "$work/out" "$work/hd.out"
expect_ok $check halo3d "$work/hd.json" "$work/hd.out" 40 3 1x2x3

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
expect_fail 2 "halo3d: --dx 4 --dy 0 --dz 0 do not fit 6 ranks: the fixed dimensions must divide it" \
  mpirun -np 6 "$EXAMPLES/halo3d" --dx 4
expect_fail 2 "halo3d: --dx 1 --dy 2 --dz 2 do not fit 6 ranks" \
  mpirun -np 6 "$EXAMPLES/halo3d" --dx 1 --dy 2 --dz 2
expect_fail 2 "spmv: random-geometric: radius 0: must be > 0" \
  mpirun -np 1 "$EXAMPLES/spmv" --radius 0
expect_fail 2 "spmv: '--size': unknown option" mpirun -np 1 "$EXAMPLES/spmv" --size 3
finish
