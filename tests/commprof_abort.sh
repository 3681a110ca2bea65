#!/usr/bin/env bash
# libcommprof on tests/mpi/abort.c (4 ranks), which never reaches
# MPI_Finalize: after MPI_Abort, exit() and SIGINT, every rank that
# recorded something leaves a whole partial file with exactly what it
# recorded (the others leave theirs on mpirun's SIGTERM), no temporary
# file is left, and the job ends as it would have without the profiler
# (exit status 3 from MPI_Abort(3) and exit(3), 128 + SIGINT; under
# MPICH's Hydra, which kills the others, rank 1's file, 3 from MPI_Abort).  taskgraph
# merge makes one profile of the partial files, with their job id; it
# refuses partial files of two runs (naming both files and both job ids,
# writing nothing), and takes a file without a job id (an older
# libcommprof), saying that it could not be checked.
. "$TOPOMAP_SRCDIR/tests/commprof_lib.sh"
for how in abort:3 exit:3 signal:130; do
  mkdir "$work/${how%:*}"
  checks=$((checks + 1))
  run 4 -x COMMPROF_OUT="$work/${how%:*}/prof.json" "$MPI_TESTS/abort" "${how%:*}" \
    > "$work/out" 2> "$work/err"
  rc=$?
  if mpi_is_openmpi || [ "${how%:*}" = abort ]; then
    [ "$rc" -eq "${how#*:}" ] || fail "${how%:*}: the launcher exited with $rc, expected ${how#*:}"
  else
    # Hydra exits with a signal's number of the ranks it ended (varies).
    [ "$rc" -ne 0 ] || fail "${how%:*}: the launcher exited with 0"
  fi
  expect_ok $check partial "$work/${how%:*}" "${how%:*}"
done
# The rest merges the partial files of three ranks, which Hydra, ending the
# survivors with SIGKILL, does not leave (see mpi_lib.sh); taskgraph's
# merge does not depend on the MPI.
mpi_is_openmpi || finish
expect_ok "$TASKGRAPH" merge --allow-missing "$work"/abort/prof.json.rank* \
  -o "$work/merged.json"
expect_output "wrote $work/merged.json: 3 of 4 ranks, 3 communicators"
job() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["job"]["id"])' "$1"; }
abort_job=$(job "$work/abort/prof.json.rank0")
exit_job=$(job "$work/exit/prof.json.rank0")
checks=$((checks + 1))
[ "$(job "$work/merged.json")" = "$abort_job" ] || fail "merged job id $(job "$work/merged.json"), expected $abort_job"
checks=$((checks + 1))
[ "$abort_job" != "$exit_job" ] || fail "two runs drew the same job id $abort_job"
# Ranks 0 and 1 of one run with rank 2 of another: 3 ranks of 4 of one
# world size and types, which the merge took before job ids.
expect_fail 1 "$work/exit/prof.json.rank2: from job $exit_job, but $work/abort/prof.json.rank0 is from job $abort_job: partial profiles of different runs cannot be merged" \
  "$TASKGRAPH" merge --allow-missing "$work"/abort/prof.json.rank[01] \
  "$work/exit/prof.json.rank2" -o "$work/mixed.json"
expect_no_file "$work/mixed.json"
# A partial file without "job" (as libcommprof wrote them before) is read,
# named, and merged; the result has the job of the files that have one.
python3 -c 'import json, sys
p = json.load(open(sys.argv[1])); del p["job"]; json.dump(p, open(sys.argv[2], "w"))' \
  "$work/exit/prof.json.rank2" "$work/old.rank2"
expect_ok "$TASKGRAPH" merge --allow-missing "$work"/abort/prof.json.rank[01] \
  "$work/old.rank2" -o "$work/old-merged.json"
expect_grep "$work/old.rank2 has no job id (written by a libcommprof older than the job id): whether it comes from the same run as the others is unknown" "$work/err"
expect_grep "1 of 3 partial files have no job id; the others are all from one job" "$work/err"
checks=$((checks + 1))
[ "$(job "$work/old-merged.json")" = "$abort_job" ] || fail "old-merged job id, expected $abort_job"
# A "job" that is not one is refused by the reader.
for bad in 'id|"12345"|job.id: must be 16 lowercase hexadecimal digits' \
           'id|"ABCDEF0123456789"|job.id: must be 16 lowercase hexadecimal digits' \
           'all|"x"|job: must be an object' 'all|{"start": 1}|job: missing "id"' \
           'start|-1|job.start: must be a time in seconds'; do
  IFS='|' read -r what value msg <<< "$bad"
  python3 -c 'import json, sys
p = json.load(open(sys.argv[1])); v = json.loads(sys.argv[3])
if sys.argv[2] == "all": p["job"] = v
else: p["job"][sys.argv[2]] = v
json.dump(p, open(sys.argv[4], "w"))' "$work/abort/prof.json.rank0" "$what" "$value" "$work/bad.json"
  expect_fail 1 "$msg" "$TASKGRAPH" info "$work/bad.json"
done
finish
