#!/usr/bin/env bash
# commprof_lib.sh: what the libcommprof MPI tests share (sourced): lib.sh,
# Open MPI's settings for running as root on a small machine, the checker,
# and run NP ARGS..., mpirun on NP ranks with the profiler preloaded.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
check="python3 $TOPOMAP_SRCDIR/tests/commprof_check.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
run() { local np=$1; shift; mpirun -np "$np" -x LD_PRELOAD="$COMMPROF_PRELOAD" "$@"; }
