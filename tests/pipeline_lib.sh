#!/usr/bin/env bash
# pipeline_lib.sh: what the tests of the pipeline scripts share (sourced):
# lib.sh, mpi_lib.sh (the configured launcher, MPIEXEC, with Open MPI's
# settings for running as root on a small machine: parmapper gives each
# host's ranks a slot without --tasks-per-slot, however few its cores),
# and mpi_kind, which launcher MPIEXEC is, by its --version: ompi4 (Open
# MPI 4.1), ompi5 (Open MPI 5, PRRTE) or hydra (MPICH).
. "$TOPOMAP_SRCDIR/tests/lib.sh"
. "$TOPOMAP_SRCDIR/tests/mpi_lib.sh"
unset LD_PRELOAD
case $("$MPIEXEC" --version 2>&1) in
  *"(Open MPI) 4."* | *OpenRTE*) mpi_kind=ompi4 ;;
  *"(Open MPI) "* | *PRRTE*) mpi_kind=ompi5 ;;
  *HYDRA*) mpi_kind=hydra ;;
  *) echo "$MPIEXEC: not a launcher these tests know"; exit 99 ;;
esac
M=$MPIEXEC

# The CPU list of a mapping's report, as Hydra's -bind-to user: takes it.
cpus_of() {
  python3 -c 'import json, sys
print(",".join(map(str, json.load(open(sys.argv[1]))["slurm_map_cpu"])))' "$1/report.json"
}
# The mapping parmapper writes in DIR, as its option and file, and the
# head of the application's run with it (SEP: how the CPU list's commas
# are written: '\,' in topomap-run's messages, ',' in the stand-in's log).
map_out() {
  case $mpi_kind in
    ompi*) echo "--rankfile $1/rankfile" ;;
    hydra) echo "--rankfile $1/rankfile --hydra-hostfile $1/hydra-hostfile" ;;
  esac
}
run_head() {
  local dir=$1 sep=${2-'\,'}
  case $mpi_kind in
    ompi4) echo "$M --rankfile $dir/rankfile" ;;
    ompi5) echo "$M --map-by rankfile:file=$dir/rankfile --bind-to core:overload-allowed" ;;
    hydra) local c; c=$(cpus_of "$dir"); echo "$M -f $dir/hydra-hostfile -bind-to user:${c//,/$sep}" ;;
  esac
}

# The logical core of the PU whose OS index is P (Hydra's -bind-to user:
# and srun's map_cpu name PUs so).
pu_core() { hwloc-calc --pi "pu:$1" --intersect core; }

# whereami_want DIR [CPUS]: what tests/mpi/whereami --cpus prints ("rank
# R host H cores C cpus P,...") when its ranks run where parmapper's
# mapping in DIR says: DIR/rankfile ("rank R=HOST slot=CORE"), or under
# Hydra DIR/hydra-hostfile (a host per rank) with the CPU list CPUS, by
# default DIR/report.json's (the k-th rank of a host on its k-th CPU).
whereami_want() {
  if [ "$mpi_kind" = hydra ]; then
    local cpus r=0 host k list=${2:-$(cpus_of "$1")}
    IFS=, read -ra cpus <<< "$list"
    declare -A seen=()
    while read -r host; do
      k=${seen[$host]:-0}
      seen[$host]=$((k + 1))
      echo "rank $r host $host cores $(pu_core "${cpus[k]}") cpus ${cpus[k]}"
      r=$((r + 1))
    done < "$1/hydra-hostfile"
  else
    local r host core
    while read -r r host core; do
      echo "rank $r host $host cores $core cpus $(hwloc-calc --po --intersect pu "core:$core")"
    done < <(sed -E 's/^rank ([0-9]+)=(.*) slot=(.*)$/\1 \2 \3/' "$1/rankfile")
  fi
}
