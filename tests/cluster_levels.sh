#!/usr/bin/env bash
# cluster_levels.sh: the Slurm binding of parmapper when the nodes' cores
# differ, on a 2-node emulated cluster with Slurm (topomap-cluster up
# --slurm, 2 slots a node).  parmapper runs in the allocation with its own
# ranks bound to core 1 of node0 and core 0 of node1 (a rankfile), so the
# job may use those cores only: the one rank of each node sits on another
# CPU, which no --cpu-bind=map_cpu list (one for every node) can express.
# parmapper then writes a topomap-exec placement beside the Slurm hostfile
# and prints the srun line that runs the application under topomap-exec
# with Slurm's binding off; run so, every rank is on its host and core,
# as tests/mpi/whereami --cpus --slurmd reports from inside it.  SKIP (77)
# without root or namespaces, or without Slurm and munge.
TMPDIR=$(pwd -P)
export TMPDIR
. "$TOPOMAP_SRCDIR/tests/cluster_lib.sh"

affinity=("$MPI_TESTS/whereami" --cpus --slurmd)
for b in slurmctld slurmd munged srun salloc hwloc-calc; do
  command -v "$b" > /dev/null || finish_skipped "no $b here (Debian: slurm-wlm, munge, hwloc-nox)"
done
[ "$(nproc)" -ge 2 ] || finish_skipped "needs 2 CPUs (a core of its own on each node)"
export OMPI_MCA_btl=self,tcp # as cluster_slurm.sh: TCP between local ranks
trap 'exit 1' INT TERM HUP

cluster_up 2 --slots 2 --slurm --subnet 10.219.0
cpus_of_core() { hwloc-calc --physical-output --intersect pu "core:$1"; }

printf 'rank 0=node0 slot=1\nrank 1=node1 slot=0\n' > "$work/rfp"
expect_ok "$TASKGRAPH" gen stencil --dims 2 -o "$work/g.tg.json"
expect_ok on_cluster salloc -N2 -n2 mpirun -np 2 --rankfile "$work/rfp" "$PARMAPPER" \
  "$work/g.tg.json" --first --quiet --rankfile "$work/rf" --slurm-hostfile "$work/sh" --report "$work/r.json"
expect_output "slurm: SLURM_HOSTFILE=$work/sh srun --distribution=arbitrary --cpu-bind=none topomap-exec $work/sh.placement.json --"
checks=$((checks + 1))
got=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print(r["slurm_map_cpu"], r["binding"]["kind"], [h["cores_used"] for h in r["machine"]["hosts"]])' "$work/r.json")
[ "$got" = "None topomap-exec [[1], [0]]" ] || fail "report: $got"

# The printed line (srun's own options after "srun", the build's
# topomap-exec on the PATH), with whereami as the application: rank t on
# line t's node, on the core its rankfile line names (node0 core 1, node1
# core 0).
read -ra line <<< "$(sed -n 's/^slurm: //p' "$work/out")"
expect_launch on_cluster env PATH="$(dirname "$TOPOMAP_EXEC"):$PATH" "${line[0]}" \
  "${line[1]}" -n2 --mpi=pmix "${line[@]:2}" "${affinity[@]}"
sed -i 's/ cores [^ ]*//' "$work/out"
sed -n 's/^rank \([0-9]*\)=\([^ ]*\) slot=\([0-9]*\)$/\1 \2 \3/p' "$work/rf" | sort -n |
  while read -r t h s; do echo "rank $t host $h cpus $(cpus_of_core "$s") slurmd $h"; done > "$work/expect"
checks=$((checks + 1))
[ "$(sed 's/^rank [0-9]*=//' "$work/rf" | sort | paste -sd ' ')" = "node0 slot=1 node1 slot=0" ] ||
  fail "rankfile: $(cat "$work/rf")"
checks=$((checks + 1))
diff "$work/expect" "$work/out" > "$work/diff" || { fail "placement (- expected, + ranks):"; sed 's/^/  /' "$work/diff"; }

expect_ok cluster down
expect_gone "down"
finish
