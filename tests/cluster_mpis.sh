#!/usr/bin/env bash
# cluster_mpis.sh: the emulated cluster under the MPI this build was
# configured with (MPIEXEC, MPIEXEC_KIND): Open MPI 4.1's mpirun, Open MPI
# 5's (PRRTE) or MPICH's Hydra mpiexec, each launching through the
# cluster's agent onto its default hosts (topomap-cluster run sets them
# for all three).  scripts/check-mpis.sh runs it in the build of each MPI,
# whose parmapper and tests/mpi/whereami are that MPI's.  On 4 nodes x 2
# slots:
#   - a plain launch of 8 ranks: 2 a node by slot, every rank's host;
#     under Open MPI every rank's session folder in the cluster's tmp/;
#   - parmapper in an 8-rank job across the nodes finds the 4 hosts and
#     their 2 cores and maps two stencils as it does offline on 4 nodes x 2
#     slots: 4x2 (each node's ranks consecutive) and 2x4 periodic (node k
#     gets tasks k and k+4, not the block mapping);
#   - the application launched with parmapper's output for this MPI runs
#     every rank on its host, and bound to its core: Open MPI, the rankfile
#     (4.1: --rankfile; 5: --map-by rankfile:file=), against the rankfile's
#     host and logical core of every rank; Hydra, parmapper's machinefile
#     and the binding it prints, against the machinefile's host and the
#     rankfile's core of every rank: on 4x2 (each node's ranks
#     consecutive) -bind-to user:LIST; on 2x4 periodic -bind-to none and
#     topomap-exec with parmapper's placement, since Hydra starts one proxy
#     per run of equal consecutive lines of the machinefile and numbers each
#     proxy's processes from 0 for -bind-to user:, so no one list binds
#     ranks of a node that are not consecutive.
# Skipped (77) where network namespaces cannot be made.
. "$TOPOMAP_SRCDIR/tests/cluster_lib.sh"
. "$TOPOMAP_SRCDIR/tests/mpi_lib.sh"
# mpi_lib.sh lets Open MPI put more ranks on this host than it has cores;
# with it PRRTE maps every rank onto the first node of the hostfile, and
# the cluster has a slot for every rank.
unset OMPI_MCA_rmaps_base_oversubscribe PRTE_MCA_rmaps_default_mapping_policy
check="python3 $TOPOMAP_SRCDIR/tests/parmapper_check.py"
[ -z "${TOPOMAP_SANITIZE_BIN:-}" ] || PARMAPPER=$TOPOMAP_SANITIZE_BIN/parmapper
whereami=$MPI_TESTS/whereami

cluster_up 4 --slots 2 --rate 1gbit --subnet 10.218.0
echo "launcher: $MPIEXEC ($MPIEXEC_KIND)"

# whereami's lines "rank R host H ..." as "R H", by rank.
hosts_of() { awk '$1 == "rank" { print $2, $4 }' "$1" | sort -n; }

# ------------------------------------------------------------ plain launch
launch_argv 8 "$whereami"
expect_launch under_limit "${launch_cmd[@]}"
hosts_of "$work/out" > "$work/where"
printf '%s\n' '0 node0' '1 node0' '2 node1' '3 node1' '4 node2' '5 node2' \
  '6 node3' '7 node3' > "$work/expected"
checks=$((checks + 1))
cmp -s "$work/where" "$work/expected" ||
  { fail "8 ranks not 2 a node by slot over node0..node3:"; cat "$work/out"; }
# Open MPI's session folders (4.1's, PRRTE's) are the cluster's own on
# every node.
if mpi_is_openmpi; then
  launch_argv 8 sh -c 'echo "$(hostname) ${OMPI_FILE_LOCATION:-none}"'
  expect_launch under_limit "${launch_cmd[@]}"
  checks=$((checks + 1))
  [ "$(grep -c "^node[0-3] $cluster_dir/tmp/" "$work/out")" -eq 8 ] ||
    { fail "session folders not in $cluster_dir/tmp:"; cat "$work/out"; }
fi

# -------------------------------------------------------------- parmapper
for graph in 4x2 2x4p; do
  g=$work/$graph.tg.json
  case $graph in
    4x2) expect_ok "$TASKGRAPH" gen stencil --dims 4x2 -o "$g" ;;
    2x4p) expect_ok "$TASKGRAPH" gen stencil --dims 2x4 --periodic -o "$g" ;;
  esac
  # Offline on 4 nodes x 2 slots: what the job must find.
  expect_ok "$PARMAPPER" "$g" --nodes 4 --slots 2 --first --quiet \
    --rankfile "$work/$graph.off.rf" --hydra-hostfile "$work/$graph.off.hh"
  launch_argv 8 "$PARMAPPER" "$g" --first --quiet --rankfile "$work/$graph.rf" \
    --hydra-hostfile "$work/$graph.hh" --report "$work/$graph.json"
  expect_launch under_limit "${launch_cmd[@]}"
  cp "$work/out" "$work/$graph.pm"
  checks=$((checks + 1))
  got=$(python3 -c "import json, sys; m = json.load(open(sys.argv[1]))['machine']
print(' '.join('%s:%s:%s' % (h['name'], h['ranks'], h['cores_used']) for h in m['hosts']))" \
    "$work/$graph.json")
  [ "$got" = "node0:2:[0, 1] node1:2:[0, 1] node2:2:[0, 1] node3:2:[0, 1]" ] ||
    fail "$graph: parmapper's hosts in the job: $got"
  checks=$((checks + 1))
  cmp -s "$work/$graph.rf" "$work/$graph.off.rf" && cmp -s "$work/$graph.hh" "$work/$graph.off.hh" ||
    fail "$graph: parmapper in the job and offline differ: $(cat "$work/$graph.rf") against $(cat "$work/$graph.off.rf")"

  if mpi_is_openmpi; then
    launch_mapped_argv 8 "$work/$graph.rf" "$whereami"
    expect_launch under_limit "${launch_cmd[@]}"
    cp "$work/out" "$work/$graph.where"
    expect_ok $check bound "$work/$graph.rf" "$work/$graph.where"
    continue
  fi
  # Hydra: parmapper's line, "hydra: mpiexec -f FILE -bind-to user:LIST"
  # or "... -bind-to none topomap-exec PLACEMENT --" (topomap-exec of this
  # build on the PATH that Hydra passes to every rank).
  read -ra line <<< "$(sed -n 's/^hydra: mpiexec //p' "$work/$graph.pm")"
  checks=$((checks + 1))
  case $graph in
    4x2) want="-f $work/$graph.hh -bind-to user:" ;;
    2x4p) want="-f $work/$graph.hh -bind-to none topomap-exec $work/$graph.hh.placement.json --" ;;
  esac
  [[ "${line[*]}" == "$want"* ]] ||
    { fail "$graph: parmapper's Hydra line: ${line[*]} (expected $want...)"; continue; }
  expect_launch under_limit env PATH="$(dirname "$TOPOMAP_EXEC"):$PATH" \
    "$MPIEXEC" -n 8 "${line[@]}" "$whereami" --cpus
  cp "$work/out" "$work/$graph.where"
  checks=$((checks + 1))
  hosts_of "$work/$graph.where" > "$work/$graph.got"
  awk '{ print NR - 1, $1 }' "$work/$graph.hh" > "$work/$graph.want"
  cmp -s "$work/$graph.got" "$work/$graph.want" ||
    { fail "$graph: ranks not on the hosts of parmapper's machinefile:"; cat "$work/$graph.where"; }
  # Every rank on the CPU of its rankfile line's core.
  checks=$((checks + 1))
  want=$(sed -n 's/^rank \([0-9]*\)=\([^ ]*\) slot=\([0-9]*\)$/\1 \2 \3/p' "$work/$graph.rf" | sort -n |
    while read -r t h c; do echo "$t $h $(hwloc-calc --physical-output --intersect pu "core:$c")"; done)
  got=$(awk '$1 == "rank" { print $2, $4, $8 }' "$work/$graph.where" | sort -n)
  [ "$got" = "$want" ] ||
    fail "$graph: ranks not on parmapper's CPUs:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
done
# 2x4 periodic is not the block mapping: each node holds tasks k and k+4.
checks=$((checks + 1))
[ "$(paste -sd' ' "$work/2x4p.hh")" = "node0 node1 node2 node3 node0 node1 node2 node3" ] ||
  fail "2x4 periodic: expected node k for tasks k and k+4: $(paste -sd' ' "$work/2x4p.hh")"

expect_ok cluster down
expect_gone "down"
finish
