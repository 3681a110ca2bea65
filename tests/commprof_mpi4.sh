#!/usr/bin/env bash
# libcommprof on tests/mpi/mpi4.c: the MPI-4 calls that move user data,
# those this MPI has (configure's CP_HAVE_* blocks: MPI_Isendrecv and
# _replace, partitioned MPI_Psend_init/MPI_Precv_init, the persistent
# collectives (Open MPI 4.1: its MPIX_NAME_init), the large-count _c
# calls), counted exactly on 4 ranks; and where the MPI has the _c calls,
# one MPI_Send_c of 2^31 + 3 bytes between
# 2 ranks, counted exactly in 64 bits (the receiver holds 2 GiB); under
# Open MPI, MPI_Isendrecv agrees with Open MPI's pml monitoring; where
# mpifort works (MPICH 4), the calls from `use mpi_f08` (tests/mpi/mpi4_f).
# Skipped (77) under an MPI with none of them.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"

expect_ok run 4 -x COMMPROF_OUT="$work/m.json" "$MPI_TESTS/mpi4"
cp "$work/out" "$work/m.out"
blocks=$(sed -n 's/^blocks *//p' "$work/m.out")
[ -n "$blocks" ] || finish_skipped "this MPI has none of the MPI-4 calls libcommprof wraps"
echo "MPI-4 blocks: $blocks"
expect_ok $check mpi4 "$work/m.json" "$work/m.out"

# Under Open MPI (5), MPI_Isendrecv's bytes and messages equal those of
# its pml monitoring.
case " $blocks " in
  *" isendrecv "*)
    if mpi_is_openmpi; then
      mkdir -p "$work/mon"
      expect_ok run 4 -x COMMPROF_OUT="$work/i.json" --mca pml_monitoring_enable 2 \
        --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$work/mon/prof" \
        "$MPI_TESTS/mpi4" isendrecv
      expect_ok $check monitoring "$work/i.json" "$work/mon"
    fi ;;
esac

# From `use mpi_f08` (where configure built tests/mpi/mpi4_f: MPICH 4).
if [ -n "${MPI4_F:-}" ]; then
  expect_ok run 4 -x COMMPROF_OUT="$work/f.json" "$MPI4_F"
  expect_ok $check mpi4_f "$work/f.json"
fi

case " $blocks " in
  *" large-count "*)
    expect_ok run 2 -x COMMPROF_OUT="$work/l.json" "$MPI_TESTS/mpi4" large
    expect_output "rank 1 ok"
    expect_ok $check large "$work/l.json" ;;
esac
finish
