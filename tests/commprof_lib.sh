#!/usr/bin/env bash
# commprof_lib.sh: what the libcommprof MPI tests share (sourced): lib.sh,
# the configured launcher (mpi_lib.sh), the checker, and run NP ARGS...,
# NP ranks with the profiler preloaded (ARGS as launch takes them).
. "$TOPOMAP_SRCDIR/tests/lib.sh"
. "$TOPOMAP_SRCDIR/tests/mpi_lib.sh"
check="python3 $TOPOMAP_SRCDIR/tests/commprof_check.py"
run() { local np=$1; shift; launch "$np" -x LD_PRELOAD="$COMMPROF_PRELOAD" "$@"; }
