#!/usr/bin/env bash
# parmapper stopped by a signal (Slurm's time limit and scancel send
# SIGTERM, ^C sends SIGINT) at random moments of a search that spends much
# of its time in METIS (the GPART orders of a 65536-task graph, a new seed
# every round): every time the exit status of that signal (128 + N), no
# crash, and no output or temporary on disk.  METIS installs a SIGTERM
# handler for the whole process while it runs, which longjmps with the
# receiving thread's (empty) jump buffers: before parmapper kept the
# signals to itself, this crashed (SIGSEGV) most times the signal came
# while a worker was in METIS.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
mkdir "$work/out.d"
expect_ok "$TASKGRAPH" gen stencil --dims 256x256 -o "$work/g.tg.json"
outs=(--rankfile "$work/out.d/rf" --mapping "$work/out.d/map" --report "$work/out.d/r.json"
      --slurm-hostfile "$work/out.d/hosts")
runs=${PM_SIGNAL_RUNS:-30}
bad=0
for i in $(seq 1 "$runs"); do
  case $((i % 6)) in 0) sig=INT; n=2 ;; 3) sig=HUP; n=1 ;; *) sig=TERM; n=15 ;; esac
  # The shell starts a background job with SIGINT ignored, and nohup (a
  # test run under it) leaves SIGHUP ignored: not for this one.
  env --default-signal=INT,HUP "$PARMAPPER" "$work/g.tg.json" --nodes 64 --slots 1024 --time 60 \
    "${outs[@]}" > "$work/sig.out" 2> "$work/sig.err" &
  pid=$!
  # A random moment from 1 to 2.9 s in: mostly during the search.
  sleep "$((10 + RANDOM % 20))e-1"
  kill -s "$sig" "$pid"
  wait "$pid"
  rc=$?
  checks=$((checks + 1))
  if [ "$rc" -ne $((128 + n)) ]; then
    fail "run $i: SIG$sig gave exit $rc, expected $((128 + n))"
    sed 's/^/  stderr: /' "$work/sig.err" | head -5
    bad=$((bad + 1))
  fi
  checks=$((checks + 1))
  grep -qxF "parmapper: stopped by SIG$sig: nothing written" "$work/sig.err" ||
    { fail "run $i: no message for SIG$sig"; sed 's/^/  stderr: /' "$work/sig.err" | head -5; }
  checks=$((checks + 1))
  [ "$(count_files "$work/out.d")" -eq 0 ] || { fail "run $i: SIG$sig left: $(ls -A "$work/out.d")"; rm -f "$work"/out.d/* "$work"/out.d/.??*; }
done
echo "$runs runs, $bad ended with the wrong status"

# A signal ignored when parmapper starts (nohup's SIGHUP) stays ignored:
# the search runs to its limit and writes its outputs.
(trap '' HUP; exec "$PARMAPPER" "$work/g.tg.json" --nodes 64 --slots 1024 --time 4 \
   "${outs[@]}" > "$work/sig.out" 2> "$work/sig.err") &
pid=$!
sleep 2
kill -s HUP "$pid"
wait "$pid"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 0 ] || { fail "an ignored SIGHUP: exit $rc, expected 0"; sed 's/^/  stderr: /' "$work/sig.err"; }
checks=$((checks + 1))
[ "$(count_files "$work/out.d")" -eq 4 ] || fail "an ignored SIGHUP: expected 4 outputs: $(ls -A "$work/out.d")"
finish
