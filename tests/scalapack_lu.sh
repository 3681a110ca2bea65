#!/usr/bin/env bash
# A real application under the configured MPI: Debian's ScaLAPACK LU
# driver (tests/scalapack_lib.sh) on 4 ranks with libcommprof, under
# bench/mpicount.c's independent count of the same run.  The profile's
# calls per type and bytes and messages per pair equal the count (and,
# under Open MPI, the pml monitoring's point-to-point), and the driver's
# output (residuals, times left out) equals that of a run without the
# preload.  Skipped (77) where Debian ships no driver for this MPI
# (MPICH 4.0 and Open MPI 4.1 only) or scalapack-mpi-test is not
# installed, and in the sanitized build (the driver is Debian's).
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
. "$TOPOMAP_SRCDIR/tests/scalapack_lib.sh"

[ -z "${SANITIZE_PRELOAD:-}" ] ||
  finish_skipped "Debian's uninstrumented ScaLAPACK driver is not run in the sanitized build"
xdlu=$(scalapack_driver "$MPI_IMPL" "$MPI_IMPL_VERSION") ||
  finish_skipped "no Debian ScaLAPACK driver for $MPI_IMPL $MPI_IMPL_VERSION in $SCALAPACK_TESTS (scripts/install-bench-deps.sh installs scalapack-mpi-test)"
cp "$SCALAPACK_LU_DAT" "$work/LU.dat"
cd "$work" || exit 1

expect_ok launch 4 "$xdlu"
cp "$work/out" "$work/plain.out"
checks=$((checks + 1))
scalapack_residuals_ok "$work/plain.out" || { fail "residuals missing or not below 16:"; cat "$work/plain.out"; }

expect_ok launch 4 -x LD_PRELOAD="$MPICOUNT_LIB $COMMPROF_LIB" -x COMMPROF_OUT="$work/p.json" \
  -x MPICOUNT_OUT="$work/count" "$xdlu"
checks=$((checks + 1))
scalapack_result "$work/out" | diff <(scalapack_result "$work/plain.out") - ||
  fail "the driver's output changed with the preload"
expect_ok $check counted "$work/p.json" "$work/count"

if mpi_is_openmpi; then
  mkdir -p "$work/mon"
  expect_ok launch 4 -x LD_PRELOAD="$COMMPROF_LIB" -x COMMPROF_OUT="$work/m.json" \
    --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
    --mca pml_monitoring_filename "$work/mon/prof" "$xdlu"
  expect_ok $check monitoring "$work/m.json" "$work/mon"
  expect_ok $check same "$work/m.json" "$work/p.json"
fi
finish
