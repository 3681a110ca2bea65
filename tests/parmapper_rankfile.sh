#!/usr/bin/env bash
# parmapper inside a job on this host: it finds the host and the cores
# its ranks may use, and the rankfile it writes launches
# tests/mpi/whereami with every rank bound to the core its line names
# (Open MPI reads slot=N as logical core N).  With --tasks-per-slot 2 two
# ranks share each core.  An offline hostfile that gives this host more
# slots than it has cores is refused before anything runs.
. "$TOPOMAP_SRCDIR/tests/parmapper_lib.sh"
host=$(hostname)

# Two ranks are bound to one core each by default: two slots.
expect_ok "$TASKGRAPH" gen stencil --dims 2 -o "$work/two.tg.json"
expect_ok pm 2 "$work/two.tg.json" --first --rankfile "$work/rf" --report "$work/r.json"
expect_ok $check report "$work/r.json"
expect_ok mpirun -np 2 --rankfile "$work/rf" "$MPI_TESTS/whereami"
cp "$work/out" "$work/where"
expect_ok $check bound "$work/rf" "$work/where"

# Four tasks on the same two cores.
expect_ok "$TASKGRAPH" gen stencil --dims 4 --periodic -o "$work/four.tg.json"
expect_ok pm 2 "$work/four.tg.json" --first --tasks-per-slot 2 --rankfile "$work/rf4"
checks=$((checks + 1))
[ "$(grep -c 'slot=0$' "$work/rf4")" -eq 2 ] && [ "$(grep -c 'slot=1$' "$work/rf4")" -eq 2 ] ||
  fail "expected two ranks on each core: $(cat "$work/rf4")"
expect_ok mpirun -np 4 --rankfile "$work/rf4" "$MPI_TESTS/whereami"
cp "$work/out" "$work/where4"
expect_ok $check bound "$work/rf4" "$work/where4"

# More tasks than the two slots: both numbers.
expect_fail 1 "4 tasks, but the machine has only 2 slots" \
  pm 2 "$work/four.tg.json" --first --rankfile "$work/bad"
expect_no_file "$work/bad"

# Offline, naming this host with a slot it does not have.
cores=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['machine']['hosts'][0]['cores'])" "$work/r.json")
echo "$host slots=$((cores + 1))" > "$work/hostfile"
expect_ok "$TASKGRAPH" gen stencil --dims $((cores + 1)) -o "$work/more.tg.json"
expect_fail 1 "host $host has $cores cores (hwloc), so its slot $cores (core $cores) does not exist there" \
  "$PARMAPPER" "$work/more.tg.json" --hostfile "$work/hostfile" --first --rankfile "$work/bad"
expect_no_file "$work/bad"
finish
