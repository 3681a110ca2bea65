#!/usr/bin/env bash
# libcommprof's Fortran wrappers on 4 ranks, each program built
# with `use mpi` and with `use mpi_f08`.  Skipped (77) when configure found
# no working mpifort.
#  tests/mpi/pattern_f.F90: the profile equals the known pattern exactly
#    (every call counted once), its point-to-point and one-sided traffic
#    agrees with Open MPI's pml and osc monitoring (under Open MPI), and the program sees
#    the same (its own checks of data, statuses, indices and error codes,
#    and its output) with and without the profiler (but see plain_broken).
#  tests/mpi/calls_f.F90: every wrapper once or more; the program checks
#    what each call returns, the profile holds each call once with its
#    exact bytes.  Only the profiled run: without the profiler it crashes
#    in Debian's Open MPI 4.1.4, whose own Fortran MPI_Ialltoallw frees the
#    datatype arrays the call still reads at completion
#    (open-mpi/ompi#8763); libcommprof's wrapper keeps them until then.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
if [ -z "${PATTERN_F:-}" ]; then
  echo "SKIP: no working mpifort at configure time (install gfortran)"
  exit 77
fi

# MPICH 4.0's own `use mpi_f08` MPI_Waitany returns the C layer's 0-based
# index (2 requests, the second completes: 1, not 2), so pattern_f08's own
# checks fail without the profiler there; libcommprof's wrapper of
# mpi_waitany_f08_ returns the standard's 1-based index.  Under it only the
# profiled run of pattern_f08 is made.
plain_broken() {
  [ "$1" = pattern_f08 ] && [ "${MPI_IMPL:-}" = mpich ] && [[ ${MPI_IMPL_VERSION:-} == 4.0.* ]]
}

for prog in "$PATTERN_F" "$PATTERN_F08"; do
  name=$(basename "$prog")
  expect_ok run 4 -x COMMPROF_OUT="$work/$name.json" "$prog"
  cp "$work/out" "$work/$name.out"
  if plain_broken "$name"; then
    echo "$name: no run without the profiler (MPICH $MPI_IMPL_VERSION's mpi_f08 MPI_Waitany index)"
  else
    expect_ok launch 4 "$prog"
    checks=$((checks + 1))
    cmp -s "$work/out" "$work/$name.out" || fail "$name: output differs under the profiler"
  fi
  expect_ok $check fortran "$work/$name.json"

  mpi_is_openmpi || continue
  mkdir -p "$work/mon-$name"
  expect_ok run 4 -x COMMPROF_OUT="$work/$name.plain.json" --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$work/mon-$name/prof" \
    "$prog" --plain
  expect_ok $check monitoring "$work/$name.plain.json" "$work/mon-$name"
done

for prog in "$CALLS_F" "$CALLS_F08"; do
  name=$(basename "$prog")
  expect_ok run 4 -x COMMPROF_OUT="$work/$name.json" "$prog"
  cp "$work/out" "$work/$name.out"
  expect_ok $check fortran_calls "$work/$name.json" "$work/$name.out"
done
finish
