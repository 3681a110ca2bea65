#!/usr/bin/env bash
# pipeline_lib.sh: what the tests of the pipeline scripts share (sourced):
# lib.sh, Open MPI's settings for running as root on a small machine, and
# per_slot N, the --tasks-per-slot that gives parmapper a slot for each of
# N ranks on this host's cores.
. "$TOPOMAP_SRCDIR/tests/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
unset LD_PRELOAD
cores=$(hwloc-calc --number-of core all)
per_slot() { echo $(( ($1 + cores - 1) / cores )); }
