#!/usr/bin/env bash
# parmapper inside a job on this host: it finds the host and the cores
# its ranks may use, and the rankfile it writes launches
# tests/mpi/whereami with every rank bound to the core its line names
# (Open MPI reads slot=N as logical core N), with the configured launcher
# (launch_mapped in mpi_lib.sh: Open MPI 4.1 and 5, MPICH's Hydra).  With --tasks-per-slot 2 two
# ranks share each core, and so they do without it when 4 ranks run on 2
# cores.  An offline hostfile that gives this host more slots than it has
# cores shares its cores among them, and is refused with --tasks-per-slot 1
# before anything runs.  --check-rankfile takes parmapper's rankfiles and
# hand-written ones with '#' comments, and refuses, naming the line, a
# host not in the job, a core or socket the host lacks, a rank given twice
# and a line it cannot read; the largest rank costs no memory.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
host=$(hostname)

# Two ranks are bound to one core each by default: two slots.
expect_ok "$TASKGRAPH" gen stencil --dims 2 -o "$work/two.tg.json"
expect_ok pm 2 "$work/two.tg.json" --first --rankfile "$work/rf" --report "$work/r.json"
expect_ok $check report "$work/r.json"
expect_ok launch_mapped 2 "$work/rf" "$MPI_TESTS/whereami"
cp "$work/out" "$work/where"
expect_ok $check bound "$work/rf" "$work/where"

# Four tasks on the same two cores.
expect_ok "$TASKGRAPH" gen stencil --dims 4 --periodic -o "$work/four.tg.json"
expect_ok pm 2 "$work/four.tg.json" --first --tasks-per-slot 2 --rankfile "$work/rf4"
checks=$((checks + 1))
[ "$(grep -c 'slot=0$' "$work/rf4")" -eq 2 ] && [ "$(grep -c 'slot=1$' "$work/rf4")" -eq 2 ] ||
  fail "expected two ranks on each core: $(cat "$work/rf4")"
expect_ok launch_mapped 4 "$work/rf4" "$MPI_TESTS/whereami"
cp "$work/out" "$work/where4"
expect_ok $check bound "$work/rf4" "$work/where4"

# Four ranks on the two cores without --tasks-per-slot: 2 per core, found
# from the ranks and usable cores of the host; the report says so.
expect_ok pm 4 "$work/four.tg.json" --first --rankfile "$work/rf4d" --report "$work/r4d.json"
checks=$((checks + 1))
[ "$(grep -c 'slot=0$' "$work/rf4d")" -eq 2 ] && [ "$(grep -c 'slot=1$' "$work/rf4d")" -eq 2 ] ||
  fail "expected two ranks on each core without --tasks-per-slot: $(cat "$work/rf4d")"
checks=$((checks + 1))
got=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['machine']; h=m['hosts'][0]
print(m['slots'], m['tasks_per_slot'], h['ranks'], h['cores_used'], h['tasks_per_slot'])" "$work/r4d.json")
[ "$got" = "4 None 4 [0, 1] 2" ] || fail "report of 4 ranks on 2 cores: $got"
expect_ok launch_mapped 4 "$work/rf4d" "$MPI_TESTS/whereami"
cp "$work/out" "$work/where4d"
expect_ok $check bound "$work/rf4d" "$work/where4d"

# Under MPICH's Hydra, parmapper's own --hydra-hostfile and the line it
# prints place the ranks as its rankfile says.
if [ "$MPIEXEC_KIND" = hydra ]; then
  expect_ok pm 4 "$work/four.tg.json" --first --rankfile "$work/rfh" --hydra-hostfile "$work/hh"
  read -ra line <<< "$(sed -n 's/^hydra: mpiexec //p' "$work/out")"
  expect_ok "$MPIEXEC" -n 4 "${line[@]}" "$MPI_TESTS/whereami"
  cp "$work/out" "$work/whereh"
  expect_ok $check bound "$work/rfh" "$work/whereh"
fi

# More tasks than the two slots: both numbers.
expect_fail 1 "4 tasks, but the machine has only 2 slots" \
  pm 2 "$work/four.tg.json" --first --rankfile "$work/bad"
expect_no_file "$work/bad"

# Offline, naming this host with more slots than cores: without
# --tasks-per-slot they share its cores (2 a core); with --tasks-per-slot
# 1 the slot beyond them is refused.
cores=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['machine']['hosts'][0]['cores'])" "$work/r.json")
echo "$host slots=$((cores + 1))" > "$work/hostfile"
expect_ok "$TASKGRAPH" gen stencil --dims $((cores + 1)) -o "$work/more.tg.json"
expect_ok "$PARMAPPER" "$work/more.tg.json" --hostfile "$work/hostfile" --first \
  --mapping "$work/more.map" --rankfile "$work/more.rf"
checks=$((checks + 1))
want=$(awk '!/^#/ { print "rank " $1 "=" $2 " slot=" int($3 / 2) }' "$work/more.map")
[ "$(sort "$work/more.rf")" = "$(sort <<< "$want")" ] ||
  fail "offline slots not 2 a core: $(cat "$work/more.rf") for $(cat "$work/more.map")"
expect_fail 1 "host $host has $cores cores (hwloc), so its slot $cores (core $cores) does not exist there" \
  "$PARMAPPER" "$work/more.tg.json" --hostfile "$work/hostfile" --tasks-per-slot 1 --first \
  --rankfile "$work/bad"
expect_no_file "$work/bad"

# --check-rankfile on this host (one rank; two ranks find the same host).
expect_ok pm 1 --check-rankfile "$work/rf4d"
expect_output "$work/rf4d: 4 ranks on 1 of the job's 1 hosts, every host and core there"
expect_ok pm 2 --check-rankfile "$work/more.rf"
expect_output "$work/more.rf: $((cores + 1)) ranks on 1 of the job's 1 hosts, every host and core there"
printf '# by hand\nrank 1=%s slot=0-%d\n\nrank 0 = %s slot = 0:0\n' "$host" $((cores - 1)) "$host" \
  > "$work/hand.rf"
expect_ok pm 1 --check-rankfile "$work/hand.rf"
expect_output "$work/hand.rf: 2 ranks on 1 of the job's 1 hosts, every host and core there"
# A '#' after the fields starts a comment, as mpirun --rankfile and
# greedymap eval read it; a line with one is still checked, at its number.
printf 'rank 0=%s slot=0 # by hand\n  # indented\nrank 1=%s slot=0#tight\n' "$host" "$host" \
  > "$work/comment.rf"
expect_ok pm 1 --check-rankfile "$work/comment.rf"
expect_output "$work/comment.rf: 2 ranks on 1 of the job's 1 hosts, every host and core there"
printf '# c\nrank 0=%s slot=0 # c\nrank 1=%s slot=%d # c\n' "$host" "$host" "$cores" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:3: slot=$cores: host $host has $cores cores (hwloc, logical 0-$((cores - 1))), so core $cores does not exist there" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s # slot=0\n' "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:1: expected 'rank N=HOST slot=CORES', not 'rank 0=$host'" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=0\nrank 1=nosuchhost slot=0\n' "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:2: rank 1: host nosuchhost is not a host of this job (its hosts: $host)" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=0\nrank 1=%s slot=0,%d\n' "$host" "$host" "$cores" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:2: slot=0,$cores: host $host has $cores cores (hwloc, logical 0-$((cores - 1))), so core $cores does not exist there" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=1:0\n' "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:1: slot=1:0: host $host has 1 socket(s) (hwloc), so socket 1 does not exist there" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=0\nrank 0=%s slot=0\n' "$host" "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:2: rank 0 again (already on line 1)" \
  pm 1 --check-rankfile "$work/bad.rf"
# A rank's number costs nothing: the 24-byte line of the largest rank,
# 16777215, took 145 MB (a table of lines by rank); it is checked within
# 100 MB of data (ulimit -d: brk and private mappings; a sanitized build,
# whose ASan reserves terabytes of them, runs without the limit).  Ranks
# given twice are found by sorting the lines' ranks: the first line that
# repeats an earlier rank is named, with the first line of that rank,
# before an error on a later line, whatever the ranks' order.
pm_data() {
  local np=$1; shift
  if [ -n "${ASAN_OPTIONS:-}" ]; then pm "$np" "$@"; return; fi
  launch "$np" bash -c 'ulimit -d 100000 && exec "$0" "$@"' "$PARMAPPER" "$@"
}
printf 'rank 16777215=%s slot=0\n' "$host" > "$work/top.rf"
expect_ok pm_data 1 --check-rankfile "$work/top.rf"
expect_output "$work/top.rf: 1 ranks on 1 of the job's 1 hosts, every host and core there"
printf 'rank 16777215=%s slot=0\nrank 5=%s slot=0\nrank 16777215=%s slot=0\nrank 5=%s slot=0\nrank 6\n' \
  "$host" "$host" "$host" "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:3: rank 16777215 again (already on line 1)" \
  pm_data 1 --check-rankfile "$work/bad.rf"
printf '# three\nrank 7=%s slot=0\nrank 2=%s slot=0\nrank 7=%s slot=0\nrank 7=%s slot=0\n' \
  "$host" "$host" "$host" "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:4: rank 7 again (already on line 2)" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=0\nrank 1 %s\nrank 0=%s slot=0\n' "$host" "$host" "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:2: expected 'rank N=HOST slot=CORES', not 'rank 1 $host'" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 16777216=%s slot=0\n' "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:1: expected 'rank N=HOST slot=CORES', not 'rank 16777216=$host slot=0'" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=0\nrank 1=%s\n' "$host" "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:2: expected 'rank N=HOST slot=CORES', not 'rank 1=$host'" \
  pm 1 --check-rankfile "$work/bad.rf"
printf 'rank 0=%s slot=x\n' "$host" > "$work/bad.rf"
expect_fail 1 "parmapper: $work/bad.rf:1: slot=x: cannot read 'x' (cores: 2, 0-3 or SOCKET:CORES such as 1:0-2)" \
  pm 1 --check-rankfile "$work/bad.rf"
printf '# only\n\n   \n# comments\n' > "$work/empty.rf"
expect_fail 1 "parmapper: $work/empty.rf: no 'rank N=HOST slot=CORES' line" \
  pm 1 --check-rankfile "$work/empty.rf"
: > "$work/empty.rf"
expect_fail 1 "parmapper: $work/empty.rf: empty file" \
  pm 1 --check-rankfile "$work/empty.rf"
expect_fail 1 "parmapper: $work/none.rf: cannot open: No such file or directory" \
  pm 1 --check-rankfile "$work/none.rf"
expect_fail 2 "--check-rankfile FILE takes no task graph and no other option" \
  pm 1 --check-rankfile "$work/rf4d" "$work/four.tg.json"
expect_fail 2 "--check-rankfile FILE takes no task graph and no other option" \
  pm 1 --check-rankfile "$work/rf4d" --time 1
finish
