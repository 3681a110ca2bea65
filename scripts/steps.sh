# steps.sh: how topomap-run and topomap-select-graph run their steps and
# pass a TERM, INT or HUP on to them, and how they check the command line
# they will give parmapper, in one place: make copies this file into each
# of them (the line @STEPS_SH@ of their .in).  It sets nothing at once.
#
# parmapper_args GRAPH DIR [OUTPUT-OPTION...]
#                        pm_args: parmapper's command line (after
#                        parmapper) for a mapping of GRAPH into DIR, from
#                        the script's time, network, alpha, seed and
#                        pm_extra (below)
# check_parmapper_args GRAPH DIR
#                        parmapper --check-options with that command line,
#                        before anything runs: one that parmapper would
#                        refuse is a usage error (the script's usage: its
#                        name, exit 2) after parmapper's message
#
# steps_start WHOM [AT-EXIT]  the sentinel started and the traps set
#                        (below): TERM, INT, HUP, and EXIT, which runs the
#                        command AT-EXIT (the script's clean-up), then
#                        ends the sentinel.  WHOM: whom a signal goes on to
#   group  the step and every process under it in the script's process
#          group, as Ctrl-C would send it (topomap-run: the launcher
#          under commprof-run, which itself waits for it, and under a
#          launcher that is a wrapper script)
#   child  the step alone (topomap-select-graph: its steps are
#          topomap-run, which passes the signal on to what it runs and
#          waits for that, and taskgraph build; what runs under
#          topomap-run would have it twice)
# run_child CMD...       CMD as a step: in the background, waited for; its
#                        exit status
# stopped WHAT [NOTE]    after run_child: when a signal stopped step WHAT,
#                        says so (with NOTE) and exits 128 + its number
#
# Signals.  A TERM, INT or HUP sent to the script alone (kill PID, a
# parent script's) would end it and leave what it runs going: under
# topomap-run, the launcher and its ranks, in a temporary folder that the
# EXIT trap removes under them; under topomap-select-graph, its
# topomap-run and the rest of its job.  So every step runs in the
# background (run_child) while the shell waits, which a trapped signal
# interrupts (a foreground child would delay the trap until it ends); the
# signal goes on to the step (pass_on, to WHOM); and the script waits for
# the step to end, then exits 128 + the signal's number, the EXIT trap
# cleaning up.  Between steps (nothing running) the signal ends the script
# at once.
#
# A signal that the step has had already is not passed on: Ctrl-C at a
# terminal, a hangup and timeout(1) signal the whole process group, Slurm
# every process of the job, and a second signal makes Open MPI's mpirun
# exit at once ("hit ctrl-c again to forcibly terminate"), its ranks, in
# process groups of their own, left running (a topomap-run under
# topomap-select-graph would take the second for one to itself alone and
# pass it on to the launcher).  What tells is the sentinel: a process of
# the script's group that blocks the three signals, so that one sent to
# the group stays pending in it, where /proc shows it.  It reads a pipe
# that the script alone holds and ends with it.  Where it cannot be had
# (an env without --block-signal: GNU coreutils before 8.31) every signal
# is passed on.

start_sentinel() {
  stop_sentinel
  exec {sentinel_fd}> >(trap - INT QUIT
    exec env --block-signal=INT,TERM,HUP cat > /dev/null 2>&1)
  sentinel=$!
}
# The end of its pipe would end it too, but after the shell, which would
# leave it to init to reap; KILL, which it cannot block.
stop_sentinel() {
  [ -z "$sentinel_fd" ] || exec {sentinel_fd}>&-
  [ -z "$sentinel" ] || { kill -KILL "$sentinel" 2> /dev/null; wait "$sentinel" 2> /dev/null; }
  sentinel='' sentinel_fd=''
}
# to_group N: whether signal N reached the sentinel too, after a moment:
# a signal to a group is queued to its processes in turn.
to_group() {
  local pending
  sleep 0.1
  pending=$(awk '$1 == "ShdPnd:" { print substr($2, length($2) - 7) }' \
    "/proc/$sentinel/status" 2> /dev/null)
  [ -n "$pending" ] && (((16#$pending >> ($1 - 1)) & 1))
}
# pass_on SIG: SIG to the step, and with WHOM group to every process under
# it in the script's process group.
pass_on() {
  local pids=''
  if [ "$steps_whom" = group ]; then
    # The tree is read first, whole, before any of it ends and its
    # children go to init.
    pids=$(ps -e -o pid= -o ppid= -o pgid= 2> /dev/null | awk -v root="$child" -v me=$$ '
      { up[$1] = $2; group[$1] = $3 }
      END {
        for (p in up) {
          for (q = p; q in up && q != root; q = up[q]) ;
          if (q == root && p != root && group[p] == group[me]) print p
        }
      }')
  fi
  # shellcheck disable=SC2086 # a PID a word
  kill -s "$1" "$child" $pids 2> /dev/null
}
on_signal() {
  caught=$1 caught_n=$2
  [ -n "$child$starting" ] || exit $((128 + caught_n))
  if to_group "$caught_n"; then
    # A new sentinel for the next signal, this one's pending in the old;
    # not while run_child starts its step, whose $! the sentinel's would
    # replace: run_child starts it then.
    pass=''
    if [ -n "$starting" ]; then renew=1; else start_sentinel; fi
  else
    pass=1
    [ -z "$child" ] || pass_on "$caught"
  fi
}
steps_exit() {
  [ -z "$steps_at_exit" ] || "$steps_at_exit"
  stop_sentinel
}
steps_start() {
  case $1 in
    group | child) ;;
    *) say "steps_start: '$1' is neither group nor child"; exit 70 ;;
  esac
  steps_whom=$1 steps_at_exit=${2-}
  child='' starting='' renew='' caught='' caught_n='' pass='' sentinel=''
  sentinel_fd=''
  start_sentinel
  trap steps_exit EXIT
  trap 'on_signal TERM 15' TERM
  trap 'on_signal INT 2' INT
  trap 'on_signal HUP 1' HUP
}

# Without job control the shell starts a background command with SIGINT
# and SIGQUIT ignored and standard input from /dev/null: the subshell
# undoes the first (Ctrl-C would not stop the step, nor the INT passed
# on), unless they were ignored when the script started, and <&0 the
# second (topomap-run's profiling run and the application's run keep
# their input); it closes the sentinel's pipe, which would keep the
# sentinel as long as the step runs.
run_child() {
  local rc
  starting=1
  ( trap - INT QUIT; exec {sentinel_fd}>&-; exec "$@" ) <&0 &
  child=$!
  starting=''
  # A signal in between found no child to pass it on to, or wants a new
  # sentinel.
  [ -z "$pass" ] || pass_on "$caught"
  [ -z "$renew" ] || { renew=''; start_sentinel; }
  # wait returns above 128 when a trapped signal interrupts it, the child
  # still running; once the child has ended, wait gives its status.
  while :; do
    wait "$child"
    rc=$?
    [ $rc -gt 128 ] && kill -0 "$child" 2> /dev/null || break
  done
  child=''
  return $rc
}
stopped() {
  [ -n "$caught" ] || return 0
  say "$1 stopped by SIG$caught${2:+; $2}"
  exit $((128 + caught_n))
}

# parmapper's command line, the same for the check and for the mapping:
# GRAPH, --time, the outputs (DIR/rankfile, the OUTPUT-OPTIONs: the
# launcher's hostfile, DIR/report.json), then --network, --alpha and
# --seed when given (not empty) and last the --parmapper options
# (pm_extra), which thus have the last word.  The script's variables time
# (topomap-run's default 60), network, alpha, seed and the array pm_extra
# hold its options, the last of each.
parmapper_args() {
  pm_args=("$1" --time "$time" --rankfile "$2/rankfile" "${@:3}" --report "$2/report.json")
  [ -z "$network" ] || pm_args+=(--network "$network")
  [ -z "$alpha" ] || pm_args+=(--alpha "$alpha")
  [ -z "$seed" ] || pm_args+=(--seed "$seed")
  pm_args+=("${pm_extra[@]}")
}
# Before anything runs, so that a typo costs no profiling run and no
# graphs: parmapper's own parser (parmapper --check-options: every option,
# its value and its limits, as a run reads them, without MPI and without
# opening a file; parmapper(1)).  GRAPH and DIR need not exist yet, nor
# does the launcher's hostfile option, not known yet, go in.  Its output
# is taken with $(...): no step runs yet, nor is a signal trap set.
# Uses $parmapper.
check_parmapper_args() {
  local out rc=0
  parmapper_args "$@"
  out=$("$parmapper" --check-options "${pm_args[@]}" 2>&1 > /dev/null) || rc=$?
  [ $rc -ne 0 ] || return 0
  [ -z "$out" ] || printf '%s\n' "$out" >&2
  [ $rc -eq 2 ] ||
    { say "cannot check parmapper's options: $parmapper --check-options failed (exit status $rc)"; exit 1; }
  usage "parmapper would refuse its options from --time, --network, --alpha, --seed or --parmapper"
}
