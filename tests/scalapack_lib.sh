#!/usr/bin/env bash
# scalapack_lib.sh: Debian's ScaLAPACK LU driver (xdlu, from
# scalapack-mpi-test: scripts/install-bench-deps.sh) as a real MPI
# application built for MPICH 4.0 and for Open MPI 4.1 from one source
# (sourced by tests/scalapack_lu.sh and bench/mpich_app.sh).
#
# The case, tests/data/scalapack_lu.dat (read as LU.dat from the current
# folder): a random 400 x 400 system with 4 right-hand sides, 32 x 32
# blocks on a 2 x 2 process grid (4 ranks), LU factorization and solve.
# Its threshold is 0 so that the driver prints its two scaled residuals
# (it prints them only for a check that fails; the residuals themselves
# are what the output has to keep): every run reports "FAILED" against
# that threshold, and scalapack_residuals_ok checks them against 16.
SCALAPACK_TESTS=${SCALAPACK_TESTS:-/usr/lib/x86_64-linux-gnu/scalapack}
# shellcheck disable=SC2034  # used by the scripts that source this
SCALAPACK_LU_DAT=$TOPOMAP_SRCDIR/tests/data/scalapack_lu.dat

# scalapack_driver IMPL VERSION: the xdlu that Debian built for that MPI
# (configure's MPI_IMPL and MPI_IMPL_VERSION); status 1 when there is none.
scalapack_driver() {
  local d
  case $1:$2 in
    mpich:4.0.*) d=mpich-tests ;;
    openmpi:4.1.*) d=openmpi-tests ;;
    *) return 1 ;;
  esac
  [ -x "$SCALAPACK_TESTS/$d/xdlu" ] || return 1
  echo "$SCALAPACK_TESTS/$d/xdlu"
}

# scalapack_result OUT: the driver's output OUT without what changes from
# run to run, the times of its result row (LU Time, Sol Time, MFLOPS).
scalapack_result() {
  awk '$1 == "WALL" && NF == 12 { $9 = $10 = $11 = "-" } { print }' "$1"
}

# scalapack_residuals_ok OUT: both residuals printed, each below 16.
scalapack_residuals_ok() {
  awk '/^\|\|Ax-b\|\|/ { s = $NF } /^\|\|A - P\*L\*U\|\|/ { f = $NF }
       END { exit !(s != "" && f != "" && s + 0 < 16 && f + 0 < 16) }' "$1"
}
