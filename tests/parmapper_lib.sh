#!/usr/bin/env bash
# parmapper_lib.sh: what the parmapper tests share (sourced): lib.sh, the
# configured launcher (mpi_lib.sh), the checker of reports and rankfiles,
# and pm NP ARGS..., parmapper on NP ranks.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
. "$TOPOMAP_SRCDIR/tests/mpi_lib.sh"
check="python3 $TOPOMAP_SRCDIR/tests/parmapper_check.py"
# In a sanitized build parmapper runs without a leak check, with mpirun or
# without (tests/sanitize/mpi-program says why).
[ -z "${TOPOMAP_SANITIZE_BIN:-}" ] || PARMAPPER=$TOPOMAP_SANITIZE_BIN/parmapper
pm() { local np=$1; shift; launch "$np" "$PARMAPPER" "$@"; }
