#!/usr/bin/env bash
# time-limit.sh COMMAND...: make check's runner of every test (the
# LOG_COMPILERs of tests/local.mk).  It runs COMMAND in a session of its
# own and waits for it at most TOPOMAP_TEST_TIMEOUT seconds (default 900;
# no test takes a third of that, sanitized, on a loaded 2-core machine).
# A test still running then is a hang: its processes are printed to the
# test's log, as a tree with each one's kernel wait channel, and, where
# gdb is installed, the stacks of its programs (the MPI launcher, its
# daemons and ranks); then they are ended (TERM, KILL 20 s later) and the
# test fails with status 124.  The log's last line says how long the test
# took ("time-limit: N s"), which scripts/test.sh's summary shows.  Without this a hang in one MPI launch
# (once, in CI under Open MPI 5) held the whole of CI until its own
# limit, with nothing in the log to say where.
set -u
limit=${TOPOMAP_TEST_TIMEOUT:-900}

# Started from a non-interactive shell, the test is not a process group
# leader, so setsid execs it in place: its pid is its session's id.
setsid "$@" &
test_pid=$!

# The test's processes: its session, and their descendants in sessions
# of their own (Open MPI 5's daemons, prted, start one).
test_procs() {
  local all=" " new p
  new=$(pgrep -s "$test_pid")
  while [ -n "$new" ]; do
    all="$all$(echo $new) "
    new=$(for p in $(pgrep -P "$(echo $new | tr ' ' ,)"); do
            [[ $all == *" $p "* ]] || echo "$p"
          done)
  done
  echo $all
}

end_session() {
  local i procs
  procs=$(test_procs)
  [ -z "$procs" ] || kill -TERM $procs 2> /dev/null
  for i in $(seq 20); do
    procs=$(test_procs)
    [ -n "$procs" ] || return 0
    sleep 1
  done
  kill -KILL $procs 2> /dev/null
}
trap 'end_session; exit 130' INT
trap 'end_session; exit 143' TERM HUP

sleep "$limit" &
sleeper=$!
wait -n "$test_pid" "$sleeper"
if ! kill -0 "$test_pid" 2> /dev/null; then
  kill "$sleeper" 2> /dev/null
  wait "$test_pid"
  status=$?
  echo "time-limit: $SECONDS s"
  exit $status
fi

echo
echo "TIMEOUT: $* still running after $limit s (TOPOMAP_TEST_TIMEOUT); its processes:"
procs=$(test_procs)
ps -o pid,ppid,sid,stat,etimes,wchan:28,args --forest -p "${procs// /,}"
if command -v gdb > /dev/null; then
  # The stacks of the programs, not of the shells and sleeps around them.
  n=0
  for pid in $procs; do
    comm=$(cat "/proc/$pid/comm" 2> /dev/null) || continue
    case $comm in bash | sh | dash | sleep | timeout | flock | cat | tee) continue ;; esac
    n=$((n + 1))
    [ "$n" -le 12 ] || { echo "(stacks of further processes not shown)"; break; }
    echo "== stack of $pid ($comm): $(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null | cut -c1-200)"
    timeout 30 gdb -p "$pid" -batch -nx -ex 'thread apply all bt 20' 2>&1 |
      grep -E "^(Thread|#)" | cut -c1-160 | head -n 80
  done
fi
end_session
echo "TIMEOUT: the test's session ended (status 124)"
echo "time-limit: $SECONDS s"
exit 124
