#!/usr/bin/env bash
# topomap-run on 4 ranks: the whole pipeline on examples/halo3d (profile,
# build, map, run) leaves its files where --keep says and maps the one
# critical type's graph; with --graph, tests/mpi/whereami's ranks are bound
# where the rankfile says; the application's exit status comes through;
# the launcher (a stand-in that logs and runs the real one) gets exactly
# the expected arguments, --map-by only for parmapper; --rankfile checks
# the rankfile in the job first (one rank per node, -np left out) and
# refuses a host or core this host does not have, naming the line, without
# running the application (--no-check skips it); a failing step stops
# before the application; bad usage fails before anything runs.
. "$TOPOMAP_SRCDIR/tests/pipeline_lib.sh"
run=$TOPOMAP_RUN

# The whole pipeline.
k=$work/k
expect_ok "$run" --time 0.3 --keep "$k" -- \
  mpirun -np 4 "$EXAMPLES/halo3d" --bytes 64 --iters 2
expect_grep "halo3d: 4 ranks, grid 2x2x1, 64 bytes per message, 2 iterations" "$work/out"
for f in commprof.json graphs/summary.json graphs/p2p.tg.json rankfile report.json; do
  checks=$((checks + 1)); [ -s "$k/$f" ] || fail "no $k/$f"
done
expect_grep "topomap-run: mapping: mpirun -np 4 " "$work/err"
expect_grep " $k/graphs/p2p.tg.json --time 0.3 --rankfile $k/rankfile" "$work/err"
expect_grep "topomap-run: running: mpirun --rankfile $k/rankfile -np 4 $EXAMPLES/halo3d" "$work/err"
expect_grep "  default (block)" "$work/err"

# The ranks run where the rankfile says ("rank R=HOST slot=CORE").
expect_ok "$run" --graph "$k/graphs/p2p.tg.json" --time 0.3 --keep "$work/w" \
  -- mpirun -np 4 "$MPI_TESTS/whereami"
sed -E 's/^rank ([0-9]+)=(.*) slot=(.*)$/rank \1 host \2 cores \3/' "$work/w/rankfile" > "$work/want"
checks=$((checks + 1))
[ "$(wc -l < "$work/want")" = 4 ] && diff "$work/want" "$work/out" ||
  fail "bindings differ from the rankfile"

# The application's exit status, after a mapping and with a rankfile.
expect_fail 3 "" "$run" --graph "$k/graphs/p2p.tg.json" --time 0.3 -- \
  mpirun -np 4 sh -c 'exit 3'
expect_fail 5 "topomap-run: running: mpirun --rankfile $k/rankfile -np 4 sh -c" \
  "$run" --rankfile "$k/rankfile" -- mpirun -np 4 sh -c 'exit 5'
expect_grep "topomap-run: checking the rankfile: mpirun --map-by ppr:1:node $(realpath "$PARMAPPER") --check-rankfile $k/rankfile" "$work/err"
expect_grep "topomap-run: $k/rankfile: 4 ranks on 1 of the job's 1 hosts, every host and core there" "$work/err"

# A rankfile that names another host, or a core this host lacks, is
# refused before the application runs, with the line; -np and -x are
# the application's, --map-by left out of the check as of the run.
host=$(hostname)
cores=$(hwloc-calc --number-of core all)
printf 'rank 0=%s slot=0\nrank 1=elsewhere slot=0\n' "$host" > "$work/other.rf"
expect_fail 1 "parmapper: $work/other.rf:2: rank 1: host elsewhere is not a host of this job (its hosts: $host)" \
  "$run" --rankfile "$work/other.rf" -- mpirun -np 2 --map-by core -x FOO=1 touch "$work/ran"
expect_grep "topomap-run: checking the rankfile: mpirun -x FOO=1 --map-by ppr:1:node" "$work/err"
expect_grep "topomap-run: $work/other.rf does not fit this job (exit status 1); the application was not run" "$work/err"
expect_no_file "$work/ran"
printf 'rank 0=%s slot=0\nrank 1=%s slot=%d\n' "$host" "$host" "$cores" > "$work/core.rf"
expect_fail 1 "parmapper: $work/core.rf:2: slot=$cores: host $host has $cores cores (hwloc, logical 0-$((cores - 1))), so core $cores does not exist there" \
  "$run" --rankfile "$work/core.rf" -- mpirun -np 2 touch "$work/ran"
expect_no_file "$work/ran"
# --no-check: mpirun alone, which fails without naming the core.
expect_fail 1 "" "$run" --rankfile "$work/core.rf" --no-check -- mpirun -np 2 touch "$work/ran"
checks=$((checks + 1))
! grep -q "checking the rankfile" "$work/err" || fail "--no-check checked the rankfile"
expect_no_file "$work/ran"

# What the launcher is given.
mkdir "$work/bin"
printf '#!/bin/sh\necho "$*" >> %s/calls\nexec %s "$@"\n' "$work" "$(command -v mpirun)" \
  > "$work/bin/mpirun"
chmod +x "$work/bin/mpirun"
f=$work/f
expect_ok "$run" --graph "$k/graphs/p2p.tg.json" --time 0.3 --seed 7 --keep "$f" \
  --parmapper --select=avg -- "$work/bin/mpirun" -np 4 --map-by slot -x FOO=1 "$EXAMPLES/halo3d" \
  --iters 1
cat > "$work/want" <<EOF
--allow-run-as-root --help all
-np 4 --map-by slot -x FOO=1 $(realpath "$PARMAPPER") $k/graphs/p2p.tg.json --time 0.3 --rankfile $f/rankfile --report $f/report.json --seed 7 --select=avg
--rankfile $f/rankfile -np 4 -x FOO=1 $EXAMPLES/halo3d --iters 1
EOF
checks=$((checks + 1)); diff "$work/want" "$work/calls" || fail "the launcher's arguments"
expect_grep "topomap-run: leaving '--map-by slot' out of the application's run" "$work/err"

# A step that fails stops the run before the application.
echo '{"format": "topomap-taskgraph", "version": 1, "tasks": 4' > "$work/bad.tg.json"
expect_fail 1 "topomap-run: mapping failed (exit status 1); the application was not run" \
  "$run" --graph "$work/bad.tg.json" --time 0.3 -- mpirun -np 4 touch "$work/ran"
expect_no_file "$work/ran"

# Bad usage.
g=$k/graphs/p2p.tg.json
expect_fail 2 "no job to run" "$run" --graph "$g"
expect_fail 2 "unknown option '--bogus'" "$run" --bogus -- mpirun -np 4 ./app
expect_fail 2 "'aprun' is not Open MPI's mpirun, mpiexec or orterun (a rankfile is Open MPI's), nor Slurm's srun" \
  "$run" --graph "$g" -- aprun -n 4 ./app
# srun's options come from srun --help, which needs Slurm's configuration
# (an empty one fails at once; tests/cluster_slurm.sh runs srun on a Slurm
# cluster).
if command -v srun > /dev/null; then
  expect_fail 1 "srun --help: no options listed (is Slurm's configuration there? SLURM_CONF)" \
    env SLURM_CONF=/dev/null "$run" --graph "$g" -- srun -n 4 ./app
fi
expect_fail 2 "--rankfile is for mpirun; with srun, --slurm-hostfile F [--map-cpu LIST]" \
  "$run" --rankfile "$g" -- srun -n 4 ./app
expect_fail 2 "--slurm-hostfile is for srun; with mpirun, --rankfile F" \
  "$run" --slurm-hostfile "$g" -- mpirun -np 4 ./app
expect_fail 2 "--map-cpu goes with --slurm-hostfile" "$run" --map-cpu 0,1 -- srun -n 4 ./app
expect_fail 2 "--map-cpu wants CPU numbers separated by commas (0,1,2), not '0;1'" \
  "$run" --slurm-hostfile "$g" --map-cpu '0;1' -- srun -n 4 ./app
expect_fail 2 "--slurm-hostfile runs a mapping made earlier" \
  "$run" --slurm-hostfile "$g" --graph "$g" -- srun -n 4 ./app
expect_fail 2 "mpirun has no option '--bogus'" "$run" --graph "$g" -- mpirun --bogus 4 ./app
expect_fail 2 "no application after the mpirun options" "$run" --graph "$g" -- mpirun -np 4
expect_fail 2 "an MPMD command line (':')" "$run" --graph "$g" -- mpirun -np 2 ./a : -np 2 ./b
expect_fail 2 "mpirun --rankfile: topomap-run makes the rankfile" \
  "$run" --graph "$g" -- mpirun --rankfile r -np 4 ./app
expect_fail 2 "--time wants a number of seconds > 0, not '0'" "$run" --time 0 -- mpirun ./app
expect_fail 2 "--alpha wants a number >= 1, not '0.5'" "$run" --alpha 0.5 -- mpirun ./app
expect_fail 2 "--rankfile runs a mapping made earlier" \
  "$run" --rankfile "$k/rankfile" --graph "$g" -- mpirun ./app
expect_fail 2 "--no-check goes with --rankfile" "$run" --graph "$g" --no-check -- mpirun ./app
expect_fail 1 "$work/none.tg.json: no such file" "$run" --graph "$work/none.tg.json" -- mpirun ./app
expect_ok "$run" --help
expect_grep "Usage: topomap-run [OPTIONS] [--] mpirun MPIRUN-ARGS APP APP-ARGS" "$work/out"
finish
