#!/usr/bin/env bash
# mpi_lib.sh: launching MPI test programs with the launcher configure found
# (sourced by commprof_lib.sh and parmapper_lib.sh).  The tests write Open
# MPI's mpirun options; `launch` turns them into the configured launcher's:
#   launch NP [-x VAR=VALUE]... PROGRAM ARGS...
# runs NP ranks of PROGRAM, each with VAR=VALUE in its environment: Open
# MPI (4's ORTE, 5's PRRTE): mpirun -np NP -x VAR=VALUE; MPICH's Hydra:
# mpiexec -n NP -genv VAR VALUE.  Open MPI's settings (running as root,
# more ranks than cores) are made only under Open MPI.
# mpi_is_openmpi: whether Open MPI's own options (--mca) may be used.
# Environment (make check sets them): MPIEXEC, MPIEXEC_KIND (openmpi,
# hydra or other); without them, mpirun as Open MPI's.
MPIEXEC=${MPIEXEC:-mpirun}
MPIEXEC_KIND=${MPIEXEC_KIND:-openmpi}
if [ "$MPIEXEC_KIND" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # Open MPI 4.1 (ORTE) reads the first, Open MPI 5 (PRRTE) the second.
  export OMPI_MCA_rmaps_base_oversubscribe=1
  export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
fi

mpi_is_openmpi() { [ "$MPIEXEC_KIND" = openmpi ]; }

# When a rank ends without MPI_Finalize, Open MPI's mpirun ends the others
# with SIGTERM (libcommprof writes their partial profiles), MPICH's Hydra
# with SIGKILL: commprof_check.py partial then expects only the file of
# the rank that ended.
if ! mpi_is_openmpi; then export COMMPROF_SURVIVORS=killed; fi

# launch_argv NP ARGS...: the command launch runs, in the array launch_cmd
# (for `timeout 120 "${launch_cmd[@]}"`).
launch_argv() {
  local np=$1; shift
  if mpi_is_openmpi; then
    launch_cmd=("$MPIEXEC" -np "$np" "$@")
    return
  fi
  launch_cmd=("$MPIEXEC" -n "$np")
  while [ $# -gt 0 ] && [ "$1" = -x ] && [ $# -ge 2 ] && [[ $2 == *=* ]]; do
    launch_cmd+=(-genv "${2%%=*}" "${2#*=}")
    shift 2
  done
  launch_cmd+=("$@")
}

launch() { launch_argv "$@"; "${launch_cmd[@]}"; }

# launch_mapped NP RANKFILE PROGRAM ARGS...: NP ranks placed as parmapper's
# RANKFILE says ("rank R=HOST slot=CORE", CORE a logical core index), in
# the configured launcher's form: Open MPI 4.1's mpirun --rankfile; Open
# MPI 5's (PRRTE) --map-by rankfile:file=, with cores shared by several
# ranks allowed; Hydra: a machinefile of the hosts in rank order and
# -bind-to user: with each rank's core as its PUs' OS indexes, which Hydra
# sets in the cpuset as they are (hwloc-calc, which runs here: the hosts
# share this machine's cores).  The Hydra form is for one host: Hydra
# numbers -bind-to user: per proxy, one per run of equal consecutive
# machinefile lines, so across hosts the list of rank r is not rank r's.
# launch_mapped_argv: the command, in the array launch_cmd (the Hydra
# machinefile is written as RANKFILE.hosts).
launch_mapped_argv() {
  local np=$1 rf=$2; shift 2
  case $MPIEXEC_KIND in
    openmpi)
      if "$MPIEXEC" --version 2>&1 | grep -qE '\((Open MPI|OpenRTE)\) [1-4]\.'; then
        launch_cmd=("$MPIEXEC" -np "$np" --rankfile "$rf" "$@")
      else
        launch_cmd=("$MPIEXEC" -np "$np" --map-by "rankfile:file=$rf"
          --bind-to core:overload-allowed "$@")
      fi ;;
    *)
      local mf=$rf.hosts pus=() line host core
      : > "$mf"
      while read -r line; do
        host=${line#*=}; host=${host%% *}
        core=${line##*slot=}
        echo "$host" >> "$mf"
        pus+=("$(hwloc-calc --po --intersect PU "core:$core" | tr ',' '+')")
      done < <(grep '^rank ' "$rf" | sort -n -k2 -t' ')
      local IFS=,
      launch_cmd=("$MPIEXEC" -n "$np" -f "$mf" -bind-to "user:${pus[*]}" "$@") ;;
  esac
}

launch_mapped() { launch_mapped_argv "$@"; "${launch_cmd[@]}"; }
