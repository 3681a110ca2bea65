#!/usr/bin/env bash
# libcommprof's Fortran wrappers under mpirun (4 ranks) on
# tests/mpi/pattern_f.F90, built with `use mpi` and with `use mpi_f08`:
# each profile equals the known pattern exactly (every call counted once),
# the point-to-point and one-sided traffic agrees with Open MPI's pml and
# osc monitoring, and the program sees the same results (its own checks of
# data, statuses, indices and error codes, and its output) with and
# without the profiler.  Skipped (77) when configure found no working
# mpifort.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
if [ -z "${PATTERN_F:-}" ]; then
  echo "SKIP: no working mpifort at configure time (install gfortran)"
  exit 77
fi
check="python3 $TOPOMAP_SRCDIR/tests/commprof_check.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
run() { mpirun -np 4 -x LD_PRELOAD="$COMMPROF_LIB" "$@"; }

for prog in "$PATTERN_F" "$PATTERN_F08"; do
  name=$(basename "$prog")
  expect_ok mpirun -np 4 "$prog"
  cp "$work/out" "$work/$name.plain.out"
  expect_ok run -x COMMPROF_OUT="$work/$name.json" "$prog"
  checks=$((checks + 1))
  cmp -s "$work/out" "$work/$name.plain.out" || fail "$name: output differs under the profiler"
  expect_ok $check fortran "$work/$name.json"

  mkdir -p "$work/mon-$name"
  expect_ok run -x COMMPROF_OUT="$work/$name.plain.json" --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$work/mon-$name/prof" \
    "$prog" --plain
  expect_ok $check monitoring "$work/$name.plain.json" "$work/mon-$name"
done
finish
