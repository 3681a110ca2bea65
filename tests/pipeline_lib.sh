#!/usr/bin/env bash
# pipeline_lib.sh: what the tests of the pipeline scripts share (sourced):
# lib.sh and Open MPI's settings for running as root on a small machine
# (parmapper gives each host's ranks a slot without --tasks-per-slot, however
# few its cores).
. "$TOPOMAP_SRCDIR/tests/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
unset LD_PRELOAD
