#!/usr/bin/env bash
# libcommprof on tests/mpi/abort.c (4 ranks), which never reaches
# MPI_Finalize: after MPI_Abort, exit() and SIGINT, every rank that
# recorded something leaves a whole partial file with exactly what it
# recorded (the others leave theirs on mpirun's SIGTERM), no temporary
# file is left, and the job ends as it would have without the profiler
# (exit status 3 from MPI_Abort(3) and exit(3), 128 + SIGINT).  taskgraph
# merge makes one profile of the partial files.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
for how in abort:3 exit:3 signal:130; do
  mkdir "$work/${how%:*}"
  checks=$((checks + 1))
  run 4 -x COMMPROF_OUT="$work/${how%:*}/prof.json" "$MPI_TESTS/abort" "${how%:*}" \
    > "$work/out" 2> "$work/err"
  rc=$?
  [ "$rc" -eq "${how#*:}" ] || fail "${how%:*}: mpirun exited with $rc, expected ${how#*:}"
  expect_ok $check partial "$work/${how%:*}" "${how%:*}"
done
expect_ok "$TASKGRAPH" merge --allow-missing "$work"/abort/prof.json.rank* \
  -o "$work/merged.json"
finish
