#!/usr/bin/env bash
# parmapper without an output option writes the form of the launcher that
# started it, in the current folder, and prints the line that launches
# with it: under the configured launcher (4 ranks) Open MPI 4.1's
# rankfile and `mpirun --rankfile rankfile`, Open MPI 5's with `mpirun
# --map-by rankfile:file=rankfile --bind-to core:overload-allowed`, or
# Hydra's hydra-hostfile with `mpiexec -f hydra-hostfile -bind-to
# user:LIST`, and that line places tests/mpi/whereami's ranks where the
# file says; alone, the MPI library's form (Open MPI: rankfile; MPICH:
# hydra-hostfile), exact for a described machine; Slurm's variables
# (SLURM_STEP_ID, SLURM_PROCID) give the Slurm hostfile and map_cpu line,
# Hydra's (MPI_LOCALRANKID) or Open MPI 4.1's (OMPI_COMM_WORLD_SIZE) the
# form of that launcher, where the MPI itself does not read them (Open MPI
# 5's under Open MPI 5 and from the library alone); an explicit
# output option writes only what it names.
. "$TOPOMAP_SRCDIR/tests/pipeline_lib.sh"
[ -z "${TOPOMAP_SANITIZE_BIN:-}" ] || PARMAPPER=$TOPOMAP_SANITIZE_BIN/parmapper
expect_ok "$TASKGRAPH" gen stencil --dims 4 -o "$work/g.tg.json"

# In the job, under the configured launcher.
mkdir "$work/job"
cd "$work/job" || exit 1
expect_ok launch 4 "$PARMAPPER" "$work/g.tg.json" --first
case $mpi_kind in
  ompi4) want=(rankfile "openmpi: mpirun --rankfile rankfile") ;;
  ompi5) want=(rankfile "openmpi: mpirun --map-by rankfile:file=rankfile --bind-to core:overload-allowed") ;;
  hydra) want=(hydra-hostfile "hydra: mpiexec -f hydra-hostfile -bind-to user:") ;;
esac
checks=$((checks + 1))
[ "$(ls)" = "${want[0]}" ] || fail "files written in the job: $(ls)"
name=rankfile
[ "$mpi_kind" != hydra ] || name="Hydra hostfile"
expect_output "wrote $name ${want[0]}"
checks=$((checks + 1))
line=$(grep -F "${want[1]}" "$work/out") || fail "no '${want[1]}' in: $(cat "$work/out")"
host=$(hostname)
checks=$((checks + 1))
case $mpi_kind in
  ompi*) [ "$(sed -E 's/ slot=[0-9]+$//' rankfile)" = "$(printf 'rank %d='"$host"'\n' 0 1 2 3)" ] ;;
  hydra) [ "$(cat hydra-hostfile)" = "$(printf '%s\n' "$host" "$host" "$host" "$host")" ] &&
         [[ $line =~ user:[0-9]+(,[0-9]+)*$ ]] ;;
esac || fail "the ${want[0]} of 4 ranks on $host: $(cat "${want[0]}")"
# The printed line, with the configured launcher's path, places the ranks.
read -ra args <<< "${line#*: * }"
expect_ok "$MPIEXEC" "${args[@]}" -n 4 "$MPI_TESTS/whereami" --cpus
whereami_want . "${line##*user:}" > "$work/want"
checks=$((checks + 1))
diff "$work/want" "$work/out" || fail "whereami's ranks are not where ${want[0]} says"
cd "$work" || exit 1

# Alone, on a described machine: the MPI library's form.
offline=("$work/g.tg.json" --nodes 2 --slots 2 --first)
mkdir "$work/alone"
expect_ok env -C "$work/alone" "$PARMAPPER" "${offline[@]}"
if [ "$mpi_kind" = hydra ]; then
  expect_output "hydra: mpiexec -f hydra-hostfile -bind-to user:0,1"
  checks=$((checks + 1))
  [ "$(ls "$work/alone")" = hydra-hostfile ] &&
    [ "$(cat "$work/alone/hydra-hostfile")" = "$(printf 'node0\nnode0\nnode1\nnode1')" ] ||
    fail "alone: $(ls "$work/alone")"
else
  expect_output "${want[1]}"
  checks=$((checks + 1))
  [ "$(ls "$work/alone")" = rankfile ] &&
    [ "$(cat "$work/alone/rankfile")" = "$(printf 'rank 0=node0 slot=0\nrank 1=node0 slot=1\nrank 2=node1 slot=0\nrank 3=node1 slot=1')" ] ||
    fail "alone: $(ls "$work/alone")"
fi

# The launchers' variables, where this MPI does not read them.
mkdir "$work/slurm"
expect_ok env -C "$work/slurm" SLURM_STEP_ID=0 SLURM_PROCID=0 "$PARMAPPER" "${offline[@]}"
expect_output "slurm: SLURM_HOSTFILE=slurm-hostfile srun --distribution=arbitrary --cpu-bind=map_cpu:0,1"
checks=$((checks + 1))
[ "$(ls "$work/slurm")" = slurm-hostfile ] || fail "under Slurm's variables: $(ls "$work/slurm")"
if [ "$mpi_kind" = hydra ]; then
  # (MPICH 5 reads PRTE_LAUNCHED: it then looks for PMIx.)
  mkdir "$work/ompi4"
  expect_ok env -C "$work/ompi4" OMPI_COMM_WORLD_SIZE=1 "$PARMAPPER" "${offline[@]}"
  expect_output "openmpi: mpirun --rankfile rankfile"
  checks=$((checks + 1))
  [ "$(ls "$work/ompi4")" = rankfile ] || fail "under Open MPI's variables: $(ls "$work/ompi4")"
else
  mkdir "$work/hydra"
  expect_ok env -C "$work/hydra" MPI_LOCALRANKID=0 "$PARMAPPER" "${offline[@]}"
  expect_output "hydra: mpiexec -f hydra-hostfile -bind-to user:0,1"
  checks=$((checks + 1))
  [ "$(ls "$work/hydra")" = hydra-hostfile ] || fail "under Hydra's variables: $(ls "$work/hydra")"
fi

# An explicit output: only it.
mkdir "$work/explicit"
expect_ok env -C "$work/explicit" "$PARMAPPER" "${offline[@]}" --mapping m
checks=$((checks + 1))
[ "$(ls "$work/explicit")" = m ] || fail "with --mapping: $(ls "$work/explicit")"
finish
