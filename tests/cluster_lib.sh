#!/usr/bin/env bash
# cluster_lib.sh: what the tests on an emulated cluster share (sourced):
# lib.sh, then
#   cluster_up ARGS...   topomap-cluster up ARGS under a name of this test's
#                        own (so that it meets no other test's cluster, nor
#                        a user's), taken down when the test exits; the test
#                        is skipped (77) where namespaces cannot be made
#   on_cluster CMD...    topomap-cluster run -- CMD
#   cluster_leftovers    prints what of the cluster is still on the machine
#                        (namespaces, mounts, state, processes), nothing
#                        when it is all gone
#   expect_gone WHAT     a check that nothing of the cluster is left
. "$TOPOMAP_SRCDIR/tests/lib.sh"
unset LD_PRELOAD
CLUSTER=$TOPOMAP_SRCDIR/scripts/topomap-cluster
cluster_name=t$$
cluster_dir=${TOPOMAP_CLUSTER_STATE:-/run/topomap-cluster}/$cluster_name
trap '"$CLUSTER" --name "$cluster_name" down > /dev/null 2>&1; rm -rf "$work"' EXIT

cluster() { "$CLUSTER" --name "$cluster_name" "$@"; }

cluster_up() {
  # One cluster test at a time (make -j runs tests side by side): on 2
  # cores, two clusters of 16 ranks and Slurm's daemons starve each other,
  # and srun's steps then failed (a rank's shared-memory peer file not
  # found, then a segfault) while another test's cluster ran.  The lock
  # goes with the test's shell.
  if [ -z "${cluster_locked-}" ]; then
    exec 9> /tmp/topomap-cluster-tests.lock
    flock -w 900 9 || { fail "waited 900 s for another cluster test"; finish; }
    cluster_locked=1
  fi
  cluster up "$@" > "$work/up.out" 2>&1
  local rc=$?
  if [ $rc -eq 77 ]; then
    cat "$work/up.out"
    finish_skipped "no emulated cluster here: $(tail -n 1 "$work/up.out")"
  fi
  checks=$((checks + 1))
  if [ $rc -ne 0 ]; then
    fail "topomap-cluster up $* exited $rc"
    sed 's/^/  /' "$work/up.out"
    finish
  fi
}

on_cluster() { cluster run -- "$@"; }

cluster_leftovers() {
  ip netns list 2> /dev/null | grep "^$cluster_name-" | sed 's/^/namespace: /'
  grep -F " $cluster_dir" /proc/mounts | sed 's/^/mount: /'
  [ ! -e "$cluster_dir" ] || echo "state: $cluster_dir"
  pgrep -af -- "$cluster_dir" | sed 's/^/process: /'
}

expect_gone() {
  checks=$((checks + 1))
  cluster_leftovers > "$work/left"
  [ ! -s "$work/left" ] || { fail "$1: left behind:"; sed 's/^/  /' "$work/left"; }
}
