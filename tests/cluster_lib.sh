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

# Open MPI 4.1 (Debian's 4.1.4) under srun's direct launch (PMIx), on this
# loaded machine: now and then one rank dies in MPI_Init, in Open MPI's
# TCP BTL, and its peers then fail to connect to it.  A core of it
# (parmapper) shows the stack: a call through a null pointer from
# mca_btl_tcp.so <- libevent <- opal_progress <- ompi_mpi_init, where
# the BTL hands a peer's first fragment to the callback registered for
# its tag, which is not registered yet; under ASan, "SEGV on unknown
# address 0x000000000000", pc 0.  tests/mpi/whereami, which runs no
# topomap code, dies the same way: about one srun step in five here (none
# in 55 steps on an idle cluster), never under mpirun.  topomap-cluster
# run now sets PMIX_MCA_gds=hash for it (the ranks ask Slurm's PMIx
# server for the job's data rather than read PMIx's shared-memory store),
# after which no step died in 6 runs of cluster_slurm.sh.  What a Slurm test
# checks (tests/cluster_slurm.sh, cluster_levels.sh) is where Slurm puts
# the ranks, so such a step is run once more, and says so in the log; a
# second failure, or any other, fails the test.
# Open MPI 5's launcher (PRRTE 3.0) now and then never starts the job
# across the cluster's hosts (1 run of cluster_mpis.sh in 8 here): prterun
# waits in its event loop, each daemon's launching parent reads the pipe
# of its daemonized child (prte_daemon_init_callback), the children wait in
# theirs, and nothing moves.  A launch under_limit (below) that timeout
# ends (status 124) is run once more too, as is one that hung after its
# job ended (openpmix/prrte#1839).
# under_limit CMD...: CMD on the cluster under timeout (status 124 when it
# ran past CLUSTER_LAUNCH_LIMIT seconds, default 120: every launch of
# these tests takes a few seconds, 30 sanitized on a loaded machine).
under_limit() { on_cluster timeout -k 10 "${CLUSTER_LAUNCH_LIMIT:-120}" "$@"; }
# expect_launch CMD...: expect_ok, with that one retry.
launch_retries=0
expect_launch() {
  "$@" > "$work/out" 2> "$work/err"
  local rc=$? why=
  if [ "$rc" -eq 0 ]; then
    checks=$((checks + 1))
    return 0
  fi
  if [ "$rc" -eq 124 ]; then
    why="the launch did not end within its limit"
  elif grep -qE 'SEGV on unknown address 0x0+ |Segmentation fault|failed to TCP connect to a peer' "$work/err"; then
    why="a rank died in Open MPI's MPI_Init"
  fi
  if [ -n "$why" ]; then
    launch_retries=$((launch_retries + 1))
    echo "note: $why; running once more: $*"
    sed -n 's/^/  first run: /p' "$work/err" | head -n 15
    expect_ok "$@"
    return
  fi
  checks=$((checks + 1))
  fail "expected success: $*"
  sed 's/^/  stderr: /' "$work/err"
  return 1
}
