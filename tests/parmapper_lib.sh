#!/usr/bin/env bash
# parmapper_lib.sh: what the parmapper tests share (sourced): lib.sh, Open
# MPI's settings for running as root on a small machine, the checker of
# reports and rankfiles, and pm NP ARGS..., parmapper under mpirun on NP
# ranks.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
check="python3 $TOPOMAP_SRCDIR/tests/parmapper_check.py"
# In a sanitized build parmapper runs without a leak check, with mpirun or
# without (tests/sanitize/mpi-program says why).
[ -z "${TOPOMAP_SANITIZE_BIN:-}" ] || PARMAPPER=$TOPOMAP_SANITIZE_BIN/parmapper
pm() { local np=$1; shift; mpirun -np "$np" "$PARMAPPER" "$@"; }
