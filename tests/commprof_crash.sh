#!/usr/bin/env bash
# libcommprof when a rank of tests/mpi/abort.c (4 ranks) dies by a fatal
# signal after known traffic: raise(SIGSEGV), a write through a null
# pointer, a stack overflow, an integer division by zero (SIGFPE) and
# abort() (SIGABRT).  The crashing rank leaves its partial file with
# exactly what it recorded (the others leave theirs on mpirun's SIGTERM),
# taskgraph merge gives the exact point-to-point matrix, and the job ends
# as the same run without the profiler does: the same exit status of the
# launcher and (Open MPI's mpirun) 128 + N and the same "exited on signal
# N" for rank 1; MPICH's Hydra reports the signal its own way.  An application's
# own SIGSEGV handler is still called: installed before MPI_Init (libcommprof
# writes, then hands the signal to it) or after (it replaces libcommprof's,
# and rank 1 leaves no file).  COMMPROF_CHECKPOINT=SECONDS leaves a
# checkpoint of a rank that SIGKILL ends, and none after MPI_Finalize.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
ulimit -c 0 # no core files from the crashes
# In a sanitized build (tests/sanitize/env.sh) ASan must leave the fatal
# signals to the program, libcommprof and the default action.
[ -z "${ASAN_OPTIONS:-}" ] ||
  export ASAN_OPTIONS="$ASAN_OPTIONS:handle_segv=0:handle_sigbus=0:handle_sigfpe=0"

# How rank 1 ended, as mpirun says it, without the PID (Open MPI 5's
# prterun breaks the sentence over two lines).
ending() {
  tr '\n' ' ' < "$1" | grep -o 'process rank 1 with PID [0-9]* on node [^ ]* exited on  *signal [0-9]* ([A-Za-z ]*)' |
    sed 's/PID [0-9]* //; s/on  *signal/on signal/'
}

for how in segv:11 null:11 stack:11 fpe:8 abrt:6 own:11 late:11; do
  v=${how%:*} sig=${how#*:}
  mkdir "$work/$v" "$work/$v-bare"
  # The run without the profiler, for what the job must do anyway.
  launch_argv 4 -x COMMPROF_OUT="$work/$v-bare/prof.json" "$MPI_TESTS/abort" "$v"
  timeout 120 "${launch_cmd[@]}" \
    > "$work/bare-out" 2> "$work/bare-err"
  bare=$?
  launch_argv 4 -x LD_PRELOAD="$COMMPROF_PRELOAD" -x COMMPROF_OUT="$work/$v/prof.json" \
    "$MPI_TESTS/abort" "$v"
  timeout 120 "${launch_cmd[@]}" > "$work/out" 2> "$work/err"
  rc=$?
  if ! mpi_is_openmpi; then
    # Hydra exits with the number of a signal of the first rank it sees
    # end (rank 1's, or one it sent the others), which varies from run to
    # run: only a failure is required, with the profiler as without.
    checks=$((checks + 1))
    [ "$rc" -ne 0 ] && [ "$bare" -ne 0 ] ||
      fail "$v: the launcher exited with $rc, without the profiler $bare, expected a failure"
  else
    checks=$((checks + 1))
    [ "$rc" -eq "$bare" ] || fail "$v: mpirun exited with $rc, without the profiler $bare"
    checks=$((checks + 1))
    [ "$rc" -eq $((128 + sig)) ] || fail "$v: mpirun exited with $rc, expected $((128 + sig))"
    checks=$((checks + 1))
    e=$(ending "$work/err")
    [ -n "$e" ] && [ "$e" = "$(ending "$work/bare-err")" ] && [ "${e##*on signal }" != "${e#*on signal $sig }" ] ||
      fail "$v: rank 1 ended '$e', without the profiler '$(ending "$work/bare-err")', expected signal $sig"
  fi
  case $v in
    own|late)
      # The application's handler ran, with the profiler as without.
      checks=$((checks + 1))
      [ -e "$work/$v/prof.json.own" ] && [ -e "$work/$v-bare/prof.json.own" ] ||
        fail "$v: the application's SIGSEGV handler did not run" ;;
  esac
  expect_ok $check partial "$work/$v" "$v"
  # Under Hydra the late variant leaves no partial file to merge (see
  # COMMPROF_SURVIVORS in mpi_lib.sh).
  if ! mpi_is_openmpi && [ "$v" = late ]; then continue; fi
  # The matrix of the merged partial files: 3 x 100(r+1) B from r to r+1
  # for each rank with a file (rank 3 recorded nothing).
  expect_ok "$TASKGRAPH" merge --allow-missing "$work/$v"/prof.json.rank* -o "$work/$v/merged.json"
  expect_ok "$TASKGRAPH" matrix "$work/$v/merged.json" --type p2p
  if [ "$v" = late ]; then want=$'0 1 300 3\n2 3 900 3'; else want=$'0 1 300 3\n1 2 600 3\n2 3 900 3'; fi
  mpi_is_openmpi || want='1 2 600 3' # only rank 1's file
  checks=$((checks + 1))
  [ "$(cat "$work/out")" = "$want" ] || fail "$v: merged p2p matrix: $(cat "$work/out" | tr '\n' ';') expected $(echo "$want" | tr '\n' ';')"
done

# Checkpoints every 0.2 s: rank 1 sleeps 1 s after its traffic, then
# SIGKILL ends it; its file can only be a checkpoint, and it is exact.
mkdir "$work/ckpt"
launch_argv 4 -x LD_PRELOAD="$COMMPROF_PRELOAD" -x COMMPROF_OUT="$work/ckpt/prof.json" \
  -x COMMPROF_CHECKPOINT=0.2 "$MPI_TESTS/abort" kill
timeout 120 "${launch_cmd[@]}" > "$work/out" 2> "$work/err"
rc=$?
checks=$((checks + 1))
if mpi_is_openmpi; then
  [ "$rc" -eq 137 ] || { fail "kill: mpirun exited with $rc, expected 137"; sed 's/^/  /' "$work/err"; }
else
  [ "$rc" -ne 0 ] || fail "kill: the launcher exited with 0 after a rank was killed"
fi
expect_ok $check checkpoint "$work/ckpt"
expect_ok "$TASKGRAPH" merge --allow-missing "$work/ckpt"/prof.json.rank* -o "$work/ckpt/merged.json"
expect_ok "$TASKGRAPH" matrix "$work/ckpt/merged.json" --type p2p
checks=$((checks + 1))
[ "$(cat "$work/out")" = $'0 1 300 3\n1 2 600 3\n2 3 900 3' ] || fail "kill: merged p2p matrix: $(tr '\n' ';' < "$work/out")"
# A run that reaches MPI_Finalize with checkpoints leaves its profile and no
# checkpoint.
mkdir "$work/fin"
expect_ok run 4 -x COMMPROF_OUT="$work/fin/prof.json" -x COMMPROF_CHECKPOINT=0.05 \
  "$MPI_TESTS/abort" finalize
checks=$((checks + 1))
[ "$(ls -A "$work/fin")" = prof.json ] || fail "finalize with checkpoints left: $(ls -A "$work/fin" | tr '\n' ' ')"
finish
